//! The switched run of the vibroacoustic duct (thesis 004 §8.2.2), shared by
//! `tests/wave_decomposition.rs` and `examples/vibroacoustics_table_8_5.rs`: the implicit
//! midpoint rule with a fixed step on $[0, t_s]$ (impedance off) and $[t_s, t_{end}]$ (on),
//! and the relative errors of a run against a reference run on the same time grid.
#![allow(dead_code)]

use phlex_fem::models::continuum::wave_decomposition::{
    squared_state_differences, StateErrors, VibroacousticDuct,
};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::signal::{InputFn, Signal};
use std::error::Error;
use std::time::Instant;

/// A run of the switched system: Hamiltonian and state samples, final state, energy
/// accounting and the integration time.
pub struct SwitchedRun {
    /// Sample times.
    pub times: Vec<f64>,
    /// Hamiltonian at the sample times.
    pub hamiltonian: Vec<f64>,
    /// States at the sample times.
    pub samples: Vec<Vec<f64>>,
    /// Final state.
    pub state: Vec<f64>,
    /// Largest per-step power-balance residual relative to the energy scale (both phases).
    pub balance: f64,
    /// Energy dissipated by the impedance [J].
    pub dissipated: f64,
    /// Energy supplied through the inflow port [J].
    pub supplied: f64,
    /// Wall time of the integration (both phases, factorizations included) [s].
    pub seconds: f64,
}

/// Implicit midpoint with step `dt` on $[0, t_s]$ (impedance off) and $[t_s, t_{end}]$
/// (on), sampled every `every` steps (the switch time once); the state (differential
/// part) carries over at $t_s$.
pub fn run_switched(
    m: &dyn VibroacousticDuct,
    dt: f64,
    every: usize,
) -> Result<SwitchedRun, Box<dyn Error>> {
    let p = *m.params();
    let mut run = SwitchedRun {
        times: vec![],
        hamiltonian: vec![],
        samples: vec![],
        state: m.initial_state()?,
        balance: 0.0,
        dissipated: 0.0,
        supplied: 0.0,
        seconds: 0.0,
    };
    let start = Instant::now();
    for (on, t0, t1) in [(false, 0.0, p.t_switch), (true, p.t_switch, p.t_end)] {
        let params = MidpointParams {
            step: FixedStepParams {
                t0,
                t_end: t1,
                h: dt,
                output_every: every,
            },
            ..Default::default()
        };
        let input = InputFn::new(m.input().into_iter().map(Signal::Constant).collect());
        let mut cn = LinearMidpoint::new(m.system(on), input, params)?;
        let skip = usize::from(on);
        let mut k = 0;
        let samples = &mut run.samples;
        let r = cn.run(&run.state, &mut |_t: f64, e: &[f64]| {
            if k >= skip {
                samples.push(e.to_vec());
            }
            k += 1;
        })?;
        run.times.extend(&r.ledger.times[skip..]);
        run.hamiltonian.extend(&r.ledger.hamiltonian[skip..]);
        run.balance = run.balance.max(r.ledger.max_relative_residual());
        run.dissipated += r.ledger.dissipated.last().unwrap();
        run.supplied += r.ledger.supplied.last().unwrap()[0];
        run.state = r.state;
    }
    run.seconds = start.elapsed().as_secs_f64();
    Ok(run)
}

/// Space–time relative $L^2(r)$ errors of the samples of `r` (model `m`) against those of
/// `r_ref` (model `reference`), pairing samples in order.
pub fn space_time_errors(
    reference: &dyn VibroacousticDuct,
    r_ref: &SwitchedRun,
    m: &dyn VibroacousticDuct,
    r: &SwitchedRun,
) -> Result<StateErrors, Box<dyn Error>> {
    let mut s = [0.0; 4];
    for (a, b) in r_ref.samples.iter().zip(&r.samples) {
        let d = squared_state_differences(reference, a, m, b)?;
        for k in 0..4 {
            s[k] += d[k];
        }
    }
    Ok(StateErrors::from_squares(s))
}

/// Relative $L^2(0, t_{end})$ distance of two Hamiltonian histories on the same time grid
/// (pairing samples in order).
pub fn hamiltonian_error(h_ref: &[f64], h: &[f64]) -> f64 {
    let d: f64 = h_ref.iter().zip(h).map(|(a, b)| (a - b).powi(2)).sum();
    let n: f64 = h_ref.iter().map(|a| a * a).sum();
    (d / n).sqrt()
}
