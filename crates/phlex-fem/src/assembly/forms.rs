//! Checks and quadrature degree shared by the generic bilinear forms of values and first
//! derivatives on triangles ([`super::triangle::bilinear`]) and tetrahedra
//! ([`super::tet::bilinear3d`]).
//!
//! Degree: for bases of degree $k_t$ (test) and $k_r$ (trial), the integrand $\mathcal O_t(\phi)\,\mathcal
//! O_r(\psi)$ of a term has degree $d(\mathcal O_t, k_t) + d(\mathcal O_r, k_r)$ with
//! $d(\mathrm{value}, k) = k$ and $d(\partial, k) = k - 1$ (affine cells); the rule must be
//! exact for the largest term degree.

use crate::error::{Fem2dError, FemError};

/// Checks that the test and trial spaces live on the same mesh; the error names both
/// spaces (`describe` gives their descriptions).
pub(crate) fn require_same_mesh<M: PartialEq>(
    test: &M,
    trial: &M,
    describe: impl FnOnce() -> (String, String),
) -> Result<(), Fem2dError> {
    if test != trial {
        let (a, b) = describe();
        return Err(FemError::MeshMismatch { a, b }.into());
    }
    Ok(())
}

/// Degree of the integrand of the terms: `ops` gives, per term, whether the test and the
/// trial operator are plain values (else a first derivative); 0 without terms.
pub(crate) fn bilinear_degree(
    k_test: usize,
    k_trial: usize,
    ops: impl Iterator<Item = (bool, bool)>,
) -> usize {
    let d = |k: usize, value: bool| if value { k } else { k.saturating_sub(1) };
    ops.map(|(t, r)| d(k_test, t) + d(k_trial, r))
        .max()
        .unwrap_or(0)
}
