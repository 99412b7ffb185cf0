//! Output-error refinement of identified discrete poles by variable
//! projection (Golub–Pereyra, with Kaufman's Jacobian) and Levenberg–Marquardt.
//!
//! ERA/DC (thesis 002 §3.6) is not a statistically efficient estimator: its
//! poles carry the variance of the OKID Markov parameters (`r + (r+m)p`
//! least-squares unknowns). Given the poles `z_j`, the response of a linear
//! model at rest or with an initial state is **linear** in everything else:
//!
//! `yᵢ(k) = Σ_j Σ_c [αᵢⱼc Re w_jc(k) + βᵢⱼc Im w_jc(k)] + Σ_j [γᵢⱼ Re z_jᵏ + δᵢⱼ Im z_jᵏ] + Σ_c Dᵢc u_c(k)`,
//! `w_jc(k+1) = z_j w_jc(k) + u_c(k)`, `w_jc(0) = 0`
//!
//! (one basis signal instead of two for a real pole). Eliminating these
//! coefficients by least squares leaves a problem in the `n` pole parameters
//! `(Re z_j, Im z_j)` only, minimised here for the output-error likelihood
//! with unknown per-output noise variances, `Σᵢ ln vᵢ`. This is the
//! common-denominator output-error model; for one input it is exactly the
//! `n`-state model with those poles, for `r > 1` it allows residues of any
//! rank. Used by [`crate::identify::era::era_dc_observer`] to choose the model order
//! by the BIC of the refined fits and to report refined frequencies and
//! damping ratios.

use crate::error::{ControlError, Result};
use crate::linalg::check_finite;
use faer::{c64, Mat, MatRef};

/// A refined set of poles and its fit, see [`refine_poles`].
#[derive(Clone, Debug)]
pub struct PoleFit {
    /// discrete poles, one per real pole or conjugate pair (`Im ≥ 0`)
    pub poles: Vec<c64>,
    /// model order `n` (2 per pair, 1 per real pole)
    pub order: usize,
    /// RMS of the output error per output
    pub residual_rms: Vec<f64>,
    /// Bayesian information criterion `l Σᵢ ln vᵢ + k ln l`
    pub bic: f64,
    /// Levenberg–Marquardt iterations done
    pub iterations: usize,
}

/// Relative imaginary part below which a discrete pole counts as real.
const REAL_TOL: f64 = 1e-10;

/// Unique poles of a real matrix spectrum: real ones and one of each
/// conjugate pair (`Im > 0`).
pub fn pole_set(eigenvalues: &[c64]) -> Vec<c64> {
    eigenvalues
        .iter()
        .filter_map(|z| {
            let s = z.norm().max(1e-300);
            if z.im.abs() <= REAL_TOL * s {
                Some(c64::new(z.re, 0.0))
            } else if z.im > 0.0 {
                Some(*z)
            } else {
                None
            }
        })
        .collect()
}

fn is_real(z: c64) -> bool {
    z.im == 0.0
}

/// Basis signals (columns of `Φ`, `l × q`) and, if `deriv`, their derivatives
/// with respect to the pole parameters: `dphi[p]` lists `(column, signal)`.
struct Basis {
    phi: Mat<f64>,
    dphi: Vec<Vec<(usize, Vec<f64>)>>,
}

fn basis(poles: &[c64], u: MatRef<'_, f64>, deriv: bool) -> Basis {
    let (r, l) = (u.nrows(), u.ncols());
    let q: usize = poles
        .iter()
        .map(|z| if is_real(*z) { r + 1 } else { 2 * (r + 1) })
        .sum::<usize>()
        + r;
    let mut phi = Mat::<f64>::zeros(l, q);
    let mut dphi = Vec::new();
    let mut col = 0;
    for &z in poles {
        let real = is_real(z);
        let mut da: Vec<(usize, Vec<f64>)> = Vec::new();
        let mut db: Vec<(usize, Vec<f64>)> = Vec::new();
        // forced responses w(0) = 0, w(k+1) = z w + u_c(k), then the free
        // response zᵏ (w(0) = 1, no input)
        let forced = (0..r).map(|c| (c64::new(0.0, 0.0), Some(c)));
        for (w0, input) in forced.chain([(c64::new(1.0, 0.0), None)]) {
            let e = |k: usize| input.map_or(0.0, |c| u[(c, k)]);
            let dw = pole_response(&mut phi, col, real, z, w0, e, deriv);
            if deriv {
                push_derivs(&mut da, &mut db, col, real, &dw);
            }
            col += if real { 1 } else { 2 };
        }
        if deriv {
            dphi.push(da);
            if !real {
                dphi.push(db);
            }
        }
    }
    for c in 0..r {
        for k in 0..l {
            phi[(k, col)] = u[(c, k)];
        }
        col += 1;
    }
    Basis { phi, dphi }
}

