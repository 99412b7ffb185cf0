//! A planar floating body (rigid or flexible) as a quasilinear pH system with constant
//! descriptor, paper 000 eqs. (36)–(41):
//! $$\begin{bmatrix}I & 0\\ 0 & M\end{bmatrix}\begin{pmatrix}\dot q\\ \dot p\end{pmatrix}
//!   = \begin{bmatrix}0 & J_{qp}(q)\\ -J_{qp}(q)^\top & J_{pp}(p)\end{bmatrix}
//!     \begin{pmatrix}\partial_q H\\ p\end{pmatrix} + \begin{bmatrix}0\\ B\end{bmatrix}u,
//!   \qquad y = B^\top p .$$
//!
//! With [`crate::FloatingBeam2d::full_inertia`] the mass operator depends on the elastic
//! displacement and the body is written in momentum form with a state-dependent
//! descriptor, eqs. (F1)–(F5) of [`super::full_inertia`]; everything below describes the default
//! constant operator.
//!
//! **State** (local ordering): $q = ({}^i r_P, \theta, u_f)$ — position of the reference
//! point $P$ in the inertial frame, body angle, elastic displacement coefficients —
//! and the co-energy variables $p = (v_P, \omega, v_f, \sigma)$: velocity of $P$ **in the body
//! frame**, angular velocity, elastic velocity coefficients and stress resultants
//! ($n_x$, $m_x$ for a beam). The momenta are $M p$; the planar angle replaces
//! $R_v$ of the paper (for a planar body $R_v$ is a function of $\theta$).
//!
//! **Mass operator** (eq. (37)). The inertia is described by *mass points*: a point of mass
//! $w_k$ at undeformed body position $x_k$ with elastic displacement $N_k u_f$ and rotation
//! $n_{r,k} u_f$ has velocity $A_k p = v_P + \omega\,\hat z\times x_k + N_k v_f$, so
//! $$M = \sum_k w_k A_k^\top A_k + I_k b_k b_k^\top + \operatorname{diag}(0, C_\sigma),\qquad
//!   b_k = e_\omega + n_{r,k}.$$
//! For a beam the points are Gauss points of weight $\rho A\,\mathrm dx$ (exact for the
//! polynomial integrands), which produces $m$, $s^x$, $J^{zz}$, $\mathcal I_\rho^L$ and
//! $\mathcal I_{\rho x}^L$ of eq. (37) (with the erratum: entry (3,5) is $\mathcal I_{\rho x}^L$);
//! lumped masses at ports (paper §6.2) are extra points, a rigid body is one point at its
//! centre of mass plus a rotary inertia.
//!
//! **Interconnection operator** (eq. (38)). With $S(a) = (a_y, -a_x)$ ($a\times\omega\hat z
//! = \omega S(a)$):
//! * $J[{}^ir_P, v_P] = R(\theta)$, $J[\theta,\omega] = 1$, $J[u_f, v_f] = I$ (and the negative
//!   transposes): the kinematics ${}^i\dot r_P = R v_P$, $\dot\theta = \omega$,
//!   $\dot u_f = v_f$;
//! * $J[v_P, \omega] = S(\hat p_t)$ with $\hat p_t = p_t + \int\rho v_f$ (eq. (13)), the
//!   momentum-dependent gyroscopic term; $J[\omega, v_P] = -S(\hat p_t)^\top$;
//! * $J[v_f, \omega] = \sum_k N_k^\top S\big(w_k(c\,A_k p + N_k v_f)\big)$, the flexible
//!   gyroscopic coupling $(\mathcal I^L_{p_f})^*$ of eq. (38), and its negative transpose in
//!   the $\omega$ row;
//! * $J[v_f, \sigma] = -D^\top$, $J[\sigma, v_f] = D$ (the PFEM differential operators after
//!   integration by parts).
//!
//! *The coefficient $c$.* The paper writes $\mathcal I_{p_f} = \int(2p_f + \rho v_f)$ ($c = 2$):
//! the 2 compensates $\delta_{u_f}H_{kin} = p_f\times\omega$ (§3.2), which exists only if the
//! momenta depend on $u_f$. §4.3 neglects that dependence (constant mass operator (37)), so
//! $\delta_{u_f}H_{kin} = 0$ and the consistent coefficient is $c = 1$: it gives the flexible
//! equation $\rho(\dot v_P + \dot\omega\hat z\times x + \dot v_f) =
//! \rho(v_P + \omega\hat z\times x + 2v_f)\times\omega\hat z + \dots$, i.e. the exact transport, centrifugal and Coriolis
//! forces of the classical floating-frame equation (7) with $x_f \approx x$. With $c = 2$ and
//! a constant $M$ these forces are doubled (e.g. twice the centrifugal normal force of a
//! spinning beam; see the tests). phlex uses $c = 1$ by default
//! ([`Gyroscopic::Consistent`]); [`Gyroscopic::PaperLiteral`] keeps $c = 2$. Both give a
//! skew-symmetric $J$, hence exact energy conservation.
//!
//! **Potential** (Remark 2): gravity $\vec g$ (inertial) gives
//! $V = -\vec g\cdot\big(m\,{}^ir_P + R(\theta)(s + W u_f)\big)$ with $s = \sum w_k x_k$ and
//! $W = \sum_k w_k N_k$. Since $E_{qq} = I$, $z_q = \partial_q V$ (the paper's
//! $z_u = M_u^{-1}\partial_{u_f}H$ with the displacement written in the same basis).
//!
//! **Ports** (eq. (39)–(40)): a port at undeformed body point $x_a$ with elastic shape
//! $(N_a, n_{r,a})$ takes the force and torque $(F_x, F_y, T)$ applied there, **in the body
//! frame**; its output is the body-frame velocity and the angular velocity of the point,
//! $(v_P + \omega\hat z\times x_a + N_a v_f,\ \omega + n_{r,a}v_f)$. For a beam point on the
//! axis these are the columns $[I_3, \tau_{CP}^\top]$ of $B_r$ and $B_f$.
use phlex_core::sparse::{self, SparseMat};
use phlex_core::{PhSystem, PortSet, Triplets, VarBlock};

