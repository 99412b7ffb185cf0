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
use crate::body::planar::description::Body;
use crate::body::planar::floating_body::PlanarBody;
use crate::body::FloatingBody;
use crate::common::force_element::{self, SpringDamper};
use crate::common::names::{check_finite, ModelParts, SideB};
use crate::error::MbsError;
use crate::planar::assembly::{LoadModel, Multibody};
use crate::planar::joint::{Joint, JointKind, JointModel, Resolved, GROUND};
use crate::planar::load::Load;
use crate::planar::redundancy::check_redundancy;

/// Collects bodies, joints, loads and ground points, then validates and assembles them.
#[derive(Debug, Clone)]
pub struct MultibodyBuilder {
    parts: ModelParts<Body, Joint, Load, 2>,
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
            parts: ModelParts::new(),
        }
    }

    /// Sets the gravity vector (inertial frame) \[m/s²\], e.g. `[0.0, -9.81]`.
    pub fn gravity(&mut self, g: [f64; 2]) -> &mut Self {
        self.parts.gravity = g;
        self
    }

    /// Adds a body.
    pub fn add_body(&mut self, name: impl Into<String>, body: impl Into<Body>) -> &mut Self {
        self.parts.bodies.push((name.into(), body.into()));
        self
    }

    /// Adds a joint.
    pub fn add_joint(&mut self, name: impl Into<String>, joint: Joint) -> &mut Self {
        self.parts.joints.push((name.into(), joint));
        self
    }

    /// Adds a load (an input port named `name`).
    pub fn add_load(&mut self, name: impl Into<String>, load: Load) -> &mut Self {
        self.parts.loads.push((name.into(), load));
        self
    }

    /// Adds a spring-damper between two body points (or a body point and a ground point)
    /// ([`crate::common::force_element`]).
    pub fn add_force(&mut self, name: impl Into<String>, element: SpringDamper) -> &mut Self {
        self.parts.forces.push((name.into(), element));
        self
    }

    /// Declares (or moves) a named inertial point for joints to ground.
    pub fn add_ground_point(&mut self, name: impl Into<String>, p: [f64; 2]) -> &mut Self {
        self.parts.set_ground_point(name.into(), p);
        self
    }

    /// Releases the redundant constraint rows found at the initial configuration instead
    /// of rejecting them (default off): a Gram–Schmidt sweep in joint order
    /// ([`crate::common::rank`]) names the rows that are combinations of earlier ones; they
    /// leave $G$ and their multipliers stay zero, so a consistent over-constrained
    /// mechanism runs ([`crate::common::force_element::ForceElements`]); `released_rows()`
    /// of the assembly lists them.
    pub fn remove_redundant_constraints(&mut self, on: bool) -> &mut Self {
        self.parts.remove_redundant = on;
        self
    }

    /// Whether to check the joint constraints for redundancy at build time (default on).
    pub fn check_redundancy(&mut self, on: bool) -> &mut Self {
        self.parts.check_redundancy = on;
        self
    }

    /// Validates everything, discretizes the bodies, resolves names and assembles the
    /// pHDAE; with the redundancy check on, rejects rank-deficient constraints at the
    /// initial configuration naming the joints.
    pub fn build(&self) -> Result<Multibody, MbsError> {
        let parts = &self.parts;
        parts.check_body_names()?;
        check_finite(&parts.gravity, "gravity", "finite gravity components")?;
        let mut models = Vec::with_capacity(parts.bodies.len());
        for (n, b) in &parts.bodies {
            let mut m = b.build(n)?;
            m.set_gravity(parts.gravity);
            models.push(m);
        }
        let mut names = parts.resolver(models.iter().map(|m| m as &dyn FloatingBody).collect());
        let mut joints = Vec::with_capacity(parts.joints.len());
        for (name, j) in &parts.joints {
            let a = names.side_a(name, j)?;
            let side_b = names.side_b(name, j, a)?;
            let kind = resolve_kind(name, j, &models, a, side_b)?;
            let b = match side_b {
                SideB::Body(b) => Some(b),
                SideB::Ground(_) => None,
            };
            joints.push(JointModel {
                name: name.clone(),
                a,
                b,
                kind,
                released: Vec::new(),
            });
        }
        let mut loads = Vec::with_capacity(parts.loads.len());
        for (name, l) in &parts.loads {
            let (b, p) = names.load_port(name, &l.body, &l.port)?;
            loads.push(LoadModel {
                name: name.clone(),
                body: b,
                port: p,
                frame: l.frame,
                signals: [l.fx.clone(), l.fy.clone(), l.torque.clone()],
            });
        }
        let forces = force_element::resolve(
            &parts.forces,
            |name, body, port| names.force_end(name, body, port),
            |b, p| {
                let q = models[b].port_position(p, &models[b].initial_state());
                [q[0], q[1], 0.0]
            },
            |_, v| v,
        )?;
        let mut mb =
            Multibody::assemble(models, joints, forces, loads, parts.ground_points.clone())?;
        if parts.remove_redundant {
            let x0 = mb.initial_state();
            let sel = crate::common::rank::select_independent_rows(&mb, &x0);
            mb.release_rows(&sel.redundant)?;
        } else if parts.check_redundancy {
            let x0 = mb.initial_state();
            check_redundancy(&mb, &x0)?;
        }
        Ok(mb)
    }
}

/// The constraint model of planar joint `name` between port `a` and side `b` (paper 000
/// §5.1–5.2): relative angles and weld offsets from the initial poses.
fn resolve_kind(
    name: &str,
    j: &Joint,
    models: &[PlanarBody],
    a: (usize, usize),
    b: SideB<2>,
) -> Result<Resolved, MbsError> {
    let invalid = |reason: String| MbsError::InvalidJoint {
        joint: name.into(),
        reason,
    };
    let xa = models[a.0].initial_state();
    let ang_a = models[a.0].port_angle(a.1, &xa);
    Ok(match (&j.kind, b) {
        (JointKind::Revolute, SideB::Body(_)) => Resolved::Revolute,
        (JointKind::Revolute, SideB::Ground(p)) => Resolved::GroundPoint { point: p },
        (JointKind::Weld, SideB::Body((bb, pb))) => {
            let xb = models[bb].initial_state();
            Resolved::Weld {
                rel0: models[bb].port_angle(pb, &xb) - ang_a,
            }
        }
        (JointKind::Weld, SideB::Ground(p)) => Resolved::GroundFrame {
            point: p,
            angle0: ang_a,
        },
        (JointKind::Slider { direction }, SideB::Ground(p)) => {
            let normal = crate::planar::joint::slider::normal(*direction).ok_or_else(|| {
                invalid(format!(
                    "slider direction {direction:?} must be non-zero and finite"
                ))
            })?;
            Resolved::Slider { point: p, normal }
        }
        (JointKind::PrescribedVelocity { vx, vy, omega }, SideB::Ground(_)) => {
            let mut signals = vec![vx.clone(), vy.clone()];
            if let Some(w) = omega {
                signals.push(w.clone());
            }
            Resolved::Prescribed {
                rotation: omega.is_some(),
                signals,
            }
        }
        (k, SideB::Body(_)) => {
            return Err(invalid(format!(
                "a {} joint connects a body to the ground; set body_b = \"{GROUND}\"",
                k.name()
            )))
        }
    })
}
