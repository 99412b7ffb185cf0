//! The EPHS kind: exergetic port-Hamiltonian model files (`[components.*]`,
//! `[patterns.*]`, format in `docs/model-format-ephs.md`, parsed by
//! `phlex_ephs::model_file`): the run and `phlex ephs draw`
//! ([`run`]) and the registry entry ([`EPHS`]).
mod kind;
pub mod run;

pub use kind::EPHS;
pub use run::draw;
