//! The assembled multibody system: the quasilinear index-2 pHDAE of paper 000 eq. (46),
//! $$\begin{bmatrix}E_b & 0 & 0\\ 0 & I & 0\\ 0 & 0 & 0\end{bmatrix}
//!   \begin{pmatrix}\dot x_b\\ \dot\theta_j\\ \dot\lambda\end{pmatrix} =
//!   \begin{bmatrix}J_b(x_b) & -\Theta^\top & G(x)^\top\\ \Theta & 0 & 0\\ -G(x) & 0 & 0\end{bmatrix}
//!   \begin{pmatrix}z_b(x_b)\\ 0\\ \lambda\end{pmatrix} + B(x)\,u .$$
//!
//! * $x_b$: the states of every body ([`crate::body::planar::floating_body`]), $E_b = \mathrm{diag}(I, M)$ and
//!   $J_b$ block diagonal over the bodies;
//! * $\theta_j$: the relative angle of every revolute/weld joint between two bodies
//!   (eq. (44), $\dot\theta = \omega_b - \omega_a$, rows $\Theta$) and the target positions of
//!   prescribed-velocity joints; these states carry no energy ($\partial_\theta H = 0$);
//! * $\lambda$: one multiplier block per joint (index 2), named `"<joint>.lambda"`; the
//!   joint reactions. $G(x)$ collects the joint rows: each row is a combination of port
//!   outputs $B_a^\top p$ of the bodies ([`crate::planar::joint`]), so $G^\top\lambda$ applies the
//!   reactions through the same port maps — the transformer interconnection (45) written as
//!   the gyrator of an improper system (eqs. (47)–(48));
//! * $u$: loads ([`crate::planar::load`]) and prescribed velocities, one named port each.
//!
//! $E$ is constant (unless a body has full inertia: then $E(x)$, eq. (F3) of
//! [`crate::body::planar::full_inertia`]), $J(x)$ is skew-symmetric for every $x$, and
//! $H = \sum_b H_b$; hence $\dot H = y^\top u$ along solutions, and any constraint force
//! does no work.
use phlex_core::sparse::{self, col_iter, SparseMat};
use phlex_core::{PhSystem, PortSet, ProjectionOptions, ProjectionStep, Triplets, VarBlock};
use phlex_solve::{InputFn, Signal};

use crate::body::planar::floating_body::PlanarBody;
use crate::body::planar::pose::{apply2, rot2, Pose2d, Twist2d};
use crate::body::{FloatingBody, Planar};
use crate::common::assembly::{
    impl_joint_assembly, shared_multibody_methods, shared_phdae_methods,
};
use crate::common::bodies::BodyAssembly;
use crate::common::descriptor::FullInertiaAssembly;
use crate::common::force_element::{ForceElements, ForceModel, PointKinematics};
use crate::common::layout::{lay_out, load_port, with_layout, JointSlots, LoadUnits};
use crate::error::MbsError;
use crate::planar::joint::{JointModel, PortGeometry, Resolved, Side, Term};
use crate::planar::load::Frame;

/// A resolved load.
#[derive(Debug, Clone)]
pub(crate) struct LoadModel {
    pub name: String,
    pub body: usize,
    pub port: usize,
    pub frame: Frame,
    pub signals: [Signal; 3],
}

/// Position-level violation of one joint.
#[derive(Debug, Clone, PartialEq)]
pub struct JointDrift {
    /// Joint name.
    pub joint: String,
    /// Residual of each constraint row (m or rad), e.g. the inertial distance of the two
    /// hinge points.
    pub components: Vec<f64>,
    /// Largest absolute component.
    pub max_abs: f64,
}

/// The assembled planar multibody system (build it with [`crate::MultibodyBuilder`]).
///
/// # Panics
/// Query methods taking a body index `b`, a port index or a joint index `j` together with
/// a state `x` panic if an index is out of range or `x` is shorter than [`Multibody::n`];
/// get indices by name with [`Multibody::body_index`], [`Multibody::joint_index`] and
/// [`PlanarBody::port_index`].
#[derive(Debug, Clone)]
pub struct Multibody {
    pub(crate) bodies: Vec<PlanarBody>,
    pub(crate) body_off: Vec<usize>,
    pub(crate) joints: Vec<JointModel>,
    pub(crate) extra_off: Vec<usize>,
    pub(crate) forces: ForceElements,
    pub(crate) lam_off: Vec<usize>,
    pub(crate) loads: Vec<LoadModel>,
    pub(crate) load_in: Vec<usize>,
    pub(crate) joint_in: Vec<usize>,
    pub(crate) n: usize,
    pub(crate) n_rows: usize,
    pub(crate) E: SparseMat,
    pub(crate) ports: PortSet,
    pub(crate) blocks: Vec<VarBlock>,
    pub(crate) ground_points: Vec<(String, [f64; 2])>,
    /// Some body has deformation-dependent inertia (state-dependent descriptor).
    pub(crate) full: bool,
}

