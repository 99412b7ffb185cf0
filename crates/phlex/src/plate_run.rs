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

use anyhow::Result;
use phlex_core::LinearPhSystem;
use phlex_fem::plate::{
    EdgeCondition, KirchhoffField, KirchhoffHhj, KirchhoffModel, KirchhoffParams, MindlinCgDg,
    MindlinModel, MindlinParams, PlateField,
};
use phlex_fem::space2d::Space2d;
use phlex_fem::vtk::{Location, Vtu};
use phlex_solve::eigen::EigenParams;
use phlex_solve::signal::InputFn;
use serde::Deserialize;
use toml::Spanned;

use crate::field_run::{
    midpoint_step, port_inputs, run_midpoint, Columns, FieldFn, FieldOutput, FieldRun, MeshKeys,
};
use crate::model::{line_of, ModelError, ModelMeta, ModesSpec, SignalSpec, SimulationSpec};

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
    /// What to record (probes: vertical velocity `e_w` at a point).
    #[serde(default)]
    pub output: FieldOutput,
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
    let mesh = MeshKeys {
        table: "plate",
        anchor: p.theory.span(),
        lx: &p.lx,
        ly: &p.ly,
        nx: &p.nx,
        ny: &p.ny,
        diagonal: &p.diagonal,
        mesh: &p.mesh,
    }
    .build(file, text)?;
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
    let input = port_inputs(
        file,
        text,
        sys,
        &f.input,
        "declare an edge as \"port\" in plate.edges",
    )?;
    // initial fields
    let mut w0: Option<FieldFn> = None;
    let mut theta: [Option<FieldFn>; 2] = [None, None];
    for (name, expr) in &f.initial {
        let g = FieldFn::parse(expr.get_ref(), 2)
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
    let w_of = |x: [f64; 2]| w0.as_ref().map_or(0.0, |g| g.eval2(x));
    let initial = match &model {
        PlateModel::Mindlin(m) => {
            let wc = m
                .space(PlateField::Velocity)
                .interpolate(&|x, v| v[0] = w_of(x));
            let tc = m.space(PlateField::RotationRate).interpolate(&|x, v| {
                for c in 0..2 {
                    v[c] = theta[c].as_ref().map_or(0.0, |g| g.eval2(x));
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
        if let Some(field) = pr.field.as_deref().filter(|f| *f != "e_w") {
            return Err(err(
                0..0,
                format!(
                    "output.probes '{}': field '{field}' is not recorded by plate models; plate probes record the vertical velocity e_w (omit `field`)",
                    pr.name
                ),
            ));
        }
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
    crate::field_run::print_structure(sys);
    Ok(())
}

/// `phlex run` for a plate model: integrates with the midpoint rule and writes
/// `timeseries.csv`, `summary.json`, SVG plots and, with `output.vtk_every`, VTK files.
pub fn run(path: &Path, text: &str, dir: &Path, quiet: bool) -> Result<()> {
    let file = path.display().to_string();
    let (f, b) = load(&file, text)?;
    let (dt, t_end) = midpoint_step(&file, f.simulation.as_ref(), "plate")?;
    let sw = b.model.velocity_space();
    let probe_values = |e: &[f64]| -> Result<Vec<f64>, String> {
        let w = b.model.velocity(e).map_err(|er| er.to_string())?;
        b.probes
            .iter()
            .map(|(_, pt)| {
                sw.evaluate(&w, *pt)
                    .map(|(v, _)| v[0])
                    .map_err(|er| er.to_string())
            })
            .collect()
    };
    let vtu_of = |e: &[f64]| vtu(&b.model, e);
    run_midpoint(
        FieldRun {
            name: &b.name,
            kind: "plate",
            system: b.system(),
            input: b.input.clone(),
            initial: &b.initial,
            columns: vec![Columns {
                names: b.probes.iter().map(|p| p.0.clone()).collect(),
                plot_title: Some("vertical velocity probes [m/s]".into()),
                values: &probe_values,
            }],
            vtu: &vtu_of,
        },
        dt,
        t_end,
        &f.output,
        dir,
        quiet,
    )
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
