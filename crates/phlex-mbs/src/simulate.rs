//! Time integration of an assembled [`Multibody`] with energy and constraint-drift reports.
//!
//! # Midpoint / discrete gradient ([`MultibodyMidpoint`])
//! The scheme of [`phlex_solve::midpoint::QuasiLinearMidpoint`] (paper 000 eq. (46), one
//! step of size $h$ in the midpoint unknown $x_m = (x_0 + x_1)/2$):
//! $$E\,(x_m - x_0) - \tfrac h2\big[J(x_m)\,\bar z + B(x_m)\,u(t_{n+1/2})\big] = 0,$$
//! with $\bar z = z(x_m)$ ([`MidpointVariant::Midpoint`]) or Gonzalez's discrete gradient
//! ([`MidpointVariant::DiscreteGradient`], [`phlex_core::QuasiLinearPhDae::discrete_gradient`]), for which
//! $H(x_1) - H(x_0) = h\,\bar y^\top u$ up to the Newton tolerance (a lossless mechanism
//! conserves $H$). Multipliers store their midpoint values. The orientation update is the
//! Cayley map: for a planar body $\theta_1 = \theta_0 + h\bar\omega$ and
//! ${}^ir_1 = {}^ir_0 + hR(\theta_m)\bar v$.
//!
//! The difference with the generic integrator is the Newton matrix: it is the exact
//! $E - \frac h2\,\partial_x\big(J(x)z(x) + B(x)u\big)$ ([`Multibody::rhs_jacobian`]), not
//! $E - \frac h2 J\,\partial_x z$. For mechanisms the neglected derivatives are not small
//! (the rotation of gravity into the body frame contributes $g\,\delta\theta$ to the
//! multiplier equations), and with the approximate matrix the second Newton increment of
//! the multipliers is systematically of the size of the first, which trips the divergence
//! test of [`phlex_solve::newton::Newton`] near turning points of a pendulum. With the
//! exact matrix Newton converges quadratically.
//!
//! *Linear algebra.* Newton runs on [`crate::step_solver`]: a simplicial sparse LU whose
//! column order puts the dense rigid-body columns of flexible bodies last and whose row
//! scaling keeps their dense rows from being pivots early, so that the factors grow
//! linearly with the number of elements.
//!
//! *Multipliers.* Their values enter the step equations only through $\frac h2 G^\top\lambda$,
//! so a multiplier is determined to round-off only up to $\varepsilon\,|Mv|/h$; Newton works
//! on the scaled unknowns $\tfrac h2\lambda$ (the index-2 scaling of Hairer–Wanner VII.8), so
//! that its tolerances are not below that floor for small steps.
//!
//! # Drift correction by projection ([`ProjectionOptions`], off by default)
//! The midpoint scheme enforces the *velocity* constraints $G(x)p = B_\lambda u$ (at the
//! midpoint); the *position* constraints $\Phi(q) = 0$ (hinge points coincide, …) drift at
//! $O(h^2)$ per unit time (paper Remark 9). With
//! [`MultibodyMidpoint::with_projection`] every step is followed by
//! ([`project_onto_constraints`]):
//! 1. Gauss–Newton on the body poses $q = (x, y, \theta)_b$ with minimum-norm steps
//!    $\Delta q = -\Phi_q^{+}\Phi(q)$ (SVD pseudo-inverse, $\Phi_q$ by central differences
//!    with step $10^{-7}(1 + |q|)$), until $\max|\Phi| \le$ `tol`; joint relative angles move
//!    with the bodies ($\Delta\theta_j = \Delta\theta_b - \Delta\theta_a$), elastic
//!    coordinates, targets and stresses are not touched;
//! 2. optionally ([`ProjectionOptions::velocities`]) the co-energy variables onto
//!    $G(x_1)p = B_\lambda u(t_1)$ in the kinetic-energy metric
//!    ($\min\tfrac12\Delta p^\top(M + \delta I)\Delta p$, $\delta = 10^{-10}\max M_{ii}$, one
//!    sparse KKT solve).
//!
//! *Energy.* The projection is not part of the scheme's discrete power balance: moving the
//! poses changes the potential energy (gravity) and the velocity projection removes kinetic
//! energy (an orthogonal projection in the $M$-metric never adds any). Each jump
//! $H(x^{proj}) - H(x)$ is recorded ([`ProjectionStats`]); the per-step residual
//! [`MidpointRun::max_step_residual`] is taken *before* the projection (the scheme's own
//! balance), the ledger after it. [`MidpointRun::max_drift`] is the drift after projection,
//! [`ProjectionStats::max_drift_before`] the drift each step produced.
//!
//! # State-dependent descriptor
//! For bodies with full inertia ([`crate::planar_body::full_inertia`]) the step equations
//! are eq. (F4): $\tfrac12\Delta(x_0, x_1) - \tfrac h2\big[\bar J\bar z + B(x_m)u\big] = 0$
//! with the momentum increment $\Delta$ ([`Mechanism::step_increment`]), the discrete
//! right-hand side [`Mechanism::step_rhs`] and, for
//! [`MidpointVariant::DiscreteGradient`], the exact discrete gradient (F5), so that
//! $H_1 - H_0 = h\bar y^\top u$ still holds to the Newton tolerance. The Newton matrix is
//! $\partial\Delta/\partial x_1 - \tfrac h2\partial f_h/\partial x_m$ with
//! [`Mechanism::step_rhs_jacobian`]: exact for spatial bodies
//! ([`crate::spatial_body_core::full_inertia_3d`]; needed when the step is large against the
//! elastic periods, where $\Delta p$ is not small), and for planar bodies the discrete terms
//! taken at $x_m$ (an $O(\Delta x)$ approximation that costs ≈ 1 extra iteration per step).
//! For spatial bodies with full inertia the plain midpoint variant uses the discrete
//! effort (F5) as well ([`Mechanism::step_rhs`]).
//!
//! # Radau IIA ([`run_radau`])
//! Through [`crate::dae::MultibodyDae`] (constant-mass form for state-dependent
//! descriptors).
use faer::Mat;
use phlex_core::diagnostics::EnergyLedger;
use phlex_core::sparse::{self, SparseMat};
use phlex_core::{QuasiLinearPhDae, Triplets, VarKind};
use phlex_solve::fixed_step::FixedStepResult;
use phlex_solve::midpoint::{MidpointParams, MidpointVariant};
use phlex_solve::newton::NonlinearSystem;
use phlex_solve::radau5::{OutputTimes, Radau5, Radau5Params, Radau5Solution};
use phlex_solve::{InputFn, Observer, SolveError, SolverStats, SparseLu};

