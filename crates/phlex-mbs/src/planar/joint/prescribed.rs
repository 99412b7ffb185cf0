//! Prescribed velocity of a port (a motion driver, e.g. the crank tip of paper 000 §6.3,
//! $u_{cl} = R(\theta)^\top v_{cr}$).
//!
//! Constraint rows $R(\theta_a)\,y_a = v(t)$ (and $\omega_a = \omega(t)$ if the rotation is
//! driven): the inertial velocity of the port equals the input. The input enters the
//! multiplier rows with $B_\lambda = I$; the multiplier is the inertial force (and torque)
//! the driver applies to the body, and it is also the output conjugate to the input, so
//! the power supplied by the driver is $v(t)^\top\lambda$.
//!
//! For the drift report the joint carries the target position $s$ with $\dot s = v(t)$
//! (states without energy, $\partial_s H = 0$, driven by the same input); the position
//! residual is ${}^ir_a - s$ (and $\alpha_a - s_\theta$).
use super::model::{Side, Term};
use crate::body::planar::pose::rot2;

/// Rows $R(\theta_a)y_a$ (two) and, if `rotation`, $\omega_a$.
pub(crate) fn push_terms(theta_a: f64, rotation: bool, row0: usize, out: &mut Vec<Term>) {
    let r = rot2(theta_a);
    for i in 0..2 {
        for j in 0..2 {
            out.push(Term {
                row: row0 + i,
                side: Side::A,
                comp: j,
                coef: r[i][j],
            });
        }
    }
    if rotation {
        out.push(Term {
            row: row0 + 2,
            side: Side::A,
            comp: 2,
            coef: 1.0,
        });
    }
}
