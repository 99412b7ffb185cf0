//! Plate assembly model files: a `[plate]` (Kirchhoff, HHJ) with lumped components attached
//! at points (`[attachments.<name>]`) and/or a rigid rod welded along an edge (`[rod]`);
//! format documented in `docs/model-format-plate-assembly.md`.
//!
//! The file maps onto [`phlex_mbs::models::plate_assembly`] (thesis 004 §10.2): point ports
//! $B_\Omega = \int\delta^{app}[1, \partial_y, -\partial_x]\phi_w$ (eqs. (10.11)–(10.15),
//! `[point_loads]` chooses $\delta^{app}$), proof-mass actuators (eq. (10.16)), rigid bodies
//! with a static moment (eq. (10.17)) joined by the transformers $u_P = -u_A$, $y_A = y_P$
//! ([`assemble_point_components`]), and the rod of eq. (10.4) welded with the
//! $\mathcal W$, $\mathcal W^*$ coupling of eqs. (10.5)–(10.9) ([`weld_rigid_rod`]).
//! Distributed loads `[loads.<name>]` (density $a(t)f(x, y)$, $a$ driven by `[[input]]`)
//! add the load ports of [`KirchhoffHhj::load`].
//!
//! With both a rod and attachments, the point ports act on the welded plate (its system is
//! the "plate" of the point assembly: blocks `plate.plate.*`, `plate.rod.body`).
//!
//! The whole file is parsed once ([`PlateAssemblyFile`]); its `[plate]` table and `[model]`,
//! `[simulation]`, `[output]`, `[modes]` are validated and built by
//! [`crate::kinds::plate::build()`]; the HHJ plate is then rebuilt with the rod's essential
//! velocity port and the load ports, and assembled.
use std::collections::BTreeMap;
use std::sync::Arc;

use phlex_core::LinearPhSystem;
use phlex_fem::mesh::Mesh2d;
use phlex_fem::models::plate::{EdgeCondition, KirchhoffHhj, KirchhoffModel};
use phlex_mbs::models::plate_assembly::{
    assemble_point_components, weld_rigid_rod, DeltaApprox, LumpedComponent, PlateAssemblyError,
    PointComponent, ProofMassActuator, RigidAttachment, RigidRod, RodAxis,
};
use phlex_solve::eigen::{EigenMethod, EigenParams};
use phlex_solve::signal::InputFn;
use serde::Deserialize;
use toml::Spanned;

use crate::continuum::{port_inputs, FieldFile, FieldFn, FieldTables};
use crate::error::{error_at, ModelError};
use crate::kinds::plate::file::{PlateSpec, PlateTables};
use crate::kinds::plate::{BuiltPlate, PlateFile, PlateModel};
use crate::material::Table;
use crate::spec::PortInput;

/// A plate assembly model file: the shared continuum tables of the plate file
/// ([`FieldTables`]: `[model]`, `[initial]`, `[simulation]`, `[output]`, `[modes]`,
/// `[[input]]`) and
/// [`AssemblyTables`].
///
/// [`FieldTables`]: crate::continuum::FieldTables
pub type PlateAssemblyFile = FieldFile<AssemblyTables>;

/// The tables of a plate assembly: the plate's and the assembly's (`[point_loads]`,
/// `[attachments.*]`, `[rod]`, `[loads.*]`; the shared `[[input]]` drives the ports of the
/// assembly).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssemblyTables {
    /// The Kirchhoff HHJ plate.
    pub plate: PlateSpec,
    /// The Dirac approximation of the point ports.
    pub point_loads: Option<PointLoadsSpec>,
    /// Lumped components at points.
    #[serde(default)]
    pub attachments: BTreeMap<String, AttachmentSpec>,
    /// A rigid rod welded along an edge.
    pub rod: Option<RodSpec>,
    /// Distributed load ports.
    #[serde(default)]
    pub loads: BTreeMap<String, LoadSpec>,
}

/// `[point_loads]`: the Dirac approximation of the point ports.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointLoadsSpec {
    /// `"box"` (renormalised inside the plate, default), `"box_literal"` (thesis eq.
    /// (10.13) as printed) or `"point"` (exact point evaluation).
    pub delta: Option<Spanned<String>>,
    /// Half-width of the box along x \[m\] (default: one cell, `lx / nx`).
    pub hx: Option<Spanned<f64>>,
    /// Half-width of the box along y \[m\] (default: one cell, `ly / ny`).
    pub hy: Option<Spanned<f64>>,
}

