//! # phlex-control: identification and control of multibody systems
//!
//! Implements seed 002 (C. M. Pappalardo, *Dynamics, Identification and
//! Control of Multibody Systems*, PhD thesis, Salerno 2011); equation
//! numbers in the module docs refer to that thesis.
#![allow(non_snake_case)]
#![warn(missing_docs)]

pub mod error;
pub mod linalg;

pub use error::{ControlError, Result};
