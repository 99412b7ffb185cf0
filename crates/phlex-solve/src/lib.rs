//! # phlex-solve: linear solves, Newton, time integrators and eigen-solvers
//!
//! Consumes the systems of `phlex-core` ([`phlex_core::LinearPhSystem`],
//! [`phlex_core::QuasiLinearPhDae`]) and never reaches inside them.
#![allow(non_snake_case)]
#![warn(missing_docs)]

pub mod signal;
