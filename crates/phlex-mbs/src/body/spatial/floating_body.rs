//! A floating body in 3D (rigid or flexible) as a quasilinear pH system with constant
//! descriptor: paper 000 §3–§4 (eqs. (12)–(15), (34)–(41)) in three dimensions, the spatial
//! counterpart of [`crate::body::planar::floating_body`].
//! $$\begin{bmatrix}I & 0\\ 0 & M\end{bmatrix}\begin{pmatrix}\dot q\\ \dot p\end{pmatrix}
//!   = \begin{bmatrix}0 & J_{qp}(q)\\ -J_{qp}(q)^\top & J_{pp}(p)\end{bmatrix}
//!     \begin{pmatrix}\partial_q H\\ p\end{pmatrix} + \sum_k B_k u_k,
//!   \qquad y_k = B_k^\top z .$$
//!
//! With [`crate::FloatingBeam3d::full_inertia`] the mass operator depends on the elastic
//! coordinates and the body is written in momentum form with a state-dependent
//! descriptor, eqs. (F1)–(F5) of [`super::full_inertia`] (momenta $\pi = M(u_f)p$ in the
//! gyroscopic blocks, no flexible gyroscopic operator, ports at the deformed positions);
//! everything below describes the default constant operator.
//!
//! **State** (the convention of [`crate::spatial::SpatialBody`]):
//! $q = ({}^ir_P, R_v, u_f)$ with $R_v = \mathrm{vec}(R^\top)$ (the rows of $R$),
//! $p = (v_P, \omega, v_f, \sigma)$ with $v_P$, $\omega$ in the **body frame**.
//!
//! **Mass operator** (eq. (10) discretised, constant as in §4.3). The inertia is described by
//! *mass points*: a point $k$ of mass $w_k$ at undeformed body position $x_k$, elastic
//! displacement $N_k u_f$, elastic rotation $\Phi_k u_f$ and rotary inertia tensor $I_k$
//! (body frame) has velocity $A_k p = v_P + \omega\times x_k + N_k v_f$ and angular
//! velocity $\Gamma_k p = \omega + \Phi_k v_f$, so
//! $$M = \sum_k w_k A_k^\top A_k + \Gamma_k^\top I_k \Gamma_k + \mathrm{diag}(0, 0, 0, C_\sigma).$$
//! The momenta $(p_t, p_r) = (Mp)_{v,\omega}$ are the linear momentum and the angular
//! momentum about $P$ (body frame).
//!
//! **Interconnection operator** (eq. (12), (70); the 3D version of eq. (38)):
//! * $J\[{}^ir_P, v_P\] = R$, $J\[R_v, \omega\] = \[R_v\]_\times$ ($\dot R = R\[\omega\]_\times$),
//!   $J\[u_f, v_f\] = I$ and the negative transposes;
//! * $J\[v_P, \omega\] = J\[\omega, v_P\] = \[\hat p_t\]_\times$ with the modified linear momentum
//!   of eq. (13), $\hat p_t = \sum_k w_k (A_k p + N_k v_f) = p_t + \int\rho v_f$ (the
//!   first-order Coriolis correction of the linear momentum balance, as in the planar
//!   body), and $J\[\omega, \omega\] = \[p_r\]_\times$ with the angular momentum
//!   $p_r = (Mp)_\omega = \sum_k \big(w_k x_k\times A_k p + I_k\Gamma_k p\big)$.
//!   Eq. (13) also adds $\int\rho\,x\times v_f$ to $p_r$ (which, by eq. (9), already contains
//!   it); with that term the moment of the inertia forces about the beam axis gets the
//!   first-order part $-\int\rho x\,(\omega_yv_f^y + \omega_zv_f^z)$, which acts on the tiny
//!   polar inertia $\rho I_pL$ and spins the frame about the beam axis as soon as the beam
//!   bends out of its plane of rotation (in the §6.4 case, to 0.5 rad/s within 0.5 s of the
//!   kick, against 0.03 rad/s of the rigid rotation). Without it the $\omega$ row is the
//!   moment about $P$ of the point-wise inertia forces $-w_k\,\omega\times A_kp$ and of the
//!   coupling $-G(p)^\top v_f$, whose axial part vanishes for points on the axis. The
//!   literal form is kept as [`Gyroscopic::PaperLiteral`] (together with $c = 2$); motions in
//!   a plane do not see the difference ($p_r\parallel\omega$ there);
//! * $J\[v_f, \omega\] = G(p) = \sum_k N_k^\top\[w_k\hat A_k p\]_\times + \Phi_k^\top\[I_k\hat\Gamma_k p\]_\times$,
//!   $\hat A_k = cA_k + \[0\ 0\ N_k\ 0\]$, $\hat\Gamma_k = c\Gamma_k + \[0\ 0\ \Phi_k\ 0\]$: the flexible
//!   gyroscopic operator $-(\mathcal I_{p_f}^\Omega)^*$ of eq. (14) with the coefficient $c$ of
//!   [`crate::body::planar::floating_body`] ($c = 1$, [`Gyroscopic::Consistent`], gives the flexible
//!   equation $\rho(\dot v_P + \dot\omega\times x + \dot v_f) = \rho(v_P + \omega\times x +
//!   2v_f)\times\omega + \dots$, the exact transport, centrifugal and Coriolis forces of eq. (7)
//!   with $x_f\approx x$); $J\[\omega, v_f\] = -G(p)^\top$;
//! * $J\[v_f, \sigma\] = -D^\top$, $J\[\sigma, v_f\] = D$; with geometric stiffening
//!   ([`crate::body::spatial::stiffening`]) plus the state-dependent pairs $\pm D_{nl}^{y,z}(u_f)$
//!   between the normal force and the bending velocities.
//!
//! $J$ is skew-symmetric, so $H$ is conserved without inputs, for either choice. For motions
//! in a plane the operator reduces exactly to the planar one of [`crate::body::planar::floating_body`].
//!
//! *Momenta.* With the constant mass operator the spatial momenta $Rp_t$ and
//! $Rp_r + {}^ir_P\times Rp_t$ are first integrals of the rigid part only: a momentum map for
//! rotations would need $\partial L/\partial u_f = G(p)^\top R^\top b$, which is incompatible
//! with $\partial L/\partial p$ independent of $u_f$ unless $G = 0$ (no centrifugal load on
//! the deformation). For a free flexible body they therefore drift by terms of the order of
//! the elastic velocities times the rotation rate (for a body pinned at $P$:
//! $\frac{d}{dt}Rp_r = R\big(T + \sum_k w_k x_k\times(N_kv_f\times\omega)\big)$); the drift
//! vanishes in the rigid limit (see the tests). The same holds for the relative
//! equilibrium of a free body spinning about a transverse axis with the frame at the root
//! of a cantilever (the root tangent): it is not stable in this model (the frame wobble
//! grows, in the planar model identically), whereas the chord frame of the simply supported
//! condition is well behaved.
//!
//! **Potential** (Remark 2): $V = -\vec g\cdot\big(m\,{}^ir_P + R(s + W u_f)\big)$ with
//! $s = \sum_k w_k x_k$, $W = \sum_k w_k N_k$; $z_r = -m\vec g$,
//! $z_{R_i} = -g_i(s + Wu_f)$, $z_u = -W^\top R^\top\vec g$.
//!
//! **Ports** (eq. (39)–(40)): a port at undeformed body point $a$ with shape
//! $(N_a, \Phi_a)$ takes the force and torque $(F, T)$ applied there, **body frame**; its
//! output is $(A_a p, \Gamma_a p) = (v_P + \omega\times a + N_a v_f,\ \omega + \Phi_a v_f)$.
//!
//! **Exact Jacobian.** [`FloatingBody3d::push_rhs_jacobian`] assembles
//! $\partial_x(J(x)z(x))$ from precomputed sparse maps: $\hat p_t = T_t p$, $p_r = T_r p$ (plus $\int\rho x\times v_f$ for the literal form),
//! $G(p)e_c = \mathcal G_c p$ (three $n_f\times n_p$ matrices), so every Newton matrix is a
//! few sparse products (see [`phlex_solve::integrators::midpoint::nonlinear`] for why it must be exact).
use phlex_core::geometry::mat3::{
    cross, hat, lin_comb, mat_mul, mat_t_vec, mat_vec, store_row_major, IDENTITY3,
};
use phlex_core::sparse::{self, SparseMat};
use phlex_core::{PhSystem, PortSet, Triplets, VarBlock};

use crate::body::floating_body::{EnergySplit, FloatingBody};
use crate::body::planar::floating_body::Gyroscopic;
use crate::error::MbsError;
use crate::spatial::{SpatialBody, SpatialPort};

