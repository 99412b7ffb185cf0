//! One-dimensional thermal model files (format in `docs/model-format-continuum.md`):
//!
//! * `[heat]`: the heat equation of a rod as a pHDAE ([`phlex_fem::models::continuum::heat`], thesis 004
//!   §5.1.1 eqs. (5.2)–(5.5)): temperature $\theta = (T - T_0)/T_0$ and the algebraic heat
//!   flux $j_Q$, Lyapunov functional $H = \frac12\int CT_0\theta^2$, dissipation
//!   $\int j_Q^2/(kT_0)$, ends insulated, isothermal or ports (heat-flux or temperature
//!   inputs depending on the discretisation);
//! * `[thermoelastic_rod]`: linear coupled thermoelasticity in uniaxial strain
//!   ([`phlex_fem::models::continuum::thermoelastic_1d`], thesis 004 §5.1.3 eq. (5.18), PFEM (8.48)–(8.50)),
//!   with physical material data or the non-dimensional Danilovskaya form (coupling number
//!   $\delta$, thesis §8.3); with `reference = "danilovskaya"` the probes get the
//!   half-space solution (thesis (8.51)–(8.52)) inverted by de Hoog's method
//!   ([`phlex_solve::laplace_inversion::DeHoog`]) as extra columns, and the summary prints
//!   the largest deviation away from the elastic wave front.
//!
//! Both run with the implicit midpoint rule of [`crate::continuum`] (exact discrete power
//! balance $H_1 - H_0 = h(\bar y^\top u - \bar e^\top R\bar e)$) and have `phlex check`.

use anyhow::Result;
use exmex::{Express, FlatEx};
use phlex_fem::models::continuum::heat::{
    FieldBlock, Heat1d, HeatDiscretization, HeatModel, ThermalEnd,
};
use phlex_fem::models::continuum::thermoelastic_1d::{
    MechanicalEnd, ThermoField, Thermoelastic1d, ThermoelasticModel, ThermoelasticParams,
};
use phlex_solve::signal::InputFn;
use serde::Deserialize;
use toml::Spanned;

use crate::continuum::{port_inputs, FieldFile, LineOutput, LineProbe, LineSpec};
use crate::error::{error_at, ModelError};
use crate::keys::WithKeys;
use crate::kinds::thermoelastic_beam::build::parse_x;
use crate::material::Table;

/// A `[heat]` or `[thermoelastic_rod]` model file: the shared continuum tables
/// ([`FieldTables`]: `[model]`, `[initial]` ([`RodInitial`]), `[simulation]`, `[output]`
/// ([`RodOutput`]), `[modes]`, `[[input]]` on the end ports) and [`RodTables`].
///
/// [`FieldTables`]: crate::continuum::FieldTables
pub type RodFile = FieldFile<RodTables, RodInitial, RodOutput>;

/// The rod tables of the model file: one of `[heat]` and `[thermoelastic_rod]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RodTables {
    /// Heat conduction in a rod.
    pub heat: Option<HeatSpec>,
    /// Coupled thermoelastic rod.
    pub thermoelastic_rod: Option<ThermoRodSpec>,
}

/// `[heat]`: the interval keys ([`LineSpec`]; ends `left`, `right`: `"port"` (default),
/// `"insulated"` or `"isothermal"`) and [`HeatKeys`].
pub type HeatSpec = WithKeys<LineSpec, HeatKeys>;

/// The keys of `[heat]` besides the interval.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeatKeys {
    /// Degree $k$ of the continuous field (1..3, default 1).
    pub degree: Option<Spanned<usize>>,
    /// Volumetric heat capacity $C = \rho c$ \[J/(m³ K)\].
    pub heat_capacity: Spanned<f64>,
    /// Conductivity $k$ \[W/(m K)\].
    pub conductivity: Spanned<f64>,
    /// Reference temperature $T_0$ \[K\].
    pub reference_temperature: Spanned<f64>,
    /// `"flux_ports"` (default: $\theta \in CG_k$, $j_Q \in DG_{k-1}$, heat-flux inputs) or
    /// `"temperature_ports"` ($\theta \in DG_{k-1}$, $j_Q \in CG_k$, temperature inputs).
    pub discretization: Option<Spanned<String>>,
}

/// `[thermoelastic_rod]`: the interval keys ([`LineSpec`]; `length` non-dimensional with
/// `delta`; mechanical ends `left`, `right`: `"free"` (default), `"clamped"` or `"port"`,
/// a traction input) and [`ThermoRodKeys`].
pub type ThermoRodSpec = WithKeys<LineSpec, ThermoRodKeys>;

