//! A constrained multibody system solved with the Udwadia–Kalaba equations
//! (thesis 002 §2.5.4, §2.7.8 and §2.3.4; summary §2.7):
//!
//! `M(q) q̈ = Q_v + Q_e − K q − R q̇ + Q_c`, `A(q, q̇, t) q̈ = b`,
//!
//! with `M`, `K`, `Q` stacked over the bodies and `A`, `b` stacked over the
//! Euler-parameter normalisation constraints (one per body, `θᵀθ̈ = −θ̇ᵀθ̇`,
//! written as `2θᵀθ̈ = −2θ̇ᵀθ̇`), the joints and any extra
//! [`crate::model::constraints::Constraint`].
//!
//! **Singular mass matrix.** `M` is singular along `(0, θ, 0)` of every body
//! (`Ḡθ = 0`), and also along rotations without inertia (a beam has no
//! inertia about its own axis). The thesis's remedy (eqs. (2.101)–(2.104))
//! replaces `M, Q` by `M + A⁺A`, `Q + A⁺b`, i.e. it adds `A⁺(Aq̈ − b) = 0` to
//! the equations of motion; any weighting of the constraint rows works the
//! same way. Here `M̂ = M + AᵀWA`, `Q̂ = Q + AᵀWb` with
//! `W = diag(c_i/‖a_i‖²)` and `c_i` the mean diagonal mass entry of the
//! bodies touched by row `i` (a penalty of the size of the inertia, which
//! avoids an SVD of `A` per evaluation). `M̂` is positive definite whenever
//! the generalised controllability matrix `[M; A]` has full rank, the
//! accelerations are those of the singular-mass variant (checked against
//! [`crate::model::udwadia_kalaba::uk_acceleration_singular_mass`] in the tests),
//! and `q̈ = a + M̂⁻¹Aᵀ(AM̂⁻¹Aᵀ)⁺(b − Aa)` by
//! [`crate::model::udwadia_kalaba::uk_acceleration`].
//!
//! No stabilisation is applied (as in the thesis, summary §2.7): the initial
//! conditions must be consistent ([`MultibodySystem::project_velocities`]),
//! and the position drift is reported by the integrator.

use faer::Mat;

use super::floating_body::FloatingBody;
use super::joint::{Bodies, BodyId, Joint, Motion};
use crate::error::{dim_err, ControlError, Result};
use crate::model::constraints::{Constraint, ConstraintSet};
use crate::model::udwadia_kalaba::uk_acceleration;
use phlex_core::geometry::Vec3;

/// Generalized force `Q(t, q, q̇)` added to the right-hand side.
pub type ForceFn = Box<dyn Fn(f64, &[f64], &[f64], &mut [f64])>;

/// Energies of the system \[J\].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Energy {
    /// Kinetic energy `½q̇ᵀMq̇`.
    pub kinetic: f64,
    /// Potential energy of gravity.
    pub gravity: f64,
    /// Strain energy `½q_fᵀK_ff q_f`.
    pub strain: f64,
}

impl Energy {
    /// Sum of the three.
    pub fn total(&self) -> f64 {
        self.kinetic + self.gravity + self.strain
    }
}

/// Constrained acceleration of the system.
#[derive(Debug, Clone)]
pub struct Acceleration {
    /// `q̈`.
    pub qdd: Vec<f64>,
    /// Generalized constraint forces `Q_c = M q̈ − Q`.
    pub constraint_force: Vec<f64>,
    /// `‖A q̈ − b‖∞ / (1 + ‖b‖∞)`.
    pub residual: f64,
}

/// Bodies, joints and forces of a multibody system (see the module documentation).
pub struct MultibodySystem {
    bodies: Vec<FloatingBody>,
    offsets: Vec<usize>,
    n: usize,
    joints: Vec<Box<dyn Joint>>,
    extra: ConstraintSet,
    gravity: Vec3,
    forces: Vec<ForceFn>,
}

impl Default for MultibodySystem {
    fn default() -> Self {
        Self::new()
    }
}

impl MultibodySystem {
    /// An empty system without gravity.
    pub fn new() -> Self {
        Self {
            bodies: Vec::new(),
            offsets: Vec::new(),
            n: 0,
            joints: Vec::new(),
            extra: ConstraintSet::new(),
            gravity: [0.0; 3],
            forces: Vec::new(),
        }
    }

    /// Sets uniform gravity (global frame) \[m/s²\].
    pub fn set_gravity(&mut self, g: Vec3) -> &mut Self {
        self.gravity = g;
        self
    }

