//! LQG regulator and the separation principle (thesis 002 §4.4, eqs.
//! (4.124)–(4.140)).
//!
//! Control `u = Fẑ`, estimator `ẑ⁺ = Aẑ + Bu + K(y − ŷ)` (continuous: `ż̂`).
//! In `[z; ẑ]` coordinates the closed loop is `[[A, BF], [KC, A − KC + BF]]`
//! (the feed-through `D` cancels in `y − ŷ = C(z − ẑ)`); with the error
//! `e = z − ẑ` it is block triangular `[[A + BF, −BF], [0, A − KC]]`, so its
//! eigenvalues are `eig(A + BF) ∪ eig(A − KC)`.

use crate::control::kalman::{kalman, KalmanGain};
use crate::control::lqr::{lqr, Lqr};
use crate::control::pole_placement::Domain;
use crate::control::riccati::LqProblem;
use crate::error::Result;
use crate::linalg::{block2, eigvals};
use faer::{c64, Mat, MatRef};

/// An LQG design.
#[derive(Clone, Debug)]
pub struct Lqg {
    /// the regulator: gain `F` (`u = F ẑ`), Riccati solution, poles `eig(A + BF)`
    pub regulator: Lqr,
    /// the estimator: gain `K`, error covariance, poles `eig(A − KC)`
    pub estimator: KalmanGain,
    /// closed-loop matrix in `[z; ẑ]` coordinates
    pub closed_loop: Mat<f64>,
    /// its eigenvalues
    pub closed_loop_poles: Vec<c64>,
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
    block2([[A, BF.as_ref()], [KC.as_ref(), A22.as_ref()]])
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

/// Weights of an LQG design: LQR weights `(Q_z, Q_u)` and noise
/// covariances `(R_w, R_v)` (thesis 002 eqs. (4.124)–(4.127)).
#[derive(Clone, Copy, Debug)]
pub struct LqgWeights<'a> {
    /// state weight `Q_z` (`n × n`)
    pub Qz: MatRef<'a, f64>,
    /// control weight `Q_u` (`r × r`)
    pub Qu: MatRef<'a, f64>,
    /// process-noise covariance `R_w` (`n × n`)
    pub Rw: MatRef<'a, f64>,
    /// measurement-noise covariance `R_v` (`m × m`)
    pub Rv: MatRef<'a, f64>,
}

/// LQG design in continuous or discrete time (predictor-form estimator in
/// discrete time): the LQR of `(A, B)` and the Kalman filter of `(A, C)`
/// designed separately, then the closed loop and its separation check.
pub fn lqg(
    A: MatRef<'_, f64>,
    B: MatRef<'_, f64>,
    C: MatRef<'_, f64>,
    w: &LqgWeights<'_>,
    domain: Domain,
) -> Result<Lqg> {
    let regulator = lqr(
        &LqProblem {
            A,
            B,
            Q: w.Qz,
            R: w.Qu,
        },
        domain,
    )?;
    let estimator = kalman(A, C, w.Rw, w.Rv, domain)?;
    let closed_loop = closed_loop_matrix(A, B, C, regulator.F.as_ref(), estimator.K.as_ref());
    // separation check: eig(closed loop) = eig(A + BF) ∪ eig(A − KC)
    let closed_loop_poles = eigvals("LQG closed loop", closed_loop.as_ref())?;
    let mut parts = regulator.closed_loop.clone();
    parts.extend_from_slice(&estimator.estimator_poles);
    let separation_error = match_eigenvalues(&closed_loop_poles, &parts);
    Ok(Lqg {
        regulator,
        estimator,
        closed_loop,
        closed_loop_poles,
        separation_error,
    })
}
