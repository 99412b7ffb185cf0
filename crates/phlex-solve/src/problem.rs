//! Problem interfaces consumed by the integrators.
//!
//! * [`ImplicitDae`]: a linearly implicit DAE $M\dot y = f(t, y)$ with constant (possibly
//!   singular) $M$, the form of Hairer–Wanner's RADAU5; each variable carries its DAE
//!   index (0 differential, 1–3 algebraic) for the error scaling.
//!   Every [`phlex_core::PhSystem`] becomes one through
//!   [`crate::integrators::ph_dae::PhDae`].
//! * [`Observer`]: a callback receiving `(t, y)` at output times.
use phlex_core::sparse::SparseMat;

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
