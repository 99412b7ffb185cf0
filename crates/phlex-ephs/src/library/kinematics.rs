//! Kinematics of assembled rigid multibody models: the bodies (Fig. 2) and joints (Fig. 3)
//! of an [`EphsDae`], the total spatial momentum, the position-level constraint drift of
//! each joint and its optional stabilisation by projection (seed 001 §6 and §7, summary §5
//! "DAE index" and "invariants").
//!
//! **Recognition.** A *body* is a reversible primitive with a power port on an
//! $SE(3)$ pose state and one on an $\mathfrak{se}(3)^*$ momentum state (the `pkc` of
//! Fig. 2); it is named after its parent box (`b1` for `b1.pkc`). A *joint* is a
//! [`JointConstraint`] (the `hc` of Fig. 3) together with the two [`OffsetOperator`]s whose
//! effort outputs feed it; each offset's effort input is the velocity of a body, found by
//! its effort slot. A joint side without a body (the [`ground`](super::rigid_body::ground),
//! or any storage without a pose) is a fixed frame at the identity.
//!
//! **Drift.** The joint constraints are imposed at velocity level only (index 2, eq. (24));
//! the position-level constraint $q_2 o_2 = q_1 o_1 I(q_r)$ is a hidden invariant of the
//! exact flow. Its residual
//! $$ \Phi_j = \log\big((q_1 o_1 I(q_r))^{-1}\, q_2 o_2\big) \in \mathbb R^6 $$
//! (rotation vector, then translation in the $C_2$ frame) is the drift; [`Kinematics::joint_drift`]
//! reports $|\Phi_j|$ (radians and lengths mixed, both are small).
//!
//! **Projection** ([`Kinematics::project`]): the smallest correction $\delta$ (Euclidean in
//! the left-trivialized tangent coordinates of the body poses and joint coordinates) with
//! $\Phi(x\oplus\delta) = 0$, by the Gauss–Newton iteration
//! $\delta = -G^+\Phi$ (minimum-norm least squares, SVD), where
//! $G = [\,-\mathrm{Ad}_{(o_1I(q_r))^{-1}},\ \mathrm{Ad}_{o_2^{-1}},\ -i\,]$ is the
//! derivative of $\Phi$ at $\Phi = 0$, i.e. minus the velocity-constraint matrix of eq. (24).
//! Momenta and the entropy are not changed, so the projection changes $E_{mech}$ by the
//! work of the potentials on $\delta$; the integrator reports it
//! ([`crate::numerics::LieMidpointResult::projection_work`]).
use std::ops::Range;

use crate::error::EphsError;
use crate::language::space::{Group, Space};
use crate::library::joint::{JointConstraint, JointKind, OffsetOperator};
use crate::semantics::program::{Op, SlotId};
use crate::semantics::EphsDae;
use phlex_core::geometry::Mat6;
use phlex_core::geometry::Se3;

/// A function of the full state `y` (the total energy for the conserving projection).
pub type EnergyFn<'a> = &'a dyn Fn(&[f64]) -> f64;

/// A rigid body found in an assembled model.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyRef {
    /// Name (the parent box of the body's `pkc`, e.g. `b1`).
    pub name: String,
    /// Coordinates of the pose state in `y` (12: $R$ row-major, $r$).
    pub pose: Range<usize>,
    /// Coordinates of the body momentum state in `y` (6).
    pub momentum: Range<usize>,
    effort: SlotId,
    /// Index of the kinetic-energy storage (whose state is the momentum).
    storage: Option<usize>,
}

/// A joint found in an assembled model.
#[derive(Debug, Clone, PartialEq)]
pub struct JointRef {
    /// Name (the parent box of the joint's `hc`, e.g. `j`).
    pub name: String,
    /// The lower pair.
    pub kind: JointKind,
    /// Offset $o_1$ (joint frame $C_1$ in body 1).
    pub o1: Se3,
    /// Offset $o_2$.
    pub o2: Se3,
    /// Index of body 1 in [`Kinematics::bodies`] (`None`: a fixed frame at the identity).
    pub body1: Option<usize>,
    /// Index of body 2.
    pub body2: Option<usize>,
    /// Coordinates of the relative pose $q_r$ in `y`.
    pub q_r: Range<usize>,
}

/// Result of a position projection.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProjectionReport {
    /// Largest $|\Phi_j|_\infty$ before the projection.
    pub residual_before: f64,
    /// Largest $|\Phi_j|_\infty$ after.
    pub residual_after: f64,
    /// Gauss–Newton iterations.
    pub iterations: usize,
    /// Euclidean norm of the total correction $\delta$.
    pub correction: f64,
}

