//! Rigid bodies (paper 000 Remark 4): the planar rigid body and the rigid body on SE(3).
pub mod planar;
pub mod spatial;
