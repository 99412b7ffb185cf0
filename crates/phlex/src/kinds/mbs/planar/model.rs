//! Validation of a parsed file and its translation into a [`MultibodyBuilder`] (paper 000
//! eq. (46) assembled by phlex-mbs), consistent initial conditions (§6.3) and the modes of
//! the linearisation (§6.2, eq. (51)).
use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result};
use phlex_mbs::{
    consistent_initial_state, Body, ConsistentInit, Coordinate, DeformationBc, FloatingBeam2d,
    Frame, Gyroscopic, Joint, JointKind, KinematicsOptions, Load, MbsError, Multibody,
    MultibodyBuilder, Pose2d, RigidBody2d, Twist2d, GROUND,
};
use phlex_solve::eigen::EigenParams;
use phlex_solve::{InputFn, Signal};
use toml::Spanned;

use super::format::*;
use crate::error::ModelError;
use crate::kinds::mbs::built::Built;
use crate::kinds::mbs::placed::Placed;
use crate::kinds::mbs::text::{MbsFormat, ModelText};
use crate::output::{mode_rows, ModeRow};
use crate::spec::{ModelMeta, SignalSpec, SimulationSpec};

/// A parsed planar multibody model file (keeps its text for error lines).
pub type MbsModel = ModelText<MbsFile>;

impl MbsFormat for MbsFile {
    const KIND: &'static str = "planar multibody";
    /// The bodies, joints, ground points and loads (a builder is filled), then the rest.
    fn validate(m: &MbsModel) -> Result<(), ModelError> {
        m.builder()?;
        m.validate_rest()
    }
    fn common(&self) -> (&ModelMeta, Option<&SimulationSpec>, bool) {
        (&self.model, self.simulation.as_ref(), self.output.plots)
    }
}

/// A planar model built and made consistent ([`Built`]).
pub type BuiltMbs = Built<Multibody>;

pub(crate) use crate::kinds::mbs::source::split_ref;

fn signal_of(
    m: &MbsModel,
    what: &str,
    s: &Option<Spanned<SignalSpec>>,
) -> Result<Signal, ModelError> {
    match s {
        None => Ok(Signal::Constant(0.0)),
        Some(sp) => crate::spec::signal(sp.get_ref())
            .map_err(|e| m.err(sp.span(), format!("{what}: invalid signal: {e}"))),
    }
}

impl MbsModel {
    /// Moves the initial pose of a body (e.g. the crank angle of a parameter sweep).
    pub fn set_pose(&mut self, body: &str, pose: Pose2d) -> Result<(), ModelError> {
        let missing = self.err_line(0, format!("no body '{body}'"));
        let b = self.spec.bodies.get_mut(body).ok_or(missing)?;
        b.pose = PoseSpec {
            x: pose.x,
            y: pose.y,
            theta: Some(pose.theta),
            theta_deg: None,
        };
        Ok(())
    }

    fn positive(&self, key: &str, v: &Spanned<f64>) -> Result<f64, ModelError> {
        let x = *v.get_ref();
        if x > 0.0 && x.is_finite() {
            Ok(x)
        } else {
            Err(self.err(v.span(), format!("{key} must be > 0 (got {x})")))
        }
    }

    fn non_negative(&self, key: &str, v: &Spanned<f64>) -> Result<f64, ModelError> {
        let x = *v.get_ref();
        if x >= 0.0 && x.is_finite() {
            Ok(x)
        } else {
            Err(self.err(v.span(), format!("{key} must be >= 0 (got {x})")))
        }
    }

    fn finite2(&self, key: &str, v: &Spanned<[f64; 2]>) -> Result<[f64; 2], ModelError> {
        let x = *v.get_ref();
        if x.iter().all(|c| c.is_finite()) {
            Ok(x)
        } else {
            Err(self.err(v.span(), format!("{key} must be finite (got {x:?})")))
        }
    }

