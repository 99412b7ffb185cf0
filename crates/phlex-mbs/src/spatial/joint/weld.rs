//! Weld between two bodies: the spherical rows ([`super::spherical`]) plus the rotation
//! lock $\omega_b - q_0^\top\omega_a = 0$ (frame of b, constant coefficients), $q_0$ the
//! relative orientation $R_a^\top R_b$ at the initial state. The multiplier is the force on
//! body b (inertial) and the torque on body b (frame of b).
//!
//! Position level: ${}^ir_b - {}^ir_a$ and the rotation defect of $q_0^\top R_a^\top R_b$.
use super::model::{push_inertial_point_rows, push_rotation_lock_rows, Geometry, Term};
use phlex_core::geometry::mat3::{mat_t_mul, sub, vee, Mat3};

/// Six rows.
pub(crate) fn push_terms(q0: &Mat3, rows: &mut Vec<Term>) {
    push_inertial_point_rows(0, rows);
    push_rotation_lock_rows(3, q0, rows);
}

/// Point separation and rotation defect.
pub(crate) fn residual(q0: &Mat3, g: &Geometry) -> Vec<f64> {
    let mut r = sub(g.pos_b, g.pos_a).to_vec();
    r.extend(relative_defect(q0, g));
    r
}

/// Rotation defect of $q_0^\top R_a^\top R_b$ (frame of b).
pub(crate) fn relative_defect(q0: &Mat3, g: &Geometry) -> [f64; 3] {
    let rel = mat_t_mul(&g.rot_a, &g.rot_b);
    vee(&mat_t_mul(q0, &rel))
}
