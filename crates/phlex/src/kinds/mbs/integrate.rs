//! The `[simulation]` of a multibody file, written once for planar ([`phlex_mbs::Multibody`])
//! and spatial ([`phlex_mbs::spatial::Multibody3d`]) models: the shared driver
//! ([`Simulation`], any integrator of the file's `integrator` key, with the optional drift
//! projection) and the run summary with its energy account (paper 000 eq. (46)).
use std::ops::Range;
use std::time::Instant;

use anyhow::Result;
use phlex_core::PhSystem;
use phlex_mbs::JointAssembly;
use phlex_solve::SolverStats;

use super::built::Built;
use super::simulate::{
    energy_account, force_shares, projection_summary, MbsRun, MbsSummary, ProjectionSummary,
};
use crate::error::ModelError;
use crate::integration::{Defaults, Simulation};
use crate::output::{EnergyBalance, Progress, TimeSeries};
use crate::spec::SimulationSpec;

/// The `[simulation]` of a multibody file `file` (its `text`) with the multibody defaults
/// ([`Defaults::multibody`]).
pub(crate) fn mbs_simulation<'a>(
    (file, text, kind): (&'a str, &'a str, &'a str),
    sim: Option<&'a SimulationSpec>,
) -> Result<Simulation<'a>, ModelError> {
    Simulation::new((file, text, kind), sim, Defaults::multibody())
}

/// What an integration returns before the energy account.
pub(crate) struct Integrated {
    stats: SolverStats,
    integrator: String,
    /// Largest per-step power-balance residual (one-step schemes).
    step_residual: Option<f64>,
    /// Largest constraint drift seen by the integrator at its output times.
    step_drift: f64,
    /// Exact cumulative supplied work and dissipated energy per output sample (one-step
    /// schemes).
    work: Option<(Vec<f64>, Vec<f64>)>,
    /// The discrete energy balance of the integrator's ledger.
    balance: EnergyBalance,
    projection: Option<ProjectionSummary>,
    wall_time_s: f64,
}

/// What a run records at every output time: the output columns of the dimension.
pub(crate) trait Recording {
    /// Records the sample of state `x` at time `t`.
    fn record(&mut self, t: f64, x: &[f64]);
    /// The recorded columns, for the summary.
    fn into_recorded(self) -> Recorded;
}

/// Integrates the built model `b` over `sim` recording with `rec`, and summarises the run
/// ([`integrate`], [`summarize`] with the constraint rows and joints of the system).
pub(crate) fn integrate_recorded<M: JointAssembly, R: Recording>(
    b: &Built<M>,
    sim: &Simulation<'_>,
    quiet: bool,
    mut rec: R,
) -> Result<MbsRun> {
    let run = integrate(b, sim, quiet, &mut |t, x| rec.record(t, x))?;
    let (constraints, joint_names) = (b.mb.n_constraints(), b.mb.joint_names());
    let mut r = summarize(b, constraints, joint_names, run, rec.into_recorded())?;
    r.summary.released_rows = b.mb.released_rows();
    Ok(r)
}

/// Integrates `model` over `sim` with the shared driver ([`Simulation::run`]), calling
/// `record` at every output time.
pub(crate) fn integrate<M: PhSystem>(
    model: &Built<M>,
    sim: &Simulation<'_>,
    quiet: bool,
    record: &mut dyn FnMut(f64, &[f64]),
) -> Result<Integrated> {
    let t_end = sim.t_end();
    let mut progress = Progress::new(0.0, t_end, quiet);
    let mut samples = 0usize;
    let mut obs = |t: f64, x: &[f64]| {
        record(t, x);
        samples += 1;
        progress.update(t);
    };
    let start = Instant::now();
    let run = sim.run(
        &model.mb,
        &model.init.state,
        &model.input,
        (0.0, t_end),
        &mut obs,
    )?;
    progress.finish();
    let l = &run.ledger;
    let exact =
        sim.kind().is_fixed_step() && l.supplied.len() == samples && l.dissipated.len() == samples;
    let work = exact.then(|| {
        let w = l.supplied.iter().map(|v| v.iter().sum()).collect();
        (w, l.dissipated.clone())
    });
    Ok(Integrated {
        stats: run.stats,
        integrator: sim.label(),
        step_residual: run.max_step_residual,
        step_drift: run.max_drift,
        work,
        balance: EnergyBalance::from_ledger(l),
        projection: projection_summary(run.projection),
        wall_time_s: start.elapsed().as_secs_f64(),
    })
}

/// The recorded output of a run: column names and groups, one row per sample
/// (the [`super::columns::LEADING`] energy account, …, drift), the input and dissipated
/// powers per sample, the force elements and the largest position drift per joint.
pub(crate) struct Recorded {
    /// Column names.
    pub names: Vec<String>,
    /// Column ranges of the output groups.
    pub groups: Vec<(&'static str, Range<usize>)>,
    /// Samples.
    pub rows: Vec<Vec<f64>>,
    /// Total input power $y^\top u$ per sample.
    pub power: Vec<f64>,
    /// Dissipated power $z^\top R z$ per sample.
    pub dissipation: Vec<f64>,
    /// Force element names and the column of the first of their quantities
    /// ([`super::columns::FORCE_COLUMNS`], one column per element each).
    pub forces: (Vec<String>, usize),
    /// Largest position drift of every joint.
    pub joint_drift: Vec<f64>,
}

/// The run of `model`: energy account (paper 000 eq. (46): $H(t) - H(0) = W(t) - D(t)$ up
/// to the scheme's residual) and summary; `joint_names` in the order of `rec.joint_drift`.
pub(crate) fn summarize<M: PhSystem>(
    model: &Built<M>,
    constraints: usize,
    joint_names: Vec<String>,
    run: Integrated,
    mut rec: Recorded,
) -> Result<MbsRun> {
    let (_, scale, drift, cdrift, pb) = energy_account(
        &mut rec.rows,
        (&rec.power, &rec.dissipation),
        run.work,
        run.step_residual,
        run.step_drift,
    )?;
    let force_elements = force_shares(&rec.rows, &rec.forces);
    let last = &rec.rows[rec.rows.len() - 1];
    let summary = MbsSummary {
        model: model.name.to_string(),
        integrator: run.integrator,
        states: model.mb.n_states(),
        constraints,
        final_time: last[0],
        steps: run.stats.steps,
        rejected_steps: run.stats.rejected_steps,
        newton_iterations: run.stats.newton_iterations,
        factorizations: run.stats.factorizations,
        initial_position_residual: model.init.position_residual,
        initial_velocity_residual: model.init.velocity_residual,
        energy: run.balance,
        energy_scale: scale,
        energy_drift: drift / scale,
        power_balance_residual: pb,
        power_balance_residual_relative: pb / scale,
        max_constraint_drift: cdrift,
        joint_drift: joint_names.into_iter().zip(rec.joint_drift).collect(),
        released_rows: Vec::new(),
        force_elements,
        projection: run.projection,
        wall_time_s: run.wall_time_s,
        outputs: Vec::new(),
    };
    let mut series = TimeSeries::new(rec.names);
    series.rows = rec.rows;
    Ok(MbsRun {
        series,
        summary,
        groups: rec.groups,
    })
}
