//! Bridge from linear port-Hamiltonian systems of `phlex-core` to the
//! state-space models of this crate (issue 6 §4: "any linear phlex model
//! exports its state-space form with named inputs and outputs").
//!
//! A [`LinearPhSystem`] `E ė = (J − R) e + B u`, `y = Bᵀ e`,
//! `H = ½ eᵀ E e` (paper 000 eqs. (29)–(31)) whose descriptor matrix `E`
//! is invertible (an ODE: every variable block differential) is, with the
//! state `z = e`,
//!
//! * `A = E⁻¹ (J − R)`;
//! * `B = E⁻¹ B_in`, the columns of the named input ports;
//! * `C = B_outᵀ`, the collocated outputs of the named output ports, plus
//!   optional probe rows `c_pᵀ e` (linear functionals of the state, e.g. a
//!   field value at a point); `D = 0`.
//!
//! Port names are kept: input `k` of port `p` is called `p.u<k>`, its
//! collocated output `p.y<k>`, a probe keeps its own name.
//!
//! **Energy coordinates.** With the Cholesky factor `E = L Lᵀ` and
//! `ξ = Lᵀ e` the Hamiltonian is `H = ½ |ξ|²` and
//! `A_ξ = L⁻¹ (J − R) L⁻ᵀ` is skew-symmetric minus symmetric positive
//! semidefinite (a similarity transform of `A`, same poles and transfer
//! function, eq. (3.15) of thesis 002 with `T = L⁻ᵀ`). LQR/Kalman designs on
//! structural models are far better conditioned there (the open-loop
//! propagator `e^{A_ξ t}` is orthogonal for `R = 0`), and the LQR weight
//! `Q_z = q I` in `ξ` is the energy weight `zᵀQ_z z = 2 q H`
//! ([`crate::ph::lqg`]).
//!
//! **Descriptor systems.** Systems with algebraic blocks (Lagrange
//! multipliers of an index-2 pHDAE, thesis 004 §3.4) are first reduced to
//! the pH ODE on the null space of the constraints, `x = T ξ` with
//! `G T = 0` (paper 000 eq. (51), [`phlex_solve::nullspace::null_space_ode`]):
//! the state of the exported model is then the null-space coordinate,
//! [`PhStateSpace::restrict`] / [`PhStateSpace::lift`] map full states
//! (multipliers included) to it and back, and probe rows are restricted
//! the same way. Ports whose input enters the constraint rows (prescribed
//! motions) cannot be kept in the ODE; naming one is an error.

use crate::error::{ControlError, Result};
use crate::linalg::{check_finite, cholesky, DenseLu};
use crate::model::state_space::StateSpace;
use faer::{Mat, MatRef};
use phlex_core::sparse::to_dense;
use phlex_core::{LinearPhSystem, PortSet, VarKind};
use phlex_solve::nullspace::{null_space_ode, NullSpaceParams};

/// A named linear functional `y = c·e` of the state (a probe output).
#[derive(Clone, Debug)]
pub struct Probe {
    /// output name
    pub name: String,
    /// coefficients `c` (length `n`, one per state variable)
    pub row: Vec<f64>,
}

/// State-space form of a linear pH system with named inputs and outputs.
#[derive(Clone, Debug)]
pub struct PhStateSpace {
    /// continuous model `ż = Az + Bu`, `y = Cz + Du`, state `z = e`
    pub ss: StateSpace,
    /// input names `port.u<k>`, one per column of `B`
    pub input_names: Vec<String>,
    /// output names `port.y<k>` or probe names, one per row of `C`
    pub output_names: Vec<String>,
    /// the named input ports, in order
    pub input_ports: Vec<String>,
    /// the named output ports and probes, in order
    pub outputs: Vec<String>,
    /// energy matrix `E`: `H = ½ zᵀ E z`
    pub E: Mat<f64>,
    /// structure matrix `J`
    pub J: Mat<f64>,
    /// dissipation matrix `R`
    pub R: Mat<f64>,
    /// input matrix of all ports of the system (`n × m_all`), `y_all = B_allᵀ z`
    pub B_all: Mat<f64>,
    /// all ports of the system (column ranges of `B_all`)
    pub ports: PortSet,
    /// variable block names, for messages
    pub blocks: Vec<String>,
    /// null-space reduction of a descriptor system (`None` for an ODE)
    pub reduction: Option<Reduction>,
}