/// The keys of `[thermoelastic_rod]` besides the interval.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThermoRodKeys {
    /// Non-dimensional Danilovskaya form with coupling number $\delta > 0$ (instead of the
    /// material keys).
    pub delta: Option<Spanned<f64>>,
    /// Density $\rho$ \[kg/m³\].
    pub density: Option<Spanned<f64>>,
    /// P-wave (uniaxial-strain, constrained) modulus $\lambda + 2\mu$ \[Pa\]; not Young's
    /// modulus: the rod is in uniaxial strain.
    pub p_wave_modulus: Option<Spanned<f64>>,
    /// Thermal stress coefficient $C_\beta = T_0\beta(3\lambda + 2\mu)$ \[Pa\] (≥ 0).
    pub thermal_stress_coefficient: Option<Spanned<f64>>,
    /// Volumetric heat capacity $\rho c_\varepsilon$ \[J/(m³ K)\].
    pub heat_capacity: Option<Spanned<f64>>,
    /// Thermal conductivity $k$ \[W/(m K)\].
    pub conductivity: Option<Spanned<f64>>,
    /// Reference temperature $T_0$ \[K\].
    pub reference_temperature: Option<Spanned<f64>>,
    /// Thermal left end: `"port"` (default; temperature input), `"insulated"`, `"isothermal"`.
    pub heat_left: Option<Spanned<String>>,
    /// Thermal right end (default `"insulated"`).
    pub heat_right: Option<Spanned<String>>,
    /// `"danilovskaya"`: add the half-space solution at the probes (needs `delta`).
    pub reference: Option<Spanned<String>>,
}

/// `[initial]` of a rod.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RodInitial {
    /// Normalised temperature $\theta(x)$.
    pub theta: Option<Spanned<String>>,
    /// Velocity $v(x)$ \[m/s\] (thermoelastic rod).
    pub velocity: Option<Spanned<String>>,
}

/// A probe of a rod: `field` is `"theta"` (default), `"v"` (velocity) or `"u"`
/// (displacement $\int_0^t v$, the trapezoidal rule over the recorded samples: with
/// `every = 1` exactly the midpoint rule's displacement update) — `v` and `u` on the
/// thermoelastic rod; no `z`.
pub type RodProbe = LineProbe;

/// `[output]` of a rod.
pub type RodOutput = LineOutput;

/// The assembled rod.
pub enum RodModel {
    /// Heat conduction.
    Heat(HeatModel),
    /// Coupled thermoelasticity (with the Danilovskaya $\delta$ if non-dimensional).
    Thermoelastic(ThermoelasticModel, Option<f64>),
}

impl RodModel {
    /// The pH system.
    pub fn system(&self) -> &phlex_core::LinearPhSystem {
        match self {
            RodModel::Heat(m) => m.system(),
            RodModel::Thermoelastic(m, _) => m.system(),
        }
    }

    fn block(&self, velocity: bool) -> Result<&FieldBlock, String> {
        match (self, velocity) {
            (RodModel::Heat(m), false) => Ok(m.temperature()),
            (RodModel::Heat(_), true) => {
                Err("the heat model has no velocity; use field = \"theta\"".into())
            }
            (RodModel::Thermoelastic(m, _), v) => m
                .field(if v {
                    ThermoField::Velocity
                } else {
                    ThermoField::Temperature
                })
                .map_err(|e| e.to_string()),
        }
    }
}

/// A parsed and built rod model.
pub struct BuiltRod {
    /// Model name.
    pub name: String,
    /// The model.
    pub model: RodModel,
    /// Inputs.
    pub input: InputFn,
    /// Initial state.
    pub initial: Vec<f64>,
    /// Probes: (name, field, x, probe vector).
    pub(super) probes: Vec<(String, ProbeField, f64, phlex_fem::SparseVec)>,
}

fn eval_x(g: &FlatEx<f64>, x: f64) -> f64 {
    let args: &[f64] = if g.var_names().is_empty() { &[] } else { &[x] };
    g.eval(args).unwrap_or(f64::NAN)
}

/// The thermal end conditions by name (the first is the default of `[heat]`).
const THERMAL_ENDS: [(&str, ThermalEnd); 3] = [
    ("port", ThermalEnd::Port),
    ("insulated", ThermalEnd::Insulated),
    ("isothermal", ThermalEnd::Isothermal),
];

