//! Composition of open systems along an interconnection pattern: the junction semantics
//! of seed 001 §2 (eqs. (4a), (4b)):
//!
//! 1. the states of all ports at a junction are equal;
//! 2. the flows of the inner power ports sum to the flow of the outer power port;
//! 3. the efforts of all power ports at a junction are equal.
//!
//! Equal states and efforts become one shared slot (interface variables are eliminated).
//! Per junction, the effort is provided by its unique effort source (a flow-in port:
//! storage or transformer output), or by the outer port (which then becomes effort-in),
//! or else it is a new algebraic unknown whose equation is the flow balance
//! (summary §1.4, storage-free junctions). Composition of composites is the same
//! operation, so [`assemble`] (flatten, then compose primitives) and [`assemble_nested`]
//! (compose each level) must agree: the functoriality of seed 001 §2.
use std::collections::BTreeMap;

use crate::error::EphsError;
use crate::language::flatten::flatten;
use crate::language::interface::{Interface, PortKind};
use crate::language::pattern::Pattern;
use crate::language::system::System;
use crate::semantics::primitive::primitive_system;
use crate::semantics::program::*;

struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn add(&mut self) {
        self.parent.push(self.parent.len());
    }
    fn find(&mut self, mut a: usize) -> usize {
        while self.parent[a] != a {
            self.parent[a] = self.parent[self.parent[a]];
            a = self.parent[a];
        }
        a
    }
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // Keep the smaller index as root: subsystem slot names win over new ones.
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[hi] = lo;
        }
    }
}