/// `[attachments.<name>]`: a lumped component at a point of the plate.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttachmentSpec {
    /// `"proof_mass_actuator"` or `"rigid"`.
    pub kind: Spanned<String>,
    /// Attachment point \[m\] (mesh coordinates).
    pub at: Spanned<Vec<f64>>,
    /// Actuator: casing mass \[kg\].
    pub casing_mass: Option<Spanned<f64>>,
    /// Actuator: casing inertia about x [kg m²].
    pub casing_jxx: Option<Spanned<f64>>,
    /// Actuator: casing inertia about y [kg m²].
    pub casing_jyy: Option<Spanned<f64>>,
    /// Actuator: proof mass \[kg\].
    pub proof_mass: Option<Spanned<f64>>,
    /// Actuator: suspension stiffness [N/m].
    pub stiffness: Option<Spanned<f64>>,
    /// Actuator: suspension damping [N s/m] (default 0).
    pub damping: Option<Spanned<f64>>,
    /// Rigid body: mass \[kg\].
    pub mass: Option<Spanned<f64>>,
    /// Rigid body: static moment $s^x$ coupling heave and rotation about x [kg m] (default 0).
    pub static_moment_x: Option<Spanned<f64>>,
    /// Rigid body: inertia about x at the attachment point [kg m²].
    pub jxx: Option<Spanned<f64>>,
    /// Rigid body: inertia about y at the attachment point [kg m²].
    pub jyy: Option<Spanned<f64>>,
}

/// `[rod]`: a rigid rod welded along a straight edge.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RodSpec {
    /// Edge tag (`left`, `right`, `bottom`, `top` or a Gmsh physical line).
    pub edge: Spanned<String>,
    /// Rod direction `"x"` or `"y"` (default: along the edge).
    pub axis: Option<Spanned<String>>,
    /// Mass \[kg\].
    pub mass: Spanned<f64>,
    /// Length \[m\] (for the default inertia $mL^2/12$).
    pub length: Option<Spanned<f64>>,
    /// Inertia about the tilt axis through G [kg m²] (default $mL^2/12$).
    pub inertia: Option<Spanned<f64>>,
    /// Coordinate of the centre of mass G along the rod \[m\] (default: the edge midpoint).
    pub center: Option<Spanned<f64>>,
}

/// `[loads.<name>]`: a distributed load port, density $a(t) f(x, y)$ \[Pa\].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadSpec {
    /// $f(x, y)$ [Pa per unit amplitude].
    pub profile: Spanned<String>,
}

/// A parsed and built plate assembly.
pub struct BuiltAssembly {
    /// Model name.
    pub name: String,
    /// The plate alone (its states are the first `plate.n_states()` of the assembly).
    pub plate: KirchhoffModel,
    /// The coupled system.
    pub system: LinearPhSystem,
    /// Point components (name, point, kind) in file order.
    pub components: Vec<PointComponent>,
    /// The rod, its edge tag and axis.
    pub rod: Option<(RigidRod, String, RodAxis)>,
    /// Inputs of every port of the coupled system.
    pub input: InputFn,
    /// Initial state (at rest).
    pub initial: Vec<f64>,
    /// Velocity probes: name and point.
    pub probes: Vec<(String, [f64; 2])>,
    /// Shift [rad/s] of the eigen-solver (module docs of [`BuiltAssembly::eigen_params`]).
    pub shift: f64,
}

impl BuiltAssembly {
    /// Eigensolver settings for the `n` lowest modes: shift-and-invert Arnoldi at
    /// [`Self::shift`], a quarter of the clamped-free beam fundamental
    /// $3.516/L^2\sqrt{D/\rho h}$ over the longest side $L$ (the lowest frequency a
    /// supported plate can have, lowered further by the attached masses: the shift lies
    /// below the spectrum, so the nearest modes are the lowest), as
    /// [`phlex_mbs::models::plate_assembly::ActuatedPlate::modes`] (Ritz tolerance 1e-9, the round-off
    /// images of the kernel of the HHJ $J$ rejected below 1e-6 of the spectral radius).
    pub fn eigen_params(&self, n: usize) -> EigenParams {
        EigenParams {
            n_modes: Some(n),
            method: EigenMethod::ShiftInvert,
            shift: Some(self.shift),
            tol: 1e-9,
            zero_tol: 1e-6,
            max_krylov: Some((20 * n + 100).max(400)),
            ..Default::default()
        }
    }
}

