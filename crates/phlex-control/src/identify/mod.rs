//! System identification (thesis 002 ch. 3, §5.5): from sampled
//! input/output records to a discrete realisation, its modal parameters and
//! a physical model.
//!
//! | module | what | thesis 002 |
//! |---|---|---|
//! | [`front_door`] | `phlex identify`: CSV → OKID → ERA/DC (or N4SID) → report | §5.5 |
//! | [`markov`] | Markov parameters from pulse responses or least squares | §3.4 |
//! | [`okid`] | observer/Kalman filter identification | §3.5 |
//! | [`era`] | ERA, ERA/DC, ERA/DC with OKID, order selection, output-error input matrices | §3.6 |
//! | [`n4sid`] | N4SID subspace identification | §5.5 (Van Overschee–De Moor 1996) |
//! | [`oe`] | output-error refinement of identified poles (variable projection) | |
//! | [`mkr`] | physical `M`, `K`, `R` from an identified model | §3.7 |
//! | [`records`] | checks of sampled input/output records and Δt | §3.4 |
//! | [`rayleigh`] | least-squares Rayleigh damping fit | §3.6.4 |

pub mod era;
pub mod front_door;
pub mod markov;
pub mod mkr;
pub mod n4sid;
pub mod oe;
pub mod okid;
pub mod rayleigh;
pub mod records;

pub use era::{Order, Realization};
pub use front_door::{
    identify_csv, identify_data, read_csv_columns, IdentificationReport, IdentifyOptions, Method,
};
