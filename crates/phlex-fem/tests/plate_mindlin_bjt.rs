//! Mindlin plate, BJT mixed discretization (strong symmetry): the convergence study of
//! thesis 004 §7.4.2, Tables B.6–B.8 (summary §5.1.2), on the manufactured clamped-square
//! solution ([`phlex_fem::models::plate::mindlin::benchmarks`], complete form with the b³ load
//! factor), all errors in L∞(L²).
//!
//! Set-up as `plate_kirchhoff.rs` (which reproduces the Kirchhoff tables within 0.9 %):
//! unit square with n × n square cells, Table 7.2 data, Crank–Nicolson = implicit midpoint,
//! Δt = 0.1/n, t_f = 1 s, load amplitude = trapezoidal average of sin t over each step,
//! errors maximal over all time levels (t = 0 included); initial e_w, e_θ = nodal
//! interpolants of w_s, θ_s, stresses zero.
mod common;

use phlex_fem::models::plate::mindlin::benchmarks;
use phlex_fem::models::plate::mindlin_bjt::{BjtHdivSpace, MindlinBjt};
use phlex_solve::signal::{InputFn, Signal};
use std::sync::Arc;
use std::time::Instant;

/// Thesis Tables B.6 (k = 1), B.7 (k = 2), B.8 (k = 3): (1/h, [e_w, e_θ, E_κ, e_γ]), with
/// one corrected typo (B.8, 1/h = 16, e_θ).
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
        // e_θ printed 2.05e-08: a digit transposition of 2.50e-08, the value its own
        // printed orders 3.19 and 3.08 were computed from (`table_b8_theta_typo`)
        (16, [1.83e-09, 2.50e-08, 2.62e-12, 8.44e-11]),
        (32, [2.30e-10, 2.94e-09, 3.00e-13, 1.07e-11]),
    ],
];

/// L∞(L²) errors of BJT degree `k` with H(div) space `space` on the n × n grid:
/// [e_w, e_θ, E_κ, e_γ, (m11, m22) part of E_κ], and the number of states. The E_κ norm
/// is the thesis script's `inner(E − E_ex, E − E_ex)`, i.e. Frobenius
/// (m11² + 2 m12² + m22²).
fn errors(k: usize, n: usize, space: BjtHdivSpace) -> ([f64; 5], usize) {
    let p = benchmarks::thesis_params();
    let model = MindlinBjt::rectangle(p, 1.0, 1.0, n, n, k)
        .unwrap()
        .hdiv_space(space)
        .load("load", Arc::new(move |x| benchmarks::load_profile(&p, x)))
        .build()
        .unwrap();
    let sys = model.system();
    let forms = model.error_forms(&|x| benchmarks::exact(&p, x));
    let e0 = model.interpolate_state(&|x| benchmarks::exact(&p, x).w, &|x| {
        benchmarks::exact(&p, x).theta
    });
    let dt = benchmarks::time_step(n);
    let load = Signal::from_fn(benchmarks::thesis_load_amplitude(dt));
    let max = common::integrate::max_errors_in_time(sys, &e0, dt, load, |e, a, b| {
        let d = forms.errors_detailed(e, a, b);
        [
            d[0],
            d[1],
            (d[2] * d[2] + 2.0 * d[3] * d[3]).sqrt(),
            d[4],
            d[2],
        ]
    });
    (max, sys.n_states())
}

/// Table B.8 (k = 3) was computed on meshes with twice the printed 1/h (erratum: the
/// thesis script runs k = 3 on the k = 1, 2 meshes 4, 8, … but labels the rows with
/// 1/h = 2, 4, …, as Table B.15 of the CGDG study): row 1/h is our (2/h) × (2/h) grid.
fn cells(k: usize, inv_h: usize) -> usize {
    if k == 3 {
        2 * inv_h
    } else {
        inv_h
    }
}