use crate::assembly::Multibody;
use crate::common::least_squares::max_abs;
use crate::common::pose_newton::project_poses;
use crate::dae::MultibodyDae;
use crate::error::MbsError;
use crate::mechanism::Mechanism;
use crate::step_solver::StepNewton;

/// Result of a midpoint run: the integrator result (state, work counters, energy ledger
/// at output times) and the constraint drift.
#[derive(Debug, Clone)]
pub struct MidpointRun {
    /// Final state, statistics and energy ledger (sampled at output times).
    pub result: FixedStepResult,
    /// Largest position-level joint violation over the output times \[m or rad\].
    pub max_drift: f64,
    /// Largest discrete power-balance residual of a single step,
    /// $|H_1 - H_0 - h\,\bar y^\top u|$ \[J\] (before any projection).
    pub max_step_residual: f64,
    /// Statistics of the drift projection, if switched on.
    pub projection: Option<ProjectionStats>,
}

/// Options of the drift projection (see the module documentation).
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
    pub fn validate(&self) -> Result<(), MbsError> {
        if !(self.tol > 0.0 && self.tol.is_finite()) {
            return Err(MbsError::Solve(SolveError::Parameter(format!(
                "projection tol must satisfy 0 < tol < inf, got {}",
                self.tol
            ))));
        }
        if self.max_iterations == 0 {
            return Err(MbsError::Solve(SolveError::Parameter(
                "projection max_iterations must satisfy max_iterations >= 1, got 0".into(),
            )));
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

/// Projects `x` (a step ending at `t`, Hamiltonian `h_before`) onto the position
/// constraints with `project`, records the projection in `stats`, and returns the
/// Hamiltonian after it. Shared by [`MultibodyMidpoint`] and
/// [`crate::spatial::GaussCollocation`]; a Newton failure is reported at time `t`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn project_and_record<S: Mechanism + ?Sized>(
    mb: &S,
    project: fn(&S, &mut [f64], &[f64], &ProjectionOptions) -> Result<ProjectionStep, MbsError>,
    opts: &ProjectionOptions,
    x: &mut [f64],
    u: &[f64],
    t: f64,
    h_before: f64,
    stats: &mut Option<ProjectionStats>,
) -> Result<f64, MbsError> {
    let ps = project(mb, x, u, opts).map_err(|e| match e {
        MbsError::Solve(SolveError::NewtonDiverged {
            iterations,
            residual,
            tol,
            ..
        }) => MbsError::Solve(SolveError::NewtonDiverged {
            t,
            iterations,
            residual,
            tol,
        }),
        e => e,
    })?;
    let st = stats.get_or_insert_with(ProjectionStats::default);
    st.max_drift_before = st.max_drift_before.max(ps.drift_before);
    st.max_drift_after = st.max_drift_after.max(ps.drift_after);
    st.max_correction = st.max_correction.max(ps.max_correction);
    st.max_velocity_residual = st.max_velocity_residual.max(ps.velocity_residual);
    st.iterations += ps.iterations;
    let mut h = h_before;
    if ps.iterations > 0 || opts.velocities {
        st.corrected_steps += 1;
        h = mb.hamiltonian(x);
        st.energy_change += h - h_before;
        st.max_energy_jump = st.max_energy_jump.max((h - h_before).abs());
    }
    Ok(h)
}

/// Moves the joint relative angles along with the body angles, $\Delta\theta_j =
/// \Delta\theta_b - \Delta\theta_a$ (`dq`: 3 pose increments per body).
fn move_relative_angles(mb: &Multibody, x: &mut [f64], dq: &[f64]) {
    for (k, j) in mb.joints.iter().enumerate() {
        if j.has_relative_angle() {
            let da = dq[3 * j.a.0 + 2];
            let db = j.b.map_or(0.0, |(b, _)| dq[3 * b + 2]);
            x[mb.extra_off[k]] += db - da;
        }
    }
}

/// Projects `x` onto the position constraints (and, with
/// [`ProjectionOptions::velocities`], its velocities onto $G(x)p = B_\lambda u$); see the
/// module documentation. `u` is the input at the time of `x`. The Gauss–Newton iteration
/// is the one shared with the spatial projection and the consistent initialisation.
///
/// Errors: a Gauss–Newton that does not reach `tol` within `max_iterations`
/// ([`MbsError::Solve`] with [`SolveError::NewtonDiverged`]), dimension mismatches, a
/// singular KKT matrix.
pub fn project_onto_constraints(
    mb: &Multibody,
    x: &mut [f64],
    u: &[f64],
    opts: &ProjectionOptions,
) -> Result<ProjectionStep, MbsError> {
    let mut step = project_poses(mb, x, opts, Some(move_relative_angles), |_| Ok(()))?;
    if opts.velocities && mb.n_constraints() > 0 {
        project_velocities(mb, x, u, &mut step)?;
    }
    Ok(step)
}

/// Velocity projection: $\min\tfrac12\Delta p^\top(M + \delta I)\Delta p$ subject to
/// $G(p + \Delta p) = B_\lambda u$, by the KKT system.
fn project_velocities(
    mb: &Multibody,
    x: &mut [f64],
    u: &[f64],
    step: &mut ProjectionStep,
) -> Result<(), MbsError> {
    let mut pvars = Vec::new();
    for (b, body) in mb.bodies.iter().enumerate() {
        let r = mb.body_range(b);
        pvars.extend(r.start + body.n_q()..r.end);
    }
    let np = pvars.len();
    let nc = mb.n_constraints();
    let G = mb.constraint_matrix(x);
    // residual c = G p − B_λ u (constraint rows of the input map)
    let mut c = sparse::mul_vec(&G, x);
    if !u.is_empty() {
        let bu = sparse::mul_vec(&mb.input_map(x), u);
        let lam0 = mb.lam_off.first().copied().unwrap_or(mb.n());
        for (k, ck) in c.iter_mut().enumerate() {
            *ck -= bu[lam0 + k];
        }
    }
    step.velocity_residual = max_abs(&c);
    // the kinetic-energy metric at x (M(u_f) for bodies with full inertia)
    let E = mb.descriptor(x);
    let M = sparse::restrict(&E, &pvars, &pvars);
    let Gp = sparse::restrict(&G, &(0..nc).collect::<Vec<_>>(), &pvars);
    let mdiag = (0..np)
        .flat_map(|j| sparse::col_iter(&M, j).filter(move |(i, _)| *i == j))
        .fold(0.0f64, |m, (_, v)| m.max(v));
    let mut t = Triplets::new(np + nc, np + nc);
    t.push_block(0, 0, &M, 1.0);
    for i in 0..np {
        t.push(i, i, 1e-10 * mdiag);
    }
    t.push_block(np, 0, &Gp, 1.0);
    t.push_block_transpose(0, np, &Gp, 1.0);
    let K = t.build();
    let mut lu = SparseLu::from_matrix("velocity projection KKT [[M, G^T], [G, 0]]", K.as_ref())?;
    let mut rhs = vec![0.0; np + nc];
    for (k, ck) in c.iter().enumerate() {
        rhs[np + k] = -ck;
    }
    lu.solve_in_place(&mut rhs)?;
    for (k, &i) in pvars.iter().enumerate() {
        x[i] += rhs[k];
    }
    Ok(())
}

struct Step<'a, S: Mechanism + ?Sized> {
    mb: &'a S,
    variant: MidpointVariant,
    h: f64,
    x0: Vec<f64>,
    x1: Vec<f64>,
    u: Vec<f64>,
    z: Vec<f64>,
    f: Vec<f64>,
    d: Vec<f64>,
    E: SparseMat,
    /// Unknown scaling: the Newton unknown is $\xi = s\circ x_m$ with $s_i = h/2$ for the
    /// multipliers (index 2) and 1 otherwise.
    scale: Vec<f64>,
    algebraic: Vec<bool>,
    xs: Vec<f64>,
    /// The descriptor depends on the state ([`Mechanism::state_dependent_descriptor`]):
    /// the step uses [`Mechanism::step_increment`] and [`Mechanism::step_rhs`].
    varying: bool,
}

