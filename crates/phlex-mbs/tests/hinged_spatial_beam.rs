//! Paper 000 §6.4 (thesis 004 §10): the hinged spatial beam (model, units and invariants in
//! the documentation of `phlex_mbs::models::hinged_spatial_beam`; units mm–g–s: energies in nJ,
//! angular momenta in g mm²/s).
//!
//! * `hinged_spatial_beam_fast` (CI): the paper's case over 20 s (torque, free spin, kick).
//! * `rigid_limit_angular_momentum`: the same run with a 1e6 times stiffer beam, where the
//!   angular momentum about the vertical is conserved to 1e-8 across the kick.
//! * `hinged_spatial_beam_full` (ignored): 50 s, time-step convergence against a fine
//!   reference (the accuracy the benchmark runs at), mesh refinement, and Radau IIA for the
//!   comparison with the paper's Table 5.
use phlex_mbs::{HingedRun, HingedSpatialBeam};

/// Largest relative change of H inside the load-free windows [t_torque, t_kick] and
/// [t_kick + width, ∞), and of L_Z/∫M_z dt − 1 before and after the kick.
fn invariants(case: &HingedSpatialBeam, run: &HingedRun) -> (f64, f64, f64) {
    let (t1, t2, t3) = (
        case.torque_end,
        case.kick_start,
        case.kick_start + case.kick_width,
    );
    let lz = case.torque_impulse();
    let mut de = 0.0f64;
    for (a, b) in [(t1, t2), (t3, f64::INFINITY)] {
        let hs: Vec<f64> = run
            .samples
            .iter()
            .filter(|s| s.t >= a - 1e-9 && s.t <= b + 1e-9)
            .map(|s| s.energy())
            .collect();
        if let Some(&h0) = hs.first() {
            for h in &hs {
                de = de.max((h - h0).abs() / h0);
            }
        }
    }
    let (mut before, mut after) = (0.0f64, 0.0f64);
    for s in &run.samples {
        let e = (s.l_z / lz - 1.0).abs();
        if s.t >= t1 - 1e-9 && s.t <= t2 + 1e-9 {
            before = before.max(e);
        } else if s.t > t2 {
            after = after.max(e);
        }
    }
    (de, before, after)
}

fn report(tag: &str, case: &HingedSpatialBeam, run: &HingedRun) -> (f64, f64, f64) {
    let (de, before, after) = invariants(case, run);
    let wmax = run
        .samples
        .iter()
        .fold(0.0f64, |m, s| m.max(s.omega_z.abs()));
    let kmax = run.samples.iter().fold(0.0f64, |m, s| m.max(s.kinetic));
    println!(
        "{tag}: {} steps, {:.2} Newton iterations/step, {} factorizations, wall {:.3} s; max ω_Z {wmax:.4} rad/s (rigid {:.4}), max kinetic {kmax:.3} nJ; energy drift in load-free windows {de:.2e}, step power residual {:.2e} nJ, joint drift {:.1e} mm; |L_Z/∫M dt − 1| before the kick {before:.2e}, after {after:.2e}",
        run.stats.steps,
        run.stats.newton_iterations as f64 / run.stats.steps as f64,
        run.stats.factorizations,
        run.wall,
        case.rigid_rate(),
        run.max_step_residual,
        run.max_drift,
    );
    (de, before, after)
}

/// The paper's case (2 elements) over 20 s with h = 5 ms (modified Newton, tolerance
/// 1e-12):
/// * the energy is constant in the load-free windows: the midpoint rule conserves the
///   quadratic H up to the Newton tolerance (measured 3e-13, asserted 1e-10), and every
///   step satisfies H₁ − H₀ = h ȳᵀu to 1e-10 nJ (measured 4e-12 nJ; H ≈ 70 nJ);
/// * L_Z = ∫M_z dt = 2040 g mm²/s after the torque up to the elastic defect of the
///   constant-mass model (module doc): measured 2.2e-7 before the kick (asserted 1e-6) and
///   9.8e-4 after it over 20 s (asserted 3e-3; 5.3e-3 over 50 s) — both ∝ 1/E, see
///   `rigid_limit_angular_momentum`;
/// * the mean frame rate in [10.2, 15] s is the rigid rate ∫M dt/(ρAL³/3) = 0.0308 rad/s
///   within 1 %, the frame rate peaking near the paper's 0.1 rad/s.
#[test]
fn hinged_spatial_beam_fast() {
    let case = HingedSpatialBeam::default();
    let run = case
        .run(HingedSpatialBeam::params(0.005, 20.0, 10, 1e-12))
        .unwrap();
    let (de, before, after) = report("paper case, 20 s", &case, &run);
    assert!(de < 1e-10);
    assert!(run.max_step_residual < 1e-10);
    assert!(before < 1e-6);
    assert!(after < 3e-3);
    let window: Vec<f64> = run
        .samples
        .iter()
        .filter(|s| s.t > case.torque_end && s.t < case.kick_start)
        .map(|s| s.omega_z)
        .collect();
    let mean = window.iter().sum::<f64>() / window.len() as f64;
    println!("mean ω_Z in [10.2, 15] s: {mean:.5} rad/s");
    assert!((mean / case.rigid_rate() - 1.0).abs() < 1e-2);
    // the kick lifts the tip out of the horizontal plane
    let zmax = run
        .samples
        .iter()
        .fold(0.0f64, |m, s| m.max(s.tip[2].abs()));
    assert!(zmax > 1.0, "tip z {zmax} mm");
}

