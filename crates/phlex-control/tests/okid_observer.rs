#![allow(non_snake_case)]
//! OKID with a long observer (`m p ≫ n`) on a lightly damped 2-DOF chain, and
//! the robust realisation of `era::era_dc_observer`: system Markov parameters
//! only, observer gain by eq. (3.112), output-error refined poles and order.
//!
//! Plant: M = I, K = [[2k, −k], [−k, k]], k = 100, R = 1.0·M + 1e-3·K,
//! accelerations of both DOFs, Δt = 0.01 s (ZOH). Exact modes (independent
//! reference): ω² = k(3 ∓ √5)/2, ζ = α/(2ω) + βω/2, i.e. 0.98363 / 2.57518 Hz,
//! ζ = 0.08399 / 0.03899.

use faer::{c64, Mat};
use phlex_control::identify::era::{
    era_dc_observer, era_dc_okid, fit_input_matrices, gap_candidates, EraDcParams, Order,
};
use phlex_control::identify::oe::{pole_set, refine_poles};
use phlex_control::identify::okid::{observer_gain, okid, OkidParams};
use phlex_control::linalg::{eigvals, max_abs, spectral_radius};
use phlex_control::model::mdof::Mdof;
use phlex_control::model::modal::modal_parameters;
use phlex_control::model::state_space::{OutputMaps, Sensing, StateSpace};
use phlex_control::model::zoh::c2d;
use phlex_control::signal::noise::NoiseRng;
use phlex_control::{identify_data, IdentifyOptions};

const K: f64 = 100.0;
const ALPHA: f64 = 1.0;
const BETA: f64 = 1e-3;
const DT: f64 = 0.01;

/// The 2-DOF chain with forces on the DOFs listed in `inputs`.
fn plant(inputs: &[usize]) -> StateSpace {
    let m = Mat::<f64>::identity(2, 2);
    let kk = Mat::from_fn(2, 2, |i, j| match (i, j) {
        (0, 0) => 2.0 * K,
        (1, 1) => K,
        _ => -K,
    });
    let b = Mat::from_fn(
        2,
        inputs.len(),
        |i, j| if inputs[j] == i { 1.0 } else { 0.0 },
    );
    let sys = Mdof::new(m, Mat::zeros(2, 2), kk, b)
        .unwrap()
        .with_rayleigh(ALPHA, BETA);
    let ct = StateSpace::from_mdof(
        &sys,
        &OutputMaps::sensing(Sensing::Acceleration, 2, &[0, 1]),
    )
    .unwrap();
    c2d(&ct, DT).unwrap()
}

fn exact_modes() -> [(f64, f64); 2] {
    [3.0 - 5f64.sqrt(), 3.0 + 5f64.sqrt()].map(|c| {
        let w = (K * c / 2.0).sqrt();
        (
            w / (2.0 * std::f64::consts::PI),
            ALPHA / (2.0 * w) + BETA * w / 2.0,
        )
    })
}

/// Input (white, seeded) and output with `noise` × RMS white noise per output.
fn data(d: &StateSpace, l: usize, noise: f64, seed: u64) -> (Mat<f64>, Mat<f64>) {
    let mut rng = NoiseRng::new(seed);
    let u = rng.white(d.n_inputs(), l, 1.0);
    let (y, _) = d.simulate(u.as_ref(), None).unwrap();
    let m = y.nrows();
    let rms: Vec<f64> = (0..m)
        .map(|i| ((0..l).map(|k| y[(i, k)].powi(2)).sum::<f64>() / l as f64).sqrt())
        .collect();
    let e = rng.white(m, l, 1.0);
    let y = Mat::from_fn(m, l, |i, k| y[(i, k)] + noise * rms[i] * e[(i, k)]);
    (u, y)
}

fn era_params(order: Order) -> EraDcParams {
    EraDcParams {
        alpha: 20,
        beta: 60,
        gamma: 2,
        delta: 2,
        tau: 1,
        order,
    }
}

fn check_modes(sys: &StateSpace, ftol: f64, ztol: f64) {
    let t = modal_parameters(sys, 0).unwrap();
    let osc: Vec<_> = t.modes.iter().filter(|m| !m.real).collect();
    assert_eq!(osc.len(), 2, "{t}");
    for (md, (f, z)) in osc.iter().zip(exact_modes()) {
        let (ef, ez) = ((md.freq_hz - f) / f, (md.damping - z) / z);
        eprintln!(
            "f {} vs {f} ({ef:.1e}), ζ {} vs {z} ({ez:.1e})",
            md.freq_hz, md.damping
        );
        assert!(ef.abs() < ftol, "f {} vs {f}", md.freq_hz);
        assert!(ez.abs() < ztol, "ζ {} vs {z}", md.damping);
    }
}

