//! Consistent initialization of a multiplier pHDAE: a two-mass chain whose second mass is
//! driven at a prescribed velocity v(t) = sin(3t) through a Lagrange multiplier.
mod common;

use common::mass_spring_dae;
use phlex_core::sparse::Triplets;
use phlex_core::{LinearPhSystem, Port};
use phlex_solve::consistent::consistent_initial_state;
use phlex_solve::signal::{InputFn, Signal};

/// States (p1/m, p2/m, spring force f, λ): masses m1 = 1, m2 = 2, spring k = 4 between them;
/// the constraint row reads 0 = −v2 + u (v2 = u prescribed), λ enters the second mass.
fn chain() -> LinearPhSystem {
    let mut b = Triplets::new(4, 1);
    b.push(3, 0, 1.0);
    // m1 v1' = −f, m2 v2' = f + λ, f'/k = v2 − v1
    let skew = [(2, 0, 1.0), (1, 2, 1.0), (1, 3, 1.0)];
    let drive = Port::new("drive", 1, "prescribed velocity", "reaction");
    mass_spring_dae(&[1.0, 2.0], &[4.0], &skew, b.build(), vec![drive])
}

#[test]
fn projects_velocities_and_computes_the_multiplier_from_the_hidden_constraint() {
    let sys = chain();
    sys.check(&Default::default()).unwrap();
    let input = InputFn::new(vec![Signal::expr("sin(3*t) + 0.5").unwrap()]);
    let t0 = 0.2;
    let (v1, v2, f) = (0.3, -1.0, 0.7);
    let c = consistent_initial_state(&sys, &input, t0, &[v1, v2, f, 123.0]).unwrap();
    let u = (3.0 * t0).sin() + 0.5;
    // Velocity level: only v2 is constrained; the E-orthogonal projection changes only v2.
    assert!((c.state[1] - u).abs() < 1e-14);
    assert!((c.state[0] - v1).abs() < 1e-14 && (c.state[2] - f).abs() < 1e-14);
    assert!((c.residual_before - (u - v2).abs()).abs() < 1e-14);
    assert!(c.residual_after < 1e-14);
    // Hidden constraint: m2 v2' = f + λ must equal m2 u'(t0) = 2·3cos(3 t0).
    let lambda = 2.0 * 3.0 * (3.0 * t0).cos() - f;
    // u' by a one-sided difference of 1e-7: error ~ |u''|·dt/2 ≈ 5e-7.
    assert!(
        (c.state[3] - lambda).abs() < 1e-5,
        "{} vs {lambda}",
        c.state[3]
    );
}
