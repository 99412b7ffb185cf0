//! Linear elasticity model files (`[elasticity]`, format in `docs/model-format-continuum.md`):
//! 2D (plane strain/stress, triangle mesh: structured rectangle or Gmsh) and 3D (box of
//! tetrahedra) CG velocity × DG stress PFEM of [`phlex_fem::models::continuum::elasticity`] (thesis 004
//! eq. (9.33), Remark 28), with clamped, single-component (roller/symmetry) and traction-port
//! boundaries; `phlex check`, `run` (midpoint, probes, VTK) and `modes`. With
//! `[elasticity.thermal]`, coupled thermoelasticity of [`phlex_fem::models::continuum::thermoelasticity`]
//! (plane strain, plane stress or 3D) with isothermal tags, traction ports and heat-flux
//! ports; `run` then also records the heat content $\int\rho c(T - T_0)$.
use phlex_fem::models::continuum::{HeatSupports, Supports};
use std::collections::BTreeMap;

use anyhow::Result;
use phlex_core::LinearPhSystem;
use phlex_fem::io::gmsh::GmshMesh3d;
use phlex_fem::mesh::Mesh3d;
use phlex_fem::models::continuum::elasticity::{
    ElasticParams, Elasticity2d, Elasticity3d, ElasticityModel2d, ElasticityModel3d, PlaneModel,
};
use phlex_fem::models::continuum::thermoelasticity::{
    ThermalParams, ThermoField2d, Thermoelasticity2d, Thermoelasticity3d, ThermoelasticityModel2d,
    ThermoelasticityModel3d,
};
use phlex_solve::eigen::EigenParams;
use phlex_solve::signal::InputFn;
use serde::Deserialize;
use toml::Spanned;

use crate::continuum::{
    check_finite_initial, extent, port_inputs, FieldFile, MeshSpec, PointProbe,
};
use crate::error::{error_at, ModelError};
use crate::keys::WithKeys;
use crate::material::{Table, ThermalKeys};

/// An elasticity model file: the shared continuum tables ([`FieldTables`]: `[model]`,
/// `[initial]` with the velocity components `v_x`, `v_y` (`v_z`) and, thermoelastic,
/// `theta` as expressions in `x`, `y` (`z`), `[simulation]`, `[output]` with probe fields
/// `v_x`, `v_y`, `v_z`, `s_xx`, `s_xy`, …, `[modes]`, `[[input]]` on the traction and
/// heat-flux ports) and [`ElasticityTables`].
///
/// [`FieldTables`]: crate::continuum::FieldTables
pub type ElasticityFile = FieldFile<ElasticityTables>;

/// The elasticity tables of the model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElasticityTables {
    /// Geometry, mesh, material, discretization and boundaries.
    pub elasticity: ElasticitySpec,
}

/// `[elasticity]`: the 2D mesh keys ([`MeshSpec`]; `lx`, `ly`, `nx`, `ny`, `mesh` also
/// for the 3D box) and [`ElasticityKeys`].
pub type ElasticitySpec = WithKeys<MeshSpec, ElasticityKeys>;

/// The keys of `[elasticity]` besides the mesh.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElasticityKeys {
    /// Dimension: 2 (triangles) or 3 (tetrahedra).
    pub dim: Spanned<usize>,
    /// 2D reduction: `"strain"` (default) or `"stress"`.
    pub plane: Option<Spanned<String>>,
    /// Box size \[m\] (3D).
    pub lz: Option<Spanned<f64>>,
    /// Cells per side (3D).
    pub nz: Option<Spanned<usize>>,
    /// Polynomial degree k of the CG velocities (2D 1..3, 3D 1..2).
    #[serde(default = "one")]
    pub degree: Spanned<usize>,
    /// Young's modulus $E$ \[Pa\].
    pub youngs_modulus: Spanned<f64>,
    /// Poisson's ratio $\nu$.
    pub poisson_ratio: Spanned<f64>,
    /// Density $\rho$ \[kg/m³\].
    pub density: Spanned<f64>,
    /// Boundary conditions by tag: `clamped`, `fixed_x`, `fixed_y`, `fixed_z`, `port`,
    /// `free` (default).
    #[serde(default)]
    pub boundaries: BTreeMap<String, Spanned<String>>,
    /// Coupled thermoelasticity (thesis 004 §5.1.3): the temperature field and its data.
    pub thermal: Option<ThermalSpec>,
}

