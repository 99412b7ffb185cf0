//! Null-space elimination of the Lagrange multipliers of a linear index-2 pHDAE (paper 000
//! §5.3, eq. (51)).
//!
//! A [`LinearPhSystem`] whose algebraic blocks are multipliers of velocity constraints,
//! ordered as differential variables $x$ and multipliers $\lambda$,
//! $$E\dot x = (J - R)x + G^\top\lambda + B u,\qquad 0 = Gx ,$$
//! (in the stored matrices: $J[\lambda, x] = -G$, $J[x, \lambda] = G^\top$, zero rows and
//! columns of $E$ and $R$ for $\lambda$) is equivalent to an ODE on $\ker G$. With the QR
//! decomposition with column pivoting of $G^\top$ ($n_x\times m$, rank $r$),
//! $$G^\top P = Q\begin{bmatrix}R_{11} & R_{12}\\ 0 & 0\end{bmatrix},\qquad
//!   T = Q[:, r{:}n_x],$$
//! the columns of $T$ are an orthonormal basis of $\ker G$ (the orthogonal complement of
//! $\operatorname{range} G^\top$; redundant constraints only lower $r$). Substituting
//! $x = T\xi$ and multiplying by $T^\top$ (which removes $G^\top\lambda$, $T^\top G^\top = 0$)
//! gives the pH ODE of eq. (51)
//! $$\hat E\dot\xi = (\hat J - \hat R)\xi + \hat B u,\qquad
//!   \hat E = T^\top E T,\ \hat J = T^\top J T,\ \hat R = T^\top R T,\ \hat B = T^\top B,$$
//! with output $\hat y = \hat B^\top\xi = B^\top x$ and Hamiltonian
//! $\tfrac12\xi^\top\hat E\xi = \tfrac12 x^\top E x$: the congruence keeps $\hat J$
//! skew-symmetric and $\hat E$, $\hat R$ symmetric positive semidefinite ($\hat E$ positive
//! definite when $E$ is on $\ker G$), so the reduced system is again port-Hamiltonian. The
//! finite eigenvalues of the pencil $(E, J - R)$ are those of $(\hat E, \hat J - \hat R)$.
//! (The paper's standard form $\dot{\hat x} = \hat J\hat Q\hat x$, $\hat x = \hat E\xi$,
//! $\hat Q = \hat E^{-1}$, follows by a change of variables.)
//!
//! *Inputs on the constraints.* A port whose input enters the multiplier rows prescribes a
//! motion ($0 = -Gx + B_\lambda u$, e.g. a prescribed boundary velocity). Its elimination
//! would need $\dot u$; such ports are removed from the ODE (their input held at zero, the
//! homogeneous constraint) and listed in [`NullSpaceOde::dropped_ports`].
//!
//! The computation is dense ($O(n_x^2 m)$ for the QR, $O(n_x^2 r)$ for the products): it is
//! meant for linearised mechanisms and beams up to a few thousand variables, like the dense
//! eigen-solver of [`crate::eigen`].
use faer::Mat;

use phlex_core::sparse::{self, col_iter, SparseMat};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock, VarKind};

use crate::SolveError;

/// Parameters of [`null_space_ode`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NullSpaceParams {
    /// A diagonal entry of the pivoted $R$ counts towards the rank of $G$ if
    /// $|R_{kk}| > \texttt{rank\_tol}\,|R_{11}|$; `0 < rank_tol < 1`.
    pub rank_tol: f64,
}

impl Default for NullSpaceParams {
    /// `rank_tol = 1e-10` (constraint rows are O(1) combinations of port maps; dependent
    /// rows leave $|R_{kk}| \approx \varepsilon$).
    fn default() -> Self {
        Self { rank_tol: 1e-10 }
    }
}

/// The pH ODE on the null space of the constraints (see the module documentation).
#[derive(Debug, Clone)]
pub struct NullSpaceOde {
    /// $(\hat E, \hat J, \hat R, \hat B)$ with the kept ports and one block `"xi"`.
    pub system: LinearPhSystem,
    /// $T$ ($n_x\times(n_x - r)$, orthonormal columns): $x = T\xi$.
    pub basis: Mat<f64>,
    /// Indices of the differential variables $x$ in the original state.
    pub differential: Vec<usize>,
    /// Indices of the multipliers $\lambda$ in the original state.
    pub multipliers: Vec<usize>,
    /// Rank $r$ of $G$ (number of independent constraints).
    pub constraint_rank: usize,
    /// Ports removed because their input acts on the constraint rows.
    pub dropped_ports: Vec<String>,
}

