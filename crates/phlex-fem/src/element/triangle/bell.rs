//! $H^2$-conforming ($C^1$) triangles: the Bell element (K. Bell 1969, thesis 004 eq. (7.24),
//! summary §3.3 "BellDG3") and, sharing the machinery, the Argyris element
//! ([`argyris`](crate::element::triangle::argyris), thesis 004 Ch. 8).
//!
//! Both are subspaces of $P_5$ on each triangle with the **physical-space** vertex DOFs
//! $$u(a),\ \partial_xu(a),\ \partial_yu(a),\ \partial_{xx}u(a),\ \partial_{xy}u(a),\
//! \partial_{yy}u(a)$$
//! at the three vertices $a$ (6 per vertex, shared by all cells around the vertex):
//!
//! * **Bell** (18 DOFs): the 3 extra conditions "the normal derivative is cubic on every
//!   edge", i.e. $\int_e \partial_n u\,P_4(2s - 1)\,ds = 0$ ($P_4$ Legendre), cut $P_5$
//!   down to an 18-dimensional space containing $P_4$;
//! * **Argyris** (21 DOFs): the 3 extra DOFs are $\partial_n u$ at the edge midpoints with the
//!   **globally oriented** normal of the edge (tangent from the lower to the higher global
//!   vertex, rotated by −90°), shared by the two cells of an interior edge.
//!
//! On an edge, the trace $u|_e$ is the quintic fixed by $u, \partial_t u, \partial_{tt}u$ at the
//! two end vertices, and $\partial_n u|_e$ is the cubic (Bell) or quartic (Argyris, with the
//! midpoint value) fixed by $\partial_nu, \partial_{tn}u$ at the end vertices: all are
//! combinations of shared DOFs, so the global functions are $C^1$ on affine meshes.
//!
//! # Construction of the physical basis
//! Kirby (2018) maps a reference basis with a cell-dependent matrix $M$ ($\phi =
//! M\hat\phi\circ F^{-1}$) because derivative DOFs are not affine-invariant. Here the same
//! physical basis (it is unique: the dual basis of the physical DOFs) is obtained directly:
//! on each cell, with local coordinates $\xi = (x - x_c)/s$ (centroid $x_c$, diameter $s$),
//! the generalized Vandermonde matrix $\hat V_{ij} = \hat\ell_i(\xi^{\alpha_j})$ of the 21
//! functionals (DOFs in $\xi$-derivatives, plus the Bell constraints) against the 21
//! monomials of $P_5$ is inverted (LU with partial pivoting); the coefficients of the
//! basis dual to the physical DOFs $\ell_i = s^{-k_i}\hat\ell_i$ (order $k_i$ of the
//! derivative) are the columns of $\hat V^{-1}$ scaled by $s^{k_i}$. The scaling keeps
//! $\hat V$ well conditioned independently of $h$.
use crate::element::dual::invert;
use crate::error::Fem2dError;
use crate::error::FemError;
use crate::mesh::triangle::CellGeometry;
use crate::mesh::triangle::Mesh2d;
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::polynomial::shifted_legendre;
use crate::quadrature::triangle::TriangleQuadrature;
use faer::linalg::solvers::Solve;
use phlex_core::sparse::{SparseMat, Triplets};

/// Number of monomials of $P_5$.
const NP5: usize = 21;

/// The two $C^1$ triangles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum C1Family {
    /// Bell: 18 vertex DOFs, normal derivative cubic on edges; reproduces $P_4$.
    Bell,
    /// Argyris: 18 vertex DOFs and 3 edge-midpoint normal derivatives; reproduces $P_5$.
    Argyris,
}

impl C1Family {
    /// Local basis functions per cell (18 or 21).
    pub fn n_local(&self) -> usize {
        match self {
            C1Family::Bell => 18,
            C1Family::Argyris => 21,
        }
    }
    /// Name, `"Bell"` or `"Argyris"`.
    pub fn name(&self) -> &'static str {
        match self {
            C1Family::Bell => "Bell",
            C1Family::Argyris => "Argyris",
        }
    }
    /// Largest degree $p$ with $P_p$ contained in the element (4 or 5).
    pub fn complete_degree(&self) -> usize {
        match self {
            C1Family::Bell => 4,
            C1Family::Argyris => 5,
        }
    }
}

