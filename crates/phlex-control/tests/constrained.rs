#![allow(non_snake_case)]
//! Constrained dynamics (thesis 002 §2.3): Cartesian pendulum with the
//! Udwadia–Kalaba equations, and EUK control of the case-study frame (§5.7).

use faer::Mat;
use phlex_control::control::euk::euk_control;
use phlex_control::model::constraints::{
    AccelerationLevel, Constraint, ConstraintSet, Holonomic, VelocityLevel,
};
use phlex_control::model::udwadia_kalaba::uk_acceleration;
use phlex_control::FrameParams;
use phlex_solve::Rk4;
use std::f64::consts::PI;

const G: f64 = 9.81;

/// Complete elliptic integral of the first kind via the AGM: K(k) = π/(2 AGM(1, √(1−k²))).
fn ellip_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..30 {
        let an = 0.5 * (a + b);
        b = (a * b).sqrt();
        a = an;
    }
    PI / (2.0 * a)
}

/// Simulates the Cartesian pendulum q = [x, y], M = m I, Q = [0, −mg],
/// constraint x² + y² − L² = 0, from rest at θ₀; returns the period from two
/// successive downward zero crossings of ẋ … of x, and the final constraint drift.
fn pendulum_period(
    constraints: &ConstraintSet,
    theta0: f64,
    L: f64,
    h: f64,
    tend: f64,
) -> (f64, f64, f64) {
    let m = 0.7;
    let M = Mat::from_fn(2, 2, |i, j| if i == j { m } else { 0.0 });
    let Q = [0.0, -m * G];
    let mut y = vec![L * theta0.sin(), -L * theta0.cos(), 0.0, 0.0];
    let mut rk = Rk4::new(4);
    let mut worst_ab = 0.0f64;
    let mut f = |t: f64, s: &[f64], d: &mut [f64]| {
        let (A, b) = constraints.acceleration_form(&s[..2], &s[2..], t).unwrap();
        let sol = uk_acceleration(M.as_ref(), &Q, A.as_ref(), &b).unwrap();
        // UK acceleration satisfies A q̈ = b (relative to the size of b)
        let r = (A[(0, 0)] * sol.qdd[0] + A[(0, 1)] * sol.qdd[1] - b[0]).abs() / (1.0 + b[0].abs());
        worst_ab = worst_ab.max(r);
        d[0] = s[2];
        d[1] = s[3];
        d[2] = sol.qdd[0];
        d[3] = sol.qdd[1];
    };
    let steps = (tend / h).round() as usize;
    let mut crossings = vec![];
    for k in 0..steps {
        let t = k as f64 * h;
        let x0 = y[0];
        rk.step(&mut f, t, &mut y, h);
        if x0 > 0.0 && y[0] <= 0.0 {
            // linear interpolation of the crossing time (x is almost linear there)
            crossings.push(t + h * x0 / (x0 - y[0]));
        }
    }
    let period = crossings[crossings.len() - 1] - crossings[crossings.len() - 2];
    let drift = (y[0] * y[0] + y[1] * y[1] - L * L).abs() / (L * L);
    (period, drift, worst_ab)
}

/// UK pendulum with the analytic acceleration form A = [2x, 2y],
/// b = −2(ẋ² + ẏ²): A q̈ = b to 1e-12 at every stage, and the period of the
/// 60° oscillation equals 4√(L/g) K(sin 30°) to 1e-8 (RK4 h = 1e-3: phase
/// error O(h⁴); crossing interpolation error O(h²·ẍ/ẋ) ≈ 1e-8).
#[test]
fn cartesian_pendulum_analytic() {
    let L = 0.8;
    let mut cs = ConstraintSet::new();
    cs.push(AccelerationLevel::new(
        1,
        |q: &[f64], v: &[f64], _t: f64| {
            (
                Mat::from_fn(1, 2, |_, j| 2.0 * q[j]),
                vec![-2.0 * (v[0] * v[0] + v[1] * v[1])],
            )
        },
    ));
    let th0 = PI / 3.0;
    let (T, drift, ab) = pendulum_period(&cs, th0, L, 1e-3, 6.0);
    let exact = 4.0 * (L / G).sqrt() * ellip_k((th0 / 2.0).sin());
    eprintln!(
        "period {T} vs exact {exact} (rel {:.2e}); drift {drift:.2e}; max |Aq̈ − b| {ab:.2e}",
        (T - exact).abs() / exact
    );
    assert!(ab < 1e-12);
    // measured 1.5e-10
    assert!((T - exact).abs() < 1e-8 * exact);
    // no stabilisation: drift stays at the integration-error level
    assert!(drift < 1e-7);
}

