//! Consistent initial conditions of a multibody pHDAE (paper 000 §6.3: "setting the
//! initial conditions properly is of utmost importance for a DAE solver … the beam is
//! supposed undeformed … the initial conditions for the rigid movement are found using
//! basic kinematics").
//!
//! The three stages of `common::consistent_init`, bodies undeformed, instantiated
//! for the planar [`Multibody`]:
//!
//! 1. **Positions** (closed-loop kinematics): the body poses $q = (x, y, \theta)_b$, except
//!    the coordinates the user locks (e.g. the crank angle), are corrected by
//!    Gauss–Newton with minimum-norm steps $\Delta q = -\Phi_q^{+}\Phi(q)$ (SVD
//!    pseudo-inverse, so redundant rows do not break it; $\Phi_q$ by central differences)
//!    until the joint position residuals $\Phi$ (hinge points coincide, points on lines,
//!    fixed frames, …; see [`crate::planar::joint`]) vanish to `position_tol`. Joint relative angles
//!    and driver targets are then reset from the poses.
//! 2. **Velocities**: $p$ projected onto $G p = B_\lambda u(t_0)$ in the kinetic-energy
//!    metric.
//! 3. **Multipliers** from the hidden constraint $\frac{d}{dt}(G p) = B_\lambda\dot u$.
use crate::body::FloatingBody;
use crate::common::bodies::BodyAssembly;
use phlex_solve::InputFn;

use crate::common::assembly::{shared_assembly_view, ConstrainedAssembly};
use crate::common::consistent_init::{consistent_state, PositionStage};
use crate::common::pose_newton::free_pose_increments;
use crate::error::MbsError;
use crate::planar::assembly::Multibody;

/// A pose coordinate of a planar body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coordinate {
    /// ${}^ir_P^x$.
    X,
    /// ${}^ir_P^y$.
    Y,
    /// $\theta$.
    Theta,
}

/// Options of [`consistent_initial_state`].
#[derive(Debug, Clone, PartialEq)]
pub struct KinematicsOptions {
    /// Coordinates kept at their given values (e.g. `("crank", Coordinate::Theta)`).
    pub locked: Vec<(String, Coordinate)>,
    /// Position tolerance (max norm of the joint residuals) \[m, rad\].
    pub position_tol: f64,
    /// Maximum Gauss–Newton iterations.
    pub max_iterations: usize,
}

impl Default for KinematicsOptions {
    /// Nothing locked, tolerance $10^{-12}$, 50 iterations.
    fn default() -> Self {
        Self {
            locked: Vec::new(),
            position_tol: 1e-12,
            max_iterations: 50,
        }
    }
}

/// Outcome of [`consistent_initial_state`].
#[derive(Debug, Clone, PartialEq)]
pub struct ConsistentInit {
    /// The consistent state.
    pub state: Vec<f64>,
    /// Largest joint position residual before and after stage 1.
    pub position_residual: (f64, f64),
    /// Largest velocity-constraint residual before and after stage 2.
    pub velocity_residual: (f64, f64),
    /// Gauss–Newton iterations of stage 1.
    pub iterations: usize,
}

/// The planar assembly as a [`ConstrainedAssembly`]: poses $(x, y, \theta)$ at the start
/// of every body block (paper 000 eq. (36)), moved additively.
impl ConstrainedAssembly for Multibody {
    shared_assembly_view!(joint_geometry);
    fn for_each_mass_entry(&self, f: &mut dyn FnMut(usize, usize, f64)) {
        for (b, body) in self.bodies.iter().enumerate() {
            let o = self.body_off[b] + body.n_q();
            let Mb = body.mass_matrix();
            for j in 0..Mb.ncols() {
                for (i, v) in phlex_core::sparse::col_iter(Mb, j) {
                    f(o + i, o + j, v);
                }
            }
        }
    }
    fn pose_fd_step(&self, x: &[f64], b: usize, c: usize) -> f64 {
        1e-7 * (1.0 + x[self.body_off[b] + c].abs())
    }
    fn apply_pose_increment(&self, x: &mut [f64], b: usize, dq: &[f64]) {
        let o = self.body_off[b];
        for (c, d) in dq.iter().enumerate() {
            x[o + c] += d;
        }
    }
}

/// Makes `x0` consistent at `t0` (positions, velocities, multipliers); see the module
/// documentation.
pub fn consistent_initial_state(
    mb: &Multibody,
    x0: &[f64],
    input: &InputFn,
    t0: f64,
    opts: &KinematicsOptions,
) -> Result<ConsistentInit, MbsError> {
    let free = || {
        let mut locked = vec![false; 3 * mb.bodies.len()];
        for (body, c) in &opts.locked {
            let b = mb.body_index(body)?;
            let k = match c {
                Coordinate::X => 0,
                Coordinate::Y => 1,
                Coordinate::Theta => 2,
            };
            locked[3 * b + k] = true;
        }
        Ok(free_pose_increments(mb, |b, c| locked[3 * b + c]))
    };
    let stage = PositionStage {
        tol: opts.position_tol,
        max_iterations: opts.max_iterations,
        hint: "check link lengths, ground points and the locked coordinates",
    };
    consistent_state(mb, x0, input, t0, free, &stage)
}
