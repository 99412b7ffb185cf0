//! The plate kind (`[plate]` without assembly tables): [`Plate`] in the registry and the
//! commands of a loaded plate: `check` (with the `[[damping]]` entries), `run` (midpoint,
//! velocity probes, thermoelastic energies, VTK, boundary damping injection) and `modes`.
use std::path::Path;

use anyhow::Result;

use super::build::build;
use super::file::PlateFile;
use super::model::{BuiltPlate, PlateModel};
use super::vtk::vtu;
use crate::check::CheckReport;
use crate::continuum::{feedback_phase, field_simulation, run_field, Columns, FieldRun};
use crate::output::ModeTable;
use crate::registry::{FileKind, Loaded, LoadedModel, Tables};

/// The tables that make a `[plate]` file a plate assembly
/// ([`crate::kinds::plate_assembly`]).
pub const ASSEMBLY_TABLES: &[&str] = &["attachments", "rod", "loads"];

/// The `[plate]` table of both plate kinds (the plain plate and the plate assembly, told
/// apart by [`ASSEMBLY_TABLES`]).
pub const PLATE_TABLE: Tables = Tables::all(&["plate"]);

/// The plate kind: a `[plate]` table without `[attachments.*]`, `[rod]` or `[loads.*]`.
pub static PLATE: FileKind<PlateFile, BuiltPlate> =
    FileKind::new("plate", PLATE_TABLE.without(ASSEMBLY_TABLES), build);

impl LoadedModel for Loaded<'_, PlateFile, BuiltPlate> {
    fn check(&self) -> Result<CheckReport> {
        let (f, b) = (&self.file, &self.built);
        let sys = b.system();
        feedback_phase(
            self.src.file(),
            self.src.text(),
            sys,
            &b.input,
            &f.damping,
            1.0,
            &|port, k| b.model.damping_gain(port, k),
        )?;
        Ok(CheckReport::linear(
            &b.name,
            f.plate.theory.get_ref().clone(),
            sys,
        ))
    }

    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        let (f, b) = (&self.file, &self.built);
        let (file, text) = (self.src.file(), self.src.text());
        let sim = field_simulation((file, text, "plate"), f.shared.simulation.as_ref())?;
        let sim_end = sim.t_end();
        let dt = sim.span(0.0, sim_end).h;
        let points: Vec<[f64; 2]> = b.probes.iter().map(|p| p.1).collect();
        let probe_values = |e: &[f64]| -> Result<Vec<f64>, String> {
            b.model.velocity_at(e, &points).map_err(|er| er.to_string())
        };
        let vtu_of = |e: &[f64]| vtu(&b.model, e);
        let energies = |e: &[f64]| -> Result<Vec<f64>, String> {
            match &b.model {
                PlateModel::ThermoKirchhoff(m) => {
                    Ok(vec![m.mechanical_energy(e), m.thermal_energy(e)])
                }
                _ => Ok(Vec::new()),
            }
        };
        let closed = feedback_phase(
            file,
            text,
            b.system(),
            &b.input,
            &f.damping,
            dt,
            &|port, k| b.model.damping_gain(port, k),
        )?;
        let names = b.probes.iter().map(|p| p.0.clone()).collect();
        let mut columns = vec![Columns::probes(
            names,
            "vertical velocity probes [m/s]",
            &probe_values,
        )];
        if matches!(b.model, PlateModel::ThermoKirchhoff(_)) {
            columns.push(Columns::new(
                vec!["H_mech".into(), "H_thermal".into()],
                "mechanical and thermal energy [J]",
                "energies.svg",
                &energies,
            ));
        }
        let r = FieldRun::new(&b.name, "plate", b.system(), &b.input, &b.initial);
        run_field(
            r.columns(columns).vtu(&vtu_of),
            closed,
            &sim,
            &f.shared.output,
            dir,
            quiet,
        )
    }

    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let b = &self.built;
        self.field_modes(&b.name, b.system(), count, |n| b.eigen_params(n))
    }
}
