//! A 3D double pendulum (two rigid links, spherical joints) restricted to the XY plane by
//! its initial conditions, against the planar `Multibody` double pendulum (the model of
//! `tests/double_pendulum.rs`, validated there against a Lagrangian in minimal
//! coordinates), and the Radau IIA adapter against the midpoint rule on the same 3D model.
//!
//! The links are masses on massless rods with a lamina-like central inertia
//! J_G = diag(j, j/2, j/2) (principal moments on the edge of the triangle inequality; the
//! axial moment j keeps the spin about the rod, which no joint fixes, from being
//! massless); the planar model gets J_c = j/2. With c along the body x axis
//! J_P = diag(j, j/2 + m L², j/2 + m L²): the in-plane motion is invariant (every torque is
//! along Z and ω × J_P ω = 0 for ω ∥ Z) and the spin about the rod stays zero, so the 3D
//! motion is exactly the planar one.
use phlex_core::geometry::so3::from_axis_angle;
use phlex_core::PhSystem;
use phlex_mbs::spatial::{
    consistent_initial_state_3d, Joint3d, KinematicsOptions3d, Multibody3d, MultibodyBuilder3d,
};
use phlex_mbs::*;
use phlex_solve::midpoint::MidpointVariant;
use phlex_solve::Midpoint;

mod common;

use common::double_pendulum::{planar_double_pendulum, G, L1, L2, M1, M2};
use common::params::{midpoint, radau_to};

const J_AXIAL: f64 = 0.02;

/// The planar model of the 3D pendulum: central inertia j/2 per link.
fn planar(theta1: f64, theta2: f64) -> Multibody {
    planar_double_pendulum(theta1, theta2, 0.5 * J_AXIAL)
}

fn radau3(mb: &Multibody3d, x0: &[f64], t_end: f64, tol: f64) -> Vec<f64> {
    radau_to(mb, mb.input(), x0, t_end, tol).y
}

fn spatial(theta1: f64, theta2: f64) -> Multibody3d {
    spatial_with(theta1, theta2, false)
}

/// The 3D double pendulum with spherical joints, or with revolute joints about Z.
fn spatial_with(theta1: f64, theta2: f64, hinges: bool) -> Multibody3d {
    let p2 = [L1 * theta1.cos(), L1 * theta1.sin(), 0.0];
    let z = [0.0, 0.0, 1.0];
    let mut b = MultibodyBuilder3d::new();
    b.gravity([0.0, -G, 0.0])
        .add_body(
            "link1",
            RigidBody3d::new(M1, [J_AXIAL, 0.5 * J_AXIAL, 0.5 * J_AXIAL])
                .com([L1, 0.0, 0.0])
                .port("tip", [L1, 0.0, 0.0])
                .rotation(from_axis_angle(z, theta1).unwrap()),
        )
        .add_body(
            "link2",
            RigidBody3d::new(M2, [J_AXIAL, 0.5 * J_AXIAL, 0.5 * J_AXIAL])
                .com([L2, 0.0, 0.0])
                .rotation(from_axis_angle(z, theta2).unwrap())
                .position(p2),
        )
        .check_redundancy(true);
    if hinges {
        b.add_joint(
            "shoulder",
            Joint3d::ground_revolute("link1", "P", "origin", z),
        )
        .add_joint("elbow", Joint3d::revolute("link1", "tip", "link2", "P", z));
    } else {
        b.add_joint("shoulder", Joint3d::ground_point("link1", "P", "origin"))
            .add_joint("elbow", Joint3d::spherical("link1", "tip", "link2", "P"));
    }
    b.build().unwrap()
}

/// (θ, ω_Z) of a 3D link: the angle of its x axis in the XY plane.
fn angle3(mb: &Multibody3d, b: usize, x: &[f64]) -> (f64, f64) {
    let r = mb.rotation(b, x);
    let xl = mb.local(b, x);
    (r[1][0].atan2(r[0][0]), xl[17])
}

/// Largest out-of-plane quantity: Z positions, ω_x, ω_y, v_z of both links.
fn out_of_plane(mb: &Multibody3d, x: &[f64]) -> f64 {
    (0..2).fold(0.0f64, |m, b| {
        let xl = mb.local(b, x);
        let r = mb.rotation(b, x);
        m.max(xl[2].abs())
            .max(xl[14].abs())
            .max(xl[15].abs())
            .max(xl[16].abs())
            .max(r[2][0].abs())
            .max(r[2][1].abs())
    })
}

fn spatial_initial(mb: &Multibody3d) -> Vec<f64> {
    let init = consistent_initial_state_3d(
        mb,
        &mb.initial_state(),
        &mb.input(),
        0.0,
        &KinematicsOptions3d::default(),
    )
    .unwrap();
    assert!(init.position_residual.1 < 1e-14);
    init.state
}

