//! Acoustic model files (`[acoustics]`, format in `docs/model-format-continuum.md`): the 2D
//! wave equation of [`phlex_fem::models::continuum::wave`] (thesis 004 §2.3.1, §8.2.2), planar or
//! axisymmetric, in the GradGrad ($CG_1\times DG_0$), DivDiv ($DG_0\times RT_1$) or thesis
//! $CG_1\times RT_1$ causality, on a structured rectangle or Gmsh mesh, with rigid,
//! pressure-release, velocity/pressure port and impedance boundaries; `phlex check`, `run`
//! (midpoint, probes, energy split $H_p$, $H_{u_x}$, $H_{u_y}$ of thesis Table 8.4, VTK) and
//! `modes`.
use std::collections::BTreeMap;

use anyhow::Result;
use phlex_core::LinearPhSystem;
use phlex_fem::models::continuum::wave::{
    AcousticBc, AcousticModel, AcousticParams, Acoustics, Causality,
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
use crate::material::Table;

/// An acoustic model file: the shared continuum tables (`[model]`, `[initial]` with the
/// fields `p`, `u_x`, `u_y` as expressions in `x`, `y`, `[simulation]`, `[output]` with
/// probe fields `p`, `u_x`, `u_y`, `[modes]`, `[[input]]` on the velocity and pressure
/// ports, uniform along the port) and [`AcousticsTables`].
pub type AcousticsFile = FieldFile<AcousticsTables>;

/// The acoustic tables of the model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcousticsTables {
    /// Geometry, mesh, fluid, causality and boundaries.
    pub acoustics: AcousticsSpec,
}

/// `[acoustics]`: the 2D mesh keys ([`MeshSpec`]) and [`AcousticsKeys`].
pub type AcousticsSpec = WithKeys<MeshSpec, AcousticsKeys>;

/// The keys of `[acoustics]` besides the mesh.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcousticsKeys {
    /// `"planar"` (default) or `"axisymmetric"` (mesh coordinates (x, r), r = y ≥ 0).
    pub geometry: Option<Spanned<String>>,
    /// `"gradgrad"` (default: CG1 pressure, DG0 velocity), `"divdiv"` (DG0 × RT1) or
    /// `"cg1rt1"` (the thesis pair with the GradGrad weak form).
    pub causality: Option<Spanned<String>>,
    /// Density of the fluid $\mu_0$ \[kg/m³\].
    pub density: Spanned<f64>,
    /// Sound speed $c$ \[m/s\].
    pub sound_speed: Spanned<f64>,
    /// Boundary conditions by tag (untagged edges are rigid).
    #[serde(default)]
    pub boundaries: BTreeMap<String, Spanned<BoundarySpec>>,
}

/// A boundary condition: a name or `{ impedance = z }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum BoundarySpec {
    /// `rigid`, `pressure_release`, `velocity_port`, `pressure_port`.
    Named(String),
    /// Locally reacting impedance $p = z\,\mathbf u\cdot\mathbf n$ [Pa s/m].
    Impedance {
        /// $z > 0$.
        impedance: f64,
    },
}

/// A parsed and built acoustic model.
pub struct BuiltAcoustics {
    /// Model name.
    pub name: String,
    /// The assembled model.
    pub model: AcousticModel,
    /// Inputs of every port.
    pub input: InputFn,
    /// Initial state.
    pub initial: Vec<f64>,
    /// Probes: name, field (0 = p, 1 = u_x, 2 = u_y), point.
    pub(super) probes: Vec<PointProbe>,
    /// Largest extent of the domain [m].
    size: f64,
}

impl BuiltAcoustics {
    /// The pH system.
    pub fn system(&self) -> &LinearPhSystem {
        self.model.system()
    }

    /// Eigensolver settings for the `n` lowest modes: shift-and-invert about $c\pi/L$
    /// ($L$ the largest extent: the first half-wave mode of a rigid duct of that length).
    pub fn eigen_params(&self, n: usize) -> EigenParams {
        EigenParams {
            n_modes: Some(n),
            shift: Some(self.model.params().sound_speed() * std::f64::consts::PI / self.size),
            max_krylov: Some((20 * n + 100).max(400)),
            zero_tol: 1e-3,
            tol: 1e-6,
            ..Default::default()
        }
    }

