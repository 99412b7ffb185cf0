//! Implicit midpoint (Crank–Nicolson) on hand-built linear pH systems: energy conservation,
//! discrete power balance, second-order convergence, breakpoints and multipliers.
#![allow(non_snake_case)]
mod common;
use common::*;
use phlex_core::sparse;
use phlex_core::{LinearPhSystem, PortSet, VarBlock};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::{InputFn, Signal, SolveError};

fn params(t_end: f64, h: f64, output_every: usize) -> MidpointParams {
    MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end,
            h,
            output_every,
        },
        ..Default::default()
    }
}

/// 10⁴ steps of a lossless 10-mass chain: H is conserved to round-off.
#[test]
fn lossless_chain_conserves_energy_over_1e4_steps() {
    let (N, m, k) = (10, 1.0, 100.0);
    let sys = chain(N, m, k, 0.0, false);
    // ω_max = 2√(k/m) = 20 rad/s, h ω_max = 0.2: well resolved but the scheme is A-stable anyway.
    let mut cn = LinearMidpoint::new(&sys, InputFn::zeros(0), params(100.0, 0.01, 1)).unwrap();
    let e0: Vec<f64> = (0..2 * N)
        .map(|i| ((i * 37 % 11) as f64 - 5.0) / 5.0)
        .collect();
    let H0 = sys.hamiltonian(&e0);
    let mut worst = 0.0f64;
    let mut calls = 0;
    let res = cn
        .run(&e0, &mut |_t: f64, e: &[f64]| {
            worst = worst.max((sys.hamiltonian(e) - H0).abs() / H0);
            calls += 1;
        })
        .unwrap();
    assert_eq!(res.stats.steps, 10_000);
    assert_eq!(calls, 10_001);
    assert_eq!(res.stats.factorizations, 1);
    assert_eq!(res.stats.linear_solves, 10_000);
    // Round-off accumulates at ~1e-16 per step; measured ≈ 2e-13 (requirement 1e-10).
    assert!(worst < 1e-10, "|H - H0|/H0 = {worst:.3e}");
    assert!(res.ledger.relative_drift() < 1e-10);
    println!("lossless chain: max |H - H0|/H0 = {worst:.3e}");
}

/// Damped chain driven through its port by a smooth force plus a switching step: the
/// discrete power balance H₁ − H₀ = h ȳᵀū − h ēᵀRē holds to round-off in every step.
#[test]
fn port_driven_run_satisfies_discrete_power_balance() {
    let (N, m, k, c) = (10, 1.0, 100.0, 0.5);
    let sys = chain(N, m, k, c, true);
    let u = switched_force("2*sin(3*t)", 0.5037, 1.5);
    let mut cn = LinearMidpoint::new(&sys, InputFn::new(vec![u]), params(20.0, 0.01, 7)).unwrap();
    let e0 = vec![0.0; 2 * N];
    let res = cn.run(&e0, &mut |_t: f64, _e: &[f64]| {}).unwrap();
    let l = &res.ledger;
    let W: f64 = l.supplied.last().unwrap()[0];
    let D = *l.dissipated.last().unwrap();
    // The run must actually exchange energy for the check to mean anything.
    // (measured W ≈ 0.316 J, D ≈ 0.111 J)
    assert!(W.abs() > 0.1 && D > 0.05, "W = {W}, D = {D}");
    // Relative to the energy scale; measured ≈ 1e-15 per sample.
    assert!(
        l.max_relative_residual() < 1e-10,
        "residual {:.3e}",
        l.max_relative_residual()
    );
    assert!(
        l.relative_drift() < 1e-10,
        "drift {:.3e}",
        l.relative_drift()
    );
    // Independent final check: H(T) − H(0) = W − D with H from the final state.
    let HT = sys.hamiltonian(&res.state);
    assert!((HT - (W - D)).abs() < 1e-10 * l.energy_scale());
    // The off-grid switch at 0.5037 costs two extra factorizations (two shortened steps).
    assert_eq!(res.stats.factorizations, 3);
    assert_eq!(res.stats.steps, 2001);
    println!(
        "power balance: max relative residual {:.3e}, W = {W:.4}, D = {D:.4}",
        l.max_relative_residual()
    );
}