/// `[elasticity.thermal]`: the heat conduction keys ([`ThermalKeys`]) and
/// [`ThermalOwnKeys`].
pub type ThermalSpec = WithKeys<ThermalKeys, ThermalOwnKeys>;

/// The keys of `[elasticity.thermal]` besides the heat conduction data: linear
/// thermoelasticity ([`phlex_fem::models::continuum::thermoelasticity`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThermalOwnKeys {
    /// Tags held at $T = T_0$ (the others are insulated unless heat-flux ports).
    #[serde(default)]
    pub isothermal: Vec<String>,
    /// Tags carrying a heat-flux port `<tag>_flux` (input: heat flux entering the body
    /// q = k ∂T/∂n [W/m²], driven by `[[input]]`; output: the weighted trace of θ).
    #[serde(default)]
    pub heat_flux_ports: Vec<String>,
}

/// A boundary condition of the elasticity table.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Cond {
    Clamped,
    Fixed(usize),
    Port,
    Isothermal,
    HeatFlux,
}

/// The validated boundary conditions of `p` (mechanical by tag, then the isothermal tags).
fn conditions(
    p: &ElasticitySpec,
    tags: &[String],
    dim: usize,
    keys: Table,
) -> Result<Vec<(String, Cond)>, ModelError> {
    let err = |span, message| keys.error_at(span, message);
    let thermal = Table::new(keys.file, keys.text, "elasticity.thermal");
    let mut out = Vec::new();
    for (tag, cond) in &p.boundaries {
        keys.boundary_tag("boundaries", (tag, cond.span()), tags, false)?;
        let c = match (cond.get_ref().as_str(), dim) {
            ("clamped", _) => Cond::Clamped,
            ("fixed_x", _) => Cond::Fixed(0),
            ("fixed_y", _) => Cond::Fixed(1),
            ("fixed_z", 3) => Cond::Fixed(2),
            ("port", _) => Cond::Port,
            ("free", _) => continue,
            (other, _) => {
                let allowed = if dim == 2 {
                    "2D models accept \"clamped\", \"fixed_x\", \"fixed_y\", \"port\" or \"free\""
                } else {
                    "3D models accept \"clamped\", \"fixed_x\", \"fixed_y\", \"fixed_z\", \"port\" or \"free\""
                };
                return Err(err(
                    cond.span(),
                    format!("elasticity.boundaries.{tag} = '{other}': {allowed}"),
                ));
            }
        };
        out.push((tag.clone(), c));
    }
    if let Some(th) = &p.thermal {
        for tag in &th.isothermal {
            thermal.boundary_tag("isothermal", (tag, p.dim.span()), tags, false)?;
            out.push((tag.clone(), Cond::Isothermal));
        }
        for tag in &th.heat_flux_ports {
            thermal.boundary_tag("heat_flux_ports", (tag, p.dim.span()), tags, false)?;
            if th.isothermal.contains(tag) {
                return Err(err(
                    p.dim.span(),
                    format!("elasticity.thermal: '{tag}' is both isothermal and a heat-flux port; choose one"),
                ));
            }
            out.push((tag.clone(), Cond::HeatFlux));
        }
    }
    Ok(out)
}

