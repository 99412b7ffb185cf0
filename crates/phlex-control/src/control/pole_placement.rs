//! Null-space pole placement (thesis 002 §4.2.1 and §4.3.1, eqs.
//! (4.6)–(4.20) and (4.76)–(4.84)).
//!
//! For each requested eigenvalue `λ_h`, the null space of
//! `Γ = [A − λ_h I, B]` (from its SVD) contains `φ = [φ̄; φ̿]` with
//! `(A + BF)φ̄ = λ_h φ̄` whenever `Fφ̄ = φ̿`. Stacking one vector per pole
//! (conjugate vectors for conjugate poles, so `F` is real) gives
//! `F = Φ̿ Φ̄⁻¹`. The observer gain (`A + GC`) is the dual problem on
//! `Γ = [Aᵀ − λI, Cᵀ]`: `G = Φ̄⁻ᵀ Φ̿ᵀ`.
//!
//! Requirements: the pair is controllable (observable) — checked by the PBH
//! test on every eigenvalue of `A`, a failing mode is named in the error —
//! and no pole is requested more often than there are inputs (the closed
//! loop must be non-defective).

use crate::error::{ControlError, Result};
use crate::linalg::{
    check_shape, check_square, eig, max_imag, real_part, solve_complex, svd_complex_full, svd_full,
};
use faer::{c64, Mat, MatRef};

/// Relative PBH threshold: `σ_min([A − λI, B]) / σ_max` below this is "rank deficient".
pub const PBH_TOL: f64 = 1e-9;

/// PBH controllability test: error naming the first uncontrollable mode.
pub fn check_controllable(A: MatRef<'_, f64>, B: MatRef<'_, f64>) -> Result<()> {
    let n = check_square("A", A)?;
    check_shape("B", B, n, B.ncols())?;
    let (vals, _) = eig("A", A)?;
    let scale = A.norm_l2().max(B.norm_l2()).max(f64::MIN_POSITIVE);
    for l in vals {
        let G = gamma(A, B, l);
        let (s, _) = svd_complex_full("[A − λI, B]", G.as_ref())?;
        let smin = s.get(n - 1).copied().unwrap_or(0.0);
        let ratio = smin / scale;
        if ratio < PBH_TOL {
            return Err(ControlError::Uncontrollable {
                re: l.re,
                im: l.im,
                ratio,
            });
        }
    }
    Ok(())
}

/// PBH observability test: error naming the first unobservable mode.
pub fn check_observable(A: MatRef<'_, f64>, C: MatRef<'_, f64>) -> Result<()> {
    let At = A.transpose().to_owned();
    let Ct = C.transpose().to_owned();
    check_controllable(At.as_ref(), Ct.as_ref()).map_err(|e| match e {
        ControlError::Uncontrollable { re, im, ratio } => {
            ControlError::Unobservable { re, im, ratio }
        }
        ControlError::Dimension {
            name,
            expected,
            got,
        } => ControlError::Dimension {
            name: name.replace('B', "Cᵀ"),
            expected,
            got,
        },
        other => other,
    })
}

/// Time domain of a stabilisability/detectability test: which eigenvalues
/// lie on or beyond the stability boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// continuous time: `Re λ ≥ −10⁻⁸ |λ|`
    Continuous,
    /// discrete time: `|λ| ≥ 1 − 10⁻⁸`
    Discrete,
}

impl Domain {
    /// `Some(description)` if `l` is on or beyond the stability boundary.
    fn critical(self, l: c64) -> Option<String> {
        match self {
            Domain::Continuous => {
                (l.re >= -1e-8 * l.norm()).then(|| format!("Re λ = {:.3e} ≥ 0", l.re))
            }
            Domain::Discrete => {
                (l.norm() >= 1.0 - 1e-8).then(|| format!("|λ| = {:.12} ≥ 1", l.norm()))
            }
        }
    }
}

