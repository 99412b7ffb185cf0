//! `phlex run` and `phlex ephs draw` of EPHS model files (`[components.*]`,
//! `[patterns.*]`; format documented in `docs/model-format-ephs.md`): the simulated
//! trajectory with its energy, entropy and exergy diagnostics, the summary and the plots.
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use phlex_ephs::model_file::{Model, ModelError as EphsModelError, Trajectory};
use serde::Serialize;

use crate::error::ModelError;
use crate::output::{svg_plot, write_atomic, EnergyBalance, OutputFiles, TimeSeries};
use crate::source::ModelSource;

impl From<ModelError> for EphsModelError {
    /// A model-file error found before the EPHS parser (a former spelling of a
    /// `[simulation]` key, [`crate::spec::check_renamed_simulation_keys`]).
    fn from(e: ModelError) -> Self {
        Self {
            file: e.file,
            line: e.line,
            message: e.message,
        }
    }
}

/// An EPHS model-file error as a [`ModelError`] (exit code 2).
pub(super) fn convert(e: EphsModelError) -> anyhow::Error {
    anyhow::Error::new(ModelError {
        file: e.file,
        line: e.line,
        message: e.message,
    })
}

/// Spatial momentum of the rigid bodies at start and end, and its largest change.
#[derive(Debug, Serialize)]
pub struct MomentumSummary {
    /// $(L_x, L_y, L_z, P_x, P_y, P_z)$ at $t = 0$ (about the inertial origin).
    pub start: [f64; 6],
    /// At the final time.
    pub end: [f64; 6],
    /// $\max_t |\mu_k(t) - \mu_k(0)|$ per component.
    pub max_change: [f64; 6],
}

/// Summary of an EPHS run (`summary.json`).
#[derive(Debug, Serialize)]
pub struct EphsSummary {
    /// Model name.
    pub model: String,
    /// Output samples.
    pub samples: usize,
    /// Final time \[s\].
    pub final_time: f64,
    /// Reference temperature θ₀ \[K\].
    pub theta0: f64,
    /// The energy balance with the keys of every kind: the total energy
    /// $H = E_{mech} + \theta_0 s$ at the start and the end (`h_initial`, `h_final`), the
    /// work supplied through the outer power ports (trapezoidal rule over the output times),
    /// no dissipation (the entropy produced stays in $H$), and
    /// `energy_balance_residual` $= H(t_{end}) - H(0) - W$ \[J\].
    #[serde(flatten)]
    pub energy: EnergyBalance,
    /// E_mech at start and end \[J\].
    pub mechanical_energy: (f64, f64),
    /// Entropy at start and end [J/K].
    pub entropy: (f64, f64),
    /// max_t |E_tot(t) − E_tot(0)| / scale with E_tot = E_mech + θ₀ s and scale the
    /// largest of |E_tot(0)|, |E_mech(t)|, θ₀|s(t) − s(0)| (a drift for closed models; the
    /// exchanged energy for models driven by inputs).
    pub total_energy_change: f64,
    /// Same as `total_energy_change` for closed models (no outer power ports), where it is
    /// the energy drift of the integrator; `null` for open models.
    pub energy_drift: Option<f64>,
    /// True if the entropy never decreases (up to 1e-12 relative).
    pub entropy_non_decreasing: bool,
    /// Total exergy destroyed θ₀ (s(end) − s(0)) \[J\] (exact: the entropy produced goes to
    /// the environment).
    pub exergy_destroyed: f64,
    /// Exergy destroyed per irreversible component \[J\] (trapezoidal rule over the output
    /// times of the rates in `timeseries.csv`).
    pub exergy_destroyed_by_component: BTreeMap<String, f64>,
    /// Work supplied per outer power port \[J\] (trapezoidal rule over the output times).
    pub supplied_work: BTreeMap<String, f64>,
    /// Open models: max_t |E_tot(t) − E_tot(0) − Σ supplied work(t)| / scale (limited by
    /// the quadrature of the supplied work, O(Δt²)); `null` for closed models.
    pub energy_balance_residual_relative: Option<f64>,
    /// Largest position drift |log((q1 o1 I(q_r))⁻¹ q2 o2)| over time per joint.
    pub joint_drift: BTreeMap<String, f64>,
    /// Largest drift over all joints and times (`null` without joints).
    pub max_joint_drift: Option<f64>,
    /// Spatial momentum of the rigid bodies (`null` without bodies).
    pub spatial_momentum: Option<MomentumSummary>,
    /// "none" or "projection".
    pub stabilization: String,
    /// Accumulated change of E_tot by the drift projections \[J\] (`null` without
    /// stabilisation).
    pub projection_work: Option<f64>,
    /// Wall time \[s\].
    pub wall_time_s: f64,
}

