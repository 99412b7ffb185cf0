//! Plate model files (`[plate]`; format documented in `docs/model-format-plate.md`):
//! parsing, building with [`phlex_fem::plate`], `phlex run` / `check` / `modes`.
//!
//! The file maps onto the Rust API: `[plate]` ↔ [`MindlinCgDg`] on a structured
//! rectangle mesh ([`Mesh2d::rectangle`]) with every edge (`left`, `right`, `bottom`,
//! `top`) clamped strongly, clamped by multipliers (`clamped_weak`, an index-2 pHDAE),
//! free, or a traction port (`port`: inputs `<edge>_qn`, `<edge>_Mnn`, `<edge>_Mns`, thesis
//! 004 §4.1.1 and summary §2.5); `[[input]]` drives a port with a traction uniform along
//! the edge; `[initial]` interpolates fields given as expressions in `x`, `y`;
//! `[simulation]` integrates with the implicit midpoint rule (exact discrete power balance
//! $H_1 - H_0 = h\,\bar y^\top u$); `[output]` records probes and writes VTK snapshots of the
//! fields ([`phlex_fem::vtk`]) for ParaView.
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use exmex::prelude::*;
use phlex_core::LinearPhSystem;
use phlex_fem::gmsh::GmshMesh;
use phlex_fem::mesh2d::{Diagonal, Mesh2d};
use phlex_fem::plate::{
    EdgeCondition, KirchhoffField, KirchhoffHhj, KirchhoffModel, KirchhoffParams, MindlinCgDg,
    MindlinModel, MindlinParams, PlateField,
};
use phlex_fem::space2d::Space2d;
use phlex_fem::vtk::{pvd, Location, Vtu};
use phlex_solve::eigen::EigenParams;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::signal::InputFn;
use serde::Deserialize;
use toml::Spanned;

use crate::model::{
    line_of, IntegratorSpec, ModelError, ModelMeta, ModesSpec, SignalSpec, SimulationSpec,
};
use crate::output::{svg_plot, write_atomic, TimeSeries};
use crate::report::RunSummary;
use crate::simulate::Progress;

/// True if the TOML text is a plate model (it has a `plate` table).
pub fn is_plate(text: &str) -> bool {
    match text.parse::<toml::Table>() {
        Ok(t) => t.contains_key("plate"),
        Err(_) => false,
    }
}

/// Top level of a plate model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateFile {
    /// Descriptive metadata.
    pub model: ModelMeta,
    /// Geometry, mesh, material, discretization and edge conditions.
    pub plate: PlateSpec,
    /// Signals driving traction ports (uniform along the edge).
    #[serde(default)]
    pub input: Vec<PlateInput>,
    /// Initial fields (`e_w`, `e_theta_x`, `e_theta_y`) as expressions in `x`, `y`.
    #[serde(default)]
    pub initial: BTreeMap<String, Spanned<String>>,
    /// Time integration (midpoint).
    #[serde(default)]
    pub simulation: Option<SimulationSpec>,
    /// What to record.
    #[serde(default)]
    pub output: PlateOutput,
    /// Eigen-analysis settings.
    #[serde(default)]
    pub modes: ModesSpec,
}

/// `[plate]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateSpec {
    /// Plate theory: `"mindlin"` (CGDG, thesis eq. (7.20)).
    pub theory: Spanned<String>,
    /// Side lengths [m] of the structured rectangle mesh.
    #[serde(default)]
    pub lx: Option<Spanned<f64>>,
    /// Side lengths [m].
    #[serde(default)]
    pub ly: Option<Spanned<f64>>,
    /// Cells per side.
    #[serde(default)]
    pub nx: Option<Spanned<usize>>,
    /// Cells per side.
    #[serde(default)]
    pub ny: Option<Spanned<usize>>,
    /// A Gmsh `.msh` file (ASCII 4.1 or 2.2; path relative to the model file) instead of
    /// `lx`, `ly`, `nx`, `ny`: the physical line groups are the edge tags.
    #[serde(default)]
    pub mesh: Option<Spanned<String>>,
    /// Diagonal of the structured mesh: `"right"` (default) or `"left"`.
    #[serde(default)]
    pub diagonal: Option<Spanned<String>>,
    /// Polynomial degree k of the CG velocities (1..3).
    #[serde(default = "one")]
    pub degree: Spanned<usize>,
    /// Young's modulus [Pa].
    #[serde(rename = "E")]
    pub youngs_modulus: Spanned<f64>,
    /// Poisson ratio.
    pub nu: Spanned<f64>,
    /// Density [kg/m³].
    pub rho: Spanned<f64>,
    /// Thickness [m].
    pub h: Spanned<f64>,
    /// Shear correction factor (default 5/6).
    #[serde(default)]
    pub k_sh: Option<Spanned<f64>>,
    /// Edge conditions by edge name (`left`, `right`, `bottom`, `top`): `clamped`,
    /// `clamped_weak`, `free` (default) or `port`.
    #[serde(default)]
    pub edges: BTreeMap<String, Spanned<String>>,
}

