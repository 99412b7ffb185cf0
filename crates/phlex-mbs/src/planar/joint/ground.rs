//! Joints to the inertial ground: fixed point (revolute to ground) and fixed frame (weld
//! to ground).
//!
//! The port velocity must vanish; since $R(\theta)$ is invertible, ${}^i\dot r_a = R y_a = 0$
//! is imposed as $y_a = 0$ in the body frame, which keeps the constraint matrix constant. The
//! multiplier is the force (and torque) applied to the body by the ground, in the body
//! frame (its inertial components are $R(\theta)\lambda$). The four-bar of paper §6.2 uses
//! $v_{P_1} = 0$, $\omega_{P_1} = 0$, $v_{C_3} = 0$: a fixed frame and a fixed point.
//!
//! Position level: ${}^ir_a - g$ ($g$ the ground point) and, for a fixed frame, the change
//! of the port angle.
use super::model::{Side, Term};

/// Fixed point: rows `row0`, `row0 + 1`; fixed frame adds `row0 + 2`.
pub(crate) fn push_terms(frame: bool, row0: usize, out: &mut Vec<Term>) {
    let n = if frame { 3 } else { 2 };
    for c in 0..n {
        out.push(Term {
            row: row0 + c,
            side: Side::A,
            comp: c,
            coef: 1.0,
        });
    }
}

/// Position residual ${}^ir_a - g$.
pub(crate) fn residual(pa: [f64; 2], g: [f64; 2]) -> [f64; 2] {
    [pa[0] - g[0], pa[1] - g[1]]
}
