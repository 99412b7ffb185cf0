//! State spaces of quantities and their numerical representation.
//!
//! A state $x$ is stored as `coords()` numbers; flows and efforts live in the
//! (left-trivialized) tangent and cotangent spaces of dimension `dim()`. For a Lie group
//! $G$ the port variables are left-trivialized, $TG\oplus T^*G \cong G\times\mathfrak g\times\mathfrak g^*$
//! (seed 001 §3.5, summary §2): a flow is the body velocity $u = T_qL_{q^{-1}}\dot q$ and an
//! effort is the body force $T^*_eL_q(\mathrm dE)$. The duality pairing, hence power, is
//! unchanged, and the reversible couplings become constant: the potential–kinetic coupling
//! of eq. (21) reads $[q.f;\ p.f] = [[0, -1], [1, 0]]\,[q.e;\ p.e]$ in these variables.
//!
//! | space | coords | dim | kinematics $\dot x(u)$ |
//! |---|---|---|---|
//! | $\mathbb R^n$, $\mathfrak g^*$ | n | n | $\dot x = u$ |
//! | $SE(3)$ | 12 ($R$ row-major, $r$) | 6 | $\dot R = R\tilde\omega$, $\dot r = R\nu$ |
//! | $SO(3)$ | 9 | 3 | $\dot R = R\tilde\omega$ |
//! | $SE(2)$ | 3 $(\varphi, x, y)$ | 3 | $\dot\varphi = u_1$, $(\dot x, \dot y) = \mathrm{Rot}(\varphi)(u_2, u_3)$ |
//! | $SO(2)$, $\mathbb R^n$ (translations), $SO(2)\times\mathbb R$ | 1, n, 2 | 1, n, 2 | $\dot x = u$ (global coordinates on the universal cover) |
use std::fmt;

use phlex_core::geometry::mat3::{from_row_major, mat_mul};
use phlex_core::geometry::{so3, Se3};

/// A Lie group used as a state space (or whose algebra dual is one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    /// $SE(3) = SO(3)\ltimes\mathbb R^3$.
    Se3,
    /// $SO(3)$.
    So3,
    /// $SE(2)$ with coordinates $(\varphi, x, y)$.
    Se2,
    /// $SO(2)$ with the angle as coordinate.
    So2,
    /// The translation group $\mathbb R^n$.
    Translation(usize),
    /// $SO(2)\times\mathbb R$ (cylindrical pair) with coordinates $(\varphi, d)$.
    So2xR,
}

impl Group {
    /// Dimension of the group (of its Lie algebra).
    pub fn dim(&self) -> usize {
        match self {
            Group::Se3 => 6,
            Group::So3 => 3,
            Group::Se2 => 3,
            Group::So2 => 1,
            Group::Translation(n) => *n,
            Group::So2xR => 2,
        }
    }
    /// Number of stored coordinates.
    pub fn coords(&self) -> usize {
        match self {
            Group::Se3 => 12,
            Group::So3 => 9,
            _ => self.dim(),
        }
    }
    /// Name used in messages and pictures.
    pub fn name(&self) -> String {
        match self {
            Group::Se3 => "SE(3)".into(),
            Group::So3 => "SO(3)".into(),
            Group::Se2 => "SE(2)".into(),
            Group::So2 => "SO(2)".into(),
            Group::Translation(n) => format!("R^{n}"),
            Group::So2xR => "SO(2)xR".into(),
        }
    }
}

/// The state space of a quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Space {
    /// The vector space $\mathbb R^n$.
    Real(usize),
    /// The dual $\mathfrak g^*$ of the Lie algebra of a group (momenta), $\cong\mathbb R^{\dim G}$.
    CoAlgebra(Group),
    /// A Lie group (poses).
    Group(Group),
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Space::Real(1) => write!(f, "R"),
            Space::Real(n) => write!(f, "R^{n}"),
            Space::CoAlgebra(g) => write!(f, "{}*", g.name().to_lowercase()),
            Space::Group(g) => write!(f, "{}", g.name()),
        }
    }
}