fn one() -> Spanned<usize> {
    Spanned::new(0..0, 1)
}

/// `[[input]]`: a traction port driven by a signal, uniform along the edge.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateInput {
    /// Port name (`<edge>_qn`, `<edge>_Mnn` or `<edge>_Mns`).
    pub port: Spanned<String>,
    /// The traction as a function of time.
    pub value: SignalSpec,
}

/// A probe of the vertical velocity at a point.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateProbe {
    /// Column name.
    pub name: String,
    /// Position [m].
    pub x: f64,
    /// Position [m].
    pub y: f64,
}

/// `[output]` of a plate model.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateOutput {
    /// Record every k-th step.
    #[serde(default = "every_default")]
    pub every: usize,
    /// Vertical-velocity probes.
    #[serde(default)]
    pub probes: Vec<PlateProbe>,
    /// Write SVG plots.
    #[serde(default = "yes")]
    pub plots: bool,
    /// Write VTK snapshots (`fields/plate_NNNN.vtu` + `plate.pvd`) every `vtk_every`
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

impl Default for PlateOutput {
    fn default() -> Self {
        Self {
            every: 1,
            probes: Vec::new(),
            plots: true,
            vtk_every: 0,
        }
    }
}

/// A function of `x`, `y` (initial fields), parsed by `exmex`.
#[derive(Clone)]
struct Field2dFn {
    expr: Arc<FlatEx<f64>>,
    /// Position of `x` and `y` in the expression's variable list.
    slots: Vec<usize>,
}

impl Field2dFn {
    fn parse(text: &str) -> Result<Self, String> {
        let src = phlex_solve::signal::normalize_expression(text);
        let expr = exmex::parse::<f64>(&src).map_err(|e| format!("cannot parse '{text}': {e}"))?;
        let mut slots = Vec::new();
        for v in expr.var_names() {
            match v.as_str() {
                "x" => slots.push(0),
                "y" => slots.push(1),
                other => {
                    return Err(format!(
                        "'{text}' uses variable '{other}'; only 'x' and 'y' are allowed"
                    ))
                }
            }
        }
        Ok(Self {
            expr: Arc::new(expr),
            slots,
        })
    }
    fn eval(&self, p: [f64; 2]) -> f64 {
        let args: Vec<f64> = self.slots.iter().map(|&s| p[s]).collect();
        self.expr.eval(&args).unwrap_or(f64::NAN)
    }
}

/// The assembled plate of either theory.
pub enum PlateModel {
    /// Mindlin–Reissner, CGDG.
    Mindlin(MindlinModel),
    /// Kirchhoff–Love, HHJ.
    Kirchhoff(KirchhoffModel),
}

