//! Kirchhoff plate, HHJ discretization (thesis 004 §7.2.2, §7.4.3; summary §5.1.3):
//! eigenfrequencies of simply supported rectangles against the closed form, the thesis
//! convergence tables B.16–B.18 (SSSS) and B.20–B.22 (CSFS), energy conservation and the
//! discrete power balance with boundary ports.
mod common;
use common::plates::{simply_supported_sides, six_kirchhoff_modes};

use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::plate::kirchhoff::benchmarks::{Benchmark, ThesisRow};
use phlex_fem::models::plate::{BendingStiffness, EdgeCondition, KirchhoffHhj, KirchhoffParams};
use phlex_solve::midpoint::LinearMidpoint;
use phlex_solve::signal::{InputFn, Signal};

/// L∞-in-time errors [e_w in H¹, E_κ in L²] of a thesis benchmark with HHJ degree `k` on
/// the `n × n` mesh, as in the thesis (summary §5.1): Crank–Nicolson (implicit midpoint),
/// Δt = 0.1/n, t_f = 1 s, maximum over all time levels including t = 0; initial e_w =
/// nodal interpolant of w_s, E_κ = 0; load amplitude sin t averaged over each step by the
/// trapezoidal rule as in the thesis ([`Benchmark::thesis_load_amplitude`]).
fn benchmark_errors(bench: Benchmark, k: usize, n: usize, diag: Diagonal) -> [f64; 2] {
    let mesh = bench.mesh(n, diag).unwrap();
    let model = bench.model(&mesh, k).unwrap();
    let sys = model.system();
    sys.check(&Default::default()).unwrap();
    let forms = model
        .error_forms(&|x| bench.velocity(x), &|x| bench.moments(x))
        .unwrap();
    let e0 = model
        .interpolate_state(&|x| bench.velocity(x).0, None)
        .unwrap();
    let dt = bench.time_step(n);
    let load = Signal::from_fn(Benchmark::thesis_load_amplitude(dt));
    common::integrate::max_errors_in_time(sys, &e0, dt, load, |e, a, b| forms.errors(e, a, b))
}

/// Runs `bench` with degree `k` on the thesis meshes `rows` (Firedrake's default
/// `RectangleMesh` diagonal is "left") and checks the table against the thesis
/// ([`common::thesis_table::check_table`]). Returns the largest value and order differences.
fn check_table(
    bench: Benchmark,
    k: usize,
    rows: &[ThesisRow],
    value_tol: f64,
    order_tol: f64,
) -> (f64, f64) {
    let label = format!("{} k={k}", bench.name());
    let c = common::thesis_table::check_table(&label, rows, value_tol, order_tol, |r| {
        benchmark_errors(bench, k, r.inv_h, Diagonal::Left)
    });
    (c.worst_value, c.worst_order)
}

/// CI twin of the convergence study: all six thesis tables (B.16–B.18, B.20–B.22) on their
/// coarse meshes (1/h ≤ 8; 0.4 s in release). Same mesh, Δt, t_f, norms, initial data and
/// load sampling as the thesis, so the errors must agree with the printed values up to
/// their 3-digit rounding: measured ≤ 0.6 % (asserted 2 %; the brief allows 15 %). The observed orders on these pre-asymptotic meshes are
/// compared with the thesis's orders on the same meshes (±0.15, measured ≤ 0.02), not with
/// the asymptotic k: e.g. SSSS k = 1 e_w has order 1.41 between 1/h = 4 and 8. The
/// asymptotic rates are checked loosely: the last order is within 0.5 of k (coarse meshes
/// are still pre-asymptotic: CSFS k = 1 e_w 1.33, k = 2 E_κ 1.79).
#[test]
fn hhj_convergence_coarse() {
    for bench in Benchmark::ALL {
        for k in 1..=3 {
            let table: Vec<ThesisRow> = bench
                .thesis_table(k)
                .unwrap()
                .iter()
                .copied()
                .filter(|r| r.inv_h <= 8)
                .collect();
            check_table(bench, k, &table, 0.02, 0.15);
            let (a, b) = (table[table.len() - 2], table[table.len() - 1]);
            let ea = benchmark_errors(bench, k, a.inv_h, Diagonal::Left);
            let eb = benchmark_errors(bench, k, b.inv_h, Diagonal::Left);
            for c in 0..2 {
                let o = (ea[c] / eb[c]).log2();
                assert!(
                    (o - k as f64).abs() < 0.5,
                    "{} k={k}: last order {o}",
                    bench.name()
                );
            }
        }
    }
}