/// One response of a pole `z`: writes `w(k)`, `w(0) = w0`,
/// `w(k+1) = z w(k) + e(k)`, into column `col` of `phi` (`Re w`, and `Im w`
/// into `col + 1` unless the pole is `real`) and returns, if `deriv`, its
/// derivative `v = dw/dz`: `v(0) = 0`, `v(k+1) = z v(k) + w(k)` (for the
/// free response `w = zᵏ` this is `k z^{k−1}`).
fn pole_response(
    phi: &mut Mat<f64>,
    col: usize,
    real: bool,
    z: c64,
    w0: c64,
    e: impl Fn(usize) -> f64,
    deriv: bool,
) -> Vec<c64> {
    let l = phi.nrows();
    let (mut w, mut v) = (w0, c64::new(0.0, 0.0));
    let mut dv = if deriv {
        vec![c64::new(0.0, 0.0); l]
    } else {
        Vec::new()
    };
    for k in 0..l {
        phi[(k, col)] = w.re;
        if !real {
            phi[(k, col + 1)] = w.im;
        }
        if deriv {
            dv[k] = v;
        }
        let wn = z * w + e(k);
        v = z * v + w;
        w = wn;
    }
    dv
}

/// Derivatives of the columns `[Re s, Im s]` (or `[s]` for a real pole) with
/// respect to `a = Re z` and `b = Im z`, given `ds/dz` (holomorphic):
/// `∂/∂a = ds/dz`, `∂/∂b = i ds/dz`.
fn push_derivs(
    da: &mut Vec<(usize, Vec<f64>)>,
    db: &mut Vec<(usize, Vec<f64>)>,
    col: usize,
    real: bool,
    ds: &[c64],
) {
    da.push((col, ds.iter().map(|s| s.re).collect()));
    if !real {
        da.push((col + 1, ds.iter().map(|s| s.im).collect()));
        db.push((col, ds.iter().map(|s| -s.im).collect()));
        db.push((col + 1, ds.iter().map(|s| s.re).collect()));
    }
}

/// Least-squares projection with a thin QR of `Φ`: coefficients `Θ`
/// (`q × m`), residual `Y − ΦΘ` and the orthonormal basis `Q`.
struct Projection {
    Q: Mat<f64>,
    theta: Mat<f64>,
    resid: Mat<f64>,
}

fn project(phi: &Mat<f64>, y: MatRef<'_, f64>) -> Result<Projection> {
    check_finite(
        "output-error basis Φ (a pole on or outside the unit circle)",
        phi.as_ref(),
    )?;
    let qr = phi.qr();
    let Q = qr.compute_thin_Q();
    let R = qr.thin_R().to_owned();
    let yt = y.transpose().to_owned(); // l × m
    let Qty = Q.transpose() * &yt;
    let resid = &yt - &Q * &Qty;
    // Θ = R⁻¹ Qᵀ y by back substitution, dropping (near) dependent columns
    let q = R.ncols();
    let m = y.nrows();
    let rmax = (0..q).map(|i| R[(i, i)].abs()).fold(0.0, f64::max);
    let mut theta = Mat::<f64>::zeros(q, m);
    for j in 0..m {
        for i in (0..q).rev() {
            let d = R[(i, i)];
            if d.abs() <= 1e-13 * rmax {
                continue;
            }
            let mut s = Qty[(i, j)];
            for k in i + 1..q {
                s -= R[(i, k)] * theta[(k, j)];
            }
            theta[(i, j)] = s / d;
        }
    }
    Ok(Projection { Q, theta, resid })
}

