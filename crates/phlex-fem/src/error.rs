//! Errors of the finite element layer: [`FemError`] (1D meshes, elements, spaces, models)
//! and [`Fem2dError`] (2D and 3D meshes, spaces, assembly, plate and continuum models).
//! Every variant names the offending parameter or item.
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

/// Errors of the 2D finite element layer (meshes, spaces, assembly, plate models).
#[derive(Debug, Error, Clone, PartialEq)]
pub enum Fem2dError {
    /// A triangle with non-positive signed area (clockwise or degenerate).
    #[error("triangle {index} (vertices {vertices:?}) is inverted or degenerate: signed area {area:e} <= 0")]
    InvertedTriangle {
        /// Triangle index.
        index: usize,
        /// Its vertex indices.
        vertices: [usize; 3],
        /// Signed area.
        area: f64,
    },
    /// A triangle references a vertex that does not exist, or repeats a vertex.
    #[error("triangle {index} has invalid vertex list {vertices:?} (mesh has {n_vertices} vertices; vertices must be distinct)")]
    BadTriangle {
        /// Triangle index.
        index: usize,
        /// Its vertex indices.
        vertices: [usize; 3],
        /// Number of vertices of the mesh.
        n_vertices: usize,
    },
    /// An edge is shared by more than two triangles (not a manifold mesh).
    #[error("edge ({a}, {b}) is shared by more than two triangles")]
    NonManifoldEdge {
        /// First vertex.
        a: usize,
        /// Second vertex.
        b: usize,
    },
    /// A vertex coordinate is not finite.
    #[error("vertex {index} has a non-finite coordinate {coords:?}")]
    BadVertex {
        /// Vertex index.
        index: usize,
        /// Its coordinates.
        coords: [f64; 2],
    },
    /// A boundary tag referenced by a model or a space does not exist.
    #[error("unknown boundary tag '{tag}'; available tags: {available}")]
    UnknownTag {
        /// The tag asked for.
        tag: String,
        /// Comma separated list of the mesh's tags.
        available: String,
    },
    /// A boundary tag selects no edge.
    #[error("boundary tag '{tag}' selects no boundary edge")]
    EmptyTag {
        /// The tag.
        tag: String,
    },
    /// A strong (DOF) boundary condition was asked of a discontinuous space.
    #[error("space {space} is discontinuous: it has no boundary DOFs (impose the condition on a CG field or weakly)")]
    NotContinuous {
        /// Description of the space.
        space: String,
    },
    /// A point lies outside every triangle of the mesh.
    #[error("point {x:?} lies outside the mesh")]
    PointOutsideMesh {
        /// The point.
        x: [f64; 2],
    },
    /// A point lies outside every tetrahedron of a 3D mesh.
    #[error("point {x:?} lies outside the 3D mesh")]
    PointOutside3d {
        /// The point.
        x: [f64; 3],
    },
    /// An error of the finite element layer (parameters, degrees, lengths).
    #[error(transparent)]
    Fem(#[from] FemError),
    /// An error of the pH core.
    #[error(transparent)]
    Core(#[from] CoreError),
}

/// Checks `lo <= degree <= hi`, else [`FemError::UnsupportedDegree`] naming `what` (e.g.
/// `"HHJ Kirchhoff degree k"`) and the supported range `"lo..=hi"`.
pub(crate) fn require_degree(
    what: &str,
    degree: usize,
    range: std::ops::RangeInclusive<usize>,
) -> Result<(), FemError> {
    if range.contains(&degree) {
        Ok(())
    } else {
        Err(FemError::UnsupportedDegree {
            what: what.into(),
            degree,
            supported: format!("{}..={}", range.start(), range.end()),
        })
    }
}

/// The value named `name` in `items`; an error names it as `what` (e.g. `"boundary port"`)
/// and lists the names available.
pub(crate) fn find_named<'a, T>(
    items: &'a [(String, T)],
    name: &str,
    what: &str,
) -> Result<&'a T, FemError> {
    items
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
        .ok_or_else(|| FemError::InvalidParameter {
            name: format!("{what} '{name}'"),
            value: 0.0,
            requirement: format!(
                "one of the model's {what}s: {}",
                join_names(items.iter().map(|i| i.0.as_str()))
            ),
        })
}

/// The comma-separated list `"a, b, c"` of `items` (the alternatives named by an error).
pub(crate) fn join_names<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks the count `value >= min`, else [`FemError::InvalidParameter`] naming `name`.
pub(crate) fn require_count(name: &str, value: usize, min: usize) -> Result<(), FemError> {
    if value >= min {
        Ok(())
    } else {
        Err(FemError::InvalidParameter {
            name: name.into(),
            value: value as f64,
            requirement: format!("{name} >= {min}"),
        })
    }
}

/// Checks that `what` has length `expected`, else [`FemError::Length`] naming it.
pub(crate) fn require_len(what: &str, expected: usize, found: usize) -> Result<(), FemError> {
    if found == expected {
        Ok(())
    } else {
        Err(FemError::Length {
            what: what.into(),
            expected,
            found,
        })
    }
}

/// Checks Poisson's ratio $-1 < \nu < \tfrac12$ (positive definite isotropic elasticity),
/// else [`FemError::InvalidParameter`] naming `nu`.
pub(crate) fn require_poisson(nu: f64) -> Result<(), FemError> {
    if nu > -1.0 && nu < 0.5 {
        Ok(())
    } else {
        Err(FemError::InvalidParameter {
            name: "nu".into(),
            value: nu,
            requirement: "-1 < nu < 0.5".into(),
        })
    }
}

/// Checks the data of a heat equation (thesis 004 §5.1.1): volumetric heat capacity $C$,
/// conductivity $k$ and reference temperature $T_0$ positive and finite (errors name them
/// `heat_capacity`, `conductivity`, `t0`).
pub(crate) fn require_thermal(
    heat_capacity: f64,
    conductivity: f64,
    t0: f64,
) -> Result<(), FemError> {
    require_positive("heat_capacity", heat_capacity)?;
    require_positive("conductivity", conductivity)?;
    require_positive("t0", t0)
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
