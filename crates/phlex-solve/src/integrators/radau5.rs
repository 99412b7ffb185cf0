//! Adaptive Radau IIA (order 5, three stages) for stiff ODEs and DAEs of index ≤ 2.
//!
//! Solves the linearly implicit problem $M\dot y = f(t, y)$ of [`ImplicitDae`] with constant,
//! possibly singular $M$. This is the integrator of the hinged spatial beam of paper 000
//! (§6.4, Table 5: "implicit Runge–Kutta method of the Radau IIA family"): a velocity-level
//! joint constraint (an index-2 DAE) driven by a torque switched off at 10.2 s and a force
//! pulse at 15 s (breakpoints of the input). The
//! algorithm follows Hairer & Wanner, *Solving Ordinary Differential Equations II*, §IV.8
//! (the code RADAU5) and §VII.8 (index-2 problems); it is written from the description in
//! the book, not translated from the Fortran.
//!
//! # Method
//! The collocation method with nodes $c = \big(\tfrac{4-\sqrt6}{10}, \tfrac{4+\sqrt6}{10}, 1\big)$
//! and coefficient matrix $A$ determines stage increments $Z = (z_1, z_2, z_3)$ from
//! $$ (h A)^{-1}\otimes M\, Z = F(Z), \qquad F_i(Z) = f(t_n + c_i h,\; y_n + z_i), $$
//! and $y_{n+1} = y_n + z_3$ (stiffly accurate). With $A^{-1} = T \Lambda T^{-1}$,
//! $\Lambda = \operatorname{diag}\big(\hat\gamma, \big[\begin{smallmatrix}\hat\alpha & -\hat\beta\\ \hat\beta & \hat\alpha\end{smallmatrix}\big]\big)$
//! and $W = (T^{-1}\otimes I) Z$, each simplified Newton iteration solves one real and one
//! complex sparse system (HW II §IV.8, "Simplified Newton iterations"):
//! $$ (\hat\gamma/h\, M - J)\,\Delta w_1 = r_1, \qquad
//!    \big((\hat\alpha + i\hat\beta)/h\, M - J\big)(\Delta w_2 + i\Delta w_3) = r_2 + i r_3, $$
//! with $r = (T^{-1}\otimes I)F(Z) - (\Lambda/h \otimes M) W$ and $J = \partial f/\partial y$
//! frozen over the iteration (and over several steps while Newton converges fast,
//! the `thet` heuristic of RADAU5). The sparsity pattern of both matrices is the union of
//! the patterns of $M$, $J$ and the diagonal; it is analysed **once** per run (column
//! ordering and elimination tree), and only the numeric factorization is redone when $h$
//! or $J$ change.
//!
//! # Error estimate and step control
//! The embedded third-order solution gives (HW II §IV.8, "Error estimation", with the filter
//! $(\gamma_0 h)^{-1}$ that keeps the estimate bounded for stiff components)
//! $$ \mathrm{err} = \big(M/(\gamma_0 h) - J\big)^{-1}\Big[f(t_n, y_n) + M\,\tfrac{1}{h}\textstyle\sum_i d_i z_i\Big],
//!    \quad d = \big(-\tfrac{13+7\sqrt6}{3}, \tfrac{-13+7\sqrt6}{3}, -\tfrac13\big), $$
//! re-evaluated once with $f(t_n, y_n + \mathrm{err})$ after a rejection or on the first
//! step. The norm is the RMS of $\mathrm{err}_i/\mathrm{sc}_i$ with
//! $\mathrm{sc}_i = a_i + r_i|y_i|$ over the differential and index-1 variables; the
//! index-2 and index-3 variables (multipliers) are left out of this norm and of the Newton
//! convergence norm (RADAU5 divides their scale by $h$ and $h^2$, the `IWORK(5..7)`
//! mechanism, HW II §VII.8; that stops at singular configurations of mechanisms, see the
//! private `measured_variables`). As in RADAU5 the user
//! tolerances are mapped to $r' = 0.1\, r^{e}$, $a' = r' a / r$ before use, because
//! the estimate is that of the embedded third-order method; phlex uses $e = 4/5$ by
//! default so that the *global* error tracks `rtol` (RADAU5's $e = 2/3$ is available
//! through [`Radau5Params::tol_exponent`]). The new step is
//! $h\,\min(8, \max(0.2, \mathrm{fac}\cdot\mathrm{err}^{-1/4}))$, combined with Gustafsson's
//! predictive controller (HW II §IV.8, "Step size selection").
//!
//! # Dense output
//! After a step $[t_n, t_{n+1}]$ the collocation polynomial $u(t)$ (degree 3, through
//! $y_n$, $y_n + z_1$, $y_n + z_2$, $y_{n+1}$) is available; [`OutputTimes::Grid`] samples
//! it at the requested times without shortening the steps, and the same polynomial
//! extrapolated to the next step provides the Newton starting values.
//!
//! # Breakpoints
//! [`ImplicitDae::breakpoints`] split the interval: every step ends exactly on a
//! breakpoint, stage times inside a step that ends on a breakpoint `b` are clamped to the
//! largest float below `b` (inputs are right-continuous, see [`crate::signal`]), and the
//! integration restarts after `b` with a fresh error history.
// `!(x > 0.0)` is deliberate: it also rejects NaN. Index loops over the three stages
// mirror the formulas.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]

use faer::c64;
use faer::sparse::{SparseColMatRef, SymbolicSparseColMat, SymbolicSparseColMatRef};

use phlex_core::sparse::{self, col_iter, SparseMat};

use crate::linsolve::SparseLu;
use crate::problem::{ImplicitDae, Observer};
use crate::{SolveError, SolverStats};

/// Coefficients of the three-stage Radau IIA method and its transformation matrices
/// (given to 20 digits; the compiler rounds them to the nearest `f64`).
#[allow(clippy::excessive_precision)]
mod tableau {
    /// $\sqrt 6$.
    const SQ6: f64 = 2.449_489_742_783_178;
    /// Node $c_1 = (4 - \sqrt6)/10$.
    pub const C1: f64 = (4.0 - SQ6) / 10.0;
    /// Node $c_2 = (4 + \sqrt6)/10$.
    pub const C2: f64 = (4.0 + SQ6) / 10.0;
    /// $c_1 - 1$.
    pub const C1M1: f64 = C1 - 1.0;
    /// $c_2 - 1$.
    pub const C2M1: f64 = C2 - 1.0;
    /// $c_1 - c_2$.
    pub const C1MC2: f64 = C1 - C2;
    /// Error-estimate weights $d_i = e_i/\gamma_0$ of the embedded formula (HW II §IV.8).
    pub const DD1: f64 = -(13.0 + 7.0 * SQ6) / 3.0;
    /// See [`DD1`].
    pub const DD2: f64 = (-13.0 + 7.0 * SQ6) / 3.0;
    /// See [`DD1`].
    pub const DD3: f64 = -1.0 / 3.0;
    /// Real eigenvalue $\hat\gamma$ of $A^{-1}$ (so $\gamma_0 = 1/\hat\gamma$ is the real
    /// eigenvalue of $A$): $\hat\gamma = 30/(6 + 81^{1/3} - 9^{1/3})$.
    pub const GAMMA_HAT: f64 = 3.637_834_252_744_496;
    /// Real part $\hat\alpha$ of the complex eigenvalue pair of $A^{-1}$.
    pub const ALPHA_HAT: f64 = 2.681_082_873_627_752_3;
    /// Imaginary part $\hat\beta$ of the complex eigenvalue pair of $A^{-1}$.
    pub const BETA_HAT: f64 = 3.050_430_199_247_410_5;
    /// $T$ with $T^{-1}A^{-1}T = \Lambda$ (third row is $(t_{31}, 1, 0)$).
    pub const T: [[f64; 3]; 3] = [
        [
            9.123_239_487_089_294_279_2e-2,
            -0.141_255_295_020_954_208_43,
            -3.002_919_410_514_742_449_2e-2,
        ],
        [
            0.241_717_932_707_107_018_96,
            0.204_129_352_293_799_931_99,
            0.382_942_112_757_261_937_79,
        ],
        [0.966_048_182_615_092_936_19, 1.0, 0.0],
    ];
    /// $T^{-1}$.
    pub const TI: [[f64; 3]; 3] = [
        [
            4.325_579_890_063_155_351,
            0.339_199_251_815_809_869_54,
            0.541_770_539_935_874_871_19,
        ],
        [
            -4.178_718_591_551_904_727_3,
            -0.327_682_820_761_062_387_08,
            0.476_623_554_500_550_451_96,
        ],
        [
            -0.502_872_634_945_786_875_95,
            2.571_926_949_855_605_429_2,
            -0.596_039_204_828_224_924_97,
        ],
    ];
    /// The Butcher matrix $A$ of Radau IIA order 5 (used by the self-tests).
    #[cfg(test)]
    pub fn a_matrix() -> [[f64; 3]; 3] {
        [
            [
                (88.0 - 7.0 * SQ6) / 360.0,
                (296.0 - 169.0 * SQ6) / 1800.0,
                (-2.0 + 3.0 * SQ6) / 225.0,
            ],
            [
                (296.0 + 169.0 * SQ6) / 1800.0,
                (88.0 + 7.0 * SQ6) / 360.0,
                (-2.0 - 3.0 * SQ6) / 225.0,
            ],
            [(16.0 - SQ6) / 36.0, (16.0 + SQ6) / 36.0, 1.0 / 9.0],
        ]
    }
}

