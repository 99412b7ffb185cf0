//! Point on an inertial line (the slider of the crank–slider, paper 000 §6.3):
//! $n^\top R(\theta_a)\,y_a = 0$, with $n$ the unit normal of the line (for a horizontal line,
//! $n = \hat Y$ and the row is $\sin\theta\,v^x + \cos\theta\,v^y = R_y(\theta)v$, the paper's
//! constraint). Rotation and motion along the line are free; the multiplier is the normal
//! reaction force along $n$ \[N\].
//!
//! Position level: $n^\top({}^ir_a - g)$, the distance of the port from the line.
use super::model::{Side, Term};
use crate::body::planar::pose::rot2;

/// Unit normal $(-d_y, d_x)/|d|$ of direction `d`, `None` if `d` vanishes.
pub(crate) fn normal(d: [f64; 2]) -> Option<[f64; 2]> {
    let l = (d[0] * d[0] + d[1] * d[1]).sqrt();
    if l > 0.0 && l.is_finite() {
        Some([-d[1] / l, d[0] / l])
    } else {
        None
    }
}

/// The single row $n^\top R(\theta_a)$ acting on the translational port output.
pub(crate) fn push_terms(n: [f64; 2], theta_a: f64, row0: usize, out: &mut Vec<Term>) {
    let r = rot2(theta_a);
    for j in 0..2 {
        let c = n[0] * r[0][j] + n[1] * r[1][j];
        out.push(Term {
            row: row0,
            side: Side::A,
            comp: j,
            coef: c,
        });
    }
}

/// Distance from the line.
pub(crate) fn residual(n: [f64; 2], pa: [f64; 2], g: [f64; 2]) -> f64 {
    n[0] * (pa[0] - g[0]) + n[1] * (pa[1] - g[1])
}
