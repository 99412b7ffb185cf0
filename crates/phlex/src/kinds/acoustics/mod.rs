//! The acoustics kind: `[acoustics]` model files (format in
//! `docs/model-format-continuum.md`): the 2D wave equation of [`phlex_fem::models::continuum::wave`], planar
//! or axisymmetric, the file and its build ([`build`]), VTK snapshots and the registry
//! entry ([`ACOUSTICS`]).
pub mod build;
mod kind;
mod vtk;

pub use build::{AcousticsFile, BuiltAcoustics};
pub use kind::ACOUSTICS;