use tableau::*;

/// Unit roundoff used in the step-size underflow test and the Newton tolerance.
const UROUND: f64 = f64::EPSILON;

/// Tuning and tolerance parameters of [`Radau5`] (defaults are those of RADAU5).
#[derive(Debug, Clone, PartialEq)]
pub struct Radau5Params {
    /// Relative tolerance $r > 0$ (requested accuracy of the global solution).
    pub rtol: f64,
    /// Absolute tolerance $a \ge 0$, in the units of each state (used for every component
    /// unless [`Radau5Params::atol_components`] is given).
    pub atol: f64,
    /// Optional per-component absolute tolerances (length = problem dimension, each ≥ 0).
    pub atol_components: Option<Vec<f64>>,
    /// Initial step $h_0 > 0$; `None` uses $10^{-6}(t_{end} - t_0)$ (a too large or too
    /// small guess is corrected after one or two steps).
    pub h0: Option<f64>,
    /// Largest step allowed, $h_{max} > 0$ (default $+\infty$).
    pub h_max: f64,
    /// Maximum number of step attempts (accepted + rejected), ≥ 1.
    pub max_steps: usize,
    /// Safety factor of the step-size selection, in $(0.1, 1]$ (default 0.9).
    pub safety: f64,
    /// Maximum simplified-Newton iterations per step, ≥ 1 (default 7).
    pub max_newton_iterations: usize,
    /// Newton stopping tolerance (scaled norm); `None` uses RADAU5's
    /// $\max(10u/r', \min(0.03, \sqrt{r'}))$. Must be in $(u/r', 1)$ if given.
    pub newton_tol: Option<f64>,
    /// Jacobian reuse threshold `thet` (default 0.001): the Jacobian is re-evaluated after
    /// an accepted step only if the Newton contraction rate exceeded it. A negative value
    /// forces a new Jacobian at every step. Must be < 1.
    pub jacobian_reuse: f64,
    /// Lower bound of $h_{new}/h_{old}$, in $(0, 1)$ (default 0.2).
    pub min_step_ratio: f64,
    /// Upper bound of $h_{new}/h_{old}$, > 1 (default 8).
    pub max_step_ratio: f64,
    /// Keep $h$ (and the factorizations) if $h_{new}/h$ lies in this band (default
    /// `(1.0, 1.2)`); requires `0 < lo ≤ 1 ≤ hi`.
    pub keep_step_band: (f64, f64),
    /// Use Gustafsson's predictive step-size controller (default true).
    pub predictive_controller: bool,
    /// Exponent $e$ of the tolerance map $r' = 0.1\,r^{e}$, $a' = a\,r'/r$ applied before the
    /// error test, in $[0.5, 1]$. The embedded estimate is $O(h^4)$ while the global
    /// error of the order-5 solution is $O(h^5)$, so $e = 4/5$ (default) makes the global
    /// error proportional to `rtol`; RADAU5 uses $e = 2/3$ (set it to reproduce Hairer's
    /// work counts), which leaves the global error growing like $r^{5/6}$, i.e. above `rtol`
    /// for tight tolerances on oscillatory problems.
    pub tol_exponent: f64,
    /// Check the algebraic equations (zero rows of $M$) at $t_0$ before integrating
    /// (default true), see [`check_initial_consistency`].
    pub check_consistency: bool,
}

impl Default for Radau5Params {
    fn default() -> Self {
        Self {
            rtol: 1e-6,
            atol: 1e-6,
            atol_components: None,
            h0: None,
            h_max: f64::INFINITY,
            max_steps: 100_000,
            safety: 0.9,
            max_newton_iterations: 7,
            newton_tol: None,
            jacobian_reuse: 0.001,
            min_step_ratio: 0.2,
            max_step_ratio: 8.0,
            keep_step_band: (1.0, 1.2),
            predictive_controller: true,
            tol_exponent: 0.8,
            check_consistency: true,
        }
    }
}

impl Radau5Params {
    /// Parameters with the given tolerances and default tuning.
    pub fn with_tolerances(rtol: f64, atol: f64) -> Self {
        Self {
            rtol,
            atol,
            ..Self::default()
        }
    }

    /// Checks every parameter; the error message states the inequality that failed.
    pub fn validate(&self) -> Result<(), SolveError> {
        let err = |s: String| Err(SolveError::Parameter(s));
        if !(self.rtol > 0.0 && self.rtol.is_finite()) {
            return err(format!(
                "Radau5Params: rtol must satisfy 0 < rtol < ∞ (got {})",
                self.rtol
            ));
        }
        if self.rtol < 10.0 * UROUND {
            return err(format!(
                "Radau5Params: rtol must satisfy rtol ≥ 10·ε = {:.3e} (got {:.3e})",
                10.0 * UROUND,
                self.rtol
            ));
        }
        if !(self.atol >= 0.0 && self.atol.is_finite()) {
            return err(format!(
                "Radau5Params: atol must satisfy 0 ≤ atol < ∞ (got {})",
                self.atol
            ));
        }
        if let Some(a) = &self.atol_components {
            if let Some((i, v)) = a
                .iter()
                .enumerate()
                .find(|(_, v)| !(**v >= 0.0 && v.is_finite()))
            {
                return err(format!(
                    "Radau5Params: atol_components[{i}] must satisfy 0 ≤ atol < ∞ (got {v})"
                ));
            }
        }
        if let Some(h0) = self.h0 {
            if !(h0 > 0.0 && h0.is_finite()) {
                return err(format!(
                    "Radau5Params: h0 must satisfy 0 < h0 < ∞ (got {h0})"
                ));
            }
        }
        if !(self.h_max > 0.0) {
            return err(format!(
                "Radau5Params: h_max must satisfy h_max > 0 (got {})",
                self.h_max
            ));
        }
        if self.max_steps < 1 {
            return err("Radau5Params: max_steps must satisfy max_steps ≥ 1 (got 0)".into());
        }
        if !(self.safety > 0.1 && self.safety <= 1.0) {
            return err(format!(
                "Radau5Params: safety must satisfy 0.1 < safety ≤ 1 (got {})",
                self.safety
            ));
        }
        if self.max_newton_iterations < 1 {
            return err("Radau5Params: max_newton_iterations must satisfy ≥ 1 (got 0)".into());
        }
        if let Some(tol) = self.newton_tol {
            if !(tol > 0.0 && tol < 1.0) {
                return err(format!(
                    "Radau5Params: newton_tol must satisfy 0 < newton_tol < 1 (got {tol})"
                ));
            }
        }
        if !(self.jacobian_reuse < 1.0) {
            return err(format!(
                "Radau5Params: jacobian_reuse must satisfy jacobian_reuse < 1 (got {})",
                self.jacobian_reuse
            ));
        }
        if !(self.min_step_ratio > 0.0 && self.min_step_ratio < 1.0) {
            return err(format!(
                "Radau5Params: min_step_ratio must satisfy 0 < min_step_ratio < 1 (got {})",
                self.min_step_ratio
            ));
        }
        if !(self.max_step_ratio > 1.0) {
            return err(format!(
                "Radau5Params: max_step_ratio must satisfy max_step_ratio > 1 (got {})",
                self.max_step_ratio
            ));
        }
        if !(self.tol_exponent >= 0.5 && self.tol_exponent <= 1.0) {
            return err(format!(
                "Radau5Params: tol_exponent must satisfy 0.5 ≤ tol_exponent ≤ 1 (got {})",
                self.tol_exponent
            ));
        }
        let (lo, hi) = self.keep_step_band;
        if !(lo > 0.0 && lo <= 1.0 && hi >= 1.0 && hi.is_finite()) {
            return err(format!(
                "Radau5Params: keep_step_band (lo, hi) must satisfy 0 < lo ≤ 1 ≤ hi < ∞ (got ({lo}, {hi}))"
            ));
        }
        Ok(())
    }
}

