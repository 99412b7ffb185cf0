//! Least-squares Rayleigh damping fit (thesis 002 §3.6.4, eqs. (3.82)–(3.85)):
//! `ξⱼ = α/(2ωⱼ) + β ωⱼ/2`, i.e. `A x = b` with rows `[1/(2ωⱼ), ωⱼ/2]`,
//! `x = [α, β]`, solved as `x = A⁺ b`.

use crate::error::{ControlError, Result};
use crate::linalg::pinv;
use faer::Mat;
use std::f64::consts::PI;

/// Fits `(α, β)` to modal frequencies (Hz) and damping ratios.
pub fn fit_rayleigh(freq_hz: &[f64], damping: &[f64]) -> Result<(f64, f64)> {
    if freq_hz.len() != damping.len() {
        return Err(ControlError::Dimension {
            name: "damping".into(),
            expected: format!("{} values (one per frequency)", freq_hz.len()),
            got: format!("{}", damping.len()),
        });
    }
    if freq_hz.len() < 2 {
        return Err(ControlError::NotEnoughData {
            what: "Rayleigh fit (two unknowns α, β)".into(),
            needed: 2,
            available: freq_hz.len(),
        });
    }
    for (i, &f) in freq_hz.iter().enumerate() {
        if f <= 0.0 || !f.is_finite() || !damping[i].is_finite() {
            return Err(ControlError::InvalidParameter {
                name: format!("mode {i}"),
                reason: "frequency must satisfy 0 < f < ∞ and damping must be finite".into(),
            });
        }
    }
    let n = freq_hz.len();
    let w: Vec<f64> = freq_hz.iter().map(|f| 2.0 * PI * f).collect();
    let A = Mat::from_fn(n, 2, |i, j| {
        if j == 0 {
            1.0 / (2.0 * w[i])
        } else {
            w[i] / 2.0
        }
    });
    let b = Mat::from_fn(n, 1, |i, _| damping[i]);
    let x = pinv("Rayleigh fit matrix", A.as_ref(), 1e-12)? * &b;
    Ok((x[(0, 0)], x[(1, 0)]))
}
