//! Rigid-body geometry shared by every multibody model (`phlex-mbs`, `phlex-ephs`,
//! `phlex-control`): small fixed-size linear algebra, the groups $SO(3)$ and $SE(3)$, and the
//! admissibility rule of an inertia tensor.
//!
//! | module | what |
//! |---|---|
//! | [`mat3`] | 3-vectors, 3×3 matrices: products, transpose, determinant, inverse, hat/vee, cross, outer, symmetric eigenvalues |
//! | [`mat6`] | 6-vectors ($\mathfrak{se}(3)$ and its dual), 6×6 matrices from 3×3 blocks |
//! | [`so3`] | exp (Rodrigues), log, Cayley map and inverse, left/right trivialised dexp and inverses |
//! | [`se3`] | [`Se3`]: product, inverse, exp/log, Cayley retraction, Ad, Ad*, ad, ad*, $T_eL_q$, dexp |
//! | [`inertia`] | [`InertiaTensor`]: one validation rule (symmetric, positive semidefinite, triangle inequalities) |
// Index loops mirror the formulas (A[i][j]); NaN-aware negated comparisons reject NaN.
#![allow(clippy::needless_range_loop, clippy::neg_cmp_op_on_partial_ord)]

pub mod inertia;
pub mod mat3;
pub mod mat6;
pub mod se3;
pub mod so3;

pub use inertia::{InertiaError, InertiaTensor};
pub use mat3::{Mat3, Vec3, IDENTITY3};
pub use mat6::{Mat6, Vec6};
pub use se3::Se3;
