//! Gauss–Legendre collocation for any [`PhSystem`],
//! $E\dot x = f(x, u) = (J(x) - R(x))z(x) + B(x)u$ (paper 000 eqs. (34), (46)): the
//! $s$-stage Gauss method (order $2s$ for ODEs; $s = 1$ is the implicit midpoint rule of
//! [`crate::integrators::midpoint`]), fixed step, simplified Newton
//! with a Jacobian kept across steps (Hairer–Wanner IV.8 for the iteration, VII.4 for
//! collocation applied to DAEs).
//!
//! **Stage equations.** With the stage increments $Z_i = X_i - x_0$ and the input at the
//! stage times $u_i = u(t_0 + c_ih)$,
//! $$E Z_i = h\sum_j a_{ij}\,f(x_0 + Z_j, u_j),\qquad i = 1..s,$$
//! algebraic rows included (their $E$ rows vanish, so $f_\lambda(X_j) = 0$ at every stage:
//! the velocity constraints hold at the stages). The new state is the collocation
//! polynomial at $t_0 + h$, $x_1 = x_0 + \sum_i d_iZ_i$ (Lagrange weights on the nodes
//! $0, c_1..c_s$); the multipliers, which do not enter the next step, are extrapolated from
//! the stage values only.
//!
//! **State-dependent descriptor** (bodies with full inertia,
//! [`PhSystem::state_dependent_descriptor`], paper 000 App. F eq. (F3): $E(x) = \partial\Phi/\partial x$ with $\Phi = (q, \pi(q, p))$ in their rows and $\Phi = Ex$
//! elsewhere). The system is the conservation form $\frac{d}{dt}\Phi(x) = f(x, u)$, i.e. the
//! ODE/DAE $\dot y = f(\Phi^{-1}(y))$ in $y = \Phi(x)$, and the method is Gauss collocation
//! of that form: with $\Delta(x_0, x) = \Phi(x) - \Phi(x_0)$ ([`PhSystem::step_increment`]),
//! $$\Delta(x_0, X_i) = h\sum_j a_{ij}\,f(X_j, u_j),\qquad
//!   \Delta(x_0, x_1) = \sum_i d_i\,\Delta(x_0, X_i) = h\sum_j b_j\,f(X_j, u_j)$$
//! (the collocation polynomial of $y$ at $t_0 + h$; $b^\top A^{-1} = d$). The new state is
//! **not** the collocation polynomial of $x$: $x\mapsto\Phi(x)$ is nonlinear, and the
//! polynomial of $x$ through $x_0, X_i$ misses $\Phi^{-1}$ of that of $y$ by the
//! interpolation error $O(h^{s+1})$ per step (order $s$ instead of $2s$); $x_1$ is solved
//! from the second equation by simplified Newton ([`GaussCollocation`]'s private
//! `conservation_update`, matrix $E(\bar x)$, the $x$ polynomial as initial guess). Being a
//! Gauss method for $y$, it keeps every quadratic first integral of $y$ exactly (to the
//! Newton tolerance): $R^\top R = I$ and the angular momentum $\hat Z\cdot R\pi_\omega$ of a body
//! turning about a spherical joint (bilinear in $(R, \pi_\omega)$). $H$ is not quadratic in
//! $y$ ($\frac12\pi^\top M(u_f)^{-1}\pi$), so the power balance below holds to $O(h^{2s+1})$ per
//! step only ([`IntegrationRun::max_step_residual`] measures it). The Newton matrix uses
//! $E(\bar x)$ and $\partial_xf(\bar x)$ at the mean of the predicted stages $\bar x$ (not $x_0$:
//! the stiff elastic momenta change a lot within a step after an impulsive load; every
//! system linearizes there, see **Newton**), and a
//! failed iteration restarts from its last iterate rather than from zero. Measured orders
//! and invariants: `phlex-mbs/tests/collocation_full_inertia.rs`.
//!
//! **Energy.** For a quadratic $H$ (no gravity: kinetic, elastic) the collocation polynomial
//! $x(t)$ gives $H(x_1) - H(x_0) = \int z^\top E\dot x\,dt$, a polynomial of degree $2s - 1$
//! integrated exactly by the Gauss nodes, where $E\dot x = f$ and $z^\top Jz = 0$:
//! $$H(x_1) - H(x_0) = h\sum_i b_i\big(y_i^\top u_i - z_i^\top R\,z_i\big),\qquad
//!   y_i^\top u_i - z_i^\top Rz_i = z(X_i)^\top f(X_i),$$
//! the discrete power balance of the midpoint rule, for every $s$; the energy ledger
//! accumulates the Gauss-weighted stage port powers and dissipation. The quadratic
//! invariants $R^\top R = I$ are kept exactly as well (Gauss methods conserve quadratic
//! invariants).
//!
//! **Order.** Collocation at the Gauss points is of order $2s$ in the differential
//! variables for ODEs and for index-2 constraints whose multiplier can be eliminated by a
//! constant change of variables (e.g. a body point held by a ground spherical joint, where
//! $G(x)p = 0$ is $v_P = 0$); for general index-2 constraints the order of the differential
//! variables drops to $s + 1$ ($s$ odd) or $s$ ($s$ even) (Hairer–Lubich–Roche, Table 4.1),
//! which the tests of the paper 000 §6.4 case check empirically.
//!
//! **Newton.** The matrix $K = I_s\otimes E - hA\otimes\partial_xf(\bar x, \bar u)$
//! ([`PhSystem::rhs_jacobian`]), $\bar x$ the mean of the predicted stages (differential
//! variables; $x_0$ without a predictor: at a singular configuration $x_0$ may lie on it,
//! where the matrix is nearly singular, the stages lie off it), is factorized with
//! [`SparseLu`] (symbolic analysis once)
//! and kept across steps; it is rebuilt when the contraction
//! $\theta = |\Delta_k|/|\Delta_{k-1}|$ exceeds [`GaussParams::refresh_theta`], when a step
//! needs more than [`GaussParams::max_iterations`] iterations or diverges (the step is then
//! redone with a fresh matrix; after two failed retries it is replaced by its two half
//! steps, recursively down to $h/64$, counted in `rejected_steps`), and when $h$ changes
//! (breakpoints, halved steps). The increments are measured in the norm
//! $\max_i |\Delta_i|/(1 + |x_{0,i}|)$ over the differential variables; the iteration stops
//! when $\theta/(1-\theta)\,|\Delta| \le$ `tol`. The multipliers are left out of the norm:
//! they do not enter $x_1$, and at a **singular configuration** (constraint rows $G(q)$
//! that become dependent, e.g. the IFToMM A02 four-bar chain with all links collinear)
//! they are not unique; the combination in $\ker G^\top$, which exerts no force, is
//! determined only to round-off times the condition number of the Newton matrix
//! ($\sim 1/\sigma_{min}(G)^2$), and a norm including it stalled above `tol`. Even so the
//! collocation system is not solved through a singular position (A02: the Newton
//! iteration stalls there at dt = 1 ms and 5 ms); the midpoint rule passes it. The initial guess is the
//! previous step's collocation polynomial extrapolated to the new stage times.
//!
//! **Drift projection** (off by default): [`GaussCollocation::with_projection`] projects the
//! state onto the position constraints after every step ([`PhSystem::project`]); the energy
//! jumps are recorded in [`IntegrationRun::projection`], the power balance is taken before
//! the projection.
//!
//! **Steps.** The grid $t_0 + kh$ is split at the breakpoints of the inputs
//! ([`InputFn::breakpoints`], [`crate::fixed_step`]), so piecewise smooth loads keep the
//! order.
// Index loops over stages and state components mirror the formulas.
#![allow(clippy::needless_range_loop)]
use std::collections::VecDeque;

