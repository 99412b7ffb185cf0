//! Spatial joints against independent references (issue 3, 3D):
//! * revolute about a tilted axis: the exact pendulum period
//!   T = 2π/agm(1, cos(θ0/2)) · √(I/(m g d cos α)) (I about the axis, d the distance of the
//!   centre of mass from it, α the tilt of the axis from the horizontal), for a hinge to
//!   ground and for a hinge to a body welded to ground;
//! * prismatic along an inclined axis: s(t) = ½ g sin α t² and the normal force m g cos α;
//! * weld: two welded bodies move as the merged rigid body;
//! * redundancy: two spherical joints and a revolute on the same pair are reported.
mod common;

use common::params::midpoint;
use phlex_core::geometry::mat3::cross;
use phlex_core::geometry::so3::from_axis_angle;
use phlex_core::PhSystem;
use phlex_mbs::spatial::{Joint3d, Multibody3d, MultibodyBuilder3d};
use phlex_mbs::{MbsError, RigidBody3d, RigidBody3dModel};
use phlex_solve::midpoint::MidpointVariant;
use phlex_solve::radau5::{OutputTimes, Radau5, Radau5Params};
use phlex_solve::InputFn;
use phlex_solve::Midpoint;
use phlex_solve::PhDae;

const G: f64 = 9.81;

fn agm(mut a: f64, mut b: f64) -> f64 {
    while (a - b).abs() > 1e-16 * a {
        let m = 0.5 * (a + b);
        b = (a * b).sqrt();
        a = m;
    }
    a
}

const ALPHA: f64 = 0.4;
const THETA0: f64 = 0.5;
const MASS: f64 = 2.0;
const D: f64 = 0.5;
const JG: [f64; 3] = [0.02, 0.03, 0.04];

fn hinge_axis() -> [f64; 3] {
    [ALPHA.cos(), 0.0, ALPHA.sin()]
}

/// The pendulum body: P on the axis (at `at`), centre of mass at distance D below the
/// axis in the plane of the axis and gravity, turned by θ0 about the axis.
fn pendulum_body(at: [f64; 3]) -> RigidBody3d {
    let down = [ALPHA.sin(), 0.0, -ALPHA.cos()];
    RigidBody3d::new(MASS, JG)
        .com([D * down[0], D * down[1], D * down[2]])
        .rotation(from_axis_angle(hinge_axis(), THETA0).unwrap())
        .position(at)
}

fn exact_period() -> f64 {
    let e = hinge_axis();
    let i_axis = JG[0] * e[0] * e[0] + JG[1] * e[1] * e[1] + JG[2] * e[2] * e[2] + MASS * D * D;
    2.0 * std::f64::consts::PI / agm(1.0, (0.5 * THETA0).cos())
        * (i_axis / (MASS * G * D * ALPHA.cos())).sqrt()
}

/// Period from the upward zero crossings of θ0 + θ (θ the hinge-angle state), linear
/// interpolation (error O(h³): θ'' = 0 at θ = 0).
fn measured_period(mb: &Multibody3d, joint: usize, h: f64, t_end: f64) -> (f64, f64, f64) {
    let x0 = mb.initial_state();
    let mut crossings = Vec::new();
    let mut prev: Option<(f64, f64)> = None;
    let mut max_rot = 0.0f64;
    let pend = mb.body_index("pendulum").unwrap();
    let mut integ = Midpoint::new(
        mb,
        mb.input(),
        midpoint(h, t_end, 1, (1e-14, 1e-14), MidpointVariant::Midpoint),
    )
    .unwrap();
    let run = integ
        .run(&x0, &mut |t: f64, x: &[f64]| {
            let th = THETA0 + mb.joint_states(joint, x)[0];
            if let Some((tp, thp)) = prev {
                if thp < 0.0 && th >= 0.0 {
                    crossings.push(tp + (t - tp) * (-thp) / (th - thp));
                }
            }
            prev = Some((t, th));
            // the reported angle is the rotation of the body about the axis
            let r = mb.rotation(pend, x);
            let q = from_axis_angle(hinge_axis(), th).unwrap();
            for i in 0..3 {
                for j in 0..3 {
                    max_rot = max_rot.max((r[i][j] - q[i][j]).abs());
                }
            }
        })
        .unwrap();
    let n = crossings.len();
    assert!(n >= 3, "{crossings:?}");
    (
        (crossings[n - 1] - crossings[0]) / (n - 1) as f64,
        run.max_drift,
        max_rot,
    )
}

