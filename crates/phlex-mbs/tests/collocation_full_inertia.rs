//! Gauss–Legendre collocation of mechanisms with deformation-dependent inertia (issue 3;
//! `phlex_mbs::spatial::collocation`, conservation form $\Phi(X_i) - \Phi(x_0) =
//! h\sum_j a_{ij}f(X_j)$, $\Phi(x_1) = \Phi(x_0) + h\sum_j b_jf(X_j)$, with
//! $\Phi = (q, \pi(q, p))$ of `full_inertia_3d` eq. (F3)), on the §6.4 hinged spatial beam
//! of paper 000 with `full_inertia` (units mm–g–s, energies in nJ):
//!
//! * `full_gauss_orders_fast` (CI): observed orders of s = 1..4 stages over the first
//!   second of the torque phase against a 6-stage reference, and the order of the
//!   per-step energy balance error $|H_1 - H_0 - h\sum_ib_iz_i^\top f_i|$ (H is not
//!   quadratic: not exact, $O(h^{2s+1})$ per step);
//! * `full_gauss_angular_momentum_fast` (CI): $L_Z = \hat Z\cdot R\pi_\omega$ is a quadratic
//!   invariant of the conservation form, so Gauss methods keep $L_Z = \int M_z\,dt$ after
//!   the torque and across the kick (to 20 s) to the Newton tolerance;
//! * `full_gauss_angular_momentum_full` (ignored): the same over 50 s.
//! * `planar_full_gauss_orders_fast` (CI): the planar conservation form
//!   (`full_inertia` eq. (F3), $\Phi = (q, M(u_f)p)$) on a free spinning beam: orders 2s
//!   of s = 1..3 over 20 ms against a 6-stage reference, energy error.
mod common;

use phlex_mbs::{HingedRun, HingedSpatialBeam};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::gauss::GaussParams;

fn full() -> HingedSpatialBeam {
    HingedSpatialBeam {
        full_inertia: true,
        ..HingedSpatialBeam::default()
    }
}

fn params(
    stages: usize,
    h: f64,
    t_end: f64,
    every: usize,
    tol: f64,
) -> (FixedStepParams, GaussParams) {
    (
        FixedStepParams {
            t0: 0.0,
            t_end,
            h,
            output_every: every,
        },
        GaussParams {
            stages,
            tol,
            max_iterations: 10,
            refresh_theta: 0.3,
            power_balance: true,
        },
    )
}

/// Largest |L_Z/∫M_z dt − 1| after the torque, before and after the kick.
fn lz_errors(case: &HingedSpatialBeam, run: &HingedRun) -> (f64, f64) {
    let (t1, t2) = (case.torque_end, case.kick_start);
    let l = case.torque_impulse();
    let (mut b, mut a) = (0.0f64, 0.0f64);
    for s in &run.samples {
        let e = (s.l_z / l - 1.0).abs();
        if s.t >= t1 - 1e-9 && s.t <= t2 + 1e-9 {
            b = b.max(e)
        } else if s.t > t2 {
            a = a.max(e)
        }
    }
    (b, a)
}

/// Error of the final sample against the reference: tip position (relative to the
/// length) and kinetic energy (relative).
fn final_error(run: &HingedRun, reference: &HingedRun, length: f64) -> f64 {
    let (a, r) = (
        run.samples.last().unwrap(),
        reference.samples.last().unwrap(),
    );
    assert!((a.t - r.t).abs() < 1e-9);
    let dt = (0..3).fold(0.0f64, |m, i| m.max((a.tip[i] - r.tip[i]).abs())) / length;
    dt.max((a.kinetic - r.kinetic).abs() / r.kinetic)
}

