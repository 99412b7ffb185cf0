//! Kirchhoff–Love plate, dual-mixed ("primal") PFEM with an $H^2$-conforming velocity:
//! $e_w \in$ Bell (or Argyris), $\mathbf E_\kappa \in (DG_3)^{2\times2}_{\mathrm{sym}}$
//! (thesis 004 §7.3.2, eqs. (7.23)–(7.24), force/moment causality (6.80); summary §3.2
//! "Kirchhoff plate, force/moment control", §3.3 "BellDG3", §5.1.3 tables B.19, B.23).
//!
//! The first line is integrated by parts twice, the second not at all (the Hessian is
//! applied to the $C^1$ velocity cellwise, no jump terms):
//! $$\begin{aligned}
//! \langle v, \rho h\,\partial_t e_w\rangle &= -\langle\operatorname{Hess}v, \mathbf E_\kappa\rangle +
//!   \langle v, \tilde q_n\rangle_{\Gamma_N} + \langle\partial_nv, M_{nn}\rangle_{\Gamma_N} +
//!   \langle v, f\rangle,\\
//! \langle\mathbf V, \mathcal C_b\,\partial_t\mathbf E_\kappa\rangle &=
//!   \langle\mathbf V, \operatorname{Hess}e_w\rangle,
//! \end{aligned}$$
//! so $E = \operatorname{diag}(M_{\rho h}, M_{\mathcal C_b})$,
//! $J = \begin{bmatrix}0 & -D^\top\\ D & 0\end{bmatrix}$,
//! $D^{mi} = \langle\Phi^m, \operatorname{Hess}\phi^i\rangle$
//! ([`C1Space::hessian_coupling`]), $\dot H = \int_{\Gamma_N} (w_t\tilde q_n +
//! \partial_nw_t\,M_{nn}) + \int f\,w_t$.
//!
//! Because $\operatorname{Hess}$ maps $P_5$ into $P_3$, $\operatorname{Hess}e_w$ lies in the
//! moment space: eliminating $\mathbf E_\kappa$ gives exactly the standard Bell Galerkin
//! plate $M\ddot w + Kw = f$ with $K = \langle\operatorname{Hess}\cdot, \mathcal D_b
//! \operatorname{Hess}\cdot\rangle$, whose $H^2$ error is $O(h^3)$.
//!
//! # Boundary conditions (summary §3.3 notes, §6.2)
//! $w_t$ and $\partial_n w_t$ are **essential** here, $\tilde q_n$ and $M_{nn}$ **natural**:
//! free edges need nothing; simply supported edges impose $w_t = 0$, clamped edges
//! $w_t = \partial_nw_t = 0$ strongly through a constraint basis $T$ of the $C^1$ space
//! (state $e_w = Tz$; $T$ has orthonormal columns, block diagonal per vertex), chosen by
//! [`BellImposition`]:
//! * [`BellImposition::Exact`] (default): at every vertex of a supported edge with unit
//!   tangent $t$ and normal $n$, $w = \partial_tw = \partial_{tt}w = 0$ (and, clamped,
//!   $\partial_nw = \partial_{tn}w = 0$; Argyris also removes the edge DOF of clamped edges).
//!   The quintic trace and the cubic/quartic normal derivative are fixed by these DOFs,
//!   so the conditions hold on the whole edge, for any straight edge direction;
//! * [`BellImposition::ThesisVertex`]: only the vertex values (and, clamped, the
//!   vertex normal derivatives) are set to zero, as in the thesis's Firedrake scripts,
//!   where strong conditions on $H^2$ elements were not available (thesis Remark 21): the
//!   trace then vanishes only at the vertices, which is what limits the thesis's BellDG3
//!   tables B.19/B.23 to order $\approx 1.5$.
//!
//! Ports: distributed loads ([`KirchhoffBell::load`]: input $a(t)$, density $a(t)f(x,y)$, $B$
//! column $\langle\phi, f\rangle$) and natural boundary ports ([`KirchhoffBell::port`]): on a
//! free edge inputs `{tag}_qn` ($\tilde q_n$) and `{tag}_Mnn` ($M_{nn}$), on a simply
//! supported edge `{tag}_Mnn`, each as $\sum_j u_{e,j}P_j(2s - 1)$ per edge ($P_0..P_3$
//! Legendre, arc parameter $s$ from the lower global vertex), $B$ columns $\int_e\phi P_j$ and
//! $\int_e\partial_n\phi P_j$ (outward $n$); the outputs are the matching weighted traces of
//! $w_t$ and $\partial_nw_t$, so $y^\top u$ is the boundary power.
use std::sync::Arc;

