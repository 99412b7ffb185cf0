//! Gauss–Legendre collocation for the multibody pHDAE $E\dot x = f(x, u) = J(x)z(x) + B(x)u$
//! (paper 000 eq. (46)): the $s$-stage Gauss method (order $2s$ for ODEs; $s = 1$ is the
//! implicit midpoint rule of [`crate::MultibodyMidpoint`]), fixed step, simplified Newton
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
//! [`crate::planar_body::full_inertia`], [`crate::spatial_body_core::full_inertia_3d`], eq.
//! (F3): $E(x) = \partial\Phi/\partial x$ with $\Phi = (q, \pi(q, p))$ in their rows and $\Phi = Ex$
//! elsewhere). The system is the conservation form $\frac{d}{dt}\Phi(x) = f(x, u)$, i.e. the
//! ODE/DAE $\dot y = f(\Phi^{-1}(y))$ in $y = \Phi(x)$, and the method is Gauss collocation
//! of that form: with $\Delta(x_0, x) = \Phi(x) - \Phi(x_0)$ ([`Mechanism::step_increment`]),
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
//! step only ([`CollocationRun::max_step_residual`] measures it). The Newton matrix uses
//! $E(\bar x)$ and $\partial_xf(\bar x)$ at the mean of the predicted stages $\bar x$ (not $x_0$:
//! the stiff elastic momenta change a lot within a step after an impulsive load), and a
//! failed iteration restarts from its last iterate rather than from zero. Measured orders
//! and invariants: `tests/collocation_full_inertia.rs`.
//!
//! **Energy.** For a quadratic $H$ (no gravity: kinetic, elastic) the collocation polynomial
//! $x(t)$ gives $H(x_1) - H(x_0) = \int z^\top E\dot x\,dt$, a polynomial of degree $2s - 1$
//! integrated exactly by the Gauss nodes, where $E\dot x = f$ and $z^\top Jz = 0$:
//! $H(x_1) - H(x_0) = h\sum_i b_i\,y_i^\top u_i$ with $y_i^\top u_i = z(X_i)^\top f(X_i)$ —
//! the discrete power balance of the midpoint rule, for every $s$. The quadratic invariants
//! $R^\top R = I$ are kept exactly as well (Gauss methods conserve quadratic invariants).
//!
//! **Order.** Collocation at the Gauss points is of order $2s$ in the differential
//! variables for ODEs and for index-2 constraints whose multiplier can be eliminated by a
//! constant change of variables (e.g. a body point held by a ground spherical joint, where
//! $G(x)p = 0$ is $v_P = 0$); for general index-2 constraints the order of the differential
//! variables drops to $s + 1$ ($s$ odd) or $s$ ($s$ even) (Hairer–Lubich–Roche, Table 4.1),
//! which the tests of the §6.4 case check empirically.
//!
//! **Newton.** The matrix $K = I_s\otimes E - hA\otimes\partial_xf(\bar x, \bar u)$ is
//! factorized with [`SparseLu`] (symbolic analysis once) and kept across steps; it is
//! rebuilt when the contraction $\theta = |\Delta_k|/|\Delta_{k-1}|$ exceeds
//! [`CollocationParams::refresh_theta`], when a step needs more than
//! [`CollocationParams::max_iterations`] iterations or diverges (the step is then redone
//! with a fresh matrix; after two failed retries it is replaced by its two half steps,
//! recursively down to $h/64$, counted in `rejected_steps`), and when $h$ changes
//! (breakpoints, halved steps). The increments are measured in
//! the norm $\max_i |\Delta_i|\,s_i/(1 + |x_{0,i}|)$ ($s_i = h$ for multipliers, 1 otherwise);
//! the iteration stops when $\theta/(1-\theta)\,|\Delta| \le$ `tol`. The initial guess is the
//! previous step's collocation polynomial extrapolated to the new stage times.
//!
//! **Drift projection** (off by default): [`GaussCollocation::with_projection`] projects the
//! state onto the position constraints after every step
//! ([`crate::spatial::project_onto_constraints_3d`] for [`Multibody3d`],
//! [`crate::simulate::project_onto_constraints`] for the planar [`Multibody`]); the energy
//! jumps are recorded in [`CollocationRun::projection`], the power balance is taken before
//! the projection.
//!
//! **Steps.** The grid $t_0 + kh$ is split at the breakpoints of the inputs
//! ([`InputFn::breakpoints`]), so piecewise smooth loads keep the order.
use phlex_core::sparse::{self, SparseMat};
use phlex_core::{Triplets, VarKind};
use phlex_solve::linsolve::SparseLu;
use phlex_solve::problem::Observer;
use phlex_solve::{InputFn, SolveError, SolverStats};

