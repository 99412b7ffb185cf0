//! # phlex-solve: linear solves, Newton, time integrators and eigen-solvers
//!
//! Consumes the one system trait of `phlex-core`, [`phlex_core::PhSystem`] (and the linear
//! [`phlex_core::LinearPhSystem`] for the eigen-solvers and reductions), and never reaches
//! inside a model.
//!
//! | module | what |
//! |---|---|
//! | [`signal`] | inputs $u(t)$ with switching times |
//! | [`problem`] | the [`ImplicitDae`] interface of Radau IIA and the [`Observer`] callback |
//! | [`stats`] | work counters ([`SolverStats`]) |
//! | [`error`] | typed numerical errors ([`SolveError`]) |
//! | [`linsolve`] | sparse $LU$ with the symbolic stage done once ([`SparseLu`], `f64`/`c64`), refillable $\alpha E + \beta A$ patterns ([`PatternSum`]) |
//! | [`step_lu`] | sparse $LU$ aware of dense rows and columns (floating bodies), linear fill ([`StepLu`]) |
//! | [`newton`] | Newton's method, full or modified ([`Newton`], [`NewtonParams`]) |
//! | [`step_newton`] | Newton on [`StepLu`] with re-linearisation on stagnation ([`StepNewton`]) |
//! | [`fixed_step`] | fixed step grids that stop on input breakpoints ([`FixedStepParams`]) |
//! | [`integrators`] | every time integrator, generic over [`phlex_core::PhSystem`], and the front door [`integrate()`] with [`Integrator`]: midpoint / discrete gradient, Gauss collocation, Radau IIA, Störmer–Verlet, RK4 |
//! | [`laplace_inversion`] | numerical inverse Laplace transform: de Hoog–Knight–Stokes ([`laplace_inversion::DeHoog`]) and fixed Talbot |
//! | [`consistent`] | consistent initial state of multiplier (index-2) pHDAEs |
//! | [`nullspace`] | null-space ODE of a multiplier pHDAE by QR of $G^\top$ (paper 000 eq. (51)) ([`nullspace::null_space_ode`]) |
//! | [`reduce`] | structure-preserving modal / Krylov reduction, transfer functions and moments (paper 000 eq. (50)) ([`reduce::reduce`]) |
//! | [`eigen`] | eigenfrequencies and modes of pH pencils $E\Phi\Lambda = (J - R)\Phi$, multipliers included ([`eigen::modes`]) |
//!
//! The integrator modules are also reachable at the crate root (`phlex_solve::midpoint`,
//! `phlex_solve::radau5`, ...), the paths the model crates use.
#![allow(non_snake_case)]
#![warn(missing_docs)]

pub mod consistent;
pub mod eigen;
pub mod error;
pub mod fixed_step;
pub mod integrators;
pub mod laplace_inversion;
pub mod linsolve;
pub mod newton;
pub mod nullspace;
pub mod problem;
pub mod reduce;
pub mod signal;
pub mod stats;
pub mod step_lu;
pub mod step_newton;

pub use eigen::{EigenMethod, EigenParams, EigenResult, Mode};
pub use error::SolveError;
pub use fixed_step::FixedStepParams;
pub use integrators::{
    gauss, integrate, midpoint, ph_dae, radau5, rk4, stormer_verlet, GaussCollocation, GaussParams,
    IntegrationRun, Integrator, LedgerKind, LinearMidpoint, Midpoint, MidpointParams,
    MidpointVariant, PhDae, Radau5, Radau5Params, Rk4, StormerVerlet,
};
pub use linsolve::{PatternSum, SparseLu};
pub use newton::{Newton, NewtonParams};
pub use problem::{ImplicitDae, Observer};
pub use signal::{InputFn, Signal};
pub use stats::SolverStats;
pub use step_lu::StepLu;
pub use step_newton::StepNewton;
