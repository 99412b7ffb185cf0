#![allow(non_snake_case)]
//! Null-space ODE of a small multiplier pHDAE (paper 000 eq. (51)) against its analytic
//! solution.
//!
//! Two masses m between two walls, three springs k (wall–1, 1–2, 2–wall), co-energy state
//! (v1, v2, f1, f2, f3) and one multiplier λ for the constraint v1 − v2 = 0. Constrained,
//! the two masses move as one body 2m held by the outer springs (2k): ω² = 2k / 2m = k/m;
//! the middle spring force is constant (a zero eigenvalue).
mod common;

use common::mass_spring_dae;
use faer::Side;
use phlex_core::sparse::{self, Triplets};
use phlex_core::{LinearPhSystem, Port};
use phlex_solve::eigen::{modes, EigenParams};
use phlex_solve::nullspace::{null_space_ode, NullSpaceParams};

const M: f64 = 2.0;
const K: f64 = 50.0;

fn two_masses(prescribed: bool) -> LinearPhSystem {
    let n = 6;
    let skew = [
        // (1/k) f1' = v1, (1/k) f2' = v2 − v1, (1/k) f3' = −v2
        (2, 0, 1.0),
        (3, 1, 1.0),
        (3, 0, -1.0),
        (4, 1, -1.0),
        // constraint row: 0 = −G x, G = (1, −1, 0, 0, 0); force G^T λ
        (5, 0, -1.0),
        (5, 1, 1.0),
    ];
    let mut b = Triplets::new(n, 2);
    b.push(0, 0, 1.0); // force on mass 1
    let mut ports = vec![Port::new(
        "force",
        1,
        "force on mass 1 [N]",
        "velocity of mass 1 [m/s]",
    )];
    if prescribed {
        b.push(5, 1, 1.0); // prescribed relative velocity
        ports.push(Port::new(
            "slip",
            1,
            "prescribed v1 - v2 [m/s]",
            "constraint force [N]",
        ));
    }
    let b = b.build();
    let b = if prescribed {
        b
    } else {
        sparse::select_cols(&b, &[0])
    };
    mass_spring_dae(&[M, M], &[K, K, K], &skew, b, ports)
}

/// ω = sqrt(k/m) to round-off; the reduced system is pH (Ê SPD, Ĵ skew exactly) with one
/// constraint eliminated, and the output map is preserved: B̂ᵀξ = Bᵀx for x = Tξ.
#[test]
fn two_masses_analytic_frequency() {
    let sys = two_masses(false);
    let ode = null_space_ode(&sys, &NullSpaceParams::default()).unwrap();
    assert_eq!(ode.constraint_rank, 1);
    assert_eq!(ode.n(), 4);
    assert!(ode.dropped_ports.is_empty());
    let w = modes(&ode.system, &EigenParams::default())
        .unwrap()
        .frequencies();
    assert_eq!(w.len(), 1, "{w:?}");
    let exact = (K / M).sqrt();
    assert!((w[0] - exact).abs() < 1e-13 * exact, "{} vs {exact}", w[0]);
    // pH structure
    let E = sparse::to_dense(&ode.system.E);
    assert!(E.llt(Side::Lower).is_ok(), "Ê must be SPD");
    let J = sparse::to_dense(&ode.system.J);
    for a in 0..4 {
        for c in 0..4 {
            assert_eq!(J[(a, c)], -J[(c, a)]);
            assert_eq!(E[(a, c)], E[(c, a)]);
        }
    }
    assert_eq!(sparse::max_abs(&ode.system.R), 0.0);
    // Tξ satisfies the constraint and carries the same output
    let xi = [0.3, -1.2, 0.7, 2.0];
    let x = ode.lift(&xi);
    assert!((x[0] - x[1]).abs() < 1e-15);
    let y_full = sys.output(&x);
    let y_red = ode.system.output(&xi);
    assert!((y_full[0] - y_red[0]).abs() < 1e-15);
    // and the Hamiltonian
    assert!((sys.hamiltonian(&x) - ode.system.hamiltonian(&xi)).abs() < 1e-14);
    let back = ode.restrict(&x);
    for (a, b) in back.iter().zip(&xi) {
        assert!((a - b).abs() < 1e-15);
    }
}

/// A port acting on the constraint row (prescribed slip) is dropped and named.
#[test]
fn prescribed_constraint_port_is_dropped() {
    let ode = null_space_ode(&two_masses(true), &NullSpaceParams::default()).unwrap();
    assert_eq!(ode.dropped_ports, vec!["slip".to_string()]);
    assert_eq!(ode.system.ports.names(), vec!["force".to_string()]);
}

/// An algebraic block with an entry in E is not a multiplier: typed error naming it.
#[test]
fn non_multiplier_block_is_rejected() {
    let mut sys = two_masses(false);
    let mut e = Triplets::new(6, 6);
    e.push_block(0, 0, &sys.E, 1.0);
    e.push(5, 5, 1.0);
    sys.E = e.build();
    let err = null_space_ode(&sys, &NullSpaceParams::default()).unwrap_err();
    assert!(err.to_string().contains("'lambda'"), "{err}");
    let err = null_space_ode(&two_masses(false), &NullSpaceParams { rank_tol: 0.0 }).unwrap_err();
    assert!(err.to_string().contains("rank_tol"), "{err}");
}
