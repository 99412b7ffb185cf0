use phlex_core::QuasiLinearPhDae;
use phlex_mbs::*;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{MidpointParams, MidpointVariant, QuasiLinearMidpoint};
use phlex_solve::newton::NewtonParams;

#[test]
fn pendulum_smoke() {
    let mut b = MultibodyBuilder::new();
    b.gravity([0.0, -9.81])
        .add_body(
            "bob",
            RigidBody2d::new(1.0, 0.0)
                .com([1.0, 0.0])
                .port("pivot", [0.0, 0.0]),
        )
        .add_joint("hinge", Joint::ground_revolute("bob", "pivot", "origin"));
    let mb = b.build().unwrap();
    let x0 = mb.initial_state();
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end: 2.0,
            h: 1e-3,
            output_every: 100,
        },
        newton: NewtonParams {
            rtol: 1e-12,
            atol: 1e-12,
            modified: false,
            ..Default::default()
        },
        variant: MidpointVariant::DiscreteGradient,
    };
    let mut integ = MultibodyMidpoint::new(&mb, mb.input(), params).unwrap();
    let res = integ
        .run(&x0, &mut |t: f64, x: &[f64]| {
            println!(
                "t={t:.3} theta={:.6} H={:.3e} drift={:.2e}",
                x[2],
                mb.hamiltonian(x),
                mb.max_position_drift(x)
            );
        })
        .unwrap();
    println!(
        "{:?} maxres {} drift {}",
        res.result.stats, res.max_step_residual, res.max_drift
    );
    println!("drift {}", res.result.ledger.relative_drift());
}

#[test]
fn pendulum_debug() {
    use phlex_core::sparse;
    let mut b = MultibodyBuilder::new();
    b.gravity([0.0, -9.81])
        .add_body(
            "bob",
            RigidBody2d::new(1.0, 0.0)
                .com([1.0, 0.0])
                .port("pivot", [0.0, 0.0]),
        )
        .add_joint("hinge", Joint::ground_revolute("bob", "pivot", "origin"));
    let mb = b.build().unwrap();
    let x0 = mb.initial_state();
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end: 1.184,
            h: 1e-3,
            output_every: 1,
        },
        newton: NewtonParams {
            rtol: 1e-12,
            atol: 1e-12,
            ..Default::default()
        },
        variant: MidpointVariant::Midpoint,
    };
    let mut integ = QuasiLinearMidpoint::new(&mb, mb.input(), params).unwrap();
    let res = integ.run(&x0, &mut |_t: f64, _x: &[f64]| {}).unwrap();
    let x = res.state.clone();
    println!("state {:?}", x);
    let n = mb.n();
    let h = 1e-3;
    let resid = |xm: &[f64]| -> Vec<f64> {
        let mut z = vec![0.0; n];
        mb.effort(xm, &mut z);
        let mut r = vec![0.0; n];
        let d: Vec<f64> = xm.iter().zip(&x).map(|(a, b)| a - b).collect();
        sparse::mul_add(&mut r, 1.0, &mb.descriptor(xm), &d);
        sparse::mul_add(&mut r, -0.5 * h, &mb.structure(xm), &z);
        r
    };
    let mut xm = x.clone();
    for it in 0..6 {
        let r = resid(&xm);
        let mut z = vec![0.0; n];
        mb.effort(&xm, &mut z);
        let jac = sparse::add(
            1.0,
            &mb.descriptor(&xm),
            -0.5 * h,
            &sparse::matmul(&mb.structure(&xm), &mb.effort_jacobian(&xm)),
        );
        let jd = sparse::to_dense(&jac);
        println!("it {it} res {:?}", r);
        println!("{:?}", jd);
        let lu = jd.partial_piv_lu();
        use faer::linalg::solvers::Solve;
        let mut rhs = faer::Mat::<f64>::zeros(n, 1);
        for i in 0..n {
            rhs[(i, 0)] = -r[i];
        }
        let dx = lu.solve(&rhs);
        for i in 0..n {
            xm[i] += dx[(i, 0)];
        }
        println!("dx {:?}", (0..n).map(|i| dx[(i, 0)]).collect::<Vec<_>>());
    }
}

#[test]
fn pendulum_debug2() {
    use phlex_core::sparse;
    let mut b = MultibodyBuilder::new();
    b.gravity([0.0, -9.81])
        .add_body(
            "bob",
            RigidBody2d::new(1.0, 0.0)
                .com([1.0, 0.0])
                .port("pivot", [0.0, 0.0]),
        )
        .add_joint("hinge", Joint::ground_revolute("bob", "pivot", "origin"));
    let mb = b.build().unwrap();
    let x0 = mb.initial_state();
    let n = mb.n();
    let h = 1e-3;
    let mut x = x0.clone();
    let mut xprev = x0.clone();
    for step in 0..1190 {
        let resid = |xm: &[f64]| -> Vec<f64> {
            let mut z = vec![0.0; n];
            mb.effort(xm, &mut z);
            let mut r = vec![0.0; n];
            let d: Vec<f64> = xm.iter().zip(&x).map(|(a, b)| a - b).collect();
            sparse::mul_add(&mut r, 1.0, &mb.descriptor(xm), &d);
            sparse::mul_add(&mut r, -0.5 * h, &mb.structure(xm), &z);
            r
        };
        let mut xm: Vec<f64> = (0..n)
            .map(|i| {
                if i >= 6 {
                    x[i]
                } else {
                    x[i] + 0.5 * (x[i] - xprev[i])
                }
            })
            .collect();
        if step == 0 {
            xm = x.clone();
        }
        let mut norms = vec![];
        for _it in 0..6 {
            let r = resid(&xm);
            let jac = sparse::add(
                1.0,
                &mb.descriptor(&xm),
                -0.5 * h,
                &sparse::matmul(&mb.structure(&xm), &mb.effort_jacobian(&xm)),
            );
            let jd = sparse::to_dense(&jac);
            let lu = jd.partial_piv_lu();
            use faer::linalg::solvers::Solve;
            let mut rhs = faer::Mat::<f64>::zeros(n, 1);
            for i in 0..n {
                rhs[(i, 0)] = -r[i];
            }
            let dx = lu.solve(&rhs);
            let mut nm = 0.0f64;
            let mut arg = 0;
            for i in 0..n {
                xm[i] += dx[(i, 0)];
                let w = dx[(i, 0)].abs() / (1e-12 + 1e-12 * xm[i].abs());
                if w > nm {
                    nm = w;
                    arg = i;
                }
            }
            norms.push((nm, arg));
            if step == 1184 {
                println!("dx {:?}", (0..n).map(|i| dx[(i, 0)]).collect::<Vec<_>>());
            }
        }
        if step > 1175 {
            println!("step {step} {:?}", norms);
        }
        xprev = x.clone();
        for i in 0..n {
            x[i] = if i >= 6 {
                xm[i]
            } else {
                2.0 * xm[i] - xprev[i]
            };
        }
    }
}
