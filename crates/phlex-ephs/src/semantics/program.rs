//! Semantics of a system as an **open system**: its port variables and internal
//! variables, stored in *slots*, and an ordered list of instructions that evaluates all
//! flows, efforts and residuals (seed 001 §2, "the semantics of a composite system is the
//! subsystems' equations plus all junction equations, with the interface variables
//! eliminated"; summary §1.4).
//!
//! Every slot holds one port variable (a state `x`, an effort `e` or a flow `f`) or an
//! internal variable. It is *provided* by exactly one of:
//!
//! * a differential state (the storage state, set by the driver),
//! * a storage effort (set by the driver: $\mathrm dE(x)$ for Radau, a discrete gradient
//!   for the energy-consistent midpoint rule, $0$ for the environment),
//! * an algebraic unknown (junction effort without storage, Lagrange multiplier),
//! * an input of an outer port (the flow of a flow-in port, the effort of an effort-in
//!   port, the state of a state-input port),
//! * a constant zero (unused states), or
//! * an instruction (a primitive operator or a junction's flow balance).
//!
//! **Causality of power ports.** A port is *flow-in* (the system takes the flow and
//! returns the effort: storages, transformer outputs, composites whose junction has an
//! effort source) or *effort-in* (the system takes the effort and returns the flow:
//! Poisson, constraint and Onsager structures, composites whose junction has no effort
//! source). Effort outputs never depend on flow inputs, so efforts can be evaluated
//! before flows.
use std::sync::Arc;

use crate::language::interface::PortKind;
use crate::language::operators::{
    ConstraintOperator, Energy, OnsagerOperator, PoissonOperator, TransformerOperator,
};
use crate::language::quantity::Quantity;
use crate::language::space::Space;

/// Index of a slot.
pub type SlotId = usize;

/// A named value of fixed length.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    /// Hierarchical name, e.g. `osc.ke.p.e`.
    pub name: String,
    /// Number of scalars.
    pub len: usize,
}

/// Causality of a power port as seen from the system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Causality {
    /// The flow is an input, the effort an output.
    FlowIn,
    /// The effort is an input, the flow an output.
    EffortIn,
}

/// Role of a port's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateRole {
    /// The system provides the state (it has the storage of this energy domain).
    Output(SlotId),
    /// The system reads the state.
    Input(SlotId),
    /// The system neither provides nor reads it (a constant slot).
    Unused(SlotId),
}

impl StateRole {
    /// The slot.
    pub fn slot(&self) -> SlotId {
        match *self {
            StateRole::Output(s) | StateRole::Input(s) | StateRole::Unused(s) => s,
        }
    }
}

/// Power variables of a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PowerRole {
    /// Causality.
    pub causality: Causality,
    /// Effort slot.
    pub effort: SlotId,
    /// Flow slot.
    pub flow: SlotId,
}

/// A port of an open system.
#[derive(Debug, Clone, PartialEq)]
pub struct SysPort {
    /// Port name.
    pub name: String,
    /// Quantity.
    pub quantity: Quantity,
    /// Power or state port.
    pub kind: PortKind,
    /// State role.
    pub state: StateRole,
    /// Power variables (power ports only).
    pub power: Option<PowerRole>,
}

/// A differential state: coordinates `x` and the (left-trivialized) rate `rate`, the
/// flow into its storage.
#[derive(Debug, Clone, PartialEq)]
pub struct StateVar {
    /// Name, e.g. `osc.pe.q`.
    pub name: String,
    /// Quantity of the state.
    pub quantity: Quantity,
    /// Coordinates slot.
    pub x: SlotId,
    /// Rate slot.
    pub rate: SlotId,
}

impl StateVar {
    /// The state space.
    pub fn space(&self) -> Space {
        self.quantity.space
    }
}

/// Energy of a storage for the driver.
#[derive(Clone)]
pub enum StorageEnergy {
    /// Mechanical storage: exergy = energy $E$, effort $\mathrm dE$.
    Mechanical(Arc<dyn Energy>),
    /// Reference environment: exergy 0 (effort 0), energy $\theta_0 s$.
    Environment,
}