/// Hinge to ground about the tilted axis, h = 2e-4 s over 3.5 periods: the midpoint
/// frequency error is (ωh)²/12 ≈ 6e-8 relative (ω ≈ 4.1 rad/s); asserted 1e-6. The
/// hinge point and axis are kept exactly (constant body-frame rows): drift < 1e-12. The
/// integrated angle (θ₁ = θ₀ + hω̄, eq. (44)) and the Cayley rotation (angle 2 atan(hω̄/2))
/// differ by (hω̄)³/12 per step, ≈ 1e-8 after 3.5 periods; asserted 1e-7.
#[test]
fn tilted_ground_hinge_has_pendulum_period() {
    let mut b = MultibodyBuilder3d::new();
    b.gravity([0.0, 0.0, -G])
        .add_body("pendulum", pendulum_body([0.0; 3]))
        .add_joint(
            "hinge",
            Joint3d::ground_revolute("pendulum", "P", "origin", hinge_axis()),
        );
    let mb = b.build().unwrap();
    let t_exact = exact_period();
    let (t, drift, rot) = measured_period(&mb, 0, 2e-4, 3.5 * t_exact);
    println!("period {t:.9} s, exact {t_exact:.9} s, rel {:.2e}; drift {drift:.1e}; |R − R(θ)| {rot:.1e}", (t - t_exact).abs() / t_exact);
    assert!((t - t_exact).abs() < 1e-6 * t_exact);
    assert!(drift < 1e-12);
    assert!(rot < 1e-7);
}

/// The same pendulum hinged (revolute between bodies, axis given in the inertial frame at
/// t0) to a bracket welded to ground (fixed frame) at another place: same period (1e-6);
/// the hinge points are kept exactly (inertial point rows) and, the bracket being at rest,
/// so is the axis (asserted < 1e-8).
#[test]
fn tilted_hinge_between_bodies_has_pendulum_period() {
    let at = [0.3, -0.2, 1.0];
    let mut b = MultibodyBuilder3d::new();
    b.gravity([0.0, 0.0, -G])
        .add_ground_point("base", [0.0, 0.0, 1.0])
        .add_body(
            "bracket",
            RigidBody3d::new(5.0, [0.1, 0.2, 0.25])
                .port("hinge", [0.3, -0.2, 0.0])
                .position([0.0, 0.0, 1.0])
                .rotation(from_axis_angle([0.2, 0.4, 1.0], 0.3).unwrap()),
        )
        .add_body("pendulum", pendulum_body(at))
        .add_joint("weld", Joint3d::ground_frame("bracket", "P", "base"))
        .add_joint(
            "hinge",
            Joint3d::revolute("bracket", "hinge", "pendulum", "P", hinge_axis()),
        );
    // the bracket's port must sit at the pendulum's P: rotate the port offset accordingly
    let mb0 = b.build().unwrap();
    let x0 = mb0.initial_state();
    let gap = mb0.max_position_drift(&x0);
    assert!(
        gap > 1e-3,
        "the bracket port is rotated away from P ({gap})"
    );
    let r = from_axis_angle([0.2, 0.4, 1.0], 0.3).unwrap();
    let d = [0.3, -0.2, 0.0];
    let local = [0, 1, 2].map(|j| (0..3).map(|i| r[i][j] * d[i]).sum::<f64>());
    let mut b = MultibodyBuilder3d::new();
    b.gravity([0.0, 0.0, -G])
        .add_ground_point("base", [0.0, 0.0, 1.0])
        .add_body(
            "bracket",
            RigidBody3d::new(5.0, [0.1, 0.2, 0.25])
                .port("hinge", local)
                .position([0.0, 0.0, 1.0])
                .rotation(r),
        )
        .add_body("pendulum", pendulum_body(at))
        .add_joint("weld", Joint3d::ground_frame("bracket", "P", "base"))
        .add_joint(
            "hinge",
            Joint3d::revolute("bracket", "hinge", "pendulum", "P", hinge_axis()),
        );
    let mb = b.build().unwrap();
    assert!(mb.max_position_drift(&mb.initial_state()) < 1e-15);
    let t_exact = exact_period();
    let j = mb.joint_index("hinge").unwrap();
    let (t, drift, rot) = measured_period(&mb, j, 2e-4, 3.5 * t_exact);
    println!("period {t:.9} s, exact {t_exact:.9} s, rel {:.2e}; drift {drift:.1e}; |R − R(θ)| {rot:.1e}", (t - t_exact).abs() / t_exact);
    assert!((t - t_exact).abs() < 1e-6 * t_exact);
    assert!(drift < 1e-8);
    assert!(rot < 1e-8);
}