use faer::{Mat, Side};
use phlex_core::sparse::{self, SparseMat};
use phlex_core::system::{PhSystem, ProjectionOptions};
use phlex_core::Triplets;

use crate::fixed_step::FixedStepParams;
use crate::integrators::run::{
    algebraic_mask, check_input, debug_integrator, port_powers_into, run_fixed_steps,
    IntegrationRun, LedgerKind, Projector,
};
use crate::linsolve::SparseLu;
use crate::problem::Observer;
use crate::signal::InputFn;
use crate::{SolveError, SolverStats};

/// Settings of [`GaussCollocation`] (the time span is a [`FixedStepParams`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GaussParams {
    /// Number of Gauss stages $s$ (order $2s$), `1..=6`.
    pub stages: usize,
    /// Newton tolerance on the scaled increment (`> 0`).
    pub tol: f64,
    /// Newton iterations per attempt before the matrix is refreshed (`>= 2`).
    pub max_iterations: usize,
    /// Contraction above which the Newton matrix is rebuilt for the next step (`0 < θ < 1`).
    pub refresh_theta: f64,
    /// Evaluate the discrete power balance of every step (the energy ledger's port powers
    /// and [`IntegrationRun::max_step_residual`]; one extra right-hand side per stage).
    /// Without it the ledger holds $H$ only ([`LedgerKind::HamiltonianOnly`]).
    pub power_balance: bool,
}

impl Default for GaussParams {
    /// 3 stages (order 6), tolerance 1e-10, 7 iterations, refresh at θ > 0.3, power
    /// balance evaluated.
    fn default() -> Self {
        Self {
            stages: 3,
            tol: 1e-10,
            max_iterations: 7,
            refresh_theta: 0.3,
            power_balance: true,
        }
    }
}

