//! Concentrated (lumped) masses and rotary inertias attached at body ports, as the lumped
//! masses of the four-bar mechanism (paper 000 §6.2: "a simple modification of the rigid
//! mass matrix", $M_{rr}[1{:}2, 1{:}2] \mathrel{+}= m_l I$ when the mass sits at $P$).
//!
//! A lumped mass at a port is a mass point of the body's mass operator (see
//! [`crate::planar_body`]): at a port of a flexible body it also couples to the elastic
//! velocity there, so the kinetic energy is $\tfrac12 m_l|v_a|^2 + \tfrac12 I_l\omega_a^2$ with
//! $(v_a, \omega_a)$ the port output.
use crate::error::{require_non_negative, MbsError};

/// A point mass and rotary inertia attached at a named port of a body.
#[derive(Debug, Clone, PartialEq)]
pub struct LumpedMass {
    /// Port of the body where the mass sits.
    pub port: String,
    /// Mass $m_l \ge 0$ \[kg\].
    pub mass: f64,
    /// Rotary inertia $I_l \ge 0$ about the port \[kg m²\].
    pub inertia: f64,
}

impl LumpedMass {
    /// A lumped mass `mass` with rotary inertia `inertia` at `port`.
    pub fn new(port: impl Into<String>, mass: f64, inertia: f64) -> Self {
        Self {
            port: port.into(),
            mass,
            inertia,
        }
    }

    /// Checks `mass >= 0`, `inertia >= 0`.
    pub(crate) fn validate(&self, body: &str) -> Result<(), MbsError> {
        require_non_negative(body, &format!("lumped mass at '{}'", self.port), self.mass)?;
        require_non_negative(
            body,
            &format!("lumped inertia at '{}'", self.port),
            self.inertia,
        )
    }
}
