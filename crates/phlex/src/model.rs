//! The TOML model file (documented in `docs/model-format.md`).
//!
//! Parsing is strict: unknown keys, missing keys and wrong types are errors that name the
//! key and its line; physical values are validated (lengths, moduli and densities must be
//! positive, element counts ≥ 1, …) and errors name the key and line as well.
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// A model file error: message with key and line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct ModelError {
    /// File name.
    pub file: String,
    /// 1-based line (0 if unknown).
    pub line: usize,
    /// What is wrong, naming the key.
    pub message: String,
}

/// Top level of a model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelFile {
    /// Descriptive metadata.
    pub model: ModelMeta,
    /// A 1D structure (Euler–Bernoulli or Timoshenko beam, axial bar).
    pub beam: BeamSpec,
    /// Distributed loads with a spatial profile and a time law.
    #[serde(default)]
    pub load: Vec<LoadSpec>,
    /// Signals driving boundary ports.
    #[serde(default)]
    pub input: Vec<InputSpec>,
    /// Output-feedback damping on boundary ports.
    #[serde(default)]
    pub damping: Vec<DampingSpec>,
    /// Initial fields as functions of `x`.
    #[serde(default)]
    pub initial: BTreeMap<String, String>,
    /// Time integration settings.
    #[serde(default)]
    pub simulation: Option<SimulationSpec>,
    /// What to record.
    #[serde(default)]
    pub output: OutputSpec,
    /// Eigen-analysis settings.
    #[serde(default)]
    pub modes: ModesSpec,
    /// Closed-loop control through the ports (`phlex run` simulates the closed loop).
    #[serde(default)]
    pub control: Option<ControlSpec>,
}

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

/// Beam theory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Theory {
    /// Euler–Bernoulli bending.
    EulerBernoulli,
    /// Timoshenko bending with shear.
    Timoshenko,
    /// Axial bar (truss).
    Bar,
}

/// End condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndSpec {
    /// No support.
    Free,
    /// Displacement and rotation fixed.
    Clamped,
    /// Displacement fixed, rotation free.
    SimplySupported,
    /// An open boundary port in the natural causality of the discretization (force
    /// inputs for HerDG1/CGDG, velocity inputs for DG1Her/DGCG), driven by `[[input]]`.
    Port,
}

/// How boundary conditions are imposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ImpositionSpec {
    /// Constrained DOFs removed (ODE).
    #[default]
    Strong,
    /// Lagrange multipliers (index-2 pHDAE).
    Multiplier,
}

/// `[beam]`: a 1D structure discretized by PFEM.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeamSpec {
    /// Beam theory.
    pub theory: Theory,
    /// Length L [m].
    pub length: Spanned<f64>,
    /// Density ρ [kg/m³].
    pub density: Spanned<f64>,
    /// Cross-section area A [m²].
    pub area: Spanned<f64>,
    /// Young's modulus E [Pa].
    pub youngs_modulus: Spanned<f64>,
    /// Second moment of area I [m⁴] (bending theories).
    #[serde(default)]
    pub second_moment: Option<Spanned<f64>>,
    /// Shear modulus G [Pa] (Timoshenko).
    #[serde(default)]
    pub shear_modulus: Option<Spanned<f64>>,
    /// Shear correction factor k (Timoshenko), default 5/6.
    #[serde(default)]
    pub shear_factor: Option<Spanned<f64>>,
    /// Number of elements.
    pub elements: Spanned<i64>,
    /// Discretization: `HerDG1`, `DG1Her`, `CGCG1..3` (EB); `CGDG`/`DGCG` (Timoshenko, bar).
    pub discretization: Spanned<String>,
    /// Condition at x = 0.
    pub left: EndSpec,
    /// Condition at x = L.
    pub right: EndSpec,
    /// Imposition of the end conditions.
    #[serde(default)]
    pub imposition: ImpositionSpec,
}

/// `[[load]]`: distributed load `f(x) · a(t)`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadSpec {
    /// Port name.
    pub name: String,
    /// Spatial profile f(x) [N/m per unit amplitude].
    pub profile: String,
    /// Time law a(t).
    pub amplitude: Spanned<SignalSpec>,
}

