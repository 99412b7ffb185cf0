//! The EPHS model file: components, patterns, their composition, initial state and
//! simulation settings in TOML (issue 5 §2; the user documentation is
//! `docs/model-format-ephs.md`). Parsing is strict (unknown keys are errors); every error
//! names the key and its line. The keys are those of the one vocabulary of the model
//! files (`reference_temperature`, `stiffness`, `mass`, `damping`, `gravity`, `[[input]]`).
//!
//! # Format
//! ```toml
//! gravity = [0.0, 0.0, -9.81]     # acceleration vector on every rigid body (default none)
//!
//! [model]
//! name = "damped oscillator"      # free text
//! reference_temperature = 300.0   # θ0 > 0 [K] (default 300)
//! top = "dosc"                    # the component or pattern that is simulated
//!
//! # Primitive (or library) components: `kind` and its parameters.
//! [components.spring]
//! kind = "hookean_spring"         # storage E = ½ k q², port q (ℝ, displacement)
//! stiffness = 1.0
//! [components.mass]
//! kind = "point_mass"             # storage E = p²/2m, port p (ℝ, momentum)
//! mass = 1.0
//! [components.coupling]
//! kind = "pkc"                    # Poisson [[0, −1], [1, 0]], ports q, p
//! [components.friction]
//! kind = "linear_friction"        # Onsager eq. (6), ports p (momentum), s (entropy)
//! damping = 0.1
//! # or: kind = "nonlinear_friction"  # regularised Coulomb + viscous, F = (d + mu_c tanh(|v|/v_s)/|v|) v
//! #     damping = 0.0 (d), coulomb_friction = 0.05 (mu_c), regularization_velocity = 1e-3 (v_s)
//! [components.env]
//! kind = "environment"            # port s (ℝ, entropy), effort 0
//!
//! # Interconnection patterns: junctions typed by quantity, outer ports, boxes filled by
//! # components or other patterns (by name); `ports` wires each port of the filling
//! # system to a junction.
//! [patterns.osc]
//! junctions = { q = "displacement", p = "momentum" }
//! expose = { p = "p" }            # outer power port → junction (`expose_state` for state ports)
//! boxes.pe = { fill = "spring", ports = { q = "q" } }
//! boxes.ke = { fill = "mass", ports = { p = "p" } }
//! boxes.pkc = { fill = "coupling", ports = { q = "q", p = "p" } }
//!
//! [patterns.dosc]
//! junctions = { p = "momentum", s = "entropy" }
//! boxes.osc = { fill = "osc", ports = { p = "p" } }
//! boxes.mf = { fill = "friction", ports = { p = "p", s = "s" } }
//! boxes.env = { fill = "env", ports = { s = "s" } }
//!
//! [initial]                       # states by hierarchical name (default 0 / identity)
//! "osc.pe.q" = 1.0
//!
//! [simulation]
//! t_end = 20.0
//! integrator = "radau5"           # or "midpoint" (energy-consistent Lie-group midpoint)
//! rtol = 1e-8                     # radau5 tolerances
//! atol = 1e-10
//! dt = 0.01                       # midpoint step (required for "midpoint")
//! output_every = 10               # midpoint: record every k-th step (default 1)
//! output_samples = 200            # radau5: uniform output intervals (default 200)
//! projection = false              # true: drift projection (midpoint only; see below)
//! initial_velocities = "check"    # or "project" (see "Joint coordinates" below)
//! ```
//!
//! A box may declare its own interface, independent of its filling (seed 001 §2: "a
//! pattern may fill an inner box if its outer interface equals that box's interface, up
//! to renaming ports"): `interface = { port = quantity, … }` (power ports),
//! `interface_state = { … }` (state ports) and `rename = { box_port = "system_port" }`;
//! `ports` then wires the box ports, and a filling whose interface differs (after the
//! renaming) is an interface-mismatch error naming the box and the port:
//! ```toml
//! boxes.osc = { fill = "osc", interface = { q = "momentum" }, rename = { q = "p" }, ports = { q = "p" } }
//! ```
//!
//! **Quantities** are `"displacement"`, `"momentum"`, `"entropy"` (all ℝ), `"pose"`
//! (SE(3)), `"body_momentum"` (se(3)*), or `{ name = "...", space = "R" | "R3" | "SE3" |
//! "se3*" | "SO3" | "so3*" }`.
//!
//! **Component kinds:** `hookean_spring {stiffness}`, `point_mass {mass}`, `pkc`,
//! `linear_friction {damping}`, `nonlinear_friction {damping, coulomb_friction,
//! regularization_velocity}` (regularised Coulomb + viscous,
//! [`mechanics::nonlinear_friction`]; $d \ge 0$, $\mu_c \ge 0$, $v_s > 0$), `environment`,
//! the composite `rigid_body {mass, inertia}` (seed 001 Fig. 2, port p: body momentum;
//! `inertia` = `[J1, J2, J3]` (principal) or a 3×3 array; the potential of the top-level
//! `gravity` $\mathbf g$, $V = -m\,\mathbf g\cdot r$), the
//! composite `joint {pair, pitch, o1, o2, friction, stiffness}` (Fig. 3, ports p1, p2;
//! `pair` = revolute | prismatic | cylindrical | screw | planar | spherical; offsets
//! `{ rotation, position }`; `friction` a number, a k×k array or a nonlinear law
//! `{ damping, coulomb_friction, regularization_velocity }`
//! ([`crate::library::joint::nonlinear_joint_friction`])) and `ground` (a fixed
//! frame, port p). Bodies and joints are wired by a pattern with one `body_momentum`
//! junction per body. Initial velocities must satisfy the joint velocity constraints;
//! the algebraic unknowns (joint velocities $u_r$, constraint forces) are computed.
//!
//! **Joint coordinates** $q_r$ (`j.pe.q_r`) that are not given in `[initial]` are computed
//! from the body poses ([`Kinematics::complete_joint_coordinates`]); the initial poses
//! must satisfy the position constraints $q_2o_2 = q_1o_1I(q_r)$ of all joints (to 1e-8)
//! and the initial momenta their velocity constraints, else [`Model::build`] fails naming
//! the joint or the residual. With `initial_velocities = "project"` in `[simulation]`
//! the momenta are replaced by the nearest consistent ones (constraint impulses,
//! [`Kinematics::project_velocities`]).
//!
//! **Drift stabilisation** (`projection = true`, midpoint integrator only):
//! after every step the positions are projected onto the joints' position constraints and
//! the energy level (see [`crate::numerics::lie_midpoint`], "Drift stabilisation"); the
//! drift then stays at round-off (1e-13) and $E_{mech} + \theta_0 s$ remains conserved to
//! Newton tolerance. Off by default: the drift is then monitored only.
//!
//! **Diagnostics** recorded per output time ([`Trajectory`]): $E_{mech}$, entropy,
//! $E_{mech} + \theta_0 s$, the exergy destruction rate of every irreversible component,
//! the power into every outer power port of the top system, the total spatial momentum of
//! the rigid bodies, the position drift of every joint and the accumulated projection
//! work ([`Trajectory::diagnostic_columns`]).
//!
//! **Initial values** are a number, an array (all coordinates), or for poses
//! `{ rotation = [ω1, ω2, ω3], position = [x, y, z] }` (rotation vector, $R = \exp\tilde\omega$).
//!
//! **Inputs** of an open top system (outer ports) are given in `[[input]]` tables, by the
//! names of [`EphsDae::input_names`], with the signal syntax of every model kind
//! ([`SignalSpec`]: a number, an expression of `t` or a typed table):
//! `[[input]] port = "p.f"`, `value = "0.1*sin(t)"` (scalar inputs) or
//! `values = [...]` (one signal per component of a vector input); missing inputs are zero.
use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use toml::Spanned;

