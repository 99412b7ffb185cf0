//! What the continuum model files (`[plate]`, `[elasticity]`, `[acoustics]`) share: field
//! expressions in `x`, `y`, `z`, the 2D mesh keys (structured rectangle or Gmsh file), the
//! `[output]` table (and [`LineOutput`], that of the one-dimensional `[heat]`,
//! `[thermoelastic_rod]` and `[thermoelastic_beam]` files), and the `phlex run` driver of a
//! linear pH(DAE) with the implicit midpoint rule (exact discrete power balance
//! $H_1 - H_0 = h\,\bar y^\top u$ for a lossless system, paper 000 §5.3) writing `timeseries.csv`, `summary.json`, SVG plots and VTK
//! snapshots ([`phlex_fem::vtk`]).
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use exmex::prelude::*;
use phlex_core::LinearPhSystem;
use phlex_fem::gmsh::GmshMesh;
use phlex_fem::mesh2d::{Diagonal, Mesh2d};
use phlex_fem::vtk::pvd;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::newton::NewtonParams;
use phlex_solve::signal::InputFn;
use phlex_solve::{integrate, Integrator};
use serde::Deserialize;
use toml::Spanned;

use crate::model::{IntegratorSpec, ModelError, SimulationSpec};
use crate::output::{svg_plot, write_atomic, TimeSeries};
use crate::report::RunSummary;
use crate::simulate::Progress;

/// Builds the [`ModelError`] of a key at a byte span of the model text.
pub fn error_at(
    file: &str,
    text: &str,
    span: std::ops::Range<usize>,
    message: String,
) -> ModelError {
    ModelError {
        file: file.into(),
        line: if span.end > 0 {
            crate::model::line_of(text, span.start)
        } else {
            0
        },
        message,
    }
}

/// A scalar function of the position (`x`, `y` and, in 3D, `z`; in 2D also the polar
/// coordinates `r` = √(x² + y²) and `theta` = atan2(y, x)), parsed by `exmex`.
#[derive(Clone)]
pub struct FieldFn {
    expr: Arc<FlatEx<f64>>,
    /// Position of each expression variable in the point.
    slots: Vec<usize>,
}

impl FieldFn {
    /// Parses `text`; `dim` (2 or 3) says which of `x`, `y`, `z` (and in 2D `r`, `theta`)
    /// are allowed.
    pub fn parse(text: &str, dim: usize) -> Result<Self, String> {
        let src = phlex_solve::signal::normalize_expression(text);
        let expr = exmex::parse::<f64>(&src).map_err(|e| format!("cannot parse '{text}': {e}"))?;
        let allowed: &[&str] = if dim == 2 {
            &["x", "y", "", "r", "theta"]
        } else {
            &["x", "y", "z"]
        };
        let mut slots = Vec::new();
        for v in expr.var_names() {
            match allowed.iter().position(|n| !n.is_empty() && n == v) {
                Some(k) => slots.push(k),
                None => {
                    let names: Vec<&str> =
                        allowed.iter().copied().filter(|n| !n.is_empty()).collect();
                    return Err(format!(
                        "'{text}' uses variable '{v}'; only {} are allowed",
                        names.join(", ")
                    ));
                }
            }
        }
        Ok(Self {
            expr: Arc::new(expr),
            slots,
        })
    }
    /// Value at a point of the plane.
    pub fn eval2(&self, p: [f64; 2]) -> f64 {
        self.eval3([p[0], p[1], 0.0])
    }
    /// Value at a point of space (NaN if the expression cannot be evaluated).
    pub fn eval3(&self, p: [f64; 3]) -> f64 {
        let all = [p[0], p[1], p[2], p[0].hypot(p[1]), p[1].atan2(p[0])];
        let args: Vec<f64> = self.slots.iter().map(|&s| all[s]).collect();
        self.expr.eval(&args).unwrap_or(f64::NAN)
    }
}

