//! Time integration of a built beam model, with progress reporting and recording.
use std::time::Instant;

use anyhow::{bail, Result};
use phlex_core::diagnostics::EnergyLedger;
use phlex_core::sparse;
use phlex_solve::SolverStats;

use super::build::Built;
use crate::integration::Simulation;
use crate::output::{Progress, RunSummary, TimeSeries};

/// Column names: time, H, probes, then u/y/power of every recorded port.
fn columns(b: &Built) -> Vec<String> {
    let mut c = vec!["t".to_string(), "H".to_string()];
    c.extend(b.probes.iter().map(|(n, _)| n.clone()));
    for p in &b.recorded_ports {
        let dim = b.system.ports.get(p).map(|q| q.dim).unwrap_or(0);
        for k in 0..dim {
            c.push(format!("{p}.u{k}"));
        }
        for k in 0..dim {
            c.push(format!("{p}.y{k}"));
        }
        c.push(format!("{p}.power"));
    }
    c
}

/// Records one sample.
fn record(b: &Built, t: f64, e: &[f64], series: &mut TimeSeries) {
    let mut row = Vec::with_capacity(series.names.len());
    row.push(t);
    row.push(b.system.hamiltonian(e));
    for (_, p) in &b.probes {
        row.push(p.dot(e));
    }
    if !b.recorded_ports.is_empty() {
        let u = b.input.eval(t);
        let y = sparse::mul_vec_transpose(&b.system.B, e);
        for p in &b.recorded_ports {
            let r = b.system.ports.range(p).expect("checked at build");
            row.extend_from_slice(&u[r.clone()]);
            row.extend_from_slice(&y[r.clone()]);
            row.push(r.map(|k| u[k] * y[k]).sum());
        }
    }
    series.rows.push(row);
}

/// Result of [`simulate`].
pub struct BeamRun {
    /// Recorded samples.
    pub series: TimeSeries,
    /// Energy account at the output samples.
    pub ledger: EnergyLedger,
    /// Work counters.
    pub stats: SolverStats,
    /// Final time.
    pub t_final: f64,
    /// Wall time of the integration \[s\].
    pub wall: f64,
    /// The integrator as the summary names it.
    pub label: String,
}

/// Integrates the model over the `[simulation]` span with the shared driver
/// ([`Simulation::run`]), recording per `[output]`.
pub fn simulate(b: &Built, sim: &Simulation<'_>, quiet: bool) -> Result<BeamRun> {
    let t_end = sim.t_end();
    let mut series = TimeSeries::new(columns(b));
    let mut progress = Progress::new(0.0, t_end, quiet);
    let start = Instant::now();
    let mut obs = |t: f64, e: &[f64]| {
        record(b, t, e, &mut series);
        progress.update(t);
    };
    let run = sim.run(&b.system, &b.initial, &b.input, (0.0, t_end), &mut obs)?;
    progress.finish();
    if run.ledger.times.len() < 2 {
        bail!(
            "{} produced fewer than two output samples",
            sim.kind().name()
        );
    }
    Ok(BeamRun {
        series,
        ledger: run.ledger,
        stats: run.stats,
        t_final: run.t,
        wall: start.elapsed().as_secs_f64(),
        label: sim.label(),
    })
}

/// The summary of a finished simulation.
pub fn summarize(b: &Built, s: &BeamRun) -> RunSummary {
    RunSummary::from_ledger(
        &b.name,
        s.label.clone(),
        b.system.n_states(),
        &s.ledger,
        &s.stats,
        s.t_final,
        s.wall,
    )
}
