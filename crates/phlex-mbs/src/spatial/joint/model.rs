//! Resolved spatial joints: bodies and ports replaced by indices, kind data precomputed,
//! and the constraint rows written as *terms* on the port outputs.
//!
//! A term contributes `coef · y_s[block..block + 3]` to one row, where $y_s = B_s^\top z$ is
//! the body-frame port output of side `s` (block 0: velocity of the point, block 3: angular
//! velocity). The coefficient is
//! * [`Coef::Body`] $c$: a constant body-frame vector, row $= c\cdot y$;
//! * [`Coef::Inertial`] $w$: a constant inertial vector, row $= w\cdot R_s(x)\,y$ (linear in
//!   the entries of $R_s$, which the Jacobian differentiates exactly);
//! * [`Coef::Extra`] $c(\xi)$: a body-frame vector depending on one energy-free joint state
//!   $\xi$ (relative angle, slide coordinate), with derivative $c'(\xi)$.
use phlex_solve::Signal;

use super::{ground, prescribed, prismatic, revolute, spherical, weld};
use phlex_core::geometry::mat3::Mat3;

/// Which side of a joint a term acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Body a.
    A,
    /// Body b.
    B,
}

/// Coefficient of a term (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Coef {
    /// Constant body-frame vector.
    Body([f64; 3]),
    /// Constant inertial vector, multiplied by $R_s(x)$.
    Inertial([f64; 3]),
    /// Body-frame vector depending on joint state `state` (index within the joint's extra
    /// states): value `c` and derivative `dc`.
    Extra {
        /// $c(\xi)$.
        c: [f64; 3],
        /// $c'(\xi)$.
        dc: [f64; 3],
        /// Index of $\xi$ within the joint's extra states.
        state: usize,
    },
}

/// One term of a constraint row or of a joint-state rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Term {
    /// Row within the joint.
    pub row: usize,
    /// Side.
    pub side: Side,
    /// First port-output component: 0 (velocity) or 3 (angular velocity).
    pub block: usize,
    /// Coefficient.
    pub coef: Coef,
}

impl Term {
    pub(crate) fn new(row: usize, side: Side, block: usize, coef: Coef) -> Self {
        Self {
            row,
            side,
            block,
            coef,
        }
    }
}

/// Geometry of the two ports for position residuals: inertial positions and the
/// effective body rotations $R^{port}C^\top$ (the body rotation for a rigid body, including
/// the elastic rotation of the port for a flexible one).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Geometry {
    pub pos_a: [f64; 3],
    pub rot_a: Mat3,
    pub pos_b: [f64; 3],
    pub rot_b: Mat3,
}

/// Kind-specific data of a resolved joint.
#[derive(Debug, Clone)]
pub(crate) enum Resolved3d {
    Spherical,
    Revolute(revolute::Revolute),
    Prismatic(prismatic::Prismatic),
    Weld { q0: Mat3 },
    GroundPoint { point: [f64; 3] },
    GroundFrame { point: [f64; 3], r0: Mat3 },
    GroundRevolute(ground::GroundRevolute),
    GroundPrismatic(ground::GroundPrismatic),
    Prescribed(prescribed::Prescribed),
}

/// A spatial joint with resolved bodies and ports.
#[derive(Debug, Clone)]
pub(crate) struct JointModel3d {
    pub name: String,
    /// (body, port) of side a.
    pub a: (usize, usize),
    /// (body, port) of side b (`None`: ground).
    pub b: Option<(usize, usize)>,
    pub kind: Resolved3d,
    /// Rows released as redundant ([`crate::common::rank`]): left out of $G$, their
    /// multipliers held at zero.
    pub released: Vec<usize>,
}

impl JointModel3d {
    /// Number of constraint rows (multipliers).
    pub fn n_rows(&self) -> usize {
        match &self.kind {
            Resolved3d::Spherical | Resolved3d::GroundPoint { .. } => 3,
            Resolved3d::Revolute(_)
            | Resolved3d::Prismatic(_)
            | Resolved3d::GroundRevolute(_)
            | Resolved3d::GroundPrismatic(_) => 5,
            Resolved3d::Weld { .. } | Resolved3d::GroundFrame { .. } => 6,
            Resolved3d::Prescribed(p) => p.n_inputs(),
        }
    }

