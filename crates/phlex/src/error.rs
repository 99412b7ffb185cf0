//! Errors of a model file: [`ModelError`] names the file, the line and the offending key
//! (exit code 2 of the `phlex` binary), [`NotApplicable`] says that a command does not
//! apply to a kind of model; [`line_of`] and [`key_context`] locate a key in the text.

/// A model file error: message with key and line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct ModelError {
    /// File name.
    pub file: String,
    /// 1-based line (0 if unknown).
    pub line: usize,
    /// What is wrong, naming the key.
    pub message: String,
}

impl ModelError {
    /// An error of `file` at a 1-based `line` (0: no line).
    pub fn at_line(file: &str, line: usize, message: String) -> Self {
        Self {
            file: file.into(),
            line,
            message,
        }
    }
}

/// The [`ModelError`] of a key at a byte span of the model text (line 0 for an empty span
/// at the start, i.e. no span).
pub fn error_at(
    file: &str,
    text: &str,
    span: std::ops::Range<usize>,
    message: String,
) -> ModelError {
    ModelError {
        file: file.into(),
        line: if span.end > 0 {
            line_of(text, span.start)
        } else {
            0
        },
        message,
    }
}

/// A command that does not apply to a kind of model (`phlex modes` of an EPHS model,
/// `phlex export` of a plate): what to use instead. The command layer adds the file and
/// the kind ([`crate::app`]); exit code 2.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("`phlex {command}` does not apply to this model; {instead}")]
pub struct NotApplicable {
    /// The command (`modes`, `export`, …).
    pub command: &'static str,
    /// What to use instead.
    pub instead: &'static str,
}

/// Line (1-based) of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}

/// "key `section.key`: " for the `key = value` on a 1-based line, or "" if the line holds
/// none.
pub fn key_context(text: &str, line: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let Some(l) = line.checked_sub(1).and_then(|k| lines.get(k)) else {
        return String::new();
    };
    let Some((key, _)) = l.split_once('=') else {
        return String::new();
    };
    let key = key.trim();
    if key.is_empty() || key.contains(['[', '{', '"']) {
        return String::new();
    }
    let section = lines[..line - 1]
        .iter()
        .rev()
        .find_map(|s| {
            let s = s.trim();
            s.starts_with('[')
                .then(|| s.trim_matches(|c| c == '[' || c == ']').to_string())
        })
        .unwrap_or_default();
    if section.is_empty() {
        format!("key `{key}`: ")
    } else {
        format!("key `{section}.{key}`: ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_context_names_section_and_key() {
        let text = "top = 1\n[beam]\nlength = -1\n[[load]]\nname = 'a'\n";
        assert_eq!(key_context(text, 1), "key `top`: ");
        assert_eq!(key_context(text, 3), "key `beam.length`: ");
        assert_eq!(key_context(text, 5), "key `load.name`: ");
        assert_eq!(key_context(text, 2), "");
        assert_eq!(key_context(text, 0), "");
        assert_eq!(key_context(text, 99), "");
        assert_eq!(line_of(text, 0), 1);
        assert_eq!(line_of(text, 9), 2);
    }
}
