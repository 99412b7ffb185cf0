//! A sparse LU for Newton matrices with dense rows and columns ([`StepLu`]): the step
//! matrices of the one-step integrators for floating bodies.
//!
//! **Why.** A flexible body's rigid rows and columns ($v_P$, $\omega$) couple to all its
//! elastic coefficients: the mass operator (37) has the full rows $\mathcal I^L_\rho$,
//! $\mathcal I^L_{\rho x}$, and the gyroscopic terms of (38) the full column
//! $J[v_f, \omega]$. The general-purpose [`crate::linsolve::SparseLu`] analyses the
//! pattern of $A^\top A$ after COLAMD (which counts a column as dense only beyond $n/2$
//! entries); the dense rows make that pattern, and the factors chosen by partial pivoting,
//! fill in quadratically: for the §6.3 crank–slider with 128 coupler elements
//! (1163 unknowns, 9.2e3 entries) $L + U$ had 1.25e5 entries and a factorization took
//! ≈ 10 ms.
//!
//! **What.** [`StepLu`] orders and pivots with the structure in mind (one analysis per
//! pattern, the numeric factorization repeated; a matrix whose pattern is contained in the
//! analysed one is factorized in it with explicit zeros, and a new pattern is analysed
//! together with the old one, so that entries vanishing at some states — zero multipliers,
//! a body at rest — do not trigger a new ordering every time):
//! 1. rows and columns with more than $\max(16, 4m + 4)$ entries ($m$ the median column
//!    count) are *dense*;
//! 2. the column order is COLAMD on the matrix without the dense rows and columns,
//!    followed by the dense columns;
//! 3. the dense rows are scaled by $10^{-8}$ (the solution of $S A x = S b$ is that of
//!    $Ax = b$), so that partial pivoting picks them last, when only they remain;
//! 4. faer's left-looking simplicial LU with partial pivoting, $P(SA)Q = LU$.
//!
//! $L + U$ then grows linearly with the mesh (1.3e4 entries at 128 elements).
//!
//! [`crate::step_newton::StepNewton`] runs Newton's method on it.
// Index loops over stages and state components mirror the formulas.
#![allow(clippy::needless_range_loop)]
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::perm::PermRef;
use faer::sparse::linalg::lu::simplicial::{
    factorize_simplicial_numeric_lu, factorize_simplicial_numeric_lu_scratch, SimplicialLu,
};
use faer::sparse::linalg::{colamd, lu::simplicial};
use faer::{Conj, MatMut, Par};
use phlex_core::sparse::{self, SparseMat};

use crate::SolveError;

/// Factor applied to the dense rows before the factorization.
const DENSE_ROW_SCALE: f64 = 1e-8;

/// Sparse LU of a square matrix with dense rows and columns handled as described in the
/// module documentation.
pub struct StepLu {
    n: usize,
    /// Column pointers and row indices of the analysed pattern.
    col_ptr: Vec<usize>,
    row_idx: Vec<usize>,
    row_scale: Vec<f64>,
    col_perm: Vec<usize>,
    col_perm_inv: Vec<usize>,
    row_perm: Vec<usize>,
    row_perm_inv: Vec<usize>,
    lu: SimplicialLu<usize, f64>,
    fact_buf: MemBuffer,
    solve_buf: MemBuffer,
    scaled: Vec<f64>,
    factored: bool,
    /// Analyses (orderings) performed.
    pub analyses: usize,
}

impl std::fmt::Debug for StepLu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StepLu")
            .field("n", &self.n)
            .field("nnz", &self.row_idx.len())
            .field("factored", &self.factored)
            .finish()
    }
}

fn singular(detail: String) -> SolveError {
    SolveError::Singular {
        what: "Newton matrix of the step equations".into(),
        detail,
    }
}

