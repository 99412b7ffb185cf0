//! From a parsed beam model file to a pH system with inputs, initial state and probes.
use std::sync::Arc;

use phlex_core::interconnect::feedback_damping;
use phlex_core::sparse::Triplets;
use phlex_core::structure::Tolerances;
use phlex_core::LinearPhSystem;
use phlex_fem::models::beam::bar::{Bar, BarDiscretization};
use phlex_fem::models::beam::euler_bernoulli::{EbDiscretization, EulerBernoulli};
use phlex_fem::models::beam::timoshenko::{Timoshenko, TimoshenkoDiscretization};
use phlex_fem::{EndCondition, Field, Imposition, PfemModel, SparseVec};
use phlex_solve::signal::InputFn;
use toml::Spanned;

use super::file::{EndSpec, ImpositionSpec, ModelFile, Theory};
use super::spatial::SpatialFn;
use crate::error::{line_of, ModelError};
use crate::spec::signal;

/// A model ready to simulate.
pub struct Built {
    /// Model name.
    pub name: String,
    /// The discretized structure (spaces, probes, projections).
    pub model: PfemModel,
    /// The pH system after output-feedback damping.
    pub system: LinearPhSystem,
    /// Inputs of every open port.
    pub input: InputFn,
    /// Initial state.
    pub initial: Vec<f64>,
    /// Named probes (linear functionals of the state).
    pub probes: Vec<(String, SparseVec)>,
    /// Ports whose u, y and power are recorded.
    pub recorded_ports: Vec<String>,
}

struct Ctx<'a> {
    file: &'a str,
    text: &'a str,
}

impl Ctx<'_> {
    fn err<T>(&self, span: std::ops::Range<usize>, message: String) -> Result<T, ModelError> {
        Err(ModelError {
            file: self.file.into(),
            line: line_of(self.text, span.start),
            message,
        })
    }
    fn key_line(&self, needle: &str) -> std::ops::Range<usize> {
        let p = self.text.find(needle).unwrap_or(0);
        p..p
    }
    /// The input columns of the open port named by `key = port` (an error naming the open
    /// ports, with `hint`, if there is none).
    fn port_range(
        &self,
        system: &LinearPhSystem,
        key: &str,
        port: &Spanned<String>,
        hint: &str,
    ) -> Result<std::ops::Range<usize>, ModelError> {
        let name = port.get_ref();
        system.ports.range(name).or_else(|_| {
            self.err(
                port.span(),
                format!(
                    "{key} = \"{name}\" is not an open port of this model; open ports: {}{hint}",
                    system.ports.names().join(", ")
                ),
            )
        })
    }
}

/// Field by its model-file name.
pub fn field_by_name(name: &str) -> Option<Field> {
    Some(match name {
        "velocity" => Field::Velocity,
        "angular_velocity" => Field::AngularVelocity,
        "moment" => Field::Moment,
        "shear_force" => Field::ShearForce,
        "normal_force" => Field::NormalForce,
        _ => return None,
    })
}

const FIELD_NAMES: &str = "velocity, angular_velocity, moment, shear_force, normal_force";

fn end_condition(e: EndSpec) -> EndCondition {
    match e {
        EndSpec::Free => EndCondition::Free,
        EndSpec::Clamped => EndCondition::Clamped,
        EndSpec::SimplySupported => EndCondition::SimplySupported,
        EndSpec::Port => EndCondition::Port,
    }
}

fn degree(
    ctx: &Ctx,
    d: &Spanned<String>,
    prefix: &str,
    allowed: &str,
) -> Result<usize, ModelError> {
    let s = d.get_ref();
    let k = s
        .strip_prefix(prefix)
        .and_then(|r| r.parse::<usize>().ok())
        .filter(|k| (1..=3).contains(k));
    match k {
        Some(k) => Ok(k),
        None => ctx.err(
            d.span(),
            format!("beam.discretization = \"{s}\" is not one of {allowed}"),
        ),
    }
}

/// The mixed discretization `CGDGk` (`(true, k)`) or `DGCGk` (`(false, k)`) of the bar and
/// Timoshenko beams.
fn mixed_degree(ctx: &Ctx, disc: &Spanned<String>) -> Result<(bool, usize), ModelError> {
    let allowed = "CGDG1..3, DGCG1..3";
    if disc.get_ref().starts_with("CGDG") {
        Ok((true, degree(ctx, disc, "CGDG", allowed)?))
    } else {
        Ok((false, degree(ctx, disc, "DGCG", allowed)?))
    }
}

