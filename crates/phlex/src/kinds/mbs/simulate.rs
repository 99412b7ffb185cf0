//! What a multibody run (planar or spatial) reports: the summary ([`MbsSummary`], the
//! discrete energy balance $H_1 - H_0 = h\,\bar y^\top u$ of the midpoint / discrete
//! gradient scheme or the sampled one of Radau IIA), the energy account of the recorded
//! samples and the plots; the planar runner [`simulate`] is re-exported.
use std::ops::Range;

use anyhow::Result;
use serde::Serialize;

pub use super::planar::simulate::simulate;
use crate::output::{
    balance_rows, sci, svg_plot, table, work_rows, EnergyBalance, RunReport, TimeSeries,
};

// ---------------------------------------------------------------------------------------
// Simulation and summary
// ---------------------------------------------------------------------------------------

/// `summary.json` of a multibody run.
#[derive(Debug, Clone, Serialize, Default)]
pub struct MbsSummary {
    /// Model name.
    pub model: String,
    /// Integrator.
    pub integrator: String,
    /// State variables (bodies, joint angles/targets, multipliers).
    pub states: usize,
    /// Constraint rows (multipliers).
    pub constraints: usize,
    /// Final time \[s\].
    pub final_time: f64,
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps (Radau).
    pub rejected_steps: usize,
    /// Newton iterations.
    pub newton_iterations: usize,
    /// LU factorizations.
    pub factorizations: usize,
    /// Largest joint position residual before / after the initial correction.
    pub initial_position_residual: (f64, f64),
    /// Largest velocity-constraint residual before / after the initial correction.
    pub initial_velocity_residual: (f64, f64),
    /// The discrete energy balance ($H(0)$, $H(t_{end})$, the energy supplied through the
    /// ports $W = \int y^\top u\,dt$ and dissipated, the residual): exact discrete values
    /// of the one-step methods, trapezoidal rule on the output samples for Radau IIA.
    #[serde(flatten)]
    pub energy: EnergyBalance,
    /// Energy scale: max over the samples of kinetic + deformation + |potential| and |W| \[J\].
    pub energy_scale: f64,
    /// $\max_t |H(t) - H(0) - W(t)|$ / energy scale.
    pub energy_drift: f64,
    /// Midpoint: largest step residual $|H_1 - H_0 - h\bar y^\top u|$; Radau: largest
    /// residual between output samples \[J\].
    pub power_balance_residual: f64,
    /// The same, relative to the energy scale.
    pub power_balance_residual_relative: f64,
    /// Largest position-level joint violation over the output samples \[m or rad\].
    pub max_constraint_drift: f64,
    /// Largest position-level violation of each joint over the output samples (joint
    /// name → m or rad).
    pub joint_drift: std::collections::BTreeMap<String, f64>,
    /// Drift projection (`[simulation] projection = true`): `max_drift_before` is the
    /// largest violation a step produced before its projection, `energy_change` the sum of
    /// the energy jumps of the projections \[J\] (part of `energy_drift`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projection: Option<ProjectionSummary>,
    /// Wall time of the integration \[s\].
    pub wall_time_s: f64,
    /// Files written.
    pub outputs: Vec<String>,
}

/// Summary of the drift projection ([`phlex_core::ProjectionStats`]).
#[derive(Debug, Clone, Serialize)]
pub struct ProjectionSummary {
    /// Steps after which the poses were corrected.
    pub corrected_steps: usize,
    /// Largest position violation produced by a step, before its projection \[m or rad\].
    pub max_drift_before: f64,
    /// Largest violation left after a projection.
    pub max_drift_after: f64,
    /// Sum of the energy jumps $H(x^{proj}) - H(x)$ \[J\].
    pub energy_change: f64,
    /// Largest single jump \[J\].
    pub max_energy_jump: f64,
}

impl MbsSummary {
    /// The human-readable table.
    pub fn table(&self) -> String {
        let mut rows: Vec<(&str, String)> = vec![
            ("model", self.model.clone()),
            ("integrator", self.integrator.clone()),
            (
                "states (constraints)",
                format!("{} ({})", self.states, self.constraints),
            ),
        ];
        rows.extend(work_rows(
            self.final_time,
            (self.steps, self.rejected_steps),
            self.newton_iterations,
            self.factorizations,
        ));
        rows.extend([
            (
                "initial correction pos/vel",
                format!(
                    "{:.3e} -> {:.3e} / {:.3e} -> {:.3e}",
                    self.initial_position_residual.0,
                    self.initial_position_residual.1,
                    self.initial_velocity_residual.0,
                    self.initial_velocity_residual.1
                ),
            ),
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
                sci(self.energy.energy_supplied),
            ),
            ("energy dissipated [J]", sci(self.energy.energy_dissipated)),
        ]);
        rows.extend(balance_rows(
            &self.energy,
            self.energy_drift,
            (
                self.power_balance_residual,
                self.power_balance_residual_relative,
            ),
        ));
        rows.extend([
            (
                "max constraint drift",
                format!("{:.3e}", self.max_constraint_drift),
            ),
            (
                "worst joint drift",
                match self
                    .joint_drift
                    .iter()
                    .max_by(|a, b| a.1.total_cmp(b.1))
                {
                    Some((j, d)) => format!("{j}: {d:.3e}"),
                    None => "no joints".into(),
                },
            ),
            (
                "projection",
                match &self.projection {
                    Some(p) => format!(
                        "{} steps corrected, drift before {:.3e}, energy jumps {:.3e} J (largest {:.3e} J)",
                        p.corrected_steps, p.max_drift_before, p.energy_change, p.max_energy_jump
                    ),
                    None => "off".into(),
                },
            ),
            ("wall time [s]", format!("{:.3}", self.wall_time_s)),
        ]);
        table(&rows)
    }
}

