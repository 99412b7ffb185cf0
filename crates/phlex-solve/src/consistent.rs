//! Consistent initial values for linear pHDAEs with Lagrange multipliers (index 2).
//!
//! For $E\dot e = (J - R)e + Bu$ split into differential variables $e_d$ (nonzero columns of
//! $E$) and multipliers $\lambda$ (zero columns), the algebraic rows read
//! $0 = G e_d + B_a u$ with $G = A_{ad}$, $A = J - R$ (velocity-level constraints, thesis
//! 004 §3.4 / paper 000 eq. (46)); $A_{aa} = 0$ is required (index 2). The state is made
//! consistent in two steps:
//!
//! 1. **velocity level**: the $E$-orthogonal projection
//!    $e_d \leftarrow e_d + M^{-1}G^\top (G M^{-1} G^\top)^{-1}(g - G e_d)$,
//!    $M = E_{dd}$, $g = -B_a u(t_0)$ (the smallest change of kinetic/strain energy metric);
//! 2. **multipliers**: the hidden constraint $G\dot e_d = \dot g$ with
//!    $\dot e_d = M^{-1}(A_{dd}e_d + A_{da}\lambda + B_d u)$ gives
//!    $(G M^{-1} A_{da})\lambda = \dot g - G M^{-1}(A_{dd} e_d + B_d u)$, where
//!    $\dot g = -B_a \dot u(t_0)$ is taken by a one-sided difference of the inputs.
//!
//! A singular Schur complement $G M^{-1} G^\top$ means redundant constraints; the error names
//! the multiplier blocks involved.
use faer::Mat;
use phlex_core::sparse::{self, col_iter, SparseMat};
use phlex_core::variables::block_of;
use phlex_core::LinearPhSystem;

use crate::linsolve::SparseLu;
use crate::signal::InputFn;
use crate::SolveError;

/// Result of [`consistent_initial_state`].
#[derive(Debug, Clone)]
pub struct ConsistentState {
    /// The consistent state (differential part projected, multipliers computed).
    pub state: Vec<f64>,
    /// Constraint residual $\max_i |(G e_d - g)_i|$ before the projection.
    pub residual_before: f64,
    /// Constraint residual after the projection.
    pub residual_after: f64,
    /// Size of the velocity correction relative to the state, $\|\delta\|_\infty / \max(1, \|e_d\|_\infty)$.
    pub relative_correction: f64,
}

