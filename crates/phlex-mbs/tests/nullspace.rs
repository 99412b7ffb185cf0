#![allow(non_snake_case)]
//! Null-space ODE (paper 000 eq. (51)) of two constrained pHDAEs: its eigenvalues are the
//! finite eigenvalues of the descriptor pencil computed by
//! `phlex_solve::eigen::pencil_modes` (an independent path: SVD null spaces and a different
//! reduction of the multipliers), to 1e-8 relative.
//!
//! 1. A PFEM Euler–Bernoulli cantilever (HerDG1, 16 elements) whose clamp is imposed by
//!    Lagrange multipliers, lossless and with output-feedback damping at the free end.
//! 2. The four-bar mechanism of paper 000 §6.2 linearised at rest (the pHDAE (49) of
//!    `ph_linearization`): its null-space frequencies equal the modes of the full
//!    linearisation (configuration included) since without gravity nothing couples back.
mod common;

use common::consistent;

use common::four_bar::four_bar;
use faer::Side;
use phlex_core::sparse;
use phlex_core::structure::Tolerances;
use phlex_fem::models::beam::euler_bernoulli::{EbDiscretization, EulerBernoulli};
use phlex_fem::{EndCondition, Imposition};
use phlex_mbs::*;
use phlex_solve::eigen::{pencil_modes, EigenParams};
use phlex_solve::nullspace::{null_space_ode, NullSpaceParams};

/// Eigenvalues λ (Im λ > 0) of the full pencil and of the null-space ODE, paired in order.
fn compare(full: &phlex_core::LinearPhSystem, what: &str) -> (usize, f64) {
    let ode = null_space_ode(full, &NullSpaceParams::default()).unwrap();
    ode.system.check(&Tolerances::default()).unwrap();
    // Ê symmetric positive definite
    let E = sparse::to_dense(&ode.system.E);
    assert!(E.llt(Side::Lower).is_ok(), "{what}: Ê not SPD");
    let a = pencil_modes(&full.E, &full.j_minus_r(), &EigenParams::default()).unwrap();
    let b = phlex_solve::eigen::modes(&ode.system, &EigenParams::default()).unwrap();
    assert_eq!(a.modes.len(), b.modes.len(), "{what}: number of modes");
    let mut worst = 0.0f64;
    for (m, r) in a.modes.iter().zip(&b.modes) {
        let e = (m.lambda - r.lambda).norm() / m.lambda.norm();
        worst = worst.max(e);
        assert!(
            e < 1e-8,
            "{what}: {:?} vs {:?} (rel {e:.2e})",
            m.lambda,
            r.lambda
        );
    }
    println!(
        "{what}: {} modes, constraint rank {}, {} -> {} states, worst relative difference {worst:.2e}",
        a.modes.len(),
        ode.constraint_rank,
        full.n_states(),
        ode.n()
    );
    (a.modes.len(), worst)
}

#[test]
fn constrained_beam_matches_pencil_modes() {
    let m = EulerBernoulli::new(2.0, 3.0, 1.0, 16)
        .discretization(EbDiscretization::HerDg1)
        .ends(EndCondition::Clamped, EndCondition::Port)
        .imposition(Imposition::Multiplier)
        .build()
        .unwrap();
    let sys = m.system().clone();
    let (n, _) = compare(&sys, "cantilever, multiplier clamp");
    assert!(n >= 30, "all finite modes of the 16-element beam: {n}");
    let ode = null_space_ode(&sys, &NullSpaceParams::default()).unwrap();
    // the clamp port (prescribed velocities at the left end) acts on the constraint rows
    assert_eq!(ode.dropped_ports, vec!["left".to_string()]);
    assert_eq!(ode.constraint_rank, 2);
    // with damping at the free end: complex eigenvalues, R̂ = TᵀRT PSD
    let K = sparse::identity(2, 0.5);
    let damped = sys.with_output_feedback("right", &K).unwrap();
    compare(&damped, "cantilever, multiplier clamp, tip damping");
    let d = phlex_solve::eigen::modes(
        &null_space_ode(&damped, &NullSpaceParams::default())
            .unwrap()
            .system,
        &EigenParams::default(),
    )
    .unwrap();
    assert!(d
        .modes
        .iter()
        .all(|m| m.lambda.re < 0.0 && m.damping_ratio > 0.0));
}

