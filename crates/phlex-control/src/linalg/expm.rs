//! Matrix exponential by scaling and squaring with the degree-13 Padé
//! approximant (Higham, SIAM J. Matrix Anal. Appl. 26 (2005) 1179–1193).
//! Used for the ZOH discretisation `A = e^{A_c Δt}` (thesis 002 eq. (3.19)).

use super::dense::{check_finite, check_square, eye, norm1, DenseLu};
use crate::error::Result;
use faer::{Mat, MatRef, Scale};

/// Padé-13 coefficients b₀…b₁₃.
const B13: [f64; 14] = [
    64764752532480000.0,
    32382376266240000.0,
    7771770303897600.0,
    1187353796428800.0,
    129060195264000.0,
    10559470521600.0,
    670442572800.0,
    33522128640.0,
    1323241920.0,
    40840800.0,
    960960.0,
    16380.0,
    182.0,
    1.0,
];
/// θ₁₃: largest 1-norm for which the Padé-13 backward error is below 2⁻⁵³.
const THETA13: f64 = 5.371920351148152;

/// `e^A` for a real square matrix.
pub fn expm(A: MatRef<'_, f64>) -> Result<Mat<f64>> {
    let n = check_square("expm argument", A)?;
    check_finite("expm argument", A)?;
    let nrm = norm1(A);
    let s = if nrm > THETA13 {
        (nrm / THETA13).log2().ceil().max(0.0) as i32
    } else {
        0
    };
    let scale = 0.5f64.powi(s);
    let As = Scale(scale) * A;
    let I = eye(n);
    let A2 = &As * &As;
    let A4 = &A2 * &A2;
    let A6 = &A4 * &A2;
    let b = &B13;
    let inner_u = &A6 * (Scale(b[13]) * &A6 + Scale(b[11]) * &A4 + Scale(b[9]) * &A2);
    let U = &As
        * (inner_u + Scale(b[7]) * &A6 + Scale(b[5]) * &A4 + Scale(b[3]) * &A2 + Scale(b[1]) * &I);
    let inner_v = &A6 * (Scale(b[12]) * &A6 + Scale(b[10]) * &A4 + Scale(b[8]) * &A2);
    let V = inner_v + Scale(b[6]) * &A6 + Scale(b[4]) * &A4 + Scale(b[2]) * &A2 + Scale(b[0]) * &I;
    let P = &V + &U;
    let Q = &V - &U;
    let mut R = DenseLu::new("Padé denominator V − U", Q.as_ref())?.solve(P.as_ref());
    for _ in 0..s {
        R = &R * &R;
    }
    Ok(R)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rotation generator: e^{[[0, −w],[w, 0]] t} = [[cos, −sin],[sin, cos]].
    #[test]
    fn rotation_exact() {
        let w = 7.3;
        let A = Mat::from_fn(2, 2, |i, j| match (i, j) {
            (0, 1) => -w,
            (1, 0) => w,
            _ => 0.0,
        });
        let E = expm(A.as_ref()).unwrap();
        // 1e-13: ‖A‖₁ = 7.3 needs one squaring; Padé-13 backward error ≤ 2⁻⁵³.
        assert!((E[(0, 0)] - w.cos()).abs() < 1e-13);
        assert!((E[(1, 0)] - w.sin()).abs() < 1e-13);
    }

    /// Jordan block: e^{[[a,1],[0,a]]} = e^a [[1,1],[0,1]].
    #[test]
    fn jordan_block() {
        let a = -3.0;
        let A = Mat::from_fn(2, 2, |i, j| {
            if i == j {
                a
            } else if j == i + 1 {
                1.0
            } else {
                0.0
            }
        });
        let E = expm(A.as_ref()).unwrap();
        let ea = a.exp();
        // relative 1e-13 of e^a
        assert!((E[(0, 0)] - ea).abs() < 1e-13 * ea);
        assert!((E[(0, 1)] - ea).abs() < 1e-13 * ea);
        assert!(E[(1, 0)].abs() < 1e-16);
    }

    #[test]
    fn large_norm_scaling() {
        // diag(−50, 2): scaling with s = 5 squarings; exact diagonal exponentials.
        let A = Mat::from_fn(2, 2, |i, j| if i == j { [-50.0, 2.0][i] } else { 0.0 });
        let E = expm(A.as_ref()).unwrap();
        assert!((E[(1, 1)] - 2f64.exp()).abs() < 1e-13 * 2f64.exp());
        assert!((E[(0, 0)] - (-50f64).exp()).abs() < 1e-30);
    }
}