#[test]
fn full_gauss_orders_fast() {
    let case = full();
    let t_end = 1.0;
    let reference = case
        .run_gauss_with(params(6, 1.25e-3, t_end, 800, 1e-12))
        .unwrap();
    for s in 1..=4usize {
        // steps in the asymptotic range (the torque step excites the stiff bending modes;
        // below 2 stages larger steps are not yet asymptotic)
        let h0 = [1.25e-3, 5e-3, 0.01, 0.01][s - 1];
        let hs = [h0, 0.5 * h0];
        let mut errs = Vec::new();
        let mut res = Vec::new();
        for &h in &hs {
            let run = case
                .run_gauss_with(params(s, h, t_end, (t_end / h).round() as usize, 1e-12))
                .unwrap();
            errs.push(final_error(&run, &reference, case.length));
            res.push(run.max_step_residual);
        }
        let p = (errs[0] / errs[1]).log2();
        let pe = (res[0] / res[1]).log2();
        println!(
            "s = {s}: error at h = {:.4}, {:.4} s: {:.3e}, {:.3e} (order {p:.2}); step energy \
             residual {:.3e}, {:.3e} nJ (order {pe:.2})",
            hs[0], hs[1], errs[0], errs[1], res[0], res[1]
        );
        // order 2s of the differential variables (the spherical joint v_P = 0 causes no
        // index-2 order reduction); per-step energy error O(h^{2s+1}) (one order slack)
        assert!((p - 2.0 * s as f64).abs() < 0.6, "s = {s}: order {p:.2}");
        assert!(pe > 2.0 * s as f64 - 0.6, "s = {s}: energy order {pe:.2}");
    }
}

#[test]
fn full_gauss_angular_momentum_fast() {
    let case = full();
    for s in [1usize, 2, 3] {
        let h = 0.005;
        // to 20 s: 2 stages needs halved steps near t = 19.1 s (before the step halving of
        // the collocation, its Newton iteration failed there)
        let run = case.run_gauss_with(params(s, h, 20.0, 10, 1e-10)).unwrap();
        let (b, a) = lz_errors(&case, &run);
        println!(
            "s = {s}, h = {h}: {} steps, {} Newton, {} factorizations, wall {:.3} s; L_Z \
             before kick {b:.2e}, after {a:.2e}; step energy residual {:.2e} nJ",
            run.stats.steps,
            run.stats.newton_iterations,
            run.stats.factorizations,
            run.wall,
            run.max_step_residual
        );
        // the test quantity: L_Z = ∫M_z dt to 1e-8 relative (measured 1e-12
        // before the kick, 2–5e-11 after it: Newton tolerance 1e-10 accumulated)
        assert!(b < 1e-8 && a < 1e-8, "s = {s}: L_Z {b:.2e} {a:.2e}");
        // per-step energy balance O(h^{2s+1}) (H ≈ 70 nJ): 3e-3, 5e-5, 6e-7 nJ measured
        assert!(run.max_step_residual < [1e-2, 2e-4, 2e-6][s - 1]);
    }
}

/// The 50 s run (torque, free spin, kick, large out-of-plane swing) with 1 stage
/// (conservation-form midpoint), h = 5 ms: measured L_Z 3.2e-12 before, 1.4e-10 after
/// the kick, 10 000 steps, 3.9 s; and 2, 4, 6 stages, which need a few halved steps after
/// the kick (without halving their simplified Newton iteration stalls at ≈ 1e-9 there):
/// measured 1.8 s (s = 1), 3.9 s (2), 12.1 s (4), 10.8 s (6), L_Z ≤ 1.5e-9 after the kick,
/// but ≈ 2 500 rejected Newton attempts for 4 000 steps at 12.5 ms: slow, open.
#[test]
#[ignore = "long (≈ 30 s); fast twin: full_gauss_angular_momentum_fast"]
fn full_gauss_angular_momentum_full() {
    let case = full();
    for (s, h, every) in [
        (1usize, 0.005, 10usize),
        (2, 0.005, 10),
        (4, 0.0125, 4),
        (6, 0.0125, 4),
    ] {
        let run = case
            .run_gauss_with(params(s, h, 50.0, every, 1e-10))
            .unwrap();
        let (b, a) = lz_errors(&case, &run);
        println!(
            "50 s, s = {s}, h = {h}: {} steps ({} rejected), {} Newton, {} factorizations, \
             wall {:.3} s; L_Z before kick {b:.2e}, after {a:.2e}; step energy residual \
             {:.2e} nJ",
            run.stats.steps,
            run.stats.rejected_steps,
            run.stats.newton_iterations,
            run.stats.factorizations,
            run.wall,
            run.max_step_residual
        );
        assert!(b < 1e-8 && a < 1e-8, "s = {s}: L_Z {b:.2e} {a:.2e}");
    }
}

