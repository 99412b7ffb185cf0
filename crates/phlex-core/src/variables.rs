//! Named blocks of state variables (field-by-field ordering, as PFEM produces them).
//!
//! A pH system's state vector is kept ordered field by field (e.g. `e_w`, `e_kappa`,
//! `lambda`), so that the block structure of $E$, $J$, $R$ and $B$ can be inspected and
//! checked by name.

/// Whether a block of variables is differential or algebraic, and its DAE index.
///
/// Algebraic variables have zero rows/columns in the descriptor matrix $E$. Lagrange
/// multipliers of velocity-level constraints are index-2 variables (thesis 004 App. A.5);
/// the adaptive Radau IIA integrator scales their error accordingly (Hairer–Wanner VII.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarKind {
    /// A differential (energy-carrying) variable.
    Differential,
    /// An algebraic variable of the given DAE index (1, 2 or 3).
    Algebraic {
        /// Differentiation index of this variable.
        index: u8,
    },
}

/// A contiguous, named block of state variables.
#[derive(Debug, Clone, PartialEq)]
pub struct VarBlock {
    /// Name of the field, e.g. `"e_w"` (velocity) or `"lambda_left"`.
    pub name: String,
    /// Physical meaning, e.g. `"vertical velocity [m/s]"`.
    pub meaning: String,
    /// Number of variables in the block.
    pub len: usize,
    /// Differential or algebraic.
    pub kind: VarKind,
}

impl VarBlock {
    /// A differential block.
    pub fn differential(name: impl Into<String>, meaning: impl Into<String>, len: usize) -> Self {
        Self {
            name: name.into(),
            meaning: meaning.into(),
            len,
            kind: VarKind::Differential,
        }
    }
    /// An algebraic block (Lagrange multipliers of velocity constraints have index 2).
    pub fn algebraic(
        name: impl Into<String>,
        meaning: impl Into<String>,
        len: usize,
        index: u8,
    ) -> Self {
        Self {
            name: name.into(),
            meaning: meaning.into(),
            len,
            kind: VarKind::Algebraic { index },
        }
    }
}

/// Offsets of the blocks in the state vector, `offsets[i]..offsets[i+1]` is block `i`.
pub fn block_offsets(blocks: &[VarBlock]) -> Vec<usize> {
    let mut off = Vec::with_capacity(blocks.len() + 1);
    let mut s = 0;
    off.push(0);
    for b in blocks {
        s += b.len;
        off.push(s);
    }
    off
}

/// Name of the block containing variable `i`.
pub fn block_of(blocks: &[VarBlock], i: usize) -> &str {
    let mut s = 0;
    for b in blocks {
        if i < s + b.len {
            return &b.name;
        }
        s += b.len;
    }
    "<out of range>"
}

/// Per-variable DAE index (0 for differential variables).
pub fn variable_indices(blocks: &[VarBlock]) -> Vec<u8> {
    let mut v = Vec::new();
    for b in blocks {
        let k = match b.kind {
            VarKind::Differential => 0,
            VarKind::Algebraic { index } => index,
        };
        v.extend(std::iter::repeat_n(k, b.len));
    }
    v
}