/// Builds the parsed plate assembly `a` of `file` (its `text` for the lines of errors);
/// returns the built assembly.
pub fn build(file: &str, text: &str, a: &PlateAssemblyFile) -> Result<BuiltAssembly, ModelError> {
    let err = |span: std::ops::Range<usize>, message: String| error_at(file, text, span, message);
    let theory = a.plate.theory.get_ref().as_str();
    let what = if a.rod.is_some() {
        "[rod]"
    } else if !a.attachments.is_empty() {
        "[attachments]"
    } else {
        "[loads]"
    };
    if theory != "kirchhoff" {
        return Err(err(
            a.plate.theory.span(),
            format!("plate.theory = '{theory}': plates with {what} must be theory = \"kirchhoff\" (HHJ; thesis 004 §10.2)"),
        ));
    }
    if let Some(e) = a.plate.element.as_ref().filter(|e| e.get_ref() != "hhj") {
        return Err(err(
            e.span(),
            format!(
                "plate.element = '{}': plates with {what} use the HHJ element; remove the key or set \"hhj\"",
                e.get_ref()
            ),
        ));
    }
    if let Some(rod) = &a.rod {
        if let Some(c) = a.plate.edges.get(rod.edge.get_ref()) {
            return Err(err(
                c.span(),
                format!(
                    "plate.edges.{}: this edge carries the welded rod ([rod] edge = \"{}\"); remove it from plate.edges",
                    rod.edge.get_ref(),
                    rod.edge.get_ref()
                ),
            ));
        }
    }
    // the plate, validated and built as a plate file (the assembly's inputs act on the
    // assembled ports)
    let base = crate::kinds::plate::build(
        file,
        text,
        &PlateFile {
            shared: FieldTables {
                input: Vec::new(),
                ..a.shared.clone()
            },
            own: PlateTables {
                plate: a.plate.clone(),
                damping: Vec::new(),
            },
        },
    )?;
    let PlateModel::Kirchhoff(m0) = &base.model else {
        return Err(err(
            a.plate.theory.span(),
            "plate: assemblies need the HHJ Kirchhoff plate".into(),
        ));
    };
    if let Some((name, expr)) = a.shared.initial.iter().next() {
        return Err(err(
            expr.span(),
            format!("initial.{name}: plate assemblies start from rest; remove [initial]"),
        ));
    }
    let mesh: &Mesh2d = base.model.mesh();
    let names = mesh.tag_names();
    // rebuild the HHJ plate with the load ports and the rod's velocity port
    let mut plate = KirchhoffHhj::new(*m0.params(), mesh, m0.degree())
        .map_err(|e| err(a.plate.theory.span(), format!("plate: {e}")))?;
    for (edge, cond) in &a.plate.edges {
        plate = match cond.get_ref().as_str() {
            "clamped" => plate.clamped(edge),
            "simply_supported" => plate.simply_supported(edge),
            "port" => plate.port(edge, EdgeCondition::Free),
            _ => plate.free(edge),
        };
    }
    for (name, l) in &a.loads {
        let g = FieldFn::parse(l.profile.get_ref(), 2)
            .map_err(|m| err(l.profile.span(), format!("loads.{name}.profile: {m}")))?;
        plate = plate.load(name, Arc::new(move |x| g.eval2(x)));
    }
    let mut rod_info = None;
    if let Some(r) = &a.rod {
        let edge = r.edge.get_ref();
        Table::new(file, text, "rod").boundary_tag("edge", (edge, r.edge.span()), &names, true)?;
        let axis = rod_axis(mesh, r).map_err(|(span, m)| err(span, m))?;
        let inertia = match (&r.inertia, &r.length) {
            (Some(j), _) => *j.get_ref(),
            (None, Some(l)) => *r.mass.get_ref() * l.get_ref().powi(2) / 12.0,
            (None, None) => {
                return Err(err(
                    r.mass.span(),
                    "rod: give `length` (inertia m L²/12 about the tilt axis) or `inertia`".into(),
                ))
            }
        };
        for (key, v) in [
            ("mass", Some(&r.mass)),
            ("length", r.length.as_ref()),
            ("inertia", r.inertia.as_ref()),
        ] {
            if let Some(v) = v {
                if !(*v.get_ref() > 0.0 && v.get_ref().is_finite()) {
                    return Err(err(
                        v.span(),
                        format!("rod.{key} = {}: must be > 0", v.get_ref()),
                    ));
                }
            }
        }
        plate = plate.port(edge, EdgeCondition::SimplySupported);
        rod_info = Some((
            RigidRod {
                mass: *r.mass.get_ref(),
                inertia,
            },
            edge.clone(),
            axis,
        ));
    }
    let model = plate
        .build()
        .map_err(|e| err(a.plate.theory.span(), format!("plate: {e}")))?;
    // point components
    let delta = delta_of(a, &base, mesh).map_err(|(span, m)| err(span, m))?;
    let mut components = Vec::new();
    let mut spans = BTreeMap::new();
    for (name, c) in &a.attachments {
        let at = c.at.get_ref();
        if at.len() != 2 || at.iter().any(|v| !v.is_finite()) {
            return Err(err(
                c.at.span(),
                format!("attachments.{name}.at: give the point as [x, y] in metres"),
            ));
        }
        let component = component_of(name, c).map_err(|(span, m)| err(span, m))?;
        spans.insert(name.clone(), c.at.span());
        components.push(PointComponent {
            name: name.clone(),
            at: [at[0], at[1]],
            component,
        });
    }
    let lib_err = |e: PlateAssemblyError| match &e {
        PlateAssemblyError::PointOutside { port, .. } if spans.contains_key(port) => {
            err(spans[port].clone(), format!("attachments.{port}.at: {e}"))
        }
        PlateAssemblyError::InvalidParameter { component, .. } if spans.contains_key(component) => {
            err(
                spans[component].clone(),
                format!("attachments.{component}: {e}"),
            )
        }
        _ => err(a.plate.theory.span(), format!("plate assembly: {e}")),
    };
    let (system, components) = if components.is_empty() {
        match rod_info.as_ref() {
            Some((rod, edge, axis)) => {
                let w = weld_rigid_rod(&model, edge, *axis, rod).map_err(lib_err)?;
                (w.system, Vec::new())
            }
            // distributed loads only: the plate itself, ports `plate.<name>`
            None => (
                phlex_core::interconnect::Composite::new()
                    .add("plate", model.system())
                    .and_then(|c| c.build())
                    .map_err(|e| lib_err(e.into()))?,
                Vec::new(),
            ),
        }
    } else if let Some((rod, edge, axis)) = &rod_info {
        // weld first (the rod is part of the "plate" of the point assembly)
        let w = weld_rigid_rod(&model, edge, *axis, rod).map_err(lib_err)?;
        let ap = assemble_on(&model, &w.system, &components, delta).map_err(lib_err)?;
        (ap, components)
    } else {
        let ap = assemble_point_components(&model, &components, delta).map_err(lib_err)?;
        (ap.system, components)
    };
    system.check(&Default::default()).map_err(|e| {
        err(
            a.plate.theory.span(),
            format!("assembly structure check: {e}"),
        )
    })?;
    // inputs: plate ports are `plate.<port>` in the assembly; accept the bare name
    let inputs: Vec<PortInput> = a
        .shared
        .input
        .iter()
        .map(|i| {
            let p = i.port.get_ref();
            let name = [p.clone(), format!("plate.{p}"), format!("plate.plate.{p}")]
                .into_iter()
                .find(|n| system.ports.range(n).is_ok())
                .unwrap_or_else(|| p.clone());
            PortInput {
                port: Spanned::new(i.port.span(), name),
                value: i.value.clone(),
            }
        })
        .collect();
    let input = port_inputs(
        file,
        text,
        &system,
        &inputs,
        "declare a distributed load in [loads.<name>] or an edge as \"port\" in plate.edges",
    )?;
    let initial = vec![0.0; system.n_states()];
    // eigen shift: a quarter of the cantilever fundamental over the longest side
    let v = model.params().stiffness.voigt();
    let d = v[0][0].max(v[1][1]);
    let l = base.lx.max(base.ly);
    let shift = 0.25 * 3.516 / (l * l) * (d / model.params().surface_density()).sqrt();
    Ok(BuiltAssembly {
        name: base.name.clone(),
        plate: model,
        system,
        components,
        rod: rod_info,
        input,
        initial,
        probes: base.probes.clone(),
        shift,
    })
}

