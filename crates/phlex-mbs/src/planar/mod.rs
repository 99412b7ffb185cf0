//! The planar multibody layer: joints, loads, the builder, the assembled index-2 pHDAE
//! [`assembly::Multibody`] (paper 000 eq. (46)), consistent initial conditions, drift
//! projection and the redundancy check; the spatial counterpart is [`crate::spatial`].
pub mod assembly;
pub mod builder;
pub mod joint;
pub mod kinematics;
pub mod load;
pub mod projection;
pub mod redundancy;
