//! The linear fast path of the midpoint rule: Crank–Nicolson for a linear descriptor pH
//! system ([`PhSystem::is_linear`]: $E\dot e = (J - R)e + Bu$, $H = \frac12 e^\top Ee$;
//! thesis 004 §3.5, "Crank–Nicolson"), one factorization for the whole run.
//!
//! One step of size $h$ reads
//! $$\Big(E - \tfrac h2 A\Big) e_1 = \Big(E + \tfrac h2 A\Big) e_0 + h B\,u(t_{n+1/2}),\qquad A = J - R.$$
//! It is solved for the **midpoint** $\bar e = (e_0 + e_1)/2$:
//! $$\Big(E - \tfrac h2 A\Big)\bar e = E e_0 + \tfrac h2 B\,u(t_{n+1/2}),\qquad e_1 = 2\bar e - e_0,$$
//! with $E - \frac h2 A$ factorized **once** for the fixed step (the pattern of
//! $\alpha E + \beta A$ is assembled once, [`crate::linsolve::PatternSum`]). The time loop
//! does not allocate.
//!
//! *Power balance.* With $\bar y = B^\top \bar e$ and $\bar u = u(t_{n+1/2})$,
//! $$H(e_1) - H(e_0) = \bar e^\top E (e_1 - e_0) = h\,\bar y^\top \bar u - h\,\bar e^\top R\,\bar e$$
//! holds exactly (up to round-off): lossless systems conserve $H$, and the
//! [`phlex_core::diagnostics::EnergyLedger`] residual of each step is at round-off level.
//!
//! *Algebraic variables (Lagrange multipliers).* Rows and columns of $E$ that vanish belong
//! to algebraic variables $\lambda$. The scheme imposes the constraint **at the midpoint**,
//! $0 = A_{\lambda\cdot}\,\bar e + B_\lambda \bar u$, and only $\bar\lambda_{n+1/2}$ enters the
//! equations; the endpoint value $2\bar\lambda - \lambda_0$ would oscillate from step to step
//! and is never needed, since $E e_1$ does not see $\lambda$. The integrator therefore
//! **stores the midpoint value** in the algebraic components: at output time $t_{n+1}$ the
//! observer receives $\lambda = \bar\lambda_{n+1/2}$. The initial multiplier is not used.
//!
//! *Breakpoints.* Steps stop exactly on the switching times of the input (see
//! [`crate::fixed_step`]); the shortened steps use a second numeric factorization that
//! shares the symbolic analysis, so the main factorization for $h$ is never destroyed.
use faer::sparse::SparseColMat;
use phlex_core::sparse::{self, SparseMat};
use phlex_core::{LinearPhSystem, PhSystem};

use super::MidpointParams;
use crate::integrators::run::{
    check_input, debug_integrator, finite_input, run_fixed_steps, IntegrationRun,
};
use crate::linsolve::{ruiz_scaling, scale_in_place, PatternSum, SparseLu};
use crate::signal::InputFn;
use crate::{Observer, SolveError, SolverStats};

/// Crank–Nicolson for a linear descriptor pH system ([`PhSystem::is_linear`]), factorized
/// once for the fixed step (see the module documentation).
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
pub struct LinearMidpoint<'a, S: PhSystem + ?Sized = LinearPhSystem> {
    sys: &'a S,
    /// $E$, $B$, $R$ (constant).
    E: SparseMat,
    B: SparseMat,
    R: SparseMat,
    input: InputFn,
    params: MidpointParams,
    A: SparseMat,
    pattern: PatternSum,
    S: SparseColMat<usize, f64>,
    lu: SparseLu<f64>,
    lu_aux: SparseLu<f64>,
    aux_h: f64,
    algebraic: Vec<bool>,
    /// Ruiz factors of the midpoint matrix: the LU factorizes $D_r(E - \frac h2A)D_c$
    /// (mixed-FEM blocks span many decades: unscaled, the 128 × 128 App. C Mindlin plate
    /// failed the LU's accuracy probe).
    dr: Vec<f64>,
    dc: Vec<f64>,
}

impl<S: PhSystem + ?Sized> std::fmt::Debug for LinearMidpoint<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        debug_integrator(f, "LinearMidpoint", &self.params, self.sys.n_states())
    }
}

