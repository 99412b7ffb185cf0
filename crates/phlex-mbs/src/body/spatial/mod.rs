//! The spatial floating body and its parts: the body core in 3D (paper 000 eqs. (12)–(15),
//! (34)–(41)), the deformation-dependent inertia of the spatial beam and its geometric
//! stiffening in both bending planes.
pub mod floating_body;
pub mod full_inertia;
pub mod stiffening;