impl<S: Mechanism + ?Sized> Step<'_, S> {
    fn effort(&mut self, xm: &[f64]) {
        match self.variant {
            MidpointVariant::Midpoint => self.mb.effort(xm, &mut self.z),
            MidpointVariant::DiscreteGradient => {
                for ((x1, &m), &a) in self.x1.iter_mut().zip(xm).zip(&self.x0) {
                    *x1 = 2.0 * m - a;
                }
                self.mb.discrete_gradient(&self.x0, &self.x1, &mut self.z);
            }
        }
    }
}

impl<S: Mechanism + ?Sized> NonlinearSystem for Step<'_, S> {
    fn dim(&self) -> usize {
        self.x0.len()
    }
    fn residual(&mut self, xi: &[f64], r: &mut [f64]) -> Result<(), SolveError> {
        let mut xs = std::mem::take(&mut self.xs);
        for ((x, &v), &s) in xs.iter_mut().zip(xi).zip(&self.scale) {
            *x = v / s;
        }
        let xm = &xs[..];
        self.effort(xm);
        let z = std::mem::take(&mut self.z);
        if self.varying {
            // ½Δ(x0, x1) − (h/2)(J̄ z̄ + B u), x1 = 2 x_m − x0 (eq. (F4)).
            for ((x1, &m), &a) in self.x1.iter_mut().zip(xm).zip(&self.x0) {
                *x1 = 2.0 * m - a;
            }
            self.mb
                .step_rhs(&self.x0, &self.x1, xm, &z, &self.u, &mut self.f);
            self.mb.step_increment(&self.x0, &self.x1, &mut self.d);
            for ((ri, di), fi) in r.iter_mut().zip(&self.d).zip(&self.f) {
                *ri = 0.5 * di - 0.5 * self.h * fi;
            }
            self.z = z;
            self.xs = xs;
            return Ok(());
        }
        self.mb.rhs_with_effort(xm, &z, &self.u, &mut self.f);
        self.z = z;
        for ((d, &a), &b) in self.d.iter_mut().zip(xm).zip(&self.x0) {
            *d = a - b;
        }
        r.iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(r, 1.0, &self.E, &self.d);
        for (ri, fi) in r.iter_mut().zip(&self.f) {
            *ri -= 0.5 * self.h * fi;
        }
        self.xs = xs;
        Ok(())
    }
    fn jacobian(&mut self, xi: &[f64]) -> Result<SparseMat, SolveError> {
        let xm: Vec<f64> = xi.iter().zip(&self.scale).map(|(v, s)| v / s).collect();
        let E1_varying;
        let (E1, A) = if self.varying {
            // ∂(½Δ(x0, 2x_m − x0))/∂x_m = ∂Δ/∂x1 and ∂f_h/∂x_m of the discrete right-hand
            // side (exact where the mechanism provides it, Mechanism::step_rhs_jacobian).
            let x1: Vec<f64> = xm.iter().zip(&self.x0).map(|(m, a)| 2.0 * m - a).collect();
            let A = self.mb.step_rhs_jacobian(&self.x0, &x1, &xm, &self.u);
            E1_varying = self.mb.step_increment_jacobian(&self.x0, &x1);
            (&E1_varying, A)
        } else {
            (&self.E, self.mb.rhs_jacobian(&xm, &self.u))
        };
        Ok(newton_matrix(E1, &A, -0.5 * self.h, &self.scale))
    }
}

