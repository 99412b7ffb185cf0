//! Errors of the EPHS language, its assembly and its integrators. Every variant names the
//! offending items (ports, junctions, boxes, variables).
use phlex_solve::SolveError;
use thiserror::Error;

/// An error raised while building, checking, assembling or simulating an EPHS model.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum EphsError {
    /// Two items of the same kind share a name.
    #[error("duplicate {what} name '{name}' in {context}")]
    DuplicateName {
        /// Kind of item ("port", "junction", "box", ...).
        what: String,
        /// The repeated name.
        name: String,
        /// Where ("pattern osc", "interface of pe", ...).
        context: String,
    },
    /// A name that does not exist.
    #[error("unknown {what} '{name}' in {context}; available: {available}")]
    Unknown {
        /// Kind of item.
        what: String,
        /// The name looked up.
        name: String,
        /// Where.
        context: String,
        /// Existing names, comma-separated.
        available: String,
    },
    /// A port's quantity differs from its junction's quantity.
    #[error("quantity mismatch: port '{port}' has quantity {port_quantity} but junction '{junction}' has quantity {junction_quantity}")]
    QuantityMismatch {
        /// Hierarchical port name (`box.port`).
        port: String,
        /// Quantity of the port.
        port_quantity: String,
        /// Junction name.
        junction: String,
        /// Quantity of the junction.
        junction_quantity: String,
    },
    /// A port of an inner box is not connected to any junction.
    #[error("unconnected port '{port}' of box '{box_name}' in pattern '{pattern}'")]
    UnconnectedPort {
        /// Pattern name.
        pattern: String,
        /// Box name.
        box_name: String,
        /// Port name.
        port: String,
    },
    /// A port is wired to two junctions.
    #[error("port '{port}' of box '{box_name}' in pattern '{pattern}' is connected twice")]
    PortConnectedTwice {
        /// Pattern name.
        pattern: String,
        /// Box name.
        box_name: String,
        /// Port name.
        port: String,
    },
    /// A junction carries two outer ports.
    #[error(
        "junction '{junction}' of pattern '{pattern}' already has the outer port '{existing}'"
    )]
    JunctionExposedTwice {
        /// Pattern name.
        pattern: String,
        /// Junction name.
        junction: String,
        /// Outer port already attached.
        existing: String,
    },
    /// More than one storage component (state source) at a junction.
    #[error("junction '{junction}' has more than one storage component: {storages} (at most one storage per junction)")]
    MultipleStorages {
        /// Junction name.
        junction: String,
        /// The ports of the storages, comma-separated.
        storages: String,
    },
    /// More than one port outputs the effort of a junction.
    #[error("junction '{junction}' has conflicting effort sources: {ports} (only one storage or transformer output may set a junction's effort)")]
    ConflictingEfforts {
        /// Junction name.
        junction: String,
        /// The ports, comma-separated.
        ports: String,
    },
    /// A port reads the state of a junction that has no storage and no outer port.
    #[error("undetermined state at junction '{junction}': port '{port}' reads the state but no storage component is connected")]
    UndeterminedState {
        /// Junction name.
        junction: String,
        /// Port that reads the state.
        port: String,
    },
    /// An algebraic unknown (junction effort or Lagrange multiplier) appears in no
    /// equation or the algebraic equations are singular for it.
    #[error("undetermined algebraic variable(s) {variables}: {reason}")]
    Undetermined {
        /// Variable names, comma-separated.
        variables: String,
        /// Why.
        reason: String,
    },
    /// Numbers of algebraic unknowns and equations differ.
    #[error("the assembled system has {unknowns} algebraic unknowns ({unknown_names}) but {equations} algebraic equations ({equation_names})")]
    EquationCount {
        /// Number of algebraic unknowns (scalars).
        unknowns: usize,
        /// Names of the unknowns.
        unknown_names: String,
        /// Number of algebraic equations (scalars).
        equations: usize,
        /// Names of the equations.
        equation_names: String,
    },
    /// Efforts or flows depend on each other cyclically.
    #[error("algebraic loop: cannot order the evaluation of {items}")]
    AlgebraicLoop {
        /// The values involved, comma-separated.
        items: String,
    },
    /// A filling system's interface differs from the inner box's interface.
    #[error("interface mismatch when filling box '{box_name}' of pattern '{pattern}': {detail}")]
    InterfaceMismatch {
        /// Pattern name.
        pattern: String,
        /// Box name.
        box_name: String,
        /// What differs.
        detail: String,
    },
    /// A box of a pattern has not been filled.
    #[error("box '{box_name}' of pattern '{pattern}' is not filled")]
    UnfilledBox {
        /// Pattern name.
        pattern: String,
        /// Box name.
        box_name: String,
    },
    /// A primitive component violates its defining structure (power conservation,
    /// symmetry, definiteness, energy covector).
    #[error("component '{component}' violates its structure: {detail}")]
    Structure {
        /// Component name.
        component: String,
        /// What failed, with numbers.
        detail: String,
    },
    /// A parameter is out of range.
    #[error("invalid parameter {what}: {detail}")]
    Parameter {
        /// Parameter name.
        what: String,
        /// The inequality that failed.
        detail: String,
    },
    /// Sizes disagree.
    #[error("dimension mismatch in {what}: expected {expected}, found {found}")]
    Dimension {
        /// What.
        what: String,
        /// Expected size.
        expected: usize,
        /// Size found.
        found: usize,
    },
    /// The projection onto the joints' position constraints did not converge.
    #[error("the projection onto the position constraints of the joints ({joints}) did not converge: residual {residual:.3e} after {iterations} Gauss-Newton iterations")]
    ProjectionFailed {
        /// Largest remaining residual.
        residual: f64,
        /// Iterations done.
        iterations: usize,
        /// The joints, comma-separated.
        joints: String,
    },
    /// A numerical solver failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

impl EphsError {
    /// `Unknown` with the available names listed.
    pub fn unknown<'a>(
        what: &str,
        name: &str,
        context: &str,
        available: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        EphsError::Unknown {
            what: what.into(),
            name: name.into(),
            context: context.into(),
            available: available.into_iter().collect::<Vec<_>>().join(", "),
        }
    }
}
