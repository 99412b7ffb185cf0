//! LQG regulator and the separation principle (thesis 002 §4.4, eqs.
//! (4.124)–(4.140)).
//!
//! Control `u = Fẑ`, estimator `ẑ⁺ = Aẑ + Bu + K(y − ŷ)` (continuous: `ż̂`).
//! In `[z; ẑ]` coordinates the closed loop is `[[A, BF], [KC, A − KC + BF]]`
//! (the feed-through `D` cancels in `y − ŷ = C(z − ẑ)`); with the error
//! `e = z − ẑ` it is block triangular `[[A + BF, −BF], [0, A − KC]]`, so its
//! eigenvalues are `eig(A + BF) ∪ eig(A − KC)`.

use crate::control::kalman::{kalman_continuous, kalman_discrete};
use crate::control::lqr::{lqr_continuous, lqr_discrete};
use crate::error::Result;
use crate::linalg::{block2, eigvals};
use faer::{c64, Mat, MatRef};

/// An LQG design.
#[derive(Clone, Debug)]
pub struct Lqg {
    /// regulator gain, `u = F ẑ`
    pub F: Mat<f64>,
    /// estimator gain
    pub K: Mat<f64>,
    /// closed-loop matrix in `[z; ẑ]` coordinates
    pub closed_loop: Mat<f64>,
    /// separation check: largest distance between the closed-loop eigenvalues
    /// and `eig(A + BF) ∪ eig(A − KC)`, relative to the largest modulus
    pub separation_error: f64,
}

/// Closed-loop matrix `[[A, BF], [KC, A − KC + BF]]`.
pub fn closed_loop_matrix(
    A: MatRef<'_, f64>,
    B: MatRef<'_, f64>,
    C: MatRef<'_, f64>,
    F: MatRef<'_, f64>,
    K: MatRef<'_, f64>,
) -> Mat<f64> {
    let BF = B * F;
    let KC = K * C;
    let A22 = A - &KC + &BF;
    block2(A, BF.as_ref(), KC.as_ref(), A22.as_ref())
}

/// Greedy matching distance between two eigenvalue lists of equal length,
/// relative to the largest modulus.
pub fn match_eigenvalues(a: &[c64], b: &[c64]) -> f64 {
    let mut used = vec![false; b.len()];
    let mut worst = 0.0f64;
    let scale = a.iter().chain(b).map(|l| l.norm()).fold(1e-300, f64::max);
    for x in a {
        let mut best = (usize::MAX, f64::INFINITY);
        for (j, y) in b.iter().enumerate() {
            if !used[j] && (x - y).norm() < best.1 {
                best = (j, (x - y).norm());
            }
        }
        if best.0 == usize::MAX {
            return f64::INFINITY;
        }
        used[best.0] = true;
        worst = worst.max(best.1);
    }
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    worst / scale
}

/// Separation check for given gains.
pub fn separation_error(
    A: MatRef<'_, f64>,
    B: MatRef<'_, f64>,
    C: MatRef<'_, f64>,
    F: MatRef<'_, f64>,
    K: MatRef<'_, f64>,
) -> Result<f64> {
    let cl = closed_loop_matrix(A, B, C, F, K);
    let lcl = eigvals("LQG closed loop", cl.as_ref())?;
    let mut parts = eigvals("A + BF", (A + B * F).as_ref())?;
    parts.extend(eigvals("A − KC", (A - K * C).as_ref())?);
    Ok(match_eigenvalues(&lcl, &parts))
}

fn assemble(
    A: MatRef<'_, f64>,
    B: MatRef<'_, f64>,
    C: MatRef<'_, f64>,
    F: Mat<f64>,
    K: Mat<f64>,
) -> Result<Lqg> {
    let closed_loop = closed_loop_matrix(A, B, C, F.as_ref(), K.as_ref());
    let separation_error = separation_error(A, B, C, F.as_ref(), K.as_ref())?;
    Ok(Lqg {
        F,
        K,
        closed_loop,
        separation_error,
    })
}

/// Continuous LQG: LQR weights `(Q_z, Q_u)`, noise covariances `(R_w, R_v)`.
#[allow(clippy::too_many_arguments)]
pub fn lqg_continuous(
    A: MatRef<'_, f64>,
    B: MatRef<'_, f64>,
    C: MatRef<'_, f64>,
    Qz: MatRef<'_, f64>,
    Qu: MatRef<'_, f64>,
    Rw: MatRef<'_, f64>,
    Rv: MatRef<'_, f64>,
) -> Result<Lqg> {
    let reg = lqr_continuous(A, B, Qz, Qu)?;
    let est = kalman_continuous(A, C, Rw, Rv)?;
    assemble(A, B, C, reg.F, est.K)
}

/// Discrete LQG (predictor-form estimator).
#[allow(clippy::too_many_arguments)]
pub fn lqg_discrete(
    A: MatRef<'_, f64>,
    B: MatRef<'_, f64>,
    C: MatRef<'_, f64>,
    Qz: MatRef<'_, f64>,
    Qu: MatRef<'_, f64>,
    Rw: MatRef<'_, f64>,
    Rv: MatRef<'_, f64>,
) -> Result<Lqg> {
    let reg = lqr_discrete(A, B, Qz, Qu)?;
    let est = kalman_discrete(A, C, Rw, Rv)?;
    assemble(A, B, C, reg.F, est.K)
}