impl StepLu {
    /// An unfactored solver for `n × n` matrices.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            col_ptr: Vec::new(),
            row_idx: Vec::new(),
            row_scale: vec![1.0; n],
            col_perm: (0..n).collect(),
            col_perm_inv: (0..n).collect(),
            row_perm: vec![0; n],
            row_perm_inv: vec![0; n],
            lu: SimplicialLu::new(),
            fact_buf: MemBuffer::new(factorize_simplicial_numeric_lu_scratch::<usize, f64>(n, n)),
            solve_buf: MemBuffer::new(simplicial::solve_in_place_scratch::<usize, f64>(
                n,
                1,
                Par::Seq,
            )),
            scaled: Vec::new(),
            factored: false,
            analyses: 0,
        }
    }

    /// Dimension $n$ of the matrices it factorizes.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Numbers of entries of $L$ and $U$ of the last factorization.
    pub fn factor_nnz(&self) -> (usize, usize) {
        if !self.factored {
            return (0, 0);
        }
        (
            self.lu.l_factor_unsorted().compute_nnz(),
            self.lu.u_factor_unsorted().compute_nnz(),
        )
    }

    fn same_pattern(&self, a: &SparseMat) -> bool {
        let s = a.symbolic();
        self.col_ptr.len() == self.n + 1
            && s.col_ptr() == &self.col_ptr[..]
            && s.row_idx() == &self.row_idx[..]
    }

    /// If the pattern of `a` is contained in the analysed one, writes the scaled values of
    /// `a` into it (explicit zeros elsewhere) and returns `true`.
    fn scatter_into_pattern(&mut self, a: &SparseMat) -> bool {
        if self.col_ptr.len() != self.n + 1 {
            return false;
        }
        self.scaled.clear();
        self.scaled.resize(self.row_idx.len(), 0.0);
        for j in 0..self.n {
            let (lo, hi) = (self.col_ptr[j], self.col_ptr[j + 1]);
            let mut k = lo;
            for (i, v) in sparse::col_iter(a, j) {
                while k < hi && self.row_idx[k] < i {
                    k += 1;
                }
                if k == hi || self.row_idx[k] != i {
                    return false;
                }
                self.scaled[k] = v * self.row_scale[i];
                k += 1;
            }
        }
        true
    }

    /// The union of the analysed pattern and that of `a` (values irrelevant).
    fn union_pattern(&self, a: &SparseMat) -> SparseMat {
        let mut t = phlex_core::Triplets::new(self.n, self.n);
        if self.col_ptr.len() == self.n + 1 {
            for j in 0..self.n {
                for &i in &self.row_idx[self.col_ptr[j]..self.col_ptr[j + 1]] {
                    t.push(i, j, 1.0);
                }
            }
        }
        for j in 0..self.n {
            for &i in a.symbolic().row_idx_of_col_raw(j) {
                t.push(i, j, 1.0);
            }
        }
        t.build()
    }

    /// Dense rows and columns, column order (COLAMD without them, then the dense columns).
    fn analyse(&mut self, a: &SparseMat) -> Result<(), SolveError> {
        let n = self.n;
        let mut rc = vec![0usize; n];
        let mut cc = vec![0usize; n];
        for j in 0..n {
            for &i in a.symbolic().row_idx_of_col_raw(j) {
                rc[i] += 1;
                cc[j] += 1;
            }
        }
        let mut sorted = cc.clone();
        sorted.sort_unstable();
        let median = sorted.get(n / 2).copied().unwrap_or(0);
        let thr = (4 * median + 4).max(16);
        let dense_row: Vec<bool> = rc.iter().map(|&c| c > thr).collect();
        let keep: Vec<usize> = (0..n).filter(|&j| cc[j] <= thr).collect();
        let mut t = Vec::with_capacity(a.compute_nnz());
        for (jj, &j) in keep.iter().enumerate() {
            for &i in a.symbolic().row_idx_of_col_raw(j) {
                if !dense_row[i] {
                    t.push(faer::sparse::Pair::new(i, jj));
                }
            }
        }
        let reduced =
            faer::sparse::SymbolicSparseColMat::<usize>::try_new_from_indices(n, keep.len(), &t)
                .map_err(|e| singular(format!("pattern: {e:?}")))?
                .0;
        let nk = keep.len();
        let mut perm = vec![0usize; nk];
        let mut perm_inv = vec![0usize; nk];
        let mut buf = MemBuffer::new(colamd::order_scratch::<usize>(n, nk, reduced.compute_nnz()));
        colamd::order(
            &mut perm,
            &mut perm_inv,
            reduced.as_ref(),
            Default::default(),
            MemStack::new(&mut buf),
        )
        .map_err(|e| singular(format!("ordering: {e:?}")))?;
        self.col_perm.clear();
        self.col_perm.extend(perm.iter().map(|&k| keep[k]));
        self.col_perm.extend((0..n).filter(|&j| cc[j] > thr));
        for (k, &j) in self.col_perm.iter().enumerate() {
            self.col_perm_inv[j] = k;
        }
        for (s, &d) in self.row_scale.iter_mut().zip(&dense_row) {
            *s = if d { DENSE_ROW_SCALE } else { 1.0 };
        }
        self.col_ptr.clear();
        self.col_ptr.extend_from_slice(a.symbolic().col_ptr());
        self.row_idx.clear();
        self.row_idx.extend_from_slice(a.symbolic().row_idx());
        self.analyses += 1;
        Ok(())
    }

    /// Factorizes `a` (re-analysing if its pattern differs from the analysed one).
    pub fn factorize(&mut self, a: &SparseMat) -> Result<(), SolveError> {
        if a.nrows() != self.n || a.ncols() != self.n {
            return Err(SolveError::Dimension(format!(
                "Newton matrix of the step equations is {}x{}, solver set up for {}",
                a.nrows(),
                a.ncols(),
                self.n
            )));
        }
        self.factored = false;
        if self.same_pattern(a) {
            self.scaled.clear();
            for j in 0..self.n {
                for (i, v) in sparse::col_iter(a, j) {
                    self.scaled.push(v * self.row_scale[i]);
                }
            }
        } else if !self.scatter_into_pattern(a) {
            // A new pattern: analyse the union with the analysed one, so that the patterns
            // of later matrices (entries that vanish at some states are not stored) are
            // contained in it and need no new ordering.
            let union = self.union_pattern(a);
            self.analyse(&union)?;
            if !self.scatter_into_pattern(a) {
                return Err(singular("pattern not contained in its union".into()));
            }
        }
        let sym = faer::sparse::SymbolicSparseColMatRef::new_checked(
            self.n,
            self.n,
            &self.col_ptr,
            None,
            &self.row_idx,
        );
        let scaled = faer::sparse::SparseColMatRef::new(sym, &self.scaled);
        let cp = PermRef::new_checked(&self.col_perm, &self.col_perm_inv, self.n);
        factorize_simplicial_numeric_lu(
            &mut self.row_perm,
            &mut self.row_perm_inv,
            &mut self.lu,
            scaled,
            cp,
            MemStack::new(&mut self.fact_buf),
        )
        .map_err(|e| singular(format!("{e:?}")))?;
        self.factored = true;
        Ok(())
    }

    /// Solves $A x = b$ in place with the last factorization; a non-finite result (zero
    /// pivot) is [`SolveError::Singular`].
    pub fn solve_in_place(&mut self, b: &mut [f64]) -> Result<(), SolveError> {
        if !self.factored || b.len() != self.n {
            return Err(singular("solve without a valid factorization".into()));
        }
        for (v, s) in b.iter_mut().zip(&self.row_scale) {
            *v *= s;
        }
        let rp = PermRef::new_checked(&self.row_perm, &self.row_perm_inv, self.n);
        let cp = PermRef::new_checked(&self.col_perm, &self.col_perm_inv, self.n);
        let rhs = MatMut::from_column_major_slice_mut(b, self.n, 1);
        self.lu.solve_in_place_with_conj(
            rp,
            cp,
            Conj::No,
            rhs,
            Par::Seq,
            MemStack::new(&mut self.solve_buf),
        );
        if let Some(i) = b.iter().position(|v| !v.is_finite()) {
            return Err(singular(format!(
                "solution component {i} is not finite (zero pivot)"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use phlex_core::Triplets;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// $\max_i |(Ax - b)_i|$.
    fn residual(a: &SparseMat, x: &[f64], b: &[f64]) -> f64 {
        let ax = sparse::mul_vec(a, x);
        ax.iter()
            .zip(b)
            .fold(0.0f64, |m, (p, q)| m.max((p - q).abs()))
    }

    /// An arrow matrix (banded block plus 3 dense rows and columns, as a floating body)
    /// with widely scaled entries: the solve matches a dense LU to round-off, and the
    /// factors have O(n) entries.
    #[test]
    fn arrow_matrix_solve_and_linear_fill() {
        let mut rng = StdRng::seed_from_u64(1);
        for n in [40usize, 400] {
            let mut t = Triplets::new(n, n);
            for i in 0..n {
                t.push(i, i, 1.0 + rng.gen_range(0.0..1.0));
                for d in 1..4 {
                    if i + d < n {
                        t.push(i, i + d, 1e-3 * rng.gen_range(-1.0..1.0));
                        t.push(i + d, i, 1e3 * rng.gen_range(-1.0..1.0));
                    }
                }
            }
            for k in 0..3 {
                let c = n - 1 - k;
                for i in 0..n {
                    t.push(i, c, rng.gen_range(-1.0..1.0));
                    t.push(c, i, rng.gen_range(-1.0..1.0));
                }
                t.push(c, c, 50.0);
            }
            let a = t.build();
            let mut lu = StepLu::new(n);
            lu.factorize(&a).unwrap();
            let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
            let mut x = b.clone();
            lu.solve_in_place(&mut x).unwrap();
            let res = residual(&a, &x, &b);
            let (l, u) = lu.factor_nnz();
            println!(
                "n = {n}: residual {res:.2e}, nnz(A) {}, L {l}, U {u}",
                a.compute_nnz()
            );
            assert!(res < 1e-9, "{res}");
            assert!(l + u < 30 * n, "fill {l} + {u}");
            // same pattern: no new analysis
            lu.factorize(&a).unwrap();
            assert_eq!(lu.analyses, 1);
            // a sub-pattern (entries dropped) is factorized in the analysed pattern: no
            // new analysis, and the solve matches the dropped matrix
            let mut t2 = Triplets::new(n, n);
            for j in 0..n {
                for (i, v) in sparse::col_iter(&a, j) {
                    if i == j || (i + 2 * j) % 5 != 0 {
                        t2.push(i, j, v);
                    }
                }
            }
            let a2 = t2.build();
            assert!(a2.compute_nnz() < a.compute_nnz());
            lu.factorize(&a2).unwrap();
            assert_eq!(lu.analyses, 1);
            let mut x2 = b.clone();
            lu.solve_in_place(&mut x2).unwrap();
            let res2 = residual(&a2, &x2, &b);
            assert!(res2 < 1e-9, "{res2}");
        }
    }
}