impl NullSpaceOde {
    /// Number of null-space coordinates $n_x - r$.
    pub fn n(&self) -> usize {
        self.basis.ncols()
    }

    /// Full state from null-space coordinates: $x = T\xi$, multipliers set to 0 (they are
    /// not determined by $\xi$ alone).
    ///
    /// # Panics
    /// If `xi.len() != self.n()`.
    #[track_caller]
    pub fn lift(&self, xi: &[f64]) -> Vec<f64> {
        assert_eq!(xi.len(), self.n(), "lift: xi has the wrong length");
        let n = self.differential.len() + self.multipliers.len();
        let mut x = vec![0.0; n];
        for (k, &i) in self.differential.iter().enumerate() {
            x[i] = (0..self.n()).map(|c| self.basis[(k, c)] * xi[c]).sum();
        }
        x
    }

    /// Null-space coordinates of a full state, $\xi = T^\top x$ (exact when $Gx = 0$).
    ///
    /// # Panics
    /// If `x` is shorter than the original state.
    #[track_caller]
    pub fn restrict(&self, x: &[f64]) -> Vec<f64> {
        (0..self.n())
            .map(|c| {
                self.differential
                    .iter()
                    .enumerate()
                    .map(|(k, &i)| self.basis[(k, c)] * x[i])
                    .sum()
            })
            .collect()
    }
}

/// Orthonormal basis of $\ker G$ from the column-pivoted QR of $G^\top$, and the rank of
/// $G$ ($G$ is $m\times n$; the basis is $n\times(n - r)$).
pub fn null_space_basis(G: &Mat<f64>, rank_tol: f64) -> (Mat<f64>, usize) {
    let (m, n) = (G.nrows(), G.ncols());
    if m == 0 || n == 0 {
        return (Mat::identity(n, n), 0);
    }
    let Gt = G.transpose().to_owned();
    let qr = Gt.col_piv_qr();
    let R = qr.R();
    let k = m.min(n);
    let r00 = if k > 0 { R[(0, 0)].abs() } else { 0.0 };
    let rank = if r00 == 0.0 {
        0
    } else {
        (0..k)
            .take_while(|&i| R[(i, i)].abs() > rank_tol * r00)
            .count()
    };
    let Q = qr.compute_Q();
    let T = Mat::from_fn(n, n - rank, |i, j| Q[(i, rank + j)]);
    (T, rank)
}

fn dense_sub(a: &SparseMat, rows: &[usize], cols: &[usize]) -> Mat<f64> {
    sparse::to_dense(&sparse::restrict(a, rows, cols))
}

/// Congruence $T^\top A T$ with the exact symmetry (`sign = 1`) or skew-symmetry
/// (`sign = -1`) restored.
fn congruence(T: &Mat<f64>, A: &Mat<f64>, sign: f64) -> Mat<f64> {
    let C = T.transpose() * A * T;
    Mat::from_fn(C.nrows(), C.ncols(), |i, j| {
        0.5 * (C[(i, j)] + sign * C[(j, i)])
    })
}

