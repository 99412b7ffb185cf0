//! Hellan–Herrmann–Johnson (HHJ) finite elements on triangle meshes: symmetric-tensor
//! fields, piecewise $P_r$ ($r = k - 1 \in \{0, 1, 2\}$), **normal–normal continuous**
//! across edges (thesis 004 eq. (7.16), summary §3.3 "HHJ"; Arnold & Walker 2019), and the
//! HHJ duality pairing with a continuous Lagrange space (thesis eq. (7.17), summary §3.3):
//! $$d_h(v, \mathbf E) = -\sum_T \langle \operatorname{Hess} v, \mathbf E\rangle_T +
//!   \sum_{e} \langle [\![\partial_n v]\!], \mathbf n^\top\mathbf E\,\mathbf n\rangle_e ,
//! \qquad [\![\partial_n v]\!] = \partial_{n_1}v|_{T_1} + \partial_{n_2}v|_{T_2},$$
//! each side with its own outward normal (on a boundary edge only the inner side).
//! Because $\mathbf n^\top\mathbf E\mathbf n$ is single valued, the edge sum equals
//! $\sum_T \int_{\partial T} E_{nn}\,\partial_{n_T} v$, which is how it is assembled.
//!
//! # Degrees of freedom (global orientation)
//! On a triangle $T$, $\sigma \in P_r(T;\mathbb S)$ is determined by
//! * per edge $e$ (3 edges), $r + 1$ edge moments
//!   $\ell_{e,j}(\sigma) = \frac1{|e|}\int_e \mathbf n_e^\top\sigma\,\mathbf n_e\,
//!   P_j(2s - 1)\,ds$, $j = 0..r$, with $P_j$ the Legendre polynomials and $0 \le s \le 1$ the
//!   arc-length parameter running from the edge's **lower global vertex** to the higher one;
//! * $3\,r(r+1)/2$ interior moments $\frac{1}{|T|}\int_T \sigma_c\,\hat\xi^p\hat\eta^q$,
//!   $p + q \le r - 1$, $c \in \{xx, xy, yy\}$.
//!
//! $\mathbf n^\top\sigma\mathbf n$ does not depend on the sign of $\mathbf n$, and $s$ uses
//! the global edge orientation, so the two triangles sharing an edge define **the same**
//! edge functionals: a global edge DOF is shared, and the $P_r(e)$ trace $\sigma_{nn}|_e$
//! (fixed by its $r+1$ moments) is continuous. No sign corrections are needed; the only
//! orientation-dependent objects are the odd Legendre moments, which use the global
//! orientation. The nodal basis is computed per cell from the physical-component monomial
//! basis $\hat\xi^p\hat\eta^q\,\mathbf E_c$ by inverting the (at most $18\times18$) DOF matrix,
//! so no Piola map is involved and affine cells of any shape are exact.
//!
//! Global numbering: edge DOFs first, `e·(r+1) + j` for global edge `e`, then interior DOFs
//! `n_edges·(r+1) + t·n_int + l`. Tensor components are stored as $(xx, xy, yy)$, so
//! $\mathbf A:\mathbf B = a_0b_0 + 2a_1b_1 + a_2b_2$.
use crate::element::dual::invert;
use crate::element::triangle::LagrangeP;
use crate::error::Fem2dError;
use crate::error::FemError;
use crate::mesh::triangle::CellGeometry;
use crate::mesh::triangle::{BoundaryEdge, Mesh2d};
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::polynomial::shifted_legendre;
use crate::quadrature::triangle::TriangleQuadrature;
use phlex_core::{SparseMat, Triplets};

/// Reference triangle vertices.
pub(crate) const REF_VERTICES: [[f64; 2]; 3] = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];

/// Monomials $\xi^p\eta^q$ with $p + q \le d$, ordered by total degree then by $q$.
fn monomials(d: usize) -> Vec<(usize, usize)> {
    let mut m = Vec::new();
    for deg in 0..=d {
        for q in 0..=deg {
            m.push((deg - q, q));
        }
    }
    m
}

#[inline]
fn pw(b: f64, e: usize) -> f64 {
    match e {
        0 => 1.0,
        1 => b,
        2 => b * b,
        _ => b.powi(e as i32),
    }
}

#[inline]
fn mono(x: [f64; 2], (p, q): (usize, usize)) -> f64 {
    pw(x[0], p) * pw(x[1], q)
}

