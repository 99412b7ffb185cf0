//! Kirchhoff plate, BellDG3 dual-mixed discretization (thesis 004 §7.3.2, §7.4.3; summary
//! §5.1.3): the thesis convergence tables B.19 (SSSS) and B.23 (CSFS), the same benchmarks
//! with exactly imposed boundary conditions (order 3), simply supported eigenfrequencies
//! against the Navier closed form, exact edge conditions on a rotated mesh, the boundary
//! port matrices and energy conservation; the essential (clamped / supported) boundary ports:
//! zero input = strong condition, power balance with every port driven, and a clamped
//! port driven by an edge rotation against the static closed form.
#![allow(non_snake_case, clippy::needless_range_loop)]
mod common;
use common::plates::{simply_supported_sides, six_kirchhoff_modes};

use faer::linalg::solvers::Solve;
use phlex_core::sparse;
use phlex_fem::element::triangle::bell::C1Family;
use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::plate::kirchhoff::benchmarks::{Benchmark, ThesisRow};
use phlex_fem::models::plate::kirchhoff_bell::benchmarks::{model, thesis_table};
use phlex_fem::models::plate::kirchhoff_bell::BellFunctional;
use phlex_fem::models::plate::{BellImposition, EdgeCondition, KirchhoffBell, KirchhoffParams};
use phlex_solve::eigen::{modes, EigenMethod, EigenParams};
use phlex_solve::signal::{InputFn, Signal};
use std::f64::consts::PI;
use std::time::Instant;

/// Initial velocity of the runs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Init {
    /// Nodal interpolant (value and derivatives at the vertices).
    Interpolant,
    /// Unconstrained L² projection onto the Bell space, then restricted to the kept DOFs
    /// (the thesis scripts: Firedrake `project`, then least squares on the kept DOFs).
    ThesisProjection,
}

/// L∞-in-time errors [e_w in H², E_κ in L²] of a thesis benchmark on the `n × n` mesh with
/// the thesis's time discretization (as in `plate_kirchhoff.rs`, which reproduces B.16–B.22):
/// Crank–Nicolson (implicit midpoint), Δt = 0.1/n, t_f = 1 s, maximum over all time levels
/// including t = 0, E_κ(0) = 0, load amplitude sin t averaged by the trapezoidal rule.
fn errors(bench: Benchmark, n: usize, fam: C1Family, imp: BellImposition, init: Init) -> [f64; 2] {
    let mesh = bench.mesh(n, Diagonal::Left).unwrap();
    let m = model(bench, &mesh, fam, imp).unwrap();
    let sys = m.system();
    let forms = m
        .error_forms(&|x| bench.deflection(x), &|x| bench.moments(x))
        .unwrap();
    let e0 = match init {
        Init::Interpolant => m.interpolate_state(&|x| bench.deflection(x)).unwrap(),
        Init::ThesisProjection => m
            .project_state_unconstrained(&|x| bench.deflection(x)[0])
            .unwrap(),
    };
    let dt = bench.time_step(n);
    let load = Signal::from_fn(Benchmark::thesis_load_amplitude(dt));
    common::integrate::max_errors_in_time(sys, &e0, dt, load, |e, a, b| forms.errors(e, a, b))
}

/// Runs the thesis scheme (vertex-only conditions, projected initial velocity) on the
/// meshes `rows` and checks the table against the thesis
/// ([`common::thesis_table::check_table`]). Returns the measured errors.
fn check_thesis_table(
    bench: Benchmark,
    rows: &[ThesisRow],
    value_tol: f64,
    order_tol: f64,
) -> Vec<[f64; 2]> {
    let label = format!("{} BellDG3 (thesis BCs)", bench.name());
    common::thesis_table::check_table(&label, rows, value_tol, order_tol, |r| {
        errors(
            bench,
            r.inv_h,
            C1Family::Bell,
            BellImposition::ThesisVertex,
            Init::ThesisProjection,
        )
    })
    .errors
}

