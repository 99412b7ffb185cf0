//! # phlex-ephs: exergetic port-Hamiltonian systems (seed 001)
//!
//! The compositional modelling language of Lohmayer, Capobianco & Leyendecker,
//! "Exergetic Port-Hamiltonian Systems for Multibody Dynamics" (seed 001; corrections in
//! `shared/reference/001_ephs_summary.md`), and its semantics as differential-algebraic
//! equations integrated by `phlex-solve`.
//!
//! | module | what |
//! |---|---|
//! | [`language`] | syntax: quantities, interfaces, patterns, the four primitive kinds, composite systems, flattening (§2) |
//! | [`semantics`] | open systems, junction rules, composition, the assembled DAE ([`semantics::EphsDae`], a [`phlex_solve::ImplicitDae`]) |
//! | [`geometry`] | $SO(3)$, $SE(3)$: product, inverse, hat/vee, exp/log, Ad, Ad*, ad, ad*, tangent maps (§3) |
//! | [`library`] | components and patterns: oscillators (Figs. 5–7) |
//! | [`model_file`] | the TOML model format (components, patterns, composition, initial state, simulation) |
//! | [`numerics`] | the energy-consistent Lie-group midpoint integrator |
//! | [`error`] | typed errors naming ports, junctions and boxes |
#![allow(non_snake_case)]
#![warn(missing_docs)]

pub mod error;
pub mod geometry;
pub mod language;
pub mod library;
pub mod model_file;
pub mod numerics;
pub mod semantics;

pub use error::EphsError;
pub use language::{Composite, Interface, Pattern, PortKind, Primitive, Quantity, Space, System};
pub use semantics::{assemble, assemble_nested, EphsDae, OpenSystem};
