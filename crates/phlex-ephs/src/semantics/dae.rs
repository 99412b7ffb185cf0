//! The assembled semi-explicit DAE of a closed (or input-driven) EPHS model, exposed as a
//! [`phlex_solve::ImplicitDae`] with constant $M$ (summary §1.4, step 6):
//! $$ \dot x = \kappa\big(x, F(x, z, u(t))\big), \qquad 0 = G(x, z, u(t)), $$
//! where $x$ are the storage states (coordinates), $z$ the algebraic unknowns
//! (efforts of storage-free junctions, Lagrange multipliers), $F$ the flows into the
//! storages evaluated with efforts $\mathrm dE(x)$ (0 for the environment), $G$ the flow
//! balances and constraint residuals, and $\kappa$ the kinematics of each state space
//! ([`Space::kinematics`]: identity on vector spaces, $\dot R = R\tilde\omega$,
//! $\dot r = R\nu$ on $SE(3)$). $M = \mathrm{diag}(I, 0)$.
//!
//! The Jacobian $\partial f/\partial y$ is approximated by forward differences (it only
//! steers Newton's method inside the integrator; the residual is exact). Algebraic
//! variables are marked index 2 (error control scaled by $h$) when the Jacobian $G_z$ of
//! the algebraic equations with respect to the algebraic unknowns is rank deficient, i.e.
//! some combination of the equations constrains the states only (velocity constraints,
//! eq. (28)); else their own index (1 for junction efforts, 2 for multipliers).
use std::cell::RefCell;
use std::ops::Range;

use phlex_core::sparse::{SparseMat, Triplets};
use phlex_solve::{ImplicitDae, InputFn};

use crate::error::EphsError;
use crate::language::space::Space;
use crate::semantics::program::*;

/// The DAE of an assembled system (see the module docs).
pub struct EphsDae {
    sys: OpenSystem,
    theta0: f64,
    state_off: Vec<usize>,
    n_coords: usize,
    alg_off: Vec<usize>,
    n: usize,
    mass: SparseMat,
    indices: Vec<u8>,
    inputs: Vec<(String, SlotId)>,
    input_fn: InputFn,
    index2_rows: Vec<bool>,
    has_index2: bool,
    ws: RefCell<Workspace>,
    buf: RefCell<(Vec<f64>, Vec<f64>)>,
}

impl std::fmt::Debug for EphsDae {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EphsDae")
            .field("system", &self.sys)
            .field("theta0", &self.theta0)
            .field("dim", &self.n)
            .finish()
    }
}

/// A snapshot of all port variables at one `(t, y)` (see [`EphsDae::evaluate`]).
#[derive(Debug, Clone)]
pub struct Evaluation<'a> {
    sys: &'a OpenSystem,
    ws: Workspace,
    theta0: f64,
}

