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
//! ([`c1_coupling`](crate::assembly::hessian::c1_coupling)), $\dot H = \int_{\Gamma_N} (w_t\tilde q_n +
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
//! # Ports (thesis 004 §4.1.2, §6.2.1; summary §2.6 table)
//! Distributed loads ([`KirchhoffBell::load`]: input $a(t)$, density $a(t)f(x,y)$, $B$
//! column $\langle\phi, f\rangle$) and boundary ports in both causalities, with the port
//! names of the HHJ model ([`KirchhoffHhj`](crate::models::plate::KirchhoffHhj)):
//!
//! | condition | [`KirchhoffBell::port`]: inputs | [`KirchhoffBell::rotation_port`] |
//! |---|---|---|
//! | clamped | `{tag}_wt` (multiplier), `{tag}_dnwt` (multiplier) | $w_t = 0$ strong, `{tag}_dnwt` |
//! | simply supported | `{tag}_wt` (multiplier), `{tag}_Mnn` (natural) | $w_t = 0$ strong, `{tag}_Mnn` |
//! | free | `{tag}_qn`, `{tag}_Mnn` (natural) | $\tilde q_n = 0$, `{tag}_Mnn` |
//!
//! *Natural ports* (`{tag}_qn` = $\tilde q_n$, `{tag}_Mnn` = $M_{nn}$): the input is
//! $\sum_j u_{e,j}P_j(2s - 1)$ per edge ($P_0..P_3$ Legendre, arc parameter $s$ from the
//! lower global vertex), $B$ columns $\int_e\phi P_j$ and $\int_e\partial_n\phi P_j$
//! (outward $n$); the outputs are the matching weighted traces of $w_t$ and
//! $\partial_nw_t$, so $y^\top u$ is the boundary power.
//!
//! *Essential ports* (`{tag}_wt`, `{tag}_dnwt`; thesis §6.2.1, Lagrange multipliers as in
//! the HHJ model). Here $w_t$ and $\partial_nw_t$ are essential, and their traces on a
//! straight edge are fixed by the vertex functionals that the strong imposition sets to
//! zero: $w, \partial_tw, \partial_{tt}w$ (translational, the quintic trace) and
//! $\partial_nw, \partial_{tn}w$ (rotational, the cubic — Argyris: quartic, plus the
//! midpoint $\partial_nw$ — normal slope) at both vertices ([`BellImposition::ThesisVertex`]:
//! $w$ and $\partial_nw$ only). A port prescribes these functionals,
//! $g_k(e_w) = u_k$ ([`PortFunctional`]: kind, vertex, edge tangent $t$ and outward normal
//! $n$, [`KirchhoffBellModel::port_functionals`]), with one multiplier each:
//! $$E\dot e = Je + G\lambda + B_{\mathrm{nat}}u,\qquad 0 = -G^\top e + u_{\mathrm{ess}},
//! \qquad y_{\mathrm{ess}} = \lambda,$$
//! $G^{ik} = g_k(T\phi^i)$, an index-2 pHDAE with blocks `lambda_{tag}_wt`,
//! `lambda_{tag}_dnwt`. The term $G\lambda$ replaces the boundary terms
//! $\langle v, \tilde q_n\rangle + \langle\partial_nv, M_{nn}\rangle$ of the first line,
//! so $\lambda_k$ is the generalized edge reaction conjugate to $g_k$,
//! $\sum_k g_k(v)\lambda_k = \int_\Gamma v\,\tilde q_n + \partial_nv\,M_{nn}$ (consistent
//! nodal forces and moments; e.g. the sum of the outputs on the `Value` functionals is the
//! total edge shear force, on the `Dn` functionals the total edge moment), and
//! $y^\top u = \lambda^\top G^\top e$ is the boundary power exactly. With zero input the
//! port is the strongly imposed homogeneous condition (same constrained space).
//! Functionals that depend on directions already fixed at a vertex (by a strong condition,
//! an earlier port, or the other edge of the tag at a corner) are skipped, so the
//! constraints stay independent; at a corner the prescribed data must then be a $C^1$ trace.
//! [`KirchhoffBellModel::uniform_port_input`] builds the input of a uniform edge field.

