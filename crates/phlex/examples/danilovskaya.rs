//! Danilovskaya thermoelastic problem (thesis 004 §8.3, Figs. 8.19–8.20; summary §5.5).
//!
//! ```text
//! cargo run --release -p phlex --example danilovskaya [-- --out DIR --elements N --dt DT]
//! ```
//!
//! Non-dimensional half-space x̂ ≥ 0 truncated at L̂ = 10, unit temperature step at x̂ = 0,
//! traction-free ends, insulated right end; CG1×DG0 mechanics and DG0×CG1 heat (the
//! temperature step is the input of the port `heat_left`), Crank–Nicolson (default 200
//! elements, Δt = 0.004 up to t̂ = 4 as in Table 8.6). δ = 1: the two-way coupled pH
//! system; δ = 0: the cascade heat → rod. û is the trapezoidal integral of the velocity.
//! The reference is the Laplace-domain solution (8.51) inverted by de Hoog's method.
//! Writes, atomically, into `DIR` (default `out/danilovskaya/`):
//!
//! * `danilovskaya.csv`: t̂ and, for δ = 0 and 1, T̂(1, t̂) and û(1, t̂) numerical and
//!   analytic;
//! * `temperature.svg`, `displacement.svg`: numerical vs analytic curves (Figs. 8.19–8.20).
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use phlex::output::{svg_plot, write_atomic, TimeSeries};
use phlex_fem::models::continuum::thermoelastic_1d::{
    danilovskaya_laplace, ThermoField, Thermoelastic1d,
};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::laplace_inversion::DeHoog;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::{InputFn, Signal};

const T_END: f64 = 4.0;
const LENGTH: f64 = 10.0;

/// (t, T̂(1, t), û(1, t)) at every step, t = 0 included.
fn simulate(delta: f64, n: usize, dt: f64) -> Result<Vec<(f64, f64, f64)>> {
    let setup = Thermoelastic1d::danilovskaya(delta, LENGTH, n)?;
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end: T_END,
            h: dt,
            output_every: 1,
        },
        ..Default::default()
    };
    let step = || InputFn::new(vec![Signal::Constant(1.0)]);
    let mut rec: Vec<(f64, f64, f64)> = Vec::new(); // (t, θ(1), v(1))
    if delta > 0.0 {
        let m = setup.build()?;
        let sys = m.system();
        sys.check(&Default::default())?;
        let pt = m.field(ThermoField::Temperature)?.probe(1.0)?;
        let pv = m.field(ThermoField::Velocity)?.probe(1.0)?;
        let mut cn = LinearMidpoint::new(sys, step(), params)?;
        cn.run(&vec![0.0; sys.n_states()], &mut |t: f64, e: &[f64]| {
            rec.push((t, pt.dot(e), pv.dot(e)))
        })?;
    } else {
        let (mech, heat) = setup.build_one_way()?;
        let hs = heat.system();
        let tr = heat.temperature().range();
        let pt = heat.temperature().probe(1.0)?;
        let (mut times, mut theta1) = (Vec::new(), Vec::new());
        let mut thetas: Vec<Vec<f64>> = vec![Vec::new(); tr.len()];
        let mut cn = LinearMidpoint::new(hs, step(), params)?;
        cn.run(&vec![0.0; hs.n_states()], &mut |t: f64, e: &[f64]| {
            times.push(t);
            theta1.push(pt.dot(e));
            for (k, i) in tr.clone().enumerate() {
                thetas[k].push(e[i]);
            }
        })?;
        // the heat states drive the rod's thermal_stress port (piecewise linear in time:
        // the midpoint value seen by the rod's step is the heat midpoint)
        let signals = thetas
            .into_iter()
            .map(|v| Signal::table(times.clone(), v))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let ms = mech.system();
        let pv = mech.field(ThermoField::Velocity)?.probe(1.0)?;
        let mut k = 0;
        let mut cn = LinearMidpoint::new(ms, InputFn::new(signals), params)?;
        cn.run(&vec![0.0; ms.n_states()], &mut |t: f64, e: &[f64]| {
            rec.push((t, theta1[k], pv.dot(e)));
            k += 1;
        })?;
    }
    let mut out = vec![(0.0, rec[0].1, 0.0)];
    let mut u = 0.0;
    for w in rec.windows(2) {
        u += 0.5 * (w[1].0 - w[0].0) * (w[0].2 + w[1].2);
        out.push((w[1].0, w[1].1, u));
    }
    Ok(out)
}

