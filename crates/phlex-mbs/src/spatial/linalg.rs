//! Small 3×3 helpers of the spatial layer (rotations as row-major `[[f64; 3]; 3]`).
pub use crate::rigid_body_3d::{axis_angle, cross, skew};

/// A 3×3 matrix.
pub type Mat3 = [[f64; 3]; 3];

/// $a\cdot b$.
pub fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// $|a|$.
pub fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

/// $a - b$.
pub fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// $a + s\,b$.
pub fn axpy(a: [f64; 3], s: f64, b: [f64; 3]) -> [f64; 3] {
    [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]]
}

/// $s\,a$.
pub fn scale(s: f64, a: [f64; 3]) -> [f64; 3] {
    [s * a[0], s * a[1], s * a[2]]
}

/// $A v$.
pub fn mul(a: &Mat3, v: [f64; 3]) -> [f64; 3] {
    [dot(a[0], v), dot(a[1], v), dot(a[2], v)]
}

/// $A^\top v$.
pub fn mul_t(a: &Mat3, v: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|j| a[0][j] * v[0] + a[1][j] * v[1] + a[2][j] * v[2])
}

/// $A B$.
pub fn matmul(a: &Mat3, b: &Mat3) -> Mat3 {
    let mut c = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            c[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    c
}

/// $A^\top B$.
pub fn matmul_tn(a: &Mat3, b: &Mat3) -> Mat3 {
    let mut c = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            c[i][j] = (0..3).map(|k| a[k][i] * b[k][j]).sum();
        }
    }
    c
}

/// $A^\top$.
pub fn transpose(a: &Mat3) -> Mat3 {
    [0, 1, 2].map(|i| [a[0][i], a[1][i], a[2][i]])
}

/// Column `j` of `a`.
pub fn col(a: &Mat3, j: usize) -> [f64; 3] {
    [a[0][j], a[1][j], a[2][j]]
}

/// Unit vector along `a`, `None` if `a` vanishes or is not finite.
pub fn unit(a: [f64; 3]) -> Option<[f64; 3]> {
    let n = norm(a);
    (n > 0.0 && n.is_finite()).then(|| scale(1.0 / n, a))
}

/// An orthonormal pair $(n_1, n_2)$ with $e\times n_1 = n_2$ (so $(n_1, n_2, e)$ is
/// right-handed) for a unit vector `e`.
pub fn normals(e: [f64; 3]) -> [[f64; 3]; 2] {
    // the coordinate axis least aligned with e
    let k = (0..3)
        .min_by(|&a, &b| e[a].abs().total_cmp(&e[b].abs()))
        .unwrap_or(0);
    let mut t = [0.0; 3];
    t[k] = 1.0;
    let n1 = unit(sub(t, scale(dot(t, e), e))).unwrap_or([1.0, 0.0, 0.0]);
    [n1, cross(e, n1)]
}

/// $\mathrm{vee}\big(\tfrac12(Q - Q^\top)\big) = \sin\varphi\;k$ for $Q = \exp(\varphi\[k\]_\times)$:
/// the small-angle rotation vector of `q` (zero iff $Q = I$ near the identity).
pub fn rotation_defect(q: &Mat3) -> [f64; 3] {
    [
        0.5 * (q[2][1] - q[1][2]),
        0.5 * (q[0][2] - q[2][0]),
        0.5 * (q[1][0] - q[0][1]),
    ]
}

/// $\exp([\varphi]_\times)$ (Rodrigues).
pub fn exp_so3(phi: [f64; 3]) -> Mat3 {
    let a = norm(phi);
    if a == 0.0 {
        return crate::spatial::IDENTITY3;
    }
    axis_angle(phi, a)
}

/// Angle of rotation of `q` about the unit axis `e`, measured in the plane of the normals
/// $(n_1, n_2)$: $\operatorname{atan2}(n_2\cdot Qn_1,\ n_1\cdot Qn_1)$.
pub fn angle_about(q: &Mat3, n: &[[f64; 3]; 2]) -> f64 {
    let qn = mul(q, n[0]);
    dot(n[1], qn).atan2(dot(n[0], qn))
}

/// Rotation vector $\varphi$ with $\exp([\varphi]_\times) = R$, $|\varphi|\le\pi$ (through the
/// unit quaternion, robust for every angle).
pub fn log_so3(r: &Mat3) -> [f64; 3] {
    let tr = r[0][0] + r[1][1] + r[2][2];
    // Shepperd's method: the largest of 4w², 4x², 4y², 4z².
    let (w, v) = if tr >= r[0][0].max(r[1][1]).max(r[2][2]) {
        let w = 0.5 * (1.0 + tr).max(0.0).sqrt();
        let f = 0.25 / w;
        (
            w,
            [
                (r[2][1] - r[1][2]) * f,
                (r[0][2] - r[2][0]) * f,
                (r[1][0] - r[0][1]) * f,
            ],
        )
    } else {
        let i = if r[0][0] >= r[1][1] && r[0][0] >= r[2][2] {
            0
        } else if r[1][1] >= r[2][2] {
            1
        } else {
            2
        };
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let qi = 0.5 * (1.0 + r[i][i] - r[j][j] - r[k][k]).max(0.0).sqrt();
        let f = 0.25 / qi;
        let mut v = [0.0; 3];
        v[i] = qi;
        v[j] = (r[j][i] + r[i][j]) * f;
        v[k] = (r[k][i] + r[i][k]) * f;
        ((r[k][j] - r[j][k]) * f, v)
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    /// log inverts exp for small, generic and near-π angles (round-off level).
    #[test]
    fn log_inverts_exp() {
        for phi in [
            [1e-9, -2e-9, 0.5e-9],
            [0.3, -0.2, 0.9],
            [0.0, 0.0, std::f64::consts::PI - 1e-7],
            [2.0, 1.0, -1.5],
        ] {
            let l = log_so3(&exp_so3(phi));
            for k in 0..3 {
                assert!(
                    (l[k] - phi[k]).abs() < 1e-12 * (1.0 + norm(phi)),
                    "{phi:?} -> {l:?}"
                );
            }
        }
    }
}
