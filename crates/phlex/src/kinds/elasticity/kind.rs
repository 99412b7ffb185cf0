//! The elasticity kind (`[elasticity]`): [`Elasticity`] in the registry and the commands of
//! a loaded model: `check`, `run` (midpoint, probes, heat content of thermoelastic models,
//! VTK snapshots) and `modes`.
use std::path::Path;

use anyhow::Result;

use super::build::{build, BuiltElasticity, ElasticModel, ElasticityFile};
use super::vtk::vtu;
use crate::check::CheckReport;
use crate::continuum::{Columns, FieldRun};
use crate::output::ModeTable;
use crate::registry::{FileKind, Loaded, LoadedModel, Tables};

/// The elasticity kind: a file with an `[elasticity]` table.
pub static ELASTICITY: FileKind<ElasticityFile, BuiltElasticity> =
    FileKind::new("elasticity", Tables::all(&["elasticity"]), build);

impl LoadedModel for Loaded<'_, ElasticityFile, BuiltElasticity> {
    fn check(&self) -> Result<CheckReport> {
        let b = &self.built;
        let kind = format!("{}D", self.file.elasticity.dim.get_ref());
        Ok(CheckReport::linear(&b.name, kind, b.system()))
    }

    /// Midpoint rule, `timeseries.csv` (H and probes, the heat content of thermoelastic
    /// models), `summary.json`, SVG plots, VTK snapshots (velocity at vertices, stress at
    /// cells).
    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        let b = &self.built;
        let probe_values = |e: &[f64]| b.probe_values(e);
        let heat_values = |e: &[f64]| -> Result<Vec<f64>, String> {
            match &b.model {
                ElasticModel::ThermoPlane(m) => m.heat_content(e).map(|q| vec![q]),
                ElasticModel::ThermoSolid(m) => m.heat_content(e).map(|q| vec![q]),
                _ => Ok(Vec::new()),
            }
            .map_err(|er| er.to_string())
        };
        let vtu_of = |e: &[f64]| vtu(&b.model, e);
        let names = b.probes.iter().map(|p| p.0.clone()).collect();
        let mut columns = vec![Columns::probes(names, "probes", &probe_values)];
        if matches!(
            b.model,
            ElasticModel::ThermoPlane(_) | ElasticModel::ThermoSolid(_)
        ) {
            // ∫ C T0 θ = ∫ ρc (T − T0): changes by the heat let in through the flux ports
            // minus the thermoelastic work C_β ∫ v·n of the moving boundary
            columns.push(Columns::new(
                vec!["heat".into()],
                "heat content ∫ρc(T − T0) [J]",
                "heat.svg",
                &heat_values,
            ));
        }
        let r = FieldRun::new(&b.name, "elasticity", b.system(), &b.input, &b.initial);
        self.run_fields(r.columns(columns).vtu(&vtu_of), dir, quiet)
    }

    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let b = &self.built;
        self.field_modes(&b.name, b.system(), count, |n| b.eigen_params(n))
    }
}
