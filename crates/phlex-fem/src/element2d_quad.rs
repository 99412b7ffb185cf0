//! Reference elements on the unit square $[0,1]^2$ built as tensor products of 1D
//! Lagrange bases (thesis 004 §7.2.1.1: the BJT spaces (7.11) on "square extruded meshes",
//! i.e. interval × interval tensor-product cells as in Firedrake's extruded meshes):
//!
//! * [`Lagrange1d`]: the 1D Lagrange basis of degree $k$ on $[0, 1]$ at equispaced nodes
//!   ($k = 0$: the midpoint), the nodal basis of FIAT's `CG`/`DG` interval elements;
//! * [`TensorSpace`]: the product $S_x \otimes S_y$ of two 1D bases, giving
//!   $Q_k = \mathrm{CG}_k\otimes\mathrm{CG}_k$, $DQ_{k-1} = \mathrm{DG}_{k-1}\otimes
//!   \mathrm{DG}_{k-1}$ and the two components of the rectangular Raviart–Thomas space
//!   $\mathrm{RTCF}_k = (\mathrm{CG}_k\otimes\mathrm{DG}_{k-1})\times(\mathrm{DG}_{k-1}
//!   \otimes\mathrm{CG}_k)$ (Firedrake's `HDiv(TensorProductElement(...))`), whose
//!   divergence maps onto $DQ_{k-1}$.
//!
//! Basis ordering of a [`TensorSpace`]: index $i_y\,n_x + i_x$ with $i_x$ the 1D index
//! along $x$.
use crate::error::FemError;

/// The 1D Lagrange basis of degree `k` on $[0, 1]$ at the equispaced nodes $i/k$
/// (`k = 0`: the single node $1/2$), ordered by increasing node.
#[derive(Debug, Clone, PartialEq)]
pub struct Lagrange1d {
    nodes: Vec<f64>,
}

impl Lagrange1d {
    /// Degree `k ≤ 8` (higher equispaced degrees are ill-conditioned and not needed).
    pub fn new(k: usize) -> Result<Self, FemError> {
        if k > 8 {
            return Err(FemError::UnsupportedDegree {
                what: "1D Lagrange degree".into(),
                degree: k,
                supported: "0..=8".into(),
            });
        }
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

/// Tensor product $S_x \otimes S_y$ of two 1D Lagrange bases on the unit square.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorSpace {
    /// Basis along $x$.
    pub x: Lagrange1d,
    /// Basis along $y$.
    pub y: Lagrange1d,
}

impl TensorSpace {
    /// $S_x\otimes S_y$ with degrees `kx`, `ky`.
    pub fn new(kx: usize, ky: usize) -> Result<Self, FemError> {
        Ok(Self {
            x: Lagrange1d::new(kx)?,
            y: Lagrange1d::new(ky)?,
        })
    }
    /// $Q_k$ (continuous across cells when assembled with shared vertex/edge DOFs).
    pub fn q(k: usize) -> Result<Self, FemError> {
        Self::new(k, k)
    }
    /// Number of basis functions.
    pub fn len(&self) -> usize {
        self.x.len() * self.y.len()
    }
    /// Always false.
    pub fn is_empty(&self) -> bool {
        false
    }
    /// Values and gradients of all basis functions at `p` in the reference square.
    pub fn eval(&self, p: [f64; 2], v: &mut [f64], g: &mut [[f64; 2]]) {
        let (nx, ny) = (self.x.len(), self.y.len());
        let (mut vx, mut dx) = ([0.0; 9], [0.0; 9]);
        let (mut vy, mut dy) = ([0.0; 9], [0.0; 9]);
        self.x.eval(p[0], &mut vx[..nx], &mut dx[..nx]);
        self.y.eval(p[1], &mut vy[..ny], &mut dy[..ny]);
        for iy in 0..ny {
            for ix in 0..nx {
                let a = iy * nx + ix;
                v[a] = vx[ix] * vy[iy];
                g[a] = [dx[ix] * vy[iy], vx[ix] * dy[iy]];
            }
        }
    }
    /// Reference nodes (nodal interpolation points), in basis order.
    pub fn nodes(&self) -> Vec<[f64; 2]> {
        let mut out = Vec::with_capacity(self.len());
        for &y in self.y.nodes() {
            for &x in self.x.nodes() {
                out.push([x, y]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kronecker property, partition of unity, exact derivative of t^k.
    #[test]
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
