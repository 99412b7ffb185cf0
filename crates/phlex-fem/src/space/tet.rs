//! Global Lagrange spaces on tetrahedral meshes ([`crate::mesh::tet`]) for the 3D CG × DG
//! elasticity model (thesis 004 §9.3.1 eq. (9.34); summary §3.2 "3D/2D elasticity"):
//! [`Space3d`] is `CG_k` ($k = 1, 2$: vertices, then one DOF per edge) or `DG_k`
//! ($k = 0, 1, 2$), scalar / vector ($\mathbb R^3$) / symmetric tensor valued, DOF
//! `c · n_scalar + i` (component major); symmetric tensors in the order
//! $(xx, yy, zz, yz, xz, xy)$ with Frobenius weights $(1, 1, 1, 2, 2, 2)$.
use crate::element::tet::LagrangeTet;
use crate::error::{require_degree, Fem2dError};
use crate::mesh::tet::{Mesh3d, TetGeometry, LOCAL_EDGES};
use crate::space::lagrange::{LagrangeCell, LagrangeSpace};

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

/// The tetrahedron as a [`LagrangeCell`]: [`Mesh3d`], [`TetGeometry`], [`LagrangeTet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tetrahedron;

impl LagrangeCell for Tetrahedron {
    type Mesh = Mesh3d;
    type Geometry = TetGeometry;
    type Element = LagrangeTet;
    type Family = Family3d;
    type Shape = Shape3d;
    type Point = [f64; 3];
    fn n_comp(shape: Shape3d) -> usize {
        shape.n_comp()
    }
    fn n_cells(mesh: &Mesh3d) -> usize {
        mesh.n_cells()
    }
    fn n_local(element: &LagrangeTet) -> usize {
        element.n_local()
    }
    fn nodes(element: &LagrangeTet) -> Vec<[f64; 3]> {
        element.nodes()
    }
    fn geometry(mesh: &Mesh3d, t: usize) -> TetGeometry {
        TetGeometry::new(mesh, t)
    }
    fn map(g: &TetGeometry, xh: [f64; 3]) -> [f64; 3] {
        g.map(xh)
    }
}

/// A global Lagrange space on a tetrahedral mesh (module docs for the DOF numbering).
pub type Space3d = LagrangeSpace<Tetrahedron>;

impl LagrangeSpace<Tetrahedron> {
    /// The space of `family` and `shape` on `mesh`.
    pub fn new(mesh: &Mesh3d, family: Family3d, shape: Shape3d) -> Result<Self, Fem2dError> {
        if let Family3d::Cg(k) = family {
            require_degree("CG degree on tetrahedra", k, 1..=2)?;
        }
        let element = LagrangeTet::new(family.degree())?;
        let nl = element.n_local();
        let nc = mesh.n_cells();
        let (n_scalar, cell_dofs) = match family {
            Family3d::Dg(_) => Self::discontinuous_dofs(nc, nl),
            Family3d::Cg(k) => {
                let mut cell_dofs = vec![0usize; nc * nl];
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
                let n = if k == 2 { nv + mesh.n_edges() } else { nv };
                (n, cell_dofs)
            }
        };
        Ok(Self::from_parts(
            mesh, family, shape, element, n_scalar, cell_dofs,
        ))
    }
    /// Description, e.g. `"(CG2)^3"`.
    pub fn describe(&self) -> String {
        let f = match self.family() {
            Family3d::Cg(k) => format!("CG{k}"),
            Family3d::Dg(k) => format!("DG{k}"),
        };
        match self.shape() {
            Shape3d::Scalar => f,
            Shape3d::Vector => format!("({f})^3"),
            Shape3d::SymTensor => format!("({f})^3x3_sym"),
        }
    }
    /// Cell containing the physical point `x` and its reference coordinates (first match,
    /// barycentric tolerance $10^{-10}$); [`Fem2dError::PointOutside3d`] if none.
    pub fn locate(&self, x: [f64; 3]) -> Result<(usize, [f64; 3]), Fem2dError> {
        self.mesh().locate(x)
    }
    /// Values (`n_comp`) of the field with coefficients `u` at the physical point `x`.
    pub fn evaluate(&self, u: &[f64], x: [f64; 3]) -> Result<Vec<f64>, Fem2dError> {
        self.check_coefficients(u, || self.describe())?;
        let (t, xh) = self.locate(x)?;
        let nl = self.n_local();
        let (mut v, mut g) = (vec![0.0; nl], vec![[0.0; 3]; nl]);
        self.element().eval(xh, &mut v, &mut g);
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
        if let Family3d::Dg(_) = self.family() {
            return Err(Fem2dError::NotContinuous {
                space: self.describe(),
            });
        }
        let mut scalar = Vec::new();
        for tag in tags {
            for f in self.mesh().tagged_faces(tag)? {
                let d = self.cell_dofs(f.cell);
                for (v, &dv) in d[..4].iter().enumerate() {
                    if v != f.local {
                        scalar.push(dv);
                    }
                }
                if self.family().degree() == 2 {
                    for (e, [a, b]) in LOCAL_EDGES.iter().enumerate() {
                        if *a != f.local && *b != f.local {
                            scalar.push(d[4 + e]);
                        }
                    }
                }
            }
        }
        Ok(self.all_components(scalar))
    }
}
