//! Sparse direct solves with the symbolic and numeric stages kept apart.
//!
//! Every implicit scheme in phlex solves linear systems with a matrix of the form
//! $$S = \alpha E + \beta A,$$
//! e.g. $E - \tfrac h2 (J - R)$ for the implicit midpoint rule (thesis 004 §3.5,
//! Crank–Nicolson), $\tfrac{\gamma}{h}E - J_f$ and its complex twin for Radau IIA, or
//! $A - \sigma E$ for shift-and-invert eigen-solves. The pattern of $S$ never changes; only
//! $\alpha, \beta$ do. Following STYLE §5 ("split symbolic and numeric work"):
//!
//! * [`PatternSum`] computes the union pattern of a list of matrices **once** and then refills
//!   the values of $\sum_k c_k M_k$ in place (no allocation), for real or complex $c_k$;
//! * [`SparseLu`] computes the fill-reducing ordering and symbolic $LU$ ($PAQ^\top = LU$)
//!   **once** and re-runs only the numeric factorization when values change. It owns its
//!   workspaces, so neither refactorization nor solve allocates on the hot path.
//!
//! `SparseLu` uses faer's low-level `sparse::linalg::lu` API (the same machinery as
//! `faer::sparse::linalg::solvers::{SymbolicLu, Lu::try_new_with_symbolic}`, but with the
//! numeric factors and scratch buffers reused across refactorizations instead of being
//! reallocated each time).
//!
//! **Singularity.** faer reports structurally singular matrices; a numerically singular
//! matrix (an exactly zero pivot) yields `inf`/`NaN` factors instead. After each numeric
//! factorization `SparseLu` therefore solves a probe system $A x = A x^\ast$ with a fixed
//! $x^\ast$ and reports [`SolveError::Singular`] if the result is not finite or
//! $\|x - x^\ast\|_\infty / \|x^\ast\|_\infty$ exceeds [`SparseLu::singular_tol`]
//! (default `1e-3`, i.e. a condition number beyond about $10^{13}$). Every solve also
//! checks that its result is finite.
use std::ops::{Add, AddAssign, Mul, Neg, Sub};
use std::sync::Arc;

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::sparse::linalg::lu::{factorize_symbolic_lu, LuRef, NumericLu, SymbolicLu};
use faer::sparse::{SparseColMat, SparseColMatRef, SymbolicSparseColMat, SymbolicSparseColMatRef};
use faer::traits::ComplexField;
use faer::{c64, Conj, MatMut, Par};

use phlex_core::sparse::SparseMat;

use crate::SolveError;

/// Scalars the sparse LU works with: `f64` and [`faer::c64`].
pub trait LuScalar:
    ComplexField
    + Copy
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + AddAssign
{
    /// The value `x + 0i`.
    fn from_f64(x: f64) -> Self;
    /// Modulus $|x|$.
    fn modulus(self) -> f64;
    /// True if all parts are finite.
    fn finite(self) -> bool;
    /// `x · s` for a real `s`.
    fn scale(self, s: f64) -> Self;
}

impl LuScalar for f64 {
    #[inline]
    fn from_f64(x: f64) -> Self {
        x
    }
    #[inline]
    fn modulus(self) -> f64 {
        self.abs()
    }
    #[inline]
    fn finite(self) -> bool {
        self.is_finite()
    }
    #[inline]
    fn scale(self, s: f64) -> Self {
        self * s
    }
}

impl LuScalar for c64 {
    #[inline]
    fn from_f64(x: f64) -> Self {
        c64::new(x, 0.0)
    }
    #[inline]
    fn modulus(self) -> f64 {
        self.norm()
    }
    #[inline]
    fn finite(self) -> bool {
        self.re.is_finite() && self.im.is_finite()
    }
    #[inline]
    fn scale(self, s: f64) -> Self {
        c64::new(self.re * s, self.im * s)
    }
}

/// Work counters of a [`SparseLu`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LuCounters {
    /// Symbolic analyses (ordering + symbolic LU); 1 unless the pattern had to grow.
    pub symbolic: usize,
    /// Numeric factorizations.
    pub numeric: usize,
    /// Solves with the factors (one per right-hand side; probes excluded).
    pub solves: usize,
}