use super::full_inertia::FullInertia3d;
use crate::body::layout;

use crate::body::planar::stiffening::VonKarman;

/// Elastic shape of a material point in 3D: displacement $(N^x, N^y, N^z)u_f$ and small
/// rotation $(\Phi^x, \Phi^y, \Phi^z)u_f$ (sparse rows over the elastic coefficients).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PointShape3d {
    /// Displacement functionals, body frame components.
    pub n: [Vec<(usize, f64)>; 3],
    /// Rotation functionals, body frame components.
    pub phi: [Vec<(usize, f64)>; 3],
}

impl PointShape3d {
    fn dot(v: &[(usize, f64)], u: &[f64]) -> f64 {
        v.iter().map(|&(i, a)| a * u[i]).sum()
    }

    /// Elastic displacement $N u$.
    pub fn displacement(&self, u: &[f64]) -> [f64; 3] {
        [0, 1, 2].map(|c| Self::dot(&self.n[c], u))
    }

    /// Elastic rotation $\Phi u$.
    pub fn rotation(&self, u: &[f64]) -> [f64; 3] {
        [0, 1, 2].map(|c| Self::dot(&self.phi[c], u))
    }
}

/// A mass point of the mass operator (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct MassPoint3d {
    /// Undeformed position in the body frame \[m\].
    pub x: [f64; 3],
    /// Mass $w_k$ \[kg\].
    pub mass: f64,
    /// Rotary inertia tensor $I_k$ about the point, body frame \[kg m²\].
    pub inertia: [[f64; 3]; 3],
    /// Elastic shape at the point.
    pub shape: PointShape3d,
}

/// Flexible part: compliance and differential operator.
#[derive(Debug, Clone)]
pub(crate) struct Flexible3d {
    /// Number of elastic coefficients $n_f$.
    pub n_f: usize,
    /// Number of stress coefficients $n_\sigma$.
    pub n_s: usize,
    /// Compliance $C_\sigma$ ($n_\sigma\times n_\sigma$).
    pub C: SparseMat,
    /// $D$ ($n_\sigma\times n_f$).
    pub D: SparseMat,
    /// Names and meanings of the blocks $u_f$, $v_f$, $\sigma$.
    pub names: [(&'static str, &'static str); 3],
}

/// Initial pose and velocities of a spatial body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpatialInit {
    /// ${}^ir_P$ \[m\].
    pub position: [f64; 3],
    /// $R$ (body to inertial).
    pub rotation: [[f64; 3]; 3],
    /// $v_P$, body frame \[m/s\].
    pub velocity: [f64; 3],
    /// $\omega$, body frame \[rad/s\].
    pub angular_velocity: [f64; 3],
}

impl Default for SpatialInit {
    fn default() -> Self {
        Self {
            position: [0.0; 3],
            rotation: IDENTITY3,
            velocity: [0.0; 3],
            angular_velocity: [0.0; 3],
        }
    }
}

/// A floating body in 3D in pH form (see the module documentation). Built by
/// [`crate::FloatingBeam3d::build`].
#[derive(Debug, Clone)]
pub struct FloatingBody3d {
    name: String,
    n_f: usize,
    n_s: usize,
    M: SparseMat,
    D: SparseMat,
    T_t: SparseMat,
    T_r: SparseMat,
    G: [SparseMat; 3],
    mass: f64,
    first_moment: [f64; 3],
    W: SparseMat,
    ports: Vec<SpatialPort>,
    shapes: Vec<PointShape3d>,
    port_maps: Vec<SparseMat>,
    input_map: SparseMat,
    port_set: PortSet,
    gravity: [f64; 3],
    blocks: Vec<VarBlock>,
    E: SparseMat,
    x0: Vec<f64>,
    beam: Option<crate::body::floating_beam::spatial::BeamShapes3d>,
    /// Deformation-dependent inertia ([`crate::body::spatial::full_inertia`]), if switched on.
    full: Option<FullInertia3d>,
    /// Geometric stiffening ([`crate::body::spatial::stiffening`]): the von Kármán pairs
    /// $\pm D_{nl}^{y,z}(u_f)$ in $J[\sigma, v_f]$, if switched on.
    stiffening: Option<VonKarman>,
}

/// $\epsilon_{dec}$ pairs $(d, e, \pm1)$ with $(a\times e_c)_d = \sum_e \epsilon_{dec}a_e$.
const CROSS_E: [[(usize, usize, f64); 2]; 3] = [
    [(1, 2, 1.0), (2, 1, -1.0)],
    [(2, 0, 1.0), (0, 2, -1.0)],
    [(0, 1, 1.0), (1, 0, -1.0)],
];

