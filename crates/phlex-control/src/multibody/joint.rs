//! Joints between floating bodies as holonomic constraints `f(q, t) = 0`,
//! reduced analytically to the acceleration form `f_q q̈ = Q_f` of the
//! Udwadia–Kalaba equations (thesis 002 §2.3.2, eqs. (2.62)–(2.66);
//! summary §2.2).
//!
//! With a material point `r_P = R + A ū_P` (eq. (2.335)), `ṙ_P = L_P q̇` and
//! `r̈_P = L_P q̈ + γ_P`, `γ_P = A[ω̄×(ω̄×ū_P) + 2ω̄×ū̇_P]`
//! ([`super::FloatingBody::point_convective`]); for a body-fixed direction
//! `d = Aā`, `δd = −Aã Ḡ δθ` and `d̈ = (−AãḠ)θ̈ + Aω̄×(ω̄×ā)`. Hence
//!
//! * [`SphericalJoint`] `r_a − r_b = 0` (3 rows): `A = L_a − L_b`,
//!   `b = −(γ_a − γ_b)`;
//! * [`PerpendicularJoint`] `d_a·d_b = 0` (1 row, the "dot-1" constraint):
//!   `A = d_bᵀ ∂d_a + d_aᵀ ∂d_b`, `b = −(d_b·γ_a + d_a·γ_b + 2 ḋ_a·ḋ_b)`;
//! * [`RevoluteJoint`]: a spherical joint plus two perpendicularity rows
//!   keeping the joint axis of body `a` normal to two directions of body `b`
//!   (5 rows);
//! * [`RotationDriver`]: prescribed rotation `φ(t)` about the global `z`
//!   axis, `θ₃ cos(φ/2) − θ₀ sin(φ/2) = 0` (1 row, rheonomic).

use faer::MatMut;

use super::body_point::BodyPoint;
use super::floating_body::FloatingBody;
use crate::error::{ControlError, Result};
use phlex_core::geometry::mat3::{dot, sub, Vec3};

/// Index of a body in a [`super::MultibodySystem`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BodyId(pub usize);

/// The bodies of a system and the offsets of their coordinates in `q`.
#[derive(Clone, Copy)]
pub struct Bodies<'a> {
    pub(crate) bodies: &'a [FloatingBody],
    pub(crate) offsets: &'a [usize],
}

impl<'a> Bodies<'a> {
    /// The body `id`.
    pub fn body(&self, id: BodyId) -> &'a FloatingBody {
        &self.bodies[id.0]
    }
    /// Offset of body `id` in `q`.
    pub fn offset(&self, id: BodyId) -> usize {
        self.offsets[id.0]
    }
    /// The coordinates of body `id` in the global vector `v`.
    pub fn slice<'b>(&self, id: BodyId, v: &'b [f64]) -> &'b [f64] {
        let o = self.offsets[id.0];
        &v[o..o + self.bodies[id.0].n_coords()]
    }
    fn check(&self, joint: &str, id: BodyId) -> Result<&'a FloatingBody> {
        self.bodies
            .get(id.0)
            .ok_or_else(|| ControlError::InvalidParameter {
                name: format!("joint `{joint}`"),
                reason: format!(
                    "refers to body {} but the system has {} bodies",
                    id.0,
                    self.bodies.len()
                ),
            })
    }
}

/// The bodies at one state `(q, q̇, t)`: what the acceleration form of a
/// joint is evaluated at.
#[derive(Clone, Copy)]
pub struct Motion<'a> {
    /// The bodies and their offsets.
    pub bodies: Bodies<'a>,
    /// Global coordinates `q`.
    pub q: &'a [f64],
    /// Global velocities `q̇`.
    pub qd: &'a [f64],
    /// Time \[s\].
    pub t: f64,
}