/// The union sparsity pattern of several same-shape matrices, for refilling
/// $S = \sum_k c_k M_k$ without reallocation.
///
/// For square matrices the full diagonal is part of the pattern (as explicit zeros where
/// no source has an entry), so that the pattern does not depend on the coefficients.
#[derive(Debug, Clone)]
pub struct PatternSum {
    symbolic: SymbolicSparseColMat<usize>,
    /// For source `k`: position in the union values of each stored entry of `M_k`.
    maps: Vec<Vec<usize>>,
    /// Patterns of the sources (column pointers and row indices), to detect misuse.
    sources: Vec<(Vec<usize>, Vec<usize>)>,
}

fn flat_pattern(m: &SparseMat) -> (Vec<usize>, Vec<usize>) {
    let mut col_ptr = Vec::with_capacity(m.ncols() + 1);
    let mut rows = Vec::new();
    col_ptr.push(0);
    for j in 0..m.ncols() {
        rows.extend_from_slice(m.row_idx_of_col_raw(j));
        col_ptr.push(rows.len());
    }
    (col_ptr, rows)
}

impl PatternSum {
    /// Computes the union pattern of `mats` (at least one, all of the same shape).
    pub fn new(mats: &[&SparseMat]) -> Result<Self, SolveError> {
        let first = mats
            .first()
            .ok_or_else(|| SolveError::Dimension("PatternSum needs at least one matrix".into()))?;
        let (nr, nc) = (first.nrows(), first.ncols());
        if let Some((k, m)) = mats
            .iter()
            .enumerate()
            .find(|(_, m)| (m.nrows(), m.ncols()) != (nr, nc))
        {
            return Err(SolveError::Dimension(format!(
                "PatternSum: matrix {k} is {}x{}, matrix 0 is {nr}x{nc}",
                m.nrows(),
                m.ncols()
            )));
        }
        let square = nr == nc;
        let mut col_ptr = Vec::with_capacity(nc + 1);
        let mut row_idx: Vec<usize> = Vec::new();
        col_ptr.push(0usize);
        let mut mark = vec![usize::MAX; nr];
        let mut col_rows: Vec<usize> = Vec::new();
        for j in 0..nc {
            col_rows.clear();
            if square {
                mark[j] = j;
                col_rows.push(j);
            }
            for m in mats {
                for &i in m.row_idx_of_col_raw(j) {
                    if mark[i] != j {
                        mark[i] = j;
                        col_rows.push(i);
                    }
                }
            }
            col_rows.sort_unstable();
            row_idx.extend_from_slice(&col_rows);
            col_ptr.push(row_idx.len());
        }
        // Position lookup per column: union rows are sorted, so binary search.
        let mut maps = Vec::with_capacity(mats.len());
        for m in mats {
            let mut map = Vec::with_capacity(m.compute_nnz());
            for j in 0..nc {
                let urows = &row_idx[col_ptr[j]..col_ptr[j + 1]];
                for &i in m.row_idx_of_col_raw(j) {
                    let p = urows
                        .binary_search(&i)
                        .expect("row is in the union by construction");
                    map.push(col_ptr[j] + p);
                }
            }
            maps.push(map);
        }
        let sources = mats.iter().map(|m| flat_pattern(m)).collect();
        let symbolic = SymbolicSparseColMat::new_checked(nr, nc, col_ptr, None, row_idx);
        Ok(Self {
            symbolic,
            maps,
            sources,
        })
    }

    /// Number of stored entries of the union pattern.
    pub fn nnz(&self) -> usize {
        self.symbolic.row_idx().len()
    }

