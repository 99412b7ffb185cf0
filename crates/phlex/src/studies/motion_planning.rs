//! Euler–Bernoulli motion planning with mixed boundary conditions (thesis 004 §8.2.1,
//! Table 8.3; summary §5.4 with the corrected inputs).
//!
//! $\partial_{tt}w + \partial_{xxxx}w = 0$ on $(0, 1)$ (unit coefficients), free end at
//! $x = 0$, velocity controls at $x = 1$. The reference trajectory
//! $$w^r(x, t) = \tfrac12\big[\cosh(\sqrt\omega x) + \cos(\sqrt\omega x)\big]\sin\omega t$$
//! solves the PDE, satisfies the free-end conditions $\partial_{xx}w^r(0) =
//! \partial_{xxx}w^r(0) = 0$ and has $w^r(0, t) = \sin\omega t$. The controls are its
//! velocities at $x = 1$ (the summary's corrected form, with $\sqrt\omega$ inside the
//! hyperbolic/trigonometric functions and the extra $\sqrt\omega$ of $\partial_x$):
//! $$u_D^1 = \tfrac12[\cosh\sqrt\omega + \cos\sqrt\omega]\,\omega\cos\omega t,\qquad
//!   u_D^2 = \tfrac12\sqrt\omega[\sinh\sqrt\omega - \sin\sqrt\omega]\,\omega\cos\omega t.$$
//! The initial state is the reference at $t = 0$: $e_w = \partial_t w^r(\cdot, 0)$
//! ($L^2$-projected), $e_\kappa = \partial_{xx}w^r(\cdot, 0) = 0$. The free-end displacement
//! is recovered from the computed velocity $e_w(0, t)$ by the trapezoidal rule on the output
//! grid (as the thesis does) and compared with $\sin\omega t$. The collocated outputs at the
//! free end (the summary's $y_N$: velocity $\omega\cos\omega t$, angular velocity $0$) are
//! checked as well.
//!
//! Three formulations ([`Formulation`]), 6 elements each:
//!
//! * **DAE, free-end multipliers** (thesis §6.2.1 and its script): DG1Her on $[0, 1]$
//!   (velocity inputs are natural), the free end imposed by Lagrange multipliers
//!   (`Imposition::Multiplier`): the multipliers are the free-end velocities, the
//!   constraint is zero force and moment.
//! * **DAE, controlled-end multipliers**: HerDG1 on $[0, 1]$ (the free end is natural), the
//!   prescribed velocities at $x = 1$ imposed by multipliers (the reactions).
//!
//!   Both are index-2 pHDAEs, integrated with [`Radau5`] (the thesis uses IDA) and with the
//!   implicit midpoint rule. The initial state is made consistent with the velocity
//!   constraints and the multipliers follow from the hidden constraint
//!   ([`consistent_initial_state`]).
//! * **ODE** (thesis §6.2.2): virtual domain decomposition at $x = 1/2$, HerDG1 on the free
//!   part, DG1Her on the controlled part, gyrator coupling ([`EbDecomposition`]); integrated
//!   with [`Radau5`] (the thesis uses RK45) and the midpoint rule.
use phlex_core::LinearPhSystem;
use phlex_fem::models::beam::decomposition::EbDecomposition;
use phlex_fem::models::beam::euler_bernoulli::{EbDiscretization, EulerBernoulli};
use phlex_fem::{Component, End, EndCondition, Field, Imposition, PfemModel, Quantity, SparseVec};
use phlex_solve::consistent::consistent_initial_state;
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::radau5::OutputTimes;
use phlex_solve::{InputFn, PhDae, Radau5, Radau5Params, Signal, SolverStats};
use serde::Serialize;

use super::error::{require_positive, StudyError};

