//! The `[simulation]` of a multibody file, written once for planar ([`phlex_mbs::Multibody`])
//! and spatial ([`phlex_mbs::spatial::Multibody3d`]) models: the midpoint / discrete
//! gradient scheme (exact discrete power balance $H_1 - H_0 = h\,\bar y^\top u$, paper 000
//! eq. (46) with the midpoint rule), Gauss–Legendre collocation or Radau IIA, the optional
//! drift projection, and the run summary with its energy account.
use std::ops::Range;
use std::time::Instant;

use anyhow::{Context, Result};
use phlex_core::{PhSystem, ProjectionOptions};
use phlex_mbs::{ConsistentInit, MbsError};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::MidpointVariant;
use phlex_solve::newton::NewtonParams;
use phlex_solve::{InputFn, Integrator, SolverStats};
use toml::Spanned;

use super::planar::format::{MbsIntegrator, MbsSimulationSpec, SchemeSpec};
use super::simulate::{
    energy_account, gauss_label, gauss_params, projection_summary, radau_settings, MbsRun,
    MbsSummary, ProjectionSummary,
};
use crate::error::ModelError;
use crate::output::Progress;
use crate::output::TimeSeries;

/// The error of `phlex run` on a file without `[simulation]`.
pub(crate) fn missing_simulation(file: &str) -> ModelError {
    ModelError {
        file: file.into(),
        line: 0,
        message: "missing section [simulation] (integrator, t_end, dt): needed by `phlex run`"
            .into(),
    }
}

/// What an integration returns before the energy account.
pub(crate) struct Integrated {
    stats: SolverStats,
    integrator: String,
    /// Largest per-step power-balance residual (one-step schemes).
    step_residual: Option<f64>,
    /// Largest constraint drift seen by the integrator at its output times.
    step_drift: f64,
    /// Exact cumulative supplied work per output sample (one-step schemes).
    work: Option<Vec<f64>>,
    projection: Option<ProjectionSummary>,
    wall_time_s: f64,
}

/// The model a run integrates: its name, system, input and consistent initial state, and
/// how its errors become messages naming the file.
pub(crate) struct RunModel<'a, M> {
    /// Model name.
    pub name: &'a str,
    /// The assembled pHDAE.
    pub mb: &'a M,
    /// Inputs of the file.
    pub input: &'a InputFn,
    /// Consistent initial conditions.
    pub init: &'a ConsistentInit,
    /// `[output] every` (one-step schemes).
    pub every: usize,
    /// `[output] samples` (Radau).
    pub samples: usize,
    /// Maps an [`MbsError`] to a message naming the file and line.
    pub convert: &'a dyn Fn(MbsError) -> anyhow::Error,
}

/// Integrates `model` over `sim` through the front door of the integrators
/// ([`phlex_solve::integrate`]), calling `record` at every output time.
pub(crate) fn integrate<M: PhSystem>(
    model: &RunModel<'_, M>,
    sim: &MbsSimulationSpec,
    quiet: bool,
    record: &mut dyn FnMut(f64, &[f64]),
) -> Result<Integrated> {
    let (mb, name, conv) = (model.mb, model.name, model.convert);
    let t_end = *sim.t_end.get_ref();
    let mut progress = Progress::new(0.0, t_end, quiet);
    let mut samples = 0usize;
    let mut obs = |t: f64, x: &[f64]| {
        record(t, x);
        samples += 1;
        progress.update(t);
    };
    let x0 = &model.init.state;
    let start = Instant::now();
    let projected = sim.projection.as_ref().is_some_and(|p| *p.get_ref());
    let projection = projected.then(ProjectionOptions::default);
    let (integrator, span, label, hint) = match sim.integrator {
        MbsIntegrator::Midpoint => {
            let (integrator, span) = midpoint_settings(sim, t_end, model.every)?;
            let variant = match integrator {
                Integrator::Midpoint(_) => MidpointVariant::Midpoint,
                _ => MidpointVariant::DiscreteGradient,
            };
            let label = midpoint_label(variant, span.h, projected);
            let hint = format!(
                "midpoint integration of '{name}' failed (dt = {:e} s); try a smaller [simulation] dt, or looser newton_rtol/newton_atol",
                span.h
            );
            (integrator, span, label, hint)
        }
        MbsIntegrator::Gauss => {
            let (span, params) = gauss_params(sim, t_end, model.every)?;
            let label = gauss_label(&params, span.h, projected);
            let hint = format!(
                "Gauss collocation of '{name}' failed (dt = {:e} s); try a smaller [simulation] dt",
                span.h
            );
            (Integrator::Gauss(params), span, label, hint)
        }
        MbsIntegrator::Radau5 => {
            let (params, span, label) = radau_settings(sim, model.samples, t_end);
            let hint = format!(
                "Radau IIA integration of '{name}' failed (rtol = {:e}, atol = {:e}); check the initial conditions or loosen the tolerances",
                params.rtol, params.atol
            );
            (Integrator::Radau5(params), span, label, hint)
        }
    };
    let run = phlex_solve::integrate(
        mb,
        x0,
        model.input.clone(),
        &integrator,
        span,
        projection,
        &mut obs,
    )
    .map_err(|e| conv(e.into()))
    .context(hint)?;
    progress.finish();
    let l = &run.ledger;
    let work = (integrator.is_fixed_step() && l.supplied.len() == samples).then(|| {
        l.supplied
            .iter()
            .map(|v| v.iter().fold(0.0, |a, b| a + b))
            .collect()
    });
    Ok(Integrated {
        stats: run.stats,
        integrator: label,
        step_residual: run.max_step_residual,
        step_drift: run.max_drift,
        work,
        projection: projection_summary(run.projection),
        wall_time_s: start.elapsed().as_secs_f64(),
    })
}

