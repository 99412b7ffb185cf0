//! Udwadia–Kalaba fundamental equations of constrained motion (thesis 002
//! §2.3.4, eqs. (2.81)–(2.104)).
//!
//! For `M q̈ = Q + Q^c` with constraints `A q̈ = b`:
//! `a = M⁻¹Q`, `e = b − Aa`, `H = (AM⁻¹Aᵀ)⁺`, `q̈ = a + M⁻¹AᵀHe`,
//! `λ = He`, `Q^c = AᵀHe`. The Moore–Penrose pseudo-inverse (SVD) handles
//! redundant (rank-deficient) constraints; `q̈` is then unique and the
//! constraints hold in the least-squares sense.
//!
//! Singular mass matrix (eqs. (2.101)–(2.104)): if `[M; A]` has full column
//! rank, replace `M, Q` by `M_A = M + A⁺A`, `Q_A = Q + A⁺b` (adding
//! `A⁺(Aq̈ − b) = 0` to the equations of motion) and apply the same formula.

use crate::error::{dim_err, ControlError, Result};
use crate::linalg::{check_finite, check_square, default_pinv_rtol, pinv, svd, vstack, DenseLu};
use faer::{Mat, MatRef};

/// Constrained acceleration and constraint forces.
#[derive(Clone, Debug)]
pub struct UkSolution {
    /// constrained acceleration `q̈`
    pub qdd: Vec<f64>,
    /// unconstrained acceleration `a = M⁻¹Q`
    pub a: Vec<f64>,
    /// acceleration error `e = b − Aa`
    pub e: Vec<f64>,
    /// minimum-norm multipliers `λ = He`
    pub lambda: Vec<f64>,
    /// constraint (or control) force `Q^c = AᵀHe`
    pub Qc: Vec<f64>,
}

fn col(v: &[f64]) -> Mat<f64> {
    Mat::from_fn(v.len(), 1, |i, _| v[i])
}

fn to_vec(m: &Mat<f64>) -> Vec<f64> {
    (0..m.nrows()).map(|i| m[(i, 0)]).collect()
}

fn check(M: MatRef<'_, f64>, Q: &[f64], A: MatRef<'_, f64>, b: &[f64]) -> Result<usize> {
    let n = check_square("M", M)?;
    if Q.len() != n {
        return Err(dim_err("Q", n, 1, Q.len(), 1));
    }
    if A.ncols() != n {
        return Err(dim_err("A", A.nrows(), n, A.nrows(), A.ncols()));
    }
    if b.len() != A.nrows() {
        return Err(dim_err("b", A.nrows(), 1, b.len(), 1));
    }
    check_finite("M", M)?;
    check_finite("A", A)?;
    if Q.iter().chain(b).any(|v| !v.is_finite()) {
        return Err(ControlError::InvalidParameter {
            name: "Q/b".into(),
            reason: "entries must be finite".into(),
        });
    }
    Ok(n)
}

/// Udwadia–Kalaba acceleration for an invertible mass matrix.
pub fn uk_acceleration(
    M: MatRef<'_, f64>,
    Q: &[f64],
    A: MatRef<'_, f64>,
    b: &[f64],
) -> Result<UkSolution> {
    check(M, Q, A, b)?;
    let lu = DenseLu::new("M", M)?;
    let a = lu.solve(col(Q).as_ref());
    let MiAt = lu.solve(A.transpose());
    let e = col(b) - A * &a;
    let AMA = A * &MiAt;
    let H = pinv_gram("A M⁻¹ Aᵀ", &AMA, 1e3 * default_pinv_rtol(AMA.as_ref()))?;
    let lambda = &H * &e;
    let qdd = &a + &MiAt * &lambda;
    let Qc = A.transpose() * &lambda;
    Ok(UkSolution {
        qdd: to_vec(&qdd),
        a: to_vec(&a),
        e: to_vec(&e),
        lambda: to_vec(&lambda),
        Qc: to_vec(&Qc),
    })
}

/// Pseudo-inverse of `G = AM⁻¹Aᵀ`: symmetric for a symmetric `M`, then by
/// the symmetric eigen-decomposition of `½(G + Gᵀ)` (eigenvalues below
/// `rtol·max|λ|` dropped; cheaper than an SVD and immune to the occasional
/// non-convergence of faer's SVD on small matrices), otherwise by the SVD.
fn pinv_gram(name: &str, G: &Mat<f64>, rtol: f64) -> Result<Mat<f64>> {
    let m = G.nrows();
    let scale = crate::linalg::max_abs(G.as_ref());
    let asym = (0..m)
        .flat_map(|i| (0..m).map(move |j| (i, j)))
        .fold(0.0f64, |a, (i, j)| a.max((G[(i, j)] - G[(j, i)]).abs()));
    if !(asym <= 1e-10 * scale) {
        return pinv(name, G.as_ref(), rtol);
    }
    let S = Mat::from_fn(m, m, |i, j| 0.5 * (G[(i, j)] + G[(j, i)]));
    let (vals, V) = crate::linalg::sym_eig(name, S.as_ref())?;
    let lmax = vals.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let mut H = Mat::zeros(m, m);
    for (k, &l) in vals.iter().enumerate() {
        if l.abs() > rtol * lmax && l != 0.0 {
            for j in 0..m {
                let v = V[(j, k)] / l;
                for i in 0..m {
                    H[(i, j)] += V[(i, k)] * v;
                }
            }
        }
    }
    Ok(H)
}

