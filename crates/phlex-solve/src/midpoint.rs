//! Implicit midpoint / Crank–Nicolson for pH(DAE)s (thesis 004 §3.5, "Crank–Nicolson";
//! paper 000 §5 structure-preserving time discretization).
//!
//! # Linear descriptor systems ([`LinearMidpoint`])
//!
//! For $E\dot e = A e + Bu(t)$ with $A = J - R$, one step of size $h$ reads
//! $$\Big(E - \tfrac h2 A\Big) e_1 = \Big(E + \tfrac h2 A\Big) e_0 + h B\,u(t_{n+1/2}).$$
//! It is solved for the **midpoint** $\bar e = (e_0 + e_1)/2$:
//! $$\Big(E - \tfrac h2 A\Big)\bar e = E e_0 + \tfrac h2 B\,u(t_{n+1/2}),\qquad e_1 = 2\bar e - e_0,$$
//! with $E - \frac h2 A$ factorized **once** for the fixed step (the pattern of
//! $\alpha E + \beta A$ is assembled once, [`crate::linsolve::PatternSum`]). The time loop
//! does not allocate.
//!
//! *Power balance.* With $\bar y = B^\top \bar e$ and $\bar u = u(t_{n+1/2})$,
//! $$H(e_1) - H(e_0) = \bar e^\top E (e_1 - e_0) = h\,\bar y^\top \bar u - h\,\bar e^\top R\,\bar e$$
//! holds exactly (up to round-off): lossless systems conserve $H = \frac12 e^\top E e$, and the
//! [`EnergyLedger`] residual of each step is at round-off level. The ledger stores per-port
//! powers $\bar y_p^\top \bar u_p$ at the midpoint and the dissipation $\bar e^\top R \bar e$.
//!
//! *Algebraic variables (Lagrange multipliers).* Rows and columns of $E$ that vanish belong to
//! algebraic variables $\lambda$. For them the scheme imposes the constraint **at the
//! midpoint**, $0 = A_{\lambda\cdot}\,\bar e + B_\lambda \bar u$, and only the midpoint value
//! $\bar\lambda_{n+1/2}$ enters the equations; the endpoint value $2\bar\lambda - \lambda_0$
//! would oscillate from step to step (a known artefact of the midpoint rule on index-2
//! variables) and is never needed, since $E e_1$ does not see $\lambda$. The integrator
//! therefore **stores the midpoint value** in the algebraic components: at output time
//! $t_{n+1}$ the observer receives $\lambda = \bar\lambda_{n+1/2}$, a second-order
//! approximation of $\lambda(t_{n+1/2})$ (first-order in $t_{n+1}$). Differential variables are
//! the endpoint values $e_1$. The initial multiplier $\lambda_0$ is not used. The initial
//! differential state should satisfy the (hidden) constraints, otherwise their violation
//! alternates in sign from step to step.
//!
//! *Breakpoints.* Steps stop exactly on the switching times of the input (see
//! [`crate::fixed_step`]); the shortened steps use a second numeric factorization that shares
//! the symbolic analysis, so the main factorization for $h$ is never destroyed and needs no
//! "restore" refactorization.
//!
//! # Quasilinear pHDAEs ([`QuasiLinearMidpoint`])
//!
//! For $E(x)\dot x = (J(x) - R(x))z(x) + B(x)u$ (paper 000 eq. (34)) the unknown is again the
//! midpoint $x_m = (x_0 + x_1)/2$, solved by Newton ([`crate::newton`]):
//! $$E(x_m)(x_m - x_0) - \tfrac h2\big[(J(x_m) - R(x_m))\,\bar z + B(x_m)\,u_m\big] = 0,$$
//! which is $E(x_m)(x_1 - x_0)/h = (J - R)\bar z + B u_m$ multiplied by $h/2$. The effort is
//! * [`MidpointVariant::Midpoint`]: $\bar z = z(x_m)$, the implicit midpoint rule; energy is
//!   conserved only up to $O(h^2)$ for non-quadratic $H$;
//! * [`MidpointVariant::DiscreteGradient`]: $\bar z$ = Gonzalez's discrete gradient
//!   ([`QuasiLinearPhDae::discrete_gradient`]), for which
//!   $\bar z^\top E(x_m)(x_1 - x_0) = H(x_1) - H(x_0)$, so the discrete power balance
//!   $H_1 - H_0 = h\,\bar y^\top u_m - h\,\bar z^\top R\,\bar z$, $\bar y = B(x_m)^\top \bar z$,
//!   holds up to the Newton tolerance.
//!
//! The Newton matrix is $E(x_m) - \frac h2 (J(x_m) - R(x_m))\,\partial_x z(x_m)$ (the
//! derivatives of $E, J, R, B$ and of the discrete-gradient correction are neglected, which
//! keeps the contraction rate $O(h)$). Variables of blocks declared algebraic
//! ([`phlex_core::VarKind::Algebraic`]) store their midpoint value, as in the linear case.
use faer::sparse::SparseColMat;
use phlex_core::diagnostics::EnergyLedger;
use phlex_core::sparse::{self, SparseMat};
use phlex_core::{LinearPhSystem, QuasiLinearPhDae, VarKind};