impl GaussParams {
    /// Checks the parameters; the message names the violated inequality.
    pub fn validate(&self) -> Result<(), SolveError> {
        // (holds, name, inequality, value)
        let checks = [
            (
                (1..=6).contains(&self.stages),
                "stages",
                "1 <= stages <= 6",
                self.stages as f64,
            ),
            (
                self.tol > 0.0 && self.tol.is_finite(),
                "tol",
                "tol > 0",
                self.tol,
            ),
            (
                self.max_iterations >= 2,
                "max_iterations",
                "max_iterations >= 2",
                self.max_iterations as f64,
            ),
            (
                self.refresh_theta > 0.0 && self.refresh_theta < 1.0,
                "refresh_theta",
                "0 < refresh_theta < 1",
                self.refresh_theta,
            ),
        ];
        match checks.iter().find(|c| !c.0) {
            Some((_, name, rule, value)) => Err(SolveError::Parameter(format!(
                "gauss {name} must satisfy {rule}, got {value}"
            ))),
            None => Ok(()),
        }
    }
}

/// Gauss–Legendre nodes $c$, matrix $A$, weights $b$ of $s$ stages.
#[derive(Debug, Clone)]
pub struct GaussTableau {
    /// Nodes $c_i\in(0, 1)$.
    pub c: Vec<f64>,
    /// $a_{ij} = \int_0^{c_i}\ell_j$ (row major).
    pub a: Vec<Vec<f64>>,
    /// Weights $b_j$.
    pub b: Vec<f64>,
}

impl GaussTableau {
    /// The $s$-stage tableau (`1 <= s <= 6`). The nodes are the Gauss–Legendre points on
    /// $[0, 1]$, $c_i = (1 + \xi_i)/2$ with $\xi_i$ the eigenvalues of the Jacobi matrix of the
    /// Legendre recurrence (off-diagonal $k/\sqrt{4k^2 - 1}$, Golub–Welsch); the weights
    /// and $A$ follow from the simplifying conditions $B(s)$, $\sum_j b_jc_j^{k-1} = 1/k$,
    /// and $C(s)$, $\sum_j a_{ij}c_j^{k-1} = c_i^k/k$ ($k = 1..s$).
    pub fn new(s: usize) -> Result<Self, SolveError> {
        if !(1..=6).contains(&s) {
            return Err(SolveError::Parameter(format!(
                "Gauss tableau: stages must satisfy 1 <= stages <= 6, got {s}"
            )));
        }
        let jacobi = Mat::<f64>::from_fn(s, s, |i, j| {
            let k = i.max(j) as f64;
            if i.abs_diff(j) == 1 {
                k / (4.0 * k * k - 1.0).sqrt()
            } else {
                0.0
            }
        });
        let mut xi = jacobi
            .self_adjoint_eigenvalues(Side::Lower)
            .map_err(|e| SolveError::Eigen(format!("Gauss tableau: {e:?}")))?;
        xi.sort_by(f64::total_cmp);
        let c: Vec<f64> = xi.iter().map(|x| 0.5 * (1.0 + x)).collect();
        // V[k][j] = c_j^k; solve V v = rhs_k for the weights and every row of A.
        let solve = |rhs: &dyn Fn(usize) -> f64| {
            let mut m: Vec<Vec<f64>> = (0..s)
                .map(|k| {
                    let mut row: Vec<f64> = c.iter().map(|cj| cj.powi(k as i32)).collect();
                    row.push(rhs(k));
                    row
                })
                .collect();
            solve_dense(&mut m)
        };
        let b = solve(&|k| 1.0 / (k as f64 + 1.0));
        let a = (0..s)
            .map(|i| solve(&|k| c[i].powi(k as i32 + 1) / (k as f64 + 1.0)))
            .collect();
        Ok(Self { c, a, b })
    }
}

/// Gaussian elimination with partial pivoting on an augmented `s × (s+1)` matrix.
fn solve_dense(m: &mut [Vec<f64>]) -> Vec<f64> {
    let s = m.len();
    for k in 0..s {
        let p = (k..s)
            .max_by(|&i, &j| m[i][k].abs().total_cmp(&m[j][k].abs()))
            .unwrap_or(k);
        m.swap(k, p);
        for i in k + 1..s {
            let f = m[i][k] / m[k][k];
            for j in k..=s {
                m[i][j] -= f * m[k][j];
            }
        }
    }
    let mut x = vec![0.0; s];
    for k in (0..s).rev() {
        let mut v = m[k][s];
        for j in k + 1..s {
            v -= m[k][j] * x[j];
        }
        x[k] = v / m[k][k];
    }
    x
}