    /// The union pattern.
    pub fn symbolic(&self) -> SymbolicSparseColMatRef<'_, usize> {
        self.symbolic.as_ref()
    }

    /// A matrix with the union pattern and all values zero.
    pub fn zeros<T: LuScalar>(&self) -> SparseColMat<usize, T> {
        SparseColMat::new(self.symbolic.clone(), vec![T::from_f64(0.0); self.nnz()])
    }

    fn check_sources(&self, mats: &[&SparseMat]) -> Result<(), SolveError> {
        if mats.len() != self.sources.len() {
            return Err(SolveError::Dimension(format!(
                "PatternSum was built from {} matrices, {} given",
                self.sources.len(),
                mats.len()
            )));
        }
        for (k, (m, (cp, ri))) in mats.iter().zip(&self.sources).enumerate() {
            let same = m.nrows() == self.symbolic.nrows()
                && m.ncols() == self.symbolic.ncols()
                && (0..m.ncols()).all(|j| m.row_idx_of_col_raw(j) == &ri[cp[j]..cp[j + 1]]);
            if !same {
                return Err(SolveError::Dimension(format!(
                    "PatternSum: matrix {k} does not have the sparsity pattern it was built with"
                )));
            }
        }
        Ok(())
    }

    /// Overwrites the values of `out` (which must have the union pattern, e.g. from
    /// [`Self::zeros`]) with $\sum_k c_k M_k$. `mats` must be the matrices (or matrices with
    /// identical patterns) the pattern was built from, in the same order.
    pub fn fill<T: LuScalar>(
        &self,
        coeffs: &[T],
        mats: &[&SparseMat],
        out: &mut SparseColMat<usize, T>,
    ) -> Result<(), SolveError> {
        self.check_sources(mats)?;
        if coeffs.len() != mats.len() {
            return Err(SolveError::Dimension(format!(
                "PatternSum::fill: {} coefficients for {} matrices",
                coeffs.len(),
                mats.len()
            )));
        }
        if out.symbolic().row_idx() != self.symbolic.row_idx()
            || out.symbolic().col_ptr() != self.symbolic.col_ptr()
        {
            return Err(SolveError::Dimension(
                "PatternSum::fill: output matrix does not have the union pattern".into(),
            ));
        }
        let vals = out.val_mut();
        vals.iter_mut().for_each(|v| *v = T::from_f64(0.0));
        for ((m, map), &c) in mats.iter().zip(&self.maps).zip(coeffs) {
            let mut k = 0;
            for j in 0..m.ncols() {
                for &v in m.val_of_col(j) {
                    vals[map[k]] += c.scale(v);
                    k += 1;
                }
            }
        }
        Ok(())
    }

    /// Allocating convenience: a new matrix $\sum_k c_k M_k$ with the union pattern.
    pub fn assemble<T: LuScalar>(
        &self,
        coeffs: &[T],
        mats: &[&SparseMat],
    ) -> Result<SparseColMat<usize, T>, SolveError> {
        let mut out = self.zeros();
        self.fill(coeffs, mats, &mut out)?;
        Ok(out)
    }
}

/// True if the pattern of `a` is exactly `p`.
fn same_pattern(
    p: SymbolicSparseColMatRef<'_, usize>,
    a: SymbolicSparseColMatRef<'_, usize>,
) -> bool {
    if p.nrows() != a.nrows() || p.ncols() != a.ncols() {
        return false;
    }
    match (p.col_nnz(), a.col_nnz()) {
        (None, None) => p.col_ptr() == a.col_ptr() && p.row_idx() == a.row_idx(),
        _ => (0..p.ncols()).all(|j| p.row_idx_of_col_raw(j) == a.row_idx_of_col_raw(j)),
    }
}

/// A deterministic, non-trivial probe vector $x^\ast_i \in [1, 2)$.
fn probe_value(i: usize) -> f64 {
    1.0 + ((i.wrapping_mul(7919) + 13) % 101) as f64 / 101.0
}

/// A sparse $LU$ factorization $PAQ^\top = LU$ with a reusable symbolic stage.
///
/// ```
/// use phlex_core::sparse::Triplets;
/// use phlex_solve::linsolve::SparseLu;
/// let mut t = Triplets::new(2, 2);
/// t.push(0, 0, 4.0);
/// t.push(1, 0, 1.0);
/// t.push(0, 1, 1.0);
/// t.push(1, 1, 3.0);
/// let a = t.build();
/// let mut lu = SparseLu::<f64>::new("A", a.symbolic()).unwrap();
/// lu.factorize(a.as_ref()).unwrap();
/// let mut b = vec![1.0, 2.0];
/// lu.solve_in_place(&mut b).unwrap();
/// assert!((4.0 * b[0] + b[1] - 1.0).abs() < 1e-15);
/// ```
pub struct SparseLu<T: LuScalar = f64> {
    name: String,
    n: usize,
    pattern: Arc<SymbolicSparseColMat<usize>>,
    symbolic: Arc<SymbolicLu<usize>>,
    numeric: NumericLu<usize, T>,
    factored: bool,
    fact_buf: MemBuffer,
    solve_buf: MemBuffer,
    /// Values scattered into `pattern` when the input has a sub-pattern.
    scatter: Vec<T>,
    probe: Vec<T>,
    singular_tol: f64,
    counters: LuCounters,
}

