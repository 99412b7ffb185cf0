//! The joint of seed 001 §5 (Fig. 3, eqs. (24)–(31)) on $G = SE(3)$ with the
//! corrections of the summary (§4, pitfalls 2–6): offsets act through
//! $\mathrm{Ad}_{o^{-1}}$, ports $p_1, p_2, p_{j1}, p_{j2}$ are $\mathfrak{se}(3)^*$, only
//! $p_r$ is $\tilde{\mathfrak g}^*$, and $C(q_r) = [\mathrm{Ad}_{I(q_r)^{-1}},\ -\mathrm{id},\ i]$.
//!
//! Pattern (Fig. 3): junctions `p1` = {o1.p1, outer p1}, `p_j1` = {o1.p_j1, hc.p_j1},
//! `p2` = {o2.p2, outer p2}, `p_j2` = {o2.p_j2, hc.p_j2}, `q_r` = {pe.q_r, pkc.q_r,
//! hc.q_r (state port)}, `p_r` = {pkc.p_r, hc.p_r, mf.p_r} (no storage: $u_r = p_r.e$ is
//! algebraic, pitfall 10), `s` = {mf.s, env.s}.
//!
//! | box | kind | equations |
//! |---|---|---|
//! | o1, o2 | transformer | $p_{j}.e = \mathrm{Ad}_{o^{-1}}(p.e)$, $p.f = -\mathrm{Ad}^*_{o^{-1}}(p_j.f)$ (eq. (27) corrected) |
//! | hc | constraint | $[f; 0] = [C^*; -C][e; \lambda_c]$, $\lambda_c \in \mathfrak g^*$ (eq. (28)) |
//! | pe | storage | $V_r(q_r)$ (eq. (25)) |
//! | pkc | reversible | $[q_r.f; p_r.f] = [[0, -1], [1, 0]][q_r.e; p_r.e]$ (eq. (26), trivialized) |
//! | mf | irreversible | $[p_r.f; s.f] = [\mu^\flat u_r;\ -\mu(u_r, u_r)/\theta]$ (eq. (29)) |
//! | env | environment | eq. (30) |
//!
//! Lower pairs (summary §11, joint axis $e_3$ of $C_1$/$C_2$): [`JointKind`].
use std::sync::Arc;

use crate::error::EphsError;
use crate::language::interface::{Interface, PortKind};
use crate::language::operators::{
    ConstantMatrix, ConstraintOperator, Energy, OnsagerOperator, TransformerOperator, ZeroEnergy,
};
use crate::language::pattern::Pattern;
use crate::language::primitive::Primitive;
use crate::language::quantity::Quantity;
use crate::language::space::{Group, Space};
use crate::language::system::Composite;
use crate::library::mechanics::{environment, NonlinearFriction, NonlinearFrictionLaw};
use phlex_core::geometry::mat3::from_row_major;
use phlex_core::geometry::Mat6;
use phlex_core::geometry::{so3, Se3};

/// A lower kinematic pair as a subgroup $\tilde G \subset SE(3)$ (summary §11).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JointKind {
    /// $SO(2)$, $q_r = \varphi$, $I = (\mathrm{Rot}_z\varphi, 0)$, $i(u) = (ue_3, 0)$.
    Revolute,
    /// $\mathbb R$, $q_r = d$, $I = (E, de_3)$, $i(u) = (0, ue_3)$.
    Prismatic,
    /// $SO(2)\times\mathbb R$, $(\varphi, d)$, $I = (\mathrm{Rot}_z\varphi, de_3)$.
    Cylindrical,
    /// Screw with pitch $h$: $q_r = \varphi$, $I = (\mathrm{Rot}_z\varphi, h\varphi e_3)$,
    /// $i(u) = (ue_3, hue_3)$.
    Screw {
        /// Pitch $h$ (translation per radian).
        pitch: f64,
    },
    /// $SE(2)$, $(\varphi, x, y)$, $I = (\mathrm{Rot}_z\varphi, (x, y, 0))$,
    /// $i(u) = ((0, 0, u_1), (u_2, u_3, 0))$.
    Planar,
    /// $SO(3)$, $q_r = R_r$, $I = (R_r, 0)$, $i(u) = (u, 0)$.
    Spherical,
}

