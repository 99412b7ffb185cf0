//! The thermal rod kind: `[heat]` (the heat equation of a rod as a pHDAE) and
//! `[thermoelastic_rod]` (linear thermoelasticity in uniaxial strain, with the Danilovskaya
//! half-space reference) model files, format in `docs/model-format-continuum.md`: the file
//! and its build ([`build`]), the run ([`run`]) and the registry entry ([`THERMAL_ROD`]).
pub mod build;
mod kind;
pub mod run;

pub use build::{BuiltRod, RodFile, RodModel};
pub use kind::THERMAL_ROD;
