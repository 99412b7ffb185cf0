//! The plate-assembly kind: a Kirchhoff HHJ `[plate]` with lumped components at points
//! (`[attachments.*]`), a welded rigid rod (`[rod]`) and/or distributed load ports
//! (`[loads.*]`), format in `docs/model-format-plate-assembly.md`: the file and its build
//! ([`build`]), the run ([`run`]) and the registry entry ([`PLATE_ASSEMBLY`]).
pub mod build;
mod kind;
pub mod run;

pub use build::{BuiltAssembly, PlateAssemblyFile};
pub use kind::PLATE_ASSEMBLY;