use crate::error::EphsError;
use crate::language::interface::{Interface, PortKind};
use crate::language::pattern::Pattern;
use crate::language::quantity::Quantity;
use crate::language::space::{Group, Space};
use crate::language::system::{Composite, System};
use crate::library::kinematics::Kinematics;
use crate::library::{mechanics, rigid_body};
use crate::numerics::{LieMidpoint, LieMidpointParams, Stabilization};
use crate::semantics::{assemble, EphsDae};
use phlex_core::geometry::mat3::Mat3;
use phlex_core::geometry::{so3, Se3};
use phlex_solve::radau5::OutputTimes;
use phlex_solve::signal::SignalSpec;
use phlex_solve::{InputFn, Radau5, Radau5Params, Signal};

/// A model file error: file, line and a message naming the key.
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

/// `[model]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelMeta {
    /// Free text.
    #[serde(default)]
    pub name: String,
    /// Reference temperature θ0 \[K\] (key `reference_temperature`, default 300).
    #[serde(default = "default_theta0")]
    pub reference_temperature: Spanned<f64>,
    /// Name of the simulated component or pattern.
    pub top: Spanned<String>,
}

fn default_theta0() -> Spanned<f64> {
    Spanned::new(0..0, 300.0)
}

/// A quantity: a built-in name or `{ name, space }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum QuantitySpec {
    /// `"displacement"`, `"momentum"`, `"entropy"`, `"pose"`, `"body_momentum"`.
    Named(String),
    /// A custom quantity.
    Full {
        /// Physical name.
        name: String,
        /// Space: `R`, `R<n>`, `SE3`, `se3*`, `SO3`, `so3*`.
        space: String,
    },
}

/// One inner box: the filling system and its port wiring.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxSpec {
    /// Name of a component or pattern.
    pub fill: Spanned<String>,
    /// Box port → junction (the box ports are those of the filling system unless
    /// `interface` declares them).
    #[serde(default)]
    pub ports: BTreeMap<String, Spanned<String>>,
    /// Declared interface of the box: power port → quantity. With it (or
    /// `interface_state`) the box is typed independently of its filling, which must match
    /// it up to `rename`.
    #[serde(default)]
    pub interface: BTreeMap<String, Spanned<QuantitySpec>>,
    /// Declared state ports of the box: port → quantity.
    #[serde(default)]
    pub interface_state: BTreeMap<String, Spanned<QuantitySpec>>,
    /// Box port → port of the filling system (identity for unlisted ports); needs a
    /// declared interface.
    #[serde(default)]
    pub rename: BTreeMap<String, Spanned<String>>,
}

/// `[patterns.NAME]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternSpec {
    /// Junction name → quantity.
    #[serde(default)]
    pub junctions: BTreeMap<String, Spanned<QuantitySpec>>,
    /// Outer power port → junction.
    #[serde(default)]
    pub expose: BTreeMap<String, Spanned<String>>,
    /// Outer state port → junction.
    #[serde(default)]
    pub expose_state: BTreeMap<String, Spanned<String>>,
    /// Box name → box.
    #[serde(default)]
    pub boxes: BTreeMap<String, Spanned<BoxSpec>>,
}

/// Parameters of the component kinds.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ComponentSpec {
    /// Storage $E = \tfrac12kq^2$.
    HookeanSpring {
        /// Stiffness $k$ \[N/m\].
        stiffness: f64,
    },
    /// Storage $E = p^2/2m$.
    PointMass {
        /// Mass $m$ \[kg\].
        mass: f64,
    },
    /// Canonical coupling of displacement and momentum.
    Pkc {},
    /// Linear friction, eq. (6).
    LinearFriction {
        /// Viscous friction coefficient $d \ge 0$ \[N s/m\].
        damping: f64,
    },
    /// Nonlinear friction $F(v) = (d + \mu_c\tanh(\lvert v\rvert/v_s)/\lvert v\rvert)v$
    /// ([`mechanics::nonlinear_friction`]).
    NonlinearFriction {
        /// Viscous coefficient $d \ge 0$ \[N s/m\].
        #[serde(default)]
        damping: f64,
        /// Coulomb friction level $\mu_c \ge 0$ \[N\].
        coulomb_friction: f64,
        /// Regularisation velocity $v_s > 0$ \[m/s\].
        regularization_velocity: f64,
    },
    /// The environment.
    Environment {},
    /// Joint pattern (Fig. 3) between two bodies, ports p1, p2.
    Joint {
        /// `revolute`, `prismatic`, `cylindrical`, `screw`, `planar`, `spherical`.
        pair: String,
        /// Pitch of a screw pair.
        #[serde(default)]
        pitch: f64,
        /// Offset $o_1$ (joint frame in body 1).
        #[serde(default)]
        o1: PoseSpec,
        /// Offset $o_2$ (joint frame in body 2).
        #[serde(default)]
        o2: PoseSpec,
        /// Friction $\mu$: a number ($\mu = cE$) or a $k\times k$ array.
        #[serde(default)]
        friction: FrictionSpec,
        /// Relative spring $V_r = \tfrac12 k|q_r|^2$ in the joint coordinates (not for
        /// spherical pairs).
        #[serde(default)]
        stiffness: f64,
    },
    /// A fixed frame: an infinitely heavy body at rest (effort 0 on its port `p`).
    Ground {},
    /// Rigid body pattern (Fig. 2), under the file's top-level `gravity`.
    RigidBody {
        /// Mass \[kg\].
        mass: f64,
        /// Principal moments `[J1, J2, J3]` or a 3×3 array \[kg m²\].
        inertia: InertiaSpec,
    },
}