/// A time signal: a number, an expression in `t`, or a typed table.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum SignalSpec {
    /// Constant.
    Number(f64),
    /// Expression in t.
    Expr(String),
    /// Step, ramp, impulse or table.
    Shaped(ShapedSignal),
}

/// Typed signals.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapedSignal {
    /// `before` until `t0`, then `after`.
    Step {
        /// Switching time.
        t0: f64,
        /// Value before.
        #[serde(default)]
        before: f64,
        /// Value after.
        after: f64,
    },
    /// Linear ramp.
    Ramp {
        /// Start.
        t0: f64,
        /// End.
        t1: f64,
        /// Start value.
        #[serde(default)]
        v0: f64,
        /// End value.
        v1: f64,
    },
    /// Rectangular impulse of given area.
    Impulse {
        /// Start.
        t0: f64,
        /// Width.
        width: f64,
        /// Area.
        area: f64,
    },
    /// Piecewise-linear table.
    Table {
        /// Times.
        t: Vec<f64>,
        /// Values.
        values: Vec<f64>,
    },
}

/// `[[input]]`: signals on a boundary port, one per component.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSpec {
    /// Port name.
    pub port: Spanned<String>,
    /// One signal per port component.
    pub values: Spanned<Vec<SignalSpec>>,
}

/// `[[damping]]`: `u = −k y` on a port (same gain on each component).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DampingSpec {
    /// Port name.
    pub port: Spanned<String>,
    /// Gain k ≥ 0 (or one per component).
    pub gain: Spanned<Vec<f64>>,
}

/// Controller type of `[control]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlKind {
    /// Sampled-data LQG: discrete LQR + steady Kalman predictor (seed 002 §4.4).
    Lqg,
}

/// `[control]`: LQG feedback from measured port outputs/probes to actuated ports
/// (documented in `docs/control.md`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControlSpec {
    /// Controller type (`"lqg"`).
    pub kind: ControlKind,
    /// Actuated ports (their inputs are the control).
    pub inputs: Spanned<Vec<String>>,
    /// Measured ports (collocated outputs) or probe names.
    pub outputs: Spanned<Vec<String>>,
    /// Energy weight q > 0 of the LQR (state cost 2 q H per sample).
    pub q_weight: Spanned<f64>,
    /// Control weight r > 0 of the LQR.
    pub r_weight: Spanned<f64>,
    /// Standard deviation (√J) > 0 of the process noise on each energy coordinate per sample.
    pub process_noise: Spanned<f64>,
    /// Standard deviation of the measurement noise > 0.
    pub measurement_noise: Spanned<f64>,
    /// Sampling period \[s\] of the controller (default: `simulation.dt`).
    #[serde(default)]
    pub dt: Option<Spanned<f64>>,
    /// Seed of the noise injected into the simulation (no noise without it).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Time \[s\] at which the controller is switched on (default 0).
    #[serde(default)]
    pub t_on: Option<Spanned<f64>>,
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
    /// Final time [s].
    pub t_end: Spanned<f64>,
    /// Time step [s] (fixed-step integrators; initial step for Radau).
    #[serde(default)]
    pub dt: Option<Spanned<f64>>,
    /// Relative tolerance (Radau).
    #[serde(default)]
    pub rtol: Option<Spanned<f64>>,
    /// Absolute tolerance (Radau).
    #[serde(default)]
    pub atol: Option<Spanned<f64>>,
    /// Gauss collocation stages, 1..=6 (default 3: order 6).
    #[serde(default)]
    pub stages: Option<Spanned<usize>>,
    /// Step limit of Radau IIA (default 100 000).
    #[serde(default)]
    pub max_steps: Option<Spanned<usize>>,
}

/// A probe: a field value at a point.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProbeSpec {
    /// Column name.
    pub name: String,
    /// Field name (`velocity`, `moment`, …).
    pub field: Spanned<String>,
    /// Position [m].
    pub x: Spanned<f64>,
}

/// `[output]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Record every k-th step (fixed step) or at this many uniform times (Radau: `samples`).
    #[serde(default = "one")]
    pub every: usize,
    /// Number of uniform output samples for adaptive integrators.
    #[serde(default = "default_samples")]
    pub samples: usize,
    /// Field probes.
    #[serde(default)]
    pub probes: Vec<ProbeSpec>,
    /// Ports whose inputs, outputs and power are recorded.
    #[serde(default)]
    pub ports: Vec<Spanned<String>>,
    /// Write SVG plots.
    #[serde(default = "yes")]
    pub plots: bool,
}

