//! The one `[simulation]` driver of `phlex run`: every kind that integrates a
//! [`PhSystem`] (beams, plates, plate assemblies, continua, planar and spatial multibody)
//! turns its validated [`SimulationSpec`] into a [`Simulation`] and runs it on its system
//! through the front door of the integrators ([`phlex_solve::integrate`]). The integrator
//! names, their settings and their meaning are the same for every kind; only the defaults
//! of the keys a file leaves out belong to a family of kinds ([`Defaults`]).
//!
//! | `integrator` | method (see [`phlex_solve::integrators`]) | keys |
//! |---|---|---|
//! | `midpoint` | implicit midpoint rule | `dt`, `newton_*`, `projection` |
//! | `discrete_gradient` | midpoint scheme with the discrete gradient | `dt`, `newton_*`, `projection` |
//! | `gauss` | Gauss–Legendre collocation, `stages` stages | `dt`, `stages`, `newton_rtol`, `projection` |
//! | `radau5` | adaptive Radau IIA of order 5 | `rtol`, `atol`, `max_steps`, `dt` (initial step) |
//! | `stormer_verlet` | explicit Störmer–Verlet | `dt` |
//!
//! A combination the system does not allow (Störmer–Verlet on a nonlinear, dissipative or
//! constrained model; a projection without position constraints) is a [`ModelError`] at
//! the line of `simulation.integrator` that names the integrator and says why.
use anyhow::Result;
use phlex_core::{PhSystem, ProjectionOptions};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::gauss::GaussParams;
use phlex_solve::newton::NewtonParams;
use phlex_solve::{InputFn, IntegrationRun, Integrator, Observer, Radau5Params, SolveError};

use crate::error::{error_at, ModelError};
use crate::spec::{IntegratorSpec, SimulationSpec};

/// What a failed Radau IIA or Gauss run says when the diagnosis
/// ([`Simulation::singular_configuration`]) found no rank loss of the joint rows: the
/// collocation methods stop at singular configurations of mechanisms (IFToMM A02), the
/// midpoint rule passes them.
const SINGULAR_HINT: &str = "if the mechanism stops at a singular configuration (joint rows \
     that become dependent, e.g. all links collinear), integrator = \"midpoint\" passes it";

/// A failed Radau IIA or Gauss run is put down to a singular configuration when the
/// constraint Jacobian near the failure has $\sigma_{min}/\sigma_{max}$ below this value
/// (the largest and smallest singular values of the rows of the multipliers).
const SINGULAR_RATIO: f64 = 1e-3;

/// The values of the `[simulation]` keys a file leaves out, per family of kinds (they
/// keep the results of the shipped examples).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Defaults {
    /// `rtol` of Radau IIA.
    pub rtol: f64,
    /// `atol` of Radau IIA.
    pub atol: f64,
    /// The Newton settings of the midpoint and discrete-gradient steps (`newton_*`).
    pub newton: NewtonParams,
}

impl Defaults {
    /// The linear kinds (beams, plates, continua): Radau IIA `rtol = 1e-6`, `atol = 1e-9`;
    /// Newton [`NewtonParams::default`] (a linear system takes one LU for the whole run
    /// with the midpoint rule and never iterates).
    pub fn linear() -> Self {
        Self {
            rtol: 1e-6,
            atol: 1e-9,
            newton: NewtonParams::default(),
        }
    }

    /// The multibody kinds: Radau IIA `rtol = 1e-8`, `atol = 1e-10`; Newton
    /// `newton_rtol = newton_atol = 1e-12`, 20 iterations, a new Jacobian at every iterate.
    pub fn multibody() -> Self {
        Self {
            rtol: 1e-8,
            atol: 1e-10,
            newton: NewtonParams {
                rtol: 1e-12,
                atol: 1e-12,
                max_iterations: 20,
                modified: false,
                ..NewtonParams::default()
            },
        }
    }
}

