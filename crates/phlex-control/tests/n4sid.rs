#![allow(non_snake_case)]
//! N4SID round trips on the three-floor shear frame of the case study
//! (thesis 002 §5.5: 32 Hz sampling, force on floor 1, three floor
//! accelerations, 2048 samples), exact and with seeded measurement noise.

use faer::Mat;
use phlex_control::identify::era::Order;
use phlex_control::identify::n4sid::{n4sid, N4sidParams};
use phlex_control::model::modal::modal_parameters;

mod common;
use common::{frame, plant, white_noise_test, DT};

fn data(l: usize, noise: f64, seed: u64) -> (Mat<f64>, Mat<f64>, Mat<f64>) {
    let (mut rng, u, y) = white_noise_test(seed, l);
    let rms = (0..3)
        .map(|i| ((0..l).map(|k| y[(i, k)].powi(2)).sum::<f64>() / l as f64).sqrt())
        .collect::<Vec<_>>();
    let yn = Mat::from_fn(3, l, |i, k| y[(i, k)] + noise * rms[i] * rng.normal());
    (u, y, yn)
}

/// Noise-free data: N4SID finds n = 6 from the singular values of the
/// oblique projection and reproduces the model up to a similarity: the
/// eigenvalues of Â equal those of the ZOH plant and the Markov parameters
/// agree to 1e-8 relative (round-off of the QR/SVD chain on 2048 samples).
#[test]
fn exact_round_trip() {
    let (u, y, _) = data(2048, 0.0, 1);
    let r = n4sid(u.as_ref(), y.as_ref(), DT, &N4sidParams::new(10, 20)).unwrap();
    let sv = &r.realization.singular_values;
    eprintln!("singular values: {:?}", &sv[..8]);
    assert_eq!(r.realization.order, 6);
    let d = plant();
    let mut ev = r.realization.sys.poles().unwrap();
    let mut e0 = d.poles().unwrap();
    let key = |a: &faer::c64, b: &faer::c64| a.im.total_cmp(&b.im).then(a.re.total_cmp(&b.re));
    ev.sort_by(key);
    e0.sort_by(key);
    for (a, b) in ev.iter().zip(&e0) {
        assert!((a - b).norm() < 1e-8, "{a} vs {b}");
    }
    let Yi = r.realization.sys.markov_parameters(40);
    let Y0 = d.markov_parameters(40);
    let scale = Y0.iter().map(|y| y.norm_max()).fold(0.0, f64::max);
    let err = Yi
        .iter()
        .zip(&Y0)
        .map(|(a, b)| (a - b).norm_max())
        .fold(0.0, f64::max);
    eprintln!(
        "Markov parameter error {:.3e} (scale {scale:.3e})",
        err / scale
    );
    assert!(err < 1e-8 * scale);
}

/// 2 % white measurement noise on every output: frequencies within 0.5 %
/// and damping ratios within 10 % of the model's (measured errors printed;
/// the oblique projection removes the noise asymptotically, 8192 samples).
#[test]
fn noisy_round_trip() {
    let (u, _, yn) = data(8192, 0.02, 7);
    let mut p = N4sidParams::new(12, 20);
    p.order = Order::Fixed(6);
    let r = n4sid(u.as_ref(), yn.as_ref(), DT, &p).unwrap();
    let t = modal_parameters(&r.realization.sys, 0).unwrap();
    let truth: Vec<(f64, f64)> = frame()
        .damped_modes()
        .unwrap()
        .iter()
        .map(|m| (m.freq_hz, m.damping))
        .collect();
    let (f, z) = (t.frequencies(), t.dampings());
    assert_eq!(f.len(), 3);
    for k in 0..3 {
        let (f0, z0) = truth[k];
        eprintln!(
            "mode {}: f {:.5} vs {:.5} ({:.2e}), zeta {:.5} vs {:.5} ({:.2e})",
            k + 1,
            f[k],
            f0,
            (f[k] - f0).abs() / f0,
            z[k],
            z0,
            (z[k] - z0).abs() / z0
        );
        assert!((f[k] - f0).abs() < 5e-3 * f0);
        assert!((z[k] - z0).abs() < 0.1 * z0);
    }
}

/// Bad settings give typed errors: too few block rows for the order, too
/// few samples.
#[test]
fn parameter_errors() {
    let (u, y, _) = data(256, 0.0, 1);
    let e = n4sid(u.as_ref(), y.as_ref(), DT, &N4sidParams::new(2, 20)).unwrap_err();
    assert!(e.to_string().contains("block_rows"), "{e}");
    let e = n4sid(u.as_ref(), y.as_ref(), DT, &N4sidParams::new(30, 20)).unwrap_err();
    assert!(e.to_string().contains("not enough data"), "{e}");
}
