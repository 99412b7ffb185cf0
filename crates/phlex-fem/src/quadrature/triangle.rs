//! Quadrature on the reference triangle $\hat T = \{(\xi, \eta) : \xi, \eta \ge 0,\ \xi +
//! \eta \le 1\}$ (area ½; the weights sum to ½).
//!
//! Fully symmetric rules (invariant under the six permutations of the barycentric
//! coordinates), tabulated from D. A. Dunavant, "High degree efficient symmetrical Gaussian
//! quadrature rules for the triangle", Int. J. Numer. Meth. Eng. 21 (1985) 1129–1148:
//!
//! | degree | points | rule |
//! |---|---|---|
//! | 1 | 1 | centroid |
//! | 2 | 3 | interior midpoints $(\tfrac16, \tfrac16, \tfrac23)$ (Strang–Fix) |
//! | 5 | 7 | Radon's rule, closed form with $\sqrt{15}$ (Dunavant degree 5) |
//! | 8 | 16 | Dunavant degree 8 (one centroid, three 3-point and one 6-point orbit) |
//!
//! Degrees 3–4 use the 7-point rule and 6–8 the 16-point rule; higher degrees use a
//! collapsed (Duffy/Stroud conical) product of Gauss–Legendre rules, exact but not
//! symmetric. All rules have positive weights and interior points.
use crate::error::FemError;
use crate::quadrature::gauss_legendre::GaussLegendre;

/// A quadrature rule on the reference triangle.
#[derive(Debug, Clone, PartialEq)]
pub struct TriangleQuadrature {
    /// Points $(\xi, \eta)$.
    pub points: Vec<[f64; 2]>,
    /// Weights (sum ½ = reference area).
    pub weights: Vec<f64>,
    /// Polynomial degree integrated exactly.
    pub degree: usize,
}

/// Dunavant degree-8 rule (16 points), weights normalized to area 1. 1-point orbit:
/// centroid; 3-point orbits `(w, a)` of the barycentric point $(a, b, b)$, $b = (1-a)/2$;
/// 6-point orbit of $(a, b, c)$.
const D8_CENTROID_W: f64 = 0.144_315_607_677_787;
const D8_ORBIT3: [(f64, f64); 3] = [
    (0.095_091_634_267_285, 0.081_414_823_414_554),
    (0.103_217_370_534_718, 0.658_861_384_496_480),
    (0.032_458_497_623_198, 0.898_905_543_365_938),
];
const D8_ORBIT6: (f64, [f64; 3]) = (
    0.027_230_314_174_435,
    [
        0.008_394_777_409_958,
        0.263_112_829_634_638,
        0.728_492_392_955_404,
    ],
);

impl TriangleQuadrature {
    fn empty(degree: usize) -> Self {
        Self {
            points: Vec::new(),
            weights: Vec::new(),
            degree,
        }
    }
    /// Adds a point given by barycentric coordinates $(\lambda_0, \lambda_1, \lambda_2)$
    /// ($\xi = \lambda_1$, $\eta = \lambda_2$), with weight `w` relative to area 1.
    fn push(&mut self, l: [f64; 3], w: f64) {
        self.points.push([l[1], l[2]]);
        self.weights.push(0.5 * w);
    }
    fn orbit3(&mut self, a: f64, w: f64) {
        let b = 0.5 * (1.0 - a);
        self.push([a, b, b], w);
        self.push([b, a, b], w);
        self.push([b, b, a], w);
    }
    fn orbit6(&mut self, l: [f64; 3], w: f64) {
        let [a, b, c] = l;
        for p in [
            [a, b, c],
            [a, c, b],
            [b, a, c],
            [b, c, a],
            [c, a, b],
            [c, b, a],
        ] {
            self.push(p, w);
        }
    }