impl RunReport for MbsSummary {
    fn outputs_mut(&mut self) -> &mut Vec<String> {
        &mut self.outputs
    }
    fn summary_table(&self) -> String {
        self.table()
    }
}

/// A finished run: recorded samples and summary.
#[derive(Debug, Clone)]
pub struct MbsRun {
    /// The time series (`t, kinetic, deformation, potential, H, work_in, …, drift`).
    pub series: TimeSeries,
    /// The summary.
    pub summary: MbsSummary,
    /// Column ranges of the output groups (`positions`, `elastic`, `reactions`, `ports`).
    pub groups: Vec<(&'static str, Range<usize>)>,
}

/// SVG plots of a run: energies, energy balance, constraint drift and one plot per group
/// of requested outputs.
/// Shared by the planar and spatial runners (group titles of both).
pub(crate) fn plots(name: &str, run: &MbsRun) -> Result<Vec<(String, Vec<u8>)>> {
    let s = &run.series;
    let t = s.column(0);
    let col = |k: usize| s.column(k);
    let mut files = Vec::new();
    let (k, d, p, h) = (col(1), col(2), col(3), col(4));
    files.push((
        "energy.svg".to_string(),
        svg_plot(
            &format!("{name}: energies"),
            "t [s]",
            &[
                ("kinetic [J]", &t, &k),
                ("deformation [J]", &t, &d),
                ("potential [J]", &t, &p),
                ("H [J]", &t, &h),
            ],
        )?
        .into_bytes(),
    ));
    let h0 = h.first().copied().unwrap_or(0.0);
    let w = col(5);
    let bal: Vec<f64> = h.iter().zip(&w).map(|(a, b)| a - h0 - b).collect();
    files.push((
        "energy_balance.svg".into(),
        svg_plot(
            &format!("{name}: H(t) - H(0) - W(t)"),
            "t [s]",
            &[("H - H0 - W [J]", &t, &bal)],
        )?
        .into_bytes(),
    ));
    let dr = col(s.names.len() - 1);
    files.push((
        "drift.svg".into(),
        svg_plot(
            &format!("{name}: position-level constraint drift"),
            "t [s]",
            &[("max joint violation [m or rad]", &t, &dr)],
        )?
        .into_bytes(),
    ));
    for (group, range) in &run.groups {
        if range.is_empty() {
            continue;
        }
        let title = match *group {
            "positions" => "point positions and poses [m, rad]",
            "elastic" => "elastic displacements",
            "velocities" => "velocities and angular velocities, inertial [m/s, rad/s]",
            "joint_states" => "joint states [rad, m]",
            "reactions" => "joint reactions [N, N m]",
            _ => "port inputs, outputs and powers",
        };
        let cols: Vec<Vec<f64>> = range.clone().map(col).collect();
        let series: Vec<(&str, &[f64], &[f64])> = range
            .clone()
            .zip(&cols)
            .map(|(k, c)| (s.names[k].as_str(), t.as_slice(), c.as_slice()))
            .collect();
        files.push((
            format!("{group}.svg"),
            svg_plot(&format!("{name}: {title}"), "t [s]", &series)?.into_bytes(),
        ));
    }
    Ok(files)
}

/// The energy account of a recorded run (rows `t, kinetic, deformation, potential, H,
/// work, …, drift`): writes the cumulative supplied work into column 5 (exact per step from
/// the midpoint ledger when given, else trapezoidal on the sampled port power) and returns
/// `(H(0), energy scale, max |H − H(0) − W|, max constraint drift (at least `mid_drift`),
/// power-balance residual (the per-step one when given, else per sample interval))`.
/// Shared by the planar and spatial runners.
pub(crate) fn energy_account(
    rows: &mut [Vec<f64>],
    power: &[f64],
    work: Option<Vec<f64>>,
    step_res: Option<f64>,
    mid_drift: f64,
) -> anyhow::Result<(f64, f64, f64, f64, f64)> {
    let work = work.unwrap_or_else(|| {
        let mut w = Vec::with_capacity(rows.len());
        let mut acc = 0.0;
        for k in 0..rows.len() {
            if k > 0 {
                let h = rows[k][0] - rows[k - 1][0];
                acc += 0.5 * h * (power[k] + power[k - 1]);
            }
            w.push(acc);
        }
        w
    });
    for (r, w) in rows.iter_mut().zip(&work) {
        r[5] = *w;
    }
    anyhow::ensure!(!rows.is_empty(), "no samples recorded");
    let h0 = rows[0][4];
    let mut scale = f64::MIN_POSITIVE;
    let mut drift = 0.0f64;
    let mut cdrift = mid_drift;
    let mut sample_res = 0.0f64;
    for (k, r) in rows.iter().enumerate() {
        scale = scale.max(r[1] + r[2] + r[3].abs()).max(r[5].abs());
        drift = drift.max((r[4] - h0 - r[5]).abs());
        cdrift = cdrift.max(*r.last().unwrap_or(&0.0));
        if k > 0 {
            let p = &rows[k - 1];
            sample_res = sample_res.max((r[4] - p[4] - (r[5] - p[5])).abs());
        }
    }
    Ok((h0, scale, drift, cdrift, step_res.unwrap_or(sample_res)))
}

/// The run summary's view of the projection statistics.
pub fn projection_summary(p: Option<phlex_core::ProjectionStats>) -> Option<ProjectionSummary> {
    p.map(|p| ProjectionSummary {
        corrected_steps: p.corrected_steps,
        max_drift_before: p.max_drift_before,
        max_drift_after: p.max_drift_after,
        energy_change: p.energy_change,
        max_energy_jump: p.max_energy_jump,
    })
}