/// The Newton matrix $(E_1 + \beta A)\,\mathrm{diag}(1/s)$ in the scaled unknowns $\xi = s\circ
/// x_m$, by merging the sorted columns of $E_1$ and $A$ (one pass, no triplet sort); exact
/// zeros are not stored.
fn newton_matrix(E1: &SparseMat, A: &SparseMat, beta: f64, scale: &[f64]) -> SparseMat {
    let n = A.ncols();
    let mut col_ptr = Vec::with_capacity(n + 1);
    let mut rows = Vec::with_capacity(E1.compute_nnz() + A.compute_nnz());
    let mut vals = Vec::with_capacity(rows.capacity());
    col_ptr.push(0usize);
    let mut push = |i: usize, v: f64, c: f64, rows: &mut Vec<usize>| {
        let w = v * c;
        if w != 0.0 {
            rows.push(i);
            vals.push(w);
        }
    };
    for j in 0..n {
        let c = 1.0 / scale[j];
        let (mut e, mut a) = (sparse::col_iter(E1, j).peekable(), sparse::col_iter(A, j));
        for (i, v) in a.by_ref() {
            while let Some(&(ie, ve)) = e.peek() {
                if ie >= i {
                    break;
                }
                push(ie, ve, c, &mut rows);
                e.next();
            }
            match e.peek() {
                Some(&(ie, ve)) if ie == i => {
                    push(i, ve + beta * v, c, &mut rows);
                    e.next();
                }
                _ => push(i, beta * v, c, &mut rows),
            }
        }
        for (ie, ve) in e {
            push(ie, ve, c, &mut rows);
        }
        col_ptr.push(rows.len());
    }
    let sym = faer::sparse::SymbolicSparseColMat::new_checked(n, n, col_ptr, None, rows);
    SparseMat::new(sym, vals)
}