/// Runs `bench` with exactly imposed conditions ([`BellImposition::Exact`], interpolated
/// initial velocity) on `1/h = ns`, prints the table and returns the errors.
fn exact_table(bench: Benchmark, fam: C1Family, ns: &[usize]) -> Vec<[f64; 2]> {
    let mut out: Vec<[f64; 2]> = Vec::new();
    for (i, &n) in ns.iter().enumerate() {
        let t = Instant::now();
        let e = errors(bench, n, fam, BellImposition::Exact, Init::Interpolant);
        let th = thesis_table(bench).iter().find(|r| r.inv_h == n);
        let mut line = format!(
            "{} {}DG3 (exact BCs) 1/h={n:2}: e_w {:.3e}  E_k {:.3e}",
            bench.name(),
            fam.name(),
            e[0],
            e[1]
        );
        if let Some(r) = th {
            line.push_str(&format!(" (thesis {:.2e}, {:.2e})", r.e_w, r.e_kappa));
        }
        if i > 0 {
            let ratio = (n as f64 / ns[i - 1] as f64).log2();
            let p = out[i - 1];
            line.push_str(&format!(
                "  orders {:.2} {:.2}",
                (p[0] / e[0]).log2() / ratio,
                (p[1] / e[1]).log2() / ratio
            ));
        }
        eprintln!("{line} [{:.2?}]", t.elapsed());
        out.push(e);
    }
    out
}

/// CI twin of the BellDG3 study on the thesis meshes 1/h = 2, 4, 8 (~0.5 s in release).
///
/// With the thesis's boundary treatment (only vertex values, and at the clamped edge
/// vertex normal derivatives, set to zero; initial velocity = unconstrained L² projection
/// restricted to the kept DOFs; same mesh, Δt, t_f, norms and load sampling) the errors
/// reproduce Tables B.19 and B.23: measured within 0.5 % of the printed 3-digit values
/// (largest: CSFS 1/h = 8 E_κ 1.507 vs 1.50), orders within 0.01; asserted 2 % (the brief
/// allows 15 %) and ±0.1.
///
/// With the conditions imposed exactly on the Bell DOFs ([`BellImposition::Exact`]: value,
/// tangential and tangential second derivative, plus normal and mixed derivatives on the
/// clamped edge), the same scheme is the standard Bell Galerkin plate and converges at the
/// optimal order 3 in H² (Bell reproduces P4; the moment space contains Hess of Bell):
/// measured orders 3.05/3.08 (SSSS) and 2.88/2.92 (CSFS) between 1/h = 4 and 8, errors 145×
/// (SSSS) and 14× (CSFS) below the thesis at 1/h = 8. Asserted: last orders in [2.7, 3.4],
/// errors at 1/h = 8 at least 10× below the thesis. The thesis's h^1.5 rate is therefore
/// caused by the vertex-only boundary conditions, not by the element pair.
#[test]
fn belldg3_convergence_coarse() {
    for bench in Benchmark::ALL {
        let rows: Vec<ThesisRow> = thesis_table(bench)
            .iter()
            .copied()
            .filter(|r| r.inv_h <= 8)
            .collect();
        check_thesis_table(bench, &rows, 0.02, 0.1);
        let ex = exact_table(bench, C1Family::Bell, &[4, 8]);
        for c in 0..2 {
            let o = (ex[0][c] / ex[1][c]).log2();
            assert!(
                (2.7..3.4).contains(&o),
                "{} field {c}: order {o}",
                bench.name()
            );
        }
        let th8 = rows.iter().find(|r| r.inv_h == 8).unwrap();
        assert!(ex[1][0] * 10.0 < th8.e_w && ex[1][1] * 10.0 < th8.e_kappa);
    }
}

