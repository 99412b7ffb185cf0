//! The thermoelastic beam kind: `[thermoelastic_beam]` model files (format in
//! `docs/model-format-continuum.md`): the Euler–Bernoulli beam coupled to the heat equation
//! on its section plane of [`phlex_fem::models::beam::thermoelastic_beam`] (thesis 004 §5.2.1
//! eqs. (5.30)–(5.34)): the file and its build ([`build`]) and the registry entry
//! ([`THERMOELASTIC_BEAM`]).
pub mod build;
mod kind;

pub use build::{BuiltThermoBeam, ThermoBeamFile};
pub use kind::THERMOELASTIC_BEAM;