use crate::assembly::Multibody;
use crate::error::MbsError;
use crate::mechanism::Mechanism;
use crate::simulate::{
    project_onto_constraints, ProjectionOptions, ProjectionStats, ProjectionStep,
};
use crate::spatial::assembly::Multibody3d;
use crate::spatial::projection::project_onto_constraints_3d;

/// Parameters of [`GaussCollocation`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CollocationParams {
    /// Number of Gauss stages $s$ (order $2s$), `1..=6`.
    pub stages: usize,
    /// Step $h > 0$ \[s\].
    pub h: f64,
    /// Start time \[s\].
    pub t0: f64,
    /// End time, `t_end > t0` \[s\].
    pub t_end: f64,
    /// Observe every `output_every` grid steps (`>= 1`; the end time is always observed).
    pub output_every: usize,
    /// Newton tolerance on the scaled increment (`> 0`).
    pub tol: f64,
    /// Newton iterations per attempt before the matrix is refreshed (`>= 2`).
    pub max_iterations: usize,
    /// Contraction above which the Newton matrix is rebuilt for the next step (`0 < θ < 1`).
    pub refresh_theta: f64,
    /// Evaluate the discrete power balance of every step
    /// ([`CollocationRun::max_step_residual`]; one extra right-hand side per stage).
    pub power_balance: bool,
}

impl Default for CollocationParams {
    /// 3 stages (order 6), h = 1 ms on [0, 1] s, tolerance 1e-10, 7 iterations,
    /// refresh at θ > 0.3, power balance evaluated.
    fn default() -> Self {
        Self {
            stages: 3,
            h: 1e-3,
            t0: 0.0,
            t_end: 1.0,
            output_every: 1,
            tol: 1e-10,
            max_iterations: 7,
            refresh_theta: 0.3,
            power_balance: true,
        }
    }
}

impl CollocationParams {
    /// Checks the parameters; the message names the violated inequality.
    pub fn validate(&self) -> Result<(), MbsError> {
        let bad = |m: String| Err(MbsError::Solve(SolveError::Parameter(m)));
        if !(1..=6).contains(&self.stages) {
            return bad(format!(
                "collocation stages must satisfy 1 <= stages <= 6, got {}",
                self.stages
            ));
        }
        if !(self.h > 0.0 && self.h.is_finite()) {
            return bad(format!(
                "collocation step must satisfy h > 0, got {}",
                self.h
            ));
        }
        if self.t_end.partial_cmp(&self.t0) != Some(std::cmp::Ordering::Greater)
            || !self.t0.is_finite()
            || !self.t_end.is_finite()
        {
            return bad(format!(
                "collocation interval must satisfy t0 < t_end, got [{}, {}]",
                self.t0, self.t_end
            ));
        }
        if self.output_every == 0 {
            return bad("collocation output_every must satisfy output_every >= 1, got 0".into());
        }
        if !(self.tol > 0.0 && self.tol.is_finite()) {
            return bad(format!(
                "collocation tol must satisfy tol > 0, got {}",
                self.tol
            ));
        }
        if self.max_iterations < 2 {
            return bad(format!(
                "collocation max_iterations must satisfy max_iterations >= 2, got {}",
                self.max_iterations
            ));
        }
        if !(self.refresh_theta > 0.0 && self.refresh_theta < 1.0) {
            return bad(format!(
                "collocation refresh_theta must satisfy 0 < refresh_theta < 1, got {}",
                self.refresh_theta
            ));
        }
        Ok(())
    }
}