/// The same run with E × 1e6: the elastic defect of the angular momentum balance scales
/// with the deformation (measured after the kick: 5.3e-3, 3.1e-5, 2.4e-7, 2.7e-9 for E × 1,
/// 1e2, 1e4, 1e6), so in the rigid limit L_Z = ∫M_z dt holds across the kick to 1e-8
/// (asserted over 30 s), and the energy balance to the Newton tolerance.
#[test]
fn rigid_limit_angular_momentum() {
    let case = HingedSpatialBeam {
        young: 2.1e12,
        ..HingedSpatialBeam::default()
    };
    let run = case
        .run(HingedSpatialBeam::params(0.005, 30.0, 10, 1e-12))
        .unwrap();
    let (de, before, after) = report("E × 1e6, 30 s", &case, &run);
    assert!(before < 1e-8 && after < 1e-8);
    assert!(de < 1e-9);
}

/// Largest |K − K_ref| / max K_ref, |tip rate − ref| / max |ref|, |ω_Z − ref| / max |ref| over
/// common sample times.
fn curve_errors(run: &HingedRun, reference: &HingedRun) -> [f64; 3] {
    let (s, r) = (&run.samples, &reference.samples);
    assert_eq!(s.len(), r.len());
    let kmax = r.iter().fold(0.0f64, |m, x| m.max(x.kinetic));
    let tmax = r.iter().fold(0.0f64, |m, x| m.max(x.tip_rate.abs()));
    let wmax = r.iter().fold(0.0f64, |m, x| m.max(x.omega_z.abs()));
    let mut e = [0.0f64; 3];
    for (a, b) in s.iter().zip(r) {
        assert!((a.t - b.t).abs() < 1e-9, "sample times {} {}", a.t, b.t);
        e[0] = e[0].max((a.kinetic - b.kinetic).abs() / kmax);
        e[1] = e[1].max((a.tip_rate - b.tip_rate).abs() / tmax);
        e[2] = e[2].max((a.omega_z - b.omega_z).abs() / wmax);
    }
    e
}

/// The full 50 s study. Reference: Radau IIA with rtol = atol = 1e-9 (2 elements, samples
/// every 50 ms). Radau IIA at the tolerance 1e-6 of the paper's solver (Assimulo's default)
/// takes an average step of 7.4e-4 s (paper Table 5: 6e-4 s — the step is set by the
/// torsional, axial and second bending modes that the rectangular load switches excite,
/// so the same model and units give the same step) and agrees with the reference to 5e-7
/// in the kinetic energy. The midpoint rule converges to it (kinetic energy, max over 50 s
/// relative to max K: 9.1e-2, 2.5e-2, 4.9e-3 at h = 5, 1, 0.25 ms): the elastic
/// oscillations after the kick are phase sensitive, so pointwise agreement needs small
/// steps, while the invariants (energy between the loads, L_Z before the kick) hold at any
/// step. Wall times are printed for BENCHMARKS.md.
#[test]
#[ignore = "full study (≈ 15 s): 50 s runs and Radau IIA reference; fast twin: hinged_spatial_beam_fast"]
fn hinged_spatial_beam_full() {
    let case = HingedSpatialBeam::default();
    let grid: Vec<f64> = (0..=1000).map(|k| k as f64 * 0.05).collect();
    let reference = case.run_radau(1e-9, 50.0, &grid).unwrap();
    println!(
        "Radau IIA 1e-9: {} steps, wall {:.3} s",
        reference.stats.steps, reference.wall
    );
    let paper = case.run_radau(1e-6, 50.0, &grid).unwrap();
    let avg_dt = 50.0 / paper.stats.steps as f64;
    let ep = curve_errors(&paper, &reference);
    println!(
        "Radau IIA 1e-6: {} steps ({} rejected), average Δt {avg_dt:.2e} s, wall {:.3} s (paper: 21.14 s, 6e-4 s); errors K {:.1e}, tip rate {:.1e}, ω_Z {:.1e}",
        paper.stats.steps, paper.stats.rejected_steps, paper.wall, ep[0], ep[1], ep[2]
    );
    assert!(avg_dt > 3e-4 && avg_dt < 1.2e-3);
    assert!(ep[0] < 1e-5);
    let mut last = f64::INFINITY;
    for h in [0.005f64, 0.001, 0.00025] {
        let every = (0.05 / h).round() as usize;
        let run = case
            .run(HingedSpatialBeam::params(h, 50.0, every, 1e-12))
            .unwrap();
        let (de, before, after) = report(&format!("midpoint h = {h}"), &case, &run);
        let e = curve_errors(&run, &reference);
        println!(
            "   errors against the reference: K {:.2e}, tip rate {:.2e}, ω_Z {:.2e}",
            e[0], e[1], e[2]
        );
        // modified Newton stops at increments of 1e-12 relative: the energy error accumulates
        // like steps × 2e-14 (4.6e-9 after 2e5 steps)
        assert!(de < 1e-13 * run.stats.steps as f64 && before < 1e-6 && after < 1e-2);
        assert!(e[0] < last);
        last = e[0];
    }
    assert!(last < 1e-2);
    // mesh: 2 → 8 elements (stiffer: Newton tolerance 1e-10, above the round-off of the
    // 8-element stresses; at h = 5 ms the stiffer modes make Newton diverge after the kick)
    let fine = HingedSpatialBeam::new(8)
        .run(HingedSpatialBeam::params(0.001, 50.0, 50, 1e-10))
        .unwrap();
    let (de, before, after) = report("8 elements, h = 1 ms", &HingedSpatialBeam::new(8), &fine);
    assert!(de < 1e-8 && before < 1e-6 && after < 1e-2);
}