/// Full study: Tables B.19 and B.23 on every thesis mesh (1/h up to 32; 50 s in release)
/// with the thesis's boundary treatment, then the exactly imposed conditions for Bell
/// (1/h ≤ 16) and Argyris (1/h ≤ 8). Asserted: values within 2 % and orders within ±0.1 of
/// the thesis. Measured (thesis in parentheses):
///
/// | 1/h | SSSS e_w | SSSS E_κ | CSFS e_w | CSFS E_κ |
/// |---|---|---|---|---|
/// | 2 | 6.637 (6.63) | 36.08 (36.0) | 38.86 (38.8) | 24.05 (24.0) |
/// | 4 | 1.910 (1.91) | 9.991 (9.99) | 8.173 (8.17) | 4.411 (4.41) |
/// | 8 | 0.6087 (0.608) | 3.291 (3.29) | 2.715 (2.71) | 1.507 (1.50) |
/// | 16 | 0.2092 (0.209) | 1.142 (1.14) | 1.134 (1.13) | 0.5363 (0.536) |
/// | 32 | 0.07345 (0.0734) | 0.4018 (0.401) | 0.4355 (0.435) | 0.1902 (0.190) |
///
/// Exact conditions, Bell: SSSS e_w 0.390, 3.77e-2, 4.18e-3, 5.03e-4 and E_κ 2.89, 0.314,
/// 3.70e-2, 4.59e-3 (orders → 3.05/3.01); CSFS e_w 9.93, 1.43, 0.194, 2.50e-2 and E_κ 5.87,
/// 0.854, 0.113, 1.47e-2 (orders → 2.96/2.94). Argyris (Hess P5 = P3 ⊂ DG3, order 4):
/// SSSS e_w 1.77e-3, CSFS 6.21e-2 at 1/h = 8 (orders 3.97/4.04, 3.83/3.97).
#[test]
#[ignore = "full BellDG3 study (1/h up to 32, 50 s in release); fast twin: belldg3_convergence_coarse"]
fn belldg3_convergence_full() {
    for bench in Benchmark::ALL {
        check_thesis_table(bench, thesis_table(bench), 0.02, 0.1);
        exact_table(bench, C1Family::Bell, &[2, 4, 8, 16]);
        exact_table(bench, C1Family::Argyris, &[2, 4, 8]);
    }
}

/// SSSS rectangle a × b = 1.5 × 1, Table 7.3 material: the six lowest
/// ω_mn = π²(m²/a² + n²/b²)√(D/ρh) ((m, n) = (1,1), (2,1), (1,2), (3,1), (2,2), (3,2)).
/// Bell × DG3 with exact conditions on 6 × 4 cells (1582 states): measured relative errors
/// 3.8e-6 … 3.7e-4 (from above); Argyris × DG3 on 6 × 4 (1664 states): 1.5e-7 … 2.0e-4.
/// Asserted < 0.5 % (brief). With the thesis's vertex-only conditions the plate is
/// under-constrained (the edges may move between vertices) and the frequencies fall
/// 0.24 % … 2.8 % below the exact ones (printed, not asserted).
#[test]
fn ssss_rectangle_frequencies_bell() {
    let p = KirchhoffParams::isotropic(136e9, 0.3, 5600.0, 0.001).unwrap();
    let (a, b) = (1.5, 1.0);
    let d = p.stiffness.voigt()[0][0];
    let mut exact: Vec<f64> = (1..6)
        .flat_map(|m| (1..6).map(move |n| (m as f64, n as f64)))
        .map(|(m, n)| {
            PI * PI * (m * m / (a * a) + n * n / (b * b)) * (d / p.surface_density()).sqrt()
        })
        .collect();
    exact.sort_by(|x, y| x.partial_cmp(y).unwrap());
    exact.truncate(6);
    let mesh = Mesh2d::rectangle(0.0, a, 0.0, b, 6, 4, Diagonal::Right).unwrap();
    for (fam, imp, assert) in [
        (C1Family::Bell, BellImposition::Exact, true),
        (C1Family::Argyris, BellImposition::Exact, true),
        (C1Family::Bell, BellImposition::ThesisVertex, false),
    ] {
        let b = KirchhoffBell::new(p, &mesh, fam).unwrap().imposition(imp);
        let m = simply_supported_sides(b).build().unwrap();
        let w = six_kirchhoff_modes(m.system(), exact[0]);
        assert_eq!(w.len(), 6);
        let rel: Vec<f64> = w.iter().zip(&exact).map(|(x, y)| (x - y) / y).collect();
        eprintln!(
            "{} {imp:?} 6x4 ({} states): rel {rel:?}",
            fam.name(),
            m.n_states()
        );
        if assert {
            assert!(rel.iter().all(|r| r.abs() < 5e-3), "{rel:?}");
        }
    }
}

