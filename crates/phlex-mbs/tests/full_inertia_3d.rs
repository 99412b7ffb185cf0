#![allow(non_snake_case)]
#![allow(clippy::needless_range_loop)]
//! Deformation-dependent inertia of the spatial floating beam (issue 3,
//! `phlex_mbs::body::spatial::full_inertia`, eqs. (F1)–(F5)):
//!
//! * `identities_and_exact_jacobian`: J skew, Eᵀz = ∇H, the descriptor is ∂(q, π)/∂x, the
//!   exact right-hand-side Jacobian (joints and loads at deformed ports included) against
//!   central differences, port velocities are the time derivatives of the deformed port
//!   positions;
//! * `free_beam_conserves_momenta_and_energy`: a free spinning, deforming beam: energy,
//!   inertial linear and angular momentum kept by the midpoint rule to round-off;
//! * `hinged_full_inertia_fast`, `hinged_full_inertia_kick` (CI, to 15 s and across the
//!   kick to 17 s) / `hinged_full_inertia_full` (ignored, 50 s): the §6.4 hinged beam of
//!   paper 000: L_Z = ∫M_z dt after the torque and after the kick to the Newton tolerance,
//!   energy constant between the load events, and the difference to the constant operator;
//! * `hinged_full_inertia_radau`: the Radau IIA adapter (constant-mass form) against the
//!   midpoint run.
//!
//! Gauss collocation of full inertia (conservation form): `tests/collocation_full_inertia.rs`.
mod common;

use common::checks::{central_differences, check_jacobian, relative_step};
use phlex_mbs::body::FloatingBody;

use common::params::midpoint;

use phlex_core::geometry::so3::from_axis_angle;
use phlex_core::sparse;
use phlex_core::PhSystem;
use phlex_mbs::*;
use phlex_solve::midpoint::MidpointVariant;
use phlex_solve::Midpoint;

/// One beam of the chain (1.2 m, cantilever, port `mid`), not stiffened.
fn beam(full: bool) -> FloatingBeam3d {
    common::chain3d::beam(full, false)
}

/// Two full-inertia beams: the chain of [`common::chain3d`] (an inclined ground hinge at
/// the root of `a`, `b` on a spherical joint at the deformed tip of `a`, loads, gravity).
fn chain() -> Multibody3d {
    common::chain3d::two_beam_chain(true, false)
}

/// A generic state: deformed, moving, stressed, non-zero multipliers and joint angle.
fn generic_state(mb: &Multibody3d) -> Vec<f64> {
    let mut x = mb.initial_state();
    for b in 0..mb.bodies().len() {
        let body = mb.body(b);
        let o = mb.body_range(b).start;
        for i in 12..body.n_local() {
            let s = (0.37 * (i + 7 * b) as f64 + 0.2).sin();
            x[o + i] = if i < body.n_q() { 1e-2 * s } else { s };
        }
    }
    for k in 0..mb.joint_names().len() {
        for (n, i) in mb.multiplier_range(k).enumerate() {
            x[i] = 0.5 + 0.3 * n as f64 - 0.2 * k as f64;
        }
        for i in mb.joint_state_range(k) {
            x[i] = 0.3;
        }
    }
    x
}

