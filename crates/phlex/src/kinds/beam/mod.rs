//! The beam kind: `[beam]` model files (Euler–Bernoulli, Timoshenko, bar; documented in
//! `docs/model-format.md`): the file ([`file`](mod@file)), the build with `phlex-fem` ([`build`]),
//! closed-form functions of `x` ([`spatial`]), the time integration ([`simulate`]) and the
//! registry entry ([`BEAM`]).
pub mod build;
pub mod file;
mod kind;
pub mod simulate;
pub mod spatial;

pub use build::Built;
pub use file::ModelFile;
pub use kind::{load, LoadedBeam, BEAM};
