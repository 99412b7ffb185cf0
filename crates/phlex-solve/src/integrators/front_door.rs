//! The one front door of the time integrators: an [`Integrator`] (which method, with its
//! settings) and [`integrate`], which runs it on any [`PhSystem`] over a
//! [`FixedStepParams`] span and returns an [`IntegrationRun`] (final state, work counters,
//! energy ledger, per-step power-balance residual, constraint drift, projection
//! statistics).
//!
//! | integrator | method | energy ledger | applies to |
//! |---|---|---|---|
//! | `midpoint` | implicit midpoint rule, Newton on the exact Jacobian; linear fast path (one LU) for [`PhSystem::is_linear`] without projection | per step, exact for quadratic $H$ | every system |
//! | `discrete_gradient` | midpoint scheme with the discrete gradient | per step, exact for any $H$ | every system |
//! | `gauss` | Gauss–Legendre collocation, $s$ stages (order $2s$), step halving | per step, exact for quadratic $H$ | every system |
//! | `radau5` | adaptive Radau IIA, order 5 | sampled (trapezoidal) | every system (no projection) |
//! | `stormer_verlet` | explicit, symplectic | per step, $O(h^2)$ energy error | linear, lossless, two-field systems |
//!
//! Fixed-step integrators take steps of `span.h` (split at input breakpoints); Radau IIA
//! chooses its own steps and reports at the same times as a fixed-step run would:
//! $t_0$, every `output_every`-th grid point $t_0 + kh$, and $t_{end}$
//! ([`FixedStepParams::output_times`]).
use phlex_core::diagnostics::{port_powers, EnergyLedger};
use phlex_core::sparse;
use phlex_core::system::{PhSystem, ProjectionOptions};

use crate::fixed_step::FixedStepParams;
use crate::integrators::gauss::{GaussCollocation, GaussParams};
use crate::integrators::midpoint::{LinearMidpoint, Midpoint, MidpointParams, MidpointVariant};
use crate::integrators::ph_dae::PhDae;
use crate::integrators::radau5::{OutputTimes, Radau5, Radau5Params};
use crate::integrators::run::{IntegrationRun, LedgerKind};
use crate::integrators::stormer_verlet::StormerVerlet;
use crate::newton::NewtonParams;
use crate::problem::Observer;
use crate::signal::InputFn;
use crate::SolveError;

/// Which integrator a run uses, with the settings of the method (the time span is given
/// separately, [`FixedStepParams`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Integrator {
    /// Implicit midpoint rule, $\bar z = z(x_m)$, with the Newton settings of the step
    /// equations ([`crate::integrators::midpoint`]).
    Midpoint(NewtonParams),
    /// Midpoint scheme with the discrete gradient ([`PhSystem::discrete_gradient`]): exact
    /// discrete power balance for any Hamiltonian.
    DiscreteGradient(NewtonParams),
    /// Gauss–Legendre collocation ([`crate::integrators::gauss`]).
    Gauss(GaussParams),
    /// Adaptive Radau IIA of order 5 ([`crate::integrators::radau5`]): tolerances
    /// `rtol`/`atol`, initial step `h0`, step limit `max_steps`, ...
    Radau5(Radau5Params),
    /// Störmer–Verlet ([`crate::integrators::stormer_verlet`]): linear lossless two-field
    /// systems only.
    StormerVerlet,
}

impl Integrator {
    /// The names accepted by [`Integrator::from_name`].
    pub const NAMES: [&'static str; 5] = [
        "midpoint",
        "discrete_gradient",
        "gauss",
        "radau5",
        "stormer_verlet",
    ];

    /// The integrator called `name` with default settings (Newton
    /// [`NewtonParams::default`], Gauss [`GaussParams::default`], Radau
    /// [`Radau5Params::default`]); an unknown name is [`SolveError::Parameter`] listing the
    /// known ones.
    pub fn from_name(name: &str) -> Result<Self, SolveError> {
        Ok(match name {
            "midpoint" => Self::Midpoint(NewtonParams::default()),
            "discrete_gradient" => Self::DiscreteGradient(NewtonParams::default()),
            "gauss" => Self::Gauss(GaussParams::default()),
            "radau5" => Self::Radau5(Radau5Params::default()),
            "stormer_verlet" => Self::StormerVerlet,
            _ => {
                return Err(SolveError::Parameter(format!(
                    "unknown integrator '{name}'; known integrators: {}",
                    Self::NAMES.join(", ")
                )))
            }
        })
    }

    /// Gauss collocation with `stages` stages and default settings otherwise.
    pub fn gauss(stages: usize) -> Self {
        Self::Gauss(GaussParams {
            stages,
            ..Default::default()
        })
    }

    /// Radau IIA with the tolerances `rtol`, `atol` and default settings otherwise.
    pub fn radau5(rtol: f64, atol: f64) -> Self {
        Self::Radau5(Radau5Params::with_tolerances(rtol, atol))
    }

    /// The name of the integrator (one of [`Integrator::NAMES`]).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Midpoint(_) => "midpoint",
            Self::DiscreteGradient(_) => "discrete_gradient",
            Self::Gauss(_) => "gauss",
            Self::Radau5(_) => "radau5",
            Self::StormerVerlet => "stormer_verlet",
        }
    }

    /// True for the one-step methods with a fixed step (all but Radau IIA).
    pub fn is_fixed_step(&self) -> bool {
        !matches!(self, Self::Radau5(_))
    }

    /// Checks the settings; the message states the inequality that failed.
    pub fn validate(&self) -> Result<(), SolveError> {
        match self {
            Self::Midpoint(n) | Self::DiscreteGradient(n) => n.validate(),
            Self::Gauss(g) => g.validate(),
            Self::Radau5(r) => r.validate(),
            Self::StormerVerlet => Ok(()),
        }
    }
}

