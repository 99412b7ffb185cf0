//! The commands behind the `phlex` binary (also callable from Rust and tests): each reads
//! the model file once ([`ModelSource`]), finds its kind in the [registry](crate::registry)
//! and loads it once; `*_source` variants take an already read file.
use std::path::Path;

use anyhow::Result;

use crate::error::{ModelError, NotApplicable};
use crate::registry::{detect, LoadedModel, ModelKind};
use crate::source::ModelSource;

pub use crate::output::default_out;

/// Exit code of an error: 2 for a bad model file (or a command that does not apply to its
/// kind), 1 for anything else.
pub fn exit_code(e: &anyhow::Error) -> u8 {
    if e.chain().any(|c| {
        c.downcast_ref::<ModelError>().is_some() || c.downcast_ref::<NotApplicable>().is_some()
    }) {
        2
    } else {
        1
    }
}

/// The kind of `src` and the model loaded by it (the typed parse and the build).
pub fn load(src: &ModelSource) -> Result<(&'static dyn ModelKind, Box<dyn LoadedModel + '_>)> {
    let kind = detect(src)?;
    let model = kind.load(src)?;
    Ok((kind, model))
}

/// A [`NotApplicable`] error of a command on `kind` as a [`ModelError`] of the file that
/// names the kind and what to use instead; other errors unchanged.
pub fn name_kind(src: &ModelSource, kind: &dyn ModelKind, e: anyhow::Error) -> anyhow::Error {
    match e.downcast_ref::<NotApplicable>() {
        Some(na) => ModelError::at_line(
            src.file(),
            0,
            format!(
                "`phlex {}` is not applicable to {} models ({}): {}",
                na.command,
                kind.name(),
                kind.expects(),
                na.instead
            ),
        )
        .into(),
        None => e,
    }
}

/// `phlex check`: parse, validate, build and check the structure; prints the report,
/// writes nothing.
pub fn check(path: &Path) -> Result<()> {
    check_source(&ModelSource::read(path)?)
}

/// [`check`] of a model file already read.
pub fn check_source(src: &ModelSource) -> Result<()> {
    let (kind, model) = load(src)?;
    print!("{}", model.check()?.render(src.file(), kind.name()));
    Ok(())
}

/// `phlex run`: simulate and write the results into `out` (default
/// [`default_out`]`(path)`).
pub fn run(path: &Path, out: Option<&Path>, quiet: bool) -> Result<()> {
    run_source(&ModelSource::read(path)?, out, quiet)
}

/// [`run`] of a model file already read.
pub fn run_source(src: &ModelSource, out: Option<&Path>, quiet: bool) -> Result<()> {
    let (kind, model) = load(src)?;
    let dir = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| default_out(src.path()));
    model.run(&dir, quiet).map_err(|e| name_kind(src, kind, e))
}

/// `phlex modes`: the eigenfrequencies of the model (table, and JSON with `json`).
pub fn modes(path: &Path, count: Option<usize>, json: Option<&Path>) -> Result<()> {
    modes_source(&ModelSource::read(path)?, count, json)
}

/// [`modes`] of a model file already read.
pub fn modes_source(src: &ModelSource, count: Option<usize>, json: Option<&Path>) -> Result<()> {
    let (kind, model) = load(src)?;
    model
        .modes(count)
        .map_err(|e| name_kind(src, kind, e))?
        .print(json)
}