impl<T: LuScalar> std::fmt::Debug for SparseLu<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SparseLu")
            .field("name", &self.name)
            .field("n", &self.n)
            .field("nnz", &self.pattern.row_idx().len())
            .field("factored", &self.factored)
            .field("counters", &self.counters)
            .finish()
    }
}

const PAR: Par = Par::Seq;

fn alloc_err(name: &str) -> SolveError {
    SolveError::Singular {
        what: name.into(),
        detail: "out of memory for LU workspace".into(),
    }
}

impl<T: LuScalar> SparseLu<T> {
    /// Symbolic analysis of a square pattern (done once). `name` appears in errors.
    pub fn new(
        name: &str,
        pattern: SymbolicSparseColMatRef<'_, usize>,
    ) -> Result<Self, SolveError> {
        let n = pattern.nrows();
        if pattern.ncols() != n {
            return Err(SolveError::Dimension(format!(
                "{name}: LU needs a square matrix, got {}x{}",
                n,
                pattern.ncols()
            )));
        }
        let pattern = Arc::new(pattern.to_owned().map_err(|_| alloc_err(name))?);
        let symbolic = Self::analyse(name, SymbolicSparseColMat::as_ref(&pattern))?;
        Self::with_symbolic(name, pattern, Arc::new(symbolic), 1)
    }

    /// A solver for another scalar type on the same pattern, sharing the symbolic analysis
    /// of `other` (no second ordering/analysis; e.g. the real and complex Radau stage
    /// matrices).
    pub fn sharing_symbolic<U: LuScalar>(
        name: &str,
        other: &SparseLu<U>,
    ) -> Result<Self, SolveError> {
        Self::with_symbolic(name, other.pattern.clone(), other.symbolic.clone(), 0)
    }

    /// An unfactored solver on `pattern` with its symbolic analysis (`analyses`: the
    /// analyses this solver performed, for its counters) and its own workspaces.
    fn with_symbolic(
        name: &str,
        pattern: Arc<SymbolicSparseColMat<usize>>,
        symbolic: Arc<SymbolicLu<usize>>,
        analyses: usize,
    ) -> Result<Self, SolveError> {
        let n = pattern.nrows();
        let fact_buf =
            MemBuffer::try_new(symbolic.factorize_numeric_lu_scratch::<T>(PAR, Default::default()))
                .map_err(|_| alloc_err(name))?;
        let solve_buf = MemBuffer::try_new(symbolic.solve_in_place_scratch::<T>(1, PAR))
            .map_err(|_| alloc_err(name))?;
        Ok(Self {
            name: name.into(),
            n,
            pattern,
            symbolic,
            numeric: NumericLu::new(),
            factored: false,
            fact_buf,
            solve_buf,
            scatter: Vec::new(),
            probe: vec![T::from_f64(0.0); n],
            singular_tol: 1e-3,
            counters: LuCounters {
                symbolic: analyses,
                numeric: 0,
                solves: 0,
            },
        })
    }

    /// Symbolic analysis and numeric factorization of `a`.
    pub fn from_matrix(name: &str, a: SparseColMatRef<'_, usize, T>) -> Result<Self, SolveError> {
        let mut lu = Self::new(name, a.symbolic())?;
        lu.factorize(a)?;
        Ok(lu)
    }

    fn analyse(
        name: &str,
        pattern: SymbolicSparseColMatRef<'_, usize>,
    ) -> Result<SymbolicLu<usize>, SolveError> {
        factorize_symbolic_lu(pattern, Default::default()).map_err(|e| SolveError::Singular {
            what: name.into(),
            detail: format!("symbolic LU failed: {e:?}"),
        })
    }

