#![allow(non_snake_case)]
//! Planar floating beam (paper 000 §4.3): power balance under a tip force, cantilever
//! frequencies with the rigid part fixed against the fem crate, centrifugal load of the
//! gyroscopic operator, and a flexible pendulum under gravity.
mod common;

use common::params::discrete_gradient;
use phlex_mbs::body::FloatingBody;

/// Newton tolerances (rtol, atol): stresses are O(1–100) N with compliance h_el/EA ≈ 2e-6,
/// their round-off floor in a Newton increment is ≈ 1e-13 N, so the tolerances stay above it.
const NEWTON_TOL: (f64, f64) = (1e-12, 1e-11);
use phlex_core::sparse;
use phlex_core::PhSystem;
use phlex_fem::models::beam::bar::{Bar, BarDiscretization};
use phlex_fem::models::beam::euler_bernoulli::{EbDiscretization, EulerBernoulli};
use phlex_fem::EndCondition;
use phlex_mbs::*;
use phlex_solve::eigen::{self, EigenParams};
use phlex_solve::Midpoint;
use phlex_solve::Signal;

const L: f64 = 1.0;
const RHO_A: f64 = 2.0;
const EA: f64 = 1e5;
const EI: f64 = 50.0;

fn beam(n: usize) -> FloatingBeam2d {
    FloatingBeam2d::new(L, RHO_A, EA, EI, n).bc(DeformationBc::Cantilever)
}

/// A free floating beam (no joint) pushed at its tip C by an inertial force
/// F_y = 10 sin(20 t) N and by a body-frame force and torque (5 sin 7t N, 0, 0.5 sin 5t N m)
/// at C: the discrete power balance H₁ − H₀ = h ȳᵀu holds at every step to the Newton
/// tolerance. (Loads at C: a torque at the root P of a floating cantilever would drive the
/// frame through the small inertia of the root element, a violent motion that needs much
/// smaller steps.) The floating frame of a free cantilever-frame beam is the root tangent,
/// which takes part in every bending mode; with h = 1e-3 s its high-frequency wobble makes
/// the first Newton increment of some steps grow before converging, which the divergence
/// test of the Newton solver rejects; h = 2.5e-4 s keeps Newton in its quadratic regime.
#[test]
fn tip_force_power_balance() {
    let mut b = MultibodyBuilder::new();
    b.add_body("beam", beam(6))
        .add_load(
            "push",
            Load::new("beam", "C", Frame::Inertial).signals(
                Signal::Constant(0.0),
                Signal::expr("10*sin(20*t)").unwrap(),
                Signal::Constant(0.0),
            ),
        )
        .add_load(
            "pull",
            Load::new("beam", "C", Frame::Body).signals(
                Signal::expr("5*sin(7*t)").unwrap(),
                Signal::Constant(0.0),
                Signal::expr("0.5*sin(5*t)").unwrap(),
            ),
        );
    let mb = b.build().unwrap();
    let x0 = mb.initial_state();
    let mut h_max = 0.0f64;
    let mut integ =
        Midpoint::new(&mb, mb.input(), discrete_gradient(2.5e-4, 2.0, NEWTON_TOL)).unwrap();
    let run = integ
        .run(&x0, &mut |_t: f64, x: &[f64]| {
            h_max = h_max.max(mb.hamiltonian(x))
        })
        .unwrap();
    let supplied: f64 = run.ledger.supplied.last().unwrap().iter().sum();
    let h_end = *run.ledger.hamiltonian.last().unwrap();
    println!(
        "max |H1 − H0 − h y·u| = {:.3e} J (H up to {h_max:.3e} J); H(2 s) = {h_end:.6e} J, supplied work {supplied:.6e} J, ledger max relative residual {:.3e}",
        run.max_step_residual.unwrap(),
        run.ledger.max_relative_residual()
    );
    assert!(h_max > 1.0, "the loads must inject energy");
    assert!(run.max_step_residual.unwrap() < 1e-10 * h_max);
    assert!((h_end - supplied).abs() < 1e-9 * h_max);
    // the beam moved as a rigid body and deformed
    let e = mb.energies(&run.state);
    assert!(e[0].1.kinetic > 0.0 && e[0].1.deformation > 0.0);
}

