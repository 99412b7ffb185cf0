//! Global Lagrange spaces on triangle meshes: `CG_k` ($k = 1..3$) and `DG_k`
//! ($k = 0..2$; up to 3 is accepted), scalar, vector ($\mathbb R^2$) and symmetric-tensor
//! ($\mathbb S$, 3 components) valued (thesis 004 §7.1, summary §3.3 CGDG, §6.1 item 2).
//!
//! DOF numbering (field-blocked, summary §6.2 "DOF ordering"):
//! * a global DOF is `c · n_scalar + i`, component `c` major; vector components are
//!   $(x, y)$, symmetric tensor components $(A_{xx}, A_{xy}, A_{yy})$;
//! * `CG_k` scalar DOFs: vertices first (`0..n_v`), then $k-1$ per edge
//!   (`n_v + e(k−1) + j`, ordered from the edge's lower global vertex to the higher one, so
//!   both triangles sharing the edge agree), then interior DOFs per cell;
//! * `DG_k`: cell `t`, local `j` ↦ `t · n_local + j`.
//!
//! The Frobenius product of symmetric tensors stored as 3 components counts the
//! off-diagonal twice, $A:B = a_0b_0 + 2a_1b_1 + a_2b_2$ ([`Shape::frobenius_weights`],
//! summary §6.2 pitfall).
use crate::element::triangle::LagrangeP;
use crate::error::Fem2dError;
use crate::error::FemError;
use crate::mesh::triangle::{CellGeometry, Mesh2d};
use crate::space::lagrange::{LagrangeCell, LagrangeSpace};

/// Element family of a 2D Lagrange space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family2d {
    /// Continuous $P_k$, $1 \le k \le 3$.
    Cg(usize),
    /// Discontinuous $P_k$, $0 \le k \le 3$.
    Dg(usize),
}

impl Family2d {
    /// Polynomial degree.
    pub fn degree(&self) -> usize {
        match *self {
            Family2d::Cg(k) | Family2d::Dg(k) => k,
        }
    }
    /// Name, e.g. `"CG2"`.
    pub fn name(&self) -> String {
        match *self {
            Family2d::Cg(k) => format!("CG{k}"),
            Family2d::Dg(k) => format!("DG{k}"),
        }
    }
}

/// Value shape of a space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Scalar field.
    Scalar,
    /// Vector field $(u_x, u_y)$.
    Vector,
    /// Symmetric tensor $(A_{xx}, A_{xy}, A_{yy})$.
    SymTensor,
}

impl Shape {
    /// Number of stored components (1, 2, 3).
    pub fn n_comp(&self) -> usize {
        match self {
            Shape::Scalar => 1,
            Shape::Vector => 2,
            Shape::SymTensor => 3,
        }
    }
    /// Weights $w_c$ of the inner product $\sum_c w_c a_c b_c$ equal to the Euclidean /
    /// Frobenius product: `[1]`, `[1, 1]`, `[1, 2, 1]`.
    pub fn frobenius_weights(&self) -> &'static [f64] {
        match self {
            Shape::Scalar => &[1.0],
            Shape::Vector => &[1.0, 1.0],
            Shape::SymTensor => &[1.0, 2.0, 1.0],
        }
    }
}

/// The triangle as a [`LagrangeCell`]: [`Mesh2d`], [`CellGeometry`], [`LagrangeP`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Triangle;

impl LagrangeCell for Triangle {
    type Mesh = Mesh2d;
    type Geometry = CellGeometry;
    type Element = LagrangeP;
    type Family = Family2d;
    type Shape = Shape;
    type Point = [f64; 2];
    fn n_comp(shape: Shape) -> usize {
        shape.n_comp()
    }
    fn n_cells(mesh: &Mesh2d) -> usize {
        mesh.n_cells()
    }
    fn n_local(element: &LagrangeP) -> usize {
        element.n_local()
    }
    fn nodes(element: &LagrangeP) -> Vec<[f64; 2]> {
        element.nodes().to_vec()
    }
    fn geometry(mesh: &Mesh2d, t: usize) -> CellGeometry {
        CellGeometry::new(mesh, t)
    }
    fn map(g: &CellGeometry, xh: [f64; 2]) -> [f64; 2] {
        g.map(xh)
    }
}

/// A global Lagrange space on a triangle mesh (module docs for the DOF numbering).
pub type Space2d = LagrangeSpace<Triangle>;

