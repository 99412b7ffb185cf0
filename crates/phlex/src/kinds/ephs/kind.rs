//! The EPHS kind (`[components.*]`, `[patterns.*]`): [`EPHS`] in the registry and the
//! commands of a parsed model: `check` (typed, flattened and assembled) and `run`
//! ([`super::run`]). EPHS models are nonlinear and have no `phlex modes` or
//! `phlex export`.
use std::path::Path;

use anyhow::Result;
use phlex_ephs::model_file::Model;

use super::run::convert;
use crate::check::CheckReport;
use crate::registry::{LoadKind, LoadedModel, Tables};
use crate::source::ModelSource;

/// The EPHS kind: a file with `[components.*]` or `[patterns.*]` tables.
pub static EPHS: LoadKind = LoadKind::new("ephs", Tables::any(&["components", "patterns"]), load);

fn load(src: &ModelSource) -> Result<Box<dyn LoadedModel + '_>> {
    let model = src.parse_with(Model::parse).map_err(convert)?;
    Ok(Box::new(LoadedEphs(model)))
}

/// A parsed EPHS model (typed and checked by [`Model::parse`]).
struct LoadedEphs(Model);

impl LoadedModel for LoadedEphs {
    /// Flattens and assembles the top system into its DAE with the consistent initial
    /// state.
    fn check(&self) -> Result<CheckReport> {
        let m = &self.0;
        let (dae, y0) = m.build().map_err(convert)?;
        let inputs = dae.input_names();
        Ok(CheckReport {
            model: m.spec.model.top.get_ref().clone(),
            variant: "exergetic port-Hamiltonian system".into(),
            states: y0.len(),
            blocks: vec![
                ("coordinates".into(), dae.n_coords()),
                ("algebraic".into(), dae.n_algebraic()),
            ],
            ports: if inputs.is_empty() {
                "none".into()
            } else {
                inputs.join(", ")
            },
            structure: "typed, flattened and assembled; consistent initial state".into(),
            details: Vec::new(),
        })
    }

    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        super::run::run(&self.0, dir, quiet)
    }
}