    /// A new, unfactored solver sharing this one's symbolic analysis (e.g. to keep a second
    /// numeric factorization for an odd step size without destroying the main one).
    pub fn fork(&self) -> Result<Self, SolveError> {
        let fact_buf = MemBuffer::try_new(
            self.symbolic
                .factorize_numeric_lu_scratch::<T>(PAR, Default::default()),
        )
        .map_err(|_| alloc_err(&self.name))?;
        let solve_buf = MemBuffer::try_new(self.symbolic.solve_in_place_scratch::<T>(1, PAR))
            .map_err(|_| alloc_err(&self.name))?;
        Ok(Self {
            name: self.name.clone(),
            n: self.n,
            pattern: Arc::clone(&self.pattern),
            symbolic: Arc::clone(&self.symbolic),
            numeric: NumericLu::new(),
            factored: false,
            fact_buf,
            solve_buf,
            scatter: Vec::new(),
            probe: vec![T::from_f64(0.0); self.n],
            singular_tol: self.singular_tol,
            counters: LuCounters::default(),
        })
    }

    /// Name used in error messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Matrix size `n`.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// True once a numeric factorization succeeded.
    pub fn is_factored(&self) -> bool {
        self.factored
    }

    /// Work counters.
    pub fn counters(&self) -> LuCounters {
        self.counters
    }

    /// Relative probe error above which a factorization is declared singular
    /// (`f64::INFINITY` keeps only the finiteness check).
    pub fn singular_tol(&self) -> f64 {
        self.singular_tol
    }

    /// Sets the singularity threshold; must satisfy `tol > 0`.
    pub fn set_singular_tol(&mut self, tol: f64) -> Result<(), SolveError> {
        if !(tol > 0.0) {
            return Err(SolveError::Parameter(format!(
                "singular_tol must satisfy singular_tol > 0, got {tol}"
            )));
        }
        self.singular_tol = tol;
        Ok(())
    }

    /// Numeric factorization of `a`.
    ///
    /// * Same pattern as the analysed one: numeric refactorization only.
    /// * A sub-pattern: values are scattered into the analysed pattern (explicit zeros).
    /// * Otherwise the symbolic analysis is redone on the union of both patterns (counted in
    ///   [`LuCounters::symbolic`]), so the pattern only ever grows.
    pub fn factorize(&mut self, a: SparseColMatRef<'_, usize, T>) -> Result<(), SolveError> {
        if a.nrows() != self.n || a.ncols() != self.n {
            return Err(SolveError::Dimension(format!(
                "{}: LU was analysed for {}x{}, matrix is {}x{}",
                self.name,
                self.n,
                self.n,
                a.nrows(),
                a.ncols()
            )));
        }
        self.factored = false;
        if same_pattern(SymbolicSparseColMat::as_ref(&self.pattern), a.symbolic()) {
            return self.factorize_values_of(a);
        }
        if !self.scatter_into_pattern(a) {
            self.grow_pattern(a)?;
            let ok = self.scatter_into_pattern(a);
            debug_assert!(ok);
        }
        let vals = std::mem::take(&mut self.scatter);
        let pattern = Arc::clone(&self.pattern);
        let res = self.factorize_values_of(SparseColMatRef::new(
            SymbolicSparseColMat::as_ref(&pattern),
            &vals,
        ));
        self.scatter = vals;
        res
    }

    /// Scatters the values of `a` into `self.scatter` following `self.pattern`; false if an
    /// entry of `a` is outside the pattern.
    fn scatter_into_pattern(&mut self, a: SparseColMatRef<'_, usize, T>) -> bool {
        let p = SymbolicSparseColMat::as_ref(&self.pattern);
        self.scatter.clear();
        self.scatter.resize(p.row_idx().len(), T::from_f64(0.0));
        for j in 0..self.n {
            let prow = p.row_idx_of_col_raw(j);
            let base = p.col_range(j).start;
            for (&i, &v) in a.row_idx_of_col_raw(j).iter().zip(a.val_of_col(j)) {
                match prow.binary_search(&i) {
                    Ok(k) => self.scatter[base + k] += v,
                    Err(_) => {
                        // The analysed pattern may be unsorted only if built externally.
                        match prow.iter().position(|&r| r == i) {
                            Some(k) => self.scatter[base + k] += v,
                            None => return false,
                        }
                    }
                }
            }
        }
        true
    }

