//! `phlex run` of a thermal rod: the midpoint driver of [`crate::continuum`] with the rod's
//! probes (temperature, velocity, displacement), for the thermoelastic rod its mechanical
//! energy and, with `reference = "danilovskaya"`, the half-space solution (thesis 004
//! (8.51)–(8.52)) inverted by de Hoog's method next to each probe.
use std::cell::Cell;
use std::path::Path;

use anyhow::Result;
use phlex_fem::models::continuum::thermoelastic_1d::danilovskaya_laplace;
use phlex_solve::laplace_inversion::DeHoog;

use super::build::{BuiltRod, ProbeField, RodFile, RodModel};
use crate::continuum::{field_simulation, Columns, FieldRun, LineOutput};
use crate::source::ModelSource;

/// The half-space reference of a probe at $\hat x$: $\hat T$, $\hat u$ or
/// $\hat v = \mathcal L^{-1}[s\hat u(s)]$ (zero initial displacement).
fn danilovskaya_reference(dh: &DeHoog, delta: f64, x: f64, field: ProbeField, t: f64) -> f64 {
    if t <= 0.0 {
        return 0.0;
    }
    match field {
        ProbeField::Theta => dh.invert(|s| danilovskaya_laplace(s, x, delta).0, t),
        ProbeField::Displacement => dh.invert(|s| danilovskaya_laplace(s, x, delta).1, t),
        ProbeField::Velocity => dh.invert(|s| s * danilovskaya_laplace(s, x, delta).1, t),
    }
    .unwrap_or(f64::NAN)
}

/// `phlex run` for a rod: midpoint rule, `timeseries.csv` (`t`, `H`, probes, with
/// `reference = "danilovskaya"` the reference columns `<probe>_ref`, and for the
/// thermoelastic rod `H_mech`), `summary.json`, SVG plots.
pub fn run(src: &ModelSource, f: &RodFile, b: &BuiltRod, dir: &Path, quiet: bool) -> Result<()> {
    let sim = field_simulation(
        (src.file(), src.text(), "rod"),
        f.shared.simulation.as_ref(),
    )?;
    let t_end = sim.t_end();
    // the uniform output grid: every `every`-th step of `dt` (fixed step), or the uniform
    // samples of a Radau IIA run
    let span = sim.span(0.0, t_end);
    let h_sample = span.h * span.output_every as f64;
    // displacement probes: trapezoidal rule over the samples (previous velocity, integral)
    let integrals = std::cell::RefCell::new(vec![(f64::NAN, 0.0); b.probes.len()]);
    let probe_values = |e: &[f64]| -> Result<Vec<f64>, String> {
        let mut acc = integrals.borrow_mut();
        Ok(b.probes
            .iter()
            .zip(acc.iter_mut())
            .map(|(p, (v_prev, u))| {
                let v = p.3.dot(e);
                if p.1 != ProbeField::Displacement {
                    return v;
                }
                if v_prev.is_finite() {
                    *u += 0.5 * h_sample * (*v_prev + v);
                }
                *v_prev = v;
                *u
            })
            .collect())
    };
    let delta = match (&b.model, &f.thermoelastic_rod) {
        (RodModel::Thermoelastic(_, Some(d)), Some(t)) if t.reference.is_some() => Some(*d),
        _ => None,
    };
    // the reference is a function of time: sample k of the run is at t = k·h_sample
    let sample = Cell::new(0usize);
    let dh = DeHoog::default();
    let reference_values = |_: &[f64]| -> Result<Vec<f64>, String> {
        let t = sample.get() as f64 * h_sample;
        sample.set(sample.get() + 1);
        Ok(b.probes
            .iter()
            .map(|p| danilovskaya_reference(&dh, delta.unwrap_or(1.0), p.2, p.1, t.min(t_end)))
            .collect())
    };
    let energies = |e: &[f64]| -> Result<Vec<f64>, String> {
        match &b.model {
            RodModel::Thermoelastic(m, _) => Ok(vec![m.mechanical_energy(e)]),
            RodModel::Heat(_) => Ok(Vec::new()),
        }
    };
    let title = if matches!(b.model, RodModel::Heat(_)) {
        "normalised temperature (T - T0)/T0"
    } else {
        "probes: theta = (T - T0)/T0, v [m/s]"
    };
    let names = b.probes.iter().map(|p| p.0.clone()).collect();
    let mut columns = vec![Columns::probes(names, title, &probe_values)];
    if delta.is_some() {
        columns.push(Columns::new(
            b.probes.iter().map(|p| format!("{}_ref", p.0)).collect(),
            "Danilovskaya half-space solution (de Hoog inversion)",
            "reference.svg",
            &reference_values,
        ));
    }
    if matches!(b.model, RodModel::Thermoelastic(..)) {
        columns.push(Columns::new(
            vec!["H_mech".into()],
            "mechanical energy",
            "mechanical_energy.svg",
            &energies,
        ));
    }
    let output = LineOutput {
        probes: Vec::new(),
        plots: f.shared.output.plots,
    };
    let r = FieldRun::new(&b.name, "rod", b.model.system(), &b.input, &b.initial);
    output.run(r.columns(columns), &sim, dir, quiet)?;
    if let Some(delta) = delta {
        print_reference_deviation(dir, b, delta)?;
    }
    Ok(())
}

/// Largest deviation of each probe from the half-space solution, relative to the
/// reference's maximum, outside the window $0.6\hat x < \hat t < 1.3\hat x$ around the
/// elastic wave front (which reaches $\hat x$ at $\hat t = \hat x$; the P1 wave equation's
/// dispersive precursor travels at up to $\sqrt2$: `tests/thermoelastic.rs` in phlex-fem).
fn print_reference_deviation(dir: &Path, b: &BuiltRod, delta: f64) -> Result<()> {
    let csv = std::fs::read_to_string(dir.join("timeseries.csv"))?;
    let rows: Vec<Vec<f64>> = csv
        .lines()
        .skip(1)
        .map(|l| {
            l.split(',')
                .map(|v| v.parse().unwrap_or(f64::NAN))
                .collect()
        })
        .collect();
    let n = b.probes.len();
    println!("  Danilovskaya reference (delta = {delta}), max deviation / max |reference| away from the front (0.6 x < t < 1.3 x excluded):");
    for (k, p) in b.probes.iter().enumerate() {
        let (mut dev, mut max) = (0.0f64, 0.0f64);
        for r in &rows {
            let (t, num, reference) = (r[0], r[2 + k], r[2 + n + k]);
            max = max.max(reference.abs());
            if t > 0.6 * p.2 && t < 1.3 * p.2 {
                continue;
            }
            dev = dev.max((num - reference).abs());
        }
        println!("    {:<12} {:.3e}", p.0, dev / max.max(f64::MIN_POSITIVE));
    }
    Ok(())
}
