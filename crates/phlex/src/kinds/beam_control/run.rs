//! `phlex run` for a beam model with a `[control]` table: the built pH system is exported
//! to state space with named port inputs and outputs (`phlex_control::ph::bridge`), an LQG
//! controller is designed on its ZOH discretisation and the sampled-data closed loop is
//! simulated exactly next to the open loop (`phlex_control::ph::lqg`, seed 002 §4.4).
//!
//! Writes `timeseries.csv` (energy open vs closed loop, control effort, control power and
//! work, estimation error, controls and measurements), `summary.json` (closed-loop poles,
//! separation check `eig(A+BF) ∪ eig(A−KC)`, energies, power balance) and SVG plots.
//! Errors in the control table (unknown port or probe names, non-stabilisable or
//! non-detectable pairs, a descriptor model) are model errors: exit code 2.
//!
//! The closed loop is not run through `phlex_solve::integrate`, on purpose (issue 13 item
//! 2, "a model-specific hook where the maths demands it"): the controller is a
//! sampled-data one (discrete LQR + one-step Kalman predictor on the ZOH discretisation,
//! thesis 002 eqs. (3.17)–(3.21), (4.121)), whose inputs are piecewise constant between
//! samples, and `simulate_closed_loop` propagates the plant *exactly* over each sample
//! (block matrix exponential, Van Loan's formula for the port work and the dissipation).
//! A one-step integrator of the continuous plant (midpoint, Gauss, Radau) would only
//! approximate that propagation (the midpoint rule to $O(\Delta t^3)$ per step): the pinned
//! energies of the shipped `[control]` example would move by far more than 1e-8, and the
//! reported power balance would no longer hold to round-off.
use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use phlex_control::error::ControlError;
use phlex_control::ph::bridge::{ph_to_state_space, Probe};
use phlex_control::ph::lqg::{
    continuous_equivalent, design_lqg, simulate_closed_loop, ClosedLoopRun, PhLqgSpec,
};
use serde_json::json;

use crate::error::{line_of, ModelError};
use crate::kinds::beam::file::{ControlSpec, ModelFile};
use crate::kinds::beam::Built;
use crate::output::{OutputFiles, TimeSeries};

fn model_error(file: &str, text: &str, needle: &str, e: &ControlError) -> anyhow::Error {
    let line = text.find(needle).map(|p| line_of(text, p)).unwrap_or(0);
    anyhow::Error::new(ModelError {
        file: file.into(),
        line,
        message: format!("[control]: {e}"),
    })
}

/// Is this control error caused by the model file (exit 2) rather than by the numerics?
fn is_input_error(e: &ControlError) -> bool {
    matches!(
        e,
        ControlError::UnknownName { .. }
            | ControlError::NotStabilizable { .. }
            | ControlError::NotDetectable { .. }
            | ControlError::InvalidParameter { .. }
            | ControlError::Descriptor(_)
    )
}

fn poles_json(poles: &[faer::c64], dt: f64) -> serde_json::Value {
    let mut p: Vec<_> = poles.to_vec();
    p.sort_by(|a, b| b.norm().total_cmp(&a.norm()));
    json!(p
        .iter()
        .map(|l| {
            let s = continuous_equivalent(*l, dt);
            json!({
                "re": l.re, "im": l.im, "abs": l.norm(),
                "s_re": s.re, "s_im": s.im,
                "frequency_hz": s.norm() / (2.0 * std::f64::consts::PI),
                "damping_ratio": if s.norm() > 0.0 { -s.re / s.norm() } else { 1.0 },
            })
        })
        .collect::<Vec<_>>())
}

