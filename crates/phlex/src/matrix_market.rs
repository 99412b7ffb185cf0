//! Matrix Market coordinate files (NIST format, `%%MatrixMarket matrix coordinate real
//! general`): a writer for [`SparseMat`] and a reader for round trips.
//!
//! Hand-written (about a hundred lines): no crate in the local registry cache writes
//! Matrix Market from faer matrices (the format crates that exist target other matrix
//! types, e.g. `sprs`), and the format is simple. Values are written with `{:.17e}`
//! (17 significant digits), so reading them back gives the same `f64` bit for bit. Indices
//! are 1-based, one entry per line; explicit zeros are not written. Readers: SciPy
//! `scipy.io.mmread`, MATLAB/Octave `mmread.m` (NIST), Julia `MatrixMarket.jl`.
use phlex_core::sparse::{col_iter, SparseMat, Triplets};
use thiserror::Error;

/// A malformed Matrix Market file.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("Matrix Market line {line}: {message}")]
pub struct MtxError {
    /// 1-based line number (0: the file as a whole).
    pub line: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

/// The file text of `a` (coordinate, real, general), with `comment` lines after the header
/// (each prefixed by `%`).
pub fn write_mtx(a: &SparseMat, comment: &str) -> String {
    let mut entries = Vec::new();
    for j in 0..a.ncols() {
        for (i, v) in col_iter(a, j) {
            if v != 0.0 {
                entries.push((i, j, v));
            }
        }
    }
    let mut s = String::with_capacity(64 + 48 * entries.len());
    s.push_str("%%MatrixMarket matrix coordinate real general\n");
    for l in comment.lines() {
        s.push_str("% ");
        s.push_str(l);
        s.push('\n');
    }
    s.push_str(&format!("{} {} {}\n", a.nrows(), a.ncols(), entries.len()));
    for (i, j, v) in entries {
        s.push_str(&format!("{} {} {:.17e}\n", i + 1, j + 1, v));
    }
    s
}

/// Parses a coordinate Matrix Market file (`real` or `integer`; `general`, `symmetric` or
/// `skew-symmetric`, the latter two expanded). Duplicate entries are summed.
pub fn read_mtx(text: &str) -> Result<SparseMat, MtxError> {
    let err = |line: usize, message: String| MtxError { line, message };
    let mut lines = text.lines().enumerate();
    let (_, header) = lines
        .next()
        .ok_or_else(|| err(0, "empty file: expected a %%MatrixMarket header".into()))?;
    let h: Vec<String> = header
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    if h.len() != 5 || h[0] != "%%matrixmarket" || h[1] != "matrix" || h[2] != "coordinate" {
        return Err(err(
            1,
            format!(
                "header '{header}': expected '%%MatrixMarket matrix coordinate <field> <symmetry>'"
            ),
        ));
    }
    if h[3] != "real" && h[3] != "integer" {
        return Err(err(
            1,
            format!("field '{}': only real and integer are supported", h[3]),
        ));
    }
    let sign = match h[4].as_str() {
        "general" => 0.0,
        "symmetric" => 1.0,
        "skew-symmetric" => -1.0,
        other => {
            return Err(err(
                1,
                format!("symmetry '{other}': expected general, symmetric or skew-symmetric"),
            ))
        }
    };
    let mut size: Option<(usize, usize, usize)> = None;
    let mut t: Option<Triplets> = None;
    let mut count = 0;
    for (k, l) in lines {
        let ln = k + 1;
        let l = l.trim();
        if l.is_empty() || l.starts_with('%') {
            continue;
        }
        let w: Vec<&str> = l.split_whitespace().collect();
        match size {
            None => {
                let p = |s: &str| {
                    s.parse::<usize>()
                        .map_err(|e| err(ln, format!("size '{s}': {e}")))
                };
                if w.len() != 3 {
                    return Err(err(
                        ln,
                        format!("size line '{l}': expected 'rows cols entries'"),
                    ));
                }
                let (r, c, n) = (p(w[0])?, p(w[1])?, p(w[2])?);
                size = Some((r, c, n));
                t = Some(Triplets::new(r, c));
            }
            Some((r, c, n)) => {
                if w.len() != 3 {
                    return Err(err(ln, format!("entry '{l}': expected 'row col value'")));
                }
                let i: usize = w[0]
                    .parse()
                    .map_err(|e| err(ln, format!("row '{}': {e}", w[0])))?;
                let j: usize = w[1]
                    .parse()
                    .map_err(|e| err(ln, format!("column '{}': {e}", w[1])))?;
                let v: f64 = w[2]
                    .parse()
                    .map_err(|e| err(ln, format!("value '{}': {e}", w[2])))?;
                if i == 0 || j == 0 || i > r || j > c {
                    return Err(err(
                        ln,
                        format!("index ({i}, {j}) outside 1..={r} x 1..={c}"),
                    ));
                }
                count += 1;
                if count > n {
                    return Err(err(ln, format!("more than the {n} entries announced")));
                }
                let tr = t.as_mut().expect("set with the size line");
                tr.push(i - 1, j - 1, v);
                if sign != 0.0 && i != j {
                    tr.push(j - 1, i - 1, sign * v);
                }
            }
        }
    }
    let (_, _, n) = size.ok_or_else(|| err(0, "no size line".into()))?;
    if count != n {
        return Err(err(0, format!("{count} entries found, {n} announced")));
    }
    Ok(t.expect("set with the size line").build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_is_exact_and_errors_name_the_line() {
        let mut t = Triplets::new(3, 2);
        t.push(0, 0, 1.0 / 3.0);
        t.push(2, 1, -std::f64::consts::PI * 1e-300);
        t.push(1, 0, 6.02214076e23);
        let a = t.build();
        let s = write_mtx(&a, "test\nsecond line");
        assert!(s.starts_with("%%MatrixMarket matrix coordinate real general\n% test\n"));
        let b = read_mtx(&s).unwrap();
        assert_eq!(b.nrows(), 3);
        assert_eq!(b.ncols(), 2);
        for j in 0..2 {
            let x: Vec<_> = col_iter(&a, j).collect();
            let y: Vec<_> = col_iter(&b, j).collect();
            assert_eq!(x, y);
        }
        let sym = "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3.5\n";
        let c = read_mtx(sym).unwrap();
        let d = phlex_core::sparse::to_dense(&c);
        assert_eq!(d[(0, 1)], -3.5);
        assert_eq!(d[(1, 0)], 3.5);
        let e = read_mtx("%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n")
            .unwrap_err();
        assert_eq!(e.line, 3);
    }
}
