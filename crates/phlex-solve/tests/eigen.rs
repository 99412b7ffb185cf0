//! Eigenfrequencies of hand-built pH pencils against closed-form spring–mass chain values:
//! fixed–free, fixed–fixed through a Lagrange multiplier (singular E), free–free (rigid
//! mode), damped, redundant constraints; dense QZ and sparse shift-invert Arnoldi.
#![allow(non_snake_case)]
mod common;
use common::*;
use faer::c64;
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, PortSet, VarBlock};
use phlex_solve::eigen::{modes, pencil_modes, EigenMethod, EigenParams};
use phlex_solve::SolveError;
use std::f64::consts::PI;

fn fixed_free(N: usize, m: f64, k: f64) -> Vec<f64> {
    (1..=N)
        .map(|r| 2.0 * (k / m).sqrt() * (0.5 * chain_theta(N, r)).sin())
        .collect()
}

/// Chain of `N_m` masses between two walls (`N_m + 1` springs), or free–free (`N_m − 1`
/// springs): ω_r = 2√(k/m) sin(rπ / (2(N_m + 1))) resp. 2√(k/m) sin(rπ / (2 N_m)).
fn fixed_fixed(Nm: usize, m: f64, k: f64) -> Vec<f64> {
    (1..=Nm)
        .map(|r| 2.0 * (k / m).sqrt() * (r as f64 * PI / (2.0 * (Nm + 1) as f64)).sin())
        .collect()
}
fn free_free(N: usize, m: f64, k: f64) -> Vec<f64> {
    (1..N)
        .map(|r| 2.0 * (k / m).sqrt() * (r as f64 * PI / (2.0 * N as f64)).sin())
        .collect()
}

fn max_rel(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len(), "{a:?} vs {b:?}");
    a.iter()
        .zip(b)
        .fold(0.0f64, |s, (x, y)| s.max((x - y).abs() / y.abs()))
}

fn dense() -> EigenParams {
    EigenParams {
        method: EigenMethod::Dense,
        ..Default::default()
    }
}

/// `params` with the mode shapes switched on.
fn with_shapes(params: EigenParams) -> EigenParams {
    EigenParams {
        mode_shapes: true,
        ..params
    }
}

/// The `k` lowest modes, method chosen by size (`Auto`).
fn lowest(k: usize) -> EigenParams {
    EigenParams {
        n_modes: Some(k),
        ..Default::default()
    }
}

fn sparse_k(k: usize) -> EigenParams {
    EigenParams {
        method: EigenMethod::ShiftInvert,
        ..lowest(k)
    }
}

/// Residual ‖(A − λE)φ‖∞ / (|λ| ‖E‖ + ‖A‖) of a mode shape.
fn mode_residual(E: &SparseMat, A: &SparseMat, lam: c64, phi: &[c64]) -> f64 {
    let n = phi.len();
    let mut r = vec![c64::new(0.0, 0.0); n];
    for j in 0..n {
        for (i, v) in sparse::col_iter(A, j) {
            r[i] += phi[j] * v;
        }
        for (i, v) in sparse::col_iter(E, j) {
            r[i] -= lam * phi[j] * v;
        }
    }
    let nphi = phi.iter().fold(0.0f64, |s, z| s.max(z.norm()));
    r.iter().fold(0.0f64, |s, z| s.max(z.norm()))
        / ((lam.norm() * sparse::max_abs(E) + sparse::max_abs(A)) * nphi)
}

#[test]
fn fixed_free_chain_dense_matches_analytic_with_shapes() {
    let (N, m, k) = (30, 2.0, 50.0);
    let sys = chain(N, m, k, 0.0, false);
    let res = modes(&sys, &with_shapes(dense())).unwrap();
    let w = res.frequencies();
    // QZ is backward stable: relative errors ~ n·ε; measured ≈ 1e-14.
    let err = max_rel(&w, &fixed_free(N, m, k));
    assert!(err < 1e-10, "max relative error {err:.3e}");
    let A = sys.j_minus_r();
    for md in &res.modes {
        assert!(md.damping_ratio.abs() < 1e-10);
        let phi = md.shape.as_ref().unwrap();
        assert!(mode_residual(&sys.E, &A, md.lambda, phi) < 1e-10);
    }
    // First mode shape: velocities ∝ sin(i θ_1) (up to a complex factor: the normalization
    // makes the largest component, here a spring force, real; velocities are 90° out of phase).
    let phi = res.modes[0].shape.as_ref().unwrap();
    let th = chain_theta(N, 1);
    let scale = phi[N - 1] / (N as f64 * th).sin();
    for i in 0..N {
        let expect = scale * ((i + 1) as f64 * th).sin();
        assert!(
            (phi[i] - expect).norm() < 1e-9 * scale.norm(),
            "component {i}"
        );
    }
    println!("fixed-free dense: max rel error {err:.3e}");
}