/// Result of [`GaussCollocation::run`].
#[derive(Debug, Clone)]
pub struct CollocationRun {
    /// Final state.
    pub x: Vec<f64>,
    /// Work counters (`jacobian_evaluations` = Newton matrix rebuilds).
    pub stats: SolverStats,
    /// Largest $|H_1 - H_0 - h\sum_i b_iy_i^\top u_i|$ of a step (0 unless
    /// [`CollocationParams::power_balance`]).
    pub max_step_residual: f64,
    /// Largest position-level constraint drift at the observed states (after projection,
    /// if switched on).
    pub max_drift: f64,
    /// Statistics of the drift projection, if switched on.
    pub projection: Option<ProjectionStats>,
    /// Net energy inflow $\sum h\sum_i b_i z_i^\top f_i$ (port work minus dissipation)
    /// accumulated up to each observed state, starting with 0 at $t_0$ (empty unless
    /// [`CollocationParams::power_balance`]).
    pub work: Vec<f64>,
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
    /// The $s$-stage tableau (`1 <= s <= 6`): nodes and weights of Gauss–Legendre on
    /// $[0, 1]$, $A$ from the simplifying conditions $C(s)$,
    /// $\sum_j a_{ij}c_j^{k-1} = c_i^k/k$.
    pub fn new(s: usize) -> Result<Self, MbsError> {
        let q = phlex_fem::quadrature::GaussLegendre::new(s)
            .map_err(|e| MbsError::Solve(SolveError::Parameter(format!("Gauss tableau: {e}"))))?;
        let c = q.points.clone();
        // V[k][j] = c_j^k; solve V a_i = (c_i^{k+1}/(k+1))_k for every row i.
        let mut a = vec![vec![0.0; s]; s];
        for (i, ai) in a.iter_mut().enumerate() {
            let mut m: Vec<Vec<f64>> = (0..s)
                .map(|k| {
                    let mut row: Vec<f64> = c.iter().map(|cj| cj.powi(k as i32)).collect();
                    row.push(c[i].powi(k as i32 + 1) / (k as f64 + 1.0));
                    row
                })
                .collect();
            *ai = solve_dense(&mut m);
        }
        Ok(Self { c, a, b: q.weights })
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

/// Steps `(t_a, t_b, ends_on_grid)` of the grid $t_0 + kh$ split at breakpoints.
fn grid(t0: f64, t_end: f64, h: f64, bps: &[f64]) -> Vec<(f64, f64, bool)> {
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

/// The Gauss collocation integrator (see the module documentation).
pub struct GaussCollocation<'a, S: Mechanism + ?Sized> {
    mb: &'a S,
    input: InputFn,
    params: CollocationParams,
    tab: GaussTableau,
    projection: Option<(ProjectionOptions, Projector<S>)>,
}

/// The drift projection of a concrete mechanism type.
type Projector<S> =
    fn(&S, &mut [f64], &[f64], &ProjectionOptions) -> Result<ProjectionStep, MbsError>;

impl<'a> GaussCollocation<'a, Multibody3d> {
    /// Switches the drift projection after every step on
    /// ([`crate::spatial::project_onto_constraints_3d`]; off by default).
    pub fn with_projection(mut self, opts: ProjectionOptions) -> Result<Self, MbsError> {
        opts.validate()?;
        self.projection = Some((opts, project_onto_constraints_3d));
        Ok(self)
    }
}

impl<'a> GaussCollocation<'a, Multibody> {
    /// Switches the drift projection after every step on
    /// ([`crate::simulate::project_onto_constraints`]; off by default).
    pub fn with_projection(mut self, opts: ProjectionOptions) -> Result<Self, MbsError> {
        opts.validate()?;
        self.projection = Some((opts, project_onto_constraints));
        Ok(self)
    }
}

impl<S: Mechanism + ?Sized> std::fmt::Debug for GaussCollocation<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GaussCollocation")
            .field("params", &self.params)
            .field("n", &self.mb.n_states())
            .finish()
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

impl<'a, S: Mechanism + ?Sized> GaussCollocation<'a, S> {
    /// Validates the parameters and the input dimension. Mechanisms with a state-dependent
    /// descriptor ([`Mechanism::state_dependent_descriptor`]) are integrated in their
    /// conservation form (module documentation).
    pub fn new(mb: &'a S, input: InputFn, params: CollocationParams) -> Result<Self, MbsError> {
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
            tab: GaussTableau::new(params.stages)?,
            mb,
            input,
            params,
            projection: None,
        })
    }

