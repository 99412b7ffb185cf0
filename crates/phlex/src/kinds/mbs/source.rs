//! Where things are in the text of a multibody model file (planar or spatial), for errors
//! that name the line: the references `"body.port"`, the hint for a misplaced `gravity`, and the lines of tables
//! `[section.name]`, keys `name = …` inside `[section]`, and `[section]` / `[[section]]`.
use phlex_mbs::{MbsError, GROUND};

use crate::error::ModelError;

/// Splits `"body.port"`; `"ground"` alone is `("ground", "origin")`.
pub(crate) fn split_ref(s: &str) -> Option<(&str, &str)> {
    if s == GROUND {
        return Some((GROUND, "origin"));
    }
    let (b, p) = s.split_once('.')?;
    (!b.is_empty() && !p.is_empty()).then_some((b, p))
}

/// Adds to a parse error of a multibody file the hint for a misplaced `gravity` (a
/// top-level key, which TOML puts into the preceding table when written after it).
pub(crate) fn gravity_hint(mut e: ModelError) -> ModelError {
    if e.message.contains("unknown field `gravity`") {
        e.message
            .push_str(" (gravity is a top-level key: put it before the first table)");
    }
    e
}

/// 1-based line of the table `[section.name]` (or of `name = …` inside `[section]`), 0 if
/// not found.
pub(crate) fn header_line(text: &str, section: &str, name: &str) -> usize {
    let heads = [
        format!("[{section}.{name}]"),
        format!("[{section}.\"{name}\"]"),
    ];
    let mut in_section = false;
    for (k, l) in text.lines().enumerate() {
        let t = l.trim();
        if heads.iter().any(|h| t == h) || t.starts_with(&format!("[{section}.{name}.")) {
            return k + 1;
        }
        if t.starts_with('[') {
            in_section = t == format!("[{section}]");
        } else if in_section
            && (t.starts_with(&format!("{name} ")) || t.starts_with(&format!("{name}=")))
        {
            return k + 1;
        }
    }
    0
}

/// 1-based line of the table `[section]` or of the first `[[section]]`, 0 if not found.
pub(crate) fn section_line(text: &str, section: &str) -> usize {
    let (a, b) = (format!("[{section}]"), format!("[[{section}]]"));
    text.lines()
        .position(|l| l.trim() == a || l.trim() == b)
        .map_or(0, |k| k + 1)
}

/// A [`ModelError`] of `file` at 1-based `line` (0: no line).
pub(crate) fn error_at(file: &str, line: usize, message: String) -> ModelError {
    ModelError {
        file: file.into(),
        line,
        message,
    }
}

/// 1-based line of the item a building error names (the table of the body, joint or force
/// element, the `[[load]]` section), 0 if it names none.
pub(crate) fn error_line(text: &str, e: &MbsError) -> usize {
    let quoted = |s: &str| s.split('\'').nth(1).unwrap_or("").to_string();
    match e {
        MbsError::InvalidBodyParameter { body, .. }
        | MbsError::MissingDeformationBc { body }
        | MbsError::Fem { body, .. } => header_line(text, "bodies", body),
        MbsError::UnknownBody { context, .. } | MbsError::UnknownPort { context, .. } => {
            let n = quoted(context);
            if context.starts_with("joint") {
                header_line(text, "joints", &n)
            } else if context.starts_with("force element") {
                header_line(text, "forces", &n)
            } else if context.starts_with("load") {
                section_line(text, "load")
            } else {
                header_line(text, "bodies", &n)
            }
        }
        MbsError::InvalidJoint { joint, .. }
        | MbsError::InconsistentInitialConditions { joint, .. } => {
            header_line(text, "joints", joint)
        }
        MbsError::InvalidForceElement { element, .. } => header_line(text, "forces", element),
        MbsError::RedundantConstraints { joints, .. } => joints
            .first()
            .map(|j| header_line(text, "joints", j))
            .unwrap_or(0),
        _ => 0,
    }
}

/// Converts a multibody error of `file`: model errors (exit code 2) name the body or
/// joint and the line of its table; numerical failures stay plain errors (exit code 1).
pub(crate) fn convert_error(file: &str, text: &str, e: MbsError) -> anyhow::Error {
    match e {
        MbsError::Dimension { .. } | MbsError::Core(_) | MbsError::Solve(_) => {
            anyhow::Error::new(e)
        }
        e => anyhow::Error::new(error_at(file, error_line(text, &e), e.to_string())),
    }
}