/// Lagrange basis values at `t` for `nodes`.
fn lagrange(nodes: &[f64], t: f64, out: &mut [f64]) {
    for (k, o) in out.iter_mut().enumerate() {
        let mut v = 1.0;
        for (j, &nj) in nodes.iter().enumerate() {
            if j != k {
                v *= (t - nj) / (nodes[k] - nj);
            }
        }
        *o = v;
    }
}

/// Halvings of a grid step whose Newton iteration fails (the step is then redone as two
/// half steps, recursively; the smallest step is $h/2^{6}$).
const MAX_HALVINGS: u32 = 6;

/// The Gauss collocation integrator (see the module documentation).
pub struct GaussCollocation<'a, S: PhSystem + ?Sized> {
    sys: &'a S,
    input: InputFn,
    step: FixedStepParams,
    params: GaussParams,
    tab: GaussTableau,
    projection: Option<Projector>,
}

impl<S: PhSystem + ?Sized> std::fmt::Debug for GaussCollocation<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let settings = (&self.step, &self.params);
        debug_integrator(f, "GaussCollocation", &settings, self.sys.n_states())
    }
}

/// Work arrays of a run (allocated once).
struct Work {
    n: usize,
    s: usize,
    /// Stage increments $Z$ (stage-major, `s·n`).
    z: Vec<f64>,
    /// Newton right-hand side / increment.
    r: Vec<f64>,
    /// $f(X_j)$ per stage.
    f: Vec<f64>,
    /// Efforts per stage.
    e: Vec<f64>,
    /// Stage state.
    xs: Vec<f64>,
    /// Stage inputs (`s·m`).
    u: Vec<f64>,
    m: usize,
    /// Increment $\Delta(x_0, X_i)$ of one stage (state-dependent descriptor).
    d: Vec<f64>,
}

impl<'a, S: PhSystem + ?Sized> GaussCollocation<'a, S> {
    /// Validates the span, the settings and the input dimension. Systems with a
    /// state-dependent descriptor ([`PhSystem::state_dependent_descriptor`]) are integrated
    /// in their conservation form (module documentation).
    pub fn new(
        sys: &'a S,
        input: InputFn,
        step: FixedStepParams,
        params: GaussParams,
    ) -> Result<Self, SolveError> {
        step.validate()?;
        params.validate()?;
        check_input(sys.ports(), sys.n_inputs(), &input)?;
        Ok(Self {
            tab: GaussTableau::new(params.stages)?,
            sys,
            input,
            step,
            params,
            projection: None,
        })
    }

    /// Switches the drift projection after every step on ([`PhSystem::project`]; off by
    /// default). [`SolveError::NotApplicable`] if the system has no projection.
    pub fn with_projection(mut self, opts: ProjectionOptions) -> Result<Self, SolveError> {
        self.projection = Some(Projector::new(self.sys, opts, "gauss")?);
        Ok(self)
    }

    /// The settings.
    pub fn params(&self) -> &GaussParams {
        &self.params
    }

    /// Evaluates $f$ and $z$ at all stages $x_0 + Z_j$ (inputs `w.u` set).
    fn stage_rhs(&self, x0: &[f64], w: &mut Work) {
        let (n, m) = (w.n, w.m);
        for j in 0..w.s {
            for i in 0..n {
                w.xs[i] = x0[i] + w.z[j * n + i];
            }
            let e = &mut w.e[j * n..(j + 1) * n];
            self.sys.effort(&w.xs, e);
            self.sys.rhs_with_effort(
                &w.xs,
                e,
                &w.u[j * m..(j + 1) * m],
                &mut w.f[j * n..(j + 1) * n],
            );
        }
    }

    /// The Newton matrix $I\otimes E - hA\otimes\partial_xf$ at `x` with input `u`.
    /// Rows and columns of the multipliers are scaled by $1/h$ (the index-2 scaling of
    /// Hairer–Wanner VII.8), which keeps the matrix conditioned like $O(1)$ as $h\to0$.
    fn newton_matrix(
        &self,
        E: &SparseMat,
        x: &[f64],
        u: &[f64],
        h: f64,
        algebraic: &[bool],
    ) -> SparseMat {
        let n = x.len();
        let s = self.tab.c.len();
        let jac = self.sys.rhs_jacobian(x, u);
        let sc = |i: usize| if algebraic[i] { 1.0 / h } else { 1.0 };
        let mut t = Triplets::new(s * n, s * n);
        for i in 0..s {
            for c in 0..n {
                for (r, v) in sparse::col_iter(E, c) {
                    t.push(i * n + r, i * n + c, v * sc(r) * sc(c));
                }
                for (r, v) in sparse::col_iter(&jac, c) {
                    let w = v * sc(r) * sc(c);
                    for j in 0..s {
                        t.push(j * n + r, i * n + c, -h * self.tab.a[j][i] * w);
                    }
                }
            }
        }
        t.build()
    }

