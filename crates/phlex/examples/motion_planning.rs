//! Euler–Bernoulli motion planning (thesis 004 §8.2.1, summary §5.4).
//!
//! ```text
//! cargo run --release -p phlex --example motion_planning [-- --out DIR]
//! ```
//!
//! Runs the DAE (multipliers; Radau5 and midpoint) and ODE (virtual domain decomposition;
//! Radau5 and midpoint) versions with 6 elements over 1 s and writes, atomically, into
//! `DIR` (default `out/motion_planning/`):
//!
//! * `motion_planning.csv`: t, sin ωt and, per version, the free-end velocity e_w(0, t) and
//!   the trapezoidal displacement w(0, t);
//! * `motion_planning.svg`: w(0, t) of every version against sin ωt;
//! * `motion_planning_error.svg`: w(0, t) − sin ωt;
//! * `motion_planning.json`: the maximum errors and work counters.
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use phlex::output::{svg_plot, write_atomic, TimeSeries};
use phlex::studies::{motion_planning, MotionPlanningMethod, MotionPlanningSetup};

fn main() -> Result<()> {
    let mut out = PathBuf::from("out/motion_planning");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out = PathBuf::from(args.next().context("--out needs a directory")?),
            other => bail!("unknown argument '{other}' (usage: [--out DIR])"),
        }
    }
    let setup = MotionPlanningSetup::default();
    let w = setup.omega;
    let mut runs = Vec::new();
    println!(
        "EB motion planning: omega = {w}, {} elements, t_end = {} s, {} output intervals",
        setup.n_elements, setup.t_end, setup.n_intervals
    );
    println!(
        "{:<45} {:>6} {:>14} {:>14} {:>12} {:>12} {:>7} {:>6}",
        "version",
        "states",
        "max|w-sin|",
        "max|v-wcos|",
        "y_N[0] err",
        "y_N[1] err",
        "steps",
        "rej"
    );
    for m in MotionPlanningMethod::ALL {
        let r = motion_planning(m, &setup)?;
        println!(
            "{:<45} {:>6} {:>14.3e} {:>14.3e} {:>12.3e} {:>12.3e} {:>7} {:>6}",
            m.label(),
            r.n_states,
            r.max_displacement_error,
            r.max_velocity_error,
            r.max_output_errors[0],
            r.max_output_errors[1],
            r.stats.steps,
            r.stats.rejected_steps
        );
        runs.push(r);
    }
    let t = runs[0].t.clone();
    if runs.iter().any(|r| r.t != t) {
        bail!("the versions were sampled on different grids");
    }
    let reference: Vec<f64> = t.iter().map(|tk| (w * tk).sin()).collect();
    let mut names = vec!["t".to_string(), "sin(omega t)".to_string()];
    for r in &runs {
        let tag: String = r
            .method
            .label()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        names.push(format!("{tag}_velocity"));
        names.push(format!("{tag}_displacement"));
    }
    let mut ts = TimeSeries::new(names);
    for k in 0..t.len() {
        let mut row = vec![t[k], reference[k]];
        for r in &runs {
            row.push(r.velocity[k]);
            row.push(r.displacement[k]);
        }
        ts.rows.push(row);
    }
    write_atomic(&out.join("motion_planning.csv"), &ts.to_csv()?)?;
    let labels: Vec<String> = runs
        .iter()
        .map(|r| format!("w(0,t) {}", r.method.label()))
        .collect();
    let mut series: Vec<(&str, &[f64], &[f64])> = vec![("sin(omega t)", &t, &reference)];
    for (l, r) in labels.iter().zip(&runs) {
        series.push((l.as_str(), &t, &r.displacement));
    }
    let svg = svg_plot(
        "EB motion planning: free-end displacement w(0,t) vs reference sin(4t)",
        "t [s]",
        &series,
    )?;
    write_atomic(&out.join("motion_planning.svg"), svg.as_bytes())?;
    let errors: Vec<Vec<f64>> = runs
        .iter()
        .map(|r| {
            r.displacement
                .iter()
                .zip(&reference)
                .map(|(a, b)| a - b)
                .collect()
        })
        .collect();
    let elabels: Vec<String> = runs
        .iter()
        .map(|r| format!("w(0,t) - sin(4t), {}", r.method.label()))
        .collect();
    let eseries: Vec<(&str, &[f64], &[f64])> = elabels
        .iter()
        .zip(&errors)
        .map(|(l, e)| (l.as_str(), t.as_slice(), e.as_slice()))
        .collect();
    let svg = svg_plot(
        "EB motion planning: free-end displacement error [m]",
        "t [s]",
        &eseries,
    )?;
    write_atomic(&out.join("motion_planning_error.svg"), svg.as_bytes())?;
    let summary: Vec<serde_json::Value> = runs
        .iter()
        .map(|r| {
            serde_json::json!({
                "version": r.method.label(),
                "model": r.model,
                "states": r.n_states,
                "max_displacement_error": r.max_displacement_error,
                "max_velocity_error": r.max_velocity_error,
                "max_free_end_output_errors": r.max_output_errors,
                "steps": r.stats.steps,
                "rejected_steps": r.stats.rejected_steps,
                "factorizations": r.stats.factorizations,
            })
        })
        .collect();
    let json = serde_json::json!({ "setup": setup, "runs": summary });
    write_atomic(
        &out.join("motion_planning.json"),
        serde_json::to_string_pretty(&json)?.as_bytes(),
    )?;
    println!("wrote {}", out.display());
    Ok(())
}