/// The 2D mesh keys shared by the continuum tables: `lx`, `ly`, `nx`, `ny` (and
/// `diagonal`, and the lower-left corner `x0`, `y0`, default 0) of a structured rectangle
/// $[x_0, x_0 + l_x]\times[y_0, y_0 + l_y]$ with edges `left`, `right`, `bottom`, `top`,
/// or `mesh = "file.msh"` (Gmsh, physical line groups as tags).
pub struct MeshKeys<'a> {
    /// Table name for messages (`plate`, `acoustics`, …).
    pub table: &'a str,
    /// Span reported when a key is missing.
    pub anchor: std::ops::Range<usize>,
    /// Side length [m].
    pub lx: &'a Option<Spanned<f64>>,
    /// Side length [m].
    pub ly: &'a Option<Spanned<f64>>,
    /// Cells per side.
    pub nx: &'a Option<Spanned<usize>>,
    /// Cells per side.
    pub ny: &'a Option<Spanned<usize>>,
    /// `"right"` (default) or `"left"`.
    pub diagonal: &'a Option<Spanned<String>>,
    /// Gmsh file, relative to the model file.
    pub mesh: &'a Option<Spanned<String>>,
    /// Lower-left corner of the rectangle [m] (default 0).
    pub x0: Option<&'a Spanned<f64>>,
    /// Lower-left corner of the rectangle [m] (default 0).
    pub y0: Option<&'a Spanned<f64>>,
}

impl MeshKeys<'_> {
    /// Builds the mesh (errors name the key and its line).
    pub fn build(&self, file: &str, text: &str) -> Result<Mesh2d, ModelError> {
        let err = |span, message| error_at(file, text, span, message);
        let t = self.table;
        if let Some(file_name) = self.mesh {
            for (key, present) in [
                ("lx", self.lx.is_some()),
                ("ly", self.ly.is_some()),
                ("nx", self.nx.is_some()),
                ("ny", self.ny.is_some()),
                ("diagonal", self.diagonal.is_some()),
                ("x0", self.x0.is_some()),
                ("y0", self.y0.is_some()),
            ] {
                if present {
                    return Err(err(
                        file_name.span(),
                        format!("{t}.{key} cannot be combined with {t}.mesh (the Gmsh file defines the mesh)"),
                    ));
                }
            }
            let path = Path::new(file)
                .parent()
                .unwrap_or(Path::new("."))
                .join(file_name.get_ref());
            return Ok(GmshMesh::read(&path)
                .map_err(|e| err(file_name.span(), format!("{t}.mesh: {e}")))?
                .mesh);
        }
        let missing = |key: &str| {
            err(
                self.anchor.clone(),
                format!("{t}.{key} is missing: give lx, ly, nx, ny (structured rectangle) or mesh = \"file.msh\""),
            )
        };
        let len = |v: &Option<Spanned<f64>>, key: &str| -> Result<f64, ModelError> {
            let v = v.as_ref().ok_or_else(|| missing(key))?;
            if !(*v.get_ref() > 0.0 && v.get_ref().is_finite()) {
                return Err(err(v.span(), format!("{t}.{key} must be > 0")));
            }
            Ok(*v.get_ref())
        };
        let count = |v: &Option<Spanned<usize>>, key: &str| -> Result<usize, ModelError> {
            let v = v.as_ref().ok_or_else(|| missing(key))?;
            if *v.get_ref() == 0 {
                return Err(err(v.span(), format!("{t}.{key} must be >= 1")));
            }
            Ok(*v.get_ref())
        };
        let (lx, ly) = (len(self.lx, "lx")?, len(self.ly, "ly")?);
        let (nx, ny) = (count(self.nx, "nx")?, count(self.ny, "ny")?);
        let diagonal = match self
            .diagonal
            .as_ref()
            .map(|d| (d.get_ref().as_str(), d.span()))
        {
            None | Some(("right", _)) => Diagonal::Right,
            Some(("left", _)) => Diagonal::Left,
            Some((other, span)) => {
                return Err(err(
                    span,
                    format!("{t}.diagonal = '{other}': use \"right\" or \"left\""),
                ))
            }
        };
        let corner = |v: Option<&Spanned<f64>>, key: &str| -> Result<f64, ModelError> {
            match v {
                None => Ok(0.0),
                Some(v) if v.get_ref().is_finite() => Ok(*v.get_ref()),
                Some(v) => Err(err(v.span(), format!("{t}.{key} must be finite"))),
            }
        };
        let (x0, y0) = (corner(self.x0, "x0")?, corner(self.y0, "y0")?);
        Mesh2d::rectangle(x0, x0 + lx, y0, y0 + ly, nx, ny, diagonal)
            .map_err(|e| err(self.anchor.clone(), format!("{t} mesh: {e}")))
    }
}