/// A storage component: its states and effort slots (one per port).
#[derive(Clone)]
pub struct StorageVar {
    /// Name, e.g. `osc.ke`.
    pub name: String,
    /// Energy.
    pub energy: StorageEnergy,
    /// Indices into the state list (one per port).
    pub states: Vec<usize>,
    /// Effort slots (one per port).
    pub efforts: Vec<SlotId>,
}

/// An algebraic unknown.
#[derive(Debug, Clone, PartialEq)]
pub struct AlgVar {
    /// Name, e.g. `j.p_r.e` or `j.hc.lambda`.
    pub name: String,
    /// Slot.
    pub slot: SlotId,
    /// DAE index (1 or 2).
    pub index: u8,
}

/// An algebraic equation $0 = r$.
#[derive(Debug, Clone, PartialEq)]
pub struct ResVar {
    /// Name, e.g. `j.p_r.balance`.
    pub name: String,
    /// Slot holding $r$.
    pub slot: SlotId,
}

/// Operation of an instruction. The inputs are slots; the first `n_x` hold port states
/// (concatenated into `x` for the operator).
#[derive(Clone)]
pub enum Op {
    /// `out = Σ inputs[..n_plus] − Σ inputs[n_plus..]` (flow balance).
    Sum {
        /// Number of added inputs.
        n_plus: usize,
    },
    /// $f = J(x)e$: inputs `x…, e…`, outputs `f…`.
    Poisson(Arc<dyn PoissonOperator>, usize),
    /// $e_B = T(x)e_A$: inputs `x…, e_A…`, outputs `e_B…`.
    TransformerEfforts(Arc<dyn TransformerOperator>, usize),
    /// $f_A = -T(x)^\top f_B$: inputs `x…, f_B…`, outputs `f_A…`.
    TransformerFlows(Arc<dyn TransformerOperator>, usize),
    /// $f = C(x)^\top\lambda$: inputs `x…, λ`, outputs `f…`.
    ConstraintFlows(Arc<dyn ConstraintOperator>, usize),
    /// $r = C(x)e$: inputs `x…, e…`, output `r`.
    ConstraintResidual(Arc<dyn ConstraintOperator>, usize),
    /// $f = M(x, e)e/\theta_0$: inputs `x…, e…`, outputs `f…`.
    Onsager(Arc<dyn OnsagerOperator>, usize),
}

/// One evaluation step.
#[derive(Clone)]
pub struct Instr {
    /// Name for messages (`osc.pkc`, `p.balance`).
    pub name: String,
    /// Operation.
    pub op: Op,
    /// Input slots.
    pub inputs: Vec<SlotId>,
    /// Output slots.
    pub outputs: Vec<SlotId>,
}

/// The variables of one primitive port, for diagnostics (`b1.ke.p` → x, e, f).
#[derive(Debug, Clone, PartialEq)]
pub struct PortRecord {
    /// Hierarchical port name.
    pub name: String,
    /// Quantity.
    pub quantity: Quantity,
    /// Kind.
    pub kind: PortKind,
    /// State slot.
    pub x: SlotId,
    /// Effort slot (power ports).
    pub e: Option<SlotId>,
    /// Flow slot (power ports).
    pub f: Option<SlotId>,
}

/// An irreversible component, for the exergy-destruction diagnostic.
#[derive(Debug, Clone, PartialEq)]
pub struct IrreversibleRecord {
    /// Name, e.g. `mf`.
    pub name: String,
    /// Its ports (indices into the port records).
    pub ports: Vec<usize>,
}

