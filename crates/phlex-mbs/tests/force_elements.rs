//! Spring-dampers as pH components ([`phlex_mbs::SpringDamper`]), planar and spatial,
//! against closed-form solutions and the energy balance:
//! * a mass on a spring to the ground oscillates along the line of action as
//!   $x(t) = L_0 + \delta\cos\omega t$, $\omega = \sqrt{k/m}$; with a damper
//!   ($d = 2\zeta\sqrt{km}$) as $L_0 + \delta e^{-\zeta\omega t}(\cos\omega_d t +
//!   \tfrac{\zeta}{\sqrt{1-\zeta^2}}\sin\omega_d t)$, $\omega_d = \omega\sqrt{1-\zeta^2}$;
//! * the midpoint rule keeps $H(t_N) - H(0) + D = 0$ (dissipated energy $D$) to the Newton
//!   tolerance, and conserves $H$ of an undamped elastic spherical pendulum.
//!
//! Tolerances: the midpoint rule's phase error after time $t$ is $\omega^3h^2t/24$; with
//! $\omega h = 10^{-3}$ over one period it is $2.6\cdot10^{-7}$ rad, i.e. $2.6\cdot10^{-7}\delta$
//! in position: asserted at $10^{-6}\delta$.
mod common;

use phlex_core::PhSystem;
use phlex_mbs::spatial::MultibodyBuilder3d;
use phlex_mbs::*;
use phlex_solve::midpoint::MidpointVariant;
use phlex_solve::Midpoint;

const M: f64 = 1.0;
const K: f64 = 100.0;
const L0: f64 = 1.0;
const DELTA: f64 = 0.1;

fn omega() -> f64 {
    (K / M).sqrt()
}

/// $x(t) - L_0$ of the damped oscillator released at rest from $\delta$.
fn exact(t: f64, zeta: f64) -> f64 {
    let w = omega();
    let wd = w * (1.0 - zeta * zeta).sqrt();
    DELTA
        * (-zeta * w * t).exp()
        * ((wd * t).cos() + zeta / (1.0 - zeta * zeta).sqrt() * (wd * t).sin())
}

fn damping(zeta: f64) -> f64 {
    2.0 * zeta * (K * M).sqrt()
}

/// Runs the midpoint rule for one damped period with $\omega h = 10^{-3}$; `along(x)` is the
/// coordinate along the line of action. Returns (max position error, energy residual,
/// dissipated energy, H(0)).
fn run<S: PhSystem>(
    sys: &S,
    x0: &[f64],
    input: phlex_solve::InputFn,
    zeta: f64,
    along: impl Fn(&[f64]) -> f64,
) -> (f64, f64, f64, f64) {
    let w = omega();
    let t_end = 2.0 * std::f64::consts::PI / (w * (1.0 - zeta * zeta).sqrt());
    let h = 1e-3 / w;
    let params = common::params::midpoint(h, t_end, 10, (1e-13, 1e-13), MidpointVariant::Midpoint);
    let mut worst = 0.0f64;
    let mut integ = Midpoint::new(sys, input, params).unwrap();
    let run = integ
        .run(x0, &mut |t: f64, x: &[f64]| {
            worst = worst.max((along(x) - L0 - exact(t, zeta)).abs());
        })
        .unwrap();
    let l = &run.ledger;
    let h0 = l.hamiltonian[0];
    let d = *l.dissipated.last().unwrap();
    let res = l.hamiltonian.last().unwrap() - h0 + d;
    (worst, res, d, h0)
}

fn check(worst: f64, res: f64, d: f64, h0: f64, zeta: f64, label: &str) {
    println!("{label}: max |x − exact| = {worst:.3e} m, H(0) = {h0:.6e} J, dissipated {d:.6e} J, balance residual {res:.3e} J");
    assert!(
        (h0 - 0.5 * K * DELTA * DELTA).abs() < 1e-12,
        "{label}: H(0) = V(L0 + δ)"
    );
    assert!(worst < 1e-6 * DELTA, "{label}: {worst}");
    assert!(res.abs() < 1e-10 * h0, "{label}: energy balance {res}");
    if zeta > 0.0 {
        // one damped period: H(T)/H(0) = exp(−2ζωT)
        let w = omega();
        let t = 2.0 * std::f64::consts::PI / (w * (1.0 - zeta * zeta).sqrt());
        let expect = h0 * (1.0 - (-2.0 * zeta * w * t).exp());
        assert!(
            (d - expect).abs() < 1e-5 * h0,
            "{label}: dissipated {d} vs {expect}"
        );
    } else {
        assert!(d == 0.0);
    }
}