use crate::assembly::hessian;
use crate::assembly::triangle;
use crate::element::triangle::bell::{C1Family, C1Space, C1Values};
use crate::error::{find_named, FemError};
use crate::error::{require_len, Fem2dError};
use crate::mesh::triangle::{BoundaryEdge, Mesh2d};
use crate::models::model::{lossless_system, NamedProfile};
use crate::models::plate::kirchhoff::{EdgeCondition, Kirchhoff, KirchhoffParams, Role};
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::polynomial::shifted_legendre;
use crate::space::triangle::{Family2d, Shape, Space2d};
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, VarBlock};

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

/// Kind of a pointwise trace functional of the $C^1$ velocity used as input of an essential
/// boundary port (module docs, "Essential ports").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BellFunctional {
    /// $w_t$ at a vertex \[m/s\].
    Value,
    /// $\partial_tw_t$ at a vertex, $t$ the edge tangent \[1/s\].
    Dt,
    /// $\partial_{tt}w_t$ at a vertex \[1/(m s)\].
    Dtt,
    /// $\partial_nw_t$ at a vertex, $n$ the outward normal \[rad/s\].
    Dn,
    /// $\partial_{tn}w_t$ at a vertex \[1/(m s)\].
    Dtn,
    /// $\partial_nw_t$ at the edge midpoint (Argyris edge DOF, outward $n$) \[rad/s\].
    MidDn,
}

impl BellFunctional {
    /// Whether the functional belongs to the translational ($w_t$ trace) group.
    pub fn is_translational(&self) -> bool {
        matches!(self, Self::Value | Self::Dt | Self::Dtt)
    }
}

/// One input of an essential boundary port: the functional `kind` of $w_t$ at `vertex`
/// (or, [`BellFunctional::MidDn`], at the midpoint of `edge`), with the edge's unit tangent
/// (from `mesh.edges()[edge][0]` to `[1]`) and outward unit normal. The conjugate output is
/// the generalized edge reaction of that functional (module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PortFunctional {
    /// The functional.
    pub kind: BellFunctional,
    /// Vertex (`None` for [`BellFunctional::MidDn`]).
    pub vertex: Option<usize>,
    /// The boundary edge that defines $t$ and $n$.
    pub edge: usize,
    /// Unit tangent of `edge`.
    pub tangent: [f64; 2],
    /// Outward unit normal of `edge`.
    pub normal: [f64; 2],
}

/// Rows (vertex DOF weights on $(w, w_x, w_y, w_{xx}, w_{xy}, w_{yy})$) of the vertex
/// functionals of one edge with unit tangent `t` and normal `n`: translational
/// ($w$, $\partial_t w$, $\partial_{tt}w$) or rotational ($\partial_n w$, $\partial_{tn}w$);
/// [`BellImposition::ThesisVertex`] keeps only $w$ and $\partial_n w$.
fn vertex_functionals(
    t: [f64; 2],
    n: [f64; 2],
    imp: BellImposition,
    translational: bool,
) -> Vec<(BellFunctional, [f64; 6])> {
    let exact = imp == BellImposition::Exact;
    let mut out = Vec::new();
    if translational {
        out.push((BellFunctional::Value, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]));
        if exact {
            out.push((BellFunctional::Dt, [0.0, t[0], t[1], 0.0, 0.0, 0.0]));
            out.push((
                BellFunctional::Dtt,
                [0.0, 0.0, 0.0, t[0] * t[0], 2.0 * t[0] * t[1], t[1] * t[1]],
            ));
        }
    } else {
        out.push((BellFunctional::Dn, [0.0, n[0], n[1], 0.0, 0.0, 0.0]));
        if exact {
            out.push((
                BellFunctional::Dtn,
                [
                    0.0,
                    0.0,
                    0.0,
                    t[0] * n[0],
                    t[0] * n[1] + t[1] * n[0],
                    t[1] * n[1],
                ],
            ));
        }
    }
    out
}

/// The $C^1$ discretization of [`Kirchhoff`]: Bell or Argyris velocity × $DG_3$ moments,
/// with the imposition of the essential conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bell {
    family: C1Family,
    imposition: BellImposition,
}

/// Builder of the Bell/Argyris × DG3 Kirchhoff plate.
pub type KirchhoffBell = Kirchhoff<Bell>;

/// A port in construction: natural (columns of $B$ on the state rows) or essential
/// (functionals imposed by a multiplier block).
enum PortCols {
    Natural(Vec<Vec<(usize, f64)>>),
    Essential(Vec<Vec<(usize, f64)>>),
}

