//! Quadrature on the reference tetrahedron $\{\hat x_i \ge 0, \sum\hat x_i \le 1\}$: the
//! collapsed (Duffy) Gauss–Legendre product rule, $x = u$, $y = v(1-u)$, $z = w(1-u)(1-v)$,
//! Jacobian $(1-u)^2(1-v)$, exact for the given polynomial degree (used by the 3D elasticity
//! of thesis 004 §9.3.1).
use crate::error::FemError;
use crate::quadrature::gauss_legendre::GaussLegendre;

/// Quadrature on the reference tetrahedron (weights sum to its volume 1/6).
#[derive(Debug, Clone, PartialEq)]
pub struct TetQuadrature {
    /// Points.
    pub points: Vec<[f64; 3]>,
    /// Weights.
    pub weights: Vec<f64>,
}

impl TetQuadrature {
    /// Collapsed Gauss–Legendre rule exact for polynomials of total degree `degree`.
    pub fn exact_for_degree(degree: usize) -> Result<Self, FemError> {
        // the Duffy map raises the degree in u by 2 and in v by 1
        let g = GaussLegendre::exact_for_degree(degree + 2)?;
        let mut points = Vec::new();
        let mut weights = Vec::new();
        for (&u, &wu) in g.points.iter().zip(&g.weights) {
            for (&v, &wv) in g.points.iter().zip(&g.weights) {
                for (&w, &ww) in g.points.iter().zip(&g.weights) {
                    points.push([u, v * (1.0 - u), w * (1.0 - u) * (1.0 - v)]);
                    weights.push(wu * wv * ww * (1.0 - u) * (1.0 - u) * (1.0 - v));
                }
            }
        }
        Ok(Self { points, weights })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The collapsed rule integrates monomials exactly: ∫_T x^a y^b z^c =
    /// a! b! c! / (a + b + c + 3)!.
    #[test]
    fn tet_quadrature_exact() {
        let fact = |n: usize| (1..=n).map(|i| i as f64).product::<f64>();
        for deg in 0..=4 {
            let q = TetQuadrature::exact_for_degree(deg).unwrap();
            for a in 0..=deg {
                for b in 0..=deg - a {
                    let c = deg - a - b;
                    let s: f64 = q
                        .points
                        .iter()
                        .zip(&q.weights)
                        .map(|(p, w)| {
                            w * p[0].powi(a as i32) * p[1].powi(b as i32) * p[2].powi(c as i32)
                        })
                        .sum();
                    let exact = fact(a) * fact(b) * fact(c) / fact(a + b + c + 3);
                    assert!((s - exact).abs() < 1e-15, "{a} {b} {c}");
                }
            }
        }
    }
}
