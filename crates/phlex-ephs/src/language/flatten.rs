//! Flattening: any hierarchy of nested patterns flattens uniquely into one pattern whose
//! boxes are primitive components (seed 001 §2, Fig. 4 = Fig. 1 with Figs. 2 and 3
//! substituted; Fig. 7 = Fig. 6 with Fig. 5 substituted).
//!
//! Names are hierarchical: the box `ke` inside the box `b1` becomes `b1.ke`, an internal
//! junction `q` of `b1` becomes `b1.q`, and a junction of `b1` exposed by an outer port is
//! merged with the parent junction that port is wired to (and takes the parent's name).
use std::collections::BTreeMap;

use crate::error::EphsError;
use crate::language::pattern::{InnerBox, Junction, Pattern};
use crate::language::primitive::Primitive;
use crate::language::system::{Composite, System};

/// A flattened system: a pattern whose boxes are filled by the primitives of the same
/// index. Box ports keep the primitive's port names (renamings are resolved).
#[derive(Debug, Clone)]
pub struct FlatSystem {
    /// The flat pattern (box names are hierarchical).
    pub pattern: Pattern,
    /// The primitive filling each box.
    pub primitives: Vec<Primitive>,
}

/// Flattens a composite system.
pub fn flatten(c: &Composite) -> Result<FlatSystem, EphsError> {
    c.check_complete()?;
    let mut out = Pattern::new(&c.pattern.name);
    for j in c.pattern.junctions() {
        out.push_junction_unchecked(j.clone());
    }
    let map: Vec<usize> = (0..c.pattern.junctions().len()).collect();
    let mut prims = Vec::new();
    flatten_into(c, "", &map, &mut out, &mut prims)?;
    Ok(FlatSystem {
        pattern: out,
        primitives: prims,
    })
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

/// Adds the boxes of `c` (junction `j` of `c` is junction `jmap[j]` of `out`).
fn flatten_into(
    c: &Composite,
    prefix: &str,
    jmap: &[usize],
    out: &mut Pattern,
    prims: &mut Vec<Primitive>,
) -> Result<(), EphsError> {
    for (bi, b) in c.pattern.boxes().iter().enumerate() {
        let filling = c.filling(bi)?;
        let name = join(prefix, &b.name);
        match &filling.system {
            System::Primitive(p) => {
                // Box port a ↦ primitive port target(a), wired to jmap[wiring[a]].
                let mut wiring = BTreeMap::new();
                for (port, &j) in &b.wiring {
                    wiring.insert(filling.target(port), jmap[j]);
                }
                out.push_box_unchecked(InnerBox {
                    name,
                    interface: p.interface.clone(),
                    wiring,
                });
                prims.push(p.clone());
            }
            System::Composite(child) => {
                // Child junction k: exposed by outer port o → the parent junction wired to
                // the box port a with target(a) = o; otherwise a new junction "name.k".
                let mut child_map = Vec::with_capacity(child.pattern.junctions().len());
                for jn in child.pattern.junctions() {
                    let parent = jn.outer.as_ref().and_then(|o| {
                        b.wiring
                            .iter()
                            .find(|(a, _)| filling.target(a) == o.name)
                            .map(|(_, &j)| jmap[j])
                    });
                    let k = match parent {
                        Some(k) => k,
                        None => out.push_junction_unchecked(Junction {
                            name: join(&name, &jn.name),
                            quantity: jn.quantity.clone(),
                            outer: None,
                        }),
                    };
                    child_map.push(k);
                }
                flatten_into(child, &name, &child_map, out, prims)?;
            }
        }
    }
    Ok(())
}
