//! Cross-check with `phlex-mbs` (issue 5 §5, "where phlex-mbs has the same mechanism, the
//! two agree too"): a planar double pendulum of two rigid rods (mass m, length L, central
//! inertia mL²/12, centre of mass at mid-length) hinged at the origin and to each other,
//! under gravity, no friction.
//!
//! * EPHS: ground, two rigid bodies on SE(3) (Fig. 2) and two revolute joints (Fig. 3)
//!   with axes along the inertial y axis; the motion is in the x–z plane, gravity −z.
//! * phlex-mbs: two [`RigidBody2d`] links with ports `pivot`/`tip`, a ground revolute and a
//!   revolute joint, gravity (0, −g) in the X–Y plane (paper 000, index-2 pHDAE).
//!
//! The planes are identified by (X, Y) ↔ (x, z). A link at mbs angle θ (pivot → tip
//! direction (cos θ, sin θ)) is the EPHS rod with $R = R_y(\alpha)$, $\alpha = -(\theta + \pi/2)$
//! (the rod axis −e3 points from the pivot to the tip). Both models are integrated by
//! Radau IIA at rtol = atol = 1e-12; the centre-of-mass positions and the link angles are
//! compared every 0.1 s over 3 s.
#![allow(non_snake_case)]
mod common;

use common::{radau, DoublePendulum, G};
use phlex_core::geometry::mat3::mat_vec;
use phlex_core::geometry::{so3, Se3};
use phlex_ephs::library::kinematics::Kinematics;
use phlex_mbs::{
    consistent_initial_state, Joint, KinematicsOptions, Multibody, Pose2d, RigidBody2d,
};
use phlex_solve::PhDae;

const M: [f64; 2] = [1.0, 0.6];
const L: [f64; 2] = [1.0, 0.7];
const THETA0: [f64; 2] = [0.0, 0.5];
const T_END: f64 = 3.0;

/// The EPHS model (the axial moment of the rods only needs to be positive: they never spin
/// about their axes in planar motion).
const EPHS_MODEL: DoublePendulum = DoublePendulum {
    m: M,
    l: L,
    axial: 1e-3,
    friction: 0.0,
};

fn mbs_model() -> Multibody {
    let tip = [L[0] * THETA0[0].cos(), L[0] * THETA0[0].sin()];
    let mut b = phlex_mbs::MultibodyBuilder::new();
    b.gravity([0.0, -G])
        .add_body(
            "link1",
            RigidBody2d::new(M[0], M[0] * L[0] * L[0] / 12.0)
                .com([L[0] / 2.0, 0.0])
                .port("pivot", [0.0, 0.0])
                .port("tip", [L[0], 0.0])
                .pose(Pose2d::new(0.0, 0.0, THETA0[0])),
        )
        .add_body(
            "link2",
            RigidBody2d::new(M[1], M[1] * L[1] * L[1] / 12.0)
                .com([L[1] / 2.0, 0.0])
                .port("pivot", [0.0, 0.0])
                .pose(Pose2d::new(tip[0], tip[1], THETA0[1])),
        )
        .add_joint(
            "shoulder",
            Joint::ground_revolute("link1", "pivot", "origin"),
        )
        .add_joint("elbow", Joint::revolute("link1", "tip", "link2", "pivot"));
    b.build().unwrap()
}

/// (x, z) of both centres of mass and both link angles θ (mbs convention), per sample.
type Sample = [f64; 6];

fn wrap(a: f64) -> f64 {
    (a + std::f64::consts::PI).rem_euclid(2.0 * std::f64::consts::PI) - std::f64::consts::PI
}

