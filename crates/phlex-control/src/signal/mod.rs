//! Signals: seeded noise for simulations and synthetic identification, and
//! FFT-based spectral estimates (thesis 002 §4.3–§5.6).
//!
//! | module | what |
//! |---|---|
//! | [`noise`] | seeded Gaussian noise (xoshiro256**, Box–Muller), white and correlated |
//! | [`spectral`] | FFT, Welch auto/cross spectral densities, H₁ FRF and coherence, model frequency response |

pub mod noise;
pub mod spectral;

pub use noise::NoiseRng;