/// The midpoint / discrete-gradient integrator for multibody systems (see the module
/// documentation).
pub struct MultibodyMidpoint<'a, S: Mechanism + ?Sized = Multibody> {
    mb: &'a S,
    input: InputFn,
    params: MidpointParams,
    newton: StepNewton,
    projection: Option<(ProjectionOptions, Projector<S>)>,
}

/// The projection of a concrete mechanism type.
type Projector<S> =
    fn(&S, &mut [f64], &[f64], &ProjectionOptions) -> Result<ProjectionStep, MbsError>;

impl<'a> MultibodyMidpoint<'a, Multibody> {
    /// Switches the drift projection on (see the module documentation; off by default).
    pub fn with_projection(mut self, opts: ProjectionOptions) -> Result<Self, MbsError> {
        opts.validate()?;
        self.projection = Some((opts, project_onto_constraints));
        Ok(self)
    }
}

impl<'a> MultibodyMidpoint<'a, crate::spatial::Multibody3d> {
    /// Switches the drift projection on for a spatial model
    /// ([`crate::spatial::project_onto_constraints_3d`]: rotations re-orthonormalised, poses
    /// corrected on SO(3); off by default).
    pub fn with_projection(mut self, opts: ProjectionOptions) -> Result<Self, MbsError> {
        opts.validate()?;
        self.projection = Some((opts, crate::spatial::project_onto_constraints_3d));
        Ok(self)
    }
}

