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
//! | [`error`] | typed numerical errors |
//! | [`linsolve`] | sparse $LU$ with the symbolic stage done once ([`SparseLu`], `f64`/`c64`), refillable $\alpha E + \beta A$ patterns ([`PatternSum`]) |
//! | [`newton`] | Newton's method, full or modified ([`Newton`], [`NewtonParams`]) |
//! | [`fixed_step`] | fixed step grids that stop on input breakpoints ([`FixedStepParams`], [`FixedStepResult`]) |
//! | [`laplace_inversion`] | numerical inverse Laplace transform: de Hoog–Knight–Stokes ([`laplace_inversion::DeHoog`]) and fixed Talbot |
//! | [`midpoint`] | Crank–Nicolson / implicit midpoint for linear pHDAEs ([`LinearMidpoint`]); midpoint and discrete-gradient schemes for quasilinear pHDAEs ([`QuasiLinearMidpoint`]); exact discrete power balance |
//! | [`stormer_verlet`] | Störmer–Verlet for partitioned lossless systems ([`StormerVerlet`]) |
//! | [`consistent`] | consistent initial state of multiplier (index-2) pHDAEs |
//! | [`nullspace`] | null-space ODE of a multiplier pHDAE by QR of $G^\top$ (paper 000 eq. (51)) ([`nullspace::null_space_ode`]) |
//! | [`reduce`] | structure-preserving modal / Krylov reduction, transfer functions and moments (paper 000 eq. (50)) ([`reduce::reduce`]) |
//! | [`eigen`] | eigenfrequencies and modes of pH pencils $E\Phi\Lambda = (J - R)\Phi$, multipliers included ([`eigen::modes`]) |
#![allow(non_snake_case)]
#![warn(missing_docs)]

pub mod consistent;
pub mod eigen;
pub mod error;
pub mod fixed_step;
pub mod laplace_inversion;
pub mod linsolve;
pub mod midpoint;
pub mod newton;
pub mod nullspace;
pub mod problem;
pub mod radau5;
pub mod reduce;
pub mod signal;
pub mod stats;
pub mod stormer_verlet;

pub use eigen::{EigenMethod, EigenParams, EigenResult, Mode};
pub use error::SolveError;
pub use fixed_step::{FixedStepParams, FixedStepResult};
pub use linsolve::{PatternSum, SparseLu};
pub use midpoint::{LinearMidpoint, MidpointParams, MidpointVariant, QuasiLinearMidpoint};
pub use newton::{Newton, NewtonParams};
pub use problem::{ImplicitDae, LinearPhDae, Observer};
pub use radau5::{Radau5, Radau5Params};
pub use signal::{InputFn, Signal};
pub use stats::SolverStats;
pub use stormer_verlet::StormerVerlet;