    /// Solves $\Delta(x_0, x_1) = $ `target` (the differential rows; $\Delta$ =
    /// [`PhSystem::step_increment`], i.e. $\Phi(x_1) - \Phi(x_0)$) for $x_1$ by simplified
    /// Newton from the initial guess in `x1`, with the matrix $E(\bar x) + I_{\rm alg}$
    /// (identity in the multiplier rows, whose values are left untouched) factorized when
    /// `stale`; a slow contraction (> 0.2) marks it stale for the next step, a failing
    /// iteration is restarted once with the exact matrix
    /// [`PhSystem::step_increment_jacobian`] at the current iterate.
    #[allow(clippy::too_many_arguments)]
    fn conservation_update(
        &self,
        x0: &[f64],
        x1: &mut [f64],
        target: &[f64],
        algebraic: &[bool],
        scale: &[f64],
        E: &SparseMat,
        lu: &mut Option<SparseLu>,
        stale: &mut bool,
        res: &mut [f64],
        d: &mut [f64],
        guess: &mut [f64],
        stats: &mut SolverStats,
        t: f64,
    ) -> Result<(), SolveError> {
        let sys = self.sys;
        let tol = self.params.tol;
        let mut exact = false;
        guess.copy_from_slice(x1);
        let mut norm = f64::INFINITY;
        for attempt in 0..2 {
            if attempt > 0 {
                x1.copy_from_slice(guess);
            }
            if *stale || lu.is_none() || attempt > 0 {
                let Ek = if attempt > 0 {
                    exact = true;
                    sys.step_increment_jacobian(x0, x1)
                } else {
                    E.clone()
                };
                let mut tr = Triplets::new(x1.len(), x1.len());
                for c in 0..x1.len() {
                    for (r, v) in sparse::col_iter(&Ek, c) {
                        if !algebraic[r] && !algebraic[c] {
                            tr.push(r, c, v);
                        }
                    }
                    if algebraic[c] {
                        tr.push(c, c, 1.0);
                    }
                }
                let M = tr.build();
                match lu.as_mut() {
                    Some(l) => l.factorize(M.as_ref())?,
                    None => {
                        *lu = Some(SparseLu::from_matrix(
                            "Gauss collocation update matrix E(x) + I_alg",
                            M.as_ref(),
                        )?)
                    }
                }
                stats.factorizations += 1;
                *stale = false;
            }
            let l = lu.as_mut().expect("factorized above");
            let mut prev = f64::INFINITY;
            for _ in 0..10 {
                sys.step_increment(x0, x1, d);
                for i in 0..res.len() {
                    res[i] = if algebraic[i] { 0.0 } else { target[i] - d[i] };
                }
                l.solve_in_place(res)?;
                stats.linear_solves += 1;
                norm = 0.0;
                for i in 0..res.len() {
                    if !algebraic[i] {
                        x1[i] += res[i];
                        norm = norm.max(res[i].abs() * scale[i]);
                    }
                }
                if !norm.is_finite() {
                    break;
                }
                let theta = norm / prev;
                let first = prev == f64::INFINITY;
                if !first && theta > 0.2 && prev > 10.0 * tol && !exact {
                    *stale = true;
                }
                if norm <= tol || (!first && theta < 1.0 && theta / (1.0 - theta) * norm <= tol) {
                    return Ok(());
                }
                if theta >= 1.0 && prev > 10.0 * tol {
                    break;
                }
                prev = norm;
            }
            *stale = true;
        }
        Err(SolveError::NewtonDiverged {
            t,
            iterations: 10,
            residual: norm,
            tol,
        })
    }

