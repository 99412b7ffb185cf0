//! Reference elements on $\[0, 1\]$ (thesis 004 §3.3 / Ch. 7 element families).
//!
//! * Lagrange $P_k$ with equispaced nodes $\xi_j = j/k$: continuous (`CG_k`, $k = 1..3$,
//!   $H^1$-conforming) or discontinuous (`DG_k`, $k = 0..3$; `DG_0` is the constant 1);
//! * cubic Hermite (`Her`, $H^2$-conforming): local DOFs $(w(0), w'(0), w(1), w'(1))$ with
//!   basis $H_1 = 1 - 3\xi^2 + 2\xi^3$, $H_2 = h(\xi - 2\xi^2 + \xi^3)$,
//!   $H_3 = 3\xi^2 - 2\xi^3$, $H_4 = h(\xi^3 - \xi^2)$; the slope functions are scaled by the
//!   element length $h$ so that the global slope DOF is the physical derivative $\partial_x w$.
//!
//! Basis functions are stored as monomial coefficients in $\xi$, so derivatives of any
//! order are exact; physical derivatives are $\partial_x^k = h^{-k}\partial_\xi^k$.
use crate::error::{require_degree, FemError};

/// Largest polynomial degree of the element families.
pub const MAX_DEGREE: usize = 3;

/// Element family and degree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Continuous Lagrange of degree `k` (1..=3).
    Cg(usize),
    /// Discontinuous Lagrange of degree `k` (0..=3).
    Dg(usize),
    /// Cubic Hermite (value and slope DOFs at the nodes, $C^1$).
    Hermite,
}

impl Family {
    /// Short name as in the thesis, e.g. `"CG2"`, `"DG1"`, `"Her"`.
    pub fn name(&self) -> String {
        match self {
            Family::Cg(k) => format!("CG{k}"),
            Family::Dg(k) => format!("DG{k}"),
            Family::Hermite => "Her".into(),
        }
    }
    /// Polynomial degree.
    pub fn degree(&self) -> usize {
        match self {
            Family::Cg(k) | Family::Dg(k) => *k,
            Family::Hermite => 3,
        }
    }
    /// Checks the degree is supported.
    pub fn validate(&self) -> Result<(), FemError> {
        let bad = |what: &str, k: usize, supported: &str| FemError::UnsupportedDegree {
            what: what.into(),
            degree: k,
            supported: supported.into(),
        };
        match *self {
            Family::Cg(k) if !(1..=MAX_DEGREE).contains(&k) => Err(bad("CG degree", k, "1..=3")),
            Family::Dg(k) if k > MAX_DEGREE => Err(bad("DG degree", k, "0..=3")),
            _ => Ok(()),
        }
    }
}

impl Family {
    /// The mixed pair $(CG_k, DG_{k-1})$ (`continuous_first`) or $(DG_{k-1}, CG_k)$ of the
    /// PFEM discretizations in the two causalities (thesis 004 §3.1), after checking
    /// $1 \le k \le 3$ (`what` names the degree in the error, e.g. `"bar CG degree k"`).
    pub fn mixed_pair(
        k: usize,
        continuous_first: bool,
        what: &str,
    ) -> Result<(Family, Family), FemError> {
        require_degree(what, k, 1..=MAX_DEGREE)?;
        Ok(if continuous_first {
            (Family::Cg(k), Family::Dg(k - 1))
        } else {
            (Family::Dg(k - 1), Family::Cg(k))
        })
    }
}

/// A polynomial in ξ of degree ≤ 3 (monomial coefficients, lowest first).
type Poly = [f64; MAX_DEGREE + 1];

/// Value of the `k`-th ξ-derivative of `p` at `xi`.
fn poly_deriv(p: &Poly, k: usize, xi: f64) -> f64 {
    // d^k/dξ^k Σ c_m ξ^m = Σ_{m≥k} c_m m!/(m−k)! ξ^{m−k}; Horner from the top.
    let mut s = 0.0;
    for m in (k..=MAX_DEGREE).rev() {
        let mut f = 1.0;
        for j in 0..k {
            f *= (m - j) as f64;
        }
        s = s * xi + p[m] * f;
    }
    s
}

/// A reference element: local basis polynomials and which of them are $h$-scaled slopes.
#[derive(Debug, Clone, PartialEq)]
pub struct ReferenceElement {
    family: Family,
    basis: Vec<Poly>,
    slope: Vec<bool>,
}

impl ReferenceElement {
    /// The reference element of a family.
    pub fn new(family: Family) -> Result<Self, FemError> {
        family.validate()?;
        let (basis, slope) = match family {
            Family::Hermite => (
                vec![
                    [1.0, 0.0, -3.0, 2.0],
                    [0.0, 1.0, -2.0, 1.0],
                    [0.0, 0.0, 3.0, -2.0],
                    [0.0, 0.0, -1.0, 1.0],
                ],
                vec![false, true, false, true],
            ),
            Family::Cg(0) | Family::Dg(0) => (vec![[1.0, 0.0, 0.0, 0.0]], vec![false]),
            Family::Cg(k) | Family::Dg(k) => {
                let nodes: Vec<f64> = (0..=k).map(|j| j as f64 / k as f64).collect();
                let basis = (0..=k)
                    .map(|j| {
                        // ℓ_j(ξ) = Π_{m≠j} (ξ − ξ_m)/(ξ_j − ξ_m), expanded in monomials.
                        let mut p: Poly = [1.0, 0.0, 0.0, 0.0];
                        for (m, &xm) in nodes.iter().enumerate() {
                            if m == j {
                                continue;
                            }
                            let d = nodes[j] - xm;
                            let mut q: Poly = [0.0; MAX_DEGREE + 1];
                            for i in 0..MAX_DEGREE {
                                q[i + 1] += p[i] / d;
                                q[i] -= p[i] * xm / d;
                            }
                            p = q;
                        }
                        p
                    })
                    .collect();
                (basis, vec![false; k + 1])
            }
        };
        Ok(Self {
            family,
            basis,
            slope,
        })
    }

