//! Shallow water model files (`[shallow_water]`, format in `docs/model-format-continuum.md`):
//! the irrotational shallow water equations of [`phlex_fem::models::continuum::shallow_water`] (thesis 004
//! §6.3, eqs. (6.38)–(6.42); Table 8.2) on a disk mesh or a Gmsh mesh, integrated with the
//! averaged-vector-field discrete gradient (exact discrete energy and mass balances), with an
//! optional boundary damping injection $u_\partial = -k(y_\partial - \rho g h_{des})$ that makes
//! the Lyapunov functional decrease; `phlex check`, `run` and `modes` (linearised about
//! the rest depth).

use anyhow::Result;
use phlex_fem::io::gmsh::GmshMesh;
use phlex_fem::mesh::disk::disk_mesh;
use phlex_fem::models::continuum::shallow_water::ShallowWater;
use phlex_solve::eigen::EigenParams;
use serde::Deserialize;
use toml::Spanned;

use crate::continuum::{extent, FieldFile};
use crate::error::{error_at, ModelError};
use crate::material::Table;
use crate::spec::{KeyError, SimulationSpec};

/// A shallow water model file: the shared continuum tables ([`FieldTables`]: `[model]`,
/// `[initial]` with the height `h` and velocity `v_x`, `v_y` as expressions in x, y, r,
/// theta, `[simulation]`, `[output]` without probes, `[modes]` linearised about `h_des`;
/// no `[[input]]`: no input ports) and [`SwTables`].
///
/// [`FieldTables`]: crate::continuum::FieldTables
pub type ShallowWaterFile = FieldFile<SwTables>;

/// The shallow water tables of the model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwTables {
    /// Gravitational acceleration vector \[m/s²\], `[0, 0, -g]` (the tank lies in the
    /// xy plane); a top-level key (before the first table).
    pub gravity: Spanned<[f64; 3]>,
    /// Tank, fluid and mesh.
    pub shallow_water: SwSpec,
    /// Boundary damping injection.
    pub control: Option<SwControlSpec>,
}

/// `[shallow_water]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwSpec {
    /// Tank radius \[m\] (disk mesh of concentric rings).
    pub radius: Option<Spanned<f64>>,
    /// Rings of the disk mesh.
    pub n_radial: Option<Spanned<usize>>,
    /// A Gmsh `.msh` file instead of the disk (path relative to the model file).
    pub mesh: Option<Spanned<String>>,
    /// Boundary tag of the port (default `"boundary"`, the disk's whole rim); other
    /// boundary edges are closed walls.
    pub port: Option<Spanned<String>>,
    /// Density of the fluid $\rho$ \[kg/m³\].
    pub density: Spanned<f64>,
    /// Rest depth \[m\] (linearisation of `phlex modes`, Lyapunov functional).
    pub h_des: Spanned<f64>,
}

/// `[control]`: $u_\partial = -k(y_\partial - \rho g h_{des})$ for $t \ge t_{on}$.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwControlSpec {
    /// Gain k ≥ 0.
    pub gain: Spanned<f64>,
    /// Switch-on time \[s\].
    #[serde(default)]
    pub t_on: f64,
}

/// Checks the `[simulation]` of a shallow water model: the shared keys
/// ([`SimulationSpec::validate`]) with `integrator = "discrete_gradient"` (the model's
/// averaged-vector-field discrete gradient, which keeps the discrete energy and mass
/// balances; the height field enters its Hamiltonian cubically), `t_end`, `dt`,
/// `output_every` and `newton_rtol` (default 1e-13); the other keys name why they do not
/// apply.
fn check_simulation(sim: &SimulationSpec) -> Result<(), KeyError> {
    sim.validate()?;
    let integ = sim.integrator.get_ref().name();
    if integ != "discrete_gradient" {
        return Err((
            sim.integrator.span(),
            format!("simulation.integrator = \"{integ}\" does not apply to shallow water models: they run their averaged-vector-field discrete gradient (exact discrete energy and mass balance); write integrator = \"discrete_gradient\""),
        ));
    }
    let spans = [
        ("newton_atol", sim.newton_atol.as_ref().map(|v| v.span())),
        (
            "newton_max_iterations",
            sim.newton_max_iterations.as_ref().map(|v| v.span()),
        ),
        (
            "newton_modified",
            sim.newton_modified.as_ref().map(|v| v.span()),
        ),
        ("projection", sim.projection.as_ref().map(|v| v.span())),
    ];
    if let Some((key, Some(span))) = spans.into_iter().find(|(_, s)| s.is_some()) {
        return Err((
            span,
            format!("simulation.{key} does not apply to shallow water models (keys: integrator, t_end, dt, output_every, newton_rtol)"),
        ));
    }
    Ok(())
}

