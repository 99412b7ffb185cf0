//! Rank-revealing check of the joint constraint rows, written once for the planar and the
//! spatial assembly ([`crate::planar::redundancy`], [`crate::spatial::redundancy`]).
//!
//! Redundant constraints make $G$ of the velocity constraints $G(x)p = B_\lambda u$
//! (paper 000 eq. (46)) rank deficient, so the multipliers are not unique and the index-2
//! Newton matrices are singular. An SVD $G = U\Sigma V^\top$ of the rows of all joints (over
//! the columns they touch) gives the numerical rank, the number of singular values above
//! $\tau = 10^{-9}\,\sigma_{\max}\max(m, n)$; every left singular vector $c$ of a negligible
//! singular value is a dependency $c^\top G \approx 0$ among the rows.
//!
//! Which rows to name (and to release, [`select_independent_rows`]): a Gram–Schmidt sweep
//! over the rows in joint order keeps a row when its component orthogonal to the rows kept
//! before is above the same cut-off; a row below it is redundant, and the kept rows it is a
//! combination of ($g_i = \sum_j c_j g_j$, $|c_j| > 10^{-8}\max|c|$) form a minimal dependent
//! set with it. Releasing the redundant rows leaves a full-rank $G$ of the same row space,
//! so a consistent over-constrained mechanism (e.g. Bricard's) moves as before.
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
    let sel = select_independent_rows(mb, x);
    let mut sets = Vec::new();
    let mut joints: Vec<String> = Vec::new();
    for (&r, deps) in sel.redundant.iter().zip(&sel.depends_on) {
        let set: Vec<String> = deps.iter().map(|&i| labels[i].clone()).collect();
        sets.push(format!(
            "{} = combination of {{{}}}",
            labels[r],
            set.join(", ")
        ));
        for &i in std::iter::once(&r).chain(deps) {
            let name = mb.joint_name_of_row(i);
            if !joints.iter().any(|j| j == name) {
                joints.push(name.to_string());
            }
        }
    }
    Err(MbsError::RedundantConstraints {
        rank_deficiency: m - rank,
        rank,
        rows: m,
        details: sets.join("; "),
        joints,
    })
}

/// The rows of $G$ a Gram–Schmidt sweep in joint order finds redundant (see the module
/// documentation), each with the earlier independent rows it is a combination of.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RowSelection {
    /// Redundant rows, in order.
    pub redundant: Vec<usize>,
    /// For each redundant row, the independent rows of its combination.
    pub depends_on: Vec<Vec<usize>>,
}

/// The redundant constraint rows of `mb` at `x` and their minimal dependent sets
/// (rank cut-off $10^{-9}\sigma\max(m, n)$ with $\sigma$ the largest row norm, as for the
/// SVD's singular values).
pub(crate) fn select_independent_rows<A: ConstrainedAssembly>(mb: &A, x: &[f64]) -> RowSelection {
    let m = mb.n_constraint_rows();
    let mut rows = vec![std::collections::BTreeMap::<usize, f64>::new(); m];
    mb.for_each_constraint_row_entry(x, &mut |r, c, v| *rows[r].entry(c).or_insert(0.0) += v);
    let cols: Vec<usize> = {
        let mut c: Vec<usize> = rows.iter().flat_map(|r| r.keys().copied()).collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    let n = cols.len();
    let dense: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| {
            let mut d = vec![0.0; n];
            for (c, v) in r {
                if let Ok(k) = cols.binary_search(c) {
                    d[k] = *v;
                }
            }
            d
        })
        .collect();
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let scale = dense
        .iter()
        .map(|g| dot(g, g).sqrt())
        .fold(0.0f64, f64::max);
    let tol = 1e-9 * scale * (m.max(n) as f64);
    // Modified Gram–Schmidt with one re-orthogonalisation: kept rows = Q R.
    let mut q: Vec<Vec<f64>> = Vec::new();
    let mut r_cols: Vec<Vec<f64>> = Vec::new(); // column k of R (length k + 1)
    let mut kept: Vec<usize> = Vec::new();
    let mut sel = RowSelection::default();
    for (i, g) in dense.iter().enumerate() {
        let mut v = g.clone();
        let mut coef = vec![0.0; q.len()];
        for _ in 0..2 {
            for (k, qk) in q.iter().enumerate() {
                let a = dot(qk, &v);
                coef[k] += a;
                v.iter_mut().zip(qk).for_each(|(vi, qi)| *vi -= a * qi);
            }
        }
        let norm = dot(&v, &v).sqrt();
        if norm > tol {
            v.iter_mut().for_each(|vi| *vi /= norm);
            coef.push(norm);
            q.push(v);
            r_cols.push(coef);
            kept.push(i);
            continue;
        }
        // g = Q coef = (kept rows) R⁻¹ coef: back substitution.
        let k = q.len();
        let mut c = coef;
        for j in (0..k).rev() {
            c[j] /= r_cols[j][j];
            for l in 0..j {
                c[l] -= r_cols[j][l] * c[j];
            }
        }
        let cmax = c.iter().fold(0.0f64, |a, b| a.max(b.abs()));
        let deps = (0..k)
            .filter(|&j| c[j].abs() > 1e-8 * cmax)
            .map(|j| kept[j])
            .collect();
        sel.redundant.push(i);
        sel.depends_on.push(deps);
    }
    sel
}
