//! Lagrange elements, quadrature, global spaces and bilinear-form assembly on tetrahedral
//! meshes ([`crate::mesh3d`]), for the 3D CG × DG elasticity model (thesis 004 §9.3.1
//! eq. (9.34); summary §3.2 "3D/2D elasticity").
//!
//! * [`LagrangeTet`]: $P_0$, $P_1$, $P_2$ on the reference tetrahedron
//!   $\{\hat x_i \ge 0, \sum\hat x_i \le 1\}$ with barycentrics
//!   $L_0 = 1 - \hat x - \hat y - \hat z$, $L_{1,2,3} = \hat x, \hat y, \hat z$: vertex functions
//!   $L_i$ ($P_1$) or $L_i(2L_i - 1)$ ($P_2$), edge functions $4L_aL_b$ on the local edges
//!   [`crate::mesh3d::LOCAL_EDGES`] (symmetric in $a, b$, so no orientation is needed);
//! * [`TetQuadrature`]: collapsed (Duffy) Gauss–Legendre product rule,
//!   $x = u$, $y = v(1-u)$, $z = w(1-u)(1-v)$, Jacobian $(1-u)^2(1-v)$, exact for the given
//!   polynomial degree;
//! * [`Space3d`]: `CG_k` ($k = 1, 2$: vertices, then one DOF per edge) or `DG_k`
//!   ($k = 0, 1, 2$), scalar / vector ($\mathbb R^3$) / symmetric tensor valued, DOF
//!   `c · n_scalar + i` (component major); symmetric tensors in the order
//!   $(xx, yy, zz, yz, xz, xy)$ with Frobenius weights $(1, 1, 1, 2, 2, 2)$;
//! * [`bilinear3d`]: $A^{ij} = \sum c\int\mathcal O_t(\phi^i_{c_t})\mathcal O_r(\psi^j_{c_r})$
//!   with $\mathcal O \in \{\text{value}, \partial_x, \partial_y, \partial_z\}$, exact on affine
//!   cells.
use crate::error::FemError;
use crate::mesh2d::Fem2dError;
use crate::mesh3d::{Mesh3d, LOCAL_EDGES};
use crate::quadrature::GaussLegendre;
use phlex_core::{SparseMat, Triplets};

/// Lagrange $P_k$ ($k \le 2$) on the reference tetrahedron (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LagrangeTet {
    k: usize,
}

impl LagrangeTet {
    /// $P_k$, `k <= 2`.
    pub fn new(k: usize) -> Result<Self, FemError> {
        if k > 2 {
            return Err(FemError::UnsupportedDegree {
                what: "Lagrange degree on tetrahedra".into(),
                degree: k,
                supported: "0..=2".into(),
            });
        }
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

/// Quadrature on the reference tetrahedron (weights sum to its volume 1/6).
#[derive(Debug, Clone, PartialEq)]
pub struct TetQuadrature {
    /// Points.
    pub points: Vec<[f64; 3]>,
    /// Weights.
    pub weights: Vec<f64>,
}

impl TetQuadrature {
    /// Collapsed Gauss–Legendre rule exact for polynomials of total degree `degree`.
    pub fn exact_for_degree(degree: usize) -> Result<Self, FemError> {
        // the Duffy map raises the degree in u by 2 and in v by 1
        let g = GaussLegendre::exact_for_degree(degree + 2)?;
        let mut points = Vec::new();
        let mut weights = Vec::new();
        for (&u, &wu) in g.points.iter().zip(&g.weights) {
            for (&v, &wv) in g.points.iter().zip(&g.weights) {
                for (&w, &ww) in g.points.iter().zip(&g.weights) {
                    points.push([u, v * (1.0 - u), w * (1.0 - u) * (1.0 - v)]);
                    weights.push(wu * wv * ww * (1.0 - u) * (1.0 - u) * (1.0 - v));
                }
            }
        }
        Ok(Self { points, weights })
    }
}

/// Element family of a 3D Lagrange space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family3d {
    /// Continuous $P_k$, $k = 1, 2$.
    Cg(usize),
    /// Discontinuous $P_k$, $k = 0, 1, 2$.
    Dg(usize),
}

impl Family3d {
    /// Polynomial degree.
    pub fn degree(&self) -> usize {
        match *self {
            Family3d::Cg(k) | Family3d::Dg(k) => k,
        }
    }
}

/// Value shape of a 3D space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape3d {
    /// Scalar.
    Scalar,
    /// Vector $(x, y, z)$.
    Vector,
    /// Symmetric tensor $(xx, yy, zz, yz, xz, xy)$.
    SymTensor,
}

