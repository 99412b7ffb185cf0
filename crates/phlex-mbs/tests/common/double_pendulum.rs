//! The planar double pendulum of the tests: two point masses M1, M2 on rigid massless links
//! L1, L2, hinged at the origin and to each other, under gravity G (absolute angles θ1, θ2
//! from the X axis).
use phlex_mbs::*;

/// Gravity [m/s²].
pub const G: f64 = 9.81;
/// Mass of the first link [kg].
pub const M1: f64 = 1.0;
/// Mass of the second link [kg].
pub const M2: f64 = 0.5;
/// Length of the first link [m].
pub const L1: f64 = 1.0;
/// Length of the second link [m].
pub const L2: f64 = 0.7;

/// The double pendulum at rest at angles (θ1, θ2), each link with central rotary inertia
/// `j_c` (0 for point masses).
pub fn planar_double_pendulum(theta1: f64, theta2: f64, j_c: f64) -> Multibody {
    let p2 = [L1 * theta1.cos(), L1 * theta1.sin()];
    let mut b = MultibodyBuilder::new();
    b.gravity([0.0, -G])
        .add_body(
            "link1",
            RigidBody2d::new(M1, j_c)
                .com([L1, 0.0])
                .port("pivot", [0.0, 0.0])
                .port("tip", [L1, 0.0])
                .pose(Pose2d::new(0.0, 0.0, theta1)),
        )
        .add_body(
            "link2",
            RigidBody2d::new(M2, j_c)
                .com([L2, 0.0])
                .port("pivot", [0.0, 0.0])
                .pose(Pose2d::new(p2[0], p2[1], theta2)),
        )
        .add_joint(
            "shoulder",
            Joint::ground_revolute("link1", "pivot", "origin"),
        )
        .add_joint("elbow", Joint::revolute("link1", "tip", "link2", "pivot"));
    b.build().unwrap()
}
