//! Plates interconnected with lumped components (thesis 004 §10.2, Tables 10.5 and 10.6;
//! summary §5.6): point ports, proof-mass actuators and mirror (eigenfrequencies against
//! Fig. 10.13), and a plate welded to a rigid rod (straight edge, lower deflection and
//! energy, discrete power balance).
#![allow(non_snake_case)]
use phlex_core::sparse;
use phlex_core::structure::Tolerances;
use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::plate::{KirchhoffHhj, KirchhoffModel};
use phlex_mbs::models::plate_assembly::*;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::signal::{InputFn, Signal};
use std::f64::consts::PI;
use std::time::Instant;

fn rel(f: &[f64]) -> Vec<f64> {
    f.iter()
        .zip(TABLE_10_6_HZ)
        .map(|(a, t)| (a - t) / t)
        .collect()
}

fn bench_freqs(b: &Table106, comps: &[PointComponent], delta: DeltaApprox) -> Vec<f64> {
    let a = assemble_point_components(&b.plate().unwrap(), comps, delta).unwrap();
    let f = a.modes(6, 2.0 * PI * 10.0).unwrap().frequencies_hz();
    assert_eq!(f.len(), 6);
    f
}

fn bench(nx: usize, ny: usize, degree: usize) -> Table106 {
    Table106 {
        nx,
        ny,
        degree,
        diagonal: Diagonal::Right,
    }
}

/// Table 10.6 / Fig. 10.13 on the thesis mesh (HHJ 8 × 60, k = 2, 7702 states, ≈ 0.1 s):
/// measured 10.244, 32.750, 34.842, 47.444, 64.647, 119.18 Hz, i.e. +0.33, −0.21, −0.14,
/// +0.30, +0.37, +0.92 %; asserted within 1 % (the task's tolerance). The discretisation
/// is converged (16 × 120 and k = 3 differ by < 0.03 %, see
/// `table_10_6_readings_and_convergence`), so the remaining differences come from the
/// thesis's own discretisation (its quadrature of the box and mesh); the lowest-order
/// k = 1 on 8 × 60 is closer still (max 0.47 %: 10.233, 32.747, 34.842, 47.260, 64.523,
/// 117.54 Hz), asserted within 0.6 %.
#[test]
fn table_10_6_frequencies() {
    let t = Instant::now();
    let a = table_10_6(8, 60, 2).unwrap();
    let f = a.modes(6, 2.0 * PI * 10.0).unwrap().frequencies_hz();
    let r = rel(&f);
    eprintln!(
        "8x60 k=2 ({} states, {:.2?}): {f:.3?} rel {:.2?} %",
        a.system.n_states(),
        t.elapsed(),
        r.iter().map(|x| 100.0 * x).collect::<Vec<_>>()
    );
    assert!(r.iter().all(|x| x.abs() < 0.01), "{r:?}");
    let f1 = bench_freqs(&bench(8, 60, 1), &Table106::components(), Table106::delta());
    let r1 = rel(&f1);
    eprintln!("8x60 k=1: {f1:.3?} rel {r1:.4?}");
    assert!(r1.iter().all(|x| x.abs() < 0.006), "{r1:?}");
    // the named blocks of the assembly
    for b in [
        "plate.e_w",
        "plate.E_kappa",
        "act1.casing",
        "act1.proof_mass",
        "act1.spring",
        "act2.casing",
        "mirror.body",
        "lambda_act1",
        "lambda_act2",
        "lambda_mirror",
    ] {
        assert!(a.block(b).is_ok(), "block {b}");
    }
    assert_eq!(a.system.n_inputs(), 0);
}