impl Evaluation<'_> {
    /// `(x, e, f)` of the primitive port `name` (e.g. `osc.pe.q`); `e`, `f` are empty for
    /// state ports.
    pub fn port(&self, name: &str) -> Option<(Vec<f64>, Vec<f64>, Vec<f64>)> {
        let r = self.sys.record(name)?;
        Some((
            self.ws.slot(r.x).to_vec(),
            r.e.map(|s| self.ws.slot(s).to_vec()).unwrap_or_default(),
            r.f.map(|s| self.ws.slot(s).to_vec()).unwrap_or_default(),
        ))
    }
    /// Power $\langle e \mid f\rangle$ flowing into the primitive through port `name`.
    pub fn power(&self, name: &str) -> Option<f64> {
        let (_, e, f) = self.port(name)?;
        Some(e.iter().zip(&f).map(|(a, b)| a * b).sum())
    }
    /// Exergy destruction rate $\sum\langle e\mid f\rangle = \theta_0\dot s_{irr} \ge 0$ of
    /// each irreversible component (seed 001 eq. (6) discussion).
    pub fn exergy_destruction(&self) -> Vec<(String, f64)> {
        self.sys
            .irreversibles
            .iter()
            .map(|ir| {
                let p: f64 = ir
                    .ports
                    .iter()
                    .map(|&k| {
                        let r = &self.sys.records[k];
                        let (e, f) = (r.e.expect("power"), r.f.expect("power"));
                        self.ws
                            .slot(e)
                            .iter()
                            .zip(self.ws.slot(f))
                            .map(|(a, b)| a * b)
                            .sum::<f64>()
                    })
                    .sum();
                (ir.name.clone(), p)
            })
            .collect()
    }
    /// Power $\langle e\mid f\rangle$ flowing *into* the system through each outer power
    /// port of the top system (`port`, value), the supply rate of the energy balance
    /// $\frac{\mathrm d}{\mathrm dt}(E_{mech} + \theta_0 s) = \sum_{ports}\langle e\mid f\rangle$.
    pub fn port_powers(&self) -> Vec<(String, f64)> {
        self.sys
            .ports
            .iter()
            .filter_map(|p| {
                let pw = p.power?;
                let v = self
                    .ws
                    .slot(pw.effort)
                    .iter()
                    .zip(self.ws.slot(pw.flow))
                    .map(|(a, b)| a * b)
                    .sum();
                Some((p.name.clone(), v))
            })
            .collect()
    }
    /// The reference temperature.
    pub fn theta0(&self) -> f64 {
        self.theta0
    }
}

