//! Eigenfrequencies and modes of linear pH(DAE) pencils (thesis 004 §3.4 "practical check",
//! App. C; §3.5 eigen-solvers).
//!
//! The modes of $E\dot e = (J - R)e$ are the finite eigenpairs of the pencil
//! $$E\,\Phi\,\Lambda = (J - R)\,\Phi .$$
//! For $R = 0$ the finite eigenvalues are purely imaginary, $\lambda = \pm i\omega$; with
//! dissipation $\lambda = -\zeta\omega_n \pm i\omega_n\sqrt{1-\zeta^2}$. A [`Mode`] is
//! reported for each eigenvalue with $\operatorname{Im}\lambda > 0$ that is a genuine
//! oscillation: $\operatorname{Im}\lambda > \texttt{im\_tol}\,|\lambda|$ (the thesis keeps
//! $\operatorname{Im}\lambda > 10^{-5}$; here relative, so units do not matter) and
//! $\operatorname{Im}\lambda > \texttt{zero\_tol}\,\rho$ with $\rho$ the largest finite
//! $|\lambda|$ computed (rejects the round-off images of the zero eigenvalues of rigid-body
//! or static modes). Infinite eigenvalues (from a singular $E$: Lagrange multipliers) are
//! never reported. Modes are sorted by increasing $\omega = \operatorname{Im}\lambda$.
//!
//! # Dense path ([`EigenMethod::Dense`], $n \le$ `dense_limit`)
//! 1. Symmetric diagonal scaling $D = \mathrm{diag}(E_{ii}^{-1/2})$ on the differential
//!    variables (eigenvalues unchanged, a better balanced problem).
//! 2. Variables with a zero row and column in $E$ are algebraic. If their block
//!    $A_{\lambda\lambda}$ of $A = J - R$ vanishes (multipliers of index-2 constraints
//!    $0 = G e_d$, $G = A_{\lambda d}$, forces $A_{d\lambda}\lambda$), the infinite eigenvalues
//!    are removed **exactly** by a null-space reduction: with $Z$ a basis of $\ker G$ and $W$
//!    of $\ker A_{d\lambda}^\top$ (both from SVDs, so redundant constraints are fine),
//!    $$\lambda\, W^\top E_{dd} Z\, q = W^\top A_{dd} Z\, q,\qquad e_d = Zq,$$
//!    and the multipliers of a mode follow from $A_{d\lambda}\ell = (\lambda E_{dd} - A_{dd})e_d$
//!    (pseudo-inverse). For pH systems $A_{d\lambda} = -G^\top$ and $W = Z$. Otherwise
//!    (index-1 algebraic parts) the full pencil is kept.
//! 3. If the (reduced) $E$ is symmetric positive definite: Cholesky $E = LL^\top$ and the
//!    standard eigenproblem of $L^{-1}AL^{-\top}$. Otherwise: the standard eigenproblem of
//!    $M = (A - \sigma E)^{-1}E$ ($\sigma = 10^{-4}\|A_s\|_{\max}$), $\lambda = \sigma + 1/\mu$,
//!    eigenvalues with $|\mu| \le 10^{-8}\max|\mu|$ being infinite. (faer 0.24's QZ was not
//!    used: beyond $n \approx 80$ it took seconds to minutes on chain pencils, returned wrong
//!    eigenvalues without eigenvectors, and panicked with an arithmetic overflow for n = 600.)
//!
//! # Sparse path ([`EigenMethod::ShiftInvert`], the `n_modes` lowest frequencies)
//! Arnoldi on $\mathrm{Op} = (A - \sigma E)^{-1}E$ with a real shift $\sigma > 0$, full
//! re-orthogonalization (classical Gram–Schmidt, twice) and a Krylov space grown until the
//! wanted Ritz pairs converge. Eigenvalues map as $\mu = 1/(\lambda - \sigma)$; for
//! $\lambda = i\omega$, $|\mu| = (\sigma^2 + \omega^2)^{-1/2}$ decreases with $\omega$ for
//! *any* real $\sigma$, so the dominant Ritz values are the lowest frequencies; $\sigma > 0$
//! is never an eigenvalue of a pH pencil ($\operatorname{Re}\lambda \le 0$). Infinite
//! eigenvalues map to $\mu = 0$ and are never dominant; the start vector is purified by two
//! applications of Op. A Ritz pair is converged when
//! $|h_{m+1,m}\,s_m| \le \texttt{tol}\,|\mu|$, and the Ritz values are accepted in order of
//! decreasing $|\mu|$ only while all of them are converged, so no lower mode is skipped.
use faer::linalg::solvers::Solve;
use faer::linalg::triangular_solve::{
    solve_lower_triangular_in_place, solve_upper_triangular_in_place,
};
use faer::{c64, Mat, Par, Side};

use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::LinearPhSystem;

use crate::linsolve::{ruiz_scaling, PatternSum, SparseLu};
use crate::SolveError;

