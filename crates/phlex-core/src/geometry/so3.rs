//! The rotation group $SO(3) = \{R \mid R^\top R = E,\ \det R = 1\}$ (seed 001 §3.2; paper
//! 000 Remark 4): exponential (Rodrigues), logarithm, Cayley map and its inverse, and the
//! trivialised tangent maps of the exponential.
//!
//! Conventions: $\tilde\omega v = \omega\times v$ ([`hat`]); a rotation maps body to
//! inertial coordinates; the left-trivialised (body) angular velocity is
//! $\omega = (R^\top\dot R)^\vee$ (seed 001 eq. (12)), the right-trivialised (spatial) one
//! $(\dot RR^\top)^\vee$.
//!
//! | map | formula |
//! |---|---|
//! | [`exp`] | $E + a\,\tilde\omega + b\,\tilde\omega^2$ |
//! | [`cayley`] | $(E - \tfrac12\tilde\omega)^{-1}(E + \tfrac12\tilde\omega) = E + \frac{4}{4 + \vert\omega\vert^2}(\tilde\omega + \tfrac12\tilde\omega^2)$ |
//! | [`dexp_left`] ($J_r$) | $E - b\,\tilde\omega + c\,\tilde\omega^2$ |
//! | [`dexp_right`] ($J_l = V$) | $E + b\,\tilde\omega + c\,\tilde\omega^2$ |
//!
//! with $\theta = |\omega|$, $a = \sin\theta/\theta$, $b = (1-\cos\theta)/\theta^2$,
//! $c = (\theta - \sin\theta)/\theta^3$ ([`exp_coefficients`]).
use super::mat3::{
    dot, hat, lin_comb, mat_mul, mat_t_mul, mat_vec, norm, scale, trace, vee, Mat3, Vec3, IDENTITY3,
};

/// Coefficients $a(\theta) = \sin\theta/\theta$, $b(\theta) = (1-\cos\theta)/\theta^2$,
/// $c(\theta) = (\theta - \sin\theta)/\theta^3$ of [`exp`] and its tangent maps, with Taylor
/// series below $\theta = 10^{-3}$ (truncation error $< 10^{-18}$).
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

/// $E + \alpha\tilde\omega + \beta\tilde\omega^2$, the form of every map of this module.
fn quadratic_in_hat(alpha: f64, beta: f64, w: Vec3) -> Mat3 {
    let W = hat(w);
    let W2 = mat_mul(&W, &W);
    lin_comb(1.0, &lin_comb(1.0, &IDENTITY3, alpha, &W), beta, &W2)
}

/// Rodrigues' formula $\exp(\tilde\omega) = E + a\,\tilde\omega + b\,\tilde\omega^2$
/// (seed 001 §3.2): the rotation by the angle $|\omega|$ about $\omega/|\omega|$.
pub fn exp(w: Vec3) -> Mat3 {
    let (a, b, _) = exp_coefficients(norm(w));
    quadratic_in_hat(a, b, w)
}

/// The rotation by `angle` about `axis` (need not be unit): $\exp(\text{angle}\;\tilde k)$
/// with $k = \text{axis}/|\text{axis}|$. `None` if the axis vanishes or is not finite.
pub fn from_axis_angle(axis: Vec3, angle: f64) -> Option<Mat3> {
    let n = norm(axis);
    (n > 0.0 && n.is_finite()).then(|| exp(scale(angle / n, axis)))
}

/// The rotation $\mathrm{Rot}_z(\varphi)$ about $e_3$.
pub fn rotation_z(phi: f64) -> Mat3 {
    let (s, c) = phi.sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}

