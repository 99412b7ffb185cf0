//! Validation of a parsed spatial model file and its translation into a
//! [`MultibodyBuilder3d`] (paper 000 eq. (46) in 3D, assembled by `phlex_mbs::spatial`), and
//! the consistent initial state (§6.3).
use std::ops::Range;

use anyhow::Result;
use phlex_core::geometry::mat3::diagonal;
use phlex_core::geometry::{so3, InertiaTensor, IDENTITY3};
use phlex_mbs::body::floating_beam::spatial::{FloatingBeam3d, Section3d};
use phlex_mbs::spatial::{
    consistent_initial_state_3d, AxisFrame, Joint3d, JointKind3d, KinematicsOptions3d, Load3d,
    Multibody3d, MultibodyBuilder3d,
};
use phlex_mbs::{ConsistentInit, DeformationBc, Frame, RigidBody3d, GROUND};
use phlex_solve::Signal;
use toml::Spanned;

use super::format::*;
use crate::error::ModelError;
use crate::kinds::mbs::built::Built;
use crate::kinds::mbs::placed::Placed;
use crate::kinds::mbs::planar::format::{BcSpec, FrameSpec};
use crate::kinds::mbs::source::split_ref;
use crate::kinds::mbs::text::{MbsFormat, ModelText};
use crate::spec::{ModelMeta, SignalSpec, SimulationSpec};

/// A parsed spatial multibody model file (keeps its text for error lines).
pub type Mbs3dModel = ModelText<Mbs3dFile>;

impl MbsFormat for Mbs3dFile {
    const KIND: &'static str = "spatial multibody";
    /// A trial build (body parameters, names, redundancy), then the outputs.
    fn validate(m: &Mbs3dModel) -> Result<(), ModelError> {
        m.builder()?.build().map_err(|e| m.model_error(&e))?;
        m.validate_output()
    }
    fn common(&self) -> (&ModelMeta, Option<&SimulationSpec>, bool) {
        (&self.model, self.simulation.as_ref(), self.output.plots)
    }
}

/// A spatial model built and made consistent ([`Built`]).
pub type BuiltMbs3d = Built<Multibody3d>;

fn frame(f: FrameSpec) -> Frame {
    match f {
        FrameSpec::Body => Frame::Body,
        FrameSpec::Inertial => Frame::Inertial,
    }
}

impl Mbs3dModel {
    fn signal(&self, what: &str, s: &Spanned<[SignalSpec; 3]>) -> Result<[Signal; 3], ModelError> {
        let mut out = [0.0; 3].map(Signal::Constant);
        for (k, sp) in s.get_ref().iter().enumerate() {
            out[k] = crate::spec::signal(sp)
                .map_err(|e| self.err(s.span(), format!("{what}[{k}]: invalid signal: {e}")))?;
        }
        Ok(out)
    }

    fn rotation(
        &self,
        name: &str,
        r: &Option<Spanned<RotationSpec>>,
    ) -> Result<[[f64; 3]; 3], ModelError> {
        let Some(r) = r else {
            return Ok(IDENTITY3);
        };
        let s = r.get_ref();
        let bad = |msg: &str| self.err(r.span(), format!("bodies.{name}.rotation: {msg}"));
        if let Some(mat) = s.matrix {
            if s.axis.is_some() || s.angle.is_some() || s.angle_deg.is_some() {
                return Err(bad(
                    "give either `matrix` or `axis` with `angle`/`angle_deg`",
                ));
            }
            let mut defect = 0.0f64;
            for i in 0..3 {
                for j in 0..3 {
                    let d: f64 = (0..3).map(|k| mat[k][i] * mat[k][j]).sum::<f64>()
                        - if i == j { 1.0 } else { 0.0 };
                    defect = defect.max(d.abs());
                }
            }
            let det = mat[0][0] * (mat[1][1] * mat[2][2] - mat[1][2] * mat[2][1])
                - mat[0][1] * (mat[1][0] * mat[2][2] - mat[1][2] * mat[2][0])
                + mat[0][2] * (mat[1][0] * mat[2][1] - mat[1][1] * mat[2][0]);
            if defect > 1e-9 || det.is_nan() || det <= 0.0 {
                return Err(bad(&format!(
                    "`matrix` must be a rotation (orthonormal to 1e-9, determinant +1); |RᵀR − I| = {defect:.2e}, det = {det:.6}"
                )));
            }
            return Ok(mat);
        }
        let angle = match (s.angle, s.angle_deg) {
            (Some(_), Some(_)) => {
                return Err(bad("give either `angle` [rad] or `angle_deg`, not both"))
            }
            (Some(a), None) => a,
            (None, Some(d)) => d.to_radians(),
            (None, None) => return Err(bad("missing `angle` (or `angle_deg`)")),
        };
        let axis = s.axis.ok_or_else(|| bad("missing `axis`"))?;
        so3::from_axis_angle(axis, angle)
            .filter(|_| angle.is_finite())
            .ok_or_else(|| bad("`axis` must be non-zero and finite, `angle` finite"))
    }