impl LagrangeSpace<Triangle> {
    /// The space of `family` and `shape` on `mesh`.
    pub fn new(mesh: &Mesh2d, family: Family2d, shape: Shape) -> Result<Self, Fem2dError> {
        if let Family2d::Cg(0) = family {
            return Err(FemError::UnsupportedDegree {
                what: "CG degree on triangles".into(),
                degree: 0,
                supported: "1..=3".into(),
            }
            .into());
        }
        let element = LagrangeP::new(family.degree())?;
        let nl = element.n_local();
        let nc = mesh.n_cells();
        let (n_scalar, cell_dofs) = match family {
            Family2d::Dg(_) => Self::discontinuous_dofs(nc, nl),
            Family2d::Cg(_) => {
                let mut cell_dofs = vec![0usize; nc * nl];
                let nv = mesh.n_vertices();
                let ne = element.nodes_per_edge();
                let ni = element.interior_nodes();
                let int0 = nv + mesh.n_edges() * ne;
                for t in 0..nc {
                    let tri = mesh.triangles()[t];
                    let edges = mesh.cell_edges(t);
                    let d = &mut cell_dofs[t * nl..(t + 1) * nl];
                    d[..3].copy_from_slice(&tri);
                    for i in 0..3 {
                        let (a, b) = (tri[(i + 1) % 3], tri[(i + 2) % 3]);
                        let base = nv + edges[i] * ne;
                        for j in 0..ne {
                            // local nodes run a → b; global ones from the lower vertex
                            let g = if a < b { j } else { ne - 1 - j };
                            d[3 + i * ne + j] = base + g;
                        }
                    }
                    for j in 0..ni {
                        d[3 + 3 * ne + j] = int0 + t * ni + j;
                    }
                }
                (int0 + nc * ni, cell_dofs)
            }
        };
        Ok(Self::from_parts(
            mesh, family, shape, element, n_scalar, cell_dofs,
        ))
    }

    /// Description, e.g. `"(CG1)^2"`.
    pub fn describe(&self) -> String {
        let f = self.family().name();
        match self.shape() {
            Shape::Scalar => f,
            Shape::Vector => format!("({f})^2"),
            Shape::SymTensor => format!("({f})^2x2_sym"),
        }
    }

    /// The cell containing `x` (first found, tolerance `1e-12` in barycentric coordinates)
    /// and the reference coordinates of `x` in it.
    pub fn locate(&self, x: [f64; 2]) -> Result<(usize, [f64; 2]), Fem2dError> {
        self.mesh().locate(x)
    }

