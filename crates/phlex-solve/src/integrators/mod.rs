//! The time integrators of phlex, every one generic over [`phlex_core::PhSystem`], with one
//! result type ([`IntegrationRun`]), one statistics type ([`crate::SolverStats`]) and one
//! error type ([`crate::SolveError`]); [`integrate`] is the front door.
//!
//! | module | what |
//! |---|---|
//! | [`front_door`] | the front door: [`Integrator`] (which method, with its settings) and [`integrate()`] |
//! | [`run`] | [`IntegrationRun`] (final state, stats, energy ledger, step residual, drift, projection) and [`LedgerKind`] |
//! | [`midpoint`] | implicit midpoint / discrete gradient: Newton on the exact Jacobian ([`Midpoint`]), linear fast path ([`LinearMidpoint`]) |
//! | [`gauss`] | Gauss–Legendre collocation, $s$ stages, conservation form for state-dependent descriptors, step halving ([`GaussCollocation`]) |
//! | [`radau5`] | adaptive Radau IIA of order 5 for $M\dot y = f(t, y)$ ([`Radau5`]) |
//! | [`ph_dae`] | any [`phlex_core::PhSystem`] as a Radau DAE, constant-mass form included ([`PhDae`]) |
//! | [`stormer_verlet`] | Störmer–Verlet for linear lossless two-field systems ([`StormerVerlet`]) |
//! | [`rk4`] | classical Runge–Kutta for small explicit ODEs ([`Rk4`]) |
pub mod front_door;
pub mod gauss;
pub mod midpoint;
pub mod ph_dae;
pub mod radau5;
pub mod rk4;
pub mod run;
pub mod stormer_verlet;

pub use front_door::{integrate, Integrator};
pub use gauss::{GaussCollocation, GaussParams, GaussTableau};
pub use midpoint::{LinearMidpoint, Midpoint, MidpointParams, MidpointVariant};
pub use ph_dae::PhDae;
pub use radau5::{OutputTimes, Radau5, Radau5Params, Radau5Solution};
pub use rk4::Rk4;
pub use run::{IntegrationRun, LedgerKind};
pub use stormer_verlet::StormerVerlet;
