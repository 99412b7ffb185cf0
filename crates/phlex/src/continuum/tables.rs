//! The top-level tables every continuum model file has ([`FieldTables`]: `[model]`,
//! `[initial]`, `[simulation]`, `[output]`, `[modes]`, `[[input]]`), read once for the plate, plate
//! assembly, elasticity, acoustics, shallow water, thermal rod and thermoelastic beam
//! files: each kind's file is
//! [`FieldFile`]`<its own tables>` ([`crate::keys::WithKeys`]), so that the shared tables
//! have one definition and the kind says only what differs.
use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use phlex_core::LinearPhSystem;
use phlex_solve::eigen::EigenParams;

use serde::de::{self, DeserializeOwned, MapAccess};
use toml::Spanned;

use super::{FieldFn, FieldOutput, FieldRun};
use crate::error::{error_at, ModelError};
use crate::keys::{KeyGroup, WithKeys};
use crate::output::{mode_table, ModeTable};
use crate::registry::Loaded;
use crate::spec::{ModelMeta, ModesSpec, PortInput, SimulationSpec};

/// The `[initial]` table of the 2D and 3D continuum files: field name → expression in the
/// coordinates.
pub type InitialFields = BTreeMap<String, Spanned<String>>;

/// The tables shared by the continuum model files (format in
/// `docs/model-format-continuum.md` and `docs/model-format-plate.md`): `[initial]` is an
/// `I` (the 2D/3D files: [`InitialFields`]; the one-dimensional ones name their fields
/// as keys), `[output]` an `O` ([`FieldOutput`]; the one-dimensional files:
/// [`super::LineOutput`]).
#[derive(Debug, Clone, Default)]
pub struct FieldTables<I = InitialFields, O = FieldOutput> {
    /// `[model]`: descriptive metadata (required).
    pub model: ModelMeta,
    /// `[initial]`: initial fields as expressions in the coordinates (the field names are
    /// the kind's: `e_w` of a plate, `p`, `u_x`, `u_y` of acoustics, …).
    pub initial: I,
    /// `[simulation]`: time integration ([`SimulationSpec`]).
    pub simulation: Option<SimulationSpec>,
    /// `[output]`: probes, plots (and VTK snapshots).
    pub output: O,
    /// `[modes]`: eigen-analysis settings.
    pub modes: ModesSpec,
    /// `[[input]]`: the signals driving the model's ports (uniform over the port's trace
    /// basis; a kind without input ports rejects them).
    pub input: Vec<PortInput>,
}

impl<I: DeserializeOwned + Default, O: DeserializeOwned + Default> KeyGroup for FieldTables<I, O> {
    const KEYS: &'static [&'static str] =
        &["model", "initial", "simulation", "output", "modes", "input"];
    const REQUIRED: &'static [&'static str] = &["model"];

    fn read<'de, M: MapAccess<'de>>(&mut self, key: &str, map: &mut M) -> Result<(), M::Error> {
        match key {
            "model" => self.model = map.next_value()?,
            "initial" => self.initial = map.next_value()?,
            "simulation" => self.simulation = Some(map.next_value()?),
            "output" => self.output = map.next_value()?,
            "modes" => self.modes = map.next_value()?,
            "input" => self.input = map.next_value()?,
            other => return Err(de::Error::unknown_field(other, Self::KEYS)),
        }
        Ok(())
    }
}

/// A continuum model file: the shared [`FieldTables`] and the kind's own tables `S` (a
/// derived `deny_unknown_fields` struct, which the file dereferences to).
pub type FieldFile<S, I = InitialFields, O = FieldOutput> = WithKeys<FieldTables<I, O>, S>;

impl FieldTables {
    /// The `[initial]` fields of a model of `file` (its `text` for the lines of errors)
    /// whose fields are `names`, as expressions in `dim` coordinates, in the order of
    /// `names` (`None`: not given, zero); an unknown name is an error that lists the fields
    /// as `known` says.
    pub fn initial_fields(
        &self,
        (file, text): (&str, &str),
        names: &[&str],
        dim: usize,
        known: &str,
    ) -> Result<Vec<Option<FieldFn>>, ModelError> {
        let mut fields = vec![None; names.len()];
        for (name, expr) in &self.initial {
            let err = |message| error_at(file, text, expr.span(), message);
            let Some(k) = names.iter().position(|n| n == name) else {
                return Err(err(format!("initial.{name}: unknown field; use {known}")));
            };
            fields[k] = Some(
                FieldFn::parse(expr.get_ref(), dim)
                    .map_err(|m| err(format!("initial.{name}: {m}")))?,
            );
        }
        Ok(fields)
    }
}

/// Checks that the initial state `x0` of a model of `file` is finite (an error at line 0
/// saying that the fields are not finite everywhere `place`, e.g. "on the plate").
pub fn check_finite_initial(
    (file, text): (&str, &str),
    x0: &[f64],
    place: &str,
) -> Result<(), ModelError> {
    if x0.iter().all(|v| v.is_finite()) {
        return Ok(());
    }
    Err(error_at(
        file,
        text,
        0..0,
        format!("initial fields are not finite everywhere {place}"),
    ))
}

impl<S, B> Loaded<'_, FieldFile<S>, B> {
    /// `phlex run` of a continuum model: `run` (the model's system, inputs, initial state,
    /// columns and VTK snapshots) with the file's `[simulation]` and `[output]`.
    pub fn run_fields(&self, run: FieldRun<'_>, dir: &Path, quiet: bool) -> Result<()> {
        let tables = &self.file.shared;
        run.run(
            (self.src.file(), self.src.text()),
            tables.simulation.as_ref(),
            &tables.output,
            dir,
            quiet,
        )
    }
}

impl<S, I, O, B> Loaded<'_, FieldFile<S, I, O>, B> {
    /// `phlex modes` of a linear continuum model: the first `count` (default: the file's
    /// `[modes] count`) eigenfrequencies of `sys`, with the model's eigensolver settings
    /// `params(n)` for `n` modes.
    pub fn field_modes(
        &self,
        name: &str,
        sys: &LinearPhSystem,
        count: Option<usize>,
        params: impl Fn(usize) -> EigenParams,
    ) -> Result<ModeTable> {
        let n = count.unwrap_or(self.file.shared.modes.count);
        mode_table(name, sys, n, &params(n))
    }
}
