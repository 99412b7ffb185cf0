//! Analyses of an assembled planar multibody system: linearisation and constrained modes
//! (paper 000 §5.3, §6.2, eqs. (49), (51)) and modal / Krylov reduction of the elastic
//! variables (eq. (50)).
pub mod linearize;
pub mod reduce;
