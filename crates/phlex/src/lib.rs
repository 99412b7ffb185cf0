//! # phlex: model files, the command line and result files
//!
//! The top layer of the workspace: it reads a TOML model ([`model`]), builds the pH system
//! with `phlex-fem` ([`build`]), integrates or analyses it with `phlex-solve`
//! ([`simulate`]), and writes results atomically ([`output`]). The binary `phlex` is a thin
//! wrapper over [`app`].
#![allow(non_snake_case)]
#![warn(missing_docs)]

pub mod acoustics_run;
pub mod app;
pub mod build;
pub mod control_run;
pub mod elasticity_run;
pub mod ephs_run;
pub mod export;
pub mod field_run;
pub mod identify;
pub mod matrix_market;
pub mod mbs3d_run;
pub mod mbs_run;
pub mod modal;
pub mod model;
pub mod output;
pub mod plate_assembly_run;
pub mod plate_run;
pub mod report;
pub mod shallow_water_run;
pub mod simulate;
pub mod spatial;
pub mod studies;
pub mod thermal_rod_run;
pub mod thermoelastic_beam_run;