    /// Gravity vector.
    pub fn gravity(&self) -> Vec3 {
        self.gravity
    }

    /// Adds a body; returns its id.
    pub fn add_body(&mut self, body: FloatingBody) -> BodyId {
        self.offsets.push(self.n);
        self.n += body.n_coords();
        self.bodies.push(body);
        BodyId(self.bodies.len() - 1)
    }

    fn view(&self) -> Bodies<'_> {
        Bodies {
            bodies: &self.bodies,
            offsets: &self.offsets,
        }
    }

    /// Adds a joint after checking its bodies and points.
    pub fn add_joint(&mut self, joint: impl Joint + 'static) -> Result<&mut Self> {
        joint.validate(&self.view())?;
        if self.joints.iter().any(|j| j.name() == joint.name()) {
            return Err(ControlError::InvalidParameter {
                name: format!("joint `{}`", joint.name()),
                reason: "a joint with this name already exists".into(),
            });
        }
        self.joints.push(Box::new(joint));
        Ok(self)
    }

    /// Adds a general constraint on the global coordinates (acceleration form
    /// of [`crate::model::constraints`]).
    pub fn add_constraint(&mut self, c: impl Constraint + 'static) -> &mut Self {
        self.extra.push(c);
        self
    }

    /// Adds a generalized force `Q(t, q, q̇)` (added into the given buffer).
    pub fn add_force(
        &mut self,
        f: impl Fn(f64, &[f64], &[f64], &mut [f64]) + 'static,
    ) -> &mut Self {
        self.forces.push(Box::new(f));
        self
    }

    /// Number of generalized coordinates.
    pub fn n_coords(&self) -> usize {
        self.n
    }

    /// Number of bodies.
    pub fn n_bodies(&self) -> usize {
        self.bodies.len()
    }

    /// Total number of constraint rows (normalisation + joints + extra).
    pub fn n_constraints(&self) -> usize {
        self.bodies.len() + self.joints.iter().map(|j| j.rows()).sum::<usize>() + self.extra.rows()
    }

    /// Body `id`.
    pub fn body(&self, id: BodyId) -> &FloatingBody {
        &self.bodies[id.0]
    }

    /// Index range of body `id` in `q`.
    pub fn body_range(&self, id: BodyId) -> std::ops::Range<usize> {
        let o = self.offsets[id.0];
        o..o + self.bodies[id.0].n_coords()
    }

    /// Coordinates at the identity pose: `R = 0`, `θ = (1, 0, 0, 0)`, `q_f = 0`.
    pub fn initial_coordinates(&self) -> Vec<f64> {
        let mut q = vec![0.0; self.n];
        for &o in &self.offsets {
            q[o + 3] = 1.0;
        }
        q
    }

    /// Writes the pose `(R, θ)` of body `id` into `q`.
    pub fn set_pose(&self, q: &mut [f64], id: BodyId, R: Vec3, theta: [f64; 4]) {
        let o = self.offsets[id.0];
        q[o..o + 3].copy_from_slice(&R);
        q[o + 3..o + 7].copy_from_slice(&theta);
    }

    /// Writes `Ṙ` and `θ̇ = ¼Ḡᵀω̄` (body angular velocity `ω̄`) of body `id`
    /// into `qd`, using the Euler parameters stored in `q`.
    pub fn set_velocity(&self, q: &[f64], qd: &mut [f64], id: BodyId, Rd: Vec3, omega_bar: Vec3) {
        let o = self.offsets[id.0];
        qd[o..o + 3].copy_from_slice(&Rd);
        let r =
            super::euler_parameters::rate_from_body_angular_velocity(&q[o + 3..o + 7], omega_bar);
        qd[o + 3..o + 7].copy_from_slice(&r);
    }

    fn check(&self, q: &[f64], qd: &[f64]) -> Result<()> {
        if q.len() != self.n {
            return Err(dim_err("q", self.n, 1, q.len(), 1));
        }
        if qd.len() != self.n {
            return Err(dim_err("q̇", self.n, 1, qd.len(), 1));
        }
        if q.iter().chain(qd).any(|v| !v.is_finite()) {
            return Err(ControlError::InvalidParameter {
                name: "q/q̇".into(),
                reason: "entries must be finite".into(),
            });
        }
        Ok(())
    }

    /// Block-diagonal mass matrix `M(q)`.
    pub fn mass_matrix(&self, q: &[f64]) -> Result<Mat<f64>> {
        if q.len() != self.n {
            return Err(dim_err("q", self.n, 1, q.len(), 1));
        }
        let mut M = Mat::zeros(self.n, self.n);
        for (b, &o) in self.bodies.iter().zip(&self.offsets) {
            let k = b.n_coords();
            b.mass_matrix_into(&q[o..o + k], M.as_mut().submatrix_mut(o, o, k, k));
        }
        Ok(M)
    }

    /// Generalized forces `Q = Q_v + Q_g − Kq_f − Rq̇_f + Σ forces` at `(t, q, q̇)`.
    pub fn forces(&self, t: f64, q: &[f64], qd: &[f64]) -> Result<Vec<f64>> {
        self.check(q, qd)?;
        let mut Q = vec![0.0; self.n];
        for (b, &o) in self.bodies.iter().zip(&self.offsets) {
            let k = b.n_coords();
            let (qb, qdb) = (&q[o..o + k], &qd[o..o + k]);
            let out = &mut Q[o..o + k];
            b.add_quadratic_velocity(qb, qdb, out);
            if self.gravity != [0.0; 3] {
                b.add_gravity(qb, self.gravity, out);
            }
            b.add_elastic(qb, qdb, out);
        }
        for f in &self.forces {
            f(t, q, qd, &mut Q);
        }
        Ok(Q)
    }

    /// Stacked acceleration form `(A, b)`: normalisation rows, joints, extra constraints.
    pub fn constraints(&self, t: f64, q: &[f64], qd: &[f64]) -> Result<(Mat<f64>, Vec<f64>)> {
        self.check(q, qd)?;
        let m = self.n_constraints();
        let mut A = Mat::zeros(m, self.n);
        let mut b = vec![0.0; m];
        for (k, &o) in self.offsets.iter().enumerate() {
            let mut s = 0.0;
            for a in 0..4 {
                A[(k, o + 3 + a)] = 2.0 * q[o + 3 + a];
                s += qd[o + 3 + a] * qd[o + 3 + a];
            }
            b[k] = -2.0 * s;
        }
        let mut row = self.bodies.len();
        let motion = Motion {
            bodies: self.view(),
            q,
            qd,
            t,
        };
        for j in &self.joints {
            let r = j.rows();
            j.acceleration_form(
                &motion,
                A.as_mut().submatrix_mut(row, 0, r, self.n),
                &mut b[row..row + r],
            );
            row += r;
        }
        if self.extra.rows() > 0 {
            let (Ae, be) = self.extra.acceleration_form(q, qd, t)?;
            let r = Ae.nrows();
            A.as_mut().submatrix_mut(row, 0, r, self.n).copy_from(&Ae);
            b[row..row + r].copy_from_slice(&be);
        }
        Ok((A, b))
    }

    /// Udwadia–Kalaba acceleration (see the module documentation).
    pub fn acceleration(&self, t: f64, q: &[f64], qd: &[f64]) -> Result<Acceleration> {
        let M = self.mass_matrix(q)?;
        let Q = self.forces(t, q, qd)?;
        let (A, b) = self.constraints(t, q, qd)?;
        let (Mh, Qh) = regularise(&M, &Q, &A, &b, &self.blocks());
        let sol = uk_acceleration(Mh.as_ref(), &Qh, A.as_ref(), &b).map_err(singular_msg)?;
        let qdd = sol.qdd;
        let mut Qc = vec![0.0; self.n];
        for j in 0..self.n {
            for i in 0..self.n {
                Qc[i] += M[(i, j)] * qdd[j];
            }
        }
        for i in 0..self.n {
            Qc[i] -= Q[i];
        }
        let bmax = b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let mut res = 0.0f64;
        for i in 0..A.nrows() {
            let r: f64 = (0..self.n).map(|j| A[(i, j)] * qdd[j]).sum::<f64>() - b[i];
            res = res.max(r.abs());
        }
        Ok(Acceleration {
            qdd,
            constraint_force: Qc,
            residual: res / (1.0 + bmax),
        })
    }

    /// Position residuals: `θᵀθ − 1` per body, then the joints (extra
    /// acceleration-form constraints have no position level and are skipped).
    pub fn position_residual(&self, t: f64, q: &[f64]) -> Vec<f64> {
        let mut out: Vec<f64> = self
            .offsets
            .iter()
            .map(|&o| (0..4).map(|a| q[o + 3 + a] * q[o + 3 + a]).sum::<f64>() - 1.0)
            .collect();
        let view = self.view();
        for j in &self.joints {
            let s = out.len();
            out.resize(s + j.rows(), 0.0);
            j.position_residual(&view, q, t, &mut out[s..]);
        }
        out
    }

    /// Velocity residuals `f_q q̇ + f_t` of the normalisation and joint rows.
    pub fn velocity_residual(&self, t: f64, q: &[f64], qd: &[f64]) -> Result<Vec<f64>> {
        let (A, _) = self.constraints(t, q, qd)?;
        let mut c = vec![0.0; A.nrows()];
        let mut row = self.bodies.len();
        let view = self.view();
        for j in &self.joints {
            let r = j.rows();
            j.velocity_rhs(&view, q, t, &mut c[row..row + r]);
            row += r;
        }
        let m = self.bodies.len() + self.joints.iter().map(|j| j.rows()).sum::<usize>();
        Ok((0..m)
            .map(|i| (0..self.n).map(|j| A[(i, j)] * qd[j]).sum::<f64>() - c[i])
            .collect())
    }

    /// Makes `q̇` consistent with the velocity form of the normalisation and
    /// joint constraints: `q̇ ← q̇ − M̂⁻¹Aᵀ(AM̂⁻¹Aᵀ)⁺(Aq̇ − c)`, the smallest
    /// correction in the kinetic-energy metric (regularised as in
    /// [`MultibodySystem::acceleration`]). Extra acceleration-level
    /// constraints are not included.
    pub fn project_velocities(&self, t: f64, q: &[f64], qd: &mut [f64]) -> Result<()> {
        let r = self.velocity_residual(t, q, qd)?;
        let m = r.len();
        let zeros = vec![0.0; self.n];
        let (Afull, _) = self.constraints(t, q, &zeros)?;
        let A = Afull.as_ref().submatrix(0, 0, m, self.n).to_owned();
        let M = self.mass_matrix(q)?;
        let (Mh, _) = regularise(&M, &zeros, &A, &r, &self.blocks());
        // δ = M̂⁻¹Aᵀ(AM̂⁻¹Aᵀ)⁺ r is the UK correction with zero forces and b = r
        let sol = uk_acceleration(Mh.as_ref(), &zeros, A.as_ref(), &r).map_err(singular_msg)?;
        for i in 0..self.n {
            qd[i] -= sol.qdd[i];
        }
        Ok(())
    }

    /// Kinetic, gravitational and strain energy.
    pub fn energy(&self, q: &[f64], qd: &[f64]) -> Energy {
        let mut e = Energy::default();
        for (b, &o) in self.bodies.iter().zip(&self.offsets) {
            let k = b.n_coords();
            let (qb, qdb) = (&q[o..o + k], &qd[o..o + k]);
            e.kinetic += b.kinetic_energy(qb, qdb);
            e.gravity += b.gravity_energy(qb, self.gravity);
            e.strain += b.strain_energy(qb);
        }
        e
    }

    /// Total angular momentum about the global origin.
    pub fn angular_momentum(&self, q: &[f64], qd: &[f64]) -> Vec3 {
        let mut h = [0.0; 3];
        for (b, &o) in self.bodies.iter().zip(&self.offsets) {
            let k = b.n_coords();
            let hb = b.angular_momentum(&q[o..o + k], &qd[o..o + k]);
            for i in 0..3 {
                h[i] += hb[i];
            }
        }
        h
    }

    fn blocks(&self) -> Vec<std::ops::Range<usize>> {
        (0..self.bodies.len())
            .map(|k| self.body_range(BodyId(k)))
            .collect()
    }

    /// Names of the joints, in the order of their constraint rows.
    pub fn joint_names(&self) -> Vec<String> {
        self.joints.iter().map(|j| j.name().to_string()).collect()
    }
}

