//! The assembled spatial multibody system: the quasilinear index-2 pHDAE of paper 000
//! eq. (46) in 3D,
//! $$\begin{bmatrix}E_b & 0 & 0\\ 0 & I & 0\\ 0 & 0 & 0\end{bmatrix}
//!   \begin{pmatrix}\dot x_b\\ \dot\xi\\ \dot\lambda\end{pmatrix} =
//!   \begin{bmatrix}J_b(x_b) & -\Theta(x)^\top & G(x)^\top\\ \Theta(x) & 0 & 0\\ -G(x) & 0 & 0\end{bmatrix}
//!   \begin{pmatrix}z_b(x_b)\\ 0\\ \lambda\end{pmatrix} + B(x)\,u .$$
//!
//! * $x_b$: the local states of the bodies ([`crate::spatial::SpatialBody`]), $E_b$ and
//!   $J_b$ block diagonal;
//! * $\xi$: energy-free joint states — relative angles of revolute joints (eq. (44)), slide
//!   coordinates of prismatic joints, targets of prescribed velocities — with rates
//!   $\Theta(x)z$ ([`crate::spatial::joint`]);
//! * $\lambda$: one multiplier block `"<joint>.lambda"` per joint (index 2), the reactions;
//!   the rows of $G$ combine port outputs $B_k^\top z$ with coefficients depending on the
//!   body rotations and joint states (transformer (45) written as the gyrator of the
//!   improper system (47)–(48));
//! * $u$: loads ([`crate::spatial::Load3d`], 6 components each) and prescribed velocities.
//!
//! $E$ is constant, $J(x) = -J(x)^\top$ and $H = \sum_b H_b$: $\dot H = y^\top u$, and the
//! reactions do no work. [`Multibody3d::rhs_jacobian`] is exact: the bodies' Jacobians
//! ([`crate::spatial::SpatialBody::push_rhs_jacobian`]) plus the derivatives of the joint
//! and load coefficients, which are linear in the entries of the rotations $R(x)$ and
//! given in closed form in the joint states.
//!
//! *Full inertia* ([`crate::body::spatial::full_inertia`]): $E(x)$ is state dependent
//! in the blocks of such bodies (eq. (F3)), and their port maps carry the deformed port
//! position: the output gets $\omega\times N_ku_f$ and a port force $F$ the moment
//! $N_ku_f\times F$ ([`SpatialBody::port_shift`]), in $G(x)$, $G(x)^\top$ and $B(x)$ alike, so
//! $J$ stays skew. The midpoint step uses [`Multibody3d::step_increment`] and
//! [`Multibody3d::rhs_discrete`] (eqs. (F4)–(F5)) with an exact Newton matrix, Radau IIA the
//! constant-mass form [`Multibody3d::constant_mass`].
use std::sync::Arc;

use phlex_core::sparse::{col_iter, SparseMat};
use phlex_core::{PhSystem, PortSet, ProjectionOptions, ProjectionStep, Triplets, VarBlock};
use phlex_solve::{InputFn, Signal};

use crate::body::{FloatingBody, Spatial};
use crate::common::assembly::{
    impl_joint_assembly, shared_multibody_methods, shared_phdae_methods,
};
use crate::common::bodies::BodyAssembly;
use crate::common::descriptor::{self, FullInertiaAssembly};
use crate::common::force_element::{ForceElements, ForceModel, PointKinematics};
use crate::common::layout::{lay_out, load_port, with_layout, JointSlots, LoadUnits};
use crate::error::MbsError;
use crate::planar::load::Frame;
use crate::spatial::body::{SpatialBody, R_V_OFFSET};
use crate::spatial::joint::{Coef, Geometry, JointModel3d, Side, Term};
use phlex_core::geometry::mat3::{cross, mat_mul, mat_t_vec, mat_vec, transpose, Mat3, IDENTITY3};

/// A resolved load.
#[derive(Debug, Clone)]
pub(crate) struct LoadModel3d {
    pub name: String,
    pub body: usize,
    pub port: usize,
    pub frame: Frame,
    pub signals: Vec<Signal>,
}