/// A block sliding without friction on a line inclined by α below the horizontal (ground
/// prismatic, and prismatic to a rail welded to ground): constant acceleration g sin α,
/// which the midpoint rule integrates exactly, so s(t) = ½ g sin α t² to round-off
/// (asserted 1e-10 m at t = 2 s); the normal reaction (λ rows n1, n2) has magnitude
/// m g cos α (1e-10 relative) and the block does not rotate.
#[test]
fn prismatic_on_incline_falls_with_g_sin_alpha() {
    let alpha: f64 = 0.3;
    let m = 3.0;
    let e = [alpha.cos(), 0.0, -alpha.sin()];
    for to_body in [false, true] {
        let mut b = MultibodyBuilder3d::new();
        b.gravity([0.0, 0.0, -G]).add_body(
            "block",
            RigidBody3d::new(m, [0.1, 0.2, 0.25])
                .com([0.0, 0.05, 0.1])
                .rotation(from_axis_angle([1.0, 1.0, 0.0], 0.2).unwrap()),
        );
        if to_body {
            b.add_body("rail", RigidBody3d::new(10.0, [1.0, 1.0, 1.5]))
                .add_joint("fix", Joint3d::ground_frame("rail", "P", "origin"))
                .add_joint("slide", Joint3d::prismatic("rail", "P", "block", "P", e));
        } else {
            b.add_joint(
                "slide",
                Joint3d::ground_prismatic("block", "P", "origin", e),
            );
        }
        let mb = b.build().unwrap();
        let x0 = mb.initial_state();
        let k = mb.joint_index("slide").unwrap();
        let blk = mb.body_index("block").unwrap();
        let mut worst = [0.0f64; 3];
        let mut integ = Midpoint::new(
            &mb,
            mb.input(),
            midpoint(0.01, 2.0, 1, (1e-14, 1e-14), MidpointVariant::Midpoint),
        )
        .unwrap();
        let r0 = mb.rotation(blk, &x0);
        integ
            .run(&x0, &mut |t: f64, x: &[f64]| {
                let s_exact = 0.5 * G * alpha.sin() * t * t;
                let s = mb.joint_states(k, x)[0];
                let p = mb.port_position(blk, 0, x);
                worst[0] = worst[0].max((s - s_exact).abs());
                for i in 0..3 {
                    worst[0] = worst[0].max((p[i] - s_exact * e[i]).abs());
                }
                let r = mb.rotation(blk, x);
                for i in 0..3 {
                    for j in 0..3 {
                        worst[2] = worst[2].max((r[i][j] - r0[i][j]).abs());
                    }
                }
                if t > 0.0 {
                    let lam = mb.reaction(k, x);
                    let n = (lam[3] * lam[3] + lam[4] * lam[4]).sqrt();
                    worst[1] = worst[1].max((n - m * G * alpha.cos()).abs() / (m * G));
                }
            })
            .unwrap();
        println!(
            "to body {to_body}: |s − ½ g sinα t²| {:.2e} m, normal force {:.2e}, rotation {:.2e}",
            worst[0], worst[1], worst[2]
        );
        assert!(worst[0] < 1e-10);
        assert!(worst[1] < 1e-9);
        assert!(worst[2] < 1e-12);
    }
}

