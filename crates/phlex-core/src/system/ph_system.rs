//! The one system trait of phlex, [`PhSystem`]: a port-Hamiltonian DAE with a
//! state-dependent descriptor (paper 000 eq. (34); the multibody form eq. (46)),
//! $$E(x)\dot x = \big(J(x) - R(x)\big)z(x) + B(x)u,\qquad y = B(x)^\top z(x),\qquad
//! E(x)^\top z(x) = \nabla H(x),$$
//! with $J = -J^\top$, $R = R^\top \succeq 0$. Algebraic variables (index-2 Lagrange
//! multipliers of velocity constraints, named [`VarBlock`]s of kind
//! [`crate::VarKind::Algebraic`]) have zero rows and columns in $E$.
//!
//! Every model of phlex implements it: linear PFEM models (beams, plates, continua:
//! [`crate::LinearPhSystem`], all matrices constant), planar and spatial multibody systems
//! (state-dependent $J(x)$, $B(x)$, constraints, and for bodies with full inertia a
//! state-dependent $E(x)$). The integrators of `phlex-solve` consume only this trait, so
//! every integrator runs on every model.
//!
//! The methods come in groups:
//! * **sizes and names**: [`PhSystem::n_states`], [`PhSystem::n_inputs`],
//!   [`PhSystem::ports`], [`PhSystem::blocks`];
//! * **the pH structure**: [`PhSystem::hamiltonian`], [`PhSystem::effort`],
//!   [`PhSystem::descriptor`], [`PhSystem::structure`], [`PhSystem::dissipation`],
//!   [`PhSystem::input_map`], [`PhSystem::output`], with the flags
//!   [`PhSystem::is_constant`] and [`PhSystem::is_linear`];
//! * **derivatives**: [`PhSystem::effort_jacobian`], the right-hand side
//!   [`PhSystem::rhs_with_effort`] and its exact Jacobian [`PhSystem::rhs_jacobian`], the
//!   discrete gradient [`PhSystem::discrete_gradient`];
//! * **constraints**: [`PhSystem::max_position_drift`] and the drift projection hook
//!   [`PhSystem::has_projection`] / [`PhSystem::project`] (paper 000 Remark 9);
//! * **state-dependent descriptor** (bodies with full inertia, paper 000 App. F eqs.
//!   (F3)–(F5)): [`PhSystem::state_dependent_descriptor`], [`PhSystem::step_increment`],
//!   [`PhSystem::step_increment_jacobian`], [`PhSystem::step_rhs`],
//!   [`PhSystem::step_rhs_jacobian`], and the constant-mass form for integrators that need
//!   a constant mass matrix: [`PhSystem::constant_mass`], [`PhSystem::to_constant_mass_rhs`],
//!   [`PhSystem::to_constant_mass_jacobian`].
//!
//! The trait is object safe: a CLI can hold a `Box<dyn PhSystem>`.
use crate::sparse::{self, SparseMat, Triplets};
use crate::system::projection::{ProjectionOptions, ProjectionStep};
use crate::{CoreError, PortSet, VarBlock};

/// A port-Hamiltonian DAE $E(x)\dot x = (J(x) - R(x))z(x) + B(x)u$, $y = B(x)^\top z(x)$
/// (paper 000 eq. (34)); see the module documentation.
pub trait PhSystem {
    /// Number of state variables $n$ (differential and algebraic).
    fn n_states(&self) -> usize;

    /// Number of inputs $m$ (columns of $B$); default the sum of the port dimensions.
    fn n_inputs(&self) -> usize {
        self.ports().total_dim()
    }

    /// Named ports: port $k$ owns the columns `ports().range(k)` of $B$.
    fn ports(&self) -> &PortSet;

    /// Named variable blocks covering the state; algebraic blocks are the Lagrange
    /// multipliers (index 2) of the velocity constraints.
    fn blocks(&self) -> &[VarBlock];

    /// Hamiltonian $H(x)$ \[J\].
    fn hamiltonian(&self, x: &[f64]) -> f64;

    /// Effort (co-energy variables) $z(x)$ into `z`, with $E(x)^\top z(x) = \nabla H(x)$
    /// (paper 000 eq. (34)).
    fn effort(&self, x: &[f64], z: &mut [f64]);