/// Numerical rank of the generalised controllability matrix `[M; A]`.
pub fn generalized_rank(M: MatRef<'_, f64>, A: MatRef<'_, f64>) -> Result<usize> {
    let S = vstack(&[M, A]);
    let s = svd("[M; A]", S.as_ref())?;
    let tol = s.s.first().copied().unwrap_or(0.0) * 1e-12 * S.nrows().max(S.ncols()) as f64;
    Ok(s.s.iter().filter(|&&x| x > tol).count())
}

/// Udwadia–Kalaba acceleration for a possibly singular mass matrix
/// (`[M; A]` must have full column rank). `Q^c` is returned as `Mq̈ − Q`.
pub fn uk_acceleration_singular_mass(
    M: MatRef<'_, f64>,
    Q: &[f64],
    A: MatRef<'_, f64>,
    b: &[f64],
) -> Result<UkSolution> {
    let n = check(M, Q, A, b)?;
    let rank = generalized_rank(M, A)?;
    if rank < n {
        return Err(ControlError::InvalidParameter {
            name: "[M; A]".into(),
            reason: format!("generalised controllability matrix has rank {rank} < n = {n}: accelerations not determined"),
        });
    }
    let Ap = pinv("A", A, 1e3 * default_pinv_rtol(A))?;
    let MA = M + &Ap * A;
    let QA = col(Q) + &Ap * col(b);
    let mut sol = uk_acceleration(MA.as_ref(), &to_vec(&QA), A, b)?;
    let qdd = col(&sol.qdd);
    let Qc = M * &qdd - col(Q);
    sol.Qc = to_vec(&Qc);
    sol.a = to_vec(&DenseLu::new("M_A", MA.as_ref())?.solve(QA.as_ref()));
    Ok(sol)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::linalg::from_rows as m;

    /// Against the augmented (KKT) system [[M, −Aᵀ], [A, 0]] [q̈; λ] = [Q; b].
    #[test]
    fn matches_kkt_and_redundant_rows() {
        let M = m(3, 3, &[4.0, 1.0, 0.0, 1.0, 3.0, 0.5, 0.0, 0.5, 2.0]);
        let Q = [1.0, -2.0, 0.5];
        let A = m(2, 3, &[1.0, 2.0, -1.0, 0.0, 1.0, 1.0]);
        let b = [0.3, -0.7];
        let s = uk_acceleration(M.as_ref(), &Q, A.as_ref(), &b).unwrap();
        let K = m(
            5,
            5,
            &[
                4.0, 1.0, 0.0, -1.0, -0.0, 1.0, 3.0, 0.5, -2.0, -1.0, 0.0, 0.5, 2.0, 1.0, -1.0,
                1.0, 2.0, -1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0,
            ],
        );
        let rhs = m(5, 1, &[1.0, -2.0, 0.5, 0.3, -0.7]);
        let x = DenseLu::new("KKT", K.as_ref()).unwrap().solve(rhs.as_ref());
        for i in 0..3 {
            assert!((s.qdd[i] - x[(i, 0)]).abs() < 1e-13);
        }
        for i in 0..2 {
            assert!((s.lambda[i] - x[(3 + i, 0)]).abs() < 1e-12);
        }
        // redundant: the second row repeated (consistent b): same q̈, A q̈ = b to 1e-12
        let A2 = m(3, 3, &[1.0, 2.0, -1.0, 0.0, 1.0, 1.0, 0.0, 2.0, 2.0]);
        let b2 = [0.3, -0.7, -1.4];
        let s2 = uk_acceleration(M.as_ref(), &Q, A2.as_ref(), &b2).unwrap();
        for i in 0..3 {
            assert!((s2.qdd[i] - s.qdd[i]).abs() < 1e-12);
            let r: f64 = (0..3).map(|j| A2[(i, j)] * s2.qdd[j]).sum::<f64>() - b2[i];
            assert!(r.abs() < 1e-12);
        }
    }

    /// Singular M (massless third coordinate tied by a constraint) against KKT.
    #[test]
    fn singular_mass() {
        let M = m(3, 3, &[2.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
        let Q = [1.0, 0.5, -0.2];
        let A = m(1, 3, &[1.0, -1.0, 1.0]);
        let b = [0.4];
        assert!(uk_acceleration(M.as_ref(), &Q, A.as_ref(), &b).is_err());
        // [M; A] rank 3? rows (2,0,0), (0,1,0), (1,−1,1): yes
        let s = uk_acceleration_singular_mass(M.as_ref(), &Q, A.as_ref(), &b).unwrap();
        let K = m(
            4,
            4,
            &[
                2.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0, 1.0, -1.0, 1.0, 0.0,
            ],
        );
        let x = DenseLu::new("KKT", K.as_ref())
            .unwrap()
            .solve(m(4, 1, &[1.0, 0.5, -0.2, 0.4]).as_ref());
        for i in 0..3 {
            assert!(
                (s.qdd[i] - x[(i, 0)]).abs() < 1e-12,
                "{:?} vs {:?}",
                s.qdd,
                x
            );
        }
    }
}
