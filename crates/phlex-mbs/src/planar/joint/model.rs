//! Resolved joints: bodies and ports replaced by indices, kind-specific data precomputed.
use phlex_solve::Signal;

use super::{ground, prescribed, revolute, slider, weld};

/// Which side of a joint a constraint term acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Body a.
    A,
    /// Body b.
    B,
}

/// One term of a constraint row: `coef` × component `comp` of the port output of `side`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Term {
    /// Row within the joint.
    pub row: usize,
    /// Side.
    pub side: Side,
    /// Port output component (0: $v_x$, 1: $v_y$, 2: $\omega$, body frame).
    pub comp: usize,
    /// Coefficient.
    pub coef: f64,
}

/// Kind-specific data of a resolved joint.
#[derive(Debug, Clone)]
pub(crate) enum Resolved {
    /// Revolute between two bodies (one extra state: the relative angle).
    Revolute,
    /// Weld between two bodies (extra relative angle; `rel0` = initial relative port angle).
    Weld { rel0: f64 },
    /// Fixed point.
    GroundPoint { point: [f64; 2] },
    /// Fixed frame (`angle0` = initial port angle).
    GroundFrame { point: [f64; 2], angle0: f64 },
    /// Point on an inertial line.
    Slider { point: [f64; 2], normal: [f64; 2] },
    /// Prescribed velocity (extra states: target position, and angle if `rotation`).
    Prescribed {
        signals: Vec<Signal>,
        rotation: bool,
    },
}

/// Geometry of the two ports needed for position residuals.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PortGeometry {
    /// Inertial position of port a.
    pub pos_a: [f64; 2],
    /// Inertial position of port b (unused for ground joints).
    pub pos_b: [f64; 2],
    /// Absolute angle of the material frame at port a.
    pub ang_a: f64,
    /// Same at port b.
    pub ang_b: f64,
}

/// A joint with resolved bodies and ports.
#[derive(Debug, Clone)]
pub(crate) struct JointModel {
    /// Joint name.
    pub name: String,
    /// (body, port) of side a.
    pub a: (usize, usize),
    /// (body, port) of side b (`None`: ground).
    pub b: Option<(usize, usize)>,
    /// Kind data.
    pub kind: Resolved,
    /// Rows released as redundant ([`crate::common::rank`]): left out of $G$, their
    /// multipliers held at zero.
    pub released: Vec<usize>,
}

impl JointModel {
    /// Number of constraint rows (multipliers).
    pub fn n_rows(&self) -> usize {
        match &self.kind {
            Resolved::Revolute | Resolved::GroundPoint { .. } => 2,
            Resolved::Weld { .. } | Resolved::GroundFrame { .. } => 3,
            Resolved::Slider { .. } => 1,
            Resolved::Prescribed { rotation, .. } => 2 + usize::from(*rotation),
        }
    }

    /// Number of extra (energy-free) states: relative angle or target position.
    pub fn n_extra(&self) -> usize {
        match &self.kind {
            Resolved::Revolute | Resolved::Weld { .. } => 1,
            Resolved::Prescribed { rotation, .. } => 2 + usize::from(*rotation),
            _ => 0,
        }
    }

    /// Number of external inputs (prescribed velocities).
    pub fn n_inputs(&self) -> usize {
        match &self.kind {
            Resolved::Prescribed { rotation, .. } => 2 + usize::from(*rotation),
            _ => 0,
        }
    }

    /// Labels of the constraint rows.
    pub fn row_labels(&self) -> &'static [&'static str] {
        match &self.kind {
            Resolved::Revolute | Resolved::GroundPoint { .. } => &["x", "y"],
            Resolved::Weld { .. } | Resolved::GroundFrame { .. } => &["x", "y", "rotation"],
            Resolved::Slider { .. } => &["normal"],
            Resolved::Prescribed { rotation, .. } => {
                if *rotation {
                    &["x", "y", "rotation"]
                } else {
                    &["x", "y"]
                }
            }
        }
    }

    /// Meaning of the multiplier block.
    pub fn multiplier_meaning(&self) -> &'static str {
        match &self.kind {
            Resolved::Revolute => "hinge force on body b at its port, frame of b [N]",
            Resolved::Weld { .. } => "force and torque on body b at its port, frame of b [N, N m]",
            Resolved::GroundPoint { .. } => "ground force on the body at its port, body frame [N]",
            Resolved::GroundFrame { .. } => {
                "ground force and torque on the body at its port, body frame [N, N m]"
            }
            Resolved::Slider { .. } => "normal reaction along the inertial line normal [N]",
            Resolved::Prescribed { .. } => {
                "driving force (and torque) on the body, inertial frame [N, N m]"
            }
        }
    }

    /// Constraint terms for body angle `theta_a` and extra states `extra`.
    pub fn push_terms(&self, theta_a: f64, extra: &[f64], out: &mut Vec<Term>) {
        match &self.kind {
            Resolved::Revolute => revolute::push_terms(extra[0], 0, out),
            Resolved::Weld { .. } => weld::push_terms(extra[0], 0, out),
            Resolved::GroundPoint { .. } => ground::push_terms(false, 0, out),
            Resolved::GroundFrame { .. } => ground::push_terms(true, 0, out),
            Resolved::Slider { normal, .. } => slider::push_terms(*normal, theta_a, 0, out),
            Resolved::Prescribed { rotation, .. } => {
                prescribed::push_terms(theta_a, *rotation, 0, out)
            }
        }
        if !self.released.is_empty() {
            out.retain(|t| !self.released.contains(&t.row));
        }
    }

    /// Position-level residual of each constraint row.
    pub fn position_residual(&self, g: &PortGeometry, extra: &[f64]) -> Vec<f64> {
        match &self.kind {
            Resolved::Revolute => revolute::residual(g.pos_a, g.pos_b).to_vec(),
            Resolved::Weld { rel0 } => {
                let r = revolute::residual(g.pos_a, g.pos_b);
                vec![r[0], r[1], weld::angle_residual(g.ang_a, g.ang_b, *rel0)]
            }
            Resolved::GroundPoint { point } => ground::residual(g.pos_a, *point).to_vec(),
            Resolved::GroundFrame { point, angle0 } => {
                let r = ground::residual(g.pos_a, *point);
                vec![r[0], r[1], g.ang_a - angle0]
            }
            Resolved::Slider { point, normal } => vec![slider::residual(*normal, g.pos_a, *point)],
            Resolved::Prescribed { rotation, .. } => {
                let mut r = vec![g.pos_a[0] - extra[0], g.pos_a[1] - extra[1]];
                if *rotation {
                    r.push(g.ang_a - extra[2]);
                }
                r
            }
        }
    }

    /// Initial values of the extra states for the given geometry and body angles.
    pub fn initial_extra(&self, g: &PortGeometry, theta_a: f64, theta_b: f64) -> Vec<f64> {
        match &self.kind {
            Resolved::Revolute | Resolved::Weld { .. } => vec![theta_b - theta_a],
            Resolved::Prescribed { rotation, .. } => {
                let mut s = vec![g.pos_a[0], g.pos_a[1]];
                if *rotation {
                    s.push(g.ang_a);
                }
                s
            }
            _ => Vec::new(),
        }
    }

    /// Whether the extra states follow $\dot\theta = \omega_b - \omega_a$.
    pub fn has_relative_angle(&self) -> bool {
        matches!(self.kind, Resolved::Revolute | Resolved::Weld { .. })
    }
}