/// Bodies and joints of an assembled model (see the module docs).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Kinematics {
    /// The rigid bodies.
    pub bodies: Vec<BodyRef>,
    /// The joints.
    pub joints: Vec<JointRef>,
}

/// Parent of a hierarchical name (`b1.pkc.q` → `b1` with `levels = 2`); `fallback` at the top.
fn parent(name: &str, levels: usize, fallback: &str) -> String {
    let parts: Vec<&str> = name.split('.').collect();
    if parts.len() > levels {
        parts[..parts.len() - levels].join(".")
    } else {
        fallback.to_string()
    }
}

fn mat6_flat(A: &Mat6, sign: f64, out: &mut [f64], stride: usize, row0: usize, col0: usize) {
    for i in 0..6 {
        for j in 0..6 {
            out[(row0 + i) * stride + col0 + j] += sign * A[i][j];
        }
    }
}

impl Kinematics {
    /// Finds the bodies and joints of `dae` (empty for models without them).
    pub fn new(dae: &EphsDae) -> Self {
        let sys = dae.system();
        let state_of = |slot: SlotId| sys.states.iter().position(|s| s.x == slot);
        let mut bodies = Vec::new();
        // Group the primitive port records by their component (name minus the port).
        let mut k = 0;
        while k < sys.records.len() {
            let comp = parent(&sys.records[k].name, 1, "");
            let mut end = k;
            while end < sys.records.len() && parent(&sys.records[end].name, 1, "") == comp {
                end += 1;
            }
            let recs = &sys.records[k..end];
            let pose = recs.iter().find(|r| {
                r.quantity.space == Space::Group(Group::Se3)
                    && r.e.is_some()
                    && state_of(r.x).is_some()
            });
            let mom = recs.iter().find(|r| {
                r.quantity.space == Space::CoAlgebra(Group::Se3)
                    && r.e.is_some()
                    && state_of(r.x).is_some()
            });
            // A storage has a single port, so a component with both is a coupling (pkc).
            if let (Some(p), Some(m)) = (pose, mom) {
                let (sp, sm) = (state_of(p.x).unwrap_or(0), state_of(m.x).unwrap_or(0));
                let storage = sys.storages.iter().position(|st| st.states == [sm]);
                let name = parent(&comp, 1, "body");
                let pr = dae.state_range(&sys.states[sp].name);
                let mr = dae.state_range(&sys.states[sm].name);
                if let (Ok(pose), Ok(momentum), Some(effort)) = (pr, mr, m.e) {
                    if !bodies.iter().any(|b: &BodyRef| b.pose == pose) {
                        bodies.push(BodyRef {
                            name,
                            pose,
                            momentum,
                            effort,
                            storage,
                        });
                    }
                }
            }
            k = end;
        }
        let mut joints = Vec::new();
        for ins in &sys.instrs {
            let Op::ConstraintResidual(op, n_x) = &ins.op else {
                continue;
            };
            let Some(jc) = op
                .as_any()
                .and_then(|a| a.downcast_ref::<JointConstraint>())
            else {
                continue;
            };
            // Inputs: states (q_r, p_j1, p_j2, p_r), then efforts p_j1.e, p_j2.e, p_r.e.
            if ins.inputs.len() < n_x + 2 {
                continue;
            }
            let (ej1, ej2) = (ins.inputs[*n_x], ins.inputs[n_x + 1]);
            let Some(qs) = state_of(ins.inputs[0]) else {
                continue;
            };
            let Ok(q_r) = dae.state_range(&sys.states[qs].name) else {
                continue;
            };
            let side = |ej: SlotId| -> Option<(Se3, Option<usize>)> {
                sys.instrs.iter().find_map(|t| match &t.op {
                    Op::TransformerEfforts(top, tx) if t.outputs == [ej] => {
                        let off = top.as_any()?.downcast_ref::<OffsetOperator>()?;
                        let e_body = *t.inputs.get(*tx)?;
                        Some((off.o, bodies.iter().position(|b| b.effort == e_body)))
                    }
                    _ => None,
                })
            };
            let (Some((o1, body1)), Some((o2, body2))) = (side(ej1), side(ej2)) else {
                continue;
            };
            joints.push(JointRef {
                name: parent(&ins.name, 2, "joint"),
                kind: jc.kind,
                o1,
                o2,
                body1,
                body2,
                q_r,
            });
        }
        Self { bodies, joints }
    }