impl Multibody {
    /// Lays out the global state and the ports once bodies, joints and loads are resolved.
    pub(crate) fn assemble(
        bodies: Vec<PlanarBody>,
        joints: Vec<JointModel>,
        forces: Vec<ForceModel>,
        loads: Vec<LoadModel>,
        ground_points: Vec<(String, [f64; 2])>,
    ) -> Result<Self, MbsError> {
        let slots: Vec<JointSlots> = joints
            .iter()
            .map(|j| JointSlots {
                name: j.name.clone(),
                n_extra: j.n_extra(),
                extra: if j.has_relative_angle() {
                    (
                        "theta",
                        "relative angle of the joint frames, eq. (44) [rad]",
                    )
                } else {
                    ("target", "target position of the driven port [m, rad]")
                },
                n_rows: j.n_rows(),
                multiplier_meaning: j.multiplier_meaning(),
                n_inputs: j.n_inputs(),
            })
            .collect();
        // Ports: loads, then prescribed-velocity joints.
        let units = LoadUnits {
            at: "point",
            dim: 3,
            force: "N, N, N m",
            velocity: "m/s, m/s, rad/s",
        };
        let load_ports = loads
            .iter()
            .map(|l| {
                let b = &bodies[l.body];
                let at = (b.name(), b.port_name(l.port));
                load_port(&l.name, at, l.frame, &units)
            })
            .collect();
        let lay = lay_out(
            bodies.iter().map(|b| {
                let b: &dyn FloatingBody = b;
                (b.n_local(), b.blocks(), b.descriptor())
            }),
            &slots,
            &forces.iter().map(|f| f.name.clone()).collect::<Vec<_>>(),
            load_ports,
            3,
            (
                "prescribed inertial velocity (and angular velocity) [m/s, rad/s]",
                "driving force (and torque), inertial frame [N, N m]",
            ),
        )?;
        let full = bodies.iter().any(|b| b.has_full_inertia());
        Ok(with_layout!(
            lay,
            forces,
            Self {
                full,
                bodies,
                joints,
                loads,
                ground_points
            }
        ))
    }

    /// The body models, in insertion order.
    pub fn bodies(&self) -> &[PlanarBody] {
        &self.bodies
    }

    /// Ground points.
    pub fn ground_points(&self) -> &[(String, [f64; 2])] {
        &self.ground_points
    }