impl EphsDae {
    /// The DAE of a closed system (or one whose outer-port inputs are zero; see
    /// [`EphsDae::with_inputs`]). Errors: `theta0 ≤ 0`, algebraic unknown/equation count
    /// mismatch, an algebraic unknown that appears in no equation.
    pub fn new(sys: OpenSystem, theta0: f64) -> Result<Self, EphsError> {
        if !(theta0 > 0.0 && theta0.is_finite()) {
            return Err(EphsError::Parameter {
                what: "theta0".into(),
                detail: format!("the reference temperature must satisfy 0 < θ0 < ∞ (got {theta0})"),
            });
        }
        let (na, nr) = (sys.algebraic_len(), sys.residual_len());
        if na != nr {
            return Err(EphsError::EquationCount {
                unknowns: na,
                unknown_names: sys
                    .algebraics
                    .iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                equations: nr,
                equation_names: sys
                    .residuals
                    .iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        // Structural dependence of residuals on algebraic unknowns.
        let influence = |seeds: &[SlotId]| -> Vec<bool> {
            let mut inf = vec![false; sys.slots.len()];
            for &s in seeds {
                inf[s] = true;
            }
            for ins in &sys.instrs {
                if ins.inputs.iter().any(|&s| inf[s]) {
                    for &o in &ins.outputs {
                        inf[o] = true;
                    }
                }
            }
            inf
        };
        for a in &sys.algebraics {
            let inf = influence(&[a.slot]);
            if !sys.residuals.iter().any(|r| inf[r.slot]) {
                return Err(EphsError::Undetermined {
                    variables: a.name.clone(),
                    reason: "it appears in no algebraic equation (no transformer, constraint or dissipative component determines this effort)".into(),
                });
            }
        }
        let all_alg: Vec<SlotId> = sys.algebraics.iter().map(|a| a.slot).collect();
        let inf = influence(&all_alg);
        let mut index2_rows = Vec::new();
        for r in &sys.residuals {
            index2_rows.extend(std::iter::repeat_n(!inf[r.slot], sys.slots[r.slot].len));
        }

        let mut state_off = Vec::new();
        let mut o = 0;
        for s in &sys.states {
            state_off.push(o);
            o += s.space().coords();
        }
        let n_coords = o;
        let mut alg_off = Vec::new();
        for a in &sys.algebraics {
            alg_off.push(o);
            o += sys.slots[a.slot].len;
        }
        let n = o;
        let mut t = Triplets::new(n, n);
        for i in 0..n_coords {
            t.push(i, i, 1.0);
        }
        let mut indices = vec![0u8; n_coords];
        for a in &sys.algebraics {
            let idx = a.index;
            indices.extend(std::iter::repeat_n(idx, sys.slots[a.slot].len));
        }
        let mut inputs = Vec::new();
        for p in &sys.ports {
            if let StateRole::Input(s) = p.state {
                inputs.push((format!("{}.x", p.name), s));
            }
            if let Some(pw) = p.power {
                match pw.causality {
                    Causality::FlowIn => inputs.push((format!("{}.f", p.name), pw.flow)),
                    Causality::EffortIn => inputs.push((format!("{}.e", p.name), pw.effort)),
                }
            }
        }
        let n_in: usize = inputs.iter().map(|(_, s)| sys.slots[*s].len).sum();
        let ws = Workspace::new(&sys);
        let mut dae = Self {
            mass: t.build(),
            indices,
            state_off,
            n_coords,
            alg_off,
            n,
            inputs,
            input_fn: InputFn::zeros(n_in),
            index2_rows,
            has_index2: false,
            ws: RefCell::new(ws),
            buf: RefCell::new((Vec::new(), Vec::new())),
            sys,
            theta0,
        };
        dae.detect_index2();
        if dae.has_index2 {
            for v in &mut dae.indices[n_coords..] {
                *v = 2;
            }
        }
        Ok(dae)
    }

    /// Detects index 2: the Jacobian $G_z$ of the algebraic equations with respect to the
    /// algebraic unknowns is rank deficient (some combination of equations constrains
    /// the states only, e.g. velocity constraints), structurally (no instruction path) or
    /// numerically at a pseudo-random probe point (forward differences, SVD).
    fn detect_index2(&mut self) {
        let na = self.n_algebraic();
        if na == 0 {
            return;
        }
        if self.index2_rows.iter().any(|&b| b) {
            self.has_index2 = true;
            return;
        }
        // Deterministic probe: states retracted from the identity, unknowns in (−1, 1).
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let mut y = self.default_state();
        for (s, o) in self.state_layout() {
            let c = s.coords();
            let v: Vec<f64> = (0..s.dim()).map(|_| 0.5 * next()).collect();
            let x0 = y[o..o + c].to_vec();
            s.retract(&x0, &v, &mut y[o..o + c]);
        }
        for v in &mut y[self.n_coords..] {
            *v = next();
        }
        let nc = self.n_coords;
        let gz = self.algebraic_jacobian(0.0, &y[..nc], &y[nc..]);
        let (_, rank) = svd_split(&gz, na);
        self.has_index2 = rank < na;
    }

    /// $G_z$ by forward differences (row-major).
    fn algebraic_jacobian(&self, t: f64, x: &[f64], z: &[f64]) -> Vec<f64> {
        let na = self.n_algebraic();
        let nt = self.n_tangent();
        let mut ws = self.workspace();
        let mut rates = vec![0.0; nt];
        let mut r0 = vec![0.0; na];
        let mut r1 = vec![0.0; na];
        self.load_and_run(&mut ws, t, x, z, None);
        self.read_rates(&ws, &mut rates, &mut r0);
        let mut J = vec![0.0; na * na];
        let mut zp = z.to_vec();
        for j in 0..na {
            let h = 1e-7 * z[j].abs().max(1.0);
            zp[j] = z[j] + h;
            self.load_and_run(&mut ws, t, x, &zp, None);
            self.read_rates(&ws, &mut rates, &mut r1);
            zp[j] = z[j];
            for i in 0..na {
                J[i * na + j] = (r1[i] - r0[i]) / h;
            }
        }
        J
    }

    /// Drives the outer-port inputs (in the order of [`EphsDae::input_names`]) by `u(t)`.
    pub fn with_inputs(mut self, input: InputFn) -> Result<Self, EphsError> {
        let n_in: usize = self
            .inputs
            .iter()
            .map(|(_, s)| self.sys.slots[*s].len)
            .sum();
        if input.dim() != n_in {
            return Err(EphsError::Dimension {
                what: format!("inputs ({})", self.input_names().join(", ")),
                expected: n_in,
                found: input.dim(),
            });
        }
        self.input_fn = input;
        Ok(self)
    }

    /// Names of the inputs: `port.f` for flow-in ports, `port.e` for effort-in ports,
    /// `port.x` for state inputs.
    pub fn input_names(&self) -> Vec<String> {
        self.inputs.iter().map(|(n, _)| n.clone()).collect()
    }
    /// The open system.
    pub fn system(&self) -> &OpenSystem {
        &self.sys
    }
    /// The reference temperature $\theta_0$.
    pub fn theta0(&self) -> f64 {
        self.theta0
    }
    /// Number of state coordinates (the differential part of `y`).
    pub fn n_coords(&self) -> usize {
        self.n_coords
    }
    /// Names of the differential states (e.g. `osc.pe.q`).
    pub fn state_names(&self) -> Vec<String> {
        self.sys.states.iter().map(|s| s.name.clone()).collect()
    }
    /// Names of the outer power ports of the top system (see [`Evaluation::port_powers`]).
    pub fn power_port_names(&self) -> Vec<String> {
        self.sys
            .ports
            .iter()
            .filter(|p| p.power.is_some())
            .map(|p| p.name.clone())
            .collect()
    }
    /// Names of the irreversible components (see [`Evaluation::exergy_destruction`]).
    pub fn irreversible_names(&self) -> Vec<String> {
        self.sys
            .irreversibles
            .iter()
            .map(|i| i.name.clone())
            .collect()
    }
    /// Names of the algebraic unknowns.
    pub fn algebraic_names(&self) -> Vec<String> {
        self.sys.algebraics.iter().map(|s| s.name.clone()).collect()
    }
    /// Range of a state's coordinates in `y`.
    pub fn state_range(&self, name: &str) -> Result<Range<usize>, EphsError> {
        let k = self
            .sys
            .states
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| {
                EphsError::unknown(
                    "state",
                    name,
                    "assembled system",
                    self.sys.states.iter().map(|s| s.name.as_str()),
                )
            })?;
        let o = self.state_off[k];
        Ok(o..o + self.sys.states[k].space().coords())
    }
    /// Range of an algebraic unknown in `y`.
    pub fn algebraic_range(&self, name: &str) -> Result<Range<usize>, EphsError> {
        let k = self
            .sys
            .algebraics
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| {
                EphsError::unknown(
                    "algebraic unknown",
                    name,
                    "assembled system",
                    self.sys.algebraics.iter().map(|s| s.name.as_str()),
                )
            })?;
        let o = self.alg_off[k];
        Ok(o..o + self.sys.slots[self.sys.algebraics[k].slot].len)
    }
    /// Spaces of the states with their coordinate offsets.
    pub fn state_layout(&self) -> Vec<(Space, usize)> {
        self.sys
            .states
            .iter()
            .zip(&self.state_off)
            .map(|(s, &o)| (s.space(), o))
            .collect()
    }
    /// A default state: identity for group states, zero otherwise, zero algebraics.
    pub fn default_state(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.n];
        for (s, o) in self.state_layout() {
            s.identity(&mut y[o..o + s.coords()]);
        }
        y
    }
    /// Sets the coordinates of state `name` in `y`.
    pub fn set_state(&self, y: &mut [f64], name: &str, value: &[f64]) -> Result<(), EphsError> {
        let r = self.state_range(name)?;
        if value.len() != r.len() {
            return Err(EphsError::Dimension {
                what: format!("initial value of state '{name}'"),
                expected: r.len(),
                found: value.len(),
            });
        }
        y[r].copy_from_slice(value);
        Ok(())
    }