/// Largest |ω_Z − ref| / max|ω_Z,ref| and |K − K_ref| / max K_ref over common sample times.
fn omega_k_errors(run: &HingedRun, reference: &HingedRun) -> (f64, f64) {
    let e = curve_errors(run, reference);
    (e[2], e[0])
}

/// Output grid every 50 ms on [0, t_end].
fn grid(t_end: f64) -> Vec<f64> {
    (0..=(t_end / 0.05).round() as usize)
        .map(|k| k as f64 * 0.05)
        .collect()
}

/// "Reference accuracy" of §6.4 (issue #3 §7), defined as the accuracy of Radau IIA at the
/// paper's solver setting, rtol = atol = 1e-6 (Assimulo's default; its average step matches
/// the paper's 6e-4 s): the largest deviation of ω_Z(t) and K(t), sampled every 50 ms, from
/// a tight Radau IIA run (rtol = atol = 1e-10), relative to their maxima. Over 50 s these
/// are ω_Z 5.2e-6, K 4.8e-7 — or 1.6e-5, 5.0e-6: the error of a tolerance-controlled run
/// depends on its step sequence, which changes with round-off-level changes of the
/// right-hand side (the two values are the same model before and after the
/// allocation-free gyroscopic product); the stricter pair is the target (test
/// `hinged_fast_configuration_full`).
///
/// Fast twin over 16 s (torque, free spin, kick and 0.9 s after it; reference Radau 1e-9
/// here to stay within the CI budget): the fast configuration
/// (`HingedSpatialBeam::fast_params`: Gauss collocation, 6 stages, h = 12.5 ms) is at
/// least as accurate as Radau 1e-6 on both curves (measured: Radau 1e-6 ω_Z 5.0e-6,
/// K 3.7e-6; fast ω_Z 4.0e-7, K 1.0e-8), keeps the power balance of every step (H quadratic:
/// exact for Gauss collocation up to the Newton tolerance; measured 2.2e-10 nJ, H ≈ 70 nJ)
/// and L_Z before the kick, with a single factorization.
#[test]
fn hinged_fast_configuration_matches_reference_accuracy() {
    let case = HingedSpatialBeam::default();
    let t_end = 16.0;
    let g = grid(t_end);
    let reference = case.run_radau(1e-9, t_end, &g).unwrap();
    let paper = case.run_radau(1e-6, t_end, &g).unwrap();
    let (step, mut p) = HingedSpatialBeam::fast_params(t_end);
    p.power_balance = true;
    let fast = case.run_gauss(step, p).unwrap();
    let (wp, kp) = omega_k_errors(&paper, &reference);
    let (wf, kf) = omega_k_errors(&fast, &reference);
    println!(
        "16 s: Radau 1e-6 errors ω_Z {wp:.2e}, K {kp:.2e} ({} steps, {:.3} s); Gauss-6 h = 12.5 ms: ω_Z {wf:.2e}, K {kf:.2e} ({} steps, {} Newton, {} factorizations, {:.3} s); power residual {:.1e} nJ",
        paper.stats.steps,
        paper.wall,
        fast.stats.steps,
        fast.stats.newton_iterations,
        fast.stats.factorizations,
        fast.wall,
        fast.max_step_residual
    );
    assert!(wf <= wp && kf <= kp);
    // H ≈ 70 nJ: the balance H₁ − H₀ = h Σ bᵢ yᵢᵀuᵢ holds to the Newton tolerance
    assert!(fast.max_step_residual < 1e-8);
    // the load switches 10.2 s, 15 s, 15.1 s lie on the grid (80 steps per second), the
    // step is constant and the Newton matrix of the first step serves the whole run
    assert_eq!(fast.stats.factorizations, 1);
    // the invariants of the midpoint test hold as well
    let (_, before, _) = invariants(&case, &fast);
    assert!(before < 1e-6);
}

