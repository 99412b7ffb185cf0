//! Global finite element spaces on a 1D mesh: DOF maps, evaluation, boundary DOFs.
//!
//! DOF numbering is sequential along the mesh (banded matrices):
//! * `CG_k`: element `e`, local node `j` ↦ `e·k + j` (`n_dofs = n_el·k + 1`);
//! * `DG_k`: element `e`, local `j` ↦ `e·(k+1) + j` (`n_dofs = n_el·(k+1)`);
//! * Hermite: node `i` carries `2i` (value) and `2i + 1` (slope $\partial_x w$);
//!   element `e` ↦ `[2e, 2e+1, 2e+2, 2e+3]` (`n_dofs = 2(n_el + 1)`).
use crate::element::line::{Family, ReferenceElement};
use crate::error::FemError;
use crate::mesh::interval::End;
use crate::mesh::interval::Mesh1d;
use crate::space::functional::SparseVec;

/// A global finite element space on a mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct Space1d {
    mesh: Mesh1d,
    element: ReferenceElement,
    n_dofs: usize,
}

impl Space1d {
    /// Builds the space of `family` on `mesh`.
    pub fn new(mesh: &Mesh1d, family: Family) -> Result<Self, FemError> {
        let element = ReferenceElement::new(family)?;
        let n = mesh.n_elements();
        let n_dofs = match family {
            Family::Cg(k) => n * k + 1,
            Family::Dg(k) => n * (k + 1),
            Family::Hermite => 2 * (n + 1),
        };
        Ok(Self {
            mesh: mesh.clone(),
            element,
            n_dofs,
        })
    }

    /// The mesh.
    pub fn mesh(&self) -> &Mesh1d {
        &self.mesh
    }

    /// The element family.
    pub fn family(&self) -> Family {
        self.element.family()
    }

    /// The reference element.
    pub fn element(&self) -> &ReferenceElement {
        &self.element
    }

    /// Number of global DOFs.
    pub fn n_dofs(&self) -> usize {
        self.n_dofs
    }

    /// Number of local DOFs per element.
    pub fn n_local(&self) -> usize {
        self.element.n_local()
    }

    /// Global index of local DOF `j` of element `e`.
    #[inline]
    pub fn dof(&self, e: usize, j: usize) -> usize {
        match self.family() {
            Family::Cg(k) => e * k + j,
            Family::Dg(k) => e * (k + 1) + j,
            Family::Hermite => 2 * e + j,
        }
    }

    /// Physical derivatives of order `deriv` of the local basis of element `e` at reference
    /// point `xi`, into `out` (length `n_local`).
    #[inline]
    pub fn eval_local(&self, e: usize, xi: f64, deriv: usize, out: &mut [f64]) {
        self.element.eval(xi, self.mesh.h(e), deriv, out);
    }

    /// The functional $c$ with $c \cdot u = \partial_x^{d} u_h(x)$ for coefficients `u`
    /// (at interior nodes, the element to the right is used; see [`Mesh1d::locate`]).
    pub fn point_functional(&self, x: f64, deriv: usize) -> Result<SparseVec, FemError> {
        let (e, xi) = self.mesh.locate(x)?;
        let mut v = vec![0.0; self.n_local()];
        self.eval_local(e, xi, deriv, &mut v);
        let entries = v
            .iter()
            .enumerate()
            .filter(|p| *p.1 != 0.0)
            .map(|(j, &val)| (self.dof(e, j), val))
            .collect();
        Ok(SparseVec {
            len: self.n_dofs,
            entries,
        })
    }

    /// $\partial_x^{d} u_h(x)$ for coefficient vector `u`.
    pub fn evaluate(&self, u: &[f64], x: f64, deriv: usize) -> Result<f64, FemError> {
        if u.len() != self.n_dofs {
            return Err(FemError::Length {
                what: format!("{} coefficient vector", self.family().name()),
                expected: self.n_dofs,
                found: u.len(),
            });
        }
        Ok(self.point_functional(x, deriv)?.dot(u))
    }