    /// Storage efforts into the workspace: $\mathrm dE(x)$, 0 for the environment.
    fn storage_efforts(&self, ws: &mut Workspace) {
        let mut b = self.buf.borrow_mut();
        let (xb, eb) = &mut *b;
        for st in &self.sys.storages {
            match &st.energy {
                StorageEnergy::Environment => {
                    for &e in &st.efforts {
                        ws.slot_mut(e).iter_mut().for_each(|v| *v = 0.0);
                    }
                }
                StorageEnergy::Mechanical(en) => {
                    xb.clear();
                    for &k in &st.states {
                        xb.extend_from_slice(ws.slot(self.sys.states[k].x));
                    }
                    let ne: usize = st.efforts.iter().map(|&e| self.sys.slots[e].len).sum();
                    eb.clear();
                    eb.resize(ne, 0.0);
                    en.differential(xb, eb);
                    let mut o = 0;
                    for &e in &st.efforts {
                        let l = self.sys.slots[e].len;
                        ws.slot_mut(e).copy_from_slice(&eb[o..o + l]);
                        o += l;
                    }
                }
            }
        }
    }

    /// Loads states, algebraics and inputs into `ws`; storage efforts are set by
    /// `efforts` (None: $\mathrm dE(x)$). Then runs the instructions.
    pub(crate) fn load_and_run(
        &self,
        ws: &mut Workspace,
        t: f64,
        x: &[f64],
        z: &[f64],
        efforts: Option<&[Vec<f64>]>,
    ) {
        for (s, &o) in self.sys.states.iter().zip(&self.state_off) {
            let c = s.space().coords();
            ws.slot_mut(s.x).copy_from_slice(&x[o..o + c]);
        }
        for (a, &o) in self.sys.algebraics.iter().zip(&self.alg_off) {
            let l = self.sys.slots[a.slot].len;
            let o = o - self.n_coords;
            ws.slot_mut(a.slot).copy_from_slice(&z[o..o + l]);
        }
        for &c in &self.sys.constants {
            ws.slot_mut(c).iter_mut().for_each(|v| *v = 0.0);
        }
        if !self.inputs.is_empty() {
            let u = self.input_fn.eval(t);
            let mut k = 0;
            for (_, s) in &self.inputs {
                let l = self.sys.slots[*s].len;
                ws.slot_mut(*s).copy_from_slice(&u[k..k + l]);
                k += l;
            }
        }
        match efforts {
            None => self.storage_efforts(ws),
            Some(e) => {
                for (st, es) in self.sys.storages.iter().zip(e) {
                    let mut o = 0;
                    for &s in &st.efforts {
                        let l = self.sys.slots[s].len;
                        ws.slot_mut(s).copy_from_slice(&es[o..o + l]);
                        o += l;
                    }
                }
            }
        }
        ws.run(&self.sys, self.theta0);
    }

