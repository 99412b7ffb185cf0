//! The recorded samples of a run: named columns at common times, written as CSV.
use anyhow::{Context, Result};

/// A table of named columns sampled at common times.
#[derive(Debug, Clone, Default)]
pub struct TimeSeries {
    /// Column names (the first is `t`).
    pub names: Vec<String>,
    /// Rows of values, one per sample.
    pub rows: Vec<Vec<f64>>,
}

impl TimeSeries {
    /// A table with the given column names (time first).
    pub fn new(names: Vec<String>) -> Self {
        Self {
            names,
            rows: Vec::new(),
        }
    }
    /// The table of the column names `names` whose row `k` is the `k`-th value of each
    /// of `columns` (the first are the times) followed by `rest(k)`.
    pub fn from_columns(
        names: Vec<String>,
        columns: &[&[f64]],
        rest: impl Fn(usize) -> Vec<f64>,
    ) -> Self {
        let rows = (0..columns[0].len())
            .map(|k| {
                let mut row: Vec<f64> = columns.iter().map(|c| c[k]).collect();
                row.extend(rest(k));
                row
            })
            .collect();
        Self { names, rows }
    }

    /// Column `k` as a vector.
    pub fn column(&self, k: usize) -> Vec<f64> {
        self.rows.iter().map(|r| r[k]).collect()
    }
    /// CSV text (header + rows, full precision).
    pub fn to_csv(&self) -> Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&self.names)?;
        for r in &self.rows {
            w.write_record(r.iter().map(|v| format!("{v:.17e}")))?;
        }
        w.into_inner().context("csv buffer")
    }
}
