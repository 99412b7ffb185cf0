//! Fixed-size 3-vector and 3×3 helpers for the body kinematics (row-major arrays).

/// 3-vector.
pub type V3 = [f64; 3];
/// 3×3 matrix, row major.
pub type M3 = [[f64; 3]; 3];
/// 3×4 matrix, row major (the Euler-parameter matrices `E`, `Ē`, `G`, `Ḡ`).
pub type M34 = [[f64; 4]; 3];

pub(crate) fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub(crate) fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(crate) fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `ã` with `ã b = a × b`.
pub fn skew(a: V3) -> M3 {
    [[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]]
}

pub(crate) fn mv(m: &M3, v: V3) -> V3 {
    [dot(m[0], v), dot(m[1], v), dot(m[2], v)]
}

pub(crate) fn mtv(m: &M3, v: V3) -> V3 {
    [
        m[0][0] * v[0] + m[1][0] * v[1] + m[2][0] * v[2],
        m[0][1] * v[0] + m[1][1] * v[1] + m[2][1] * v[2],
        m[0][2] * v[0] + m[1][2] * v[1] + m[2][2] * v[2],
    ]
}

pub(crate) fn mm(a: &M3, b: &M3) -> M3 {
    let mut c = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            c[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    c
}

/// `(3×3)(3×4)`.
pub(crate) fn m3_m34(a: &M3, b: &M34) -> M34 {
    let mut c = [[0.0; 4]; 3];
    for i in 0..3 {
        for j in 0..4 {
            c[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    c
}

/// `Bᵀ v` for a 3×4 `B`.
pub(crate) fn m34t_v(b: &M34, v: V3) -> [f64; 4] {
    let mut r = [0.0; 4];
    for j in 0..4 {
        r[j] = b[0][j] * v[0] + b[1][j] * v[1] + b[2][j] * v[2];
    }
    r
}

/// `B w` for a 3×4 `B`.
pub(crate) fn m34_v(b: &M34, w: &[f64]) -> V3 {
    [
        (0..4).map(|j| b[0][j] * w[j]).sum(),
        (0..4).map(|j| b[1][j] * w[j]).sum(),
        (0..4).map(|j| b[2][j] * w[j]).sum(),
    ]
}