use crate::body::floating_beam::planar::BeamShapes;
use crate::body::floating_body::{EnergySplit, FloatingBody};
use crate::body::planar::pose::{apply2, drot2, rot2, Pose2d, Twist2d};
use crate::body::planar::stiffening::VonKarman;
use crate::error::MbsError;

use super::full_inertia::FullInertia;
use crate::body::layout;

/// Elastic shape of a material point: its displacement is $(n_x\cdot u_f, n_y\cdot u_f)$ and
/// its rotation $n_r\cdot u_f$ (sparse, indices into the elastic coefficients).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PointShape {
    /// Axial displacement functional.
    pub nx: Vec<(usize, f64)>,
    /// Transverse displacement functional.
    pub ny: Vec<(usize, f64)>,
    /// Rotation (slope) functional.
    pub nr: Vec<(usize, f64)>,
}

impl PointShape {
    /// The shape of a point of a rigid body (no elastic motion).
    pub fn rigid() -> Self {
        Self::default()
    }

    fn dot(v: &[(usize, f64)], u: &[f64]) -> f64 {
        v.iter().map(|&(i, a)| a * u[i]).sum()
    }
}

/// A concentrated mass with rotary inertia attached to a body (a mass point of the mass
/// operator).
#[derive(Debug, Clone, PartialEq)]
pub struct MassPoint {
    /// Undeformed position in the body frame \[m\].
    pub x: [f64; 2],
    /// Mass $w_k$ \[kg\].
    pub mass: f64,
    /// Rotary inertia $I_k$ about the point \[kg m²\].
    pub rotary_inertia: f64,
    /// Elastic shape at the point.
    pub shape: PointShape,
}

/// A named attachment point of a planar body (a power port of dimension 3).
#[derive(Debug, Clone, PartialEq)]
pub struct PlanarPort {
    /// Port name, unique within the body.
    pub name: String,
    /// Undeformed position in the body frame \[m\].
    pub x: [f64; 2],
    /// Elastic shape at the point.
    pub shape: PointShape,
}

/// Coefficient of the flexible gyroscopic operator (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Gyroscopic {
    /// $c = 1$: consistent with the constant mass operator (default).
    #[default]
    Consistent,
    /// $c = 2$ as printed in paper 000 eq. (38).
    PaperLiteral,
}

impl Gyroscopic {
    fn factor(self) -> f64 {
        match self {
            Gyroscopic::Consistent => 1.0,
            Gyroscopic::PaperLiteral => 2.0,
        }
    }
}

/// Flexible part of a planar body: stresses, compliance and the differential operator.
#[derive(Debug, Clone)]
pub(crate) struct Flexible {
    /// Number of elastic coefficients $n_f$.
    pub n_f: usize,
    /// Number of stress coefficients $n_\sigma$.
    pub n_s: usize,
    /// Compliance matrix $C_\sigma$ ($n_\sigma\times n_\sigma$).
    pub C: SparseMat,
    /// $D$ ($n_\sigma\times n_f$): $C\dot\sigma = D v_f$.
    pub D: SparseMat,
    /// Geometric stiffening (state-dependent $D_{nl}(u_f)$), if switched on.
    pub stiffening: Option<VonKarman>,
    /// Block names and meanings of $(u_f, v_f, \sigma)$.
    pub names: [(&'static str, &'static str); 3],
}

/// A planar floating body in pH form (see the module documentation).
#[derive(Debug, Clone)]
pub struct PlanarBody {
    name: String,
    n_f: usize,
    n_s: usize,
    M: SparseMat,
    D: SparseMat,
    T_t: SparseMat,
    G_f: SparseMat,
    mass: f64,
    first_moment: [f64; 2],
    W: SparseMat,
    ports: Vec<PlanarPort>,
    port_maps: Vec<SparseMat>,
    gravity: [f64; 2],
    pose: Pose2d,
    twist: Twist2d,
    port_set: PortSet,
    blocks: Vec<VarBlock>,
    E: SparseMat,
    beam: Option<BeamShapes>,
    stiffening: Option<VonKarman>,
    /// Deformation-dependent inertia ([`super::full_inertia`]), if switched on.
    full: Option<FullInertia>,
}

