//! Scalar finite element spaces on conforming quadrilateral meshes ([`QuadMesh`]): $Q_k$
//! (continuous, $k = 1, 2, 3$), $DQ_k$ and DG $P_k$ (discontinuous, $k = 0..3$), built on the
//! tensor-product reference elements of [`crate::element::quad`] with the isoparametric
//! bilinear ($Q_1$) geometry map, with nodal interpolation, mass and stiffness matrices and
//! $L^2$ errors (thesis 004 §7.2.1.1: the BJT spaces (7.11) on square cells).
use crate::element::quad::TensorSpace;
use crate::error::{Fem2dError, FemError};
use crate::mesh::quad::QuadMesh;
use crate::quadrature::gauss_legendre::GaussLegendre;
use phlex_core::sparse::{SparseMat, Triplets};

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
