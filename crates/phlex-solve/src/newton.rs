//! Newton's method for $F(x) = 0$ with sparse Jacobians, plain or *modified*.
//!
//! Each iteration solves $F'(x_k)\,\Delta x_k = -F(x_k)$ and sets $x_{k+1} = x_k + \Delta x_k$.
//! Convergence is measured on the increment in the weighted max-norm
//! $$\|\Delta x\|_w = \max_i \frac{|\Delta x_i|}{\mathrm{atol} + \mathrm{rtol}\,|x_i|},$$
//! and the iteration stops when $\|\Delta x_k\|_w \le 1$ (or every $|\Delta x_{k,i}| \le 8\varepsilon|x_i|$,
//! round-off level) or, once a contraction rate
//! $\theta_k = \|\Delta x_k\|_w / \|\Delta x_{k-1}\|_w < 1$ is known, when the estimated
//! remaining error $\theta_k/(1-\theta_k)\,\|\Delta x_k\|_w \le 1$ (Hairer–Wanner IV.8).
//!
//! **Full Newton** (`modified = false`) evaluates and factorizes the Jacobian at every iterate.
//!
//! **Modified Newton.** With [`NewtonParams::modified`] the factorized Jacobian is kept across
//! calls (e.g. time steps) while the observed contraction rate stays below
//! [`NewtonParams::refresh_rate`]; a larger rate marks it stale so that the next call
//! re-evaluates it. If an iteration with a kept Jacobian diverges ($\theta \ge 1$ or too many
//! iterations), the solve restarts once from the initial guess with a fresh Jacobian; only a
//! failure with a fresh Jacobian is reported as [`SolveError::NewtonDiverged`].
//!
//! The iteration (sweeps, refresh, restart, divergence) is written once, in the crate-private
//! `drive`, for [`Newton`] and [`crate::step_newton::StepNewton`]; each supplies its
//! Jacobian holder and its acceptance rule (the test above for [`Newton`], the stricter
//! one with re-linearisation for the step equations).
use phlex_core::sparse::SparseMat;

use crate::linsolve::SparseLu;
use crate::{SolveError, SolverStats};

/// A square nonlinear system $F(x) = 0$.
pub trait NonlinearSystem {
    /// Number of unknowns.
    fn dim(&self) -> usize;
    /// Evaluates $F(x)$ into `r`.
    fn residual(&mut self, x: &[f64], r: &mut [f64]) -> Result<(), SolveError>;
    /// The Jacobian $F'(x)$ (or an approximation of it).
    fn jacobian(&mut self, x: &[f64]) -> Result<SparseMat, SolveError>;
}

/// Parameters of Newton's method.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewtonParams {
    /// Relative tolerance on the increment, `0 < rtol < 1`.
    pub rtol: f64,
    /// Absolute tolerance on the increment (units of `x`), `atol > 0`.
    pub atol: f64,
    /// Maximum iterations per solve, `>= 1`.
    pub max_iterations: usize,
    /// Keep the factorized Jacobian across iterations and solves while it contracts well
    /// (`false`: a new Jacobian at every iterate).
    pub modified: bool,
    /// Contraction rate above which a kept Jacobian is refreshed, `0 < refresh_rate < 1`.
    pub refresh_rate: f64,
}

impl Default for NewtonParams {
    /// `rtol = 1e-10`, `atol = 1e-12`, 20 iterations, modified Newton refreshing at
    /// $\theta > 0.3$.
    fn default() -> Self {
        Self {
            rtol: 1e-10,
            atol: 1e-12,
            max_iterations: 20,
            modified: true,
            refresh_rate: 0.3,
        }
    }
}

impl NewtonParams {
    /// Checks every parameter; the message states the inequality that failed.
    pub fn validate(&self) -> Result<(), SolveError> {
        if !(self.rtol > 0.0 && self.rtol < 1.0) {
            return Err(SolveError::Parameter(format!(
                "newton.rtol must satisfy 0 < rtol < 1, got {}",
                self.rtol
            )));
        }
        if !(self.atol > 0.0 && self.atol.is_finite()) {
            return Err(SolveError::Parameter(format!(
                "newton.atol must satisfy 0 < atol < inf, got {}",
                self.atol
            )));
        }
        if self.max_iterations < 1 {
            return Err(SolveError::Parameter(
                "newton.max_iterations must satisfy max_iterations >= 1, got 0".into(),
            ));
        }
        if !(self.refresh_rate > 0.0 && self.refresh_rate < 1.0) {
            return Err(SolveError::Parameter(format!(
                "newton.refresh_rate must satisfy 0 < refresh_rate < 1, got {}",
                self.refresh_rate
            )));
        }
        Ok(())
    }
}

