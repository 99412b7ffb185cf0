//! Kirchhoff plate convergence study, HHJ elements (thesis 004 §7.4.3, App. B Tables
//! B.16–B.18 (SSSS) and B.20–B.22 (CSFS); summary §5.1.3).
//!
//! ```text
//! cargo run --release -p phlex --example kirchhoff_convergence [-- --full] [--out DIR]
//! ```
//!
//! Runs the SSSS and CSFS manufactured solutions with HHJ degree k = 1, 2, 3 on the thesis's
//! meshes (1/h ≤ 16 by default, all of them, up to 64, with `--full`): Crank–Nicolson with
//! Δt = h/10, t_f = 1 s, load sampled by the trapezoidal rule as in the thesis, L∞-in-time
//! errors of e_w in H¹ and E_κ in L². Writes, atomically,
//! into `DIR` (default `out/kirchhoff_convergence/`):
//!
//! * `kirchhoff_convergence.csv`: one row per (benchmark, k, 1/h) with our and the thesis's
//!   errors and orders and the relative differences;
//! * `kirchhoff_convergence.md`: the same as Markdown tables;
//! * `kirchhoff_<bench>_k<k>.svg`: log–log plots of the errors vs h, phlex and thesis.
use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{Context, Result};
use phlex::output::{svg_loglog, write_atomic};
use phlex::studies::study_args;
use phlex_fem::mesh::Diagonal;
use phlex_fem::models::plate::kirchhoff::benchmarks::{Benchmark, ThesisRow};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::signal::{InputFn, Signal};

/// One computed row.
struct Row {
    inv_h: usize,
    states: usize,
    errors: [f64; 2],
    seconds: f64,
}