fn factorial(n: usize) -> f64 {
    (1..=n).map(|k| k as f64).product()
}

/// Reference second derivatives $(\partial_{\xi\xi}, \partial_{\xi\eta}, \partial_{\eta\eta})$ of
/// the nodal Lagrange $P_k$ basis of [`LagrangeP`] (same nodes, so the same basis; rebuilt
/// from [`LagrangeP::nodes`] because [`LagrangeP`] only provides first derivatives).
#[derive(Debug, Clone, PartialEq)]
pub struct LagrangeHessian {
    n: usize,
    monomials: Vec<(usize, usize)>,
    /// `coef[m * n + j]` multiplies monomial `m` in basis function `j`.
    coef: Vec<f64>,
}

impl LagrangeHessian {
    /// Second derivatives of the basis of `el`.
    pub fn new(el: &LagrangeP) -> Result<Self, FemError> {
        let monomials = monomials(el.degree());
        let n = el.n_local();
        let mut V = vec![0.0; n * n];
        for (i, x) in el.nodes().iter().enumerate() {
            for (m, &pq) in monomials.iter().enumerate() {
                V[i * n + m] = mono(*x, pq);
            }
        }
        let coef = invert(&V, n)
            .ok_or_else(|| FemError::LinAlg("Lagrange Vandermonde (Hessians)".into()))?;
        Ok(Self { n, monomials, coef })
    }

    /// Number of basis functions.
    pub fn n_local(&self) -> usize {
        self.n
    }

    /// Reference Hessians $[\partial_{\xi\xi}, \partial_{\xi\eta}, \partial_{\eta\eta}]$ of all
    /// basis functions at `x` into `out` (length `n_local`).
    pub fn eval(&self, x: [f64; 2], out: &mut [[f64; 3]]) {
        let n = self.n;
        out[..n].iter_mut().for_each(|h| *h = [0.0; 3]);
        for (m, &(p, q)) in self.monomials.iter().enumerate() {
            let hxx = if p >= 2 {
                (p * (p - 1)) as f64 * pw(x[0], p - 2) * pw(x[1], q)
            } else {
                0.0
            };
            let hxy = if p >= 1 && q >= 1 {
                (p * q) as f64 * pw(x[0], p - 1) * pw(x[1], q - 1)
            } else {
                0.0
            };
            let hyy = if q >= 2 {
                (q * (q - 1)) as f64 * pw(x[0], p) * pw(x[1], q - 2)
            } else {
                0.0
            };
            if hxx == 0.0 && hxy == 0.0 && hyy == 0.0 {
                continue;
            }
            let row = &self.coef[m * n..(m + 1) * n];
            for (o, &c) in out.iter_mut().zip(row) {
                o[0] += c * hxx;
                o[1] += c * hxy;
                o[2] += c * hyy;
            }
        }
    }
}

/// Physical Hessian $(H_{xx}, H_{xy}, H_{yy}) = G\hat H G^\top$ from the reference one,
/// $G = J^{-\top}$ (constant on affine cells).
#[inline]
pub fn physical_hessian(g: &CellGeometry, h: [f64; 3]) -> [f64; 3] {
    let G = &g.inv_jac_t;
    let (a, b) = (G[0][0], G[0][1]);
    let (c, d) = (G[1][0], G[1][1]);
    [
        a * a * h[0] + 2.0 * a * b * h[1] + b * b * h[2],
        a * c * h[0] + (a * d + b * c) * h[1] + b * d * h[2],
        c * c * h[0] + 2.0 * c * d * h[1] + d * d * h[2],
    ]
}

/// $\mathbf n^\top\sigma\,\mathbf n$ for $\sigma$ stored as $(xx, xy, yy)$.
#[inline]
pub fn normal_normal(s: [f64; 3], n: [f64; 2]) -> f64 {
    s[0] * n[0] * n[0] + 2.0 * s[1] * n[0] * n[1] + s[2] * n[1] * n[1]
}

/// A global HHJ space of degree $r$ on a triangle mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct HhjSpace {
    mesh: Mesh2d,
    r: usize,
    monomials: Vec<(usize, usize)>,
    n_local: usize,
    n_int: usize,
    n_dofs: usize,
    cell_dofs: Vec<usize>,
    /// Per cell, `n_local × n_local` row-major: `coef[t][(c·nm + m)·nl + i]` multiplies
    /// $\hat\xi^p\hat\eta^q$ (monomial `m`) in component `c` of basis function `i`.
    coef: Vec<f64>,
}