/// Inertia: principal moments or a full matrix.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum InertiaSpec {
    /// Principal moments.
    Principal([f64; 3]),
    /// Full symmetric matrix.
    Matrix([[f64; 3]; 3]),
}

/// A pose `{ rotation = [ω1, ω2, ω3], position = [x, y, z] }` (default identity).
#[derive(Debug, Clone, Copy, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PoseSpec {
    /// Rotation vector ω, $R = \exp\tilde\omega$.
    #[serde(default)]
    pub rotation: [f64; 3],
    /// Position.
    #[serde(default)]
    pub position: [f64; 3],
}

impl PoseSpec {
    /// The element of SE(3).
    pub fn se3(&self) -> Se3 {
        Se3::new(so3::exp(self.rotation), self.position)
    }
}

/// Joint friction: isotropic coefficient or matrix.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum FrictionSpec {
    /// $\mu = c\,E$.
    Scalar(f64),
    /// $\mu$ as rows.
    Matrix(Vec<Vec<f64>>),
    /// Nonlinear law `{ damping, coulomb_friction, regularization_velocity }`
    /// ([`crate::library::joint::nonlinear_joint_friction`]).
    Nonlinear(NonlinearFrictionSpec),
}

/// `{ damping, coulomb_friction, regularization_velocity }` of a nonlinear joint friction.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NonlinearFrictionSpec {
    /// Viscous coefficient $d \ge 0$.
    #[serde(default)]
    pub damping: f64,
    /// Coulomb friction level $\mu_c \ge 0$.
    pub coulomb_friction: f64,
    /// Regularisation velocity $v_s > 0$.
    pub regularization_velocity: f64,
}

impl Default for FrictionSpec {
    fn default() -> Self {
        FrictionSpec::Scalar(0.0)
    }
}

/// An initial value.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum InitialValue {
    /// A scalar state.
    Scalar(f64),
    /// All coordinates.
    Vector(Vec<f64>),
    /// A pose from a rotation vector and a position.
    Pose {
        /// Rotation vector ω, $R = \exp\tilde\omega$.
        rotation: [f64; 3],
        /// Position.
        position: [f64; 3],
    },
}

/// The integrator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum IntegratorKind {
    /// Adaptive Radau IIA of `phlex-solve`.
    #[default]
    Radau5,
    /// The energy-consistent Lie-group midpoint rule.
    Midpoint,
}

/// `[simulation]`: the keys of every phlex model kind (`docs/model-format.md`,
/// "`[simulation]`") that apply to EPHS models: `integrator` (`"radau5"`, default, or the
/// energy-consistent Lie-group `"midpoint"`), `t_end`, `rtol`, `atol`, `dt`,
/// `output_every`, `output_samples`, `projection`; and `initial_velocities`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationSpec {
    /// End time > 0.
    pub t_end: Spanned<f64>,
    /// Integrator.
    #[serde(default)]
    pub integrator: IntegratorKind,
    /// Radau5 relative tolerance.
    #[serde(default = "default_rtol")]
    pub rtol: f64,
    /// Radau5 absolute tolerance.
    #[serde(default = "default_atol")]
    pub atol: f64,
    /// Midpoint step \[s\].
    pub dt: Option<Spanned<f64>>,
    /// Midpoint: record every k-th step (default 1).
    pub output_every: Option<Spanned<usize>>,
    /// Radau IIA: number of uniform output intervals (default 200).
    pub output_samples: Option<Spanned<usize>>,
    /// Drift projection of the joints after every step (midpoint only; default false).
    pub projection: Option<Spanned<bool>>,
    /// Initial momenta that violate the joints' velocity constraints: `"check"` (an
    /// error, default) or `"project"` (nearest consistent momenta,
    /// [`Kinematics::project_velocities`]).
    #[serde(default)]
    pub initial_velocities: InitialVelocities,
}

/// `simulation.initial_velocities`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum InitialVelocities {
    /// Inconsistent initial momenta are an error.
    #[default]
    Check,
    /// Inconsistent initial momenta are projected onto the velocity constraints.
    Project,
}

fn default_rtol() -> f64 {
    1e-8
}
fn default_atol() -> f64 {
    1e-10
}

/// `[[input]]`: the signal driving one input of the open top system (an outer port's
/// flow or effort, [`EphsDae::input_names`]), in the `[[input]]` form and the signal syntax
/// ([`SignalSpec`]) of every model kind.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSpec {
    /// Input name (`"p.f"`).
    pub port: Spanned<String>,
    /// The signal of a scalar input.
    pub value: Option<Spanned<SignalSpec>>,
    /// One signal per component of a vector input (or of a scalar one: one signal).
    pub values: Option<Spanned<Vec<SignalSpec>>>,
}

/// A parsed model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelFile {
    /// Gravitational acceleration vector $\mathbf g$ \[m/s²\] (pointing down, e.g.
    /// `[0, 0, -9.81]`) acting on every rigid body; a top-level key (default none).
    pub gravity: Option<Spanned<[f64; 3]>>,
    /// `[model]`.
    pub model: ModelMeta,
    /// `[components.NAME]` tables.
    #[serde(default)]
    pub components: BTreeMap<String, Spanned<toml::Table>>,
    /// `[patterns.NAME]` tables.
    #[serde(default)]
    pub patterns: BTreeMap<String, Spanned<PatternSpec>>,
    /// `[initial]`.
    #[serde(default)]
    pub initial: BTreeMap<String, Spanned<InitialValue>>,
    /// `[[input]]`: signals on the inputs of the top system (missing inputs are zero).
    #[serde(default)]
    pub input: Vec<InputSpec>,
    /// `[simulation]`.
    pub simulation: SimulationSpec,
}

/// Line (1-based) of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}

/// A parsed model with its source (for line numbers).
#[derive(Debug, Clone)]
pub struct Model {
    /// File name (for messages).
    pub file: String,
    text: String,
    /// The parsed content.
    pub spec: ModelFile,
}