/// Mean squared residual per output, floored at `(1e-14 rms yᵢ)²`.
fn variances(resid: &Mat<f64>, y: MatRef<'_, f64>) -> Vec<f64> {
    let l = resid.nrows() as f64;
    (0..resid.ncols())
        .map(|i| {
            let e2: f64 = (0..resid.nrows()).map(|k| resid[(k, i)].powi(2)).sum();
            let y2: f64 = (0..y.ncols()).map(|k| y[(i, k)].powi(2)).sum();
            (e2 / l).max(1e-28 * y2 / l).max(f64::MIN_POSITIVE)
        })
        .collect()
}

fn cost(v: &[f64]) -> f64 {
    v.iter().map(|x| x.ln()).sum()
}

/// Refines the discrete `poles` (one per real pole or conjugate pair, see
/// [`pole_set`]) by minimising the output-error likelihood `Σᵢ ln vᵢ` on the
/// data `u` (`r × l`), `y` (`m × l`) with Levenberg–Marquardt on the
/// variable-projection functional (Kaufman's Jacobian, outputs weighted by
/// the current `1/√vᵢ`, i.e. Gauss–Newton for the concentrated likelihood).
/// Steps that leave the unit disc or do not decrease the cost are rejected.
///
/// BIC: `k = n + m (n r + n + r)` (pole parameters, residues, free-response
/// and feedthrough coefficients per output).
pub fn refine_poles(
    poles: &[c64],
    u: MatRef<'_, f64>,
    y: MatRef<'_, f64>,
    max_iter: usize,
) -> Result<PoleFit> {
    let (r, l) = (u.nrows(), u.ncols());
    let m = y.nrows();
    if y.ncols() != l {
        return Err(crate::error::dim_err("y", m, l, m, y.ncols()));
    }
    if let Some(z) = poles.iter().find(|z| !(z.norm() < 1.0)) {
        return Err(ControlError::InvalidParameter {
            name: "poles".into(),
            reason: format!(
                "output-error fit from rest needs stable poles, got |z| = {:.6} at z = {z}",
                z.norm()
            ),
        });
    }
    let order: usize = poles.iter().map(|z| if is_real(*z) { 1 } else { 2 }).sum();
    let q_needed = order * (r + 1) + r;
    if l <= q_needed + order {
        return Err(ControlError::NotEnoughData {
            what: format!("output-error fit of order {order}"),
            needed: q_needed + order + 1,
            available: l,
        });
    }
    let mut z: Vec<c64> = poles.to_vec();
    let mut b = basis(&z, u, true);
    let mut pr = project(&b.phi, y)?;
    let mut v = variances(&pr.resid, y);
    let mut f = cost(&v);
    let mut lambda = 1e-3;
    let mut iterations = 0;
    let np: usize = b.dphi.len();
    for _ in 0..max_iter {
        iterations += 1;
        // weighted residual and Kaufman Jacobian J_p = −P⊥ (∂Φ/∂α_p) Θ
        let w: Vec<f64> = v.iter().map(|x| 1.0 / x.sqrt()).collect();
        let mut J = Mat::<f64>::zeros(l * m, np);
        let mut rv = Mat::<f64>::zeros(l * m, 1);
        for i in 0..m {
            for k in 0..l {
                rv[(i * l + k, 0)] = w[i] * pr.resid[(k, i)];
            }
        }
        let mut t = Mat::<f64>::zeros(l, m);
        for (p, cols) in b.dphi.iter().enumerate() {
            t.fill(0.0);
            for (c, s) in cols {
                for i in 0..m {
                    let th = pr.theta[(*c, i)];
                    if th != 0.0 {
                        for k in 0..l {
                            t[(k, i)] += s[k] * th;
                        }
                    }
                }
            }
            let proj = &t - &pr.Q * (pr.Q.transpose() * &t);
            for i in 0..m {
                for k in 0..l {
                    J[(i * l + k, p)] = -w[i] * proj[(k, i)];
                }
            }
        }
        let JtJ = J.transpose() * &J;
        let Jtr = J.transpose() * &rv;
        let mut accepted = false;
        for _ in 0..12 {
            let mut M = JtJ.clone();
            for p in 0..np {
                M[(p, p)] += lambda * JtJ[(p, p)].max(1e-300);
            }
            let Ok(step) = crate::linalg::solve(
                "Levenberg–Marquardt normal matrix",
                M.as_ref(),
                Jtr.as_ref(),
            ) else {
                lambda *= 10.0;
                continue;
            };
            // δ = −(JᵀJ + λ diag)⁻¹ Jᵀ r
            let mut zn = z.clone();
            let mut p = 0;
            let mut valid = true;
            for zj in zn.iter_mut() {
                if is_real(*zj) {
                    zj.re -= step[(p, 0)];
                    p += 1;
                } else {
                    zj.re -= step[(p, 0)];
                    zj.im -= step[(p + 1, 0)];
                    p += 2;
                    // a pair stays a pair (Im > 0)
                    valid &= zj.im > 0.0;
                }
                valid &= zj.norm() < 1.0;
            }
            if !valid {
                lambda *= 10.0;
                continue;
            }
            let bn = basis(&zn, u, true);
            let Ok(prn) = project(&bn.phi, y) else {
                lambda *= 10.0;
                continue;
            };
            let vn = variances(&prn.resid, y);
            let fnew = cost(&vn);
            if fnew < f {
                let small = f - fnew < 1e-12 * f.abs().max(1.0);
                z = zn;
                b = bn;
                pr = prn;
                v = vn;
                f = fnew;
                lambda = (lambda * 0.3).max(1e-12);
                accepted = !small;
                break;
            }
            lambda *= 10.0;
        }
        if !accepted {
            break;
        }
    }
    let lf = l as f64;
    let k = (order + m * (order * r + order + r)) as f64;
    let bic = lf * f + k * lf.ln();
    Ok(PoleFit {
        poles: z,
        order,
        residual_rms: v.iter().map(|x| x.sqrt()).collect(),
        bic,
        iterations,
    })
}