/// A joint reducible to `A q̈ = b` over the global coordinates.
pub trait Joint {
    /// Name used in error messages and reports.
    fn name(&self) -> &str;
    /// Number of scalar constraint equations.
    fn rows(&self) -> usize;
    /// Validates body indices and points against the system.
    fn validate(&self, bodies: &Bodies<'_>) -> Result<()>;
    /// Adds the rows of `A` (all `n` columns, pre-zeroed) and writes `b`.
    fn acceleration_form(&self, m: &Motion<'_>, A: MatMut<'_, f64>, b: &mut [f64]);
    /// Position residual `f(q, t)`.
    fn position_residual(&self, bodies: &Bodies<'_>, q: &[f64], t: f64, out: &mut [f64]);
    /// `−f_t`: the right-hand side of the velocity form `f_q q̇ = −f_t`
    /// (zero for scleronomic joints).
    fn velocity_rhs(&self, _bodies: &Bodies<'_>, _q: &[f64], _t: f64, out: &mut [f64]) {
        out.iter_mut().for_each(|v| *v = 0.0);
    }
}

/// One side of a point joint: a ground point or a material point of a body.
#[derive(Debug, Clone, PartialEq)]
pub enum Anchor {
    /// Fixed point in the global frame \[m\].
    Ground(Vec3),
    /// Material point of a body.
    Body {
        /// the body
        body: BodyId,
        /// the point
        point: BodyPoint,
    },
}

impl Anchor {
    /// A material point of body `body`.
    pub fn body(body: BodyId, point: BodyPoint) -> Self {
        Anchor::Body { body, point }
    }

    fn validate(&self, joint: &str, bodies: &Bodies<'_>) -> Result<()> {
        if let Anchor::Body { body, point } = self {
            bodies.check(joint, *body)?.check_point(point)?;
        }
        Ok(())
    }

    fn position(&self, bodies: &Bodies<'_>, q: &[f64]) -> Vec3 {
        match self {
            Anchor::Ground(p) => *p,
            Anchor::Body { body, point } => bodies
                .body(*body)
                .point_position(bodies.slice(*body, q), point),
        }
    }

    fn convective(&self, m: &Motion<'_>) -> Vec3 {
        match self {
            Anchor::Ground(_) => [0.0; 3],
            Anchor::Body { body, point } => m.bodies.body(*body).point_convective(
                m.bodies.slice(*body, m.q),
                m.bodies.slice(*body, m.qd),
                point,
            ),
        }
    }

    fn add_jacobian(&self, bodies: &Bodies<'_>, q: &[f64], s: f64, A: MatMut<'_, f64>) {
        if let Anchor::Body { body, point } = self {
            bodies.body(*body).add_point_jacobian(
                bodies.slice(*body, q),
                point,
                s,
                A,
                bodies.offset(*body),
            );
        }
    }
}

/// A direction fixed in the global frame or in a body's reference frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Direction {
    /// Global direction.
    Ground(Vec3),
    /// Direction fixed in the reference frame of a body (body components).
    Body {
        /// the body
        body: BodyId,
        /// body-frame components
        axis: Vec3,
    },
}

impl Direction {
    fn validate(&self, joint: &str, bodies: &Bodies<'_>) -> Result<()> {
        if let Direction::Body { body, .. } = self {
            bodies.check(joint, *body)?;
        }
        Ok(())
    }

    fn value(&self, bodies: &Bodies<'_>, q: &[f64]) -> Vec3 {
        match self {
            Direction::Ground(d) => *d,
            Direction::Body { body, axis } => {
                bodies.body(*body).axis(bodies.slice(*body, q), *axis)
            }
        }
    }

    fn rate(&self, m: &Motion<'_>) -> Vec3 {
        match self {
            Direction::Ground(_) => [0.0; 3],
            Direction::Body { body, axis } => m.bodies.body(*body).axis_rate(
                m.bodies.slice(*body, m.q),
                m.bodies.slice(*body, m.qd),
                *axis,
            ),
        }
    }

    fn convective(&self, m: &Motion<'_>) -> Vec3 {
        match self {
            Direction::Ground(_) => [0.0; 3],
            Direction::Body { body, axis } => m.bodies.body(*body).axis_convective(
                m.bodies.slice(*body, m.q),
                m.bodies.slice(*body, m.qd),
                *axis,
            ),
        }
    }