/// Two free bodies welded at a common point behave as one rigid body with the merged mass,
/// centre of mass and inertia (parallel axis theorem), here tumbling about a generic axis
/// without gravity. Both the welded pair (index-2 pHDAE) and the merged body (ODE) are
/// integrated by Radau IIA at rtol = atol = 1e-11 over 3 s: rotation and position of body 1
/// agree to 1e-8.
#[test]
fn weld_moves_as_merged_rigid_body() {
    let j1 = [0.1, 0.2, 0.25];
    let j2 = [0.05, 0.06, 0.08];
    let (m1, m2) = (1.0, 2.0);
    let q = from_axis_angle([0.0, 1.0, 1.0], 0.4).unwrap();
    let r2 = [0.5, 0.2, -0.1];
    let pw = [0.3, 0.1, 0.0];
    let w = [0.3, 2.0, 0.4];
    let v1 = [0.1, 0.0, 0.0];
    let qt = |a: [f64; 3]| [0, 1, 2].map(|j| (0..3).map(|i| q[i][j] * a[i]).sum::<f64>());
    let port2 = qt([pw[0] - r2[0], pw[1] - r2[1], pw[2] - r2[2]]);
    let wr = cross(w, r2);
    let mut b = MultibodyBuilder3d::new();
    b.add_body(
        "one",
        RigidBody3d::new(m1, j1)
            .port("w", pw)
            .velocity(v1)
            .angular_velocity(w),
    )
    .add_body(
        "two",
        RigidBody3d::new(m2, j2)
            .port("w", port2)
            .position(r2)
            .rotation(q)
            .velocity(qt([v1[0] + wr[0], v1[1] + wr[1], v1[2] + wr[2]]))
            .angular_velocity(qt(w)),
    )
    .add_joint("glue", Joint3d::weld("one", "w", "two", "w"));
    let mb = b.build().unwrap();
    // merged body: reference point P = origin of body one
    let m = m1 + m2;
    let c = [0, 1, 2].map(|i| m2 * r2[i] / m);
    let mut jm = [[0.0; 3]; 3];
    let d1 = [-c[0], -c[1], -c[2]];
    let d2 = [r2[0] - c[0], r2[1] - c[1], r2[2] - c[2]];
    let n1: f64 = d1.iter().map(|v| v * v).sum();
    let n2: f64 = d2.iter().map(|v| v * v).sum();
    for a in 0..3 {
        for bb in 0..3 {
            let del = if a == bb { 1.0 } else { 0.0 };
            let rot2: f64 = (0..3).map(|k| q[a][k] * j2[k] * q[bb][k]).sum();
            jm[a][bb] = del * j1[a]
                + m1 * (n1 * del - d1[a] * d1[bb])
                + rot2
                + m2 * (n2 * del - d2[a] * d2[bb]);
        }
    }
    let mut merged = RigidBody3d::new(m, [1.0; 3])
        .com(c)
        .velocity(v1)
        .angular_velocity(w);
    merged.inertia = jm;
    let merged: RigidBody3dModel = merged.build("merged").unwrap();
    let t_end = 3.0;
    let radau = Radau5::new(Radau5Params::with_tolerances(1e-11, 1e-11)).unwrap();
    let x0 = mb.initial_state();
    let dae = PhDae::new(&mb, mb.input()).unwrap();
    let xa = radau
        .integrate(
            &dae,
            0.0,
            &x0,
            t_end,
            OutputTimes::None,
            &mut |_t: f64, _y: &[f64]| {},
        )
        .unwrap()
        .y;
    let dae1 = PhDae::new(&merged, InputFn::zeros(6)).unwrap();
    let xb = radau
        .integrate(
            &dae1,
            0.0,
            &merged.initial_state(),
            t_end,
            OutputTimes::None,
            &mut |_t: f64, _y: &[f64]| {},
        )
        .unwrap()
        .y;
    let one = mb.local(0, &xa);
    let diff = (0..12).fold(0.0f64, |acc, i| acc.max((one[i] - xb[i]).abs()));
    let e_pair = mb.hamiltonian(&xa);
    let e_merged = merged.hamiltonian(&xb);
    println!("max |pose(one) − pose(merged)| {diff:.2e}; energies {e_pair:.12} {e_merged:.12}; weld drift {:.1e}", mb.max_position_drift(&xa));
    assert!(diff < 1e-8);
    assert!((e_pair - e_merged).abs() < 1e-9 * e_merged);
    assert!(mb.max_position_drift(&xa) < 1e-8);
}

/// Two spherical joints and a revolute about the line through them on the same pair: 11
/// rows for 5 independent constraints (rotation about the line is free), rank deficiency 6,
/// reported with the three joints and not the fixed frame of the base.
#[test]
fn redundant_joints_are_reported_by_name() {
    let mut b = MultibodyBuilder3d::new();
    b.add_body(
        "base",
        RigidBody3d::new(1.0, [0.1, 0.1, 0.1])
            .port("p1", [0.0, 0.0, 0.0])
            .port("p2", [0.0, 0.0, 1.0]),
    )
    .add_body(
        "door",
        RigidBody3d::new(1.0, [0.1, 0.1, 0.1])
            .com([0.5, 0.0, 0.5])
            .port("p1", [0.0, 0.0, 0.0])
            .port("p2", [0.0, 0.0, 1.0]),
    )
    .add_joint("base_fix", Joint3d::ground_frame("base", "P", "origin"))
    .add_joint("s1", Joint3d::spherical("base", "p1", "door", "p1"))
    .add_joint("s2", Joint3d::spherical("base", "p2", "door", "p2"))
    .add_joint(
        "hinge",
        Joint3d::revolute("base", "p1", "door", "p1", [0.0, 0.0, 1.0]),
    );
    let err = b.build().unwrap_err();
    println!("{err}");
    match &err {
        MbsError::RedundantConstraints {
            rank_deficiency,
            rank,
            rows,
            joints,
            ..
        } => {
            assert_eq!((*rank_deficiency, *rank, *rows), (6, 11, 17));
            for j in ["s1", "s2", "hinge"] {
                assert!(joints.iter().any(|n| n == j), "{joints:?}");
            }
            assert!(!joints.iter().any(|n| n == "base_fix"), "{joints:?}");
        }
        e => panic!("unexpected error {e}"),
    }
    let msg = err.to_string();
    assert!(msg.contains("s1[") && msg.contains("hinge["), "{msg}");
    // without the hinge the two spherical joints leave one dependent row (the distance
    // along the line is constrained twice)
    let mut b = MultibodyBuilder3d::new();
    b.add_body(
        "base",
        RigidBody3d::new(1.0, [0.1, 0.1, 0.1]).port("p2", [0.0, 0.0, 1.0]),
    )
    .add_body(
        "door",
        RigidBody3d::new(1.0, [0.1, 0.1, 0.1]).port("p2", [0.0, 0.0, 1.0]),
    )
    .add_joint("base_fix", Joint3d::ground_frame("base", "P", "origin"))
    .add_joint("s1", Joint3d::spherical("base", "P", "door", "P"))
    .add_joint("s2", Joint3d::spherical("base", "p2", "door", "p2"));
    match b.build().unwrap_err() {
        MbsError::RedundantConstraints {
            rank_deficiency, ..
        } => assert_eq!(rank_deficiency, 1),
        e => panic!("unexpected error {e}"),
    }
}

