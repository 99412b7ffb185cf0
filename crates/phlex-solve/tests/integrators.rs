//! Every integrator of the front door ([`phlex_solve::integrate`]) on a small linear pH
//! system: the fixed–free mass–spring chain with a damper on the last mass and a force
//! port there (E = diag(mI, I/k), J = [[0, −Dᵀ], [D, 0]], R ≠ 0, B = e_{v_N}).
//!
//! * discrete power balance $H_1 - H_0 = h(\bar y^\top\bar u - \bar z^\top R\bar z)$ per step
//!   (midpoint, discrete gradient, Gauss with 1–3 stages: quadratic $H$, to 1e-12 relative),
//!   the sampled (trapezoidal) balance of Radau IIA to its tolerance;
//! * convergence orders against the closed-form solution of the lossless chain
//!   (midpoint 2, Gauss $2s$, Störmer–Verlet 2);
//! * the errors that name what does not apply.
#![allow(non_snake_case)]
mod common;
use common::*;
use phlex_core::{LinearPhSystem, ProjectionOptions};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::gauss::GaussParams;
use phlex_solve::newton::NewtonParams;
use phlex_solve::{
    integrate, InputFn, IntegrationRun, Integrator, LedgerKind, Midpoint, MidpointParams,
    MidpointVariant, Signal, SolveError,
};

const N: usize = 4;

fn span(t_end: f64, h: f64, every: usize) -> FixedStepParams {
    FixedStepParams {
        t0: 0.0,
        t_end,
        h,
        output_every: every,
    }
}

/// The damped chain with its tip port driven by a smooth force switched on at a breakpoint.
fn driven() -> (LinearPhSystem, InputFn, Vec<f64>) {
    let sys = chain(N, 1.0, 25.0, 0.3, true);
    let u = InputFn::new(vec![switched_force("0.7*sin(2.1*t)", 0.537, 0.4)]);
    let mut x0 = vec![0.0; 2 * N];
    x0[0] = 0.5;
    x0[N + 1] = -2.0;
    (sys, u, x0)
}

fn run(
    sys: &LinearPhSystem,
    u: &InputFn,
    x0: &[f64],
    integ: &Integrator,
    s: FixedStepParams,
) -> IntegrationRun {
    integrate(
        sys,
        x0,
        u.clone(),
        integ,
        s,
        None,
        &mut |_t: f64, _x: &[f64]| {},
    )
    .unwrap()
}

/// Tight Newton settings (the balance then holds to round-off).
fn newton() -> NewtonParams {
    NewtonParams {
        rtol: 1e-14,
        atol: 1e-14,
        ..Default::default()
    }
}

