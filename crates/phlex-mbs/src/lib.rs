//! # phlex-mbs: flexible multibody systems in port-Hamiltonian form
//!
//! Paper 000 (Brugnoli, Alazard, Pommier-Budinger, Matignon, *Port-Hamiltonian flexible
//! multibody dynamics*, Multibody Syst. Dyn. 51, 2021) §2–§6 and thesis 004 ch. 9–10.
//!
//! The crate is organised by concept, each with a planar and a spatial member where the
//! physics exists in both dimensions; what is written once for both lives in the
//! dimension-generic core (`common`, crate-private).
//!
//! | module | what | paper 000 |
//! |---|---|---|
//! | [`body::planar`] | planar floating body (rigid or flexible) as a pH system ([`phlex_core::PhSystem`]), full inertia, von Kármán stiffening, poses, body descriptions | eqs. (36)–(41), Remarks 2–3 |
//! | [`body::spatial`] | spatial floating body (mass points, $\[\hat p_t\]_\times$, $\[p_r\]_\times$, flexible gyroscopic operator), full inertia, stiffening in both bending planes | eqs. (12)–(15), Remark 3 |
//! | [`body::rigid`] | rigid bodies: planar, and on SE(3) with states $({}^ir_P, R_v, v_P, \omega)$ | Remark 4 |
//! | [`body::floating_beam`] | floating Euler–Bernoulli beams by PFEM: planar (axial + bending), spatial (axial, torsion, two bending planes) | §4.3, eqs. (10)–(15), (37)–(40), Remark 8 |
//! | [`body::lumped`] | point masses and rotary inertias at ports | §6.2 |
//! | [`planar`] | the planar layer: joints (revolute, weld, ground point/frame, slider, prescribed velocity), loads, [`MultibodyBuilder`], the index-2 pHDAE [`Multibody`], consistent initialisation, drift projection, redundancy | §5.1–5.2, eqs. (39), (44)–(46), Remark 9 |
//! | [`spatial`] | the spatial layer over the [`spatial::SpatialBody`] trait: spherical, revolute, prismatic, weld, ground and prescribed joints, loads, builder, [`spatial::Multibody3d`], consistent initialisation, projection, redundancy | §5.1–5.2, eqs. (42)–(46) in 3D |
//! | [`analysis`] | linearisation about a configuration, constrained modes, the linear pHDAE; modal / Krylov reduction | §5.3, §6.2, eqs. (49)–(51) |
//! | [`models`] | ready-made models: the §6.3 crank–slider and its geometrically exact cross-check, the §6.4 hinged spatial beam, the plate assemblies of thesis 004 §10.2 | §6.3, §6.4 |
//! | [`error`] | [`MbsError`], naming the body, port or joint | |
//!
//! Every assembly implements the one system trait [`phlex_core::PhSystem`]; the time
//! integrators (midpoint / discrete gradient, Gauss collocation, Radau IIA) live in
//! `phlex-solve` ([`phlex_solve::integrators`], front door [`phlex_solve::integrate`]).
#![allow(non_snake_case)]
#![warn(missing_docs)]
// Index loops over small blocks mirror the formulas of the paper.
#![allow(clippy::needless_range_loop)]

pub mod analysis;
pub mod body;
pub(crate) mod common;
pub mod error;
pub mod models;
pub mod planar;
pub mod spatial;

pub use analysis::linearize::{linearize, modes, ph_linearization, Linearization, PhLinearization};
pub use body::floating_beam::planar::{DeformationBc, FloatingBeam2d};
pub use body::floating_beam::spatial::{FloatingBeam3d, Section3d};
pub use body::floating_body::EnergySplit;
pub use body::lumped::{LumpedMass, LumpedMass3d};
pub use body::planar::description::Body;
pub use body::planar::floating_body::{Gyroscopic, PlanarBody};
pub use body::planar::pose::{Pose2d, Twist2d};
pub use body::planar::stiffening::VonKarman;
pub use body::rigid::planar::RigidBody2d;
pub use body::rigid::spatial::{RigidBody3d, RigidBody3dModel};
pub use body::spatial::floating_body::FloatingBody3d;
pub use common::assembly::JointAssembly;
pub use common::bodies::BodyAssembly;
pub use common::force_element::{ElementState, ForceElements, SpringDamper};
pub use error::MbsError;
pub use models::crank_slider::{CrankSlider, CrankSliderRun};
pub use models::hinged_spatial_beam::{HingedRun, HingedSample, HingedSpatialBeam};
pub use models::plate_assembly::{ActuatedPlate, PlateAssemblyError, WeldedPlate};
pub use planar::assembly::{JointDrift, Multibody};
pub use planar::builder::MultibodyBuilder;
pub use planar::joint::JointSpec;
pub use planar::joint::{Joint, JointKind, GROUND};
pub use planar::kinematics::{
    consistent_initial_state, ConsistentInit, Coordinate, KinematicsOptions,
};
pub use planar::load::{Frame, Load};
pub use planar::projection::project_onto_constraints;
pub use planar::redundancy::{check_redundancy, RankReport};
pub use spatial::{
    check_redundancy_3d, consistent_initial_state_3d, AxisFrame, Joint3d, JointKind3d,
    KinematicsOptions3d, Load3d, Multibody3d, MultibodyBuilder3d, SpatialPort,
};