/// Spatial formulation of the mixed boundary conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Formulation {
    /// DG1Her on $[0, 1]$ (velocity inputs natural), the **free end** imposed by Lagrange
    /// multipliers (zero force and moment; the multipliers are the free-end velocities) —
    /// the thesis's DAE (summary §5.4: "Lagrange multiplier for the Neumann end, DG1×Her").
    DaeFreeEnd,
    /// HerDG1 on $[0, 1]$ (force inputs natural, so the free end is natural), the
    /// **velocity-controlled end** imposed by Lagrange multipliers (the multipliers are the
    /// reactions at $x = 1$).
    DaeControlledEnd,
    /// Virtual domain decomposition at $x = 1/2$: HerDG1 on the free part, DG1Her on the
    /// controlled part, gyrator coupling — a pH ODE.
    OdeDecomposition,
}

/// Time integrator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Integrator {
    /// Adaptive Radau IIA of order 5 ([`Radau5`]).
    Radau5,
    /// Implicit midpoint rule ([`LinearMidpoint`]) with the output step.
    Midpoint,
}

/// Formulation and time integrator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct MotionPlanningMethod {
    /// Spatial formulation.
    pub formulation: Formulation,
    /// Time integrator.
    pub integrator: Integrator,
}

impl MotionPlanningMethod {
    /// Every formulation with every integrator.
    pub const ALL: [MotionPlanningMethod; 6] = [
        Self::new(Formulation::DaeFreeEnd, Integrator::Radau5),
        Self::new(Formulation::DaeFreeEnd, Integrator::Midpoint),
        Self::new(Formulation::DaeControlledEnd, Integrator::Radau5),
        Self::new(Formulation::DaeControlledEnd, Integrator::Midpoint),
        Self::new(Formulation::OdeDecomposition, Integrator::Radau5),
        Self::new(Formulation::OdeDecomposition, Integrator::Midpoint),
    ];
    /// A method.
    pub const fn new(formulation: Formulation, integrator: Integrator) -> Self {
        Self {
            formulation,
            integrator,
        }
    }
    /// Short label, e.g. `"DAE free-end multipliers, Radau5"`.
    pub fn label(&self) -> String {
        let f = match self.formulation {
            Formulation::DaeFreeEnd => "DAE free-end multipliers",
            Formulation::DaeControlledEnd => "DAE controlled-end multipliers",
            Formulation::OdeDecomposition => "ODE decomposition",
        };
        let i = match self.integrator {
            Integrator::Radau5 => "Radau5",
            Integrator::Midpoint => "midpoint",
        };
        format!("{f}, {i}")
    }
    fn is_midpoint(&self) -> bool {
        self.integrator == Integrator::Midpoint
    }
}

/// Which boundary controls are applied at $x = 1$.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Controls {
    /// The velocities of the reference (summary §5.4, corrected):
    /// $\frac12[\cosh\sqrt\omega + \cos\sqrt\omega]\,\omega\cos\omega t$ and
    /// $\frac12\sqrt\omega[\sinh\sqrt\omega - \sin\sqrt\omega]\,\omega\cos\omega t$.
    #[default]
    Corrected,
    /// The formulas as printed in thesis §8.2.1 (erratum): $\omega$ instead of $\sqrt\omega$
    /// inside cosh/cos/sinh/sin and no $\sqrt\omega$ factor in $u_D^2$:
    /// $\frac12[\cosh\omega + \cos\omega]\,\omega\cos\omega t$,
    /// $\frac12[\sinh\omega - \sin\omega]\,\omega\cos\omega t$. Kept to show that the
    /// correction matters (the free end then misses $\sin\omega t$ by far).
    AsPrinted,
}

/// Settings (defaults: thesis §8.2.1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MotionPlanningSetup {
    /// Reference frequency $\omega$ [rad/s] (thesis: 4).
    pub omega: f64,
    /// Number of elements (thesis: 6; the ODE version splits them evenly, so it must be
    /// even).
    pub n_elements: usize,
    /// Final time \[s\] (thesis: 1).
    pub t_end: f64,
    /// Output intervals on $[0, t_{end}]$ (uniform grid for the trapezoidal rule); also the
    /// number of midpoint steps.
    pub n_intervals: usize,
    /// Relative tolerance of Radau5.
    pub rtol: f64,
    /// Absolute tolerance of Radau5.
    pub atol: f64,
    /// Boundary controls.
    pub controls: Controls,
}