impl HhjSpace {
    /// Largest supported degree $r$ (pairs with $CG_{r+1}$, $r + 1 \le 3$).
    pub const MAX_DEGREE: usize = 2;

    /// The HHJ space of degree `r` (`0 <= r <= 2`) on `mesh`.
    pub fn new(mesh: &Mesh2d, r: usize) -> Result<Self, Fem2dError> {
        if r > Self::MAX_DEGREE {
            return Err(FemError::UnsupportedDegree {
                what: "HHJ degree r (= k - 1)".into(),
                degree: r,
                supported: format!("0..={}", Self::MAX_DEGREE),
            }
            .into());
        }
        let mons = monomials(r);
        let nm = mons.len();
        let nl = 3 * nm;
        let ne = r + 1;
        let n_int = nl - 3 * ne;
        let interior_mons = if r >= 1 { monomials(r - 1) } else { Vec::new() };
        debug_assert_eq!(3 * interior_mons.len(), n_int);
        let nc = mesh.n_cells();
        let n_edge_dofs = mesh.n_edges() * ne;
        let mut cell_dofs = vec![0usize; nc * nl];
        let mut coef = vec![0.0; nc * nl * nl];
        let gl = GaussLegendre::new(r + 1)?;
        // interior rows: 2 ∫_T̂ ξ^a η^b dξ̂ = 2 a! b! / (a + b + 2)!  (cell independent)
        let dirichlet = |(p, q): (usize, usize), (a, b): (usize, usize)| {
            2.0 * factorial(p + a) * factorial(q + b) / factorial(p + a + q + b + 2)
        };
        let mut A = vec![0.0; nl * nl];
        for t in 0..nc {
            A.iter_mut().for_each(|v| *v = 0.0);
            let tri = mesh.triangles()[t];
            let x = mesh.cell_coords(t);
            let edges = mesh.cell_edges(t);
            for i in 0..3 {
                let (la, lb) = ((i + 1) % 3, (i + 2) % 3);
                let flip = tri[la] > tri[lb];
                let (dx, dy) = (x[lb][0] - x[la][0], x[lb][1] - x[la][1]);
                let l = (dx * dx + dy * dy).sqrt();
                let n = [dy / l, -dx / l];
                let w = [n[0] * n[0], 2.0 * n[0] * n[1], n[1] * n[1]];
                for (&tq, &wq) in gl.points.iter().zip(&gl.weights) {
                    let (a, b) = (REF_VERTICES[la], REF_VERTICES[lb]);
                    let xh = [a[0] + tq * (b[0] - a[0]), a[1] + tq * (b[1] - a[1])];
                    let s = if flip { 1.0 - tq } else { tq };
                    for j in 0..ne {
                        let pj = wq * shifted_legendre(j, s);
                        let row = (i * ne + j) * nl;
                        for (c, wc) in w.iter().enumerate() {
                            for (m, &pq) in mons.iter().enumerate() {
                                A[row + c * nm + m] += pj * wc * mono(xh, pq);
                            }
                        }
                    }
                }
                for j in 0..ne {
                    cell_dofs[t * nl + i * ne + j] = edges[i] * ne + j;
                }
            }
            for c in 0..3 {
                for (mi, &ab) in interior_mons.iter().enumerate() {
                    let row = (3 * ne + c * interior_mons.len() + mi) * nl;
                    for (m, &pq) in mons.iter().enumerate() {
                        A[row + c * nm + m] = dirichlet(pq, ab);
                    }
                }
            }
            for l in 0..n_int {
                cell_dofs[t * nl + 3 * ne + l] = n_edge_dofs + t * n_int + l;
            }
            let C = invert(&A, nl).ok_or_else(|| {
                FemError::LinAlg(format!(
                    "HHJ degree {r}: DOF matrix of cell {t} is singular"
                ))
            })?;
            coef[t * nl * nl..(t + 1) * nl * nl].copy_from_slice(&C);
        }
        Ok(Self {
            mesh: mesh.clone(),
            r,
            monomials: mons,
            n_local: nl,
            n_int,
            n_dofs: n_edge_dofs + nc * n_int,
            cell_dofs,
            coef,
        })
    }

