#![allow(non_snake_case)]
//! Structure of the spatial multibody pHDAE (paper 000 eq. (46) in 3D) on a model using
//! every joint kind, an inertial and a body-frame load, at a generic state (not on the
//! constraint manifold, multipliers non-zero):
//! * $J(x)$ is skew-symmetric, $E$ symmetric, $E^\top z = \nabla H$;
//! * the exact Jacobian of $f = J(x)z(x) + B(x)u$ matches central differences;
//! * $f = Jz + Bu$ assembled matrix-free equals the product with the assembled matrices.
mod common;

use phlex_core::geometry::so3::from_axis_angle;
use phlex_core::sparse;
use phlex_core::PhSystem;
use phlex_mbs::spatial::{Joint3d, JointKind3d, Load3d, Multibody3d, MultibodyBuilder3d};
use phlex_mbs::{Frame, RigidBody3d, SpringDamper};
use phlex_solve::Signal;

fn body(m: f64, seed: f64) -> RigidBody3d {
    let mut b = RigidBody3d::new(m, [0.3 * m, 0.4 * m, 0.5 * m])
        .com([0.1 * seed, -0.2, 0.05])
        .port("a", [0.5, 0.1 * seed, 0.0])
        .port("b", [-0.3, 0.2, 0.4 * seed])
        .rotation(from_axis_angle([1.0, seed, -0.5], 0.3 * seed).unwrap())
        .position([seed, 0.5 * seed, -0.2])
        .velocity([0.1, -0.2 * seed, 0.3])
        .angular_velocity([0.5, 0.2 * seed, -0.7]);
    b.inertia[0][1] = 0.01 * m;
    b.inertia[1][0] = 0.01 * m;
    b
}

/// Every joint kind in one (over-constrained, hence redundancy check off) model.
fn mixed() -> Multibody3d {
    let mut b = MultibodyBuilder3d::new();
    b.gravity([0.2, -0.5, -9.81])
        .add_ground_point("g1", [0.3, -0.2, 0.1])
        .check_redundancy(false);
    for (k, name) in ["b1", "b2", "b3", "b4", "b5", "b6"].iter().enumerate() {
        b.add_body(*name, body(1.0 + 0.3 * k as f64, 0.4 + 0.3 * k as f64));
    }
    b.add_joint("sph", Joint3d::spherical("b1", "a", "b2", "b"))
        .add_joint(
            "rev",
            Joint3d::revolute("b2", "a", "b3", "b", [0.3, 1.0, 0.2]),
        )
        .add_joint(
            "pri",
            Joint3d::prismatic("b3", "a", "b4", "b", [1.0, -0.4, 0.7]),
        )
        .add_joint("weld", Joint3d::weld("b4", "a", "b5", "b"))
        .add_joint("gp", Joint3d::ground_point("b1", "b", "g1"))
        .add_joint("gf", Joint3d::ground_frame("b6", "a", "origin"))
        .add_joint(
            "grev",
            Joint3d::ground_revolute("b5", "a", "origin", [0.0, 0.3, 1.0]),
        )
        .add_joint(
            "gpri",
            Joint3d::ground_prismatic("b6", "b", "g1", [0.5, 0.5, -1.0]),
        )
        .add_joint(
            "drive",
            Joint3d::new(
                "b2",
                "P",
                "ground",
                "origin",
                JointKind3d::PrescribedVelocity {
                    velocity: [0.1, 0.2, -0.3].map(Signal::Constant),
                    angular_velocity: Some((
                        [0.4, 0.0, 0.1].map(Signal::Constant),
                        Frame::Inertial,
                    )),
                },
            ),
        )
        .add_joint(
            "drive_body",
            Joint3d::prescribed(
                "b3",
                "P",
                [0.0, 0.1, 0.0].map(Signal::Constant),
                Some(([0.2, 0.3, -0.1].map(Signal::Constant), Frame::Body)),
            ),
        )
        .add_load(
            "push",
            Load3d::new("b4", "a", Frame::Inertial)
                .force([1.0, -2.0, 0.5].map(Signal::Constant))
                .torque([0.3, 0.1, -0.4].map(Signal::Constant)),
        )
        .add_load(
            "twist",
            Load3d::new("b5", "b", Frame::Body)
                .force([0.5, 0.5, 0.0].map(Signal::Constant))
                .torque([0.0, 0.2, 0.1].map(Signal::Constant)),
        )
        .add_force(
            "spring",
            SpringDamper::new("b1", "a", "b3", "b")
                .stiffness(40.0)
                .damping(1.5)
                .rest_length(0.2)
                .preload(2.0),
        )
        .add_force(
            "anchor",
            SpringDamper::new("b4", "b", "ground", "g1")
                .stiffness(15.0)
                .damping(0.7),
        )
        .add_force(
            "torsion",
            SpringDamper::rotational("b4", "b", "ground", "g1", [0.3, -0.4, 0.866])
                .stiffness(5.0)
                .damping(0.4)
                .rest_angle(0.1),
        );
    b.build().unwrap()
}

