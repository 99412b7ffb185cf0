//! Structure-preserving model reduction of linear pH(DAE)s by Galerkin projection (paper 000
//! §5.3, eq. (50); one-sided Krylov as in Gugercin–Polyuga–Beattie–van der Schaft 2012 and
//! Egger et al. 2018, ref. \[18\] of the paper).
//!
//! The state is split into *groups* of variables to reduce (e.g. the elastic velocities and
//! stresses $p_f$ of each flexible body) and the *kept* variables (rigid velocities $p_r$,
//! Lagrange multipliers $\lambda$, anything not in a group). Each group $F$ gets a basis
//! $V_F$ (orthonormal columns) and the projection matrix is
//! $V = \operatorname{diag}(I_{\text{kept}}, V_{F_1}, V_{F_2}, \dots)$ (after a permutation
//! that puts the kept variables first, in their original order). With $W = V$,
//! $$E_r = V^\top E V,\quad J_r = V^\top J V,\quad R_r = V^\top R V,\quad B_r = V^\top B,$$
//! a congruence: $J_r$ stays skew-symmetric, $E_r$ and $R_r$ symmetric positive
//! semidefinite, the multiplier rows stay multiplier rows (their $G$ becomes $G V$, the
//! $G_f^{red}$ of eq. (50)), and $H_r = \tfrac12 x_r^\top E_r x_r = H(Vx_r)$: the reduced
//! model is a pH(DAE) with the same ports.
//!
//! # Bases
//! Let $A = J - R$ and, for a group $F$ with complement $K$, the *input block* of the group
//! $\tilde B_F = [\,B_F,\ E_{FK},\ A_{FK}\,]$ (the external inputs and the coupling to the rest
//! of the system, e.g. the inertial coupling $M_{fr}$ and the constraint forces
//! $G_f^\top$; zero columns dropped).
//!
//! * [`ReductionMethod::Modal`]: the real and imaginary parts of the first `n_modes`
//!   eigenvectors of the group's own pencil $(E_{FF}, A_{FF})$ (for a floating body: the
//!   fixed-interface modes of the elastic part). Modal truncation: the retained modes of an
//!   isolated group are reproduced exactly.
//! * [`ReductionMethod::Krylov`]: the block Krylov space
//!   $\mathcal K_k\big((s_0E_{FF} - A_{FF})^{-1}E_{FF},\ (s_0E_{FF} - A_{FF})^{-1}\tilde B_F\big)$
//!   with $k$ = `n_moments`, built by block Arnoldi with classical Gram–Schmidt applied twice
//!   and deflation of dependent vectors. By induction on the Neumann series of
//!   $(s_0E - A)^{-1}$ the Krylov vectors of the *whole* system restricted to $F$ lie in this
//!   space, so the reduced transfer function $G_r(s) = B_r^\top(sE_r - A_r)^{-1}B_r$ matches
//!   the first $k$ moments of $G(s) = B^\top(sE - A)^{-1}B$ about $s_0$
//!   ([`moments`]). For a mechanical system at $s_0 = 0$ the first two moments are
//!   $m_0 = -B^\top A^{-1}B$ (zero for force/velocity ports) and
//!   $m_1 = X^\top E X$, $X = A^{-1}B$: the static compliance.
//!
//!   *Even counts for lossless mechanics at $s_0 = 0$.* In velocity–stress variables $J$
//!   only couples velocities and stresses, so the Krylov vectors alternate: $A^{-1}B$ is a
//!   stress state (static equilibrium), $A^{-1}EA^{-1}B$ a velocity state, and so on. An odd
//!   `n_moments` gives more stress than velocity directions, $J_r$ is then singular (extra
//!   zero eigenvalues, the reduced moments about 0 undefined): use an even `n_moments`, or
//!   $s_0 > 0$.
//!
//! Transfer functions ([`transfer_function`]) and moments are evaluated with sparse $LU$
//! (complex for $s = i\omega$). Projections are dense in the reduced dimension.
use faer::{c64, Mat};

use phlex_core::sparse::{self, col_iter, SparseMat};
use phlex_core::{LinearPhSystem, VarBlock};

use crate::eigen::{pencil_modes, EigenMethod, EigenParams};
use crate::linsolve::{PatternSum, SparseLu};
use crate::SolveError;

