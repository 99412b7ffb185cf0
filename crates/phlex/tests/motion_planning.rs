//! Euler–Bernoulli motion planning (thesis 004 §8.2.1, summary §5.4): the free end of a
//! beam driven by velocity controls at x = 1 must follow w(0, t) = sin ωt, ω = 4, with 6
//! elements over 1 s, for the DAEs (free-end multipliers on DG1Her as in the thesis, and
//! controlled-end multipliers on HerDG1) and the ODE (virtual domain decomposition), each
//! with Radau5 and the midpoint rule.
//!
//! Tolerance: the validation plan asks for a free-end displacement error below 1 % of the
//! amplitude (1 m). Measured: 1.2e-4 (DAE, free-end multipliers), 5.5e-5 (DAE,
//! controlled-end multipliers) and 9.1e-5 (ODE), i.e. about 0.01 %, set by the 6-element
//! spatial discretization: both time integrators give the same value to two digits (they
//! differ by 7.5e-6), and the trapezoidal rule on the 1 ms output grid contributes ~1e-5.
use phlex::studies::{
    motion_planning, Controls, Formulation, Integrator, MotionPlanningMethod, MotionPlanningRun,
    MotionPlanningSetup,
};

fn run(m: MotionPlanningMethod, setup: &MotionPlanningSetup) -> MotionPlanningRun {
    let r = motion_planning(m, setup).unwrap();
    println!(
        "{:<45} states {:>3}  max|w(0,t) - sin wt| = {:.3e}  max|e_w(0,t) - w cos wt| = {:.3e}  y_N errors = ({:.3e}, {:.3e})  steps {}",
        m.label(),
        r.n_states,
        r.max_displacement_error,
        r.max_velocity_error,
        r.max_output_errors[0],
        r.max_output_errors[1],
        r.stats.steps
    );
    r
}

#[test]
fn free_end_follows_sin_omega_t_all_formulations() {
    let setup = MotionPlanningSetup::default();
    let omega = setup.omega;
    let mut runs = Vec::new();
    for m in MotionPlanningMethod::ALL {
        let r = run(m, &setup);
        // The plan's criterion: < 1 % of the displacement amplitude (1 m).
        assert!(
            r.max_displacement_error < 1e-2,
            "{}: {}",
            m.label(),
            r.max_displacement_error
        );
        // Free-end velocity within 1 % of its amplitude ω.
        assert!(
            r.max_velocity_error < 1e-2 * omega,
            "{}: {}",
            m.label(),
            r.max_velocity_error
        );
        // Expected outputs y_N (summary §5.4): velocity ω cos ωt and zero angular velocity
        // at the free end, within 1 % of ω.
        assert!(
            r.max_output_errors[0] < 1e-2 * omega,
            "{}: {:?}",
            m.label(),
            r.max_output_errors
        );
        assert!(
            r.max_output_errors[1] < 1e-2 * omega,
            "{}: {:?}",
            m.label(),
            r.max_output_errors
        );
        // The samples cover [0, 1] s uniformly and w(0, 0) = 0.
        assert_eq!(r.t.len(), setup.n_intervals + 1);
        assert!((r.t.last().unwrap() - setup.t_end).abs() < 1e-12);
        assert_eq!(r.displacement[0], 0.0);
        runs.push(r);
    }
    // Both integrators of one formulation solve the same semi-discrete system: their
    // free-end displacements agree far better than the spatial error (the midpoint rule
    // with h = 1 ms has a time error of order (ω_max h)²/12 on the resolved modes).
    for pair in [(0, 1), (2, 3), (4, 5)] {
        let (a, b) = (&runs[pair.0], &runs[pair.1]);
        let d = a
            .displacement
            .iter()
            .zip(&b.displacement)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        println!(
            "{} vs {}: max displacement difference {d:.3e}",
            a.method.label(),
            b.method.label()
        );
        assert!(
            d < 5e-5,
            "{} vs {}: {d:.3e}",
            a.method.label(),
            b.method.label()
        );
    }
}

/// The controls as printed in the thesis (ω instead of √ω, missing √ω factor) do not
/// produce the planned motion: the check above is sensitive to the erratum.
#[test]
fn printed_controls_miss_the_reference() {
    let setup = MotionPlanningSetup {
        controls: Controls::AsPrinted,
        ..Default::default()
    };
    let r = run(
        MotionPlanningMethod::new(Formulation::DaeFreeEnd, Integrator::Midpoint),
        &setup,
    );
    assert!(
        r.max_displacement_error > 0.5,
        "{}",
        r.max_displacement_error
    );
}