    /// Values (`n_comp`) and physical gradients (`n_comp` × $[\partial_x, \partial_y]$) of
    /// the field with coefficients `u` at `x`.
    pub fn evaluate(
        &self,
        u: &[f64],
        x: [f64; 2],
    ) -> Result<(Vec<f64>, Vec<[f64; 2]>), Fem2dError> {
        self.check_coefficients(u, || self.describe())?;
        let (t, xh) = self.locate(x)?;
        let g = CellGeometry::new(self.mesh(), t);
        let nl = self.n_local();
        let (mut v, mut dx, mut dy) = (vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
        self.element().eval(xh, &mut v, &mut dx, &mut dy);
        let mut val = vec![0.0; self.n_comp()];
        let mut grad = vec![[0.0; 2]; self.n_comp()];
        for (j, &i) in self.cell_dofs(t).iter().enumerate() {
            let gr = g.grad(dx[j], dy[j]);
            for c in 0..self.n_comp() {
                let a = u[self.global(c, i)];
                val[c] += a * v[j];
                grad[c][0] += a * gr[0];
                grad[c][1] += a * gr[1];
            }
        }
        Ok((val, grad))
    }

    /// All global DOFs (every component) whose basis functions do not vanish on the
    /// boundary edges tagged `tags`: the vertex and edge DOFs of those edges. Sorted.
    /// Only for `CG` spaces (strong Dirichlet conditions by DOF removal).
    pub fn boundary_dofs(&self, tags: &[&str]) -> Result<Vec<usize>, Fem2dError> {
        if let Family2d::Dg(_) = self.family() {
            return Err(Fem2dError::NotContinuous {
                space: self.describe(),
            });
        }
        let ne = self.element().nodes_per_edge();
        let mut scalar = Vec::new();
        for tag in tags {
            for b in self.mesh().tagged_edges(tag)? {
                let d = self.cell_dofs(b.cell);
                scalar.push(d[(b.local + 1) % 3]);
                scalar.push(d[(b.local + 2) % 3]);
                scalar.extend_from_slice(&d[3 + b.local * ne..3 + (b.local + 1) * ne]);
            }
        }
        Ok(self.all_components(scalar))
    }
}

/// Indices `0..n` not in the sorted list `removed`.
pub fn complement(n: usize, removed: &[usize]) -> Vec<usize> {
    let mut keep = Vec::with_capacity(n.saturating_sub(removed.len()));
    let mut r = removed.iter().peekable();
    for i in 0..n {
        if r.peek() == Some(&&i) {
            r.next();
        } else {
            keep.push(i);
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::triangle::Diagonal;

    #[test]
    fn dof_counts() {
        let m = Mesh2d::unit_square(3, Diagonal::Right).unwrap();
        let (nv, ne, nc) = (m.n_vertices(), m.n_edges(), m.n_cells());
        for (fam, n) in [
            (Family2d::Cg(1), nv),
            (Family2d::Cg(2), nv + ne),
            (Family2d::Cg(3), nv + 2 * ne + nc),
            (Family2d::Dg(0), nc),
            (Family2d::Dg(1), 3 * nc),
            (Family2d::Dg(2), 6 * nc),
        ] {
            let s = Space2d::new(&m, fam, Shape::Scalar).unwrap();
            assert_eq!(s.n_dofs(), n, "{fam:?}");
            let v = Space2d::new(&m, fam, Shape::SymTensor).unwrap();
            assert_eq!(v.n_dofs(), 3 * n);
        }
        assert!(Space2d::new(&m, Family2d::Cg(0), Shape::Scalar).is_err());
        assert!(Space2d::new(&m, Family2d::Cg(4), Shape::Scalar).is_err());
    }

    /// Interpolation of a polynomial of degree k is exact everywhere (also across
    /// cells), which needs consistent edge DOF orientation for CG3.
    #[test]
    fn cg_interpolation_exact_and_continuous() {
        for diag in [Diagonal::Right, Diagonal::Left] {
            let m = Mesh2d::rectangle(0.0, 1.5, 0.0, 1.0, 3, 2, diag).unwrap();
            for k in 1..=3 {
                let s = Space2d::new(&m, Family2d::Cg(k), Shape::Vector).unwrap();
                let f = move |x: [f64; 2], out: &mut [f64]| {
                    out[0] = x[0].powi(k as i32) - 2.0 * x[1] + 0.5;
                    out[1] = x[0] * x[1].powi(k as i32 - 1);
                };
                let u = s.interpolate(&f);
                for p in [[0.1, 0.2], [0.5, 0.5], [1.49, 0.01], [0.77, 0.93]] {
                    let (v, g) = s.evaluate(&u, p).unwrap();
                    let mut e = [0.0; 2];
                    f(p, &mut e);
                    assert!((v[0] - e[0]).abs() < 1e-12 && (v[1] - e[1]).abs() < 1e-12);
                    let gx = k as f64 * p[0].powi(k as i32 - 1);
                    assert!((g[0][0] - gx).abs() < 1e-10 && (g[0][1] + 2.0).abs() < 1e-10);
                }
                // every edge DOF shared by two cells is evaluated identically from both
                // (global numbering): interpolation of a non-polynomial is continuous
                let h = |x: [f64; 2], o: &mut [f64]| {
                    o[0] = (3.0 * x[0]).sin() * x[1].exp();
                    o[1] = 0.0;
                };
                let u = s.interpolate(&h);
                for e in 0..m.n_edges() {
                    if let (c0, Some(c1)) = m.edge_cells(e) {
                        let mid = m.edge_midpoint(e);
                        let v0 = eval_in_cell(&s, &u, c0, mid);
                        let v1 = eval_in_cell(&s, &u, c1, mid);
                        assert!((v0 - v1).abs() < 1e-12, "k={k} edge {e}");
                    }
                }
            }
        }
    }

    fn eval_in_cell(s: &Space2d, u: &[f64], t: usize, x: [f64; 2]) -> f64 {
        let g = CellGeometry::new(s.mesh(), t);
        let nl = s.n_local();
        let (mut v, mut dx, mut dy) = (vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
        s.element().eval(g.inverse_map(x), &mut v, &mut dx, &mut dy);
        s.cell_dofs(t)
            .iter()
            .enumerate()
            .map(|(j, &i)| u[i] * v[j])
            .sum()
    }

    #[test]
    fn boundary_dofs_of_tags() {
        let m = Mesh2d::unit_square(4, Diagonal::Left).unwrap();
        let s = Space2d::new(&m, Family2d::Cg(2), Shape::Scalar).unwrap();
        // left edge: 5 vertices + 4 edge midpoints
        assert_eq!(s.boundary_dofs(&["left"]).unwrap().len(), 9);
        let all = s
            .boundary_dofs(&["left", "right", "bottom", "top"])
            .unwrap();
        assert_eq!(all.len(), 32); // 16 vertices + 16 edges on the boundary
        let v = Space2d::new(&m, Family2d::Cg(3), Shape::Vector).unwrap();
        assert_eq!(v.boundary_dofs(&["top"]).unwrap().len(), 2 * (5 + 8));
        let d = Space2d::new(&m, Family2d::Dg(1), Shape::Scalar).unwrap();
        assert!(matches!(
            d.boundary_dofs(&["top"]),
            Err(Fem2dError::NotContinuous { .. })
        ));
        assert!(matches!(
            s.boundary_dofs(&["clamped"]),
            Err(Fem2dError::UnknownTag { .. })
        ));
        assert_eq!(complement(5, &[1, 3]), vec![0, 2, 4]);
    }
}