impl PlanarBody {
    /// Assembles the body from its mass points, ports and (optional) flexible part.
    pub(crate) fn new(
        name: &str,
        points: &[MassPoint],
        ports: Vec<PlanarPort>,
        flexible: Option<Flexible>,
        gyroscopic: Gyroscopic,
        pose: Pose2d,
        twist: Twist2d,
    ) -> Result<Self, MbsError> {
        let (n_f, n_s) = flexible.as_ref().map_or((0, 0), |f| (f.n_f, f.n_s));
        let n_p = 3 + n_f + n_s;
        let c = gyroscopic.factor();
        let mut tm = Triplets::new(n_p, n_p);
        let mut tt = Triplets::new(2, n_p);
        let mut tg = Triplets::new(n_f, n_p);
        let mut tw = Triplets::new(2, n_f);
        let mut mass = 0.0;
        let mut s = [0.0; 2];
        for pt in points {
            let w = pt.mass;
            mass += w;
            s[0] += w * pt.x[0];
            s[1] += w * pt.x[1];
            // Rows of A_k (velocity of the point) as sparse lists over p.
            let ax = Self::velocity_row(0, pt.x, &pt.shape.nx);
            let ay = Self::velocity_row(1, pt.x, &pt.shape.ny);
            for &(i, a) in ax.iter() {
                for &(j, b) in ax.iter() {
                    tm.push(i, j, w * a * b);
                }
            }
            for &(i, a) in ay.iter() {
                for &(j, b) in ay.iter() {
                    tm.push(i, j, w * a * b);
                }
            }
            if pt.rotary_inertia != 0.0 {
                let mut b: Vec<(usize, f64)> = vec![(2, 1.0)];
                b.extend(pt.shape.nr.iter().map(|&(i, v)| (3 + i, v)));
                for &(i, a) in &b {
                    for &(j, bb) in &b {
                        tm.push(i, j, pt.rotary_inertia * a * bb);
                    }
                }
            }
            // p̂_t = Σ w (A_k + [0 0 N_k]) p.
            let hx = Self::hat_row_scaled(&ax, &pt.shape.nx, 1.0);
            let hy = Self::hat_row_scaled(&ay, &pt.shape.ny, 1.0);
            for &(j, v) in &hx {
                tt.push(0, j, w * v);
            }
            for &(j, v) in &hy {
                tt.push(1, j, w * v);
            }
            // G_f += w (n_xᵀ Â^c_y − n_yᵀ Â^c_x), Â^c = c A_k + [0 0 N_k].
            let cx = Self::hat_row_scaled(&ax, &pt.shape.nx, c);
            let cy = Self::hat_row_scaled(&ay, &pt.shape.ny, c);
            for &(i, a) in &pt.shape.nx {
                for &(j, v) in &cy {
                    tg.push(i, j, w * a * v);
                }
            }
            for &(i, a) in &pt.shape.ny {
                for &(j, v) in &cx {
                    tg.push(i, j, -w * a * v);
                }
            }
            for &(i, a) in &pt.shape.nx {
                tw.push(0, i, w * a);
            }
            for &(i, a) in &pt.shape.ny {
                tw.push(1, i, w * a);
            }
        }
        let (D, names, stiffening) = match &flexible {
            Some(f) => {
                tm.push_block(3 + n_f, 3 + n_f, &f.C, 1.0);
                (f.D.clone(), f.names, f.stiffening.clone())
            }
            None => (sparse::zeros(0, 0), layout::ELASTIC_NAMES, None),
        };
        let port_maps = ports
            .iter()
            .map(|p| Self::port_map(n_p, p))
            .collect::<Vec<_>>();
        let port_set = layout::port_set(
            name,
            3,
            ports
                .iter()
                .map(|p| {
                    (
                        p.name.clone(),
                        format!(
                            "force and torque applied at '{}' in the body frame [N, N, N m]",
                            p.name
                        ),
                        format!(
                            "velocity and angular velocity of '{}' in the body frame [m/s, m/s, rad/s]",
                            p.name
                        ),
                    )
                })
                .collect(),
        )?;
        let M = tm.build();
        let n_q = 3 + n_f;
        let E = layout::constant_descriptor(n_q, &M);
        let blocks = layout::variable_blocks(
            name,
            &layout::PLANAR_POSE,
            &layout::PLANAR_TWIST,
            names,
            n_f,
            n_s,
        );
        Ok(Self {
            name: name.to_string(),
            n_f,
            n_s,
            M,
            D,
            T_t: tt.build(),
            G_f: tg.build(),
            mass,
            first_moment: s,
            W: tw.build(),
            ports,
            port_maps,
            gravity: [0.0; 2],
            pose,
            twist,
            port_set,
            blocks,
            E,
            beam: None,
            stiffening,
            full: None,
        })
    }

    /// Row of $A_k$ for component `comp` (0: x, 1: y) over $p$ (local indices).
    fn velocity_row(comp: usize, x: [f64; 2], n: &[(usize, f64)]) -> Vec<(usize, f64)> {
        let mut r = Vec::with_capacity(2 + n.len());
        if comp == 0 {
            r.push((0, 1.0));
            if x[1] != 0.0 {
                r.push((2, -x[1]));
            }
        } else {
            r.push((1, 1.0));
            if x[0] != 0.0 {
                r.push((2, x[0]));
            }
        }
        r.extend(n.iter().map(|&(i, v)| (3 + i, v)));
        r
    }

    /// $c\,a + [0\ 0\ N]$.
    fn hat_row_scaled(a: &[(usize, f64)], n: &[(usize, f64)], c: f64) -> Vec<(usize, f64)> {
        let mut r: Vec<(usize, f64)> = a.iter().map(|&(j, v)| (j, c * v)).collect();
        r.extend(n.iter().map(|&(i, v)| (3 + i, v)));
        r
    }

    /// $B_a$ ($n_p\times 3$): columns for $F_x$, $F_y$, $T$ at the port.
    fn port_map(n_p: usize, p: &PlanarPort) -> SparseMat {
        let mut t = Triplets::new(n_p, 3);
        for (j, v) in Self::velocity_row(0, p.x, &p.shape.nx) {
            t.push(j, 0, v);
        }
        for (j, v) in Self::velocity_row(1, p.x, &p.shape.ny) {
            t.push(j, 1, v);
        }
        t.push(2, 2, 1.0);
        for &(i, v) in &p.shape.nr {
            t.push(3 + i, 2, v);
        }
        t.build()
    }

    /// Sets the gravity vector (inertial frame) \[m/s²\].
    pub(crate) fn set_gravity(&mut self, g: [f64; 2]) {
        self.gravity = g;
    }

    /// Number of stress coefficients.
    pub fn n_stress(&self) -> usize {
        self.n_s
    }

    /// First moment of mass about $P$ in the body frame, $s = \sum w_k x_k$ \[kg m\].
    pub fn first_moment(&self) -> [f64; 2] {
        self.first_moment
    }

    /// The mass operator $M$ ($n_p\times n_p$).
    pub fn mass_matrix(&self) -> &SparseMat {
        &self.M
    }

    /// Gravity vector \[m/s²\].
    pub fn gravity(&self) -> [f64; 2] {
        self.gravity
    }

    /// Ports of the body.
    pub fn ports_list(&self) -> &[PlanarPort] {
        &self.ports
    }

    /// The port map $B_a$ ($n_p\times 3$) of port `k`.
    pub fn port_map_of(&self, k: usize) -> &SparseMat {
        &self.port_maps[k]
    }

    /// Initial pose given at construction.
    pub fn initial_pose(&self) -> Pose2d {
        self.pose
    }

    /// Initial twist (inertial velocity of $P$, angular velocity) given at construction.
    pub fn initial_twist(&self) -> Twist2d {
        self.twist
    }

    /// Writes a pose into a local state.
    pub fn write_pose(&self, x: &mut [f64], pose: Pose2d) {
        x[0] = pose.x;
        x[1] = pose.y;
        x[2] = pose.theta;
    }