    /// The port names a body has (including the implicit ones).
    fn port_names(&self, body: &BodySpec) -> Vec<String> {
        let mut v: Vec<String> = match body.kind.get_ref() {
            BodyKind::Rigid => vec!["P".into()],
            BodyKind::Beam => vec!["P".into(), "C".into()],
        };
        for k in body.ports.keys() {
            if !v.contains(k) {
                v.push(k.clone());
            }
        }
        v
    }

    fn ground_names(&self) -> Vec<String> {
        let mut v = vec!["origin".to_string()];
        v.extend(self.spec.ground.keys().filter(|k| *k != "origin").cloned());
        v
    }

    /// Resolves `"body.port"` (or a ground point if `allow_ground`), naming `what` on error.
    fn resolve(
        &self,
        what: &str,
        r: &Spanned<String>,
        allow_ground: bool,
    ) -> Result<(String, String), ModelError> {
        let s = r.get_ref();
        let (b, p) = split_ref(s).ok_or_else(|| {
            self.err(
                r.span(),
                format!("{what}: '{s}' must have the form \"body.port\""),
            )
        })?;
        if b == GROUND {
            if !allow_ground {
                return Err(self.err(
                    r.span(),
                    format!("{what}: '{s}' must be a body port, not the ground"),
                ));
            }
            let g = self.ground_names();
            if !g.iter().any(|n| n == p) {
                return Err(self.err(
                    r.span(),
                    format!(
                        "{what}: unknown ground point '{p}'; ground points: {} (declare it under [ground])",
                        g.join(", ")
                    ),
                ));
            }
            return Ok((b.into(), p.into()));
        }
        let body = self.spec.bodies.get(b).ok_or_else(|| {
            let mut names: Vec<&str> = self.spec.bodies.keys().map(|k| k.as_str()).collect();
            if allow_ground {
                names.push(GROUND);
            }
            self.err(
                r.span(),
                format!("{what}: unknown body '{b}'; bodies: {}", names.join(", ")),
            )
        })?;
        let ports = self.port_names(body);
        if !ports.iter().any(|n| n == p) {
            return Err(self.err(
                r.span(),
                format!(
                    "{what}: body '{b}' has no port '{p}'; its ports: {}",
                    ports.join(", ")
                ),
            ));
        }
        Ok((b.into(), p.into()))
    }

    fn pose_of(&self, name: &str, b: &BodySpec) -> Result<(Pose2d, Twist2d), ModelError> {
        let line = self.header_line("bodies", name);
        let theta = match (b.pose.theta, b.pose.theta_deg) {
            (Some(_), Some(_)) => {
                return Err(self.err_line(
                    line,
                    format!("bodies.{name}.pose: give either theta [rad] or theta_deg, not both"),
                ))
            }
            (Some(t), None) => t,
            (None, Some(d)) => d.to_radians(),
            (None, None) => 0.0,
        };
        let p = Pose2d::new(b.pose.x, b.pose.y, theta);
        let t = Twist2d::new(b.twist.vx, b.twist.vy, b.twist.omega);
        for (v, k) in [
            (p.x, "pose.x"),
            (p.y, "pose.y"),
            (p.theta, "pose.theta"),
            (t.vx, "twist.vx"),
            (t.vy, "twist.vy"),
            (t.omega, "twist.omega"),
        ] {
            if !v.is_finite() {
                return Err(self.err_line(line, format!("bodies.{name}.{k} must be finite")));
            }
        }
        Ok((p, t))
    }

    fn forbid<T>(
        &self,
        name: &str,
        kind: &str,
        key: &str,
        v: &Option<Spanned<T>>,
    ) -> Result<(), ModelError> {
        if let Some(s) = v {
            return Err(self.err(
                s.span(),
                format!("bodies.{name}.{key} does not apply to a {kind} body"),
            ));
        }
        Ok(())
    }

