//! The 1D heat equation as a port-Hamiltonian descriptor system (thesis 004 §5.1.1,
//! eqs. (5.2)–(5.5); summary §2.8) discretized by PFEM.
//!
//! With $\theta = (T - T_0)/T_0$, heat capacity $C = \rho c_\varepsilon$ and conductivity $k$,
//! the Lyapunov functional $H_T = \frac12\int C T_0\,\theta^2\,dx$ ("energy" of the
//! thesis, not the internal energy) and the heat flux $j_Q = -k\,\partial_x T$ as an
//! algebraic variable:
//! $$\begin{bmatrix}CT_0 & 0\\ 0 & 0\end{bmatrix}\partial_t\begin{pmatrix}\theta\\ j_Q
//! \end{pmatrix} = \begin{bmatrix}0 & -\partial_x\\ -\partial_x & -(T_0k)^{-1}\end{bmatrix}
//! \begin{pmatrix}\theta\\ j_Q\end{pmatrix},\qquad
//! \dot H_T = \sum_{\text{ends}}\theta\,q_\text{in} - \int\frac{j_Q^2}{kT_0},$$
//! i.e. the **pHDAE form** $E\dot e = (J - R)e + Bu$ with $R = \operatorname{diag}(0,
//! (T_0k)^{-1}) \succeq 0$ and $j_Q$ an index-1 algebraic variable (the thesis's
//! formulation; the Fourier law is the algebraic line). $q_\text{in} = -j_Q n$ is the heat
//! flux *entering* the domain through an end.
//!
//! Discretizations (thesis §3.1 choices A/B):
//! * [`HeatDiscretization::CgDg`]: $\theta \in$ CG$_k$, $j_Q \in$ DG$_{k-1}$, integration
//!   by parts of the energy line: $\langle v, CT_0\dot\theta\rangle = \langle\partial_x v,
//!   j_Q\rangle + \sum v\,q_\text{in}$, so $J = \begin{bmatrix}0 & D^\top\\ -D &
//!   0\end{bmatrix}$, $D^{mi} = \langle\psi^m, \partial_x\phi^i\rangle$; **heat-flux
//!   inputs** $q_\text{in}$ (column $\phi(\text{end})$), output $\theta(\text{end})$. This
//!   is the thesis's CG1×DG0 thermal pair of §8.3.
//! * [`HeatDiscretization::DgCg`]: $\theta \in$ DG$_{k-1}$, $j_Q \in$ CG$_k$, integration
//!   by parts of the Fourier line: $0 = \langle\partial_x w, \theta\rangle
//!   \;-\; [w\theta]_0^L \;-\; \langle w, (T_0k)^{-1}j_Q\rangle$, $J = \begin{bmatrix}0 & -G\\ G^\top &
//!   0\end{bmatrix}$, $G^{im} = \langle\phi^i, \partial_x\psi^m\rangle$; **temperature
//!   inputs** $\theta(\text{end})$ (column $+\psi(0)$ / $-\psi(L)$), output $q_\text{in}$.
//!
//! In both, $M_{CT_0}$ and $R_Q = \langle\psi, (T_0k)^{-1}\psi\rangle$ are weighted mass
//! matrices of [`crate::assembly::line`], and the discrete power balance is
//! $\dot H_d = -j^\top R_Q j + y^\top u$ exactly.
//!
//! Boundary conditions per end ([`ThermalEnd`]): a port (input in the natural causality),
//! `Insulated` ($q_\text{in} = 0$) or `Isothermal` ($\theta = 0$, i.e. $T = T_0$). A
//! condition on the natural input drops it; one on the other quantity removes the single
//! CG DOF carrying the trace (strong imposition, symmetric in $E$, $J$, $R$). A
//! *prescribed non-zero* temperature (or flux) is a port in the discretization whose
//! natural input it is (`DgCg` for temperatures): this keeps it an input of the pH system
//! instead of a lifted Dirichlet value whose time derivative would enter $E\dot e$.
use crate::assembly::line::{self, Coefficient};
use crate::element::line::Family;
use crate::error::{require_thermal, FemError};
use crate::mesh::interval::End;
use crate::mesh::interval::MeshSpec;
use crate::models::model::{BlockAssembler, NamedProfile, Profile};
use crate::space::functional::SparseVec;
use crate::space::line::Space1d;
use faer::linalg::solvers::Solve;
use phlex_core::sparse::{self, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};

