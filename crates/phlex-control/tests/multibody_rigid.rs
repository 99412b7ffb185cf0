#![allow(non_snake_case)]
//! Rigid bodies with Euler parameters (thesis 002 §2.5) solved with the
//! Udwadia–Kalaba equations: torque-free body and heavy symmetric top.

use phlex_control::model::udwadia_kalaba::uk_acceleration_singular_mass;
use phlex_control::multibody::euler_parameters::{from_axis_angle, gbar, rotation};
use phlex_control::multibody::{
    simulate, Anchor, BodyPoint, MultibodySystem, RigidBody, SphericalJoint,
};
use phlex_solve::Rk4;

fn norm(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// Independent formulation of the free body: Euler's equations
/// `Ī ω̇ = −ω × Īω` with the kinematics `θ̇ = ¼Ḡᵀω̄` (7 states, no
/// constraint), integrated by RK4.
fn euler_equations(I: [f64; 3], th0: [f64; 4], w0: [f64; 3], t_end: f64, steps: usize) -> Vec<f64> {
    let mut y = vec![th0[0], th0[1], th0[2], th0[3], w0[0], w0[1], w0[2]];
    let mut rk = Rk4::new(7);
    let h = t_end / steps as f64;
    let mut f = |_t: f64, s: &[f64], d: &mut [f64]| {
        let w = [s[4], s[5], s[6]];
        let g = gbar(&s[..4]);
        for a in 0..4 {
            d[a] = 0.25 * (g[0][a] * w[0] + g[1][a] * w[1] + g[2][a] * w[2]);
        }
        d[4] = (I[1] - I[2]) * w[1] * w[2] / I[0];
        d[5] = (I[2] - I[0]) * w[2] * w[0] / I[1];
        d[6] = (I[0] - I[1]) * w[0] * w[1] / I[2];
    };
    for k in 0..steps {
        rk.step(&mut f, k as f64 * h, &mut y, h);
    }
    y
}

/// Free body with `Ī = diag(1, 2, 3)` spinning mostly about its intermediate
/// axis (ω̄₀ = (0.05, 2, 0.1) rad/s, unstable: it flips twice in 20 s) and
/// translating: 7 coordinates, the normalisation constraint the only
/// constraint, RK4 with h = 1e-3 s.
///
/// * kinetic energy and the angular momentum about the origin are conserved
///   to the RK4 accuracy: measured |ΔT|/T = 5e-14, |ΔH|/|H| = 1.6e-12
///   (asserted 1e-9: the global error is O(h⁴) ≈ (ωh)⁴ ≈ 1e-11 per unit
///   time, amplified by the unstable flips);
/// * `θᵀθ − 1` drifts only by the integration error (no stabilisation):
///   measured 1.7e-12, asserted < 1e-9; `A q̈ = b` holds to 1e-12 at every
///   stage (measured 4e-16);
/// * the Euler parameters and ω̄ at 20 s equal those of Euler's equations
///   integrated independently (RK4, h = 1e-4 s): measured 1e-11, asserted
///   1e-7 (both carry O(h⁴) global errors, amplified by the flips);
/// * the centre of mass moves uniformly: measured 1.2e-12 m, asserted 1e-10
///   (round-off accumulated over 2·10⁴ steps, ≈ 2·10⁴ ε |R|).
#[test]
fn free_spinning_body_conserves_energy_and_momentum() {
    let I = [1.0, 2.0, 3.0];
    let mut sys = MultibodySystem::new();
    let b = sys.add_body(RigidBody::principal(1.5, I).build("body").unwrap());
    let th0 = from_axis_angle([0.2, 0.3, 1.0], 0.7);
    let w0 = [0.05, 2.0, 0.1];
    let mut q = sys.initial_coordinates();
    sys.set_pose(&mut q, b, [0.1, 0.0, -0.2], th0);
    let mut qd = vec![0.0; 7];
    sys.set_velocity(&q, &mut qd, b, [0.3, -0.1, 0.2], w0);
    // the torque-free UK acceleration equals the singular-mass variant of
    // the thesis (M + A⁺A, eqs. (2.101)–(2.104))
    let acc = sys.acceleration(0.0, &q, &qd).unwrap();
    let M = sys.mass_matrix(&q).unwrap();
    let Q = sys.forces(0.0, &q, &qd).unwrap();
    let (A, bb) = sys.constraints(0.0, &q, &qd).unwrap();
    let sing = uk_acceleration_singular_mass(M.as_ref(), &Q, A.as_ref(), &bb).unwrap();
    for i in 0..7 {
        assert!(
            (acc.qdd[i] - sing.qdd[i]).abs() < 1e-12,
            "{:?} vs {:?}",
            acc.qdd,
            sing.qdd
        );
    }
    let e0 = sys.energy(&q, &qd).kinetic;
    let h0 = sys.angular_momentum(&q, &qd);
    let mut de = 0.0f64;
    let mut dh = 0.0f64;
    let mut min_w2 = f64::INFINITY;
    let mut max_w2 = f64::NEG_INFINITY;
    let t_end = 20.0;
    let run = simulate(&sys, &q, &qd, 0.0, t_end, 1e-3, |_t, q, qd| {
        de = de.max((sys.energy(q, qd).kinetic - e0).abs() / e0);
        let h = sys.angular_momentum(q, qd);
        dh = dh.max(norm([h[0] - h0[0], h[1] - h0[1], h[2] - h0[2]]) / norm(h0));
        let w = sys.body(b).body_angular_velocity(q, qd);
        min_w2 = min_w2.min(w[1]);
        max_w2 = max_w2.max(w[1]);
    })
    .unwrap();
    let reference = euler_equations(I, th0, w0, t_end, 200_000);
    let dq = (0..4).fold(0.0f64, |m, a| m.max((run.q[3 + a] - reference[a]).abs()));
    let w = sys.body(b).body_angular_velocity(&run.q, &run.qd);
    let dw = (0..3).fold(0.0f64, |m, k| m.max((w[k] - reference[4 + k]).abs()));
    // centre of mass moves uniformly
    let dr = (0..3)
        .map(|k| (run.q[k] - (q[k] + t_end * qd[k])).abs())
        .fold(0.0f64, f64::max);
    println!(
        "free body: |ΔT|/T = {de:.3e}, |ΔH|/|H| = {dh:.3e}, drift |θᵀθ−1| = {:.3e}, velocity drift {:.3e}, |Aq̈−b| = {:.3e}; vs Euler equations: θ {dq:.3e}, ω̄ {dw:.3e}; ω̄₂ range [{min_w2:.3}, {max_w2:.3}], |ΔR| = {dr:.3e}",
        run.max_position_drift, run.max_velocity_drift, run.max_acceleration_residual
    );
    assert!(
        min_w2 < -1.5 && max_w2 > 1.5,
        "the intermediate-axis flip must occur"
    );
    assert!(de < 1e-9 && dh < 1e-9);
    assert!(run.max_position_drift < 1e-9);
    assert!(run.max_acceleration_residual < 1e-12);
    assert!(dq < 1e-7 && dw < 1e-7);
    assert!(dr < 1e-10);
}

/// Heavy symmetric top (m = 1 kg, centre of mass l = 0.2 m from the fixed
/// pivot, `I₁ = I₂ = 0.01`, `I₃ = 0.02` kg m² about the centre of mass,
/// spin ω₃ = 50 rad/s, released at θ₀ = 0.5 rad with θ̇ = φ̇ = 0), built two
/// ways: body origin at the pivot (`Ū ≠ 0`, coupling `m_Rθ = −AŨḠ`) with a
/// spherical joint at the origin, and body origin at the centre of mass with
/// the spherical joint at `(0, 0, −l)`.
///
/// Independent reference (Lagrangian top in Euler angles): with
/// `u = cos θ`, `u̇² = β(u₀ − u)(u − u₁)(u₂ − u)`, `β = 2mgl/I₁'`,
/// `I₁' = I₁ + ml²`, `a = I₃ω₃/I₁'`; the turning points `u₁ < u₀ < u₂` and the
/// nutation period `T = 4∫₀^{π/2} ds/√(β(u₂ − u(s)))`,
/// `u = u₁ + (u₀ − u₁) sin²s` (smooth integrand, 20-point Gauss: exact to
/// round-off).
///
/// Asserted: the lowest `u` reached equals `u₁` to 1e-7 and the nutation
/// period (from the times of the returns to `u₀`, parabolic refinement of the
/// sampled maxima: O(h³) ≈ 1e-9 s) equals `T` to 1e-6 relative (RK4 h = 2e-4 s
/// over 1.5 s). Measured: |u_min − u₁| = 1.8e-9 (the sampling error of the
/// minimum, O(h²ü) ≈ 1e-8), period error 1e-10 s; the two models agree to
/// 3.4e-10 in θ (asserted 1e-9); energy and the vertical angular momentum
/// are conserved to 1e-12–2e-10 (asserted 1e-9).
#[test]
fn heavy_top_against_euler_angle_solution() {
    let (m, l, i1, i3, w3, th0, g) = (1.0, 0.2, 0.01, 0.02, 50.0, 0.5f64, 9.81);
    let build = |origin_at_pivot: bool| {
        let mut sys = MultibodySystem::new();
        sys.set_gravity([0.0, 0.0, -g]);
        let rb = if origin_at_pivot {
            RigidBody::principal(m, [i1, i1, i3]).com([0.0, 0.0, l])
        } else {
            RigidBody::principal(m, [i1, i1, i3])
        };
        let b = sys.add_body(rb.build("top").unwrap());
        let pivot = if origin_at_pivot {
            [0.0; 3]
        } else {
            [0.0, 0.0, -l]
        };
        sys.add_joint(SphericalJoint::new(
            "pivot",
            Anchor::body(b, BodyPoint::fixed(pivot)),
            Anchor::Ground([0.0; 3]),
        ))
        .unwrap();
        let th = from_axis_angle([1.0, 0.0, 0.0], th0);
        let A = rotation(&th);
        let R = if origin_at_pivot {
            [0.0; 3]
        } else {
            [A[0][2] * l, A[1][2] * l, A[2][2] * l]
        };
        let mut q = sys.initial_coordinates();
        sys.set_pose(&mut q, b, R, th);
        let mut qd = vec![0.0; 7];
        // ω̄ along the symmetry axis: the centre of mass is at rest
        sys.set_velocity(&q, &mut qd, b, [0.0; 3], [0.0, 0.0, w3]);
        sys.project_velocities(0.0, &q, &mut qd).unwrap();
        (sys, q, qd)
    };
    // reference
    let i1p = i1 + m * l * l;
    let a = i3 * w3 / i1p;
    let beta = 2.0 * m * g * l / i1p;
    let u0 = th0.cos();
    let disc = (a * a - 2.0 * beta * u0).powi(2) + 4.0 * beta * beta * (1.0 - u0 * u0);
    let u1 = (a * a - disc.sqrt()) / (2.0 * beta);
    let u2 = (a * a + disc.sqrt()) / (2.0 * beta);
    let (gx, gw) = phlex_control::linalg::logm::gauss_legendre01(20);
    let period: f64 = gx
        .iter()
        .zip(&gw)
        .map(|(&x, &w)| {
            let s = 0.5 * std::f64::consts::PI * x;
            let u = u1 + (u0 - u1) * s.sin().powi(2);
            4.0 * 0.5 * std::f64::consts::PI * w / (beta * (u2 - u)).sqrt()
        })
        .sum();
    let mut finals = Vec::new();
    for origin_at_pivot in [true, false] {
        let (sys, q, qd) = build(origin_at_pivot);
        let e0 = sys.energy(&q, &qd).total();
        let hz0 = sys.angular_momentum(&q, &qd)[2];
        let h = 2e-4;
        let mut us: Vec<(f64, f64)> = Vec::new();
        let mut de = 0.0f64;
        let mut dhz = 0.0f64;
        let run = simulate(&sys, &q, &qd, 0.0, 1.5, h, |t, q, qd| {
            let A = rotation(&q[3..7]);
            us.push((t, A[2][2]));
            de = de.max((sys.energy(q, qd).total() - e0).abs() / e0.abs());
            dhz = dhz.max((sys.angular_momentum(q, qd)[2] - hz0).abs() / hz0.abs());
        })
        .unwrap();
        let umin = us.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        // returns to u₀: local maxima, parabolic refinement
        let mut tmax = Vec::new();
        for k in 1..us.len() - 1 {
            let (a0, a1, a2) = (us[k - 1].1, us[k].1, us[k + 1].1);
            if a1 >= a0 && a1 > a2 {
                let d = a0 - 2.0 * a1 + a2;
                tmax.push(us[k].0 + 0.5 * h * (a0 - a2) / d);
            }
        }
        let n = tmax.len() - 1;
        let t_sim = (tmax[n] - tmax[0]) / n as f64;
        println!(
            "top (origin at {}): u_min = {umin:.10} vs u₁ = {u1:.10}; nutation period {t_sim:.10} vs {period:.10} ({n} periods); |ΔE|/E = {de:.3e}, |ΔH_z|/H_z = {dhz:.3e}, pivot drift {:.3e}, |Aq̈−b| {:.3e}",
            if origin_at_pivot { "pivot" } else { "centre of mass" },
            run.max_position_drift,
            run.max_acceleration_residual
        );
        assert!((umin - u1).abs() < 1e-7);
        assert!((t_sim - period).abs() < 1e-6 * period);
        assert!(de < 1e-9 && dhz < 1e-9);
        assert!(run.max_position_drift < 1e-9);
        assert!(run.max_acceleration_residual < 1e-12);
        finals.push(run.q[3..7].to_vec());
    }
    let d = (0..4).fold(0.0f64, |m, k| m.max((finals[0][k] - finals[1][k]).abs()));
    println!("two formulations: max |Δθ| = {d:.3e}");
    assert!(d < 1e-9);
}
