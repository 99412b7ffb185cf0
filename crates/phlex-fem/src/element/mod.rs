//! Finite element families by reference cell (thesis 004 §3.3, Ch. 7; summary §3.3).
//!
//! Organised by cell shape, one module per family:
//!
//! | module | family |
//! |---|---|
//! | [`line`](mod@self::line) | Lagrange $CG_k$/$DG_k$ and cubic Hermite on $[0, 1]$ (beams, rods) |
//! | [`triangle::lagrange`] | Lagrange $P_k$ on the reference triangle ($CG_k$, $DG_k$) |
//! | [`triangle::rt`] | lowest-order Raviart–Thomas $RT_1$ |
//! | [`triangle::bdm`] | $BDM_k$ and $RT_k$, contravariant Piola map |
//! | [`triangle::hhj`] | Hellan–Herrmann–Johnson normal–normal continuous symmetric tensors |
//! | [`triangle::bell`] | Bell $C^1$ triangle (physical-space vertex DOFs) |
//! | [`triangle::argyris`] | Argyris $P_5$ $C^1$ triangle |
//! | [`quad`] | tensor products of 1D Lagrange bases on $[0, 1]^2$ ($Q_k$, $DQ_k$, RTCF) |
//! | [`tet`] | Lagrange $P_0$–$P_2$ on the reference tetrahedron |
//!
//! The layering is mesh → quadrature → element → space → assembly. A Lagrange element
//! (line, triangle, quad, tet) is a reference basis only; its global spaces (scalar,
//! vector, tensor valued, CG or DG) are in [`crate::space`]. The families whose DOFs are
//! not point values — $RT$, $BDM$, HHJ, Bell, Argyris — carry their global DOF map in the
//! same module ([`triangle::rt::RtSpace`], [`triangle::bdm::HdivSpace`],
//! [`triangle::hhj::HhjSpace`], [`triangle::bell::C1Space`]): edge orientations, Piola
//! signs and physical-space vertex derivatives are part of the element's definition and
//! are not shared with the Lagrange spaces. Pairings between such a space and a Lagrange
//! space are in [`crate::assembly::hessian`].
pub mod line;
pub mod quad;
pub mod tet;
pub mod triangle;

mod dual;

pub use line::{Family, ReferenceElement};
pub use quad::TensorSpace;
pub use tet::LagrangeTet;
pub use triangle::LagrangeP;