/// `M̂ = M + AᵀWA`, `Q̂ = Q + AᵀWb` with `W = diag(c_i/‖a_i‖²)`, `c_i` the
/// average over the columns row `i` touches of the mean diagonal entry of
/// the mass block of the column's body (see the module documentation).
fn regularise(
    M: &Mat<f64>,
    Q: &[f64],
    A: &Mat<f64>,
    b: &[f64],
    blocks: &[std::ops::Range<usize>],
) -> (Mat<f64>, Vec<f64>) {
    let n = M.nrows();
    let mut col_scale = vec![0.0; n];
    for r in blocks {
        let d = r.clone().map(|k| M[(k, k)]).sum::<f64>() / r.len().max(1) as f64;
        for k in r.clone() {
            col_scale[k] = d;
        }
    }
    let mut Mh = M.clone();
    let mut Qh = Q.to_vec();
    let mut cols = Vec::with_capacity(n);
    for i in 0..A.nrows() {
        cols.clear();
        let (mut a2, mut wsum, mut msum) = (0.0, 0.0, 0.0);
        for j in 0..n {
            let a = A[(i, j)];
            if a != 0.0 {
                cols.push((j, a));
                a2 += a * a;
                wsum += a.abs();
                msum += a.abs() * col_scale[j];
            }
        }
        if a2 == 0.0 {
            continue;
        }
        let w = (msum / wsum).max(f64::MIN_POSITIVE) / a2;
        for &(j, aj) in &cols {
            Qh[j] += w * aj * b[i];
            for &(k, ak) in &cols {
                Mh[(j, k)] += w * aj * ak;
            }
        }
    }
    (Mh, Qh)
}

