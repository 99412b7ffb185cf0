//! User-facing joint description: which ports of which bodies, and what kind.
use phlex_solve::Signal;

/// Name of the inertial ground "body". Its ports are the ground points declared with
/// [`crate::MultibodyBuilder::add_ground_point`] (`"origin"` always exists).
pub const GROUND: &str = "ground";

/// A joint between port `port_a` of body `body_a` and port `port_b` of body `body_b`
/// (`body_b` may be [`GROUND`], `port_b` then names a ground point), of kind `K`: the
/// description a model file gives of a power-preserving interconnection of two ports
/// (paper 000 §5.1–5.2), shared by the planar [`Joint`] and the spatial
/// [`crate::spatial::Joint3d`].
#[derive(Debug, Clone)]
pub struct JointSpec<K> {
    /// First body.
    pub body_a: String,
    /// Port of the first body.
    pub port_a: String,
    /// Second body or [`GROUND`].
    pub body_b: String,
    /// Port of the second body, or ground point.
    pub port_b: String,
    /// Kind of joint.
    pub kind: K,
}

impl<K> JointSpec<K> {
    /// A joint of the given kind.
    pub fn new(
        body_a: impl Into<String>,
        port_a: impl Into<String>,
        body_b: impl Into<String>,
        port_b: impl Into<String>,
        kind: K,
    ) -> Self {
        Self {
            body_a: body_a.into(),
            port_a: port_a.into(),
            body_b: body_b.into(),
            port_b: port_b.into(),
            kind,
        }
    }

    /// True if the second side is the ground.
    pub fn is_grounded(&self) -> bool {
        self.body_b == GROUND
    }
}

/// A planar joint (see [`JointSpec`] and [`JointKind`]).
pub type Joint = JointSpec<JointKind>;

impl Joint {
    /// A planar revolute joint (hinge) between two body ports.
    pub fn revolute(
        body_a: impl Into<String>,
        port_a: impl Into<String>,
        body_b: impl Into<String>,
        port_b: impl Into<String>,
    ) -> Self {
        Self::new(body_a, port_a, body_b, port_b, JointKind::Revolute)
    }

    /// A hinge of a body port to a ground point.
    pub fn ground_revolute(
        body: impl Into<String>,
        port: impl Into<String>,
        ground_point: impl Into<String>,
    ) -> Self {
        Self::new(body, port, GROUND, ground_point, JointKind::Revolute)
    }

    /// A weld of a body port to a ground point (fixed frame).
    pub fn ground_weld(
        body: impl Into<String>,
        port: impl Into<String>,
        ground_point: impl Into<String>,
    ) -> Self {
        Self::new(body, port, GROUND, ground_point, JointKind::Weld)
    }
}

/// The kinds of planar joints.
#[derive(Debug, Clone)]
pub enum JointKind {
    /// Revolute (hinge): equal translational velocities of the two ports, relative rotation
    /// free, integrated as $\dot\theta = \omega_b - \omega_a$ (paper eq. (44)) and used in the
    /// transformer $R(\theta)$ (eq. (45)). To ground: a fixed point.
    Revolute,
    /// Weld: equal translational and angular velocities of the two ports. To ground: a
    /// fixed frame.
    Weld,
    /// Port of `body_a` sliding on the inertial line through ground point `port_b` with
    /// direction `direction` (rotation free; paper §6.3 slider). `body_b` must be ground.
    Slider {
        /// Direction of the line (inertial, need not be unit, must be non-zero).
        direction: [f64; 2],
    },
    /// Port of `body_a` driven with a prescribed inertial velocity $(v_x(t), v_y(t))$ and,
    /// if given, angular velocity $\omega(t)$ (paper §6.3 crank input). `body_b` must be
    /// ground; `port_b` (a ground point) is ignored. The signals form the input port named
    /// after the joint; its conjugate output is the driving force (and torque).
    PrescribedVelocity {
        /// $v_x(t)$ \[m/s\].
        vx: Signal,
        /// $v_y(t)$ \[m/s\].
        vy: Signal,
        /// $\omega(t)$ \[rad/s\], or `None` to leave the rotation free.
        omega: Option<Signal>,
    },
}

impl JointKind {
    /// Short name, e.g. `"revolute"`.
    pub fn name(&self) -> &'static str {
        match self {
            JointKind::Revolute => "revolute",
            JointKind::Weld => "weld",
            JointKind::Slider { .. } => "slider",
            JointKind::PrescribedVelocity { .. } => "prescribed velocity",
        }
    }
}
