//! Scalar mechanical and thermal primitives of seed 001 §2 (Figs. 5–7):
//!
//! | function | kind | interface | equations |
//! |---|---|---|---|
//! | [`hookean_spring`] | storage | q: (ℝ, displacement) | $E = \tfrac12kq^2$, $e = kq$ (eq. (1)) |
//! | [`point_mass`] | storage | p: (ℝ, momentum) | $E = p^2/2m$, $e = p/m$ (eq. (2)) |
//! | [`pkc`] | reversible | q, p | $[q.f; p.f] = [[0, -1], [1, 0]][q.e; p.e]$ (eq. (3)) |
//! | [`linear_friction`] | irreversible | p: momentum, s: entropy | $[p.f; s.f] = \frac{d}{\theta_0}[[\theta, -v], [-v, v^2/\theta]][v; s.e]$ (eq. (6)) |
//! | [`nonlinear_friction`] | irreversible | p: momentum, s: entropy | $[p.f; s.f] = \frac{c(v)}{\theta_0}[[\theta, -v], [-v, v^2/\theta]][v; s.e]$, $c(v) = d + \mu_c\tanh(\lvert v\rvert/v_s)/\lvert v\rvert$ (§4: $M = M(x, e)$) |
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
    positive("stiffness", k)?;
    Primitive::storage(
        &format!("hookean_spring(k = {k})"),
        Interface::new().power("q", Quantity::displacement())?,
        Arc::new(QuadraticEnergy { n: 1, K: vec![k] }),
    )
}

/// Point mass: storage $E_{ke}(p) = p^2/(2m)$ on port `p` (seed 001 eq. (2)).
pub fn point_mass(m: f64) -> Result<Primitive, EphsError> {
    positive("mass", m)?;
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
    nonnegative("damping", d)?;
    Primitive::irreversible(
        &format!("linear_friction(d = {d})"),
        Interface::new()
            .power("p", Quantity::momentum())?
            .power("s", Quantity::entropy())?,
        Arc::new(LinearFriction { d }),
        &[],
    )
}

/// Parameters of the regularised Coulomb + viscous friction law
/// $F(v) = \big(d + \mu_c\tanh(\lvert v\rvert/v_s)/\lvert v\rvert\big)\,v$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NonlinearFrictionLaw {
    /// Viscous coefficient $d \ge 0$.
    pub d: f64,
    /// Coulomb force (torque) level $\mu_c \ge 0$: $\lvert F\rvert \to \mu_c$ for
    /// $d = 0$, $\lvert v\rvert \gg v_s$.
    pub mu_c: f64,
    /// Regularisation velocity $v_s > 0$ (width of the smooth sign).
    pub v_s: f64,
}

impl NonlinearFrictionLaw {
    /// Validates $d \ge 0$, $\mu_c \ge 0$, $v_s > 0$ (all finite); the error names the key.
    pub fn new(d: f64, mu_c: f64, v_s: f64) -> Result<Self, EphsError> {
        nonnegative("damping", d)?;
        nonnegative("coulomb_friction", mu_c)?;
        positive("regularization_velocity", v_s)?;
        Ok(Self { d, mu_c, v_s })
    }

    /// The effective coefficient $c(r) = d + \mu_c\tanh(r/v_s)/r$ at speed $r = \lvert v\rvert \ge 0$,
    /// with its limit $d + \mu_c/v_s$ at $r = 0$ (series $\tanh x/x = 1 - x^2/3 + 2x^4/15$
    /// for $x = r/v_s < 10^{-3}$, truncation $< 10^{-18}$ relative).
    pub fn coefficient(&self, r: f64) -> f64 {
        let x = r / self.v_s;
        let g = if x < 1e-3 {
            let x2 = x * x;
            (1.0 - x2 / 3.0 + 2.0 * x2 * x2 / 15.0) / self.v_s
        } else {
            x.tanh() / r
        };
        self.d + self.mu_c * g
    }

    /// The friction force $F(v) = c(\lvert v\rvert)\,v$ (scalar velocity).
    pub fn force(&self, v: f64) -> f64 {
        self.coefficient(v.abs()) * v
    }
}

/// Onsager structure of isotropic nonlinear friction on a $k$-dimensional momentum port
/// (seed 001 §4: the Onsager matrix depends on the efforts):
/// $M(e) = c(\lvert u\rvert)\begin{bmatrix}\theta I_k & -u\\ -u^\top & \lvert u\rvert^2/\theta\end{bmatrix}$
/// with $u = p.e$ (velocity), $\theta = \theta_0 + s.e$ and $c$ of
/// [`NonlinearFrictionLaw::coefficient`]. $M$ is symmetric,
/// $[a; b]^\top M[a; b] = c\,\lvert\sqrt\theta a - b u/\sqrt\theta\rvert^2 \ge 0$ and
/// $M[u; \theta] = 0$, so the dissipated power $c\lvert u\rvert^2$ enters the entropy port:
/// $p.f = c\,u$, $s.f = -c\lvert u\rvert^2/\theta$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NonlinearFriction {
    /// Dimension $k$ of the momentum port (1: translation; a joint's $k$).
    pub k: usize,
    /// The friction law.
    pub law: NonlinearFrictionLaw,
}