/// Exact conditions on a non-axis-aligned boundary: the unit square rotated by 30°, all
/// edges clamped (or simply supported). For random reduced coefficients z, the velocity
/// Tz and (clamped) its normal derivative vanish at 5 points of every boundary edge
/// (< 1e-12 relative to the field's size), for Bell and Argyris.
#[test]
fn exact_conditions_on_rotated_edges() {
    let base = Mesh2d::unit_square(3, Diagonal::Left).unwrap();
    let (s, c) = (PI / 6.0).sin_cos();
    let verts: Vec<[f64; 2]> = base
        .vertices()
        .iter()
        .map(|p| [c * p[0] - s * p[1], s * p[0] + c * p[1]])
        .collect();
    let mut mesh = Mesh2d::new(verts, base.triangles().to_vec()).unwrap();
    mesh.tag_boundary("all", |_| true).unwrap();
    let p = KirchhoffParams::isotropic(70e9, 0.3, 2700.0, 0.01).unwrap();
    for fam in [C1Family::Bell, C1Family::Argyris] {
        for cond in [EdgeCondition::Clamped, EdgeCondition::SimplySupported] {
            let b = KirchhoffBell::new(p, &mesh, fam).unwrap();
            let b = match cond {
                EdgeCondition::Clamped => b.clamped("all"),
                _ => b.simply_supported("all"),
            };
            let m = b.build().unwrap();
            let nr = m.system().block_range("e_w").unwrap().len();
            let mut e = vec![0.0; m.n_states()];
            let mut st = 17u64;
            for v in e.iter_mut().take(nr) {
                st = st
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *v = ((st >> 11) as f64 / (1u64 << 53) as f64) - 0.5;
            }
            let w = m.velocity_coefficients(&e).unwrap();
            let sp = m.velocity_space();
            // coefficient size as reference (the boundary values themselves are ~0)
            let scale = w.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let mut worst = 0.0f64;
            for be in mesh.boundary_edges() {
                let [a, bb] = mesh.edges()[be.edge];
                let (A, B) = (mesh.vertices()[a], mesh.vertices()[bb]);
                let n = mesh.outward_normal(be);
                for q in 0..5 {
                    let t = q as f64 / 4.0;
                    let x = [A[0] + t * (B[0] - A[0]), A[1] + t * (B[1] - A[1])];
                    let v = sp.evaluate_in_cell(&w, be.cell, x);
                    worst = worst.max(v[0].abs());
                    if cond == EdgeCondition::Clamped {
                        worst = worst.max((v[1] * n[0] + v[2] * n[1]).abs());
                    }
                }
            }
            eprintln!(
                "{} {cond:?}: boundary residual {worst:.2e} (coefficient scale {scale:.2})",
                fam.name()
            );
            assert!(worst < 1e-12 * scale.max(1.0), "{fam:?} {cond:?}: {worst}");
            m.system().check(&Default::default()).unwrap();
        }
    }
}