    /// Writes the (trivialized) rates of the states and the residuals from `ws`.
    pub(crate) fn read_rates(&self, ws: &Workspace, rates: &mut [f64], residuals: &mut [f64]) {
        let mut o = 0;
        for s in &self.sys.states {
            let d = s.space().dim();
            rates[o..o + d].copy_from_slice(ws.slot(s.rate));
            o += d;
        }
        let mut o = 0;
        for r in &self.sys.residuals {
            let l = self.sys.slots[r.slot].len;
            residuals[o..o + l].copy_from_slice(ws.slot(r.slot));
            o += l;
        }
    }

    /// Total tangent dimension of the states.
    pub fn n_tangent(&self) -> usize {
        self.sys.states.iter().map(|s| s.space().dim()).sum()
    }
    /// Number of algebraic scalars.
    pub fn n_algebraic(&self) -> usize {
        self.n - self.n_coords
    }
    /// Creates a fresh workspace (for integrators that evaluate on their own).
    pub(crate) fn workspace(&self) -> Workspace {
        Workspace::new(&self.sys)
    }

    /// All port variables at `(t, y)` with efforts $\mathrm dE(x)$.
    pub fn evaluate(&self, t: f64, y: &[f64]) -> Evaluation<'_> {
        let mut ws = self.workspace();
        self.load_and_run(&mut ws, t, &y[..self.n_coords], &y[self.n_coords..], None);
        Evaluation {
            sys: &self.sys,
            ws,
            theta0: self.theta0,
        }
    }

    fn storage_state(&self, st: &StorageVar, y: &[f64]) -> Vec<f64> {
        let mut x = Vec::new();
        for &k in &st.states {
            let o = self.state_off[k];
            x.extend_from_slice(&y[o..o + self.sys.states[k].space().coords()]);
        }
        x
    }

    /// Mechanical energy (= exergy) $\sum E(x)$ over the mechanical storages.
    pub fn mechanical_energy(&self, y: &[f64]) -> f64 {
        self.sys
            .storages
            .iter()
            .map(|st| match &st.energy {
                StorageEnergy::Mechanical(e) => e.energy(&self.storage_state(st, y)),
                StorageEnergy::Environment => 0.0,
            })
            .sum()
    }
    /// Entropy of the environment(s) $s$.
    pub fn entropy(&self, y: &[f64]) -> f64 {
        self.sys
            .storages
            .iter()
            .map(|st| match &st.energy {
                StorageEnergy::Environment => self.storage_state(st, y).iter().sum(),
                _ => 0.0,
            })
            .sum()
    }
    /// Total energy $E_{mech} + \theta_0 s$ (summary pitfall 8: the environment's energy
    /// is $\theta_0 s$ although its exergy is 0).
    pub fn total_energy(&self, y: &[f64]) -> f64 {
        self.mechanical_energy(y) + self.theta0 * self.entropy(y)
    }
    /// Energy of each storage component (`name`, value), the environment as $\theta_0 s$.
    pub fn storage_energies(&self, y: &[f64]) -> Vec<(String, f64)> {
        self.sys
            .storages
            .iter()
            .map(|st| {
                let x = self.storage_state(st, y);
                let v = match &st.energy {
                    StorageEnergy::Mechanical(e) => e.energy(&x),
                    StorageEnergy::Environment => self.theta0 * x.iter().sum::<f64>(),
                };
                (st.name.clone(), v)
            })
            .collect()
    }

    /// The index-1 form of the algebraic equations: $[U_1^\top G;\ N^\top \dot G]$ where the
    /// columns of $U_1$ span the range of $G_z$ and those of $N$ its left null space (the
    /// combinations that constrain the states only); $\dot G$ is the time derivative along
    /// the flow (central differences along the retraction, step $10^{-6}$).
    fn index1_residual(
        &self,
        t: f64,
        x: &[f64],
        z: &[f64],
        basis: &[f64],
        rank: usize,
        out: &mut [f64],
    ) {
        let mut ws = self.ws.borrow_mut();
        let nt = self.n_tangent();
        let na = self.n_algebraic();
        let mut rates = vec![0.0; nt];
        let mut res = vec![0.0; na];
        self.load_and_run(&mut ws, t, x, z, None);
        self.read_rates(&ws, &mut rates, &mut res);
        let project =
            |v: &[f64], k: usize| -> f64 { (0..na).map(|i| basis[i * na + k] * v[i]).sum() };
        for k in 0..rank {
            out[k] = project(&res, k);
        }
        if rank == na {
            return;
        }
        let eps = 1e-6;
        let mut xp = x.to_vec();
        let mut xm = x.to_vec();
        let mut o = 0;
        for (s, off) in self.state_layout() {
            let (c, d) = (s.coords(), s.dim());
            let v: Vec<f64> = rates[o..o + d].iter().map(|r| r * eps).collect();
            s.retract(&x[off..off + c], &v, &mut xp[off..off + c]);
            let v: Vec<f64> = v.iter().map(|r| -r).collect();
            s.retract(&x[off..off + c], &v, &mut xm[off..off + c]);
            o += d;
        }
        let mut rp = vec![0.0; na];
        let mut rm = vec![0.0; na];
        self.load_and_run(&mut ws, t + eps, &xp, z, None);
        self.read_rates(&ws, &mut rates, &mut rp);
        self.load_and_run(&mut ws, t - eps, &xm, z, None);
        self.read_rates(&ws, &mut rates, &mut rm);
        let d: Vec<f64> = (0..na).map(|i| (rp[i] - rm[i]) / (2.0 * eps)).collect();
        for k in rank..na {
            out[k] = project(&d, k);
        }
    }

    /// Consistent algebraic unknowns for the states in `y` (summary §5, "consistent
    /// initial conditions"): splits the algebraic equations $G$ by an SVD of $G_z$ into the
    /// combinations that determine $z$ directly and those that constrain the states only
    /// (velocity constraints, index 2), solves the former together with the time
    /// derivative of the latter (the hidden constraints that determine the Lagrange
    /// multipliers) by Newton's method with a difference Jacobian, and writes $z$ into
    /// `y`. The explicit index-2 constraints must already hold; the largest algebraic
    /// residual is returned. Errors name the undetermined unknowns when the Jacobian is
    /// singular.
    pub fn make_consistent(&self, t: f64, y: &mut [f64]) -> Result<f64, EphsError> {
        let na = self.n_algebraic();
        let nc = self.n_coords;
        if na == 0 {
            return Ok(0.0);
        }
        let x = y[..nc].to_vec();
        let mut z = y[nc..].to_vec();
        let gz = self.algebraic_jacobian(t, &x, &z);
        let (basis, rank) = svd_split(&gz, na);
        let mut r = vec![0.0; na];
        let mut rp = vec![0.0; na];
        let mut J = vec![0.0; na * na];
        for _ in 0..30 {
            self.index1_residual(t, &x, &z, &basis, rank, &mut r);
            let rn = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            for j in 0..na {
                let h = 1e-7 * z[j].abs().max(1.0);
                let zj = z[j];
                z[j] = zj + h;
                self.index1_residual(t, &x, &z, &basis, rank, &mut rp);
                z[j] = zj;
                for i in 0..na {
                    J[i * na + j] = (rp[i] - r[i]) / h;
                }
            }
            let (_, jrank) = svd_split(&J, na);
            let inv = if jrank == na {
                invert_dense(&J, na)
            } else {
                None
            };
            let Some(Ji) = inv else {
                let names: Vec<String> = (0..na)
                    .filter(|&j| (0..na).all(|i| J[i * na + j].abs() < 1e-12))
                    .map(|j| self.algebraic_name_of(j))
                    .collect();
                return Err(EphsError::Undetermined {
                    variables: if names.is_empty() {
                        self.algebraic_names().join(", ")
                    } else {
                        names.join(", ")
                    },
                    reason:
                        "the (differentiated) algebraic equations are singular for these unknowns"
                            .into(),
                });
            };
            let mut dz = 0.0f64;
            for i in 0..na {
                let d: f64 = (0..na).map(|j| Ji[i * na + j] * r[j]).sum();
                z[i] -= d;
                dz = dz.max(d.abs() / (1.0 + z[i].abs()));
            }
            if dz < 1e-13 || rn == 0.0 {
                break;
            }
        }
        y[nc..].copy_from_slice(&z);
        let mut f = vec![0.0; self.n];
        self.rhs(t, y, &mut f);
        Ok(f[nc..].iter().fold(0.0f64, |m, v| m.max(v.abs())))
    }

    fn algebraic_name_of(&self, j: usize) -> String {
        let jj = j + self.n_coords;
        for (a, &o) in self.sys.algebraics.iter().zip(&self.alg_off) {
            let l = self.sys.slots[a.slot].len;
            if jj >= o && jj < o + l {
                return if l == 1 {
                    a.name.clone()
                } else {
                    format!("{}[{}]", a.name, jj - o)
                };
            }
        }
        format!("#{j}")
    }
}

