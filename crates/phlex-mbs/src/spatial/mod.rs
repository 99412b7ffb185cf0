//! Spatial (3D) multibody systems in port-Hamiltonian form (paper 000 §5 in 3D).
//!
//! | module | what | paper 000 |
//! |---|---|---|
//! | [`body`] | [`SpatialBody`]: the contract of a floating body in 3D | Remark 4, eqs. (36)–(41) |
pub mod body;

pub use body::{
    rotation_from_state, SpatialBody, SpatialBodySpec, SpatialPort, IDENTITY3, R_V_OFFSET,
};