    /// Writes an inertial twist into a local state (converted to the body frame with the
    /// angle stored in `x`).
    pub fn write_twist(&self, x: &mut [f64], tw: Twist2d) {
        let r = rot2(x[2]);
        let o = self.n_q();
        x[o] = r[0][0] * tw.vx + r[1][0] * tw.vy;
        x[o + 1] = r[0][1] * tw.vx + r[1][1] * tw.vy;
        x[o + 2] = tw.omega;
    }

    /// Pose of the body frame stored in a local state.
    pub fn pose_of(&self, x: &[f64]) -> Pose2d {
        Pose2d::new(x[0], x[1], x[2])
    }

    /// Inertial velocity of $P$ and angular velocity from a local state.
    pub fn twist_of(&self, x: &[f64]) -> Twist2d {
        let o = self.n_q();
        let v = apply2(&rot2(x[2]), [x[o], x[o + 1]]);
        Twist2d::new(v[0], v[1], x[o + 2])
    }

    /// Inertial position of port `k` (deformed) for a local state.
    pub fn port_position(&self, k: usize, x: &[f64]) -> [f64; 2] {
        let p = &self.ports[k];
        let u = &x[3..3 + self.n_f];
        let d = [
            p.x[0] + PointShape::dot(&p.shape.nx, u),
            p.x[1] + PointShape::dot(&p.shape.ny, u),
        ];
        let rd = apply2(&rot2(x[2]), d);
        [x[0] + rd[0], x[1] + rd[1]]
    }

    /// Absolute orientation of the material frame at port `k`: $\theta + n_r u_f$.
    pub fn port_angle(&self, k: usize, x: &[f64]) -> f64 {
        x[2] + PointShape::dot(&self.ports[k].shape.nr, &x[3..3 + self.n_f])
    }

    /// Body-frame velocity and angular velocity of port `k`, $B_a^\top p$ (with full
    /// inertia the transport uses the deformed position, [`super::full_inertia`]).
    pub fn port_velocity(&self, k: usize, x: &[f64]) -> [f64; 3] {
        let y = sparse::mul_vec_transpose(&self.port_maps[k], &x[self.n_q()..]);
        match self.port_shift(k, x) {
            Some(d) => {
                let w = x[self.n_q() + 2];
                [y[0] + w * d[0], y[1] + w * d[1], y[2]]
            }
            None => [y[0], y[1], y[2]],
        }
    }

    /// With full inertia, the change $\hat z\times N_a u_f = (-n_y\cdot u_f,\ n_x\cdot u_f)$ of
    /// the $\omega$ entries of the force columns of $B_a$ (transport at the deformed port
    /// position $x_a + N_a u_f$); `None` for the constant operator.
    pub(crate) fn port_shift(&self, k: usize, x: &[f64]) -> Option<[f64; 2]> {
        self.full.as_ref()?;
        let s = &self.ports[k].shape;
        let u = &x[3..3 + self.n_f];
        Some([-PointShape::dot(&s.ny, u), PointShape::dot(&s.nx, u)])
    }

    /// Derivatives $\partial(\text{port shift})_c/\partial u_j$ of component `comp`
    /// (0 or 1) as `(j, value)` (full inertia only).
    pub(crate) fn for_each_port_shift_u(
        &self,
        k: usize,
        comp: usize,
        mut f: impl FnMut(usize, f64),
    ) {
        if self.full.is_none() {
            return;
        }
        let s = &self.ports[k].shape;
        if comp == 0 {
            s.ny.iter().for_each(|&(j, v)| f(j, -v));
        } else if comp == 1 {
            s.nx.iter().for_each(|&(j, v)| f(j, v));
        }
    }

    fn potential_local(&self, x: &[f64]) -> f64 {
        let g = self.gravity;
        if g == [0.0, 0.0] {
            return 0.0;
        }
        let u = &x[3..3 + self.n_f];
        let wu = sparse::mul_vec(&self.W, u);
        let a = [self.first_moment[0] + wu[0], self.first_moment[1] + wu[1]];
        let ra = apply2(&rot2(x[2]), a);
        -(g[0] * (self.mass * x[0] + ra[0]) + g[1] * (self.mass * x[1] + ra[1]))
    }

    /// $\partial_q V$ (gravity) into `z[..n_q]`.
    fn potential_gradient(&self, x: &[f64], z: &mut [f64]) {
        let n_q = self.n_q();
        let g = self.gravity;
        z[..n_q].iter_mut().for_each(|v| *v = 0.0);
        if g != [0.0, 0.0] {
            z[0] = -self.mass * g[0];
            z[1] = -self.mass * g[1];
            let u = &x[3..n_q];
            let wu = sparse::mul_vec(&self.W, u);
            let a = [self.first_moment[0] + wu[0], self.first_moment[1] + wu[1]];
            let dr = drot2(x[2]);
            let da = apply2(&dr, a);
            z[2] = -(g[0] * da[0] + g[1] * da[1]);
            // z_u = −Wᵀ Rᵀ g
            let r = rot2(x[2]);
            let rtg = [
                r[0][0] * g[0] + r[1][0] * g[1],
                r[0][1] * g[0] + r[1][1] * g[1],
            ];
            for j in 0..self.n_f {
                let mut s = 0.0;
                for (i, v) in sparse::col_iter(&self.W, j) {
                    s += v * rtg[i];
                }
                z[3 + j] = -s;
            }
        }
    }