    /// True if the model has neither bodies nor joints.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty() && self.joints.is_empty()
    }

    /// Pose of body `b` in `y` (the identity for `None`, a fixed frame).
    pub fn pose(&self, b: Option<usize>, y: &[f64]) -> Se3 {
        match b {
            Some(b) => Se3::from_coords(&y[self.bodies[b].pose.clone()]),
            None => Se3::identity(),
        }
    }

    /// Total spatial momentum of the bodies about the inertial origin,
    /// $\sum_i \mathrm{Ad}^*_{q_i^{-1}}p_i = \sum_i(R_ip_{\omega,i} + r_i\times R_ip_{\nu,i},\ R_ip_{\nu,i})$
    /// (angular part first); `None` without bodies. Fixed frames (ground) are not included.
    pub fn spatial_momentum(&self, y: &[f64]) -> Option<[f64; 6]> {
        if self.bodies.is_empty() {
            return None;
        }
        let mut mu = [0.0; 6];
        for b in &self.bodies {
            let s = super::rigid_body::spatial_momentum(&y[b.pose.clone()], &y[b.momentum.clone()]);
            for k in 0..6 {
                mu[k] += s[k];
            }
        }
        Some(mu)
    }

    /// Position residual $\Phi_j = \log((q_1o_1I(q_r))^{-1}q_2o_2)$ of joint `j`.
    pub fn joint_residual(&self, j: usize, y: &[f64]) -> [f64; 6] {
        let jr = &self.joints[j];
        let I = jr.kind.inclusion(&y[jr.q_r.clone()]);
        let a = self.pose(jr.body1, y).mul(&jr.o1).mul(&I);
        let b = self.pose(jr.body2, y).mul(&jr.o2);
        a.inverse().mul(&b).log()
    }

    /// $|\Phi_j|$ of every joint.
    pub fn joint_drift(&self, y: &[f64]) -> Vec<f64> {
        (0..self.joints.len())
            .map(|j| {
                self.joint_residual(j, y)
                    .iter()
                    .map(|v| v * v)
                    .sum::<f64>()
                    .sqrt()
            })
            .collect()
    }

    /// Sets the joint coordinates $q_r$ of the joints with `which[j]` from the body poses:
    /// the coordinates of the relative pose $(q_1o_1)^{-1}q_2o_2$ projected onto the
    /// subgroup ([`JointKind::coordinates_of`]). Used to complete initial states.
    pub fn complete_joint_coordinates(&self, y: &mut [f64], which: &[bool]) {
        for (j, jr) in self.joints.iter().enumerate() {
            if !which.get(j).copied().unwrap_or(false) {
                continue;
            }
            let rel = self
                .pose(jr.body1, y)
                .mul(&jr.o1)
                .inverse()
                .mul(&self.pose(jr.body2, y).mul(&jr.o2));
            let c = jr.kind.coordinates_of(&rel);
            y[jr.q_r.clone()].copy_from_slice(&c);
        }
    }

    fn max_residual(&self, y: &[f64]) -> f64 {
        (0..self.joints.len())
            .flat_map(|j| self.joint_residual(j, y))
            .fold(0.0f64, |m, v| m.max(v.abs()))
    }

    /// Projects the positions in `y` onto the position constraints of all joints (module
    /// docs): Gauss–Newton with the minimum-norm step until $\max_j|\Phi_j|_\infty \le$
    /// `tol` (at most 10 iterations). Errors if the residual does not fall below `tol`.
    pub fn project(&self, y: &mut [f64], tol: f64) -> Result<ProjectionReport, EphsError> {
        self.project_impl(y, tol, None)
    }

    /// As [`Kinematics::project`], with the additional scalar condition
    /// $E(x\oplus\delta) = E(x)$ for the function `energy` of `y` (the total energy of the
    /// model): the smallest position correction that satisfies the position constraints
    /// *and* keeps the energy, i.e. the projection onto the intersection of the constraint
    /// manifold with the energy level set (Hairer, Lubich & Wanner, *Geometric Numerical
    /// Integration*, §IV.4), moving positions only. Its gradient is taken by central
    /// differences along the retractions (step $10^{-6}$; it only steers the iteration,
    /// the energy residual is exact). Where the energy does not vary along the constraint
    /// manifold to first order (e.g. a pendulum at rest at the bottom) the energy row is
    /// dropped by the SVD and the energy changes at second order in the correction.
    pub fn project_conserving(
        &self,
        y: &mut [f64],
        tol: f64,
        energy: &dyn Fn(&[f64]) -> f64,
    ) -> Result<ProjectionReport, EphsError> {
        self.project_impl(y, tol, Some(energy))
    }

    fn project_impl(
        &self,
        y: &mut [f64],
        tol: f64,
        energy: Option<EnergyFn<'_>>,
    ) -> Result<ProjectionReport, EphsError> {
        let before = self.max_residual(y);
        let mut report = ProjectionReport {
            residual_before: before,
            residual_after: before,
            iterations: 0,
            correction: 0.0,
        };
        if self.joints.is_empty() || before <= tol {
            return Ok(report);
        }
        // Unknowns: 6 per body, k per joint.
        let nb = self.bodies.len();
        let mut joff = Vec::with_capacity(self.joints.len());
        let mut n = 6 * nb;
        for j in &self.joints {
            joff.push(n);
            n += j.kind.dim();
        }
        let mc = 6 * self.joints.len();
        let m = mc + usize::from(energy.is_some());
        let e_target = energy.map(|e| e(y)).unwrap_or(0.0);
        // Energy tolerance: round-off of E (64 ε |E|, at least 1e-300).
        let e_tol = (64.0 * f64::EPSILON * e_target.abs()).max(1e-300);
        let measure = |y: &[f64]| -> f64 {
            let r = self.max_residual(y) / tol;
            match energy {
                Some(e) => r.max((e(y) - e_target).abs() / e_tol),
                None => r,
            }
        };
        let mut G = vec![0.0; m * n];
        let mut phi = vec![0.0; m];
        let mut total = vec![0.0; n];
        let mut delta_buf = vec![0.0; n];
        let mut ytmp = y.to_vec();
        let mut res = measure(y);
        while res > 1.0 {
            if report.iterations == 10 {
                return Err(EphsError::ProjectionFailed {
                    residual: self.max_residual(y),
                    iterations: report.iterations,
                    joints: self
                        .joints
                        .iter()
                        .map(|j| j.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            }
            G.iter_mut().for_each(|v| *v = 0.0);
            for (j, jr) in self.joints.iter().enumerate() {
                let r = self.joint_residual(j, y);
                phi[6 * j..6 * j + 6].copy_from_slice(&r);
                let I = jr.kind.inclusion(&y[jr.q_r.clone()]);
                if let Some(b) = jr.body1 {
                    let A = jr.o1.mul(&I).inverse().Ad_matrix();
                    mat6_flat(&A, -1.0, &mut G, n, 6 * j, 6 * b);
                }
                if let Some(b) = jr.body2 {
                    let A = jr.o2.inverse().Ad_matrix();
                    mat6_flat(&A, 1.0, &mut G, n, 6 * j, 6 * b);
                }
                for c in 0..jr.kind.dim() {
                    let col = jr.kind.i_column(c);
                    for i in 0..6 {
                        G[(6 * j + i) * n + joff[j] + c] -= col[i];
                    }
                }
            }
            if let Some(e) = energy {
                // Row scaled to unit norm (the minimum-norm solution of a consistent system
                // does not depend on row scaling; the SVD cut-off does).
                let h = 1e-6;
                for c in 0..n {
                    delta_buf.iter_mut().for_each(|v| *v = 0.0);
                    delta_buf[c] = h;
                    ytmp.copy_from_slice(y);
                    self.retract_all(&mut ytmp, &delta_buf, &joff);
                    let ep = e(&ytmp);
                    delta_buf[c] = -h;
                    ytmp.copy_from_slice(y);
                    self.retract_all(&mut ytmp, &delta_buf, &joff);
                    G[mc * n + c] = (ep - e(&ytmp)) / (2.0 * h);
                }
                let norm = G[mc * n..].iter().map(|v| v * v).sum::<f64>().sqrt();
                let ev = e(y) - e_target;
                if norm > 0.0 {
                    G[mc * n..].iter_mut().for_each(|v| *v /= norm);
                    phi[mc] = ev / norm;
                } else {
                    phi[mc] = 0.0;
                }
            }
            let delta = min_norm_solve(&G, m, n, &phi);
            delta_buf.iter_mut().zip(&delta).for_each(|(a, d)| *a = -d);
            self.retract_all(y, &delta_buf, &joff);
            for (t, d) in total.iter_mut().zip(&delta) {
                *t += d;
            }
            report.iterations += 1;
            let new = measure(y);
            // Stagnation at round-off: accept.
            if new >= 0.5 * res && new < 1e3 {
                break;
            }
            res = new;
        }
        report.residual_after = self.max_residual(y);
        report.correction = total.iter().map(|v| v * v).sum::<f64>().sqrt();
        Ok(report)
    }

    /// Velocity-level consistent initialisation: replaces the body momenta $p_b$ by the
    /// nearest momenta (in the kinetic-energy metric $M^{-1}$) that satisfy the velocity
    /// constraints of all joints (eq. (24)), i.e. applies the constraint impulses of a
    /// perfectly inelastic "locking" of the joints:
    /// $p_b' = p_b + G_b^\top\Lambda$ with $G_bM^{-1}p' + G_ru_r = 0$ and $G_r^\top\Lambda = 0$
    /// (no impulse along the joints' free directions), $G$ the velocity-constraint matrix
    /// of [`Kinematics::project`]. $M^{-1}$ is the differential of each body's kinetic
    /// energy (linear for the rigid body of Fig. 2). The impulses act in equal and opposite
    /// pairs, so the total spatial momentum of joints between bodies is unchanged and the
    /// kinetic energy does not increase. Returns the largest velocity-constraint residual
    /// before the projection. Bodies whose kinetic energy is not found are left unchanged.
    pub fn project_velocities(&self, dae: &EphsDae, y: &mut [f64]) -> f64 {
        if self.joints.is_empty() {
            return 0.0;
        }
        let sys = dae.system();
        let nb = self.bodies.len();
        // M⁻¹ of every body (6×6, columns dE(e_k)) and its velocity u = M⁻¹ p.
        let mut minv = vec![[[0.0f64; 6]; 6]; nb];
        for (b, body) in self.bodies.iter().enumerate() {
            let Some(st) = body.storage else { continue };
            let crate::semantics::program::StorageEnergy::Mechanical(en) = &sys.storages[st].energy
            else {
                continue;
            };
            let mut e = [0.0; 6];
            for k in 0..6 {
                let mut x = [0.0; 6];
                x[k] = 1.0;
                en.differential(&x, &mut e);
                for i in 0..6 {
                    minv[b][i][k] = e[i];
                }
            }
        }
        let mut roff = Vec::with_capacity(self.joints.len());
        let mut nr = 0;
        for j in &self.joints {
            roff.push(nr);
            nr += j.kind.dim();
        }
        let m = 6 * self.joints.len();
        // Blocks of G per joint: (body, 6×6) pairs and the −i columns.
        let blocks = |j: usize, y: &[f64]| -> Vec<(usize, Mat6)> {
            let jr = &self.joints[j];
            let I = jr.kind.inclusion(&y[jr.q_r.clone()]);
            let mut v = Vec::new();
            if let Some(b) = jr.body1 {
                let mut A = jr.o1.mul(&I).inverse().Ad_matrix();
                A.iter_mut().flatten().for_each(|a| *a = -*a);
                v.push((b, A));
            }
            if let Some(b) = jr.body2 {
                v.push((b, jr.o2.inverse().Ad_matrix()));
            }
            v
        };
        let gb: Vec<Vec<(usize, Mat6)>> = (0..self.joints.len()).map(|j| blocks(j, y)).collect();
        let u_of = |b: usize, y: &[f64]| -> [f64; 6] {
            let p = &y[self.bodies[b].momentum.clone()];
            let mut u = [0.0; 6];
            for i in 0..6 {
                u[i] = (0..6).map(|k| minv[b][i][k] * p[k]).sum();
            }
            u
        };
        // Residual of the bodies' part G_b u_b (the joint part is free).
        let mut rhs = vec![0.0; m + nr];
        for (j, bl) in gb.iter().enumerate() {
            for (b, A) in bl {
                let u = u_of(*b, y);
                for i in 0..6 {
                    rhs[6 * j + i] -= (0..6).map(|k| A[i][k] * u[k]).sum::<f64>();
                }
            }
        }
        // The residual before: min over u_r of |G_b u_b + G_r u_r| is what the user sees;
        // report the bodies' part projected off the joints' free directions below.
        // System [[G_b M⁻¹ G_bᵀ, G_r], [G_rᵀ, 0]] [Λ; u_r] = [−G_b u_b; 0].
        let n = m + nr;
        let mut K = vec![0.0; n * n];
        for (j1, bl1) in gb.iter().enumerate() {
            for (j2, bl2) in gb.iter().enumerate() {
                for (b1, A1) in bl1 {
                    for (b2, A2) in bl2 {
                        if b1 != b2 {
                            continue;
                        }
                        // A1 M⁻¹ A2ᵀ.
                        for i in 0..6 {
                            for l in 0..6 {
                                let mut sum = 0.0;
                                for a in 0..6 {
                                    let ma: f64 = (0..6).map(|c| minv[*b1][a][c] * A2[l][c]).sum();
                                    sum += A1[i][a] * ma;
                                }
                                K[(6 * j1 + i) * n + 6 * j2 + l] += sum;
                            }
                        }
                    }
                }
            }
        }
        for (j, jr) in self.joints.iter().enumerate() {
            for c in 0..jr.kind.dim() {
                let col = jr.kind.i_column(c);
                for i in 0..6 {
                    // G_r = −i (columns), and its transpose.
                    K[(6 * j + i) * n + m + roff[j] + c] = -col[i];
                    K[(m + roff[j] + c) * n + 6 * j + i] = -col[i];
                }
            }
        }
        let sol = min_norm_solve(&K, n, n, &rhs);
        let before = {
            // Residual of the velocity constraints with the best u_r (the K system with
            // Λ = 0 is a least-squares problem in u_r): |G_b u_b + G_r u_r*|.
            let mut r = vec![0.0; m];
            for j in 0..self.joints.len() {
                for i in 0..6 {
                    r[6 * j + i] = -rhs[6 * j + i];
                }
            }
            let mut G_r = vec![0.0; m * nr];
            for (j, jr) in self.joints.iter().enumerate() {
                for c in 0..jr.kind.dim() {
                    let col = jr.kind.i_column(c);
                    for i in 0..6 {
                        G_r[(6 * j + i) * nr + roff[j] + c] = -col[i];
                    }
                }
            }
            let ur = min_norm_solve(&G_r, m, nr, &r);
            (0..m)
                .map(|i| (r[i] - (0..nr).map(|c| G_r[i * nr + c] * ur[c]).sum::<f64>()).abs())
                .fold(0.0f64, f64::max)
        };
        // p_b' = p_b + Σ_j A_jbᵀ Λ_j.
        for (j, bl) in gb.iter().enumerate() {
            for (b, A) in bl {
                let r = self.bodies[*b].momentum.clone();
                for k in 0..6 {
                    y[r.start + k] += (0..6).map(|i| A[i][k] * sol[6 * j + i]).sum::<f64>();
                }
            }
        }
        before
    }

    /// $x \leftarrow x\oplus v$ for the body poses (6 each) and joint coordinates (offsets `joff`).
    fn retract_all(&self, y: &mut [f64], v: &[f64], joff: &[usize]) {
        let pose_space = Space::Group(Group::Se3);
        for (b, body) in self.bodies.iter().enumerate() {
            let mut x0 = [0.0; 12];
            x0.copy_from_slice(&y[body.pose.clone()]);
            pose_space.retract(&x0, &v[6 * b..6 * b + 6], &mut y[body.pose.clone()]);
        }
        for (j, jr) in self.joints.iter().enumerate() {
            let s = Space::Group(jr.kind.group());
            let (k, c) = (jr.kind.dim(), s.coords());
            let mut x0 = [0.0; 9];
            x0[..c].copy_from_slice(&y[jr.q_r.clone()]);
            s.retract(&x0[..c], &v[joff[j]..joff[j] + k], &mut y[jr.q_r.clone()]);
        }
    }
}

/// Minimum-norm least-squares solution of $G\delta = \phi$ ($m\times n$, row-major) by
/// the SVD, singular values below $10^{-10}\sigma_{max}$ dropped (redundant constraints
/// of closed loops).
fn min_norm_solve(G: &[f64], m: usize, n: usize, phi: &[f64]) -> Vec<f64> {
    let A = faer::Mat::<f64>::from_fn(m, n, |i, j| G[i * n + j]);
    let mut delta = vec![0.0; n];
    let Ok(svd) = A.thin_svd() else {
        return delta;
    };
    let (U, V) = (svd.U(), svd.V());
    let s = svd.S().column_vector();
    let r = s.nrows();
    let smax = (0..r).fold(0.0f64, |a, k| a.max(s[k]));
    for k in 0..r {
        if s[k] <= 1e-10 * smax || s[k] <= 0.0 {
            continue;
        }
        let c: f64 = (0..m).map(|i| U[(i, k)] * phi[i]).sum::<f64>() / s[k];
        for j in 0..n {
            delta[j] += c * V[(j, k)];
        }
    }
    delta
}
