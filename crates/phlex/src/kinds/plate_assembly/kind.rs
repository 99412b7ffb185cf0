//! The plate-assembly kind (`[plate]` with `[attachments.*]`, `[rod]` or `[loads.*]`):
//! [`PlateAssembly`] in the registry and the commands of a loaded assembly.
use std::path::Path;

use anyhow::Result;

use super::build::{build, BuiltAssembly, PlateAssemblyFile};
use crate::check::CheckReport;
use crate::kinds::plate::{ASSEMBLY_TABLES, PLATE_TABLE};
use crate::output::ModeTable;
use crate::registry::{FileKind, Loaded, LoadedModel};

/// The plate-assembly kind: a `[plate]` table with `[attachments.*]`, `[rod]` or
/// `[loads.*]` (distributed load ports, which the plain plate files lack).
pub static PLATE_ASSEMBLY: FileKind<PlateAssemblyFile, BuiltAssembly> = FileKind::new(
    "plate_assembly",
    PLATE_TABLE.with_any(ASSEMBLY_TABLES),
    build,
);

impl LoadedModel for Loaded<'_, PlateAssemblyFile, BuiltAssembly> {
    fn check(&self) -> Result<CheckReport> {
        let b = &self.built;
        let kind = format!(
            "kirchhoff HHJ, {} point component(s){}",
            b.components.len(),
            if b.rod.is_some() { ", welded rod" } else { "" }
        );
        Ok(CheckReport::linear(&b.name, kind, &b.system))
    }

    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        super::run::run(self, dir, quiet)
    }

    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let b = &self.built;
        self.field_modes(&b.name, &b.system, count, |n| b.eigen_params(n))
    }
}
