//! Joints to the inertial ground: fixed point, fixed frame, fixed hinge axis and slide
//! line. The port of body a is constrained through its **body-frame** outputs with
//! constant coefficients (since $R_a$ is invertible, $R_a v_a = 0 \Leftrightarrow v_a = 0$;
//! when the rotation is locked or restricted to an axis fixed in the body, inertial
//! directions are constant in the body frame). The multiplier is the reaction of the
//! ground on the body, body frame.
//!
//! | joint | rows | position residual |
//! |---|---|---|
//! | fixed point | $v_a = 0$ | ${}^ir_a - g$ |
//! | fixed frame | $v_a = 0$, $\omega_a = 0$ | ${}^ir_a - g$, defect of $R_{a,0}^\top R_a$ |
//! | hinge about $e_a$ | $v_a = 0$, $n_k\cdot\omega_a = 0$; $\dot\theta = e_a\cdot\omega_a$ | ${}^ir_a - g$, $n_k\cdot(e_a\times R_a^\top R_{a,0}e_a)$ |
//! | slide along $e_a$ | $\omega_a = 0$, $n_k\cdot v_a = 0$; $\dot s = e_a\cdot v_a$ | defect of $R_{a,0}^\top R_a$, $(R_{a,0}n_k)\cdot({}^ir_a - g)$ |
//!
//! $g$ is the ground point, $R_{a,0}$ the initial rotation, $e_a$ and $n_k$ the axis and its
//! normals in the body frame. All four keep their constraints exactly under the midpoint
//! rule (see [`super`]).
use super::model::{push_body_rows, Coef, Geometry, Side, Term};
use phlex_core::geometry::mat3::{cross, dot, mat_t_mul, mat_t_vec, mat_vec, sub, vee, Mat3};
use phlex_core::geometry::so3;

/// Fixed point: $v_a = 0$.
pub(crate) fn push_point_terms(rows: &mut Vec<Term>) {
    push_body_rows(0, 0, rows);
}

/// Fixed frame: $v_a = 0$, $\omega_a = 0$.
pub(crate) fn push_frame_terms(rows: &mut Vec<Term>) {
    push_body_rows(0, 0, rows);
    push_body_rows(3, 3, rows);
}

/// ${}^ir_a - g$.
pub(crate) fn point_residual(point: [f64; 3], g: &Geometry) -> [f64; 3] {
    sub(g.pos_a, point)
}

/// ${}^ir_a - g$ and the defect of $R_{a,0}^\top R_a$.
pub(crate) fn frame_residual(point: [f64; 3], r0: &Mat3, g: &Geometry) -> Vec<f64> {
    let mut r = point_residual(point, g).to_vec();
    r.extend(vee(&mat_t_mul(r0, &g.rot_a)));
    r
}

/// Hinge to ground.
#[derive(Debug, Clone)]
pub(crate) struct GroundRevolute {
    /// Ground point.
    pub point: [f64; 3],
    /// Axis, body frame.
    pub e_a: [f64; 3],
    /// Normals, body frame ($e_a\times n_1 = n_2$).
    pub n_a: [[f64; 3]; 2],
    /// Initial rotation of the body.
    pub r0: Mat3,
}

impl GroundRevolute {
    pub(crate) fn push_terms(&self, rows: &mut Vec<Term>, kin: &mut Vec<Term>) {
        push_body_rows(0, 0, rows);
        for k in 0..2 {
            rows.push(Term::new(3 + k, Side::A, 3, Coef::Body(self.n_a[k])));
        }
        kin.push(Term::new(0, Side::A, 3, Coef::Body(self.e_a)));
    }

    pub(crate) fn residual(&self, g: &Geometry) -> Vec<f64> {
        let mut r = point_residual(self.point, g).to_vec();
        let axis = mat_vec(&self.r0, self.e_a);
        let w = cross(self.e_a, mat_t_vec(&g.rot_a, axis));
        for n in &self.n_a {
            r.push(dot(*n, w));
        }
        r
    }

    /// Rotation angle of $R_{a,0}^\top R_a$ about $e_a$.
    pub(crate) fn angle(&self, g: &Geometry) -> f64 {
        so3::angle_about(&mat_t_mul(&self.r0, &g.rot_a), &self.n_a)
    }
}

/// Slide along an inertial line, rotation locked.
#[derive(Debug, Clone)]
pub(crate) struct GroundPrismatic {
    /// Ground point on the line.
    pub point: [f64; 3],
    /// Axis, body frame.
    pub e_a: [f64; 3],
    /// Normals, body frame.
    pub n_a: [[f64; 3]; 2],
    /// Initial rotation of the body.
    pub r0: Mat3,
}

impl GroundPrismatic {
    pub(crate) fn push_terms(&self, rows: &mut Vec<Term>, kin: &mut Vec<Term>) {
        push_body_rows(0, 3, rows);
        for k in 0..2 {
            rows.push(Term::new(3 + k, Side::A, 0, Coef::Body(self.n_a[k])));
        }
        kin.push(Term::new(0, Side::A, 0, Coef::Body(self.e_a)));
    }

    pub(crate) fn residual(&self, g: &Geometry) -> Vec<f64> {
        let mut r = vee(&mat_t_mul(&self.r0, &g.rot_a)).to_vec();
        let d = sub(g.pos_a, self.point);
        for n in &self.n_a {
            r.push(dot(mat_vec(&self.r0, *n), d));
        }
        r
    }

    /// Slide coordinate along the inertial axis from the ground point.
    pub(crate) fn slide(&self, g: &Geometry) -> f64 {
        dot(mat_vec(&self.r0, self.e_a), sub(g.pos_a, self.point))
    }
}