/// How the basis of a group is built (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReductionMethod {
    /// Modal truncation: the first `n_modes` modes of the group's pencil (`2 n_modes`
    /// real vectors).
    Modal {
        /// Number of modes kept (>= 1).
        n_modes: usize,
    },
    /// One-sided block Krylov (moment matching about `s0`).
    Krylov {
        /// Expansion point $s_0 \ge 0$ \[rad/s\] (real; $s_0 = 0$ matches static moments and
        /// needs a non-singular $A_{FF}$).
        s0: f64,
        /// Number of matched moments $k \ge 1$ (block Krylov steps; even for lossless
        /// mechanical systems at $s_0 = 0$, see the module documentation).
        n_moments: usize,
    },
}

impl ReductionMethod {
    /// Short description, e.g. `"modal (6 modes)"`, `"Krylov (s0 = 0, 3 moments)"`.
    pub fn describe(&self) -> String {
        match self {
            ReductionMethod::Modal { n_modes } => format!("modal ({n_modes} modes)"),
            ReductionMethod::Krylov { s0, n_moments } => {
                format!("Krylov (s0 = {s0}, {n_moments} moments)")
            }
        }
    }
}

/// A set of variables reduced with one basis.
#[derive(Debug, Clone, PartialEq)]
pub struct ReductionGroup {
    /// Name of the group, e.g. `"coupler.flexible"` (names the reduced block).
    pub name: String,
    /// Indices of the (differential) variables of the group in the full state.
    pub variables: Vec<usize>,
    /// Basis construction.
    pub method: ReductionMethod,
}

/// Result of [`reduce`].
#[derive(Debug, Clone)]
pub struct ReducedSystem {
    /// The reduced pH(DAE): kept variables first (original blocks, names kept), then one
    /// block `"<group>.reduced"` per group.
    pub system: LinearPhSystem,
    /// $V$ ($n\times r$): full state $x \approx V x_r$.
    pub basis: Mat<f64>,
    /// Indices of the kept variables in the full state (the first entries of $x_r$).
    pub kept: Vec<usize>,
    /// Reduced dimension of each group, in order.
    pub group_dims: Vec<(String, usize)>,
}

impl ReducedSystem {
    /// Full state $V x_r$.
    ///
    /// # Panics
    /// If `xr.len()` differs from the reduced dimension.
    #[track_caller]
    pub fn lift(&self, xr: &[f64]) -> Vec<f64> {
        assert_eq!(xr.len(), self.basis.ncols(), "lift: wrong reduced length");
        (0..self.basis.nrows())
            .map(|i| (0..xr.len()).map(|c| self.basis[(i, c)] * xr[c]).sum())
            .collect()
    }
}

/// $A V$ for sparse $A$ and dense $V$.
fn sparse_dense(a: &SparseMat, v: &Mat<f64>) -> Mat<f64> {
    let mut out = Mat::<f64>::zeros(a.nrows(), v.ncols());
    for j in 0..a.ncols() {
        for (i, aij) in col_iter(a, j) {
            for c in 0..v.ncols() {
                out[(i, c)] += aij * v[(j, c)];
            }
        }
    }
    out
}

/// $V^\top A V$ with the exact symmetry (`sign = 1`) or skew-symmetry (`sign = -1`).
fn project(a: &SparseMat, v: &Mat<f64>, sign: f64) -> Mat<f64> {
    let av = sparse_dense(a, v);
    let c = v.transpose() * &av;
    Mat::from_fn(c.nrows(), c.ncols(), |i, j| {
        0.5 * (c[(i, j)] + sign * c[(j, i)])
    })
}

/// Appends the columns of `cand` to the orthonormal set `basis` (each of length `n`),
/// orthogonalising twice and dropping columns whose norm falls below `1e-10` of their
/// initial norm. Returns the number of columns added.
fn extend_orthonormal(basis: &mut Vec<Vec<f64>>, cand: Vec<Vec<f64>>) -> usize {
    let mut added = 0;
    for mut w in cand {
        let n0 = w.iter().map(|v| v * v).sum::<f64>().sqrt();
        if n0 == 0.0 || !n0.is_finite() {
            continue;
        }
        for _ in 0..2 {
            for b in basis.iter() {
                let c: f64 = b.iter().zip(&w).map(|(x, y)| x * y).sum();
                for (wk, bk) in w.iter_mut().zip(b) {
                    *wk -= c * bk;
                }
            }
        }
        let nw = w.iter().map(|v| v * v).sum::<f64>().sqrt();
        if nw > 1e-10 * n0 {
            w.iter_mut().for_each(|v| *v /= nw);
            basis.push(w);
            added += 1;
        }
    }
    added
}

