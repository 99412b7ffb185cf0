//! The plate kind: `[plate]` model files (Mindlin, Kirchhoff, laminated and thermoelastic
//! plates; format in `docs/model-format-plate.md`): the file ([`file`](mod@file)), the assembled
//! model ([`model`]), its build with [`phlex_fem::models::plate`] ([`build`](mod@build)), VTK snapshots
//! (`vtk`) and the registry entry ([`PLATE`]). The plate assemblies
//! ([`crate::kinds::plate_assembly`]) build on it.
pub mod build;
pub mod file;
mod kind;
pub mod model;
mod vtk;

pub use build::build;
pub use file::PlateFile;
pub use kind::{ASSEMBLY_TABLES, PLATE, PLATE_TABLE};
pub use model::{BuiltPlate, PlateModel};
pub use vtk::kirchhoff_vtu;
