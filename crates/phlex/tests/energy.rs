//! Energy statements of issue 2 §6 on a PFEM beam (not a hand-built toy):
//! lossless free vibration over 10⁴ midpoint steps conserves H to 1e-10 relative, and a
//! port-driven run satisfies the discrete power balance to 1e-10 relative.
use phlex_fem::models::beam::euler_bernoulli::{EbDiscretization, EulerBernoulli};
use phlex_fem::{EndCondition, Field};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::signal::{InputFn, Signal};

const RHO_A: f64 = 5600.0 * 5.0e-5;
const EI: f64 = 136.0e9 * 4.16e-12;

#[test]
fn lossless_beam_conserves_energy_over_ten_thousand_midpoint_steps() {
    let model = EulerBernoulli::new(RHO_A, EI, 1.0, 16)
        .discretization(EbDiscretization::HerDg1)
        .ends(EndCondition::Clamped, EndCondition::Free)
        .build()
        .unwrap();
    let sys = model.system();
    // A non-modal initial state that excites every mode: velocity x², moment (1 − x).
    let mut e0 = model.project(Field::Velocity, &|x| x * x).unwrap();
    let m = model.project(Field::Moment, &|x| 1.0 - x).unwrap();
    e0.iter_mut().zip(m).for_each(|(a, b)| *a += b);
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end: 1.0,
            h: 1e-4,
            output_every: 10,
        },
        ..Default::default()
    };
    let res = LinearMidpoint::new(sys, InputFn::zeros(sys.n_inputs()), params)
        .unwrap()
        .run(&e0, &mut |_t: f64, _e: &[f64]| {})
        .unwrap();
    assert_eq!(res.stats.steps, 10_000);
    let h0 = res.ledger.hamiltonian[0];
    let worst = res
        .ledger
        .hamiltonian
        .iter()
        .fold(0.0f64, |w, h| w.max((h - h0).abs() / h0));
    // Round-off per step is ~1e-16 relative; a random walk over 1e4 steps stays ≪ 1e-10.
    assert!(worst < 1e-10, "relative energy drift {worst:e}");
}

#[test]
fn port_driven_beam_satisfies_the_discrete_power_balance() {
    let model = EulerBernoulli::new(RHO_A, EI, 1.0, 16)
        .discretization(EbDiscretization::HerDg1)
        .ends(EndCondition::Clamped, EndCondition::Port)
        .build()
        .unwrap();
    let sys = model.system();
    let mut input = InputFn::zeros(sys.n_inputs());
    let r = sys.ports.range("right").unwrap();
    input.set(r.start, Signal::expr("0.3*sin(20*t)").unwrap());
    input.set(
        r.start + 1,
        Signal::Step {
            t0: 0.0123,
            before: 0.0,
            after: 0.05,
        },
    );
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end: 1.0,
            h: 1e-4,
            output_every: 1,
        },
        ..Default::default()
    };
    let res = LinearMidpoint::new(sys, input, params)
        .unwrap()
        .run(&vec![0.0; sys.n_states()], &mut |_t: f64, _e: &[f64]| {})
        .unwrap();
    let supplied: f64 = res.ledger.supplied.last().unwrap().iter().sum();
    assert!(
        supplied.abs() > 1e-6,
        "the ports must do work ({supplied:e})"
    );
    // ΔH = h ȳᵀū exactly for the midpoint rule; the residual is linear-solve round-off.
    let rel = res.ledger.max_relative_residual();
    assert!(rel < 1e-10, "power-balance residual {rel:e}");
    assert!(res.ledger.relative_drift() < 1e-10);
}