/// The null-space reduction `x = T ξ` of a descriptor system (paper 000 eq. (51)).
#[derive(Clone, Debug)]
pub struct Reduction {
    /// orthonormal basis `T` of `ker G` (`n_x × n`)
    pub basis: Mat<f64>,
    /// indices of the differential variables `x` in the full state
    pub differential: Vec<usize>,
    /// length of the full state (differential variables and multipliers)
    pub n_full: usize,
    /// rank of the constraint matrix `G`
    pub constraint_rank: usize,
}

/// The model in energy coordinates `ξ = Lᵀ e`, `E = L Lᵀ`.
#[derive(Clone, Debug)]
pub struct EnergyCoordinates {
    /// `A_ξ = L⁻¹(J − R)L⁻ᵀ`, `B_ξ = L⁻¹B`, `C_ξ = C L⁻ᵀ`, `D`
    pub ss: StateSpace,
    /// `e = T ξ`, `T = L⁻ᵀ`
    pub T: Mat<f64>,
    /// `ξ = T⁻¹ e`, `T⁻¹ = Lᵀ`
    pub T_inv: Mat<f64>,
    /// skew part `L⁻¹JL⁻ᵀ`
    pub J: Mat<f64>,
    /// dissipative part `L⁻¹RL⁻ᵀ`
    pub R: Mat<f64>,
    /// all port columns `L⁻¹B_all`: `y_all = B_allᵀ ξ`
    pub B_all: Mat<f64>,
}

