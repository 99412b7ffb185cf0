//! Floating flexible beams discretised by PFEM (paper 000 §4.3): the planar beam (axial and
//! one bending plane) and the spatial beam (axial, torsion, two bending planes), on the
//! shared spaces, derivative blocks, ports and mass points of the private `spaces` module.
pub mod planar;
pub(crate) mod spaces;
pub mod spatial;
