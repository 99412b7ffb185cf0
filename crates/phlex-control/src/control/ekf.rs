//! Continuous extended Kalman filter integrated together with the plant and
//! the Riccati equation (thesis 002 §5.7, EUK-EKF, eqs. (5.276)–(5.290)).
//!
//! Plant `ż = f(t, z, u) + w`, measurement `y = h(t, z, u) + v`, control
//! `u = κ(t, ẑ)` computed from the estimate. Estimator
//! `ż̂ = f(t, ẑ, u) + K(y − h(t, ẑ, u))`, `K = P Hᵀ R_v⁻¹`,
//! `Ṗ = F P + P Fᵀ − P Hᵀ R_v⁻¹ H P + R_w` with `F = ∂f/∂z`, `H = ∂h/∂z`
//! at `ẑ`. The three are coupled and integrated as one ODE in
//! `[z; ẑ; vec P]` with fixed-step RK4. White noises of intensities `R_w`,
//! `R_v` are realised as seeded piecewise-constant samples of covariance
//! `R/Δt` over each step. Like the thesis, the Jacobian `F` is that of the
//! model `f` only (the control enters through `u`, not differentiated).

use crate::error::{dim_err, ControlError, Result};
use crate::linalg::{check_shape, cholesky, fd_jacobian, DenseLu};
use crate::signal::noise::NoiseRng;
use faer::{Mat, MatRef};
use phlex_solve::Rk4;

/// A nonlinear model `ż = f(t, z, u)`, `y = h(t, z, u)`.
pub trait NonlinearModel {
    /// state dimension
    fn n_states(&self) -> usize;
    /// output dimension
    fn n_outputs(&self) -> usize;
    /// `ż = f(t, z, u)` written into `dz`
    fn f(&self, t: f64, z: &[f64], u: &[f64], dz: &mut [f64]);
    /// `y = h(t, z, u)` written into `y`
    fn h(&self, t: f64, z: &[f64], u: &[f64], y: &mut [f64]);
    /// `∂f/∂z`; default: central differences (step `1e-6(1 + |zⱼ|)`)
    fn jac_f(&self, t: f64, z: &[f64], u: &[f64]) -> Mat<f64> {
        fd_jacobian(self.n_states(), z, |x, out| self.f(t, x, u, out))
    }
    /// `∂h/∂z`; default: central differences
    fn jac_h(&self, t: f64, z: &[f64], u: &[f64]) -> Mat<f64> {
        fd_jacobian(self.n_outputs(), z, |x, out| self.h(t, x, u, out))
    }
}

/// Settings of a coupled plant/EKF simulation.
#[derive(Clone, Debug)]
pub struct EkfSettings {
    /// process-noise intensity `R_w` (`n × n`)
    pub Rw: Mat<f64>,
    /// measurement-noise intensity `R_v` (`m × m`, positive definite)
    pub Rv: Mat<f64>,
    /// initial covariance `P(0)`
    pub P0: Mat<f64>,
    /// step size
    pub h: f64,
    /// number of steps
    pub steps: usize,
    /// seed of the noise generator
    pub seed: u64,
    /// `false`: noise-free plant and measurements (filter still uses `R_w`, `R_v`)
    pub inject_noise: bool,
}

/// Time histories of a coupled simulation (every step stored).
#[derive(Clone, Debug)]
pub struct EkfTrace {
    /// times
    pub t: Vec<f64>,
    /// plant states
    pub z: Vec<Vec<f64>>,
    /// estimates
    pub zhat: Vec<Vec<f64>>,
    /// controls applied at the grid times
    pub u: Vec<Vec<f64>>,
    /// final covariance
    pub P: Mat<f64>,
}

