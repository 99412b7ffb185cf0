//! Consistent initial conditions of a multibody pHDAE (paper 000 §6.3: "setting the
//! initial conditions properly is of utmost importance for a DAE solver … the beam is
//! supposed undeformed … the initial conditions for the rigid movement are found using
//! basic kinematics").
//!
//! Three stages, bodies undeformed:
//!
//! 1. **Positions** (closed-loop kinematics): the body poses $q = (x, y, \theta)_b$, except
//!    the coordinates the user locks (e.g. the crank angle), are corrected by
//!    Gauss–Newton with minimum-norm steps $\Delta q = -\Phi_q^{+}\Phi(q)$ (SVD
//!    pseudo-inverse, so redundant rows do not break it; $\Phi_q$ by central differences)
//!    until the joint position residuals $\Phi$ (hinge points coincide, points on lines,
//!    fixed frames, …; see [`crate::joint`]) vanish to `position_tol`. Joint relative angles
//!    and driver targets are then reset from the poses.
//! 2. **Velocities**: the co-energy variables $p$ of all bodies are projected onto the
//!    velocity constraints $G p = B_\lambda u(t_0)$ in the kinetic-energy metric,
//!    $\min \tfrac12 (p - p_0)^\top (M + \delta I)(p - p_0)$, $\delta = 10^{-10}\max_i M_{ii}$
//!    (the regularisation only matters for directions without inertia, e.g. the spin of a
//!    point mass about itself), by the KKT system.
//! 3. **Multipliers**: from the hidden constraint $\frac{d}{dt}(G p) = B_\lambda\dot u$,
//!    $\begin{bmatrix}M & -G^\top\\ G & 0\end{bmatrix}\begin{pmatrix}\dot p\\ \lambda\end{pmatrix}
//!    = \begin{pmatrix}f_p\\ B_\lambda\dot u - \dot G p\end{pmatrix}$, with $f_p$ the
//!    right-hand side without reactions and $\dot G p$ by a central difference along
//!    $\dot q$. (The midpoint scheme never uses $\lambda_0$; Radau only as a starting
//!    guess.)
use faer::Mat;
use phlex_core::sparse::col_iter;
use phlex_core::QuasiLinearPhDae;
use phlex_solve::InputFn;

use crate::assembly::Multibody;
use crate::error::MbsError;
use crate::simulate::dense_solve;

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

/// Position residuals of all joints except drivers (whose targets follow the poses).
fn position_rows(mb: &Multibody, x: &[f64]) -> Vec<f64> {
    let mut r = Vec::new();
    for (k, j) in mb.joints.iter().enumerate() {
        if j.n_inputs() > 0 {
            continue;
        }
        let g = mb.joint_geometry(k, x);
        r.extend(j.position_residual(&g, &x[mb.joint_state_range(k)]));
    }
    r
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, a| m.max(a.abs()))
}

/// Worst joint (name, residual) of the position rows.
fn worst_joint(mb: &Multibody, x: &[f64]) -> (String, f64) {
    let mut best = (String::new(), 0.0);
    for d in mb.position_drift(x) {
        if d.max_abs >= best.1 {
            best = (d.joint, d.max_abs);
        }
    }
    best
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
    let U = svd.U();
    let V = svd.V();
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
pub fn consistent_initial_state(
    mb: &Multibody,
    x0: &[f64],
    input: &InputFn,
    t0: f64,
    opts: &KinematicsOptions,
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
    let free: Vec<usize> = (0..3 * mb.bodies.len()).filter(|&i| !locked[i]).collect();
    let var = |i: usize| mb.body_off[i / 3] + i % 3;
    let mut x = x0.to_vec();
    mb.reset_joint_states(&mut x);
    let mut r = position_rows(mb, &x);
    let before = max_abs(&r);
    let mut iterations = 0;
    while max_abs(&r) > opts.position_tol && iterations < opts.max_iterations && !r.is_empty() {
        let mut A = Mat::<f64>::zeros(r.len(), free.len());
        for (c, &i) in free.iter().enumerate() {
            let k = var(i);
            let h = 1e-7 * (1.0 + x[k].abs());
            let mut xp = x.clone();
            xp[k] += h;
            mb.reset_joint_states(&mut xp);
            let rp = position_rows(mb, &xp);
            xp[k] = x[k] - h;
            mb.reset_joint_states(&mut xp);
            let rm = position_rows(mb, &xp);
            for row in 0..r.len() {
                A[(row, c)] = (rp[row] - rm[row]) / (2.0 * h);
            }
        }
        let rhs: Vec<f64> = r.iter().map(|v| -v).collect();
        let dq = pinv_solve(&A, &rhs)?;
        for (c, &i) in free.iter().enumerate() {
            x[var(i)] += dq[c];
        }
        mb.reset_joint_states(&mut x);
        r = position_rows(mb, &x);
        iterations += 1;
    }
    let after = max_abs(&r);
    if after > opts.position_tol {
        let (joint, res) = worst_joint(mb, &x);
        return Err(MbsError::InconsistentInitialConditions {
            joint,
            level: "position".into(),
            residual: res,
            tol: opts.position_tol,
            hint: format!(
                " after {iterations} Gauss-Newton iterations; the loop cannot be closed from the given poses: check link lengths, ground points and the locked coordinates"
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
    let mut g = vec![0.0; nc];
    for c in 0..B.ncols() {
        for (i, v) in col_iter(&B, c) {
            if i >= lam0 {
                g[i - lam0] += v * u0[c];
            }
        }
    }
    let mut M = Mat::<f64>::zeros(np, np);
    let mut G = Mat::<f64>::zeros(nc, np);
    for (b, body) in mb.bodies.iter().enumerate() {
        let o = mb.body_off[b] + body.n_q();
        let Mb = body.mass_matrix();
        for j in 0..Mb.ncols() {
            for (i, v) in col_iter(Mb, j) {
                M[(col_of[o + i], col_of[o + j])] += v;
            }
        }
    }
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
            detail: "non-finite solution".into(),
        }));
    }
    for (c, &i) in p_idx.iter().enumerate() {
        x[i] = sol[c];
    }
    let vafter = max_abs(&gp(&sol[..np]));
    let vscale = max_abs(&sol[..np]).max(max_abs(&g)).max(1.0);
    if vafter > 1e-9 * vscale {
        let row = (0..nc)
            .max_by(|&a, &b| gp(&sol[..np])[a].abs().total_cmp(&gp(&sol[..np])[b].abs()))
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
    for k in 0..mb.joints.len() {
        for i in mb.multiplier_range(k) {
            x[i] = 0.0;
        }
    }
    let mut f0 = vec![0.0; n];
    mb.rhs(&x, &u0, &mut f0);
    let dt = 1e-6 * (1.0 + t0.abs());
    let up = input.eval(t0 + dt);
    let udot: Vec<f64> = up.iter().zip(&u0).map(|(a, b)| (a - b) / dt).collect();
    let mut gdot = vec![0.0; nc];
    for c in 0..B.ncols() {
        for (i, v) in col_iter(&B, c) {
            if i >= lam0 {
                gdot[i - lam0] += v * udot[c];
            }
        }
    }
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