    pub(crate) fn local<'a>(&self, b: usize, x: &'a [f64]) -> &'a [f64] {
        &x[self.body_range(b)]
    }

    /// Pose of body `b`.
    pub fn pose(&self, b: usize, x: &[f64]) -> Pose2d {
        self.bodies[b].pose_of(self.local(b, x))
    }

    /// Inertial velocity of the reference point and angular velocity of body `b`.
    pub fn twist(&self, b: usize, x: &[f64]) -> Twist2d {
        self.bodies[b].twist_of(self.local(b, x))
    }

    /// Inertial position of a port.
    pub fn port_position(&self, b: usize, port: usize, x: &[f64]) -> [f64; 2] {
        self.bodies[b].port_position(port, self.local(b, x))
    }

    /// Inertial velocity and angular velocity of a port.
    pub fn port_velocity_inertial(&self, b: usize, port: usize, x: &[f64]) -> [f64; 3] {
        let xl = self.local(b, x);
        let y = self.bodies[b].port_velocity(port, xl);
        let v = apply2(&rot2(xl[2]), [y[0], y[1]]);
        [v[0], v[1], y[2]]
    }

    /// Port geometry of joint `j`.
    pub(crate) fn joint_geometry(&self, j: usize, x: &[f64]) -> PortGeometry {
        let jm = &self.joints[j];
        let (a, pa) = jm.a;
        let mut g = PortGeometry {
            pos_a: self.port_position(a, pa, x),
            ang_a: self.bodies[a].port_angle(pa, self.local(a, x)),
            ..Default::default()
        };
        if let Some((b, pb)) = jm.b {
            g.pos_b = self.port_position(b, pb, x);
            g.ang_b = self.bodies[b].port_angle(pb, self.local(b, x));
        }
        g
    }

    shared_multibody_methods!(joint_geometry);

    /// The inputs defined with the model (load and prescribed-velocity signals), in port
    /// order.
    pub fn input(&self) -> InputFn {
        let mut s = Vec::with_capacity(self.ports.total_dim());
        for l in &self.loads {
            s.extend(l.signals.iter().cloned());
        }
        for j in &self.joints {
            if let Resolved::Prescribed { signals, .. } = &j.kind {
                s.extend(signals.iter().cloned());
            }
        }
        InputFn::new(s)
    }

    /// Sets the joint extra states from the body states (relative angles, targets).
    pub fn reset_joint_states(&self, x: &mut [f64]) {
        for (k, j) in self.joints.iter().enumerate() {
            let g = self.joint_geometry(k, x);
            let ta = x[self.body_off[j.a.0] + 2];
            let tb = j.b.map_or(0.0, |(b, _)| x[self.body_off[b] + 2]);
            let e = j.initial_extra(&g, ta, tb);
            x[self.joint_state_range(k)].copy_from_slice(&e);
        }
    }

    /// Global column of port-output component `comp` coefficients: iterates
    /// `(global index, value)` of column `comp` of the port map at state `x` (for a body
    /// with full inertia the $\omega$ entry of a force column carries the deformed port
    /// position, [`PlanarBody::port_velocity`]; it may then appear twice: values add).
    fn port_column<'a>(
        &'a self,
        b: usize,
        port: usize,
        comp: usize,
        x: &[f64],
    ) -> impl Iterator<Item = (usize, f64)> + 'a {
        let o = self.body_off[b] + self.bodies[b].n_q();
        let shift = if comp < 2 {
            self.bodies[b]
                .port_shift(port, self.local(b, x))
                .map(|d| (o + 2, d[comp]))
                .filter(|e| e.1 != 0.0)
        } else {
            None
        };
        col_iter(self.bodies[b].port_map_of(port), comp)
            .map(move |(i, v)| (o + i, v))
            .chain(shift)
    }

    /// Pushes the derivatives, with respect to the elastic coordinates of bodies with full
    /// inertia, of the port-position dependence of $G(x)$ (in $-Gp$ and $G^\top\lambda$)
    /// and of $B(x)u$ (loads): the $\omega$ entries $\hat z\times N_a u_f$ of the port maps.
    fn push_port_shift_jacobian(&self, x: &[f64], u: &[f64], t: &mut Triplets) {
        if !self.full {
            return;
        }
        let mut terms: Vec<Term> = Vec::with_capacity(16);
        let lam0 = self.lam_off.first().copied().unwrap_or(self.n);
        let mut row0 = 0;
        for (k, j) in self.joints.iter().enumerate() {
            terms.clear();
            let ta = x[self.body_off[j.a.0] + 2];
            j.push_terms(ta, &x[self.joint_state_range(k)], &mut terms);
            for tm in &terms {
                let (b, p) = match tm.side {
                    Side::A => j.a,
                    Side::B => j.b.expect("side B terms only for joints between bodies"),
                };
                if tm.comp >= 2 || !self.bodies[b].has_full_inertia() {
                    continue;
                }
                let w = self.omega_index(b);
                let r = lam0 + row0 + tm.row;
                let (om, lam) = (x[w], x[r]);
                let u0 = self.body_off[b] + 3;
                self.bodies[b].for_each_port_shift_u(p, tm.comp, |jj, dv| {
                    t.push(r, u0 + jj, -tm.coef * dv * om);
                    t.push(w, u0 + jj, tm.coef * dv * lam);
                });
            }
            row0 += j.n_rows();
        }
        for (l, &c0) in self.loads.iter().zip(&self.load_in) {
            let b = l.body;
            if !self.bodies[b].has_full_inertia() || u.is_empty() {
                continue;
            }
            let w = self.omega_index(b);
            let u0 = self.body_off[b] + 3;
            // ω-row coefficient of input component k: Σ_c shift_c · m[k][c]
            let r = rot2(x[self.body_off[b] + 2]);
            for c in 0..2 {
                let scale = match l.frame {
                    Frame::Body => u[c0 + c],
                    Frame::Inertial => r[0][c] * u[c0] + r[1][c] * u[c0 + 1],
                };
                if scale != 0.0 {
                    self.bodies[b].for_each_port_shift_u(l.port, c, |jj, dv| {
                        t.push(w, u0 + jj, dv * scale);
                    });
                }
            }
        }
    }

    /// Expands joint terms into `(row, global column, value)` of $G$.
    pub(crate) fn for_each_constraint_entry(
        &self,
        x: &[f64],
        mut f: impl FnMut(usize, usize, f64),
    ) {
        let mut terms: Vec<Term> = Vec::with_capacity(16);
        let mut row0 = 0;
        for (k, j) in self.joints.iter().enumerate() {
            terms.clear();
            let ta = x[self.body_off[j.a.0] + 2];
            j.push_terms(ta, &x[self.joint_state_range(k)], &mut terms);
            for t in &terms {
                let (b, p) = match t.side {
                    Side::A => j.a,
                    Side::B => j.b.expect("side B terms only for joints between bodies"),
                };
                for (c, v) in self.port_column(b, p, t.comp, x) {
                    f(row0 + t.row, c, t.coef * v);
                }
            }
            row0 += j.n_rows();
        }
    }

    /// Global index of the angular velocity $\omega$ of body `b`.
    pub(crate) fn omega_index(&self, b: usize) -> usize {
        self.body_off[b] + self.bodies[b].n_q() + 2
    }

    fn push_structure(&self, x: &[f64], t: &mut Triplets) {
        self.push_structure_with(x, t, None)
    }

    /// [`Self::push_structure`] with the linear momenta of the gyroscopic pairs of the
    /// bodies with full inertia given (`pi_v[b]`, eq. (F4)).
    fn push_structure_with(&self, x: &[f64], t: &mut Triplets, pi_v: Option<&[[f64; 2]]>) {
        for (b, body) in self.bodies.iter().enumerate() {
            let pv = pi_v.map(|v| v[b]);
            body.push_structure_with(self.local(b, x), t, self.body_off[b], pv);
        }
        // Relative angles (eq. (44)).
        for (k, j) in self.joints.iter().enumerate() {
            if j.has_relative_angle() {
                let e = self.extra_off[k];
                let wa = self.omega_index(j.a.0);
                let wb = self.omega_index(j.b.expect("relative angle needs two bodies").0);
                t.push(e, wb, 1.0);
                t.push(wb, e, -1.0);
                t.push(e, wa, -1.0);
                t.push(wa, e, 1.0);
            }
        }
        self.forces.push_structure(self, x, t);
        // Constraints: J[λ, ·] = −G, J[·, λ] = Gᵀ.
        let lam0 = self.lam_off.first().copied().unwrap_or(self.n);
        self.for_each_constraint_entry(x, |r, c, v| {
            t.push(lam0 + r, c, -v);
            t.push(c, lam0 + r, v);
        });
    }
}

