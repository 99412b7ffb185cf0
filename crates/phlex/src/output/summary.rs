//! Run summaries: the table printed at the end of a run and `summary.json`.
use phlex_core::diagnostics::EnergyLedger;
use phlex_solve::SolverStats;
use serde::Serialize;

use super::files::RunReport;

/// Everything a run reports at the end.
#[derive(Debug, Clone, Serialize, Default)]
pub struct RunSummary {
    /// Model name.
    pub model: String,
    /// Integrator used.
    pub integrator: String,
    /// Number of state variables.
    pub states: usize,
    /// Final time reached \[s\].
    pub final_time: f64,
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps.
    pub rejected_steps: usize,
    /// Newton iterations (0 for linear one-shot solves).
    pub newton_iterations: usize,
    /// Numeric LU factorizations.
    pub factorizations: usize,
    /// The discrete energy balance: $H(0)$, $H(t_{end})$, supplied and dissipated energy
    /// and the residual of the balance.
    #[serde(flatten)]
    pub energy: EnergyBalance,
    /// max |H(t) − H(0) − W(t) + D(t)| relative to the energy scale.
    pub energy_drift: f64,
    /// Largest step power-balance residual |ΔH − h yᵀu + h eᵀRe| \[J\].
    pub power_balance_residual: f64,
    /// The same, relative to the energy scale.
    pub power_balance_residual_relative: f64,
    /// Wall time of the integration \[s\].
    pub wall_time_s: f64,
    /// Files written.
    pub outputs: Vec<String>,
}

/// The discrete energy balance of a run, the same keys in the `summary.json` of every kind
/// and integrator (paper 000 eq. (46)):
/// $$H(t_{end}) - H(0) = \int_0^{t_{end}} y^\top u\,dt - \int_0^{t_{end}} z^\top R z\,dt + r,$$
/// with the supplied and dissipated energies of the integrator's ledger (exact discrete
/// values of the one-step methods, trapezoidal quadrature over the output samples for
/// Radau IIA) and the residual $r$ (`energy_balance_residual`).
#[derive(Debug, Clone, Copy, Serialize, Default, PartialEq)]
pub struct EnergyBalance {
    /// Initial Hamiltonian $H(0)$ \[J\].
    pub h_initial: f64,
    /// Final Hamiltonian $H(t_{end})$ \[J\].
    pub h_final: f64,
    /// Energy supplied through the ports $W = \int y^\top u\,dt$ \[J\].
    pub energy_supplied: f64,
    /// Energy dissipated $D = \int z^\top R z\,dt$ \[J\].
    pub energy_dissipated: f64,
    /// $r = H(t_{end}) - H(0) - W + D$ \[J\]: round-off and Newton tolerance for the
    /// structure-preserving methods, the $O(h^2)$ energy error of Störmer–Verlet, the
    /// tolerance and quadrature error for Radau IIA.
    pub energy_balance_residual: f64,
}

impl EnergyBalance {
    /// The balance of the energy account `ledger` over its whole span.
    pub fn from_ledger(ledger: &EnergyLedger) -> Self {
        let h_initial = ledger.hamiltonian.first().copied().unwrap_or(0.0);
        let h_final = ledger.hamiltonian.last().copied().unwrap_or(h_initial);
        let energy_supplied = ledger.supplied.last().map_or(0.0, |v| v.iter().sum());
        let energy_dissipated = ledger.dissipated.last().copied().unwrap_or(0.0);
        Self::new(h_initial, h_final, energy_supplied, energy_dissipated)
    }

    /// The balance of $H(0)$, $H(t_{end})$, the supplied and the dissipated energy.
    pub fn new(h_initial: f64, h_final: f64, energy_supplied: f64, energy_dissipated: f64) -> Self {
        Self {
            h_initial,
            h_final,
            energy_supplied,
            energy_dissipated,
            energy_balance_residual: h_final - h_initial - energy_supplied + energy_dissipated,
        }
    }
}

/// Formats a value in scientific notation, without a negative zero.
pub fn sci(v: f64) -> String {
    format!("{:.6e}", if v == 0.0 { 0.0 } else { v })
}

