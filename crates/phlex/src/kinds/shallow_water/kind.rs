//! The shallow water kind (`[shallow_water]`): [`ShallowWater`] in the registry and the
//! commands of a loaded tank: `check`, `run` ([`super::run`]) and `modes` (sloshing
//! frequencies of the tank linearised about the rest depth).
use std::path::Path;

use anyhow::Result;

use super::build::{build, eigen_params, BuiltSw, ShallowWaterFile};
use crate::check::CheckReport;
use crate::output::ModeTable;
use crate::registry::{FileKind, Loaded, LoadedModel, Tables};

/// The shallow water kind: a file with a `[shallow_water]` table.
pub static SHALLOW_WATER: FileKind<ShallowWaterFile, BuiltSw> =
    FileKind::new("shallow_water", Tables::all(&["shallow_water"]), build);

impl LoadedModel for Loaded<'_, ShallowWaterFile, BuiltSw> {
    /// The nonlinear tank, and the structure check of its linearisation about the rest
    /// depth.
    fn check(&self) -> Result<CheckReport> {
        let (b, m) = (&self.built, &self.built.model);
        let h_des = *self.file.shallow_water.h_des.get_ref();
        let lin = m.linearised_system(h_des)?;
        lin.check(&Default::default())?;
        let tag = self
            .file
            .shallow_water
            .port
            .as_ref()
            .map_or("boundary", |p| p.get_ref().as_str());
        Ok(CheckReport {
            model: b.name.clone(),
            variant: "nonlinear, discrete-gradient integration".into(),
            states: m.n_h() + m.n_v(),
            blocks: vec![("alpha_h".into(), m.n_h()), ("alpha_v".into(), m.n_v())],
            ports: format!("{tag} ({} boundary edges)", m.n_boundary()),
            structure: format!(
                "linearised about h_des = {h_des}: {}",
                crate::check::LINEAR_STRUCTURE
            ),
            details: vec![(
                "mesh".into(),
                format!(
                    "{} vertices, {} triangles",
                    m.mesh().n_vertices(),
                    m.mesh().n_cells()
                ),
            )],
        })
    }

    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        super::run::run(self.src.file(), &self.file, &self.built, dir, quiet)
    }

    /// Sloshing frequencies of the tank linearised about the rest depth `h_des`.
    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let (f, b) = (&self.file, &self.built);
        let h_des = *f.shallow_water.h_des.get_ref();
        let sys = b.model.linearised_system(h_des)?;
        self.field_modes(&b.name, &sys, count, |n| eigen_params(b, h_des, n))
    }
}