/// Boundary port matrices: for the interpolant of a quartic velocity w (exact in Bell) on a
/// plate with a free-edge port on "right" and a simply supported rotation port on "top"
/// (w_t = 0 strong, M_nn input), e_wᵀ B u
/// equals ∫ w q_n + ∂_n w M_nn computed independently (1D Gauss on the edges, analytic
/// derivatives) for inputs given as per-edge Legendre coefficients; and the lossless plate
/// conserves H under the implicit midpoint rule (relative drift < 1e-10 over 200 steps).
#[test]
fn ports_power_and_energy() {
    let mesh = Mesh2d::rectangle(0.0, 1.0, 0.0, 0.5, 4, 2, Diagonal::Right).unwrap();
    let p = KirchhoffParams::isotropic(70e9, 0.35, 2700.0, 0.01).unwrap();
    let m = KirchhoffBell::new(p, &mesh, C1Family::Bell)
        .unwrap()
        .clamped("left")
        .port("right", EdgeCondition::Free)
        .rotation_port("top", EdgeCondition::SimplySupported)
        .free("bottom")
        .build()
        .unwrap();
    let sys = m.system();
    sys.check(&Default::default()).unwrap();
    let names = sys.ports.names();
    assert_eq!(names, vec!["right_qn", "right_Mnn", "top_Mnn"]);
    // w = x²(1 + y)(2 − x) + x² y² (w = w_x = 0 at the clamped x = 0); the state keeps
    // only the constrained part T Tᵀ w_I of its interpolant, and both sides use that field
    let f = |x: [f64; 2]| {
        let (X, Y) = (x[0], x[1]);
        [
            X * X * (1.0 + Y) * (2.0 - X) + X * X * Y * Y,
            (4.0 * X - 3.0 * X * X) * (1.0 + Y) + 2.0 * X * Y * Y,
            X * X * (2.0 - X) + 2.0 * X * X * Y,
            (4.0 - 6.0 * X) * (1.0 + Y) + 2.0 * Y * Y,
            4.0 * X - 3.0 * X * X + 4.0 * X * Y,
            2.0 * X * X,
        ]
    };
    let e = m.interpolate_state(&f).unwrap();
    let w = m.velocity_coefficients(&e).unwrap();
    let sp = m.velocity_space();
    // random inputs
    let nu = sys.n_inputs();
    let u: Vec<f64> = (0..nu)
        .map(|i| ((i * 37 % 11) as f64 - 5.0) / 3.0)
        .collect();
    let Bu = phlex_core::sparse::mul_vec(&sys.B, &u);
    let lhs: f64 = e.iter().zip(&Bu).map(|(a, b)| a * b).sum();
    // independent: ∫ over the tag edges of (field of w_h) × (Legendre input)
    let leg = |j: usize, s: f64| {
        let x = 2.0 * s - 1.0;
        [
            1.0,
            x,
            0.5 * (3.0 * x * x - 1.0),
            0.5 * (5.0 * x * x * x - 3.0 * x),
        ][j]
    };
    let gl = phlex_fem::quadrature::GaussLegendre::new(8).unwrap();
    let mut rhs = 0.0;
    let mut off = 0;
    for (tag, with_q) in [("right", true), ("top", false)] {
        let edges = mesh.tagged_edges(tag).unwrap();
        let ne = edges.len() * 4;
        for kind in 0..if with_q { 2 } else { 1 } {
            let is_q = with_q && kind == 0;
            for (ie, be) in edges.iter().enumerate() {
                let [a, b] = mesh.edges()[be.edge];
                let (A, B) = (mesh.vertices()[a], mesh.vertices()[b]);
                let l = mesh.edge_length(be.edge);
                let n = mesh.outward_normal(be);
                for (&s, &wq) in gl.points.iter().zip(&gl.weights) {
                    let x = [A[0] + s * (B[0] - A[0]), A[1] + s * (B[1] - A[1])];
                    let v = sp.evaluate_in_cell(&w, be.cell, x);
                    let field = if is_q {
                        v[0]
                    } else {
                        v[1] * n[0] + v[2] * n[1]
                    };
                    for j in 0..4 {
                        rhs += wq * l * field * leg(j, s) * u[off + ie * 4 + j];
                    }
                }
            }
            off += ne;
        }
    }
    eprintln!("e^T B u = {lhs:.12e}, boundary integral = {rhs:.12e}");
    assert!(
        (lhs - rhs).abs() < 1e-10 * rhs.abs().max(1.0),
        "{lhs} vs {rhs}"
    );

    // lossless energy conservation (ports closed with zero input)
    let mut cn = common::integrate::midpoint(sys, InputFn::zeros(nu), 0.02, 1e-4);
    let h0 = sys.hamiltonian(&e);
    let mut worst = 0.0f64;
    cn.run(&e, &mut |_t: f64, x: &[f64]| {
        worst = worst.max((sys.hamiltonian(x) - h0).abs() / h0);
    })
    .unwrap();
    eprintln!("energy drift {worst:.2e}");
    assert!(worst < 1e-10);
}

/// Lowest `n` nonzero frequencies by the dense path (exact null-space reduction of the
/// multipliers, so a port with zero input and the strong condition give the same pencil up
/// to round-off).
fn dense_frequencies(sys: &phlex_core::LinearPhSystem, n: usize) -> Vec<f64> {
    let res = modes(
        sys,
        &EigenParams {
            method: EigenMethod::Dense,
            zero_tol: 1e-6,
            ..Default::default()
        },
    )
    .unwrap();
    let mut w = res.frequencies();
    w.truncate(n);
    w
}