/// Forced oscillator m v̇ = −f + F sin Ωt, ḟ = k v from rest:
/// f = A sin Ωt − (AΩ/ω) sin ωt with A = ω²F/(ω² − Ω²), v = ḟ/k.
fn forced_exact(m: f64, k: f64, F: f64, W: f64, t: f64) -> [f64; 2] {
    let w = (k / m).sqrt();
    let A = w * w * F / (w * w - W * W);
    let f = A * (W * t).sin() - A * W / w * (w * t).sin();
    let v = (A * W * (W * t).cos() - A * W * (w * t).cos()) / k;
    [v, f]
}

#[test]
fn midpoint_converges_with_order_two() {
    let (m, k, F, W) = (1.0, 4.0, 1.0, 3.0);
    let sys = oscillator(m, k);
    let u = InputFn::new(vec![Signal::expr("sin(3*t)").unwrap()]);
    let hs = [0.04, 0.02, 0.01, 0.005];
    let mut errs = Vec::new();
    for &h in &hs {
        let mut cn = LinearMidpoint::new(&sys, u.clone(), params(2.0, h, 1000)).unwrap();
        let res = cn.run(&[0.0, 0.0], &mut |_t: f64, _e: &[f64]| {}).unwrap();
        errs.push(rel_diff(&res.state, &forced_exact(m, k, F, W, 2.0)));
    }
    for w in errs.windows(2) {
        let p = (w[0] / w[1]).log2();
        assert!(
            (p - 2.0).abs() < 0.1,
            "observed order {p:.3} (errors {errs:?})"
        );
    }
    // Lossless chain, two-mode exact solution.
    let (N, m, k) = (5, 1.0, 10.0);
    let sys = chain(N, m, k, 0.0, false);
    let modes = [(1, 1.0), (3, 0.5)];
    let e0 = chain_modal_solution(N, m, k, &modes, 0.0);
    let exact = chain_modal_solution(N, m, k, &modes, 1.0);
    let mut errs = Vec::new();
    for &h in &hs {
        let mut cn = LinearMidpoint::new(&sys, InputFn::zeros(0), params(1.0, h, 1000)).unwrap();
        let res = cn.run(&e0, &mut |_t: f64, _e: &[f64]| {}).unwrap();
        errs.push(rel_diff(&res.state, &exact));
    }
    for w in errs.windows(2) {
        let p = (w[0] / w[1]).log2();
        assert!(
            (p - 2.0).abs() < 0.1,
            "chain: observed order {p:.3} (errors {errs:?})"
        );
    }
    println!("chain errors {errs:?}");
}

/// A force step at an off-grid time: stopping on the breakpoint keeps second order
/// (stepping over it would give first order), and outputs stay on the grid.
#[test]
fn breakpoints_are_hit_exactly() {
    let (m, k, F, ts) = (1.0, 4.0, 1.0, 0.3333);
    let sys = oscillator(m, k);
    let u = InputFn::new(vec![Signal::Step {
        t0: ts,
        before: 0.0,
        after: F,
    }]);
    // After the switch: f = F(1 − cos ω(t − ts)), v = (Fω/k) sin ω(t − ts).
    let w = (k / m).sqrt();
    let exact = |t: f64| {
        [
            F * w / k * (w * (t - ts)).sin(),
            F * (1.0 - (w * (t - ts)).cos()),
        ]
    };
    let mut errs = Vec::new();
    for h in [0.01, 0.005] {
        let mut cn = LinearMidpoint::new(&sys, u.clone(), params(1.0, h, 10)).unwrap();
        let mut times = Vec::new();
        let res = cn
            .run(&[0.0, 0.0], &mut |t: f64, _e: &[f64]| times.push(t))
            .unwrap();
        assert!(times
            .iter()
            .all(|t| ((t / (10.0 * h)).round() * 10.0 * h - t).abs() < 1e-12));
        assert_eq!(times.len(), (0.1 / h).round() as usize + 1);
        // Main factorization + two shortened steps around the switch.
        assert_eq!(res.stats.factorizations, 3);
        errs.push(rel_diff(&res.state, &exact(1.0)));
    }
    let p = (errs[0] / errs[1]).log2();
    assert!((p - 2.0).abs() < 0.15, "order {p:.3}, errors {errs:?}");
}

