//! Newton's method for the step equations of the one-step integrators
//! ([`crate::integrators::midpoint::Midpoint`]) on the dense-row-aware LU
//! [`crate::step_lu::StepLu`].
//!
//! [`StepNewton`] is the full / modified Newton iteration of
//! [`crate::newton::Newton`] (same weighted increment norm
//! $\|\Delta x\|_w = \max_i |\Delta x_i|/(\mathrm{atol} + \mathrm{rtol}|x_i|)$, same refresh and
//! restart rules, same [`NewtonParams`]) on top of [`StepLu`], with a stricter acceptance
//! for modified Newton: an increment is accepted when the estimated error left after it,
//! $\theta/(1-\theta)\,\|\Delta x\|_w$ with $\theta$ the contraction rate, is at most 0.1 (and
//! $\|\Delta x\|_w \le 1$ before a rate is observed); for the first iteration $\theta$ is 0 with a
//! fresh matrix (quadratic convergence) and the rate observed in the previous solve with a
//! kept one. With a matrix kept over many steps the generic test (accept at
//! $\|\Delta x\|_w \le 1$) leaves an error of ≈ θ·tol per step, which accumulates in the
//! quadratic invariants of long runs (rigid body: $R^\top R - I$ grew to 8e-11 over 1e5
//! steps at tol 1e-14). An iteration that stops contracting after an increment within the
//! tolerance, or after its residual fell by 1e-8 from the first one, is at its round-off
//! floor and is accepted (fine meshes: the increments of near-zero stresses have a
//! round-off floor above `atol`).
//!
//! **Re-linearisation instead of failure.** With modified Newton the matrix of a solve is
//! evaluated at the predictor; when the predictor is far from the solution (the §6.4
//! hinged beam with full inertia after its impulsive kick: first increments of 1e2 mm on
//! 3e2 mm) the simplified iteration contracts only linearly, and the weighted max-norm
//! ratio $\theta_k = \|\Delta x_k\|_w/\|\Delta x_{k-1}\|_w$ can exceed 1 while the residual
//! still falls by 1e-3 per iteration (the largest weighted component switches between
//! unknowns of very different size, e.g. $\omega_x \approx 4\cdot10^{-3}$ rad/s next to
//! 1e2 mm). Such an iteration is not divergent, its matrix is stale. So when an iteration
//! with a matrix evaluated in this solve stops contracting (or runs out of iterations)
//! after its residual fell below the first residual of the solve, the matrix is
//! re-evaluated at the current iterate and the iteration continues from there (at most
//! [`MAX_RELINEARISATIONS`] times per solve, Deuflhard, *Newton Methods for Nonlinear
//! Problems*, §2.1: a Jacobian update on detected non-contraction). Only an iteration whose
//! residual did not fall, or that fails after these updates, is reported as
//! [`SolveError::NewtonDiverged`]. The acceptance tests above are unchanged.
use crate::newton::{
    drive, LinearSolve, NewtonDriver, NewtonParams, NewtonWork, NonlinearSystem, Sweep, Verdict,
};
use crate::step_lu::StepLu;
use crate::{SolveError, SolverStats};

impl LinearSolve for StepLu {
    fn solve_in_place(&mut self, b: &mut [f64]) -> Result<(), SolveError> {
        StepLu::solve_in_place(self, b)
    }
}

/// Newton's method on [`StepLu`] (see the module documentation).
#[derive(Debug)]
pub struct StepNewton {
    lu: Option<StepLu>,
    stale: bool,
    work: NewtonWork,
    /// Contraction rate observed in the last solve (the estimate for the first iteration
    /// with a kept matrix).
    theta_kept: f64,
}

/// Largest estimated error left after the accepted increment, in units of the tolerance.
const KAPPA: f64 = 0.1;
/// Residual reduction (from the first residual of a solve) beyond which a stagnating
/// iteration is taken to be at its round-off floor.
const FLOOR_DROP: f64 = 1e-8;
/// Re-evaluations of the matrix at the current iterate per solve after a non-contracting
/// iteration whose residual fell (see the module documentation).
pub const MAX_RELINEARISATIONS: usize = 4;

impl StepNewton {
    /// A solver with validated parameters.
    pub fn new(params: NewtonParams) -> Result<Self, SolveError> {
        params.validate()?;
        Ok(Self {
            lu: None,
            stale: true,
            work: NewtonWork::new(params),
            theta_kept: 0.0,
        })
    }

    /// Forces a Jacobian evaluation at the next solve.
    pub fn invalidate(&mut self) {
        self.stale = true;
    }