impl PlateModel {
    /// The pH system.
    pub fn system(&self) -> &LinearPhSystem {
        match self {
            PlateModel::Mindlin(m) => m.system(),
            PlateModel::Kirchhoff(m) => m.system(),
        }
    }
    /// The $CG_k$ space of the vertical velocity.
    pub fn velocity_space(&self) -> &Space2d {
        match self {
            PlateModel::Mindlin(m) => m.space(PlateField::Velocity),
            PlateModel::Kirchhoff(m) => m.velocity_space(),
        }
    }
    /// Velocity coefficients (full space) of a state.
    pub fn velocity(&self, e: &[f64]) -> Result<Vec<f64>, phlex_fem::mesh2d::Fem2dError> {
        match self {
            PlateModel::Mindlin(m) => m.field_coefficients(e, PlateField::Velocity),
            PlateModel::Kirchhoff(m) => m.field_coefficients(e, KirchhoffField::Velocity),
        }
    }
    /// Bending stiffness $D$ and surface density $\rho h$ (isotropic estimate for the shift).
    fn stiffness_and_density(&self) -> (f64, f64) {
        match self {
            PlateModel::Mindlin(m) => {
                let p = m.params();
                (p.bending_stiffness(), p.rho * p.h)
            }
            PlateModel::Kirchhoff(m) => {
                let p = m.params();
                let v = p.stiffness.voigt();
                (v[0][0].max(v[1][1]), p.surface_density())
            }
        }
    }
}

/// A parsed and built plate model.
pub struct BuiltPlate {
    /// Model name.
    pub name: String,
    /// The assembled model.
    pub model: PlateModel,
    /// Inputs of every port.
    pub input: InputFn,
    /// Initial state.
    pub initial: Vec<f64>,
    /// Velocity probes: name and point.
    pub probes: Vec<(String, [f64; 2])>,
    /// Extent of the mesh [m].
    pub lx: f64,
    /// Extent of the mesh [m].
    pub ly: f64,
}

impl BuiltPlate {
    /// The pH system.
    pub fn system(&self) -> &LinearPhSystem {
        self.model.system()
    }

    /// Eigensolver settings for the `n` lowest modes. The shift is the fundamental
    /// frequency of the simply supported Kirchhoff plate of the same size,
    /// $\pi^2(1/l_x^2 + 1/l_y^2)\sqrt{D/\rho h}$ (clamping and shear raise or lower it
    /// by a factor of order one, so the lowest modes are the nearest to the shift); the
    /// large kernel of $J$ (self-equilibrated stress fields) gives round-off eigenvalues,
    /// which are rejected below $10^{-3}$ of the spectral radius. That cluster converges
    /// slowly, so the Ritz tolerance is $10^{-6}$: the lowest modes are then accurate to
    /// ~1e-8 and the higher ones of the six to ~1e-5 (measured against other shifts on
    /// a 20 × 20 Mindlin plate), which also bounds the printed damping ratios of a lossless
    /// plate.
    pub fn eigen_params(&self, n: usize) -> EigenParams {
        let (d, rho_h) = self.model.stiffness_and_density();
        let shift = std::f64::consts::PI.powi(2)
            * (1.0 / (self.lx * self.lx) + 1.0 / (self.ly * self.ly))
            * (d / rho_h).sqrt();
        EigenParams {
            n_modes: Some(n),
            shift: Some(shift),
            max_krylov: Some((20 * n + 100).max(400)),
            zero_tol: 1e-3,
            tol: 1e-6,
            ..Default::default()
        }
    }
}