/// Planar orders over 20 ms: the final state of s = 1..3 stages against a 6-stage
/// reference (h = 0.25 ms; it agrees with 6 stages at 0.5 ms to 4e-9), and the energy
/// error $H(t) - H(0)$ (no inputs: the global energy error). The interval is short on
/// purpose: the initial deflection excites the stiff axial/bending modes (stress up to
/// ≈ 2, $\omega h \gtrsim 0.3$ at h = 0.25 ms), and over 0.5 s their accumulated phase
/// error ($\propto \omega^{2s+1}h^{2s}t$) is O(1) for s = 1 at every h below 1 ms
/// (measured 0.18 at 0.25 and 0.125 ms: not a bug, the pre-asymptotic range; s = 2
/// converges there with order 4.0 from 0.5 ms, s = 3 with order 5.2 from 1 ms).
/// Measured over 20 ms (max error of all differential states): s = 1 4.6e-3, 1.2e-3 at
/// 0.125, 0.0625 ms (order 1.94); s = 2 6.6e-4, 4.4e-5 at 0.5, 0.25 ms (order 3.9); s = 3 2.2e-4,
/// 3.9e-6 at 1, 0.5 ms (order 5.9).
#[test]
fn planar_full_gauss_orders_fast() {
    use phlex_core::PhSystem;
    use phlex_solve::GaussCollocation;
    // the free beam of `tests/full_inertia.rs`, its linear momentum not cancelled
    let (mb, x0) = common::free_beam::free_beam(true, false);
    let t_end = 0.02;
    let run = |s: usize, h: f64| {
        let mut dh = 0.0f64;
        let h0 = mb.hamiltonian(&x0);
        let (step, mut p) = params(s, h, t_end, 1, 1e-11);
        p.power_balance = false;
        let r = GaussCollocation::new(&mb, mb.input(), step, p)
            .unwrap()
            .run(&x0, &mut |_t: f64, x: &[f64]| {
                dh = dh.max((mb.hamiltonian(x) - h0).abs() / h0)
            })
            .unwrap();
        (r.state, dh)
    };
    let (xr, _) = run(6, 2.5e-4);
    for s in 1..=3usize {
        let h0 = [1.25e-4, 5e-4, 1e-3][s - 1];
        let mut e = Vec::new();
        let mut d = Vec::new();
        for h in [h0, 0.5 * h0] {
            let (x, dh) = run(s, h);
            // differential variables only (algebraic ones are extrapolated)
            let mut alg = Vec::new();
            for b in mb.blocks() {
                alg.extend(std::iter::repeat_n(
                    matches!(b.kind, phlex_core::VarKind::Algebraic { .. }),
                    b.len,
                ));
            }
            e.push(
                (0..x.len())
                    .filter(|&i| !alg[i])
                    .fold(0.0f64, |m, i| m.max((x[i] - xr[i]).abs())),
            );
            d.push(dh);
        }
        let (p, pe) = ((e[0] / e[1]).log2(), (d[0] / d[1]).log2());
        println!(
            "planar s = {s}: state error {:.3e}, {:.3e} (order {p:.2}); energy error {:.3e}, \
             {:.3e} (order {pe:.2})",
            e[0], e[1], d[0], d[1]
        );
        // order 2s (free body: an ODE); the finer errors stay 30x above the reference's
        // own error (4e-9)
        assert!((p - 2.0 * s as f64).abs() < 0.6, "s = {s}: order {p:.2}");
        assert!(d[1] < 1e-6, "s = {s}: energy error {:.2e}", d[1]);
    }
}