/// Midpoint (linear fast path and Newton path), discrete gradient and Gauss with 1–3 stages
/// satisfy the discrete power balance of the damped, port-driven chain per step to 1e-12
/// relative, with energy actually supplied and dissipated.
#[test]
fn one_step_integrators_satisfy_the_discrete_power_balance() {
    let (sys, u, x0) = driven();
    let s = span(3.0, 0.01, 7);
    let mut integrators = vec![
        Integrator::Midpoint(newton()),
        Integrator::DiscreteGradient(newton()),
    ];
    for stages in 1..=3 {
        integrators.push(Integrator::Gauss(GaussParams {
            stages,
            tol: 1e-14,
            ..Default::default()
        }));
    }
    let mut newton_path = Midpoint::new(
        &sys,
        u.clone(),
        MidpointParams {
            step: s,
            newton: newton(),
            variant: MidpointVariant::Midpoint,
        },
    )
    .unwrap();
    let mut runs: Vec<(String, IntegrationRun)> = integrators
        .iter()
        .map(|i| (i.name().to_string(), run(&sys, &u, &x0, i, s)))
        .collect();
    runs.push((
        "midpoint (Newton path)".into(),
        newton_path.run(&x0, &mut |_t: f64, _x: &[f64]| {}).unwrap(),
    ));
    for (name, r) in &runs {
        let l = &r.ledger;
        assert_eq!(r.ledger_kind, LedgerKind::PerStep, "{name}");
        assert!(
            l.supplied.last().unwrap()[0].abs() > 1e-2 && *l.dissipated.last().unwrap() > 1e-2,
            "{name}: supplied {:?}, dissipated {:?}",
            l.supplied.last(),
            l.dissipated.last()
        );
        let rel = l.max_relative_residual();
        let step = r.max_step_residual.unwrap() / l.energy_scale();
        println!(
            "{name}: ledger residual {rel:.3e}, step residual {step:.3e}, drift {:.3e}, stats {:?}",
            l.relative_drift(),
            r.stats
        );
        assert!(rel < 1e-12, "{name}: ledger residual {rel:.3e}");
        assert!(step < 1e-12, "{name}: step residual {step:.3e}");
        assert!(l.relative_drift() < 1e-11, "{name}");
        assert_eq!(
            l.times.len(),
            44,
            "{name}: samples at 0, every 7th step, t_end"
        );
        assert!((r.t - 3.0).abs() < 1e-14, "{name}");
    }
    // The same steps: the Newton path reproduces the fast path, and Gauss with one stage is
    // the midpoint rule.
    let fast = &runs[0].1.state;
    for k in [2, 5] {
        let d = rel_diff(&runs[k].1.state, fast);
        assert!(d < 1e-12, "{}: {d:.3e}", runs[k].0);
    }
    // fast path: h, and the two parts of the step split at the input breakpoint
    assert_eq!(runs[0].1.stats.factorizations, 3);
}

/// Radau IIA: sampled ledger, balance to the tolerance and the sampling error (a smooth
/// input: the trapezoidal rule of the sampled ledger does not see a jump of $u$ between two
/// samples).
#[test]
fn radau5_sampled_balance_and_agreement() {
    let (sys, _, x0) = driven();
    let u = InputFn::new(vec![Signal::expr("0.7*sin(2.1*t)").unwrap()]);
    let reference = run(
        &sys,
        &u,
        &x0,
        &Integrator::Gauss(GaussParams {
            stages: 3,
            tol: 1e-14,
            ..Default::default()
        }),
        span(3.0, 1e-3, 1000),
    );
    let r = run(
        &sys,
        &u,
        &x0,
        &Integrator::radau5(1e-9, 1e-11),
        span(3.0, 1e-3, 1),
    );
    assert_eq!(r.ledger_kind, LedgerKind::Sampled);
    assert!(r.max_step_residual.is_none());
    assert_eq!(r.ledger.times.len(), 3001);
    let d = rel_diff(&r.state, &reference.state);
    let drift = r.ledger.relative_drift();
    println!(
        "radau5: state vs Gauss {d:.3e}, sampled balance drift {drift:.3e}, {:?}",
        r.stats
    );
    assert!(d < 1e-7, "{d:.3e}");
    // trapezoidal quadrature of the powers with dt = 1e-3: O(dt²) of the power scale
    assert!(drift < 1e-6, "{drift:.3e}");
}

/// Convergence orders against the exact solution of the lossless chain (two modes).
#[test]
fn convergence_orders() {
    let (m, k) = (1.0, 25.0);
    let sys = chain(N, m, k, 0.0, false);
    let modes = [(1, 1.0), (2, 0.3)];
    let x0 = chain_modal_solution(N, m, k, &modes, 0.0);
    let t_end = 1.0;
    let exact = chain_modal_solution(N, m, k, &modes, t_end);
    let u = InputFn::zeros(0);
    let err = |integ: &Integrator, h: f64| {
        rel_diff(
            &run(&sys, &u, &x0, integ, span(t_end, h, 1000)).state,
            &exact,
        )
    };
    let gauss = |stages| {
        Integrator::Gauss(GaussParams {
            stages,
            tol: 1e-15,
            ..Default::default()
        })
    };
    let cases = [
        (Integrator::Midpoint(newton()), 2.0, 0.02),
        (Integrator::StormerVerlet, 2.0, 0.02),
        (gauss(1), 2.0, 0.02),
        (gauss(2), 4.0, 0.05),
        (gauss(3), 6.0, 0.1),
    ];
    for (integ, order, h) in &cases {
        let (e1, e2) = (err(integ, *h), err(integ, 0.5 * h));
        let p = (e1 / e2).log2();
        println!(
            "{} ({:?}): error {e1:.3e} → {e2:.3e}, order {p:.2}",
            integ.name(),
            integ
        );
        assert!(
            (p - order).abs() < 0.3,
            "{}: order {p:.2}, expected {order}",
            integ.name()
        );
    }
}