/// A probe: the value of a field (component) at a point.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldProbe {
    /// Column name.
    pub name: String,
    /// Field (model dependent; default: the model's primary field, e.g. the vertical
    /// velocity of a plate).
    #[serde(default)]
    pub field: Option<String>,
    /// Position [m].
    pub x: f64,
    /// Position [m].
    pub y: f64,
    /// Position [m] (3D models).
    #[serde(default)]
    pub z: Option<f64>,
}

/// `[output]` of a continuum model.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldOutput {
    /// Record every k-th step.
    #[serde(default = "every_default")]
    pub every: usize,
    /// Point probes.
    #[serde(default)]
    pub probes: Vec<FieldProbe>,
    /// Write SVG plots.
    #[serde(default = "yes")]
    pub plots: bool,
    /// Write VTK snapshots (`fields/<kind>_NNNN.vtu` + `<kind>.pvd`) every `vtk_every`
    /// recorded samples (0: none).
    #[serde(default)]
    pub vtk_every: usize,
}

fn every_default() -> usize {
    1
}
fn yes() -> bool {
    true
}

impl Default for FieldOutput {
    fn default() -> Self {
        Self {
            every: 1,
            probes: Vec::new(),
            plots: true,
            vtk_every: 0,
        }
    }
}

/// A probe of a one-dimensional model (`[heat]`, `[thermoelastic_rod]`,
/// `[thermoelastic_beam]`): the value of a field at an axial position.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineProbe {
    /// Column name.
    pub name: String,
    /// Field (model dependent; default: the model's first field, [`LineProbe::field`]).
    #[serde(default)]
    pub field: Option<String>,
    /// Axial position [m].
    pub x: f64,
    /// Height in the section, $-h/2 \le z \le h/2$ \[m\] (the beam's `theta` probes only).
    #[serde(default)]
    pub z: Option<f64>,
}

impl LineProbe {
    /// The probe's field: the value paired with its `field` key in `fields` (default: the
    /// first entry), after checking that $0 \le x \le$ `length`; the messages name the probe
    /// and call the body `body` (`"rod"`, `"beam"`).
    pub fn field<T: Copy>(
        &self,
        fields: &[(&str, T)],
        body: &str,
        length: f64,
    ) -> Result<T, String> {
        let name = &self.name;
        let key = self
            .field
            .as_deref()
            .or_else(|| fields.first().map(|f| f.0))
            .unwrap_or_default();
        let Some(&(_, value)) = fields.iter().find(|f| f.0 == key) else {
            let names: Vec<&str> = fields.iter().map(|f| f.0).collect();
            return Err(format!(
                "output.probes '{name}': unknown field '{key}' (fields: {})",
                names.join(", ")
            ));
        };
        if !(0.0..=length).contains(&self.x) {
            return Err(format!(
                "output.probes '{name}': x = {} is outside the {body} 0..={length}",
                self.x
            ));
        }
        Ok(value)
    }
}

/// `[output]` of a one-dimensional model (rod, beam): like [`FieldOutput`] without VTK
/// snapshots, and with [`LineProbe`]s.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineOutput {
    /// Record every k-th step.
    #[serde(default = "every_default")]
    pub every: usize,
    /// Point probes.
    #[serde(default)]
    pub probes: Vec<LineProbe>,
    /// Write SVG plots.
    #[serde(default = "yes")]
    pub plots: bool,
}

impl Default for LineOutput {
    fn default() -> Self {
        let FieldOutput { every, plots, .. } = FieldOutput::default();
        Self {
            every,
            probes: Vec::new(),
            plots,
        }
    }
}

impl LineOutput {
    /// `phlex run` of a one-dimensional model: [`run_midpoint`] recording every
    /// `self.every`-th step (`timeseries.csv` with `t`, `H` and the columns of `r`,
    /// `summary.json`, SVG plots if `self.plots`), without VTK snapshots (`r.vtu` may be
    /// [`no_vtk_snapshots`]: it is never called).
    pub fn run_midpoint(
        &self,
        r: FieldRun<'_>,
        dt: f64,
        t_end: f64,
        dir: &Path,
        quiet: bool,
    ) -> Result<()> {
        let output = FieldOutput {
            every: self.every,
            probes: Vec::new(),
            plots: self.plots,
            vtk_every: 0,
        };
        run_midpoint(r, dt, t_end, &output, dir, quiet)
    }
}

