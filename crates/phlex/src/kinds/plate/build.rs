//! From a parsed plate model file to the assembled plate ([`build`]): theory and element,
//! material or plies, mesh, edge conditions, distributed loads, thermal coupling, inputs,
//! initial fields and probes, every error naming its key and line.
//!
//! The file maps onto the Rust API of [`phlex_fem::models::plate`]: `[plate]` ↔ [`MindlinCgDg`]
//! (and the other elements) on a structured rectangle mesh ([`Mesh2d::rectangle`](phlex_fem::mesh::Mesh2d::rectangle)) with
//! every edge (`left`, `right`, `bottom`, `top`) clamped strongly, clamped by multipliers
//! (`clamped_weak`, an index-2 pHDAE), free, or a traction port (`port`: inputs
//! `<edge>_qn`, `<edge>_Mnn`, `<edge>_Mns`, thesis 004 §4.1.1 and summary §2.5);
//! `[[input]]` drives a port with a traction uniform along the edge; `[initial]`
//! interpolates fields given as expressions in `x`, `y`.
use std::collections::BTreeMap;
use std::sync::Arc;

use phlex_fem::element::triangle::bell::C1Family;
use phlex_fem::models::plate::mindlin_bjt::MindlinBjt;
use phlex_fem::models::plate::thermoelastic_kirchhoff::{
    PlateThermalParams, ThermoelasticKirchhoff,
};
use phlex_fem::models::plate::{
    BellImposition, EdgeCondition, KirchhoffBell, KirchhoffHhj, KirchhoffParams, Laminate,
    LaminatedKirchhoff, LaminatedMindlin, MembraneCondition, MindlinAfw, MindlinCgDg,
    MindlinParams, PlateField, Ply,
};
use phlex_fem::Fem2dError;
use toml::Spanned;

use super::file::PlateFile;
use super::model::{BuiltPlate, PlateModel};
use crate::continuum::{check_finite_initial, extent, port_inputs, FieldFn};
use crate::error::{line_of, ModelError};
use crate::material::Table;

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