impl Space {
    /// Number of stored coordinates of a state.
    pub fn coords(&self) -> usize {
        match self {
            Space::Real(n) => *n,
            Space::CoAlgebra(g) => g.dim(),
            Space::Group(g) => g.coords(),
        }
    }
    /// Dimension (length of flows and efforts).
    pub fn dim(&self) -> usize {
        match self {
            Space::Real(n) => *n,
            Space::CoAlgebra(g) | Space::Group(g) => g.dim(),
        }
    }
    /// True for group spaces whose coordinates are not a vector space (SE(3), SO(3),
    /// SE(2)); their states are updated by a retraction in the Lie-group integrator.
    pub fn is_curved(&self) -> bool {
        matches!(
            self,
            Space::Group(Group::Se3) | Space::Group(Group::So3) | Space::Group(Group::Se2)
        )
    }
    /// Coordinates of the identity (or zero).
    pub fn identity(&self, x: &mut [f64]) {
        x.iter_mut().for_each(|v| *v = 0.0);
        match self {
            Space::Group(Group::Se3) => Se3::identity().to_coords(x),
            Space::Group(Group::So3) => {
                x[0] = 1.0;
                x[4] = 1.0;
                x[8] = 1.0;
            }
            _ => {}
        }
    }
    /// Coordinate rate $\dot x$ of the left-trivialized velocity `u` at `x` (module table).
    pub fn kinematics(&self, x: &[f64], u: &[f64], xdot: &mut [f64]) {
        match self {
            Space::Group(Group::Se3) => {
                let q = Se3::from_coords(x);
                let (Rd, rd) = q.TeL(&[u[0], u[1], u[2], u[3], u[4], u[5]]);
                for i in 0..3 {
                    xdot[3 * i..3 * i + 3].copy_from_slice(&Rd[i]);
                }
                xdot[9..12].copy_from_slice(&rd);
            }
            Space::Group(Group::So3) => {
                let R = from_row_major(x);
                let Rd = mat_mul(&R, &phlex_core::geometry::mat3::hat([u[0], u[1], u[2]]));
                for i in 0..3 {
                    xdot[3 * i..3 * i + 3].copy_from_slice(&Rd[i]);
                }
            }
            Space::Group(Group::Se2) => {
                let (s, c) = x[0].sin_cos();
                xdot[0] = u[0];
                xdot[1] = c * u[1] - s * u[2];
                xdot[2] = s * u[1] + c * u[2];
            }
            _ => xdot.copy_from_slice(u),
        }
    }
    /// Retraction $x_1 = x_0\,\tau(v)$ used by the Lie-group integrator: vector spaces
    /// $x_0 + v$; $SO(3)$: $R_0\,\mathrm{cay}(v)$; $SE(3)$: $q_0\,\tau(v)$ with
    /// [`Se3::cayley_retraction`]; $SE(2)$: $q_0\exp(v)$.
    pub fn retract(&self, x0: &[f64], v: &[f64], x1: &mut [f64]) {
        match self {
            Space::Group(Group::Se3) => {
                let q = Se3::from_coords(x0).mul(&Se3::cayley_retraction(&[
                    v[0], v[1], v[2], v[3], v[4], v[5],
                ]));
                q.to_coords(x1);
            }
            Space::Group(Group::So3) => {
                let R = mat_mul(&from_row_major(x0), &so3::cayley([v[0], v[1], v[2]]));
                for i in 0..3 {
                    x1[3 * i..3 * i + 3].copy_from_slice(&R[i]);
                }
            }
            Space::Group(Group::Se2) => {
                // exp on se(2): translation V(θ)ρ with V = [[sθ/θ, −(1−cθ)/θ], [(1−cθ)/θ, sθ/θ]].
                let th = v[0];
                let (a, b) = if th.abs() < 1e-4 {
                    (1.0 - th * th / 6.0, th / 2.0 - th * th * th / 24.0)
                } else {
                    (th.sin() / th, (1.0 - th.cos()) / th)
                };
                let tx = a * v[1] - b * v[2];
                let ty = b * v[1] + a * v[2];
                let (s, c) = x0[0].sin_cos();
                x1[0] = x0[0] + th;
                x1[1] = x0[1] + c * tx - s * ty;
                x1[2] = x0[2] + s * tx + c * ty;
            }
            _ => {
                for ((y, a), b) in x1.iter_mut().zip(x0).zip(v) {
                    *y = a + b;
                }
            }
        }
    }
    /// Distance of `x` from the manifold: $\max_{ij}|(R^\top R - E)_{ij}|$ for rotations, 0 otherwise.
    pub fn defect(&self, x: &[f64]) -> f64 {
        match self {
            Space::Group(Group::Se3) | Space::Group(Group::So3) => {
                so3::orthogonality_defect(&from_row_major(x))
            }
            _ => 0.0,
        }
    }
}
