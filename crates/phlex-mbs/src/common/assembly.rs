//! [`ConstrainedAssembly`]: what the dimension-generic algorithms (consistent initial
//! conditions, drift projection, redundancy check) need to know of an assembled multibody
//! pHDAE $E\dot x = (J(x) - R)z(x) + B(x)u$ with the joint rows $G(x)p = B_\lambda u$
//! (paper 000 eqs. (44)–(46)). Implemented by the planar [`crate::Multibody`]
//! (in [`crate::kinematics`]) and the spatial [`crate::spatial::Multibody3d`] (in
//! [`crate::spatial::kinematics`]).
use phlex_core::sparse::col_iter;
use phlex_core::sparse::SparseMat;
use phlex_core::QuasiLinearPhDae;

use crate::assembly::JointDrift;

/// The constrained-mechanics view of an assembled multibody system, generic over the
/// dimension: a body pose has [`ConstrainedAssembly::POSE_DOF`] increments (planar
/// $(\delta x, \delta y, \delta\theta)$, spatial $(\delta r, \delta\varphi)$).
pub(crate) trait ConstrainedAssembly: QuasiLinearPhDae {
    /// Pose increments per body: 3 in the plane, 6 in space.
    const POSE_DOF: usize;
    /// Number of bodies.
    fn n_bodies(&self) -> usize;
    /// Number of joint constraint rows $n_c$.
    fn n_constraint_rows(&self) -> usize;
    /// Global index of the first multiplier; the $n_c$ multipliers are contiguous from it
    /// (the state length if there are none).
    fn first_multiplier(&self) -> usize;
    /// Global indices of the co-energy (velocity) variables $p$ of all bodies, body by body.
    fn velocity_indices(&self) -> Vec<usize>;
    /// Calls `f(i, j, v)` for every entry of the mass operator $M$ on the velocity
    /// variables, in global indices.
    fn for_each_mass_entry(&self, f: &mut dyn FnMut(usize, usize, f64));
    /// Calls `f(row, column, value)` for every entry of $G(x)$ (global columns).
    fn for_each_constraint_row_entry(&self, x: &[f64], f: &mut dyn FnMut(usize, usize, f64));
    /// `"joint[row]"` label of every constraint row.
    fn row_labels(&self) -> Vec<String>;
    /// Name of the joint owning constraint row `row`.
    fn joint_name_of_row(&self, row: usize) -> &str;
    /// Position residuals $\Phi$ of every joint, in joint order; `drivers` includes the
    /// targets of prescribed velocities.
    fn position_residuals(&self, x: &[f64], drivers: bool, out: &mut Vec<f64>);
    /// Position drift of every joint.
    fn joint_drifts(&self, x: &[f64]) -> Vec<JointDrift>;
    /// Resets the joint states (relative angles, driver targets) from the body poses.
    fn reset_joints(&self, x: &mut [f64]);
    /// Central-difference step for pose increment `c` of body `b` at `x`.
    fn pose_fd_step(&self, x: &[f64], b: usize, c: usize) -> f64;
    /// Applies the pose increment `dq` (length [`ConstrainedAssembly::POSE_DOF`]) to body
    /// `b`, keeping a rotation a rotation.
    fn apply_pose_increment(&self, x: &mut [f64], b: usize, dq: &[f64]);
    /// Right-hand side $f(x, u)$ with the multipliers of `x` as reactions.
    fn rhs_of(&self, x: &[f64], u: &[f64], f: &mut [f64]);
}

/// $B_\lambda u$: the right-hand side of the velocity constraints $Gp = B_\lambda u$
/// (paper 000 eq. (46)) for the input `u`, from the rows of the input map `B` $= B(x)$ at
/// and after `first_multiplier`.
pub(crate) fn constraint_input(
    B: &SparseMat,
    first_multiplier: usize,
    n_rows: usize,
    u: &[f64],
) -> Vec<f64> {
    let mut g = vec![0.0; n_rows];
    for c in 0..B.ncols() {
        for (i, v) in col_iter(B, c) {
            if i >= first_multiplier {
                g[i - first_multiplier] += v * u[c];
            }
        }
    }
    g
}

/// The [`ConstrainedAssembly`] methods that the planar [`crate::Multibody`] and the spatial
/// [`crate::spatial::Multibody3d`] implement alike (they share the layout: `bodies`,
/// `body_off`, `joints`, `lam_off`, `n_rows` and the joint accessors); `$geometry` names the
/// method giving the port geometry of a joint.
macro_rules! shared_assembly_view {
    ($geometry:ident) => {
        fn n_bodies(&self) -> usize {
            self.bodies.len()
        }
        fn n_constraint_rows(&self) -> usize {
            self.n_rows
        }
        fn first_multiplier(&self) -> usize {
            self.lam_off.first().copied().unwrap_or(self.n)
        }
        fn velocity_indices(&self) -> Vec<usize> {
            let bodies = self.bodies.iter().enumerate();
            bodies
                .flat_map(|(b, body)| {
                    let o = self.body_off[b] + body.n_q();
                    o..o + body.n_p()
                })
                .collect()
        }
        fn for_each_constraint_row_entry(&self, x: &[f64], f: &mut dyn FnMut(usize, usize, f64)) {
            self.for_each_constraint_entry(x, f)
        }
        fn row_labels(&self) -> Vec<String> {
            self.constraint_labels()
        }
        fn joint_name_of_row(&self, row: usize) -> &str {
            &self.joints[self.joint_of_row(row)].name
        }
        fn position_residuals(&self, x: &[f64], drivers: bool, out: &mut Vec<f64>) {
            out.clear();
            for (k, j) in self.joints.iter().enumerate() {
                if drivers || j.n_inputs() == 0 {
                    let g = self.$geometry(k, x);
                    out.extend(j.position_residual(&g, &x[self.joint_state_range(k)]));
                }
            }
        }
        fn joint_drifts(&self, x: &[f64]) -> Vec<crate::assembly::JointDrift> {
            self.position_drift(x)
        }
        fn reset_joints(&self, x: &mut [f64]) {
            self.reset_joint_states(x)
        }
        fn rhs_of(&self, x: &[f64], u: &[f64], f: &mut [f64]) {
            self.rhs(x, u, f)
        }
    };
}
pub(crate) use shared_assembly_view;