/// Where the [`Observer`] is called.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OutputTimes<'a> {
    /// At $t_0$ and after every accepted step.
    Steps,
    /// At the given times (non-decreasing, inside $[t_0, t_{end}]$), from the dense output.
    Grid(&'a [f64]),
    /// Never (only the final state is returned).
    None,
}

/// Result of a successful [`Radau5::integrate`].
#[derive(Debug, Clone, PartialEq)]
pub struct Radau5Solution {
    /// Final time (equal to the requested $t_{end}$).
    pub t: f64,
    /// State at [`Radau5Solution::t`].
    pub y: Vec<f64>,
    /// Work counters. `factorizations` and `linear_solves` count pairs (one real and one
    /// complex system), as RADAU5's `NDEC` and `NSOL`.
    pub stats: SolverStats,
    /// Step size proposed for a continuation of the integration.
    pub h_next: f64,
}

/// Outcome of [`check_initial_consistency`].
#[derive(Debug, Clone, PartialEq)]
pub struct ConsistencyReport {
    /// Rows of $M$ without any nonzero entry (the algebraic equations $0 = f_i$).
    pub algebraic_rows: Vec<usize>,
    /// Largest ratio $|f_i(t_0,y_0)| / \mathrm{tol}_i$ over the algebraic rows (0 if none).
    pub worst_ratio: f64,
    /// Row attaining [`ConsistencyReport::worst_ratio`].
    pub worst_row: Option<usize>,
    /// Residual $|f_i(t_0, y_0)|$ of the worst row.
    pub worst_residual: f64,
}

/// Rows of `M` with no nonzero entry.
fn zero_rows(M: &SparseMat) -> Vec<usize> {
    let mut nonzero = vec![false; M.nrows()];
    for j in 0..M.ncols() {
        for (i, v) in col_iter(M, j) {
            if v != 0.0 {
                nonzero[i] = true;
            }
        }
    }
    (0..M.nrows()).filter(|&i| !nonzero[i]).collect()
}

/// Columns of `M` with no nonzero entry.
fn zero_cols(M: &SparseMat) -> Vec<usize> {
    (0..M.ncols())
        .filter(|&j| col_iter(M, j).all(|(_, v)| v == 0.0))
        .collect()
}

/// Checks the algebraic equations of a DAE at $(t_0, y_0)$.
///
/// For every zero row $i$ of $M$ the residual must satisfy
/// $|f_i(t_0, y_0)| \le \mathrm{tol}_i = \mathtt{atol} + \mathtt{rtol}\sum_j |J_{ij}\, y_{0,j}|$
/// (the tolerance scales with the size of the terms of the equation, so it is unit-free in
/// `rtol`). Only the explicit constraints are checked: the hidden constraints of index-2
/// problems (derivatives of the constraints) are not. Returns the report when consistent
/// and [`SolveError::Parameter`] naming the worst row otherwise.
pub fn check_initial_consistency<P: ImplicitDae + ?Sized>(
    problem: &P,
    t0: f64,
    y0: &[f64],
    rtol: f64,
    atol: f64,
) -> Result<ConsistencyReport, SolveError> {
    let n = problem.dim();
    check_dims(problem, y0)?;
    let rows = zero_rows(problem.mass());
    let mut report = ConsistencyReport {
        algebraic_rows: rows,
        worst_ratio: 0.0,
        worst_row: None,
        worst_residual: 0.0,
    };
    if report.algebraic_rows.is_empty() {
        return Ok(report);
    }
    let mut f = vec![0.0; n];
    problem.rhs(t0, y0, &mut f);
    if let Some(i) = f.iter().position(|v| !v.is_finite()) {
        return Err(SolveError::NonFinite { t: t0, index: i });
    }
    let J = problem.jacobian(t0, y0);
    let mut term_size = vec![0.0; n];
    for j in 0..n {
        for (i, v) in col_iter(&J, j) {
            term_size[i] += (v * y0[j]).abs();
        }
    }
    let mut worst_tol = 0.0;
    for &i in &report.algebraic_rows {
        let tol = atol + rtol * term_size[i];
        let r = f[i].abs();
        let ratio = if tol > 0.0 {
            r / tol
        } else if r > 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
        if ratio > report.worst_ratio || report.worst_row.is_none() {
            report.worst_ratio = ratio;
            report.worst_row = Some(i);
            report.worst_residual = r;
            worst_tol = tol;
        }
    }
    if report.worst_ratio > 1.0 {
        let i = report.worst_row.unwrap_or(0);
        return Err(SolveError::Parameter(format!(
            "inconsistent initial condition at t0 = {t0:e}: algebraic row {i} has |f_{i}(t0, y0)| = {:.3e} > tol = {:.3e} \
             (atol + rtol·Σ_j|J_ij y_j|); make y0 satisfy the constraints (index-1 rows can be fixed with \
             radau5::project_index1)",
            report.worst_residual, worst_tol
        )));
    }
    Ok(report)
}

/// Projects $y_0$ onto the index-1 algebraic equations: keeps the differential variables
/// and solves $f_i(t_0, y) = 0$ (zero rows $i$ of $M$) for the algebraic variables (zero
/// columns of $M$) by Newton's method, to a residual $\le$ `tol` (max norm).
///
/// Requires as many zero rows as zero columns, all algebraic variables of index 1, and a
/// nonsingular $\partial f_{alg}/\partial y_{alg}$.
pub fn project_index1<P: ImplicitDae + ?Sized>(
    problem: &P,
    t0: f64,
    y0: &[f64],
    tol: f64,
) -> Result<Vec<f64>, SolveError> {
    check_dims(problem, y0)?;
    if !(tol > 0.0) {
        return Err(SolveError::Parameter(format!(
            "project_index1: tol must satisfy tol > 0 (got {tol})"
        )));
    }
    let M = problem.mass();
    let rows = zero_rows(M);
    let cols = zero_cols(M);
    if rows.len() != cols.len() {
        return Err(SolveError::Dimension(format!(
            "project_index1: M has {} zero rows but {} zero columns; the algebraic equations do not determine \
             the algebraic variables",
            rows.len(),
            cols.len()
        )));
    }
    let idx = problem.variable_indices();
    if let Some(&c) = cols.iter().find(|&&c| idx[c] != 1) {
        return Err(SolveError::Parameter(format!(
            "project_index1: algebraic variable {c} has index {} (only index-1 variables can be projected)",
            idx[c]
        )));
    }
    let mut y = y0.to_vec();
    if rows.is_empty() {
        return Ok(y);
    }
    let n = y.len();
    let mut f = vec![0.0; n];
    let mut r = vec![0.0; rows.len()];
    for _ in 0..20 {
        problem.rhs(t0, &y, &mut f);
        for (k, &i) in rows.iter().enumerate() {
            r[k] = f[i];
        }
        let res = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if !res.is_finite() {
            return Err(SolveError::NonFinite {
                t: t0,
                index: rows[r.iter().position(|v| !v.is_finite()).unwrap_or(0)],
            });
        }
        if res <= tol {
            return Ok(y);
        }
        let J = problem.jacobian(t0, &y);
        let Jaa = sparse::restrict(&J, &rows, &cols);
        let mut lu =
            SparseLu::<f64>::from_matrix("∂f_alg/∂y_alg (index-1 projection)", Jaa.as_ref())?;
        lu.solve_in_place(&mut r)?;
        for (k, &c) in cols.iter().enumerate() {
            y[c] -= r[k];
        }
    }
    Err(SolveError::NewtonDiverged {
        t: t0,
        iterations: 20,
        residual: f64::NAN,
        tol,
    })
}