/// Projects `e0` onto the constraints of `sys` at `t0` and computes consistent multipliers.
/// Systems without algebraic variables are returned unchanged.
pub fn consistent_initial_state(
    sys: &LinearPhSystem,
    input: &InputFn,
    t0: f64,
    e0: &[f64],
) -> Result<ConsistentState, SolveError> {
    let n = sys.n_states();
    if e0.len() != n {
        return Err(SolveError::Dimension(format!(
            "initial state has length {}, system has {n} states",
            e0.len()
        )));
    }
    let alg = crate::integrators::midpoint::zero_columns(&sys.E);
    let a_idx: Vec<usize> = (0..n).filter(|&i| alg[i]).collect();
    if a_idx.is_empty() {
        return Ok(ConsistentState {
            state: e0.to_vec(),
            residual_before: 0.0,
            residual_after: 0.0,
            relative_correction: 0.0,
        });
    }
    let d_idx: Vec<usize> = (0..n).filter(|&i| !alg[i]).collect();
    let A = sys.j_minus_r();
    let Aaa = sparse::restrict(&A, &a_idx, &a_idx);
    if sparse::max_abs(&Aaa) > 0.0 {
        return Err(SolveError::Parameter(
            "consistent initialization supports multiplier (index-2) algebraic variables only: the algebraic block of J − R must vanish".into(),
        ));
    }
    let G = sparse::restrict(&A, &a_idx, &d_idx);
    let Ada = sparse::restrict(&A, &d_idx, &a_idx);
    let Add = sparse::restrict(&A, &d_idx, &d_idx);
    let M = sparse::restrict(&sys.E, &d_idx, &d_idx);
    let all_rows: Vec<usize> = (0..sys.n_inputs()).collect();
    let Ba = sparse::restrict(&sys.B, &a_idx, &all_rows);
    let Bd = sparse::restrict(&sys.B, &d_idx, &all_rows);
    let (nd, k) = (d_idx.len(), a_idx.len());

    let u = input.eval(t0);
    let dt = 1e-7 * (1.0 + t0.abs());
    let up = input.eval(t0 + dt);
    let udot: Vec<f64> = up.iter().zip(&u).map(|(a, b)| (a - b) / dt).collect();
    let g: Vec<f64> = sparse::mul_vec(&Ba, &u).into_iter().map(|v| -v).collect();
    let gdot: Vec<f64> = sparse::mul_vec(&Ba, &udot)
        .into_iter()
        .map(|v| -v)
        .collect();

    let mut lu = SparseLu::<f64>::from_matrix(
        "E restricted to the differential variables (mass of the constrained system)",
        M.as_ref(),
    )?;
    // W = M⁻¹ Gᵀ and Z = M⁻¹ A_da, column by column.
    let solve_cols = |lu: &mut SparseLu<f64>, cols: &SparseMat| -> Result<Mat<f64>, SolveError> {
        let mut out = Mat::<f64>::zeros(nd, cols.ncols());
        let mut b = vec![0.0; nd];
        for j in 0..cols.ncols() {
            b.iter_mut().for_each(|v| *v = 0.0);
            for (i, v) in col_iter(cols, j) {
                b[i] = v;
            }
            lu.solve_in_place(&mut b)?;
            for i in 0..nd {
                out[(i, j)] = b[i];
            }
        }
        Ok(out)
    };
    let W = solve_cols(&mut lu, &sparse::transpose(&G))?;
    let Z = solve_cols(&mut lu, &Ada)?;
    let Gd = sparse::to_dense(&G);
    let S = &Gd * &W;
    let K = &Gd * &Z;

    let mut ed: Vec<f64> = d_idx.iter().map(|&i| e0[i]).collect();
    let ge = sparse::mul_vec(&G, &ed);
    let r: Vec<f64> = g.iter().zip(&ge).map(|(a, b)| a - b).collect();
    let residual_before = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let y = dense_solve(&S, &r).map_err(|_| redundant(sys, &a_idx, &S))?;
    let mut corr = 0.0f64;
    for i in 0..nd {
        let mut s = 0.0;
        for j in 0..k {
            s += W[(i, j)] * y[j];
        }
        ed[i] += s;
        corr = corr.max(s.abs());
    }
    let scale = ed.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let ge = sparse::mul_vec(&G, &ed);
    let residual_after = g
        .iter()
        .zip(&ge)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));

    // Multipliers from the hidden constraint.
    let mut f = sparse::mul_vec(&Add, &ed);
    sparse::mul_add(&mut f, 1.0, &Bd, &u);
    lu.solve_in_place(&mut f)?;
    let gf = sparse::mul_vec(&G, &f);
    let rhs: Vec<f64> = gdot.iter().zip(&gf).map(|(a, b)| a - b).collect();
    let lambda = dense_solve(&K, &rhs).map_err(|_| redundant(sys, &a_idx, &K))?;

    let mut state = vec![0.0; n];
    for (k2, &i) in d_idx.iter().enumerate() {
        state[i] = ed[k2];
    }
    for (k2, &i) in a_idx.iter().enumerate() {
        state[i] = lambda[k2];
    }
    Ok(ConsistentState {
        state,
        residual_before,
        residual_after,
        relative_correction: corr / scale,
    })
}

fn dense_solve(S: &Mat<f64>, r: &[f64]) -> Result<Vec<f64>, ()> {
    let k = S.nrows();
    // Rank check through the singular values (k is the number of constraints: small).
    let sv = S.singular_values().map_err(|_| ())?;
    let smax = sv.iter().fold(0.0f64, |m, v| m.max(*v));
    let smin = sv.iter().fold(f64::INFINITY, |m, v| m.min(*v));
    if k > 0 && !(smin > 1e-12 * smax) {
        return Err(());
    }
    let lu = S.partial_piv_lu();
    let mut b = Mat::<f64>::from_fn(k, 1, |i, _| r[i]);
    use faer::linalg::solvers::Solve;
    lu.solve_in_place(b.as_mut());
    Ok((0..k).map(|i| b[(i, 0)]).collect())
}

fn redundant(sys: &LinearPhSystem, a_idx: &[usize], S: &Mat<f64>) -> SolveError {
    let mut names: Vec<&str> = a_idx.iter().map(|&i| block_of(&sys.blocks, i)).collect();
    names.dedup();
    SolveError::Singular {
        what: format!(
            "constraint Schur complement G M⁻¹ Gᵀ ({}×{}) of the multipliers [{}]",
            S.nrows(),
            S.ncols(),
            names.join(", ")
        ),
        detail: "the constraints are redundant or conflicting; remove one of the constraints that act on the same degree of freedom".into(),
    }
}
