//! The rotation group $SO(3) = \{R \mid R^\top R = E,\ \det R = 1\}$ (seed 001 §3.2):
//! exponential (Rodrigues), logarithm, Cayley map and the left-trivialized tangent map of
//! the exponential.
//!
//! Conventions: $\tilde\omega v = \omega\times v$ ([`hat3`]); left-trivialized velocity
//! $\omega = (R^\top\dot R)^\vee$ (seed 001 eq. (12)).
use super::linalg3::{dot3, hat3, lin3, mat_mul, norm3, scale3, vee3, Mat3, Vec3, I3};

/// Coefficients $a(\theta) = \sin\theta/\theta$, $b(\theta) = (1-\cos\theta)/\theta^2$,
/// $c(\theta) = (\theta - \sin\theta)/\theta^3$, with Taylor series below $\theta = 10^{-3}$
/// (truncation error $< 10^{-18}$).
pub fn exp_coefficients(theta: f64) -> (f64, f64, f64) {
    if theta < 1e-3 {
        let t2 = theta * theta;
        (
            1.0 - t2 / 6.0 + t2 * t2 / 120.0,
            0.5 - t2 / 24.0 + t2 * t2 / 720.0,
            1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0,
        )
    } else {
        let (s, c) = theta.sin_cos();
        (
            s / theta,
            (1.0 - c) / (theta * theta),
            (theta - s) / (theta * theta * theta),
        )
    }
}

/// Rodrigues' formula $\exp(\tilde\omega) = E + a\,\tilde\omega + b\,\tilde\omega^2$.
pub fn exp(w: Vec3) -> Mat3 {
    let (a, b, _) = exp_coefficients(norm3(w));
    let W = hat3(w);
    let W2 = mat_mul(&W, &W);
    lin3(1.0, &lin3(1.0, &I3, a, &W), b, &W2)
}

/// Logarithm $\omega = \log(R)^\vee$ with $|\omega| \le \pi$; robust near $\theta = 0$ and
/// $\theta = \pi$ (the axis is then taken from the symmetric part of $R$).
pub fn log(R: &Mat3) -> Vec3 {
    let v = vee3(R); // = sinθ · axis
    let c = ((R[0][0] + R[1][1] + R[2][2]) - 1.0) * 0.5;
    let s = norm3(v);
    let theta = s.atan2(c);
    if c > 0.0 {
        // θ < π/2: ω = θ/sinθ · v, with the series for small θ.
        let f = if theta < 1e-4 {
            1.0 + theta * theta / 6.0
        } else {
            theta / theta.sin()
        };
        return scale3(f, v);
    }
    // θ ≥ π/2: axis from B = (R + Rᵀ)/2 − cE = (1 − c) a aᵀ.
    let B = [
        [
            R[0][0] - c,
            0.5 * (R[0][1] + R[1][0]),
            0.5 * (R[0][2] + R[2][0]),
        ],
        [
            0.5 * (R[1][0] + R[0][1]),
            R[1][1] - c,
            0.5 * (R[1][2] + R[2][1]),
        ],
        [
            0.5 * (R[2][0] + R[0][2]),
            0.5 * (R[2][1] + R[1][2]),
            R[2][2] - c,
        ],
    ];
    let k = (0..3)
        .max_by(|&i, &j| B[i][i].total_cmp(&B[j][j]))
        .unwrap_or(0);
    let d = (B[k][k] * (1.0 - c)).max(0.0).sqrt();
    let mut a = if d > 0.0 {
        [B[0][k] / d, B[1][k] / d, B[2][k] / d]
    } else {
        [1.0, 0.0, 0.0]
    };
    let na = norm3(a);
    a = scale3(1.0 / na, a);
    if dot3(a, v) < 0.0 {
        a = scale3(-1.0, a);
    }
    scale3(theta, a)
}

/// Cayley map $\mathrm{cay}(\omega) = (E - \tfrac12\tilde\omega)^{-1}(E + \tfrac12\tilde\omega)
/// = E + \frac{4}{4 + |\omega|^2}\big(\tilde\omega + \tfrac12\tilde\omega^2\big)$, an exactly
/// orthogonal second-order approximation of $\exp(\tilde\omega)$.
pub fn cay(w: Vec3) -> Mat3 {
    let f = 4.0 / (4.0 + dot3(w, w));
    let W = hat3(w);
    let W2 = mat_mul(&W, &W);
    lin3(1.0, &I3, f, &lin3(1.0, &W, 0.5, &W2))
}

/// Left-trivialized tangent map of the exponential ("right Jacobian"):
/// $\exp(\tilde\omega)^\top\, \mathrm D\exp(\tilde\omega)[\tilde\delta] = (J_r(\omega)\delta)^\sim$ with
/// $J_r(\omega) = E - b\,\tilde\omega + c\,\tilde\omega^2$ (coefficients of
/// [`exp_coefficients`]).
pub fn dexp(w: Vec3) -> Mat3 {
    let (_, b, c) = exp_coefficients(norm3(w));
    let W = hat3(w);
    let W2 = mat_mul(&W, &W);
    lin3(1.0, &lin3(1.0, &I3, -b, &W), c, &W2)
}