/// Outcome of one successful [`Newton::solve`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewtonReport {
    /// Iterations performed (including a restarted attempt).
    pub iterations: usize,
    /// Weighted norm of the last increment (≤ 1, or the error estimate was ≤ 1).
    pub last_increment: f64,
    /// Largest contraction rate observed (0 if a single iteration sufficed).
    pub rate: f64,
    /// True if the Jacobian was evaluated during this solve.
    pub jacobian_evaluated: bool,
}

/// A factorized matrix that solves $Ax = b$ in place ([`SparseLu`],
/// [`crate::step_lu::StepLu`]).
pub(crate) trait LinearSolve {
    /// Overwrites `b` with $A^{-1}b$.
    fn solve_in_place(&mut self, b: &mut [f64]) -> Result<(), SolveError>;
}

impl LinearSolve for SparseLu<f64> {
    fn solve_in_place(&mut self, b: &mut [f64]) -> Result<(), SolveError> {
        SparseLu::solve_in_place(self, b)
    }
}

/// Outcome of one Newton correction ([`NewtonWork::correct`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Correction {
    /// $x \mathrel{+}= \Delta x$ done; the residual $\max|F(x)|$ before it.
    Applied(f64),
    /// The residual is not finite (its max norm).
    NonFiniteResidual(f64),
    /// The linear solve failed (the error and the residual before it).
    SolveFailed(SolveError, f64),
}

/// The work arrays and counters shared by [`Newton`] and [`crate::step_newton::StepNewton`]:
/// residual, increment, initial guess, the weighted increment norm and one correction
/// $F'(x)\,\Delta x = -F(x)$, $x \mathrel{+}= \Delta x$.
#[derive(Debug, Clone)]
pub(crate) struct NewtonWork {
    /// The parameters.
    pub params: NewtonParams,
    /// $F(x)$.
    pub r: Vec<f64>,
    /// The last increment $\Delta x$.
    pub dx: Vec<f64>,
    /// The initial guess of the solve (restart point).
    pub x_start: Vec<f64>,
    /// Work counters.
    pub stats: SolverStats,
}

impl NewtonWork {
    /// Empty arrays for validated `params`.
    pub fn new(params: NewtonParams) -> Self {
        Self {
            params,
            r: Vec::new(),
            dx: Vec::new(),
            x_start: Vec::new(),
            stats: SolverStats::default(),
        }
    }

    /// Starts a solve of an `n`-dimensional system from `x` (kept as restart point).
    pub fn start(&mut self, n: usize, x: &[f64]) -> Result<(), SolveError> {
        if x.len() != n {
            return Err(SolveError::Dimension(format!(
                "Newton: initial guess has length {}, system has {n} unknowns",
                x.len()
            )));
        }
        self.r.resize(n, 0.0);
        self.dx.resize(n, 0.0);
        self.x_start.clear();
        self.x_start.extend_from_slice(x);
        Ok(())
    }

    /// $\|\Delta x\|_w = \max_i |\Delta x_i|/(\mathrm{atol} + \mathrm{rtol}|x_i|)$.
    pub fn weighted_norm(&self, x: &[f64]) -> f64 {
        let p = &self.params;
        self.dx.iter().zip(x).fold(0.0f64, |m, (d, xi)| {
            m.max(d.abs() / (p.atol + p.rtol * xi.abs()))
        })
    }

    /// True if every increment is at round-off level, $|\Delta x_i| \le 8\varepsilon|x_i|$.
    pub fn at_roundoff(&self, x: &[f64]) -> bool {
        self.dx
            .iter()
            .zip(x)
            .all(|(d, xi)| d.abs() <= 8.0 * f64::EPSILON * xi.abs())
    }

    /// One correction: $r = F(x)$, $\Delta x = -A^{-1}r$ with the factorized `lu`,
    /// $x \mathrel{+}= \Delta x$ (counted in `stats`).
    pub fn correct<S: NonlinearSystem + ?Sized, L: LinearSolve>(
        &mut self,
        sys: &mut S,
        lu: &mut L,
        x: &mut [f64],
    ) -> Result<Correction, SolveError> {
        sys.residual(x, &mut self.r)?;
        self.stats.rhs_evaluations += 1;
        let res = self.r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if !res.is_finite() {
            return Ok(Correction::NonFiniteResidual(res));
        }
        for (d, r) in self.dx.iter_mut().zip(&self.r) {
            *d = -r;
        }
        self.stats.linear_solves += 1;
        if let Err(e) = lu.solve_in_place(&mut self.dx) {
            return Ok(Correction::SolveFailed(e, res));
        }
        for (xi, d) in x.iter_mut().zip(&self.dx) {
            *xi += d;
        }
        self.stats.newton_iterations += 1;
        Ok(Correction::Applied(res))
    }

