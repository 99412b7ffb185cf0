//! Joints and assembly: build errors naming the offending item, redundant constraints,
//! a rigid crank–slider driven by a prescribed velocity (paper 000 §6.3 kinematics, rigid
//! coupler) against its closed-form kinematics, the discrete power balance with the driver
//! input, consistent initialisation of a closed loop, and the linearised pendulum.
mod common;

use common::consistent;
use phlex_mbs::body::FloatingBody;

use common::crank::crank_and_slider;
use phlex_core::PhSystem;
use phlex_mbs::*;
use phlex_solve::eigen::EigenParams;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{MidpointParams, MidpointVariant};
use phlex_solve::newton::NewtonParams;
use phlex_solve::Midpoint;

fn bob() -> RigidBody2d {
    RigidBody2d::new(1.0, 0.0)
        .com([1.0, 0.0])
        .port("pivot", [0.0, 0.0])
}

#[test]
fn build_errors_name_the_item() {
    // unknown body
    let mut b = MultibodyBuilder::new();
    b.add_body("bob", bob())
        .add_joint("hinge", Joint::revolute("bob", "pivot", "arm", "P"));
    let e = b.build().unwrap_err();
    assert!(
        matches!(e, MbsError::UnknownBody { ref body, ref context, .. } if body == "arm" && context.contains("hinge")),
        "{e}"
    );
    // unknown port, with the available ones listed
    let mut b = MultibodyBuilder::new();
    b.add_body("bob", bob())
        .add_joint("hinge", Joint::ground_revolute("bob", "tip", "origin"));
    let e = b.build().unwrap_err().to_string();
    assert!(
        e.contains("hinge") && e.contains("'tip'") && e.contains("pivot"),
        "{e}"
    );
    // unknown ground point
    let mut b = MultibodyBuilder::new();
    b.add_body("bob", bob())
        .add_joint("hinge", Joint::ground_revolute("bob", "pivot", "wall"));
    let e = b.build().unwrap_err().to_string();
    assert!(e.contains("wall") && e.contains("origin"), "{e}");
    // non-positive mass / modulus
    let mut b = MultibodyBuilder::new();
    b.add_body("bob", RigidBody2d::new(0.0, 1.0));
    let e = b.build().unwrap_err().to_string();
    assert!(e.contains("bob") && e.contains("mass"), "{e}");
    let mut b = MultibodyBuilder::new();
    b.add_body(
        "arm",
        FloatingBeam2d::new(1.0, 1.0, 1.0, -2.0, 2).bc(DeformationBc::Cantilever),
    );
    let e = b.build().unwrap_err().to_string();
    assert!(e.contains("arm") && e.contains("EI"), "{e}");
    // missing deformation condition
    let mut b = MultibodyBuilder::new();
    b.add_body("coupler", FloatingBeam2d::new(1.0, 1.0, 1.0, 1.0, 2));
    let e = b.build().unwrap_err();
    assert!(
        matches!(e, MbsError::MissingDeformationBc { ref body } if body == "coupler"),
        "{e}"
    );
    // duplicate names, slider between bodies, joint of a body with itself
    let mut b = MultibodyBuilder::new();
    b.add_body("bob", bob()).add_body("bob", bob());
    assert!(matches!(
        b.build().unwrap_err(),
        MbsError::DuplicateName { .. }
    ));
    let mut b = MultibodyBuilder::new();
    b.add_body("a", bob()).add_body("c", bob()).add_joint(
        "s",
        Joint::new(
            "a",
            "pivot",
            "c",
            "pivot",
            JointKind::Slider {
                direction: [1.0, 0.0],
            },
        ),
    );
    let e = b.build().unwrap_err().to_string();
    assert!(e.contains("'s'") && e.contains("ground"), "{e}");
    let mut b = MultibodyBuilder::new();
    b.add_body("a", bob())
        .add_joint("self", Joint::revolute("a", "pivot", "a", "P"));
    assert!(b.build().unwrap_err().to_string().contains("itself"));
    let mut b = MultibodyBuilder::new();
    b.add_body("a", bob()).add_joint(
        "s",
        Joint::new(
            "a",
            "pivot",
            GROUND,
            "origin",
            JointKind::Slider {
                direction: [0.0, 0.0],
            },
        ),
    );
    assert!(b.build().unwrap_err().to_string().contains("direction"));
}

