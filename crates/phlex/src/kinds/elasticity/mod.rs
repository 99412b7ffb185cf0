//! The elasticity kind: `[elasticity]` model files (format in
//! `docs/model-format-continuum.md`): 2D and 3D elastodynamics and thermoelasticity, the
//! file and its build with `phlex-fem` ([`build`]), VTK snapshots and the registry entry
//! ([`ELASTICITY`]).
pub mod build;
mod kind;
mod vtk;

pub use build::{BuiltElasticity, ElasticModel, ElasticityFile};
pub use kind::ELASTICITY;
