//! # phlex-solve: linear solves, Newton, time integrators and eigen-solvers
//!
//! Consumes the systems of `phlex-core` ([`phlex_core::LinearPhSystem`],
//! [`phlex_core::QuasiLinearPhDae`]) and never reaches inside them.
//!
//! | module | what |
//! |---|---|
//! | [`signal`] | inputs $u(t)$ with switching times |
//! | [`problem`] | the [`ImplicitDae`] interface and the linear pH adapter |
//! | [`stats`] | work counters |
#![allow(non_snake_case)]
#![warn(missing_docs)]

pub mod error;
pub mod linsolve;
pub mod problem;
pub mod radau5;
pub mod signal;
pub mod stats;

pub use error::SolveError;
pub use problem::{ImplicitDae, LinearPhDae, Observer};
pub use radau5::{Radau5, Radau5Params};
pub use signal::{InputFn, Signal};
pub use stats::SolverStats;
