//! Reduction of the flexible part of a linearised multibody system (paper 000 §5.3,
//! eq. (50)): the elastic co-energy variables $p_f = (v_f, \sigma)$ of each flexible body
//! are projected, $p_f \approx V_f\,p_f^{red}$, the rigid velocities $p_r$ and the
//! multipliers $\lambda$ are kept, and the second row is premultiplied by $V_f^\top$:
//! $$\begin{bmatrix}M_{rr} & M_{rf}V_f & 0\\ V_f^\top M_{fr} & V_f^\top M_{ff}V_f & 0\\ 0&0&0\end{bmatrix}
//!   \dot x_r = \begin{bmatrix}0 & 0 & G_r^\top\\ 0 & V_f^\top J_{ff}V_f & V_f^\top G_f^\top\\
//!   -G_r & -G_fV_f & 0\end{bmatrix}x_r + \begin{bmatrix}B_r\\ V_f^\top B_f\\ 0\end{bmatrix}u .$$
//! One basis per body (block-diagonal $V_f$, i.e. substructuring), built by
//! [`phlex_solve::reduce`]: fixed-interface modes of the body's elastic pencil
//! ([`ReductionMethod::Modal`]) or the block Krylov space of its elastic part driven by its
//! inputs and its coupling to the rigid motion and the joints ([`ReductionMethod::Krylov`],
//! moment matching of the whole system's transfer function about $s_0$).
use phlex_solve::reduce::{reduce, ReducedSystem, ReductionGroup, ReductionMethod};

use crate::analysis::linearize::PhLinearization;
use crate::error::MbsError;

/// The reduction groups of a linearisation: one per flexible body, named
/// `"<body>.flexible"`, all with `method`.
pub fn flexible_groups(lin: &PhLinearization, method: ReductionMethod) -> Vec<ReductionGroup> {
    lin.flexible
        .iter()
        .map(|(name, vars)| ReductionGroup {
            name: format!("{name}.flexible"),
            variables: vars.clone(),
            method,
        })
        .collect()
}

/// Reduces the elastic variables of every flexible body of `lin` with `method` (rigid
/// velocities and multipliers kept); the result is again a pHDAE with the same ports.
pub fn reduce_flexible(
    lin: &PhLinearization,
    method: ReductionMethod,
) -> Result<ReducedSystem, MbsError> {
    Ok(reduce(&lin.system, &flexible_groups(lin, method))?)
}
