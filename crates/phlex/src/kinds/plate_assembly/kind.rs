//! The plate-assembly kind (`[plate]` with `[attachments.*]`, `[rod]` or `[loads.*]`):
//! [`PlateAssembly`] in the registry and the commands of a loaded assembly.
use std::path::Path;

use anyhow::{Context, Result};

use super::build::{build, BuiltAssembly};
use crate::check::CheckReport;
use crate::kinds::plate::{PlateFile, ASSEMBLY_TABLES};
use crate::output::{frequencies_with, ModeTable};
use crate::registry::{has_any, LoadedModel, ModelKind};
use crate::source::ModelSource;

/// The plate-assembly kind: a `[plate]` table with `[attachments.*]`, `[rod]` or
/// `[loads.*]` (distributed load ports, which the plain plate files lack).
pub struct PlateAssembly;

impl ModelKind for PlateAssembly {
    fn name(&self) -> &'static str {
        "plate_assembly"
    }
    fn expects(&self) -> &'static str {
        "[plate] with [attachments.*], [rod] or [loads.*]"
    }
    fn detect(&self, top: &toml::Table) -> bool {
        top.contains_key("plate") && has_any(top, &ASSEMBLY_TABLES)
    }
    fn load<'a>(&self, src: &'a ModelSource) -> Result<Box<dyn LoadedModel + 'a>> {
        let (file, built) = build(src.file(), src.text(), src.parse()?)?;
        Ok(Box::new(LoadedAssembly { src, file, built }))
    }
}

/// A parsed and built plate assembly.
struct LoadedAssembly<'a> {
    src: &'a ModelSource,
    file: PlateFile,
    built: BuiltAssembly,
}

impl LoadedModel for LoadedAssembly<'_> {
    fn check(&self) -> Result<CheckReport> {
        let b = &self.built;
        let kind = format!(
            "plate assembly (kirchhoff HHJ, {} point component(s){})",
            b.components.len(),
            if b.rod.is_some() { ", welded rod" } else { "" }
        );
        Ok(CheckReport::linear(&b.name, kind, &b.system))
    }

    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        super::run::run(self.src.file(), &self.file, &self.built, dir, quiet)
    }

    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let b = &self.built;
        let n = count.unwrap_or(self.file.modes.count);
        let rows = frequencies_with(&b.system, n, &b.eigen_params(n))
            .context("eigen-analysis failed")?;
        Ok(ModeTable::new(&b.name, b.system.n_states(), rows))
    }
}
