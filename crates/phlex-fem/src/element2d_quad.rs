//! Reference elements on the unit square $\lbrack 0,1\rbrack^2$ built as tensor products of 1D
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
//!
//! [`QuadSpace`] assembles $Q_k$ (continuous, $k = 1, 2, 3$), $DQ_k$ and DG $P_k$
//! (discontinuous, $k = 0..3$) spaces on a [`QuadMesh`] with the isoparametric bilinear ($Q_1$) geometry
//! map, with nodal interpolation, mass and stiffness matrices and $L^2$ errors.
use crate::error::FemError;
use crate::mesh2d::Fem2dError;
use crate::mesh2d_quad::QuadMesh;
use crate::quadrature::GaussLegendre;
use phlex_core::sparse::{SparseMat, Triplets};

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

/// Family of a [`QuadSpace`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuadFamily {
    /// Continuous $Q_k$, `k ∈ 1..=3`.
    Q(usize),
    /// Discontinuous $DQ_k$, `k ∈ 0..=3`.
    Dq(usize),
    /// Discontinuous $P_k$ in the reference coordinates (monomials
    /// $(\xi-\frac12)^a(\eta-\frac12)^b$, $a + b \le k$), `k ∈ 0..=3`; interpolation is the
    /// cell-wise $L^2$ projection (no nodal basis).
    Dp(usize),
}

/// Exponents $(a, b)$ of the $P_k$ monomial basis, by total degree.
fn pk_exponents(k: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for d in 0..=k {
        for b in 0..=d {
            out.push((d - b, b));
        }
    }
    out
}

/// A scalar Lagrange space on a quadrilateral mesh (module docs).
#[derive(Debug, Clone)]
pub struct QuadSpace {
    mesh: QuadMesh,
    family: QuadFamily,
    reference: TensorSpace,
    cell_dofs: Vec<Vec<usize>>,
    n_dofs: usize,
}