/// PBH stabilisability test (Hautus): every eigenvalue of `A` on or beyond
/// the stability boundary must satisfy `rank [A − λI, B] = n`; the first
/// failing mode is named in [`ControlError::NotStabilizable`]. A necessary
/// condition for the stabilising Riccati solution of the LQR.
pub fn check_stabilizable(A: MatRef<'_, f64>, B: MatRef<'_, f64>, domain: Domain) -> Result<()> {
    let n = check_square("A", A)?;
    check_shape("B", B, n, B.ncols())?;
    let (vals, _) = eig("A", A)?;
    let scale = A.norm_l2().max(B.norm_l2()).max(f64::MIN_POSITIVE);
    for l in vals {
        let Some(boundary) = domain.critical(l) else {
            continue;
        };
        let G = gamma(A, B, l);
        let (s, _) = svd_complex_full("[A − λI, B]", G.as_ref())?;
        let ratio = s.get(n - 1).copied().unwrap_or(0.0) / scale;
        if ratio < PBH_TOL {
            return Err(ControlError::NotStabilizable {
                re: l.re,
                im: l.im,
                boundary,
                ratio,
            });
        }
    }
    Ok(())
}

/// PBH detectability test, the dual of [`check_stabilizable`] on `(Aᵀ, Cᵀ)`;
/// a failing mode is named in [`ControlError::NotDetectable`]. A necessary
/// condition for the stabilising Riccati solution of the Kalman filter.
pub fn check_detectable(A: MatRef<'_, f64>, C: MatRef<'_, f64>, domain: Domain) -> Result<()> {
    let At = A.transpose().to_owned();
    let Ct = C.transpose().to_owned();
    check_stabilizable(At.as_ref(), Ct.as_ref(), domain).map_err(|e| match e {
        ControlError::NotStabilizable {
            re,
            im,
            boundary,
            ratio,
        } => ControlError::NotDetectable {
            re,
            im,
            boundary,
            ratio,
        },
        other => other,
    })
}

fn gamma(A: MatRef<'_, f64>, B: MatRef<'_, f64>, l: c64) -> Mat<c64> {
    let n = A.nrows();
    let r = B.ncols();
    Mat::from_fn(n, n + r, |i, j| {
        if j < n {
            let a = c64::new(A[(i, j)], 0.0);
            if i == j {
                a - l
            } else {
                a
            }
        } else {
            c64::new(B[(i, j - n)], 0.0)
        }
    })
}

fn same(a: c64, b: c64) -> bool {
    (a - b).norm() <= 1e-12 * (1.0 + a.norm())
}