fn check_dims<P: ImplicitDae + ?Sized>(problem: &P, y0: &[f64]) -> Result<(), SolveError> {
    let n = problem.dim();
    if y0.len() != n {
        return Err(SolveError::Dimension(format!(
            "y0 has {} components but the problem has {n}",
            y0.len()
        )));
    }
    let M = problem.mass();
    if M.nrows() != n || M.ncols() != n {
        return Err(SolveError::Dimension(format!(
            "M is {}×{} but the problem has dimension {n}",
            M.nrows(),
            M.ncols()
        )));
    }
    let idx = problem.variable_indices();
    if idx.len() != n {
        return Err(SolveError::Dimension(format!(
            "variable_indices has {} entries but the problem has {n}",
            idx.len()
        )));
    }
    if let Some(i) = idx.iter().position(|&k| k > 3) {
        return Err(SolveError::Parameter(format!(
            "variable {i} has DAE index {} > 3",
            idx[i]
        )));
    }
    Ok(())
}

/// The largest float strictly below `b` (for a right-continuous input at a breakpoint).
fn float_below(b: f64) -> f64 {
    if b.is_nan() || b == f64::NEG_INFINITY {
        return b;
    }
    if b == 0.0 {
        return -f64::from_bits(1);
    }
    let bits = b.to_bits();
    if b > 0.0 {
        f64::from_bits(bits - 1)
    } else {
        f64::from_bits(bits + 1)
    }
}

/// Fixed sparsity pattern of $\gamma M - J$ and $(\alpha + i\beta)M - J$: the union of the
/// patterns of $M$, $J$ and the diagonal, with $M$ and $J$ scattered onto it.
struct Pattern {
    sym: SymbolicSparseColMat<usize>,
    mass_vals: Vec<f64>,
    jac_vals: Vec<f64>,
}

impl Pattern {
    /// Union of `extra` (if any), `M`, `J` and the diagonal.
    fn build(
        n: usize,
        M: &SparseMat,
        J: &SparseMat,
        extra: Option<SymbolicSparseColMatRef<'_, usize>>,
    ) -> Self {
        let mut col_ptr = Vec::with_capacity(n + 1);
        let mut row_idx = Vec::new();
        let mut col = Vec::new();
        col_ptr.push(0);
        for j in 0..n {
            col.clear();
            col.push(j);
            col.extend(M.row_idx_of_col_raw(j).iter().copied());
            col.extend(J.row_idx_of_col_raw(j).iter().copied());
            if let Some(e) = extra {
                col.extend(e.row_idx_of_col_raw(j).iter().copied());
            }
            col.sort_unstable();
            col.dedup();
            row_idx.extend_from_slice(&col);
            col_ptr.push(row_idx.len());
        }
        let nnz = row_idx.len();
        let sym = SymbolicSparseColMat::new_checked(n, n, col_ptr, None, row_idx);
        let mut p = Self {
            sym,
            mass_vals: vec![0.0; nnz],
            jac_vals: vec![0.0; nnz],
        };
        let mut mv = vec![0.0; nnz];
        let ok = p.scatter(M, &mut mv);
        debug_assert!(ok, "M is contained in the pattern by construction");
        p.mass_vals = mv;
        p
    }

    /// Writes the entries of `A` into `out` (aligned with the pattern). Returns false if
    /// `A` has an entry outside the pattern.
    fn scatter(&self, A: &SparseMat, out: &mut [f64]) -> bool {
        out.iter_mut().for_each(|v| *v = 0.0);
        let cp = self.sym.col_ptr();
        let ri = self.sym.row_idx();
        for j in 0..A.ncols() {
            let rows = &ri[cp[j]..cp[j + 1]];
            for (i, v) in col_iter(A, j) {
                match rows.binary_search(&i) {
                    Ok(k) => out[cp[j] + k] += v,
                    Err(_) => return false,
                }
            }
        }
        true
    }
}

/// The two stage matrices $E_1 = \hat\gamma/h\,M - J$ and $E_2 = (\hat\alpha+i\hat\beta)/h\,M - J$
/// on one pattern, factorized with [`SparseLu`] (symbolic analysis once; the numeric
/// factorization is redone when $h$ or $J$ change).
struct StageMatrices {
    n: usize,
    pattern: Pattern,
    real_vals: Vec<f64>,
    complex_vals: Vec<c64>,
    real: SparseLu<f64>,
    complex: SparseLu<c64>,
    cbuf: Vec<c64>,
    /// Step size of the current factorizations (None: must refactor).
    factored_h: Option<f64>,
}

impl StageMatrices {
    fn new(M: &SparseMat, J: &SparseMat) -> Result<Self, SolveError> {
        let n = M.nrows();
        let pattern = Pattern::build(n, M, J, None);
        Self::from_pattern(n, pattern, J)
    }

    fn from_pattern(n: usize, mut pattern: Pattern, J: &SparseMat) -> Result<Self, SolveError> {
        let mut real =
            SparseLu::<f64>::new("Radau5 real stage matrix γ/h·M − J", pattern.sym.as_ref())?;
        // Same pattern: share the symbolic analysis (ordering + symbolic LU) of `real`.
        let mut complex =
            SparseLu::<c64>::sharing_symbolic("Radau5 complex stage matrix (α+iβ)/h·M − J", &real)?;
        // Badly scaled but regular matrices (index-2 DAEs with small h) must not be
        // declared singular by the probe; only non-finite factors count.
        real.set_singular_tol(f64::INFINITY)?;
        complex.set_singular_tol(f64::INFINITY)?;
        let nnz = pattern.sym.row_idx().len();
        let mut jv = vec![0.0; nnz];
        let ok = pattern.scatter(J, &mut jv);
        debug_assert!(ok, "J is contained in the pattern by construction");
        pattern.jac_vals = jv;
        Ok(Self {
            n,
            real_vals: vec![0.0; nnz],
            complex_vals: vec![c64::new(0.0, 0.0); nnz],
            real,
            complex,
            cbuf: vec![c64::new(0.0, 0.0); n],
            pattern,
            factored_h: None,
        })
    }

    /// Installs a new Jacobian; redoes the symbolic analysis only if `J` has entries
    /// outside the current pattern (the pattern then grows to the union).
    fn set_jacobian(&mut self, M: &SparseMat, J: &SparseMat) -> Result<(), SolveError> {
        self.factored_h = None;
        let mut jv = std::mem::take(&mut self.pattern.jac_vals);
        if self.pattern.scatter(J, &mut jv) {
            self.pattern.jac_vals = jv;
            return Ok(());
        }
        let pattern = Pattern::build(self.n, M, J, Some(self.pattern.sym.as_ref()));
        *self = Self::from_pattern(self.n, pattern, J)?;
        Ok(())
    }

    /// Numeric factorization of both matrices for step `h`.
    fn factor(&mut self, h: f64) -> Result<(), SolveError> {
        self.factored_h = None;
        let fac1 = GAMMA_HAT / h;
        let z = c64::new(ALPHA_HAT / h, BETA_HAT / h);
        let (mv, jv) = (&self.pattern.mass_vals, &self.pattern.jac_vals);
        for k in 0..mv.len() {
            self.real_vals[k] = fac1 * mv[k] - jv[k];
            self.complex_vals[k] = z * mv[k] - jv[k];
        }
        let sym = self.pattern.sym.as_ref();
        self.real
            .factorize(SparseColMatRef::new(sym, &self.real_vals))?;
        self.complex
            .factorize(SparseColMatRef::new(sym, &self.complex_vals))?;
        self.factored_h = Some(h);
        Ok(())
    }

    fn solve_real(&mut self, rhs: &mut [f64]) -> Result<(), SolveError> {
        self.real.solve_in_place(rhs)
    }

    /// Solves $E_2 (x + i y) = re + i\,im$ in place.
    fn solve_complex(&mut self, re: &mut [f64], im: &mut [f64]) -> Result<(), SolveError> {
        for k in 0..self.n {
            self.cbuf[k] = c64::new(re[k], im[k]);
        }
        let res = self.complex.solve_in_place(&mut self.cbuf);
        for k in 0..self.n {
            re[k] = self.cbuf[k].re;
            im[k] = self.cbuf[k].im;
        }
        res
    }
}

/// The Radau IIA (order 5) integrator. Create with [`Radau5::new`], run with
/// [`Radau5::integrate`]; the object holds only validated parameters and can be reused.
#[derive(Debug, Clone, PartialEq)]
pub struct Radau5 {
    params: Radau5Params,
}

/// Why a Newton iteration was abandoned.
#[derive(Debug, Clone)]
enum NewtonFailure {
    /// Divergence or too many iterations: retry with $h/2$.
    Diverged,
    /// Convergence too slow for the iterations left: retry with $h$ times this factor.
    Shrink(f64),
    /// A linear solve produced non-finite values from finite data (zero pivot).
    Singular(SolveError),
    /// $f$ returned a non-finite value at this component.
    NonFinite(usize),
}