impl Default for MotionPlanningSetup {
    fn default() -> Self {
        Self {
            omega: 4.0,
            n_elements: 6,
            t_end: 1.0,
            n_intervals: 1000,
            rtol: 1e-8,
            atol: 1e-8,
            controls: Controls::Corrected,
        }
    }
}

impl MotionPlanningSetup {
    fn validate(&self) -> Result<(), StudyError> {
        require_positive("omega", self.omega)?;
        require_positive("t_end", self.t_end)?;
        require_positive("rtol", self.rtol)?;
        require_positive("atol", self.atol)?;
        if self.n_elements < 2 || self.n_elements & 1 == 1 {
            return Err(StudyError::Parameter {
                name: "n_elements".into(),
                value: self.n_elements as f64,
                requirement:
                    "n_elements even and >= 2 (the ODE version splits the beam at x = 1/2)".into(),
            });
        }
        if self.n_intervals < 2 {
            return Err(StudyError::Parameter {
                name: "n_intervals".into(),
                value: self.n_intervals as f64,
                requirement: "n_intervals >= 2".into(),
            });
        }
        Ok(())
    }

    /// $w^r(x, t)$.
    pub fn reference_displacement(&self, x: f64, t: f64) -> f64 {
        let a = self.omega.sqrt();
        0.5 * ((a * x).cosh() + (a * x).cos()) * (self.omega * t).sin()
    }

    /// $\partial_t w^r(x, t)$.
    pub fn reference_velocity(&self, x: f64, t: f64) -> f64 {
        let a = self.omega.sqrt();
        0.5 * ((a * x).cosh() + (a * x).cos()) * self.omega * (self.omega * t).cos()
    }

    /// The controls $(u_D^1, u_D^2)(t)$ at $x = 1$: velocity and angular velocity of
    /// $w^r$ for [`Controls::Corrected`].
    pub fn controls(&self, t: f64) -> [f64; 2] {
        let w = self.omega;
        let c = w * (w * t).cos();
        match self.controls {
            Controls::Corrected => {
                let a = w.sqrt();
                [
                    0.5 * (a.cosh() + a.cos()) * c,
                    0.5 * a * (a.sinh() - a.sin()) * c,
                ]
            }
            Controls::AsPrinted => [
                0.5 * (w.cosh() + w.cos()) * c,
                0.5 * (w.sinh() - w.sin()) * c,
            ],
        }
    }
}

/// Result of one formulation/integrator.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MotionPlanningRun {
    /// The method.
    pub method: MotionPlanningMethod,
    /// Name of the discretized model.
    pub model: String,
    /// Number of states (including multipliers).
    pub n_states: usize,
    /// Output grid $t_k$ \[s\].
    pub t: Vec<f64>,
    /// Free-end velocity $e_w(0, t_k)$ from the velocity field [m/s].
    pub velocity: Vec<f64>,
    /// Free-end displacement by the trapezoidal rule \[m\].
    pub displacement: Vec<f64>,
    /// $\max_k |w(0, t_k) - \sin\omega t_k|$ \[m\] (the amplitude is 1 m).
    pub max_displacement_error: f64,
    /// $\max_k |e_w(0, t_k) - \omega\cos\omega t_k|$ [m/s] (amplitude $\omega$).
    pub max_velocity_error: f64,
    /// Free-end outputs $y_N$ = (velocity, angular velocity): the port "left" for the DAEs
    /// (multipliers for [`Formulation::DaeFreeEnd`], midpoint values at
    /// $t_k - \Delta t/2$ with the midpoint rule; natural outputs for
    /// [`Formulation::DaeControlledEnd`]), probes of the HerDG1 part for the ODE.
    pub free_end_outputs: Vec<[f64; 2]>,
    /// Times the outputs refer to \[s\].
    pub output_times: Vec<f64>,
    /// $\max_k |y_N - (\omega\cos\omega t, 0)|$ per component.
    pub max_output_errors: [f64; 2],
    /// Work counters (not serialized).
    #[serde(skip)]
    pub stats: SolverStats,
}