/// A simulated trajectory with the diagnostics of issue 5 §4, one entry per output time.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// Output times.
    pub t: Vec<f64>,
    /// Names of the columns of `y` (state coordinates `name[k]`, then algebraic unknowns).
    pub columns: Vec<String>,
    /// State rows, one per time.
    pub y: Vec<Vec<f64>>,
    /// Mechanical energy (= exergy) per time.
    pub mechanical_energy: Vec<f64>,
    /// Entropy of the environment per time.
    pub entropy: Vec<f64>,
    /// Total energy $E_{mech} + \theta_0 s$ per time.
    pub total_energy: Vec<f64>,
    /// Reference temperature $\theta_0$.
    pub theta0: f64,
    /// Names of the irreversible components (e.g. `j.mf`).
    pub irreversibles: Vec<String>,
    /// Exergy destruction rate $\sum\langle e\mid f\rangle \ge 0$ of each irreversible
    /// component \[W\], evaluated at the output state.
    pub exergy_destruction: Vec<Vec<f64>>,
    /// Names of the outer power ports of the top system.
    pub power_ports: Vec<String>,
    /// Power into the system through each outer power port \[W\].
    pub port_power: Vec<Vec<f64>>,
    /// Total spatial momentum of the rigid bodies about the inertial origin,
    /// $(L, P)$ (angular, then linear); empty for models without rigid bodies.
    pub spatial_momentum: Vec<[f64; 6]>,
    /// Names of the joints.
    pub joints: Vec<String>,
    /// Position drift $|\Phi_j|$ of each joint ([`Kinematics::joint_drift`]).
    pub joint_drift: Vec<Vec<f64>>,
    /// Accumulated change of $E_{mech} + \theta_0 s$ by the drift projections (zeros
    /// without stabilisation).
    pub projection_work: Vec<f64>,
    /// True if the positions were projected (`projection = true`).
    pub stabilized: bool,
}

impl Trajectory {
    /// Names of the diagnostic columns, in the order of [`Trajectory::diagnostic_row`]:
    /// `exergy_destruction[c]` per irreversible component, `power[p]` per outer power port,
    /// `momentum.L_x`, …, `momentum.P_z` (if there are bodies), `drift[j]` per joint, and
    /// `projection_work` (if stabilised).
    pub fn diagnostic_columns(&self) -> Vec<String> {
        let mut c: Vec<String> = self
            .irreversibles
            .iter()
            .map(|n| format!("exergy_destruction[{n}]"))
            .collect();
        c.extend(self.power_ports.iter().map(|n| format!("power[{n}]")));
        if !self.spatial_momentum.is_empty() {
            for n in ["L_x", "L_y", "L_z", "P_x", "P_y", "P_z"] {
                c.push(format!("momentum.{n}"));
            }
        }
        c.extend(self.joints.iter().map(|n| format!("drift[{n}]")));
        if self.stabilized {
            c.push("projection_work".into());
        }
        c
    }

    /// The diagnostics at output `k` (see [`Trajectory::diagnostic_columns`]).
    pub fn diagnostic_row(&self, k: usize) -> Vec<f64> {
        let mut r = self.exergy_destruction[k].clone();
        r.extend_from_slice(&self.port_power[k]);
        if let Some(m) = self.spatial_momentum.get(k) {
            r.extend_from_slice(m);
        }
        r.extend_from_slice(&self.joint_drift[k]);
        if self.stabilized {
            r.push(self.projection_work[k]);
        }
        r
    }

    /// Largest joint drift over time per joint.
    pub fn max_joint_drift(&self) -> Vec<f64> {
        (0..self.joints.len())
            .map(|j| self.joint_drift.iter().fold(0.0f64, |m, row| m.max(row[j])))
            .collect()
    }

    /// Trapezoidal integral over the output times of column `k` of `rows`.
    fn integral(&self, rows: &[Vec<f64>], k: usize) -> f64 {
        (1..self.t.len())
            .map(|i| 0.5 * (self.t[i] - self.t[i - 1]) * (rows[i][k] + rows[i - 1][k]))
            .sum()
    }

    /// Exergy destroyed by each irreversible component, $\int$ rate d$t$ by the trapezoidal
    /// rule on the output times (error $O(\Delta t^2)$); their sum approximates
    /// $\theta_0(s(t_{end}) - s(0))$, which is exact.
    pub fn exergy_destroyed_by_component(&self) -> Vec<f64> {
        (0..self.irreversibles.len())
            .map(|k| self.integral(&self.exergy_destruction, k))
            .collect()
    }

    /// Work supplied through each outer power port, $\int\langle e\mid f\rangle$d$t$
    /// (trapezoidal rule on the output times, error $O(\Delta t^2)$).
    pub fn supplied_work(&self) -> Vec<f64> {
        (0..self.power_ports.len())
            .map(|k| self.integral(&self.port_power, k))
            .collect()
    }
}

impl Model {
    /// Parses a model file; syntax errors and unknown keys name the key and line.
    pub fn parse(file: &str, text: &str) -> Result<Self, ModelError> {
        let spec: ModelFile = toml::from_str(text).map_err(|e| ModelError {
            file: file.into(),
            line: e.span().map(|s| line_of(text, s.start)).unwrap_or(0),
            message: e.message().trim().to_string(),
        })?;
        let m = Self {
            file: file.into(),
            text: text.into(),
            spec,
        };
        m.validate()?;
        Ok(m)
    }

    fn err<T>(&self, span: std::ops::Range<usize>, message: String) -> Result<T, ModelError> {
        Err(ModelError {
            file: self.file.clone(),
            line: if span.end == 0 {
                0
            } else {
                line_of(&self.text, span.start)
            },
            message,
        })
    }

