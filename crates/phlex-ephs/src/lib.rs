//! # phlex-ephs: exergetic port-Hamiltonian systems (seed 001)
//!
//! The compositional modelling language of Lohmayer, Capobianco & Leyendecker,
//! "Exergetic Port-Hamiltonian Systems for Multibody Dynamics" (seed 001; corrections in
//! `shared/reference/001_ephs_summary.md`), its semantics as differential-algebraic
//! equations integrated by `phlex-solve`, and the rigid multibody library on $SE(3)$.
//!
//! | module | what |
//! |---|---|
//! | [`language`] | syntax: quantities, interfaces, patterns, the four primitive kinds, composite systems, flattening (§2); SVG pictures of patterns |
//! | [`semantics`] | open systems, junction rules, composition ([`assemble`] flattens first, [`assemble_nested`] composes level by level), the assembled DAE ([`EphsDae`], a [`phlex_solve::ImplicitDae`]), consistent initialisation |
//! | [`library`] | oscillators (Figs. 5–7), rigid body (Fig. 2), joint with the six lower pairs (Fig. 3), ground, multibody builder (Fig. 1); [`library::kinematics`]: bodies and joints of an assembled model, spatial momentum, position-constraint drift, projection |
//! | [`numerics`] | the energy-consistent Lie-group discrete-gradient midpoint integrator, with optional energy-conserving drift projection |
//! | [`model_file`] | the TOML model format (components, patterns, composition, initial state, inputs, simulation) and the recorded diagnostics ([`Trajectory`]: energies, entropy, exergy destruction per irreversible component, port powers, spatial momentum, joint drift) |
//! | [`error`] | typed errors naming ports, junctions and boxes |
//!
//! The geometry of seed 001 §3 ($SO(3)$, $SE(3)$: product, inverse, hat/vee, exp/log, Cayley,
//! Ad, Ad*, ad, ad*, $T_eL_q$, $T^*_eL_q$, dexp and its inverse) and the inertia-tensor rule
//! live in [`phlex_core::geometry`], shared with `phlex-mbs` and `phlex-control`.
//!
//! # Conventions
//! Port variables on Lie groups are left-trivialized (flows are body velocities, efforts
//! body forces; see [`language::space`]). A component's flow is what flows *into* it.
//! The environment has effort 0 (exergy) and energy $\theta_0 s$.
#![allow(non_snake_case)]
#![warn(missing_docs)]
// `!(x > 0.0)` deliberately rejects NaN; index loops mirror the formulas.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]

pub mod error;
pub mod language;
pub mod library;
pub mod model_file;
pub mod numerics;
pub mod semantics;

pub use error::EphsError;
pub use language::{
    pattern_svg, Composite, Interface, Pattern, PortKind, Primitive, Quantity, Space, System,
};
pub use model_file::{Model, ModelError, Trajectory};
pub use numerics::{LieMidpoint, LieMidpointParams, Stabilization};
pub use semantics::{assemble, assemble_nested, EphsDae, OpenSystem};