/// Parses and builds the plate model in `text` (errors name the key and its line).
pub fn load(file: &str, text: &str) -> Result<(PlateFile, BuiltPlate), ModelError> {
    let err = |span: std::ops::Range<usize>, message: String| ModelError {
        file: file.into(),
        line: if span.end > 0 {
            line_of(text, span.start)
        } else {
            0
        },
        message,
    };
    let f: PlateFile = toml::from_str(text).map_err(|e| {
        err(
            e.span().unwrap_or(0..0),
            e.message().to_string().replace('\n', " "),
        )
    })?;
    let p = &f.plate;
    let theory = p.theory.get_ref().clone();
    if theory != "mindlin" && theory != "kirchhoff" {
        return Err(err(
            p.theory.span(),
            format!("plate.theory = '{theory}': use \"mindlin\" (CGDG) or \"kirchhoff\" (HHJ)"),
        ));
    }
    let mesh = match &p.mesh {
        Some(file_name) => {
            for (key, present) in [
                ("lx", p.lx.is_some()),
                ("ly", p.ly.is_some()),
                ("nx", p.nx.is_some()),
                ("ny", p.ny.is_some()),
                ("diagonal", p.diagonal.is_some()),
            ] {
                if present {
                    return Err(err(
                        file_name.span(),
                        format!("plate.{key} cannot be combined with plate.mesh (the Gmsh file defines the mesh)"),
                    ));
                }
            }
            let path = Path::new(file)
                .parent()
                .unwrap_or(Path::new("."))
                .join(file_name.get_ref());
            GmshMesh::read(&path)
                .map_err(|e| err(file_name.span(), format!("plate.mesh: {e}")))?
                .mesh
        }
        None => {
            let req = |v: &Option<Spanned<f64>>, key: &str| {
                v.as_ref().map(|v| (*v.get_ref(), v.span())).ok_or_else(|| {
                    err(
                        p.theory.span(),
                        format!("plate.{key} is missing: give lx, ly, nx, ny (structured rectangle) or mesh = \"file.msh\""),
                    )
                })
            };
            let reqn = |v: &Option<Spanned<usize>>, key: &str| {
                v.as_ref().map(|v| (*v.get_ref(), v.span())).ok_or_else(|| {
                    err(
                        p.theory.span(),
                        format!("plate.{key} is missing: give lx, ly, nx, ny (structured rectangle) or mesh = \"file.msh\""),
                    )
                })
            };
            let (lx, ly) = (req(&p.lx, "lx")?, req(&p.ly, "ly")?);
            let (nx, ny) = (reqn(&p.nx, "nx")?, reqn(&p.ny, "ny")?);
            for (key, (v, span)) in [("lx", &lx), ("ly", &ly)] {
                if !(*v > 0.0) {
                    return Err(err(span.clone(), format!("plate.{key} must be > 0")));
                }
            }
            for (key, (v, span)) in [("nx", &nx), ("ny", &ny)] {
                if *v == 0 {
                    return Err(err(span.clone(), format!("plate.{key} must be >= 1")));
                }
            }
            let diagonal = match p
                .diagonal
                .as_ref()
                .map(|d| (d.get_ref().as_str(), d.span()))
            {
                None | Some(("right", _)) => Diagonal::Right,
                Some(("left", _)) => Diagonal::Left,
                Some((other, span)) => {
                    return Err(err(
                        span,
                        format!("plate.diagonal = '{other}': use \"right\" or \"left\""),
                    ))
                }
            };
            Mesh2d::rectangle(0.0, lx.0, 0.0, ly.0, nx.0, ny.0, diagonal)
                .map_err(|e| err(nx.1.clone(), format!("plate mesh: {e}")))?
        }
    };
    let names = mesh.tag_names();
    let mut conditions = Vec::new();
    for (edge, cond) in &p.edges {
        if !names.contains(edge) {
            return Err(err(
                cond.span(),
                format!(
                    "plate.edges: unknown edge '{edge}' (edges: {})",
                    names.join(", ")
                ),
            ));
        }
        conditions.push((edge.as_str(), cond.get_ref().as_str(), cond.span()));
    }
    let bad_condition = |edge: &str, other: &str, span, allowed: &str| {
        err(
            span,
            format!("plate.edges.{edge} = '{other}': the {theory} plate accepts {allowed}"),
        )
    };
    let model = match theory.as_str() {
        "mindlin" => {
            let params = MindlinParams {
                E: *p.youngs_modulus.get_ref(),
                nu: *p.nu.get_ref(),
                rho: *p.rho.get_ref(),
                h: *p.h.get_ref(),
                k_sh: p.k_sh.as_ref().map_or(5.0 / 6.0, |v| *v.get_ref()),
            };
            params
                .validate()
                .map_err(|e| err(p.youngs_modulus.span(), format!("plate: {e}")))?;
            let mut plate = MindlinCgDg::new(params, &mesh, *p.degree.get_ref())
                .map_err(|e| err(p.degree.span(), format!("plate.degree: {e}")))?;
            for (edge, cond, span) in conditions {
                plate = match cond {
                    "clamped" => plate.clamped(edge),
                    "clamped_weak" => plate.clamped_weak(edge),
                    "port" => plate.port(edge),
                    "free" => plate,
                    other => {
                        return Err(bad_condition(
                            edge,
                            other,
                            span,
                            "\"clamped\", \"clamped_weak\", \"free\" or \"port\"",
                        ))
                    }
                };
            }
            PlateModel::Mindlin(
                plate
                    .build()
                    .map_err(|e| err(p.theory.span(), format!("plate: {e}")))?,
            )
        }
        _ => {
            if let Some(k) = &p.k_sh {
                return Err(err(
                    k.span(),
                    "plate.k_sh: the Kirchhoff plate has no shear deformation; remove the key"
                        .into(),
                ));
            }
            let params = KirchhoffParams::isotropic(
                *p.youngs_modulus.get_ref(),
                *p.nu.get_ref(),
                *p.rho.get_ref(),
                *p.h.get_ref(),
            )
            .map_err(|e| err(p.youngs_modulus.span(), format!("plate: {e}")))?;
            let mut plate = KirchhoffHhj::new(params, &mesh, *p.degree.get_ref())
                .map_err(|e| err(p.degree.span(), format!("plate.degree: {e}")))?;
            for (edge, cond, span) in conditions {
                plate = match cond {
                    "clamped" => plate.clamped(edge),
                    "simply_supported" => plate.simply_supported(edge),
                    "port" => plate.port(edge, EdgeCondition::Free),
                    "free" => plate.free(edge),
                    other => {
                        return Err(bad_condition(
                            edge,
                            other,
                            span,
                            "\"clamped\", \"simply_supported\", \"free\" or \"port\"",
                        ))
                    }
                };
            }
            PlateModel::Kirchhoff(
                plate
                    .build()
                    .map_err(|e| err(p.theory.span(), format!("plate: {e}")))?,
            )
        }
    };
    let sys = model.system();
    sys.check(&Default::default())
        .map_err(|e| err(p.theory.span(), format!("plate structure check: {e}")))?;
    // inputs
    let mut input = InputFn::zeros(sys.n_inputs());
    for inp in &f.input {
        let port = inp.port.get_ref();
        let range = sys.ports.range(port).map_err(|_| {
            err(
                inp.port.span(),
                format!(
                    "input: unknown port '{port}' (ports: {}; declare an edge as \"port\" in plate.edges)",
                    sys.ports.names().join(", ")
                ),
            )
        })?;
        let s = crate::build::signal(&inp.value)
            .map_err(|m| err(inp.port.span(), format!("input '{port}': {m}")))?;
        for k in range {
            input.set(k, s.clone());
        }
    }
    // initial fields
    let mut w0: Option<Field2dFn> = None;
    let mut theta: [Option<Field2dFn>; 2] = [None, None];
    for (name, expr) in &f.initial {
        let g = Field2dFn::parse(expr.get_ref())
            .map_err(|m| err(expr.span(), format!("initial.{name}: {m}")))?;
        match (name.as_str(), &model) {
            ("e_w", _) => w0 = Some(g),
            ("e_theta_x", PlateModel::Mindlin(_)) => theta[0] = Some(g),
            ("e_theta_y", PlateModel::Mindlin(_)) => theta[1] = Some(g),
            (other, _) => {
                return Err(err(
                    expr.span(),
                    format!(
                        "initial.{other}: unknown field; use e_w{}",
                        if matches!(model, PlateModel::Mindlin(_)) {
                            ", e_theta_x or e_theta_y"
                        } else {
                            " (the Kirchhoff plate's rotations follow from w)"
                        }
                    ),
                ))
            }
        }
    }
    let w_of = |x: [f64; 2]| w0.as_ref().map_or(0.0, |g| g.eval(x));
    let initial = match &model {
        PlateModel::Mindlin(m) => {
            let wc = m
                .space(PlateField::Velocity)
                .interpolate(&|x, v| v[0] = w_of(x));
            let tc = m.space(PlateField::RotationRate).interpolate(&|x, v| {
                for c in 0..2 {
                    v[c] = theta[c].as_ref().map_or(0.0, |g| g.eval(x));
                }
            });
            let zk = vec![0.0; m.space(PlateField::Moments).n_dofs()];
            let zg = vec![0.0; m.space(PlateField::ShearForces).n_dofs()];
            m.state_from_fields([&wc, &tc, &zk, &zg])
        }
        PlateModel::Kirchhoff(m) => m.interpolate_state(&w_of, None),
    }
    .map_err(|e| err(0..0, format!("initial state: {e}")))?;
    if initial.iter().any(|v| !v.is_finite()) {
        return Err(err(
            0..0,
            "initial fields are not finite everywhere on the plate".into(),
        ));
    }
    let mut probes = Vec::new();
    for pr in &f.output.probes {
        let pt = [pr.x, pr.y];
        model.velocity_space().locate(pt).map_err(|_| {
            err(
                0..0,
                format!(
                    "output.probes '{}': point ({}, {}) is outside the plate",
                    pr.name, pr.x, pr.y
                ),
            )
        })?;
        probes.push((pr.name.clone(), pt));
    }
    let name = f.model.name.clone();
    // extent of the mesh (the eigen shift's length scales)
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for v in model.velocity_space().mesh().vertices() {
        for c in 0..2 {
            lo[c] = lo[c].min(v[c]);
            hi[c] = hi[c].max(v[c]);
        }
    }
    let (lx, ly) = (hi[0] - lo[0], hi[1] - lo[1]);
    Ok((
        f,
        BuiltPlate {
            name,
            model,
            input,
            initial,
            probes,
            lx,
            ly,
        },
    ))
}