/// Values, physical gradients and Hessians $(\partial_{xx}, \partial_{xy}, \partial_{yy})$ of
/// the local basis functions of one cell at one point.
#[derive(Debug, Clone, PartialEq)]
pub struct C1Values {
    /// $\phi_i$.
    pub val: Vec<f64>,
    /// $\nabla\phi_i$.
    pub grad: Vec<[f64; 2]>,
    /// $(\partial_{xx}\phi_i, \partial_{xy}\phi_i, \partial_{yy}\phi_i)$.
    pub hess: Vec<[f64; 3]>,
}

impl C1Values {
    /// Storage for `n` basis functions.
    pub fn new(n: usize) -> Self {
        Self {
            val: vec![0.0; n],
            grad: vec![[0.0; 2]; n],
            hess: vec![[0.0; 3]; n],
        }
    }
}

/// Exponents $(a, b)$ of the monomials $\xi^a\eta^b$ of $P_5$, by total degree.
fn exponents() -> [(usize, usize); NP5] {
    let mut e = [(0, 0); NP5];
    let mut k = 0;
    for d in 0..=5 {
        for j in 0..=d {
            e[k] = (d - j, j);
            k += 1;
        }
    }
    e
}

/// Monomials and their $\xi$-derivatives at `p`: `[m, m_ξ, m_η, m_ξξ, m_ξη, m_ηη]`.
fn monomials(p: [f64; 2]) -> [[f64; NP5]; 6] {
    let mut px = [1.0; 6];
    let mut py = [1.0; 6];
    for i in 1..6 {
        px[i] = px[i - 1] * p[0];
        py[i] = py[i - 1] * p[1];
    }
    let pw = |v: &[f64; 6], a: usize, k: usize| -> f64 {
        // d^k/dt^k t^a = a!/(a-k)! t^(a-k)
        if k > a {
            return 0.0;
        }
        let mut c = 1.0;
        for i in 0..k {
            c *= (a - i) as f64;
        }
        c * v[a - k]
    };
    let mut out = [[0.0; NP5]; 6];
    for (j, &(a, b)) in exponents().iter().enumerate() {
        out[0][j] = pw(&px, a, 0) * pw(&py, b, 0);
        out[1][j] = pw(&px, a, 1) * pw(&py, b, 0);
        out[2][j] = pw(&px, a, 0) * pw(&py, b, 1);
        out[3][j] = pw(&px, a, 2) * pw(&py, b, 0);
        out[4][j] = pw(&px, a, 1) * pw(&py, b, 1);
        out[5][j] = pw(&px, a, 0) * pw(&py, b, 2);
    }
    out
}

/// Physical basis of one cell: $\phi_i(x) = \sum_j C_{ji}\,m_j((x - x_c)/s)$.
#[derive(Debug, Clone, PartialEq)]
struct CellBasis {
    xc: [f64; 2],
    s: f64,
    /// `coef[j * nb + i]`.
    coef: Vec<f64>,
}

/// A global $C^1$ (Bell or Argyris) space on a triangle mesh.
///
/// Global DOFs: `6 v + k` for vertex `v` and `k` in (value, $\partial_x$, $\partial_y$,
/// $\partial_{xx}$, $\partial_{xy}$, $\partial_{yy}$); Argyris adds `6 n_v + e`, the normal
/// derivative at the midpoint of edge `e` along [`C1Space::edge_normal`]. Local DOFs of a
/// cell: `6 a + k` for its local vertex `a`, then (Argyris) `18 + i` for local edge `i`.
#[derive(Debug, Clone, PartialEq)]
pub struct C1Space {
    mesh: Mesh2d,
    family: C1Family,
    cells: Vec<CellBasis>,
    cell_dofs: Vec<usize>,
    n_dofs: usize,
}

