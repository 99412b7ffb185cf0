//! Störmer–Verlet on partitioned lossless chains: second-order convergence, bounded energy
//! error over long times, typed errors for non-partitioned systems.
#![allow(non_snake_case)]
mod common;
use common::*;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::stormer_verlet::StormerVerlet;
use phlex_solve::{InputFn, Signal, SolveError};

fn params(t_end: f64, h: f64, output_every: usize) -> FixedStepParams {
    FixedStepParams {
        t0: 0.0,
        t_end,
        h,
        output_every,
    }
}

#[test]
fn second_order_convergence_on_a_wave_like_chain() {
    // 20 masses: a discretized string; ω_max ≈ 2√(k/m) = 20 rad/s, stable for h < 0.1.
    let (N, m, k) = (20, 1.0, 100.0);
    let sys = chain(N, m, k, 0.0, false);
    let modes = [(1, 1.0), (2, 0.3), (5, 0.1)];
    let e0 = chain_modal_solution(N, m, k, &modes, 0.0);
    let exact = chain_modal_solution(N, m, k, &modes, 1.0);
    let hs = [0.02, 0.01, 0.005, 0.0025];
    let mut errs = Vec::new();
    for &h in &hs {
        let mut sv = StormerVerlet::new(&sys, InputFn::zeros(0), params(1.0, h, 1000)).unwrap();
        let res = sv.run(&e0, &mut |_t: f64, _e: &[f64]| {}).unwrap();
        assert_eq!(res.stats.factorizations, 2);
        errs.push(rel_diff(&res.state, &exact));
    }
    for w in errs.windows(2) {
        let p = (w[0] / w[1]).log2();
        assert!((p - 2.0).abs() < 0.1, "observed order {p:.3} ({errs:?})");
    }
    println!("SV chain errors {errs:?}");
}

/// Forced oscillator from rest (exact solution as in the midpoint tests): the frozen
/// midpoint input keeps second order.
#[test]
fn second_order_with_port_input() {
    let (m, k, W) = (1.0, 4.0, 3.0);
    let sys = oscillator(m, k);
    let u = InputFn::new(vec![Signal::expr("sin(3*t)").unwrap()]);
    let w = (k / m).sqrt();
    let A = w * w / (w * w - W * W);
    let t = 2.0;
    let exact = [
        (A * W * (W * t).cos() - A * W * (w * t).cos()) / k,
        A * (W * t).sin() - A * W / w * (w * t).sin(),
    ];
    let mut errs = Vec::new();
    for h in [0.02, 0.01, 0.005] {
        let mut sv = StormerVerlet::new(&sys, u.clone(), params(t, h, 1000)).unwrap();
        let res = sv.run(&[0.0, 0.0], &mut |_t: f64, _e: &[f64]| {}).unwrap();
        errs.push(rel_diff(&res.state, &exact));
    }
    for w in errs.windows(2) {
        let p = (w[0] / w[1]).log2();
        assert!((p - 2.0).abs() < 0.1, "observed order {p:.3} ({errs:?})");
    }
}

/// 2·10⁴ steps at h ω_max = 1: the energy error oscillates but does not drift.
#[test]
fn energy_error_stays_bounded_over_long_times() {
    let (N, m, k) = (20, 1.0, 100.0);
    let sys = chain(N, m, k, 0.0, false);
    let e0: Vec<f64> = (0..2 * N)
        .map(|i| ((i * 29 % 13) as f64 - 6.0) / 6.0)
        .collect();
    let H0 = sys.hamiltonian(&e0);
    let h = 0.05;
    let mut sv = StormerVerlet::new(&sys, InputFn::zeros(0), params(1000.0, h, 1)).unwrap();
    let (mut early, mut all) = (0.0f64, 0.0f64);
    sv.run(&e0, &mut |t: f64, e: &[f64]| {
        let d = (sys.hamiltonian(e) - H0).abs() / H0;
        all = all.max(d);
        if t <= 100.0 {
            early = early.max(d);
        }
    })
    .unwrap();
    // O((hω)²) bounded error at this coarse step: measured 0.129 in [0, 100] and 0.135 in
    // [0, 1000]; a drifting scheme would grow about tenfold over the longer window.
    assert!(all < 0.2, "max energy error {all:.3e}");
    assert!(
        all < 1.5 * early,
        "energy error grows: {early:.3e} → {all:.3e}"
    );
    println!("SV energy error: [0,100] {early:.3e}, [0,1000] {all:.3e}");
}

#[test]
fn non_partitioned_systems_are_rejected() {
    // Damping (R ≠ 0).
    let sys = chain(3, 1.0, 1.0, 0.2, false);
    let e = StormerVerlet::new(&sys, InputFn::zeros(0), params(1.0, 0.1, 1)).unwrap_err();
    assert!(
        matches!(e, SolveError::NotPartitioned { ref block, .. } if block == "R"),
        "{e}"
    );
    // Three blocks: needs an explicit split.
    let sys = constrained_chain(3, 1.0, 1.0);
    let e = StormerVerlet::new(&sys, InputFn::zeros(0), params(1.0, 0.1, 1)).unwrap_err();
    assert!(e.to_string().contains("with_split"), "{e}");
    // Splitting after the velocities puts the multiplier into e2: M2 is singular.
    let e = StormerVerlet::with_split(&sys, InputFn::zeros(0), params(1.0, 0.1, 1), 3).unwrap_err();
    assert!(matches!(e, SolveError::Singular { .. }), "{e}");
    // A split inside a block: J has a non-zero diagonal block.
    let sys = chain(3, 1.0, 1.0, 0.0, false);
    let e = StormerVerlet::with_split(&sys, InputFn::zeros(0), params(1.0, 0.1, 1), 4).unwrap_err();
    assert!(matches!(e, SolveError::NotPartitioned { .. }), "{e}");
}