/// The full 50 s comparison (reference Radau IIA 1e-10) and the observed orders of Gauss
/// collocation on this index-2 problem. Measured (2 cores, other jobs running):
/// Radau 1e-10 426 291 steps (6.8 s); Radau 1e-6: ω_Z 1.6e-5, K 5.0e-6, 67 329 steps,
/// 1.57 s (5.2e-6 and 4.8e-7 with the previous round-off, see the fast twin); fast
/// configuration (Gauss-6, h = 12.5 ms, 4 000 steps, 4.57 Newton iterations per step,
/// 1 factorization): ω_Z 1.4e-6, K 5.1e-8 in 0.17 s — below both pairs (asserted; 4 stages
/// at h = 50 ms/11: ω_Z 4.2e-6, K 1.4e-7 in 0.2 s; 5 stages at h = 8.3 ms: 2.9e-6, 9.8e-8
/// in 0.16 s). Observed orders (errors ω_Z at h = 5, 2.5 ms for 3 stages:
/// 2.9e-3, 4.6e-5 → 5.97; K at h = 5, 4.55, 4.17 ms for 4 stages: 3.0e-7, 1.4e-7,
/// 7.3e-8 → 7.9): the full order 2s, no index-2 order reduction, because the spherical
/// joint at the frame origin is v_P = 0, which a constant change of variables eliminates.
#[test]
#[ignore = "full study (≈ 15 s): 50 s runs against Radau IIA 1e-10; fast twin: hinged_fast_configuration_matches_reference_accuracy"]
fn hinged_fast_configuration_full() {
    let case = HingedSpatialBeam::default();
    let g = grid(50.0);
    let reference = case.run_radau(1e-10, 50.0, &g).unwrap();
    let paper = case.run_radau(1e-6, 50.0, &g).unwrap();
    let fast = case
        .run_gauss_with(HingedSpatialBeam::fast_params(50.0))
        .unwrap();
    let (wp, kp) = omega_k_errors(&paper, &reference);
    let (wf, kf) = omega_k_errors(&fast, &reference);
    println!(
        "50 s: Radau 1e-10 {} steps {:.3} s; Radau 1e-6 errors ω_Z {wp:.2e}, K {kp:.2e} ({} steps, {:.3} s); fast: ω_Z {wf:.2e}, K {kf:.2e} ({} steps, {:.2} Newton/step, {} factorizations, {:.3} s)",
        reference.stats.steps,
        reference.wall,
        paper.stats.steps,
        paper.wall,
        fast.stats.steps,
        fast.stats.newton_iterations as f64 / fast.stats.steps as f64,
        fast.stats.factorizations,
        fast.wall
    );
    assert!(wf <= wp.min(5.2e-6) && kf <= kp.min(4.8e-7));
    // observed orders
    let err = |stages: usize, h: f64| {
        let (step, p) = HingedSpatialBeam::fast_params(50.0);
        let step = phlex_solve::FixedStepParams {
            h,
            output_every: (0.05 / h).round() as usize,
            ..step
        };
        let p = phlex_solve::GaussParams { stages, ..p };
        omega_k_errors(&case.run_gauss(step, p).unwrap(), &reference)
    };
    let (a, b) = (err(3, 0.005), err(3, 0.0025));
    let p3 = (a.0 / b.0).log2();
    let (c, d) = (err(4, 0.005), err(4, 0.05 / 12.0));
    let p4 = (c.1 / d.1).ln() / (1.2f64).ln();
    println!("observed order: 3 stages {p3:.2} (ω_Z {:.2e} → {:.2e}); 4 stages {p4:.2} (K {:.2e} → {:.2e})", a.0, b.0, c.1, d.1);
    assert!((p3 - 6.0).abs() < 0.5 && (p4 - 8.0).abs() < 0.7);
}