    /// Evaluates $f$ and $z$ at all stages $x_0 + Z_j$ (inputs `w.u` set).
    fn stage_rhs(&self, x0: &[f64], w: &mut Work) {
        let (n, m) = (w.n, w.m);
        for j in 0..w.s {
            for i in 0..n {
                w.xs[i] = x0[i] + w.z[j * n + i];
            }
            let e = &mut w.e[j * n..(j + 1) * n];
            self.mb.effort(&w.xs, e);
            self.mb.rhs_with_effort(
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
        let jac = self.mb.rhs_jacobian(x, u);
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
    /// [`Mechanism::step_increment`], i.e. $\Phi(x_1) - \Phi(x_0)$) for $x_1$ by simplified
    /// Newton from the initial guess in `x1`, with the matrix $E(\bar x) + I_{\rm alg}$
    /// (identity in the multiplier rows, whose values are left untouched) factorized when
    /// `stale`; a slow contraction (> 0.2) marks it stale for the next step, a failing
    /// iteration is restarted once with the exact matrix
    /// [`Mechanism::step_increment_jacobian`] at the current iterate.
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
    ) -> Result<(), MbsError> {
        let mb = self.mb;
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
                    mb.step_increment_jacobian(x0, x1)
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
                mb.step_increment(x0, x1, d);
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
        Err(MbsError::Solve(SolveError::NewtonDiverged {
            t,
            iterations: 10,
            residual: norm,
            tol,
        }))
    }

    /// Integrates from `x0`, calling `obs` at $t_0$ and at every output time.
    // `%` rather than `is_multiple_of` (stable only since Rust 1.87; workspace MSRV 1.84).
    #[allow(clippy::manual_is_multiple_of)]
    pub fn run<O: Observer + ?Sized>(
        &mut self,
        x0: &[f64],
        obs: &mut O,
    ) -> Result<CollocationRun, MbsError> {
        let mb = self.mb;
        let n = mb.n_states();
        if x0.len() != n {
            return Err(MbsError::Dimension {
                what: "initial state".into(),
                expected: n,
                found: x0.len(),
            });
        }
        let p = self.params;
        let s = p.stages;
        let m = self.input.dim();
        let mut algebraic = Vec::with_capacity(n);
        for b in mb.blocks() {
            algebraic.extend(std::iter::repeat_n(
                matches!(b.kind, VarKind::Algebraic { .. }),
                b.len,
            ));
        }
        let full = mb.state_dependent_descriptor();
        let mut E = mb.descriptor(x0);
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
        let mut x = x0.to_vec();
        let mut prev_q = vec![0.0; (s + 1) * n];
        let mut x_old = vec![0.0; n];
        let mut have_prev = false;
        let mut h_prev = 0.0;
        let mut lu: Option<SparseLu> = None;
        let mut lu_h = f64::NAN;
        let mut stale = true;
        let mut eta_old = 1.0f64;
        let mut proj_stats: Option<ProjectionStats> = None;
        let mut stats = SolverStats::default();
        let mut max_res = 0.0f64;
        let mut max_drift = mb.max_position_drift(x0);
        let mut lag = vec![0.0; s + 1];
        let mut u_mid = vec![0.0; m];
        let mut scale = vec![0.0; n];
        let mut x_lin = vec![0.0; n];
        obs.observe(p.t0, &x);
        let mut work_total = 0.0;
        let mut work = Vec::new();
        if p.power_balance {
            work.push(0.0);
        }
        let mut k_grid = 0usize;
        // pending steps (t_a, t_b, ends_on_grid, halvings): a step whose Newton iteration
        // fails with fresh matrices is replaced by its two halves (at most
        // `MAX_HALVINGS` times), e.g. the stiff transient after an impulsive load
        let mut pending: std::collections::VecDeque<(f64, f64, bool, u32)> =
            grid(p.t0, p.t_end, p.h, &self.input.breakpoints())
                .into_iter()
                .map(|(a, b, g)| (a, b, g, 0))
                .collect();
        'steps: while let Some((ta, tb, on_grid, halvings)) = pending.pop_front() {
            let is_last = pending.is_empty();
            let h = tb - ta;
            for j in 0..s {
                self.input
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
                    self.input.eval_into(ta + 0.5 * h, &mut u_mid);
                    // linearization point: x₀, or with a state-dependent descriptor the
                    // mean of the predicted stages (the stiff elastic momenta vary a lot
                    // within a step after an impulsive load)
                    x_lin.copy_from_slice(&x);
                    if full {
                        for j in 0..s {
                            for i in 0..n {
                                if !algebraic[i] {
                                    x_lin[i] += w.z[j * n + i] / s as f64;
                                }
                            }
                        }
                        if !x_lin.iter().all(|v| v.is_finite()) {
                            x_lin.copy_from_slice(&x);
                        }
                        E = mb.descriptor(&x_lin);
                        lu_e_stale = true;
                    }
                    let K = self.newton_matrix(&E, &x_lin, &u_mid, h, &algebraic);
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
                    self.stage_rhs(&x, &mut w);
                    stats.rhs_evaluations += s;
                    // r = −(E Z_i − h Σ a_ij f_j)
                    w.r.iter_mut().for_each(|v| *v = 0.0);
                    for i in 0..s {
                        let ri = &mut w.r[i * n..(i + 1) * n];
                        let zi = &w.z[i * n..(i + 1) * n];
                        if full {
                            // Δ(x₀, X_i) = Φ(X_i) − Φ(x₀) (E(X_i − x₀) in the other rows)
                            for ((xs, x0k), zk) in w.xs.iter_mut().zip(&x).zip(zi) {
                                *xs = x0k + zk;
                            }
                            mb.step_increment(&x, &w.xs, &mut w.d);
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
                    let mut norm = 0.0f64;
                    for i in 0..s {
                        for k in 0..n {
                            let d = w.r[i * n + k];
                            w.z[i * n + k] += d;
                            norm = norm.max(d.abs() * scale[k]);
                        }
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
                    pending.push_front((tm, tb, on_grid, halvings + 1));
                    pending.push_front((ta, tm, false, halvings + 1));
                    stale = true;
                    continue 'steps;
                }
                if attempt > 2 {
                    return Err(MbsError::Solve(SolveError::NewtonDiverged {
                        t: tb,
                        iterations: p.max_iterations,
                        residual: prev_norm,
                        tol: p.tol,
                    }));
                }
                stale = true;
                if !full || !w.z.iter().all(|v| v.is_finite()) {
                    w.z.iter_mut().for_each(|v| *v = 0.0);
                }
            }
            // power balance: H₁ − H₀ = h Σ b_i z_iᵀ f_i (at the converged stages)
            let h0 = if p.power_balance {
                mb.hamiltonian(&x)
            } else {
                0.0
            };
            let mut inflow = 0.0;
            if p.power_balance {
                self.stage_rhs(&x, &mut w);
                stats.rhs_evaluations += s;
                for j in 0..s {
                    let pw: f64 = w.e[j * n..(j + 1) * n]
                        .iter()
                        .zip(&w.f[j * n..(j + 1) * n])
                        .map(|(a, b)| a * b)
                        .sum();
                    inflow += h * tab.b[j] * pw;
                }
            }
            // x₁ = x₀ + Σ d_i Z_i (differential), multipliers extrapolated from the stages
            x_old.copy_from_slice(&x);
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
                    mb.step_increment(&x_old, &w.xs, &mut w.d);
                    for (t, dv) in target.iter_mut().zip(&w.d) {
                        *t += d1[j + 1] * dv;
                    }
                }
                self.conservation_update(
                    &x_old,
                    &mut x,
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
                return Err(MbsError::Solve(SolveError::NonFinite { t: tb, index: i }));
            }
            stats.steps += 1;
            if p.power_balance {
                let h1 = mb.hamiltonian(&x);
                max_res = max_res.max((h1 - h0 - inflow).abs());
                work_total += inflow;
            }
            if let Some((opts, project)) = &self.projection {
                self.input.eval_into(tb, &mut u_mid);
                let e0 = mb.hamiltonian(&x);
                crate::simulate::project_and_record(
                    mb,
                    *project,
                    opts,
                    &mut x,
                    &u_mid,
                    tb,
                    e0,
                    &mut proj_stats,
                )?;
            }
            if on_grid {
                k_grid += 1;
            }
            if (on_grid && k_grid % p.output_every == 0) || is_last {
                obs.observe(tb, &x);
                max_drift = max_drift.max(mb.max_position_drift(&x));
                if p.power_balance {
                    work.push(work_total);
                }
            }
        }
        Ok(CollocationRun {
            x,
            stats,
            max_step_residual: max_res,
            max_drift,
            projection: proj_stats,
            work,
        })
    }
}