/// The assembled spatial multibody system (build it with
/// [`crate::spatial::MultibodyBuilder3d`]).
///
/// # Panics
/// Query methods taking a body index `b`, a port index or a joint index `j` together with
/// a state `x` panic if an index is out of range or `x` is shorter than
/// [`Multibody3d::n`]; get indices by name with [`Multibody3d::body_index`],
/// [`Multibody3d::joint_index`] and [`FloatingBody::port_index`].
#[derive(Debug, Clone)]
pub struct Multibody3d {
    pub(crate) bodies: Vec<Arc<dyn SpatialBody>>,
    pub(crate) body_off: Vec<usize>,
    pub(crate) joints: Vec<JointModel3d>,
    pub(crate) extra_off: Vec<usize>,
    pub(crate) forces: ForceElements,
    pub(crate) lam_off: Vec<usize>,
    pub(crate) loads: Vec<LoadModel3d>,
    pub(crate) load_in: Vec<usize>,
    pub(crate) joint_in: Vec<usize>,
    pub(crate) n: usize,
    pub(crate) n_rows: usize,
    pub(crate) E: SparseMat,
    pub(crate) ports: PortSet,
    pub(crate) blocks: Vec<VarBlock>,
    pub(crate) ground_points: Vec<(String, [f64; 3])>,
}

impl Multibody3d {
    /// Lays out the global state and the ports once bodies, joints and loads are resolved.
    pub(crate) fn assemble(
        bodies: Vec<Arc<dyn SpatialBody>>,
        joints: Vec<JointModel3d>,
        forces: Vec<ForceModel>,
        loads: Vec<LoadModel3d>,
        ground_points: Vec<(String, [f64; 3])>,
    ) -> Result<Self, MbsError> {
        let slots: Vec<JointSlots> = joints
            .iter()
            .map(|j| JointSlots {
                name: j.name.clone(),
                n_extra: j.n_extra(),
                extra: j.extra_meaning(),
                n_rows: j.n_rows(),
                multiplier_meaning: j.multiplier_meaning(),
                n_inputs: j.n_inputs(),
            })
            .collect();
        let units = LoadUnits {
            at: "port",
            dim: 6,
            force: "N, N m",
            velocity: "m/s, rad/s",
        };
        let load_ports = loads
            .iter()
            .map(|l| {
                let b = &bodies[l.body];
                load_port(
                    &l.name,
                    (b.name(), &b.ports()[l.port].name),
                    l.frame,
                    &units,
                )
            })
            .collect();
        let lay = lay_out(
            bodies
                .iter()
                .map(|b| (b.n_local(), b.blocks(), b.descriptor())),
            &slots,
            &forces.iter().map(|f| f.name.clone()).collect::<Vec<_>>(),
            load_ports,
            6,
            (
                "prescribed inertial velocity (and angular velocity) [m/s, rad/s]",
                "driving force (inertial) and torque [N, N m]",
            ),
        )?;
        Ok(with_layout!(
            lay,
            forces,
            Self {
                bodies,
                joints,
                loads,
                ground_points
            }
        ))
    }

    /// The body models, in insertion order.
    pub fn bodies(&self) -> &[Arc<dyn SpatialBody>] {
        &self.bodies
    }

    /// Body `b`.
    pub fn body(&self, b: usize) -> &dyn SpatialBody {
        self.bodies[b].as_ref()
    }

    /// Ground points.
    pub fn ground_points(&self) -> &[(String, [f64; 3])] {
        &self.ground_points
    }