/// Which algorithm computes the eigenvalues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EigenMethod {
    /// Dense for `n <= dense_limit`, shift-and-invert Arnoldi otherwise.
    #[default]
    Auto,
    /// Dense eigen-solve of the (reduced) pencil: all modes.
    Dense,
    /// Sparse shift-and-invert Arnoldi: the `n_modes` lowest frequencies.
    ShiftInvert,
}

/// Parameters of the modal analysis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EigenParams {
    /// Number of lowest frequencies wanted (`None`: all, dense path only).
    pub n_modes: Option<usize>,
    /// Algorithm.
    pub method: EigenMethod,
    /// Largest `n` for which [`EigenMethod::Auto`] uses the dense path.
    pub dense_limit: usize,
    /// A mode needs $\operatorname{Im}\lambda > \texttt{im\_tol}\,|\lambda|$, `0 <= im_tol < 1`.
    pub im_tol: f64,
    /// A mode needs $\operatorname{Im}\lambda > \texttt{zero\_tol}\,\rho$, `0 <= zero_tol < 1`.
    pub zero_tol: f64,
    /// Compute mode shapes (normalized to $\phi^H E \phi = 1$).
    pub mode_shapes: bool,
    /// Shift $\sigma > 0$ [rad/s] of the sparse path; `None`: $10^{-4}$ times the largest
    /// scaled entry $|A_{ij}|/\sqrt{E_{ii}E_{jj}}$ (an upper frequency scale).
    pub shift: Option<f64>,
    /// Relative residual tolerance of the Ritz pairs, `0 < tol < 1`.
    pub tol: f64,
    /// Largest Krylov dimension of the sparse path; `None`: $\min(n, 8k + 40)$.
    pub max_krylov: Option<usize>,
}

impl Default for EigenParams {
    /// All modes, automatic method (dense up to n = 2000), `im_tol = 1e-5`,
    /// `zero_tol = 1e-10`, no shapes, `tol = 1e-10`.
    fn default() -> Self {
        Self {
            n_modes: None,
            method: EigenMethod::Auto,
            dense_limit: 2000,
            im_tol: 1e-5,
            zero_tol: 1e-10,
            mode_shapes: false,
            shift: None,
            tol: 1e-10,
            max_krylov: None,
        }
    }
}

impl EigenParams {
    /// Checks every parameter; the message states the inequality that failed.
    pub fn validate(&self) -> Result<(), SolveError> {
        let bad = |m: String| Err(SolveError::Parameter(m));
        if self.n_modes == Some(0) {
            return bad("n_modes must satisfy n_modes >= 1, got 0".into());
        }
        if !(self.im_tol >= 0.0 && self.im_tol < 1.0) {
            return bad(format!(
                "im_tol must satisfy 0 <= im_tol < 1, got {}",
                self.im_tol
            ));
        }
        if !(self.zero_tol >= 0.0 && self.zero_tol < 1.0) {
            return bad(format!(
                "zero_tol must satisfy 0 <= zero_tol < 1, got {}",
                self.zero_tol
            ));
        }
        if !(self.tol > 0.0 && self.tol < 1.0) {
            return bad(format!("tol must satisfy 0 < tol < 1, got {}", self.tol));
        }
        if let Some(s) = self.shift {
            if !(s > 0.0 && s.is_finite()) {
                return bad(format!(
                    "shift must satisfy 0 < shift < inf (pH eigenvalues have Re <= 0, so a positive shift is never one), got {s}"
                ));
            }
        }
        if let Some(m) = self.max_krylov {
            if m < 2 {
                return bad(format!("max_krylov must satisfy max_krylov >= 2, got {m}"));
            }
        }
        if self.method == EigenMethod::ShiftInvert && self.n_modes.is_none() {
            return bad("the shift-invert method computes the n_modes lowest frequencies: n_modes must be set (n_modes >= 1)".into());
        }
        Ok(())
    }
}

/// One oscillation mode $\lambda = -\zeta\omega_n + i\omega$.
#[derive(Debug, Clone, PartialEq)]
pub struct Mode {
    /// The eigenvalue $\lambda$ (with $\operatorname{Im}\lambda > 0$).
    pub lambda: c64,
    /// Damped angular frequency $\omega = \operatorname{Im}\lambda$ [rad/s].
    pub omega: f64,
    /// Natural angular frequency $\omega_n = |\lambda|$ [rad/s].
    pub omega_natural: f64,
    /// Damping ratio $\zeta = -\operatorname{Re}\lambda / |\lambda|$ (0 for lossless systems).
    pub damping_ratio: f64,
    /// Mode shape $\phi$ (all state variables, multipliers included), normalized to
    /// $\phi^H E\phi = 1$ with its largest component real and positive.
    pub shape: Option<Vec<c64>>,
}

impl Mode {
    fn new(lambda: c64, shape: Option<Vec<c64>>) -> Self {
        let wn = lambda.norm();
        Self {
            lambda,
            omega: lambda.im,
            omega_natural: wn,
            damping_ratio: if wn > 0.0 { -lambda.re / wn } else { 0.0 },
            shape,
        }
    }
}

