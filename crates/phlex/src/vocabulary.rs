//! The one vocabulary of model files: every physical quantity has one key in every kind
//! (`youngs_modulus`, `density`, `poisson_ratio`, `thickness`, `gravity`, …; the table is
//! in `docs/model-format.md`, "Vocabulary"), and the keys of earlier versions are rejected
//! with an error that names the new key and the line ([`check_renamed`], run on every
//! model file by [`crate::source::ModelSource`] before the kind is detected). There are no
//! silent aliases: an old key is an error, never read as the new one.
//!
//! The old keys are listed once, in [`RENAMED`], each with the tables it was used in (a
//! key like `h` or `d` is an old spelling only there: `initial.h` of a shallow water tank
//! is a field name).
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use crate::error::{error_at, ModelError};

/// What replaces an old key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replacement {
    /// A key of the same table (`"youngs_modulus"`).
    Key(&'static str),
    /// Something else, said in words (`"the top-level key \`gravity\` …"`).
    Other(&'static str),
}

/// An old key: the tables it was used in, its name and what replaces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Renamed {
    /// The tables, as dotted names from the top level (`"plate.plies"`); `*` stands for
    /// any one name (`"bodies.*"`, `"components.*"`), `""` is the top level. Arrays of
    /// tables (`[[plate.plies]]`) are named like tables.
    pub tables: &'static [&'static str],
    /// The old key.
    pub old: &'static str,
    /// What replaces it.
    pub new: Replacement,
}

const fn key(tables: &'static [&'static str], old: &'static str, new: &'static str) -> Renamed {
    Renamed {
        tables,
        old,
        new: Replacement::Key(new),
    }
}

const fn other(tables: &'static [&'static str], old: &'static str, new: &'static str) -> Renamed {
    Renamed {
        tables,
        old,
        new: Replacement::Other(new),
    }
}

/// The tables of an EPHS component's parameters: the component's own and its joint friction.
const FRICTION: [&str; 2] = ["components.*", "components.*.friction"];

/// The tables with a Young's modulus `youngs_modulus` (formerly `E`).
const ELASTIC: [&str; 3] = ["plate", "elasticity", "thermoelastic_beam"];

/// The tables with a density `density` (formerly `rho`).
const DENSITY: [&str; 7] = [
    "plate",
    "plate.plies",
    "elasticity",
    "thermoelastic_beam",
    "thermoelastic_rod",
    "acoustics",
    "shallow_water",
];

/// The heat conduction tables with a reference temperature `reference_temperature`
/// (formerly `T0`).
const HEAT: [&str; 5] = [
    "plate.thermal",
    "elasticity.thermal",
    "thermoelastic_beam",
    "heat",
    "thermoelastic_rod",
];

/// The tables with a thermal expansion `thermal_expansion` (formerly `expansion`).
const EXPANSION: [&str; 2] = ["plate.thermal", "thermoelastic_beam"];

/// Replacement of a `g` or an upward gravity covector: the acceleration vector.
const GRAVITY_3D: &str = "the top-level key `gravity = [x, y, z]` (before the first table): the gravitational acceleration vector [m/s²], pointing down, e.g. gravity = [0, 0, -9.81]";

/// Replacement of the EPHS per-body upward covector.
const GRAVITY_EPHS: &str = "the top-level key `gravity = [x, y, z]` (before the first table): the gravitational acceleration vector [m/s²] acting on every rigid body, pointing down (the old upward covector with its sign changed: gravity = [0, 0, 9.81] on a body is gravity = [0, 0, -9.81] at the top)";