impl JointKind {
    /// The subgroup $\tilde G$ as a state space group.
    pub fn group(&self) -> Group {
        match self {
            JointKind::Revolute | JointKind::Screw { .. } => Group::So2,
            JointKind::Prismatic => Group::Translation(1),
            JointKind::Cylindrical => Group::So2xR,
            JointKind::Planar => Group::Se2,
            JointKind::Spherical => Group::So3,
        }
    }
    /// $k = \dim\tilde G$.
    pub fn dim(&self) -> usize {
        self.group().dim()
    }
    /// Name used in messages.
    pub fn name(&self) -> &'static str {
        match self {
            JointKind::Revolute => "revolute",
            JointKind::Prismatic => "prismatic",
            JointKind::Cylindrical => "cylindrical",
            JointKind::Screw { .. } => "screw",
            JointKind::Planar => "planar",
            JointKind::Spherical => "spherical",
        }
    }
    /// The inclusion $I(q_r) \in SE(3)$ from the coordinates of $q_r$.
    pub fn inclusion(&self, x: &[f64]) -> Se3 {
        match *self {
            JointKind::Revolute => Se3::rotation(so3::rotation_z(x[0])),
            JointKind::Prismatic => Se3::translation([0.0, 0.0, x[0]]),
            JointKind::Cylindrical => Se3::new(so3::rotation_z(x[0]), [0.0, 0.0, x[1]]),
            JointKind::Screw { pitch } => Se3::new(so3::rotation_z(x[0]), [0.0, 0.0, pitch * x[0]]),
            JointKind::Planar => Se3::new(so3::rotation_z(x[0]), [x[1], x[2], 0.0]),
            JointKind::Spherical => Se3::rotation(from_row_major(x)),
        }
    }
    /// Coordinates of the subgroup element nearest to the relative pose `q` (the inverse of
    /// [`JointKind::inclusion`] on $I(\tilde G)$; components of `q` outside the subgroup are
    /// dropped): $\varphi = \operatorname{atan2}(R_{21}, R_{11}) \in (-\pi, \pi]$ for the
    /// rotation about $e_3$, $d = r_3$, $(x, y) = (r_1, r_2)$, $R_r = R$ for the spherical pair.
    pub fn coordinates_of(&self, q: &Se3) -> Vec<f64> {
        let phi = q.R[1][0].atan2(q.R[0][0]);
        match self {
            JointKind::Revolute | JointKind::Screw { .. } => vec![phi],
            JointKind::Prismatic => vec![q.r[2]],
            JointKind::Cylindrical => vec![phi, q.r[2]],
            JointKind::Planar => vec![phi, q.r[0], q.r[1]],
            JointKind::Spherical => q.R.iter().flatten().copied().collect(),
        }
    }
    /// Column `c` of $i$ (the image of the unit vector $e_c$ of $\tilde{\mathfrak g}$ in $\mathbb R^6$).
    pub fn i_column(&self, c: usize) -> [f64; 6] {
        let mut v = [0.0; 6];
        match (*self, c) {
            (JointKind::Revolute, 0) | (JointKind::Cylindrical, 0) | (JointKind::Planar, 0) => {
                v[2] = 1.0
            }
            (JointKind::Prismatic, 0) | (JointKind::Cylindrical, 1) => v[5] = 1.0,
            (JointKind::Screw { pitch }, 0) => {
                v[2] = 1.0;
                v[5] = pitch;
            }
            (JointKind::Planar, 1) => v[3] = 1.0,
            (JointKind::Planar, 2) => v[4] = 1.0,
            (JointKind::Spherical, k) => v[k] = 1.0,
            _ => {}
        }
        v
    }
    /// Quantity of the relative pose $(\tilde G, \text{relative\_pose})$.
    pub fn relative_pose(&self) -> Quantity {
        Quantity::new("relative_pose", Space::Group(self.group()))
    }
    /// Quantity of the joint momentum $(\tilde{\mathfrak g}^*, \text{momentum})$.
    pub fn momentum(&self) -> Quantity {
        Quantity::new("momentum", Space::CoAlgebra(self.group()))
    }
}

