//! Mindlin plate, BJT mixed discretization (strong symmetry): the convergence study of
//! thesis 004 §7.4.2, Tables B.6–B.8 (summary §5.1.2), on the manufactured clamped-square
//! solution ([`phlex_fem::plate::mindlin::benchmarks`], complete form with the b³ load
//! factor), all errors in L∞(L²).
//!
//! Set-up as `plate_kirchhoff.rs` (which reproduces the Kirchhoff tables within 0.9 %):
//! unit square with n × n square cells, Table 7.2 data, Crank–Nicolson = implicit midpoint,
//! Δt = 0.1/n, t_f = 1 s, load amplitude = trapezoidal average of sin t over each step,
//! errors maximal over all time levels (t = 0 included); initial e_w, e_θ = nodal
//! interpolants of w_s, θ_s, stresses zero.
use phlex_fem::plate::mindlin::benchmarks;
use phlex_fem::plate::mindlin_bjt::MindlinBjt;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::signal::{InputFn, Signal};
use std::sync::Arc;
use std::time::Instant;

/// Thesis Tables B.6 (k = 1), B.7 (k = 2), B.8 (k = 3): (1/h, [e_w, e_θ, E_κ, e_γ]).
const TABLES: [&[(usize, [f64; 4])]; 3] = [
    &[
        (4, [1.62e-05, 1.51e-04, 4.89e-08, 5.83e-07]),
        (8, [6.52e-06, 4.59e-05, 1.45e-08, 2.01e-07]),
        (16, [3.28e-06, 2.17e-05, 5.69e-09, 9.41e-08]),
        (32, [1.64e-06, 1.07e-05, 2.63e-09, 4.64e-08]),
        (64, [8.24e-07, 5.39e-06, 1.29e-09, 2.31e-08]),
    ],
    &[
        (4, [8.05e-06, 7.22e-05, 1.72e-08, 2.42e-07]),
        (8, [2.12e-06, 1.87e-05, 4.42e-09, 6.06e-08]),
        (16, [5.42e-07, 4.09e-06, 1.14e-09, 1.43e-08]),
        (32, [1.36e-07, 1.04e-06, 2.89e-10, 3.56e-09]),
        (64, [3.41e-08, 2.62e-07, 7.26e-11, 8.88e-10]),
    ],
    &[
        (2, [6.98e-07, 1.42e-05, 1.54e-09, 3.31e-08]),
        (4, [1.09e-07, 2.14e-06, 2.31e-10, 4.61e-09]),
        (8, [1.44e-08, 2.29e-07, 2.42e-11, 6.36e-10]),
        (16, [1.83e-09, 2.05e-08, 2.62e-12, 8.44e-11]),
        (32, [2.30e-10, 2.94e-09, 3.00e-13, 1.07e-11]),
    ],
];

/// L∞(L²) errors of BJT degree `k` on the n × n grid, and the number of states.
fn errors(k: usize, n: usize) -> ([f64; 4], usize) {
    let p = benchmarks::thesis_params();
    let model = MindlinBjt::rectangle(p, 1.0, 1.0, n, n, k)
        .unwrap()
        .load("load", Arc::new(move |x| benchmarks::load_profile(&p, x)))
        .build()
        .unwrap();
    let sys = model.system();
    let forms = model.error_forms(&|x| benchmarks::exact(&p, x));
    let e0 = model.interpolate_state(&|x| benchmarks::exact(&p, x).w, &|x| {
        benchmarks::exact(&p, x).theta
    });
    let dt = benchmarks::time_step(n);
    let input = InputFn::new(vec![Signal::from_fn(benchmarks::thesis_load_amplitude(dt))]);
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end: 1.0,
            h: dt,
            output_every: 1,
        },
        ..Default::default()
    };
    let mut cn = LinearMidpoint::new(sys, input, params).unwrap();
    let mut max = [0.0f64; 4];
    cn.run(&e0, &mut |t: f64, e: &[f64]| {
        let er = forms.errors(e, t.cos(), t.sin());
        for c in 0..4 {
            max[c] = max[c].max(er[c]);
        }
    })
    .unwrap();
    (max, sys.n_states())
}

