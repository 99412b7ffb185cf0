//! Semantics: open systems, their composition along patterns, and the assembled DAE
//! (seed 001 §2 junction rules; summary §1.4).
pub mod compose;
pub mod dae;
pub mod primitive;
pub mod program;

pub use compose::{assemble, assemble_nested, compose};
pub use dae::EphsDae;
pub use program::{Causality, OpenSystem, SlotId, Workspace};