/// Zero input on an essential port is the strong homogeneous condition: a 3 × 2 plate with
/// the left edge clamped through `port(Clamped)` (multipliers for w_t and ∂_n w_t), through
/// `rotation_port(Clamped)` (w_t strong, ∂_n w_t multiplier), and simply supported through
/// `port(SimplySupported)` (w_t multiplier, M_nn natural), against the same plates with
/// `clamped` / `simply_supported`: the 8 lowest frequencies agree to 1e-10 relative (the
/// constrained velocity spaces are identical; measured ≈ 1e-13), for Bell and Argyris and
/// both impositions. Also: the multiplier blocks, port dimensions and pH structure.
#[test]
fn essential_ports_zero_input_equal_strong_conditions() {
    let mesh = Mesh2d::rectangle(0.0, 1.5, 0.0, 1.0, 3, 2, Diagonal::Right).unwrap();
    let p = KirchhoffParams::isotropic(70e9, 0.3, 2700.0, 0.01).unwrap();
    for (fam, imp) in [
        (C1Family::Bell, BellImposition::Exact),
        (C1Family::Argyris, BellImposition::Exact),
        (C1Family::Bell, BellImposition::ThesisVertex),
    ] {
        let base = || {
            KirchhoffBell::new(p, &mesh, fam)
                .unwrap()
                .imposition(imp)
                .simply_supported("bottom")
                .free("top")
        };
        let strong_c = base().clamped("left").build().unwrap();
        let strong_s = base().simply_supported("left").build().unwrap();
        let cases = [
            (
                "port(C)",
                base().port("left", EdgeCondition::Clamped),
                &strong_c,
            ),
            (
                "rotation_port(C)",
                base().rotation_port("left", EdgeCondition::Clamped),
                &strong_c,
            ),
            (
                "port(S)",
                base().port("left", EdgeCondition::SimplySupported),
                &strong_s,
            ),
        ];
        for (what, b, strong) in cases {
            let m = b.build().unwrap();
            let sys = m.system();
            sys.check(&Default::default()).unwrap();
            // multiplier block sizes = port dims; the left edge has 3 vertices, one of them
            // shared with the supported bottom edge (w, ∂_x w, ∂_xx w fixed there)
            let names = sys.ports.names();
            for name in &names {
                if name.ends_with("_wt") || name.ends_with("_dnwt") {
                    let dim = m.port_functionals(name).unwrap().len();
                    assert_eq!(
                        sys.block_range(&format!("lambda_{name}")).unwrap().len(),
                        dim
                    );
                }
            }
            let w0 = dense_frequencies(strong.system(), 8);
            let w1 = dense_frequencies(sys, 8);
            let worst = w0
                .iter()
                .zip(&w1)
                .map(|(a, b)| ((a - b) / a).abs())
                .fold(0.0f64, f64::max);
            eprintln!(
                "{} {imp:?} {what}: ports {names:?}, ω1 = {:.6e}, max rel diff {worst:.1e}",
                fam.name(),
                w0[0]
            );
            assert_eq!(w0.len(), 8);
            assert_eq!(w1.len(), 8);
            assert!(worst < 1e-10, "{what}: {w0:?} vs {w1:?}");
        }
    }
}