/// Midpoint settings of `[simulation]`: step `dt`, `scheme` (default discrete gradient),
/// Newton tolerances (default 1e-12) and iterations (default 20).
fn midpoint_settings(
    sim: &MbsSimulationSpec,
    t_end: f64,
    every: usize,
) -> Result<(Integrator, FixedStepParams)> {
    let h = *sim.dt.as_ref().context("dt checked at parse")?.get_ref();
    let get = |v: &Option<Spanned<f64>>, d: f64| v.as_ref().map(|s| *s.get_ref()).unwrap_or(d);
    let newton = NewtonParams {
        rtol: get(&sim.newton_rtol, 1e-12),
        atol: get(&sim.newton_atol, 1e-12),
        max_iterations: sim
            .newton_max_iterations
            .as_ref()
            .map(|v| *v.get_ref() as usize)
            .unwrap_or(20),
        modified: sim.newton_modified.unwrap_or(false),
        ..Default::default()
    };
    let integrator = match sim.scheme.unwrap_or(SchemeSpec::DiscreteGradient) {
        SchemeSpec::DiscreteGradient => Integrator::DiscreteGradient(newton),
        SchemeSpec::Midpoint => Integrator::Midpoint(newton),
    };
    let span = FixedStepParams {
        t0: 0.0,
        t_end,
        h,
        output_every: every,
    };
    Ok((integrator, span))
}

/// The integrator label of a midpoint run.
fn midpoint_label(variant: MidpointVariant, h: f64, projected: bool) -> String {
    format!(
        "midpoint ({}), dt = {h:e} s{}",
        if variant == MidpointVariant::DiscreteGradient {
            "discrete gradient, exact discrete power balance"
        } else {
            "implicit midpoint rule"
        },
        if projected {
            ", position projection after each step"
        } else {
            ""
        }
    )
}

/// The recorded output of a run: column names and groups, one row per sample
/// (`t, kinetic, deformation, potential, H, work, …, drift`), the input power per sample
/// and the largest position drift per joint.
pub(crate) struct Recorded {
    /// Column names.
    pub names: Vec<String>,
    /// Column ranges of the output groups.
    pub groups: Vec<(&'static str, Range<usize>)>,
    /// Samples.
    pub rows: Vec<Vec<f64>>,
    /// Total input power $y^\top u$ per sample.
    pub power: Vec<f64>,
    /// Largest position drift of every joint.
    pub joint_drift: Vec<f64>,
}

/// The run of `model`: energy account (paper 000 eq. (46): $H(t) - H(0) = W(t)$ up to the
/// scheme's residual) and summary; `joint_names` in the order of `rec.joint_drift`.
pub(crate) fn summarize<M: PhSystem>(
    model: &RunModel<'_, M>,
    constraints: usize,
    joint_names: Vec<String>,
    run: Integrated,
    mut rec: Recorded,
) -> Result<MbsRun> {
    let (h0, scale, drift, cdrift, pb) = energy_account(
        &mut rec.rows,
        &rec.power,
        run.work,
        run.step_residual,
        run.step_drift,
    )?;
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
        h_initial: h0,
        h_final: last[4],
        energy_supplied: last[5],
        energy_scale: scale,
        energy_drift: drift / scale,
        power_balance_residual: pb,
        power_balance_residual_relative: pb / scale,
        max_constraint_drift: cdrift,
        joint_drift: joint_names.into_iter().zip(rec.joint_drift).collect(),
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
