//! Spatial (3D) multibody model files: the planar format of [`crate::kinds::mbs`] with 3D
//! bodies (`kind = "rigid3d"` or `"beam3d"`), 3D joints and loads; format documented in
//! `docs/model-format-mbs.md` ("Spatial (3D) models"). Parsing, building with
//! [`phlex_mbs::spatial::MultibodyBuilder3d`] (the index-2 pHDAE (46) of paper 000 in 3D),
//! consistent initial conditions (§6.3) and `phlex run` / `phlex check` with the outputs of
//! the planar format (`timeseries.csv`, `summary.json` with the planar
//! [`MbsSummary`](crate::kinds::mbs::simulate::MbsSummary), SVG plots).
//!
//! A file is spatial when one of its bodies has a 3D kind; every body of a spatial file
//! must then be 3D (a planar body is reported with its line).
pub mod format;
mod kind;
pub mod model;
pub mod simulate;

pub use format::*;
pub use kind::{is_spatial, Spatial};
pub use model::{BuiltMbs3d, Mbs3dModel};
pub use simulate::simulate;
