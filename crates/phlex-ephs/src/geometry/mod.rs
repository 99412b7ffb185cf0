//! Geometry of seed 001 §3: small fixed-size linear algebra, $SO(3)$ and $SE(3)$.
pub mod linalg3;
pub mod se3;
pub mod so3;

pub use se3::Se3;
