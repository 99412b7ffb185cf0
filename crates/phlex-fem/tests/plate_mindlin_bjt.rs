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

/// L∞(L²) errors of BJT degree `k` on the n × n grid: [e_w, e_θ, (m11, m22), e_γ,
/// E_κ Frobenius (m11² + 2 m12² + m22²)], and the number of states.
fn errors(k: usize, n: usize) -> ([f64; 5], usize) {
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
    let mut max = [0.0f64; 5];
    cn.run(&e0, &mut |t: f64, e: &[f64]| {
        let d = forms.errors_detailed(e, t.cos(), t.sin());
        let er = [
            d[0],
            d[1],
            d[2],
            d[4],
            (d[2] * d[2] + 2.0 * d[3] * d[3]).sqrt(),
        ];
        for c in 0..5 {
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
    // Table B.8 (k = 3) was computed on meshes with twice the printed 1/h (erratum, as
    // Table B.15 of the CGDG study): compare row 1/h with our 2/h × 2/h grid
    let cells = |inv_h: usize| if k == 3 { 2 * inv_h } else { inv_h };
    let rows: Vec<_> = TABLES[k - 1]
        .iter()
        .filter(|r| cells(r.0) <= max_n)
        .collect();
    let mut prev: Option<[f64; 4]> = None;
    let mut all = Vec::new();
    let (mut wv, mut wo) = (0.0f64, 0.0f64);
    for (i, &&(n, th)) in rows.iter().enumerate() {
        let t = Instant::now();
        let (e5, ns) = errors(k, cells(n));
        let e = [e5[0], e5[1], e5[2], e5[3]];
        let mut line = format!("BJT k={k} 1/h={n:3} on {0}x{0} ({ns} states):", cells(n));
        for c in 0..4 {
            let d = (e[c] - th[c]) / th[c];
            if checked[c] {
                wv = wv.max(d.abs());
            }
            line.push_str(&format!(" {:.3e} ({:+.1} %)", e[c], 100.0 * d));
        }
        line.push_str(&format!(
            " [E_k Frobenius {:.3e} ({:+.1} %)]",
            e5[4],
            100.0 * (e5[4] - th[2]) / th[2]
        ));
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

/// Fast twin (0.15 s in release): k = 1, 2 on 1/h = 4, 8 (Tables B.6, B.7) and k = 3 on
/// the printed 1/h = 2, 4 (computed on 4 × 4 and 8 × 8 cells: Table B.8 erratum, see
/// `study`). Same discretization, initial data and time integration as the thesis, so
/// values agree up to the thesis's rounding. The E_κ column is compared with the error of
/// the H(div) part (m11, m22): it matches the printed column (k = 2: 2.6, 1.3 %) better
/// than the Frobenius norm m11² + 2 m12² + m22² (6.2, 5.3 %), so the thesis's Firedrake
/// norm most likely omitted the Q_k component m12 (both are printed).
///
/// Measured (asserted: values within 15 %, orders ±0.15 on the checked columns):
/// * k = 2: all four columns within 2.6 %, orders within 0.02;
/// * k = 1: e_w, e_θ, e_γ within 2.7 %, orders within 0.03;
/// * k = 3: e_w, e_θ, e_γ within 1.2 %, orders within 0.02.
///
/// Open discrepancies (not asserted as table values): k = 1 E_κ agrees at 1/h = 4 (−3.0 %)
/// but converges more slowly than printed (ours 1.80e-8 at 1/h = 8, thesis 1.45e-8; order
/// 1.40 vs 1.75; both tend to k = 1, ours +60 % at 1/h = 64); k = 3 E_κ is 4–32 % above
/// the table (orders agree within 0.14). Asserted for these: value at the first mesh
/// within 15 %, first order within [k − 0.5, k + 1].
#[test]
fn bjt_convergence_coarse() {
    for (k, checked) in [
        (1usize, [true, true, false, true]),
        (2, [true; 4]),
        (3, [true, true, false, true]),
    ] {
        let (_, _, e) = study(k, 8, checked, 0.15, 0.15);
        if !checked[2] {
            let th = TABLES[k - 1][0].1[2];
            assert!(
                (e[0][2] - th).abs() < 0.15 * th,
                "k={k}: E_kappa {}",
                e[0][2]
            );
            let o = (e[0][2] / e[1][2]).log2();
            let kf = k as f64;
            assert!(o > kf - 0.5 && o < kf + 1.0, "k={k}: E_kappa order {o}");
        }
    }
}

/// Full tables B.6–B.8 (all meshes up to 64 × 64 cells, 296 065 states for k = 3; about
/// 5 min in release). Measured: k = 2 all columns within 2.6 % (orders within 0.02);
/// k = 1 e_w, e_θ, e_γ within 2.7 % (E_κ +60 % at 1/h = 64, order 1.01 vs 1.03); k = 3
/// e_w and e_γ within 1.2 % (orders within 0.01), e_θ within 7.5 % except the printed
/// 1/h = 16 row (+23.7 %: the thesis's orders 3.48 then 2.80 bracket our smooth 3.28,
/// 3.09, and its 1/h = 32 value agrees to 1.3 %), E_κ +26 to +32 %. Asserted: values
/// within 15 % and orders ±0.15 for k = 1 (e_w, e_θ, e_γ), k = 2 (all), k = 3 (e_w, e_γ).
#[test]
#[ignore = "full convergence study (about 5 min in release); fast twin: bjt_convergence_coarse"]
fn bjt_convergence_full() {
    study(1, 64, [true, true, false, true], 0.15, 0.15);
    study(2, 64, [true; 4], 0.15, 0.15);
    study(3, 64, [true, false, false, true], 0.15, 0.15);
}

/// Energy conservation: the unforced BJT plate (k = 2, 6 × 6 cells, clamped) integrated
/// by the implicit midpoint rule from e_w = w_s, e_θ = θ_s conserves H = ½ eᵀ E e to
/// round-off (relative drift < 1e-12 over 100 steps of 0.01 s; measured 4.9e-14), since J
/// is skew.
#[test]
fn bjt_energy_conservation() {
    let p = benchmarks::thesis_params();
    let model = MindlinBjt::rectangle(p, 1.0, 1.0, 6, 6, 2)
        .unwrap()
        .build()
        .unwrap();
    let sys = model.system();
    sys.check(&Default::default()).unwrap();
    let e0 = model.interpolate_state(&|x| benchmarks::exact(&p, x).w, &|x| {
        benchmarks::exact(&p, x).theta
    });
    let energy = |e: &[f64]| 0.5 * phlex_core::sparse::bilinear(e, &sys.E, e);
    let h0 = energy(&e0);
    assert!(h0 > 0.0);
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end: 1.0,
            h: 0.01,
            output_every: 1,
        },
        ..Default::default()
    };
    let mut cn = LinearMidpoint::new(sys, InputFn::new(vec![]), params).unwrap();
    let mut drift = 0.0f64;
    let mut moved = 0.0f64;
    cn.run(&e0, &mut |_t: f64, e: &[f64]| {
        drift = drift.max((energy(e) - h0).abs() / h0);
        moved = moved.max(
            e.iter()
                .zip(&e0)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max),
        );
    })
    .unwrap();
    eprintln!("BJT energy drift {drift:e}");
    assert!(drift < 1e-12, "{drift}");
    assert!(moved > 0.0);
}
