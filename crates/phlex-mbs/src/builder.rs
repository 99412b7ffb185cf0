//! [`MultibodyBuilder`]: bodies, ports and joints by name, as a model file describes them.
//!
//! ```
//! use phlex_mbs::{Joint, MultibodyBuilder, Pose2d, RigidBody2d};
//! // A pendulum: a 1 kg point mass on a rigid massless link of 1 m, hinged at the origin.
//! let mut b = MultibodyBuilder::new();
//! b.gravity([0.0, -9.81])
//!     .add_body("bob", RigidBody2d::new(1.0, 0.0).com([1.0, 0.0]).port("pivot", [0.0, 0.0]))
//!     .add_joint("hinge", Joint::ground_revolute("bob", "pivot", "origin"));
//! let mb = b.build()?;
//! assert_eq!(mb.n_constraints(), 2);
//! // A joint naming an unknown port is reported with the available ports.
//! let mut bad = MultibodyBuilder::new();
//! bad.add_body("bob", RigidBody2d::new(1.0, 0.0))
//!     .add_joint("hinge", Joint::ground_revolute("bob", "pivot", "origin"));
//! let err = bad.build().unwrap_err().to_string();
//! assert!(err.contains("hinge") && err.contains("pivot") && err.contains("P"));
//! # Ok::<(), phlex_mbs::MbsError>(())
//! ```
use std::collections::HashSet;

use crate::assembly::{LoadModel, Multibody};
use crate::body::Body;
use crate::error::MbsError;
use crate::joint::{Joint, JointKind, JointModel, Resolved, GROUND};
use crate::load::Load;
use crate::planar_body::PlanarBody;
use crate::redundancy::check_redundancy;

/// Collects bodies, joints, loads and ground points, then validates and assembles them.
#[derive(Debug, Clone)]
pub struct MultibodyBuilder {
    gravity: [f64; 2],
    bodies: Vec<(String, Body)>,
    joints: Vec<(String, Joint)>,
    loads: Vec<(String, Load)>,
    ground_points: Vec<(String, [f64; 2])>,
    check_redundancy: bool,
}

impl Default for MultibodyBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl MultibodyBuilder {
    /// An empty model without gravity; the ground point `"origin"` = (0, 0) exists.
    pub fn new() -> Self {
        Self {
            gravity: [0.0, 0.0],
            bodies: Vec::new(),
            joints: Vec::new(),
            loads: Vec::new(),
            ground_points: vec![("origin".into(), [0.0, 0.0])],
            check_redundancy: true,
        }
    }

    /// Sets the gravity vector (inertial frame) \[m/s²\], e.g. `[0.0, -9.81]`.
    pub fn gravity(&mut self, g: [f64; 2]) -> &mut Self {
        self.gravity = g;
        self
    }

    /// Adds a body.
    pub fn add_body(&mut self, name: impl Into<String>, body: impl Into<Body>) -> &mut Self {
        self.bodies.push((name.into(), body.into()));
        self
    }

    /// Adds a joint.
    pub fn add_joint(&mut self, name: impl Into<String>, joint: Joint) -> &mut Self {
        self.joints.push((name.into(), joint));
        self
    }

    /// Adds a load (an input port named `name`).
    pub fn add_load(&mut self, name: impl Into<String>, load: Load) -> &mut Self {
        self.loads.push((name.into(), load));
        self
    }

    /// Declares (or moves) a named inertial point for joints to ground.
    pub fn add_ground_point(&mut self, name: impl Into<String>, p: [f64; 2]) -> &mut Self {
        let name = name.into();
        if let Some(g) = self.ground_points.iter_mut().find(|g| g.0 == name) {
            g.1 = p;
        } else {
            self.ground_points.push((name, p));
        }
        self
    }

    /// Enables or disables the redundant-constraint check of [`MultibodyBuilder::build`]
    /// (enabled by default).
    pub fn check_redundancy(&mut self, on: bool) -> &mut Self {
        self.check_redundancy = on;
        self
    }

    fn available_bodies(&self) -> String {
        let mut v: Vec<&str> = self.bodies.iter().map(|b| b.0.as_str()).collect();
        v.push(GROUND);
        v.join(", ")
    }

    fn resolve_port(
        &self,
        context: &str,
        models: &[PlanarBody],
        body: &str,
        port: &str,
    ) -> Result<(usize, usize), MbsError> {
        let b = self
            .bodies
            .iter()
            .position(|x| x.0 == body)
            .ok_or_else(|| MbsError::UnknownBody {
                context: context.into(),
                body: body.into(),
                available: self.available_bodies(),
            })?;
        let p = models[b]
            .port_index(port)
            .ok_or_else(|| MbsError::UnknownPort {
                context: context.into(),
                body: body.into(),
                port: port.into(),
                available: models[b].port_names(),
            })?;
        Ok((b, p))
    }