use crate::fixed_step::{FixedStepParams, FixedStepResult, StepGrid};
use crate::linsolve::{ruiz_scaling, scale_in_place, PatternSum, SparseLu};
use crate::newton::{Newton, NewtonParams, NonlinearSystem};
use crate::signal::InputFn;
use crate::{Observer, SolveError, SolverStats};

/// Which effort the quasilinear midpoint scheme uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MidpointVariant {
    /// Implicit midpoint rule, $\bar z = z(x_m)$.
    #[default]
    Midpoint,
    /// Gonzalez discrete gradient: exact discrete power balance for any Hamiltonian.
    DiscreteGradient,
}

/// Parameters of the midpoint integrators.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MidpointParams {
    /// Time span, step and output stride.
    pub step: FixedStepParams,
    /// Newton parameters (quasilinear systems only).
    pub newton: NewtonParams,
    /// Effort evaluation (quasilinear systems only; for linear systems both coincide).
    pub variant: MidpointVariant,
}

impl MidpointParams {
    /// Checks every parameter; the message states the inequality that failed.
    pub fn validate(&self) -> Result<(), SolveError> {
        self.step.validate()?;
        self.newton.validate()
    }
}

fn check_input(ports: &phlex_core::PortSet, m: usize, input: &InputFn) -> Result<(), SolveError> {
    if input.dim() != m {
        return Err(SolveError::Dimension(format!(
            "input has {} components but the system has {m} inputs (ports: {})",
            input.dim(),
            ports.names().join(", ")
        )));
    }
    Ok(())
}