    /// Number of energy-free joint states.
    pub fn n_extra(&self) -> usize {
        match &self.kind {
            Resolved3d::Revolute(_)
            | Resolved3d::Prismatic(_)
            | Resolved3d::GroundRevolute(_)
            | Resolved3d::GroundPrismatic(_) => 1,
            Resolved3d::Prescribed(_) => 3,
            _ => 0,
        }
    }

    /// Number of external inputs (prescribed velocities).
    pub fn n_inputs(&self) -> usize {
        match &self.kind {
            Resolved3d::Prescribed(p) => p.n_inputs(),
            _ => 0,
        }
    }

    /// Signals of the inputs.
    pub fn signals(&self) -> &[Signal] {
        match &self.kind {
            Resolved3d::Prescribed(p) => &p.signals,
            _ => &[],
        }
    }

    /// Labels of the constraint rows.
    pub fn row_labels(&self) -> &'static [&'static str] {
        match &self.kind {
            Resolved3d::Spherical | Resolved3d::GroundPoint { .. } => &["x", "y", "z"],
            Resolved3d::Revolute(_) | Resolved3d::GroundRevolute(_) => &["x", "y", "z", "n1", "n2"],
            Resolved3d::Prismatic(_) | Resolved3d::GroundPrismatic(_) => {
                &["rx", "ry", "rz", "n1", "n2"]
            }
            Resolved3d::Weld { .. } | Resolved3d::GroundFrame { .. } => {
                &["x", "y", "z", "rx", "ry", "rz"]
            }
            Resolved3d::Prescribed(p) => {
                if p.rotation.is_some() {
                    &["vx", "vy", "vz", "wx", "wy", "wz"]
                } else {
                    &["vx", "vy", "vz"]
                }
            }
        }
    }

    /// Name suffix and meaning of the extra-state block.
    pub fn extra_meaning(&self) -> (&'static str, &'static str) {
        match &self.kind {
            Resolved3d::Revolute(_) | Resolved3d::GroundRevolute(_) => (
                "theta",
                "relative rotation angle about the joint axis since t0, eq. (44) [rad]",
            ),
            Resolved3d::Prismatic(_) | Resolved3d::GroundPrismatic(_) => {
                ("s", "slide coordinate along the joint axis [m]")
            }
            _ => ("target", "target position of the driven port, inertial [m]"),
        }
    }

    /// Meaning of the multiplier block.
    pub fn multiplier_meaning(&self) -> &'static str {
        match &self.kind {
            Resolved3d::Spherical => "force on body b at its port, inertial frame [N]",
            Resolved3d::Revolute(_) => {
                "force on body b (inertial) and torques about the normals n1, n2 of the axis (frame of b) [N, N m]"
            }
            Resolved3d::Prismatic(_) => {
                "torque on body b (frame of b) and forces along the normals n1, n2 of the axis (frame of a) [N m, N]"
            }
            Resolved3d::Weld { .. } => {
                "force on body b (inertial) and torque on body b (frame of b) [N, N m]"
            }
            Resolved3d::GroundPoint { .. } => "ground force on the body at its port, body frame [N]",
            Resolved3d::GroundFrame { .. } => {
                "ground force and torque on the body at its port, body frame [N, N m]"
            }
            Resolved3d::GroundRevolute(_) => {
                "ground force and torques about the normals n1, n2 of the axis, body frame [N, N m]"
            }
            Resolved3d::GroundPrismatic(_) => {
                "ground torque and forces along the normals n1, n2 of the axis, body frame [N m, N]"
            }
            Resolved3d::Prescribed(_) => {
                "driving force (inertial) and torque (frame of the angular velocity) on the body [N, N m]"
            }
        }
    }

    /// Constraint terms (`rows`) and joint-state rate terms (`kin`) for the extra states
    /// `extra`.
    pub fn push_terms(&self, extra: &[f64], rows: &mut Vec<Term>, kin: &mut Vec<Term>) {
        match &self.kind {
            Resolved3d::Spherical => spherical::push_terms(0, rows),
            Resolved3d::Revolute(r) => r.push_terms(extra[0], rows, kin),
            Resolved3d::Prismatic(p) => p.push_terms(extra[0], rows, kin),
            Resolved3d::Weld { q0 } => weld::push_terms(q0, rows),
            Resolved3d::GroundPoint { .. } => ground::push_point_terms(rows),
            Resolved3d::GroundFrame { .. } => ground::push_frame_terms(rows),
            Resolved3d::GroundRevolute(g) => g.push_terms(rows, kin),
            Resolved3d::GroundPrismatic(g) => g.push_terms(rows, kin),
            Resolved3d::Prescribed(p) => p.push_terms(rows),
        }
        if !self.released.is_empty() {
            rows.retain(|t| !self.released.contains(&t.row));
        }
    }

    /// Position-level residual of each constraint row.
    pub fn position_residual(&self, g: &Geometry, extra: &[f64]) -> Vec<f64> {
        match &self.kind {
            Resolved3d::Spherical => spherical::residual(g).to_vec(),
            Resolved3d::Revolute(r) => r.residual(g),
            Resolved3d::Prismatic(p) => p.residual(g),
            Resolved3d::Weld { q0 } => weld::residual(q0, g),
            Resolved3d::GroundPoint { point } => ground::point_residual(*point, g).to_vec(),
            Resolved3d::GroundFrame { point, r0 } => ground::frame_residual(*point, r0, g),
            Resolved3d::GroundRevolute(r) => r.residual(g),
            Resolved3d::GroundPrismatic(p) => p.residual(g),
            Resolved3d::Prescribed(_) => prescribed::residual(g, extra),
        }
    }

    /// Values of the extra states consistent with the geometry (relative angle, slide
    /// coordinate, target = current port position).
    pub fn extra_from_geometry(&self, g: &Geometry) -> Vec<f64> {
        match &self.kind {
            Resolved3d::Revolute(r) => vec![r.angle(g)],
            Resolved3d::Prismatic(p) => vec![p.slide(g)],
            Resolved3d::GroundRevolute(r) => vec![r.angle(g)],
            Resolved3d::GroundPrismatic(p) => vec![p.slide(g)],
            Resolved3d::Prescribed(_) => g.pos_a.to_vec(),
            _ => Vec::new(),
        }
    }
}