fn ad_matrix_flat(A: &Mat6, out: &mut [f64], row_stride: usize, col0: usize) {
    for i in 0..6 {
        for j in 0..6 {
            out[i * row_stride + col0 + j] = A[i][j];
        }
    }
}

/// The offset operator $T = \mathrm{Ad}_{o^{-1}}$ (6×6) of eq. (27), keeping $o$ for the
/// drift monitor and the position projection ([`crate::library::kinematics`]).
#[derive(Debug, Clone, PartialEq)]
pub struct OffsetOperator {
    /// The offset $o$ (joint frame in the body frame).
    pub o: Se3,
    T: Vec<f64>,
}

impl OffsetOperator {
    /// The operator of offset `o`.
    pub fn new(o: Se3) -> Self {
        let mut T = vec![0.0; 36];
        ad_matrix_flat(&o.inverse().Ad_matrix(), &mut T, 6, 0);
        Self { o, T }
    }
}

impl TransformerOperator for OffsetOperator {
    fn matrix(&self, _x: &[f64], T: &mut [f64]) {
        T.copy_from_slice(&self.T);
    }
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}

/// Offset transformer `o` with ports `p` and `p_j` (both $(\mathfrak{se}(3)^*, \text{momentum})$):
/// $p_j.e = \mathrm{Ad}_{o^{-1}}(p.e)$, $p.f = -\mathrm{Ad}^*_{o^{-1}}(p_j.f)$.
pub fn offset(name: &str, o: Se3, p: &str, pj: &str) -> Result<Primitive, EphsError> {
    Primitive::transformer(
        name,
        Interface::new()
            .power(p, Quantity::body_momentum())?
            .power(pj, Quantity::body_momentum())?,
        Arc::new(OffsetOperator::new(o)),
        &[pj],
        &[],
    )
}

/// The constraint operator of `hc` (eq. (28)): $C(q_r) = [\mathrm{Ad}_{I(q_r)^{-1}},\ -I_6,\ i]$
/// on $(p_{j1}.e, p_{j2}.e, p_r.e)$, 6 multipliers; `x` = (q_r, p_j1, p_j2, p_r states).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointConstraint {
    /// The lower pair.
    pub kind: JointKind,
}

impl ConstraintOperator for JointConstraint {
    fn multipliers(&self) -> usize {
        6
    }
    fn matrix(&self, x: &[f64], C: &mut [f64]) {
        let kind = self.kind;
        let k = kind.dim();
        let n = 12 + k;
        let A = kind.inclusion(x).inverse().Ad_matrix();
        C.iter_mut().for_each(|v| *v = 0.0);
        ad_matrix_flat(&A, C, n, 0);
        for i in 0..6 {
            C[i * n + 6 + i] = -1.0;
        }
        for c in 0..k {
            let col = kind.i_column(c);
            for i in 0..6 {
                C[i * n + 12 + c] = col[i];
            }
        }
    }
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}

/// Holonomic constraint `hc` (eq. (28)): state port `q_r`, power ports `p_j1`, `p_j2`
/// ($\mathfrak{se}(3)^*$), `p_r` ($\tilde{\mathfrak g}^*$);
/// $C(q_r) = [\mathrm{Ad}_{I(q_r)^{-1}},\ -I_6,\ i]$, 6 multipliers ([`JointConstraint`]).
pub fn holonomic_constraint(kind: JointKind) -> Result<Primitive, EphsError> {
    Primitive::constraint(
        &format!("holonomic_constraint({})", kind.name()),
        Interface::new()
            .state("q_r", kind.relative_pose())?
            .power("p_j1", Quantity::body_momentum())?
            .power("p_j2", Quantity::body_momentum())?
            .power("p_r", kind.momentum())?,
        Arc::new(JointConstraint { kind }),
        &[],
    )
}