impl Default for OutputSpec {
    fn default() -> Self {
        Self {
            every: 1,
            samples: 500,
            probes: vec![],
            ports: vec![],
            plots: true,
        }
    }
}

/// `[modes]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModesSpec {
    /// Number of frequencies to report.
    #[serde(default = "six")]
    pub count: usize,
}

impl Default for ModesSpec {
    fn default() -> Self {
        Self { count: 6 }
    }
}

/// Serde default: 1.
pub(crate) fn one() -> usize {
    1
}
fn six() -> usize {
    6
}
/// Serde default: true.
pub(crate) fn yes() -> bool {
    true
}
/// Serde default: 500 output samples.
pub(crate) fn default_samples() -> usize {
    500
}

/// Line (1-based) of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}

/// "`section.key`: " for the `key = value` on a 1-based line, or "" if the line holds none.
fn key_context(text: &str, line: usize) -> String {
    if line == 0 {
        return String::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let Some(l) = lines.get(line - 1) else {
        return String::new();
    };
    let Some((key, _)) = l.split_once('=') else {
        return String::new();
    };
    let key = key.trim();
    if key.is_empty() || key.contains(['[', '{', '"']) {
        return String::new();
    }
    let section = lines[..line - 1]
        .iter()
        .rev()
        .find_map(|s| {
            let s = s.trim();
            s.starts_with('[')
                .then(|| s.trim_matches(|c| c == '[' || c == ']').to_string())
        })
        .unwrap_or_default();
    if section.is_empty() {
        format!("key `{key}`: ")
    } else {
        format!("key `{section}.{key}`: ")
    }
}

/// Parses and validates a model file.
pub fn parse(file: &str, text: &str) -> Result<ModelFile, ModelError> {
    let m: ModelFile = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
        ModelError {
            file: file.into(),
            line,
            message: format!("{}{}", key_context(text, line), e.message().trim()),
        }
    })?;
    validate(file, text, &m)?;
    Ok(m)
}

fn err<T>(
    file: &str,
    text: &str,
    span: std::ops::Range<usize>,
    msg: String,
) -> Result<T, ModelError> {
    Err(ModelError {
        file: file.into(),
        line: line_of(text, span.start),
        message: msg,
    })
}

fn positive(file: &str, text: &str, key: &str, v: &Spanned<f64>) -> Result<(), ModelError> {
    let x = *v.get_ref();
    if !(x > 0.0 && x.is_finite()) {
        return err(file, text, v.span(), format!("{key} must be > 0 (got {x})"));
    }
    Ok(())
}