/// Polynomial degree integrated exactly in projections and load vectors of smooth
/// functions.
const PROJECTION_DEGREE: usize = 12;

/// PFEM discretization of the heat equation (which line is integrated by parts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeatDiscretization {
    /// $\theta \in$ CG$_k$, $j_Q \in$ DG$_{k-1}$ ($k$ = 1..3): heat-flux inputs.
    CgDg(usize),
    /// $\theta \in$ DG$_{k-1}$, $j_Q \in$ CG$_k$ ($k$ = 1..3): temperature inputs.
    DgCg(usize),
}

impl HeatDiscretization {
    /// Degree $k$ of the CG space.
    pub fn degree(&self) -> usize {
        match self {
            HeatDiscretization::CgDg(k) | HeatDiscretization::DgCg(k) => *k,
        }
    }
    /// True if the temperature is continuous (CG), i.e. flux inputs.
    pub fn temperature_continuous(&self) -> bool {
        matches!(self, HeatDiscretization::CgDg(_))
    }
    /// (temperature family, flux family), after checking $k \in 1..=3$.
    pub(crate) fn families(&self, what: &str) -> Result<(Family, Family), FemError> {
        Family::mixed_pair(
            self.degree(),
            self.temperature_continuous(),
            &format!("{what} CG degree k"),
        )
    }
}

/// Thermal condition at one end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThermalEnd {
    /// A boundary port in the natural causality of the discretization: heat inflow
    /// $q_\text{in}$ (CG temperature) or temperature $\theta$ (DG temperature).
    Port,
    /// Zero heat flux through the end.
    Insulated,
    /// $\theta = 0$ ($T = T_0$) at the end.
    Isothermal,
}

/// Parameters of a PFEM heat-conduction model (per unit cross-section area).
#[derive(Debug, Clone)]
pub struct Heat1d {
    /// Volumetric heat capacity $C = \rho c_\varepsilon$ \[J/(m³ K)\].
    pub heat_capacity: f64,
    /// Thermal conductivity $k$ \[W/(m K)\].
    pub conductivity: f64,
    /// Reference temperature $T_0$ \[K\].
    pub t0: f64,
    /// Mesh.
    pub mesh: MeshSpec,
    /// Discretization.
    pub discretization: HeatDiscretization,
    /// Condition at $x = x_0$.
    pub left: ThermalEnd,
    /// Condition at $x = x_n$.
    pub right: ThermalEnd,
    /// Distributed heat sources $r_Q = a(t) f(x)$ \[W/m³\]: (port name, profile $f$).
    pub sources: Vec<NamedProfile<Profile>>,
}

impl Heat1d {
    /// CG1×DG0 on a uniform mesh of $[0, L]$, both ends ports.
    pub fn new(heat_capacity: f64, conductivity: f64, t0: f64, length: f64, n: usize) -> Self {
        Self {
            heat_capacity,
            conductivity,
            t0,
            mesh: MeshSpec::Uniform {
                length,
                n_elements: n,
            },
            discretization: HeatDiscretization::CgDg(1),
            left: ThermalEnd::Port,
            right: ThermalEnd::Port,
            sources: Vec::new(),
        }
    }
    /// Sets the discretization.
    pub fn discretization(mut self, d: HeatDiscretization) -> Self {
        self.discretization = d;
        self
    }
    /// Sets both end conditions.
    pub fn ends(mut self, left: ThermalEnd, right: ThermalEnd) -> Self {
        self.left = left;
        self.right = right;
        self
    }
    /// Uses a given mesh.
    pub fn mesh(mut self, mesh: crate::mesh::interval::Mesh1d) -> Self {
        self.mesh = MeshSpec::Custom(mesh);
        self
    }
    /// Adds a distributed heat source port $r_Q = a(t)f(x)$ (input $a$, output
    /// $\int f\theta\,dx$; thesis (5.2) $u_T = r_Q$, $y_T = e_T$).
    pub fn source(mut self, name: impl Into<String>, profile: Profile) -> Self {
        self.sources.push(NamedProfile::new(name, profile));
        self
    }

