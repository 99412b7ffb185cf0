//! 3-vectors and 3×3 matrices as plain arrays: `[f64; 3]` and row-major `[[f64; 3]; 3]`
//! (`A[i][j]` is row $i$, column $j$).
//!
//! Plain functions on arrays keep the formulas of the rigid-body models readable (seed 001
//! §3, paper 000 Remark 4, thesis 002 §2.5) and cost nothing at run time. The tilde (hat)
//! map $\tilde a$ with $\tilde a b = a\times b$ is [`hat`]; its inverse on skew matrices is
//! [`vee`].

/// A vector of $\mathbb R^3$.
pub type Vec3 = [f64; 3];

/// A 3×3 matrix, row-major (`A[i][j]` is row `i`, column `j`).
pub type Mat3 = [[f64; 3]; 3];

/// The 3×3 identity $E$.
pub const IDENTITY3: Mat3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// $a + b$.
pub fn add(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// $a - b$.
pub fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// $s\,a$.
pub fn scale(s: f64, a: Vec3) -> Vec3 {
    [s * a[0], s * a[1], s * a[2]]
}

/// $a + s\,b$.
pub fn axpy(a: Vec3, s: f64, b: Vec3) -> Vec3 {
    [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]]
}

/// $a\cdot b$.
pub fn dot(a: Vec3, b: Vec3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// $a\times b = \tilde a\,b$.
pub fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Euclidean norm $|a|$.
pub fn norm(a: Vec3) -> f64 {
    dot(a, a).sqrt()
}

/// The unit vector $a/|a|$; `None` if $a$ vanishes or is not finite.
pub fn unit(a: Vec3) -> Option<Vec3> {
    let n = norm(a);
    (n > 0.0 && n.is_finite()).then(|| scale(1.0 / n, a))
}

/// Outer product $a b^\top$.
pub fn outer(a: Vec3, b: Vec3) -> Mat3 {
    a.map(|ai| b.map(|bj| ai * bj))
}

/// An orthonormal pair $(n_1, n_2)$ normal to the unit vector $e$ with $e\times n_1 = n_2$,
/// so $(n_1, n_2, e)$ is a right-handed frame. $n_1$ is the coordinate axis least aligned
/// with $e$, made orthogonal to $e$ (Gram–Schmidt).
pub fn normal_pair(e: Vec3) -> [Vec3; 2] {
    let k = (0..3)
        .min_by(|&a, &b| e[a].abs().total_cmp(&e[b].abs()))
        .unwrap_or(0);
    let mut t = [0.0; 3];
    t[k] = 1.0;
    let n1 = unit(axpy(t, -dot(t, e), e)).unwrap_or([1.0, 0.0, 0.0]);
    [n1, cross(e, n1)]
}

/// Tilde (hat) map: the skew matrix $\tilde a = \begin{bmatrix}0 & -a_3 & a_2\\ a_3 & 0 &
/// -a_1\\ -a_2 & a_1 & 0\end{bmatrix}$ with $\tilde a\,b = a\times b$ (seed 001 summary §2;
/// $\[a\]_\times$ in paper 000).
pub fn hat(a: Vec3) -> Mat3 {
    [[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]]
}

/// Inverse of [`hat`] on skew matrices: $\mathrm{vee}(S) = (S_{32}, S_{13}, S_{21})$. For any
/// argument it returns the vector of the skew part, $\big(\tfrac12(S - S^\top)\big)^\vee$; for
/// a rotation $Q = \exp(\varphi\tilde k)$ this is $\sin\varphi\,k$.
pub fn vee(S: &Mat3) -> Vec3 {
    [
        0.5 * (S[2][1] - S[1][2]),
        0.5 * (S[0][2] - S[2][0]),
        0.5 * (S[1][0] - S[0][1]),
    ]
}

/// $A b$.
pub fn mat_vec(A: &Mat3, b: Vec3) -> Vec3 {
    [dot(A[0], b), dot(A[1], b), dot(A[2], b)]
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

/// $A^\top B$.
pub fn mat_t_mul(A: &Mat3, B: &Mat3) -> Mat3 {
    let mut C = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            C[i][j] = A[0][i] * B[0][j] + A[1][i] * B[1][j] + A[2][i] * B[2][j];
        }
    }
    C
}

/// $A^\top$.
pub fn transpose(A: &Mat3) -> Mat3 {
    [0, 1, 2].map(|i| [A[0][i], A[1][i], A[2][i]])
}

/// Column `j` of $A$.
pub fn column(A: &Mat3, j: usize) -> Vec3 {
    [A[0][j], A[1][j], A[2][j]]
}

/// The matrix stored row-major in `x[0..9]` ($A_{ij}$ = `x[3 i + j]`).
pub fn from_row_major(x: &[f64]) -> Mat3 {
    [[x[0], x[1], x[2]], [x[3], x[4], x[5]], [x[6], x[7], x[8]]]
}