/// Every key of earlier versions of the model files and what replaces it.
pub static RENAMED: &[Renamed] = &[
    // Material keys of the plates (also the `[plate]` of plate assemblies) and continua.
    key(&ELASTIC, "E", "youngs_modulus"),
    key(&["plate", "elasticity"], "nu", "poisson_ratio"),
    key(&DENSITY, "rho", "density"),
    key(&["plate"], "h", "thickness"),
    key(&["plate"], "k_sh", "shear_factor"),
    key(&EXPANSION, "expansion", "thermal_expansion"),
    key(&["elasticity.thermal"], "beta", "thermal_expansion"),
    key(&HEAT, "T0", "reference_temperature"),
    key(&["plate.plies"], "E1", "youngs_modulus_1"),
    key(&["plate.plies"], "E2", "youngs_modulus_2"),
    key(&["plate.plies"], "nu12", "poisson_ratio_12"),
    key(&["plate.plies"], "G12", "shear_modulus_12"),
    key(&["plate.plies"], "G13", "shear_modulus_13"),
    key(&["plate.plies"], "G23", "shear_modulus_23"),
    key(&["plate.plies"], "angle", "angle_deg"),
    key(&["thermoelastic_rod"], "modulus", "p_wave_modulus"),
    key(
        &["thermoelastic_rod"],
        "c_beta",
        "thermal_stress_coefficient",
    ),
    key(&["acoustics"], "c", "sound_speed"),
    other(&["shallow_water"], "g", GRAVITY_3D),
    // Multibody bodies (planar and spatial).
    key(&["bodies.*"], "rho_a", "mass_per_length"),
    key(&["bodies.*"], "ea", "axial_stiffness"),
    key(&["bodies.*"], "ei", "bending_stiffness"),
    key(&["bodies.*"], "poisson", "poisson_ratio"),
    // EPHS models.
    key(&["model"], "theta0", "reference_temperature"),
    key(&["components.*"], "k", "stiffness"),
    key(&["components.*"], "m", "mass"),
    key(&FRICTION, "d", "damping"),
    key(&FRICTION, "mu_c", "coulomb_friction"),
    key(&FRICTION, "v_s", "regularization_velocity"),
    other(&["components.*"], "gravity", GRAVITY_EPHS),
    other(
        &[""],
        "inputs",
        "`[[input]]` tables, one per input port, with `port` and `value` (or `values`, one signal per component of a vector port), as in the other kinds",
    ),
];

/// Checks the model file `text` (named `file` in messages) for keys of [`RENAMED`]: the
/// first one found is an error naming the key, its line and what replaces it. A text that
/// is not TOML passes (its syntax error is reported by the parse).
pub fn check_renamed(file: &str, text: &str) -> Result<(), ModelError> {
    let Ok(root) = toml::from_str::<Node>(text) else {
        return Ok(());
    };
    let mut path = Vec::new();
    match find(&root, &mut path) {
        Some((span, key, rule)) => {
            let (verb, new) = match rule.new {
                Replacement::Key(k) => ("renamed", format!("`{k}`")),
                Replacement::Other(s) => ("replaced", s.to_string()),
            };
            let what = if matches!(rule.new, Replacement::Other(_)) && !key.contains('.') {
                format!("table `[{key}]`")
            } else {
                format!("key `{key}`")
            };
            Err(error_at(
                file,
                text,
                span,
                format!("{what} was {verb}: use {new}"),
            ))
        }
        None => Ok(()),
    }
}

/// The first old key under `node` (`path`: the names of the enclosing tables): its span,
/// its dotted name and the rule.
fn find(
    node: &Node,
    path: &mut Vec<String>,
) -> Option<(std::ops::Range<usize>, String, &'static Renamed)> {
    match node {
        Node::Table(entries) => {
            for (k, v) in entries {
                if let Some(rule) = RENAMED.iter().find(|r| {
                    r.old == k.get_ref() && r.tables.iter().any(|t| table_matches(t, path))
                }) {
                    let mut name = path.join(".");
                    if !name.is_empty() {
                        name.push('.');
                    }
                    name.push_str(k.get_ref());
                    return Some((k.span(), name, rule));
                }
                path.push(k.get_ref().clone());
                let found = find(v, path);
                path.pop();
                if found.is_some() {
                    return found;
                }
            }
            None
        }
        Node::Array(items) => items.iter().find_map(|n| find(n, path)),
        Node::Leaf => None,
    }
}

/// True if the dotted `pattern` (`*` any one name) names the table `path`.
fn table_matches(pattern: &str, path: &[String]) -> bool {
    if pattern.is_empty() {
        return path.is_empty();
    }
    let parts: Vec<&str> = pattern.split('.').collect();
    parts.len() == path.len() && parts.iter().zip(path).all(|(p, n)| *p == "*" || p == n)
}