    /// Assembles the model.
    pub fn build(&self) -> Result<HeatModel, FemError> {
        require_thermal(self.heat_capacity, self.conductivity, self.t0)?;
        let mesh = self.mesh.build()?;
        let (ft, fq) = self.discretization.families("heat")?;
        let st = Space1d::new(&mesh, ft)?;
        let sq = Space1d::new(&mesh, fq)?;
        let mut open = OpenSystem::new(vec![
            OpenBlock::new(
                "e_T",
                "normalized temperature theta = (T - T0)/T0 [-]",
                st,
                false,
            ),
            OpenBlock::new("j_Q", "heat flux j_Q = -k dT/dx [W/m^2]", sq, true),
        ]);
        add_heat_blocks(
            &mut open,
            0,
            1,
            self.heat_capacity * self.t0,
            self.t0 * self.conductivity,
        )?;
        add_thermal_ends(&mut open, 0, 1, self.left, self.right, "")?;
        for NamedProfile { name, profile: f } in &self.sources {
            let c = line::load_functional(&open.blocks[0].space, 0, &**f, PROJECTION_DEGREE)?;
            open.terms.push(OpenTerm {
                port: name.clone(),
                input: "amplitude a(t) of the heat source density a(t) f(x) [W/m^3 per unit f]"
                    .into(),
                output: "integral of f(x) theta(x) over the domain".into(),
                column: open.asm.embed(0, &c),
            });
        }
        let (system, fields) = open.finalize()?;
        Ok(HeatModel { system, fields })
    }
}

/// Adds the heat-equation blocks (mass $M_{CT_0}$, coupling $D$/$G$, dissipation $R_Q$)
/// for temperature block `bt` and flux block `bq` to an open system.
pub(crate) fn add_heat_blocks(
    open: &mut OpenSystem,
    bt: usize,
    bq: usize,
    capacity_t0: f64,
    k_t0: f64,
) -> Result<(), FemError> {
    let st = open.blocks[bt].space.clone();
    let sq = open.blocks[bq].space.clone();
    open.asm.line_mass(bt, &st, capacity_t0)?;
    let RQ = line::mass(&sq, &Coefficient::Constant(1.0 / k_t0))?;
    open.asm.dissipation(bq, &RQ);
    if matches!(st.family(), Family::Cg(_)) {
        // ⟨v, C ė⟩ = ⟨∂x v, j⟩: J_TQ = Dᵀ with D = ⟨ψ_Q, ∂x φ_T⟩, J_QT = −D.
        let D = line::derivative_coupling(&sq, &st, 1)?;
        open.asm.skew(bq, bt, &D, -1.0);
    } else {
        // ⟨v, C ė⟩ = −⟨v, ∂x j⟩: J_TQ = −G, G = ⟨φ_T, ∂x ψ_Q⟩; J_QT = Gᵀ.
        let G = line::derivative_coupling(&st, &sq, 1)?;
        open.asm.skew(bt, bq, &G, -1.0);
    }
    Ok(())
}