/// Full study: every mesh of Tables B.16–B.18 and B.20–B.22 (1/h up to 64 for k = 1, 2 and
/// 32 for k = 3; 55 s in release). Measured: all values within 0.9 % of the thesis, all
/// orders within 0.012 of the thesis's (finest meshes: SSSS k = 1, 2, 3 orders 1.01/1.00,
/// 2.00/2.00, 2.99/3.00; CSFS 1.00/0.99, 2.00/1.99, 2.97/2.99 for e_w/E_κ). Asserted: values
/// within 2 % (the brief allows 15 %), orders within ±0.15.
#[test]
#[ignore = "full convergence study (1/h up to 64, ~1 min in release); fast twin: hhj_convergence_coarse"]
fn hhj_convergence_full() {
    let (mut wv, mut wo) = (0.0f64, 0.0f64);
    for bench in Benchmark::ALL {
        for k in 1..=3 {
            let (v, o) = check_table(bench, k, bench.thesis_table(k).unwrap(), 0.02, 0.15);
            wv = wv.max(v);
            wo = wo.max(o);
        }
    }
    eprintln!(
        "largest value difference {:.2} %, largest order difference {:.3}",
        100.0 * wv,
        wo
    );
}

/// Both mesh diagonals give the same errors (the mirror-image meshes of a problem that is
/// symmetric in x ↦ x, y ↦ 1 − y for SSSS and y ↦ −y for CSFS).
#[test]
fn hhj_errors_independent_of_diagonal() {
    for bench in Benchmark::ALL {
        let a = benchmark_errors(bench, 2, 4, Diagonal::Left);
        let b = benchmark_errors(bench, 2, 4, Diagonal::Right);
        for c in 0..2 {
            assert!(
                (a[c] - b[c]).abs() < 1e-9 * a[c],
                "{}: {a:?} {b:?}",
                bench.name()
            );
        }
    }
}

/// SSSS rectangle a × b = 1.5 × 1: ω_mn = π²(m²/a² + n²/b²)√(D/ρh) (Navier solution), the
/// six lowest (m, n) = (1,1), (2,1), (1,2), (3,1), (2,2), (3,2). Table 7.3 material.
fn ssss_exact(p: &KirchhoffParams, a: f64, b: f64, count: usize) -> Vec<f64> {
    common::plates::navier_specially_orthotropic(
        &p.stiffness.voigt(),
        p.surface_density(),
        a,
        b,
        count,
    )
}

fn ssss_frequencies(
    p: KirchhoffParams,
    a: f64,
    b: f64,
    nx: usize,
    ny: usize,
    k: usize,
    shift: f64,
) -> (Vec<f64>, usize) {
    let mesh = Mesh2d::rectangle(0.0, a, 0.0, b, nx, ny, Diagonal::Right).unwrap();
    let model = simply_supported_sides(KirchhoffHhj::new(p, &mesh, k).unwrap())
        .build()
        .unwrap();
    (six_kirchhoff_modes(model.system(), shift), model.n_states())
}