/// A parsed and built model.
pub struct BuiltSw {
    /// Model name.
    pub name: String,
    /// The model.
    pub model: ShallowWater,
    /// Initial state.
    pub initial: phlex_fem::models::continuum::shallow_water::SwState,
    /// Tank radius scale (largest extent / 2) \[m\].
    pub size: f64,
}

/// Builds the parsed model file `f` of `file` (its `text` for the lines of errors, which
/// name the key and its line); returns the built model.
pub fn build(file: &str, text: &str, f: &ShallowWaterFile) -> Result<BuiltSw, ModelError> {
    let err = |span: std::ops::Range<usize>, message: String| error_at(file, text, span, message);
    if let Some(p) = f.shared.output.probes.first() {
        return Err(err(
            0..0,
            format!(
                "output.probes '{}': shallow water models have no probes (the run records H, V, the volume and the supplied work); remove them",
                p.name
            ),
        ));
    }
    if let Some(i) = f.shared.input.first() {
        return Err(err(
            i.port.span(),
            "input: shallow water models have no input ports (the boundary damping injection of [control] drives the rim); remove [[input]]".into(),
        ));
    }
    if let Some(sim) = &f.shared.simulation {
        check_simulation(sim).map_err(|(span, msg)| err(span, msg))?;
    }
    let s = &f.shallow_water;
    let mesh = match (&s.mesh, &s.radius, &s.n_radial) {
        (Some(m), None, None) => {
            GmshMesh::read(Table::new(file, text, "shallow_water").path_of(m))
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
                s.density.span(),
                "shallow_water: give radius and n_radial (disk tank) or mesh = \"file.msh\"".into(),
            ))
        }
    };
    let tag = s
        .port
        .as_ref()
        .map_or("boundary".to_string(), |t| t.get_ref().clone());
    let [lx, ly] = extent(mesh.vertices().iter().copied());
    let size = 0.5 * lx.max(ly);
    let density = Table::new(file, text, "shallow_water").positive("density", &s.density)?;
    let model =
        ShallowWater::new(mesh, density, gravity(file, text, &f.gravity)?, &tag).map_err(|e| {
            err(
                s.port.as_ref().map_or(s.density.span(), |p| p.span()),
                format!("shallow_water: {e}"),
            )
        })?;
    if !(*s.h_des.get_ref() > 0.0) {
        return Err(err(
            s.h_des.span(),
            "shallow_water.h_des must be > 0".into(),
        ));
    }
    let init = f
        .shared
        .initial_fields((file, text), &["h", "v_x", "v_y"], 2, "h, v_x or v_y")?;
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
    Ok(BuiltSw {
        name: f.shared.model.name.clone(),
        model,
        initial,
        size,
    })
}

/// The magnitude $g > 0$ of the top-level `gravity = [0, 0, -g]` of `file`: the tank
/// lies in the xy plane, so gravity must point along $-z$ (an error names the key and its
/// line otherwise).
fn gravity(file: &str, text: &str, v: &Spanned<[f64; 3]>) -> Result<f64, ModelError> {
    let [x, y, z] = *v.get_ref();
    if x != 0.0 || y != 0.0 {
        return Err(error_at(
            file,
            text,
            v.span(),
            format!("gravity = [{x}, {y}, {z}]: the tank lies in the xy plane, so gravity must be [0, 0, -g] (its x and y components must be 0)"),
        ));
    }
    if !(z.is_finite() && z < 0.0) {
        return Err(error_at(
            file,
            text,
            v.span(),
            format!("gravity = [{x}, {y}, {z}]: the z component must be < 0 (gravity points down, e.g. [0, 0, -9.81])"),
        ));
    }
    Ok(-z)
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