/// Two hinges at the same point of the same body, and a weld plus a hinge: the SVD rank
/// check reports the dependent rows by joint.
#[test]
fn redundant_constraints_are_reported_by_joint() {
    let mut b = MultibodyBuilder::new();
    b.add_body("bob", bob())
        .add_joint("hinge_a", Joint::ground_revolute("bob", "pivot", "origin"))
        .add_joint("hinge_b", Joint::ground_revolute("bob", "pivot", "origin"));
    match b.build().unwrap_err() {
        MbsError::RedundantConstraints {
            rank_deficiency,
            joints,
            details,
            ..
        } => {
            assert_eq!(rank_deficiency, 2);
            assert!(
                joints.contains(&"hinge_a".to_string()) && joints.contains(&"hinge_b".to_string()),
                "{details}"
            );
            println!("{details}");
        }
        e => panic!("{e}"),
    }
    // A rigid body welded to the ground and hinged elsewhere: 3 + 2 rows on 3 velocities.
    let mut b = MultibodyBuilder::new();
    b.add_body(
        "plate",
        RigidBody2d::new(1.0, 0.1).port("corner", [1.0, 1.0]),
    )
    .add_ground_point("c", [1.0, 1.0])
    .add_joint("weld", Joint::ground_weld("plate", "P", "origin"))
    .add_joint("pin", Joint::ground_revolute("plate", "corner", "c"));
    let e = b.build().unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("weld") && msg.contains("pin") && msg.contains("rank 3 of 5"),
        "{msg}"
    );
    // and the same model builds when the check is off (the user takes responsibility)
    let mut b = MultibodyBuilder::new();
    b.add_body("bob", bob())
        .add_joint("hinge_a", Joint::ground_revolute("bob", "pivot", "origin"))
        .add_joint("hinge_b", Joint::ground_revolute("bob", "pivot", "origin"))
        .check_redundancy(false);
    assert!(b.build().is_ok());
}

const LCR: f64 = 0.15;
const LCL: f64 = 0.3;
const OMEGA: f64 = 150.0;

/// Rigid crank–slider: coupler (rigid, 0.3 m, 0.066 kg uniform rod) whose end P is driven
/// with the crank-tip velocity v_cr(t) = ωL_cr(−sin ωt, cos ωt) (paper §6.3) and whose end C
/// slides on the X axis with the slider mass 0.033 kg lumped at C.
fn crank_slider() -> Multibody {
    let m = 0.066;
    let mut b = MultibodyBuilder::new();
    b.add_body(
        "coupler",
        RigidBody2d::new(m, m * LCL * LCL / 12.0)
            .com([0.5 * LCL, 0.0])
            .port("C", [LCL, 0.0])
            .lumped_mass("C", 0.033, 0.0)
            .pose(Pose2d::new(LCR, 0.0, 0.0)),
    );
    crank_and_slider(&mut b, "coupler", OMEGA * LCR, OMEGA);
    b.build().unwrap()
}

/// Exact slider position x_C(t) = L_cr cos ωt + √(L_cl² − L_cr² sin² ωt).
fn x_slider(t: f64) -> f64 {
    let s = (OMEGA * t).sin();
    LCR * (OMEGA * t).cos() + (LCL * LCL - LCR * LCR * s * s).sqrt()
}

/// One crank revolution (0.0419 s) with h = 2e-6 s (ωh = 3e-4): the slider position follows
/// the closed-form kinematics to O((ωh)²) ≈ 1e-7 relative (asserted 1e-6 of L_cr), the
/// joints drift at round-off level, and the driver's work equals the energy change at
/// every step (discrete power balance).
#[test]
fn crank_slider_kinematics_and_power_balance() {
    let mb = crank_slider();
    let init = consistent(&mb);
    let x0 = init.state;
    // the projection found the rigid velocities: coupler angular velocity −ωL_cr/L_cl at t = 0
    let tw = mb.twist(0, &x0);
    assert!((tw.omega + OMEGA * LCR / LCL).abs() < 1e-9, "{tw:?}");
    let t_end = 2.0 * std::f64::consts::PI / OMEGA;
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end,
            h: 2e-6,
            output_every: 100,
        },
        newton: NewtonParams {
            rtol: 1e-12,
            atol: 1e-12,
            modified: false,
            ..Default::default()
        },
        variant: MidpointVariant::DiscreteGradient,
    };
    let c = mb.bodies()[0].port_index("C").unwrap();
    let mut worst = 0.0f64;
    let mut integ = Midpoint::new(&mb, mb.input(), params).unwrap();
    let run = integ
        .run(&x0, &mut |t: f64, x: &[f64]| {
            let p = mb.port_position(0, c, x);
            worst = worst.max((p[0] - x_slider(t)).abs());
        })
        .unwrap();
    let hmax = common::params::max_abs(&run.ledger.hamiltonian);
    println!(
        "max |x_C − exact| = {worst:.3e} m, max joint drift {:.3e}, max step power residual {:.3e} J (H up to {hmax:.3e} J)",
        run.max_drift, run.max_step_residual.unwrap()
    );
    assert!(worst < 1e-6 * LCR);
    assert!(run.max_drift < 1e-10);
    assert!(run.max_step_residual.unwrap() < 1e-10 * hmax);
    // The same with Radau IIA (rtol 1e-9): slider position after one revolution.
    let sol = phlex_solve::Radau5::new(phlex_solve::Radau5Params::with_tolerances(1e-10, 1e-10))
        .unwrap()
        .integrate(
            &phlex_solve::PhDae::new(&mb, mb.input()).unwrap(),
            0.0,
            &x0,
            t_end,
            phlex_solve::radau5::OutputTimes::None,
            &mut |_t: f64, _y: &[f64]| {},
        )
        .unwrap();
    let p = mb.port_position(0, c, &sol.y);
    println!(
        "Radau: x_C(T) − exact = {:.3e} m, drift {:.3e}, steps {}",
        p[0] - x_slider(t_end),
        mb.max_position_drift(&sol.y),
        sol.stats.steps
    );
    assert!((p[0] - x_slider(t_end)).abs() < 1e-7);
}

