//! Midpoint and discrete-gradient (Gonzalez) schemes on a nonlinear pH system with a
//! non-quadratic Hamiltonian: the nonlinear spring / pendulum
//! H(q, p) = p²/(2m) + k(1 − cos q), E = I, J = [[0, 1], [−1, 0]], z = ∇H = (k sin q, p/m),
//! R = diag(0, d), B = (0, 1)ᵀ (a torque port).
#![allow(non_snake_case)]
mod common;
use common::*;
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{PhSystem, Port, PortSet, VarBlock};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, Midpoint, MidpointParams, MidpointVariant};
use phlex_solve::newton::NewtonParams;
use phlex_solve::InputFn;

struct Pendulum {
    m: f64,
    k: f64,
    d: f64,
    ports: PortSet,
    blocks: Vec<VarBlock>,
}

impl Pendulum {
    fn new(m: f64, k: f64, d: f64) -> Self {
        Self {
            m,
            k,
            d,
            ports: PortSet::from_ports(vec![Port::new(
                "torque",
                1,
                "torque [N m]",
                "angular velocity [rad/s]",
            )])
            .unwrap(),
            blocks: vec![
                VarBlock::differential("q", "angle [rad]", 1),
                VarBlock::differential("p", "angular momentum [kg m²/s]", 1),
            ],
        }
    }
}

impl PhSystem for Pendulum {
    fn n_states(&self) -> usize {
        2
    }
    fn ports(&self) -> &PortSet {
        &self.ports
    }
    fn blocks(&self) -> &[VarBlock] {
        &self.blocks
    }
    fn hamiltonian(&self, x: &[f64]) -> f64 {
        0.5 * x[1] * x[1] / self.m + self.k * (1.0 - x[0].cos())
    }
    fn effort(&self, x: &[f64], z: &mut [f64]) {
        z[0] = self.k * x[0].sin();
        z[1] = x[1] / self.m;
    }
    fn descriptor(&self, _x: &[f64]) -> SparseMat {
        sparse::identity(2, 1.0)
    }
    fn structure(&self, _x: &[f64]) -> SparseMat {
        let mut t = Triplets::new(2, 2);
        t.push(0, 1, 1.0);
        t.push(1, 0, -1.0);
        t.build()
    }
    fn dissipation(&self, _x: &[f64]) -> SparseMat {
        let mut t = Triplets::new(2, 2);
        t.push(1, 1, self.d);
        t.build()
    }
    fn input_map(&self, _x: &[f64]) -> SparseMat {
        let mut t = Triplets::new(2, 1);
        t.push(1, 0, 1.0);
        t.build()
    }
    fn is_constant(&self) -> bool {
        true
    }
    fn effort_jacobian(&self, x: &[f64]) -> SparseMat {
        let mut t = Triplets::new(2, 2);
        t.push(0, 0, self.k * x[0].cos());
        t.push(1, 1, 1.0 / self.m);
        t.build()
    }
}

/// Full Newton to 1e-15: the DG balance then holds to round-off. The per-step energy defect
/// of the DG scheme is 2 z̄ᵀF(x_m), i.e. of the size of the Newton tolerance, and it
/// accumulates over the steps (with rtol = atol = 1e-14 the 500-step drift measured 5.9e-13).
fn params(h: f64, t_end: f64, variant: MidpointVariant) -> MidpointParams {
    MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end,
            h,
            output_every: 1,
        },
        newton: NewtonParams {
            rtol: 1e-15,
            atol: 1e-15,
            modified: false,
            ..Default::default()
        },
        variant,
    }
}

/// Max relative energy error of a free large-amplitude swing (q0 = 2 rad, near the top).
fn energy_error(h: f64, variant: MidpointVariant) -> f64 {
    let pend = Pendulum::new(1.0, 1.0, 0.0);
    let x0 = [2.0, 0.0];
    let H0 = pend.hamiltonian(&x0);
    let mut worst = 0.0f64;
    let mut run = Midpoint::new(&pend, InputFn::zeros(1), params(h, 50.0, variant)).unwrap();
    let res = run
        .run(&x0, &mut |_t: f64, x: &[f64]| {
            worst = worst.max((pend.hamiltonian(x) - H0).abs() / H0);
        })
        .unwrap();
    assert!(res.stats.newton_iterations >= res.stats.steps);
    worst
}

