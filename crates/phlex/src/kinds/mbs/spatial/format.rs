//! The spatial multibody model file as serde structures (`deny_unknown_fields`,
//! [`Spanned`] values so that errors name the key and its line); format in
//! `docs/model-format-mbs.md` (section "Spatial (3D) models"). The sections `[model]`,
//! `[initial]`, `[simulation]`, the signal syntax and the serde defaults are those of the planar format
//! ([`crate::kinds::mbs`]).
use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::kinds::mbs::planar::format::{BcSpec, FrameSpec, InitialSpec, MbsSimulationSpec};
use crate::spec::{ModelMeta, SignalSpec};

/// Top level of a spatial multibody model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mbs3dFile {
    /// Gravity vector (inertial frame) \[m/s²\]; a top-level key.
    pub gravity: Option<Spanned<[f64; 3]>>,
    /// Name and description.
    pub model: ModelMeta,
    /// Bodies by name.
    pub bodies: BTreeMap<String, Body3dSpec>,
    /// Joints by name.
    #[serde(default)]
    pub joints: BTreeMap<String, Joint3dSpec>,
    /// Force elements (spring-dampers) by name.
    #[serde(default)]
    pub forces: BTreeMap<String, crate::kinds::mbs::forces::ForceSpec>,
    /// Named inertial points (`origin` = (0, 0, 0) always exists).
    #[serde(default)]
    pub ground: BTreeMap<String, Spanned<[f64; 3]>>,
    /// Forces and torques at body ports.
    #[serde(default)]
    pub load: Vec<Load3dSpec>,
    /// Consistent initial conditions.
    #[serde(default)]
    pub initial: InitialSpec,
    /// Time integration (needed by `phlex run`), as for planar models.
    pub simulation: Option<MbsSimulationSpec>,
    /// What to record.
    #[serde(default)]
    pub output: Output3dSpec,
}

/// Spatial body kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Body3dKind {
    /// Rigid body ([`RigidBody3d`](phlex_mbs::RigidBody3d), paper 000 Remark 4).
    Rigid3d,
    /// Floating flexible beam ([`FloatingBeam3d`](phlex_mbs::body::floating_beam::spatial::FloatingBeam3d)).
    Beam3d,
}

/// Central inertia: principal moments `[Jx, Jy, Jz]` or a full symmetric 3×3 tensor.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(untagged)]
pub enum InertiaSpec {
    /// Diagonal (principal axes along the body axes).
    Diagonal([f64; 3]),
    /// Full tensor (body frame).
    Full([[f64; 3]; 3]),
}

/// `lumped = [{ port, mass, inertia }]`: a mass point at a port with an optional inertia
/// tensor about it (body frame; diagonal `[Jxx, Jyy, Jzz]` or full 3 × 3).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lumped3dSpec {
    /// Port name (`P`, `C` or a declared port).
    pub port: String,
    /// Mass \[kg\].
    pub mass: f64,
    /// Rotary inertia about the port \[kg m²\] (default none).
    pub inertia: Option<InertiaSpec>,
}

impl Lumped3dSpec {
    /// The library's lumped mass.
    pub fn to_lumped(&self) -> phlex_mbs::LumpedMass3d {
        let l = phlex_mbs::LumpedMass3d::new(self.port.clone(), self.mass);
        match self.inertia {
            None => l,
            Some(InertiaSpec::Diagonal(d)) => {
                l.inertia([[d[0], 0.0, 0.0], [0.0, d[1], 0.0], [0.0, 0.0, d[2]]])
            }
            Some(InertiaSpec::Full(j)) => l.inertia(j),
        }
    }
}

/// Initial rotation (body to inertial): `{ axis, angle }`, `{ axis, angle_deg }` or
/// `{ matrix }`.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RotationSpec {
    /// Rotation axis (inertial, need not be unit).
    pub axis: Option<[f64; 3]>,
    /// Angle \[rad\].
    pub angle: Option<f64>,
    /// Angle \[deg\].
    pub angle_deg: Option<f64>,
    /// The rotation matrix itself (rows), orthonormal with determinant 1.
    pub matrix: Option<[[f64; 3]; 3]>,
}

