//! Adapter of an assembled [`Multibody`] to the linearly implicit DAE interface of the
//! Radau IIA integrator ([`phlex_solve::ImplicitDae`], paper 000 §6.4: "implicit
//! Runge–Kutta method of the Radau IIA family"):
//! $$M\dot y = f(t, y),\qquad M = E \text{ (constant)},\qquad f = J(y)z(y) + B(y)u(t),$$
//! with the multipliers flagged as index-2 variables and the Jacobian from
//! [`Multibody::rhs_jacobian`] (analytic in the momenta, central differences in the
//! angles).
use phlex_core::sparse::SparseMat;
use phlex_core::QuasiLinearPhDae;
use phlex_solve::{ImplicitDae, InputFn};

use crate::assembly::Multibody;
use crate::error::MbsError;

/// A multibody system driven by inputs, as an [`ImplicitDae`].
#[derive(Debug, Clone)]
pub struct MultibodyDae<'a> {
    mb: &'a Multibody,
    input: InputFn,
    E: SparseMat,
    indices: Vec<u8>,
}

impl<'a> MultibodyDae<'a> {
    /// Wraps `mb` with the input $u(t)$ (dimension = total port dimension).
    pub fn new(mb: &'a Multibody, input: InputFn) -> Result<Self, MbsError> {
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
            E: mb.descriptor(&[]),
            indices: phlex_core::variables::variable_indices(mb.blocks()),
            mb,
            input,
        })
    }

    /// The wrapped system.
    pub fn system(&self) -> &Multibody {
        self.mb
    }
}

impl ImplicitDae for MultibodyDae<'_> {
    fn dim(&self) -> usize {
        self.mb.n()
    }
    fn mass(&self) -> &SparseMat {
        &self.E
    }
    fn rhs(&self, t: f64, y: &[f64], f: &mut [f64]) {
        let u = self.input.eval(t);
        self.mb.rhs(y, &u, f);
    }
    fn jacobian(&self, t: f64, y: &[f64]) -> SparseMat {
        let u = self.input.eval(t);
        self.mb.rhs_jacobian(y, &u)
    }
    fn variable_indices(&self) -> Vec<u8> {
        self.indices.clone()
    }
    fn breakpoints(&self) -> Vec<f64> {
        self.input.breakpoints()
    }
}