    fn rigid_body(&self, name: &str, b: &BodySpec) -> Result<Body, ModelError> {
        for (k, v) in [
            ("length", &b.length),
            ("density", &b.density),
            ("youngs_modulus", &b.youngs_modulus),
            ("area", &b.area),
            ("second_moment", &b.second_moment),
            ("diameter", &b.diameter),
            ("mass_per_length", &b.mass_per_length),
            ("axial_stiffness", &b.axial_stiffness),
            ("bending_stiffness", &b.bending_stiffness),
        ] {
            self.forbid(name, "rigid", k, v)?;
        }
        self.forbid(name, "rigid", "elements", &b.elements)?;
        self.forbid(name, "rigid", "deformation_bc", &b.deformation_bc)?;
        if b.gyroscopic.is_some() {
            return Err(self.err_line(
                self.header_line("bodies", name),
                format!("bodies.{name}.gyroscopic does not apply to a rigid body"),
            ));
        }
        if let Some(g) = &b.geometric_stiffening {
            return Err(self.err(
                g.span(),
                format!("bodies.{name}.geometric_stiffening does not apply to a rigid body (it is an option of kind = \"beam\")"),
            ));
        }
        if let Some(g) = &b.mass_operator {
            return Err(self.err(
                g.span(),
                format!("bodies.{name}.mass_operator does not apply to a rigid body (it is an option of kind = \"beam\")"),
            ));
        }
        let mass = match &b.mass {
            Some(m) => self.positive(&format!("bodies.{name}.mass"), m)?,
            None => {
                return Err(self.err_line(
                    self.header_line("bodies", name),
                    format!("bodies.{name}: missing key mass [kg] (required for kind = \"rigid\")"),
                ))
            }
        };
        let inertia = match &b.inertia {
            Some(i) => self.non_negative(&format!("bodies.{name}.inertia"), i)?,
            None => 0.0,
        };
        let mut r = RigidBody2d::new(mass, inertia);
        if let Some(c) = &b.com {
            r = r.com(self.finite2(&format!("bodies.{name}.com"), c)?);
        }
        for (p, v) in &b.ports {
            if p == "P" {
                return Err(self.err(
                    v.span(),
                    format!("bodies.{name}.ports.P: port P is the body frame origin [0, 0] and exists already; name the point differently"),
                ));
            }
            let a = match v.get_ref() {
                toml::Value::Array(a) if a.len() == 2 => {
                    let f = |x: &toml::Value| x.as_float().or_else(|| x.as_integer().map(|i| i as f64));
                    match (f(&a[0]), f(&a[1])) {
                        (Some(x), Some(y)) if x.is_finite() && y.is_finite() => [x, y],
                        _ => {
                            return Err(self.err(
                                v.span(),
                                format!("bodies.{name}.ports.{p} must be two finite numbers [x, y] (body frame, m)"),
                            ))
                        }
                    }
                }
                _ => {
                    return Err(self.err(
                        v.span(),
                        format!("bodies.{name}.ports.{p}: a rigid body port is a point [x, y] in the body frame [m]"),
                    ))
                }
            };
            r = r.port(p.clone(), a);
        }
        Ok(self.placed(name, b, r)?.into())
    }

    /// The body description `body` of `[bodies.name]` (`b`) with its lumped masses and
    /// initial pose and twist.
    fn placed<B: Placed<Lumped = (String, f64, f64), Motion = (Pose2d, Twist2d)>>(
        &self,
        name: &str,
        b: &BodySpec,
        body: B,
    ) -> Result<B, ModelError> {
        let lumped = b.lumped.iter().map(|l| self.lumped(name, b, l));
        let lumped = lumped.collect::<Result<Vec<_>, _>>()?;
        Ok(body.placed(lumped, self.pose_of(name, b)?))
    }