/// Result of a modal analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct EigenResult {
    /// Modes sorted by increasing $\omega$.
    pub modes: Vec<Mode>,
    /// The method actually used ([`EigenMethod::Dense`] or [`EigenMethod::ShiftInvert`]).
    pub method: EigenMethod,
    /// Shift used by the sparse path.
    pub shift: Option<f64>,
    /// Final Krylov dimension of the sparse path (0 for the dense path).
    pub krylov_dim: usize,
    /// Solves with $(A - \sigma E)$ of the sparse path.
    pub linear_solves: usize,
}

impl EigenResult {
    /// Angular frequencies $\omega$ [rad/s].
    pub fn frequencies(&self) -> Vec<f64> {
        self.modes.iter().map(|m| m.omega).collect()
    }
    /// Frequencies $\omega / 2\pi$ \[Hz\].
    pub fn frequencies_hz(&self) -> Vec<f64> {
        self.modes
            .iter()
            .map(|m| m.omega / (2.0 * std::f64::consts::PI))
            .collect()
    }
}

/// Modes of a linear pH system: the pencil $(E, J - R)$.
pub fn modes(sys: &LinearPhSystem, params: &EigenParams) -> Result<EigenResult, SolveError> {
    pencil_modes(&sys.E, &sys.j_minus_r(), params)
}

/// Modes of the pencil $E\Phi\Lambda = A\Phi$ (typically $A = J - R$).
pub fn pencil_modes(
    E: &SparseMat,
    A: &SparseMat,
    params: &EigenParams,
) -> Result<EigenResult, SolveError> {
    params.validate()?;
    let n = E.nrows();
    if E.ncols() != n || A.nrows() != n || A.ncols() != n {
        return Err(SolveError::Dimension(format!(
            "eigen: E is {}x{}, A is {}x{}; both must be n x n",
            E.nrows(),
            E.ncols(),
            A.nrows(),
            A.ncols()
        )));
    }
    let method = match params.method {
        EigenMethod::Auto if n <= params.dense_limit => EigenMethod::Dense,
        EigenMethod::Auto => EigenMethod::ShiftInvert,
        m => m,
    };
    if method == EigenMethod::ShiftInvert && params.n_modes.is_none() {
        return Err(SolveError::Parameter(format!(
            "n = {n} > dense_limit = {}: the shift-invert method needs n_modes (n_modes >= 1), or raise dense_limit",
            params.dense_limit
        )));
    }
    match method {
        EigenMethod::Dense => {
            let mut modes = dense_modes(E, A, params)?;
            if let Some(k) = params.n_modes {
                modes.truncate(k);
            }
            Ok(EigenResult {
                modes,
                method,
                shift: None,
                krylov_dim: 0,
                linear_solves: 0,
            })
        }
        _ => shift_invert(E, A, params),
    }
}

/// True for variables whose row and column of `E` hold no non-zero value.
fn algebraic_variables(E: &SparseMat) -> Vec<bool> {
    let n = E.nrows();
    let mut alg = vec![true; n];
    for j in 0..n {
        for (i, v) in sparse::col_iter(E, j) {
            if v != 0.0 {
                alg[i] = false;
                alg[j] = false;
            }
        }
    }
    alg
}

/// Jacobi scaling factors $E_{ii}^{-1/2}$ (1 where $E_{ii} \le 0$).
/// The factors $d_i$ of [`ShiftInvertOp`]: $E_{ii}^{-1/2}$ on the differential rows, and
/// $10^8\max_j d_j$ on the algebraic rows ($E_{ii} = 0$, multipliers). Op ignores the
/// algebraic components of its argument ($E$ annihilates them), so shrinking them in the
/// Arnoldi basis turns the Euclidean inner product into (nearly) the $E$ semi-inner product
/// in which Op is normal; they are recovered exactly when a mode shape is mapped back.
/// (With the multipliers left unscaled, the Ritz values of a weakly clamped plate were
/// 3e-4 off while their residual estimates were below 1e-6.)
fn arnoldi_scaling(E: &SparseMat) -> Vec<f64> {
    let d = inverse_sqrt_diagonal(E, 0.0);
    let big = 1e8 * d.iter().fold(0.0f64, |a, b| a.max(*b));
    let big = if big > 0.0 { big } else { 1.0 };
    d.iter().map(|&v| if v > 0.0 { v } else { big }).collect()
}

/// Symmetric Jacobi scaling $E_{ii}^{-1/2}$ (1 on the rows with $E_{ii} = 0$).
fn jacobi_scaling(E: &SparseMat) -> Vec<f64> {
    inverse_sqrt_diagonal(E, 1.0)
}

/// $d_i = E_{ii}^{-1/2}$ where $E_{ii} > 0$, and `otherwise` on the other rows.
fn inverse_sqrt_diagonal(E: &SparseMat, otherwise: f64) -> Vec<f64> {
    let n = E.nrows();
    let mut d = vec![otherwise; n];
    for j in 0..n {
        for (i, v) in sparse::col_iter(E, j) {
            if i == j && v > 0.0 {
                d[j] = 1.0 / v.sqrt();
            }
        }
    }
    d
}