    /// The mesh.
    pub fn mesh(&self) -> &Mesh2d {
        &self.mesh
    }
    /// Polynomial degree $r$.
    pub fn degree(&self) -> usize {
        self.r
    }
    /// Description, e.g. `"HHJ1"`.
    pub fn describe(&self) -> String {
        format!("HHJ{}", self.r)
    }
    /// Total number of DOFs.
    pub fn n_dofs(&self) -> usize {
        self.n_dofs
    }
    /// Local basis functions per cell, $3(r+1)(r+2)/2$.
    pub fn n_local(&self) -> usize {
        self.n_local
    }
    /// DOFs per edge, $r + 1$.
    pub fn dofs_per_edge(&self) -> usize {
        self.r + 1
    }
    /// Interior DOFs per cell, $3r(r+1)/2$.
    pub fn interior_dofs(&self) -> usize {
        self.n_int
    }
    /// Global DOFs of cell `t` (3 edges × $(r+1)$, then interior).
    #[inline]
    pub fn cell_dofs(&self, t: usize) -> &[usize] {
        &self.cell_dofs[t * self.n_local..(t + 1) * self.n_local]
    }
    /// Global DOFs of edge `e`.
    pub fn edge_dofs(&self, e: usize) -> std::ops::Range<usize> {
        let ne = self.dofs_per_edge();
        e * ne..(e + 1) * ne
    }

    /// Values (components $(xx, xy, yy)$) of every local basis function of cell `t` at the
    /// reference point `xh`, into `out` (length `n_local`).
    pub fn eval_cell(&self, t: usize, xh: [f64; 2], out: &mut [[f64; 3]]) {
        let nl = self.n_local;
        let nm = self.monomials.len();
        let mut mv = [0.0; 6];
        for (m, &pq) in self.monomials.iter().enumerate() {
            mv[m] = mono(xh, pq);
        }
        let C = &self.coef[t * nl * nl..(t + 1) * nl * nl];
        for (i, o) in out[..nl].iter_mut().enumerate() {
            let mut v = [0.0; 3];
            for (c, vc) in v.iter_mut().enumerate() {
                for (m, mvm) in mv[..nm].iter().enumerate() {
                    *vc += C[(c * nm + m) * nl + i] * mvm;
                }
            }
            *o = v;
        }
    }

    /// Canonical interpolant of the tensor field `f` (components $(xx, xy, yy)$): its DOFs
    /// are the edge and interior moments of `f` (Gauss rules exact for $P_{r+6}$), so
    /// fields of degree $\le r$ are reproduced exactly.
    pub fn interpolate(&self, f: &dyn Fn([f64; 2]) -> [f64; 3]) -> Result<Vec<f64>, Fem2dError> {
        let mut u = vec![0.0; self.n_dofs];
        let ne = self.dofs_per_edge();
        let gl = GaussLegendre::new(self.r + 4)?;
        let verts = self.mesh.vertices();
        for (e, &[a, b]) in self.mesh.edges().iter().enumerate() {
            // edges are stored lower vertex first: s runs a → b
            let (p, q) = (verts[a], verts[b]);
            let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
            let l = (dx * dx + dy * dy).sqrt();
            let n = [dy / l, -dx / l];
            for (&s, &w) in gl.points.iter().zip(&gl.weights) {
                let fnn = normal_normal(f([p[0] + s * dx, p[1] + s * dy]), n);
                for j in 0..ne {
                    u[e * ne + j] += w * fnn * shifted_legendre(j, s);
                }
            }
        }
        if self.n_int > 0 {
            let interior_mons = monomials(self.r - 1);
            let q = TriangleQuadrature::exact_for_degree(2 * self.r + 5)?;
            for t in 0..self.mesh.n_cells() {
                let g = CellGeometry::new(&self.mesh, t);
                let d = &self.cell_dofs[t * self.n_local + 3 * ne..(t + 1) * self.n_local];
                for (xh, &w) in q.points.iter().zip(&q.weights) {
                    let fv = f(g.map(*xh));
                    for c in 0..3 {
                        for (mi, &ab) in interior_mons.iter().enumerate() {
                            u[d[c * interior_mons.len() + mi]] += 2.0 * w * fv[c] * mono(*xh, ab);
                        }
                    }
                }
            }
        }
        Ok(u)
    }

