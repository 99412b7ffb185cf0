//! What a multibody run (planar or spatial) reports: the summary ([`MbsSummary`], the
//! discrete energy balance $H_1 - H_0 = h\,\bar y^\top u - h\,\bar z^\top R\bar z$ of the
//! midpoint / discrete gradient scheme or the sampled one of Radau IIA, and each force
//! element's share), the energy account of the recorded samples and the plots; the planar
//! runner [`simulate`] is re-exported.
use std::ops::Range;

use anyhow::Result;
use serde::Serialize;

use super::columns::{COL_DISSIPATED, COL_H, COL_WORK, FORCE_COLUMNS, LEADING};
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
    /// Constraint rows released as redundant (`[initial] redundant_constraints =
    /// "remove"`): left out of the constraints, multipliers zero; their position residuals
    /// are part of `joint_drift`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub released_rows: Vec<String>,
    /// The share of each force element in the energy account (element name → stored
    /// energy at the start and the end, energy dissipated).
    pub force_elements: std::collections::BTreeMap<String, ForceShare>,
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

/// A force element's share of the energy account.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct ForceShare {
    /// Stored energy $V(\ell)$ at the first sample \[J\].
    pub energy_initial: f64,
    /// Stored energy at the last sample \[J\].
    pub energy_final: f64,
    /// Energy dissipated, $\int d\,\dot\ell^2\,dt$ by the trapezoidal rule on the output
    /// samples \[J\] (the total of all elements is exact in `energy_dissipated` for the
    /// one-step schemes).
    pub dissipated: f64,
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
        let shares: Vec<(String, String)> = self
            .force_elements
            .iter()
            .map(|(n, f)| {
                (
                    format!("force element {n} [J]"),
                    format!(
                        "stored {} -> {}, dissipated {} (sampled)",
                        sci(f.energy_initial),
                        sci(f.energy_final),
                        sci(f.dissipated)
                    ),
                )
            })
            .collect();
        rows.extend(shares.iter().map(|(k, v)| (k.as_str(), v.clone())));
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
                "released redundant rows",
                if self.released_rows.is_empty() {
                    "none".into()
                } else {
                    self.released_rows.join(", ")
                },
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
    let energies: Vec<(String, Vec<f64>)> = (1..=COL_H)
        .map(|k| (format!("{} [J]", LEADING[k]), col(k)))
        .filter(|(n, c)| n.starts_with("H ") || c.iter().any(|v| *v != 0.0))
        .collect();
    let series: Vec<(&str, &[f64], &[f64])> = energies
        .iter()
        .map(|(n, c)| (n.as_str(), t.as_slice(), c.as_slice()))
        .collect();
    files.push((
        "energy.svg".to_string(),
        svg_plot(&format!("{name}: energies"), "t [s]", &series)?.into_bytes(),
    ));
    let (h, w, dis) = (col(COL_H), col(COL_WORK), col(COL_DISSIPATED));
    let h0 = h.first().copied().unwrap_or(0.0);
    let bal: Vec<f64> = (0..h.len()).map(|k| h[k] - h0 - w[k] + dis[k]).collect();
    files.push((
        "energy_balance.svg".into(),
        svg_plot(
            &format!("{name}: H(t) - H(0) - W(t) + D(t)"),
            "t [s]",
            &[("H - H0 - W + D [J]", &t, &bal)],
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
            "force_coordinates" => "force element lengths and angles [m, rad]",
            "force_efforts" => "force element tensions and torques [N, N m]",
            "force_energies" => "energy stored in force elements [J]",
            "force_dissipation" => "power dissipated in force elements [W]",
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

/// The cumulative trapezoidal integral of the samples `p` over the times of `rows`.
fn trapezoid(rows: &[Vec<f64>], p: impl Fn(usize) -> f64) -> Vec<f64> {
    let mut acc = 0.0;
    (0..rows.len())
        .map(|k| {
            if k > 0 {
                acc += 0.5 * (rows[k][0] - rows[k - 1][0]) * (p(k) + p(k - 1));
            }
            acc
        })
        .collect()
}

/// The energy account of a recorded run (rows starting with [`LEADING`], last column the
/// drift): writes the cumulative supplied work $W$ and dissipated energy $D$ into their
/// columns (exact per step from the one-step ledger when `exact` is given, else
/// trapezoidal on the sampled input power $y^\top u$ and dissipated power $z^\top Rz$ of
/// `powers`) and returns `(H(0), energy scale, max |H − H(0) − W + D|, max constraint drift
/// (at least `mid_drift`), power-balance residual (the per-step one when given, else per
/// sample interval))`. Shared by the planar and spatial runners.
pub(crate) fn energy_account(
    rows: &mut [Vec<f64>],
    (power, dissipation): (&[f64], &[f64]),
    exact: Option<(Vec<f64>, Vec<f64>)>,
    step_res: Option<f64>,
    mid_drift: f64,
) -> anyhow::Result<(f64, f64, f64, f64, f64)> {
    anyhow::ensure!(!rows.is_empty(), "no samples recorded");
    let (work, dissipated) = exact.unwrap_or_else(|| {
        (
            trapezoid(rows, |k| power[k]),
            trapezoid(rows, |k| dissipation[k]),
        )
    });
    for ((r, w), d) in rows.iter_mut().zip(&work).zip(&dissipated) {
        r[COL_WORK] = *w;
        r[COL_DISSIPATED] = *d;
    }
    let h0 = rows[0][COL_H];
    let net = |r: &[f64]| r[COL_H] - r[COL_WORK] + r[COL_DISSIPATED];
    let mut scale = f64::MIN_POSITIVE;
    let mut drift = 0.0f64;
    let mut cdrift = mid_drift;
    let mut sample_res = 0.0f64;
    for (k, r) in rows.iter().enumerate() {
        let stored = r[1] + r[2] + r[3].abs() + r[4].abs();
        scale = scale
            .max(stored)
            .max(r[COL_WORK].abs())
            .max(r[COL_DISSIPATED]);
        drift = drift.max((net(r) - h0).abs());
        cdrift = cdrift.max(*r.last().unwrap_or(&0.0));
        if k > 0 {
            sample_res = sample_res.max((net(r) - net(&rows[k - 1])).abs());
        }
    }
    Ok((h0, scale, drift, cdrift, step_res.unwrap_or(sample_res)))
}

/// Each force element's share of the energy account from the recorded `rows`, whose
/// force-element columns start at `first` ([`FORCE_COLUMNS`]: lengths, tensions,
/// energies, dissipated powers, one column per element each).
pub(crate) fn force_shares(
    rows: &[Vec<f64>],
    (names, first): &(Vec<String>, usize),
) -> std::collections::BTreeMap<String, ForceShare> {
    let n = names.len();
    let quantity = |g: &str| FORCE_COLUMNS.iter().position(|c| c.group == g).unwrap_or(0);
    let (energy, power) = (quantity("force_energies"), quantity("force_dissipation"));
    let (Some(r0), Some(r1)) = (rows.first(), rows.last()) else {
        return Default::default();
    };
    names
        .iter()
        .enumerate()
        .map(|(e, name)| {
            let (ce, cp) = (first + energy * n + e, first + power * n + e);
            let dissipated = trapezoid(rows, |k| rows[k][cp]).last().copied();
            let share = ForceShare {
                energy_initial: r0[ce],
                energy_final: r1[ce],
                dissipated: dissipated.unwrap_or(0.0),
            };
            (name.clone(), share)
        })
        .collect()
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
