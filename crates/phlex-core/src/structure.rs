//! Structure checks: skew-symmetry of $J$, symmetry and positive semidefiniteness of $E$, $R$.
//!
//! Tolerances are relative to the largest entry (symmetry) or largest eigenvalue (PSD),
//! so a check is independent of units. PSD is decided from the eigenvalues of the
//! symmetric part for matrices up to [`Tolerances::dense_limit`]; larger matrices are
//! checked by a Cholesky factorization of $A + \delta I$ with
//! $\delta = \mathrm{tol}\cdot\max|a_{ij}|\cdot n$ (failure to factor means an eigenvalue
//! below $-\delta$).
use crate::sparse::{self, col_iter, SparseMat};
use crate::variables::{block_of, VarBlock};
use crate::CoreError;

/// Tolerances of the structure checks.
#[derive(Debug, Clone, Copy)]
pub struct Tolerances {
    /// Relative tolerance on `|A ± Aᵀ|_max / |A|_max`.
    pub symmetry: f64,
    /// Relative tolerance on negative eigenvalues: `λ_min ≥ −psd · λ_max`.
    pub psd: f64,
    /// Largest size for which PSD is checked by a dense eigen-decomposition.
    pub dense_limit: usize,
}

impl Default for Tolerances {
    fn default() -> Self {
        Self {
            symmetry: 1e-12,
            psd: 1e-10,
            dense_limit: 1500,
        }
    }
}

fn max_defect(a: &SparseMat, sign: f64) -> (f64, usize, usize) {
    // |A + sign·Aᵀ|: build both and compare entry-wise through a dense-free merge.
    let s = sparse::add(1.0, a, sign, &sparse::transpose(a));
    let mut worst = (0.0, 0, 0);
    for j in 0..s.ncols() {
        for (i, v) in col_iter(&s, j) {
            if v.abs() > worst.0 {
                worst = (v.abs(), i, j);
            }
        }
    }
    worst
}

/// Checks $A = -A^\top$ up to `tol.symmetry · max|a_ij|`.
pub fn check_skew(
    a: &SparseMat,
    name: &str,
    blocks: &[VarBlock],
    tol: &Tolerances,
) -> Result<(), CoreError> {
    let scale = sparse::max_abs(a);
    let (defect, row, col) = max_defect(a, 1.0);
    let t = tol.symmetry * scale.max(f64::MIN_POSITIVE);
    if defect > t {
        return Err(CoreError::NotSkew {
            matrix: entry_name(name, blocks, row, col),
            defect,
            row,
            col,
            tol: t,
            scale,
        });
    }
    Ok(())
}

/// The entry `(row, col)` of matrix `name` by the variable blocks it couples,
/// `name[row block, column block]` (the error messages of the checks).
fn entry_name(name: &str, blocks: &[VarBlock], row: usize, col: usize) -> String {
    format!(
        "{name}[{}, {}]",
        block_of(blocks, row),
        block_of(blocks, col)
    )
}

/// Checks $A = A^\top$ and $A \succeq 0$ (see the module doc for the tolerance).
pub fn check_sym_psd(
    a: &SparseMat,
    name: &str,
    blocks: &[VarBlock],
    tol: &Tolerances,
) -> Result<(), CoreError> {
    let scale = sparse::max_abs(a);
    if scale == 0.0 {
        return Ok(());
    }
    let (defect, row, col) = max_defect(a, -1.0);
    let t = tol.symmetry * scale;
    if defect > t {
        return Err(CoreError::NotSymmetric {
            matrix: entry_name(name, blocks, row, col),
            defect,
            row,
            col,
            tol: t,
        });
    }
    let n = a.nrows();
    if n <= tol.dense_limit {
        let d = sparse::to_dense(a);
        let evd = d
            .self_adjoint_eigen(faer::Side::Lower)
            .map_err(|e| CoreError::LinAlg(format!("eigen-decomposition of {name}: {e:?}")))?;
        let s = evd.S().column_vector();
        let (mut min, mut imin, mut max) = (f64::INFINITY, 0, 0.0f64);
        for k in 0..n {
            if s[k] < min {
                min = s[k];
                imin = k;
            }
            max = max.max(s[k].abs());
        }
        if min < -tol.psd * max {
            // Locate the block where the offending eigenvector is largest.
            let u = evd.U();
            let mut best = (0.0, 0);
            for i in 0..n {
                if u[(i, imin)].abs() > best.0 {
                    best = (u[(i, imin)].abs(), i);
                }
            }
            return Err(CoreError::NotPsd {
                matrix: name.into(),
                block: block_of(blocks, best.1).into(),
                min_eig: min,
                tol: tol.psd * max,
            });
        }
        Ok(())
    } else {
        let delta = tol.psd * scale * n as f64;
        let shifted = sparse::add(1.0, a, 1.0, &sparse::identity(n, delta));
        match shifted.sp_cholesky(faer::Side::Lower) {
            Ok(_) => Ok(()),
            Err(_) => Err(CoreError::NotPsd {
                matrix: name.into(),
                block: "<sparse check: block not located>".into(),
                min_eig: -delta,
                tol: delta,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sparse::Triplets;

    #[test]
    fn detects_non_skew_and_non_psd_naming_the_block() {
        let blocks = vec![
            VarBlock::differential("a", "", 1),
            VarBlock::differential("b", "", 1),
        ];
        let mut t = Triplets::new(2, 2);
        t.push(0, 1, 1.0);
        t.push(1, 0, -0.5);
        let err = check_skew(&t.build(), "J", &blocks, &Tolerances::default()).unwrap_err();
        assert!(err.to_string().contains("J[a, b]") || err.to_string().contains("J[b, a]"));
        let mut t = Triplets::new(2, 2);
        t.push(0, 0, 1.0);
        t.push(1, 1, -1.0);
        let err = check_sym_psd(&t.build(), "R", &blocks, &Tolerances::default()).unwrap_err();
        match err {
            CoreError::NotPsd { block, .. } => assert_eq!(block, "b"),
            e => panic!("unexpected {e}"),
        }
    }
}
