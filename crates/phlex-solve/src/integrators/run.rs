//! What every integrator returns ([`IntegrationRun`]) and the bookkeeping they share: the
//! energy ledger accumulated step by step (`StepLedger`), the fixed-step time loop
//! (`run_fixed_steps`), input and state checks, the mask of algebraic variables, and the
//! drift projection after a step (`Projector`).
use phlex_core::diagnostics::EnergyLedger;
use phlex_core::system::{PhSystem, ProjectionOptions, ProjectionStats};
use phlex_core::{CoreError, PortSet, VarKind};

use crate::fixed_step::{FixedStepParams, Step, StepGrid};
use crate::problem::Observer;
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

/// What the fixed-step time loop ([`run_fixed_steps`]) leaves: the final time and state, the
/// energy account, the projection statistics and the largest constraint drift.
#[derive(Debug, Clone)]
pub(crate) struct FixedStepOutcome {
    t: f64,
    state: Vec<f64>,
    ledger: StepLedger,
    projection: Option<ProjectionStats>,
    max_drift: f64,
}

impl FixedStepOutcome {
    /// The run with the integrator's work counters `stats` (ledger accumulated per step).
    pub(crate) fn into_run(self, stats: SolverStats) -> IntegrationRun {
        let (ledger, max_step_residual) = self.ledger.finish();
        IntegrationRun {
            t: self.t,
            state: self.state,
            stats,
            ledger,
            ledger_kind: LedgerKind::PerStep,
            max_step_residual: Some(max_step_residual),
            max_drift: self.max_drift,
            projection: self.projection,
        }
    }
}

/// The time loop shared by the fixed-step one-step integrators: the grid of `span` split at
/// the input breakpoints ([`StepGrid`]), `advance` for every step (it moves `x` from
/// `step.ta` to `step.tb` and closes the step in the [`StepLedger`]), the drift projection
/// after every step (`projector`), and at the output times the ledger sample, the
/// constraint drift and the observer (also called at $t_0$).
pub(crate) fn run_fixed_steps<S, F>(
    sys: &S,
    input: &InputFn,
    span: &FixedStepParams,
    x0: &[f64],
    mut projector: Option<&mut Projector>,
    obs: &mut dyn Observer,
    mut advance: F,
) -> Result<FixedStepOutcome, SolveError>
where
    S: PhSystem + ?Sized,
    F: FnMut(&Step, &mut [f64], &mut StepLedger) -> Result<(), SolveError>,
{
    check_state("initial state", x0, sys.n_states())?;
    let mut grid = StepGrid::new(span, &input.breakpoints());
    let mut x = x0.to_vec();
    let mut ledger = StepLedger::new(sys, span.t0, x0);
    let mut projection = projector.as_ref().map(|_| ProjectionStats::default());
    let mut max_drift = sys.max_position_drift(x0);
    obs.observe(span.t0, &x);
    let mut t = span.t0;
    while let Some(step) = grid.next() {
        advance(&step, &mut x, &mut ledger)?;
        t = step.tb;
        if let (Some(pr), Some(ps)) = (projector.as_deref_mut(), projection.as_mut()) {
            let h = ledger.start_energy();
            ledger.restart_energy(pr.project(sys, input, &mut x, t, h, ps)?);
        }
        if matches!(step.grid_index, Some(k) if grid.is_output(k)) {
            ledger.output(t);
            max_drift = max_drift.max(sys.max_position_drift(&x));
            obs.observe(t, &x);
        }
    }
    Ok(FixedStepOutcome {
        t,
        state: x,
        ledger,
        projection,
        max_drift,
    })
}

/// `Debug` of an integrator: its name, settings and number of states.
pub(crate) fn debug_integrator(
    f: &mut std::fmt::Formatter<'_>,
    name: &str,
    settings: &dyn std::fmt::Debug,
    n: usize,
) -> std::fmt::Result {
    f.debug_struct(name)
        .field("settings", settings)
        .field("n", &n)
        .finish()
}

/// The energy account of a one-step integrator, kept step by step: the per-port powers and
/// the dissipation of each step go into the [`EnergyLedger`] (summed between two output
/// samples), and the step's discrete power balance
/// $r = H_1 - H_0 - h(\sum_p \bar P_p - \bar D)$ into the largest step residual.
#[derive(Debug, Clone)]
pub(crate) struct StepLedger {
    ledger: EnergyLedger,
    ranges: Vec<std::ops::Range<usize>>,
    /// Per-port powers of the current step.
    pub powers: Vec<f64>,
    /// Accumulated steps since the last sample: length, work per port, dissipation.
    h: f64,
    work: Vec<f64>,
    diss: f64,
    /// $H$ at the start of the current step.
    h_start: f64,
    max_res: f64,
}

impl StepLedger {
    /// An account starting at `t0` in state `x0`.
    pub(crate) fn new<S: PhSystem + ?Sized>(sys: &S, t0: f64, x0: &[f64]) -> Self {
        let h_start = sys.hamiltonian(x0);
        let n = sys.ports().len();
        Self {
            ledger: EnergyLedger::new(sys.ports(), t0, h_start),
            ranges: sys.ports().ranges(),
            powers: vec![0.0; n],
            h: 0.0,
            work: vec![0.0; n],
            diss: 0.0,
            h_start,
            max_res: 0.0,
        }
    }

    /// $H$ at the start of the current step.
    pub(crate) fn start_energy(&self) -> f64 {
        self.h_start
    }

    /// Sets the per-port powers of the step from the output `y` and the input `u`.
    pub(crate) fn set_powers(&mut self, y: &[f64], u: &[f64]) {
        port_powers_into(&self.ranges, y, u, &mut self.powers);
    }

    /// Adds the step of length `h` with the current powers and the dissipation rate `diss`.
    pub(crate) fn add_step(&mut self, h: f64, diss: f64) {
        self.h += h;
        for (w, p) in self.work.iter_mut().zip(&self.powers) {
            *w += h * p;
        }
        self.diss += h * diss;
    }

    /// Adds the step ([`StepLedger::add_step`]) and its balance against $H_1$ = `h_end`,
    /// with the energy supplied by the scheme $h(\sum_p P_p - D)$.
    pub(crate) fn close_step(&mut self, h: f64, diss: f64, h_end: f64) {
        let inflow = h * (self.powers.iter().sum::<f64>() - diss);
        self.close_step_with(h, diss, h_end, inflow);
    }

    /// [`StepLedger::close_step`] with the supplied energy `inflow` computed by the scheme.
    pub(crate) fn close_step_with(&mut self, h: f64, diss: f64, h_end: f64, inflow: f64) {
        self.add_step(h, diss);
        self.max_res = self.max_res.max((h_end - self.h_start - inflow).abs());
        self.h_start = h_end;
    }

    /// Sets $H$ of the current state (after a projection, or where no balance is taken).
    pub(crate) fn restart_energy(&mut self, h: f64) {
        self.h_start = h;
    }

    /// Writes the steps since the last sample as one ledger entry ending at `t`, with $H$
    /// of the current state.
    pub(crate) fn output(&mut self, t: f64) {
        let avg: Vec<f64> = self.work.iter().map(|w| w / self.h).collect();
        self.ledger
            .push_step(t, self.h_start, self.h, &avg, self.diss / self.h);
        self.h = 0.0;
        self.work.iter_mut().for_each(|w| *w = 0.0);
        self.diss = 0.0;
    }

    /// The ledger and the largest step residual.
    pub(crate) fn finish(self) -> (EnergyLedger, f64) {
        (self.ledger, self.max_res)
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