/// The builder `b` with the mechanical conditions `conds` (clamped, fixed component,
/// traction port; [`Supports`]).
fn supported<B: Supports>(b: B, conds: &[(String, Cond)]) -> B {
    conds.iter().fold(b, |b, (tag, c)| match c {
        Cond::Clamped => b.clamped(tag),
        Cond::Fixed(a) => b.fixed(tag, *a),
        Cond::Port => b.port(tag),
        Cond::Isothermal | Cond::HeatFlux => b,
    })
}

/// The thermoelastic builder `b` with the mechanical conditions and the thermal ones
/// (isothermal, heat-flux port; [`HeatSupports`]) of `conds`.
fn heat_supported<B: HeatSupports>(b: B, conds: &[(String, Cond)]) -> B {
    conds
        .iter()
        .fold(supported(b, conds), |b, (tag, c)| match c {
            Cond::Isothermal => b.isothermal(tag),
            Cond::HeatFlux => b.heat_flux_port(tag),
            _ => b,
        })
}

fn one() -> Spanned<usize> {
    Spanned::new(0..0, 1)
}

/// The assembled model of either dimension.
// One value per run, never moved in a loop: boxing the larger variants would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum ElasticModel {
    /// Plane strain or stress.
    Plane(ElasticityModel2d),
    /// Three-dimensional.
    Solid(ElasticityModel3d),
    /// Plane-strain or plane-stress thermoelasticity.
    ThermoPlane(ThermoelasticityModel2d),
    /// Three-dimensional thermoelasticity.
    ThermoSolid(ThermoelasticityModel3d),
}

impl ElasticModel {
    /// The pH system.
    pub fn system(&self) -> &LinearPhSystem {
        match self {
            ElasticModel::Plane(m) => m.system(),
            ElasticModel::Solid(m) => m.system(),
            ElasticModel::ThermoPlane(m) => m.system(),
            ElasticModel::ThermoSolid(m) => m.system(),
        }
    }
}

/// A parsed and built elasticity model.
pub struct BuiltElasticity {
    /// Model name.
    pub name: String,
    /// The assembled model.
    pub model: ElasticModel,
    /// Inputs of every port.
    pub input: InputFn,
    /// Initial state.
    pub initial: Vec<f64>,
    /// Probes.
    pub(super) probes: Vec<PointProbe>,
    /// Largest extent of the body [m].
    size: f64,
    /// Elastic material (eigen shift).
    params: ElasticParams,
}

/// Probe fields of 2D models: index into (v_x, v_y, s_xx, s_xy, s_yy, theta); `theta`
/// (normalised temperature (T − T0)/T0) with `[elasticity.thermal]` only.
const FIELDS_2D: [&str; 6] = ["v_x", "v_y", "s_xx", "s_xy", "s_yy", "theta"];
/// Probe fields of 3D models: index into (v_x, v_y, v_z, s_xx, s_yy, s_zz, s_yz, s_xz, s_xy,
/// theta).
const FIELDS_3D: [&str; 10] = [
    "v_x", "v_y", "v_z", "s_xx", "s_yy", "s_zz", "s_yz", "s_xz", "s_xy", "theta",
];

impl BuiltElasticity {
    /// The pH system.
    pub fn system(&self) -> &LinearPhSystem {
        self.model.system()
    }

    /// Eigensolver settings for the `n` lowest modes: shift-and-invert about the frequency
    /// $c_s\pi/L$ of a shear wave over the largest extent $L$ of the body (the lowest
    /// bending/shear modes of a clamped body lie within an order of magnitude of it; the
    /// self-equilibrated stress kernel is rejected below $10^{-3}$ of the spectral radius).
    pub fn eigen_params(&self, n: usize) -> EigenParams {
        let p = self.params;
        EigenParams {
            n_modes: Some(n),
            shift: Some(p.shear_wave_speed() * std::f64::consts::PI / self.size),
            max_krylov: Some((20 * n + 100).max(400)),
            // Thermoelastic pencils have large real (diffusive) eigenvalues that set the
            // spectral radius: a relative zero threshold of 1e-3 would reject the lowest
            // oscillations, so only round-off zeros are rejected there.
            zero_tol: if matches!(
                self.model,
                ElasticModel::ThermoPlane(_) | ElasticModel::ThermoSolid(_)
            ) {
                1e-9
            } else {
                1e-3
            },
            tol: 1e-6,
            ..Default::default()
        }
    }

