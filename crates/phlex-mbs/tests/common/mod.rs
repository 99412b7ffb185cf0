//! Models and checks shared by several integration tests of phlex-mbs (each test binary
//! compiles this module and uses part of it).
//!
//! | module | what | paper 000 |
//! |---|---|---|
//! | [`four_bar`] | the locked four-bar of Table 2 with cantilever links | §6.2 |
//! | [`checks`] | central differences: the exact Jacobian of the right-hand side, $E^\top z = \nabla H$ | eq. (46) |
//! | [`consistent`] | consistent initial conditions, nothing locked | §6.3 |
//! | [`chain3d`] | a spatial two-beam chain (hinge, spherical joint, loads, gravity), optionally full inertia and stiffening | §4.3, Remark 3 |
//! | [`default_jacobian`] | a system with the trait's default (approximate) rhs Jacobian $(J - R)\partial_x z$ | |
//! | [`crank`] | the crank drive and slider of the crank–slider; a stiffened coupler mechanism and random states | §6.3, Remark 3 |
//! | [`double_pendulum`] | the planar double pendulum (two point masses on rigid links) | |
//! | [`free_beam`] | a free spinning planar beam with initial bending | §4.3 |
//! | [`spin_up`] | the Simo–Vu-Quoc spin-up beam and its quasi-static reference | Remark 3 |
//! | [`params`] | midpoint / discrete-gradient parameters with full Newton, Radau IIA runs | |
#![allow(dead_code, non_snake_case)]

pub mod chain3d;
pub mod checks;
pub mod crank;
pub mod default_jacobian;
pub mod double_pendulum;
pub mod four_bar;
pub mod free_beam;
pub mod params;
pub mod spin_up;

use phlex_mbs::spatial::{consistent_initial_state_3d, KinematicsOptions3d, Multibody3d};
use phlex_mbs::{consistent_initial_state, ConsistentInit, KinematicsOptions, Multibody};

/// The consistent initial state of `mb` at $t = 0$ from its initial state and inputs,
/// nothing locked (paper 000 §6.3).
pub fn consistent(mb: &Multibody) -> ConsistentInit {
    consistent_initial_state(
        mb,
        &mb.initial_state(),
        &mb.input(),
        0.0,
        &KinematicsOptions::default(),
    )
    .unwrap()
}

/// The consistent initial state of the spatial `mb` at $t = 0$ from its initial state and
/// inputs, the poses of the bodies named in `locked` kept (paper 000 §6.3).
pub fn consistent_3d(mb: &Multibody3d, locked: &[&str]) -> Vec<f64> {
    consistent_initial_state_3d(
        mb,
        &mb.initial_state(),
        &mb.input(),
        0.0,
        &KinematicsOptions3d {
            locked: locked.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        },
    )
    .unwrap()
    .state
}
