//! Shallow water model files (`[shallow_water]`, format in `docs/model-format-continuum.md`):
//! the irrotational shallow water equations of [`phlex_fem::models::continuum::shallow_water`] (thesis 004
//! §6.3, eqs. (6.38)–(6.42); Table 8.2) on a disk mesh or a Gmsh mesh, integrated with the
//! averaged-vector-field discrete gradient (exact discrete energy and mass balances), with an
//! optional boundary damping injection $u_\partial = -k(y_\partial - \rho g h_{des})$ that makes
//! the Lyapunov functional decrease; `phlex check`, `run` and `modes` (linearised about
//! the rest depth).
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use phlex_fem::io::gmsh::GmshMesh;
use phlex_fem::io::vtk::{pvd, Location, Vtu};
use phlex_fem::mesh::disk::disk_mesh;
use phlex_fem::models::continuum::shallow_water::{BoundaryControl, ShallowWater, SwStepSettings};
use phlex_solve::eigen::EigenParams;
use serde::Deserialize;
use toml::Spanned;

use crate::field_run::{error_at, FieldFn};
use crate::model::{ModelError, ModelMeta, ModesSpec};
use crate::output::{svg_plot, write_atomic, TimeSeries};
use crate::report::RunSummary;

/// True if the TOML text is a shallow water model (it has a `shallow_water` table).
pub fn is_shallow_water(text: &str) -> bool {
    match text.parse::<toml::Table>() {
        Ok(t) => t.contains_key("shallow_water"),
        Err(_) => false,
    }
}

/// Top level of a shallow water model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShallowWaterFile {
    /// Descriptive metadata.
    pub model: ModelMeta,
    /// Tank, fluid and mesh.
    pub shallow_water: SwSpec,
    /// Initial height `h` and velocity `v_x`, `v_y` (expressions in x, y, r, theta).
    #[serde(default)]
    pub initial: BTreeMap<String, Spanned<String>>,
    /// Boundary damping injection.
    #[serde(default)]
    pub control: Option<SwControlSpec>,
    /// Time integration.
    #[serde(default)]
    pub simulation: Option<SwSimulationSpec>,
    /// What to write.
    #[serde(default)]
    pub output: SwOutput,
    /// Eigen-analysis settings (linearised about `h_des`).
    #[serde(default)]
    pub modes: ModesSpec,
}

/// `[shallow_water]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwSpec {
    /// Tank radius [m] (disk mesh of concentric rings).
    #[serde(default)]
    pub radius: Option<Spanned<f64>>,
    /// Rings of the disk mesh.
    #[serde(default)]
    pub n_radial: Option<Spanned<usize>>,
    /// A Gmsh `.msh` file instead of the disk (path relative to the model file).
    #[serde(default)]
    pub mesh: Option<Spanned<String>>,
    /// Boundary tag of the port (default `"boundary"`, the disk's whole rim); other
    /// boundary edges are closed walls.
    #[serde(default)]
    pub port: Option<Spanned<String>>,
    /// Density [kg/m³].
    pub rho: Spanned<f64>,
    /// Gravity [m/s²].
    pub g: Spanned<f64>,
    /// Rest depth [m] (linearisation of `phlex modes`, Lyapunov functional).
    pub h_des: Spanned<f64>,
}

/// `[control]`: $u_\partial = -k(y_\partial - \rho g h_{des})$ for $t \ge t_{on}$.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwControlSpec {
    /// Gain k ≥ 0.
    pub gain: Spanned<f64>,
    /// Switch-on time [s].
    #[serde(default)]
    pub t_on: f64,
}

/// `[simulation]` of a shallow water model.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwSimulationSpec {
    /// Final time [s].
    pub t_end: Spanned<f64>,
    /// Time step [s].
    pub dt: Spanned<f64>,
    /// Newton tolerance (default 1e-13, relative).
    #[serde(default)]
    pub newton_tol: Option<f64>,
}

/// `[output]` of a shallow water model.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SwOutput {
    /// Write every k-th step to the CSV (default 1).
    #[serde(default)]
    pub every: Option<usize>,
    /// VTK snapshot every k-th step (0: none).
    #[serde(default)]
    pub vtk_every: usize,
    /// SVG plots (default true).
    #[serde(default)]
    pub plots: Option<bool>,
}

/// A parsed and built model.
pub struct BuiltSw {
    /// Model name.
    pub name: String,
    /// The model.
    pub model: ShallowWater,
    /// Initial state.
    pub initial: phlex_fem::models::continuum::shallow_water::SwState,
    /// Tank radius scale (largest extent / 2) [m].
    pub size: f64,
}