/// Störmer–Verlet: explicit, its ledger residual is the O(h²) energy error; systems it does
/// not apply to are rejected with errors naming why.
#[test]
fn stormer_verlet_and_what_does_not_apply() {
    let sys = chain(N, 1.0, 25.0, 0.0, true);
    let u = InputFn::new(vec![Signal::expr("0.5*cos(3*t)").unwrap()]);
    let x0 = chain_modal_solution(N, 1.0, 25.0, &[(1, 1.0)], 0.0);
    let verlet = |h: f64| run(&sys, &u, &x0, &Integrator::StormerVerlet, span(2.0, h, 1));
    let (r1, r2) = (verlet(0.02), verlet(0.01));
    let (e1, e2) = (r1.ledger.relative_drift(), r2.ledger.relative_drift());
    assert_eq!(r1.ledger_kind, LedgerKind::PerStep);
    assert!(e1 > 1e-6 && (e1 / e2).log2() > 1.7, "{e1:.3e} {e2:.3e}");
    // damping: not partitioned
    let (damped, du, dx0) = driven();
    let e = integrate(
        &damped,
        &dx0,
        du.clone(),
        &Integrator::StormerVerlet,
        span(1.0, 0.01, 1),
        None,
        &mut |_t: f64, _x: &[f64]| {},
    )
    .unwrap_err();
    assert!(
        matches!(e, SolveError::NotPartitioned { ref block, .. } if block == "R"),
        "{e}"
    );
    // a projection on a system without constraints, and with Radau
    let opts = Some(ProjectionOptions::default());
    for integ in [
        Integrator::Midpoint(newton()),
        Integrator::gauss(2),
        Integrator::radau5(1e-6, 1e-8),
    ] {
        let e = integrate(
            &damped,
            &dx0,
            du.clone(),
            &integ,
            span(1.0, 0.01, 1),
            opts,
            &mut |_t: f64, _x: &[f64]| {},
        )
        .unwrap_err();
        assert!(
            matches!(e, SolveError::NotApplicable { .. }),
            "{}: {e}",
            integ.name()
        );
        assert!(e.to_string().contains("projection"), "{e}");
    }
    // unknown names and bad settings name what to use
    let e = Integrator::from_name("rk45").unwrap_err().to_string();
    assert!(e.contains("gauss") && e.contains("radau5"), "{e}");
    let e = Integrator::gauss(7).validate().unwrap_err().to_string();
    assert!(e.contains("1 <= stages <= 6"), "{e}");
    for name in Integrator::NAMES {
        assert_eq!(Integrator::from_name(name).unwrap().name(), name);
    }
}

/// The system trait is object safe: a boxed `dyn PhSystem` goes through the front door (the
/// linear fast path included) with the same result as the concrete system.
#[test]
fn dyn_system_through_the_front_door() {
    let (sys, u, x0) = driven();
    let s = span(1.0, 0.01, 10);
    let boxed: Box<dyn phlex_core::PhSystem> = Box::new(sys.clone());
    for integ in [Integrator::Midpoint(newton()), Integrator::gauss(2)] {
        let a = run(&sys, &u, &x0, &integ, s);
        let b = integrate(
            boxed.as_ref(),
            &x0,
            u.clone(),
            &integ,
            s,
            None,
            &mut |_t: f64, _x: &[f64]| {},
        )
        .unwrap();
        assert_eq!(a.state, b.state, "{}", integ.name());
    }
}
