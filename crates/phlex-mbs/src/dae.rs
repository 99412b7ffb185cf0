//! Adapter of an assembled multibody system — planar [`Multibody`] or spatial
//! [`crate::spatial::Multibody3d`], any [`Mechanism`] — to the linearly implicit DAE
//! interface of the Radau IIA integrator ([`phlex_solve::ImplicitDae`], paper 000 §6.4:
//! "implicit Runge–Kutta method of the Radau IIA family"):
//! $$M\dot y = f(t, y),\qquad M = E \text{ (constant)},\qquad f = J(y)z(y) + B(y)u(t),$$
//! with the multipliers flagged as index-2 variables (from the algebraic variable blocks)
//! and the Jacobian from [`Mechanism::rhs_jacobian`].
//!
//! *State-dependent descriptor* (beams with full inertia, planar
//! [`crate::planar_body::full_inertia`] and spatial
//! [`crate::spatial_body_core::full_inertia_3d`]): Radau needs a constant $M$; the adapter uses the
//! equivalent form $E_c\dot y = F(y)$ of [`Mechanism::constant_mass`] and
//! [`Mechanism::to_constant_mass_rhs`] (for a body with full inertia: identity mass in
//! its velocity rows and $F_v = M_{vv}(u_f)^{-1}(f_v - \partial_{u_f}\pi_v\,v_f)$; the
//! multipliers keep index 2 since $G M_{vv}^{-1} G^\top$ is regular).
//! The Jacobian is then approximate ([`Mechanism::to_constant_mass_jacobian`]), which only
//! affects the convergence rate of the simplified Newton iterations.
use phlex_core::sparse::SparseMat;
use phlex_solve::{ImplicitDae, InputFn};

use crate::assembly::Multibody;
use crate::error::MbsError;
use crate::mechanism::Mechanism;

/// A multibody system driven by inputs, as an [`ImplicitDae`] (see the module
/// documentation for state-dependent descriptors).
#[derive(Debug, Clone)]
pub struct MultibodyDae<'a, S: Mechanism + ?Sized = Multibody> {
    mb: &'a S,
    input: InputFn,
    E: SparseMat,
    indices: Vec<u8>,
}

impl<'a, S: Mechanism + ?Sized> MultibodyDae<'a, S> {
    /// Wraps `mb` with the input $u(t)$ (dimension = total port dimension).
    pub fn new(mb: &'a S, input: InputFn) -> Result<Self, MbsError> {
        let m = mb.ports().total_dim();
        if input.dim() != m {
            return Err(MbsError::Dimension {
                what: format!(
                    "input of the multibody system (ports: {})",
                    mb.ports().names().join(", ")
                ),
                expected: m,
                found: input.dim(),
            });
        }
        Ok(Self {
            E: mb.constant_mass(),
            indices: phlex_core::variables::variable_indices(mb.blocks()),
            mb,
            input,
        })
    }

    /// The wrapped system.
    pub fn system(&self) -> &S {
        self.mb
    }
}

impl<S: Mechanism + ?Sized> ImplicitDae for MultibodyDae<'_, S> {
    fn dim(&self) -> usize {
        self.mb.n_states()
    }
    fn mass(&self) -> &SparseMat {
        &self.E
    }
    fn rhs(&self, t: f64, y: &[f64], f: &mut [f64]) {
        let u = self.input.eval(t);
        let mut z = vec![0.0; y.len()];
        self.mb.effort(y, &mut z);
        self.mb.rhs_with_effort(y, &z, &u, f);
        self.mb.to_constant_mass_rhs(y, f);
    }
    fn jacobian(&self, t: f64, y: &[f64]) -> SparseMat {
        let u = self.input.eval(t);
        let jac = self.mb.rhs_jacobian(y, &u);
        if !self.mb.state_dependent_descriptor() {
            return jac;
        }
        let mut z = vec![0.0; y.len()];
        self.mb.effort(y, &mut z);
        let mut f = vec![0.0; y.len()];
        self.mb.rhs_with_effort(y, &z, &u, &mut f);
        self.mb.to_constant_mass_jacobian(y, &f, jac)
    }
    fn variable_indices(&self) -> Vec<u8> {
        self.indices.clone()
    }
    fn breakpoints(&self) -> Vec<f64> {
        self.input.breakpoints()
    }
}
