//! Principal matrix logarithm by inverse scaling and squaring: repeated
//! Denman–Beavers square roots until `‖A^{1/2^k} − I‖₁ ≤ 1/4`, then the
//! `[m/m]` Padé approximant of `log(I + X)` in its partial-fraction
//! (Gauss–Legendre) form `Σⱼ wⱼ X (I + xⱼ X)⁻¹`, and `log A = 2^k log(A^{1/2^k})`
//! (Higham, "Functions of Matrices", SIAM 2008, §11.5).
//!
//! Used for the inverse ZOH map `A_c = ln(A)/Δt` (thesis 002 eq. (3.36)).

use super::dense::{check_finite, check_square, eye, fro, norm1, DenseLu};
use crate::error::{ControlError, Result};
use faer::{Mat, MatRef, Scale};

/// Gauss–Legendre nodes and weights on `[0, 1]`.
pub fn gauss_legendre01(m: usize) -> (Vec<f64>, Vec<f64>) {
    let mut x = vec![0.0; m];
    let mut w = vec![0.0; m];
    for i in 0..m {
        // Chebyshev-like initial guess for the i-th root of P_m on [-1, 1].
        let mut z = (std::f64::consts::PI * (i as f64 + 0.75) / (m as f64 + 0.5)).cos();
        let mut dp = 1.0;
        for _ in 0..100 {
            let (mut p0, mut p1) = (1.0, z);
            for k in 2..=m {
                let p2 = ((2 * k - 1) as f64 * z * p1 - (k - 1) as f64 * p0) / k as f64;
                p0 = p1;
                p1 = p2;
            }
            let pm = if m == 0 { 1.0 } else { p1 };
            let pm1 = if m == 1 { 1.0 } else { p0 };
            dp = m as f64 * (z * pm - pm1) / (z * z - 1.0);
            let dz = pm / dp;
            z -= dz;
            if dz.abs() < 1e-16 {
                break;
            }
        }
        x[i] = 0.5 * (1.0 - z);
        w[i] = 1.0 / ((1.0 - z * z) * dp * dp);
    }
    (x, w)
}

/// Principal square root by the Denman–Beavers iteration.
pub fn sqrtm_db(A: MatRef<'_, f64>) -> Result<Mat<f64>> {
    let n = check_square("sqrtm argument", A)?;
    let mut Y = A.to_owned();
    let mut Z = eye(n);
    let mut change = f64::INFINITY;
    for it in 0..100 {
        let Yi = DenseLu::new("Denman–Beavers iterate Y", Y.as_ref())?.inverse();
        let Zi = DenseLu::new("Denman–Beavers iterate Z", Z.as_ref())?.inverse();
        let Yn = Scale(0.5) * (&Y + &Zi);
        let Zn = Scale(0.5) * (&Z + &Yi);
        change = fro((&Yn - &Y).as_ref()) / fro(Yn.as_ref()).max(f64::MIN_POSITIVE);
        Y = Yn;
        Z = Zn;
        if change < 1e-15 * (n as f64).sqrt().max(1.0) || (it > 3 && change < 1e-14) {
            return Ok(Y);
        }
    }
    Err(ControlError::NoConvergence {
        what: "Denman–Beavers square root".into(),
        iterations: 100,
        residual: change,
    })
}

/// Principal logarithm `log A` of a real matrix with no eigenvalues on the
/// closed negative real axis.
pub fn logm(A: MatRef<'_, f64>) -> Result<Mat<f64>> {
    let n = check_square("logm argument", A)?;
    check_finite("logm argument", A)?;
    for l in super::dense::eigvals("logm argument", A)? {
        if l.im.abs() <= 1e-14 * l.norm().max(1e-300) && l.re <= 0.0 {
            return Err(ControlError::NoLogarithm { re: l.re, im: l.im });
        }
    }
    let I = eye(n);
    let mut T = A.to_owned();
    let mut k = 0;
    while norm1((&T - &I).as_ref()) > 0.25 {
        if k >= 64 {
            return Err(ControlError::NoConvergence {
                what: "logm square-root scaling".into(),
                iterations: k,
                residual: norm1((&T - &I).as_ref()),
            });
        }
        T = sqrtm_db(T.as_ref())?;
        k += 1;
    }
    let X = &T - &I;
    // [8/8] Padé: for ‖X‖₁ ≤ 1/4 the truncation error is below 1e-18.
    let (xs, ws) = gauss_legendre01(8);
    let mut L = Mat::<f64>::zeros(n, n);
    for (xj, wj) in xs.iter().zip(&ws) {
        let D = &I + Scale(*xj) * &X;
        let term = DenseLu::new("Padé log denominator", D.as_ref())?.solve(X.as_ref());
        L += Scale(*wj) * term;
    }
    Ok(Scale((2.0f64).powi(k as i32)) * L)
}

#[cfg(test)]
mod tests {
    use super::super::expm::expm;
    use super::*;

    #[test]
    fn gauss_legendre_integrates_polynomials() {
        let (x, w) = gauss_legendre01(8);
        // exact for degree ≤ 15: ∫₀¹ t¹⁵ dt = 1/16
        let s: f64 = x.iter().zip(&w).map(|(x, w)| w * x.powi(15)).sum();
        assert!((s - 1.0 / 16.0).abs() < 1e-15);
    }

    #[test]
    fn log_of_exp_round_trip() {
        // A damped oscillator generator times Δt: eigenvalues −0.05 ± 1.7i (|Im| < π).
        let A = Mat::from_fn(3, 3, |i, j| {
            [[-0.05, 1.7, 0.3], [-1.7, -0.05, 0.2], [0.0, 0.1, -0.4]][i][j]
        });
        let E = expm(A.as_ref()).unwrap();
        let L = logm(E.as_ref()).unwrap();
        // round trip to 1e-12 (a few square roots, each ~1e-15 relative)
        let err = fro((&L - &A).as_ref());
        assert!(err < 1e-12, "err {err}");
    }

    #[test]
    fn negative_eigenvalue_rejected() {
        let A = Mat::from_fn(2, 2, |i, j| if i == j { [-2.0, 1.0][i] } else { 0.0 });
        assert!(matches!(
            logm(A.as_ref()),
            Err(ControlError::NoLogarithm { .. })
        ));
    }
}
