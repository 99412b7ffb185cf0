//! The mathematical content of primitive components, as operator-valued functions of the
//! port variables (seed 001 §2 and §4–5):
//!
//! * [`Energy`]: energy function $E(x)$ of a storage component and its differential
//!   $e = \mathrm dE(x)$ (eq. (1)–(2)); left-trivialized $T^*_eL_q\,\mathrm dE$ on groups.
//! * [`PoissonOperator`]: Dirac structure in Poisson form $f = J(x)\,e$, $J^\top = -J$
//!   (eq. (3), (19), (21), (26)).
//! * [`TransformerOperator`]: Dirac structure in transformer (hybrid) form
//!   $e_B = T(x)\,e_A$, $f_A = -T(x)^\top f_B$ (eq. (27)); power
//!   $e_A\cdot f_A + e_B\cdot f_B = 0$ by construction.
//! * [`ConstraintOperator`]: Dirac structure in constraint form
//!   $f = C(x)^\top\lambda$, $0 = C(x)\,e$ with Lagrange multipliers $\lambda$ (eq. (28)).
//! * [`OnsagerOperator`]: Onsager structure $f = \frac1{\theta_0}M(x, e)\,e$ with $M$
//!   symmetric positive semidefinite and $M\,\varepsilon = 0$ for the energy covector
//!   $\varepsilon$ (efforts at mechanical ports, $\theta = \theta_0 + e$ at entropy ports)
//!   (eq. (6), (29)).
//!
//! Matrices are written row-major into caller-provided buffers (no allocation).
//! The argument `x` is always the concatenation of the states of **all** ports of the
//! component in interface order (`Space::coords()` numbers each); states of ports the
//! component does not read are zero when no storage provides them.
use std::sync::Arc;

use crate::language::space::Space;

/// Energy function of a storage component.
pub trait Energy: Send + Sync {
    /// $E(x)$; `x` concatenates the states of the storage's ports.
    fn energy(&self, x: &[f64]) -> f64;
    /// The (left-trivialized) differential $\mathrm dE(x)$, concatenated over ports.
    fn differential(&self, x: &[f64], e: &mut [f64]);
    /// A closed-form discrete gradient for the step $x_1 = x_0\oplus v$ (the retraction of
    /// [`Space::retract`]): writes $\bar e$ with $\langle\bar e\mid v\rangle = E(x_1) - E(x_0)$,
    /// equal to $\mathrm dE(x_{1/2})$ up to $O(|v|^2)$, and returns `true`; the default
    /// returns `false` and the Lie midpoint rule uses the Gonzalez correction
    /// ([`crate::numerics::lie_midpoint`]). Energies that depend on part of the state only
    /// (gravity: the position) use it to keep the efforts in the other components exact
    /// (no torque about the centre of mass).
    fn discrete_gradient(&self, _x0: &[f64], _v: &[f64], _e: &mut [f64]) -> bool {
        false
    }
}

/// Poisson-form Dirac structure $f = J(x)e$.
pub trait PoissonOperator: Send + Sync {
    /// Writes $J(x)$ ($n\times n$, $n$ = total dimension of the power ports).
    fn matrix(&self, x: &[f64], J: &mut [f64]);
}

/// Transformer-form Dirac structure $e_B = T(x)e_A$, $f_A = -T(x)^\top f_B$.
pub trait TransformerOperator: Send + Sync {
    /// Writes $T(x)$ ($n_B\times n_A$).
    fn matrix(&self, x: &[f64], T: &mut [f64]);
    /// The concrete operator, for diagnostics that recognise library components (the
    /// joint offsets of [`crate::library::kinematics`]); `None` by default.
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }
}

/// Constraint-form Dirac structure $f = C(x)^\top\lambda$, $0 = C(x)e$.
pub trait ConstraintOperator: Send + Sync {
    /// Number of Lagrange multipliers $m$.
    fn multipliers(&self) -> usize;
    /// Writes $C(x)$ ($m\times n$).
    fn matrix(&self, x: &[f64], C: &mut [f64]);
    /// The concrete operator, for diagnostics that recognise library components (the
    /// joint constraints of [`crate::library::kinematics`]); `None` by default.
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }
}

