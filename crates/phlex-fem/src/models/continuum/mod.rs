//! Continuum models by PFEM (thesis 004 Ch. 2, 3, 5, 8).
//!
//! * [`dimension`]: the 2D/3D spaces and forms ([`dimension::ContinuumSpace`]) over which
//!   [`elasticity`] and [`thermoelasticity`] are built once;
//! * [`elasticity`]: 2D (plane strain/stress) and 3D linear elasticity, CG velocity × DG
//!   stress;
//! * [`thermoelasticity`]: coupled linear thermoelasticity, plane strain, plane stress and
//!   3D, with traction and heat-flux ports;
//! * [`heat`]: the 1D heat equation as a pHDAE (flux or temperature ports);
//! * [`thermoelastic_1d`]: coupled thermoelasticity of a rod (Danilovskaya);
//! * [`wave`]: acoustics / wave equation in both causalities, planar or axisymmetric;
//! * [`wave_decomposition`]: axisymmetric duct with mixed boundary conditions, DAE
//!   (multiplier) and ODE (domain decomposition + gyrator) methods;
//! * [`shallow_water`]: irrotational shallow water (nonlinear, discrete-gradient step).
pub mod dimension;
pub mod elasticity;
pub mod heat;
pub mod shallow_water;
pub mod thermoelastic_1d;
pub mod thermoelasticity;
pub mod wave;
pub mod wave_decomposition;

mod supports;

pub use supports::{Boundaries, HeatSupports, Supports};
