//! Boundary ends, boundary conditions and their imposition (thesis 004 §3.4 / §6.2).
//!
//! Every 1D model has two ends. At each end the boundary power is a sum of *components*
//! (translation: force $F$ × velocity $\dot w$; rotation: moment $M$ × angular velocity
//! $\dot\theta$). Sign convention, identical at both ends: **$F$ and $M$ are the force and
//! moment applied *to the beam* by its surroundings** (positive along $+w$ and
//! counter-clockwise), so the power supplied to the beam through an end is
//! $F\dot w + M\dot\theta$. A PFEM discretization makes one quantity of each component its
//! natural input (the one that appears in the integration-by-parts boundary term); a
//! boundary condition prescribes one quantity of each component:
//!
//! | condition | translation | rotation |
//! |---|---|---|
//! | `Free` | $F = 0$ | $M = 0$ |
//! | `Clamped` | $\dot w = 0$ | $\dot\theta = 0$ |
//! | `SimplySupported` | $\dot w = 0$ | $M = 0$ |
//!
//! If the prescribed quantity is the natural input, the condition is *natural* (the input
//! is zero). Otherwise it is *essential* and is imposed either strongly (the single DOF
//! carrying the trace is removed symmetrically from $E$, $J$, $B$) or by a Lagrange
//! multiplier (pHDAE with an index-2 algebraic block, thesis §6.2.1, paper 000 eq. (47)).

/// Boundary condition at one end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndCondition {
    /// No condition: the end keeps a boundary port `"left"`/`"right"` in the natural
    /// causality of the discretization.
    Port,
    /// Zero force and moment.
    Free,
    /// Zero velocity and angular velocity (for an axial bar: fixed end).
    Clamped,
    /// Zero velocity and zero moment (for an axial bar: same as `Clamped`).
    SimplySupported,
}

/// How essential boundary conditions are imposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Imposition {
    /// Constrained DOFs are removed (restricted basis); natural conditions drop their
    /// inputs. An end with a condition has no port.
    #[default]
    Strong,
    /// Essential conditions by Lagrange multipliers (index-2 block `lambda_<end>`). Every
    /// end with a condition keeps a port whose input is the prescribed quantity of each
    /// component (zero input = the homogeneous condition, nonzero = prescribed motion or
    /// load); for a multiplier component the output is the multiplier, i.e. the reaction.
    Multiplier,
}

/// The two components of the boundary power at an end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Component {
    /// Transverse (or axial, for a bar) force × velocity.
    Translation,
    /// Moment × angular velocity.
    Rotation,
}

impl Component {
    /// `"translation"` / `"rotation"`.
    pub fn name(&self) -> &'static str {
        match self {
            Component::Translation => "translation",
            Component::Rotation => "rotation",
        }
    }
}

/// Which quantity of a component is an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantity {
    /// Force or moment (effort applied to the structure).
    Force,
    /// Velocity or angular velocity.
    Velocity,
}

impl Quantity {
    /// The conjugate quantity.
    pub fn dual(self) -> Self {
        match self {
            Quantity::Force => Quantity::Velocity,
            Quantity::Velocity => Quantity::Force,
        }
    }
}

impl EndCondition {
    /// The quantity prescribed (to zero) on a component, `None` for [`EndCondition::Port`].
    pub fn prescribed(&self, c: Component) -> Option<Quantity> {
        match (self, c) {
            (EndCondition::Port, _) => None,
            (EndCondition::Free, _) => Some(Quantity::Force),
            (EndCondition::Clamped, _) => Some(Quantity::Velocity),
            (EndCondition::SimplySupported, Component::Translation) => Some(Quantity::Velocity),
            (EndCondition::SimplySupported, Component::Rotation) => Some(Quantity::Force),
        }
    }
}

/// Human readable name and unit of a component quantity, e.g. `"force F [N]"`.
pub(crate) fn describe(c: Component, q: Quantity, kind: Kinematics) -> &'static str {
    match (kind, c, q) {
        (Kinematics::Axial, _, Quantity::Force) => "axial force applied to the bar [N]",
        (Kinematics::Axial, _, Quantity::Velocity) => "axial velocity [m/s]",
        (_, Component::Translation, Quantity::Force) => "transverse force applied to the beam [N]",
        (_, Component::Translation, Quantity::Velocity) => "transverse velocity [m/s]",
        (_, Component::Rotation, Quantity::Force) => "moment applied to the beam [N m]",
        (_, Component::Rotation, Quantity::Velocity) => "angular velocity [rad/s]",
    }
}

/// Whether the structure is an axial bar or a beam (only for port descriptions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kinematics {
    Axial,
    Bending,
}