    /// [`NewtonWork::correct`] inside an iteration: records the residual in `last_res` and
    /// returns whether the increment was applied (`false`: the iteration stops, a
    /// non-finite residual or a failed solve with a kept matrix); a failed solve with a
    /// matrix evaluated in this solve (`fresh`) is the error.
    pub fn iterate<S: NonlinearSystem + ?Sized, L: LinearSolve>(
        &mut self,
        sys: &mut S,
        lu: &mut L,
        x: &mut [f64],
        fresh: bool,
        last_res: &mut f64,
    ) -> Result<bool, SolveError> {
        match self.correct(sys, lu, x)? {
            Correction::Applied(r) => {
                *last_res = r;
                Ok(true)
            }
            Correction::NonFiniteResidual(r) => {
                *last_res = r;
                Ok(false)
            }
            Correction::SolveFailed(e, r) => {
                *last_res = r;
                if fresh {
                    Err(e)
                } else {
                    Ok(false)
                }
            }
        }
    }
}

/// Newton solver owning the (possibly reused) factorized Jacobian.
#[derive(Debug)]
pub struct Newton {
    lu: Option<SparseLu<f64>>,
    stale: bool,
    work: NewtonWork,
}

impl Newton {
    /// A solver with validated parameters.
    pub fn new(params: NewtonParams) -> Result<Self, SolveError> {
        params.validate()?;
        Ok(Self {
            lu: None,
            stale: true,
            work: NewtonWork::new(params),
        })
    }

    /// The parameters.
    pub fn params(&self) -> &NewtonParams {
        &self.work.params
    }

    /// Forces a Jacobian evaluation at the next solve (e.g. after a step-size change).
    pub fn invalidate(&mut self) {
        self.stale = true;
    }

    /// Work counters so far: `newton_iterations`, `rhs_evaluations` (residuals),
    /// `jacobian_evaluations`, `factorizations`, `linear_solves`.
    pub fn stats(&self) -> SolverStats {
        let mut s = self.work.stats;
        if let Some(lu) = &self.lu {
            let c = lu.counters();
            s.factorizations = c.numeric;
            s.linear_solves = c.solves;
        }
        s
    }

    fn refresh_jacobian<S: NonlinearSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        x: &[f64],
    ) -> Result<(), SolveError> {
        let jac = sys.jacobian(x)?;
        self.work.stats.jacobian_evaluations += 1;
        match &mut self.lu {
            Some(lu) if lu.dim() == jac.nrows() => lu.factorize(jac.as_ref())?,
            _ => self.lu = Some(SparseLu::from_matrix("Newton Jacobian", jac.as_ref())?),
        }
        self.stale = false;
        Ok(())
    }

    /// Solves $F(x) = 0$ starting from `x` (overwritten by the solution). `t` is only used
    /// in error messages (the time of the step being solved).
    pub fn solve<S: NonlinearSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        x: &mut [f64],
        t: f64,
    ) -> Result<NewtonReport, SolveError> {
        drive(self, sys, x, t)
    }
}

impl NewtonDriver for Newton {
    type Lu = SparseLu<f64>;
    type Report = NewtonReport;

    fn work(&mut self) -> &mut NewtonWork {
        &mut self.work
    }
    fn parts(&mut self) -> (&mut NewtonWork, &mut SparseLu<f64>) {
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
        self.refresh_jacobian(sys, x)
    }

    /// The generic test of the module documentation: $\|\Delta x\|_w \le 1$, round-off, or
    /// $\theta/(1-\theta)\,\|\Delta x\|_w \le 1$ once a rate $\theta < 1$ is known.
    fn judge(&mut self, x: &[f64], s: &mut Sweep) -> Verdict<NewtonReport> {
        let norm = s.norm;
        // An increment at round-off level cannot be improved upon.
        let mut converged = norm <= 1.0 || self.work.at_roundoff(x);
        if let Some(p) = s.prev {
            let theta = if p > 0.0 { norm / p } else { 0.0 };
            if !converged {
                s.rate = s.rate.max(theta);
                if theta >= 1.0 {
                    return Verdict::Stop;
                }
                converged = theta / (1.0 - theta) * norm <= 1.0;
            }
        }
        if !converged {
            return Verdict::Continue;
        }
        if self.work.params.modified && s.rate > self.work.params.refresh_rate {
            self.stale = true;
        }
        Verdict::Accept(NewtonReport {
            iterations: s.iterations,
            last_increment: norm,
            rate: s.rate,
            jacobian_evaluated: s.fresh,
        })
    }
}

