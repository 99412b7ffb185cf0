//! The beam model file (`[beam]`, documented in `docs/model-format.md`).
//!
//! Parsing is strict: unknown keys, missing keys and wrong types are errors that name the
//! key and its line; physical values are validated (lengths, moduli and densities must be
//! positive, element counts ≥ 1, …) and errors name the key and line as well.
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

use crate::error::{line_of, ModelError};
use crate::source::ModelSource;
use crate::spec::{ModelMeta, ModesSpec, SignalSpec, SimulationSpec};

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
    pub simulation: Option<SimulationSpec>,
    /// What to record.
    #[serde(default)]
    pub output: OutputSpec,
    /// Eigen-analysis settings.
    #[serde(default)]
    pub modes: ModesSpec,
    /// Closed-loop control through the ports (`phlex run` simulates the closed loop).
    pub control: Option<ControlSpec>,
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
    /// Length L \[m\].
    pub length: Spanned<f64>,
    /// Density ρ [kg/m³].
    pub density: Spanned<f64>,
    /// Cross-section area A \[m²\].
    pub area: Spanned<f64>,
    /// Young's modulus E \[Pa\].
    pub youngs_modulus: Spanned<f64>,
    /// Second moment of area I \[m⁴\] (bending theories).
    pub second_moment: Option<Spanned<f64>>,
    /// Shear modulus G \[Pa\] (Timoshenko).
    pub shear_modulus: Option<Spanned<f64>>,
    /// Shear correction factor k (Timoshenko), default 5/6.
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
    pub dt: Option<Spanned<f64>>,
    /// Seed of the noise injected into the simulation (no noise without it).
    pub seed: Option<u64>,
    /// Time \[s\] at which the controller is switched on (default 0).
    pub t_on: Option<Spanned<f64>>,
}

/// A probe: a field value at a point.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProbeSpec {
    /// Column name.
    pub name: String,
    /// Field name (`velocity`, `moment`, …).
    pub field: Spanned<String>,
    /// Position \[m\].
    pub x: Spanned<f64>,
}

/// `[output]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OutputSpec {
    /// Field probes.
    pub probes: Vec<ProbeSpec>,
    /// Ports whose inputs, outputs and power are recorded.
    pub ports: Vec<Spanned<String>>,
    /// Write SVG plots.
    pub plots: bool,
}

impl Default for OutputSpec {
    fn default() -> Self {
        Self {
            probes: vec![],
            ports: vec![],
            plots: true,
        }
    }
}

/// Parses (the one typed parse of the file) and validates a beam model file.
pub fn parse(src: &ModelSource) -> Result<ModelFile, ModelError> {
    let m: ModelFile = src.parse()?;
    validate(src.file(), src.text(), &m)?;
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
        s.validate()
            .or_else(|(span, msg)| err(file, text, span, msg))?;
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