/// Potential–kinetic coupling of the joint (eq. (26)) in trivialized variables.
pub fn joint_pkc(kind: JointKind) -> Result<Primitive, EphsError> {
    let k = kind.dim();
    let mut J = vec![0.0; 4 * k * k];
    for c in 0..k {
        J[c * 2 * k + k + c] = -1.0;
        J[(k + c) * 2 * k + c] = 1.0;
    }
    Primitive::poisson(
        &format!("joint_pkc({})", kind.name()),
        Interface::new()
            .power("q_r", kind.relative_pose())?
            .power("p_r", kind.momentum())?,
        Arc::new(ConstantMatrix::new(2 * k, J)),
        &[],
    )
}

/// Relative potential `pe` on `q_r` (eq. (25)); `None` gives $V_r = 0$.
pub fn relative_potential(
    kind: JointKind,
    energy: Option<Arc<dyn Energy>>,
) -> Result<Primitive, EphsError> {
    Primitive::storage(
        &format!("relative_potential({})", kind.name()),
        Interface::new().power("q_r", kind.relative_pose())?,
        energy.unwrap_or_else(|| Arc::new(ZeroEnergy)),
    )
}

/// Onsager structure of joint friction (eq. (29)) for a constant symmetric PSD
/// $\mu$ ($k\times k$): $M = \begin{bmatrix}\theta\mu & -\mu u\\ -u^\top\mu & u^\top\mu u/\theta\end{bmatrix}$,
/// $u = p_r.e$, $\theta = \theta_0 + s.e$; $M[u; \theta] = 0$.
#[derive(Debug, Clone, PartialEq)]
pub struct JointFriction {
    /// $k$.
    pub k: usize,
    /// $\mu$, row-major $k\times k$.
    pub mu: Vec<f64>,
}

impl OnsagerOperator for JointFriction {
    fn matrix(&self, _x: &[f64], e: &[f64], theta0: f64, M: &mut [f64]) {
        let k = self.k;
        let n = k + 1;
        let theta = theta0 + e[k];
        let mut mu_u = vec![0.0; k];
        for i in 0..k {
            mu_u[i] = (0..k).map(|j| self.mu[i * k + j] * e[j]).sum();
        }
        let umu: f64 = (0..k).map(|i| e[i] * mu_u[i]).sum();
        for i in 0..k {
            for j in 0..k {
                M[i * n + j] = theta * self.mu[i * k + j];
            }
            M[i * n + k] = -mu_u[i];
            M[k * n + i] = -mu_u[i];
        }
        M[k * n + k] = umu / theta;
    }
}

/// Mechanical friction `mf` of the joint with ports `p_r` and `s`.
pub fn joint_friction(kind: JointKind, mu: Vec<f64>) -> Result<Primitive, EphsError> {
    let k = kind.dim();
    if mu.len() != k * k {
        return Err(EphsError::Dimension {
            what: format!("friction matrix μ of a {} joint (k×k)", kind.name()),
            expected: k * k,
            found: mu.len(),
        });
    }
    let p = Primitive::irreversible(
        &format!("joint_friction({})", kind.name()),
        Interface::new()
            .power("p_r", kind.momentum())?
            .power("s", Quantity::entropy())?,
        Arc::new(JointFriction { k, mu }),
        &[],
    )?;
    // μ must be symmetric PSD: check M at a generic point.
    let e: Vec<f64> = (0..=k).map(|i| 0.3 + 0.1 * i as f64).collect();
    let x = vec![0.0; p.state_coords()];
    p.verify_structure(&x, &e, 300.0, 1e-10)?;
    Ok(p)
}

