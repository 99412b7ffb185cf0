//! 6-vectors and 6×6 matrices (row-major arrays): elements $(\omega, \nu)$ of
//! $\mathfrak{se}(3)$, covectors $(f_\omega, f_\nu)$ of $\mathfrak{se}(3)^*$ and the matrices of
//! linear maps between them (seed 001 §3.3), built from and split into 3×3 blocks.
use super::mat3::{Mat3, Vec3};

/// A vector of $\mathbb R^6$: a Lie-algebra element $(\omega, \nu)$ or a covector
/// $(f_\omega, f_\nu)$ of $\mathfrak{se}(3)$.
pub type Vec6 = [f64; 6];

/// A 6×6 matrix, row-major.
pub type Mat6 = [[f64; 6]; 6];

/// $Ab$.
pub fn mat_vec(A: &Mat6, b: &Vec6) -> Vec6 {
    let mut y = [0.0; 6];
    for i in 0..6 {
        y[i] = (0..6).map(|j| A[i][j] * b[j]).sum();
    }
    y
}

/// $AB$.
pub fn mat_mul(A: &Mat6, B: &Mat6) -> Mat6 {
    let mut C = [[0.0; 6]; 6];
    for i in 0..6 {
        for j in 0..6 {
            C[i][j] = (0..6).map(|k| A[i][k] * B[k][j]).sum();
        }
    }
    C
}

/// $A^\top$.
pub fn transpose(A: &Mat6) -> Mat6 {
    std::array::from_fn(|i| std::array::from_fn(|j| A[j][i]))
}

/// The 6×6 identity.
pub fn identity() -> Mat6 {
    std::array::from_fn(|i| std::array::from_fn(|j| if i == j { 1.0 } else { 0.0 }))
}

/// Splits $(a, b) \in \mathbb R^6$ into its two 3-vectors.
pub fn split(x: &Vec6) -> (Vec3, Vec3) {
    ([x[0], x[1], x[2]], [x[3], x[4], x[5]])
}

/// Joins two 3-vectors into $(a, b) \in \mathbb R^6$.
pub fn join(a: Vec3, b: Vec3) -> Vec6 {
    [a[0], a[1], a[2], b[0], b[1], b[2]]
}

/// The block matrix $\begin{bmatrix}A_{11} & A_{12}\\ A_{21} & A_{22}\end{bmatrix}$.
pub fn from_blocks(A11: &Mat3, A12: &Mat3, A21: &Mat3, A22: &Mat3) -> Mat6 {
    let mut A = [[0.0; 6]; 6];
    for i in 0..3 {
        for j in 0..3 {
            A[i][j] = A11[i][j];
            A[i][j + 3] = A12[i][j];
            A[i + 3][j] = A21[i][j];
            A[i + 3][j + 3] = A22[i][j];
        }
    }
    A
}

/// The 3×3 block $(r, c)$ of $A$, $r, c \in \{0, 1\}$ (rows $3r..3r+3$, columns $3c..3c+3$).
pub fn block(A: &Mat6, r: usize, c: usize) -> Mat3 {
    std::array::from_fn(|i| std::array::from_fn(|j| A[3 * r + i][3 * c + j]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_products_and_transpose() {
        let a: Mat3 = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.5]];
        let z = [[0.0; 3]; 3];
        let M = from_blocks(&a, &z, &crate::geometry::mat3::transpose(&a), &a);
        assert_eq!(block(&M, 0, 0), a);
        assert_eq!(block(&M, 0, 1), z);
        assert_eq!(block(&transpose(&M), 0, 1), a);
        assert_eq!(mat_mul(&M, &identity()), M);
        let x = join([1.0, -1.0, 2.0], [0.5, 0.0, -3.0]);
        assert_eq!(split(&x), ([1.0, -1.0, 2.0], [0.5, 0.0, -3.0]));
        assert_eq!(mat_vec(&identity(), &x), x);
        let y = mat_vec(&M, &x);
        assert_eq!(y[0], 1.0 - 2.0 + 6.0);
        assert_eq!(mat_vec(&mat_mul(&M, &M), &x), mat_vec(&M, &y));
    }
}