    /// Work counters so far (`newton_iterations`, `rhs_evaluations`,
    /// `jacobian_evaluations`, `factorizations`, `linear_solves`).
    pub fn stats(&self) -> SolverStats {
        self.work.stats
    }

    /// The linear solver (after the first solve).
    pub fn lu(&self) -> Option<&StepLu> {
        self.lu.as_ref()
    }

    fn refresh<S: NonlinearSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        x: &[f64],
    ) -> Result<(), SolveError> {
        let jac = sys.jacobian(x)?;
        self.work.stats.jacobian_evaluations += 1;
        let n = jac.nrows();
        let lu = match &mut self.lu {
            Some(lu) if lu.dim() == n => lu,
            _ => self.lu.insert(StepLu::new(n)),
        };
        lu.factorize(&jac)?;
        self.work.stats.factorizations += 1;
        self.stale = false;
        self.theta_kept = 0.0;
        Ok(())
    }

    /// Solves $F(x) = 0$ from `x` (overwritten); `t` is used in error messages.
    pub fn solve<S: NonlinearSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        x: &mut [f64],
        t: f64,
    ) -> Result<(), SolveError> {
        drive(self, sys, x, t)
    }
}

impl NewtonDriver for StepNewton {
    type Lu = StepLu;
    type Report = ();

    fn work(&mut self) -> &mut NewtonWork {
        &mut self.work
    }
    fn parts(&mut self) -> (&mut NewtonWork, &mut StepLu) {
        (&mut self.work, self.lu.as_mut().expect("factorized above"))
    }
    fn needs_jacobian(&self) -> bool {
        self.stale || self.lu.is_none()
    }
    fn mark_stale(&mut self) {
        self.stale = true;
    }
    fn refresh<S: NonlinearSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        x: &[f64],
    ) -> Result<(), SolveError> {
        StepNewton::refresh(self, sys, x)
    }

    /// The stricter acceptance of the module documentation.
    fn judge(&mut self, x: &[f64], s: &mut Sweep) -> Verdict<()> {
        let (norm, prev) = (s.norm, s.prev);
        let modified = self.work.params.modified;
        let roundoff = self.work.at_roundoff(x);
        // Contraction rate: observed, or for the first iteration 0 with a fresh
        // matrix (quadratic convergence) and the last observed rate with a kept one.
        let theta = match prev {
            Some(p) if p > 0.0 => norm / p,
            Some(_) => 0.0,
            None if s.fresh => 0.0,
            None => self.theta_kept,
        };
        // No contraction once an increment was within the tolerance, or once the
        // residual fell by FLOOR_DROP from its first value: the iteration is at its
        // round-off floor (accepted); otherwise it diverges.
        let floor = matches!(prev, Some(p) if theta >= 1.0
            && (norm <= 1.0 || p <= 1.0 || s.last_res <= FLOOR_DROP * s.first_res));
        if prev.is_some() {
            s.rate = s.rate.max(theta.min(1.0));
            if theta >= 1.0 && !roundoff && !floor {
                return Verdict::Stop;
            }
        }
        // Estimated error left after this increment, θ/(1 − θ)·‖Δx‖ (Hairer–Wanner
        // IV.8), at most KAPPA of the tolerance with modified Newton; full Newton
        // keeps the generic test (an increment within the tolerance, or an estimate
        // at most the tolerance).
        let est = if theta < 1.0 {
            theta / (1.0 - theta) * norm
        } else {
            f64::INFINITY
        };
        let kappa = if modified { KAPPA } else { 1.0 };
        let converged = roundoff
            || floor
            || (norm <= 1.0 && (!modified || est <= kappa))
            || (prev.is_some() && est <= kappa);
        if !converged {
            return Verdict::Continue;
        }
        if s.rate > 0.0 {
            self.theta_kept = s.rate;
        }
        if modified && s.rate > self.work.params.refresh_rate {
            self.stale = true;
        }
        Verdict::Accept(())
    }

    /// A matrix of this solve stopped contracting after the residual fell: it is stale, not
    /// the iteration divergent. Re-linearise at the current iterate (module
    /// documentation), at most [`MAX_RELINEARISATIONS`] times.
    fn relinearise(&mut self, x: &[f64], s: &mut Sweep) -> bool {
        let retry = s.relinearisations < MAX_RELINEARISATIONS
            && s.last_res.is_finite()
            && s.last_res < s.first_res
            && x.iter().all(|v| v.is_finite());
        if retry {
            s.relinearisations += 1;
        }
        retry
    }
}