impl C1Space {
    /// The space of `family` on `mesh`.
    pub fn new(mesh: &Mesh2d, family: C1Family) -> Result<Self, Fem2dError> {
        let nb = family.n_local();
        let nv = mesh.n_vertices();
        let gl = GaussLegendre::new(5)?;
        let mut cells = Vec::with_capacity(mesh.n_cells());
        let mut cell_dofs = Vec::with_capacity(mesh.n_cells() * nb);
        for t in 0..mesh.n_cells() {
            let c = mesh.cell_coords(t);
            let xc = [
                (c[0][0] + c[1][0] + c[2][0]) / 3.0,
                (c[0][1] + c[1][1] + c[2][1]) / 3.0,
            ];
            let edges = mesh.cell_edges(t);
            let s = edges
                .iter()
                .map(|&e| mesh.edge_length(e))
                .fold(0.0f64, f64::max);
            let loc = |x: [f64; 2]| [(x[0] - xc[0]) / s, (x[1] - xc[1]) / s];
            // rows: scaled functionals; order[i] = derivative order (for unscaling)
            let mut V = vec![0.0; NP5 * NP5];
            let mut order = [0usize; NP5];
            for a in 0..3 {
                let m = monomials(loc(c[a]));
                for k in 0..6 {
                    V[(6 * a + k) * NP5..(6 * a + k + 1) * NP5].copy_from_slice(&m[k]);
                    order[6 * a + k] = [0, 1, 1, 2, 2, 2][k];
                }
            }
            let tri = mesh.triangles()[t];
            for i in 0..3 {
                let (la, lb) = ((i + 1) % 3, (i + 2) % 3);
                let (A, B) = (c[la], c[lb]);
                let len = mesh.edge_length(edges[i]);
                let row = &mut V[(18 + i) * NP5..(18 + i + 1) * NP5];
                match family {
                    C1Family::Bell => {
                        // ∫_e ∂_n u P4 ds = 0 (any unit normal: homogeneous condition)
                        let n = [(B[1] - A[1]) / len, -(B[0] - A[0]) / len];
                        for (&q, &w) in gl.points.iter().zip(&gl.weights) {
                            let x = [A[0] + q * (B[0] - A[0]), A[1] + q * (B[1] - A[1])];
                            let m = monomials(loc(x));
                            let p4 = shifted_legendre(4, q);
                            for j in 0..NP5 {
                                row[j] += w * p4 * (n[0] * m[1][j] + n[1] * m[2][j]);
                            }
                        }
                        order[18 + i] = 0;
                    }
                    C1Family::Argyris => {
                        let n = global_normal(mesh, tri[la], tri[lb]);
                        let x = [0.5 * (A[0] + B[0]), 0.5 * (A[1] + B[1])];
                        let m = monomials(loc(x));
                        for j in 0..NP5 {
                            row[j] = n[0] * m[1][j] + n[1] * m[2][j];
                        }
                        order[18 + i] = 1;
                    }
                }
            }
            let inv = invert(&V, NP5).ok_or_else(|| FemError::InvalidParameter {
                name: format!("{} element on triangle {t}", family.name()),
                value: mesh.area(t),
                requirement: "a non-degenerate triangle (the DOF matrix is singular)".into(),
            })?;
            let mut coef = vec![0.0; NP5 * nb];
            for j in 0..NP5 {
                for i in 0..nb {
                    coef[j * nb + i] = inv[j * NP5 + i] * s.powi(order[i] as i32);
                }
            }
            cells.push(CellBasis { xc, s, coef });
            for &v in &tri {
                for k in 0..6 {
                    cell_dofs.push(6 * v + k);
                }
            }
            if family == C1Family::Argyris {
                for &e in &edges {
                    cell_dofs.push(6 * nv + e);
                }
            }
        }
        let n_dofs = 6 * nv
            + match family {
                C1Family::Bell => 0,
                C1Family::Argyris => mesh.n_edges(),
            };
        Ok(Self {
            mesh: mesh.clone(),
            family,
            cells,
            cell_dofs,
            n_dofs,
        })
    }

    /// The Bell space on `mesh`.
    pub fn bell(mesh: &Mesh2d) -> Result<Self, Fem2dError> {
        Self::new(mesh, C1Family::Bell)
    }