/// Point components coupled to an already welded plate system (`plate` + `rod`).
fn assemble_on(
    plate: &KirchhoffModel,
    welded: &LinearPhSystem,
    components: &[PointComponent],
    delta: DeltaApprox,
) -> Result<LinearPhSystem, PlateAssemblyError> {
    // the point ports act on the plate states, which come first in the welded system
    use phlex_core::sparse::Triplets;
    use phlex_core::{Port, PortSet};
    let n = welded.n_states();
    let m0 = welded.n_inputs();
    let mut t = Triplets::new(n, m0 + 3 * components.len());
    t.push_block(0, 0, &welded.B, 1.0);
    let mut set: PortSet = welded.ports.clone();
    for (k, c) in components.iter().enumerate() {
        let B = phlex_mbs::models::plate_assembly::point_input_matrix(plate, &c.name, c.at, delta)?;
        t.push_block(0, m0 + 3 * k, &B, 1.0);
        set.push(Port::new(
            c.name.clone(),
            3,
            "force F_z and torques T_x, T_y at the point [N, N m, N m]",
            "velocity w_t and rotation rates d_y w_t, -d_x w_t at the point [m/s, rad/s, rad/s]",
        ))?;
    }
    let ps = LinearPhSystem::new(
        welded.E.clone(),
        welded.J.clone(),
        welded.R.clone(),
        t.build(),
        set,
        welded.blocks.clone(),
    )?;
    let mut comp = phlex_core::interconnect::Composite::new().add("plate", &ps)?;
    for c in components {
        comp = comp.add(&c.name, &c.component.system(&c.name)?)?;
    }
    let I3 = faer::Mat::<f64>::identity(3, 3);
    for c in components {
        comp = comp.transformer(
            &format!("plate.{}", c.name),
            &format!("{}.u", c.name),
            &I3,
            &format!("lambda_{}", c.name),
        )?;
    }
    Ok(comp.build()?)
}

