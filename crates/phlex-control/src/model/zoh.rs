//! Zero-order-hold discretisation and its inverse (thesis 002 eqs.
//! (3.17)–(3.21) and (3.36)).
//!
//! `A = e^{A_c Δt}`, `B = ∫₀^{Δt} e^{A_c τ} dτ B_c`, both read off the block
//! exponential `exp([[A_c, B_c], [0, 0]] Δt) = [[A, B], [0, I]]`, which needs no
//! invertible `A_c`. The inverse map takes the principal logarithm of
//! `[[A, B], [0, I]]` (divided by `Δt`), which needs no invertible `A − I`
//! and exists when no eigenvalue of `A` lies on the closed negative real
//! axis (eigenvalue frequencies strictly below Nyquist `1/(2Δt)`).
//! `C` and `D` are unchanged.

use crate::error::{ControlError, Result};
use crate::linalg::{expm, logm};
use crate::model::state_space::{check_sampling_time, StateSpace};
use faer::{Mat, Scale};

/// Continuous → discrete with a zero-order hold of period `dt`.
pub fn c2d(sys: &StateSpace, dt: f64) -> Result<StateSpace> {
    check_sampling_time(dt)?;
    if sys.dt.is_some() {
        return Err(ControlError::InvalidParameter {
            name: "model".into(),
            reason: "c2d needs a continuous model".into(),
        });
    }
    let (n, r) = (sys.n_states(), sys.n_inputs());
    let mut Mb = Mat::<f64>::zeros(n + r, n + r);
    Mb.as_mut()
        .submatrix_mut(0, 0, n, n)
        .copy_from(Scale(dt) * &sys.A);
    Mb.as_mut()
        .submatrix_mut(0, n, n, r)
        .copy_from(Scale(dt) * &sys.B);
    let E = expm(Mb.as_ref())?;
    let A = E.as_ref().submatrix(0, 0, n, n).to_owned();
    let B = E.as_ref().submatrix(0, n, n, r).to_owned();
    StateSpace::new(A, B, sys.C.clone(), sys.D.clone(), Some(dt))
}

/// Discrete → continuous, inverse of [`c2d`] (principal logarithm).
pub fn d2c(sys: &StateSpace) -> Result<StateSpace> {
    let dt = sys.dt.ok_or_else(|| ControlError::InvalidParameter {
        name: "model".into(),
        reason: "d2c needs a discrete model".into(),
    })?;
    let (n, r) = (sys.n_states(), sys.n_inputs());
    let mut Mb = Mat::<f64>::zeros(n + r, n + r);
    Mb.as_mut().submatrix_mut(0, 0, n, n).copy_from(&sys.A);
    Mb.as_mut().submatrix_mut(0, n, n, r).copy_from(&sys.B);
    for i in 0..r {
        Mb[(n + i, n + i)] = 1.0;
    }
    let L = logm(Mb.as_ref())?;
    let A = Scale(1.0 / dt) * L.as_ref().submatrix(0, 0, n, n);
    let B = Scale(1.0 / dt) * L.as_ref().submatrix(0, n, n, r);
    StateSpace::new(A, B, sys.C.clone(), sys.D.clone(), None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::fro;

    /// Scalar first-order system ẋ = a x + b u: A = e^{aΔt}, B = b(e^{aΔt} − 1)/a.
    #[test]
    fn scalar_exact() {
        let (a, b, dt) = (-2.5, 3.0, 0.1);
        let s = StateSpace::new(
            Mat::from_fn(1, 1, |_, _| a),
            Mat::from_fn(1, 1, |_, _| b),
            Mat::from_fn(1, 1, |_, _| 1.0),
            Mat::zeros(1, 1),
            None,
        )
        .unwrap();
        let d = c2d(&s, dt).unwrap();
        let ea = (a * dt).exp();
        assert!((d.A[(0, 0)] - ea).abs() < 1e-15);
        assert!((d.B[(0, 0)] - b * (ea - 1.0) / a).abs() < 1e-15);
        let c = d2c(&d).unwrap();
        // logarithm round trip, 1e-12 relative
        assert!((c.A[(0, 0)] - a).abs() < 1e-12 * a.abs());
        assert!((c.B[(0, 0)] - b).abs() < 1e-12 * b);
    }

    /// Double integrator (singular A_c): B = [Δt²/2; Δt] exactly; round trip.
    #[test]
    fn double_integrator() {
        let dt = 0.2;
        let s = StateSpace::new(
            Mat::from_fn(2, 2, |i, j| (i == 0 && j == 1) as u8 as f64),
            Mat::from_fn(2, 1, |i, _| (i == 1) as u8 as f64),
            Mat::from_fn(1, 2, |_, j| (j == 0) as u8 as f64),
            Mat::zeros(1, 1),
            None,
        )
        .unwrap();
        let d = c2d(&s, dt).unwrap();
        assert!((d.B[(0, 0)] - dt * dt / 2.0).abs() < 1e-15);
        assert!((d.B[(1, 0)] - dt).abs() < 1e-15);
        assert!((d.A[(0, 1)] - dt).abs() < 1e-15);
        let c = d2c(&d).unwrap();
        assert!(fro((&c.A - &s.A).as_ref()) < 1e-12);
        assert!(fro((&c.B - &s.B).as_ref()) < 1e-12);
    }
}
