//! One folder per kind of model file, each with what is specific to it and the type that
//! implements [`crate::registry::ModelKind`] (listed in [`crate::registry::KINDS`]).
pub mod acoustics;
pub mod beam;
pub mod beam_control;
pub mod elasticity;
pub mod ephs;
pub mod mbs;
pub mod plate;
pub mod plate_assembly;
pub mod shallow_water;
pub mod thermal_rod;
pub mod thermoelastic_beam;