impl KirchhoffBell {
    /// Plate on `mesh` with $e_w$ in `family` (Bell: thesis "BellDG3"), all edges free until
    /// conditions are given.
    pub fn new(
        params: KirchhoffParams,
        mesh: &Mesh2d,
        family: C1Family,
    ) -> Result<Self, Fem2dError> {
        let discretization = Bell {
            family,
            imposition: BellImposition::Exact,
        };
        Self::with_discretization(params, mesh, discretization)
    }
    /// Chooses how essential conditions are imposed (default [`BellImposition::Exact`]).
    pub fn imposition(mut self, imp: BellImposition) -> Self {
        self.discretization.imposition = imp;
        self
    }

    /// Assembles the model.
    pub fn build(&self) -> Result<KirchhoffBellModel, Fem2dError> {
        let p = &self.params;
        let mesh = &self.mesh;
        let sw = C1Space::new(mesh, self.discretization.family)?;
        let sk = Space2d::new(mesh, Family2d::Dg(3), Shape::SymTensor)?;
        let (nf, nk) = (sw.n_dofs(), sk.n_dofs());
        let exact = self.discretization.imposition == BellImposition::Exact;

        // conditions per boundary edge
        let tagged = self.partition()?.edges;
        // unit tangent (edges()[e][0] → [1]) and outward normal of a boundary edge
        let frame = |b: &BoundaryEdge| {
            let [a, c] = mesh.edges()[b.edge];
            let (A, C) = (mesh.vertices()[a], mesh.vertices()[c]);
            let l = mesh.edge_length(b.edge);
            (
                [(C[0] - A[0]) / l, (C[1] - A[1]) / l],
                mesh.outward_normal(b),
            )
        };

        // strong constraint rows per vertex (6-dim local DOF space), removed Argyris edge DOFs
        let mut rows: Vec<Vec<[f64; 6]>> = vec![Vec::new(); mesh.n_vertices()];
        let mut removed_edge = vec![false; mesh.n_edges()];
        for (ci, (_, cond, role)) in self.conditions.iter().enumerate() {
            let translational = *cond != EdgeCondition::Free && *role != Role::Port;
            let rotational = *cond == EdgeCondition::Clamped && *role == Role::Homogeneous;
            for b in &tagged[ci] {
                let (t, n) = frame(b);
                for v in mesh.edges()[b.edge] {
                    for (on, tr) in [(translational, true), (rotational, false)] {
                        if on {
                            rows[v].extend(
                                vertex_functionals(t, n, self.discretization.imposition, tr)
                                    .into_iter()
                                    .map(|f| f.1),
                            );
                        }
                    }
                }
                if rotational && exact {
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
        let Ttr = sparse::transpose(&T);

        let Mw = sw.mass(p.surface_density())?;
        let Ew = sparse::matmul(&Ttr, &sparse::matmul(&Mw, &T));
        let Mk = triangle::mass_pointwise(&sk, &p.stiffness.compliance())?;
        let D = sparse::matmul(&hessian::c1_coupling(&sw, &sk)?, &T);

        // directions already fixed at each vertex (orthonormal), for the independence of
        // the essential port functionals
        let mut claimed: Vec<Vec<[f64; 6]>> = rows
            .iter()
            .map(|r| {
                let mut q = Vec::new();
                for x in r {
                    claim(&mut q, x);
                }
                q
            })
            .collect();
        let mut claimed_edge = removed_edge.clone();

        // ports, in declaration order
        let mut ports = Vec::new();
        let mut port_cols: Vec<PortCols> = Vec::new();
        let mut trace_masses = Vec::new();
        let mut functionals: Vec<(String, Vec<PortFunctional>)> = Vec::new();
        let mut mult_blocks: Vec<VarBlock> = Vec::new();
        let gl = GaussLegendre::new(8)?;
        let mut vals = C1Values::new(sw.n_local());
        let reduce = |b: &[f64]| -> Vec<(usize, f64)> {
            sparse::mul_vec(&Ttr, b)
                .into_iter()
                .enumerate()
                .filter(|(_, v)| *v != 0.0)
                .collect()
        };
        for (ci, (tag, cond, role)) in self.conditions.iter().enumerate() {
            if *role == Role::Homogeneous {
                continue;
            }
            let edges = &tagged[ci];
            // essential ports: `{tag}_wt` (translational), `{tag}_dnwt` (rotational)
            let wt_port = *role == Role::Port && *cond != EdgeCondition::Free;
            let dnwt_port = *cond == EdgeCondition::Clamped;
            let mut verts: Vec<usize> = edges.iter().flat_map(|b| mesh.edges()[b.edge]).collect();
            verts.sort_unstable();
            verts.dedup();
            for (on, translational) in [(wt_port, true), (dnwt_port, false)] {
                if !on {
                    continue;
                }
                let mut fs = Vec::new();
                let mut cols = Vec::new();
                for &v in &verts {
                    for b in edges.iter().filter(|b| mesh.edges()[b.edge].contains(&v)) {
                        let (t, n) = frame(b);
                        for (kind, r) in
                            vertex_functionals(t, n, self.discretization.imposition, translational)
                        {
                            if claim(&mut claimed[v], &r) {
                                fs.push(PortFunctional {
                                    kind,
                                    vertex: Some(v),
                                    edge: b.edge,
                                    tangent: t,
                                    normal: n,
                                });
                                let mut g = vec![0.0; nf];
                                g[6 * v..6 * v + 6].copy_from_slice(&r);
                                cols.push(reduce(&g));
                            }
                        }
                    }
                }
                if !translational && exact {
                    for b in edges {
                        if let Some(d) = sw.edge_dof(b.edge) {
                            if !claimed_edge[b.edge] {
                                claimed_edge[b.edge] = true;
                                let (t, n) = frame(b);
                                let gn = sw.edge_normal(b.edge);
                                let s = if gn[0] * n[0] + gn[1] * n[1] > 0.0 {
                                    1.0
                                } else {
                                    -1.0
                                };
                                fs.push(PortFunctional {
                                    kind: BellFunctional::MidDn,
                                    vertex: None,
                                    edge: b.edge,
                                    tangent: t,
                                    normal: n,
                                });
                                let mut g = vec![0.0; nf];
                                g[d] = s;
                                cols.push(reduce(&g));
                            }
                        }
                    }
                }
                let (suffix, input, output, lmeaning) = if translational {
                    (
                        "wt",
                        "vertex values of the vertical velocity trace w_t, d_t w_t, d_tt w_t [m/s, 1/s, 1/(m s)] (functionals: KirchhoffBellModel::port_functionals)",
                        "generalized edge reactions conjugate to the functionals (consistent nodal forces of q_n) [N, N m, N m²]",
                        "generalized shear reactions of the w_t functionals",
                    )
                } else {
                    (
                        "dnwt",
                        "vertex values of the normal slope rate d_n w_t, d_tn w_t (Argyris: and d_n w_t at edge midpoints) [rad/s, 1/(m s)]",
                        "generalized edge reactions conjugate to the functionals (consistent nodal moments of M_nn) [N m, N m²]",
                        "generalized moment reactions of the d_n w_t functionals",
                    )
                };
                let name = format!("{tag}_{suffix}");
                if fs.is_empty() {
                    return Err(FemError::InvalidParameter {
                        name: format!("port '{name}'"),
                        value: 0.0,
                        requirement: "at least one trace functional not already fixed by another condition or port (adjacent tags fix the shared vertices)".into(),
                    }
                    .into());
                }
                ports.push(Port::new(name.clone(), fs.len(), input, output));
                mult_blocks.push(VarBlock::algebraic(
                    format!("lambda_{name}"),
                    lmeaning,
                    fs.len(),
                    2,
                ));
                functionals.push((name, fs));
                port_cols.push(PortCols::Essential(cols));
            }
            // natural ports: `{tag}_qn` (free, full port), `{tag}_Mnn` (free, supported)
            let with_q = *cond == EdgeCondition::Free && *role == Role::Port;
            let with_m = *cond != EdgeCondition::Clamped;
            if !with_q && !with_m {
                continue;
            }
            let nt = TRACE_DEGREE + 1;
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
                        let pj = shifted_legendre(j, s) * w * l;
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
                let dim = B.len();
                port_cols.push(PortCols::Natural(B.iter().map(|b| reduce(b)).collect()));
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
        for NamedProfile { name, profile } in &self.loads {
            let f = profile.clone();
            let b = sw.load(&move |x| f(x), 6)?;
            port_cols.push(PortCols::Natural(vec![reduce(&b)]));
            ports.push(Port::new(
                name.clone(),
                1,
                "amplitude a(t) of the distributed load a(t) f(x, y) [N/m² per unit f]",
                "integral of f times the vertical velocity over the plate [m³/s per unit f]",
            ));
        }

        // descriptor system: states (e_w, E_kappa, multipliers)
        let nm: usize = mult_blocks.iter().map(|b| b.len).sum();
        let n = nr + nk + nm;
        let m_in: usize = ports.iter().map(|p| p.dim).sum();
        let mut Bt = Triplets::new(n, m_in);
        let mut Gt = Triplets::new(nr, nm);
        let (mut col, mut lam) = (0usize, 0usize);
        for pc in &port_cols {
            match pc {
                PortCols::Natural(cols) => {
                    for c in cols {
                        for &(i, v) in c {
                            Bt.push(i, col, v);
                        }
                        col += 1;
                    }
                }
                PortCols::Essential(cols) => {
                    // J[e_w, λ] = G, J[λ, e_w] = −Gᵀ, B[λ, port] = I: Gᵀe_w = u
                    for c in cols {
                        for &(i, v) in c {
                            Gt.push(i, lam, v);
                        }
                        Bt.push(nr + nk + lam, col, 1.0);
                        lam += 1;
                        col += 1;
                    }
                }
            }
        }
        let G = Gt.build();
        let mut Et = Triplets::new(n, n);
        Et.push_block(0, 0, &Ew, 1.0);
        Et.push_block(nr, nr, &Mk, 1.0);
        let mut Jt = Triplets::new(n, n);
        Jt.push_block(nr, 0, &D, 1.0);
        Jt.push_block_transpose(0, nr, &D, -1.0);
        Jt.push_block(0, nr + nk, &G, 1.0);
        Jt.push_block_transpose(nr + nk, 0, &G, -1.0);
        let mut blocks = vec![
            VarBlock::differential(
                "e_w",
                format!(
                    "vertical velocity [m/s] ({} DOFs: values, gradients, Hessians in the constraint basis)",
                    self.discretization.family.name()
                ),
                nr,
            ),
            VarBlock::differential(
                "E_kappa",
                "bending moments [N m/m] ((DG3)^2x2_sym, components xx, xy, yy)",
                nk,
            ),
        ];
        blocks.extend(mult_blocks);
        let system = lossless_system(Et.build(), Jt.build(), Bt.build(), ports, blocks)?;
        Ok(KirchhoffBellModel {
            params: *p,
            system,
            sw,
            sk,
            T,
            nr,
            nk,
            trace_masses,
            functionals,
        })
    }
}

/// Adds the direction of `v` to the orthonormal set `q` if it is independent of it
/// (residual after two Gram–Schmidt passes above $10^{-8}$; the functionals have norms of
/// order one), returning the new unit vector.
fn orthonormal_push(q: &mut Vec<[f64; 6]>, v: &[f64; 6]) -> Option<[f64; 6]> {
    let dot = |a: &[f64; 6], b: &[f64; 6]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let mut w = *v;
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
}

/// Claims the direction of functional `v` at a vertex whose fixed directions are `q`;
/// `false` if `v` depends on them (already imposed).
fn claim(q: &mut Vec<[f64; 6]>, v: &[f64; 6]) -> bool {
    orthonormal_push(q, v).is_some()
}

/// Orthonormal basis of the orthogonal complement of the span of `rows` in $\mathbb R^6$:
/// Gram–Schmidt of the rows, then of the unit vectors projected out of them (unit vectors
/// already orthogonal to the rows are kept exactly, so axis-aligned conditions remove
/// DOFs without mixing the others).
fn complement_basis(rows: &[[f64; 6]]) -> Vec<[f64; 6]> {
    let mut q: Vec<[f64; 6]> = Vec::new();
    for r in rows {
        orthonormal_push(&mut q, r);
    }
    let mut out = Vec::new();
    for k in 0..6 {
        let mut e = [0.0; 6];
        e[k] = 1.0;
        if let Some(w) = orthonormal_push(&mut q, &e) {
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
    nk: usize,
    trace_masses: Vec<(String, SparseMat)>,
    functionals: Vec<(String, Vec<PortFunctional>)>,
}

impl KirchhoffBellModel {
    system_and_params_accessors!(
        /// The pH system (blocks `e_w`, `E_kappa`).
        KirchhoffParams
    );
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
    /// Mass matrix of the per-edge Legendre trace basis of the natural boundary port
    /// `port` (`{tag}_qn`, `{tag}_Mnn`).
    pub fn port_trace_mass(&self, port: &str) -> Result<&SparseMat, Fem2dError> {
        Ok(find_named(
            &self.trace_masses,
            port,
            "natural boundary port",
        )?)
    }

    /// The input functionals of the essential boundary port `port` (`{tag}_wt`,
    /// `{tag}_dnwt`), one per input component (module docs, "Essential ports").
    pub fn port_functionals(&self, port: &str) -> Result<&[PortFunctional], Fem2dError> {
        Ok(find_named(
            &self.functionals,
            port,
            "essential boundary port",
        )?)
    }

    /// Input vector of boundary port `port` for a field uniform along its edges: natural
    /// ports get `value` on every per-edge $P_0$ coefficient (a uniform $\tilde q_n$ or
    /// $M_{nn}$); essential ports get `value` on the [`BellFunctional::Value`] (`{tag}_wt`:
    /// uniform $w_t$) or the [`BellFunctional::Dn`]/[`BellFunctional::MidDn`] functionals
    /// (`{tag}_dnwt`: uniform $\partial_nw_t$), zero on the derivative functionals. At a
    /// corner of the tag, only the functionals independent of the other edge's are inputs
    /// (the data must be a $C^1$ trace there).
    pub fn uniform_port_input(&self, port: &str, value: f64) -> Result<Vec<f64>, Fem2dError> {
        if let Ok(m) = self.port_trace_mass(port) {
            let nt = TRACE_DEGREE + 1;
            return Ok((0..m.nrows())
                .map(|i| if i % nt == 0 { value } else { 0.0 })
                .collect());
        }
        Ok(self
            .port_functionals(port)?
            .iter()
            .map(|f| match f.kind {
                BellFunctional::Value | BellFunctional::Dn | BellFunctional::MidDn => value,
                _ => 0.0,
            })
            .collect())
    }

    fn check_state(&self, e: &[f64]) -> Result<(), Fem2dError> {
        require_len("Bell Kirchhoff state", self.n_states(), e.len())?;
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
        Ok(e[self.nr..self.nr + self.nk].to_vec())
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
        let mut e =
            crate::element::triangle::bell::solve_spd(&Mr, &b, "constrained Bell mass matrix")?;
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
        let MF = triangle::mass(&self.sk, 1.0)?;
        let bk = triangle::load(
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
        let q = crate::quadrature::triangle::TriangleQuadrature::exact_for_degree(16)?;
        let mesh = self.sw.mesh();
        for t in 0..mesh.n_cells() {
            let g = crate::mesh::triangle::CellGeometry::new(mesh, t);
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
            nw: self.nr,
            nk: self.nk,
        })
    }
}

/// Precomputed quadratic forms of the errors (see [`KirchhoffBellModel::error_forms`]): the
/// [`ErrorForms`](super::kirchhoff::ErrorForms) of the HHJ plate with the $H^2$ Gram matrix of
/// the Bell/Argyris velocity space.
pub type BellErrorForms = super::kirchhoff::ErrorForms;

/// The benchmarks of thesis 004 §7.4.3 for the BellDG3 scheme (tables B.19, B.23), reusing
/// the exact solutions of [`kirchhoff::benchmarks`](crate::models::plate::kirchhoff::benchmarks).
pub mod benchmarks {
    use super::*;
    use crate::models::plate::kirchhoff::benchmarks::{Benchmark, ThesisRow};

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
        bench.configure(b).build()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::triangle::Diagonal;

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

    /// Bad input gives typed errors naming the offending item: two conditions on the same
    /// edges, an unknown tag or port, wrong state lengths.
    #[test]
    fn errors_name_the_problem() {
        let mesh = Mesh2d::unit_square(2, Diagonal::Right).unwrap();
        let p = KirchhoffParams::isotropic(70e9, 0.3, 2700.0, 0.01).unwrap();
        let b = KirchhoffBell::new(p, &mesh, C1Family::Bell).unwrap();
        let m = b
            .clone()
            .port("left", EdgeCondition::Clamped)
            .build()
            .unwrap();
        assert!(m.port_functionals("left_Mnn").is_err());
        let e = m.uniform_port_input("nowhere", 1.0).unwrap_err();
        assert!(e.to_string().contains("nowhere"), "{e}");
        // left: 3 vertices × (w, ∂_y w, ∂_yy w) and (∂_n w, ∂_tn w)
        assert_eq!(m.port_functionals("left_wt").unwrap().len(), 9);
        assert_eq!(m.port_functionals("left_dnwt").unwrap().len(), 6);
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
