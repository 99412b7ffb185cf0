//! What every integrator returns ([`IntegrationRun`]) and the bookkeeping they share: the
//! energy ledger accumulated step by step ([`LedgerBlock`]), input and state checks, the
//! mask of algebraic variables, and the drift projection after a step ([`Projector`]).
use phlex_core::diagnostics::EnergyLedger;
use phlex_core::system::{PhSystem, ProjectionOptions, ProjectionStats};
use phlex_core::{CoreError, PortSet, VarKind};

use crate::signal::InputFn;
use crate::{SolveError, SolverStats};

/// How the [`EnergyLedger`] of a run was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LedgerKind {
    /// Accumulated step by step from the scheme's own port powers and dissipation (the
    /// midpoint values for the midpoint rule, discrete gradient and Störmer–Verlet, the
    /// Gauss-weighted stage values for collocation). Its residual is the scheme's discrete
    /// power balance: round-off / Newton tolerance for the midpoint rule on a quadratic
    /// $H$, for the discrete gradient on any $H$, and for Gauss collocation on a quadratic
    /// $H$; the $O(h^2)$ energy error of Störmer–Verlet.
    PerStep,
    /// Reconstructed from the output samples by trapezoidal quadrature of the port powers
    /// and the dissipation (Radau IIA, whose steps do not carry a discrete power balance);
    /// its residual measures the quadrature error as much as the integrator's.
    Sampled,
    /// $H$ at the output times only: the port powers and the dissipation were not
    /// evaluated (Gauss collocation without
    /// [`crate::integrators::gauss::GaussParams::power_balance`]); the residual is then just
    /// the change of $H$.
    HamiltonianOnly,
}

/// The result of a time integration: final state, work counters, energy account,
/// constraint drift and projection statistics.
#[derive(Debug, Clone)]
pub struct IntegrationRun {
    /// Final time.
    pub t: f64,
    /// Final state.
    pub state: Vec<f64>,
    /// Work counters.
    pub stats: SolverStats,
    /// Energy account at the output times ($t_0$ included); the step residuals between two
    /// samples are summed into the sample's residual.
    pub ledger: EnergyLedger,
    /// How [`IntegrationRun::ledger`] was obtained.
    pub ledger_kind: LedgerKind,
    /// Largest discrete power-balance residual of a single step,
    /// $|H_1 - H_0 - h(\bar y^\top\bar u - \bar z^\top R\bar z)|$ \[J\], taken before any
    /// projection (`None` for Radau IIA, and for Gauss collocation without
    /// [`crate::integrators::gauss::GaussParams::power_balance`]).
    pub max_step_residual: Option<f64>,
    /// Largest position-level constraint drift ([`PhSystem::max_position_drift`]) at the
    /// initial state and the output times (after projection, if switched on).
    pub max_drift: f64,
    /// Statistics of the drift projection, if it was switched on.
    pub projection: Option<ProjectionStats>,
}

/// Accumulates step powers between two ledger samples.
#[derive(Debug, Clone)]
pub(crate) struct LedgerBlock {
    h: f64,
    work: Vec<f64>,
    diss: f64,
    avg: Vec<f64>,
}

impl LedgerBlock {
    /// An empty block for `n_ports` ports.
    pub(crate) fn new(n_ports: usize) -> Self {
        Self {
            h: 0.0,
            work: vec![0.0; n_ports],
            diss: 0.0,
            avg: vec![0.0; n_ports],
        }
    }

    /// Adds a step of length `h` with per-port powers `powers` and dissipation rate `diss`.
    pub(crate) fn add(&mut self, h: f64, powers: &[f64], diss: f64) {
        self.h += h;
        for (w, p) in self.work.iter_mut().zip(powers) {
            *w += h * p;
        }
        self.diss += h * diss;
    }

    /// Writes the accumulated steps as one ledger entry ending at `t` with $H = $ `H`.
    pub(crate) fn flush(&mut self, ledger: &mut EnergyLedger, t: f64, H: f64) {
        for (a, w) in self.avg.iter_mut().zip(&self.work) {
            *a = w / self.h;
        }
        ledger.push_step(t, H, self.h, &self.avg, self.diss / self.h);
        self.h = 0.0;
        self.work.iter_mut().for_each(|w| *w = 0.0);
        self.diss = 0.0;
    }
}

/// Per-port powers $y_p^\top u_p$ into `out`.
pub(crate) fn port_powers_into(
    ranges: &[std::ops::Range<usize>],
    y: &[f64],
    u: &[f64],
    out: &mut [f64],
) {
    for (p, r) in out.iter_mut().zip(ranges) {
        *p = r.clone().map(|k| y[k] * u[k]).sum();
    }
}