/// J skew (round-off 1e-14); Eᵀz = ∇H and ∂(q, π)/∂x = E(x) (central differences, step
/// 1e-6: truncation O(h²) ≈ 1e-12, round-off ≈ 1e-10 relative to the scale); the exact
/// Jacobian of f = J(x)z(x) + B(x)u against central differences (asserted 1e-8 of the
/// largest entry; measured ≈ 1e-10); the port output of the joint at the deformed tip is
/// d/dt of the deformed port position along f (the velocity constraint is the derivative
/// of the position constraint: asserted 1e-7 relative, the difference step).
#[test]
fn identities_and_exact_jacobian() {
    let mb = chain();
    assert!(mb.has_full_inertia() && mb.state_dependent_descriptor());
    let x = generic_state(&mb);
    let n = mb.n();
    let u = mb.input().eval(0.0);
    let J = sparse::to_dense(&mb.structure(&x));
    for i in 0..n {
        for j in 0..n {
            assert!(
                (J[(i, j)] + J[(j, i)]).abs() < 1e-13,
                "J not skew at {i},{j}"
            );
        }
    }
    let mut z = vec![0.0; n];
    mb.effort(&x, &mut z);
    let E = sparse::to_dense(&mb.descriptor(&x));
    let hscale = mb.hamiltonian(&x).abs().max(1.0);
    let mut worst_e = 0.0f64;
    for k in 0..n {
        let h = 1e-6 * (1.0 + x[k].abs());
        let (mut xp, mut xm) = (x.clone(), x.clone());
        xp[k] += h;
        xm[k] -= h;
        let dh = (mb.hamiltonian(&xp) - mb.hamiltonian(&xm)) / (2.0 * h);
        let etz: f64 = (0..n).map(|i| E[(i, k)] * z[i]).sum();
        assert!((dh - etz).abs() < 1e-7 * hscale, "∂H/∂x{k}: {dh} vs {etz}");
        // column k of ∂Δ(x0, x1)/∂x1 = E(x1)
        let (mut dp, mut dm) = (vec![0.0; n], vec![0.0; n]);
        mb.step_increment(&x, &xp, &mut dp);
        mb.step_increment(&x, &xm, &mut dm);
        for i in 0..n {
            let d = (dp[i] - dm[i]) / (2.0 * h);
            worst_e = worst_e.max((d - E[(i, k)]).abs());
        }
    }
    assert!(worst_e < 1e-6, "E vs ∂Δ/∂x1: {worst_e:.2e}");
    let rhs = |x: &[f64]| {
        let mut f = vec![0.0; n];
        mb.rhs(x, &u, &mut f);
        f
    };
    let A = sparse::to_dense(&mb.rhs_jacobian(&x, &u));
    let (worst, ascale) = check_jacobian(&A, &x, relative_step, rhs, 1e-8, "rhs");
    println!("worst Jacobian error {worst:.2e} of max entry {ascale:.2e}, E {worst_e:.2e}");
    // The discrete right-hand side of a step x0 → x1 = 2 x_m − x0 (averaged momenta (F4),
    // discrete effort (F5)): its exact Jacobian with respect to x_m, the Newton matrix of
    // the midpoint step, against central differences.
    let x0: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(i, v)| v + 0.05 * (1.7 * i as f64).cos() * (1.0 + v.abs()))
        .collect();
    let fh = |xm: &[f64]| {
        let x1: Vec<f64> = xm.iter().zip(&x0).map(|(m, a)| 2.0 * m - a).collect();
        let mut z = vec![0.0; n];
        mb.effort(xm, &mut z);
        let mut f = vec![0.0; n];
        mb.step_rhs(&x0, &x1, xm, &z, &u, &mut f);
        f
    };
    let x1: Vec<f64> = x.iter().zip(&x0).map(|(m, a)| 2.0 * m - a).collect();
    let Ah = sparse::to_dense(&mb.step_rhs_jacobian(&x0, &x1, &x, &u));
    let mut worst_h = 0.0f64;
    central_differences(&x, relative_step, fh, |k, h, fp, fm| {
        for i in 0..n {
            let d = (fp[i] - fm[i]) / (2.0 * h);
            worst_h = worst_h.max((d - Ah[(i, k)]).abs() / ascale);
        }
    });
    println!("discrete step Jacobian: worst error {worst_h:.2e}");
    assert!(worst_h < 1e-8, "step Jacobian {worst_h:.2e}");
    // The tip of `a` moves with the port output: d/dt r_C = R (v + ω × (a + N u) + N v_f).
    let f = rhs(&x);
    let eps = 1e-7;
    let xq: Vec<f64> = x.iter().zip(&f).map(|(a, b)| a + eps * b).collect();
    let xr: Vec<f64> = x.iter().zip(&f).map(|(a, b)| a - eps * b).collect();
    for (b, port) in [(0, 1), (1, 2)] {
        let (p1, p0) = (
            mb.port_position(b, port, &xq),
            mb.port_position(b, port, &xr),
        );
        let [v, _] = mb.port_velocity_inertial(b, port, &x);
        let vn = v.iter().fold(0.0f64, |m, a| m.max(a.abs()));
        for c in 0..3 {
            let d = (p1[c] - p0[c]) / (2.0 * eps);
            assert!(
                (d - v[c]).abs() < 1e-7 * vn,
                "port {b}.{port}: {d} vs {}",
                v[c]
            );
        }
    }
}