/// Logarithm: the rotation vector $\omega$ with $\exp(\tilde\omega) = R$ and
/// $|\omega| \le \pi$, through the unit quaternion $(w, v) = (\cos\tfrac\theta2,
/// \sin\tfrac\theta2\,k)$ of $R$ and $\omega = 2\operatorname{atan2}(|v|, w)\,v/|v|$.
///
/// The quaternion is extracted by Shepperd's method (J. Guidance Control 1 (1978) 223):
/// from the largest of $4w^2 = 1 + \operatorname{tr}R$ and $4v_i^2 = 1 + 2R_{ii} -
/// \operatorname{tr}R$, so no branch divides by a small number. This covers the small-angle
/// case ($w \approx 1$; $\operatorname{atan2}(|v|, w)/|v|$ is then evaluated without
/// cancellation) and the angles near $\pi$ ($w \approx 0$; the axis comes from the
/// symmetric part of $R$) by the same formula.
pub fn log(R: &Mat3) -> Vec3 {
    let tr = trace(R);
    let (w, v) = if tr >= R[0][0].max(R[1][1]).max(R[2][2]) {
        let w = 0.5 * (1.0 + tr).max(0.0).sqrt();
        let f = 0.25 / w;
        (
            w,
            [
                (R[2][1] - R[1][2]) * f,
                (R[0][2] - R[2][0]) * f,
                (R[1][0] - R[0][1]) * f,
            ],
        )
    } else {
        let i = if R[0][0] >= R[1][1] && R[0][0] >= R[2][2] {
            0
        } else if R[1][1] >= R[2][2] {
            1
        } else {
            2
        };
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let qi = 0.5 * (1.0 + R[i][i] - R[j][j] - R[k][k]).max(0.0).sqrt();
        let f = 0.25 / qi;
        let mut v = [0.0; 3];
        v[i] = qi;
        v[j] = (R[j][i] + R[i][j]) * f;
        v[k] = (R[k][i] + R[i][k]) * f;
        ((R[k][j] - R[j][k]) * f, v)
    };
    // (w, v) and (−w, −v) are the same rotation: take w ≥ 0, so |ω| ≤ π.
    let (w, v) = if w < 0.0 {
        (-w, scale(-1.0, v))
    } else {
        (w, v)
    };
    let s = norm(v);
    if s == 0.0 {
        return [0.0; 3];
    }
    scale(2.0 * s.atan2(w) / s, v)
}

/// Cayley map $\mathrm{cay}(\omega) = (E - \tfrac12\tilde\omega)^{-1}(E + \tfrac12\tilde\omega)
/// = E + \frac{4}{4 + |\omega|^2}\big(\tilde\omega + \tfrac12\tilde\omega^2\big)$, an exactly
/// orthogonal second-order approximation of $\exp(\tilde\omega)$. The midpoint rule applied
/// to $\dot R = R\tilde\omega$ gives $R_1 = R_0\,\mathrm{cay}(h\bar\omega)$ (paper 000
/// Remark 4; the retraction of seed 001's Lie-group midpoint rule).
pub fn cayley(w: Vec3) -> Mat3 {
    let f = 4.0 / (4.0 + dot(w, w));
    let W = hat(w);
    let W2 = mat_mul(&W, &W);
    lin_comb(1.0, &IDENTITY3, f, &lin_comb(1.0, &W, 0.5, &W2))
}

/// Inverse of [`cayley`]: with $f = 4/(4 + |\omega|^2)$ the skew part of
/// $\mathrm{cay}(\omega)$ is $f\tilde\omega$ and $1 + \operatorname{tr}\mathrm{cay}(\omega) = 4f$,
/// so $\omega = 4\,\mathrm{vee}(R)/(1 + \operatorname{tr}R)$. `None` for rotations by $\pi$
/// ($1 + \operatorname{tr}R \le 10^{-12}$), which no finite $\omega$ reaches.
pub fn cayley_inverse(R: &Mat3) -> Option<Vec3> {
    let d = 1.0 + trace(R);
    (d > 1e-12).then(|| scale(4.0 / d, vee(R)))
}

/// Right-trivialised tangent map of the exponential, the "left Jacobian"
/// $J_l(\omega) = V(\omega) = E + b\,\tilde\omega + c\,\tilde\omega^2$:
/// $\mathrm D\exp(\tilde\omega)[\tilde\delta]\,\exp(\tilde\omega)^\top = (J_l(\omega)\delta)^\sim$.
/// It is also the translation factor of the $SE(3)$ exponential (seed 001 summary §2).
pub fn dexp_right(w: Vec3) -> Mat3 {
    let (_, b, c) = exp_coefficients(norm(w));
    quadratic_in_hat(b, c, w)
}

/// $J_l(\omega)^{-1} = E - \tfrac12\tilde\omega + g\,\tilde\omega^2$,
/// $g = \frac{1}{\theta^2}\Big(1 - \frac{\theta\sin\theta}{2(1-\cos\theta)}\Big)$, for
/// $\theta = |\omega| < 2\pi$ (series $g = \tfrac1{12} + \theta^2/720$ below $10^{-3}$).
pub fn dexp_right_inv(w: Vec3) -> Mat3 {
    let theta = norm(w);
    let g = if theta < 1e-3 {
        1.0 / 12.0 + theta * theta / 720.0
    } else {
        let (s, c) = theta.sin_cos();
        (1.0 - theta * s / (2.0 * (1.0 - c))) / (theta * theta)
    };
    quadratic_in_hat(-0.5, g, w)
}

/// Left-trivialised tangent map of the exponential, the "right Jacobian"
/// $J_r(\omega) = J_l(-\omega) = E - b\,\tilde\omega + c\,\tilde\omega^2$:
/// $\exp(\tilde\omega)^\top\,\mathrm D\exp(\tilde\omega)[\tilde\delta] = (J_r(\omega)\delta)^\sim$,
/// i.e. the body angular velocity of $t \mapsto \exp(\tilde\omega(t))$ is $J_r(\omega)\dot\omega$.
pub fn dexp_left(w: Vec3) -> Mat3 {
    dexp_right(scale(-1.0, w))
}

