//! Linear quadratic regulators (thesis 002 §4.2.2–§4.2.3), control `u = F z`.
//!
//! * continuous, infinite horizon: `F = −Q_u⁻¹BᵀS∞` with the CARE
//!   `S A + AᵀS − S B Q_u⁻¹ Bᵀ S + Q_z = 0` (eqs. (4.40)–(4.44));
//! * continuous, finite horizon: backward integration of the Riccati ODE
//!   `−Ṡ = SA + AᵀS − SBQ_u⁻¹BᵀS + Q_z`, `S(T) = Q_T`, `F(t) = −Q_u⁻¹BᵀS(t)`
//!   (sweep method, eqs. (4.34)–(4.39));
//! * discrete, infinite horizon: `F = −(Q_u + BᵀS∞B)⁻¹BᵀS∞A` with the DARE (eq. (4.66));
//! * discrete, finite horizon: `S(N) = Q_T`,
//!   `S(k) = AᵀS'(k+1)A + Q_z` with `S' = S − SB(Q_u + BᵀSB)⁻¹BᵀS`
//!   (equal to the thesis's `(S⁻¹ + BQ_u⁻¹Bᵀ)⁻¹` without requiring an
//!   invertible `S`), `F(k) = −(Q_u + BᵀS(k+1)B)⁻¹BᵀS(k+1)A` (eqs. (4.57)–(4.63)).

use crate::control::pole_placement::Domain;
use crate::control::riccati::{dlqr_gain, riccati_rk4, solve_care, solve_dare, LqProblem};
use crate::error::Result;
use crate::linalg::{check_shape, eigvals, sym, DenseLu};
use faer::{c64, Mat, MatRef, Scale};

/// An infinite-horizon LQR design.
#[derive(Clone, Debug)]
pub struct Lqr {
    /// gain, `u = F z`
    pub F: Mat<f64>,
    /// Riccati solution `S∞`
    pub S: Mat<f64>,
    /// eigenvalues of `A + BF`
    pub closed_loop: Vec<c64>,
    /// relative Riccati residual
    pub residual: f64,
}

/// Infinite-horizon LQR in continuous time (`F = −Q_u⁻¹BᵀS∞`, CARE, eq.
/// (4.44)) or discrete time (`F = −(Q_u + BᵀS∞B)⁻¹BᵀS∞A`, DARE, eq. (4.66))
/// of the problem `(A, B, Q_z, Q_u)`.
pub fn lqr(p: &LqProblem<'_>, domain: Domain) -> Result<Lqr> {
    let LqProblem { A, B, R: Qu, .. } = *p;
    let (sol, F) = match domain {
        Domain::Continuous => {
            let sol = solve_care(p)?;
            let BtS = B.transpose() * &sol.X;
            let F = Scale(-1.0) * DenseLu::new("Q_u", Qu)?.solve(BtS.as_ref());
            (sol, F)
        }
        Domain::Discrete => {
            let sol = solve_dare(p)?;
            let F = dlqr_gain(p, sol.X.as_ref())?;
            (sol, F)
        }
    };
    let closed_loop = eigvals("A + BF", (A + B * &F).as_ref())?;
    Ok(Lqr {
        F,
        S: sol.X,
        closed_loop,
        residual: sol.residual,
    })
}

/// A finite-horizon LQR schedule.
#[derive(Clone, Debug)]
pub struct FiniteHorizonLqr {
    /// times (continuous) or step indices (discrete) of the entries, ascending
    pub t: Vec<f64>,
    /// Riccati matrices `S(t)`
    pub S: Vec<Mat<f64>>,
    /// gains `F(t)` (for the discrete case `F(k)` uses `S(k+1)`; the last entry repeats)
    pub F: Vec<Mat<f64>>,
}

/// Horizon of a finite-horizon LQR.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Horizon {
    /// continuous time on `[0, T]`, RK4 backward sweep with `steps` equal steps
    Continuous {
        /// final time `T > 0`
        T: f64,
        /// number of RK4 steps (≥ 1)
        steps: usize,
    },
    /// discrete time, `N` steps of the backward Riccati recursion
    Discrete {
        /// number of steps
        N: usize,
    },
}

/// Finite-horizon LQR of the problem `(A, B, Q_z, Q_u)` with final weight
/// `Q_T`: `S` and `F` at the grid times (`steps + 1` times `kT/steps`, or
/// the `N + 1` step indices).
///
/// * continuous: `−Ṡ = SA + AᵀS − SGS + Q_z`, `G = BQ_u⁻¹Bᵀ`, `S(T) = Q_T`,
///   integrated in backward time `τ = T − t` (eqs. (4.34)–(4.39));
/// * discrete: `S(k) = AᵀS(k+1)(A + BF(k)) + Q_z`,
///   `F(k) = −(Q_u + BᵀS(k+1)B)⁻¹BᵀS(k+1)A` (eqs. (4.57)–(4.63)).
pub fn lqr_finite(
    p: &LqProblem<'_>,
    QT: MatRef<'_, f64>,
    horizon: Horizon,
) -> Result<FiniteHorizonLqr> {
    let LqProblem { A, B, Q: Qz, R: Qu } = *p;
    let n = A.nrows();
    check_shape("A", A, n, n)?;
    check_shape("B", B, n, B.ncols())?;
    check_shape("Q_z", Qz, n, n)?;
    check_shape("Q_u", Qu, B.ncols(), B.ncols())?;
    check_shape("Q_T", QT, n, n)?;
    match horizon {
        Horizon::Continuous { T, steps } => {
            let QuiBt = DenseLu::new("Q_u", Qu)?.solve(B.transpose());
            let G = B * &QuiBt;
            // backward time τ = T − t: dS/dτ = SA + AᵀS − SGS + Q_z
            let rhs = |S: MatRef<'_, f64>| S * A + A.transpose() * S - S * &G * S + Qz;
            let mut S = riccati_rk4(QT, T, steps, rhs)?;
            S.reverse();
            let F = S.iter().map(|S| Scale(-1.0) * (&QuiBt * S)).collect();
            let h = T / steps as f64;
            let t = (0..=steps).map(|k| k as f64 * h).collect();
            Ok(FiniteHorizonLqr { t, S, F })
        }
        Horizon::Discrete { N } => {
            let mut S = vec![Mat::<f64>::zeros(0, 0); N + 1];
            let mut F = vec![Mat::<f64>::zeros(0, 0); N + 1];
            S[N] = sym(QT);
            for k in (0..N).rev() {
                let Sn = &S[k + 1];
                F[k] = dlqr_gain(p, Sn.as_ref())?;
                // S(k) = Aᵀ S (A + B F) + Q_z  (= AᵀS'A + Q_z)
                let Sk = A.transpose() * Sn * (A + B * &F[k]) + Qz;
                S[k] = sym(Sk.as_ref());
            }
            F[N] = if N > 0 {
                F[N - 1].clone()
            } else {
                dlqr_gain(p, S[N].as_ref())?
            };
            Ok(FiniteHorizonLqr {
                t: (0..=N).map(|k| k as f64).collect(),
                S,
                F,
            })
        }
    }
}
