//! Consistent initial conditions of a spatial multibody pHDAE (paper 000 §6.3), in three
//! stages, bodies undeformed:
//!
//! 1. **Positions** (closed loops): the poses of the bodies not locked are corrected by
//!    Gauss–Newton with minimum-norm steps $\Delta q = -\Phi_q^{+}\Phi$ (SVD pseudo-inverse,
//!    robust to redundant rows) on the pose increments $(\delta r, \delta\phi)$ of every
//!    body, applied as ${}^ir_P \mathrel{+}= \delta r$, $R \leftarrow R\exp[\delta\phi]_\times$
//!    (so $R$ stays a rotation), until the joint position residuals
//!    ([`crate::spatial::joint`], prescribed velocities excluded) vanish to
//!    `position_tol`; $\Phi_q$ by central differences. Joint states are then reset from
//!    the geometry.
//! 2. **Velocities**: the co-energy variables $p$ are projected onto $G p = B_\lambda u(t_0)$
//!    in the kinetic-energy metric, $\min\tfrac12(p - p_0)^\top(M + \delta I)(p - p_0)$,
//!    $\delta = 10^{-10}\max_i M_{ii}$, by the KKT system.
//! 3. **Multipliers** from the hidden constraint $\frac{d}{dt}(Gp) = B_\lambda\dot u$:
//!    $\begin{bmatrix}M & -G^\top\\ G & 0\end{bmatrix}\begin{pmatrix}\dot p\\ \lambda\end{pmatrix}
//!    = \begin{pmatrix}f_p\\ B_\lambda\dot u - \dot G p\end{pmatrix}$ ($\dot Gp$ by a central
//!    difference along $\dot q$). The midpoint scheme does not use $\lambda_0$; Radau uses it
//!    as a starting guess.
use faer::Mat;
use phlex_core::sparse::col_iter;
use phlex_core::QuasiLinearPhDae;
use phlex_solve::InputFn;

use crate::error::MbsError;
use crate::kinematics::ConsistentInit;
use crate::simulate::dense_solve;
use crate::spatial::assembly::Multibody3d;
use crate::spatial::body::R_V_OFFSET;
use crate::spatial::linalg::{exp_so3, matmul};

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

fn position_rows(mb: &Multibody3d, x: &[f64]) -> Vec<f64> {
    let mut r = Vec::new();
    for (k, j) in mb.joints.iter().enumerate() {
        if j.n_inputs() > 0 {
            continue;
        }
        let g = mb.geometry(k, x);
        r.extend(j.position_residual(&g, &x[mb.joint_state_range(k)]));
    }
    r
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, a| m.max(a.abs()))
}

/// Applies pose increment `d` (component `c` in 0..6: δr then δφ) of size `h` to body `b`.
fn perturb(mb: &Multibody3d, x: &mut [f64], b: usize, c: usize, h: f64) {
    let o = mb.body_off[b];
    if c < 3 {
        x[o + c] += h;
    } else {
        let mut phi = [0.0; 3];
        phi[c - 3] = h;
        let r = mb.rotation(b, x);
        let r1 = matmul(&r, &exp_so3(phi));
        for i in 0..3 {
            for j in 0..3 {
                x[o + R_V_OFFSET + 3 * i + j] = r1[i][j];
            }
        }
    }
}