fn main() -> Result<()> {
    let mut out = PathBuf::from("out/danilovskaya");
    let mut n = 200usize;
    let mut dt = 0.004;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = |what: &str| args.next().with_context(|| format!("{what} needs a value"));
        match a.as_str() {
            "--out" => out = PathBuf::from(val("--out")?),
            "--elements" => n = val("--elements")?.parse().context("--elements: integer")?,
            "--dt" => dt = val("--dt")?.parse().context("--dt: number")?,
            other => {
                bail!("unknown argument '{other}' (usage: [--out DIR] [--elements N] [--dt DT])")
            }
        }
    }
    let dh = DeHoog::default();
    let mut table = TimeSeries::new(
        [
            "t", "T_num_d0", "T_ref_d0", "u_num_d0", "u_ref_d0", "T_num_d1", "T_ref_d1",
            "u_num_d1", "u_ref_d1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
    );
    let runs = [simulate(0.0, n, dt)?, simulate(1.0, n, dt)?];
    println!("Danilovskaya: L = {LENGTH}, {n} elements, dt = {dt}, t_end = {T_END}");
    let mut err = [[0.0f64; 2]; 2];
    let mut max = [[0.0f64; 2]; 2];
    for k in 0..runs[0].len() {
        let t = runs[0][k].0;
        let mut row = vec![t];
        for (d, (delta, run)) in [0.0, 1.0].iter().zip(&runs).enumerate() {
            let (tr, ur) = if t > 0.0 {
                (
                    dh.invert(|s| danilovskaya_laplace(s, 1.0, *delta).0, t)?,
                    dh.invert(|s| danilovskaya_laplace(s, 1.0, *delta).1, t)?,
                )
            } else {
                (0.0, 0.0)
            };
            let (_, th, u) = run[k];
            row.extend([th, tr, u, ur]);
            max[d][0] = max[d][0].max(tr.abs());
            max[d][1] = max[d][1].max(ur.abs());
            // the dispersive precursor (group velocity up to √2) and the front: t̂ ∈ (0.6, 1.3)
            if !(t > 0.6 && t < 1.3) {
                err[d][0] = err[d][0].max((th - tr).abs());
                err[d][1] = err[d][1].max((u - ur).abs());
            }
        }
        table.rows.push(row);
    }
    for (d, delta) in [0.0, 1.0].iter().enumerate() {
        println!(
            "delta = {delta}: max |T_num - T_ref| = {:.2e}, max |u_num - u_ref| = {:.2e} (relative to max, outside t in (0.6, 1.3))",
            err[d][0] / max[d][0],
            err[d][1] / max[d][1]
        );
    }
    let c = |k: usize| table.column(k);
    let t = c(0);
    write_atomic(&out.join("danilovskaya.csv"), &table.to_csv()?)?;
    for (what, name, cols) in [
        ("temperature T(x = 1, t)", "temperature.svg", [1, 2, 5, 6]),
        ("displacement u(x = 1, t)", "displacement.svg", [3, 4, 7, 8]),
    ] {
        let [a, b, cc, dd] = cols.map(&c);
        let svg = svg_plot(
            &format!("Danilovskaya: {what}"),
            "t",
            &[
                ("numerical, delta = 0", &t, &a),
                ("analytic, delta = 0", &t, &b),
                ("numerical, delta = 1", &t, &cc),
                ("analytic, delta = 1", &t, &dd),
            ],
        )?;
        write_atomic(&out.join(name), svg.as_bytes())?;
    }
    println!("wrote {}", out.display());
    Ok(())
}