/// Which reading of the data reproduces Table 10.6 (k = 2, 8 × 60 unless stated):
/// * literal box $1/(4h_xh_y)$ without renormalisation: the mirror (on the edge
///   $y = L_y$) keeps half its weight, mode 1 = 10.618 Hz (+4.0 %), 1st torsion +5.5 %;
///   asserted > 3 % off for mode 1, i.e. the renormalised box is the reading that matches;
/// * mirror static moment with the opposite sign ($s^x = +0.338$ g m): modes 1 and 5 drop
///   to −1.25 % and −2.3 %; asserted: mode 5 more than 1.5 % off, so the printed sign is
///   the one consistent with the table;
/// * exact point evaluation of the torques: 2nd torsion 110.6 Hz (−6.3 %) on 8 × 60 and
///   105.8 Hz on 16 × 120: a point torque is not defined on a Kirchhoff plate
///   ($\nabla w \in H^1$ has no point values in 2D), the point-torque model does not
///   converge; asserted: mode 6 drops by more than 3 % under refinement, while the box
///   with a fixed footprint changes by < 0.1 % (measured 0.02 %) between 8 × 60 and
///   16 × 120 and by < 0.1 % to k = 3.
#[test]
fn table_10_6_readings_and_convergence() {
    let b = Table106::thesis();
    let base = Table106::components();
    let lit = bench_freqs(&b, &base, b.literal_box());
    eprintln!("literal box: {lit:.3?} rel {:.4?}", rel(&lit));
    assert!(rel(&lit)[0] > 0.03);
    let mut flip = base.clone();
    flip[2].component = LumpedComponent::Rigid(RigidAttachment::mirror(
        0.0234, 0.338e-3, 0.008e-3, 0.058e-3,
    ));
    let fl = bench_freqs(&b, &flip, Table106::delta());
    eprintln!("s_x > 0: {fl:.3?} rel {:.4?}", rel(&fl));
    assert!(rel(&fl)[4] < -0.015);
    let p1 = bench_freqs(&b, &base, DeltaApprox::Point);
    let p2 = bench_freqs(&bench(16, 120, 2), &base, DeltaApprox::Point);
    eprintln!("point 8x60: {p1:.3?}; 16x120: {p2:.3?}");
    assert!((p2[5] - p1[5]) / p1[5] < -0.03);
    let c1 = bench_freqs(&b, &base, Table106::delta());
    let c2 = bench_freqs(&bench(16, 120, 2), &base, Table106::delta());
    let c3 = bench_freqs(&bench(8, 60, 3), &base, Table106::delta());
    for i in 0..6 {
        let (d2, d3) = ((c2[i] - c1[i]) / c1[i], (c3[i] - c1[i]) / c1[i]);
        eprintln!("mode {}: refine {d2:.2e}, k=3 {d3:.2e}", i + 1);
        assert!(d2.abs() < 1e-3 && d3.abs() < 1e-3);
    }
}

