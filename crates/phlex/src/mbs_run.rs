//! Planar flexible multibody model files (`[bodies.*]`, `[joints.*]`; format documented in
//! `docs/model-format-mbs.md`): parsing, building with [`phlex_mbs::MultibodyBuilder`],
//! `phlex run` / `check` / `modes`.
//!
//! The file maps one-to-one onto the builder: `gravity` ↔ [`MultibodyBuilder::gravity`],
//! `[bodies.NAME]` ↔ [`RigidBody2d`] / [`FloatingBeam2d`] (paper 000 §4.3, Remark 4),
//! `[joints.NAME]` ↔ [`Joint`] (§5.1–5.2, eqs. (44)–(45)), `[ground]` ↔
//! [`MultibodyBuilder::add_ground_point`], `[[load]]` ↔ [`Load`] (eq. (39)). The assembled
//! system is the index-2 pHDAE (46); `[initial]` makes the initial state consistent
//! ([`consistent_initial_state`], §6.3), `[simulation]` integrates it with the
//! midpoint/discrete-gradient scheme ([`MultibodyMidpoint`], exact discrete power balance
//! $H_1 - H_0 = h\,\bar y^\top u$) or Radau IIA ([`run_radau`]), and `[modes]` linearises it
//! about the initial configuration ([`phlex_mbs::modes`], §6.2, eq. (51)).
//!
//! Errors in the file (unknown keys, non-physical values, unknown bodies or ports, missing
//! deformation condition, redundant constraints, inconsistent initial conditions) are
//! [`ModelError`]s naming the item and its line (exit code 2); numerical failures (Newton
//! non-convergence, step-size underflow) are plain errors (exit code 1).
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use phlex_core::QuasiLinearPhDae;
use phlex_mbs::{
    consistent_initial_state, run_radau, Body, ConsistentInit, Coordinate, DeformationBc,
    FloatingBeam2d, Frame, Gyroscopic, Joint, JointKind, KinematicsOptions, Load, MbsError,
    Multibody, MultibodyBuilder, MultibodyMidpoint, Pose2d, RigidBody2d, Twist2d, GROUND,
};
use phlex_solve::eigen::EigenParams;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{MidpointParams, MidpointVariant};
use phlex_solve::newton::NewtonParams;
use phlex_solve::radau5::{OutputTimes, Radau5Params};
use phlex_solve::{InputFn, Signal, SolverStats};
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::app::ModeRow;
use crate::model::{line_of, ModelError, ModelMeta, SignalSpec};
use crate::output::{svg_plot, write_atomic, TimeSeries};
use crate::simulate::Progress;

/// True if the TOML text is a multibody model (it has a `bodies` table).
pub fn is_mbs(text: &str) -> bool {
    match text.parse::<toml::Table>() {
        Ok(t) => t.contains_key("bodies"),
        Err(_) => false,
    }
}

// ---------------------------------------------------------------------------------------
// File format
// ---------------------------------------------------------------------------------------

/// Top level of a multibody model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MbsFile {
    /// Gravity vector (inertial frame) \[m/s²\]; a top-level key (before the first table).
    #[serde(default)]
    pub gravity: Option<Spanned<[f64; 2]>>,
    /// Name and description.
    pub model: ModelMeta,
    /// Bodies by name.
    pub bodies: BTreeMap<String, BodySpec>,
    /// Joints by name.
    #[serde(default)]
    pub joints: BTreeMap<String, JointSpec>,
    /// Named inertial points (`origin` = (0, 0) always exists).
    #[serde(default)]
    pub ground: BTreeMap<String, Spanned<[f64; 2]>>,
    /// Forces and torques at body ports.
    #[serde(default)]
    pub load: Vec<LoadSpec>,
    /// Consistent initial conditions.
    #[serde(default)]
    pub initial: InitialSpec,
    /// Time integration (needed by `phlex run`).
    #[serde(default)]
    pub simulation: Option<MbsSimulationSpec>,
    /// What to record.
    #[serde(default)]
    pub output: MbsOutputSpec,
    /// Linearisation and modes.
    #[serde(default)]
    pub modes: MbsModesSpec,
}

/// Body kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BodyKind {
    /// Planar rigid body ([`RigidBody2d`]).
    Rigid,
    /// Planar floating flexible beam ([`FloatingBeam2d`]).
    Beam,
}

/// Deformation boundary condition of a beam (paper 000 Remark 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BcSpec {
    /// $u_f^x(0) = u_f^y(0) = \partial_x u_f^y(0) = 0$.
    Cantilever,
    /// $u_f^x(0) = u_f^y(0) = u_f^y(L) = 0$.
    SimplySupported,
    /// No condition (rejected: singular mass operator).
    Free,
}

/// Gyroscopic coefficient of a beam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GyroSpec {
    /// Coefficient 1 (exact transport forces).
    Consistent,
    /// Coefficient 2 of paper eq. (38).
    PaperLiteral,
}

/// Initial pose of the reference point `P` and body frame.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoseSpec {
    /// ${}^ir_P^x$ \[m\].
    #[serde(default)]
    pub x: f64,
    /// ${}^ir_P^y$ \[m\].
    #[serde(default)]
    pub y: f64,
    /// $\theta$ \[rad\].
    #[serde(default)]
    pub theta: Option<f64>,
    /// $\theta$ \[deg\] (alternative to `theta`).
    #[serde(default)]
    pub theta_deg: Option<f64>,
}

/// Initial inertial velocity of `P` and angular velocity.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TwistSpec {
    /// ${}^i\dot r_P^x$ \[m/s\].
    #[serde(default)]
    pub vx: f64,
    /// ${}^i\dot r_P^y$ \[m/s\].
    #[serde(default)]
    pub vy: f64,
    /// $\omega$ \[rad/s\].
    #[serde(default)]
    pub omega: f64,
}

/// A lumped mass at a port.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LumpedSpec {
    /// Port of the body.
    pub port: Spanned<String>,
    /// Mass ≥ 0 \[kg\].
    pub mass: Spanned<f64>,
    /// Rotary inertia ≥ 0 about the port \[kg m²\].
    #[serde(default)]
    pub inertia: Option<Spanned<f64>>,
}

/// `[bodies.NAME]`: a rigid body or a floating beam (keys per kind).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodySpec {
    /// `"rigid"` or `"beam"`.
    pub kind: Spanned<BodyKind>,
    /// Rigid: mass \[kg\].
    #[serde(default)]
    pub mass: Option<Spanned<f64>>,
    /// Rigid: rotary inertia about the centre of mass \[kg m²\] (default 0).
    #[serde(default)]
    pub inertia: Option<Spanned<f64>>,
    /// Rigid: centre of mass relative to `P`, body frame \[m\] (default (0, 0)).
    #[serde(default)]
    pub com: Option<Spanned<[f64; 2]>>,
    /// Beam: length \[m\].
    #[serde(default)]
    pub length: Option<Spanned<f64>>,
    /// Beam: density ρ \[kg/m³\].
    #[serde(default)]
    pub density: Option<Spanned<f64>>,
    /// Beam: Young's modulus E \[Pa\].
    #[serde(default)]
    pub youngs_modulus: Option<Spanned<f64>>,
    /// Beam: cross-section area A \[m²\].
    #[serde(default)]
    pub area: Option<Spanned<f64>>,
    /// Beam: second moment of area I \[m⁴\].
    #[serde(default)]
    pub second_moment: Option<Spanned<f64>>,
    /// Beam: diameter of a solid circular section \[m\] (instead of `area`, `second_moment`).
    #[serde(default)]
    pub diameter: Option<Spanned<f64>>,
    /// Beam: ρA \[kg/m\] (with `ea`, `ei`, instead of material data).
    #[serde(default)]
    pub rho_a: Option<Spanned<f64>>,
    /// Beam: EA \[N\].
    #[serde(default)]
    pub ea: Option<Spanned<f64>>,
    /// Beam: EI \[N m²\].
    #[serde(default)]
    pub ei: Option<Spanned<f64>>,
    /// Beam: number of elements.
    #[serde(default)]
    pub elements: Option<Spanned<i64>>,
    /// Beam: deformation boundary condition.
    #[serde(default)]
    pub deformation_bc: Option<Spanned<BcSpec>>,
    /// Beam: gyroscopic coefficient (default `consistent`).
    #[serde(default)]
    pub gyroscopic: Option<GyroSpec>,
    /// Ports: rigid `name = [x, y]` (body frame), beam `name = x` (material coordinate).
    #[serde(default)]
    pub ports: BTreeMap<String, Spanned<toml::Value>>,
    /// Lumped masses at ports.
    #[serde(default)]
    pub lumped: Vec<LumpedSpec>,
    /// Initial pose.
    #[serde(default)]
    pub pose: PoseSpec,
    /// Initial twist.
    #[serde(default)]
    pub twist: TwistSpec,
}

/// Joint kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JointKindSpec {
    /// Hinge (to ground: fixed point).
    Revolute,
    /// Rigid connection (to ground: fixed frame).
    Weld,
    /// Port on an inertial line through a ground point.
    Slider,
    /// Port driven with a prescribed inertial velocity.
    PrescribedVelocity,
}