/// θ1(0) = 0, θ2(0) = 0.5 rad, at rest, t = 2 s, both models by Radau IIA at
/// rtol = atol = 1e-12 (global errors ≈ 1e-11–1e-10, see `tests/double_pendulum.rs`):
/// angles and angular velocities agree to 1e-8, the out-of-plane motion stays at round-off
/// (< 1e-12), and the multipliers — the ground force on link 1 (body frame in both
/// models) — agree to 1e-6 N.
#[test]
fn planar_motion_matches_planar_model() {
    compare_with_planar(false);
}

/// The same with revolute joints about Z (5 rows each; the relative angle of the elbow is
/// integrated, eq. (44), and must equal θ2 − θ1 of the planar model to 1e-8).
#[test]
fn hinged_double_pendulum_matches_planar_model() {
    compare_with_planar(true);
}

fn compare_with_planar(hinges: bool) {
    let (t1, t2) = (0.0, 0.5);
    let t_end = 2.0;
    let mb2 = planar(t1, t2);
    let init = common::consistent(&mb2);
    let sol2 = radau_to(&mb2, mb2.input(), &init.state, t_end, 1e-12);
    let x2 = &sol2.y;
    let mb3 = spatial_with(t1, t2, hinges);
    let x0 = spatial_initial(&mb3);
    let x3 = radau3(&mb3, &x0, t_end, 1e-12);
    let mut err = Vec::new();
    for b in 0..2 {
        let (th, w) = angle3(&mb3, b, &x3);
        let (th_p, w_p) = (mb2.pose(b, x2).theta, mb2.twist(b, x2).omega);
        println!("link {b}: 3D θ = {th:.12} ω = {w:.12}; planar θ = {th_p:.12} ω = {w_p:.12}");
        err.push((th - th_p).abs());
        err.push((w - w_p).abs());
    }
    let oop = out_of_plane(&mb3, &x3);
    let lam3 = mb3.reaction(0, &x3);
    let lam2 = mb2.reaction(0, x2);
    println!(
        "differences {err:?}; out of plane {oop:.2e}; ground force 3D {lam3:?} planar {lam2:?}"
    );
    for e in &err {
        assert!(*e < 1e-8, "{err:?}");
    }
    assert!(oop < 1e-12);
    assert!((lam3[0] - lam2[0]).abs() < 1e-6 && (lam3[1] - lam2[1]).abs() < 1e-6);
    assert!(lam3[2].abs() < 1e-9);
    if hinges {
        let elbow = mb3.joint_index("elbow").unwrap();
        let rel = mb3.joint_states(elbow, &x3)[0];
        let rel_p = mb2.pose(1, x2).theta - mb2.pose(0, x2).theta - (t2 - t1);
        println!("elbow angle 3D {rel:.12}, planar {rel_p:.12}");
        assert!((rel - rel_p).abs() < 1e-8);
    }
    let de = mb3.hamiltonian(&x3) - mb3.hamiltonian(&x0);
    println!(
        "3D energy change {de:.2e} J, drift {:.2e} m",
        mb3.max_position_drift(&x3)
    );
    assert!(de.abs() < 1e-8);
}

fn midpoint3(mb: &Multibody3d, x0: &[f64], t_end: f64, h: f64) -> Vec<f64> {
    let params = midpoint(
        h,
        t_end,
        1_000_000,
        (1e-13, 1e-13),
        MidpointVariant::Midpoint,
    );
    let mut integ = Midpoint::new(mb, mb.input(), params).unwrap();
    let run = integ.run(x0, &mut |_t: f64, _x: &[f64]| {}).unwrap();
    // spherical joints keep their points together exactly under the midpoint rule
    assert!(run.max_drift < 1e-12, "drift {}", run.max_drift);
    run.state
}

/// The Radau IIA adapter (generic over `PhSystem`) and the midpoint rule agree on the 3D
/// model: over 1 s the midpoint error is C h² (second order), so the differences from the
/// Radau solution (rtol 1e-12) at h = 2e-3 and 1e-3 must shrink by 4 ± 0.5, and be below
/// 1e-4 rad at h = 1e-3 (the pendulum's fastest rate ≈ 5 rad/s: (hω)²/12 ≈ 2e-6 per unit
/// phase).
#[test]
fn radau_agrees_with_midpoint() {
    let mb = spatial(0.0, 0.5);
    let x0 = spatial_initial(&mb);
    let t_end = 1.0;
    let xr = radau3(&mb, &x0, t_end, 1e-12);
    let mut errs = Vec::new();
    for h in [2e-3, 1e-3] {
        let xm = midpoint3(&mb, &x0, t_end, h);
        let e = (0..2).fold(0.0f64, |m, b| {
            let (a, _) = angle3(&mb, b, &xm);
            let (c, _) = angle3(&mb, b, &xr);
            m.max((a - c).abs())
        });
        println!("h = {h:e}: max angle difference midpoint vs Radau {e:.3e} rad");
        errs.push(e);
    }
    let ratio = errs[0] / errs[1];
    println!("ratio {ratio:.3}");
    assert!(errs[1] < 1e-4);
    assert!((3.5..4.5).contains(&ratio), "order ratio {ratio}");
}