/// Minimum-norm solution of `A dx = b` by SVD with relative cut-off `1e-12`.
fn pinv_solve(A: &Mat<f64>, b: &[f64]) -> Result<Vec<f64>, MbsError> {
    let (m, n) = (A.nrows(), A.ncols());
    let svd = A.thin_svd().map_err(|e| {
        MbsError::Solve(phlex_solve::SolveError::Eigen(format!(
            "SVD of the position Jacobian: {e:?}"
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

/// Makes `x0` consistent at `t0` (positions, velocities, multipliers); see the module
/// documentation.
pub fn consistent_initial_state_3d(
    mb: &Multibody3d,
    x0: &[f64],
    input: &InputFn,
    t0: f64,
    opts: &KinematicsOptions3d,
) -> Result<ConsistentInit, MbsError> {
    let n = mb.n();
    if x0.len() != n {
        return Err(MbsError::Dimension {
            what: "initial state".into(),
            expected: n,
            found: x0.len(),
        });
    }
    let m_in = mb.ports().total_dim();
    if input.dim() != m_in {
        return Err(MbsError::Dimension {
            what: "input".into(),
            expected: m_in,
            found: input.dim(),
        });
    }
    // ---- stage 1: positions ----
    let mut locked = vec![false; mb.bodies.len()];
    for name in &opts.locked {
        locked[mb.body_index(name)?] = true;
    }
    let free: Vec<(usize, usize)> = (0..mb.bodies.len())
        .filter(|&b| !locked[b])
        .flat_map(|b| (0..6).map(move |c| (b, c)))
        .collect();
    let mut x = x0.to_vec();
    mb.reset_joint_states(&mut x);
    let mut r = position_rows(mb, &x);
    let before = max_abs(&r);
    let mut iterations = 0;
    while max_abs(&r) > opts.position_tol && iterations < opts.max_iterations && !r.is_empty() {
        let mut A = Mat::<f64>::zeros(r.len(), free.len());
        for (col, &(b, c)) in free.iter().enumerate() {
            let h = 1e-7;
            let mut xp = x.clone();
            perturb(mb, &mut xp, b, c, h);
            mb.reset_joint_states(&mut xp);
            let rp = position_rows(mb, &xp);
            let mut xm = x.clone();
            perturb(mb, &mut xm, b, c, -h);
            mb.reset_joint_states(&mut xm);
            let rm = position_rows(mb, &xm);
            for row in 0..r.len() {
                A[(row, col)] = (rp[row] - rm[row]) / (2.0 * h);
            }
        }
        let rhs: Vec<f64> = r.iter().map(|v| -v).collect();
        let dq = pinv_solve(&A, &rhs)?;
        for (col, &(b, c)) in free.iter().enumerate() {
            if c < 3 {
                perturb(mb, &mut x, b, c, dq[col]);
            }
        }
        for b in 0..mb.bodies.len() {
            if let Some(k) = free.iter().position(|&(bb, c)| bb == b && c == 3) {
                let phi = [dq[k], dq[k + 1], dq[k + 2]];
                let r0 = mb.rotation(b, &x);
                let r1 = matmul(&r0, &exp_so3(phi));
                let o = mb.body_off[b];
                for i in 0..3 {
                    for j in 0..3 {
                        x[o + R_V_OFFSET + 3 * i + j] = r1[i][j];
                    }
                }
            }
        }
        mb.reset_joint_states(&mut x);
        r = position_rows(mb, &x);
        iterations += 1;
    }
    let after = max_abs(&r);
    if after > opts.position_tol {
        let worst = mb
            .position_drift(&x)
            .into_iter()
            .max_by(|a, b| a.max_abs.total_cmp(&b.max_abs))
            .map_or((String::new(), after), |d| (d.joint, d.max_abs));
        return Err(MbsError::InconsistentInitialConditions {
            joint: worst.0,
            level: "position".into(),
            residual: worst.1,
            tol: opts.position_tol,
            hint: format!(
                " after {iterations} Gauss-Newton iterations; the loop cannot be closed from the given poses: check port positions, ground points, axes and the locked bodies"
            ),
        });
    }
    // ---- stage 2: velocities ----
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
    let np = p_idx.len();
    let nc = mb.n_constraints();
    let u0 = input.eval(t0);
    let B = mb.input_map(&x);
    let lam0 = mb.lam_off.first().copied().unwrap_or(n);
    let rhs_of_input = |u: &[f64]| {
        let mut g = vec![0.0; nc];
        for c in 0..B.ncols() {
            for (i, v) in col_iter(&B, c) {
                if i >= lam0 {
                    g[i - lam0] += v * u[c];
                }
            }
        }
        g
    };
    let g = rhs_of_input(&u0);
    let mut M = Mat::<f64>::zeros(np, np);
    for (b, body) in mb.bodies.iter().enumerate() {
        let o = mb.body_off[b];
        let E = body.descriptor();
        let nq = body.n_q();
        for j in nq..body.n_local() {
            for (i, v) in col_iter(E, j) {
                if i >= nq {
                    M[(col_of[o + i], col_of[o + j])] += v;
                }
            }
        }
    }
    let mut G = Mat::<f64>::zeros(nc, np);
    mb.for_each_constraint_entry(&x, |row, c, v| G[(row, col_of[c])] += v);
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
            joint: mb.joints[mb.joint_of_row(row)].name.clone(),
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
    mb.rhs(&x, &u0, &mut f0);
    let dt = 1e-6 * (1.0 + t0.abs());
    let up = input.eval(t0 + dt);
    let udot: Vec<f64> = up.iter().zip(&u0).map(|(a, b)| (a - b) / dt).collect();
    let gdot = rhs_of_input(&udot);
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
    mb.for_each_constraint_entry(&xp, |row, c, v| gdp[row] += v * x[c] / (2.0 * eps));
    mb.for_each_constraint_entry(&xm, |row, c, v| gdp[row] -= v * x[c] / (2.0 * eps));
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