impl FloatingBody3d {
    /// Assembles the body from its mass points, ports (with their elastic shapes) and
    /// optional flexible part.
    pub(crate) fn new(
        name: &str,
        points: &[MassPoint3d],
        ports: Vec<(SpatialPort, PointShape3d)>,
        flexible: Option<Flexible3d>,
        gyroscopic: Gyroscopic,
        init: SpatialInit,
    ) -> Result<Self, MbsError> {
        let (n_f, n_s) = flexible.as_ref().map_or((0, 0), |f| (f.n_f, f.n_s));
        let n_p = 6 + n_f + n_s;
        let n_q = 12 + n_f;
        // c: coefficient of the flexible gyroscopic operator; alpha: weight of the elastic
        // term ∫ρ x × v_f added to p_r in J[ω, ω] (module documentation).
        let (c, alpha) = match gyroscopic {
            Gyroscopic::Consistent => (1.0, 0.0),
            Gyroscopic::PaperLiteral => (2.0, 1.0),
        };
        let mut tm = Triplets::new(n_p, n_p);
        let mut tt = Triplets::new(3, n_p);
        let mut tr = Triplets::new(3, n_p);
        let mut tg = [
            Triplets::new(n_f, n_p),
            Triplets::new(n_f, n_p),
            Triplets::new(n_f, n_p),
        ];
        let mut tw = Triplets::new(3, n_f);
        let mut mass = 0.0;
        let mut s = [0.0; 3];
        for pt in points {
            let w = pt.mass;
            mass += w;
            for d in 0..3 {
                s[d] += w * pt.x[d];
            }
            let a: [Vec<(usize, f64)>; 3] =
                [0, 1, 2].map(|d| Self::velocity_row(d, pt.x, &pt.shape.n[d]));
            let g: [Vec<(usize, f64)>; 3] =
                [0, 1, 2].map(|d| Self::rotation_row(d, &pt.shape.phi[d]));
            // M: translational and rotary parts.
            for row in &a {
                for &(i, ai) in row {
                    for &(j, aj) in row {
                        tm.push(i, j, w * ai * aj);
                    }
                }
            }
            for d in 0..3 {
                for e in 0..3 {
                    let ide = pt.inertia[d][e];
                    if ide == 0.0 {
                        continue;
                    }
                    for &(i, gi) in &g[d] {
                        for &(j, gj) in &g[e] {
                            tm.push(i, j, ide * gi * gj);
                        }
                    }
                }
            }
            // Hatted rows: b = A + N̂ (T_t, T_r) and â = cA + N̂ (G).
            let b: [Vec<(usize, f64)>; 3] =
                [0, 1, 2].map(|d| Self::hat_row(&a[d], &pt.shape.n[d], 1.0));
            let ah: [Vec<(usize, f64)>; 3] =
                [0, 1, 2].map(|d| Self::hat_row(&a[d], &pt.shape.n[d], c));
            for d in 0..3 {
                for &(j, v) in &b[d] {
                    tt.push(d, j, w * v);
                }
            }
            // T_r: w x × (A + αN̂) + I (Γ + αΦ̂).
            let br: [Vec<(usize, f64)>; 3] =
                [0, 1, 2].map(|d| Self::plus_row(&a[d], &pt.shape.n[d], alpha));
            for (cc, pairs) in [
                (0usize, [(1usize, 2usize, 1.0f64), (2, 1, -1.0)]),
                (1, [(2, 0, 1.0), (0, 2, -1.0)]),
                (2, [(0, 1, 1.0), (1, 0, -1.0)]),
            ] {
                for (d, e, sg) in pairs {
                    let xd = pt.x[d];
                    if xd == 0.0 {
                        continue;
                    }
                    for &(j, v) in &br[e] {
                        tr.push(cc, j, sg * w * xd * v);
                    }
                }
            }
            let gh1: [Vec<(usize, f64)>; 3] =
                [0, 1, 2].map(|d| Self::plus_row(&g[d], &pt.shape.phi[d], alpha));
            let ghc: [Vec<(usize, f64)>; 3] =
                [0, 1, 2].map(|d| Self::hat_row(&g[d], &pt.shape.phi[d], c));
            for d in 0..3 {
                for e in 0..3 {
                    let ide = pt.inertia[d][e];
                    if ide == 0.0 {
                        continue;
                    }
                    for &(j, v) in &gh1[e] {
                        tr.push(d, j, ide * v);
                    }
                }
            }
            // G_c: Σ w N_dᵀ ε_dec â_e + Φ_dᵀ ε_dec (I Γ̂)_e.
            if n_f > 0 {
                // (I Γ̂)_e rows
                let mut ig: [Vec<(usize, f64)>; 3] = [Vec::new(), Vec::new(), Vec::new()];
                for e in 0..3 {
                    for f in 0..3 {
                        let ief = pt.inertia[e][f];
                        if ief != 0.0 {
                            ig[e].extend(ghc[f].iter().map(|&(j, v)| (j, ief * v)));
                        }
                    }
                }
                for (cc, tgc) in tg.iter_mut().enumerate() {
                    for &(d, e, sg) in &CROSS_E[cc] {
                        for &(i, ni) in &pt.shape.n[d] {
                            for &(j, v) in &ah[e] {
                                tgc.push(i, j, sg * w * ni * v);
                            }
                        }
                        for &(i, fi) in &pt.shape.phi[d] {
                            for &(j, v) in &ig[e] {
                                tgc.push(i, j, sg * fi * v);
                            }
                        }
                    }
                }
                for d in 0..3 {
                    for &(i, v) in &pt.shape.n[d] {
                        tw.push(d, i, w * v);
                    }
                }
            }
        }
        let (D, names) = match &flexible {
            Some(f) => {
                tm.push_block(6 + n_f, 6 + n_f, &f.C, 1.0);
                (f.D.clone(), f.names)
            }
            None => (sparse::zeros(0, 0), layout::ELASTIC_NAMES),
        };
        let n_local = n_q + n_p;
        let mut port_maps = Vec::with_capacity(ports.len());
        let mut port_list = Vec::with_capacity(ports.len());
        let mut tb = Triplets::new(n_local, 6 * ports.len());
        for (k, (sp, shape)) in ports.iter().enumerate() {
            let mut t = Triplets::new(n_local, 6);
            for d in 0..3 {
                for (j, v) in Self::velocity_row(d, sp.position, &shape.n[d]) {
                    t.push(n_q + j, d, v);
                    tb.push(n_q + j, 6 * k + d, v);
                }
                for (j, v) in Self::rotation_row(d, &shape.phi[d]) {
                    t.push(n_q + j, 3 + d, v);
                    tb.push(n_q + j, 6 * k + 3 + d, v);
                }
            }
            port_maps.push(t.build());
            port_list.push((
                sp.name.clone(),
                format!("force and torque at '{}', body frame [N, N m]", sp.name),
                format!(
                    "velocity and angular velocity of '{}', body frame [m/s, rad/s]",
                    sp.name
                ),
            ));
        }
        let port_set = layout::port_set(name, 6, port_list)?;
        let M = tm.build();
        let E = layout::constant_descriptor(n_q, &M);
        let blocks = layout::variable_blocks(
            name,
            &layout::SPATIAL_POSE,
            &layout::SPATIAL_TWIST,
            names,
            n_f,
            n_s,
        );
        let mut x0 = vec![0.0; n_local];
        x0[..3].copy_from_slice(&init.position);
        store_row_major(&init.rotation, &mut x0[3..]);
        x0[n_q..n_q + 3].copy_from_slice(&init.velocity);
        x0[n_q + 3..n_q + 6].copy_from_slice(&init.angular_velocity);
        let (sp, shapes): (Vec<_>, Vec<_>) = ports.into_iter().unzip();
        Ok(Self {
            name: name.to_string(),
            n_f,
            n_s,
            M,
            D,
            T_t: tt.build(),
            T_r: tr.build(),
            G: tg.map(|t| t.build()),
            mass,
            first_moment: s,
            W: tw.build(),
            ports: sp,
            shapes,
            port_maps,
            input_map: tb.build(),
            port_set,
            gravity: [0.0; 3],
            blocks,
            E,
            x0,
            beam: None,
            full: None,
            stiffening: None,
        })
    }

    /// Attaches the finite element spaces of a beam (for output at material points).
    pub(crate) fn set_beam_shapes(&mut self, s: crate::body::floating_beam::spatial::BeamShapes3d) {
        self.beam = Some(s);
    }

    /// Switches the geometric stiffening of [`crate::body::spatial::stiffening`] on.
    pub(crate) fn set_stiffening(&mut self, vk: VonKarman) {
        self.stiffening = Some(vk);
    }

    /// The von Kármán coupling of a beam built with geometric stiffening
    /// ([`crate::FloatingBeam3d::geometric_stiffening`]), `None` otherwise.
    pub fn stiffening(&self) -> Option<&VonKarman> {
        self.stiffening.as_ref()
    }

    /// The finite element spaces of a beam body (`None` otherwise).
    pub fn beam_shapes(&self) -> Option<&crate::body::floating_beam::spatial::BeamShapes3d> {
        self.beam.as_ref()
    }

    /// Row `d` of $A_k$ (velocity of a point at `x` with displacement row `n`) over the local
    /// $p$ indices ($v$: 0–2, $\omega$: 3–5, $v_f$: from 6).
    fn velocity_row(d: usize, x: [f64; 3], n: &[(usize, f64)]) -> Vec<(usize, f64)> {
        let mut r = Vec::with_capacity(3 + n.len());
        r.push((d, 1.0));
        // (ω × x)_d
        let (a, b) = match d {
            0 => ((4, x[2]), (5, -x[1])),
            1 => ((5, x[0]), (3, -x[2])),
            _ => ((3, x[1]), (4, -x[0])),
        };
        if a.1 != 0.0 {
            r.push(a);
        }
        if b.1 != 0.0 {
            r.push(b);
        }
        r.extend(n.iter().map(|&(i, v)| (6 + i, v)));
        r
    }

    /// Row `d` of $\Gamma_k$ (angular velocity with elastic rotation row `phi`).
    fn rotation_row(d: usize, phi: &[(usize, f64)]) -> Vec<(usize, f64)> {
        let mut r = Vec::with_capacity(1 + phi.len());
        r.push((3 + d, 1.0));
        r.extend(phi.iter().map(|&(i, v)| (6 + i, v)));
        r
    }

    /// $a + \alpha\[0\ 0\ n\ 0\]$.
    fn plus_row(a: &[(usize, f64)], n: &[(usize, f64)], alpha: f64) -> Vec<(usize, f64)> {
        let mut r = a.to_vec();
        if alpha != 0.0 {
            r.extend(n.iter().map(|&(i, v)| (6 + i, alpha * v)));
        }
        r
    }

    /// $c\,a + \[0\ 0\ n\ 0\]$.
    fn hat_row(a: &[(usize, f64)], n: &[(usize, f64)], c: f64) -> Vec<(usize, f64)> {
        let mut r: Vec<(usize, f64)> = a.iter().map(|&(j, v)| (j, c * v)).collect();
        r.extend(n.iter().map(|&(i, v)| (6 + i, v)));
        r
    }

    /// Number of stress coefficients $n_\sigma$.
    pub fn n_stress(&self) -> usize {
        self.n_s
    }

    /// First moment of mass about $P$, body frame, $s = \sum_k w_kx_k$ \[kg m\].
    pub fn first_moment(&self) -> [f64; 3] {
        self.first_moment
    }

    /// The mass operator $M$ ($n_p\times n_p$).
    pub fn mass_matrix(&self) -> &SparseMat {
        &self.M
    }

    /// The differential operator $D$ ($n_\sigma\times n_f$): $C\dot\sigma = Dv_f$.
    pub fn differential_operator(&self) -> &SparseMat {
        &self.D
    }

    /// Gravity vector \[m/s²\].
    pub fn gravity(&self) -> [f64; 3] {
        self.gravity
    }

    /// Sets the gravity vector (inertial frame) \[m/s²\].
    pub fn set_gravity(&mut self, g: [f64; 3]) {
        self.gravity = g;
    }

    /// The ports (attachment point and frame, body frame, undeformed).
    pub fn spatial_ports(&self) -> &[SpatialPort] {
        &self.ports
    }

    /// The port map $B_k$ ($n_{local}\times 6$).
    pub fn port_map_of(&self, k: usize) -> &SparseMat {
        &self.port_maps[k]
    }