/// [`SolveError::Dimension`] unless the input has the `m` components of the ports.
pub(crate) fn check_input(ports: &PortSet, m: usize, input: &InputFn) -> Result<(), SolveError> {
    if input.dim() != m {
        return Err(SolveError::Dimension(format!(
            "input has {} components but the system has {m} inputs (ports: {})",
            input.dim(),
            ports.names().join(", ")
        )));
    }
    Ok(())
}

/// [`SolveError::Dimension`] / [`SolveError::NonFinite`] unless `x` is a finite state of
/// length `n`.
pub(crate) fn check_state(what: &str, x: &[f64], n: usize) -> Result<(), SolveError> {
    if x.len() != n {
        return Err(SolveError::Dimension(format!(
            "{what} has length {}, the system has {n} states",
            x.len()
        )));
    }
    if let Some(i) = x.iter().position(|v| !v.is_finite()) {
        return Err(SolveError::NonFinite {
            t: f64::NAN,
            index: i,
        });
    }
    Ok(())
}

/// [`SolveError::NonFiniteInput`] for the first non-finite input component.
pub(crate) fn finite_input(t: f64, u: &[f64]) -> Result<(), SolveError> {
    match u.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(index) => Err(SolveError::NonFiniteInput {
            t,
            index,
            value: u[index],
        }),
    }
}

/// True for the variables of algebraic blocks (Lagrange multipliers); errors if the
/// blocks do not cover the `n` states.
pub(crate) fn algebraic_mask<S: PhSystem + ?Sized>(sys: &S) -> Result<Vec<bool>, SolveError> {
    let n = sys.n_states();
    let mut algebraic = Vec::with_capacity(n);
    for b in sys.blocks() {
        let alg = matches!(b.kind, VarKind::Algebraic { .. });
        algebraic.extend(std::iter::repeat_n(alg, b.len));
    }
    if algebraic.len() != n {
        return Err(SolveError::Dimension(format!(
            "variable blocks cover {} states, the system has {n}",
            algebraic.len()
        )));
    }
    Ok(algebraic)
}

/// The drift projection of a one-step integrator: checks that the system has one,
/// projects after every step ([`PhSystem::project`]) and records the energy jumps.
#[derive(Debug, Clone)]
pub(crate) struct Projector {
    opts: ProjectionOptions,
    /// Input at the end of the step.
    u: Vec<f64>,
}

impl Projector {
    /// A projector with validated options for `sys`; [`SolveError::NotApplicable`] if the
    /// system has no projection.
    pub(crate) fn new<S: PhSystem + ?Sized>(
        sys: &S,
        opts: ProjectionOptions,
        integrator: &str,
    ) -> Result<Self, SolveError> {
        opts.validate()
            .map_err(|e| SolveError::Parameter(e.to_string()))?;
        if !sys.has_projection() {
            return Err(SolveError::NotApplicable {
                integrator: integrator.into(),
                reason: "drift projection was requested but the system has no position constraints to project onto (switch the projection off)".into(),
            });
        }
        Ok(Self {
            opts,
            u: vec![0.0; sys.n_inputs()],
        })
    }

    /// Projects `x`, the state at the end of a step at `t` with Hamiltonian `h_before`,
    /// records the projection in `stats` and returns the Hamiltonian after it. A projection
    /// that does not converge is [`SolveError::NewtonDiverged`] at time `t`.
    pub(crate) fn project<S: PhSystem + ?Sized>(
        &mut self,
        sys: &S,
        input: &InputFn,
        x: &mut [f64],
        t: f64,
        h_before: f64,
        stats: &mut ProjectionStats,
    ) -> Result<f64, SolveError> {
        input.eval_into(t, &mut self.u);
        let step = sys
            .project(x, &self.u, &self.opts)
            .map_err(|e| projection_error(e, t))?;
        let moved = step.iterations > 0 || self.opts.velocities;
        let h = if moved { sys.hamiltonian(x) } else { h_before };
        stats.record(&step, moved, h_before, h);
        Ok(h)
    }
}

/// Maps an error of [`PhSystem::project`] at time `t` to a [`SolveError`]: a projection that
/// did not converge is [`SolveError::NewtonDiverged`] with the time.
pub(crate) fn projection_error(e: CoreError, t: f64) -> SolveError {
    match e {
        CoreError::ProjectionNotConverged {
            iterations,
            residual,
            tol,
        } => SolveError::NewtonDiverged {
            t,
            iterations,
            residual,
            tol,
        },
        CoreError::Parameter(m) => SolveError::Parameter(m),
        CoreError::Dimension {
            what,
            expected,
            found,
        } => SolveError::Dimension(format!("{what}: expected {expected}, found {found}")),
        e => SolveError::Projection {
            t,
            detail: e.to_string(),
        },
    }
}