    fn ground_point(&self, context: &str, name: &str) -> Result<[f64; 2], MbsError> {
        self.ground_points
            .iter()
            .find(|g| g.0 == name)
            .map(|g| g.1)
            .ok_or_else(|| MbsError::UnknownPort {
                context: context.into(),
                body: GROUND.into(),
                port: name.into(),
                available: self
                    .ground_points
                    .iter()
                    .map(|g| g.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// Validates everything, discretizes the bodies, resolves names and assembles the
    /// pHDAE; with the redundancy check on, rejects rank-deficient constraints at the
    /// initial configuration naming the joints.
    pub fn build(&self) -> Result<Multibody, MbsError> {
        let mut names = HashSet::new();
        for (n, _) in &self.bodies {
            if n == GROUND || !names.insert(n.as_str()) {
                return Err(MbsError::DuplicateName {
                    what: "body".into(),
                    name: n.clone(),
                });
            }
        }
        for g in &self.gravity {
            if !g.is_finite() {
                return Err(MbsError::InvalidBodyParameter {
                    body: "(model)".into(),
                    parameter: "gravity".into(),
                    value: *g,
                    requirement: "finite gravity components".into(),
                });
            }
        }
        let mut models = Vec::with_capacity(self.bodies.len());
        for (n, b) in &self.bodies {
            let mut m = b.build(n)?;
            m.set_gravity(self.gravity);
            models.push(m);
        }
        let mut jnames = HashSet::new();
        let mut joints = Vec::with_capacity(self.joints.len());
        for (name, j) in &self.joints {
            if !jnames.insert(name.as_str()) {
                return Err(MbsError::DuplicateName {
                    what: "joint".into(),
                    name: name.clone(),
                });
            }
            let ctx = format!("joint '{name}'");
            if j.body_a == GROUND {
                return Err(MbsError::InvalidJoint {
                    joint: name.clone(),
                    reason: "body_a must be a body; put the ground on side b".into(),
                });
            }
            let a = self.resolve_port(&ctx, &models, &j.body_a, &j.port_a)?;
            let (b, point) = if j.is_grounded() {
                (None, Some(self.ground_point(&ctx, &j.port_b)?))
            } else {
                (
                    Some(self.resolve_port(&ctx, &models, &j.body_b, &j.port_b)?),
                    None,
                )
            };
            if let Some((bb, _)) = b {
                if bb == a.0 {
                    return Err(MbsError::InvalidJoint {
                        joint: name.clone(),
                        reason: format!("connects body '{}' with itself", j.body_a),
                    });
                }
            }
            let xa = models[a.0].initial_state();
            let ang_a = models[a.0].port_angle(a.1, &xa);
            let kind = match (&j.kind, b, point) {
                (JointKind::Revolute, Some(_), _) => Resolved::Revolute,
                (JointKind::Revolute, None, Some(p)) => Resolved::GroundPoint { point: p },
                (JointKind::Weld, Some((bb, pb)), _) => {
                    let xb = models[bb].initial_state();
                    Resolved::Weld {
                        rel0: models[bb].port_angle(pb, &xb) - ang_a,
                    }
                }
                (JointKind::Weld, None, Some(p)) => Resolved::GroundFrame {
                    point: p,
                    angle0: ang_a,
                },
                (JointKind::Slider { direction }, None, Some(p)) => {
                    let normal = crate::joint::slider::normal(*direction).ok_or_else(|| {
                        MbsError::InvalidJoint {
                            joint: name.clone(),
                            reason: format!(
                                "slider direction {direction:?} must be non-zero and finite"
                            ),
                        }
                    })?;
                    Resolved::Slider { point: p, normal }
                }
                (JointKind::PrescribedVelocity { vx, vy, omega }, None, _) => {
                    let mut signals = vec![vx.clone(), vy.clone()];
                    if let Some(w) = omega {
                        signals.push(w.clone());
                    }
                    Resolved::Prescribed {
                        rotation: omega.is_some(),
                        signals,
                    }
                }
                (k, Some(_), _) => {
                    return Err(MbsError::InvalidJoint {
                        joint: name.clone(),
                        reason: format!(
                            "a {} joint connects a body to the ground; set body_b = \"{GROUND}\"",
                            k.name()
                        ),
                    })
                }
                (_, None, None) => unreachable_ground(name)?,
            };
            joints.push(JointModel {
                name: name.clone(),
                a,
                b,
                kind,
            });
        }
        let mut loads = Vec::with_capacity(self.loads.len());
        for (name, l) in &self.loads {
            if jnames.contains(name.as_str()) {
                return Err(MbsError::DuplicateName {
                    what: "load/joint port".into(),
                    name: name.clone(),
                });
            }
            let (b, p) = self.resolve_port(&format!("load '{name}'"), &models, &l.body, &l.port)?;
            loads.push(LoadModel {
                name: name.clone(),
                body: b,
                port: p,
                frame: l.frame,
                signals: [l.fx.clone(), l.fy.clone(), l.torque.clone()],
            });
        }
        let mb = Multibody::assemble(models, joints, loads, self.ground_points.clone())?;
        if self.check_redundancy {
            let x0 = mb.initial_state();
            check_redundancy(&mb, &x0)?;
        }
        Ok(mb)
    }
}

/// A ground joint always resolves its ground point (or fails earlier); kept as an error
/// rather than a panic.
fn unreachable_ground(name: &str) -> Result<Resolved, MbsError> {
    Err(MbsError::InvalidJoint {
        joint: name.into(),
        reason: "ground joint without a ground point".into(),
    })
}
