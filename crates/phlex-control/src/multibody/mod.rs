//! Rigid and flexible multibody dynamics in the classical floating frame of
//! reference formulation with Euler parameters, solved with the
//! Udwadia–Kalaba equations (thesis 002 §2.5–§2.7).
//!
//! | module | what | thesis 002 |
//! |---|---|---|
//! | [`euler_parameters`] | `E`, `Ē`, `G`, `Ḡ`, `A = EĒᵀ` | eqs. (2.190)–(2.200) |
//! | [`body_point`] | material points `ū = ū_o + N_P q_f` | eq. (2.333) |
//! | [`floating_body`] | inertia invariants, mass matrix, quadratic velocity vector, gravity | §2.5.3–2.5.4, §2.7.3–2.7.7 |
//! | [`rigid_body`] | rigid body (7 coordinates) | §2.5 |
//! | [`beam_element`] | planar Euler–Bernoulli beam element | eqs. (2.250)–(2.253), (5.108), (5.112) |
//! | [`ffr_beam`] | flexible body of beam elements, reference conditions | §2.6–2.7 |
//! | [`joint`] | spherical, perpendicular, revolute joints, rotation driver | §2.3.2 |
//! | [`system`] | assembled system, Udwadia–Kalaba acceleration | §2.3.4, §2.7.8 |
//! | [`mod@simulate`] | fixed-step RK4 with drift report | summary §2.7 |
//! | [`mod@linearize`] | linearisation about an equilibrium → [`crate::Mdof`] | §2.4, summary §2.7 |

pub mod beam_element;
pub mod body_point;
pub mod euler_parameters;
pub mod ffr_beam;
pub mod floating_body;
pub mod joint;
pub mod linearize;
pub mod rigid_body;
pub mod simulate;
pub mod system;

pub use beam_element::PlanarBeamElement;
pub use body_point::BodyPoint;
pub use ffr_beam::{BeamLayout, FfrBeam, NodalDof, ReferenceConditions};
pub use floating_body::FloatingBody;
pub use joint::{
    Anchor, Bodies, BodyId, Direction, Joint, Motion, PerpendicularJoint, RevoluteJoint,
    RotationDriver, SphericalJoint,
};
pub use linearize::{linearize, Linearization};
pub use rigid_body::RigidBody;
pub use simulate::{simulate, Simulation};
pub use system::{Acceleration, Energy, MultibodySystem};