/// `phlex check` for a plate model.
pub fn check(path: &Path, text: &str) -> Result<()> {
    let (f, b) = load(&path.display().to_string(), text)?;
    let sys = b.system();
    println!("{}: ok", path.display());
    println!("  model   {} (plate, {})", b.name, f.plate.theory.get_ref());
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
    Ok(())
}

/// `phlex run` for a plate model: integrates with the midpoint rule and writes
/// `timeseries.csv`, `summary.json`, SVG plots and, with `output.vtk_every`, VTK files.
pub fn run(path: &Path, text: &str, dir: &Path, quiet: bool) -> Result<()> {
    let file = path.display().to_string();
    let (f, b) = load(&file, text)?;
    let sim = f.simulation.as_ref().ok_or_else(|| ModelError {
        file: file.clone(),
        line: 0,
        message: "missing section [simulation] (integrator = \"midpoint\", t_end, dt): needed by `phlex run`".into(),
    })?;
    if sim.integrator != IntegratorSpec::Midpoint {
        return Err(ModelError {
            file: file.clone(),
            line: 0,
            message: "simulation.integrator: plate models support \"midpoint\" only".into(),
        }
        .into());
    }
    let dt = *sim
        .dt
        .as_ref()
        .ok_or_else(|| ModelError {
            file: file.clone(),
            line: 0,
            message: "simulation.dt is required".into(),
        })?
        .get_ref();
    let t_end = *sim.t_end.get_ref();
    let sys = b.system();
    if !quiet {
        eprintln!(
            "phlex run: {} — {} states, ports: {}",
            b.name,
            sys.n_states(),
            if sys.ports.names().is_empty() {
                "none".into()
            } else {
                sys.ports.names().join(", ")
            }
        );
    }
    let mut cols = vec!["t".to_string(), "H".to_string()];
    cols.extend(b.probes.iter().map(|p| p.0.clone()));
    let mut series = TimeSeries::new(cols);
    let sw = b.model.velocity_space();
    let mut snapshots: Vec<(f64, Vec<f64>)> = Vec::new();
    let mut sample = 0usize;
    let mut probe_err = None;
    let mut progress = Progress::new(0.0, t_end, quiet);
    let start = Instant::now();
    let res = {
        let mut obs = |t: f64, e: &[f64]| {
            let mut row = vec![t, sys.hamiltonian(e)];
            match b.model.velocity(e) {
                Ok(w) => {
                    for (_, pt) in &b.probes {
                        match sw.evaluate(&w, *pt) {
                            Ok((v, _)) => row.push(v[0]),
                            Err(er) => {
                                probe_err.get_or_insert(er.to_string());
                                row.push(f64::NAN);
                            }
                        }
                    }
                }
                Err(er) => {
                    probe_err.get_or_insert(er.to_string());
                }
            }
            series.rows.push(row);
            if f.output.vtk_every > 0 && sample.is_multiple_of(f.output.vtk_every) {
                snapshots.push((t, e.to_vec()));
            }
            sample += 1;
            progress.update(t);
        };
        let params = MidpointParams {
            step: FixedStepParams {
                t0: 0.0,
                t_end,
                h: dt,
                output_every: f.output.every,
            },
            ..Default::default()
        };
        LinearMidpoint::new(sys, b.input.clone(), params)?.run(&b.initial, &mut obs)?
    };
    progress.finish();
    let wall = start.elapsed().as_secs_f64();
    if let Some(e) = probe_err {
        anyhow::bail!("probe evaluation failed: {e}");
    }
    let l = &res.ledger;
    let mut summary = RunSummary {
        model: b.name.clone(),
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
    if f.output.plots {
        let t = series.column(0);
        let h = series.column(1);
        files.push((
            "energy.svg".into(),
            svg_plot(
                &format!("{}: Hamiltonian", b.name),
                "t [s]",
                &[("H [J]", &t, &h)],
            )?
            .into_bytes(),
        ));
        if !b.probes.is_empty() {
            let cols: Vec<Vec<f64>> = (0..b.probes.len()).map(|k| series.column(2 + k)).collect();
            let s: Vec<(&str, &[f64], &[f64])> = b
                .probes
                .iter()
                .zip(&cols)
                .map(|((n, _), c)| (n.as_str(), t.as_slice(), c.as_slice()))
                .collect();
            files.push((
                "probes.svg".into(),
                svg_plot(
                    &format!("{}: vertical velocity probes [m/s]", b.name),
                    "t [s]",
                    &s,
                )?
                .into_bytes(),
            ));
        }
    }
    let mut entries = Vec::new();
    for (k, (t, e)) in snapshots.iter().enumerate() {
        let name = format!("fields/plate_{k:04}.vtu");
        files.push((name.clone(), vtu(&b.model, e)?.into_bytes()));
        entries.push((*t, name));
    }
    if !entries.is_empty() {
        files.push(("plate.pvd".into(), pvd(&entries).into_bytes()));
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
            dir.join("plate.pvd").display()
        );
    }
    println!("  results in {}", dir.display());
    Ok(())
}