/// Closed four-bar loop (rigid links, paper §6.2 lengths): the position-level Newton closes
/// the loop from perturbed poses with the crank angle locked, matching the loop equations.
#[test]
fn four_bar_loop_closure() {
    let (l0, l1, l2, l3) = (0.254, 0.108, 0.2794, 0.2705);
    let th1 = 0.7f64;
    let link = |l: f64| {
        RigidBody2d::new(0.1, 0.001)
            .com([0.5 * l, 0.0])
            .port("C", [l, 0.0])
    };
    // rough guesses
    let p1 = [l1 * th1.cos(), l1 * th1.sin()];
    let mut b = MultibodyBuilder::new();
    b.add_ground_point("O3", [l0, 0.0])
        .add_body("crank", link(l1).pose(Pose2d::new(0.0, 0.0, th1)))
        .add_body(
            "coupler",
            link(l2).pose(Pose2d::new(p1[0] + 0.01, p1[1] - 0.02, 0.3)),
        )
        .add_body("follower", link(l3).pose(Pose2d::new(0.28, 0.15, -1.5)))
        .add_joint("O1", Joint::ground_revolute("crank", "P", "origin"))
        .add_joint("A", Joint::revolute("crank", "C", "coupler", "P"))
        .add_joint("B", Joint::revolute("coupler", "C", "follower", "P"))
        .add_joint("O3", Joint::ground_revolute("follower", "C", "O3"));
    let mb = b.build().unwrap();
    let opts = KinematicsOptions {
        locked: vec![("crank".into(), Coordinate::Theta)],
        ..Default::default()
    };
    let init = consistent_initial_state(&mb, &mb.initial_state(), &mb.input(), 0.0, &opts).unwrap();
    let x = &init.state;
    println!(
        "loop closure: residual {:.3e} → {:.3e} in {} iterations",
        init.position_residual.0, init.position_residual.1, init.iterations
    );
    assert!(init.position_residual.1 < 1e-12);
    assert!(
        (mb.pose(0, x).theta - th1).abs() < 1e-15,
        "crank angle locked"
    );
    // paper loop equations with relative angles θ2 = φ2 − φ1, θ3 = φ3 − φ2
    let (f1, f2, f3) = (
        mb.pose(0, x).theta,
        mb.pose(1, x).theta,
        mb.pose(2, x).theta,
    );
    let e1 = l1 * f1.cos() + l2 * f2.cos() + l3 * f3.cos() - l0;
    let e2 = l1 * f1.sin() + l2 * f2.sin() + l3 * f3.sin();
    assert!(e1.abs() < 1e-12 && e2.abs() < 1e-12, "{e1} {e2}");
    // joint relative angles were reset from the poses (eq. (44) initial values)
    let ja = mb.joint_index("A").unwrap();
    assert!((x[mb.joint_state_range(ja).start] - (f2 - f1)).abs() < 1e-15);
}

/// Linearised pendulum hanging at rest: the only constrained mode is ω = √(g/L) (the static
/// hinge reaction from the consistent initialisation enters the geometric stiffness).
#[test]
fn linearised_pendulum_frequency() {
    let g = 9.81;
    let mut b = MultibodyBuilder::new();
    b.gravity([0.0, -g])
        .add_body(
            "bob",
            bob().pose(Pose2d::new(0.0, 0.0, -std::f64::consts::FRAC_PI_2)),
        )
        .add_joint("hinge", Joint::ground_revolute("bob", "pivot", "origin"));
    let mb = b.build().unwrap();
    let init = consistent(&mb);
    // static reaction: the ground holds the weight; the body x axis points down, so the
    // force on the body is −m g along x (body frame)
    let lam = mb.reaction(0, &init.state).to_vec();
    println!("static hinge force (body frame) {lam:?}");
    assert!((lam[0] + g).abs() < 1e-9 && lam[1].abs() < 1e-9);
    let res = modes(&mb, &init.state, &[], &EigenParams::default()).unwrap();
    let w = res.frequencies();
    println!("linearised pendulum: {w:?} vs √(g/L) = {}", g.sqrt());
    assert_eq!(w.len(), 1);
    // central differences in θ (step 1e-6): error ≈ 1e-10 relative
    assert!((w[0] - g.sqrt()).abs() < 1e-8 * g.sqrt());
    let _ = mb.hamiltonian(&init.state);
}