fn port_list(ports: &PortSet) -> String {
    let names = ports.names();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// Column indices and component names of the named ports.
fn port_columns(
    ports: &PortSet,
    names: &[&str],
    kind: &str,
    suffix: char,
) -> Result<(Vec<usize>, Vec<String>)> {
    let mut cols = Vec::new();
    let mut labels = Vec::new();
    for (i, &name) in names.iter().enumerate() {
        if names[..i].contains(&name) {
            return Err(ControlError::InvalidParameter {
                name: kind.into(),
                reason: format!("port `{name}` listed twice"),
            });
        }
        let r = ports.range(name).map_err(|_| ControlError::UnknownName {
            kind: kind.into(),
            name: name.into(),
            available: port_list(ports),
        })?;
        for (k, c) in r.enumerate() {
            cols.push(c);
            labels.push(format!("{name}.{suffix}{k}"));
        }
    }
    Ok((cols, labels))
}

/// Exports `sys` as a state-space model with inputs `inputs` (port names),
/// outputs `outputs` (port names for collocated outputs `B_pᵀ e`, or names
/// of `probes`); see the module documentation.
pub fn ph_to_state_space(
    sys: &LinearPhSystem,
    inputs: &[&str],
    outputs: &[&str],
    probes: &[Probe],
) -> Result<PhStateSpace> {
    let has_alg = sys
        .blocks
        .iter()
        .any(|b| matches!(b.kind, VarKind::Algebraic { .. }));
    if has_alg {
        let ns = null_space_ode(sys, &NullSpaceParams::default()).map_err(|e| {
            ControlError::Descriptor(format!("null-space elimination of the multipliers: {e}"))
        })?;
        for name in inputs.iter().chain(outputs) {
            if ns.dropped_ports.iter().any(|d| d == name) {
                return Err(ControlError::Descriptor(format!(
                    "port `{name}` prescribes a motion through a constraint (its input enters the multiplier rows) and has no state-space form; leave it out or impose it strongly"
                )));
            }
        }
        let n_full = sys.n_states();
        let red = Reduction {
            basis: ns.basis.clone(),
            differential: ns.differential.clone(),
            n_full,
            constraint_rank: ns.constraint_rank,
        };
        let mut rprobes = Vec::with_capacity(probes.len());
        for p in probes {
            if p.row.len() != n_full {
                return Err(crate::error::dim_err(
                    &format!("probe `{}`", p.name),
                    1,
                    n_full,
                    1,
                    p.row.len(),
                ));
            }
            rprobes.push(Probe {
                name: p.name.clone(),
                row: red.restrict(&p.row),
            });
        }
        let mut out = ph_to_state_space(&ns.system, inputs, outputs, &rprobes)?;
        out.blocks = sys.blocks.iter().map(|b| b.name.clone()).collect();
        out.reduction = Some(red);
        return Ok(out);
    }
    let n = sys.n_states();
    if inputs.is_empty() {
        return Err(ControlError::InvalidParameter {
            name: "inputs".into(),
            reason: format!(
                "need at least one input port (available: {})",
                port_list(&sys.ports)
            ),
        });
    }
    if outputs.is_empty() {
        return Err(ControlError::InvalidParameter {
            name: "outputs".into(),
            reason: "need at least one output port or probe".into(),
        });
    }
    let E = to_dense(&sys.E);
    let J = to_dense(&sys.J);
    let R = to_dense(&sys.R);
    let B_all = to_dense(&sys.B);
    for (name, X) in [("E", &E), ("J", &J), ("R", &R), ("B", &B_all)] {
        check_finite(name, X.as_ref())?;
    }
    let lu = DenseLu::new("E", E.as_ref()).map_err(|_| {
        ControlError::Descriptor(
            "the descriptor matrix E is singular although no block is declared algebraic; \
             the state-space form needs an invertible E"
                .into(),
        )
    })?;
    let (in_cols, input_names) = port_columns(&sys.ports, inputs, "input port", 'u')?;
    // outputs: ports or probes
    let mut rows: Vec<Vec<f64>> = Vec::new();
    let mut output_names = Vec::new();
    for (i, &name) in outputs.iter().enumerate() {
        if outputs[..i].contains(&name) {
            return Err(ControlError::InvalidParameter {
                name: "outputs".into(),
                reason: format!("output `{name}` listed twice"),
            });
        }
        if let Ok(r) = sys.ports.range(name) {
            for (k, c) in r.enumerate() {
                rows.push((0..n).map(|i| B_all[(i, c)]).collect());
                output_names.push(format!("{name}.y{k}"));
            }
        } else if let Some(p) = probes.iter().find(|p| p.name == name) {
            if p.row.len() != n {
                return Err(crate::error::dim_err(
                    &format!("probe `{name}`"),
                    1,
                    n,
                    1,
                    p.row.len(),
                ));
            }
            rows.push(p.row.clone());
            output_names.push(name.to_string());
        } else {
            let mut avail: Vec<String> = sys.ports.names();
            avail.extend(probes.iter().map(|p| p.name.clone()));
            return Err(ControlError::UnknownName {
                kind: "output port or probe".into(),
                name: name.into(),
                available: if avail.is_empty() {
                    "none".into()
                } else {
                    avail.join(", ")
                },
            });
        }
    }
    let JmR = &J - &R;
    let A = lu.solve(JmR.as_ref());
    let Bin = Mat::from_fn(n, in_cols.len(), |i, j| B_all[(i, in_cols[j])]);
    let B = lu.solve(Bin.as_ref());
    let C = Mat::from_fn(rows.len(), n, |i, j| rows[i][j]);
    let D = Mat::zeros(rows.len(), in_cols.len());
    let ss = StateSpace::new(A, B, C, D, None)?;
    Ok(PhStateSpace {
        ss,
        input_names,
        output_names,
        input_ports: inputs.iter().map(|s| s.to_string()).collect(),
        outputs: outputs.iter().map(|s| s.to_string()).collect(),
        E,
        J,
        R,
        B_all,
        ports: sys.ports.clone(),
        blocks: sys.blocks.iter().map(|b| b.name.clone()).collect(),
        reduction: None,
    })
}

impl Reduction {
    /// `ξ = Tᵀ x` from a full state (exact when the constraints hold).
    pub fn restrict(&self, full: &[f64]) -> Vec<f64> {
        (0..self.basis.ncols())
            .map(|c| {
                self.differential
                    .iter()
                    .enumerate()
                    .map(|(k, &i)| self.basis[(k, c)] * full[i])
                    .sum()
            })
            .collect()
    }
    /// Full state `x = T ξ`, multipliers set to zero.
    pub fn lift(&self, xi: &[f64]) -> Vec<f64> {
        let mut x = vec![0.0; self.n_full];
        for (k, &i) in self.differential.iter().enumerate() {
            x[i] = (0..self.basis.ncols())
                .map(|c| self.basis[(k, c)] * xi[c])
                .sum();
        }
        x
    }
}

impl PhStateSpace {
    /// Number of states.
    pub fn n_states(&self) -> usize {
        self.ss.n_states()
    }

    /// Length of a full state of the original system (multipliers included).
    pub fn n_full(&self) -> usize {
        self.reduction
            .as_ref()
            .map_or(self.n_states(), |r| r.n_full)
    }

    /// State of the exported model from a full state of the pH system (the
    /// null-space coordinates `Tᵀx` for a descriptor system, a copy for an ODE).
    pub fn restrict(&self, full: &[f64]) -> Vec<f64> {
        match &self.reduction {
            Some(r) => r.restrict(full),
            None => full.to_vec(),
        }
    }

    /// Full state of the pH system from a state of the exported model.
    pub fn lift(&self, z: &[f64]) -> Vec<f64> {
        match &self.reduction {
            Some(r) => r.lift(z),
            None => z.to_vec(),
        }
    }

    /// Hamiltonian `H = ½ zᵀ E z`.
    pub fn hamiltonian(&self, z: &[f64]) -> f64 {
        let n = self.n_states();
        let mut h = 0.0;
        for j in 0..n {
            let mut s = 0.0;
            for i in 0..n {
                s += self.E[(i, j)] * z[i];
            }
            h += s * z[j];
        }
        0.5 * h
    }

    /// Columns of `B_all` (all ports) belonging to the named ports, and
    /// their component names `port.u<k>`.
    pub fn port_columns(&self, names: &[&str]) -> Result<(Vec<usize>, Vec<String>)> {
        port_columns(&self.ports, names, "port", 'u')
    }

    /// Columns of `B_all` of the input ports of the state-space model.
    pub fn input_columns(&self) -> Vec<usize> {
        let names: Vec<&str> = self.input_ports.iter().map(String::as_str).collect();
        port_columns(&self.ports, &names, "input port", 'u')
            .map(|c| c.0)
            .unwrap_or_default()
    }

    /// The model in energy coordinates `ξ = Lᵀ e` (see the module documentation).
    pub fn energy_coordinates(&self) -> Result<EnergyCoordinates> {
        let n = self.n_states();
        let Es = crate::linalg::sym(self.E.as_ref());
        let L = cholesky("E", Es.as_ref()).map_err(|_| {
            ControlError::Descriptor(format!(
                "the energy matrix E is not positive definite (blocks: {}): H = ½ eᵀEe is not a norm",
                self.blocks.join(", ")
            ))
        })?;
        let lu = DenseLu::new("L (Cholesky factor of E)", L.as_ref())?;
        let Li = lu.inverse();
        let T = Li.transpose().to_owned();
        let T_inv = L.transpose().to_owned();
        let congr = |X: MatRef<'_, f64>| &Li * X * &T;
        let Jx = congr(self.J.as_ref());
        let Jx = Mat::from_fn(n, n, |i, j| 0.5 * (Jx[(i, j)] - Jx[(j, i)]));
        let Rx = crate::linalg::sym(congr(self.R.as_ref()).as_ref());
        let A = &Jx - &Rx;
        let in_cols = self.input_columns();
        let B_all = &Li * &self.B_all;
        let B = Mat::from_fn(n, in_cols.len(), |i, j| B_all[(i, in_cols[j])]);
        let C = &self.ss.C * &T;
        let ss = StateSpace::new(A, B, C, self.ss.D.clone(), None)?;
        Ok(EnergyCoordinates {
            ss,
            T,
            T_inv,
            J: Jx,
            R: Rx,
            B_all,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::fro;
    use phlex_core::sparse::from_dense;
    use phlex_core::{Port, VarBlock};

    /// Mass–spring `m v̇ = −k x + F`, `(1/k) ḟ = v` in co-energy variables
    /// `e = [v, f]`: `E = diag(m, 1/k)`, `J = [[0, −1], [1, 0]]`.
    fn oscillator(m: f64, k: f64, c: f64) -> LinearPhSystem {
        let E = Mat::from_fn(2, 2, |i, j| [[m, 0.0], [0.0, 1.0 / k]][i][j]);
        let J = Mat::from_fn(2, 2, |i, j| [[0.0, -1.0], [1.0, 0.0]][i][j]);
        let R = Mat::from_fn(2, 2, |i, j| if i == 0 && j == 0 { c } else { 0.0 });
        let B = Mat::from_fn(2, 1, |i, _| (i == 0) as u8 as f64);
        LinearPhSystem::new(
            from_dense(&E, 0.0),
            from_dense(&J, 0.0),
            from_dense(&R, 0.0),
            from_dense(&B, 0.0),
            PortSet::from_ports(vec![Port::new("mass", 1, "force", "velocity")]).unwrap(),
            vec![
                VarBlock::differential("v", "velocity", 1),
                VarBlock::differential("f", "spring force", 1),
            ],
        )
        .unwrap()
    }

    /// A = E⁻¹(J − R) of the oscillator is [[−c/m, −1/m], [k, 0]] exactly;
    /// the energy coordinates keep the poles (λ² + (c/m)λ + k/m = 0) and
    /// make A_ξ skew minus PSD.
    #[test]
    fn oscillator_state_space() {
        let (m, k, c) = (2.0, 50.0, 0.3);
        let ph = ph_to_state_space(
            &oscillator(m, k, c),
            &["mass"],
            &["mass"],
            &[Probe {
                name: "spring".into(),
                row: vec![0.0, 1.0],
            }],
        )
        .unwrap();
        let A = &ph.ss.A;
        let exact = [[-c / m, -1.0 / m], [k, 0.0]];
        for i in 0..2 {
            for j in 0..2 {
                assert!((A[(i, j)] - exact[i][j]).abs() < 1e-14 * (1.0 + exact[i][j].abs()));
            }
        }
        assert_eq!(ph.input_names, ["mass.u0"]);
        assert_eq!(ph.output_names, ["mass.y0"]);
        assert!((ph.ss.B[(0, 0)] - 1.0 / m).abs() < 1e-15);
        let ph2 = ph_to_state_space(
            &oscillator(m, k, c),
            &["mass"],
            &["spring"],
            &[Probe {
                name: "spring".into(),
                row: vec![0.0, 1.0],
            }],
        )
        .unwrap();
        assert_eq!(ph2.output_names, ["spring"]);
        let ec = ph.energy_coordinates().unwrap();
        // A_ξ + A_ξᵀ = −2R_ξ
        let S = &ec.ss.A + ec.ss.A.transpose() + faer::Scale(2.0) * &ec.R;
        assert!(fro(S.as_ref()) < 1e-12);
        // same poles
        let mut p1 = ph.ss.poles().unwrap();
        let mut p2 = ec.ss.poles().unwrap();
        p1.sort_by(|a, b| a.im.total_cmp(&b.im));
        p2.sort_by(|a, b| a.im.total_cmp(&b.im));
        for (a, b) in p1.iter().zip(&p2) {
            assert!((a - b).norm() < 1e-12 * a.norm());
        }
        let z = [0.7, -3.0];
        let xi = &ec.T_inv * Mat::from_fn(2, 1, |i, _| z[i]);
        let hx = 0.5 * (xi[(0, 0)].powi(2) + xi[(1, 0)].powi(2));
        assert!((hx - ph.hamiltonian(&z)).abs() < 1e-14 * hx);
    }

    #[test]
    fn unknown_ports_are_named() {
        let e =
            ph_to_state_space(&oscillator(1.0, 1.0, 0.0), &["tip"], &["mass"], &[]).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("tip") && msg.contains("mass"), "{msg}");
        let e =
            ph_to_state_space(&oscillator(1.0, 1.0, 0.0), &["mass"], &["probe1"], &[]).unwrap_err();
        assert!(matches!(e, ControlError::UnknownName { .. }), "{e}");
    }
}
