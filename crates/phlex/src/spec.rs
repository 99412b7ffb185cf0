//! The model-file tables shared by the kinds: `[model]` ([`ModelMeta`]), time signals
//! ([`SignalSpec`], turned into a [`Signal`] by [`signal`]), `[simulation]` of the linear
//! kinds ([`SimulationSpec`]), `[modes]` ([`ModesSpec`]) and `[[input]]` of the continuum
//! kinds ([`PortInput`]).
use phlex_solve::signal::Signal;
use serde::Deserialize;
use toml::Spanned;

/// `[model]`.
#[derive(Debug, Clone, Default, Deserialize)]
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

/// `[simulation] integrator`: one of [`phlex_solve::Integrator::NAMES`], the same names and
/// the same methods for every kind ([`crate::integration`] runs them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntegratorSpec {
    /// Implicit midpoint rule (Crank–Nicolson for linear systems): exact discrete power
    /// balance for a quadratic Hamiltonian (paper 000 §5.3).
    Midpoint,
    /// Midpoint scheme with the Gonzalez discrete gradient: exact discrete power balance for
    /// any Hamiltonian (paper 000 eq. (46)).
    DiscreteGradient,
    /// Gauss–Legendre collocation with `stages` stages (order 2s, structure preserving).
    Gauss,
    /// Adaptive Radau IIA of order 5 (tolerances `rtol`, `atol`).
    Radau5,
    /// Störmer–Verlet (explicit, partitioned; linear lossless two-field systems only).
    StormerVerlet,
}

impl IntegratorSpec {
    /// The name in the model file (one of [`phlex_solve::Integrator::NAMES`]).
    pub fn name(self) -> &'static str {
        match self {
            Self::Midpoint => "midpoint",
            Self::DiscreteGradient => "discrete_gradient",
            Self::Gauss => "gauss",
            Self::Radau5 => "radau5",
            Self::StormerVerlet => "stormer_verlet",
        }
    }

    /// True for the fixed-step integrators (all but Radau IIA): they need `dt`.
    pub fn is_fixed_step(self) -> bool {
        self != Self::Radau5
    }

    /// True for the implicit one-step integrators that solve their step equations by Newton
    /// (`newton_*` keys) and can project onto the position constraints (`projection`).
    pub fn is_implicit_one_step(self) -> bool {
        matches!(self, Self::Midpoint | Self::DiscreteGradient | Self::Gauss)
    }
}

/// `[simulation]`: the same keys with the same meaning for every kind (format in
/// `docs/model-format.md`, "Simulation"); [`SimulationSpec::validate`] checks them and
/// [`crate::integration::Simulation`] runs them.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationSpec {
    /// Integrator.
    pub integrator: Spanned<IntegratorSpec>,
    /// Final time \[s\].
    pub t_end: Spanned<f64>,
    /// Time step \[s\] (fixed-step integrators; initial step for Radau).
    pub dt: Option<Spanned<f64>>,
    /// Record every k-th step (fixed-step integrators; default 1).
    pub output_every: Option<Spanned<usize>>,
    /// Number of uniform output intervals of a Radau IIA run (default
    /// [`DEFAULT_SAMPLES`]).
    pub output_samples: Option<Spanned<usize>>,
    /// Gauss collocation stages, 1..=6 (default 3: order 6).
    pub stages: Option<Spanned<usize>>,
    /// Relative tolerance of Radau IIA.
    pub rtol: Option<Spanned<f64>>,
    /// Absolute tolerance of Radau IIA.
    pub atol: Option<Spanned<f64>>,
    /// Step limit of Radau IIA (default 100 000).
    pub max_steps: Option<Spanned<usize>>,
    /// Relative Newton tolerance of the step equations (midpoint, discrete gradient; the
    /// tolerance on the scaled increment for Gauss collocation).
    pub newton_rtol: Option<Spanned<f64>>,
    /// Absolute Newton tolerance of the step equations (midpoint, discrete gradient).
    pub newton_atol: Option<Spanned<f64>>,
    /// Newton iterations per step (midpoint, discrete gradient; default 20).
    pub newton_max_iterations: Option<Spanned<i64>>,
    /// Modified Newton: keep the factorized step matrix across iterations and steps while
    /// it contracts (midpoint, discrete gradient).
    pub newton_modified: Option<Spanned<bool>>,
    /// Project onto the position constraints after every step (midpoint, discrete gradient,
    /// Gauss; models with position constraints).
    pub projection: Option<Spanned<bool>>,
}

/// Which integrators a `[simulation]` key applies to: the key, its span if the file gives
/// it, the test on the integrator, and the integrators in words.
type KeyScope<'a> = (
    &'static str,
    Option<std::ops::Range<usize>>,
    &'a dyn Fn(IntegratorSpec) -> bool,
    &'static str,
);