type SpanErr = (std::ops::Range<usize>, String);

/// The rod axis from the edge geometry (and the optional `axis`, `center` keys).
fn rod_axis(mesh: &Mesh2d, r: &RodSpec) -> Result<RodAxis, SpanErr> {
    let edge = r.edge.get_ref();
    let bes = mesh
        .tagged_edges(edge)
        .map_err(|e| (r.edge.span(), format!("rod.edge = '{edge}': {e}")))?;
    let n0 = mesh.outward_normal(&bes[0]);
    let along_y = n0[0].abs() > 1.0 - 1e-9;
    let along_x = n0[1].abs() > 1.0 - 1e-9;
    let straight = bes.iter().all(|b| {
        let n = mesh.outward_normal(b);
        (n[0] - n0[0]).abs() < 1e-9 && (n[1] - n0[1]).abs() < 1e-9
    });
    if !(straight && (along_x || along_y)) {
        return Err((
            r.edge.span(),
            format!("rod.edge = '{edge}': the rod needs a straight edge parallel to x or y"),
        ));
    }
    let c = usize::from(along_y); // coordinate along the rod: y for a rod along y
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for b in &bes {
        for &v in &mesh.edges()[b.edge] {
            lo = lo.min(mesh.vertices()[v][c]);
            hi = hi.max(mesh.vertices()[v][c]);
        }
    }
    if let Some(ax) = &r.axis {
        let want = if along_y { "y" } else { "x" };
        if ax.get_ref() != want {
            return Err((
                ax.span(),
                format!(
                    "rod.axis = '{}': the edge '{edge}' runs along {want}",
                    ax.get_ref()
                ),
            ));
        }
    }
    let g = r.center.as_ref().map_or(0.5 * (lo + hi), |c| *c.get_ref());
    Ok(if along_y {
        RodAxis::AlongY { y_g: g }
    } else {
        RodAxis::AlongX { x_g: g }
    })
}

