//! Plain data of the drift projection (paper 000 Remark 9): the options an integrator
//! passes to [`crate::PhSystem::project`], what one projection did ([`ProjectionStep`]),
//! and the statistics of a run ([`ProjectionStats`]).
//!
//! The one-step integrators enforce the *velocity* constraints $G(x)p = B_\lambda u$; the
//! *position* constraints $\Phi(q) = 0$ drift at $O(h^2)$ per unit time. A projection
//! after every step moves the state back onto $\Phi(q) = 0$ (the model's own Gauss–Newton
//! on its poses) and optionally the velocities onto $G(x)p = B_\lambda u$ in the
//! kinetic-energy metric. The projection is not part of the scheme's discrete power
//! balance: each jump $H(x^{proj}) - H(x)$ is recorded.
use crate::CoreError;

/// Options of the drift projection.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProjectionOptions {
    /// Also project the velocities onto the velocity constraints.
    pub velocities: bool,
    /// Position tolerance $\max|\Phi|$ \[m, rad\], `tol > 0`.
    pub tol: f64,
    /// Gauss–Newton iteration limit per step, `>= 1`.
    pub max_iterations: usize,
}

impl Default for ProjectionOptions {
    /// Positions only, `tol = 1e-14`, 10 iterations.
    fn default() -> Self {
        Self {
            velocities: false,
            tol: 1e-14,
            max_iterations: 10,
        }
    }
}

impl ProjectionOptions {
    /// Checks the options; the message states the inequality that failed.
    pub fn validate(&self) -> Result<(), CoreError> {
        if !(self.tol > 0.0 && self.tol.is_finite()) {
            return Err(CoreError::Parameter(format!(
                "projection tol must satisfy 0 < tol < inf, got {}",
                self.tol
            )));
        }
        if self.max_iterations == 0 {
            return Err(CoreError::Parameter(
                "projection max_iterations must satisfy max_iterations >= 1, got 0".into(),
            ));
        }
        Ok(())
    }
}

/// What one projection did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ProjectionStep {
    /// Gauss–Newton iterations (0 if the state was already within `tol`).
    pub iterations: usize,
    /// Largest position violation before the projection.
    pub drift_before: f64,
    /// Largest position violation after it.
    pub drift_after: f64,
    /// Largest pose correction $|\Delta q|_\infty$ \[m, rad\].
    pub max_correction: f64,
    /// Largest velocity-constraint residual before the velocity projection.
    pub velocity_residual: f64,
}

/// Statistics of the drift projection over a run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ProjectionStats {
    /// Steps after which a correction was applied.
    pub corrected_steps: usize,
    /// Gauss–Newton iterations in total.
    pub iterations: usize,
    /// Largest position violation produced by a step (before projection) \[m, rad\].
    pub max_drift_before: f64,
    /// Largest position violation left after a projection.
    pub max_drift_after: f64,
    /// Largest pose correction \[m, rad\].
    pub max_correction: f64,
    /// Largest velocity-constraint residual removed (0 without velocity projection).
    pub max_velocity_residual: f64,
    /// Sum of the energy jumps $H(x^{proj}) - H(x)$ \[J\].
    pub energy_change: f64,
    /// Largest single jump $|H(x^{proj}) - H(x)|$ \[J\].
    pub max_energy_jump: f64,
}

impl ProjectionStats {
    /// Adds one projection: its step report and the Hamiltonian before (`h_before`) and
    /// after it (`h_after`, only meaningful when `moved`, i.e. the state was changed).
    pub fn record(&mut self, step: &ProjectionStep, moved: bool, h_before: f64, h_after: f64) {
        self.max_drift_before = self.max_drift_before.max(step.drift_before);
        self.max_drift_after = self.max_drift_after.max(step.drift_after);
        self.max_correction = self.max_correction.max(step.max_correction);
        self.max_velocity_residual = self.max_velocity_residual.max(step.velocity_residual);
        self.iterations += step.iterations;
        if moved {
            self.corrected_steps += 1;
            self.energy_change += h_after - h_before;
            self.max_energy_jump = self.max_energy_jump.max((h_after - h_before).abs());
        }
    }
}