    /// The family.
    pub fn family(&self) -> Family {
        self.family
    }

    /// Number of local basis functions.
    pub fn n_local(&self) -> usize {
        self.basis.len()
    }

    /// Polynomial degree.
    pub fn degree(&self) -> usize {
        self.family.degree()
    }

    /// Physical derivative of order `deriv` of every local basis function at reference
    /// point `xi` on an element of length `h`, written into `out` (length `n_local`).
    ///
    /// # Panics
    /// If `out.len() != n_local()`.
    #[track_caller]
    #[inline]
    pub fn eval(&self, xi: f64, h: f64, deriv: usize, out: &mut [f64]) {
        assert_eq!(out.len(), self.basis.len(), "output buffer length");
        let jac = h.powi(-(deriv as i32));
        for ((o, p), &s) in out.iter_mut().zip(&self.basis).zip(&self.slope) {
            let scale = if s { h } else { 1.0 };
            *o = if deriv > MAX_DEGREE {
                0.0
            } else {
                poly_deriv(p, deriv, xi) * jac * scale
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_families() -> Vec<Family> {
        let mut v = vec![Family::Hermite];
        v.extend((1..=3).map(Family::Cg));
        v.extend((0..=3).map(Family::Dg));
        v
    }

    /// Lagrange bases are nodal (ℓ_j(ξ_m) = δ_jm) and sum to 1 (partition of unity), with
    /// derivatives of the sum vanishing.
    #[test]
    fn lagrange_nodal_and_partition_of_unity() {
        for k in 1..=3 {
            let el = ReferenceElement::new(Family::Cg(k)).unwrap();
            let mut v = vec![0.0; k + 1];
            for m in 0..=k {
                el.eval(m as f64 / k as f64, 1.0, 0, &mut v);
                for (j, vj) in v.iter().enumerate() {
                    let d = if j == m { 1.0 } else { 0.0 };
                    assert!((vj - d).abs() < 1e-14, "k={k} j={j} m={m}");
                }
            }
            for xi in [0.1, 0.37, 0.9] {
                for d in 0..=3 {
                    el.eval(xi, 0.3, d, &mut v);
                    let s: f64 = v.iter().sum();
                    let expect = if d == 0 { 1.0 } else { 0.0 };
                    assert!((s - expect).abs() < 1e-11, "k={k} d={d}: {s}");
                }
            }
        }
    }

    /// Hermite DOFs: value/slope at the ends are unit vectors (slopes in physical units).
    #[test]
    fn hermite_dofs() {
        let el = ReferenceElement::new(Family::Hermite).unwrap();
        let h = 0.25;
        let mut v = [0.0; 4];
        el.eval(0.0, h, 0, &mut v);
        assert_eq!(v, [1.0, 0.0, 0.0, 0.0]);
        el.eval(1.0, h, 0, &mut v);
        assert!(v
            .iter()
            .zip([0.0, 0.0, 1.0, 0.0])
            .all(|(a, b)| (a - b).abs() < 1e-15));
        el.eval(0.0, h, 1, &mut v);
        assert!(v
            .iter()
            .zip([0.0, 1.0, 0.0, 0.0])
            .all(|(a, b)| (a - b).abs() < 1e-14));
        el.eval(1.0, h, 1, &mut v);
        assert!(v
            .iter()
            .zip([0.0, 0.0, 0.0, 1.0])
            .all(|(a, b)| (a - b).abs() < 1e-14));
    }

    /// Reproduction: each element reproduces polynomials of its degree exactly, including
    /// derivatives: interpolate p(x) = 1 + 2x − x² + 0.5x³ (truncated to the degree) on
    /// \[x0, x0 + h\] and compare value and first two derivatives at an interior point.
    #[test]
    fn polynomial_reproduction_with_derivatives() {
        let (x0, h) = (0.3, 0.2);
        let c = [1.0, 2.0, -1.0, 0.5];
        for fam in all_families() {
            let el = ReferenceElement::new(fam).unwrap();
            let p = fam.degree();
            let f = |x: f64, d: usize| -> f64 {
                (d..=p)
                    .map(|m| {
                        let mut fac = 1.0;
                        for j in 0..d {
                            fac *= (m - j) as f64;
                        }
                        c[m] * fac * x.powi((m - d) as i32)
                    })
                    .sum()
            };
            let n = el.n_local();
            let coeffs: Vec<f64> = match fam {
                Family::Hermite => vec![f(x0, 0), f(x0, 1), f(x0 + h, 0), f(x0 + h, 1)],
                Family::Cg(0) | Family::Dg(0) => vec![f(x0, 0)],
                Family::Cg(k) | Family::Dg(k) => (0..=k)
                    .map(|j| f(x0 + h * j as f64 / k as f64, 0))
                    .collect(),
            };
            let mut v = vec![0.0; n];
            let xi = 0.61;
            for d in 0..=2 {
                el.eval(xi, h, d, &mut v);
                let val: f64 = v.iter().zip(&coeffs).map(|(a, b)| a * b).sum();
                let ex = f(x0 + h * xi, d);
                assert!((val - ex).abs() < 1e-11 * (1.0 + ex.abs()), "{fam:?} d={d}");
            }
        }
    }

    #[test]
    fn unsupported_degrees() {
        assert!(ReferenceElement::new(Family::Cg(0)).is_err());
        assert!(ReferenceElement::new(Family::Cg(4)).is_err());
        assert!(ReferenceElement::new(Family::Dg(4)).is_err());
    }
}