fn pre(prefix: &str, name: &str) -> String {
    if name.is_empty() {
        prefix.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

/// The interface of an open system's ports.
pub fn interface_of(sys: &OpenSystem) -> Interface {
    let mut i = Interface::new();
    for p in &sys.ports {
        // Port names of an open system are unique by construction.
        let _ = i.add(&p.name, p.quantity.clone(), p.kind);
    }
    i
}

fn remap_port(p: &SysPort, off: usize) -> SysPort {
    let state = match p.state {
        StateRole::Output(s) => StateRole::Output(s + off),
        StateRole::Input(s) => StateRole::Input(s + off),
        StateRole::Unused(s) => StateRole::Unused(s + off),
    };
    SysPort {
        name: p.name.clone(),
        quantity: p.quantity.clone(),
        kind: p.kind,
        state,
        power: p.power.map(|pw| PowerRole {
            causality: pw.causality,
            effort: pw.effort + off,
            flow: pw.flow + off,
        }),
    }
}

/// Composes the open systems `subs[k]` (filling box `k` of `pattern`, with the renaming
/// box port → system port) into the open system of the composite.
pub fn compose(
    pattern: &Pattern,
    subs: Vec<(OpenSystem, BTreeMap<String, String>)>,
) -> Result<OpenSystem, EphsError> {
    pattern.check()?;
    if subs.len() != pattern.boxes().len() {
        return Err(EphsError::Dimension {
            what: format!("subsystems of pattern '{}'", pattern.name),
            expected: pattern.boxes().len(),
            found: subs.len(),
        });
    }
    let mut out = OpenSystem::default();
    // Box port name → remapped port, per box.
    let mut box_ports: Vec<BTreeMap<String, SysPort>> = Vec::new();
    for (bi, (sub, ren)) in subs.into_iter().enumerate() {
        let b = &pattern.boxes()[bi];
        let target = |a: &str| ren.get(a).cloned().unwrap_or_else(|| a.to_string());
        b.interface
            .matches(&interface_of(&sub), &target)
            .map_err(|detail| EphsError::InterfaceMismatch {
                pattern: pattern.name.clone(),
                box_name: b.name.clone(),
                detail,
            })?;
        let off = out.slots.len();
        let soff = out.states.len();
        let roff = out.records.len();
        let pfx = &b.name;
        for s in &sub.slots {
            out.slots.push(Slot {
                name: pre(pfx, &s.name),
                len: s.len,
            });
        }
        for s in &sub.states {
            out.states.push(StateVar {
                name: pre(pfx, &s.name),
                quantity: s.quantity.clone(),
                x: s.x + off,
                rate: s.rate + off,
            });
        }
        for s in &sub.storages {
            out.storages.push(StorageVar {
                name: pre(pfx, &s.name),
                energy: s.energy.clone(),
                states: s.states.iter().map(|k| k + soff).collect(),
                efforts: s.efforts.iter().map(|k| k + off).collect(),
            });
        }
        for a in &sub.algebraics {
            out.algebraics.push(AlgVar {
                name: pre(pfx, &a.name),
                slot: a.slot + off,
                index: a.index,
            });
        }
        for r in &sub.residuals {
            out.residuals.push(ResVar {
                name: pre(pfx, &r.name),
                slot: r.slot + off,
            });
        }
        for i in &sub.instrs {
            out.instrs.push(Instr {
                name: pre(pfx, &i.name),
                op: i.op.clone(),
                inputs: i.inputs.iter().map(|s| s + off).collect(),
                outputs: i.outputs.iter().map(|s| s + off).collect(),
            });
        }
        for r in &sub.records {
            out.records.push(PortRecord {
                name: pre(pfx, &r.name),
                quantity: r.quantity.clone(),
                kind: r.kind,
                x: r.x + off,
                e: r.e.map(|s| s + off),
                f: r.f.map(|s| s + off),
            });
        }
        for r in &sub.irreversibles {
            out.irreversibles.push(IrreversibleRecord {
                name: pre(pfx, &r.name),
                ports: r.ports.iter().map(|k| k + roff).collect(),
            });
        }
        out.constants.extend(sub.constants.iter().map(|s| s + off));
        let mut ports = BTreeMap::new();
        for p in b.interface.ports() {
            let t = target(&p.name);
            let sp = sub
                .ports
                .iter()
                .find(|q| q.name == t)
                .expect("interface matched above");
            ports.insert(p.name.clone(), remap_port(sp, off));
        }
        box_ports.push(ports);
    }

    let mut uf = UnionFind {
        parent: (0..out.slots.len()).collect(),
    };
    let new_slot = |out: &mut OpenSystem, uf: &mut UnionFind, name: String, len: usize| {
        uf.add();
        out.new_slot(name, len)
    };
    let mut port_inputs: Vec<SlotId> = Vec::new();
    let mut port_outputs: Vec<SlotId> = Vec::new();

    for (ji, jn) in pattern.junctions().iter().enumerate() {
        let attached: Vec<(String, SysPort)> = pattern
            .ports_at(ji)
            .into_iter()
            .map(|(bi, p)| {
                let label = format!("{}.{}", pattern.boxes()[bi].name, p);
                (label, box_ports[bi][&p].clone())
            })
            .collect();
        let q = &jn.quantity;
        let outer = jn.outer.clone();
        // 1. States.
        let sources: Vec<&(String, SysPort)> = attached
            .iter()
            .filter(|(_, p)| matches!(p.state, StateRole::Output(_)))
            .collect();
        if sources.len() > 1 {
            return Err(EphsError::MultipleStorages {
                junction: jn.name.clone(),
                storages: sources
                    .iter()
                    .map(|(l, _)| l.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        let readers: Vec<&(String, SysPort)> = attached
            .iter()
            .filter(|(_, p)| matches!(p.state, StateRole::Input(_)))
            .collect();
        let outer_state = if let Some((_, src)) = sources.first() {
            let s = src.state.slot();
            for (_, p) in &attached {
                uf.union(p.state.slot(), s);
            }
            port_outputs.push(s);
            StateRole::Output(s)
        } else if outer.is_some() {
            let s = new_slot(
                &mut out,
                &mut uf,
                format!("{}.x", jn.name),
                q.space.coords(),
            );
            for (_, p) in &attached {
                uf.union(p.state.slot(), s);
            }
            if readers.is_empty() {
                out.constants.push(s);
                StateRole::Unused(s)
            } else {
                port_inputs.push(s);
                StateRole::Input(s)
            }
        } else {
            if let Some((l, _)) = readers.first() {
                return Err(EphsError::UndeterminedState {
                    junction: jn.name.clone(),
                    port: l.clone(),
                });
            }
            StateRole::Unused(0)
        };
        // 2–3. Efforts and flows.
        let power: Vec<(&String, PowerRole)> = attached
            .iter()
            .filter_map(|(l, p)| p.power.map(|pw| (l, pw)))
            .collect();
        let outer_power = outer.as_ref().is_some_and(|o| o.kind == PortKind::Power);
        let esrc: Vec<&(&String, PowerRole)> = power
            .iter()
            .filter(|(_, pw)| pw.causality == Causality::FlowIn)
            .collect();
        if esrc.len() > 1 {
            return Err(EphsError::ConflictingEfforts {
                junction: jn.name.clone(),
                ports: esrc
                    .iter()
                    .map(|(l, _)| l.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        let mut outer_role = None;
        if let Some((src_label, src)) = esrc.first() {
            let mut minus = Vec::new();
            for (l, pw) in &power {
                if l != src_label {
                    uf.union(pw.effort, src.effort);
                    minus.push(pw.flow);
                }
            }
            let mut inputs = Vec::new();
            if outer_power {
                let f = new_slot(&mut out, &mut uf, format!("{}.f", jn.name), q.space.dim());
                port_inputs.push(f);
                port_outputs.push(src.effort);
                inputs.push(f);
                outer_role = Some(PowerRole {
                    causality: Causality::FlowIn,
                    effort: src.effort,
                    flow: f,
                });
            }
            let n_plus = inputs.len();
            inputs.extend(minus);
            out.instrs.push(Instr {
                name: format!("{}.balance", jn.name),
                op: Op::Sum { n_plus },
                inputs,
                outputs: vec![src.flow],
            });
        } else if outer_power {
            let e = new_slot(&mut out, &mut uf, format!("{}.e", jn.name), q.space.dim());
            let f = new_slot(&mut out, &mut uf, format!("{}.f", jn.name), q.space.dim());
            for (_, pw) in &power {
                uf.union(pw.effort, e);
            }
            port_inputs.push(e);
            port_outputs.push(f);
            out.instrs.push(Instr {
                name: format!("{}.balance", jn.name),
                op: Op::Sum {
                    n_plus: power.len(),
                },
                inputs: power.iter().map(|(_, pw)| pw.flow).collect(),
                outputs: vec![f],
            });
            outer_role = Some(PowerRole {
                causality: Causality::EffortIn,
                effort: e,
                flow: f,
            });
        } else if !power.is_empty() {
            let e = new_slot(&mut out, &mut uf, format!("{}.e", jn.name), q.space.dim());
            let r = new_slot(
                &mut out,
                &mut uf,
                format!("{}.balance", jn.name),
                q.space.dim(),
            );
            for (_, pw) in &power {
                uf.union(pw.effort, e);
            }
            out.algebraics.push(AlgVar {
                name: format!("{}.e", jn.name),
                slot: e,
                index: 1,
            });
            out.residuals.push(ResVar {
                name: format!("{}.balance", jn.name),
                slot: r,
            });
            out.instrs.push(Instr {
                name: format!("{}.balance", jn.name),
                op: Op::Sum {
                    n_plus: power.len(),
                },
                inputs: power.iter().map(|(_, pw)| pw.flow).collect(),
                outputs: vec![r],
            });
        }
        if let Some(o) = outer {
            out.ports.push(SysPort {
                name: o.name.clone(),
                quantity: q.clone(),
                kind: o.kind,
                state: outer_state,
                power: if o.kind == PortKind::Power {
                    outer_role
                } else {
                    None
                },
            });
        }
    }
    finish(out, uf, port_inputs, port_outputs)
}

/// Merges unified slots, checks that every value is provided exactly once, and orders
/// the instructions.
fn finish(
    mut sys: OpenSystem,
    mut uf: UnionFind,
    port_inputs: Vec<SlotId>,
    port_outputs: Vec<SlotId>,
) -> Result<OpenSystem, EphsError> {
    let n = sys.slots.len();
    let mut index = vec![usize::MAX; n];
    let mut slots = Vec::new();
    for s in 0..n {
        let r = uf.find(s);
        if index[r] == usize::MAX {
            index[r] = slots.len();
            slots.push(sys.slots[r].clone());
        }
        index[s] = index[r];
        if sys.slots[s].len != sys.slots[r].len {
            return Err(EphsError::Dimension {
                what: format!(
                    "junction values '{}' and '{}'",
                    sys.slots[s].name, sys.slots[r].name
                ),
                expected: sys.slots[r].len,
                found: sys.slots[s].len,
            });
        }
    }
    let m = |s: SlotId| index[s];
    for st in &mut sys.states {
        st.x = m(st.x);
        st.rate = m(st.rate);
    }
    for st in &mut sys.storages {
        st.efforts.iter_mut().for_each(|s| *s = m(*s));
    }
    for a in &mut sys.algebraics {
        a.slot = m(a.slot);
    }
    for r in &mut sys.residuals {
        r.slot = m(r.slot);
    }
    for i in &mut sys.instrs {
        i.inputs.iter_mut().for_each(|s| *s = m(*s));
        i.outputs.iter_mut().for_each(|s| *s = m(*s));
    }
    for r in &mut sys.records {
        r.x = m(r.x);
        r.e = r.e.map(m);
        r.f = r.f.map(m);
    }
    for p in &mut sys.ports {
        p.state = match p.state {
            StateRole::Output(s) => StateRole::Output(m(s)),
            StateRole::Input(s) => StateRole::Input(m(s)),
            StateRole::Unused(s) => StateRole::Unused(m(s)),
        };
        if let Some(pw) = p.power.as_mut() {
            pw.effort = m(pw.effort);
            pw.flow = m(pw.flow);
        }
    }
    let port_inputs: Vec<SlotId> = port_inputs.into_iter().map(m).collect();
    let port_outputs: Vec<SlotId> = port_outputs.into_iter().map(m).collect();
    sys.slots = slots;
    let ns = sys.slots.len();

    // Providers (constants only where nothing else provides the value).
    let mut provider: Vec<Option<String>> = vec![None; ns];
    let mut provide = |s: SlotId, who: String, sys: &OpenSystem| -> Result<(), EphsError> {
        if let Some(prev) = &provider[s] {
            return Err(EphsError::ConflictingEfforts {
                junction: sys.slots[s].name.clone(),
                ports: format!("{prev}, {who}"),
            });
        }
        provider[s] = Some(who);
        Ok(())
    };
    for st in &sys.states {
        provide(st.x, format!("state {}", st.name), &sys)?;
    }
    for st in &sys.storages {
        for &e in &st.efforts {
            provide(e, format!("storage {}", st.name), &sys)?;
        }
    }
    for a in &sys.algebraics {
        provide(a.slot, format!("unknown {}", a.name), &sys)?;
    }
    for &s in &port_inputs {
        provide(s, "outer port input".into(), &sys)?;
    }
    for i in &sys.instrs {
        for &o in &i.outputs {
            provide(o, format!("component {}", i.name), &sys)?;
        }
    }
    let mut constants: Vec<SlotId> = sys.constants.iter().map(|&s| m(s)).collect();
    constants.sort_unstable();
    constants.dedup();
    constants.retain(|&s| provider[s].is_none());
    for &c in &constants {
        provider[c] = Some("constant".into());
    }
    sys.constants = constants;

    // Every value that is read must be provided.
    let mut read: Vec<SlotId> = sys.instrs.iter().flat_map(|i| i.inputs.clone()).collect();
    read.extend(sys.states.iter().map(|s| s.rate));
    read.extend(sys.residuals.iter().map(|r| r.slot));
    read.extend(port_outputs.iter().copied());
    for s in read {
        if provider[s].is_none() {
            return Err(EphsError::Undetermined {
                variables: sys.slots[s].name.clone(),
                reason: "no component or junction determines this value".into(),
            });
        }
    }

    // Order the instructions: an instruction runs once all its inputs are known.
    let mut known: Vec<bool> = (0..ns)
        .map(|s| {
            provider[s]
                .as_ref()
                .is_some_and(|p| !p.starts_with("component"))
        })
        .collect();
    let mut pending = std::mem::take(&mut sys.instrs);
    let mut ordered = Vec::with_capacity(pending.len());
    while !pending.is_empty() {
        let before = pending.len();
        let mut rest = Vec::new();
        for ins in pending {
            if ins.inputs.iter().all(|&s| known[s]) {
                for &o in &ins.outputs {
                    known[o] = true;
                }
                ordered.push(ins);
            } else {
                rest.push(ins);
            }
        }
        pending = rest;
        if pending.len() == before {
            let items: Vec<String> = pending
                .iter()
                .map(|i| {
                    let waiting: Vec<&str> = i
                        .inputs
                        .iter()
                        .filter(|&&s| !known[s])
                        .map(|&s| sys.slots[s].name.as_str())
                        .collect();
                    format!("{} (waits for {})", i.name, waiting.join(", "))
                })
                .collect();
            return Err(EphsError::AlgebraicLoop {
                items: items.join("; "),
            });
        }
    }
    sys.instrs = ordered;
    Ok(sys)
}

/// Semantics of a system by **flattening first**: the hierarchy is flattened to
/// primitives ([`flatten`]) and the primitives are composed along the flat pattern.
pub fn assemble(system: &System) -> Result<OpenSystem, EphsError> {
    match system {
        System::Primitive(p) => Ok(primitive_system(p)),
        System::Composite(c) => {
            let flat = flatten(c)?;
            let subs = flat
                .primitives
                .iter()
                .map(|p| (primitive_system(p), BTreeMap::new()))
                .collect();
            compose(&flat.pattern, subs)
        }
    }
}

/// Semantics of a system **level by level**: each filling system is interpreted first
/// (recursively) and the results are interconnected along the pattern.
pub fn assemble_nested(system: &System) -> Result<OpenSystem, EphsError> {
    match system {
        System::Primitive(p) => Ok(primitive_system(p)),
        System::Composite(c) => {
            c.check_complete()?;
            let mut subs = Vec::new();
            for b in 0..c.pattern.boxes().len() {
                let f = c.filling(b)?;
                subs.push((assemble_nested(&f.system)?, f.renaming.clone()));
            }
            compose(&c.pattern, subs)
        }
    }
}