/// The [`FieldRun::vtu`] of a model without VTK snapshots (the one-dimensional models of
/// [`LineOutput::run_midpoint`]).
pub fn no_vtk_snapshots(_: &[f64]) -> Result<String> {
    anyhow::bail!("one-dimensional models write no VTK snapshots")
}

/// The time step and final time of `[simulation]` (midpoint only).
pub fn midpoint_step(file: &str, sim: Option<&SimulationSpec>, kind: &str) -> Result<(f64, f64)> {
    let e = |message: String| ModelError {
        file: file.into(),
        line: 0,
        message,
    };
    let sim = sim.ok_or_else(|| {
        e("missing section [simulation] (integrator = \"midpoint\", t_end, dt): needed by `phlex run`".into())
    })?;
    if sim.integrator != IntegratorSpec::Midpoint {
        return Err(e(format!(
            "simulation.integrator: {kind} models support \"midpoint\" only"
        ))
        .into());
    }
    if sim.stages.is_some() || sim.max_steps.is_some() {
        return Err(e(format!(
            "simulation.stages and simulation.max_steps do not apply to {kind} models (integrator = \"midpoint\")"
        ))
        .into());
    }
    let dt = *sim
        .dt
        .as_ref()
        .ok_or_else(|| e("simulation.dt is required".into()))?
        .get_ref();
    if !(dt > 0.0) {
        return Err(e("simulation.dt must be > 0".into()).into());
    }
    Ok((dt, *sim.t_end.get_ref()))
}

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
    pub values: &'a dyn Fn(&[f64]) -> Result<Vec<f64>, String>,
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

/// Integrates with the implicit midpoint rule from 0 to `t_end` with step `dt`, writes
/// `timeseries.csv` (t, H, columns), `summary.json`, `energy.svg` and one SVG per column
/// group, VTK snapshots every `output.vtk_every` samples, all atomically, and prints the
/// summary table.
pub fn run_midpoint(
    r: FieldRun<'_>,
    dt: f64,
    t_end: f64,
    output: &FieldOutput,
    dir: &Path,
    quiet: bool,
) -> Result<()> {
    run_midpoint_with_feedback(r, None, dt, t_end, output, dir, quiet)
}

