//! [`Placed`]: the last step of building a body of a multibody file, the same for a rigid
//! body and a beam of either dimension: its lumped masses (paper 000 §6.2) and its initial
//! motion (planar pose and twist; spatial position, rotation, velocity and angular
//! velocity).
use phlex_mbs::{
    FloatingBeam2d, FloatingBeam3d, LumpedMass3d, Pose2d, RigidBody2d, RigidBody3d, Twist2d,
};

/// The initial motion of a spatial body: position of `P`, rotation (body to inertial),
/// velocity and angular velocity (body frame).
pub(crate) type Motion3d = ([f64; 3], [[f64; 3]; 3], [f64; 3], [f64; 3]);

/// A body description being built, with lumped masses and an initial motion.
pub(crate) trait Placed: Sized {
    /// A lumped mass at a port.
    type Lumped;
    /// The initial motion.
    type Motion;
    /// Adds the lumped mass `l`.
    fn with_lumped(self, l: Self::Lumped) -> Self;
    /// Sets the initial motion `m`.
    fn with_motion(self, m: Self::Motion) -> Self;
    /// Adds the lumped masses `lumped` and sets the initial motion `motion`.
    fn placed(self, lumped: impl IntoIterator<Item = Self::Lumped>, motion: Self::Motion) -> Self {
        lumped
            .into_iter()
            .fold(self, Self::with_lumped)
            .with_motion(motion)
    }
}

/// [`Placed`] for planar body descriptions by their builder methods `lumped_mass`, `pose`
/// and `twist`.
macro_rules! placed_2d {
    ($($t:ty),*) => {$(
        impl Placed for $t {
            type Lumped = (String, f64, f64);
            type Motion = (Pose2d, Twist2d);
            fn with_lumped(self, (port, mass, inertia): Self::Lumped) -> Self {
                self.lumped_mass(port, mass, inertia)
            }
            fn with_motion(self, (pose, twist): Self::Motion) -> Self {
                self.pose(pose).twist(twist)
            }
        }
    )*};
}

/// [`Placed`] for spatial body descriptions by their builder methods `lumped_mass`,
/// `position`, `rotation`, `velocity` and `angular_velocity`.
macro_rules! placed_3d {
    ($($t:ty),*) => {$(
        impl Placed for $t {
            type Lumped = LumpedMass3d;
            type Motion = Motion3d;
            fn with_lumped(self, l: Self::Lumped) -> Self {
                self.lumped_mass(l)
            }
            fn with_motion(self, (p, r, v, w): Self::Motion) -> Self {
                self.position(p).rotation(r).velocity(v).angular_velocity(w)
            }
        }
    )*};
}

placed_2d!(RigidBody2d, FloatingBeam2d);
placed_3d!(RigidBody3d, FloatingBeam3d);