    /// Rotation $R$ stored in a local state.
    pub fn rotation_of(x: &[f64]) -> [[f64; 3]; 3] {
        crate::spatial::rotation_from_state(x)
    }

    /// $\max_{ij}|(R^\top R - I)_{ij}|$ of a local state.
    pub fn orthogonality_defect(x: &[f64]) -> f64 {
        crate::body::rigid::spatial::RigidBody3dModel::orthogonality_defect(x)
    }

    /// Momenta $(p_t, p_r) = (Mp)_{v,\omega}$: linear momentum and angular momentum about
    /// $P$, body frame.
    pub fn momenta(&self, x: &[f64]) -> ([f64; 3], [f64; 3]) {
        let p = &x[self.n_q()..];
        if let Some(fi) = &self.full {
            return fi.rigid_momenta(&x[12..self.n_q()], p);
        }
        let mut m = [0.0; 6];
        for j in 0..self.M.ncols() {
            let pj = p[j];
            if pj == 0.0 {
                continue;
            }
            for (i, v) in sparse::col_iter(&self.M, j) {
                if i < 6 {
                    m[i] += v * pj;
                }
            }
        }
        ([m[0], m[1], m[2]], [m[3], m[4], m[5]])
    }

    /// Inertial linear momentum $Rp_t$ and angular momentum about the inertial origin
    /// $Rp_r + {}^ir_P\times Rp_t$.
    pub fn spatial_momenta(&self, x: &[f64]) -> ([f64; 3], [f64; 3]) {
        self.angular_momentum_about(x, [0.0; 3])
    }

    /// Inertial linear momentum and angular momentum about the inertial point `o`:
    /// $(Rp_t,\ Rp_r + ({}^ir_P - o)\times Rp_t)$.
    pub fn angular_momentum_about(&self, x: &[f64], o: [f64; 3]) -> ([f64; 3], [f64; 3]) {
        let (pt, pr) = self.momenta(x);
        let r = Self::rotation_of(x);
        let lt = mat_vec(&r, pt);
        let lr = mat_vec(&r, pr);
        let c = cross([x[0] - o[0], x[1] - o[1], x[2] - o[2]], lt);
        (lt, [lr[0] + c[0], lr[1] + c[1], lr[2] + c[2]])
    }

    /// Elastic shape of port `k`.
    pub fn port_shape(&self, k: usize) -> &PointShape3d {
        &self.shapes[k]
    }

    /// Body-frame velocity and angular velocity of port `k`, $B_k^\top z$ with $z_p = p$.
    pub fn port_velocity(&self, k: usize, x: &[f64]) -> [f64; 6] {
        let y = sparse::mul_vec_transpose(&self.port_maps[k], x);
        [y[0], y[1], y[2], y[3], y[4], y[5]]
    }

    /// Inertial position of port `k`, ${}^ir_P + R(a_k + N_ku_f)$.
    pub fn port_position(&self, k: usize, x: &[f64]) -> [f64; 3] {
        let u = &x[12..self.n_q()];
        let d = self.shapes[k].displacement(u);
        let a = self.ports[k].position;
        let r = Self::rotation_of(x);
        let ra = mat_vec(&r, [a[0] + d[0], a[1] + d[1], a[2] + d[2]]);
        [x[0] + ra[0], x[1] + ra[1], x[2] + ra[2]]
    }

    fn potential_local(&self, x: &[f64]) -> f64 {
        let g = self.gravity;
        if g == [0.0; 3] {
            return 0.0;
        }
        let a = self.first_moment_deformed(x);
        let ra = mat_vec(&Self::rotation_of(x), a);
        -(0..3)
            .map(|i| g[i] * (self.mass * x[i] + ra[i]))
            .sum::<f64>()
    }

    /// $s + Wu_f$.
    fn first_moment_deformed(&self, x: &[f64]) -> [f64; 3] {
        let mut a = self.first_moment;
        if self.n_f > 0 {
            sparse::mul_add(&mut a, 1.0, &self.W, &x[12..self.n_q()]);
        }
        a
    }

    /// Effort $z = (\partial_q V, p)$ of a local state; with full inertia
    /// $z_{u_f} = \partial_{u_f}V - c(u_f; p, p)$ ([`crate::body::spatial::full_inertia`], eq. (F2)).
    pub fn effort_local(&self, x: &[f64], z: &mut [f64]) {
        self.effort_impl(x, z, None)
    }

    /// [`Self::effort_local`], with the centrifugal term $c(u_f; p_0, p_1)$ of the given
    /// pair of velocities (eq. (F5)) instead of $c(u_f; p, p)$.
    fn effort_impl(&self, x: &[f64], z: &mut [f64], pair: Option<(&[f64], &[f64])>) {
        let n_q = self.n_q();
        z[..n_q].iter_mut().for_each(|v| *v = 0.0);
        let g = self.gravity;
        if g != [0.0; 3] {
            let a = self.first_moment_deformed(x);
            for i in 0..3 {
                z[i] = -self.mass * g[i];
                for j in 0..3 {
                    z[3 + 3 * i + j] = -g[i] * a[j];
                }
            }
            if self.n_f > 0 {
                let r = Self::rotation_of(x);
                let rtg = mat_t_vec(&r, g);
                let zu = &mut z[12..n_q];
                sparse::mul_add_transpose(zu, -1.0, &self.W, &rtg);
            }
        }
        z[n_q..].copy_from_slice(&x[n_q..]);
        if let Some(fi) = &self.full {
            let p = &x[n_q..];
            let (p0, p1) = pair.unwrap_or((p, p));
            let mut c = vec![0.0; self.n_f];
            fi.centrifugal(&x[12..n_q], p0, p1, &mut c);
            for (zj, cj) in z[12..n_q].iter_mut().zip(&c) {
                *zj -= cj;
            }
        }
    }

    /// Pushes $\partial z/\partial x$ at offset `off`.
    pub fn push_effort_jacobian(&self, x: &[f64], t: &mut Triplets, off: usize) {
        let n_q = self.n_q();
        for i in n_q..self.n_local() {
            t.push(off + i, off + i, 1.0);
        }
        if let Some(fi) = &self.full {
            // z_u = ∂_u V − c(u; p, p): −∂c/∂u and −∂c/∂p = −(∂_u π)ᵀ.
            let (u, p) = (&x[12..n_q], &x[n_q..]);
            fi.for_each_centrifugal_u(p, |j, l, v| t.push(off + 12 + j, off + 12 + l, -v));
            fi.for_each_momentum_u(u, p, |i, j, v| t.push(off + 12 + j, off + n_q + i, -v));
        }
        let g = self.gravity;
        if g == [0.0; 3] || self.n_f == 0 {
            return;
        }
        // ∂z_{R_ij}/∂u_l = ∂z_{u_l}/∂R_ij = −g_i W_jl
        for l in 0..self.n_f {
            for (j, w) in sparse::col_iter(&self.W, l) {
                for i in 0..3 {
                    let v = -g[i] * w;
                    t.push(off + 3 + 3 * i + j, off + 12 + l, v);
                    t.push(off + 12 + l, off + 3 + 3 * i + j, v);
                }
            }
        }
    }

    /// $\hat p_t = T_tp$, $p_r = T_rp$ and $G(p)e_c = \mathcal G_cp$ of a local state.
    /// The gyroscopic data of [`Self::gyro`] for a local state: with full inertia the
    /// momenta $(\pi_v, \pi_\omega)$ (or the given ones, e.g. the step averages of eq.
    /// (F4)) and no flexible operator.
    fn gyro_of(
        &self,
        x: &[f64],
        pis: Option<([f64; 3], [f64; 3])>,
    ) -> ([f64; 3], [f64; 3], [Vec<f64>; 3]) {
        let n_q = self.n_q();
        match (&self.full, pis) {
            (Some(_), Some((a, b))) => (a, b, [Vec::new(), Vec::new(), Vec::new()]),
            (Some(fi), None) => {
                let (a, b) = fi.rigid_momenta(&x[12..n_q], &x[n_q..]);
                (a, b, [Vec::new(), Vec::new(), Vec::new()])
            }
            (None, _) => self.gyro(&x[n_q..]),
        }
    }

    fn gyro(&self, p: &[f64]) -> ([f64; 3], [f64; 3], [Vec<f64>; 3]) {
        let mut pt = [0.0; 3];
        sparse::mul_add(&mut pt, 1.0, &self.T_t, p);
        let mut pr = [0.0; 3];
        sparse::mul_add(&mut pr, 1.0, &self.T_r, p);
        let g = [0, 1, 2].map(|c| {
            let mut v = vec![0.0; self.n_f];
            if self.n_f > 0 {
                sparse::mul_add(&mut v, 1.0, &self.G[c], p);
            }
            v
        });
        (pt, pr, g)
    }