/// What the step loop does next (the labels 10 / 20 / 30 of RADAU5).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Evaluate the Jacobian, then factor.
    Jacobian,
    /// Factor with the current Jacobian (skipped if already factored for this `h`).
    Factor,
    /// Attempt a step with the current factorizations.
    Step,
}

impl Next {
    /// The matrix work before the next attempt with a new step size: factor only when the
    /// Jacobian can be kept (just evaluated, constant, or the last Newton iteration
    /// contracted fast), otherwise evaluate it first.
    fn refactor(keep_jacobian: bool) -> Self {
        if keep_jacobian {
            Next::Factor
        } else {
            Next::Jacobian
        }
    }
}

/// Bookkeeping of a rejected attempt (singular stage matrices, failed Newton iteration, or
/// the error test; the caller has shrunk the step): the next step is not the last one, the
/// rejection is counted, and the stage matrices are redone ([`Next::refactor`]).
fn reject_attempt(
    reject: &mut bool,
    last: &mut bool,
    stats: &mut SolverStats,
    keep_jacobian: bool,
) -> Next {
    *reject = true;
    *last = false;
    stats.rejected_steps += 1;
    Next::refactor(keep_jacobian)
}

/// All vectors of a run (allocated once).
struct Work {
    y: Vec<f64>,
    /// $f(t_n, y_n)$.
    f0: Vec<f64>,
    z: [Vec<f64>; 3],
    w: [Vec<f64>; 3],
    fz: [Vec<f64>; 3],
    mw: [Vec<f64>; 3],
    tmp: Vec<f64>,
    tmp2: Vec<f64>,
    /// Dense output: $y_{n+1}$ and the three divided-difference coefficients.
    cont: [Vec<f64>; 4],
    base_scal: Vec<f64>,
    scal: Vec<f64>,
    atol: Vec<f64>,
    rtol: f64,
    /// Exponent $k-1$ of $h$ in the scale of each variable of index $k \ge 2$ (else 0).
    h_power: Vec<i32>,
    /// The variables measured by the Newton and error norms: all of index $\le 1$
    /// ([`measured_variables`]).
    measured: Vec<bool>,
    /// Whether some variable has index $\ge 2$ (then the Jacobian is evaluated at the
    /// middle of the step, see `run_segment`).
    has_multipliers: bool,
}

/// The variables in the Newton convergence norm and the error norm: the differential
/// variables and the index-1 algebraic variables; the index-2 and index-3 variables (the
/// multipliers of velocity and position constraints) are left out, as IDA's
/// `suppressAlg` option leaves the algebraic variables out of its error test. The states
/// are computed to the tolerance without them; the multipliers follow from the states
/// (their order, 3 for index 2, is that of the method, HW II Table VII.4.1). With them in
/// the norms (RADAU5 scales their error by $h$), a **singular configuration** stops the
/// integration: where the constraint rows $G(q)$ become dependent (a four-bar chain with
/// all links collinear, IFToMM benchmark A02) the multipliers are not unique, the stage
/// matrices are nearly singular along the dependent combination $\ker G^\top$, and the
/// estimated multiplier error grows like $1/\sigma_{min}(G)^2$ while the states stay smooth:
/// the step size collapsed to underflow. That combination does not act on the states
/// ($G^\top\lambda$ is the reaction), so leaving the multipliers out lets the steps
/// approach the singular position with the accuracy of the states. This is necessary but
/// not sufficient: on A02 (N = 2) Radau IIA passes both singular positions of the first
/// 2 s at rtol = 1e-6 but still stops 3 ms before the second one at rtol = 1e-8 (step size
/// underflow; the `phlex` driver then reports the singular configuration and names the
/// midpoint rule, `crates/phlex/tests/singular_configurations.rs`). If every variable has
/// index $\ge 2$ all are measured.
fn measured_variables(indices: &[u8]) -> Vec<bool> {
    let m: Vec<bool> = indices.iter().map(|&k| k <= 1).collect();
    if m.iter().any(|&v| v) {
        m
    } else {
        vec![true; indices.len()]
    }
}

/// $\mathrm{sc}_i = a_i + r|y_i|$ (floored at the smallest normal float so that a zero
/// component with `atol = 0` does not divide by zero).
fn update_base_scale(wk: &mut Work) {
    for i in 0..wk.y.len() {
        wk.base_scal[i] = (wk.atol[i] + wk.rtol * wk.y[i].abs()).max(f64::MIN_POSITIVE);
    }
}

/// Newton/Jacobian state carried across breakpoint segments.
struct SegmentState {
    faccon: f64,
    theta: f64,
    /// The stored Jacobian was evaluated at the current `(t, y)`.
    jac_fresh: bool,
}

/// One breakpoint-free interval.
struct SegmentSpec {
    x0: f64,
    x_end: f64,
    /// Largest time at which stages are evaluated (just below a breakpoint).
    stage_tmax: f64,
    h: f64,
    fnewt: f64,
    jac_const: bool,
}

/// Progress through the output grid.
struct OutputState {
    grid_next: usize,
    dense: Vec<f64>,
}

/// Calls the observer for a step ending at `x_new` of length `h_step` (or for the initial
/// state when `initial`).
fn emit_output<O: Observer + ?Sized>(
    output: OutputTimes<'_>,
    out: &mut OutputState,
    observer: &mut O,
    x_new: f64,
    h_step: f64,
    wk: &Work,
    initial: bool,
) {
    match output {
        OutputTimes::Steps => observer.observe(x_new, &wk.y),
        OutputTimes::None => {}
        OutputTimes::Grid(ts) => {
            while out.grid_next < ts.len() && ts[out.grid_next] <= x_new {
                let t = ts[out.grid_next];
                if initial || t == x_new {
                    observer.observe(t, &wk.y);
                } else {
                    let s = (t - x_new) / h_step;
                    for i in 0..wk.y.len() {
                        out.dense[i] = wk.cont[0][i]
                            + s * (wk.cont[1][i]
                                + (s - C2M1) * (wk.cont[2][i] + (s - C1M1) * wk.cont[3][i]));
                    }
                    observer.observe(t, &out.dense);
                }
                out.grid_next += 1;
            }
        }
    }
}

impl Radau5 {
    /// Validates the parameters.
    pub fn new(params: Radau5Params) -> Result<Self, SolveError> {
        params.validate()?;
        Ok(Self { params })
    }

    /// The parameters.
    pub fn params(&self) -> &Radau5Params {
        &self.params
    }