impl<S: Mechanism + ?Sized> std::fmt::Debug for MultibodyMidpoint<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MultibodyMidpoint")
            .field("params", &self.params)
            .field("n", &self.mb.n_states())
            .finish()
    }
}

impl<'a, S: Mechanism + ?Sized> MultibodyMidpoint<'a, S> {
    /// Validates the parameters and the input dimension.
    pub fn new(mb: &'a S, input: InputFn, params: MidpointParams) -> Result<Self, MbsError> {
        params.validate()?;
        let m = mb.ports().total_dim();
        if input.dim() != m {
            return Err(MbsError::Dimension {
                what: format!(
                    "input of the multibody system (ports: {})",
                    mb.ports().names().join(", ")
                ),
                expected: m,
                found: input.dim(),
            });
        }
        Ok(Self {
            newton: StepNewton::new(params.newton)?,
            mb,
            input,
            params,
            projection: None,
        })
    }

    /// Integrates from `x0`, calling `obs` at $t_0$ and at every output time.
    // `%` rather than `is_multiple_of` (stable only since Rust 1.87; workspace MSRV 1.84).
    #[allow(clippy::manual_is_multiple_of)]
    pub fn run<O: Observer + ?Sized>(
        &mut self,
        x0: &[f64],
        obs: &mut O,
    ) -> Result<MidpointRun, MbsError> {
        let mb = self.mb;
        let n = mb.n_states();
        if x0.len() != n {
            return Err(MbsError::Dimension {
                what: "initial state".into(),
                expected: n,
                found: x0.len(),
            });
        }
        let p = self.params.step;
        let m = self.input.dim();
        let mut algebraic = Vec::with_capacity(n);
        for b in mb.blocks() {
            algebraic.extend(std::iter::repeat_n(
                matches!(b.kind, VarKind::Algebraic { .. }),
                b.len,
            ));
        }
        let ranges = mb.ports().ranges();
        let mut step = Step {
            mb,
            variant: self.params.variant,
            h: p.h,
            x0: x0.to_vec(),
            x1: vec![0.0; n],
            u: vec![0.0; m],
            z: vec![0.0; n],
            f: vec![0.0; n],
            d: vec![0.0; n],
            E: mb.descriptor(x0),
            scale: vec![1.0; n],
            algebraic: algebraic.clone(),
            xs: vec![0.0; n],
            varying: mb.state_dependent_descriptor(),
        };
        let grid = grid_with_breakpoints(p.t0, p.t_end, p.h, &self.input.breakpoints());
        let mut x = x0.to_vec();
        let mut x_prev = x0.to_vec();
        let mut h_prev = 0.0;
        let mut xm = vec![0.0; n];
        let mut ledger = EnergyLedger::new(mb.ports(), p.t0, mb.hamiltonian(x0));
        let mut block_h = 0.0;
        let mut block_work = vec![0.0; ranges.len()];
        let mut max_res = 0.0f64;
        let mut max_drift = mb.max_position_drift(x0);
        let before = self.newton.stats();
        let mut stats = SolverStats::default();
        obs.observe(p.t0, &x);
        let mut last_h = f64::NAN;
        let mut k_grid = 0usize;
        let mut u_end = vec![0.0; m];
        let mut proj_stats: Option<ProjectionStats> =
            self.projection.as_ref().map(|_| ProjectionStats::default());
        let mut t = p.t0;
        for (ta, tb, on_grid) in grid {
            let h = tb - ta;
            step.h = h;
            for (s, &a) in step.scale.iter_mut().zip(&step.algebraic) {
                *s = if a { 0.5 * h } else { 1.0 };
            }
            step.x0.copy_from_slice(&x);
            self.input.eval_into(ta + 0.5 * h, &mut step.u);
            // The grid steps (t0 + (k+1)h) − (t0 + kh) differ from h in the last bits unless
            // h is a power of two, and then the (modified-Newton) matrix is refreshed on a
            // good part of the steps (≈ 40 % for the crank–slider with h = 2e-5 s). This is
            // kept on purpose: `tests/rigid_body_3d.rs` asserts quadratic invariants to
            // 1e-12 over 1e5 steps with modified Newton, which holds only with these
            // refreshes (a matrix kept across steps leaves ≈ θ·tol per step).
            if h != last_h {
                self.newton.invalidate();
                last_h = h;
            }
            let c = if h_prev > 0.0 { 0.5 * h / h_prev } else { 0.0 };
            for i in 0..n {
                xm[i] = if algebraic[i] {
                    x[i]
                } else {
                    x[i] + c * (x[i] - x_prev[i])
                };
            }
            let h0 = mb.hamiltonian(&x);
            for (v, s) in xm.iter_mut().zip(&step.scale) {
                *v *= s;
            }
            self.newton.solve(&mut step, &mut xm, tb)?;
            for (v, s) in xm.iter_mut().zip(&step.scale) {
                *v /= s;
            }
            step.effort(&xm);
            x_prev.copy_from_slice(&x);
            for i in 0..n {
                x[i] = if algebraic[i] {
                    xm[i]
                } else {
                    2.0 * xm[i] - x_prev[i]
                };
            }
            if let Some(i) = x.iter().position(|v| !v.is_finite()) {
                return Err(MbsError::Solve(SolveError::NonFinite { t: tb, index: i }));
            }
            h_prev = h;
            t = tb;
            stats.steps += 1;
            let y = sparse::mul_vec_transpose(&mb.input_map(&xm), &step.z);
            let mut inflow = 0.0;
            for (w, r) in block_work.iter_mut().zip(&ranges) {
                let pw: f64 = r.clone().map(|k| y[k] * step.u[k]).sum();
                *w += h * pw;
                inflow += h * pw;
            }
            block_h += h;
            let mut h1 = mb.hamiltonian(&x);
            max_res = max_res.max((h1 - h0 - inflow).abs());
            if let Some((opts, project)) = &self.projection {
                self.input.eval_into(tb, &mut u_end);
                h1 = project_and_record(
                    mb,
                    *project,
                    opts,
                    &mut x,
                    &u_end,
                    tb,
                    h1,
                    &mut proj_stats,
                )?;
            }
            if on_grid {
                k_grid += 1;
                if k_grid % p.output_every == 0
                    || (tb - p.t_end).abs() <= 1e-12 * p.t_end.abs().max(1.0)
                {
                    let avg: Vec<f64> = block_work.iter().map(|w| w / block_h).collect();
                    ledger.push_step(t, h1, block_h, &avg, 0.0);
                    block_h = 0.0;
                    block_work.iter_mut().for_each(|w| *w = 0.0);
                    max_drift = max_drift.max(mb.max_position_drift(&x));
                    obs.observe(t, &x);
                }
            }
        }
        let after = self.newton.stats();
        stats.newton_iterations = after.newton_iterations - before.newton_iterations;
        stats.rhs_evaluations = after.rhs_evaluations - before.rhs_evaluations;
        stats.jacobian_evaluations = after.jacobian_evaluations - before.jacobian_evaluations;
        stats.factorizations = after.factorizations - before.factorizations;
        stats.linear_solves = after.linear_solves - before.linear_solves;
        Ok(MidpointRun {
            result: FixedStepResult {
                stats,
                ledger,
                t,
                state: x,
            },
            max_drift,
            max_step_residual: max_res,
            projection: proj_stats,
        })
    }
}

