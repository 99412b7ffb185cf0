//! Matrix sign function by the scaled Newton iteration
//! `Z ← ½(cZ + (cZ)⁻¹)`, `c = |det Z|^{−1/n}` (Byers 1987; Higham 2008 §5.5).
//! It splits the spectrum at the imaginary axis and is the basis of the
//! Riccati (CARE) and Lyapunov solvers.

use super::dense::{check_square, fro, DenseLu};
use crate::error::{ControlError, Result};
use faer::{Mat, MatRef, Scale};

/// Matrix sign of `A`. Fails if the iteration does not converge, which
/// happens when `A` has eigenvalues on (or numerically near) the imaginary axis.
pub fn signm(name: &str, A: MatRef<'_, f64>) -> Result<Mat<f64>> {
    let n = check_square(name, A)?;
    let mut Z = A.to_owned();
    let mut change = f64::INFINITY;
    let max_it = 100;
    let mut scaling = true;
    for _ in 0..max_it {
        let lu = DenseLu::new(&format!("sign iterate of {name}"), Z.as_ref())?;
        let Zi = lu.inverse();
        let c = if scaling {
            // |det Z|^{-1/n} from the LU pivots, computed in logs
            let U = Z.partial_piv_lu();
            let mut logdet = 0.0;
            for i in 0..n {
                logdet += U.U()[(i, i)].abs().ln();
            }
            (-logdet / n as f64).exp()
        } else {
            1.0
        };
        let Zn = Scale(0.5 * c) * &Z + Scale(0.5 / c) * &Zi;
        change = fro((&Zn - &Z).as_ref()) / fro(Zn.as_ref());
        Z = Zn;
        if change < 1e-2 {
            // near convergence, scaling would only slow the quadratic phase
            scaling = false;
        }
        if change < 1e-13 {
            // one more unscaled step to reach the quadratic limit
            let Zi = DenseLu::new(&format!("sign iterate of {name}"), Z.as_ref())?.inverse();
            let Zn = Scale(0.5) * (&Z + &Zi);
            return Ok(Zn);
        }
    }
    Err(ControlError::NoConvergence {
        what: format!("matrix sign function of {name}"),
        iterations: max_it,
        residual: change,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn sign_of_diagonalisable() {
        // A = V diag(−2, 3) V⁻¹ → sign A = V diag(−1, 1) V⁻¹
        let V = Mat::from_fn(2, 2, |i, j| [[1.0, 2.0], [0.5, 1.5]][i][j]);
        let D = Mat::from_fn(2, 2, |i, j| if i == j { [-2.0, 3.0][i] } else { 0.0 });
        let S = Mat::from_fn(2, 2, |i, j| if i == j { [-1.0, 1.0][i] } else { 0.0 });
        let Vi = DenseLu::new("V", V.as_ref()).unwrap().inverse();
        let A = &V * &D * &Vi;
        let expect = &V * &S * &Vi;
        let got = signm("A", A.as_ref()).unwrap();
        assert!(fro((&got - &expect).as_ref()) < 1e-13);
    }
}