/// Gain `F` (`r × n`) such that `A + BF` has the eigenvalues `poles`.
pub fn place_poles(A: MatRef<'_, f64>, B: MatRef<'_, f64>, poles: &[c64]) -> Result<Mat<f64>> {
    let n = check_square("A", A)?;
    check_shape("B", B, n, B.ncols())?;
    let r = B.ncols();
    if poles.len() != n {
        return Err(ControlError::InvalidPoles {
            reason: format!("{} poles requested for n = {n} states", poles.len()),
        });
    }
    if r == 0 {
        return Err(ControlError::InvalidPoles {
            reason: "B has no columns".into(),
        });
    }
    // conjugate closure
    for p in poles {
        if !p.re.is_finite() || !p.im.is_finite() {
            return Err(ControlError::InvalidPoles {
                reason: format!("pole {p} is not finite"),
            });
        }
        if p.im.abs() > 1e-12 * (1.0 + p.norm()) {
            let cp = poles.iter().filter(|q| same(**q, p.conj())).count();
            let pp = poles.iter().filter(|q| same(**q, *p)).count();
            if cp != pp {
                return Err(ControlError::InvalidPoles {
                    reason: format!("complex pole {p} has no matching conjugate"),
                });
            }
        }
    }
    check_controllable(A, B)?;
    // columns of Φ̄ (n) and Φ̿ (r)
    let mut phi_bar: Vec<Vec<c64>> = Vec::with_capacity(n);
    let mut phi_dbl: Vec<Vec<c64>> = Vec::with_capacity(n);
    let mut done = vec![false; n];
    for h in 0..n {
        if done[h] {
            continue;
        }
        let p = poles[h];
        let is_real = p.im.abs() <= 1e-12 * (1.0 + p.norm());
        let lam = if is_real { c64::new(p.re, 0.0) } else { p };
        let group: Vec<usize> = (h..n).filter(|&k| !done[k] && same(poles[k], p)).collect();
        if group.len() > r {
            return Err(ControlError::InvalidPoles {
                reason: format!("pole {p} requested {} times but only {r} inputs: the closed loop would be defective", group.len()),
            });
        }
        // null space: the last r right singular vectors (rank n by controllability);
        // real for a real pole, so the gain stays real
        let null: Vec<Vec<c64>> = if is_real {
            let Gr = Mat::from_fn(n, n + r, |i, j| {
                if j < n {
                    A[(i, j)] - if i == j { lam.re } else { 0.0 }
                } else {
                    B[(i, j - n)]
                }
            });
            let (_, V) = svd_full("[A − λI, B]", Gr.as_ref())?;
            (n..n + r)
                .map(|j| (0..n + r).map(|i| c64::new(V[(i, j)], 0.0)).collect())
                .collect()
        } else {
            let G = gamma(A, B, lam);
            let (_, V) = svd_complex_full("[A − λI, B]", G.as_ref())?;
            (n..n + r)
                .map(|j| (0..n + r).map(|i| V[(i, j)]).collect())
                .collect()
        };
        for (q, &k) in group.iter().enumerate() {
            let v: Vec<c64> = if group.len() == 1 {
                // generic combination c = (1, 1/2, 1/3, …)
                (0..n + r)
                    .map(|i| {
                        null.iter()
                            .enumerate()
                            .map(|(j, nv)| nv[i] / (j + 1) as f64)
                            .sum()
                    })
                    .collect()
            } else {
                null[q].clone()
            };
            phi_bar.push(v[..n].to_vec());
            phi_dbl.push(v[n..].to_vec());
            done[k] = true;
            if !is_real {
                // matching conjugate pole gets the conjugate vector
                let kc = (0..n)
                    .find(|&j| !done[j] && same(poles[j], p.conj()))
                    .ok_or_else(|| ControlError::InvalidPoles {
                        reason: format!("complex pole {p} has no matching conjugate"),
                    })?;
                phi_bar.push(v[..n].iter().map(|x| x.conj()).collect());
                phi_dbl.push(v[n..].iter().map(|x| x.conj()).collect());
                done[kc] = true;
            }
        }
    }
    let Pb = Mat::from_fn(n, n, |i, j| phi_bar[j][i]);
    let Pd = Mat::from_fn(r, n, |i, j| phi_dbl[j][i]);
    // F Φ̄ = Φ̿  ⇔  Φ̄ᵀ Fᵀ = Φ̿ᵀ
    let Ft = solve_complex(
        "closed-loop eigenvector matrix Φ̄",
        Pb.transpose().to_owned().as_ref(),
        Pd.transpose().to_owned().as_ref(),
    )?;
    let F = Ft.transpose().to_owned();
    let fim = max_imag(F.as_ref());
    let fre = real_part(F.as_ref());
    if fim > 1e-8 * fre.norm_l2().max(1.0) {
        return Err(ControlError::InvalidPoles {
            reason: format!("gain has an imaginary part {fim:.3e}: conjugate pairing failed"),
        });
    }
    Ok(fre)
}

/// Observer gain `G` (`n × m`) such that `A + GC` has the eigenvalues `poles`
/// (thesis convention: observer `ẑ⁺ = Aẑ + Bu − G(y − ŷ)`).
pub fn place_observer_poles(
    A: MatRef<'_, f64>,
    C: MatRef<'_, f64>,
    poles: &[c64],
) -> Result<Mat<f64>> {
    let At = A.transpose().to_owned();
    let Ct = C.transpose().to_owned();
    let F = place_poles(At.as_ref(), Ct.as_ref(), poles).map_err(|e| match e {
        ControlError::Uncontrollable { re, im, ratio } => {
            ControlError::Unobservable { re, im, ratio }
        }
        other => other,
    })?;
    Ok(F.transpose().to_owned())
}
