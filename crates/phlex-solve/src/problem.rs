//! Problem interfaces consumed by the integrators.
//!
//! * [`ImplicitDae`]: a linearly implicit DAE $M\dot y = f(t, y)$ with constant (possibly
//!   singular) $M$, the form of Hairer–Wanner's RADAU5; each variable carries its DAE
//!   index (0 differential, 1–3 algebraic) for the error scaling.
//! * [`LinearPhDae`]: the adapter that turns a [`LinearPhSystem`] and an input
//!   [`InputFn`] into an [`ImplicitDae`] ($M = E$, $f = (J - R)y + Bu(t)$).
//! * [`Observer`]: a callback receiving `(t, y)` at output times.
use phlex_core::sparse::{self, SparseMat};
use phlex_core::LinearPhSystem;

use crate::signal::InputFn;
use crate::SolveError;

/// A linearly implicit DAE $M\dot y = f(t, y)$ with constant $M$.
pub trait ImplicitDae {
    /// Number of unknowns.
    fn dim(&self) -> usize;
    /// The constant matrix $M$ (may be singular for DAEs).
    fn mass(&self) -> &SparseMat;
    /// Evaluates $f(t, y)$ into `f`.
    fn rhs(&self, t: f64, y: &[f64], f: &mut [f64]);
    /// Jacobian $\partial f/\partial y$ at `(t, y)`.
    fn jacobian(&self, t: f64, y: &[f64]) -> SparseMat;
    /// True if the Jacobian does not depend on `(t, y)` (factorizations are then reused).
    fn jacobian_is_constant(&self) -> bool {
        false
    }
    /// DAE index of each variable: 0 differential, 1, 2 or 3 algebraic.
    fn variable_indices(&self) -> Vec<u8>;
    /// Times where $f$ is discontinuous in `t`; integrators stop exactly on them.
    fn breakpoints(&self) -> Vec<f64> {
        Vec::new()
    }
}

/// Receives the solution at output times.
pub trait Observer {
    /// Called with the time and the state.
    fn observe(&mut self, t: f64, y: &[f64]);
}

impl<F: FnMut(f64, &[f64])> Observer for F {
    fn observe(&mut self, t: f64, y: &[f64]) {
        self(t, y)
    }
}

/// A linear pH system driven by inputs: $E\dot e = (J - R)e + Bu(t)$.
#[derive(Debug, Clone)]
pub struct LinearPhDae<'a> {
    /// The system.
    pub sys: &'a LinearPhSystem,
    /// The input $u(t)$.
    pub input: InputFn,
    A: SparseMat,
    indices: Vec<u8>,
}

impl<'a> LinearPhDae<'a> {
    /// Wraps a system with its inputs; the input dimension must match $B$.
    pub fn new(sys: &'a LinearPhSystem, input: InputFn) -> Result<Self, SolveError> {
        if input.dim() != sys.n_inputs() {
            return Err(SolveError::Dimension(format!(
                "input has {} components but the system has {} inputs (ports: {})",
                input.dim(),
                sys.n_inputs(),
                sys.ports.names().join(", ")
            )));
        }
        Ok(Self {
            A: sys.j_minus_r(),
            indices: sys.variable_indices(),
            sys,
            input,
        })
    }

    /// The matrix $J - R$.
    pub fn a(&self) -> &SparseMat {
        &self.A
    }
}

impl ImplicitDae for LinearPhDae<'_> {
    fn dim(&self) -> usize {
        self.sys.n_states()
    }
    fn mass(&self) -> &SparseMat {
        &self.sys.E
    }
    fn rhs(&self, t: f64, y: &[f64], f: &mut [f64]) {
        f.iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(f, 1.0, &self.A, y);
        if !self.input.is_zero() {
            let u = self.input.eval(t);
            sparse::mul_add(f, 1.0, &self.sys.B, &u);
        }
    }
    fn jacobian(&self, _t: f64, _y: &[f64]) -> SparseMat {
        self.A.clone()
    }
    fn jacobian_is_constant(&self) -> bool {
        true
    }
    fn variable_indices(&self) -> Vec<u8> {
        self.indices.clone()
    }
    fn breakpoints(&self) -> Vec<f64> {
        self.input.breakpoints()
    }
}