    /// Pushes $\partial z/\partial x$ of the local state at offset `off`.
    pub(crate) fn push_effort_jacobian(&self, x: &[f64], t: &mut Triplets, off: usize) {
        let n_q = self.n_q();
        for i in n_q..self.n_local() {
            t.push(off + i, off + i, 1.0);
        }
        if let Some(fi) = &self.full {
            // z_u = ∂_u V − c(u; p, p): ∂c/∂u and ∂c/∂p = (∂_u π)ᵀ.
            let (u, p) = (&x[3..n_q], &x[n_q..]);
            fi.for_each_centrifugal_u(p, |j, l, v| t.push(off + 3 + j, off + 3 + l, -v));
            fi.for_each_momentum_u(u, p, |i, j, v| t.push(off + 3 + j, off + n_q + i, -v));
        }
        let g = self.gravity;
        if g == [0.0, 0.0] {
            return;
        }
        let u = &x[3..n_q];
        let wu = sparse::mul_vec(&self.W, u);
        let a = [self.first_moment[0] + wu[0], self.first_moment[1] + wu[1]];
        // ∂z_θ/∂θ = g·R a  (R'' = −R)
        let ra = apply2(&rot2(x[2]), a);
        t.push(off + 2, off + 2, g[0] * ra[0] + g[1] * ra[1]);
        // ∂z_θ/∂u = −gᵀ R' W ; ∂z_u/∂θ = −Wᵀ R'ᵀ g (symmetric)
        let dr = drot2(x[2]);
        let drtg = [
            dr[0][0] * g[0] + dr[1][0] * g[1],
            dr[0][1] * g[0] + dr[1][1] * g[1],
        ];
        for j in 0..self.n_f {
            let mut s = 0.0;
            for (i, v) in sparse::col_iter(&self.W, j) {
                s += v * drtg[i];
            }
            if s != 0.0 {
                t.push(off + 2, off + 3 + j, -s);
                t.push(off + 3 + j, off + 2, -s);
            }
        }
    }

    /// Pushes the body's $J(x)$ at offset `off` (rows and columns).
    pub(crate) fn push_structure(&self, x: &[f64], t: &mut Triplets, off: usize) {
        self.push_structure_with(x, t, off, None)
    }

    /// [`Self::push_structure`] with, for a body with full inertia, the linear momentum of
    /// the gyroscopic pair given (`pi_v`, e.g. the step average of eq. (F4)) instead of
    /// $\pi_v(x)$.
    pub(crate) fn push_structure_with(
        &self,
        x: &[f64],
        t: &mut Triplets,
        off: usize,
        pi_v: Option<[f64; 2]>,
    ) {
        let n_f = self.n_f;
        let n_q = self.n_q();
        let (iv, iw, ivf, is) = (off + n_q, off + n_q + 2, off + n_q + 3, off + n_q + 3 + n_f);
        let r = rot2(x[2]);
        for a in 0..2 {
            for b in 0..2 {
                t.push(off + a, iv + b, r[a][b]);
                t.push(iv + b, off + a, -r[a][b]);
            }
        }
        t.push(off + 2, iw, 1.0);
        t.push(iw, off + 2, -1.0);
        for k in 0..n_f {
            t.push(off + 3 + k, ivf + k, 1.0);
            t.push(ivf + k, off + 3 + k, -1.0);
        }
        let p = &x[n_q..];
        let pt = match (&self.full, pi_v) {
            (Some(_), Some(v)) => v.to_vec(),
            (Some(fi), None) => fi.linear_momentum(&x[3..n_q], p).to_vec(),
            (None, _) => sparse::mul_vec(&self.T_t, p),
        };
        // J[v_P, ω] = S(p̂_t) = (p̂_y, −p̂_x)  (full inertia: S(π_v), eq. (F2))
        t.push(iv, iw, pt[1]);
        t.push(iv + 1, iw, -pt[0]);
        t.push(iw, iv, -pt[1]);
        t.push(iw, iv + 1, pt[0]);
        if n_f > 0 && self.full.is_none() {
            let gf = sparse::mul_vec(&self.G_f, p);
            for (k, &v) in gf.iter().enumerate() {
                if v != 0.0 {
                    t.push(ivf + k, iw, v);
                    t.push(iw, ivf + k, -v);
                }
            }
        }
        if self.n_s > 0 {
            t.push_block(is, ivf, &self.D, 1.0);
            t.push_block_transpose(ivf, is, &self.D, -1.0);
        }
        if let Some(vk) = &self.stiffening {
            vk.push_structure(&x[3..n_q], t, is, ivf);
        }
    }

    /// Pushes $(\partial_x J)\,z$ for the state-dependent entries of $J$ other than the
    /// rotations (the part of $\partial_x(J(x)z(x))$ not in $J\,\partial_x z$), at offset
    /// `off`: the derivative with respect to $p$ of the momentum-dependent gyroscopic
    /// entries and, with geometric stiffening, the derivative with respect to $u_f$ of
    /// $\pm D_{nl}(u_f)$ (`VonKarman::push_jacobian`).
    pub(crate) fn push_gyroscopic_jacobian(&self, x: &[f64], t: &mut Triplets, off: usize) {
        let n_q = self.n_q();
        let o = off + n_q;
        let p = &x[n_q..];
        let (vx, vy, w) = (p[0], p[1], p[2]);
        if let Some(fi) = &self.full {
            // f_v += ω S(π_v), f_ω −= S(π_v)·v_P with π_v = π_v(u, p).
            let u = &x[3..n_q];
            fi.linear_momentum_p(u, 1, |i, v| {
                t.push(o, o + i, w * v);
                t.push(o + 2, o + i, -vx * v);
            });
            fi.linear_momentum_p(u, 0, |i, v| {
                t.push(o + 1, o + i, -w * v);
                t.push(o + 2, o + i, vy * v);
            });
            let mut du = vec![[0.0; 2]; self.n_f];
            fi.linear_momentum_u(p, &mut du);
            for (j, d) in du.iter().enumerate() {
                if d[0] != 0.0 || d[1] != 0.0 {
                    t.push(o, off + 3 + j, w * d[1]);
                    t.push(o + 1, off + 3 + j, -w * d[0]);
                    t.push(o + 2, off + 3 + j, -(vx * d[1] - vy * d[0]));
                }
            }
            if let Some(vk) = &self.stiffening {
                let n_f = self.n_f;
                vk.push_jacobian(
                    &p[3..3 + n_f],
                    &p[3 + n_f..],
                    t,
                    off + 3,
                    o + 3 + n_f,
                    o + 3,
                );
            }
            return;
        }
        // S(T_t p) ω and −S(T_t p)ᵀ v_P
        for j in 0..self.T_t.ncols() {
            let mut t0 = 0.0;
            let mut t1 = 0.0;
            for (i, v) in sparse::col_iter(&self.T_t, j) {
                if i == 0 {
                    t0 += v;
                } else {
                    t1 += v;
                }
            }
            if t0 != 0.0 || t1 != 0.0 {
                t.push(o, o + j, w * t1);
                t.push(o + 1, o + j, -w * t0);
                t.push(o + 2, o + j, -(t1 * vx - t0 * vy));
            }
        }
        if self.n_f > 0 {
            let vf = &p[3..3 + self.n_f];
            for j in 0..self.G_f.ncols() {
                let mut acc = 0.0;
                for (k, v) in sparse::col_iter(&self.G_f, j) {
                    t.push(o + 3 + k, o + j, v * w);
                    acc += v * vf[k];
                }
                if acc != 0.0 {
                    t.push(o + 2, o + j, -acc);
                }
            }
        }
        if let Some(vk) = &self.stiffening {
            let n_f = self.n_f;
            vk.push_jacobian(
                &p[3..3 + n_f],
                &p[3 + n_f..],
                t,
                off + 3,
                o + 3 + n_f,
                o + 3,
            );
        }
    }

