//! The thermoelastic beam kind (`[thermoelastic_beam]`): [`ThermoelasticBeam`] in the
//! registry and the commands of a loaded beam: `check` (structure, relaxation strength,
//! Zener time and the first mode's $Q^{-1}$ next to Lifshitz–Roukes \[LR00\] eq. (11)),
//! `run` (midpoint, probes of velocity and temperature, mechanical and thermal energy) and
//! `modes` (the damping ratio column is the thermoelastic damping, $Q^{-1} = 2\zeta$).
use std::path::Path;

use anyhow::Result;

use super::build::{build, first_mode_damping, BuiltThermoBeam, ThermoBeamFile};
use crate::check::CheckReport;
use crate::continuum::{field_simulation, Columns, FieldRun};
use crate::output::ModeTable;
use crate::registry::{FileKind, Loaded, LoadedModel, Tables};

/// The thermoelastic beam kind: a file with a `[thermoelastic_beam]` table.
pub static THERMOELASTIC_BEAM: FileKind<ThermoBeamFile, BuiltThermoBeam> = FileKind::new(
    "thermoelastic_beam",
    Tables::all(&["thermoelastic_beam"]),
    build,
);

impl LoadedModel for Loaded<'_, ThermoBeamFile, BuiltThermoBeam> {
    fn check(&self) -> Result<CheckReport> {
        let b = &self.built;
        let p = b.model.params();
        let mode1 = match first_mode_damping(b) {
            Ok((omega, q, q_lr)) => format!(
                "omega {omega:.6e} rad/s, Q^-1 = 2 zeta = {q:.6e}, Lifshitz-Roukes {q_lr:.6e} (rel. diff {:.2e})",
                (q - q_lr).abs() / q_lr.abs().max(f64::MIN_POSITIVE)
            ),
            Err(e) => format!("not available: {e:#}"),
        };
        Ok(
            CheckReport::linear(&b.name, String::new(), b.model.system())
                .detail(
                    "Delta_E",
                    format!(
                        "{:.4e} (relaxation strength E beta^2 T0/(rho c)), Zener time h^2/(pi^2 chi) = {:.4e} s",
                        p.relaxation_strength(),
                        p.zener_time()
                    ),
                )
                .detail("mode 1", mode1),
        )
    }

    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        let (f, b) = (&self.file, &self.built);
        let sim = field_simulation(
            (self.src.file(), self.src.text(), "thermoelastic_beam"),
            f.shared.simulation.as_ref(),
        )?;
        let probe_values = |e: &[f64]| b.probe_values(e);
        let energies = |e: &[f64]| {
            Ok(vec![
                b.model.mechanical_energy(e),
                b.model.thermal_energy(e),
            ])
        };
        let names = b.probes.iter().map(|p| p.0.clone()).collect();
        let columns = vec![
            Columns::probes(names, "probes", &probe_values),
            Columns::new(
                vec!["H_mech".into(), "H_thermal".into()],
                "mechanical and thermal energy [J]",
                "energies.svg",
                &energies,
            ),
        ];
        let system = b.model.system();
        let r = FieldRun::new(&b.name, "thermoelastic_beam", system, &b.input, &b.initial);
        f.shared.output.run(r.columns(columns), &sim, dir, quiet)
    }

    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let b = &self.built;
        self.field_modes(&b.name, b.model.system(), count, |n| b.eigen_params(n))
    }
}
