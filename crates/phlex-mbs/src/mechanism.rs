//! The interface the multibody integrators need beyond [`QuasiLinearPhDae`]: the
//! right-hand side $f = J(x)z + B(x)u$ for a given effort and its **exact** Jacobian
//! $\partial_x f$ (see [`crate::simulate`] for why the Newton matrix must include the
//! derivatives of $J$ and $B$), the position-level constraint drift, and (default methods)
//! the discrete increment and right-hand side of a midpoint step for systems whose
//! descriptor depends on the state ([`crate::planar_body::full_inertia`], eq. (F4)).
use phlex_core::sparse::SparseMat;
use phlex_core::QuasiLinearPhDae;

/// A quasilinear pH system with an exact right-hand-side Jacobian.
pub trait Mechanism: QuasiLinearPhDae {
    /// $f = J(x)z + B(x)u$ into `f`.
    fn rhs_with_effort(&self, x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]);
    /// $\partial_x\big(J(x)z(x) + B(x)u\big)$.
    fn rhs_jacobian(&self, x: &[f64], u: &[f64]) -> SparseMat;
    /// Largest position-level constraint violation (0 without constraints).
    fn max_position_drift(&self, x: &[f64]) -> f64 {
        let _ = x;
        0.0
    }
    /// True if the descriptor $E(x)$ depends on the state (beams with full inertia,
    /// [`crate::planar_body::full_inertia`], [`crate::spatial_body_core::full_inertia_3d`]);
    /// default `false`. Integrators then
    /// use [`Mechanism::step_increment`] and [`Mechanism::step_rhs`] instead of a constant
    /// $E$.
    fn state_dependent_descriptor(&self) -> bool {
        false
    }
    /// Discrete increment $\Delta(x_0, x_1)$ of a midpoint step, the discrete counterpart
    /// of $E\dot x\,h$, into `out`; default $E(x_0)(x_1 - x_0)$ (exact for a constant $E$).
    fn step_increment(&self, x0: &[f64], x1: &[f64], out: &mut [f64]) {
        let d: Vec<f64> = x1.iter().zip(x0).map(|(a, b)| a - b).collect();
        out.iter_mut().for_each(|v| *v = 0.0);
        phlex_core::sparse::mul_add(out, 1.0, &self.descriptor(x0), &d);
    }
    /// $\partial\Delta(x_0, x_1)/\partial x_1$; default $E(x_1)$.
    fn step_increment_jacobian(&self, x0: &[f64], x1: &[f64]) -> SparseMat {
        let _ = x0;
        self.descriptor(x1)
    }
    /// A constant mass matrix $E_c$ for integrators that need one (Radau IIA,
    /// [`crate::dae::MultibodyDae`]): with [`Mechanism::to_constant_mass_rhs`],
    /// $E_c\dot x = F(x)$ is equivalent to $E(x)\dot x = f(x)$. Default: $E$ at the zero
    /// state (the descriptor of every constant-$E$ mechanism).
    fn constant_mass(&self) -> SparseMat {
        self.descriptor(&vec![0.0; self.n_states()])
    }
    /// Maps $f(x)$ to $F(x)$ in place (see [`Mechanism::constant_mass`]); default: no
    /// change.
    fn to_constant_mass_rhs(&self, x: &[f64], f: &mut [f64]) {
        let _ = (x, f);
    }
    /// Maps $\partial_x f$ to (an approximation of) $\partial_x F$, for the simplified
    /// Newton iterations of implicit integrators; `f` is $f(x)$. Default: unchanged.
    fn to_constant_mass_jacobian(&self, x: &[f64], f: &[f64], jac: SparseMat) -> SparseMat {
        let _ = (x, f);
        jac
    }
    /// $\partial f_h/\partial x_m$ of the discrete right-hand side
    /// $f_h = $ [`Mechanism::step_rhs`] with its own discrete effort, as a function of the
    /// midpoint $x_m$ with $x_1 = 2x_m - x_0$ (the Newton matrix of a midpoint step is
    /// $\partial\Delta/\partial x_1 - \frac h2\,\partial f_h/\partial x_m$); default
    /// [`Mechanism::rhs_jacobian`] at `xm` (exact for a constant descriptor, an $O(\Delta x)$
    /// approximation otherwise).
    fn step_rhs_jacobian(&self, x0: &[f64], x1: &[f64], xm: &[f64], u: &[f64]) -> SparseMat {
        let _ = (x0, x1);
        self.rhs_jacobian(xm, u)
    }
    /// Discrete right-hand side $J z + B u$ of a step $x_0\to x_1$ with midpoint `xm` and
    /// discrete effort `z`; default [`Mechanism::rhs_with_effort`] at `xm`.
    #[allow(clippy::too_many_arguments)]
    fn step_rhs(&self, x0: &[f64], x1: &[f64], xm: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        let _ = (x0, x1);
        self.rhs_with_effort(xm, z, u, f)
    }
}

impl Mechanism for crate::assembly::Multibody {
    fn rhs_with_effort(&self, x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        crate::assembly::Multibody::rhs_with_effort(self, x, z, u, f)
    }
    fn rhs_jacobian(&self, x: &[f64], u: &[f64]) -> SparseMat {
        crate::assembly::Multibody::rhs_jacobian(self, x, u)
    }
    fn max_position_drift(&self, x: &[f64]) -> f64 {
        crate::assembly::Multibody::max_position_drift(self, x)
    }
    fn state_dependent_descriptor(&self) -> bool {
        self.has_full_inertia()
    }
    fn step_increment(&self, x0: &[f64], x1: &[f64], out: &mut [f64]) {
        crate::assembly::Multibody::step_increment(self, x0, x1, out)
    }
    fn step_rhs(&self, x0: &[f64], x1: &[f64], xm: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        crate::assembly::Multibody::rhs_discrete(self, x0, x1, xm, z, u, f)
    }
    fn constant_mass(&self) -> SparseMat {
        crate::assembly::Multibody::constant_mass(self)
    }
    fn to_constant_mass_rhs(&self, x: &[f64], f: &mut [f64]) {
        crate::assembly::Multibody::to_constant_mass_rhs(self, x, f)
    }
    fn to_constant_mass_jacobian(&self, x: &[f64], f: &[f64], jac: SparseMat) -> SparseMat {
        crate::assembly::Multibody::to_constant_mass_jacobian(self, x, f, jac)
    }
}
