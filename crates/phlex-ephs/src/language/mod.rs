//! The EPHS modelling language (syntax): quantities, interfaces, interconnection patterns,
//! primitive components, composite systems and flattening (seed 001 §2).
pub mod flatten;
pub mod interface;
pub mod operators;
pub mod pattern;
pub mod primitive;
pub mod quantity;
pub mod space;
pub mod svg;
pub mod system;

pub use flatten::{flatten, FlatSystem};
pub use interface::{Interface, PortDecl, PortKind};
pub use operators::{
    ConstantMatrix, ConstraintOperator, Energy, FnEnergy, MatrixFn, OnsagerOperator,
    PoissonOperator, QuadraticEnergy, TransformerOperator, ZeroEnergy,
};
pub use pattern::{InnerBox, Junction, OuterPort, Pattern};
pub use primitive::{Dirac, Primitive, PrimitiveKind};
pub use quantity::Quantity;
pub use space::{Group, Space};
pub use svg::pattern_svg;
pub use system::{Composite, Filling, System};