/// The input block $[B_F, E_{FK}, A_{FK}]$ of a group, non-zero columns only.
fn group_inputs(
    sys: &LinearPhSystem,
    A: &SparseMat,
    vars: &[usize],
    in_group: &[bool],
) -> Vec<Vec<f64>> {
    let n = sys.n_states();
    let mut local = vec![usize::MAX; n];
    for (k, &i) in vars.iter().enumerate() {
        local[i] = k;
    }
    let mut cols = Vec::new();
    let mut push = |it: &mut dyn Iterator<Item = (usize, f64)>| {
        let mut c = vec![0.0; vars.len()];
        let mut any = false;
        for (i, v) in it {
            if local[i] != usize::MAX && v != 0.0 {
                c[local[i]] += v;
                any = true;
            }
        }
        if any {
            cols.push(c);
        }
    };
    for j in 0..sys.B.ncols() {
        push(&mut col_iter(&sys.B, j));
    }
    for j in (0..n).filter(|&j| !in_group[j]) {
        push(&mut col_iter(&sys.E, j));
        push(&mut col_iter(A, j));
    }
    cols
}

fn group_basis(
    sys: &LinearPhSystem,
    A: &SparseMat,
    g: &ReductionGroup,
    in_group: &[bool],
) -> Result<Vec<Vec<f64>>, SolveError> {
    let vars = &g.variables;
    let Eff = sparse::restrict(&sys.E, vars, vars);
    let Aff = sparse::restrict(A, vars, vars);
    let mut basis: Vec<Vec<f64>> = Vec::new();
    match g.method {
        ReductionMethod::Modal { n_modes } => {
            let p = EigenParams {
                n_modes: Some(n_modes),
                mode_shapes: true,
                method: EigenMethod::Auto,
                ..EigenParams::default()
            };
            let res = pencil_modes(&Eff, &Aff, &p)?;
            if res.modes.is_empty() {
                return Err(SolveError::Eigen(format!(
                    "modal reduction of group '{}': its pencil (E_FF, J_FF - R_FF) has no oscillation mode",
                    g.name
                )));
            }
            let mut cand = Vec::with_capacity(2 * res.modes.len());
            for m in &res.modes {
                let s = m.shape.as_ref().expect("mode shapes requested");
                cand.push(s.iter().map(|z| z.re).collect());
                cand.push(s.iter().map(|z| z.im).collect());
            }
            extend_orthonormal(&mut basis, cand);
        }
        ReductionMethod::Krylov { s0, n_moments } => {
            let ps = PatternSum::new(&[&Eff, &Aff])?;
            let K = ps.assemble(&[s0, -1.0], &[&Eff, &Aff])?;
            let mut lu = SparseLu::from_matrix(
                &format!("s0 E_FF - (J_FF - R_FF) of group '{}' (s0 = {s0})", g.name),
                K.as_ref(),
            )
            .map_err(|e| match e {
                SolveError::Singular { what, detail } => SolveError::Singular {
                    what,
                    detail: format!(
                        "{detail}; s0 is an eigenvalue of the group's pencil (a rigid-body or static mode at s0 = 0?): choose s0 > 0"
                    ),
                },
                e => e,
            })?;
            let mut block = group_inputs(sys, A, vars, in_group);
            if block.is_empty() {
                return Err(SolveError::Parameter(format!(
                    "Krylov reduction of group '{}': the group has no input and no coupling to the rest of the system (nothing to match)",
                    g.name
                )));
            }
            for c in block.iter_mut() {
                lu.solve_in_place(c)?;
            }
            for k in 0..n_moments {
                let start = basis.len();
                if extend_orthonormal(&mut basis, block) == 0 {
                    break; // invariant subspace reached
                }
                if k + 1 == n_moments {
                    break;
                }
                block = basis[start..]
                    .iter()
                    .map(|v| {
                        let mut w = sparse::mul_vec(&Eff, v);
                        lu.solve_in_place(&mut w).map(|_| w)
                    })
                    .collect::<Result<_, _>>()?;
            }
        }
    }
    Ok(basis)
}