impl QuadSpace {
    /// Numbers the DOFs of `family` on `mesh`: for $Q_k$ vertex DOFs first, then $k-1$
    /// per edge (ordered from the lower global vertex), then $(k-1)^2$ per cell; for
    /// $DQ_k$ $(k+1)^2$ per cell.
    pub fn new(mesh: &QuadMesh, family: QuadFamily) -> Result<Self, Fem2dError> {
        let (k, ok) = match family {
            QuadFamily::Q(k) => (k, (1..=3).contains(&k)),
            QuadFamily::Dq(k) | QuadFamily::Dp(k) => (k, k <= 3),
        };
        if !ok {
            return Err(FemError::UnsupportedDegree {
                what: format!("{family:?} on quadrilaterals"),
                degree: k,
                supported: "Q: 1..=3, Dq and Dp: 0..=3".into(),
            }
            .into());
        }
        let reference = TensorSpace::q(k)?;
        let nloc = match family {
            QuadFamily::Dp(k) => (k + 1) * (k + 2) / 2,
            _ => reference.len(),
        };
        let mut cell_dofs = Vec::with_capacity(mesh.n_cells());
        let n_dofs = match family {
            QuadFamily::Dq(_) | QuadFamily::Dp(_) => {
                for t in 0..mesh.n_cells() {
                    cell_dofs.push((t * nloc..(t + 1) * nloc).collect());
                }
                mesh.n_cells() * nloc
            }
            QuadFamily::Q(_) => {
                let (nv, ne) = (mesh.n_vertices(), mesh.n_edges());
                let ni = (k - 1) * (k - 1);
                for t in 0..mesh.n_cells() {
                    let q = mesh.quads()[t];
                    let ce = mesh.cell_edges(t);
                    let mut d = vec![0usize; nloc];
                    for iy in 0..=k {
                        for ix in 0..=k {
                            let corner = match (ix, iy) {
                                (0, 0) => Some(0),
                                (i, 0) if i == k => Some(1),
                                (i, j) if i == k && j == k => Some(2),
                                (0, j) if j == k => Some(3),
                                _ => None,
                            };
                            // (local edge, position from its start vertex)
                            let edge = if corner.is_some() {
                                None
                            } else if iy == 0 {
                                Some((0, ix))
                            } else if ix == k {
                                Some((1, iy))
                            } else if iy == k {
                                Some((2, k - ix))
                            } else if ix == 0 {
                                Some((3, k - iy))
                            } else {
                                None
                            };
                            d[iy * (k + 1) + ix] = if let Some(c) = corner {
                                q[c]
                            } else if let Some((l, pos)) = edge {
                                let start = q[l];
                                let e = ce[l];
                                let j = if mesh.edges()[e][0] == start {
                                    pos - 1
                                } else {
                                    k - 1 - pos
                                };
                                nv + e * (k - 1) + j
                            } else {
                                nv + ne * (k - 1) + t * ni + (iy - 1) * (k - 1) + (ix - 1)
                            };
                        }
                    }
                    cell_dofs.push(d);
                }
                nv + ne * (k - 1) + mesh.n_cells() * ni
            }
        };
        Ok(Self {
            mesh: mesh.clone(),
            family,
            reference,
            cell_dofs,
            n_dofs,
        })
    }
    /// Number of global DOFs.
    pub fn n_dofs(&self) -> usize {
        self.n_dofs
    }
    /// Number of basis functions per cell.
    pub fn n_local(&self) -> usize {
        self.cell_dofs.first().map_or(0, |d| d.len())
    }
    /// Reference basis values and reference gradients at `p`.
    fn eval_ref(&self, p: [f64; 2], v: &mut [f64], g: &mut [[f64; 2]]) {
        match self.family {
            QuadFamily::Dp(k) => {
                let (x, y) = (p[0] - 0.5, p[1] - 0.5);
                let pw = |t: f64, e: usize| if e == 0 { 1.0 } else { t.powi(e as i32) };
                let dpw = |t: f64, e: usize| {
                    if e == 0 {
                        0.0
                    } else {
                        e as f64 * pw(t, e - 1)
                    }
                };
                for (i, (a, b)) in pk_exponents(k).into_iter().enumerate() {
                    v[i] = pw(x, a) * pw(y, b);
                    g[i] = [dpw(x, a) * pw(y, b), pw(x, a) * dpw(y, b)];
                }
            }
            _ => self.reference.eval(p, v, g),
        }
    }
    /// Value of the field with coefficients `u` at reference point `p` ∈ [0, 1]² of cell
    /// `t` (for VTK sampling: `p` = a corner gives the vertex value, (½, ½) the centre
    /// value). Errors: wrong coefficient length, cell index out of range.
    pub fn value_in_cell(&self, u: &[f64], t: usize, p: [f64; 2]) -> Result<f64, Fem2dError> {
        if u.len() != self.n_dofs {
            return Err(FemError::Length {
                what: format!("{:?} coefficient vector", self.family),
                expected: self.n_dofs,
                found: u.len(),
            }
            .into());
        }
        if t >= self.cell_dofs.len() {
            return Err(FemError::InvalidParameter {
                name: "cell index".into(),
                value: t as f64,
                requirement: format!("< {} cells", self.cell_dofs.len()),
            }
            .into());
        }
        let n = self.n_local();
        let mut v = vec![0.0; n];
        let mut g = vec![[0.0; 2]; n];
        self.eval_ref(p, &mut v, &mut g);
        Ok(self.cell_dofs[t]
            .iter()
            .zip(&v)
            .map(|(&i, &phi)| u[i] * phi)
            .sum())
    }
    /// Family.
    pub fn family(&self) -> QuadFamily {
        self.family
    }
    /// The mesh.
    pub fn mesh(&self) -> &QuadMesh {
        &self.mesh
    }
    /// Global DOFs of cell `t` in reference basis order.
    pub fn cell_dofs(&self, t: usize) -> &[usize] {
        &self.cell_dofs[t]
    }
    /// Bilinear map of cell `t` at reference point `p`: physical point, Jacobian
    /// $\partial x_i/\partial\xi_j$ and its determinant.
    pub fn map(&self, t: usize, p: [f64; 2]) -> ([f64; 2], [[f64; 2]; 2], f64) {
        let c = self.mesh.cell_coords(t);
        let (xi, eta) = (p[0], p[1]);
        let n = [
            (1.0 - xi) * (1.0 - eta),
            xi * (1.0 - eta),
            xi * eta,
            (1.0 - xi) * eta,
        ];
        let dn = [
            [-(1.0 - eta), -(1.0 - xi)],
            [1.0 - eta, -xi],
            [eta, xi],
            [-eta, 1.0 - xi],
        ];
        let mut x = [0.0; 2];
        let mut j = [[0.0; 2]; 2];
        for a in 0..4 {
            for i in 0..2 {
                x[i] += n[a] * c[a][i];
                for k in 0..2 {
                    j[i][k] += dn[a][k] * c[a][i];
                }
            }
        }
        let det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
        (x, j, det)
    }
    /// Nodal interpolant of `f` (physical images of the reference nodes); for
    /// [`QuadFamily::Dp`] the cell-wise $L^2$ projection (6-point Gauss rule per direction).
    pub fn interpolate(&self, f: &dyn Fn([f64; 2]) -> f64) -> Vec<f64> {
        if let QuadFamily::Dp(_) = self.family {
            return self.local_projection(f);
        }
        let nodes = self.reference.nodes();
        let mut out = vec![0.0; self.n_dofs];
        for t in 0..self.mesh.n_cells() {
            for (a, &p) in nodes.iter().enumerate() {
                out[self.cell_dofs[t][a]] = f(self.map(t, p).0);
            }
        }
        out
    }
    /// Cell-wise $L^2$ projection (discontinuous spaces).
    fn local_projection(&self, f: &dyn Fn([f64; 2]) -> f64) -> Vec<f64> {
        let n = self.n_local();
        let mut out = vec![0.0; self.n_dofs];
        let mut m = vec![vec![0.0; n + 1]; n];
        let mut cur = usize::MAX;
        let solve = |m: &mut Vec<Vec<f64>>, out: &mut [f64], dofs: &[usize]| {
            // Gauss–Jordan on the SPD local mass with the right-hand side in column n
            for c in 0..n {
                let piv = m[c][c];
                for x in m[c].iter_mut() {
                    *x /= piv;
                }
                let pc = m[c].clone();
                for (r, row) in m.iter_mut().enumerate() {
                    if r != c {
                        let fct = row[c];
                        for (x, y) in row.iter_mut().zip(&pc) {
                            *x -= fct * y;
                        }
                    }
                }
            }
            for (i, &d) in dofs.iter().enumerate() {
                out[d] = m[i][n];
            }
            m.iter_mut()
                .for_each(|r| r.iter_mut().for_each(|x| *x = 0.0));
        };
        self.for_each_point(6, |t, x, w, v, _| {
            if t != cur {
                if cur != usize::MAX {
                    solve(&mut m, &mut out, &self.cell_dofs[cur]);
                }
                cur = t;
            }
            let fx = f(x);
            for i in 0..n {
                for j in 0..n {
                    m[i][j] += w * v[i] * v[j];
                }
                m[i][n] += w * v[i] * fx;
            }
        });
        if cur != usize::MAX {
            solve(&mut m, &mut out, &self.cell_dofs[cur]);
        }
        out
    }
    /// Visits every quadrature point of a tensor Gauss rule with `n` points per direction:
    /// `visit(cell, x, weight·det, values, physical gradients)`.
    fn for_each_point(
        &self,
        n: usize,
        mut visit: impl FnMut(usize, [f64; 2], f64, &[f64], &[[f64; 2]]),
    ) {
        let q = GaussLegendre::new(n).expect("small rule");
        let nloc = self.n_local();
        let mut v = vec![0.0; nloc];
        let mut g = vec![[0.0; 2]; nloc];
        let mut pg = vec![[0.0; 2]; nloc];
        for t in 0..self.mesh.n_cells() {
            for (&py, &wy) in q.points.iter().zip(&q.weights) {
                for (&px, &wx) in q.points.iter().zip(&q.weights) {
                    let (x, j, det) = self.map(t, [px, py]);
                    self.eval_ref([px, py], &mut v, &mut g);
                    // ∇_x φ = J^{-T} ∇_ξ φ
                    for a in 0..nloc {
                        pg[a] = [
                            (j[1][1] * g[a][0] - j[1][0] * g[a][1]) / det,
                            (-j[0][1] * g[a][0] + j[0][0] * g[a][1]) / det,
                        ];
                    }
                    visit(t, x, wx * wy * det, &v, &pg);
                }
            }
        }
    }
    fn assemble(&self, f: impl Fn(&[f64], &[[f64; 2]], usize, usize) -> f64) -> SparseMat {
        let k = self.reference.x.degree();
        let nloc = self.n_local();
        let mut tr = Triplets::new(self.n_dofs, self.n_dofs);
        let mut loc = vec![0.0; nloc * nloc];
        let mut cur = usize::MAX;
        let flush = |tr: &mut Triplets, t: usize, loc: &mut [f64]| {
            let d = &self.cell_dofs[t];
            for a in 0..nloc {
                for b in 0..nloc {
                    tr.push(d[a], d[b], loc[a * nloc + b]);
                }
            }
            loc.iter_mut().for_each(|x| *x = 0.0);
        };
        self.for_each_point(k + 2, |t, _, w, v, g| {
            if t != cur {
                if cur != usize::MAX {
                    flush(&mut tr, cur, &mut loc);
                }
                cur = t;
            }
            for a in 0..nloc {
                for b in 0..nloc {
                    loc[a * nloc + b] += w * f(v, g, a, b);
                }
            }
        });
        if cur != usize::MAX {
            flush(&mut tr, cur, &mut loc);
        }
        tr.build()
    }
    /// Mass matrix $c\int \varphi_i\varphi_j$ (Gauss rule with $k + 2$ points per
    /// direction: exact on parallelograms).
    pub fn mass(&self, c: f64) -> SparseMat {
        self.assemble(|v, _, a, b| c * v[a] * v[b])
    }
    /// Stiffness matrix $c\int\nabla\varphi_i\cdot\nabla\varphi_j$.
    pub fn stiffness(&self, c: f64) -> SparseMat {
        self.assemble(|_, g, a, b| c * (g[a][0] * g[b][0] + g[a][1] * g[b][1]))
    }
    /// $\|u_h - f\|_{L^2}$ with a 6-point Gauss rule per direction.
    pub fn l2_error(&self, u: &[f64], f: &dyn Fn([f64; 2]) -> f64) -> f64 {
        let mut s = 0.0;
        self.for_each_point(6, |t, x, w, v, _| {
            let uh: f64 = self.cell_dofs[t]
                .iter()
                .zip(v)
                .map(|(&d, &b)| u[d] * b)
                .sum();
            s += w * (uh - f(x)).powi(2);
        });
        s.sqrt()
    }
    /// DOFs on the boundary edges tagged `tag` (continuous spaces only).
    pub fn boundary_dofs(&self, tag: &str) -> Result<Vec<usize>, Fem2dError> {
        let k = match self.family {
            QuadFamily::Q(k) => k,
            QuadFamily::Dq(_) | QuadFamily::Dp(_) => {
                return Err(Fem2dError::NotContinuous {
                    space: format!("{:?}", self.family),
                })
            }
        };
        let mut out = Vec::new();
        for b in self.mesh.tagged_edges(tag)? {
            let d = &self.cell_dofs[b.cell];
            // local tensor indices along local edge b.local
            for s in 0..=k {
                let (ix, iy) = match b.local {
                    0 => (s, 0),
                    1 => (k, s),
                    2 => (s, k),
                    _ => (0, s),
                };
                out.push(d[iy * (k + 1) + ix]);
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