use crate::assembly2d;
use crate::element2d_bell::{C1Family, C1Space, C1Values};
use crate::error::FemError;
use crate::mesh2d::{BoundaryEdge, Fem2dError, Mesh2d};
use crate::plate::kirchhoff::{EdgeCondition, KirchhoffParams, PlateProfile};
use crate::quadrature::GaussLegendre;
use crate::space2d::{Family2d, Shape, Space2d};
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};

/// Degree of the per-edge Legendre trace basis of the boundary ports.
const TRACE_DEGREE: usize = 3;

/// How the essential conditions $w_t = 0$ ($\partial_nw_t = 0$) are imposed on the $C^1$
/// DOFs (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BellImposition {
    /// Value, tangential and tangential-normal derivatives at the edge vertices: the
    /// condition holds on the whole edge.
    #[default]
    Exact,
    /// Only vertex values (clamped: and vertex normal derivatives), as in the thesis.
    ThesisVertex,
}

/// Builder of the Bell/Argyris × DG3 Kirchhoff plate.
#[derive(Clone)]
pub struct KirchhoffBell {
    params: KirchhoffParams,
    mesh: Mesh2d,
    family: C1Family,
    imposition: BellImposition,
    conditions: Vec<(String, EdgeCondition, bool)>,
    loads: Vec<(String, PlateProfile)>,
}

