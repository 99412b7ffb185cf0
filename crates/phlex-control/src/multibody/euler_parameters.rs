//! Euler parameters (thesis 002 §2.5.2, eqs. (2.190)–(2.200)).
//!
//! `θ = (θ₀, θ₁, θ₂, θ₃) = (cos(ϑ/2), v sin(ϑ/2))` for a rotation by `ϑ` about
//! the unit axis `v`, with the normalisation constraint `θᵀθ − 1 = 0` (2.192).
//! The rotation matrix is `A = E Ēᵀ` (2.193) with
//!
//! ```text
//! E = [[−θ₁, θ₀, −θ₃, θ₂], [−θ₂, θ₃, θ₀, −θ₁], [−θ₃, −θ₂, θ₁, θ₀]]   (2.194)
//! Ē = [[−θ₁, θ₀, θ₃, −θ₂], [−θ₂, −θ₃, θ₀, θ₁], [−θ₃, θ₂, −θ₁, θ₀]]   (2.195)
//! ```
//!
//! and the angular velocities `ω = G θ̇`, `ω̄ = Ḡ θ̇` (global and body
//! frame), `G = 2E`, `Ḡ = 2Ē` (2.196)–(2.199). Identities used by the
//! dynamics: `Ḡ θ = 0`, `Ḡ̇ θ̇ = 0`, `Ḡ Ḡᵀ = 4 I` on the unit sphere.

use phlex_core::geometry::{Mat3, Vec3};

/// 3×4 matrix, row major (the Euler-parameter matrices `E`, `Ē`, `G`, `Ḡ`).
pub type M34 = [[f64; 4]; 3];

/// `E(θ)` (eq. (2.194)).
pub fn e_matrix(th: &[f64]) -> M34 {
    let (t0, t1, t2, t3) = (th[0], th[1], th[2], th[3]);
    [[-t1, t0, -t3, t2], [-t2, t3, t0, -t1], [-t3, -t2, t1, t0]]
}

/// `Ē(θ)` (eq. (2.195)).
pub fn ebar_matrix(th: &[f64]) -> M34 {
    let (t0, t1, t2, t3) = (th[0], th[1], th[2], th[3]);
    [[-t1, t0, t3, -t2], [-t2, -t3, t0, t1], [-t3, t2, -t1, t0]]
}

/// `Ḡ(θ) = 2Ē(θ)` (eq. (2.199)): `ω̄ = Ḡ θ̇`. Linear in its argument, so
/// `Ḡ̇ = gbar(θ̇)`.
pub fn gbar(th: &[f64]) -> M34 {
    let mut g = ebar_matrix(th);
    for row in g.iter_mut() {
        for v in row.iter_mut() {
            *v *= 2.0;
        }
    }
    g
}

/// `G(θ) = 2E(θ)` (eq. (2.198)): `ω = G θ̇`.
pub fn g_matrix(th: &[f64]) -> M34 {
    let mut g = e_matrix(th);
    for row in g.iter_mut() {
        for v in row.iter_mut() {
            *v *= 2.0;
        }
    }
    g
}

/// Rotation matrix `A = E Ēᵀ` (eq. (2.193)), body to global.
pub fn rotation(th: &[f64]) -> Mat3 {
    let e = e_matrix(th);
    let eb = ebar_matrix(th);
    let mut a = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            a[i][j] = (0..4).map(|k| e[i][k] * eb[j][k]).sum();
        }
    }
    a
}

/// Euler parameters of the rotation by `angle` about `axis` (need not be
/// unit; a zero axis gives the identity), eq. (2.190).
pub fn from_axis_angle(axis: [f64; 3], angle: f64) -> [f64; 4] {
    let n = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    if n == 0.0 {
        return [1.0, 0.0, 0.0, 0.0];
    }
    let (s, c) = (0.5 * angle).sin_cos();
    [c, s * axis[0] / n, s * axis[1] / n, s * axis[2] / n]
}

/// Rotation angle about the global `z` axis of a planar orientation
/// `θ = (cos φ/2, 0, 0, sin φ/2)`: `φ = 2 atan2(θ₃, θ₀)` in `(−2π, 2π]`.
pub fn planar_angle(th: &[f64]) -> f64 {
    2.0 * th[3].atan2(th[0])
}