    /// Adds `wᵀ ∂d/∂q` to row `row` of `A`.
    fn add_jacobian(
        &self,
        bodies: &Bodies<'_>,
        q: &[f64],
        w: Vec3,
        mut A: MatMut<'_, f64>,
        row: usize,
    ) {
        if let Direction::Body { body, axis } = self {
            let J = bodies
                .body(*body)
                .axis_jacobian(bodies.slice(*body, q), *axis);
            let o = bodies.offset(*body) + 3;
            for a in 0..4 {
                A[(row, o + a)] += w[0] * J[0][a] + w[1] * J[1][a] + w[2] * J[2][a];
            }
        }
    }
}

/// Coincident points `r_a = r_b` (3 rows).
#[derive(Debug, Clone, PartialEq)]
pub struct SphericalJoint {
    /// Name.
    pub name: String,
    /// First point.
    pub a: Anchor,
    /// Second point.
    pub b: Anchor,
}

impl SphericalJoint {
    /// A spherical joint between two anchors.
    pub fn new(name: impl Into<String>, a: Anchor, b: Anchor) -> Self {
        Self {
            name: name.into(),
            a,
            b,
        }
    }
}

impl Joint for SphericalJoint {
    fn name(&self) -> &str {
        &self.name
    }
    fn rows(&self) -> usize {
        3
    }
    fn validate(&self, bodies: &Bodies<'_>) -> Result<()> {
        self.a.validate(&self.name, bodies)?;
        self.b.validate(&self.name, bodies)?;
        if matches!((&self.a, &self.b), (Anchor::Ground(_), Anchor::Ground(_))) {
            return Err(ControlError::InvalidParameter {
                name: format!("joint `{}`", self.name),
                reason: "connects the ground to itself".into(),
            });
        }
        Ok(())
    }
    fn acceleration_form(&self, m: &Motion<'_>, mut A: MatMut<'_, f64>, b: &mut [f64]) {
        self.a.add_jacobian(&m.bodies, m.q, 1.0, A.as_mut());
        self.b.add_jacobian(&m.bodies, m.q, -1.0, A.as_mut());
        let g = sub(self.a.convective(m), self.b.convective(m));
        for i in 0..3 {
            b[i] = -g[i];
        }
    }
    fn position_residual(&self, bodies: &Bodies<'_>, q: &[f64], _t: f64, out: &mut [f64]) {
        let r = sub(self.a.position(bodies, q), self.b.position(bodies, q));
        out[..3].copy_from_slice(&r);
    }
}

/// Perpendicular directions `d_a · d_b = 0` (1 row).
#[derive(Debug, Clone, PartialEq)]
pub struct PerpendicularJoint {
    /// Name.
    pub name: String,
    /// First direction.
    pub a: Direction,
    /// Second direction.
    pub b: Direction,
}

impl PerpendicularJoint {
    /// `d_a ⟂ d_b`.
    pub fn new(name: impl Into<String>, a: Direction, b: Direction) -> Self {
        Self {
            name: name.into(),
            a,
            b,
        }
    }

    fn rows_into(&self, m: &Motion<'_>, mut A: MatMut<'_, f64>, row: usize) -> f64 {
        let (bodies, q) = (&m.bodies, m.q);
        let (da, db) = (self.a.value(bodies, q), self.b.value(bodies, q));
        self.a.add_jacobian(bodies, q, db, A.as_mut(), row);
        self.b.add_jacobian(bodies, q, da, A.as_mut(), row);
        let (ra, rb) = (self.a.rate(m), self.b.rate(m));
        let (ga, gb) = (self.a.convective(m), self.b.convective(m));
        -(dot(db, ga) + dot(da, gb) + 2.0 * dot(ra, rb))
    }
}

impl Joint for PerpendicularJoint {
    fn name(&self) -> &str {
        &self.name
    }
    fn rows(&self) -> usize {
        1
    }
    fn validate(&self, bodies: &Bodies<'_>) -> Result<()> {
        self.a.validate(&self.name, bodies)?;
        self.b.validate(&self.name, bodies)
    }
    fn acceleration_form(&self, m: &Motion<'_>, A: MatMut<'_, f64>, b: &mut [f64]) {
        b[0] = self.rows_into(m, A, 0);
    }
    fn position_residual(&self, bodies: &Bodies<'_>, q: &[f64], _t: f64, out: &mut [f64]) {
        out[0] = dot(self.a.value(bodies, q), self.b.value(bodies, q));
    }
}

/// Revolute joint: coincident points and the axis `axis_a` of body `a`
/// perpendicular to the two directions `perp_b` of the other side (5 rows).
#[derive(Debug, Clone, PartialEq)]
pub struct RevoluteJoint {
    /// Name.
    pub name: String,
    /// Coincident points.
    pub point: SphericalJoint,
    /// The two perpendicularity conditions.
    pub axes: [PerpendicularJoint; 2],
}

impl RevoluteJoint {
    /// Hinge between anchor `a` (on body `body_a`, axis `axis_a` in its frame)
    /// and anchor `b`, whose directions `perp_b[0]`, `perp_b[1]` span the plane
    /// normal to the hinge axis.
    pub fn new(
        name: impl Into<String>,
        a: Anchor,
        b: Anchor,
        axis_a: Direction,
        perp_b: [Direction; 2],
    ) -> Self {
        let name = name.into();
        Self {
            point: SphericalJoint::new(format!("{name}.point"), a, b),
            axes: [
                PerpendicularJoint::new(format!("{name}.axis1"), axis_a, perp_b[0]),
                PerpendicularJoint::new(format!("{name}.axis2"), axis_a, perp_b[1]),
            ],
            name,
        }
    }

