//! External forces and torques at ports of spatial bodies (time-dependent inputs, paper
//! 000 eq. (39) in 3D).
use phlex_solve::Signal;

use crate::planar::load::Frame;

/// A force and torque applied at a port of a spatial body: an input port of the assembled
/// system, named after the load, of dimension 6 ($F_x, F_y, F_z, T_x, T_y, T_z$), whose
/// output is the velocity and angular velocity of the port in the same frame.
///
/// [`Frame::Body`]: components in the body frame, entering through the constant port map
/// $B_k$. [`Frame::Inertial`]: inertial components, entering through
/// $B_k\,\mathrm{diag}(R^\top, R^\top)$ (state dependent).
#[derive(Debug, Clone)]
pub struct Load3d {
    /// Body name.
    pub body: String,
    /// Port of the body.
    pub port: String,
    /// Frame of the components.
    pub frame: Frame,
    /// Force components \[N\].
    pub force: [Signal; 3],
    /// Torque components \[N m\].
    pub torque: [Signal; 3],
}

impl Load3d {
    /// A load at `body.port` with zero signals (set them with [`Load3d::force`] and
    /// [`Load3d::torque`], or drive the port through the input function of the simulation).
    pub fn new(body: impl Into<String>, port: impl Into<String>, frame: Frame) -> Self {
        Self {
            body: body.into(),
            port: port.into(),
            frame,
            force: [0.0; 3].map(Signal::Constant),
            torque: [0.0; 3].map(Signal::Constant),
        }
    }

    /// Sets the force signals.
    pub fn force(mut self, f: [Signal; 3]) -> Self {
        self.force = f;
        self
    }

    /// Sets the torque signals.
    pub fn torque(mut self, t: [Signal; 3]) -> Self {
        self.torque = t;
        self
    }
}
