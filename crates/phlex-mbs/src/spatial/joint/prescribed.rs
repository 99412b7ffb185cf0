//! Prescribed velocity of a port (a motion driver): rows $R_a(x)\,v_a = v(t)$ (inertial)
//! and, if an angular velocity is prescribed, $\omega_a = \omega(t)$ (body frame) or
//! $R_a\omega_a = \omega(t)$ (inertial). The inputs enter the multiplier rows with
//! $B_\lambda = I$; the multiplier is the force (and torque) the driver applies to the body,
//! and also the output conjugate to the input (power $v^\top\lambda_{v} + \omega^\top\lambda_\omega$).
//!
//! For the drift report the joint carries the target position $s$, $\dot s = v(t)$ (energy
//! free, driven by the same input); the residual is ${}^ir_a - s$. The rotation target is
//! not integrated (no position-level residual for the angular rows).
use phlex_solve::Signal;

use super::model::{push_body_rows, Coef, Geometry, Side, Term};
use crate::planar::load::Frame;
use phlex_core::geometry::mat3::sub;

/// Resolved prescribed-velocity joint.
#[derive(Debug, Clone)]
pub(crate) struct Prescribed {
    /// $v_X, v_Y, v_Z$ and, with a rotation, $\omega$.
    pub signals: Vec<Signal>,
    /// Frame of the prescribed angular velocity, `None` if the rotation is free.
    pub rotation: Option<Frame>,
}

impl Prescribed {
    /// 3, or 6 with a prescribed angular velocity.
    pub(crate) fn n_inputs(&self) -> usize {
        if self.rotation.is_some() {
            6
        } else {
            3
        }
    }

    pub(crate) fn push_terms(&self, rows: &mut Vec<Term>) {
        for i in 0..3 {
            let mut e = [0.0; 3];
            e[i] = 1.0;
            rows.push(Term::new(i, Side::A, 0, Coef::Inertial(e)));
        }
        match self.rotation {
            Some(Frame::Body) => push_body_rows(3, 3, rows),
            Some(Frame::Inertial) => {
                for i in 0..3 {
                    let mut e = [0.0; 3];
                    e[i] = 1.0;
                    rows.push(Term::new(3 + i, Side::A, 3, Coef::Inertial(e)));
                }
            }
            None => {}
        }
    }
}

/// ${}^ir_a - s$ (translational rows only).
pub(crate) fn residual(g: &Geometry, target: &[f64]) -> Vec<f64> {
    sub(g.pos_a, [target[0], target[1], target[2]]).to_vec()
}