/// Inertial linear momentum R π_v and angular momentum R π_ω + r_P × R π_v of a body.
fn momenta(b: &FloatingBody3d, x: &[f64]) -> ([f64; 3], [f64; 3]) {
    b.angular_momentum_about(x, [0.0; 3])
}

/// A free beam (no joints, no gravity), spinning about a skew axis and deforming (initial
/// elastic displacement and velocity): the midpoint rule with full inertia keeps
/// * the energy to the Newton tolerance 1e-12 (asserted 1e-11 relative, both variants);
/// * the inertial linear momentum exactly (Cayley update of R with the averaged momentum,
///   module doc (F4)): asserted 1e-11 relative, translating beam;
/// * the inertial angular momentum exactly when the linear momentum vanishes (centre of
///   mass at rest): asserted 1e-11 relative; for a translating beam it changes by O(h³)
///   per step (the midpoint rotation R_m is not orthogonal), reported.
///
/// The beam is soft (E = 7e8 Pa): the elastic energy is a few % of the kinetic one.
#[test]
fn free_beam_conserves_momenta_and_energy() {
    for (translating, variant) in [
        (false, MidpointVariant::Midpoint),
        (true, MidpointVariant::DiscreteGradient),
    ] {
        let w0 = [0.4, 1.5, -0.8];
        let spec = beam(true)
            .rotation(from_axis_angle([0.2, 1.0, 0.4], 0.5).unwrap())
            .angular_velocity(w0);
        let body = spec.build("beam").unwrap();
        let mut b = MultibodyBuilder3d::new();
        b.add_body("beam", spec.clone());
        let mb = b.build().unwrap();
        let mut x0 = mb.initial_state();
        let nq = body.n_q();
        for i in 12..nq {
            x0[i] = 2e-3 * (0.7 * i as f64).sin();
            x0[nq + 6 + i - 12] = 0.05 * (1.3 * i as f64).cos();
        }
        // choose v_P so that the linear momentum π_v(u, p) vanishes (or is (1, 2, −1) kg m/s)
        let target = if translating {
            [1.0, 2.0, -1.0]
        } else {
            [0.0; 3]
        };
        let (pv, _) = body.momenta(&x0);
        for d in 0..3 {
            x0[nq + d] += (target[d] - pv[d]) / body.mass();
        }
        let (l0, a0) = momenta(&body, &x0);
        let h0 = mb.hamiltonian(&x0);
        let mut de = 0.0f64;
        let (mut dl, mut da) = (0.0f64, 0.0f64);
        let mut umax = 0.0f64;
        let run = Midpoint::new(
            &mb,
            mb.input(),
            midpoint(2e-3, 2.0, 10, (1e-12, 1e-12), variant),
        )
        .unwrap()
        .run(&x0, &mut |_t: f64, x: &[f64]| {
            let (l, a) = momenta(&body, x);
            de = de.max((mb.hamiltonian(x) - h0).abs() / h0);
            for c in 0..3 {
                dl = dl.max((l[c] - l0[c]).abs());
                da = da.max((a[c] - a0[c]).abs());
            }
            umax = umax.max(x[12..nq].iter().fold(0.0f64, |m, v| m.max(v.abs())));
        })
        .unwrap();
        let ln = body.mass() * 1.0f64.max(l0.iter().fold(0.0f64, |m, v| m.max(v.abs())));
        let an = a0.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        println!(
            "free beam ({variant:?}, translating {translating}): {} steps, max |u_f| {umax:.2e}; \
             energy {de:.2e}, linear momentum {:.2e}, angular momentum {:.2e} (relative); \
             step residual {:.2e}",
            run.stats.steps,
            dl / ln,
            da / an,
            run.max_step_residual.unwrap()
        );
        assert!(de < 1e-11, "energy {de:.2e}");
        assert!(dl / ln < 1e-11, "linear momentum {:.2e}", dl / ln);
        if !translating {
            assert!(da / an < 1e-11, "angular momentum {:.2e}", da / an);
        } else {
            assert!(da / an < 1e-4, "angular momentum {:.2e}", da / an);
        }
    }
}