    fn validate(&self) -> Result<(), ModelError> {
        let th = &self.spec.model.reference_temperature;
        if !(*th.get_ref() > 0.0 && th.get_ref().is_finite()) {
            return self.err(
                th.span(),
                format!(
                    "key `model.reference_temperature`: must satisfy 0 < reference_temperature < ∞ (got {})",
                    th.get_ref()
                ),
            );
        }
        let s = &self.spec.simulation;
        if !(*s.t_end.get_ref() > 0.0 && s.t_end.get_ref().is_finite()) {
            return self.err(
                s.t_end.span(),
                format!(
                    "key `simulation.t_end`: must satisfy 0 < t_end < ∞ (got {})",
                    s.t_end.get_ref()
                ),
            );
        }
        if let Some(h) = &s.dt {
            if !(*h.get_ref() > 0.0 && h.get_ref().is_finite()) {
                return self.err(
                    h.span(),
                    format!(
                        "key `simulation.dt`: must satisfy dt > 0 (got {})",
                        h.get_ref()
                    ),
                );
            }
        }
        let midpoint = s.integrator == IntegratorKind::Midpoint;
        for (key, v, applies) in [
            ("output_every", &s.output_every, midpoint),
            ("output_samples", &s.output_samples, !midpoint),
        ] {
            if let Some(v) = v {
                if !applies {
                    let with = if midpoint { "radau5" } else { "midpoint" };
                    return self.err(
                        v.span(),
                        format!("key `simulation.{key}`: applies to integrator = \"{with}\" only"),
                    );
                }
                if *v.get_ref() == 0 {
                    return self.err(
                        v.span(),
                        format!("key `simulation.{key}`: must satisfy {key} >= 1 (got 0)"),
                    );
                }
            }
        }
        if midpoint && s.dt.is_none() {
            return self.err(
                s.t_end.span(),
                "key `simulation.dt`: the midpoint integrator needs a step dt".into(),
            );
        }
        if let Some(p) = &s.projection {
            if *p.get_ref() && !midpoint {
                return self.err(
                    p.span(),
                    "key `simulation.projection`: requires integrator = \"midpoint\" (Radau5 controls the drift by its tolerances)".into(),
                );
            }
        }
        if let Some(g) = &self.spec.gravity {
            if g.get_ref().iter().any(|x| !x.is_finite()) {
                return self.err(
                    g.span(),
                    format!(
                        "key `gravity`: the components must be finite (got {:?})",
                        g.get_ref()
                    ),
                );
            }
        }
        for name in self.spec.components.keys() {
            if self.spec.patterns.contains_key(name) {
                return self.err(
                    self.spec.patterns[name].span(),
                    format!("`{name}` is defined both in [components] and in [patterns]"),
                );
            }
        }
        Ok(())
    }

    /// The upward gravity covector $-\mathbf g$ of the rigid bodies' potential
    /// $V = m\,(-\mathbf g)\cdot r$ ([`rigid_body::gravity_potential`]) from the file's
    /// acceleration vector `gravity` (zero without it); `0.0 - g` keeps the zero components
    /// `+0.0`.
    fn upward_gravity(&self) -> [f64; 3] {
        self.spec
            .gravity
            .as_ref()
            .map_or([0.0; 3], |g| g.get_ref().map(|x| 0.0 - x))
    }

    fn quantity(&self, q: &Spanned<QuantitySpec>, key: &str) -> Result<Quantity, ModelError> {
        let bad = |m: String| self.err::<Quantity>(q.span(), format!("key `{key}`: {m}"));
        match q.get_ref() {
            QuantitySpec::Named(n) => match n.as_str() {
                "displacement" => Ok(Quantity::displacement()),
                "momentum" => Ok(Quantity::momentum()),
                "entropy" => Ok(Quantity::entropy()),
                "pose" => Ok(Quantity::pose()),
                "body_momentum" => Ok(Quantity::body_momentum()),
                other => bad(format!(
                    "unknown quantity `{other}` (known: displacement, momentum, entropy, pose, body_momentum, or {{ name, space }})"
                )),
            },
            QuantitySpec::Full { name, space } => {
                let sp = match space.as_str() {
                    "R" => Space::Real(1),
                    "SE3" => Space::Group(Group::Se3),
                    "se3*" => Space::CoAlgebra(Group::Se3),
                    "SO3" => Space::Group(Group::So3),
                    "so3*" => Space::CoAlgebra(Group::So3),
                    s if s.starts_with('R') && s[1..].parse::<usize>().is_ok_and(|n| n > 0) => {
                        Space::Real(s[1..].parse().unwrap_or(1))
                    }
                    other => {
                        return bad(format!(
                            "unknown space `{other}` (known: R, R<n>, SE3, se3*, SO3, so3*)"
                        ))
                    }
                };
                Ok(Quantity::new(name, sp))
            }
        }
    }

    fn component(&self, name: &str) -> Result<System, ModelError> {
        let t = &self.spec.components[name];
        let span = t.span();
        let spec =
            ComponentSpec::deserialize(toml::Value::Table(t.get_ref().clone())).map_err(|e| {
                ModelError {
                    file: self.file.clone(),
                    line: line_of(&self.text, span.start),
                    message: format!("component `{name}`: {}", e.to_string().trim()),
                }
            })?;
        let wrap = |r: Result<System, EphsError>| -> Result<System, ModelError> {
            r.map_err(|e| ModelError {
                file: self.file.clone(),
                line: line_of(&self.text, span.start),
                message: format!("component `{name}`: {e}"),
            })
        };
        wrap(match spec {
            ComponentSpec::HookeanSpring { stiffness } => {
                mechanics::hookean_spring(stiffness).map(Into::into)
            }
            ComponentSpec::PointMass { mass } => mechanics::point_mass(mass).map(Into::into),
            ComponentSpec::Pkc {} => mechanics::pkc().map(Into::into),
            ComponentSpec::LinearFriction { damping } => {
                mechanics::linear_friction(damping).map(Into::into)
            }
            ComponentSpec::NonlinearFriction {
                damping,
                coulomb_friction,
                regularization_velocity,
            } => mechanics::nonlinear_friction(damping, coulomb_friction, regularization_velocity)
                .map(Into::into),
            ComponentSpec::Environment {} => Ok(mechanics::environment().into()),
            ComponentSpec::Ground {} => rigid_body::ground().map(Into::into),
            ComponentSpec::Joint {
                pair,
                pitch,
                o1,
                o2,
                friction,
                stiffness,
            } => {
                (|| {
                    use crate::library::joint::{joint, JointKind, JointParams};
                    let kind = match pair.as_str() {
                    "revolute" => JointKind::Revolute,
                    "prismatic" => JointKind::Prismatic,
                    "cylindrical" => JointKind::Cylindrical,
                    "screw" => JointKind::Screw { pitch },
                    "planar" => JointKind::Planar,
                    "spherical" => JointKind::Spherical,
                    other => {
                        return Err(EphsError::Parameter {
                            what: "pair".into(),
                            detail: format!("unknown pair `{other}` (revolute, prismatic, cylindrical, screw, planar, spherical)"),
                        })
                    }
                };
                    let k = kind.dim();
                    let mut law = None;
                    let mu = match friction {
                        FrictionSpec::Scalar(c) => {
                            let mut m = vec![0.0; k * k];
                            for i in 0..k {
                                m[i * k + i] = c;
                            }
                            m
                        }
                        FrictionSpec::Matrix(rows) => rows.into_iter().flatten().collect(),
                        FrictionSpec::Nonlinear(n) => {
                            law = Some(mechanics::NonlinearFrictionLaw::new(
                                n.damping,
                                n.coulomb_friction,
                                n.regularization_velocity,
                            )?);
                            vec![0.0; k * k]
                        }
                    };
                    let potential: Option<std::sync::Arc<dyn crate::language::Energy>> =
                        if stiffness != 0.0 {
                            if kind == JointKind::Spherical {
                                return Err(EphsError::Parameter {
                            what: "stiffness".into(),
                            detail: "a coordinate spring is not defined on SO(3) (spherical pair)".into(),
                        });
                            }
                            let mut K = vec![0.0; k * k];
                            for i in 0..k {
                                K[i * k + i] = stiffness;
                            }
                            Some(std::sync::Arc::new(crate::language::QuadraticEnergy {
                                n: k,
                                K,
                            }))
                        } else {
                            None
                        };
                    let params = JointParams {
                        kind,
                        o1: o1.se3(),
                        o2: o2.se3(),
                        potential,
                        friction: mu,
                    };
                    match law {
                        Some(law) => crate::library::joint::joint_with_friction(
                            &params,
                            crate::library::joint::nonlinear_joint_friction(kind, law)?,
                        ),
                        None => joint(&params),
                    }
                    .map(Into::into)
                })()
            }
            ComponentSpec::RigidBody { mass, inertia } => {
                let J: Mat3 = match inertia {
                    InertiaSpec::Principal(d) => {
                        [[d[0], 0.0, 0.0], [0.0, d[1], 0.0], [0.0, 0.0, d[2]]]
                    }
                    InertiaSpec::Matrix(m) => m,
                };
                rigid_body::rigid_body(mass, J, self.upward_gravity()).map(Into::into)
            }
        })
    }

