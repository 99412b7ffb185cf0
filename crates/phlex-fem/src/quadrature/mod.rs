//! Quadrature rules on the reference cells and the one-dimensional polynomials they and
//! the elements are built from.
//!
//! | module | implements |
//! |---|---|
//! | [`polynomial`] | Legendre $P_n$ (with derivative), shifted Legendre $P_n(2s-1)$ on $[0, 1]$, equispaced 1D Lagrange bases |
//! | [`gauss_legendre`] | Gauss–Legendre rules on $[0, 1]$ (nodes: roots of $P_n$) |
//! | [`triangle`] | symmetric rules on the reference triangle (Dunavant 1985) |
//! | [`tet`] | collapsed Gauss–Legendre rules on the reference tetrahedron |
pub mod gauss_legendre;
pub mod polynomial;
pub mod tet;
pub mod triangle;

pub use gauss_legendre::GaussLegendre;
pub use tet::TetQuadrature;
pub use triangle::TriangleQuadrature;
