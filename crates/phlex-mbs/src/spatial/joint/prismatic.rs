//! Prismatic joint (slider) between two bodies.
//!
//! Axis $e_a$ and normals $n_1, n_2$ in the frame of a; $q_0 = R_a^\top R_b$ at the initial
//! state. The relative position of the port of b in the frame of a,
//! $d_a = R_a^\top({}^ir_b - {}^ir_a)$, stays on the line $d_a = s\,e_a + d_0$ ($d_0 \perp e_a$
//! the initial offset), with the slide coordinate $s$ an energy-free state. With
//! $\dot d_a = q_0 v_b - v_a - \omega_a\times d_a$ (relative orientation locked):
//! * rows 0–2: $\omega_b - q_0^\top\omega_a = 0$ (rotation lock, frame of b);
//! * rows 3–4: $n_k\cdot(q_0 v_b - v_a) - (s\,e_a\times n_k + d_0\times n_k)\cdot\omega_a = 0$;
//! * $\dot s = e_a\cdot(q_0 v_b - v_a) - (d_0\times e_a)\cdot\omega_a$.
//!
//! Multiplier: torque on body b (frame of b), forces on body b along $n_1, n_2$ (frame of
//! a). Position level: rotation defect of $q_0^\top R_a^\top R_b$ and $n_k\cdot(d_a - d_0)$.
use super::model::{push_rotation_lock_rows, Coef, Geometry, Side, Term};
use phlex_core::geometry::mat3::{cross, dot, mat_t_vec, scale, sub, Mat3};

/// Resolved prismatic joint between two bodies.
#[derive(Debug, Clone)]
pub(crate) struct Prismatic {
    /// Axis in the frame of a.
    pub e_a: [f64; 3],
    /// Normals in the frame of a ($e_a\times n_1 = n_2$).
    pub n_a: [[f64; 3]; 2],
    /// Initial relative orientation.
    pub q0: Mat3,
    /// Offset of the line from the port of a, frame of a, $\perp e_a$.
    pub d0: [f64; 3],
}

impl Prismatic {
    pub(crate) fn push_terms(&self, s: f64, rows: &mut Vec<Term>, kin: &mut Vec<Term>) {
        push_rotation_lock_rows(0, &self.q0, rows);
        for k in 0..2 {
            let n = self.n_a[k];
            rows.push(Term::new(
                3 + k,
                Side::B,
                0,
                Coef::Body(mat_t_vec(&self.q0, n)),
            ));
            rows.push(Term::new(3 + k, Side::A, 0, Coef::Body(scale(-1.0, n))));
            let en = cross(self.e_a, n);
            let dn = cross(self.d0, n);
            rows.push(Term::new(
                3 + k,
                Side::A,
                3,
                Coef::Extra {
                    c: [0, 1, 2].map(|i| -(s * en[i] + dn[i])),
                    dc: scale(-1.0, en),
                    state: 0,
                },
            ));
        }
        kin.push(Term::new(
            0,
            Side::B,
            0,
            Coef::Body(mat_t_vec(&self.q0, self.e_a)),
        ));
        kin.push(Term::new(0, Side::A, 0, Coef::Body(scale(-1.0, self.e_a))));
        kin.push(Term::new(
            0,
            Side::A,
            3,
            Coef::Body(scale(-1.0, cross(self.d0, self.e_a))),
        ));
    }

    fn d_a(g: &Geometry) -> [f64; 3] {
        mat_t_vec(&g.rot_a, sub(g.pos_b, g.pos_a))
    }

    pub(crate) fn residual(&self, g: &Geometry) -> Vec<f64> {
        let mut r = super::weld::relative_defect(&self.q0, g).to_vec();
        let d = sub(Self::d_a(g), self.d0);
        for n in &self.n_a {
            r.push(dot(*n, d));
        }
        r
    }

    /// Slide coordinate $e_a\cdot d_a$ of the geometry.
    pub(crate) fn slide(&self, g: &Geometry) -> f64 {
        dot(self.e_a, Self::d_a(g))
    }
}
