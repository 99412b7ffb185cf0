//! [`MultibodyBuilder3d`]: spatial bodies, ports, joints and loads by name.
//!
//! ```
//! use phlex_mbs::spatial::{Joint3d, MultibodyBuilder3d};
//! use phlex_mbs::RigidBody3d;
//! // A heavy top: centre of mass 0.1 m above the pivot P, fixed at the origin.
//! let mut b = MultibodyBuilder3d::new();
//! b.gravity([0.0, 0.0, -9.81])
//!     .add_body("top", RigidBody3d::new(1.0, [0.01, 0.01, 0.02]).com([0.0, 0.0, 0.1]))
//!     .add_joint("pivot", Joint3d::ground_point("top", "P", "origin"));
//! let mb = b.build()?;
//! assert_eq!(mb.n_constraints(), 3);
//! // A joint naming an unknown body is reported with the bodies that exist.
//! let mut bad = MultibodyBuilder3d::new();
//! bad.add_body("top", RigidBody3d::new(1.0, [0.01, 0.01, 0.02]))
//!     .add_joint("pivot", Joint3d::ground_point("tip", "P", "origin"));
//! let err = bad.build().unwrap_err().to_string();
//! assert!(err.contains("pivot") && err.contains("'tip'") && err.contains("top"));
//! # Ok::<(), phlex_mbs::MbsError>(())
//! ```
use crate::common::force_element::{self, SpringDamper};
use std::sync::Arc;

use crate::body::FloatingBody;

use crate::common::names::{check_finite, ModelParts, Resolver, SideB};
use crate::error::MbsError;
use crate::planar::joint::GROUND;
use crate::spatial::assembly::{LoadModel3d, Multibody3d};
use crate::spatial::body::{SpatialBody, SpatialBodySpec};
use crate::spatial::joint::prescribed::Prescribed;
use crate::spatial::joint::prismatic::Prismatic;
use crate::spatial::joint::revolute::Revolute;
use crate::spatial::joint::{ground, AxisFrame, Joint3d, JointKind3d, JointModel3d, Resolved3d};
use crate::spatial::load::Load3d;
use crate::spatial::redundancy::check_redundancy_3d;
use phlex_core::geometry::mat3::{
    dot, mat_t_mul, mat_t_vec, mat_vec, normal_pair, scale, sub, unit, Mat3,
};

type Parts3d = ModelParts<Box<dyn SpatialBodySpec>, Joint3d, Load3d, 3>;

/// Collects spatial bodies, joints, loads and ground points, then validates and assembles
/// them into a [`Multibody3d`].
#[derive(Debug)]
pub struct MultibodyBuilder3d {
    parts: Parts3d,
}

impl Default for MultibodyBuilder3d {
    fn default() -> Self {
        Self::new()
    }
}

impl MultibodyBuilder3d {
    /// An empty model without gravity; the ground point `"origin"` = (0, 0, 0) exists.
    pub fn new() -> Self {
        Self {
            parts: ModelParts::new(),
        }
    }

    /// Sets the gravity vector (inertial frame) \[m/s²\], e.g. `[0.0, 0.0, -9.81]`.
    pub fn gravity(&mut self, g: [f64; 3]) -> &mut Self {
        self.parts.gravity = g;
        self
    }

    /// Adds a body (its description; validated and built by [`MultibodyBuilder3d::build`]).
    pub fn add_body(
        &mut self,
        name: impl Into<String>,
        body: impl SpatialBodySpec + 'static,
    ) -> &mut Self {
        self.parts.bodies.push((name.into(), Box::new(body)));
        self
    }

    /// Adds a joint.
    pub fn add_joint(&mut self, name: impl Into<String>, joint: Joint3d) -> &mut Self {
        self.parts.joints.push((name.into(), joint));
        self
    }