/// The error of a `[simulation]` key: its span and the message naming it.
pub type KeyError = (std::ops::Range<usize>, String);

impl SimulationSpec {
    /// `output_every` (default 1).
    pub fn output_every(&self) -> usize {
        self.output_every.as_ref().map_or(1, |v| *v.get_ref())
    }

    /// `output_samples` (default [`DEFAULT_SAMPLES`]).
    pub fn output_samples(&self) -> usize {
        self.output_samples
            .as_ref()
            .map_or(DEFAULT_SAMPLES, |v| *v.get_ref())
    }

    /// Checks the keys: `t_end > 0`, `dt > 0` (required by the fixed-step integrators),
    /// `output_every >= 1` (fixed-step integrators only), `output_samples >= 1` (Radau IIA
    /// only),
    /// `0 < rtol < 1`, `atol > 0`, `max_steps >= 1` (Radau IIA only), `stages` in 1..=6
    /// (Gauss only), `0 < newton_rtol < 1`, `newton_atol > 0`, `newton_max_iterations` in
    /// 1..=1000 and `newton_modified` (implicit one-step integrators only), `projection`
    /// (implicit one-step integrators only). The message names the key and, for a key that
    /// does not apply, the integrator it applies to.
    pub fn validate(&self) -> Result<(), KeyError> {
        use IntegratorSpec as I;
        let integ = *self.integrator.get_ref();
        let name = integ.name();
        let radau = |i: I| i == I::Radau5;
        let newton = |i: I| matches!(i, I::Midpoint | I::DiscreteGradient);
        // (key, its span if given, the integrators it applies to, in words)
        let applies: [KeyScope<'_>; 11] = [
            ("output_every", self.output_every.as_ref().map(|v| v.span()), &I::is_fixed_step, "the fixed-step integrators (use output_samples with \"radau5\")"),
            ("output_samples", self.output_samples.as_ref().map(|v| v.span()), &radau, "\"radau5\" (use output_every with the fixed-step integrators)"),
            ("rtol", self.rtol.as_ref().map(|v| v.span()), &radau, "\"radau5\""),
            ("atol", self.atol.as_ref().map(|v| v.span()), &radau, "\"radau5\""),
            ("max_steps", self.max_steps.as_ref().map(|v| v.span()), &radau, "\"radau5\""),
            ("stages", self.stages.as_ref().map(|v| v.span()), &|i| i == I::Gauss, "\"gauss\""),
            ("newton_rtol", self.newton_rtol.as_ref().map(|v| v.span()), &I::is_implicit_one_step, "\"midpoint\", \"discrete_gradient\" or \"gauss\""),
            ("newton_atol", self.newton_atol.as_ref().map(|v| v.span()), &newton, "\"midpoint\" or \"discrete_gradient\""),
            ("newton_max_iterations", self.newton_max_iterations.as_ref().map(|v| v.span()), &newton, "\"midpoint\" or \"discrete_gradient\""),
            ("newton_modified", self.newton_modified.as_ref().map(|v| v.span()), &newton, "\"midpoint\" or \"discrete_gradient\""),
            ("projection", self.projection.as_ref().map(|v| v.span()), &I::is_implicit_one_step, "\"midpoint\", \"discrete_gradient\" or \"gauss\" (Radau IIA keeps the position drift at its tolerance level; Störmer–Verlet runs systems without constraints)"),
        ];
        for (key, span, ok, to) in applies {
            if let (Some(span), false) = (span, ok(integ)) {
                return Err((
                    span,
                    format!("simulation.{key} applies to integrator = {to} only (this file has integrator = \"{name}\")"),
                ));
            }
        }
        if self.dt.is_none() && integ.is_fixed_step() {
            return Err((
                self.t_end.span(),
                format!("missing key simulation.dt (time step [s]), required by integrator = \"{name}\""),
            ));
        }
        // (key, value, lower bound, upper bound, the condition in words)
        let reals = [
            ("t_end", Some(&self.t_end), 0.0, f64::INFINITY, "t_end > 0"),
            ("dt", self.dt.as_ref(), 0.0, f64::INFINITY, "dt > 0"),
            ("rtol", self.rtol.as_ref(), 0.0, 1.0, "0 < rtol < 1"),
            (
                "atol",
                self.atol.as_ref(),
                -f64::MIN_POSITIVE,
                f64::INFINITY,
                "atol >= 0",
            ),
            (
                "newton_rtol",
                self.newton_rtol.as_ref(),
                0.0,
                1.0,
                "0 < newton_rtol < 1",
            ),
            (
                "newton_atol",
                self.newton_atol.as_ref(),
                0.0,
                f64::INFINITY,
                "newton_atol > 0",
            ),
        ];
        for (key, v, lo, hi, rule) in reals {
            if let Some(v) = v {
                let x = *v.get_ref();
                if !(x > lo && x < hi) {
                    return Err((
                        v.span(),
                        format!("simulation.{key} must satisfy {rule} (got {x})"),
                    ));
                }
            }
        }
        let int = |v: &Option<Spanned<usize>>| v.as_ref().map(|v| (v.span(), *v.get_ref() as i64));
        let counts = [
            ("output_every", int(&self.output_every), 1, i64::MAX),
            ("output_samples", int(&self.output_samples), 1, i64::MAX),
            ("max_steps", int(&self.max_steps), 1, i64::MAX),
            ("stages", int(&self.stages), 1, 6),
            (
                "newton_max_iterations",
                self.newton_max_iterations
                    .as_ref()
                    .map(|v| (v.span(), *v.get_ref())),
                1,
                1000,
            ),
        ];
        for (key, v, lo, hi) in counts {
            if let Some((span, n)) = v {
                if !(lo..=hi).contains(&n) {
                    let rule = if hi == i64::MAX {
                        format!("{key} >= {lo}")
                    } else {
                        format!("{lo} <= {key} <= {hi}")
                    };
                    return Err((
                        span,
                        format!("simulation.{key} must satisfy {rule} (got {n})"),
                    ));
                }
            }
        }
        Ok(())
    }
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

/// The `[simulation]` keys of former spellings, and `[output]` keys that moved to
/// `[simulation]`: `(table, old key, what to write instead)`. A file that uses one gets an
/// error naming the new key ([`check_renamed_simulation_keys`]); there are no silent
/// aliases.
pub const RENAMED_SIMULATION_KEYS: &[(&str, &str, &str)] = &[
    (
        "simulation",
        "scheme",
        "simulation.integrator = \"discrete_gradient\" (the former default scheme) or integrator = \"midpoint\"",
    ),
    ("output", "every", "simulation.output_every"),
    ("output", "samples", "simulation.output_samples"),
    ("simulation", "newton_tol", "simulation.newton_rtol"),
    ("simulation", "h", "simulation.dt"),
    (
        "simulation",
        "output_step",
        "simulation.output_every (midpoint: record every k-th step of dt) or simulation.output_samples (radau5: uniform output intervals)",
    ),
];

/// The tables of a model file that [`check_renamed_simulation_keys`] looks into, with the
/// spans of their keys.
#[derive(Deserialize)]
struct RenameTables {
    #[serde(default)]
    simulation: Option<std::collections::BTreeMap<Spanned<String>, toml::Value>>,
    #[serde(default)]
    output: Option<std::collections::BTreeMap<Spanned<String>, toml::Value>>,
}

/// Checks the model file `file` (its `text`) for the former spellings of
/// [`RENAMED_SIMULATION_KEYS`]: the first one found is a [`crate::error::ModelError`] at
/// its line naming the key to write instead. A file whose `[simulation]` or `[output]` is
/// not a table is left to the typed parse.
pub fn check_renamed_simulation_keys(
    file: &str,
    text: &str,
) -> Result<(), crate::error::ModelError> {
    let Ok(tables) = toml::from_str::<RenameTables>(text) else {
        return Ok(());
    };
    for (table, keys) in [
        ("simulation", &tables.simulation),
        ("output", &tables.output),
    ] {
        let Some(keys) = keys else { continue };
        for key in keys.keys() {
            let found = RENAMED_SIMULATION_KEYS
                .iter()
                .find(|(t, old, _)| *t == table && old == key.get_ref());
            if let Some((_, old, new)) = found {
                return Err(crate::error::error_at(
                    file,
                    text,
                    key.span(),
                    format!("{table}.{old} was renamed: write {new}"),
                ));
            }
        }
    }
    Ok(())
}

/// The `[simulation]` table of a model file, for [`check_simulation_section`].
#[derive(Deserialize)]
struct SimulationTable {
    #[serde(default)]
    simulation: Option<SimulationSpec>,
}

/// Checks the `[simulation]` section of a model file `file` (its `text`) of a kind with
/// the shared [`SimulationSpec`]: former spellings ([`check_renamed_simulation_keys`]) and
/// the keys ([`SimulationSpec::validate`]), so that `phlex check` reports them for every
/// kind. A section that does not parse is left to the kind's typed parse (which names the
/// key).
pub fn check_simulation_section(file: &str, text: &str) -> Result<(), crate::error::ModelError> {
    check_renamed_simulation_keys(file, text)?;
    if let Ok(SimulationTable {
        simulation: Some(sim),
    }) = toml::from_str::<SimulationTable>(text)
    {
        sim.validate()
            .map_err(|(span, message)| crate::error::error_at(file, text, span, message))?;
    }
    Ok(())
}
