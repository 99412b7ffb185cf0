//! Reference elements on the unit square $\lbrack 0,1\rbrack^2$ built as tensor products of 1D
//! Lagrange bases ([`Lagrange1d`]) (thesis 004 §7.2.1.1: the BJT spaces (7.11) on "square
//! extruded meshes", i.e. interval × interval tensor-product cells as in Firedrake's
//! extruded meshes): [`TensorSpace`] is the product $S_x \otimes S_y$ of two 1D bases,
//! giving $Q_k = \mathrm{CG}_k\otimes\mathrm{CG}_k$, $DQ_{k-1} = \mathrm{DG}_{k-1}\otimes
//! \mathrm{DG}_{k-1}$ and the two components of the rectangular Raviart–Thomas space
//! $\mathrm{RTCF}_k = (\mathrm{CG}_k\otimes\mathrm{DG}_{k-1})\times(\mathrm{DG}_{k-1}
//! \otimes\mathrm{CG}_k)$ (Firedrake's `HDiv(TensorProductElement(...))`), whose
//! divergence maps onto $DQ_{k-1}$.
//!
//! Basis ordering of a [`TensorSpace`]: index $i_y\,n_x + i_x$ with $i_x$ the 1D index
//! along $x$. The global spaces on quadrilateral meshes are in [`crate::space::quad`].
use crate::error::FemError;
use crate::quadrature::polynomial::Lagrange1d;

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