/// Measured relative errors: k = 2 on 12 × 8 (h = 0.125, 1457 states): ≤ 3.1e-4 (from
/// below); k = 3 on 6 × 4 (805 states): ≤ 4.9e-4 (from above); asserted
/// < 0.5 % for the first six modes. k = 1 converges at O(h²): the errors on 12 × 8 and
/// 24 × 16 (1.3–8.2 % and 0.34–1.9 %) have ratios 3.5–4.2 (asserted 3–5). Anisotropic
/// check: a specially orthotropic plate (D11 = 2D, D22 = D, D12 = 0.3D, D66 = 0.5D) against
/// its Navier solution, k = 2 on 12 × 8, < 0.5 %.
#[test]
fn ssss_rectangle_frequencies() {
    let p = KirchhoffParams::isotropic(136e9, 0.3, 5600.0, 0.001).unwrap();
    let (a, b) = (1.5, 1.0);
    let exact = ssss_exact(&p, a, b, 6);
    let rel = |w: &[f64], ex: &[f64]| -> Vec<f64> {
        assert_eq!(w.len(), 6);
        w.iter().zip(ex).map(|(x, y)| (x - y) / y).collect()
    };
    let (w2, n2) = ssss_frequencies(p, a, b, 12, 8, 2, exact[0]);
    let r2 = rel(&w2, &exact);
    eprintln!("k=2 12x8 ({n2} states): {w2:.4?} rel {r2:?}");
    assert!(r2.iter().all(|r| r.abs() < 5e-3), "{r2:?}");
    let (w3, _) = ssss_frequencies(p, a, b, 6, 4, 3, exact[0]);
    let r3 = rel(&w3, &exact);
    eprintln!("k=3 6x4: rel {r3:?}");
    assert!(r3.iter().all(|r| r.abs() < 5e-3), "{r3:?}");
    let (w1a, _) = ssss_frequencies(p, a, b, 12, 8, 1, exact[0]);
    let (w1b, _) = ssss_frequencies(p, a, b, 24, 16, 1, exact[0]);
    let (ra, rb) = (rel(&w1a, &exact), rel(&w1b, &exact));
    for (x, y) in ra.iter().zip(&rb) {
        let q = x / y;
        assert!((3.0..5.0).contains(&q), "k = 1 ratio {q} ({ra:?} / {rb:?})");
    }
    // orthotropic
    let d = p.stiffness.voigt()[0][0];
    let po = KirchhoffParams {
        stiffness: BendingStiffness::orthotropic(2.0 * d, 0.3 * d, d, 0.5 * d).unwrap(),
        ..p
    };
    let exo = ssss_exact(&po, a, b, 6);
    let (wo, _) = ssss_frequencies(po, a, b, 12, 8, 2, exo[0]);
    let ro = rel(&wo, &exo);
    eprintln!("orthotropic k=2 12x8: rel {ro:?}");
    assert!(ro.iter().all(|r| r.abs() < 5e-3), "{ro:?}");
}

/// Lossless SSSS plate: the implicit midpoint rule conserves H = ½eᵀEe exactly for
/// E ė = J e (J skew), so over 1000 steps the relative drift is round-off: asserted
/// 1e-10 (measured in the 1e-14 range).
#[test]
fn ssss_energy_conserved() {
    let bench = Benchmark::Ssss;
    let mesh = bench.mesh(8, Diagonal::Left).unwrap();
    let model = bench.model(&mesh, 2).unwrap();
    let sys = model.system();
    let e0 = model
        .interpolate_state(
            &|x| x[0] * (1.0 - x[0]) * x[1] * (1.0 - x[1]) * (1.0 + 3.0 * x[0]),
            None,
        )
        .unwrap();
    let mut cn = common::integrate::midpoint(sys, InputFn::zeros(sys.n_inputs()), 0.5, 5e-4);
    let h0 = sys.hamiltonian(&e0);
    let mut worst = 0.0f64;
    let mut moved = 0.0f64;
    let res = cn
        .run(&e0, &mut |_t: f64, e: &[f64]| {
            worst = worst.max((sys.hamiltonian(e) - h0).abs() / h0);
            let ew = sys.block_range("E_kappa").unwrap();
            let ek: f64 = e[ew].iter().map(|v| v * v).sum();
            moved = moved.max(ek);
        })
        .unwrap();
    eprintln!(
        "SSSS energy drift {worst:.2e} over {} steps",
        res.stats.steps
    );
    assert!(moved > 0.0, "the moments must be excited");
    assert!(worst < 1e-10, "{worst}");
    assert!(res.ledger.relative_drift() < 1e-10);
}