/// The VTK file of one state: velocity (and Mindlin rotation rates) at the vertices,
/// moments (and Mindlin shear forces) at the cell centroids.
fn vtu(model: &PlateModel, e: &[f64]) -> Result<String> {
    let mesh = model.velocity_space().mesh();
    let mut v = Vtu::new(mesh);
    match model {
        PlateModel::Mindlin(model) => {
            for (field, name, loc) in [
                (
                    PlateField::Velocity,
                    "e_w (vertical velocity) [m/s]",
                    Location::Point,
                ),
                (
                    PlateField::RotationRate,
                    "e_theta (rotation rates) [rad/s]",
                    Location::Point,
                ),
                (
                    PlateField::Moments,
                    "M (Mxx, Mxy, Myy) [N m/m]",
                    Location::Cell,
                ),
                (PlateField::ShearForces, "q (qx, qy) [N/m]", Location::Cell),
            ] {
                let u = model.field_coefficients(e, field)?;
                v = v.space_field(name, loc, model.space(field), &u)?;
            }
        }
        PlateModel::Kirchhoff(model) => {
            let w = model.field_coefficients(e, KirchhoffField::Velocity)?;
            v = v.space_field(
                "e_w (vertical velocity) [m/s]",
                Location::Point,
                model.velocity_space(),
                &w,
            )?;
            let m = model.field_coefficients(e, KirchhoffField::Moments)?;
            let sk = model.moment_space();
            let c = 1.0 / 3.0;
            let vals: Vec<f64> = (0..mesh.n_cells())
                .flat_map(|t| sk.evaluate_in_cell(&m, t, [c, c]))
                .collect();
            v = v.field("M (Mxx, Mxy, Myy) [N m/m]", Location::Cell, 3, vals)?;
        }
    }
    Ok(v.to_xml())
}