fn check_state(what: &str, x: &[f64], n: usize) -> Result<(), SolveError> {
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

/// Accumulates step powers between two ledger samples.
#[derive(Debug, Clone)]
struct LedgerBlock {
    h: f64,
    work: Vec<f64>,
    diss: f64,
    avg: Vec<f64>,
}

impl LedgerBlock {
    fn new(n_ports: usize) -> Self {
        Self {
            h: 0.0,
            work: vec![0.0; n_ports],
            diss: 0.0,
            avg: vec![0.0; n_ports],
        }
    }
    fn add(&mut self, h: f64, powers: &[f64], diss: f64) {
        self.h += h;
        for (w, p) in self.work.iter_mut().zip(powers) {
            *w += h * p;
        }
        self.diss += h * diss;
    }
    fn flush(&mut self, ledger: &mut EnergyLedger, t: f64, H: f64) {
        for (a, w) in self.avg.iter_mut().zip(&self.work) {
            *a = w / self.h;
        }
        ledger.push_step(t, H, self.h, &self.avg, self.diss / self.h);
        self.h = 0.0;
        self.work.iter_mut().for_each(|w| *w = 0.0);
        self.diss = 0.0;
    }
}

fn port_powers_into(ranges: &[std::ops::Range<usize>], y: &[f64], u: &[f64], out: &mut [f64]) {
    for (p, r) in out.iter_mut().zip(ranges) {
        *p = r.clone().map(|k| y[k] * u[k]).sum();
    }
}

/// Crank–Nicolson for a linear descriptor pH system, factorized once for the fixed step.
///
/// ```
/// # use phlex_core::{sparse::{self, Triplets}, LinearPhSystem, PortSet, VarBlock};
/// # use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
/// # use phlex_solve::{fixed_step::FixedStepParams, InputFn};
/// // LC circuit: E = diag(L, C), J = [[0, -1], [1, 0]], H = ½(L i² + C v²).
/// let E = sparse::block_diag(&[&sparse::identity(1, 2.0), &sparse::identity(1, 0.5)]);
/// let mut t = Triplets::new(2, 2);
/// t.push(0, 1, -1.0);
/// t.push(1, 0, 1.0);
/// let sys = LinearPhSystem::new(E, t.build(), sparse::zeros(2, 2), sparse::zeros(2, 0),
///     PortSet::new(), vec![VarBlock::differential("i", "current [A]", 1),
///                          VarBlock::differential("v", "voltage [V]", 1)]).unwrap();
/// let params = MidpointParams {
///     step: FixedStepParams { t0: 0.0, t_end: 10.0, h: 0.01, output_every: 100 },
///     ..Default::default()
/// };
/// let mut cn = LinearMidpoint::new(&sys, InputFn::zeros(0), params).unwrap();
/// let res = cn.run(&[1.0, 0.0], &mut |_t: f64, _e: &[f64]| {}).unwrap();
/// // H is conserved up to round-off (about 1e-16 per step, 1000 steps).
/// assert!(res.ledger.relative_drift() < 1e-12);
/// assert_eq!(res.stats.factorizations, 1);
/// ```
pub struct LinearMidpoint<'a> {
    sys: &'a LinearPhSystem,
    input: InputFn,
    params: MidpointParams,
    A: SparseMat,
    pattern: PatternSum,
    S: SparseColMat<usize, f64>,
    lu: SparseLu<f64>,
    lu_aux: SparseLu<f64>,
    aux_h: f64,
    algebraic: Vec<bool>,
    ranges: Vec<std::ops::Range<usize>>,
    /// Ruiz factors of the midpoint matrix: the LU factorizes $D_r(E - \frac h2A)D_c$
    /// (mixed-FEM blocks span many decades: unscaled, the 128 × 128 App. C Mindlin plate
    /// failed the LU's accuracy probe).
    dr: Vec<f64>,
    dc: Vec<f64>,
}

impl std::fmt::Debug for LinearMidpoint<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinearMidpoint")
            .field("params", &self.params)
            .field("n", &self.sys.n_states())
            .field("lu", &self.lu)
            .finish()
    }
}

/// True for variables whose column of `E` holds no non-zero value.
pub fn zero_columns(E: &SparseMat) -> Vec<bool> {
    (0..E.ncols())
        .map(|j| sparse::col_iter(E, j).all(|(_, v)| v == 0.0))
        .collect()
}