/// Physical validation (positivity, required keys per theory, known names).
pub fn validate(file: &str, text: &str, m: &ModelFile) -> Result<(), ModelError> {
    let b = &m.beam;
    positive(file, text, "beam.length", &b.length)?;
    positive(file, text, "beam.density", &b.density)?;
    positive(file, text, "beam.area", &b.area)?;
    positive(file, text, "beam.youngs_modulus", &b.youngs_modulus)?;
    if *b.elements.get_ref() < 1 {
        return err(
            file,
            text,
            b.elements.span(),
            format!("beam.elements must be >= 1 (got {})", b.elements.get_ref()),
        );
    }
    if *b.elements.get_ref() > 10_000_000 {
        return err(
            file,
            text,
            b.elements.span(),
            "beam.elements must be <= 1e7".into(),
        );
    }
    let header = text.find("[beam]").unwrap_or(0);
    match b.theory {
        Theory::EulerBernoulli | Theory::Timoshenko => match &b.second_moment {
            Some(i) => positive(file, text, "beam.second_moment", i)?,
            None => {
                return err(
                    file,
                    text,
                    header..header,
                    "missing key beam.second_moment (second moment of area I [m^4]), required for bending theories".into(),
                )
            }
        },
        Theory::Bar => {}
    }
    if b.theory == Theory::Timoshenko {
        match &b.shear_modulus {
            Some(g) => positive(file, text, "beam.shear_modulus", g)?,
            None => {
                return err(
                    file,
                    text,
                    header..header,
                    "missing key beam.shear_modulus (G [Pa]), required for theory = \"timoshenko\""
                        .into(),
                )
            }
        }
        if let Some(k) = &b.shear_factor {
            positive(file, text, "beam.shear_factor", k)?;
        }
    }
    if let Some(s) = &m.simulation {
        positive(file, text, "simulation.t_end", &s.t_end)?;
        if let Some(dt) = &s.dt {
            positive(file, text, "simulation.dt", dt)?;
        }
        if let Some(r) = &s.rtol {
            positive(file, text, "simulation.rtol", r)?;
        }
        if let Some(a) = &s.atol {
            let x = *a.get_ref();
            if !(x >= 0.0) {
                return err(
                    file,
                    text,
                    a.span(),
                    format!("simulation.atol must be >= 0 (got {x})"),
                );
            }
        }
        check_stages_key(&s.stages, s.integrator == IntegratorSpec::Gauss)
            .and_then(|_| check_max_steps_key(&s.max_steps, s.integrator == IntegratorSpec::Radau5))
            .or_else(|(span, msg)| err(file, text, span, msg))?;
        if matches!(
            s.integrator,
            IntegratorSpec::Midpoint | IntegratorSpec::Gauss | IntegratorSpec::StormerVerlet
        ) && s.dt.is_none()
        {
            return err(
                file,
                text,
                s.t_end.span(),
                "missing key simulation.dt (time step [s]), required by fixed-step integrators"
                    .into(),
            );
        }
    }
    for p in &m.output.probes {
        let x = *p.x.get_ref();
        if !(0.0..=*b.length.get_ref()).contains(&x) {
            return err(
                file,
                text,
                p.x.span(),
                format!(
                    "output.probes '{}': x = {x} is outside the beam [0, {}]",
                    p.name,
                    b.length.get_ref()
                ),
            );
        }
    }
    if let Some(c) = &m.control {
        validate_control(file, text, m, c)?;
    }
    if m.output.every == 0 {
        return err(file, text, 0..0, "output.every must be >= 1".into());
    }
    if m.modes.count == 0 {
        return err(file, text, 0..0, "modes.count must be >= 1".into());
    }
    Ok(())
}

fn validate_control(
    file: &str,
    text: &str,
    m: &ModelFile,
    c: &ControlSpec,
) -> Result<(), ModelError> {
    positive(file, text, "control.q_weight", &c.q_weight)?;
    positive(file, text, "control.r_weight", &c.r_weight)?;
    positive(file, text, "control.process_noise", &c.process_noise)?;
    positive(
        file,
        text,
        "control.measurement_noise",
        &c.measurement_noise,
    )?;
    if let Some(dt) = &c.dt {
        positive(file, text, "control.dt", dt)?;
    }
    if let Some(t) = &c.t_on {
        let x = *t.get_ref();
        if !(x >= 0.0 && x.is_finite()) {
            return err(
                file,
                text,
                t.span(),
                format!("control.t_on must be >= 0 (got {x})"),
            );
        }
    }
    for (key, list) in [
        ("control.inputs", &c.inputs),
        ("control.outputs", &c.outputs),
    ] {
        if list.get_ref().is_empty() {
            return err(
                file,
                text,
                list.span(),
                format!("{key} must name at least one port"),
            );
        }
        let v = list.get_ref();
        if let Some(d) = v.iter().enumerate().find(|(i, x)| v[..*i].contains(x)) {
            return err(
                file,
                text,
                list.span(),
                format!("{key}: '{}' is listed twice", d.1),
            );
        }
    }
    for i in &m.input {
        if c.inputs.get_ref().contains(i.port.get_ref()) {
            return err(
                file,
                text,
                i.port.span(),
                format!(
                    "input.port = \"{}\" is also a control input (control.inputs): a port is driven either by a signal or by the controller",
                    i.port.get_ref()
                ),
            );
        }
    }
    let header = text.find("[control]").unwrap_or(0);
    match &m.simulation {
        None => err(
            file,
            text,
            header..header,
            "[control] needs a [simulation] section (t_end, and dt unless control.dt is given)"
                .into(),
        ),
        Some(s) if s.dt.is_none() && c.dt.is_none() => err(
            file,
            text,
            header..header,
            "missing key control.dt (sampling period [s]); needed when simulation.dt is not given"
                .into(),
        ),
        Some(_) => Ok(()),
    }
}

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
