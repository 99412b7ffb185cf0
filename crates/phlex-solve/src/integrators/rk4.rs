//! Fixed-step classical Runge–Kutta (RK4) for small explicit ODEs $\dot y = f(t, y)$
//! (Hairer–Nørsett–Wanner I, §II.1, order 4): the Riccati differential equations,
//! Udwadia–Kalaba dynamics and coupled plant/estimator/Riccati systems of `phlex-control`
//! (thesis 004 ch. 7–8; the thesis does not state its integrator, its step sizes of
//! 1e-4 s suggest a fixed-step explicit one). It is not a pH integrator: it sees only $f$,
//! so it keeps no power balance. Buffers are allocated once per integrator, not per step.
// Index loops over stages and state components mirror the formulas.
#![allow(clippy::needless_range_loop)]

/// Reusable RK4 stage buffers for a state of dimension `n`.
#[derive(Clone, Debug)]
pub struct Rk4 {
    k1: Vec<f64>,
    k2: Vec<f64>,
    k3: Vec<f64>,
    k4: Vec<f64>,
    tmp: Vec<f64>,
}

impl Rk4 {
    /// Buffers for dimension `n`.
    pub fn new(n: usize) -> Self {
        Self {
            k1: vec![0.0; n],
            k2: vec![0.0; n],
            k3: vec![0.0; n],
            k4: vec![0.0; n],
            tmp: vec![0.0; n],
        }
    }

    /// One step `y(t) → y(t + h)` of `ẏ = f(t, y)`; `f(t, y, dy)` writes `dy`.
    pub fn step<F: FnMut(f64, &[f64], &mut [f64])>(
        &mut self,
        f: &mut F,
        t: f64,
        y: &mut [f64],
        h: f64,
    ) {
        let n = y.len();
        f(t, y, &mut self.k1);
        for i in 0..n {
            self.tmp[i] = y[i] + 0.5 * h * self.k1[i];
        }
        f(t + 0.5 * h, &self.tmp, &mut self.k2);
        for i in 0..n {
            self.tmp[i] = y[i] + 0.5 * h * self.k2[i];
        }
        f(t + 0.5 * h, &self.tmp, &mut self.k3);
        for i in 0..n {
            self.tmp[i] = y[i] + h * self.k3[i];
        }
        f(t + h, &self.tmp, &mut self.k4);
        for i in 0..n {
            y[i] += h / 6.0 * (self.k1[i] + 2.0 * self.k2[i] + 2.0 * self.k3[i] + self.k4[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    /// Harmonic oscillator over one period: RK4 global error O(h⁴).
    #[test]
    fn oscillator_fourth_order() {
        let err = |steps: usize| {
            let mut y = [1.0, 0.0];
            let h = 2.0 * std::f64::consts::PI / steps as f64;
            let mut rk = Rk4::new(2);
            let mut f = |_t: f64, y: &[f64], d: &mut [f64]| {
                d[0] = y[1];
                d[1] = -y[0];
            };
            for k in 0..steps {
                rk.step(&mut f, k as f64 * h, &mut y, h);
            }
            ((y[0] - 1.0).powi(2) + y[1].powi(2)).sqrt()
        };
        let ratio = err(50) / err(100);
        // 2⁴ = 16 within 10 %
        assert!((ratio - 16.0).abs() < 1.6, "{ratio}");
    }
}
