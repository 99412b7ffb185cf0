//! Adapter of any [`PhSystem`] driven by inputs to the linearly implicit DAE interface
//! [`ImplicitDae`] of Radau IIA ([`crate::integrators::radau5`]; paper 000 §6.4:
//! "implicit Runge–Kutta method of the Radau IIA family"):
//! $$M\dot y = f(t, y),\qquad f = (J(y) - R(y))z(y) + B(y)u(t),$$
//! with the variables of algebraic blocks flagged with their DAE index (the multipliers of
//! velocity constraints: index 2) and the Jacobian [`PhSystem::rhs_jacobian`].
//!
//! * *Linear systems* ([`PhSystem::is_linear`]): $M = E$, $f = (J - R)y + Bu$ with $J - R$
//!   and $B$ evaluated once, and a constant Jacobian (Radau then reuses its
//!   factorizations).
//! * *State-dependent descriptor* (beams with full inertia, paper 000 App. F): Radau needs
//!   a constant $M$; the adapter uses the equivalent form $E_c\dot y = F(y)$ of
//!   [`PhSystem::constant_mass`] and [`PhSystem::to_constant_mass_rhs`] (for a body with
//!   full inertia: identity mass in its velocity rows and
//!   $F_v = M_{vv}(u_f)^{-1}(f_v - \partial_{u_f}\pi_v\,v_f)$; the multipliers keep index 2
//!   since $G M_{vv}^{-1} G^\top$ is regular). The Jacobian is then approximate
//!   ([`PhSystem::to_constant_mass_jacobian`]), which only affects the convergence rate of
//!   the simplified Newton iterations.
use phlex_core::sparse::{self, SparseMat};
use phlex_core::system::PhSystem;

use crate::integrators::run::check_input;
use crate::problem::ImplicitDae;
use crate::signal::InputFn;
use crate::SolveError;

/// A [`PhSystem`] driven by the input $u(t)$, as an [`ImplicitDae`] (see the module
/// documentation).
#[derive(Debug, Clone)]
pub struct PhDae<'a, S: PhSystem + ?Sized> {
    sys: &'a S,
    input: InputFn,
    /// The constant mass matrix $M$.
    E: SparseMat,
    indices: Vec<u8>,
    /// $J - R$ and $B$ of a linear system.
    linear: Option<(SparseMat, SparseMat)>,
}

impl<'a, S: PhSystem + ?Sized> PhDae<'a, S> {
    /// Wraps `sys` with the input $u(t)$ (dimension = total port dimension).
    pub fn new(sys: &'a S, input: InputFn) -> Result<Self, SolveError> {
        check_input(sys.ports(), sys.n_inputs(), &input)?;
        let (E, linear) = if sys.is_linear() {
            let x = vec![0.0; sys.n_states()];
            let A = sparse::add(1.0, &sys.structure(&x), -1.0, &sys.dissipation(&x));
            (sys.descriptor(&x), Some((A, sys.input_map(&x))))
        } else {
            (sys.constant_mass(), None)
        };
        Ok(Self {
            E,
            indices: phlex_core::variables::variable_indices(sys.blocks()),
            linear,
            sys,
            input,
        })
    }

    /// The wrapped system.
    pub fn system(&self) -> &S {
        self.sys
    }

    /// The input $u(t)$.
    pub fn input(&self) -> &InputFn {
        &self.input
    }
}

impl<S: PhSystem + ?Sized> ImplicitDae for PhDae<'_, S> {
    fn dim(&self) -> usize {
        self.sys.n_states()
    }
    fn mass(&self) -> &SparseMat {
        &self.E
    }
    fn rhs(&self, t: f64, y: &[f64], f: &mut [f64]) {
        if let Some((A, B)) = &self.linear {
            f.iter_mut().for_each(|v| *v = 0.0);
            sparse::mul_add(f, 1.0, A, y);
            if !self.input.is_zero() {
                let u = self.input.eval(t);
                sparse::mul_add(f, 1.0, B, &u);
            }
            return;
        }
        let u = self.input.eval(t);
        let mut z = vec![0.0; y.len()];
        self.sys.effort(y, &mut z);
        self.sys.rhs_with_effort(y, &z, &u, f);
        self.sys.to_constant_mass_rhs(y, f);
    }
    fn jacobian(&self, t: f64, y: &[f64]) -> SparseMat {
        if let Some((A, _)) = &self.linear {
            return A.clone();
        }
        let u = self.input.eval(t);
        let jac = self.sys.rhs_jacobian(y, &u);
        if !self.sys.state_dependent_descriptor() {
            return jac;
        }
        let mut z = vec![0.0; y.len()];
        self.sys.effort(y, &mut z);
        let mut f = vec![0.0; y.len()];
        self.sys.rhs_with_effort(y, &z, &u, &mut f);
        self.sys.to_constant_mass_jacobian(y, &f, jac)
    }
    fn jacobian_is_constant(&self) -> bool {
        self.linear.is_some()
    }
    fn variable_indices(&self) -> Vec<u8> {
        self.indices.clone()
    }
    fn breakpoints(&self) -> Vec<f64> {
        self.input.breakpoints()
    }
}