    fn reject_keys(
        &self,
        name: &str,
        b: &Body3dSpec,
        keys: &[(&str, bool)],
        kind: &str,
    ) -> Result<(), ModelError> {
        for (k, present) in keys {
            if *present {
                return Err(self.err_line(
                    self.header_line("bodies", name),
                    format!("bodies.{name}: key `{k}` does not apply to a {kind} body"),
                ));
            }
        }
        let _ = b;
        Ok(())
    }

    fn add_body(
        &self,
        bld: &mut MultibodyBuilder3d,
        name: &str,
        b: &Body3dSpec,
    ) -> Result<(), ModelError> {
        let line = self.header_line("bodies", name);
        if name.contains('.') || name == GROUND {
            return Err(self.err_line(
                line,
                format!("body name '{name}' may not contain '.' or be 'ground'"),
            ));
        }
        let r = self.rotation(name, &b.rotation)?;
        let finite = b
            .position
            .iter()
            .chain(&b.velocity)
            .chain(&b.angular_velocity)
            .all(|v| v.is_finite());
        if !finite {
            return Err(self.err_line(
                line,
                format!("bodies.{name}: position, velocity and angular_velocity must be finite"),
            ));
        }
        let to_body = |v: [f64; 3]| match b.twist_frame {
            FrameSpec::Body => v,
            FrameSpec::Inertial => [0, 1, 2].map(|j| (0..3).map(|i| r[i][j] * v[i]).sum::<f64>()),
        };
        let motion = (
            b.position,
            r,
            to_body(b.velocity),
            to_body(b.angular_velocity),
        );
        let lumped = || b.lumped.iter().map(Lumped3dSpec::to_lumped);
        let port_err = |p: &str, span: Range<usize>, what: &str| {
            self.err(span, format!("bodies.{name}.ports.{p} must be {what}"))
        };
        match b.kind.get_ref() {
            Body3dKind::Rigid3d => {
                self.reject_keys(
                    name,
                    b,
                    &[
                        ("length", b.length.is_some()),
                        ("density", b.density.is_some()),
                        ("youngs_modulus", b.youngs_modulus.is_some()),
                        ("shear_modulus", b.shear_modulus.is_some()),
                        ("poisson_ratio", b.poisson_ratio.is_some()),
                        ("diameter", b.diameter.is_some()),
                        ("width", b.width.is_some()),
                        ("height", b.height.is_some()),
                        ("elements", b.elements.is_some()),
                        ("deformation_bc", b.deformation_bc.is_some()),
                        ("mass_operator", b.mass_operator.is_some()),
                    ],
                    "rigid3d",
                )?;
                if let Some(g) = &b.geometric_stiffening {
                    return Err(self.err(
                        g.span(),
                        format!("bodies.{name}.geometric_stiffening does not apply to a rigid3d body (it is an option of kind = \"beam3d\")"),
                    ));
                }
                let mass = b.mass.as_ref().ok_or_else(|| {
                    self.err_line(line, format!("bodies.{name}: missing `mass` [kg]"))
                })?;
                let mut body = RigidBody3d::new(*mass.get_ref(), [0.0; 3]);
                if let Some(i) = &b.inertia {
                    body.inertia = match *i.get_ref() {
                        InertiaSpec::Diagonal(d) => diagonal(d),
                        InertiaSpec::Full(j) => j,
                    };
                    // The one rule of phlex_core::geometry::inertia, here for the line number.
                    InertiaTensor::new(&body.inertia)
                        .map_err(|e| self.err(i.span(), format!("bodies.{name}.inertia: {e}")))?;
                }
                if let Some(c) = &b.com {
                    body = body.com(*c.get_ref());
                }
                for (p, val) in &b.ports {
                    if p == "P" {
                        return Err(port_err(
                            p,
                            val.span(),
                            "omitted: port `P` (the body origin) always exists",
                        ));
                    }
                    let a = val
                        .get_ref()
                        .as_array()
                        .filter(|a| a.len() == 3)
                        .and_then(|a| {
                            let v: Vec<f64> = a
                                .iter()
                                .filter_map(|x| {
                                    x.as_float().or_else(|| x.as_integer().map(|i| i as f64))
                                })
                                .collect();
                            (v.len() == 3).then(|| [v[0], v[1], v[2]])
                        })
                        .ok_or_else(|| port_err(p, val.span(), "[x, y, z] (body frame) [m]"))?;
                    body = body.port(p.clone(), a);
                }
                bld.add_body(name, body.placed(lumped(), motion));
            }
            Body3dKind::Beam3d => {
                self.reject_keys(
                    name,
                    b,
                    &[
                        ("mass", b.mass.is_some()),
                        ("inertia", b.inertia.is_some()),
                        ("com", b.com.is_some()),
                    ],
                    "beam3d",
                )?;
                let need = |k: &str, v: &Option<Spanned<f64>>| {
                    v.as_ref()
                        .map(|s| *s.get_ref())
                        .ok_or_else(|| self.err_line(line, format!("bodies.{name}: missing `{k}`")))
                };
                let length = need("length", &b.length)?;
                let density = need("density", &b.density)?;
                let young = need("youngs_modulus", &b.youngs_modulus)?;
                let shear = match (&b.shear_modulus, &b.poisson_ratio) {
                    (Some(g), None) => *g.get_ref(),
                    (None, Some(nu)) => young / (2.0 * (1.0 + *nu.get_ref())),
                    _ => {
                        return Err(self.err_line(
                            line,
                            format!(
                            "bodies.{name}: give exactly one of `shear_modulus` [Pa] and `poisson_ratio`"
                        ),
                        ))
                    }
                };
                let section = match (&b.diameter, &b.width, &b.height) {
                    (Some(d), None, None) => Section3d::circular(*d.get_ref()),
                    (None, Some(w), Some(h)) => Section3d::rectangular(*w.get_ref(), *h.get_ref()),
                    _ => {
                        return Err(self.err_line(line, format!(
                            "bodies.{name}: give the section as `diameter` or as `width` and `height` [m]"
                        )))
                    }
                };
                let elements = b.elements.as_ref().map(|e| *e.get_ref()).unwrap_or(4);
                if elements < 1 {
                    return Err(self.err_line(
                        line,
                        format!("bodies.{name}.elements must be >= 1 (got {elements})"),
                    ));
                }
                let bc = match b.deformation_bc.as_ref().map(|s| *s.get_ref()) {
                    Some(BcSpec::Cantilever) => DeformationBc::Cantilever,
                    Some(BcSpec::SimplySupported) => DeformationBc::SimplySupported,
                    Some(BcSpec::Free) | None => DeformationBc::Free,
                };
                let mut beam =
                    FloatingBeam3d::new(length, density, young, shear, section, elements as usize)
                        .bc(bc);
                let full =
                    "deformation-dependent inertia: exact angular momentum of the deforming beam";
                if let Some(f) = self.full_inertia(name, &b.mass_operator, full)? {
                    beam = beam.full_inertia(f);
                }
                if let Some(g) = &b.geometric_stiffening {
                    beam = beam.geometric_stiffening(*g.get_ref());
                }
                for (p, val) in &b.ports {
                    if p == "P" || p == "C" {
                        return Err(port_err(
                            p,
                            val.span(),
                            "omitted: ports `P` (x = 0) and `C` (x = L) always exist",
                        ));
                    }
                    let x = val
                        .get_ref()
                        .as_float()
                        .or_else(|| val.get_ref().as_integer().map(|i| i as f64))
                        .filter(|x| (0.0..=length).contains(x))
                        .ok_or_else(|| {
                            port_err(
                                p,
                                val.span(),
                                &format!("a material coordinate in [0, {length}] [m]"),
                            )
                        })?;
                    beam = beam.port(p.clone(), x);
                }
                bld.add_body(name, beam.placed(lumped(), motion));
            }
        }
        Ok(())
    }

