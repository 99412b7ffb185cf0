//! Eigensystem Realization Algorithm and its data-correlation variant
//! (thesis 002 §3.6, eqs. (3.67)–(3.78)).
//!
//! * ERA: Hankel `H(k−1) = [Y_{k+i+j}]` (`i < α`, `j < β`), SVD
//!   `H(0) = R Σ Sᵀ` truncated to `n`, `Â = Σ^{−1/2} Rₙᵀ H(1) Sₙ Σ^{−1/2}`,
//!   `B̂ = Σ^{1/2} Sₙᵀ E_r`, `Ĉ = E_mᵀ Rₙ Σ^{1/2}`, `D̂ = Y₀` (balanced realisation).
//! * ERA/DC: `Δ(k) = H(k) H(0)ᵀ`, block Hankel `H_Δ(k) = [Δ(k + (i+j)τ)]`
//!   (`i ≤ γ`, `j ≤ δ`), SVD of `H_Δ(0)`, `Â` as above with `H_Δ(1)`,
//!   `P̂_α` = first `αm` rows of `R_Δ Σ_Δ^{1/2}`, `Ĉ` its first `m` rows,
//!   `B̂` = first `r` columns of `P̂_α⁺ H(0)`.
//! * ERA/DC with OKID: the same on the combined parameters `Γ_k = [Y_k, Y⁰_k]`,
//!   whose input matrix `[B, G]` gives the realisation and the observer gain.
//!
//! The model order comes from the gap in the singular values
//! ([`select_order`], [`order_from_gap`]) or is fixed by the caller.

use crate::error::{ControlError, Result};
use crate::linalg::{hstack, pinv, svd, SvdParts};
use crate::state_space::StateSpace;
use faer::{Mat, MatRef};

/// How to choose the realisation order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Order {
    /// use exactly this many states
    Fixed(usize),
    /// last significant gap above the noise floor, see [`select_order`]
    Auto {
        /// largest order considered
        max: usize,
    },
}

/// ERA options: `α` block rows and `β` block columns of the Hankel matrix.
#[derive(Clone, Debug)]
pub struct EraParams {
    /// block rows α (needs `α m ≥ n`)
    pub alpha: usize,
    /// block columns β (needs `β r ≥ n`)
    pub beta: usize,
    /// order selection
    pub order: Order,
}

/// ERA/DC options.
#[derive(Clone, Debug)]
pub struct EraDcParams {
    /// block rows α of the data Hankel matrices `H(k)`
    pub alpha: usize,
    /// block columns β of `H(k)`
    pub beta: usize,
    /// block rows γ+1 of `H_Δ` (index 0..=γ)
    pub gamma: usize,
    /// block columns δ+1 of `H_Δ` (index 0..=δ)
    pub delta: usize,
    /// correlation shift τ ≥ 1
    pub tau: usize,
    /// order selection
    pub order: Order,
}

impl EraDcParams {
    /// Number of Markov parameters needed, `Y₀ … Y_N` with `N = α + β + (γ+δ)τ`.
    pub fn markov_needed(&self) -> usize {
        self.alpha + self.beta + (self.gamma + self.delta) * self.tau + 1
    }
}

impl EraParams {
    /// Number of Markov parameters needed, `Y₀ … Y_{α+β}`.
    pub fn markov_needed(&self) -> usize {
        self.alpha + self.beta + 1
    }
}

/// An identified realisation.
#[derive(Clone, Debug)]
pub struct Realization {
    /// the discrete model `(Â, B̂, Ĉ, D̂)`
    pub sys: StateSpace,
    /// observer gain `Ĝ` (ERA/DC with OKID only), convention `A + GC`
    pub G: Option<Mat<f64>>,
    /// singular values of the (correlation) Hankel matrix, descending
    pub singular_values: Vec<f64>,
    /// chosen order `n`
    pub order: usize,
}

/// Order from the largest singular-value gap: `argmax_{1≤n≤max} σ_n/σ_{n+1}`
/// over the values above `1e-13 σ₁` (exact-data rank drop counts as a gap).
pub fn order_from_gap(sv: &[f64], max: usize) -> usize {
    if sv.is_empty() {
        return 0;
    }
    let floor = sv[0] * 1e-13;
    let top = max.min(sv.len());
    let mut best = (1usize, 0.0f64);
    for n in 1..=top {
        let a = sv[n - 1];
        if a <= floor {
            break;
        }
        let b = if n < sv.len() {
            sv[n].max(floor)
        } else {
            floor
        };
        let ratio = a / b;
        if ratio > best.1 {
            best = (n, ratio);
        }
    }
    best.0
}

/// Gap ratio `σ_n/σ_{n+1}` that counts as a significant gap in [`select_order`].
pub const MIN_GAP_RATIO: f64 = 2.0;
/// Multiple of the noise floor a singular value must exceed in [`select_order`].
pub const FLOOR_FACTOR: f64 = 3.0;