    fn grow_pattern(&mut self, a: SparseColMatRef<'_, usize, T>) -> Result<(), SolveError> {
        let p = SymbolicSparseColMat::as_ref(&self.pattern);
        let mut col_ptr = vec![0usize];
        let mut rows = Vec::new();
        let mut col: Vec<usize> = Vec::new();
        for j in 0..self.n {
            col.clear();
            col.extend_from_slice(p.row_idx_of_col_raw(j));
            col.extend_from_slice(a.row_idx_of_col_raw(j));
            col.sort_unstable();
            col.dedup();
            rows.extend_from_slice(&col);
            col_ptr.push(rows.len());
        }
        let pattern = SymbolicSparseColMat::new_checked(self.n, self.n, col_ptr, None, rows);
        let symbolic = Self::analyse(&self.name, pattern.as_ref())?;
        self.fact_buf =
            MemBuffer::try_new(symbolic.factorize_numeric_lu_scratch::<T>(PAR, Default::default()))
                .map_err(|_| alloc_err(&self.name))?;
        self.solve_buf = MemBuffer::try_new(symbolic.solve_in_place_scratch::<T>(1, PAR))
            .map_err(|_| alloc_err(&self.name))?;
        self.symbolic = Arc::new(symbolic);
        self.pattern = Arc::new(pattern);
        self.numeric = NumericLu::new();
        self.counters.symbolic += 1;
        Ok(())
    }

    fn factorize_values_of(&mut self, a: SparseColMatRef<'_, usize, T>) -> Result<(), SolveError> {
        let stack = MemStack::new(&mut self.fact_buf);
        let res = self.symbolic.factorize_numeric_lu(
            &mut self.numeric,
            a,
            PAR,
            stack,
            Default::default(),
        );
        self.counters.numeric += 1;
        if let Err(e) = res {
            return Err(SolveError::Singular {
                what: self.name.clone(),
                detail: format!("{e:?}"),
            });
        }
        self.factored = true;
        self.check_probe(a)
    }

    fn check_probe(&mut self, a: SparseColMatRef<'_, usize, T>) -> Result<(), SolveError> {
        // b = A x*, with x* from `probe_value`.
        let mut b = std::mem::take(&mut self.probe);
        b.iter_mut().for_each(|v| *v = T::from_f64(0.0));
        for j in 0..self.n {
            let xj = probe_value(j);
            for (&i, &v) in a.row_idx_of_col_raw(j).iter().zip(a.val_of_col(j)) {
                b[i] += v.scale(xj);
            }
        }
        self.raw_solve(&mut b, false);
        let mut err = 0.0f64;
        let mut finite = true;
        for (i, v) in b.iter().enumerate() {
            if !v.finite() {
                finite = false;
                break;
            }
            err = err.max((*v - T::from_f64(probe_value(i))).modulus());
        }
        self.probe = b;
        // max |x*| < 2.
        let rel = err / 2.0;
        if !finite || rel > self.singular_tol {
            self.factored = false;
            return Err(SolveError::Singular {
                what: self.name.clone(),
                detail: if finite {
                    format!(
                        "probe solve has relative error {rel:.2e} > {:.1e} (numerically singular)",
                        self.singular_tol
                    )
                } else {
                    "zero pivot (non-finite factors)".into()
                },
            });
        }
        Ok(())
    }

    fn raw_solve(&mut self, b: &mut [T], transpose: bool) {
        let lu = LuRef::new_unchecked(&self.symbolic, &self.numeric);
        let rhs = MatMut::from_column_major_slice_mut(b, self.n, 1);
        let stack = MemStack::new(&mut self.solve_buf);
        if transpose {
            lu.solve_transpose_in_place_with_conj(Conj::No, rhs, PAR, stack);
        } else {
            lu.solve_in_place_with_conj(Conj::No, rhs, PAR, stack);
        }
    }

    fn checked_solve(&mut self, b: &mut [T], transpose: bool) -> Result<(), SolveError> {
        if !self.factored {
            return Err(SolveError::Singular {
                what: self.name.clone(),
                detail: "solve requested without a successful factorization".into(),
            });
        }
        if b.len() != self.n {
            return Err(SolveError::Dimension(format!(
                "{}: right-hand side has length {}, matrix is {}x{}",
                self.name,
                b.len(),
                self.n,
                self.n
            )));
        }
        self.raw_solve(b, transpose);
        self.counters.solves += 1;
        if let Some(i) = b.iter().position(|v| !v.finite()) {
            return Err(SolveError::Singular {
                what: self.name.clone(),
                detail: format!("solution component {i} is not finite"),
            });
        }
        Ok(())
    }

