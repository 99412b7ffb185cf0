//! Time histories of the case-study runs and the peak reductions of the
//! thesis (eqs. (5.233), (5.287)).

use crate::error::{ControlError, Result};

/// Peak reductions published by the thesis, `(displacement %, velocity %)` per floor.
pub mod thesis {
    /// LQG, eq. (5.233).
    pub const LQG: [(f64, f64); 3] = [(71.09, 73.59), (74.95, 80.49), (56.94, 70.48)];
    /// EUK-EKF, eq. (5.287).
    pub const EUK_EKF: [(f64, f64); 3] = [(75.90, 71.95), (78.16, 66.04), (93.45, 99.94)];
}

/// End of step `k` of a case-study simulation: the first error raised
/// inside the right-hand side (`err`), else a non-finite entry in `states`
/// reported as [`ControlError::NoConvergence`] with `what`.
pub fn check_step(
    what: &str,
    k: usize,
    err: Option<ControlError>,
    states: &[&[f64]],
) -> Result<()> {
    if let Some(e) = err {
        return Err(e);
    }
    if states.iter().any(|z| z.iter().any(|v| !v.is_finite())) {
        return Err(ControlError::NoConvergence {
            what: what.into(),
            iterations: k,
            residual: f64::INFINITY,
        });
    }
    Ok(())
}

/// Peak reduction of one floor, in percent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeakReduction {
    /// `100 (1 − max|xᶜ| / max|xⁿᶜ|)`
    pub displacement: f64,
    /// `100 (1 − max|ẋᶜ| / max|ẋⁿᶜ|)`
    pub velocity: f64,
}

/// Time histories of a case-study run (one row per stored sample).
#[derive(Clone, Debug, Default)]
pub struct CaseTrace {
    /// times (s)
    pub t: Vec<f64>,
    /// plant states `[x₁, x₂, x₃, θ, ẋ₁, ẋ₂, ẋ₃, θ̇]`
    pub z: Vec<[f64; 8]>,
    /// estimates (same layout; equal to `z` for full-state feedback)
    pub zhat: Vec<[f64; 8]>,
    /// control action (N or N m; zero before the switch-on)
    pub control: Vec<f64>,
    /// time the controller was switched on (s)
    pub t_on: f64,
}

impl CaseTrace {
    /// Largest `|z[k]|` over `t ≥ t0`.
    pub fn peak(&self, k: usize, t0: f64) -> f64 {
        self.t
            .iter()
            .zip(&self.z)
            .filter(|(t, _)| **t >= t0)
            .map(|(_, z)| z[k].abs())
            .fold(0.0, f64::max)
    }

    /// Largest `|u|` over the run.
    pub fn peak_control(&self) -> f64 {
        self.control.iter().map(|u| u.abs()).fold(0.0, f64::max)
    }

    /// Store a sample.
    pub fn push(&mut self, t: f64, z: &[f64], zhat: &[f64], u: f64) {
        let mut a = [0.0; 8];
        a.copy_from_slice(&z[..8]);
        let mut b = [0.0; 8];
        b.copy_from_slice(&zhat[..8]);
        self.t.push(t);
        self.z.push(a);
        self.zhat.push(b);
        self.control.push(u);
    }
}

/// Peak reductions per floor: peaks of `controlled` vs `uncontrolled` over
/// the window `t ≥ t_end − window` (the steady state of both runs).
pub fn peak_reductions(
    controlled: &CaseTrace,
    uncontrolled: &CaseTrace,
    window: f64,
) -> Result<[PeakReduction; 3]> {
    let t_end = controlled
        .t
        .last()
        .copied()
        .ok_or_else(|| ControlError::NotEnoughData {
            what: "peak reductions".into(),
            needed: 1,
            available: 0,
        })?;
    let t0 = t_end - window;
    let red = |k: usize| -> f64 {
        let nc = uncontrolled.peak(k, t0);
        if nc > 0.0 {
            100.0 * (1.0 - controlled.peak(k, t0) / nc)
        } else {
            0.0
        }
    };
    Ok([0, 1, 2].map(|i| PeakReduction {
        displacement: red(i),
        velocity: red(4 + i),
    }))
}
