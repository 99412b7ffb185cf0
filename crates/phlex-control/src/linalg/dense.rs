//! Small dense helpers on `faer::Mat<f64>`: block assembly, checked LU
//! solves, SVD, pseudo-inverse, eigen-decomposition with complex vectors.

use crate::error::{dim_err, ControlError, Result};
use faer::linalg::solvers::{DenseSolveCore, Solve};
use faer::{c64, Mat, MatRef};

/// Identity matrix of size `n`.
pub fn eye(n: usize) -> Mat<f64> {
    Mat::identity(n, n)
}

/// The `r × c` matrix with the entries `v` listed row by row (`A[i][j] = v[i c + j]`),
/// as matrices are printed in the thesis and the tests; `v` must have `r c` entries.
pub fn from_rows(r: usize, c: usize, v: &[f64]) -> Mat<f64> {
    assert_eq!(
        v.len(),
        r * c,
        "from_rows: {} entries for a {r} × {c} matrix",
        v.len()
    );
    Mat::from_fn(r, c, |i, j| v[i * c + j])
}

/// Checks that `A` is `r × c`.
pub fn check_shape(name: &str, A: MatRef<'_, f64>, r: usize, c: usize) -> Result<()> {
    if A.nrows() != r || A.ncols() != c {
        return Err(dim_err(name, r, c, A.nrows(), A.ncols()));
    }
    Ok(())
}

/// Checks that `A` is square and returns its size.
pub fn check_square(name: &str, A: MatRef<'_, f64>) -> Result<usize> {
    if A.nrows() != A.ncols() {
        return Err(ControlError::Dimension {
            name: name.to_string(),
            expected: "square".into(),
            got: format!("{}x{}", A.nrows(), A.ncols()),
        });
    }
    Ok(A.nrows())
}

/// Checks that every entry of `A` is finite.
pub fn check_finite(name: &str, A: MatRef<'_, f64>) -> Result<()> {
    for j in 0..A.ncols() {
        for i in 0..A.nrows() {
            if !A[(i, j)].is_finite() {
                return Err(ControlError::InvalidParameter {
                    name: name.to_string(),
                    reason: format!("entry ({i},{j}) is not finite"),
                });
            }
        }
    }
    Ok(())
}

