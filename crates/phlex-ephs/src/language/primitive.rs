//! The four kinds of primitive components (seed 001 §2; summary §1.3):
//!
//! 1. **storage** $(I, E)$: $x = x$, $f = \dot x$, $e = \mathrm dE(x)$ (eqs. (1), (2), (18),
//!    (20), (25)); for mechanical storage exergy = energy;
//! 2. **reversible** $(I, \mathcal D)$ with a Dirac structure in Poisson, transformer or
//!    constraint form (eqs. (3), (19), (21), (26)–(28));
//! 3. **irreversible** $(I, \mathcal O)$ with an Onsager structure
//!    $f = \frac1{\theta_0}M(x,e)e$ (eqs. (6), (29));
//! 4. **environment**: entropy storage of the isothermal reference environment with zero
//!    exergy, so $e = 0$ and energy $U = \theta_0 s$ (eqs. (7), (30)).
use std::fmt;
use std::sync::Arc;

use crate::error::EphsError;
use crate::language::interface::{Interface, PortKind};
use crate::language::operators::{
    ConstraintOperator, Energy, OnsagerOperator, PoissonOperator, TransformerOperator,
};
use crate::language::quantity::Quantity;

/// A Dirac structure (reversible component).
#[derive(Clone)]
pub enum Dirac {
    /// $f = J(x)e$ on all power ports.
    Poisson(Arc<dyn PoissonOperator>),
    /// $e_B = T(x)e_A$, $f_A = -T(x)^\top f_B$. `flow_in[k]` is true for the power ports
    /// of set $B$ (flow input, effort output), in power-port order.
    Transformer {
        /// The operator $T$.
        op: Arc<dyn TransformerOperator>,
        /// Membership in $B$ per power port.
        flow_in: Vec<bool>,
    },
    /// $f = C(x)^\top\lambda$, $0 = C(x)e$.
    Constraint(Arc<dyn ConstraintOperator>),
}

/// The kind of a primitive component.
#[derive(Clone)]
pub enum PrimitiveKind {
    /// Storage with its energy (= exergy) function.
    Storage(Arc<dyn Energy>),
    /// The reference environment (entropy storage with zero exergy).
    Environment,
    /// Reversible component.
    Reversible(Dirac),
    /// Irreversible component.
    Irreversible(Arc<dyn OnsagerOperator>),
}

/// A primitive component: interface, kind, and which ports' states its operator reads.
#[derive(Clone)]
pub struct Primitive {
    /// Short description, e.g. `hookean_spring(k = 2)`.
    pub description: String,
    /// Interface.
    pub interface: Interface,
    /// Kind.
    pub kind: PrimitiveKind,
    /// Per port: the operator reads the port's state (always true for state ports).
    pub reads_state: Vec<bool>,
}

impl fmt::Debug for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match &self.kind {
            PrimitiveKind::Storage(_) => "storage",
            PrimitiveKind::Environment => "environment",
            PrimitiveKind::Reversible(_) => "reversible",
            PrimitiveKind::Irreversible(_) => "irreversible",
        };
        write!(
            f,
            "Primitive({kind} {}, ports: {})",
            self.description,
            self.interface.names()
        )
    }
}

fn structure_err(component: &str, detail: String) -> EphsError {
    EphsError::Structure {
        component: component.into(),
        detail,
    }
}

