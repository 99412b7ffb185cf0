//! Algebraic and differential Riccati equations (thesis 002 §4.2–§4.3,
//! eqs. (4.40), (4.44), (4.61), (4.66), (4.100), (4.121)).
//!
//! * CARE `AᵀX + XA − XGX + Q = 0`, `G = BR⁻¹Bᵀ`: matrix sign function of the
//!   Hamiltonian `H = [[A, −G], [−Q, −Aᵀ]]` (Roberts; Byers): the stable
//!   invariant subspace `[I; X]` is the null space of `sign(H) + I`, so
//!   `[W₁₂; W₂₂ + I] X = −[W₁₁ + I; W₂₁]` (least squares); then
//!   Newton–Kleinman steps `(A − GX_k)ᵀX_{k+1} + X_{k+1}(A − GX_k) = −(Q + X_kGX_k)`
//!   polish the residual to round-off.
//! * DARE `X = AᵀXA − AᵀXB(R + BᵀXB)⁻¹BᵀXA + Q`: structure-preserving
//!   doubling (Chu, Fan, Lin, Wang 2004) `W = I + G_kH_k`,
//!   `A_{k+1} = A_kW⁻¹A_k`, `G_{k+1} = G_k + A_kW⁻¹G_kA_kᵀ`,
//!   `H_{k+1} = H_k + A_kᵀH_kW⁻¹A_k`, `H_k → X` quadratically; no
//!   invertible `A` needed; then Hewer (Newton) steps on the Stein equation
//!   `(A+BF_k)ᵀX(A+BF_k) − X + Q + F_kᵀRF_k = 0` polish the residual.
//!
//! Both check the result: residual and closed-loop stability; a missing
//! stabilising solution (unstabilisable pair, undetectable modes on the
//! stability boundary) is reported as [`ControlError::NoStabilizingSolution`].

use crate::control::pole_placement::Domain;
use crate::error::{ControlError, Result};
use crate::linalg::{
    check_shape, check_square, cholesky, eigvals, eye, fro, lyap_continuous, lyap_discrete, pinv,
    signm, sym, vstack, DenseLu,
};
use faer::{c64, Mat, MatRef, Scale};
use phlex_solve::Rk4;

/// Solution of an algebraic Riccati equation.
#[derive(Clone, Debug)]
pub struct RiccatiSolution {
    /// the stabilising solution `X = Xᵀ ⪰ 0`
    pub X: Mat<f64>,
    /// relative residual `‖Res‖_F / (sum of the Frobenius norms of the terms)`
    pub residual: f64,
    /// iterations (sign/doubling + refinement)
    pub iterations: usize,
}

/// The data of a linear–quadratic problem and of its algebraic Riccati
/// equation: the pair `(A, B)` and the weights `Q`, `R`. For a regulator
/// these are `(A, B, Q_z, Q_u)` (eqs. (4.40), (4.61)); for a Kalman filter
/// the dual `(Aᵀ, Cᵀ, R_w, R_v)` (eqs. (4.100), (4.121)).
#[derive(Clone, Copy, Debug)]
pub struct LqProblem<'a> {
    /// system matrix `A` (`n × n`)
    pub A: MatRef<'a, f64>,
    /// input matrix `B` (`n × r`)
    pub B: MatRef<'a, f64>,
    /// state weight `Q` (`n × n`)
    pub Q: MatRef<'a, f64>,
    /// input weight `R` (`r × r`, positive definite)
    pub R: MatRef<'a, f64>,
}

/// Checks the data of the Riccati equation `which` (`A` square, `B` with
/// `n` rows, `Q` `n × n`, `R` `r × r` positive definite) and returns `n`
/// and `G = B R⁻¹ Bᵀ` (symmetrised).
fn check_inputs(which: &str, p: &LqProblem<'_>) -> Result<(usize, Mat<f64>)> {
    let LqProblem { A, B, Q, R } = *p;
    let n = check_square(&format!("{which} A"), A)?;
    if B.nrows() != n {
        return Err(crate::error::dim_err(
            &format!("{which} B"),
            n,
            B.ncols(),
            B.nrows(),
            B.ncols(),
        ));
    }
    let r = B.ncols();
    check_shape(&format!("{which} Q"), Q, n, n)?;
    check_shape(&format!("{which} R"), R, r, r)?;
    cholesky(&format!("{which} R"), R)?;
    let RiBt = DenseLu::new(&format!("{which} R"), R)?.solve(B.transpose());
    Ok((n, sym((B * &RiBt).as_ref())))
}

/// The error of a Riccati equation `which` without a stabilising solution.
fn no_solution(which: &str) -> impl Fn(String) -> ControlError + '_ {
    move |reason| ControlError::NoStabilizingSolution {
        which: which.into(),
        reason,
    }
}

