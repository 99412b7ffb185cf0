//! Planar weld between two bodies: the revolute constraints ([`super::revolute`]) plus equal
//! angular velocities of the two ports, $-\omega_a + \omega_b = 0$ (the port angular velocity
//! includes the elastic rotation rate of a flexible body). The multiplier is the force and
//! torque applied to body b at its port (frame b).
//!
//! Position level: ${}^ir_a - {}^ir_b$ and the change of the relative port angle,
//! $(\alpha_b - \alpha_a) - (\alpha_b - \alpha_a)(0)$, $\alpha = \theta + n_r u_f$.
use super::model::{Side, Term};

/// Constraint terms (three rows from `row0`).
pub(crate) fn push_terms(theta: f64, row0: usize, out: &mut Vec<Term>) {
    super::revolute::push_terms(theta, row0, out);
    out.push(Term {
        row: row0 + 2,
        side: Side::A,
        comp: 2,
        coef: -1.0,
    });
    out.push(Term {
        row: row0 + 2,
        side: Side::B,
        comp: 2,
        coef: 1.0,
    });
}

/// Angular residual: change of the relative port angle since the start.
pub(crate) fn angle_residual(ang_a: f64, ang_b: f64, rel0: f64) -> f64 {
    (ang_b - ang_a) - rel0
}