/// $J_r(\omega)^{-1} = J_l(-\omega)^{-1} = E + \tfrac12\tilde\omega + g\,\tilde\omega^2$ (see
/// [`dexp_right_inv`]), for $|\omega| < 2\pi$.
pub fn dexp_left_inv(w: Vec3) -> Mat3 {
    dexp_right_inv(scale(-1.0, w))
}

/// Orthogonality defect $\max_{ij}|(R^\top R - E)_{ij}|$.
pub fn orthogonality_defect(R: &Mat3) -> f64 {
    lin_comb(1.0, &mat_t_mul(R, R), -1.0, &IDENTITY3)
        .iter()
        .flatten()
        .fold(0.0, |m, v| m.max(v.abs()))
}

/// Tolerance of [`is_rotation`] on $\max_{ij}|(R^\top R - E)_{ij}|$.
pub const ROTATION_TOLERANCE: f64 = 1e-9;

/// Whether $R$ is a rotation given by a user: finite, orthonormal to
/// [`ROTATION_TOLERANCE`] ([`orthogonality_defect`]) and right-handed ($\det R > 0$).
pub fn is_rotation(R: &Mat3) -> bool {
    orthogonality_defect(R) <= ROTATION_TOLERANCE && super::mat3::determinant(R) > 0.0
}