/// The state of a solve seen by the acceptance rule of a [`NewtonDriver`].
#[derive(Debug, Clone)]
pub(crate) struct Sweep {
    /// The matrix was evaluated in this solve (at the start of this sweep).
    pub fresh: bool,
    /// Weighted norm of the previous increment of this sweep.
    pub prev: Option<f64>,
    /// Weighted norm $\|\Delta x\|_w$ of the increment just applied.
    pub norm: f64,
    /// Largest contraction rate recorded by the rule in this sweep.
    pub rate: f64,
    /// Corrections applied in this solve (all sweeps).
    pub iterations: usize,
    /// Residual $\max|F(x)|$ before the last correction.
    pub last_res: f64,
    /// The first finite residual of the solve.
    pub first_res: f64,
    /// Re-linearisations done by the rule in this solve.
    pub relinearisations: usize,
}

/// What an acceptance rule decides after an increment.
pub(crate) enum Verdict<R> {
    /// Converged: the solve returns this report.
    Accept(R),
    /// The sweep stops (no contraction).
    Stop,
    /// Another iteration.
    Continue,
}

/// A Newton solver with a factorized Jacobian kept between solves and its acceptance rule;
/// [`drive`] runs the iteration common to [`Newton`] and
/// [`crate::step_newton::StepNewton`].
pub(crate) trait NewtonDriver {
    /// The factorized matrix.
    type Lu: LinearSolve;
    /// What an accepted solve returns.
    type Report;
    /// The work arrays.
    fn work(&mut self) -> &mut NewtonWork;
    /// The work arrays and the factorized matrix (after a refresh).
    fn parts(&mut self) -> (&mut NewtonWork, &mut Self::Lu);
    /// True if the kept matrix is stale or missing.
    fn needs_jacobian(&self) -> bool;
    /// Marks the kept matrix stale (re-evaluated at the next sweep or solve).
    fn mark_stale(&mut self);
    /// Evaluates and factorizes the Jacobian at `x`.
    fn refresh<S: NonlinearSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        x: &[f64],
    ) -> Result<(), SolveError>;
    /// Judges the increment just applied (`s.norm`); may record a rate in `s.rate`.
    fn judge(&mut self, x: &[f64], s: &mut Sweep) -> Verdict<Self::Report>;
    /// After a sweep with a matrix of this solve failed: true to re-evaluate the matrix at
    /// the current iterate and continue (default: never, the divergence is reported).
    fn relinearise(&mut self, x: &[f64], s: &mut Sweep) -> bool {
        let _ = (x, s);
        false
    }
}

