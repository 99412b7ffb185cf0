//! The beam kind (`[beam]` without `[control]`): [`BEAM`] in the registry, the loaded model
//! ([`LoadedBeam`]) and its commands: `check`, `run` (midpoint, Radau IIA or
//! Störmer–Verlet with `timeseries.csv`, `summary.json` and the energy, probe and
//! power-balance plots), `modes` and `export` (the beam is linear).
use std::path::Path;

use anyhow::{Context, Result};

use super::build::{build, Built};
use super::file::{self, ModelFile};
use super::simulate::{simulate, summarize};
use crate::check::CheckReport;
use crate::export::Linear;
use crate::integration::{Defaults, Simulation};
use crate::output::{
    columns_plot, energy_plot, frequencies, power_balance_plot, ModeTable, OutputFiles,
};
use crate::registry::{LoadKind, LoadedModel, Tables};
use crate::source::ModelSource;

/// The beam kind: a file with a `[beam]` table and no `[control]` table.
pub static BEAM: LoadKind = LoadKind::new(
    "beam",
    Tables::all(&["beam"]).without(&["control"]),
    load_beam,
);

fn load_beam(src: &ModelSource) -> Result<Box<dyn LoadedModel + '_>> {
    Ok(Box::new(LoadedBeam::load(src)?))
}

/// Reads, parses and builds the beam model file at `path` (with or without `[control]`).
pub fn load(path: &Path) -> Result<(ModelFile, Built)> {
    let src = ModelSource::read(path)?;
    let l = LoadedBeam::load(&src)?;
    Ok((l.file, l.built))
}

/// A parsed and built beam model.
pub struct LoadedBeam<'a> {
    /// The model file.
    pub src: &'a ModelSource,
    /// The parsed file.
    pub file: ModelFile,
    /// The built model.
    pub built: Built,
}

impl<'a> LoadedBeam<'a> {
    /// The typed parse, the validation and the build of `src`.
    pub fn load(src: &'a ModelSource) -> Result<Self> {
        let file = file::parse(src)?;
        let built = build(src.file(), src.text(), &file)?;
        Ok(Self { src, file, built })
    }
}

/// The open ports with their dimension, input and output.
fn port_list(b: &Built) -> String {
    if b.system.ports.is_empty() {
        return "none".into();
    }
    b.system
        .ports
        .iter()
        .map(|p| {
            format!(
                "{} (dim {}: in {}, out {})",
                p.name, p.dim, p.input, p.output
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl LoadedModel for LoadedBeam<'_> {
    fn check(&self) -> Result<CheckReport> {
        let b = &self.built;
        let beam = &self.file.beam;
        let variant = format!("{:?}, {}", beam.theory, beam.discretization.get_ref());
        let mut r = CheckReport::linear(&b.name, variant, &b.system);
        r.ports = port_list(b);
        Ok(r)
    }

    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        let (m, b) = (&self.file, &self.built);
        let sim = Simulation::new(
            (self.src.file(), self.src.text(), "beam"),
            m.simulation.as_ref(),
            Defaults::linear(),
        )?;
        if !quiet {
            eprintln!(
                "phlex run: {} — {} states, ports: {}",
                b.name,
                b.system.n_states(),
                port_list(b)
            );
        }
        let s = simulate(b, &sim, quiet)?;
        let summary = summarize(b, &s);
        // Everything is computed; now write (each file atomically).
        let mut files = OutputFiles::new(dir);
        files.add("timeseries.csv", s.series.to_csv()?);
        if m.output.plots {
            files.add("energy.svg", energy_plot(&b.name, &s.series, "H [J]")?);
            if !b.probes.is_empty() {
                let names: Vec<String> = b.probes.iter().map(|(n, _)| n.clone()).collect();
                files.add(
                    "probes.svg",
                    columns_plot(&b.name, "probes", &s.series, 2, &names)?,
                );
            }
            if let Some(svg) = power_balance_plot(&b.name, &s.ledger)? {
                files.add("power_balance.svg", svg);
            }
        }
        files.finish_run(summary, &[])
    }

    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let b = &self.built;
        let n = count.unwrap_or(self.file.modes.count);
        let rows = frequencies(&b.system, n).context("eigen-analysis failed")?;
        Ok(ModeTable::new(&b.name, b.system.n_states(), rows))
    }

    fn linear(&self, _linearize: bool) -> Result<Linear> {
        Ok(Linear {
            name: self.built.name.clone(),
            kind: "linear PFEM beam model",
            system: self.built.system.clone(),
            linearization: None,
            flexible: None,
        })
    }
}