impl Shape3d {
    /// Number of stored components (1, 3, 6).
    pub fn n_comp(&self) -> usize {
        match self {
            Shape3d::Scalar => 1,
            Shape3d::Vector => 3,
            Shape3d::SymTensor => 6,
        }
    }
    /// Weights of the Euclidean / Frobenius product on the stored components.
    pub fn frobenius_weights(&self) -> &'static [f64] {
        match self {
            Shape3d::Scalar => &[1.0],
            Shape3d::Vector => &[1.0, 1.0, 1.0],
            Shape3d::SymTensor => &[1.0, 1.0, 1.0, 2.0, 2.0, 2.0],
        }
    }
}

/// Affine geometry of a tetrahedron: $x = x_0 + J\hat x$, with $J^{-\top}$ and $\det J$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TetGeometry {
    /// First vertex.
    pub x0: [f64; 3],
    /// Columns $v_i - v_0$, row-major.
    pub jac: [[f64; 3]; 3],
    /// $J^{-\top}$, row-major.
    pub inv_jac_t: [[f64; 3]; 3],
    /// $\det J = 6|T|$.
    pub det: f64,
}

impl TetGeometry {
    /// Geometry of cell `t`.
    pub fn new(mesh: &Mesh3d, t: usize) -> Self {
        let c = mesh.cell_coords(t);
        let mut j = [[0.0; 3]; 3];
        for r in 0..3 {
            for col in 0..3 {
                j[r][col] = c[col + 1][r] - c[0][r];
            }
        }
        let det = j[0][0] * (j[1][1] * j[2][2] - j[1][2] * j[2][1])
            - j[0][1] * (j[1][0] * j[2][2] - j[1][2] * j[2][0])
            + j[0][2] * (j[1][0] * j[2][1] - j[1][1] * j[2][0]);
        // cofactor matrix / det = J^{-T}
        let mut it = [[0.0; 3]; 3];
        for (r, row) in it.iter_mut().enumerate() {
            for (col, x) in row.iter_mut().enumerate() {
                let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
                let (c1, c2) = ((col + 1) % 3, (col + 2) % 3);
                *x = (j[r1][c1] * j[r2][c2] - j[r1][c2] * j[r2][c1]) / det;
            }
        }
        Self {
            x0: c[0],
            jac: j,
            inv_jac_t: it,
            det,
        }
    }
    /// Physical point of reference point `xh`.
    pub fn map(&self, xh: [f64; 3]) -> [f64; 3] {
        let mut x = self.x0;
        for (r, xr) in x.iter_mut().enumerate() {
            for (a, b) in self.jac[r].iter().zip(xh) {
                *xr += a * b;
            }
        }
        x
    }
    /// Physical gradient $J^{-\top}\hat\nabla\phi$.
    #[inline]
    pub fn grad(&self, g: [f64; 3]) -> [f64; 3] {
        let m = &self.inv_jac_t;
        [
            m[0][0] * g[0] + m[0][1] * g[1] + m[0][2] * g[2],
            m[1][0] * g[0] + m[1][1] * g[1] + m[1][2] * g[2],
            m[2][0] * g[0] + m[2][1] * g[1] + m[2][2] * g[2],
        ]
    }
}

