//! Planar flexible multibody model files (`[bodies.*]`, `[joints.*]`; format documented in
//! `docs/model-format-mbs.md`): parsing, building with [`phlex_mbs::MultibodyBuilder`],
//! `phlex run` / `check` / `modes`.
//!
//! The file maps one-to-one onto the builder: `gravity` ↔ [`MultibodyBuilder::gravity`](phlex_mbs::MultibodyBuilder::gravity),
//! `[bodies.NAME]` ↔ [`RigidBody2d`](phlex_mbs::RigidBody2d) / [`FloatingBeam2d`](phlex_mbs::FloatingBeam2d) (paper 000 §4.3, Remark 4),
//! `[joints.NAME]` ↔ [`Joint`](phlex_mbs::Joint) (§5.1–5.2, eqs. (44)–(45)), `[ground]` ↔
//! [`MultibodyBuilder::add_ground_point`](phlex_mbs::MultibodyBuilder::add_ground_point), `[[load]]` ↔ [`Load`](phlex_mbs::Load) (eq. (39)). The assembled
//! system is the index-2 pHDAE (46); `[initial]` makes the initial state consistent
//! ([`consistent_initial_state`](phlex_mbs::consistent_initial_state), §6.3), `[simulation]` integrates it with the
//! midpoint/discrete-gradient scheme ([`Midpoint`](phlex_solve::Midpoint), exact discrete power balance
//! $H_1 - H_0 = h\,\bar y^\top u$) or Radau IIA ([`Radau5`](phlex_solve::Radau5)), and `[modes]` linearises it
//! about the initial configuration ([`phlex_mbs::modes`], §6.2, eq. (51)).
//!
//! Errors in the file (unknown keys, non-physical values, unknown bodies or ports, missing
//! deformation condition, redundant constraints, inconsistent initial conditions) are
//! [`ModelError`](crate::error::ModelError)s naming the item and its line (exit code 2); numerical failures (Newton
//! non-convergence, step-size underflow) are plain errors (exit code 1).
pub mod format;
mod kind;
pub mod model;
pub mod simulate;

pub use format::*;
pub use kind::Planar;
pub use model::{BuiltMbs, MbsModel};