    fn lumped(
        &self,
        name: &str,
        b: &BodySpec,
        l: &LumpedSpec,
    ) -> Result<(String, f64, f64), ModelError> {
        let ports = self.port_names(b);
        let p = l.port.get_ref();
        if !ports.contains(p) {
            return Err(self.err(
                l.port.span(),
                format!(
                    "bodies.{name}.lumped: body '{name}' has no port '{p}'; its ports: {}",
                    ports.join(", ")
                ),
            ));
        }
        let m = self.non_negative(&format!("bodies.{name}.lumped.mass"), &l.mass)?;
        let i = match &l.inertia {
            Some(i) => self.non_negative(&format!("bodies.{name}.lumped.inertia"), i)?,
            None => 0.0,
        };
        Ok((p.clone(), m, i))
    }

    fn beam_body(&self, name: &str, b: &BodySpec) -> Result<Body, ModelError> {
        self.forbid(name, "beam", "mass", &b.mass)?;
        self.forbid(name, "beam", "inertia", &b.inertia)?;
        self.forbid(name, "beam", "com", &b.com)?;
        let head = self.header_line("bodies", name);
        let key = |k: &str| format!("bodies.{name}.{k}");
        let length = match &b.length {
            Some(l) => self.positive(&key("length"), l)?,
            None => {
                return Err(self.err_line(
                    head,
                    format!("bodies.{name}: missing key length [m] (required for kind = \"beam\")"),
                ))
            }
        };
        let material = [
            &b.density,
            &b.youngs_modulus,
            &b.area,
            &b.second_moment,
            &b.diameter,
        ]
        .iter()
        .any(|v| v.is_some());
        let stiff = [&b.mass_per_length, &b.axial_stiffness, &b.bending_stiffness]
            .iter()
            .any(|v| v.is_some());
        let (rho_a, ea, ei) = match (material, stiff) {
            (true, true) => {
                return Err(self.err_line(
                    head,
                    format!("bodies.{name}: give either material data (density, youngs_modulus and area + second_moment or diameter) or section resultants (mass_per_length, axial_stiffness, bending_stiffness), not both"),
                ))
            }
            (false, false) => {
                return Err(self.err_line(
                    head,
                    format!("bodies.{name}: missing beam data: density, youngs_modulus and area + second_moment (or diameter), or mass_per_length, axial_stiffness, bending_stiffness"),
                ))
            }
            (false, true) => {
                let get = |k: &str, v: &Option<Spanned<f64>>| match v {
                    Some(s) => self.positive(&key(k), s),
                    None => Err(self.err_line(head, format!("bodies.{name}: missing key {k}"))),
                };
                (
                    get("mass_per_length", &b.mass_per_length)?,
                    get("axial_stiffness", &b.axial_stiffness)?,
                    get("bending_stiffness", &b.bending_stiffness)?,
                )
            }
            (true, false) => {
                let get = |k: &str, v: &Option<Spanned<f64>>| match v {
                    Some(s) => self.positive(&key(k), s),
                    None => Err(self.err_line(head, format!("bodies.{name}: missing key {k}"))),
                };
                let rho = get("density", &b.density)?;
                let e = get("youngs_modulus", &b.youngs_modulus)?;
                let (a, i) = match (&b.diameter, &b.area, &b.second_moment) {
                    (Some(d), None, None) => {
                        let d = self.positive(&key("diameter"), d)?;
                        let pi = std::f64::consts::PI;
                        (pi * d * d / 4.0, pi * d.powi(4) / 64.0)
                    }
                    (Some(d), _, _) => {
                        return Err(self.err(
                            d.span(),
                            format!("bodies.{name}: give either diameter or area + second_moment"),
                        ))
                    }
                    (None, a, i) => (get("area", a)?, get("second_moment", i)?),
                };
                (rho * a, e * a, e * i)
            }
        };
        let n = match &b.elements {
            Some(n) if (1..=1_000_000).contains(n.get_ref()) => *n.get_ref() as usize,
            Some(n) => {
                return Err(self.err(
                    n.span(),
                    format!(
                        "{} must be between 1 and 1e6 (got {})",
                        key("elements"),
                        n.get_ref()
                    ),
                ))
            }
            None => {
                return Err(self.err_line(
                    head,
                    format!("bodies.{name}: missing key elements (number of finite elements)"),
                ))
            }
        };
        let bc = match &b.deformation_bc {
            Some(s) => match s.get_ref() {
                BcSpec::Cantilever => DeformationBc::Cantilever,
                BcSpec::SimplySupported => DeformationBc::SimplySupported,
                BcSpec::Free => return Err(self.err(
                    s.span(),
                    format!("bodies.{name}: deformation_bc = \"free\" leaves the rigid motion in the deformation field and the floating-frame mass operator singular (paper 000 Remark 8); choose \"cantilever\" or \"simply_supported\""),
                )),
            },
            None => {
                return Err(self.err_line(
                    head,
                    format!("bodies.{name}: missing key deformation_bc; without a deformation boundary condition the floating-frame mass operator is singular (paper 000 Remark 8). Choose \"cantilever\" or \"simply_supported\""),
                ))
            }
        };
        let mut beam = FloatingBeam2d::new(length, rho_a, ea, ei, n).bc(bc);
        if let Some(g) = &b.geometric_stiffening {
            beam = beam.geometric_stiffening(*g.get_ref());
        }
        let full = "deformation-dependent inertia with centrifugal softening";
        if let Some(f) = self.full_inertia(name, &b.mass_operator, full)? {
            beam = beam.full_inertia(f);
        }
        if let Some(g) = b.gyroscopic {
            beam = beam.gyroscopic(match g {
                GyroSpec::Consistent => Gyroscopic::Consistent,
                GyroSpec::PaperLiteral => Gyroscopic::PaperLiteral,
            });
        }
        for (p, v) in &b.ports {
            if p == "P" || p == "C" {
                return Err(self.err(
                    v.span(),
                    format!("bodies.{name}.ports.{p}: ports P (x = 0) and C (x = L) of a beam exist already"),
                ));
            }
            let x = match v.get_ref() {
                toml::Value::Float(x) => *x,
                toml::Value::Integer(i) => *i as f64,
                _ => {
                    return Err(self.err(
                        v.span(),
                        format!("bodies.{name}.ports.{p}: a beam port is a material coordinate x [m] in [0, L]"),
                    ))
                }
            };
            if !(0.0..=length).contains(&x) {
                return Err(self.err(
                    v.span(),
                    format!("bodies.{name}.ports.{p}: x = {x} is outside the beam [0, {length}]"),
                ));
            }
            beam = beam.port(p.clone(), x);
        }
        Ok(self.placed(name, b, beam)?.into())
    }