impl_joint_assembly!(Multibody);

impl PhSystem for Multibody {
    shared_phdae_methods!();

    /// Gonzalez's discrete gradient (the trait default) over the whole state; with bodies
    /// of full inertia, their own discrete gradient (F5) on their states and Gonzalez's on
    /// the rest (so that $\bar z^\top\Delta = H(x_1) - H(x_0)$ with the increment of
    /// [`Multibody::step_increment`]).
    fn discrete_gradient(&self, x0: &[f64], x1: &[f64], zbar: &mut [f64]) {
        let xm: Vec<f64> = x0.iter().zip(x1).map(|(a, b)| 0.5 * (a + b)).collect();
        self.effort(&xm, zbar);
        let dx: Vec<f64> = x1.iter().zip(x0).map(|(a, b)| a - b).collect();
        let mut w = sparse::mul_vec(&self.E, &dx);
        let mut dh = 0.0;
        if self.full {
            for (b, body) in self.bodies.iter().enumerate() {
                let r = self.body_range(b);
                if body.has_full_inertia() {
                    body.discrete_effort_local(
                        &x0[r.clone()],
                        &x1[r.clone()],
                        &mut zbar[r.clone()],
                    );
                    w[r].iter_mut().for_each(|v| *v = 0.0);
                } else {
                    dh += body.energies(&x1[r.clone()]).total() - body.energies(&x0[r]).total();
                }
            }
            dh += self.forces.energy(x1) - self.forces.energy(x0);
        }
        let (h0, h1) = (self.hamiltonian(x0), self.hamiltonian(x1));
        if !self.full {
            dh = h1 - h0;
        }
        phlex_core::system::gonzalez_correction(zbar, &w, (dh, h0.abs() + h1.abs()), &xm);
    }
    fn input_map(&self, x: &[f64]) -> SparseMat {
        let m = self.ports.total_dim();
        let mut t = Triplets::new(self.n, m);
        for (l, &c0) in self.loads.iter().zip(&self.load_in) {
            let b = l.body;
            let r = rot2(x[self.body_off[b] + 2]);
            match l.frame {
                Frame::Body => {
                    for comp in 0..3 {
                        for (i, v) in self.port_column(b, l.port, comp, x) {
                            t.push(i, c0 + comp, v);
                        }
                    }
                }
                Frame::Inertial => {
                    // column for inertial component k: Σ_j B_a[:, j] R[k][j]
                    for k in 0..2 {
                        for j in 0..2 {
                            for (i, v) in self.port_column(b, l.port, j, x) {
                                t.push(i, c0 + k, v * r[k][j]);
                            }
                        }
                    }
                    for (i, v) in self.port_column(b, l.port, 2, x) {
                        t.push(i, c0 + 2, v);
                    }
                }
            }
        }
        self.push_joint_inputs(&mut t);
        t.build()
    }
    /// [`crate::planar::projection::project_onto_constraints`].
    fn project(
        &self,
        x: &mut [f64],
        u: &[f64],
        opts: &ProjectionOptions,
    ) -> Result<ProjectionStep, phlex_core::CoreError> {
        crate::planar::projection::project_onto_constraints(self, x, u, opts)
            .map_err(crate::planar::projection::projection_error)
    }
}