/// Fixing the last mass with a multiplier (index-2, singular E): the finite spectrum is that
/// of the fixed–fixed chain of N − 1 masses, and equals the reduced system's.
#[test]
fn constrained_chain_equals_reduced_system_dense_and_sparse() {
    let (N, m, k) = (12, 1.0, 10.0);
    let sys = constrained_chain(N, m, k);
    let exact = fixed_fixed(N - 1, m, k);
    let res = modes(&sys, &with_shapes(dense())).unwrap();
    let err = max_rel(&res.frequencies(), &exact);
    assert!(err < 1e-10, "dense constrained: {err:.3e}");
    // Shapes satisfy the full DAE pencil, multiplier row included.
    let A = sys.j_minus_r();
    for md in &res.modes {
        let phi = md.shape.as_ref().unwrap();
        assert!(
            phi[N - 1].norm() < 1e-10,
            "constrained velocity must vanish"
        );
        assert!(mode_residual(&sys.E, &A, md.lambda, phi) < 1e-10);
    }
    // The reduced ODE (drop v_N and λ) has the same frequencies (plus a static mode, filtered).
    let keep: Vec<usize> = (0..2 * N).filter(|&i| i != N - 1).collect();
    let red = pencil_modes(
        &sparse::restrict(&sys.E, &keep, &keep),
        &sparse::restrict(&sys.J, &keep, &keep),
        &dense(),
    )
    .unwrap();
    assert!(max_rel(&red.frequencies(), &exact) < 1e-10);
    // Sparse shift-invert on the DAE pencil directly.
    let sp = modes(&sys, &with_shapes(sparse_k(5))).unwrap();
    let err = max_rel(&sp.frequencies(), &exact[..5]);
    assert!(err < 1e-9, "sparse constrained: {err:.3e}");
    for md in &sp.modes {
        let r = mode_residual(&sys.E, &A, md.lambda, md.shape.as_ref().unwrap());
        assert!(r < 1e-9, "mode residual {r:.3e}");
    }
}

#[test]
fn large_chains_sparse_shift_invert() {
    // n = 4000 (> dense_limit): Auto picks shift-invert.
    let (N, m, k) = (2000, 1.0, 1.0e4);
    let sys = chain(N, m, k, 0.0, false);
    let res = modes(&sys, &lowest(10)).unwrap();
    assert_eq!(res.method, EigenMethod::ShiftInvert);
    let err = max_rel(&res.frequencies(), &fixed_free(N, m, k)[..10]);
    // Ritz tolerance 1e-10 on μ; measured ≈ 1e-13.
    assert!(err < 1e-9, "fixed-free sparse: {err:.3e}");
    println!(
        "sparse n = {}: Krylov dim {}, error {err:.3e}",
        2 * N,
        res.krylov_dim
    );
    let sys = constrained_chain(N, m, k);
    let res = modes(&sys, &lowest(8)).unwrap();
    let err = max_rel(&res.frequencies(), &fixed_fixed(N - 1, m, k)[..8]);
    assert!(err < 1e-9, "constrained sparse: {err:.3e}");
    // Dense path on a mid-size pencil (n = 601, Cholesky + standard eigen): all modes.
    let sys = constrained_chain(300, m, k);
    let res = modes(&sys, &dense()).unwrap();
    let err = max_rel(&res.frequencies(), &fixed_fixed(299, m, k));
    assert!(err < 1e-10, "dense n = 601: {err:.3e}");
}

/// Free–free chain (first spring removed): the rigid-body eigenvalue λ = 0 is not a mode.
#[test]
fn rigid_mode_is_filtered() {
    let (N, m, k) = (15, 1.0, 4.0);
    let base = chain(N, m, k, 0.0, false);
    let keep: Vec<usize> = (0..2 * N).filter(|&i| i != N).collect();
    let E = sparse::restrict(&base.E, &keep, &keep);
    let J = sparse::restrict(&base.J, &keep, &keep);
    let exact = free_free(N, m, k);
    let d = pencil_modes(&E, &J, &dense()).unwrap();
    assert!(max_rel(&d.frequencies(), &exact) < 1e-10);
    let s = pencil_modes(&E, &J, &sparse_k(6)).unwrap();
    let err = max_rel(&s.frequencies(), &exact[..6]);
    assert!(
        err < 1e-9,
        "free-free sparse: {err:.3e} {:?}",
        s.frequencies()
    );
}

