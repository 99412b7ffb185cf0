#![allow(non_snake_case)]
//! LQG control of a linear pH system exported to state space (issue 6 §4):
//! a three-mass spring chain in co-energy variables (masses' velocities and
//! springs' forces), actuated and measured at the last mass.

use faer::{c64, Mat};
use phlex_control::control::lqg::match_eigenvalues;
use phlex_control::error::ControlError;
use phlex_control::ph::bridge::{ph_to_state_space, Probe};
use phlex_control::ph::lqg::{design_lqg, simulate_closed_loop, ClosedLoopRun, PhLqgSpec};
use phlex_core::sparse::from_dense;
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};

const MASS: [f64; 3] = [1.0, 1.5, 2.0];
const K: [f64; 3] = [100.0, 80.0, 60.0];

/// `m v̇ = −D f (+ F on mass 3)`, `ḟ/k = Dᵀ v`, `D f = [f₁ − f₂, f₂ − f₃, f₃]`;
/// `extra` appends a decoupled undamped oscillator (no port).
fn chain(damping: f64, extra: bool) -> LinearPhSystem {
    let n = if extra { 8 } else { 6 };
    let mut E = Mat::<f64>::zeros(n, n);
    let mut J = Mat::<f64>::zeros(n, n);
    let mut R = Mat::<f64>::zeros(n, n);
    for i in 0..3 {
        E[(i, i)] = MASS[i];
        E[(3 + i, 3 + i)] = 1.0 / K[i];
        R[(i, i)] = damping;
    }
    let D = [[1.0, -1.0, 0.0], [0.0, 1.0, -1.0], [0.0, 0.0, 1.0]];
    for i in 0..3 {
        for j in 0..3 {
            J[(i, 3 + j)] = -D[i][j];
            J[(3 + j, i)] = D[i][j];
        }
    }
    if extra {
        E[(6, 6)] = 0.5;
        E[(7, 7)] = 1.0 / 30.0;
        J[(6, 7)] = -1.0;
        J[(7, 6)] = 1.0;
    }
    let B = Mat::from_fn(n, 2, |i, j| {
        ((i == 2 && j == 0) || (i == 0 && j == 1)) as u8 as f64
    });
    let mut blocks = vec![
        VarBlock::differential("v", "mass velocities", 3),
        VarBlock::differential("f", "spring forces", 3),
    ];
    if extra {
        blocks.push(VarBlock::differential("other", "decoupled oscillator", 2));
    }
    LinearPhSystem::new(
        from_dense(&E, 0.0),
        from_dense(&J, 0.0),
        from_dense(&R, 0.0),
        from_dense(&B, 0.0),
        PortSet::from_ports(vec![
            Port::new("tip", 1, "force on mass 3 [N]", "velocity of mass 3 [m/s]"),
            Port::new("base", 1, "force on mass 1 [N]", "velocity of mass 1 [m/s]"),
        ])
        .unwrap(),
        blocks,
    )
    .unwrap()
}

fn spec() -> PhLqgSpec {
    PhLqgSpec {
        dt: 0.01,
        q_weight: 10.0,
        r_weight: 0.01,
        process_noise: 1e-2,
        measurement_noise: 1e-3,
    }
}

fn e0(n: usize) -> Vec<f64> {
    let mut e = vec![0.0; n];
    e[0] = 0.3;
    e[2] = -0.2;
    e[4] = 5.0;
    e
}

