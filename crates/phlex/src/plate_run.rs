//! Plate model files (`[plate]`; format documented in `docs/model-format-plate.md`):
//! parsing, building with [`phlex_fem::models::plate`], `phlex run` / `check` / `modes`.
//!
//! The file maps onto the Rust API: `[plate]` ↔ [`MindlinCgDg`] on a structured
//! rectangle mesh ([`Mesh2d::rectangle`]) with every edge (`left`, `right`, `bottom`,
//! `top`) clamped strongly, clamped by multipliers (`clamped_weak`, an index-2 pHDAE),
//! free, or a traction port (`port`: inputs `<edge>_qn`, `<edge>_Mnn`, `<edge>_Mns`, thesis
//! 004 §4.1.1 and summary §2.5); `[[input]]` drives a port with a traction uniform along
//! the edge; `[initial]` interpolates fields given as expressions in `x`, `y`;
//! `[simulation]` integrates with the implicit midpoint rule (exact discrete power balance
//! $H_1 - H_0 = h\,\bar y^\top u$); `[output]` records probes and writes VTK snapshots of the
//! fields ([`phlex_fem::io::vtk`]) for ParaView.
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use anyhow::Result;
use phlex_core::LinearPhSystem;
use phlex_fem::element::triangle::bell::C1Family;
use phlex_fem::error::Fem2dError;
use phlex_fem::io::vtk::{Location, Vtu};
use phlex_fem::mesh::Mesh2d;
use phlex_fem::models::plate::mindlin_bjt::{BjtField, MindlinBjt, MindlinBjtModel};
use phlex_fem::models::plate::thermoelastic_kirchhoff::{
    PlateThermalParams, ThermoKirchhoffModel, ThermoelasticKirchhoff,
};
use phlex_fem::models::plate::{
    BellImposition, EdgeCondition, KirchhoffBell, KirchhoffBellModel, KirchhoffField, KirchhoffHhj,
    KirchhoffModel, KirchhoffParams, Laminate, LaminatedField, LaminatedKirchhoff,
    LaminatedKirchhoffModel, LaminatedMindlin, LaminatedMindlinModel, MembraneCondition,
    MindlinAfw, MindlinAfwModel, MindlinCgDg, MindlinModel, MindlinParams, PlateField, Ply,
};
use phlex_fem::space::Space2d;
use phlex_solve::eigen::EigenParams;
use phlex_solve::signal::InputFn;
use serde::Deserialize;
use toml::Spanned;

use crate::field_run::{
    feedback_phase, midpoint_step, port_inputs, run_midpoint_with_feedback, Columns, DampingSpec,
    FieldFn, FieldOutput, FieldRun, MeshKeys,
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
    /// Boundary damping injection $u = -Ky$ on traction ports (thesis 004 §8.1.1).
    #[serde(default)]
    pub damping: Vec<DampingSpec>,
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
    /// Plate theory: `"mindlin"` (CGDG, thesis eq. (7.20)), `"kirchhoff"` (HHJ, Bell or
    /// Argyris), `"laminated_kirchhoff"`, `"laminated_mindlin"` (ply stack `[[plate.plies]]`).
    pub theory: Spanned<String>,
    /// Kirchhoff discretisation: `"hhj"` (default), `"bell"` or `"argyris"` (H²-conforming
    /// deflection rate × DG3 moments, thesis "BellDG3").
    #[serde(default)]
    pub element: Option<Spanned<String>>,
    /// Bell/Argyris essential conditions: `"exact"` (default, whole edge) or
    /// `"thesis_vertex"` (vertex values only, as the thesis's scripts; tables B.19, B.23).
    #[serde(default)]
    pub bc_imposition: Option<Spanned<String>>,
    /// Laminated Kirchhoff: include the rotary inertias I1, I2 (default false, as the thesis).
    #[serde(default)]
    pub rotary_inertia: Option<Spanned<bool>>,
    /// Laminated plates: membrane condition per edge overriding the default of the bending
    /// condition: `fixed`, `free`, `tangential_fixed` (SS-1), `normal_fixed` (SS-2).
    #[serde(default)]
    pub membrane: BTreeMap<String, Spanned<String>>,
    /// Laminated plates: the plies, bottom first.
    #[serde(default)]
    pub plies: Vec<PlySpec>,
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
    /// Lower-left corner of the structured rectangle [m] (default 0).
    #[serde(default)]
    pub x0: Option<Spanned<f64>>,
    /// Lower-left corner of the structured rectangle [m] (default 0).
    #[serde(default)]
    pub y0: Option<Spanned<f64>>,
    /// Polynomial degree k of the CG velocities (1..3).
    #[serde(default = "one")]
    pub degree: Spanned<usize>,
    /// Young's modulus [Pa] (isotropic plates).
    #[serde(rename = "E", default)]
    pub youngs_modulus: Option<Spanned<f64>>,
    /// Poisson ratio (isotropic plates).
    #[serde(default)]
    pub nu: Option<Spanned<f64>>,
    /// Density [kg/m³] (isotropic plates).
    #[serde(default)]
    pub rho: Option<Spanned<f64>>,
    /// Thickness [m] (isotropic plates).
    #[serde(default)]
    pub h: Option<Spanned<f64>>,
    /// Shear correction factor (default 5/6).
    #[serde(default)]
    pub k_sh: Option<Spanned<f64>>,
    /// Edge conditions by edge name (`left`, `right`, `bottom`, `top`): `clamped`,
    /// `clamped_weak`, `free` (default) or `port`.
    #[serde(default)]
    pub edges: BTreeMap<String, Spanned<String>>,
    /// Distributed loads `[[plate.load]]` (Mindlin CGDG and Kirchhoff HHJ): each is an input
    /// port driven by `[[input]] port = "<name>"`.
    #[serde(default)]
    pub load: Vec<PlateLoadSpec>,
    /// Thermoelastic coupling (Kirchhoff HHJ only): the Chadwick plate of thesis 004 §5.2.2.
    #[serde(default)]
    pub thermal: Option<PlateThermalSpec>,
}

