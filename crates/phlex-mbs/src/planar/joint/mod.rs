//! Joints: power-preserving (transformer) interconnections of body ports (paper 000 §5.1–5.2).
//!
//! Every joint imposes velocity-level constraints $G(x)\,p = g(t)$ on the port outputs of the
//! bodies it connects and applies the reactions $G(x)^\top\lambda$, giving the quasilinear
//! index-2 pHDAE (46) with one named multiplier block per joint; see [`crate::planar::assembly`].
//!
//! | kind | file | rows | multiplier $\lambda$ |
//! |---|---|---|---|
//! | [`JointKind::Revolute`] between bodies | [`revolute`] | 2 | force on body b at its port, frame of b |
//! | [`JointKind::Revolute`] to ground (fixed point) | [`ground`] | 2 | force on body a at its port, frame of a |
//! | [`JointKind::Weld`] between bodies | [`weld`] | 3 | force and torque on body b, frame of b |
//! | [`JointKind::Weld`] to ground (fixed frame) | [`ground`] | 3 | force and torque on body a, frame of a |
//! | [`JointKind::Slider`] (point on an inertial line) | [`slider`] | 1 | normal force (inertial normal) |
//! | [`JointKind::PrescribedVelocity`] | [`prescribed`] | 2–3 | inertial force (and torque) of the driver |
//!
//! *Position-level drift* ([`crate::Multibody::position_drift`]) compares the deformed
//! positions of the joined points. Besides the time-discretization drift of velocity-level
//! constraints (second order in $h$ for the midpoint scheme, paper Remark 9), a flexible
//! body contributes the term the small-deformation model neglects: the port maps use the
//! undeformed lever arm ($\tau_{CP}$ with $L$, eq. (39)), so the velocity constraint omits
//! $\omega\hat z\times u_f$ at the port, which accumulates as
//! $\int\omega\,u_f\,\mathrm dt$ (e.g. $2\cdot10^{-5}$ m per revolution at the slider of the
//! §6.3 crank–slider).
mod kind;
mod model;

pub mod ground;
pub mod prescribed;
pub mod revolute;
pub mod slider;
pub mod weld;

pub use kind::{Joint, JointKind, JointSpec, GROUND};
pub(crate) use model::{JointModel, PortGeometry, Resolved, Side, Term};
