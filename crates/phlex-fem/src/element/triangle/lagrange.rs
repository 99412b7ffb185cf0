//! Nodal Lagrange $P_k$ element on the reference triangle, $0 \le k \le 3$.
//!
//! Nodes are the barycentric lattice points $\{i/k\}$, ordered
//! 1. vertices $\hat v_0 = (0,0)$, $\hat v_1 = (1,0)$, $\hat v_2 = (0,1)$;
//! 2. $k-1$ nodes per edge, local edge $i$ (opposite vertex $i$) running from vertex
//!    $(i+1) \bmod 3$ to $(i+2) \bmod 3$, at parameters $t = 1/k, \dots, (k-1)/k$;
//! 3. interior nodes (for $k = 3$: the centroid).
//!
//! For $k = 0$ the single node is the centroid. The basis is obtained by inverting the
//! Vandermonde matrix of the monomials $\xi^p\eta^q$, $p + q \le k$, at the nodes, so
//! $\phi_j(\hat x_i) = \delta_{ij}$.
use super::monomial::{monomial_grad, pw};
use crate::element::dual::invert;
use crate::error::FemError;

/// Lagrange $P_k$ reference element.
#[derive(Debug, Clone, PartialEq)]
pub struct LagrangeP {
    k: usize,
    nodes: Vec<[f64; 2]>,
    /// Monomial exponents `(p, q)`.
    monomials: Vec<(usize, usize)>,
    /// Coefficients: `coef[m * n + j]` multiplies monomial `m` in basis function `j`.
    coef: Vec<f64>,
}

impl LagrangeP {
    /// Largest supported degree.
    pub const MAX_DEGREE: usize = 3;

    /// The $P_k$ element, `0 <= k <= 3`.
    pub fn new(k: usize) -> Result<Self, FemError> {
        if k > Self::MAX_DEGREE {
            return Err(FemError::UnsupportedDegree {
                what: "Lagrange triangle degree".into(),
                degree: k,
                supported: format!("0..={}", Self::MAX_DEGREE),
            });
        }
        let verts = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
        let mut nodes = Vec::new();
        if k == 0 {
            nodes.push([1.0 / 3.0, 1.0 / 3.0]);
        } else {
            nodes.extend_from_slice(&verts);
            for i in 0..3 {
                let (a, b) = (verts[(i + 1) % 3], verts[(i + 2) % 3]);
                for j in 1..k {
                    let t = j as f64 / k as f64;
                    nodes.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
                }
            }
            // interior lattice points (i, j) with i, j >= 1, i + j <= k - 1
            for j in 1..k {
                for i in 1..k {
                    if i + j < k {
                        nodes.push([i as f64 / k as f64, j as f64 / k as f64]);
                    }
                }
            }
        }
        let mut monomials = Vec::new();
        for d in 0..=k {
            for q in 0..=d {
                monomials.push((d - q, q));
            }
        }
        let n = nodes.len();
        debug_assert_eq!(n, monomials.len());
        // V[i][m] = mono_m(node_i); coefficients C = V^{-1}: phi_j = Σ_m C[m][j] mono_m.
        let mut V = vec![0.0; n * n];
        for (i, x) in nodes.iter().enumerate() {
            for (m, &(p, q)) in monomials.iter().enumerate() {
                V[i * n + m] = x[0].powi(p as i32) * x[1].powi(q as i32);
            }
        }
        let coef = invert(&V, n).ok_or_else(|| FemError::LinAlg("Lagrange Vandermonde".into()))?;
        Ok(Self {
            k,
            nodes,
            monomials,
            coef,
        })
    }

    /// Polynomial degree $k$.
    pub fn degree(&self) -> usize {
        self.k
    }
    /// Number of local basis functions $(k+1)(k+2)/2$.
    pub fn n_local(&self) -> usize {
        self.nodes.len()
    }
    /// Reference coordinates of the nodes.
    pub fn nodes(&self) -> &[[f64; 2]] {
        &self.nodes
    }
    /// Number of nodes interior to each edge (`k − 1`, 0 for `k = 0`).
    pub fn nodes_per_edge(&self) -> usize {
        self.k.saturating_sub(1)
    }
    /// Number of interior nodes of a `CG_k` element.
    pub fn interior_nodes(&self) -> usize {
        if self.k == 0 {
            1
        } else {
            self.n_local() - 3 - 3 * self.nodes_per_edge()
        }
    }

    /// Values and reference gradients of all basis functions at `x`: `val[j]`,
    /// `dxi[j]` $= \partial_\xi\phi_j$, `deta[j]` $= \partial_\eta\phi_j$.
    pub fn eval(&self, x: [f64; 2], val: &mut [f64], dxi: &mut [f64], deta: &mut [f64]) {
        let n = self.n_local();
        val[..n].iter_mut().for_each(|v| *v = 0.0);
        dxi[..n].iter_mut().for_each(|v| *v = 0.0);
        deta[..n].iter_mut().for_each(|v| *v = 0.0);
        for (m, &(p, q)) in self.monomials.iter().enumerate() {
            let mv = pw(x[0], p) * pw(x[1], q);
            let [mx, my] = monomial_grad(x, p, q);
            let row = &self.coef[m * n..(m + 1) * n];
            for j in 0..n {
                val[j] += row[j] * mv;
                dxi[j] += row[j] * mx;
                deta[j] += row[j] * my;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodal_property_partition_of_unity_and_reproduction() {
        for k in 0..=3 {
            let el = LagrangeP::new(k).unwrap();
            let n = el.n_local();
            assert_eq!(n, (k + 1) * (k + 2) / 2);
            let (mut v, mut dx, mut dy) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
            for (i, x) in el.nodes().iter().enumerate() {
                el.eval(*x, &mut v, &mut dx, &mut dy);
                for j in 0..n {
                    let d = if i == j { 1.0 } else { 0.0 };
                    assert!((v[j] - d).abs() < 1e-12, "k={k} i={i} j={j}");
                }
            }
            // reproduces ξ^a η^b with a + b = k (interpolation is exact), and its gradient
            let (a, b) = (k.saturating_sub(1), k.min(1));
            let f = |x: [f64; 2]| x[0].powi(a as i32) * x[1].powi(b as i32);
            let p = [0.21, 0.37];
            el.eval(p, &mut v, &mut dx, &mut dy);
            let (mut s, mut sx, mut sy) = (0.0, 0.0, 0.0);
            for (j, x) in el.nodes().iter().enumerate() {
                s += f(*x) * v[j];
                sx += f(*x) * dx[j];
                sy += f(*x) * dy[j];
            }
            assert!((s - f(p)).abs() < 1e-12);
            let ex = if a > 0 {
                a as f64 * p[0].powi(a as i32 - 1) * p[1].powi(b as i32)
            } else {
                0.0
            };
            let ey = if b > 0 {
                b as f64 * p[0].powi(a as i32) * p[1].powi(b as i32 - 1)
            } else {
                0.0
            };
            assert!((sx - ex).abs() < 1e-11 && (sy - ey).abs() < 1e-11, "k={k}");
        }
        assert!(LagrangeP::new(4).is_err());
    }
}