/// Point-port matrices against fields the $CG_2$ space reproduces exactly,
/// $f = 1 + 2x + 3y + x^2 - xy + y^2/2$ (interior point, away from the clamped DOFs):
/// the point output is $(f, f_y, -f_x)(x_P)$; the box output is the box average,
/// $(f + (f_{xx}h_x^2 + f_{yy}h_y^2)/6,\ f_y,\ -f_x)(x_P)$ (the gradient is affine). On the
/// edge $y = L_y$ the literal box keeps weight ½ and the clipped box weight 1. Asserted to
/// 1e-12 (exact quadrature of polynomials).
#[test]
fn point_port_outputs() {
    let b = bench(4, 20, 2);
    let plate = b.plate().unwrap();
    let f =
        |x: [f64; 2]| 1.0 + 2.0 * x[0] + 3.0 * x[1] + x[0] * x[0] - x[0] * x[1] + 0.5 * x[1] * x[1];
    let e = plate.interpolate_state(&f, None).unwrap();
    let xp = [0.003, 0.1234];
    let (fx, fy) = (2.0 + 2.0 * xp[0] - xp[1], 3.0 - xp[0] + xp[1]);
    let out = |d: DeltaApprox, x: [f64; 2]| {
        let B = point_input_matrix(&plate, "p", x, d).unwrap();
        sparse::mul_vec_transpose(&B, &e)
    };
    let y = out(DeltaApprox::Point, xp);
    let want = [f(xp), fy, -fx];
    for c in 0..3 {
        assert!(
            (y[c] - want[c]).abs() < 1e-12,
            "point {c}: {y:?} vs {want:?}"
        );
    }
    let (hx, hy) = (0.004, 0.009);
    let y = out(DeltaApprox::Box { hx, hy }, xp);
    let want = [f(xp) + (2.0 * hx * hx + hy * hy) / 6.0, fy, -fx];
    for c in 0..3 {
        assert!((y[c] - want[c]).abs() < 1e-12, "box {c}: {y:?} vs {want:?}");
    }
    // weight of a box centred on the free edge y = L_y
    let ones = plate.interpolate_state(&|_| 1.0, None).unwrap();
    let edge = [0.0, Table106::LY];
    for (d, w) in [
        (DeltaApprox::Box { hx, hy }, 0.5),
        (DeltaApprox::BoxClipped { hx, hy }, 1.0),
    ] {
        let B = point_input_matrix(&plate, "m", edge, d).unwrap();
        let y = sparse::mul_vec_transpose(&B, &ones);
        assert!((y[0] - w).abs() < 1e-12, "{d:?}: {}", y[0]);
    }
    // bad input: typed errors
    assert!(matches!(
        point_input_matrix(&plate, "far", [1.0, 1.0], DeltaApprox::Point),
        Err(PlateAssemblyError::PointOutside { .. })
    ));
    assert!(point_input_matrix(&plate, "neg", xp, DeltaApprox::Box { hx: -1.0, hy }).is_err());
    let dup = vec![Table106::components()[0].clone(); 2];
    assert!(matches!(
        assemble_point_components(&plate, &dup, Table106::delta()),
        Err(PlateAssemblyError::DuplicateName(_))
    ));
}

fn coarse_bench(c: f64) -> ActuatedPlate {
    let b = bench(2, 14, 2);
    let mut comps = Table106::components();
    for comp in comps.iter_mut() {
        if let LumpedComponent::Actuator(a) = &mut comp.component {
            a.damping = c;
        }
    }
    assemble_point_components(&b.plate().unwrap(), &comps, Table106::delta()).unwrap()
}

/// Structure of the coupled system (coarse 2 × 14 mesh so that E can be checked densely):
/// J skew to 1e-12 relative, E symmetric PSD, and SPD on the differential variables
/// (smallest eigenvalue > 0: measured 3.6e-7 against a largest 1.0e3, the HHJ
/// compliance block 𝒞_b is small); the multiplier rows of E vanish. Energy: lossless (c = 0), initial spring
/// elongation 1 mm (consistent: every velocity zero), 400 midpoint steps of 0.2 ms: H is
/// conserved to round-off, asserted relative drift < 1e-10 (measured 3.3e-13). With damping
/// c = 5 N s/m: H decreases, and H(t) + ∫eᵀRe = H(0) to 1e-10 (ledger residual).
#[test]
fn structure_and_energy() {
    let a = coarse_bench(0.0);
    let s = &a.system;
    s.check(&Tolerances::default()).unwrap();
    let E = sparse::to_dense(&s.E);
    let alg: Vec<usize> = s
        .blocks
        .iter()
        .zip(s.block_offsets())
        .filter(|(b, _)| b.name.contains("lambda"))
        .flat_map(|(b, o)| o..o + b.len)
        .collect();
    let diff: Vec<usize> = (0..s.n_states()).filter(|i| !alg.contains(i)).collect();
    for &i in &alg {
        assert!((0..s.n_states()).all(|j| E[(i, j)] == 0.0));
    }
    let Ed = faer::Mat::<f64>::from_fn(diff.len(), diff.len(), |i, j| E[(diff[i], diff[j])]);
    let ev = Ed.self_adjoint_eigenvalues(faer::Side::Lower).unwrap();
    let (lo, hi) = (ev[0], ev[ev.len() - 1]);
    eprintln!(
        "E_dd eigenvalues in [{lo:.3e}, {hi:.3e}], n = {}",
        diff.len()
    );
    assert!(lo > 0.0);

    let x0 = {
        let mut x = vec![0.0; s.n_states()];
        x[a.block("act1.spring").unwrap().start] = 1e-3;
        x
    };
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end: 0.08,
            h: 2e-4,
            output_every: 1,
        },
        ..Default::default()
    };
    let mut cn = LinearMidpoint::new(s, InputFn::zeros(0), params).unwrap();
    let res = cn.run(&x0, &mut |_t: f64, _e: &[f64]| {}).unwrap();
    let drift = res.ledger.relative_drift();
    // the spring energy was exchanged with the plate (the test is not vacuous)
    let sp = a.block("act1.spring").unwrap().start;
    let moved = (res.state[sp] - 1e-3).abs() / 1e-3;
    eprintln!("lossless: drift {drift:.2e}, spring changed by {moved:.2}");
    assert!(drift < 1e-10 && moved > 0.1);

    let d = coarse_bench(5.0);
    let mut cn = LinearMidpoint::new(&d.system, InputFn::zeros(0), params).unwrap();
    let mut h = Vec::new();
    let res = cn
        .run(&x0, &mut |_t: f64, e: &[f64]| {
            h.push(d.system.hamiltonian(e))
        })
        .unwrap();
    let l = &res.ledger;
    eprintln!(
        "damped: H_end/H0 = {:.3}, residual {:.2e}",
        h.last().unwrap() / h[0],
        l.max_relative_residual()
    );
    assert!(h.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-12)));
    assert!(h.last().unwrap() < &(0.9 * h[0]));
    assert!(l.max_relative_residual() < 1e-10);
}

