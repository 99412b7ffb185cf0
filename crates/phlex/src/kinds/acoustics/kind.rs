//! The acoustics kind (`[acoustics]`): [`Acoustics`] in the registry and the commands of a
//! loaded model: `check`, `run` (midpoint, probes, energy split $H_p$, $H_{u_x}$,
//! $H_{u_y}$ of thesis 004 Table 8.4, VTK snapshots) and `modes`.
use std::path::Path;

use anyhow::Result;

use super::build::{build, AcousticsFile, BuiltAcoustics};
use super::vtk::vtu;
use crate::check::CheckReport;
use crate::continuum::{Columns, FieldRun};
use crate::output::ModeTable;
use crate::registry::{FileKind, Loaded, LoadedModel, Tables};

/// The acoustics kind: a file with an `[acoustics]` table.
pub static ACOUSTICS: FileKind<AcousticsFile, BuiltAcoustics> =
    FileKind::new("acoustics", Tables::all(&["acoustics"]), build);

impl LoadedModel for Loaded<'_, AcousticsFile, BuiltAcoustics> {
    fn check(&self) -> Result<CheckReport> {
        let b = &self.built;
        let kind = format!("{:?}, {:?}", b.model.geometry(), b.model.causality());
        Ok(CheckReport::linear(&b.name, kind, b.system()))
    }

    /// Midpoint rule, `timeseries.csv` (H, probes, energy split), `summary.json`, SVG
    /// plots, VTK snapshots (pressure and velocity).
    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        let b = &self.built;
        let probe_values = |e: &[f64]| b.probe_values(e);
        let split = |e: &[f64]| {
            b.model
                .energy_split(e)
                .map(|s| s.to_vec())
                .map_err(|er| er.to_string())
        };
        let vtu_of = |e: &[f64]| vtu(&b.model, e);
        let columns = vec![
            Columns::probes(
                b.probes.iter().map(|p| p.0.clone()).collect(),
                "probes",
                &probe_values,
            ),
            Columns::new(
                vec!["H_p".into(), "H_ux".into(), "H_uy".into()],
                "energy split (pressure, x and y kinetic) [J]",
                "energy_split.svg",
                &split,
            ),
        ];
        let r = FieldRun::new(&b.name, "acoustics", b.system(), &b.input, &b.initial);
        self.run_fields(r.columns(columns).vtu(&vtu_of), dir, quiet)
    }

    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let b = &self.built;
        self.field_modes(&b.name, b.system(), count, |n| b.eigen_params(n))
    }
}
