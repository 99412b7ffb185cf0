//! Global finite element spaces: DOF maps, interpolation, evaluation and boundary DOFs on a
//! mesh (thesis 004 §7.1; summary §6.2 "DOF ordering").
//!
//! | module | spaces |
//! |---|---|
//! | [`line`](mod@self::line) | 1D $CG_k$, $DG_k$, Hermite on an interval mesh |
//! | [`lagrange`] | the Lagrange space and its cell-DOF numbering, generic over the cell |
//! | [`triangle`] | 2D $CG_k$/$DG_k$, scalar, vector and symmetric-tensor valued |
//! | [`quad`] | $Q_k$, $DQ_k$, DG $P_k$ on quadrilateral meshes |
//! | [`tet`] | 3D $CG_k$/$DG_k$, scalar, vector and symmetric-tensor valued |
//! | [`functional`] | sparse linear functionals on coefficient vectors (probes, traces, loads) |
//!
//! The spaces of the non-Lagrange triangle families live with their elements in
//! [`crate::element::triangle`].
pub mod functional;
pub mod lagrange;
pub mod line;
pub mod quad;
pub mod tet;
pub mod triangle;

pub use functional::SparseVec;
pub use lagrange::{LagrangeCell, LagrangeSpace};
pub use line::Space1d;
pub use quad::{QuadFamily, QuadSpace};
pub use tet::{Family3d, Shape3d, Space3d, Tetrahedron};
pub use triangle::{Family2d, Shape, Space2d, Triangle};