fn max_abs_dense(m: &Mat<f64>) -> f64 {
    let mut s = 0.0f64;
    for j in 0..m.ncols() {
        for i in 0..m.nrows() {
            s = s.max(m[(i, j)].abs());
        }
    }
    s
}

fn sub_matrix(m: &Mat<f64>, rows: &[usize], cols: &[usize]) -> Mat<f64> {
    Mat::from_fn(rows.len(), cols.len(), |i, j| m[(rows[i], cols[j])])
}

/// Orthonormal basis of $\ker M$ (columns), from a full SVD.
fn null_space(m: &Mat<f64>) -> Result<Mat<f64>, SolveError> {
    let q = m.ncols();
    if m.nrows() == 0 {
        return Ok(Mat::identity(q, q));
    }
    let svd = m
        .svd()
        .map_err(|e| SolveError::Eigen(format!("SVD of the constraint matrix: {e:?}")))?;
    let s = svd.S().column_vector();
    let smax = (0..s.nrows()).fold(0.0f64, |a, i| a.max(s[i].abs()));
    let tol = 1e-10 * smax;
    let cols: Vec<usize> = (0..q)
        .filter(|&j| j >= s.nrows() || s[j].abs() <= tol)
        .collect();
    let V = svd.V();
    Ok(Mat::from_fn(q, cols.len(), |i, j| V[(i, cols[j])]))
}

/// Normalizes $\phi^H E \phi = 1$ and rotates the largest component to the positive real axis.
fn normalize_shape(phi: &mut [c64], E: &SparseMat) {
    let mut s = 0.0;
    for j in 0..E.ncols() {
        for (i, v) in sparse::col_iter(E, j) {
            s += (phi[i].conj() * phi[j]).re * v;
        }
    }
    let big = phi.iter().copied().fold(
        c64::new(0.0, 0.0),
        |m, z| if z.norm() > m.norm() { z } else { m },
    );
    let mut rot = if big.norm() > 0.0 {
        big.conj() / big.norm()
    } else {
        c64::new(1.0, 0.0)
    };
    if s > 0.0 {
        rot *= 1.0 / s.sqrt();
    }
    for z in phi.iter_mut() {
        *z *= rot;
    }
}

/// Keeps oscillation modes among finite eigenvalues; `rho` is the largest finite |λ|.
fn is_oscillation(l: c64, rho: f64, p: &EigenParams) -> bool {
    l.im > p.im_tol * l.norm() && l.im > p.zero_tol * rho && l.im.is_finite()
}

/// An eigenvalue with its (optional) eigenvector.
type EigenPair = (c64, Option<Vec<c64>>);

/// Eigenpairs $A_r q = \lambda E_r q$ of a pencil that should be regular.
///
/// If $E_r$ is symmetric positive definite (the usual case after removing multipliers), it
/// is reduced to the standard problem $L^{-1}A_rL^{-\top} y = \lambda y$ with
/// $E_r = LL^\top$, $q = L^{-\top}y$ (faer's dense nonsymmetric eigen-solver). Otherwise the
/// dense shift-and-invert matrix $(A_r - \sigma E_r)^{-1}E_r$ is used (see the module docs).
fn regular_pencil(Ar: &Mat<f64>, Er: &Mat<f64>, want: bool) -> Result<Vec<EigenPair>, SolveError> {
    let r = Ar.nrows();
    let a_scale = max_abs_dense(Ar).max(f64::MIN_POSITIVE);
    let e_scale = max_abs_dense(Er);
    let sym = (0..r).all(|i| (0..i).all(|j| (Er[(i, j)] - Er[(j, i)]).abs() <= 1e-12 * e_scale));
    let llt = if sym && r > 0 {
        Er.llt(Side::Lower).ok()
    } else {
        None
    };
    let mut out = Vec::with_capacity(r);
    if let Some(llt) = llt {
        let L = llt.L();
        let par = Par::Seq;
        // K = L⁻¹ A L⁻ᵀ by two triangular solves.
        let mut X = Ar.clone();
        solve_lower_triangular_in_place(L, X.as_mut(), par);
        let mut Kt = X.transpose().to_owned();
        solve_lower_triangular_in_place(L, Kt.as_mut(), par);
        let K = Kt.transpose().to_owned();
        if want {
            let eig = K
                .eigen()
                .map_err(|e| SolveError::Eigen(format!("eigen-solver: {e:?}")))?;
            let (S, U) = (eig.S().column_vector(), eig.U());
            let mut Y = Mat::<f64>::zeros(r, 2);
            for k in 0..r {
                for i in 0..r {
                    Y[(i, 0)] = U[(i, k)].re;
                    Y[(i, 1)] = U[(i, k)].im;
                }
                solve_upper_triangular_in_place(L.transpose(), Y.as_mut(), par);
                let q: Vec<c64> = (0..r).map(|i| c64::new(Y[(i, 0)], Y[(i, 1)])).collect();
                out.push((S[k], Some(q)));
            }
        } else {
            let vals = K
                .eigenvalues()
                .map_err(|e| SolveError::Eigen(format!("eigen-solver: {e:?}")))?;
            out.extend(vals.into_iter().map(|l| (l, None)));
        }
        out.retain(|(l, _)| l.re.is_finite() && l.im.is_finite());
    } else {
        // Dense shift-and-invert: M = (A − σE)⁻¹E has eigenvalues μ = 1/(λ − σ), infinite
        // eigenvalues map to μ ≈ 0. σ > 0 is never an eigenvalue of a pH pencil.
        let sigma = 1e-4 * a_scale;
        let S = Mat::from_fn(r, r, |i, j| Ar[(i, j)] - sigma * Er[(i, j)]);
        let M = S.partial_piv_lu().solve(Er);
        if (0..r).any(|j| (0..r).any(|i| !M[(i, j)].is_finite())) {
            return Err(SolveError::Singular {
                what: "A - sigma E (dense eigen-solver)".into(),
                detail: "the pencil is singular (redundant constraints or a floating part without dynamics?)".into(),
            });
        }
        let (vals, vecs) = if want {
            let eig = M
                .eigen()
                .map_err(|e| SolveError::Eigen(format!("eigen-solver: {e:?}")))?;
            let vals: Vec<c64> = (0..r).map(|k| eig.S().column_vector()[k]).collect();
            (vals, Some(eig.U().to_owned()))
        } else {
            (
                M.eigenvalues()
                    .map_err(|e| SolveError::Eigen(format!("eigen-solver: {e:?}")))?,
                None,
            )
        };
        let mu_max = vals.iter().fold(0.0f64, |m, v| m.max(v.norm()));
        for (k, mu) in vals.iter().enumerate() {
            if mu.norm() <= 1e-8 * mu_max {
                continue; // infinite eigenvalue
            }
            let lam = c64::new(sigma, 0.0) + c64::new(1.0, 0.0) / *mu;
            let vec = vecs.as_ref().map(|U| (0..r).map(|i| U[(i, k)]).collect());
            out.push((lam, vec));
        }
    }
    Ok(out)
}

