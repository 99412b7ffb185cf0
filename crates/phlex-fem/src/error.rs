//! Errors of the finite element layer. Every variant names the offending parameter or item.
use phlex_core::CoreError;
use thiserror::Error;

/// An error raised while building meshes, spaces, matrices or PFEM models.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum FemError {
    /// A scalar parameter violates its admissible range.
    #[error("invalid parameter '{name}' = {value}: must satisfy {requirement}")]
    InvalidParameter {
        /// Name of the parameter, e.g. `"EI"`, `"length"`, `"n_elements"`, `"nodes[3]"`.
        name: String,
        /// Value that was given (counts are converted to `f64`).
        value: f64,
        /// The inequality that failed, e.g. `"EI > 0"`.
        requirement: String,
    },
    /// A polynomial degree (or quadrature size) outside the supported range.
    #[error("unsupported {what} {degree}: supported range is {supported}")]
    UnsupportedDegree {
        /// What the degree refers to, e.g. `"CG degree"`.
        what: String,
        /// The degree asked for.
        degree: usize,
        /// Human readable supported range, e.g. `"1..=3"`.
        supported: String,
    },
    /// A point lies outside the mesh.
    #[error("point x = {x} lies outside the mesh [{a}, {b}]")]
    PointOutsideMesh {
        /// The point.
        x: f64,
        /// Left end of the mesh.
        a: f64,
        /// Right end of the mesh.
        b: f64,
    },
    /// Two spaces that must share a mesh do not.
    #[error("spaces '{a}' and '{b}' are defined on different meshes")]
    MeshMismatch {
        /// Description of the first space.
        a: String,
        /// Description of the second space.
        b: String,
    },
    /// A field is not available in a model.
    #[error("field {field} is not available in model '{model}'; available: {available}")]
    UnknownField {
        /// The field asked for.
        field: String,
        /// The model.
        model: String,
        /// Comma separated list of the fields the model provides.
        available: String,
    },
    /// A field can be probed but not projected (it is a derivative of a primary field).
    #[error("field {field} of model '{model}' is derived from {base}; set {base} instead")]
    DerivedField {
        /// The derived field.
        field: String,
        /// The model.
        model: String,
        /// The primary field it is computed from.
        base: String,
    },
    /// A boundary condition cannot be imposed as requested.
    #[error("boundary condition at the {end} end ({component}): {reason}")]
    BoundaryCondition {
        /// `"left"` or `"right"`.
        end: String,
        /// `"translation"` or `"rotation"`.
        component: String,
        /// Why it failed and what to use instead.
        reason: String,
    },
    /// A vector has the wrong length.
    #[error("length mismatch for {what}: expected {expected}, found {found}")]
    Length {
        /// What vector.
        what: String,
        /// Expected length.
        expected: usize,
        /// Length found.
        found: usize,
    },
    /// A linear solve failed (singular mass matrix, ...).
    #[error("linear algebra failure in {0}")]
    LinAlg(String),
    /// An error of the pH core (ports, blocks, interconnection).
    #[error(transparent)]
    Core(#[from] CoreError),
}

/// Checks `value > 0` and finite, else [`FemError::InvalidParameter`] naming `name`.
pub(crate) fn require_positive(name: &str, value: f64) -> Result<(), FemError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(FemError::InvalidParameter {
            name: name.into(),
            value,
            requirement: format!("{name} > 0 and finite"),
        })
    }
}