impl Primitive {
    /// The kind as a word (`storage`, `environment`, `reversible`, `irreversible`).
    pub fn kind_name(&self) -> &'static str {
        match &self.kind {
            PrimitiveKind::Storage(_) => "storage",
            PrimitiveKind::Environment => "environment",
            PrimitiveKind::Reversible(_) => "reversible",
            PrimitiveKind::Irreversible(_) => "irreversible",
        }
    }
    /// Total dimension of the power ports.
    pub fn power_dim(&self) -> usize {
        self.interface
            .ports()
            .iter()
            .filter(|p| p.kind == PortKind::Power)
            .map(|p| p.quantity.space.dim())
            .sum()
    }
    /// Total coordinates of all port states.
    pub fn state_coords(&self) -> usize {
        self.interface
            .ports()
            .iter()
            .map(|p| p.quantity.space.coords())
            .sum()
    }

    /// A storage component; all ports must be power ports.
    pub fn storage(
        description: &str,
        interface: Interface,
        energy: Arc<dyn Energy>,
    ) -> Result<Self, EphsError> {
        if let Some(p) = interface.ports().iter().find(|p| p.kind != PortKind::Power) {
            return Err(structure_err(
                description,
                format!("storage port '{}' must be a power port", p.name),
            ));
        }
        if interface.is_empty() {
            return Err(structure_err(
                description,
                "a storage needs at least one port".into(),
            ));
        }
        let n = interface.len();
        Ok(Self {
            description: description.into(),
            interface,
            kind: PrimitiveKind::Storage(energy),
            reads_state: vec![true; n],
        })
    }

    /// The environment component with its entropy port `s`.
    pub fn environment() -> Self {
        let mut interface = Interface::new();
        interface
            .add("s", Quantity::entropy(), PortKind::Power)
            .expect("fresh interface");
        Self {
            description: "environment".into(),
            interface,
            kind: PrimitiveKind::Environment,
            reads_state: vec![true],
        }
    }

    fn reads(interface: &Interface, reads_power_state: &[&str]) -> Result<Vec<bool>, EphsError> {
        for r in reads_power_state {
            if interface.get(r).is_none() {
                return Err(EphsError::unknown(
                    "port",
                    r,
                    "reads_state list",
                    interface.ports().iter().map(|p| p.name.as_str()),
                ));
            }
        }
        Ok(interface
            .ports()
            .iter()
            .map(|p| p.kind == PortKind::State || reads_power_state.contains(&p.name.as_str()))
            .collect())
    }

    fn no_entropy_ports(description: &str, interface: &Interface) -> Result<(), EphsError> {
        // Pitfall 19 of the summary: arbitrary Dirac structures must not touch entropy.
        if let Some(p) = interface.ports().iter().find(|p| p.quantity.is_entropy()) {
            return Err(structure_err(
                description,
                format!(
                    "reversible components may not have entropy ports ('{}')",
                    p.name
                ),
            ));
        }
        Ok(())
    }

    /// A reversible component in Poisson form; `reads_state` lists the power ports whose
    /// states $J$ depends on (state ports are always read).
    pub fn poisson(
        description: &str,
        interface: Interface,
        op: Arc<dyn PoissonOperator>,
        reads_state: &[&str],
    ) -> Result<Self, EphsError> {
        Self::no_entropy_ports(description, &interface)?;
        let reads_state = Self::reads(&interface, reads_state)?;
        Ok(Self {
            description: description.into(),
            interface,
            kind: PrimitiveKind::Reversible(Dirac::Poisson(op)),
            reads_state,
        })
    }

    /// A reversible component in transformer form; `flow_in` names the power ports of
    /// set $B$ (their flow is an input and their effort an output).
    pub fn transformer(
        description: &str,
        interface: Interface,
        op: Arc<dyn TransformerOperator>,
        flow_in: &[&str],
        reads_state: &[&str],
    ) -> Result<Self, EphsError> {
        Self::no_entropy_ports(description, &interface)?;
        let reads_state = Self::reads(&interface, reads_state)?;
        let mut mask = Vec::new();
        for p in interface
            .ports()
            .iter()
            .filter(|p| p.kind == PortKind::Power)
        {
            mask.push(flow_in.contains(&p.name.as_str()));
        }
        for f in flow_in {
            match interface.get(f) {
                Some(p) if p.kind == PortKind::Power => {}
                _ => {
                    return Err(EphsError::unknown(
                        "power port",
                        f,
                        &format!("flow_in list of '{description}'"),
                        interface.ports().iter().map(|p| p.name.as_str()),
                    ))
                }
            }
        }
        Ok(Self {
            description: description.into(),
            interface,
            kind: PrimitiveKind::Reversible(Dirac::Transformer { op, flow_in: mask }),
            reads_state,
        })
    }

    /// A reversible component in constraint form with `op.multipliers()` Lagrange
    /// multipliers.
    pub fn constraint(
        description: &str,
        interface: Interface,
        op: Arc<dyn ConstraintOperator>,
        reads_state: &[&str],
    ) -> Result<Self, EphsError> {
        Self::no_entropy_ports(description, &interface)?;
        let reads_state = Self::reads(&interface, reads_state)?;
        if op.multipliers() == 0 {
            return Err(structure_err(
                description,
                "a constraint needs at least one multiplier".into(),
            ));
        }
        Ok(Self {
            description: description.into(),
            interface,
            kind: PrimitiveKind::Reversible(Dirac::Constraint(op)),
            reads_state,
        })
    }

    /// An irreversible component; it needs at least one power port of quantity
    /// $(\mathbb R, \text{entropy})$ and no state ports.
    pub fn irreversible(
        description: &str,
        interface: Interface,
        op: Arc<dyn OnsagerOperator>,
        reads_state: &[&str],
    ) -> Result<Self, EphsError> {
        if !interface
            .ports()
            .iter()
            .any(|p| p.kind == PortKind::Power && p.quantity.is_entropy())
        {
            return Err(structure_err(
                description,
                "an irreversible component needs an entropy power port (where the dissipated energy goes)".into(),
            ));
        }
        let reads_state = Self::reads(&interface, reads_state)?;
        Ok(Self {
            description: description.into(),
            interface,
            kind: PrimitiveKind::Irreversible(op),
            reads_state,
        })
    }

    /// Checks the defining structure at one point `(x, e)` (states of all ports, efforts
    /// of the power ports), with tolerance `tol` relative to the operator's size:
    /// Poisson $J + J^\top = 0$; Onsager $M = M^\top$, $M \succeq 0$ (pivoted
    /// $LDL^\top$), $M\varepsilon = 0$. Transformer and constraint forms conserve power by
    /// construction; storage and environment have nothing to check.
    pub fn verify_structure(
        &self,
        x: &[f64],
        e: &[f64],
        theta0: f64,
        tol: f64,
    ) -> Result<(), EphsError> {
        let n = self.power_dim();
        if x.len() != self.state_coords() || e.len() != n {
            return Err(EphsError::Dimension {
                what: format!("structure check of '{}'", self.description),
                expected: self.state_coords() + n,
                found: x.len() + e.len(),
            });
        }
        match &self.kind {
            PrimitiveKind::Reversible(Dirac::Poisson(op)) => {
                let mut J = vec![0.0; n * n];
                op.matrix(x, &mut J);
                let scale = J.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
                for i in 0..n {
                    for j in 0..n {
                        let d = (J[i * n + j] + J[j * n + i]).abs();
                        if d > tol * scale {
                            return Err(structure_err(
                                &self.description,
                                format!(
                                    "J is not skew-symmetric: |J[{i},{j}] + J[{j},{i}]| = {d:.3e}"
                                ),
                            ));
                        }
                    }
                }
            }
            PrimitiveKind::Irreversible(op) => {
                let mut M = vec![0.0; n * n];
                op.matrix(x, e, theta0, &mut M);
                let scale = M.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
                for i in 0..n {
                    for j in 0..n {
                        let d = (M[i * n + j] - M[j * n + i]).abs();
                        if d > tol * scale {
                            return Err(structure_err(
                                &self.description,
                                format!("M is not symmetric: |M[{i},{j}] - M[{j},{i}]| = {d:.3e}"),
                            ));
                        }
                    }
                }
                if let Some(neg) = min_pivot_psd(&M, n, tol * scale) {
                    return Err(structure_err(
                        &self.description,
                        format!("M is not positive semidefinite (negative pivot {neg:.3e})"),
                    ));
                }
                // Energy covector: e at mechanical ports, θ0 + e at entropy ports.
                let mut eps = e.to_vec();
                let mut k = 0;
                for p in self
                    .interface
                    .ports()
                    .iter()
                    .filter(|p| p.kind == PortKind::Power)
                {
                    let d = p.quantity.space.dim();
                    if p.quantity.is_entropy() {
                        eps[k] += theta0;
                    }
                    k += d;
                }
                let escale = eps.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
                for i in 0..n {
                    let r: f64 = (0..n).map(|j| M[i * n + j] * eps[j]).sum();
                    if r.abs() > tol * scale * escale {
                        return Err(structure_err(
                            &self.description,
                            format!(
                                "M does not annihilate the energy covector: row {i} gives {r:.3e}"
                            ),
                        ));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// Symmetric pivoted elimination: returns the most negative pivot if one is below
/// `-tol` (so `None` means positive semidefinite up to `tol`).
fn min_pivot_psd(M: &[f64], n: usize, tol: f64) -> Option<f64> {
    let mut A = M.to_vec();
    let mut active: Vec<usize> = (0..n).collect();
    while !active.is_empty() {
        let (pi, &p) = active
            .iter()
            .enumerate()
            .max_by(|a, b| A[a.1 * n + a.1].total_cmp(&A[b.1 * n + b.1]))?;
        let d = A[p * n + p];
        if d < -tol {
            return Some(d);
        }
        if d <= tol {
            // Remaining block must vanish (a zero diagonal forces a zero row for PSD).
            for &i in &active {
                for &j in &active {
                    if A[i * n + j].abs() > tol.max(1e-300) * 10.0 && i != j {
                        return Some(-A[i * n + j].abs());
                    }
                    if i == j && A[i * n + i] < -tol {
                        return Some(A[i * n + i]);
                    }
                }
            }
            return None;
        }
        active.remove(pi);
        for &i in &active {
            let f = A[i * n + p] / d;
            for &j in &active {
                A[i * n + j] -= f * A[p * n + j];
            }
        }
    }
    None
}