/// The cause of the `phlex identify` failure on exact data: with p = 80
/// (m p = 160 ≫ n = 4) the system Markov parameters are exact (measured
/// 3e-14 relative), but the observer-gain Markov parameters are those of the
/// minimum-norm 160-state observer, so the combined Hankel matrix of
/// eq. (3.165) is far from rank 4 (measured σ₅/σ₁ = 5e-4, frequencies off by
/// 3 %). ERA/DC on the `Y_k` alone is exact: σ₅/σ₁ at round-off (4e-16),
/// modes to 2e-13 (measured).
#[test]
fn long_observer_exact_data() {
    let d = plant(&[1]);
    let (u, y) = data(&d, 4096, 0.0, 7);
    let params = era_params(Order::Auto { max: 20 });
    let p = 80;
    let res = okid(
        u.as_ref(),
        y.as_ref(),
        &OkidParams::new(p, params.markov_needed().max(p)),
    )
    .unwrap();
    let Y = d.markov_parameters(params.markov_needed());
    let scale = max_abs(Y[1].as_ref());
    for (k, Yk) in Y.iter().enumerate() {
        // round-off of a 241-unknown least-squares problem: 1e-10 leaves margin over 3e-14
        let e = max_abs((&res.markov[k] - Yk).as_ref());
        assert!(e < 1e-10 * scale, "Y_{k}: {e}");
    }
    let combined = era_dc_okid(&res.markov, &res.gain_markov, DT, &params).unwrap();
    let sv = &combined.singular_values;
    assert!(sv[4] > 1e-6 * sv[0], "combined σ₅/σ₁ = {}", sv[4] / sv[0]);

    let r = era_dc_observer(&res.markov, &res.gain_markov, p, DT, &params, None)
        .unwrap()
        .realization;
    let sv = &r.singular_values;
    assert!(sv[4] < 1e-12 * sv[0], "σ₅/σ₁ = {}", sv[4] / sv[0]);
    assert_eq!(r.order, 4);
    check_modes(&r.sys, 1e-8, 1e-8);
    // the gain of eq. (3.112) gives a stable observer (measured ρ = 0.976)
    let G = r.G.unwrap();
    let Ao = &r.sys.A + &G * &r.sys.C;
    let rho = spectral_radius("A+GC", Ao.as_ref()).unwrap();
    assert!(rho < 1.0, "ρ(A+GC) = {rho}");
}

/// Eq. (3.112) returns a gain exactly when the `Y⁰_k = C A^{k−1} G` come from
/// an `n`-state observer (round-off of the pseudo-inverse of `P_p`).
#[test]
fn observer_gain_of_consistent_markov_parameters() {
    let d = plant(&[1]);
    let G = Mat::from_fn(4, 2, |i, j| 0.1 * (i as f64 + 1.0) - 0.3 * j as f64);
    let mut Y0 = vec![Mat::<f64>::zeros(2, 2)];
    let mut AkG = G.clone();
    for _ in 0..30 {
        Y0.push(&d.C * &AkG);
        AkG = &d.A * &AkG;
    }
    let Gh = observer_gain(d.A.as_ref(), d.C.as_ref(), &Y0, 30).unwrap();
    let e = max_abs((&Gh - &G).as_ref());
    assert!(e < 1e-10, "{e}");
    assert!(observer_gain(d.A.as_ref(), d.C.as_ref(), &Y0, 40).is_err());
}

/// `B`, `D`, `z(0)` by least squares for known `(A, C)`: exact for exact data
/// with a nonzero initial state (round-off of an 8192 × 8 least squares).
#[test]
fn input_matrices_by_least_squares() {
    let d = plant(&[1]);
    let mut rng = NoiseRng::new(3);
    let u = rng.white(1, 1000, 1.0);
    let z0 = [0.3, -0.2, 1.0, 0.5];
    let (y, _) = d.simulate(u.as_ref(), Some(&z0)).unwrap();
    let fit = fit_input_matrices(d.A.as_ref(), d.C.as_ref(), u.as_ref(), y.as_ref()).unwrap();
    assert!(max_abs((&fit.B - &d.B).as_ref()) < 1e-9 * max_abs(d.B.as_ref()));
    assert!(max_abs((&fit.D - &d.D).as_ref()) < 1e-9);
    for (a, b) in fit.z0.iter().zip(z0) {
        assert!((a - b).abs() < 1e-9, "{a} vs {b}");
    }
    assert!(fit.score.residual_rms.iter().all(|r| *r < 1e-10));
}

