//! Floating flexible beams discretised by PFEM (paper 000 §4.3): the planar beam (axial and
//! one bending plane) and the spatial beam (axial, torsion, two bending planes).
pub mod planar;
pub mod spatial;
