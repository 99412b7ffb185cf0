//! The `phlex run` driver of the linear continuum kinds: a linear pH(DAE) integrated with
//! the `[simulation]` integrator through the shared driver ([`Simulation`]; the implicit
//! midpoint rule gives the exact discrete power balance $H_1 - H_0 = h\,\bar y^\top u$ for
//! a lossless system, paper 000 §5.3), optionally with boundary damping injection switched
//! on during the run ([`super::feedback`]), writing `timeseries.csv`, `summary.json`, SVG
//! plots and VTK snapshots ([`phlex_fem::io::vtk`]).
use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use phlex_core::LinearPhSystem;
use phlex_solve::signal::InputFn;

use super::feedback::{join_ledgers, FeedbackPhase};
use super::output::{FieldOutput, LineOutput};
use crate::integration::{Defaults, Simulation};
use crate::output::{columns_plot, energy_plot, OutputFiles, Progress, RunSummary, TimeSeries};
use crate::spec::SimulationSpec;

impl LineOutput {
    /// `phlex run` of a one-dimensional model: [`run_field`] (`timeseries.csv` with `t`, `H`
    /// and the columns of `r`,
    /// `summary.json`, SVG plots if `self.plots`), without VTK snapshots (`r.vtu` may be
    /// [`no_vtk_snapshots`]: it is never called).
    pub fn run(
        &self,
        r: FieldRun<'_>,
        sim: &Simulation<'_>,
        dir: &Path,
        quiet: bool,
    ) -> Result<()> {
        let output = FieldOutput {
            probes: Vec::new(),
            plots: self.plots,
            vtk_every: 0,
        };
        run_field(r, None, sim, &output, dir, quiet)
    }
}

/// The [`FieldRun::vtu`] of a model without VTK snapshots (the one-dimensional models of
/// [`LineOutput::run`]).
pub fn no_vtk_snapshots(_: &[f64]) -> Result<String> {
    anyhow::bail!("one-dimensional models write no VTK snapshots")
}

/// The `[simulation]` `sim` of a continuum model file `file` (its `text` for the lines of
/// errors) of the kind `kind`, with the defaults of the linear kinds.
pub fn field_simulation<'a>(
    (file, text, kind): (&'a str, &'a str, &'a str),
    sim: Option<&'a SimulationSpec>,
) -> Result<Simulation<'a>> {
    Ok(Simulation::new(
        (file, text, kind),
        sim,
        Defaults::linear(),
    )?)
}

/// The values of recorded columns as a function of the state (an error names what could
/// not be evaluated).
pub type ColumnValues<'a> = &'a dyn Fn(&[f64]) -> Result<Vec<f64>, String>;

/// Additional columns recorded at every sample: names, plot title, and the function of
/// the state giving their values.
pub struct Columns<'a> {
    /// Column names.
    pub names: Vec<String>,
    /// Title of their plot; `None`: no plot.
    pub plot_title: Option<String>,
    /// File name of their plot (e.g. `probes.svg`).
    pub plot_file: &'a str,
    /// Values of the columns for a state.
    pub values: ColumnValues<'a>,
}

impl<'a> Columns<'a> {
    /// Columns `names` plotted in `plot_file` titled `plot_title`, valued by `values`.
    pub fn new(
        names: Vec<String>,
        plot_title: &str,
        plot_file: &'a str,
        values: ColumnValues<'a>,
    ) -> Self {
        Self {
            names,
            plot_title: Some(plot_title.to_string()),
            plot_file,
            values,
        }
    }

    /// The probe columns `names`, plotted in `probes.svg`.
    pub fn probes(names: Vec<String>, plot_title: &str, values: ColumnValues<'a>) -> Self {
        Self::new(names, plot_title, "probes.svg", values)
    }
}

impl<'a> FieldRun<'a> {
    /// The model `name` of the kind `kind` with the pH system `system`, its inputs and
    /// initial state; no further columns and no VTK snapshots.
    pub fn new(
        name: &'a str,
        kind: &'a str,
        system: &'a LinearPhSystem,
        input: &InputFn,
        initial: &'a [f64],
    ) -> Self {
        Self {
            name,
            kind,
            system,
            input: input.clone(),
            initial,
            columns: Vec::new(),
            vtu: &no_vtk_snapshots,
        }
    }

    /// The same, recording `columns`.
    pub fn columns(self, columns: Vec<Columns<'a>>) -> Self {
        Self { columns, ..self }
    }

    /// The same, with the VTK file of a state.
    pub fn vtu(self, vtu: &'a dyn Fn(&[f64]) -> Result<String>) -> Self {
        Self { vtu, ..self }
    }

    /// `phlex run` of the model of `file` (its `text`) over `[simulation]` `sim` with
    /// [`run_field`] (no damping injection).
    pub fn run(
        self,
        (file, text): (&str, &str),
        sim: Option<&SimulationSpec>,
        output: &FieldOutput,
        dir: &Path,
        quiet: bool,
    ) -> Result<()> {
        let sim = field_simulation((file, text, self.kind), sim)?;
        run_field(self, None, &sim, output, dir, quiet)
    }
}

