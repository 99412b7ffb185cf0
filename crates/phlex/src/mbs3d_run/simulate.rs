//! Integration of a built spatial model (midpoint / discrete gradient, or Radau IIA through
//! the generic [`MultibodyDae`]), recording, summary (the planar [`MbsSummary`]) and plots.
use crate::mbs_run::{
    energy_account, gauss_label, gauss_params, projection_summary, radau_settings,
};
use phlex_mbs::simulate::ProjectionOptions;
use std::collections::BTreeSet;
use std::ops::Range;
use std::time::Instant;

use anyhow::{Context, Result};
use phlex_core::QuasiLinearPhDae;
use phlex_mbs::spatial::linalg::log_so3;
use phlex_mbs::spatial::Multibody3d;
use phlex_mbs::{MultibodyDae, MultibodyMidpoint};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{MidpointParams, MidpointVariant};
use phlex_solve::newton::NewtonParams;
use phlex_solve::radau5::{OutputTimes, Radau5};
use phlex_solve::{InputFn, SolverStats};
use toml::Spanned;

use super::model::{BuiltMbs3d, Mbs3dModel};
use crate::mbs_run::{MbsIntegrator, MbsRun, MbsSummary, SchemeSpec};
use crate::model::ModelError;
use crate::output::{svg_plot, TimeSeries};
use crate::simulate::Progress;

/// Precomputed output columns.
struct Recorder<'a> {
    mb: &'a Multibody3d,
    input: &'a InputFn,
    body_energies: bool,
    points: Vec<(usize, usize)>,
    poses: Vec<usize>,
    velocities: Vec<usize>,
    joint_states: Vec<usize>,
    reactions: Vec<usize>,
    ports: Vec<Range<usize>>,
    z: Vec<f64>,
    names: Vec<String>,
    groups: Vec<(&'static str, Range<usize>)>,
    rows: Vec<Vec<f64>>,
    power: Vec<f64>,
    has_inputs: bool,
    joint_drift: Vec<f64>,
}