/// Separation principle: the closed-loop eigenvalues equal
/// eig(A + BF) ∪ eig(A − KC); computed from one 12×12 and two 6×6 real
/// eigenproblems of O(1) matrices, agreement to round-off (asserted 1e-10).
/// The regulator makes the undamped chain asymptotically stable (spectral
/// radius < 1) and the Riccati residuals are at round-off.
#[test]
fn separation_and_stability() {
    let ph = ph_to_state_space(&chain(0.0, false), &["tip"], &["tip"], &[]).unwrap();
    let lqg = design_lqg(&ph, &spec()).unwrap();
    eprintln!("separation error {:.3e}", lqg.separation_error);
    assert!(lqg.separation_error < 1e-10);
    let mut parts: Vec<c64> = lqg.regulator_poles.clone();
    parts.extend(&lqg.estimator_poles);
    assert!(match_eigenvalues(&lqg.closed_loop_poles, &parts) < 1e-10);
    let rho = lqg
        .closed_loop_poles
        .iter()
        .map(|l| l.norm())
        .fold(0.0, f64::max);
    let rho_open = lqg
        .open_loop_poles
        .iter()
        .map(|l| l.norm())
        .fold(0.0, f64::max);
    let rr = |v: &[c64]| v.iter().map(|l| l.norm()).fold(0.0, f64::max);
    eprintln!(
        "spectral radius open {rho_open:.15}, closed {rho:.6} (regulator {:.6}, estimator {:.6})",
        rr(&lqg.regulator_poles),
        rr(&lqg.estimator_poles)
    );
    // undamped chain: |λ| = 1 to round-off (orthogonal propagator in energy coordinates)
    assert!((rho_open - 1.0).abs() < 1e-13);
    assert!(rho < 0.999);
    assert!(lqg.riccati_residuals.iter().all(|r| *r < 1e-12));
    // gain in original coordinates: F_e e = F ξ
    let e = e0(6);
    let xi = &lqg.T_inv * Mat::from_fn(6, 1, |i, _| e[i]);
    let u1 = (&lqg.F * &xi)[(0, 0)];
    let u2: f64 = (0..6).map(|j| lqg.F_e[(0, j)] * e[j]).sum();
    assert!((u1 - u2).abs() < 1e-12 * u1.abs().max(1.0));
}

/// Noise-free run: the open loop keeps its energy exactly (undamped,
/// unforced: H constant to round-off); the closed-loop trajectory equals
/// the powers of the LQG closed-loop matrix applied to [ξ(0); 0] (an
/// independent check of the simulation loop, 1e-10 relative), its energy
/// decays by more than 1e3 in 20 s, and the discrete power balance
/// H(k+1) − H(k) = W(k) − D(k) holds to round-off (1e-12).
#[test]
fn closed_loop_energy_and_power_balance() {
    let ph = ph_to_state_space(&chain(0.0, false), &["tip"], &["tip"], &[]).unwrap();
    let lqg = design_lqg(&ph, &spec()).unwrap();
    let run = ClosedLoopRun {
        t_end: 20.0,
        e0: e0(6),
        e_hat0: None,
        t_on: 0.0,
        disturbance: None,
        seed: None,
    };
    let tr = simulate_closed_loop(&ph, &lqg, &run).unwrap();
    let h0 = tr.energy_open[0];
    let drift = tr
        .energy_open
        .iter()
        .map(|h| (h - h0).abs())
        .fold(0.0, f64::max);
    eprintln!("open-loop drift {:.3e}", drift / h0);
    assert!(drift < 1e-12 * h0);
    let last = tr.t.len() - 1;
    assert_eq!(last, 2000);
    let ratio = tr.energy_closed[last] / tr.energy_open[last];
    eprintln!(
        "H closed/open at 20 s = {ratio:.3e}; balance residual {:.3e}; control work {:.4e} (H0 {h0:.4e})",
        tr.power_balance_residual, tr.control_work[last]
    );
    assert!(ratio < 1e-3);
    assert!(tr.power_balance_residual < 1e-12);
    // energy removed by the controller: W_ctrl = H(end) − H(0) (no dissipation, no noise)
    assert!((tr.control_work[last] - (tr.energy_closed[last] - h0)).abs() < 1e-10 * h0);
    // closed-loop matrix powers
    let (A, B, C) = (&lqg.plant.A, &lqg.plant.B, &lqg.plant.C);
    let cl = phlex_control::control::lqg::closed_loop_matrix(
        A.as_ref(),
        B.as_ref(),
        C.as_ref(),
        lqg.F.as_ref(),
        lqg.K.as_ref(),
    );
    let e = e0(6);
    let xi0 = &lqg.T_inv * Mat::from_fn(6, 1, |i, _| e[i]);
    let mut x = Mat::from_fn(12, 1, |i, _| if i < 6 { xi0[(i, 0)] } else { 0.0 });
    for k in 1..=300 {
        x = &cl * &x;
        let h: f64 = 0.5 * (0..6).map(|i| x[(i, 0)].powi(2)).sum::<f64>();
        assert!(
            (h - tr.energy_closed[k]).abs() < 1e-10 * h0,
            "step {k}: {h} vs {}",
            tr.energy_closed[k]
        );
    }
}

