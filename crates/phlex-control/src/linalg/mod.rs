//! Dense linear-algebra building blocks (faer `Mat<f64>`): checked solves,
//! SVD, pseudo-inverse, eigen-decomposition, matrix exponential, logarithm,
//! sign function and Lyapunov solvers.

pub mod dense;
pub mod expm;
pub mod logm;
pub mod lyapunov;
pub mod sign;

pub use dense::*;
pub use expm::expm;
pub use logm::{logm, sqrtm_db};
pub use lyapunov::{lyap_continuous, lyap_discrete};
pub use sign::signm;
