//! Integrator parameters shared by the tests: the implicit midpoint rule / discrete
//! gradient with full Newton, and Radau IIA runs to a final time.
use phlex_core::PhSystem;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{MidpointParams, MidpointVariant};
use phlex_solve::newton::NewtonParams;
use phlex_solve::radau5::{OutputTimes, Radau5Params, Radau5Solution};
use phlex_solve::InputFn;

/// Midpoint-family parameters from $t_0 = 0$ to `t_end` with step `h`, output every
/// `every` steps, full Newton (a fresh Jacobian every iteration) stopping at
/// `tol = (rtol, atol)`, scheme `variant`.
pub fn midpoint(
    h: f64,
    t_end: f64,
    every: usize,
    tol: (f64, f64),
    variant: MidpointVariant,
) -> MidpointParams {
    MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end,
            h,
            output_every: every,
        },
        newton: NewtonParams {
            rtol: tol.0,
            atol: tol.1,
            modified: false,
            ..Default::default()
        },
        variant,
    }
}

/// The discrete gradient with full Newton, output every step (see [`midpoint`]).
pub fn discrete_gradient(h: f64, t_end: f64, tol: (f64, f64)) -> MidpointParams {
    midpoint(h, t_end, 1, tol, MidpointVariant::DiscreteGradient)
}

/// Radau IIA (rtol = atol = `tol`) on the system `sys` with input `input` from `x0` at
/// $t = 0$ to `t_end`, final state only.
pub fn radau_to<S: PhSystem>(
    sys: &S,
    input: InputFn,
    x0: &[f64],
    t_end: f64,
    tol: f64,
) -> Radau5Solution {
    phlex_solve::Radau5::new(Radau5Params::with_tolerances(tol, tol))
        .unwrap()
        .integrate(
            &phlex_solve::PhDae::new(sys, input).unwrap(),
            0.0,
            x0,
            t_end,
            OutputTimes::None,
            &mut |_t: f64, _y: &[f64]| {},
        )
        .unwrap()
}

/// The largest $|H|$ of an energy ledger (the scale of its step residuals).
pub fn max_abs(values: &[f64]) -> f64 {
    values.iter().fold(0.0f64, |m, h| m.max(h.abs()))
}
