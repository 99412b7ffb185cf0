//! # phlex-mbs: flexible multibody systems in port-Hamiltonian form
//!
//! Paper 000 (Brugnoli, Alazard, Pommier-Budinger, Matignon, *Port-Hamiltonian flexible
//! multibody dynamics*, Multibody Syst. Dyn. 51, 2021) §2–§6 and thesis 004 ch. 9–10.
#![allow(non_snake_case)]
#![warn(missing_docs)]

pub mod error;
pub mod floating_beam_2d;
pub mod lumped;
pub mod planar_body;
pub mod pose;
pub mod rigid_body_2d;

pub use error::MbsError;
pub use floating_beam_2d::{DeformationBc, FloatingBeam2d};
pub use lumped::LumpedMass;
pub use planar_body::{EnergySplit, Gyroscopic, PlanarBody};
pub use pose::{Pose2d, Twist2d};
pub use rigid_body_2d::RigidBody2d;