    /// A rule exact for all polynomials of total degree `degree` (`degree <= 40`).
    pub fn exact_for_degree(degree: usize) -> Result<Self, FemError> {
        match degree {
            0 | 1 => {
                let mut q = Self::empty(1);
                q.push([1.0 / 3.0; 3], 1.0);
                Ok(q)
            }
            2 => {
                let mut q = Self::empty(2);
                q.orbit3(2.0 / 3.0, 1.0 / 3.0);
                Ok(q)
            }
            3..=5 => {
                let s = 15f64.sqrt();
                let mut q = Self::empty(5);
                q.push([1.0 / 3.0; 3], 9.0 / 40.0);
                // a = 1 − 2b with b = (6 ∓ √15)/21
                q.orbit3(1.0 - 2.0 * (6.0 - s) / 21.0, (155.0 - s) / 1200.0);
                q.orbit3(1.0 - 2.0 * (6.0 + s) / 21.0, (155.0 + s) / 1200.0);
                Ok(q)
            }
            6..=8 => {
                let mut q = Self::empty(8);
                q.push([1.0 / 3.0; 3], D8_CENTROID_W);
                for (w, a) in D8_ORBIT3 {
                    q.orbit3(a, w);
                }
                q.orbit6(D8_ORBIT6.1, D8_ORBIT6.0);
                Ok(q)
            }
            9..=40 => Self::collapsed(degree),
            _ => Err(FemError::UnsupportedDegree {
                what: "triangle quadrature degree".into(),
                degree,
                supported: "0..=40".into(),
            }),
        }
    }

    /// Collapsed Gauss rule: $\xi = u$, $\eta = v(1-u)$, Jacobian $1-u$, with Gauss–Legendre
    /// in $u$ exact to degree `degree + 1` and in $v$ to degree `degree`.
    pub fn collapsed(degree: usize) -> Result<Self, FemError> {
        let gu = GaussLegendre::exact_for_degree(degree + 1)?;
        let gv = GaussLegendre::exact_for_degree(degree)?;
        let mut q = Self::empty(degree);
        for (&u, &wu) in gu.points.iter().zip(&gu.weights) {
            for (&v, &wv) in gv.points.iter().zip(&gv.weights) {
                q.points.push([u, v * (1.0 - u)]);
                q.weights.push(wu * wv * (1.0 - u));
            }
        }
        Ok(q)
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }
    /// True if the rule has no points (never for constructed rules).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn factorial(n: usize) -> f64 {
        (1..=n).map(|k| k as f64).product()
    }

    /// ∫_T̂ ξ^p η^q = p! q! / (p + q + 2)!  (Dirichlet integral).
    #[test]
    fn monomial_exactness() {
        for d in 0..=14 {
            let q = TriangleQuadrature::exact_for_degree(d).unwrap();
            assert!(q.degree >= d);
            assert!(q.weights.iter().all(|&w| w > 0.0));
            assert!(q
                .points
                .iter()
                .all(|p| p[0] > 0.0 && p[1] > 0.0 && p[0] + p[1] < 1.0));
            for p in 0..=d {
                for r in 0..=(d - p) {
                    let exact = factorial(p) * factorial(r) / factorial(p + r + 2);
                    let num: f64 = q
                        .points
                        .iter()
                        .zip(&q.weights)
                        .map(|(x, w)| w * x[0].powi(p as i32) * x[1].powi(r as i32))
                        .sum();
                    // tabulated 15-digit Dunavant data: relative 1e-13
                    assert!(
                        (num - exact).abs() < 1e-13 * exact.max(1e-3),
                        "degree {d}, monomial x^{p} y^{r}: {num} vs {exact}"
                    );
                }
            }
        }
        assert_eq!(TriangleQuadrature::exact_for_degree(8).unwrap().len(), 16);
        assert_eq!(TriangleQuadrature::exact_for_degree(5).unwrap().len(), 7);
        // the degree-8 rule is not exact for degree 9 (it is a genuine degree-8 rule)
        let q = TriangleQuadrature::exact_for_degree(8).unwrap();
        let exact = factorial(9) / factorial(11);
        let num: f64 = q
            .points
            .iter()
            .zip(&q.weights)
            .map(|(x, w)| w * x[0].powi(9))
            .sum();
        assert!((num - exact).abs() > 1e-9 * exact);
        assert!(TriangleQuadrature::exact_for_degree(41).is_err());
    }
}