/// The rows of a summary table on the work of a run: final time, accepted (rejected) steps,
/// Newton iterations and LU factorizations.
pub fn work_rows(
    final_time: f64,
    (steps, rejected): (usize, usize),
    newton_iterations: usize,
    factorizations: usize,
) -> [(&'static str, String); 4] {
    [
        ("final time [s]", format!("{final_time:.6}")),
        ("steps (rejected)", format!("{steps} ({rejected})")),
        ("Newton iterations", newton_iterations.to_string()),
        ("LU factorizations", factorizations.to_string()),
    ]
}

/// The rows of a summary table on the discrete energy balance of a run (the same for every
/// kind): the residual of $H_N - H_0 - \sum(\text{supplied} - \text{dissipated})$ of
/// `energy`, the relative drift `drift` and the largest per-step power-balance residual
/// `(absolute, relative)` ([`EnergyLedger`]).
pub fn balance_rows(
    energy: &EnergyBalance,
    drift: f64,
    (residual, relative): (f64, f64),
) -> [(&'static str, String); 3] {
    [
        (
            "energy balance residual [J]",
            format!("{:.3e}", energy.energy_balance_residual),
        ),
        ("energy drift (relative)", format!("{drift:.3e}")),
        (
            "power-balance residual",
            format!("{residual:.3e} J ({relative:.3e} relative)"),
        ),
    ]
}

/// The rows of a summary table, keys left-aligned in one column (two spaces of indent).
pub fn table(rows: &[(&str, String)]) -> String {
    let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let mut s = String::new();
    for (k, v) in rows {
        s.push_str(&format!("  {k:<w$}  {v}\n"));
    }
    s
}

impl RunReport for RunSummary {
    fn outputs_mut(&mut self) -> &mut Vec<String> {
        &mut self.outputs
    }
    fn summary_table(&self) -> String {
        self.table()
    }
}

impl RunSummary {
    /// The summary of a run of `model` (`states` states) with the `integrator`, whose energy
    /// account is `ledger` (H at the samples, supplied work per port, dissipation, step
    /// power-balance residuals), work counters `stats`, final time `t_final` and wall time
    /// `wall`; `outputs` is filled when the files are written.
    pub fn from_ledger(
        model: &str,
        integrator: String,
        states: usize,
        ledger: &EnergyLedger,
        stats: &SolverStats,
        t_final: f64,
        wall: f64,
    ) -> Self {
        let l = ledger;
        Self {
            model: model.to_string(),
            integrator,
            states,
            final_time: t_final,
            steps: stats.steps,
            rejected_steps: stats.rejected_steps,
            newton_iterations: stats.newton_iterations,
            factorizations: stats.factorizations,
            energy: EnergyBalance::from_ledger(l),
            energy_drift: l.relative_drift(),
            power_balance_residual: l.max_residual(),
            power_balance_residual_relative: l.max_relative_residual(),
            wall_time_s: wall,
            outputs: Vec::new(),
        }
    }

    /// The human-readable table.
    pub fn table(&self) -> String {
        let mut rows: Vec<(&str, String)> = vec![
            ("model", self.model.clone()),
            ("integrator", self.integrator.clone()),
            ("states", self.states.to_string()),
        ];
        rows.extend(work_rows(
            self.final_time,
            (self.steps, self.rejected_steps),
            self.newton_iterations,
            self.factorizations,
        ));
        rows.extend([
            (
                "H(0) -> H(end) [J]",
                format!(
                    "{} -> {}",
                    sci(self.energy.h_initial),
                    sci(self.energy.h_final)
                ),
            ),
            (
                "energy in through ports [J]",
                format!("{:.6e}", self.energy.energy_supplied),
            ),
            (
                "energy dissipated [J]",
                format!("{:.6e}", self.energy.energy_dissipated),
            ),
        ]);
        rows.extend(balance_rows(
            &self.energy,
            self.energy_drift,
            (
                self.power_balance_residual,
                self.power_balance_residual_relative,
            ),
        ));
        rows.push(("wall time [s]", format!("{:.3}", self.wall_time_s)));
        table(&rows)
    }
}
