//! Planar revolute joint between two bodies (paper 000 §5.2, eqs. (44)–(46)).
//!
//! With $y_a$, $y_b$ the translational port outputs (velocities of the hinge point in the
//! frames of bodies a and b) and $\theta$ the relative angle, integrated as
//! $\dot\theta = \omega_b - \omega_a$ (eq. (44)), the transformer (45)
//! $$u_a = -R(\theta)\,u_b,\qquad y_b = R(\theta)^\top y_a$$
//! gives the two velocity constraints $-R(\theta)^\top y_a + y_b = 0$ and the reactions: the
//! multiplier $\lambda = u_b$ is the force applied to body b at its port (frame b), and body
//! a receives $-R(\theta)\lambda$. In the assembled system (46) the rows of $\lambda$ are
//! $R^\top B_a^\top z_a - B_b^\top z_b$, exactly the paper's last block row.
//!
//! Position level (drift report): ${}^ir_{a} - {}^ir_{b}$, the inertial distance of the two
//! hinge points.
use super::model::{Side, Term};
use crate::body::planar::pose::rot2;

/// Constraint terms of the two translational rows for relative angle `theta`, starting at
/// row `row0`.
pub(crate) fn push_terms(theta: f64, row0: usize, out: &mut Vec<Term>) {
    let r = rot2(theta);
    for i in 0..2 {
        for j in 0..2 {
            if r[j][i] != 0.0 {
                out.push(Term {
                    row: row0 + i,
                    side: Side::A,
                    comp: j,
                    coef: -r[j][i],
                });
            }
        }
        out.push(Term {
            row: row0 + i,
            side: Side::B,
            comp: i,
            coef: 1.0,
        });
    }
}

/// Position residual ${}^ir_a - {}^ir_b$.
pub(crate) fn residual(pa: [f64; 2], pb: [f64; 2]) -> [f64; 2] {
    [pa[0] - pb[0], pa[1] - pb[1]]
}
