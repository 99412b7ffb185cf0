//! The drive and slider of the crank–slider of paper 000 §6.3 (the rigid crank enters as
//! the prescribed velocity of the coupler end P, the slider as a point of the coupler on the
//! inertial X axis), and a mechanism with a stiffened coupler (Remark 3) with random states
//! for the Jacobian and pH-identity checks.
use phlex_mbs::body::FloatingBody;
use phlex_mbs::*;
use phlex_solve::Signal;
use rand::rngs::StdRng;
use rand::Rng;

/// Joints `"crank"` (port P of `body` driven with the crank-tip velocity
/// $v\,(-\sin\omega t, \cos\omega t)$, `tip_speed` $= \omega L_{cr}$) and `"slider"` (port C
/// of `body` on the inertial X axis).
pub fn crank_and_slider(b: &mut MultibodyBuilder, body: &str, tip_speed: f64, omega: f64) {
    b.add_joint(
        "crank",
        Joint::new(
            body,
            "P",
            GROUND,
            "origin",
            JointKind::PrescribedVelocity {
                vx: Signal::expr(&format!("-{tip_speed} * sin({omega} * t)")).unwrap(),
                vy: Signal::expr(&format!("{tip_speed} * cos({omega} * t)")).unwrap(),
                omega: None,
            },
        ),
    )
    .add_joint(
        "slider",
        Joint::new(
            body,
            "C",
            GROUND,
            "origin",
            JointKind::Slider {
                direction: [1.0, 0.0],
            },
        ),
    );
}

/// Options of [`coupler_mechanism`].
pub struct Coupler {
    /// Gravity \[m/s²\].
    pub gravity: [f64; 2],
    /// Geometric stiffening of the coupler.
    pub stiffening: bool,
    /// Deformation-dependent inertia of the coupler.
    pub full_inertia: bool,
    /// Rotary inertia of the slider mass lumped at C \[kg m²\].
    pub rotary_inertia_c: f64,
}

/// A crank–slider-like mechanism with a flexible coupler: a beam driven at P, sliding at
/// C, hinged to a rigid arm at a midpoint port (every joint kind that touches a flexible
/// port), plus an inertial load; redundancy check off.
pub fn coupler_mechanism(o: &Coupler) -> Multibody {
    let mut b = MultibodyBuilder::new();
    b.gravity(o.gravity)
        .add_body(
            "coupler",
            FloatingBeam2d::new(0.3, 0.22, 5.6e6, 12.7, 3)
                .bc(DeformationBc::SimplySupported)
                .geometric_stiffening(o.stiffening)
                .full_inertia(o.full_inertia)
                .port("mid", 0.15)
                .lumped_mass("C", 0.033, o.rotary_inertia_c)
                .pose(Pose2d::new(0.15, 0.0, 0.1)),
        )
        .add_body(
            "arm",
            RigidBody2d::new(0.05, 1e-4)
                .com([0.05, 0.0])
                .pose(Pose2d::new(0.3, 0.0, 1.0)),
        );
    crank_and_slider(&mut b, "coupler", 22.5, 150.0);
    b.add_joint("pin", Joint::revolute("coupler", "mid", "arm", "P"))
        .add_load(
            "push",
            Load::new("coupler", "mid", Frame::Inertial).signals(
                Signal::Constant(1.0),
                Signal::Constant(-3.0),
                Signal::Constant(0.2),
            ),
        )
        .check_redundancy(false);
    b.build().unwrap()
}

/// Random state: elastic displacements ~1e-2 (so that w' and the stiffening terms are not
/// small), rigid and elastic velocities ~1, stresses ~100 N, multipliers ~10.
pub fn random_state(mb: &Multibody, rng: &mut StdRng) -> Vec<f64> {
    let mut x = mb.initial_state();
    for (b, body) in mb.bodies().iter().enumerate() {
        let r = mb.body_range(b);
        let (nf, nq) = (body.n_elastic(), body.n_q());
        let xl = &mut x[r];
        xl[2] += rng.gen_range(-1.0..1.0);
        for v in &mut xl[3..3 + nf] {
            *v = 1e-2 * rng.gen_range(-1.0..1.0);
        }
        for v in &mut xl[nq..nq + 3 + nf] {
            *v = rng.gen_range(-1.0..1.0);
        }
        for v in &mut xl[nq + 3 + nf..] {
            *v = 100.0 * rng.gen_range(-1.0..1.0);
        }
    }
    for j in 0..mb.joint_names().len() {
        for i in mb.multiplier_range(j) {
            x[i] = 10.0 * rng.gen_range(-1.0..1.0);
        }
    }
    x
}
