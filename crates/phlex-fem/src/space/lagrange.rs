//! The Lagrange space written once over the cell: [`LagrangeSpace`] holds the mesh, the
//! family, the value shape, the reference element and the cell-to-DOF numbering shared by
//! the triangle spaces ([`super::triangle`], [`Space2d`](super::Space2d)) and the
//! tetrahedral ones ([`super::tet`], [`Space3d`](super::Space3d)) (thesis 004 §7.1;
//! summary §6.2 "DOF ordering"): a global DOF is `c · n_scalar + i` (component `c` major),
//! the scalar DOFs of cell `t` are `cell_dofs(t)`, `DG_k` numbers them cell by cell
//! (`t · n_local + j`). The `CG_k` numbering (vertices, edges, interiors), the evaluation
//! and the boundary DOFs stay with the cell.
use crate::error::{Fem2dError, FemError};
use std::fmt;

/// A reference cell with its mesh, geometry and Lagrange element: what
/// [`LagrangeSpace`] needs from a dimension. Implemented by [`super::triangle::Triangle`] and
/// [`super::tet::Tetrahedron`].
pub trait LagrangeCell: fmt::Debug + Clone + PartialEq {
    /// The mesh type.
    type Mesh: fmt::Debug + Clone + PartialEq;
    /// The affine map of one cell.
    type Geometry;
    /// The reference Lagrange element.
    type Element: fmt::Debug + Clone + PartialEq;
    /// The element family (CG / DG and degree).
    type Family: fmt::Debug + Copy + PartialEq;
    /// The value shape (scalar, vector, symmetric tensor).
    type Shape: fmt::Debug + Copy + PartialEq;
    /// A point, `[f64; d]`.
    type Point: Copy;
    /// Number of stored components of `shape`.
    fn n_comp(shape: Self::Shape) -> usize;
    /// Number of cells of `mesh`.
    fn n_cells(mesh: &Self::Mesh) -> usize;
    /// Local scalar basis functions of `element`.
    fn n_local(element: &Self::Element) -> usize;
    /// Reference nodes of `element` (local order).
    fn nodes(element: &Self::Element) -> Vec<Self::Point>;
    /// Affine map of cell `t`.
    fn geometry(mesh: &Self::Mesh, t: usize) -> Self::Geometry;
    /// The physical point of reference point `xh` under `g`.
    fn map(g: &Self::Geometry, xh: Self::Point) -> Self::Point;
}

/// A global Lagrange space on the cells `C` (module docs for the DOF numbering).
#[derive(Debug, Clone, PartialEq)]
pub struct LagrangeSpace<C: LagrangeCell> {
    mesh: C::Mesh,
    family: C::Family,
    shape: C::Shape,
    element: C::Element,
    n_scalar: usize,
    /// Scalar global DOFs of each cell, `cell_dofs[t * n_local + j]`.
    cell_dofs: Vec<usize>,
}

impl<C: LagrangeCell> LagrangeSpace<C> {
    /// The space from its parts: `n_scalar` DOFs per component and the scalar global DOFs
    /// `cell_dofs[t * n_local + j]` of every cell.
    pub(crate) fn from_parts(
        mesh: &C::Mesh,
        family: C::Family,
        shape: C::Shape,
        element: C::Element,
        n_scalar: usize,
        cell_dofs: Vec<usize>,
    ) -> Self {
        Self {
            mesh: mesh.clone(),
            family,
            shape,
            element,
            n_scalar,
            cell_dofs,
        }
    }
    /// The discontinuous numbering of `n_cells` cells of `n_local` DOFs: cell `t`, local
    /// `j` ↦ `t · n_local + j`; returns (`n_scalar`, `cell_dofs`).
    pub(crate) fn discontinuous_dofs(n_cells: usize, n_local: usize) -> (usize, Vec<usize>) {
        (n_cells * n_local, (0..n_cells * n_local).collect())
    }
    /// The mesh.
    pub fn mesh(&self) -> &C::Mesh {
        &self.mesh
    }
    /// Element family.
    pub fn family(&self) -> C::Family {
        self.family
    }
    /// Value shape.
    pub fn shape(&self) -> C::Shape {
        self.shape
    }
    /// Reference element.
    pub fn element(&self) -> &C::Element {
        &self.element
    }
    /// Number of components.
    pub fn n_comp(&self) -> usize {
        C::n_comp(self.shape)
    }
    /// Scalar DOFs per component.
    pub fn n_scalar_dofs(&self) -> usize {
        self.n_scalar
    }
    /// Total number of DOFs (`n_comp · n_scalar`).
    pub fn n_dofs(&self) -> usize {
        self.n_comp() * self.n_scalar
    }
    /// Local scalar basis functions per cell.
    pub fn n_local(&self) -> usize {
        C::n_local(&self.element)
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
    /// Checks that `u` holds one coefficient per DOF; the error names the space by
    /// `describe` (called only on error).
    pub(crate) fn check_coefficients(
        &self,
        u: &[f64],
        describe: impl FnOnce() -> String,
    ) -> Result<(), Fem2dError> {
        if u.len() != self.n_dofs() {
            return Err(FemError::Length {
                what: format!("{} coefficient vector", describe()),
                expected: self.n_dofs(),
                found: u.len(),
            }
            .into());
        }
        Ok(())
    }
    /// Nodal interpolant of `f` (which writes the `n_comp` components at a point).
    pub fn interpolate(&self, f: &dyn Fn(C::Point, &mut [f64])) -> Vec<f64> {
        let mut u = vec![0.0; self.n_dofs()];
        let mut val = vec![0.0; self.n_comp()];
        let nodes = C::nodes(&self.element);
        for t in 0..C::n_cells(&self.mesh) {
            let g = C::geometry(&self.mesh, t);
            for (j, xh) in nodes.iter().enumerate() {
                f(C::map(&g, *xh), &mut val);
                let i = self.cell_dofs(t)[j];
                for (c, v) in val.iter().enumerate() {
                    u[self.global(c, i)] = *v;
                }
            }
        }
        u
    }
    /// The global DOFs of every component of the scalar DOFs `scalar` (sorted and
    /// deduplicated first), component major.
    pub(crate) fn all_components(&self, mut scalar: Vec<usize>) -> Vec<usize> {
        scalar.sort_unstable();
        scalar.dedup();
        let mut out = Vec::with_capacity(scalar.len() * self.n_comp());
        for c in 0..self.n_comp() {
            out.extend(scalar.iter().map(|&i| self.global(c, i)));
        }
        out
    }
}