    /// Pushes $J(x)$ at offset `off`; with `q_cols = false` the columns of $q$ are left out
    /// (the part of $J\,\partial_x z$ for $\partial z_q/\partial x = 0$).
    fn push_structure_impl(
        &self,
        x: &[f64],
        t: &mut Triplets,
        off: usize,
        q_cols: bool,
        pis: Option<([f64; 3], [f64; 3])>,
    ) {
        let n_f = self.n_f;
        let n_q = self.n_q();
        let (iv, iw, ivf, is) = (off + n_q, off + n_q + 3, off + n_q + 6, off + n_q + 6 + n_f);
        let r = Self::rotation_of(x);
        for i in 0..3 {
            for j in 0..3 {
                t.push(off + i, iv + j, r[i][j]);
                if q_cols {
                    t.push(iv + j, off + i, -r[i][j]);
                }
            }
            // J[R_i, ω] = [R_i]×, J[ω, R_i] = [R_i]×
            let ri = r[i];
            let s = hat(ri);
            for a in 0..3 {
                for b in 0..3 {
                    if s[a][b] != 0.0 {
                        t.push(off + 3 + 3 * i + a, iw + b, s[a][b]);
                        if q_cols {
                            t.push(iw + b, off + 3 + 3 * i + a, -s[a][b]);
                        }
                    }
                }
            }
        }
        for k in 0..n_f {
            t.push(off + 12 + k, ivf + k, 1.0);
            if q_cols {
                t.push(ivf + k, off + 12 + k, -1.0);
            }
        }
        let (pt, pr, g) = self.gyro_of(x, pis);
        let St = hat(pt);
        let Sr = hat(pr);
        for a in 0..3 {
            for b in 0..3 {
                if St[a][b] != 0.0 {
                    t.push(iv + a, iw + b, St[a][b]);
                    t.push(iw + a, iv + b, St[a][b]);
                }
                if Sr[a][b] != 0.0 {
                    t.push(iw + a, iw + b, Sr[a][b]);
                }
            }
        }
        for (c, gc) in g.iter().enumerate() {
            for (k, &v) in gc.iter().enumerate() {
                if v != 0.0 {
                    t.push(ivf + k, iw + c, v);
                    t.push(iw + c, ivf + k, -v);
                }
            }
        }
        if self.n_s > 0 {
            t.push_block(is, ivf, &self.D, 1.0);
            t.push_block_transpose(ivf, is, &self.D, -1.0);
        }
        if let Some(vk) = &self.stiffening {
            vk.push_structure(&x[12..n_q], t, is, ivf);
        }
    }

    /// Pushes $J(x)$ at offset `off` (rows and columns).
    pub fn push_structure(&self, x: &[f64], t: &mut Triplets, off: usize) {
        self.push_structure_impl(x, t, off, true, None);
    }

    /// Matrix-free $f = J(x)z$ (no inputs).
    pub fn rhs_local(&self, x: &[f64], z: &[f64], f: &mut [f64]) {
        self.rhs_local_with(x, z, f, None)
    }

    /// [`Self::rhs_local`]; with full inertia the gyroscopic blocks use the momenta `pis`
    /// $(\pi_v, \pi_\omega)$ if given (eq. (F4)), else those of `x`.
    fn rhs_local_with(
        &self,
        x: &[f64],
        z: &[f64],
        f: &mut [f64],
        pis: Option<([f64; 3], [f64; 3])>,
    ) {
        let n_f = self.n_f;
        let n_q = self.n_q();
        let (iv, iw, ivf, is) = (n_q, n_q + 3, n_q + 6, n_q + 6 + n_f);
        let r = Self::rotation_of(x);
        let zv = [z[iv], z[iv + 1], z[iv + 2]];
        let zw = [z[iw], z[iw + 1], z[iw + 2]];
        let p = &x[n_q..];
        // p̂_t, p_r without allocation (the G(p) terms are applied column by column below)
        let (pt, pr) = match (&self.full, pis) {
            (Some(_), Some(m)) => m,
            (Some(fi), None) => fi.rigid_momenta(&x[12..n_q], p),
            (None, _) => {
                let mut pt = [0.0; 3];
                sparse::mul_add(&mut pt, 1.0, &self.T_t, p);
                let mut pr = [0.0; 3];
                sparse::mul_add(&mut pr, 1.0, &self.T_r, p);
                (pt, pr)
            }
        };
        for i in 0..3 {
            f[i] = r[i][0] * zv[0] + r[i][1] * zv[1] + r[i][2] * zv[2];
            let c = cross(r[i], zw);
            f[3 + 3 * i..6 + 3 * i].copy_from_slice(&c);
        }
        f[12..n_q].copy_from_slice(&z[ivf..ivf + n_f]);
        let a = cross(pt, zw);
        let b = cross(pt, zv);
        let c = cross(pr, zw);
        for j in 0..3 {
            f[iv + j] = a[j] - (0..3).map(|i| r[i][j] * z[i]).sum::<f64>();
            f[iw + j] = b[j] + c[j];
        }
        for i in 0..3 {
            let d = cross(r[i], [z[3 + 3 * i], z[4 + 3 * i], z[5 + 3 * i]]);
            for j in 0..3 {
                f[iw + j] += d[j];
            }
        }
        for k in 0..n_f {
            f[ivf + k] = -z[12 + k];
        }
        // f_ω −= G(p)ᵀ z_vf, f_vf += G(p) z_ω with G(p)e_c = 𝒢_c p
        for (cc, gc) in self.G.iter().enumerate() {
            if n_f == 0 || self.full.is_some() {
                break;
            }
            let mut acc = 0.0;
            for (j, &pj) in p.iter().enumerate() {
                if pj == 0.0 {
                    continue;
                }
                for (k, v) in sparse::col_iter(gc, j) {
                    let gkj = v * pj;
                    acc += gkj * z[ivf + k];
                    f[ivf + k] += gkj * zw[cc];
                }
            }
            f[iw + cc] -= acc;
        }
        if self.n_s > 0 {
            let fvf = &mut f[ivf..ivf + n_f];
            sparse::mul_add_transpose(fvf, -1.0, &self.D, &z[is..]);
            let fs = &mut f[is..];
            fs.iter_mut().for_each(|v| *v = 0.0);
            sparse::mul_add(fs, 1.0, &self.D, &z[ivf..ivf + n_f]);
        }
        if let Some(vk) = &self.stiffening {
            let (fv, fs) = f[ivf..].split_at_mut(n_f);
            vk.apply(&x[12..n_q], &z[ivf..ivf + n_f], &z[is..], fv, fs);
        }
    }

    /// Pushes the exact $\partial_x\big(J(x)z(x)\big)$ at offset `off`.
    pub fn push_rhs_jacobian(&self, x: &[f64], t: &mut Triplets, off: usize) {
        self.push_rhs_jacobian_impl(x, t, off, None)
    }

    /// Pushes the exact $\partial f_h/\partial x_m$ of the discrete right-hand side
    /// [`Self::rhs_step`] with the discrete effort (F5) of the step `x0 → x1` (midpoint
    /// `xm`, $x_1 = 2x_m - x_0$) at offset `off`; for the constant operator the Jacobian at
    /// `xm`.
    pub(crate) fn push_rhs_jacobian_step(
        &self,
        x0: &[f64],
        x1: &[f64],
        xm: &[f64],
        t: &mut Triplets,
        off: usize,
    ) {
        let step = self.full.as_ref().map(|_| (x0, x1));
        self.push_rhs_jacobian_impl(xm, t, off, step)
    }