impl Multibody {
    /// $f = J(x)z + B(x)u$ for a given effort `z` (e.g. a discrete gradient).
    pub fn rhs_with_effort(&self, x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        f.iter_mut().for_each(|v| *v = 0.0);
        let mut t = Triplets::new(self.n, self.n);
        self.push_structure(x, &mut t);
        sparse::mul_add(f, 1.0, &t.build(), z);
        self.forces.add_rhs(self, x, z, f, false);
        if !u.is_empty() {
            sparse::mul_add(f, 1.0, &self.input_map(x), u);
        }
    }

    /// Discrete right-hand side of a midpoint step
    /// ([`PhSystem::step_rhs`]): $J(x_m)z + B(x_m)u$, with the
    /// gyroscopic pair of each body with full inertia built from the average linear
    /// momentum $(\pi_v(x_0) + \pi_v(x_1))/2$ (eq. (F4)).
    #[allow(clippy::too_many_arguments)]
    pub fn rhs_discrete(
        &self,
        x0: &[f64],
        x1: &[f64],
        xm: &[f64],
        z: &[f64],
        u: &[f64],
        f: &mut [f64],
    ) {
        if !self.full {
            return self.rhs_with_effort(xm, z, u, f);
        }
        let pis: Vec<[f64; 2]> = (0..self.bodies.len())
            .map(|b| {
                let body = &self.bodies[b];
                let a = body.linear_momentum_local(self.local(b, x0));
                let c = body.linear_momentum_local(self.local(b, x1));
                [0.5 * (a[0] + c[0]), 0.5 * (a[1] + c[1])]
            })
            .collect();
        f.iter_mut().for_each(|v| *v = 0.0);
        let mut t = Triplets::new(self.n, self.n);
        self.push_structure_with(xm, &mut t, Some(&pis));
        sparse::mul_add(f, 1.0, &t.build(), z);
        self.forces.add_rhs(self, xm, z, f, false);
        if !u.is_empty() {
            sparse::mul_add(f, 1.0, &self.input_map(xm), u);
        }
    }

    /// Variables on which $J$ and $B$ depend through rotations: body angles and joint
    /// relative angles.
    pub(crate) fn angle_variables(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.body_off.iter().map(|o| o + 2).collect();
        for (k, j) in self.joints.iter().enumerate() {
            if j.has_relative_angle() {
                v.push(self.extra_off[k]);
            }
        }
        v
    }

