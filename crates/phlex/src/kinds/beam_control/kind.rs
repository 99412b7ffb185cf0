//! The controlled-beam kind (`[beam]` with `[control]`): the beam of
//! [`crate::kinds::beam`] whose `phlex run` simulates the LQG closed loop ([`super::run`]);
//! `check`, `modes` and `export` are those of the (open-loop) beam.
use std::path::Path;

use anyhow::Result;

use crate::check::CheckReport;
use crate::export::Linear;
use crate::kinds::beam::LoadedBeam;
use crate::output::ModeTable;
use crate::registry::{LoadKind, LoadedModel, Tables};
use crate::source::ModelSource;

/// The controlled-beam kind: a file with `[beam]` and `[control]` tables.
pub static BEAM_CONTROL: LoadKind =
    LoadKind::new("beam_control", Tables::all(&["beam", "control"]), load);

fn load(src: &ModelSource) -> Result<Box<dyn LoadedModel + '_>> {
    Ok(Box::new(LoadedBeamControl(LoadedBeam::load(src)?)))
}

/// A beam with its controller.
struct LoadedBeamControl<'a>(LoadedBeam<'a>);

impl LoadedModel for LoadedBeamControl<'_> {
    fn check(&self) -> Result<CheckReport> {
        let mut r = self.0.check()?;
        r.variant = format!("{}, LQG control through the ports", r.variant);
        Ok(r)
    }

    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        let LoadedBeam { src, file, built } = &self.0;
        let spec = file.control.as_ref().ok_or_else(|| {
            crate::error::ModelError::at_line(src.file(), 0, "missing table [control]".into())
        })?;
        super::run::run(src.file(), src.text(), file, spec, built, dir, quiet)
    }

    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        self.0.modes(count)
    }

    fn linear(&self, linearize: bool) -> Result<Linear> {
        self.0.linear(linearize)
    }
}