    fn push_rhs_jacobian_impl(
        &self,
        x: &[f64],
        t: &mut Triplets,
        off: usize,
        step: Option<(&[f64], &[f64])>,
    ) {
        let n_f = self.n_f;
        let n_q = self.n_q();
        let (iv, iw, ivf) = (off + n_q, off + n_q + 3, off + n_q + 6);
        let ip = off + n_q;
        // J ∂z/∂x: the p columns of J ...
        let pis = step.map(|(x0, x1)| {
            let (a, b) = (self.momenta(x0), self.momenta(x1));
            let avg = |p: [f64; 3], q: [f64; 3]| [0, 1, 2].map(|i| 0.5 * (p[i] + q[i]));
            (avg(a.0, b.0), avg(a.1, b.1))
        });
        self.push_structure_impl(x, t, off, false, pis);
        let r = Self::rotation_of(x);
        let p = &x[n_q..];
        let v = [p[0], p[1], p[2]];
        let w = [p[3], p[4], p[5]];
        let mut z = vec![0.0; n_q];
        let g = self.gravity;
        if g != [0.0; 3] {
            // effort of the configuration (z_p = p is not needed here)
            let a = self.first_moment_deformed(x);
            for i in 0..3 {
                z[i] = -self.mass * g[i];
                for j in 0..3 {
                    z[3 + 3 * i + j] = -g[i] * a[j];
                }
            }
            // ... plus J[ω, R] ∂z_R/∂u = −[Rᵀg]× W and J[v_f, u] ∂z_u/∂R = g_i W_jl
            if n_f > 0 {
                let rtg = mat_t_vec(&r, g);
                let S = hat(rtg);
                for l in 0..n_f {
                    for (j, wv) in sparse::col_iter(&self.W, l) {
                        for a in 0..3 {
                            if S[a][j] != 0.0 {
                                t.push(iw + a, off + 12 + l, -S[a][j] * wv);
                            }
                        }
                        for i in 0..3 {
                            t.push(ivf + l, off + 3 + 3 * i + j, g[i] * wv);
                        }
                    }
                }
            }
        }
        // (∂J/∂x) z with z_p = p:
        for i in 0..3 {
            for j in 0..3 {
                // ṙ = R v
                t.push(off + i, off + 3 + 3 * i + j, v[j]);
                // v rows: −Rᵀ z_r
                if z[i] != 0.0 {
                    t.push(iv + j, off + 3 + 3 * i + j, -z[i]);
                }
            }
        }
        let Wx = hat(w);
        for i in 0..3 {
            for a in 0..3 {
                for b in 0..3 {
                    // Ṙ_i = R_i × ω
                    if Wx[a][b] != 0.0 {
                        t.push(off + 3 + 3 * i + a, off + 3 + 3 * i + b, -Wx[a][b]);
                    }
                }
            }
            // ω rows: Σ R_i × z_{R_i}
            let Z = hat([z[3 + 3 * i], z[4 + 3 * i], z[5 + 3 * i]]);
            for a in 0..3 {
                for b in 0..3 {
                    if Z[a][b] != 0.0 {
                        t.push(iw + a, off + 3 + 3 * i + b, -Z[a][b]);
                    }
                }
            }
        }
        if let Some(vk) = &self.stiffening {
            // (∂_u J) z of the von Kármán pairs (z_vf = v_f, z_σ = σ)
            vk.push_jacobian(&p[6..6 + n_f], &p[6 + n_f..], t, off + 12, ivf + n_f, ivf);
        }
        if let Some(fi) = &self.full {
            self.push_full_rhs_jacobian(fi, x, t, off, step);
            return;
        }
        // momentum dependence of [p̂_t]×, [p_r]×: v rows −[ω]× T_t, ω rows −[v]× T_t − [ω]× T_r
        for j in 0..self.T_t.ncols() {
            let mut tj = [0.0; 3];
            for (i, val) in sparse::col_iter(&self.T_t, j) {
                tj[i] = val;
            }
            let mut rj = [0.0; 3];
            for (i, val) in sparse::col_iter(&self.T_r, j) {
                rj[i] = val;
            }
            if tj == [0.0; 3] && rj == [0.0; 3] {
                continue;
            }
            let a = cross(w, tj);
            let b = cross(v, tj);
            let c = cross(w, rj);
            for k in 0..3 {
                if a[k] != 0.0 {
                    t.push(iv + k, ip + j, -a[k]);
                }
                let e = b[k] + c[k];
                if e != 0.0 {
                    t.push(iw + k, ip + j, -e);
                }
            }
        }
        if n_f > 0 {
            let vf = &p[6..6 + n_f];
            for c in 0..3 {
                // v_f rows: ω_c 𝒢_c ; ω_c row: −v_fᵀ 𝒢_c
                let Gc = &self.G[c];
                for j in 0..Gc.ncols() {
                    let mut acc = 0.0;
                    for (k, val) in sparse::col_iter(Gc, j) {
                        if w[c] != 0.0 {
                            t.push(ivf + k, ip + j, w[c] * val);
                        }
                        acc += vf[k] * val;
                    }
                    if acc != 0.0 {
                        t.push(iw + c, ip + j, -acc);
                    }
                }
            }
        }
    }

    /// The part of $\partial_x(J(x)z(x))$ specific to full inertia (eqs. (F2)–(F3) of
    /// [`crate::body::spatial::full_inertia`]): the momentum dependence of $[\pi_v]_\times$,
    /// $[\pi_\omega]_\times$ (v rows $-[\omega]_\times\partial_x\pi_v$, $\omega$ rows
    /// $-[v_P]_\times\partial_x\pi_v - [\omega]_\times\partial_x\pi_\omega$, with
    /// $\partial_p\pi = M(u_f)$ and $\partial_{u_f}\pi$) and, in the $v_f$ rows
    /// ($f_{v_f} = -z_{u_f} + \dots$), $+\partial_x c(u_f; p, p)$.
    ///
    /// For a discrete step (`step = Some((x0, x1))`, `x` the midpoint, $x_1 = 2x_m - x_0$):
    /// the averaged momenta $\bar\pi$ of (F4) give $\partial\bar\pi/\partial x_m =
    /// \partial\pi/\partial x\,(x_1)$, and $c(u_m; p_0, p_1)$ of (F5) gives
    /// $\partial_{u_m}c(u_m; p_0, p_1)$ and $\partial c_j/\partial p_m = \partial_{u_j}(M(u_m)p_0)$.
    fn push_full_rhs_jacobian(
        &self,
        fi: &FullInertia3d,
        x: &[f64],
        t: &mut Triplets,
        off: usize,
        step: Option<(&[f64], &[f64])>,
    ) {
        let n_f = self.n_f;
        let n_q = self.n_q();
        let nv = 6 + n_f;
        let (iv, iw, ivf, ip) = (off + n_q, off + n_q + 3, off + n_q + 6, off + n_q);
        let (u, p) = (&x[12..n_q], &x[n_q..]);
        let v = [p[0], p[1], p[2]];
        let w = [p[3], p[4], p[5]];
        // the state at which the momenta of the gyroscopic blocks are differentiated
        let xs = step.map_or(x, |(_, x1)| x1);
        let (us, ps) = (&xs[12..n_q], &xs[n_q..]);
        // columns of ∂(π_v, π_ω)/∂(p, u): p columns 0..nv, u columns nv..nv + n_f
        let mut cols = vec![[0.0f64; 6]; nv + n_f];
        fi.for_each_mass(us, |i, j, val| {
            if i < 6 {
                cols[j][i] += val;
            }
        });
        fi.for_each_momentum_u(us, ps, |i, j, val| {
            if i < 6 {
                cols[nv + j][i] += val;
            }
        });
        for (j, d) in cols.iter().enumerate() {
            if d.iter().all(|&e| e == 0.0) {
                continue;
            }
            let col = if j < nv { ip + j } else { off + 12 + j - nv };
            let (tj, rj) = ([d[0], d[1], d[2]], [d[3], d[4], d[5]]);
            let a = cross(w, tj);
            let b = cross(v, tj);
            let c = cross(w, rj);
            for k in 0..3 {
                if a[k] != 0.0 {
                    t.push(iv + k, col, -a[k]);
                }
                let e = b[k] + c[k];
                if e != 0.0 {
                    t.push(iw + k, col, -e);
                }
            }
        }
        let (p0, p1) = match step {
            Some((x0, x1)) => (&x0[n_q..], &x1[n_q..]),
            None => (p, p),
        };
        fi.for_each_centrifugal_u2(p0, p1, |j, l, val| t.push(ivf + j, off + 12 + l, val));
        fi.for_each_momentum_u(u, p0, |i, j, val| t.push(ivf + j, ip + i, val));
    }

    /// Switches the deformation-dependent inertia of [`crate::body::spatial::full_inertia`] on, with
    /// the mass points the body was built from.
    pub(crate) fn set_full_inertia(&mut self, points: &[MassPoint3d]) {
        self.full = Some(FullInertia3d::new(points, self.n_f));
    }

    /// True if the mass operator depends on the elastic coordinates
    /// ([`crate::FloatingBeam3d::full_inertia`]).
    pub fn has_full_inertia(&self) -> bool {
        self.full.is_some()
    }

    /// Momenta $\pi = M(u_f)p$ of a local state (all co-energy variables; the stress part
    /// is $C\sigma$); with the constant operator $Mp$.
    pub fn momentum(&self, x: &[f64]) -> Vec<f64> {
        let n_q = self.n_q();
        let p = &x[n_q..];
        let mut out = sparse::mul_vec(&self.M, p);
        if let Some(fi) = &self.full {
            fi.momentum(&x[12..n_q], p, &mut out);
        }
        out
    }