/// Discrete power balance with every kind of boundary port driven: a 4 × 2 plate with a
/// clamped port on "left" (`left_wt`, `left_dnwt`), a free port on "right" (`right_qn`,
/// `right_Mnn`), a simply supported port on "top" (`top_wt`, `top_Mnn`; its corner with
/// "left" is shared) and a clamped rotation port on "bottom" (`bottom_dnwt`), inputs
/// a_i sin(ω_i t) (velocities 1e-3 m/s, rotations 1e-3 rad/s, forces 1 N/m), implicit
/// midpoint h = 1e-4 s over 200 steps: every step satisfies H₁ − H₀ = h ȳᵀū to 1e-10 of
/// the energy scale (the ledger of the integrator; measured ~1e-13), with nonzero work on
/// each port, for Bell and Argyris.
#[test]
fn essential_ports_power_balance() {
    let mesh = Mesh2d::rectangle(0.0, 1.0, 0.0, 0.5, 4, 2, Diagonal::Right).unwrap();
    let p = KirchhoffParams::isotropic(70e9, 0.35, 2700.0, 0.01).unwrap();
    for fam in [C1Family::Bell, C1Family::Argyris] {
        let m = KirchhoffBell::new(p, &mesh, fam)
            .unwrap()
            .port("left", EdgeCondition::Clamped)
            .port("right", EdgeCondition::Free)
            .port("top", EdgeCondition::SimplySupported)
            .rotation_port("bottom", EdgeCondition::Clamped)
            .build()
            .unwrap();
        let sys = m.system();
        common::assert_ph(
            sys,
            &[
                "left_wt",
                "left_dnwt",
                "right_qn",
                "right_Mnn",
                "top_wt",
                "top_Mnn",
                "bottom_dnwt",
            ],
        );
        // corner (0, 0.5) is claimed by the left ports first (w, ∂_y w, ∂_yy w, ∂_x w,
        // ∂_xy w): top_wt has the 4 other vertices' 3 translational functionals and ∂_xx w
        // at the corner
        assert_eq!(m.port_functionals("top_wt").unwrap().len(), 4 * 3 + 1);
        let mut signals = Vec::new();
        for port in sys.ports.iter() {
            let s = if port.name.ends_with("wt") { 1e-3 } else { 1.0 };
            for i in 0..port.dim {
                let (a, w) = (s * (1.0 + 0.3 * (i as f64).sin()), 300.0 + 37.0 * i as f64);
                signals.push(Signal::from_fn(move |t: f64| a * (w * t).sin()));
            }
        }
        let mut cn = common::integrate::midpoint(sys, InputFn::new(signals), 0.02, 1e-4);
        let e0 = vec![0.0; sys.n_states()];
        let res = cn.run(&e0, &mut |_t: f64, _e: &[f64]| {}).unwrap();
        let l = &res.ledger;
        let work = l.supplied.last().unwrap();
        eprintln!(
            "{}: max rel residual {:.2e}, drift {:.2e}, H_end {:.3e}, work per port {work:.2?}",
            fam.name(),
            l.max_relative_residual(),
            l.relative_drift(),
            l.hamiltonian.last().unwrap()
        );
        assert!(work.iter().all(|w| w.abs() > 1e-9 * l.energy_scale()));
        assert!(l.max_relative_residual() < 1e-10);
        assert!(l.relative_drift() < 1e-9);
    }
}

/// Dense matrix of the rows of block `r`, columns of block `c` of `M`.
fn dense_block(
    sys: &phlex_core::LinearPhSystem,
    M: &phlex_core::sparse::SparseMat,
    r: &str,
    c: &str,
) -> faer::Mat<f64> {
    let rr: Vec<usize> = sys.block_range(r).unwrap().collect();
    let cc: Vec<usize> = sys.block_range(c).unwrap().collect();
    sparse::to_dense(&sparse::restrict(M, &rr, &cc))
}