    /// The cell containing `x` and the reference coordinates of `x` in it.
    pub fn locate(&self, x: [f64; 2]) -> Result<(usize, [f64; 2]), Fem2dError> {
        self.mesh.locate(x)
    }

    /// Value of the field with coefficients `u` in cell `t` at reference point `xh`.
    pub fn evaluate_in_cell(&self, u: &[f64], t: usize, xh: [f64; 2]) -> [f64; 3] {
        let mut b = vec![[0.0; 3]; self.n_local];
        self.eval_cell(t, xh, &mut b);
        let mut v = [0.0; 3];
        for (bi, &i) in b.iter().zip(self.cell_dofs(t)) {
            for c in 0..3 {
                v[c] += u[i] * bi[c];
            }
        }
        v
    }

    /// Value of the field with coefficients `u` at `x` (first cell found).
    pub fn evaluate(&self, u: &[f64], x: [f64; 2]) -> Result<[f64; 3], Fem2dError> {
        self.check_len(u)?;
        let (t, xh) = self.locate(x)?;
        Ok(self.evaluate_in_cell(u, t, xh))
    }

    fn check_len(&self, u: &[f64]) -> Result<(), Fem2dError> {
        if u.len() != self.n_dofs {
            return Err(FemError::Length {
                what: format!("{} coefficient vector", self.describe()),
                expected: self.n_dofs,
                found: u.len(),
            }
            .into());
        }
        Ok(())
    }

    /// All edge DOFs of the boundary edges tagged `tags` (the DOFs fixing
    /// $\mathbf n^\top\sigma\mathbf n$ there: strong $M_{nn}$ conditions). Sorted.
    pub fn boundary_dofs(&self, tags: &[&str]) -> Result<Vec<usize>, Fem2dError> {
        self.mesh.collect_edge_dofs(tags, |e| self.edge_dofs(e))
    }

    /// Normal–normal trace matrix of the boundary edges `edges`:
    /// $T^{m,(e,j)} = \int_e \Phi^m_{nn}\,P_j(2s-1)\,ds$, rows = DOFs, columns = edge
    /// `edges[b]`, moment `j` at `b·(r+1) + j`. By construction of the DOFs this is $|e|$ on
    /// the DOF $(e, j)$ and zero elsewhere (the other basis functions have vanishing
    /// normal–normal trace on $e$).
    pub fn nn_trace_matrix(&self, edges: &[BoundaryEdge]) -> SparseMat {
        let ne = self.dofs_per_edge();
        let mut t = Triplets::new(self.n_dofs, edges.len() * ne);
        for (k, b) in edges.iter().enumerate() {
            let l = self.mesh.edge_length(b.edge);
            for (j, dof) in self.edge_dofs(b.edge).enumerate() {
                t.push(dof, k * ne + j, l);
            }
        }
        t.build()
    }
}

/// Mass matrix $\int \sum_{ab} Q_{ab}\,\Phi^m_a\Phi^n_b$ of an HHJ space with a pointwise
/// symmetric $3\times3$ matrix `Q` on the stored components $(xx, xy, yy)$ (row-major); e.g.
/// `Q = diag(1, 2, 1)` is the Frobenius mass, a bending compliance gives
/// $\langle\mathbf V, \mathcal C_b\mathbf M\rangle$. Exact (degree-$2r$ rule).
pub fn mass(space: &HhjSpace, Q: &[f64; 9]) -> Result<SparseMat, Fem2dError> {
    let q = TriangleQuadrature::exact_for_degree(2 * space.r)?;
    let nl = space.n_local;
    let mesh = &space.mesh;
    let mut trip = Triplets::new(space.n_dofs, space.n_dofs);
    let mut b = vec![[0.0; 3]; nl];
    let mut qb = vec![[0.0; 3]; nl];
    let mut local = vec![0.0; nl * nl];
    for t in 0..mesh.n_cells() {
        let det = CellGeometry::new(mesh, t).det;
        local.iter_mut().for_each(|v| *v = 0.0);
        for (xh, &w) in q.points.iter().zip(&q.weights) {
            space.eval_cell(t, *xh, &mut b);
            for (o, v) in qb.iter_mut().zip(&b) {
                for a in 0..3 {
                    o[a] = Q[3 * a] * v[0] + Q[3 * a + 1] * v[1] + Q[3 * a + 2] * v[2];
                }
            }
            let wd = w * det;
            for i in 0..nl {
                for j in 0..nl {
                    let v = b[i][0] * qb[j][0] + b[i][1] * qb[j][1] + b[i][2] * qb[j][2];
                    local[i * nl + j] += wd * v;
                }
            }
        }
        push_local(&mut trip, &local, space.cell_dofs(t), space.cell_dofs(t));
    }
    Ok(trip.build())
}