    /// Descriptor $E(x)$, symmetric positive semidefinite; zero rows and columns for the
    /// algebraic variables.
    fn descriptor(&self, x: &[f64]) -> SparseMat;

    /// Structure matrix $J(x) = -J(x)^\top$ (for constrained systems it contains the
    /// constraint blocks $J[\lambda, \cdot] = -G(x)$, $J[\cdot, \lambda] = G(x)^\top$, paper 000
    /// eq. (46)).
    fn structure(&self, x: &[f64]) -> SparseMat;

    /// Dissipation $R(x) = R(x)^\top \succeq 0$; zero by default.
    fn dissipation(&self, x: &[f64]) -> SparseMat {
        let _ = x;
        sparse::zeros(self.n_states(), self.n_states())
    }

    /// Input map $B(x)$, `n × m`.
    fn input_map(&self, x: &[f64]) -> SparseMat;

    /// True if $E$, $J$, $R$ and $B$ do not depend on $x$ (solvers may evaluate them once);
    /// the effort may still be nonlinear. Default `false`.
    fn is_constant(&self) -> bool {
        false
    }

    /// True if the system is linear: [`PhSystem::is_constant`] and $z(x) = x$, so
    /// $H = \tfrac12 x^\top E x$ (paper 000 eqs. (29)–(31)). Integrators then use their
    /// linear fast paths (one factorization for the whole run). Default `false`.
    fn is_linear(&self) -> bool {
        false
    }

    /// Jacobian $\partial z/\partial x$; default forward differences, column by column
    /// (step $10^{-7}(1 + |x_j|)$).
    fn effort_jacobian(&self, x: &[f64]) -> SparseMat {
        let n = self.n_states();
        let mut z0 = vec![0.0; n];
        let mut z1 = vec![0.0; n];
        self.effort(x, &mut z0);
        let mut xp = x.to_vec();
        let mut t = Triplets::new(n, n);
        for j in 0..n {
            let h = 1e-7 * (1.0 + x[j].abs());
            xp[j] = x[j] + h;
            self.effort(&xp, &mut z1);
            xp[j] = x[j];
            for i in 0..n {
                let d = (z1[i] - z0[i]) / h;
                if d.abs() > 1e-14 {
                    t.push(i, j, d);
                }
            }
        }
        t.build()
    }

    /// Output $y = B(x)^\top z$ for a given effort `z`.
    fn output(&self, x: &[f64], z: &[f64]) -> Vec<f64> {
        sparse::mul_vec_transpose(&self.input_map(x), z)
    }

    /// Gonzalez's discrete gradient for the descriptor form (the default; a model may
    /// supply its own, e.g. an averaged vector field or the full-inertia effort (F5)):
    /// with $x_m = (x_0 + x_1)/2$ and $w = E(x_m)(x_1 - x_0)$,
    /// $$\bar z = z(x_m) + \frac{H(x_1) - H(x_0) - z(x_m)^\top w}{w^\top w}\, w,$$
    /// so that $\bar z^\top E(x_m)(x_1 - x_0) = H(x_1) - H(x_0)$ exactly
    /// ([`gonzalez_correction`]). Any override must keep the identity
    /// $\bar z^\top\Delta(x_0, x_1) = H(x_1) - H(x_0)$ with the increment $\Delta$ the
    /// integrators use ([`PhSystem::step_increment`] for a state-dependent descriptor).
    fn discrete_gradient(&self, x0: &[f64], x1: &[f64], zbar: &mut [f64]) {
        let xm: Vec<f64> = x0.iter().zip(x1).map(|(a, b)| 0.5 * (a + b)).collect();
        self.effort(&xm, zbar);
        let dx: Vec<f64> = x1.iter().zip(x0).map(|(a, b)| a - b).collect();
        let w = sparse::mul_vec(&self.descriptor(&xm), &dx);
        let (h0, h1) = (self.hamiltonian(x0), self.hamiltonian(x1));
        gonzalez_correction(zbar, &w, (h1 - h0, h0.abs() + h1.abs()), &xm);
    }

