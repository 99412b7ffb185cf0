//! Energy-consistent Lie-group midpoint rule for assembled EPHS models.
//!
//! **Why here and not in `phlex-solve` (the model-specific hook of issue 13 item 2):**
//! the scheme needs the group structure of each state (retraction, left-trivialized flows)
//! and the storage energies themselves (for the discrete gradient), which only the
//! assembled EPHS system knows. `phlex-solve`'s integrators see either a vector-space DAE
//! $M\dot y = f(t,y)$ ([`phlex_solve::ImplicitDae`], which [`EphsDae`] implements and
//! Radau IIA integrates) or a [`phlex_core::PhSystem`], whose one-step hooks
//! ([`phlex_core::PhSystem::step_increment`], [`phlex_core::PhSystem::step_rhs`]) are
//! additive in the embedded coordinates: the Newton unknown of `phlex_solve`'s midpoint rule
//! is the embedded $x_1$ (12 numbers per $SE(3)$ pose) with the midpoint $(x_0 + x_1)/2$.
//! The trait has no manifold-update (retraction) hook, and an embedded midpoint of two
//! rotations is not a rotation, so neither the orthogonality of $R$ nor the Casimir
//! $|p_\omega|$ would be kept. Here the unknowns are the tangent increments $v_s$ (6 per
//! pose), $x_1 = x_0\,\tau(v)$, $x_{1/2} = x_0\,\tau(v/2)$, and the discrete gradient is
//! taken storage by storage on those increments. Moving the scheme to `phlex-solve` needs a
//! retraction hook on `PhSystem` (`retract(x, v)`, the tangent dimension) and an EPHS
//! implementation of `PhSystem`; until then it stays with the model.
//!
//! # Scheme
//! One step of size $h$ from $(x_0, z)$ solves, for the tangent increments $v_s$ of every
//! state $s$ and the algebraic unknowns $z$ (evaluated at the midpoint),
//! $$ v_s = h\,F_s\big(x_{1/2}, \bar e, z, u(t_{1/2})\big), \qquad 0 = G\big(x_{1/2}, \bar e, z, u(t_{1/2})\big), $$
//! with $x_{1,s} = x_{0,s}\,\tau_s(v_s)$ and $x_{1/2,s} = x_{0,s}\,\tau_s(v_s/2)$ (vector spaces:
//! $x_0 + v$, the average), where $\tau$ is the retraction of [`Space::retract`]
//! (Cayley on $SO(3)$; on $SE(3)$, $\tau(\omega,\nu) = (\mathrm{cay}\,\omega, (E + \tfrac12\tilde\omega)\nu)$).
//! $F_s$ is the flow into the storage of $s$ and $G$ the algebraic equations, evaluated
//! by the same open-system program as the DAE, but with each storage effort replaced by
//! the **discrete gradient** (Gonzalez 1996, transported to the group by the retraction)
//! $$ \bar e = \mathrm dE(x_{1/2}) + \frac{E(x_1) - E(x_0) - \langle \mathrm dE(x_{1/2}) \mid v\rangle}{|v|^2}\,v , $$
//! so that $\langle \bar e \mid v\rangle = E(x_1) - E(x_0)$ exactly (the correction is
//! skipped when it is at round-off level, $\le 10\varepsilon(|E_0| + |E_1|)$). An energy
//! may supply its own closed-form discrete gradient ([`crate::language::Energy::discrete_gradient`],
//! accepted if it pairs to $E(x_1) - E(x_0)$ to round-off): the gravity potential does,
//! with zero rotational part, so gravity exerts no discrete torque about the centre of
//! mass (the Gonzalez correction $\propto v$ would add one of order $h^2$). The
//! environment keeps effort 0. Consequences, independent of the step size:
//!
//! * **energy:** $\sum_s \Delta E_s = h\sum_s\langle\bar e_s \mid F_s\rangle = 0$ because the
//!   Dirac structures conserve power for any efforts and the Onsager structures
//!   annihilate the energy covector; with an environment $E_{mech} + \theta_0 s$ is
//!   conserved and $\theta_0\Delta s = h\,\theta_0\dot s_{irr} \ge 0$;
//! * **free rigid body:** midpoint Lie–Poisson with the Cayley retraction conserves
//!   $|p_\omega|$ (a Casimir: $p_{1/2}\cdot(p_{1/2}\times\omega) = 0$) and the spatial
//!   momentum $\mathrm{Ad}^*_{q^{-1}}p$: $p_1 = \mathrm{cay}(h\omega)^{-1}p_0$ and
//!   $R_1 = R_0\,\mathrm{cay}(h\omega)$ give $R_1p_1 = R_0p_0$, and
//!   $r_1 - r_0 = hR_0(E + \tfrac h2\tilde\omega)\nu_{1/2} \parallel R_0p_{\nu,0}$;
//! * rotations stay orthogonal to round-off (Cayley).
//!
//! Constraints are enforced at the midpoint on the discrete-gradient efforts; the
//! algebraic values reported with $x_1$ are the midpoint values. The scheme is second
//! order. The nonlinear system is solved by [`phlex_solve::Newton`] (modified Newton
//! with a forward-difference Jacobian).
//!
//! # Drift stabilisation (optional, off by default)
//! The joints constrain velocities only (index 2, seed 001 §6), so the position constraints
//! $q_2o_2 = q_1o_1I(q_r)$ drift by the local error, $O(h^3)$ per step and $O(h^2)$ over a
//! fixed time. With [`Stabilization::Projection`] the positions (body poses and joint
//! coordinates) are projected after every step onto the position constraints *and* the
//! level set of the total energy $E_{mech} + \theta_0 s$ of the step
//! ([`Kinematics::project_conserving`], minimum-norm Gauss–Newton, tolerance
//! [`LieMidpointParams::projection_tol`] on the constraints and $64\varepsilon|E|$ on the
//! energy). Momenta and entropy are not changed. Hence the drift stays at round-off and
//! the energy statement of the scheme is kept: $E_{tot}$ is conserved to Newton
//! tolerance, entropy is untouched. The change of $E_{tot}$ by the projections is
//! accumulated as the projection work $\sum W_k$ ([`LieMidpointResult::projection_work`];
//! it is at round-off unless the energy does not vary along the constraint manifold to
//! first order, where the energy condition is dropped and $W_k$ is of second order in the
//! correction). The price is a correction of the positions of the order of the per-step
//! drift, tangential to the constraint manifold. Seed 001 §7 names GGL stabilisation as
//! an alternative.
use phlex_core::sparse::{SparseMat, Triplets};
use phlex_solve::newton::NonlinearSystem;
use phlex_solve::{Newton, NewtonParams, Observer, SolveError, SolverStats};

