//! Seeded noise generation for simulations and synthetic identification
//! (process noise `w`, measurement noise `v`, random initial states; thesis
//! 002 §4.3–§5.6).
//!
//! A self-contained xoshiro256** generator (Blackman & Vigna) seeded through
//! SplitMix64, with Box–Muller normal deviates: the streams are identical
//! on every platform and independent of external crate versions.

use crate::error::{ControlError, Result};
use crate::linalg::cholesky;
use faer::{Mat, MatRef};

/// Deterministic pseudo-random generator.
#[derive(Clone, Debug)]
pub struct NoiseRng {
    s: [u64; 4],
    spare: Option<f64>,
}

impl NoiseRng {
    /// Generator from a 64-bit seed.
    pub fn new(seed: u64) -> Self {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E3779B97F4A7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
            z ^ (z >> 31)
        };
        Self {
            s: [next(), next(), next(), next()],
            spare: None,
        }
    }

    /// Next raw 64-bit value.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform deviate in `[0, 1)`.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Standard normal deviate (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        let u1 = 1.0 - self.uniform(); // (0, 1]
        let u2 = self.uniform();
        let rad = (-2.0 * u1.ln()).sqrt();
        let (s, c) = (2.0 * std::f64::consts::PI * u2).sin_cos();
        self.spare = Some(rad * s);
        rad * c
    }

    /// `rows × cols` matrix of independent `N(0, σ²)` samples.
    pub fn white(&mut self, rows: usize, cols: usize, sigma: f64) -> Mat<f64> {
        let mut out = Mat::zeros(rows, cols);
        for j in 0..cols {
            for i in 0..rows {
                out[(i, j)] = sigma * self.normal();
            }
        }
        out
    }

    /// `cols` samples (columns) of a zero-mean Gaussian vector with covariance `cov`.
    pub fn gaussian(&mut self, cov: MatRef<'_, f64>, cols: usize) -> Result<Mat<f64>> {
        let n = cov.nrows();
        let L = if n == 0 {
            Mat::zeros(0, 0)
        } else {
            match cholesky("noise covariance", cov) {
                Ok(L) => L,
                Err(_) => {
                    // positive semi-definite: symmetric square root via eigen-decomposition
                    let (vals, V) = crate::linalg::sym_eig("noise covariance", cov)?;
                    if vals
                        .iter()
                        .any(|&v| v < -1e-12 * vals.last().copied().unwrap_or(1.0).abs())
                    {
                        return Err(ControlError::NotPositiveDefinite {
                            name: "noise covariance".into(),
                        });
                    }
                    let D = crate::linalg::diag(
                        &vals.iter().map(|v| v.max(0.0).sqrt()).collect::<Vec<_>>(),
                    );
                    &V * D
                }
            }
        };
        let Z = self.white(n, cols, 1.0);
        Ok(&L * Z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn moments_and_reproducibility() {
        let mut a = NoiseRng::new(42);
        let mut b = NoiseRng::new(42);
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|_| a.normal()).collect();
        assert!(xs
            .iter()
            .zip((0..n).map(|_| b.normal()))
            .all(|(x, y)| *x == y));
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        // standard errors: mean 1/√n ≈ 2.2e-3, variance √(2/n) ≈ 3.2e-3; 5σ bounds
        assert!(mean.abs() < 0.012, "mean {mean}");
        assert!((var - 1.0).abs() < 0.016, "var {var}");
    }
}