    /// The mesh.
    pub fn mesh(&self) -> &Mesh2d {
        &self.mesh
    }
    /// The element family.
    pub fn family(&self) -> C1Family {
        self.family
    }
    /// Number of global DOFs.
    pub fn n_dofs(&self) -> usize {
        self.n_dofs
    }
    /// Local basis functions per cell.
    pub fn n_local(&self) -> usize {
        self.family.n_local()
    }
    /// Global DOFs of cell `t` (local order of the type docs).
    #[inline]
    pub fn cell_dofs(&self, t: usize) -> &[usize] {
        let nb = self.n_local();
        &self.cell_dofs[t * nb..(t + 1) * nb]
    }
    /// Global DOF `k` (0..6: value, ∂x, ∂y, ∂xx, ∂xy, ∂yy) of vertex `v`.
    pub fn vertex_dof(&self, v: usize, k: usize) -> usize {
        6 * v + k
    }
    /// Global DOF of edge `e` (Argyris only).
    pub fn edge_dof(&self, e: usize) -> Option<usize> {
        match self.family {
            C1Family::Bell => None,
            C1Family::Argyris => Some(6 * self.mesh.n_vertices() + e),
        }
    }
    /// Global unit normal of edge `e` (tangent from the lower to the higher global vertex,
    /// rotated by −90°), the direction of the Argyris edge DOF.
    pub fn edge_normal(&self, e: usize) -> [f64; 2] {
        let [a, b] = self.mesh.edges()[e];
        global_normal(&self.mesh, a, b)
    }

    /// Values, gradients and Hessians of the local basis of cell `t` at the physical point
    /// `x` (the polynomials extend outside the cell).
    pub fn eval_cell(&self, t: usize, x: [f64; 2], out: &mut C1Values) {
        let cb = &self.cells[t];
        let nb = self.n_local();
        let m = monomials([(x[0] - cb.xc[0]) / cb.s, (x[1] - cb.xc[1]) / cb.s]);
        let (i1, i2) = (1.0 / cb.s, 1.0 / (cb.s * cb.s));
        for i in 0..nb {
            let mut a = [0.0; 6];
            for j in 0..NP5 {
                let c = cb.coef[j * nb + i];
                if c != 0.0 {
                    for (ak, mk) in a.iter_mut().zip(&m) {
                        *ak += c * mk[j];
                    }
                }
            }
            out.val[i] = a[0];
            out.grad[i] = [a[1] * i1, a[2] * i1];
            out.hess[i] = [a[3] * i2, a[4] * i2, a[5] * i2];
        }
    }

    /// Nodal interpolant of $u$ given as `f(x) = [u, u_x, u_y, u_xx, u_xy, u_yy]` (Argyris
    /// edge DOFs: $\nabla u\cdot n$ at the midpoints).
    pub fn interpolate(&self, f: &dyn Fn([f64; 2]) -> [f64; 6]) -> Vec<f64> {
        let mut u = vec![0.0; self.n_dofs];
        for (v, x) in self.mesh.vertices().iter().enumerate() {
            u[6 * v..6 * v + 6].copy_from_slice(&f(*x));
        }
        if self.family == C1Family::Argyris {
            for e in 0..self.mesh.n_edges() {
                let d = f(self.mesh.edge_midpoint(e));
                let n = self.edge_normal(e);
                u[self.edge_dof(e).expect("Argyris")] = d[1] * n[0] + d[2] * n[1];
            }
        }
        u
    }

    /// $(u, u_x, u_y, u_{xx}, u_{xy}, u_{yy})$ of the field with coefficients `u` at `x`
    /// (first cell containing `x`).
    pub fn evaluate(&self, u: &[f64], x: [f64; 2]) -> Result<[f64; 6], Fem2dError> {
        self.check_len(u)?;
        let mut t_found = None;
        for t in 0..self.mesh.n_cells() {
            let xh = CellGeometry::new(&self.mesh, t).inverse_map(x);
            let tol = 1e-12;
            if xh[0] >= -tol && xh[1] >= -tol && xh[0] + xh[1] <= 1.0 + tol {
                t_found = Some(t);
                break;
            }
        }
        let t = t_found.ok_or(Fem2dError::PointOutsideMesh { x })?;
        Ok(self.evaluate_in_cell(u, t, x))
    }

    /// Like [`Self::evaluate`] with the cell `t` given (no search).
    pub fn evaluate_in_cell(&self, u: &[f64], t: usize, x: [f64; 2]) -> [f64; 6] {
        let mut b = C1Values::new(self.n_local());
        self.eval_cell(t, x, &mut b);
        let mut out = [0.0; 6];
        for (i, &d) in self.cell_dofs(t).iter().enumerate() {
            let a = u[d];
            out[0] += a * b.val[i];
            out[1] += a * b.grad[i][0];
            out[2] += a * b.grad[i][1];
            out[3] += a * b.hess[i][0];
            out[4] += a * b.hess[i][1];
            out[5] += a * b.hess[i][2];
        }
        out
    }

