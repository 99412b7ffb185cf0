//! Global Lagrange spaces on tetrahedral meshes ([`crate::mesh::tet`]) for the 3D CG × DG
//! elasticity model (thesis 004 §9.3.1 eq. (9.34); summary §3.2 "3D/2D elasticity"):
//! [`Space3d`] is `CG_k` ($k = 1, 2$: vertices, then one DOF per edge) or `DG_k`
//! ($k = 0, 1, 2$), scalar / vector ($\mathbb R^3$) / symmetric tensor valued, DOF
//! `c · n_scalar + i` (component major); symmetric tensors in the order
//! $(xx, yy, zz, yz, xz, xy)$ with Frobenius weights $(1, 1, 1, 2, 2, 2)$.
use crate::element::tet::LagrangeTet;
use crate::error::{require_degree, Fem2dError, FemError};
use crate::mesh::tet::{Mesh3d, TetGeometry, LOCAL_EDGES};

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
            require_degree("CG degree on tetrahedra", k, 1..=2)?;
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
        self.mesh.locate(x)
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