/// The builder `b` with the distributed load ports `loads` (name, profile) added by
/// `load`.
fn with_loads<B>(
    b: B,
    loads: &[(String, phlex_fem::Profile)],
    load: impl Fn(B, String, phlex_fem::Profile) -> B,
) -> B {
    loads
        .iter()
        .fold(b, |b, (n, p)| load(b, n.clone(), p.clone()))
}

/// Builds the discretized model described by `m`.
pub fn build(file: &str, text: &str, m: &ModelFile) -> Result<Built, ModelError> {
    let ctx = Ctx { file, text };
    let b = &m.beam;
    let rho = *b.density.get_ref();
    let area = *b.area.get_ref();
    let e_mod = *b.youngs_modulus.get_ref();
    let length = *b.length.get_ref();
    let n_el = *b.elements.get_ref() as usize;
    let (left, right) = (end_condition(b.left), end_condition(b.right));
    let imposition = match b.imposition {
        ImpositionSpec::Strong => Imposition::Strong,
        ImpositionSpec::Multiplier => Imposition::Multiplier,
    };
    let mut loads = Vec::new();
    for l in &m.load {
        let f = SpatialFn::parse(&l.profile).or_else(|e| {
            ctx.err(
                ctx.key_line(&l.profile),
                format!("load '{}': profile {e}", l.name),
            )
        })?;
        let profile: phlex_fem::Profile = Arc::new(move |x| f.eval(x));
        loads.push((l.name.clone(), profile));
    }
    let disc = &b.discretization;
    let fem = match b.theory {
        Theory::EulerBernoulli => {
            let ei = e_mod
                * b.second_moment
                    .as_ref()
                    .map(|v| *v.get_ref())
                    .unwrap_or(0.0);
            let allowed = "HerDG1, DG1Her, CGCG1, CGCG2, CGCG3";
            let d = match disc.get_ref().as_str() {
                "HerDG1" => EbDiscretization::HerDg1,
                "DG1Her" => EbDiscretization::Dg1Her,
                _ => EbDiscretization::CgCg(degree(&ctx, disc, "CGCG", allowed)?),
            };
            let beam = EulerBernoulli::new(rho * area, ei, length, n_el)
                .discretization(d)
                .ends(left, right)
                .imposition(imposition);
            with_loads(beam, &loads, |b, n, p| b.load(n, p)).build()
        }
        Theory::Timoshenko => {
            let i = b
                .second_moment
                .as_ref()
                .map(|v| *v.get_ref())
                .unwrap_or(0.0);
            let g = b
                .shear_modulus
                .as_ref()
                .map(|v| *v.get_ref())
                .unwrap_or(0.0);
            let k = b
                .shear_factor
                .as_ref()
                .map(|v| *v.get_ref())
                .unwrap_or(5.0 / 6.0);
            let d = match mixed_degree(&ctx, disc)? {
                (true, k) => TimoshenkoDiscretization::CgDg(k),
                (false, k) => TimoshenkoDiscretization::DgCg(k),
            };
            let beam = Timoshenko::new(rho * area, rho * i, e_mod * i, k * g * area, length, n_el)
                .discretization(d)
                .ends(left, right)
                .imposition(imposition);
            with_loads(beam, &loads, |b, n, p| b.load(n, p)).build()
        }
        Theory::Bar => {
            let d = match mixed_degree(&ctx, disc)? {
                (true, k) => BarDiscretization::CgDg(k),
                (false, k) => BarDiscretization::DgCg(k),
            };
            let bar = Bar::new(rho * area, e_mod * area, length, n_el)
                .discretization(d)
                .ends(left, right)
                .imposition(imposition);
            with_loads(bar, &loads, |b, n, p| b.load(n, p)).build()
        }
    };
    let model = fem.or_else(|e| {
        ctx.err(
            ctx.key_line("[beam]"),
            format!("cannot build the beam: {e}"),
        )
    })?;
    let mut system = model.system().clone();

    // Output-feedback damping u = −K y on the named ports.
    for d in &m.damping {
        let port = d.port.get_ref();
        let range = ctx.port_range(&system, "damping.port", &d.port, "")?;
        let gains = d.gain.get_ref();
        if gains.len() != 1 && gains.len() != range.len() {
            return ctx.err(
                d.gain.span(),
                format!(
                    "damping.gain: give 1 or {} values for port '{port}'",
                    range.len()
                ),
            );
        }
        if let Some(g) = gains.iter().find(|g| !(**g >= 0.0)) {
            return ctx.err(
                d.gain.span(),
                format!("damping.gain must be >= 0 (got {g})"),
            );
        }
        let mut k = Triplets::new(range.len(), range.len());
        for i in 0..range.len() {
            k.push(i, i, if gains.len() == 1 { gains[0] } else { gains[i] });
        }
        system = feedback_damping(&system, port, &k.build())
            .or_else(|e| ctx.err(d.port.span(), format!("damping on '{port}': {e}")))?;
    }
    system.check(&Tolerances::default()).or_else(|e| {
        ctx.err(
            ctx.key_line("[beam]"),
            format!("structure check failed: {e}"),
        )
    })?;

    // Inputs: loads' amplitudes, then [[input]] signals on ports.
    let mut input = InputFn::zeros(system.n_inputs());
    for l in &m.load {
        let r = system
            .ports
            .range(&l.name)
            .expect("load ports exist by construction");
        let s = signal(l.amplitude.get_ref()).or_else(|e| {
            ctx.err(
                l.amplitude.span(),
                format!("load '{}': amplitude {e}", l.name),
            )
        })?;
        input.set(r.start, s);
    }
    for i in &m.input {
        let port = i.port.get_ref();
        let range = ctx.port_range(
            &system,
            "input.port",
            &i.port,
            " (an end keeps a port when its condition is \"port\", or with imposition = \"multiplier\")",
        )?;
        let values = i.values.get_ref();
        if values.len() != range.len() {
            return ctx.err(
                i.values.span(),
                format!(
                    "input.values for port '{port}' needs {} signals ({}), got {}",
                    range.len(),
                    system
                        .ports
                        .get(port)
                        .map(|p| p.input.clone())
                        .unwrap_or_default(),
                    values.len()
                ),
            );
        }
        for (k, v) in values.iter().enumerate() {
            let s = signal(v)
                .or_else(|e| ctx.err(i.values.span(), format!("input '{port}'[{k}]: {e}")))?;
            input.set(range.start + k, s);
        }
    }

    // Initial state: sum of projections of the given fields.
    let mut initial = vec![0.0; system.n_states()];
    for (name, expr) in &m.initial {
        let Some(field) = field_by_name(name) else {
            return ctx.err(
                ctx.key_line(name),
                format!("initial.{name}: unknown field; known fields: {FIELD_NAMES}"),
            );
        };
        let f = SpatialFn::parse(expr)
            .or_else(|e| ctx.err(ctx.key_line(name), format!("initial.{name}: {e}")))?;
        let p = model
            .project(field, &|x| f.eval(x))
            .or_else(|e| ctx.err(ctx.key_line(name), format!("initial.{name}: {e}")))?;
        for (a, b) in initial.iter_mut().zip(p) {
            *a += b;
        }
    }

    // Multiplier models: project the initial state onto the constraints and compute
    // consistent multipliers (phlex_solve::consistent).
    let initial = phlex_solve::consistent::consistent_initial_state(&system, &input, 0.0, &initial)
        .or_else(|e| {
            ctx.err(
                ctx.key_line("[beam]"),
                format!("consistent initialization failed: {e}"),
            )
        })?
        .state;

    let mut probes = Vec::new();
    for p in &m.output.probes {
        let Some(field) = field_by_name(p.field.get_ref()) else {
            return ctx.err(
                p.field.span(),
                format!(
                    "output.probes '{}': unknown field '{}'; known fields: {FIELD_NAMES}",
                    p.name,
                    p.field.get_ref()
                ),
            );
        };
        let row = model
            .probe(field, *p.x.get_ref())
            .or_else(|e| ctx.err(p.field.span(), format!("output.probes '{}': {e}", p.name)))?;
        probes.push((p.name.clone(), row));
    }
    let mut recorded_ports = Vec::new();
    for p in &m.output.ports {
        if system.ports.get(p.get_ref()).is_none() {
            return ctx.err(
                p.span(),
                format!(
                    "output.ports: '{}' is not an open port; open ports: {}",
                    p.get_ref(),
                    system.ports.names().join(", ")
                ),
            );
        }
        recorded_ports.push(p.get_ref().clone());
    }
    Ok(Built {
        name: m.model.name.clone(),
        model,
        system,
        input,
        initial,
        probes,
        recorded_ports,
    })
}
