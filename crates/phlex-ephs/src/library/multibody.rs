//! Multibody systems: bodies (Fig. 2) and joints (Fig. 3) wired by junctions
//! {b_k.p, j_m.p1 / j_m.p2} (seed 001 §6, Fig. 1; "adding more bodies and joints means
//! adding boxes and junctions").
use crate::error::EphsError;
use crate::language::interface::Interface;
use crate::language::pattern::Pattern;
use crate::language::quantity::Quantity;
use crate::language::system::{Composite, System};

/// Builds the isolated multibody pattern of Fig. 1 for any number of bodies and joints.
#[derive(Debug, Clone, Default)]
pub struct MultibodyBuilder {
    bodies: Vec<(String, System)>,
    joints: Vec<(String, System, String, String)>,
}

impl MultibodyBuilder {
    /// An empty system.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a body (a system with one port `p`: $(\mathfrak{se}(3)^*, \text{momentum})$).
    pub fn body(&mut self, name: &str, body: impl Into<System>) -> &mut Self {
        self.bodies.push((name.into(), body.into()));
        self
    }
    /// Adds a joint (ports `p1`, `p2`) between bodies `b1` and `b2`.
    pub fn joint(&mut self, name: &str, joint: impl Into<System>, b1: &str, b2: &str) -> &mut Self {
        self.joints
            .push((name.into(), joint.into(), b1.into(), b2.into()));
        self
    }
    /// The composite: one junction per body (named after the body), every joint port
    /// wired to its body's junction. Errors name unknown bodies and mismatched ports.
    pub fn build(&self) -> Result<Composite, EphsError> {
        let mut p = Pattern::new("mbs");
        let g = Quantity::body_momentum();
        for (b, _) in &self.bodies {
            p.add_junction(b, g.clone())?;
        }
        let mom = Interface::new().power("p", g.clone())?;
        for (b, _) in &self.bodies {
            p.add_box(b, mom.clone(), &[("p", b)])?;
        }
        let jif = Interface::new()
            .power("p1", g.clone())?
            .power("p2", g.clone())?;
        for (j, _, b1, b2) in &self.joints {
            p.add_box(j, jif.clone(), &[("p1", b1), ("p2", b2)])?;
        }
        let mut c = Composite::new(p)?;
        for (b, s) in &self.bodies {
            c.fill(b, s.clone())?;
        }
        for (j, s, _, _) in &self.joints {
            c.fill(j, s.clone())?;
        }
        Ok(c)
    }
}
