//! Component and pattern library: scalar mechanics and thermodynamics (seed 001 §2),
//! the oscillators of Figs. 5–7.
pub mod mechanics;
pub mod oscillator;