/// `[plate.thermal]`: heat conduction in the plate volume coupled to the bending
/// ([`ThermoelasticKirchhoff`], thesis 004 eqs. (5.35)–(5.41)).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateThermalSpec {
    /// Thermal expansion coefficient $\beta$ \[1/K\].
    pub expansion: f64,
    /// Volumetric heat capacity $\rho c$ \[J/(m³ K)\].
    pub heat_capacity: f64,
    /// Conductivity $k$ \[W/(m K)\].
    pub conductivity: f64,
    /// Reference temperature $T_0$ \[K\].
    #[serde(rename = "T0")]
    pub t0: f64,
    /// Temperature degree in the plane (1..=3, default 1).
    #[serde(default)]
    pub plane_degree: Option<usize>,
    /// Temperature elements through the thickness (default 8).
    #[serde(default)]
    pub thickness_elements: Option<usize>,
    /// Temperature degree through the thickness (1..=3, default 2).
    #[serde(default)]
    pub thickness_degree: Option<usize>,
}

/// `[[plate.load]]`: a distributed load port $\int_\Omega f\,e_w\,u(t)$ with a spatial
/// profile (force per area $f(x, y)$ \[N/m²\], Mindlin also a distributed torque
/// $(m_x, m_y)(x, y)$ \[N\]), scaled by the port's input signal.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateLoadSpec {
    /// Port name (drive it with `[[input]] port = "<name>"`).
    pub name: Spanned<String>,
    /// Force per area as an expression in `x`, `y` (default 0).
    #[serde(default)]
    pub force: Option<Spanned<String>>,
    /// Distributed torque `["m_x(x, y)", "m_y(x, y)"]` (Mindlin CGDG only).
    #[serde(default)]
    pub torque: Option<Spanned<Vec<String>>>,
}

/// The load profile $(f, (m_x, m_y))(x, y)$ of a parsed Mindlin `[[plate.load]]`.
fn mindlin_load_profile(
    force: &Option<FieldFn>,
    torque: &Option<[FieldFn; 2]>,
) -> phlex_fem::models::plate::mindlin::MindlinLoadProfile {
    let (force, torque) = (force.clone(), torque.clone());
    Arc::new(move |x: [f64; 2]| {
        (
            force.as_ref().map_or(0.0, |f| f.eval2(x)),
            torque
                .as_ref()
                .map_or([0.0; 2], |t| [t[0].eval2(x), t[1].eval2(x)]),
        )
    })
}

/// A parsed `[[plate.load]]`: name, force, optional torque, span of the name.
type ParsedLoad = (
    String,
    Option<FieldFn>,
    Option<[FieldFn; 2]>,
    std::ops::Range<usize>,
);

/// `[[plate.plies]]`: one orthotropic ply of a laminate.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlySpec {
    /// Young's modulus along the fibres [Pa].
    pub E1: f64,
    /// Young's modulus across the fibres [Pa].
    pub E2: f64,
    /// Major Poisson ratio.
    pub nu12: f64,
    /// In-plane shear modulus [Pa].
    pub G12: f64,
    /// Transverse shear modulus [Pa] (Mindlin).
    pub G13: f64,
    /// Transverse shear modulus [Pa] (Mindlin).
    pub G23: f64,
    /// Density [kg/m³].
    pub rho: f64,
    /// Ply thickness [m].
    pub thickness: f64,
    /// Fibre angle from x towards y [degrees].
    #[serde(default)]
    pub angle: f64,
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

/// The assembled plate of any theory and discretisation.
pub enum PlateModel {
    /// Mindlin–Reissner, CGDG.
    Mindlin(MindlinModel),
    /// Mindlin–Reissner, AFW (BDM moments, RT shear, weak symmetry), integrated in the
    /// equilibrated variables $\tilde e = D^{-1}e$ of
    /// [`MindlinAfwModel::equilibrated_system`] (the saddle-point midpoint matrix of the
    /// unscaled system fails the LU's accuracy check on fine meshes).
    MindlinAfw {
        /// The model (original variables).
        model: MindlinAfwModel,
        /// The equilibrated system that is integrated and analysed.
        scaled: LinearPhSystem,
        /// $\operatorname{diag}D$, $e = D\tilde e$.
        d: Vec<f64>,
    },
    /// Kirchhoff–Love, HHJ.
    Kirchhoff(KirchhoffModel),
    /// Kirchhoff–Love, Bell or Argyris × DG3.
    KirchhoffC1(KirchhoffBellModel),
    /// Laminated Kirchhoff (membrane + HHJ bending).
    LaminatedKirchhoff(LaminatedKirchhoffModel),
    /// Laminated Mindlin (membrane + CGDG).
    LaminatedMindlin(LaminatedMindlinModel),
    /// Thermoelastic Kirchhoff plate (HHJ ⊕ heat in the plate volume).
    ThermoKirchhoff(ThermoKirchhoffModel),
    /// Mindlin–Reissner, Bécache–Joly–Tsogka on a rectangular grid (thesis 004 §7.2.1.1),
    /// with the triangle mesh of the same rectangle for the extent.
    MindlinBjt {
        /// The model.
        model: MindlinBjtModel,
        /// The triangulated rectangle (extent only; the fields live on the quad grid).
        mesh: Mesh2d,
    },
}

impl PlateModel {
    /// Gain $K = k\,M_\Gamma^{-1}$ of boundary damping injection on a traction port
    /// ([`crate::field_run::DampingSpec`]), for the models that expose the port's trace mass.
    pub fn damping_gain(
        &self,
        port: &str,
        k: f64,
    ) -> Result<phlex_core::sparse::SparseMat, String> {
        match self {
            PlateModel::Kirchhoff(m) => m.boundary_damping_gain(port, k).map_err(|e| e.to_string()),
            PlateModel::KirchhoffC1(m) => {
                let M = m.port_trace_mass(port).map_err(|e| e.to_string())?;
                Ok(crate::field_run::inverse_trace_gain(M, k))
            }
            _ => Err("boundary damping injection is available on Kirchhoff plates (HHJ, Bell, Argyris) with port edges; this plate's ports have no trace mass".into()),
        }
    }