fn planar(zeta: f64) -> Multibody {
    let mut b = MultibodyBuilder::new();
    b.add_body(
        "mass",
        RigidBody2d::new(M, 0.01).pose(Pose2d::new(L0 + DELTA, 0.0, 0.0)),
    )
    .add_force(
        "spring",
        SpringDamper::new("mass", "P", GROUND, "origin")
            .stiffness(K)
            .damping(damping(zeta))
            .rest_length(L0),
    );
    b.build().unwrap()
}

#[test]
fn planar_mass_on_spring_damper_matches_the_closed_form() {
    for zeta in [0.0, 0.1] {
        let mb = planar(zeta);
        let x0 = mb.initial_state();
        assert_eq!(x0[mb.force_elements().state_index(0)], L0 + DELTA);
        let (w, r, d, h0) = run(&mb, &x0, mb.input(), zeta, |x| mb.pose(0, x).x);
        check(w, r, d, h0, zeta, &format!("planar ζ = {zeta}"));
    }
}

/// The line of action $(1, 2, 2)/3$, oblique to every axis.
const DIR: [f64; 3] = [1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0];

fn spatial(zeta: f64, gravity: [f64; 3], k: f64) -> phlex_mbs::spatial::Multibody3d {
    let mut b = MultibodyBuilder3d::new();
    b.gravity(gravity)
        .add_body(
            "mass",
            RigidBody3d::new(M, [0.01, 0.02, 0.03]).position(DIR.map(|c| c * (L0 + DELTA))),
        )
        .add_force(
            "spring",
            SpringDamper::new("mass", "P", GROUND, "origin")
                .stiffness(k)
                .damping(damping(zeta))
                .rest_length(L0),
        );
    b.build().unwrap()
}

#[test]
fn spatial_mass_on_spring_damper_matches_the_closed_form() {
    for zeta in [0.0, 0.1] {
        let mb = spatial(zeta, [0.0; 3], K);
        let x0 = mb.initial_state();
        let along = |x: &[f64]| {
            let p = mb.port_position(0, 0, x);
            p[0] * DIR[0] + p[1] * DIR[1] + p[2] * DIR[2]
        };
        let (w, r, d, h0) = run(&mb, &x0, mb.input(), zeta, along);
        check(w, r, d, h0, zeta, &format!("spatial ζ = {zeta}"));
    }
}

/// An elastic spherical pendulum (spring to the origin, gravity, a sideways velocity): the
/// midpoint rule conserves $H$ (kinetic + gravity + spring energy, all quadratic or linear
/// in the states) to the Newton tolerance, and the length state follows the distance of the
/// points to $O(h^2)$.
#[test]
fn elastic_spherical_pendulum_conserves_energy() {
    let mut b = MultibodyBuilder3d::new();
    b.gravity([0.0, 0.0, -9.81])
        .add_body(
            "bob",
            RigidBody3d::new(M, [0.01, 0.02, 0.03])
                .com([0.05, 0.0, 0.0])
                .port("hook", [0.0, 0.0, 0.1])
                .position([0.6, 0.0, -0.9])
                .velocity([0.0, 1.2, 0.3])
                .angular_velocity([0.5, -0.2, 0.8]),
        )
        .add_force(
            "spring",
            SpringDamper::new("bob", "hook", GROUND, "origin")
                .stiffness(60.0)
                .rest_length(0.8)
                .preload(3.0),
        );
    let mb = b.build().unwrap();
    let x0 = mb.initial_state();
    let params =
        common::params::midpoint(1e-3, 3.0, 100, (1e-13, 1e-13), MidpointVariant::Midpoint);
    let mut drift = 0.0f64;
    let mut integ = Midpoint::new(&mb, mb.input(), params).unwrap();
    let run = integ
        .run(&x0, &mut |_t: f64, x: &[f64]| {
            drift = drift.max(mb.force_length_drift(x));
        })
        .unwrap();
    let hs = &run.ledger.hamiltonian;
    let scale = common::params::max_abs(hs);
    let dh = hs.iter().fold(0.0f64, |m, h| m.max((h - hs[0]).abs()));
    let states = mb.force_element_states(&x0);
    println!(
        "elastic pendulum: max |H − H(0)| = {dh:.3e} J (H up to {scale:.3e}), length drift {drift:.3e} m, initial tension {:.4} N",
        states[0].1.tension
    );
    assert!(dh < 1e-10 * scale);
    assert!(drift < 1e-5, "length state vs distance: {drift}");
    // tension at start: k (|r| − L0) + F0
    let r = mb.port_position(0, 1, &x0);
    let dist = (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]).sqrt();
    assert!((states[0].1.tension - (60.0 * (dist - 0.8) + 3.0)).abs() < 1e-12);
}