/// The Newton iteration of [`Newton::solve`] and [`crate::step_newton::StepNewton::solve`]
/// (module documentation): sweeps of corrections with the kept matrix (full Newton: a new
/// one at every iterate), judged by the solver's rule; a sweep with a kept matrix that
/// fails restarts from the initial guess with a fresh one, a failure with a fresh matrix
/// is [`SolveError::NewtonDiverged`] unless the rule re-linearises.
pub(crate) fn drive<D: NewtonDriver + ?Sized, S: NonlinearSystem + ?Sized>(
    d: &mut D,
    sys: &mut S,
    x: &mut [f64],
    t: f64,
) -> Result<D::Report, SolveError> {
    d.work().start(sys.dim(), x)?;
    let params = d.work().params;
    let modified = params.modified;
    let mut s = Sweep {
        fresh: false,
        prev: None,
        norm: f64::NAN,
        rate: 0.0,
        iterations: 0,
        last_res: f64::NAN,
        first_res: f64::NAN,
        relinearisations: 0,
    };
    loop {
        s.fresh = d.needs_jacobian() || !modified;
        if s.fresh {
            d.refresh(sys, x)?;
        }
        s.prev = None;
        s.rate = 0.0;
        for it in 0..params.max_iterations {
            if it > 0 && !modified {
                // Full Newton: a new Jacobian at every iterate.
                d.refresh(sys, x)?;
            }
            let (work, lu) = d.parts();
            let applied = work.iterate(sys, lu, x, s.fresh, &mut s.last_res)?;
            if s.first_res.is_nan() && s.last_res.is_finite() {
                s.first_res = s.last_res;
            }
            if !applied {
                break;
            }
            s.iterations += 1;
            s.norm = work.weighted_norm(x);
            if !s.norm.is_finite() {
                break;
            }
            match d.judge(x, &mut s) {
                Verdict::Accept(report) => return Ok(report),
                Verdict::Stop => break,
                Verdict::Continue => {}
            }
            s.prev = Some(s.norm);
        }
        d.mark_stale();
        if s.fresh {
            if d.relinearise(x, &mut s) {
                continue;
            }
            return Err(SolveError::NewtonDiverged {
                t,
                iterations: s.iterations,
                residual: s.last_res,
                tol: params.rtol,
            });
        }
        // A kept Jacobian failed: restart from the initial guess with a fresh one.
        x.copy_from_slice(&d.work().x_start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use phlex_core::sparse::Triplets;

    /// F(x) = (x0^2 + x1^2 - 4, x0 - x1), root (√2, √2).
    struct Circle;
    impl NonlinearSystem for Circle {
        fn dim(&self) -> usize {
            2
        }
        fn residual(&mut self, x: &[f64], r: &mut [f64]) -> Result<(), SolveError> {
            r[0] = x[0] * x[0] + x[1] * x[1] - 4.0;
            r[1] = x[0] - x[1];
            Ok(())
        }
        fn jacobian(&mut self, x: &[f64]) -> Result<SparseMat, SolveError> {
            let mut t = Triplets::new(2, 2);
            t.push(0, 0, 2.0 * x[0]);
            t.push(0, 1, 2.0 * x[1]);
            t.push(1, 0, 1.0);
            t.push(1, 1, -1.0);
            Ok(t.build())
        }
    }

    #[test]
    fn converges_quadratically_and_modified_reuses_jacobian() {
        let p = NewtonParams {
            modified: false,
            rtol: 1e-13,
            ..Default::default()
        };
        let mut newton = Newton::new(p).unwrap();
        let mut x = [1.0, 2.0];
        let rep = newton.solve(&mut Circle, &mut x, 0.0).unwrap();
        let s2 = 2f64.sqrt();
        // Converged means |error| ≲ atol + rtol |x| = 1e-12 + 1.4e-13.
        assert!(
            (x[0] - s2).abs() < 1.2e-12 && (x[1] - s2).abs() < 1.2e-12,
            "{x:?}"
        );
        // Full Newton from distance ~0.6: quadratic convergence needs ≤ 6 iterations.
        assert!(rep.iterations <= 6, "{rep:?}");
        assert_eq!(newton.stats().jacobian_evaluations, rep.iterations);

        // Modified Newton: second solve from a nearby guess reuses the factorization.
        let mut newton = Newton::new(NewtonParams {
            rtol: 1e-13,
            ..Default::default()
        })
        .unwrap();
        let mut x = [1.4, 1.45];
        newton.solve(&mut Circle, &mut x, 0.0).unwrap();
        let jac_after_first = newton.stats().jacobian_evaluations;
        let mut y = [1.41, 1.415];
        let rep = newton.solve(&mut Circle, &mut y, 1.0).unwrap();
        assert!((y[0] - s2).abs() < 1.2e-12);
        assert!(!rep.jacobian_evaluated || newton.stats().jacobian_evaluations > jac_after_first);
        assert_eq!(jac_after_first, 1);
    }

    #[test]
    fn divergence_and_bad_parameters_are_reported() {
        // F(x) = atan(x) diverges from |x0| > 1.39 with full Newton.
        struct Atan;
        impl NonlinearSystem for Atan {
            fn dim(&self) -> usize {
                1
            }
            fn residual(&mut self, x: &[f64], r: &mut [f64]) -> Result<(), SolveError> {
                r[0] = x[0].atan();
                Ok(())
            }
            fn jacobian(&mut self, x: &[f64]) -> Result<SparseMat, SolveError> {
                let mut t = Triplets::new(1, 1);
                t.push(0, 0, 1.0 / (1.0 + x[0] * x[0]));
                Ok(t.build())
            }
        }
        let mut newton = Newton::new(NewtonParams {
            modified: false,
            ..Default::default()
        })
        .unwrap();
        let err = newton.solve(&mut Atan, &mut [3.0], 2.5).unwrap_err();
        assert!(
            matches!(err, SolveError::NewtonDiverged { t, .. } if t == 2.5),
            "{err}"
        );
        let msg = Newton::new(NewtonParams {
            rtol: 2.0,
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
        assert!(msg.contains("0 < rtol < 1"), "{msg}");
        assert!(Newton::new(NewtonParams {
            max_iterations: 0,
            ..Default::default()
        })
        .is_err());
    }
}