/// Runs degree `k` on the thesis meshes with 1/h ≤ `max_n`, prints and compares the
/// columns with `checked[c]` (values within `value_tol` relative, orders within
/// `order_tol` of the thesis's on the same meshes); returns the worst differences of the
/// checked columns and the measured errors.
fn study(
    k: usize,
    max_n: usize,
    checked: [bool; 4],
    value_tol: f64,
    order_tol: f64,
) -> (f64, f64, Vec<[f64; 4]>) {
    let rows: Vec<_> = TABLES[k - 1].iter().filter(|r| r.0 <= max_n).collect();
    let mut prev: Option<[f64; 4]> = None;
    let mut all = Vec::new();
    let (mut wv, mut wo) = (0.0f64, 0.0f64);
    for (i, &&(n, th)) in rows.iter().enumerate() {
        let t = Instant::now();
        let (e, ns) = errors(k, n);
        let mut line = format!("BJT k={k} 1/h={n:3} ({ns} states):");
        for c in 0..4 {
            let d = (e[c] - th[c]) / th[c];
            if checked[c] {
                wv = wv.max(d.abs());
            }
            line.push_str(&format!(" {:.3e} ({:+.1} %)", e[c], 100.0 * d));
        }
        if let Some(pe) = prev {
            let pt = rows[i - 1].1;
            let r = (n as f64 / rows[i - 1].0 as f64).log2();
            line.push_str("  orders");
            for c in 0..4 {
                let (o, ot) = ((pe[c] / e[c]).log2() / r, (pt[c] / th[c]).log2() / r);
                if checked[c] {
                    wo = wo.max((o - ot).abs());
                }
                line.push_str(&format!(" {o:.2} ({ot:.2})"));
            }
        }
        eprintln!("{line} [{:.2?}]", t.elapsed());
        prev = Some(e);
        all.push(e);
    }
    eprintln!(
        "k={k}: worst value diff {:.1} %, worst order diff {wo:.3}",
        100.0 * wv
    );
    assert!(wv < value_tol, "k={k}: value difference {wv}");
    assert!(wo < order_tol, "k={k}: order difference {wo}");
    (wv, wo, all)
}

/// Fast twin (0.1 s in release): k = 1, 2 on 1/h = 4, 8 (Tables B.6, B.7). Same
/// discretization and time integration as the thesis, so values must agree up to the
/// thesis's rounding and the unknown details of its E_κ norm. Measured: k = 2 all four
/// columns within 6.2 % (e_w, e_θ, e_γ within 0.5 %; E_κ +6.2/+5.3 % with the Frobenius
/// norm m11² + 2 m12² + m22²), orders within 0.012; k = 1: e_w, e_θ, e_γ within 2.7 %,
/// orders within 0.03. Asserted: values within 15 %, orders ±0.15 for these columns.
///
/// Open discrepancy: k = 1 E_κ agrees at 1/h = 4 (+4.8 %) but converges more slowly
/// than printed (ours 1.86e-8 at 1/h = 8, thesis 1.45e-8; order 1.46 vs 1.75); both
/// tend to order 1 = k (the conjectured rate (7.12)). It is asserted here as: value at
/// 1/h = 4 within 15 %, value at 1/h = 8 within 35 %, order in [1, 2].
#[test]
fn bjt_convergence_coarse() {
    let (_, _, e1) = study(1, 8, [true, true, false, true], 0.15, 0.15);
    let th = TABLES[0];
    assert!((e1[0][2] - th[0].1[2]).abs() < 0.15 * th[0].1[2]);
    assert!((e1[1][2] - th[1].1[2]).abs() < 0.35 * th[1].1[2]);
    let o = (e1[0][2] / e1[1][2]).log2();
    assert!((1.0..2.0).contains(&o), "k=1 E_kappa order {o}");
    study(2, 8, [true; 4], 0.15, 0.15);
}

/// Full tables B.6–B.8 (all meshes; k = 1 E_κ excluded from the assertions, see the fast
/// twin).
#[test]
#[ignore = "full convergence study (several minutes); fast twin: bjt_convergence_coarse"]
fn bjt_convergence_full() {
    study(1, 64, [true, true, false, true], 0.15, 0.15);
    for k in 2..=3 {
        study(k, 64, [true; 4], 0.15, 0.15);
    }
}