/// Bad parameters and names are rejected, naming the element.
#[test]
fn invalid_force_elements_are_rejected() {
    let build = |s: SpringDamper| {
        let mut b = MultibodyBuilder::new();
        b.add_body(
            "mass",
            RigidBody2d::new(1.0, 0.1).pose(Pose2d::new(1.0, 0.0, 0.0)),
        )
        .add_force("s1", s);
        b.build().map(|_| ()).unwrap_err().to_string()
    };
    let e = build(SpringDamper::new("mass", "P", GROUND, "origin").stiffness(-1.0));
    assert!(e.contains("s1") && e.contains("stiffness"), "{e}");
    let e = build(SpringDamper::new("mass", "P", GROUND, "origin").damping(f64::NAN));
    assert!(e.contains("s1") && e.contains("damping"), "{e}");
    let e = build(SpringDamper::new("mass", "Q", GROUND, "origin"));
    assert!(
        e.contains("s1") && e.contains("Q") && e.contains("P"),
        "{e}"
    );
    let e = build(SpringDamper::new("masss", "P", GROUND, "origin"));
    assert!(e.contains("s1") && e.contains("masss"), "{e}");
    let e = build(SpringDamper::new("mass", "P", GROUND, "nowhere"));
    assert!(e.contains("s1") && e.contains("nowhere"), "{e}");
    let mut b = MultibodyBuilder::new();
    b.add_body("mass", RigidBody2d::new(1.0, 0.1))
        .add_force("s0", SpringDamper::new("mass", "P", GROUND, "origin"));
    let e = b.build().unwrap_err().to_string();
    assert!(e.contains("s0") && e.contains("coincide"), "{e}");
}

/// Relative angle $\varphi(t) = \frac{\dot\varphi_0}{\omega_d} e^{-\zeta\omega t}\sin\omega_d t$
/// of a torsional oscillator released at $\varphi = 0$ with rate $\dot\varphi_0$.
fn torsion_exact(t: f64, rate0: f64, omega: f64, zeta: f64) -> f64 {
    let wd = omega * (1.0 - zeta * zeta).sqrt();
    rate0 / wd * (-zeta * omega * t).exp() * (wd * t).sin()
}

/// Runs the midpoint rule with $\omega h = 10^{-3}$ over one damped period and returns
/// (max |φ − exact|, energy residual H(T) − H(0) + D, D, H(0)).
fn run_torsion<S: PhSystem>(
    sys: &S,
    x0: &[f64],
    input: phlex_solve::InputFn,
    (omega, zeta, rate0): (f64, f64, f64),
    angle: impl Fn(&[f64]) -> f64,
) -> (f64, f64, f64, f64) {
    let t_end = 2.0 * std::f64::consts::PI / (omega * (1.0 - zeta * zeta).sqrt());
    let h = 1e-3 / omega;
    let params = common::params::midpoint(h, t_end, 10, (1e-13, 1e-13), MidpointVariant::Midpoint);
    let mut worst = 0.0f64;
    let mut integ = Midpoint::new(sys, input, params).unwrap();
    let run = integ
        .run(x0, &mut |t: f64, x: &[f64]| {
            worst = worst.max((angle(x) - torsion_exact(t, rate0, omega, zeta)).abs());
        })
        .unwrap();
    let l = &run.ledger;
    let h0 = l.hamiltonian[0];
    let d = *l.dissipated.last().unwrap();
    (worst, l.hamiltonian.last().unwrap() - h0 + d, d, h0)
}