#[test]
fn four_bar_linearisation_matches_pencil_modes() {
    for deg in [30.0f64, 120.0] {
        let mb = four_bar(deg.to_radians(), 2);
        let init = consistent(&mb);
        let lin = ph_linearization(&mb, &init.state, &[]).unwrap();
        assert!(
            lin.neglected_coupling < 1e-12,
            "no gravity, no prestress: {}",
            lin.neglected_coupling
        );
        assert_eq!(sparse::max_abs(&lin.system.R), 0.0);
        lin.system.check(&Tolerances::default()).unwrap();
        compare(&lin.system, &format!("four-bar θ1 = {deg}°"));
        // the pHDAE (49) has the modes of the full linearisation (configuration included)
        let full = modes(&mb, &init.state, &[], &EigenParams::default()).unwrap();
        let ode = null_space_ode(&lin.system, &NullSpaceParams::default()).unwrap();
        let red = phlex_solve::eigen::modes(&ode.system, &EigenParams::default()).unwrap();
        assert_eq!(full.modes.len(), red.modes.len());
        for (a, b) in full.frequencies().iter().zip(red.frequencies()) {
            assert!((a - b).abs() < 1e-8 * a, "θ1 = {deg}: {a} vs {b}");
        }
        println!(
            "four-bar θ1 = {deg}°: ω1..3 = {:.4} {:.4} {:.4} rad/s ({} states -> {} null-space coordinates)",
            red.modes[0].omega,
            red.modes[1].omega,
            red.modes[2].omega,
            lin.system.n_states(),
            ode.n()
        );
    }
}

/// A rigid pendulum (mass m at distance L from a ground hinge):
/// * spinning (ω = 2 rad/s): not at rest, the pH linearisation refuses it (typed error);
/// * at rest under gravity: the pHDAE (49) omits the configuration, so it has no
///   oscillation (the pendulum's restoring force is geometric stiffness); the omitted
///   coupling is reported (> 0), while `modes` (full pencil) finds ω = sqrt(g/L).
#[test]
fn pendulum_limits_of_the_ph_linearisation() {
    let (m, l, g) = (1.5, 0.8, 9.81);
    let build = |omega: f64, gravity: f64| {
        let mut b = MultibodyBuilder::new();
        b.gravity([0.0, -gravity])
            .add_body(
                "bob",
                RigidBody2d::new(m, 0.0)
                    .com([l, 0.0])
                    .port("pivot", [0.0, 0.0])
                    .pose(Pose2d::new(0.0, 0.0, -std::f64::consts::FRAC_PI_2))
                    .twist(Twist2d::new(0.0, 0.0, omega)),
            )
            .add_joint("hinge", Joint::ground_revolute("bob", "pivot", "origin"));
        b.build().unwrap()
    };
    let consistent = |mb: &Multibody| common::consistent(mb).state;
    let spinning = build(2.0, 0.0);
    let x = consistent(&spinning);
    let err = ph_linearization(&spinning, &x, &[]).unwrap_err();
    assert!(err.to_string().contains("not at rest"), "{err}");
    let hanging = build(0.0, g);
    let x = consistent(&hanging);
    let lin = ph_linearization(&hanging, &x, &[]).unwrap();
    println!(
        "hanging pendulum: neglected coupling {:.3e}",
        lin.neglected_coupling
    );
    assert!(lin.neglected_coupling > 1e-3);
    let ode = null_space_ode(&lin.system, &NullSpaceParams::default()).unwrap();
    assert!(
        phlex_solve::eigen::modes(&ode.system, &EigenParams::default())
            .unwrap()
            .modes
            .is_empty()
    );
    let full = modes(&hanging, &x, &[], &EigenParams::default()).unwrap();
    let w = (g / l).sqrt();
    assert!(
        (full.modes[0].omega - w).abs() < 1e-6 * w,
        "{}",
        full.modes[0].omega
    );
}
