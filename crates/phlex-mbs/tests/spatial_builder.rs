//! Model-building errors of the spatial layer (each names the offending item and what to
//! do) and the consistent initialisation of a closed spatial loop.
use phlex_core::geometry::so3::from_axis_angle;
use phlex_core::PhSystem;
use phlex_mbs::spatial::{
    consistent_initial_state_3d, Joint3d, JointKind3d, KinematicsOptions3d, Load3d,
    MultibodyBuilder3d,
};
use phlex_mbs::{Frame, MbsError, RigidBody3d};
use phlex_solve::Signal;

fn brick() -> RigidBody3d {
    RigidBody3d::new(1.0, [0.1, 0.1, 0.1]).port("tip", [1.0, 0.0, 0.0])
}

fn err_of(f: impl FnOnce(&mut MultibodyBuilder3d)) -> MbsError {
    let mut b = MultibodyBuilder3d::new();
    b.add_body("a", brick()).add_body("b", brick());
    f(&mut b);
    b.build().unwrap_err()
}

#[test]
fn unknown_names_are_reported_with_alternatives() {
    let e = err_of(|b| {
        b.add_joint("j", Joint3d::spherical("a", "tip", "c", "P"));
    });
    let m = e.to_string();
    assert!(matches!(e, MbsError::UnknownBody { .. }), "{m}");
    assert!(
        m.contains("joint 'j'") && m.contains("'c'") && m.contains("a, b, ground"),
        "{m}"
    );
    let e = err_of(|b| {
        b.add_joint("j", Joint3d::spherical("a", "toe", "b", "P"));
    });
    let m = e.to_string();
    assert!(m.contains("no port 'toe'") && m.contains("P, tip"), "{m}");
    let e = err_of(|b| {
        b.add_joint("j", Joint3d::ground_point("a", "tip", "somewhere"));
    });
    let m = e.to_string();
    assert!(m.contains("'somewhere'") && m.contains("origin"), "{m}");
    let e = err_of(|b| {
        b.add_load("push", Load3d::new("z", "P", Frame::Body));
    });
    assert!(e.to_string().contains("load 'push'") && e.to_string().contains("'z'"));
}

#[test]
fn inadmissible_joints_are_reported() {
    let m = err_of(|b| {
        b.add_joint("j", Joint3d::revolute("a", "tip", "b", "P", [0.0; 3]));
    })
    .to_string();
    assert!(
        m.contains("joint 'j'") && m.contains("axis") && m.contains("non-zero"),
        "{m}"
    );
    let m = err_of(|b| {
        b.add_joint("j", Joint3d::spherical("a", "tip", "a", "P"));
    })
    .to_string();
    assert!(m.contains("with itself"), "{m}");
    let m = err_of(|b| {
        b.add_joint("j", Joint3d::spherical("ground", "origin", "a", "P"));
    })
    .to_string();
    assert!(m.contains("ground on side b"), "{m}");
    let m = err_of(|b| {
        b.add_joint(
            "j",
            Joint3d::new(
                "a",
                "P",
                "b",
                "P",
                JointKind3d::PrescribedVelocity {
                    velocity: [0.0; 3].map(Signal::Constant),
                    angular_velocity: None,
                },
            ),
        );
    })
    .to_string();
    assert!(m.contains("body_b = \"ground\""), "{m}");
    let e = err_of(|b| {
        b.add_joint("j", Joint3d::spherical("a", "tip", "b", "P"))
            .add_joint("j", Joint3d::spherical("a", "P", "b", "tip"));
    });
    assert!(matches!(e, MbsError::DuplicateName { .. }), "{e}");
    let e = err_of(|b| {
        b.add_joint("j", Joint3d::spherical("a", "tip", "b", "P"))
            .add_load("j", Load3d::new("a", "P", Frame::Body));
    });
    assert!(matches!(e, MbsError::DuplicateName { .. }), "{e}");
}

#[test]
fn bad_body_parameters_are_reported() {
    let mut b = MultibodyBuilder3d::new();
    b.add_body("lump", RigidBody3d::new(-1.0, [0.1; 3]));
    let m = b.build().unwrap_err().to_string();
    assert!(m.contains("'lump'") && m.contains("mass"), "{m}");
    let mut b = MultibodyBuilder3d::new();
    b.add_body("disk", RigidBody3d::new(1.0, [0.1, -0.1, 0.1]));
    let m = b.build().unwrap_err().to_string();
    assert!(m.contains("'disk'") && m.contains("inertia"), "{m}");
    let mut b = MultibodyBuilder3d::new();
    b.add_body("ground", RigidBody3d::new(1.0, [0.1; 3]));
    assert!(matches!(
        b.build().unwrap_err(),
        MbsError::DuplicateName { .. }
    ));
}

