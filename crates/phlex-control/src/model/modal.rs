//! Modal parameters of a state-space model (thesis 002 §3.3 and §3.6.4,
//! eqs. (3.25)–(3.37), (3.79)–(3.81)).
//!
//! `A Ψ = Ψ Λ`; for a discrete model `λ_c = ln(λ)/Δt` (principal branch,
//! aliasing-free below Nyquist); `f = |λ_c|/2π`, `ξ = −Re λ_c/|λ_c|`; mode
//! shapes at the sensors `C Ψ`, written as `ρ e^{iΘ}` with magnitudes and
//! phases relative to a reference sensor.

use crate::error::{ControlError, Result};
use crate::linalg::eig;
use crate::model::state_space::StateSpace;
use faer::c64;
use std::f64::consts::PI;
use std::fmt;

/// One identified mode.
#[derive(Clone, Debug)]
pub struct ModalParams {
    /// continuous-time eigenvalue (Im ≥ 0 member of the pair)
    pub lambda_c: c64,
    /// natural frequency in Hz, `|λ_c|/2π`
    pub freq_hz: f64,
    /// damping ratio `−Re λ_c / |λ_c|`
    pub damping: f64,
    /// complex mode shape at the sensors, divided by the reference component
    pub shape: Vec<c64>,
    /// magnitudes `ρᵢ = |shapeᵢ|` (reference = 1)
    pub magnitude: Vec<f64>,
    /// phases `Θᵢ ∈ (−π, π]` relative to the reference sensor (rad)
    pub phase: Vec<f64>,
    /// `true` for a real (non-oscillatory) eigenvalue
    pub real: bool,
}

/// Table of modes sorted by frequency.
#[derive(Clone, Debug, Default)]
pub struct ModalTable {
    /// the modes
    pub modes: Vec<ModalParams>,
}

impl ModalTable {
    /// Frequencies (Hz) of the oscillatory modes.
    pub fn frequencies(&self) -> Vec<f64> {
        self.oscillatory(|m| m.freq_hz)
    }
    /// Damping ratios of the oscillatory modes.
    pub fn dampings(&self) -> Vec<f64> {
        self.oscillatory(|m| m.damping)
    }
    /// `value` of every oscillatory (complex-pair) mode, in table order.
    fn oscillatory(&self, value: impl Fn(&ModalParams) -> f64) -> Vec<f64> {
        self.modes.iter().filter(|m| !m.real).map(value).collect()
    }
}

impl fmt::Display for ModalTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:>4} {:>10} {:>9}  rho / Theta (rad)",
            "mode", "f (Hz)", "xi"
        )?;
        for (k, m) in self.modes.iter().enumerate() {
            let shape: Vec<String> = m
                .magnitude
                .iter()
                .zip(&m.phase)
                .map(|(r, t)| format!("{r:.4}∠{t:+.4}"))
                .collect();
            writeln!(
                f,
                "{:>4} {:>10.4} {:>9.5}  {}{}",
                k + 1,
                m.freq_hz,
                m.damping,
                shape.join("  "),
                if m.real { "  (real)" } else { "" }
            )?;
        }
        Ok(())
    }
}

/// Wraps an angle to `(−π, π]`.
pub fn wrap_angle(a: f64) -> f64 {
    let mut x = a % (2.0 * PI);
    if x <= -PI {
        x += 2.0 * PI;
    } else if x > PI {
        x -= 2.0 * PI;
    }
    x
}

/// Continuous eigenvalue of a discrete one, `ln(λ)/Δt` (principal branch).
pub fn continuous_eigenvalue(lambda: c64, dt: f64) -> Result<c64> {
    if lambda.norm() == 0.0 {
        return Err(ControlError::NoLogarithm { re: 0.0, im: 0.0 });
    }
    Ok(lambda.ln() / dt)
}

/// Modal parameters of `sys`, shapes normalised to output `reference`.
pub fn modal_parameters(sys: &StateSpace, reference: usize) -> Result<ModalTable> {
    let m = sys.n_outputs();
    if reference >= m.max(1) {
        return Err(ControlError::InvalidParameter {
            name: "reference".into(),
            reason: format!("reference sensor {reference} must be < m = {m}"),
        });
    }
    let (vals, vecs) = eig("A", sys.A.as_ref())?;
    let n = sys.n_states();
    let mut modes = Vec::new();
    for (k, l) in vals.iter().enumerate() {
        let lc = match sys.dt {
            Some(dt) => continuous_eigenvalue(*l, dt)?,
            None => *l,
        };
        let scale = lc.norm().max(1.0);
        let real = lc.im.abs() <= 1e-12 * scale;
        if !real && lc.im < 0.0 {
            continue;
        }
        // shape at sensors: C ψ
        let shape_raw: Vec<c64> = (0..m)
            .map(|i| {
                let mut s = c64::new(0.0, 0.0);
                for j in 0..n {
                    s += vecs[(j, k)] * sys.C[(i, j)];
                }
                s
            })
            .collect();
        let refc = if m > 0 {
            shape_raw[reference]
        } else {
            c64::new(1.0, 0.0)
        };
        let shape: Vec<c64> = if refc.norm() > 0.0 {
            shape_raw.iter().map(|s| s / refc).collect()
        } else {
            shape_raw.clone()
        };
        let w = lc.norm();
        modes.push(ModalParams {
            lambda_c: if real { c64::new(lc.re, 0.0) } else { lc },
            freq_hz: w / (2.0 * PI),
            damping: if w > 0.0 { -lc.re / w } else { 0.0 },
            magnitude: shape.iter().map(|s| s.norm()).collect(),
            phase: shape.iter().map(|s| wrap_angle(s.arg())).collect(),
            shape,
            real,
        });
    }
    modes.sort_by(|a, b| a.freq_hz.total_cmp(&b.freq_hz));
    Ok(ModalTable { modes })
}