fn table_10_5_plate(n: usize) -> KirchhoffModel {
    let mesh = Mesh2d::unit_square(n, Diagonal::Right).unwrap();
    KirchhoffHhj::new(Table105::params().unwrap(), &mesh, 2)
        .unwrap()
        .clamped("left")
        .port(
            "right",
            phlex_fem::models::plate::EdgeCondition::SimplySupported,
        )
        .build()
        .unwrap()
}

/// The rod coupling matrix $W^\top = \int_\Gamma[\psi^l, \psi^l(y - 1/2)]$: the trace basis
/// is a partition of unity on the edge, so the column sums are $\int_\Gamma 1 = 1$ and
/// $\int_\Gamma (y - 1/2) = 0$ (to round-off); a plate without the edge port is a typed
/// error naming the missing block.
#[test]
fn rod_coupling_matrix_sums() {
    let plate = table_10_5_plate(6);
    let WT = rod_coupling_matrix(&plate, "right", RodAxis::AlongY { y_g: 0.5 }).unwrap();
    let (s0, s1): (f64, f64) = (0..WT.nrows())
        .map(|i| (WT[(i, 0)], WT[(i, 1)]))
        .fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    assert!((s0 - 1.0).abs() < 1e-13 && s1.abs() < 1e-13, "{s0} {s1}");
    // a rod along x on the top edge: lever −(x − 1/2), same sums
    let mesh = Mesh2d::unit_square(5, Diagonal::Right).unwrap();
    let top = KirchhoffHhj::new(Table105::params().unwrap(), &mesh, 2)
        .unwrap()
        .clamped("bottom")
        .port(
            "top",
            phlex_fem::models::plate::EdgeCondition::SimplySupported,
        )
        .build()
        .unwrap();
    let WT = rod_coupling_matrix(&top, "top", RodAxis::AlongX { x_g: 0.5 }).unwrap();
    let s0: f64 = (0..WT.nrows()).map(|i| WT[(i, 0)]).sum();
    let s1: f64 = (0..WT.nrows()).map(|i| WT[(i, 1)]).sum();
    assert!((s0 - 1.0).abs() < 1e-13 && s1.abs() < 1e-13, "{s0} {s1}");
    let welded =
        weld_rigid_rod(&top, "top", RodAxis::AlongX { x_g: 0.5 }, &Table105::rod()).unwrap();
    welded.system.check(&Tolerances::default()).unwrap();
    let free = Table105 { n: 4, degree: 2 }.without_rod().unwrap().plate;
    assert!(matches!(
        weld_rigid_rod(
            &free,
            "right",
            RodAxis::AlongY { y_g: 0.5 },
            &Table105::rod()
        ),
        Err(PlateAssemblyError::MissingPlateItem { .. })
    ));
}

