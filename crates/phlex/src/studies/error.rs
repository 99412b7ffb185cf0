//! Errors of the validation studies.
use phlex_core::CoreError;
use phlex_fem::FemError;
use phlex_solve::SolveError;
use thiserror::Error;

/// An error raised while setting up or running a study. Every variant names the offending
/// item.
#[derive(Debug, Error)]
pub enum StudyError {
    /// A study parameter is out of range.
    #[error("invalid study parameter '{name}' = {value}: must satisfy {requirement}")]
    Parameter {
        /// Parameter name, e.g. `"inv_h[2]"`, `"t_final"`.
        name: String,
        /// The value given (counts converted to `f64`).
        value: f64,
        /// The inequality that failed.
        requirement: String,
    },
    /// The built model does not have the structure the study relies on.
    #[error("model '{model}': {reason}")]
    Model {
        /// Model name.
        model: String,
        /// What is missing or unexpected.
        reason: String,
    },
    /// Finite element layer.
    #[error(transparent)]
    Fem(#[from] FemError),
    /// Time integration.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// pH core (ports, blocks).
    #[error(transparent)]
    Core(#[from] CoreError),
}

/// `Ok` if `value` is finite and `> 0`, else [`StudyError::Parameter`].
pub(crate) fn require_positive(name: &str, value: f64) -> Result<(), StudyError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(StudyError::Parameter {
            name: name.into(),
            value,
            requirement: format!("{name} > 0 and finite"),
        })
    }
}