    fn joint(&self, name: &str, j: &Joint3dSpec) -> Result<Joint3d, ModelError> {
        let (ba, pa) = split_ref(j.a.get_ref())
            .filter(|(b, _)| *b != GROUND)
            .ok_or_else(|| {
                self.err(
                    j.a.span(),
                    format!(
                "joints.{name}.a: '{}' must have the form \"body.port\" (a body, not the ground)",
                j.a.get_ref()
            ),
                )
            })?;
        let (bb, pb) = match &j.b {
            None => (GROUND, "origin"),
            Some(s) => split_ref(s.get_ref()).ok_or_else(|| self.err(s.span(), format!(
                "joints.{name}.b: '{}' must have the form \"body.port\", \"ground.point\" or \"ground\"",
                s.get_ref()
            )))?,
        };
        let kind = *j.kind.get_ref();
        let axis = match (kind, &j.axis) {
            (Joint3dKindSpec::Revolute | Joint3dKindSpec::Prismatic, Some(a)) => Some(*a.get_ref()),
            (Joint3dKindSpec::Revolute | Joint3dKindSpec::Prismatic, None) => {
                let k = if kind == Joint3dKindSpec::Revolute {
                    "revolute"
                } else {
                    "prismatic"
                };
                return Err(self.err(
                    j.kind.span(),
                    format!("joints.{name}: a {k} joint needs `axis = [x, y, z]`"),
                ));
            }
            (_, Some(a)) => {
                return Err(self.err(
                    a.span(),
                    format!("joints.{name}.axis: only revolute and prismatic joints have an axis"),
                ))
            }
            (_, None) => None,
        };
        if kind != Joint3dKindSpec::PrescribedVelocity
            && (j.velocity.is_some() || j.angular_velocity.is_some())
        {
            return Err(self.err(j.kind.span(), format!(
                "joints.{name}: `velocity`/`angular_velocity` belong to kind = \"prescribed_velocity\""
            )));
        }
        let frame_a = match j.axis_frame {
            AxisFrameSpec::Inertial => AxisFrame::Inertial,
            AxisFrameSpec::Body => AxisFrame::Port,
        };
        let k = match kind {
            Joint3dKindSpec::Spherical => JointKind3d::Spherical,
            Joint3dKindSpec::Weld => JointKind3d::Weld,
            Joint3dKindSpec::Revolute => JointKind3d::Revolute {
                axis: axis.unwrap_or_default(),
                frame: frame_a,
            },
            Joint3dKindSpec::Prismatic => JointKind3d::Prismatic {
                axis: axis.unwrap_or_default(),
                frame: frame_a,
            },
            Joint3dKindSpec::PrescribedVelocity => {
                let v = j.velocity.as_ref().ok_or_else(|| self.err(j.kind.span(), format!(
                    "joints.{name}: a prescribed velocity needs `velocity = [vx, vy, vz]` (inertial, signals)"
                )))?;
                let velocity = self.signal(&format!("joints.{name}.velocity"), v)?;
                let angular_velocity = match &j.angular_velocity {
                    Some(w) => Some((
                        self.signal(&format!("joints.{name}.angular_velocity"), w)?,
                        frame(j.angular_velocity_frame),
                    )),
                    None => None,
                };
                JointKind3d::PrescribedVelocity {
                    velocity,
                    angular_velocity,
                }
            }
        };
        Ok(Joint3d::new(ba, pa, bb, pb, k))
    }