/// With viscous damping on the masses the dissipated energy is integrated
/// exactly (Van Loan), so the power balance still closes to round-off;
/// with seeded noise the runs are reproducible and the closed loop still
/// ends far below the open loop.
#[test]
fn damped_noisy_run() {
    let ph = ph_to_state_space(&chain(0.05, false), &["tip"], &["tip"], &[]).unwrap();
    let lqg = design_lqg(&ph, &spec()).unwrap();
    let force = |t: f64| vec![0.5 * (3.0 * t).sin()];
    let run = ClosedLoopRun {
        t_end: 10.0,
        e0: e0(6),
        e_hat0: None,
        t_on: 2.0,
        disturbance: Some((vec!["base".into()], &force)),
        seed: Some(7),
    };
    let a = simulate_closed_loop(&ph, &lqg, &run).unwrap();
    let b = simulate_closed_loop(&ph, &lqg, &run).unwrap();
    assert_eq!(a.energy_closed, b.energy_closed);
    eprintln!(
        "balance residual {:.3e}, dissipated {:.4e}",
        a.power_balance_residual, a.dissipated_closed
    );
    assert!(a.power_balance_residual < 1e-12);
    assert!(a.dissipated_closed > 0.0);
    // before t_on the loops coincide (no control yet)
    let k_on = 200;
    assert_eq!(a.energy_open[k_on], a.energy_closed[k_on]);
    assert!(a.control_effort[..k_on].iter().all(|u| *u == 0.0));
    // mean energy over the last 2 s
    let n = a.t.len();
    let mean = |v: &[f64]| v[n - 200..].iter().sum::<f64>() / 200.0;
    let ratio = mean(&a.energy_closed) / mean(&a.energy_open);
    eprintln!("mean energy ratio closed/open over the last 2 s: {ratio:.3e}");
    assert!(ratio < 0.5);
}

/// A decoupled undamped oscillator is not stabilisable from the tip: the
/// error names the mode (|λ| = 1 at ω = √(30/0.5) rad/s).
#[test]
fn not_stabilisable_and_not_detectable() {
    let ph = ph_to_state_space(&chain(0.0, true), &["tip"], &["tip"], &[]).unwrap();
    let e = design_lqg(&ph, &spec()).unwrap_err();
    let msg = e.to_string();
    eprintln!("{msg}");
    match e {
        ControlError::NotStabilizable { re, im, .. } => {
            let w = (30.0f64 / 0.5).sqrt() * 0.01;
            assert!((re - w.cos()).abs() < 1e-10 && (im.abs() - w.sin()).abs() < 1e-10);
        }
        other => panic!("expected NotStabilizable, got {other}"),
    }
    assert!(msg.contains("not stabilisable"));
    // a probe that sees nothing (zero row) cannot detect the undamped modes
    let blind = Probe {
        name: "blind".into(),
        row: vec![0.0; 6],
    };
    let ph = ph_to_state_space(&chain(0.0, false), &["tip"], &["blind"], &[blind]).unwrap();
    let e = design_lqg(&ph, &spec()).unwrap_err();
    assert!(matches!(e, ControlError::NotDetectable { .. }), "{e}");
    assert!(e.to_string().contains("not detectable"));
}

