//! Detection of redundant joint constraints before integration.
//!
//! Redundant constraints make the constraint matrix $G$ rank deficient, so the multipliers
//! are not unique and the index-2 Newton matrices are singular. The check runs a
//! rank-revealing SVD $G = U\Sigma V^\top$ of the rows of all joints at the initial
//! configuration: the numerical rank is the number of singular values above
//! $\tau = 10^{-9}\,\sigma_{\max}\max(m, n)$, and every left singular vector $c$ of a negligible
//! singular value is a dependency $c^\top G \approx 0$ among the rows; the rows with
//! $|c_i| > 10^{-6}\|c\|_\infty$ are reported by joint and component (e.g. two hinges at the
//! same point of the same body).
use faer::Mat;

use crate::assembly::Multibody;
use crate::error::MbsError;

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
    let m = mb.n_constraints();
    if m == 0 {
        return Ok(RankReport {
            rows: 0,
            rank: 0,
            smallest_singular_value: 0.0,
            largest_singular_value: 0.0,
        });
    }
    let G = mb.constraint_matrix(x);
    // Keep the columns that carry entries (velocity variables touched by joints).
    let mut cols: Vec<usize> = Vec::new();
    for j in 0..G.ncols() {
        if phlex_core::sparse::col_iter(&G, j).any(|(_, v)| v != 0.0) {
            cols.push(j);
        }
    }
    let n = cols.len();
    let mut A = Mat::<f64>::zeros(m, n.max(1));
    for (k, &j) in cols.iter().enumerate() {
        for (i, v) in phlex_core::sparse::col_iter(&G, j) {
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
    let labels = mb.constraint_labels();
    let U = svd.U();
    let mut sets = Vec::new();
    let mut joints: Vec<String> = Vec::new();
    for k in rank..m {
        let c: Vec<f64> = (0..m).map(|i| U[(i, k)]).collect();
        let cmax = c.iter().fold(0.0f64, |a, &b| a.max(b.abs()));
        let rows: Vec<usize> = (0..m).filter(|&i| c[i].abs() > 1e-6 * cmax).collect();
        let set: Vec<String> = rows.iter().map(|&i| labels[i].clone()).collect();
        for &i in &rows {
            let name = mb.joints[mb.joint_of_row(i)].name.clone();
            if !joints.contains(&name) {
                joints.push(name);
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