/// Angle of the rotation $Q$ about a unit axis $e$, measured in the plane of the normal
/// pair $(n_1, n_2)$ of $e$ ([`super::mat3::normal_pair`]):
/// $\operatorname{atan2}(n_2\cdot Qn_1,\ n_1\cdot Qn_1)$. Exact for $Q = \exp(\varphi\tilde e)$,
/// $\varphi \in (-\pi, \pi]$.
pub fn angle_about(Q: &Mat3, normals: &[Vec3; 2]) -> f64 {
    let qn = mat_vec(Q, normals[0]);
    dot(normals[1], qn).atan2(dot(normals[0], qn))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::mat3::{add, frobenius_norm, mat_t_vec, sub, transpose, unit};
    use rand::{rngs::StdRng, Rng, SeedableRng};

    fn rand3(rng: &mut StdRng, s: f64) -> Vec3 {
        [
            rng.gen_range(-s..s),
            rng.gen_range(-s..s),
            rng.gen_range(-s..s),
        ]
    }

    fn dist(A: &Mat3, B: &Mat3) -> f64 {
        frobenius_norm(&lin_comb(1.0, A, -1.0, B))
    }

    /// $|R^\top R - E|_F$ (the Frobenius form of [`orthogonality_defect`]).
    fn frobenius_defect(R: &Mat3) -> f64 {
        dist(&mat_t_mul(R, R), &IDENTITY3)
    }

    /// exp ∘ log = id and log ∘ exp = id, for generic, tiny and near-π angles.
    #[test]
    fn exp_log_roundtrip_including_near_pi_and_tiny_angles() {
        let mut rng = StdRng::seed_from_u64(0);
        for k in 0..400 {
            let mut w = rand3(&mut rng, 2.0);
            if k % 4 == 0 {
                // Near θ = π (the delicate branch of log): π − 1e-7 k.
                let n = norm(w);
                w = scale((std::f64::consts::PI - 1e-7 * k as f64) / n, w);
            }
            if k % 7 == 0 {
                w = scale(1e-6, w);
            }
            if k % 11 == 0 {
                w = scale(1e-12, w);
            }
            let R = exp(w);
            assert!(frobenius_defect(&R) < 1e-14);
            let w2 = log(&R);
            let err = norm(sub(w, w2));
            assert!(err < 1e-12 * (1.0 + norm(w)), "k={k} w={w:?} w2={w2:?}");
            assert!(dist(&exp(w2), &R) < 1e-14);
        }
        // Exactly π (the sign of the axis is free: either ±π k).
        for axis in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, -2.0, 2.0]] {
            let R = from_axis_angle(axis, std::f64::consts::PI).expect("axis");
            let w = log(&R);
            assert!((norm(w) - std::f64::consts::PI).abs() < 1e-14, "{w:?}");
            assert!(dist(&exp(w), &R) < 1e-14);
        }
        assert_eq!(log(&IDENTITY3), [0.0; 3]);
        // mbs cases: tiny, generic, near π.
        for phi in [
            [1e-9, -2e-9, 0.5e-9],
            [0.3, -0.2, 0.9],
            [0.0, 0.0, std::f64::consts::PI - 1e-7],
            [2.0, 1.0, -1.5],
        ] {
            let l = log(&exp(phi));
            assert!(
                norm(sub(l, phi)) < 1e-12 * (1.0 + norm(phi)),
                "{phi:?} -> {l:?}"
            );
        }
    }

    #[test]
    fn axis_angle_and_rotation_z() {
        let R = from_axis_angle([0.0, 0.0, 2.0], 0.7).expect("axis");
        assert!(dist(&R, &rotation_z(0.7)) < 1e-15);
        assert!(from_axis_angle([0.0; 3], 1.0).is_none());
        assert!(is_rotation(&R));
        assert!(!is_rotation(&[
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, -1.0]
        ]));
        assert!(!is_rotation(&lin_comb(1.0 + 1e-8, &R, 0.0, &R)));
        assert!(!is_rotation(&[
            [f64::NAN, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0]
        ]));
        let e = unit([1.0, 2.0, -0.5]).expect("nonzero");
        let n = crate::geometry::mat3::normal_pair(e);
        for phi in [-3.0, -0.4, 0.0, 1.2, 3.1] {
            let Q = from_axis_angle(e, phi).expect("axis");
            assert!((angle_about(&Q, &n) - phi).abs() < 1e-14);
        }
    }

    #[test]
    fn cayley_orthogonal_second_order_and_inverse() {
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..50 {
            let w = rand3(&mut rng, 1.0);
            assert!(frobenius_defect(&cayley(w)) < 1e-14);
            assert!(orthogonality_defect(&cayley(w)) <= frobenius_defect(&cayley(w)));
            // cay(hω) − exp(hω) = O(h³): the ratio for h and h/2 is about 8.
            let e1 = dist(&cayley(scale(0.01, w)), &exp(scale(0.01, w)));
            let e2 = dist(&cayley(scale(0.005, w)), &exp(scale(0.005, w)));
            if e1 > 1e-12 {
                assert!((e1 / e2 - 8.0).abs() < 0.1, "{}", e1 / e2);
            }
            // Inverse, also for large arguments (cay is a bijection onto rotations by < π).
            let big = scale(30.0, w);
            for v in [w, big, scale(1e-9, w)] {
                let back = cayley_inverse(&cayley(v)).expect("not a half turn");
                assert!(
                    norm(sub(back, v)) < 1e-13 * (1.0 + norm(v) * norm(v)),
                    "{v:?}"
                );
            }
            // The definition (E − ½ω̃)⁻¹(E + ½ω̃).
            let W = hat(w);
            let P = lin_comb(1.0, &IDENTITY3, 0.5, &W);
            let M = lin_comb(1.0, &IDENTITY3, -0.5, &W);
            let C = mat_mul(&crate::geometry::mat3::inverse(&M).expect("regular"), &P);
            assert!(dist(&C, &cayley(w)) < 1e-14);
        }
        assert!(cayley_inverse(&rotation_z(std::f64::consts::PI)).is_none());
    }

    /// The tangent maps against central differences, and their inverses.
    #[test]
    fn dexp_matches_finite_differences() {
        let mut rng = StdRng::seed_from_u64(2);
        for k in 0..40 {
            let mut w = rand3(&mut rng, 2.5);
            if k % 5 == 0 {
                w = scale(1e-4, w);
            }
            let d = rand3(&mut rng, 1.0);
            let h = 1e-6;
            let Rp = exp(add(w, scale(h, d)));
            let Rm = exp(add(w, scale(-h, d)));
            let dR = lin_comb(0.5 / h, &Rp, -0.5 / h, &Rm);
            let R = exp(w);
            // Left trivialised: vee(Rᵀ Ṙ) = J_r δ; right trivialised: vee(Ṙ Rᵀ) = J_l δ.
            let left = vee(&mat_t_mul(&R, &dR));
            let right = vee(&mat_mul(&dR, &transpose(&R)));
            // Central differences: O(h²) ≈ 1e-12 truncation, ~1e-10 round-off.
            assert!(norm(sub(left, mat_vec(&dexp_left(w), d))) < 1e-8);
            assert!(norm(sub(right, mat_vec(&dexp_right(w), d))) < 1e-8);
            for (J, Ji) in [
                (dexp_left(w), dexp_left_inv(w)),
                (dexp_right(w), dexp_right_inv(w)),
            ] {
                assert!(dist(&mat_mul(&J, &Ji), &IDENTITY3) < 1e-12);
            }
            // J_l = R J_r, i.e. Rᵀ J_l = J_r.
            assert!(dist(&mat_t_mul(&R, &dexp_right(w)), &dexp_left(w)) < 1e-14);
            assert!(norm(sub(mat_t_vec(&R, right), left)) < 1e-8);
        }
    }
}
