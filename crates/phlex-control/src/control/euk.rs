//! Udwadia–Kalaba control and its extension to underactuated systems, EUK
//! (thesis 002 §4 / §5.7, eqs. (5.236)–(5.262)).
//!
//! The desired behaviour is written as virtual constraints
//! `A_t q̈ = b_t`; the control force is the Udwadia–Kalaba constraint force
//! `Q_c = Aᵀ(AM⁻¹Aᵀ)⁺(b − AM⁻¹Q)`. For an underactuated system the
//! uncontrolled equations of motion of the unactuated coordinates,
//! `M_U q̈ = Q_U` (rows `U` of `M q̈ = Q`), are appended as extra constraint
//! rows, which forces `Q_c[U] = 0`. `[M; A]` must have full rank; when `A`
//! is square and invertible `Q_c = M A⁻¹ b − Q`.

use crate::error::{ControlError, Result};
use crate::linalg::vstack;
use crate::model::udwadia_kalaba::{uk_acceleration, UkSolution};
use faer::{Mat, MatRef};

/// EUK control action.
#[derive(Clone, Debug)]
pub struct EukControl {
    /// generalised control force `Q_c = M q̈ − Q` (zero on unactuated coordinates)
    pub Qc: Vec<f64>,
    /// resulting acceleration
    pub qdd: Vec<f64>,
    /// residual of the task constraints `‖A_t q̈ − b_t‖∞`
    pub task_residual: f64,
    /// largest `|Q_c|` on the unactuated coordinates (≈ 0 if the task is achievable)
    pub unactuated_force: f64,
}

/// EUK control for `M q̈ = Q + Q_c` with task `A_t q̈ = b_t`; `unactuated`
/// lists the coordinates without actuator (empty: plain UK control).
pub fn euk_control(
    M: MatRef<'_, f64>,
    Q: &[f64],
    A_task: MatRef<'_, f64>,
    b_task: &[f64],
    unactuated: &[usize],
) -> Result<EukControl> {
    let n = M.nrows();
    for &u in unactuated {
        if u >= n {
            return Err(ControlError::InvalidParameter {
                name: "unactuated".into(),
                reason: format!("coordinate {u} ≥ n = {n}"),
            });
        }
    }
    let MU = Mat::from_fn(unactuated.len(), n, |i, j| M[(unactuated[i], j)]);
    let A = vstack(&[A_task, MU.as_ref()]);
    let mut b = b_task.to_vec();
    b.extend(unactuated.iter().map(|&u| Q[u]));
    let rank = crate::model::udwadia_kalaba::generalized_rank(M, A.as_ref())?;
    if rank < n {
        return Err(ControlError::InvalidParameter {
            name: "[M; A]".into(),
            reason: format!("generalised controllability matrix has rank {rank} < n = {n}"),
        });
    }
    let UkSolution { qdd, Qc, .. } = uk_acceleration(M, Q, A.as_ref(), &b)?;
    let task_residual = (0..A_task.nrows())
        .map(|i| ((0..n).map(|j| A_task[(i, j)] * qdd[j]).sum::<f64>() - b_task[i]).abs())
        .fold(0.0, f64::max);
    let unactuated_force = unactuated.iter().map(|&u| Qc[u].abs()).fold(0.0, f64::max);
    Ok(EukControl {
        Qc,
        qdd,
        task_residual,
        unactuated_force,
    })
}
