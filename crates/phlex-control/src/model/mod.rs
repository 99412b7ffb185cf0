//! Models of mechanical systems and their forms (thesis 002 §2.3–§2.4,
//! §3.2–§3.3): constrained equations of motion (Udwadia–Kalaba), second-order
//! MDOF systems, state space (first-order and symmetric forms, outputs,
//! Markov parameters), zero-order-hold discretisation and its inverse, and
//! modal parameters. Every other folder of the crate builds on this one.
//!
//! | module | what | thesis 002 |
//! |---|---|---|
//! | [`constraints`] | position/velocity/acceleration-level constraints → `A q̈ = b` | §2.3.2–§2.3.3, eqs. (2.62)–(2.80) |
//! | [`udwadia_kalaba`] | Udwadia–Kalaba equations, pseudo-inverse and singular-mass variants | §2.3.4 |
//! | [`mdof`] | `M ẍ + R ẋ + K x = B u`: undamped and damped modes, Rayleigh damping, modal truncation | eq. (2.151), §2.4.3–§2.4.5 |
//! | [`state_space`] | `(A, B, C, D, Δt)`, first-order and symmetric forms, outputs `C_d x + C_v ẋ + C_a ẍ`, time domain | §3.2, eqs. (3.6)–(3.15) |
//! | [`zoh`] | ZOH discretisation and its inverse | eqs. (3.17)–(3.21), (3.36) |
//! | [`modal`] | frequencies, damping ratios, complex mode shapes at the sensors | §3.3, §3.6.4 |

pub mod constraints;
pub mod mdof;
pub mod modal;
pub mod state_space;
pub mod udwadia_kalaba;
pub mod zoh;

pub use mdof::{Mdof, UndampedModes};
pub use modal::{modal_parameters, ModalParams, ModalTable};
pub use state_space::{OutputMaps, Sensing, StateSpace, SymmetricForm};
pub use zoh::{c2d, d2c};