fn dense_modes(E: &SparseMat, A: &SparseMat, p: &EigenParams) -> Result<Vec<Mode>, SolveError> {
    let n = E.nrows();
    let alg = algebraic_variables(E);
    let d = jacobi_scaling(E);
    let (Ed, Ad) = (sparse::to_dense(E), sparse::to_dense(A));
    let Es = Mat::from_fn(n, n, |i, j| d[i] * d[j] * Ed[(i, j)]);
    let As = Mat::from_fn(n, n, |i, j| d[i] * d[j] * Ad[(i, j)]);
    let a_scale = max_abs_dense(&As).max(f64::MIN_POSITIVE);
    let dif: Vec<usize> = (0..n).filter(|&i| !alg[i]).collect();
    let al: Vec<usize> = (0..n).filter(|&i| alg[i]).collect();
    let want = p.mode_shapes;
    // (eigenvalue, scaled full-space vector)
    let mut found: Vec<EigenPair> = Vec::new();
    let index2 = !al.is_empty() && max_abs_dense(&sub_matrix(&As, &al, &al)) <= 1e-14 * a_scale;
    if index2 {
        let G = sub_matrix(&As, &al, &dif);
        let Gt = sub_matrix(&As, &dif, &al);
        let Z = null_space(&G)?;
        // For pH systems A_dλ = −A_λdᵀ (skew J, no dissipation on multipliers): then
        // ker A_dλᵀ = ker G and W = Z keeps the reduced E symmetric positive definite.
        let g_scale = max_abs_dense(&G);
        let transposed = (0..al.len())
            .all(|a| (0..dif.len()).all(|i| (Gt[(i, a)] + G[(a, i)]).abs() <= 1e-12 * g_scale))
            || (0..al.len())
                .all(|a| (0..dif.len()).all(|i| (Gt[(i, a)] - G[(a, i)]).abs() <= 1e-12 * g_scale));
        let W = if transposed {
            Z.clone()
        } else {
            null_space(&Gt.transpose().to_owned())?
        };
        if Z.ncols() != W.ncols() {
            return Err(SolveError::Eigen(format!(
                "constraint rows (rank {}) and constraint forces (rank {}) differ in rank: the pencil is singular",
                dif.len() - Z.ncols(),
                dif.len() - W.ncols()
            )));
        }
        let Edd = sub_matrix(&Es, &dif, &dif);
        let Add = sub_matrix(&As, &dif, &dif);
        let Er = W.transpose() * &Edd * &Z;
        let Ar = W.transpose() * &Add * &Z;
        let pairs = regular_pencil(&Ar, &Er, want)?;
        let pinv = if want {
            Some(
                Gt.svd()
                    .map_err(|e| SolveError::Eigen(format!("{e:?}")))?
                    .pseudoinverse(),
            )
        } else {
            None
        };
        let (r, nd) = (Z.ncols(), dif.len());
        for (lam, q) in pairs {
            let vec = q.map(|q| {
                // e_d = Z q
                let ed: Vec<c64> = (0..nd)
                    .map(|i| (0..r).fold(c64::new(0.0, 0.0), |s, c| s + q[c] * Z[(i, c)]))
                    .collect();
                // Multipliers: A_dλ ℓ = (λ E_dd − A_dd) e_d, ℓ = pinv(A_dλ) rhs.
                let rhs: Vec<c64> = (0..nd)
                    .map(|i| {
                        (0..nd).fold(c64::new(0.0, 0.0), |s, j| {
                            s + ed[j] * (lam * Edd[(i, j)] - Add[(i, j)])
                        })
                    })
                    .collect();
                let P = pinv.as_ref().expect("computed when shapes are wanted");
                let mut x = vec![c64::new(0.0, 0.0); n];
                for (ii, &i) in dif.iter().enumerate() {
                    x[i] = ed[ii];
                }
                for (aa, &a) in al.iter().enumerate() {
                    x[a] = (0..nd).fold(c64::new(0.0, 0.0), |s, j| s + rhs[j] * P[(aa, j)]);
                }
                x
            });
            found.push((lam, vec));
        }
    } else {
        found = regular_pencil(&As, &Es, want)?;
    }
    let rho = found.iter().fold(0.0f64, |m, (l, _)| m.max(l.norm()));
    let mut modes: Vec<Mode> = found
        .into_iter()
        .filter(|(l, _)| is_oscillation(*l, rho, p))
        .map(|(l, v)| {
            let shape = v.map(|mut x| {
                for (xi, di) in x.iter_mut().zip(&d) {
                    *xi *= *di;
                }
                normalize_shape(&mut x, E);
                x
            });
            Mode::new(l, shape)
        })
        .collect();
    modes.sort_by(|a, b| a.omega.total_cmp(&b.omega));
    Ok(modes)
}