/// L∞-in-time errors of `bench` with degree `k` on the `n × n` mesh (thesis setup; the
/// mesh diagonal is Firedrake's default "left").
fn run(bench: Benchmark, k: usize, n: usize) -> Result<Row> {
    let t0 = Instant::now();
    let mesh = bench.mesh(n, Diagonal::Left)?;
    let model = bench.model(&mesh, k)?;
    let sys = model.system();
    let forms = model.error_forms(&|x| bench.velocity(x), &|x| bench.moments(x))?;
    let e0 = model.interpolate_state(&|x| bench.velocity(x).0, None)?;
    let dt = bench.time_step(n);
    let input = InputFn::new(vec![Signal::from_fn(Benchmark::thesis_load_amplitude(dt))]);
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end: 1.0,
            h: dt,
            output_every: 1,
        },
        ..Default::default()
    };
    let mut cn = LinearMidpoint::new(sys, input, params)?;
    let mut max = [0.0f64; 2];
    cn.run(&e0, &mut |t: f64, e: &[f64]| {
        let er = forms.errors(e, t.cos(), t.sin());
        max[0] = max[0].max(er[0]);
        max[1] = max[1].max(er[1]);
    })?;
    Ok(Row {
        inv_h: n,
        states: sys.n_states(),
        errors: max,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

fn order(prev: f64, cur: f64, prev_n: usize, n: usize) -> f64 {
    (prev / cur).log2() / (n as f64 / prev_n as f64).log2()
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map(|o| format!("{o:.2}")).unwrap_or_else(|| "—".into())
}

fn main() -> Result<()> {
    let (full, out) = study_args(std::env::args().skip(1), "out/kirchhoff_convergence")?;
    let mut csv = String::from(
        "benchmark,k,inv_h,states,e_w,order_e_w,e_kappa,order_e_kappa,thesis_e_w,thesis_order_e_w,\
         thesis_e_kappa,thesis_order_e_kappa,diff_e_w,diff_e_kappa,seconds\n",
    );
    let mut md = String::from(
        "# Kirchhoff plate, HHJ convergence study (thesis 004 §7.4.3, Tables B.16–B.18, B.20–B.22)\n\n\
         SSSS: unit square, E = 136 GPa, ρ = 5600 kg/m³, ν = 0.3, b = 1 mm, w = sin πx sin πy sin t. \
         CSFS: (−1, 1)², 𝒟_b = Id, same ρ and b, clamped at x = −1, free at x = 1, simply supported \
         at y = ±1, static solution of [RZ18] with the corrected load 4π⁴ sin πx sin πy. \
         n × n cells (1/h = n as in the thesis), CG_k velocity, HHJ_{k−1} moments, Crank–Nicolson \
         with Δt = 0.1/n, t_f = 1 s; errors are maxima over all time levels of ‖e_w − e_w^h‖_{H¹} \
         and ‖E_κ − E_κ^h‖_{L²}. Diff = (phlex − thesis)/thesis.\n\n",
    );
    let (mut worst_v, mut worst_o) = ((0.0f64, String::new()), (0.0f64, String::new()));
    for bench in Benchmark::ALL {
        for k in 1..=3 {
            let table: Vec<ThesisRow> = bench
                .thesis_table(k)
                .context("thesis table")?
                .iter()
                .copied()
                .filter(|r| full || r.inv_h <= 16)
                .collect();
            let tab_name = match (bench, k) {
                (Benchmark::Ssss, k) => format!("B.{}", 15 + k),
                (Benchmark::Csfs, k) => format!("B.{}", 19 + k),
            };
            let _ = writeln!(
                md,
                "## {} k = {k} (Table {tab_name})\n\n| 1/h | states | e_w H¹ | order | thesis | order | diff | E_κ L² | order | thesis | order | diff | time [s] |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|",
                bench.name()
            );
            let mut rows: Vec<Row> = Vec::new();
            for (i, th) in table.iter().enumerate() {
                let r = run(bench, k, th.inv_h)?;
                let thv = [th.e_w, th.e_kappa];
                let diff = [0, 1].map(|c| (r.errors[c] - thv[c]) / thv[c]);
                let (ord, tord) = if i > 0 {
                    let (p, tp) = (&rows[i - 1], &table[i - 1]);
                    let tpv = [tp.e_w, tp.e_kappa];
                    (
                        [0, 1].map(|c| Some(order(p.errors[c], r.errors[c], p.inv_h, r.inv_h))),
                        [0, 1].map(|c| Some(order(tpv[c], thv[c], tp.inv_h, th.inv_h))),
                    )
                } else {
                    ([None; 2], [None; 2])
                };
                let label = format!("{} k={k} 1/h={}", bench.name(), r.inv_h);
                for c in 0..2 {
                    if diff[c].abs() > worst_v.0 {
                        worst_v = (diff[c].abs(), label.clone());
                    }
                    if let (Some(a), Some(b)) = (ord[c], tord[c]) {
                        if (a - b).abs() > worst_o.0 {
                            worst_o = ((a - b).abs(), label.clone());
                        }
                    }
                }
                let _ = writeln!(
                    csv,
                    "{},{k},{},{},{:.6e},{},{:.6e},{},{:.3e},{},{:.3e},{},{:.5},{:.5},{:.3}",
                    bench.name(),
                    r.inv_h,
                    r.states,
                    r.errors[0],
                    ord[0].map(|o| format!("{o:.4}")).unwrap_or_default(),
                    r.errors[1],
                    ord[1].map(|o| format!("{o:.4}")).unwrap_or_default(),
                    thv[0],
                    tord[0].map(|o| format!("{o:.4}")).unwrap_or_default(),
                    thv[1],
                    tord[1].map(|o| format!("{o:.4}")).unwrap_or_default(),
                    diff[0],
                    diff[1],
                    r.seconds
                );
                let _ = writeln!(
                    md,
                    "| {} | {} | {:.3e} | {} | {:.2e} | {} | {:+.2} % | {:.3e} | {} | {:.2e} | {} | {:+.2} % | {:.2} |",
                    r.inv_h,
                    r.states,
                    r.errors[0],
                    fmt_opt(ord[0]),
                    thv[0],
                    fmt_opt(tord[0]),
                    100.0 * diff[0],
                    r.errors[1],
                    fmt_opt(ord[1]),
                    thv[1],
                    fmt_opt(tord[1]),
                    100.0 * diff[1],
                    r.seconds
                );
                println!(
                    "{label}: e_w {:.3e} (thesis {:.2e}), E_kappa {:.3e} (thesis {:.2e}) [{:.2} s]",
                    r.errors[0], thv[0], r.errors[1], thv[1], r.seconds
                );
                rows.push(r);
            }
            md.push('\n');
            let h: Vec<f64> = rows.iter().map(|r| 1.0 / r.inv_h as f64).collect();
            let ew: Vec<f64> = rows.iter().map(|r| r.errors[0]).collect();
            let ek: Vec<f64> = rows.iter().map(|r| r.errors[1]).collect();
            let tw: Vec<f64> = table.iter().map(|r| r.e_w).collect();
            let tk: Vec<f64> = table.iter().map(|r| r.e_kappa).collect();
            let svg = svg_loglog(
                &format!("Kirchhoff {} HHJ k={k}: L-inf errors vs h", bench.name()),
                &[
                    ("e_w H1 (phlex)", &h, &ew),
                    ("e_w H1 (thesis)", &h, &tw),
                    ("E_kappa L2 (phlex)", &h, &ek),
                    ("E_kappa L2 (thesis)", &h, &tk),
                ],
            )?;
            write_atomic(
                &out.join(format!(
                    "kirchhoff_{}_k{k}.svg",
                    bench.name().to_lowercase()
                )),
                svg.as_bytes(),
            )?;
        }
    }
    let summary = format!(
        "Largest value difference: {:.2} % ({}); largest order difference: {:.3} ({}).\n",
        100.0 * worst_v.0,
        worst_v.1,
        worst_o.0,
        worst_o.1
    );
    md.push_str(&summary);
    print!("{summary}");
    write_atomic(&out.join("kirchhoff_convergence.csv"), csv.as_bytes())?;
    write_atomic(&out.join("kirchhoff_convergence.md"), md.as_bytes())?;
    println!("wrote {}", out.display());
    Ok(())
}
