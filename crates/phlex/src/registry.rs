//! The model-kind registry: every kind of model file (`[beam]`, `[plate]`, `[bodies.*]`, …)
//! is a [`ModelKind`] in [`KINDS`]; the commands `phlex run`, `check`, `modes` and
//! `export` read the file once ([`ModelSource`]), find its kind from the top-level tables
//! ([`detect`]), load it once (the typed parse and the build, [`ModelKind::load`]) and ask
//! the [`LoadedModel`] for what the command needs.
//!
//! A new kind is one folder under `kinds/` (what is specific to it, with a value that
//! implements [`ModelKind`]: a [`FileKind`] for a kind with a typed file and a build
//! function, whose [`Loaded`] model implements [`LoadedModel`], or a [`LoadKind`] with
//! its own load) plus one line in [`KINDS`].
use std::path::Path;

use anyhow::Result;
use serde::de::DeserializeOwned;

use crate::check::CheckReport;
use crate::error::{ModelError, NotApplicable};
use crate::export::Linear;
use crate::kinds;
use crate::output::ModeTable;
use crate::source::ModelSource;

/// Which top-level tables make a file of a kind: all of `all`, at least one of `any` (if
/// any are listed) and none of `none`.
#[derive(Debug, Clone, Copy)]
pub struct Tables {
    /// Tables the file must have.
    pub all: &'static [&'static str],
    /// Tables of which the file must have one (no condition if empty).
    pub any: &'static [&'static str],
    /// Tables the file must not have.
    pub none: &'static [&'static str],
}

impl Tables {
    /// All of the tables `all`.
    pub const fn all(all: &'static [&'static str]) -> Self {
        Self {
            all,
            any: &[],
            none: &[],
        }
    }

    /// One of the tables `any`.
    pub const fn any(any: &'static [&'static str]) -> Self {
        Self::all(&[]).with_any(any)
    }

    /// The same and one of the tables `any`.
    pub const fn with_any(self, any: &'static [&'static str]) -> Self {
        Self { any, ..self }
    }

    /// The same and none of the tables `none`.
    pub const fn without(self, none: &'static [&'static str]) -> Self {
        Self { none, ..self }
    }

    /// True if the top-level table `top` satisfies the rule.
    pub fn matches(&self, top: &toml::Table) -> bool {
        self.all.iter().all(|k| top.contains_key(*k))
            && (self.any.is_empty() || has_any(top, self.any))
            && !has_any(top, self.none)
    }

    /// The rule in words (`"[plate] with [attachments], [rod] or [loads]"`).
    pub fn describe(&self) -> String {
        let list = |v: &[&str], last: &str| {
            let t: Vec<String> = v.iter().map(|k| format!("[{k}]")).collect();
            match t.split_last() {
                Some((l, rest)) if !rest.is_empty() => format!("{} {last} {l}", rest.join(", ")),
                _ => t.join(""),
            }
        };
        let mut s = list(self.all, "and");
        if !self.any.is_empty() {
            let any = list(self.any, "or");
            s = if s.is_empty() {
                any
            } else {
                format!("{s} with {any}")
            };
        }
        if !self.none.is_empty() {
            s = format!("{s} without {}", list(self.none, "or"));
        }
        s
    }
}

/// One kind of model file.
pub trait ModelKind: Sync {
    /// Name of the kind in messages and in `phlex check` (`"beam"`, `"plate"`, …).
    fn name(&self) -> &'static str;
    /// The top-level tables that make a file of this kind.
    fn tables(&self) -> Tables;
    /// True if a file with the top-level table `top` is of this kind (default: it matches
    /// [`Self::tables`]).
    fn detect(&self, top: &toml::Table) -> bool {
        self.tables().matches(top)
    }
    /// What a file of this kind has, as told when no kind matches (default: the
    /// [`Self::tables`] rule in words).
    fn expects(&self) -> String {
        self.tables().describe()
    }
    /// The typed parse of the file (the only one) and the build of the model; every
    /// command then uses the loaded model.
    fn load<'a>(&self, src: &'a ModelSource) -> Result<Box<dyn LoadedModel + 'a>>;
}

/// A parsed model file `F` and its built model `B` (with the file, for messages and
/// lines): the loaded model of the kinds with a typed file and a build function
/// ([`FileKind`]).
pub struct Loaded<'a, F, B> {
    /// The model file.
    pub src: &'a ModelSource,
    /// The typed file.
    pub file: F,
    /// The built model.
    pub built: B,
}

/// The build of a typed model file `F` of `file` (its text for the lines of errors): the
/// built model `B` (the loaded model keeps the file beside it, [`Loaded`]).
pub type BuildFn<F, B> = fn(&str, &str, &F) -> Result<B, ModelError>;

/// A kind with a typed file `F` (parsed once) built into `B` by `build`, identified by
/// `tables`; its commands are those of [`Loaded`]`<F, B>`.
pub struct FileKind<F, B> {
    /// Name of the kind.
    pub name: &'static str,
    /// The identifying tables.
    pub tables: Tables,
    /// The build.
    pub build: BuildFn<F, B>,
}

impl<F, B> FileKind<F, B> {
    /// The kind `name` of the files that match `tables`, built by `build`.
    pub const fn new(name: &'static str, tables: Tables, build: BuildFn<F, B>) -> Self {
        Self {
            name,
            tables,
            build,
        }
    }
}

impl<F, B> ModelKind for FileKind<F, B>
where
    F: DeserializeOwned + 'static,
    B: 'static,
    for<'a> Loaded<'a, F, B>: LoadedModel,
{
    fn name(&self) -> &'static str {
        self.name
    }
    fn tables(&self) -> Tables {
        self.tables
    }
    fn load<'a>(&self, src: &'a ModelSource) -> Result<Box<dyn LoadedModel + 'a>> {
        let file = src.parse()?;
        let built = (self.build)(src.file(), src.text(), &file)?;
        Ok(Box::new(Loaded { src, file, built }))
    }
}

/// The load of a model file (its typed parse and build): the loaded model.
pub type LoadFn = for<'a> fn(&'a ModelSource) -> Result<Box<dyn LoadedModel + 'a>>;

/// A kind identified by `tables` and loaded by `load`: a kind whose loaded model is its
/// own type (a [`FileKind`] is a kind whose loaded model is a [`Loaded`]).
pub struct LoadKind {
    /// Name of the kind.
    pub name: &'static str,
    /// The identifying tables.
    pub tables: Tables,
    /// The load.
    pub load: LoadFn,
}

impl LoadKind {
    /// The kind `name` of the files that match `tables`, loaded by `load`.
    pub const fn new(name: &'static str, tables: Tables, load: LoadFn) -> Self {
        Self { name, tables, load }
    }
}

impl ModelKind for LoadKind {
    fn name(&self) -> &'static str {
        self.name
    }
    fn tables(&self) -> Tables {
        self.tables
    }
    fn load<'a>(&self, src: &'a ModelSource) -> Result<Box<dyn LoadedModel + 'a>> {
        (self.load)(src)
    }
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
    &kinds::beam::BEAM,
    &kinds::beam_control::BEAM_CONTROL,
    &kinds::thermoelastic_beam::THERMOELASTIC_BEAM,
    &kinds::thermal_rod::THERMAL_ROD,
    &kinds::plate::PLATE,
    &kinds::plate_assembly::PLATE_ASSEMBLY,
    &kinds::elasticity::ELASTICITY,
    &kinds::acoustics::ACOUSTICS,
    &kinds::shallow_water::SHALLOW_WATER,
    &kinds::mbs::Planar,
    &kinds::mbs::Spatial,
    &kinds::ephs::EPHS,
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