/// Builds the summary of a trajectory.
fn summarize(file: &str, tr: &Trajectory, wall: f64) -> EphsSummary {
    let n = tr.t.len();
    let e0 = tr.total_energy[0];
    // Energy scale: the largest of |E_tot(0)|, |E_mech(t)| and θ₀|s(t) − s(0)| (a model
    // may start at E_mech = 0, e.g. a pendulum released at the potential's datum).
    let scale = tr
        .mechanical_energy
        .iter()
        .map(|e| e.abs())
        .chain(
            tr.entropy
                .iter()
                .map(|s| tr.theta0 * (s - tr.entropy[0]).abs()),
        )
        .fold(e0.abs(), f64::max)
        .max(f64::MIN_POSITIVE);
    let drift = tr
        .total_energy
        .iter()
        .fold(0.0f64, |m, e| m.max((e - e0).abs()))
        / scale;
    let s_scale = tr.entropy.iter().fold(1e-300f64, |m, s| m.max(s.abs()));
    let monotone = tr
        .entropy
        .windows(2)
        .all(|w| w[1] >= w[0] - 1e-12 * s_scale);
    let closed = tr.power_ports.is_empty();
    let supplied = tr.supplied_work();
    // Cumulative supplied work at every output (trapezoidal rule).
    let mut cum = 0.0;
    let mut balance = 0.0f64;
    for k in 0..n {
        if k > 0 {
            let dt = tr.t[k] - tr.t[k - 1];
            cum += 0.5
                * dt
                * (tr.port_power[k].iter().sum::<f64>() + tr.port_power[k - 1].iter().sum::<f64>());
        }
        balance = balance.max((tr.total_energy[k] - e0 - cum).abs() / scale);
    }
    let max_drift = tr.max_joint_drift();
    let spatial_momentum = (!tr.spatial_momentum.is_empty()).then(|| {
        let m0 = tr.spatial_momentum[0];
        let mut max_change = [0.0f64; 6];
        for m in &tr.spatial_momentum {
            for k in 0..6 {
                max_change[k] = max_change[k].max((m[k] - m0[k]).abs());
            }
        }
        MomentumSummary {
            start: m0,
            end: tr.spatial_momentum[n - 1],
            max_change,
        }
    });
    EphsSummary {
        model: file.to_string(),
        samples: n,
        final_time: tr.t[n - 1],
        theta0: tr.theta0,
        energy: EnergyBalance::new(tr.total_energy[0], tr.total_energy[n - 1], cum, 0.0),
        mechanical_energy: (tr.mechanical_energy[0], tr.mechanical_energy[n - 1]),
        entropy: (tr.entropy[0], tr.entropy[n - 1]),
        total_energy_change: drift,
        energy_drift: closed.then_some(drift),
        entropy_non_decreasing: monotone,
        exergy_destroyed: tr.theta0 * (tr.entropy[n - 1] - tr.entropy[0]),
        exergy_destroyed_by_component: tr
            .irreversibles
            .iter()
            .cloned()
            .zip(tr.exergy_destroyed_by_component())
            .collect(),
        supplied_work: tr.power_ports.iter().cloned().zip(supplied).collect(),
        energy_balance_residual_relative: (!closed).then_some(balance),
        joint_drift: tr
            .joints
            .iter()
            .cloned()
            .zip(max_drift.iter().copied())
            .collect(),
        max_joint_drift: (!max_drift.is_empty())
            .then(|| max_drift.iter().fold(0.0f64, |a, b| a.max(*b))),
        spatial_momentum,
        stabilization: if tr.stabilized { "projection" } else { "none" }.into(),
        projection_work: tr.stabilized.then(|| tr.projection_work[n - 1]),
        wall_time_s: wall,
    }
}