/// Runs degree `k` with `space` on the thesis meshes with 1/h ≤ `max_n`, prints and
/// compares the columns with `checked[c]` (values within `value_tol` relative, orders
/// within `order_tol` of the thesis's on the same meshes); returns the worst differences
/// of the checked columns and the measured errors.
fn study(
    k: usize,
    max_n: usize,
    space: BjtHdivSpace,
    checked: [bool; 4],
    value_tol: f64,
    order_tol: f64,
) -> (f64, f64, Vec<[f64; 4]>) {
    let rows: Vec<_> = TABLES[k - 1]
        .iter()
        .filter(|r| cells(k, r.0) <= max_n)
        .collect();
    let mut prev: Option<[f64; 4]> = None;
    let mut all = Vec::new();
    let (mut wv, mut wo) = (0.0f64, 0.0f64);
    for (i, &&(n, th)) in rows.iter().enumerate() {
        let t = Instant::now();
        let (e5, ns) = errors(k, cells(k, n), space);
        let e = [e5[0], e5[1], e5[2], e5[3]];
        let mut line = format!(
            "BJT {space:?} k={k} 1/h={n:3} on {0}x{0} ({ns} states):",
            cells(k, n)
        );
        for c in 0..4 {
            let d = (e[c] - th[c]) / th[c];
            if checked[c] {
                wv = wv.max(d.abs());
            }
            line.push_str(&format!(" {:.3e} ({:+.1} %)", e[c], 100.0 * d));
        }
        line.push_str(&format!(
            " [(m11, m22) part {:.3e} ({:+.1} %)]",
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
        "k={k} {space:?}: worst value diff {:.1} %, worst order diff {wo:.3}",
        100.0 * wv
    );
    assert!(wv < value_tol, "k={k}: value difference {wv}");
    assert!(wo < order_tol, "k={k}: order difference {wo}");
    (wv, wo, all)
}

/// Fast twin (about 1 s in release): k = 1, 2 on 1/h = 4, 8 (Tables B.6, B.7) and k = 3
/// on the printed 1/h = 2, 4 (computed on 4 × 4 and 8 × 8 cells: Table B.8 erratum, see
/// [`cells`]), with the thesis's spaces ([`BjtHdivSpace::QkDiv`]: the Firedrake script
/// builds `BDM_quad = HDiv(CG_k ⊗ DG_k) + HDiv(DG_k ⊗ CG_k)` for (m11, m22) and e_γ),
/// nodal initial data, Crank–Nicolson with Δt = h/10 and the Frobenius moment norm.
///
/// Measured: all four columns of all three tables within 0.5 % (the table's 3-digit
/// rounding is up to 0.1 %; the rest is the thesis's quadrature of the error integrals
/// and its exact-solution expressions evaluated by UFL), orders within 0.02.
/// Asserted: values within 2 %, orders within 0.05.
#[test]
fn bjt_convergence_coarse() {
    for k in 1..=3 {
        study(k, 8, BjtHdivSpace::QkDiv, [true; 4], 0.02, 0.05);
    }
}

/// The cause of the former E_κ mismatch (k = 1: +24 % at 1/h = 8, +60 % at 1/h = 64; k = 3:
/// +4 to +32 %): the rectangular Raviart–Thomas space RTCF_k = (CG_k ⊗ DG_{k−1}) ×
/// (DG_{k−1} ⊗ CG_k) for (m11, m22) and e_γ instead of the thesis code's Q_k^div =
/// (CG_k ⊗ DG_k) × (DG_k ⊗ CG_k). The kinematic errors e_w, e_θ (DQ_{k−1} in both) and
/// e_γ hardly notice, the moment error does: at k = 1, 1/h = 8 RTCF gives E_κ = 1.865e-8
/// (thesis 1.45e-8, +28.6 %; its (m11, m22) part alone 1.80e-8) while Q_k^div gives
/// 1.450e-8 (+0.0 %); e_w agrees within 3 % with either space. Asserted: RTCF E_κ more than 15 % above the table,
/// Q_k^div within 2 %, e_w within 3 % for both.
#[test]
fn bjt_rtcf_space_explains_moment_gap() {
    let th = TABLES[0][1].1; // k = 1, 1/h = 8
    let (rt, _) = errors(1, 8, BjtHdivSpace::Rtcf);
    let (qd, _) = errors(1, 8, BjtHdivSpace::QkDiv);
    let rel = |a: f64, b: f64| (a - b) / b;
    eprintln!(
        "k=1 1/h=8 E_kappa: RTCF {:.3e} ({:+.1} %), Q_k^div {:.3e} ({:+.1} %), table {:.3e}",
        rt[2],
        100.0 * rel(rt[2], th[2]),
        qd[2],
        100.0 * rel(qd[2], th[2]),
        th[2]
    );
    assert!(rel(rt[2], th[2]) > 0.15, "RTCF E_kappa {}", rt[2]);
    assert!(rel(qd[2], th[2]).abs() < 0.02, "Q_k^div E_kappa {}", qd[2]);
    for e in [rt, qd] {
        assert!(rel(e[0], th[0]).abs() < 0.03, "e_w {}", e[0]);
    }
}

/// Table B.8's e_θ at 1/h = 16 is printed as 2.05e-08, but the table's own orders around
/// it (3.19 into the row, 3.08 out of it) give 2.29e-07 / 2^3.19 = 2.50e-08 and
/// 2.94e-09 · 2^3.08 = 2.48e-08, while 2.05e-08 would give orders 3.48 and 2.80: the
/// printed value has its digits transposed (2.50 → 2.05). Our run gives 2.504e-08 there
/// (with orders 3.20, 3.09), confirming 2.50e-08. Asserted on the thesis's numbers only.
#[test]
fn table_b8_theta_typo() {
    let (e8, e32) = (2.29e-07f64, 2.94e-09f64);
    let (o_in, o_out) = (3.19f64, 3.08f64);
    let from_in = e8 / 2f64.powf(o_in);
    let from_out = e32 * 2f64.powf(o_out);
    for v in [from_in, from_out] {
        assert!((v - 2.50e-08).abs() < 0.02 * 2.50e-08, "{v}");
        assert!((v - 2.05e-08).abs() > 0.15 * 2.05e-08, "{v}");
    }
    assert_eq!(TABLES[2][3].1[1], 2.50e-08);
}

/// Full tables B.6–B.8 (all meshes up to 64 × 64 cells, 345 473 states for k = 3; about
/// 30 min in release on a loaded 2-core machine, 20 min of it the k = 3 64 × 64 run) with
/// the thesis's spaces. Measured: every value of the three tables within 0.8 % (k = 1:
/// 0.8 %, k = 2: 0.5 %, k = 3: 0.5 % with the corrected B.8 e_θ typo, 22 % against the
/// printed 2.05e-08), every order within 0.01 of the printed one. Asserted: values within
/// 2 %, orders within 0.05.
#[test]
#[ignore = "full convergence study (about 30 min in release); fast twin: bjt_convergence_coarse"]
fn bjt_convergence_full() {
    for k in 1..=3 {
        study(k, 64, BjtHdivSpace::QkDiv, [true; 4], 0.02, 0.05);
    }
}

/// Energy conservation: the unforced BJT plate (k = 2, 6 × 6 cells, clamped, both H(div)
/// spaces) integrated by the implicit midpoint rule from e_w = w_s, e_θ = θ_s conserves
/// H = ½ eᵀ E e to round-off (relative drift < 1e-12 over 100 steps of 0.01 s), since J
/// is skew; the energy split of `MindlinBjtModel::energy_split` sums to H.
#[test]
fn bjt_energy_conservation() {
    let p = benchmarks::thesis_params();
    for space in [BjtHdivSpace::QkDiv, BjtHdivSpace::Rtcf] {
        let model = MindlinBjt::rectangle(p, 1.0, 1.0, 6, 6, 2)
            .unwrap()
            .hdiv_space(space)
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
        let mut cn = common::integrate::midpoint(sys, InputFn::new(vec![]), 1.0, 0.01);
        let mut drift = 0.0f64;
        let mut moved = 0.0f64;
        let mut split_gap = 0.0f64;
        cn.run(&e0, &mut |_t: f64, e: &[f64]| {
            let h = energy(e);
            drift = drift.max((h - h0).abs() / h0);
            let s = model.energy_split(e).unwrap();
            split_gap = split_gap.max((s.iter().sum::<f64>() - h).abs() / h0);
            moved = moved.max(
                e.iter()
                    .zip(&e0)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max),
            );
        })
        .unwrap();
        eprintln!("BJT {space:?} energy drift {drift:e}, split gap {split_gap:e}");
        assert!(drift < 1e-12, "{drift}");
        assert!(split_gap < 1e-12, "{split_gap}");
        assert!(moved > 0.0);
    }
}
