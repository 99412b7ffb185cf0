//! Rigid bodies with Euler parameters (thesis 002 §2.5.3–§2.5.4): 7
//! coordinates `q = (R, θ)`, mass matrix (2.206)–(2.211)
//! `M = [[m I, −A Ũ Ḡ], [·, Ḡᵀ Ī Ḡ]]`, quadratic velocity vector (2.236),
//! gravity `Q_g = (m g, Ḡᵀ(Ū × Aᵀg))`.
//!
//! A rigid body is a [`FloatingBody`] without elastic coordinates; its
//! invariants are the mass `m`, the first moment `Ū = m c̄` (eq. (2.210)) and
//! the second moments about the body origin, from the inertia tensor about the
//! centre of mass `Ī_c` by the parallel-axis theorem:
//! `∫ρ ūūᵀ = (½ tr Ī_c) I − Ī_c + m c̄c̄ᵀ`.
//!
//! | parameter | symbol | unit | requirement |
//! |---|---|---|---|
//! | `mass` | `m` | kg | `> 0` |
//! | `com` | `c̄` (body frame) | m | finite |
//! | `inertia` | `Ī_c` about the centre of mass, body axes | kg m² | symmetric, principal moments `≥ 0` satisfying the triangle inequalities |

use faer::Mat;

use super::floating_body::FloatingBody;
use crate::error::{ControlError, Result};
use phlex_core::geometry::{InertiaTensor, Mat3, Vec3};

/// Parameters of a rigid body (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct RigidBody {
    /// Mass `m` \[kg\].
    pub mass: f64,
    /// Centre of mass in the body frame \[m\].
    pub com: Vec3,
    /// Inertia tensor about the centre of mass, body axes \[kg m²\].
    pub inertia: Mat3,
}

impl RigidBody {
    /// A body of mass `mass` with inertia tensor `inertia` about its centre of
    /// mass, which is the body origin (use [`RigidBody::com`] to move it).
    pub fn new(mass: f64, inertia: Mat3) -> Self {
        Self {
            mass,
            com: [0.0; 3],
            inertia,
        }
    }

    /// Principal-axes body: `Ī_c = diag(i)`.
    pub fn principal(mass: f64, i: Vec3) -> Self {
        Self::new(mass, [[i[0], 0.0, 0.0], [0.0, i[1], 0.0], [0.0, 0.0, i[2]]])
    }

    /// Places the centre of mass at `c` in the body frame (the body origin is
    /// then a different material point, e.g. a pivot).
    pub fn com(mut self, c: Vec3) -> Self {
        self.com = c;
        self
    }

    /// Validates the data and builds the floating body `name`.
    pub fn build(&self, name: &str) -> Result<FloatingBody> {
        let bad = |what: &str, reason: String| ControlError::InvalidParameter {
            name: format!("{name}: {what}"),
            reason,
        };
        if !self.com.iter().all(|v| v.is_finite()) {
            return Err(bad("com", "entries must be finite".into()));
        }
        // The one inertia rule (phlex_core::geometry::inertia): symmetric, principal
        // moments ≥ 0 satisfying the triangle inequalities, i.e. J_c below is PSD.
        let I = InertiaTensor::new(&self.inertia)
            .map_err(|e| bad("inertia", e.to_string()))?
            .matrix()
            .to_owned();
        // second moments about the centre of mass J_c = ½ tr(Ī_c) I − Ī_c
        let tr = I[0][0] + I[1][1] + I[2][2];
        let J: Mat3 = std::array::from_fn(|k| {
            std::array::from_fn(|l| {
                (if k == l { 0.5 * tr } else { 0.0 }) - 0.5 * (I[k][l] + I[l][k])
            })
        });
        let m = self.mass;
        let c = self.com;
        let U0 = [m * c[0], m * c[1], m * c[2]];
        let P0: Mat3 = std::array::from_fn(|k| std::array::from_fn(|l| J[k][l] + m * c[k] * c[l]));
        FloatingBody::from_invariants(
            name,
            m,
            U0,
            P0,
            Vec::new(),
            std::array::from_fn(|_| std::array::from_fn(|_| Vec::new())),
            std::array::from_fn(|_| std::array::from_fn(|_| Mat::zeros(0, 0))),
            Mat::zeros(0, 0),
            Mat::zeros(0, 0),
            None,
        )
    }
}