/// The semantics of a system (see the module docs).
#[derive(Clone, Default)]
pub struct OpenSystem {
    /// All slots.
    pub slots: Vec<Slot>,
    /// Outer ports.
    pub ports: Vec<SysPort>,
    /// Differential states.
    pub states: Vec<StateVar>,
    /// Storage components.
    pub storages: Vec<StorageVar>,
    /// Algebraic unknowns.
    pub algebraics: Vec<AlgVar>,
    /// Algebraic equations.
    pub residuals: Vec<ResVar>,
    /// Instructions in evaluation order.
    pub instrs: Vec<Instr>,
    /// Primitive ports.
    pub records: Vec<PortRecord>,
    /// Irreversible components.
    pub irreversibles: Vec<IrreversibleRecord>,
    /// Constant (zero) slots.
    pub constants: Vec<SlotId>,
}

impl std::fmt::Debug for OpenSystem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenSystem")
            .field(
                "ports",
                &self.ports.iter().map(|p| &p.name).collect::<Vec<_>>(),
            )
            .field(
                "states",
                &self.states.iter().map(|s| &s.name).collect::<Vec<_>>(),
            )
            .field(
                "algebraics",
                &self.algebraics.iter().map(|s| &s.name).collect::<Vec<_>>(),
            )
            .field(
                "residuals",
                &self.residuals.iter().map(|s| &s.name).collect::<Vec<_>>(),
            )
            .field("instructions", &self.instrs.len())
            .finish()
    }
}

impl OpenSystem {
    /// Adds a slot.
    pub fn new_slot(&mut self, name: String, len: usize) -> SlotId {
        self.slots.push(Slot { name, len });
        self.slots.len() - 1
    }
    /// Index of the primitive port record `name` (e.g. `osc.pe.q`).
    pub fn record(&self, name: &str) -> Option<&PortRecord> {
        self.records.iter().find(|r| r.name == name)
    }
    /// Scalar count of the algebraic unknowns.
    pub fn algebraic_len(&self) -> usize {
        self.algebraics.iter().map(|a| self.slots[a.slot].len).sum()
    }
    /// Scalar count of the residuals.
    pub fn residual_len(&self) -> usize {
        self.residuals.iter().map(|a| self.slots[a.slot].len).sum()
    }
}

/// Values of all slots of an [`OpenSystem`] plus scratch buffers (allocated once).
#[derive(Debug, Clone)]
pub struct Workspace {
    /// Offsets of the slots in `values`.
    pub offsets: Vec<usize>,
    /// All slot values.
    pub values: Vec<f64>,
    input: Vec<f64>,
    output: Vec<f64>,
    mat: Vec<f64>,
}

impl Workspace {
    /// A zeroed workspace for `sys`.
    pub fn new(sys: &OpenSystem) -> Self {
        let mut offsets = Vec::with_capacity(sys.slots.len() + 1);
        let mut o = 0;
        for s in &sys.slots {
            offsets.push(o);
            o += s.len;
        }
        offsets.push(o);
        Self {
            offsets,
            values: vec![0.0; o],
            input: Vec::new(),
            output: Vec::new(),
            mat: Vec::new(),
        }
    }
    /// The values of a slot.
    pub fn slot(&self, s: SlotId) -> &[f64] {
        &self.values[self.offsets[s]..self.offsets[s + 1]]
    }
    /// The values of a slot, mutable.
    pub fn slot_mut(&mut self, s: SlotId) -> &mut [f64] {
        let (a, b) = (self.offsets[s], self.offsets[s + 1]);
        &mut self.values[a..b]
    }

    /// Runs all instructions of `sys` (the provided slots must be set).
    pub fn run(&mut self, sys: &OpenSystem, theta0: f64) {
        for ins in &sys.instrs {
            self.exec(ins, theta0);
        }
    }

    fn gather(&mut self, slots: &[SlotId]) -> usize {
        self.input.clear();
        for &s in slots {
            let (a, b) = (self.offsets[s], self.offsets[s + 1]);
            self.input.extend_from_slice(&self.values[a..b]);
        }
        self.input.len()
    }

    fn len_of(&self, slots: &[SlotId]) -> usize {
        slots
            .iter()
            .map(|&s| self.offsets[s + 1] - self.offsets[s])
            .sum()
    }

