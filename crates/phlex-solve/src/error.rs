//! Errors of the numerical solvers. Each names what failed and what to try.
use thiserror::Error;

/// A numerical failure during a solve.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SolveError {
    /// A matrix could not be factorized (singular or structurally singular).
    #[error("{what}: matrix is singular ({detail}); check boundary conditions and constraints (a free body, a redundant constraint or a zero mass makes the system singular)")]
    Singular {
        /// Which matrix.
        what: String,
        /// Back-end message.
        detail: String,
    },
    /// Newton's method did not converge.
    #[error("Newton did not converge at t = {t:.6e} after {iterations} iterations (last residual {residual:.3e}, tolerance {tol:.3e}: the corrections did not contract below it); reduce the time step or check the model")]
    NewtonDiverged {
        /// Time of the failing step.
        t: f64,
        /// Iterations performed.
        iterations: usize,
        /// Last residual norm.
        residual: f64,
        /// Requested tolerance.
        tol: f64,
    },
    /// The adaptive step size fell below its minimum.
    #[error("step size underflow at t = {t:.6e}: h = {h:.3e} < h_min = {h_min:.3e}; the problem may be singular, of index > 2, or need tighter initial consistency")]
    StepSizeUnderflow {
        /// Time.
        t: f64,
        /// Step size.
        h: f64,
        /// Minimum allowed.
        h_min: f64,
    },
    /// Too many steps.
    #[error("maximum number of steps ({max_steps}) reached at t = {t:.6e}; raise max_steps (model file: [simulation] max_steps) or loosen the tolerances rtol/atol")]
    TooManySteps {
        /// Limit.
        max_steps: usize,
        /// Time reached.
        t: f64,
    },
    /// A non-finite value appeared.
    #[error("non-finite state at t = {t:.6e} (component {index}); the step is unstable or the model is ill-posed")]
    NonFinite {
        /// Time.
        t: f64,
        /// First non-finite component.
        index: usize,
    },
    /// An input signal evaluated to NaN or infinity.
    #[error("input {index} is not finite at t = {t:.6e} ({value}); check the signal expression (overflow, division by zero, or a sign: `-x^2` means -(x^2))")]
    NonFiniteInput {
        /// Time.
        t: f64,
        /// Input component (in port order).
        index: usize,
        /// The value.
        value: f64,
    },
    /// Invalid parameter; the message states the inequality that failed.
    #[error("invalid parameter: {0}")]
    Parameter(String),
    /// An eigenvalue computation failed.
    #[error("eigenvalue computation failed: {0}")]
    Eigen(String),
    /// A scheme that needs a partitioned lossless structure (Störmer–Verlet:
    /// $J = [[0, J_{12}], [J_{21}, 0]]$, $R = 0$, block-diagonal $E$) got a system without it.
    #[error("the system is not partitioned as required: block {block} has |entries|_max = {max_abs:.3e} > {tol:.3e}; Störmer–Verlet needs E and J block-structured ([[M1, 0], [0, M2]], [[0, D], [-D^T, 0]]) and R = 0; use the midpoint rule otherwise")]
    NotPartitioned {
        /// The offending block, e.g. `"J[e1, e1]"` or `"R"`.
        block: String,
        /// Its largest absolute entry.
        max_abs: f64,
        /// Tolerance used (relative to the largest entry of J).
        tol: f64,
    },
    /// An integrator does not apply to the system (or to the options given), e.g.
    /// Störmer–Verlet on a system that is not linear, a drift projection without
    /// constraints, a drift projection with Radau IIA.
    #[error("integrator {integrator} does not apply: {reason}")]
    NotApplicable {
        /// The integrator's name (`"midpoint"`, `"gauss"`, `"radau5"`, ...).
        integrator: String,
        /// Why, and what to use instead.
        reason: String,
    },
    /// The drift projection after a step failed for a reason other than convergence.
    #[error("drift projection failed at t = {t:.6e}: {detail}; switch the projection off or reduce the time step")]
    Projection {
        /// Time of the step.
        t: f64,
        /// What the model reported.
        detail: String,
    },
    /// Dimension mismatch between the problem and the data given.
    #[error("dimension mismatch: {0}")]
    Dimension(String),
}
