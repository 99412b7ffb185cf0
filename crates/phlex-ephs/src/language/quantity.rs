//! Quantities $(\mathcal X, \text{name})$: a state space and a physical name (seed 001 §2,
//! "quantities make interconnections well typed").
//!
//! Used quantities (summary §1.1): $(\mathbb R, \text{displacement})$,
//! $(\mathbb R, \text{momentum})$, $(\mathbb R, \text{entropy})$,
//! $(\mathfrak g^*, \text{momentum})$, $(G, \text{pose})$, $(\tilde G, \text{relative\_pose})$,
//! $(\tilde{\mathfrak g}^*, \text{momentum})$ with $G = SE(3)$.
use std::fmt;

use crate::language::space::Space;

/// A quantity: the space of values of a port state and a physical name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Quantity {
    /// Physical name, e.g. `momentum`.
    pub name: String,
    /// State space.
    pub space: Space,
}

impl Quantity {
    /// A quantity with the given name and space.
    pub fn new(name: &str, space: Space) -> Self {
        Self {
            name: name.into(),
            space,
        }
    }
    /// $(\mathbb R, \text{displacement})$.
    pub fn displacement() -> Self {
        Self::new("displacement", Space::Real(1))
    }
    /// $(\mathbb R, \text{momentum})$.
    pub fn momentum() -> Self {
        Self::new("momentum", Space::Real(1))
    }
    /// $(\mathbb R, \text{entropy})$: the thermal domain.
    pub fn entropy() -> Self {
        Self::new("entropy", Space::Real(1))
    }
    /// $(SE(3), \text{pose})$: the absolute pose of a body.
    pub fn pose() -> Self {
        Self::new("pose", Space::Group(crate::language::space::Group::Se3))
    }
    /// $(\mathfrak{se}(3)^*, \text{momentum})$: body momentum.
    pub fn body_momentum() -> Self {
        Self::new(
            "momentum",
            Space::CoAlgebra(crate::language::space::Group::Se3),
        )
    }
    /// True for the entropy quantity (ports where the Onsager energy covector carries the
    /// absolute temperature $\theta = \theta_0 + e$).
    pub fn is_entropy(&self) -> bool {
        self.name == "entropy" && self.space == Space::Real(1)
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.space, self.name)
    }
}
