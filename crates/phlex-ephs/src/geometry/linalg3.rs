//! Fixed-size 3-vectors, 3×3 and 6×6 matrices (row-major arrays) used by the Lie-group
//! toolkit. Plain functions on arrays keep the formulas of seed 001 §3 readable.

/// A vector of $\mathbb R^3$.
pub type Vec3 = [f64; 3];
/// A 3×3 matrix, row-major (`m[i][j]` is row `i`, column `j`).
pub type Mat3 = [[f64; 3]; 3];
/// A vector of $\mathbb R^6$ (a Lie-algebra element $(\omega, \nu)$ or a covector
/// $(f_\omega, f_\nu)$ of $\mathfrak{se}(3)$).
pub type Vec6 = [f64; 6];
/// A 6×6 matrix, row-major.
pub type Mat6 = [[f64; 6]; 6];

/// The 3×3 identity $E$.
pub const I3: Mat3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// $a + b$.
pub fn add3(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
/// $a - b$.
pub fn sub3(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
/// $s a$.
pub fn scale3(s: f64, a: Vec3) -> Vec3 {
    [s * a[0], s * a[1], s * a[2]]
}
/// $a \cdot b$.
pub fn dot3(a: Vec3, b: Vec3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
/// $a \times b$.
pub fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
/// $|a|$.
pub fn norm3(a: Vec3) -> f64 {
    dot3(a, a).sqrt()
}
/// $A b$.
pub fn mat_vec(A: &Mat3, b: Vec3) -> Vec3 {
    [dot3(A[0], b), dot3(A[1], b), dot3(A[2], b)]
}
/// $A^\top b$.
pub fn mat_t_vec(A: &Mat3, b: Vec3) -> Vec3 {
    [
        A[0][0] * b[0] + A[1][0] * b[1] + A[2][0] * b[2],
        A[0][1] * b[0] + A[1][1] * b[1] + A[2][1] * b[2],
        A[0][2] * b[0] + A[1][2] * b[1] + A[2][2] * b[2],
    ]
}
/// $AB$.
pub fn mat_mul(A: &Mat3, B: &Mat3) -> Mat3 {
    let mut C = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            C[i][j] = A[i][0] * B[0][j] + A[i][1] * B[1][j] + A[i][2] * B[2][j];
        }
    }
    C
}
/// $A^\top$.
pub fn transpose3(A: &Mat3) -> Mat3 {
    let mut T = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            T[i][j] = A[j][i];
        }
    }
    T
}
/// $\alpha A + \beta B$.
pub fn lin3(alpha: f64, A: &Mat3, beta: f64, B: &Mat3) -> Mat3 {
    let mut C = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            C[i][j] = alpha * A[i][j] + beta * B[i][j];
        }
    }
    C
}
/// Inverse of a 3×3 matrix by the adjugate; `None` if $|\det A| \le 10^{-300}$.
pub fn inv3(A: &Mat3) -> Option<Mat3> {
    let c = [cross(A[1], A[2]), cross(A[2], A[0]), cross(A[0], A[1])];
    let det = dot3(A[0], c[0]);
    if !(det.abs() > 1e-300) {
        return None;
    }
    // Columns of the inverse are the cross products divided by det.
    let mut Ai = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            Ai[i][j] = c[j][i] / det;
        }
    }
    Some(Ai)
}
/// Tilde (hat) map: $\tilde\omega v = \omega \times v$.
pub fn hat3(w: Vec3) -> Mat3 {
    [[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]]
}
/// Inverse of [`hat3`] on skew matrices: $\mathrm{vee}(S) = (S_{32}, S_{13}, S_{21})$
/// (seed 001 summary §2). For a non-skew argument this takes the skew part's vector
/// $\tfrac12(S - S^\top)^\vee$.
pub fn vee3(S: &Mat3) -> Vec3 {
    [
        0.5 * (S[2][1] - S[1][2]),
        0.5 * (S[0][2] - S[2][0]),
        0.5 * (S[1][0] - S[0][1]),
    ]
}
/// Frobenius norm $|A|_F$.
pub fn fro3(A: &Mat3) -> f64 {
    A.iter().flatten().map(|v| v * v).sum::<f64>().sqrt()
}
/// $Ab$ for 6×6.
pub fn mat6_vec(A: &Mat6, b: &Vec6) -> Vec6 {
    let mut y = [0.0; 6];
    for i in 0..6 {
        y[i] = (0..6).map(|j| A[i][j] * b[j]).sum();
    }
    y
}
/// $AB$ for 6×6.
pub fn mat6_mul(A: &Mat6, B: &Mat6) -> Mat6 {
    let mut C = [[0.0; 6]; 6];
    for i in 0..6 {
        for j in 0..6 {
            C[i][j] = (0..6).map(|k| A[i][k] * B[k][j]).sum();
        }
    }
    C
}
/// $A^\top$ for 6×6.
pub fn transpose6(A: &Mat6) -> Mat6 {
    let mut T = [[0.0; 6]; 6];
    for i in 0..6 {
        for j in 0..6 {
            T[i][j] = A[j][i];
        }
    }
    T
}
/// The 6×6 identity.
pub fn identity6() -> Mat6 {
    let mut I = [[0.0; 6]; 6];
    for (i, row) in I.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    I
}
/// Splits $(a, b) \in \mathbb R^6$ into its two 3-vectors.
pub fn split6(x: &Vec6) -> (Vec3, Vec3) {
    ([x[0], x[1], x[2]], [x[3], x[4], x[5]])
}
/// Joins two 3-vectors into $(a, b) \in \mathbb R^6$.
pub fn join6(a: Vec3, b: Vec3) -> Vec6 {
    [a[0], a[1], a[2], b[0], b[1], b[2]]
}
/// Inverse of an $n\times n$ row-major matrix (Gauss–Jordan with partial pivoting), or
/// `None` if a pivot falls below $10^{-14}$ times the largest entry.
pub fn invert_dense(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if !(scale > 0.0) {
        return None;
    }
    let mut m = a.to_vec();
    let mut inv = vec![0.0; n * n];
    for i in 0..n {
        inv[i * n + i] = 1.0;
    }
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| m[i * n + c].abs().total_cmp(&m[j * n + c].abs()))
            .unwrap_or(c);
        if !(m[p * n + c].abs() > 1e-14 * scale) {
            return None;
        }
        if p != c {
            for j in 0..n {
                m.swap(p * n + j, c * n + j);
                inv.swap(p * n + j, c * n + j);
            }
        }
        let d = 1.0 / m[c * n + c];
        for j in 0..n {
            m[c * n + j] *= d;
            inv[c * n + j] *= d;
        }
        for i in 0..n {
            if i != c {
                let f = m[i * n + c];
                if f != 0.0 {
                    for j in 0..n {
                        m[i * n + j] -= f * m[c * n + j];
                        inv[i * n + j] -= f * inv[c * n + j];
                    }
                }
            }
        }
    }
    Some(inv)
}