/// Steps `(t_a, t_b, ends_on_grid)` of the grid $t_0 + kh$ (last step shortened to end at
/// $t_{end}$), split at breakpoints strictly inside a step (shared by the fixed-step
/// integrators).
pub(crate) fn grid_with_breakpoints(
    t0: f64,
    t_end: f64,
    h: f64,
    bps: &[f64],
) -> Vec<(f64, f64, bool)> {
    let n = (((t_end - t0) / h) - 1e-9).ceil().max(1.0) as usize;
    let mut out = Vec::with_capacity(n + bps.len());
    for k in 0..n {
        let ta = t0 + k as f64 * h;
        let tb = if k + 1 == n {
            t_end
        } else {
            t0 + (k + 1) as f64 * h
        };
        let mut a = ta;
        for &b in bps {
            if b > a + 1e-9 * h && b < tb - 1e-9 * h {
                out.push((a, b, false));
                a = b;
            }
        }
        out.push((a, tb, true));
    }
    out
}

// The arguments mirror `Radau5::integrate` plus the system and its input.
#[allow(clippy::too_many_arguments)]
/// Integrates with adaptive Radau IIA from `(t0, x0)` to `t_end`, observing at `output`.
pub fn run_radau<O: Observer + ?Sized>(
    mb: &Multibody,
    input: InputFn,
    params: Radau5Params,
    t0: f64,
    x0: &[f64],
    t_end: f64,
    output: OutputTimes<'_>,
    obs: &mut O,
) -> Result<Radau5Solution, MbsError> {
    let dae = MultibodyDae::new(mb, input)?;
    let r = Radau5::new(params)?;
    Ok(r.integrate(&dae, t0, x0, t_end, output, obs)?)
}

/// Dense helper: solves `A x = b` by partial-pivoting LU (small systems).
pub(crate) fn dense_solve(A: &Mat<f64>, b: &[f64]) -> Vec<f64> {
    use faer::linalg::solvers::Solve;
    let lu = A.partial_piv_lu();
    let mut rhs = Mat::<f64>::zeros(b.len(), 1);
    for (i, v) in b.iter().enumerate() {
        rhs[(i, 0)] = *v;
    }
    let x = lu.solve(&rhs);
    (0..b.len()).map(|i| x[(i, 0)]).collect()
}