/// Writes $A$ row-major into `x[0..9]` (inverse of [`from_row_major`]).
pub fn store_row_major(A: &Mat3, x: &mut [f64]) {
    for i in 0..3 {
        x[3 * i..3 * i + 3].copy_from_slice(&A[i]);
    }
}

/// $\alpha A + \beta B$.
pub fn lin_comb(alpha: f64, A: &Mat3, beta: f64, B: &Mat3) -> Mat3 {
    let mut C = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            C[i][j] = alpha * A[i][j] + beta * B[i][j];
        }
    }
    C
}

/// The diagonal matrix $\mathrm{diag}(d_1, d_2, d_3)$.
pub fn diagonal(d: Vec3) -> Mat3 {
    [[d[0], 0.0, 0.0], [0.0, d[1], 0.0], [0.0, 0.0, d[2]]]
}

/// $\operatorname{tr}A$.
pub fn trace(A: &Mat3) -> f64 {
    A[0][0] + A[1][1] + A[2][2]
}

/// $\det A = a_1\cdot(a_2\times a_3)$ for the rows $a_i$ of $A$.
pub fn determinant(A: &Mat3) -> f64 {
    dot(A[0], cross(A[1], A[2]))
}

/// Inverse by the adjugate, $A^{-1} = \operatorname{adj}A/\det A$: the columns of $A^{-1}$
/// are $a_2\times a_3$, $a_3\times a_1$, $a_1\times a_2$ divided by $\det A$ ($a_i$ the rows).
///
/// `None` if $A$ is singular to working precision: $|\det A| \le 10^{-14}\,|a_1||a_2||a_3|$
/// (Hadamard's bound $|\det A| \le \prod|a_i|$ makes the test independent of units), or if
/// an entry is not finite.
pub fn inverse(A: &Mat3) -> Option<Mat3> {
    let c = [cross(A[1], A[2]), cross(A[2], A[0]), cross(A[0], A[1])];
    let det = dot(A[0], c[0]);
    let bound = norm(A[0]) * norm(A[1]) * norm(A[2]);
    if !(det.abs() > 1e-14 * bound && bound.is_finite()) {
        return None;
    }
    let mut Ai = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            Ai[i][j] = c[j][i] / det;
        }
    }
    Some(Ai)
}

/// Frobenius norm $|A|_F = \big(\sum_{ij}A_{ij}^2\big)^{1/2}$.
pub fn frobenius_norm(A: &Mat3) -> f64 {
    A.iter().flatten().map(|v| v * v).sum::<f64>().sqrt()
}

