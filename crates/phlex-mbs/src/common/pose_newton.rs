//! Gauss–Newton on the body poses that closes the joint position constraints $\Phi(q) = 0$
//! (paper 000 §6.3 consistent positions; Remark 9 drift projection), written once for the
//! planar and the spatial assembly.
//!
//! The unknowns are the pose increments $\delta q$ of the bodies not locked
//! ([`crate::body::Dimension::POSE_DOF`] per body: planar $(\delta x, \delta y, \delta\theta)$,
//! spatial $(\delta r, \delta\varphi)$ applied as $R \leftarrow R\exp[\delta\varphi]_\times$,
//! so a rotation stays a rotation). Each step is the minimum-norm correction
//! $\Delta q = -\Phi_q^{+}\Phi(q)$ ([`min_norm_solve`], robust to redundant rows), with
//! $\Phi_q$ by central differences ([`ConstrainedAssembly::pose_fd_step`]). Elastic
//! coordinates, velocities and stresses are not touched.
use faer::Mat;

use crate::body::Dimension;
use crate::common::assembly::ConstrainedAssembly;
use crate::common::least_squares::{max_abs, min_norm_solve};
use crate::error::{require_len, MbsError};
use phlex_core::system::{ProjectionOptions, ProjectionStep};
use phlex_solve::SolveError;

/// Which residuals the iteration closes and how the joint states follow the poses.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PoseNewtonOptions<'a> {
    /// Include the targets of prescribed velocities in $\Phi$.
    pub drivers: bool,
    /// Reset the joint states from the poses after every change of the poses (consistent
    /// initial conditions); otherwise they are kept (drift projection).
    pub reset_joints: bool,
    /// Stop when $\max|\Phi| \le$ `tol`.
    pub tol: f64,
    /// At most this many iterations.
    pub max_iterations: usize,
    /// Name of $\Phi_q$ in the error of a failed SVD.
    pub jacobian_name: &'a str,
}

/// What the iteration did; the caller decides whether `residual_after` is good enough.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PoseNewtonReport {
    /// Iterations done.
    pub iterations: usize,
    /// $\max|\Phi|$ before.
    pub residual_before: f64,
    /// $\max|\Phi|$ after.
    pub residual_after: f64,
    /// Largest pose correction $|\Delta q|_\infty$.
    pub max_correction: f64,
}

/// Every pose increment `(body, component)` of every body except those `locked`.
pub(crate) fn free_pose_increments<A: ConstrainedAssembly>(
    mb: &A,
    locked: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    (0..mb.body_count())
        .flat_map(|b| (0..A::Dim::POSE_DOF).map(move |c| (b, c)))
        .filter(|&(b, c)| !locked(b, c))
        .collect()
}

fn residuals<A: ConstrainedAssembly>(
    mb: &A,
    x: &mut [f64],
    opts: &PoseNewtonOptions,
    out: &mut Vec<f64>,
) {
    if opts.reset_joints {
        mb.reset_joints(x);
    }
    mb.position_residuals(x, opts.drivers, out);
}

/// Moves energy-free joint states along with the poses: `follow(mb, x, dq)` with the pose
/// increments `dq` of all bodies ([`crate::body::Dimension::POSE_DOF`] per body, zero for the
/// locked components) just applied to `x` (the planar drift projection moves the joint
/// relative angles, $\Delta\theta_j = \Delta\theta_b - \Delta\theta_a$).
pub(crate) type JointFollow<A> = fn(&A, &mut [f64], &[f64]);

/// Applies the increments `d` of the `free` pose components, body by body, then `follow`.
fn apply<A: ConstrainedAssembly>(
    mb: &A,
    x: &mut [f64],
    free: &[(usize, usize)],
    d: &[f64],
    follow: Option<JointFollow<A>>,
) {
    let mut dq = vec![0.0; A::Dim::POSE_DOF];
    let mut k = 0;
    while k < free.len() {
        let b = free[k].0;
        dq.iter_mut().for_each(|v| *v = 0.0);
        while k < free.len() && free[k].0 == b {
            dq[free[k].1] = d[k];
            k += 1;
        }
        mb.apply_pose_increment(x, b, &dq);
    }
    if let Some(follow) = follow {
        let mut all = vec![0.0; A::Dim::POSE_DOF * mb.body_count()];
        for (&(b, c), &v) in free.iter().zip(d) {
            all[A::Dim::POSE_DOF * b + c] = v;
        }
        follow(mb, x, &all);
    }
}

