//! Eigenfrequencies of a built model: adapter from `phlex_solve::eigen` to the CLI table.
use anyhow::Result;
use phlex_core::LinearPhSystem;
use phlex_solve::eigen::{modes, EigenParams};

use crate::app::ModeRow;

/// The first `n` eigenfrequencies of the pencil $E\Phi\Lambda = (J - R)\Phi$ (dense for small
/// systems, shift-and-invert Arnoldi for large ones), multipliers included.
pub fn frequencies(sys: &LinearPhSystem, n: usize) -> Result<Vec<ModeRow>> {
    let params = EigenParams {
        n_modes: Some(n),
        ..Default::default()
    };
    frequencies_with(sys, n, &params)
}

/// The same with explicit eigensolver settings (shift, Krylov dimension, zero tolerance).
pub fn frequencies_with(
    sys: &LinearPhSystem,
    n: usize,
    params: &EigenParams,
) -> Result<Vec<ModeRow>> {
    let r = modes(sys, params)?;
    Ok(r.modes
        .iter()
        .take(n)
        .enumerate()
        .map(|(k, m)| ModeRow {
            mode: k + 1,
            omega: m.omega,
            frequency_hz: m.omega / (2.0 * std::f64::consts::PI),
            damping_ratio: m.damping_ratio,
        })
        .collect())
}
