//! The interface the multibody integrators need beyond [`QuasiLinearPhDae`]: the
//! right-hand side $f = J(x)z + B(x)u$ for a given effort and its **exact** Jacobian
//! $\partial_x f$ (see [`crate::simulate`] for why the Newton matrix must include the
//! derivatives of $J$ and $B$), and the position-level constraint drift.
use phlex_core::sparse::SparseMat;
use phlex_core::QuasiLinearPhDae;

/// A quasilinear pH system with an exact right-hand-side Jacobian.
pub trait Mechanism: QuasiLinearPhDae {
    /// $f = J(x)z + B(x)u$ into `f`.
    fn rhs_with_effort(&self, x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]);
    /// $\partial_x\big(J(x)z(x) + B(x)u\big)$.
    fn rhs_jacobian(&self, x: &[f64], u: &[f64]) -> SparseMat;
    /// Largest position-level constraint violation (0 without constraints).
    fn max_position_drift(&self, x: &[f64]) -> f64 {
        let _ = x;
        0.0
    }
}

impl Mechanism for crate::assembly::Multibody {
    fn rhs_with_effort(&self, x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        crate::assembly::Multibody::rhs_with_effort(self, x, z, u, f)
    }
    fn rhs_jacobian(&self, x: &[f64], u: &[f64]) -> SparseMat {
        crate::assembly::Multibody::rhs_jacobian(self, x, u)
    }
    fn max_position_drift(&self, x: &[f64]) -> f64 {
        crate::assembly::Multibody::max_position_drift(self, x)
    }
}
