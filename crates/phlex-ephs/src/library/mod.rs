//! Component and pattern library: scalar mechanics and thermodynamics (seed 001 §2),
//! the oscillators of Figs. 5–7, the rigid body of Fig. 2, the joint of Fig. 3 with the
//! lower pairs, the multibody builder of Fig. 1, and the kinematic diagnostics (spatial
//! momentum, joint drift, position projection) of assembled multibody models.
pub mod joint;
pub mod kinematics;
pub mod mechanics;
pub mod multibody;
pub mod oscillator;
pub mod rigid_body;