/// With the frame at P welded to the ground the linearised floating beam is a clamped–free
/// beam: its constrained modes are the union of the HerDG1 Euler–Bernoulli and CG1×DG0 bar
/// cantilever modes of phlex-fem on the same mesh (same matrices, so agreement to the
/// eigen-solver accuracy, asserted 1e-8 relative).
#[test]
fn welded_beam_reproduces_fem_cantilever_frequencies() {
    let n = 6;
    let mut b = MultibodyBuilder::new();
    b.add_body("beam", beam(n))
        .add_joint("clamp", Joint::ground_weld("beam", "P", "origin"));
    let mb = b.build().unwrap();
    let x0 = mb.initial_state();
    let res = modes(&mb, &x0, &[], &EigenParams::default()).unwrap();
    let w: Vec<f64> = res.frequencies();
    let eb = EulerBernoulli::new(RHO_A, EI, L, n)
        .discretization(EbDiscretization::HerDg1)
        .ends(EndCondition::Clamped, EndCondition::Free)
        .build()
        .unwrap();
    let bar = Bar::new(RHO_A, EA, L, n)
        .discretization(BarDiscretization::CgDg(1))
        .ends(EndCondition::Clamped, EndCondition::Free)
        .build()
        .unwrap();
    let mut reference: Vec<f64> = eigen::modes(eb.system(), &EigenParams::default())
        .unwrap()
        .frequencies();
    reference.extend(
        eigen::modes(bar.system(), &EigenParams::default())
            .unwrap()
            .frequencies(),
    );
    reference.sort_by(|a, b| a.total_cmp(b));
    println!("floating beam: {:?}", &w[..8.min(w.len())]);
    println!("fem reference: {:?}", &reference[..8.min(reference.len())]);
    assert_eq!(w.len(), reference.len(), "{w:?} vs {reference:?}");
    for (a, r) in w.iter().zip(&reference) {
        assert!((a - r).abs() < 1e-8 * r, "{a} vs {r}");
    }
    // first bending frequency vs the continuum value 1.8751² √(EI/(ρA L⁴)) (discretization
    // error of 6 Hermite elements ≈ 1e-6 relative)
    let w1 = 1.875_104_068_711_961f64.powi(2) * (EI / (RHO_A * L.powi(4))).sqrt();
    println!("first bending: {:.9} vs continuum {w1:.9}", w[0]);
    assert!((w[0] - w1).abs() < 1e-5 * w1);
}

/// The flexible gyroscopic operator J[v_f, ω] at p = (0, 0, ω, 0, …) is the centrifugal
/// load. In static balance with the normal force, Dᵀn = J[v_fx, ω]ω, the CG1×DG0 normal
/// force equals the element average of the exact n(x) = ρAω²(L² − x²)/2 (a 1D property of
/// this pair); `Gyroscopic::PaperLiteral` (c = 2) doubles it.
#[test]
fn centrifugal_normal_force() {
    let n = 8;
    let omega = 3.0;
    for (g, factor) in [
        (Gyroscopic::Consistent, 1.0),
        (Gyroscopic::PaperLiteral, 2.0),
    ] {
        let body = beam(n).gyroscopic(g).build("b").unwrap();
        let mut x = body.initial_state();
        let o = body.n_q();
        x[o + 2] = omega;
        let J = sparse::to_dense(&body.structure(&x));
        let n_f = body.n_elastic();
        let (ivf, is, iw) = (o + 3, o + 3 + n_f, o + 2);
        // axial rows: the first n (free CG1) elastic coefficients; normal force: first n stresses
        let mut a = faer::Mat::<f64>::zeros(n, n);
        let mut rhs = faer::Mat::<f64>::zeros(n, 1);
        for i in 0..n {
            for j in 0..n {
                a[(i, j)] = J[(ivf + i, is + j)];
            }
            rhs[(i, 0)] = -J[(ivf + i, iw)] * omega;
        }
        use faer::linalg::solvers::Solve;
        let nx = a.partial_piv_lu().solve(&rhs);
        let h = L / n as f64;
        let mut worst = 0.0f64;
        for e in 0..n {
            let (xa, xb) = (e as f64 * h, (e + 1) as f64 * h);
            let avg = RHO_A * omega * omega * (0.5 * L * L - (xb.powi(3) - xa.powi(3)) / (6.0 * h));
            worst = worst.max((nx[(e, 0)] - factor * avg).abs() / (RHO_A * omega * omega * L * L));
        }
        println!("{g:?}: max |n_h − {factor}·avg(n)| / (ρAω²L²) = {worst:.3e}");
        assert!(worst < 1e-12);
    }
}

/// A flexible beam hinged at its end P and released horizontally under gravity (a flexible
/// pendulum): energy conserved to the Newton tolerance by the discrete gradient scheme
/// (gravity acts on the rigid and elastic coordinates, gyroscopic terms active), hinge drift
/// at round-off level, and the energy exchanged between kinetic, elastic and potential.
#[test]
fn flexible_pendulum_conserves_energy() {
    let mut b = MultibodyBuilder::new();
    b.gravity([0.0, -9.81])
        .add_body(
            "arm",
            FloatingBeam2d::new(L, RHO_A, EA, 20.0, 4).bc(DeformationBc::Cantilever),
        )
        .add_joint("hinge", Joint::ground_revolute("arm", "P", "origin"));
    let mb = b.build().unwrap();
    let x0 = mb.initial_state();
    let h0 = mb.hamiltonian(&x0);
    let scale = RHO_A * L * 9.81 * L;
    let mut dev = 0.0f64;
    let mut max_def = 0.0f64;
    let mut integ =
        Midpoint::new(&mb, mb.input(), discrete_gradient(5e-4, 1.5, NEWTON_TOL)).unwrap();
    let run = integ
        .run(&x0, &mut |_t: f64, x: &[f64]| {
            dev = dev.max((mb.hamiltonian(x) - h0).abs() / scale);
            max_def = max_def.max(mb.energies(x)[0].1.deformation);
        })
        .unwrap();
    let e = mb.energies(&run.state)[0].1;
    println!(
        "max |H − H0|/(ρA L g L) = {dev:.3e}, hinge drift {:.3e} m, final kinetic {:.4} J, potential {:.4} J, max strain energy {max_def:.3e} J",
        run.max_drift, e.kinetic, e.potential
    );
    assert!(dev < 1e-10);
    assert!(run.max_drift < 1e-10);
    assert!(e.kinetic > 1.0 && max_def > 1e-6);
}