    fn check_len(&self, u: &[f64]) -> Result<(), Fem2dError> {
        if u.len() != self.n_dofs {
            return Err(FemError::Length {
                what: format!("{} coefficient vector", self.family.name()),
                expected: self.n_dofs,
                found: u.len(),
            }
            .into());
        }
        Ok(())
    }

    /// Loops over cells and quadrature points of a rule of degree `degree`, calling
    /// `f(t, x, w·|T|·2, basis)`.
    fn for_each_qp(
        &self,
        degree: usize,
        mut f: impl FnMut(usize, [f64; 2], f64, &C1Values),
    ) -> Result<(), Fem2dError> {
        let q = TriangleQuadrature::exact_for_degree(degree)?;
        let mut b = C1Values::new(self.n_local());
        for t in 0..self.mesh.n_cells() {
            let g = CellGeometry::new(&self.mesh, t);
            for (xh, &w) in q.points.iter().zip(&q.weights) {
                let x = g.map(*xh);
                self.eval_cell(t, x, &mut b);
                f(t, x, w * g.det, &b);
            }
        }
        Ok(())
    }

    /// Mass matrix $c\int\phi^i\phi^j$ (exact: degree-10 rule).
    pub fn mass(&self, c: f64) -> Result<SparseMat, Fem2dError> {
        self.gram(c, 0.0, 0.0)
    }

    /// Gram matrix $\int a\,\phi^i\phi^j + b\,\nabla\phi^i\cdot\nabla\phi^j +
    /// c\,\operatorname{Hess}\phi^i : \operatorname{Hess}\phi^j$ (Frobenius product, the
    /// mixed derivative counted twice); $a = b = c = 1$ is the $H^2$ inner product.
    pub fn gram(&self, a: f64, b: f64, c: f64) -> Result<SparseMat, Fem2dError> {
        let nb = self.n_local();
        let mut tr = Triplets::new(self.n_dofs, self.n_dofs);
        let mut loc = vec![0.0; nb * nb];
        let mut last = usize::MAX;
        let flush = |tr: &mut Triplets, t: usize, loc: &mut [f64], me: &Self| {
            let d = me.cell_dofs(t);
            for i in 0..nb {
                for j in 0..nb {
                    tr.push(d[i], d[j], loc[i * nb + j]);
                }
            }
            loc.iter_mut().for_each(|v| *v = 0.0);
        };
        self.for_each_qp(10, |t, _, w, p| {
            if t != last {
                if last != usize::MAX {
                    flush(&mut tr, last, &mut loc, self);
                }
                last = t;
            }
            for i in 0..nb {
                for j in 0..nb {
                    let (gi, gj) = (p.grad[i], p.grad[j]);
                    let (hi, hj) = (p.hess[i], p.hess[j]);
                    loc[i * nb + j] += w
                        * (a * p.val[i] * p.val[j]
                            + b * (gi[0] * gj[0] + gi[1] * gj[1])
                            + c * (hi[0] * hj[0] + 2.0 * hi[1] * hj[1] + hi[2] * hj[2]));
                }
            }
        })?;
        if last != usize::MAX {
            flush(&mut tr, last, &mut loc, self);
        }
        Ok(tr.build())
    }

    /// Load vector $\int f\phi^i$ with a rule of degree `5 + extra_degree`.
    pub fn load(
        &self,
        f: &dyn Fn([f64; 2]) -> f64,
        extra_degree: usize,
    ) -> Result<Vec<f64>, Fem2dError> {
        let mut out = vec![0.0; self.n_dofs];
        self.for_each_qp(5 + extra_degree, |t, x, w, p| {
            let fv = f(x) * w;
            for (i, &d) in self.cell_dofs(t).iter().enumerate() {
                out[d] += fv * p.val[i];
            }
        })?;
        Ok(out)
    }