    /// Hinge of material point `point` of `body` to the ground point `ground`,
    /// about the global `z` axis (the body `z` axis stays vertical to the
    /// global `x–y` plane): planar rotation.
    pub fn ground_z(name: impl Into<String>, body: BodyId, point: BodyPoint, ground: Vec3) -> Self {
        Self::new(
            name,
            Anchor::body(body, point),
            Anchor::Ground(ground),
            Direction::Body {
                body,
                axis: [0.0, 0.0, 1.0],
            },
            [
                Direction::Ground([1.0, 0.0, 0.0]),
                Direction::Ground([0.0, 1.0, 0.0]),
            ],
        )
    }
}

impl Joint for RevoluteJoint {
    fn name(&self) -> &str {
        &self.name
    }
    fn rows(&self) -> usize {
        5
    }
    fn validate(&self, bodies: &Bodies<'_>) -> Result<()> {
        self.point.validate(bodies)?;
        self.axes[0].validate(bodies)?;
        self.axes[1].validate(bodies)
    }
    fn acceleration_form(&self, m: &Motion<'_>, mut A: MatMut<'_, f64>, b: &mut [f64]) {
        self.point.acceleration_form(m, A.as_mut(), &mut b[..3]);
        b[3] = self.axes[0].rows_into(m, A.as_mut(), 3);
        b[4] = self.axes[1].rows_into(m, A.as_mut(), 4);
    }
    fn position_residual(&self, bodies: &Bodies<'_>, q: &[f64], t: f64, out: &mut [f64]) {
        self.point.position_residual(bodies, q, t, &mut out[..3]);
        self.axes[0].position_residual(bodies, q, t, &mut out[3..4]);
        self.axes[1].position_residual(bodies, q, t, &mut out[4..5]);
    }
}

/// Prescribed angle `φ(t)`, its rate and acceleration.
pub type AngleProfile = Box<dyn Fn(f64) -> [f64; 3]>;

/// Prescribed rotation about the global `z` axis:
/// `f = θ₃ cos(φ/2) − θ₀ sin(φ/2) = 0` (1 row). The profile returns
/// `(φ, φ̇, φ̈)`. Meant for bodies whose rotation is already restricted to the
/// `z` axis (e.g. by a [`RevoluteJoint::ground_z`]).
pub struct RotationDriver {
    /// Name.
    pub name: String,
    /// Driven body.
    pub body: BodyId,
    /// `t ↦ (φ, φ̇, φ̈)`.
    pub profile: AngleProfile,
}

impl RotationDriver {
    /// Drives `body` along `profile`.
    pub fn new(
        name: impl Into<String>,
        body: BodyId,
        profile: impl Fn(f64) -> [f64; 3] + 'static,
    ) -> Self {
        Self {
            name: name.into(),
            body,
            profile: Box::new(profile),
        }
    }

    /// `(C, S, Ċ, Ṡ, C̈, S̈)` of `C = cos(φ/2)`, `S = sin(φ/2)`.
    fn trig(&self, t: f64) -> [f64; 6] {
        let [p, pd, pdd] = (self.profile)(t);
        let (s, c) = (0.5 * p).sin_cos();
        [
            c,
            s,
            -0.5 * pd * s,
            0.5 * pd * c,
            -0.5 * pdd * s - 0.25 * pd * pd * c,
            0.5 * pdd * c - 0.25 * pd * pd * s,
        ]
    }
}

impl Joint for RotationDriver {
    fn name(&self) -> &str {
        &self.name
    }
    fn rows(&self) -> usize {
        1
    }
    fn validate(&self, bodies: &Bodies<'_>) -> Result<()> {
        bodies.check(&self.name, self.body).map(|_| ())
    }
    fn acceleration_form(&self, m: &Motion<'_>, mut A: MatMut<'_, f64>, b: &mut [f64]) {
        let [c, s, cd, sd, cdd, sdd] = self.trig(m.t);
        let o = m.bodies.offset(self.body);
        let (th0, th3) = (m.q[o + 3], m.q[o + 6]);
        let (thd0, thd3) = (m.qd[o + 3], m.qd[o + 6]);
        A[(0, o + 3)] += -s;
        A[(0, o + 6)] += c;
        b[0] = -2.0 * (thd3 * cd - thd0 * sd) - (th3 * cdd - th0 * sdd);
    }
    fn position_residual(&self, bodies: &Bodies<'_>, q: &[f64], t: f64, out: &mut [f64]) {
        let [c, s, ..] = self.trig(t);
        let o = bodies.offset(self.body);
        out[0] = q[o + 6] * c - q[o + 3] * s;
    }
    fn velocity_rhs(&self, bodies: &Bodies<'_>, q: &[f64], t: f64, out: &mut [f64]) {
        let [_, _, cd, sd, ..] = self.trig(t);
        let o = bodies.offset(self.body);
        out[0] = -(q[o + 6] * cd - q[o + 3] * sd);
    }
}