/// Onsager structure $f = \frac1{\theta_0}M(x, e)e$.
pub trait OnsagerOperator: Send + Sync {
    /// Writes $M(x, e)$ ($n\times n$), given the reference temperature $\theta_0$.
    fn matrix(&self, x: &[f64], e: &[f64], theta0: f64, M: &mut [f64]);
}

/// A constant matrix (row-major), usable as a Poisson, transformer or constraint
/// operator.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstantMatrix {
    /// Rows.
    pub rows: usize,
    /// Entries, row-major.
    pub data: Vec<f64>,
}

impl ConstantMatrix {
    /// A `rows × (data.len()/rows)` matrix.
    pub fn new(rows: usize, data: Vec<f64>) -> Self {
        Self { rows, data }
    }
}

impl PoissonOperator for ConstantMatrix {
    fn matrix(&self, _x: &[f64], J: &mut [f64]) {
        J.copy_from_slice(&self.data);
    }
}
impl TransformerOperator for ConstantMatrix {
    fn matrix(&self, _x: &[f64], T: &mut [f64]) {
        T.copy_from_slice(&self.data);
    }
}
impl ConstraintOperator for ConstantMatrix {
    fn multipliers(&self) -> usize {
        self.rows
    }
    fn matrix(&self, _x: &[f64], C: &mut [f64]) {
        C.copy_from_slice(&self.data);
    }
}

/// A closure writing a matrix from the states: `f(x, out)`.
pub type MatrixClosure = Arc<dyn Fn(&[f64], &mut [f64]) + Send + Sync>;
/// A closure evaluating an energy: `E(x)`.
pub type EnergyClosure = Arc<dyn Fn(&[f64]) -> f64 + Send + Sync>;

/// A state-dependent operator given by a closure writing the matrix.
#[derive(Clone)]
pub struct MatrixFn {
    /// Rows (the number of multipliers for constraints).
    pub rows: usize,
    /// `f(x, out)`.
    pub f: MatrixClosure,
}

impl PoissonOperator for MatrixFn {
    fn matrix(&self, x: &[f64], J: &mut [f64]) {
        (self.f)(x, J)
    }
}
impl TransformerOperator for MatrixFn {
    fn matrix(&self, x: &[f64], T: &mut [f64]) {
        (self.f)(x, T)
    }
}
impl ConstraintOperator for MatrixFn {
    fn multipliers(&self) -> usize {
        self.rows
    }
    fn matrix(&self, x: &[f64], C: &mut [f64]) {
        (self.f)(x, C)
    }
}

/// $E(x) = \tfrac12 x^\top K x$ on a vector space, $\mathrm dE = Kx$ ($K$ symmetric).
#[derive(Debug, Clone, PartialEq)]
pub struct QuadraticEnergy {
    /// Dimension $n$.
    pub n: usize,
    /// $K$, row-major $n\times n$.
    pub K: Vec<f64>,
}

impl Energy for QuadraticEnergy {
    fn energy(&self, x: &[f64]) -> f64 {
        let n = self.n;
        let mut s = 0.0;
        for i in 0..n {
            for j in 0..n {
                s += x[i] * self.K[i * n + j] * x[j];
            }
        }
        0.5 * s
    }
    fn differential(&self, x: &[f64], e: &mut [f64]) {
        let n = self.n;
        for i in 0..n {
            e[i] = (0..n).map(|j| self.K[i * n + j] * x[j]).sum();
        }
    }
}

