//! Interfaces $I = (P, \tau)$: a finite set of port names $P$ and
//! $\tau: P \to \mathbf Q\times\{p, s\}$ giving each port a quantity and a power/state flag
//! (seed 001 §2, definition of $I_{pe}$). The state space of an interface is the product
//! of the state spaces of its ports.
use std::fmt;

use crate::error::EphsError;
use crate::language::quantity::Quantity;

/// Power port (solid line: exchanges energy and state) or state port (dashed line: shares
/// only the state value).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PortKind {
    /// Power port: state $x$, flow $f$, effort $e$.
    Power,
    /// State port: state $x$ only.
    State,
}

impl fmt::Display for PortKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PortKind::Power => write!(f, "power"),
            PortKind::State => write!(f, "state"),
        }
    }
}

/// One port of an interface.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PortDecl {
    /// Port name.
    pub name: String,
    /// Quantity exchanged.
    pub quantity: Quantity,
    /// Power or state port.
    pub kind: PortKind,
}

/// An interface: ports with unique names, kept in declaration order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Interface {
    ports: Vec<PortDecl>,
}

impl Interface {
    /// The empty interface (an isolated system).
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a port; errors if the name is taken.
    pub fn add(&mut self, name: &str, quantity: Quantity, kind: PortKind) -> Result<(), EphsError> {
        if self.get(name).is_some() {
            return Err(EphsError::DuplicateName {
                what: "port".into(),
                name: name.into(),
                context: "interface".into(),
            });
        }
        self.ports.push(PortDecl {
            name: name.into(),
            quantity,
            kind,
        });
        Ok(())
    }
    /// Builder form of [`Interface::add`] for a power port.
    pub fn power(mut self, name: &str, quantity: Quantity) -> Result<Self, EphsError> {
        self.add(name, quantity, PortKind::Power)?;
        Ok(self)
    }
    /// Builder form of [`Interface::add`] for a state port.
    pub fn state(mut self, name: &str, quantity: Quantity) -> Result<Self, EphsError> {
        self.add(name, quantity, PortKind::State)?;
        Ok(self)
    }
    /// The ports in declaration order.
    pub fn ports(&self) -> &[PortDecl] {
        &self.ports
    }
    /// Port by name.
    pub fn get(&self, name: &str) -> Option<&PortDecl> {
        self.ports.iter().find(|p| p.name == name)
    }
    /// Index of a port.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.ports.iter().position(|p| p.name == name)
    }
    /// Number of ports.
    pub fn len(&self) -> usize {
        self.ports.len()
    }
    /// True if there are no ports.
    pub fn is_empty(&self) -> bool {
        self.ports.is_empty()
    }
    /// Port names, comma-separated (for messages).
    pub fn names(&self) -> String {
        self.ports
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
    /// Checks that `other` equals this interface up to the renaming `rename` (a port `a`
    /// of `self` corresponds to the port `rename(a)` of `other`; unlisted ports keep their
    /// name). Returns a description of the first difference.
    pub fn matches(
        &self,
        other: &Interface,
        rename: &dyn Fn(&str) -> String,
    ) -> Result<(), String> {
        if self.len() != other.len() {
            return Err(format!(
                "the box has {} ports ({}) but the system has {} ({})",
                self.len(),
                self.names(),
                other.len(),
                other.names()
            ));
        }
        let mut used = vec![false; other.len()];
        for p in &self.ports {
            let target = rename(&p.name);
            let Some(k) = other.index(&target) else {
                return Err(format!(
                    "box port '{}' maps to '{}', which the system does not have (system ports: {})",
                    p.name,
                    target,
                    other.names()
                ));
            };
            if used[k] {
                return Err(format!("two box ports map to the system port '{target}'"));
            }
            used[k] = true;
            let q = &other.ports[k];
            if q.quantity != p.quantity {
                return Err(format!(
                    "box port '{}' has quantity {} but the system port '{}' has quantity {}",
                    p.name, p.quantity, target, q.quantity
                ));
            }
            if q.kind != p.kind {
                return Err(format!(
                    "box port '{}' is a {} port but the system port '{}' is a {} port",
                    p.name, p.kind, target, q.kind
                ));
            }
        }
        Ok(())
    }
}
