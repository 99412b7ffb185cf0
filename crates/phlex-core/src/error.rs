//! Errors of the pH core. Each variant names the offending item.
use thiserror::Error;

/// An error raised while building, checking or interconnecting pH systems.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum CoreError {
    /// A matrix that must be skew-symmetric is not.
    #[error("matrix {matrix} is not skew-symmetric: |{matrix} + {matrix}^T|_max = {defect:.3e} at ({row}, {col}) exceeds tolerance {tol:.3e} (relative to |{matrix}|_max = {scale:.3e})")]
    NotSkew {
        /// Name of the matrix ("J", "J[e_w, e_kappa]", ...).
        matrix: String,
        /// Largest entry of `A + Aᵀ`.
        defect: f64,
        /// Row of the largest defect.
        row: usize,
        /// Column of the largest defect.
        col: usize,
        /// Tolerance used.
        tol: f64,
        /// Largest absolute entry of the matrix.
        scale: f64,
    },
    /// A matrix that must be symmetric is not.
    #[error("matrix {matrix} is not symmetric: |{matrix} - {matrix}^T|_max = {defect:.3e} at ({row}, {col}) exceeds tolerance {tol:.3e}")]
    NotSymmetric {
        /// Name of the matrix.
        matrix: String,
        /// Largest entry of `A − Aᵀ`.
        defect: f64,
        /// Row of the largest defect.
        row: usize,
        /// Column of the largest defect.
        col: usize,
        /// Tolerance used.
        tol: f64,
    },
    /// A matrix that must be positive semidefinite has a negative eigenvalue.
    #[error("matrix {matrix} is not positive semidefinite: smallest eigenvalue {min_eig:.3e} < -{tol:.3e} (block {block})")]
    NotPsd {
        /// Name of the matrix.
        matrix: String,
        /// The variable block where the most negative eigenvector concentrates.
        block: String,
        /// Smallest eigenvalue found.
        min_eig: f64,
        /// Tolerance used (relative to the largest eigenvalue).
        tol: f64,
    },
    /// Matrix dimensions do not agree.
    #[error("dimension mismatch in {what}: expected {expected}, found {found}")]
    Dimension {
        /// What was being built.
        what: String,
        /// Expected size.
        expected: usize,
        /// Size found.
        found: usize,
    },
    /// A port name is unknown.
    #[error("unknown port '{name}' in {context}; available ports: {available}")]
    UnknownPort {
        /// The name asked for.
        name: String,
        /// Where it was asked for.
        context: String,
        /// Comma separated list of the ports that exist.
        available: String,
    },
    /// Two ports or blocks carry the same name.
    #[error("duplicate name '{0}': port and variable-block names must be unique")]
    DuplicateName(String),
    /// A coupling between two ports is inconsistent.
    #[error("interconnection of '{a}' and '{b}': {reason}")]
    BadInterconnection {
        /// First port.
        a: String,
        /// Second port.
        b: String,
        /// What is wrong.
        reason: String,
    },
    /// An error from the linear-algebra back end.
    #[error("linear algebra: {0}")]
    LinAlg(String),
    /// Invalid parameter; the message states the inequality that failed.
    #[error("invalid parameter: {0}")]
    Parameter(String),
    /// The drift projection onto the position constraints ([`crate::PhSystem::project`])
    /// did not reach its tolerance.
    #[error("drift projection did not converge after {iterations} iterations (max |Phi| = {residual:.3e} > tol {tol:.3e}); loosen the projection tolerance, raise its iteration limit, or reduce the time step")]
    ProjectionNotConverged {
        /// Gauss–Newton iterations performed.
        iterations: usize,
        /// Largest position-constraint violation left.
        residual: f64,
        /// Requested tolerance.
        tol: f64,
    },
}
