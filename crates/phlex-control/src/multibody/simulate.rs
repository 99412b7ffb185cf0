//! Fixed-step RK4 integration of the Udwadia–Kalaba ODE
//! `ż = (q̇, q̈(t, q, q̇))` (thesis 002 summary §2.7: the thesis imposes the
//! constraints at acceleration level only, without stabilisation, and does
//! not state its integrator). The position and velocity drift of the
//! constraints is measured at every step and reported.

use std::cell::{Cell, RefCell};

use super::system::MultibodySystem;
use crate::error::{ControlError, Result};
use phlex_solve::Rk4;

/// Result of [`simulate`].
#[derive(Debug, Clone)]
pub struct Simulation {
    /// Final time.
    pub t: f64,
    /// Final coordinates.
    pub q: Vec<f64>,
    /// Final velocities.
    pub qd: Vec<f64>,
    /// Number of steps.
    pub steps: usize,
    /// Largest `|f(q, t)|` over the steps (normalisation and joints).
    pub max_position_drift: f64,
    /// Largest `|f_q q̇ + f_t|` over the steps.
    pub max_velocity_drift: f64,
    /// Largest relative `‖Aq̈ − b‖∞/(1 + ‖b‖∞)` over all stages.
    pub max_acceleration_residual: f64,
}

/// Integrates from `(t0, q0, q̇0)` to `t_end` with RK4 steps of about `h`
/// (the last step is shortened to end at `t_end`); `observe(t, q, q̇)` is
/// called at `t0` and after every step.
pub fn simulate(
    sys: &MultibodySystem,
    q0: &[f64],
    qd0: &[f64],
    t0: f64,
    t_end: f64,
    h: f64,
    mut observe: impl FnMut(f64, &[f64], &[f64]),
) -> Result<Simulation> {
    let n = sys.n_coords();
    if !(h > 0.0) || !(t_end >= t0) || !h.is_finite() || !t_end.is_finite() {
        return Err(ControlError::InvalidParameter {
            name: "step h / interval".into(),
            reason: format!("need h > 0 and t_end ≥ t0, got h = {h}, [{t0}, {t_end}]"),
        });
    }
    if q0.len() != n || qd0.len() != n {
        return Err(crate::error::dim_err("q0/q̇0", n, 1, q0.len(), qd0.len()));
    }
    let mut y: Vec<f64> = q0.iter().chain(qd0).copied().collect();
    let mut rk = Rk4::new(2 * n);
    let failure: RefCell<Option<ControlError>> = RefCell::new(None);
    let max_res = Cell::new(0.0f64);
    let mut f = |t: f64, s: &[f64], d: &mut [f64]| {
        d[..n].copy_from_slice(&s[n..]);
        if failure.borrow().is_some() {
            d[n..].iter_mut().for_each(|v| *v = 0.0);
            return;
        }
        match sys.acceleration(t, &s[..n], &s[n..]) {
            Ok(a) => {
                max_res.set(max_res.get().max(a.residual));
                d[n..].copy_from_slice(&a.qdd);
            }
            Err(e) => {
                *failure.borrow_mut() = Some(e);
                d[n..].iter_mut().for_each(|v| *v = 0.0);
            }
        }
    };
    let steps = (((t_end - t0) / h) - 1e-9).ceil().max(0.0) as usize;
    let mut t = t0;
    observe(t, &y[..n], &y[n..]);
    let mut pos = 0.0f64;
    let mut vel = 0.0f64;
    for k in 0..steps {
        let t1 = if k + 1 == steps {
            t_end
        } else {
            t0 + (k + 1) as f64 * h
        };
        rk.step(&mut f, t, &mut y, t1 - t);
        if let Some(e) = failure.borrow_mut().take() {
            return Err(e);
        }
        t = t1;
        if y.iter().any(|v| !v.is_finite()) {
            return Err(ControlError::InvalidParameter {
                name: "integration".into(),
                reason: format!(
                    "state became non-finite at t = {t} (step too large for the stiffest mode?)"
                ),
            });
        }
        let pr = sys.position_residual(t, &y[..n]);
        pos = pos.max(pr.iter().fold(0.0f64, |m, v| m.max(v.abs())));
        let vr = sys.velocity_residual(t, &y[..n], &y[n..])?;
        vel = vel.max(vr.iter().fold(0.0f64, |m, v| m.max(v.abs())));
        observe(t, &y[..n], &y[n..]);
    }
    Ok(Simulation {
        t,
        q: y[..n].to_vec(),
        qd: y[n..].to_vec(),
        steps,
        max_position_drift: pos,
        max_velocity_drift: vel,
        max_acceleration_residual: max_res.get(),
    })
}
