//! # phlex-control: identification and control of multibody systems
//!
//! Implements seed 002 (C. M. Pappalardo, *Dynamics, Identification and
//! Control of Multibody Systems*, PhD thesis, Salerno 2011); equation
//! numbers in the module docs refer to that thesis.
//!
//! | module | what |
//! |---|---|
//! | [`linalg`] | dense helpers: checked LU, SVD, pseudo-inverse, eigen, `expm`, `logm`, sign function, Lyapunov |
//! | [`mdof`] | `M ẍ + R ẋ + K x = B u`: modes, Rayleigh damping, modal truncation |
//! | [`frame`] | the three-story frame with pendulum of the case study (ch. 5) |
//! | [`case_study`] | the ch. 5 case study on a virtual rig: FE/lumped structures, hammer tests + identification, LQG, EUK, EUK-EKF, peak reductions |
//! | [`state_space`] | first-order and symmetric forms, outputs `C_d x + C_v ẋ + C_a ẍ`, Markov parameters |
//! | [`zoh`] | ZOH discretisation and its inverse |
//! | [`modal`] | frequencies, damping ratios, complex mode shapes |
//! | [`markov`] | Markov parameters from pulse responses or least squares |
//! | [`okid`] | observer/Kalman filter identification |
//! | [`oe`] | output-error refinement of identified poles (variable projection) |
//! | [`n4sid`] | N4SID subspace identification (oblique projection, SVD order, least squares) |
//! | [`era`] | ERA, ERA/DC, ERA/DC with OKID, order from the singular-value gap |
//! | [`rayleigh`] | least-squares Rayleigh damping fit |
//! | [`mkr`] | physical M, K, R from an identified model |
//! | [`noise`] | seeded Gaussian noise |
//! | [`riccati`] | CARE (sign function + Newton–Kleinman), DARE (doubling) |
//! | [`lqr`] | LQR continuous/discrete, finite/infinite horizon |
//! | [`kalman`] | Kalman filters continuous/discrete, steady and time-varying |
//! | [`lqg`] | LQG closed loop and separation check |
//! | [`pole_placement`] | null-space pole placement for controller and observer, PBH tests |
//! | [`udwadia_kalaba`] | Udwadia–Kalaba equations, pseudo-inverse and singular-mass variants |
//! | [`constraints`] | position/velocity/acceleration-level constraints → `A q̈ = b` |
//! | [`euk`] | Udwadia–Kalaba control, extension to underactuated systems |
//! | [`identify`] | entry point of `phlex identify`: CSV → OKID → ERA/DC → report |
//! | [`ekf`] | continuous EKF integrated with plant and Riccati equation (EUK-EKF) |
//! | [`multibody`] | rigid bodies with Euler parameters, floating frame of reference beams, joints, UK dynamics (ch. 2.5–2.7) |
//! | [`spectral`] | FFT, Welch auto/cross spectral densities, H1 FRF, model frequency response |
//! | [`ph_bridge`] | linear pH system (phlex-core) → state space with named port inputs/outputs and probes, energy coordinates |
//! | [`ph_lqg`] | sampled-data LQG on a bridged pH model: design, separation check, exact ZOH closed-loop simulation with energy and control power |
#![allow(non_snake_case)]
#![warn(missing_docs)]
// NaN-aware comparisons (`!(x < tol)` also rejects NaN) and index loops that
// mirror the formulas are deliberate.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]
// `usize::is_multiple_of` is newer than the workspace rust-version (1.84).
#![allow(unknown_lints, clippy::manual_is_multiple_of)]

pub mod case_study;
pub mod constraints;
pub mod ekf;
pub mod era;
pub mod error;
pub mod euk;
pub mod frame;
pub mod identify;
pub mod kalman;
pub mod linalg;
pub mod lqg;
pub mod lqr;
pub mod markov;
pub mod mdof;
pub mod mkr;
pub mod modal;
pub mod multibody;
pub mod n4sid;
pub mod noise;
pub mod oe;
pub mod okid;
pub mod ph_bridge;
pub mod ph_lqg;
pub mod pole_placement;
pub mod rayleigh;
pub mod riccati;
pub mod spectral;
pub mod state_space;
pub mod udwadia_kalaba;
pub mod zoh;

pub use error::{ControlError, Result};
pub use frame::FrameParams;
pub use identify::{identify_csv, identify_data, IdentificationReport, IdentifyOptions};
pub use mdof::{Mdof, UndampedModes};
pub use modal::{modal_parameters, ModalParams, ModalTable};
pub use state_space::{OutputMaps, StateSpace, SymmetricForm};
