//! Spatial (3D) multibody systems in port-Hamiltonian form: paper 000 §5 in 3D — floating
//! bodies (Remark 4, eqs. (36)–(41)) interconnected by power-preserving joints into the
//! quasilinear index-2 pHDAE (46).
//!
//! | module | what | paper 000 |
//! |---|---|---|
//! | [`body`] | [`SpatialBody`]: the contract of a floating body in 3D (state convention, ports) | Remark 4, eqs. (36)–(41) |
//! | [`joint`] | spherical, revolute, prismatic, weld, ground point/frame/hinge/slide, prescribed velocity | §5.1–5.2, eqs. (44)–(48) |
//! | [`load`] | forces and torques at ports | eq. (39) |
//! | [`builder`] | [`MultibodyBuilder3d`]: bodies, ports, joints, loads by name | |
//! | [`assembly`] | [`Multibody3d`]: the pHDAE, exact Jacobian, drift | eq. (46) |
//! | [`projection`] | drift projection onto the position constraints (off by default) | Remark 9 |
//! | [`redundancy`] | rank-revealing check naming the joints | |
//! | [`kinematics`] | consistent initial conditions | §6.3 |
//!
//! 3×3 algebra and rotations come from [`phlex_core::geometry`].
//!
//! [`Multibody3d`] implements [`phlex_core::PhSystem`] (its drift projection hook is
//! [`project_onto_constraints_3d`]), so every integrator of [`phlex_solve::integrators`]
//! (midpoint / discrete gradient, Gauss collocation, Radau IIA) integrates it. Bodies with deformation-dependent inertia
//! ([`crate::body::spatial::full_inertia`]) make the descriptor state dependent:
//! the assembly then provides the discrete step (F4)–(F5), its exact Jacobian, the
//! constant-mass form for Radau, and the port maps at the deformed port positions.
pub mod assembly;
pub mod body;
pub mod builder;
pub mod joint;
pub mod kinematics;
pub mod load;
pub mod projection;
pub mod redundancy;

pub use assembly::Multibody3d;
pub use body::{rotation_from_state, SpatialBody, SpatialBodySpec, SpatialPort, R_V_OFFSET};
pub use builder::MultibodyBuilder3d;
pub use joint::{AxisFrame, Joint3d, JointKind3d};
pub use kinematics::{consistent_initial_state_3d, KinematicsOptions3d};
pub use load::Load3d;
pub use projection::{orthonormalize_rotations, project_onto_constraints_3d};
pub use redundancy::check_redundancy_3d;
