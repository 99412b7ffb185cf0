//! Detection of redundant spatial joint constraints: the rank-revealing check of
//! `common::rank` (SVD of $G$ of paper 000 eq. (46), rank cut-off
//! $10^{-9}\sigma_{\max}\max(m, n)$, dependent rows named by joint and row label) applied to
//! [`Multibody3d`].
use crate::common::rank::check_constraint_rank;
use crate::error::MbsError;
use crate::planar::redundancy::RankReport;
use crate::spatial::assembly::Multibody3d;

/// Checks that the joint constraints of `mb` at state `x` are independent; the error names
/// the joints of every dependent set.
pub fn check_redundancy_3d(mb: &Multibody3d, x: &[f64]) -> Result<RankReport, MbsError> {
    check_constraint_rank(mb, x)
}
