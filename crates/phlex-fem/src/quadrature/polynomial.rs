//! The one-dimensional polynomials used by the quadrature rules and the elements
//! (thesis 004 §7: Legendre moments for edge DOFs and boundary ports, equispaced Lagrange
//! bases for tensor-product cells).
//!
//! * Legendre polynomials on $[-1, 1]$ by the three-term recurrence (Bonnet)
//!   $P_0 = 1$, $P_1 = t$, $n P_n = (2n - 1)\,t\,P_{n-1} - (n - 1) P_{n-2}$ (closed forms
//!   for $n \le 4$), with
//!   $P_n' = n(tP_n - P_{n-1})/(t^2 - 1)$ ([`legendre`], [`legendre_with_derivative`]: the
//!   Gauss–Legendre nodes are the roots of $P_n$);
//! * shifted Legendre polynomials $L_j(s) = P_j(2s - 1)$ on $[0, 1]$, orthogonal with
//!   $\int_0^1 L_iL_j\,ds = \delta_{ij}/(2j + 1)$ ([`shifted_legendre`]: the edge moments of
//!   the $H(\mathrm{div})$, HHJ and $C^1$ elements and the Legendre boundary ports of the
//!   plates);
//! * [`Lagrange1d`]: the nodal Lagrange basis of degree $k$ on $[0, 1]$ at equispaced nodes
//!   ($k = 0$: the midpoint), the nodal basis of FIAT's `CG`/`DG` interval elements, whose
//!   tensor products are the quadrilateral elements of [`crate::element::quad`].
use crate::error::{require_degree, FemError};

/// $(P_n(t), P_{n-1}(t))$ for $n \ge 1$ by the three-term recurrence (module docs).
fn legendre_pair(n: usize, t: f64) -> (f64, f64) {
    let (mut p0, mut p1) = (1.0, t);
    for k in 2..=n {
        let kf = k as f64;
        let p2 = ((2.0 * kf - 1.0) * t * p1 - (kf - 1.0) * p0) / kf;
        p0 = p1;
        p1 = p2;
    }
    (p1, p0)
}

/// Legendre polynomial $P_n(t)$ on $[-1, 1]$: the closed forms
/// $P_2 = \frac12(3t^2 - 1)$, $P_3 = \frac12(5t^3 - 3t)$, $P_4 = \frac18(35t^4 - 30t^2 + 3)$
/// for $n \le 4$ (fewer roundings than the recurrence: the Bell element's edge condition
/// $\int_e \partial_n u\,P_4 = 0$ is sensitive to them), the three-term recurrence above.
pub fn legendre(n: usize, t: f64) -> f64 {
    match n {
        0 => 1.0,
        1 => t,
        2 => 0.5 * (3.0 * t * t - 1.0),
        3 => 0.5 * (5.0 * t * t * t - 3.0 * t),
        4 => {
            let t2 = t * t;
            (35.0 * t2 * t2 - 30.0 * t2 + 3.0) / 8.0
        }
        _ => legendre_pair(n, t).0,
    }
}

/// Legendre polynomial $P_n(t)$ and its derivative
/// $P_n'(t) = n(tP_n - P_{n-1})/(t^2 - 1)$, for `t` in the open interval $(-1, 1)$ (the
/// formula divides by $t^2 - 1$; the Gauss–Legendre nodes are interior).
pub fn legendre_with_derivative(n: usize, t: f64) -> (f64, f64) {
    if n == 0 {
        return (1.0, 0.0);
    }
    let (p1, p0) = legendre_pair(n, t);
    (p1, n as f64 * (t * p1 - p0) / (t * t - 1.0))
}

/// Shifted Legendre polynomial $L_j(s) = P_j(2s - 1)$ on $[0, 1]$;
/// $\int_0^1 L_i(s)L_j(s)\,ds = \delta_{ij}/(2j+1)$.
#[inline]
pub fn shifted_legendre(j: usize, s: f64) -> f64 {
    legendre(j, 2.0 * s - 1.0)
}

/// The 1D Lagrange basis of degree `k` on $[0, 1]$ at the equispaced nodes $i/k$
/// (`k = 0`: the single node $1/2$), ordered by increasing node.
#[derive(Debug, Clone, PartialEq)]
pub struct Lagrange1d {
    nodes: Vec<f64>,
}

