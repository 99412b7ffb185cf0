//! The report of `phlex check`, the same for every kind: kind (its name in the registry
//! and the variant), model, states (and their blocks), ports, the structure check, and rows
//! the kind adds (bodies, mode 1, …).
use phlex_core::LinearPhSystem;

/// What `phlex check` prints after a model was parsed, validated and built.
#[derive(Debug, Clone, Default)]
pub struct CheckReport {
    /// Model name.
    pub model: String,
    /// The variant of the kind (`"mindlin"` for a plate; empty if there is none to tell).
    pub variant: String,
    /// Number of states.
    pub states: usize,
    /// Variable blocks and their sizes (empty where the kind has none to show).
    pub blocks: Vec<(String, usize)>,
    /// The open ports (`"none"` if there are none).
    pub ports: String,
    /// The structure check that passed.
    pub structure: String,
    /// Further rows `(key, value)` of the kind.
    pub details: Vec<(String, String)>,
}

/// The structure check of a linear pH system: what [`LinearPhSystem::check`] verified.
pub const LINEAR_STRUCTURE: &str = "J skew, E and R symmetric positive semidefinite: ok";

impl CheckReport {
    /// The report of a checked linear pH system: states, blocks, port names and the
    /// structure line [`LINEAR_STRUCTURE`].
    pub fn linear(model: &str, variant: String, sys: &LinearPhSystem) -> Self {
        Self {
            model: model.to_string(),
            variant,
            states: sys.n_states(),
            blocks: sys.blocks.iter().map(|b| (b.name.clone(), b.len)).collect(),
            ports: port_names(sys),
            structure: LINEAR_STRUCTURE.into(),
            details: Vec::new(),
        }
    }

    /// Adds a row.
    pub fn detail(mut self, key: &str, value: String) -> Self {
        self.details.push((key.to_string(), value));
        self
    }

    /// The printed report of `file`, a model of the kind named `kind`.
    pub fn render(&self, file: &str, kind: &str) -> String {
        let blocks = if self.blocks.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = self
                .blocks
                .iter()
                .map(|(n, len)| format!("{n}: {len}"))
                .collect();
            format!(" ({})", list.join(", "))
        };
        let mut rows: Vec<(&str, String)> = vec![
            (
                "kind",
                if self.variant.is_empty() {
                    kind.to_string()
                } else {
                    format!("{kind} ({})", self.variant)
                },
            ),
            ("model", self.model.clone()),
            ("states", format!("{}{blocks}", self.states)),
            ("ports", self.ports.clone()),
            ("structure", self.structure.clone()),
        ];
        rows.extend(self.details.iter().map(|(k, v)| (k.as_str(), v.clone())));
        format!("{file}: ok\n{}", crate::output::table(&rows))
    }
}

/// The port names of `sys`, comma separated (`"none"` without ports).
pub fn port_names(sys: &LinearPhSystem) -> String {
    let names = sys.ports.names();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}
