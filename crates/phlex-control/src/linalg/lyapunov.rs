//! Lyapunov equations.
//!
//! * continuous `AᵀX + XA + Q = 0` (Hurwitz `A`) by the sign-function
//!   iteration on `[[Aᵀ, Q], [0, −A]]` (Roberts 1971): `A ← ½(cA + (cA)⁻¹)`,
//!   `Q ← ½(cQ + c⁻¹A⁻ᵀQA⁻¹)`, `X = ½ lim Q`;
//! * discrete `AᵀXA − X + Q = 0` (Schur-stable `A`) by Smith doubling
//!   `X ← X + A_kᵀ X A_k`, `A_k ← A_k²`.
//!
//! They serve the Newton–Kleinman refinement of the CARE and the Gramians.

use super::dense::{check_shape, check_square, fro, DenseLu};
use crate::error::{ControlError, Result};
use faer::{Mat, MatRef, Scale};

/// Solves `AᵀX + XA + Q = 0` for Hurwitz `A`.
pub fn lyap_continuous(A: MatRef<'_, f64>, Q: MatRef<'_, f64>) -> Result<Mat<f64>> {
    let n = check_square("Lyapunov A", A)?;
    check_shape("Lyapunov Q", Q, n, n)?;
    let mut Ak = A.to_owned();
    let mut Qk = Q.to_owned();
    let mut change = f64::INFINITY;
    let mut scaling = true;
    for _ in 0..100 {
        let lu = DenseLu::new("Lyapunov sign iterate", Ak.as_ref())?;
        let Ai = lu.inverse();
        let c = if scaling {
            let U = Ak.partial_piv_lu();
            let logdet: f64 = (0..n).map(|i| U.U()[(i, i)].abs().ln()).sum();
            (-logdet / n as f64).exp()
        } else {
            1.0
        };
        let An = Scale(0.5 * c) * &Ak + Scale(0.5 / c) * &Ai;
        let Qn = Scale(0.5 * c) * &Qk + Scale(0.5 / c) * (Ai.transpose() * &Qk * &Ai);
        change = fro((&An - &Ak).as_ref()) / fro(An.as_ref());
        Ak = An;
        Qk = Qn;
        if change < 1e-2 {
            scaling = false;
        }
        if change < 1e-14 {
            // sign(A) must be −I for a Hurwitz A
            let mut dev = 0.0f64;
            for j in 0..n {
                for i in 0..n {
                    let t = if i == j { -1.0 } else { 0.0 };
                    dev = dev.max((Ak[(i, j)] - t).abs());
                }
            }
            if dev > 1e-6 {
                return Err(ControlError::InvalidParameter {
                    name: "Lyapunov A".into(),
                    reason: "A must be Hurwitz (all eigenvalues with Re λ < 0)".into(),
                });
            }
            let X = Scale(0.5) * Qk;
            return Ok(super::dense::sym(X.as_ref()));
        }
    }
    Err(ControlError::NoConvergence {
        what: "Lyapunov sign iteration".into(),
        iterations: 100,
        residual: change,
    })
}

/// Solves `AᵀXA − X + Q = 0` for Schur-stable `A` (spectral radius < 1).
pub fn lyap_discrete(A: MatRef<'_, f64>, Q: MatRef<'_, f64>) -> Result<Mat<f64>> {
    let n = check_square("Stein A", A)?;
    check_shape("Stein Q", Q, n, n)?;
    let mut Ak = A.to_owned();
    let mut X = Q.to_owned();
    for _ in 0..64 {
        let inc = Ak.transpose() * &X * &Ak;
        let ninc = fro(inc.as_ref());
        X += &inc;
        Ak = &Ak * &Ak;
        if ninc <= 1e-17 * fro(X.as_ref()) {
            return Ok(super::dense::sym(X.as_ref()));
        }
        if !ninc.is_finite() || ninc > 1e300 {
            break;
        }
    }
    Err(ControlError::InvalidParameter {
        name: "Stein A".into(),
        reason: "A must be Schur stable (all |λ| < 1)".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn continuous_residual() {
        let A = Mat::from_fn(3, 3, |i, j| {
            [[-1.0, 2.0, 0.0], [-3.0, -0.5, 1.0], [0.0, 0.2, -2.0]][i][j]
        });
        let Q = Mat::from_fn(3, 3, |i, j| if i == j { (i + 1) as f64 } else { 0.1 });
        let X = lyap_continuous(A.as_ref(), Q.as_ref()).unwrap();
        let R = A.transpose() * &X + &X * &A + &Q;
        // residual relative to ‖Q‖: 1e-12 (sign iteration converged to 1e-14)
        assert!(fro(R.as_ref()) < 1e-12 * fro(Q.as_ref()));
    }
    #[test]
    fn discrete_residual() {
        let A = Mat::from_fn(2, 2, |i, j| [[0.5, 0.4], [-0.3, 0.8]][i][j]);
        let Q = Mat::from_fn(2, 2, |i, j| if i == j { 1.0 } else { 0.0 });
        let X = lyap_discrete(A.as_ref(), Q.as_ref()).unwrap();
        let R = A.transpose() * &X * &A - &X + &Q;
        assert!(fro(R.as_ref()) < 1e-13 * fro(X.as_ref()));
    }
}