    /// Jacobian $\partial f/\partial x$ of $f(x, u) = J(x)z(x) + B(x)u$: $J\,\partial_x z$ plus
    /// the analytic derivative of the momentum-dependent gyroscopic entries, and central
    /// differences (step $10^{-6}(1 + |\theta|)$, error $\approx 10^{-10}|f|$) in the angle
    /// variables, which carry every rotation $R(\theta)$ of $J$ and $B$ (kinematics, body-frame
    /// gravity, joint transformers, inertial loads). With full inertia also the analytic
    /// derivatives of the $u_f$-dependent entries: $\pi_v(u_f, p)$ in the gyroscopic pair,
    /// the centrifugal term of $z$, and the deformed port positions in $G$ and $B$.
    pub fn rhs_jacobian(&self, x: &[f64], u: &[f64]) -> SparseMat {
        let n = self.n;
        let angles = self.angle_variables();
        let mut is_angle = vec![false; n];
        for &a in &angles {
            is_angle[a] = true;
        }
        let JR = if self.forces.has_damping() {
            sparse::add(1.0, &self.structure(x), -1.0, &self.dissipation(x))
        } else {
            self.structure(x)
        };
        let JDz = sparse::matmul(&JR, &self.effort_jacobian(x));
        let mut t = Triplets::new(n, n);
        for j in 0..n {
            if is_angle[j] {
                continue;
            }
            for (i, v) in col_iter(&JDz, j) {
                t.push(i, j, v);
            }
        }
        for (b, body) in self.bodies.iter().enumerate() {
            body.push_gyroscopic_jacobian(self.local(b, x), &mut t, self.body_off[b]);
        }
        self.push_port_shift_jacobian(x, u, &mut t);
        if self.forces.has_terms() {
            let mut z = vec![0.0; n];
            self.effort(x, &mut z);
            self.forces.push_geometry_jacobian(self, x, &z, &mut t);
        }
        let mut xp = x.to_vec();
        let mut fp = vec![0.0; n];
        let mut fm = vec![0.0; n];
        for &a in &angles {
            let h = 1e-6 * (1.0 + x[a].abs());
            xp[a] = x[a] + h;
            self.rhs(&xp, u, &mut fp);
            xp[a] = x[a] - h;
            self.rhs(&xp, u, &mut fm);
            xp[a] = x[a];
            for i in 0..n {
                let d = (fp[i] - fm[i]) / (2.0 * h);
                if d != 0.0 {
                    t.push(i, a, d);
                }
            }
        }
        t.build()
    }
}

/// The planar points for the force elements ([`crate::common::force_element`]): the port
/// velocity $R(\theta)B_a^\top p$ (with the deformed-port shift of full inertia).
impl PointKinematics for Multibody {
    fn point_position(&self, b: usize, port: usize, x: &[f64]) -> [f64; 3] {
        let p = self.port_position(b, port, x);
        [p[0], p[1], 0.0]
    }
    fn for_each_velocity_coefficient(
        &self,
        b: usize,
        port: usize,
        x: &[f64],
        dir: [f64; 3],
        f: &mut dyn FnMut(usize, f64),
    ) {
        let r = rot2(x[self.body_off[b] + 2]);
        for comp in 0..2 {
            let a = r[0][comp] * dir[0] + r[1][comp] * dir[1];
            if a != 0.0 {
                for (i, v) in self.port_column(b, port, comp, x) {
                    f(i, a * v);
                }
            }
        }
    }
    fn body_vector(&self, _b: usize, v: [f64; 3], _x: &[f64]) -> [f64; 3] {
        v
    }
    fn for_each_angular_velocity_coefficient(
        &self,
        b: usize,
        port: usize,
        x: &[f64],
        dir: [f64; 3],
        f: &mut dyn FnMut(usize, f64),
    ) {
        if dir[2] != 0.0 {
            for (i, v) in self.port_column(b, port, 2, x) {
                f(i, dir[2] * v);
            }
        }
    }
    fn position_variables(&self, b: usize) -> std::ops::Range<usize> {
        self.body_off[b]..self.body_off[b] + self.bodies[b].n_q()
    }
    fn differentiated_elsewhere(&self, i: usize) -> bool {
        self.body_off.iter().any(|o| o + 2 == i)
    }
}

/// The planar layout for the shared full-inertia algorithms ([`crate::common::descriptor`]).
impl FullInertiaAssembly for Multibody {
    fn constant_descriptor(&self) -> &SparseMat {
        &self.E
    }
}