/// Integrates `sys` from `x0` over `span` with `integrator`, input `input`, and the drift
/// projection `projection` after every step (one-step integrators only), calling `obs` at
/// $t_0$ and at every output time.
///
/// The midpoint rule on a linear system ([`PhSystem::is_linear`]) without projection takes
/// the linear fast path ([`LinearMidpoint`]: one factorization for the whole run);
/// otherwise [`Midpoint`] (Newton on the exact Jacobian). Radau IIA returns a sampled
/// ledger ([`LedgerKind::Sampled`]).
///
/// Errors: invalid settings ([`SolveError::Parameter`]), an integrator that does not apply
/// ([`SolveError::NotApplicable`]: Störmer–Verlet on a system that is not linear and
/// lossless, a projection with Radau IIA or Störmer–Verlet, a projection for a system
/// without constraints), and the numerical failures of the integrator.
pub fn integrate<S: PhSystem + ?Sized>(
    sys: &S,
    x0: &[f64],
    input: InputFn,
    integrator: &Integrator,
    span: FixedStepParams,
    projection: Option<ProjectionOptions>,
    obs: &mut dyn Observer,
) -> Result<IntegrationRun, SolveError> {
    integrator.validate()?;
    span.validate()?;
    let no_projection = |why: &str| -> Result<(), SolveError> {
        match projection {
            Some(_) => Err(SolveError::NotApplicable {
                integrator: integrator.name().into(),
                reason: format!("drift projection applies to the one-step integrators midpoint, discrete_gradient and gauss; {why}"),
            }),
            None => Ok(()),
        }
    };
    match integrator {
        Integrator::Midpoint(newton) | Integrator::DiscreteGradient(newton) => {
            let variant = if matches!(integrator, Integrator::Midpoint(_)) {
                MidpointVariant::Midpoint
            } else {
                MidpointVariant::DiscreteGradient
            };
            let params = MidpointParams {
                step: span,
                newton: *newton,
                variant,
            };
            if sys.is_linear() && projection.is_none() {
                return LinearMidpoint::new(sys, input, params)?.run(x0, obs);
            }
            let mut m = Midpoint::new(sys, input, params)?;
            if let Some(p) = projection {
                m = m.with_projection(p)?;
            }
            m.run(x0, obs)
        }
        Integrator::Gauss(g) => {
            let mut c = GaussCollocation::new(sys, input, span, *g)?;
            if let Some(p) = projection {
                c = c.with_projection(p)?;
            }
            c.run(x0, obs)
        }
        Integrator::Radau5(r) => {
            no_projection("Radau IIA controls the drift by its tolerances rtol/atol")?;
            radau5_sampled(sys, x0, input, r, span, obs)
        }
        Integrator::StormerVerlet => {
            no_projection("Störmer–Verlet runs on systems without constraints")?;
            StormerVerlet::new(sys, input, span)?.run(x0, obs)
        }
    }
}

/// Radau IIA through [`PhDae`], observed at [`FixedStepParams::output_times`], with the
/// energy ledger reconstructed from the samples by trapezoidal quadrature of the port
/// powers $y^\top u$ ($y = B(x)^\top z(x)$) and the dissipation $z^\top R(x) z$.
fn radau5_sampled<S: PhSystem + ?Sized>(
    sys: &S,
    x0: &[f64],
    input: InputFn,
    params: &Radau5Params,
    span: FixedStepParams,
    obs: &mut dyn Observer,
) -> Result<IntegrationRun, SolveError> {
    let dae = PhDae::new(sys, input.clone())?;
    let times = span.output_times();
    let ports = sys.ports();
    let mut z = vec![0.0; sys.n_states()];
    let mut ledger: Option<EnergyLedger> = None;
    let mut previous: Option<(f64, Vec<f64>, f64)> = None;
    let mut max_drift = 0.0f64;
    let mut sample = |t: f64, x: &[f64]| {
        let u = input.eval(t);
        sys.effort(x, &mut z);
        let y = sys.output(x, &z);
        let p = port_powers(ports, &y, &u);
        let d = sparse::bilinear(&z, &sys.dissipation(x), &z);
        let H = sys.hamiltonian(x);
        match (&mut ledger, &previous) {
            (Some(l), Some((t0, p0, d0))) => {
                let avg: Vec<f64> = p0.iter().zip(&p).map(|(a, c)| 0.5 * (a + c)).collect();
                l.push_step(t, H, t - t0, &avg, 0.5 * (d0 + d));
            }
            _ => ledger = Some(EnergyLedger::new(ports, t, H)),
        }
        previous = Some((t, p, d));
        max_drift = max_drift.max(sys.max_position_drift(x));
        obs.observe(t, x);
    };
    let sol = Radau5::new(params.clone())?.integrate(
        &dae,
        span.t0,
        x0,
        span.t_end,
        OutputTimes::Grid(&times),
        &mut sample,
    )?;
    let ledger = ledger.unwrap_or_else(|| EnergyLedger::new(ports, span.t0, sys.hamiltonian(x0)));
    Ok(IntegrationRun {
        t: sol.t,
        state: sol.y,
        stats: sol.stats,
        ledger,
        ledger_kind: LedgerKind::Sampled,
        max_step_residual: None,
        max_drift,
        projection: None,
    })
}