/// Eigenvalues of a symmetric 3×3 matrix, ascending, by cyclic Jacobi rotations (Golub &
/// Van Loan §8.5): each rotation $A \leftarrow G^\top AG$ in the plane $(p, q)$ with
/// $t = \tan\phi = \operatorname{sgn}\theta/(|\theta| + \sqrt{\theta^2 + 1})$,
/// $\theta = (A_{qq} - A_{pp})/(2A_{pq})$, zeroes $A_{pq}$; the sweeps converge quadratically
/// and stop when the off-diagonal part is below $10^{-18}|A|_F$. Every eigenvalue is then
/// accurate to a few ulps of $|A|_F$, also for clustered eigenvalues (where closed-form
/// trigonometric formulas lose half the digits). Exact for a diagonal matrix. Only the
/// upper triangle and the diagonal are read.
pub fn symmetric_eigenvalues(A: &Mat3) -> Vec3 {
    let mut a: Mat3 =
        std::array::from_fn(|i| std::array::from_fn(|j| if i <= j { A[i][j] } else { A[j][i] }));
    let scale = frobenius_norm(&a);
    for _sweep in 0..50 {
        let off = (a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2]).sqrt();
        if !(off > 1e-18 * scale) {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            let apq = a[p][q];
            if apq == 0.0 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * apq);
            let t = if theta.abs() > 1e150 {
                0.5 / theta
            } else {
                theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt())
            };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            a[p][p] -= t * apq;
            a[q][q] += t * apq;
            a[p][q] = 0.0;
            a[q][p] = 0.0;
            let r = 3 - p - q;
            let (arp, arq) = (a[r][p], a[r][q]);
            a[r][p] = c * arp - s * arq;
            a[p][r] = a[r][p];
            a[r][q] = s * arp + c * arq;
            a[q][r] = a[r][q];
        }
    }
    let mut e = [a[0][0], a[1][1], a[2][2]];
    e.sort_by(f64::total_cmp);
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(A: &Mat3, B: &Mat3, tol: f64) -> bool {
        frobenius_norm(&lin_comb(1.0, A, -1.0, B)) <= tol
    }

    #[test]
    fn products_transpose_and_hat() {
        let A = [[1.0, 2.0, -1.0], [0.5, -3.0, 2.0], [4.0, 1.0, 0.25]];
        let B = [[0.3, -1.0, 2.0], [1.5, 0.2, -0.7], [-2.0, 0.4, 1.1]];
        let b = [0.7, -1.3, 2.1];
        assert!(close(
            &mat_t_mul(&A, &B),
            &mat_mul(&transpose(&A), &B),
            1e-15
        ));
        assert_eq!(mat_t_vec(&A, b), mat_vec(&transpose(&A), b));
        assert_eq!(column(&A, 1), [2.0, -3.0, 1.0]);
        let mut x = [0.0; 10];
        store_row_major(&A, &mut x[1..]);
        assert_eq!(from_row_major(&x[1..]), A);
        assert_eq!(x[2], 2.0);
        assert_eq!(mat_vec(&hat(b), A[0]), cross(b, A[0]));
        assert_eq!(vee(&hat(b)), b);
        assert!(dot(b, cross(b, A[1])).abs() < 1e-15);
        let o = outer(b, A[0]);
        assert_eq!(mat_vec(&o, A[2]), scale(dot(A[0], A[2]), b));
        assert_eq!(trace(&diagonal([1.0, 2.0, 3.5])), 6.5);
        assert_eq!(axpy(b, 2.0, b), scale(3.0, b));
        assert!(norm(sub(add(b, sub(A[0], b)), A[0])) < 1e-15);
    }

    #[test]
    fn determinant_and_inverse() {
        let A = [[1.0, 2.0, -1.0], [0.5, -3.0, 2.0], [4.0, 1.0, 0.25]];
        let det = determinant(&A);
        assert!((det - 0.5).abs() < 1e-14, "{det}");
        let Ai = inverse(&A).expect("regular");
        assert!(close(&mat_mul(&A, &Ai), &IDENTITY3, 1e-14));
        assert!(close(&mat_mul(&Ai, &A), &IDENTITY3, 1e-14));
        // Singular: a row is the sum of the others (any scale).
        for s in [1e-8, 1.0, 1e8] {
            let S = [
                [s, 2.0 * s, 3.0 * s],
                [-s, 0.5 * s, 4.0 * s],
                [0.0, 2.5 * s, 7.0 * s],
            ];
            assert!(inverse(&S).is_none(), "scale {s}");
        }
        assert!(inverse(&[[f64::NAN, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]).is_none());
        // Tiny but regular matrices invert (no absolute threshold).
        let T = lin_comb(1e-90, &A, 0.0, &A);
        assert!(inverse(&T).is_some());
    }

    #[test]
    fn normal_pair_is_right_handed() {
        for e in [[0.0, 0.0, 1.0], [1.0, 2.0, -0.5], [-3.0, 0.1, 0.2]] {
            let e = unit(e).expect("nonzero");
            let [n1, n2] = normal_pair(e);
            assert!(dot(n1, e).abs() < 1e-15 && dot(n2, e).abs() < 1e-15);
            assert!((norm(n1) - 1.0).abs() < 1e-15 && (norm(n2) - 1.0).abs() < 1e-15);
            let back = cross(n1, n2);
            assert!(norm(sub(back, e)) < 1e-15);
        }
        assert!(unit([0.0; 3]).is_none());
        assert!(unit([f64::INFINITY, 0.0, 0.0]).is_none());
    }

    #[test]
    fn eigenvalues_of_rotated_diagonal() {
        let d = [1.0, 2.0, 2.5];
        // R = exp(0.8 k̃) about k = (1, -2, 0.5)/|.| (Rodrigues, written out here).
        let k = unit([1.0, -2.0, 0.5]).expect("nonzero");
        let K = hat(k);
        let R = lin_comb(
            1.0,
            &lin_comb(1.0, &IDENTITY3, 0.8f64.sin(), &K),
            1.0 - 0.8f64.cos(),
            &mat_mul(&K, &K),
        );
        let J = mat_mul(&mat_mul(&R, &diagonal(d)), &transpose(&R));
        let e = symmetric_eigenvalues(&J);
        for k in 0..3 {
            assert!((e[k] - d[k]).abs() < 1e-12, "{e:?}");
        }
        assert_eq!(
            symmetric_eigenvalues(&diagonal([3.0, -1.0, 2.0])),
            [-1.0, 2.0, 3.0]
        );
        // Clustered eigenvalues to round-off: a rank-one matrix c cᵀ (0, 0, |c|²) and a
        // rotated thin rod (0, 1, 1).
        let c = [0.3, -0.4, 1.2];
        let e = symmetric_eigenvalues(&outer(c, c));
        assert!(
            e[0].abs() < 1e-15 && e[1].abs() < 1e-15 && (e[2] - 1.69).abs() < 1e-15,
            "{e:?}"
        );
        let J = mat_mul(&mat_mul(&R, &diagonal([0.0, 1.0, 1.0])), &transpose(&R));
        let e = symmetric_eigenvalues(&J);
        assert!(
            e[0].abs() < 1e-15 && (e[1] - 1.0).abs() < 1e-15 && (e[2] - 1.0).abs() < 1e-15,
            "{e:?}"
        );
    }
}