/// Adds a dense local block, dropping round-off of exact zeros ($64\varepsilon$ times the
/// largest local entry), as the Lagrange assembly does.
pub(crate) fn push_local(trip: &mut Triplets, local: &[f64], rows: &[usize], cols: &[usize]) {
    let big = local.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let tol = 64.0 * f64::EPSILON * big;
    let nc = cols.len();
    for (i, &r) in rows.iter().enumerate() {
        for (j, &c) in cols.iter().enumerate() {
            let v = local[i * nc + j];
            if v.abs() > tol {
                trip.push(r, c, v);
            }
        }
    }
}

/// Load vector $\int \Phi^m : \mathbf F$ (Frobenius product) of a tensor field `f`
/// (components $(xx, xy, yy)$), with a cell rule exact for degree `r + extra_degree`.
pub fn load(
    space: &HhjSpace,
    f: &dyn Fn([f64; 2]) -> [f64; 3],
    extra_degree: usize,
) -> Result<Vec<f64>, Fem2dError> {
    let q = TriangleQuadrature::exact_for_degree(space.r + extra_degree)?;
    let nl = space.n_local;
    let mesh = &space.mesh;
    let mut out = vec![0.0; space.n_dofs];
    let mut b = vec![[0.0; 3]; nl];
    for t in 0..mesh.n_cells() {
        let g = CellGeometry::new(mesh, t);
        for (xh, &w) in q.points.iter().zip(&q.weights) {
            let fv = f(g.map(*xh));
            space.eval_cell(t, *xh, &mut b);
            let wd = w * g.det;
            for (bi, &i) in b.iter().zip(space.cell_dofs(t)) {
                out[i] += wd * (bi[0] * fv[0] + 2.0 * bi[1] * fv[1] + bi[2] * fv[2]);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::triangle::Diagonal;
    use phlex_core::sparse;

    const FROB: [f64; 9] = [1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0];

    /// A field of degree ≤ r is reproduced exactly by the canonical interpolant, in every
    /// cell (checks the DOF matrix inversion and the global edge orientation), and the
    /// counts are 3(r+1)(r+2)/2 per cell, r + 1 per edge.
    #[test]
    fn interpolation_reproduces_polynomials() {
        for diag in [Diagonal::Right, Diagonal::Left] {
            let m = Mesh2d::rectangle(0.0, 1.5, -0.5, 1.0, 3, 2, diag).unwrap();
            for r in 0..=2 {
                let s = HhjSpace::new(&m, r).unwrap();
                assert_eq!(s.n_local(), 3 * (r + 1) * (r + 2) / 2);
                assert_eq!(
                    s.n_dofs(),
                    m.n_edges() * (r + 1) + m.n_cells() * 3 * r * (r + 1) / 2
                );
                let f = move |x: [f64; 2]| -> [f64; 3] {
                    let (l1, l2) = ((r >= 1) as u8 as f64, (r >= 2) as u8 as f64);
                    let p = |a: f64, b: f64| {
                        a + l1 * (b * x[0] - 0.7 * x[1])
                            + l2 * (x[0] * x[1] - 0.3 * x[1] * x[1] + b * x[0] * x[0])
                    };
                    [p(1.0, 0.5), p(-0.4, 1.2), p(2.0, -0.3)]
                };
                let u = s.interpolate(&f).unwrap();
                for p in [[0.1, 0.2], [0.77, -0.31], [1.49, 0.99], [0.5, 0.5]] {
                    let v = s.evaluate(&u, p).unwrap();
                    let e = f(p);
                    for c in 0..3 {
                        assert!((v[c] - e[c]).abs() < 1e-12, "r={r} p={p:?}: {v:?} vs {e:?}");
                    }
                }
            }
        }
        assert!(HhjSpace::new(&Mesh2d::unit_square(1, Diagonal::Left).unwrap(), 3).is_err());
    }

    /// Normal–normal continuity: a random coefficient vector has the same σ_nn on both
    /// sides of every interior edge (at three points per edge), while σ_ns jumps.
    #[test]
    fn normal_normal_continuity() {
        let m = Mesh2d::rectangle(0.0, 1.0, 0.0, 1.0, 3, 3, Diagonal::Left).unwrap();
        for r in 0..=2 {
            let s = HhjSpace::new(&m, r).unwrap();
            let u: Vec<f64> = (0..s.n_dofs())
                .map(|i| ((i * 7919 + 13) % 101) as f64 / 50.0 - 1.0)
                .collect();
            let mut max_ns_jump = 0.0f64;
            for e in 0..m.n_edges() {
                let (t1, Some(t2)) = m.edge_cells(e) else {
                    continue;
                };
                let [a, b] = m.edges()[e];
                let (p, q) = (m.vertices()[a], m.vertices()[b]);
                let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
                let l = (dx * dx + dy * dy).sqrt();
                let n = [dy / l, -dx / l];
                let sv = [dx / l, dy / l];
                for s_ in [0.17, 0.5, 0.91] {
                    let x = [p[0] + s_ * dx, p[1] + s_ * dy];
                    let v1 = s.evaluate_in_cell(&u, t1, CellGeometry::new(&m, t1).inverse_map(x));
                    let v2 = s.evaluate_in_cell(&u, t2, CellGeometry::new(&m, t2).inverse_map(x));
                    let (n1, n2) = (normal_normal(v1, n), normal_normal(v2, n));
                    assert!((n1 - n2).abs() < 1e-11 * (1.0 + n1.abs()), "r={r} e={e}");
                    let ns = |v: [f64; 3]| {
                        v[0] * n[0] * sv[0]
                            + v[1] * (n[0] * sv[1] + n[1] * sv[0])
                            + v[2] * n[1] * sv[1]
                    };
                    max_ns_jump = max_ns_jump.max((ns(v1) - ns(v2)).abs());
                }
            }
            assert!(max_ns_jump > 1e-3, "r={r}: only nn should be continuous");
        }
    }

    /// The Frobenius mass of the identity tensor is 2·area; the Frobenius load of a field
    /// equals uᵀ M f_h for fields in the space.
    #[test]
    fn mass_and_load() {
        let m = Mesh2d::rectangle(0.0, 2.0, 0.0, 1.0, 3, 2, Diagonal::Right).unwrap();
        for r in 0..=2 {
            let s = HhjSpace::new(&m, r).unwrap();
            let M = mass(&s, &FROB).unwrap();
            let id = s.interpolate(&|_| [1.0, 0.0, 1.0]).unwrap();
            assert!((sparse::bilinear(&id, &M, &id) - 4.0).abs() < 1e-12);
            let l1 = (r > 0) as u8 as f64;
            let f = |x: [f64; 2]| [x[0] * l1, 0.5, 1.0 - l1 * x[1]];
            let fh = s.interpolate(&f).unwrap();
            let ld = load(&s, &f, 4).unwrap();
            let Mf = sparse::mul_vec(&M, &fh);
            for (a, b) in ld.iter().zip(&Mf) {
                assert!((a - b).abs() < 1e-12, "r={r}");
            }
        }
    }

    /// The rebuilt Lagrange basis has the right Hessians: Σ_j f(x_j) Ĥφ_j = Ĥf for f of
    /// degree k.
    #[test]
    fn lagrange_hessians() {
        for k in 1..=3 {
            let el = LagrangeP::new(k).unwrap();
            let h = LagrangeHessian::new(&el).unwrap();
            let f = |x: [f64; 2]| x[0].powi(k as i32) + x[0] * x[1] * (k >= 2) as u8 as f64;
            let mut out = vec![[0.0; 3]; el.n_local()];
            let p = [0.3, 0.2];
            h.eval(p, &mut out);
            let mut s = [0.0; 3];
            for (j, x) in el.nodes().iter().enumerate() {
                for c in 0..3 {
                    s[c] += f(*x) * out[j][c];
                }
            }
            let kf = k as f64;
            let exx = if k >= 2 {
                kf * (kf - 1.0) * p[0].powi(k as i32 - 2)
            } else {
                0.0
            };
            let exy = if k >= 2 { 1.0 } else { 0.0 };
            assert!((s[0] - exx).abs() < 1e-10 && (s[1] - exy).abs() < 1e-10 && s[2].abs() < 1e-10);
        }
    }
}
