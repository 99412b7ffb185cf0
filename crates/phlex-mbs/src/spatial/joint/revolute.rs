//! Revolute joint (hinge) between two bodies, paper 000 eqs. (44)–(46) in 3D.
//!
//! Axis $e_a$ (frame of a) and $e_b = q_0^\top e_a$ (frame of b), $q_0 = R_a^\top R_b$ at the
//! initial state; normals $n_1, n_2 \perp e_b$ with $e_b\times n_1 = n_2$. The relative
//! orientation is $R_a^\top R_b = Q(\theta) = q_0\exp(\theta\[e_b\]_\times)$, with the relative
//! angle integrated as an energy-free state (eq. (44)):
//! $$\dot\theta = e_b\cdot\omega_b - e_a\cdot\omega_a .$$
//! Rows (5):
//! * $R_b v_b - R_a v_a = 0$ (the hinge points coincide, [`super::spherical`]);
//! * $n_k\cdot\big(\omega_b - Q(\theta)^\top\omega_a\big) = n_k\cdot\omega_b - m_k(\theta)\cdot\omega_a = 0$,
//!   $m_k(\theta) = q_0\exp(\theta\[e_b\]_\times)n_k$: the relative angular velocity is along
//!   the axis — the transformer (45) with the relative rotation as interconnection matrix.
//!
//! Multiplier: force on body b at its port (inertial), torques on body b about $n_1, n_2$
//! (frame of b).
//!
//! Position level: the point separation, and the axis misalignment
//! $w = e_a\times(R_a^\top R_b e_b)$ along $q_0 n_{1,2}$.
use super::model::{push_inertial_point_rows, Coef, Geometry, Side, Term};
use phlex_core::geometry::mat3::{axpy, cross, dot, mat_t_mul, mat_vec, scale, sub, Mat3};
use phlex_core::geometry::so3;

/// Resolved revolute joint between two bodies.
#[derive(Debug, Clone)]
pub(crate) struct Revolute {
    /// Axis in the frame of a.
    pub e_a: [f64; 3],
    /// Axis in the frame of b.
    pub e_b: [f64; 3],
    /// Normals of the axis in the frame of b.
    pub n_b: [[f64; 3]; 2],
    /// Initial relative orientation $R_a^\top R_b$.
    pub q0: Mat3,
}

impl Revolute {
    /// $m_1, m_2$ and their derivatives at angle `theta`.
    fn m(&self, theta: f64) -> ([[f64; 3]; 2], [[f64; 3]; 2]) {
        let (s, c) = theta.sin_cos();
        let [n1, n2] = self.n_b;
        let r1 = axpy(scale(c, n1), s, n2);
        let r2 = axpy(scale(c, n2), -s, n1);
        let d1 = axpy(scale(-s, n1), c, n2);
        let d2 = axpy(scale(-s, n2), -c, n1);
        (
            [mat_vec(&self.q0, r1), mat_vec(&self.q0, r2)],
            [mat_vec(&self.q0, d1), mat_vec(&self.q0, d2)],
        )
    }

    pub(crate) fn push_terms(&self, theta: f64, rows: &mut Vec<Term>, kin: &mut Vec<Term>) {
        push_inertial_point_rows(0, rows);
        let (m, dm) = self.m(theta);
        for k in 0..2 {
            rows.push(Term::new(3 + k, Side::B, 3, Coef::Body(self.n_b[k])));
            rows.push(Term::new(
                3 + k,
                Side::A,
                3,
                Coef::Extra {
                    c: scale(-1.0, m[k]),
                    dc: scale(-1.0, dm[k]),
                    state: 0,
                },
            ));
        }
        kin.push(Term::new(0, Side::B, 3, Coef::Body(self.e_b)));
        kin.push(Term::new(0, Side::A, 3, Coef::Body(scale(-1.0, self.e_a))));
    }

    pub(crate) fn residual(&self, g: &Geometry) -> Vec<f64> {
        let mut r = sub(g.pos_b, g.pos_a).to_vec();
        let rel = mat_t_mul(&g.rot_a, &g.rot_b);
        let w = cross(self.e_a, mat_vec(&rel, self.e_b));
        for n in &self.n_b {
            r.push(dot(mat_vec(&self.q0, *n), w));
        }
        r
    }

    /// The relative angle of the geometry: rotation of $q_0^\top R_a^\top R_b$ about $e_b$.
    pub(crate) fn angle(&self, g: &Geometry) -> f64 {
        let rel = mat_t_mul(&g.rot_a, &g.rot_b);
        so3::angle_about(&mat_t_mul(&self.q0, &rel), &self.n_b)
    }
}
