//! Meshes: the cells and boundary tags the spaces are built on (thesis 004 §6.1 item 1,
//! §7.1).
//!
//! | module | cells | boundary |
//! |---|---|---|
//! | [`interval`] | intervals $0 = x_0 < \dots < x_n = L$ | the two [`End`]s |
//! | [`triangle`] | counter-clockwise triangles with edge connectivity, structured rectangles, affine cell maps ([`CellGeometry`]) | tagged edges |
//! | [`disk`] | triangles of a disk by concentric rings (the circular tank) | one tag |
//! | [`quad`] | conforming quadrilaterals (rectangles, disk O-grids) | tagged edges |
//! | [`tet`] | positively oriented tetrahedra, box meshes, affine cell maps ([`TetGeometry`]) | tagged faces |
//!
//! The triangle, quadrilateral and tetrahedral meshes share their boundary tags
//! (`tags::BoundaryTags`) and the construction and edge-geometry pieces of `cells` (global
//! edge numbering, index and degeneracy checks).
//!
//! Meshes depend only on [`crate::error`]; Gmsh files are read into these types by
//! [`crate::io::gmsh`].
mod cells;
pub mod disk;
pub mod interval;
pub mod quad;
mod tags;
pub mod tet;
pub mod triangle;

pub use interval::{End, Mesh1d, MeshSpec};
pub use quad::QuadMesh;
pub use tet::{Mesh3d, TetGeometry};
pub use triangle::{BoundaryEdge, CellGeometry, Diagonal, Mesh2d, TagPartition};