    /// Switches the deformation-dependent inertia of [`super::full_inertia`] on, with the mass
    /// points the body was built from.
    pub(crate) fn set_full_inertia(&mut self, points: &[MassPoint]) {
        self.full = Some(FullInertia::new(points, self.n_f));
    }

    /// Momenta $\pi = M(u_f)\,p$ of a local state (all co-energy variables: the
    /// velocity part is the linear momentum $\pi_v$ and the angular momentum $\pi_\omega$
    /// about $P$ in the body frame, then the elastic momenta; the stress part is
    /// $C\sigma$). With the constant operator (37) this is $M p$.
    pub fn momentum(&self, x: &[f64]) -> Vec<f64> {
        let n_q = self.n_q();
        let p = &x[n_q..];
        let mut out = sparse::mul_vec(&self.M, p);
        if let Some(fi) = &self.full {
            fi.momentum(&x[3..n_q], p, &mut out);
        }
        out
    }

    /// Inertial linear momentum $R(\theta)\pi_v$ \[kg m/s\] and angular momentum about
    /// the inertial origin $({}^ir_P\times R\pi_v)_z + \pi_\omega$ \[kg m²/s\] of a local
    /// state.
    pub fn inertial_momentum(&self, x: &[f64]) -> [f64; 3] {
        let pi = self.momentum(x);
        let l = apply2(&rot2(x[2]), [pi[0], pi[1]]);
        [l[0], l[1], x[0] * l[1] - x[1] * l[0] + pi[2]]
    }

    /// Linear momentum $\pi_v$ in the body frame (the first two momenta).
    pub(crate) fn linear_momentum_local(&self, x: &[f64]) -> [f64; 2] {
        let n_q = self.n_q();
        match &self.full {
            Some(fi) => fi.linear_momentum(&x[3..n_q], &x[n_q..]),
            None => {
                let m = self.momentum(x);
                [m[0], m[1]]
            }
        }
    }

    /// The von Kármán coupling of a beam built with geometric stiffening
    /// ([`crate::FloatingBeam2d::geometric_stiffening`]), `None` otherwise.
    pub fn stiffening(&self) -> Option<&VonKarman> {
        self.stiffening.as_ref()
    }

    /// Attaches the finite element spaces of a beam (for output at material points).
    pub(crate) fn set_beam_shapes(&mut self, s: BeamShapes) {
        self.beam = Some(s);
    }

    /// The finite element spaces of a flexible beam body (`None` for a rigid body).
    pub fn beam_shapes(&self) -> Option<&BeamShapes> {
        self.beam.as_ref()
    }

    /// Elastic displacement $(u_f^x, u_f^y)$ \[m\] and rotation $\partial_x u_f^y$ \[rad\] at
    /// material coordinate `xi` of a beam body, body frame, for a local state.
    pub fn elastic_displacement(&self, xi: f64, x: &[f64]) -> Result<[f64; 3], MbsError> {
        let s = self.beam.as_ref().ok_or_else(|| MbsError::UnknownName {
            what: "beam body".into(),
            name: self.name.clone(),
            available: "flexible beam bodies only".into(),
        })?;
        let shape = s.shape_at(xi).map_err(|e| MbsError::Fem {
            body: self.name.clone(),
            source: e,
        })?;
        let u = &x[3..3 + self.n_f];
        Ok([
            PointShape::dot(&shape.nx, u),
            PointShape::dot(&shape.ny, u),
            PointShape::dot(&shape.nr, u),
        ])
    }
}

/// The dimension-free body interface ([`crate::body::floating_body`]) of a planar body.
impl FloatingBody for PlanarBody {
    /// Body name.
    fn name(&self) -> &str {
        &self.name
    }

    /// Number of elastic coefficients $n_f$ (0 for a rigid body).
    fn n_elastic(&self) -> usize {
        self.n_f
    }

    /// Number of configuration variables $n_q = 3 + n_f$.
    fn n_q(&self) -> usize {
        3 + self.n_f
    }

    /// Number of co-energy variables $n_p = 3 + n_f + n_\sigma$.
    fn n_p(&self) -> usize {
        3 + self.n_f + self.n_s
    }

    /// Local state length $n_q + n_p$.
    fn n_local(&self) -> usize {
        self.n_q() + self.n_p()
    }

    /// Total mass $m$ \[kg\].
    fn mass(&self) -> f64 {
        self.mass
    }

    /// Local initial state: the given pose and twist, undeformed, stress free.
    fn initial_state(&self) -> Vec<f64> {
        let mut x = vec![0.0; self.n_local()];
        self.write_pose(&mut x, self.pose);
        self.write_twist(&mut x, self.twist);
        x
    }