/// Model order from the singular values of noisy data: the **last**
/// significant gap above the noise floor,
/// `n = max{k ≤ max : σ_k > 3·floor, σ_k ≥ 1e-10 σ₁, σ_k/σ_{k+1} ≥ 2}`,
/// where `floor` is the median singular value (the noise level, assuming the
/// system order is below half the Hankel rank). Falls back to
/// [`order_from_gap`] when no value qualifies.
///
/// The largest gap alone is not enough: with noise, the correlation Hankel
/// matrix of ERA/DC squares the spread between strongly and weakly excited
/// modes, so a gap *inside* the physical modes can exceed the gap to the noise.
pub fn select_order(sv: &[f64], max: usize) -> usize {
    if sv.is_empty() {
        return 0;
    }
    let mut sorted = sv.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let floor = sorted[sorted.len() / 2];
    let top = max.min(sv.len());
    let mut best = None;
    for n in 1..=top {
        let a = sv[n - 1];
        let b = if n < sv.len() { sv[n] } else { 0.0 };
        let gap = if b > 0.0 { a / b } else { f64::INFINITY };
        if a > FLOOR_FACTOR * floor && a >= 1e-10 * sv[0] && gap >= MIN_GAP_RATIO {
            best = Some(n);
        }
    }
    best.unwrap_or_else(|| order_from_gap(sv, max))
}

/// Block Hankel matrix `[blocks[start + i + j]]`, `i < rows`, `j < cols`.
pub fn block_hankel(blocks: &[Mat<f64>], start: usize, rows: usize, cols: usize) -> Mat<f64> {
    let (m, q) = (blocks[0].nrows(), blocks[0].ncols());
    Mat::from_fn(rows * m, cols * q, |i, j| {
        blocks[start + i / m + j / q][(i % m, j % q)]
    })
}

fn choose(order: Order, sv: &[f64]) -> Result<usize> {
    let n = match order {
        Order::Fixed(n) => n,
        Order::Auto { max } => select_order(sv, max),
    };
    if n == 0 || n > sv.len() {
        return Err(ControlError::InvalidParameter {
            name: "order".into(),
            reason: format!(
                "model order must satisfy 1 ≤ n ≤ {} (Hankel rank bound)",
                sv.len()
            ),
        });
    }
    if sv[n - 1] <= 0.0 {
        return Err(ControlError::InvalidParameter {
            name: "order".into(),
            reason: format!(
                "σ_{n} = 0: the data support at most {} states",
                sv.iter().filter(|s| **s > 0.0).count()
            ),
        });
    }
    Ok(n)
}

fn check_markov(markov: &[Mat<f64>], needed: usize) -> Result<(usize, usize)> {
    if markov.len() < needed {
        return Err(ControlError::NotEnoughData {
            what: "Markov parameters for the Hankel matrices".into(),
            needed,
            available: markov.len(),
        });
    }
    let (m, r) = (markov[0].nrows(), markov[0].ncols());
    for (k, y) in markov.iter().enumerate() {
        if y.nrows() != m || y.ncols() != r {
            return Err(crate::error::dim_err(
                &format!("Markov parameter {k}"),
                m,
                r,
                y.nrows(),
                y.ncols(),
            ));
        }
    }
    Ok((m, r))
}

/// `Σ^{−1/2} Rᵀ H1 S Σ^{−1/2}` and the truncated factors.
fn balanced_a(
    s: &SvdParts,
    n: usize,
    H1: MatRef<'_, f64>,
) -> (Mat<f64>, Mat<f64>, Mat<f64>, Vec<f64>) {
    let Rn = s.U.as_ref().subcols(0, n).to_owned();
    let Sn = s.V.as_ref().subcols(0, n).to_owned();
    let sq: Vec<f64> = s.s[..n].iter().map(|x| x.sqrt()).collect();
    let core = Rn.transpose() * H1 * &Sn;
    let A = Mat::from_fn(n, n, |i, j| core[(i, j)] / (sq[i] * sq[j]));
    (A, Rn, Sn, sq)
}

