//! Time integration of a built beam model, with progress reporting and recording.
use std::time::Instant;

use anyhow::{bail, Context, Result};
use phlex_core::diagnostics::EnergyLedger;
use phlex_core::sparse;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::gauss::GaussParams;
use phlex_solve::newton::NewtonParams;
use phlex_solve::{Integrator, LedgerKind, Radau5Params, SolveError, SolverStats};

use super::build::Built;
use super::file::OutputSpec;
use crate::output::{Progress, RunSummary, TimeSeries};
use crate::spec::{IntegratorSpec, SimulationSpec};

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
pub struct Simulation {
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
    /// True if the ledger is exact per step (midpoint), false if reconstructed from samples.
    pub exact_ledger: bool,
}

/// The integrator of `[simulation]` and its span (Radau IIA: the output grid of
/// `out.samples` intervals, `dt` as its initial step).
fn integrator_settings(
    sim: &SimulationSpec,
    out: &OutputSpec,
    t_end: f64,
) -> Result<(Integrator, FixedStepParams)> {
    let dt = || -> Result<f64> {
        Ok(*sim
            .dt
            .as_ref()
            .context("simulation.dt is required")?
            .get_ref())
    };
    let fixed = |h: f64| FixedStepParams {
        t0: 0.0,
        t_end,
        h,
        output_every: out.every,
    };
    Ok(match sim.integrator {
        IntegratorSpec::Midpoint => (Integrator::Midpoint(NewtonParams::default()), fixed(dt()?)),
        IntegratorSpec::StormerVerlet => (Integrator::StormerVerlet, fixed(dt()?)),
        IntegratorSpec::Gauss => (
            Integrator::Gauss(GaussParams {
                stages: sim.stages.as_ref().map_or(3, |s| *s.get_ref()),
                ..Default::default()
            }),
            fixed(dt()?),
        ),
        IntegratorSpec::Radau5 => {
            let rtol = sim.rtol.as_ref().map(|v| *v.get_ref()).unwrap_or(1e-6);
            let atol = sim.atol.as_ref().map(|v| *v.get_ref()).unwrap_or(1e-9);
            let mut params = Radau5Params::with_tolerances(rtol, atol);
            params.h0 = sim.dt.as_ref().map(|v| *v.get_ref());
            if let Some(m) = &sim.max_steps {
                params.max_steps = *m.get_ref();
            }
            let n = out.samples.max(2);
            let span = FixedStepParams {
                t0: 0.0,
                t_end,
                h: t_end / n as f64,
                output_every: 1,
            };
            (Integrator::Radau5(params), span)
        }
    })
}

/// Integrates the model over the `[simulation]` span, recording per `[output]`, through the
/// front door of the integrators ([`phlex_solve::integrate`]).
pub fn simulate(
    b: &Built,
    sim: &SimulationSpec,
    out: &OutputSpec,
    quiet: bool,
) -> Result<Simulation> {
    let t_end = *sim.t_end.get_ref();
    let mut series = TimeSeries::new(columns(b));
    let mut progress = Progress::new(0.0, t_end, quiet);
    let (integrator, span) = integrator_settings(sim, out, t_end)?;
    let start = Instant::now();
    let mut obs = |t: f64, e: &[f64]| {
        record(b, t, e, &mut series);
        progress.update(t);
    };
    let run = phlex_solve::integrate(
        &b.system,
        &b.initial,
        b.input.clone(),
        &integrator,
        span,
        None,
        &mut obs,
    )
    .map_err(|e| match e {
        SolveError::NotPartitioned { .. } | SolveError::NotApplicable { .. } => {
            anyhow::Error::new(e).context("Störmer–Verlet needs a lossless two-field system without multipliers (use integrator = \"midpoint\", \"gauss\" or \"radau5\")")
        }
        e => e.into(),
    })?;
    progress.finish();
    if run.ledger.times.len() < 2 {
        bail!(
            "{} produced fewer than two output samples",
            integrator.name()
        );
    }
    Ok(Simulation {
        series,
        exact_ledger: run.ledger_kind == LedgerKind::PerStep
            && sim.integrator != IntegratorSpec::StormerVerlet,
        ledger: run.ledger,
        stats: run.stats,
        t_final: run.t,
        wall: start.elapsed().as_secs_f64(),
    })
}

/// The summary of a finished simulation.
pub fn summarize(b: &Built, sim_spec: &SimulationSpec, s: &Simulation) -> RunSummary {
    RunSummary::from_ledger(
        &b.name,
        match sim_spec.integrator {
            IntegratorSpec::Midpoint => "midpoint (exact discrete power balance)".into(),
            IntegratorSpec::Gauss => {
                let s = sim_spec.stages.as_ref().map_or(3, |s| *s.get_ref());
                format!(
                    "gauss ({s} stages, order {}, exact discrete power balance)",
                    2 * s
                )
            }
            IntegratorSpec::Radau5 => "radau5 (balance from output samples, trapezoidal)".into(),
            IntegratorSpec::StormerVerlet => {
                "stormer_verlet (explicit, energy not exactly conserved)".into()
            }
        },
        b.system.n_states(),
        &s.ledger,
        &s.stats,
        s.t_final,
        s.wall,
    )
}