/// [`run_midpoint`] with boundary damping injection switched on at `closed.t_on`: the open
/// system is integrated on $[0, t_{on}]$, the closed loop $u = -Ky$ ([`FeedbackPhase`]) on
/// $[t_{on}, t_{end}]$ from the state reached. The two energy accounts are joined into one
/// ([`join_ledgers`]): the port work of the damped ports stops at $t_{on}$ and the
/// dissipation $\int e^\top BKB^\top e\,dt$ starts there.
pub fn run_midpoint_with_feedback(
    r: FieldRun<'_>,
    closed: Option<FeedbackPhase>,
    dt: f64,
    t_end: f64,
    output: &FieldOutput,
    dir: &Path,
    quiet: bool,
) -> Result<()> {
    let sys = r.system;
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
        let span = |t0: f64, t1: f64| FixedStepParams {
            t0,
            t_end: t1,
            h: dt,
            output_every: output.every,
        };
        // the midpoint rule through the front door (linear systems: one LU for the run)
        let midpoint = Integrator::Midpoint(NewtonParams::default());
        match &closed {
            Some(c) if c.t_on < t_end => {
                let mut open = if c.t_on > 0.0 {
                    Some(integrate(
                        sys,
                        r.initial,
                        r.input.clone(),
                        &midpoint,
                        span(0.0, c.t_on),
                        None,
                        &mut obs,
                    )?)
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
                let mut second = integrate(
                    &c.system,
                    start,
                    c.input.clone(),
                    &midpoint,
                    span(c.t_on, t_end),
                    None,
                    &mut obs2,
                )?;
                if let Some(first) = open.take() {
                    second.ledger = join_ledgers(&first.ledger, &second.ledger);
                    second.stats.steps += first.stats.steps;
                    second.stats.rejected_steps += first.stats.rejected_steps;
                    second.stats.newton_iterations += first.stats.newton_iterations;
                    second.stats.factorizations += first.stats.factorizations;
                }
                second
            }
            _ => integrate(
                sys,
                r.initial,
                r.input.clone(),
                &midpoint,
                span(0.0, t_end),
                None,
                &mut obs,
            )?,
        }
    };
    progress.finish();
    let wall = start.elapsed().as_secs_f64();
    if let Some(e) = column_err {
        anyhow::bail!("recording the output columns failed: {e}");
    }
    let l = &res.ledger;
    let mut summary = RunSummary {
        model: r.name.to_string(),
        integrator: "midpoint (exact discrete power balance)".into(),
        states: sys.n_states(),
        final_time: res.t,
        steps: res.stats.steps,
        rejected_steps: res.stats.rejected_steps,
        newton_iterations: res.stats.newton_iterations,
        factorizations: res.stats.factorizations,
        h_initial: l.hamiltonian[0],
        h_final: *l.hamiltonian.last().unwrap_or(&0.0),
        energy_supplied: l
            .supplied
            .last()
            .map(|v| v.iter().fold(0.0, |a, b| a + b))
            .unwrap_or(0.0),
        energy_dissipated: *l.dissipated.last().unwrap_or(&0.0),
        energy_drift: l.relative_drift(),
        power_balance_residual: l.max_residual(),
        power_balance_residual_relative: l.max_relative_residual(),
        wall_time_s: wall,
        outputs: Vec::new(),
    };
    // Everything computed; now the files (each atomically).
    let mut files: Vec<(String, Vec<u8>)> = vec![("timeseries.csv".into(), series.to_csv()?)];
    if output.plots {
        let t = series.column(0);
        let h = series.column(1);
        files.push((
            "energy.svg".into(),
            svg_plot(
                &format!("{}: Hamiltonian", r.name),
                "t [s]",
                &[("H [J]", &t, &h)],
            )?
            .into_bytes(),
        ));
        let mut first = 2;
        for c in &r.columns {
            let n = c.names.len();
            if let (Some(title), true) = (&c.plot_title, n > 0) {
                let data: Vec<Vec<f64>> = (first..first + n).map(|k| series.column(k)).collect();
                let s: Vec<(&str, &[f64], &[f64])> = c
                    .names
                    .iter()
                    .zip(&data)
                    .map(|(n, d)| (n.as_str(), t.as_slice(), d.as_slice()))
                    .collect();
                files.push((
                    c.plot_file.to_string(),
                    svg_plot(&format!("{}: {title}", r.name), "t [s]", &s)?.into_bytes(),
                ));
            }
            first += n;
        }
    }
    let mut entries = Vec::new();
    for (k, (t, e)) in snapshots.iter().enumerate() {
        let name = format!("fields/{}_{k:04}.vtu", r.kind);
        files.push((name.clone(), (r.vtu)(e)?.into_bytes()));
        entries.push((*t, name));
    }
    if !entries.is_empty() {
        files.push((format!("{}.pvd", r.kind), pvd(&entries).into_bytes()));
    }
    summary.outputs = files
        .iter()
        .filter(|(n, _)| !n.starts_with("fields/"))
        .map(|(n, _)| dir.join(n).display().to_string())
        .collect();
    summary
        .outputs
        .push(dir.join("summary.json").display().to_string());
    let json = serde_json::to_vec_pretty(&summary)?;
    for (name, bytes) in &files {
        write_atomic(&dir.join(name), bytes)?;
    }
    write_atomic(&dir.join("summary.json"), &json)?;
    print!("{}", summary.table());
    if !snapshots.is_empty() {
        println!(
            "  VTK         {} snapshots, open {} in ParaView",
            snapshots.len(),
            dir.join(format!("{}.pvd", r.kind)).display()
        );
    }
    println!("  results in {}", dir.display());
    Ok(())
}

/// Input signals of `[[input]]` entries: each named port gets the signal on all its
/// components (a value uniform over the port's trace basis).
pub fn port_inputs(
    file: &str,
    text: &str,
    sys: &LinearPhSystem,
    inputs: &[crate::plate_run::PlateInput],
    hint: &str,
) -> Result<InputFn, ModelError> {
    let mut input = InputFn::zeros(sys.n_inputs());
    for inp in inputs {
        let port = inp.port.get_ref();
        let range = sys.ports.range(port).map_err(|_| {
            error_at(
                file,
                text,
                inp.port.span(),
                format!(
                    "input: unknown port '{port}' (ports: {}; {hint})",
                    if sys.ports.names().is_empty() {
                        "none".to_string()
                    } else {
                        sys.ports.names().join(", ")
                    }
                ),
            )
        })?;
        let s = crate::build::signal(&inp.value)
            .map_err(|m| error_at(file, text, inp.port.span(), format!("input '{port}': {m}")))?;
        for k in range {
            input.set(k, s.clone());
        }
    }
    Ok(input)
}

