//! Rank-revealing check of the joint constraint rows, written once for the planar and the
//! spatial assembly ([`crate::planar::redundancy`], [`crate::spatial::redundancy`]).
//!
//! Redundant constraints make $G$ of the velocity constraints $G(x)p = B_\lambda u$
//! (paper 000 eq. (46)) rank deficient, so the multipliers are not unique and the index-2
//! Newton matrices are singular. An SVD $G = U\Sigma V^\top$ of the rows of all joints (over
//! the columns they touch) gives the numerical rank, the number of singular values above
//! $\tau = 10^{-9}\,\sigma_{\max}\max(m, n)$; every left singular vector $c$ of a negligible
//! singular value is a dependency $c^\top G \approx 0$ among the rows, reported by the rows
//! with $|c_i| > 10^{-6}\|c\|_\infty$ and their joints.
use faer::Mat;
use phlex_core::sparse::col_iter;
use phlex_core::Triplets;

use crate::common::assembly::ConstrainedAssembly;
use crate::error::MbsError;
use crate::planar::redundancy::RankReport;

/// Checks that the joint constraint rows of `mb` at state `x` are independent; the error
/// names the joints of every dependent set.
pub(crate) fn check_constraint_rank<A: ConstrainedAssembly>(
    mb: &A,
    x: &[f64],
) -> Result<RankReport, MbsError> {
    let m = mb.n_constraint_rows();
    if m == 0 {
        return Ok(RankReport {
            rows: 0,
            rank: 0,
            smallest_singular_value: 0.0,
            largest_singular_value: 0.0,
        });
    }
    let mut t = Triplets::new(m, mb.n_states());
    mb.for_each_constraint_row_entry(x, &mut |r, c, v| t.push(r, c, v));
    let G = t.build();
    // Keep the columns that carry entries (velocity variables touched by joints).
    let cols: Vec<usize> = (0..G.ncols())
        .filter(|&j| col_iter(&G, j).any(|(_, v)| v != 0.0))
        .collect();
    let n = cols.len();
    let mut A = Mat::<f64>::zeros(m, n.max(1));
    for (k, &j) in cols.iter().enumerate() {
        for (i, v) in col_iter(&G, j) {
            A[(i, k)] += v;
        }
    }
    let svd = A.svd().map_err(|e| {
        MbsError::Solve(phlex_solve::SolveError::Eigen(format!(
            "SVD of the constraint matrix: {e:?}"
        )))
    })?;
    let s: Vec<f64> = (0..m.min(n.max(1)))
        .map(|i| svd.S().column_vector()[i])
        .collect();
    let smax = s.iter().fold(0.0f64, |a, &b| a.max(b));
    let tol = 1e-9 * smax * (m.max(n) as f64);
    let rank = s.iter().filter(|&&v| v > tol).count();
    if rank == m {
        let smin = s.iter().fold(f64::INFINITY, |a, &b| a.min(b));
        return Ok(RankReport {
            rows: m,
            rank,
            smallest_singular_value: smin,
            largest_singular_value: smax,
        });
    }
    let labels = mb.row_labels();
    let U = svd.U();
    let mut sets = Vec::new();
    let mut joints: Vec<String> = Vec::new();
    for k in rank..m {
        let c: Vec<f64> = (0..m).map(|i| U[(i, k)]).collect();
        let cmax = c.iter().fold(0.0f64, |a, &b| a.max(b.abs()));
        let rows: Vec<usize> = (0..m).filter(|&i| c[i].abs() > 1e-6 * cmax).collect();
        let set: Vec<String> = rows.iter().map(|&i| labels[i].clone()).collect();
        for &i in &rows {
            let name = mb.joint_name_of_row(i);
            if !joints.iter().any(|j| j == name) {
                joints.push(name.to_string());
            }
        }
        sets.push(format!("{{{}}}", set.join(", ")));
    }
    Err(MbsError::RedundantConstraints {
        rank_deficiency: m - rank,
        rank,
        rows: m,
        details: sets.join("; "),
        joints,
    })
}
