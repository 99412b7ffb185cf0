//! Time integration fixtures: the implicit midpoint rule (Crank–Nicolson for linear pH
//! systems, thesis 004 §3.5) on a fixed grid with an output at every step.
use phlex_core::diagnostics::EnergyLedger;
use phlex_core::LinearPhSystem;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::signal::{InputFn, Signal};

/// Midpoint parameters on `[t0, t_end]` with step `h`, an output at every step.
pub fn midpoint_params(t0: f64, t_end: f64, h: f64) -> MidpointParams {
    MidpointParams {
        step: FixedStepParams {
            t0,
            t_end,
            h,
            output_every: 1,
        },
        ..Default::default()
    }
}

/// The midpoint stepper of `sys` driven by `input` on `[0, t_end]` with step `h`.
///
/// # Panics
/// If the parameters or the input dimension are invalid (a test fixture).
#[track_caller]
pub fn midpoint(sys: &LinearPhSystem, input: InputFn, t_end: f64, h: f64) -> LinearMidpoint<'_> {
    LinearMidpoint::new(sys, input, midpoint_params(0.0, t_end, h)).expect("midpoint stepper")
}

/// Checks the discrete power balance of a run, $|H_{k+1} - H_k - h(\bar y^\top\bar u -
/// \bar e^\top R\bar e)| <$ `rel` times the energy scale at every step (exact for the
/// midpoint rule up to round-off).
///
/// # Panics
/// If a step violates it (a test fixture).
#[track_caller]
pub fn assert_power_balance(ledger: &EnergyLedger, rel: f64) {
    let (r, scale) = (ledger.max_residual(), ledger.energy_scale());
    assert!(
        r < rel * scale,
        "power-balance residual {r:e} (energy scale {scale:e})"
    );
}

/// The L∞-in-time errors of a thesis plate benchmark run (thesis 004 App. B, summary §5.1):
/// the midpoint rule (Crank–Nicolson) on `sys` from `e0` to $t_f = 1$ s with step `dt`,
/// driven by the load amplitude `load` (the thesis's $\sin t$ averaged over each step), and
/// the componentwise maximum of `errors(e, cos t, sin t)` over all time levels including
/// $t = 0$.
pub fn max_errors_in_time<const N: usize>(
    sys: &LinearPhSystem,
    e0: &[f64],
    dt: f64,
    load: Signal,
    errors: impl Fn(&[f64], f64, f64) -> [f64; N],
) -> [f64; N] {
    let mut cn = midpoint(sys, InputFn::new(vec![load]), 1.0, dt);
    let mut max = [0.0f64; N];
    cn.run(e0, &mut |t: f64, e: &[f64]| {
        for (m, er) in max.iter_mut().zip(errors(e, t.cos(), t.sin())) {
            *m = m.max(er);
        }
    })
    .expect("midpoint run");
    max
}

/// Smooth, distinct inputs for power-balance runs: $u_i(t) = a_i\sin(\omega_i t)$ with
/// $a_i = s_i(1 + 0.3\sin i)$ and $\omega_i = \omega_0 + \delta\omega\,i$, one per entry
/// $s_i$ of `scale` ($i$ the input index).
pub fn sine_inputs(scale: &[f64], w0: f64, dw: f64) -> InputFn {
    let signals = scale
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (a, w) = (s * (1.0 + 0.3 * (i as f64).sin()), w0 + dw * i as f64);
            Signal::from_fn(move |t: f64| a * (w * t).sin())
        })
        .collect();
    InputFn::new(signals)
}

/// The input scale of every input of `sys`: `scale(port name)` repeated over the port's
/// dimension.
pub fn port_scales(sys: &LinearPhSystem, scale: impl Fn(&str) -> f64) -> Vec<f64> {
    sys.ports
        .iter()
        .flat_map(|p| std::iter::repeat_n(scale(&p.name), p.dim))
        .collect()
}

/// The energy ledger of the midpoint rule on `sys` from rest ($e = 0$) under `input` on
/// $[0, t_{end}]$ with step `h`.
///
/// # Panics
/// If the run fails (a test fixture).
#[track_caller]
pub fn ledger_from_rest(sys: &LinearPhSystem, input: InputFn, t_end: f64, h: f64) -> EnergyLedger {
    let mut cn = midpoint(sys, input, t_end, h);
    let e0 = vec![0.0; sys.n_states()];
    cn.run(&e0, &mut |_t: f64, _e: &[f64]| {})
        .expect("midpoint run")
        .ledger
}

/// The absolute work supplied through all inputs over a run, $\sum_k |W_k|$.
pub fn total_work(ledger: &EnergyLedger) -> f64 {
    ledger
        .supplied
        .last()
        .map_or(0.0, |w| w.iter().map(|v| v.abs()).sum())
}
