//! The `[simulation]` of a multibody file, written once for planar ([`phlex_mbs::Multibody`])
//! and spatial ([`phlex_mbs::spatial::Multibody3d`]) models: the midpoint / discrete
//! gradient scheme (exact discrete power balance $H_1 - H_0 = h\,\bar y^\top u$, paper 000
//! eq. (46) with the midpoint rule), Gauss–Legendre collocation or Radau IIA, the optional
//! drift projection, and the run summary with its energy account.
use std::ops::Range;
use std::time::Instant;

use anyhow::{Context, Result};
use phlex_mbs::simulate::ProjectionOptions;
use phlex_mbs::spatial::{GaussCollocation, Multibody3d};
use phlex_mbs::{ConsistentInit, MbsError, Mechanism, Multibody, MultibodyDae, MultibodyMidpoint};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{MidpointParams, MidpointVariant};
use phlex_solve::newton::NewtonParams;
use phlex_solve::radau5::{OutputTimes, Radau5};
use phlex_solve::{InputFn, SolverStats};
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

/// A mechanism whose integrators can switch the drift projection on (the projection is
/// specific to the dimension: [`phlex_mbs::simulate::project_onto_constraints`],
/// [`phlex_mbs::spatial::project_onto_constraints_3d`]).
pub(crate) trait ProjectedMechanism: Mechanism + Sized {
    /// The midpoint integrator with the projection on.
    fn midpoint_projected(
        i: MultibodyMidpoint<'_, Self>,
        o: ProjectionOptions,
    ) -> Result<MultibodyMidpoint<'_, Self>, MbsError>;
    /// The Gauss collocation with the projection on.
    fn gauss_projected(
        i: GaussCollocation<'_, Self>,
        o: ProjectionOptions,
    ) -> Result<GaussCollocation<'_, Self>, MbsError>;
}

/// Both assemblies switch the projection on by their own `with_projection`.
macro_rules! projected_mechanism {
    ($($mechanism:ty),*) => {$(
        impl ProjectedMechanism for $mechanism {
            fn midpoint_projected(
                i: MultibodyMidpoint<'_, Self>,
                o: ProjectionOptions,
            ) -> Result<MultibodyMidpoint<'_, Self>, MbsError> {
                i.with_projection(o)
            }
            fn gauss_projected(
                i: GaussCollocation<'_, Self>,
                o: ProjectionOptions,
            ) -> Result<GaussCollocation<'_, Self>, MbsError> {
                i.with_projection(o)
            }
        }
    )*};
}

projected_mechanism!(Multibody, Multibody3d);

/// What an integration returns before the energy account.
pub(crate) struct Integrated {
    stats: SolverStats,
    integrator: String,
    /// Largest per-step power-balance residual (one-step schemes).
    step_residual: Option<f64>,
    /// Largest constraint drift seen by the one-step schemes.
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

/// Integrates `model` over `sim`, calling `record` at every output time.
pub(crate) fn integrate<M: ProjectedMechanism>(
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
    let mut projection = None;
    let (stats, integrator, step_residual, step_drift, work) = match sim.integrator {
        MbsIntegrator::Midpoint => {
            let params = midpoint_params(sim, t_end, model.every)?;
            let h = params.step.h;
            let mut integ =
                MultibodyMidpoint::new(mb, model.input.clone(), params).map_err(conv)?;
            if projected {
                integ = M::midpoint_projected(integ, ProjectionOptions::default()).map_err(conv)?;
            }
            let run = integ.run(x0, &mut obs).map_err(conv).with_context(|| {
                format!(
                    "midpoint integration of '{name}' failed (dt = {h:e} s); try a smaller [simulation] dt, or looser newton_rtol/newton_atol"
                )
            })?;
            projection = projection_summary(run.projection);
            let l = &run.result.ledger;
            let work = (l.supplied.len() == samples).then(|| {
                l.supplied
                    .iter()
                    .map(|v| v.iter().fold(0.0, |a, b| a + b))
                    .collect()
            });
            let label = midpoint_label(params.variant, h, projected);
            let (res, drift) = (run.max_step_residual, run.max_drift);
            (run.result.stats, label, Some(res), drift, work)
        }
        MbsIntegrator::Gauss => {
            let params = gauss_params(sim, t_end, model.every)?;
            let mut integ =
                GaussCollocation::new(mb, model.input.clone(), params.clone()).map_err(conv)?;
            if projected {
                integ = M::gauss_projected(integ, ProjectionOptions::default()).map_err(conv)?;
            }
            let run = integ.run(x0, &mut obs).map_err(conv).with_context(|| {
                format!(
                    "Gauss collocation of '{name}' failed (dt = {:e} s); try a smaller [simulation] dt",
                    params.h
                )
            })?;
            projection = projection_summary(run.projection);
            let work = (run.work.len() == samples).then_some(run.work);
            let label = gauss_label(&params, projected);
            (
                run.stats,
                label,
                Some(run.max_step_residual),
                run.max_drift,
                work,
            )
        }
        MbsIntegrator::Radau5 => {
            let (params, grid, label) = radau_settings(sim, model.samples, t_end);
            let (rtol, atol) = (params.rtol, params.atol);
            let dae = MultibodyDae::new(mb, model.input.clone()).map_err(conv)?;
            let sol = Radau5::new(params)
                .map_err(|e| conv(e.into()))?
                .integrate(&dae, 0.0, x0, t_end, OutputTimes::Grid(&grid), &mut obs)
                .map_err(|e| conv(e.into()))
                .with_context(|| {
                    format!(
                        "Radau IIA integration of '{name}' failed (rtol = {rtol:e}, atol = {atol:e}); check the initial conditions or loosen the tolerances"
                    )
                })?;
            (sol.stats, label, None, 0.0, None)
        }
    };
    progress.finish();
    Ok(Integrated {
        stats,
        integrator,
        step_residual,
        step_drift,
        work,
        projection,
        wall_time_s: start.elapsed().as_secs_f64(),
    })
}

/// Midpoint parameters of `[simulation]`: step `dt`, `scheme` (default discrete gradient),
/// Newton tolerances (default 1e-12) and iterations (default 20).
fn midpoint_params(sim: &MbsSimulationSpec, t_end: f64, every: usize) -> Result<MidpointParams> {
    let h = *sim.dt.as_ref().context("dt checked at parse")?.get_ref();
    let variant = match sim.scheme.unwrap_or(SchemeSpec::DiscreteGradient) {
        SchemeSpec::DiscreteGradient => MidpointVariant::DiscreteGradient,
        SchemeSpec::Midpoint => MidpointVariant::Midpoint,
    };
    let get = |v: &Option<Spanned<f64>>, d: f64| v.as_ref().map(|s| *s.get_ref()).unwrap_or(d);
    Ok(MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end,
            h,
            output_every: every,
        },
        newton: NewtonParams {
            rtol: get(&sim.newton_rtol, 1e-12),
            atol: get(&sim.newton_atol, 1e-12),
            max_iterations: sim
                .newton_max_iterations
                .as_ref()
                .map(|v| *v.get_ref() as usize)
                .unwrap_or(20),
            modified: sim.newton_modified.unwrap_or(false),
            ..Default::default()
        },
        variant,
    })
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
pub(crate) fn summarize<M: Mechanism>(
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
