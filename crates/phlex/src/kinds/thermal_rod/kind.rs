//! The thermal rod kind (`[heat]` or `[thermoelastic_rod]`): [`ThermalRod`] in the
//! registry and the commands of a loaded rod: `check` (structure and, for the
//! thermoelastic rod, the coupling number), `run` ([`super::run`]) and `modes`.
use std::path::Path;

use anyhow::Result;
use phlex_solve::eigen::EigenParams;

use super::build::{build, BuiltRod, RodFile, RodModel};
use crate::check::CheckReport;
use crate::output::ModeTable;
use crate::registry::{FileKind, Loaded, LoadedModel, Tables};

/// The thermal rod kind: a file with a `[heat]` or a `[thermoelastic_rod]` table.
pub static THERMAL_ROD: FileKind<RodFile, BuiltRod> = FileKind::new(
    "thermal_rod",
    Tables::any(&["heat", "thermoelastic_rod"]),
    build,
);

impl LoadedModel for Loaded<'_, RodFile, BuiltRod> {
    fn check(&self) -> Result<CheckReport> {
        let b = &self.built;
        let kind = match &b.model {
            RodModel::Heat(_) => "heat conduction, pHDAE".to_string(),
            RodModel::Thermoelastic(m, _) => format!(
                "thermoelastic, coupling number delta = {:.4e}",
                m.params().coupling_number()
            ),
        };
        Ok(CheckReport::linear(&b.name, kind, b.model.system()))
    }

    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        super::run::run(self.src, &self.file, &self.built, dir, quiet)
    }

    /// The first `count` (default: `[modes] count`, 6) eigenvalues of the rod's pencil.
    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let b = &self.built;
        self.field_modes(&b.name, b.model.system(), count, |n| EigenParams {
            n_modes: Some(n),
            ..Default::default()
        })
    }
}
