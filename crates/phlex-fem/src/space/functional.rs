//! Sparse vectors: linear functionals $c$ on coefficient or state vectors ($c \cdot e$).
//!
//! Point evaluations ("probes"), boundary traces and load vectors are all sparse vectors;
//! they convert to $1 \times n$ rows or $n \times 1$ columns of [`SparseMat`].
use phlex_core::{SparseMat, Triplets};

/// A sparse vector of length `len` with entries `(index, value)` (duplicates are summed
/// when used).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SparseVec {
    /// Length of the dense vector it represents.
    pub len: usize,
    /// Nonzero entries.
    pub entries: Vec<(usize, f64)>,
}

impl SparseVec {
    /// The zero vector of length `len`.
    pub fn zeros(len: usize) -> Self {
        Self {
            len,
            entries: Vec::new(),
        }
    }

    /// $c \cdot e$.
    ///
    /// # Panics
    /// If `e.len() != self.len`.
    #[track_caller]
    pub fn dot(&self, e: &[f64]) -> f64 {
        assert_eq!(e.len(), self.len, "SparseVec::dot length");
        self.entries.iter().map(|&(i, v)| v * e[i]).sum()
    }

    /// Dense copy.
    pub fn to_dense(&self) -> Vec<f64> {
        let mut d = vec![0.0; self.len];
        for &(i, v) in &self.entries {
            d[i] += v;
        }
        d
    }

    /// As a `1 × len` sparse matrix (an output row).
    pub fn to_row(&self) -> SparseMat {
        let mut t = Triplets::new(1, self.len);
        for &(i, v) in &self.entries {
            t.push(0, i, v);
        }
        t.build()
    }

    /// As a `len × 1` sparse matrix (an input column).
    pub fn to_col(&self) -> SparseMat {
        let mut t = Triplets::new(self.len, 1);
        for &(i, v) in &self.entries {
            t.push(i, 0, v);
        }
        t.build()
    }

    /// `scale · self`.
    pub fn scaled(&self, scale: f64) -> Self {
        Self {
            len: self.len,
            entries: self.entries.iter().map(|&(i, v)| (i, scale * v)).collect(),
        }
    }

    /// Entries with duplicates summed and exact zeros removed, sorted by index.
    pub fn compressed(&self) -> Self {
        let mut e = self.entries.clone();
        e.sort_by_key(|p| p.0);
        let mut out: Vec<(usize, f64)> = Vec::with_capacity(e.len());
        for (i, v) in e {
            match out.last_mut() {
                Some(last) if last.0 == i => last.1 += v,
                _ => out.push((i, v)),
            }
        }
        out.retain(|p| p.1 != 0.0);
        Self {
            len: self.len,
            entries: out,
        }
    }

    /// Re-indexes into a longer vector: entry `i` goes to `offset + map[i]`; entries with
    /// `map[i] = None` (removed DOFs) are dropped.
    pub fn embed(&self, map: &[Option<usize>], offset: usize, len: usize) -> Self {
        Self {
            len,
            entries: self
                .entries
                .iter()
                .filter_map(|&(i, v)| map[i].map(|k| (offset + k, v)))
                .collect(),
        }
    }
}