/// The system input built from the end-port descriptions: controls at the right end,
/// homogeneous data elsewhere.
fn build_input(model: &PfemModel, setup: &MotionPlanningSetup) -> Result<InputFn, StudyError> {
    let sys = model.system();
    let mut signals = Vec::with_capacity(sys.n_inputs());
    for p in sys.ports.iter() {
        let ep = model
            .end_ports()
            .iter()
            .find(|e| e.port == p.name)
            .ok_or_else(|| StudyError::Model {
                model: model.name().into(),
                reason: format!("port '{}' is not an end port", p.name),
            })?;
        for &(c, q) in &ep.inputs {
            if ep.end == End::Right && q == Quantity::Velocity {
                let s = *setup;
                let idx = match c {
                    Component::Translation => 0,
                    Component::Rotation => 1,
                };
                signals.push(Signal::from_fn(move |t| s.controls(t)[idx]));
            } else if ep.end == End::Left && q == Quantity::Force {
                // Free end: zero force and moment (natural inputs or multiplier data).
                signals.push(Signal::Constant(0.0));
            } else {
                return Err(StudyError::Model {
                    model: model.name().into(),
                    reason: format!(
                        "unexpected input {:?}/{:?} at the {} end",
                        c,
                        q,
                        ep.end.name()
                    ),
                });
            }
        }
    }
    Ok(InputFn::new(signals))
}

/// Builds the model of a method.
pub fn motion_planning_model(
    method: MotionPlanningMethod,
    setup: &MotionPlanningSetup,
) -> Result<PfemModel, StudyError> {
    setup.validate()?;
    let n = setup.n_elements;
    Ok(match method.formulation {
        Formulation::DaeFreeEnd => EulerBernoulli::new(1.0, 1.0, 1.0, n)
            .discretization(EbDiscretization::Dg1Her)
            .ends(EndCondition::Free, EndCondition::Port)
            .imposition(Imposition::Multiplier)
            .build()?,
        // `Clamped` with multipliers: the port "right" prescribes both velocities (the
        // controls) through multipliers; the free end keeps its natural (zero) force port.
        Formulation::DaeControlledEnd => EulerBernoulli::new(1.0, 1.0, 1.0, n)
            .discretization(EbDiscretization::HerDg1)
            .ends(EndCondition::Free, EndCondition::Clamped)
            .imposition(Imposition::Multiplier)
            .build()?,
        Formulation::OdeDecomposition => EbDecomposition::new(1.0, 1.0, 1.0, n / 2, n / 2)
            .interface(0.5)
            .ends(EndCondition::Free, EndCondition::Port)
            .build()?,
    })
}

/// How the free-end outputs are read from a state.
enum FreeEnd {
    /// Output of the port "left" (DAEs): multipliers or natural velocity outputs.
    Port(std::ops::Range<usize>),
    /// Probes of velocity and angular velocity (ODE).
    Probes(SparseVec, SparseVec),
}

impl FreeEnd {
    fn read(&self, sys: &LinearPhSystem, e: &[f64]) -> [f64; 2] {
        match self {
            FreeEnd::Port(r) => {
                let y = sys.output(e);
                [y[r.start], y[r.start + 1]]
            }
            FreeEnd::Probes(v, a) => [v.dot(e), a.dot(e)],
        }
    }
}