    /// Translates the file into a builder (model errors with lines for everything the file
    /// itself gets wrong; name resolution is left to [`MultibodyBuilder3d::build`]).
    pub(super) fn builder(&self) -> Result<MultibodyBuilder3d, ModelError> {
        let s = &self.spec;
        let mut b = MultibodyBuilder3d::new();
        if let Some(g) = &s.gravity {
            if !g.get_ref().iter().all(|v| v.is_finite()) {
                return Err(self.err(g.span(), "gravity must be finite".into()));
            }
            b.gravity(*g.get_ref());
        }
        if s.bodies.is_empty() {
            return Err(self.err_line(0, "no bodies: declare at least one [bodies.NAME]".into()));
        }
        for (n, p) in &s.ground {
            if !p.get_ref().iter().all(|v| v.is_finite()) {
                return Err(self.err(p.span(), format!("ground.{n} must be finite")));
            }
            b.add_ground_point(n.clone(), *p.get_ref());
        }
        for (n, body) in &s.bodies {
            self.add_body(&mut b, n, body)?;
        }
        for (n, j) in &s.joints {
            let joint = self.joint(n, j)?;
            b.add_joint(n.clone(), joint);
        }
        for l in &s.load {
            let name = l.name.get_ref();
            let (bd, p) = split_ref(l.at.get_ref())
                .filter(|(b, _)| *b != GROUND)
                .ok_or_else(|| {
                    self.err(
                        l.at.span(),
                        format!(
                            "load '{name}': at = '{}' must have the form \"body.port\"",
                            l.at.get_ref()
                        ),
                    )
                })?;
            let mut load = Load3d::new(bd, p, frame(l.frame));
            if let Some(f) = &l.force {
                load = load.force(self.signal(&format!("load '{name}' force"), f)?);
            }
            if let Some(t) = &l.torque {
                load = load.torque(self.signal(&format!("load '{name}' torque"), t)?);
            }
            b.add_load(name.clone(), load);
        }
        for (name, f) in self.spring_dampers(&s.forces, true)? {
            b.add_force(name, f);
        }
        b.remove_redundant_constraints(
            s.initial.redundant_constraints
                == crate::kinds::mbs::planar::format::RedundancySpec::Remove,
        );
        if let Some(sim) = &s.simulation {
            sim.validate().map_err(|(span, msg)| self.err(span, msg))?;
        }
        Ok(b)
    }