/// True for variables whose column of `E` holds no non-zero value.
pub fn zero_columns(E: &SparseMat) -> Vec<bool> {
    (0..E.ncols())
        .map(|j| sparse::col_iter(E, j).all(|(_, v)| v == 0.0))
        .collect()
}

impl<'a, S: PhSystem + ?Sized> LinearMidpoint<'a, S> {
    /// Validates the parameters and the input dimension, assembles the pattern of
    /// $\alpha E + \beta A$ once and factorizes $E - \frac h2 A$. A system that is not
    /// linear ([`PhSystem::is_linear`]) is [`SolveError::NotApplicable`] (use
    /// [`super::Midpoint`]).
    pub fn new(sys: &'a S, input: InputFn, params: MidpointParams) -> Result<Self, SolveError> {
        params.step.validate()?;
        if !sys.is_linear() {
            return Err(SolveError::NotApplicable {
                integrator: "midpoint (linear fast path)".into(),
                reason: "the system is not linear (z(x) = x with constant E, J, R, B); use the Newton midpoint".into(),
            });
        }
        check_input(sys.ports(), sys.n_inputs(), &input)?;
        let x = vec![0.0; sys.n_states()];
        let (E, R, B) = (sys.descriptor(&x), sys.dissipation(&x), sys.input_map(&x));
        let A = sparse::add(1.0, &sys.structure(&x), -1.0, &R);
        let pattern = PatternSum::new(&[&E, &A])?;
        let mut S = pattern.zeros::<f64>();
        let h = params.step.h;
        pattern.fill(&[1.0, -0.5 * h], &[&E, &A], &mut S)?;
        let (dr, dc) = ruiz_scaling(&S);
        scale_in_place(&mut S, &dr, &dc);
        let mut lu = SparseLu::new("E - h/2 (J - R) (midpoint matrix)", pattern.symbolic())?;
        lu.factorize(S.as_ref())?;
        let lu_aux = lu.fork()?;
        Ok(Self {
            dr,
            dc,
            algebraic: zero_columns(&E),
            E,
            B,
            R,
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
    pub fn run(
        &mut self,
        e0: &[f64],
        obs: &mut dyn Observer,
    ) -> Result<IntegrationRun, SolveError> {
        let sys = self.sys;
        let (n, m) = (sys.n_states(), sys.n_inputs());
        let (mut ebar, mut u, mut y) = (vec![0.0; n], vec![0.0; m], vec![0.0; m]);
        let mut stats = SolverStats::default();
        let (lu0, aux0) = (self.lu.counters(), self.lu_aux.counters());
        let solves_before = lu0.solves + aux0.solves;
        let span = self.params.step;
        let out = run_fixed_steps(sys, &self.input, &span, e0, None, obs, |step, e, ledger| {
            let h = step.h;
            self.input.eval_into(step.ta + 0.5 * h, &mut u);
            finite_input(step.ta + 0.5 * h, &u)?;
            // rhs = E e0 + h/2 B u, solved in place for the midpoint.
            ebar.iter_mut().for_each(|v| *v = 0.0);
            sparse::mul_add(&mut ebar, 1.0, &self.E, e);
            sparse::mul_add(&mut ebar, 0.5 * h, &self.B, &u);
            let lu = if step.regular {
                &mut self.lu
            } else {
                if h != self.aux_h {
                    self.pattern
                        .fill(&[1.0, -0.5 * h], &[&self.E, &self.A], &mut self.S)?;
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
            stats.steps += 1;
            stats.rhs_evaluations += 1;
            // Midpoint powers.
            y.iter_mut().for_each(|v| *v = 0.0);
            sparse::mul_add_transpose(&mut y, 1.0, &self.B, &ebar);
            ledger.set_powers(&y, &u);
            let diss = sparse::bilinear(&ebar, &self.R, &ebar);
            ledger.close_step(h, diss, sys.hamiltonian(e));
            Ok(())
        })?;
        let (lu1, aux1) = (self.lu.counters(), self.lu_aux.counters());
        stats.factorizations = lu1.numeric + aux1.numeric;
        stats.linear_solves = lu1.solves + aux1.solves - solves_before;
        Ok(out.into_run(stats))
    }
}