/// ERA from Markov parameters `Y₀ … Y_N` sampled at `dt`.
pub fn era(markov: &[Mat<f64>], dt: f64, params: &EraParams) -> Result<Realization> {
    let (m, r) = check_markov(markov, params.markov_needed())?;
    let (a, b) = (params.alpha, params.beta);
    if a == 0 || b == 0 {
        return Err(ControlError::InvalidParameter {
            name: "alpha/beta".into(),
            reason: "need α ≥ 1 and β ≥ 1".into(),
        });
    }
    let H0 = block_hankel(markov, 1, a, b);
    let H1 = block_hankel(markov, 2, a, b);
    let s = svd("ERA Hankel matrix H(0)", H0.as_ref())?;
    let n = choose(params.order, &s.s)?;
    let (A, Rn, Sn, sq) = balanced_a(&s, n, H1.as_ref());
    let B = Mat::from_fn(n, r, |i, j| sq[i] * Sn[(j, i)]);
    let C = Mat::from_fn(m, n, |i, j| Rn[(i, j)] * sq[j]);
    let sys = StateSpace::new(A, B, C, markov[0].clone(), Some(dt))?;
    Ok(Realization {
        sys,
        G: None,
        singular_values: s.s,
        order: n,
    })
}

/// `(Â, Ĉ, B̃, singular values, order)` of [`era_dc_core`].
type CoreRealization = (Mat<f64>, Mat<f64>, Mat<f64>, Vec<f64>, usize);

/// Core of ERA/DC on generic `m × q` blocks; returns `(Â, Ĉ, B̃)` with `B̃` `n × q`.
fn era_dc_core(blocks: &[Mat<f64>], params: &EraDcParams) -> Result<CoreRealization> {
    let (m, q) = (blocks[0].nrows(), blocks[0].ncols());
    let (a, b, g, d, tau) = (
        params.alpha,
        params.beta,
        params.gamma,
        params.delta,
        params.tau,
    );
    if a == 0 || b == 0 || tau == 0 {
        return Err(ControlError::InvalidParameter {
            name: "alpha/beta/tau".into(),
            reason: "need α ≥ 1, β ≥ 1, τ ≥ 1".into(),
        });
    }
    let H0 = block_hankel(blocks, 1, a, b);
    let H0t = H0.transpose().to_owned();
    // Δ(k) for k = 0 ..= (γ+δ)τ + 1
    let kmax = (g + d) * tau + 1;
    let deltas: Vec<Mat<f64>> = (0..=kmax)
        .map(|k| block_hankel(blocks, 1 + k, a, b) * &H0t)
        .collect();
    let am = a * m;
    let HD = |k: usize| {
        Mat::from_fn((g + 1) * am, (d + 1) * am, |i, j| {
            deltas[k + (i / am + j / am) * tau][(i % am, j % am)]
        })
    };
    let HD0 = HD(0);
    let HD1 = HD(1);
    let s = svd("ERA/DC correlation Hankel matrix H_Δ(0)", HD0.as_ref())?;
    let n = choose(params.order, &s.s)?;
    let (A, Rn, _Sn, sq) = balanced_a(&s, n, HD1.as_ref());
    let P = Mat::from_fn(am, n, |i, j| Rn[(i, j)] * sq[j]);
    let C = P.as_ref().subrows(0, m).to_owned();
    let Pp = pinv("observability estimate P̂_α", P.as_ref(), 1e-12)?;
    let Q = &Pp * &H0;
    let Bt = Q.as_ref().subcols(0, q).to_owned();
    Ok((A, C, Bt, s.s, n))
}

/// ERA/DC from Markov parameters `Y₀ … Y_N`.
pub fn era_dc(markov: &[Mat<f64>], dt: f64, params: &EraDcParams) -> Result<Realization> {
    check_markov(markov, params.markov_needed())?;
    let (A, C, B, sv, n) = era_dc_core(markov, params)?;
    let sys = StateSpace::new(A, B, C, markov[0].clone(), Some(dt))?;
    Ok(Realization {
        sys,
        G: None,
        singular_values: sv,
        order: n,
    })
}

/// ERA/DC with OKID: realisation and observer gain from system Markov
/// parameters `Y_k` and observer-gain Markov parameters `Y⁰_k` (same length).
pub fn era_dc_okid(
    markov: &[Mat<f64>],
    gain_markov: &[Mat<f64>],
    dt: f64,
    params: &EraDcParams,
) -> Result<Realization> {
    let (m, r) = check_markov(markov, params.markov_needed())?;
    if gain_markov.len() < markov.len().min(params.markov_needed()) {
        return Err(ControlError::NotEnoughData {
            what: "observer-gain Markov parameters".into(),
            needed: params.markov_needed(),
            available: gain_markov.len(),
        });
    }
    let count = params.markov_needed();
    let combined: Vec<Mat<f64>> = (0..count)
        .map(|k| hstack(&[markov[k].as_ref(), gain_markov[k].as_ref()]))
        .collect();
    let (A, C, Bt, sv, n) = era_dc_core(&combined, params)?;
    let B = Bt.as_ref().subcols(0, r).to_owned();
    let G = Bt.as_ref().subcols(r, m).to_owned();
    let sys = StateSpace::new(A, B, C, markov[0].clone(), Some(dt))?;
    Ok(Realization {
        sys,
        G: Some(G),
        singular_values: sv,
        order: n,
    })
}