    /// Solves $A x = b$ in place.
    pub fn solve_in_place(&mut self, b: &mut [T]) -> Result<(), SolveError> {
        self.checked_solve(b, false)
    }

    /// Solves $A^\top x = b$ in place.
    pub fn solve_transpose_in_place(&mut self, b: &mut [T]) -> Result<(), SolveError> {
        self.checked_solve(b, true)
    }
}

/// Ruiz equilibration (Ruiz 2001): row and column factors, powers of two so that the
/// scaling is exact in floating point, with every row and column of $D_r S D_c$ of
/// largest entry in $[1/2, 2]$ after a few sweeps. Saddle-point pencils with very
/// different physical scales in their blocks (e.g. a plate's tiny compliances next to the
/// multiplier coupling of weakly clamped edges) otherwise defeat the pivoting of the
/// sparse LU.
pub fn ruiz_scaling(S: &SparseMat) -> (Vec<f64>, Vec<f64>) {
    let (nr, nc) = (S.nrows(), S.ncols());
    let (mut dr, mut dc) = (vec![1.0; nr], vec![1.0; nc]);
    let pow2 = |v: f64| {
        if v > 0.0 {
            2f64.powi(-(v.log2() / 2.0).round() as i32)
        } else {
            1.0
        }
    };
    for _ in 0..8 {
        let mut rmax = vec![0.0f64; nr];
        let mut cmax = vec![0.0f64; nc];
        for j in 0..nc {
            for (i, v) in phlex_core::sparse::col_iter(S, j) {
                let a = (v * dr[i] * dc[j]).abs();
                rmax[i] = rmax[i].max(a);
                cmax[j] = cmax[j].max(a);
            }
        }
        let mut changed = false;
        for (d, m) in dr.iter_mut().zip(&rmax) {
            let f = pow2(*m);
            changed |= f != 1.0;
            *d *= f;
        }
        for (d, m) in dc.iter_mut().zip(&cmax) {
            let f = pow2(*m);
            changed |= f != 1.0;
            *d *= f;
        }
        if !changed {
            break;
        }
    }
    (dr, dc)
}

/// Symmetric diagonal scaling by a descriptor's diagonal: $d_j = E_{jj}^{-1/2}$ where
/// $E_{jj} > 0$ and $d_j = 1$ elsewhere (algebraic rows). For a block-diagonal positive
/// definite $E$ (a strongly clamped plate), $DSD$ with $D = \operatorname{diag}(d)$
/// ([`scale_in_place`]) has a unit diagonal in its mass part, which keeps the sparse LU of
/// a midpoint matrix $E - \tfrac h2 J$ accurate when the physical scales of the blocks
/// differ by many orders (thesis 004 App. C material: $\rho h = 260$,
/// $\mathcal C_b \approx 10^{-8}$, $C_s \approx 10^{-11}$).
pub fn descriptor_diagonal_scaling(E: &SparseMat) -> Vec<f64> {
    (0..E.ncols())
        .map(
            |j| match phlex_core::sparse::col_iter(E, j).find(|(i, _)| *i == j) {
                Some((_, v)) if v > 0.0 => 1.0 / v.sqrt(),
                _ => 1.0,
            },
        )
        .collect()
}

