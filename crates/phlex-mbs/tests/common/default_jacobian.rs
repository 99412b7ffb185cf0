//! A system seen through the trait's *default* right-hand-side Jacobian
//! $(J - R)\,\partial_x z$ ([`phlex_core::PhSystem::rhs_jacobian`]): everything else is
//! forwarded, so the midpoint step equations are the same and only the Newton matrix is the
//! approximate one (the derivatives of $J(x)$ and $B(x)$ neglected). Integrating the wrapped
//! and the plain system compares the approximate with the exact Newton matrix.
use phlex_core::sparse::SparseMat;
use phlex_core::{PhSystem, PortSet, VarBlock};

/// `S` with the default [`PhSystem::rhs_jacobian`] (constant descriptor only).
pub struct DefaultJacobian<'a, S: PhSystem>(pub &'a S);

impl<S: PhSystem> PhSystem for DefaultJacobian<'_, S> {
    fn n_states(&self) -> usize {
        self.0.n_states()
    }
    fn ports(&self) -> &PortSet {
        self.0.ports()
    }
    fn blocks(&self) -> &[VarBlock] {
        self.0.blocks()
    }
    fn hamiltonian(&self, x: &[f64]) -> f64 {
        self.0.hamiltonian(x)
    }
    fn effort(&self, x: &[f64], z: &mut [f64]) {
        self.0.effort(x, z)
    }
    fn descriptor(&self, x: &[f64]) -> SparseMat {
        self.0.descriptor(x)
    }
    fn structure(&self, x: &[f64]) -> SparseMat {
        self.0.structure(x)
    }
    fn input_map(&self, x: &[f64]) -> SparseMat {
        self.0.input_map(x)
    }
    fn effort_jacobian(&self, x: &[f64]) -> SparseMat {
        self.0.effort_jacobian(x)
    }
    fn discrete_gradient(&self, x0: &[f64], x1: &[f64], zbar: &mut [f64]) {
        self.0.discrete_gradient(x0, x1, zbar)
    }
    fn rhs_with_effort(&self, x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        self.0.rhs_with_effort(x, z, u, f)
    }
}
