//! The controlled-beam kind: a `[beam]` model file with a `[control]` table (LQG feedback
//! through the ports, documented in `docs/control.md`): the closed-loop run ([`run`]) and
//! the registry entry ([`BeamControl`]).
mod kind;
pub mod run;

pub use kind::BeamControl;
