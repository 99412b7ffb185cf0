//! Markov parameters (thesis 002 §3.4, eqs. (3.38)–(3.47)).
//!
//! `Y₀ = D`, `Y_k = C A^{k−1} B`; the response of a system at rest is
//! `y(k) = Σ_{j=0}^{k} Y_j u(k−j)`. They are the unit-pulse response: the
//! response to a pulse on input `j` is column `j` of every `Y_k`.

use crate::error::{dim_err, ControlError, Result};
use crate::linalg::{default_pinv_rtol, pinv};
use faer::{Mat, MatRef};

/// Markov parameters from pulse responses: `pulse[j]` is the `m × l` output
/// record for a unit pulse on input `j` at sample 0 (system at rest).
/// Returns `Y₀ … Y_{l−1}`.
pub fn from_pulse_responses(pulse: &[MatRef<'_, f64>]) -> Result<Vec<Mat<f64>>> {
    let r = pulse.len();
    if r == 0 {
        return Err(ControlError::NotEnoughData {
            what: "pulse responses (inputs)".into(),
            needed: 1,
            available: 0,
        });
    }
    let (m, l) = (pulse[0].nrows(), pulse[0].ncols());
    for (j, p) in pulse.iter().enumerate() {
        if p.nrows() != m || p.ncols() != l {
            return Err(dim_err(
                &format!("pulse response {j}"),
                m,
                l,
                p.nrows(),
                p.ncols(),
            ));
        }
    }
    Ok((0..l)
        .map(|k| Mat::from_fn(m, r, |i, j| pulse[j][(i, k)]))
        .collect())
}

/// Least-squares Markov parameters `[Y₀ … Y_p] = y U⁺` from arbitrary
/// input/output data of a system at rest (`U` is the block-Toeplitz matrix of
/// shifted inputs, zero before `k = 0`). Valid when `A^{p+1} ≈ 0`; for lightly
/// damped systems use [`crate::identify::okid`] instead.
pub fn least_squares(u: MatRef<'_, f64>, y: MatRef<'_, f64>, p: usize) -> Result<Vec<Mat<f64>>> {
    let (r, l) = (u.nrows(), u.ncols());
    let m = y.nrows();
    if y.ncols() != l {
        return Err(dim_err("y", m, l, m, y.ncols()));
    }
    let rows = r * (p + 1);
    if l < rows {
        return Err(ControlError::NotEnoughData {
            what: format!("least-squares Markov parameters with p = {p}"),
            needed: rows,
            available: l,
        });
    }
    let U = Mat::from_fn(rows, l, |i, k| {
        let (blk, ch) = (i / r, i % r);
        if k >= blk {
            u[(ch, k - blk)]
        } else {
            0.0
        }
    });
    let Ui = pinv(
        "input Toeplitz matrix",
        U.as_ref(),
        default_pinv_rtol(U.as_ref()),
    )?;
    let L = y * &Ui;
    Ok((0..=p)
        .map(|j| L.as_ref().subcols(j * r, r).to_owned())
        .collect())
}