/// A global Lagrange space on a tetrahedral mesh (module docs for the DOF numbering).
#[derive(Debug, Clone, PartialEq)]
pub struct Space3d {
    mesh: Mesh3d,
    family: Family3d,
    shape: Shape3d,
    element: LagrangeTet,
    n_scalar: usize,
    cell_dofs: Vec<usize>,
}

impl Space3d {
    /// The space of `family` and `shape` on `mesh`.
    pub fn new(mesh: &Mesh3d, family: Family3d, shape: Shape3d) -> Result<Self, Fem2dError> {
        if let Family3d::Cg(k) = family {
            if !(1..=2).contains(&k) {
                return Err(FemError::UnsupportedDegree {
                    what: "CG degree on tetrahedra".into(),
                    degree: k,
                    supported: "1..=2".into(),
                }
                .into());
            }
        }
        let element = LagrangeTet::new(family.degree())?;
        let nl = element.n_local();
        let nc = mesh.n_cells();
        let mut cell_dofs = vec![0usize; nc * nl];
        let n_scalar = match family {
            Family3d::Dg(_) => {
                for (i, d) in cell_dofs.iter_mut().enumerate() {
                    *d = i;
                }
                nc * nl
            }
            Family3d::Cg(k) => {
                let nv = mesh.n_vertices();
                for t in 0..nc {
                    let d = &mut cell_dofs[t * nl..(t + 1) * nl];
                    d[..4].copy_from_slice(&mesh.tets()[t]);
                    if k == 2 {
                        for (e, g) in mesh.cell_edges(t).iter().enumerate() {
                            d[4 + e] = nv + g;
                        }
                    }
                }
                if k == 2 {
                    nv + mesh.n_edges()
                } else {
                    nv
                }
            }
        };
        Ok(Self {
            mesh: mesh.clone(),
            family,
            shape,
            element,
            n_scalar,
            cell_dofs,
        })
    }
    /// The mesh.
    pub fn mesh(&self) -> &Mesh3d {
        &self.mesh
    }
    /// Element family.
    pub fn family(&self) -> Family3d {
        self.family
    }
    /// Value shape.
    pub fn shape(&self) -> Shape3d {
        self.shape
    }
    /// Reference element.
    pub fn element(&self) -> &LagrangeTet {
        &self.element
    }
    /// Description, e.g. `"(CG2)^3"`.
    pub fn describe(&self) -> String {
        let f = match self.family {
            Family3d::Cg(k) => format!("CG{k}"),
            Family3d::Dg(k) => format!("DG{k}"),
        };
        match self.shape {
            Shape3d::Scalar => f,
            Shape3d::Vector => format!("({f})^3"),
            Shape3d::SymTensor => format!("({f})^3x3_sym"),
        }
    }
    /// Number of components.
    pub fn n_comp(&self) -> usize {
        self.shape.n_comp()
    }
    /// Scalar DOFs per component.
    pub fn n_scalar_dofs(&self) -> usize {
        self.n_scalar
    }
    /// Total number of DOFs.
    pub fn n_dofs(&self) -> usize {
        self.n_comp() * self.n_scalar
    }
    /// Local scalar basis functions per cell.
    pub fn n_local(&self) -> usize {
        self.element.n_local()
    }
    /// Scalar global DOFs of cell `t`.
    #[inline]
    pub fn cell_dofs(&self, t: usize) -> &[usize] {
        let nl = self.n_local();
        &self.cell_dofs[t * nl..(t + 1) * nl]
    }
    /// Global DOF of component `c` of scalar DOF `i`.
    #[inline]
    pub fn global(&self, c: usize, i: usize) -> usize {
        c * self.n_scalar + i
    }
    /// Nodal interpolant of `f` (which writes the `n_comp` components at a point).
    pub fn interpolate(&self, f: &dyn Fn([f64; 3], &mut [f64])) -> Vec<f64> {
        let mut u = vec![0.0; self.n_dofs()];
        let mut val = vec![0.0; self.n_comp()];
        let nodes = self.element.nodes();
        for t in 0..self.mesh.n_cells() {
            let g = TetGeometry::new(&self.mesh, t);
            for (j, xh) in nodes.iter().enumerate() {
                f(g.map(*xh), &mut val);
                let i = self.cell_dofs(t)[j];
                for (c, v) in val.iter().enumerate() {
                    u[self.global(c, i)] = *v;
                }
            }
        }
        u
    }
    /// Cell containing the physical point `x` and its reference coordinates (first match,
    /// barycentric tolerance $10^{-10}$); [`Fem2dError::PointOutside3d`] if none.
    pub fn locate(&self, x: [f64; 3]) -> Result<(usize, [f64; 3]), Fem2dError> {
        for t in 0..self.mesh.n_cells() {
            let g = TetGeometry::new(&self.mesh, t);
            let d = [x[0] - g.x0[0], x[1] - g.x0[1], x[2] - g.x0[2]];
            // reference point = J^{-1} d = (J^{-T})^T d
            let m = &g.inv_jac_t;
            let xh = [0, 1, 2].map(|c| m[0][c] * d[0] + m[1][c] * d[1] + m[2][c] * d[2]);
            let tol = 1e-10;
            if xh.iter().all(|&v| v >= -tol) && xh.iter().sum::<f64>() <= 1.0 + tol {
                return Ok((t, xh));
            }
        }
        Err(Fem2dError::PointOutside3d { x })
    }
    /// Values (`n_comp`) of the field with coefficients `u` at the physical point `x`.
    pub fn evaluate(&self, u: &[f64], x: [f64; 3]) -> Result<Vec<f64>, Fem2dError> {
        if u.len() != self.n_dofs() {
            return Err(FemError::Length {
                what: format!("{} coefficient vector", self.describe()),
                expected: self.n_dofs(),
                found: u.len(),
            }
            .into());
        }
        let (t, xh) = self.locate(x)?;
        let nl = self.n_local();
        let (mut v, mut g) = (vec![0.0; nl], vec![[0.0; 3]; nl]);
        self.element.eval(xh, &mut v, &mut g);
        let dofs = self.cell_dofs(t);
        Ok((0..self.n_comp())
            .map(|c| {
                dofs.iter()
                    .zip(&v)
                    .map(|(&i, &phi)| u[self.global(c, i)] * phi)
                    .sum()
            })
            .collect())
    }
    /// All global DOFs (every component) whose basis functions do not vanish on the
    /// boundary faces tagged `tags` (their vertex and edge DOFs), sorted. `CG` only.
    pub fn boundary_dofs(&self, tags: &[&str]) -> Result<Vec<usize>, Fem2dError> {
        if let Family3d::Dg(_) = self.family {
            return Err(Fem2dError::NotContinuous {
                space: self.describe(),
            });
        }
        let mut scalar = Vec::new();
        for tag in tags {
            for f in self.mesh.tagged_faces(tag)? {
                let d = self.cell_dofs(f.cell);
                for (v, &dv) in d[..4].iter().enumerate() {
                    if v != f.local {
                        scalar.push(dv);
                    }
                }
                if self.family.degree() == 2 {
                    for (e, [a, b]) in LOCAL_EDGES.iter().enumerate() {
                        if *a != f.local && *b != f.local {
                            scalar.push(d[4 + e]);
                        }
                    }
                }
            }
        }
        scalar.sort_unstable();
        scalar.dedup();
        let mut out = Vec::with_capacity(scalar.len() * self.n_comp());
        for c in 0..self.n_comp() {
            out.extend(scalar.iter().map(|&i| self.global(c, i)));
        }
        Ok(out)
    }
}