/// `[bodies.NAME]`: a 3D rigid body or a 3D floating beam (keys per kind).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Body3dSpec {
    /// `"rigid3d"` or `"beam3d"`.
    pub kind: Spanned<Body3dKind>,
    /// Rigid: mass \[kg\].
    pub mass: Option<Spanned<f64>>,
    /// Rigid: central inertia \[kg m²\] (default 0: point mass).
    pub inertia: Option<Spanned<InertiaSpec>>,
    /// Rigid: centre of mass relative to `P`, body frame \[m\].
    pub com: Option<Spanned<[f64; 3]>>,
    /// Beam: length \[m\].
    pub length: Option<Spanned<f64>>,
    /// Beam: density \[kg/m³\].
    pub density: Option<Spanned<f64>>,
    /// Beam: Young's modulus \[Pa\].
    pub youngs_modulus: Option<Spanned<f64>>,
    /// Beam: shear modulus \[Pa\] (or `poisson_ratio`).
    pub shear_modulus: Option<Spanned<f64>>,
    /// Beam: Poisson's ratio $\nu$, $G = E/(2(1+\nu))$.
    pub poisson_ratio: Option<Spanned<f64>>,
    /// Beam: diameter of a solid circular section \[m\].
    pub diameter: Option<Spanned<f64>>,
    /// Beam: width (along body y) of a solid rectangular section \[m\].
    pub width: Option<Spanned<f64>>,
    /// Beam: height (along body z) of a solid rectangular section \[m\].
    pub height: Option<Spanned<f64>>,
    /// Beam: number of elements.
    pub elements: Option<Spanned<i64>>,
    /// Beam: deformation boundary condition.
    pub deformation_bc: Option<Spanned<BcSpec>>,
    /// Beam: mass operator, `"constant"` (default, paper 000 §4.3) or `"full"`
    /// (deformation-dependent inertia: mass points at their deformed positions,
    /// [`phlex_mbs::FloatingBeam3d::full_inertia`]).
    pub mass_operator: Option<Spanned<String>>,
    /// Beam: geometric (stress) stiffening, von Kármán axial strain
    /// $u_x' + \frac12(u_y'^2 + u_z'^2)$ in both bending planes (default false;
    /// [`phlex_mbs::FloatingBeam3d::geometric_stiffening`], paper 000 Remark 3).
    pub geometric_stiffening: Option<Spanned<bool>>,
    /// Ports: rigid `name = [x, y, z]` (body frame), beam `name = x` (material coordinate).
    #[serde(default)]
    pub ports: BTreeMap<String, Spanned<toml::Value>>,
    /// Point masses / lumped inertias attached at ports (paper 000 §6.2, in 3D).
    #[serde(default)]
    pub lumped: Vec<Lumped3dSpec>,
    /// Initial position of `P` \[m\].
    #[serde(default)]
    pub position: [f64; 3],
    /// Initial rotation.
    pub rotation: Option<Spanned<RotationSpec>>,
    /// Initial velocity of `P` \[m/s\] (frame: `twist_frame`).
    #[serde(default)]
    pub velocity: [f64; 3],
    /// Initial angular velocity \[rad/s\] (frame: `twist_frame`).
    #[serde(default)]
    pub angular_velocity: [f64; 3],
    /// Frame of `velocity` and `angular_velocity` (default inertial).
    #[serde(default = "inertial")]
    pub twist_frame: FrameSpec,
}

fn inertial() -> FrameSpec {
    FrameSpec::Inertial
}

/// Spatial joint kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Joint3dKindSpec {
    /// Ball joint (to ground: fixed point).
    Spherical,
    /// Hinge about `axis` (to ground: fixed point and axis).
    Revolute,
    /// Slider along `axis`, no relative rotation.
    Prismatic,
    /// Rigid connection (to ground: fixed frame).
    Weld,
    /// Port driven with a prescribed velocity (and angular velocity).
    PrescribedVelocity,
}

/// Frame of a joint axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum AxisFrameSpec {
    /// Inertial frame at the initial configuration.
    #[default]
    Inertial,
    /// Body frame of side a.
    Body,
}

/// `[joints.NAME]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Joint3dSpec {
    /// Kind.
    pub kind: Spanned<Joint3dKindSpec>,
    /// `"body.port"` of side a.
    pub a: Spanned<String>,
    /// `"body.port"` or `"ground.point"` of side b (`"ground"` = `"ground.origin"`, the
    /// default).
    pub b: Option<Spanned<String>>,
    /// Revolute / prismatic: axis.
    pub axis: Option<Spanned<[f64; 3]>>,
    /// Frame of `axis` (default inertial).
    #[serde(default)]
    pub axis_frame: AxisFrameSpec,
    /// Prescribed velocity: inertial $v(t)$ \[m/s\].
    pub velocity: Option<Spanned<[SignalSpec; 3]>>,
    /// Prescribed velocity: $\omega(t)$ \[rad/s\] (omit to leave the rotation free).
    pub angular_velocity: Option<Spanned<[SignalSpec; 3]>>,
    /// Frame of `angular_velocity` (default body).
    #[serde(default)]
    pub angular_velocity_frame: FrameSpec,
}

/// `[[load]]`: a force and torque at a body port.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Load3dSpec {
    /// Port name of the load (an input port of the system).
    pub name: Spanned<String>,
    /// `"body.port"`.
    pub at: Spanned<String>,
    /// Frame of the components (default body).
    #[serde(default)]
    pub frame: FrameSpec,
    /// Force \[N\].
    pub force: Option<Spanned<[SignalSpec; 3]>>,
    /// Torque \[N m\].
    pub torque: Option<Spanned<[SignalSpec; 3]>>,
}

/// `[output]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Output3dSpec {
    /// Named point positions `name = "body.port"` → `name.x`, `name.y`, `name.z`.
    pub points: BTreeMap<String, Spanned<String>>,
    /// Bodies whose pose is recorded → `B.x B.y B.z` (position of `P`) and `B.rx B.ry B.rz`
    /// (rotation vector of R).
    pub poses: Vec<Spanned<String>>,
    /// Bodies whose velocities are recorded → `B.vx B.vy B.vz` (inertial velocity of `P`)
    /// and `B.wx B.wy B.wz` (inertial angular velocity).
    pub velocities: Vec<Spanned<String>>,
    /// Joints whose energy-free states are recorded (relative angle, slide coordinate,
    /// target position).
    pub joint_states: Vec<Spanned<String>>,
    /// Joints whose reactions (multipliers) are recorded.
    pub reactions: Vec<Spanned<String>>,
    /// Ports (loads, prescribed velocities) whose input, output and power are recorded.
    pub ports: Vec<Spanned<String>>,
    /// Per-body energy columns.
    pub body_energies: bool,
    /// Write SVG plots.
    pub plots: bool,
}

impl Default for Output3dSpec {
    fn default() -> Self {
        Self {
            points: BTreeMap::new(),
            poses: Vec::new(),
            velocities: Vec::new(),
            joint_states: Vec::new(),
            reactions: Vec::new(),
            ports: Vec::new(),
            body_energies: false,
            plots: true,
        }
    }
}