/// Two free discs joined by a rotational spring-damper (no joints): the relative angle
/// $\varphi = \theta_A - \theta_B$ obeys $J\ddot\varphi + d\dot\varphi + k\varphi = 0$ with
/// $J = J_AJ_B/(J_A + J_B)$; the element's angle state equals $\theta_A - \theta_B$ exactly
/// (both integrate the same rate), the total angular momentum $J_A\omega_A + J_B\omega_B$
/// is conserved, and the energy balance holds to the Newton tolerance. Phase error as in
/// the translational case: $2.6\cdot10^{-7}$ of the amplitude, asserted at $10^{-6}$.
#[test]
fn planar_rotational_spring_damper_between_two_discs() {
    let (ja, jb, k): (f64, f64, f64) = (0.02, 0.06, 3.0);
    let j = ja * jb / (ja + jb);
    let omega = (k / j).sqrt();
    for zeta in [0.0, 0.1] {
        let d = 2.0 * zeta * (k * j).sqrt();
        let mut b = MultibodyBuilder::new();
        b.add_body(
            "a",
            RigidBody2d::new(1.0, ja)
                .pose(Pose2d::new(0.0, 0.0, 0.3))
                .twist(Twist2d::new(0.0, 0.0, 1.0)),
        )
        .add_body(
            "b",
            RigidBody2d::new(2.0, jb).pose(Pose2d::new(1.0, 0.0, -0.2)),
        )
        .add_force(
            "torsion",
            SpringDamper::rotational("a", "P", "b", "P", [0.0, 0.0, 1.0])
                .stiffness(k)
                .damping(d),
        );
        let mb = b.build().unwrap();
        let x0 = mb.initial_state();
        let s = mb.force_elements().state_index(0);
        assert!(mb.force_elements().is_rotational(0));
        let angle = |x: &[f64]| {
            let rel = mb.pose(0, x).theta - mb.pose(1, x).theta - 0.5;
            assert!((x[s] - rel).abs() < 1e-12, "angle state {} vs {rel}", x[s]);
            x[s]
        };
        let (w, r, dis, h0) = run_torsion(&mb, &x0, mb.input(), (omega, zeta, 1.0), angle);
        println!("two discs ζ = {zeta}: max |φ − exact| = {w:.3e} rad, balance {r:.3e} J, D = {dis:.6e} J");
        assert!((h0 - 0.5 * ja).abs() < 1e-14, "H(0) = ½ J_A ω²");
        assert!(w < 1e-6 / omega, "{w}");
        assert!(r.abs() < 1e-10 * h0, "{r}");
        if zeta > 0.0 {
            // The relative motion loses its energy ½ J φ̇0² (1 − e^{−2ζωT}) per damped
            // period; the motion of the centre of rotation keeps ½ (J_A ω0)²/(J_A + J_B).
            let t = 2.0 * std::f64::consts::PI / (omega * (1.0 - zeta * zeta).sqrt());
            let expect = 0.5 * j * (1.0 - (-2.0 * zeta * omega * t).exp());
            assert!((dis - expect).abs() < 1e-5 * h0, "D = {dis} vs {expect}");
        }
    }
}

/// A rigid body on a revolute joint to the ground about the oblique axis $n = (0, 3, 4)/5$
/// with a torsion spring about the same axis: $J_n\ddot\varphi + k\varphi = 0$ with
/// $J_n = n^\top I n$; the spring's angle state equals the joint's relative angle.
#[test]
fn spatial_torsion_spring_on_a_hinge() {
    let n = [0.0, 0.6, 0.8];
    let inertia = [0.01, 0.02, 0.03];
    let jn: f64 = (0..3).map(|i| inertia[i] * n[i] * n[i]).sum();
    let k: f64 = 2.0;
    let omega = (k / jn).sqrt();
    let mut b = MultibodyBuilder3d::new();
    b.add_body(
        "rotor",
        RigidBody3d::new(1.0, inertia).angular_velocity(n.map(|c| 0.7 * c)),
    )
    .add_joint(
        "hinge",
        Joint3d::new(
            "rotor",
            "P",
            GROUND,
            "origin",
            JointKind3d::Revolute {
                axis: n,
                frame: AxisFrame::Inertial,
            },
        ),
    )
    .add_force(
        "torsion",
        SpringDamper::rotational("rotor", "P", GROUND, "origin", n).stiffness(k),
    );
    let mb = b.build().unwrap();
    let x0 = mb.initial_state();
    let s = mb.force_elements().state_index(0);
    let (w, r, _, h0) = run_torsion(&mb, &x0, mb.input(), (omega, 0.0, 0.7), |x| x[s]);
    println!("spatial torsion spring: max |φ − exact| = {w:.3e} rad, balance {r:.3e} J");
    assert!((h0 - 0.5 * jn * 0.49).abs() < 1e-14);
    assert!(w < 1e-6 * 0.7 / omega, "{w}");
    assert!(r.abs() < 1e-10 * h0, "{r}");
}