    fn pattern(&self, name: &str, stack: &mut Vec<String>) -> Result<System, ModelError> {
        let sp = &self.spec.patterns[name];
        let spec = sp.get_ref();
        let line_err = |span: std::ops::Range<usize>, e: EphsError| ModelError {
            file: self.file.clone(),
            line: line_of(&self.text, span.start),
            message: format!("pattern `{name}`: {e}"),
        };
        let mut p = Pattern::new(name);
        // Keep the order of the file (the maps are sorted by name).
        let mut junctions: Vec<_> = spec.junctions.iter().collect();
        junctions.sort_by_key(|(_, q)| q.span().start);
        let mut boxes: Vec<_> = spec.boxes.iter().collect();
        boxes.sort_by_key(|(_, b)| b.span().start);
        for (j, q) in junctions {
            let quantity = self.quantity(q, &format!("patterns.{name}.junctions.{j}"))?;
            p.add_junction(j, quantity)
                .map_err(|e| line_err(q.span(), e))?;
        }
        for (ports, kind) in [
            (&spec.expose, PortKind::Power),
            (&spec.expose_state, PortKind::State),
        ] {
            for (o, j) in ports {
                p.expose(j.get_ref(), o, kind)
                    .map_err(|e| line_err(j.span(), e))?;
            }
        }
        let mut fills = Vec::new();
        for (b, bs) in boxes {
            let fill = bs.get_ref().fill.clone();
            let sys = self.system(fill.get_ref(), fill.span(), stack)?;
            let wiring: Vec<(&str, &str)> = bs
                .get_ref()
                .ports
                .iter()
                .map(|(port, j)| (port.as_str(), j.get_ref().as_str()))
                .collect();
            let spec_b = bs.get_ref();
            let declared = !spec_b.interface.is_empty() || !spec_b.interface_state.is_empty();
            let iface = if declared {
                let mut decl: Vec<(&String, &Spanned<QuantitySpec>, PortKind)> = spec_b
                    .interface
                    .iter()
                    .map(|(n, q)| (n, q, PortKind::Power))
                    .chain(
                        spec_b
                            .interface_state
                            .iter()
                            .map(|(n, q)| (n, q, PortKind::State)),
                    )
                    .collect();
                decl.sort_by_key(|(_, q, _)| q.span().start);
                let mut i = Interface::new();
                for (n, q, kind) in decl {
                    let quantity =
                        self.quantity(q, &format!("patterns.{name}.boxes.{b}.interface.{n}"))?;
                    i.add(n, quantity, kind)
                        .map_err(|e| line_err(q.span(), e))?;
                }
                i
            } else {
                if let Some((_, r)) = spec_b.rename.iter().next() {
                    return self.err(
                        r.span(),
                        format!("key `patterns.{name}.boxes.{b}.rename`: renaming needs a declared box `interface`"),
                    );
                }
                sys.interface()
            };
            let renaming: Vec<(String, String)> = spec_b
                .rename
                .iter()
                .map(|(a, t)| (a.clone(), t.get_ref().clone()))
                .collect();
            p.add_box(b, iface, &wiring).map_err(|e| {
                // Point at the offending port's line if the error names one.
                let span = bs
                    .get_ref()
                    .ports
                    .iter()
                    .find(|(port, _)| {
                        e.to_string().contains(&format!("{b}.{port}"))
                            || e.to_string().contains(&format!("'{port}'"))
                    })
                    .map(|(_, j)| j.span())
                    .unwrap_or(bs.span());
                line_err(span, e)
            })?;
            fills.push((b.clone(), sys, bs.span(), renaming));
        }
        let mut c = Composite::new(p).map_err(|e| line_err(sp.span(), e))?;
        for (b, sys, span, renaming) in fills {
            let r: Vec<(&str, &str)> = renaming
                .iter()
                .map(|(a, t)| (a.as_str(), t.as_str()))
                .collect();
            c.fill_renamed(&b, sys, &r).map_err(|e| line_err(span, e))?;
        }
        Ok(c.into())
    }

    fn system(
        &self,
        name: &str,
        span: std::ops::Range<usize>,
        stack: &mut Vec<String>,
    ) -> Result<System, ModelError> {
        if stack.iter().any(|s| s == name) {
            return self.err(
                span,
                format!(
                    "patterns refer to each other in a cycle: {} → {name}",
                    stack.join(" → ")
                ),
            );
        }
        if self.spec.components.contains_key(name) {
            return self.component(name);
        }
        if self.spec.patterns.contains_key(name) {
            stack.push(name.into());
            let r = self.pattern(name, stack);
            stack.pop();
            return r;
        }
        let known: BTreeSet<&str> = self
            .spec
            .components
            .keys()
            .chain(self.spec.patterns.keys())
            .map(|s| s.as_str())
            .collect();
        self.err(
            span,
            format!(
                "unknown component or pattern `{name}` (defined: {})",
                known.into_iter().collect::<Vec<_>>().join(", ")
            ),
        )
    }

