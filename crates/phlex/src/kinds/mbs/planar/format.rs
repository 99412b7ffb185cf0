//! The multibody model file as serde structures (`deny_unknown_fields`, [`Spanned`] values
//! so that validation errors name the key and its line); format in
//! `docs/model-format-mbs.md`.
use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::spec::{ModelMeta, SignalSpec};

/// Top level of a multibody model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MbsFile {
    /// Gravity vector (inertial frame) \[m/s²\]; a top-level key (before the first table).
    pub gravity: Option<Spanned<[f64; 2]>>,
    /// Name and description.
    pub model: ModelMeta,
    /// Bodies by name.
    pub bodies: BTreeMap<String, BodySpec>,
    /// Joints by name.
    #[serde(default)]
    pub joints: BTreeMap<String, JointSpec>,
    /// Force elements (spring-dampers) by name.
    #[serde(default)]
    pub forces: BTreeMap<String, crate::kinds::mbs::forces::ForceSpec>,
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
    /// Planar rigid body ([`RigidBody2d`](phlex_mbs::RigidBody2d)).
    Rigid,
    /// Planar floating flexible beam ([`FloatingBeam2d`](phlex_mbs::FloatingBeam2d)).
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
    pub theta: Option<f64>,
    /// $\theta$ \[deg\] (alternative to `theta`).
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
    pub inertia: Option<Spanned<f64>>,
}

/// `[bodies.NAME]`: a rigid body or a floating beam (keys per kind).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodySpec {
    /// `"rigid"` or `"beam"`.
    pub kind: Spanned<BodyKind>,
    /// Rigid: mass \[kg\].
    pub mass: Option<Spanned<f64>>,
    /// Rigid: rotary inertia about the centre of mass \[kg m²\] (default 0).
    pub inertia: Option<Spanned<f64>>,
    /// Rigid: centre of mass relative to `P`, body frame \[m\] (default (0, 0)).
    pub com: Option<Spanned<[f64; 2]>>,
    /// Beam: length \[m\].
    pub length: Option<Spanned<f64>>,
    /// Beam: density ρ \[kg/m³\].
    pub density: Option<Spanned<f64>>,
    /// Beam: Young's modulus E \[Pa\].
    pub youngs_modulus: Option<Spanned<f64>>,
    /// Beam: cross-section area A \[m²\].
    pub area: Option<Spanned<f64>>,
    /// Beam: second moment of area I \[m⁴\].
    pub second_moment: Option<Spanned<f64>>,
    /// Beam: diameter of a solid circular section \[m\] (instead of `area`, `second_moment`).
    pub diameter: Option<Spanned<f64>>,
    /// Beam: mass per length ρA \[kg/m\] (with `axial_stiffness`, `bending_stiffness`,
    /// instead of material data).
    pub mass_per_length: Option<Spanned<f64>>,
    /// Beam: axial stiffness EA \[N\].
    pub axial_stiffness: Option<Spanned<f64>>,
    /// Beam: bending stiffness EI \[N m²\].
    pub bending_stiffness: Option<Spanned<f64>>,
    /// Beam: number of elements.
    pub elements: Option<Spanned<i64>>,
    /// Beam: deformation boundary condition.
    pub deformation_bc: Option<Spanned<BcSpec>>,
    /// Beam: gyroscopic coefficient (default `consistent`).
    pub gyroscopic: Option<GyroSpec>,
    /// Beam: geometric (stress) stiffening, von Kármán axial strain (default false).
    pub geometric_stiffening: Option<Spanned<bool>>,
    /// Beam: `"constant"` (default: the constant mass operator of paper 000 §4.3) or
    /// `"full"` (deformation-dependent mass operator, mass points at x + u_f: centrifugal
    /// softening).
    pub mass_operator: Option<Spanned<String>>,
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
    pub b: Option<Spanned<String>>,
    /// Slider: direction of the line.
    pub direction: Option<Spanned<[f64; 2]>>,
    /// Prescribed velocity: $v_x(t)$ \[m/s\].
    pub vx: Option<Spanned<SignalSpec>>,
    /// Prescribed velocity: $v_y(t)$ \[m/s\].
    pub vy: Option<Spanned<SignalSpec>>,
    /// Prescribed velocity: $\omega(t)$ \[rad/s\] (omit to leave the rotation free).
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
    pub fx: Option<Spanned<SignalSpec>>,
    /// $F_y(t)$ \[N\].
    pub fy: Option<Spanned<SignalSpec>>,
    /// $T(t)$ \[N m\].
    pub torque: Option<Spanned<SignalSpec>>,
}

/// `[initial]` (planar and spatial models).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InitialSpec {
    /// Correct the poses and velocities to satisfy the joints (default true); with
    /// `false` the given state must already be consistent.
    pub correct: bool,
    /// Kept at their given values: coordinates `"body.x"`, `"body.y"`, `"body.theta"`
    /// (planar models) or the poses of bodies `"body"` (spatial models).
    pub lock: Vec<Spanned<String>>,
    /// Position tolerance \[m, rad\] (default 1e-12).
    pub position_tol: Option<Spanned<f64>>,
    /// Velocity tolerance used when `correct = false` \[m/s, rad/s\] (default 1e-10).
    pub velocity_tol: Option<Spanned<f64>>,
    /// Redundant joint constraint rows at the initial configuration: `"reject"` (default,
    /// a model error naming them) or `"remove"` (release them, for consistent
    /// over-constrained mechanisms).
    pub redundant_constraints: RedundancySpec,
}

/// `[initial] redundant_constraints`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RedundancySpec {
    /// A model error that names each redundant row and its dependent set.
    #[default]
    Reject,
    /// Release the redundant rows (left out of the constraints, multipliers zero).
    Remove,
}

impl Default for InitialSpec {
    fn default() -> Self {
        Self {
            correct: true,
            lock: Vec::new(),
            position_tol: None,
            velocity_tol: None,
            redundant_constraints: RedundancySpec::Reject,
        }
    }
}

/// `[simulation]`: the section shared by every kind ([`crate::spec::SimulationSpec`]).
pub use crate::spec::SimulationSpec as MbsSimulationSpec;

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
#[serde(deny_unknown_fields, default)]
pub struct MbsOutputSpec {
    /// Named point positions: `name = "body.port"` → columns `name.x`, `name.y`.
    pub points: BTreeMap<String, Spanned<String>>,
    /// Bodies whose pose is recorded → `body.x`, `body.y`, `body.theta`.
    pub poses: Vec<Spanned<String>>,
    /// Elastic displacements.
    pub elastic: Vec<ElasticSpec>,
    /// Joints whose reactions (multipliers) are recorded.
    pub reactions: Vec<Spanned<String>>,
    /// Ports (loads, prescribed-velocity joints) whose input, output and power are recorded.
    pub ports: Vec<Spanned<String>>,
    /// Per-body energy columns.
    pub body_energies: bool,
    /// Write SVG plots.
    pub plots: bool,
}

impl Default for MbsOutputSpec {
    fn default() -> Self {
        Self {
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

/// `[modes]`: the same section as for beam models.
pub use crate::spec::ModesSpec as MbsModesSpec;