/// Deterministic pseudo-random vector in [-1, 1] (splitmix-style hash of the index).
fn start_vector(n: usize, seed: u64) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let mut z = (i as u64)
                .wrapping_add(seed)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        })
        .collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

struct ShiftInvertOp {
    E: SparseMat,
    /// The equilibrated $S = D_r (A - \sigma E) D_c$ (for the residuals of refinement).
    S: SparseMat,
    /// LU of $S$.
    lu: SparseLu<f64>,
    dr: Vec<f64>,
    dc: Vec<f64>,
    /// Work vectors of the refinement (right-hand side, residual).
    b: Vec<f64>,
    r: Vec<f64>,
    /// Jacobi factors $d_i = E_{ii}^{-1/2}$ ([`arnoldi_scaling`]): Arnoldi runs on $D^{-1}\,\mathrm{Op}\,D$, which is
    /// nearly normal (Op is normal in the $E$ inner product), so that its Ritz values are
    /// well conditioned even when the blocks of $E$ differ by many orders of magnitude
    /// (densities ~1e3 next to compliances ~1e-12 in elasticity).
    d: Vec<f64>,
    /// Work vector in physical coordinates.
    xs: Vec<f64>,
}

impl ShiftInvertOp {
    /// `y = (A − σE)⁻¹ E x = D_c S⁻¹ D_r E x`, with up to three steps of iterative
    /// refinement $z \leftarrow z + S^{-1}(b - Sz)$ while the residual decreases. The
    /// saddle-point pencils of mixed FEM (elasticity, plates: large kernels of $J$) make the
    /// pivoted sparse LU lose several digits; without refinement the Ritz values of a
    /// 2D elastic bar came out with spurious growth rates ($\zeta = -0.3$) and the plates'
    /// higher modes at 1e-5.
    fn apply(&mut self, x: &[f64], y: &mut [f64]) -> Result<(), SolveError> {
        for ((xs, xi), di) in self.xs.iter_mut().zip(x).zip(&self.d) {
            *xs = xi * di;
        }
        self.b.iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(&mut self.b, 1.0, &self.E, &self.xs);
        for (v, d) in self.b.iter_mut().zip(&self.dr) {
            *v *= d;
        }
        y.copy_from_slice(&self.b);
        self.lu.solve_in_place(y)?;
        let bnorm = norm(&self.b);
        let mut last = f64::INFINITY;
        for _ in 0..3 {
            self.r.copy_from_slice(&self.b);
            sparse::mul_add(&mut self.r, -1.0, &self.S, y);
            let rn = norm(&self.r);
            if !(rn > 1e-15 * bnorm) || rn >= 0.5 * last {
                break;
            }
            last = rn;
            self.lu.solve_in_place(&mut self.r)?;
            for (a, b) in y.iter_mut().zip(&self.r) {
                *a += b;
            }
        }
        for ((v, d), j) in y.iter_mut().zip(&self.dc).zip(&self.d) {
            *v *= d / j;
        }
        Ok(())
    }
}

