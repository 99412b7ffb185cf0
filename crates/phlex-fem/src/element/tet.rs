//! Lagrange $P_0$, $P_1$, $P_2$ on the reference tetrahedron
//! $\{\hat x_i \ge 0, \sum\hat x_i \le 1\}$ (thesis 004 §9.3.1 eq. (9.34); summary §3.2
//! "3D/2D elasticity"), with barycentrics $L_0 = 1 - \hat x - \hat y - \hat z$,
//! $L_{1,2,3} = \hat x, \hat y, \hat z$: vertex functions $L_i$ ($P_1$) or $L_i(2L_i - 1)$
//! ($P_2$), edge functions $4L_aL_b$ on the local edges [`crate::mesh::tet::LOCAL_EDGES`]
//! (symmetric in $a, b$, so no orientation is needed).
use crate::error::{require_degree, FemError};
use crate::mesh::tet::LOCAL_EDGES;

/// Lagrange $P_k$ ($k \le 2$) on the reference tetrahedron (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LagrangeTet {
    k: usize,
}

impl LagrangeTet {
    /// $P_k$, `k <= 2`.
    pub fn new(k: usize) -> Result<Self, FemError> {
        require_degree("Lagrange degree on tetrahedra", k, 0..=2)?;
        Ok(Self { k })
    }
    /// Degree.
    pub fn degree(&self) -> usize {
        self.k
    }
    /// Local basis functions: 1, 4, 10.
    pub fn n_local(&self) -> usize {
        [1, 4, 10][self.k]
    }
    /// Nodes (reference coordinates) of the basis: centroid ($P_0$), vertices, then edge
    /// midpoints ($P_2$).
    pub fn nodes(&self) -> Vec<[f64; 3]> {
        let v = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ];
        match self.k {
            0 => vec![[0.25; 3]],
            1 => v.to_vec(),
            _ => {
                let mut n = v.to_vec();
                for [a, b] in LOCAL_EDGES {
                    n.push([
                        0.5 * (v[a][0] + v[b][0]),
                        0.5 * (v[a][1] + v[b][1]),
                        0.5 * (v[a][2] + v[b][2]),
                    ]);
                }
                n
            }
        }
    }
    /// Values and reference gradients of the local basis at `x`.
    pub fn eval(&self, x: [f64; 3], val: &mut [f64], grad: &mut [[f64; 3]]) {
        let l = [1.0 - x[0] - x[1] - x[2], x[0], x[1], x[2]];
        let gl = [
            [-1.0, -1.0, -1.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ];
        match self.k {
            0 => {
                val[0] = 1.0;
                grad[0] = [0.0; 3];
            }
            1 => {
                val[..4].copy_from_slice(&l);
                grad[..4].copy_from_slice(&gl);
            }
            _ => {
                for i in 0..4 {
                    val[i] = l[i] * (2.0 * l[i] - 1.0);
                    let f = 4.0 * l[i] - 1.0;
                    grad[i] = gl[i].map(|g| f * g);
                }
                for (e, [a, b]) in LOCAL_EDGES.iter().enumerate() {
                    val[4 + e] = 4.0 * l[*a] * l[*b];
                    for c in 0..3 {
                        grad[4 + e][c] = 4.0 * (gl[*a][c] * l[*b] + l[*a] * gl[*b][c]);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nodal basis: φ_i(x_j) = δ_ij, Σφ = 1, Σ∇φ = 0; gradients match central differences.
    #[test]
    fn lagrange_tet_basis() {
        for k in 0..=2 {
            let el = LagrangeTet::new(k).unwrap();
            let n = el.n_local();
            let (mut v, mut g) = (vec![0.0; n], vec![[0.0; 3]; n]);
            for (j, x) in el.nodes().iter().enumerate() {
                el.eval(*x, &mut v, &mut g);
                for (i, vi) in v.iter().enumerate() {
                    assert!((vi - if i == j { 1.0 } else { 0.0 }).abs() < 1e-14);
                }
            }
            let x = [0.2, 0.3, 0.1];
            el.eval(x, &mut v, &mut g);
            assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-14);
            let (mut vp, mut vm, mut gg) = (vec![0.0; n], vec![0.0; n], vec![[0.0; 3]; n]);
            for d in 0..3 {
                let s: f64 = g.iter().map(|r| r[d]).sum();
                assert!(s.abs() < 1e-13);
                let h = 1e-6;
                let (mut xp, mut xm) = (x, x);
                xp[d] += h;
                xm[d] -= h;
                el.eval(xp, &mut vp, &mut gg);
                el.eval(xm, &mut vm, &mut gg);
                for i in 0..n {
                    assert!(((vp[i] - vm[i]) / (2.0 * h) - g[i][d]).abs() < 1e-8);
                }
            }
        }
        assert!(LagrangeTet::new(3).is_err());
    }
}