    /// Right-hand side $f = (J(x) - R(x))z + B(x)u$ for a given effort `z` (e.g. a
    /// discrete gradient) into `f`; default from the matrices. An override must include
    /// $-Rz$ (the multibody assemblies have $R = 0$).
    fn rhs_with_effort(&self, x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        f.iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(f, 1.0, &self.structure(x), z);
        sparse::mul_add(f, -1.0, &self.dissipation(x), z);
        if !u.is_empty() {
            sparse::mul_add(f, 1.0, &self.input_map(x), u);
        }
    }

    /// Exact Jacobian $\partial_x\big[(J(x) - R(x))z(x) + B(x)u\big]$ (the Newton matrices
    /// of the implicit integrators use it; for mechanisms the derivatives of $J$ and $B$
    /// are not small, e.g. gravity rotated into a body frame). Default
    /// $(J - R)\,\partial_x z$: exact when $J$, $R$ and $B$ are constant; models with
    /// state-dependent matrices override it.
    fn rhs_jacobian(&self, x: &[f64], u: &[f64]) -> SparseMat {
        let _ = u;
        let a = sparse::add(1.0, &self.structure(x), -1.0, &self.dissipation(x));
        sparse::matmul(&a, &self.effort_jacobian(x))
    }

    /// Largest position-level constraint violation $\max|\Phi(q)|$ \[m, rad\] (0 without
    /// constraints, the default). The integrators enforce the velocity constraints; the
    /// positions drift at $O(h^2)$ per unit time (paper 000 Remark 9).
    fn max_position_drift(&self, x: &[f64]) -> f64 {
        let _ = x;
        0.0
    }

    /// True if [`PhSystem::project`] can project a state onto the position constraints
    /// (default `false`: no constraints, or no projection implemented). Integrators reject
    /// a requested projection for a system without one.
    fn has_projection(&self) -> bool {
        false
    }

    /// Drift projection hook (paper 000 Remark 9): moves `x` onto the position
    /// constraints $\Phi(q) = 0$ (and with [`ProjectionOptions::velocities`] its velocities
    /// onto $G(x)p = B_\lambda u$), `u` being the input at the time of `x`. Called by the
    /// integrators after every step when a projection is requested and
    /// [`PhSystem::has_projection`] is true. The default does nothing and reports no
    /// drift.
    ///
    /// Errors: [`CoreError::ProjectionNotConverged`] when the tolerance is not reached
    /// within the iteration limit, [`CoreError::Dimension`], [`CoreError::Parameter`],
    /// [`CoreError::LinAlg`].
    fn project(
        &self,
        x: &mut [f64],
        u: &[f64],
        opts: &ProjectionOptions,
    ) -> Result<ProjectionStep, CoreError> {
        let _ = (x, u, opts);
        Ok(ProjectionStep::default())
    }

    /// True if the descriptor $E(x)$ depends on the state (beams with full inertia, paper
    /// 000 App. F eq. (F3): $E(x) = \partial\Phi/\partial x$ with the momenta
    /// $\Phi = (q, \pi(q, p))$); default `false`, and then the integrators evaluate $E$ once,
    /// at the initial state. When true they use [`PhSystem::step_increment`] and
    /// [`PhSystem::step_rhs`] in place of a constant $E$.
    fn state_dependent_descriptor(&self) -> bool {
        false
    }

    /// Discrete increment $\Delta(x_0, x_1)$ of a one-step scheme, the discrete
    /// counterpart of $E\dot x\,h$ (eq. (F4): $\Phi(x_1) - \Phi(x_0)$ in the rows of bodies with
    /// full inertia), into `out`; default $E(x_0)(x_1 - x_0)$ (exact for a constant $E$).
    fn step_increment(&self, x0: &[f64], x1: &[f64], out: &mut [f64]) {
        let d: Vec<f64> = x1.iter().zip(x0).map(|(a, b)| a - b).collect();
        out.iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(out, 1.0, &self.descriptor(x0), &d);
    }

    /// $\partial\Delta(x_0, x_1)/\partial x_1$; default $E(x_1)$.
    fn step_increment_jacobian(&self, x0: &[f64], x1: &[f64]) -> SparseMat {
        let _ = x0;
        self.descriptor(x1)
    }

