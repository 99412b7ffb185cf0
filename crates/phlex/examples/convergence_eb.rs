//! Euler–Bernoulli convergence study (thesis 004 §7.4.1, App. B Tables B.1–B.5).
//!
//! ```text
//! cargo run --release -p phlex --example convergence_eb [-- --full] [--out DIR]
//! ```
//!
//! Runs HerDG1, DG1Her and CGCG1–3 on the thesis's meshes (the first four of each table by
//! default, all six with `--full`) and writes, atomically, into `DIR` (default
//! `out/convergence_eb/`):
//!
//! * `convergence_eb.md`: the tables with the thesis values, orders and differences;
//! * `convergence_eb.json`: the same data (tables, settings, comparisons);
//! * `convergence_eb_<disc>.svg`: log–log plot of the errors vs h, phlex and thesis.
use anyhow::{Context, Result};
use phlex::output::{svg_loglog, write_atomic};
use phlex::studies::{
    eb_convergence, study_args, thesis_meshes, thesis_reference, EbConvergenceSetup, KappaColumn,
};
use phlex_fem::models::beam::euler_bernoulli::EbDiscretization;

fn main() -> Result<()> {
    let (full, out) = study_args(std::env::args().skip(1), "out/convergence_eb")?;
    let setup = EbConvergenceSetup::default();
    let discs = [
        EbDiscretization::HerDg1,
        EbDiscretization::Dg1Her,
        EbDiscretization::CgCg(1),
        EbDiscretization::CgCg(2),
        EbDiscretization::CgCg(3),
    ];
    let mut md = String::new();
    md.push_str("# Euler–Bernoulli convergence study (thesis 004 §7.4.1, Tables B.1–B.5)\n\n");
    md.push_str(&format!(
        "Simply supported beam, ρ = {} kg/m³, A = {:.3e} m², E = {:.3e} Pa, I = {:.3e} m⁴, L = {} m \
         (ρA = {:.4} kg/m, EI = {:.5} N m²); w = sin(πx/L) sin t; Crank–Nicolson with Δt = {} h, \
         t_f = {} s; L∞-in-time errors (max over all time levels including t = 0) in full Sobolev \
         norms. Initial state: {:?}; load sampling: {:?}. Diff = (phlex − thesis)/thesis.\n\n",
        setup.beam.rho,
        setup.beam.area,
        setup.beam.young,
        setup.beam.inertia,
        setup.beam.length,
        setup.beam.rho_a(),
        setup.beam.ei(),
        setup.dt_per_h,
        setup.t_final,
        setup.initial,
        setup.load
    ));
    let mut json_tables = Vec::new();
    let mut worst: (f64, String) = (0.0, String::new());
    let mut worst_order: (f64, String) = (0.0, String::new());
    for d in discs {
        let mut meshes = thesis_meshes(d);
        if !full {
            meshes.truncate(4);
        }
        let t0 = std::time::Instant::now();
        let table = eb_convergence(d, &meshes, &setup)?;
        let elapsed = t0.elapsed().as_secs_f64();
        let reference = thesis_reference(d).context("thesis table")?;
        let cmp = table.compare(&reference);
        for c in &cmp {
            if c.rel_diff.abs() > worst.0 {
                worst = (
                    c.rel_diff.abs(),
                    format!("{} 1/h = {} {}", table.discretization, c.inv_h, c.field),
                );
            }
            if let (Some(a), Some(b)) = (c.our_order, c.thesis_order) {
                if (a - b).abs() > worst_order.0 {
                    worst_order = (
                        (a - b).abs(),
                        format!("{} 1/h = {} {}", table.discretization, c.inv_h, c.field),
                    );
                }
            }
        }
        let text = table.to_markdown(Some(&reference));
        println!("{text}\n({elapsed:.2} s)\n");
        md.push_str(&text);
        md.push('\n');
        // Plot: errors vs h, phlex (lines) and thesis, in the thesis's quantities.
        let scale = table.column_scale(&reference);
        let h: Vec<f64> = table.rows.iter().map(|r| 1.0 / r.inv_h as f64).collect();
        let ew: Vec<f64> = table.rows.iter().map(|r| r.errors[0] * scale[0]).collect();
        let ek: Vec<f64> = table.rows.iter().map(|r| r.errors[1] * scale[1]).collect();
        let th: Vec<f64> = reference
            .rows
            .iter()
            .map(|r| 1.0 / r.inv_h as f64)
            .collect();
        let tw: Vec<f64> = reference.rows.iter().map(|r| r.errors[0]).collect();
        let tk: Vec<f64> = reference.rows.iter().map(|r| r.errors[1]).collect();
        let [nw, nk] = table.norms;
        let kname = match reference.kappa_column {
            KappaColumn::Moment => "e_kappa",
            KappaColumn::Curvature => "e_kappa/EI",
        };
        let lw = format!("e_w {} (phlex)", nw.name());
        let lwt = format!("e_w {} (thesis)", nw.name());
        let lk = format!("{kname} {} (phlex)", nk.name());
        let lkt = format!("{kname} {} (thesis)", nk.name());
        let svg = svg_loglog(
            &format!(
                "Euler-Bernoulli {}: L-inf errors vs h",
                table.discretization
            ),
            &[
                (lw.as_str(), &h, &ew),
                (lwt.as_str(), &th, &tw),
                (lk.as_str(), &h, &ek),
                (lkt.as_str(), &th, &tk),
            ],
        )?;
        write_atomic(
            &out.join(format!("convergence_eb_{}.svg", table.discretization)),
            svg.as_bytes(),
        )?;
        json_tables.push(serde_json::json!({
            "table": table,
            "reference": reference,
            "comparison": cmp,
            "seconds": elapsed,
        }));
    }
    md.push_str(&format!(
        "Largest value difference: {:.1} % ({}); largest order difference: {:.3} ({}).\n",
        100.0 * worst.0,
        worst.1,
        worst_order.0,
        worst_order.1
    ));
    println!(
        "largest value difference {:.1} % ({}), largest order difference {:.3} ({})",
        100.0 * worst.0,
        worst.1,
        worst_order.0,
        worst_order.1
    );
    write_atomic(&out.join("convergence_eb.md"), md.as_bytes())?;
    let json = serde_json::json!({ "setup": setup, "full": full, "tables": json_tables });
    write_atomic(
        &out.join("convergence_eb.json"),
        serde_json::to_string_pretty(&json)?.as_bytes(),
    )?;
    println!("wrote {}", out.display());
    Ok(())
}
