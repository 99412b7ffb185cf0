//! Thermoelastic beam model files (`[thermoelastic_beam]`, format in
//! `docs/model-format-continuum.md`): the Euler–Bernoulli beam coupled to the heat equation
//! on its section plane of [`phlex_fem::models::beam::thermoelastic_beam`] (thesis 004 §5.2.1
//! eqs. (5.30)–(5.34)); `phlex check` (structure and the first mode's thermoelastic damping
//! $Q^{-1} = 2\zeta$ next to Lifshitz–Roukes \[LR00\] eq. (11)), `run` (midpoint, probes of
//! velocity and temperature, mechanical and thermal energy) and `modes` (the damping ratio
//! column is the thermoelastic damping).

use anyhow::{Context, Result};
use exmex::{Express, FlatEx};
use phlex_fem::models::beam::thermoelastic_beam::{
    lifshitz_roukes_inverse_q, BeamSupport, ThermoBeamModel, ThermoBeamParams, ThermoelasticBeam,
};
use phlex_solve::eigen::EigenParams;
use phlex_solve::signal::InputFn;
use serde::Deserialize;
use toml::Spanned;

use crate::continuum::{port_inputs, FieldFile, LineOutput, LineProbe, LineSpec};
use crate::error::{error_at, ModelError};
use crate::keys::WithKeys;
use crate::material::{Table, ThermalKeys};

/// A thermoelastic beam model file: the shared continuum tables ([`FieldTables`]:
/// `[model]`, `[initial]` ([`ThermoBeamInitial`]), `[simulation]`, `[output]`
/// ([`ThermoBeamOutput`]), `[modes]`, `[[input]]` on the ports `load` \[N/m\] and
/// `top_flux` \[W/m²\]) and [`ThermoBeamTables`].
///
/// [`FieldTables`]: crate::continuum::FieldTables
pub type ThermoBeamFile = FieldFile<ThermoBeamTables, ThermoBeamInitial, ThermoBeamOutput>;

/// The thermoelastic beam tables of the model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThermoBeamTables {
    /// Material, section, supports and discretisation.
    pub thermoelastic_beam: ThermoBeamSpec,
}

/// `[thermoelastic_beam]`: the heat conduction keys ([`ThermalKeys`]), the axis
/// ([`LineSpec`]: `length`, Hermite `elements`, supports `left`, `right`:
/// `"simply_supported"` (default), `"clamped"` or `"free"`) and [`ThermoBeamKeys`].
pub type ThermoBeamSpec = WithKeys<ThermalKeys, WithKeys<LineSpec, ThermoBeamKeys>>;

/// The keys of `[thermoelastic_beam]` besides the heat conduction data and the axis.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThermoBeamKeys {
    /// Young's modulus $E$ \[Pa\].
    pub youngs_modulus: Spanned<f64>,
    /// Density $\rho$ \[kg/m³\].
    pub density: Spanned<f64>,
    /// Section width $b$ \[m\].
    pub width: Spanned<f64>,
    /// Section thickness $h$ \[m\].
    pub thickness: Spanned<f64>,
    /// Temperature elements through the thickness (default 8).
    pub thickness_elements: Option<Spanned<usize>>,
    /// Degree of the temperature along the axis (default 1).
    pub axial_degree: Option<Spanned<usize>>,
    /// Degree of the temperature through the thickness (default 2).
    pub thickness_degree: Option<Spanned<usize>>,
}

/// `[initial]` of a thermoelastic beam.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThermoBeamInitial {
    /// Transverse velocity $\dot w(x)$ \[m/s\] (default 0).
    pub w_dot: Option<Spanned<String>>,
}

/// A probe of a thermoelastic beam: `field` is `"v"` (transverse velocity, default) or
/// `"theta"` (normalised temperature $(T - T_0)/T_0$) at the axial position `x` \[m\] and,
/// for `theta`, the height `z` in the section, $-h/2 \le z \le h/2$ \[m\] (default 0).
pub type ThermoBeamProbe = LineProbe;

/// `[output]` of a thermoelastic beam.
pub type ThermoBeamOutput = LineOutput;

/// A probe: column name, temperature (`true`) or velocity, position $(x, z)$.
type Probe = (String, bool, f64, f64);

/// A parsed and built thermoelastic beam model.
pub struct BuiltThermoBeam {
    /// Model name.
    pub name: String,
    /// The assembled model.
    pub model: ThermoBeamModel,
    /// Inputs of both ports.
    pub input: InputFn,
    /// Initial state.
    pub initial: Vec<f64>,
    /// Length \[m\].
    pub length: f64,
    pub(super) probes: Vec<Probe>,
}

impl BuiltThermoBeam {
    /// Eigensolver settings for the `n` lowest modes (dense path for the usual sizes; the
    /// real thermal relaxation modes are skipped by `im_tol`).
    pub fn eigen_params(&self, n: usize) -> EigenParams {
        EigenParams {
            n_modes: Some(n),
            ..Default::default()
        }
    }

    /// Values of the probes for state `e`.
    pub(super) fn probe_values(&self, e: &[f64]) -> Result<Vec<f64>, String> {
        self.probes
            .iter()
            .map(|(_, theta, x, z)| {
                if *theta {
                    self.model.theta_at(e, *x, *z)
                } else {
                    self.model.velocity_at(e, *x)
                }
                .map_err(|er| er.to_string())
            })
            .collect()
    }
}

