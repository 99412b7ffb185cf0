//! # phlex-mbs: flexible multibody systems in port-Hamiltonian form
//!
//! Paper 000 (Brugnoli, Alazard, Pommier-Budinger, Matignon, *Port-Hamiltonian flexible
//! multibody dynamics*, Multibody Syst. Dyn. 51, 2021) §2–§6 and thesis 004 ch. 9–10.
//!
//! | module | what | paper 000 |
//! |---|---|---|
//! | [`planar_body`] | planar floating body (rigid or flexible) as a pH system ([`phlex_core::PhSystem`]) | eqs. (36)–(41), Remark 2 |
//! | [`rigid_body_2d`] | planar rigid body parameters | Remark 4 (planar) |
//! | [`floating_beam_2d`] | planar floating Euler–Bernoulli + truss beam, PFEM | §4.3, eqs. (37)–(40), Remark 8 |
//! | [`stiffening`] | geometric stiffening: von Kármán axial strain, state-dependent skew $D_{nl}(u_f)$ | Remark 3 |
//! | [`stiffening_3d`] | geometric stiffening of the spatial beam: $\pm D_{nl}^{y,z}(u_f)$ in both bending planes | Remark 3, §4.3 |
//! | [`floating_beam_3d`] | spatial floating beam (axial, torsion, two bending planes), PFEM | §4 in 3D, eqs. (10)–(15), (37)–(40), Remark 8 |
//! | [`hinged_spatial_beam`] | the §6.4 hinged spatial beam as a ready-made model (units: mm–g–s) | §6.4, Table 4, Fig. 11 |
//! | [`spatial_body_core`] | spatial floating body (mass points, $\[\hat p_t\]_\times$, $\[p_r\]_\times$, flexible gyroscopic operator) | eqs. (12)–(15) |
//! | [`rigid_body_3d`] | rigid body on SE(3), states $({}^ir_P, R_v, v_P, \omega)$ | Remark 4 |
//! | [`spatial`] | spatial assembly [`spatial::Multibody3d`] over the [`spatial::SpatialBody`] trait: spherical, revolute, prismatic, weld, ground and prescribed joints, builder, redundancy, consistent initialisation | §5.1–5.2, eqs. (42)–(46) in 3D |
//! | [`plate_assembly`] | Kirchhoff plates with point-attached actuators, mirror, welded rigid rod | thesis 004 §10.2, Tables 10.5–10.6 |
//! | [`lumped`] | point masses and rotary inertias at ports | §6.2 |
//! | [`load`] | external forces and torques at ports | eq. (39) |
//! | [`joint`] | revolute, weld, ground point/frame, slider, prescribed velocity | §5.1–5.2, eqs. (44)–(45) |
//! | [`crank_slider`] | the §6.3 crank–slider as a ready-made model and run | §6.3, Fig. 9 |
//! | [`builder`] | [`MultibodyBuilder`]: bodies, ports and joints by name | |
//! | [`assembly`] | [`Multibody`]: the index-2 pHDAE, a [`phlex_core::PhSystem`] with exact Jacobian | eq. (46) |
//! | [`projection`] | drift projection of a planar [`Multibody`] onto its position constraints (the [`phlex_core::PhSystem::project`] hook) | Remark 9 |
//! | [`redundancy`] | rank-revealing check of the constraints, naming joints | |
//! | [`kinematics`] | consistent initial conditions (positions, velocities, multipliers) | §6.3 |
//! | [`mod@linearize`] | linearisation about a configuration, constrained modes, the linear pHDAE | §5.3, §6.2, eqs. (49), (51) |
//! | [`reduce`] | modal / Krylov reduction of the elastic variables of a linearisation | §5.3, eq. (50) |
//!
//! Every assembly implements the one system trait [`phlex_core::PhSystem`]; the time
//! integrators (midpoint / discrete gradient, Gauss collocation, Radau IIA) live in
//! `phlex-solve` ([`phlex_solve::integrators`], front door [`phlex_solve::integrate`]).
#![allow(non_snake_case)]
#![warn(missing_docs)]
// Index loops over small blocks mirror the formulas of the paper.
#![allow(clippy::needless_range_loop)]

pub mod assembly;
pub mod body;
pub mod builder;
pub(crate) mod common;
pub mod crank_slider;
pub mod error;
pub mod floating_beam_2d;
pub mod floating_beam_3d;
pub mod geometrically_exact_2d;
pub mod hinged_spatial_beam;
pub mod joint;
pub mod kinematics;
pub mod linearize;
pub mod load;
pub mod lumped;
pub mod planar_body;
pub mod plate_assembly;
pub mod pose;
pub mod projection;
pub mod reduce;
pub mod redundancy;
pub mod rigid_body_2d;
pub mod rigid_body_3d;
pub mod spatial;
pub mod spatial_body_core;
pub mod stiffening;
pub mod stiffening_3d;

pub use assembly::{JointDrift, Multibody};
pub use body::Body;
pub use builder::MultibodyBuilder;
pub use crank_slider::{CrankSlider, CrankSliderRun};
pub use error::MbsError;
pub use floating_beam_2d::{DeformationBc, FloatingBeam2d};
pub use floating_beam_3d::{FloatingBeam3d, Section3d};
pub use hinged_spatial_beam::{HingedRun, HingedSample, HingedSpatialBeam};
pub use joint::JointSpec;
pub use joint::{Joint, JointKind, GROUND};
pub use kinematics::{consistent_initial_state, ConsistentInit, Coordinate, KinematicsOptions};
pub use linearize::{linearize, modes, ph_linearization, Linearization, PhLinearization};
pub use load::{Frame, Load};
pub use lumped::{LumpedMass, LumpedMass3d};
pub use planar_body::{EnergySplit, Gyroscopic, PlanarBody};
pub use plate_assembly::{ActuatedPlate, PlateAssemblyError, WeldedPlate};
pub use pose::{Pose2d, Twist2d};
pub use projection::project_onto_constraints;
pub use redundancy::{check_redundancy, RankReport};
pub use rigid_body_2d::RigidBody2d;
pub use rigid_body_3d::{RigidBody3d, RigidBody3dModel};
pub use spatial::{
    check_redundancy_3d, consistent_initial_state_3d, AxisFrame, Joint3d, JointKind3d,
    KinematicsOptions3d, Load3d, Multibody3d, MultibodyBuilder3d, SpatialPort,
};
pub use spatial_body_core::FloatingBody3d;
pub use stiffening::VonKarman;
