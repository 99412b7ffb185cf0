//! [`ModelText`]: a parsed multibody model file, planar ([`super::MbsModel`]) or spatial
//! ([`super::Mbs3dModel`]), kept with its text so that every error names the line of its
//! item, and [`MbsFormat`], what the two file formats tell it (their kind, `[model]`,
//! `[simulation]`, `[output] plots` and the validation after the parse).
use std::ops::Range;
use std::path::Path;

use phlex_mbs::MbsError;
use serde::de::DeserializeOwned;

use super::integrate::mbs_simulation;
use super::source::{convert_error, error_at, error_line, gravity_hint, header_line, section_line};
use crate::error::{line_of, ModelError};
use crate::integration::Simulation;
use crate::source::ModelSource;
use crate::spec::{ModelMeta, SimulationSpec};

/// A multibody file format (the planar [`super::MbsFile`] or the spatial
/// [`super::Mbs3dFile`]): what [`ModelText`] needs of the parsed file.
pub trait MbsFormat: DeserializeOwned + Sized {
    /// The kind in messages: `"planar multibody"` or `"spatial multibody"`.
    const KIND: &'static str;
    /// Validates the parsed file `m` beyond its serde types (values, names, references,
    /// outputs), with errors at the line of the item.
    fn validate(m: &ModelText<Self>) -> Result<(), ModelError>;
    /// The sections both formats have: `[model]`, `[simulation]` (if given) and
    /// `[output] plots` (whether a run writes SVG plots).
    fn common(&self) -> (&ModelMeta, Option<&SimulationSpec>, bool);
}

/// A parsed multibody model file with its name and text (for the lines of errors).
#[derive(Debug, Clone)]
pub struct ModelText<F> {
    /// File name used in messages.
    pub file: String,
    text: String,
    /// The parsed content.
    pub spec: F,
}

impl<F: MbsFormat> ModelText<F> {
    /// Parses (the one typed parse of the file) and validates a model file
    /// ([`MbsFormat::validate`]).
    pub fn from_source(src: &ModelSource) -> Result<Self, ModelError> {
        let spec: F = src.parse().map_err(gravity_hint)?;
        let m = Self {
            file: src.file().into(),
            text: src.text().into(),
            spec,
        };
        F::validate(&m)?;
        Ok(m)
    }

    /// Reads, parses and validates a model file.
    pub fn read(path: &Path) -> Result<Self, ModelError> {
        Self::from_source(&ModelSource::read(path)?)
    }

    /// The `[simulation]` of the file with the multibody defaults, ready to run (a missing
    /// section or an invalid key names the key).
    pub(crate) fn simulation(&self) -> Result<Simulation<'_>, ModelError> {
        mbs_simulation((&self.file, &self.text, F::KIND), self.spec.common().1)
    }

    /// The model name, if the run writes plots (titled with it).
    pub(crate) fn plots_of(&self) -> Option<&String> {
        let (meta, _, plots) = self.spec.common();
        plots.then_some(&meta.name)
    }
}

impl<F> ModelText<F> {
    /// A [`ModelError`] at the line of the byte `span` of the text.
    pub(crate) fn err(&self, span: Range<usize>, message: String) -> ModelError {
        error_at(&self.file, line_of(&self.text, span.start), message)
    }

    /// A [`ModelError`] at the 1-based `line` (0: no line).
    pub(crate) fn err_line(&self, line: usize, message: String) -> ModelError {
        error_at(&self.file, line, message)
    }

    /// 1-based line of the table `[section.name]` (or of `name = …` inside `[section]`),
    /// 0 if not found.
    pub(crate) fn header_line(&self, section: &str, name: &str) -> usize {
        header_line(&self.text, section, name)
    }

    /// 1-based line of the table `[section]` or `[[section]]`, 0 if not found.
    pub(crate) fn section_line(&self, section: &str) -> usize {
        section_line(&self.text, section)
    }

    /// A model error for a building error, at the line of the item it names.
    pub(crate) fn model_error(&self, e: &MbsError) -> ModelError {
        self.err_line(error_line(&self.text, e), e.to_string())
    }

    /// Converts a multibody error: model errors (exit code 2) name the body or joint and
    /// the line of its table; numerical failures stay plain errors (exit code 1).
    pub fn convert(&self, e: MbsError) -> anyhow::Error {
        convert_error(&self.file, &self.text, e)
    }
}
