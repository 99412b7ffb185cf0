//! Mindlin plate, CGDG: eigenfrequencies of the clamped unit square (thesis 004 App. C,
//! summary §5.2): E = 1e12, ν = 0.3, ρ = 2600, h = 0.1, K_sh = 5/6, normalised
//! ω̂ = ω √(2(1+ν)ρ/E) = ω √(ρ/G) (side a = 1). Thesis (Firedrake, UnitSquareMesh(40, 40),
//! CG1/DG0, strong BCs): ω̂ = 1.60, 3.06, 3.07, 4.31, 5.08, 5.13.
use phlex_fem::mesh2d::{Diagonal, Mesh2d};
use phlex_fem::plate::{MindlinCgDg, MindlinParams};
use phlex_solve::eigen::{modes, EigenMethod, EigenParams};
use std::time::Instant;

const THESIS: [f64; 6] = [1.60, 3.06, 3.07, 4.31, 5.08, 5.13];

fn params() -> MindlinParams {
    MindlinParams {
        E: 1e12,
        nu: 0.3,
        rho: 2600.0,
        h: 0.1,
        k_sh: 5.0 / 6.0,
    }
}

/// Normalised frequencies ω̂ of the 6 lowest modes and the number of states.
fn normalised_frequencies(n: usize, k: usize, diagonal: Diagonal) -> (Vec<f64>, usize) {
    let p = params();
    let mesh = Mesh2d::unit_square(n, diagonal).unwrap();
    let model = MindlinCgDg::new(p, &mesh, k)
        .unwrap()
        .clamp_all()
        .build()
        .unwrap();
    let sys = model.system();
    sys.check(&Default::default()).unwrap();
    let scale = (2.0 * (1.0 + p.nu) * p.rho / p.E).sqrt();
    let res = modes(
        sys,
        &EigenParams {
            n_modes: Some(6),
            method: EigenMethod::ShiftInvert,
            // thesis shift: σ = (2(1+ν)ρ/E)^{-1/2}, i.e. ω̂ = 1
            shift: Some(1.0 / scale),
            tol: 1e-6,
            max_krylov: Some(400),
            // the large kernel of J (self-equilibrated stress fields: n_stress > n_velocity)
            // gives round-off eigenvalues |λ| up to ~1e-7 ρ(λ) on 40 × 40; reject
            // Im λ < 1e-3 ρ (ρ ≥ σ ≈ 1.2e4 rad/s, so the cut is far below the lowest
            // physical ω ≈ 1.9e4 rad/s and far above round-off)
            zero_tol: 1e-3,
            ..Default::default()
        },
    )
    .unwrap();
    let w: Vec<f64> = res.frequencies().iter().map(|w| w * scale).collect();
    assert_eq!(w.len(), 6);
    (w, sys.n_states())
}

/// Thesis App. C, weak clamping by Lagrange multipliers (different discretisation, for
/// comparison only): 1.59, 3.04, 3.06, 4.29, 5.05, 5.10.
const THESIS_MULTIPLIERS: [f64; 6] = [1.59, 3.04, 3.06, 4.29, 5.05, 5.10];

/// CI variant. (a) CG1/DG0 on 30 × 30 (11 523 states, 0.4 s): within 1 % of the thesis's
/// 40 × 40 values (measured 1.6075, 3.0640, 3.0888, 4.3363, 5.0980, 5.1485, ≤ 0.61 % off;
/// the lowest-order pair converges from above at O(h²): 20 × 20 is still 3 % high). (b) CG2/DG1 on 8 × 8, much more accurate per DOF: within 1 % of the
/// thesis values (measured ≤ 0.7 %) and the first mode within 0.5 % of Dawe & Roufaeil
/// (1980), ω h √(ρ/G) = 0.159 for h/a = 0.1, i.e. ω̂₁ = 1.59 (summary §5.2).
#[test]
fn mindlin_clamped_square_eigenvalues_coarse() {
    let t = Instant::now();
    let (w, n) = normalised_frequencies(30, 1, Diagonal::Right);
    eprintln!(
        "CGDG k=1, 30x30 ({n} states): {w:.4?} in {:.2?}",
        t.elapsed()
    );
    let t = Instant::now();
    let (w2, n2) = normalised_frequencies(8, 2, Diagonal::Right);
    eprintln!(
        "CGDG k=2, 8x8 ({n2} states): {w2:.4?} in {:.2?}",
        t.elapsed()
    );
    for (a, b) in w.iter().zip(THESIS) {
        assert!((a - b).abs() < 0.01 * b, "k=1: {a} vs thesis {b}");
    }
    for (a, b) in w2.iter().zip(THESIS) {
        assert!((a - b).abs() < 0.01 * b, "k=2: {a} vs thesis {b}");
    }
    assert!((w2[0] - 1.59).abs() < 0.005 * 1.59);
    // ordering of the modes: the (1,2)/(2,1) pair and the (2,2)/(1,3)+(3,1) group
    assert!(w2[1] < w2[2] && w2[2] < 1.01 * w2[1]);
}