/// Scales the values of `S` in place to $D_r S D_c$ (same pattern).
pub fn scale_in_place(S: &mut SparseMat, dr: &[f64], dc: &[f64]) {
    let col_ptr = S.symbolic().col_ptr().to_vec();
    let row_idx = S.symbolic().row_idx().to_vec();
    let val = S.val_mut();
    for j in 0..col_ptr.len() - 1 {
        for k in col_ptr[j]..col_ptr[j + 1] {
            val[k] *= dr[row_idx[k]] * dc[j];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use phlex_core::sparse::{self, Triplets};

    fn tridiag(n: usize, d: f64) -> SparseMat {
        let mut t = Triplets::new(n, n);
        for i in 0..n {
            t.push(i, i, d);
            if i + 1 < n {
                t.push(i, i + 1, -1.0);
                t.push(i + 1, i, -1.0);
            }
        }
        t.build()
    }

    #[test]
    fn pattern_sum_refills_and_lu_reuses_symbolic() {
        let n = 50;
        let e = sparse::identity(n, 2.0);
        let a = tridiag(n, 0.0);
        let ps = PatternSum::new(&[&e, &a]).unwrap();
        assert_eq!(ps.nnz(), 3 * n - 2);
        let mut s = ps.zeros::<f64>();
        let mut lu = SparseLu::<f64>::new("S", ps.symbolic()).unwrap();
        for beta in [0.5, -1.0, 3.0] {
            ps.fill(&[1.0, beta], &[&e, &a], &mut s).unwrap();
            lu.factorize(s.as_ref()).unwrap();
            let x: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
            let mut b = vec![0.0; n];
            // b = (E + beta A) x computed independently.
            sparse::mul_add(&mut b, 1.0, &e, &x);
            sparse::mul_add(&mut b, beta, &a, &x);
            lu.solve_in_place(&mut b).unwrap();
            let err = b
                .iter()
                .zip(&x)
                .fold(0.0f64, |m, (p, q)| m.max((p - q).abs()));
            // diagonally dominant for |beta| <= 0.5, otherwise still well conditioned here.
            assert!(err < 1e-12, "beta = {beta}: err {err:.2e}");
        }
        assert_eq!(
            lu.counters(),
            LuCounters {
                symbolic: 1,
                numeric: 3,
                solves: 3
            }
        );
    }

    #[test]
    fn complex_lu_solves_shifted_system() {
        let n = 20;
        let e = sparse::identity(n, 1.0);
        let a = tridiag(n, 2.0);
        let ps = PatternSum::new(&[&e, &a]).unwrap();
        let z = c64::new(0.3, 1.7);
        let s = ps.assemble(&[z, c64::new(-1.0, 0.0)], &[&e, &a]).unwrap();
        let mut lu = SparseLu::<c64>::from_matrix("zE - A", s.as_ref()).unwrap();
        let x: Vec<c64> = (0..n).map(|i| c64::new(i as f64, 1.0 - i as f64)).collect();
        let mut b = vec![c64::new(0.0, 0.0); n];
        for j in 0..n {
            for (i, v) in sparse::col_iter(&a, j) {
                b[i] -= x[j] * v;
            }
            b[j] += z * x[j];
        }
        lu.solve_in_place(&mut b).unwrap();
        let err = b
            .iter()
            .zip(&x)
            .fold(0.0f64, |m, (p, q)| m.max((p - q).norm()));
        assert!(err < 1e-12, "err {err:.2e}");
    }

    #[test]
    fn singular_matrix_is_reported() {
        // Rank-deficient 2x2 with full pattern: [[1, 1], [1, 1]].
        let mut t = Triplets::new(2, 2);
        for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            t.push(i, j, 1.0);
        }
        let a = t.build();
        let err = SparseLu::<f64>::from_matrix("K", a.as_ref()).unwrap_err();
        assert!(
            matches!(err, SolveError::Singular { ref what, .. } if what == "K"),
            "{err}"
        );
        // Structurally singular: an empty column.
        let mut t = Triplets::new(2, 2);
        t.push(0, 0, 1.0);
        t.push(1, 0, 1.0);
        let a = t.build();
        assert!(matches!(
            SparseLu::<f64>::from_matrix("K2", a.as_ref()),
            Err(SolveError::Singular { .. })
        ));
    }

    #[test]
    fn pattern_growth_triggers_new_symbolic_analysis() {
        let n = 5;
        let d = sparse::identity(n, 3.0);
        let mut lu = SparseLu::<f64>::from_matrix("D", d.as_ref()).unwrap();
        let full = tridiag(n, 3.0);
        lu.factorize(full.as_ref()).unwrap();
        assert_eq!(lu.counters().symbolic, 2);
        // A sub-pattern afterwards is scattered, no new analysis.
        lu.factorize(d.as_ref()).unwrap();
        assert_eq!(lu.counters().symbolic, 2);
        let mut b = vec![3.0; n];
        lu.solve_in_place(&mut b).unwrap();
        assert!(b.iter().all(|v| (v - 1.0).abs() < 1e-15));
        let mut fork = lu.fork().unwrap();
        assert!(!fork.is_factored());
        fork.factorize(full.as_ref()).unwrap();
        let mut b = vec![1.0; n];
        fork.solve_transpose_in_place(&mut b).unwrap();
        let r = sparse::mul_vec_transpose(&full, &b);
        assert!(r.iter().all(|v| (v - 1.0).abs() < 1e-14));
    }
}
