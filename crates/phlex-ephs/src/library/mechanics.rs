//! Scalar mechanical and thermal primitives of seed 001 §2 (Figs. 5–7):
//!
//! | function | kind | interface | equations |
//! |---|---|---|---|
//! | [`hookean_spring`] | storage | q: (ℝ, displacement) | $E = \tfrac12kq^2$, $e = kq$ (eq. (1)) |
//! | [`point_mass`] | storage | p: (ℝ, momentum) | $E = p^2/2m$, $e = p/m$ (eq. (2)) |
//! | [`pkc`] | reversible | q, p | $[q.f; p.f] = [[0, -1], [1, 0]][q.e; p.e]$ (eq. (3)) |
//! | [`linear_friction`] | irreversible | p: momentum, s: entropy | $[p.f; s.f] = \frac{d}{\theta_0}[[\theta, -v], [-v, v^2/\theta]][v; s.e]$ (eq. (6)) |
//! | [`environment`] | environment | s: (ℝ, entropy) | $e = 0$ (eq. (7)) |
use std::sync::Arc;

use crate::error::EphsError;
use crate::language::interface::Interface;
use crate::language::operators::{ConstantMatrix, OnsagerOperator, QuadraticEnergy};
use crate::language::primitive::Primitive;
use crate::language::quantity::Quantity;

fn positive(what: &str, v: f64) -> Result<(), EphsError> {
    if !(v > 0.0 && v.is_finite()) {
        return Err(EphsError::Parameter {
            what: what.into(),
            detail: format!("must satisfy 0 < {what} < ∞ (got {v})"),
        });
    }
    Ok(())
}

fn nonnegative(what: &str, v: f64) -> Result<(), EphsError> {
    if !(v >= 0.0 && v.is_finite()) {
        return Err(EphsError::Parameter {
            what: what.into(),
            detail: format!("must satisfy 0 ≤ {what} < ∞ (got {v})"),
        });
    }
    Ok(())
}

/// Hookean spring: storage $E_{pe}(q) = \tfrac12 k q^2$ on port `q` (seed 001 eq. (1)).
pub fn hookean_spring(k: f64) -> Result<Primitive, EphsError> {
    positive("k", k)?;
    Primitive::storage(
        &format!("hookean_spring(k = {k})"),
        Interface::new().power("q", Quantity::displacement())?,
        Arc::new(QuadraticEnergy { n: 1, K: vec![k] }),
    )
}

/// Point mass: storage $E_{ke}(p) = p^2/(2m)$ on port `p` (seed 001 eq. (2)).
pub fn point_mass(m: f64) -> Result<Primitive, EphsError> {
    positive("m", m)?;
    Primitive::storage(
        &format!("point_mass(m = {m})"),
        Interface::new().power("p", Quantity::momentum())?,
        Arc::new(QuadraticEnergy {
            n: 1,
            K: vec![1.0 / m],
        }),
    )
}

/// Potential–kinetic coupling: the canonical Poisson structure on ports `q`
/// (displacement) and `p` (momentum) (seed 001 eq. (3)).
pub fn pkc() -> Result<Primitive, EphsError> {
    Primitive::poisson(
        "pkc",
        Interface::new()
            .power("q", Quantity::displacement())?
            .power("p", Quantity::momentum())?,
        Arc::new(ConstantMatrix::new(2, vec![0.0, -1.0, 1.0, 0.0])),
        &[],
    )
}

/// Onsager structure of linear mechanical friction (seed 001 eq. (6)):
/// $M = d\begin{bmatrix}\theta & -v\\ -v & v^2/\theta\end{bmatrix}$ with $v = p.e$,
/// $\theta = \theta_0 + s.e$; $M[v; \theta] = 0$ and $M \succeq 0$ for $d \ge 0$, $\theta > 0$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearFriction {
    /// Friction coefficient $d \ge 0$.
    pub d: f64,
}

impl OnsagerOperator for LinearFriction {
    fn matrix(&self, _x: &[f64], e: &[f64], theta0: f64, M: &mut [f64]) {
        let v = e[0];
        let theta = theta0 + e[1];
        M[0] = self.d * theta;
        M[1] = -self.d * v;
        M[2] = -self.d * v;
        M[3] = self.d * v * v / theta;
    }
}

/// Mechanical friction `mf` with ports `p` (momentum) and `s` (entropy):
/// $p.f = d\,v\,\theta/\theta_0$, $s.f = -d v^2/\theta_0$ (seed 001 eq. (6)).
pub fn linear_friction(d: f64) -> Result<Primitive, EphsError> {
    nonnegative("d", d)?;
    Primitive::irreversible(
        &format!("linear_friction(d = {d})"),
        Interface::new()
            .power("p", Quantity::momentum())?
            .power("s", Quantity::entropy())?,
        Arc::new(LinearFriction { d }),
        &[],
    )
}

/// The environment component (seed 001 eq. (7)).
pub fn environment() -> Primitive {
    Primitive::environment()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structures_verify() {
        // pkc is skew; friction is symmetric PSD and annihilates (v, θ) at random points.
        pkc()
            .unwrap()
            .verify_structure(&[0.3, 0.1], &[1.0, -2.0], 300.0, 1e-14)
            .unwrap();
        let mf = linear_friction(0.7).unwrap();
        for (v, se) in [(1.3, 0.0), (-0.4, 12.0), (0.0, -5.0), (3e3, 1.0)] {
            mf.verify_structure(&[0.0, 0.0], &[v, se], 300.0, 1e-13)
                .unwrap();
        }
        assert!(matches!(
            linear_friction(-1.0),
            Err(EphsError::Parameter { .. })
        ));
        assert!(matches!(point_mass(0.0), Err(EphsError::Parameter { .. })));
    }

    #[test]
    fn non_skew_poisson_is_rejected() {
        let p = Primitive::poisson(
            "bad",
            Interface::new()
                .power("q", Quantity::displacement())
                .unwrap()
                .power("p", Quantity::momentum())
                .unwrap(),
            Arc::new(ConstantMatrix::new(2, vec![0.0, -1.0, 0.5, 0.0])),
            &[],
        )
        .unwrap();
        let e = p
            .verify_structure(&[0.0, 0.0], &[1.0, 1.0], 300.0, 1e-12)
            .unwrap_err();
        assert!(e.to_string().contains("skew"), "{e}");
    }
}