/// Parses and builds the model in `text`.
pub fn load(file: &str, text: &str) -> Result<(ShallowWaterFile, BuiltSw), ModelError> {
    let err = |span: std::ops::Range<usize>, message: String| error_at(file, text, span, message);
    let f: ShallowWaterFile = toml::from_str(text).map_err(|e| {
        err(
            e.span().unwrap_or(0..0),
            e.message().to_string().replace('\n', " "),
        )
    })?;
    let s = &f.shallow_water;
    let mesh = match (&s.mesh, &s.radius, &s.n_radial) {
        (Some(m), None, None) => {
            let path = Path::new(file)
                .parent()
                .unwrap_or(Path::new("."))
                .join(m.get_ref());
            GmshMesh::read(&path)
                .map_err(|e| err(m.span(), format!("shallow_water.mesh: {e}")))?
                .mesh
        }
        (None, Some(r), Some(n)) => disk_mesh(*r.get_ref(), *n.get_ref())
            .map_err(|e| err(r.span(), format!("shallow_water disk mesh: {e}")))?,
        (Some(m), _, _) => {
            return Err(err(
                m.span(),
                "shallow_water.mesh cannot be combined with radius/n_radial".into(),
            ))
        }
        _ => {
            return Err(err(
                s.rho.span(),
                "shallow_water: give radius and n_radial (disk tank) or mesh = \"file.msh\"".into(),
            ))
        }
    };
    let tag = s
        .port
        .as_ref()
        .map_or("boundary".to_string(), |t| t.get_ref().clone());
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for v in mesh.vertices() {
        for c in 0..2 {
            lo[c] = lo[c].min(v[c]);
            hi[c] = hi[c].max(v[c]);
        }
    }
    let size = 0.5 * (hi[0] - lo[0]).max(hi[1] - lo[1]);
    let model = ShallowWater::new(mesh, *s.rho.get_ref(), *s.g.get_ref(), &tag).map_err(|e| {
        err(
            s.port.as_ref().map_or(s.rho.span(), |p| p.span()),
            format!("shallow_water: {e}"),
        )
    })?;
    if !(*s.h_des.get_ref() > 0.0) {
        return Err(err(
            s.h_des.span(),
            "shallow_water.h_des must be > 0".into(),
        ));
    }
    let mut init: [Option<FieldFn>; 3] = [None, None, None];
    let names = ["h", "v_x", "v_y"];
    for (name, expr) in &f.initial {
        let Some(k) = names.iter().position(|n| n == name) else {
            return Err(err(
                expr.span(),
                format!("initial.{name}: unknown field; use h, v_x or v_y"),
            ));
        };
        init[k] = Some(
            FieldFn::parse(expr.get_ref(), 2)
                .map_err(|m| err(expr.span(), format!("initial.{name}: {m}")))?,
        );
    }
    let h_des = *s.h_des.get_ref();
    let h = |x: [f64; 2]| init[0].as_ref().map_or(h_des, |g| g.eval2(x));
    let v = |x: [f64; 2]| [1, 2].map(|k| init[k].as_ref().map_or(0.0, |g| g.eval2(x)));
    let initial = model.state_from(&h, &v);
    if let Some(i) = initial.alpha_h.iter().position(|a| !(*a > 0.0)) {
        return Err(err(
            0..0,
            format!(
                "initial.h: the height at vertex {i} {:?} is {} (must be > 0 everywhere: a dry tank has no shallow water model)",
                model.mesh().vertices()[i],
                initial.alpha_h[i]
            ),
        ));
    }
    if initial.alpha_v.iter().any(|a| !a.is_finite()) {
        return Err(err(
            0..0,
            "initial velocity is not finite everywhere".into(),
        ));
    }
    if let Some(c) = &f.control {
        if !(*c.gain.get_ref() >= 0.0) {
            return Err(err(c.gain.span(), "control.gain must be >= 0".into()));
        }
    }
    Ok((
        f.clone(),
        BuiltSw {
            name: f.model.name.clone(),
            model,
            initial,
            size,
        },
    ))
}

/// `phlex check` for a shallow water model.
pub fn check(path: &Path, text: &str) -> Result<()> {
    let (_, b) = load(&path.display().to_string(), text)?;
    let m = &b.model;
    println!("{}: ok", path.display());
    println!("  model   {} (shallow water)", b.name);
    println!(
        "  mesh    {} vertices, {} triangles; port on {} boundary edges",
        m.mesh().n_vertices(),
        m.mesh().n_cells(),
        m.n_boundary()
    );
    println!(
        "  states  {} (alpha_h: {}, alpha_v: {})",
        m.n_h() + m.n_v(),
        m.n_h(),
        m.n_v()
    );
    Ok(())
}