    /// $\int a\,u\phi^i + b\,\nabla u\cdot\nabla\phi^i + c\,\operatorname{Hess}u :
    /// \operatorname{Hess}\phi^i$ for `f(x) = [u, u_x, u_y, u_xx, u_xy, u_yy]` and
    /// $\int a u^2 + b|\nabla u|^2 + c|\operatorname{Hess}u|^2$, with a rule of degree
    /// `5 + extra_degree`.
    pub fn gram_load(
        &self,
        f: &dyn Fn([f64; 2]) -> [f64; 6],
        [a, b, c]: [f64; 3],
        extra_degree: usize,
    ) -> Result<(Vec<f64>, f64), Fem2dError> {
        let mut out = vec![0.0; self.n_dofs];
        let mut norm2 = 0.0;
        self.for_each_qp(5 + extra_degree, |t, x, w, p| {
            let u = f(x);
            norm2 += w
                * (a * u[0] * u[0]
                    + b * (u[1] * u[1] + u[2] * u[2])
                    + c * (u[3] * u[3] + 2.0 * u[4] * u[4] + u[5] * u[5]));
            for (i, &d) in self.cell_dofs(t).iter().enumerate() {
                let (g, h) = (p.grad[i], p.hess[i]);
                out[d] += w
                    * (a * u[0] * p.val[i]
                        + b * (u[1] * g[0] + u[2] * g[1])
                        + c * (u[3] * h[0] + 2.0 * u[4] * h[1] + u[5] * h[2]));
            }
        })?;
        Ok((out, norm2))
    }

    /// $L^2$ projection of `f` onto the space (sparse Cholesky of the mass matrix).
    pub fn l2_projection(&self, f: &dyn Fn([f64; 2]) -> f64) -> Result<Vec<f64>, Fem2dError> {
        let M = self.mass(1.0)?;
        let b = self.load(f, 10)?;
        solve_spd(&M, &b, "Bell/Argyris mass matrix")
    }
}

/// Global unit normal of the edge between global vertices `a`, `b`: tangent from the lower
/// to the higher index, rotated by −90°.
fn global_normal(mesh: &Mesh2d, a: usize, b: usize) -> [f64; 2] {
    let (p, q) = if a < b { (a, b) } else { (b, a) };
    let (P, Q) = (mesh.vertices()[p], mesh.vertices()[q]);
    let (tx, ty) = (Q[0] - P[0], Q[1] - P[1]);
    let l = (tx * tx + ty * ty).sqrt();
    [ty / l, -tx / l]
}