/// A pointwise operator on a scalar component in 3D.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op3d {
    /// The value.
    Value,
    /// $\partial_x$, $\partial_y$, $\partial_z$ (index 0, 1, 2).
    D(usize),
}

/// One term $c\,\mathcal O_t(\phi_{c_t})\,\mathcal O_r(\psi_{c_r})$ of a 3D bilinear form:
/// `(test_comp, test_op, trial_comp, trial_op, coeff)`.
pub type Term3d = (usize, Op3d, usize, Op3d, f64);

/// $A^{ij} = \sum_{\text{terms}} c \int_\Omega \mathcal O_t(\phi^i)\,\mathcal O_r(\psi^j)$,
/// rows = DOFs of `test`, columns = DOFs of `trial`; quadrature exact for the polynomial
/// integrands on affine cells. Entries below $64\varepsilon$ times the largest of their
/// element block are dropped (round-off of exact zeros).
pub fn bilinear3d(
    test: &Space3d,
    trial: &Space3d,
    terms: &[Term3d],
) -> Result<SparseMat, Fem2dError> {
    if test.mesh() != trial.mesh() {
        return Err(FemError::MeshMismatch {
            a: test.describe(),
            b: trial.describe(),
        }
        .into());
    }
    for (k, t) in terms.iter().enumerate() {
        let bad_op = |o: Op3d| matches!(o, Op3d::D(d) if d > 2);
        if t.0 >= test.n_comp() || t.2 >= trial.n_comp() || bad_op(t.1) || bad_op(t.3) {
            return Err(FemError::InvalidParameter {
                name: format!("terms[{k}]"),
                value: t.0.max(t.2) as f64,
                requirement: format!(
                    "components < {} / {} and derivative index < 3",
                    test.n_comp(),
                    trial.n_comp()
                ),
            }
            .into());
        }
    }
    let dt = |op: Op3d, s: &Space3d| {
        let k = s.family().degree();
        if op == Op3d::Value {
            k
        } else {
            k.saturating_sub(1)
        }
    };
    let deg = terms
        .iter()
        .map(|t| dt(t.1, test) + dt(t.3, trial))
        .max()
        .unwrap_or(0);
    let q = TetQuadrature::exact_for_degree(deg)?;
    let tab = |s: &Space3d| {
        let n = s.n_local();
        let mut val = vec![0.0; n * q.points.len()];
        let mut grad = vec![[0.0; 3]; n * q.points.len()];
        for (p, x) in q.points.iter().enumerate() {
            s.element().eval(
                *x,
                &mut val[p * n..(p + 1) * n],
                &mut grad[p * n..(p + 1) * n],
            );
        }
        (val, grad)
    };
    let (tv, tg) = tab(test);
    let (rv, rg) = tab(trial);
    let (nt, nr) = (test.n_local(), trial.n_local());
    let mesh = test.mesh();
    let mut trip = Triplets::new(test.n_dofs(), trial.n_dofs());
    let mut a = vec![0.0; nt];
    let mut b = vec![0.0; nr];
    let mut local = vec![0.0; terms.len() * nt * nr];
    let apply =
        |g: &TetGeometry, val: &[f64], grad: &[[f64; 3]], op: Op3d, out: &mut [f64]| match op {
            Op3d::Value => out.copy_from_slice(val),
            Op3d::D(d) => {
                let m = g.inv_jac_t[d];
                for (o, gr) in out.iter_mut().zip(grad) {
                    *o = m[0] * gr[0] + m[1] * gr[1] + m[2] * gr[2];
                }
            }
        };
    for t in 0..mesh.n_cells() {
        let g = TetGeometry::new(mesh, t);
        local.iter_mut().for_each(|v| *v = 0.0);
        for (p, &w) in q.weights.iter().enumerate() {
            let wd = w * g.det;
            for (k, term) in terms.iter().enumerate() {
                apply(
                    &g,
                    &tv[p * nt..(p + 1) * nt],
                    &tg[p * nt..(p + 1) * nt],
                    term.1,
                    &mut a,
                );
                apply(
                    &g,
                    &rv[p * nr..(p + 1) * nr],
                    &rg[p * nr..(p + 1) * nr],
                    term.3,
                    &mut b,
                );
                let blk = &mut local[k * nt * nr..(k + 1) * nt * nr];
                let c = wd * term.4;
                for (i, &ai) in a.iter().enumerate() {
                    let ca = c * ai;
                    for (j, &bj) in b.iter().enumerate() {
                        blk[i * nr + j] += ca * bj;
                    }
                }
            }
        }
        let (dt_, dr) = (test.cell_dofs(t), trial.cell_dofs(t));
        for (k, term) in terms.iter().enumerate() {
            let blk = &local[k * nt * nr..(k + 1) * nt * nr];
            let big = blk.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let tol = 64.0 * f64::EPSILON * big;
            for i in 0..nt {
                for j in 0..nr {
                    let v = blk[i * nr + j];
                    if v.abs() > tol {
                        trip.push(test.global(term.0, dt_[i]), trial.global(term.2, dr[j]), v);
                    }
                }
            }
        }
    }
    Ok(trip.build())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The collapsed rule integrates monomials exactly: ∫_T x^a y^b z^c =
    /// a! b! c! / (a + b + c + 3)!.
    #[test]
    fn tet_quadrature_exact() {
        let fact = |n: usize| (1..=n).map(|i| i as f64).product::<f64>();
        for deg in 0..=4 {
            let q = TetQuadrature::exact_for_degree(deg).unwrap();
            for a in 0..=deg {
                for b in 0..=deg - a {
                    let c = deg - a - b;
                    let s: f64 = q
                        .points
                        .iter()
                        .zip(&q.weights)
                        .map(|(p, w)| {
                            w * p[0].powi(a as i32) * p[1].powi(b as i32) * p[2].powi(c as i32)
                        })
                        .sum();
                    let exact = fact(a) * fact(b) * fact(c) / fact(a + b + c + 3);
                    assert!((s - exact).abs() < 1e-15, "{a} {b} {c}");
                }
            }
        }
    }

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

    /// On a box mesh: mass matrices integrate to the volume; the P2 interpolant of a
    /// quadratic is exact, so the stiffness ∫∇u·∇u of u = x² + yz equals
    /// ∫ (4x² + z² + y²) over [0,1]³ = 4/3 + 2/3 = 2.
    #[test]
    fn space_mass_and_stiffness() {
        let m = Mesh3d::box_mesh([0.0; 3], [1.0; 3], [2, 2, 2]).unwrap();
        let s = Space3d::new(&m, Family3d::Cg(2), Shape3d::Scalar).unwrap();
        assert_eq!(s.n_dofs(), m.n_vertices() + m.n_edges());
        let M = bilinear3d(&s, &s, &[(0, Op3d::Value, 0, Op3d::Value, 1.0)]).unwrap();
        let one = vec![1.0; s.n_dofs()];
        let tot: f64 = phlex_core::sparse::bilinear(&one, &M, &one);
        assert!((tot - 1.0).abs() < 1e-13);
        let u = s.interpolate(&|x, o| o[0] = x[0] * x[0] + x[1] * x[2]);
        let terms: Vec<Term3d> = (0..3)
            .map(|d| (0, Op3d::D(d), 0, Op3d::D(d), 1.0))
            .collect();
        let K = bilinear3d(&s, &s, &terms).unwrap();
        let e = phlex_core::sparse::bilinear(&u, &K, &u);
        assert!((e - 2.0).abs() < 1e-12, "{e}");
        let d = Space3d::new(&m, Family3d::Dg(1), Shape3d::SymTensor).unwrap();
        assert_eq!(d.n_dofs(), 6 * 4 * m.n_cells());
        assert!(d.boundary_dofs(&["xmin"]).is_err());
        // xmin face of a 2×2×2 grid: 9 vertices + 16 edges (P2)
        assert_eq!(s.boundary_dofs(&["xmin"]).unwrap().len(), 9 + 16);
        assert!(Space3d::new(&m, Family3d::Cg(3), Shape3d::Scalar).is_err());
    }
}