/// Eigensolver settings of the linearised tank: shift about $\sqrt{g h}\,/R$ (the lowest
/// sloshing frequency is $1.84\sqrt{gh}/R$).
pub fn eigen_params(b: &BuiltSw, h_des: f64, n: usize) -> EigenParams {
    EigenParams {
        n_modes: Some(n),
        shift: Some((b.model.g() * h_des).sqrt() / b.size),
        max_krylov: Some((20 * n + 100).max(400)),
        zero_tol: 1e-3,
        tol: 1e-8,
        ..Default::default()
    }
}

/// `phlex modes`: sloshing frequencies of the tank linearised about the rest depth.
pub fn modes(
    path: &Path,
    text: &str,
    count: Option<usize>,
) -> Result<(String, usize, Vec<crate::app::ModeRow>)> {
    let (f, b) = load(&path.display().to_string(), text)?;
    let h_des = *f.shallow_water.h_des.get_ref();
    let sys = b.model.linearised_system(h_des)?;
    let n = count.unwrap_or(f.modes.count);
    let rows = crate::modal::frequencies_with(&sys, n, &eigen_params(&b, h_des, n))?;
    Ok((b.name, sys.n_states(), rows))
}

/// `phlex run`: discrete-gradient integration, `timeseries.csv` (t, H, V, volume, supplied
/// work), `summary.json`, SVG plots of H and V, VTK snapshots of height and velocity.
pub fn run(path: &Path, text: &str, dir: &Path, quiet: bool) -> Result<()> {
    let file = path.display().to_string();
    let (f, b) = load(&file, text)?;
    let sim = f.simulation.as_ref().ok_or_else(|| ModelError {
        file: file.clone(),
        line: 0,
        message: "missing section [simulation] (t_end, dt): needed by `phlex run`".into(),
    })?;
    let h_des = *f.shallow_water.h_des.get_ref();
    let settings = SwStepSettings {
        dt: *sim.dt.get_ref(),
        t_end: *sim.t_end.get_ref(),
        newton_tol: sim.newton_tol.unwrap_or(1e-13),
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
    let vtk_every = f.output.vtk_every;
    let mut snapshots: Vec<(f64, Vec<f64>, Vec<f64>)> = Vec::new();
    let mut step = 0usize;
    let mut progress = crate::simulate::Progress::new(0.0, settings.t_end, quiet);
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
    let every = f.output.every.unwrap_or(1).max(1);
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
    let mut summary = RunSummary {
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
        h_initial: h0,
        h_final: h1,
        energy_supplied: w,
        energy_dissipated: 0.0,
        energy_drift: drift,
        power_balance_residual: res.max_balance_residual,
        power_balance_residual_relative: res.max_balance_residual / scale,
        wall_time_s: wall,
        outputs: Vec::new(),
    };
    let mut files: Vec<(String, Vec<u8>)> = vec![("timeseries.csv".into(), series.to_csv()?)];
    if f.output.plots.unwrap_or(true) {
        let t = series.column(0);
        files.push((
            "energy.svg".into(),
            svg_plot(
                &format!("{}: Hamiltonian", b.name),
                "t [s]",
                &[("H [J/m]", &t, &series.column(1))],
            )?
            .into_bytes(),
        ));
        files.push((
            "lyapunov.svg".into(),
            svg_plot(
                &format!("{}: Lyapunov functional V (h_des = {h_des})", b.name),
                "t [s]",
                &[("V", &t, &series.column(2))],
            )?
            .into_bytes(),
        ));
    }
    let mut entries = Vec::new();
    for (k, (t, ah, av)) in snapshots.iter().enumerate() {
        let name = format!("fields/shallow_water_{k:04}.vtu");
        let rho = m.rho();
        let vel: Vec<f64> = av
            .chunks(2)
            .flat_map(|a| [a[0] / rho, a[1] / rho])
            .collect();
        let xml = Vtu::new(m.mesh())
            .field("h (height) [m]", Location::Point, 1, ah.clone())?
            .field("v (velocity) [m/s]", Location::Cell, 2, vel)?
            .to_xml();
        files.push((name.clone(), xml.into_bytes()));
        entries.push((*t, name));
    }
    if !entries.is_empty() {
        files.push(("shallow_water.pvd".into(), pvd(&entries).into_bytes()));
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
    println!(
        "  volume      {:.12e} -> {:.12e} (inflow {:.3e}; mass-balance residual {:.1e})",
        res.volume[0],
        res.volume.last().unwrap_or(&0.0),
        res.inflow.last().unwrap_or(&0.0),
        res.max_mass_residual
    );
    println!(
        "  Lyapunov V  {:.6e} -> {:.6e}",
        res.lyapunov[0],
        res.lyapunov.last().unwrap_or(&0.0)
    );
    println!("  results in {}", dir.display());
    Ok(())
}
