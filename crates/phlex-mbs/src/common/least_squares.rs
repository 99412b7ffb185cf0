//! Minimum-norm least squares $x = A^{+}b$ by a thin SVD, the step of the Gauss–Newton
//! iterations on the joint position residuals (paper 000 §6.3 initial conditions, Remark 9
//! drift): redundant constraint rows make $A$ rank deficient, the pseudo-inverse still gives
//! the smallest correction. Also the dense solve of small square systems ([`dense_solve`]).
use faer::Mat;

use crate::error::MbsError;

/// $\max_i |v_i|$ (0 for an empty slice).
pub(crate) fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, a| m.max(a.abs()))
}

/// Minimum-norm solution of `A x = b`: $x = \sum_{\sigma_i > 10^{-12}\sigma_{\max}}
/// v_i (u_i^\top b)/\sigma_i$. `what` names the matrix in the error of a failed SVD.
pub(crate) fn min_norm_solve(A: &Mat<f64>, b: &[f64], what: &str) -> Result<Vec<f64>, MbsError> {
    let (m, n) = (A.nrows(), A.ncols());
    let svd = A.thin_svd().map_err(|e| {
        MbsError::Solve(phlex_solve::SolveError::Eigen(format!(
            "SVD of the {what}: {e:?}"
        )))
    })?;
    let k = m.min(n);
    let s: Vec<f64> = (0..k).map(|i| svd.S().column_vector()[i]).collect();
    let smax = s.iter().fold(0.0f64, |a, &c| a.max(c));
    let (U, V) = (svd.U(), svd.V());
    let mut x = vec![0.0; n];
    for i in 0..k {
        if s[i] > 1e-12 * smax {
            let c: f64 = (0..m).map(|r| U[(r, i)] * b[r]).sum::<f64>() / s[i];
            for (j, xj) in x.iter_mut().enumerate() {
                *xj += c * V[(j, i)];
            }
        }
    }
    Ok(x)
}

/// Dense helper: solves `A x = b` by partial-pivoting LU (small systems).
pub(crate) fn dense_solve(A: &Mat<f64>, b: &[f64]) -> Vec<f64> {
    use faer::linalg::solvers::Solve;
    let lu = A.partial_piv_lu();
    let mut rhs = Mat::<f64>::zeros(b.len(), 1);
    for (i, v) in b.iter().enumerate() {
        rhs[(i, 0)] = *v;
    }
    let x = lu.solve(&rhs);
    (0..b.len()).map(|i| x[(i, 0)]).collect()
}