/// Runs the closed loop of a beam model with a `[control]` table and writes the results.
pub fn run(
    file: &str,
    text: &str,
    m: &ModelFile,
    c: &ControlSpec,
    b: &Built,
    dir: &Path,
    quiet: bool,
) -> Result<()> {
    let sim = m.simulation.as_ref().ok_or_else(|| ModelError {
        file: file.into(),
        line: 0,
        message: "[control] needs a [simulation] section".into(),
    })?;
    let dt =
        c.dt.as_ref()
            .or(sim.dt.as_ref())
            .map(|v| *v.get_ref())
            .ok_or_else(|| ModelError {
                file: file.into(),
                line: 0,
                message: "missing key control.dt (sampling period [s])".into(),
            })?;
    let t_end = *sim.t_end.get_ref();
    let probes: Vec<Probe> = b
        .probes
        .iter()
        .map(|(name, v)| {
            let mut row = vec![0.0; v.len];
            for &(i, x) in &v.entries {
                row[i] += x;
            }
            Probe {
                name: name.clone(),
                row,
            }
        })
        .collect();
    let inputs: Vec<&str> = c.inputs.get_ref().iter().map(String::as_str).collect();
    let outputs: Vec<&str> = c.outputs.get_ref().iter().map(String::as_str).collect();
    let ph = ph_to_state_space(&b.system, &inputs, &outputs, &probes).map_err(|e| {
        let needle = match &e {
            ControlError::UnknownName { kind, .. } if kind.starts_with("input") => "inputs",
            ControlError::UnknownName { .. } => "outputs",
            _ => "[control]",
        };
        model_error(file, text, needle, &e)
    })?;
    let spec = PhLqgSpec {
        dt,
        q_weight: *c.q_weight.get_ref(),
        r_weight: *c.r_weight.get_ref(),
        process_noise: *c.process_noise.get_ref(),
        measurement_noise: *c.measurement_noise.get_ref(),
    };
    if !quiet {
        eprintln!(
            "phlex run: {} — LQG on {} states, inputs [{}], outputs [{}], dt = {dt} s",
            b.name,
            ph.n_states(),
            ph.input_names.join(", "),
            ph.output_names.join(", ")
        );
    }
    let start = Instant::now();
    let lqg = design_lqg(&ph, &spec).map_err(|e| {
        if is_input_error(&e) {
            model_error(file, text, "[control]", &e)
        } else {
            anyhow::Error::new(e).context("LQG design failed")
        }
    })?;
    // exogenous inputs: every port that is not actuated, with its model-file signal
    let ctrl_cols = ph.input_columns();
    let dist_ports: Vec<String> = ph
        .ports
        .names()
        .into_iter()
        .filter(|p| !c.inputs.get_ref().contains(p))
        .collect();
    let dist_names: Vec<&str> = dist_ports.iter().map(String::as_str).collect();
    let (dist_cols, _) = ph
        .port_columns(&dist_names)
        .map_err(|e| anyhow::Error::new(e).context("disturbance ports"))?;
    debug_assert!(dist_cols.iter().all(|c| !ctrl_cols.contains(c)));
    let input = b.input.clone();
    let dist = move |t: f64| -> Vec<f64> {
        let u = input.eval(t);
        dist_cols.iter().map(|&k| u[k]).collect()
    };
    let run = ClosedLoopRun {
        t_end,
        e0: b.initial.clone(),
        e_hat0: None,
        t_on: c.t_on.as_ref().map(|v| *v.get_ref()).unwrap_or(0.0),
        disturbance: (!dist_ports.is_empty())
            .then(|| (dist_ports.clone(), &dist as &dyn Fn(f64) -> Vec<f64>)),
        seed: c.seed,
    };
    let tr = simulate_closed_loop(&ph, &lqg, &run).map_err(|e| {
        if is_input_error(&e) {
            model_error(file, text, "[control]", &e)
        } else {
            anyhow::Error::new(e).context("closed-loop simulation failed")
        }
    })?;
    let wall = start.elapsed().as_secs_f64();

    // time series
    let mut names: Vec<String> = [
        "t",
        "H_open",
        "H_closed",
        "control_effort",
        "control_power",
        "control_work",
        "estimation_error_energy",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    names.extend(ph.input_names.iter().cloned());
    names.extend(ph.output_names.iter().map(|n| format!("measured.{n}")));
    let columns: [&[f64]; 7] = [
        &tr.t,
        &tr.energy_open,
        &tr.energy_closed,
        &tr.control_effort,
        &tr.control_power,
        &tr.control_work,
        &tr.estimation_error_energy,
    ];
    let series = TimeSeries::from_columns(names, &columns, |k| {
        [tr.control[k].as_slice(), &tr.outputs[k]].concat()
    });
    let last = tr.t.len() - 1;
    let h0 = tr.energy_open[0];
    let (ho, hc) = (tr.energy_open[last], tr.energy_closed[last]);
    let ratio = if ho > 0.0 { hc / ho } else { f64::NAN };
    let umax = tr.control_effort.iter().copied().fold(0.0, f64::max);
    let mut files = OutputFiles::new(dir);
    files.add("timeseries.csv", series.to_csv()?);
    if m.output.plots {
        files.add_time_plot(
            "energy.svg",
            &format!("{}: plant energy, open vs LQG closed loop", b.name),
            &[
                ("H open loop [J]", &tr.t, &tr.energy_open),
                ("H closed loop [J]", &tr.t, &tr.energy_closed),
            ],
        )?;
        let log = |v: &[f64]| -> Vec<f64> { v.iter().map(|x| x.max(1e-300).log10()).collect() };
        files.add_time_plot(
            "energy_log.svg",
            &format!("{}: log10 of the plant energy", b.name),
            &[
                ("log10 H open", &tr.t, &log(&tr.energy_open)),
                ("log10 H closed", &tr.t, &log(&tr.energy_closed)),
                (
                    "log10 estimation error energy",
                    &tr.t,
                    &log(&tr.estimation_error_energy),
                ),
            ],
        )?;
        files.add_time_plot(
            "control.svg",
            &format!("{}: control effort |u| and power uᵀy", b.name),
            &[
                ("|u|", &tr.t, &tr.control_effort),
                ("u·y [W]", &tr.t, &tr.control_power),
            ],
        )?;
    }
    let outputs_written = files.listed_with_summary();
    let summary = json!({
        "model": b.name,
        "controller": "lqg (discrete LQR + steady Kalman predictor, ZOH sampled-data loop)",
        "integrator": "exact ZOH propagation (matrix exponential), exact port work and dissipation",
        "states": ph.n_states(),
        "control_inputs": ph.input_names,
        "measured_outputs": ph.output_names,
        "dt": dt,
        "steps": tr.t.len() - 1,
        "final_time": tr.t[last],
        "q_weight": spec.q_weight,
        "r_weight": spec.r_weight,
        "process_noise": spec.process_noise,
        "measurement_noise": spec.measurement_noise,
        "seed": c.seed,
        "noise_injected": c.seed.is_some(),
        "t_on": run.t_on,
        "h_initial": h0,
        "h_final_open": ho,
        "h_final_closed": hc,
        "h_final": hc,
        "energy_ratio_closed_over_open": ratio,
        "control_work": tr.control_work[last],
        "max_control_effort": umax,
        "energy_dissipated_closed": tr.dissipated_closed,
        "power_balance_residual_relative": tr.power_balance_residual,
        "separation_error": lqg.separation_error,
        "riccati_residuals": { "regulator": lqg.riccati_residuals[0], "estimator": lqg.riccati_residuals[1] },
        "spectral_radius": {
            "open_loop": lqg.open_loop_poles.iter().map(|l| l.norm()).fold(0.0, f64::max),
            "closed_loop": lqg.closed_loop_poles.iter().map(|l| l.norm()).fold(0.0, f64::max),
        },
        "closed_loop_poles": poles_json(&lqg.closed_loop_poles, dt),
        "regulator_poles": poles_json(&lqg.regulator_poles, dt),
        "estimator_poles": poles_json(&lqg.estimator_poles, dt),
        "wall_time_s": wall,
        "outputs": outputs_written,
    });
    files.add("summary.json", serde_json::to_vec_pretty(&summary)?);
    files.write()?;
    println!("  model                      {}", b.name);
    println!(
        "  controller                 LQG, {} states, dt = {dt} s",
        ph.n_states()
    );
    println!("  H(0) -> H(end) open        {h0:.6e} -> {ho:.6e} J");
    println!("  H(0) -> H(end) closed      {h0:.6e} -> {hc:.6e} J (ratio {ratio:.3e})");
    println!(
        "  control work               {:.6e} J",
        tr.control_work[last]
    );
    println!("  separation check           {:.3e}", lqg.separation_error);
    println!(
        "  power-balance residual     {:.3e} (relative)",
        tr.power_balance_residual
    );
    println!("  results in {}", dir.display());
    Ok(())
}
