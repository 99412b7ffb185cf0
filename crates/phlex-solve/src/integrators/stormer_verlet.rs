//! Störmer–Verlet for partitioned lossless linear pH systems (thesis 004 §3.5;
//! Hairer–Lubich–Wanner, *Geometric Numerical Integration*, 2003). It applies to linear
//! systems only ([`PhSystem::is_linear`]); any other system is
//! [`SolveError::NotApplicable`], a linear one without the partitioned structure
//! [`SolveError::NotPartitioned`] (use the midpoint rule then).
//!
//! The system must split into two blocks $e = (e_1, e_2)$ with
//! $$M_1 \dot e_1 = J_{12}\, e_2 + B_1 u,\qquad M_2 \dot e_2 = J_{21}\, e_1 + B_2 u,$$
//! i.e. $E = \mathrm{diag}(M_1, M_2)$, $J = \begin{bmatrix}0 & J_{12}\\ J_{21} & 0\end{bmatrix}$
//! (for a pH system $J_{21} = -J_{12}^\top$, thesis notation $J_{12} = D$) and $R = 0$. This is
//! the structure PFEM produces for lossless problems (thesis 004 §3.1). One step of size $h$
//! is "half step $e_1$, full step $e_2$, half step $e_1$":
//! $$\begin{aligned}
//! e_1^{n+1/2} &= e_1^n + \tfrac h2 M_1^{-1}\big(J_{12} e_2^n + B_1 \bar u\big),\\
//! e_2^{n+1} &= e_2^n + h\, M_2^{-1}\big(J_{21} e_1^{n+1/2} + B_2 \bar u\big),\\
//! e_1^{n+1} &= e_1^{n+1/2} + \tfrac h2 M_1^{-1}\big(J_{12} e_2^{n+1} + B_1 \bar u\big),
//! \end{aligned}$$
//! with the input frozen at the midpoint, $\bar u = u(t_{n+1/2})$ (second order for smooth $u$,
//! and no step straddles a breakpoint, see [`crate::fixed_step`]). $M_1$ and $M_2$ are
//! factorized once ([`SparseLu`]); the step size never enters a matrix, so shortened steps
//! cost nothing extra. The scheme is explicit, symplectic and second order; it is stable for
//! $h\,\omega_\max < 2$ ($\omega_\max$ the largest eigenfrequency). $H$ is **not** conserved
//! exactly but its error stays bounded, $O(h^2)$, over long times (a modified energy is
//! conserved). The [`phlex_core::diagnostics::EnergyLedger`] records $H$ and the midpoint port powers
//! $\bar y^\top \bar u$, $\bar y = B^\top (e^n + e^{n+1})/2$, so its residual measures that
//! $O(h^2)$ energy error.
use phlex_core::sparse::{self, SparseMat};
use phlex_core::{LinearPhSystem, PhSystem};

use crate::fixed_step::FixedStepParams;
use crate::integrators::run::{check_input, run_fixed_steps, IntegrationRun};
use crate::linsolve::SparseLu;
use crate::signal::InputFn;
use crate::{Observer, SolveError, SolverStats};

/// Relative tolerance of the block-structure checks (relative to the largest entry of $J$,
/// resp. $E$).
pub const STRUCTURE_TOL: f64 = 1e-12;

/// Störmer–Verlet integrator for a partitioned lossless linear system (a
/// [`LinearPhSystem`] or any [`PhSystem::is_linear`] system).
pub struct StormerVerlet<'a, S: PhSystem + ?Sized = LinearPhSystem> {
    sys: &'a S,
    /// $B$ (for the midpoint port powers of the ledger).
    B: SparseMat,
    input: InputFn,
    params: FixedStepParams,
    n1: usize,
    J12: SparseMat,
    J21: SparseMat,
    B1: SparseMat,
    B2: SparseMat,
    lu1: SparseLu<f64>,
    lu2: SparseLu<f64>,
}