    /// Pushes the descriptor at offset `off`: $\operatorname{diag}(I, M)$, or with full
    /// inertia eq. (F3) $\begin{bmatrix}I & 0\\ \partial_q\pi & M(u_f)\end{bmatrix}$.
    pub(crate) fn push_descriptor(&self, x: &[f64], t: &mut Triplets, off: usize) {
        let Some(fi) = &self.full else {
            t.push_block(off, off, &self.E, 1.0);
            return;
        };
        let n_q = self.n_q();
        let (u, p) = (&x[12..n_q], &x[n_q..]);
        layout::push_full_descriptor(
            t,
            off,
            n_q,
            12,
            6 + self.n_f,
            &self.M,
            |t| fi.push_mass(u, t, off + n_q, off + n_q),
            |f| fi.for_each_momentum_u(u, p, f),
        );
    }

    /// Discrete increment of eq. (F4) for a local step: $(q_1 - q_0,\ \pi(x_1) - \pi(x_0))$
    /// (with the constant operator this is $E(x_1 - x_0)$).
    pub(crate) fn increment(&self, x0: &[f64], x1: &[f64], out: &mut [f64]) {
        layout::momentum_increment(self.n_q(), x0, x1, |x| self.momentum(x), out)
    }

    /// Discrete effort (F5) of a local step `x0 → x1`: the gradient of gravity at the
    /// midpoint (exact: $V$ is affine in ${}^ir_P$ and bilinear in $(R, u_f)$), $\bar p$, and
    /// $-c(u_m; p_0, p_1)$ in the elastic rows.
    pub(crate) fn discrete_effort(&self, x0: &[f64], x1: &[f64], z: &mut [f64]) {
        let n_q = self.n_q();
        let xm: Vec<f64> = x0.iter().zip(x1).map(|(a, b)| 0.5 * (a + b)).collect();
        self.effort_impl(&xm, z, Some((&x0[n_q..], &x1[n_q..])));
    }

    /// Discrete $J z$ of eq. (F4): $J(x_m)$ with the average momenta
    /// $(\pi(x_0) + \pi(x_1))/2$ in the gyroscopic blocks (full inertia).
    pub(crate) fn rhs_step(&self, x0: &[f64], x1: &[f64], xm: &[f64], z: &[f64], f: &mut [f64]) {
        if self.full.is_none() {
            return self.rhs_local(xm, z, f);
        }
        let (a, b) = (self.momenta(x0), self.momenta(x1));
        let avg = |p: [f64; 3], q: [f64; 3]| [0, 1, 2].map(|i| 0.5 * (p[i] + q[i]));
        self.rhs_local_with(xm, z, f, Some((avg(a.0, b.0), avg(a.1, b.1))));
    }

    /// With full inertia the elastic displacement $N_ku_f$ of port `k` (see
    /// [`crate::spatial::SpatialBody::port_shift`]).
    pub fn port_shift(&self, k: usize, x: &[f64]) -> Option<[f64; 3]> {
        self.full.as_ref()?;
        Some(self.shapes[k].displacement(&x[12..self.n_q()]))
    }

    /// $\partial(N_ku_f)/\partial u_j$ as `(local index, N_k e_j)` (full inertia only).
    pub fn port_shift_jacobian(&self, k: usize) -> Vec<(usize, [f64; 3])> {
        if self.full.is_none() {
            return Vec::new();
        }
        let mut out: Vec<(usize, [f64; 3])> = Vec::new();
        for (d, row) in self.shapes[k].n.iter().enumerate() {
            for &(j, v) in row {
                match out.iter_mut().find(|e| e.0 == 12 + j) {
                    Some(e) => e.1[d] += v,
                    None => {
                        let mut c = [0.0; 3];
                        c[d] = v;
                        out.push((12 + j, c));
                    }
                }
            }
        }
        out
    }

    /// Dense $M_{vv}(u_f)$ and $\Gamma = \partial_{u_f}(M_{vv}p)v_f$ (full inertia only).
    pub(crate) fn velocity_mass(&self, x: &[f64]) -> Option<(faer::Mat<f64>, Vec<f64>)> {
        let fi = self.full.as_ref()?;
        let n_q = self.n_q();
        let nv = 6 + self.n_f;
        let (u, p) = (&x[12..n_q], &x[n_q..]);
        let mut M = faer::Mat::<f64>::zeros(nv, nv);
        fi.for_each_mass(u, |i, j, v| M[(i, j)] += v);
        let mut g = vec![0.0; nv];
        fi.for_each_momentum_u(u, p, |i, j, v| g[i] += v * p[6 + j]);
        Some((M, g))
    }

    /// Inertial orientation of the material frame at port `k`:
    /// $R\,(I + \[\Phi_ku_f\]_\times)\,C_k$ (orthogonal to first order in the deformation).
    pub fn port_rotation(&self, k: usize, x: &[f64]) -> [[f64; 3]; 3] {
        let u = &x[12..self.n_q()];
        let phi = self.shapes[k].rotation(u);
        let S = hat(phi);
        let r = Self::rotation_of(x);
        let c = self.ports[k].orientation;
        mat_mul(&mat_mul(&r, &lin_comb(1.0, &IDENTITY3, 1.0, &S)), &c)
    }

    /// Analytic $\partial\,{}^ir_k/\partial x$: $e_i$ for $r_i$, $(a + N_ku)_je_i$ for $R_{ij}$,
    /// $R N_k e_l$ for $u_l$.
    pub fn port_position_jacobian(&self, k: usize, x: &[f64]) -> Vec<(usize, [f64; 3])> {
        let u = &x[12..self.n_q()];
        let sh = &self.shapes[k];
        let d = sh.displacement(u);
        let a = self.ports[k].position;
        let ad = [a[0] + d[0], a[1] + d[1], a[2] + d[2]];
        let r = Self::rotation_of(x);
        let mut out = crate::spatial::body::pose_point_jacobian(ad, 12 + 8);
        let mut per_l: Vec<(usize, [f64; 3])> = Vec::new();
        for (comp, row) in sh.n.iter().enumerate() {
            for &(l, val) in row {
                let col = [r[0][comp] * val, r[1][comp] * val, r[2][comp] * val];
                match per_l.iter_mut().find(|e| e.0 == 12 + l) {
                    Some(e) => {
                        for i in 0..3 {
                            e.1[i] += col[i];
                        }
                    }
                    None => per_l.push((12 + l, col)),
                }
            }
        }
        out.extend(per_l);
        out
    }
}

impl PhSystem for FloatingBody3d {
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
        self.effort_local(x, z)
    }
    fn descriptor(&self, x: &[f64]) -> SparseMat {
        if self.full.is_none() || x.len() != self.n_local() {
            return self.E.clone();
        }
        layout::local_matrix(self.n_local(), |t| self.push_descriptor(x, t, 0))
    }
    fn structure(&self, x: &[f64]) -> SparseMat {
        layout::local_matrix(self.n_local(), |t| self.push_structure(x, t, 0))
    }
    fn input_map(&self, x: &[f64]) -> SparseMat {
        if self.full.is_none() || x.len() != self.n_local() {
            return self.input_map.clone();
        }
        // full inertia: the force columns also carry the moment (N_k u_f) × F about P
        let n_q = self.n_q();
        let mut t = Triplets::new(self.n_local(), 6 * self.ports.len());
        t.push_block(0, 0, &self.input_map, 1.0);
        for k in 0..self.ports.len() {
            let s = self.port_shift(k, x).unwrap_or([0.0; 3]);
            for d in 0..3 {
                let mut e = [0.0; 3];
                e[d] = 1.0;
                let m = cross(s, e);
                for c in 0..3 {
                    if m[c] != 0.0 {
                        t.push(n_q + 3 + c, 6 * k + d, m[c]);
                    }
                }
            }
        }
        t.build()
    }
    fn effort_jacobian(&self, x: &[f64]) -> SparseMat {
        layout::local_matrix(self.n_local(), |t| self.push_effort_jacobian(x, t, 0))
    }
    /// With full inertia the discrete gradient (F5) of [`crate::body::spatial::full_inertia`];
    /// otherwise Gonzalez's (the trait default).
    fn discrete_gradient(&self, x0: &[f64], x1: &[f64], zbar: &mut [f64]) {
        if self.full.is_some() {
            return self.discrete_effort(x0, x1, zbar);
        }
        let xm: Vec<f64> = x0.iter().zip(x1).map(|(a, b)| 0.5 * (a + b)).collect();
        self.effort_local(&xm, zbar);
        let dx: Vec<f64> = x1.iter().zip(x0).map(|(a, b)| a - b).collect();
        let w = sparse::mul_vec(&self.E, &dx);
        let (h0, h1) = (
            PhSystem::hamiltonian(self, x0),
            PhSystem::hamiltonian(self, x1),
        );
        phlex_core::system::gonzalez_correction(zbar, &w, (h1 - h0, h0.abs() + h1.abs()), &xm);
    }
    fn rhs_with_effort(&self, x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        self.rhs_local(x, z, f);
        self.add_inputs_local(x, u, f);
    }
    fn rhs_jacobian(&self, x: &[f64], u: &[f64]) -> SparseMat {
        self.local_jacobian(x, u, None)
    }
    fn step_rhs_jacobian(&self, x0: &[f64], x1: &[f64], xm: &[f64], u: &[f64]) -> SparseMat {
        self.local_jacobian(xm, u, Some((x0, x1)))
    }
    fn state_dependent_descriptor(&self) -> bool {
        self.full.is_some()
    }
    fn step_increment(&self, x0: &[f64], x1: &[f64], out: &mut [f64]) {
        self.increment(x0, x1, out)
    }
    fn step_rhs(&self, x0: &[f64], x1: &[f64], xm: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        if self.full.is_none() {
            return self.rhs_with_effort(xm, z, u, f);
        }
        let mut zd = vec![0.0; z.len()];
        self.discrete_effort(x0, x1, &mut zd);
        self.rhs_step(x0, x1, xm, &zd, f);
        self.add_inputs_local(xm, u, f);
    }
}

