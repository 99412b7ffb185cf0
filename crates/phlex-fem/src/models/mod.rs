//! The PFEM models: port-Hamiltonian structures discretized into
//! [`phlex_core::LinearPhSystem`]s with named ports and field-by-field variable blocks
//! (thesis 004 Ch. 6–8; summary §3).
//!
//! * [`beam`]: one-dimensional structural members (Euler–Bernoulli, Timoshenko, bar,
//!   domain decomposition, thermoelastic beam);
//! * [`plate`]: Mindlin, Kirchhoff, laminated and thermoelastic plates;
//! * [`continuum`]: fields on 1D, 2D and 3D domains (elasticity, thermoelasticity, heat,
//!   rod thermoelasticity, acoustics, vibroacoustic duct, shallow water);
//! * [`model`]: the common result of the 1D models ([`model::PfemModel`]: system, spaces,
//!   probes, projections, error norms) and the block assembler shared by all models;
//! * [`boundary`]: end conditions of the 1D models and their imposition.
pub mod beam;
pub mod boundary;
pub mod continuum;
pub mod model;
pub mod plate;

mod restriction;
pub(crate) mod thermal_layer;
