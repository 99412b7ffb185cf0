//! Component and pattern library: scalar mechanics and thermodynamics (seed 001 §2),
//! the oscillators of Figs. 5–7, the rigid body of Fig. 2.
pub mod mechanics;
pub mod oscillator;
pub mod rigid_body;
