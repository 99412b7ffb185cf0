//! Consistent initial conditions of a multibody pHDAE (paper 000 §6.3: "setting the
//! initial conditions properly is of utmost importance for a DAE solver"), written once for
//! the planar ([`crate::planar::kinematics`]) and the spatial ([`crate::spatial::kinematics`])
//! assembly. Three stages, bodies undeformed:
//!
//! 1. **Positions**: the poses of the bodies, except the increments the user locks, close
//!    the joint position residuals (drivers excluded) by [`close_position_constraints`];
//!    the joint states follow the poses.
//! 2. **Velocities**: the co-energy variables $p$ are projected onto $Gp = B_\lambda u(t_0)$
//!    in the kinetic-energy metric, $\min\tfrac12(p - p_0)^\top(M + \delta I)(p - p_0)$,
//!    $\delta = 10^{-10}\max_i M_{ii}$ (the regularisation only matters for directions
//!    without inertia, e.g. the spin of a point mass about itself), by the KKT system.
//! 3. **Multipliers** from the hidden constraint $\frac{d}{dt}(Gp) = B_\lambda\dot u$:
//!    $\begin{bmatrix}M & -G^\top\\ G & 0\end{bmatrix}\begin{pmatrix}\dot p\\ \lambda\end{pmatrix}
//!    = \begin{pmatrix}f_p\\ B_\lambda\dot u - \dot G p\end{pmatrix}$, with $f_p$ the
//!    right-hand side without reactions and $\dot Gp$ by a central difference along
//!    $\dot q$. The midpoint scheme does not use $\lambda_0$; Radau uses it as a starting
//!    guess.
use faer::Mat;
use phlex_solve::InputFn;

use crate::common::assembly::{constraint_input, ConstrainedAssembly};
use crate::common::least_squares::dense_solve;
use crate::common::least_squares::max_abs;
use crate::common::pose_newton::{close_position_constraints, PoseNewtonOptions};
use crate::error::{require_len, MbsError};
use crate::planar::kinematics::ConsistentInit;

/// Stage 1 settings: the free pose increments, the tolerance and what to tell the user
/// when the loop does not close.
pub(crate) struct PositionStage<'a> {
    /// Tolerance on $\max|\Phi|$ \[m, rad\].
    pub tol: f64,
    /// Gauss–Newton iterations at most.
    pub max_iterations: usize,
    /// Hint appended to the error when the loops cannot be closed.
    pub hint: &'a str,
}