impl<'a> LinearMidpoint<'a> {
    /// Validates the parameters and the input dimension, assembles the pattern of
    /// $\alpha E + \beta A$ once and factorizes $E - \frac h2 A$.
    pub fn new(
        sys: &'a LinearPhSystem,
        input: InputFn,
        params: MidpointParams,
    ) -> Result<Self, SolveError> {
        params.step.validate()?;
        check_input(&sys.ports, sys.n_inputs(), &input)?;
        let A = sys.j_minus_r();
        let pattern = PatternSum::new(&[&sys.E, &A])?;
        let mut S = pattern.zeros::<f64>();
        let h = params.step.h;
        pattern.fill(&[1.0, -0.5 * h], &[&sys.E, &A], &mut S)?;
        let (dr, dc) = ruiz_scaling(&S);
        scale_in_place(&mut S, &dr, &dc);
        let mut lu = SparseLu::new("E - h/2 (J - R) (midpoint matrix)", pattern.symbolic())?;
        lu.factorize(S.as_ref())?;
        let lu_aux = lu.fork()?;
        Ok(Self {
            dr,
            dc,
            algebraic: zero_columns(&sys.E),
            ranges: sys.ports.ranges(),
            sys,
            input,
            params,
            A,
            pattern,
            S,
            lu,
            lu_aux,
            aux_h: f64::NAN,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &MidpointParams {
        &self.params
    }

    /// Variables treated as algebraic (zero column of $E$); they hold midpoint values.
    pub fn algebraic_variables(&self) -> &[bool] {
        &self.algebraic
    }

    /// Integrates from `e0` over `[t0, t_end]`, calling `obs` at $t_0$ and every output time.
    /// `stats.factorizations` counts all numeric factorizations done by this integrator
    /// since construction (1 for a run without breakpoints or shortened steps).
    pub fn run<O: Observer + ?Sized>(
        &mut self,
        e0: &[f64],
        obs: &mut O,
    ) -> Result<FixedStepResult, SolveError> {
        let sys = self.sys;
        let n = sys.n_states();
        let m = sys.n_inputs();
        check_state("initial state e0", e0, n)?;
        let p = self.params.step;
        let mut grid = StepGrid::new(&p, &self.input.breakpoints());
        let mut e = e0.to_vec();
        let mut ebar = vec![0.0; n];
        let mut u = vec![0.0; m];
        let mut y = vec![0.0; m];
        let mut powers = vec![0.0; self.ranges.len()];
        let mut ledger = EnergyLedger::new(&sys.ports, p.t0, sys.hamiltonian(&e));
        let mut block = LedgerBlock::new(self.ranges.len());
        let mut stats = SolverStats::default();
        let (lu0, aux0) = (self.lu.counters(), self.lu_aux.counters());
        let solves_before = lu0.solves + aux0.solves;
        obs.observe(p.t0, &e);
        let mut t = p.t0;
        while let Some(step) = grid.next() {
            let h = step.h;
            self.input.eval_into(step.ta + 0.5 * h, &mut u);
            finite_input(step.ta + 0.5 * h, &u)?;
            // rhs = E e0 + h/2 B u, solved in place for the midpoint.
            ebar.iter_mut().for_each(|v| *v = 0.0);
            sparse::mul_add(&mut ebar, 1.0, &sys.E, &e);
            sparse::mul_add(&mut ebar, 0.5 * h, &sys.B, &u);
            let lu = if step.regular {
                &mut self.lu
            } else {
                if h != self.aux_h {
                    self.pattern
                        .fill(&[1.0, -0.5 * h], &[&sys.E, &self.A], &mut self.S)?;
                    scale_in_place(&mut self.S, &self.dr, &self.dc);
                    self.lu_aux.factorize(self.S.as_ref())?;
                    self.aux_h = h;
                }
                &mut self.lu_aux
            };
            for (v, d) in ebar.iter_mut().zip(&self.dr) {
                *v *= d;
            }
            lu.solve_in_place(&mut ebar)?;
            for (v, d) in ebar.iter_mut().zip(&self.dc) {
                *v *= d;
            }
            for ((ei, &bi), &alg) in e.iter_mut().zip(&ebar).zip(&self.algebraic) {
                *ei = if alg { bi } else { 2.0 * bi - *ei };
            }
            t = step.tb;
            stats.steps += 1;
            stats.rhs_evaluations += 1;
            // Midpoint powers.
            y.iter_mut().for_each(|v| *v = 0.0);
            sparse::mul_add_transpose(&mut y, 1.0, &sys.B, &ebar);
            port_powers_into(&self.ranges, &y, &u, &mut powers);
            let diss = sparse::bilinear(&ebar, &sys.R, &ebar);
            block.add(h, &powers, diss);
            if let Some(k) = step.grid_index {
                if grid.is_output(k) {
                    block.flush(&mut ledger, t, sys.hamiltonian(&e));
                    obs.observe(t, &e);
                }
            }
        }
        let (lu1, aux1) = (self.lu.counters(), self.lu_aux.counters());
        stats.factorizations = lu1.numeric + aux1.numeric;
        stats.linear_solves = lu1.solves + aux1.solves - solves_before;
        Ok(FixedStepResult {
            stats,
            ledger,
            t,
            state: e,
        })
    }
}

/// Matrices $E$, $J - R$, $B$, $R$ at a point.
type Mats = (SparseMat, SparseMat, SparseMat, SparseMat);

fn eval_mats<S: QuasiLinearPhDae + ?Sized>(sys: &S, x: &[f64]) -> Mats {
    let J = sys.structure(x);
    let R = sys.dissipation(x);
    (
        sys.descriptor(x),
        sparse::add(1.0, &J, -1.0, &R),
        sys.input_map(x),
        R,
    )
}

/// The nonlinear system of one quasilinear midpoint step, in the midpoint unknown $x_m$:
/// $F(x_m) = E(x_m)(x_m - x_0) - \frac h2[(J - R)(x_m)\,\bar z + B(x_m)\,u_m]$.
struct MidpointStep<'s, S: QuasiLinearPhDae + ?Sized> {
    sys: &'s S,
    variant: MidpointVariant,
    h: f64,
    x0: Vec<f64>,
    u: Vec<f64>,
    x1: Vec<f64>,
    z: Vec<f64>,
    d: Vec<f64>,
    /// Matrices of a system with constant $E, J, R, B$ (evaluated once).
    constant: Option<Mats>,
}

impl<S: QuasiLinearPhDae + ?Sized> MidpointStep<'_, S> {
    /// Sets `self.z` to the effort of the scheme at midpoint `xm`.
    fn effort(&mut self, xm: &[f64]) {
        match self.variant {
            MidpointVariant::Midpoint => self.sys.effort(xm, &mut self.z),
            MidpointVariant::DiscreteGradient => {
                for ((x1, &xm), &x0) in self.x1.iter_mut().zip(xm).zip(&self.x0) {
                    *x1 = 2.0 * xm - x0;
                }
                self.sys.discrete_gradient(&self.x0, &self.x1, &mut self.z);
            }
        }
    }
}

impl<S: QuasiLinearPhDae + ?Sized> NonlinearSystem for MidpointStep<'_, S> {
    fn dim(&self) -> usize {
        self.x0.len()
    }
    fn residual(&mut self, xm: &[f64], r: &mut [f64]) -> Result<(), SolveError> {
        self.effort(xm);
        let owned;
        let (E, A, B) = match &self.constant {
            Some((e, a, b, _)) => (e, a, b),
            None => {
                owned = eval_mats(self.sys, xm);
                (&owned.0, &owned.1, &owned.2)
            }
        };
        for ((d, &a), &b) in self.d.iter_mut().zip(xm).zip(&self.x0) {
            *d = a - b;
        }
        r.iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(r, 1.0, E, &self.d);
        sparse::mul_add(r, -0.5 * self.h, A, &self.z);
        sparse::mul_add(r, -0.5 * self.h, B, &self.u);
        Ok(())
    }
    fn jacobian(&mut self, xm: &[f64]) -> Result<SparseMat, SolveError> {
        let owned;
        let (E, A) = match &self.constant {
            Some((e, a, _, _)) => (e, a),
            None => {
                owned = eval_mats(self.sys, xm);
                (&owned.0, &owned.1)
            }
        };
        let Dz = self.sys.effort_jacobian(xm);
        let ADz = sparse::matmul(A, &Dz);
        Ok(sparse::add(1.0, E, -0.5 * self.h, &ADz))
    }
}

