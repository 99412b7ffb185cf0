#![allow(non_snake_case)]
//! Double pendulum (two point masses on rigid massless links, hinged at the origin and to
//! each other) against an independent Lagrangian implementation in minimal coordinates,
//! both integrated with Radau IIA at tight tolerances (issue 3 §5).
//!
//! Lagrangian model (absolute angles θ1, θ2 from the X axis, written here from scratch):
//! T = ½(m1+m2)L1²θ̇1² + ½m2L2²θ̇2² + m2L1L2cos(θ1−θ2)θ̇1θ̇2,
//! V = (m1+m2)gL1 sinθ1 + m2gL2 sinθ2.
mod common;

use phlex_core::sparse::{self, SparseMat};
use phlex_core::{PhSystem, Triplets};
use phlex_solve::radau5::{OutputTimes, Radau5, Radau5Params};
use phlex_solve::ImplicitDae;

use common::double_pendulum::{planar_double_pendulum, G, L1, L2, M1, M2};

struct Lagrange {
    mass: SparseMat,
}

impl Lagrange {
    fn accel(&self, y: &[f64]) -> [f64; 2] {
        let (t1, t2, w1, w2) = (y[0], y[1], y[2], y[3]);
        let c = (t1 - t2).cos();
        let s = (t1 - t2).sin();
        let a = [
            [(M1 + M2) * L1 * L1, M2 * L1 * L2 * c],
            [M2 * L1 * L2 * c, M2 * L2 * L2],
        ];
        let b = [
            -M2 * L1 * L2 * s * w2 * w2 - (M1 + M2) * G * L1 * t1.cos(),
            M2 * L1 * L2 * s * w1 * w1 - M2 * G * L2 * t2.cos(),
        ];
        let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
        [
            (b[0] * a[1][1] - a[0][1] * b[1]) / det,
            (a[0][0] * b[1] - a[1][0] * b[0]) / det,
        ]
    }
}

impl ImplicitDae for Lagrange {
    fn dim(&self) -> usize {
        4
    }
    fn mass(&self) -> &SparseMat {
        &self.mass
    }
    fn rhs(&self, _t: f64, y: &[f64], f: &mut [f64]) {
        let a = self.accel(y);
        f[0] = y[2];
        f[1] = y[3];
        f[2] = a[0];
        f[3] = a[1];
    }
    fn jacobian(&self, t: f64, y: &[f64]) -> SparseMat {
        let mut tr = Triplets::new(4, 4);
        let mut f0 = [0.0; 4];
        self.rhs(t, y, &mut f0);
        for j in 0..4 {
            let h = 1e-7 * (1.0 + y[j].abs());
            let mut yp = y.to_vec();
            yp[j] += h;
            let mut f1 = [0.0; 4];
            self.rhs(t, &yp, &mut f1);
            for i in 0..4 {
                tr.push(i, j, (f1[i] - f0[i]) / h);
            }
        }
        tr.build()
    }
    fn variable_indices(&self) -> Vec<u8> {
        vec![0; 4]
    }
}

/// θ1(0) = 0, θ2(0) = 0.5 rad, at rest; compare the angles and angular velocities at
/// t = 2 s. Both solutions at rtol = atol = 1e-12 carry global errors ≈ 1e-11–1e-10 (chaotic
/// amplification over 2 s is moderate at this energy); agreement asserted to 1e-8.
#[test]
fn matches_lagrangian_minimal_coordinates() {
    let (t1, t2) = (0.0, 0.5);
    let mb = planar_double_pendulum(t1, t2, 0.0);
    let init = common::consistent(&mb);
    assert!(init.position_residual.1 < 1e-14);
    let x0 = init.state;
    let t_end = 2.0;
    let params = Radau5Params::with_tolerances(1e-12, 1e-12);
    let sol = common::params::radau_to(&mb, mb.input(), &x0, t_end, 1e-12);
    let x = &sol.y;
    let th1 = mb.pose(0, x).theta;
    let th2 = mb.pose(1, x).theta;
    let w1 = mb.twist(0, x).omega;
    let w2 = mb.twist(1, x).omega;

    let lag = Lagrange {
        mass: sparse::identity(4, 1.0),
    };
    let r = Radau5::new(params).unwrap();
    let ref_sol = r
        .integrate(
            &lag,
            0.0,
            &[t1, t2, 0.0, 0.0],
            t_end,
            OutputTimes::None,
            &mut |_t: f64, _y: &[f64]| {},
        )
        .unwrap();
    let y = &ref_sol.y;
    let err = [
        (th1 - y[0]).abs(),
        (th2 - y[1]).abs(),
        (w1 - y[2]).abs(),
        (w2 - y[3]).abs(),
    ];
    println!("pH/DAE: θ1 = {th1:.12}, θ2 = {th2:.12}, ω1 = {w1:.12}, ω2 = {w2:.12}");
    println!(
        "Lagrange: θ1 = {:.12}, θ2 = {:.12}, ω1 = {:.12}, ω2 = {:.12}",
        y[0], y[1], y[2], y[3]
    );
    println!(
        "differences {err:?}; steps pH {} / Lagrange {}",
        sol.stats.steps, ref_sol.stats.steps
    );
    for e in err {
        assert!(e < 1e-8, "{err:?}");
    }
    // energy conserved by both to the tolerance level
    let e0 = mb.hamiltonian(&x0);
    let e1 = mb.hamiltonian(x);
    println!("energy change {:.3e} J", e1 - e0);
    assert!((e1 - e0).abs() < 1e-8);
    // position drift of the velocity-level constraints stays at the tolerance level
    let drift = mb.max_position_drift(x);
    println!("max position drift {drift:.3e} m");
    assert!(drift < 1e-8);
}
