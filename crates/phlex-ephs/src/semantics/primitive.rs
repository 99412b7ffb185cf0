//! The open system of a primitive component (seed 001 eqs. (1)–(3), (6), (7); summary
//! §1.3). Names are relative to the component (`q.x`, `q.e`, `lambda`); composition
//! prefixes them with the box name.
use crate::language::interface::PortKind;
use crate::language::primitive::{Dirac, Primitive, PrimitiveKind};
use crate::semantics::program::*;

/// Builds the open system of a primitive.
pub fn primitive_system(p: &Primitive) -> OpenSystem {
    let mut s = OpenSystem::default();
    let is_storage = matches!(
        p.kind,
        PrimitiveKind::Storage(_) | PrimitiveKind::Environment
    );
    let mut xs = Vec::new();
    let mut es = Vec::new();
    let mut fs = Vec::new();
    for (k, port) in p.interface.ports().iter().enumerate() {
        let q = &port.quantity;
        let x = s.new_slot(format!("{}.x", port.name), q.space.coords());
        let state = if is_storage {
            StateRole::Output(x)
        } else if p.reads_state[k] {
            StateRole::Input(x)
        } else {
            s.constants.push(x);
            StateRole::Unused(x)
        };
        xs.push(x);
        let (e, f) = if port.kind == PortKind::Power {
            let e = s.new_slot(format!("{}.e", port.name), q.space.dim());
            let f = s.new_slot(format!("{}.f", port.name), q.space.dim());
            es.push(e);
            fs.push(f);
            (Some(e), Some(f))
        } else {
            (None, None)
        };
        s.records.push(PortRecord {
            name: port.name.clone(),
            quantity: q.clone(),
            kind: port.kind,
            x,
            e,
            f,
        });
        s.ports.push(SysPort {
            name: port.name.clone(),
            quantity: q.clone(),
            kind: port.kind,
            state,
            power: e.zip(f).map(|(effort, flow)| PowerRole {
                causality: if is_storage {
                    Causality::FlowIn
                } else {
                    Causality::EffortIn
                },
                effort,
                flow,
            }),
        });
    }
    let inputs = |rest: &[SlotId]| -> Vec<SlotId> { xs.iter().chain(rest).copied().collect() };
    let nx = xs.len();
    match &p.kind {
        PrimitiveKind::Storage(_) | PrimitiveKind::Environment => {
            for (k, port) in p.interface.ports().iter().enumerate() {
                s.states.push(StateVar {
                    name: port.name.clone(),
                    quantity: port.quantity.clone(),
                    x: xs[k],
                    rate: fs[k],
                });
            }
            s.storages.push(StorageVar {
                name: String::new(),
                energy: match &p.kind {
                    PrimitiveKind::Storage(e) => StorageEnergy::Mechanical(e.clone()),
                    _ => StorageEnergy::Environment,
                },
                states: (0..xs.len()).collect(),
                efforts: es.clone(),
            });
        }
        PrimitiveKind::Reversible(Dirac::Poisson(op)) => {
            s.instrs.push(Instr {
                name: String::new(),
                op: Op::Poisson(op.clone(), nx),
                inputs: inputs(&es),
                outputs: fs.clone(),
            });
        }
        PrimitiveKind::Reversible(Dirac::Transformer { op, flow_in }) => {
            let (mut ea, mut fa, mut eb, mut fb) = (vec![], vec![], vec![], vec![]);
            let mut k = 0;
            for port in s.ports.iter_mut() {
                if let Some(pw) = port.power.as_mut() {
                    if flow_in[k] {
                        pw.causality = Causality::FlowIn;
                        eb.push(pw.effort);
                        fb.push(pw.flow);
                    } else {
                        ea.push(pw.effort);
                        fa.push(pw.flow);
                    }
                    k += 1;
                }
            }
            s.instrs.push(Instr {
                name: "efforts".into(),
                op: Op::TransformerEfforts(op.clone(), nx),
                inputs: inputs(&ea),
                outputs: eb,
            });
            s.instrs.push(Instr {
                name: "flows".into(),
                op: Op::TransformerFlows(op.clone(), nx),
                inputs: inputs(&fb),
                outputs: fa,
            });
        }
        PrimitiveKind::Reversible(Dirac::Constraint(op)) => {
            let m = op.multipliers();
            let lam = s.new_slot("lambda".into(), m);
            s.algebraics.push(AlgVar {
                name: "lambda".into(),
                slot: lam,
                index: 2,
            });
            let r = s.new_slot("constraint".into(), m);
            s.residuals.push(ResVar {
                name: "constraint".into(),
                slot: r,
            });
            s.instrs.push(Instr {
                name: "flows".into(),
                op: Op::ConstraintFlows(op.clone(), nx),
                inputs: inputs(&[lam]),
                outputs: fs.clone(),
            });
            s.instrs.push(Instr {
                name: "constraint".into(),
                op: Op::ConstraintResidual(op.clone(), nx),
                inputs: inputs(&es),
                outputs: vec![r],
            });
        }
        PrimitiveKind::Irreversible(op) => {
            s.instrs.push(Instr {
                name: String::new(),
                op: Op::Onsager(op.clone(), nx),
                inputs: inputs(&es),
                outputs: fs.clone(),
            });
            s.irreversibles.push(IrreversibleRecord {
                name: String::new(),
                ports: (0..s.records.len())
                    .filter(|&k| s.records[k].kind == PortKind::Power)
                    .collect(),
            });
        }
    }
    s
}
