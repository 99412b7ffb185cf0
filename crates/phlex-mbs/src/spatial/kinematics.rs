//! Consistent initial conditions of a spatial multibody pHDAE (paper 000 §6.3): the three
//! stages of `common::consistent_init` (positions by Gauss–Newton on the poses,
//! velocities by the kinetic-energy projection onto $Gp = B_\lambda u(t_0)$, multipliers from
//! the hidden constraint), instantiated for [`Multibody3d`]. Stage 1 moves the pose
//! increments $(\delta r, \delta\varphi)$ of every body not locked, applied as
//! ${}^ir_P \mathrel{+}= \delta r$, $R \leftarrow R\exp[\delta\varphi]_\times$ (so $R$ stays a
//! rotation), until the joint position residuals ([`crate::spatial::joint`], prescribed
//! velocities excluded) vanish to `position_tol`; $\Phi_q$ by central differences with step
//! $10^{-7}$.
use crate::common::bodies::BodyAssembly;
use phlex_solve::InputFn;

use crate::common::assembly::{shared_assembly_view, ConstrainedAssembly};
use crate::common::consistent_init::{consistent_state, PositionStage};
use crate::common::pose_newton::free_pose_increments;
use crate::error::MbsError;
use crate::planar::kinematics::ConsistentInit;
use crate::spatial::assembly::Multibody3d;
use crate::spatial::body::R_V_OFFSET;
use phlex_core::geometry::mat3::{mat_mul, store_row_major, Mat3};
use phlex_core::geometry::so3;

/// Options of [`consistent_initial_state_3d`].
#[derive(Debug, Clone, PartialEq)]
pub struct KinematicsOptions3d {
    /// Bodies whose pose is kept (e.g. a driven crank).
    pub locked: Vec<String>,
    /// Position tolerance (max norm of the joint residuals) \[m, rad\].
    pub position_tol: f64,
    /// Maximum Gauss–Newton iterations.
    pub max_iterations: usize,
}

impl Default for KinematicsOptions3d {
    /// Nothing locked, tolerance $10^{-12}$, 50 iterations.
    fn default() -> Self {
        Self {
            locked: Vec::new(),
            position_tol: 1e-12,
            max_iterations: 50,
        }
    }
}

/// Overwrites the rotation $R$ of body `b` in `x`.
pub(crate) fn set_rotation(mb: &Multibody3d, x: &mut [f64], b: usize, r: &Mat3) {
    store_row_major(r, &mut x[mb.body_off[b] + R_V_OFFSET..]);
}

/// The spatial assembly as a [`ConstrainedAssembly`]: pose increments
/// $(\delta r, \delta\varphi)$ applied as ${}^ir_P \mathrel{+}= \delta r$,
/// $R \leftarrow R\exp[\delta\varphi]_\times$ (paper 000 Remark 4).
impl ConstrainedAssembly for Multibody3d {
    shared_assembly_view!(geometry);
    fn for_each_mass_entry(&self, f: &mut dyn FnMut(usize, usize, f64)) {
        for (b, body) in self.bodies.iter().enumerate() {
            let o = self.body_off[b];
            let E = body.descriptor();
            let nq = body.n_q();
            for j in nq..body.n_local() {
                for (i, v) in phlex_core::sparse::col_iter(E, j) {
                    if i >= nq {
                        f(o + i, o + j, v);
                    }
                }
            }
        }
    }
    fn pose_fd_step(&self, _x: &[f64], _b: usize, _c: usize) -> f64 {
        1e-7
    }
    fn apply_pose_increment(&self, x: &mut [f64], b: usize, dq: &[f64]) {
        let o = self.body_off[b];
        for c in 0..3 {
            x[o + c] += dq[c];
        }
        let phi = [dq[3], dq[4], dq[5]];
        if phi != [0.0; 3] {
            let r = mat_mul(&self.rotation(b, x), &so3::exp(phi));
            set_rotation(self, x, b, &r);
        }
    }
}

/// Makes `x0` consistent at `t0` (positions, velocities, multipliers); see the module
/// documentation.
pub fn consistent_initial_state_3d(
    mb: &Multibody3d,
    x0: &[f64],
    input: &InputFn,
    t0: f64,
    opts: &KinematicsOptions3d,
) -> Result<ConsistentInit, MbsError> {
    let free = || {
        let mut locked = vec![false; mb.bodies.len()];
        for name in &opts.locked {
            locked[mb.body_index(name)?] = true;
        }
        Ok(free_pose_increments(mb, |b, _| locked[b]))
    };
    let stage = PositionStage {
        tol: opts.position_tol,
        max_iterations: opts.max_iterations,
        hint: "check port positions, ground points, axes and the locked bodies",
    };
    consistent_state(mb, x0, input, t0, free, &stage)
}