impl ImplicitDae for EphsDae {
    fn dim(&self) -> usize {
        self.n
    }
    fn mass(&self) -> &SparseMat {
        &self.mass
    }
    fn rhs(&self, t: f64, y: &[f64], f: &mut [f64]) {
        let mut ws = self.ws.borrow_mut();
        let nc = self.n_coords;
        self.load_and_run(&mut ws, t, &y[..nc], &y[nc..], None);
        for (s, &o) in self.sys.states.iter().zip(&self.state_off) {
            let c = s.space().coords();
            s.space()
                .kinematics(&y[o..o + c], ws.slot(s.rate), &mut f[o..o + c]);
        }
        let mut o = nc;
        for r in &self.sys.residuals {
            let l = self.sys.slots[r.slot].len;
            f[o..o + l].copy_from_slice(ws.slot(r.slot));
            o += l;
        }
    }
    fn jacobian(&self, t: f64, y: &[f64]) -> SparseMat {
        let n = self.n;
        let mut f0 = vec![0.0; n];
        let mut f1 = vec![0.0; n];
        self.rhs(t, y, &mut f0);
        let mut yp = y.to_vec();
        let mut trip = Triplets::new(n, n);
        for j in 0..n {
            let h = f64::EPSILON.sqrt() * y[j].abs().max(1.0);
            yp[j] = y[j] + h;
            self.rhs(t, &yp, &mut f1);
            yp[j] = y[j];
            for i in 0..n {
                let d = (f1[i] - f0[i]) / h;
                if d != 0.0 {
                    trip.push(i, j, d);
                }
            }
        }
        trip.build()
    }
    fn variable_indices(&self) -> Vec<u8> {
        self.indices.clone()
    }
    fn breakpoints(&self) -> Vec<f64> {
        self.input_fn.breakpoints()
    }
}

