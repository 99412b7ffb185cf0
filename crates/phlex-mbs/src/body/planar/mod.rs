//! The planar floating body and its parts: the body core (rigid or flexible, paper 000
//! eqs. (36)–(41)), the deformation-dependent inertia, geometric stiffening, planar poses,
//! and the closed set of body descriptions the planar builder accepts.
pub mod description;
pub mod floating_body;
pub mod full_inertia;
pub mod pose;
pub mod stiffening;