/// Fixing the last mass with a multiplier gives exactly the reduced (fixed–fixed) chain:
/// midpoint on the index-2 DAE equals midpoint on the reduced ODE, v_N stays 0 and the
/// stored multiplier is the midpoint force λ̄ = (f_N⁰ + f_N¹)/2.
#[test]
fn constrained_chain_matches_reduced_system() {
    let (N, m, k) = (4, 1.0, 10.0);
    let sys = constrained_chain(N, m, k);
    let keep: Vec<usize> = (0..2 * N).filter(|&i| i != N - 1).collect();
    let Er = sparse::restrict(&sys.E, &keep, &keep);
    let Jr = sparse::restrict(&sys.J, &keep, &keep);
    let nr = keep.len();
    let red = LinearPhSystem::new(
        Er,
        Jr,
        sparse::zeros(nr, nr),
        sparse::zeros(nr, 0),
        PortSet::new(),
        vec![VarBlock::differential("x", "reduced state", nr)],
    )
    .unwrap();
    let mut e0 = vec![0.0; 2 * N + 1];
    e0[0] = 1.0;
    e0[N + 1] = -2.0;
    e0[2 * N] = 123.0; // inconsistent λ₀: must not matter.
    let r0: Vec<f64> = keep.iter().map(|&i| e0[i]).collect();
    let p = params(3.0, 0.01, 1);
    let mut full = Vec::new();
    LinearMidpoint::new(&sys, InputFn::zeros(0), p)
        .unwrap()
        .run(&e0, &mut |_t: f64, e: &[f64]| full.push(e.to_vec()))
        .unwrap();
    let mut reduced = Vec::new();
    LinearMidpoint::new(&red, InputFn::zeros(0), p)
        .unwrap()
        .run(&r0, &mut |_t: f64, e: &[f64]| reduced.push(e.to_vec()))
        .unwrap();
    assert_eq!(full.len(), reduced.len());
    let mut worst = 0.0f64;
    for (n, (a, b)) in full.iter().zip(&reduced).enumerate() {
        for (kk, &i) in keep.iter().enumerate() {
            worst = worst.max((a[i] - b[kk]).abs());
        }
        assert!(a[N - 1].abs() < 1e-13, "v_N = {}", a[N - 1]);
        if n > 0 {
            let fbar = 0.5 * (full[n - 1][2 * N - 1] + a[2 * N - 1]);
            assert!(
                (a[2 * N] - fbar).abs() < 1e-12,
                "λ̄ = {} vs f̄_N = {fbar}",
                a[2 * N]
            );
        }
    }
    // Same arithmetic up to the LU pivoting order.
    assert!(worst < 1e-12, "max difference {worst:.3e}");
}

#[test]
fn bad_parameters_and_inputs_are_rejected() {
    let sys = oscillator(1.0, 1.0);
    let e = LinearMidpoint::new(&sys, InputFn::zeros(1), params(1.0, -0.1, 1)).unwrap_err();
    assert!(e.to_string().contains("0 < h"), "{e}");
    let e = LinearMidpoint::new(&sys, InputFn::zeros(2), params(1.0, 0.1, 1)).unwrap_err();
    assert!(matches!(e, SolveError::Dimension(_)), "{e}");
    let mut cn = LinearMidpoint::new(&sys, InputFn::zeros(1), params(1.0, 0.1, 1)).unwrap();
    let e = cn.run(&[0.0], &mut |_t: f64, _e: &[f64]| {}).unwrap_err();
    assert!(matches!(e, SolveError::Dimension(_)), "{e}");
}
