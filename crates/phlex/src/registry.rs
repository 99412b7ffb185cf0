//! The model-kind registry: every kind of model file (`[beam]`, `[plate]`, `[bodies.*]`, …)
//! is a [`ModelKind`] in [`KINDS`]; the commands `phlex run`, `check`, `modes` and
//! `export` read the file once ([`ModelSource`]), find its kind from the top-level tables
//! ([`detect`]), load it once (the typed parse and the build, [`ModelKind::load`]) and ask
//! the [`LoadedModel`] for what the command needs.
//!
//! A new kind is one folder under `kinds/` (what is specific to it, with a type that
//! implements [`ModelKind`]) plus one line in [`KINDS`].
use std::path::Path;

use anyhow::Result;

use crate::check::CheckReport;
use crate::error::{ModelError, NotApplicable};
use crate::export::Linear;
use crate::kinds;
use crate::output::ModeTable;
use crate::source::ModelSource;

/// One kind of model file.
pub trait ModelKind: Sync {
    /// Name of the kind in messages and in `phlex check` (`"beam"`, `"plate"`, …).
    fn name(&self) -> &'static str;
    /// The top-level tables a file of this kind has, as told when no kind matches (e.g.
    /// `"[beam] without [control]"`).
    fn expects(&self) -> &'static str;
    /// True if a file with the top-level table `top` is of this kind.
    fn detect(&self, top: &toml::Table) -> bool;
    /// The typed parse of the file (the only one) and the build of the model; every
    /// command then uses the loaded model.
    fn load<'a>(&self, src: &'a ModelSource) -> Result<Box<dyn LoadedModel + 'a>>;
}

/// A parsed and built model: what the commands ask of it. `modes` and `linear` are
/// optional; their default says what to use instead ([`NotApplicable`], exit code 2).
pub trait LoadedModel {
    /// `phlex check`: the report of the validated, built and structure-checked model
    /// (printed by the command; nothing is written).
    fn check(&self) -> Result<CheckReport>;

    /// `phlex run`: simulates and writes the results into `dir` (`quiet`: no progress).
    fn run(&self, dir: &Path, quiet: bool) -> Result<()>;

    /// `phlex modes`: the first `count` eigenfrequencies (default: the model's `[modes]`
    /// count, else 6).
    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let _ = count;
        Err(NotApplicable {
            command: "modes",
            instead: "this model has no linear eigen-analysis; use `phlex run`",
        }
        .into())
    }

    /// `phlex export` and `phlex modes --reduce`: the linear pH(DAE) of the model
    /// (`linearize`: about the consistent initial state, for nonlinear models).
    fn linear(&self, linearize: bool) -> Result<Linear> {
        let _ = linearize;
        Err(NotApplicable {
            command: "export",
            instead: "`phlex export` and `phlex modes --reduce` take beam models ([beam]) and planar multibody models ([bodies.*], with --linearize); use `phlex modes` for the frequencies of this model",
        }
        .into())
    }
}

/// Every kind of model file, in the order of the "no kind matches" message.
pub static KINDS: &[&dyn ModelKind] = &[
    &kinds::beam::Beam,
    &kinds::beam_control::BeamControl,
    &kinds::thermoelastic_beam::ThermoelasticBeam,
    &kinds::thermal_rod::ThermalRod,
    &kinds::plate::Plate,
    &kinds::plate_assembly::PlateAssembly,
    &kinds::elasticity::Elasticity,
    &kinds::acoustics::Acoustics,
    &kinds::shallow_water::ShallowWater,
    &kinds::mbs::Planar,
    &kinds::mbs::Spatial,
    &kinds::ephs::Ephs,
];

/// The kind of the model file `src`: the one kind whose [`ModelKind::detect`] accepts its
/// top-level table. A file that matches no kind gets an error listing the tables each kind
/// expects; a file that matches several, an error naming them (both exit code 2).
pub fn detect(src: &ModelSource) -> Result<&'static dyn ModelKind, ModelError> {
    let found: Vec<&'static dyn ModelKind> = KINDS
        .iter()
        .copied()
        .filter(|k| k.detect(src.top()))
        .collect();
    let tables = || {
        let t: Vec<String> = src.top().keys().map(|k| format!("[{k}]")).collect();
        if t.is_empty() {
            "none".to_string()
        } else {
            t.join(", ")
        }
    };
    match found.as_slice() {
        [one] => Ok(*one),
        [] => {
            let list: Vec<String> = KINDS
                .iter()
                .map(|k| format!("{}: {}", k.name(), k.expects()))
                .collect();
            Err(ModelError::at_line(
                src.file(),
                0,
                format!(
                    "no model kind matches the top-level tables ({}); the kinds expect {}",
                    tables(),
                    list.join("; ")
                ),
            ))
        }
        many => {
            let list: Vec<String> = many
                .iter()
                .map(|k| format!("{} ({})", k.name(), k.expects()))
                .collect();
            Err(ModelError::at_line(
                src.file(),
                0,
                format!(
                    "the top-level tables ({}) match several model kinds: {}; a file describes one kind",
                    tables(),
                    list.join(" and ")
                ),
            ))
        }
    }
}

/// True if `top` has any of the tables `keys`.
pub fn has_any(top: &toml::Table, keys: &[&str]) -> bool {
    keys.iter().any(|k| top.contains_key(*k))
}