/// Reduces `sys` group by group (see the module documentation).
///
/// Errors: invalid groups (index out of range, a variable in two groups, an empty group,
/// `n_modes`/`n_moments` = 0, a negative or non-finite `s0`) as [`SolveError::Parameter`];
/// a singular $s_0E_{FF} - A_{FF}$ as [`SolveError::Singular`].
pub fn reduce(
    sys: &LinearPhSystem,
    groups: &[ReductionGroup],
) -> Result<ReducedSystem, SolveError> {
    let n = sys.n_states();
    let mut owner = vec![usize::MAX; n];
    for (k, g) in groups.iter().enumerate() {
        if g.variables.is_empty() {
            return Err(SolveError::Parameter(format!(
                "reduction group '{}' has no variables",
                g.name
            )));
        }
        match g.method {
            ReductionMethod::Modal { n_modes: 0 } | ReductionMethod::Krylov { n_moments: 0, .. } => {
                return Err(SolveError::Parameter(format!(
                    "reduction group '{}': the number of modes/moments must satisfy >= 1",
                    g.name
                )))
            }
            ReductionMethod::Krylov { s0, .. } if !(s0 >= 0.0 && s0.is_finite()) => {
                return Err(SolveError::Parameter(format!(
                    "reduction group '{}': s0 must satisfy 0 <= s0 < inf (a real expansion point in the closed right half-plane), got {s0}",
                    g.name
                )))
            }
            _ => {}
        }
        for &i in &g.variables {
            if i >= n {
                return Err(SolveError::Parameter(format!(
                    "reduction group '{}': variable index {i} >= n = {n}",
                    g.name
                )));
            }
            if owner[i] != usize::MAX {
                return Err(SolveError::Parameter(format!(
                    "variable {i} is in reduction groups '{}' and '{}'; groups must be disjoint",
                    groups[owner[i]].name, g.name
                )));
            }
            owner[i] = k;
        }
    }
    let A = sys.j_minus_r();
    let kept: Vec<usize> = (0..n).filter(|&i| owner[i] == usize::MAX).collect();
    let mut bases = Vec::with_capacity(groups.len());
    for (k, g) in groups.iter().enumerate() {
        let in_group: Vec<bool> = owner.iter().map(|&o| o == k).collect();
        bases.push(group_basis(sys, &A, g, &in_group)?);
    }
    let r = kept.len() + bases.iter().map(|b| b.len()).sum::<usize>();
    let mut V = Mat::<f64>::zeros(n, r);
    for (c, &i) in kept.iter().enumerate() {
        V[(i, c)] = 1.0;
    }
    let mut c0 = kept.len();
    let mut group_dims = Vec::with_capacity(groups.len());
    for (g, b) in groups.iter().zip(&bases) {
        for (c, v) in b.iter().enumerate() {
            for (k, &i) in g.variables.iter().enumerate() {
                V[(i, c0 + c)] = v[k];
            }
        }
        c0 += b.len();
        group_dims.push((g.name.clone(), b.len()));
    }
    // Blocks: the kept part of each original block, then one block per group.
    let mut blocks = Vec::new();
    let mut off = 0;
    for b in &sys.blocks {
        let len = (off..off + b.len)
            .filter(|&i| owner[i] == usize::MAX)
            .count();
        if len > 0 {
            blocks.push(VarBlock { len, ..b.clone() });
        }
        off += b.len;
    }
    for (g, (_, d)) in groups.iter().zip(&group_dims) {
        blocks.push(VarBlock::differential(
            format!("{}.reduced", g.name),
            format!(
                "reduced coordinates of '{}', {} (paper 000 eq. (50))",
                g.name,
                g.method.describe()
            ),
            *d,
        ));
    }
    let Er = project(&sys.E, &V, 1.0);
    let Jr = project(&sys.J, &V, -1.0);
    let Rr = project(&sys.R, &V, 1.0);
    let Br = V.transpose() * sparse::to_dense(&sys.B);
    let system = LinearPhSystem::new(
        sparse::from_dense(&Er, 0.0),
        sparse::from_dense(&Jr, 0.0),
        sparse::from_dense(&Rr, 0.0),
        sparse::from_dense(&Br, 0.0),
        sys.ports.clone(),
        blocks,
    )
    .map_err(|e| SolveError::Parameter(format!("reduced system: {e}")))?;
    Ok(ReducedSystem {
        system,
        basis: V,
        kept,
        group_dims,
    })
}