    /// The pH system.
    pub fn system(&self) -> &LinearPhSystem {
        match self {
            PlateModel::Mindlin(m) => m.system(),
            PlateModel::MindlinAfw { scaled, .. } => scaled,
            PlateModel::Kirchhoff(m) => m.system(),
            PlateModel::KirchhoffC1(m) => m.system(),
            PlateModel::LaminatedKirchhoff(m) => m.system(),
            PlateModel::LaminatedMindlin(m) => m.system(),
            PlateModel::MindlinBjt { model, .. } => model.system(),
            PlateModel::ThermoKirchhoff(m) => m.system(),
        }
    }
    /// The triangle mesh (BJT: the triangulated rectangle of its grid).
    pub fn mesh(&self) -> &Mesh2d {
        match self {
            PlateModel::KirchhoffC1(m) => m.velocity_space().mesh(),
            PlateModel::MindlinAfw { model, .. } => model.dg_space().mesh(),
            PlateModel::MindlinBjt { mesh, .. } => mesh,
            _ => self
                .lagrange_velocity_space()
                .map(|s| s.mesh())
                .expect("Lagrange velocity"),
        }
    }
    /// The $CG_k$ space of the vertical velocity (all but the Bell/Argyris plates).
    fn lagrange_velocity_space(&self) -> Option<&Space2d> {
        match self {
            PlateModel::Mindlin(m) => Some(m.space(PlateField::Velocity)),
            PlateModel::Kirchhoff(m) => Some(m.velocity_space()),
            PlateModel::ThermoKirchhoff(m) => Some(m.plate().velocity_space()),
            PlateModel::KirchhoffC1(_)
            | PlateModel::MindlinAfw { .. }
            | PlateModel::MindlinBjt { .. } => None,
            PlateModel::LaminatedKirchhoff(m) => Some(m.velocity_space()),
            PlateModel::LaminatedMindlin(m) => Some(m.velocity_space()),
        }
    }
    /// Vertical velocity of state `e` at the points `pts`.
    pub fn velocity_at(&self, e: &[f64], pts: &[[f64; 2]]) -> Result<Vec<f64>, Fem2dError> {
        if let PlateModel::KirchhoffC1(m) = self {
            let w = m.velocity_coefficients(e)?;
            return pts
                .iter()
                .map(|p| m.velocity_space().evaluate(&w, *p).map(|v| v[0]))
                .collect();
        }
        if let PlateModel::MindlinBjt { model, .. } = self {
            return model.velocity_at(e, pts);
        }
        if let PlateModel::MindlinAfw { model, d, .. } = self {
            let w = afw_block(model, d, e, 0);
            return pts
                .iter()
                .map(|p| model.dg_space().evaluate(&w, *p).map(|(v, _)| v[0]))
                .collect();
        }
        let w = match self {
            PlateModel::Mindlin(m) => m.field_coefficients(e, PlateField::Velocity)?,
            PlateModel::Kirchhoff(m) => m.field_coefficients(e, KirchhoffField::Velocity)?,
            PlateModel::ThermoKirchhoff(m) => m
                .plate()
                .field_coefficients(&thermo_plate_state(m, e), KirchhoffField::Velocity)?,
            PlateModel::LaminatedKirchhoff(m) => {
                m.field_coefficients(e, LaminatedField::Velocity)?
            }
            PlateModel::LaminatedMindlin(m) => m.field_coefficients(e, LaminatedField::Velocity)?,
            PlateModel::KirchhoffC1(_)
            | PlateModel::MindlinAfw { .. }
            | PlateModel::MindlinBjt { .. } => {
                unreachable!("handled above")
            }
        };
        let sw = self.lagrange_velocity_space().expect("Lagrange velocity");
        pts.iter()
            .map(|p| sw.evaluate(&w, *p).map(|(v, _)| v[0]))
            .collect()
    }
    /// Bending stiffness $D$ and surface density $\rho h$ (isotropic estimate for the shift).
    fn stiffness_and_density(&self) -> (f64, f64) {
        match self {
            PlateModel::Mindlin(m) => {
                let p = m.params();
                (p.bending_stiffness(), p.rho * p.h)
            }
            PlateModel::MindlinAfw { model, .. } => {
                let p = model.params();
                (p.bending_stiffness(), p.rho * p.h)
            }
            PlateModel::Kirchhoff(m) => {
                let v = m.params().stiffness.voigt();
                (v[0][0].max(v[1][1]), m.params().surface_density())
            }
            PlateModel::KirchhoffC1(m) => {
                let v = m.params().stiffness.voigt();
                (v[0][0].max(v[1][1]), m.params().surface_density())
            }
            PlateModel::ThermoKirchhoff(m) => {
                let v = m.plate().params().stiffness.voigt();
                (v[0][0].max(v[1][1]), m.plate().params().surface_density())
            }
            PlateModel::LaminatedKirchhoff(m) => laminate_scale(m.laminate()),
            PlateModel::LaminatedMindlin(m) => laminate_scale(m.laminate()),
            PlateModel::MindlinBjt { model, .. } => model.stiffness_and_density(),
        }
    }
}

/// Block `b` of the AFW state in original variables: `b = 0` the $DG_{k-1}$ coefficients of
/// $e_w$, `b = 1, 2` those of $e_{\theta,x}$, $e_{\theta,y}$ (the first three blocks of
/// $DG_{k-1}$ size are never reduced: clamping is natural in the AFW form).
fn afw_block(model: &MindlinAfwModel, d: &[f64], e: &[f64], b: usize) -> Vec<f64> {
    let nd = model.dg_space().n_dofs();
    (b * nd..(b + 1) * nd).map(|i| d[i] * e[i]).collect()
}

/// The plate-sized state holding the velocity block `e_w` of a thermoelastic plate state
/// (moments zero): what the plate's velocity evaluation needs.
fn thermo_plate_state(m: &ThermoKirchhoffModel, e: &[f64]) -> Vec<f64> {
    let plate = m.plate().system();
    let mut ep = vec![0.0; plate.n_states()];
    if let (Some(to), Some(from)) = (plate.block_range("e_w"), m.system().block_range("e_w")) {
        ep[to].copy_from_slice(&e[from]);
    }
    ep
}

