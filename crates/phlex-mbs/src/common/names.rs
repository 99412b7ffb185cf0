//! Name resolution shared by the planar ([`crate::MultibodyBuilder`]) and spatial
//! ([`crate::spatial::MultibodyBuilder3d`]) builders: what a model file names — bodies,
//! their ports, the ground points of [`GROUND`], joints, loads and force elements — mapped to indices, with
//! errors that list what exists.
use std::collections::HashSet;

use crate::body::FloatingBody;
use crate::common::force_element::{End, SpringDamper};
use crate::error::MbsError;
use crate::planar::joint::{JointSpec, GROUND};

/// What a builder collects before it validates and assembles: gravity, bodies, joints,
/// loads and ground points, each in the order given (`D` = 2 or 3 coordinates).
#[derive(Debug, Clone)]
pub(crate) struct ModelParts<B, J, L, const D: usize> {
    /// Gravity vector (inertial) \[m/s²\].
    pub gravity: [f64; D],
    /// Bodies by name (descriptions, built by the builder).
    pub bodies: Vec<(String, B)>,
    /// Joints by name.
    pub joints: Vec<(String, J)>,
    /// Loads by name.
    pub loads: Vec<(String, L)>,
    /// Spring-dampers by name.
    pub forces: Vec<(String, SpringDamper)>,
    /// Named inertial points (the ports of the ground); `"origin"` exists from the start.
    pub ground_points: Vec<(String, [f64; D])>,
    /// Run the redundant-constraint check after assembly.
    pub check_redundancy: bool,
    /// Release redundant constraint rows instead of rejecting them.
    pub remove_redundant: bool,
}

impl<B, J, L, const D: usize> ModelParts<B, J, L, D> {
    /// No gravity, no bodies, the ground point `"origin"` at zero, redundancy check on.
    pub fn new() -> Self {
        Self {
            gravity: [0.0; D],
            bodies: Vec::new(),
            joints: Vec::new(),
            loads: Vec::new(),
            forces: Vec::new(),
            ground_points: vec![("origin".into(), [0.0; D])],
            check_redundancy: true,
            remove_redundant: false,
        }
    }

    /// Declares (or moves) a named ground point.
    pub fn set_ground_point(&mut self, name: String, p: [f64; D]) {
        if let Some(g) = self.ground_points.iter_mut().find(|g| g.0 == name) {
            g.1 = p;
        } else {
            self.ground_points.push((name, p));
        }
    }

    /// Checks that body names are unique and not [`GROUND`].
    pub fn check_body_names(&self) -> Result<(), MbsError> {
        let mut names = HashSet::new();
        for (n, _) in &self.bodies {
            if n == GROUND || !names.insert(n.as_str()) {
                return Err(MbsError::DuplicateName {
                    what: "body".into(),
                    name: n.clone(),
                });
            }
        }
        Ok(())
    }

    /// Resolves names against the built body `models` (in the order of `bodies`).
    pub fn resolver<'a>(&'a self, models: Vec<&'a dyn FloatingBody>) -> Resolver<'a, B, J, L, D> {
        Resolver {
            parts: self,
            models,
            joint_names: HashSet::new(),
        }
    }
}

/// Rejects the first non-finite value of `values` as an invalid model `parameter`.
pub(crate) fn check_finite<'a>(
    values: impl IntoIterator<Item = &'a f64>,
    parameter: &str,
    requirement: &str,
) -> Result<(), MbsError> {
    match values.into_iter().find(|g| !g.is_finite()) {
        Some(g) => Err(MbsError::InvalidBodyParameter {
            body: "(model)".into(),
            parameter: parameter.into(),
            value: *g,
            requirement: requirement.into(),
        }),
        None => Ok(()),
    }
}

/// The second side of a joint after name resolution.
#[derive(Debug, Clone, Copy)]
pub(crate) enum SideB<const D: usize> {
    /// `(body, port)`.
    Body((usize, usize)),
    /// A ground point.
    Ground([f64; D]),
}

