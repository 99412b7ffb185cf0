//! N4SID subspace identification (Van Overschee & De Moor, *Subspace
//! Identification for Linear Systems*, Kluwer 1996, §4.3 "Algorithm 1");
//! thesis 002 §5.5 uses the MATLAB implementation (order 6, `D̂ = 0`) next to
//! ERA/DC-OKID (summary §3.7: cited, not derived).
//!
//! With `i` block rows and `j = l − 2i + 1` columns, the block Hankel
//! matrices of the past and future inputs and outputs are
//! `U_p = U_{0|i−1}`, `U_f = U_{i|2i−1}`, `Y_p`, `Y_f`, and `W_p = [U_p; Y_p]`.
//!
//! 1. **Oblique projection** of the future outputs along the future inputs
//!    onto the past: `O_i = Y_f /_{U_f} W_p = (Y_f/U_f^⊥)(W_p/U_f^⊥)^† W_p`
//!    (`A/B = A B^† B`, `A/B^⊥ = A − A/B`). For noise-free data (and
//!    asymptotically with white noise) `O_i = Γ_i X̂_i`, the extended
//!    observability matrix times the Kalman state sequence.
//! 2. **Order** from the SVD `O_i = U S Vᵀ` (the `n` significant singular
//!    values; [`crate::identify::era::select_order`] or fixed), `Γ_i = U_n S_n^{1/2}`.
//! 3. **States** `X_i = Γ_i^† O_i` and, shifting the past/future border by
//!    one block, `X_{i+1} = Γ_{i−1}^† O_{i−1}` with
//!    `O_{i−1} = Y_f⁻ /_{U_f⁻} W_p⁺` (`Γ_{i−1}` = `Γ_i` without its last
//!    block row).
//! 4. **Least squares** `[X_{i+1}; Y_{i|i}] = [[A, B], [C, D]] [X_i; U_{i|i}] + ρ`.
//!
//! All row-space operations are carried out on the `L` factor of the LQ
//! decomposition `[U; Y] = L Qᵀ` of the stacked Hankel matrix (the rows of
//! `L` are the coordinates of the data rows in the orthonormal basis `Qᵀ`,
//! so projections and inner products are unchanged and the cost no longer
//! grows with `j`). Pseudo-inverses drop singular values below
//! `rtol · σ_max` (noise-free data make `W_p/U_f^⊥` rank deficient: rank
//! `n + r i` instead of `(r + m) i`).

use crate::error::{ControlError, Result};
use crate::identify::era::{order_from_gap, select_order, Order, Realization};
use crate::identify::records::check_records;
use crate::linalg::{pinv, svd, vstack};
use crate::model::state_space::StateSpace;
use faer::{Mat, MatRef};

/// Settings of [`n4sid`].
#[derive(Clone, Debug)]
pub struct N4sidParams {
    /// block rows `i` of the Hankel matrices (`i m > n`, `i ≥ 2`)
    pub block_rows: usize,
    /// model order: fixed, or automatic from the singular values of `O_i`
    pub order: Order,
    /// relative cut-off of the pseudo-inverses
    pub rtol: f64,
}

impl N4sidParams {
    /// `i` block rows, automatic order up to `max_order`, `rtol = 1e-10`.
    pub fn new(block_rows: usize, max_order: usize) -> Self {
        Self {
            block_rows,
            order: Order::Auto { max: max_order },
            rtol: 1e-10,
        }
    }
}

/// Result of [`n4sid`].
#[derive(Clone, Debug)]
pub struct N4sidResult {
    /// identified discrete model, singular values of `O_i`, order
    pub realization: Realization,
    /// covariance of the least-squares residuals `ρ ρᵀ / j` (states, then outputs)
    pub residual_covariance: Mat<f64>,
    /// columns `j` of the Hankel matrices
    pub columns: usize,
}

fn rows(L: MatRef<'_, f64>, r0: usize, n: usize) -> Mat<f64> {
    L.subrows(r0, n).to_owned()
}

/// `A/B = A B^† B`.
fn project(A: MatRef<'_, f64>, B: MatRef<'_, f64>, rtol: f64) -> Result<Mat<f64>> {
    let Bp = pinv("N4SID projection", B, rtol)?;
    Ok(A * (&Bp * B))
}

/// `A/B^⊥ = A − A/B`.
fn project_perp(A: MatRef<'_, f64>, B: MatRef<'_, f64>, rtol: f64) -> Result<Mat<f64>> {
    Ok(A - project(A, B, rtol)?)
}

/// Oblique projection `A /_B C = (A/B^⊥)(C/B^⊥)^† C`.
fn oblique(
    A: MatRef<'_, f64>,
    B: MatRef<'_, f64>,
    C: MatRef<'_, f64>,
    rtol: f64,
) -> Result<Mat<f64>> {
    let Ap = project_perp(A, B, rtol)?;
    let Cp = project_perp(C, B, rtol)?;
    let Cpi = pinv("N4SID oblique projection", Cp.as_ref(), rtol)?;
    Ok(&Ap * (&Cpi * C))
}

