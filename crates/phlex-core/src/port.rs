//! Named power ports.
//!
//! A port is a group of input/output pairs whose duality product $y^\top u$ is a power
//! \[W\]. Interconnections and outputs refer to ports by name; the column range of a port
//! in the input matrix $B$ is derived from the order of the ports in a [`PortSet`].
use crate::CoreError;
use std::ops::Range;

/// A named group of conjugated inputs and outputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Port {
    /// Unique name, e.g. `"tip"` or `"left.force"`.
    pub name: String,
    /// Number of input (and output) components.
    pub dim: usize,
    /// Physical meaning of the input, e.g. `"shear force and moment at x = L [N, N m]"`.
    pub input: String,
    /// Physical meaning of the output, e.g. `"velocity and angular velocity at x = L"`.
    pub output: String,
}

impl Port {
    /// Creates a port.
    pub fn new(
        name: impl Into<String>,
        dim: usize,
        input: impl Into<String>,
        output: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            dim,
            input: input.into(),
            output: output.into(),
        }
    }
}

/// An ordered list of ports; port `k` owns input columns `range(k)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PortSet {
    ports: Vec<Port>,
}

impl PortSet {
    /// An empty port set.
    pub fn new() -> Self {
        Self::default()
    }
    /// Builds a port set, rejecting duplicate names.
    pub fn from_ports(ports: Vec<Port>) -> Result<Self, CoreError> {
        let mut s = Self::new();
        for p in ports {
            s.push(p)?;
        }
        Ok(s)
    }
    /// Appends a port.
    pub fn push(&mut self, port: Port) -> Result<(), CoreError> {
        if self.ports.iter().any(|p| p.name == port.name) {
            return Err(CoreError::DuplicateName(port.name));
        }
        self.ports.push(port);
        Ok(())
    }
    /// All ports in order.
    pub fn iter(&self) -> impl Iterator<Item = &Port> {
        self.ports.iter()
    }
    /// Number of ports.
    pub fn len(&self) -> usize {
        self.ports.len()
    }
    /// True if there is no port.
    pub fn is_empty(&self) -> bool {
        self.ports.is_empty()
    }
    /// Total number of input components.
    pub fn total_dim(&self) -> usize {
        self.ports.iter().map(|p| p.dim).sum()
    }
    /// Position of a port in the list.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.ports.iter().position(|p| p.name == name)
    }
    /// Port by name.
    pub fn get(&self, name: &str) -> Option<&Port> {
        self.ports.iter().find(|p| p.name == name)
    }
    /// Column range of the named port in $B$ (and in the input vector $u$).
    pub fn range(&self, name: &str) -> Result<Range<usize>, CoreError> {
        let mut s = 0;
        for p in &self.ports {
            if p.name == name {
                return Ok(s..s + p.dim);
            }
            s += p.dim;
        }
        Err(CoreError::UnknownPort {
            name: name.into(),
            context: "port set".into(),
            available: self.names().join(", "),
        })
    }
    /// Column ranges of all ports, in order.
    pub fn ranges(&self) -> Vec<Range<usize>> {
        let mut s = 0;
        self.ports
            .iter()
            .map(|p| {
                let r = s..s + p.dim;
                s += p.dim;
                r
            })
            .collect()
    }
    /// Names of all ports.
    pub fn names(&self) -> Vec<String> {
        self.ports.iter().map(|p| p.name.clone()).collect()
    }
    /// A copy where every port name is prefixed by `prefix.`.
    pub fn prefixed(&self, prefix: &str) -> Self {
        Self {
            ports: self
                .ports
                .iter()
                .map(|p| Port {
                    name: format!("{prefix}.{}", p.name),
                    ..p.clone()
                })
                .collect(),
        }
    }
}