/// Index-2 systems are reduced to the null space of their constraints
/// (paper 000 eq. (51)): the chain with mass 1 held by a multiplier
/// (`v₁ = 0`) becomes masses 2–3 on springs 2–3 plus the frozen force of
/// spring 1 (a zero eigenvalue); the poles match the 2-DOF model
/// `diag(m₂, m₃) ẍ + [[k₂+k₃, −k₃], [−k₃, k₃]] x = 0` to 1e-12. A port
/// acting on the constraint row cannot be exported, and its name is given.
#[test]
fn descriptor_systems_are_reduced() {
    let s = chain(0.0, false);
    let n = 7;
    let grow =
        |M: &Mat<f64>| Mat::from_fn(n, n, |i, j| if i < 6 && j < 6 { M[(i, j)] } else { 0.0 });
    let E = grow(&phlex_core::sparse::to_dense(&s.E));
    let mut J = grow(&phlex_core::sparse::to_dense(&s.J));
    // constraint v₁ = 0 with multiplier λ: J[x, λ] = Gᵀ, J[λ, x] = −G
    J[(0, 6)] = 1.0;
    J[(6, 0)] = -1.0;
    let B = phlex_core::sparse::to_dense(&s.B);
    let make = |with_input: bool| {
        let Bn = Mat::from_fn(n, 2, |i, j| {
            if i < 6 {
                B[(i, j)]
            } else if with_input && j == 1 {
                1.0
            } else {
                0.0
            }
        });
        let mut blocks = s.blocks.clone();
        blocks.push(VarBlock::algebraic("lambda_base", "base reaction", 1, 2));
        LinearPhSystem::new(
            from_dense(&E, 0.0),
            from_dense(&J, 0.0),
            from_dense(&Mat::<f64>::zeros(n, n), 0.0),
            from_dense(&Bn, 0.0),
            s.ports.clone(),
            blocks,
        )
        .unwrap()
    };
    let probe = Probe {
        name: "v3".into(),
        row: (0..n).map(|i| (i == 2) as u8 as f64).collect(),
    };
    let ph = ph_to_state_space(&make(false), &["tip"], &["tip", "v3"], &[probe]).unwrap();
    assert_eq!(ph.n_states(), 5);
    assert_eq!(ph.n_full(), 7);
    // the probe v₃ equals the collocated tip output
    let C = &ph.ss.C;
    assert!((0..5).all(|j| (C[(0, j)] - C[(1, j)]).abs() < 1e-14));
    let (m2, m3, k2, k3) = (MASS[1], MASS[2], K[1], K[2]);
    // ω² of the 2-DOF model: roots of m₂m₃ω⁴ − (m₂k₃ + m₃(k₂+k₃))ω² + k₂k₃ = 0
    let (a, b, c) = (m2 * m3, m2 * k3 + m3 * (k2 + k3), k2 * k3);
    let disc = (b * b - 4.0 * a * c).sqrt();
    let mut w = vec![
        ((b - disc) / (2.0 * a)).sqrt(),
        ((b + disc) / (2.0 * a)).sqrt(),
    ];
    w.sort_by(|x, y| x.total_cmp(y));
    let mut p = ph.ss.poles().unwrap();
    p.sort_by(|x, y| x.im.total_cmp(&y.im));
    eprintln!("poles {p:?}, expected ±i{w:?} and 0");
    assert!(p.iter().all(|l| l.re.abs() < 1e-12));
    assert!((p[3].im - w[0]).abs() < 1e-12 * w[0] && (p[4].im - w[1]).abs() < 1e-12 * w[1]);
    assert!(p[2].norm() < 1e-12);
    // full state ↔ null-space coordinates
    let x: Vec<f64> = vec![0.0, 0.3, -0.2, 1.0, 2.0, 3.0, 0.0];
    let back = ph.lift(&ph.restrict(&x));
    assert!(x.iter().zip(&back).all(|(a, b)| (a - b).abs() < 1e-14));
    let e = ph_to_state_space(&make(true), &["base"], &["tip"], &[]).unwrap_err();
    assert!(e.to_string().contains("`base`"), "{e}");
}
