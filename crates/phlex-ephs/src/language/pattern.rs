//! Interconnection patterns: the syntax of EPHS (seed 001 §2, Figs. 1–7).
//!
//! A pattern has round **inner boxes** (interfaces of subsystems), **junctions** (energy
//! domains, typed by a quantity) and an **outer box** whose ports are attached to
//! junctions. Every inner port is wired to exactly one junction of the same quantity;
//! a junction carries at most one outer port. Type errors name the port and both
//! quantities.
use std::collections::BTreeMap;

use crate::error::EphsError;
use crate::language::interface::{Interface, PortKind};
use crate::language::quantity::Quantity;

/// An outer port attached to a junction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OuterPort {
    /// Port name on the outer box.
    pub name: String,
    /// Power or state port.
    pub kind: PortKind,
}

/// A junction: an energy domain shared by the ports wired to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Junction {
    /// Name (unique in the pattern).
    pub name: String,
    /// Quantity of every port at this junction.
    pub quantity: Quantity,
    /// Outer port exposing this junction, if any.
    pub outer: Option<OuterPort>,
}

/// An inner box: an interface and the wiring of its ports to junctions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InnerBox {
    /// Name (unique in the pattern).
    pub name: String,
    /// Interface of the subsystem filling the box.
    pub interface: Interface,
    /// Port name → junction index.
    pub wiring: BTreeMap<String, usize>,
}

/// An interconnection pattern (undirected wiring diagram).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// Name of the pattern (like a function name).
    pub name: String,
    boxes: Vec<InnerBox>,
    junctions: Vec<Junction>,
}

