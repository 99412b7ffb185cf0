//! The §6.3 crank–slider study (paper 000, Fig. 9; issue 3): normalized coupler midpoint
//! deflection peaks $u_f^y(L/2)/L$ to $t = 0.053$ s with and without geometric stiffening,
//! their convergence in mesh and time step, and the discrete power balance
//! (crank work = ΔH). The full grid (2–16 elements, h = 2^-15…2^-17 s) is
//! `crank_slider_study_full` and the example `crates/phlex/examples/crank_slider_study.rs`
//! (which also writes the Fig. 9 plots); the fast twin runs 2, 4, 8 elements at
//! h = 2^-15 s and 8 elements at h = 2^-14 s. Steps are powers of two so that the grid is
//! exact and the modified-Newton matrix is kept ([`CrankSlider::params`]).
//!
//! Measured max / min of u_y(L/2)/L (from the example):
//!
//! | elements | h [s] | linear | stiffened |
//! |---|---|---|---|
//! | 2 | 2^-15 | +1.857951e-2 / −1.403018e-2 | +1.523955e-2 / −1.183342e-2 |
//! | 4 | 2^-15 | +1.861458e-2 / −1.366262e-2 | +1.527033e-2 / −1.212122e-2 |
//! | 8 | 2^-15 | +1.861785e-2 / −1.363294e-2 | +1.527320e-2 / −1.215043e-2 |
//! | 8 | 2^-14 | +1.861945e-2 / −1.361444e-2 | +1.527644e-2 / −1.215715e-2 |
//! | 16 | 2^-17 | +1.862001e-2 / −1.363604e-2 | +1.528159e-2 / −1.214982e-2 |
//!
//! Converged (16 elements, h = 2^-16 and 2^-17 s agree to 1.6e-4): linear +1.8620e-2 /
//! −1.3636e-2, stiffened +1.5282e-2 / −1.2150e-2 (the peaks carry the aliased axial
//! vibration of the undeformed start, so they move by a few 1e-4 with h); the linear
//! floating frame over-predicts the positive peak by 22 % and the negative one by 12 %. The
//! coupler normal force ranges over ≈ [−0.46, +0.62] of the Euler load π²EI/L² = 1395 N.
use phlex_mbs::{CrankSlider, CrankSliderRun};

const T_END: f64 = 0.053;

fn run(n: usize, h: f64, stiff: bool) -> CrankSliderRun {
    let r = CrankSlider::new(n, stiff)
        .run(CrankSlider::params(h, T_END, 1))
        .expect("crank–slider run");
    println!(
        "{n:>2} elements, h = {h:.3e}, stiffening {stiff:>5}: u_y(L/2)/L in [{:+.6e}, {:+.6e}], n/P_cr in [{:+.3}, {:+.3}], energy residual {:.1e}, {} steps, {} Newton, {} LU, {:.3} s",
        r.uy_range.0,
        r.uy_range.1,
        r.normal_force_range.0,
        r.normal_force_range.1,
        r.rel_residual,
        r.stats.steps,
        r.stats.newton_iterations,
        r.stats.factorizations,
        r.seconds
    );
    // crank work = ΔH step by step (discrete gradient; residual at the Newton tolerance,
    // measured ≤ 4e-10 relative)
    assert!(r.rel_residual < 1e-8, "energy residual {}", r.rel_residual);
    r
}

/// 2^-15 s and 2^-14 s.
const H15: f64 = 1.0 / 32768.0;
const H14: f64 = 1.0 / 16384.0;

/// Differences between successive meshes shrink for both peaks, with and without
/// stiffening (measured at h = 2^-15 s, in u_y/L: linear max 3.5e-5 then 3.3e-6, min
/// 3.7e-4 then 3.0e-5; stiffened max 3.1e-5 then 2.9e-6, min 2.9e-4 then 2.9e-5; asserted
/// ratio < 0.2);
/// the step is converged (2^-14 vs 2^-15 s: at most 1.4e-3 relative, asserted 2e-3); the
/// 8-element peaks at 2^-15 s are within 6e-4 of the finest grid (asserted 1e-3); the
/// stiffened peaks are smaller in magnitude than the linear ones by more than 10 %.
#[test]
fn crank_slider_study_fast() {
    let finest = |stiff: bool| {
        if stiff {
            (-1.214982e-2, 1.528159e-2)
        } else {
            (-1.363604e-2, 1.862001e-2)
        }
    };
    let mut eight = Vec::new();
    for stiff in [false, true] {
        let r: Vec<CrankSliderRun> = [2, 4, 8].iter().map(|&n| run(n, H15, stiff)).collect();
        for (k, name) in [(1usize, "max"), (0, "min")] {
            let p: Vec<f64> = r
                .iter()
                .map(|x| if k == 1 { x.uy_range.1 } else { x.uy_range.0 })
                .collect();
            let (d1, d2) = ((p[1] - p[0]).abs(), (p[2] - p[1]).abs());
            println!("stiffening {stiff}, {name}: mesh differences {d1:.2e}, {d2:.2e}");
            assert!(d2 < 0.2 * d1, "{name}: {d1} then {d2}");
        }
        let coarse_h = run(8, H14, stiff);
        let (min8, max8) = r[2].uy_range;
        for (a, b) in [(coarse_h.uy_range.0, min8), (coarse_h.uy_range.1, max8)] {
            assert!((a - b).abs() < 2e-3 * b.abs(), "step: {a} vs {b}");
        }
        let (fmin, fmax) = finest(stiff);
        assert!((min8 - fmin).abs() < 1e-3 * fmin.abs(), "{min8} vs {fmin}");
        assert!((max8 - fmax).abs() < 1e-3 * fmax, "{max8} vs {fmax}");
        // the axial force reaches a large fraction of the Euler load in compression
        assert!(
            r[2].normal_force_range.0 < -0.3,
            "{:?}",
            r[2].normal_force_range
        );
        eight.push(r[2].uy_range);
    }
    let (lin, stf) = (eight[0], eight[1]);
    println!(
        "linear / stiffened: max {:.4}, min {:.4}",
        lin.1 / stf.1,
        lin.0 / stf.0
    );
    assert!(lin.1 > 1.1 * stf.1 && lin.0 < 1.1 * stf.0);
}

/// Full grid: 2, 4, 8, 16 elements × h = 2^-15, 2^-16, 2^-17 s, both models: 8 and 16
/// elements agree to 5e-4 at every step, and at 16 elements h = 2^-16 and 2^-17 s agree to
/// 5e-4 (measured 1.6e-4 on the stiffened maximum).
#[test]
#[ignore = "full crank–slider study (≈ 5 s); fast twin: crank_slider_study_fast"]
fn crank_slider_study_full() {
    for stiff in [false, true] {
        let mut sixteen = Vec::new();
        for h in [H15, H15 / 2.0, H15 / 4.0] {
            let r: Vec<CrankSliderRun> = [2, 4, 8, 16].iter().map(|&n| run(n, h, stiff)).collect();
            let (a, b) = (r[2].uy_range, r[3].uy_range);
            assert!((a.0 - b.0).abs() < 5e-4 * b.0.abs() && (a.1 - b.1).abs() < 5e-4 * b.1);
            sixteen.push(b);
        }
        let (a, b) = (sixteen[1], sixteen[2]);
        assert!((a.0 - b.0).abs() < 5e-4 * b.0.abs() && (a.1 - b.1).abs() < 5e-4 * b.1);
    }
}