/// Clamped-edge port driven by a prescribed edge rotation, against the static closed form.
/// Plate [0, a] × [0, b], ν = 0, clamped at x = a, free at y = 0, b, and at x = 0 a
/// clamped port with w_t = 0 and a uniform rotation ∂_n w = θ (n = −x): with ν = 0 the
/// free-edge conditions M_yy = M_xy = q_y = 0 hold for a cylindrical field, so the exact
/// static deflection is the clamped–clamped beam cubic w = c x (1 − x/a)², c = −θ, with
/// M_xx = D w'' (thesis sign, M = D Hess w), D = E h³/12. The static limit of the pHDAE
/// (displacement z with E_κ = M_κ⁻¹ D_H z, reactions λ = port outputs) solves
/// [[D_Hᵀ M_κ⁻¹ D_H, −G], [Gᵀ, 0]] (z, λ) = (0, u). The cubic lies in the Bell space, so
/// Galerkin is exact and the outputs sum to the closed-form edge reactions: Σ over the
/// `Value` functionals = ∫ q̃_n ds = 6Dc b/a² (total shear), Σ over the `Dn` functionals =
/// ∫ M_nn ds = −4Dc b/a (total moment), to 1e-9 relative (round-off of the dense solve;
/// measured ~1e-12). Also the velocity field T z equals the cubic at the vertices.
#[test]
fn clamped_port_rotation_static_closed_form() {
    let (a, b) = (2.0, 1.0);
    let mesh = Mesh2d::rectangle(0.0, a, 0.0, b, 4, 2, Diagonal::Right).unwrap();
    let p = KirchhoffParams::isotropic(70e9, 0.0, 2700.0, 0.02).unwrap();
    let d = 70e9 * 0.02f64.powi(3) / 12.0;
    let theta = 1e-3;
    let c = -theta;
    for fam in [C1Family::Bell, C1Family::Argyris] {
        let m = KirchhoffBell::new(p, &mesh, fam)
            .unwrap()
            .port("left", EdgeCondition::Clamped)
            .clamped("right")
            .free("top")
            .free("bottom")
            .build()
            .unwrap();
        let sys = m.system();
        let Dh = dense_block(sys, &sys.J, "E_kappa", "e_w");
        let Mk = dense_block(sys, &sys.E, "E_kappa", "E_kappa");
        let Gw = dense_block(sys, &sys.J, "e_w", "lambda_left_wt");
        let Gn = dense_block(sys, &sys.J, "e_w", "lambda_left_dnwt");
        let K = Dh.transpose() * Mk.partial_piv_lu().solve(&Dh);
        let (nr, mw, mn) = (K.nrows(), Gw.ncols(), Gn.ncols());
        let nt = nr + mw + mn;
        let mut S = faer::Mat::<f64>::zeros(nt, nt);
        for i in 0..nr {
            for j in 0..nr {
                S[(i, j)] = K[(i, j)];
            }
            for j in 0..mw {
                S[(i, nr + j)] = -Gw[(i, j)];
                S[(nr + j, i)] = Gw[(i, j)];
            }
            for j in 0..mn {
                S[(i, nr + mw + j)] = -Gn[(i, j)];
                S[(nr + mw + j, i)] = Gn[(i, j)];
            }
        }
        let u = m.uniform_port_input("left_dnwt", theta).unwrap();
        let mut rhs = faer::Mat::<f64>::zeros(nt, 1);
        for (j, v) in u.iter().enumerate() {
            rhs[(nr + mw + j, 0)] = *v;
        }
        let x = S.partial_piv_lu().solve(&rhs);
        let sum_kind = |port: &str, off: usize, kinds: &[BellFunctional]| -> f64 {
            m.port_functionals(port)
                .unwrap()
                .iter()
                .enumerate()
                .filter(|(_, f)| kinds.contains(&f.kind))
                .map(|(j, _)| x[(off + j, 0)])
                .sum()
        };
        let shear = sum_kind("left_wt", nr, &[BellFunctional::Value]);
        let moment = sum_kind(
            "left_dnwt",
            nr + mw,
            &[BellFunctional::Dn, BellFunctional::MidDn],
        );
        let (shear_ex, moment_ex) = (6.0 * d * c * b / (a * a), -4.0 * d * c * b / a);
        eprintln!(
            "{}: total shear {shear:.12e} (exact {shear_ex:.12e}), moment {moment:.12e} (exact {moment_ex:.12e})",
            fam.name()
        );
        assert!((shear - shear_ex).abs() < 1e-9 * shear_ex.abs());
        assert!((moment - moment_ex).abs() < 1e-9 * moment_ex.abs());
        // deflection: full coefficients of T z at the vertices = the cubic and its slope
        let mut z = vec![0.0; sys.n_states()];
        for i in 0..nr {
            z[i] = x[(i, 0)];
        }
        let wf = m.velocity_coefficients(&z).unwrap();
        let mut worst = 0.0f64;
        for (v, q) in mesh.vertices().iter().enumerate() {
            let X = q[0];
            let ex = [
                c * X * (1.0 - X / a).powi(2),
                c * (1.0 - 4.0 * X / a + 3.0 * X * X / (a * a)),
            ];
            worst = worst
                .max((wf[6 * v] - ex[0]).abs())
                .max((wf[6 * v + 1] - ex[1]).abs());
        }
        assert!(worst < 1e-10 * theta, "{worst}");
    }
}