    /// The local state of body `b` within `x`.
    pub fn local<'a>(&self, b: usize, x: &'a [f64]) -> &'a [f64] {
        &x[self.body_range(b)]
    }

    /// Rotation (body to inertial) of body `b`.
    pub fn rotation(&self, b: usize, x: &[f64]) -> Mat3 {
        self.bodies[b].rotation(self.local(b, x))
    }

    /// Inertial position of a port.
    pub fn port_position(&self, b: usize, port: usize, x: &[f64]) -> [f64; 3] {
        self.bodies[b].port_position(port, self.local(b, x))
    }

    /// Inertial velocity and angular velocity of a port.
    pub fn port_velocity_inertial(&self, b: usize, port: usize, x: &[f64]) -> [[f64; 3]; 2] {
        let o = self.body_off[b];
        let r = self.rotation(b, x);
        let v = self.port_out_at(b, port, 0, x, x, o);
        let w = self.port_out(b, port, 3, x, o);
        [mat_vec(&r, v), mat_vec(&r, w)]
    }

    /// Energy-free states of joint `j` (relative angle \[rad\], slide coordinate \[m\] or
    /// target position \[m\]).
    pub fn joint_states<'a>(&self, j: usize, x: &'a [f64]) -> &'a [f64] {
        &x[self.joint_state_range(j)]
    }

    /// Effective body rotation of a port: $R^{port}(x)\,C^\top$.
    fn port_body_rotation(&self, b: usize, port: usize, x: &[f64]) -> Mat3 {
        let body = &self.bodies[b];
        let pr = body.port_rotation(port, self.local(b, x));
        mat_mul(&pr, &transpose(&body.ports()[port].orientation))
    }

    /// Geometry of joint `j` at `x`.
    pub(crate) fn geometry(&self, j: usize, x: &[f64]) -> Geometry {
        let jm = &self.joints[j];
        let (a, pa) = jm.a;
        let mut g = Geometry {
            pos_a: self.port_position(a, pa, x),
            rot_a: self.port_body_rotation(a, pa, x),
            pos_b: [0.0; 3],
            rot_b: IDENTITY3,
        };
        if let Some((b, pb)) = jm.b {
            g.pos_b = self.port_position(b, pb, x);
            g.rot_b = self.port_body_rotation(b, pb, x);
        }
        g
    }

    shared_multibody_methods!(geometry);

    /// The inputs defined with the model (load and prescribed-velocity signals), in port
    /// order.
    pub fn input(&self) -> InputFn {
        let mut s = Vec::with_capacity(self.ports.total_dim());
        for l in &self.loads {
            s.extend(l.signals.iter().cloned());
        }
        for j in &self.joints {
            s.extend(j.signals().iter().cloned());
        }
        InputFn::new(s)
    }

    /// Sets the joint states from the body states (relative angles, slide coordinates,
    /// targets).
    pub fn reset_joint_states(&self, x: &mut [f64]) {
        for k in 0..self.joints.len() {
            let g = self.geometry(k, x);
            let e = self.joints[k].extra_from_geometry(&g);
            x[self.joint_state_range(k)].copy_from_slice(&e);
        }
    }

    /// Port output components `block..block + 3` of (body `b`, `port`) for effort `z`
    /// (global), body offset `o`.
    fn port_out(&self, b: usize, port: usize, block: usize, z: &[f64], o: usize) -> [f64; 3] {
        let B = self.bodies[b].port_map(port);
        [0, 1, 2].map(|j| col_iter(B, block + j).map(|(i, v)| v * z[o + i]).sum())
    }

    /// [`Self::port_out`] with, for a body with full inertia, the transport at the
    /// deformed port position: $+\,\omega\times N_ku_f$ in the velocity block (`x` the
    /// state giving $u_f$, `z` the effort giving $\omega$).
    fn port_out_at(
        &self,
        b: usize,
        port: usize,
        block: usize,
        x: &[f64],
        z: &[f64],
        o: usize,
    ) -> [f64; 3] {
        let mut y = self.port_out(b, port, block, z, o);
        if block == 0 {
            if let Some(s) = self.shift(b, port, x) {
                let w = self.omega_index(b);
                let t = cross([z[w], z[w + 1], z[w + 2]], s);
                for c in 0..3 {
                    y[c] += t[c];
                }
            }
        }
        y
    }

    /// Port shift $N_ku_f$ of (body `b`, `port`) at the global state `x` (full inertia
    /// only, [`SpatialBody::port_shift`]).
    fn shift(&self, b: usize, port: usize, x: &[f64]) -> Option<[f64; 3]> {
        self.bodies[b].port_shift(port, self.local(b, x))
    }

    /// Global index of $\omega_x$ of body `b`.
    fn omega_index(&self, b: usize) -> usize {
        self.body_off[b] + self.bodies[b].n_q() + 3
    }

    /// (body, port) of a term's side.
    fn side(&self, j: &JointModel3d, s: Side) -> (usize, usize) {
        match s {
            Side::A => j.a,
            // Terms on side B exist only for joints between two bodies.
            Side::B => j.b.unwrap_or(j.a),
        }
    }

    /// Body-frame coefficient vector of a term.
    fn coef_vec(t: &Term, r: &Mat3) -> [f64; 3] {
        match t.coef {
            Coef::Body(c) | Coef::Extra { c, .. } => c,
            Coef::Inertial(w) => mat_t_vec(r, w),
        }
    }

    fn rotations(&self, x: &[f64]) -> Vec<Mat3> {
        (0..self.bodies.len())
            .map(|b| self.rotation(b, x))
            .collect()
    }

    /// Calls `f(joint, rows, kin)` with the terms of every joint at `x`.
    fn for_each_joint(&self, x: &[f64], mut f: impl FnMut(usize, &[Term], &[Term])) {
        let mut rows = Vec::with_capacity(24);
        let mut kin = Vec::with_capacity(4);
        for (k, j) in self.joints.iter().enumerate() {
            rows.clear();
            kin.clear();
            j.push_terms(&x[self.joint_state_range(k)], &mut rows, &mut kin);
            f(k, &rows, &kin);
        }
    }

    /// Expands the joint rows into `(row, global column, value)` of $G(x)$.
    pub(crate) fn for_each_constraint_entry(
        &self,
        x: &[f64],
        mut f: impl FnMut(usize, usize, f64),
    ) {
        let rot = self.rotations(x);
        let mut row0 = 0;
        self.for_each_joint(x, |k, rows, _| {
            let j = &self.joints[k];
            for t in rows {
                let (b, p) = self.side(j, t.side);
                let a = Self::coef_vec(t, &rot[b]);
                let o = self.body_off[b];
                for (c, &ac) in a.iter().enumerate() {
                    if ac != 0.0 {
                        for (i, v) in col_iter(self.bodies[b].port_map(p), t.block + c) {
                            f(row0 + t.row, o + i, ac * v);
                        }
                    }
                }
                if t.block == 0 {
                    if let Some(sh) = self.shift(b, p, x) {
                        // a·(ω × s) = ω·(s × a)
                        let m = cross(sh, a);
                        let w = self.omega_index(b);
                        for c in 0..3 {
                            if m[c] != 0.0 {
                                f(row0 + t.row, w + c, m[c]);
                            }
                        }
                    }
                }
            }
            row0 += j.n_rows();
        });
    }

    /// Pushes $J(x)$.
    fn push_structure(&self, x: &[f64], t: &mut Triplets) {
        for (b, body) in self.bodies.iter().enumerate() {
            body.push_structure(self.local(b, x), t, self.body_off[b]);
        }
        let rot = self.rotations(x);
        self.for_each_joint(x, |k, rows, kin| {
            let j = &self.joints[k];
            for (terms, r0, sign) in [(rows, self.lam_off[k], -1.0), (kin, self.extra_off[k], 1.0)]
            {
                for tm in terms {
                    let (b, p) = self.side(j, tm.side);
                    let a = Self::coef_vec(tm, &rot[b]);
                    let o = self.body_off[b];
                    for (c, &ac) in a.iter().enumerate() {
                        if ac != 0.0 {
                            for (i, v) in col_iter(self.bodies[b].port_map(p), tm.block + c) {
                                t.push(r0 + tm.row, o + i, sign * ac * v);
                                t.push(o + i, r0 + tm.row, -sign * ac * v);
                            }
                        }
                    }
                    if tm.block == 0 {
                        if let Some(sh) = self.shift(b, p, x) {
                            let m = cross(sh, a);
                            let w = self.omega_index(b);
                            for c in 0..3 {
                                if m[c] != 0.0 {
                                    t.push(r0 + tm.row, w + c, sign * m[c]);
                                    t.push(w + c, r0 + tm.row, -sign * m[c]);
                                }
                            }
                        }
                    }
                }
            }
        });
        self.forces.push_structure(self, x, t);
    }

    /// $f = J(x)z + B(x)u$ for a given effort `z` (e.g. a discrete gradient); matrix free.
    pub fn rhs_with_effort(&self, x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        self.rhs_impl(x, z, u, f, None)
    }

    /// [`Self::rhs_with_effort`] at `x`; with `step = Some((x0, x1))` the bodies use their
    /// discrete right-hand side [`SpatialBody::rhs_discrete`] of the step (eq. (F4)).
    fn rhs_impl(
        &self,
        x: &[f64],
        z: &[f64],
        u: &[f64],
        f: &mut [f64],
        step: Option<(&[f64], &[f64])>,
    ) {
        f.iter_mut().for_each(|v| *v = 0.0);
        for (b, body) in self.bodies.iter().enumerate() {
            let r = self.body_range(b);
            match step {
                Some((x0, x1)) if body.has_full_inertia() => body.rhs_discrete(
                    &x0[r.clone()],
                    &x1[r.clone()],
                    &x[r.clone()],
                    &z[r.clone()],
                    &mut f[r],
                ),
                _ => body.rhs(&x[r.clone()], &z[r.clone()], &mut f[r]),
            }
        }
        let mut rot = [[[0.0; 3]; 3]; 4];
        let rot_vec;
        let rot: &[Mat3] = if self.bodies.len() <= rot.len() {
            for (b, r) in rot.iter_mut().enumerate().take(self.bodies.len()) {
                *r = self.rotation(b, x);
            }
            &rot[..self.bodies.len()]
        } else {
            rot_vec = self.rotations(x);
            &rot_vec
        };
        self.for_each_joint(x, |k, rows, kin| {
            let j = &self.joints[k];
            for (terms, r0, constraint) in [
                (rows, self.lam_off[k], true),
                (kin, self.extra_off[k], false),
            ] {
                for tm in terms {
                    let (b, p) = self.side(j, tm.side);
                    let a = Self::coef_vec(tm, &rot[b]);
                    let o = self.body_off[b];
                    let y = self.port_out_at(b, p, tm.block, x, z, o);
                    let ay = a[0] * y[0] + a[1] * y[1] + a[2] * y[2];
                    if constraint {
                        f[r0 + tm.row] -= ay;
                        let lam = z[r0 + tm.row];
                        if lam != 0.0 {
                            let B = self.bodies[b].port_map(p);
                            for (c, &ac) in a.iter().enumerate() {
                                for (i, v) in col_iter(B, tm.block + c) {
                                    f[o + i] += v * ac * lam;
                                }
                            }
                            if tm.block == 0 {
                                if let Some(sh) = self.shift(b, p, x) {
                                    let m = cross(sh, a);
                                    let w = self.omega_index(b);
                                    for c in 0..3 {
                                        f[w + c] += m[c] * lam;
                                    }
                                }
                            }
                        }
                    } else {
                        f[r0 + tm.row] += ay;
                    }
                }
            }
        });
        self.forces.add_rhs(self, x, z, f, true);
        if !u.is_empty() {
            self.add_inputs(x, rot, u, f);
        }
    }

    /// $f \mathrel{+}= B(x)u$ (with full inertia including the moment $N_ku_f\times F$ of a
    /// force at a deformed port).
    fn add_inputs(&self, x: &[f64], rot: &[Mat3], u: &[f64], f: &mut [f64]) {
        for (l, &c0) in self.loads.iter().zip(&self.load_in) {
            let b = l.body;
            let o = self.body_off[b];
            let B = self.bodies[b].port_map(l.port);
            let (fv, tv) = self.load_body_frame(l, &rot[b], &u[c0..c0 + 6]);
            for c in 0..3 {
                for (i, v) in col_iter(B, c) {
                    f[o + i] += v * fv[c];
                }
                for (i, v) in col_iter(B, 3 + c) {
                    f[o + i] += v * tv[c];
                }
            }
            if let Some(sh) = self.shift(b, l.port, x) {
                let m = cross(sh, fv);
                let w = self.omega_index(b);
                for c in 0..3 {
                    f[w + c] += m[c];
                }
            }
        }
        for (k, j) in self.joints.iter().enumerate() {
            let c0 = self.joint_in[k];
            for i in 0..j.n_inputs() {
                f[self.lam_off[k] + i] += u[c0 + i];
                if i < 3 {
                    f[self.extra_off[k] + i] += u[c0 + i];
                }
            }
        }
    }

    /// Body-frame force and torque of a load for input components `u` (6).
    fn load_body_frame(&self, l: &LoadModel3d, r: &Mat3, u: &[f64]) -> ([f64; 3], [f64; 3]) {
        let fv = [u[0], u[1], u[2]];
        let tv = [u[3], u[4], u[5]];
        match l.frame {
            Frame::Body => (fv, tv),
            Frame::Inertial => (mat_t_vec(r, fv), mat_t_vec(r, tv)),
        }
    }

    /// Exact Jacobian $\partial f/\partial x$ of $f(x, u) = J(x)z(x) + B(x)u$: the bodies'
    /// Jacobians, $G$, $G^\top$ and $\Theta$ (since $\partial z_p/\partial x = [0\ I]$), and
    /// the derivatives of the coefficients: $\partial(w\cdot R y)/\partial R_{ij} = w_i y_j$
    /// for inertial coefficients (joints and inertial loads) and $c'(\xi)$ for
    /// joint-state-dependent ones.
    pub fn rhs_jacobian(&self, x: &[f64], u: &[f64]) -> SparseMat {
        self.rhs_jacobian_impl(x, u, None)
    }

    /// [`Self::rhs_jacobian`] at `x`; with `step = Some((x0, x1))` the bodies with full
    /// inertia push the Jacobian of their discrete right-hand side
    /// ([`SpatialBody::push_rhs_jacobian_discrete`], `x` the midpoint).
    fn rhs_jacobian_impl(&self, x: &[f64], u: &[f64], step: Option<(&[f64], &[f64])>) -> SparseMat {
        let n = self.n;
        let mut z = vec![0.0; n];
        self.effort(x, &mut z);
        let mut t = Triplets::new(n, n);
        for (b, body) in self.bodies.iter().enumerate() {
            match step {
                Some((x0, x1)) if body.has_full_inertia() => {
                    let r = self.body_range(b);
                    body.push_rhs_jacobian_discrete(
                        &x0[r.clone()],
                        &x1[r.clone()],
                        &x[r],
                        &mut t,
                        self.body_off[b],
                    )
                }
                _ => body.push_rhs_jacobian(self.local(b, x), &mut t, self.body_off[b]),
            }
        }
        let rot = self.rotations(x);
        self.for_each_joint(x, |k, rows, kin| {
            let j = &self.joints[k];
            for (terms, r0, constraint) in [
                (rows, self.lam_off[k], true),
                (kin, self.extra_off[k], false),
            ] {
                let sign = if constraint { -1.0 } else { 1.0 };
                for tm in terms {
                    let (b, p) = self.side(j, tm.side);
                    let a = Self::coef_vec(tm, &rot[b]);
                    let o = self.body_off[b];
                    let B = self.bodies[b].port_map(p);
                    let row = r0 + tm.row;
                    let lam = if constraint { z[row] } else { 0.0 };
                    // ∂(±a·y)/∂p and ∂(a λ)/∂λ
                    for (c, &ac) in a.iter().enumerate() {
                        if ac != 0.0 {
                            for (i, v) in col_iter(B, tm.block + c) {
                                t.push(row, o + i, sign * ac * v);
                                if constraint {
                                    t.push(o + i, row, ac * v);
                                }
                            }
                        }
                    }
                    let y = self.port_out_at(b, p, tm.block, x, &z, o);
                    // full inertia: the shift s = N u_f of the port (force block only)
                    let sh = if tm.block == 0 {
                        self.shift(b, p, x)
                    } else {
                        None
                    };
                    let wi = self.omega_index(b);
                    if let Some(s) = sh {
                        // ∂(±a·(ω × s))/∂ω = ±(s × a), ∂(ω-row (s × a)λ)/∂λ = s × a,
                        // ∂/∂u_j: ±a·(ω × n_j) = ±n_j·(a × ω) and (n_j × a)λ.
                        let m = cross(s, a);
                        for c in 0..3 {
                            if m[c] != 0.0 {
                                t.push(row, wi + c, sign * m[c]);
                                if constraint {
                                    t.push(wi + c, row, m[c]);
                                }
                            }
                        }
                        let aw = cross(a, [z[wi], z[wi + 1], z[wi + 2]]);
                        for (j, nj) in self.bodies[b].port_shift_jacobian(p) {
                            let d = nj[0] * aw[0] + nj[1] * aw[1] + nj[2] * aw[2];
                            if d != 0.0 {
                                t.push(row, o + j, sign * d);
                            }
                            if constraint && lam != 0.0 {
                                let na = cross(nj, a);
                                for c in 0..3 {
                                    if na[c] != 0.0 {
                                        t.push(wi + c, o + j, na[c] * lam);
                                    }
                                }
                            }
                        }
                    }
                    // ω-row moment (s × ∂a)λ of a coefficient derivative ∂a
                    let push_shift_moment = |t: &mut Triplets, da: [f64; 3], col: usize| {
                        if let Some(s) = sh {
                            let m = cross(s, da);
                            for c in 0..3 {
                                if m[c] != 0.0 {
                                    t.push(wi + c, col, m[c] * lam);
                                }
                            }
                        }
                    };
                    match tm.coef {
                        Coef::Body(_) => {}
                        Coef::Inertial(w) => {
                            for ii in 0..3 {
                                if w[ii] == 0.0 {
                                    continue;
                                }
                                for jj in 0..3 {
                                    let col = o + R_V_OFFSET + 3 * ii + jj;
                                    t.push(row, col, sign * w[ii] * y[jj]);
                                    if constraint && lam != 0.0 {
                                        for (i, v) in col_iter(B, tm.block + jj) {
                                            t.push(o + i, col, v * lam * w[ii]);
                                        }
                                        let mut e = [0.0; 3];
                                        e[jj] = w[ii];
                                        push_shift_moment(&mut t, e, col);
                                    }
                                }
                            }
                        }
                        Coef::Extra { dc, state, .. } => {
                            let col = self.extra_off[k] + state;
                            let d = dc[0] * y[0] + dc[1] * y[1] + dc[2] * y[2];
                            t.push(row, col, sign * d);
                            if constraint && lam != 0.0 {
                                for (c, &dcc) in dc.iter().enumerate() {
                                    for (i, v) in col_iter(B, tm.block + c) {
                                        t.push(o + i, col, v * lam * dcc);
                                    }
                                }
                                push_shift_moment(&mut t, dc, col);
                            }
                        }
                    }
                }
            }
        });
        if !u.is_empty() {
            for (l, &c0) in self.loads.iter().zip(&self.load_in) {
                let o = self.body_off[l.body];
                if let Some(s) = self.shift(l.body, l.port, x) {
                    // ω rows: s × F (F body frame): ∂/∂u_j = n_j × F, ∂/∂R_{ij} = F_i (s × e_j)
                    let wi = self.omega_index(l.body);
                    let rb = self.rotation(l.body, x);
                    let (fv, _) = self.load_body_frame(l, &rb, &u[c0..c0 + 6]);
                    for (j, nj) in self.bodies[l.body].port_shift_jacobian(l.port) {
                        let m = cross(nj, fv);
                        for c in 0..3 {
                            if m[c] != 0.0 {
                                t.push(wi + c, o + j, m[c]);
                            }
                        }
                    }
                    if l.frame == Frame::Inertial {
                        for ii in 0..3 {
                            let fi = u[c0 + ii];
                            if fi == 0.0 {
                                continue;
                            }
                            for jj in 0..3 {
                                let mut e = [0.0; 3];
                                e[jj] = fi;
                                let m = cross(s, e);
                                let col = o + R_V_OFFSET + 3 * ii + jj;
                                for c in 0..3 {
                                    if m[c] != 0.0 {
                                        t.push(wi + c, col, m[c]);
                                    }
                                }
                            }
                        }
                    }
                }
                if l.frame != Frame::Inertial {
                    continue;
                }
                let B = self.bodies[l.body].port_map(l.port);
                for ii in 0..3 {
                    for jj in 0..3 {
                        let col = o + R_V_OFFSET + 3 * ii + jj;
                        let (fi, ti) = (u[c0 + ii], u[c0 + 3 + ii]);
                        for (i, v) in col_iter(B, jj) {
                            t.push(o + i, col, v * fi);
                        }
                        for (i, v) in col_iter(B, 3 + jj) {
                            t.push(o + i, col, v * ti);
                        }
                    }
                }
            }
        }
        if self.forces.has_terms() {
            // (J_e − R_e) ∂z and the derivative of the lines of action
            let jr = self.forces.structure_minus_dissipation(self, x, n);
            let jrdz = phlex_core::sparse::matmul(&jr, &self.effort_jacobian(x));
            t.push_block(0, 0, &jrdz, 1.0);
            self.forces.push_geometry_jacobian(self, x, &z, &mut t);
        }
        t.build()
    }
}