impl<S: PhSystem + ?Sized> std::fmt::Debug for StormerVerlet<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StormerVerlet")
            .field("params", &self.params)
            .field("n1", &self.n1)
            .field("n2", &(self.sys.n_states() - self.n1))
            .finish()
    }
}

impl<'a, S: PhSystem + ?Sized> StormerVerlet<'a, S> {
    /// Uses the two variable blocks of `sys` as $(e_1, e_2)$; errors if `sys` does not have
    /// exactly two blocks (use [`Self::with_split`] then).
    pub fn new(sys: &'a S, input: InputFn, params: FixedStepParams) -> Result<Self, SolveError> {
        let blocks = sys.blocks();
        if blocks.len() != 2 {
            return Err(SolveError::NotApplicable {
                integrator: "stormer_verlet".into(),
                reason: format!(
                    "it needs exactly 2 variable blocks (e.g. velocities and stresses) to split the state, the system has {} ({}); give the split explicitly (StormerVerlet::with_split) or use the midpoint rule",
                    blocks.len(),
                    blocks.iter().map(|b| b.name.as_str()).collect::<Vec<_>>().join(", ")
                ),
            });
        }
        let n1 = blocks[0].len;
        Self::with_split(sys, input, params, n1)
    }

    /// Splits the state at index `n1`: $e_1$ = `e[..n1]`, $e_2$ = `e[n1..]`. Checks that the
    /// diagonal blocks of $J$, the off-diagonal blocks of $E$ and $R$ vanish
    /// ([`SolveError::NotPartitioned`]) and factorizes $M_1$, $M_2$ once.
    pub fn with_split(
        sys: &'a S,
        input: InputFn,
        params: FixedStepParams,
        n1: usize,
    ) -> Result<Self, SolveError> {
        params.validate()?;
        if !sys.is_linear() {
            return Err(SolveError::NotApplicable {
                integrator: "stormer_verlet".into(),
                reason: "it needs a linear lossless system (z(x) = x, constant E, J, B, R = 0); use the midpoint rule, the discrete gradient or Gauss collocation".into(),
            });
        }
        let n = sys.n_states();
        if !(n1 > 0 && n1 < n) {
            return Err(SolveError::Parameter(format!(
                "split index must satisfy 0 < n1 < n = {n}, got n1 = {n1}"
            )));
        }
        check_input(sys.ports(), sys.n_inputs(), &input)?;
        let x = vec![0.0; n];
        let (E, J, R, B) = (
            sys.descriptor(&x),
            sys.structure(&x),
            sys.dissipation(&x),
            sys.input_map(&x),
        );
        let (r1, r2) = (0..n1, n1..n);
        let jscale = sparse::max_abs(&J).max(f64::MIN_POSITIVE);
        let escale = sparse::max_abs(&E).max(f64::MIN_POSITIVE);
        let check = |block: String, m: &SparseMat, scale: f64| {
            let a = sparse::max_abs(m);
            if a > STRUCTURE_TOL * scale {
                Err(SolveError::NotPartitioned {
                    block,
                    max_abs: a,
                    tol: STRUCTURE_TOL * scale,
                })
            } else {
                Ok(())
            }
        };
        let (name1, name2) = (format!("e[0..{n1}]"), format!("e[{n1}..{n}]"));
        // the blocks that must vanish: R, J[e1, e1], J[e2, e2], E[e1, e2], E[e2, e1]
        check("R".into(), &R, jscale)?;
        let (j, e) = ((&J, jscale), (&E, escale));
        for (block, (m, scale), (ra, rb)) in [
            (format!("J[{name1}, {name1}]"), j, (&r1, &r1)),
            (format!("J[{name2}, {name2}]"), j, (&r2, &r2)),
            (format!("E[{name1}, {name2}]"), e, (&r1, &r2)),
            (format!("E[{name2}, {name1}]"), e, (&r2, &r1)),
        ] {
            check(block, &sparse::slice(m, ra.clone(), rb.clone()), scale)?;
        }
        let M1 = sparse::slice(&E, r1.clone(), r1.clone());
        let M2 = sparse::slice(&E, r2.clone(), r2.clone());
        let lu1 = SparseLu::from_matrix(&format!("M1 = E[{name1}, {name1}]"), M1.as_ref())?;
        let lu2 = SparseLu::from_matrix(&format!("M2 = E[{name2}, {name2}]"), M2.as_ref())?;
        let m = sys.n_inputs();
        Ok(Self {
            J12: sparse::slice(&J, r1.clone(), r2.clone()),
            J21: sparse::slice(&J, r2.clone(), r1.clone()),
            B1: sparse::slice(&B, r1, 0..m),
            B2: sparse::slice(&B, r2, 0..m),
            B,
            sys,
            input,
            params,
            n1,
            lu1,
            lu2,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &FixedStepParams {
        &self.params
    }

    /// Size of the first block.
    pub fn split(&self) -> usize {
        self.n1
    }

    /// Integrates from `e0` over `[t0, t_end]`, calling `obs` at $t_0$ and every output time.
    /// `stats.factorizations` is 2 ($M_1$, $M_2$, done at construction); `rhs_evaluations`
    /// counts the products with $J_{12}$ or $J_{21}$ (three per step).
    pub fn run(
        &mut self,
        e0: &[f64],
        obs: &mut dyn Observer,
    ) -> Result<IntegrationRun, SolveError> {
        let sys = self.sys;
        let (n, n1, m) = (sys.n_states(), self.n1, sys.n_inputs());
        let (mut w1, mut w2) = (vec![0.0; n1], vec![0.0; n - n1]);
        let (mut u, mut y, mut e_old) = (vec![0.0; m], vec![0.0; m], e0.to_vec());
        let mut stats = SolverStats::default();
        let solves0 = self.lu1.counters().solves + self.lu2.counters().solves;
        let span = self.params;
        let out = run_fixed_steps(sys, &self.input, &span, e0, None, obs, |step, e, ledger| {
            let h = step.h;
            self.input.eval_into(step.ta + 0.5 * h, &mut u);
            e_old.copy_from_slice(e);
            for half in 0..2 {
                // e1 += h/2 M1⁻¹ (J12 e2 + B1 u)
                w1.iter_mut().for_each(|v| *v = 0.0);
                sparse::mul_add(&mut w1, 1.0, &self.J12, &e[n1..]);
                sparse::mul_add(&mut w1, 1.0, &self.B1, &u);
                self.lu1.solve_in_place(&mut w1)?;
                for (ei, wi) in e[..n1].iter_mut().zip(&w1) {
                    *ei += 0.5 * h * wi;
                }
                if half == 1 {
                    break;
                }
                // e2 += h M2⁻¹ (J21 e1 + B2 u)
                w2.iter_mut().for_each(|v| *v = 0.0);
                sparse::mul_add(&mut w2, 1.0, &self.J21, &e[..n1]);
                sparse::mul_add(&mut w2, 1.0, &self.B2, &u);
                self.lu2.solve_in_place(&mut w2)?;
                for (ei, wi) in e[n1..].iter_mut().zip(&w2) {
                    *ei += h * wi;
                }
            }
            if let Some(i) = e.iter().position(|v| !v.is_finite()) {
                return Err(SolveError::NonFinite {
                    t: step.tb,
                    index: i,
                });
            }
            stats.steps += 1;
            stats.rhs_evaluations += 3;
            // Midpoint port powers (for the ledger only).
            y.iter_mut().for_each(|v| *v = 0.0);
            sparse::mul_add_transpose(&mut y, 0.5, &self.B, &e_old);
            sparse::mul_add_transpose(&mut y, 0.5, &self.B, e);
            ledger.set_powers(&y, &u);
            ledger.close_step(h, 0.0, sys.hamiltonian(e));
            Ok(())
        })?;
        stats.factorizations = self.lu1.counters().numeric + self.lu2.counters().numeric;
        stats.linear_solves = self.lu1.counters().solves + self.lu2.counters().solves - solves0;
        Ok(out.into_run(stats))
    }
}
