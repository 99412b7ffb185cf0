//! Planar poses and velocities used to place bodies and to report their motion, and the
//! planar rotation $R(\theta)$ of paper 000 eq. (44).

/// Position of the reference point $P$ of a planar body in the inertial frame and the angle
/// $\theta$ of its body frame (counter-clockwise from the inertial $X$ axis).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pose2d {
    /// ${}^i r_P^x$ \[m\].
    pub x: f64,
    /// ${}^i r_P^y$ \[m\].
    pub y: f64,
    /// $\theta$ \[rad\].
    pub theta: f64,
}

impl Pose2d {
    /// A pose.
    pub fn new(x: f64, y: f64, theta: f64) -> Self {
        Self { x, y, theta }
    }
}

/// Velocity of the reference point $P$ **in the inertial frame** and angular velocity of a
/// planar body.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Twist2d {
    /// ${}^i\dot r_P^x$ \[m/s\].
    pub vx: f64,
    /// ${}^i\dot r_P^y$ \[m/s\].
    pub vy: f64,
    /// $\omega$ \[rad/s\].
    pub omega: f64,
}

impl Twist2d {
    /// A twist.
    pub fn new(vx: f64, vy: f64, omega: f64) -> Self {
        Self { vx, vy, omega }
    }
}

/// $R(\theta) = \begin{bmatrix}\cos\theta & -\sin\theta\\ \sin\theta & \cos\theta\end{bmatrix}$
/// (row major), body to inertial.
#[inline]
pub fn rot2(theta: f64) -> [[f64; 2]; 2] {
    let (s, c) = theta.sin_cos();
    [[c, -s], [s, c]]
}

/// $R'(\theta) = \mathrm d R/\mathrm d\theta$.
#[inline]
pub fn drot2(theta: f64) -> [[f64; 2]; 2] {
    let (s, c) = theta.sin_cos();
    [[-s, -c], [c, -s]]
}

/// $R a$.
#[inline]
pub fn apply2(r: &[[f64; 2]; 2], a: [f64; 2]) -> [f64; 2] {
    [
        r[0][0] * a[0] + r[0][1] * a[1],
        r[1][0] * a[0] + r[1][1] * a[1],
    ]
}

/// $R^\top a$.
#[inline]
pub fn apply2_t(r: &[[f64; 2]; 2], a: [f64; 2]) -> [f64; 2] {
    [
        r[0][0] * a[0] + r[1][0] * a[1],
        r[0][1] * a[0] + r[1][1] * a[1],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_is_orthogonal_and_derivative_matches() {
        let t = 0.7;
        let r = rot2(t);
        let a = [0.3, -1.2];
        let b = apply2_t(&r, apply2(&r, a));
        assert!((b[0] - a[0]).abs() < 1e-15 && (b[1] - a[1]).abs() < 1e-15);
        let h = 1e-6;
        let (rp, rm, d) = (rot2(t + h), rot2(t - h), drot2(t));
        for i in 0..2 {
            for j in 0..2 {
                // central difference, error O(h^2) = 1e-12
                assert!(((rp[i][j] - rm[i][j]) / (2.0 * h) - d[i][j]).abs() < 1e-9);
            }
        }
    }
}