/// Parses, builds and simulates an EPHS model; writes `timeseries.csv` (t, E_mech,
/// entropy, E_total, the diagnostics of [`Trajectory::diagnostic_columns`], the state and
/// algebraic columns), `summary.json` ([`EphsSummary`]) and the plots `energy.svg`,
/// `entropy.svg`, and where applicable `exergy_destruction.svg`, `power.svg`,
/// `momentum.svg` and `drift.svg` into `dir`.
pub fn run(model: &Model, dir: &Path, quiet: bool) -> Result<()> {
    let file = model.file.clone();
    if !quiet {
        eprintln!("phlex run: EPHS model {file}");
    }
    let start = Instant::now();
    let tr = model.simulate().map_err(convert)?;
    let wall = start.elapsed().as_secs_f64();
    let mut names = vec![
        "t".to_string(),
        "E_mech".into(),
        "entropy".into(),
        "E_total".into(),
    ];
    names.extend(tr.diagnostic_columns());
    names.extend(tr.columns.iter().cloned());
    let columns: [&[f64]; 4] = [&tr.t, &tr.mechanical_energy, &tr.entropy, &tr.total_energy];
    let ts = TimeSeries::from_columns(names, &columns, |k| {
        [tr.diagnostic_row(k).as_slice(), &tr.y[k]].concat()
    });
    let summary = summarize(&file, &tr, wall);
    let mut plots = Vec::new();
    let theta_s: Vec<f64> = tr
        .total_energy
        .iter()
        .zip(&tr.mechanical_energy)
        .map(|(t, m)| t - m)
        .collect();
    plots.push((
        "energy.svg",
        svg_plot(
            "EPHS: energy balance",
            "t [s]",
            &[
                ("E_mech [J]", &tr.t, &tr.mechanical_energy),
                ("theta0*(s - s_ref) [J]", &tr.t, &theta_s),
                ("E_mech + theta0 s [J]", &tr.t, &tr.total_energy),
            ],
        )?,
    ));
    let ds: Vec<f64> = tr.entropy.iter().map(|s| s - tr.entropy[0]).collect();
    plots.push((
        "entropy.svg",
        svg_plot(
            "EPHS: entropy of the environment",
            "t [s]",
            &[("s(t) - s(0) [J/K]", &tr.t, &ds)],
        )?,
    ));
    let column = |rows: &[Vec<f64>], k: usize| -> Vec<f64> { rows.iter().map(|r| r[k]).collect() };
    let plot_columns = |title: &str, labels: Vec<String>, rows: &[Vec<f64>]| -> Result<String> {
        let cols: Vec<Vec<f64>> = (0..labels.len()).map(|k| column(rows, k)).collect();
        let series: Vec<(&str, &[f64], &[f64])> = labels
            .iter()
            .zip(&cols)
            .map(|(l, c)| (l.as_str(), tr.t.as_slice(), c.as_slice()))
            .collect();
        svg_plot(title, "t [s]", &series)
    };
    if !tr.irreversibles.is_empty() {
        plots.push((
            "exergy_destruction.svg",
            plot_columns(
                "EPHS: exergy destruction rate per irreversible component",
                tr.irreversibles
                    .iter()
                    .map(|n| format!("{n} [W]"))
                    .collect(),
                &tr.exergy_destruction,
            )?,
        ));
    }
    if !tr.power_ports.is_empty() {
        plots.push((
            "power.svg",
            plot_columns(
                "EPHS: power into the outer ports",
                tr.power_ports.iter().map(|n| format!("{n} [W]")).collect(),
                &tr.port_power,
            )?,
        ));
    }
    if !tr.spatial_momentum.is_empty() {
        let rows: Vec<Vec<f64>> = tr.spatial_momentum.iter().map(|m| m.to_vec()).collect();
        plots.push((
            "momentum.svg",
            plot_columns(
                "EPHS: spatial momentum of the bodies (about the origin)",
                ["L_x", "L_y", "L_z", "P_x", "P_y", "P_z"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                &rows,
            )?,
        ));
    }
    if !tr.joints.is_empty() {
        plots.push((
            "drift.svg",
            plot_columns(
                "EPHS: position-constraint drift per joint",
                tr.joints.clone(),
                &tr.joint_drift,
            )?,
        ));
    }
    let mut files = OutputFiles::new(dir);
    files.add("timeseries.csv", ts.to_csv()?);
    for (name, svg) in plots {
        files.add(name, svg.into_bytes());
    }
    files.add("summary.json", serde_json::to_vec_pretty(&summary)?);
    files.write()?;
    let n = tr.t.len();
    println!("  model                      {}", summary.model);
    println!(
        "  samples, final time [s]    {}, {:.6}",
        n, summary.final_time
    );
    println!(
        "  E_mech(0) -> E_mech(end)   {:.6e} -> {:.6e} J",
        summary.mechanical_energy.0, summary.mechanical_energy.1
    );
    println!(
        "  entropy(0) -> entropy(end) {:.6e} -> {:.6e} J/K",
        summary.entropy.0, summary.entropy.1
    );
    match summary.energy_drift {
        Some(d) => println!("  energy drift (closed)      {d:.3e} (relative, max over time)"),
        None => println!(
            "  max |Δ(E_mech + theta0 s)| {:.3e} (relative); balance with supplied work {:.3e}",
            summary.total_energy_change,
            summary.energy_balance_residual_relative.unwrap_or(0.0)
        ),
    }
    println!(
        "  entropy non-decreasing     {}",
        summary.entropy_non_decreasing
    );
    println!(
        "  exergy destroyed           {:.6e} J",
        summary.exergy_destroyed
    );
    if let Some(d) = summary.max_joint_drift {
        println!(
            "  max joint drift            {d:.3e} (stabilization: {})",
            summary.stabilization
        );
    }
    if let Some(m) = &summary.spatial_momentum {
        println!(
            "  spatial momentum change    max {:.3e}",
            m.max_change.iter().fold(0.0f64, |a, b| a.max(*b))
        );
    }
    println!("  wall time [s]              {wall:.3}");
    println!("  results in {}", dir.display());
    Ok(())
}

/// `phlex ephs draw`: SVG of a pattern (default: the top pattern).
pub fn draw(path: &Path, pattern: Option<&str>, out: &Path) -> Result<()> {
    let src = ModelSource::read(path)?;
    let model = src.parse_with(Model::parse).map_err(convert)?;
    let svg = model.draw(pattern).map_err(convert)?;
    write_atomic(out, svg.as_bytes())?;
    println!("written {}", out.display());
    Ok(())
}