/// A validated `[simulation]` of a model file, ready to run on the model's system: the
/// integrator and its settings, the time span and the output sampling (every
/// `output_every`-th step of a fixed-step run; `output_samples` uniform intervals of a
/// Radau IIA run).
#[derive(Debug, Clone)]
pub struct Simulation<'a> {
    spec: &'a SimulationSpec,
    defaults: Defaults,
    file: &'a str,
    text: &'a str,
    kind: &'a str,
}

impl<'a> Simulation<'a> {
    /// The `[simulation]` `spec` of the model file `file` (its `text`, for the lines of
    /// errors) of the kind `kind`, with the kind's `defaults`. A missing section and an
    /// invalid key ([`SimulationSpec::validate`]) are [`ModelError`]s naming the key.
    pub fn new(
        (file, text, kind): (&'a str, &'a str, &'a str),
        spec: Option<&'a SimulationSpec>,
        defaults: Defaults,
    ) -> Result<Self, ModelError> {
        let spec = spec.ok_or_else(|| {
            ModelError::at_line(
                file,
                0,
                "missing section [simulation] (integrator, t_end, dt): needed by `phlex run`"
                    .into(),
            )
        })?;
        spec.validate()
            .map_err(|(span, message)| error_at(file, text, span, message))?;
        Ok(Self {
            spec,
            defaults,
            file,
            text,
            kind,
        })
    }

    /// The integrator of the file.
    pub fn kind(&self) -> IntegratorSpec {
        *self.spec.integrator.get_ref()
    }

    /// `t_end` \[s\].
    pub fn t_end(&self) -> f64 {
        *self.spec.t_end.get_ref()
    }

    /// `dt` \[s\] (required by the fixed-step integrators; Radau IIA's initial step).
    pub fn dt(&self) -> Option<f64> {
        self.spec.dt.as_ref().map(|v| *v.get_ref())
    }

    /// The Newton settings: `newton_rtol`, `newton_atol`, `newton_max_iterations`,
    /// `newton_modified` over the kind's defaults.
    fn newton(&self) -> NewtonParams {
        let s = self.spec;
        let d = self.defaults.newton;
        NewtonParams {
            rtol: s.newton_rtol.as_ref().map_or(d.rtol, |v| *v.get_ref()),
            atol: s.newton_atol.as_ref().map_or(d.atol, |v| *v.get_ref()),
            max_iterations: s
                .newton_max_iterations
                .as_ref()
                .map_or(d.max_iterations, |v| *v.get_ref() as usize),
            modified: s
                .newton_modified
                .as_ref()
                .map_or(d.modified, |v| *v.get_ref()),
            ..d
        }
    }

    /// The integrator with its settings: Gauss with `stages` (default 3) and the Newton
    /// tolerance `newton_rtol` (default [`GaussParams::default`]); Radau IIA with `rtol`,
    /// `atol`, `max_steps` and `dt` as its initial step.
    pub fn integrator(&self) -> Integrator {
        let s = self.spec;
        match self.kind() {
            IntegratorSpec::Midpoint => Integrator::Midpoint(self.newton()),
            IntegratorSpec::DiscreteGradient => Integrator::DiscreteGradient(self.newton()),
            IntegratorSpec::Gauss => {
                let d = GaussParams::default();
                Integrator::Gauss(GaussParams {
                    stages: s.stages.as_ref().map_or(d.stages, |v| *v.get_ref()),
                    tol: s.newton_rtol.as_ref().map_or(d.tol, |v| *v.get_ref()),
                    power_balance: true,
                    ..d
                })
            }
            IntegratorSpec::Radau5 => {
                let rtol = s.rtol.as_ref().map_or(self.defaults.rtol, |v| *v.get_ref());
                let atol = s.atol.as_ref().map_or(self.defaults.atol, |v| *v.get_ref());
                let mut p = Radau5Params::with_tolerances(rtol, atol);
                p.h0 = self.dt();
                if let Some(m) = &s.max_steps {
                    p.max_steps = *m.get_ref();
                }
                Integrator::Radau5(p)
            }
            IntegratorSpec::StormerVerlet => Integrator::StormerVerlet,
        }
    }

    /// The span `[t0, t1]`: steps of `dt` recorded every `output_every`-th step (fixed
    /// step), or the uniform output grid of `output_samples` intervals over `[0, t_end]`
    /// (Radau IIA).
    pub fn span(&self, t0: f64, t1: f64) -> FixedStepParams {
        match (self.kind().is_fixed_step(), self.dt()) {
            (true, Some(h)) => FixedStepParams {
                t0,
                t_end: t1,
                h,
                output_every: self.spec.output_every(),
            },
            _ => FixedStepParams {
                t0,
                t_end: t1,
                h: self.t_end() / self.spec.output_samples() as f64,
                output_every: 1,
            },
        }
    }

    /// The drift projection of `projection = true`.
    pub fn projection(&self) -> Option<ProjectionOptions> {
        self.spec
            .projection
            .as_ref()
            .is_some_and(|p| *p.get_ref())
            .then(ProjectionOptions::default)
    }

    /// The integrator as the summary names it: its name, the method's properties, the
    /// step and the projection.
    pub fn label(&self) -> String {
        let dt = self
            .dt()
            .map(|h| format!(", dt = {h:e} s"))
            .unwrap_or_default();
        let projected = if self.projection().is_some() {
            ", position projection after each step"
        } else {
            ""
        };
        let what = match self.integrator() {
            Integrator::Midpoint(_) => {
                "implicit midpoint rule, exact discrete power balance for quadratic H".into()
            }
            Integrator::DiscreteGradient(_) => {
                "discrete gradient, exact discrete power balance".into()
            }
            Integrator::Gauss(g) => format!(
                "{} stages, order {}, exact discrete power balance for quadratic H",
                g.stages,
                2 * g.stages
            ),
            Integrator::Radau5(r) => {
                return format!(
                    "radau5 (rtol = {:e}, atol = {:e}; balance from output samples, trapezoidal)",
                    r.rtol, r.atol
                )
            }
            Integrator::StormerVerlet => "explicit, symplectic, energy error O(dt^2)".into(),
        };
        format!("{} ({what}){dt}{projected}", self.kind().name())
    }

    /// Integrates `sys` from `x0` at `t0` to `t1` with the input `input`, calling `obs` at
    /// `t0` and at every output time ([`phlex_solve::integrate`]). An integrator that does
    /// not apply to the system is a [`ModelError`] at `simulation.integrator` naming it and
    /// saying why; a failed integration says what to change.
    pub fn run<S: PhSystem + ?Sized>(
        &self,
        sys: &S,
        x0: &[f64],
        input: &InputFn,
        (t0, t1): (f64, f64),
        obs: &mut dyn Observer,
    ) -> Result<IntegrationRun> {
        let integrator = self.integrator();
        // the last observed state, for the diagnosis of a failure at a singular configuration
        let mut last: (f64, Vec<f64>) = (t0, x0.to_vec());
        let mut watch = |t: f64, x: &[f64]| {
            last.0 = t;
            last.1.clear();
            last.1.extend_from_slice(x);
            obs.observe(t, x);
        };
        let result = phlex_solve::integrate(
            sys,
            x0,
            input.clone(),
            &integrator,
            self.span(t0, t1),
            self.projection(),
            &mut watch,
        );
        result.map_err(|e| {
            let singular = match (self.kind(), &e) {
                (
                    IntegratorSpec::Radau5 | IntegratorSpec::Gauss,
                    SolveError::StepSizeUnderflow { t, .. }
                    | SolveError::NewtonDiverged { t, .. }
                    | SolveError::NonFinite { t, .. },
                ) => self.singular_configuration(sys, input, (&last.0, &last.1), (t0, *t, t1)),
                _ => None,
            };
            match singular {
                Some(s) => anyhow::Error::new(e).context(format!("{} failed: {s}", self.label())),
                None => self.error(e),
            }
        })
    }

    /// Whether a Radau IIA or Gauss run that failed at `t_fail` (its last observed state
    /// `last`; the run spans `t0..t_end`) stopped at or just before a **singular configuration**: the rows of the multipliers
    /// (index-2 algebraic blocks, the joints of a mechanism) in the structure matrix
    /// $J(x)$, restricted to the differential columns (the constraint Jacobian $G$), lose
    /// rank. The run is redone from `last` to past `t_fail` (by 1 % of `t_fail - t0`) with the midpoint rule in
    /// 400 steps (it passes singular configurations), and $\sigma_{min}/\sigma_{max}$ of
    /// $G$ is monitored; if its smallest value is below [`SINGULAR_RATIO`] the message says
    /// when, which joints have dependent rows (those with weight in the left singular
    /// vectors of the small singular values) and what to use instead. `None`: no
    /// multipliers, or no rank loss (another cause).
    fn singular_configuration<S: PhSystem + ?Sized>(
        &self,
        sys: &S,
        input: &InputFn,
        (t_obs, x_obs): (&f64, &[f64]),
        (t0, t_fail, t_end): (f64, f64, f64),
    ) -> Option<String> {
        let blocks = sys.blocks();
        let kinds: Vec<bool> = phlex_core::variables::variable_indices(blocks)
            .iter()
            .map(|&k| k >= 2)
            .collect();
        let rows: Vec<usize> = (0..kinds.len()).filter(|&i| kinds[i]).collect();
        let cols: Vec<usize> = phlex_core::variables::variable_indices(blocks)
            .iter()
            .enumerate()
            .filter(|(_, &k)| k == 0)
            .map(|(i, _)| i)
            .collect();
        if rows.is_empty() || cols.is_empty() || rows.len() > 2000 {
            return None;
        }
        let mut pos = vec![usize::MAX; kinds.len()];
        for (k, &r) in rows.iter().enumerate() {
            pos[r] = k;
        }
        let mut cpos = vec![usize::MAX; kinds.len()];
        for (k, &c) in cols.iter().enumerate() {
            cpos[c] = k;
        }
        // (σ_min/σ_max, rank loss, weight of each row in the dependent combinations)
        let analyse = |x: &[f64]| -> Option<(f64, usize, Vec<f64>)> {
            let J = sys.structure(x);
            let mut G = faer::Mat::<f64>::zeros(rows.len(), cols.len());
            for c in 0..J.ncols() {
                if cpos[c] == usize::MAX {
                    continue;
                }
                for (r, v) in phlex_core::sparse::col_iter(&J, c) {
                    if pos[r] != usize::MAX {
                        G[(pos[r], cpos[c])] += v;
                    }
                }
            }
            let svd = G.svd().ok()?;
            let k = svd.S().dim();
            let s: Vec<f64> = (0..k).map(|i| svd.S()[i]).collect();
            let smax = s.iter().cloned().fold(0.0, f64::max);
            if smax <= 0.0 || !smax.is_finite() {
                return None;
            }
            // rows beyond the number of differential columns are dependent anyway
            let mut small: Vec<usize> = (0..k).filter(|&i| s[i] < SINGULAR_RATIO * smax).collect();
            small.extend(k..rows.len());
            let smin = if rows.len() > k {
                0.0
            } else {
                s.iter().cloned().fold(f64::INFINITY, f64::min)
            };
            let U = svd.U();
            let w = (0..rows.len())
                .map(|r| small.iter().map(|&j| U[(r, j)].powi(2)).sum::<f64>().sqrt())
                .collect();
            Some((smin / smax, small.len(), w))
        };
        let mut best: Option<(f64, f64, usize, Vec<f64>)> = None;
        let mut consider = |t: f64, x: &[f64]| {
            if let Some((ratio, loss, w)) = analyse(x) {
                if best.as_ref().is_none_or(|b| ratio < b.0) {
                    best = Some((ratio, t, loss, w));
                }
            }
        };
        consider(*t_obs, x_obs);
        // Radau IIA may stop while it approaches the singular position (A02: at t = 1.2252 s,
        // 3 ms before it): look ahead 1 % of the time integrated so far
        let t1 = (t_fail + (0.05 * (t_fail - t_obs)).max(0.01 * (t_fail - t0)) + 1e-6).min(t_end);
        if t1 > *t_obs {
            let span = FixedStepParams {
                t0: *t_obs,
                t_end: t1,
                h: (t1 - t_obs) / 400.0,
                output_every: 1,
            };
            // a failure of the midpoint rule too leaves the states observed so far
            let _ = phlex_solve::integrate(
                sys,
                x_obs,
                input.clone(),
                &Integrator::Midpoint(self.newton()),
                span,
                None,
                &mut consider,
            );
        }
        let (ratio, t, loss, w) = best?;
        if ratio >= SINGULAR_RATIO || loss == 0 {
            return None;
        }
        let wmax = w.iter().cloned().fold(0.0, f64::max);
        let mut joints: Vec<&str> = Vec::new();
        for (k, &r) in rows.iter().enumerate() {
            if w[k] > 0.1 * wmax {
                let b = phlex_core::variables::block_of(blocks, r);
                let b = b.strip_suffix(".lambda").unwrap_or(b);
                if !joints.contains(&b) {
                    joints.push(b);
                }
            }
        }
        let name = self.kind().name();
        Some(format!(
            "singular configuration at t = {t:.4} s: the constraint rows of the joints {} \
             become linearly dependent (rank loss {loss} of {} rows, σ_min/σ_max = {ratio:.1e}), \
             so the reactions are not unique there and the {name} collocation system cannot be \
             solved through it (it failed at t = {t_fail:.6}); use integrator = \"midpoint\" \
             in [simulation], which passes singular configurations (docs/solvers.md, \
             \"Singular configurations\")",
            joints.join(", "),
            rows.len()
        ))
    }

    /// The message of a failed integration.
    fn error(&self, e: SolveError) -> anyhow::Error {
        let name = self.kind().name();
        let why = match &e {
            SolveError::NotApplicable { reason, .. } => Some(reason.clone()),
            SolveError::NotPartitioned { .. } => Some(format!(
                "it needs a lossless linear system with two blocks of variables coupled only through each other ({e})"
            )),
            _ => None,
        };
        if let Some(why) = why {
            let hint = match self.kind() {
                IntegratorSpec::StormerVerlet => {
                    "; use \"midpoint\", \"discrete_gradient\", \"gauss\" or \"radau5\""
                }
                _ => "",
            };
            return error_at(
                self.file,
                self.text,
                self.spec.integrator.span(),
                format!(
                    "simulation.integrator = \"{name}\" does not apply to this {} model: {why}{hint}",
                    self.kind
                ),
            )
            .into();
        }
        let hint = match (self.kind(), &e) {
            (IntegratorSpec::Radau5, SolveError::TooManySteps { .. }) => {
                "raise [simulation] max_steps or loosen rtol/atol".to_string()
            }
            (IntegratorSpec::Radau5, _) => {
                format!("check the initial conditions or loosen rtol/atol; {SINGULAR_HINT}")
            }
            (IntegratorSpec::Gauss, _) => {
                format!("try a smaller [simulation] dt or a looser newton_rtol; {SINGULAR_HINT}")
            }
            _ => "try a smaller [simulation] dt, or looser newton_rtol/newton_atol".into(),
        };
        anyhow::Error::new(e).context(format!("{} failed; {hint}", self.label()))
    }
}