/// `Σₖ Mₖ xₖ` for the pairs `(Mₖ, xₖ)` (all `Mₖ` with the same row count, `xₖ` of
/// length `Mₖ.ncols()`), each row summed term by term in index order: the affine maps
/// `A z + B u` and `C z + D u` of the state-space recursions, and the Kalman predictor
/// `A ẑ + B u + K (y − ŷ)` (thesis 002 eq. (4.115)).
pub fn mat_vec_sum(terms: &[(MatRef<'_, f64>, &[f64])]) -> Vec<f64> {
    let rows = terms.first().map_or(0, |(M, _)| M.nrows());
    (0..rows)
        .map(|i| {
            let mut s = 0.0;
            for (M, x) in terms {
                assert!(
                    M.nrows() == rows && M.ncols() == x.len(),
                    "mat_vec_sum: sizes differ"
                );
                for j in 0..x.len() {
                    s += M[(i, j)] * x[j];
                }
            }
            s
        })
        .collect()
}

/// Horizontal concatenation `[A₁, A₂, …]` (all with the same row count).
pub fn hstack(blocks: &[MatRef<'_, f64>]) -> Mat<f64> {
    let r = blocks.first().map_or(0, |b| b.nrows());
    let c: usize = blocks.iter().map(|b| b.ncols()).sum();
    let mut out = Mat::zeros(r, c);
    let mut j0 = 0;
    for b in blocks {
        assert_eq!(b.nrows(), r, "hstack/vstack: block sizes differ");
        out.as_mut().submatrix_mut(0, j0, r, b.ncols()).copy_from(b);
        j0 += b.ncols();
    }
    out
}

/// Vertical concatenation `[A₁; A₂; …]` (all with the same column count).
/// It is the transpose of the [`hstack`] of the transposes, `[A₁; A₂] = [A₁ᵀ, A₂ᵀ]ᵀ`.
pub fn vstack(blocks: &[MatRef<'_, f64>]) -> Mat<f64> {
    let transposed: Vec<MatRef<'_, f64>> = blocks.iter().map(|b| b.transpose()).collect();
    hstack(&transposed).transpose().to_owned()
}

/// Central-difference Jacobian `J[i][j] = (fᵢ(z + hⱼeⱼ) − fᵢ(z − hⱼeⱼ)) / 2hⱼ`
/// (`rows × z.len()`) of `eval(z, f)` with step `hⱼ = 10⁻⁶(1 + |zⱼ|)`
/// (truncation `O(h²)`, round-off `O(ε/h)`: about 1e-9 relative).
pub fn fd_jacobian(rows: usize, z: &[f64], mut eval: impl FnMut(&[f64], &mut [f64])) -> Mat<f64> {
    let n = z.len();
    let mut J = Mat::zeros(rows, n);
    let mut x = z.to_vec();
    let mut fp = vec![0.0; rows];
    let mut fm = vec![0.0; rows];
    for j in 0..n {
        let h = 1e-6 * (1.0 + z[j].abs());
        x[j] = z[j] + h;
        eval(&x, &mut fp);
        x[j] = z[j] - h;
        eval(&x, &mut fm);
        x[j] = z[j];
        for i in 0..rows {
            J[(i, j)] = (fp[i] - fm[i]) / (2.0 * h);
        }
    }
    J
}

/// 2×2 block matrix `[[A11, A12], [A21, A22]]`.
pub fn block2(blocks: [[MatRef<'_, f64>; 2]; 2]) -> Mat<f64> {
    let [top, bot] = blocks.map(|row| hstack(&row));
    vstack(&[top.as_ref(), bot.as_ref()])
}

/// Block-diagonal matrix.
pub fn blockdiag(blocks: &[MatRef<'_, f64>]) -> Mat<f64> {
    let r: usize = blocks.iter().map(|b| b.nrows()).sum();
    let c: usize = blocks.iter().map(|b| b.ncols()).sum();
    let mut out = Mat::zeros(r, c);
    let (mut i0, mut j0) = (0, 0);
    for b in blocks {
        out.as_mut()
            .submatrix_mut(i0, j0, b.nrows(), b.ncols())
            .copy_from(b);
        i0 += b.nrows();
        j0 += b.ncols();
    }
    out
}

/// Diagonal matrix from a slice.
pub fn diag(d: &[f64]) -> Mat<f64> {
    Mat::from_fn(d.len(), d.len(), |i, j| if i == j { d[i] } else { 0.0 })
}

/// Owned transpose.
pub fn tr(A: MatRef<'_, f64>) -> Mat<f64> {
    A.transpose().to_owned()
}

/// Symmetric part `(A + Aᵀ)/2`.
pub fn sym(A: MatRef<'_, f64>) -> Mat<f64> {
    Mat::from_fn(A.nrows(), A.ncols(), |i, j| 0.5 * (A[(i, j)] + A[(j, i)]))
}

/// Largest absolute entry.
pub fn max_abs(A: MatRef<'_, f64>) -> f64 {
    let mut m = 0.0f64;
    for j in 0..A.ncols() {
        for i in 0..A.nrows() {
            m = m.max(A[(i, j)].abs());
        }
    }
    m
}

/// Frobenius norm.
pub fn fro(A: MatRef<'_, f64>) -> f64 {
    A.norm_l2()
}

/// Matrix 1-norm (maximum absolute column sum).
pub fn norm1(A: MatRef<'_, f64>) -> f64 {
    (0..A.ncols())
        .map(|j| (0..A.nrows()).map(|i| A[(i, j)].abs()).sum::<f64>())
        .fold(0.0, f64::max)
}

/// `A` as a complex matrix.
pub fn to_complex(A: MatRef<'_, f64>) -> Mat<c64> {
    Mat::from_fn(A.nrows(), A.ncols(), |i, j| c64::new(A[(i, j)], 0.0))
}

/// Real part of a complex matrix.
pub fn real_part(A: MatRef<'_, c64>) -> Mat<f64> {
    Mat::from_fn(A.nrows(), A.ncols(), |i, j| A[(i, j)].re)
}

/// Largest absolute imaginary part of a complex matrix.
pub fn max_imag(A: MatRef<'_, c64>) -> f64 {
    let mut m = 0.0f64;
    for j in 0..A.ncols() {
        for i in 0..A.nrows() {
            m = m.max(A[(i, j)].im.abs());
        }
    }
    m
}

/// Pivot-ratio singularity check of an LU factorisation from the moduli of
/// the pivots `|uᵢᵢ|`: `rcond = min|uᵢᵢ| / max|uᵢᵢ|` (1 without pivots, 0
/// if all vanish); below [`SINGULAR_RCOND`] the matrix `name` is reported
/// singular.
fn check_pivots(name: &str, moduli: impl Iterator<Item = f64>) -> Result<()> {
    let (mut umax, mut umin, mut n) = (0.0f64, f64::INFINITY, 0);
    for u in moduli {
        umax = umax.max(u);
        umin = umin.min(u);
        n += 1;
    }
    let rcond = if n == 0 {
        1.0
    } else if umax == 0.0 {
        0.0
    } else {
        umin / umax
    };
    if !(rcond >= SINGULAR_RCOND) {
        return Err(ControlError::Singular {
            name: name.to_string(),
            rcond: if rcond.is_nan() { 0.0 } else { rcond },
        });
    }
    Ok(())
}

/// LU factorisation with partial pivoting and a pivot-ratio singularity check.
pub struct DenseLu {
    lu: faer::linalg::solvers::PartialPivLu<f64>,
    n: usize,
}

/// Pivot ratio below which a matrix is reported singular.
pub const SINGULAR_RCOND: f64 = 1e-14;

impl DenseLu {
    /// Factorises the square matrix `A`, named `name` in errors.
    pub fn new(name: &str, A: MatRef<'_, f64>) -> Result<Self> {
        let n = check_square(name, A)?;
        check_finite(name, A)?;
        let lu = A.partial_piv_lu();
        let U = lu.U();
        check_pivots(name, (0..n).map(|i| U[(i, i)].abs()))?;
        Ok(Self { lu, n })
    }

    /// Solves `A X = B`.
    pub fn solve(&self, B: MatRef<'_, f64>) -> Mat<f64> {
        assert_eq!(B.nrows(), self.n);
        self.lu.solve(B)
    }

    /// Solves `X A = B`, i.e. `X = B A⁻¹`.
    pub fn solve_right(&self, B: MatRef<'_, f64>) -> Mat<f64> {
        assert_eq!(B.ncols(), self.n);
        self.lu
            .solve_transpose(B.transpose())
            .transpose()
            .to_owned()
    }

    /// `A⁻¹`.
    pub fn inverse(&self) -> Mat<f64> {
        self.lu.inverse()
    }
}

/// Solves `A X = B` with a singularity check.
pub fn solve(name: &str, A: MatRef<'_, f64>, B: MatRef<'_, f64>) -> Result<Mat<f64>> {
    if B.nrows() != A.nrows() {
        return Err(dim_err(
            &format!("right-hand side of {name}"),
            A.nrows(),
            B.ncols(),
            B.nrows(),
            B.ncols(),
        ));
    }
    Ok(DenseLu::new(name, A)?.solve(B))
}

/// `A⁻¹` with a singularity check.
pub fn inv(name: &str, A: MatRef<'_, f64>) -> Result<Mat<f64>> {
    Ok(DenseLu::new(name, A)?.inverse())
}

/// Thin singular value decomposition `A = U diag(s) Vᵀ`.
pub struct SvdParts {
    /// left singular vectors (columns)
    pub U: Mat<f64>,
    /// singular values, descending
    pub s: Vec<f64>,
    /// right singular vectors (columns)
    pub V: Mat<f64>,
}

/// Thin SVD of `A` (named in errors).
///
/// faer 0.24's bidiagonal SVD occasionally reports non-convergence on
/// ordinary small matrices (e.g. a well-conditioned symmetric 4×4 with
/// entries ~1e-16 off its leading block, met in the Udwadia–Kalaba solve);
/// the SVD of `Aᵀ` (same singular values, `U` and `V` swapped) is then tried
/// before giving up.
pub fn svd(name: &str, A: MatRef<'_, f64>) -> Result<SvdParts> {
    check_finite(name, A)?;
    if let Ok(s) = A.thin_svd() {
        let k = s.S().dim();
        return Ok(SvdParts {
            U: s.U().to_owned(),
            s: (0..k).map(|i| s.S()[i]).collect(),
            V: s.V().to_owned(),
        });
    }
    let s = A
        .transpose()
        .thin_svd()
        .map_err(|_| ControlError::Decomposition {
            what: format!("SVD of {name}"),
        })?;
    let k = s.S().dim();
    Ok(SvdParts {
        U: s.V().to_owned(),
        s: (0..k).map(|i| s.S()[i]).collect(),
        V: s.U().to_owned(),
    })
}

/// Full SVD of a complex matrix: returns singular values (descending) and `V` (all columns).
pub fn svd_complex_full(name: &str, A: MatRef<'_, c64>) -> Result<(Vec<f64>, Mat<c64>)> {
    let s = A.svd().map_err(|_| ControlError::Decomposition {
        what: format!("SVD of {name}"),
    })?;
    let k = s.S().dim();
    let sv: Vec<f64> = (0..k).map(|i| s.S()[i].re).collect();
    Ok((sv, s.V().to_owned()))
}

/// Moore–Penrose pseudo-inverse; singular values below `rtol · σ_max` are dropped.
pub fn pinv(name: &str, A: MatRef<'_, f64>, rtol: f64) -> Result<Mat<f64>> {
    let SvdParts { U, s, V } = svd(name, A)?;
    let smax = s.first().copied().unwrap_or(0.0);
    let mut out = Mat::zeros(A.ncols(), A.nrows());
    for (k, &sk) in s.iter().enumerate() {
        if sk > rtol * smax && sk > 0.0 {
            let inv = 1.0 / sk;
            for j in 0..A.nrows() {
                let u = U[(j, k)] * inv;
                if u == 0.0 {
                    continue;
                }
                for i in 0..A.ncols() {
                    out[(i, j)] += V[(i, k)] * u;
                }
            }
        }
    }
    Ok(out)
}

/// Default relative tolerance of pseudo-inverses: `max(r, c) · ε`-style cut-off.
pub fn default_pinv_rtol(A: MatRef<'_, f64>) -> f64 {
    (A.nrows().max(A.ncols()) as f64) * f64::EPSILON
}

/// Eigen-decomposition of a real square matrix: eigenvalues and right eigenvectors (columns).
pub fn eig(name: &str, A: MatRef<'_, f64>) -> Result<(Vec<c64>, Mat<c64>)> {
    let n = check_square(name, A)?;
    check_finite(name, A)?;
    if n == 0 {
        return Ok((vec![], Mat::zeros(0, 0)));
    }
    let e = A.eigen().map_err(|_| ControlError::Decomposition {
        what: format!("eigen-decomposition of {name}"),
    })?;
    let vals: Vec<c64> = (0..n).map(|i| e.S()[i]).collect();
    Ok((vals, e.U().to_owned()))
}

/// Eigenvalues of a real square matrix.
pub fn eigvals(name: &str, A: MatRef<'_, f64>) -> Result<Vec<c64>> {
    let n = check_square(name, A)?;
    check_finite(name, A)?;
    if n == 0 {
        return Ok(vec![]);
    }
    A.eigenvalues().map_err(|_| ControlError::Decomposition {
        what: format!("eigenvalues of {name}"),
    })
}

/// Spectral radius `ρ(A) = max |λᵢ(A)|` of a real square matrix.
pub fn spectral_radius(name: &str, A: MatRef<'_, f64>) -> Result<f64> {
    Ok(eigvals(name, A)?
        .iter()
        .map(|l| l.norm())
        .fold(0.0, f64::max))
}

/// Solves the complex system `A X = B` (partial pivoting LU).
pub fn solve_complex(name: &str, A: MatRef<'_, c64>, B: MatRef<'_, c64>) -> Result<Mat<c64>> {
    let n = A.nrows();
    let lu = A.partial_piv_lu();
    let U = lu.U();
    check_pivots(name, (0..n).map(|i| U[(i, i)].norm()))?;
    Ok(lu.solve(B))
}

/// Symmetric eigen-decomposition (ascending eigenvalues, orthonormal vectors).
pub fn sym_eig(name: &str, A: MatRef<'_, f64>) -> Result<(Vec<f64>, Mat<f64>)> {
    let n = check_square(name, A)?;
    check_finite(name, A)?;
    let e = A
        .self_adjoint_eigen(faer::Side::Lower)
        .map_err(|_| ControlError::Decomposition {
            what: format!("symmetric eigen-decomposition of {name}"),
        })?;
    let vals: Vec<f64> = (0..n).map(|i| e.S()[i]).collect();
    Ok((vals, e.U().to_owned()))
}

/// Cholesky factor `L` (lower) of a symmetric positive definite matrix.
pub fn cholesky(name: &str, A: MatRef<'_, f64>) -> Result<Mat<f64>> {
    check_square(name, A)?;
    check_finite(name, A)?;
    let llt = A
        .llt(faer::Side::Lower)
        .map_err(|_| ControlError::NotPositiveDefinite {
            name: name.to_string(),
        })?;
    Ok(llt.L().to_owned())
}

/// Full SVD of a real matrix: singular values (descending) and all right singular vectors.
pub fn svd_full(name: &str, A: MatRef<'_, f64>) -> Result<(Vec<f64>, Mat<f64>)> {
    check_finite(name, A)?;
    let s = A.svd().map_err(|_| ControlError::Decomposition {
        what: format!("SVD of {name}"),
    })?;
    let k = s.S().dim();
    let sv: Vec<f64> = (0..k).map(|i| s.S()[i]).collect();
    Ok((sv, s.V().to_owned()))
}