/// Maps names to `(body, port)` indices and ground points, and keeps joint and load names
/// unique (a load is an input port named after it, as is a joint's multiplier port).
pub(crate) struct Resolver<'a, B, J, L, const D: usize> {
    parts: &'a ModelParts<B, J, L, D>,
    models: Vec<&'a dyn FloatingBody>,
    joint_names: HashSet<&'a str>,
}

impl<'a, B, J, L, const D: usize> Resolver<'a, B, J, L, D> {
    /// `(body, port)` of port `port` of body `body`; `context` names the joint or load.
    pub fn port(&self, context: &str, body: &str, port: &str) -> Result<(usize, usize), MbsError> {
        let bodies = &self.parts.bodies;
        let b = bodies
            .iter()
            .position(|x| x.0 == body)
            .ok_or_else(|| MbsError::UnknownBody {
                context: context.into(),
                body: body.into(),
                available: bodies
                    .iter()
                    .map(|b| b.0.as_str())
                    .chain([GROUND])
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        let p = self.models[b]
            .port_index(port)
            .ok_or_else(|| MbsError::UnknownPort {
                context: context.into(),
                body: body.into(),
                port: port.into(),
                available: self.models[b].port_names(),
            })?;
        Ok((b, p))
    }

    /// The ground point called `name`.
    pub fn ground_point(&self, context: &str, name: &str) -> Result<[f64; D], MbsError> {
        let points = &self.parts.ground_points;
        points
            .iter()
            .find(|g| g.0 == name)
            .map(|g| g.1)
            .ok_or_else(|| MbsError::UnknownPort {
                context: context.into(),
                body: GROUND.into(),
                port: name.into(),
                available: points
                    .iter()
                    .map(|g| g.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// Registers joint `name` (unique) and resolves its first side, which must be a body.
    pub fn side_a<K>(
        &mut self,
        name: &'a str,
        j: &JointSpec<K>,
    ) -> Result<(usize, usize), MbsError> {
        if !self.joint_names.insert(name) {
            return Err(MbsError::DuplicateName {
                what: "joint".into(),
                name: name.into(),
            });
        }
        if j.body_a == GROUND {
            return Err(MbsError::InvalidJoint {
                joint: name.into(),
                reason: "body_a must be a body; put the ground on side b".into(),
            });
        }
        self.port(&format!("joint '{name}'"), &j.body_a, &j.port_a)
    }

    /// Resolves the second side of joint `name` (first side `a`): a ground point if the
    /// joint is grounded, otherwise a port of another body.
    pub fn side_b<K>(
        &self,
        name: &str,
        j: &JointSpec<K>,
        a: (usize, usize),
    ) -> Result<SideB<D>, MbsError> {
        let ctx = format!("joint '{name}'");
        if j.is_grounded() {
            return Ok(SideB::Ground(self.ground_point(&ctx, &j.port_b)?));
        }
        let b = self.port(&ctx, &j.body_b, &j.port_b)?;
        if b.0 == a.0 {
            return Err(MbsError::InvalidJoint {
                joint: name.into(),
                reason: format!("connects body '{}' with itself", j.body_a),
            });
        }
        Ok(SideB::Body(b))
    }

    /// `(body, port)` of load `name`, whose input port must not share a joint's name.
    pub fn load_port(
        &self,
        name: &str,
        body: &str,
        port: &str,
    ) -> Result<(usize, usize), MbsError> {
        if self.joint_names.contains(name) {
            return Err(MbsError::DuplicateName {
                what: "load/joint port".into(),
                name: name.into(),
            });
        }
        self.port(&format!("load '{name}'"), body, port)
    }

    /// One end of force element `name`: a ground point if `body` is [`GROUND`], otherwise
    /// a body port (positions padded to 3 components).
    pub fn force_end(&self, name: &str, body: &str, port: &str) -> Result<End, MbsError> {
        let ctx = format!("force element '{name}'");
        if body == GROUND {
            let g = self.ground_point(&ctx, port)?;
            let mut p = [0.0; 3];
            p[..D].copy_from_slice(&g);
            return Ok(End::Ground(p));
        }
        let (b, p) = self.port(&ctx, body, port)?;
        Ok(End::Body(b, p))
    }
}
