//! Assembly of the PFEM matrices from the spaces (thesis 004 §3.1, §6.1.4; summary
//! §3.1–3.2): mass, coupling, load and point matrices.
//!
//! | module | forms |
//! |---|---|
//! | [`line`](mod@self::line) | 1D weighted mass, derivative couplings, loads, point rows (eqs. (6.68), (6.73)) |
//! | [`triangle`] | 2D generic bilinear forms of values and first derivatives, mass, grad, sym-grad, loads; parallel over fixed cell chunks |
//! | [`tet`] | 3D generic bilinear forms |
//! | [`hessian`] | Hessian pairings of the Kirchhoff plates: HHJ × $CG_k$ and $C^1$ × $DG_k$ (eqs. (7.17), (7.23)) |
mod forms;
pub mod hessian;
pub mod line;
pub mod tet;
pub mod triangle;