fn generic_state(mb: &Multibody3d) -> Vec<f64> {
    let mut x = mb.initial_state();
    for (i, v) in x.iter_mut().enumerate() {
        *v += 0.05 * ((i as f64) * 0.77).sin();
    }
    x
}

/// Central differences with h = 1e-6 have truncation error h²|f'''|/6 ≈ 1e-12 and
/// round-off ≈ 1e-16|f|/h ≈ 1e-10 |f|; asserted at 1e-7 of the largest entry.
#[test]
fn exact_jacobian_matches_central_differences() {
    let mb = mixed();
    let x = generic_state(&mb);
    let u = mb.input().eval(0.0);
    let n = mb.n();
    let A = sparse::to_dense(&mb.rhs_jacobian(&x, &u));
    let rhs = |x: &[f64]| {
        let mut f = vec![0.0; n];
        mb.rhs(x, &u, &mut f);
        f
    };
    let label = format!("{} blocks", mb.blocks().len());
    let (worst, scale) = common::checks::check_jacobian(&A, &x, |_| 1e-6, rhs, 1e-7, &label);
    let worst = worst * scale;
    println!("n = {n}, max |J - fd| = {worst:.2e}, scale {scale:.2e}");
}

/// J skew to round-off, E constant symmetric, Eᵀz = ∇H (central differences, error
/// O(h²) ≈ 1e-10), f = J z + B u.
#[test]
fn skew_structure_gradient_and_matrix_free_rhs() {
    let mb = mixed();
    let x = generic_state(&mb);
    let n = mb.n();
    let J = sparse::to_dense(&mb.structure(&x));
    for i in 0..n {
        for j in 0..n {
            assert!((J[(i, j)] + J[(j, i)]).abs() < 1e-14, "J[{i},{j}]");
        }
    }
    let E = sparse::to_dense(&mb.descriptor(&x));
    let mut z = vec![0.0; n];
    mb.effort(&x, &mut z);
    for k in 0..n {
        let h = 1e-5;
        let mut xp = x.clone();
        xp[k] += h;
        let mut xm = x.clone();
        xm[k] -= h;
        let dh = (mb.hamiltonian(&xp) - mb.hamiltonian(&xm)) / (2.0 * h);
        let etz: f64 = (0..n).map(|i| E[(i, k)] * z[i]).sum();
        assert!(
            (dh - etz).abs() < 1e-8 * (1.0 + dh.abs()),
            "{k}: {dh} {etz}"
        );
        for j in 0..n {
            assert_eq!(E[(k, j)], E[(j, k)]);
        }
    }
    let u = mb.input().eval(0.3);
    let mut f = vec![0.0; n];
    mb.rhs(&x, &u, &mut f);
    let R = mb.dissipation(&x);
    let mut g = sparse::mul_vec(&mb.structure(&x), &z);
    sparse::mul_add(&mut g, -1.0, &R, &z);
    sparse::mul_add(&mut g, 1.0, &mb.input_map(&x), &u);
    for i in 0..n {
        assert!((f[i] - g[i]).abs() < 1e-12 * (1.0 + g[i].abs()), "{i}");
    }
    // R of the dampers: symmetric, positive semidefinite (zᵀRz > 0 at this state).
    let Rd = sparse::to_dense(&R);
    for i in 0..n {
        for j in 0..n {
            assert!((Rd[(i, j)] - Rd[(j, i)]).abs() < 1e-14);
        }
    }
    let zrz = sparse::bilinear(&z, &R, &z);
    assert!(zrz > 0.0, "{zrz}");
    // Power balance: zᵀ((J − R)z + Bu) = yᵀu − zᵀRz with y = Bᵀz.
    let y = mb.output(&x, &z);
    let zf: f64 = z.iter().zip(&f).map(|(a, b)| a * b).sum();
    let yu: f64 = y.iter().zip(&u).map(|(a, b)| a * b).sum();
    assert!(
        (zf - yu + zrz).abs() < 1e-11 * (1.0 + yu.abs() + zrz),
        "{zf} {yu} {zrz}"
    );
}