/// Rows `row0..row0 + 3`: $R_b y_b - R_a y_a$ (inertial velocities of the two points).
pub(crate) fn push_inertial_point_rows(row0: usize, rows: &mut Vec<Term>) {
    for i in 0..3 {
        let mut e = [0.0; 3];
        e[i] = 1.0;
        rows.push(Term::new(row0 + i, Side::B, 0, Coef::Inertial(e)));
        rows.push(Term::new(
            row0 + i,
            Side::A,
            0,
            Coef::Inertial([-e[0], -e[1], -e[2]]),
        ));
    }
}

/// Rows `row0..row0 + 3`: $\omega_b - q_0^\top\omega_a$ (frame of b): the relative orientation
/// $R_a^\top R_b = q_0$ is kept (exactly by the midpoint rule: Cayley updates commute with
/// the constant conjugation by $q_0$).
pub(crate) fn push_rotation_lock_rows(row0: usize, q0: &Mat3, rows: &mut Vec<Term>) {
    for i in 0..3 {
        let mut e = [0.0; 3];
        e[i] = 1.0;
        rows.push(Term::new(row0 + i, Side::B, 3, Coef::Body(e)));
        let c = phlex_core::geometry::mat3::column(q0, i);
        rows.push(Term::new(
            row0 + i,
            Side::A,
            3,
            Coef::Body([-c[0], -c[1], -c[2]]),
        ));
    }
}

/// Rows `row0..row0 + 3` (or `block` 3): the body-frame port output component $i$ of side a.
pub(crate) fn push_body_rows(row0: usize, block: usize, rows: &mut Vec<Term>) {
    for i in 0..3 {
        let mut e = [0.0; 3];
        e[i] = 1.0;
        rows.push(Term::new(row0 + i, Side::A, block, Coef::Body(e)));
    }
}