fn singular_msg(e: ControlError) -> ControlError {
    match e {
        ControlError::Singular { rcond, .. } => ControlError::Singular {
            name: "M + AᵀWA (the generalised controllability matrix [M; A] is rank deficient: some acceleration is determined neither by inertia nor by a constraint)".into(),
            rcond,
        },
        e => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multibody::{
        Anchor, BodyPoint, FfrBeam, ReferenceConditions, RigidBody, SphericalJoint,
    };

    /// Bad input is a typed error naming the item: unknown body in a joint,
    /// duplicate joint name, a point using elastic coordinates the body does
    /// not have, a non-physical inertia tensor, wrong state sizes, and a
    /// body whose rotation is determined neither by inertia nor by a
    /// constraint (a point mass at its origin).
    #[test]
    fn errors_name_the_offending_item() {
        let mut sys = MultibodySystem::new();
        let b = sys.add_body(
            RigidBody::principal(1.0, [1.0, 1.0, 1.0])
                .build("a")
                .unwrap(),
        );
        let e = sys
            .add_joint(SphericalJoint::new(
                "j",
                Anchor::body(BodyId(3), BodyPoint::fixed([0.0; 3])),
                Anchor::Ground([0.0; 3]),
            ))
            .err()
            .unwrap();
        assert!(
            e.to_string().contains("`j`") && e.to_string().contains("body 3"),
            "{e}"
        );
        sys.add_joint(SphericalJoint::new(
            "j",
            Anchor::body(b, BodyPoint::fixed([0.0; 3])),
            Anchor::Ground([0.0; 3]),
        ))
        .unwrap();
        let e = sys
            .add_joint(SphericalJoint::new(
                "j",
                Anchor::body(b, BodyPoint::fixed([1.0; 3])),
                Anchor::Ground([0.0; 3]),
            ))
            .err()
            .unwrap();
        assert!(e.to_string().contains("already exists"), "{e}");
        let e = sys
            .add_joint(SphericalJoint::new(
                "k",
                Anchor::body(
                    b,
                    BodyPoint {
                        u0: [0.0; 3],
                        shape: vec![(0, [1.0, 0.0, 0.0])],
                    },
                ),
                Anchor::Ground([0.0; 3]),
            ))
            .err()
            .unwrap();
        assert!(e.to_string().contains("elastic coordinate 0"), "{e}");
        let e = RigidBody::principal(1.0, [1.0, 1.0, 3.0])
            .build("flat")
            .unwrap_err();
        assert!(
            e.to_string().contains("flat") && e.to_string().contains("triangle"),
            "{e}"
        );
        let e = sys.acceleration(0.0, &[0.0; 3], &[0.0; 7]).unwrap_err();
        assert!(e.to_string().contains("q"), "{e}");
        let e = FfrBeam::straight(1.0, 1, 1.0, 1.0, 1.0)
            .reference(ReferenceConditions::Cantilever { node: 0 })
            .build("b")
            .unwrap()
            .node_point(5)
            .unwrap_err();
        assert!(e.to_string().contains("node 5"), "{e}");
        // a point mass: no inertia about its origin, rotation free
        let mut sys = MultibodySystem::new();
        sys.add_body(RigidBody::principal(1.0, [0.0; 3]).build("p").unwrap());
        let q = sys.initial_coordinates();
        let e = sys.acceleration(0.0, &q, &[0.0; 7]).unwrap_err();
        assert!(e.to_string().contains("[M; A]"), "{e}");
    }
}
