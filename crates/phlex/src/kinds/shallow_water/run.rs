//! `phlex run` of a shallow water model: the averaged-vector-field discrete gradient of
//! [`phlex_fem::models::continuum::shallow_water`] (exact discrete energy and mass balances), with the
//! optional boundary damping injection, writing `timeseries.csv` (t, H, V, volume,
//! supplied work), `summary.json`, SVG plots of H and V and VTK snapshots.
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use phlex_fem::io::vtk::{Location, Vtu};
use phlex_fem::models::continuum::shallow_water::{BoundaryControl, SwStepSettings};

use super::build::{BuiltSw, ShallowWaterFile};
use crate::error::ModelError;
use crate::output::{
    columns_plot, energy_plot, EnergyBalance, OutputFiles, Progress, RunSummary, TimeSeries,
};

/// `phlex run`: discrete-gradient integration, `timeseries.csv` (t, H, V, volume, supplied
/// work), `summary.json`, SVG plots of H and V, VTK snapshots of height and velocity.
pub fn run(file: &str, f: &ShallowWaterFile, b: &BuiltSw, dir: &Path, quiet: bool) -> Result<()> {
    let sim = f.shared.simulation.as_ref().ok_or_else(|| ModelError {
        file: file.into(),
        line: 0,
        message: "missing section [simulation] (integrator = \"discrete_gradient\", t_end, dt): needed by `phlex run`".into(),
    })?;
    let h_des = *f.shallow_water.h_des.get_ref();
    let dt = sim.dt.as_ref().context("simulation.dt checked at build")?;
    let settings = SwStepSettings {
        dt: *dt.get_ref(),
        t_end: *sim.t_end.get_ref(),
        newton_tol: sim.newton_rtol.as_ref().map_or(1e-13, |v| *v.get_ref()),
        ..Default::default()
    };
    let control = f.control.as_ref().map(|c| BoundaryControl {
        gain: *c.gain.get_ref(),
        h_des,
        t_on: c.t_on,
    });
    let m = &b.model;
    if !quiet {
        eprintln!(
            "phlex run: {} — shallow water, {} states, port on {} edges{}",
            b.name,
            m.n_h() + m.n_v(),
            m.n_boundary(),
            if control.is_some() {
                ", damping injection"
            } else {
                ""
            }
        );
    }
    let vtk_every = f.shared.output.vtk_every;
    let mut snapshots: Vec<(f64, Vec<f64>, Vec<f64>)> = Vec::new();
    let mut step = 0usize;
    let mut progress = Progress::new(0.0, settings.t_end, quiet);
    let start = Instant::now();
    let res = m.simulate_observed(&b.initial, control, &settings, &mut |t, ah, av| {
        if vtk_every > 0 && step.is_multiple_of(vtk_every) {
            snapshots.push((t, ah.to_vec(), av.to_vec()));
        }
        step += 1;
        progress.update(t);
    })?;
    progress.finish();
    let wall = start.elapsed().as_secs_f64();
    let every = sim.output_every();
    let mut series = TimeSeries::new(
        ["t", "H", "V", "volume", "supplied_work"]
            .map(String::from)
            .to_vec(),
    );
    for k in (0..res.t.len()).filter(|k| k % every == 0 || *k + 1 == res.t.len()) {
        series.rows.push(vec![
            res.t[k],
            res.hamiltonian[k],
            res.lyapunov[k],
            res.volume[k],
            res.supplied_work[k],
        ]);
    }
    let h0 = res.hamiltonian[0];
    let h1 = *res.hamiltonian.last().unwrap_or(&h0);
    let w = *res.supplied_work.last().unwrap_or(&0.0);
    let scale = h0.abs().max(w.abs()).max(f64::MIN_POSITIVE);
    let drift = res
        .hamiltonian
        .iter()
        .zip(&res.supplied_work)
        .map(|(h, w)| (h - h0 - w).abs())
        .fold(0.0, f64::max)
        / scale;
    let summary = RunSummary {
        model: b.name.clone(),
        integrator:
            "averaged-vector-field discrete gradient (exact discrete energy and mass balance)"
                .into(),
        states: m.n_h() + m.n_v(),
        final_time: *res.t.last().unwrap_or(&0.0),
        steps: res.t.len().saturating_sub(1),
        rejected_steps: 0,
        newton_iterations: res.newton_iterations,
        factorizations: res.factorizations,
        energy: EnergyBalance::new(h0, h1, w, 0.0),
        energy_drift: drift,
        power_balance_residual: res.max_balance_residual,
        power_balance_residual_relative: res.max_balance_residual / scale,
        wall_time_s: wall,
        outputs: Vec::new(),
    };
    let mut files = OutputFiles::new(dir);
    files.add("timeseries.csv", series.to_csv()?);
    if f.shared.output.plots {
        files.add("energy.svg", energy_plot(&b.name, &series, "H [J/m]")?);
        files.add(
            "lyapunov.svg",
            columns_plot(
                &b.name,
                &format!("Lyapunov functional V (h_des = {h_des})"),
                &series,
                2,
                &["V".to_string()],
            )?,
        );
    }
    let rho = m.rho();
    let mut vtk = Vec::with_capacity(snapshots.len());
    for (t, ah, av) in &snapshots {
        let vel: Vec<f64> = av
            .chunks(2)
            .flat_map(|a| [a[0] / rho, a[1] / rho])
            .collect();
        let xml = Vtu::new(m.mesh())
            .field("h (height) [m]", Location::Point, 1, ah.clone())?
            .field("v (velocity) [m/s]", Location::Cell, 2, vel)?
            .to_xml();
        vtk.push((*t, xml));
    }
    let mut extra: Vec<String> = files
        .add_vtk_series("shallow_water", vtk)
        .into_iter()
        .collect();
    extra.push(format!(
        "  volume      {:.12e} -> {:.12e} (inflow {:.3e}; mass-balance residual {:.1e})",
        res.volume[0],
        res.volume.last().unwrap_or(&0.0),
        res.inflow.last().unwrap_or(&0.0),
        res.max_mass_residual
    ));
    extra.push(format!(
        "  Lyapunov V  {:.6e} -> {:.6e}",
        res.lyapunov[0],
        res.lyapunov.last().unwrap_or(&0.0)
    ));
    files.finish_run(summary, &extra)
}
