//! External forces and torques at body ports (time-dependent inputs).
use phlex_solve::Signal;

/// Frame in which a load's force components are given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Frame {
    /// Body frame: $u = (F_x, F_y, T)$ enters through the port map $B_a$ (constant).
    #[default]
    Body,
    /// Inertial frame: $u = (F_X, F_Y, T)$ enters through
    /// $B_a\,\mathrm{diag}(R(\theta)^\top, 1)$ (state dependent); the conjugate output is the
    /// inertial velocity of the port.
    Inertial,
}

/// A force and torque applied at a port of a body: an input port of the assembled system,
/// named after the load, of dimension 3, whose output is the velocity of the point.
#[derive(Debug, Clone)]
pub struct Load {
    /// Body name.
    pub body: String,
    /// Port of the body.
    pub port: String,
    /// Frame of the force components.
    pub frame: Frame,
    /// $F_x(t)$ \[N\].
    pub fx: Signal,
    /// $F_y(t)$ \[N\].
    pub fy: Signal,
    /// $T(t)$ \[N m\].
    pub torque: Signal,
}

impl Load {
    /// A load at `body.port` with zero default signals (set them, or drive the port through
    /// the input function of the simulation).
    pub fn new(body: impl Into<String>, port: impl Into<String>, frame: Frame) -> Self {
        Self {
            body: body.into(),
            port: port.into(),
            frame,
            fx: Signal::Constant(0.0),
            fy: Signal::Constant(0.0),
            torque: Signal::Constant(0.0),
        }
    }

    /// Sets the three component signals.
    pub fn signals(mut self, fx: Signal, fy: Signal, torque: Signal) -> Self {
        self.fx = fx;
        self.fy = fy;
        self.torque = torque;
        self
    }
}