/// A spatial RSSR four-bar: a crank hinged to ground about Z, a coupler with spherical
/// joints at both ends, a rocker hinged to ground about X (mobility 1 plus the idle spin of
/// the coupler). The coupler and rocker poses are given off by a few mm and degrees;
/// Gauss–Newton on the pose increments (crank locked) closes the loop to 1e-12, then the
/// velocities are projected onto the constraints (G p = 0 to 1e-12, the crank still
/// turning), and R stays orthogonal.
#[test]
fn closed_spatial_loop_is_made_consistent() {
    let anchor = [1.0, 1.0, 0.3];
    let tip = [0.4, 0.0, 0.0];
    let d = [0.6, 0.5, 0.3];
    let len = (0.36f64 + 0.25 + 0.09).sqrt();
    let x = [1.0, 0.0, 0.0];
    let axis = phlex_core::geometry::mat3::cross(x, d);
    let angle = (d[0] / len).acos();
    let r_exact = from_axis_angle(axis, angle).unwrap();
    let p = from_axis_angle([0.3, 0.2, 0.1], 0.03).unwrap();
    let r_coupler = phlex_core::geometry::mat3::mat_mul(&r_exact, &p);
    let mut b = MultibodyBuilder3d::new();
    b.gravity([0.0, 0.0, -9.81])
        .add_ground_point("anchor", anchor)
        .add_body(
            "crank",
            RigidBody3d::new(1.0, [0.01, 0.05, 0.05])
                .com([0.2, 0.0, 0.0])
                .port("tip", tip)
                .angular_velocity([0.0, 0.0, 2.0]),
        )
        .add_body(
            "coupler",
            RigidBody3d::new(0.5, [0.005, 0.03, 0.03])
                .com([0.4, 0.0, 0.0])
                .port("end", [len, 0.0, 0.0])
                .position([0.403, 0.002, -0.001])
                .rotation(r_coupler),
        )
        .add_body(
            "rocker",
            RigidBody3d::new(0.8, [0.02, 0.01, 0.02])
                .com([0.0, -0.25, 0.0])
                .port("tip", [0.0, -0.5, 0.0])
                .position([1.002, 1.0, 0.3])
                .rotation(from_axis_angle([1.0, 0.0, 0.0], 0.02).unwrap()),
        )
        .add_joint(
            "hinge",
            Joint3d::ground_revolute("crank", "P", "origin", [0.0, 0.0, 1.0]),
        )
        .add_joint("s1", Joint3d::spherical("crank", "tip", "coupler", "P"))
        .add_joint("s2", Joint3d::spherical("coupler", "end", "rocker", "tip"))
        .add_joint(
            "pivot",
            Joint3d::ground_revolute("rocker", "P", "anchor", [1.0, 0.0, 0.0]),
        );
    let mb = b.build().unwrap();
    let x0 = mb.initial_state();
    assert!(mb.max_position_drift(&x0) > 1e-3);
    let opts = KinematicsOptions3d {
        locked: vec!["crank".into()],
        ..Default::default()
    };
    let init = consistent_initial_state_3d(&mb, &x0, &mb.input(), 0.0, &opts).unwrap();
    let x = &init.state;
    println!(
        "position residual {:.2e} → {:.2e} in {} iterations; velocity residual {:.2e} → {:.2e}",
        init.position_residual.0,
        init.position_residual.1,
        init.iterations,
        init.velocity_residual.0,
        init.velocity_residual.1
    );
    assert!(init.position_residual.1 < 1e-12);
    assert!(mb.max_position_drift(x) < 1e-12);
    assert!(init.velocity_residual.1 < 1e-12);
    // the rotation of the coupler is still a rotation; the locked crank did not move
    let r = mb.rotation(1, x);
    let d = phlex_core::geometry::so3::orthogonality_defect(&r);
    assert!(d < 1e-14);
    assert_eq!(&x[..12], &x0[..12]);
    // the crank speed about Z: the projection keeps the feasible crank motion
    let w = mb.local(0, x)[17];
    println!("crank ω_z after projection {w:.6} rad/s");
    assert!(w.abs() > 0.1);
    // the velocity constraints through the assembled G and the effort
    let n = mb.n();
    let g = mb.constraint_matrix(x);
    let mut z = vec![0.0; n];
    mb.effort(x, &mut z);
    let gp = phlex_core::sparse::mul_vec(&g, &z);
    assert!(gp.iter().all(|v| v.abs() < 1e-12), "{gp:?}");
}