    /// Integrates $M\dot y = f(t,y)$ from $(t_0, y_0)$ to $t_{end} > t_0$, calling `observer`
    /// at the times selected by `output`.
    ///
    /// Errors: [`SolveError::Dimension`] / [`SolveError::Parameter`] for bad input (also an
    /// inconsistent initial condition when [`Radau5Params::check_consistency`] is set),
    /// [`SolveError::StepSizeUnderflow`], [`SolveError::TooManySteps`],
    /// [`SolveError::NonFinite`] and [`SolveError::Singular`] (five consecutive singular
    /// stage matrices).
    pub fn integrate<P, O>(
        &self,
        problem: &P,
        t0: f64,
        y0: &[f64],
        t_end: f64,
        output: OutputTimes<'_>,
        observer: &mut O,
    ) -> Result<Radau5Solution, SolveError>
    where
        P: ImplicitDae + ?Sized,
        O: Observer + ?Sized,
    {
        let p = &self.params;
        let n = problem.dim();
        check_dims(problem, y0)?;
        if !(t0.is_finite() && t_end.is_finite() && t_end > t0) {
            return Err(SolveError::Parameter(format!(
                "Radau5: the interval must satisfy t0 < t_end (both finite); got t0 = {t0}, t_end = {t_end}"
            )));
        }
        if let Some(i) = y0.iter().position(|v| !v.is_finite()) {
            return Err(SolveError::NonFinite { t: t0, index: i });
        }
        if let Some(a) = &p.atol_components {
            if a.len() != n {
                return Err(SolveError::Dimension(format!(
                    "atol_components has {} entries but the problem has {n}",
                    a.len()
                )));
            }
        }
        if let OutputTimes::Grid(ts) = output {
            if let Some(k) = ts.windows(2).position(|w| !(w[1] >= w[0])) {
                return Err(SolveError::Parameter(format!(
                    "output grid must be non-decreasing: t[{}] = {} < t[{k}] = {}",
                    k + 1,
                    ts[k + 1],
                    ts[k]
                )));
            }
            if let Some((k, t)) = ts
                .iter()
                .enumerate()
                .find(|(_, t)| !(**t >= t0 && **t <= t_end))
            {
                return Err(SolveError::Parameter(format!(
                    "output grid time t[{k}] = {t} must satisfy t0 = {t0} ≤ t ≤ t_end = {t_end}"
                )));
            }
        }
        if p.check_consistency {
            check_initial_consistency(problem, t0, y0, p.rtol, p.atol)?;
        }

        // Tolerance transformation (the estimate is that of the embedded order-3 method).
        let rtol_int = 0.1 * p.rtol.powf(p.tol_exponent);
        let q = rtol_int / p.rtol;
        let atol_int: Vec<f64> = match &p.atol_components {
            Some(a) => a.iter().map(|v| v * q).collect(),
            None => vec![p.atol * q; n],
        };
        let fnewt = p
            .newton_tol
            .unwrap_or_else(|| (10.0 * UROUND / rtol_int).max(0.03f64.min(rtol_int.sqrt())));
        let indices = problem.variable_indices();
        let h_power: Vec<i32> = indices.iter().map(|&k| (k as i32 - 1).max(0)).collect();
        let measured = measured_variables(&indices);

        // Breakpoints strictly inside (t0, t_end), sorted, without near-duplicates.
        let mut bps: Vec<f64> = problem
            .breakpoints()
            .into_iter()
            .filter(|b| b.is_finite() && *b > t0 && *b < t_end)
            .collect();
        bps.sort_by(|a, b| a.total_cmp(b));
        bps.dedup_by(|b, a| *b - *a <= 4.0 * f64::EPSILON * b.abs().max(a.abs()));
        while let Some(&last) = bps.last() {
            if t_end - last <= 4.0 * f64::EPSILON * t_end.abs().max(last.abs()) {
                bps.pop();
            } else {
                break;
            }
        }
        if let Some(&first) = bps.first() {
            if first - t0 <= 4.0 * f64::EPSILON * t0.abs().max(first.abs()) {
                bps.remove(0);
            }
        }
        let mut seg_ends = bps;
        seg_ends.push(t_end);

        let v = || vec![0.0; n];
        let mut wk = Work {
            y: y0.to_vec(),
            f0: v(),
            z: [v(), v(), v()],
            w: [v(), v(), v()],
            fz: [v(), v(), v()],
            mw: [v(), v(), v()],
            tmp: v(),
            tmp2: v(),
            cont: [v(), v(), v(), v()],
            base_scal: v(),
            scal: v(),
            atol: atol_int,
            rtol: rtol_int,
            h_power,
            has_multipliers: indices.iter().any(|&k| k >= 2),
            measured,
        };
        let mut stats = SolverStats::default();
        let M = problem.mass();
        let jac_const = problem.jacobian_is_constant();
        let J0 = problem.jacobian(t0, y0);
        if J0.nrows() != n || J0.ncols() != n {
            return Err(SolveError::Dimension(format!(
                "Jacobian is {}×{} but the problem has dimension {n}",
                J0.nrows(),
                J0.ncols()
            )));
        }
        stats.jacobian_evaluations += 1;
        let mut E = StageMatrices::new(M, &J0)?;
        drop(J0);

        let mut out = OutputState {
            grid_next: 0,
            dense: v(),
        };
        emit_output(output, &mut out, observer, t0, 1.0, &wk, true);

        let mut h = p.h0.unwrap_or(1e-6 * (t_end - t0)).min(p.h_max);
        let mut x = t0;
        let mut st = SegmentState {
            faccon: 1.0,
            theta: p.jacobian_reuse.abs(),
            jac_fresh: true,
        };
        let mut attempts = 0usize;
        let nseg = seg_ends.len();
        for (s, &seg_end) in seg_ends.iter().enumerate() {
            let stage_tmax = if s + 1 < nseg {
                float_below(seg_end)
            } else {
                seg_end
            };
            let spec = SegmentSpec {
                x0: x,
                x_end: seg_end,
                stage_tmax,
                h,
                fnewt,
                jac_const,
            };
            h = self.run_segment(
                problem,
                &mut wk,
                &mut E,
                &mut stats,
                &mut st,
                spec,
                &mut attempts,
                output,
                &mut out,
                observer,
            )?;
            x = seg_end;
        }
        Ok(Radau5Solution {
            t: t_end,
            y: wk.y,
            stats,
            h_next: h,
        })
    }

