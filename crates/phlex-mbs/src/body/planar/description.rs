//! The bodies a [`crate::MultibodyBuilder`] accepts.
use crate::body::floating_beam::planar::FloatingBeam2d;
use crate::body::planar::floating_body::PlanarBody;
use crate::body::rigid::planar::RigidBody2d;
use crate::error::MbsError;

/// A planar body description (validated and discretized by [`Body::build`]).
#[derive(Debug, Clone)]
pub enum Body {
    /// A planar rigid body.
    Rigid2d(RigidBody2d),
    /// A planar floating flexible beam.
    Beam2d(FloatingBeam2d),
}

impl Body {
    /// Validates the parameters and builds the pH model of body `name`.
    pub fn build(&self, name: &str) -> Result<PlanarBody, MbsError> {
        match self {
            Body::Rigid2d(b) => b.build(name),
            Body::Beam2d(b) => b.build(name),
        }
    }

    /// Short kind name.
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Rigid2d(_) => "rigid body 2d",
            Body::Beam2d(_) => "floating beam 2d",
        }
    }
}

impl From<RigidBody2d> for Body {
    fn from(b: RigidBody2d) -> Self {
        Body::Rigid2d(b)
    }
}

impl From<FloatingBeam2d> for Body {
    fn from(b: FloatingBeam2d) -> Self {
        Body::Beam2d(b)
    }
}
