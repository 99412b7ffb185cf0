//! The spatial two-beam chain shared by the full-inertia and geometric-stiffening tests:
//! an inclined ground hinge, a spherical joint at a deformed port, loads in every direction
//! and gravity, a generic configuration for the exact-Jacobian and pH-identity checks.
use phlex_mbs::spatial::{Joint3d, Load3d, Multibody3d, MultibodyBuilder3d};
use phlex_mbs::*;
use phlex_solve::Signal;

/// One beam of the chain: L = 1.2 m, ρ = 2700, E = 7e8, G = 2.6e8, 30 × 20 mm section,
/// 3 elements, cantilever, port `mid` at 0.5 m.
pub fn beam(full: bool, stiff: bool) -> FloatingBeam3d {
    FloatingBeam3d::new(
        1.2,
        2700.0,
        7e8,
        2.6e8,
        Section3d::rectangular(0.03, 0.02),
        3,
    )
    .bc(DeformationBc::Cantilever)
    .port("mid", 0.5)
    .full_inertia(full)
    .geometric_stiffening(stiff)
}

/// Two beams (stiffened if `stiff`, full inertia if `full`): `a` hinged at the ground about
/// an inclined axis, `b` attached by a
/// spherical joint at its root to the tip of `a`, loads in all directions, gravity on.
pub fn two_beam_chain(full: bool, stiff: bool) -> Multibody3d {
    let c = |v: f64| Signal::Constant(v);
    let beam = |r| beam(full, stiff).rotation(r);
    let ra = phlex_core::geometry::so3::from_axis_angle([0.3, -0.2, 1.0], 0.4).unwrap();
    let rb = phlex_core::geometry::so3::from_axis_angle([1.0, 0.5, -0.3], 0.9).unwrap();
    let mut b = MultibodyBuilder3d::new();
    b.gravity([0.0, 0.0, -9.81])
        .add_ground_point("o", [0.0; 3])
        .add_body("a", beam(ra))
        .add_body(
            "b",
            beam(rb).position([1.2 * ra[0][0], 1.2 * ra[1][0], 1.2 * ra[2][0]]),
        )
        .add_joint(
            "hinge",
            Joint3d::ground_revolute("a", "P", "o", [0.2, 0.1, 1.0]),
        )
        .add_joint("ball", Joint3d::spherical("a", "C", "b", "P"))
        .add_load(
            "push",
            Load3d::new("a", "C", Frame::Inertial).force([c(0.7), c(-1.3), c(0.4)]),
        )
        .add_load(
            "twist",
            Load3d::new("b", "mid", Frame::Body)
                .force([c(-0.2), c(0.9), c(0.5)])
                .torque([c(0.3), c(0.1), c(-0.6)]),
        );
    b.build().unwrap()
}
