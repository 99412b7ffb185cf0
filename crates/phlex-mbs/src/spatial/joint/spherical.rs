//! Spherical (ball) joint between two bodies: the inertial velocities of the two points
//! are equal, $R_b(x)\,v_b - R_a(x)\,v_a = 0$ (3 rows, linear in the entries of the
//! rotations). The multiplier is the force applied to body b at its port, inertial
//! components; body a receives $-\lambda$.
//!
//! Position level: ${}^ir_b - {}^ir_a$ (kept exactly by the midpoint rule, see
//! [`super`]).
use super::model::{push_inertial_point_rows, Geometry, Term};
use phlex_core::geometry::mat3::sub;

/// The three rows from `row0`.
pub(crate) fn push_terms(row0: usize, rows: &mut Vec<Term>) {
    push_inertial_point_rows(row0, rows);
}

/// ${}^ir_b - {}^ir_a$.
pub(crate) fn residual(g: &Geometry) -> [f64; 3] {
    sub(g.pos_b, g.pos_a)
}