use crate::error::EphsError;
use crate::language::space::Space;
use crate::library::kinematics::Kinematics;
use crate::semantics::dae::EphsDae;
use crate::semantics::program::{StorageEnergy, Workspace};

/// Parameters of [`LieMidpoint`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LieMidpointParams {
    /// Step size $h > 0$ (the last step is shortened to end on `t_end`).
    pub h: f64,
    /// Newton parameters (default: rtol 1e-12, atol 1e-14, modified Newton).
    pub newton: NewtonParams,
    /// Use discrete gradients (default true); `false` gives the plain midpoint efforts
    /// $\mathrm dE(x_{1/2})$ (energy-exact only for quadratic energies).
    pub discrete_gradient: bool,
    /// Position-drift stabilisation of the joints (default: none; module docs).
    pub stabilization: Stabilization,
    /// Tolerance of the projection on $\max_j|\Phi_j|_\infty$ (default $10^{-13}$).
    pub projection_tol: f64,
}

/// Position-drift stabilisation of the joint constraints (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stabilization {
    /// None: velocity-level constraints only, the position drift is monitored.
    #[default]
    None,
    /// Energy-conserving projection of the positions onto the position constraints after
    /// every step.
    Projection,
}

impl LieMidpointParams {
    /// Defaults with step `h`.
    pub fn with_step(h: f64) -> Self {
        Self {
            h,
            newton: NewtonParams {
                rtol: 1e-12,
                atol: 1e-14,
                max_iterations: 25,
                modified: true,
                refresh_rate: 0.1,
            },
            discrete_gradient: true,
            stabilization: Stabilization::None,
            projection_tol: 1e-13,
        }
    }
    /// Checks the parameters (the message states the inequality).
    pub fn validate(&self) -> Result<(), EphsError> {
        if !(self.h > 0.0 && self.h.is_finite()) {
            return Err(EphsError::Parameter {
                what: "h".into(),
                detail: format!("the step must satisfy 0 < h < ∞ (got {})", self.h),
            });
        }
        self.newton.validate()?;
        if !(self.projection_tol > 0.0 && self.projection_tol.is_finite()) {
            return Err(EphsError::Parameter {
                what: "projection_tol".into(),
                detail: format!(
                    "the projection tolerance must satisfy 0 < tol < ∞ (got {})",
                    self.projection_tol
                ),
            });
        }
        Ok(())
    }
}