impl OnsagerOperator for NonlinearFriction {
    fn matrix(&self, _x: &[f64], e: &[f64], theta0: f64, M: &mut [f64]) {
        let k = self.k;
        let n = k + 1;
        let u = &e[..k];
        let theta = theta0 + e[k];
        let u2: f64 = u.iter().map(|a| a * a).sum();
        let c = self.law.coefficient(u2.sqrt());
        for i in 0..k {
            for j in 0..k {
                M[i * n + j] = if i == j { c * theta } else { 0.0 };
            }
            M[i * n + k] = -c * u[i];
            M[k * n + i] = -c * u[i];
        }
        M[k * n + k] = c * u2 / theta;
    }
}

/// Nonlinear (regularised Coulomb + viscous) friction `mf` with ports `p` (momentum) and
/// `s` (entropy), the Onsager structure [`NonlinearFriction`] with $k = 1$:
/// $p.f = F(v)$, $s.f = -F(v)\,v/\theta$,
/// $F(v) = (d + \mu_c\tanh(\lvert v\rvert/v_s)/\lvert v\rvert)v$; with the environment
/// ($s.e = 0$, $\theta = \theta_0$) the entropy grows at $\dot s = F(v)v/\theta_0$.
pub fn nonlinear_friction(d: f64, mu_c: f64, v_s: f64) -> Result<Primitive, EphsError> {
    let law = NonlinearFrictionLaw::new(d, mu_c, v_s)?;
    Primitive::irreversible(
        &format!("nonlinear_friction(d = {d}, mu_c = {mu_c}, v_s = {v_s})"),
        Interface::new()
            .power("p", Quantity::momentum())?
            .power("s", Quantity::entropy())?,
        Arc::new(NonlinearFriction { k: 1, law }),
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
    fn nonlinear_friction_structure_and_law() {
        use rand::{rngs::StdRng, Rng, SeedableRng};
        let mf = nonlinear_friction(0.02, 0.5, 1e-3).unwrap();
        let mut rng = StdRng::seed_from_u64(5);
        for i in 0..200 {
            // Speeds across the regularisation scale (1e-7 … 1e2) and both signs.
            let v = rng.gen_range(-1.0..1.0) * 10f64.powf(rng.gen_range(-7.0..2.0));
            let v = if i == 0 { 0.0 } else { v };
            let se = rng.gen_range(-100.0..100.0);
            mf.verify_structure(&[0.0, 0.0], &[v, se], 300.0, 1e-12)
                .unwrap();
        }
        let law = NonlinearFrictionLaw::new(0.02, 0.5, 1e-3).unwrap();
        // Limit at v = 0: d + μ_c/v_s = 500.02; continuity across the series switch x = 1e-3
        // (series error 4x⁶/315 ≈ 1e-20).
        assert_eq!(law.coefficient(0.0), 0.02 + 500.0);
        let r = 1e-6;
        let below = law.coefficient(r * (1.0 - 1e-12));
        let above = law.coefficient(r * (1.0 + 1e-12));
        assert!((below - above).abs() < 1e-9 * above, "{below} {above}");
        // Far above v_s: F → d v + μ_c sign v (tanh(1000) = 1 in f64).
        assert!((law.force(-1.0) - (-0.02 - 0.5)).abs() < 1e-15);
        // Odd, monotone force: F(v) v ≥ 0.
        assert_eq!(law.force(0.3), -law.force(-0.3));
        // Typed parameter errors naming the key.
        for (d, mu_c, v_s, key) in [
            (-1.0, 0.1, 0.1, "damping"),
            (0.0, -0.1, 0.1, "coulomb_friction"),
            (0.0, 0.1, 0.0, "regularization_velocity"),
            (0.0, 0.1, f64::NAN, "regularization_velocity"),
        ] {
            match nonlinear_friction(d, mu_c, v_s) {
                Err(EphsError::Parameter { what, .. }) => assert_eq!(what, key),
                other => panic!("{other:?}"),
            }
        }
        // The k-dimensional (joint) form at random states: symmetric PSD, M[u; θ] = 0.
        let op = NonlinearFriction { k: 3, law };
        let mut M = [0.0; 16];
        for _ in 0..50 {
            let e: Vec<f64> = (0..4).map(|_| rng.gen_range(-2.0..2.0)).collect();
            op.matrix(&[], &e, 300.0, &mut M);
            let theta = 300.0 + e[3];
            for i in 0..4 {
                let w: f64 =
                    (0..3).map(|j| M[i * 4 + j] * e[j]).sum::<f64>() + M[i * 4 + 3] * theta;
                assert!(w.abs() < 1e-12 * theta * law.coefficient(0.0), "{w}");
                for j in 0..4 {
                    assert_eq!(M[i * 4 + j], M[j * 4 + i]);
                }
            }
        }
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