/// N4SID identification from `u` (`r × l`) and `y` (`m × l`) sampled at `dt`.
pub fn n4sid(
    u: MatRef<'_, f64>,
    y: MatRef<'_, f64>,
    dt: f64,
    p: &N4sidParams,
) -> Result<N4sidResult> {
    let (r, m, l) = check_records(u, y, dt)?;
    let i = p.block_rows;
    let n_max = p.order.largest()?;
    if i < 2 || i * m <= n_max {
        return Err(ControlError::InvalidParameter {
            name: "block_rows".into(),
            reason: format!(
                "N4SID needs i ≥ 2 and i·m > n: i = {i}, m = {m}, n ≤ {n_max} (use i ≥ {})",
                (n_max / m + 1).max(2)
            ),
        });
    }
    if !(p.rtol > 0.0 && p.rtol < 1.0) {
        return Err(ControlError::InvalidParameter {
            name: "rtol".into(),
            reason: format!("must satisfy 0 < rtol < 1, got {}", p.rtol),
        });
    }
    let prows = 2 * i * (r + m);
    // at least as many columns as rows, twice for the least squares to be overdetermined
    let needed = 2 * i - 1 + 2 * prows;
    if l < needed {
        return Err(ControlError::NotEnoughData {
            what: format!("N4SID with i = {i} block rows (r = {r}, m = {m})"),
            needed,
            available: l,
        });
    }
    for (name, X) in [("u", u), ("y", y)] {
        crate::linalg::check_finite(name, X)?;
    }
    let j = l - 2 * i + 1;
    // Hᵀ (j × prows): rows of H = [U_{0|2i−1}; Y_{0|2i−1}]
    let Ht = Mat::from_fn(j, prows, |c, row| {
        if row < 2 * i * r {
            let (k, a) = (row / r, row % r);
            u[(a, k + c)]
        } else {
            let row = row - 2 * i * r;
            let (k, a) = (row / m, row % m);
            y[(a, k + c)]
        }
    });
    let qr = Ht.qr();
    let L = qr.thin_R().transpose().to_owned(); // prows × prows, H = L Qᵀ
    let L = L.as_ref();
    let urow = |k0: usize, nb: usize| rows(L, k0 * r, nb * r);
    let yrow = |k0: usize, nb: usize| rows(L, 2 * i * r + k0 * m, nb * m);
    let rtol = p.rtol;
    // O_i
    let Wp = vstack(&[urow(0, i).as_ref(), yrow(0, i).as_ref()]);
    let Oi = oblique(yrow(i, i).as_ref(), urow(i, i).as_ref(), Wp.as_ref(), rtol)?;
    // O_{i−1}
    let Wp1 = vstack(&[urow(0, i + 1).as_ref(), yrow(0, i + 1).as_ref()]);
    let Oi1 = oblique(
        yrow(i + 1, i - 1).as_ref(),
        urow(i + 1, i - 1).as_ref(),
        Wp1.as_ref(),
        rtol,
    )?;
    let sv = svd("oblique projection O_i", Oi.as_ref())?;
    let n = match p.order {
        Order::Fixed(n) => n,
        Order::Auto { max } => {
            let k = select_order(&sv.s, max);
            if k == 0 {
                order_from_gap(&sv.s, max)
            } else {
                k
            }
        }
    };
    if n == 0 || n > sv.s.len() || sv.s[n - 1] <= 0.0 {
        return Err(ControlError::NotEnoughData {
            what: format!("N4SID order {n}: nonzero singular values of O_i"),
            needed: n,
            available: sv.s.iter().filter(|s| **s > 0.0).count(),
        });
    }
    let Gi = Mat::from_fn(i * m, n, |a, b| sv.U[(a, b)] * sv.s[b].sqrt());
    let Gi1 = Gi.as_ref().subrows(0, (i - 1) * m).to_owned();
    let Xi = pinv("Γ_i", Gi.as_ref(), rtol)? * &Oi;
    let Xi1 = pinv("Γ_{i−1}", Gi1.as_ref(), rtol)? * &Oi1;
    let lhs = vstack(&[Xi1.as_ref(), yrow(i, 1).as_ref()]);
    let rhs = vstack(&[Xi.as_ref(), urow(i, 1).as_ref()]);
    let Theta = &lhs * pinv("[X_i; U_{i|i}]", rhs.as_ref(), rtol)?;
    let A = Theta.as_ref().submatrix(0, 0, n, n).to_owned();
    let B = Theta.as_ref().submatrix(0, n, n, r).to_owned();
    let C = Theta.as_ref().submatrix(n, 0, m, n).to_owned();
    let D = Theta.as_ref().submatrix(n, n, m, r).to_owned();
    let res = &lhs - &Theta * &rhs;
    let residual_covariance = faer::Scale(1.0 / j as f64) * (&res * res.transpose());
    let sys = StateSpace::new(A, B, C, D, Some(dt))?;
    Ok(N4sidResult {
        realization: Realization {
            sys,
            G: None,
            singular_values: sv.s,
            order: n,
        },
        residual_covariance,
        columns: j,
    })
}
