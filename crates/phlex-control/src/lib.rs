//! # phlex-control: identification and control of multibody systems
//!
//! Implements seed 002 (C. M. Pappalardo, *Dynamics, Identification and
//! Control of Multibody Systems*, PhD thesis, Salerno 2011); equation
//! numbers in the module docs refer to that thesis.
//!
//! The crate is layered; a folder uses only the folders above it (no import
//! cycles):
//!
//! | layer | module | what | thesis 002 |
//! |---|---|---|---|
//! | 0 | [`error`], [`linalg`] | error type; dense helpers: checked LU, SVD, pseudo-inverse, eigen, `expm`, `logm`, sign function, Lyapunov | |
//! | 1 | [`model`] | constrained equations of motion (Udwadia–Kalaba), `M ẍ + R ẋ + K x = B u`, state space, ZOH, modal parameters | §2.3–§2.4, §3.2–§3.3 |
//! | 2 | [`signal`] | seeded noise, FFT, Welch spectra, H₁ FRF | §4.3, §5.5 |
//! | 3 | [`identify`] | Markov parameters, OKID, ERA/DC, N4SID, output-error refinement, Rayleigh fit, MKR; `phlex identify` | ch. 3, §5.5 |
//! | 3 | [`control`] | pole placement, Riccati, LQR, Kalman, LQG, EKF, Udwadia–Kalaba control (EUK) | ch. 4, §5.6–§5.7 |
//! | 4 | [`multibody`] | rigid bodies with Euler parameters, floating frame of reference beams, joints, UK dynamics, linearisation | §2.5–§2.7 |
//! | 4 | [`ph`] | linear pH system (phlex-core) → state space with named ports; sampled-data LQG with energy account | §4.4 |
//! | 5 | [`case_study`] | the ch. 5 three-story frame with pendulum on a virtual rig: hammer tests + identification, LQG, EUK, EUK-EKF, peak reductions | ch. 5 |
//!
//! The main types are re-exported at the crate root.
#![allow(non_snake_case)]
#![warn(missing_docs)]
// NaN-aware comparisons (`!(x < tol)` also rejects NaN) and index loops that
// mirror the formulas are deliberate.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]
// `usize::is_multiple_of` is newer than the workspace rust-version (1.84).
#![allow(unknown_lints, clippy::manual_is_multiple_of)]

pub mod case_study;
pub mod control;
pub mod error;
pub mod identify;
pub mod linalg;
pub mod model;
pub mod multibody;
pub mod ph;
pub mod signal;

pub use case_study::FrameParams;
pub use error::{ControlError, Result};
pub use identify::{identify_csv, identify_data, IdentificationReport, IdentifyOptions};
pub use model::{modal_parameters, Mdof, ModalParams, ModalTable, UndampedModes};
pub use model::{OutputMaps, Sensing, StateSpace, SymmetricForm};