impl Multibody3d {
    /// Calls `f(i, c_i)` for the coefficients of $\mathrm{dir}^\top R w$ in the efforts,
    /// $w$ the body-frame port velocity block starting at column `block` of the port map
    /// (0: translational, without the rigid shift term; 3: angular); returns $R^\top\mathrm{dir}$.
    fn port_block_coefficients(
        &self,
        b: usize,
        port: usize,
        x: &[f64],
        block: usize,
        dir: [f64; 3],
        f: &mut dyn FnMut(usize, f64),
    ) -> [f64; 3] {
        let a = mat_t_vec(&self.rotation(b, x), dir);
        let o = self.body_off[b];
        let B = self.bodies[b].port_map(port);
        for (c, &ac) in a.iter().enumerate() {
            if ac != 0.0 {
                for (i, v) in col_iter(B, block + c) {
                    f(o + i, ac * v);
                }
            }
        }
        a
    }
}

/// The spatial points for the force elements ([`crate::common::force_element`]): the port
/// velocity $R\,(B_a^\top p + \omega\times N_a u_f)$.
impl PointKinematics for Multibody3d {
    fn point_position(&self, b: usize, port: usize, x: &[f64]) -> [f64; 3] {
        self.port_position(b, port, x)
    }
    fn for_each_velocity_coefficient(
        &self,
        b: usize,
        port: usize,
        x: &[f64],
        dir: [f64; 3],
        f: &mut dyn FnMut(usize, f64),
    ) {
        let a = self.port_block_coefficients(b, port, x, 0, dir, f);
        if let Some(s) = self.shift(b, port, x) {
            let m = cross(s, a);
            let w = self.omega_index(b);
            for (c, &mc) in m.iter().enumerate() {
                f(w + c, mc);
            }
        }
    }
    fn body_vector(&self, b: usize, v: [f64; 3], x: &[f64]) -> [f64; 3] {
        mat_vec(&self.rotation(b, x), v)
    }
    fn for_each_angular_velocity_coefficient(
        &self,
        b: usize,
        port: usize,
        x: &[f64],
        dir: [f64; 3],
        f: &mut dyn FnMut(usize, f64),
    ) {
        // The port map's columns 3..6 are the body-frame angular velocity of the port.
        self.port_block_coefficients(b, port, x, 3, dir, f);
    }
    fn position_variables(&self, b: usize) -> std::ops::Range<usize> {
        self.body_off[b]..self.body_off[b] + self.bodies[b].n_q()
    }
    fn differentiated_elsewhere(&self, _i: usize) -> bool {
        false
    }
}

