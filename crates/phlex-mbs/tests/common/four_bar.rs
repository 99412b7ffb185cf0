//! The four-bar mechanism of paper 000 §6.2 (Table 2): crank welded to the ground (locked),
//! coupler and follower hinged, lumped masses 0.042 kg at P of the coupler and follower,
//! cantilever deformation condition on every link.
use phlex_mbs::*;

/// Density \[kg/m³\].
pub const RHO: f64 = 2714.0;
/// Young's modulus \[Pa\].
pub const YOUNG: f64 = 7.1e10;
/// Distance between the ground hinges \[m\].
pub const L0: f64 = 0.254;
/// Lengths of crank, coupler, follower \[m\].
pub const LEN: [f64; 3] = [0.108, 0.2794, 0.2705];
/// Cross sections \[m²\].
pub const AREA: [f64; 3] = [1.0774e-4, 4.0645e-5, 4.0645e-5];
/// Bending stiffnesses \[N m²\].
pub const EI: [f64; 3] = [11.472, 0.616, 0.616];
/// Lumped masses at P of the coupler and follower \[kg\].
pub const M_LUMP: f64 = 0.042;

/// Link angles (φ1 = θ1, φ2, φ3) closing the loop (paper loop equations), by Newton from
/// the "elbow up" guess.
pub fn loop_angles(theta1: f64) -> [f64; 3] {
    let [l1, l2, l3] = LEN;
    let (mut a, mut b): (f64, f64) = (0.5, -1.5);
    for _ in 0..100 {
        let f1 = l1 * theta1.cos() + l2 * a.cos() + l3 * b.cos() - L0;
        let f2 = l1 * theta1.sin() + l2 * a.sin() + l3 * b.sin();
        let (j11, j12, j21, j22) = (-l2 * a.sin(), -l3 * b.sin(), l2 * a.cos(), l3 * b.cos());
        let det = j11 * j22 - j12 * j21;
        let da = -(f1 * j22 - j12 * f2) / det;
        let db = -(j11 * f2 - j21 * f1) / det;
        a += da;
        b += db;
        if da.abs() + db.abs() < 1e-15 {
            break;
        }
    }
    [theta1, a, b]
}

/// The locked four-bar at crank angle `theta1`, `n_el` elements per link.
pub fn four_bar(theta1: f64, n_el: usize) -> Multibody {
    let phi = loop_angles(theta1);
    let mut p = [0.0f64, 0.0];
    let mut b = MultibodyBuilder::new();
    b.add_ground_point("O3", [L0, 0.0]);
    let names = ["crank", "coupler", "follower"];
    for k in 0..3 {
        let mut beam =
            FloatingBeam2d::from_material(LEN[k], RHO, YOUNG, AREA[k], EI[k] / YOUNG, n_el)
                .bc(DeformationBc::Cantilever)
                .pose(Pose2d::new(p[0], p[1], phi[k]));
        if k > 0 {
            beam = beam.lumped_mass("P", M_LUMP, 0.0);
        }
        b.add_body(names[k], beam);
        p = [p[0] + LEN[k] * phi[k].cos(), p[1] + LEN[k] * phi[k].sin()];
    }
    b.add_joint("O1", Joint::ground_weld("crank", "P", "origin"))
        .add_joint("A", Joint::revolute("crank", "C", "coupler", "P"))
        .add_joint("B", Joint::revolute("coupler", "C", "follower", "P"))
        .add_joint("O3", Joint::ground_revolute("follower", "C", "O3"));
    b.build().unwrap()
}