/// Largest relative change of H inside the load-free windows and of L_Z/∫M_z dt − 1
/// before and after the kick (as in `tests/hinged_spatial_beam.rs`).
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

/// Largest |ω_Z(a) − ω_Z(b)| / max|ω_Z|, |K(a) − K(b)| / max K and |tip rate(a) − tip
/// rate(b)| / max |tip rate| over the common samples.
fn difference(a: &HingedRun, b: &HingedRun) -> (f64, f64, f64) {
    let wmax = b.samples.iter().fold(0.0f64, |m, s| m.max(s.omega_z.abs()));
    let kmax = b.samples.iter().fold(0.0f64, |m, s| m.max(s.kinetic));
    let rmax = b
        .samples
        .iter()
        .fold(0.0f64, |m, s| m.max(s.tip_rate.abs()));
    let (mut dw, mut dk, mut dr) = (0.0f64, 0.0f64, 0.0f64);
    assert_eq!(a.samples.len(), b.samples.len());
    for (s, r) in a.samples.iter().zip(&b.samples) {
        assert!((s.t - r.t).abs() < 1e-9);
        dw = dw.max((s.omega_z - r.omega_z).abs());
        dk = dk.max((s.kinetic - r.kinetic).abs());
        dr = dr.max((s.tip_rate - r.tip_rate).abs());
    }
    (dw / wmax, dk / kmax, dr / rmax)
}

fn hinged_study(t_end: f64, h: f64) {
    let full = HingedSpatialBeam {
        full_inertia: true,
        ..HingedSpatialBeam::default()
    };
    let every = (0.05 / h).round() as usize;
    // Newton tolerance 1e-10: with full inertia ω_x (polar inertia ρI_pL only) couples to
    // the bending through the deformed positions and its increments stall at ≈ 1e-12 of
    // the coupled momenta, above a 1e-12 tolerance.
    let run = full
        .run(HingedSpatialBeam::params(h, t_end, every, 1e-10))
        .unwrap();
    let (de, before, after) = invariants(&full, &run);
    let constant = HingedSpatialBeam::default()
        .run(HingedSpatialBeam::params(h, t_end, every, 1e-12))
        .unwrap();
    let (_, cb, ca) = invariants(&HingedSpatialBeam::default(), &constant);
    let (dw, dk, dr) = difference(&run, &constant);
    let wmax = run
        .samples
        .iter()
        .fold(0.0f64, |m, s| m.max(s.omega_z.abs()));
    let zmax = run
        .samples
        .iter()
        .fold(0.0f64, |m, s| m.max(s.tip[2].abs()));
    println!(
        "hinged beam, full inertia, {t_end} s, h = {h}: {} steps, {:.2} Newton iterations/step, \
         {} factorizations, wall {:.3} s (constant operator {:.3} s); max ω_Z {wmax:.4} rad/s, \
         max |tip z| {zmax:.2} mm; energy drift in load-free windows {de:.2e}, step power \
         residual {:.2e} nJ, joint drift {:.1e} mm; |L_Z/∫M dt − 1| before the kick \
         {before:.2e}, after {after:.2e} (constant operator {cb:.2e}, {ca:.2e}); \
         full − constant: ω_Z {dw:.2e}, K {dk:.2e}, tip rate {dr:.2e} (relative to the maxima)",
        run.stats.steps,
        run.stats.newton_iterations as f64 / run.stats.steps as f64,
        run.stats.factorizations,
        run.wall,
        constant.wall,
        run.max_step_residual,
        run.max_drift,
    );
    assert!(de < 1e-9, "energy {de:.2e}");
    assert!(run.max_step_residual < 1e-8);
    assert!(
        before < 1e-8 && after < 1e-8,
        "L_Z {before:.2e} {after:.2e}"
    );
    // Both models agree to O(deformation) while it is small (the tip deflection is a few
    // mm on 141 mm up to 17 s: K within 10 %, measured 8e-3). Not asserted over the whole
    // 50 s run: there the tip swings 78 mm out of plane, the constant operator loses 5e-3
    // of L_Z and the kinetic energies differ by 12 % (measured).
    let c = HingedSpatialBeam::default();
    if t_end <= c.kick_start + 2.0 {
        assert!(dk < 0.1, "difference to the constant operator: K {dk:.2e}");
    }
    if t_end > c.kick_start + c.kick_width {
        assert!(zmax > 1.0);
    }
}

