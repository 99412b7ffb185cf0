//! The one system abstraction of phlex: [`PhSystem`], a port-Hamiltonian DAE with a
//! state-dependent descriptor (paper 000 eq. (34)), and the plain data of its drift
//! projection.
//!
//! | module | what |
//! |---|---|
//! | [`ph_system`] | the [`PhSystem`] trait: $H$, $z$, $E(x)$, $J(x)$, $R(x)$, $B(x)$, exact Jacobians, discrete gradient, constraints, step hooks |
//! | [`projection`] | [`ProjectionOptions`], [`ProjectionStep`], [`ProjectionStats`] (paper 000 Remark 9) |
pub mod ph_system;
pub mod projection;

pub use ph_system::{gonzalez_correction, PhSystem};
pub use projection::{ProjectionOptions, ProjectionStats, ProjectionStep};