/// The mechanical end conditions by name (the first is the default).
const MECHANICAL_ENDS: [(&str, MechanicalEnd); 3] = [
    ("free", MechanicalEnd::Free),
    ("clamped", MechanicalEnd::Clamped),
    ("port", MechanicalEnd::Port),
];

/// Builds the parsed model file `f` of `file` (its `text` for the lines of errors, which
/// name the key and its line); returns the built model.
pub fn build(file: &str, text: &str, f: &RodFile) -> Result<BuiltRod, ModelError> {
    let err = |span: std::ops::Range<usize>, message: String| error_at(file, text, span, message);
    let (heat, rod) = (
        Table::new(file, text, "heat"),
        Table::new(file, text, "thermoelastic_rod"),
    );
    // a thermal end of the thermoelastic rod: `default` when absent
    let thermal_end = |key: &str, v: &Option<Spanned<String>>, default: ThermalEnd| match v {
        None => Ok(default),
        Some(_) => rod.choice(key, v.as_ref(), &THERMAL_ENDS),
    };
    let (model, length, anchor) = match (&f.heat, &f.thermoelastic_rod) {
        (Some(_), Some(t)) => {
            return Err(err(
                t.shared.length.span(),
                "give either [heat] or [thermoelastic_rod], not both".into(),
            ))
        }
        (None, None) => return Err(err(0..0, "no [heat] or [thermoelastic_rod] table".into())),
        (Some(h), None) => {
            let (length, elements) = h.shared.interval(&heat)?;
            let [left, right] = h.shared.ends(&heat, &THERMAL_ENDS)?;
            let k = match &h.degree {
                None => 1,
                Some(d) if (1..=3).contains(d.get_ref()) => *d.get_ref(),
                Some(d) => {
                    return Err(err(
                        d.span(),
                        format!("heat.degree = {}: use 1..=3", d.get_ref()),
                    ))
                }
            };
            let disc = match h.discretization.as_ref().map(|s| (s.get_ref().as_str(), s.span())) {
                None | Some(("flux_ports", _)) => HeatDiscretization::CgDg(k),
                Some(("temperature_ports", _)) => HeatDiscretization::DgCg(k),
                Some((other, span)) => {
                    return Err(err(
                        span,
                        format!("heat.discretization = '{other}': use \"flux_ports\" (CG temperature, heat-flux inputs) or \"temperature_ports\" (DG temperature, temperature inputs)"),
                    ))
                }
            };
            let model = Heat1d::new(
                heat.positive("heat_capacity", &h.heat_capacity)?,
                heat.positive("conductivity", &h.conductivity)?,
                heat.positive("reference_temperature", &h.reference_temperature)?,
                length,
                elements,
            )
            .discretization(disc)
            .ends(left, right)
            .build()
            .map_err(|e| err(h.shared.length.span(), format!("heat: {e}")))?;
            (RodModel::Heat(model), length, h.shared.length.span())
        }
        (None, Some(t)) => {
            let (length, elements) = t.shared.interval(&rod)?;
            let material = [
                ("density", &t.density),
                ("p_wave_modulus", &t.p_wave_modulus),
                ("thermal_stress_coefficient", &t.thermal_stress_coefficient),
                ("heat_capacity", &t.heat_capacity),
                ("conductivity", &t.conductivity),
                ("reference_temperature", &t.reference_temperature),
            ];
            let (params, delta) = match &t.delta {
                Some(d) => {
                    rod.reject_given(&material, |key| {
                        format!("thermoelastic_rod.{key}: the non-dimensional form (delta) takes no material data; remove {key} or delta")
                    })?;
                    let dv = *d.get_ref();
                    if !(dv.is_finite() && dv > 0.0) {
                        return Err(err(
                            d.span(),
                            format!("thermoelastic_rod.delta = {dv}: must be > 0 (delta = 0 is the one-way cascade, not a pH system: model the temperature with [heat])"),
                        ));
                    }
                    (
                        ThermoelasticParams::danilovskaya(dv)
                            .map_err(|e| err(d.span(), e.to_string()))?,
                        Some(dv),
                    )
                }
                None => {
                    let mut vals = [0.0; 6];
                    for (k, (key, v)) in material.iter().enumerate() {
                        let v = v.as_ref().ok_or_else(|| {
                            err(
                                t.shared.length.span(),
                                format!("thermoelastic_rod.{key} is missing (give density, p_wave_modulus, thermal_stress_coefficient, heat_capacity, conductivity, reference_temperature, or delta for the non-dimensional form)"),
                            )
                        })?;
                        vals[k] = if *key == "thermal_stress_coefficient" {
                            rod.non_negative(key, v)?
                        } else {
                            rod.positive(key, v)?
                        };
                    }
                    (
                        ThermoelasticParams {
                            density: vals[0],
                            modulus: vals[1],
                            c_beta: vals[2],
                            heat_capacity: vals[3],
                            conductivity: vals[4],
                            t0: vals[5],
                        },
                        None,
                    )
                }
            };
            if let (Some(r), None) = (&t.reference, delta) {
                return Err(err(
                    r.span(),
                    "thermoelastic_rod.reference = \"danilovskaya\" needs the non-dimensional form (delta)".into(),
                ));
            }
            if let Some(r) = &t.reference {
                if r.get_ref() != "danilovskaya" {
                    return Err(err(
                        r.span(),
                        format!("thermoelastic_rod.reference = '{}': the only reference is \"danilovskaya\"", r.get_ref()),
                    ));
                }
            }
            let [mech_left, mech_right] = t.shared.ends(&rod, &MECHANICAL_ENDS)?;
            let model = Thermoelastic1d::new(params, length, elements)
                .discretization(
                    phlex_fem::models::continuum::thermoelastic_1d::MechanicalDiscretization::CgDg(
                        1,
                    ),
                    HeatDiscretization::DgCg(1),
                )
                .ends(
                    (mech_left, mech_right),
                    (
                        thermal_end("heat_left", &t.heat_left, ThermalEnd::Port)?,
                        thermal_end("heat_right", &t.heat_right, ThermalEnd::Insulated)?,
                    ),
                )
                .build()
                .map_err(|e| err(t.shared.length.span(), format!("thermoelastic_rod: {e}")))?;
            (
                RodModel::Thermoelastic(model, delta),
                length,
                t.shared.length.span(),
            )
        }
    };
    let sys = model.system();
    sys.check(&Default::default())
        .map_err(|e| err(anchor.clone(), format!("structure check: {e}")))?;
    let input = port_inputs(
        file,
        text,
        sys,
        &f.shared.input,
        "end ports are open with end = \"port\"",
    )?;
    let mut initial = vec![0.0; sys.n_states()];
    for (key, expr, velocity) in [
        ("theta", &f.shared.initial.theta, false),
        ("velocity", &f.shared.initial.velocity, true),
    ] {
        let Some(expr) = expr else { continue };
        let g =
            parse_x(expr.get_ref()).map_err(|m| err(expr.span(), format!("initial.{key}: {m}")))?;
        let block = model
            .block(velocity)
            .map_err(|m| err(expr.span(), format!("initial.{key}: {m}")))?;
        block
            .project_into(&|x| eval_x(&g, x), &mut initial)
            .map_err(|e| err(expr.span(), format!("initial.{key}: {e}")))?;
        if initial[block.range()].iter().any(|v| !v.is_finite()) {
            return Err(err(
                expr.span(),
                format!("initial.{key} is not finite everywhere on 0 <= x <= {length}"),
            ));
        }
    }
    let mut probes = Vec::new();
    for pr in &f.shared.output.probes {
        if pr.z.is_some() {
            return Err(err(
                anchor.clone(),
                format!(
                    "output.probes '{}': z applies to the thermoelastic beam only (a rod probe has name, field, x)",
                    pr.name
                ),
            ));
        }
        let fields = [
            ("theta", ProbeField::Theta),
            ("v", ProbeField::Velocity),
            ("u", ProbeField::Displacement),
        ];
        let field = pr
            .field(&fields, "rod", length)
            .map_err(|m| err(anchor.clone(), m))?;
        let velocity = field != ProbeField::Theta;
        let block = model
            .block(velocity)
            .map_err(|m| err(anchor.clone(), format!("output.probes '{}': {m}", pr.name)))?;
        let v = block
            .probe(pr.x)
            .map_err(|e| err(anchor.clone(), format!("output.probes '{}': {e}", pr.name)))?;
        probes.push((pr.name.clone(), field, pr.x, v));
    }
    let b = BuiltRod {
        name: f.shared.model.name.clone(),
        model,
        input,
        initial,
        probes,
    };
    Ok(b)
}

/// What a rod probe records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ProbeField {
    /// Normalised temperature.
    Theta,
    /// Velocity.
    Velocity,
    /// Displacement (time integral of the velocity).
    Displacement,
}