/// `[joints.NAME]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointSpec {
    /// Kind.
    pub kind: Spanned<JointKindSpec>,
    /// `"body.port"` of side a.
    pub a: Spanned<String>,
    /// `"body.port"` or `"ground.point"` of side b (`"ground"` = `"ground.origin"`).
    #[serde(default)]
    pub b: Option<Spanned<String>>,
    /// Slider: direction of the line.
    #[serde(default)]
    pub direction: Option<Spanned<[f64; 2]>>,
    /// Prescribed velocity: $v_x(t)$ \[m/s\].
    #[serde(default)]
    pub vx: Option<Spanned<SignalSpec>>,
    /// Prescribed velocity: $v_y(t)$ \[m/s\].
    #[serde(default)]
    pub vy: Option<Spanned<SignalSpec>>,
    /// Prescribed velocity: $\omega(t)$ \[rad/s\] (omit to leave the rotation free).
    #[serde(default)]
    pub omega: Option<Spanned<SignalSpec>>,
}

/// Frame of load components.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FrameSpec {
    /// Body frame.
    #[default]
    Body,
    /// Inertial frame.
    Inertial,
}

/// `[[load]]`: a force and torque at a body port.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadSpec {
    /// Port name of the load (an input port of the system).
    pub name: Spanned<String>,
    /// `"body.port"`.
    pub at: Spanned<String>,
    /// Frame of the components.
    #[serde(default)]
    pub frame: FrameSpec,
    /// $F_x(t)$ \[N\].
    #[serde(default)]
    pub fx: Option<Spanned<SignalSpec>>,
    /// $F_y(t)$ \[N\].
    #[serde(default)]
    pub fy: Option<Spanned<SignalSpec>>,
    /// $T(t)$ \[N m\].
    #[serde(default)]
    pub torque: Option<Spanned<SignalSpec>>,
}

/// `[initial]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitialSpec {
    /// Correct the poses and velocities to satisfy the joints (default true); with
    /// `false` the given state must already be consistent.
    #[serde(default = "yes")]
    pub correct: bool,
    /// Coordinates kept at their given values, `"body.x"`, `"body.y"`, `"body.theta"`.
    #[serde(default)]
    pub lock: Vec<Spanned<String>>,
    /// Position tolerance \[m, rad\] (default 1e-12).
    #[serde(default)]
    pub position_tol: Option<Spanned<f64>>,
    /// Velocity tolerance used when `correct = false` \[m/s, rad/s\] (default 1e-10).
    #[serde(default)]
    pub velocity_tol: Option<Spanned<f64>>,
}

impl Default for InitialSpec {
    fn default() -> Self {
        Self {
            correct: true,
            lock: Vec::new(),
            position_tol: None,
            velocity_tol: None,
        }
    }
}

/// Integrators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MbsIntegrator {
    /// Midpoint / discrete gradient, fixed step.
    Midpoint,
    /// Radau IIA order 5, adaptive.
    Radau5,
}

/// Effort of the midpoint scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchemeSpec {
    /// Gonzalez discrete gradient (exact discrete power balance).
    DiscreteGradient,
    /// Implicit midpoint rule.
    Midpoint,
}

/// `[simulation]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MbsSimulationSpec {
    /// Integrator.
    pub integrator: MbsIntegrator,
    /// Final time \[s\].
    pub t_end: Spanned<f64>,
    /// Step (midpoint) or initial step (Radau) \[s\].
    #[serde(default)]
    pub dt: Option<Spanned<f64>>,
    /// Radau relative tolerance (default 1e-8).
    #[serde(default)]
    pub rtol: Option<Spanned<f64>>,
    /// Radau absolute tolerance (default 1e-10).
    #[serde(default)]
    pub atol: Option<Spanned<f64>>,
    /// Midpoint effort (default `discrete_gradient`).
    #[serde(default)]
    pub scheme: Option<SchemeSpec>,
    /// Newton relative tolerance of the midpoint scheme (default 1e-12).
    #[serde(default)]
    pub newton_rtol: Option<Spanned<f64>>,
    /// Newton absolute tolerance of the midpoint scheme (default 1e-12).
    #[serde(default)]
    pub newton_atol: Option<Spanned<f64>>,
    /// Newton iteration limit per step (default 20).
    #[serde(default)]
    pub newton_max_iterations: Option<Spanned<i64>>,
}

/// Which component of the elastic displacement to record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ElasticComponent {
    /// Axial $u_f^x$ \[m\].
    X,
    /// Transverse $u_f^y$ \[m\].
    #[default]
    Y,
    /// Rotation $\partial_x u_f^y$ \[rad\].
    Rotation,
}

/// `[[output.elastic]]`: elastic displacement at a material point of a beam.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElasticSpec {
    /// Column name.
    pub name: Spanned<String>,
    /// Beam body.
    pub body: Spanned<String>,
    /// Material coordinate \[m\].
    pub x: Spanned<f64>,
    /// Component (default `y`).
    #[serde(default)]
    pub component: ElasticComponent,
    /// Divide by the beam length.
    #[serde(default)]
    pub normalize: bool,
}

/// `[output]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MbsOutputSpec {
    /// Record every k-th step (midpoint).
    #[serde(default = "one")]
    pub every: usize,
    /// Number of uniform output intervals (Radau).
    #[serde(default = "default_samples")]
    pub samples: usize,
    /// Named point positions: `name = "body.port"` → columns `name.x`, `name.y`.
    #[serde(default)]
    pub points: BTreeMap<String, Spanned<String>>,
    /// Bodies whose pose is recorded → `body.x`, `body.y`, `body.theta`.
    #[serde(default)]
    pub poses: Vec<Spanned<String>>,
    /// Elastic displacements.
    #[serde(default)]
    pub elastic: Vec<ElasticSpec>,
    /// Joints whose reactions (multipliers) are recorded.
    #[serde(default)]
    pub reactions: Vec<Spanned<String>>,
    /// Ports (loads, prescribed-velocity joints) whose input, output and power are recorded.
    #[serde(default)]
    pub ports: Vec<Spanned<String>>,
    /// Per-body energy columns.
    #[serde(default)]
    pub body_energies: bool,
    /// Write SVG plots.
    #[serde(default = "yes")]
    pub plots: bool,
}

impl Default for MbsOutputSpec {
    fn default() -> Self {
        Self {
            every: 1,
            samples: 500,
            points: BTreeMap::new(),
            poses: Vec::new(),
            elastic: Vec::new(),
            reactions: Vec::new(),
            ports: Vec::new(),
            body_energies: false,
            plots: true,
        }
    }
}

/// `[modes]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MbsModesSpec {
    /// Number of frequencies (default 6).
    #[serde(default = "six")]
    pub count: usize,
}

impl Default for MbsModesSpec {
    fn default() -> Self {
        Self { count: 6 }
    }
}

fn one() -> usize {
    1
}
fn six() -> usize {
    6
}
fn yes() -> bool {
    true
}
fn default_samples() -> usize {
    500
}

// ---------------------------------------------------------------------------------------
// Parsing and validation
// ---------------------------------------------------------------------------------------

/// A parsed multibody model file (keeps its text for error lines).
#[derive(Debug, Clone)]
pub struct MbsModel {
    /// File name used in messages.
    pub file: String,
    text: String,
    /// The parsed content.
    pub spec: MbsFile,
}

/// A model built and made consistent: ready to integrate or linearise.
#[derive(Debug, Clone)]
pub struct BuiltMbs {
    /// Model name.
    pub name: String,
    /// The assembled pHDAE.
    pub mb: Multibody,
    /// Inputs defined in the file (loads, prescribed velocities).
    pub input: InputFn,
    /// Consistent initial state and the corrections made.
    pub init: ConsistentInit,
}

