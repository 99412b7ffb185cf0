//! Sparse matrices: the `faer` CSC type plus the few helpers pH algebra needs.
//!
//! Assembly goes through [`Triplets`] (duplicates are summed); block operations used by
//! interconnections (`A + s·B`, `Aᵀ`, products with vectors, block placement) are small
//! loops over CSC storage written here because they are one-liners on top of `faer`'s
//! storage and avoid a round trip through dense matrices.
use faer::sparse::{SparseColMat, Triplet};
use faer::Mat;

/// Sparse matrix type used throughout phlex: compressed sparse column, `f64`.
pub type SparseMat = SparseColMat<usize, f64>;

/// A list of `(row, col, value)` entries; duplicates are summed on [`Triplets::build`].
#[derive(Debug, Clone, Default)]
pub struct Triplets {
    nrows: usize,
    ncols: usize,
    entries: Vec<Triplet<usize, usize, f64>>,
}

impl Triplets {
    /// An empty `nrows × ncols` matrix.
    pub fn new(nrows: usize, ncols: usize) -> Self {
        Self {
            nrows,
            ncols,
            entries: Vec::new(),
        }
    }
    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }
    /// Adds `val` at `(row, col)`; exact zeros are skipped.
    ///
    /// # Panics
    /// If `(row, col)` is out of bounds.
    #[track_caller]
    #[inline]
    pub fn push(&mut self, row: usize, col: usize, val: f64) {
        assert!(
            row < self.nrows && col < self.ncols,
            "entry ({row}, {col}) out of bounds"
        );
        if val != 0.0 {
            self.entries.push(Triplet::new(row, col, val));
        }
    }
    /// Adds `scale · A` with its top-left corner at `(r0, c0)`.
    #[track_caller]
    pub fn push_block(&mut self, r0: usize, c0: usize, a: &SparseMat, scale: f64) {
        for j in 0..a.ncols() {
            for (i, v) in col_iter(a, j) {
                self.push(r0 + i, c0 + j, scale * v);
            }
        }
    }
    /// Adds `scale · Aᵀ` with its top-left corner at `(r0, c0)`.
    #[track_caller]
    pub fn push_block_transpose(&mut self, r0: usize, c0: usize, a: &SparseMat, scale: f64) {
        for j in 0..a.ncols() {
            for (i, v) in col_iter(a, j) {
                self.push(r0 + j, c0 + i, scale * v);
            }
        }
    }
    /// Adds a dense block `scale · A` at `(r0, c0)`.
    #[track_caller]
    pub fn push_dense(&mut self, r0: usize, c0: usize, a: &Mat<f64>, scale: f64) {
        for j in 0..a.ncols() {
            for i in 0..a.nrows() {
                self.push(r0 + i, c0 + j, scale * a[(i, j)]);
            }
        }
    }
    /// Builds the CSC matrix, summing duplicate entries.
    pub fn build(&self) -> SparseMat {
        SparseMat::try_new_from_triplets(self.nrows, self.ncols, &self.entries)
            .expect("triplets are in bounds by construction")
    }
}

/// Iterator over `(row, value)` of column `j`.
#[inline]
pub fn col_iter(a: &SparseMat, j: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
    let rows = a.row_idx_of_col_raw(j);
    let vals = a.val_of_col(j);
    rows.iter().copied().zip(vals.iter().copied())
}

/// The zero matrix.
pub fn zeros(nrows: usize, ncols: usize) -> SparseMat {
    Triplets::new(nrows, ncols).build()
}

/// The identity matrix of size `n`, scaled.
pub fn identity(n: usize, scale: f64) -> SparseMat {
    let mut t = Triplets::new(n, n);
    for i in 0..n {
        t.push(i, i, scale);
    }
    t.build()
}

/// `Aᵀ`.
pub fn transpose(a: &SparseMat) -> SparseMat {
    let mut t = Triplets::new(a.ncols(), a.nrows());
    t.push_block_transpose(0, 0, a, 1.0);
    t.build()
}

/// `α A + β B` (same shape).
///
/// # Panics
/// If the shapes differ.
#[track_caller]
pub fn add(alpha: f64, a: &SparseMat, beta: f64, b: &SparseMat) -> SparseMat {
    assert_eq!(
        (a.nrows(), a.ncols()),
        (b.nrows(), b.ncols()),
        "shape mismatch in add"
    );
    let mut t = Triplets::new(a.nrows(), a.ncols());
    t.push_block(0, 0, a, alpha);
    t.push_block(0, 0, b, beta);
    t.build()
}

/// `y += α A x`.
///
/// # Panics
/// If the lengths do not match the shape of `A`.
#[track_caller]
#[inline]
pub fn mul_add(y: &mut [f64], alpha: f64, a: &SparseMat, x: &[f64]) {
    assert_eq!(a.ncols(), x.len());
    assert_eq!(a.nrows(), y.len());
    for (j, &xj) in x.iter().enumerate() {
        if xj == 0.0 {
            continue;
        }
        let s = alpha * xj;
        for (i, v) in col_iter(a, j) {
            y[i] += s * v;
        }
    }
}

/// `y += α Aᵀ x`.
///
/// # Panics
/// If the lengths do not match the shape of `A`.
#[track_caller]
#[inline]
pub fn mul_add_transpose(y: &mut [f64], alpha: f64, a: &SparseMat, x: &[f64]) {
    assert_eq!(a.nrows(), x.len());
    assert_eq!(a.ncols(), y.len());
    for (j, yj) in y.iter_mut().enumerate() {
        let mut s = 0.0;
        for (i, v) in col_iter(a, j) {
            s += v * x[i];
        }
        *yj += alpha * s;
    }
}