/// Implicit midpoint or discrete-gradient scheme for a [`QuasiLinearPhDae`], with Newton.
pub struct QuasiLinearMidpoint<'a, S: QuasiLinearPhDae + ?Sized> {
    sys: &'a S,
    input: InputFn,
    params: MidpointParams,
    newton: Newton,
    algebraic: Vec<bool>,
    ranges: Vec<std::ops::Range<usize>>,
}

impl<S: QuasiLinearPhDae + ?Sized> std::fmt::Debug for QuasiLinearMidpoint<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QuasiLinearMidpoint")
            .field("params", &self.params)
            .field("n", &self.sys.n_states())
            .field("newton", &self.newton)
            .finish()
    }
}

impl<'a, S: QuasiLinearPhDae + ?Sized> QuasiLinearMidpoint<'a, S> {
    /// Validates the parameters and the input dimension (sum of the port dimensions).
    pub fn new(sys: &'a S, input: InputFn, params: MidpointParams) -> Result<Self, SolveError> {
        params.validate()?;
        let ports = sys.ports();
        check_input(ports, ports.total_dim(), &input)?;
        let mut algebraic = Vec::with_capacity(sys.n_states());
        for b in sys.blocks() {
            let alg = matches!(b.kind, VarKind::Algebraic { .. });
            algebraic.extend(std::iter::repeat(alg).take(b.len));
        }
        if algebraic.len() != sys.n_states() {
            return Err(SolveError::Dimension(format!(
                "variable blocks cover {} states, the system has {}",
                algebraic.len(),
                sys.n_states()
            )));
        }
        Ok(Self {
            ranges: ports.ranges(),
            newton: Newton::new(params.newton)?,
            sys,
            input,
            params,
            algebraic,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &MidpointParams {
        &self.params
    }

    /// Integrates from `x0` over `[t0, t_end]`, calling `obs` at $t_0$ and every output time.
    pub fn run<O: Observer + ?Sized>(
        &mut self,
        x0: &[f64],
        obs: &mut O,
    ) -> Result<FixedStepResult, SolveError> {
        let sys = self.sys;
        let n = sys.n_states();
        let m = self.input.dim();
        check_state("initial state x0", x0, n)?;
        let p = self.params.step;
        let constant = if sys.is_constant() {
            Some(eval_mats(sys, x0))
        } else {
            None
        };
        if let Some((_, _, B, _)) = &constant {
            if B.nrows() != n || B.ncols() != m {
                return Err(SolveError::Dimension(format!(
                    "input map B is {}x{}, expected {n}x{m}",
                    B.nrows(),
                    B.ncols()
                )));
            }
        }
        let mut step_sys = MidpointStep {
            sys,
            variant: self.params.variant,
            h: p.h,
            x0: x0.to_vec(),
            u: vec![0.0; m],
            x1: vec![0.0; n],
            z: vec![0.0; n],
            d: vec![0.0; n],
            constant,
        };
        let mut grid = StepGrid::new(&p, &self.input.breakpoints());
        let mut x = x0.to_vec();
        let mut x_prev = x0.to_vec();
        let mut h_prev = 0.0;
        let mut xm = vec![0.0; n];
        let mut powers = vec![0.0; self.ranges.len()];
        let mut ledger = EnergyLedger::new(sys.ports(), p.t0, sys.hamiltonian(&x));
        let mut block = LedgerBlock::new(self.ranges.len());
        let before = self.newton.stats();
        let mut stats = SolverStats::default();
        let mut jac_h = f64::NAN;
        obs.observe(p.t0, &x);
        let mut t = p.t0;
        while let Some(step) = grid.next() {
            let h = step.h;
            step_sys.h = h;
            step_sys.x0.copy_from_slice(&x);
            self.input.eval_into(step.ta + 0.5 * h, &mut step_sys.u);
            finite_input(step.ta + 0.5 * h, &step_sys.u)?;
            if h != jac_h {
                self.newton.invalidate();
                jac_h = h;
            }
            // Predictor: linear extrapolation of the differential variables to the midpoint.
            let c = if h_prev > 0.0 { 0.5 * h / h_prev } else { 0.0 };
            for i in 0..n {
                xm[i] = if self.algebraic[i] {
                    x[i]
                } else {
                    x[i] + c * (x[i] - x_prev[i])
                };
            }
            self.newton.solve(&mut step_sys, &mut xm, step.tb)?;
            // Final effort and energy flows at the converged midpoint.
            step_sys.effort(&xm);
            x_prev.copy_from_slice(&x);
            for i in 0..n {
                x[i] = if self.algebraic[i] {
                    xm[i]
                } else {
                    2.0 * xm[i] - x_prev[i]
                };
            }
            if let Some(i) = x.iter().position(|v| !v.is_finite()) {
                return Err(SolveError::NonFinite {
                    t: step.tb,
                    index: i,
                });
            }
            h_prev = h;
            t = step.tb;
            stats.steps += 1;
            let owned;
            let (B, R) = match &step_sys.constant {
                Some((_, _, b, r)) => (b, r),
                None => {
                    owned = (sys.input_map(&xm), sys.dissipation(&xm));
                    (&owned.0, &owned.1)
                }
            };
            let y = sparse::mul_vec_transpose(B, &step_sys.z);
            port_powers_into(&self.ranges, &y, &step_sys.u, &mut powers);
            let diss = sparse::bilinear(&step_sys.z, R, &step_sys.z);
            block.add(h, &powers, diss);
            if let Some(k) = step.grid_index {
                if grid.is_output(k) {
                    block.flush(&mut ledger, t, sys.hamiltonian(&x));
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
        Ok(FixedStepResult {
            stats,
            ledger,
            t,
            state: x,
        })
    }
}

/// [`SolveError::NonFiniteInput`] for the first non-finite input component.
fn finite_input(t: f64, u: &[f64]) -> Result<(), SolveError> {
    match u.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(index) => Err(SolveError::NonFiniteInput {
            t,
            index,
            value: u[index],
        }),
    }
}