/// Result of [`LieMidpoint::run`].
#[derive(Debug, Clone, PartialEq)]
pub struct LieMidpointResult {
    /// Final time.
    pub t: f64,
    /// Final state `[x coordinates, z]`.
    pub y: Vec<f64>,
    /// Work counters.
    pub stats: SolverStats,
    /// Total change $\sum W_k$ of $E_{mech} + \theta_0 s$ by the position projections (0
    /// without stabilisation; round-off with it, see the module docs).
    pub projection_work: f64,
    /// Largest position residual $\max_j|\Phi_j|_\infty$ found before a projection (the
    /// drift of one step; 0 without stabilisation).
    pub max_step_drift: f64,
}

/// The Lie-group discrete-gradient midpoint integrator (see the module docs).
#[derive(Debug)]
pub struct LieMidpoint<'a> {
    dae: &'a EphsDae,
    params: LieMidpointParams,
}

struct StepSystem<'a> {
    dae: &'a EphsDae,
    layout: Vec<(Space, usize)>,
    tan_off: Vec<usize>,
    nt: usize,
    na: usize,
    h: f64,
    t_mid: f64,
    dg: bool,
    x0: Vec<f64>,
    x1: Vec<f64>,
    xm: Vec<f64>,
    vhalf: Vec<f64>,
    efforts: Vec<Vec<f64>>,
    rates: Vec<f64>,
    res: Vec<f64>,
    ws: Workspace,
    r0: Vec<f64>,
    r1: Vec<f64>,
    /// Scratch: storage states at x0, x1, x½ and the increment (reused).
    sx: [Vec<f64>; 4],
}

impl StepSystem<'_> {
    fn positions(&mut self, w: &[f64]) {
        for (k, (s, o)) in self.layout.iter().enumerate() {
            let (c, d, to) = (s.coords(), s.dim(), self.tan_off[k]);
            let v = &w[to..to + d];
            s.retract(&self.x0[*o..o + c], v, &mut self.x1[*o..o + c]);
            for (a, b) in self.vhalf[..d].iter_mut().zip(v) {
                *a = 0.5 * b;
            }
            s.retract(
                &self.x0[*o..o + c],
                &self.vhalf[..d],
                &mut self.xm[*o..o + c],
            );
        }
    }

    fn discrete_efforts(&mut self, w: &[f64]) {
        let sys = self.dae.system();
        for (si, st) in sys.storages.iter().enumerate() {
            let e = &mut self.efforts[si];
            match &st.energy {
                StorageEnergy::Environment => e.iter_mut().for_each(|v| *v = 0.0),
                StorageEnergy::Mechanical(en) => {
                    let [x0, x1, xm, v] = &mut self.sx;
                    x0.clear();
                    x1.clear();
                    xm.clear();
                    v.clear();
                    for &k in &st.states {
                        let (s, o) = self.layout[k];
                        x0.extend_from_slice(&self.x0[o..o + s.coords()]);
                        x1.extend_from_slice(&self.x1[o..o + s.coords()]);
                        xm.extend_from_slice(&self.xm[o..o + s.coords()]);
                        let to = self.tan_off[k];
                        v.extend_from_slice(&w[to..to + s.dim()]);
                    }
                    let closed = self.dg && en.discrete_gradient(x0, v, e) && {
                        // Accept the closed form if it pairs to the energy change.
                        let (e0, e1) = (en.energy(x0), en.energy(x1));
                        let pairing: f64 = e.iter().zip(v.iter()).map(|(a, b)| a * b).sum();
                        (e1 - e0 - pairing).abs()
                            <= 64.0 * f64::EPSILON * (e0.abs() + e1.abs()).max(pairing.abs())
                    };
                    if !closed {
                        en.differential(xm, e);
                    }
                    if self.dg && !closed {
                        let (e0, e1) = (en.energy(x0), en.energy(x1));
                        let pairing: f64 = e.iter().zip(v.iter()).map(|(a, b)| a * b).sum();
                        let defect = e1 - e0 - pairing;
                        let vv: f64 = v.iter().map(|a| a * a).sum();
                        if defect.abs() > 10.0 * f64::EPSILON * (e0.abs() + e1.abs()) && vv > 0.0 {
                            let c = defect / vv;
                            for (a, b) in e.iter_mut().zip(v.iter()) {
                                *a += c * b;
                            }
                        }
                    }
                }
            }
        }
    }

    fn eval(&mut self, w: &[f64], r: &mut [f64]) {
        self.positions(w);
        self.discrete_efforts(w);
        let z = &w[self.nt..];
        self.dae
            .load_and_run(&mut self.ws, self.t_mid, &self.xm, z, Some(&self.efforts));
        self.dae
            .read_rates(&self.ws, &mut self.rates, &mut self.res);
        for i in 0..self.nt {
            r[i] = w[i] - self.h * self.rates[i];
        }
        r[self.nt..].copy_from_slice(&self.res);
    }
}