/// $D_r S D_c$.
fn scale_matrix(S: &SparseMat, dr: &[f64], dc: &[f64]) -> SparseMat {
    let mut t = Triplets::new(S.nrows(), S.ncols());
    for j in 0..S.ncols() {
        for (i, v) in sparse::col_iter(S, j) {
            t.push(i, j, v * dr[i] * dc[j]);
        }
    }
    t.build()
}

/// Orthogonalizes `w` against the first `m` columns of `V` (classical Gram–Schmidt, twice);
/// adds the coefficients to `h` (length ≥ m).
fn orthogonalize(V: &[f64], n: usize, m: usize, w: &mut [f64], h: &mut [f64]) {
    for _ in 0..2 {
        for i in 0..m {
            let vi = &V[i * n..(i + 1) * n];
            let c = dot(vi, w);
            h[i] += c;
            for (wk, vk) in w.iter_mut().zip(vi) {
                *wk -= c * vk;
            }
        }
    }
}

fn shift_invert(E: &SparseMat, A: &SparseMat, p: &EigenParams) -> Result<EigenResult, SolveError> {
    let n = E.nrows();
    let k = p.n_modes.expect("checked by the caller");
    // Automatic shift: 1e-4 × the largest Jacobi-scaled entry of A (a frequency scale).
    let sigma = match p.shift {
        Some(s) => s,
        None => {
            let d = jacobi_scaling(E);
            let mut s = 0.0f64;
            for j in 0..n {
                for (i, v) in sparse::col_iter(A, j) {
                    s = s.max((v * d[i] * d[j]).abs());
                }
            }
            if s == 0.0 {
                return Err(SolveError::Eigen(
                    "J - R is zero: no oscillation modes".into(),
                ));
            }
            1e-4 * s
        }
    };
    let ps = PatternSum::new(&[E, A])?;
    let S = ps.assemble(&[-sigma, 1.0], &[E, A])?;
    let (dr, dc) = ruiz_scaling(&S);
    let S = scale_matrix(&S, &dr, &dc);
    let lu = SparseLu::from_matrix(
        &format!("J - R - sigma E (sigma = {sigma:.3e}, shift-invert)"),
        S.as_ref(),
    )
    .map_err(|e| match e {
        SolveError::Singular { what, detail } => SolveError::Singular {
            what,
            detail: format!("{detail}; the pencil may be singular (redundant constraints?)"),
        },
        e => e,
    })?;
    let mut op = ShiftInvertOp {
        E: E.clone(),
        S,
        lu,
        dr,
        dc,
        b: vec![0.0; n],
        r: vec![0.0; n],
        d: arnoldi_scaling(E),
        xs: vec![0.0; n],
    };
    let m_max = p.max_krylov.unwrap_or(8 * k + 40).min(n).max(1);
    // Block Arnoldi with block size 2 (two start vectors): a single Krylov sequence sees
    // only one direction of a multiple eigenvalue (a disk's cos mθ / sin mθ pair, a
    // square beam's two bending planes), so an exact double mode would be reported once
    // and the next frequency taken for it. Op V_m = V_{m+2} H̄ with H̄ banded upper
    // Hessenberg (two subdiagonals).
    let bs = 2usize.min(n);
    let mut V = vec![0.0; n * (m_max + bs)];
    let mut H = Mat::<f64>::zeros(m_max + bs, m_max);
    let mut w = vec![0.0; n];
    let mut hcol = vec![0.0; m_max + bs];
    // Purified start vectors: Op² x removes components along infinite eigenvectors.
    let mut seed = 1u64;
    for b in 0..bs {
        let mut x = start_vector(n, seed + 7919 * b as u64);
        op.apply(&x, &mut w)?;
        op.apply(&w, &mut x)?;
        let mut dummy = vec![0.0; b + 1];
        orthogonalize(&V[..b * n], n, b, &mut x, &mut dummy);
        let nx = norm(&x);
        if !(nx > 0.0) {
            return Err(SolveError::Eigen(
                "(J - R - σE)⁻¹E maps the start vector to zero: E = 0?".into(),
            ));
        }
        for (vk, xk) in V[b * n..(b + 1) * n].iter_mut().zip(&x) {
            *vk = xk / nx;
        }
    }
    let check_from = (2 * k + 2).min(m_max);
    let mut collected: Vec<EigenPair> = Vec::new();
    let mut m = 0;
    let mut done = false;
    while m < m_max && !done {
        let j = m;
        let (head, tail) = V.split_at_mut((j + bs) * n);
        let vj = &head[j * n..(j + 1) * n];
        op.apply(vj, &mut w)?;
        let wnorm0 = norm(&w);
        hcol.iter_mut().for_each(|h| *h = 0.0);
        orthogonalize(head, n, j + bs, &mut w, &mut hcol);
        for i in 0..j + bs {
            H[(i, j)] = hcol[i];
        }
        let hn = norm(&w);
        let next = &mut tail[..n];
        if hn > 1e-12 * wnorm0 {
            H[(j + bs, j)] = hn;
            for (a, b) in next.iter_mut().zip(&w) {
                *a = b / hn;
            }
        } else {
            // Invariant subspace found: continue with a fresh direction (H stays banded
            // with a zero subdiagonal entry, so the Ritz values remain exact).
            H[(j + bs, j)] = 0.0;
            if j + bs < n {
                seed += 1;
                let mut r = start_vector(n, seed * 7919);
                let mut dummy = vec![0.0; j + bs + 1];
                orthogonalize(head, n, j + bs, &mut r, &mut dummy);
                let nr = norm(&r);
                for (a, b) in next.iter_mut().zip(&r) {
                    *a = b / nr;
                }
            }
        }
        m = j + 1;
        let exhausted = m >= n;
        if m >= check_from && (m % 5 == 0 || m == m_max || exhausted) {
            let Hm = Mat::from_fn(m, m, |a, b| H[(a, b)]);
            let eig = Hm
                .eigen()
                .map_err(|e| SolveError::Eigen(format!("Hessenberg eigenproblem: {e:?}")))?;
            let S = eig.S().column_vector();
            let U = eig.U();
            // residual of a Ritz pair: ‖H̄[m..m+bs, m-bs..m] s[m-bs..m]‖
            let tail_rows: Vec<[f64; 2]> = (0..bs)
                .map(|r| {
                    let mut row = [0.0; 2];
                    for (c, slot) in row.iter_mut().enumerate().take(bs) {
                        if m + c >= bs {
                            *slot = H[(m + r, m + c - bs)];
                        }
                    }
                    row
                })
                .collect();
            let mut order: Vec<usize> = (0..m).collect();
            order.sort_by(|&a, &b| S[b].norm().total_cmp(&S[a].norm()));
            let mu_max = S[order[0]].norm();
            let mut count = 0;
            collected.clear();
            let mut all_converged = true;
            for &i in &order {
                let mu = S[i];
                if mu.norm() <= 1e-12 * mu_max {
                    break; // infinite-eigenvalue region
                }
                let snorm = (0..m).map(|r| U[(r, i)].norm_sqr()).sum::<f64>().sqrt();
                let res = tail_rows
                    .iter()
                    .map(|row| {
                        let mut acc = c64::new(0.0, 0.0);
                        for (c, h) in row.iter().enumerate().take(bs) {
                            if m + c >= bs {
                                acc += U[(m + c - bs, i)] * *h;
                            }
                        }
                        acc.norm_sqr()
                    })
                    .sum::<f64>()
                    .sqrt()
                    / snorm;
                if res > p.tol * mu.norm() && !exhausted {
                    all_converged = false;
                    break;
                }
                let lam = c64::new(sigma, 0.0) + c64::new(1.0, 0.0) / mu;
                let shape = if p.mode_shapes {
                    let mut y = vec![c64::new(0.0, 0.0); n];
                    for c in 0..m {
                        let s = U[(c, i)];
                        for (yk, vk) in y.iter_mut().zip(&V[c * n..(c + 1) * n]) {
                            *yk += s * *vk;
                        }
                    }
                    // One inverse-iteration step y ← Op y / μ: Op ignores the (shrunk)
                    // algebraic components of its argument and returns them at full
                    // precision, so the multipliers of the shape are accurate.
                    let re: Vec<f64> = y.iter().map(|z| z.re).collect();
                    let im: Vec<f64> = y.iter().map(|z| z.im).collect();
                    let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
                    op.apply(&re, &mut a)?;
                    op.apply(&im, &mut b)?;
                    let inv_mu = c64::new(1.0, 0.0) / mu;
                    for (k, yk) in y.iter_mut().enumerate() {
                        // back from the Jacobi-scaled coordinates of the Arnoldi basis
                        *yk = c64::new(a[k], b[k]) * inv_mu * op.d[k];
                    }
                    Some(y)
                } else {
                    None
                };
                collected.push((lam, shape));
                let rho = collected.iter().fold(sigma, |a, (l, _)| a.max(l.norm()));
                if is_oscillation(lam, rho, p) {
                    count += 1;
                    if count == k {
                        break;
                    }
                }
            }
            if count == k || exhausted {
                done = true;
            } else if m == m_max {
                return Err(SolveError::Eigen(format!(
                    "shift-invert Arnoldi: {count} of {k} modes converged (all lower Ritz values converged: {all_converged}) within max_krylov = {m_max} vectors; raise max_krylov or give a shift near the lowest frequency (shift = {sigma:.3e})"
                )));
            }
        }
    }
    let rho = collected.iter().fold(sigma, |a, (l, _)| a.max(l.norm()));
    let mut modes: Vec<Mode> = collected
        .into_iter()
        .filter(|(l, _)| is_oscillation(*l, rho, p))
        .map(|(l, s)| {
            Mode::new(
                l,
                s.map(|mut x| {
                    normalize_shape(&mut x, E);
                    x
                }),
            )
        })
        .collect();
    modes.sort_by(|a, b| a.omega.total_cmp(&b.omega));
    modes.truncate(k);
    Ok(EigenResult {
        modes,
        method: EigenMethod::ShiftInvert,
        shift: Some(sigma),
        krylov_dim: m,
        linear_solves: op.lu.counters().solves,
    })
}