/// A TOML document as nested tables and arrays whose keys keep their byte spans (the
/// values themselves are not needed).
enum Node {
    /// A table: its keys in file order with their values.
    Table(Vec<(Spanned<String>, Node)>),
    /// An array.
    Array(Vec<Node>),
    /// Any other value.
    Leaf,
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a TOML value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(k) = map.next_key::<Spanned<String>>()? {
            entries.push((k, map.next_value::<Node>()?));
        }
        Ok(Node::Table(entries))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(n) = seq.next_element::<Node>()? {
            items.push(n);
        }
        Ok(Node::Array(items))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Node, E> {
        Ok(Node::Leaf)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Node, E> {
        Ok(Node::Leaf)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Node, E> {
        Ok(Node::Leaf)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Node, E> {
        Ok(Node::Leaf)
    }
    fn visit_str<E>(self, _: &str) -> Result<Node, E> {
        Ok(Node::Leaf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(text: &str) -> Option<(usize, String)> {
        check_renamed("m.toml", text)
            .err()
            .map(|e| (e.line, e.message))
    }

    #[test]
    fn old_keys_name_the_new_key_and_the_line() {
        let (line, m) = message("[model]\nname = 'p'\n[plate]\nlx = 1.0\nE = 2e11\n").unwrap();
        assert_eq!(line, 5);
        assert_eq!(m, "key `plate.E` was renamed: use `youngs_modulus`");
        let (line, m) =
            message("[plate]\n[[plate.plies]]\nE1 = 1.0\n[[plate.plies]]\nrho = 1.0\n").unwrap();
        assert_eq!(
            (line, m.as_str()),
            (
                3,
                "key `plate.plies.E1` was renamed: use `youngs_modulus_1`"
            )
        );
        let (line, m) = message("[bodies.arm]\nkind = 'beam'\nrho_a = 1.0\n").unwrap();
        assert_eq!(
            (line, m.as_str()),
            (
                3,
                "key `bodies.arm.rho_a` was renamed: use `mass_per_length`"
            )
        );
        let (line, m) = message(
            "[components.j]\nkind = 'joint'\nfriction = { d = 0.1, mu_c = 0.2, v_s = 0.01 }\n",
        )
        .unwrap();
        assert_eq!(
            (line, m.as_str()),
            (
                3,
                "key `components.j.friction.d` was renamed: use `damping`"
            )
        );
        let (line, m) = message("[model]\ntop = 'a'\n[inputs]\n'p.f' = 'sin(t)'\n").unwrap();
        assert_eq!(line, 3);
        assert!(
            m.starts_with("table `[inputs]` was replaced: use `[[input]]`"),
            "{m}"
        );
        let (line, m) = message("[shallow_water]\nrho = 1000.0\n").unwrap();
        assert_eq!(
            (line, m.as_str()),
            (2, "key `shallow_water.rho` was renamed: use `density`")
        );
        let (_, m) =
            message("[components.b]\nkind = 'rigid_body'\ngravity = [0, 0, 9.81]\n").unwrap();
        assert!(m.contains("gravity = [0, 0, -9.81]"), "{m}");
    }

    #[test]
    fn the_same_names_elsewhere_pass() {
        // `h` is the initial height field of a tank and the EPHS midpoint step; `d`, `k`
        // and `m` are old only as component parameters; `rho` only in the listed tables.
        for text in [
            "[shallow_water]\ndensity = 1.0\n[initial]\nh = '0.1'\n",
            "[simulation]\nh = 0.01\n",
            "[patterns.p]\njunctions = { d = 'displacement', m = 'momentum' }\n",
            "[beam]\ndensity = 1.0\n[output]\nprobes = [{ name = 'rho', field = 'v', x = 0.0 }]\n",
            "gravity = [0.0, -9.81]\n[bodies.a]\nkind = 'rigid'\n",
            "a = [\n",
        ] {
            assert_eq!(message(text), None, "{text}");
        }
    }

    #[test]
    fn every_rule_names_a_table_and_a_new_key() {
        for r in RENAMED {
            if let Replacement::Key(k) = r.new {
                assert_ne!(k, r.old);
                assert!(!k.is_empty());
            }
        }
    }
}