/// Boundary-forced plate with every port type (left clamped; right free port: q_n and
/// M_nn; top simply supported port: w_t and M_nn; bottom clamped port: w_t and d_n w_t;
/// plus a distributed load): the midpoint scheme satisfies H_{n+1} − H_n = h ȳᵀū
/// (ȳ = Bᵀē) exactly, the multiplier blocks included (their E rows vanish). Inputs are
/// smooth and vanish at t = 0 so the zero initial state is consistent with the essential
/// ones. Asserted: step residual < 1e-10 relative to the energy scale, and the supplied
/// work is not negligible (the test is not vacuous).
#[test]
fn ports_power_balance() {
    let mesh = Mesh2d::unit_square(6, Diagonal::Right).unwrap();
    let p = KirchhoffParams::isotropic(70e9, 0.35, 2700.0, 0.01).unwrap();
    let model = KirchhoffHhj::new(p, &mesh, 2)
        .unwrap()
        .clamped("left")
        .port("right", EdgeCondition::Free)
        .port("top", EdgeCondition::SimplySupported)
        .port("bottom", EdgeCondition::Clamped)
        .load("load", std::sync::Arc::new(|x: [f64; 2]| x[0] * x[1]))
        .build()
        .unwrap();
    let sys = model.system();
    sys.check(&Default::default()).unwrap();
    // amplitudes of each port: forces/moments ~1, velocities ~1e-3 m/s, rotations ~1e-3
    let scale = common::integrate::port_scales(sys, |name| {
        if name.ends_with("wt") || name.ends_with("dnwt") {
            1e-3
        } else {
            1.0
        }
    });
    let input = common::integrate::sine_inputs(&scale, 20.0, 1.0);
    let l = &common::integrate::ledger_from_rest(sys, input, 0.2, 1e-3);
    let supplied = common::integrate::total_work(l);
    eprintln!(
        "power balance: max rel residual {:.2e}, drift {:.2e}, H_end {:.3e}, |work| {:.3e}",
        l.max_relative_residual(),
        l.relative_drift(),
        l.hamiltonian.last().unwrap(),
        supplied
    );
    assert!(supplied > 1e-6 * l.energy_scale() && l.energy_scale() > 0.0);
    assert!(l.max_relative_residual() < 1e-10);
    assert!(l.relative_drift() < 1e-9);
}