/// Prints the blocks, ports and state count of a checked system (`phlex check`).
pub fn print_structure(sys: &LinearPhSystem) {
    println!(
        "  blocks  {}",
        sys.blocks
            .iter()
            .map(|bl| format!("{} ({})", bl.name, bl.len))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "  ports   {}",
        if sys.ports.names().is_empty() {
            "none".to_string()
        } else {
            sys.ports.names().join(", ")
        }
    );
    println!("  states  {}", sys.n_states());
    println!("  structure J skew, E and R symmetric positive semidefinite: ok");
}

/// `[[damping]]` of a continuum model: boundary damping injection, the output feedback
/// $u = -Ky$ on a boundary port switched on at `t_on` (thesis 004 §8.1.1, Table 8.1). The
/// gain is $K = k\,M_\Gamma^{-1}$ with $M_\Gamma$ the mass matrix of the port's trace basis,
/// so that the input *function* is $-k$ times the conjugate trace (e.g. $\tilde q_n = -k\,w_t$
/// on a Kirchhoff `_qn` port); the closed loop has $R \mathrel{+}= BKB^\top \succeq 0$.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DampingSpec {
    /// The boundary port closed by the feedback.
    pub port: Spanned<String>,
    /// $k \ge 0$ (units: input over conjugate output, e.g. N s/m² on a shear-force port).
    pub gain: Spanned<f64>,
    /// Switch-on time [s] (default 0: damped from the start).
    #[serde(default)]
    pub t_on: Option<Spanned<f64>>,
}

/// The closed-loop phase of a run with boundary damping injection.
pub struct FeedbackPhase {
    /// Switch-on time [s] (a multiple of the time step).
    pub t_on: f64,
    /// The closed-loop system (damped ports removed, $R \mathrel{+}= BKB^\top$).
    pub system: LinearPhSystem,
    /// The inputs of its remaining ports.
    pub input: InputFn,
}

/// Builds the closed-loop phase of the `[[damping]]` entries: every damped port must exist,
/// gains be finite and $\ge 0$, all entries share one `t_on`, which is rounded to a multiple
/// of `dt`. `gain_of(port, k)` returns $K$ (model specific: it knows the trace mass).
pub fn feedback_phase(
    file: &str,
    text: &str,
    open: &LinearPhSystem,
    input: &InputFn,
    specs: &[DampingSpec],
    dt: f64,
    gain_of: &dyn Fn(&str, f64) -> Result<phlex_core::sparse::SparseMat, String>,
) -> Result<Option<FeedbackPhase>, ModelError> {
    let Some(first) = specs.first() else {
        return Ok(None);
    };
    let t_on = first.t_on.as_ref().map_or(0.0, |t| *t.get_ref());
    let mut closed = open.clone();
    let mut seen: Vec<&str> = Vec::new();
    for d in specs {
        let port = d.port.get_ref().as_str();
        let here =
            |m: String| error_at(file, text, d.port.span(), format!("damping '{port}': {m}"));
        if seen.contains(&port) {
            return Err(here(
                "the port is damped twice; give one [[damping]] per port".into(),
            ));
        }
        seen.push(port);
        if open.ports.range(port).is_err() {
            return Err(here(format!(
                "unknown port (ports: {})",
                if open.ports.names().is_empty() {
                    "none; make an edge a port first".to_string()
                } else {
                    open.ports.names().join(", ")
                }
            )));
        }
        let k = *d.gain.get_ref();
        if !(k.is_finite() && k >= 0.0) {
            return Err(error_at(
                file,
                text,
                d.gain.span(),
                format!("damping '{port}': gain = {k}; it must be finite and >= 0 (a negative gain injects energy)"),
            ));
        }
        let t = d.t_on.as_ref().map_or(0.0, |t| *t.get_ref());
        if !(t.is_finite() && t >= 0.0) || t != t_on {
            return Err(here(format!(
                "t_on = {t}: it must be finite, >= 0 and the same for every [[damping]] entry (the first says {t_on})"
            )));
        }
        let K = gain_of(port, k).map_err(&here)?;
        closed = closed
            .with_output_feedback(port, &K)
            .map_err(|e| here(e.to_string()))?;
    }
    let mut closed_input = InputFn::zeros(closed.n_inputs());
    for name in closed.ports.names() {
        let (Ok(from), Ok(to)) = (open.ports.range(&name), closed.ports.range(&name)) else {
            continue;
        };
        for (i, j) in from.zip(to) {
            closed_input.set(j, input.signals()[i].clone());
        }
    }
    Ok(Some(FeedbackPhase {
        t_on: (t_on / dt).round() * dt,
        system: closed,
        input: closed_input,
    }))
}

