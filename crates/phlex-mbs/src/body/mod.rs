//! The bodies of a multibody model, each a floating body in port-Hamiltonian form (paper 000
//! §3–§4): the planar and spatial cores ([`planar`], [`spatial`]) and the bodies built on
//! them, grouped by kind with a planar and a spatial member each ([`rigid`],
//! [`floating_beam`]), and lumped masses at ports ([`lumped`]).
pub mod floating_beam;
pub(crate) mod layout;
pub mod lumped;
pub mod planar;
pub mod rigid;
pub mod spatial;