    fn scatter(&mut self, slots: &[SlotId]) {
        let mut k = 0;
        for &s in slots {
            let (a, b) = (self.offsets[s], self.offsets[s + 1]);
            self.values[a..b].copy_from_slice(&self.output[k..k + b - a]);
            k += b - a;
        }
    }

    fn exec(&mut self, ins: &Instr, theta0: f64) {
        let nout = self.len_of(&ins.outputs);
        self.output.clear();
        self.output.resize(nout, 0.0);
        match &ins.op {
            Op::Sum { n_plus } => {
                for (k, &s) in ins.inputs.iter().enumerate() {
                    let sign = if k < *n_plus { 1.0 } else { -1.0 };
                    let (a, b) = (self.offsets[s], self.offsets[s + 1]);
                    for (o, v) in self.output.iter_mut().zip(&self.values[a..b]) {
                        *o += sign * v;
                    }
                }
            }
            Op::Poisson(op, n_x) => {
                let nx = self.len_of(&ins.inputs[..*n_x]);
                self.gather(&ins.inputs);
                let n = nout;
                self.mat.clear();
                self.mat.resize(n * n, 0.0);
                op.matrix(&self.input[..nx], &mut self.mat);
                let e = &self.input[nx..];
                for i in 0..n {
                    self.output[i] = (0..n).map(|j| self.mat[i * n + j] * e[j]).sum();
                }
            }
            Op::TransformerEfforts(op, n_x) => {
                let nx = self.len_of(&ins.inputs[..*n_x]);
                let total = self.gather(&ins.inputs);
                let (na, nb) = (total - nx, nout);
                self.mat.clear();
                self.mat.resize(na * nb, 0.0);
                op.matrix(&self.input[..nx], &mut self.mat);
                let e = &self.input[nx..];
                for i in 0..nb {
                    self.output[i] = (0..na).map(|j| self.mat[i * na + j] * e[j]).sum();
                }
            }
            Op::TransformerFlows(op, n_x) => {
                let nx = self.len_of(&ins.inputs[..*n_x]);
                let total = self.gather(&ins.inputs);
                let (nb, na) = (total - nx, nout);
                self.mat.clear();
                self.mat.resize(na * nb, 0.0);
                op.matrix(&self.input[..nx], &mut self.mat);
                let f = &self.input[nx..];
                for j in 0..na {
                    self.output[j] = -(0..nb).map(|i| self.mat[i * na + j] * f[i]).sum::<f64>();
                }
            }
            Op::ConstraintFlows(op, n_x) => {
                let nx = self.len_of(&ins.inputs[..*n_x]);
                let total = self.gather(&ins.inputs);
                let (m, n) = (total - nx, nout);
                self.mat.clear();
                self.mat.resize(m * n, 0.0);
                op.matrix(&self.input[..nx], &mut self.mat);
                let lam = &self.input[nx..];
                for j in 0..n {
                    self.output[j] = (0..m).map(|i| self.mat[i * n + j] * lam[i]).sum();
                }
            }
            Op::ConstraintResidual(op, n_x) => {
                let nx = self.len_of(&ins.inputs[..*n_x]);
                let total = self.gather(&ins.inputs);
                let (m, n) = (nout, total - nx);
                self.mat.clear();
                self.mat.resize(m * n, 0.0);
                op.matrix(&self.input[..nx], &mut self.mat);
                let e = &self.input[nx..];
                for i in 0..m {
                    self.output[i] = (0..n).map(|j| self.mat[i * n + j] * e[j]).sum();
                }
            }
            Op::Onsager(op, n_x) => {
                let nx = self.len_of(&ins.inputs[..*n_x]);
                self.gather(&ins.inputs);
                let n = nout;
                self.mat.clear();
                self.mat.resize(n * n, 0.0);
                let (x, e) = self.input.split_at(nx);
                op.matrix(x, e, theta0, &mut self.mat);
                for i in 0..n {
                    self.output[i] =
                        (0..n).map(|j| self.mat[i * n + j] * e[j]).sum::<f64>() / theta0;
                }
            }
        }
        self.scatter(&ins.outputs);
    }
}