/// The Dirac approximation of `[point_loads]`.
fn delta_of(
    a: &PlateAssemblyFile,
    base: &BuiltPlate,
    _mesh: &Mesh2d,
) -> Result<DeltaApprox, SpanErr> {
    let spec = a.point_loads.clone().unwrap_or(PointLoadsSpec {
        delta: None,
        hx: None,
        hy: None,
    });
    let cell = |n: &Option<Spanned<usize>>, l: f64, key: &str, h: &Option<Spanned<f64>>| {
        if let Some(h) = h {
            let v = *h.get_ref();
            return if v > 0.0 && v.is_finite() {
                Ok(v)
            } else {
                Err((h.span(), format!("point_loads.{key} = {v}: must be > 0")))
            };
        }
        match n {
            Some(n) => Ok(l / *n.get_ref() as f64),
            None => Err((
                a.plate.theory.span(),
                format!("point_loads.{key}: give the box half-width (no structured mesh to take one cell from)"),
            )),
        }
    };
    let kind = spec
        .delta
        .as_ref()
        .map(|d| (d.get_ref().as_str(), d.span()));
    match kind {
        Some(("point", _)) => Ok(DeltaApprox::Point),
        None | Some(("box", _)) | Some(("box_literal", _)) => {
            let hx = cell(&a.plate.shared.nx, base.lx, "hx", &spec.hx)?;
            let hy = cell(&a.plate.shared.ny, base.ly, "hy", &spec.hy)?;
            Ok(if matches!(kind, Some(("box_literal", _))) {
                DeltaApprox::Box { hx, hy }
            } else {
                DeltaApprox::BoxClipped { hx, hy }
            })
        }
        Some((other, span)) => Err((
            span,
            format!("point_loads.delta = '{other}': use \"box\" (renormalised inside the plate), \"box_literal\" or \"point\""),
        )),
    }
}

/// The lumped component of an `[attachments.<name>]` table.
fn component_of(name: &str, c: &AttachmentSpec) -> Result<LumpedComponent, SpanErr> {
    let kind = c.kind.get_ref().as_str();
    let keys: [(&str, &Option<Spanned<f64>>); 10] = [
        ("casing_mass", &c.casing_mass),
        ("casing_jxx", &c.casing_jxx),
        ("casing_jyy", &c.casing_jyy),
        ("proof_mass", &c.proof_mass),
        ("stiffness", &c.stiffness),
        ("damping", &c.damping),
        ("mass", &c.mass),
        ("static_moment_x", &c.static_moment_x),
        ("jxx", &c.jxx),
        ("jyy", &c.jyy),
    ];
    let allowed: &[&str] = match kind {
        "proof_mass_actuator" => &[
            "casing_mass",
            "casing_jxx",
            "casing_jyy",
            "proof_mass",
            "stiffness",
            "damping",
        ],
        "rigid" => &["mass", "static_moment_x", "jxx", "jyy"],
        other => {
            return Err((
                c.kind.span(),
                format!(
                    "attachments.{name}.kind = '{other}': use \"proof_mass_actuator\" or \"rigid\""
                ),
            ))
        }
    };
    for (k, v) in keys {
        if let Some(v) = v {
            if !allowed.contains(&k) {
                return Err((
                    v.span(),
                    format!(
                        "attachments.{name}.{k} is not a key of a '{kind}' attachment (keys: {})",
                        allowed.join(", ")
                    ),
                ));
            }
        }
    }
    let get = |k: &str, default: Option<f64>| -> Result<f64, SpanErr> {
        let v = keys
            .iter()
            .find(|(n, _)| *n == k)
            .and_then(|(_, v)| v.as_ref());
        match (v, default) {
            (Some(v), _) => Ok(*v.get_ref()),
            (None, Some(d)) => Ok(d),
            (None, None) => Err((
                c.kind.span(),
                format!(
                    "attachments.{name}.{k} is missing (a '{kind}' attachment needs {})",
                    allowed.join(", ")
                ),
            )),
        }
    };
    let comp = if kind == "rigid" {
        LumpedComponent::Rigid(RigidAttachment::mirror(
            get("mass", None)?,
            get("static_moment_x", Some(0.0))?,
            get("jxx", None)?,
            get("jyy", None)?,
        ))
    } else {
        LumpedComponent::Actuator(ProofMassActuator {
            casing_mass: get("casing_mass", None)?,
            casing_jxx: get("casing_jxx", None)?,
            casing_jyy: get("casing_jyy", None)?,
            proof_mass: get("proof_mass", None)?,
            stiffness: get("stiffness", None)?,
            damping: get("damping", Some(0.0))?,
        })
    };
    comp.system(name)
        .map_err(|e| (c.kind.span(), format!("attachments.{name}: {e}")))?;
    Ok(comp)
}