/// $\max(D_{11}, D_{22})$ and $I_0$ of a laminate.
fn laminate_scale(l: &Laminate) -> (f64, f64) {
    let d = l.d();
    (d[0][0].max(d[1][1]), l.inertia()[0])
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
    let theories = [
        "mindlin",
        "kirchhoff",
        "laminated_kirchhoff",
        "laminated_mindlin",
    ];
    if !theories.contains(&theory.as_str()) {
        return Err(err(
            p.theory.span(),
            format!("plate.theory = '{theory}': use \"mindlin\" (CGDG), \"kirchhoff\" (HHJ, Bell, Argyris), \"laminated_kirchhoff\" or \"laminated_mindlin\""),
        ));
    }
    let laminated = theory.starts_with("laminated");
    if p.thermal.is_some()
        && !(theory == "kirchhoff"
            && matches!(
                p.element.as_ref().map(|e| e.get_ref().as_str()),
                None | Some("hhj")
            ))
    {
        return Err(err(
            p.theory.span(),
            "plate.thermal: the thermoelastic plate is the Kirchhoff HHJ plate (theory = \"kirchhoff\", element = \"hhj\"); remove [plate.thermal] or change the theory".into(),
        ));
    }
    // keys that only some theories accept
    let only = |present: Option<std::ops::Range<usize>>, key: &str, ok: bool, who: &str| match (
        present, ok,
    ) {
        (Some(span), false) => Err(err(
            span,
            format!("plate.{key} is not used by the {theory} plate ({who} only); remove it"),
        )),
        _ => Ok(()),
    };
    let element = p.element.as_ref().map(|e| (e.get_ref().as_str(), e.span()));
    only(
        p.element.as_ref().map(|e| e.span()),
        "element",
        theory == "kirchhoff" || theory == "mindlin",
        "kirchhoff and mindlin",
    )?;
    only(
        p.bc_imposition.as_ref().map(|e| e.span()),
        "bc_imposition",
        theory == "kirchhoff" && matches!(element, Some(("bell", _)) | Some(("argyris", _))),
        "element = \"bell\" or \"argyris\"",
    )?;
    only(
        p.rotary_inertia.as_ref().map(|e| e.span()),
        "rotary_inertia",
        theory == "laminated_kirchhoff",
        "laminated_kirchhoff",
    )?;
    only(
        p.k_sh.as_ref().map(|e| e.span()),
        "k_sh",
        theory.ends_with("mindlin"),
        "Mindlin plates; the Kirchhoff plate has no shear deformation",
    )?;
    if !laminated {
        if let Some((edge, m)) = p.membrane.iter().next() {
            return Err(err(
                m.span(),
                format!("plate.membrane.{edge}: membrane conditions belong to laminated plates"),
            ));
        }
        if !p.plies.is_empty() {
            return Err(err(
                p.theory.span(),
                "plate.plies: plies belong to laminated plates (theory = \"laminated_kirchhoff\" or \"laminated_mindlin\")".into(),
            ));
        }
    }
    let iso = |v: &Option<Spanned<f64>>, key: &str| -> Result<f64, ModelError> {
        if laminated {
            return match v {
                Some(v) => Err(err(
                    v.span(),
                    format!("plate.{key}: laminated plates take their material from [[plate.plies]]; remove it"),
                )),
                None => Ok(0.0),
            };
        }
        v.as_ref().map(|v| *v.get_ref()).ok_or_else(|| {
            err(
                p.theory.span(),
                format!("plate.{key} is missing (isotropic plates need E, nu, rho, h)"),
            )
        })
    };
    let (e_mod, nu, rho, h) = (
        iso(&p.youngs_modulus, "E")?,
        iso(&p.nu, "nu")?,
        iso(&p.rho, "rho")?,
        iso(&p.h, "h")?,
    );
    let mesh = MeshKeys {
        table: "plate",
        anchor: p.theory.span(),
        lx: &p.lx,
        ly: &p.ly,
        nx: &p.nx,
        ny: &p.ny,
        diagonal: &p.diagonal,
        mesh: &p.mesh,
        x0: p.x0.as_ref(),
        y0: p.y0.as_ref(),
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
    let material_span = p
        .youngs_modulus
        .as_ref()
        .map_or(p.theory.span(), |v| v.span());
    let mut loads: Vec<ParsedLoad> = Vec::new();
    for l in &p.load {
        let name = l.name.get_ref().clone();
        if name.is_empty() || loads.iter().any(|x| x.0 == name) {
            return Err(err(
                l.name.span(),
                format!("plate.load: the name '{name}' is empty or used twice; give every load its own port name"),
            ));
        }
        let force = match &l.force {
            None => None,
            Some(f) => Some(
                FieldFn::parse(f.get_ref(), 2)
                    .map_err(|m| err(f.span(), format!("plate.load '{name}' force: {m}")))?,
            ),
        };
        let torque = match &l.torque {
            None => None,
            Some(t) => {
                if t.get_ref().len() != 2 {
                    return Err(err(
                        t.span(),
                        format!(
                            "plate.load '{name}' torque: give two expressions [\"m_x\", \"m_y\"]"
                        ),
                    ));
                }
                let parse = |k: usize| {
                    FieldFn::parse(&t.get_ref()[k], 2)
                        .map_err(|m| err(t.span(), format!("plate.load '{name}' torque: {m}")))
                };
                Some([parse(0)?, parse(1)?])
            }
        };
        if force.is_none() && torque.is_none() {
            return Err(err(
                l.name.span(),
                format!(
                    "plate.load '{name}': give force = \"f(x, y)\" (and/or torque for Mindlin)"
                ),
            ));
        }
        loads.push((name, force, torque, l.name.span()));
    }
    let no_loads = |who: &str| -> Result<(), ModelError> {
        match loads.first() {
            Some(l) => Err(err(
                l.3.clone(),
                format!("plate.load '{}': distributed loads are available for theory = \"mindlin\" (CGDG) and \"kirchhoff\" (HHJ) only, not {who}; remove [[plate.load]]", l.0),
            )),
            None => Ok(()),
        }
    };
    let model = match theory.as_str() {
        "mindlin" => 'mindlin: {
            let params = MindlinParams {
                E: e_mod,
                nu,
                rho,
                h,
                k_sh: p.k_sh.as_ref().map_or(5.0 / 6.0, |v| *v.get_ref()),
            };
            params
                .validate()
                .map_err(|e| err(material_span.clone(), format!("plate: {e}")))?;
            match element {
                None | Some(("cgdg", _)) => {}
                Some(("afw", _)) => {
                    no_loads("the AFW Mindlin element")?;
                    let mut plate = MindlinAfw::new(params, &mesh, *p.degree.get_ref())
                        .map_err(|e| err(p.degree.span(), format!("plate.degree: {e}")))?;
                    for (edge, cond, span) in conditions {
                        plate = match cond {
                            "clamped" => plate,
                            "free" => plate.free(edge),
                            "simply_supported" => plate.simply_supported(edge),
                            "port" => plate.port(edge),
                            "traction_port" => plate.traction_port(edge),
                            other => {
                                return Err(bad_condition(
                                    edge,
                                    other,
                                    span,
                                    "\"clamped\" (natural, the default of every edge), \"free\", \"simply_supported\" (hard), \"port\" (velocity inputs <edge>_wt, <edge>_omega) or \"traction_port\" (traction inputs <edge>_qn, <edge>_Mn)",
                                ))
                            }
                        };
                    }
                    let model = plate
                        .build()
                        .map_err(|e| err(p.theory.span(), format!("plate: {e}")))?;
                    let (scaled, d) = model
                        .equilibrated_system()
                        .map_err(|e| err(p.theory.span(), format!("plate: {e}")))?;
                    break 'mindlin PlateModel::MindlinAfw { model, scaled, d };
                }
                Some(("bjt", span)) => {
                    if let Some(m) = &p.mesh {
                        return Err(err(
                            m.span(),
                            "plate.mesh: the BJT element lives on a rectangular grid; give lx, ly, nx, ny instead of a Gmsh mesh".into(),
                        ));
                    }
                    for (edge, cond, span) in &conditions {
                        if *cond != "clamped" {
                            return Err(bad_condition(
                                edge,
                                cond,
                                span.clone(),
                                "only \"clamped\" with element = \"bjt\" (clamping is natural in its velocity-control form, thesis (7.10); use \"cgdg\" or \"afw\" for other edges)",
                            ));
                        }
                    }
                    let grid = |v: &Option<Spanned<f64>>| v.as_ref().map_or(0.0, |v| *v.get_ref());
                    let (x0, y0) = (grid(&p.x0), grid(&p.y0));
                    let (lx, ly) = (grid(&p.lx), grid(&p.ly));
                    let n = |v: &Option<Spanned<usize>>| v.as_ref().map_or(0, |v| *v.get_ref());
                    let (nx, ny) = (n(&p.nx), n(&p.ny));
                    let xs = (0..=nx).map(|i| x0 + lx * i as f64 / nx as f64).collect();
                    let ys = (0..=ny).map(|j| y0 + ly * j as f64 / ny as f64).collect();
                    let mut plate = MindlinBjt::new(params, xs, ys, *p.degree.get_ref())
                        .map_err(|e| err(span.clone(), format!("plate (BJT): {e}")))?;
                    for (name, force, torque, _) in &loads {
                        plate = plate.load(name, mindlin_load_profile(force, torque));
                    }
                    let model = plate
                        .build()
                        .map_err(|e| err(p.theory.span(), format!("plate (BJT): {e}")))?;
                    break 'mindlin PlateModel::MindlinBjt { model, mesh: mesh.clone() };
                }
                Some((other, span)) => {
                    return Err(err(
                        span,
                        format!("plate.element = '{other}': the Mindlin plate offers \"cgdg\" (default), \"afw\" or \"bjt\" (rectangular grids)"),
                    ))
                }
            }
            let mut plate = MindlinCgDg::new(params, &mesh, *p.degree.get_ref())
                .map_err(|e| err(p.degree.span(), format!("plate.degree: {e}")))?;
            for (edge, cond, span) in conditions {
                plate = match cond {
                    "clamped" => plate.clamped(edge),
                    "clamped_weak" => plate.clamped_weak(edge),
                    "simply_supported" => plate.simply_supported(edge),
                    "port" => plate.port(edge),
                    "free" => plate,
                    other => {
                        return Err(bad_condition(
                            edge,
                            other,
                            span,
                            "\"clamped\", \"clamped_weak\", \"simply_supported\" (hard), \"free\" or \"port\"",
                        ))
                    }
                };
            }
            for (name, force, torque, _) in &loads {
                plate = plate.load(name, mindlin_load_profile(force, torque));
            }
            PlateModel::Mindlin(
                plate
                    .build()
                    .map_err(|e| err(p.theory.span(), format!("plate: {e}")))?,
            )
        }
        "kirchhoff" => {
            let params = KirchhoffParams::isotropic(e_mod, nu, rho, h)
                .map_err(|e| err(material_span.clone(), format!("plate: {e}")))?;
            let family = match element {
                None | Some(("hhj", _)) => None,
                Some(("bell", _)) => Some(C1Family::Bell),
                Some(("argyris", _)) => Some(C1Family::Argyris),
                Some((other, span)) => {
                    return Err(err(
                        span,
                        format!("plate.element = '{other}': use \"hhj\", \"bell\" or \"argyris\""),
                    ))
                }
            };
            let allowed = "\"clamped\", \"simply_supported\", \"free\" or \"port\"";
            match family {
                None => {
                    let mut plate = KirchhoffHhj::new(params, &mesh, *p.degree.get_ref())
                        .map_err(|e| err(p.degree.span(), format!("plate.degree: {e}")))?;
                    for (edge, cond, span) in conditions {
                        plate = match cond {
                            "clamped" => plate.clamped(edge),
                            "simply_supported" => plate.simply_supported(edge),
                            "port" => plate.port(edge, EdgeCondition::Free),
                            "free" => plate.free(edge),
                            other => return Err(bad_condition(edge, other, span, allowed)),
                        };
                    }
                    for (name, force, torque, span) in &loads {
                        if torque.is_some() {
                            return Err(err(
                                span.clone(),
                                format!("plate.load '{name}': torque is a Mindlin load; Kirchhoff plates take force only"),
                            ));
                        }
                        let f = force.clone();
                        plate = plate.load(
                            name,
                            Arc::new(move |x: [f64; 2]| f.as_ref().map_or(0.0, |f| f.eval2(x))),
                        );
                    }
                    match &p.thermal {
                        None => PlateModel::Kirchhoff(
                            plate
                                .build()
                                .map_err(|e| err(p.theory.span(), format!("plate: {e}")))?,
                        ),
                        Some(t) => {
                            let tp = PlateThermalParams {
                                young: e_mod,
                                nu,
                                expansion: t.expansion,
                                heat_capacity: t.heat_capacity,
                                conductivity: t.conductivity,
                                t0: t.t0,
                            };
                            if !(t.expansion.is_finite() && t.expansion >= 0.0) {
                                return Err(err(
                                    p.theory.span(),
                                    format!(
                                        "plate.thermal.expansion = {}: must be finite and >= 0",
                                        t.expansion
                                    ),
                                ));
                            }
                            PlateModel::ThermoKirchhoff(
                                ThermoelasticKirchhoff::new(plate, tp)
                                    .thermal_mesh(
                                        t.plane_degree.unwrap_or(1),
                                        t.thickness_elements.unwrap_or(8),
                                        t.thickness_degree.unwrap_or(2),
                                    )
                                    .build()
                                    .map_err(|e| {
                                        err(p.theory.span(), format!("plate.thermal: {e}"))
                                    })?,
                            )
                        }
                    }
                }
                Some(fam) => {
                    if p.degree.span().end > 0 {
                        return Err(err(
                            p.degree.span(),
                            format!(
                                "plate.degree: the {} element has a fixed degree; remove the key",
                                fam.name()
                            ),
                        ));
                    }
                    let imposition = match p
                        .bc_imposition
                        .as_ref()
                        .map(|e| (e.get_ref().as_str(), e.span()))
                    {
                        None | Some(("exact", _)) => BellImposition::Exact,
                        Some(("thesis_vertex", _)) => BellImposition::ThesisVertex,
                        Some((other, span)) => {
                            return Err(err(
                                span,
                                format!("plate.bc_imposition = '{other}': use \"exact\" or \"thesis_vertex\""),
                            ))
                        }
                    };
                    no_loads("the Bell/Argyris elements")?;
                    let mut plate = KirchhoffBell::new(params, &mesh, fam)
                        .map_err(|e| err(p.theory.span(), format!("plate: {e}")))?
                        .imposition(imposition);
                    for (edge, cond, span) in conditions {
                        plate = match cond {
                            "clamped" => plate.clamped(edge),
                            "simply_supported" => plate.simply_supported(edge),
                            "port" => plate.port(edge, EdgeCondition::Free),
                            "clamped_port" => plate.port(edge, EdgeCondition::Clamped),
                            "supported_port" => plate.port(edge, EdgeCondition::SimplySupported),
                            "free" => plate.free(edge),
                            other => return Err(bad_condition(edge, other, span, "\"clamped\", \"simply_supported\", \"free\", \"port\" (free edge: inputs <edge>_qn, <edge>_Mnn), \"clamped_port\" (prescribed w_t, ∂_n w_t: inputs <edge>_wt, <edge>_dnwt, outputs the edge reactions) or \"supported_port\" (inputs <edge>_wt, <edge>_Mnn)")),
                        };
                    }
                    PlateModel::KirchhoffC1(
                        plate
                            .build()
                            .map_err(|e| err(p.theory.span(), format!("plate: {e}")))?,
                    )
                }
            }
        }
        _ => {
            no_loads("laminated plates")?;
            if p.plies.is_empty() {
                return Err(err(
                    p.theory.span(),
                    "plate.plies: a laminated plate needs at least one [[plate.plies]] table (bottom ply first)".into(),
                ));
            }
            let plies: Vec<Ply> = p
                .plies
                .iter()
                .map(|q| Ply {
                    E1: q.E1,
                    E2: q.E2,
                    nu12: q.nu12,
                    G12: q.G12,
                    G13: q.G13,
                    G23: q.G23,
                    rho: q.rho,
                    thickness: q.thickness,
                    angle_deg: q.angle,
                })
                .collect();
            let lam = Laminate::new(plies, p.k_sh.as_ref().map_or(5.0 / 6.0, |v| *v.get_ref()))
                .map_err(|e| err(p.theory.span(), format!("plate.plies: {e}")))?;
            let mut membrane = BTreeMap::new();
            for (edge, m) in &p.membrane {
                if !names.contains(edge) {
                    return Err(err(
                        m.span(),
                        format!(
                            "plate.membrane: unknown edge '{edge}' (edges: {})",
                            names.join(", ")
                        ),
                    ));
                }
                let c = match m.get_ref().as_str() {
                    "fixed" => MembraneCondition::Fixed,
                    "free" => MembraneCondition::Free,
                    "tangential_fixed" => MembraneCondition::TangentialFixed,
                    "normal_fixed" => MembraneCondition::NormalFixed,
                    other => {
                        return Err(err(
                            m.span(),
                            format!("plate.membrane.{edge} = '{other}': use \"fixed\", \"free\", \"tangential_fixed\" or \"normal_fixed\""),
                        ))
                    }
                };
                membrane.insert(edge.as_str(), c);
            }
            let bending = |cond: &str| match cond {
                "clamped" => Some(EdgeCondition::Clamped),
                "simply_supported" => Some(EdgeCondition::SimplySupported),
                "free" => Some(EdgeCondition::Free),
                _ => None,
            };
            // default membrane condition of each bending condition (the builders' defaults)
            let membrane_default = |cond: &str| match cond {
                "clamped" => MembraneCondition::Fixed,
                "simply_supported" => MembraneCondition::TangentialFixed,
                _ => MembraneCondition::Free,
            };
            let allowed = "\"clamped\", \"simply_supported\", \"free\" or \"port\" (free edge with traction inputs <edge>_Nnn, <edge>_Nns, <edge>_qn (and Mindlin <edge>_Mnn, <edge>_Mns))";
            let mut edges = Vec::new();
            let mut port_edges = Vec::new();
            for (edge, cond, span) in &conditions {
                if *cond == "port" {
                    if let Some(m) = p.membrane.get(*edge) {
                        return Err(err(
                            m.span(),
                            format!("plate.membrane.{edge}: a port edge is free in membrane and bending (its traction inputs are ports); remove the membrane condition"),
                        ));
                    }
                    port_edges.push(*edge);
                    continue;
                }
                let b = bending(cond)
                    .ok_or_else(|| bad_condition(edge, cond, span.clone(), allowed))?;
                let m = membrane
                    .get(edge)
                    .copied()
                    .unwrap_or_else(|| membrane_default(cond));
                edges.push((*edge, b, m));
            }
            for edge in membrane.keys() {
                if !conditions.iter().any(|(e, _, _)| e == edge) {
                    edges.push((edge, EdgeCondition::Free, membrane[edge]));
                }
            }
            if theory == "laminated_kirchhoff" {
                let mut plate = LaminatedKirchhoff::new(lam, &mesh, *p.degree.get_ref())
                    .map_err(|e| err(p.degree.span(), format!("plate.degree: {e}")))?
                    .rotary_inertia(p.rotary_inertia.as_ref().is_some_and(|v| *v.get_ref()));
                for (edge, b, m) in edges {
                    plate = plate.edge(edge, b, m);
                }
                for edge in &port_edges {
                    plate = plate.port(edge, EdgeCondition::Free);
                }
                PlateModel::LaminatedKirchhoff(
                    plate
                        .build()
                        .map_err(|e| err(p.theory.span(), format!("plate: {e}")))?,
                )
            } else {
                let mut plate = LaminatedMindlin::new(lam, &mesh, *p.degree.get_ref())
                    .map_err(|e| err(p.degree.span(), format!("plate.degree: {e}")))?;
                for (edge, b, m) in edges {
                    plate = plate.edge(edge, b, m);
                }
                for edge in &port_edges {
                    plate = plate.port(edge, EdgeCondition::Free);
                }
                PlateModel::LaminatedMindlin(
                    plate
                        .build()
                        .map_err(|e| err(p.theory.span(), format!("plate: {e}")))?,
                )
            }
        }
    };
    let sys = model.system();
    sys.check(&Default::default())
        .map_err(|e| err(p.theory.span(), format!("plate structure check: {e}")))?;
    let mut input = port_inputs(
        file,
        text,
        sys,
        &f.input,
        "declare an edge as \"port\" in plate.edges",
    )?;
    // Bell/Argyris essential ports: a uniform edge value sets the vertex values, not their
    // derivatives (the input components are C¹ trace functionals)
    if let PlateModel::KirchhoffC1(m) = &model {
        for inp in &f.input {
            let port = inp.port.get_ref();
            let (Ok(pattern), Ok(range)) = (m.uniform_port_input(port, 1.0), sys.ports.range(port))
            else {
                continue;
            };
            for (k, c) in range.zip(pattern) {
                let s = input.signals()[k].clone();
                input.set(
                    k,
                    phlex_solve::signal::Signal::from_fn(move |t| c * s.eval(t)),
                );
            }
        }
    }
    // initial fields
    let mut w0: Option<FieldFn> = None;
    let mut theta: [Option<FieldFn>; 2] = [None, None];
    let mut u0: [Option<FieldFn>; 2] = [None, None];
    let has_theta = matches!(
        model,
        PlateModel::Mindlin(_) | PlateModel::MindlinAfw { .. }
    );
    let has_u = laminated;
    for (name, expr) in &f.initial {
        let g = FieldFn::parse(expr.get_ref(), 2)
            .map_err(|m| err(expr.span(), format!("initial.{name}: {m}")))?;
        match name.as_str() {
            "e_w" => w0 = Some(g),
            "e_theta_x" if has_theta => theta[0] = Some(g),
            "e_theta_y" if has_theta => theta[1] = Some(g),
            "e_ux" if has_u => u0[0] = Some(g),
            "e_uy" if has_u => u0[1] = Some(g),
            other => {
                return Err(err(
                    expr.span(),
                    format!(
                        "initial.{other}: unknown field; use e_w{}",
                        if has_theta {
                            ", e_theta_x or e_theta_y"
                        } else if has_u {
                            ", e_ux or e_uy (in-plane velocities)"
                        } else {
                            " (the Kirchhoff plate's rotations follow from w)"
                        }
                    ),
                ))
            }
        }
    }
    let w_of = |x: [f64; 2]| w0.as_ref().map_or(0.0, |g| g.eval2(x));
    let u_of = |x: [f64; 2]| [0, 1].map(|c| u0[c].as_ref().map_or(0.0, |g| g.eval2(x)));
    let u_fn: Option<&dyn Fn([f64; 2]) -> [f64; 2]> = if u0.iter().any(Option::is_some) {
        Some(&u_of)
    } else {
        None
    };
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
        PlateModel::KirchhoffC1(m) => m.project_state(&w_of),
        PlateModel::MindlinAfw { model, d, .. } => {
            let th = |x: [f64; 2]| [0, 1].map(|c| theta[c].as_ref().map_or(0.0, |g| g.eval2(x)));
            let e = model.interpolate_state(&w_of, &th);
            Ok(e.iter().zip(d).map(|(v, di)| v / di).collect())
        }
        PlateModel::LaminatedKirchhoff(m) => m.interpolate_velocities(u_fn, &w_of),
        PlateModel::LaminatedMindlin(m) => m.interpolate_velocities(u_fn, &w_of),
        PlateModel::MindlinBjt { model, .. } => {
            let th = |x: [f64; 2]| [0, 1].map(|c| theta[c].as_ref().map_or(0.0, |g| g.eval2(x)));
            Ok(model.interpolate_state(&w_of, &th))
        }
        PlateModel::ThermoKirchhoff(m) => m.plate().interpolate_state(&w_of, None).map(|ep| {
            let mut e = vec![0.0; m.system().n_states()];
            if let (Some(from), Some(to)) = (
                m.plate().system().block_range("e_w"),
                m.system().block_range("e_w"),
            ) {
                e[to].copy_from_slice(&ep[from]);
            }
            e
        }),
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
        model.velocity_at(&initial, &[pt]).map_err(|_| {
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
    for v in model.mesh().vertices() {
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
    let file = path.display().to_string();
    let (f, b) = load(&file, text)?;
    let sys = b.system();
    feedback_phase(&file, text, sys, &b.input, &f.damping, 1.0, &|port, k| {
        b.model.damping_gain(port, k)
    })?;
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
    let points: Vec<[f64; 2]> = b.probes.iter().map(|p| p.1).collect();
    let probe_values = |e: &[f64]| -> Result<Vec<f64>, String> {
        b.model.velocity_at(e, &points).map_err(|er| er.to_string())
    };
    let vtu_of = |e: &[f64]| vtu(&b.model, e);
    let energies = |e: &[f64]| -> Result<Vec<f64>, String> {
        match &b.model {
            PlateModel::ThermoKirchhoff(m) => Ok(vec![m.mechanical_energy(e), m.thermal_energy(e)]),
            _ => Ok(Vec::new()),
        }
    };
    let closed = feedback_phase(
        &file,
        text,
        b.system(),
        &b.input,
        &f.damping,
        dt,
        &|port, k| b.model.damping_gain(port, k),
    )?;
    run_midpoint_with_feedback(
        FieldRun {
            name: &b.name,
            kind: "plate",
            system: b.system(),
            input: b.input.clone(),
            initial: &b.initial,
            columns: {
                let mut c = vec![Columns {
                    names: b.probes.iter().map(|p| p.0.clone()).collect(),
                    plot_title: Some("vertical velocity probes [m/s]".into()),
                    plot_file: "probes.svg",
                    values: &probe_values,
                }];
                if matches!(b.model, PlateModel::ThermoKirchhoff(_)) {
                    c.push(Columns {
                        names: vec!["H_mech".into(), "H_thermal".into()],
                        plot_title: Some("mechanical and thermal energy [J]".into()),
                        plot_file: "energies.svg",
                        values: &energies,
                    });
                }
                c
            },
            vtu: &vtu_of,
        },
        closed,
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
    if let PlateModel::ThermoKirchhoff(m) = model {
        let mut v = Vtu::new(m.plate().velocity_space().mesh());
        let w = m
            .plate()
            .field_coefficients(&thermo_plate_state(m, e), KirchhoffField::Velocity)?;
        v = v.space_field(
            "e_w (vertical velocity) [m/s]",
            Location::Point,
            m.plate().velocity_space(),
            &w,
        )?;
        return Ok(v.to_xml());
    }
    if let PlateModel::MindlinBjt { model, .. } = model {
        // quadrilateral cells; every field averaged to the grid vertices
        let grid = model.quad_mesh()?;
        let mut v = Vtu::new_quad(&grid);
        for f in BjtField::ALL {
            v = v.field(f.name(), Location::Point, 1, model.vertex_values(e, f)?)?;
        }
        return Ok(v.to_xml());
    }
    let mesh = model.mesh();
    let mut v = Vtu::new(mesh);
    let c = 1.0 / 3.0;
    let hhj_cells = |sk: &phlex_fem::element::triangle::hhj::HhjSpace, m: &[f64]| -> Vec<f64> {
        (0..mesh.n_cells())
            .flat_map(|t| sk.evaluate_in_cell(m, t, [c, c]))
            .collect()
    };
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
            v = v.field(
                "M (Mxx, Mxy, Myy) [N m/m]",
                Location::Cell,
                3,
                hhj_cells(model.moment_space(), &m),
            )?;
        }
        PlateModel::MindlinAfw { model, d, .. } => {
            let sd = model.dg_space();
            for (b, name) in [
                (0, "e_w (vertical velocity) [m/s]"),
                (1, "e_theta_x (rotation rate) [rad/s]"),
                (2, "e_theta_y (rotation rate) [rad/s]"),
            ] {
                v = v.space_field(name, Location::Cell, sd, &afw_block(model, d, e, b))?;
            }
        }
        PlateModel::KirchhoffC1(model) => {
            // vertex value DOFs of the Bell/Argyris space are entries 6v
            let w = model.velocity_coefficients(e)?;
            let wv: Vec<f64> = (0..mesh.n_vertices()).map(|i| w[6 * i]).collect();
            v = v.field("e_w (vertical velocity) [m/s]", Location::Point, 1, wv)?;
            let m = model.moment_coefficients(e)?;
            v = v.space_field(
                "M (Mxx, Mxy, Myy) [N m/m]",
                Location::Cell,
                model.moment_space(),
                &m,
            )?;
        }
        PlateModel::LaminatedKirchhoff(model) => {
            for (field, name, space) in [
                (
                    LaminatedField::Velocity,
                    "e_w (vertical velocity) [m/s]",
                    model.velocity_space(),
                ),
                (
                    LaminatedField::InPlaneVelocity,
                    "e_u (in-plane velocity) [m/s]",
                    model.in_plane_space(),
                ),
            ] {
                let u = model.field_coefficients(e, field)?;
                v = v.space_field(name, Location::Point, space, &u)?;
            }
            let n = model.field_coefficients(e, LaminatedField::MembraneStress)?;
            v = v.space_field(
                "N (Nxx, Nxy, Nyy) [N/m]",
                Location::Cell,
                model.membrane_space(),
                &n,
            )?;
            let m = model.field_coefficients(e, LaminatedField::Moments)?;
            v = v.field(
                "M (Mxx, Mxy, Myy) [N m/m]",
                Location::Cell,
                3,
                hhj_cells(model.moment_space(), &m),
            )?;
        }
        PlateModel::LaminatedMindlin(model) => {
            for (field, name, loc) in [
                (
                    LaminatedField::Velocity,
                    "e_w (vertical velocity) [m/s]",
                    Location::Point,
                ),
                (
                    LaminatedField::InPlaneVelocity,
                    "e_u (in-plane velocity) [m/s]",
                    Location::Point,
                ),
                (
                    LaminatedField::RotationRate,
                    "e_theta (rotation rates) [rad/s]",
                    Location::Point,
                ),
                (
                    LaminatedField::MembraneStress,
                    "N (Nxx, Nxy, Nyy) [N/m]",
                    Location::Cell,
                ),
                (
                    LaminatedField::Moments,
                    "M (Mxx, Mxy, Myy) [N m/m]",
                    Location::Cell,
                ),
                (
                    LaminatedField::ShearForces,
                    "q (qx, qy) [N/m]",
                    Location::Cell,
                ),
            ] {
                let u = model.field_coefficients(e, field)?;
                v = v.space_field(name, loc, model.space(field), &u)?;
            }
        }
        PlateModel::MindlinBjt { .. } | PlateModel::ThermoKirchhoff(_) => {
            unreachable!("written above")
        }
    }
    Ok(v.to_xml())
}
