//! The shallow water kind: `[shallow_water]` model files (format in
//! `docs/model-format-continuum.md`): the irrotational shallow water equations of
//! [`phlex_fem::models::continuum::shallow_water`] (thesis 004 §6.3, eqs. (6.38)–(6.42); Table 8.2) on a disk
//! or Gmsh mesh: the file and its build ([`build`]), the run ([`run`]) and the registry
//! entry ([`SHALLOW_WATER`]).
pub mod build;
mod kind;
pub mod run;

pub use build::{BuiltSw, ShallowWaterFile};
pub use kind::SHALLOW_WATER;