/// Real modal form of `(A, C)` with the eigenvalues replaced by `poles`
/// (in the order of [`pole_set`] of the eigenvalues of `A`):
/// `T = [.., Re ψ_j, Im ψ_j, ..]` (`Re ψ` for a real pole), `C_m = C T`,
/// `A_m = blockdiag([a_j, b_j; −b_j, a_j])` for `z_j = a_j + i b_j`
/// (`A T = T A_m` holds for the original eigenvalues). `B` is left to a
/// least-squares fit ([`crate::identify::era::fit_input_matrices`]). Fails when `A` is
/// (numerically) defective.
pub fn modal_form(
    A: MatRef<'_, f64>,
    C: MatRef<'_, f64>,
    poles: &[c64],
) -> Result<(Mat<f64>, Mat<f64>)> {
    let n = A.nrows();
    let (vals, vecs) = crate::linalg::eig("A", A)?;
    let mut T = Mat::<f64>::zeros(n, n);
    let mut Am = Mat::<f64>::zeros(n, n);
    let mut col = 0;
    let mut pi = 0;
    for (k, zk) in vals.iter().enumerate() {
        let s = zk.norm().max(1e-300);
        let real = zk.im.abs() <= REAL_TOL * s;
        if !real && zk.im < 0.0 {
            continue;
        }
        let Some(&z) = poles.get(pi) else {
            return Err(crate::error::dim_err(
                "poles",
                vals.len(),
                1,
                poles.len(),
                1,
            ));
        };
        pi += 1;
        if real != is_real(z) || col + if real { 1 } else { 2 } > n {
            return Err(ControlError::InvalidParameter {
                name: "poles".into(),
                reason: format!("pole {pi} ({z}) does not match eigenvalue {zk} of A"),
            });
        }
        if real {
            for i in 0..n {
                T[(i, col)] = vecs[(i, k)].re;
            }
            Am[(col, col)] = z.re;
            col += 1;
        } else {
            for i in 0..n {
                T[(i, col)] = vecs[(i, k)].re;
                T[(i, col + 1)] = vecs[(i, k)].im;
            }
            Am[(col, col)] = z.re;
            Am[(col, col + 1)] = z.im;
            Am[(col + 1, col)] = -z.im;
            Am[(col + 1, col + 1)] = z.re;
            col += 2;
        }
    }
    if col != n || pi != poles.len() {
        return Err(crate::error::dim_err("poles", col, 1, poles.len(), 1));
    }
    let sv = crate::linalg::svd("modal basis T", T.as_ref())?.s;
    let (smax, smin) = (sv[0], sv[n - 1]);
    if !(smin > 1e-10 * smax) {
        return Err(ControlError::Singular {
            name: "modal basis T (defective A)".into(),
            rcond: smin / smax,
        });
    }
    Ok((Am, C * &T))
}
