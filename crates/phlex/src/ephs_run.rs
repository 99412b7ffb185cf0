//! `phlex run` / `check` / `ephs draw` for EPHS model files (`[components.*]`,
//! `[patterns.*]`; format documented in `phlex_ephs::model_file`).
use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use phlex_ephs::model_file::{Model, ModelError as EphsModelError};
use serde::Serialize;

use crate::model::ModelError;
use crate::output::{svg_plot, write_atomic, TimeSeries};

/// True if the TOML text is an EPHS model (it has `components` or `patterns` tables).
pub fn is_ephs(text: &str) -> bool {
    match text.parse::<toml::Table>() {
        Ok(t) => t.contains_key("components") || t.contains_key("patterns"),
        Err(_) => false,
    }
}

fn convert(e: EphsModelError) -> anyhow::Error {
    anyhow::Error::new(ModelError {
        file: e.file,
        line: e.line,
        message: e.message,
    })
}

/// Summary of an EPHS run.
#[derive(Debug, Serialize)]
pub struct EphsSummary {
    /// Model name.
    pub model: String,
    /// Output samples.
    pub samples: usize,
    /// Final time [s].
    pub final_time: f64,
    /// E_mech at start and end [J].
    pub mechanical_energy: (f64, f64),
    /// Entropy at start and end [J/K].
    pub entropy: (f64, f64),
    /// max |E_tot(t) − E_tot(0)| / max(|E_tot(0)|, E_mech(0)) with E_tot = E_mech + θ₀ s
    /// (a drift for closed models; the exchanged energy for models driven by inputs).
    pub total_energy_change: f64,
    /// True if the entropy never decreases (up to 1e-12 relative).
    pub entropy_non_decreasing: bool,
    /// Wall time [s].
    pub wall_time_s: f64,
}

/// Parses, builds and simulates an EPHS model; writes `timeseries.csv`, `summary.json`
/// and `energy.svg` into `dir`.
pub fn run(path: &Path, text: &str, dir: &Path, quiet: bool) -> Result<()> {
    let file = path.display().to_string();
    let model = Model::parse(&file, text).map_err(convert)?;
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
    names.extend(tr.columns.iter().cloned());
    let mut ts = TimeSeries::new(names);
    for k in 0..tr.t.len() {
        let mut row = vec![
            tr.t[k],
            tr.mechanical_energy[k],
            tr.entropy[k],
            tr.total_energy[k],
        ];
        row.extend_from_slice(&tr.y[k]);
        ts.rows.push(row);
    }
    let n = tr.t.len();
    let e0 = tr.total_energy[0];
    let scale = e0
        .abs()
        .max(tr.mechanical_energy[0].abs())
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
    let summary = EphsSummary {
        model: file.clone(),
        samples: n,
        final_time: tr.t[n - 1],
        mechanical_energy: (tr.mechanical_energy[0], tr.mechanical_energy[n - 1]),
        entropy: (tr.entropy[0], tr.entropy[n - 1]),
        total_energy_change: drift,
        entropy_non_decreasing: monotone,
        wall_time_s: wall,
    };
    let theta_s: Vec<f64> = tr
        .total_energy
        .iter()
        .zip(&tr.mechanical_energy)
        .map(|(t, m)| t - m)
        .collect();
    let plot = svg_plot(
        "EPHS: energy balance",
        "t [s]",
        &[
            ("E_mech [J]", &tr.t, &tr.mechanical_energy),
            ("theta0*(s - s_ref) [J]", &tr.t, &theta_s),
            ("E_mech + theta0 s [J]", &tr.t, &tr.total_energy),
        ],
    )?;
    write_atomic(&dir.join("timeseries.csv"), &ts.to_csv()?)?;
    write_atomic(&dir.join("energy.svg"), plot.as_bytes())?;
    write_atomic(
        &dir.join("summary.json"),
        &serde_json::to_vec_pretty(&summary)?,
    )?;
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
    println!(
        "  max |Δ(E_mech + theta0 s)| {:.3e} (relative; a drift unless inputs drive the model)",
        drift
    );
    println!("  entropy non-decreasing     {monotone}");
    println!("  wall time [s]              {wall:.3}");
    println!("  results in {}", dir.display());
    Ok(())
}

/// `phlex check` for an EPHS model: parse, type-check and assemble.
pub fn check(path: &Path, text: &str) -> Result<()> {
    let file = path.display().to_string();
    let model = Model::parse(&file, text).map_err(convert)?;
    model.build().map_err(convert)?;
    println!("{file}: ok (EPHS model: typed, flattened and assembled)");
    Ok(())
}

/// `phlex ephs draw`: SVG of a pattern (default: the top pattern).
pub fn draw(path: &Path, pattern: Option<&str>, out: &Path) -> Result<()> {
    let text = std::fs::read_to_string(path).map_err(|e| ModelError {
        file: path.display().to_string(),
        line: 0,
        message: format!("cannot read model file: {e}"),
    })?;
    let model = Model::parse(&path.display().to_string(), &text).map_err(convert)?;
    let svg = model.draw(pattern).map_err(convert)?;
    write_atomic(out, svg.as_bytes())?;
    println!("written {}", out.display());
    Ok(())
}