    /// Validates the bodies, joints, ground points and loads and fills a builder (nothing
    /// is discretized yet).
    pub fn builder(&self) -> Result<MultibodyBuilder, ModelError> {
        let s = &self.spec;
        let mut builder = MultibodyBuilder::new();
        if let Some(g) = &s.gravity {
            builder.gravity(self.finite2("gravity", g)?);
        }
        if s.bodies.is_empty() {
            return Err(self.err_line(0, "no bodies: add at least one [bodies.NAME] table".into()));
        }
        for (name, b) in &s.bodies {
            if name == GROUND || name.contains('.') || name.is_empty() {
                return Err(self.err_line(
                    self.header_line("bodies", name),
                    format!("body name '{name}' is not allowed (no dots, not \"{GROUND}\")"),
                ));
            }
            let body = match b.kind.get_ref() {
                BodyKind::Rigid => self.rigid_body(name, b)?,
                BodyKind::Beam => self.beam_body(name, b)?,
            };
            builder.add_body(name.clone(), body);
        }
        for (name, p) in &s.ground {
            let v = self.finite2(&format!("ground.{name}"), p)?;
            builder.add_ground_point(name.clone(), v);
        }
        for (name, j) in &s.joints {
            let what = format!("joint '{name}'");
            let kind = *j.kind.get_ref();
            let (ba, pa) = self.resolve(&format!("{what}: key a"), &j.a, false)?;
            let b = match (&j.b, kind) {
                (Some(b), _) => self.resolve(&format!("{what}: key b"), b, true)?,
                (None, JointKindSpec::PrescribedVelocity) => (GROUND.into(), "origin".into()),
                (None, _) => {
                    return Err(self.err(
                        j.kind.span(),
                        format!("{what}: missing key b (\"body.port\" or \"ground.point\")"),
                    ))
                }
            };
            if kind != JointKindSpec::Slider {
                if let Some(d) = &j.direction {
                    return Err(self.err(
                        d.span(),
                        format!("{what}: direction applies to sliders only"),
                    ));
                }
            }
            if kind != JointKindSpec::PrescribedVelocity {
                if let Some(v) = [&j.vx, &j.vy, &j.omega].into_iter().flatten().next() {
                    return Err(self.err(
                        v.span(),
                        format!("{what}: vx, vy, omega apply to prescribed_velocity joints only"),
                    ));
                }
            }
            let grounded_only = matches!(
                kind,
                JointKindSpec::Slider | JointKindSpec::PrescribedVelocity
            );
            if grounded_only && b.0 != GROUND {
                let sp = j.b.as_ref().map(|s| s.span()).unwrap_or(j.kind.span());
                return Err(self.err(
                    sp,
                    format!("{what}: a slider or prescribed-velocity joint connects a body to the ground; set b = \"ground.POINT\""),
                ));
            }
            let jk = match kind {
                JointKindSpec::Revolute => JointKind::Revolute,
                JointKindSpec::Weld => JointKind::Weld,
                JointKindSpec::Slider => {
                    let d = j.direction.as_ref().ok_or_else(|| {
                        self.err(
                            j.kind.span(),
                            format!("{what}: missing key direction = [dx, dy] of the slider line"),
                        )
                    })?;
                    let v = self.finite2(&format!("joints.{name}.direction"), d)?;
                    if v[0] == 0.0 && v[1] == 0.0 {
                        return Err(
                            self.err(d.span(), format!("{what}: direction must be non-zero"))
                        );
                    }
                    JointKind::Slider { direction: v }
                }
                JointKindSpec::PrescribedVelocity => {
                    if j.vx.is_none() && j.vy.is_none() && j.omega.is_none() {
                        return Err(self.err(
                            j.kind.span(),
                            format!("{what}: a prescribed_velocity joint needs vx, vy (and optionally omega) signals"),
                        ));
                    }
                    JointKind::PrescribedVelocity {
                        vx: signal_of(self, &format!("joints.{name}.vx"), &j.vx)?,
                        vy: signal_of(self, &format!("joints.{name}.vy"), &j.vy)?,
                        omega: match &j.omega {
                            Some(_) => {
                                Some(signal_of(self, &format!("joints.{name}.omega"), &j.omega)?)
                            }
                            None => None,
                        },
                    }
                }
            };
            builder.add_joint(name.clone(), Joint::new(ba, pa, b.0, b.1, jk));
        }
        let mut load_names = BTreeSet::new();
        for l in &s.load {
            let name = l.name.get_ref();
            if !load_names.insert(name.clone()) || s.joints.contains_key(name) {
                return Err(self.err(
                    l.name.span(),
                    format!("load '{name}': the name is already used by another load or joint (port names must be unique)"),
                ));
            }
            let (b, p) = self.resolve(&format!("load '{name}': key at"), &l.at, false)?;
            let frame = match l.frame {
                FrameSpec::Body => Frame::Body,
                FrameSpec::Inertial => Frame::Inertial,
            };
            let load = Load::new(b, p, frame).signals(
                signal_of(self, &format!("load '{name}'.fx"), &l.fx)?,
                signal_of(self, &format!("load '{name}'.fy"), &l.fy)?,
                signal_of(self, &format!("load '{name}'.torque"), &l.torque)?,
            );
            builder.add_load(name.clone(), load);
        }
        for (name, f) in self.spring_dampers(&s.forces, false)? {
            builder.add_force(name, f);
        }
        builder.remove_redundant_constraints(
            s.initial.redundant_constraints == RedundancySpec::Remove,
        );
        Ok(builder)
    }