/// Full thesis setup: 40 × 40, CG1/DG0, strong clamping, both diagonal directions (they
/// give identical spectra: the meshes are mirror images and the problem is symmetric).
///
/// Measured (3.4 s per mesh in release, 20 563 states): 1.5986, 3.0479, 3.0620, 4.2960,
/// 5.0545, 5.1034. The thesis prints 1.60, 3.06, 3.07, 4.31, 5.08, 5.13 for this setup
/// (Firedrake + SLEPc); our values are 0.1–0.5 % lower, i.e. the first and third agree to
/// the printed digits and the others do not. They agree with the thesis's multiplier
/// values 1.59, 3.04, 3.06, 4.29, 5.05, 5.10 within 0.009, and with the converged CG2/DG1
/// values (≈ 1.592, 3.040, 3.048, 4.284, 5.047, 5.096) they lie above as a conforming
/// velocity discretisation must. Asserted: within 0.6 % of the thesis strong-BC values and
/// within 0.01 of the multiplier values.
#[test]
#[ignore = "full 40x40 eigenproblem (~20k states, ~3.5 s per mesh in release); run with --ignored"]
fn mindlin_clamped_square_eigenvalues_40x40() {
    let mut all = Vec::new();
    for diag in [Diagonal::Right, Diagonal::Left] {
        let t = Instant::now();
        let (w, n) = normalised_frequencies(40, 1, diag);
        eprintln!(
            "CGDG k=1, 40x40 {diag:?} ({n} states): {w:.4?} in {:.2?}",
            t.elapsed()
        );
        all.push((diag, w));
    }
    for (diag, w) in all {
        for ((a, b), c) in w.iter().zip(THESIS).zip(THESIS_MULTIPLIERS) {
            assert!((a - b).abs() <= 0.006 * b, "{diag:?}: {a} vs thesis {b}");
            assert!(
                (a - c).abs() <= 0.01,
                "{diag:?}: {a} vs thesis multipliers {c}"
            );
        }
    }
}

/// Mesh study (prints a table): CG1/DG0 on n × n, n = 10..40, and CG2/DG1 on 8 × 8 (finer
/// CG2 and CG3 meshes took minutes with the shift-invert solver and are left out).
/// (50 × 50 CG1 was not finished after several minutes: the sparse LU of the shift-invert
/// operator fills in super-linearly, 0.4 s at 30 × 30 and 3.6 s at 40 × 40.)
#[test]
#[ignore = "mesh study (k = 1 up to 40 x 40, k = 2 on 8 x 8); the CI twins are the 30 x 30 and 8 x 8 tests"]
fn mindlin_clamped_square_mesh_study() {
    let mut first_k1 = Vec::new();
    let mut first_high = Vec::new();
    for (n, k) in [(10, 1), (20, 1), (30, 1), (40, 1), (8, 2)] {
        let t = Instant::now();
        let (w, s) = normalised_frequencies(n, k, Diagonal::Right);
        eprintln!("k={k} {n}x{n} ({s} states): {w:.4?} in {:.2?}", t.elapsed());
        if k == 1 {
            first_k1.push(w[0]);
        } else {
            first_high.push(w[0]);
        }
    }
    // CG1/DG0 converges monotonically from above (stiffer on coarse meshes) …
    assert!(
        first_k1.windows(2).all(|p| p[1] < p[0]),
        "k = 1 not monotone: {first_k1:?}"
    );
    // … towards the higher-order values, which agree with each other and with
    // Dawe–Roufaeil's 1.59 (thesis App. C) within 0.5 %.
    for w in &first_high {
        assert!((w - 1.59).abs() / 1.59 < 5e-3, "higher-order ω̂₁ = {w}");
    }
    let best_high = first_high.iter().fold(f64::INFINITY, |m, w| m.min(*w));
    assert!(*first_k1.last().unwrap() > best_high);
}