/// Runs one method and evaluates the free-end motion.
pub fn motion_planning(
    method: MotionPlanningMethod,
    setup: &MotionPlanningSetup,
) -> Result<MotionPlanningRun, StudyError> {
    let model = motion_planning_model(method, setup)?;
    let sys = model.system();
    let input = build_input(&model, setup)?;
    // Initial state: the reference at t = 0 (e_kappa = w_xx^r(x, 0) = 0).
    let s = *setup;
    let e_w0 = model.project(Field::Velocity, &|x| s.reference_velocity(x, 0.0))?;
    let e0 = consistent_initial_state(sys, &input, 0.0, &e_w0)?.state;
    let probe_v = model.probe(Field::Velocity, 0.0)?;
    let free_end = if method.formulation != Formulation::OdeDecomposition {
        let r = sys.ports.range("left")?;
        if r.len() != 2 {
            return Err(StudyError::Model {
                model: model.name().into(),
                reason: format!(
                    "the free-end port 'left' has {} outputs, expected 2",
                    r.len()
                ),
            });
        }
        FreeEnd::Port(r)
    } else {
        FreeEnd::Probes(probe_v.clone(), model.probe(Field::AngularVelocity, 0.0)?)
    };
    let nt = setup.n_intervals;
    let dt = setup.t_end / nt as f64;
    let grid: Vec<f64> = (0..=nt).map(|k| k as f64 * dt).collect();
    let mut t = Vec::with_capacity(nt + 1);
    let mut velocity = Vec::with_capacity(nt + 1);
    let mut outputs = Vec::with_capacity(nt + 1);
    let mut observer = |tk: f64, e: &[f64]| {
        t.push(tk);
        velocity.push(probe_v.dot(e));
        outputs.push(free_end.read(sys, e));
    };
    let stats = if method.is_midpoint() {
        let params = MidpointParams {
            step: FixedStepParams {
                t0: 0.0,
                t_end: setup.t_end,
                h: dt,
                output_every: 1,
            },
            ..Default::default()
        };
        let mut cn = LinearMidpoint::new(sys, input.clone(), params)?;
        cn.run(&e0, &mut observer)?.stats
    } else {
        let problem = PhDae::new(sys, input.clone())?;
        let radau = Radau5::new(Radau5Params::with_tolerances(setup.rtol, setup.atol))?;
        radau
            .integrate(
                &problem,
                0.0,
                &e0,
                setup.t_end,
                OutputTimes::Grid(&grid),
                &mut observer,
            )?
            .stats
    };
    if t.len() != grid.len() {
        return Err(StudyError::Model {
            model: model.name().into(),
            reason: format!(
                "integrator returned {} samples, expected {}",
                t.len(),
                grid.len()
            ),
        });
    }
    // Trapezoidal rule, w(0, 0) = w^r(0, 0).
    let mut displacement = Vec::with_capacity(t.len());
    displacement.push(setup.reference_displacement(0.0, 0.0));
    for k in 1..t.len() {
        let w = displacement[k - 1] + 0.5 * (t[k] - t[k - 1]) * (velocity[k - 1] + velocity[k]);
        displacement.push(w);
    }
    let w = setup.omega;
    let max_displacement_error = t
        .iter()
        .zip(&displacement)
        .map(|(tk, d)| (d - (w * tk).sin()).abs())
        .fold(0.0, f64::max);
    let max_velocity_error = t
        .iter()
        .zip(&velocity)
        .map(|(tk, v)| (v - w * (w * tk).cos()).abs())
        .fold(0.0, f64::max);
    // Midpoint multipliers are midpoint values (t_k - dt/2); skip the unused initial one.
    let shift = if method.is_midpoint() && method.formulation == Formulation::DaeFreeEnd {
        -0.5 * dt
    } else {
        0.0
    };
    let output_times: Vec<f64> = t.iter().map(|tk| tk + shift).collect();
    let first = usize::from(shift != 0.0);
    let mut max_output_errors = [0.0f64; 2];
    for k in first..t.len() {
        let tk = output_times[k];
        let exact = [w * (w * tk).cos(), 0.0];
        for c in 0..2 {
            max_output_errors[c] = max_output_errors[c].max((outputs[k][c] - exact[c]).abs());
        }
    }
    Ok(MotionPlanningRun {
        method,
        model: model.name().into(),
        n_states: model.n_states(),
        t,
        velocity,
        displacement,
        max_displacement_error,
        max_velocity_error,
        free_end_outputs: outputs,
        output_times,
        max_output_errors,
        stats,
    })
}