#[test]
fn discrete_gradient_conserves_energy_midpoint_only_to_second_order() {
    let dg = energy_error(0.1, MidpointVariant::DiscreteGradient);
    // Newton converged to ~1e-15 per step, 500 steps: measured ≈ 7e-14.
    assert!(dg < 1e-12, "discrete gradient: {dg:.3e}");
    let mp1 = energy_error(0.1, MidpointVariant::Midpoint);
    let mp2 = energy_error(0.05, MidpointVariant::Midpoint);
    // The implicit midpoint rule has a bounded O(h²) energy error for this H (measured
    // ≈ 5.9e-4 at h = 0.1): far above the DG error, and quartered when h is halved.
    assert!(mp1 > 1e-4, "midpoint: {mp1:.3e}");
    let p = (mp1 / mp2).log2();
    assert!(
        (p - 2.0).abs() < 0.2,
        "midpoint energy-error order {p:.3} ({mp1:.3e}, {mp2:.3e})"
    );
    println!("energy error: DG {dg:.3e}, midpoint h=0.1 {mp1:.3e}, h=0.05 {mp2:.3e}");
}

/// Damped pendulum driven through its torque port across a switching time: the DG scheme
/// satisfies H₁ − H₀ = h ȳ ū − h z̄ᵀR z̄ to the Newton tolerance.
#[test]
fn discrete_gradient_power_balance_with_ports_and_damping() {
    let pend = Pendulum::new(2.0, 3.0, 0.4);
    let u = InputFn::new(vec![switched_force("0.8*cos(1.3*t)", 4.321, 1.0)]);
    let mut run = Midpoint::new(
        &pend,
        u,
        params(0.05, 20.0, MidpointVariant::DiscreteGradient),
    )
    .unwrap();
    let res = run.run(&[0.5, 0.0], &mut |_t: f64, _x: &[f64]| {}).unwrap();
    let l = &res.ledger;
    assert!(l.supplied.last().unwrap()[0].abs() > 0.1 && *l.dissipated.last().unwrap() > 0.1);
    // Newton tolerance 1e-15: residual per sample ~ |z|·1e-15; measured ≈ 3.3e-15.
    assert!(
        l.max_relative_residual() < 1e-12,
        "{:.3e}",
        l.max_relative_residual()
    );
    assert_eq!(res.stats.steps, 401);
    println!(
        "DG power balance residual {:.3e}",
        l.max_relative_residual()
    );
}

/// On a linear system the Newton midpoint (both variants) reproduces the linear fast path
/// (Crank–Nicolson with one factorization), including multipliers (midpoint values stored).
#[test]
fn newton_midpoint_reproduces_linear_crank_nicolson() {
    let sys = constrained_chain(4, 1.0, 10.0);
    let mut e0 = vec![0.0; 9];
    e0[0] = 1.0;
    e0[5] = -1.0;
    let step = FixedStepParams {
        t0: 0.0,
        t_end: 2.0,
        h: 0.02,
        output_every: 10,
    };
    let p = MidpointParams {
        step,
        newton: NewtonParams {
            rtol: 1e-13,
            atol: 1e-13,
            modified: true,
            ..Default::default()
        },
        variant: MidpointVariant::Midpoint,
    };
    let lin = LinearMidpoint::new(&sys, InputFn::zeros(0), p)
        .unwrap()
        .run(&e0, &mut |_t: f64, _x: &[f64]| {})
        .unwrap();
    for variant in [MidpointVariant::Midpoint, MidpointVariant::DiscreteGradient] {
        let q = Midpoint::new(&sys, InputFn::zeros(0), MidpointParams { variant, ..p })
            .unwrap()
            .run(&e0, &mut |_t: f64, _x: &[f64]| {})
            .unwrap();
        let d = rel_diff(&q.state, &lin.state);
        assert!(d < 1e-12, "{variant:?}: {d:.3e}");
        // Linear problem, exact Jacobian: one correction per step and one iteration that
        // confirms convergence.
        assert!(
            q.stats.newton_iterations <= 2 * q.stats.steps,
            "{variant:?}: {} iterations for {} steps",
            q.stats.newton_iterations,
            q.stats.steps
        );
    }
}