/// The §6.4 hinged beam with full inertia over the torque and the free spin up to the
/// kick (15 s), midpoint h = 5 ms, Newton tolerance 1e-10: L_Z = ∫M_z dt to 1e-8 after
/// the torque (the constant operator: 2.2e-7), energy constant between the load events
/// (1e-9) and the per-step power balance (1e-8 nJ on H ≈ 70 nJ).
#[test]
fn hinged_full_inertia_fast() {
    hinged_study(15.0, 0.005);
}

/// Across the impulsive kick (15–15.1 s) to 17 s, h = 5 ms: L_Z = ∫M_z dt to 1e-8 after
/// the kick as well (measured 2.2e-11; the constant operator 3.1e-4). Before the
/// re-linearisation of a stale modified-Newton matrix (`phlex_solve::step_newton` module
/// documentation) the step at t = 15.26 s was reported divergent: the simplified
/// iteration from the poor predictor after the kick contracted the residual by 1e-3 per
/// iteration while the weighted increment norm grew (θ = 1.6).
#[test]
fn hinged_full_inertia_kick() {
    hinged_study(17.0, 0.005);
}

/// The full 50 s run across the kick, h = 2.5 ms (3.3–5.7 s for the full-inertia run, ≈ 5–9 s
/// in all, release): L_Z/∫M_z dt − 1 after the kick 2.9e-11, energy drift between the
/// load events 1e-10.
#[test]
#[ignore = "long (≈ 5 s); fast twin: hinged_full_inertia_kick"]
fn hinged_full_inertia_full() {
    hinged_study(50.0, 0.0025);
}

/// Radau IIA through the constant-mass adapter ([`PhDae`]) over the first 3 s of
/// the torque phase at rtol = atol = 1e-7 against the midpoint run with h = 2.5 ms: the
/// kinetic energy agrees to 1e-2 of its maximum (measured 3.9e-3; the frame rate ω_Z and
/// the tip rate carry the wobble of the high modes excited by the torque step and differ
/// more, reported), and L_Z = M_z t holds to 1e-8 (measured 1.6e-11: the constant-mass
/// form of the momentum equations keeps the angular momentum balance).
#[test]
fn hinged_full_inertia_radau() {
    let case = HingedSpatialBeam {
        full_inertia: true,
        ..HingedSpatialBeam::default()
    };
    let t_end = 3.0;
    let grid: Vec<f64> = (1..=60).map(|k| 0.05 * k as f64).collect();
    let radau = case.run_radau(1e-7, t_end, &grid).unwrap();
    let mid = case
        .run(HingedSpatialBeam::params(0.0025, t_end, 20, 1e-10))
        .unwrap();
    let (dw, dk, dr) = difference(&radau, &mid);
    let lz = |s: &HingedSample| case.torque * s.t;
    let dl = radau
        .samples
        .iter()
        .skip(1)
        .fold(0.0f64, |m, s| m.max((s.l_z / lz(s) - 1.0).abs()));
    println!(
        "Radau IIA (full inertia, 3 s): {} steps, wall {:.3} s; vs midpoint h = 2.5 ms: ω_Z \
         {dw:.2e}, K {dk:.2e}, tip rate {dr:.2e}; |L_Z/(M_z t) − 1| {dl:.2e}",
        radau.stats.steps, radau.wall
    );
    assert!(dk < 1e-2, "{dk:.2e}");
    assert!(dl < 1e-8, "{dl:.2e}");
}
