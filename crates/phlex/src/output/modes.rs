//! Eigenfrequencies for `phlex modes`: adapter from `phlex_solve::eigen` to the table
//! ([`ModeRow`], [`ModeTable`]) printed by the command and written as JSON.
use std::path::Path;

use anyhow::{Context, Result};
use phlex_core::LinearPhSystem;
use phlex_solve::eigen::{modes, EigenParams, Mode};
use serde::Serialize;

use super::files::write_atomic;

/// One row of the `phlex modes` table.
#[derive(Debug, Clone, Serialize)]
pub struct ModeRow {
    /// Mode number (1-based).
    pub mode: usize,
    /// Angular frequency ω [rad/s].
    pub omega: f64,
    /// Frequency f = ω/2π \[Hz\].
    pub frequency_hz: f64,
    /// Damping ratio.
    pub damping_ratio: f64,
}

/// The rows of the first `n` of `modes` (a negative zero damping ratio printed as zero).
pub fn mode_rows(modes: &[Mode], n: usize) -> Vec<ModeRow> {
    modes
        .iter()
        .take(n)
        .enumerate()
        .map(|(k, m)| ModeRow {
            mode: k + 1,
            omega: m.omega,
            frequency_hz: m.omega / (2.0 * std::f64::consts::PI),
            damping_ratio: m.damping_ratio + 0.0,
        })
        .collect()
}

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
    Ok(mode_rows(&r.modes, n))
}

/// The `phlex modes` table of the model `name` with the pH system `sys`: its first `n`
/// eigenfrequencies with the eigensolver settings `params`.
pub fn mode_table(
    name: &str,
    sys: &LinearPhSystem,
    n: usize,
    params: &EigenParams,
) -> Result<ModeTable> {
    let rows = frequencies_with(sys, n, params).context("eigen-analysis failed")?;
    Ok(ModeTable::new(name, sys.n_states(), rows))
}

/// The result of `phlex modes` for one model.
#[derive(Debug, Clone, Serialize)]
pub struct ModeTable {
    /// Model name.
    pub model: String,
    /// Number of states of the analysed system.
    pub states: usize,
    /// Constraint rows of a multibody system (linearised about its initial configuration).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constraints: Option<usize>,
    /// What the modes are, for the header line (`"modes"`, `"constrained modes about the
    /// initial configuration"`).
    #[serde(skip)]
    pub what: &'static str,
    /// The modes.
    pub modes: Vec<ModeRow>,
}

impl ModeTable {
    /// The modes of a model with `states` states.
    pub fn new(model: &str, states: usize, modes: Vec<ModeRow>) -> Self {
        Self {
            model: model.to_string(),
            states,
            constraints: None,
            what: "modes",
            modes,
        }
    }

    /// Prints the table and writes it as JSON to `json` if given.
    pub fn print(&self, json: Option<&Path>) -> Result<()> {
        let constraints = self
            .constraints
            .map(|c| format!(", {c} constraints"))
            .unwrap_or_default();
        println!(
            "{}: {} states{constraints}, first {} {}",
            self.model,
            self.states,
            self.modes.len(),
            self.what
        );
        println!(
            "  {:>4}  {:>16}  {:>16}  {:>10}",
            "mode", "omega [rad/s]", "f [Hz]", "zeta"
        );
        for r in &self.modes {
            println!(
                "  {:>4}  {:>16.8e}  {:>16.8e}  {:>10.3e}",
                r.mode, r.omega, r.frequency_hz, r.damping_ratio
            );
        }
        if let Some(j) = json {
            write_atomic(j, &serde_json::to_vec_pretty(self)?)?;
            println!("  written {}", j.display());
        }
        Ok(())
    }
}