    /// The trace functional at an end (value `deriv = 0` or slope `deriv = 1`).
    ///
    /// Entries below `1e-13` times the largest one are round-off of exact zeros (nodal
    /// Lagrange functions evaluated at $\xi = 1$) and are dropped, so that the value trace
    /// of CG/Hermite spaces is exactly one DOF.
    pub fn end_functional(&self, end: End, deriv: usize) -> SparseVec {
        let x = match end {
            End::Left => self.mesh.a(),
            End::Right => self.mesh.b(),
        };
        let mut f = self
            .point_functional(x, deriv)
            .expect("mesh ends lie in the mesh");
        let max = f.entries.iter().fold(0.0f64, |m, p| m.max(p.1.abs()));
        f.entries.retain(|p| p.1.abs() > 1e-13 * max);
        f
    }

    /// The single global DOF whose basis function carries the trace of order `deriv` at
    /// `end` while all other basis functions have zero trace there (CG value DOF,
    /// Hermite value or slope DOF); `None` if the trace involves several DOFs.
    pub fn end_dof(&self, end: End, deriv: usize) -> Option<usize> {
        let f = self.end_functional(end, deriv).compressed();
        match f.entries.as_slice() {
            [(i, v)] if (v - 1.0).abs() < 1e-12 => Some(*i),
            _ => None,
        }
    }

    /// The single DOF carrying the value trace at `end`; an error names the end and the
    /// field `what` (e.g. `"temperature"`) when the trace is not one DOF.
    pub fn trace_dof(&self, end: End, what: &str) -> Result<usize, FemError> {
        self.end_dof(end, 0)
            .ok_or_else(|| FemError::BoundaryCondition {
                end: end.name().into(),
                component: what.into(),
                reason: format!("the {what} trace is not a single DOF"),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dof_counts_and_end_dofs() {
        let m = Mesh1d::uniform(1.0, 4).unwrap();
        let cg2 = Space1d::new(&m, Family::Cg(2)).unwrap();
        assert_eq!(cg2.n_dofs(), 9);
        let cg3 = Space1d::new(&m, Family::Cg(3)).unwrap();
        assert_eq!(cg3.end_dof(End::Right, 0), Some(12));
        assert_eq!(cg3.end_functional(End::Right, 0).entries.len(), 1);
        assert_eq!(cg2.end_dof(End::Left, 0), Some(0));
        assert_eq!(cg2.end_dof(End::Right, 0), Some(8));
        assert_eq!(cg2.end_dof(End::Right, 1), None);
        let dg1 = Space1d::new(&m, Family::Dg(1)).unwrap();
        assert_eq!(dg1.n_dofs(), 8);
        assert_eq!(dg1.end_dof(End::Right, 0), Some(7));
        let her = Space1d::new(&m, Family::Hermite).unwrap();
        assert_eq!(her.n_dofs(), 10);
        assert_eq!(her.end_dof(End::Left, 0), Some(0));
        assert_eq!(her.end_dof(End::Left, 1), Some(1));
        assert_eq!(her.end_dof(End::Right, 0), Some(8));
        assert_eq!(her.end_dof(End::Right, 1), Some(9));
        let dg0 = Space1d::new(&m, Family::Dg(0)).unwrap();
        assert_eq!(dg0.n_dofs(), 4);
    }

    /// Hermite interpolation of a cubic is exact on a non-uniform mesh (global C¹ DOFs).
    #[test]
    fn hermite_global_interpolation_of_cubic() {
        let m = Mesh1d::from_nodes(vec![0.0, 0.1, 0.45, 0.5, 1.0]).unwrap();
        let s = Space1d::new(&m, Family::Hermite).unwrap();
        let f = |x: f64| 2.0 - x + 3.0 * x * x - 4.0 * x.powi(3);
        let df = |x: f64| -1.0 + 6.0 * x - 12.0 * x * x;
        let d2f = |x: f64| 6.0 - 24.0 * x;
        let mut u = vec![0.0; s.n_dofs()];
        for (i, &x) in m.nodes().iter().enumerate() {
            u[2 * i] = f(x);
            u[2 * i + 1] = df(x);
        }
        for x in [0.0, 0.05, 0.3, 0.45, 0.47, 0.99, 1.0] {
            assert!((s.evaluate(&u, x, 0).unwrap() - f(x)).abs() < 1e-13);
            assert!((s.evaluate(&u, x, 1).unwrap() - df(x)).abs() < 1e-12);
            assert!((s.evaluate(&u, x, 2).unwrap() - d2f(x)).abs() < 1e-10);
        }
        assert!(s.evaluate(&u, 1.5, 0).is_err());
        assert!(s.evaluate(&u[1..], 0.5, 0).is_err());
    }
}