    /// Discrete right-hand side $f_h = (\bar J - \bar R)\bar z + B(x_m)u$ of a step
    /// $x_0\to x_1$ with midpoint `xm` and discrete effort `z` (eq. (F4): gyroscopic blocks
    /// from the average momenta); default [`PhSystem::rhs_with_effort`] at `xm`.
    #[allow(clippy::too_many_arguments)]
    fn step_rhs(&self, x0: &[f64], x1: &[f64], xm: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        let _ = (x0, x1);
        self.rhs_with_effort(xm, z, u, f)
    }

    /// $\partial f_h/\partial x_m$ of [`PhSystem::step_rhs`] with its own discrete effort,
    /// as a function of the midpoint $x_m$ with $x_1 = 2x_m - x_0$ (the Newton matrix of a
    /// midpoint step is $\partial\Delta/\partial x_1 - \frac h2\,\partial f_h/\partial x_m$);
    /// default [`PhSystem::rhs_jacobian`] at `xm` (exact for a constant descriptor, an
    /// $O(\Delta x)$ approximation otherwise).
    fn step_rhs_jacobian(&self, x0: &[f64], x1: &[f64], xm: &[f64], u: &[f64]) -> SparseMat {
        let _ = (x0, x1);
        self.rhs_jacobian(xm, u)
    }

    /// A constant mass matrix $E_c$ for integrators that need one (Radau IIA): with
    /// [`PhSystem::to_constant_mass_rhs`], $E_c\dot x = F(x)$ is equivalent to
    /// $E(x)\dot x = f(x)$. Default: $E$ at the zero state (the descriptor of every
    /// constant-$E$ system).
    fn constant_mass(&self) -> SparseMat {
        self.descriptor(&vec![0.0; self.n_states()])
    }

    /// Maps $f(x)$ to $F(x)$ in place (see [`PhSystem::constant_mass`]; for a body with full
    /// inertia $F_v = M_{vv}(u_f)^{-1}(f_v - \partial_{u_f}\pi_v\,v_f)$ in its velocity rows);
    /// default: no change.
    fn to_constant_mass_rhs(&self, x: &[f64], f: &mut [f64]) {
        let _ = (x, f);
    }

    /// Maps $\partial_x f$ to (an approximation of) $\partial_x F$, for the simplified
    /// Newton iterations of implicit integrators; `f` is $f(x)$. Default: unchanged.
    fn to_constant_mass_jacobian(&self, x: &[f64], f: &[f64], jac: SparseMat) -> SparseMat {
        let _ = (x, f);
        jac
    }
}

/// Gonzalez's correction of a midpoint effort: with the increment $w$ (e.g.
/// $E(x_m)(x_1 - x_0)$) and $\Delta H = H(x_1) - H(x_0)$ (`dh`, computed from values of size
/// `h_scale` $\approx |H(x_0)| + |H(x_1)|$),
/// $\bar z \mathrel{+}= \frac{\Delta H - \bar z^\top w}{w^\top w}\,w$, so that
/// $\bar z^\top w = \Delta H$. Nothing is done when $w^\top w \le \varepsilon^2(1 + |x_m|^2)$
/// (a step that does not move), nor when the mismatch $|\Delta H - \bar z^\top w|$ is within
/// the round-off of $\Delta H$ itself, $8\varepsilon\,$`h_scale`: the balance already holds
/// to round-off, and the quotient would turn that round-off into an effort change of size
/// $\varepsilon|H|/|w|$, which for small steps keeps Newton from converging.
pub fn gonzalez_correction(zbar: &mut [f64], w: &[f64], (dh, h_scale): (f64, f64), xm: &[f64]) {
    let ww: f64 = w.iter().map(|v| v * v).sum();
    if ww <= f64::EPSILON * f64::EPSILON * (1.0 + xm.iter().map(|v| v * v).sum::<f64>()) {
        return;
    }
    let zw: f64 = zbar.iter().zip(w).map(|(a, b)| a * b).sum();
    if (dh - zw).abs() <= 8.0 * f64::EPSILON * h_scale {
        return;
    }
    let c = (dh - zw) / ww;
    for (zi, wi) in zbar.iter_mut().zip(w) {
        *zi += c * wi;
    }
}