/// Builds the parsed model file `f` of `file` (its `text` for the lines of errors, which
/// name the key and its line); returns the built model.
pub fn build(file: &str, text: &str, f: &ThermoBeamFile) -> Result<BuiltThermoBeam, ModelError> {
    let err = |span: std::ops::Range<usize>, message: String| error_at(file, text, span, message);
    let p = &f.thermoelastic_beam;
    let keys = Table::new(file, text, "thermoelastic_beam");
    let axis = &p.own.shared;
    let (length, elements) = axis.interval(&keys)?;
    let young = keys.positive("youngs_modulus", &p.youngs_modulus)?;
    let density = keys.positive("density", &p.density)?;
    let width = keys.positive("width", &p.width)?;
    let thickness = keys.positive("thickness", &p.thickness)?;
    let th = keys.thermal(&p.shared)?;
    let opt = |v: &Option<Spanned<usize>>, key: &str, default: usize, lo: usize, hi: usize| {
        let Some(s) = v else { return Ok(default) };
        let x = *s.get_ref();
        if x < lo || x > hi {
            return Err(err(
                s.span(),
                format!("thermoelastic_beam.{key} = {x}: use {lo}..={hi}"),
            ));
        }
        Ok(x)
    };
    let n_z = opt(&p.thickness_elements, "thickness_elements", 8, 1, 10_000)?;
    let p_x = opt(&p.axial_degree, "axial_degree", 1, 1, 3)?;
    let p_z = opt(&p.thickness_degree, "thickness_degree", 2, 1, 3)?;
    let [left, right] = axis.ends(
        &keys,
        &[
            ("simply_supported", BeamSupport::SimplySupported),
            ("clamped", BeamSupport::Clamped),
            ("free", BeamSupport::Free),
        ],
    )?;
    let params = ThermoBeamParams {
        young,
        density,
        width,
        thickness,
        expansion: th.thermal_expansion,
        heat_capacity: th.heat_capacity,
        conductivity: th.conductivity,
        t0: th.reference_temperature,
    };
    let model = ThermoelasticBeam::new(params, length, elements)
        .thermal_mesh(n_z, p_x, p_z)
        .ends(left, right)
        .build()
        .map_err(|e| err(axis.length.span(), format!("thermoelastic_beam: {e}")))?;
    let sys = model.system();
    sys.check(&Default::default()).map_err(|e| {
        err(
            axis.length.span(),
            format!("thermoelastic_beam structure check: {e}"),
        )
    })?;
    let input = port_inputs(
        file,
        text,
        sys,
        &f.shared.input,
        "the ports are \"load\" (uniform force per length, N/m) and \"top_flux\" (heat flux into the top face, W/m²)",
    )?;
    let initial = match &f.shared.initial.w_dot {
        None => vec![0.0; sys.n_states()],
        Some(expr) => {
            let g = parse_x(expr.get_ref())
                .map_err(|m| err(expr.span(), format!("initial.w_dot: {m}")))?;
            let e = model
                .initial_velocity(&|x| {
                    let args: &[f64] = if g.var_names().is_empty() { &[] } else { &[x] };
                    g.eval(args).unwrap_or(f64::NAN)
                })
                .map_err(|e| err(expr.span(), format!("initial.w_dot: {e}")))?;
            if e.iter().any(|v| !v.is_finite()) {
                return Err(err(
                    expr.span(),
                    "initial.w_dot is not finite everywhere on 0 <= x <= length".into(),
                ));
            }
            e
        }
    };
    let h = params.thickness;
    let mut probes = Vec::new();
    for pr in &f.shared.output.probes {
        let theta = pr
            .field(&[("v", false), ("theta", true)], "beam", length)
            .map_err(|m| err(0..0, m))?;
        let z = pr.z.unwrap_or(0.0);
        if !theta && pr.z.is_some() {
            return Err(err(
                0..0,
                format!(
                    "output.probes '{}': z applies to field = \"theta\" only",
                    pr.name
                ),
            ));
        }
        if z.abs() > 0.5 * h * (1.0 + 1e-12) {
            return Err(err(
                0..0,
                format!(
                    "output.probes '{}': z = {z} is outside the section -h/2..=h/2 (h = {h})",
                    pr.name
                ),
            ));
        }
        probes.push((pr.name.clone(), theta, pr.x, z));
    }
    let b = BuiltThermoBeam {
        name: f.shared.model.name.clone(),
        model,
        input,
        initial,
        length,
        probes,
    };
    b.probe_values(&b.initial)
        .map_err(|m| err(0..0, format!("output.probes: {m}")))?;
    Ok(b)
}

/// Parses an expression in `x` alone (a constant is allowed).
pub(crate) fn parse_x(text: &str) -> Result<FlatEx<f64>, String> {
    let src = phlex_solve::signal::normalize_expression(text);
    let expr = exmex::parse::<f64>(&src).map_err(|e| format!("cannot parse '{text}': {e}"))?;
    if let Some(v) = expr.var_names().iter().find(|v| v.as_str() != "x") {
        return Err(format!("'{text}' uses variable '{v}'; only x is allowed"));
    }
    Ok(expr)
}

/// First-mode thermoelastic damping: $(\omega_1, Q^{-1} = 2\zeta_1, Q^{-1}_{LR}(\omega_1))$.
pub fn first_mode_damping(b: &BuiltThermoBeam) -> Result<(f64, f64, f64)> {
    let rows = crate::output::frequencies_with(b.model.system(), 1, &b.eigen_params(1))?;
    let r = rows
        .first()
        .context("the model has no oscillating mode (a free–free beam without supports?)")?;
    Ok((
        r.omega,
        2.0 * r.damping_ratio,
        lifshitz_roukes_inverse_q(b.model.params(), r.omega),
    ))
}