/// Joins the energy account of an open phase and of the closed-loop phase that starts at
/// its end (ports matched by name; the closed loop has a subset of the ports).
pub fn join_ledgers(
    first: &phlex_core::diagnostics::EnergyLedger,
    second: &phlex_core::diagnostics::EnergyLedger,
) -> phlex_core::diagnostics::EnergyLedger {
    let mut l = first.clone();
    let last_supplied = first.supplied.last().cloned().unwrap_or_default();
    let last_dissipated = first.dissipated.last().copied().unwrap_or(0.0);
    let map: Vec<Option<usize>> = first
        .port_names
        .iter()
        .map(|n| second.port_names.iter().position(|m| m == n))
        .collect();
    for k in 1..second.times.len() {
        l.times.push(second.times[k]);
        l.hamiltonian.push(second.hamiltonian[k]);
        l.supplied.push(
            map.iter()
                .zip(&last_supplied)
                .map(|(j, s0)| s0 + j.map_or(0.0, |j| second.supplied[k][j]))
                .collect(),
        );
        l.dissipated.push(last_dissipated + second.dissipated[k]);
    }
    l.residual.extend_from_slice(&second.residual);
    l
}

/// $K = k\,M_\Gamma^{-1}$ (symmetrised) for a port trace mass $M_\Gamma$: the output
/// feedback whose input function is $-k$ times the conjugate trace ([`DampingSpec`]).
pub fn inverse_trace_gain(
    M: &phlex_core::sparse::SparseMat,
    k: f64,
) -> phlex_core::sparse::SparseMat {
    use faer::linalg::solvers::Solve;
    let M = phlex_core::sparse::to_dense(M);
    let n = M.nrows();
    let inv = M.partial_piv_lu().solve(faer::Mat::<f64>::identity(n, n));
    let K = faer::Mat::from_fn(n, n, |i, j| 0.5 * k * (inv[(i, j)] + inv[(j, i)]));
    phlex_core::sparse::from_dense(&K, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(text: &str) -> LineProbe {
        toml::from_str(text).unwrap()
    }

    /// The field keys, the default field and the messages of the one-dimensional probes
    /// (the texts the rod and beam runners gave before they shared [`LineProbe`]).
    #[test]
    fn line_probe_fields_and_messages() {
        let rod = [("theta", 0), ("v", 1), ("u", 2)];
        let beam = [("v", false), ("theta", true)];
        assert_eq!(probe("name = 'a'\nx = 0.5").field(&rod, "rod", 1.0), Ok(0));
        assert_eq!(
            probe("name = 'a'\nfield = 'u'\nx = 1.0").field(&rod, "rod", 1.0),
            Ok(2)
        );
        assert_eq!(
            probe("name = 'a'\nx = 0.0").field(&beam, "beam", 1.0),
            Ok(false)
        );
        assert_eq!(
            probe("name = 'T'\nfield = 'w'\nx = 0.5").field(&rod, "rod", 1.0),
            Err("output.probes 'T': unknown field 'w' (fields: theta, v, u)".into())
        );
        assert_eq!(
            probe("name = 'T'\nfield = 'u'\nx = 0.5").field(&beam, "beam", 1.0),
            Err("output.probes 'T': unknown field 'u' (fields: v, theta)".into())
        );
        assert_eq!(
            probe("name = 'T'\nfield = 'theta'\nx = 2.5\nz = 0.1").field(&beam, "beam", 2.0),
            Err("output.probes 'T': x = 2.5 is outside the beam 0..=2".into())
        );
        assert!(toml::from_str::<LineProbe>("name = 'a'\nx = 0.5\ny = 0.0").is_err());
        let out: LineOutput = toml::from_str("").unwrap();
        assert_eq!((out.every, out.probes.len(), out.plots), (1, 0, true));
        let d = LineOutput::default();
        assert_eq!((d.every, d.probes.len(), d.plots), (1, 0, true));
    }
}