impl std::fmt::Debug for KirchhoffBell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KirchhoffBell")
            .field("params", &self.params)
            .field("family", &self.family)
            .field("imposition", &self.imposition)
            .field("conditions", &self.conditions)
            .field(
                "loads",
                &self.loads.iter().map(|l| &l.0).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl KirchhoffBell {
    /// Plate on `mesh` with $e_w$ in `family` (Bell: thesis "BellDG3"), all edges free until
    /// conditions are given.
    pub fn new(
        params: KirchhoffParams,
        mesh: &Mesh2d,
        family: C1Family,
    ) -> Result<Self, Fem2dError> {
        params.validate()?;
        Ok(Self {
            params,
            mesh: mesh.clone(),
            family,
            imposition: BellImposition::Exact,
            conditions: Vec::new(),
            loads: Vec::new(),
        })
    }
    /// Chooses how essential conditions are imposed (default [`BellImposition::Exact`]).
    pub fn imposition(mut self, imp: BellImposition) -> Self {
        self.imposition = imp;
        self
    }
    /// Clamped edges: $w_t = \partial_nw_t = 0$ (essential).
    pub fn clamped(mut self, tag: &str) -> Self {
        self.conditions
            .push((tag.into(), EdgeCondition::Clamped, false));
        self
    }
    /// Simply supported edges: $w_t = 0$ essential, $M_{nn} = 0$ natural.
    pub fn simply_supported(mut self, tag: &str) -> Self {
        self.conditions
            .push((tag.into(), EdgeCondition::SimplySupported, false));
        self
    }
    /// Free edges: $\tilde q_n = M_{nn} = 0$, natural (also the default).
    pub fn free(mut self, tag: &str) -> Self {
        self.conditions
            .push((tag.into(), EdgeCondition::Free, false));
        self
    }
    /// Natural boundary port on the edges `tag` (module docs): free → `{tag}_qn`,
    /// `{tag}_Mnn`; simply supported → $w_t = 0$ and `{tag}_Mnn`. Clamped edges have no
    /// natural input ([`FemError::BoundaryCondition`] at build time).
    pub fn port(mut self, tag: &str, condition: EdgeCondition) -> Self {
        self.conditions.push((tag.into(), condition, true));
        self
    }
    /// Distributed load port `name`: input $a(t)$, load density $a(t)f(x,y)$, output
    /// $\int f\,e_w$.
    pub fn load(mut self, name: &str, profile: PlateProfile) -> Self {
        self.loads.push((name.into(), profile));
        self
    }

    /// Assembles the model.
    pub fn build(&self) -> Result<KirchhoffBellModel, Fem2dError> {
        let p = &self.params;
        let mesh = &self.mesh;
        let sw = C1Space::new(mesh, self.family)?;
        let sk = Space2d::new(mesh, Family2d::Dg(3), Shape::SymTensor)?;
        let (nf, nk) = (sw.n_dofs(), sk.n_dofs());

        // conditions per boundary edge
        let mut seen = vec![None::<usize>; mesh.n_edges()];
        let mut tagged: Vec<Vec<BoundaryEdge>> = Vec::new();
        for (ci, (tag, cond, port)) in self.conditions.iter().enumerate() {
            if *port && *cond == EdgeCondition::Clamped {
                return Err(FemError::InvalidParameter {
                    name: format!("port on clamped edges '{tag}'"),
                    value: 0.0,
                    requirement: "a free or simply supported edge: w_t and dn w_t are essential in the \
                                  Bell/Argyris plate and have no natural input (use the HHJ model for clamped ports)"
                        .into(),
                }
                .into());
            }
            let edges = mesh.tagged_edges(tag)?;
            for b in &edges {
                if let Some(prev) = seen[b.edge] {
                    return Err(FemError::InvalidParameter {
                        name: format!(
                            "boundary conditions on tags '{}' and '{tag}'",
                            self.conditions[prev].0
                        ),
                        value: b.edge as f64,
                        requirement: "one condition per boundary edge: use disjoint tags".into(),
                    }
                    .into());
                }
                seen[b.edge] = Some(ci);
            }
            tagged.push(edges);
        }

        // constraint rows per vertex (6-dim local DOF space), removed Argyris edge DOFs
        let mut rows: Vec<Vec<[f64; 6]>> = vec![Vec::new(); mesh.n_vertices()];
        let mut removed_edge = vec![false; mesh.n_edges()];
        for (ci, (_, cond, _)) in self.conditions.iter().enumerate() {
            if *cond == EdgeCondition::Free {
                continue;
            }
            let clamped = *cond == EdgeCondition::Clamped;
            for b in &tagged[ci] {
                let [a, c] = mesh.edges()[b.edge];
                let (A, C) = (mesh.vertices()[a], mesh.vertices()[c]);
                let l = mesh.edge_length(b.edge);
                let t = [(C[0] - A[0]) / l, (C[1] - A[1]) / l];
                let n = [t[1], -t[0]];
                for v in [a, c] {
                    rows[v].push([1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
                    match self.imposition {
                        BellImposition::Exact => {
                            rows[v].push([0.0, t[0], t[1], 0.0, 0.0, 0.0]);
                            rows[v].push([
                                0.0,
                                0.0,
                                0.0,
                                t[0] * t[0],
                                2.0 * t[0] * t[1],
                                t[1] * t[1],
                            ]);
                            if clamped {
                                rows[v].push([0.0, n[0], n[1], 0.0, 0.0, 0.0]);
                                rows[v].push([
                                    0.0,
                                    0.0,
                                    0.0,
                                    t[0] * n[0],
                                    t[0] * n[1] + t[1] * n[0],
                                    t[1] * n[1],
                                ]);
                            }
                        }
                        BellImposition::ThesisVertex => {
                            if clamped {
                                rows[v].push([0.0, n[0], n[1], 0.0, 0.0, 0.0]);
                            }
                        }
                    }
                }
                if clamped && self.imposition == BellImposition::Exact {
                    removed_edge[b.edge] = true;
                }
            }
        }
        // constraint basis T (n_full × n_red)
        let mut Tt = Triplets::new(nf, nf);
        let mut nr = 0usize;
        for (v, r) in rows.iter().enumerate() {
            for col in complement_basis(r) {
                for (k, &c) in col.iter().enumerate() {
                    if c != 0.0 {
                        Tt.push(6 * v + k, nr, c);
                    }
                }
                nr += 1;
            }
        }
        for (e, &removed) in removed_edge.iter().enumerate() {
            if let Some(d) = sw.edge_dof(e) {
                if !removed {
                    Tt.push(d, nr, 1.0);
                    nr += 1;
                }
            }
        }
        let T = sparse::slice(&Tt.build(), 0..nf, 0..nr);

        let Mw = sw.mass(p.surface_density())?;
        let Ew = sparse::matmul(&sparse::transpose(&T), &sparse::matmul(&Mw, &T));
        let Mk = assembly2d::mass_pointwise(&sk, &p.stiffness.compliance())?;
        let D = sparse::matmul(&sw.hessian_coupling(&sk)?, &T);

        // ports
        let n = nr + nk;
        let mut ports = Vec::new();
        let mut cols: Vec<Vec<(usize, f64)>> = Vec::new();
        let gl = GaussLegendre::new(8)?;
        let mut vals = C1Values::new(sw.n_local());
        let mut trace_masses = Vec::new();
        for (ci, (tag, cond, port)) in self.conditions.iter().enumerate() {
            if !*port {
                continue;
            }
            let edges = &tagged[ci];
            let nt = TRACE_DEGREE + 1;
            let with_q = *cond == EdgeCondition::Free;
            let mut Bq = vec![vec![0.0; nf]; edges.len() * nt];
            let mut Bm = vec![vec![0.0; nf]; edges.len() * nt];
            for (ie, b) in edges.iter().enumerate() {
                let [a, c] = mesh.edges()[b.edge];
                let (A, C) = (mesh.vertices()[a], mesh.vertices()[c]);
                let l = mesh.edge_length(b.edge);
                let nrm = mesh.outward_normal(b);
                let d = sw.cell_dofs(b.cell);
                for (&s, &w) in gl.points.iter().zip(&gl.weights) {
                    let x = [A[0] + s * (C[0] - A[0]), A[1] + s * (C[1] - A[1])];
                    sw.eval_cell(b.cell, x, &mut vals);
                    for j in 0..nt {
                        let pj = legendre(j, 2.0 * s - 1.0) * w * l;
                        for (i, &di) in d.iter().enumerate() {
                            Bq[ie * nt + j][di] += pj * vals.val[i];
                            Bm[ie * nt + j][di] +=
                                pj * (vals.grad[i][0] * nrm[0] + vals.grad[i][1] * nrm[1]);
                        }
                    }
                }
            }
            let mut trace = Triplets::new(edges.len() * nt, edges.len() * nt);
            for (ie, b) in edges.iter().enumerate() {
                for j in 0..nt {
                    trace.push(
                        ie * nt + j,
                        ie * nt + j,
                        mesh.edge_length(b.edge) / (2 * j + 1) as f64,
                    );
                }
            }
            let trace = trace.build();
            let mut add = |name: String, B: Vec<Vec<f64>>, input: &str, output: &str| {
                // reduce rows with T: column = Tᵀ b
                let dim = B.len();
                for b in B {
                    let r = sparse::mul_vec_transpose(&T, &b);
                    cols.push(
                        r.into_iter()
                            .enumerate()
                            .filter(|(_, v)| *v != 0.0)
                            .collect(),
                    );
                }
                trace_masses.push((name.clone(), trace.clone()));
                ports.push(Port::new(name, dim, input, output));
            };
            if with_q {
                add(
                    format!("{tag}_qn"),
                    Bq,
                    "effective shear force q_n [N/m], per-edge Legendre P0..P3 coefficients",
                    "weighted traces int_e w_t P_j ds [m²/s]",
                );
            }
            add(
                format!("{tag}_Mnn"),
                Bm,
                "normal bending moment M_nn [N m/m], per-edge Legendre P0..P3 coefficients",
                "weighted traces int_e dn w_t P_j ds [m/s]",
            );
        }
        for (name, profile) in &self.loads {
            let f = profile.clone();
            let b = sw.load(&move |x| f(x), 6)?;
            let r = sparse::mul_vec_transpose(&T, &b);
            cols.push(
                r.into_iter()
                    .enumerate()
                    .filter(|(_, v)| *v != 0.0)
                    .collect(),
            );
            ports.push(Port::new(
                name.clone(),
                1,
                "amplitude a(t) of the distributed load a(t) f(x, y) [N/m² per unit f]",
                "integral of f times the vertical velocity over the plate [m³/s per unit f]",
            ));
        }
        let mut Bt = Triplets::new(n, cols.len());
        for (j, c) in cols.iter().enumerate() {
            for &(i, v) in c {
                Bt.push(i, j, v);
            }
        }
        let mut Et = Triplets::new(n, n);
        Et.push_block(0, 0, &Ew, 1.0);
        Et.push_block(nr, nr, &Mk, 1.0);
        let mut Jt = Triplets::new(n, n);
        Jt.push_block(nr, 0, &D, 1.0);
        Jt.push_block_transpose(0, nr, &D, -1.0);
        let system = LinearPhSystem::new(
            Et.build(),
            Jt.build(),
            sparse::zeros(n, n),
            Bt.build(),
            PortSet::from_ports(ports)?,
            vec![
                VarBlock::differential(
                    "e_w",
                    format!(
                        "vertical velocity [m/s] ({} DOFs: values, gradients, Hessians in the constraint basis)",
                        self.family.name()
                    ),
                    nr,
                ),
                VarBlock::differential(
                    "E_kappa",
                    "bending moments [N m/m] ((DG3)^2x2_sym, components xx, xy, yy)",
                    nk,
                ),
            ],
        )?;
        Ok(KirchhoffBellModel {
            params: *p,
            system,
            sw,
            sk,
            T,
            nr,
            trace_masses,
        })
    }
}

/// Legendre polynomial $P_j(u)$, $j \le 3$.
fn legendre(j: usize, u: f64) -> f64 {
    match j {
        0 => 1.0,
        1 => u,
        2 => 0.5 * (3.0 * u * u - 1.0),
        _ => 0.5 * (5.0 * u * u * u - 3.0 * u),
    }
}

/// Orthonormal basis of the orthogonal complement of the span of `rows` in $\mathbb R^6$:
/// Gram–Schmidt of the rows, then of the unit vectors projected out of them (unit vectors
/// already orthogonal to the rows are kept exactly, so axis-aligned conditions remove
/// DOFs without mixing the others).
fn complement_basis(rows: &[[f64; 6]]) -> Vec<[f64; 6]> {
    let dot = |a: &[f64; 6], b: &[f64; 6]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let mut q: Vec<[f64; 6]> = Vec::new();
    let push = |v: [f64; 6], q: &mut Vec<[f64; 6]>| -> Option<[f64; 6]> {
        let mut w = v;
        for _ in 0..2 {
            for b in q.iter() {
                let c = dot(&w, b);
                if c != 0.0 {
                    for k in 0..6 {
                        w[k] -= c * b[k];
                    }
                }
            }
        }
        let nrm = dot(&w, &w).sqrt();
        if nrm > 1e-8 {
            for x in w.iter_mut() {
                *x /= nrm;
                if x.abs() < 1e-15 {
                    *x = 0.0;
                }
            }
            q.push(w);
            Some(w)
        } else {
            None
        }
    };
    for r in rows {
        push(*r, &mut q);
    }
    let mut out = Vec::new();
    for k in 0..6 {
        let mut e = [0.0; 6];
        e[k] = 1.0;
        if let Some(w) = push(e, &mut q) {
            out.push(w);
        }
    }
    out
}

/// An assembled Bell/Argyris × DG3 Kirchhoff plate.
#[derive(Debug, Clone)]
pub struct KirchhoffBellModel {
    params: KirchhoffParams,
    system: LinearPhSystem,
    sw: C1Space,
    sk: Space2d,
    /// Constraint basis: full $C^1$ coefficients $= T z$.
    T: SparseMat,
    nr: usize,
    trace_masses: Vec<(String, SparseMat)>,
}

impl KirchhoffBellModel {
    /// The pH system (blocks `e_w`, `E_kappa`).
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// Consumes the model, returning its system.
    pub fn into_system(self) -> LinearPhSystem {
        self.system
    }
    /// Material data.
    pub fn params(&self) -> &KirchhoffParams {
        &self.params
    }
    /// The (unconstrained) $C^1$ velocity space.
    pub fn velocity_space(&self) -> &C1Space {
        &self.sw
    }
    /// The $(DG_3)^{2\times2}_{\mathrm{sym}}$ moment space.
    pub fn moment_space(&self) -> &Space2d {
        &self.sk
    }
    /// Constraint basis $T$ (full velocity coefficients × reduced `e_w` states).
    pub fn constraint_basis(&self) -> &SparseMat {
        &self.T
    }
    /// Number of states.
    pub fn n_states(&self) -> usize {
        self.system.n_states()
    }
    /// Mass matrix of the per-edge Legendre trace basis of boundary port `port`.
    pub fn port_trace_mass(&self, port: &str) -> Result<&SparseMat, Fem2dError> {
        self.trace_masses
            .iter()
            .find(|(n, _)| n == port)
            .map(|(_, m)| m)
            .ok_or_else(|| {
                FemError::InvalidParameter {
                    name: format!("boundary port '{port}'"),
                    value: 0.0,
                    requirement: format!(
                        "one of the model's boundary ports: {}",
                        self.trace_masses
                            .iter()
                            .map(|t| t.0.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
                .into()
            })
    }

    fn check_state(&self, e: &[f64]) -> Result<(), Fem2dError> {
        if e.len() != self.n_states() {
            return Err(FemError::Length {
                what: "Bell Kirchhoff state".into(),
                expected: self.n_states(),
                found: e.len(),
            }
            .into());
        }
        Ok(())
    }

    /// Full $C^1$ velocity coefficients $Tz$ of the state `e`.
    pub fn velocity_coefficients(&self, e: &[f64]) -> Result<Vec<f64>, Fem2dError> {
        self.check_state(e)?;
        Ok(sparse::mul_vec(&self.T, &e[..self.nr]))
    }
    /// Moment coefficients (DG3, components xx, xy, yy) of the state `e`.
    pub fn moment_coefficients(&self, e: &[f64]) -> Result<Vec<f64>, Fem2dError> {
        self.check_state(e)?;
        Ok(e[self.nr..].to_vec())
    }

    /// State with velocity of full coefficients `w` (reduced by $T^\top$, the least-squares
    /// fit in the constrained space; exact if `w` satisfies the constraints) and zero
    /// moments.
    pub fn state_from_velocity(&self, w: &[f64]) -> Result<Vec<f64>, Fem2dError> {
        if w.len() != self.sw.n_dofs() {
            return Err(FemError::Length {
                what: format!("{} velocity coefficients", self.sw.family().name()),
                expected: self.sw.n_dofs(),
                found: w.len(),
            }
            .into());
        }
        let mut e = sparse::mul_vec_transpose(&self.T, w);
        e.resize(self.n_states(), 0.0);
        Ok(e)
    }

    /// State with the nodal interpolant of the velocity `f(x) = [v, v_x, v_y, v_xx, v_xy,
    /// v_yy]` (reduced by $T^\top$) and zero moments.
    pub fn interpolate_state(
        &self,
        f: &dyn Fn([f64; 2]) -> [f64; 6],
    ) -> Result<Vec<f64>, Fem2dError> {
        self.state_from_velocity(&self.sw.interpolate(f))
    }

    /// State with the $L^2$ projection of the velocity `f` onto the **constrained** space
    /// ($T^\top M T z = T^\top b$) and zero moments.
    pub fn project_state(&self, f: &dyn Fn([f64; 2]) -> f64) -> Result<Vec<f64>, Fem2dError> {
        let M = self.sw.mass(1.0)?;
        let Mr = sparse::matmul(&sparse::transpose(&self.T), &sparse::matmul(&M, &self.T));
        let b = sparse::mul_vec_transpose(&self.T, &self.sw.load(f, 10)?);
        let mut e = crate::element2d_bell::solve_spd(&Mr, &b, "constrained Bell mass matrix")?;
        e.resize(self.n_states(), 0.0);
        Ok(e)
    }

    /// State with the **unconstrained** $L^2$ projection of `f` reduced by $T^\top$, as the
    /// thesis scripts initialise $e_w$ (Firedrake `project`, then least squares on the kept
    /// DOFs).
    pub fn project_state_unconstrained(
        &self,
        f: &dyn Fn([f64; 2]) -> f64,
    ) -> Result<Vec<f64>, Fem2dError> {
        self.state_from_velocity(&self.sw.l2_projection(f)?)
    }

    /// Precomputes the error forms against a separable exact solution $e_w = a(t)v(x)$,
    /// $\mathbf E_\kappa = b(t)\mathbf M(x)$: `velocity(x) = [v, v_x, v_y, v_xx, v_xy, v_yy]`,
    /// `moments(x) = (M_xx, M_xy, M_yy)`. The norms are those of the thesis tables B.19/B.23:
    /// $\|e_w - e_w^h\|_{H^2}$ (full norm, Frobenius Hessian) and $\|\mathbf E_\kappa -
    /// \mathbf E^h_\kappa\|_{L^2}$ (Frobenius).
    pub fn error_forms(
        &self,
        velocity: &dyn Fn([f64; 2]) -> [f64; 6],
        moments: &(dyn Fn([f64; 2]) -> [f64; 3] + Sync),
    ) -> Result<BellErrorForms, Fem2dError> {
        let Tt = sparse::transpose(&self.T);
        let K = self.sw.gram(1.0, 1.0, 1.0)?;
        let K = sparse::matmul(&Tt, &sparse::matmul(&K, &self.T));
        let (bw, cw) = self.sw.gram_load(velocity, [1.0, 1.0, 1.0], 10)?;
        let bw = sparse::mul_vec(&Tt, &bw);
        let MF = assembly2d::mass(&self.sk, 1.0)?;
        let bk = assembly2d::load(
            &self.sk,
            &|x, o| {
                let m = moments(x);
                o[0] = m[0];
                o[1] = 2.0 * m[1];
                o[2] = m[2];
            },
            10,
        )?;
        let mut ck = 0.0;
        // ‖M‖² with a high-degree rule
        let q = crate::quadrature2d::TriangleQuadrature::exact_for_degree(16)?;
        let mesh = self.sw.mesh();
        for t in 0..mesh.n_cells() {
            let g = crate::space2d::CellGeometry::new(mesh, t);
            for (xh, &w) in q.points.iter().zip(&q.weights) {
                let m = moments(g.map(*xh));
                ck += w * g.det * (m[0] * m[0] + 2.0 * m[1] * m[1] + m[2] * m[2]);
            }
        }
        Ok(BellErrorForms {
            K,
            bw,
            cw,
            MF,
            bk,
            ck,
            nr: self.nr,
        })
    }
}

/// Precomputed quadratic forms of the errors (see [`KirchhoffBellModel::error_forms`]).
#[derive(Debug, Clone)]
pub struct BellErrorForms {
    K: SparseMat,
    bw: Vec<f64>,
    cw: f64,
    MF: SparseMat,
    bk: Vec<f64>,
    ck: f64,
    nr: usize,
}

impl BellErrorForms {
    /// $[\|a v - e_w^h\|_{H^2},\ \|b\mathbf M - \mathbf E_\kappa^h\|_{L^2}]$ for the state `e`
    /// (expanded squares: errors below about $10^{-7}$ of the exact norm are not resolved).
    pub fn errors(&self, e: &[f64], a: f64, b: f64) -> [f64; 2] {
        let (ew, ek) = e.split_at(self.nr);
        let dot = |x: &[f64], y: &[f64]| x.iter().zip(y).map(|(p, q)| p * q).sum::<f64>();
        let sw = sparse::bilinear(ew, &self.K, ew) - 2.0 * a * dot(ew, &self.bw) + a * a * self.cw;
        let sk = sparse::bilinear(ek, &self.MF, ek) - 2.0 * b * dot(ek, &self.bk) + b * b * self.ck;
        [sw.max(0.0).sqrt(), sk.max(0.0).sqrt()]
    }
    /// Norms of the exact fields $[\|v\|_{H^2}, \|\mathbf M\|_{L^2}]$.
    pub fn exact_norms(&self) -> [f64; 2] {
        [self.cw.sqrt(), self.ck.sqrt()]
    }
}

/// The benchmarks of thesis 004 §7.4.3 for the BellDG3 scheme (tables B.19, B.23), reusing
/// the exact solutions of [`kirchhoff::benchmarks`](crate::plate::kirchhoff::benchmarks).
pub mod benchmarks {
    use super::*;
    use crate::plate::kirchhoff::benchmarks::{Benchmark, ThesisRow};

    const fn row(inv_h: usize, e_w: f64, e_kappa: f64) -> ThesisRow {
        ThesisRow {
            inv_h,
            e_w,
            e_kappa,
        }
    }

    /// Table B.19 (SSSS): $\|e_w\|_{L^\infty(H^2)}$, $\|\mathbf E_\kappa\|_{L^\infty(L^2)}$.
    pub const B19_SSSS: [ThesisRow; 5] = [
        row(2, 6.63e+00, 3.60e+01),
        row(4, 1.91e+00, 9.99e+00),
        row(8, 6.08e-01, 3.29e+00),
        row(16, 2.09e-01, 1.14e+00),
        row(32, 7.34e-02, 4.01e-01),
    ];
    /// Table B.23 (CSFS).
    pub const B23_CSFS: [ThesisRow; 5] = [
        row(2, 3.88e+01, 2.40e+01),
        row(4, 8.17e+00, 4.41e+00),
        row(8, 2.71e+00, 1.50e+00),
        row(16, 1.13e+00, 5.36e-01),
        row(32, 4.35e-01, 1.90e-01),
    ];

    /// The thesis BellDG3 table of `bench`.
    pub fn thesis_table(bench: Benchmark) -> &'static [ThesisRow] {
        match bench {
            Benchmark::Ssss => &B19_SSSS,
            Benchmark::Csfs => &B23_CSFS,
        }
    }

    /// The Bell/Argyris model of `bench` on `mesh` (conditions of thesis (7.30) / SSSS,
    /// load port `"load"` with profile $f_s - \rho b\,w_s$, input $\sin t$).
    pub fn model(
        bench: Benchmark,
        mesh: &Mesh2d,
        family: C1Family,
        imposition: BellImposition,
    ) -> Result<KirchhoffBellModel, Fem2dError> {
        let b = KirchhoffBell::new(bench.params(), mesh, family)?.imposition(imposition);
        let b = match bench {
            Benchmark::Ssss => b
                .simply_supported("left")
                .simply_supported("right")
                .simply_supported("bottom")
                .simply_supported("top"),
            Benchmark::Csfs => b
                .clamped("left")
                .free("right")
                .simply_supported("bottom")
                .simply_supported("top"),
        };
        b.load("load", Arc::new(move |x| bench.load_profile(x)))
            .build()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh2d::Diagonal;

    /// The complement of axis-aligned constraint rows is a set of unit vectors (pure DOF
    /// removal); for a rotated edge it is orthonormal and orthogonal to the rows.
    #[test]
    fn complement_basis_properties() {
        let rows = [
            [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        ];
        let c = complement_basis(&rows);
        assert_eq!(c.len(), 4);
        for v in &c {
            assert_eq!(v.iter().filter(|x| **x != 0.0).count(), 1);
        }
        let (s, co) = (0.3f64.sin(), 0.3f64.cos());
        let rows = [
            [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, co, s, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, co * co, 2.0 * co * s, s * s],
            [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], // repeated by the second edge of a vertex
        ];
        let c = complement_basis(&rows);
        assert_eq!(c.len(), 3);
        let dot = |a: &[f64; 6], b: &[f64; 6]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
        for (i, a) in c.iter().enumerate() {
            for r in &rows {
                assert!(dot(a, r).abs() < 1e-14);
            }
            for (j, b) in c.iter().enumerate() {
                let ex = if i == j { 1.0 } else { 0.0 };
                assert!((dot(a, b) - ex).abs() < 1e-14);
            }
        }
    }

    /// Bad input gives typed errors naming the offending item: a port on clamped edges,
    /// two conditions on the same edges, an unknown tag, wrong state lengths.
    #[test]
    fn errors_name_the_problem() {
        let mesh = Mesh2d::unit_square(2, Diagonal::Right).unwrap();
        let p = KirchhoffParams::isotropic(70e9, 0.3, 2700.0, 0.01).unwrap();
        let b = KirchhoffBell::new(p, &mesh, C1Family::Bell).unwrap();
        let e = b
            .clone()
            .port("left", EdgeCondition::Clamped)
            .build()
            .unwrap_err();
        assert!(e.to_string().contains("clamped edges 'left'"), "{e}");
        let e = b
            .clone()
            .clamped("left")
            .simply_supported("left")
            .build()
            .unwrap_err();
        assert!(e.to_string().contains("'left' and 'left'"), "{e}");
        let e = b.clone().clamped("nowhere").build().unwrap_err();
        assert!(e.to_string().contains("nowhere"), "{e}");
        let m = b.clamped("left").build().unwrap();
        assert!(m.velocity_coefficients(&[0.0; 3]).is_err());
        assert!(m.state_from_velocity(&[0.0; 3]).is_err());
        assert!(m.port_trace_mass("left_qn").is_err());
        // clamped left: 3 vertices × (w, w_x, w_y, w_yy, w_xy) removed
        assert_eq!(
            m.system().block_range("e_w").unwrap().len(),
            6 * mesh.n_vertices() - 15
        );
    }
}
