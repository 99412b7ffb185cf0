//! The §6.3 crank–slider study (paper 000, Fig. 9; issue 3): normalized coupler midpoint
//! deflection peaks $u_f^y(L/2)/L$ to $t = 0.053$ s with and without geometric stiffening,
//! their convergence in mesh and time step, and the discrete power balance
//! (crank work = ΔH). The full grid (2–16 elements, h = 2e-5…5e-6 s) is
//! `crank_slider_study_full` and the example `crates/phlex/examples/crank_slider_study.rs`;
//! the fast twin runs 2, 4, 8 elements at h = 2e-5 s and 8 elements at h = 4e-5 s.
//!
//! Measured (h = 2e-5 s, max / min of u_y(L/2)/L):
//!
//! | elements | linear | stiffened |
//! |---|---|---|
//! | 2 | +1.858515e-2 / −1.403917e-2 | +1.523953e-2 / −1.182799e-2 |
//! | 4 | +1.861956e-2 / −1.366314e-2 | +1.527138e-2 / −1.212026e-2 |
//! | 8 | +1.861987e-2 / −1.363700e-2 | +1.527572e-2 / −1.214614e-2 |
//! | 16 | +1.862020e-2 / −1.363547e-2 | +1.527636e-2 / −1.215015e-2 |
//!
//! and with 16 elements at h = 5e-6 s: +1.861992e-2 / −1.363621e-2 (linear),
//! +1.528203e-2 / −1.214926e-2 (stiffened). Converged to ≈ 1e-4 relative at 8 elements and
//! h = 2e-5 s; the linear floating frame over-predicts the positive peak by 22 % and the
//! negative one by 12 %. The coupler normal force ranges over ≈ [−0.45, +0.61] of the Euler
//! load π²EI/L² = 1395 N (compression at the negative, tension at the positive peak region).
use phlex_mbs::{CrankSlider, CrankSliderRun};

const T_END: f64 = 0.053;

fn run(n: usize, h: f64, stiff: bool) -> CrankSliderRun {
    let r = CrankSlider::new(n, stiff)
        .run(CrankSlider::params(h, T_END, 1))
        .expect("crank–slider run");
    println!(
        "{n:>2} elements, h = {h:.0e}, stiffening {stiff:>5}: u_y(L/2)/L in [{:+.6e}, {:+.6e}], n/P_cr in [{:+.3}, {:+.3}], energy residual {:.1e}, {} steps, {} Newton, {} LU, {:.3} s",
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

/// Differences between successive meshes shrink for both peaks, with and without
/// stiffening (measured: linear max 3.4e-5 then 3.1e-7, min 3.8e-4 then 2.6e-5; stiffened
/// max 3.2e-5 then 4.3e-6, min 2.9e-4 then 2.6e-5; asserted ratio < 0.2); the time step is
/// converged (h = 4e-5 vs 2e-5 s: 3.5e-4 relative on the linear minimum, second order in
/// h, asserted 5e-4);
/// the stiffened peaks are smaller in magnitude than the linear ones by more than 10 %;
/// the converged values are those of the table above (regression, 1e-4 relative).
#[test]
fn crank_slider_study_fast() {
    let h = 2e-5;
    for stiff in [false, true] {
        let r: Vec<CrankSliderRun> = [2, 4, 8].iter().map(|&n| run(n, h, stiff)).collect();
        for (k, name) in [(1usize, "max"), (0, "min")] {
            let p: Vec<f64> = r
                .iter()
                .map(|x| if k == 1 { x.uy_range.1 } else { x.uy_range.0 })
                .collect();
            let (d1, d2) = ((p[1] - p[0]).abs(), (p[2] - p[1]).abs());
            println!("stiffening {stiff}, {name}: mesh differences {d1:.2e}, {d2:.2e}");
            assert!(d2 < 0.2 * d1, "{name}: {d1} then {d2}");
        }
        let coarse_h = run(8, 2.0 * h, stiff);
        for (a, b) in [
            (coarse_h.uy_range.0, r[2].uy_range.0),
            (coarse_h.uy_range.1, r[2].uy_range.1),
        ] {
            assert!((a - b).abs() < 5e-4 * b.abs(), "step: {a} vs {b}");
        }
        let (min8, max8) = r[2].uy_range;
        let (emin, emax) = if stiff {
            (-1.214614e-2, 1.527572e-2)
        } else {
            (-1.363700e-2, 1.861987e-2)
        };
        assert!((min8 - emin).abs() < 1e-4 * emin.abs(), "{min8}");
        assert!((max8 - emax).abs() < 1e-4 * emax, "{max8}");
        // the axial force reaches a large fraction of the Euler load in compression
        assert!(
            r[2].normal_force_range.0 < -0.3,
            "{:?}",
            r[2].normal_force_range
        );
    }
    let lin = run(8, h, false).uy_range;
    let stf = run(8, h, true).uy_range;
    println!(
        "linear / stiffened: max {:.4}, min {:.4}",
        lin.1 / stf.1,
        lin.0 / stf.0
    );
    assert!(lin.1 > 1.1 * stf.1 && lin.0 < 1.1 * stf.0);
}

/// Full grid: 2, 4, 8, 16 elements × h = 2e-5, 1e-5, 5e-6 s, both models; the finest
/// meshes and steps agree to 1e-4 relative.
#[test]
#[ignore = "full crank–slider study (≈ 15 s); fast twin: crank_slider_study_fast"]
fn crank_slider_study_full() {
    for stiff in [false, true] {
        let mut finest = Vec::new();
        for h in [2e-5, 1e-5, 5e-6] {
            let r: Vec<CrankSliderRun> = [2, 4, 8, 16].iter().map(|&n| run(n, h, stiff)).collect();
            let (a, b) = (r[2].uy_range, r[3].uy_range);
            assert!((a.0 - b.0).abs() < 1e-3 * b.0.abs() && (a.1 - b.1).abs() < 1e-3 * b.1);
            finest.push(b);
        }
        for f in &finest[..2] {
            assert!((f.0 - finest[2].0).abs() < 1e-4 * finest[2].0.abs());
            assert!((f.1 - finest[2].1).abs() < 1e-4 * finest[2].1);
        }
    }
}
