//! Strong (restricted-basis) imposition of essential boundary conditions, shared by the 2D
//! and 3D models (thesis 004 §6.2.1: "the essential condition is imposed by eliminating the
//! boundary DOFs").
//!
//! The *open* state of a model is the concatenation of its field blocks (block $b$ occupies
//! `offsets[b]..offsets[b + 1]`). Strong conditions remove DOFs; the state keeps the others
//! in increasing open index, $e = P^\top e_{\text{open}}$ with the selection matrix $P$, so
//! $E = P^\top E_{\text{open}}P$, $J = P^\top J_{\text{open}}P$, $B = P^\top B_{\text{open}}$
//! (structure preserved). Multipliers of other conditions, if any, follow the kept DOFs in
//! the state.
use crate::error::{require_len, Fem2dError, FemError};
use crate::space::triangle::complement;
use phlex_core::sparse::{self, SparseMat};
use std::ops::Range;

/// The open DOFs `0..n` without `removed` (any order, repeats allowed), increasing, and
/// $P^\top A P$ of each matrix $A$ of `mats` (module docs).
pub(crate) fn restrict_square<const M: usize>(
    n: usize,
    mut removed: Vec<usize>,
    mats: [&SparseMat; M],
) -> (Vec<usize>, [SparseMat; M]) {
    removed.sort_unstable();
    removed.dedup();
    let kept = complement(n, &removed);
    let restricted = mats.map(|a| sparse::restrict(a, &kept, &kept));
    (kept, restricted)
}

/// The kept DOFs of an open state with named field blocks.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Restriction {
    offsets: Vec<usize>,
    kept: Vec<usize>,
}

impl Restriction {
    /// Blocks of the given sizes, the open DOFs `removed` (any order, repeats allowed)
    /// eliminated.
    pub fn new(sizes: &[usize], mut removed: Vec<usize>) -> Self {
        let mut offsets = vec![0];
        for s in sizes {
            offsets.push(offsets[offsets.len() - 1] + s);
        }
        removed.sort_unstable();
        removed.dedup();
        let kept = complement(offsets[sizes.len()], &removed);
        Self { offsets, kept }
    }

    /// Open index of every kept DOF, increasing.
    pub fn kept(&self) -> &[usize] {
        &self.kept
    }

    /// Number of kept DOFs.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// Open-state range of block `b`.
    pub fn block(&self, b: usize) -> Range<usize> {
        self.offsets[b]..self.offsets[b + 1]
    }

    /// Number of kept DOFs of block `b`.
    pub fn kept_in(&self, b: usize) -> usize {
        let r = self.block(b);
        self.kept.iter().filter(|i| r.contains(i)).count()
    }

    /// $P^\top A P$.
    pub fn restrict(&self, A: &SparseMat) -> SparseMat {
        sparse::restrict(A, &self.kept, &self.kept)
    }

    /// $P^\top B$ (all columns kept).
    pub fn restrict_rows(&self, B: &SparseMat) -> SparseMat {
        let all: Vec<usize> = (0..B.ncols()).collect();
        sparse::restrict(B, &self.kept, &all)
    }

    /// Coefficients of block `b` on its full space (removed DOFs zero) from a state `e` of
    /// length `n_states` (the kept DOFs first); a wrong length is an error naming `what`.
    pub fn field(
        &self,
        e: &[f64],
        n_states: usize,
        b: usize,
        what: &str,
    ) -> Result<Vec<f64>, Fem2dError> {
        require_len(what, n_states, e.len())?;
        let r = self.block(b);
        let mut u = vec![0.0; r.len()];
        for (s, &i) in self.kept.iter().enumerate() {
            if r.contains(&i) {
                u[i - r.start] = e[s];
            }
        }
        Ok(u)
    }

    /// State of length `n_states` from the full coefficients of every block (`None`: zero),
    /// removed DOFs dropped and the entries after the kept DOFs (multipliers) zero. A block
    /// of the wrong length is an error naming it (`"{name} coefficients"`).
    pub fn state(
        &self,
        fields: &[(&str, Option<&[f64]>)],
        n_states: usize,
    ) -> Result<Vec<f64>, Fem2dError> {
        for (b, (name, c)) in fields.iter().enumerate() {
            let len = self.block(b).len();
            if let Some(c) = c {
                if c.len() != len {
                    return Err(FemError::Length {
                        what: format!("{name} coefficients"),
                        expected: len,
                        found: c.len(),
                    }
                    .into());
                }
            }
        }
        let blocks: Vec<Option<&[f64]>> = fields.iter().map(|f| f.1).collect();
        let mut e = self.gather(&blocks);
        e.resize(n_states, 0.0);
        Ok(e)
    }

    /// The kept entries of the open vector made of the blocks `fields` (`None`: zero).
    ///
    /// # Panics
    /// If a block is shorter than its range.
    #[track_caller]
    pub fn gather(&self, fields: &[Option<&[f64]>]) -> Vec<f64> {
        self.kept
            .iter()
            .map(|&i| {
                let b = self.offsets.partition_point(|&o| o <= i) - 1;
                fields[b].map_or(0.0, |c| c[i - self.offsets[b]])
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scatter and gather are inverse on the kept DOFs; lengths are checked.
    #[test]
    fn field_and_state_round_trip() {
        let r = Restriction::new(&[3, 2, 0, 2], vec![4, 0, 4]);
        assert_eq!(r.kept(), &[1, 2, 3, 5, 6]);
        assert_eq!((r.kept_in(0), r.kept_in(1), r.kept_in(2)), (2, 1, 0));
        let e = [1.0, 2.0, 3.0, 4.0, 5.0, 9.0];
        assert_eq!(r.field(&e, 6, 0, "s").unwrap(), vec![0.0, 1.0, 2.0]);
        assert_eq!(r.field(&e, 6, 1, "s").unwrap(), vec![3.0, 0.0]);
        assert_eq!(r.field(&e, 6, 3, "s").unwrap(), vec![4.0, 5.0]);
        assert!(r.field(&e, 5, 0, "s").is_err());
        let a = [7.0, 1.0, 2.0];
        let s = r
            .state(
                &[
                    ("a", Some(&a)),
                    ("b", None),
                    ("c", None),
                    ("d", Some(&[4.0, 5.0])),
                ],
                6,
            )
            .unwrap();
        assert_eq!(s, vec![1.0, 2.0, 0.0, 4.0, 5.0, 0.0]);
        assert!(r.state(&[("a", Some(&[1.0]))], 6).is_err());
    }
}
