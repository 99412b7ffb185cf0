//! Drift correction by projection onto the position constraints of a spatial multibody
//! system (issue #3 §2, off by default): the 3D counterpart of
//! [`crate::planar::projection::project_onto_constraints`], with the same options
//! ([`ProjectionOptions`]) and per-step report ([`ProjectionStep`]).
//!
//! The integrators enforce the *velocity* constraints $G(x)p = B_\lambda u$ (index 2); the
//! position constraints $\Phi(q) = 0$ of the joints ([`crate::spatial::joint`]: coincident
//! points, aligned axes, kept relative orientations, targets of prescribed velocities) drift
//! (paper 000 Remark 9). [`project_onto_constraints_3d`]:
//! 0. re-orthonormalises every rotation, $R \leftarrow R(R^\top R)^{-1/2}$ (Newton–Schulz
//!    iterations $R \leftarrow \tfrac12R(3I - R^\top R)$ until $|R^\top R - I| < 10^{-15}$),
//!    needed after integrators that do not keep the quadratic invariant (Radau IIA); the
//!    midpoint rule and [`phlex_solve::GaussCollocation`] keep it to round-off, so this is
//!    then a no-op;
//! 1. Gauss–Newton on the pose increments $(\delta r_b, \delta\phi_b)$ of every body with
//!    minimum-norm (Euclidean) steps $\Delta q = -\Phi_q^{+}\Phi(q)$ (SVD pseudo-inverse,
//!    robust to redundant rows; $\Phi_q$ by central differences with step $10^{-7}$),
//!    applied as ${}^ir_P \mathrel{+}= \delta r$, $R \leftarrow R\exp[\delta\phi]_\times$ (so
//!    $R$ stays a rotation), until $\max|\Phi| \le$ `tol`; elastic coordinates, joint states
//!    (targets of prescribed velocities) and stresses are not touched;
//! 2. optionally ([`ProjectionOptions::velocities`]) the co-energy variables onto
//!    $G(x_1)p = B_\lambda u(t_1)$ in the kinetic-energy metric,
//!    $\min\tfrac12\Delta p^\top(M + \delta I)\Delta p$, $\delta = 10^{-10}\max M_{ii}$.
//!
//! *Energy.* The projection is not part of the scheme's power balance: moving the poses
//! changes the potential energy (gravity) and the velocity projection removes kinetic energy
//! (an $M$-orthogonal projection never adds any). The integrators record every jump
//! $H(x^{proj}) - H(x)$ in [`phlex_core::ProjectionStats`].
use faer::Mat;
use phlex_core::sparse::col_iter;
use phlex_core::system::{ProjectionOptions, ProjectionStep};
use phlex_core::PhSystem;

use crate::common::assembly::ConstrainedAssembly;
use crate::common::least_squares::{dense_solve, max_abs};
use crate::common::pose_newton::project_poses;
use crate::error::{require_len, MbsError};
use crate::spatial::assembly::Multibody3d;
use crate::spatial::kinematics::set_rotation;
use phlex_core::geometry::mat3::{lin_comb, mat_mul, mat_t_mul, IDENTITY3};
use phlex_core::geometry::so3::orthogonality_defect;

/// Re-orthonormalises every body rotation (Newton–Schulz); returns the largest defect
/// $\max|R^\top R - I|$ found before.
pub fn orthonormalize_rotations(mb: &Multibody3d, x: &mut [f64]) -> f64 {
    let mut worst = 0.0f64;
    for b in 0..mb.bodies.len() {
        let mut r = mb.rotation(b, x);
        let d0 = orthogonality_defect(&r);
        worst = worst.max(d0);
        if d0 <= 1e-15 {
            continue;
        }
        for _ in 0..20 {
            // Newton–Schulz: R ← R (3E − RᵀR)/2.
            let m = lin_comb(1.5, &IDENTITY3, -0.5, &mat_t_mul(&r, &r));
            r = mat_mul(&r, &m);
            if orthogonality_defect(&r) <= 1e-15 {
                break;
            }
        }
        set_rotation(mb, x, b, &r);
    }
    worst
}

/// Projects `x` onto the position constraints of every joint (and, with
/// [`ProjectionOptions::velocities`], its velocities onto $G(x)p = B_\lambda u$); see the
/// module documentation. `u` is the input at the time of `x`. Same signature as the planar
/// [`crate::planar::projection::project_onto_constraints`].
///
/// Errors: a Gauss–Newton that does not reach `tol` within `max_iterations`
/// ([`MbsError::Solve`] with [`phlex_solve::SolveError::NewtonDiverged`], `t` = NaN: the integrators fill
/// in the time), a state or input of the wrong length ([`MbsError::Dimension`]), invalid
/// options.
pub fn project_onto_constraints_3d(
    mb: &Multibody3d,
    x: &mut [f64],
    u: &[f64],
    opts: &ProjectionOptions,
) -> Result<ProjectionStep, MbsError> {
    let mut step = project_poses(mb, x, opts, None, |x| {
        require_len(
            "input at the projected state",
            mb.ports().total_dim(),
            u.len(),
        )?;
        orthonormalize_rotations(mb, x);
        Ok(())
    })?;
    if opts.velocities && mb.n_constraints() > 0 {
        project_velocities(mb, x, u, &mut step);
    }
    Ok(step)
}

/// Velocity projection: $\min\tfrac12\Delta p^\top(M + \delta I)\Delta p$ subject to
/// $G(p + \Delta p) = B_\lambda u$ (dense KKT; the systems this is meant for are small).
fn project_velocities(mb: &Multibody3d, x: &mut [f64], u: &[f64], step: &mut ProjectionStep) {
    let p_idx = mb.velocity_indices();
    let mut col_of = vec![usize::MAX; mb.n()];
    for (c, &i) in p_idx.iter().enumerate() {
        col_of[i] = c;
    }
    let (np, nc) = (p_idx.len(), mb.n_constraints());
    // c = G p − B_λ u
    let mut c = vec![0.0; nc];
    mb.for_each_constraint_entry(x, |row, col, v| c[row] += v * x[col]);
    if !u.is_empty() {
        let B = mb.input_map(x);
        let lam0 = mb.first_multiplier();
        for k in 0..B.ncols() {
            for (i, v) in col_iter(&B, k) {
                if i >= lam0 {
                    c[i - lam0] -= v * u[k];
                }
            }
        }
    }
    step.velocity_residual = max_abs(&c);
    let mut K = Mat::<f64>::zeros(np + nc, np + nc);
    let mut mdiag = 0.0f64;
    mb.for_each_mass_entry(&mut |i, j, v| {
        K[(col_of[i], col_of[j])] += v;
        if i == j {
            mdiag = mdiag.max(v);
        }
    });
    for i in 0..np {
        K[(i, i)] += 1e-10 * mdiag;
    }
    mb.for_each_constraint_entry(x, |row, col, v| {
        K[(np + row, col_of[col])] += v;
        K[(col_of[col], np + row)] += v;
    });
    let mut rhs = vec![0.0; np + nc];
    for (k, ck) in c.iter().enumerate() {
        rhs[np + k] = -ck;
    }
    let d = dense_solve(&K, &rhs);
    for (k, &i) in p_idx.iter().enumerate() {
        x[i] += d[k];
    }
}
