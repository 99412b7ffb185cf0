//! Numerics specific to EPHS models: the energy-consistent Lie-group midpoint rule.
pub mod lie_midpoint;

pub use lie_midpoint::{LieMidpoint, LieMidpointParams, LieMidpointResult, Stabilization};