/// Transfer matrix $G(s) = B^\top(sE - (J - R))^{-1}B$ ($m\times m$) at a complex `s`
/// (sparse complex $LU$).
pub fn transfer_function(sys: &LinearPhSystem, s: c64) -> Result<Mat<c64>, SolveError> {
    let A = sys.j_minus_r();
    let ps = PatternSum::new(&[&sys.E, &A])?;
    let S = ps.assemble(&[s, c64::new(-1.0, 0.0)], &[&sys.E, &A])?;
    let mut lu = SparseLu::<c64>::from_matrix(
        &format!("s E - (J - R) at s = {} + {}i", s.re, s.im),
        S.as_ref(),
    )?;
    let (n, m) = (sys.n_states(), sys.n_inputs());
    let mut G = Mat::<c64>::zeros(m, m);
    let mut x = vec![c64::new(0.0, 0.0); n];
    for c in 0..m {
        x.iter_mut().for_each(|v| *v = c64::new(0.0, 0.0));
        for (i, v) in col_iter(&sys.B, c) {
            x[i] = c64::new(v, 0.0);
        }
        lu.solve_in_place(&mut x)?;
        for r in 0..m {
            G[(r, c)] = col_iter(&sys.B, r).fold(c64::new(0.0, 0.0), |acc, (i, v)| acc + x[i] * v);
        }
    }
    Ok(G)
}

/// The first `count` moments of $G(s)$ about a real $s_0$:
/// $G(s) = \sum_k m_k (s - s_0)^k$, $m_k = (-1)^k B^\top\big(K^{-1}E\big)^k K^{-1}B$,
/// $K = s_0E - (J - R)$.
pub fn moments(sys: &LinearPhSystem, s0: f64, count: usize) -> Result<Vec<Mat<f64>>, SolveError> {
    let A = sys.j_minus_r();
    let ps = PatternSum::new(&[&sys.E, &A])?;
    let K = ps.assemble(&[s0, -1.0], &[&sys.E, &A])?;
    let mut lu = SparseLu::from_matrix(&format!("s0 E - (J - R) (s0 = {s0})"), K.as_ref())?;
    let (n, m) = (sys.n_states(), sys.n_inputs());
    let mut X: Vec<Vec<f64>> = (0..m)
        .map(|c| {
            let mut x = vec![0.0; n];
            for (i, v) in col_iter(&sys.B, c) {
                x[i] = v;
            }
            lu.solve_in_place(&mut x).map(|_| x)
        })
        .collect::<Result<_, _>>()?;
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        if k > 0 {
            for x in X.iter_mut() {
                let mut w = sparse::mul_vec(&sys.E, x);
                lu.solve_in_place(&mut w)?;
                *x = w;
            }
        }
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        out.push(Mat::from_fn(m, m, |r, c| {
            sign * col_iter(&sys.B, r).map(|(i, v)| v * X[c][i]).sum::<f64>()
        }));
    }
    Ok(out)
}

/// First frequencies of a full and a reduced system and their relative differences.
#[derive(Debug, Clone, PartialEq)]
pub struct FrequencyComparison {
    /// Angular frequencies of the full system \[rad/s\].
    pub full: Vec<f64>,
    /// Angular frequencies of the reduced system \[rad/s\].
    pub reduced: Vec<f64>,
    /// $|\omega_{r,k} - \omega_k| / \omega_k$.
    pub relative_error: Vec<f64>,
}

/// Compares the first `count` frequencies (mode $k$ with mode $k$, both sorted).
pub fn compare_frequencies(
    full: &LinearPhSystem,
    reduced: &LinearPhSystem,
    count: usize,
    params: &EigenParams,
) -> Result<FrequencyComparison, SolveError> {
    let p = EigenParams {
        n_modes: Some(count),
        ..*params
    };
    let f = crate::eigen::modes(full, &p)?.frequencies();
    let r = crate::eigen::modes(reduced, &p)?.frequencies();
    let k = f.len().min(r.len());
    let relative_error = (0..k).map(|i| (r[i] - f[i]).abs() / f[i]).collect();
    Ok(FrequencyComparison {
        full: f,
        reduced: r,
        relative_error,
    })
}

