//! Errors of the multibody layer. Every variant names the offending body, port or joint,
//! so that a model file can be fixed from the message alone.
use phlex_core::geometry::{InertiaError, InertiaTensor, Mat3};
use phlex_core::CoreError;
use phlex_fem::FemError;
use phlex_solve::SolveError;
use thiserror::Error;

/// An error raised while building, initialising or simulating a multibody system.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum MbsError {
    /// A body parameter violates its admissible range.
    #[error("body '{body}': parameter '{parameter}' = {value} must satisfy {requirement}")]
    InvalidBodyParameter {
        /// Body name.
        body: String,
        /// Parameter name, e.g. `"mass"`, `"length"`, `"EI"`.
        parameter: String,
        /// Value given.
        value: f64,
        /// The inequality that failed, e.g. `"mass > 0"`.
        requirement: String,
    },
    /// An inertia tensor violates the admissibility rule of
    /// [`phlex_core::geometry::inertia`] (symmetric, positive semidefinite, triangle
    /// inequalities of the principal moments).
    #[error("body '{body}': parameter '{parameter}': inertia tensor {source}")]
    InvalidInertia {
        /// Body name.
        body: String,
        /// Parameter name, e.g. `"inertia"`, `"lumped inertia at 'tip'"`.
        parameter: String,
        /// The condition that failed, with the values.
        source: InertiaError,
    },
    /// A floating flexible body without a deformation boundary condition (paper 000
    /// Remark 8): the deformation field would contain the rigid motion and the mass
    /// operator would be singular.
    #[error("body '{body}': no deformation boundary condition; the floating-frame mass operator is singular without one (paper 000 Remark 8). Choose `cantilever` or `simply_supported`")]
    MissingDeformationBc {
        /// Body name.
        body: String,
    },
    /// A joint or load refers to a body that does not exist.
    #[error("{context}: unknown body '{body}'; bodies: {available}")]
    UnknownBody {
        /// The joint or load naming the body, e.g. `"joint 'hinge'"`.
        context: String,
        /// Name asked for.
        body: String,
        /// Comma separated list of the bodies that exist (and `ground`).
        available: String,
    },
    /// A joint or load refers to a port that the body does not have.
    #[error("{context}: body '{body}' has no port '{port}'; its ports: {available}")]
    UnknownPort {
        /// The joint or load naming the port.
        context: String,
        /// Body name.
        body: String,
        /// Port asked for.
        port: String,
        /// Comma separated list of the ports of the body.
        available: String,
    },
    /// Two bodies, joints, loads or ports share a name.
    #[error("duplicate {what} name '{name}'")]
    DuplicateName {
        /// `"body"`, `"joint"`, `"load"`, `"port"`.
        what: String,
        /// The name.
        name: String,
    },
    /// A joint is not admissible (e.g. a slider between two moving bodies, a joint of a
    /// body with itself, a zero slider direction).
    #[error("joint '{joint}': {reason}")]
    InvalidJoint {
        /// Joint name.
        joint: String,
        /// What is wrong.
        reason: String,
    },
    /// A force element is not admissible (a negative stiffness or damping, coinciding
    /// points).
    #[error("force element '{element}': {reason}")]
    InvalidForceElement {
        /// Element name.
        element: String,
        /// What is wrong.
        reason: String,
    },
    /// The constraint Jacobian is rank deficient: some joint constraints are redundant.
    #[error("redundant constraints: {rank_deficiency} constraint equation(s) are linearly dependent (rank {rank} of {rows} rows); redundant rows: {details}. If the mechanism is consistent (it moves although over-constrained, e.g. Bricard's), release these rows: `[initial] redundant_constraints = \"remove\"` in a model file, `remove_redundant_constraints(true)` on a builder; otherwise remove one of the joints or replace it by one with fewer constraints (e.g. a weld by a revolute)")]
    RedundantConstraints {
        /// Number of dependent rows.
        rank_deficiency: usize,
        /// Numerical rank.
        rank: usize,
        /// Number of constraint rows.
        rows: usize,
        /// Each redundant row with the rows it is a combination of, e.g.
        /// `"hinge_b[x] = combination of {hinge_a[x]}"`.
        details: String,
        /// The joints involved (deduplicated), for programmatic use.
        joints: Vec<String>,
    },
    /// The initial configuration violates the position-level constraints after the
    /// kinematic solve (or the solve did not converge).
    #[error("inconsistent initial conditions: joint '{joint}' violates its {level} constraint by {residual:.3e} (tolerance {tol:.3e}){hint}")]
    InconsistentInitialConditions {
        /// Worst joint.
        joint: String,
        /// `"position"` or `"velocity"`.
        level: String,
        /// Its constraint violation (max norm).
        residual: f64,
        /// Tolerance used.
        tol: f64,
        /// Suggestion appended to the message.
        hint: String,
    },
    /// A state or input vector has the wrong length.
    #[error("dimension mismatch in {what}: expected {expected}, found {found}")]
    Dimension {
        /// What was checked.
        what: String,
        /// Expected length.
        expected: usize,
        /// Length found.
        found: usize,
    },
    /// A name given to a query (body, joint, port) is unknown.
    #[error("unknown {what} '{name}'; available: {available}")]
    UnknownName {
        /// `"body"`, `"joint"`, `"port"`.
        what: String,
        /// The name.
        name: String,
        /// What exists.
        available: String,
    },
    /// Error from the finite element layer while discretizing a flexible body.
    #[error("body '{body}': {source}")]
    Fem {
        /// Body name.
        body: String,
        /// Underlying error.
        source: FemError,
    },
    /// Error from the pH core.
    #[error(transparent)]
    Core(#[from] CoreError),
    /// Numerical failure of a solver (Newton, integrator, eigen-solver).
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// `Ok(())` if `value > 0` and finite, otherwise [`MbsError::InvalidBodyParameter`].
pub(crate) fn require_positive(body: &str, parameter: &str, value: f64) -> Result<(), MbsError> {
    if value > 0.0 && value.is_finite() {
        Ok(())
    } else {
        Err(MbsError::InvalidBodyParameter {
            body: body.into(),
            parameter: parameter.into(),
            value,
            requirement: format!("0 < {parameter} < inf"),
        })
    }
}

/// `Ok(())` if `value >= 0` and finite, otherwise [`MbsError::InvalidBodyParameter`].
pub(crate) fn require_non_negative(
    body: &str,
    parameter: &str,
    value: f64,
) -> Result<(), MbsError> {
    if value >= 0.0 && value.is_finite() {
        Ok(())
    } else {
        Err(MbsError::InvalidBodyParameter {
            body: body.into(),
            parameter: parameter.into(),
            value,
            requirement: format!("0 <= {parameter} < inf"),
        })
    }
}

/// `Ok(())` if `value` is finite, otherwise [`MbsError::InvalidBodyParameter`].
pub(crate) fn require_finite(body: &str, parameter: &str, value: f64) -> Result<(), MbsError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(MbsError::InvalidBodyParameter {
            body: body.into(),
            parameter: parameter.into(),
            value,
            requirement: format!("{parameter} finite"),
        })
    }
}