/// Adds the thermal boundary terms (ports or conditions) at both ends. `prefix` is
/// prepended to the port names `left`/`right`.
pub(crate) fn add_thermal_ends(
    open: &mut OpenSystem,
    bt: usize,
    bq: usize,
    left: ThermalEnd,
    right: ThermalEnd,
    prefix: &str,
) -> Result<(), FemError> {
    let st = open.blocks[bt].space.clone();
    let sq = open.blocks[bq].space.clone();
    let cg_temperature = matches!(st.family(), Family::Cg(_));
    let flux = "heat flux entering the domain q_in = -j_Q n [W/m^2]";
    for (end, cond) in [(End::Left, left), (End::Right, right)] {
        let at = match end {
            End::Left => "x = x_0",
            End::Right => "x = x_n",
        };
        let port = format!("{prefix}{}", end.name());
        if cg_temperature {
            // natural input: q_in, column φ_T(end)
            match cond {
                ThermalEnd::Port => open.terms.push(OpenTerm {
                    port,
                    input: format!("{flux} at {at}"),
                    output: format!("normalized temperature theta at {at}"),
                    column: open.asm.embed(bt, &st.end_functional(end, 0)),
                }),
                ThermalEnd::Insulated => {}
                ThermalEnd::Isothermal => {
                    let i = st.trace_dof(end, "temperature")?;
                    open.removed.push(open.asm.offset(bt) + i);
                }
            }
        } else {
            // natural input: θ(end), column +ψ_Q(0) / −ψ_Q(L)
            let s = if end == End::Left { 1.0 } else { -1.0 };
            match cond {
                ThermalEnd::Port => open.terms.push(OpenTerm {
                    port,
                    input: format!("normalized temperature theta at {at}"),
                    output: format!("{flux} at {at}"),
                    column: open.asm.embed(bq, &sq.end_functional(end, 0).scaled(s)),
                }),
                ThermalEnd::Isothermal => {}
                ThermalEnd::Insulated => {
                    let i = sq.trace_dof(end, "heat flux")?;
                    open.removed.push(open.asm.offset(bq) + i);
                }
            }
        }
    }
    Ok(())
}

/// A discretized heat-conduction model: the pHDAE and its two field blocks.
#[derive(Debug, Clone)]
pub struct HeatModel {
    system: LinearPhSystem,
    fields: Vec<FieldBlock>,
}

impl HeatModel {
    /// The pHDAE $E\dot e = (J - R)e + Bu$, $y = B^\top e$, state $(\theta, j_Q)$.
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// Consumes the model, returning the system.
    pub fn into_system(self) -> LinearPhSystem {
        self.system
    }
    /// The temperature block `e_T`.
    pub fn temperature(&self) -> &FieldBlock {
        &self.fields[0]
    }
    /// The heat flux block `j_Q`.
    pub fn heat_flux(&self) -> &FieldBlock {
        &self.fields[1]
    }
    /// $L^2$ projection of $\theta_0(x)$ as a full state ($j_Q = 0$: it is algebraic and
    /// determined by the first step).
    pub fn initial_state(&self, theta0: &dyn Fn(f64) -> f64) -> Result<Vec<f64>, FemError> {
        let mut e = vec![0.0; self.system.n_states()];
        self.fields[0].project_into(theta0, &mut e)?;
        Ok(e)
    }
}

// ---------------------------------------------------------------------------------------
// Shared plumbing of the multiphysics 1D models (heat, thermoelasticity)
// ---------------------------------------------------------------------------------------

/// A field of a 1D multiphysics model: its finite element space and where its DOFs sit in
/// the state vector (DOFs removed by strong conditions are absent).
#[derive(Debug, Clone)]
pub struct FieldBlock {
    /// Block name, e.g. `"e_T"`.
    pub name: String,
    /// Physical meaning with unit.
    pub meaning: String,
    pub(crate) space: Space1d,
    pub(crate) offset: usize,
    pub(crate) map: Vec<Option<usize>>,
    pub(crate) n_states: usize,
}

impl FieldBlock {
    /// The finite element space.
    pub fn space(&self) -> &Space1d {
        &self.space
    }