/// Solves $Ax = b$ for a sparse SPD `A` (sparse Cholesky).
pub(crate) fn solve_spd(A: &SparseMat, b: &[f64], what: &str) -> Result<Vec<f64>, Fem2dError> {
    let llt = A
        .sp_cholesky(faer::Side::Lower)
        .map_err(|e| FemError::LinAlg(format!("{what}: {e:?}")))?;
    let mut rhs = faer::Mat::from_fn(b.len(), 1, |i, _| b[i]);
    llt.solve_in_place(rhs.as_mut());
    Ok((0..b.len()).map(|i| rhs[(i, 0)]).collect())
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
pub(crate) mod tests {
    use super::*;
    use crate::mesh::triangle::Diagonal;
    use phlex_core::sparse;

    /// A perturbed structured mesh of $[0,1]^2$ (interior vertices moved randomly by up to
    /// 0.3 h, deterministic LCG): a generic unstructured-looking affine mesh.
    pub(crate) fn random_mesh(n: usize, seed: u64) -> Mesh2d {
        let m = Mesh2d::unit_square(n, Diagonal::Right).unwrap();
        let mut s = seed;
        let mut rnd = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        let h = 1.0 / n as f64;
        let verts: Vec<[f64; 2]> = m
            .vertices()
            .iter()
            .map(|p| {
                let inner =
                    p[0] > 1e-12 && p[0] < 1.0 - 1e-12 && p[1] > 1e-12 && p[1] < 1.0 - 1e-12;
                if inner {
                    [p[0] + 0.6 * h * rnd(), p[1] + 0.6 * h * rnd()]
                } else {
                    *p
                }
            })
            .collect();
        Mesh2d::new(verts, m.triangles().to_vec()).unwrap()
    }

    /// A quartic (Bell) or quintic (Argyris) polynomial with all monomials and its
    /// derivatives.
    pub(crate) fn poly(deg: usize) -> impl Fn([f64; 2]) -> [f64; 6] {
        move |x: [f64; 2]| {
            let e = exponents();
            let mut out = [0.0; 6];
            for (j, &(a, b)) in e.iter().enumerate() {
                if a + b > deg {
                    continue;
                }
                let c = 0.3 + 0.17 * j as f64 * if j % 2 == 0 { 1.0 } else { -1.0 };
                let m = monomials(x);
                for k in 0..6 {
                    out[k] += c * m[k][j];
                }
            }
            out
        }
    }

    /// Dual basis: every local DOF functional applied to every physical basis function of a
    /// cell gives the identity (value/derivative DOFs evaluated with the basis itself), and
    /// the Bell basis has a cubic normal derivative on every edge.
    #[test]
    fn dual_basis_and_cubic_normal_derivative() {
        let mesh = random_mesh(3, 7);
        for fam in [C1Family::Bell, C1Family::Argyris] {
            let sp = C1Space::new(&mesh, fam).unwrap();
            let nb = sp.n_local();
            let mut b = C1Values::new(nb);
            for t in 0..mesh.n_cells() {
                let c = mesh.cell_coords(t);
                for a in 0..3 {
                    sp.eval_cell(t, c[a], &mut b);
                    for i in 0..nb {
                        let got = [
                            b.val[i],
                            b.grad[i][0],
                            b.grad[i][1],
                            b.hess[i][0],
                            b.hess[i][1],
                            b.hess[i][2],
                        ];
                        for (k, g) in got.iter().enumerate() {
                            let ex = if i == 6 * a + k { 1.0 } else { 0.0 };
                            assert!((g - ex).abs() < 1e-9, "{fam:?} t{t} a{a} k{k} i{i}: {g}");
                        }
                    }
                }
                if fam == C1Family::Bell {
                    // 4th finite difference of ∂_n φ along the edge vanishes for a cubic
                    for i in 0..3 {
                        let (A, B) = (c[(i + 1) % 3], c[(i + 2) % 3]);
                        let n = [B[1] - A[1], A[0] - B[0]];
                        let dn = |s: f64, j: usize, b: &mut C1Values| {
                            sp.eval_cell(
                                t,
                                [A[0] + s * (B[0] - A[0]), A[1] + s * (B[1] - A[1])],
                                b,
                            );
                            b.grad[j][0] * n[0] + b.grad[j][1] * n[1]
                        };
                        for j in 0..nb {
                            let v: Vec<f64> =
                                (0..5).map(|q| dn(q as f64 / 4.0, j, &mut b)).collect();
                            let d4 = v[0] - 4.0 * v[1] + 6.0 * v[2] - 4.0 * v[3] + v[4];
                            assert!(d4.abs() < 1e-9, "t{t} edge {i} fn {j}: {d4}");
                        }
                    }
                }
            }
        }
    }

    /// $C^1$ continuity: a random global coefficient vector has value and gradient jumps
    /// below 1e-12 (relative to the field's size) at 7 points of every interior edge of a
    /// random mesh.
    #[test]
    fn c1_continuity_random_mesh() {
        let mesh = random_mesh(5, 11);
        for fam in [C1Family::Bell, C1Family::Argyris] {
            let sp = C1Space::new(&mesh, fam).unwrap();
            let mut s = 3u64;
            let u: Vec<f64> = (0..sp.n_dofs())
                .map(|_| {
                    s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
                    ((s >> 11) as f64 / (1u64 << 53) as f64) - 0.5
                })
                .collect();
            let mut worst = 0.0f64;
            let mut scale = 0.0f64;
            for e in 0..mesh.n_edges() {
                let (c0, c1) = mesh.edge_cells(e);
                let Some(c1) = c1 else { continue };
                let [a, b] = mesh.edges()[e];
                let (A, B) = (mesh.vertices()[a], mesh.vertices()[b]);
                for q in 0..7 {
                    let s = (q as f64 + 0.5) / 7.0;
                    let x = [A[0] + s * (B[0] - A[0]), A[1] + s * (B[1] - A[1])];
                    let (p, r) = (
                        sp.evaluate_in_cell(&u, c0, x),
                        sp.evaluate_in_cell(&u, c1, x),
                    );
                    for k in 0..3 {
                        worst = worst.max((p[k] - r[k]).abs());
                        scale = scale.max(p[k].abs());
                    }
                }
            }
            eprintln!("{fam:?}: C1 jump {worst:e} (field scale {scale:.2})");
            assert!(worst < 1e-12 * scale.max(1.0), "{fam:?}: jump {worst}");
        }
    }

    /// The interpolant of a polynomial of the complete degree (P4 Bell, P5 Argyris) is the
    /// polynomial itself (all six derivative values at interior points to 1e-10).
    #[test]
    fn reproduces_complete_polynomials() {
        let mesh = random_mesh(3, 5);
        for fam in [C1Family::Bell, C1Family::Argyris] {
            let sp = C1Space::new(&mesh, fam).unwrap();
            let p = poly(fam.complete_degree());
            let u = sp.interpolate(&p);
            for t in 0..mesh.n_cells() {
                let c = mesh.cell_coords(t);
                for bc in [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]] {
                    let x = [
                        bc[0] * c[0][0] + bc[1] * c[1][0] + bc[2] * c[2][0],
                        bc[0] * c[0][1] + bc[1] * c[1][1] + bc[2] * c[2][1],
                    ];
                    let (got, ex) = (sp.evaluate_in_cell(&u, t, x), p(x));
                    for k in 0..6 {
                        assert!(
                            (got[k] - ex[k]).abs() < 1e-10,
                            "{fam:?} k{k}: {got:?} {ex:?}"
                        );
                    }
                }
            }
            // one degree higher is not reproduced
            // (x y)^3 (degree 6) or x^3 y^2 (degree 5): not reproduced
            let d = fam.complete_degree() + 1;
            let q = move |x: [f64; 2]| {
                let (a, b) = (3i32, d as i32 - 3);
                let (px, py) = (x[0].powi(a), x[1].powi(b));
                [px * py, 0.0, 0.0, 0.0, 0.0, 0.0]
            };
            let uq = sp.interpolate(&|x| {
                let (a, b) = (3.0, d as f64 - 3.0);
                let (X, Y) = (x[0], x[1]);
                [
                    X.powf(a) * Y.powf(b),
                    a * X.powf(a - 1.0) * Y.powf(b),
                    b * X.powf(a) * Y.powf(b - 1.0),
                    a * (a - 1.0) * X.powf(a - 2.0) * Y.powf(b),
                    a * b * X.powf(a - 1.0) * Y.powf(b - 1.0),
                    b * (b - 1.0) * X.powf(a) * Y.powf(b - 2.0),
                ]
            });
            let x = [0.37, 0.41];
            let got = sp.evaluate(&uq, x).unwrap();
            assert!((got[0] - q(x)[0]).abs() > 1e-7, "{fam:?}");
        }
    }

    /// $H^2$ interpolation error of $u = \sin(\pi x)\cos(2y) e^{x}$ on structured meshes
    /// 1/h = 4, 8, 16: Bell order 3 (P4 reproduced), Argyris order 4 in the $H^2$ seminorm
    /// (asserted within 0.25 of the asymptotic order on the last refinement).
    #[test]
    fn h2_interpolation_order() {
        use std::f64::consts::PI;
        let f = |x: [f64; 2]| {
            let (s, c) = (PI * x[0]).sin_cos();
            let (sy, cy) = (2.0 * x[1]).sin_cos();
            let e = x[0].exp();
            // g = sin(πx) e^x, g' = (π cos + sin) e^x, g'' = (2π cos + (1 − π²) sin) e^x
            let g = s * e;
            let g1 = (PI * c + s) * e;
            let g2 = (2.0 * PI * c + (1.0 - PI * PI) * s) * e;
            [
                g * cy,
                g1 * cy,
                -2.0 * g * sy,
                g2 * cy,
                -2.0 * g1 * sy,
                -4.0 * g * cy,
            ]
        };
        for (fam, order) in [(C1Family::Bell, 3.0), (C1Family::Argyris, 4.0)] {
            let mut errs = Vec::new();
            for n in [4, 8, 16] {
                let mesh = Mesh2d::unit_square(n, Diagonal::Left).unwrap();
                let sp = C1Space::new(&mesh, fam).unwrap();
                let u = sp.interpolate(&f);
                let K = sp.gram(0.0, 0.0, 1.0).unwrap();
                let (b, c) = sp.gram_load(&f, [0.0, 0.0, 1.0], 10).unwrap();
                let e2 = sparse::bilinear(&u, &K, &u)
                    - 2.0 * u.iter().zip(&b).map(|(p, q)| p * q).sum::<f64>()
                    + c;
                errs.push(e2.max(0.0).sqrt());
            }
            let o = (errs[1] / errs[2]).log2();
            eprintln!("{fam:?} H2-seminorm interpolation errors {errs:?}, last order {o:.3}");
            assert!((o - order).abs() < 0.25, "{fam:?}: order {o}");
        }
    }
}