/// Eliminates the multipliers of `sys` (see the module documentation).
///
/// Errors: a [`SolveError::Parameter`] naming the algebraic block that is not a multiplier
/// of an index-2 constraint (entries of $E$, $R$ or $J[\lambda, \lambda]$ on it), or invalid
/// parameters.
pub fn null_space_ode(
    sys: &LinearPhSystem,
    params: &NullSpaceParams,
) -> Result<NullSpaceOde, SolveError> {
    if !(params.rank_tol > 0.0 && params.rank_tol < 1.0) {
        return Err(SolveError::Parameter(format!(
            "rank_tol must satisfy 0 < rank_tol < 1, got {}",
            params.rank_tol
        )));
    }
    let n = sys.n_states();
    let mut is_alg = vec![false; n];
    let mut block_of = vec![0usize; n];
    let mut off = 0;
    for (k, b) in sys.blocks.iter().enumerate() {
        for i in off..off + b.len {
            is_alg[i] = matches!(b.kind, VarKind::Algebraic { .. });
            block_of[i] = k;
        }
        off += b.len;
    }
    let not_multiplier = |i: usize, why: &str| {
        SolveError::Parameter(format!(
            "null-space elimination: algebraic block '{}' is not a multiplier of an index-2 constraint ({why}); only E x' = (J - R) x + G^T lambda + B u, 0 = G x can be reduced",
            sys.blocks[block_of[i]].name
        ))
    };
    for (what, M) in [("E", &sys.E), ("R", &sys.R)] {
        for j in 0..n {
            for (i, v) in col_iter(M, j) {
                if v != 0.0 && (is_alg[i] || is_alg[j]) {
                    let a = if is_alg[i] { i } else { j };
                    return Err(not_multiplier(a, &format!("{what} has an entry on it")));
                }
            }
        }
    }
    for j in 0..n {
        for (i, v) in col_iter(&sys.J, j) {
            if v != 0.0 && is_alg[i] && is_alg[j] {
                return Err(not_multiplier(i, "J[lambda, lambda] is not zero"));
            }
        }
    }
    let dif: Vec<usize> = (0..n).filter(|&i| !is_alg[i]).collect();
    let alg: Vec<usize> = (0..n).filter(|&i| is_alg[i]).collect();
    // Ports acting on the constraint rows.
    let ranges = sys.ports.ranges();
    let mut keep_cols = Vec::new();
    let mut kept_ports = Vec::new();
    let mut dropped = Vec::new();
    for (p, r) in sys.ports.iter().zip(&ranges) {
        let on_constraint = r
            .clone()
            .any(|c| col_iter(&sys.B, c).any(|(i, v)| v != 0.0 && is_alg[i]));
        if on_constraint {
            dropped.push(p.name.clone());
        } else {
            keep_cols.extend(r.clone());
            kept_ports.push(Port::new(
                p.name.clone(),
                p.dim,
                p.input.clone(),
                p.output.clone(),
            ));
        }
    }
    // G = J[λ, x] up to sign (the sign does not change the null space).
    let G = dense_sub(&sys.J, &alg, &dif);
    let (T, rank) = null_space_basis(&G, params.rank_tol);
    let Er = congruence(&T, &dense_sub(&sys.E, &dif, &dif), 1.0);
    let Jr = congruence(&T, &dense_sub(&sys.J, &dif, &dif), -1.0);
    let Rr = congruence(&T, &dense_sub(&sys.R, &dif, &dif), 1.0);
    let Bd = dense_sub(&sys.B, &dif, &keep_cols);
    let Br = T.transpose() * &Bd;
    let r = T.ncols();
    let system = LinearPhSystem::new(
        sparse::from_dense(&Er, 0.0),
        sparse::from_dense(&Jr, 0.0),
        sparse::from_dense(&Rr, 0.0),
        sparse::from_dense(&Br, 0.0),
        PortSet::from_ports(kept_ports).map_err(|e| SolveError::Parameter(e.to_string()))?,
        vec![VarBlock::differential(
            "xi",
            "null-space coordinates of the constraints, x = T xi (paper 000 eq. (51))",
            r,
        )],
    )
    .map_err(|e| SolveError::Parameter(format!("null-space ODE: {e}")))?;
    Ok(NullSpaceOde {
        system,
        basis: T,
        differential: dif,
        multipliers: alg,
        constraint_rank: rank,
        dropped_ports: dropped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rank-deficient G (row 3 = row 1 + row 2): the basis has n − 2 orthonormal columns
    /// and G T = 0 to round-off.
    #[test]
    fn basis_of_rank_deficient_constraints() {
        let G = Mat::from_fn(3, 5, |i, j| match i {
            0 => (j as f64 + 1.0).sin(),
            1 => (2.0 * j as f64).cos(),
            _ => (j as f64 + 1.0).sin() + (2.0 * j as f64).cos(),
        });
        let (T, rank) = null_space_basis(&G, 1e-10);
        assert_eq!(rank, 2);
        assert_eq!(T.ncols(), 3);
        let GT = &G * &T;
        let TtT = T.transpose() * &T;
        for i in 0..GT.nrows() {
            for j in 0..GT.ncols() {
                assert!(GT[(i, j)].abs() < 1e-14, "G T = {}", GT[(i, j)]);
            }
        }
        for i in 0..3 {
            for j in 0..3 {
                let d = if i == j { 1.0 } else { 0.0 };
                assert!((TtT[(i, j)] - d).abs() < 1e-14);
            }
        }
    }
}