impl_joint_assembly!(Multibody3d);

impl PhSystem for Multibody3d {
    shared_phdae_methods!();

    /// Gonzalez's discrete gradient (the trait default); with bodies of full inertia the
    /// effort at the midpoint with their discrete effort (F5) in their blocks, which makes
    /// $\bar z^\top\Delta = H(x_1) - H(x_0)$ exact with [`Multibody3d::step_increment`] (all
    /// other spatial bodies have a quadratic kinetic and a bilinear gravity energy, exact
    /// at the midpoint).
    fn discrete_gradient(&self, x0: &[f64], x1: &[f64], zbar: &mut [f64]) {
        let xm: Vec<f64> = x0.iter().zip(x1).map(|(a, b)| 0.5 * (a + b)).collect();
        self.effort(&xm, zbar);
        if self.has_full_inertia() {
            descriptor::replace_discrete_efforts(self, x0, x1, zbar);
            return;
        }
        let dx: Vec<f64> = x1.iter().zip(x0).map(|(a, b)| a - b).collect();
        let w = phlex_core::sparse::mul_vec(&self.E, &dx);
        let (h0, h1) = (self.hamiltonian(x0), self.hamiltonian(x1));
        phlex_core::system::gonzalez_correction(zbar, &w, (h1 - h0, h0.abs() + h1.abs()), &xm);
    }
    fn input_map(&self, x: &[f64]) -> SparseMat {
        let m = self.ports.total_dim();
        let mut t = Triplets::new(self.n, m);
        let rot = self.rotations(x);
        for (l, &c0) in self.loads.iter().zip(&self.load_in) {
            let b = l.body;
            let o = self.body_off[b];
            let B = self.bodies[b].port_map(l.port);
            for k in 0..6 {
                let mut e = [0.0; 6];
                e[k] = 1.0;
                let (fv, tv) = self.load_body_frame(l, &rot[b], &e);
                for c in 0..3 {
                    for (i, v) in col_iter(B, c) {
                        t.push(o + i, c0 + k, v * fv[c]);
                    }
                    for (i, v) in col_iter(B, 3 + c) {
                        t.push(o + i, c0 + k, v * tv[c]);
                    }
                }
                if let Some(sh) = self.shift(b, l.port, x) {
                    let m = cross(sh, fv);
                    let w = self.omega_index(b);
                    for c in 0..3 {
                        if m[c] != 0.0 {
                            t.push(w + c, c0 + k, m[c]);
                        }
                    }
                }
            }
        }
        self.push_joint_inputs(&mut t);
        t.build()
    }
    /// [`crate::spatial::project_onto_constraints_3d`].
    fn project(
        &self,
        x: &mut [f64],
        u: &[f64],
        opts: &ProjectionOptions,
    ) -> Result<ProjectionStep, phlex_core::CoreError> {
        crate::spatial::projection::project_onto_constraints_3d(self, x, u, opts)
            .map_err(crate::planar::projection::projection_error)
    }
    /// Exact: the bodies' discrete Jacobians, the joints and loads at `xm`.
    fn step_rhs_jacobian(&self, x0: &[f64], x1: &[f64], xm: &[f64], u: &[f64]) -> SparseMat {
        if !self.has_full_inertia() {
            return self.rhs_jacobian(xm, u);
        }
        self.rhs_jacobian_impl(xm, u, Some((x0, x1)))
    }
}

