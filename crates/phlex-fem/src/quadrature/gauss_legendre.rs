//! Gauss–Legendre quadrature on the reference interval $\[0, 1\]$.
//!
//! The $n$ nodes are the roots of the Legendre polynomial $P_n$ (mapped from $\[-1, 1\]$),
//! found by Newton's method from the Tricomi initial guesses
//! $\cos(\pi(i - 1/4)/(n + 1/2))$; the weights are $w_i = 2/((1 - t_i^2) P_n'(t_i)^2)$
//! (halved by the map to $\[0, 1\]$). The rule integrates polynomials of degree $2n - 1$
//! exactly.
use crate::error::FemError;
use crate::quadrature::polynomial::legendre_with_derivative;

/// Largest number of points supported.
pub const MAX_POINTS: usize = 64;

/// A Gauss–Legendre rule on `[0, 1]`.
#[derive(Debug, Clone, PartialEq)]
pub struct GaussLegendre {
    /// Nodes in `(0, 1)`, increasing.
    pub points: Vec<f64>,
    /// Positive weights summing to 1.
    pub weights: Vec<f64>,
}

impl GaussLegendre {
    /// The `n`-point rule, `1 ≤ n ≤ MAX_POINTS`.
    pub fn new(n: usize) -> Result<Self, FemError> {
        if n == 0 || n > MAX_POINTS {
            return Err(FemError::UnsupportedDegree {
                what: "number of Gauss-Legendre points".into(),
                degree: n,
                supported: format!("1..={MAX_POINTS}"),
            });
        }
        let mut points = vec![0.0; n];
        let mut weights = vec![0.0; n];
        let nf = n as f64;
        for i in 0..n {
            let mut t = (std::f64::consts::PI * (i as f64 + 0.75) / (nf + 0.5)).cos();
            for _ in 0..100 {
                let (p, dp) = legendre_with_derivative(n, t);
                let dt = p / dp;
                t -= dt;
                if dt.abs() < 1e-16 {
                    break;
                }
            }
            let (_, dp) = legendre_with_derivative(n, t);
            // t decreases with i; store increasing on [0, 1].
            points[n - 1 - i] = 0.5 * (1.0 + t);
            weights[n - 1 - i] = 1.0 / ((1.0 - t * t) * dp * dp);
        }
        Ok(Self { points, weights })
    }

    /// The rule with the fewest points exact for polynomials of degree `degree`
    /// (`n = ⌈(degree + 1)/2⌉`, at least 1).
    pub fn exact_for_degree(degree: usize) -> Result<Self, FemError> {
        Self::new(degree / 2 + 1)
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Always false (a rule has at least one point).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// $\int_0^1 f$ approximated by the rule.
    pub fn integrate(&self, f: impl Fn(f64) -> f64) -> f64 {
        self.points
            .iter()
            .zip(&self.weights)
            .map(|(&x, &w)| w * f(x))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ∫_0^1 x^p dx = 1/(p+1): exact (to round-off) for p ≤ 2n−1, wrong for p = 2n.
    #[test]
    fn exact_up_to_degree_2n_minus_1() {
        for n in 1..=20 {
            let q = GaussLegendre::new(n).unwrap();
            assert!(
                (q.weights.iter().sum::<f64>() - 1.0).abs() < 1e-14,
                "n = {n}"
            );
            for p in 0..=(2 * n - 1) {
                let exact = 1.0 / (p as f64 + 1.0);
                let approx = q.integrate(|x| x.powi(p as i32));
                assert!(
                    (approx - exact).abs() < 2e-14,
                    "n = {n}, p = {p}: {approx} vs {exact}"
                );
            }
            // Degree 2n is not integrated exactly (error = c_n f^{(2n)} with c_n > 0).
            let p = 2 * n;
            let err = q.integrate(|x| x.powi(p as i32)) - 1.0 / (p as f64 + 1.0);
            assert!(
                err.abs() > 1e-14 || n > 10,
                "n = {n}: degree {p} unexpectedly exact"
            );
        }
    }

    #[test]
    fn known_two_point_rule_and_bad_sizes() {
        let q = GaussLegendre::new(2).unwrap();
        let d = 0.5 / 3f64.sqrt();
        assert!((q.points[0] - (0.5 - d)).abs() < 1e-15);
        assert!((q.points[1] - (0.5 + d)).abs() < 1e-15);
        assert!((q.weights[0] - 0.5).abs() < 1e-15);
        assert!(GaussLegendre::new(0).is_err());
        assert!(GaussLegendre::new(MAX_POINTS + 1).is_err());
        assert_eq!(GaussLegendre::exact_for_degree(5).unwrap().len(), 3);
        assert_eq!(GaussLegendre::exact_for_degree(0).unwrap().len(), 1);
    }
}