/// Damped oscillator: λ = −c/(2m) ± i√(k/m − c²/4m²), ζ = c/(2√(km)); a damped chain agrees
/// between the dense and the sparse path.
#[test]
fn damping_ratios() {
    let (m, k, c) = (2.0, 8.0, 0.8);
    let sys = chain(1, m, k, c, false);
    let res = modes(&sys, &dense()).unwrap();
    assert_eq!(res.modes.len(), 1);
    let md = &res.modes[0];
    let wd = (k / m - c * c / (4.0 * m * m)).sqrt();
    assert!((md.omega - wd).abs() < 1e-13 * wd);
    assert!((md.damping_ratio - c / (2.0 * (k * m).sqrt())).abs() < 1e-13);
    assert!((md.omega_natural - (k / m).sqrt()).abs() < 1e-13);
    // Index-1 variant: the damper force w is an algebraic variable,
    // E = diag(m, 1/k, 0), J = [[0, −1, −1], [1, 0, 0], [1, 0, 0]], R = diag(0, 0, r):
    // 0 = v − r w, so m v̇ = −f − v/r, i.e. c = 1/r. Exercises the QZ path with an infinite
    // eigenvalue to filter.
    let r = 1.0 / c;
    let mut Et = Triplets::new(3, 3);
    Et.push(0, 0, m);
    Et.push(1, 1, 1.0 / k);
    let mut Jt = Triplets::new(3, 3);
    for (i, j, v) in [(0, 1, -1.0), (0, 2, -1.0), (1, 0, 1.0), (2, 0, 1.0)] {
        Jt.push(i, j, v);
    }
    let mut Rt = Triplets::new(3, 3);
    Rt.push(2, 2, r);
    let A = sparse::add(1.0, &Jt.build(), -1.0, &Rt.build());
    let E = Et.build();
    let res = pencil_modes(&E, &A, &with_shapes(dense())).unwrap();
    assert_eq!(res.modes.len(), 1);
    let md = &res.modes[0];
    assert!((md.omega - wd).abs() < 1e-12 * wd, "{:?}", md.lambda);
    assert!((md.damping_ratio - c / (2.0 * (k * m).sqrt())).abs() < 1e-12);
    assert!(mode_residual(&E, &A, md.lambda, md.shape.as_ref().unwrap()) < 1e-12);

    let sys = chain(40, 1.0, 100.0, 2.0, false);
    let d = modes(&sys, &dense()).unwrap();
    let s = modes(&sys, &sparse_k(6)).unwrap();
    // All 40 modes are found by the dense path (a damper on the last mass damps every mode).
    assert_eq!(d.modes.len(), 40);
    for (a, b) in d.modes.iter().zip(&s.modes) {
        assert!(
            (a.lambda - b.lambda).norm() < 1e-9 * a.lambda.norm(),
            "{:?} vs {:?}",
            a.lambda,
            b.lambda
        );
        assert!(a.damping_ratio > 0.0);
    }
}

/// The same constraint imposed twice: the dense null-space reduction is rank-revealing and
/// still returns the fixed–fixed spectrum; the sparse path reports a singular pencil.
#[test]
fn redundant_constraints() {
    let (N, m, k) = (6, 1.0, 10.0);
    let base = constrained_chain(N, m, k);
    let n = 2 * N + 2;
    let mut E = Triplets::new(n, n);
    E.push_block(0, 0, &base.E, 1.0);
    let mut J = Triplets::new(n, n);
    J.push_block(0, 0, &base.J, 1.0);
    J.push(N - 1, 2 * N + 1, 1.0);
    J.push(2 * N + 1, N - 1, -1.0);
    let mut blocks = base.blocks.clone();
    blocks.push(VarBlock::algebraic("lambda2", "duplicate constraint", 1, 2));
    let sys = LinearPhSystem::new(
        E.build(),
        J.build(),
        sparse::zeros(n, n),
        sparse::zeros(n, 0),
        PortSet::new(),
        blocks,
    )
    .unwrap();
    let d = modes(&sys, &dense()).unwrap();
    assert!(max_rel(&d.frequencies(), &fixed_fixed(N - 1, m, k)) < 1e-10);
    let e = modes(&sys, &sparse_k(2)).unwrap_err();
    assert!(matches!(e, SolveError::Singular { .. }), "{e}");
}

#[test]
fn parameters_are_validated() {
    let sys = chain(3, 1.0, 1.0, 0.0, false);
    let cases = [
        (
            EigenParams {
                method: EigenMethod::ShiftInvert,
                ..Default::default()
            },
            "n_modes",
        ),
        (
            EigenParams {
                shift: Some(-1.0),
                n_modes: Some(1),
                ..Default::default()
            },
            "0 < shift",
        ),
        (
            EigenParams {
                tol: 0.0,
                ..Default::default()
            },
            "0 < tol < 1",
        ),
        (
            EigenParams {
                dense_limit: 2,
                ..Default::default()
            },
            "n_modes",
        ),
    ];
    for (params, named) in cases {
        let e = modes(&sys, &params).unwrap_err();
        assert!(e.to_string().contains(named), "{e}");
    }
}