    /// Values of the probes for state `e`.
    pub(super) fn probe_values(&self, e: &[f64]) -> Result<Vec<f64>, String> {
        self.probes
            .iter()
            .map(|(_, k, x)| {
                let vals: Vec<f64> = match &self.model {
                    ElasticModel::Plane(m) => {
                        let p = m.evaluate(e, [x[0], x[1]]).map_err(|er| er.to_string())?;
                        vec![p.v[0], p.v[1], p.sigma[0], p.sigma[1], p.sigma[2]]
                    }
                    ElasticModel::Solid(m) => {
                        let (v, s) = m.evaluate(e, *x).map_err(|er| er.to_string())?;
                        v.iter().chain(s.iter()).copied().collect()
                    }
                    ElasticModel::ThermoPlane(m) => thermo_values(|f| {
                        let u = m.field_coefficients(e, f)?;
                        m.space(f).evaluate(&u, [x[0], x[1]]).map(|(v, _)| v)
                    })?,
                    ElasticModel::ThermoSolid(m) => {
                        thermo_values(|f| m.space(f).evaluate(&thermo3d_field(m, e, f), *x))?
                    }
                };
                Ok(vals[*k])
            })
            .collect()
    }
}

/// Builds the parsed model file `f` of `file` (its `text` for the lines of errors, which
/// name the key and its line); returns the built model.
pub fn build(file: &str, text: &str, f: &ElasticityFile) -> Result<BuiltElasticity, ModelError> {
    let err = |span: std::ops::Range<usize>, message: String| error_at(file, text, span, message);
    let p = &f.elasticity;
    let dim = *p.dim.get_ref();
    if dim != 2 && dim != 3 {
        return Err(err(
            p.dim.span(),
            format!("elasticity.dim = {dim}: use 2 (plane strain/stress) or 3 (solid)"),
        ));
    }
    let keys = Table::new(file, text, "elasticity");
    let m = keys.isotropic(&p.youngs_modulus, &p.poisson_ratio, &p.density)?;
    let params = ElasticParams {
        E: m.youngs_modulus,
        nu: m.poisson_ratio,
        rho: m.density,
    };
    let degree = *p.degree.get_ref();
    let thermal = match &p.thermal {
        None => None,
        Some(t) => {
            let th = Table::new(file, text, "elasticity.thermal").thermal(&t.shared)?;
            Some(ThermalParams {
                heat_capacity: th.heat_capacity,
                conductivity: th.conductivity,
                t0: th.reference_temperature,
                beta: th.thermal_expansion,
            })
        }
    };
    let at_degree =
        |key: &str, e: &dyn std::fmt::Display| err(p.degree.span(), format!("{key}: {e}"));
    let at_dim = |e: &dyn std::fmt::Display| err(p.dim.span(), format!("elasticity: {e}"));
    let (model, size) = if dim == 2 {
        for (key, v) in [("lz", p.lz.is_some()), ("nz", p.nz.is_some())] {
            if v {
                return Err(err(
                    p.dim.span(),
                    format!("elasticity.{key} is a 3D key; remove it or set dim = 3"),
                ));
            }
        }
        let plane = keys.choice(
            "plane",
            p.plane.as_ref(),
            &[
                ("strain", PlaneModel::PlaneStrain),
                ("stress", PlaneModel::PlaneStress),
            ],
        )?;
        let mesh = p.shared.build("elasticity", p.dim.span(), file, text)?;
        let conds = conditions(p, &mesh.tag_names(), 2, keys)?;
        let m = match thermal {
            None => {
                let b = Elasticity2d::new(params, plane, &mesh, degree)
                    .map_err(|e| at_degree("elasticity.degree", &e))?;
                ElasticModel::Plane(supported(b, &conds).build().map_err(|e| at_dim(&e))?)
            }
            Some(th) => {
                let b = Thermoelasticity2d::new(params, th, &mesh, degree)
                    .map_err(|e| at_degree("elasticity", &e))?
                    .plane(plane);
                ElasticModel::ThermoPlane(
                    heat_supported(b, &conds).build().map_err(|e| at_dim(&e))?,
                )
            }
        };
        let size = largest(extent(mesh.vertices().iter().copied()));
        (m, size)
    } else {
        for (key, v) in [
            ("plane", p.plane.is_some()),
            ("diagonal", p.shared.diagonal.is_some()),
            ("x0", p.shared.x0.is_some()),
            ("y0", p.shared.y0.is_some()),
        ] {
            if v {
                return Err(err(
                    p.dim.span(),
                    format!("elasticity.{key} is not available for dim = 3 (3D models use the box lx, ly, lz, nx, ny, nz or mesh = \"file.msh\")"),
                ));
            }
        }
        let mesh = if let Some(name) = &p.shared.mesh {
            keys.exclusive_with_mesh(
                name,
                &[
                    ("lx", p.shared.lx.is_some()),
                    ("ly", p.shared.ly.is_some()),
                    ("lz", p.lz.is_some()),
                    ("nx", p.shared.nx.is_some()),
                    ("ny", p.shared.ny.is_some()),
                    ("nz", p.nz.is_some()),
                ],
            )?;
            GmshMesh3d::read(keys.path_of(name))
                .map_err(|e| err(name.span(), format!("elasticity.mesh: {e}")))?
                .mesh
        } else {
            let hint = "3D models need lx, ly, lz, nx, ny, nz (or mesh = \"file.msh\")";
            let anchor = p.dim.span();
            let len = |v, key| keys.length(key, keys.required(v, key, &anchor, hint)?);
            let count = |v, key| keys.count(key, keys.required(v, key, &anchor, hint)?);
            let l = [
                len(&p.shared.lx, "lx")?,
                len(&p.shared.ly, "ly")?,
                len(&p.lz, "lz")?,
            ];
            let n = [
                count(&p.shared.nx, "nx")?,
                count(&p.shared.ny, "ny")?,
                count(&p.nz, "nz")?,
            ];
            Mesh3d::box_mesh([0.0; 3], l, n)
                .map_err(|e| err(p.dim.span(), format!("elasticity mesh: {e}")))?
        };
        let size = largest(extent(mesh.vertices().iter().copied()));
        let conds = conditions(p, &mesh.tag_names(), 3, keys)?;
        let m = match thermal {
            None => {
                let b = Elasticity3d::new(params, &mesh, degree)
                    .map_err(|e| at_degree("elasticity.degree", &e))?;
                ElasticModel::Solid(supported(b, &conds).build().map_err(|e| at_dim(&e))?)
            }
            Some(th) => {
                let b = Thermoelasticity3d::new(params, th, &mesh, degree)
                    .map_err(|e| at_degree("elasticity", &e))?;
                ElasticModel::ThermoSolid(
                    heat_supported(b, &conds).build().map_err(|e| at_dim(&e))?,
                )
            }
        };
        (m, size)
    };
    let sys = model.system();
    sys.check(&Default::default())
        .map_err(|e| err(p.dim.span(), format!("elasticity structure check: {e}")))?;
    let input = port_inputs(
        file,
        text,
        sys,
        &f.shared.input,
        if p.thermal.is_some() {
            "declare a boundary as \"port\" in elasticity.boundaries (tractions <tag>_tx, <tag>_ty, <tag>_tz) or list it in elasticity.thermal.heat_flux_ports (<tag>_flux)"
        } else {
            "declare a boundary as \"port\" in elasticity.boundaries"
        },
    )?;
    // initial velocity (and temperature)
    let thermal_model = p.thermal.is_some();
    let comps = &["v_x", "v_y", "v_z"][..dim];
    let names = [comps, if thermal_model { &["theta"] } else { &[] }].concat();
    let known = format!(
        "{}{}",
        comps.join(", "),
        if thermal_model {
            " or theta ((T − T0)/T0)"
        } else {
            ""
        }
    );
    let mut v0 = f.shared.initial_fields((file, text), &names, dim, &known)?;
    let theta0 = if thermal_model {
        v0.pop().flatten()
    } else {
        None
    };
    v0.resize(3, None);
    let v_at = |c: usize, x: [f64; 3]| v0[c].as_ref().map_or(0.0, |g| g.eval3(x));
    let initial = match &model {
        ElasticModel::Plane(m) => m
            .interpolate_state(
                &|x| [v_at(0, [x[0], x[1], 0.0]), v_at(1, [x[0], x[1], 0.0])],
                None,
            )
            .map_err(|e| err(0..0, format!("initial state: {e}")))?,
        ElasticModel::Solid(m) => m.interpolate_state(&|x| [0, 1, 2].map(|c| v_at(c, x)), None),
        ElasticModel::ThermoPlane(m) => m.interpolate_state(
            &|x| [v_at(0, [x[0], x[1], 0.0]), v_at(1, [x[0], x[1], 0.0])],
            &|x| theta0.as_ref().map_or(0.0, |g| g.eval2(x)),
        ),
        ElasticModel::ThermoSolid(m) => m
            .interpolate_state(&|x| [0, 1, 2].map(|c| v_at(c, x)), &|x| {
                theta0.as_ref().map_or(0.0, |g| g.eval3(x))
            }),
    };
    check_finite_initial((file, text), &initial, "on the body")?;
    let all: &[&str] = if dim == 2 { &FIELDS_2D } else { &FIELDS_3D };
    // `theta` (the last field) only with [elasticity.thermal]
    let fields = if thermal_model {
        all
    } else {
        &all[..all.len() - 1]
    };
    let probes = f
        .shared
        .output
        .point_probes(fields, dim)
        .map_err(|m| err(0..0, m))?;
    let b = BuiltElasticity {
        name: f.shared.model.name.clone(),
        model,
        input,
        initial,
        probes,
        size,
        params,
    };
    // probe points must lie in the body
    b.probe_values(&b.initial)
        .map_err(|m| err(0..0, format!("output.probes: {m}")))?;
    Ok(b)
}