    /// Values of the probes for state `e`.
    pub(super) fn probe_values(&self, e: &[f64]) -> Result<Vec<f64>, String> {
        self.probes
            .iter()
            .map(|(_, k, x)| {
                let (p, u) = self
                    .model
                    .evaluate(e, [x[0], x[1]])
                    .map_err(|er| er.to_string())?;
                Ok([p, u[0], u[1]][*k])
            })
            .collect()
    }
}

/// Builds the parsed model file `f` of `file` (its `text` for the lines of errors, which
/// name the key and its line); returns the built model.
pub fn build(file: &str, text: &str, f: &AcousticsFile) -> Result<BuiltAcoustics, ModelError> {
    let err = |span: std::ops::Range<usize>, message: String| error_at(file, text, span, message);
    let a = &f.acoustics;
    let keys = Table::new(file, text, "acoustics");
    let params = AcousticParams::from_density_and_speed(
        keys.positive("density", &a.density)?,
        keys.positive("sound_speed", &a.sound_speed)?,
    )
    .map_err(|e| err(a.density.span(), format!("acoustics: {e}")))?;
    let causality = keys.choice(
        "causality",
        a.causality.as_ref(),
        &[
            ("gradgrad", Causality::GradGrad),
            ("divdiv", Causality::DivDiv),
            ("cg1rt1", Causality::Cg1Rt1Neumann),
        ],
    )?;
    let axisymmetric = keys.choice(
        "geometry",
        a.geometry.as_ref(),
        &[("planar", false), ("axisymmetric", true)],
    )?;
    let mesh = a.shared.build("acoustics", a.density.span(), file, text)?;
    let tags = mesh.tag_names();
    let mut b = Acoustics::new(params, &mesh, causality)
        .map_err(|e| err(a.density.span(), format!("acoustics: {e}")))?;
    if axisymmetric {
        b = b.axisymmetric();
    }
    for (tag, bc) in &a.boundaries {
        keys.boundary_tag("boundaries", (tag, bc.span()), &tags, false)?;
        let cond = match bc.get_ref() {
            BoundarySpec::Named(n) => match n.as_str() {
                "rigid" => AcousticBc::Rigid,
                "pressure_release" => AcousticBc::PressureRelease,
                "velocity_port" => AcousticBc::VelocityPort,
                "pressure_port" => AcousticBc::PressurePort,
                other => return Err(err(
                    bc.span(),
                    format!("acoustics.boundaries.{tag} = '{other}': use \"rigid\", \"pressure_release\", \"velocity_port\", \"pressure_port\" or {{ impedance = z }}"),
                )),
            },
            BoundarySpec::Impedance { impedance } => {
                if !(*impedance > 0.0 && impedance.is_finite()) {
                    return Err(err(
                        bc.span(),
                        format!("acoustics.boundaries.{tag}: impedance must be > 0 [Pa s/m] (ρc = {:.4} absorbs normal plane waves)", a.density.get_ref() * a.sound_speed.get_ref()),
                    ));
                }
                AcousticBc::Impedance(*impedance)
            }
        };
        b = b.boundary(tag, cond);
    }
    let model = b
        .build()
        .map_err(|e| err(a.density.span(), format!("acoustics: {e}")))?;
    let sys = model.system();
    sys.check(&Default::default())
        .map_err(|e| err(a.density.span(), format!("acoustics structure check: {e}")))?;
    let input = port_inputs(
        file,
        text,
        sys,
        &f.shared.input,
        "declare a boundary as \"velocity_port\" or \"pressure_port\" in acoustics.boundaries",
    )?;
    let names = ["p", "u_x", "u_y"];
    let init = f
        .shared
        .initial_fields((file, text), &names, 2, "p, u_x or u_y")?;
    let val = |k: usize, x: [f64; 2]| init[k].as_ref().map_or(0.0, |g| g.eval2(x));
    let initial = model
        .project(&|x| val(0, x), &|x| [val(1, x), val(2, x)])
        .map_err(|e| err(0..0, format!("initial state: {e}")))?;
    check_finite_initial((file, text), &initial, "in the domain")?;
    let probes = f
        .shared
        .output
        .point_probes(&names, 2)
        .map_err(|m| err(0..0, m))?;
    let [lx, ly] = extent(mesh.vertices().iter().copied());
    let b = BuiltAcoustics {
        name: f.shared.model.name.clone(),
        model,
        input,
        initial,
        probes,
        size: lx.max(ly),
    };
    b.probe_values(&b.initial)
        .map_err(|m| err(0..0, format!("output.probes: {m}")))?;
    Ok(b)
}
