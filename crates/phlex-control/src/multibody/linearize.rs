//! Linearisation of a constrained multibody system about an equilibrium:
//! the linear MDOF model `M ẍ + R ẋ + K x = B u` of thesis 002 summary §2.7
//! ("linear form") in independent coordinates.
//!
//! At a configuration `q₀` at rest, with constraint Jacobian `C = f_q(q₀)`
//! (the `A` of the acceleration form: normalisation rows, joints, extra
//! constraints) and static multipliers `λ₀` (least squares of
//! `Q(q₀, 0) + Cᵀλ = 0`, exact at an equilibrium), admissible variations are
//! `δq = T x` with `T` an orthonormal basis of `ker C`, and
//!
//! * `M_r = Tᵀ M(q₀) T`;
//! * `K_r = −Tᵀ ∂_q[Q(q, 0) + C(q)ᵀλ₀] T` (tangent stiffness: elastic
//!   stiffness, stiffness of gravity and the geometric stiffness of the
//!   reactions);
//! * `R_r = −Tᵀ ∂_{q̇} Q(q₀, q̇)|₀ T` (the quadratic velocity vector has zero
//!   derivative at rest, so only structural damping remains).
//!
//! The derivatives are central differences (step `10⁻⁶(1 + |q_j|)`); the
//! elastic part is linear, so it is reproduced to round-off.

use faer::Mat;

use super::system::MultibodySystem;
use crate::error::{ControlError, Result};
use crate::linalg::{pinv, svd_full};
use crate::model::mdof::Mdof;

/// Result of [`linearize`].
#[derive(Debug, Clone)]
pub struct Linearization {
    /// Orthonormal basis `T` of the admissible variations (`n × n_dof`).
    pub basis: Mat<f64>,
    /// Reduced model `M_r ẍ + R_r ẋ + K_r x = 0` (no inputs).
    pub model: Mdof,
    /// Static multipliers `λ₀`.
    pub lambda: Vec<f64>,
    /// `‖Q(q₀,0) + Cᵀλ₀‖∞`: zero at an equilibrium.
    pub equilibrium_residual: f64,
    /// `‖K_r − K_rᵀ‖∞ / ‖K_r‖∞` before symmetrisation.
    pub asymmetry: f64,
}

/// Linearises `sys` about `q0` at rest and time `t` (see the module documentation).
pub fn linearize(sys: &MultibodySystem, t: f64, q0: &[f64]) -> Result<Linearization> {
    let n = sys.n_coords();
    if q0.len() != n {
        return Err(crate::error::dim_err("q0", n, 1, q0.len(), 1));
    }
    let zeros = vec![0.0; n];
    let (C, _) = sys.constraints(t, q0, &zeros)?;
    let (s, V) = svd_full("constraint Jacobian", C.as_ref())?;
    let smax = s.first().copied().unwrap_or(0.0);
    let tol = smax * 1e-10 * (n.max(C.nrows()) as f64);
    let rank = s.iter().filter(|&&v| v > tol).count();
    let nd = n - rank;
    if nd == 0 {
        return Err(ControlError::InvalidParameter {
            name: "linearisation".into(),
            reason: "the constraints leave no degree of freedom".into(),
        });
    }
    let T = V.as_ref().submatrix(0, rank, n, nd).to_owned();
    let Q0 = sys.forces(t, q0, &zeros)?;
    let Ct = C.transpose().to_owned();
    let Ctp = pinv("Cᵀ", Ct.as_ref(), 1e-10)?;
    let lambda: Vec<f64> = (0..C.nrows())
        .map(|i| -(0..n).map(|j| Ctp[(i, j)] * Q0[j]).sum::<f64>())
        .collect();
    let mut eq_res = 0.0f64;
    for i in 0..n {
        let r = Q0[i] + (0..C.nrows()).map(|k| C[(k, i)] * lambda[k]).sum::<f64>();
        eq_res = eq_res.max(r.abs());
    }
    // F(q) = Q(q, 0) + C(q)ᵀλ₀
    let F = |q: &[f64]| -> Result<Vec<f64>> {
        let mut f = sys.forces(t, q, &zeros)?;
        let (Cq, _) = sys.constraints(t, q, &zeros)?;
        for i in 0..n {
            f[i] += (0..Cq.nrows()).map(|k| Cq[(k, i)] * lambda[k]).sum::<f64>();
        }
        Ok(f)
    };
    let mut Kt = Mat::<f64>::zeros(n, n);
    let mut Dt = Mat::<f64>::zeros(n, n);
    let mut qp = q0.to_vec();
    let mut vp = zeros.clone();
    for j in 0..n {
        let h = 1e-6 * (1.0 + q0[j].abs());
        qp[j] = q0[j] + h;
        let fp = F(&qp)?;
        qp[j] = q0[j] - h;
        let fm = F(&qp)?;
        qp[j] = q0[j];
        vp[j] = h;
        let gp = sys.forces(t, q0, &vp)?;
        vp[j] = -h;
        let gm = sys.forces(t, q0, &vp)?;
        vp[j] = 0.0;
        for i in 0..n {
            Kt[(i, j)] = -(fp[i] - fm[i]) / (2.0 * h);
            Dt[(i, j)] = -(gp[i] - gm[i]) / (2.0 * h);
        }
    }
    let M = sys.mass_matrix(q0)?;
    let Mr = T.transpose() * &M * &T;
    let Kr = T.transpose() * &Kt * &T;
    let Rr = T.transpose() * &Dt * &T;
    let mut kmax = 0.0f64;
    let mut asym = 0.0f64;
    for i in 0..nd {
        for j in 0..nd {
            kmax = kmax.max(Kr[(i, j)].abs());
            asym = asym.max((Kr[(i, j)] - Kr[(j, i)]).abs());
        }
    }
    let sym = |A: &Mat<f64>| Mat::from_fn(nd, nd, |i, j| 0.5 * (A[(i, j)] + A[(j, i)]));
    let model = Mdof::new(sym(&Mr), sym(&Rr), sym(&Kr), Mat::zeros(nd, 0))?;
    Ok(Linearization {
        basis: T,
        model,
        lambda,
        equilibrium_residual: eq_res,
        asymmetry: if kmax > 0.0 { asym / kmax } else { 0.0 },
    })
}