/// The inertia tensor `J` checked by the one rule of [`phlex_core::geometry::inertia`],
/// otherwise [`MbsError::InvalidInertia`] naming the body and the parameter.
pub(crate) fn require_inertia(
    body: &str,
    parameter: &str,
    J: &Mat3,
) -> Result<InertiaTensor, MbsError> {
    InertiaTensor::new(J).map_err(|source| MbsError::InvalidInertia {
        body: body.into(),
        parameter: parameter.into(),
        source,
    })
}

/// `Ok(())` if a vector has the `expected` length, otherwise [`MbsError::Dimension`]
/// naming `what` was checked.
pub(crate) fn require_len(what: &str, expected: usize, found: usize) -> Result<(), MbsError> {
    if found == expected {
        Ok(())
    } else {
        Err(MbsError::Dimension {
            what: what.into(),
            expected,
            found,
        })
    }
}

/// [`MbsError::UnknownPort`]: `port` of body `body`, asked for by `context`, is not one of
/// the body's ports `available`.
pub(crate) fn unknown_port<'a>(
    context: String,
    body: &str,
    port: &str,
    available: impl IntoIterator<Item = &'a str>,
) -> MbsError {
    MbsError::UnknownPort {
        context,
        body: body.into(),
        port: port.into(),
        available: available.into_iter().collect::<Vec<_>>().join(", "),
    }
}

/// `Ok(())` if the port names of body `body` are distinct, otherwise
/// [`MbsError::DuplicateName`] naming the first repeated one as `body.port`.
pub(crate) fn require_unique_ports<'a>(
    body: &str,
    ports: impl IntoIterator<Item = &'a str>,
) -> Result<(), MbsError> {
    let mut seen = std::collections::HashSet::new();
    for p in ports {
        if !seen.insert(p) {
            return Err(MbsError::DuplicateName {
                what: "port".into(),
                name: format!("{body}.{p}"),
            });
        }
    }
    Ok(())
}