fn key_context(text: &str, line: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let Some(l) = line.checked_sub(1).and_then(|k| lines.get(k)) else {
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

/// Splits `"body.port"`; `"ground"` alone is `("ground", "origin")`.
fn split_ref(s: &str) -> Option<(&str, &str)> {
    if s == GROUND {
        return Some((GROUND, "origin"));
    }
    let (b, p) = s.split_once('.')?;
    (!b.is_empty() && !p.is_empty()).then_some((b, p))
}

fn signal_of(
    m: &MbsModel,
    what: &str,
    s: &Option<Spanned<SignalSpec>>,
) -> Result<Signal, ModelError> {
    match s {
        None => Ok(Signal::Constant(0.0)),
        Some(sp) => crate::build::signal(sp.get_ref())
            .map_err(|e| m.err(sp.span(), format!("{what}: invalid signal: {e}"))),
    }
}

impl MbsModel {
    /// Parses and validates a model file.
    pub fn parse(file: &str, text: &str) -> Result<Self, ModelError> {
        let spec: MbsFile = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
            ModelError {
                file: file.into(),
                line,
                message: format!("{}{}", key_context(text, line), e.message().trim()),
            }
        })?;
        let m = Self {
            file: file.into(),
            text: text.into(),
            spec,
        };
        m.builder()?;
        m.validate_rest()?;
        Ok(m)
    }

    /// Reads and parses a model file.
    pub fn read(path: &Path) -> Result<Self, ModelError> {
        let text = std::fs::read_to_string(path).map_err(|e| ModelError {
            file: path.display().to_string(),
            line: 0,
            message: format!("cannot read model file: {e}"),
        })?;
        Self::parse(&path.display().to_string(), &text)
    }

    fn err(&self, span: Range<usize>, message: String) -> ModelError {
        ModelError {
            file: self.file.clone(),
            line: line_of(&self.text, span.start),
            message,
        }
    }

    fn err_line(&self, line: usize, message: String) -> ModelError {
        ModelError {
            file: self.file.clone(),
            line,
            message,
        }
    }

    /// 1-based line of the table `[section.name]` (or of `name` inside `[section]`), 0 if
    /// not found.
    fn header_line(&self, section: &str, name: &str) -> usize {
        let heads = [
            format!("[{section}.{name}]"),
            format!("[{section}.\"{name}\"]"),
        ];
        let mut in_section = false;
        for (k, l) in self.text.lines().enumerate() {
            let t = l.trim();
            if heads.iter().any(|h| t == h) || t.starts_with(&format!("[{section}.{name}.")) {
                return k + 1;
            }
            if t.starts_with('[') {
                in_section = t == format!("[{section}]");
            } else if in_section
                && (t.starts_with(&format!("{name} ")) || t.starts_with(&format!("{name}=")))
            {
                return k + 1;
            }
        }
        0
    }

    /// 1-based line of the table `[section]`, 0 if not found.
    fn section_line(&self, section: &str) -> usize {
        let h = format!("[{section}]");
        self.text
            .lines()
            .position(|l| l.trim() == h)
            .map_or(0, |k| k + 1)
    }

    /// Moves the initial pose of a body (e.g. the crank angle of a parameter sweep).
    pub fn set_pose(&mut self, body: &str, pose: Pose2d) -> Result<(), ModelError> {
        let b = self.spec.bodies.get_mut(body).ok_or_else(|| ModelError {
            file: self.file.clone(),
            line: 0,
            message: format!("no body '{body}'"),
        })?;
        b.pose = PoseSpec {
            x: pose.x,
            y: pose.y,
            theta: Some(pose.theta),
            theta_deg: None,
        };
        Ok(())
    }

    fn positive(&self, key: &str, v: &Spanned<f64>) -> Result<f64, ModelError> {
        let x = *v.get_ref();
        if x > 0.0 && x.is_finite() {
            Ok(x)
        } else {
            Err(self.err(v.span(), format!("{key} must be > 0 (got {x})")))
        }
    }

    fn non_negative(&self, key: &str, v: &Spanned<f64>) -> Result<f64, ModelError> {
        let x = *v.get_ref();
        if x >= 0.0 && x.is_finite() {
            Ok(x)
        } else {
            Err(self.err(v.span(), format!("{key} must be >= 0 (got {x})")))
        }
    }

    fn finite2(&self, key: &str, v: &Spanned<[f64; 2]>) -> Result<[f64; 2], ModelError> {
        let x = *v.get_ref();
        if x.iter().all(|c| c.is_finite()) {
            Ok(x)
        } else {
            Err(self.err(v.span(), format!("{key} must be finite (got {x:?})")))
        }
    }

    /// The port names a body has (including the implicit ones).
    fn port_names(&self, body: &BodySpec) -> Vec<String> {
        let mut v: Vec<String> = match body.kind.get_ref() {
            BodyKind::Rigid => vec!["P".into()],
            BodyKind::Beam => vec!["P".into(), "C".into()],
        };
        for k in body.ports.keys() {
            if !v.contains(k) {
                v.push(k.clone());
            }
        }
        v
    }

    fn ground_names(&self) -> Vec<String> {
        let mut v = vec!["origin".to_string()];
        v.extend(self.spec.ground.keys().filter(|k| *k != "origin").cloned());
        v
    }

    /// Resolves `"body.port"` (or a ground point if `allow_ground`), naming `what` on error.
    fn resolve(
        &self,
        what: &str,
        r: &Spanned<String>,
        allow_ground: bool,
    ) -> Result<(String, String), ModelError> {
        let s = r.get_ref();
        let (b, p) = split_ref(s).ok_or_else(|| {
            self.err(
                r.span(),
                format!("{what}: '{s}' must have the form \"body.port\""),
            )
        })?;
        if b == GROUND {
            if !allow_ground {
                return Err(self.err(
                    r.span(),
                    format!("{what}: '{s}' must be a body port, not the ground"),
                ));
            }
            let g = self.ground_names();
            if !g.iter().any(|n| n == p) {
                return Err(self.err(
                    r.span(),
                    format!(
                        "{what}: unknown ground point '{p}'; ground points: {} (declare it under [ground])",
                        g.join(", ")
                    ),
                ));
            }
            return Ok((b.into(), p.into()));
        }
        let body = self.spec.bodies.get(b).ok_or_else(|| {
            let mut names: Vec<&str> = self.spec.bodies.keys().map(|k| k.as_str()).collect();
            if allow_ground {
                names.push(GROUND);
            }
            self.err(
                r.span(),
                format!("{what}: unknown body '{b}'; bodies: {}", names.join(", ")),
            )
        })?;
        let ports = self.port_names(body);
        if !ports.iter().any(|n| n == p) {
            return Err(self.err(
                r.span(),
                format!(
                    "{what}: body '{b}' has no port '{p}'; its ports: {}",
                    ports.join(", ")
                ),
            ));
        }
        Ok((b.into(), p.into()))
    }

    fn pose_of(&self, name: &str, b: &BodySpec) -> Result<(Pose2d, Twist2d), ModelError> {
        let line = self.header_line("bodies", name);
        let theta = match (b.pose.theta, b.pose.theta_deg) {
            (Some(_), Some(_)) => {
                return Err(self.err_line(
                    line,
                    format!("bodies.{name}.pose: give either theta [rad] or theta_deg, not both"),
                ))
            }
            (Some(t), None) => t,
            (None, Some(d)) => d.to_radians(),
            (None, None) => 0.0,
        };
        let p = Pose2d::new(b.pose.x, b.pose.y, theta);
        let t = Twist2d::new(b.twist.vx, b.twist.vy, b.twist.omega);
        for (v, k) in [
            (p.x, "pose.x"),
            (p.y, "pose.y"),
            (p.theta, "pose.theta"),
            (t.vx, "twist.vx"),
            (t.vy, "twist.vy"),
            (t.omega, "twist.omega"),
        ] {
            if !v.is_finite() {
                return Err(self.err_line(line, format!("bodies.{name}.{k} must be finite")));
            }
        }
        Ok((p, t))
    }

    fn forbid<T>(
        &self,
        name: &str,
        kind: &str,
        key: &str,
        v: &Option<Spanned<T>>,
    ) -> Result<(), ModelError> {
        if let Some(s) = v {
            return Err(self.err(
                s.span(),
                format!("bodies.{name}.{key} does not apply to a {kind} body"),
            ));
        }
        Ok(())
    }

    fn rigid_body(&self, name: &str, b: &BodySpec) -> Result<Body, ModelError> {
        for (k, v) in [
            ("length", &b.length),
            ("density", &b.density),
            ("youngs_modulus", &b.youngs_modulus),
            ("area", &b.area),
            ("second_moment", &b.second_moment),
            ("diameter", &b.diameter),
            ("rho_a", &b.rho_a),
            ("ea", &b.ea),
            ("ei", &b.ei),
        ] {
            self.forbid(name, "rigid", k, v)?;
        }
        self.forbid(name, "rigid", "elements", &b.elements)?;
        self.forbid(name, "rigid", "deformation_bc", &b.deformation_bc)?;
        if b.gyroscopic.is_some() {
            return Err(self.err_line(
                self.header_line("bodies", name),
                format!("bodies.{name}.gyroscopic does not apply to a rigid body"),
            ));
        }
        let mass = match &b.mass {
            Some(m) => self.positive(&format!("bodies.{name}.mass"), m)?,
            None => {
                return Err(self.err_line(
                    self.header_line("bodies", name),
                    format!("bodies.{name}: missing key mass [kg] (required for kind = \"rigid\")"),
                ))
            }
        };
        let inertia = match &b.inertia {
            Some(i) => self.non_negative(&format!("bodies.{name}.inertia"), i)?,
            None => 0.0,
        };
        let mut r = RigidBody2d::new(mass, inertia);
        if let Some(c) = &b.com {
            r = r.com(self.finite2(&format!("bodies.{name}.com"), c)?);
        }
        for (p, v) in &b.ports {
            let a = match v.get_ref() {
                toml::Value::Array(a) if a.len() == 2 => {
                    let f = |x: &toml::Value| x.as_float().or_else(|| x.as_integer().map(|i| i as f64));
                    match (f(&a[0]), f(&a[1])) {
                        (Some(x), Some(y)) if x.is_finite() && y.is_finite() => [x, y],
                        _ => {
                            return Err(self.err(
                                v.span(),
                                format!("bodies.{name}.ports.{p} must be two finite numbers [x, y] (body frame, m)"),
                            ))
                        }
                    }
                }
                _ => {
                    return Err(self.err(
                        v.span(),
                        format!("bodies.{name}.ports.{p}: a rigid body port is a point [x, y] in the body frame [m]"),
                    ))
                }
            };
            r = r.port(p.clone(), a);
        }
        for l in &b.lumped {
            let (port, mass, inertia) = self.lumped(name, b, l)?;
            r = r.lumped_mass(port, mass, inertia);
        }
        let (pose, twist) = self.pose_of(name, b)?;
        Ok(r.pose(pose).twist(twist).into())
    }

    fn lumped(
        &self,
        name: &str,
        b: &BodySpec,
        l: &LumpedSpec,
    ) -> Result<(String, f64, f64), ModelError> {
        let ports = self.port_names(b);
        let p = l.port.get_ref();
        if !ports.contains(p) {
            return Err(self.err(
                l.port.span(),
                format!(
                    "bodies.{name}.lumped: body '{name}' has no port '{p}'; its ports: {}",
                    ports.join(", ")
                ),
            ));
        }
        let m = self.non_negative(&format!("bodies.{name}.lumped.mass"), &l.mass)?;
        let i = match &l.inertia {
            Some(i) => self.non_negative(&format!("bodies.{name}.lumped.inertia"), i)?,
            None => 0.0,
        };
        Ok((p.clone(), m, i))
    }

    fn beam_body(&self, name: &str, b: &BodySpec) -> Result<Body, ModelError> {
        self.forbid(name, "beam", "mass", &b.mass)?;
        self.forbid(name, "beam", "inertia", &b.inertia)?;
        self.forbid(name, "beam", "com", &b.com)?;
        let head = self.header_line("bodies", name);
        let key = |k: &str| format!("bodies.{name}.{k}");
        let length = match &b.length {
            Some(l) => self.positive(&key("length"), l)?,
            None => {
                return Err(self.err_line(
                    head,
                    format!("bodies.{name}: missing key length [m] (required for kind = \"beam\")"),
                ))
            }
        };
        let material = [
            &b.density,
            &b.youngs_modulus,
            &b.area,
            &b.second_moment,
            &b.diameter,
        ]
        .iter()
        .any(|v| v.is_some());
        let stiff = [&b.rho_a, &b.ea, &b.ei].iter().any(|v| v.is_some());
        let (rho_a, ea, ei) = match (material, stiff) {
            (true, true) => {
                return Err(self.err_line(
                    head,
                    format!("bodies.{name}: give either material data (density, youngs_modulus and area + second_moment or diameter) or section constants (rho_a, ea, ei), not both"),
                ))
            }
            (false, false) => {
                return Err(self.err_line(
                    head,
                    format!("bodies.{name}: missing beam data: density, youngs_modulus and area + second_moment (or diameter), or rho_a, ea, ei"),
                ))
            }
            (false, true) => {
                let get = |k: &str, v: &Option<Spanned<f64>>| match v {
                    Some(s) => self.positive(&key(k), s),
                    None => Err(self.err_line(head, format!("bodies.{name}: missing key {k}"))),
                };
                (get("rho_a", &b.rho_a)?, get("ea", &b.ea)?, get("ei", &b.ei)?)
            }
            (true, false) => {
                let get = |k: &str, v: &Option<Spanned<f64>>| match v {
                    Some(s) => self.positive(&key(k), s),
                    None => Err(self.err_line(head, format!("bodies.{name}: missing key {k}"))),
                };
                let rho = get("density", &b.density)?;
                let e = get("youngs_modulus", &b.youngs_modulus)?;
                let (a, i) = match (&b.diameter, &b.area, &b.second_moment) {
                    (Some(d), None, None) => {
                        let d = self.positive(&key("diameter"), d)?;
                        let pi = std::f64::consts::PI;
                        (pi * d * d / 4.0, pi * d.powi(4) / 64.0)
                    }
                    (Some(d), _, _) => {
                        return Err(self.err(
                            d.span(),
                            format!("bodies.{name}: give either diameter or area + second_moment"),
                        ))
                    }
                    (None, a, i) => (get("area", a)?, get("second_moment", i)?),
                };
                (rho * a, e * a, e * i)
            }
        };
        let n = match &b.elements {
            Some(n) if (1..=1_000_000).contains(n.get_ref()) => *n.get_ref() as usize,
            Some(n) => {
                return Err(self.err(
                    n.span(),
                    format!(
                        "{} must be between 1 and 1e6 (got {})",
                        key("elements"),
                        n.get_ref()
                    ),
                ))
            }
            None => {
                return Err(self.err_line(
                    head,
                    format!("bodies.{name}: missing key elements (number of finite elements)"),
                ))
            }
        };
        let bc = match &b.deformation_bc {
            Some(s) => match s.get_ref() {
                BcSpec::Cantilever => DeformationBc::Cantilever,
                BcSpec::SimplySupported => DeformationBc::SimplySupported,
                BcSpec::Free => return Err(self.err(
                    s.span(),
                    format!("bodies.{name}: deformation_bc = \"free\" leaves the rigid motion in the deformation field and the floating-frame mass operator singular (paper 000 Remark 8); choose \"cantilever\" or \"simply_supported\""),
                )),
            },
            None => {
                return Err(self.err_line(
                    head,
                    format!("bodies.{name}: missing key deformation_bc; without a deformation boundary condition the floating-frame mass operator is singular (paper 000 Remark 8). Choose \"cantilever\" or \"simply_supported\""),
                ))
            }
        };
        let mut beam = FloatingBeam2d::new(length, rho_a, ea, ei, n).bc(bc);
        if let Some(g) = b.gyroscopic {
            beam = beam.gyroscopic(match g {
                GyroSpec::Consistent => Gyroscopic::Consistent,
                GyroSpec::PaperLiteral => Gyroscopic::PaperLiteral,
            });
        }
        for (p, v) in &b.ports {
            if p == "P" || p == "C" {
                return Err(self.err(
                    v.span(),
                    format!("bodies.{name}.ports.{p}: ports P (x = 0) and C (x = L) of a beam exist already"),
                ));
            }
            let x = match v.get_ref() {
                toml::Value::Float(x) => *x,
                toml::Value::Integer(i) => *i as f64,
                _ => {
                    return Err(self.err(
                        v.span(),
                        format!("bodies.{name}.ports.{p}: a beam port is a material coordinate x [m] in [0, L]"),
                    ))
                }
            };
            if !(0.0..=length).contains(&x) {
                return Err(self.err(
                    v.span(),
                    format!("bodies.{name}.ports.{p}: x = {x} is outside the beam [0, {length}]"),
                ));
            }
            beam = beam.port(p.clone(), x);
        }
        for l in &b.lumped {
            let (port, mass, inertia) = self.lumped(name, b, l)?;
            beam = beam.lumped_mass(port, mass, inertia);
        }
        let (pose, twist) = self.pose_of(name, b)?;
        Ok(beam.pose(pose).twist(twist).into())
    }

    /// Validates the bodies, joints, ground points and loads and fills a builder (nothing
    /// is discretized yet).
    pub fn builder(&self) -> Result<MultibodyBuilder, ModelError> {
        let s = &self.spec;
        let mut builder = MultibodyBuilder::new();
        if let Some(g) = &s.gravity {
            builder.gravity(self.finite2("gravity", g)?);
        }
        if s.bodies.is_empty() {
            return Err(self.err_line(0, "no bodies: add at least one [bodies.NAME] table".into()));
        }
        for (name, b) in &s.bodies {
            if name == GROUND || name.contains('.') || name.is_empty() {
                return Err(self.err_line(
                    self.header_line("bodies", name),
                    format!("body name '{name}' is not allowed (no dots, not \"{GROUND}\")"),
                ));
            }
            let body = match b.kind.get_ref() {
                BodyKind::Rigid => self.rigid_body(name, b)?,
                BodyKind::Beam => self.beam_body(name, b)?,
            };
            builder.add_body(name.clone(), body);
        }
        for (name, p) in &s.ground {
            let v = self.finite2(&format!("ground.{name}"), p)?;
            builder.add_ground_point(name.clone(), v);
        }
        for (name, j) in &s.joints {
            let what = format!("joint '{name}'");
            let kind = *j.kind.get_ref();
            let (ba, pa) = self.resolve(&format!("{what}: key a"), &j.a, false)?;
            let b = match (&j.b, kind) {
                (Some(b), _) => self.resolve(&format!("{what}: key b"), b, true)?,
                (None, JointKindSpec::PrescribedVelocity) => (GROUND.into(), "origin".into()),
                (None, _) => {
                    return Err(self.err(
                        j.kind.span(),
                        format!("{what}: missing key b (\"body.port\" or \"ground.point\")"),
                    ))
                }
            };
            if kind != JointKindSpec::Slider {
                if let Some(d) = &j.direction {
                    return Err(self.err(
                        d.span(),
                        format!("{what}: direction applies to sliders only"),
                    ));
                }
            }
            if kind != JointKindSpec::PrescribedVelocity {
                if let Some(v) = [&j.vx, &j.vy, &j.omega].into_iter().flatten().next() {
                    return Err(self.err(
                        v.span(),
                        format!("{what}: vx, vy, omega apply to prescribed_velocity joints only"),
                    ));
                }
            }
            let grounded_only = matches!(
                kind,
                JointKindSpec::Slider | JointKindSpec::PrescribedVelocity
            );
            if grounded_only && b.0 != GROUND {
                let sp = j.b.as_ref().map(|s| s.span()).unwrap_or(j.kind.span());
                return Err(self.err(
                    sp,
                    format!("{what}: a slider or prescribed-velocity joint connects a body to the ground; set b = \"ground.POINT\""),
                ));
            }
            let jk = match kind {
                JointKindSpec::Revolute => JointKind::Revolute,
                JointKindSpec::Weld => JointKind::Weld,
                JointKindSpec::Slider => {
                    let d = j.direction.as_ref().ok_or_else(|| {
                        self.err(
                            j.kind.span(),
                            format!("{what}: missing key direction = [dx, dy] of the slider line"),
                        )
                    })?;
                    let v = self.finite2(&format!("joints.{name}.direction"), d)?;
                    if v[0] == 0.0 && v[1] == 0.0 {
                        return Err(
                            self.err(d.span(), format!("{what}: direction must be non-zero"))
                        );
                    }
                    JointKind::Slider { direction: v }
                }
                JointKindSpec::PrescribedVelocity => {
                    if j.vx.is_none() && j.vy.is_none() && j.omega.is_none() {
                        return Err(self.err(
                            j.kind.span(),
                            format!("{what}: a prescribed_velocity joint needs vx, vy (and optionally omega) signals"),
                        ));
                    }
                    JointKind::PrescribedVelocity {
                        vx: signal_of(self, &format!("joints.{name}.vx"), &j.vx)?,
                        vy: signal_of(self, &format!("joints.{name}.vy"), &j.vy)?,
                        omega: match &j.omega {
                            Some(_) => {
                                Some(signal_of(self, &format!("joints.{name}.omega"), &j.omega)?)
                            }
                            None => None,
                        },
                    }
                }
            };
            builder.add_joint(name.clone(), Joint::new(ba, pa, b.0, b.1, jk));
        }
        let mut load_names = BTreeSet::new();
        for l in &s.load {
            let name = l.name.get_ref();
            if !load_names.insert(name.clone()) || s.joints.contains_key(name) {
                return Err(self.err(
                    l.name.span(),
                    format!("load '{name}': the name is already used by another load or joint (port names must be unique)"),
                ));
            }
            let (b, p) = self.resolve(&format!("load '{name}': key at"), &l.at, false)?;
            let frame = match l.frame {
                FrameSpec::Body => Frame::Body,
                FrameSpec::Inertial => Frame::Inertial,
            };
            let load = Load::new(b, p, frame).signals(
                signal_of(self, &format!("load '{name}'.fx"), &l.fx)?,
                signal_of(self, &format!("load '{name}'.fy"), &l.fy)?,
                signal_of(self, &format!("load '{name}'.torque"), &l.torque)?,
            );
            builder.add_load(name.clone(), load);
        }
        Ok(builder)
    }

    /// Names of the input ports: loads, then prescribed-velocity joints.
    fn port_names_all(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .spec
            .load
            .iter()
            .map(|l| l.name.get_ref().clone())
            .collect();
        v.extend(
            self.spec
                .joints
                .iter()
                .filter(|(_, j)| *j.kind.get_ref() == JointKindSpec::PrescribedVelocity)
                .map(|(n, _)| n.clone()),
        );
        v
    }

    fn validate_rest(&self) -> Result<(), ModelError> {
        let s = &self.spec;
        for l in &s.initial.lock {
            let ok = split_ref(l.get_ref())
                .filter(|(b, c)| s.bodies.contains_key(*b) && ["x", "y", "theta"].contains(c));
            if ok.is_none() {
                return Err(self.err(
                    l.span(),
                    format!("initial.lock: '{}' must be \"body.x\", \"body.y\" or \"body.theta\" of an existing body", l.get_ref()),
                ));
            }
        }
        if let Some(t) = &s.initial.position_tol {
            self.positive("initial.position_tol", t)?;
        }
        if let Some(t) = &s.initial.velocity_tol {
            self.positive("initial.velocity_tol", t)?;
        }
        if let Some(sim) = &s.simulation {
            self.positive("simulation.t_end", &sim.t_end)?;
            if let Some(dt) = &sim.dt {
                self.positive("simulation.dt", dt)?;
            }
            if sim.integrator == MbsIntegrator::Midpoint && sim.dt.is_none() {
                return Err(self.err(
                    sim.t_end.span(),
                    "missing key simulation.dt (time step [s]), required by integrator = \"midpoint\"".into(),
                ));
            }
            for (k, v) in [("rtol", &sim.rtol), ("newton_rtol", &sim.newton_rtol)] {
                if let Some(v) = v {
                    let x = *v.get_ref();
                    if !(x > 0.0 && x < 1.0) {
                        return Err(self.err(
                            v.span(),
                            format!("simulation.{k} must satisfy 0 < {k} < 1 (got {x})"),
                        ));
                    }
                }
            }
            for (k, v) in [("atol", &sim.atol), ("newton_atol", &sim.newton_atol)] {
                if let Some(v) = v {
                    self.positive(&format!("simulation.{k}"), v)?;
                }
            }
            if let Some(n) = &sim.newton_max_iterations {
                if !(1..=1000).contains(n.get_ref()) {
                    return Err(self.err(
                        n.span(),
                        format!(
                            "simulation.newton_max_iterations must be between 1 and 1000 (got {})",
                            n.get_ref()
                        ),
                    ));
                }
            }
            if sim.integrator == MbsIntegrator::Radau5 && sim.scheme.is_some() {
                return Err(self.err(
                    sim.t_end.span(),
                    "simulation.scheme applies to integrator = \"midpoint\" only".into(),
                ));
            }
        }
        let o = &s.output;
        if o.every == 0 || o.samples == 0 {
            return Err(self.err_line(
                self.section_line("output"),
                "output.every and output.samples must be >= 1".into(),
            ));
        }
        for (n, r) in &o.points {
            self.resolve(&format!("output.points.{n}"), r, false)?;
        }
        for b in &o.poses {
            if !s.bodies.contains_key(b.get_ref()) {
                return Err(self.err(
                    b.span(),
                    format!(
                        "output.poses: unknown body '{}'; bodies: {}",
                        b.get_ref(),
                        s.bodies.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
        }
        for e in &o.elastic {
            let b = e.body.get_ref();
            let beam = s
                .bodies
                .get(b)
                .filter(|x| *x.kind.get_ref() == BodyKind::Beam);
            let Some(beam) = beam else {
                return Err(self.err(
                    e.body.span(),
                    format!(
                        "output.elastic '{}': '{b}' is not a beam body",
                        e.name.get_ref()
                    ),
                ));
            };
            let l = beam.length.as_ref().map(|v| *v.get_ref()).unwrap_or(0.0);
            let x = *e.x.get_ref();
            if !(0.0..=l).contains(&x) {
                return Err(self.err(
                    e.x.span(),
                    format!(
                        "output.elastic '{}': x = {x} is outside the beam [0, {l}]",
                        e.name.get_ref()
                    ),
                ));
            }
        }
        for r in &o.reactions {
            if !s.joints.contains_key(r.get_ref()) {
                return Err(self.err(
                    r.span(),
                    format!(
                        "output.reactions: unknown joint '{}'; joints: {}",
                        r.get_ref(),
                        s.joints.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
        }
        let ports = self.port_names_all();
        for p in &o.ports {
            if !ports.contains(p.get_ref()) {
                return Err(self.err(p.span(), format!("output.ports: unknown port '{}'; ports (loads and prescribed_velocity joints): {}", p.get_ref(), if ports.is_empty() { "none".into() } else { ports.join(", ") })));
            }
        }
        if s.modes.count == 0 {
            return Err(self.err_line(
                self.section_line("modes"),
                "modes.count must be >= 1".into(),
            ));
        }
        Ok(())
    }

    /// Converts a multibody error: model errors (exit code 2) name the body or joint and
    /// the line of its table; numerical failures stay plain errors (exit code 1).
    pub fn convert(&self, e: MbsError) -> anyhow::Error {
        let quoted = |s: &str| s.split('\'').nth(1).unwrap_or("").to_string();
        let line = match &e {
            MbsError::InvalidBodyParameter { body, .. }
            | MbsError::MissingDeformationBc { body }
            | MbsError::Fem { body, .. } => self.header_line("bodies", body),
            MbsError::UnknownBody { context, .. } | MbsError::UnknownPort { context, .. } => {
                let n = quoted(context);
                if context.starts_with("joint") {
                    self.header_line("joints", &n)
                } else {
                    self.header_line("bodies", &n)
                }
            }
            MbsError::InvalidJoint { joint, .. }
            | MbsError::InconsistentInitialConditions { joint, .. } => {
                self.header_line("joints", joint)
            }
            MbsError::RedundantConstraints { joints, .. } => joints
                .first()
                .map(|j| self.header_line("joints", j))
                .unwrap_or(0),
            MbsError::DuplicateName { .. } | MbsError::UnknownName { .. } => 0,
            MbsError::Dimension { .. } | MbsError::Core(_) | MbsError::Solve(_) => {
                return anyhow::Error::new(e)
            }
        };
        anyhow::Error::new(self.err_line(line, e.to_string()))
    }

    /// Builds the pHDAE and its consistent initial state (`[initial]`).
    pub fn build(&self) -> Result<BuiltMbs> {
        let mb = self.builder()?.build().map_err(|e| self.convert(e))?;
        let input = mb.input();
        let s = &self.spec.initial;
        let tol = s
            .position_tol
            .as_ref()
            .map(|v| *v.get_ref())
            .unwrap_or(1e-12);
        let x0 = mb.initial_state();
        let init = if s.correct {
            let locked = s
                .lock
                .iter()
                .filter_map(|l| split_ref(l.get_ref()))
                .map(|(b, c)| {
                    let c = match c {
                        "x" => Coordinate::X,
                        "y" => Coordinate::Y,
                        _ => Coordinate::Theta,
                    };
                    (b.to_string(), c)
                })
                .collect();
            let opts = KinematicsOptions {
                locked,
                position_tol: tol,
                ..Default::default()
            };
            consistent_initial_state(&mb, &x0, &input, 0.0, &opts).map_err(|e| self.convert(e))?
        } else {
            self.check_consistent(&mb, &input, x0, tol)?
        };
        Ok(BuiltMbs {
            name: self.spec.model.name.clone(),
            mb,
            input,
            init,
        })
    }

    /// `[initial] correct = false`: the given state must satisfy the joints; multipliers
    /// are still computed from the hidden constraint.
    fn check_consistent(
        &self,
        mb: &Multibody,
        input: &InputFn,
        x0: Vec<f64>,
        tol: f64,
    ) -> Result<ConsistentInit> {
        let vtol = self
            .spec
            .initial
            .velocity_tol
            .as_ref()
            .map(|v| *v.get_ref())
            .unwrap_or(1e-10);
        // Position: the joints other than drivers (their targets start at the port).
        for d in mb.position_drift(&x0) {
            if d.max_abs > tol {
                return Err(self.convert(MbsError::InconsistentInitialConditions {
                    joint: d.joint,
                    level: "position".into(),
                    residual: d.max_abs,
                    tol,
                    hint: "; fix the poses or set [initial] correct = true".into(),
                }));
            }
        }
        // Velocity: the multiplier rows of f(x0, u0) are −(G p − B_λ u0).
        let u0 = input.eval(0.0);
        let mut f = vec![0.0; mb.n()];
        let mut x = x0.clone();
        for j in 0..mb.joint_names().len() {
            for i in mb.multiplier_range(j) {
                x[i] = 0.0;
            }
        }
        mb.rhs(&x, &u0, &mut f);
        for (j, name) in mb.joint_names().iter().enumerate() {
            let r = mb
                .multiplier_range(j)
                .fold(0.0f64, |m, i| m.max(f[i].abs()));
            if r > vtol {
                return Err(self.convert(MbsError::InconsistentInitialConditions {
                    joint: name.clone(),
                    level: "velocity".into(),
                    residual: r,
                    tol: vtol,
                    hint: "; fix the twists or set [initial] correct = true".into(),
                }));
            }
        }
        // Multipliers from the full procedure (positions and velocities are unchanged).
        let opts = KinematicsOptions {
            position_tol: tol.max(1e-12),
            ..Default::default()
        };
        consistent_initial_state(mb, &x0, input, 0.0, &opts).map_err(|e| self.convert(e))
    }

    /// Constrained eigenfrequencies of the linearisation about the initial configuration
    /// (finite eigenvalues of the pencil $(E, \partial_x f)$, paper eq. (51)).
    pub fn modes(&self, built: &BuiltMbs, count: usize) -> Result<Vec<ModeRow>> {
        let u0 = built.input.eval(0.0);
        let params = EigenParams {
            n_modes: Some(count),
            ..Default::default()
        };
        let r = phlex_mbs::modes(&built.mb, &built.init.state, &u0, &params)
            .context("eigen-analysis of the linearised multibody system failed")?;
        Ok(r.modes
            .iter()
            .take(count)
            .enumerate()
            .map(|(k, m)| ModeRow {
                mode: k + 1,
                omega: m.omega,
                frequency_hz: m.omega / (2.0 * std::f64::consts::PI),
                damping_ratio: m.damping_ratio + 0.0,
            })
            .collect())
    }
}

// ---------------------------------------------------------------------------------------
// Recording
// ---------------------------------------------------------------------------------------

/// Precomputed output columns.
struct Recorder<'a> {
    mb: &'a Multibody,
    input: &'a InputFn,
    body_energies: bool,
    points: Vec<(usize, usize)>,
    poses: Vec<usize>,
    elastic: Vec<(usize, f64, usize, f64)>,
    reactions: Vec<usize>,
    ports: Vec<Range<usize>>,
    z: Vec<f64>,
    names: Vec<String>,
    groups: Vec<(&'static str, Range<usize>)>,
    rows: Vec<Vec<f64>>,
    /// Total input power $y^\top u$ at each sample.
    power: Vec<f64>,
    has_inputs: bool,
}

impl<'a> Recorder<'a> {
    fn new(m: &MbsModel, mb: &'a Multibody, input: &'a InputFn) -> Result<Self> {
        let o = &m.spec.output;
        let mut names: Vec<String> = ["t", "kinetic", "deformation", "potential", "H", "work_in"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if o.body_energies {
            for b in mb.body_names() {
                for k in ["kinetic", "deformation", "potential"] {
                    names.push(format!("{b}.{k}"));
                }
            }
        }
        let conv = |e| m.convert(e);
        let mut groups = Vec::new();
        let mut start = names.len();
        let mut points = Vec::new();
        for (n, r) in &o.points {
            let (b, p) = split_ref(r.get_ref()).context("checked at parse")?;
            let bi = mb.body_index(b).map_err(conv)?;
            let pi = mb.bodies()[bi]
                .port_index(p)
                .context("port checked at parse")?;
            points.push((bi, pi));
            names.push(format!("{n}.x"));
            names.push(format!("{n}.y"));
        }
        let mut poses = Vec::new();
        for b in &o.poses {
            poses.push(mb.body_index(b.get_ref()).map_err(conv)?);
            for c in ["x", "y", "theta"] {
                names.push(format!("{}.{c}", b.get_ref()));
            }
        }
        groups.push(("positions", start..names.len()));
        start = names.len();
        let mut elastic = Vec::new();
        for e in &o.elastic {
            let bi = mb.body_index(e.body.get_ref()).map_err(conv)?;
            let l = m.spec.bodies[e.body.get_ref()]
                .length
                .as_ref()
                .map(|v| *v.get_ref())
                .unwrap_or(1.0);
            let c = match e.component {
                ElasticComponent::X => 0,
                ElasticComponent::Y => 1,
                ElasticComponent::Rotation => 2,
            };
            elastic.push((
                bi,
                *e.x.get_ref(),
                c,
                if e.normalize { 1.0 / l } else { 1.0 },
            ));
            names.push(e.name.get_ref().clone());
        }
        groups.push(("elastic", start..names.len()));
        start = names.len();
        let labels = mb.constraint_labels();
        let row0 = if mb.joint_names().is_empty() {
            0
        } else {
            mb.multiplier_range(0).start
        };
        let mut reactions = Vec::new();
        for r in &o.reactions {
            let j = mb.joint_index(r.get_ref()).map_err(conv)?;
            for i in mb.multiplier_range(j) {
                let lab = &labels[i - row0];
                let comp = lab
                    .split_once('[')
                    .map(|(_, c)| c.trim_end_matches(']'))
                    .unwrap_or("0");
                names.push(format!("{}.lambda_{comp}", r.get_ref()));
            }
            reactions.push(j);
        }
        groups.push(("reactions", start..names.len()));
        start = names.len();
        let mut ports = Vec::new();
        for p in &o.ports {
            let range = mb
                .ports()
                .range(p.get_ref())
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            for k in 0..range.len() {
                names.push(format!("{}.u{k}", p.get_ref()));
            }
            for k in 0..range.len() {
                names.push(format!("{}.y{k}", p.get_ref()));
            }
            names.push(format!("{}.power", p.get_ref()));
            ports.push(range);
        }
        groups.push(("ports", start..names.len()));
        names.push("drift".into());
        let mut seen = BTreeSet::new();
        if let Some(dup) = names.iter().find(|n| !seen.insert(n.as_str())) {
            return Err(m
                .err_line(
                    m.section_line("output"),
                    format!("output: column '{dup}' is produced twice (rename a point or an elastic output; pose columns are BODY.x, BODY.y, BODY.theta)"),
                )
                .into());
        }
        Ok(Self {
            mb,
            input,
            body_energies: o.body_energies,
            points,
            poses,
            elastic,
            reactions,
            ports,
            z: vec![0.0; mb.n()],
            names,
            groups,
            rows: Vec::new(),
            power: Vec::new(),
            has_inputs: mb.ports().total_dim() > 0,
        })
    }

    fn record(&mut self, t: f64, x: &[f64]) {
        let mb = self.mb;
        let mut row = Vec::with_capacity(self.names.len());
        let e = mb.energies(x);
        let (k, d, p) = e.iter().fold((0.0, 0.0, 0.0), |a, (_, s)| {
            (a.0 + s.kinetic, a.1 + s.deformation, a.2 + s.potential)
        });
        row.extend_from_slice(&[t, k, d, p, mb.hamiltonian(x), 0.0]);
        if self.body_energies {
            for (_, s) in &e {
                row.extend_from_slice(&[s.kinetic, s.deformation, s.potential]);
            }
        }
        for &(b, q) in &self.points {
            row.extend_from_slice(&mb.port_position(b, q, x));
        }
        for &b in &self.poses {
            let p = mb.pose(b, x);
            row.extend_from_slice(&[p.x, p.y, p.theta]);
        }
        for &(b, xi, c, s) in &self.elastic {
            let v = mb.bodies()[b]
                .elastic_displacement(xi, &x[mb.body_range(b)])
                .map(|u| u[c] * s)
                .unwrap_or(f64::NAN);
            row.push(v);
        }
        for &j in &self.reactions {
            row.extend_from_slice(mb.reaction(j, x));
        }
        let mut total = 0.0;
        if self.has_inputs {
            let u = self.input.eval(t);
            mb.effort(x, &mut self.z);
            let y = mb.output(x, &self.z);
            total = y.iter().zip(&u).map(|(a, b)| a * b).sum();
            for r in &self.ports {
                row.extend_from_slice(&u[r.clone()]);
                row.extend_from_slice(&y[r.clone()]);
                row.push(r.clone().map(|k| u[k] * y[k]).sum());
            }
        }
        self.power.push(total);
        row.push(mb.max_position_drift(x));
        self.rows.push(row);
    }
}

// ---------------------------------------------------------------------------------------
// Simulation and summary
// ---------------------------------------------------------------------------------------

/// `summary.json` of a multibody run.
#[derive(Debug, Clone, Serialize, Default)]
pub struct MbsSummary {
    /// Model name.
    pub model: String,
    /// Integrator.
    pub integrator: String,
    /// State variables (bodies, joint angles/targets, multipliers).
    pub states: usize,
    /// Constraint rows (multipliers).
    pub constraints: usize,
    /// Final time \[s\].
    pub final_time: f64,
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps (Radau).
    pub rejected_steps: usize,
    /// Newton iterations.
    pub newton_iterations: usize,
    /// LU factorizations.
    pub factorizations: usize,
    /// Largest joint position residual before / after the initial correction.
    pub initial_position_residual: (f64, f64),
    /// Largest velocity-constraint residual before / after the initial correction.
    pub initial_velocity_residual: (f64, f64),
    /// $H(0)$ \[J\].
    pub h_initial: f64,
    /// $H(t_{end})$ \[J\].
    pub h_final: f64,
    /// Energy supplied through the ports $W = \int y^\top u\,dt$ \[J\] (midpoint: exact
    /// discrete work; Radau: trapezoidal rule on the output samples).
    pub energy_supplied: f64,
    /// Energy scale: max over the samples of kinetic + deformation + |potential| and |W| \[J\].
    pub energy_scale: f64,
    /// $\max_t |H(t) - H(0) - W(t)|$ / energy scale.
    pub energy_drift: f64,
    /// Midpoint: largest step residual $|H_1 - H_0 - h\bar y^\top u|$; Radau: largest
    /// residual between output samples \[J\].
    pub power_balance_residual: f64,
    /// The same, relative to the energy scale.
    pub power_balance_residual_relative: f64,
    /// Largest position-level joint violation over the output samples \[m or rad\].
    pub max_constraint_drift: f64,
    /// Wall time of the integration \[s\].
    pub wall_time_s: f64,
    /// Files written.
    pub outputs: Vec<String>,
}

fn sci(v: f64) -> String {
    format!("{:.6e}", if v == 0.0 { 0.0 } else { v })
}

impl MbsSummary {
    /// The human-readable table.
    pub fn table(&self) -> String {
        let rows: Vec<(&str, String)> = vec![
            ("model", self.model.clone()),
            ("integrator", self.integrator.clone()),
            (
                "states (constraints)",
                format!("{} ({})", self.states, self.constraints),
            ),
            ("final time [s]", format!("{:.6}", self.final_time)),
            (
                "steps (rejected)",
                format!("{} ({})", self.steps, self.rejected_steps),
            ),
            ("Newton iterations", self.newton_iterations.to_string()),
            ("LU factorizations", self.factorizations.to_string()),
            (
                "initial correction pos/vel",
                format!(
                    "{:.3e} -> {:.3e} / {:.3e} -> {:.3e}",
                    self.initial_position_residual.0,
                    self.initial_position_residual.1,
                    self.initial_velocity_residual.0,
                    self.initial_velocity_residual.1
                ),
            ),
            (
                "H(0) -> H(end) [J]",
                format!("{} -> {}", sci(self.h_initial), sci(self.h_final)),
            ),
            ("energy in through ports [J]", sci(self.energy_supplied)),
            (
                "energy drift (relative)",
                format!("{:.3e}", self.energy_drift),
            ),
            (
                "power-balance residual",
                format!(
                    "{:.3e} J ({:.3e} relative)",
                    self.power_balance_residual, self.power_balance_residual_relative
                ),
            ),
            (
                "max constraint drift",
                format!("{:.3e}", self.max_constraint_drift),
            ),
            ("wall time [s]", format!("{:.3}", self.wall_time_s)),
        ];
        let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
        let mut s = String::new();
        for (k, v) in rows {
            s.push_str(&format!("  {k:<w$}  {v}\n"));
        }
        s
    }
}

/// A finished run: recorded samples and summary.
#[derive(Debug, Clone)]
pub struct MbsRun {
    /// The time series (`t, kinetic, deformation, potential, H, work_in, …, drift`).
    pub series: TimeSeries,
    /// The summary.
    pub summary: MbsSummary,
    /// Column ranges of the output groups (`positions`, `elastic`, `reactions`, `ports`).
    pub groups: Vec<(&'static str, Range<usize>)>,
}

/// Integrates a built model over `[simulation]`.
pub fn simulate(m: &MbsModel, b: &BuiltMbs, quiet: bool) -> Result<MbsRun> {
    let sim = m.spec.simulation.as_ref().ok_or_else(|| ModelError {
        file: m.file.clone(),
        line: 0,
        message: "missing section [simulation] (integrator, t_end, dt): needed by `phlex run`"
            .into(),
    })?;
    let t_end = *sim.t_end.get_ref();
    let mb = &b.mb;
    let mut rec = Recorder::new(m, mb, &b.input)?;
    let mut progress = Progress::new(0.0, t_end, quiet);
    let x0 = &b.init.state;
    let start = Instant::now();
    let (stats, integrator, step_res, mid_drift, work): (
        SolverStats,
        String,
        Option<f64>,
        f64,
        Option<Vec<f64>>,
    ) = match sim.integrator {
        MbsIntegrator::Midpoint => {
            let h = *sim.dt.as_ref().context("dt checked at parse")?.get_ref();
            let variant = match sim.scheme.unwrap_or(SchemeSpec::DiscreteGradient) {
                SchemeSpec::DiscreteGradient => MidpointVariant::DiscreteGradient,
                SchemeSpec::Midpoint => MidpointVariant::Midpoint,
            };
            let get =
                |v: &Option<Spanned<f64>>, d: f64| v.as_ref().map(|s| *s.get_ref()).unwrap_or(d);
            let params = MidpointParams {
                step: FixedStepParams {
                    t0: 0.0,
                    t_end,
                    h,
                    output_every: m.spec.output.every,
                },
                newton: NewtonParams {
                    rtol: get(&sim.newton_rtol, 1e-12),
                    atol: get(&sim.newton_atol, 1e-12),
                    max_iterations: sim
                        .newton_max_iterations
                        .as_ref()
                        .map(|v| *v.get_ref() as usize)
                        .unwrap_or(20),
                    modified: false,
                    ..Default::default()
                },
                variant,
            };
            let mut integ =
                MultibodyMidpoint::new(mb, b.input.clone(), params).map_err(|e| m.convert(e))?;
            let run = integ
                    .run(x0, &mut |t: f64, x: &[f64]| {
                        rec.record(t, x);
                        progress.update(t);
                    })
                    .map_err(|e| m.convert(e))
                    .with_context(|| {
                        format!(
                            "midpoint integration of '{}' failed (dt = {h:e} s); try a smaller [simulation] dt, or looser newton_rtol/newton_atol",
                            b.name
                        )
                    })?;
            let l = &run.result.ledger;
            let work = (l.supplied.len() == rec.rows.len()).then(|| {
                l.supplied
                    .iter()
                    .map(|v| v.iter().fold(0.0, |a, b| a + b))
                    .collect()
            });
            (
                run.result.stats,
                format!(
                    "midpoint ({}), dt = {h:e} s",
                    if variant == MidpointVariant::DiscreteGradient {
                        "discrete gradient, exact discrete power balance"
                    } else {
                        "implicit midpoint rule"
                    }
                ),
                Some(run.max_step_residual),
                run.max_drift,
                work,
            )
        }
        MbsIntegrator::Radau5 => {
            let rtol = sim.rtol.as_ref().map(|v| *v.get_ref()).unwrap_or(1e-8);
            let atol = sim.atol.as_ref().map(|v| *v.get_ref()).unwrap_or(1e-10);
            let mut params = Radau5Params::with_tolerances(rtol, atol);
            params.h0 = sim.dt.as_ref().map(|v| *v.get_ref());
            let n = m.spec.output.samples;
            let grid: Vec<f64> = (0..=n).map(|k| t_end * k as f64 / n as f64).collect();
            let sol = run_radau(
                    mb,
                    b.input.clone(),
                    params,
                    0.0,
                    x0,
                    t_end,
                    OutputTimes::Grid(&grid),
                    &mut |t: f64, x: &[f64]| {
                        rec.record(t, x);
                        progress.update(t);
                    },
                )
                .map_err(|e| m.convert(e))
                .with_context(|| {
                    format!(
                        "Radau IIA integration of '{}' failed (rtol = {rtol:e}, atol = {atol:e}); check the initial conditions or loosen the tolerances",
                        b.name
                    )
                })?;
            (
                sol.stats,
                format!("radau5 (rtol = {rtol:e}, atol = {atol:e}; balance from output samples)"),
                None,
                0.0,
                None,
            )
        }
    };
    progress.finish();
    let wall = start.elapsed().as_secs_f64();
    // Cumulative supplied work: exact per step (midpoint ledger) or trapezoidal on samples.
    let work = work.unwrap_or_else(|| {
        let mut w = Vec::with_capacity(rec.rows.len());
        let mut acc = 0.0;
        for k in 0..rec.rows.len() {
            if k > 0 {
                let h = rec.rows[k][0] - rec.rows[k - 1][0];
                acc += 0.5 * h * (rec.power[k] + rec.power[k - 1]);
            }
            w.push(acc);
        }
        w
    });
    for (r, w) in rec.rows.iter_mut().zip(&work) {
        r[5] = *w;
    }
    let rows = &rec.rows;
    let n = rows.len();
    anyhow::ensure!(n >= 1, "no samples recorded");
    let h0 = rows[0][4];
    let mut scale = f64::MIN_POSITIVE;
    let mut drift = 0.0f64;
    let mut cdrift = mid_drift;
    let mut sample_res = 0.0f64;
    for (k, r) in rows.iter().enumerate() {
        scale = scale.max(r[1] + r[2] + r[3].abs()).max(r[5].abs());
        drift = drift.max((r[4] - h0 - r[5]).abs());
        cdrift = cdrift.max(*r.last().unwrap_or(&0.0));
        if k > 0 {
            let p = &rows[k - 1];
            sample_res = sample_res.max((r[4] - p[4] - (r[5] - p[5])).abs());
        }
    }
    let pb = step_res.unwrap_or(sample_res);
    let last = &rows[n - 1];
    let summary = MbsSummary {
        model: b.name.clone(),
        integrator,
        states: mb.n(),
        constraints: mb.n_constraints(),
        final_time: last[0],
        steps: stats.steps,
        rejected_steps: stats.rejected_steps,
        newton_iterations: stats.newton_iterations,
        factorizations: stats.factorizations,
        initial_position_residual: b.init.position_residual,
        initial_velocity_residual: b.init.velocity_residual,
        h_initial: h0,
        h_final: last[4],
        energy_supplied: last[5],
        energy_scale: scale,
        energy_drift: drift / scale,
        power_balance_residual: pb,
        power_balance_residual_relative: pb / scale,
        max_constraint_drift: cdrift,
        wall_time_s: wall,
        outputs: Vec::new(),
    };
    let mut series = TimeSeries::new(rec.names.clone());
    series.rows = std::mem::take(&mut rec.rows);
    Ok(MbsRun {
        series,
        summary,
        groups: rec.groups.clone(),
    })
}

/// SVG plots of a run: energies, energy balance, constraint drift and one plot per group
/// of requested outputs.
fn plots(m: &MbsModel, run: &MbsRun) -> Result<Vec<(String, Vec<u8>)>> {
    let s = &run.series;
    let name = &m.spec.model.name;
    let t = s.column(0);
    let col = |k: usize| s.column(k);
    let mut files = Vec::new();
    let (k, d, p, h) = (col(1), col(2), col(3), col(4));
    files.push((
        "energy.svg".to_string(),
        svg_plot(
            &format!("{name}: energies"),
            "t [s]",
            &[
                ("kinetic [J]", &t, &k),
                ("deformation [J]", &t, &d),
                ("potential [J]", &t, &p),
                ("H [J]", &t, &h),
            ],
        )?
        .into_bytes(),
    ));
    let h0 = h.first().copied().unwrap_or(0.0);
    let w = col(5);
    let bal: Vec<f64> = h.iter().zip(&w).map(|(a, b)| a - h0 - b).collect();
    files.push((
        "energy_balance.svg".into(),
        svg_plot(
            &format!("{name}: H(t) - H(0) - W(t)"),
            "t [s]",
            &[("H - H0 - W [J]", &t, &bal)],
        )?
        .into_bytes(),
    ));
    let nd = s.names.len() - 1;
    let dr = col(nd);
    files.push((
        "drift.svg".into(),
        svg_plot(
            &format!("{name}: position-level constraint drift"),
            "t [s]",
            &[("max joint violation [m or rad]", &t, &dr)],
        )?
        .into_bytes(),
    ));
    for (group, range) in &run.groups {
        if range.is_empty() {
            continue;
        }
        let title = match *group {
            "positions" => "point positions and poses [m, rad]",
            "elastic" => "elastic displacements",
            "reactions" => "joint reactions [N, N m]",
            _ => "port inputs, outputs and powers",
        };
        let cols: Vec<Vec<f64>> = range.clone().map(col).collect();
        let series: Vec<(&str, &[f64], &[f64])> = range
            .clone()
            .zip(&cols)
            .map(|(k, c)| (s.names[k].as_str(), t.as_slice(), c.as_slice()))
            .collect();
        files.push((
            format!("{group}.svg"),
            svg_plot(&format!("{name}: {title}"), "t [s]", &series)?.into_bytes(),
        ));
    }
    Ok(files)
}

/// `phlex run` for a multibody model: builds, makes the initial state consistent,
/// integrates, and writes `timeseries.csv`, `summary.json` and SVG plots into `dir`.
pub fn run(path: &Path, text: &str, dir: &Path, quiet: bool) -> Result<()> {
    let m = MbsModel::parse(&path.display().to_string(), text)?;
    let b = m.build()?;
    if m.spec.simulation.is_none() {
        return Err(ModelError {
            file: m.file.clone(),
            line: 0,
            message: "missing section [simulation] (integrator, t_end, dt): needed by `phlex run`"
                .into(),
        }
        .into());
    }
    if !quiet {
        eprintln!(
            "phlex run: {} — {} bodies, {} joints, {} states, {} constraints",
            b.name,
            b.mb.bodies().len(),
            b.mb.joint_names().len(),
            b.mb.n(),
            b.mb.n_constraints()
        );
    }
    let mut r = simulate(&m, &b, quiet)?;
    let mut files = vec![("timeseries.csv".to_string(), r.series.to_csv()?)];
    if m.spec.output.plots {
        files.extend(plots(&m, &r)?);
    }
    r.summary.outputs = files
        .iter()
        .map(|(n, _)| dir.join(n).display().to_string())
        .collect();
    r.summary
        .outputs
        .push(dir.join("summary.json").display().to_string());
    let json = serde_json::to_vec_pretty(&r.summary)?;
    for (name, bytes) in &files {
        write_atomic(&dir.join(name), bytes)?;
    }
    write_atomic(&dir.join("summary.json"), &json)?;
    print!("{}", r.summary.table());
    println!("  results in {}", dir.display());
    Ok(())
}

/// `phlex check` for a multibody model: parse, validate, build (redundancy check) and make
/// the initial state consistent; writes nothing.
pub fn check(path: &Path, text: &str) -> Result<()> {
    let m = MbsModel::parse(&path.display().to_string(), text)?;
    let b = m.build()?;
    let mb = &b.mb;
    println!("{}: ok", m.file);
    println!("  model       {} (planar multibody)", b.name);
    for (k, body) in mb.bodies().iter().enumerate() {
        println!(
            "  body        {}: {} states, {} elastic DOFs, mass {:.6e} kg, ports {}",
            body.body_name(),
            mb.body_range(k).len(),
            body.n_elastic(),
            body.mass(),
            body.port_names()
        );
    }
    println!(
        "  joints      {} ({} constraint rows, full rank at the initial configuration)",
        if mb.joint_names().is_empty() {
            "none".to_string()
        } else {
            mb.joint_names().join(", ")
        },
        mb.n_constraints()
    );
    let ports = mb.ports().names();
    println!(
        "  input ports {}",
        if ports.is_empty() {
            "none".to_string()
        } else {
            ports.join(", ")
        }
    );
    println!("  states      {}", mb.n());
    println!(
        "  initial     position residual {:.3e} -> {:.3e}, velocity residual {:.3e} -> {:.3e}",
        b.init.position_residual.0,
        b.init.position_residual.1,
        b.init.velocity_residual.0,
        b.init.velocity_residual.1
    );
    Ok(())
}

/// `phlex modes` for a multibody model: constrained eigenfrequencies of the linearisation
/// about the (consistent) initial configuration; table, and JSON with `json`.
pub fn modes(path: &Path, text: &str, count: Option<usize>, json: Option<&Path>) -> Result<()> {
    let m = MbsModel::parse(&path.display().to_string(), text)?;
    let b = m.build()?;
    let n = count.unwrap_or(m.spec.modes.count);
    let rows = m.modes(&b, n)?;
    println!(
        "{}: {} states, {} constraints, first {} constrained modes about the initial configuration",
        b.name,
        b.mb.n(),
        b.mb.n_constraints(),
        rows.len()
    );
    println!(
        "  {:>4}  {:>16}  {:>16}  {:>10}",
        "mode", "omega [rad/s]", "f [Hz]", "zeta"
    );
    for r in &rows {
        println!(
            "  {:>4}  {:>16.8e}  {:>16.8e}  {:>10.3e}",
            r.mode, r.omega, r.frequency_hz, r.damping_ratio
        );
    }
    if let Some(j) = json {
        #[derive(Serialize)]
        struct Out<'a> {
            model: &'a str,
            states: usize,
            constraints: usize,
            modes: &'a [ModeRow],
        }
        let bytes = serde_json::to_vec_pretty(&Out {
            model: &b.name,
            states: b.mb.n(),
            constraints: b.mb.n_constraints(),
            modes: &rows,
        })?;
        write_atomic(j, &bytes)?;
        println!("  written {}", j.display());
    }
    Ok(())
}
