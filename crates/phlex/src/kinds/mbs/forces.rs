//! `[forces.NAME]`: the force elements of a multibody model file, the same table in the
//! planar and the spatial format (docs/model-format-mbs.md, "Force elements"): translational
//! and rotational spring-dampers, translated into the [`SpringDamper`]s of phlex-mbs (paper 000 eq. (45): each element is a
//! port-Hamiltonian component with its own length state, stored energy and dissipation).
//!
//! The values are checked here, at the line of their key; the names of bodies, ports and
//! ground points are resolved by the builder, whose error names the element
//! ([`super::source::error_line`] finds its table).
use std::collections::BTreeMap;

use phlex_mbs::SpringDamper;
use serde::Deserialize;
use toml::Spanned;

use super::source::split_ref;
use super::text::ModelText;
use crate::error::ModelError;

/// Kind of a force element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForceKindSpec {
    /// Translational spring-damper between two points
    /// ([`phlex_mbs::SpringDamper::new`]).
    SpringDamper,
    /// Rotational spring-damper about an axis between the frames of two points, e.g. a
    /// torsion spring on a hinge ([`phlex_mbs::SpringDamper::rotational`]).
    RotationalSpringDamper,
}

/// `[forces.NAME]`: a force element between two points.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceSpec {
    /// `"spring_damper"` or `"rotational_spring_damper"`.
    pub kind: Spanned<ForceKindSpec>,
    /// `"body.port"` of end A.
    pub a: Spanned<String>,
    /// `"body.port"`, `"ground.point"` or `"ground"` of end B.
    pub b: Spanned<String>,
    /// Stiffness $k \ge 0$ \[N/m\] or \[N m/rad\] (default 0).
    pub stiffness: Option<Spanned<f64>>,
    /// Damping $d \ge 0$ \[N s/m\] or \[N m s/rad\] (default 0).
    pub damping: Option<Spanned<f64>>,
    /// Translational: rest length $L_0 \ge 0$ \[m\] (default: the distance of the points
    /// as given in the file, before the initial correction).
    pub rest_length: Option<Spanned<f64>>,
    /// Rotational: rest angle $\varphi_0$ \[rad\] from the initial configuration (default 0).
    pub rest_angle: Option<Spanned<f64>>,
    /// Preload: tension $F_0$ \[N\] at rest length (positive pulls the points together) or
    /// torque $T_0$ \[N m\] at the rest angle (default 0).
    pub preload: Option<Spanned<f64>>,
    /// Rotational, spatial models: the axis `[x, y, z]` (inertial components in the
    /// initial configuration, then fixed in the body of `a`); planar models turn about z.
    pub axis: Option<Spanned<[f64; 3]>>,
}

impl<F> ModelText<F> {
    /// The spring-dampers of the `[forces]` tables `forces` of a planar or `spatial`
    /// model, their values checked (errors at the line of the key).
    pub(crate) fn spring_dampers(
        &self,
        forces: &BTreeMap<String, ForceSpec>,
        spatial: bool,
    ) -> Result<Vec<(String, SpringDamper)>, ModelError> {
        forces
            .iter()
            .map(|(name, f)| Ok((name.clone(), self.spring_damper(name, f, spatial)?)))
            .collect()
    }

    /// A key given that does not apply to the element's kind.
    fn not_for<T>(
        &self,
        name: &str,
        key: &str,
        v: &Option<Spanned<T>>,
        what: &str,
    ) -> Result<(), ModelError> {
        match v {
            Some(v) => Err(self.err(
                v.span(),
                format!("forces.{name}.{key} does not apply to {what}"),
            )),
            None => Ok(()),
        }
    }

    fn spring_damper(
        &self,
        name: &str,
        f: &ForceSpec,
        spatial: bool,
    ) -> Result<SpringDamper, ModelError> {
        let rotational = *f.kind.get_ref() == ForceKindSpec::RotationalSpringDamper;
        let end = |key: &str, r: &Spanned<String>, ground: bool| {
            let s = r.get_ref();
            split_ref(s)
                .filter(|(b, _)| ground || *b != phlex_mbs::GROUND)
                .map(|(b, p)| (b.to_string(), p.to_string()))
                .ok_or_else(|| {
                    let form = if ground {
                        "\"body.port\", \"ground.point\" or \"ground\""
                    } else {
                        "\"body.port\" (a body, not the ground: put the ground on side b)"
                    };
                    self.err(
                        r.span(),
                        format!("forces.{name}.{key} = '{s}' must have the form {form}"),
                    )
                })
        };
        let (ba, pa) = end("a", &f.a, false)?;
        let (bb, pb) = end("b", &f.b, true)?;
        let value = |key: &str, v: &Option<Spanned<f64>>, unit: &str, signed: bool| {
            let Some(v) = v else {
                return Ok(None);
            };
            let x = *v.get_ref();
            if x.is_finite() && (signed || x >= 0.0) {
                Ok(Some(x))
            } else {
                let need = if signed { "finite" } else { "finite and >= 0" };
                Err(self.err(
                    v.span(),
                    format!("forces.{name}.{key} = {x} must be {need} [{unit}]"),
                ))
            }
        };
        let units = if rotational {
            ["N m/rad", "N m s/rad", "N m"]
        } else {
            ["N/m", "N s/m", "N"]
        };
        let mut s = if rotational {
            let what = "a rotational spring-damper (use rest_angle)";
            self.not_for(name, "rest_length", &f.rest_length, what)?;
            let axis = match (&f.axis, spatial) {
                (Some(a), true) => {
                    let n = *a.get_ref();
                    let norm = n.iter().map(|c| c * c).sum::<f64>().sqrt();
                    if !(norm.is_finite() && norm > 0.0) {
                        return Err(self.err(
                            a.span(),
                            format!("forces.{name}.axis = {n:?} must be finite and non-zero"),
                        ));
                    }
                    n
                }
                (None, true) => {
                    return Err(self.err(
                        f.kind.span(),
                        format!("forces.{name}: a rotational spring-damper in a spatial model needs `axis = [x, y, z]`"),
                    ))
                }
                (Some(a), false) => {
                    return Err(self.err(
                        a.span(),
                        format!("forces.{name}.axis: planar rotational elements turn about z; remove the key"),
                    ))
                }
                (None, false) => [0.0, 0.0, 1.0],
            };
            let mut s = SpringDamper::rotational(ba, pa, bb, pb, axis);
            if let Some(a0) = value("rest_angle", &f.rest_angle, "rad", true)? {
                s = s.rest_angle(a0);
            }
            s
        } else {
            let what = "a translational spring-damper";
            self.not_for(name, "rest_angle", &f.rest_angle, what)?;
            self.not_for(name, "axis", &f.axis, what)?;
            let mut s = SpringDamper::new(ba, pa, bb, pb);
            if let Some(l0) = value("rest_length", &f.rest_length, "m", false)? {
                s = s.rest_length(l0);
            }
            s
        };
        s = s
            .stiffness(value("stiffness", &f.stiffness, units[0], false)?.unwrap_or(0.0))
            .damping(value("damping", &f.damping, units[1], false)?.unwrap_or(0.0))
            .preload(value("preload", &f.preload, units[2], true)?.unwrap_or(0.0));
        Ok(s)
    }
}