fn run_ephs(ts: &[f64]) -> (Vec<Sample>, f64) {
    let dae = EPHS_MODEL.dae();
    let kin = Kinematics::new(&dae);
    let mut y = dae.default_state();
    // Rod poses from the mbs angles; joint angles from the poses.
    let mut pivot = [0.0; 3];
    for (i, name) in ["b1.pe.q", "b2.pe.q"].iter().enumerate() {
        let alpha = -(THETA0[i] + std::f64::consts::FRAC_PI_2);
        let R = so3::exp([0.0, alpha, 0.0]);
        let half = mat_vec(&R, [0.0, 0.0, L[i] / 2.0]);
        let r = [pivot[0] - half[0], pivot[1] - half[1], pivot[2] - half[2]];
        let mut c = [0.0; 12];
        Se3::new(R, r).to_coords(&mut c);
        dae.set_state(&mut y, name, &c).unwrap();
        pivot = [r[0] - half[0], r[1] - half[1], r[2] - half[2]];
    }
    kin.complete_joint_coordinates(&mut y, &[true, true]);
    for d in kin.joint_drift(&y) {
        assert!(d < 1e-15, "initial drift {d}");
    }
    let r = dae.make_consistent(0.0, &mut y).unwrap();
    assert!(r < 1e-12);
    let (p1, p2) = (
        dae.state_range("b1.pe.q").unwrap(),
        dae.state_range("b2.pe.q").unwrap(),
    );
    let mut out = Vec::new();
    let mut drift = 0.0f64;
    radau(&dae, &y, T_END, (1e-12, 1e-12), ts, |_t: f64, y: &[f64]| {
        let q1 = Se3::from_coords(&y[p1.clone()]);
        let q2 = Se3::from_coords(&y[p2.clone()]);
        // R_y(α): α = atan2(R13, R11); θ = −α − π/2.
        let th = |q: &Se3| wrap(-q.R[0][2].atan2(q.R[0][0]) - std::f64::consts::FRAC_PI_2);
        out.push([q1.r[0], q1.r[2], q2.r[0], q2.r[2], th(&q1), th(&q2)]);
        drift = kin.joint_drift(y).into_iter().fold(drift, f64::max);
    });
    (out, drift)
}

fn run_mbs(ts: &[f64]) -> Vec<Sample> {
    let mb = mbs_model();
    let init = consistent_initial_state(
        &mb,
        &mb.initial_state(),
        &mb.input(),
        0.0,
        &KinematicsOptions::default(),
    )
    .unwrap();
    let mut out = Vec::new();
    let dae = PhDae::new(&mb, mb.input()).unwrap();
    radau(
        &dae,
        &init.state,
        T_END,
        (1e-12, 1e-12),
        ts,
        |_t: f64, x: &[f64]| {
            let mut s = [0.0; 6];
            for b in 0..2 {
                let p = mb.pose(b, x);
                s[2 * b] = p.x + 0.5 * L[b] * p.theta.cos();
                s[2 * b + 1] = p.y + 0.5 * L[b] * p.theta.sin();
                s[4 + b] = wrap(p.theta);
            }
            out.push(s);
        },
    );
    out
}

#[test]
fn planar_double_pendulum_agrees_with_phlex_mbs() {
    let ts: Vec<f64> = (0..=30).map(|k| 0.1 * k as f64).collect();
    let (e, drift) = run_ephs(&ts);
    let m = run_mbs(&ts);
    assert_eq!(e.len(), ts.len());
    assert_eq!(m.len(), ts.len());
    let mut pos = 0.0f64;
    let mut ang = 0.0f64;
    let mut range = 0.0f64;
    for (a, b) in e.iter().zip(&m) {
        for k in 0..4 {
            pos = pos.max((a[k] - b[k]).abs());
        }
        for k in 4..6 {
            ang = ang.max(wrap(a[k] - b[k]).abs());
        }
        range = range.max((a[5] - m[0][5]).abs());
    }
    println!(
        "EPHS (SE(3) bodies, revolute joints) vs phlex-mbs (planar pH DAE), 3 s, Radau5 1e-12: max |Δ r_com| {pos:.3e} m, max |Δθ| {ang:.3e} rad; EPHS joint drift {drift:.3e}; θ2 range {range:.2} rad"
    );
    // Non-trivial motion: link 2 swings by more than 1 rad.
    assert!(range > 1.0, "{range}");
    // Both solutions carry global errors of ~1e-11–1e-10 at these tolerances (moderate
    // chaotic amplification over 3 s; measured agreement 9e-12 m and 5e-11 rad): the
    // issue's 1e-8 is asserted.
    assert!(pos < 1e-8 && ang < 1e-8, "{pos} {ang}");
}