    /// Integrates from `x0`, calling `obs` at $t_0$ and at every output time.
    pub fn run(
        &mut self,
        x0: &[f64],
        obs: &mut dyn Observer,
    ) -> Result<IntegrationRun, SolveError> {
        let sys = self.sys;
        let n = sys.n_states();
        let algebraic = algebraic_mask(sys)?;
        let p = self.params;
        let s = p.stages;
        let m = self.input.dim();
        let span = self.step;
        let full = sys.state_dependent_descriptor();
        let mut E = sys.descriptor(x0);
        let alg_idx: Vec<usize> = (0..n).filter(|&i| algebraic[i]).collect();
        let tab = self.tab.clone();
        // Lagrange weights of the collocation polynomial at τ = 1 (nodes 0, c) and of the
        // stage values alone (multipliers).
        let mut nodes0 = vec![0.0];
        nodes0.extend(&tab.c);
        let mut d1 = vec![0.0; s + 1];
        lagrange(&nodes0, 1.0, &mut d1);
        let mut dl = vec![0.0; s];
        lagrange(&tab.c, 1.0, &mut dl);
        let mut w = Work {
            n,
            s,
            z: vec![0.0; s * n],
            r: vec![0.0; s * n],
            f: vec![0.0; s * n],
            e: vec![0.0; s * n],
            xs: vec![0.0; n],
            u: vec![0.0; s * m],
            m,
            d: vec![0.0; n],
        };
        // conservation-form update (state-dependent descriptor): target increment,
        // residual and the factorized E(x̄) + I_alg
        let mut target = vec![0.0; if full { n } else { 0 }];
        let mut res = vec![0.0; if full { n } else { 0 }];
        let mut lu_e: Option<SparseLu> = None;
        let mut lu_e_stale = true;
        let mut prev_q = vec![0.0; (s + 1) * n];
        let mut x_old = vec![0.0; n];
        let mut have_prev = false;
        let mut h_prev = 0.0;
        let mut lu: Option<SparseLu> = None;
        let mut lu_h = f64::NAN;
        let mut stale = true;
        let mut eta_old = 1.0f64;
        let mut stats = SolverStats::default();
        let mut lag = vec![0.0; s + 1];
        let mut u_mid = vec![0.0; m];
        let mut scale = vec![0.0; n];
        let mut x_lin = vec![0.0; n];
        let ranges = sys.ports().ranges();
        let mut stage_powers = vec![0.0; ranges.len()];
        let mut projector = self.projection.take();
        let this = &*self;
        let out = run_fixed_steps(
            sys,
            &this.input,
            &span,
            x0,
            projector.as_mut(),
            obs,
            |st, x, ledger| {
                // pending steps (t_a, t_b, halvings): a step whose Newton iteration fails with fresh
                // matrices is replaced by its two halves (at most `MAX_HALVINGS` times), e.g. the
                // stiff transient after an impulsive load
                let mut pending: VecDeque<(f64, f64, u32)> = VecDeque::from([(st.ta, st.tb, 0)]);
                'steps: while let Some((ta, tb, halvings)) = pending.pop_front() {
                    let h = tb - ta;
                    for j in 0..s {
                        this.input
                            .eval_into(ta + tab.c[j] * h, &mut w.u[j * m..(j + 1) * m]);
                    }
                    for i in 0..n {
                        scale[i] = (if algebraic[i] { h } else { 1.0 }) / (1.0 + x[i].abs());
                    }
                    // predictor: the previous collocation polynomial at the new stage times,
                    // P(1 + c_j r) − x₀ = Σ_k L_k(1 + c_j r) Q_k (nodes 0, c; Q = P(nodes) − x₀)
                    if have_prev {
                        let r = h / h_prev;
                        for j in 0..s {
                            lagrange(&nodes0, 1.0 + tab.c[j] * r, &mut lag);
                            let zj = &mut w.z[j * n..(j + 1) * n];
                            zj.iter_mut().for_each(|v| *v = 0.0);
                            for (k, &l) in lag.iter().enumerate() {
                                for (v, q) in zj.iter_mut().zip(&prev_q[k * n..(k + 1) * n]) {
                                    *v += l * q;
                                }
                            }
                        }
                    } else {
                        w.z.iter_mut().for_each(|v| *v = 0.0);
                    }
                    let mut attempt = 0;
                    loop {
                        if stale || lu.is_none() || (h - lu_h).abs() > 1e-9 * h {
                            this.input.eval_into(ta + 0.5 * h, &mut u_mid);
                            // linearization point: the mean of the predicted stages (x₀ without
                            // a predictor). With a state-dependent descriptor the stiff elastic
                            // momenta vary a lot within a step after an impulsive load; at a
                            // singular configuration x₀ may lie on it (dependent constraint rows,
                            // a nearly singular matrix), the stages lie off it
                            x_lin.copy_from_slice(x);
                            for j in 0..s {
                                for i in 0..n {
                                    if !algebraic[i] {
                                        x_lin[i] += w.z[j * n + i] / s as f64;
                                    }
                                }
                            }
                            if !x_lin.iter().all(|v| v.is_finite()) {
                                x_lin.copy_from_slice(x);
                            }
                            if full {
                                E = sys.descriptor(&x_lin);
                                lu_e_stale = true;
                            }
                            let K = this.newton_matrix(&E, &x_lin, &u_mid, h, &algebraic);
                            match lu.as_mut() {
                                Some(l) => l.factorize(K.as_ref())?,
                                None => {
                                    lu = Some(SparseLu::from_matrix(
                                        "Gauss collocation matrix I⊗E − h A⊗∂f",
                                        K.as_ref(),
                                    )?)
                                }
                            }
                            stats.jacobian_evaluations += 1;
                            stats.factorizations += 1;
                            lu_h = h;
                            stale = false;
                        }
                        let lu_ref = lu.as_mut().expect("factorized above");
                        let mut prev_norm = f64::INFINITY;
                        let mut theta = 0.0f64;
                        let mut eta = eta_old.max(f64::EPSILON).powf(0.8);
                        let mut converged = false;
                        let mut meaningful_theta = false;
                        for it in 0..p.max_iterations {
                            this.stage_rhs(x, &mut w);
                            stats.rhs_evaluations += s;
                            // r = −(E Z_i − h Σ a_ij f_j)
                            w.r.iter_mut().for_each(|v| *v = 0.0);
                            for i in 0..s {
                                let ri = &mut w.r[i * n..(i + 1) * n];
                                let zi = &w.z[i * n..(i + 1) * n];
                                if full {
                                    // Δ(x₀, X_i) = Φ(X_i) − Φ(x₀) (E(X_i − x₀) in the other rows)
                                    for ((xs, x0k), zk) in w.xs.iter_mut().zip(x.iter()).zip(zi) {
                                        *xs = x0k + zk;
                                    }
                                    sys.step_increment(x, &w.xs, &mut w.d);
                                    for (rv, dv) in ri.iter_mut().zip(&w.d) {
                                        *rv -= dv;
                                    }
                                } else {
                                    sparse::mul_add(ri, -1.0, &E, zi);
                                }
                                for j in 0..s {
                                    let a = h * tab.a[i][j];
                                    for (rv, fv) in ri.iter_mut().zip(&w.f[j * n..(j + 1) * n]) {
                                        *rv += a * fv;
                                    }
                                }
                            }
                            for i in 0..s {
                                for &k in &alg_idx {
                                    w.r[i * n + k] /= h;
                                }
                            }
                            lu_ref.solve_in_place(&mut w.r)?;
                            for i in 0..s {
                                for &k in &alg_idx {
                                    w.r[i * n + k] /= h;
                                }
                            }
                            stats.linear_solves += 1;
                            stats.newton_iterations += 1;
                            // the norm measures the differential variables only: the
                            // multipliers do not enter x₁, and at a singular configuration
                            // (dependent constraint rows) they are not unique, so their
                            // increments stall at round-off times the condition number
                            let mut norm = 0.0f64;
                            let mut finite = true;
                            for i in 0..s {
                                for k in 0..n {
                                    let d = w.r[i * n + k];
                                    w.z[i * n + k] += d;
                                    finite &= d.is_finite();
                                    if !algebraic[k] {
                                        norm = norm.max(d.abs() * scale[k]);
                                    }
                                }
                            }
                            if !finite {
                                break;
                            }
                            if !norm.is_finite() {
                                break;
                            }
                            if it > 0 {
                                theta = norm / prev_norm;
                                // ratios of increments at round-off level say nothing about
                                // the matrix
                                meaningful_theta = prev_norm > 10.0 * p.tol;
                                if theta >= 1.0 && meaningful_theta {
                                    break;
                                }
                                eta = theta / (1.0 - theta.min(0.99));
                            }
                            prev_norm = norm;
                            if norm == 0.0 || eta * norm <= p.tol {
                                converged = true;
                                break;
                            }
                        }
                        if converged {
                            if meaningful_theta && theta > p.refresh_theta {
                                stale = true;
                            }
                            eta_old = eta;
                            break;
                        }
                        attempt += 1;
                        stats.rejected_steps += 1;
                        if attempt > 2 && halvings < MAX_HALVINGS {
                            let tm = 0.5 * (ta + tb);
                            pending.push_front((tm, tb, halvings + 1));
                            pending.push_front((ta, tm, halvings + 1));
                            stale = true;
                            continue 'steps;
                        }
                        if attempt > 2 {
                            return Err(SolveError::NewtonDiverged {
                                t: tb,
                                iterations: p.max_iterations,
                                residual: prev_norm,
                                tol: p.tol,
                            });
                        }
                        stale = true;
                        if !full || !w.z.iter().all(|v| v.is_finite()) {
                            w.z.iter_mut().for_each(|v| *v = 0.0);
                        }
                    }
                    // power balance: H₁ − H₀ = h Σ b_i z_iᵀ f_i (at the converged stages), with
                    // z_iᵀ f_i = y_iᵀ u_i − z_iᵀ R z_i per port for the ledger
                    let mut inflow = 0.0;
                    let mut diss = 0.0;
                    ledger.powers.iter_mut().for_each(|v| *v = 0.0);
                    if p.power_balance {
                        this.stage_rhs(x, &mut w);
                        stats.rhs_evaluations += s;
                        for j in 0..s {
                            let (ej, fj) = (&w.e[j * n..(j + 1) * n], &w.f[j * n..(j + 1) * n]);
                            let pw: f64 = ej.iter().zip(fj).map(|(a, b)| a * b).sum();
                            inflow += h * tab.b[j] * pw;
                            for i in 0..n {
                                w.xs[i] = x[i] + w.z[j * n + i];
                            }
                            let y = sys.output(&w.xs, ej);
                            port_powers_into(
                                &ranges,
                                &y,
                                &w.u[j * m..(j + 1) * m],
                                &mut stage_powers,
                            );
                            for (pv, sp) in ledger.powers.iter_mut().zip(&stage_powers) {
                                *pv += tab.b[j] * sp;
                            }
                            diss += tab.b[j] * sparse::bilinear(ej, &sys.dissipation(&w.xs), ej);
                        }
                    }
                    // x₁ = x₀ + Σ d_i Z_i (differential), multipliers extrapolated from the stages
                    x_old.copy_from_slice(x);
                    for i in 0..n {
                        let mut v = if algebraic[i] { 0.0 } else { x[i] };
                        for j in 0..s {
                            v += if algebraic[i] {
                                dl[j] * (x[i] + w.z[j * n + i])
                            } else {
                                d1[j + 1] * w.z[j * n + i]
                            };
                        }
                        x[i] = v;
                    }
                    if full {
                        // Φ(x₁) = Φ(x₀) + Σ_i d_i (Φ(X_i) − Φ(x₀)) = Φ(x₀) + hΣ b_j f(X_j): the
                        // Gauss update of the conservation form, x₁ from the polynomial above as
                        // the initial guess
                        target.iter_mut().for_each(|v| *v = 0.0);
                        for j in 0..s {
                            for i in 0..n {
                                w.xs[i] = x_old[i] + w.z[j * n + i];
                            }
                            sys.step_increment(&x_old, &w.xs, &mut w.d);
                            for (t, dv) in target.iter_mut().zip(&w.d) {
                                *t += d1[j + 1] * dv;
                            }
                        }
                        this.conservation_update(
                            &x_old,
                            x,
                            &target,
                            &algebraic,
                            &scale,
                            &E,
                            &mut lu_e,
                            &mut lu_e_stale,
                            &mut res,
                            &mut w.d,
                            &mut w.xs,
                            &mut stats,
                            tb,
                        )?;
                    }
                    // Q_0 = x₀ − x₁, Q_k = X_k − x₁ (for the next predictor)
                    for i in 0..n {
                        prev_q[i] = x_old[i] - x[i];
                        for j in 0..s {
                            prev_q[(j + 1) * n + i] = x_old[i] + w.z[j * n + i] - x[i];
                        }
                    }
                    have_prev = true;
                    h_prev = h;
                    if let Some(i) = x.iter().position(|v| !v.is_finite()) {
                        return Err(SolveError::NonFinite { t: tb, index: i });
                    }
                    stats.steps += 1;
                    if p.power_balance {
                        ledger.close_step_with(h, diss, sys.hamiltonian(x), inflow);
                    } else {
                        ledger.add_step(h, 0.0);
                        ledger.restart_energy(sys.hamiltonian(x));
                    }
                }
                Ok(())
            },
        );
        self.projection = projector;
        let mut run = out?.into_run(stats);
        if !p.power_balance {
            run.ledger_kind = LedgerKind::HamiltonianOnly;
            run.max_step_residual = None;
        }
        Ok(run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// B(2s) and C(s) to 1e-14 for every s, and the closed form of the 2-stage tableau.
    #[test]
    fn tableau_order_conditions() {
        for s in 1..=6 {
            let t = GaussTableau::new(s).unwrap();
            // B(2s): Σ b c^{k-1} = 1/k, k ≤ 2s; C(s): Σ_j a_ij c_j^{k-1} = c_i^k/k, k ≤ s
            for k in 1..=2 * s {
                let v: f64 =
                    t.b.iter()
                        .zip(&t.c)
                        .map(|(b, c)| b * c.powi(k as i32 - 1))
                        .sum();
                assert!((v - 1.0 / k as f64).abs() < 1e-14, "s {s} B({k}) {v}");
            }
            for i in 0..s {
                for k in 1..=s {
                    let v: f64 = (0..s).map(|j| t.a[i][j] * t.c[j].powi(k as i32 - 1)).sum();
                    assert!((v - t.c[i].powi(k as i32) / k as f64).abs() < 1e-14);
                }
            }
        }
        let t = GaussTableau::new(2).unwrap();
        let r3 = 3f64.sqrt();
        assert!((t.c[0] - (0.5 - r3 / 6.0)).abs() < 1e-15);
        assert!((t.a[0][1] - (0.25 - r3 / 6.0)).abs() < 1e-15);
        assert!((t.a[1][0] - (0.25 + r3 / 6.0)).abs() < 1e-15);
    }
}
