//! Joints: power-preserving (transformer) interconnections of body ports (paper 000 §5.1–5.2).
//!
//! Every joint imposes velocity-level constraints $G(x)\,p = g(t)$ on the port outputs of the
//! bodies it connects and applies the reactions $G(x)^\top\lambda$, giving the quasilinear
//! index-2 pHDAE (46) with one named multiplier block per joint; see [`crate::assembly`].
//!
//! | kind | file | rows | multiplier $\lambda$ |
//! |---|---|---|---|
//! | [`JointKind::Revolute`] between bodies | [`revolute`] | 2 | force on body b at its port, frame of b |
//! | [`JointKind::Revolute`] to ground (fixed point) | [`ground`] | 2 | force on body a at its port, frame of a |
//! | [`JointKind::Weld`] between bodies | [`weld`] | 3 | force and torque on body b, frame of b |
//! | [`JointKind::Weld`] to ground (fixed frame) | [`ground`] | 3 | force and torque on body a, frame of a |
//! | [`JointKind::Slider`] (point on an inertial line) | [`slider`] | 1 | normal force (inertial normal) |
//! | [`JointKind::PrescribedVelocity`] | [`prescribed`] | 2–3 | inertial force (and torque) of the driver |
mod kind;
mod model;

pub mod ground;
pub mod prescribed;
pub mod revolute;
pub mod slider;
pub mod weld;

pub use kind::{Joint, JointKind, GROUND};
pub(crate) use model::{JointModel, PortGeometry, Resolved, Side, Term};
