//! Drift correction by projection onto the position constraints of a spatial multibody
//! system (issue #3 §2, off by default): the 3D counterpart of
//! [`crate::simulate::project_onto_constraints`], with the same options
//! ([`ProjectionOptions`]) and per-step report ([`ProjectionStep`]).
//!
//! The integrators enforce the *velocity* constraints $G(x)p = B_\lambda u$ (index 2); the
//! position constraints $\Phi(q) = 0$ of the joints ([`crate::spatial::joint`]: coincident
//! points, aligned axes, kept relative orientations, targets of prescribed velocities) drift
//! (paper 000 Remark 9). [`project_onto_constraints_3d`]:
//! 0. re-orthonormalises every rotation, $R \leftarrow R(R^\top R)^{-1/2}$ (Newton–Schulz
//!    iterations $R \leftarrow \tfrac12R(3I - R^\top R)$ until $|R^\top R - I| < 10^{-15}$),
//!    needed after integrators that do not keep the quadratic invariant (Radau IIA); the
//!    midpoint rule and [`crate::spatial::GaussCollocation`] keep it to round-off, so this is
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
//! $H(x^{proj}) - H(x)$ in [`ProjectionStats`].
use faer::Mat;
use phlex_core::sparse::col_iter;
use phlex_core::QuasiLinearPhDae;
use phlex_solve::SolveError;

use crate::error::MbsError;
use crate::simulate::{dense_solve, ProjectionOptions, ProjectionStep};
use crate::spatial::assembly::Multibody3d;
use crate::spatial::body::R_V_OFFSET;
use crate::spatial::linalg::{exp_so3, matmul, Mat3};

pub use crate::simulate::ProjectionStats;

/// Position residuals of every joint, in joint order (all rows, prescribed targets
/// included).
fn residuals(mb: &Multibody3d, x: &[f64], out: &mut Vec<f64>) {
    out.clear();
    for (k, j) in mb.joints.iter().enumerate() {
        let g = mb.geometry(k, x);
        out.extend(j.position_residual(&g, &x[mb.joint_state_range(k)]));
    }
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, a| m.max(a.abs()))
}

fn set_rotation(mb: &Multibody3d, x: &mut [f64], b: usize, r: &Mat3) {
    let o = mb.body_off[b] + R_V_OFFSET;
    for i in 0..3 {
        for j in 0..3 {
            x[o + 3 * i + j] = r[i][j];
        }
    }
}

/// Adds the pose increments `dq` (6 per body: δr, δφ) to `x`.
fn apply_pose_step(mb: &Multibody3d, x: &mut [f64], dq: &[f64]) {
    for b in 0..mb.bodies.len() {
        let o = mb.body_off[b];
        for c in 0..3 {
            x[o + c] += dq[6 * b + c];
        }
        let phi = [dq[6 * b + 3], dq[6 * b + 4], dq[6 * b + 5]];
        if phi != [0.0; 3] {
            let r = matmul(&mb.rotation(b, x), &exp_so3(phi));
            set_rotation(mb, x, b, &r);
        }
    }
}