/// `A x` as a new vector.
pub fn mul_vec(a: &SparseMat, x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; a.nrows()];
    mul_add(&mut y, 1.0, a, x);
    y
}

/// `Aᵀ x` as a new vector.
pub fn mul_vec_transpose(a: &SparseMat, x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; a.ncols()];
    mul_add_transpose(&mut y, 1.0, a, x);
    y
}

/// Quadratic form `xᵀ A y`.
pub fn bilinear(x: &[f64], a: &SparseMat, y: &[f64]) -> f64 {
    let mut s = 0.0;
    for (j, &yj) in y.iter().enumerate() {
        if yj == 0.0 {
            continue;
        }
        for (i, v) in col_iter(a, j) {
            s += x[i] * v * yj;
        }
    }
    s
}

/// Sparse product `A B`.
///
/// # Panics
/// If the inner dimensions differ.
#[track_caller]
pub fn matmul(a: &SparseMat, b: &SparseMat) -> SparseMat {
    assert_eq!(a.ncols(), b.nrows(), "inner dimension mismatch in matmul");
    let mut t = Triplets::new(a.nrows(), b.ncols());
    for j in 0..b.ncols() {
        for (k, bkj) in col_iter(b, j) {
            for (i, aik) in col_iter(a, k) {
                t.push(i, j, aik * bkj);
            }
        }
    }
    t.build()
}

/// Dense copy (for small matrices, checks and eigen-analysis).
pub fn to_dense(a: &SparseMat) -> Mat<f64> {
    let mut m = Mat::zeros(a.nrows(), a.ncols());
    for j in 0..a.ncols() {
        for (i, v) in col_iter(a, j) {
            m[(i, j)] += v;
        }
    }
    m
}

/// Sparse copy of a dense matrix, dropping entries with `|a_ij| <= drop_tol`.
pub fn from_dense(a: &Mat<f64>, drop_tol: f64) -> SparseMat {
    let mut t = Triplets::new(a.nrows(), a.ncols());
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            if a[(i, j)].abs() > drop_tol {
                t.push(i, j, a[(i, j)]);
            }
        }
    }
    t.build()
}

/// Largest absolute entry.
pub fn max_abs(a: &SparseMat) -> f64 {
    a.val().iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// Sub-matrix of rows `rows` and columns `cols` (ranges).
pub fn slice(
    a: &SparseMat,
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
) -> SparseMat {
    let mut t = Triplets::new(rows.len(), cols.len());
    for j in cols.clone() {
        for (i, v) in col_iter(a, j) {
            if rows.contains(&i) {
                t.push(i - rows.start, j - cols.start, v);
            }
        }
    }
    t.build()
}

/// Block-diagonal matrix `diag(A_1, …, A_N)`.
pub fn block_diag(blocks: &[&SparseMat]) -> SparseMat {
    let nr: usize = blocks.iter().map(|b| b.nrows()).sum();
    let nc: usize = blocks.iter().map(|b| b.ncols()).sum();
    let mut t = Triplets::new(nr, nc);
    let (mut r, mut c) = (0, 0);
    for b in blocks {
        t.push_block(r, c, b, 1.0);
        r += b.nrows();
        c += b.ncols();
    }
    t.build()
}

/// Keeps the columns listed in `cols` (in that order).
pub fn select_cols(a: &SparseMat, cols: &[usize]) -> SparseMat {
    let mut t = Triplets::new(a.nrows(), cols.len());
    for (k, &j) in cols.iter().enumerate() {
        for (i, v) in col_iter(a, j) {
            t.push(i, k, v);
        }
    }
    t.build()
}

/// Keeps rows and columns listed in `keep` (a symmetric restriction `PᵀAP`).
pub fn restrict(a: &SparseMat, keep_rows: &[usize], keep_cols: &[usize]) -> SparseMat {
    let mut map = vec![usize::MAX; a.nrows()];
    for (k, &i) in keep_rows.iter().enumerate() {
        map[i] = k;
    }
    let mut t = Triplets::new(keep_rows.len(), keep_cols.len());
    for (k, &j) in keep_cols.iter().enumerate() {
        for (i, v) in col_iter(a, j) {
            if map[i] != usize::MAX {
                t.push(map[i], k, v);
            }
        }
    }
    t.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triplets_sum_duplicates_and_products_agree_with_dense() {
        let mut t = Triplets::new(3, 2);
        t.push(0, 0, 1.0);
        t.push(0, 0, 2.0);
        t.push(2, 1, -4.0);
        let a = t.build();
        let d = to_dense(&a);
        assert_eq!(d[(0, 0)], 3.0);
        assert_eq!(d[(2, 1)], -4.0);
        let x = [1.0, 2.0];
        assert_eq!(mul_vec(&a, &x), vec![3.0, 0.0, -8.0]);
        assert_eq!(mul_vec_transpose(&a, &[1.0, 1.0, 1.0]), vec![3.0, -4.0]);
        let at = transpose(&a);
        let p = matmul(&at, &a);
        let pd = to_dense(&p);
        assert_eq!(pd[(0, 0)], 9.0);
        assert_eq!(pd[(1, 1)], 16.0);
        assert_eq!(bilinear(&[1.0, 0.0, 1.0], &a, &[1.0, 1.0]), -1.0);
    }
}