/// Relative transfer-function error $\|G(i\omega) - G_r(i\omega)\|_F / \|G(i\omega)\|_F$ at
/// each angular frequency in `omegas`.
pub fn transfer_error(
    full: &LinearPhSystem,
    reduced: &LinearPhSystem,
    omegas: &[f64],
) -> Result<Vec<f64>, SolveError> {
    if full.n_inputs() != reduced.n_inputs() {
        return Err(SolveError::Dimension(format!(
            "transfer error: full system has {} inputs, reduced {}",
            full.n_inputs(),
            reduced.n_inputs()
        )));
    }
    omegas
        .iter()
        .map(|&w| {
            let s = c64::new(0.0, w);
            let g = transfer_function(full, s)?;
            let gr = transfer_function(reduced, s)?;
            let mut num = 0.0;
            let mut den = 0.0;
            for j in 0..g.ncols() {
                for i in 0..g.nrows() {
                    num += (g[(i, j)] - gr[(i, j)]).norm_sqr();
                    den += g[(i, j)].norm_sqr();
                }
            }
            Ok(if den > 0.0 {
                (num / den).sqrt()
            } else {
                num.sqrt()
            })
        })
        .collect()
}

/// Dense solve helper used by tests of this module.
#[cfg(test)]
fn dense_solve(a: &Mat<f64>, b: &Mat<f64>) -> Mat<f64> {
    use faer::linalg::solvers::Solve;
    a.partial_piv_lu().solve(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use phlex_core::{Port, PortSet, Triplets};

    /// A lossy chain of 6 masses and springs (state: velocities then spring forces) with a
    /// force at mass 0: the Krylov-reduced model (s0 = 0.3, 2 moments) matches m0 and m1
    /// about s0 to round-off, and the moments are those of the dense formula.
    #[test]
    fn krylov_matches_moments_of_a_chain() {
        let nm = 6;
        let n = 2 * nm;
        let mut e = Triplets::new(n, n);
        let mut j = Triplets::new(n, n);
        let mut r = Triplets::new(n, n);
        for k in 0..nm {
            e.push(k, k, 1.0 + 0.1 * k as f64);
            e.push(nm + k, nm + k, 1.0 / (2.0 + k as f64));
            // spring k between mass k-1 (or ground) and mass k: f' = k (v_k - v_{k-1})
            j.push(nm + k, k, 1.0);
            j.push(k, nm + k, -1.0);
            if k > 0 {
                j.push(nm + k, k - 1, -1.0);
                j.push(k - 1, nm + k, 1.0);
            }
            r.push(k, k, 0.05);
        }
        let mut b = Triplets::new(n, 1);
        b.push(nm - 1, 0, 1.0);
        let sys = LinearPhSystem::new(
            e.build(),
            j.build(),
            r.build(),
            b.build(),
            PortSet::from_ports(vec![Port::new("f", 1, "force", "velocity")]).unwrap(),
            vec![VarBlock::differential("x", "state", n)],
        )
        .unwrap();
        let red = reduce(
            &sys,
            &[ReductionGroup {
                name: "all".into(),
                variables: (0..n).collect(),
                method: ReductionMethod::Krylov {
                    s0: 0.3,
                    n_moments: 2,
                },
            }],
        )
        .unwrap();
        assert_eq!(red.system.n_states(), 2);
        let mf = moments(&sys, 0.3, 3).unwrap();
        let mr = moments(&red.system, 0.3, 3).unwrap();
        for k in 0..2 {
            assert!(
                (mf[k][(0, 0)] - mr[k][(0, 0)]).abs() < 1e-12 * mf[k][(0, 0)].abs(),
                "moment {k}: {} vs {}",
                mf[k][(0, 0)],
                mr[k][(0, 0)]
            );
        }
        // the third moment is not matched (generic system)
        assert!((mf[2][(0, 0)] - mr[2][(0, 0)]).abs() > 1e-8 * mf[2][(0, 0)].abs());
        // m0 from the dense formula B^T (s0 E - A)^{-1} B
        let K = Mat::from_fn(n, n, |a, c| {
            0.3 * sparse::to_dense(&sys.E)[(a, c)] - sparse::to_dense(&sys.j_minus_r())[(a, c)]
        });
        let x = dense_solve(&K, &sparse::to_dense(&sys.B));
        assert!((x[(nm - 1, 0)] - mf[0][(0, 0)]).abs() < 1e-13);
        // the transfer function at s0 is m0
        let g = transfer_function(&sys, c64::new(0.3, 0.0)).unwrap();
        assert!((g[(0, 0)].re - mf[0][(0, 0)]).abs() < 1e-13);
        // structure: J skew, E symmetric
        let J = sparse::to_dense(&red.system.J);
        assert!((J[(0, 1)] + J[(1, 0)]).abs() == 0.0);
    }
}