/// $\max|R^\top R - I|$.
fn orthogonality_defect(r: &Mat3) -> f64 {
    let mut d = 0.0f64;
    for i in 0..3 {
        for j in 0..3 {
            let v: f64 =
                (0..3).map(|k| r[k][i] * r[k][j]).sum::<f64>() - if i == j { 1.0 } else { 0.0 };
            d = d.max(v.abs());
        }
    }
    d
}

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
            let mut rtr = [[0.0; 3]; 3];
            for i in 0..3 {
                for j in 0..3 {
                    rtr[i][j] = (0..3).map(|k| r[k][i] * r[k][j]).sum();
                }
            }
            let mut m = [[0.0; 3]; 3];
            for i in 0..3 {
                for j in 0..3 {
                    m[i][j] = 0.5 * ((if i == j { 3.0 } else { 0.0 }) - rtr[i][j]);
                }
            }
            r = matmul(&r, &m);
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
/// [`crate::simulate::project_onto_constraints`].
///
/// Errors: a Gauss–Newton that does not reach `tol` within `max_iterations`
/// ([`MbsError::Solve`] with [`SolveError::NewtonDiverged`], `t` = NaN: the integrators fill
/// in the time), a state or input of the wrong length ([`MbsError::Dimension`]), invalid
/// options.
pub fn project_onto_constraints_3d(
    mb: &Multibody3d,
    x: &mut [f64],
    u: &[f64],
    opts: &ProjectionOptions,
) -> Result<ProjectionStep, MbsError> {
    opts.validate()?;
    if x.len() != mb.n() {
        return Err(MbsError::Dimension {
            what: "state to project".into(),
            expected: mb.n(),
            found: x.len(),
        });
    }
    let m = mb.ports().total_dim();
    if u.len() != m {
        return Err(MbsError::Dimension {
            what: "input at the projected state".into(),
            expected: m,
            found: u.len(),
        });
    }
    orthonormalize_rotations(mb, x);
    let mut r = Vec::new();
    residuals(mb, x, &mut r);
    let mut step = ProjectionStep {
        drift_before: max_abs(&r),
        ..Default::default()
    };
    let nq = 6 * mb.bodies.len();
    let (mut rp, mut rm) = (Vec::new(), Vec::new());
    let mut xp = x.to_vec();
    let mut dq = vec![0.0; nq];
    while max_abs(&r) > opts.tol {
        if step.iterations == opts.max_iterations {
            return Err(MbsError::Solve(SolveError::NewtonDiverged {
                t: f64::NAN,
                iterations: step.iterations,
                residual: max_abs(&r),
                tol: opts.tol,
            }));
        }
        let mut A = Mat::<f64>::zeros(r.len(), nq);
        let hd = 1e-7;
        for c in 0..nq {
            dq.iter_mut().for_each(|v| *v = 0.0);
            dq[c] = hd;
            xp.copy_from_slice(x);
            apply_pose_step(mb, &mut xp, &dq);
            residuals(mb, &xp, &mut rp);
            dq[c] = -hd;
            xp.copy_from_slice(x);
            apply_pose_step(mb, &mut xp, &dq);
            residuals(mb, &xp, &mut rm);
            for row in 0..r.len() {
                A[(row, c)] = (rp[row] - rm[row]) / (2.0 * hd);
            }
        }
        let rhs: Vec<f64> = r.iter().map(|v| -v).collect();
        let d = pinv_solve(&A, &rhs)?;
        step.max_correction = step.max_correction.max(max_abs(&d));
        apply_pose_step(mb, x, &d);
        residuals(mb, x, &mut r);
        step.iterations += 1;
    }
    step.drift_after = max_abs(&r);
    if opts.velocities && mb.n_constraints() > 0 {
        project_velocities(mb, x, u, &mut step);
    }
    Ok(step)
}

/// Minimum-norm solution of `A dx = b` (SVD, relative cut-off `1e-12`).
fn pinv_solve(A: &Mat<f64>, b: &[f64]) -> Result<Vec<f64>, MbsError> {
    let (m, n) = (A.nrows(), A.ncols());
    let svd = A.thin_svd().map_err(|e| {
        MbsError::Solve(SolveError::Eigen(format!(
            "SVD of the position-constraint Jacobian (projection): {e:?}"
        )))
    })?;
    let k = m.min(n);
    let s: Vec<f64> = (0..k).map(|i| svd.S().column_vector()[i]).collect();
    let smax = s.iter().fold(0.0f64, |a, &c| a.max(c));
    let (U, V) = (svd.U(), svd.V());
    let mut x = vec![0.0; n];
    for i in 0..k {
        if s[i] > 1e-12 * smax {
            let c: f64 = (0..m).map(|r| U[(r, i)] * b[r]).sum::<f64>() / s[i];
            for (j, xj) in x.iter_mut().enumerate() {
                *xj += c * V[(j, i)];
            }
        }
    }
    Ok(x)
}

/// Velocity projection: $\min\tfrac12\Delta p^\top(M + \delta I)\Delta p$ subject to
/// $G(p + \Delta p) = B_\lambda u$ (dense KKT; the systems this is meant for are small).
fn project_velocities(mb: &Multibody3d, x: &mut [f64], u: &[f64], step: &mut ProjectionStep) {
    let n = mb.n();
    let p_idx: Vec<usize> = mb
        .bodies
        .iter()
        .enumerate()
        .flat_map(|(b, body)| {
            let o = mb.body_off[b] + body.n_q();
            o..o + body.n_p()
        })
        .collect();
    let mut col_of = vec![usize::MAX; n];
    for (c, &i) in p_idx.iter().enumerate() {
        col_of[i] = c;
    }
    let (np, nc) = (p_idx.len(), mb.n_constraints());
    // c = G p − B_λ u
    let mut c = vec![0.0; nc];
    mb.for_each_constraint_entry(x, |row, col, v| c[row] += v * x[col]);
    if !u.is_empty() {
        let B = mb.input_map(x);
        let lam0 = mb.lam_off.first().copied().unwrap_or(n);
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
    for (b, body) in mb.bodies.iter().enumerate() {
        let o = mb.body_off[b];
        let E = body.descriptor();
        let nq = body.n_q();
        for j in nq..body.n_local() {
            for (i, v) in col_iter(E, j) {
                if i >= nq {
                    K[(col_of[o + i], col_of[o + j])] += v;
                    if i == j {
                        mdiag = mdiag.max(v);
                    }
                }
            }
        }
    }
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
