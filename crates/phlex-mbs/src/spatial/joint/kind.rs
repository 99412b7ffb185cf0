//! User-facing description of a spatial joint: which ports of which bodies, and what kind.
use phlex_solve::Signal;

use crate::planar::joint::{JointSpec, GROUND};
use crate::planar::load::Frame;

/// Frame in which a joint axis is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AxisFrame {
    /// Inertial frame, at the initial configuration (default).
    #[default]
    Inertial,
    /// Port frame of body a ([`crate::spatial::SpatialPort::orientation`]).
    Port,
}

impl AxisFrame {
    /// `"inertial"` or `"port"`.
    pub fn name(self) -> &'static str {
        match self {
            AxisFrame::Inertial => "inertial",
            AxisFrame::Port => "port",
        }
    }
}

/// The kinds of spatial joints (see [`crate::spatial::joint`] for the constraint rows).
// The driver variant carries its signals inline; joints are built once per model.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum JointKind3d {
    /// Spherical (ball) joint: the two points coincide, rotation free (3 rows). To ground:
    /// a fixed point.
    Spherical,
    /// Revolute (hinge) about `axis`: the points coincide and the relative rotation is
    /// about the axis only (5 rows); the relative angle is integrated as an energy-free
    /// state (paper 000 eq. (44)). To ground: a fixed point and a fixed axis.
    Revolute {
        /// Hinge axis (need not be unit, must be non-zero).
        axis: [f64; 3],
        /// Frame of `axis`.
        frame: AxisFrame,
    },
    /// Prismatic (slider) along `axis`: no relative rotation, relative translation along
    /// the axis only (5 rows); the slide coordinate is an energy-free state. To ground: the
    /// port slides on the inertial line through the ground point, without rotating.
    Prismatic {
        /// Slide axis (need not be unit, must be non-zero).
        axis: [f64; 3],
        /// Frame of `axis`.
        frame: AxisFrame,
    },
    /// Weld: no relative motion (6 rows). To ground: a fixed frame.
    Weld,
    /// Port of `body_a` driven with a prescribed inertial velocity $v(t)$ and, if given, an
    /// angular velocity $\omega(t)$ (body or inertial frame). `body_b` must be ground. The
    /// signals form the input port named after the joint; the conjugate output is the
    /// driving force (inertial) and torque (frame of $\omega$).
    PrescribedVelocity {
        /// $v_X(t), v_Y(t), v_Z(t)$ \[m/s\], inertial.
        velocity: [Signal; 3],
        /// $\omega(t)$ \[rad/s\] and its frame, or `None` to leave the rotation free.
        angular_velocity: Option<([Signal; 3], Frame)>,
    },
}

impl JointKind3d {
    /// Short name, e.g. `"revolute"`.
    pub fn name(&self) -> &'static str {
        match self {
            JointKind3d::Spherical => "spherical",
            JointKind3d::Revolute { .. } => "revolute",
            JointKind3d::Prismatic { .. } => "prismatic",
            JointKind3d::Weld => "weld",
            JointKind3d::PrescribedVelocity { .. } => "prescribed velocity",
        }
    }
}

/// A spatial joint (see [`JointSpec`]; `body_b` may be [`GROUND`], `port_b` then names a
/// ground point, see [`crate::spatial::MultibodyBuilder3d::add_ground_point`]).
pub type Joint3d = JointSpec<JointKind3d>;

/// Constructors of joints of one kind between two body ports (`$axis` adds an axis
/// argument).
macro_rules! between_ports {
    ($($(#[$doc:meta])* $name:ident($($axis:ident)?) => $kind:expr;)*) => {$(
        $(#[$doc])*
        pub fn $name(
            body_a: impl Into<String>,
            port_a: impl Into<String>,
            body_b: impl Into<String>,
            port_b: impl Into<String>,
            $($axis: [f64; 3],)?
        ) -> Self {
            Self::new(body_a, port_a, body_b, port_b, $kind)
        }
    )*};
}

/// Constructors of joints of one kind between a body port and a ground point.
macro_rules! to_ground {
    ($($(#[$doc:meta])* $name:ident($($axis:ident)?) => $kind:expr;)*) => {$(
        $(#[$doc])*
        pub fn $name(
            body: impl Into<String>,
            port: impl Into<String>,
            point: impl Into<String>,
            $($axis: [f64; 3],)?
        ) -> Self {
            Self::new(body, port, GROUND, point, $kind)
        }
    )*};
}

impl Joint3d {
    between_ports! {
        /// A spherical joint between two body ports.
        spherical() => JointKind3d::Spherical;
        /// A revolute joint about `axis` (inertial frame, initial configuration).
        revolute(axis) => JointKind3d::Revolute { axis, frame: AxisFrame::Inertial };
        /// A prismatic joint along `axis` (inertial frame, initial configuration).
        prismatic(axis) => JointKind3d::Prismatic { axis, frame: AxisFrame::Inertial };
        /// A weld between two body ports.
        weld() => JointKind3d::Weld;
    }

    to_ground! {
        /// A body port fixed at a ground point (spherical joint to ground).
        ground_point() => JointKind3d::Spherical;
        /// A body port frame fixed at a ground point (weld to ground).
        ground_frame() => JointKind3d::Weld;
        /// A hinge of a body port at a ground point about the inertial `axis`.
        ground_revolute(axis) => JointKind3d::Revolute { axis, frame: AxisFrame::Inertial };
        /// A body port sliding without rotation on the inertial line through a ground point
        /// along `axis`.
        ground_prismatic(axis) => JointKind3d::Prismatic { axis, frame: AxisFrame::Inertial };
    }

    /// A body port driven with the inertial velocity `velocity` (and angular velocity).
    pub fn prescribed(
        body: impl Into<String>,
        port: impl Into<String>,
        velocity: [Signal; 3],
        angular_velocity: Option<([Signal; 3], Frame)>,
    ) -> Self {
        let kind = JointKind3d::PrescribedVelocity {
            velocity,
            angular_velocity,
        };
        Self::new(body, port, GROUND, "origin", kind)
    }

    /// Gives the axis of a revolute or prismatic joint in `frame` instead (no effect on
    /// other kinds).
    pub fn axis_frame(mut self, frame: AxisFrame) -> Self {
        match &mut self.kind {
            JointKind3d::Revolute { frame: f, .. } | JointKind3d::Prismatic { frame: f, .. } => {
                *f = frame
            }
            _ => {}
        }
        self
    }
}
