#![allow(non_snake_case)]
//! LQG design of the case study (thesis 002 §5.6) on the identified
//! ERA/DC-OKID model M̂, K̂, R̂ = α̂M̂ + β̂K̂ combined with the physical pendulum.
//!
//! The thesis gains are not reproducible from the published data (summary
//! §5.5: some model-assembly detail is undocumented). The summary's
//! independent reproduction (scipy DARE on the same assembly) is the
//! reference for the gains here; the thesis's values are printed next to
//! ours, and the closed-loop peak reductions are compared qualitatively.

use faer::Mat;
use phlex_control::case_study::lqg::{design_lqg, design_model, CaseLqg, LQG_DT};
use phlex_control::linalg::{diag, from_rows as mat};
use phlex_control::model::mdof::rayleigh_damping;
use phlex_control::signal::noise::NoiseRng;
use phlex_control::FrameParams;
use std::f64::consts::PI;

const DT: f64 = LQG_DT;

/// Process and measurement noise covariances of the thesis (`W0² = V0² = 1e-6`).
const RW: f64 = 1e-6;
const RV: f64 = 1e-6;

/// The §5.6 design on the identified structure (summary §5.5 values of M̂, K̂ and the
/// Rayleigh coefficients of R̂) with the physical pendulum: x = [x₁, x₂, x₃, φ], inputs
/// [F, C], outputs [ẍ₁, ẍ₂, ẍ₃, φ]; the LQR on the torque input (thesis weights
/// (5.229)–(5.230)) and the steady Kalman predictor (covariances `RW`, `RV`).
fn thesis_design() -> CaseLqg {
    let p = FrameParams::default();
    let Mh = mat(
        3,
        3,
        &[
            0.3871, -0.0156, 0.0011, -0.0156, 0.2621, -0.0323, 0.0011, -0.0323, 0.3790,
        ],
    );
    let Kh = mat(
        3,
        3,
        &[
            534.061, -221.931, 25.696, -221.931, 614.564, -432.792, 25.696, -432.792, 422.005,
        ],
    );
    let Rh = rayleigh_damping(Mh.as_ref(), Kh.as_ref(), 0.9751, -2.8815e-4);
    let model = design_model(Mh.as_ref(), Kh.as_ref(), Rh.as_ref(), &p, false).unwrap();
    design_lqg(&model).unwrap()
}

/// LQR gain with the thesis weights: the summary's scipy reproduction is
/// F∞ᵀ = [−5.59, −2.49, 14.94, 0.052, −0.368, −0.789, 2.43, −0.014] (printed
/// to 3 significant digits; tolerance 1 % + 1e-3); the thesis prints
/// [−3.0331, −0.4309, 7.4299, 0.0584, −0.2140, −0.4318, 1.3853, −0.0068]:
/// same sign pattern, about half the magnitudes (not reproducible).
/// Kalman gain row 8 (pendulum rate): reproduction (−0.0013, −0.0183,
/// −0.1296, −0.260) vs thesis (−0.0019, −0.0312, −0.2077, −0.6372).
#[test]
fn lqg_gains_against_reproduction() {
    let g = thesis_design().gains;
    let F: Vec<f64> = (0..8).map(|j| g.regulator.F[(0, j)]).collect();
    eprintln!("F∞ᵀ = {F:?}");
    let repro = [-5.59, -2.49, 14.94, 0.052, -0.368, -0.789, 2.43, -0.014];
    let thesis: [f64; 8] = [
        -3.0331, -0.4309, 7.4299, 0.0584, -0.2140, -0.4318, 1.3853, -0.0068,
    ];
    for j in 0..8 {
        assert!(
            (F[j] - repro[j]).abs() < 1e-2 * repro[j].abs() + 1e-3,
            "F[{j}] = {} vs {}",
            F[j],
            repro[j]
        );
        assert_eq!(F[j].signum(), thesis[j].signum());
    }
    let row8: Vec<f64> = (0..4).map(|j| g.estimator.K[(7, j)]).collect();
    eprintln!("K∞ row 8 = {row8:?}");
    let repro8 = [-0.0013, -0.0183, -0.1296, -0.260];
    for j in 0..4 {
        // printed to 4 decimals (±5e-5) or 3 significant digits
        assert!(
            (row8[j] - repro8[j]).abs() < 1e-2 * repro8[j].abs() + 1e-4,
            "K[7,{j}] = {}",
            row8[j]
        );
    }
}

/// Closed-loop simulation of §5.6 (T = 50 s, control on at 25 s, 3-tone
/// disturbance of 0.1 N at 1.9, 5.7, 8.8 Hz, seeded noises W0 = V0 = 1e-3).
/// Peak reduction = 1 − peak(40–50 s)/peak(15–25 s) per floor. The thesis
/// reports 71.09 / 74.95 / 56.94 % (displacement); with the reproducible
/// gains we require a reduction in the band 40–90 % on every floor
/// (qualitative target; measured 63.5 / 66.0 / 60.3 %).
#[test]
fn lqg_closed_loop_peak_reduction() {
    let CaseLqg {
        plant: d, gains: g, ..
    } = thesis_design();
    let n = 8;
    let (F, K) = (g.regulator.F, g.estimator.K);
    let (Rw, Rv) = (diag(&[RW; 8]), diag(&[RV; 4]));
    let mut rng = NoiseRng::new(2011);
    let steps = (50.0 / DT) as usize;
    let W = rng.gaussian(Rw.as_ref(), steps).unwrap();
    let V = rng.gaussian(Rv.as_ref(), steps).unwrap();
    let mut z = Mat::from_fn(n, 1, |i, _| if i < 4 { 1e-3 } else { 1e-4 });
    let mut zh = Mat::from_fn(n, 1, |i, _| z[(i, 0)] + if i < 4 { 1e-4 } else { 1e-5 });
    let mut peaks_u = [0.0f64; 3];
    let mut peaks_c = [0.0f64; 3];
    let mut umax = 0.0f64;
    for k in 0..steps {
        let t = k as f64 * DT;
        let Fd: f64 = [1.9, 5.7, 8.8]
            .iter()
            .map(|f| 0.1 * (2.0 * PI * f * t).sin())
            .sum();
        let uc = if t >= 25.0 { (&F * &zh)[(0, 0)] } else { 0.0 };
        umax = umax.max(uc.abs());
        let u = Mat::from_fn(2, 1, |i, _| if i == 0 { Fd } else { uc });
        let y = &d.C * &z + &d.D * &u + V.as_ref().subcols(k, 1);
        let yh = &d.C * &zh + &d.D * &u;
        zh = &d.A * &zh + &d.B * &u + &K * (&y - &yh);
        z = &d.A * &z + &d.B * &u + W.as_ref().subcols(k, 1);
        for i in 0..3 {
            if (15.0..25.0).contains(&t) {
                peaks_u[i] = peaks_u[i].max(z[(i, 0)].abs());
            }
            if t >= 40.0 {
                peaks_c[i] = peaks_c[i].max(z[(i, 0)].abs());
            }
        }
    }
    let red: Vec<f64> = (0..3)
        .map(|i| 100.0 * (1.0 - peaks_c[i] / peaks_u[i]))
        .collect();
    eprintln!("peak displacement reduction (%): {red:?} (thesis 71.09, 74.95, 56.94); max |C| = {umax:.3e} N m");
    // measured 63.5 / 66.0 / 60.3 % with seed 2011; the thesis's exact gains
    // and peak windows are unknown, so only the band 40–90 % is asserted
    assert!(red.iter().all(|r| (40.0..90.0).contains(r)));
}