/// Relative CARE residual of `X`.
pub fn care_residual(
    A: MatRef<'_, f64>,
    G: MatRef<'_, f64>,
    Q: MatRef<'_, f64>,
    X: MatRef<'_, f64>,
) -> f64 {
    let AtX = A.transpose() * X;
    let XA = X * A;
    let XGX = X * G * X;
    let res = &AtX + &XA - &XGX + Q;
    let scale = fro(AtX.as_ref()) + fro(XA.as_ref()) + fro(XGX.as_ref()) + fro(Q);
    fro(res.as_ref()) / scale.max(f64::MIN_POSITIVE)
}

/// Relative DARE residual of `X`.
pub fn dare_residual(p: &LqProblem<'_>, X: MatRef<'_, f64>) -> f64 {
    let LqProblem { A, B, Q, R } = *p;
    let AtXA = A.transpose() * X * A;
    let BtXA = B.transpose() * X * A;
    let S = R + B.transpose() * X * B;
    let corr = match DenseLu::new("R + BᵀXB", S.as_ref()) {
        Ok(lu) => BtXA.transpose() * lu.solve(BtXA.as_ref()),
        Err(_) => return f64::INFINITY,
    };
    let res = &AtXA - &corr + Q - X;
    let scale = fro(AtXA.as_ref()) + fro(corr.as_ref()) + fro(Q) + fro(X);
    fro(res.as_ref()) / scale.max(f64::MIN_POSITIVE)
}

fn max_real(vals: &[c64]) -> f64 {
    vals.iter().map(|l| l.re).fold(f64::NEG_INFINITY, f64::max)
}

/// Continuous algebraic Riccati equation `AᵀX + XA − XBR⁻¹BᵀX + Q = 0`.
pub fn solve_care(p: &LqProblem<'_>) -> Result<RiccatiSolution> {
    let (n, G) = check_inputs("CARE", p)?;
    let no = no_solution("CARE");
    let A = p.A;
    let Qs = sym(p.Q);
    let mut H = Mat::<f64>::zeros(2 * n, 2 * n);
    H.as_mut().submatrix_mut(0, 0, n, n).copy_from(A);
    H.as_mut()
        .submatrix_mut(0, n, n, n)
        .copy_from(Scale(-1.0) * &G);
    H.as_mut()
        .submatrix_mut(n, 0, n, n)
        .copy_from(Scale(-1.0) * &Qs);
    H.as_mut()
        .submatrix_mut(n, n, n, n)
        .copy_from(Scale(-1.0) * A.transpose());
    let W = signm("Hamiltonian", H.as_ref()).map_err(|e| match e {
        ControlError::NoConvergence { .. } | ControlError::Singular { .. } => {
            no("the Hamiltonian has eigenvalues on (or numerically at) the imaginary axis".into())
        }
        other => other,
    })?;
    let W11 = W.as_ref().submatrix(0, 0, n, n);
    let W12 = W.as_ref().submatrix(0, n, n, n);
    let W21 = W.as_ref().submatrix(n, 0, n, n);
    let W22 = W.as_ref().submatrix(n, n, n, n);
    let I = eye(n);
    let lhs = vstack(&[W12, (W22 + &I).as_ref()]);
    let rhs = vstack(&[(W11 + &I).as_ref(), W21]);
    let Lp = pinv("[W₁₂; W₂₂ + I]", lhs.as_ref(), 1e-13)?;
    let X = sym((Scale(-1.0) * (&Lp * &rhs)).as_ref());
    if X.as_ref().norm_l2().is_nan() {
        return Err(no("stable invariant subspace is not a graph [I; X]".into()));
    }
    let residual = |X: &Mat<f64>| care_residual(A, G.as_ref(), Qs.as_ref(), X.as_ref());
    // Newton–Kleinman refinement
    let newton_kleinman = |X: &Mat<f64>| -> Result<Option<Mat<f64>>> {
        let Ak = A - &G * X;
        if max_real(&eigvals("A − GX", Ak.as_ref())?) >= 0.0 {
            return Ok(None);
        }
        let rhs = &Qs + X * &G * X;
        Ok(lyap_continuous(Ak.as_ref(), rhs.as_ref()).ok())
    };
    let res = residual(&X);
    let (X, res, steps) = refine(X, res, 6, newton_kleinman, residual)?;
    let cl = eigvals("A − GX", (A - &G * &X).as_ref())?;
    accept("CARE", Domain::Continuous, &cl, X, res, 1 + steps)
}

