//! Mindlin plate, CGDG dual-mixed discretization: the convergence study of thesis 004
//! §7.4.2 (Tables B.13–B.15, summary §5.1.2) on the manufactured clamped-square solution
//! ([`phlex_fem::models::plate::mindlin::benchmarks`], complete form with the b³ load factor).
//!
//! Set-up as in the thesis (and as `plate_kirchhoff.rs`, which reproduces Tables
//! B.16–B.22 within 0.9 %): Firedrake `UnitSquareMesh(n, n)` (diagonal "left"), Table 7.2
//! data (E = 1 Pa, ρ = 1 kg/m³, ν = 0.3, K_sh = 5/6, b = 0.1 m), clamped strongly on all
//! edges; Crank–Nicolson = implicit midpoint, Δt = h/10 = 0.1/n, t_f = 1 s; initial
//! e_w, e_θ = nodal interpolants of w_s, θ_s, stresses zero; load amplitude sampled as the
//! trapezoidal average of sin t over each step; errors L∞ over all time levels (t = 0
//! included) of e_w in H¹, e_θ in H^Grad = {‖θ‖² + ‖sym ∇θ‖²}, E_κ and e_γ in L².
mod common;

use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::plate::mindlin::benchmarks::{self, ThesisRow};
use phlex_solve::signal::Signal;
use std::time::Instant;

const NAMES: [&str; 4] = [
    "e_w (H1)",
    "e_theta (HGrad)",
    "E_kappa (L2)",
    "e_gamma (L2)",
];

/// L∞-in-time errors of CGDG degree `k` on the `n × n` mesh (module docs) and the number
/// of states.
fn errors(k: usize, n: usize) -> ([f64; 4], usize) {
    let mesh = Mesh2d::unit_square(n, Diagonal::Left).unwrap();
    let model = benchmarks::model(&mesh, k).unwrap();
    let sys = model.system();
    let p = benchmarks::thesis_params();
    let forms = model.error_forms(&|x| benchmarks::exact(&p, x)).unwrap();
    let e0 = model
        .interpolate_state(&|x| benchmarks::exact(&p, x).w, &|x| {
            benchmarks::exact(&p, x).theta
        })
        .unwrap();
    let dt = benchmarks::time_step(n);
    let load = Signal::from_fn(benchmarks::thesis_load_amplitude(dt));
    let max =
        common::integrate::max_errors_in_time(sys, &e0, dt, load, |e, a, b| forms.errors(e, a, b));
    (max, sys.n_states())
}

/// One measured row: cells per side, states, errors, wall time.
struct Row {
    cells: usize,
    n_states: usize,
    errors: [f64; 4],
    seconds: f64,
}

/// Runs degree `k` on the `n × n` meshes `meshes`, compares with the thesis rows computed
/// on the same mesh ([`ThesisRow::cells`]; Table B.15's printed 1/h is half of it) (value
/// within `value_tol` relative, order log₂(e_{i−1}/e_i)/log₂(n_i/n_{i−1}) within
/// `order_tol` of the thesis's) and returns the rows and the worst value / order
/// differences.
fn study(k: usize, meshes: &[usize], value_tol: f64, order_tol: f64) -> (Vec<Row>, f64, f64) {
    let table = benchmarks::thesis_table(k).unwrap();
    let thesis = |n: usize| -> Option<&ThesisRow> { table.iter().find(|r| r.cells == n) };
    let mut rows: Vec<Row> = Vec::new();
    let (mut wv, mut wo) = (0.0f64, 0.0f64);
    for &n in meshes {
        let t = Instant::now();
        let (e, ns) = errors(k, n);
        let seconds = t.elapsed().as_secs_f64();
        let mut line = format!("CGDG k={k} n={n:3} ({ns} states, {seconds:.2} s):");
        for c in 0..4 {
            line.push_str(&format!(" {:.3e}", e[c]));
            if let Some(th) = thesis(n) {
                let d = (e[c] - th.errors[c]) / th.errors[c];
                wv = wv.max(d.abs());
                line.push_str(&format!(" ({:+.1} %)", 100.0 * d));
                assert!(
                    d.abs() < value_tol,
                    "k={k} 1/h={n} {}: {:.4e} vs thesis {:.3e} ({:+.1} %)",
                    NAMES[c],
                    e[c],
                    th.errors[c],
                    100.0 * d
                );
            }
        }
        if let Some(prev) = rows.last() {
            let ratio = (n as f64 / prev.cells as f64).log2();
            for c in 0..4 {
                let o = (prev.errors[c] / e[c]).log2() / ratio;
                line.push_str(&format!(" ord{c} {o:.2}"));
                if let (Some(a), Some(b)) = (thesis(prev.cells), thesis(n)) {
                    let ot = (a.errors[c] / b.errors[c]).log2() / ratio;
                    wo = wo.max((o - ot).abs());
                    assert!(
                        (o - ot).abs() < order_tol,
                        "k={k} 1/h={n} {}: order {o:.3} vs thesis {ot:.3}",
                        NAMES[c]
                    );
                }
            }
        }
        eprintln!("{line}");
        rows.push(Row {
            cells: n,
            n_states: ns,
            errors: e,
            seconds,
        });
    }
    (rows, wv, wo)
}