    /// Kinetic, deformation and potential energy for a local state.
    fn energies(&self, x: &[f64]) -> EnergySplit {
        let p = &x[self.n_q()..];
        let (mut kin, def) = layout::kinetic_and_deformation(&self.M, p, 3 + self.n_f);
        if let Some(fi) = &self.full {
            kin = fi.kinetic(&x[3..3 + self.n_f], p);
        }
        EnergySplit {
            kinetic: kin,
            deformation: def,
            potential: self.potential_local(x),
        }
    }

    /// Effort $z = (\partial_q V, p)$ of a local state.
    fn effort(&self, x: &[f64], z: &mut [f64]) {
        let n_q = self.n_q();
        self.potential_gradient(x, z);
        z[n_q..].copy_from_slice(&x[n_q..]);
        if let Some(fi) = &self.full {
            let (u, p) = (&x[3..n_q], &x[n_q..]);
            let mut c = vec![0.0; self.n_f];
            fi.centrifugal(u, p, p, &mut c);
            for (zj, cj) in z[3..n_q].iter_mut().zip(&c) {
                *zj -= cj;
            }
        }
    }

    /// True if the mass operator depends on the elastic displacement ([`super::full_inertia`],
    /// [`crate::FloatingBeam2d::full_inertia`]).
    fn has_full_inertia(&self) -> bool {
        self.full.is_some()
    }

    /// Pushes the descriptor $E(x)$ at offset `off`: $\operatorname{diag}(I, M)$, or with
    /// full inertia eq. (F3) $\begin{bmatrix}I & 0\\ \partial_q\pi & M(u_f)\end{bmatrix}$.
    fn push_descriptor(&self, x: &[f64], t: &mut Triplets, off: usize) {
        let Some(fi) = &self.full else {
            t.push_block(off, off, &self.E, 1.0);
            return;
        };
        let n_q = self.n_q();
        let (u, p) = (&x[3..n_q], &x[n_q..]);
        layout::push_full_descriptor(
            t,
            off,
            n_q,
            3,
            3 + self.n_f,
            &self.M,
            |t| fi.push_mass(u, t, off + n_q, off + n_q),
            |f| fi.for_each_momentum_u(u, p, f),
        );
    }

    /// For a body with full inertia: the velocity block $M_{vv}(u_f)$ (dense,
    /// $3 + n_f$ square) and $\Gamma = \partial_{u_f}(M_{vv}(u_f)\,p)\,v_f$ at a local state;
    /// `None` for the constant operator.
    fn velocity_mass_dense(&self, x: &[f64]) -> Option<(faer::Mat<f64>, Vec<f64>)> {
        let fi = self.full.as_ref()?;
        let n_q = self.n_q();
        let nv = 3 + self.n_f;
        let (u, p) = (&x[3..n_q], &x[n_q..]);
        let mut t = Triplets::new(nv, nv);
        fi.push_mass(u, &mut t, 0, 0);
        let M = sparse::to_dense(&t.build());
        let mut g = vec![0.0; nv];
        fi.for_each_momentum_u(u, p, |i, j, v| g[i] += v * p[3 + j]);
        Some((M, g))
    }

    /// $\partial_{u_f}(M_{vv}(u_f)\,a)$ entries `(i, j, v)` for a velocity vector `a`
    /// ($3 + n_f$ entries) at a local state (full inertia only).
    fn for_each_mass_u(&self, x: &[f64], a: &[f64], f: &mut dyn FnMut(usize, usize, f64)) {
        if let Some(fi) = &self.full {
            let n_q = self.n_q();
            fi.for_each_momentum_u(&x[3..n_q], a, f);
        }
    }

    /// Discrete increment of eq. (F4) for a local step `x0 → x1`: $(q_1 - q_0,\
    /// \pi(x_1) - \pi(x_0))$ with full inertia, $E(x_1 - x_0)$ otherwise, into `out`.
    fn increment_local(&self, x0: &[f64], x1: &[f64], out: &mut [f64]) {
        layout::momentum_increment(self.n_q(), x0, x1, |x| self.momentum(x), out)
    }

    /// Discrete gradient (F5) of a body with full inertia for the local step `x0 → x1`:
    /// Gonzalez's discrete gradient of the gravity potential in the configuration rows,
    /// minus the centrifugal term $c(u_m; p_0, p_1)$ in the elastic rows, and
    /// $\bar p = (p_0 + p_1)/2$; then $\bar z^\top(\Delta q, \Delta\pi) = \Delta H$ exactly.
    fn discrete_effort_local(&self, x0: &[f64], x1: &[f64], z: &mut [f64]) {
        let n_q = self.n_q();
        let xm: Vec<f64> = x0.iter().zip(x1).map(|(a, b)| 0.5 * (a + b)).collect();
        self.potential_gradient(&xm, z);
        if self.gravity != [0.0, 0.0] {
            let dq: Vec<f64> = (0..n_q).map(|i| x1[i] - x0[i]).collect();
            let qq: f64 = dq.iter().map(|v| v * v).sum();
            let scale: f64 = 1.0 + xm[..n_q].iter().map(|v| v * v).sum::<f64>();
            if qq > f64::EPSILON * f64::EPSILON * scale {
                let dv = self.potential_local(x1) - self.potential_local(x0);
                let zq: f64 = dq.iter().zip(&z[..n_q]).map(|(a, b)| a * b).sum();
                let c = (dv - zq) / qq;
                for (zi, d) in z[..n_q].iter_mut().zip(&dq) {
                    *zi += c * d;
                }
            }
        }
        let n = self.n_local();
        z[n_q..n].copy_from_slice(&xm[n_q..n]);
        if let Some(fi) = &self.full {
            let mut c = vec![0.0; self.n_f];
            fi.centrifugal(&xm[3..n_q], &x0[n_q..], &x1[n_q..], &mut c);
            for (zj, cj) in z[3..n_q].iter_mut().zip(&c) {
                *zj -= cj;
            }
        }
    }

    fn descriptor(&self) -> &SparseMat {
        &self.E
    }

    fn blocks(&self) -> &[VarBlock] {
        &self.blocks
    }

    fn n_ports(&self) -> usize {
        self.ports.len()
    }

    fn port_name(&self, k: usize) -> &str {
        &self.ports[k].name
    }

