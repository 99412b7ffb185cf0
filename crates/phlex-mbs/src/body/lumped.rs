//! Concentrated (lumped) masses and rotary inertias attached at body ports, as the lumped
//! masses of the four-bar mechanism (paper 000 §6.2: "a simple modification of the rigid
//! mass matrix", $M_{rr}[1{:}2, 1{:}2] \mathrel{+}= m_l I$ when the mass sits at $P$).
//!
//! A lumped mass at a port is a mass point of the body's mass operator (see
//! [`crate::body::planar::floating_body`]): at a port of a flexible body it also couples to the elastic
//! velocity there, so the kinetic energy is $\tfrac12 m_l|v_a|^2 + \tfrac12 I_l\omega_a^2$ with
//! $(v_a, \omega_a)$ the port output.
use crate::error::{require_inertia, require_non_negative, MbsError};

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

/// A point mass with an optional rotary inertia tensor attached at a named port of a
/// **spatial** body ([`crate::FloatingBeam3d::lumped_mass`], [`crate::RigidBody3d::lumped_mass`]).
///
/// On a flexible body it is an extra mass point of the mass operator of
/// [`crate::body::spatial::floating_body`] at the port's material point, with the port's elastic shape
/// $(N_a, \Phi_a)$: its velocity is $v_P + \omega\times a + N_av_f$ and its angular velocity
/// $\omega + \Phi_av_f$, so it adds $\tfrac12 m_l|v_a|^2 + \tfrac12\omega_a^\top I_l\omega_a$ to
/// the kinetic energy and couples to the bending rotation through $I_l$. On a rigid body it
/// is the parallel-axis update $m \mathrel{+}= m_l$, $s \mathrel{+}= m_la$,
/// $J_P \mathrel{+}= I_l + m_l(|a|^2I - aa^\top)$.
#[derive(Debug, Clone, PartialEq)]
pub struct LumpedMass3d {
    /// Port of the body where the mass sits.
    pub port: String,
    /// Mass $m_l \ge 0$ \[kg\].
    pub mass: f64,
    /// Rotary inertia tensor $I_l$ about the port point, body-frame components (an admissible
    /// inertia tensor, [`phlex_core::geometry::inertia`]) \[kg m²\].
    pub inertia: [[f64; 3]; 3],
}

impl LumpedMass3d {
    /// A point mass `mass` (no rotary inertia) at `port`.
    pub fn new(port: impl Into<String>, mass: f64) -> Self {
        Self {
            port: port.into(),
            mass,
            inertia: [[0.0; 3]; 3],
        }
    }

    /// Sets the rotary inertia tensor about the port (body frame).
    pub fn inertia(mut self, inertia: [[f64; 3]; 3]) -> Self {
        self.inertia = inertia;
        self
    }

    /// Checks `mass >= 0` and the rotary inertia tensor by the one rule of
    /// [`phlex_core::geometry::inertia`] (finite, symmetric, positive semidefinite, triangle
    /// inequalities of the principal moments; 0 is admissible).
    pub(crate) fn validate(&self, body: &str) -> Result<(), MbsError> {
        let what = format!("lumped mass at '{}'", self.port);
        require_non_negative(body, &what, self.mass)?;
        require_inertia(
            body,
            &format!("lumped inertia at '{}'", self.port),
            &self.inertia,
        )?;
        Ok(())
    }
}