/// The planar bodies of the assembly, for the shared per-body loops
/// ([`BodyAssembly`]).
impl BodyAssembly for Multibody {
    type Dim = Planar;
    fn body_count(&self) -> usize {
        self.bodies.len()
    }
    fn floating_body(&self, b: usize) -> &dyn FloatingBody {
        &self.bodies[b]
    }
    fn body_offset(&self, b: usize) -> usize {
        self.body_off[b]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;

    /// A closed mix of every joint kind and body type, at a generic moving state.
    fn mixed() -> Multibody {
        let mut b = MultibodyBuilder::new();
        b.gravity([0.3, -9.81])
            .add_body(
                "crank",
                RigidBody2d::new(1.2, 0.05)
                    .com([0.2, 0.05])
                    .port("tip", [0.4, 0.0])
                    .pose(Pose2d::new(0.0, 0.0, 0.4))
                    .twist(Twist2d::new(0.0, 0.0, 1.3)),
            )
            .add_body(
                "beam",
                FloatingBeam2d::new(1.0, 2.0, 1e4, 30.0, 3)
                    .bc(DeformationBc::SimplySupported)
                    .port("mid", 0.5)
                    .lumped_mass("C", 0.3, 0.01)
                    .pose(Pose2d::new(0.4 * 0.4f64.cos(), 0.4 * 0.4f64.sin(), -0.2))
                    .twist(Twist2d::new(0.2, -0.1, 0.7)),
            )
            .add_joint("hinge", Joint::ground_revolute("crank", "P", "origin"))
            .add_joint("pin", Joint::revolute("crank", "tip", "beam", "P"))
            .add_joint(
                "slide",
                Joint::new(
                    "beam",
                    "C",
                    GROUND,
                    "origin",
                    JointKind::Slider {
                        direction: [1.0, 0.2],
                    },
                ),
            )
            .add_load(
                "f",
                Load::new("beam", "mid", Frame::Inertial).signals(
                    phlex_solve::Signal::Constant(1.0),
                    phlex_solve::Signal::Constant(-2.0),
                    phlex_solve::Signal::Constant(0.5),
                ),
            )
            .add_force(
                "spring",
                SpringDamper::new("crank", "tip", "beam", "mid")
                    .stiffness(50.0)
                    .damping(2.0)
                    .rest_length(0.3)
                    .preload(1.5),
            )
            .add_force(
                "anchor",
                SpringDamper::new("beam", "C", GROUND, "origin")
                    .stiffness(20.0)
                    .damping(0.5),
            )
            .add_force(
                "torsion",
                SpringDamper::rotational("beam", "C", "crank", "tip", [0.0, 0.0, 1.0])
                    .stiffness(4.0)
                    .damping(0.3)
                    .preload(0.2),
            )
            .check_redundancy(false);
        b.build().unwrap()
    }

    /// The exact Jacobian of f = (J(x) − R(x))z(x) + B(x)u (joints, loads, spring-dampers)
    /// matches central differences (error
    /// O(h²)·|f''| ≈ 1e-8 with h = 1e-5, relative to the entry scale).
    #[test]
    fn rhs_jacobian_matches_finite_differences() {
        let mb = mixed();
        let mut x = mb.initial_state();
        // generic elastic displacements, velocities, stresses and multipliers
        for (i, v) in x.iter_mut().enumerate() {
            *v += 0.01 * ((i as f64) * 0.7).sin();
        }
        let u = [1.0, -2.0, 0.5];
        let A = sparse::to_dense(&mb.rhs_jacobian(&x, &u));
        let n = mb.n();
        let mut fp = vec![0.0; n];
        let mut fm = vec![0.0; n];
        let scale = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .fold(0.0f64, |m, (i, j)| m.max(A[(i, j)].abs()));
        for k in 0..n {
            let h = 1e-5;
            let mut xp = x.clone();
            xp[k] += h;
            mb.rhs(&xp, &u, &mut fp);
            xp[k] -= 2.0 * h;
            mb.rhs(&xp, &u, &mut fm);
            for i in 0..n {
                let d = (fp[i] - fm[i]) / (2.0 * h);
                assert!(
                    (d - A[(i, k)]).abs() < 1e-7 * scale,
                    "df{i}/dx{k}: fd {d}, jacobian {}",
                    A[(i, k)]
                );
            }
        }
        // J is skew at this state
        let J = sparse::to_dense(&mb.structure(&x));
        for i in 0..n {
            for j in 0..n {
                assert!((J[(i, j)] + J[(j, i)]).abs() < 1e-14);
            }
        }
    }
}