/// Output-error refinement from poles perturbed by 1 % (radius and angle)
/// returns the exact poles on exact data (Gauss–Newton converges to the zero
/// residual; tolerance 1e-9 for round-off in a 4096-sample fit).
#[test]
fn refine_poles_from_perturbed_start() {
    let d = plant(&[1]);
    let (u, y) = data(&d, 4096, 0.0, 11);
    let exact = pole_set(&eigvals("A", d.A.as_ref()).unwrap());
    assert_eq!(exact.len(), 2);
    let start: Vec<c64> = exact
        .iter()
        .map(|z| c64::from_polar(z.norm() * 0.99, z.arg() * 1.01))
        .collect();
    let fit = refine_poles(&start, u.as_ref(), y.as_ref(), 50).unwrap();
    eprintln!(
        "{} iterations, residual {:?}",
        fit.iterations, fit.residual_rms
    );
    for (a, b) in fit.poles.iter().zip(&exact) {
        assert!((a - b).norm() < 1e-9, "{a} vs {b}");
    }
    // unstable start: a typed error, not a panic
    let bad = [c64::new(1.01, 0.1)];
    assert!(refine_poles(&bad, u.as_ref(), y.as_ref(), 5).is_err());
}

/// Candidate orders: the gaps above the numerical rank and the rank itself.
#[test]
fn gap_candidates_examples() {
    // exact data of a 4-state system: gap inside the modes (σ₃/σ₄ = 9.4) and the rank drop
    let sv = [4.4, 3.8, 3.15, 0.334, 1.6e-15, 7.8e-16];
    assert_eq!(gap_candidates(&sv, 20), vec![3, 4]);
    // noisy: the noise-floor gap at 6 qualifies too, max caps the list
    let sv = [
        4.4, 3.8, 3.15, 0.334, 9.6e-4, 6.9e-4, 1.5e-4, 1.3e-4, 1.0e-4,
    ];
    assert_eq!(gap_candidates(&sv, 20), vec![3, 4, 6, 9]);
    assert_eq!(gap_candidates(&sv, 5), vec![3, 4]);
    assert!(gap_candidates(&[], 5).is_empty());
}

/// Library twin of the CLI test at 5 % RMS output noise (two seeds):
/// automatic order 4, frequencies within 0.5 %, damping within 10 %
/// (measured |Δf/f| ≤ 9e-4, |Δζ/ζ| ≤ 5e-3).
#[test]
fn identify_two_dof_noisy() {
    let d = plant(&[1]);
    for seed in [1, 2] {
        let (u, y) = data(&d, 4096, 0.05, seed);
        let opts = IdentifyOptions::new(&["force"], &["acc1", "acc2"], DT);
        let rep = identify_data(u.as_ref(), y.as_ref(), &opts).unwrap();
        assert_eq!(rep.realization.order, 4, "{rep}");
        check_modes(&rep.realization.sys, 5e-3, 0.1);
    }
}

/// Two inputs (forces on both DOFs, r = 2): the refined model keeps the
/// ERA/DC mode shapes and fits `B` (residues of any rank in the pole fit).
/// Exact data → exact modes; 2 % noise → 0.5 % / 10 %.
#[test]
fn identify_two_inputs() {
    let d = plant(&[0, 1]);
    let opts = IdentifyOptions::new(&["f1", "f2"], &["acc1", "acc2"], DT);
    let (u, y) = data(&d, 2048, 0.0, 5);
    let rep = identify_data(u.as_ref(), y.as_ref(), &opts).unwrap();
    assert_eq!(rep.realization.order, 4, "{rep}");
    check_modes(&rep.realization.sys, 1e-8, 1e-8);
    // B̂, D̂ from least squares reproduce the Markov parameters of the plant
    let Yh = rep.realization.sys.markov_parameters(10);
    let Y = d.markov_parameters(10);
    for k in 0..=10 {
        assert!(max_abs((&Yh[k] - &Y[k]).as_ref()) < 1e-8 * max_abs(Y[1].as_ref()));
    }
    let (u, y) = data(&d, 2048, 0.02, 6);
    let rep = identify_data(u.as_ref(), y.as_ref(), &opts).unwrap();
    assert_eq!(rep.realization.order, 4, "{rep}");
    check_modes(&rep.realization.sys, 5e-3, 0.1);
}