impl Pattern {
    /// An empty pattern.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.into(),
            boxes: Vec::new(),
            junctions: Vec::new(),
        }
    }
    /// The inner boxes in insertion order.
    pub fn boxes(&self) -> &[InnerBox] {
        &self.boxes
    }
    /// The junctions in insertion order.
    pub fn junctions(&self) -> &[Junction] {
        &self.junctions
    }
    /// Index of a junction.
    pub fn junction_index(&self, name: &str) -> Result<usize, EphsError> {
        self.junctions
            .iter()
            .position(|j| j.name == name)
            .ok_or_else(|| {
                EphsError::unknown(
                    "junction",
                    name,
                    &format!("pattern '{}'", self.name),
                    self.junctions.iter().map(|j| j.name.as_str()),
                )
            })
    }
    /// Index of a box.
    pub fn box_index(&self, name: &str) -> Result<usize, EphsError> {
        self.boxes
            .iter()
            .position(|b| b.name == name)
            .ok_or_else(|| {
                EphsError::unknown(
                    "box",
                    name,
                    &format!("pattern '{}'", self.name),
                    self.boxes.iter().map(|b| b.name.as_str()),
                )
            })
    }
    /// Adds a junction of the given quantity.
    pub fn add_junction(&mut self, name: &str, quantity: Quantity) -> Result<usize, EphsError> {
        if self.junctions.iter().any(|j| j.name == name) {
            return Err(EphsError::DuplicateName {
                what: "junction".into(),
                name: name.into(),
                context: format!("pattern '{}'", self.name),
            });
        }
        self.junctions.push(Junction {
            name: name.into(),
            quantity,
            outer: None,
        });
        Ok(self.junctions.len() - 1)
    }
    /// Attaches an outer port `port` of the given kind to a junction.
    pub fn expose(&mut self, junction: &str, port: &str, kind: PortKind) -> Result<(), EphsError> {
        let j = self.junction_index(junction)?;
        if let Some(o) = self
            .junctions
            .iter()
            .filter_map(|j| j.outer.as_ref())
            .find(|o| o.name == port)
        {
            return Err(EphsError::DuplicateName {
                what: "outer port".into(),
                name: o.name.clone(),
                context: format!("pattern '{}'", self.name),
            });
        }
        if let Some(o) = &self.junctions[j].outer {
            return Err(EphsError::JunctionExposedTwice {
                pattern: self.name.clone(),
                junction: junction.into(),
                existing: o.name.clone(),
            });
        }
        self.junctions[j].outer = Some(OuterPort {
            name: port.into(),
            kind,
        });
        Ok(())
    }
    /// Adds an inner box with interface `interface`, wiring each `(port, junction)` pair.
    /// Errors: duplicate box, unknown port or junction, port connected twice, quantity
    /// mismatch (naming the port and both quantities). Completeness (every port wired) is
    /// checked by [`Pattern::check`].
    pub fn add_box(
        &mut self,
        name: &str,
        interface: Interface,
        wiring: &[(&str, &str)],
    ) -> Result<(), EphsError> {
        if self.boxes.iter().any(|b| b.name == name) {
            return Err(EphsError::DuplicateName {
                what: "box".into(),
                name: name.into(),
                context: format!("pattern '{}'", self.name),
            });
        }
        let mut map = BTreeMap::new();
        for (port, junction) in wiring {
            let Some(decl) = interface.get(port) else {
                return Err(EphsError::unknown(
                    "port",
                    port,
                    &format!("box '{name}' of pattern '{}'", self.name),
                    interface.ports().iter().map(|p| p.name.as_str()),
                ));
            };
            let j = self.junction_index(junction)?;
            if map.contains_key(*port) {
                return Err(EphsError::PortConnectedTwice {
                    pattern: self.name.clone(),
                    box_name: name.into(),
                    port: port.to_string(),
                });
            }
            let jq = &self.junctions[j].quantity;
            if &decl.quantity != jq {
                return Err(EphsError::QuantityMismatch {
                    port: format!("{name}.{port}"),
                    port_quantity: decl.quantity.to_string(),
                    junction: junction.to_string(),
                    junction_quantity: jq.to_string(),
                });
            }
            map.insert(port.to_string(), j);
        }
        self.boxes.push(InnerBox {
            name: name.into(),
            interface,
            wiring: map,
        });
        Ok(())
    }
    /// Checks that every port of every inner box is wired (errors name the box and port).
    pub fn check(&self) -> Result<(), EphsError> {
        for b in &self.boxes {
            for p in b.interface.ports() {
                if !b.wiring.contains_key(&p.name) {
                    return Err(EphsError::UnconnectedPort {
                        pattern: self.name.clone(),
                        box_name: b.name.clone(),
                        port: p.name.clone(),
                    });
                }
            }
        }
        Ok(())
    }
    /// The outer interface: one port per exposed junction (junction order).
    pub fn outer_interface(&self) -> Interface {
        let mut i = Interface::new();
        for j in &self.junctions {
            if let Some(o) = &j.outer {
                // Names are unique by construction (checked in `expose`).
                let _ = i.add(&o.name, j.quantity.clone(), o.kind);
            }
        }
        i
    }
    /// The junction exposed by an outer port.
    pub fn outer_junction(&self, port: &str) -> Option<usize> {
        self.junctions
            .iter()
            .position(|j| j.outer.as_ref().is_some_and(|o| o.name == port))
    }
    /// Ports `(box index, port name)` wired to junction `j`.
    pub fn ports_at(&self, j: usize) -> Vec<(usize, String)> {
        let mut v = Vec::new();
        for (bi, b) in self.boxes.iter().enumerate() {
            for p in b.interface.ports() {
                if b.wiring.get(&p.name) == Some(&j) {
                    v.push((bi, p.name.clone()));
                }
            }
        }
        v
    }
    /// Internal use by flattening: pushes a box without checks.
    pub(crate) fn push_box_unchecked(&mut self, b: InnerBox) {
        self.boxes.push(b);
    }
    /// Internal use by flattening: pushes a junction without checks.
    pub(crate) fn push_junction_unchecked(&mut self, j: Junction) -> usize {
        self.junctions.push(j);
        self.junctions.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn osc_pattern() -> Pattern {
        let mut p = Pattern::new("osc");
        p.add_junction("q", Quantity::displacement()).unwrap();
        p.add_junction("p", Quantity::momentum()).unwrap();
        p.expose("p", "p", PortKind::Power).unwrap();
        let iq = Interface::new()
            .power("q", Quantity::displacement())
            .unwrap();
        let ip = Interface::new().power("p", Quantity::momentum()).unwrap();
        let ipkc = Interface::new()
            .power("q", Quantity::displacement())
            .unwrap()
            .power("p", Quantity::momentum())
            .unwrap();
        p.add_box("pe", iq, &[("q", "q")]).unwrap();
        p.add_box("ke", ip, &[("p", "p")]).unwrap();
        p.add_box("pkc", ipkc, &[("q", "q"), ("p", "p")]).unwrap();
        p
    }

    #[test]
    fn well_typed_pattern_checks() {
        let p = osc_pattern();
        p.check().unwrap();
        let o = p.outer_interface();
        assert_eq!(o.len(), 1);
        assert_eq!(o.ports()[0].quantity, Quantity::momentum());
        assert_eq!(p.ports_at(1).len(), 2);
    }

    #[test]
    fn type_errors_name_port_and_quantities() {
        let mut p = osc_pattern();
        let i = Interface::new().power("p", Quantity::momentum()).unwrap();
        let e = p.add_box("bad", i, &[("p", "q")]).unwrap_err();
        match &e {
            EphsError::QuantityMismatch {
                port,
                port_quantity,
                junction,
                junction_quantity,
            } => {
                assert_eq!(port, "bad.p");
                assert_eq!(port_quantity, "(R, momentum)");
                assert_eq!(junction, "q");
                assert_eq!(junction_quantity, "(R, displacement)");
            }
            _ => panic!("{e}"),
        }
        assert!(e.to_string().contains("bad.p"));
    }

    #[test]
    fn unconnected_and_duplicate_errors() {
        let mut p = osc_pattern();
        let i = Interface::new()
            .power("p", Quantity::momentum())
            .unwrap()
            .power("s", Quantity::entropy())
            .unwrap();
        p.add_box("mf", i, &[("p", "p")]).unwrap();
        let e = p.check().unwrap_err();
        assert_eq!(
            e,
            EphsError::UnconnectedPort {
                pattern: "osc".into(),
                box_name: "mf".into(),
                port: "s".into()
            }
        );
        assert!(matches!(
            p.add_junction("q", Quantity::entropy()),
            Err(EphsError::DuplicateName { .. })
        ));
        assert!(matches!(
            p.expose("p", "p2", PortKind::Power),
            Err(EphsError::JunctionExposedTwice { .. })
        ));
        let i = Interface::new().power("p", Quantity::momentum()).unwrap();
        assert!(matches!(
            p.add_box("x", i, &[("p", "p"), ("p", "p")]),
            Err(EphsError::PortConnectedTwice { .. })
        ));
    }
}
