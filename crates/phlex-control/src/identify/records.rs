//! Sampled input/output records: the checks every identification method
//! makes before it reads the data (thesis 002 §3.4: `u` is `r × l`, `y` is
//! `m × l`, sampled with period `Δt`).

use crate::error::{ControlError, Result};
use crate::model::state_space::check_sampling_time;
use faer::MatRef;

/// Checks the records `u` (`r × l`) and `y` (`m × l`) and the sampling time
/// `Δt`; returns `(r, m, l)`. Errors name `dt`, `inputs/outputs` (no
/// channel) or `outputs` (sample count differs from the inputs').
pub fn check_records(
    u: MatRef<'_, f64>,
    y: MatRef<'_, f64>,
    dt: f64,
) -> Result<(usize, usize, usize)> {
    check_sampling_time(dt)?;
    let (r, m, l) = (u.nrows(), y.nrows(), u.ncols());
    if r == 0 || m == 0 {
        return Err(ControlError::InvalidParameter {
            name: "inputs/outputs".into(),
            reason: "need r ≥ 1 and m ≥ 1".into(),
        });
    }
    if y.ncols() != l {
        return Err(ControlError::Dimension {
            name: "outputs".into(),
            expected: format!("{l} samples"),
            got: format!("{}", y.ncols()),
        });
    }
    Ok((r, m, l))
}