/// A rotor (principal inertias 0.1, 0.2, 0.3 kg m², centre of mass at P) held at P and spun
/// up about its body z axis by a prescribed-velocity joint: v(t) = 0, ω(t) = (0, 0, a t)
/// (body frame). The driver supplies all the energy: the discrete-gradient scheme's power
/// balance H(t) − H(0) = ∫ yᵀu dt holds to 1e-12 J per step, H(t) = ½ J_z (a t)², and the
/// driving torque (multiplier rows wz) is J_z a (ω is linear in t, so the midpoint values
/// are exact) up to the multiplier resolution of the scheme, Newton tolerance / (h/2) ≈
/// 1e-10 N m (see `phlex_solve::integrators::midpoint::nonlinear`); asserted 1e-9.
#[test]
fn prescribed_spin_up_supplies_the_kinetic_energy() {
    use phlex_mbs::spatial::JointKind3d;
    use phlex_mbs::Frame;
    use phlex_solve::Signal;
    let a = 2.0;
    let jz = 0.3;
    let mut b = MultibodyBuilder3d::new();
    b.gravity([0.0, 0.0, -G])
        .add_body(
            "rotor",
            RigidBody3d::new(1.5, [0.1, 0.2, jz])
                .rotation(from_axis_angle([1.0, 0.5, 0.2], 0.7).unwrap()),
        )
        .add_joint(
            "motor",
            Joint3d::new(
                "rotor",
                "P",
                "ground",
                "origin",
                JointKind3d::PrescribedVelocity {
                    velocity: [0.0; 3].map(Signal::Constant),
                    angular_velocity: Some((
                        [
                            Signal::Constant(0.0),
                            Signal::Constant(0.0),
                            Signal::expr("2*t").unwrap(),
                        ],
                        Frame::Body,
                    )),
                },
            ),
        );
    let mb = b.build().unwrap();
    let x0 = mb.initial_state();
    let mut p = midpoint(1e-3, 1.0, 1, (1e-14, 1e-14), MidpointVariant::Midpoint);
    p.variant = MidpointVariant::DiscreteGradient;
    p.step.output_every = 100;
    let k = mb.joint_index("motor").unwrap();
    let h0 = mb.hamiltonian(&x0);
    let mut worst = [0.0f64; 2];
    let mut integ = Midpoint::new(&mb, mb.input(), p).unwrap();
    let run = integ
        .run(&x0, &mut |t: f64, x: &[f64]| {
            let w = a * t;
            worst[0] = worst[0].max((mb.hamiltonian(x) - h0 - 0.5 * jz * w * w).abs());
            if t > 0.0 {
                worst[1] = worst[1].max((mb.reaction(k, x)[5] - jz * a).abs());
            }
        })
        .unwrap();
    println!(
        "|H − H0 − ½J(at)²| {:.2e} J, |torque − J a| {:.2e} N m, step balance residual {:.2e} J, drift {:.2e}",
        worst[0], worst[1], run.max_step_residual.unwrap(), run.max_drift
    );
    assert!(worst[0] < 1e-12);
    assert!(worst[1] < 1e-9);
    assert!(run.max_step_residual.unwrap() < 1e-12);
    assert!(run.max_drift < 1e-12);
}