    /// Names of the input ports: loads, then prescribed-velocity joints.
    fn port_names_all(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .spec
            .load
            .iter()
            .map(|l| l.name.get_ref().clone())
            .collect();
        v.extend(
            self.spec
                .joints
                .iter()
                .filter(|(_, j)| *j.kind.get_ref() == JointKindSpec::PrescribedVelocity)
                .map(|(n, _)| n.clone()),
        );
        v
    }

    /// Checks that every name of the `[output]` list `key` (`list`) is a `what` of `names`
    /// (the error lists them as `plural`).
    fn all_known<T>(
        &self,
        key: &str,
        (what, plural): (&str, &str),
        list: &[Spanned<String>],
        names: &BTreeMap<String, T>,
    ) -> Result<(), ModelError> {
        match list.iter().find(|n| !names.contains_key(n.get_ref())) {
            Some(n) => Err(self.err(
                n.span(),
                format!(
                    "output.{key}: unknown {what} '{}'; {plural}: {}",
                    n.get_ref(),
                    names.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            )),
            None => Ok(()),
        }
    }

    fn validate_rest(&self) -> Result<(), ModelError> {
        let s = &self.spec;
        for l in &s.initial.lock {
            let ok = split_ref(l.get_ref())
                .filter(|(b, c)| s.bodies.contains_key(*b) && ["x", "y", "theta"].contains(c));
            if ok.is_none() {
                return Err(self.err(
                    l.span(),
                    format!("initial.lock: '{}' must be \"body.x\", \"body.y\" or \"body.theta\" of an existing body", l.get_ref()),
                ));
            }
        }
        if let Some(t) = &s.initial.position_tol {
            self.positive("initial.position_tol", t)?;
        }
        if let Some(t) = &s.initial.velocity_tol {
            self.positive("initial.velocity_tol", t)?;
        }
        if let Some(sim) = &s.simulation {
            sim.validate().map_err(|(span, msg)| self.err(span, msg))?;
        }
        let o = &s.output;
        for (n, r) in &o.points {
            self.resolve(&format!("output.points.{n}"), r, false)?;
        }
        self.all_known("poses", ("body", "bodies"), &o.poses, &s.bodies)?;
        for e in &o.elastic {
            let b = e.body.get_ref();
            let beam = s
                .bodies
                .get(b)
                .filter(|x| *x.kind.get_ref() == BodyKind::Beam);
            let Some(beam) = beam else {
                return Err(self.err(
                    e.body.span(),
                    format!(
                        "output.elastic '{}': '{b}' is not a beam body",
                        e.name.get_ref()
                    ),
                ));
            };
            let l = beam.length.as_ref().map(|v| *v.get_ref()).unwrap_or(0.0);
            let x = *e.x.get_ref();
            if !(0.0..=l).contains(&x) {
                return Err(self.err(
                    e.x.span(),
                    format!(
                        "output.elastic '{}': x = {x} is outside the beam [0, {l}]",
                        e.name.get_ref()
                    ),
                ));
            }
        }
        self.all_known("reactions", ("joint", "joints"), &o.reactions, &s.joints)?;
        let ports = self.port_names_all();
        for p in &o.ports {
            if !ports.contains(p.get_ref()) {
                return Err(self.err(p.span(), format!("output.ports: unknown port '{}'; ports (loads and prescribed_velocity joints): {}", p.get_ref(), if ports.is_empty() { "none".into() } else { ports.join(", ") })));
            }
        }
        if s.modes.count == 0 {
            return Err(self.err_line(
                self.section_line("modes"),
                "modes.count must be >= 1".into(),
            ));
        }
        Ok(())
    }

    /// Builds the pHDAE and its consistent initial state (`[initial]`).
    pub fn build(&self) -> Result<BuiltMbs> {
        let mb = self.builder()?.build().map_err(|e| self.convert(e))?;
        let input = mb.input();
        let s = &self.spec.initial;
        let tol = s
            .position_tol
            .as_ref()
            .map(|v| *v.get_ref())
            .unwrap_or(1e-12);
        let x0 = mb.initial_state();
        let init = if s.correct {
            let locked = s
                .lock
                .iter()
                .filter_map(|l| split_ref(l.get_ref()))
                .map(|(b, c)| {
                    let c = match c {
                        "x" => Coordinate::X,
                        "y" => Coordinate::Y,
                        _ => Coordinate::Theta,
                    };
                    (b.to_string(), c)
                })
                .collect();
            let opts = KinematicsOptions {
                locked,
                position_tol: tol,
                ..Default::default()
            };
            consistent_initial_state(&mb, &x0, &input, 0.0, &opts).map_err(|e| self.convert(e))?
        } else {
            self.check_consistent(&mb, &input, x0, tol)?
        };
        Ok(BuiltMbs {
            name: self.spec.model.name.clone(),
            mb,
            input,
            init,
        })
    }

    /// `[initial] correct = false`: the given state must satisfy the joints; multipliers
    /// are still computed from the hidden constraint.
    fn check_consistent(
        &self,
        mb: &Multibody,
        input: &InputFn,
        x0: Vec<f64>,
        tol: f64,
    ) -> Result<ConsistentInit> {
        let vtol = self
            .spec
            .initial
            .velocity_tol
            .as_ref()
            .map(|v| *v.get_ref())
            .unwrap_or(1e-10);
        // Position: the joints other than drivers (their targets start at the port).
        for d in mb.position_drift(&x0) {
            if d.max_abs > tol {
                return Err(self.convert(MbsError::InconsistentInitialConditions {
                    joint: d.joint,
                    level: "position".into(),
                    residual: d.max_abs,
                    tol,
                    hint: "; fix the poses or set [initial] correct = true".into(),
                }));
            }
        }
        // Velocity: the multiplier rows of f(x0, u0) are −(G p − B_λ u0).
        let u0 = input.eval(0.0);
        let mut f = vec![0.0; mb.n()];
        let mut x = x0.clone();
        for j in 0..mb.joint_names().len() {
            for i in mb.multiplier_range(j) {
                x[i] = 0.0;
            }
        }
        mb.rhs(&x, &u0, &mut f);
        for (j, name) in mb.joint_names().iter().enumerate() {
            let r = mb
                .multiplier_range(j)
                .fold(0.0f64, |m, i| m.max(f[i].abs()));
            if r > vtol {
                return Err(self.convert(MbsError::InconsistentInitialConditions {
                    joint: name.clone(),
                    level: "velocity".into(),
                    residual: r,
                    tol: vtol,
                    hint: "; fix the twists or set [initial] correct = true".into(),
                }));
            }
        }
        // Multipliers from the full procedure (positions and velocities are unchanged).
        let opts = KinematicsOptions {
            position_tol: tol.max(1e-12),
            ..Default::default()
        };
        consistent_initial_state(mb, &x0, input, 0.0, &opts).map_err(|e| self.convert(e))
    }

    /// Constrained eigenfrequencies of the linearisation about the initial configuration
    /// (finite eigenvalues of the pencil $(E, \partial_x f)$, paper eq. (51)).
    pub fn modes(&self, built: &BuiltMbs, count: usize) -> Result<Vec<ModeRow>> {
        let u0 = built.input.eval(0.0);
        let params = EigenParams {
            n_modes: Some(count),
            ..Default::default()
        };
        let r = phlex_mbs::modes(&built.mb, &built.init.state, &u0, &params)
            .context("eigen-analysis of the linearised multibody system failed")?;
        Ok(mode_rows(&r.modes, count))
    }
}