/// Builds the parsed plate model file `f` of `file` (its `text` for the lines of errors:
/// they name the key and its line); returns the built model.
pub fn build(file: &str, text: &str, f: &PlateFile) -> Result<BuiltPlate, ModelError> {
    let err = |span: std::ops::Range<usize>, message: String| ModelError {
        file: file.into(),
        line: if span.end > 0 {
            line_of(text, span.start)
        } else {
            0
        },
        message,
    };
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
        p.shear_factor.as_ref().map(|e| e.span()),
        "shear_factor",
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
    let keys = Table::new(file, text, "plate");
    let isotropic = [
        ("youngs_modulus", &p.youngs_modulus),
        ("poisson_ratio", &p.poisson_ratio),
        ("density", &p.density),
        ("thickness", &p.thickness),
    ];
    let (e_mod, nu, rho, h) = if laminated {
        keys.reject_given(&isotropic, |key| {
            format!(
                "plate.{key}: laminated plates take their material from [[plate.plies]]; remove it"
            )
        })?;
        (0.0, 0.0, 0.0, 0.0)
    } else {
        let given = |i: usize| {
            let (key, v) = isotropic[i];
            v.as_ref().ok_or_else(|| {
                err(
                    p.theory.span(),
                    format!("plate.{key} is missing (isotropic plates need youngs_modulus, poisson_ratio, density, thickness)"),
                )
            })
        };
        let (e_mod, nu, rho, h) = (given(0)?, given(1)?, given(2)?, given(3)?);
        let m = keys.isotropic(e_mod, nu, rho)?;
        (
            m.youngs_modulus,
            m.poisson_ratio,
            m.density,
            keys.positive("thickness", h)?,
        )
    };
    let shear_factor = match &p.shear_factor {
        Some(k) => keys.positive("shear_factor", k)?,
        None => 5.0 / 6.0,
    };
    let mesh = p.shared.build("plate", p.theory.span(), file, text)?;
    let names = mesh.tag_names();
    let mut conditions = Vec::new();
    for (edge, cond) in &p.edges {
        keys.boundary_tag("edges", (edge, cond.span()), &names, true)?;
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
                k_sh: shear_factor,
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
                    if let Some(m) = &p.shared.mesh {
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
                    let (x0, y0) = (grid(&p.shared.x0), grid(&p.shared.y0));
                    let (lx, ly) = (grid(&p.shared.lx), grid(&p.shared.ly));
                    let n = |v: &Option<Spanned<usize>>| v.as_ref().map_or(0, |v| *v.get_ref());
                    let (nx, ny) = (n(&p.shared.nx), n(&p.shared.ny));
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
                            let th = Table::new(file, text, "plate.thermal").thermal(&t.shared)?;
                            let tp = PlateThermalParams {
                                young: e_mod,
                                nu,
                                expansion: th.thermal_expansion,
                                heat_capacity: th.heat_capacity,
                                conductivity: th.conductivity,
                                t0: th.reference_temperature,
                            };
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
                    let imposition = Table::new(file, text, "plate").choice(
                        "bc_imposition",
                        p.bc_imposition.as_ref(),
                        &[
                            ("exact", BellImposition::Exact),
                            ("thesis_vertex", BellImposition::ThesisVertex),
                        ],
                    )?;
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
                    E1: q.youngs_modulus_1,
                    E2: q.youngs_modulus_2,
                    nu12: q.poisson_ratio_12,
                    G12: q.shear_modulus_12,
                    G13: q.shear_modulus_13,
                    G23: q.shear_modulus_23,
                    rho: q.density,
                    thickness: q.thickness,
                    angle_deg: q.angle_deg,
                })
                .collect();
            let lam = Laminate::new(plies, shear_factor)
                .map_err(|e| err(p.theory.span(), format!("plate.plies: {e}")))?;
            let mut membrane = BTreeMap::new();
            for (edge, m) in &p.membrane {
                keys.boundary_tag("membrane", (edge, m.span()), &names, true)?;
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
            let degree = *p.degree.get_ref();
            let degree_error = |e| err(p.degree.span(), format!("plate.degree: {e}"));
            let conditions = (&edges[..], &port_edges[..]);
            let model = if theory == "laminated_kirchhoff" {
                let plate = LaminatedKirchhoff::new(lam, &mesh, degree)
                    .map_err(degree_error)?
                    .rotary_inertia(p.rotary_inertia.as_ref().is_some_and(|v| *v.get_ref()));
                laminated_model(plate, conditions)
            } else {
                let plate = LaminatedMindlin::new(lam, &mesh, degree).map_err(degree_error)?;
                laminated_model(plate, conditions)
            };
            model.map_err(|e| err(p.theory.span(), format!("plate: {e}")))?
        }
    };
    let sys = model.system();
    sys.check(&Default::default())
        .map_err(|e| err(p.theory.span(), format!("plate structure check: {e}")))?;
    let mut input = port_inputs(
        file,
        text,
        sys,
        &f.shared.input,
        "declare an edge as \"port\" in plate.edges",
    )?;
    // Bell/Argyris essential ports: a uniform edge value sets the vertex values, not their
    // derivatives (the input components are C¹ trace functionals)
    if let PlateModel::KirchhoffC1(m) = &model {
        for inp in &f.shared.input {
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
    let has_theta = matches!(
        model,
        PlateModel::Mindlin(_) | PlateModel::MindlinAfw { .. }
    );
    let has_u = laminated;
    let mut names = vec!["e_w"];
    if has_theta {
        names.extend(["e_theta_x", "e_theta_y"]);
    }
    if has_u {
        names.extend(["e_ux", "e_uy"]);
    }
    let known = if has_theta {
        "e_w, e_theta_x or e_theta_y"
    } else if has_u {
        "e_w, e_ux or e_uy (in-plane velocities)"
    } else {
        "e_w (the Kirchhoff plate's rotations follow from w)"
    };
    let mut given = f
        .shared
        .initial_fields((file, text), &names, 2, known)?
        .into_iter();
    let w0 = given.next().flatten();
    let mut next_pair = |on: bool| {
        if on {
            [given.next().flatten(), given.next().flatten()]
        } else {
            [None, None]
        }
    };
    let theta = next_pair(has_theta);
    let u0 = next_pair(has_u);
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
    check_finite_initial((file, text), &initial, "on the plate")?;
    let mut probes = Vec::new();
    for pr in &f.shared.output.probes {
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
    let name = f.shared.model.name.clone();
    // extent of the mesh (the eigen shift's length scales)
    let [lx, ly] = extent(model.mesh().vertices().iter().copied());
    Ok(BuiltPlate {
        name,
        model,
        input,
        initial,
        probes,
        lx,
        ly,
    })
}

/// The builder of a laminated plate, Kirchhoff or Mindlin: the edge conditions, traction
/// ports and build both laminated theories share.
trait LaminatedBuilder: Sized {
    /// The bending and membrane conditions of the edge `tag`.
    fn edge(self, tag: &str, bending: EdgeCondition, membrane: MembraneCondition) -> Self;
    /// A traction port on the edge `tag` with the bending condition `bending`.
    fn port(self, tag: &str, bending: EdgeCondition) -> Self;
    /// The assembled plate model.
    fn model(&self) -> Result<PlateModel, Fem2dError>;
}

/// [`LaminatedBuilder`] for the builder `$builder`, whose model is the [`PlateModel`]
/// variant of the same name.
macro_rules! laminated_builder {
    ($($builder:ident),*) => {$(
        impl LaminatedBuilder for $builder {
            fn edge(self, tag: &str, bending: EdgeCondition, membrane: MembraneCondition) -> Self {
                $builder::edge(self, tag, bending, membrane)
            }
            fn port(self, tag: &str, bending: EdgeCondition) -> Self {
                $builder::port(self, tag, bending)
            }
            fn model(&self) -> Result<PlateModel, Fem2dError> {
                self.build().map(PlateModel::$builder)
            }
        }
    )*};
}

laminated_builder!(LaminatedKirchhoff, LaminatedMindlin);

/// The laminated plate model of the builder `plate` with the conditions `edges` (tag,
/// bending, membrane) and the traction ports on `ports` (free bending).
fn laminated_model<B: LaminatedBuilder>(
    plate: B,
    (edges, ports): (&[(&str, EdgeCondition, MembraneCondition)], &[&str]),
) -> Result<PlateModel, Fem2dError> {
    let plate = edges.iter().fold(plate, |b, (tag, bending, membrane)| {
        b.edge(tag, *bending, *membrane)
    });
    ports
        .iter()
        .fold(plate, |b, tag| b.port(tag, EdgeCondition::Free))
        .model()
}