impl Lagrange1d {
    /// Degree `k ≤ 8` (higher equispaced degrees are ill-conditioned and not needed).
    pub fn new(k: usize) -> Result<Self, FemError> {
        require_degree("1D Lagrange degree", k, 0..=8)?;
        let nodes = if k == 0 {
            vec![0.5]
        } else {
            (0..=k).map(|i| i as f64 / k as f64).collect()
        };
        Ok(Self { nodes })
    }
    /// Polynomial degree.
    pub fn degree(&self) -> usize {
        self.nodes.len() - 1
    }
    /// Number of basis functions (`k + 1`).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    /// Always false (a basis has at least one function).
    pub fn is_empty(&self) -> bool {
        false
    }
    /// The nodes in $[0, 1]$.
    pub fn nodes(&self) -> &[f64] {
        &self.nodes
    }
    /// Values and first derivatives of all basis functions at `t` (written to `v`, `d`,
    /// each of length [`Self::len`]).
    pub fn eval(&self, t: f64, v: &mut [f64], d: &mut [f64]) {
        let n = self.nodes.len();
        for i in 0..n {
            let xi = self.nodes[i];
            let mut val = 1.0;
            let mut der = 0.0;
            for j in 0..n {
                if j == i {
                    continue;
                }
                let den = xi - self.nodes[j];
                let f = (t - self.nodes[j]) / den;
                der = der * f + val / den;
                val *= f;
            }
            v[i] = val;
            d[i] = der;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Closed forms of $P_0..P_4$, the derivative formula, and the orthogonality of the
    /// shifted polynomials under a Gauss rule exact for their products.
    #[test]
    fn legendre_closed_forms_and_orthogonality() {
        for t in [-0.9f64, -0.31, 0.0, 0.42, 0.77] {
            let closed = [
                1.0,
                t,
                0.5 * (3.0 * t * t - 1.0),
                0.5 * (5.0 * t * t * t - 3.0 * t),
                (35.0 * t.powi(4) - 30.0 * t * t + 3.0) / 8.0,
            ];
            for (n, c) in closed.iter().enumerate() {
                assert!((legendre(n, t) - c).abs() < 1e-15, "P_{n}({t})");
                let (p, dp) = legendre_with_derivative(n, t);
                assert!((p - legendre(n, t)).abs() < 1e-15);
                let h = 1e-6;
                let fd = (legendre(n, t + h) - legendre(n, t - h)) / (2.0 * h);
                assert!((dp - fd).abs() < 1e-8, "P_{n}'({t})");
            }
        }
        let g = crate::quadrature::gauss_legendre::GaussLegendre::new(6).unwrap();
        for i in 0..5 {
            for j in 0..5 {
                let s: f64 = g
                    .points
                    .iter()
                    .zip(&g.weights)
                    .map(|(&x, &w)| w * shifted_legendre(i, x) * shifted_legendre(j, x))
                    .sum();
                let exact = if i == j {
                    1.0 / (2 * j + 1) as f64
                } else {
                    0.0
                };
                assert!((s - exact).abs() < 1e-14, "({i}, {j})");
            }
        }
    }

    /// Kronecker property, partition of unity, exact derivative of t^k.
    #[test]
    #[allow(clippy::needless_range_loop)]
    fn lagrange_1d_nodal_and_exact() {
        for k in 0..=4 {
            let b = Lagrange1d::new(k).unwrap();
            let n = b.len();
            let (mut v, mut d) = (vec![0.0; n], vec![0.0; n]);
            for (i, &x) in b.nodes().iter().enumerate() {
                b.eval(x, &mut v, &mut d);
                for j in 0..n {
                    assert!((v[j] - if i == j { 1.0 } else { 0.0 }).abs() < 1e-13);
                }
            }
            let t = 0.3141;
            b.eval(t, &mut v, &mut d);
            assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-13);
            assert!(d.iter().sum::<f64>().abs() < 1e-12);
            // interpolate t^k: derivative k t^{k-1}
            let val: f64 = (0..n).map(|i| v[i] * b.nodes()[i].powi(k as i32)).sum();
            let der: f64 = (0..n).map(|i| d[i] * b.nodes()[i].powi(k as i32)).sum();
            assert!((val - t.powi(k as i32)).abs() < 1e-13);
            let exact = if k == 0 {
                0.0
            } else {
                k as f64 * t.powi(k as i32 - 1)
            };
            assert!((der - exact).abs() < 1e-12, "k={k}");
        }
        assert!(Lagrange1d::new(9).is_err());
    }
}
