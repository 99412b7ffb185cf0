//! The implicit midpoint rule and the discrete-gradient scheme (thesis 004 §3.5,
//! "Crank–Nicolson"; paper 000 §5, eq. (46) with the midpoint rule) for every
//! [`phlex_core::PhSystem`]:
//!
//! * [`Midpoint`] ([`nonlinear`]): Newton on the exact Jacobian of the step equations,
//!   state-dependent descriptors (eq. (F4)), scaled multipliers, drift projection;
//! * [`LinearMidpoint`] ([`linear`]): the fast path for linear systems
//!   ([`phlex_core::PhSystem::is_linear`]), one sparse LU for the whole run; the same steps
//!   as [`Midpoint`] up to the Newton tolerance.
//!
//! [`crate::integrators::integrate()`] chooses the fast path automatically for a linear
//! system without projection.
pub mod linear;
pub mod nonlinear;
mod params;

pub use linear::{zero_columns, LinearMidpoint};
pub use nonlinear::Midpoint;
pub use params::{MidpointParams, MidpointVariant};
