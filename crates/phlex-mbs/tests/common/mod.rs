//! Models shared by several integration tests of phlex-mbs (each test binary compiles this
//! module and uses part of it).
//!
//! | module | what | paper 000 |
//! |---|---|---|
//! | [`four_bar`] | the locked four-bar of Table 2 with cantilever links | §6.2 |
//! | [`checks`] | the exact Jacobian of the right-hand side against central differences | eq. (46) |
//! | [`consistent`] | consistent initial conditions, nothing locked | §6.3 |
//! | [`chain3d`] | a spatial two-beam chain (hinge, spherical joint, loads, gravity), optionally full inertia and stiffening | §4.3, Remark 3 |
//! | [`default_jacobian`] | a system with the trait's default (approximate) rhs Jacobian $(J - R)\partial_x z$ | |
//! | [`crank`] | the crank drive and slider of the crank–slider; a stiffened coupler mechanism and random states | §6.3, Remark 3 |
#![allow(dead_code, non_snake_case)]

pub mod chain3d;
pub mod checks;
pub mod crank;
pub mod default_jacobian;
pub mod four_bar;

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