impl<'a> Recorder<'a> {
    fn new(m: &Mbs3dModel, mb: &'a Multibody3d, input: &'a InputFn) -> Result<Self> {
        let o = &m.spec.output;
        let conv = |e| m.convert(e);
        let mut names: Vec<String> = ["t", "kinetic", "deformation", "potential", "H", "work_in"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if o.body_energies {
            for b in mb.body_names() {
                for k in ["kinetic", "deformation", "potential"] {
                    names.push(format!("{b}.{k}"));
                }
            }
        }
        let mut groups = Vec::new();
        let mut start = names.len();
        let mut points = Vec::new();
        for (n, r) in &o.points {
            let (b, p) = r.get_ref().split_once('.').context("checked at parse")?;
            let bi = mb.body_index(b).map_err(conv)?;
            let pi = mb.body(bi).port_index(p).ok_or_else(|| {
                m.err(
                    r.span(),
                    format!(
                        "output.points.{n}: body '{b}' has no port '{p}'; its ports: {}",
                        mb.body(bi).port_names()
                    ),
                )
            })?;
            points.push((bi, pi));
            for c in ["x", "y", "z"] {
                names.push(format!("{n}.{c}"));
            }
        }
        let mut poses = Vec::new();
        for b in &o.poses {
            poses.push(mb.body_index(b.get_ref()).map_err(conv)?);
            for c in ["x", "y", "z", "rx", "ry", "rz"] {
                names.push(format!("{}.{c}", b.get_ref()));
            }
        }
        groups.push(("positions", start..names.len()));
        start = names.len();
        let mut velocities = Vec::new();
        for b in &o.velocities {
            velocities.push(mb.body_index(b.get_ref()).map_err(conv)?);
            for c in ["vx", "vy", "vz", "wx", "wy", "wz"] {
                names.push(format!("{}.{c}", b.get_ref()));
            }
        }
        groups.push(("velocities", start..names.len()));
        start = names.len();
        let mut joint_states = Vec::new();
        for j in &o.joint_states {
            let k = mb.joint_index(j.get_ref()).map_err(conv)?;
            let block = &mb.blocks().iter().find(|b| {
                b.name.starts_with(&format!("{}.", j.get_ref())) && !b.name.ends_with(".lambda")
            });
            let Some(block) = block else {
                return Err(m
                    .err(
                        j.span(),
                        format!(
                            "output.joint_states: joint '{}' has no joint state (only revolute, prismatic and prescribed-velocity joints do)",
                            j.get_ref()
                        ),
                    )
                    .into());
            };
            let n = mb.joint_state_range(k).len();
            for c in 0..n {
                names.push(if n == 1 {
                    block.name.clone()
                } else {
                    format!("{}_{}", block.name, ["x", "y", "z"][c])
                });
            }
            joint_states.push(k);
        }
        groups.push(("joint_states", start..names.len()));
        start = names.len();
        let mut reactions = Vec::new();
        for r in &o.reactions {
            let j = mb.joint_index(r.get_ref()).map_err(conv)?;
            for lab in mb.joint_row_labels(j) {
                names.push(format!("{}.lambda_{lab}", r.get_ref()));
            }
            reactions.push(j);
        }
        groups.push(("reactions", start..names.len()));
        start = names.len();
        let mut ports = Vec::new();
        for p in &o.ports {
            let range = mb.ports().range(p.get_ref()).map_err(|e| {
                m.err(
                    p.span(),
                    format!(
                        "output.ports: {e}; ports: {}",
                        mb.ports().names().join(", ")
                    ),
                )
            })?;
            for k in 0..range.len() {
                names.push(format!("{}.u{k}", p.get_ref()));
            }
            for k in 0..range.len() {
                names.push(format!("{}.y{k}", p.get_ref()));
            }
            names.push(format!("{}.power", p.get_ref()));
            ports.push(range);
        }
        groups.push(("ports", start..names.len()));
        names.push("drift".into());
        let mut seen = BTreeSet::new();
        if let Some(dup) = names.iter().find(|n| !seen.insert(n.as_str())) {
            return Err(m
                .err_line(
                    m.section_line("output"),
                    format!("output: column '{dup}' is produced twice (rename a point)"),
                )
                .into());
        }
        Ok(Self {
            mb,
            input,
            body_energies: o.body_energies,
            points,
            poses,
            velocities,
            joint_states,
            reactions,
            ports,
            z: vec![0.0; mb.n()],
            names,
            groups,
            rows: Vec::new(),
            power: Vec::new(),
            has_inputs: mb.ports().total_dim() > 0,
            joint_drift: vec![0.0; mb.joint_names().len()],
        })
    }

    fn record(&mut self, t: f64, x: &[f64]) {
        let mb = self.mb;
        let mut row = Vec::with_capacity(self.names.len());
        let e = mb.energies(x);
        let (k, d, p) = e.iter().fold((0.0, 0.0, 0.0), |a, (_, s)| {
            (a.0 + s.kinetic, a.1 + s.deformation, a.2 + s.potential)
        });
        row.extend_from_slice(&[t, k, d, p, mb.hamiltonian(x), 0.0]);
        if self.body_energies {
            for (_, s) in &e {
                row.extend_from_slice(&[s.kinetic, s.deformation, s.potential]);
            }
        }
        for &(b, q) in &self.points {
            row.extend_from_slice(&mb.port_position(b, q, x));
        }
        for &b in &self.poses {
            let xl = mb.local(b, x);
            row.extend_from_slice(&xl[..3]);
            row.extend_from_slice(&log_so3(&mb.rotation(b, x)));
        }
        for &b in &self.velocities {
            // port P (index of the port at the reference point) or the velocity field at P
            let p = mb.body(b).port_index("P").unwrap_or(0);
            let [v, w] = mb.port_velocity_inertial(b, p, x);
            row.extend_from_slice(&v);
            row.extend_from_slice(&w);
        }
        for &j in &self.joint_states {
            row.extend_from_slice(mb.joint_states(j, x));
        }
        for &j in &self.reactions {
            row.extend_from_slice(mb.reaction(j, x));
        }
        let mut total = 0.0;
        if self.has_inputs {
            let u = self.input.eval(t);
            mb.effort(x, &mut self.z);
            let y = mb.output(x, &self.z);
            total = y.iter().zip(&u).map(|(a, b)| a * b).sum();
            for r in &self.ports {
                row.extend_from_slice(&u[r.clone()]);
                row.extend_from_slice(&y[r.clone()]);
                row.push(r.clone().map(|k| u[k] * y[k]).sum());
            }
        }
        self.power.push(total);
        let mut worst = 0.0f64;
        for (m, d) in self.joint_drift.iter_mut().zip(mb.position_drift(x)) {
            *m = m.max(d.max_abs);
            worst = worst.max(d.max_abs);
        }
        row.push(worst);
        self.rows.push(row);
    }
}

/// Integrates a built spatial model over `[simulation]`.
pub fn simulate(m: &Mbs3dModel, b: &BuiltMbs3d, quiet: bool) -> Result<MbsRun> {
    let sim = m.spec.simulation.as_ref().ok_or_else(|| ModelError {
        file: m.file.clone(),
        line: 0,
        message: "missing section [simulation] (integrator, t_end, dt): needed by `phlex run`"
            .into(),
    })?;
    let t_end = *sim.t_end.get_ref();
    let mb = &b.mb;
    let mut rec = Recorder::new(m, mb, &b.input)?;
    let mut progress = Progress::new(0.0, t_end, quiet);
    let x0 = &b.init.state;
    let start = Instant::now();
    let projected = sim.projection.as_ref().is_some_and(|p| *p.get_ref());
    let mut projection = None;
    let (stats, integrator, step_res, mid_drift, work): (
        SolverStats,
        String,
        Option<f64>,
        f64,
        Option<Vec<f64>>,
    ) = match sim.integrator {
        MbsIntegrator::Midpoint => {
            let h = *sim.dt.as_ref().context("dt checked at parse")?.get_ref();
            let variant = match sim.scheme.unwrap_or(SchemeSpec::DiscreteGradient) {
                SchemeSpec::DiscreteGradient => MidpointVariant::DiscreteGradient,
                SchemeSpec::Midpoint => MidpointVariant::Midpoint,
            };
            let get =
                |v: &Option<Spanned<f64>>, d: f64| v.as_ref().map(|s| *s.get_ref()).unwrap_or(d);
            let params = MidpointParams {
                step: FixedStepParams {
                    t0: 0.0,
                    t_end,
                    h,
                    output_every: m.spec.output.every,
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
            };
            let mut integ =
                MultibodyMidpoint::new(mb, b.input.clone(), params).map_err(|e| m.convert(e))?;
            if projected {
                integ = integ
                    .with_projection(ProjectionOptions::default())
                    .map_err(|e| m.convert(e))?;
            }
            let run = integ
                .run(x0, &mut |t: f64, x: &[f64]| {
                    rec.record(t, x);
                    progress.update(t);
                })
                .map_err(|e| m.convert(e))
                .with_context(|| {
                    format!(
                        "midpoint integration of '{}' failed (dt = {h:e} s); try a smaller [simulation] dt, or looser newton_rtol/newton_atol",
                        b.name
                    )
                })?;
            projection = projection_summary(run.projection);
            let l = &run.result.ledger;
            let work = (l.supplied.len() == rec.rows.len()).then(|| {
                l.supplied
                    .iter()
                    .map(|v| v.iter().fold(0.0, |a, b| a + b))
                    .collect()
            });
            (
                run.result.stats,
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
                ),
                Some(run.max_step_residual),
                run.max_drift,
                work,
            )
        }
        MbsIntegrator::Gauss => {
            let params = gauss_params(sim, t_end, m.spec.output.every)?;
            let mut integ =
                phlex_mbs::spatial::GaussCollocation::new(mb, b.input.clone(), params.clone())
                    .map_err(|e| m.convert(e))?;
            if projected {
                integ = integ
                    .with_projection(ProjectionOptions::default())
                    .map_err(|e| m.convert(e))?;
            }
            let run = integ
                .run(x0, &mut |t: f64, x: &[f64]| {
                    rec.record(t, x);
                    progress.update(t);
                })
                .map_err(|e| m.convert(e))
                .with_context(|| {
                    format!(
                        "Gauss collocation of '{}' failed (dt = {:e} s); try a smaller [simulation] dt",
                        b.name, params.h
                    )
                })?;
            projection = projection_summary(run.projection);
            let work = (run.work.len() == rec.rows.len()).then_some(run.work);
            (
                run.stats,
                gauss_label(&params, projected),
                Some(run.max_step_residual),
                run.max_drift,
                work,
            )
        }
        MbsIntegrator::Radau5 => {
            let (params, grid, label) = radau_settings(sim, m.spec.output.samples, t_end);
            let (rtol, atol) = (params.rtol, params.atol);
            let dae = MultibodyDae::new(mb, b.input.clone()).map_err(|e| m.convert(e))?;
            let sol = Radau5::new(params)
                .map_err(anyhow::Error::new)?
                .integrate(&dae, 0.0, x0, t_end, OutputTimes::Grid(&grid), &mut |t: f64,
                                                                           x: &[f64]| {
                    rec.record(t, x);
                    progress.update(t);
                })
                .with_context(|| {
                    format!(
                        "Radau IIA integration of '{}' failed (rtol = {rtol:e}, atol = {atol:e}); check the initial conditions or loosen the tolerances",
                        b.name
                    )
                })?;
            (sol.stats, label, None, 0.0, None)
        }
    };
    progress.finish();
    let wall = start.elapsed().as_secs_f64();
    let (h0, scale, drift, cdrift, pb) =
        energy_account(&mut rec.rows, &rec.power, work, step_res, mid_drift)?;
    let rows = &rec.rows;
    let n = rows.len();
    let last = &rows[n - 1];
    let summary = MbsSummary {
        model: b.name.clone(),
        integrator,
        states: mb.n(),
        constraints: mb.n_constraints(),
        final_time: last[0],
        steps: stats.steps,
        rejected_steps: stats.rejected_steps,
        newton_iterations: stats.newton_iterations,
        factorizations: stats.factorizations,
        initial_position_residual: b.init.position_residual,
        initial_velocity_residual: b.init.velocity_residual,
        h_initial: h0,
        h_final: last[4],
        energy_supplied: last[5],
        energy_scale: scale,
        energy_drift: drift / scale,
        power_balance_residual: pb,
        power_balance_residual_relative: pb / scale,
        max_constraint_drift: cdrift,
        joint_drift: mb
            .joint_names()
            .into_iter()
            .zip(rec.joint_drift.iter().copied())
            .collect(),
        projection,
        wall_time_s: wall,
        outputs: Vec::new(),
    };
    let mut series = TimeSeries::new(rec.names.clone());
    series.rows = std::mem::take(&mut rec.rows);
    Ok(MbsRun {
        series,
        summary,
        groups: rec.groups.clone(),
    })
}

/// SVG plots of a run: energies, energy balance, constraint drift and one plot per group
/// of requested outputs.
pub(super) fn plots(name: &str, run: &MbsRun) -> Result<Vec<(String, Vec<u8>)>> {
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