/// Boundary damping injection on the cantilever plate of thesis §8.1.1 (Table 8.1):
/// [0, 1]², E = 70 GPa, ρ = 2700 kg/m³, ν = 0.35, h = 0.05 m, clamped at x = 0, the other
/// three edges Γ_N a free port (inputs q̃_n, M_nn); initial velocity e_w = x² y (y − 1),
/// E_κ = 0; from t = 1 s the control q̃_n = −k_q w_t, M_nn = −k_m ∂_n w_t (k_q = k_m = 10)
/// is applied as output feedback u = −K y, K = k M_Γ⁻¹ (phlex_core feedback damping, i.e.
/// R = B K Bᵀ ⪰ 0). HHJ k = 2 on 8 × 8 (the thesis used Argyris on 6 × 6 with
/// Störmer–Verlet, Δt = 1 µs); implicit midpoint with Δt = 1 ms (the first bending mode,
/// ≈ 44 Hz, has 23 steps per period), 0.8 s in release.
///
/// Asserted: (a) before the control, H is conserved (relative drift < 1e-8; measured 1.7e-9,
/// larger than the SSSS plate's 4e-14 because the M_nn multiplier makes the step matrix a
/// saddle point with entries from ρh = 135 to 𝒞_b ≈ 1e-6); (b) after it, H decreases at every
/// step (to 1e-10 H₀) and the discrete power balance with dissipation
/// H_n − H(1) + ∫ eᵀRe = 0 holds to 1e-8 (measured 1.9e-10); (c) the decay: the thesis
/// shows H "almost zero by t ≈ 4 s" (figure only); measured H(4)/H(1) = 0.040,
/// H(5)/H(1) = 0.014, asserted < 0.05 and < 0.02.
#[test]
fn cantilever_boundary_damping() {
    let mut mesh = Mesh2d::unit_square(8, Diagonal::Right).unwrap();
    mesh.tag_boundary("gamma_n", |p| p[0] > 1e-9).unwrap();
    let p = KirchhoffParams::isotropic(70e9, 0.35, 2700.0, 0.05).unwrap();
    let model = KirchhoffHhj::new(p, &mesh, 2)
        .unwrap()
        .clamped("left")
        .port("gamma_n", EdgeCondition::Free)
        .build()
        .unwrap();
    let open = model.system();
    let gain_q = model.boundary_damping_gain("gamma_n_qn", 10.0).unwrap();
    let gain_m = model.boundary_damping_gain("gamma_n_Mnn", 10.0).unwrap();
    let closed = open
        .with_output_feedback("gamma_n_qn", &gain_q)
        .unwrap()
        .with_output_feedback("gamma_n_Mnn", &gain_m)
        .unwrap();
    closed.check(&Default::default()).unwrap();
    assert_eq!(closed.n_inputs(), 0);
    assert!(model.boundary_damping_gain("gamma_n_qn", -1.0).is_err());
    let e0 = model
        .interpolate_state(&|x| x[0] * x[0] * x[1] * (x[1] - 1.0), None)
        .unwrap();
    let step = |t0: f64, t1: f64| common::integrate::midpoint_params(t0, t1, 1e-3);
    let mut hist: Vec<(f64, f64)> = Vec::new();
    let mut cn =
        LinearMidpoint::new(open, InputFn::zeros(open.n_inputs()), step(0.0, 1.0)).unwrap();
    let r0 = cn
        .run(&e0, &mut |t: f64, e: &[f64]| {
            hist.push((t, open.hamiltonian(e)))
        })
        .unwrap();
    let n_open = hist.len();
    let mut cl = LinearMidpoint::new(&closed, InputFn::zeros(0), step(1.0, 5.0)).unwrap();
    let r1 = cl
        .run(&r0.state, &mut |t: f64, e: &[f64]| {
            hist.push((t, closed.hamiltonian(e)))
        })
        .unwrap();
    let h0 = hist[0].1;
    let at = |t: f64| {
        hist.iter()
            .min_by(|a, b| (a.0 - t).abs().total_cmp(&(b.0 - t).abs()))
            .unwrap()
            .1
    };
    let (h1, h4, h5) = (at(1.0), at(4.0), at(5.0));
    eprintln!(
        "H(0) = {h0:.5e}, H(1) = {h1:.5e}, H(4)/H(1) = {:.4}, H(5)/H(1) = {:.4}; drift open {:.2e}, closed {:.2e}, dissipated {:.4e}",
        h4 / h1,
        h5 / h1,
        r0.ledger.relative_drift(),
        r1.ledger.relative_drift(),
        r1.ledger.dissipated.last().unwrap()
    );
    assert!(r0.ledger.relative_drift() < 1e-8);
    for w in hist[n_open..].windows(2) {
        assert!(
            w[1].1 <= w[0].1 + 1e-10 * h0,
            "H increased at t = {}",
            w[1].0
        );
    }
    assert!(r1.ledger.relative_drift() < 1e-8);
    assert!(r1.ledger.dissipated.last().unwrap() > &(0.9 * h1));
    assert!(h4 / h1 < 0.05 && h5 / h1 < 0.02, "{} {}", h4 / h1, h5 / h1);
}