    /// State index range of the block.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.offset..self.offset + self.map.iter().flatten().count()
    }

    /// The functional $c$ (length `n_states`) with $c\cdot e$ = field value at `x`. For
    /// a discontinuous field at an interior node the two one-sided traces are averaged
    /// (second-order accurate point value for DG$_0$).
    pub fn probe(&self, x: f64) -> Result<SparseVec, FemError> {
        let mesh = self.space.mesh();
        let (e, xi) = mesh.locate(x)?;
        let n = self.space.n_local();
        let mut v = vec![0.0; n];
        let mut entries = Vec::new();
        let interior_node = e > 0 && xi == 0.0 && matches!(self.space.family(), Family::Dg(_));
        let sides: &[(usize, f64, f64)] = if interior_node {
            &[(e - 1, 1.0, 0.5), (e, 0.0, 0.5)]
        } else {
            &[(e, xi, 1.0)]
        };
        for &(el, xi, w) in sides {
            self.space.eval_local(el, xi, 0, &mut v);
            for (j, &val) in v.iter().enumerate() {
                if val != 0.0 {
                    entries.push((self.space.dof(el, j), w * val));
                }
            }
        }
        let f = SparseVec {
            len: self.space.n_dofs(),
            entries,
        };
        Ok(f.embed(&self.map, self.offset, self.n_states).compressed())
    }

    /// Field value at `x` for the state `e`.
    pub fn evaluate(&self, e: &[f64], x: f64) -> Result<f64, FemError> {
        if e.len() != self.n_states {
            return Err(FemError::Length {
                what: format!("state vector (field {})", self.name),
                expected: self.n_states,
                found: e.len(),
            });
        }
        Ok(self.probe(x)?.dot(e))
    }

    /// Writes the $L^2$ projection of `f` onto the kept DOFs of this block into `e`.
    pub fn project_into(&self, f: &dyn Fn(f64) -> f64, e: &mut [f64]) -> Result<(), FemError> {
        if e.len() != self.n_states {
            return Err(FemError::Length {
                what: format!("state vector (field {})", self.name),
                expected: self.n_states,
                found: e.len(),
            });
        }
        let keep: Vec<usize> = (0..self.map.len())
            .filter(|&i| self.map[i].is_some())
            .collect();
        if keep.is_empty() {
            return Ok(());
        }
        let M = line::mass(&self.space, &Coefficient::Constant(1.0))?;
        let Mr = sparse::restrict(&M, &keep, &keep);
        let b = line::load_functional(&self.space, 0, f, PROJECTION_DEGREE)?.to_dense();
        let llt = Mr.sp_cholesky(faer::Side::Lower).map_err(|err| {
            FemError::LinAlg(format!("projection mass matrix of {}: {err:?}", self.name))
        })?;
        let mut rhs = faer::Mat::from_fn(keep.len(), 1, |i, _| b[keep[i]]);
        llt.solve_in_place(rhs.as_mut());
        for (k, &i) in keep.iter().enumerate() {
            e[self.offset + self.map[i].expect("kept DOF")] = rhs[(k, 0)];
        }
        Ok(())
    }
}

/// A field block of an open system.
pub(crate) struct OpenBlock {
    pub name: String,
    pub meaning: String,
    pub space: Space1d,
    pub algebraic: bool,
}

impl OpenBlock {
    pub fn new(name: &str, meaning: &str, space: Space1d, algebraic: bool) -> Self {
        Self {
            name: name.into(),
            meaning: meaning.into(),
            space,
            algebraic,
        }
    }
}

/// One input column of a port (ports group the terms with the same name, in order).
pub(crate) struct OpenTerm {
    pub port: String,
    pub input: String,
    pub output: String,
    pub column: SparseVec,
}

/// A multiphysics system before strong boundary conditions: $E$, $J$, $R$ triplets on
/// the open state, port columns and the DOFs to remove.
pub(crate) struct OpenSystem {
    pub blocks: Vec<OpenBlock>,
    /// The $E$, $J$, $R$ triplets of the open state.
    pub asm: BlockAssembler,
    pub terms: Vec<OpenTerm>,
    pub removed: Vec<usize>,
}

impl OpenSystem {
    pub fn new(blocks: Vec<OpenBlock>) -> Self {
        let sizes: Vec<usize> = blocks.iter().map(|b| b.space.n_dofs()).collect();
        Self {
            blocks,
            asm: BlockAssembler::new(&sizes),
            terms: Vec::new(),
            removed: Vec::new(),
        }
    }