/// A linear continuum model ready for `phlex run`.
pub struct FieldRun<'a> {
    /// Model name.
    pub name: &'a str,
    /// Kind, for file names and messages (`plate`, `elasticity`, `acoustics`).
    pub kind: &'a str,
    /// The pH system.
    pub system: &'a LinearPhSystem,
    /// Inputs of every port.
    pub input: InputFn,
    /// Initial state.
    pub initial: &'a [f64],
    /// Probes and other recorded columns.
    pub columns: Vec<Columns<'a>>,
    /// The VTK file of a state.
    pub vtu: &'a dyn Fn(&[f64]) -> Result<String>,
}

/// Integrates with the `[simulation]` integrator `sim` from 0 to `t_end`, writes
/// `timeseries.csv` (t, H, columns), `summary.json`, `energy.svg` and one SVG per column
/// group, VTK snapshots every `output.vtk_every` samples, all atomically, and prints the
/// summary table.
///
/// With boundary damping injection `closed`, switched on at `closed.t_on`: the open
/// system is integrated on $[0, t_{on}]$, the closed loop $u = -Ky$ ([`FeedbackPhase`]) on
/// $[t_{on}, t_{end}]$ from the state reached. The two energy accounts are joined into one
/// ([`join_ledgers`]): the port work of the damped ports stops at $t_{on}$ and the
/// dissipation $\int e^\top BKB^\top e\,dt$ starts there.
pub fn run_field(
    r: FieldRun<'_>,
    closed: Option<FeedbackPhase>,
    sim: &Simulation<'_>,
    output: &FieldOutput,
    dir: &Path,
    quiet: bool,
) -> Result<()> {
    let sys = r.system;
    let t_end = sim.t_end();
    if !quiet {
        eprintln!(
            "phlex run: {} — {} states, ports: {}",
            r.name,
            sys.n_states(),
            if sys.ports.names().is_empty() {
                "none".into()
            } else {
                sys.ports.names().join(", ")
            }
        );
    }
    let mut cols = vec!["t".to_string(), "H".to_string()];
    for c in &r.columns {
        cols.extend(c.names.iter().cloned());
    }
    let mut series = TimeSeries::new(cols);
    let mut snapshots: Vec<(f64, Vec<f64>)> = Vec::new();
    let mut sample = 0usize;
    let mut column_err = None;
    let mut progress = Progress::new(0.0, t_end, quiet);
    let start = Instant::now();
    let res = {
        let mut obs = |t: f64, e: &[f64]| {
            let mut row = vec![t, sys.hamiltonian(e)];
            for c in &r.columns {
                match (c.values)(e) {
                    Ok(v) => row.extend(v),
                    Err(m) => {
                        column_err.get_or_insert(m);
                        row.extend(std::iter::repeat_n(f64::NAN, c.names.len()));
                    }
                }
            }
            series.rows.push(row);
            if output.vtk_every > 0 && sample.is_multiple_of(output.vtk_every) {
                snapshots.push((t, e.to_vec()));
            }
            sample += 1;
            progress.update(t);
        };
        match &closed {
            Some(c) if c.t_on < t_end => {
                let mut open = if c.t_on > 0.0 {
                    Some(sim.run(sys, r.initial, &r.input, (0.0, c.t_on), &mut obs)?)
                } else {
                    None
                };
                // the closed phase starts with the last state (already recorded)
                let start = open.as_ref().map_or(r.initial, |o| o.state.as_slice());
                let mut skip_first = open.is_some();
                let mut obs2 = |t: f64, e: &[f64]| {
                    if !std::mem::take(&mut skip_first) {
                        obs(t, e)
                    }
                };
                let mut second = sim.run(&c.system, start, &c.input, (c.t_on, t_end), &mut obs2)?;
                if let Some(first) = open.take() {
                    second.ledger = join_ledgers(&first.ledger, &second.ledger);
                    second.stats.steps += first.stats.steps;
                    second.stats.rejected_steps += first.stats.rejected_steps;
                    second.stats.newton_iterations += first.stats.newton_iterations;
                    second.stats.factorizations += first.stats.factorizations;
                }
                second
            }
            _ => sim.run(sys, r.initial, &r.input, (0.0, t_end), &mut obs)?,
        }
    };
    progress.finish();
    let wall = start.elapsed().as_secs_f64();
    if let Some(e) = column_err {
        anyhow::bail!("recording the output columns failed: {e}");
    }
    let summary = RunSummary::from_ledger(
        r.name,
        sim.label(),
        sys.n_states(),
        &res.ledger,
        &res.stats,
        res.t,
        wall,
    );
    // Everything computed; now the files (each atomically).
    let mut files = OutputFiles::new(dir);
    files.add("timeseries.csv", series.to_csv()?);
    if output.plots {
        files.add("energy.svg", energy_plot(r.name, &series, "H [J]")?);
        let mut first = 2;
        for c in &r.columns {
            let n = c.names.len();
            if let (Some(title), true) = (&c.plot_title, n > 0) {
                files.add(
                    c.plot_file,
                    columns_plot(r.name, title, &series, first, &c.names)?,
                );
            }
            first += n;
        }
    }
    let mut vtk = Vec::with_capacity(snapshots.len());
    for (t, e) in &snapshots {
        vtk.push((*t, (r.vtu)(e)?));
    }
    let extra: Vec<String> = files.add_vtk_series(r.kind, vtk).into_iter().collect();
    files.finish_run(summary, &extra)
}
