//! Detection of redundant joint constraints before integration: the rank-revealing check of
//! `common::rank` applied to the planar [`Multibody`].
//!
//! Redundant constraints make the constraint matrix $G$ of paper 000 eq. (46) rank
//! deficient, so the multipliers are not unique and the index-2 Newton matrices are
//! singular. An SVD of the rows of all joints at the initial configuration gives the
//! numerical rank (singular values above $10^{-9}\sigma_{\max}\max(m, n)$); every
//! dependency $c^\top G \approx 0$ among the rows is reported by joint and component (e.g.
//! two hinges at the same point of the same body).
use crate::common::rank::check_constraint_rank;
use crate::error::MbsError;
use crate::planar::assembly::Multibody;

/// Result of a successful rank check.
#[derive(Debug, Clone, PartialEq)]
pub struct RankReport {
    /// Number of constraint rows.
    pub rows: usize,
    /// Numerical rank.
    pub rank: usize,
    /// Smallest singular value kept (0 if no rows).
    pub smallest_singular_value: f64,
    /// Largest singular value.
    pub largest_singular_value: f64,
}

/// Checks that the joint constraints of `mb` at state `x` are independent; the error names
/// the joints of every dependent set.
pub fn check_redundancy(mb: &Multibody, x: &[f64]) -> Result<RankReport, MbsError> {
    check_constraint_rank(mb, x)
}