/// SVD of a square row-major matrix: returns $U$ (row-major, columns = left singular
/// vectors, singular values non-increasing) and the numerical rank (singular values
/// above $10^{-8}\sigma_{max}$, and above $10^{-300}$).
fn svd_split(a: &[f64], n: usize) -> (Vec<f64>, usize) {
    let m = faer::Mat::<f64>::from_fn(n, n, |i, j| a[i * n + j]);
    let Ok(svd) = m.svd() else {
        let mut id = vec![0.0; n * n];
        for i in 0..n {
            id[i * n + i] = 1.0;
        }
        return (id, 0);
    };
    let s = svd.S().column_vector();
    let smax = if n > 0 { s[0] } else { 0.0 };
    let rank = (0..n)
        .filter(|&k| s[k] > 1e-8 * smax && s[k] > 1e-300)
        .count();
    let U = svd.U();
    let mut u = vec![0.0; n * n];
    for i in 0..n {
        for k in 0..n {
            u[i * n + k] = U[(i, k)];
        }
    }
    (u, rank)
}

/// Inverse of an $n\times n$ row-major matrix (Gauss–Jordan with partial pivoting), or
/// `None` if a pivot falls below $10^{-14}$ times the largest entry.
fn invert_dense(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if !(scale > 0.0) {
        return None;
    }
    let mut m = a.to_vec();
    let mut inv = vec![0.0; n * n];
    for i in 0..n {
        inv[i * n + i] = 1.0;
    }
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| m[i * n + c].abs().total_cmp(&m[j * n + c].abs()))
            .unwrap_or(c);
        if !(m[p * n + c].abs() > 1e-14 * scale) {
            return None;
        }
        if p != c {
            for j in 0..n {
                m.swap(p * n + j, c * n + j);
                inv.swap(p * n + j, c * n + j);
            }
        }
        let d = 1.0 / m[c * n + c];
        for j in 0..n {
            m[c * n + j] *= d;
            inv[c * n + j] *= d;
        }
        for i in 0..n {
            if i != c {
                let f = m[i * n + c];
                if f != 0.0 {
                    for j in 0..n {
                        m[i * n + j] -= f * m[c * n + j];
                        inv[i * n + j] -= f * inv[c * n + j];
                    }
                }
            }
        }
    }
    Some(inv)
}