/// `θ̇ = ¼ Ḡᵀ ω̄`: the Euler-parameter rate of a unit `θ` turning with body
/// angular velocity `ω̄` (the inverse of `ω̄ = Ḡθ̇` on the tangent space
/// `θᵀθ̇ = 0`, using `ḠḠᵀ = 4I` and `Ḡθ = 0`).
pub fn rate_from_body_angular_velocity(th: &[f64], omega_bar: [f64; 3]) -> [f64; 4] {
    let g = gbar(th);
    let mut r = [0.0; 4];
    for j in 0..4 {
        r[j] = 0.25 * (g[0][j] * omega_bar[0] + g[1][j] * omega_bar[1] + g[2][j] * omega_bar[2]);
    }
    r
}

/// `(3×3)(3×4)`.
pub(crate) fn m3_m34(a: &Mat3, b: &M34) -> M34 {
    let mut c = [[0.0; 4]; 3];
    for i in 0..3 {
        for j in 0..4 {
            c[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    c
}

/// `Bᵀ v` for a 3×4 `B`.
pub(crate) fn m34t_v(b: &M34, v: Vec3) -> [f64; 4] {
    let mut r = [0.0; 4];
    for j in 0..4 {
        r[j] = b[0][j] * v[0] + b[1][j] * v[1] + b[2][j] * v[2];
    }
    r
}

/// `B w` for a 3×4 `B`.
pub(crate) fn m34_v(b: &M34, w: &[f64]) -> Vec3 {
    [
        (0..4).map(|j| b[0][j] * w[j]).sum(),
        (0..4).map(|j| b[1][j] * w[j]).sum(),
        (0..4).map(|j| b[2][j] * w[j]).sum(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use phlex_core::geometry::mat3::{hat, mat_mul, mat_t_vec, mat_vec};

    /// `A` orthogonal with det 1, equal to Rodrigues' formula (2.187), and the
    /// identities `Ḡθ = 0`, `ḠḠᵀ = 4I`, `ω̄ = Ḡθ̇` for `θ̇ = ¼Ḡᵀω̄`.
    #[test]
    fn rotation_identities() {
        let axis = [0.3, -0.5, 0.8];
        let ang = 1.234;
        let th = from_axis_angle(axis, ang);
        let a = rotation(&th);
        let ata = mat_mul(
            &[
                [a[0][0], a[1][0], a[2][0]],
                [a[0][1], a[1][1], a[2][1]],
                [a[0][2], a[1][2], a[2][2]],
            ],
            &a,
        );
        for i in 0..3 {
            for j in 0..3 {
                let d = if i == j { 1.0 } else { 0.0 };
                assert!((ata[i][j] - d).abs() < 1e-15);
            }
        }
        // Rodrigues: A = I + sin ϑ ṽ + 2 sin²(ϑ/2) ṽ²
        let n = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
        let v = [axis[0] / n, axis[1] / n, axis[2] / n];
        let vt = hat(v);
        let vt2 = mat_mul(&vt, &vt);
        let s2 = (0.5 * ang).sin().powi(2);
        for i in 0..3 {
            for j in 0..3 {
                let d = if i == j { 1.0 } else { 0.0 };
                let r = d + ang.sin() * vt[i][j] + 2.0 * s2 * vt2[i][j];
                assert!((a[i][j] - r).abs() < 1e-15);
            }
        }
        // the axis is invariant
        let av = mat_vec(&a, v);
        let atv = mat_t_vec(&a, v);
        for k in 0..3 {
            assert!((av[k] - v[k]).abs() < 1e-15 && (atv[k] - v[k]).abs() < 1e-15);
        }
        let g = gbar(&th);
        let gth = m34_v(&g, &th);
        assert!(gth.iter().all(|x| x.abs() < 1e-15));
        for i in 0..3 {
            for j in 0..3 {
                let s: f64 = (0..4).map(|k| g[i][k] * g[j][k]).sum();
                let d = if i == j { 4.0 } else { 0.0 };
                assert!((s - d).abs() < 1e-14);
            }
        }
        let w = [0.7, -1.1, 2.5];
        let thd = rate_from_body_angular_velocity(&th, w);
        let w2 = m34_v(&g, &thd);
        for k in 0..3 {
            assert!((w2[k] - w[k]).abs() < 1e-14);
        }
        let thz = from_axis_angle([0.0, 0.0, 2.0], -2.5);
        assert!((planar_angle(&thz) + 2.5).abs() < 1e-15);
    }
}