/// Same pendulum with the constraint given at position level only,
/// f(q) = x² + y² − L²: Jacobian and Q_f from finite differences.
#[test]
fn cartesian_pendulum_position_level() {
    let L = 0.8;
    let mut cs = ConstraintSet::new();
    cs.push(Holonomic::new(1, move |q: &[f64], _t: f64| {
        vec![q[0] * q[0] + q[1] * q[1] - L * L]
    }));
    // acceleration form against the analytic one at a generic state
    let (A, b) = cs
        .acceleration_form(&[0.3, -0.7], &[1.1, 0.4], 0.0)
        .unwrap();
    assert!((A[(0, 0)] - 0.6).abs() < 1e-9 && (A[(0, 1)] + 1.4).abs() < 1e-9);
    assert!((b[0] + 2.0 * (1.21 + 0.16)).abs() < 1e-8);
    let th0 = PI / 3.0;
    let (T, _, ab) = pendulum_period(&cs, th0, L, 1e-3, 6.0);
    let exact = 4.0 * (L / G).sqrt() * ellip_k((th0 / 2.0).sin());
    assert!(ab < 1e-12);
    // finite-difference b (≈1e-9 relative) perturbs the period slightly more
    assert!((T - exact).abs() < 1e-5 * exact, "{T} vs {exact}");
}

/// Velocity-level constraint (rolling-type) ẋ − ω y = 0 with explicit time:
/// A = [1, −ω·0]… here g = ẋ − t·ẏ: A = [1, −t], b = ẏ.
#[test]
fn velocity_level_conversion() {
    let c = VelocityLevel::new(1, |_q: &[f64], v: &[f64], t: f64| vec![v[0] - t * v[1]]);
    let (A, b) = c.acceleration_form(&[0.2, 0.1], &[0.5, -0.3], 2.0);
    assert!((A[(0, 0)] - 1.0).abs() < 1e-10 && (A[(0, 1)] + 2.0).abs() < 1e-10);
    // d/dt g = ẍ − tÿ − ẏ = 0 ⇒ b = ẏ
    assert!((b[0] + 0.3).abs() < 1e-9);
}

/// EUK on the frame, Design B (force on floor 3, task ẍ₃ = 0, unactuated
/// floors 1, 2 and pendulum): Q_c = [0, 0, F_c3, 0] with the closed form of
/// thesis (5.270); Design A (torque): C of (5.262). Checked to 1e-10 relative
/// at a generic state; the task residual is at round-off.
#[test]
fn euk_frame_designs() {
    let p = FrameParams::default();
    let sigma = [0.05, 0.04, 0.03, p.r4];
    let q = [1e-3, -2e-3, 1.5e-3, 1.5 * PI + 0.3];
    let qd = [1e-4, -3e-4, 2e-4, 0.05];
    let M = p.mass_matrix(q[3]);
    let Q = p.forces(&q, &qd, sigma, 0.1, 0.0);
    let task = Mat::from_fn(1, 4, |_, j| (j == 2) as u8 as f64);
    let [_, _, k3] = p.stiffness();
    let J = p.m4 * p.L4 * p.L4 + p.Izz;
    let Q3 =
        p.m4 * p.L4 * q[3].cos() * qd[3] * qd[3] + k3 * (q[1] - q[2]) + sigma[2] * (qd[1] - qd[2]);
    // Design B
    let c = euk_control(M.as_ref(), &Q, task.as_ref(), &[0.0], &[0, 1, 3]).unwrap();
    let fc3 =
        -Q3 + p.m4 * p.L4 * q[3].sin() * (p.m4 * G * p.L4 * q[3].cos() + sigma[3] * qd[3]) / J;
    eprintln!("Design B: Qc = {:?}, closed form F_c3 = {fc3}", c.Qc);
    assert!((c.Qc[2] - fc3).abs() < 1e-10 * fc3.abs());
    assert!(c.unactuated_force < 1e-12 * fc3.abs().max(1.0));
    assert!(c.task_residual < 1e-12);
    // Design A
    let c = euk_control(M.as_ref(), &Q, task.as_ref(), &[0.0], &[0, 1, 2]).unwrap();
    let torque =
        -J * Q3 / (p.m4 * p.L4 * q[3].sin()) + p.m4 * G * p.L4 * q[3].cos() + sigma[3] * qd[3];
    assert!((c.Qc[3] - torque).abs() < 1e-10 * torque.abs());
    assert!(c.unactuated_force < 1e-12 * torque.abs().max(1.0));
}

