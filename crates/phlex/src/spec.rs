//! The model-file tables shared by the kinds: `[model]` ([`ModelMeta`]), time signals
//! ([`SignalSpec`], turned into a [`Signal`] by [`signal`]), `[simulation]` of the linear
//! kinds ([`SimulationSpec`]), `[modes]` ([`ModesSpec`]) and `[[input]]` of the continuum
//! kinds ([`PortInput`]).
use phlex_solve::signal::Signal;
use serde::Deserialize;
use toml::Spanned;

/// `[model]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelMeta {
    /// Name shown in reports.
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
}

/// A time signal: a number, an expression in `t`, or a typed table (the one signal syntax,
/// shared with the EPHS model files of `phlex-ephs`).
pub use phlex_solve::signal::{ShapedSignal, SignalSpec};

/// Parses a [`SignalSpec`] into a [`Signal`].
pub fn signal(spec: &SignalSpec) -> Result<Signal, String> {
    spec.to_signal().map_err(|e| e.to_string())
}

/// `[[input]]` of the continuum kinds: a port driven by a signal, uniform over the port
/// (along a plate edge, over a boundary's trace basis).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortInput {
    /// Port name (e.g. `<edge>_qn`, `<tag>_flux`).
    pub port: Spanned<String>,
    /// The input as a function of time.
    pub value: SignalSpec,
}

/// Integrator choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntegratorSpec {
    /// Implicit midpoint / Crank–Nicolson (structure preserving).
    Midpoint,
    /// Gauss–Legendre collocation with `stages` stages (order 2s, structure preserving).
    Gauss,
    /// Adaptive Radau IIA order 5.
    Radau5,
    /// Störmer–Verlet (explicit, partitioned, lossless ODEs only).
    StormerVerlet,
}

/// `[simulation]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationSpec {
    /// Integrator.
    pub integrator: IntegratorSpec,
    /// Final time \[s\].
    pub t_end: Spanned<f64>,
    /// Time step \[s\] (fixed-step integrators; initial step for Radau).
    pub dt: Option<Spanned<f64>>,
    /// Relative tolerance (Radau).
    pub rtol: Option<Spanned<f64>>,
    /// Absolute tolerance (Radau).
    pub atol: Option<Spanned<f64>>,
    /// Gauss collocation stages, 1..=6 (default 3: order 6).
    pub stages: Option<Spanned<usize>>,
    /// Step limit of Radau IIA (default 100 000).
    pub max_steps: Option<Spanned<usize>>,
}

/// `[modes]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ModesSpec {
    /// Number of frequencies to report.
    pub count: usize,
}

impl Default for ModesSpec {
    fn default() -> Self {
        Self { count: 6 }
    }
}

/// Default number of uniform output samples of an adaptive (Radau IIA) run.
pub const DEFAULT_SAMPLES: usize = 500;

/// Checks `[simulation] stages`: only with `integrator = "gauss"` (`gauss`), within 1..=6.
/// Returns the span and message of the problem.
pub(crate) fn check_stages_key(
    stages: &Option<Spanned<usize>>,
    gauss: bool,
) -> Result<(), (std::ops::Range<usize>, String)> {
    let Some(st) = stages else { return Ok(()) };
    if !gauss {
        return Err((
            st.span(),
            "simulation.stages applies to integrator = \"gauss\" only".into(),
        ));
    }
    if !(1..=6).contains(st.get_ref()) {
        return Err((
            st.span(),
            format!(
                "simulation.stages must be between 1 and 6 (got {}; order 2s)",
                st.get_ref()
            ),
        ));
    }
    Ok(())
}

/// Checks `[simulation] max_steps` (the step limit of Radau IIA): only with `integrator =
/// "radau5"` (`radau`), at least 1. Returns the span and message of the problem.
pub(crate) fn check_max_steps_key(
    max_steps: &Option<Spanned<usize>>,
    radau: bool,
) -> Result<(), (std::ops::Range<usize>, String)> {
    match max_steps {
        Some(m) if !radau => Err((
            m.span(),
            "simulation.max_steps applies to integrator = \"radau5\" only".into(),
        )),
        Some(m) if *m.get_ref() == 0 => Err((
            m.span(),
            "simulation.max_steps must satisfy max_steps >= 1 (got 0)".into(),
        )),
        _ => Ok(()),
    }
}
