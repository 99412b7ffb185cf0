//! Typed errors of the identification and control algorithms.
//!
//! Every variant names the offending item (a matrix, a column, a mode, a
//! parameter) so that the CLI can print a clear message and exit with code 2.

use thiserror::Error;

/// Errors of `phlex-control`.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ControlError {
    /// A matrix has the wrong shape.
    #[error("dimension mismatch for `{name}`: expected {expected}, got {got}")]
    Dimension {
        /// name of the offending matrix or vector
        name: String,
        /// expected shape, e.g. "4x4"
        expected: String,
        /// actual shape
        got: String,
    },
    /// A matrix that must be invertible is (numerically) singular.
    #[error("matrix `{name}` is singular (reciprocal condition estimate {rcond:.3e})")]
    Singular {
        /// name of the matrix
        name: String,
        /// estimate of the reciprocal condition number
        rcond: f64,
    },
    /// A matrix that must be symmetric positive definite is not.
    #[error("matrix `{name}` is not symmetric positive definite")]
    NotPositiveDefinite {
        /// name of the matrix
        name: String,
    },
    /// An eigen or singular value decomposition failed to converge.
    #[error("decomposition `{what}` did not converge")]
    Decomposition {
        /// which decomposition
        what: String,
    },
    /// An iteration (sign function, doubling, square roots) did not converge.
    #[error("iteration `{what}` did not converge in {iterations} iterations (last change {residual:.3e})")]
    NoConvergence {
        /// which iteration
        what: String,
        /// iterations done
        iterations: usize,
        /// last relative change or residual
        residual: f64,
    },
    /// The algebraic Riccati equation has no stabilising solution.
    #[error("Riccati equation `{which}` has no stabilising solution: {reason}")]
    NoStabilizingSolution {
        /// "CARE" or "DARE"
        which: String,
        /// why (closed-loop eigenvalue, residual, imaginary-axis eigenvalues...)
        reason: String,
    },
    /// A mode of `A` cannot be moved by the input (PBH rank test).
    #[error(
        "mode λ = {re:.6} {im:+.6}i of A is uncontrollable from B (PBH σ_min/σ_max = {ratio:.3e})"
    )]
    Uncontrollable {
        /// real part of the eigenvalue
        re: f64,
        /// imaginary part of the eigenvalue
        im: f64,
        /// smallest over largest singular value of `[A − λI, B]`
        ratio: f64,
    },
    /// A mode of `A` cannot be seen at the output (PBH rank test).
    #[error(
        "mode λ = {re:.6} {im:+.6}i of A is unobservable from C (PBH σ_min/σ_max = {ratio:.3e})"
    )]
    Unobservable {
        /// real part of the eigenvalue
        re: f64,
        /// imaginary part of the eigenvalue
        im: f64,
        /// smallest over largest singular value of `[A − λI; C]`
        ratio: f64,
    },
    /// A requested set of poles is not valid (complex pole without its conjugate, too many repeats...).
    #[error("invalid pole set: {reason}")]
    InvalidPoles {
        /// explanation
        reason: String,
    },
    /// A parameter is out of its valid range; the message states the inequality.
    #[error("parameter `{name}` is invalid: {reason}")]
    InvalidParameter {
        /// parameter name
        name: String,
        /// which inequality failed
        reason: String,
    },
    /// Too few samples (or Markov parameters) for the requested sizes.
    #[error("not enough data for {what}: need {needed}, have {available}")]
    NotEnoughData {
        /// what needs the data
        what: String,
        /// samples needed
        needed: usize,
        /// samples available
        available: usize,
    },
    /// A column requested from a data file does not exist.
    #[error("column `{name}` not found in data (available: {available})")]
    MissingColumn {
        /// requested column
        name: String,
        /// comma separated list of available columns
        available: String,
    },
    /// A data value is missing, unparsable or not finite.
    #[error("bad value {value:?} in column `{column}` at data row {row}")]
    BadValue {
        /// column name
        column: String,
        /// 1-based data row (header excluded)
        row: usize,
        /// the raw text
        value: String,
    },
    /// Malformed CSV input.
    #[error("malformed CSV: {0}")]
    Csv(String),
    /// Requirements of the MKR method are not met.
    #[error("MKR: {0}")]
    Mkr(String),
    /// A mode on or outside the stability boundary cannot be moved by the input.
    #[error(
        "the pair (A, B) is not stabilisable: mode λ = {re:.6} {im:+.6}i ({boundary}) is uncontrollable (PBH σ_min/σ_max = {ratio:.3e}); actuate a port that moves this mode"
    )]
    NotStabilizable {
        /// real part of the eigenvalue
        re: f64,
        /// imaginary part of the eigenvalue
        im: f64,
        /// "|λ| = …" (discrete) or "Re λ = …" (continuous)
        boundary: String,
        /// smallest over largest singular value of `[A − λI, B]`
        ratio: f64,
    },
    /// A mode on or outside the stability boundary cannot be seen at the outputs.
    #[error(
        "the pair (A, C) is not detectable: mode λ = {re:.6} {im:+.6}i ({boundary}) is unobservable (PBH σ_min/σ_max = {ratio:.3e}); measure an output that sees this mode"
    )]
    NotDetectable {
        /// real part of the eigenvalue
        re: f64,
        /// imaginary part of the eigenvalue
        im: f64,
        /// "|λ| = …" (discrete) or "Re λ = …" (continuous)
        boundary: String,
        /// smallest over largest singular value of `[A − λI; C]`
        ratio: f64,
    },
    /// A named port or probe does not exist in the model.
    #[error("unknown {kind} `{name}` (available: {available})")]
    UnknownName {
        /// "input port", "output port or probe", ...
        kind: String,
        /// the requested name
        name: String,
        /// comma separated list of available names
        available: String,
    },
    /// The descriptor system cannot be brought to state-space form.
    #[error("descriptor system: {0}")]
    Descriptor(String),
    /// A discrete-time eigenvalue has no real logarithm (on the negative real axis).
    #[error("eigenvalue {re:.6} {im:+.6}i has no principal logarithm (closed negative real axis)")]
    NoLogarithm {
        /// real part
        re: f64,
        /// imaginary part
        im: f64,
    },
}

/// Result alias of this crate.
pub type Result<T> = std::result::Result<T, ControlError>;

pub(crate) fn dim_err(name: &str, er: usize, ec: usize, r: usize, c: usize) -> ControlError {
    ControlError::Dimension {
        name: name.to_string(),
        expected: format!("{er}x{ec}"),
        got: format!("{r}x{c}"),
    }
}