/// Names of the blocks: bodies, joint states and multipliers.
#[test]
fn blocks_and_ports_are_named() {
    let mb = mixed();
    let names: Vec<String> = mb.blocks().iter().map(|b| b.name.clone()).collect();
    for n in [
        "b1.R_v",
        "rev.theta",
        "pri.s",
        "grev.theta",
        "gpri.s",
        "drive.target",
        "weld.lambda",
        "gf.lambda",
    ] {
        assert!(names.iter().any(|b| b == n), "{n} missing in {names:?}");
    }
    assert_eq!(
        mb.ports().names(),
        vec!["push", "twist", "drive", "drive_body"]
    );
    assert_eq!(mb.ports().total_dim(), 24);
    assert_eq!(mb.n_constraints(), 3 + 5 + 5 + 6 + 3 + 6 + 5 + 5 + 6 + 6);
}

/// The same checks with a flexible spatial beam (`FloatingBeam3d`, which implements
/// `SpatialBody` independently) welded and hinged to rigid bodies: the assembly's coupling
/// terms through the beam's port maps (elastic velocities at the ports) are exact too.
#[test]
fn exact_jacobian_with_flexible_beam() {
    use phlex_mbs::body::floating_beam::spatial::FloatingBeam3d;
    use phlex_mbs::DeformationBc;
    let mut b = MultibodyBuilder3d::new();
    b.gravity([0.0, 0.3, -9.81])
        .add_body(
            "arm",
            FloatingBeam3d::circular(1.0, 2700.0, 7e10, 0.33, 0.02, 3)
                .bc(DeformationBc::Cantilever)
                .port("mid", 0.5)
                .rotation(from_axis_angle([0.2, 1.0, 0.1], 0.4).unwrap())
                .angular_velocity([0.3, -0.2, 1.0]),
        )
        .add_body("bob", body(0.5, 0.7))
        .add_joint("pivot", Joint3d::ground_point("arm", "P", "origin"))
        .add_joint(
            "tip",
            Joint3d::revolute("arm", "C", "bob", "a", [0.0, 1.0, 0.2]),
        )
        .add_load(
            "push",
            Load3d::new("arm", "mid", Frame::Inertial)
                .force([1.0, -2.0, 0.5].map(Signal::Constant))
                .torque([0.3, 0.1, -0.4].map(Signal::Constant)),
        )
        .add_force(
            "torsion",
            SpringDamper::rotational("arm", "mid", "bob", "a", [0.0, 1.0, 0.2])
                .stiffness(3.0)
                .damping(0.2),
        )
        .check_redundancy(false);
    let mb = b.build().unwrap();
    let x = generic_state(&mb);
    let u = mb.input().eval(0.0);
    let n = mb.n();
    let A = sparse::to_dense(&mb.rhs_jacobian(&x, &u));
    let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
    let mut worst = (0.0f64, 0, 0);
    for k in 0..n {
        let h = 1e-6 * (1.0 + x[k].abs());
        let mut xp = x.clone();
        xp[k] += h;
        mb.rhs(&xp, &u, &mut fp);
        xp[k] -= 2.0 * h;
        mb.rhs(&xp, &u, &mut fm);
        for i in 0..n {
            let d = (fp[i] - fm[i]) / (2.0 * h);
            let e = (d - A[(i, k)]).abs() / (1.0 + d.abs());
            if e > worst.0 {
                worst = (e, i, k);
            }
        }
    }
    println!(
        "n = {n}, worst relative |J - fd| = {:.2e} at ({}, {})",
        worst.0, worst.1, worst.2
    );
    assert!(worst.0 < 1e-5, "{worst:?}");
    let J = sparse::to_dense(&mb.structure(&x));
    for i in 0..n {
        for j in 0..n {
            assert!((J[(i, j)] + J[(j, i)]).abs() < 1e-12 * (1.0 + J[(i, j)].abs()));
        }
    }
}
