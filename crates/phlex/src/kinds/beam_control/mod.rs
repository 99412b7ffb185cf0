//! The controlled-beam kind: a `[beam]` model file with a `[control]` table (LQG feedback
//! through the ports, documented in `docs/control.md`): the closed-loop run ([`run`]) and
//! the registry entry ([`BEAM_CONTROL`]).
mod kind;
pub mod run;

pub use kind::BEAM_CONTROL;
