//! A model file read and parsed once per command ([`ModelSource`]): its path, its text, its
//! top-level TOML table (what the [registry](crate::registry) detects the kind from,
//! checked for renamed keys by [`crate::vocabulary`]) and
//! the one typed parse of the kind ([`ModelSource::parse`]), whose errors name the key and
//! its line.
use std::cell::Cell;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::error::{key_context, line_of, ModelError};

/// A model file: read once, its top-level table parsed once.
#[derive(Debug)]
pub struct ModelSource {
    path: PathBuf,
    file: String,
    text: String,
    top: toml::Table,
    typed_parses: Cell<usize>,
}

impl ModelSource {
    /// Reads and parses the model file at `path` (exit code 2 if it cannot be read or is
    /// not TOML).
    pub fn read(path: &Path) -> Result<Self, ModelError> {
        let text = std::fs::read_to_string(path).map_err(|e| ModelError {
            file: path.display().to_string(),
            line: 0,
            message: format!("cannot read model file: {e}"),
        })?;
        Self::from_text(path, text)
    }

    /// The model file `path` with the given text (nothing is read from disk; file names
    /// inside the model, e.g. Gmsh meshes, are relative to `path`). Keys of earlier
    /// versions of the format are errors naming the new key
    /// ([`crate::vocabulary::check_renamed`]).
    pub fn from_text(path: &Path, text: String) -> Result<Self, ModelError> {
        let file = path.display().to_string();
        let top = text
            .parse::<toml::Table>()
            .map_err(|e| toml_error(&file, &text, &e))?;
        crate::vocabulary::check_renamed(&file, &text)?;
        Ok(Self {
            path: path.to_path_buf(),
            file,
            text,
            top,
            typed_parses: Cell::new(0),
        })
    }

    /// The path of the file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file name used in messages.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The text of the file.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The top-level table (untyped).
    pub fn top(&self) -> &toml::Table {
        &self.top
    }

    /// The typed parse of the file as `T` (the kind's file structure, with
    /// `deny_unknown_fields` and spanned values): errors name the key and its line; the
    /// shared `[simulation]` is checked first ([`crate::spec::check_simulation_section`]: a
    /// former spelling names the new key, a key that does not apply names its integrator).
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, ModelError> {
        self.typed_parses.set(self.typed_parses.get() + 1);
        crate::spec::check_simulation_section(&self.file, &self.text)?;
        toml::from_str(&self.text).map_err(|e| toml_error(&self.file, &self.text, &e))
    }

    /// The typed parse done by another crate's parser (`parse(file, text)`), counted as
    /// the one typed parse like [`Self::parse`], after the same check of former spellings.
    pub fn parse_with<T, E: From<ModelError>>(
        &self,
        parse: impl FnOnce(&str, &str) -> Result<T, E>,
    ) -> Result<T, E> {
        self.typed_parses.set(self.typed_parses.get() + 1);
        crate::spec::check_renamed_simulation_keys(&self.file, &self.text)?;
        parse(&self.file, &self.text)
    }

    /// How many typed parses were made of this file (one per command: the kind parses once
    /// and every step reuses the result).
    pub fn typed_parses(&self) -> usize {
        self.typed_parses.get()
    }

    /// The [`ModelError`] at the line of a byte span of the text (line 0 for no span).
    pub fn error_at(&self, span: std::ops::Range<usize>, message: String) -> ModelError {
        crate::error::error_at(&self.file, &self.text, span, message)
    }
}

/// A TOML syntax or type error of `file` as a [`ModelError`]: its line, the key on that
/// line and the parser's message on one line.
fn toml_error(file: &str, text: &str, e: &toml::de::Error) -> ModelError {
    let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
    ModelError {
        file: file.into(),
        line,
        message: format!(
            "{}{}",
            key_context(text, line),
            e.message().trim().replace('\n', " ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Small {
        a: f64,
    }

    #[test]
    fn parses_once_and_names_the_key() {
        let src = ModelSource::from_text(Path::new("m.toml"), "a = 1.0\n".into()).unwrap();
        assert!(src.top().contains_key("a"));
        assert_eq!(src.typed_parses(), 0);
        src.parse::<Small>().unwrap();
        assert_eq!(src.typed_parses(), 1);
        let bad = ModelSource::from_text(Path::new("m.toml"), "\nb = 2.0\n".into()).unwrap();
        let e = bad.parse::<Small>().unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.starts_with("key `b`: unknown field `b`"), "{e}");
        let e = ModelSource::from_text(Path::new("m.toml"), "a = [\n".into()).unwrap_err();
        assert_eq!((e.file.as_str(), e.line > 0), ("m.toml", true), "{e}");
    }
}