/// Discrete algebraic Riccati equation `X = AᵀXA − AᵀXB(R + BᵀXB)⁻¹BᵀXA + Q`.
pub fn solve_dare(p: &LqProblem<'_>) -> Result<RiccatiSolution> {
    let (n, mut Gk) = check_inputs("DARE", p)?;
    let no = no_solution("DARE");
    let LqProblem { A, B, Q, R } = *p;
    let mut Hk = sym(Q);
    let mut Ak = A.to_owned();
    let I = eye(n);
    let mut converged = false;
    let mut iterations = 0;
    let mut change = f64::INFINITY;
    for it in 0..100 {
        iterations = it + 1;
        let Wm = &I + &Gk * &Hk;
        let lu = DenseLu::new("I + G_k H_k", Wm.as_ref())
            .map_err(|_| no("doubling breakdown (I + GH singular)".into()))?;
        let WiA = lu.solve(Ak.as_ref());
        let WiG = lu.solve(Gk.as_ref());
        let An = &Ak * &WiA;
        let Gn = sym((&Gk + &Ak * &WiG * Ak.transpose()).as_ref());
        let Hn = sym((&Hk + Ak.transpose() * &Hk * &WiA).as_ref());
        change = fro((&Hn - &Hk).as_ref()) / fro(Hn.as_ref()).max(f64::MIN_POSITIVE);
        Ak = An;
        Gk = Gn;
        Hk = Hn;
        if !change.is_finite() {
            break;
        }
        if change < 1e-15 {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err(no(format!("doubling did not converge (last relative change {change:.3e}): unit-circle eigenvalues")));
    }
    let residual = |X: &Mat<f64>| dare_residual(p, X.as_ref());
    // Hewer (Newton) refinement: (A+BF_k)ᵀX(A+BF_k) − X + Q + F_kᵀRF_k = 0
    let hewer = |X: &Mat<f64>| -> Result<Option<Mat<f64>>> {
        let Fk = dlqr_gain(p, X.as_ref())?;
        let Ak = A + B * &Fk;
        let rhs = sym((Q + Fk.transpose() * R * &Fk).as_ref());
        Ok(lyap_discrete(Ak.as_ref(), rhs.as_ref()).ok())
    };
    let res = residual(&Hk);
    let (X, res, steps) = refine(Hk, res, 4, hewer, residual)?;
    let F = dlqr_gain(p, X.as_ref())?;
    let cl = eigvals("A + BF", (A + B * &F).as_ref())?;
    accept("DARE", Domain::Discrete, &cl, X, res, iterations + steps)
}

/// Newton refinement shared by the CARE (Newton–Kleinman) and the DARE
/// (Hewer): at most `max_steps` steps `X ← step(X)` (one Lyapunov or Stein
/// solve each) while the residual exceeds round-off (`10⁻¹⁴`) and
/// decreases. `step` returns `None` when it cannot proceed (unstable
/// iterate, failed Lyapunov solve). Returns the best `X`, its residual and
/// the number of steps taken.
fn refine(
    mut X: Mat<f64>,
    mut res: f64,
    max_steps: usize,
    step: impl Fn(&Mat<f64>) -> Result<Option<Mat<f64>>>,
    residual: impl Fn(&Mat<f64>) -> f64,
) -> Result<(Mat<f64>, f64, usize)> {
    let mut steps = 0;
    for _ in 0..max_steps {
        if res < 1e-14 {
            break;
        }
        let Some(Xn) = step(&X)? else {
            break;
        };
        let rn = residual(&Xn);
        steps += 1;
        if rn < res {
            X = Xn;
            res = rn;
        } else {
            break;
        }
    }
    Ok((X, res, steps))
}

/// Accepts a Riccati solution if its closed loop `cl` (eigenvalues of
/// `A − GX` or `A + BF`) is stable in `domain` (`Re λ < 0`, or `|λ| < 1`)
/// and its relative residual is below `10⁻⁸`; otherwise reports
/// [`ControlError::NoStabilizingSolution`] for `which`.
fn accept(
    which: &str,
    domain: Domain,
    cl: &[c64],
    X: Mat<f64>,
    residual: f64,
    iterations: usize,
) -> Result<RiccatiSolution> {
    let no = no_solution(which);
    let (margin, bound, what) = match domain {
        Domain::Continuous => (max_real(cl), 0.0, "largest Re λ"),
        Domain::Discrete => (
            cl.iter().map(|l| l.norm()).fold(0.0, f64::max),
            1.0,
            "spectral radius",
        ),
    };
    if !(margin < bound) {
        return Err(no(format!(
            "closed loop has {what} {margin:.6e} ≥ {bound} (unstabilisable mode)"
        )));
    }
    if !(residual < 1e-8) {
        return Err(no(format!(
            "relative residual {residual:.3e} (ill-posed problem)"
        )));
    }
    Ok(RiccatiSolution {
        X,
        residual,
        iterations,
    })
}

/// Classical RK4 integration of a matrix Riccati differential equation
/// `Ẋ = f(X)` on `[0, T]` in `steps` equal steps from `X(0) = X0` (the
/// filter equation forward in time, eq. (4.96); the control equation in
/// backward time, eq. (4.34)). Returns the symmetrised `X` at the
/// `steps + 1` grid times.
pub fn riccati_rk4(
    X0: MatRef<'_, f64>,
    T: f64,
    steps: usize,
    f: impl Fn(MatRef<'_, f64>) -> Mat<f64>,
) -> Result<Vec<Mat<f64>>> {
    if !(T > 0.0) || steps == 0 {
        return Err(ControlError::InvalidParameter {
            name: "T/steps".into(),
            reason: "need T > 0 and steps ≥ 1".into(),
        });
    }
    let n = X0.nrows();
    let mut rhs = |_t: f64, y: &[f64], dy: &mut [f64]| {
        let D = f(MatRef::from_column_major_slice(y, n, n));
        for j in 0..n {
            for i in 0..n {
                dy[i + j * n] = D[(i, j)];
            }
        }
    };
    let h = T / steps as f64;
    let mut y: Vec<f64> = (0..n * n).map(|k| X0[(k % n, k / n)]).collect();
    let mut rk = Rk4::new(n * n);
    let mut out = vec![sym(X0)];
    for k in 0..steps {
        rk.step(&mut rhs, k as f64 * h, &mut y, h);
        out.push(sym(MatRef::from_column_major_slice(&y, n, n)));
    }
    Ok(out)
}

/// Discrete LQR gain `F = −(R + BᵀXB)⁻¹BᵀXA` (control `u = F z`).
pub fn dlqr_gain(p: &LqProblem<'_>, X: MatRef<'_, f64>) -> Result<Mat<f64>> {
    let LqProblem { A, B, R, .. } = *p;
    let S = R + B.transpose() * X * B;
    let BtXA = B.transpose() * X * A;
    Ok(Scale(-1.0) * DenseLu::new("R + BᵀXB", S.as_ref())?.solve(BtXA.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::linalg::from_rows as m;

    fn problem([A, B, Q, R]: [&Mat<f64>; 4]) -> LqProblem<'_> {
        LqProblem {
            A: A.as_ref(),
            B: B.as_ref(),
            Q: Q.as_ref(),
            R: R.as_ref(),
        }
    }

    /// Double integrator, Q = I, R = 1: X = [[√3, 1], [1, √3]] (closed form).
    #[test]
    fn care_double_integrator() {
        let A = m(2, 2, &[0.0, 1.0, 0.0, 0.0]);
        let B = m(2, 1, &[0.0, 1.0]);
        let (Q, R) = (eye(2), eye(1));
        let s = solve_care(&problem([&A, &B, &Q, &R])).unwrap();
        let r3 = 3f64.sqrt();
        assert!(
            (s.X[(0, 0)] - r3).abs() < 1e-12
                && (s.X[(0, 1)] - 1.0).abs() < 1e-12
                && (s.X[(1, 1)] - r3).abs() < 1e-12
        );
        assert!(s.residual < 1e-13);
    }

    /// Scalar DARE: x = a²x − a²b²x²/(r + b²x) + q, closed form of the quadratic.
    #[test]
    fn dare_scalar() {
        let (a, b, q, r) = (1.2, 0.5, 2.0, 0.3);
        let [A, B, Q, R] = [a, b, q, r].map(|v| m(1, 1, &[v]));
        let s = solve_dare(&problem([&A, &B, &Q, &R])).unwrap();
        // b² x² + (r − a² r − q b²) x − q r = 0, positive root
        let (qa, qb, qc) = (b * b, r - a * a * r - q * b * b, -q * r);
        let x = (-qb + (qb * qb - 4.0 * qa * qc).sqrt()) / (2.0 * qa);
        assert!((s.X[(0, 0)] - x).abs() < 1e-13 * x);
    }

    /// Unstable mode not reachable from B: typed error for both equations.
    #[test]
    fn unstabilisable() {
        let A = m(2, 2, &[1.0, 0.0, 0.0, -1.0]);
        let B = m(2, 1, &[0.0, 1.0]);
        let (Q, R) = (eye(2), eye(1));
        let e = solve_care(&problem([&A, &B, &Q, &R])).unwrap_err();
        assert!(
            matches!(e, ControlError::NoStabilizingSolution { .. }),
            "{e}"
        );
        let Ad = m(2, 2, &[1.5, 0.0, 0.0, 0.5]);
        let e = solve_dare(&problem([&Ad, &B, &Q, &R])).unwrap_err();
        assert!(
            matches!(e, ControlError::NoStabilizingSolution { .. }),
            "{e}"
        );
    }
}