/// CI twin of the study: k = 1, 2, 3 on the 8 × 8 and 16 × 16 meshes (the coarsest
/// thesis meshes; for k = 3 the rows printed as 1/h = 4, 8, see the erratum on
/// [`ThesisRow`]; about 3.5 s in release). Same mesh, Δt, t_f, norms, initial data and load
/// sampling as the thesis, so the values must agree with the printed 3-digit values up to
/// their rounding: measured ≤ 0.84 % (k = 2 e_θ on 8 × 8), asserted 2 % (the brief allows
/// 15 %); the orders between the two meshes agree with the thesis's orders on the same
/// meshes within 0.009 (asserted ±0.15; pre-asymptotic, e.g. k = 1 e_γ has 0.72 between 8
/// and 16 in both). The asymptotic orders are checked on the k = 3 pair: all four within
/// 0.2 of 3 (measured 2.95, 3.04, 3.00, 2.95).
#[test]
fn cgdg_convergence_coarse() {
    let (mut wv, mut wo) = (0.0f64, 0.0f64);
    for k in 1..=3 {
        let meshes = [8, 16];
        let (rows, v, o) = study(k, &meshes, 0.02, 0.15);
        wv = wv.max(v);
        wo = wo.max(o);
        if k == 3 {
            for (c, name) in NAMES.iter().enumerate() {
                let ord = (rows[0].errors[c] / rows[1].errors[c]).log2();
                assert!((ord - 3.0).abs() < 0.2, "k = 3 {name}: order {ord}");
            }
        }
    }
    eprintln!(
        "largest value difference {:.2} %, largest order difference {:.3}",
        100.0 * wv,
        wo
    );
}

/// Writes `text` to `path` atomically (temporary file + rename).
fn write_atomic(path: &std::path::Path, text: &str) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// Full study: Tables B.13–B.15 on every thesis mesh we can afford in a few minutes
/// (463 s in release on the shared 2-core machine, 313 s of it for k = 3 on 64 × 64,
/// 355 203 states × 640 steps). Measured: all 48 values within 0.84 % of the thesis, all
/// orders within 0.009 of the thesis's; finest-mesh orders k = 1: 1.00/1.00/1.03/0.97,
/// k = 2: 2.00/2.01/2.00/1.99, k = 3: 3.00/3.00/3.00/3.00 (e_w/e_θ/E_κ/e_γ). Meshes
/// n × n, n = 8 … 64 (also for k = 3, whose thesis rows are printed as 1/h = 4 …
/// 32), checked like the fast twin (values within 2 %, orders within ±0.15 of the
/// thesis's), and written as Markdown and CSV
/// (thesis value next to ours) to `$CARGO_TARGET_TMPDIR/mindlin_cgdg_convergence.{md,csv}`.
#[test]
#[ignore = "full convergence study (n up to 64, ~8 min in release); fast twin: cgdg_convergence_coarse"]
fn cgdg_convergence_full() {
    let mut md = String::from(
        "# Mindlin CGDG convergence (thesis 004 Tables B.13–B.15)\n\n\
         L∞-in-time errors, Δt = 0.1/n, t_f = 1 s; thesis value in parentheses.\n\n\
         Cells per side n (Table B.15 prints 1/h = n/2 for k = 3: erratum).\n\n\
         | k | n | states | e_w (H¹) | ord | e_θ (H^Grad) | ord | E_κ (L²) | ord | e_γ (L²) | ord | time [s] |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut csv = String::from(
        "k,cells,states,e_w,e_w_thesis,e_theta,e_theta_thesis,E_kappa,E_kappa_thesis,e_gamma,e_gamma_thesis,seconds\n",
    );
    let (mut wv, mut wo) = (0.0f64, 0.0f64);
    for (k, meshes) in [
        (1, vec![8, 16, 32, 64]),
        (2, vec![8, 16, 32, 64]),
        (3, vec![8, 16, 32, 64]),
    ] {
        let (rows, v, o) = study(k, &meshes, 0.02, 0.15);
        wv = wv.max(v);
        wo = wo.max(o);
        let table = benchmarks::thesis_table(k).unwrap();
        for (i, r) in rows.iter().enumerate() {
            let th = table.iter().find(|t| t.cells == r.cells);
            md.push_str(&format!("| {k} | {} | {} |", r.cells, r.n_states));
            csv.push_str(&format!("{k},{},{}", r.cells, r.n_states));
            for c in 0..4 {
                let tv = th.map(|t| t.errors[c]);
                let ord = if i > 0 {
                    let q = (r.cells as f64 / rows[i - 1].cells as f64).log2();
                    format!("{:.2}", (rows[i - 1].errors[c] / r.errors[c]).log2() / q)
                } else {
                    "—".into()
                };
                md.push_str(&format!(
                    " {:.3e} ({}) | {ord} |",
                    r.errors[c],
                    tv.map_or("—".into(), |v| format!("{v:.2e}"))
                ));
                csv.push_str(&format!(
                    ",{:.6e},{}",
                    r.errors[c],
                    tv.map_or(String::new(), |v| format!("{v:e}"))
                ));
            }
            md.push_str(&format!(" {:.2} |\n", r.seconds));
            csv.push_str(&format!(",{:.3}\n", r.seconds));
        }
    }
    md.push_str(&format!(
        "\nLargest deviation from the thesis: {:.2} % (values), {:.3} (orders).\n",
        100.0 * wv,
        wo
    ));
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    write_atomic(&dir.join("mindlin_cgdg_convergence.md"), &md);
    write_atomic(&dir.join("mindlin_cgdg_convergence.csv"), &csv);
    eprintln!("{md}");
}