/// Simulates plant, EKF and Riccati equation together from `z0`, `zhat0`.
pub fn simulate_ekf<M: NonlinearModel>(
    model: &M,
    mut control: impl FnMut(f64, &[f64]) -> Vec<f64>,
    z0: &[f64],
    zhat0: &[f64],
    s: &EkfSettings,
) -> Result<EkfTrace> {
    let (n, m) = (model.n_states(), model.n_outputs());
    if z0.len() != n || zhat0.len() != n {
        return Err(dim_err("z0/zhat0", n, 1, z0.len().min(zhat0.len()), 1));
    }
    check_shape("R_w", s.Rw.as_ref(), n, n)?;
    check_shape("R_v", s.Rv.as_ref(), m, m)?;
    check_shape("P0", s.P0.as_ref(), n, n)?;
    if !(s.h > 0.0) {
        return Err(ControlError::InvalidParameter {
            name: "h".into(),
            reason: "step must satisfy h > 0".into(),
        });
    }
    let Rv_inv = DenseLu::new("R_v", s.Rv.as_ref())?.inverse();
    // noise factors for covariance R/h
    let Lw = if s.inject_noise {
        Some(noise_factor(s.Rw.as_ref(), s.h)?)
    } else {
        None
    };
    let Lv = if s.inject_noise {
        Some(noise_factor(s.Rv.as_ref(), s.h)?)
    } else {
        None
    };
    let mut rng = NoiseRng::new(s.seed);
    let dim = 2 * n + n * n;
    let mut X = vec![0.0; dim];
    X[..n].copy_from_slice(z0);
    X[n..2 * n].copy_from_slice(zhat0);
    for j in 0..n {
        for i in 0..n {
            X[2 * n + i + j * n] = s.P0[(i, j)];
        }
    }
    let mut rk = Rk4::new(dim);
    let mut trace = EkfTrace {
        t: vec![0.0],
        z: vec![z0.to_vec()],
        zhat: vec![zhat0.to_vec()],
        u: vec![],
        P: s.P0.clone(),
    };
    let mut w = vec![0.0; n];
    let mut v = vec![0.0; m];
    let mut y = vec![0.0; m];
    let mut yh = vec![0.0; m];
    let mut fz = vec![0.0; n];
    let mut fzh = vec![0.0; n];
    for k in 0..s.steps {
        let t0 = k as f64 * s.h;
        if let (Some(Lw), Some(Lv)) = (&Lw, &Lv) {
            let ew = rng.white(n, 1, 1.0);
            let ev = rng.white(m, 1, 1.0);
            let ww = Lw * &ew;
            let vv = Lv * &ev;
            for i in 0..n {
                w[i] = ww[(i, 0)];
            }
            for i in 0..m {
                v[i] = vv[(i, 0)];
            }
        }
        trace.u.push(control(t0, &X[n..2 * n]));
        let mut rhs = |t: f64, x: &[f64], dx: &mut [f64]| {
            let (z, zh) = (&x[..n], &x[n..2 * n]);
            let P = MatRef::from_column_major_slice(&x[2 * n..], n, n);
            let u = control(t, zh);
            model.f(t, z, &u, &mut fz);
            model.h(t, z, &u, &mut y);
            model.f(t, zh, &u, &mut fzh);
            model.h(t, zh, &u, &mut yh);
            let F = model.jac_f(t, zh, &u);
            let H = model.jac_h(t, zh, &u);
            let PHt = P * H.transpose();
            let K = &PHt * &Rv_inv;
            for i in 0..n {
                dx[i] = fz[i] + w[i];
            }
            for i in 0..n {
                let mut acc = fzh[i];
                for j in 0..m {
                    acc += K[(i, j)] * (y[j] + v[j] - yh[j]);
                }
                dx[n + i] = acc;
            }
            let FP = &F * P;
            let dP = &FP + FP.transpose() - &K * PHt.transpose() + s.Rw.as_ref();
            for j in 0..n {
                for i in 0..n {
                    dx[2 * n + i + j * n] = 0.5 * (dP[(i, j)] + dP[(j, i)]);
                }
            }
        };
        rk.step(&mut rhs, t0, &mut X, s.h);
        if X.iter().any(|x| !x.is_finite()) {
            return Err(ControlError::NoConvergence {
                what: "coupled plant/EKF integration (blow-up: reduce h)".into(),
                iterations: k + 1,
                residual: f64::INFINITY,
            });
        }
        trace.t.push(t0 + s.h);
        trace.z.push(X[..n].to_vec());
        trace.zhat.push(X[n..2 * n].to_vec());
    }
    trace.u.push(control(s.steps as f64 * s.h, &X[n..2 * n]));
    trace.P = Mat::from_fn(n, n, |i, j| X[2 * n + i + j * n]);
    Ok(trace)
}

fn noise_factor(R: MatRef<'_, f64>, h: f64) -> Result<Mat<f64>> {
    let n = R.nrows();
    let Rs = Mat::from_fn(n, n, |i, j| R[(i, j)] / h);
    match cholesky("noise intensity", Rs.as_ref()) {
        Ok(L) => Ok(L),
        Err(_) => {
            let (vals, V) = crate::linalg::sym_eig("noise intensity", Rs.as_ref())?;
            let D =
                crate::linalg::diag(&vals.iter().map(|v| v.max(0.0).sqrt()).collect::<Vec<_>>());
            Ok(&V * D)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::kalman::kalman_riccati_continuous;
    use crate::linalg::{diag, fro};

    struct Linear {
        A: Mat<f64>,
        C: Mat<f64>,
    }
    impl NonlinearModel for Linear {
        fn n_states(&self) -> usize {
            2
        }
        fn n_outputs(&self) -> usize {
            1
        }
        fn f(&self, _t: f64, z: &[f64], _u: &[f64], dz: &mut [f64]) {
            for i in 0..2 {
                dz[i] = self.A[(i, 0)] * z[0] + self.A[(i, 1)] * z[1];
            }
        }
        fn h(&self, _t: f64, z: &[f64], _u: &[f64], y: &mut [f64]) {
            y[0] = self.C[(0, 0)] * z[0] + self.C[(0, 1)] * z[1];
        }
    }

    /// Linear model: the EKF covariance is the Kalman–Bucy Riccati solution
    /// (both RK4 with the same step; FD Jacobians exact for linear f up to
    /// 1e-10), and without noise an exact initial estimate stays exact.
    #[test]
    fn linear_reduces_to_kalman_bucy() {
        let A = Mat::from_fn(2, 2, |i, j| [[0.0, 1.0], [-4.0, -0.2]][i][j]);
        let C = Mat::from_fn(1, 2, |_, j| [1.0, 0.0][j]);
        let model = Linear {
            A: A.clone(),
            C: C.clone(),
        };
        let s = EkfSettings {
            Rw: diag(&[0.0, 0.1]),
            Rv: diag(&[0.01]),
            P0: diag(&[1.0, 1.0]),
            h: 1e-3,
            steps: 5000,
            seed: 1,
            inject_noise: false,
        };
        let tr = simulate_ekf(&model, |_t, _z| vec![], &[1.0, 0.0], &[1.0, 0.0], &s).unwrap();
        let Ps = kalman_riccati_continuous(
            A.as_ref(),
            C.as_ref(),
            s.Rw.as_ref(),
            s.Rv.as_ref(),
            s.P0.as_ref(),
            5.0,
            5000,
        )
        .unwrap();
        assert!(fro((&tr.P - Ps.last().unwrap()).as_ref()) < 1e-8 * fro(tr.P.as_ref()));
        let last = tr.zhat.last().unwrap();
        let zl = tr.z.last().unwrap();
        assert!((last[0] - zl[0]).abs() < 1e-12 && (last[1] - zl[1]).abs() < 1e-12);
    }
}