/// Nonlinear (regularised Coulomb + viscous) joint friction `mf` with ports `p_r` and `s`:
/// the isotropic Onsager structure [`NonlinearFriction`] on the $k$ joint velocities,
/// friction force (torque) $c(\lvert u\rvert)\,u$ with $u = p_r.e$
/// ([`NonlinearFrictionLaw::coefficient`]).
pub fn nonlinear_joint_friction(
    kind: JointKind,
    law: NonlinearFrictionLaw,
) -> Result<Primitive, EphsError> {
    let law = NonlinearFrictionLaw::new(law.d, law.mu_c, law.v_s)?;
    Primitive::irreversible(
        &format!(
            "nonlinear_joint_friction({}, d = {}, mu_c = {}, v_s = {})",
            kind.name(),
            law.d,
            law.mu_c,
            law.v_s
        ),
        Interface::new()
            .power("p_r", kind.momentum())?
            .power("s", Quantity::entropy())?,
        Arc::new(NonlinearFriction { k: kind.dim(), law }),
        &[],
    )
}

/// Parameters of a joint.
#[derive(Clone)]
pub struct JointParams {
    /// The lower pair.
    pub kind: JointKind,
    /// Offset $o_1$: joint frame $C_1$ in body frame $B_1$.
    pub o1: Se3,
    /// Offset $o_2$: joint frame $C_2$ in body frame $B_2$.
    pub o2: Se3,
    /// Relative potential $V_r$ (None: 0).
    pub potential: Option<Arc<dyn Energy>>,
    /// Friction $\mu$ ($k\times k$, row-major, symmetric PSD).
    pub friction: Vec<f64>,
}

/// The joint pattern of Fig. 3 (boxes hc, o1, o2, pe, pkc, mf, env; outer ports p1, p2).
pub fn joint_pattern(kind: JointKind) -> Result<Pattern, EphsError> {
    let mut p = Pattern::new("joint");
    let g = Quantity::body_momentum();
    for j in ["p1", "p_j1", "p2", "p_j2"] {
        p.add_junction(j, g.clone())?;
    }
    p.add_junction("q_r", kind.relative_pose())?;
    p.add_junction("p_r", kind.momentum())?;
    p.add_junction("s", Quantity::entropy())?;
    p.expose("p1", "p1", PortKind::Power)?;
    p.expose("p2", "p2", PortKind::Power)?;
    let iface = |ports: &[(&str, Quantity, PortKind)]| -> Result<Interface, EphsError> {
        let mut i = Interface::new();
        for (n, q, k) in ports {
            i.add(n, q.clone(), *k)?;
        }
        Ok(i)
    };
    use PortKind::{Power, State};
    p.add_box(
        "hc",
        iface(&[
            ("q_r", kind.relative_pose(), State),
            ("p_j1", g.clone(), Power),
            ("p_j2", g.clone(), Power),
            ("p_r", kind.momentum(), Power),
        ])?,
        &[
            ("q_r", "q_r"),
            ("p_j1", "p_j1"),
            ("p_j2", "p_j2"),
            ("p_r", "p_r"),
        ],
    )?;
    p.add_box(
        "o1",
        iface(&[("p1", g.clone(), Power), ("p_j1", g.clone(), Power)])?,
        &[("p1", "p1"), ("p_j1", "p_j1")],
    )?;
    p.add_box(
        "o2",
        iface(&[("p2", g.clone(), Power), ("p_j2", g.clone(), Power)])?,
        &[("p2", "p2"), ("p_j2", "p_j2")],
    )?;
    p.add_box(
        "pe",
        iface(&[("q_r", kind.relative_pose(), Power)])?,
        &[("q_r", "q_r")],
    )?;
    p.add_box(
        "pkc",
        iface(&[
            ("q_r", kind.relative_pose(), Power),
            ("p_r", kind.momentum(), Power),
        ])?,
        &[("q_r", "q_r"), ("p_r", "p_r")],
    )?;
    p.add_box(
        "mf",
        iface(&[
            ("p_r", kind.momentum(), Power),
            ("s", Quantity::entropy(), Power),
        ])?,
        &[("p_r", "p_r"), ("s", "s")],
    )?;
    p.add_box(
        "env",
        iface(&[("s", Quantity::entropy(), Power)])?,
        &[("s", "s")],
    )?;
    Ok(p)
}