/// Makes `x0` consistent at `t0` (positions, velocities, multipliers); see the module
/// documentation. `free` lists the pose increments stage 1 may change; it is evaluated
/// after the dimension checks.
pub(crate) fn consistent_state<A: ConstrainedAssembly>(
    mb: &A,
    x0: &[f64],
    input: &InputFn,
    t0: f64,
    free: impl FnOnce() -> Result<Vec<(usize, usize)>, MbsError>,
    stage: &PositionStage,
) -> Result<ConsistentInit, MbsError> {
    let n = mb.n_states();
    require_len("initial state", n, x0.len())?;
    require_len("input", mb.ports().total_dim(), input.dim())?;
    // ---- stage 1: positions ----
    let free = free()?;
    let mut x = x0.to_vec();
    let newton = close_position_constraints(
        mb,
        &mut x,
        &free,
        &PoseNewtonOptions {
            drivers: false,
            reset_joints: true,
            tol: stage.tol,
            max_iterations: stage.max_iterations,
            jacobian_name: "position Jacobian",
        },
        None,
    )?;
    let (before, after, iterations) = (
        newton.residual_before,
        newton.residual_after,
        newton.iterations,
    );
    if after > stage.tol {
        let worst = mb
            .joint_drifts(&x)
            .into_iter()
            .max_by(|a, b| a.max_abs.total_cmp(&b.max_abs))
            .map_or((String::new(), after), |d| (d.joint, d.max_abs));
        return Err(MbsError::InconsistentInitialConditions {
            joint: worst.0,
            level: "position".into(),
            residual: worst.1,
            tol: stage.tol,
            hint: format!(
                " after {iterations} Gauss-Newton iterations; the loop cannot be closed from the given poses: {}",
                stage.hint
            ),
        });
    }
    // ---- stage 2: velocities ----
    let p_idx = mb.velocity_indices();
    let mut col_of = vec![usize::MAX; n];
    for (c, &i) in p_idx.iter().enumerate() {
        col_of[i] = c;
    }
    let np = p_idx.len();
    let nc = mb.n_constraint_rows();
    let u0 = input.eval(t0);
    let B = mb.input_map(&x);
    let lam0 = mb.first_multiplier();
    let g = constraint_input(&B, lam0, nc, &u0);
    let mut M = Mat::<f64>::zeros(np, np);
    mb.for_each_mass_entry(&mut |i, j, v| M[(col_of[i], col_of[j])] += v);
    let mut G = Mat::<f64>::zeros(nc, np);
    mb.for_each_constraint_row_entry(&x, &mut |row, c, v| G[(row, col_of[c])] += v);
    let p0: Vec<f64> = p_idx.iter().map(|&i| x[i]).collect();
    let gp = |p: &[f64]| -> Vec<f64> {
        (0..nc)
            .map(|r| (0..np).map(|c| G[(r, c)] * p[c]).sum::<f64>() - g[r])
            .collect()
    };
    let vbefore = max_abs(&gp(&p0));
    let dmax = (0..np).fold(0.0f64, |a, i| a.max(M[(i, i)]));
    let delta = 1e-10 * dmax.max(f64::MIN_POSITIVE);
    let mut K = Mat::<f64>::zeros(np + nc, np + nc);
    let mut rhs = vec![0.0; np + nc];
    for i in 0..np {
        for j in 0..np {
            K[(i, j)] = M[(i, j)] + if i == j { delta } else { 0.0 };
        }
        rhs[i] = (0..np).map(|j| K[(i, j)] * p0[j]).sum();
    }
    for r in 0..nc {
        for c in 0..np {
            K[(np + r, c)] = G[(r, c)];
            K[(c, np + r)] = G[(r, c)];
        }
        rhs[np + r] = g[r];
        if mb.is_released_row(r) {
            // A released redundant row is not in G; its multiplier is 0.
            K[(np + r, np + r)] = 1.0;
        }
    }
    let sol = dense_solve(&K, &rhs);
    if sol.iter().any(|v| !v.is_finite()) {
        return Err(MbsError::Solve(phlex_solve::SolveError::Singular {
            what: "velocity projection (KKT of the mass operator and the joint constraints)".into(),
            detail: "non-finite solution (redundant joints?)".into(),
        }));
    }
    for (c, &i) in p_idx.iter().enumerate() {
        x[i] = sol[c];
    }
    let res = gp(&sol[..np]);
    let vafter = max_abs(&res);
    let vscale = max_abs(&sol[..np]).max(max_abs(&g)).max(1.0);
    if vafter > 1e-9 * vscale {
        let row = (0..nc)
            .max_by(|&a, &b| res[a].abs().total_cmp(&res[b].abs()))
            .unwrap_or(0);
        return Err(MbsError::InconsistentInitialConditions {
            joint: mb.joint_name_of_row(row).to_string(),
            level: "velocity".into(),
            residual: vafter,
            tol: 1e-9 * vscale,
            hint:
                ": the velocity constraints are incompatible (conflicting prescribed velocities?)"
                    .into(),
        });
    }
    // ---- stage 3: multipliers ----
    for i in lam0..lam0 + nc {
        x[i] = 0.0;
    }
    let mut f0 = vec![0.0; n];
    mb.rhs_of(&x, &u0, &mut f0);
    let dt = 1e-6 * (1.0 + t0.abs());
    let up = input.eval(t0 + dt);
    let udot: Vec<f64> = up.iter().zip(&u0).map(|(a, b)| (a - b) / dt).collect();
    let gdot = constraint_input(&B, lam0, nc, &udot);
    // Ġ p along q̇ (all non-p, non-multiplier rows of f0 are q̇).
    let eps = 1e-6;
    let mut xp = x.clone();
    let mut xm = x.clone();
    for i in 0..lam0 {
        if col_of[i] == usize::MAX {
            xp[i] += eps * f0[i];
            xm[i] -= eps * f0[i];
        }
    }
    let mut gdp = vec![0.0; nc];
    mb.for_each_constraint_row_entry(&xp, &mut |row, c, v| gdp[row] += v * x[c] / (2.0 * eps));
    mb.for_each_constraint_row_entry(&xm, &mut |row, c, v| gdp[row] -= v * x[c] / (2.0 * eps));
    let mut K2 = Mat::<f64>::zeros(np + nc, np + nc);
    let mut rhs2 = vec![0.0; np + nc];
    for i in 0..np {
        for j in 0..np {
            K2[(i, j)] = M[(i, j)];
        }
        rhs2[i] = f0[p_idx[i]];
    }
    for r in 0..nc {
        for c in 0..np {
            K2[(np + r, c)] = G[(r, c)];
            K2[(c, np + r)] = -G[(r, c)];
        }
        rhs2[np + r] = gdot[r] - gdp[r];
        if mb.is_released_row(r) {
            K2[(np + r, np + r)] = 1.0;
            rhs2[np + r] = 0.0;
        }
    }
    let sol2 = dense_solve(&K2, &rhs2);
    if sol2.iter().all(|v| v.is_finite()) {
        x[lam0..lam0 + nc].copy_from_slice(&sol2[np..np + nc]);
    }
    Ok(ConsistentInit {
        state: x,
        position_residual: (before, after),
        velocity_residual: (vbefore, vafter),
        iterations,
    })
}