    /// Integrates one breakpoint-free segment; returns the proposed next step.
    #[allow(clippy::too_many_arguments)]
    fn run_segment<P, O>(
        &self,
        problem: &P,
        wk: &mut Work,
        E: &mut StageMatrices,
        stats: &mut SolverStats,
        st: &mut SegmentState,
        spec: SegmentSpec,
        attempts: &mut usize,
        output: OutputTimes<'_>,
        out: &mut OutputState,
        observer: &mut O,
    ) -> Result<f64, SolveError>
    where
        P: ImplicitDae + ?Sized,
        O: Observer + ?Sized,
    {
        let p = &self.params;
        let n = wk.y.len();
        let M = problem.mass();
        let nit = p.max_newton_iterations;
        let (quot1, quot2) = p.keep_step_band;
        let facl = 1.0 / p.min_step_ratio; // largest h_old / h_new
        let facr = 1.0 / p.max_step_ratio; // smallest h_old / h_new
        let cfac = p.safety * (1 + 2 * nit) as f64;
        let thet = p.jacobian_reuse;
        let SegmentSpec {
            x0,
            x_end,
            stage_tmax,
            fnewt,
            jac_const,
            ..
        } = spec;
        let hmaxn = p.h_max.min(x_end - x0);

        let mut x = x0;
        let mut h = spec.h.min(hmaxn);
        let mut last = false;
        if x + h * 1.0001 >= x_end {
            h = x_end - x;
            last = true;
        }
        let mut hopt = h;
        let mut first = true;
        let mut reject = false;
        let mut naccpt = 0usize;
        let (mut hacc, mut erracc) = (h, 1.0f64);
        let mut hold = h;
        let mut nsing = 0usize;
        let mut last_nonfinite: Option<usize> = None;
        let (mut dynold, mut thqold) = (0.0f64, 0.0f64);

        problem.rhs(x, &wk.y, &mut wk.f0);
        stats.rhs_evaluations += 1;
        if let Some(i) = wk.f0.iter().position(|v| !v.is_finite()) {
            return Err(SolveError::NonFinite { t: x, index: i });
        }
        update_base_scale(wk);

        // A segment after a breakpoint re-evaluates a state-dependent Jacobian.
        let mut caljac = st.jac_fresh || jac_const;
        let mut next = Next::refactor(caljac || jac_const);

        loop {
            if next == Next::Jacobian {
                // Linearized at the middle of the step, on the collocation polynomial of the
                // last step extrapolated to x + h/2 (at y_n on the first step): at a singular
                // configuration y_n may lie on it (dependent constraint rows, nearly singular
                // stage matrices whose Newton iteration stalls at round-off times their
                // condition number), the stages lie off it (HW II §IV.8 leaves the
                // linearization point free: any J gives a convergent simplified Newton). Only
                // with multipliers (index >= 2): ODEs and index-1 DAEs keep RADAU5's J(x_n, y_n)
                // and reproduce its step sequence (tests/radau5.rs, reproduces_fortran_radau5).
                let (tj, yj) = if first || !wk.has_multipliers {
                    (x, &wk.y)
                } else {
                    let cq = 0.5 * h / hold;
                    for i in 0..n {
                        let (ak1, ak2, ak3) = (wk.cont[1][i], wk.cont[2][i], wk.cont[3][i]);
                        wk.tmp2[i] = wk.y[i] + cq * (ak1 + (cq - C2M1) * (ak2 + (cq - C1M1) * ak3));
                    }
                    if wk.tmp2.iter().all(|v| v.is_finite()) {
                        ((x + 0.5 * h).min(stage_tmax), &wk.tmp2)
                    } else {
                        (x, &wk.y)
                    }
                };
                let J = problem.jacobian(tj, yj);
                stats.jacobian_evaluations += 1;
                E.set_jacobian(M, &J)?;
                caljac = true;
                next = Next::Factor;
            }
            if next == Next::Factor && E.factored_h != Some(h) {
                stats.factorizations += 1;
                if let Err(e) = E.factor(h) {
                    nsing += 1;
                    if nsing >= 5 {
                        return Err(singular_at(e, x, h));
                    }
                    h *= 0.5;
                    next = reject_attempt(&mut reject, &mut last, stats, caljac || jac_const);
                    continue;
                }
            }

            // ---- step attempt ----
            *attempts += 1;
            if *attempts > p.max_steps {
                return Err(SolveError::TooManySteps {
                    max_steps: p.max_steps,
                    t: x,
                });
            }
            if 0.1 * h <= x.abs() * UROUND || h < f64::MIN_POSITIVE {
                if let Some(i) = last_nonfinite {
                    return Err(SolveError::NonFinite { t: x, index: i });
                }
                return Err(SolveError::StepSizeUnderflow {
                    t: x,
                    h,
                    h_min: 10.0 * x.abs() * UROUND,
                });
            }
            for i in 0..n {
                wk.scal[i] = wk.base_scal[i] / h.powi(wk.h_power[i]);
            }
            let xph = if last { x_end } else { x + h };

            // Starting values: the collocation polynomial of the last step, or zero.
            if first {
                for k in 0..3 {
                    wk.z[k].iter_mut().for_each(|v| *v = 0.0);
                    wk.w[k].iter_mut().for_each(|v| *v = 0.0);
                }
            } else {
                let c3q = h / hold;
                let cq = [C1 * c3q, C2 * c3q, c3q];
                for i in 0..n {
                    let (ak1, ak2, ak3) = (wk.cont[1][i], wk.cont[2][i], wk.cont[3][i]);
                    let mut zi = [0.0; 3];
                    for k in 0..3 {
                        zi[k] = cq[k] * (ak1 + (cq[k] - C2M1) * (ak2 + (cq[k] - C1M1) * ak3));
                        wk.z[k][i] = zi[k];
                    }
                    for k in 0..3 {
                        wk.w[k][i] = TI[k][0] * zi[0] + TI[k][1] * zi[1] + TI[k][2] * zi[2];
                    }
                }
            }

            // ---- simplified Newton iteration ----
            st.faccon = st.faccon.max(UROUND).powf(0.8);
            st.theta = thet.abs();
            let stage_t = [
                (x + C1 * h).min(stage_tmax),
                (x + C2 * h).min(stage_tmax),
                xph.min(stage_tmax),
            ];
            let (fac1, alphn, betan) = (GAMMA_HAT / h, ALPHA_HAT / h, BETA_HAT / h);
            let mut newt = 0usize;
            let outcome: Result<(), NewtonFailure> = loop {
                if newt >= nit {
                    break Err(NewtonFailure::Diverged);
                }
                let mut bad = None;
                for k in 0..3 {
                    for i in 0..n {
                        wk.tmp[i] = wk.y[i] + wk.z[k][i];
                    }
                    problem.rhs(stage_t[k], &wk.tmp, &mut wk.fz[k]);
                    stats.rhs_evaluations += 1;
                    if let Some(i) = wk.fz[k].iter().position(|v| !v.is_finite()) {
                        bad = Some(i);
                        break;
                    }
                }
                if let Some(i) = bad {
                    break Err(NewtonFailure::NonFinite(i));
                }
                for k in 0..3 {
                    wk.mw[k].iter_mut().for_each(|v| *v = 0.0);
                    sparse::mul_add(&mut wk.mw[k], 1.0, M, &wk.w[k]);
                }
                // Residual r = TI·F(Z) − (Λ/h ⊗ M) W, written into z (z is rebuilt from w).
                for i in 0..n {
                    let (a1, a2, a3) = (wk.fz[0][i], wk.fz[1][i], wk.fz[2][i]);
                    let (m1, m2, m3) = (wk.mw[0][i], wk.mw[1][i], wk.mw[2][i]);
                    wk.z[0][i] = TI[0][0] * a1 + TI[0][1] * a2 + TI[0][2] * a3 - fac1 * m1;
                    wk.z[1][i] =
                        TI[1][0] * a1 + TI[1][1] * a2 + TI[1][2] * a3 - alphn * m2 + betan * m3;
                    wk.z[2][i] =
                        TI[2][0] * a1 + TI[2][1] * a2 + TI[2][2] * a3 - betan * m2 - alphn * m3;
                }
                let solved = {
                    let [z1, z2, z3] = &mut wk.z;
                    E.solve_real(z1).and_then(|_| E.solve_complex(z2, z3))
                };
                if let Err(e) = solved {
                    break Err(NewtonFailure::Singular(e));
                }
                stats.linear_solves += 1;
                stats.newton_iterations += 1;
                newt += 1;
                let dyno = ((0..3)
                    .map(|k| scaled_rms(&wk.z[k], &wk.scal, &wk.measured).powi(2))
                    .sum::<f64>()
                    / 3.0)
                    .sqrt();
                if !dyno.is_finite() {
                    break Err(NewtonFailure::Diverged);
                }
                if newt > 1 && newt < nit {
                    let thq = dyno / dynold;
                    st.theta = if newt == 2 {
                        thq
                    } else {
                        (thq * thqold).sqrt()
                    };
                    thqold = thq;
                    if st.theta < 0.99 {
                        st.faccon = st.theta / (1.0 - st.theta);
                        let dyth =
                            st.faccon * dyno * st.theta.powi((nit - 1 - newt) as i32) / fnewt;
                        if dyth >= 1.0 {
                            // The predicted error after the remaining iterations is too large.
                            let qnewt = dyth.clamp(1e-4, 20.0);
                            break Err(NewtonFailure::Shrink(
                                0.8 * qnewt.powf(-1.0 / (4.0 + (nit - 1 - newt) as f64)),
                            ));
                        }
                    } else {
                        break Err(NewtonFailure::Diverged);
                    }
                }
                dynold = dyno.max(UROUND);
                for i in 0..n {
                    let (w1, w2, w3) = (
                        wk.w[0][i] + wk.z[0][i],
                        wk.w[1][i] + wk.z[1][i],
                        wk.w[2][i] + wk.z[2][i],
                    );
                    wk.w[0][i] = w1;
                    wk.w[1][i] = w2;
                    wk.w[2][i] = w3;
                    wk.z[0][i] = T[0][0] * w1 + T[0][1] * w2 + T[0][2] * w3;
                    wk.z[1][i] = T[1][0] * w1 + T[1][1] * w2 + T[1][2] * w3;
                    wk.z[2][i] = T[2][0] * w1 + w2;
                }
                if st.faccon * dyno <= fnewt {
                    break Ok(());
                }
            };

            let err = match outcome {
                Ok(()) => self.estimate_error(problem, wk, E, stats, x, h, first || reject),
                Err(f) => Err(f),
            };
            let err = match err {
                Ok(e) => e,
                Err(failure) => {
                    // Unexpected rejection (RADAU5 label 78): retry with a smaller step.
                    let factor = match failure {
                        NewtonFailure::Singular(e) => {
                            nsing += 1;
                            if nsing >= 5 {
                                return Err(singular_at(e, x, h));
                            }
                            0.5
                        }
                        NewtonFailure::NonFinite(i) => {
                            last_nonfinite = Some(i);
                            0.5
                        }
                        NewtonFailure::Diverged => 0.5,
                        NewtonFailure::Shrink(f) => f,
                    };
                    h *= factor;
                    next = reject_attempt(&mut reject, &mut last, stats, caljac || jac_const);
                    continue;
                }
            };

            // ---- step-size proposal ----
            let fac = p.safety.min(cfac / (newt + 2 * nit) as f64);
            let mut quot = facr.max(facl.min(err.powf(0.25) / fac));
            let mut hnew = h / quot;
            if err < 1.0 {
                // Accepted.
                first = false;
                naccpt += 1;
                if p.predictive_controller {
                    if naccpt > 1 {
                        let facgus = ((hacc / h) * (err * err / erracc).powf(0.25) / p.safety)
                            .clamp(facr, facl);
                        quot = quot.max(facgus);
                        hnew = h / quot;
                    }
                    hacc = h;
                    erracc = err.max(1e-2);
                }
                hold = h;
                x = xph;
                for i in 0..n {
                    let (z1, z2, z3) = (wk.z[0][i], wk.z[1][i], wk.z[2][i]);
                    wk.y[i] += z3;
                    let c1 = (z2 - z3) / C2M1;
                    let ak = (z1 - z2) / C1MC2;
                    let acont3 = (ak - z1 / C1) / C2;
                    let c2 = (ak - c1) / C1M1;
                    wk.cont[0][i] = wk.y[i];
                    wk.cont[1][i] = c1;
                    wk.cont[2][i] = c2;
                    wk.cont[3][i] = c2 - acont3;
                }
                if let Some(i) = wk.y.iter().position(|v| !v.is_finite()) {
                    return Err(SolveError::NonFinite { t: x, index: i });
                }
                update_base_scale(wk);
                stats.steps += 1;
                nsing = 0;
                last_nonfinite = None;
                emit_output(output, out, observer, x, h, wk, false);
                caljac = false;
                st.jac_fresh = false;
                if last {
                    return Ok(hopt.max(hnew.min(p.h_max)));
                }
                problem.rhs(x, &wk.y, &mut wk.f0);
                stats.rhs_evaluations += 1;
                hnew = hnew.min(hmaxn);
                hopt = h.min(hnew);
                if reject {
                    hnew = hnew.min(h);
                }
                reject = false;
                let converged_fast = st.theta <= thet || jac_const;
                if x + hnew / quot1 >= x_end {
                    h = x_end - x;
                    last = true;
                } else {
                    let qt = hnew / h;
                    if converged_fast && qt >= quot1 && qt <= quot2 {
                        next = Next::Step;
                        continue;
                    }
                    h = hnew;
                }
                next = Next::refactor(converged_fast);
            } else {
                // Rejected by the error test.
                h = if first { 0.1 * h } else { hnew };
                next = reject_attempt(&mut reject, &mut last, stats, caljac || jac_const);
            }
        }
    }

