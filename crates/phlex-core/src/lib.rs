//! # phlex-core: port-Hamiltonian systems and their algebra
//!
//! This crate holds the mathematical objects of phlex and nothing else: no finite
//! elements, no time integrators. Every model that phlex builds ends up here as
//!
//! * a **linear descriptor pH system** ([`LinearPhSystem`], paper 000 eqs. (29)–(31)):
//!   $E\dot e = (J - R)e + Bu,\quad y = B^\top e,\quad H = \tfrac12 e^\top E e$,
//! * or, in general, a **pHDAE with a state-dependent descriptor** ([`PhSystem`], paper 000
//!   eq. (34)): $E(x)\dot x = (J(x) - R(x))z(x) + B(x)u,\quad y = B(x)^\top z(x),\quad
//!   \partial_x H = E(x)^\top z(x)$, with exact Jacobians, constraints and their drift
//!   projection ([`system`]). Every model implements [`PhSystem`] (the linear system too),
//!   and every integrator of `phlex-solve` consumes it.
//!
//! Inputs and outputs are grouped into named [`Port`]s, so that interconnections
//! ([`interconnect`]) and diagnostics ([`diagnostics`]) refer to names, never raw indices.
//! Structure (skew-symmetric $J$, symmetric positive semidefinite $E$ and $R$) is checked
//! by [`structure`] with tolerances and errors naming the offending block.
#![allow(non_snake_case)]
#![warn(missing_docs)]

pub mod diagnostics;
pub mod error;
pub mod geometry;
pub mod interconnect;
pub mod linear;
pub mod port;
pub mod sparse;
pub mod structure;
pub mod system;
pub mod variables;

pub use error::CoreError;
pub use linear::LinearPhSystem;
pub use port::{Port, PortSet};
pub use sparse::{SparseMat, Triplets};
pub use system::{PhSystem, ProjectionOptions, ProjectionStats, ProjectionStep};
pub use variables::{VarBlock, VarKind};