/// The values of the velocity, stress and temperature fields of a thermoelastic state at
/// a point, in turn, by `eval` of each field.
fn thermo_values<E: std::fmt::Display>(
    eval: impl Fn(ThermoField2d) -> Result<Vec<f64>, E>,
) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    for f in [
        ThermoField2d::Velocity,
        ThermoField2d::Stress,
        ThermoField2d::Temperature,
    ] {
        out.extend(eval(f).map_err(|er| er.to_string())?);
    }
    Ok(out)
}

/// Full-space coefficients of field `f` of a 3D thermoelastic state (removed DOFs zero).
pub(super) fn thermo3d_field(m: &ThermoelasticityModel3d, e: &[f64], f: ThermoField2d) -> Vec<f64> {
    let sizes = [
        m.space(ThermoField2d::Velocity).n_dofs(),
        m.space(ThermoField2d::Stress).n_dofs(),
        m.space(ThermoField2d::Temperature).n_dofs(),
    ];
    let b = f as usize;
    let lo: usize = sizes[..b].iter().sum();
    let mut u = vec![0.0; sizes[b]];
    for (s, &i) in m.kept_dofs().iter().enumerate() {
        if i >= lo && i < lo + sizes[b] {
            u[i - lo] = e[s];
        }
    }
    u
}

/// The largest of the side lengths `l`.
fn largest<const D: usize>(l: [f64; D]) -> f64 {
    l.into_iter().fold(0.0, f64::max)
}