impl NonlinearSystem for StepSystem<'_> {
    fn dim(&self) -> usize {
        self.nt + self.na
    }
    fn residual(&mut self, x: &[f64], r: &mut [f64]) -> Result<(), SolveError> {
        self.eval(x, r);
        Ok(())
    }
    fn jacobian(&mut self, x: &[f64]) -> Result<SparseMat, SolveError> {
        let n = self.nt + self.na;
        let mut r0 = std::mem::take(&mut self.r0);
        let mut r1 = std::mem::take(&mut self.r1);
        r0.resize(n, 0.0);
        r1.resize(n, 0.0);
        self.eval(x, &mut r0);
        let mut xp = x.to_vec();
        let mut t = Triplets::new(n, n);
        for j in 0..n {
            let hj = f64::EPSILON.sqrt() * x[j].abs().max(if j < self.nt { self.h } else { 1.0 });
            xp[j] = x[j] + hj;
            self.eval(&xp, &mut r1);
            xp[j] = x[j];
            for i in 0..n {
                let d = (r1[i] - r0[i]) / hj;
                if d != 0.0 || i == j {
                    t.push(i, j, d);
                }
            }
        }
        self.r0 = r0;
        self.r1 = r1;
        Ok(t.build())
    }
}

impl<'a> LieMidpoint<'a> {
    /// An integrator for `dae` with validated parameters.
    pub fn new(dae: &'a EphsDae, params: LieMidpointParams) -> Result<Self, EphsError> {
        params.validate()?;
        Ok(Self { dae, params })
    }

    /// Integrates from `(t0, y0)` to `t_end`, calling `observer` at `t0` and after every
    /// step with `[x coordinates, z]`.
    pub fn run<O: Observer + ?Sized>(
        &self,
        t0: f64,
        y0: &[f64],
        t_end: f64,
        observer: &mut O,
    ) -> Result<LieMidpointResult, EphsError> {
        self.run_with_info(t0, y0, t_end, &mut |t: f64, y: &[f64], _w: f64| {
            observer.observe(t, y)
        })
    }