    fn validate_output(&self) -> Result<(), ModelError> {
        let o = &self.spec.output;
        for (n, r) in &o.points {
            let ok = split_ref(r.get_ref()).is_some_and(|(b, p)| {
                b != GROUND && self.spec.bodies.contains_key(b) && !p.is_empty()
            });
            if !ok {
                return Err(self.err(
                    r.span(),
                    format!(
                    "output.points.{n}: '{}' must name a port \"body.port\" of a body; bodies: {}",
                    r.get_ref(),
                    self.spec.bodies.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
                ));
            }
        }
        for (what, list, names) in [
            (
                "poses",
                &o.poses,
                self.spec.bodies.keys().cloned().collect::<Vec<_>>(),
            ),
            (
                "velocities",
                &o.velocities,
                self.spec.bodies.keys().cloned().collect(),
            ),
            (
                "joint_states",
                &o.joint_states,
                self.spec.joints.keys().cloned().collect(),
            ),
            (
                "reactions",
                &o.reactions,
                self.spec.joints.keys().cloned().collect(),
            ),
        ] {
            for r in list {
                if !names.iter().any(|n| n == r.get_ref()) {
                    return Err(self.err(
                        r.span(),
                        format!(
                            "output.{what}: unknown {} '{}'; available: {}",
                            if what == "poses" || what == "velocities" {
                                "body"
                            } else {
                                "joint"
                            },
                            r.get_ref(),
                            names.join(", ")
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Builds the system and makes the initial state consistent (`[initial]`).
    pub fn build(&self) -> Result<BuiltMbs3d> {
        let mb = self.builder()?.build().map_err(|e| self.convert(e))?;
        let input = mb.input();
        let x0 = mb.initial_state();
        let ini = &self.spec.initial;
        let tol = ini
            .position_tol
            .as_ref()
            .map(|t| *t.get_ref())
            .unwrap_or(1e-12);
        for l in &ini.lock {
            if !self.spec.bodies.contains_key(l.get_ref()) {
                return Err(self
                    .err(
                        l.span(),
                        format!(
                            "initial.lock: unknown body '{}'; bodies: {}",
                            l.get_ref(),
                            self.spec
                                .bodies
                                .keys()
                                .cloned()
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    )
                    .into());
            }
        }
        let init = if ini.correct {
            let opts = KinematicsOptions3d {
                locked: ini.lock.iter().map(|l| l.get_ref().clone()).collect(),
                position_tol: tol,
                ..Default::default()
            };
            consistent_initial_state_3d(&mb, &x0, &input, 0.0, &opts)
                .map_err(|e| self.convert(e))?
        } else {
            let pos = mb.max_position_drift(&x0);
            let u0 = input.eval(0.0);
            let mut f = vec![0.0; mb.n()];
            mb.rhs(&x0, &u0, &mut f);
            let vel = (0..mb.joint_names().len())
                .flat_map(|j| mb.multiplier_range(j))
                .fold(0.0f64, |m, i| m.max(f[i].abs()));
            let vtol = ini
                .velocity_tol
                .as_ref()
                .map(|t| *t.get_ref())
                .unwrap_or(1e-10);
            if pos > tol || vel > vtol {
                return Err(self.err_line(self.section_line("initial"), format!(
                    "initial.correct = false but the given state violates the joints (position {pos:.3e} > {tol:e} or velocity {vel:.3e} > {vtol:e}); set correct = true"
                )).into());
            }
            ConsistentInit {
                state: x0,
                position_residual: (pos, pos),
                velocity_residual: (vel, vel),
                iterations: 0,
            }
        };
        Ok(BuiltMbs3d {
            name: self.spec.model.name.clone(),
            mb,
            input,
            init,
        })
    }
}