    /// SVG picture of the pattern `name` (default: `model.top`), see
    /// [`crate::language::pattern_svg`].
    pub fn draw(&self, name: Option<&str>) -> Result<String, ModelError> {
        let top = self.spec.model.top.clone();
        let name = name.unwrap_or(top.get_ref());
        let span = self
            .spec
            .patterns
            .get(name)
            .map(|p| p.span())
            .unwrap_or(top.span());
        match self.system(name, span.clone(), &mut Vec::new())? {
            System::Composite(c) => Ok(crate::language::pattern_svg(&c.pattern)),
            System::Primitive(_) => self.err(
                span,
                format!("`{name}` is a primitive component, not a pattern"),
            ),
        }
    }

    /// The top system (`model.top`).
    pub fn system_top(&self) -> Result<System, ModelError> {
        let top = &self.spec.model.top;
        self.system(top.get_ref(), top.span(), &mut Vec::new())
    }

    /// Builds the top system, its DAE (with inputs) and the consistent initial state.
    pub fn build(&self) -> Result<(EphsDae, Vec<f64>), ModelError> {
        let top = &self.spec.model.top;
        let sys = self.system_top()?;
        let wrap = |span: std::ops::Range<usize>, e: EphsError| ModelError {
            file: self.file.clone(),
            line: line_of(&self.text, span.start),
            message: format!("model `{}`: {e}", top.get_ref()),
        };
        let open = assemble(&sys).map_err(|e| wrap(top.span(), e))?;
        let mut dae = EphsDae::new(open, *self.spec.model.reference_temperature.get_ref())
            .map_err(|e| wrap(top.span(), e))?;
        let names = dae.input_names();
        if !names.is_empty() || !self.spec.input.is_empty() {
            let lengths = input_lengths(dae.system());
            let mut given: BTreeMap<&str, Vec<Signal>> = BTreeMap::new();
            for inp in &self.spec.input {
                let name = inp.port.get_ref();
                let Some(k) = names.iter().position(|n| n == name) else {
                    return self.err(
                        inp.port.span(),
                        format!(
                            "key `input.port`: no such input `{name}` (inputs: {})",
                            names.join(", ")
                        ),
                    );
                };
                let len = lengths[k].0;
                let signal = |v: &SignalSpec, span: std::ops::Range<usize>| {
                    v.to_signal().map_err(|e| ModelError {
                        file: self.file.clone(),
                        line: line_of(&self.text, span.start),
                        message: format!("key `input.value` of input `{name}`: {e}"),
                    })
                };
                let signals = match (&inp.value, &inp.values) {
                    (Some(v), None) if len == 1 => vec![signal(v.get_ref(), v.span())?],
                    (None, Some(v)) if v.get_ref().len() == len => v
                        .get_ref()
                        .iter()
                        .map(|s| signal(s, v.span()))
                        .collect::<Result<_, _>>()?,
                    (Some(v), None) => {
                        return self.err(
                            v.span(),
                            format!("key `input.value`: input `{name}` has {len} components; give `values = [...]`, one signal per component"),
                        )
                    }
                    (None, Some(v)) => {
                        return self.err(
                            v.span(),
                            format!(
                                "key `input.values`: input `{name}` has {len} components but {} signals were given",
                                v.get_ref().len()
                            ),
                        )
                    }
                    _ => {
                        return self.err(
                            inp.port.span(),
                            format!("input `{name}`: give either `value` (a scalar input) or `values` (one signal per component)"),
                        )
                    }
                };
                if given.insert(name.as_str(), signals).is_some() {
                    return self.err(
                        inp.port.span(),
                        format!("key `input.port`: input `{name}` is given twice"),
                    );
                }
            }
            // One signal per input coordinate in input order; missing inputs are zero.
            let mut signals = Vec::new();
            for (name, (slot_len, _)) in names.iter().zip(lengths) {
                match given.remove(name.as_str()) {
                    Some(s) => signals.extend(s),
                    None => signals.extend((0..slot_len).map(|_| Signal::from_fn(|_| 0.0))),
                }
            }
            dae = dae
                .with_inputs(InputFn::new(signals))
                .map_err(|e| wrap(top.span(), e))?;
        }
        let mut y = dae.default_state();
        for (name, v) in &self.spec.initial {
            let r = dae.state_range(name).map_err(|e| ModelError {
                file: self.file.clone(),
                line: line_of(&self.text, v.span().start),
                message: format!("key `initial.{name}`: {e}"),
            })?;
            let values: Vec<f64> = match v.get_ref() {
                InitialValue::Scalar(x) => vec![*x],
                InitialValue::Vector(x) => x.clone(),
                InitialValue::Pose { rotation, position } => {
                    let mut c = vec![0.0; 12];
                    Se3::new(so3::exp(*rotation), *position).to_coords(&mut c);
                    c
                }
            };
            if values.len() != r.len() {
                return self.err(
                    v.span(),
                    format!(
                        "key `initial.{name}`: the state has {} coordinates but {} values were given",
                        r.len(),
                        values.len()
                    ),
                );
            }
            y[r].copy_from_slice(&values);
        }
        // Position level: complete the joint coordinates not given, check the constraints.
        let kin = Kinematics::new(&dae);
        let given: Vec<bool> = kin
            .joints
            .iter()
            .map(|j| {
                self.spec
                    .initial
                    .keys()
                    .any(|n| dae.state_range(n).ok().as_ref() == Some(&j.q_r))
            })
            .collect();
        let missing: Vec<bool> = given.iter().map(|g| !g).collect();
        kin.complete_joint_coordinates(&mut y, &missing);
        for (j, d) in kin.joint_drift(&y).into_iter().enumerate() {
            if !(d <= 1e-8) {
                let jr = &kin.joints[j];
                return self.err(
                    self.spec.model.top.span(),
                    format!(
                        "initial state: the poses violate the position constraint q2 o2 = q1 o1 I(q_r) of joint `{}` ({} pair) by |log((q1 o1 I(q_r))⁻¹ q2 o2)| = {d:.3e} > 1e-8{}",
                        jr.name,
                        jr.kind.name(),
                        if given[j] {
                            " (omit its coordinates q_r from [initial] to have them computed from the body poses)"
                        } else {
                            " (the relative pose of the joint frames is not in the pair's subgroup)"
                        }
                    ),
                );
            }
        }
        // Velocity level: the algebraic unknowns are computed; the velocity constraints
        // must hold for the given momenta (or the momenta are projected onto them).
        if self.spec.simulation.initial_velocities == InitialVelocities::Project {
            kin.project_velocities(&dae, &mut y);
        }
        let r = dae
            .make_consistent(0.0, &mut y)
            .map_err(|e| wrap(top.span(), e))?;
        let scale = 1.0
            + y[..dae.n_coords()]
                .iter()
                .fold(0.0f64, |m, v| m.max(v.abs()));
        if !(r <= 1e-8 * scale) {
            return self.err(
                top.span(),
                format!(
                    "initial state: the algebraic equations cannot be satisfied (largest residual {r:.3e}): the initial momenta violate the velocity constraints of the joints ({}); set `simulation.initial_velocities = \"project\"` to use the nearest consistent momenta",
                    kin.joints
                        .iter()
                        .map(|j| j.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        Ok((dae, y))
    }

    /// Builds and simulates the model; the trajectory is sampled every `output_every`-th
    /// midpoint step, or at `output_samples` uniform intervals (Radau IIA).
    pub fn simulate(&self) -> Result<Trajectory, ModelError> {
        let (dae, y0) = self.build()?;
        let s = &self.spec.simulation;
        let t_end = *s.t_end.get_ref();
        let n_out = s.output_samples.as_ref().map_or(200, |v| *v.get_ref());
        let grid: Vec<f64> = (0..=n_out)
            .map(|k| (k as f64 * t_end / n_out as f64).min(t_end))
            .collect();
        let kin = Kinematics::new(&dae);
        let stabilized = s.projection.as_ref().is_some_and(|v| *v.get_ref());
        let mut traj = Trajectory {
            t: Vec::new(),
            columns: columns(&dae),
            y: Vec::new(),
            mechanical_energy: Vec::new(),
            entropy: Vec::new(),
            total_energy: Vec::new(),
            theta0: dae.theta0(),
            irreversibles: dae.irreversible_names(),
            exergy_destruction: Vec::new(),
            power_ports: dae.power_port_names(),
            port_power: Vec::new(),
            spatial_momentum: Vec::new(),
            joints: kin.joints.iter().map(|j| j.name.clone()).collect(),
            joint_drift: Vec::new(),
            projection_work: Vec::new(),
            stabilized,
        };
        let push = |t: f64, y: &[f64], work: f64, traj: &mut Trajectory| {
            traj.t.push(t);
            traj.y.push(y.to_vec());
            traj.mechanical_energy.push(dae.mechanical_energy(y));
            traj.entropy.push(dae.entropy(y));
            traj.total_energy.push(dae.total_energy(y));
            let ev = dae.evaluate(t, y);
            traj.exergy_destruction.push(
                ev.exergy_destruction()
                    .into_iter()
                    .map(|(_, v)| v)
                    .collect(),
            );
            traj.port_power
                .push(ev.port_powers().into_iter().map(|(_, v)| v).collect());
            if let Some(m) = kin.spatial_momentum(y) {
                traj.spatial_momentum.push(m);
            }
            traj.joint_drift.push(kin.joint_drift(y));
            traj.projection_work.push(work);
        };
        let fail = |e: EphsError| ModelError {
            file: self.file.clone(),
            line: line_of(&self.text, s.t_end.span().start),
            message: format!("simulation failed: {e}"),
        };
        match s.integrator {
            // `phlex_solve`'s Radau IIA on the assembled DAE `M ẏ = f(t, y)` (EphsDae is an
            // `ImplicitDae`): the same solver `phlex_solve::integrate` runs, whose front door
            // takes a `PhSystem` and adapts it by `PhDae`; EphsDae has no `PhSystem` form
            // (see the module documentation of `numerics::lie_midpoint`).
            IntegratorKind::Radau5 => {
                let radau = Radau5::new(Radau5Params::with_tolerances(s.rtol, s.atol))
                    .map_err(|e| fail(e.into()))?;
                radau
                    .integrate(
                        &dae,
                        0.0,
                        &y0,
                        t_end,
                        OutputTimes::Grid(&grid),
                        &mut |t: f64, y: &[f64]| push(t, y, 0.0, &mut traj),
                    )
                    .map_err(|e| fail(e.into()))?;
            }
            // `%` rather than `is_multiple_of` (workspace MSRV 1.84).
            #[allow(clippy::manual_is_multiple_of)]
            IntegratorKind::Midpoint => {
                let h = s.dt.as_ref().map_or(t_end, |v| *v.get_ref());
                let every = s.output_every.as_ref().map_or(1, |v| *v.get_ref());
                let mut k = 0usize;
                let mut params = LieMidpointParams::with_step(h);
                if stabilized {
                    params.stabilization = Stabilization::Projection;
                }
                LieMidpoint::new(&dae, params)
                    .map_err(fail)?
                    .run_with_info(0.0, &y0, t_end, &mut |t: f64, y: &[f64], w: f64| {
                        if k % every == 0 || (t - t_end).abs() < 1e-12 * t_end {
                            push(t, y, w, &mut traj);
                        }
                        k += 1;
                    })
                    .map_err(fail)?;
            }
        }
        Ok(traj)
    }
}

/// Lengths of the input slots in input order (with the slot id).
fn input_lengths(sys: &crate::semantics::OpenSystem) -> Vec<(usize, usize)> {
    use crate::semantics::program::{Causality, StateRole};
    let mut v = Vec::new();
    for p in &sys.ports {
        if let StateRole::Input(s) = p.state {
            v.push((sys.slots[s].len, s));
        }
        if let Some(pw) = p.power {
            let s = match pw.causality {
                Causality::FlowIn => pw.flow,
                Causality::EffortIn => pw.effort,
            };
            v.push((sys.slots[s].len, s));
        }
    }
    v
}

/// Column names of `y`: `state[k]` for multi-coordinate states.
pub fn columns(dae: &EphsDae) -> Vec<String> {
    let mut c = Vec::new();
    for name in dae.state_names() {
        let r = dae.state_range(&name).expect("own state");
        if r.len() == 1 {
            c.push(name);
        } else {
            c.extend((0..r.len()).map(|k| format!("{name}[{k}]")));
        }
    }
    for name in dae.algebraic_names() {
        let r = dae.algebraic_range(&name).expect("own unknown");
        if r.len() == 1 {
            c.push(name);
        } else {
            c.extend((0..r.len()).map(|k| format!("{name}[{k}]")));
        }
    }
    c
}