/// Runs the Gauss–Newton iteration on the `free` pose increments (from
/// [`free_pose_increments`]) of `x` in place, the joint states moved by `follow` after
/// every change of the poses; see the module documentation.
pub(crate) fn close_position_constraints<A: ConstrainedAssembly>(
    mb: &A,
    x: &mut [f64],
    free: &[(usize, usize)],
    opts: &PoseNewtonOptions,
    follow: Option<JointFollow<A>>,
) -> Result<PoseNewtonReport, MbsError> {
    let mut r = Vec::new();
    residuals(mb, x, opts, &mut r);
    let residual_before = max_abs(&r);
    let mut report = PoseNewtonReport {
        iterations: 0,
        residual_before,
        residual_after: residual_before,
        max_correction: 0.0,
    };
    let (mut rp, mut rm) = (Vec::new(), Vec::new());
    let mut xp = x.to_vec();
    let mut unit = vec![0.0; free.len()];
    while max_abs(&r) > opts.tol && report.iterations < opts.max_iterations && !r.is_empty() {
        let mut A = Mat::<f64>::zeros(r.len(), free.len());
        for (col, &(b, c)) in free.iter().enumerate() {
            let h = mb.pose_fd_step(x, b, c);
            unit[col] = h;
            xp.copy_from_slice(x);
            apply(mb, &mut xp, free, &unit, follow);
            residuals(mb, &mut xp, opts, &mut rp);
            unit[col] = -h;
            xp.copy_from_slice(x);
            apply(mb, &mut xp, free, &unit, follow);
            residuals(mb, &mut xp, opts, &mut rm);
            unit[col] = 0.0;
            for row in 0..r.len() {
                A[(row, col)] = (rp[row] - rm[row]) / (2.0 * h);
            }
        }
        let rhs: Vec<f64> = r.iter().map(|v| -v).collect();
        let d = min_norm_solve(&A, &rhs, opts.jacobian_name)?;
        report.max_correction = report.max_correction.max(max_abs(&d));
        apply(mb, x, free, &d, follow);
        residuals(mb, x, opts, &mut r);
        report.iterations += 1;
    }
    report.residual_after = max_abs(&r);
    Ok(report)
}

/// Step 1 of the drift projection (paper 000 Remark 9; [`crate::planar::projection::project_onto_constraints`] and
/// [`crate::spatial::project_onto_constraints_3d`]): the Gauss–Newton iteration on the poses
/// of every body, drivers included, joint states kept (or moved by `follow`), until
/// $\max|\Phi| \le$ `opts.tol`. Checks `opts` and the length of `x` first.
///
/// Errors: invalid options, a state of the wrong length ([`MbsError::Dimension`]), no
/// convergence within `opts.max_iterations` ([`SolveError::NewtonDiverged`] with `t` = NaN:
/// the integrators fill in the time).
pub(crate) fn project_poses<A: ConstrainedAssembly>(
    mb: &A,
    x: &mut [f64],
    opts: &ProjectionOptions,
    follow: Option<JointFollow<A>>,
    before: impl FnOnce(&mut [f64]) -> Result<(), MbsError>,
) -> Result<ProjectionStep, MbsError> {
    opts.validate()?;
    require_len("state to project", mb.n_states(), x.len())?;
    before(x)?;
    let free = free_pose_increments(mb, |_, _| false);
    let newton = close_position_constraints(
        mb,
        x,
        &free,
        &PoseNewtonOptions {
            drivers: true,
            reset_joints: false,
            tol: opts.tol,
            max_iterations: opts.max_iterations,
            jacobian_name: "position-constraint Jacobian (projection)",
        },
        follow,
    )?;
    if newton.residual_after > opts.tol {
        return Err(MbsError::Solve(SolveError::NewtonDiverged {
            t: f64::NAN,
            iterations: newton.iterations,
            residual: newton.residual_after,
            tol: opts.tol,
        }));
    }
    Ok(ProjectionStep {
        iterations: newton.iterations,
        drift_before: newton.residual_before,
        drift_after: newton.residual_after,
        max_correction: newton.max_correction,
        ..Default::default()
    })
}