    /// Removes the strong-condition DOFs and builds the system and field blocks.
    pub fn finalize(self) -> Result<(LinearPhSystem, Vec<FieldBlock>), FemError> {
        let n_open = self.asm.n();
        let mut removed = vec![false; n_open];
        for &i in &self.removed {
            removed[i] = true;
        }
        let keep: Vec<usize> = (0..n_open).filter(|&i| !removed[i]).collect();
        let mut new_index = vec![None; n_open];
        for (k, &i) in keep.iter().enumerate() {
            new_index[i] = Some(k);
        }
        let n = keep.len();
        let E = sparse::restrict(&self.asm.E.build(), &keep, &keep);
        let J = sparse::restrict(&self.asm.J.build(), &keep, &keep);
        let R = sparse::restrict(&self.asm.R.build(), &keep, &keep);
        // Ports: group terms by name in order of first appearance.
        let mut names: Vec<String> = Vec::new();
        for t in &self.terms {
            if !names.contains(&t.port) {
                names.push(t.port.clone());
            }
        }
        let mut ports = Vec::new();
        let mut bt = Triplets::new(n, self.terms.len());
        let mut col = 0;
        for name in &names {
            let group: Vec<&OpenTerm> = self.terms.iter().filter(|t| &t.port == name).collect();
            for t in &group {
                for &(i, v) in &t.column.embed(&new_index, 0, n).entries {
                    bt.push(i, col, v);
                }
                col += 1;
            }
            let ins: Vec<&str> = group.iter().map(|t| t.input.as_str()).collect();
            let outs: Vec<&str> = group.iter().map(|t| t.output.as_str()).collect();
            ports.push(Port::new(
                name.clone(),
                group.len(),
                format!("({})", ins.join(", ")),
                format!("({})", outs.join(", ")),
            ));
        }
        let mut blocks = Vec::new();
        let mut fields = Vec::new();
        for (b, ob) in self.blocks.iter().enumerate() {
            let range = self.asm.offset(b)..self.asm.offset(b) + ob.space.n_dofs();
            let map: Vec<Option<usize>> = range.clone().map(|i| new_index[i]).collect();
            let off = map.iter().flatten().next().copied().unwrap_or(0);
            let local: Vec<Option<usize>> = map.iter().map(|m| m.map(|k| k - off)).collect();
            let len = local.iter().flatten().count();
            blocks.push(if ob.algebraic {
                VarBlock::algebraic(ob.name.clone(), ob.meaning.clone(), len, 1)
            } else {
                VarBlock::differential(ob.name.clone(), ob.meaning.clone(), len)
            });
            fields.push(FieldBlock {
                name: ob.name.clone(),
                meaning: ob.meaning.clone(),
                space: ob.space.clone(),
                offset: off,
                map: local,
                n_states: n,
            });
        }
        let system = LinearPhSystem::new(E, J, R, bt.build(), PortSet::from_ports(ports)?, blocks)?;
        Ok((system, fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Structure: J skew, E and R symmetric PSD; ports in both causalities; the DG probe
    /// averages at interior nodes.
    #[test]
    fn structure_and_ports() {
        for d in [HeatDiscretization::CgDg(1), HeatDiscretization::DgCg(2)] {
            let m = Heat1d::new(2.0, 3.0, 300.0, 1.0, 8)
                .discretization(d)
                .build()
                .unwrap();
            m.system().check(&Default::default()).unwrap();
            assert_eq!(m.system().ports.names(), vec!["left", "right"]);
            let iso = Heat1d::new(2.0, 3.0, 300.0, 1.0, 8)
                .discretization(d)
                .ends(ThermalEnd::Isothermal, ThermalEnd::Insulated)
                .build()
                .unwrap();
            assert!(iso.system().ports.is_empty());
        }
        let m = Heat1d::new(1.0, 1.0, 1.0, 1.0, 4)
            .discretization(HeatDiscretization::DgCg(1))
            .build()
            .unwrap();
        let e = m.initial_state(&|x| x).unwrap();
        // DG0 projection of x = cell midpoints; at the node 0.5: (0.375 + 0.625)/2
        assert!((m.temperature().evaluate(&e, 0.5).unwrap() - 0.5).abs() < 1e-14);
        assert!(Heat1d::new(-1.0, 1.0, 1.0, 1.0, 4).build().is_err());
        assert!(Heat1d::new(1.0, 1.0, 1.0, 1.0, 4)
            .discretization(HeatDiscretization::CgDg(4))
            .build()
            .is_err());
    }
}