/// Deformation-dependent inertia ([`crate::body::spatial::full_inertia`]): the discrete step (F4) and
/// the constant-mass form for Radau IIA, by the shared full-inertia algorithms.
impl Multibody3d {
    /// Discrete right-hand side of a midpoint step ([`PhSystem::step_rhs`]):
    /// $J(x_m)\bar z + B(x_m)u$ with, for each body with full inertia, its discrete effort
    /// (F5) in place of the given one (so the plain midpoint variant is exact as well) and
    /// its gyroscopic blocks built from the average momenta (F4).
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
        if !self.has_full_inertia() {
            return self.rhs_with_effort(xm, z, u, f);
        }
        let mut zd = z.to_vec();
        descriptor::replace_discrete_efforts(self, x0, x1, &mut zd);
        self.rhs_impl(xm, &zd, u, f, Some((x0, x1)));
    }
}

/// The spatial layout for the shared full-inertia algorithms ([`crate::common::descriptor`]).
impl FullInertiaAssembly for Multibody3d {
    fn constant_descriptor(&self) -> &SparseMat {
        &self.E
    }
}

/// The spatial bodies of the assembly, for the shared per-body loops
/// ([`BodyAssembly`]).
impl BodyAssembly for Multibody3d {
    type Dim = Spatial;
    fn body_count(&self) -> usize {
        self.bodies.len()
    }
    fn floating_body(&self, b: usize) -> &dyn FloatingBody {
        self.bodies[b].as_ref()
    }
    fn body_offset(&self, b: usize) -> usize {
        self.body_off[b]
    }
}