    fn push_effort_jacobian(&self, x: &[f64], t: &mut Triplets, off: usize) {
        PlanarBody::push_effort_jacobian(self, x, t, off)
    }

    fn push_structure(&self, x: &[f64], t: &mut Triplets, off: usize) {
        PlanarBody::push_structure(self, x, t, off)
    }
}

impl PhSystem for PlanarBody {
    fn n_states(&self) -> usize {
        self.n_local()
    }
    fn ports(&self) -> &PortSet {
        &self.port_set
    }
    fn blocks(&self) -> &[VarBlock] {
        &self.blocks
    }
    fn hamiltonian(&self, x: &[f64]) -> f64 {
        self.energies(x).total()
    }
    fn effort(&self, x: &[f64], z: &mut [f64]) {
        FloatingBody::effort(self, x, z)
    }
    fn descriptor(&self, x: &[f64]) -> SparseMat {
        if self.full.is_none() || x.is_empty() {
            return self.E.clone();
        }
        layout::local_matrix(self.n_local(), |t| self.push_descriptor(x, t, 0))
    }
    fn structure(&self, x: &[f64]) -> SparseMat {
        layout::local_matrix(self.n_local(), |t| self.push_structure(x, t, 0))
    }
    fn input_map(&self, x: &[f64]) -> SparseMat {
        let n = self.n_local();
        let mut t = Triplets::new(n, 3 * self.ports.len());
        for (k, b) in self.port_maps.iter().enumerate() {
            t.push_block(self.n_q(), 3 * k, b, 1.0);
            if let Some(d) = self.port_shift(k, x) {
                t.push(self.n_q() + 2, 3 * k, d[0]);
                t.push(self.n_q() + 2, 3 * k + 1, d[1]);
            }
        }
        t.build()
    }
    fn effort_jacobian(&self, x: &[f64]) -> SparseMat {
        layout::local_matrix(self.n_local(), |t| self.push_effort_jacobian(x, t, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disk() -> PlanarBody {
        // m = 2 kg at c = (0.3, -0.1), J_c = 0.05, ports at P and at (1, 0.5).
        let pts = [MassPoint {
            x: [0.3, -0.1],
            mass: 2.0,
            rotary_inertia: 0.05,
            shape: PointShape::rigid(),
        }];
        let ports = vec![
            PlanarPort {
                name: "P".into(),
                x: [0.0, 0.0],
                shape: PointShape::rigid(),
            },
            PlanarPort {
                name: "A".into(),
                x: [1.0, 0.5],
                shape: PointShape::rigid(),
            },
        ];
        let mut b = PlanarBody::new(
            "disk",
            &pts,
            ports,
            None,
            Gyroscopic::Consistent,
            Pose2d::new(0.1, 0.2, 0.3),
            Twist2d::new(0.5, -0.2, 1.5),
        )
        .unwrap();
        b.set_gravity([0.0, -9.81]);
        b
    }

    /// Mass matrix of a rigid body about a point P with centre of mass c:
    /// [[m, 0, −m c_y], [0, m, m c_x], [−m c_y, m c_x, J_c + m|c|²]].
    #[test]
    fn rigid_mass_matrix_parallel_axis() {
        let b = disk();
        let M = sparse::to_dense(b.mass_matrix());
        let exp = [
            [2.0, 0.0, 0.2],
            [0.0, 2.0, 0.6],
            [0.2, 0.6, 0.05 + 2.0 * 0.1],
        ];
        for i in 0..3 {
            for j in 0..3 {
                assert!((M[(i, j)] - exp[i][j]).abs() < 1e-15, "{i} {j}");
            }
        }
    }

    /// J is skew, and z is the gradient of H (finite differences, error O(h²) ≈ 1e-10).
    #[test]
    fn structure_skew_and_effort_is_gradient() {
        let b = disk();
        let x = b.initial_state();
        let J = sparse::to_dense(&b.structure(&x));
        for i in 0..J.nrows() {
            for j in 0..J.ncols() {
                assert!((J[(i, j)] + J[(j, i)]).abs() < 1e-15);
            }
        }
        let n = b.n_states();
        let mut z = vec![0.0; n];
        PhSystem::effort(&b, &x, &mut z);
        let E = sparse::to_dense(&PhSystem::descriptor(&b, &x));
        for k in 0..n {
            let h = 1e-5;
            let mut xp = x.clone();
            xp[k] += h;
            let mut xm = x.clone();
            xm[k] -= h;
            let dh = (PhSystem::hamiltonian(&b, &xp) - PhSystem::hamiltonian(&b, &xm)) / (2.0 * h);
            let etz: f64 = (0..n).map(|i| E[(i, k)] * z[i]).sum();
            assert!((dh - etz).abs() < 1e-8, "component {k}: {dh} vs {etz}");
        }
        // Effort Jacobian matches finite differences of z.
        let Dz = sparse::to_dense(&b.effort_jacobian(&x));
        for k in 0..n {
            let h = 1e-6;
            let mut xp = x.clone();
            xp[k] += h;
            let mut zp = vec![0.0; n];
            PhSystem::effort(&b, &xp, &mut zp);
            for i in 0..n {
                assert!(
                    ((zp[i] - z[i]) / h - Dz[(i, k)]).abs() < 1e-4,
                    "dz{i}/dx{k}"
                );
            }
        }
    }

    /// Port output = velocity of the attachment point: v_P + ω ẑ × a in the body frame.
    #[test]
    fn port_velocity_is_rigid_velocity_field() {
        let b = disk();
        let x = b.initial_state();
        let o = b.n_q();
        let (vx, vy, w) = (x[o], x[o + 1], x[o + 2]);
        let y = b.port_velocity(1, &x);
        assert!((y[0] - (vx - w * 0.5)).abs() < 1e-15);
        assert!((y[1] - (vy + w * 1.0)).abs() < 1e-15);
        assert!((y[2] - w).abs() < 1e-15);
        // the inertial twist round-trips
        let tw = b.twist_of(&x);
        assert!((tw.vx - 0.5).abs() < 1e-15 && (tw.vy + 0.2).abs() < 1e-15);
    }
}
