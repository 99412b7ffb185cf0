//! Systems: either primitive, or composite = an interconnection pattern whose inner boxes
//! are filled by systems (seed 001 §2: "a pattern may fill an inner box of another
//! pattern if its outer interface equals that box's interface, up to renaming ports").
use std::collections::BTreeMap;

use crate::error::EphsError;
use crate::language::interface::Interface;
use crate::language::pattern::Pattern;
use crate::language::primitive::Primitive;

/// A primitive or composite system.
#[derive(Debug, Clone)]
pub enum System {
    /// One of the four primitive kinds.
    Primitive(Primitive),
    /// A filled interconnection pattern.
    Composite(Box<Composite>),
}

impl System {
    /// The interface: the primitive's, or the pattern's outer interface.
    pub fn interface(&self) -> Interface {
        match self {
            System::Primitive(p) => p.interface.clone(),
            System::Composite(c) => c.pattern.outer_interface(),
        }
    }
}

impl From<Primitive> for System {
    fn from(p: Primitive) -> Self {
        System::Primitive(p)
    }
}

impl From<Composite> for System {
    fn from(c: Composite) -> Self {
        System::Composite(Box::new(c))
    }
}

/// The system filling an inner box, with the renaming box port → system port.
#[derive(Debug, Clone)]
pub struct Filling {
    /// The subsystem.
    pub system: System,
    /// Box port name → subsystem port name (identity for unlisted ports).
    pub renaming: BTreeMap<String, String>,
}

impl Filling {
    /// The subsystem port corresponding to box port `port`.
    pub fn target(&self, port: &str) -> String {
        self.renaming
            .get(port)
            .cloned()
            .unwrap_or_else(|| port.to_string())
    }
}

/// An interconnection pattern with its inner boxes filled.
#[derive(Debug, Clone)]
pub struct Composite {
    /// The pattern (syntax).
    pub pattern: Pattern,
    fills: Vec<Option<Filling>>,
}

impl Composite {
    /// A composite with no box filled yet; the pattern must type-check.
    pub fn new(pattern: Pattern) -> Result<Self, EphsError> {
        pattern.check()?;
        let n = pattern.boxes().len();
        Ok(Self {
            pattern,
            fills: vec![None; n],
        })
    }
    /// Fills box `box_name` with `system` (same port names).
    pub fn fill(
        &mut self,
        box_name: &str,
        system: impl Into<System>,
    ) -> Result<&mut Self, EphsError> {
        self.fill_renamed(box_name, system, &[])
    }
    /// Fills box `box_name` with `system`, box port `a` corresponding to system port `b`
    /// for each `(a, b)` in `renaming`. Errors name the box and the differing port.
    pub fn fill_renamed(
        &mut self,
        box_name: &str,
        system: impl Into<System>,
        renaming: &[(&str, &str)],
    ) -> Result<&mut Self, EphsError> {
        let system = system.into();
        let b = self.pattern.box_index(box_name)?;
        let renaming: BTreeMap<String, String> = renaming
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let filling = Filling { system, renaming };
        let box_iface = &self.pattern.boxes()[b].interface;
        box_iface
            .matches(&filling.system.interface(), &|p| filling.target(p))
            .map_err(|detail| EphsError::InterfaceMismatch {
                pattern: self.pattern.name.clone(),
                box_name: box_name.into(),
                detail,
            })?;
        self.fills[b] = Some(filling);
        Ok(self)
    }
    /// The filling of box `b` (by index), or an error naming the unfilled box.
    pub fn filling(&self, b: usize) -> Result<&Filling, EphsError> {
        self.fills[b]
            .as_ref()
            .ok_or_else(|| EphsError::UnfilledBox {
                pattern: self.pattern.name.clone(),
                box_name: self.pattern.boxes()[b].name.clone(),
            })
    }
    /// Checks that every box is filled, recursively.
    pub fn check_complete(&self) -> Result<(), EphsError> {
        for b in 0..self.fills.len() {
            if let System::Composite(c) = &self.filling(b)?.system {
                c.check_complete()?;
            }
        }
        Ok(())
    }
}
