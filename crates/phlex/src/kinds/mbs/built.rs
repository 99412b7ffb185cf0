//! [`Built`]: a multibody model built and made consistent, planar ([`super::BuiltMbs`]) or
//! spatial ([`super::BuiltMbs3d`]): the assembled pHDAE of paper 000 eq. (46), the inputs
//! of the file and the consistent initial state — what a run integrates and `phlex check`
//! reports.
use phlex_mbs::ConsistentInit;
use phlex_solve::InputFn;

/// A model built and made consistent: ready to integrate or linearise (`M` the assembly,
/// [`phlex_mbs::Multibody`] or [`phlex_mbs::spatial::Multibody3d`]).
#[derive(Debug, Clone)]
pub struct Built<M> {
    /// Model name.
    pub name: String,
    /// The assembled pHDAE.
    pub mb: M,
    /// Inputs defined in the file (loads, prescribed velocities).
    pub input: InputFn,
    /// Consistent initial state and the corrections made.
    pub init: ConsistentInit,
}
