//! The bodies of a multibody model, each a floating body in port-Hamiltonian form (paper 000
//! §3–§4): the one body trait of both dimensions ([`FloatingBody`], with the dimension
//! constants of [`dimension`]), the planar and spatial cores ([`planar`], [`spatial`]) and
//! the bodies built on them, grouped by kind with a planar and a spatial member each
//! ([`rigid`], [`floating_beam`]), and lumped masses at ports ([`lumped`]).
pub mod dimension;
pub mod floating_beam;
pub mod floating_body;
pub(crate) mod layout;
pub mod lumped;
pub mod planar;
pub mod rigid;
pub mod spatial;

pub use dimension::{Dimension, Planar, Spatial};
pub use floating_body::{EnergySplit, FloatingBody};