    /// Adds a load (an input port named `name`, dimension 6).
    pub fn add_load(&mut self, name: impl Into<String>, load: Load3d) -> &mut Self {
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
    pub fn add_ground_point(&mut self, name: impl Into<String>, p: [f64; 3]) -> &mut Self {
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

    /// Validates everything, builds the bodies, resolves names and assembles the pHDAE;
    /// with the redundancy check on, rejects rank-deficient constraints at the initial
    /// configuration naming the joints.
    pub fn build(&self) -> Result<Multibody3d, MbsError> {
        let parts = &self.parts;
        parts.check_body_names()?;
        let points = parts.ground_points.iter().flat_map(|p| p.1.iter());
        check_finite(
            parts.gravity.iter().chain(points),
            "gravity / ground point",
            "finite components",
        )?;
        let mut models: Vec<Arc<dyn SpatialBody>> = Vec::with_capacity(parts.bodies.len());
        for (n, spec) in &parts.bodies {
            let mut m = spec.build_spatial(n)?;
            m.set_gravity(parts.gravity);
            models.push(Arc::from(m));
        }
        let mut names = parts.resolver(
            models
                .iter()
                .map(|m| m.as_ref() as &dyn FloatingBody)
                .collect(),
        );
        let mut joints = Vec::with_capacity(parts.joints.len());
        for (name, j) in &parts.joints {
            joints.push(resolve_joint(&mut names, name, j, &models)?);
        }
        let mut loads = Vec::with_capacity(parts.loads.len());
        for (name, l) in &parts.loads {
            let (b, p) = names.load_port(name, &l.body, &l.port)?;
            let mut signals = l.force.to_vec();
            signals.extend(l.torque.iter().cloned());
            loads.push(LoadModel3d {
                name: name.clone(),
                body: b,
                port: p,
                frame: l.frame,
                signals,
            });
        }
        let forces = force_element::resolve(
            &parts.forces,
            |name, body, port| names.force_end(name, body, port),
            |b, p| models[b].port_position(p, &models[b].initial_state()),
            |b, v| mat_t_vec(&models[b].rotation(&models[b].initial_state()), v),
        )?;
        let mut mb =
            Multibody3d::assemble(models, joints, forces, loads, parts.ground_points.clone())?;
        if parts.remove_redundant {
            let x0 = mb.initial_state();
            let sel = crate::common::rank::select_independent_rows(&mb, &x0);
            mb.release_rows(&sel.redundant)?;
        } else if parts.check_redundancy {
            let x0 = mb.initial_state();
            check_redundancy_3d(&mb, &x0)?;
        }
        Ok(mb)
    }
}

/// The constraint model of spatial joint `name` (paper 000 §5.1–5.2 in 3D): axes, normals
/// and reference orientations $q_0 = R_a^\top R_b$ from the initial poses.
fn resolve_joint<'a>(
    names: &mut Resolver<'a, Box<dyn SpatialBodySpec>, Joint3d, Load3d, 3>,
    name: &'a str,
    j: &Joint3d,
    models: &[Arc<dyn SpatialBody>],
) -> Result<JointModel3d, MbsError> {
    let invalid = |reason: String| MbsError::InvalidJoint {
        joint: name.into(),
        reason,
    };
    let a = names.side_a(name, j)?;
    let xa = models[a.0].initial_state();
    let ra0 = models[a.0].rotation(&xa);
    let ca = models[a.0].ports()[a.1].orientation;
    let pa0 = models[a.0].port_position(a.1, &xa);
    let axis_a = |axis: [f64; 3], frame: AxisFrame| -> Result<[f64; 3], MbsError> {
        let e = unit(axis).ok_or_else(|| {
            invalid(format!(
                "{} axis {axis:?} must be non-zero and finite",
                j.kind.name()
            ))
        })?;
        Ok(match frame {
            AxisFrame::Inertial => mat_t_vec(&ra0, e),
            AxisFrame::Port => mat_vec(&ca, e),
        })
    };
    if let JointKind3d::PrescribedVelocity {
        velocity,
        angular_velocity,
    } = &j.kind
    {
        if !j.is_grounded() {
            return Err(invalid(format!(
                "a prescribed velocity drives a body port relative to the ground; set body_b = \"{GROUND}\""
            )));
        }
        let mut signals = velocity.to_vec();
        let rotation = angular_velocity.as_ref().map(|(w, f)| {
            signals.extend(w.iter().cloned());
            *f
        });
        return Ok(JointModel3d {
            name: name.into(),
            a,
            b: None,
            kind: Resolved3d::Prescribed(Prescribed { signals, rotation }),
            released: Vec::new(),
        });
    }
    let b = match names.side_b(name, j, a)? {
        SideB::Body(b) => b,
        SideB::Ground(point) => {
            let kind = match &j.kind {
                JointKind3d::Spherical => Resolved3d::GroundPoint { point },
                JointKind3d::Weld => Resolved3d::GroundFrame { point, r0: ra0 },
                JointKind3d::Revolute { axis, frame } => {
                    let e_a = axis_a(*axis, *frame)?;
                    Resolved3d::GroundRevolute(ground::GroundRevolute {
                        point,
                        e_a,
                        n_a: normal_pair(e_a),
                        r0: ra0,
                    })
                }
                JointKind3d::Prismatic { axis, frame } => {
                    let e_a = axis_a(*axis, *frame)?;
                    Resolved3d::GroundPrismatic(ground::GroundPrismatic {
                        point,
                        e_a,
                        n_a: normal_pair(e_a),
                        r0: ra0,
                    })
                }
                JointKind3d::PrescribedVelocity { .. } => unreachable_prescribed(name)?,
            };
            return Ok(JointModel3d {
                name: name.into(),
                a,
                b: None,
                kind,
                released: Vec::new(),
            });
        }
    };
    let xb = models[b.0].initial_state();
    let rb0 = models[b.0].rotation(&xb);
    let pb0 = models[b.0].port_position(b.1, &xb);
    let q0: Mat3 = mat_t_mul(&ra0, &rb0);
    let kind = match &j.kind {
        JointKind3d::Spherical => Resolved3d::Spherical,
        JointKind3d::Weld => Resolved3d::Weld { q0 },
        JointKind3d::Revolute { axis, frame } => {
            let e_a = axis_a(*axis, *frame)?;
            let e_b = mat_t_vec(&q0, e_a);
            Resolved3d::Revolute(Revolute {
                e_a,
                e_b,
                n_b: normal_pair(e_b),
                q0,
            })
        }
        JointKind3d::Prismatic { axis, frame } => {
            let e_a = axis_a(*axis, *frame)?;
            let d = mat_t_vec(&ra0, sub(pb0, pa0));
            let d0 = sub(d, scale(dot(e_a, d), e_a));
            Resolved3d::Prismatic(Prismatic {
                e_a,
                n_a: normal_pair(e_a),
                q0,
                d0,
            })
        }
        JointKind3d::PrescribedVelocity { .. } => unreachable_prescribed(name)?,
    };
    Ok(JointModel3d {
        name: name.into(),
        a,
        b: Some(b),
        kind,
        released: Vec::new(),
    })
}

/// Prescribed velocities are resolved before; kept as an error rather than a panic.
fn unreachable_prescribed(name: &str) -> Result<Resolved3d, MbsError> {
    Err(MbsError::InvalidJoint {
        joint: name.into(),
        reason: "prescribed velocity not resolved".into(),
    })
}