/// A filled joint (Fig. 3).
pub fn joint(params: &JointParams) -> Result<Composite, EphsError> {
    joint_with_friction(
        params,
        joint_friction(params.kind, params.friction.clone())?,
    )
}

/// A filled joint (Fig. 3) whose friction box `mf` (ports `p_r`, `s`) is filled by `mf`,
/// e.g. [`nonlinear_joint_friction`]; `params.friction` is not used.
pub fn joint_with_friction(params: &JointParams, mf: Primitive) -> Result<Composite, EphsError> {
    let kind = params.kind;
    let mut c = Composite::new(joint_pattern(kind)?)?;
    c.fill("hc", holonomic_constraint(kind)?)?
        .fill("o1", offset("offset_1", params.o1, "p1", "p_j1")?)?
        .fill("o2", offset("offset_2", params.o2, "p2", "p_j2")?)?
        .fill("pe", relative_potential(kind, params.potential.clone())?)?
        .fill("pkc", joint_pkc(kind)?)?
        .fill("mf", mf)?
        .fill("env", environment())?;
    Ok(c)
}

/// Coordinates of the identity of a joint's relative pose.
pub fn identity_coords(kind: JointKind) -> Vec<f64> {
    let s = Space::Group(kind.group());
    let mut x = vec![0.0; s.coords()];
    s.identity(&mut x);
    x
}

/// Coordinates of $q_r$ for a spherical joint with $R_r = \exp\tilde\omega$.
pub fn spherical_coords(omega: [f64; 3]) -> Vec<f64> {
    let R = so3::exp(omega);
    R.iter().flatten().copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonlinear_joint_friction_verifies_at_random_states() {
        // Symmetric PSD and M[u; θ] = 0 for every pair (k = 1, 2, 3) at pseudo-random
        // efforts spanning |u| ≪ v_s to |u| ≫ v_s.
        let law = NonlinearFrictionLaw::new(0.1, 0.3, 1e-2).unwrap();
        for kind in [
            JointKind::Revolute,
            JointKind::Cylindrical,
            JointKind::Planar,
            JointKind::Spherical,
        ] {
            let p = nonlinear_joint_friction(kind, law).unwrap();
            let x = vec![0.0; p.state_coords()];
            for s in 0..20 {
                let e: Vec<f64> = (0..=kind.dim())
                    .map(|i| ((s * 7 + i * 3) as f64).sin() * 10f64.powi(s as i32 % 6 - 4))
                    .collect();
                p.verify_structure(&x, &e, 300.0, 1e-12).unwrap();
            }
        }
        assert!(matches!(
            nonlinear_joint_friction(JointKind::Revolute, NonlinearFrictionLaw { d: 0.0, mu_c: 1.0, v_s: -1.0 }),
            Err(EphsError::Parameter { what, .. }) if what == "regularization_velocity"
        ));
    }

    #[test]
    fn coordinates_of_inverts_the_inclusion() {
        let cases: Vec<(JointKind, Vec<f64>)> = vec![
            (JointKind::Revolute, vec![0.7]),
            (JointKind::Prismatic, vec![-0.3]),
            (JointKind::Cylindrical, vec![-2.0, 0.4]),
            (JointKind::Screw { pitch: 0.05 }, vec![1.1]),
            (JointKind::Planar, vec![2.5, 0.3, -1.2]),
            (JointKind::Spherical, spherical_coords([0.3, -0.2, 0.9])),
        ];
        for (kind, x) in cases {
            let c = kind.coordinates_of(&kind.inclusion(&x));
            for (a, b) in c.iter().zip(&x) {
                assert!((a - b).abs() < 1e-15, "{}: {c:?} {x:?}", kind.name());
            }
        }
    }
}