/// $V(\omega) = E + b\,\tilde\omega + c\,\tilde\omega^2$ (left Jacobian), the translation
/// factor of the $SE(3)$ exponential (summary §2).
pub fn v_matrix(w: Vec3) -> Mat3 {
    let (_, b, c) = exp_coefficients(norm3(w));
    let W = hat3(w);
    let W2 = mat_mul(&W, &W);
    lin3(1.0, &lin3(1.0, &I3, b, &W), c, &W2)
}

/// $V(\omega)^{-1} = E - \tfrac12\tilde\omega + \frac{1}{\theta^2}\Big(1 - \frac{\theta\sin\theta}{2(1-\cos\theta)}\Big)\tilde\omega^2$
/// for $\theta = |\omega| < 2\pi$ (series $\tfrac1{12} + \theta^2/720$ for small $\theta$).
pub fn v_matrix_inv(w: Vec3) -> Mat3 {
    let theta = norm3(w);
    let g = if theta < 1e-3 {
        1.0 / 12.0 + theta * theta / 720.0
    } else {
        let (s, c) = theta.sin_cos();
        (1.0 - theta * s / (2.0 * (1.0 - c))) / (theta * theta)
    };
    let W = hat3(w);
    let W2 = mat_mul(&W, &W);
    lin3(1.0, &lin3(1.0, &I3, -0.5, &W), g, &W2)
}

/// $R^\top R - E$ measured in the Frobenius norm: the orthogonality defect.
pub fn orthogonality_defect(R: &Mat3) -> f64 {
    let RtR = mat_mul(&super::linalg3::transpose3(R), R);
    super::linalg3::fro3(&lin3(1.0, &RtR, -1.0, &I3))
}

/// The rotation $\mathrm{Rot}_z(\varphi)$ about $e_3$.
pub fn rot_z(phi: f64) -> Mat3 {
    let (s, c) = phi.sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::linalg3::{add3, fro3, transpose3};
    use rand::{rngs::StdRng, Rng, SeedableRng};

    fn rand3(rng: &mut StdRng, s: f64) -> Vec3 {
        [
            rng.gen_range(-s..s),
            rng.gen_range(-s..s),
            rng.gen_range(-s..s),
        ]
    }

    #[test]
    fn exp_log_roundtrip_including_near_pi() {
        let mut rng = StdRng::seed_from_u64(0);
        for k in 0..200 {
            let mut w = rand3(&mut rng, 2.0);
            if k % 4 == 0 {
                // Near θ = π (the delicate branch of log).
                let n = norm3(w);
                w = scale3((std::f64::consts::PI - 1e-7 * k as f64) / n, w);
            }
            if k % 7 == 0 {
                w = scale3(1e-6, w);
            }
            let R = exp(w);
            // Exact orthogonality up to round-off.
            assert!(orthogonality_defect(&R) < 1e-14);
            let w2 = log(&R);
            let err = norm3(super::super::linalg3::sub3(w, w2));
            assert!(err < 1e-8 * (1.0 + norm3(w)), "k={k} w={w:?} w2={w2:?}");
            assert!(fro3(&lin3(1.0, &exp(w2), -1.0, &R)) < 1e-13);
        }
    }

    #[test]
    fn cayley_orthogonal_and_second_order() {
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..50 {
            let w = rand3(&mut rng, 1.0);
            assert!(orthogonality_defect(&cay(w)) < 1e-14);
            // cay(hω) − exp(hω) = O(h³): the ratio for h and h/2 is about 8.
            let e1 = fro3(&lin3(
                1.0,
                &cay(scale3(0.01, w)),
                -1.0,
                &exp(scale3(0.01, w)),
            ));
            let e2 = fro3(&lin3(
                1.0,
                &cay(scale3(0.005, w)),
                -1.0,
                &exp(scale3(0.005, w)),
            ));
            if e1 > 1e-12 {
                assert!((e1 / e2 - 8.0).abs() < 0.1, "{}", e1 / e2);
            }
        }
    }

    #[test]
    fn dexp_matches_finite_differences() {
        let mut rng = StdRng::seed_from_u64(2);
        for _ in 0..20 {
            let w = rand3(&mut rng, 2.5);
            let d = rand3(&mut rng, 1.0);
            let h = 1e-6;
            let Rp = exp(add3(w, scale3(h, d)));
            let Rm = exp(add3(w, scale3(-h, d)));
            let dR = lin3(0.5 / h, &Rp, -0.5 / h, &Rm);
            let lhs = vee3(&mat_mul(&transpose3(&exp(w)), &dR));
            let rhs = super::super::linalg3::mat_vec(&dexp(w), d);
            // Central differences: O(h²) ≈ 1e-12 truncation, ~1e-10 round-off.
            assert!(norm3(super::super::linalg3::sub3(lhs, rhs)) < 1e-8);
        }
    }

    #[test]
    fn v_matrix_inverse() {
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..20 {
            let w = rand3(&mut rng, 3.0);
            let P = mat_mul(&v_matrix(w), &v_matrix_inv(w));
            assert!(fro3(&lin3(1.0, &P, -1.0, &I3)) < 1e-12);
        }
    }
}