    /// As [`LieMidpoint::run`], the callback also receiving the accumulated projection work
    /// $\sum_{k\le n}W_k$ (0 without stabilisation).
    pub fn run_with_info(
        &self,
        t0: f64,
        y0: &[f64],
        t_end: f64,
        observer: &mut dyn FnMut(f64, &[f64], f64),
    ) -> Result<LieMidpointResult, EphsError> {
        let dae = self.dae;
        let n = phlex_solve::ImplicitDae::dim(dae);
        if y0.len() != n {
            return Err(EphsError::Dimension {
                what: "initial state".into(),
                expected: n,
                found: y0.len(),
            });
        }
        if !(t_end > t0) {
            return Err(EphsError::Parameter {
                what: "t_end".into(),
                detail: format!("must satisfy t_end > t0 (got t0 = {t0}, t_end = {t_end})"),
            });
        }
        let nc = dae.n_coords();
        let layout = dae.state_layout();
        let mut tan_off = Vec::new();
        let mut nt = 0;
        for (s, _) in &layout {
            tan_off.push(nt);
            nt += s.dim();
        }
        let na = dae.n_algebraic();
        let sys = dae.system();
        let efforts = sys
            .storages
            .iter()
            .map(|st| vec![0.0; st.efforts.iter().map(|&e| sys.slots[e].len).sum()])
            .collect();
        let maxd = layout.iter().map(|(s, _)| s.dim()).max().unwrap_or(0);
        let mut ss = StepSystem {
            dae,
            layout,
            tan_off,
            nt,
            na,
            h: self.params.h,
            t_mid: t0,
            dg: self.params.discrete_gradient,
            x0: y0[..nc].to_vec(),
            x1: y0[..nc].to_vec(),
            xm: y0[..nc].to_vec(),
            vhalf: vec![0.0; maxd],
            efforts,
            rates: vec![0.0; nt],
            res: vec![0.0; na],
            ws: dae.workspace(),
            r0: Vec::new(),
            r1: Vec::new(),
            sx: Default::default(),
        };
        let mut newton = Newton::new(self.params.newton)?;
        let kin = match self.params.stabilization {
            Stabilization::None => None,
            Stabilization::Projection => {
                Some(Kinematics::new(dae)).filter(|k| !k.joints.is_empty())
            }
        };
        let (mut work, mut max_step_drift) = (0.0f64, 0.0f64);
        let mut y = y0.to_vec();
        let mut t = t0;
        observer(t, &y, work);
        let mut w = vec![0.0; nt + na];
        let mut stats = SolverStats::default();
        let mut last_h = f64::NAN;
        let mut k = 0usize;
        while t < t_end {
            // Times t0 + k h (no accumulation of rounding); the last step ends on t_end.
            let mut t_next = t0 + (k + 1) as f64 * self.params.h;
            if t_next > t_end - 1e-9 * self.params.h {
                t_next = t_end;
            }
            let h = t_next - t;
            if !((h - last_h).abs() <= 1e-9 * h) {
                newton.invalidate();
                last_h = h;
            }
            ss.h = h;
            ss.t_mid = t + 0.5 * h;
            ss.x0.copy_from_slice(&y[..nc]);
            // Predictor: explicit rates at (x0, z).
            dae.load_and_run(&mut ss.ws, t, &y[..nc], &y[nc..], None);
            dae.read_rates(&ss.ws, &mut ss.rates, &mut ss.res);
            for i in 0..nt {
                w[i] = h * ss.rates[i];
            }
            w[nt..].copy_from_slice(&y[nc..]);
            newton.solve(&mut ss, &mut w, t + h)?;
            ss.positions(&w);
            y[..nc].copy_from_slice(&ss.x1);
            y[nc..].copy_from_slice(&w[nt..]);
            if let Some(kin) = &kin {
                let e0 = dae.total_energy(&y);
                let rep = kin.project_conserving(&mut y, self.params.projection_tol, &|y| {
                    dae.total_energy(y)
                })?;
                work += dae.total_energy(&y) - e0;
                max_step_drift = max_step_drift.max(rep.residual_before);
            }
            t = t_next;
            k += 1;
            stats.steps += 1;
            observer(t, &y, work);
        }
        let ns = newton.stats();
        stats.newton_iterations = ns.newton_iterations;
        stats.rhs_evaluations = ns.rhs_evaluations;
        stats.jacobian_evaluations = ns.jacobian_evaluations;
        stats.factorizations = ns.factorizations;
        stats.linear_solves = ns.linear_solves;
        Ok(LieMidpointResult {
            t,
            y,
            stats,
            projection_work: work,
            max_step_drift,
        })
    }
}