    /// The filtered embedded error estimate (HW II §IV.8), scaled RMS norm.
    #[allow(clippy::too_many_arguments)]
    fn estimate_error<P: ImplicitDae + ?Sized>(
        &self,
        problem: &P,
        wk: &mut Work,
        E: &mut StageMatrices,
        stats: &mut SolverStats,
        x: f64,
        h: f64,
        refine: bool,
    ) -> Result<f64, NewtonFailure> {
        let n = wk.y.len();
        let M = problem.mass();
        let (h1, h2, h3) = (DD1 / h, DD2 / h, DD3 / h);
        for i in 0..n {
            wk.tmp2[i] = h1 * wk.z[0][i] + h2 * wk.z[1][i] + h3 * wk.z[2][i];
        }
        // mw[0] ← M·(Σ d_i z_i)/h; tmp ← f(t_n, y_n) + mw[0]; err = E1⁻¹ tmp.
        wk.mw[0].iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(&mut wk.mw[0], 1.0, M, &wk.tmp2);
        for i in 0..n {
            wk.tmp[i] = wk.mw[0][i] + wk.f0[i];
        }
        E.solve_real(&mut wk.tmp).map_err(NewtonFailure::Singular)?;
        let mut err = scaled_rms(&wk.tmp, &wk.scal, &wk.measured).max(1e-10);
        if err >= 1.0 && refine {
            // Second estimate with f(t_n, y_n + err) (better for stiff components).
            for i in 0..n {
                wk.tmp2[i] = wk.y[i] + wk.tmp[i];
            }
            problem.rhs(x, &wk.tmp2, &mut wk.fz[0]);
            stats.rhs_evaluations += 1;
            if let Some(i) = wk.fz[0].iter().position(|v| !v.is_finite()) {
                return Err(NewtonFailure::NonFinite(i));
            }
            for i in 0..n {
                wk.tmp[i] = wk.fz[0][i] + wk.mw[0][i];
            }
            E.solve_real(&mut wk.tmp).map_err(NewtonFailure::Singular)?;
            err = scaled_rms(&wk.tmp, &wk.scal, &wk.measured).max(1e-10);
        }
        if err.is_finite() {
            Ok(err)
        } else {
            Err(NewtonFailure::Diverged)
        }
    }
}

/// The error reported after five consecutive singular stage matrices.
fn singular_at(e: SolveError, x: f64, h: f64) -> SolveError {
    match e {
        SolveError::Singular { what, detail } => SolveError::Singular {
            what: format!("{what} at t = {x:.6e}, h = {h:.3e}"),
            detail,
        },
        other => other,
    }
}

/// $\sqrt{\frac1{|m|}\sum_{i\in m} (v_i/s_i)^2}$ over the measured variables $m$
/// ([`measured_variables`]).
fn scaled_rms(v: &[f64], s: &[f64], measured: &[bool]) -> f64 {
    let (mut sum, mut count) = (0.0, 0usize);
    for ((a, b), &m) in v.iter().zip(s).zip(measured) {
        if m {
            sum += (a / b) * (a / b);
            count += 1;
        }
    }
    (sum / count.max(1) as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inv3(m: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
        let [[a, b, c], [d, e, f], [g, h, i]] = m;
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
        [
            [
                (e * i - f * h) / det,
                (c * h - b * i) / det,
                (b * f - c * e) / det,
            ],
            [
                (f * g - d * i) / det,
                (a * i - c * g) / det,
                (c * d - a * f) / det,
            ],
            [
                (d * h - e * g) / det,
                (b * g - a * h) / det,
                (a * e - b * d) / det,
            ],
        ]
    }

    fn mul3(a: [[f64; 3]; 3], b: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
        let mut c = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                c[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
            }
        }
        c
    }

    /// $T^{-1}T = I$ and $T^{-1}A^{-1}T = \Lambda$ to roundoff (1e-13 ≈ 100 ε times the
    /// entry size ≈ 4 of $A^{-1}$).
    #[test]
    fn transformation_diagonalizes_inverse_butcher_matrix() {
        let id = mul3(TI, T);
        for i in 0..3 {
            for j in 0..3 {
                assert!(
                    (id[i][j] - if i == j { 1.0 } else { 0.0 }).abs() < 1e-14,
                    "TI·T[{i}][{j}] = {}",
                    id[i][j]
                );
            }
        }
        let lam = mul3(TI, mul3(inv3(a_matrix()), T));
        let expect = [
            [GAMMA_HAT, 0.0, 0.0],
            [0.0, ALPHA_HAT, -BETA_HAT],
            [0.0, BETA_HAT, ALPHA_HAT],
        ];
        for i in 0..3 {
            for j in 0..3 {
                assert!(
                    (lam[i][j] - expect[i][j]).abs() < 1e-13,
                    "Λ[{i}][{j}] = {} vs {}",
                    lam[i][j],
                    expect[i][j]
                );
            }
        }
        // γ̂ = 30/(6 + 81^{1/3} − 9^{1/3}) from the closed form of the real eigenvalue.
        let g = 30.0 / (6.0 + 81f64.cbrt() - 9f64.cbrt());
        assert!((g - GAMMA_HAT).abs() < 1e-14);
        // Nodes are the row sums of A (collocation), c3 = 1.
        let a = a_matrix();
        for (i, c) in [C1, C2, 1.0].iter().enumerate() {
            assert!((a[i].iter().sum::<f64>() - c).abs() < 1e-15);
        }
    }

    #[test]
    fn params_validation_states_inequality() {
        assert!(Radau5Params::default().validate().is_ok());
        // (one invalid setting, a piece of the expected message)
        type Setting = fn(&mut Radau5Params);
        let bad: [(Setting, &str); 9] = [
            (|p| p.rtol = 0.0, "0 < rtol"),
            (|p| p.atol = -1.0, "0 ≤ atol"),
            (|p| p.safety = 0.05, "0.1 < safety ≤ 1"),
            (|p| p.safety = 1.5, "0.1 < safety ≤ 1"),
            (|p| p.h0 = Some(0.0), "0 < h0"),
            (|p| p.h_max = 0.0, "h_max > 0"),
            (|p| p.max_steps = 0, "max_steps ≥ 1"),
            (|p| p.keep_step_band = (1.1, 1.2), "lo ≤ 1"),
            (
                |p| p.atol_components = Some(vec![1.0, -2.0]),
                "atol_components[1]",
            ),
        ];
        for (set, key) in bad {
            let mut p = Radau5Params::default();
            set(&mut p);
            let e = p.validate().unwrap_err().to_string();
            assert!(e.contains(key), "message '{e}' should contain '{key}'");
            assert!(Radau5::new(p.clone()).is_err());
        }
    }

    #[test]
    fn float_below_is_the_previous_float() {
        for b in [1.0, 0.5, 1e-300, -2.0, 123.456] {
            let a = float_below(b);
            assert!(a < b);
            assert!((a + b) / 2.0 == a || (a + b) / 2.0 == b);
        }
        assert!(float_below(0.0) < 0.0);
    }
}