/// Table 10.5 (HHJ k = 2 on 6 × 6 instead of the thesis's 6 Argyris elements), implicit
/// midpoint Δt = 10 µs over t_end = 10 ms, load on for t < 2 ms. Asserted:
/// * the welded edge stays straight: the deflection on x = L deviates from its affine fit
///   by < 1e-9 of the maximum deflection (it is affine by construction of the constraint;
///   measured 3.8e-13 m against 8.2e-3 m), whereas without the rod the free edge bows
///   (> 1 % of the maximum; measured 7.6e-4 m against 1.3e-2 m);
/// * with the rod the maximum deflection and the post-load energy are lower (thesis Figs.
///   10.9–10.11, qualitative); measured: max |w| 8.23 mm vs 13.0 mm (ratio 0.63),
///   H after the load 145.9 J vs 198.7 J (ratio 0.73);
/// * discrete power balance: every step H_{n+1} − H_n = h ȳᵀū to 1e-10 relative (ledger),
///   and after the load the energy equals the load work to 1e-8 relative.
#[test]
fn welded_rod_table_10_5() {
    let tab = Table105 { n: 6, degree: 2 };
    let t0 = Instant::now();
    let with = tab.with_rod().unwrap();
    with.system.check(&Tolerances::default()).unwrap();
    assert!(with.system.block_range("rod.body").is_some());
    let without = tab.without_rod().unwrap();
    let dt = 1e-5;
    let rw = simulate_welded(
        &with,
        dt,
        Table105::T_END,
        Signal::from_fn(Table105::load_amplitude),
    )
    .unwrap();
    let ro = simulate_welded(
        &without,
        dt,
        Table105::T_END,
        Signal::from_fn(Table105::load_amplitude),
    )
    .unwrap();
    let maxw = rw.max_deflection.iter().cloned().fold(0.0, f64::max);
    let maxo = ro.max_deflection.iter().cloned().fold(0.0, f64::max);
    let bow_w = rw.edge_bow.iter().cloned().fold(0.0, f64::max);
    let bow_o = ro.edge_bow.iter().cloned().fold(0.0, f64::max);
    let (hw, ho) = (*rw.energy.last().unwrap(), *ro.energy.last().unwrap());
    let (ww, wo) = (*rw.load_work.last().unwrap(), *ro.load_work.last().unwrap());
    eprintln!(
        "[{:.2?}] with rod: max |w| {maxw:.4e} m, edge bow {bow_w:.2e}, H_end {hw:.5e} J (load work {ww:.5e}), residual {:.2e}",
        t0.elapsed(),
        rw.power_balance_residual
    );
    eprintln!(
        "without rod: max |w| {maxo:.4e} m, edge bow {bow_o:.2e}, H_end {ho:.5e} J (load work {wo:.5e}), residual {:.2e}; ratios w {:.3}, H {:.3}",
        ro.power_balance_residual,
        maxw / maxo,
        hw / ho
    );
    assert!(bow_w < 1e-9 * maxw);
    assert!(bow_o > 1e-2 * maxo);
    assert!(maxw < maxo);
    assert!(hw < ho);
    for r in [&rw, &ro] {
        assert!(r.power_balance_residual < 1e-10);
        let (h, w) = (*r.energy.last().unwrap(), *r.load_work.last().unwrap());
        assert!((h - w).abs() < 1e-8 * w, "{h} vs {w}");
        // after the load is removed H is constant
        let k =
            r.t.iter()
                .position(|&t| t > Table105::T_OFF + 1e-12)
                .unwrap();
        assert!((r.energy[k] - h).abs() < 1e-10 * h);
    }
}
