//! Work counters returned by every solver (as russell's `Stats`).

/// Work counters of a time integration.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SolverStats {
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps (error test or Newton failure).
    pub rejected_steps: usize,
    /// Newton iterations, summed over all steps.
    pub newton_iterations: usize,
    /// Evaluations of the right-hand side.
    pub rhs_evaluations: usize,
    /// Evaluations of the Jacobian.
    pub jacobian_evaluations: usize,
    /// Numeric LU factorizations (the symbolic one is done once per run).
    pub factorizations: usize,
    /// Triangular solves with a factorization.
    pub linear_solves: usize,
}

impl SolverStats {
    /// Adds another run's counters.
    pub fn accumulate(&mut self, o: &SolverStats) {
        self.steps += o.steps;
        self.rejected_steps += o.rejected_steps;
        self.newton_iterations += o.newton_iterations;
        self.rhs_evaluations += o.rhs_evaluations;
        self.jacobian_evaluations += o.jacobian_evaluations;
        self.factorizations += o.factorizations;
        self.linear_solves += o.linear_solves;
    }
}
