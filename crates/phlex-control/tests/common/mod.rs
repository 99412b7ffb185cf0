//! Shared fixtures of the phlex-control integration tests: the three-floor
//! shear frame of the case study (thesis 002 §5.5) with Rayleigh damping,
//! force on floor 1 and the three floor accelerations as outputs, sampled at
//! 32 Hz. Each test crate uses a subset of them.
#![allow(dead_code)]

use faer::Mat;
use phlex_control::model::zoh::c2d;
use phlex_control::signal::noise::NoiseRng;
use phlex_control::{FrameParams, Mdof, OutputMaps, Sensing, StateSpace};

/// Sampling time of the case study (32 Hz).
pub const DT: f64 = 1.0 / 32.0;
/// Rayleigh `α` of the test frame.
pub const ALPHA: f64 = 0.5;
/// Rayleigh `β` of the test frame.
pub const BETA: f64 = 2e-4;

/// The lumped shear frame with Rayleigh damping `(ALPHA, BETA)`.
pub fn frame() -> Mdof {
    FrameParams::default()
        .shear_frame()
        .unwrap()
        .with_rayleigh(ALPHA, BETA)
}

/// ZOH discretisation (`DT`) of [`frame`] with the floor accelerations as
/// outputs.
pub fn plant() -> StateSpace {
    let c = StateSpace::from_mdof(
        &frame(),
        &OutputMaps::sensing(Sensing::Acceleration, 3, &[0, 1, 2]),
    )
    .unwrap();
    c2d(&c, DT).unwrap()
}

/// Response of [`plant`] at rest to `l` samples of unit white-noise force
/// drawn from `NoiseRng::new(seed)`: `(rng, u, y)`, the generator returned
/// for further draws (measurement noise).
pub fn white_noise_test(seed: u64, l: usize) -> (NoiseRng, Mat<f64>, Mat<f64>) {
    let mut rng = NoiseRng::new(seed);
    let u = rng.white(1, l, 1.0);
    let (y, _) = plant().simulate(u.as_ref(), None).unwrap();
    (rng, u, y)
}