impl FloatingBody3d {
    /// $f \mathrel{+}= B(x)u$ of the body alone (with full inertia including the moments
    /// $(N_ku_f)\times F_k$ of the port forces).
    fn add_inputs_local(&self, x: &[f64], u: &[f64], f: &mut [f64]) {
        if u.is_empty() {
            return;
        }
        sparse::mul_add(f, 1.0, &self.input_map, u);
        if self.full.is_some() {
            let iw = self.n_q() + 3;
            for k in 0..self.ports.len() {
                let s = self.port_shift(k, x).unwrap_or([0.0; 3]);
                let m = cross(s, [u[6 * k], u[6 * k + 1], u[6 * k + 2]]);
                for c in 0..3 {
                    f[iw + c] += m[c];
                }
            }
        }
    }
}

impl FloatingBody3d {
    /// $\partial_x(J z + B u)$ of the body alone at `x`, or with `step` the Jacobian of the
    /// discrete right-hand side with respect to the midpoint `x`.
    fn local_jacobian(&self, x: &[f64], u: &[f64], step: Option<(&[f64], &[f64])>) -> SparseMat {
        let n = self.n_local();
        let mut t = Triplets::new(n, n);
        match step {
            Some((x0, x1)) => self.push_rhs_jacobian_step(x0, x1, x, &mut t, 0),
            None => self.push_rhs_jacobian(x, &mut t, 0),
        }
        if self.full.is_some() && !u.is_empty() {
            let iw = self.n_q() + 3;
            for k in 0..self.ports.len() {
                let fk = [u[6 * k], u[6 * k + 1], u[6 * k + 2]];
                for (j, nj) in self.port_shift_jacobian(k) {
                    let m = cross(nj, fk);
                    for c in 0..3 {
                        if m[c] != 0.0 {
                            t.push(iw + c, j, m[c]);
                        }
                    }
                }
            }
        }
        t.build()
    }
}

/// The dimension-free body interface ([`crate::body::floating_body`]) of a spatial body.
impl FloatingBody for FloatingBody3d {
    /// Body name.
    fn name(&self) -> &str {
        &self.name
    }
    /// Local state length $n_q + n_p$.
    fn n_local(&self) -> usize {
        self.n_q() + self.n_p()
    }
    /// $n_q = 12 + n_f$.
    fn n_q(&self) -> usize {
        12 + self.n_f
    }
    /// $n_p = 6 + n_f + n_\sigma$.
    fn n_p(&self) -> usize {
        6 + self.n_f + self.n_s
    }
    /// Number of elastic coefficients $n_f$.
    fn n_elastic(&self) -> usize {
        self.n_f
    }
    /// Total mass $m$ \[kg\].
    fn mass(&self) -> f64 {
        self.mass
    }
    fn descriptor(&self) -> &SparseMat {
        &self.E
    }
    fn blocks(&self) -> &[VarBlock] {
        &self.blocks
    }
    /// Initial local state.
    fn initial_state(&self) -> Vec<f64> {
        self.x0.clone()
    }
    fn n_ports(&self) -> usize {
        self.ports.len()
    }
    fn port_name(&self, k: usize) -> &str {
        &self.ports[k].name
    }
    fn effort(&self, x: &[f64], z: &mut [f64]) {
        self.effort_local(x, z)
    }
    fn push_effort_jacobian(&self, x: &[f64], t: &mut Triplets, off: usize) {
        FloatingBody3d::push_effort_jacobian(self, x, t, off)
    }
    fn push_structure(&self, x: &[f64], t: &mut Triplets, off: usize) {
        FloatingBody3d::push_structure(self, x, t, off)
    }
    /// Kinetic, deformation and potential energy of a local state.
    fn energies(&self, x: &[f64]) -> EnergySplit {
        let p = &x[self.n_q()..];
        let (mut kin, def) = layout::kinetic_and_deformation(&self.M, p, 6 + self.n_f);
        if let Some(fi) = &self.full {
            kin = fi.kinetic(&x[12..self.n_q()], p);
        }
        EnergySplit {
            kinetic: kin,
            deformation: def,
            potential: self.potential_local(x),
        }
    }
    fn has_full_inertia(&self) -> bool {
        self.full.is_some()
    }
    fn push_descriptor(&self, x: &[f64], t: &mut Triplets, off: usize) {
        FloatingBody3d::push_descriptor(self, x, t, off)
    }
    fn increment_local(&self, x0: &[f64], x1: &[f64], out: &mut [f64]) {
        self.increment(x0, x1, out)
    }
    fn discrete_effort_local(&self, x0: &[f64], x1: &[f64], z: &mut [f64]) {
        self.discrete_effort(x0, x1, z)
    }
    fn velocity_mass_dense(&self, x: &[f64]) -> Option<(faer::Mat<f64>, Vec<f64>)> {
        self.velocity_mass(x)
    }
    fn for_each_mass_u(&self, x: &[f64], a: &[f64], f: &mut dyn FnMut(usize, usize, f64)) {
        if let Some(fi) = &self.full {
            let n_q = self.n_q();
            fi.for_each_momentum_u(&x[12..n_q], a, f);
        }
    }
}

impl SpatialBody for FloatingBody3d {
    fn ports(&self) -> &[SpatialPort] {
        &self.ports
    }
    fn port_map(&self, k: usize) -> &SparseMat {
        &self.port_maps[k]
    }
    fn port_position(&self, k: usize, x: &[f64]) -> [f64; 3] {
        FloatingBody3d::port_position(self, k, x)
    }
    fn port_position_jacobian(&self, k: usize, x: &[f64]) -> Vec<(usize, [f64; 3])> {
        FloatingBody3d::port_position_jacobian(self, k, x)
    }
    fn port_rotation(&self, k: usize, x: &[f64]) -> [[f64; 3]; 3] {
        FloatingBody3d::port_rotation(self, k, x)
    }
    fn rhs(&self, x: &[f64], z: &[f64], f: &mut [f64]) {
        self.rhs_local(x, z, f)
    }
    fn push_rhs_jacobian(&self, x: &[f64], t: &mut Triplets, off: usize) {
        FloatingBody3d::push_rhs_jacobian(self, x, t, off)
    }
    fn set_gravity(&mut self, g: [f64; 3]) {
        self.gravity = g;
    }
    fn rhs_discrete(&self, x0: &[f64], x1: &[f64], xm: &[f64], z: &[f64], f: &mut [f64]) {
        self.rhs_step(x0, x1, xm, z, f)
    }
    fn push_rhs_jacobian_discrete(
        &self,
        x0: &[f64],
        x1: &[f64],
        xm: &[f64],
        t: &mut Triplets,
        off: usize,
    ) {
        self.push_rhs_jacobian_step(x0, x1, xm, t, off)
    }
    fn port_shift(&self, k: usize, x: &[f64]) -> Option<[f64; 3]> {
        FloatingBody3d::port_shift(self, k, x)
    }
    fn port_shift_jacobian(&self, k: usize) -> Vec<(usize, [f64; 3])> {
        FloatingBody3d::port_shift_jacobian(self, k)
    }
}