/// An energy given by a closure, with an optional analytic differential.
///
/// **Fallback:** without a differential, $\mathrm dE$ is computed by central finite
/// differences along the retraction of each port space,
/// $e_k = \big(E(x\,\tau(h\epsilon_k)) - E(x\,\tau(-h\epsilon_k))\big)/(2h)$,
/// $h = \varepsilon_{mach}^{1/3}\max(1, |x|_\infty)$ (error $O(h^2) \approx 10^{-11}$
/// relative). Shipped components all provide analytic differentials.
#[derive(Clone)]
pub struct FnEnergy {
    /// Spaces of the ports, in order.
    pub spaces: Vec<Space>,
    /// $E(x)$.
    pub energy: EnergyClosure,
    /// Analytic $\mathrm dE(x)$ if known.
    pub differential: Option<MatrixClosure>,
}

impl Energy for FnEnergy {
    fn energy(&self, x: &[f64]) -> f64 {
        (self.energy)(x)
    }
    fn differential(&self, x: &[f64], e: &mut [f64]) {
        if let Some(d) = &self.differential {
            return d(x, e);
        }
        let scale = x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let h = f64::EPSILON.cbrt() * scale;
        let mut xp = x.to_vec();
        let mut xm = x.to_vec();
        let (mut co, mut eo) = (0, 0);
        for s in &self.spaces {
            let (nc, nd) = (s.coords(), s.dim());
            let mut v = vec![0.0; nd];
            for k in 0..nd {
                v.iter_mut().for_each(|a| *a = 0.0);
                v[k] = h;
                s.retract(&x[co..co + nc], &v, &mut xp[co..co + nc]);
                v[k] = -h;
                s.retract(&x[co..co + nc], &v, &mut xm[co..co + nc]);
                e[eo + k] = ((self.energy)(&xp) - (self.energy)(&xm)) / (2.0 * h);
                xp[co..co + nc].copy_from_slice(&x[co..co + nc]);
                xm[co..co + nc].copy_from_slice(&x[co..co + nc]);
            }
            co += nc;
            eo += nd;
        }
    }
}

/// Zero energy (e.g. the relative potential $V_r = 0$ of a joint without spring): the
/// storage still provides the state of its junction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ZeroEnergy;

impl Energy for ZeroEnergy {
    fn energy(&self, _x: &[f64]) -> f64 {
        0.0
    }
    fn differential(&self, _x: &[f64], e: &mut [f64]) {
        e.iter_mut().for_each(|v| *v = 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language::space::Group;

    #[test]
    fn finite_difference_fallback_matches_analytic_gradient() {
        // E(q) = m g·r + ½|R - E|²_F on SE(3); analytic: (vee(RᵀF_R − F_RᵀR), Rᵀ m g), F_R = R − E.
        let g = [0.0, 0.0, 9.81];
        let e = FnEnergy {
            spaces: vec![Space::Group(Group::Se3)],
            energy: Arc::new(move |x: &[f64]| {
                let q = phlex_core::geometry::Se3::from_coords(x);
                let mut s = 2.0 * (q.r[0] * g[0] + q.r[1] * g[1] + q.r[2] * g[2]);
                for i in 0..3 {
                    for j in 0..3 {
                        let d = q.R[i][j] - if i == j { 1.0 } else { 0.0 };
                        s += 0.5 * d * d;
                    }
                }
                s
            }),
            differential: None,
        };
        let q = phlex_core::geometry::Se3::exp(&[0.3, -0.2, 0.5, 1.0, 2.0, -1.0]);
        let mut x = [0.0; 12];
        q.to_coords(&mut x);
        let mut fd = [0.0; 6];
        e.differential(&x, &mut fd);
        let FR = phlex_core::geometry::mat3::lin_comb(
            1.0,
            &q.R,
            -1.0,
            &phlex_core::geometry::mat3::IDENTITY3,
        );
        let exact = q.TeL_star(&FR, [2.0 * g[0], 2.0 * g[1], 2.0 * g[2]]);
        for k in 0..6 {
            // O(h²) with h ≈ 1.3e-5: truncation ~1e-10, round-off ~1e-11.
            assert!((fd[k] - exact[k]).abs() < 1e-8, "{fd:?} {exact:?}");
        }
    }
}