/// Closed-loop EUK Design B simulation: started with ẋ₃ = 0 (the thesis
/// switches on when ẋ₃ ≈ 0), floor 3 stays where it is while the 3-tone
/// disturbance shakes floor 1 (drift only from integration error).
#[test]
fn euk_design_b_holds_floor_3() {
    let p = FrameParams::default();
    let sigma = [0.05, 0.04, 0.03, p.r4];
    let task = Mat::from_fn(1, 4, |_, j| (j == 2) as u8 as f64);
    let mut y = vec![1e-3, 1e-3, 1e-3, 1.5 * PI, 1e-4, 1e-4, 0.0, 1e-4];
    let x3_0 = y[2];
    let mut rk = Rk4::new(8);
    let mut x1_max = 0.0f64;
    let mut f = |t: f64, s: &[f64], d: &mut [f64]| {
        let F: f64 = [1.9, 5.7, 8.8]
            .iter()
            .map(|f| 0.1 * (2.0 * PI * f * t).sin())
            .sum();
        let M = p.mass_matrix(s[3]);
        let Q = p.forces(&s[..4], &s[4..], sigma, F, 0.0);
        let c = euk_control(M.as_ref(), &Q, task.as_ref(), &[0.0], &[0, 1, 3]).unwrap();
        d[..4].copy_from_slice(&s[4..]);
        d[4..].copy_from_slice(&c.qdd);
    };
    let h = 1e-3;
    for k in 0..2000 {
        rk.step(&mut f, k as f64 * h, &mut y, h);
        x1_max = x1_max.max(y[0].abs());
    }
    eprintln!(
        "x3 drift {:.2e}, max |x1| {x1_max:.2e}",
        (y[2] - x3_0).abs()
    );
    assert!((y[2] - x3_0).abs() < 1e-12);
    assert!(y[6].abs() < 1e-12);
    assert!(x1_max > 1e-4);
}

/// Nonlinear pendulum θ̈ = −(g/L) sin θ − cθ̇ with noisy angle measurements:
/// the coupled plant/EKF/Riccati integration recovers the state from an
/// estimate 0.4 rad off; after 10 s the error is within 3σ of the filter's
/// own covariance and far below the initial offset. The filter Riccati
/// equation is stiff at the start (2P/R_v ≈ 5000 s⁻¹), hence RK4 with
/// h = 1e-4 s, the step the thesis uses for EUK-EKF.
#[test]
fn ekf_pendulum() {
    use phlex_control::control::ekf::{simulate_ekf, EkfSettings, NonlinearModel};
    use phlex_control::linalg::diag;
    struct Pend;
    impl NonlinearModel for Pend {
        fn n_states(&self) -> usize {
            2
        }
        fn n_outputs(&self) -> usize {
            1
        }
        fn f(&self, _t: f64, z: &[f64], u: &[f64], dz: &mut [f64]) {
            dz[0] = z[1];
            dz[1] = -(G / 0.5) * z[0].sin() - 0.1 * z[1] + u[0];
        }
        fn h(&self, _t: f64, z: &[f64], _u: &[f64], y: &mut [f64]) {
            y[0] = z[0];
        }
    }
    let s = EkfSettings {
        Rw: diag(&[0.0, 1e-4]),
        Rv: diag(&[1e-4]),
        P0: diag(&[0.25, 0.25]),
        h: 1e-4,
        steps: 100_000,
        seed: 11,
        inject_noise: true,
    };
    let tr = simulate_ekf(
        &Pend,
        |t, _z| vec![0.2 * t.sin()],
        &[0.8, 0.0],
        &[0.4, 0.0],
        &s,
    )
    .unwrap();
    let (z, zh) = (tr.z.last().unwrap(), tr.zhat.last().unwrap());
    let sig = tr.P[(0, 0)].sqrt();
    eprintln!("final error {:.2e} (σ = {sig:.2e})", (z[0] - zh[0]).abs());
    assert!((z[0] - zh[0]).abs() < 3.0 * sig + 1e-12);
    assert!((z[0] - zh[0]).abs() < 0.01);
}
