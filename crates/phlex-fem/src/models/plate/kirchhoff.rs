//! Kirchhoff–Love plate, Hellan–Herrmann–Johnson (HHJ) PFEM in velocity–moment variables
//! (thesis 004 §4.1.2, §4.2.2, §7.2.2, eqs. (4.36), (7.16)–(7.18); summary §2.6, §3.3 "HHJ").
//!
//! Energy variables $(\rho h\,\dot w,\ \kappa)$, co-energy variables $e_w = \dot w$ and
//! $\mathbf E_\kappa = \mathbf M = \mathcal D_b\kappa$;
//! $H = \frac12\int \rho h\,e_w^2 + \mathbf E_\kappa : \mathcal C_b\mathbf E_\kappa$,
//! $\mathcal C_b = \mathcal D_b^{-1}$ (isotropic or any anisotropic $\mathcal D_b$,
//! [`BendingStiffness`]). With $e_w \in CG_k$ and $\mathbf E_\kappa$ in the HHJ space of
//! degree $k-1$ ([`HhjSpace`], $k = 1, 2, 3$), thesis eq. (7.18) reads
//! $$\begin{aligned}
//! \langle v, \rho h\,\partial_t e_w\rangle &= d_h(v, \mathbf E_\kappa) +
//!   \langle v, \tilde q_n\rangle_{\Gamma_q} + \langle v, f\rangle,\\
//! \langle \mathbf V, \mathcal C_b\,\partial_t\mathbf E_\kappa\rangle &= -d_h(e_w, \mathbf V) +
//!   \langle V_{nn}, \partial_n w_t\rangle_{\Gamma_\omega},
//! \end{aligned}$$
//! so $E = \operatorname{diag}(M_{\rho h}, M_{\mathcal C_b})$,
//! $J = \begin{bmatrix}0 & -D^\top\\ D & 0\end{bmatrix}$ with $D^{mi} = -d_h(\phi^i, \Phi^m)$
//! ([`hhj_coupling`](crate::assembly::hessian::hhj_coupling)). For smooth
//! fields $d_h(v, \mathbf E) = \langle v, -\operatorname{div}\operatorname{Div}\mathbf E\rangle -
//! \langle v, \tilde q_n\rangle_{\partial\Omega}$ and $-d_h(w, \mathbf V) = \langle\mathbf V,
//! \operatorname{Hess} w\rangle - \langle V_{nn}, \partial_n w\rangle_{\partial\Omega}$, which
//! fixes the signs of the boundary terms above ($\tilde q_n = -\mathbf n\cdot\operatorname{Div}
//! \mathbf M - \partial_s M_{ns}$, outward $\mathbf n$) and gives
//! $\dot H = \int_{\partial\Omega} w_t\,\tilde q_n + \partial_n w_t\,M_{nn}$ (summary §2.6).
//!
//! # Boundary conditions and ports (summary §2.6 table, §3.4)
//! In the HHJ discretization $w_t$ (CG DOFs) and $M_{nn}$ (HHJ edge DOFs) are **essential**,
//! $\tilde q_n$ and $\partial_n w_t$ are **natural** (summary §6.2 "HHJ").
//!
//! | condition | homogeneous ([`KirchhoffHhj::clamped`] …) | port ([`KirchhoffHhj::port`]): inputs | [`KirchhoffHhj::rotation_port`] |
//! |---|---|---|---|
//! | clamped (C) | $w_t$ DOFs removed; $\partial_n w_t = 0$ natural | `{tag}_wt` (multiplier), `{tag}_dnwt` (natural) | $w_t$ removed, `{tag}_dnwt` |
//! | simply supported (S) | $w_t$ and $M_{nn}$ DOFs removed | `{tag}_wt` (multiplier), `{tag}_Mnn` (multiplier) | $w_t$ removed, `{tag}_Mnn` |
//! | free (F) | $M_{nn}$ DOFs removed; $\tilde q_n = 0$ natural | `{tag}_qn` (natural), `{tag}_Mnn` (multiplier) | `{tag}_Mnn` |
//!
//! Boundary edges without a condition are free. Natural inputs enter through
//! $B_q^{il} = \int_\Gamma\phi^i\psi^l$ and $B_\omega^{m,(e,j)} = \int_e\Phi^m_{nn}P_j$; an
//! essential input $u$ is imposed with a Lagrange multiplier $\lambda$ (the collocated
//! output, thesis §6.2.1): $E\dot e = Je + G^\top\lambda$, $0 = -Ge + M_\Gamma u$,
//! $y = M_\Gamma\lambda$, an index-2 pHDAE whose multiplier blocks are named
//! `lambda_{tag}_wt` (= $\tilde q_n$) and `lambda_{tag}_Mnn` (= $\partial_n w_t$). Trace bases:
//! $w_t$ and $\tilde q_n$ in the $CG_k$ trace basis $\psi^l$ of the tag's edges;
//! $M_{nn}$ and $\partial_n w_t$ as $\sum_j c_{e,j}P_j(2s-1)$ per edge (Legendre, arc
//! parameter $s$ from the lower global vertex; the HHJ edge moments). Every port satisfies
//! $y^\top u = \int_\Gamma$ (input)·(conjugate output), so $\dot H = y^\top u$ exactly. The
//! essential $w_t$ multipliers exclude trace DOFs removed by a homogeneous condition or
//! already constrained by an earlier port (corners shared by two tags), so the constraints
//! stay independent.
//!
//! Distributed loads ([`KirchhoffHhj::load`]) are ports with input $a(t)$ for the load density
//! $a(t)f(x, y)$: $B$ column $\langle\phi_w, f\rangle$.
//!
//! Corner forces $[\![M_{ns}]\!]$ of polygonal plates are ignored, as in the thesis
//! (summary §6.2 "Kirchhoff corners"); they vanish for the homogeneous conditions above.
use std::sync::Arc;

use crate::assembly::hessian;
use crate::assembly::triangle::{self, Op, Term};
use crate::element::triangle::hhj::{self, HhjSpace};
use crate::error::{find_named, require_degree, require_positive, FemError};
use crate::error::{require_len, Fem2dError};
use crate::mesh::triangle::CellGeometry;
use crate::mesh::triangle::{BoundaryEdge, Diagonal, Mesh2d, TagPartition};
use crate::models::model::{lossless_system, BlockAssembler, NamedProfile};
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::triangle::TriangleQuadrature;
use crate::space::triangle::{complement, Family2d, Shape, Space2d};
use faer::linalg::solvers::Solve;
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, VarBlock};

/// Bending stiffness $\mathcal D_b$ of a (possibly anisotropic) plate in Voigt form:
/// $(M_{xx}, M_{yy}, M_{xy}) = D\,(\kappa_{xx}, \kappa_{yy}, 2\kappa_{xy})$ with $D$ symmetric
/// positive definite \[N m\] (summary §2.5, §2.7 $\mathcal D_b$).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BendingStiffness {
    voigt: [[f64; 3]; 3],
}

impl BendingStiffness {
    /// Isotropic plate: $D_b = Eh^3/(12(1-\nu^2))$,
    /// $D = D_b\begin{bmatrix}1&\nu&0\\\nu&1&0\\0&0&(1-\nu)/2\end{bmatrix}$.
    pub fn isotropic(E: f64, nu: f64, h: f64) -> Result<Self, FemError> {
        require_positive("E", E)?;
        require_positive("h", h)?;
        if !(nu > -1.0 && nu < 0.5) {
            return Err(FemError::InvalidParameter {
                name: "nu".into(),
                value: nu,
                requirement: "-1 < nu < 0.5".into(),
            });
        }
        let d = E * h.powi(3) / (12.0 * (1.0 - nu * nu));
        Self::from_voigt([
            [d, nu * d, 0.0],
            [nu * d, d, 0.0],
            [0.0, 0.0, 0.5 * d * (1.0 - nu)],
        ])
    }

    /// $\mathcal D_b = \mathrm{Id}$ ($\mathbf M = \kappa$), the CSFS test of thesis §7.4.3.2:
    /// $D = \operatorname{diag}(1, 1, \tfrac12)$.
    pub fn identity() -> Self {
        Self {
            voigt: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.5]],
        }
    }

    /// Orthotropic plate with principal axes $x, y$: $D_{11}, D_{12}, D_{22}, D_{66}$.
    pub fn orthotropic(d11: f64, d12: f64, d22: f64, d66: f64) -> Result<Self, FemError> {
        Self::from_voigt([[d11, d12, 0.0], [d12, d22, 0.0], [0.0, 0.0, d66]])
    }

    /// General anisotropic stiffness from its Voigt matrix (rows/columns $xx, yy, xy$ with
    /// engineering shear $2\kappa_{xy}$); must be finite, symmetric and positive definite.
    pub fn from_voigt(D: [[f64; 3]; 3]) -> Result<Self, FemError> {
        let scale = D.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
        for (i, row) in D.iter().enumerate() {
            for (j, &v) in row.iter().enumerate() {
                if !v.is_finite() || (v - D[j][i]).abs() > 1e-12 * scale {
                    return Err(FemError::InvalidParameter {
                        name: format!("bending stiffness D[{i}][{j}]"),
                        value: v,
                        requirement: "finite and D[i][j] = D[j][i] (symmetric Voigt matrix)".into(),
                    });
                }
            }
        }
        // Sylvester: leading principal minors positive
        let m1 = D[0][0];
        let m2 = D[0][0] * D[1][1] - D[0][1] * D[1][0];
        let m3 = det3(&D);
        for (k, m) in [m1, m2, m3].into_iter().enumerate() {
            if m.is_nan() || m <= 1e-14 * scale.powi(k as i32 + 1) {
                return Err(FemError::InvalidParameter {
                    name: format!("leading {}x{} minor of the bending stiffness", k + 1, k + 1),
                    value: m,
                    requirement: "> 0 (D must be positive definite)".into(),
                });
            }
        }
        Ok(Self { voigt: D })
    }

    /// The Voigt matrix $D$.
    pub fn voigt(&self) -> [[f64; 3]; 3] {
        self.voigt
    }

    /// Moments $\mathbf M = \mathcal D_b\kappa$, both stored as $(xx, xy, yy)$.
    pub fn moments(&self, kappa: [f64; 3]) -> [f64; 3] {
        let k = [kappa[0], kappa[2], 2.0 * kappa[1]];
        let m: Vec<f64> = self
            .voigt
            .iter()
            .map(|r| r[0] * k[0] + r[1] * k[1] + r[2] * k[2])
            .collect();
        [m[0], m[2], m[1]]
    }

    /// Pointwise matrix $Q$ of $\mathbf V : \mathcal C_b\mathbf M = \sum_{ab}Q_{ab}V_aM_b$ on the
    /// stored components $(xx, xy, yy)$, row-major: $Q_{ab} = (D^{-1})_{v(a)v(b)}$ with
    /// $v = (xx \to 0, xy \to 2, yy \to 1)$ (the engineering shear supplies the factor 2 of
    /// the off-diagonal). Isotropic: $\frac{12}{Eh^3}\begin{bmatrix}1&0&-\nu\\0&2(1+\nu)&0\\
    /// -\nu&0&1\end{bmatrix}$, as in the Mindlin model.
    pub fn compliance(&self) -> [f64; 9] {
        let D = &self.voigt;
        let det = det3(D);
        let cof = |i: usize, j: usize| {
            let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
            let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
            D[r0][c0] * D[r1][c1] - D[r0][c1] * D[r1][c0]
        };
        // inverse = adjugate / det, adj[j][i] = cof(i, j); D symmetric
        let inv = |i: usize, j: usize| cof(j, i) / det;
        let v = [0usize, 2, 1];
        let mut Q = [0.0; 9];
        for a in 0..3 {
            for b in 0..3 {
                Q[3 * a + b] = inv(v[a], v[b]);
            }
        }
        Q
    }
}

fn det3(D: &[[f64; 3]; 3]) -> f64 {
    D[0][0] * (D[1][1] * D[2][2] - D[1][2] * D[2][1])
        - D[0][1] * (D[1][0] * D[2][2] - D[1][2] * D[2][0])
        + D[0][2] * (D[1][0] * D[2][1] - D[1][1] * D[2][0])
}

/// Material and geometric data of a Kirchhoff plate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KirchhoffParams {
    /// Density $\rho$ \[kg/m³\].
    pub rho: f64,
    /// Thickness $h$ \[m\].
    pub h: f64,
    /// Bending stiffness $\mathcal D_b$.
    pub stiffness: BendingStiffness,
}

impl KirchhoffParams {
    /// Isotropic plate of Young's modulus `E` \[Pa\], Poisson ratio `nu`, density `rho`
    /// \[kg/m³\] and thickness `h` \[m\].
    pub fn isotropic(E: f64, nu: f64, rho: f64, h: f64) -> Result<Self, FemError> {
        let p = Self {
            rho,
            h,
            stiffness: BendingStiffness::isotropic(E, nu, h)?,
        };
        p.validate()?;
        Ok(p)
    }
    /// Checks $\rho > 0$, $h > 0$.
    pub fn validate(&self) -> Result<(), FemError> {
        require_positive("rho", self.rho)?;
        require_positive("h", self.h)
    }
    /// Surface density $\rho h$ \[kg/m²\].
    pub fn surface_density(&self) -> f64 {
        self.rho * self.h
    }
}

/// Boundary condition type of an edge (summary §2.6 table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeCondition {
    /// Clamped: $w_t = \partial_n w_t = 0$ (or, as a port, both are inputs).
    Clamped,
    /// Simply supported: $w_t = M_{nn} = 0$ (or, as a port, both are inputs).
    SimplySupported,
    /// Free: $\tilde q_n = M_{nn} = 0$ (or, as a port, both are inputs).
    Free,
}

/// The two co-energy fields of the Kirchhoff plate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KirchhoffField {
    /// Vertical velocity $e_w = \dot w$ (block `e_w`, $CG_k$).
    Velocity,
    /// Bending moments $\mathbf E_\kappa = \mathbf M$ (block `E_kappa`, HHJ$_{k-1}$).
    Moments,
}

impl KirchhoffField {
    /// Block name.
    pub fn block_name(&self) -> &'static str {
        match self {
            KirchhoffField::Velocity => "e_w",
            KirchhoffField::Moments => "E_kappa",
        }
    }
}

/// How an edge condition is imposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Homogeneous condition.
    Homogeneous,
    /// Both inputs of the condition are ports.
    Port,
    /// Only the rotational input ($\partial_n w_t$ or $M_{nn}$) is a port; the translational
    /// one is homogeneous.
    RotationPort,
}

/// A spatial load profile $f(x, y)$.
pub type PlateProfile = Arc<dyn Fn([f64; 2]) -> f64 + Send + Sync>;

/// Builder of a Kirchhoff plate with the velocity × moment discretization `D` ([`Hhj`]:
/// [`KirchhoffHhj`], or [`Bell`](super::kirchhoff_bell::Bell):
/// [`KirchhoffBell`](super::KirchhoffBell)): parameters, mesh, one condition per tagged
/// boundary edge (edges without one are free) and distributed loads.
#[derive(Debug, Clone)]
pub struct Kirchhoff<D> {
    pub(crate) params: KirchhoffParams,
    pub(crate) mesh: Mesh2d,
    pub(crate) discretization: D,
    pub(crate) conditions: Vec<(String, EdgeCondition, Role)>,
    pub(crate) loads: Vec<NamedProfile<PlateProfile>>,
}

impl<D> Kirchhoff<D> {
    /// Plate `params` on `mesh` with `discretization`, all edges free, no loads.
    pub(crate) fn with_discretization(
        params: KirchhoffParams,
        mesh: &Mesh2d,
        discretization: D,
    ) -> Result<Self, Fem2dError> {
        params.validate()?;
        Ok(Self {
            params,
            mesh: mesh.clone(),
            discretization,
            conditions: Vec::new(),
            loads: Vec::new(),
        })
    }
    /// Homogeneous clamped edges (tag `tag`): $w_t = \partial_n w_t = 0$ (HHJ: $w_t$ strong,
    /// $\partial_n w_t$ natural; Bell: both essential).
    pub fn clamped(mut self, tag: &str) -> Self {
        self.conditions
            .push((tag.into(), EdgeCondition::Clamped, Role::Homogeneous));
        self
    }
    /// Homogeneous simply supported edges: $w_t = 0$ and $M_{nn} = 0$ (HHJ: both strong;
    /// Bell: $w_t$ essential, $M_{nn}$ natural).
    pub fn simply_supported(mut self, tag: &str) -> Self {
        self.conditions.push((
            tag.into(),
            EdgeCondition::SimplySupported,
            Role::Homogeneous,
        ));
        self
    }
    /// Homogeneous free edges: $M_{nn} = \tilde q_n = 0$ (HHJ: $M_{nn}$ strong, $\tilde q_n$
    /// natural; Bell: both natural); the default of edges without a condition.
    pub fn free(mut self, tag: &str) -> Self {
        self.conditions
            .push((tag.into(), EdgeCondition::Free, Role::Homogeneous));
        self
    }
    /// Makes the edges tagged `tag` a boundary port with the inputs of `condition` in the
    /// thesis causality (module docs table): clamped → `{tag}_wt`, `{tag}_dnwt`; simply
    /// supported → `{tag}_wt`, `{tag}_Mnn`; free → `{tag}_qn`, `{tag}_Mnn` (for Bell the
    /// velocity inputs are imposed by multipliers). Zero inputs give the homogeneous
    /// condition.
    pub fn port(mut self, tag: &str, condition: EdgeCondition) -> Self {
        self.conditions.push((tag.into(), condition, Role::Port));
        self
    }
    /// Makes only the rotational input of `condition` a port on the edges tagged `tag`, the
    /// translational one being homogeneous: clamped → $w_t = 0$ strong, port `{tag}_dnwt`
    /// ($\partial_n w_t$ in, weighted $M_{nn}$ out); simply supported → $w_t = 0$ strong,
    /// port `{tag}_Mnn` (moment actuation of a supported edge); free → $\tilde q_n = 0$,
    /// port `{tag}_Mnn`. Cheaper than [`Self::port`] with a zero velocity input (no velocity
    /// multipliers).
    pub fn rotation_port(mut self, tag: &str, condition: EdgeCondition) -> Self {
        self.conditions
            .push((tag.into(), condition, Role::RotationPort));
        self
    }
    /// A distributed load port `name`: input $a(t)$, load density $a(t)f(x, y)$
    /// \[N/m² per unit of $f$\], output $\int f\,e_w$.
    pub fn load(mut self, name: &str, profile: PlateProfile) -> Self {
        self.loads.push(NamedProfile::new(name, profile));
        self
    }
    /// Boundary edges of every condition (disjoint tags, module docs).
    pub(crate) fn partition(&self) -> Result<TagPartition, Fem2dError> {
        let tags: Vec<&str> = self.conditions.iter().map(|c| c.0.as_str()).collect();
        self.mesh.partition_tags(&tags)
    }
}

/// The HHJ discretization of [`Kirchhoff`]: $CG_k$ velocity, HHJ$_{k-1}$ moments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hhj {
    degree: usize,
}

/// Builder of the HHJ Kirchhoff plate model.
pub type KirchhoffHhj = Kirchhoff<Hhj>;

impl KirchhoffHhj {
    /// HHJ of degree `degree` = $k$ ($CG_k$ velocity, HHJ$_{k-1}$ moments), `1 <= k <= 3`; all
    /// boundary edges free until conditions are given.
    pub fn new(params: KirchhoffParams, mesh: &Mesh2d, degree: usize) -> Result<Self, Fem2dError> {
        let plate = Self::with_discretization(params, mesh, Hhj { degree })?;
        require_degree("HHJ Kirchhoff degree k", degree, 1..=3)?;
        Ok(plate)
    }

    /// Assembles the model.
    pub fn build(&self) -> Result<KirchhoffModel, Fem2dError> {
        let p = &self.params;
        let k = self.discretization.degree;
        let mesh = &self.mesh;
        let sw = Space2d::new(mesh, Family2d::Cg(k), Shape::Scalar)?;
        let sk = HhjSpace::new(mesh, k - 1)?;
        let (nw, nk) = (sw.n_dofs(), sk.n_dofs());
        let n_open = nw + nk;

        // one condition per boundary edge
        let TagPartition {
            owner,
            edges: edges_of,
        } = self.partition()?;

        // strongly removed DOFs (open numbering: w, then κ at offset nw)
        let mut removed = Vec::new();
        for (i, b) in mesh.boundary_edges().iter().enumerate() {
            let (cond, role) = match owner[i] {
                Some(ci) => (self.conditions[ci].1, self.conditions[ci].2),
                None => (EdgeCondition::Free, Role::Homogeneous),
            };
            let translational = matches!(
                cond,
                EdgeCondition::Clamped | EdgeCondition::SimplySupported
            );
            if translational && role != Role::Port {
                removed.extend(cg_edge_dofs(&sw, b));
            }
            if matches!(cond, EdgeCondition::SimplySupported | EdgeCondition::Free)
                && role == Role::Homogeneous
            {
                removed.extend(sk.edge_dofs(b.edge).map(|d| d + nw));
            }
        }
        removed.sort_unstable();
        removed.dedup();
        let kept = complement(n_open, &removed);
        let mut pos = vec![usize::MAX; n_open];
        for (s, &i) in kept.iter().enumerate() {
            pos[i] = s;
        }
        let n_kept = kept.len();

        // E and J of the open system
        let mut ba = BlockAssembler::new(&[nw, nk]);
        ba.mass(0, &triangle::mass(&sw, p.surface_density())?);
        ba.mass(1, &hhj::mass(&sk, &p.stiffness.compliance())?);
        ba.skew(1, 0, &hessian::hhj_coupling(&sk, &sw)?, 1.0);
        let E_open = ba.E.build();
        let J_open = ba.J.build();

        // ports
        let mut ports: Vec<Port> = Vec::new();
        let mut natural: Vec<(usize, SparseMat)> = Vec::new(); // (port index, B_open)
        let mut essential: Vec<Essential> = Vec::new();
        let mut trace_masses: Vec<(String, SparseMat)> = Vec::new();
        let mut claimed = vec![false; nw];
        for &r in &removed {
            if r < nw {
                claimed[r] = true;
            }
        }
        let ne = sk.dofs_per_edge();
        for (ci, (tag, cond, role)) in self.conditions.iter().enumerate() {
            if *role == Role::Homogeneous {
                continue;
            }
            let full = *role == Role::Port;
            let edges = &edges_of[ci];
            let (tdofs, Bq) = cg_trace(&sw, edges)?;
            let Tn = sk.nn_trace_matrix(edges);
            let nn_mass = nn_trace_mass(mesh, edges, ne);
            let wt_essential = |claimed: &mut Vec<bool>| -> Result<Essential, Fem2dError> {
                let cols: Vec<usize> = tdofs
                    .iter()
                    .enumerate()
                    .filter(|(_, &d)| !claimed[d])
                    .map(|(l, _)| l)
                    .collect();
                for &l in &cols {
                    claimed[tdofs[l]] = true;
                }
                if cols.is_empty() {
                    return Err(FemError::InvalidParameter {
                        name: format!("velocity port on '{tag}'"),
                        value: 0.0,
                        requirement: "at least one velocity DOF not already fixed by another condition or port".into(),
                    }
                    .into());
                }
                let G = sparse::select_cols(&Bq, &cols);
                let dofs: Vec<usize> = cols.iter().map(|&l| tdofs[l]).collect();
                let M = sparse::restrict(&G, &dofs, &(0..cols.len()).collect::<Vec<_>>());
                Ok(Essential {
                    G_open: G,
                    M,
                    block: VarBlock::algebraic(
                        format!("lambda_{tag}_wt"),
                        format!("effective shear q_n on '{tag}' (CG{k} trace coefficients) [N/m]"),
                        cols.len(),
                        2,
                    ),
                    port: 0,
                })
            };
            let mnn_essential = || {
                Essential {
                G_open: shift_rows(&Tn, nw, n_open),
                M: nn_mass.clone(),
                block: VarBlock::algebraic(
                    format!("lambda_{tag}_Mnn"),
                    format!(
                        "normal rotation rate d_n w_t on '{tag}' (Legendre P_0..P_{} per edge) [rad/s]",
                        k - 1
                    ),
                    Tn.ncols(),
                    2,
                ),
                port: 0,
            }
            };
            let wt_port = |dim: usize| {
                Port::new(
                    format!("{tag}_wt"),
                    dim,
                    format!("vertical velocity w_t on '{tag}' [m/s] (CG{k} trace coefficients)"),
                    "weighted trace of the effective shear, int q_n psi ds [N]",
                )
            };
            let mnn_port = |dim: usize| {
                Port::new(
                    format!("{tag}_Mnn"),
                    dim,
                    format!(
                        "normal bending moment M_nn on '{tag}' [N m/m] (Legendre P_0..P_{} per edge)",
                        k - 1
                    ),
                    "edge moments of the normal rotation rate, int d_n w_t P_j ds [m/s]",
                )
            };
            // a full port on a clamped or simply supported edge: the w_t multiplier port
            // first
            if full
                && matches!(
                    cond,
                    EdgeCondition::Clamped | EdgeCondition::SimplySupported
                )
            {
                let mut ess = wt_essential(&mut claimed)?;
                ess.port = ports.len();
                ports.push(wt_port(ess.M.ncols()));
                trace_masses.push((format!("{tag}_wt"), ess.M.clone()));
                essential.push(ess);
            }
            match cond {
                EdgeCondition::Clamped => {
                    trace_masses.push((format!("{tag}_dnwt"), nn_mass.clone()));
                    natural.push((ports.len(), shift_rows(&Tn, nw, n_open)));
                    ports.push(Port::new(
                        format!("{tag}_dnwt"),
                        Tn.ncols(),
                        format!(
                            "normal rotation rate d_n w_t on '{tag}' [rad/s] (Legendre P_0..P_{} per edge)",
                            k - 1
                        ),
                        "edge moments of the normal bending moment, int M_nn P_j ds [N m]",
                    ));
                }
                EdgeCondition::SimplySupported => {
                    let mut ess = mnn_essential();
                    ess.port = ports.len();
                    ports.push(mnn_port(ess.M.ncols()));
                    trace_masses.push((format!("{tag}_Mnn"), ess.M.clone()));
                    essential.push(ess);
                }
                EdgeCondition::Free => {
                    if full {
                        let all: Vec<usize> = (0..tdofs.len()).collect();
                        trace_masses
                            .push((format!("{tag}_qn"), sparse::restrict(&Bq, &tdofs, &all)));
                        natural.push((ports.len(), shift_rows(&Bq, 0, n_open)));
                        ports.push(Port::new(
                            format!("{tag}_qn"),
                            tdofs.len(),
                            format!(
                                "effective shear force q_n on '{tag}' [N/m] (CG{k} trace coefficients)"
                            ),
                            "weighted trace of the vertical velocity, int w_t psi ds [m²/s]",
                        ));
                    }
                    let mut ess = mnn_essential();
                    ess.port = ports.len();
                    ports.push(mnn_port(ess.M.ncols()));
                    trace_masses.push((format!("{tag}_Mnn"), ess.M.clone()));
                    essential.push(ess);
                }
            }
        }
        for NamedProfile { name, profile } in &self.loads {
            let f = profile.clone();
            let c = triangle::load(&sw, &move |x, o| o[0] = f(x), k + 6)?;
            let mut t = Triplets::new(n_open, 1);
            for (i, v) in c.iter().enumerate() {
                if *v != 0.0 {
                    t.push(i, 0, *v);
                }
            }
            natural.push((ports.len(), t.build()));
            ports.push(Port::new(
                name.clone(),
                1,
                "amplitude a(t) of the distributed load a(t) f(x, y) [N/m² per unit f]",
                "integral of f times the vertical velocity over the plate [m³/s per unit f]",
            ));
        }

        // assemble the descriptor system
        let n_mult: usize = essential.iter().map(|e| e.block.len).sum();
        let n = n_kept + n_mult;
        let port_dims: Vec<usize> = ports.iter().map(|p| p.dim).collect();
        let mut port_off = vec![0usize; ports.len() + 1];
        for (i, d) in port_dims.iter().enumerate() {
            port_off[i + 1] = port_off[i] + d;
        }
        let m_in = port_off[ports.len()];
        let mut Et = Triplets::new(n, n);
        Et.push_block(0, 0, &sparse::restrict(&E_open, &kept, &kept), 1.0);
        let mut Jt = Triplets::new(n, n);
        Jt.push_block(0, 0, &sparse::restrict(&J_open, &kept, &kept), 1.0);
        let mut Bt = Triplets::new(n, m_in);
        for (pi, Bo) in &natural {
            push_rows_mapped(&mut Bt, Bo, &pos, port_off[*pi], 1.0);
        }
        let mut off = n_kept;
        let mut blocks = vec![
            VarBlock::differential(
                "e_w",
                "vertical velocity [m/s]",
                kept.iter().filter(|&&i| i < nw).count(),
            ),
            VarBlock::differential(
                "E_kappa",
                "bending moments (HHJ DOFs: edge M_nn moments, interior moments) [N m/m]",
                kept.iter().filter(|&&i| i >= nw).count(),
            ),
        ];
        for ess in &essential {
            // J[d, λ] = G, J[λ, d] = −Gᵀ; B[λ, port] = M_Γ
            let G = &ess.G_open;
            for j in 0..G.ncols() {
                for (i, v) in sparse::col_iter(G, j) {
                    if pos[i] != usize::MAX {
                        Jt.push(pos[i], off + j, v);
                        Jt.push(off + j, pos[i], -v);
                    }
                }
            }
            Bt.push_block(off, port_off[ess.port], &ess.M, 1.0);
            off += ess.block.len;
            blocks.push(ess.block.clone());
        }
        let system = lossless_system(Et.build(), Jt.build(), Bt.build(), ports, blocks)?;
        Ok(KirchhoffModel {
            params: *p,
            degree: k,
            system,
            sw,
            sk,
            kept,
            n_open: [nw, nk],
            trace_masses,
        })
    }
}

/// An essential boundary input imposed by a Lagrange multiplier block.
struct Essential {
    /// Constraint matrix $G^\top$ in the open numbering (rows) × multipliers.
    G_open: SparseMat,
    /// Trace mass $M_\Gamma$ (multipliers × port inputs).
    M: SparseMat,
    block: VarBlock,
    port: usize,
}

/// Pushes `A` (rows in the open numbering) into `t` with rows mapped by `pos` (rows with
/// `pos = MAX` are removed DOFs and dropped), columns offset by `c0`.
fn push_rows_mapped(t: &mut Triplets, A: &SparseMat, pos: &[usize], c0: usize, s: f64) {
    for j in 0..A.ncols() {
        for (i, v) in sparse::col_iter(A, j) {
            if pos[i] != usize::MAX {
                t.push(pos[i], c0 + j, s * v);
            }
        }
    }
}

/// `A` with its rows shifted by `r0` inside a matrix of `n` rows.
fn shift_rows(A: &SparseMat, r0: usize, n: usize) -> SparseMat {
    let mut t = Triplets::new(n, A.ncols());
    t.push_block(r0, 0, A, 1.0);
    t.build()
}

/// The $CG_k$ DOFs whose basis functions do not vanish on boundary edge `b` (its two
/// vertices and its edge nodes).
fn cg_edge_dofs(sw: &Space2d, b: &BoundaryEdge) -> Vec<usize> {
    let ne = sw.element().nodes_per_edge();
    let d = sw.cell_dofs(b.cell);
    let mut out = vec![d[(b.local + 1) % 3], d[(b.local + 2) % 3]];
    out.extend_from_slice(&d[3 + b.local * ne..3 + (b.local + 1) * ne]);
    out
}

/// Trace DOFs of `edges` (sorted) and $B^{il} = \int_\Gamma \phi^i\psi^l$ (rows = all CG DOFs,
/// columns = trace DOFs), Gauss rule exact for the degree-$2k$ integrands.
fn cg_trace(sw: &Space2d, edges: &[BoundaryEdge]) -> Result<(Vec<usize>, SparseMat), Fem2dError> {
    let mut dofs: Vec<usize> = edges.iter().flat_map(|b| cg_edge_dofs(sw, b)).collect();
    dofs.sort_unstable();
    dofs.dedup();
    let col = |d: usize| dofs.binary_search(&d).unwrap_or(0);
    let el = sw.element();
    let nl = el.n_local();
    let gl = GaussLegendre::new(sw.family().degree() + 1)?;
    let (mut v, mut dx, mut dy) = (vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
    let refv = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
    let mesh = sw.mesh();
    let mut t = Triplets::new(sw.n_dofs(), dofs.len());
    for b in edges {
        let (la, lb) = ((b.local + 1) % 3, (b.local + 2) % 3);
        let len = mesh.edge_length(b.edge);
        let d = sw.cell_dofs(b.cell);
        let on_edge = cg_edge_dofs(sw, b);
        for (&tq, &w) in gl.points.iter().zip(&gl.weights) {
            let xh = [
                refv[la][0] + tq * (refv[lb][0] - refv[la][0]),
                refv[la][1] + tq * (refv[lb][1] - refv[la][1]),
            ];
            el.eval(xh, &mut v, &mut dx, &mut dy);
            for (i, &di) in d.iter().enumerate() {
                if !on_edge.contains(&di) {
                    continue;
                }
                for (j, &dj) in d.iter().enumerate() {
                    if on_edge.contains(&dj) {
                        t.push(di, col(dj), w * len * v[i] * v[j]);
                    }
                }
            }
        }
    }
    Ok((dofs, t.build()))
}

/// Mass of the per-edge Legendre trace basis: $\int_e P_iP_j\,ds = |e|\delta_{ij}/(2j+1)$.
fn nn_trace_mass(mesh: &Mesh2d, edges: &[BoundaryEdge], ne: usize) -> SparseMat {
    let mut t = Triplets::new(edges.len() * ne, edges.len() * ne);
    for (b, e) in edges.iter().enumerate() {
        let l = mesh.edge_length(e.edge);
        for j in 0..ne {
            t.push(b * ne + j, b * ne + j, l / (2 * j + 1) as f64);
        }
    }
    t.build()
}

/// An assembled HHJ Kirchhoff plate.
#[derive(Debug, Clone)]
pub struct KirchhoffModel {
    params: KirchhoffParams,
    degree: usize,
    system: LinearPhSystem,
    sw: Space2d,
    sk: HhjSpace,
    /// Open-numbering index of every retained differential state.
    kept: Vec<usize>,
    /// Open sizes of the velocity and moment spaces.
    n_open: [usize; 2],
    /// Mass matrix of the trace basis of every boundary port.
    trace_masses: Vec<(String, SparseMat)>,
}

impl KirchhoffModel {
    system_and_params_accessors!(
        /// The pH system (blocks `e_w`, `E_kappa`, then one algebraic block per multiplier).
        KirchhoffParams
    );
    /// Degree $k$.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// The $CG_k$ velocity space.
    pub fn velocity_space(&self) -> &Space2d {
        &self.sw
    }
    /// The HHJ$_{k-1}$ moment space.
    pub fn moment_space(&self) -> &HhjSpace {
        &self.sk
    }
    /// Number of state variables (multipliers included).
    pub fn n_states(&self) -> usize {
        self.system.n_states()
    }
    /// Number of retained differential variables (`e_w` and `E_kappa`).
    pub fn n_differential(&self) -> usize {
        self.kept.len()
    }

    fn check_state(&self, e: &[f64]) -> Result<(), Fem2dError> {
        require_len("Kirchhoff state", self.n_states(), e.len())?;
        Ok(())
    }

    /// Coefficients of field `f` in its full space (DOFs removed by strong conditions are
    /// zero) from a state vector.
    pub fn field_coefficients(&self, e: &[f64], f: KirchhoffField) -> Result<Vec<f64>, Fem2dError> {
        self.check_state(e)?;
        let [nw, nk] = self.n_open;
        let (r, len) = match f {
            KirchhoffField::Velocity => (0..nw, nw),
            KirchhoffField::Moments => (nw..nw + nk, nk),
        };
        let mut u = vec![0.0; len];
        for (s, &i) in self.kept.iter().enumerate() {
            if r.contains(&i) {
                u[i - r.start] = e[s];
            }
        }
        Ok(u)
    }

    /// State vector from full coefficient vectors of the velocity and moment fields
    /// (removed DOFs dropped, multipliers zero).
    pub fn state_from_fields(&self, w: &[f64], kappa: &[f64]) -> Result<Vec<f64>, Fem2dError> {
        let [nw, nk] = self.n_open;
        for (what, v, n) in [
            ("e_w coefficients", w, nw),
            ("E_kappa coefficients", kappa, nk),
        ] {
            require_len(what, n, v.len())?;
        }
        let mut e = vec![0.0; self.n_states()];
        for (s, &i) in self.kept.iter().enumerate() {
            e[s] = if i < nw { w[i] } else { kappa[i - nw] };
        }
        Ok(e)
    }

    /// State from functions: nodal $CG_k$ interpolant of the velocity `w` and canonical HHJ
    /// interpolant of the moments `m` (components $(xx, xy, yy)$; `None` = 0).
    pub fn interpolate_state(
        &self,
        w: &dyn Fn([f64; 2]) -> f64,
        m: Option<&dyn Fn([f64; 2]) -> [f64; 3]>,
    ) -> Result<Vec<f64>, Fem2dError> {
        let wc = self.sw.interpolate(&|x, o| o[0] = w(x));
        let kc = match m {
            Some(f) => self.sk.interpolate(f)?,
            None => vec![0.0; self.sk.n_dofs()],
        };
        self.state_from_fields(&wc, &kc)
    }

    /// Value and gradient of the velocity field and value of the moment field at `x`.
    pub fn evaluate(
        &self,
        e: &[f64],
        x: [f64; 2],
    ) -> Result<(f64, [f64; 2], [f64; 3]), Fem2dError> {
        let w = self.field_coefficients(e, KirchhoffField::Velocity)?;
        let m = self.field_coefficients(e, KirchhoffField::Moments)?;
        let (v, g) = self.sw.evaluate(&w, x)?;
        Ok((v[0], g[0], self.sk.evaluate(&m, x)?))
    }

    /// Mass matrix $M_\Gamma^{lm} = \int_\Gamma\psi^l\psi^m$ of the trace basis of the
    /// boundary port `port` (the basis of its input and of the function its output is the
    /// weighted trace of): $CG_k$ traces for `_wt`/`_qn`, per-edge Legendre polynomials for
    /// `_Mnn`/`_dnwt` (diagonal, $|e|/(2j+1)$).
    pub fn port_trace_mass(&self, port: &str) -> Result<&SparseMat, Fem2dError> {
        self.system.ports.range(port)?;
        Ok(find_named(&self.trace_masses, port, "boundary port")?)
    }

    /// Output-feedback gain $K = k\,M_\Gamma^{-1}$ of boundary damping injection on `port`
    /// (thesis 004 §8.1.1, Table 8.1): with $u = -Ky$ and $y = M_\Gamma c$ the weighted
    /// trace of the conjugate variable (coefficients $c$), the input function is $-k$ times
    /// the conjugate trace, i.e. $\tilde q_n = -k_q w_t$ on a `_qn` port and
    /// $M_{nn} = -k_m\partial_n w_t$ on an `_Mnn` port, and the closed loop
    /// (`system().with_output_feedback(port, &K)`) has $R = BKB^\top \succeq 0$,
    /// $\dot H = -e^\top Re \le 0$ (the thesis's $R_w = k_qB_wM_\Gamma^{-1}B_w^\top + \dots$).
    /// `k >= 0` \[N s/m² for `_qn`, N m s for `_Mnn`\]. $K$ is dense (the inverse of a
    /// boundary mass matrix).
    pub fn boundary_damping_gain(&self, port: &str, k: f64) -> Result<SparseMat, Fem2dError> {
        if !(k.is_finite() && k >= 0.0) {
            return Err(FemError::InvalidParameter {
                name: format!("damping gain on '{port}'"),
                value: k,
                requirement: "0 <= k < inf".into(),
            }
            .into());
        }
        let M = sparse::to_dense(self.port_trace_mass(port)?);
        let n = M.nrows();
        let inv = M.partial_piv_lu().solve(faer::Mat::<f64>::identity(n, n));
        let K = faer::Mat::from_fn(n, n, |i, j| 0.5 * k * (inv[(i, j)] + inv[(j, i)]));
        Ok(sparse::from_dense(&K, 0.0))
    }

    /// Error functionals for a separable exact solution $e_w = a(t)\,v(x)$,
    /// $\mathbf E_\kappa = b(t)\,\mathbf M(x)$ (`velocity` returns $v$ and $\nabla v$, `moments`
    /// returns $\mathbf M$ as $(xx, xy, yy)$): precomputes the $H^1$ Gram matrix of $CG_k$,
    /// the Frobenius mass of HHJ and the moments of $v$, $\mathbf M$ (cell rule of degree
    /// $2k + 8$), so that [`ErrorForms::errors`] costs two sparse products per call. The
    /// errors are those of the thesis: $\|e_w - e_w^h\|_{H^1}$ (full norm) and
    /// $\|\mathbf E_\kappa - \mathbf E_\kappa^h\|_{L^2}$ (Frobenius).
    pub fn error_forms(
        &self,
        velocity: &dyn Fn([f64; 2]) -> (f64, [f64; 2]),
        moments: &dyn Fn([f64; 2]) -> [f64; 3],
    ) -> Result<ErrorForms, Fem2dError> {
        let [nw, _] = self.n_open;
        let k = self.degree;
        let kept_w: Vec<usize> = self.kept.iter().copied().filter(|&i| i < nw).collect();
        let kept_k: Vec<usize> = self
            .kept
            .iter()
            .filter(|&&i| i >= nw)
            .map(|&i| i - nw)
            .collect();
        let K = triangle::bilinear(
            &self.sw,
            &self.sw,
            &[
                Term::new(0, Op::Value, 0, Op::Value, 1.0),
                Term::new(0, Op::Dx, 0, Op::Dx, 1.0),
                Term::new(0, Op::Dy, 0, Op::Dy, 1.0),
            ],
        )?;
        let q = TriangleQuadrature::exact_for_degree(2 * k + 8)?;
        let mesh = self.sw.mesh();
        let el = self.sw.element();
        let nl = el.n_local();
        let (mut v, mut dx, mut dy) = (vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
        let mut bw = vec![0.0; nw];
        let mut cw = 0.0;
        let mut ck = 0.0;
        for t in 0..mesh.n_cells() {
            let g = CellGeometry::new(mesh, t);
            let d = self.sw.cell_dofs(t);
            for (xh, &w) in q.points.iter().zip(&q.weights) {
                let x = g.map(*xh);
                let wd = w * g.det;
                let (fv, fg) = velocity(x);
                let m = moments(x);
                cw += wd * (fv * fv + fg[0] * fg[0] + fg[1] * fg[1]);
                ck += wd * (m[0] * m[0] + 2.0 * m[1] * m[1] + m[2] * m[2]);
                el.eval(*xh, &mut v, &mut dx, &mut dy);
                for j in 0..nl {
                    let gr = g.grad(dx[j], dy[j]);
                    bw[d[j]] += wd * (v[j] * fv + gr[0] * fg[0] + gr[1] * fg[1]);
                }
            }
        }
        let bk = hhj::load(&self.sk, moments, 2 * k + 8 - (k - 1))?;
        const FROB: [f64; 9] = [1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0];
        let MF = hhj::mass(&self.sk, &FROB)?;
        Ok(ErrorForms {
            K: sparse::restrict(&K, &kept_w, &kept_w),
            bw: kept_w.iter().map(|&i| bw[i]).collect(),
            cw,
            MF: sparse::restrict(&MF, &kept_k, &kept_k),
            bk: kept_k.iter().map(|&i| bk[i]).collect(),
            ck,
            nw: kept_w.len(),
            nk: kept_k.len(),
        })
    }
}

/// Precomputed quadratic forms of the discretization errors against a separable exact
/// solution (see [`KirchhoffModel::error_forms`] and
/// [`KirchhoffBellModel::error_forms`](super::kirchhoff_bell::KirchhoffBellModel::error_forms)):
/// with the Gram matrix $K$ of the velocity norm ($H^1$ for HHJ, $H^2$ for BellDG3), the
/// load vector $b_w = (\phi_i, v)$ and $c_w = \|v\|^2$,
/// $\|a v - e_w^h\|^2 = e_w^\top K e_w - 2a\,b_w^\top e_w + a^2c_w$; likewise for the moments
/// with the $L^2$ Gram matrix $M_F$ of the moment space.
#[derive(Debug, Clone)]
pub struct ErrorForms {
    pub(crate) K: SparseMat,
    pub(crate) bw: Vec<f64>,
    pub(crate) cw: f64,
    pub(crate) MF: SparseMat,
    pub(crate) bk: Vec<f64>,
    pub(crate) ck: f64,
    /// Velocity states (the first `nw` of a state), then `nk` moment states.
    pub(crate) nw: usize,
    pub(crate) nk: usize,
}

impl ErrorForms {
    /// $[\|a v - e_w^h\|_{H^1},\ \|b\mathbf M - \mathbf E^h_\kappa\|_{L^2}]$ ($H^2$ for BellDG3) for the state `e`
    /// (the same quadrature for all three terms of $\|u_h\|^2 - 2(u_h, u) + \|u\|^2$, so the
    /// value is the quadrature norm of the difference, non-negative up to round-off).
    /// Errors below about $10^{-7}$ times the exact norm are not resolved (cancellation in
    /// the expanded square).
    pub fn errors(&self, e: &[f64], a: f64, b: f64) -> [f64; 2] {
        let ew = &e[..self.nw];
        let ek = &e[self.nw..self.nw + self.nk];
        let dot = |x: &[f64], y: &[f64]| x.iter().zip(y).map(|(p, q)| p * q).sum::<f64>();
        let sw = sparse::bilinear(ew, &self.K, ew) - 2.0 * a * dot(ew, &self.bw) + a * a * self.cw;
        let sk = sparse::bilinear(ek, &self.MF, ek) - 2.0 * b * dot(ek, &self.bk) + b * b * self.ck;
        [sw.max(0.0).sqrt(), sk.max(0.0).sqrt()]
    }
    /// Norms of the exact fields, $[\|v\|_{H^1}, \|\mathbf M\|_{L^2}]$.
    pub fn exact_norms(&self) -> [f64; 2] {
        [self.cw.sqrt(), self.ck.sqrt()]
    }
}

/// The manufactured-solution benchmarks of thesis 004 §7.4.3 (summary §5.1.3, with the
/// corrections marked there) and the reference tables B.16–B.18, B.20–B.22.
pub mod benchmarks {
    use super::*;
    use std::f64::consts::PI;

    /// A row of a thesis convergence table: `1/h`, $\|e_w - e_w^h\|_{L^\infty(H^1)}$,
    /// $\|\mathbf E_\kappa - \mathbf E_\kappa^h\|_{L^\infty(L^2)}$.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct ThesisRow {
        /// $1/h$ (cells per side, see [`Benchmark::mesh`]).
        pub inv_h: usize,
        /// Velocity error.
        pub e_w: f64,
        /// Moment error.
        pub e_kappa: f64,
    }

    const fn row(inv_h: usize, e_w: f64, e_kappa: f64) -> ThesisRow {
        ThesisRow {
            inv_h,
            e_w,
            e_kappa,
        }
    }

    /// Tables B.16–B.18 (SSSS, k = 1, 2, 3).
    const SSSS: [&[ThesisRow]; 3] = [
        &[
            row(4, 1.38e+00, 5.11e+01),
            row(8, 5.17e-01, 2.64e+01),
            row(16, 2.28e-01, 1.33e+01),
            row(32, 1.09e-01, 6.68e+00),
            row(64, 5.45e-02, 3.34e+00),
        ],
        &[
            row(4, 1.47e-01, 6.58e+00),
            row(8, 3.48e-02, 1.70e+00),
            row(16, 8.51e-03, 4.31e-01),
            row(32, 2.11e-03, 1.08e-01),
            row(64, 5.28e-04, 2.70e-02),
        ],
        &[
            row(2, 1.15e-01, 4.85e+00),
            row(4, 1.51e-02, 6.42e-01),
            row(8, 1.92e-03, 8.10e-02),
            row(16, 2.41e-04, 1.01e-02),
            row(32, 3.02e-05, 1.26e-03),
        ],
    ];
    /// Tables B.20–B.22 (CSFS, k = 1, 2, 3).
    const CSFS: [&[ThesisRow]; 3] = [
        &[
            row(4, 5.94e+00, 1.62e+01),
            row(8, 2.35e+00, 9.27e+00),
            row(16, 9.98e-01, 4.86e+00),
            row(32, 4.69e-01, 2.46e+00),
            row(64, 2.34e-01, 1.23e+00),
        ],
        &[
            row(4, 1.13e+00, 4.14e+00),
            row(8, 2.90e-01, 1.19e+00),
            row(16, 7.14e-02, 3.13e-01),
            row(32, 1.77e-02, 7.96e-02),
            row(64, 4.43e-03, 2.00e-02),
        ],
        &[
            row(2, 1.57e+00, 4.25e+00),
            row(4, 2.39e-01, 8.44e-01),
            row(8, 3.37e-02, 1.16e-01),
            row(16, 4.50e-03, 1.49e-02),
            row(32, 5.76e-04, 1.89e-03),
        ],
    ];

    /// The two HHJ benchmarks of thesis §7.4.3.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Benchmark {
        /// Simply supported unit square, $w = \sin\pi x\sin\pi y\sin t$, Table 7.3 material
        /// ($E$ = 136 GPa, $\rho$ = 5600 kg/m³, $\nu$ = 0.3, $b$ = 1 mm).
        Ssss,
        /// $(-1, 1)^2$, clamped at $x = -1$, free at $x = 1$, simply supported at
        /// $y = \pm1$, $\mathcal D_b = \mathrm{Id}$, same $\rho$, $b$; static solution of
        /// Rafetseder & Zulehner (2018) with the corrected load $f_s = 4\pi^4\sin\pi x\sin\pi y$ and $c_3$ with
        /// $6\cosh 3\pi$ (summary §5.1.3, verified there).
        Csfs,
    }

    impl Benchmark {
        /// Both benchmarks.
        pub const ALL: [Benchmark; 2] = [Benchmark::Ssss, Benchmark::Csfs];

        /// Short name, `"SSSS"` or `"CSFS"`.
        pub fn name(&self) -> &'static str {
            match self {
                Benchmark::Ssss => "SSSS",
                Benchmark::Csfs => "CSFS",
            }
        }

        /// Plate data (Table 7.3; $\mathcal D_b = \mathrm{Id}$ for CSFS).
        pub fn params(&self) -> KirchhoffParams {
            match self {
                Benchmark::Ssss => KirchhoffParams {
                    rho: 5600.0,
                    h: 0.001,
                    stiffness: BendingStiffness::isotropic(136e9, 0.3, 0.001)
                        .expect("Table 7.3 data are valid"),
                },
                Benchmark::Csfs => KirchhoffParams {
                    rho: 5600.0,
                    h: 0.001,
                    stiffness: BendingStiffness::identity(),
                },
            }
        }

        /// Structured mesh with `n × n` cells: the unit square (SSSS) or $(-1, 1)^2$ (CSFS).
        /// The thesis's `1/h` is `n` in both cases (Firedrake `RectangleMesh(n, n, L, L)` with
        /// `h_mesh = 1/n`, also for $L = 2$), and its time step is $\Delta t = h/10$.
        pub fn mesh(&self, n: usize, diagonal: Diagonal) -> Result<Mesh2d, Fem2dError> {
            match self {
                Benchmark::Ssss => Mesh2d::unit_square(n, diagonal),
                Benchmark::Csfs => Mesh2d::rectangle(-1.0, 1.0, -1.0, 1.0, n, n, diagonal),
            }
        }

        /// Time step of the thesis for `1/h = n`: $\Delta t = 0.1/n$.
        pub fn time_step(&self, n: usize) -> f64 {
            0.1 / n as f64
        }

        /// The HHJ model of degree `k` on `mesh` with the benchmark's boundary conditions and
        /// one load port `"load"` of profile $f_s - \rho b\,w_s$ (input $\sin t$ gives the
        /// thesis forcing $f_d = f_s\sin t + \rho b\,\partial_{tt}w_d$).
        pub fn model(&self, mesh: &Mesh2d, k: usize) -> Result<KirchhoffModel, Fem2dError> {
            self.configure(KirchhoffHhj::new(self.params(), mesh, k)?)
                .build()
        }

        /// The builder `b` (HHJ or Bell/Argyris) with the benchmark's boundary conditions
        /// and one load port `"load"` of profile $f_s - \rho b\,w_s$.
        pub fn configure<D>(&self, b: Kirchhoff<D>) -> Kirchhoff<D> {
            let b = match self {
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
            let me = *self;
            b.load("load", Arc::new(move |x| me.load_profile(x)))
        }

        /// Static deflection and derivatives $(w, w_x, w_y, w_{xx}, w_{xy}, w_{yy})$.
        pub fn deflection(&self, x: [f64; 2]) -> [f64; 6] {
            match self {
                Benchmark::Ssss => {
                    let (sx, cx) = (PI * x[0]).sin_cos();
                    let (sy, cy) = (PI * x[1]).sin_cos();
                    let p2 = PI * PI;
                    [
                        sx * sy,
                        PI * cx * sy,
                        PI * sx * cy,
                        -p2 * sx * sy,
                        p2 * cx * cy,
                        -p2 * sx * sy,
                    ]
                }
                Benchmark::Csfs => {
                    let (sy, cy) = (PI * x[1]).sin_cos();
                    let (g0, g1, g2) = (csfs_g(x[0], 0), csfs_g(x[0], 1), csfs_g(x[0], 2));
                    [
                        g0 * sy,
                        g1 * sy,
                        PI * g0 * cy,
                        g2 * sy,
                        PI * g1 * cy,
                        -PI * PI * g0 * sy,
                    ]
                }
            }
        }

        /// Static load $f_s$: $4D\pi^4\sin\pi x\sin\pi y$ (SSSS, $D = D_b$) or
        /// $4\pi^4\sin\pi x\sin\pi y$ (CSFS).
        pub fn static_load(&self, x: [f64; 2]) -> f64 {
            let s = (PI * x[0]).sin() * (PI * x[1]).sin();
            let d = match self {
                Benchmark::Ssss => self.params().stiffness.voigt()[0][0],
                Benchmark::Csfs => 1.0,
            };
            4.0 * d * PI.powi(4) * s
        }

        /// Load profile $f_s - \rho b\,w_s$ (amplitude $\sin t$).
        pub fn load_profile(&self, x: [f64; 2]) -> f64 {
            self.static_load(x) - self.params().surface_density() * self.deflection(x)[0]
        }

        /// Load amplitude $a(t)$ for the port `"load"` under a midpoint-sampled integrator
        /// with step `dt`: $a(t) = \cos(\Delta t/2)\sin t$. Since
        /// $\tfrac12[\sin(t - \Delta t/2) + \sin(t + \Delta t/2)] = \cos(\Delta t/2)\sin t$, its
        /// value at the step midpoint is the **trapezoidal** average of $\sin t$ over the step,
        /// which is how the thesis's $\theta = \frac12$ scheme samples the load
        /// ($(1-\theta)f_n + \theta f_{n+1}$). Plain $\sin t$ is equally second order; the
        /// two differ by $O(\Delta t^2)$, visible only where the time error matters (SSSS
        /// $k = 3$, $1/h = 32$: $e_w$ = 3.14e-5 with $\sin t$, 3.04e-5 with this, thesis 3.02e-5).
        pub fn thesis_load_amplitude(dt: f64) -> impl Fn(f64) -> f64 + Send + Sync + 'static {
            let c = (0.5 * dt).cos();
            move |t| c * t.sin()
        }

        /// Exact velocity profile $w_s$, $\nabla w_s$ ($e_w = w_s\cos t$).
        pub fn velocity(&self, x: [f64; 2]) -> (f64, [f64; 2]) {
            let d = self.deflection(x);
            (d[0], [d[1], d[2]])
        }

        /// Exact moment profile $\mathcal D_b\operatorname{Hess}w_s$
        /// ($\mathbf E_\kappa = \mathcal D_b\operatorname{Hess}w_s\,\sin t$).
        pub fn moments(&self, x: [f64; 2]) -> [f64; 3] {
            let d = self.deflection(x);
            self.params().stiffness.moments([d[3], d[4], d[5]])
        }

        /// The thesis table for degree `k` (B.16–B.18 for SSSS, B.20–B.22 for CSFS).
        pub fn thesis_table(&self, k: usize) -> Option<&'static [ThesisRow]> {
            if !(1..=3).contains(&k) {
                return None;
            }
            Some(match self {
                Benchmark::Ssss => SSSS[k - 1],
                Benchmark::Csfs => CSFS[k - 1],
            })
        }
    }

    /// Coefficients $(c_1, c_2, c_3, c_4)$ of the CSFS static solution (summary §5.1.3,
    /// with $6\cosh 3\pi$ in $c_3$): $\approx (0.354521, -0.0049163, 0.0922847, -0.268497)$.
    pub fn csfs_coefficients() -> [f64; 4] {
        let (sh, ch) = (PI.sinh(), PI.cosh());
        let (sh3, ch3) = ((3.0 * PI).sinh(), (3.0 * PI).cosh());
        let d = 5.0 + 8.0 * PI * PI + 3.0 * (4.0 * PI).cosh();
        [
            -2.0 * (sh - 3.0 * sh3 + PI * (4.0 * PI * sh + 7.0 * ch - 3.0 * ch3)) / d,
            -8.0 * PI * (2.0 * PI * sh + ch) / d,
            (10.0 * ch + 6.0 * ch3 + 16.0 * PI * (sh + PI * ch)) / d,
            2.0 * PI * (5.0 * sh - 3.0 * sh3 + 4.0 * PI * ch) / d,
        ]
    }

    /// $n$-th derivative of $g(x) = (c_1 + c_2x)\cosh\pi x + (c_3 + c_4x)\sinh\pi x + \sin\pi x$
    /// ($w_s = g(x)\sin\pi y$): $\frac{d^n}{dx^n}[(a + bx)C(\pi x)] = \pi^n(a + bx)C^{(n)} +
    /// n b\pi^{n-1}C^{(n-1)}$.
    pub fn csfs_g(x: f64, n: usize) -> f64 {
        let [c1, c2, c3, c4] = csfs_coefficients();
        let (sh, ch) = ((PI * x).sinh(), (PI * x).cosh());
        // derivative m of cosh(πx)/π^m: cosh if m even else sinh; of sinh: the other way
        let dcosh = |m: usize| if m.is_multiple_of(2) { ch } else { sh };
        let dsinh = |m: usize| if m.is_multiple_of(2) { sh } else { ch };
        let pn = PI.powi(n as i32);
        let pn1 = if n >= 1 { PI.powi(n as i32 - 1) } else { 0.0 };
        let nf = n as f64;
        let a = pn * (c1 + c2 * x) * dcosh(n)
            + if n >= 1 {
                nf * c2 * pn1 * dcosh(n - 1)
            } else {
                0.0
            };
        let b = pn * (c3 + c4 * x) * dsinh(n)
            + if n >= 1 {
                nf * c4 * pn1 * dsinh(n - 1)
            } else {
                0.0
            };
        let s = pn * (PI * x + nf * PI / 2.0).sin();
        a + b + s
    }
}

#[cfg(test)]
mod tests {
    use super::benchmarks::*;
    use super::*;
    use std::f64::consts::PI;

    /// 𝒞_b inverts 𝒟_b: V:C(D κ) = V:κ for random V, κ (Frobenius product), isotropic and
    /// anisotropic; the isotropic compliance equals the Mindlin closed form.
    #[test]
    fn compliance_inverts_stiffness() {
        let iso = BendingStiffness::isotropic(70e9, 0.35, 0.05).unwrap();
        let a = 12.0 / (70e9 * 0.05f64.powi(3));
        let Q = iso.compliance();
        let exp = [
            a,
            0.0,
            -0.35 * a,
            0.0,
            2.0 * 1.35 * a,
            0.0,
            -0.35 * a,
            0.0,
            a,
        ];
        for (q, e) in Q.iter().zip(exp) {
            assert!((q - e).abs() < 1e-12 * a, "{q} vs {e}");
        }
        let aniso =
            BendingStiffness::from_voigt([[3.0, 0.7, 0.4], [0.7, 2.0, -0.3], [0.4, -0.3, 1.1]])
                .unwrap();
        for s in [iso, aniso, BendingStiffness::identity()] {
            let kappa = [0.3, -1.2, 0.8];
            let V = [1.1, 0.4, -0.6];
            let M = s.moments(kappa);
            let Q = s.compliance();
            let lhs: f64 = (0..3)
                .map(|i| (0..3).map(|j| Q[3 * i + j] * V[i] * M[j]).sum::<f64>())
                .sum();
            let rhs = V[0] * kappa[0] + 2.0 * V[1] * kappa[1] + V[2] * kappa[2];
            assert!(
                (lhs - rhs).abs() < 1e-12 * rhs.abs().max(1.0),
                "{lhs} vs {rhs}"
            );
        }
        assert!(
            BendingStiffness::from_voigt([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
                .is_err()
        );
        assert!(
            BendingStiffness::from_voigt([[1.0, 0.5, 0.0], [0.4, 1.0, 0.0], [0.0, 0.0, 1.0]])
                .is_err()
        );
        assert!(BendingStiffness::isotropic(1.0, 0.5, 1.0).is_err());
    }

    /// CSFS static solution: coefficients as in the summary, w = w_x = 0 at x = −1,
    /// w_xx = 0 and w_xxx + 2 w_xyy = 0 at x = 1, and Δ²w = 4π⁴ sin πx sin πy.
    #[test]
    fn csfs_solution_satisfies_its_conditions() {
        let c = csfs_coefficients();
        let exp = [
            0.354520709648,
            -0.00491628931787,
            0.092284718015,
            -0.268497248624,
        ];
        for (a, b) in c.iter().zip(exp) {
            assert!((a - b).abs() < 1e-11, "{a} vs {b}");
        }
        let p2 = PI * PI;
        assert!(csfs_g(-1.0, 0).abs() < 1e-12 && csfs_g(-1.0, 1).abs() < 1e-11);
        assert!(csfs_g(1.0, 2).abs() < 1e-10);
        // w_xxx + 2 w_xyy = (g''' − 2π² g') sin πy
        assert!((csfs_g(1.0, 3) - 2.0 * p2 * csfs_g(1.0, 1)).abs() < 1e-9);
        for x in [-0.7, 0.1, 0.9] {
            let l = csfs_g(x, 4) - 2.0 * p2 * csfs_g(x, 2) + p2 * p2 * csfs_g(x, 0);
            assert!(
                (l - 4.0 * p2 * p2 * (PI * x).sin()).abs() < 1e-8,
                "x={x}: {l}"
            );
        }
        // deflection() agrees with finite differences of itself
        let b = Benchmark::Csfs;
        let x = [0.3, -0.4];
        let hs = 1e-6;
        let d = b.deflection(x);
        let dx =
            (b.deflection([x[0] + hs, x[1]])[0] - b.deflection([x[0] - hs, x[1]])[0]) / (2.0 * hs);
        let dyy =
            (b.deflection([x[0], x[1] + hs])[2] - b.deflection([x[0], x[1] - hs])[2]) / (2.0 * hs);
        assert!((dx - d[1]).abs() < 1e-7 && (dyy - d[5]).abs() < 1e-6);
    }

    #[test]
    fn structure_sizes_and_errors() {
        let mesh = Mesh2d::unit_square(3, Diagonal::Left).unwrap();
        let p = Benchmark::Ssss.params();
        for k in 1..=3 {
            let m = Benchmark::Ssss.model(&mesh, k).unwrap();
            m.system().check(&Default::default()).unwrap();
            let sw = m.velocity_space();
            let nbw = sw
                .boundary_dofs(&["left", "right", "top", "bottom"])
                .unwrap()
                .len();
            assert_eq!(
                m.system().block_range("e_w").unwrap().len(),
                sw.n_dofs() - nbw
            );
            // 12 boundary edges with k DOFs each removed
            assert_eq!(
                m.system().block_range("E_kappa").unwrap().len(),
                m.moment_space().n_dofs() - 12 * k
            );
            assert_eq!(m.system().ports.names(), vec!["load".to_string()]);
        }
        assert!(KirchhoffHhj::new(p, &mesh, 4).is_err());
        let err = KirchhoffHhj::new(p, &mesh, 1)
            .unwrap()
            .clamped("left")
            .free("left")
            .build()
            .unwrap_err();
        assert!(err.to_string().contains("left"), "{err}");
        let err = KirchhoffHhj::new(p, &mesh, 1)
            .unwrap()
            .clamped("nope")
            .build()
            .unwrap_err();
        assert!(matches!(err, Fem2dError::UnknownTag { .. }));
    }

    /// Ports: structure check passes; for an arbitrary state and input the power balance
    /// eᵀ(Je + Bu) = yᵀu holds (J skew, E-rows of multipliers zero), and each port pairs
    /// its input with the conjugate trace: a unit w_t on the free edge of the (x = 1)
    /// port gives y_qn·1 = ∫_Γ w_t = 1 for w_t = 1 along x = 1.
    #[test]
    fn ports_power_and_traces() {
        let mesh = Mesh2d::unit_square(4, Diagonal::Right).unwrap();
        let p = KirchhoffParams::isotropic(70e9, 0.35, 2700.0, 0.01).unwrap();
        for k in 1..=3 {
            // the same edges as full ports (m) and as rotation-only ports (r): the
            // translational inputs of r are homogeneous (w_t DOFs removed on C/S edges, no
            // velocity multipliers)
            let clamped_left = || KirchhoffHhj::new(p, &mesh, k).unwrap().clamped("left");
            let (mut m, mut r) = (clamped_left(), clamped_left());
            for (tag, cond) in [
                ("right", EdgeCondition::Free),
                ("top", EdgeCondition::SimplySupported),
                ("bottom", EdgeCondition::Clamped),
            ] {
                m = m.port(tag, cond);
                r = r.rotation_port(tag, cond);
            }
            let (m, r) = (m.build().unwrap(), r.build().unwrap());
            let sys = m.system();
            sys.check(&Default::default()).unwrap();
            r.system().check(&Default::default()).unwrap();
            assert_eq!(
                r.system().ports.names(),
                ["right_Mnn", "top_Mnn", "bottom_dnwt"]
            );
            let nb = m
                .velocity_space()
                .boundary_dofs(&["top", "bottom"])
                .unwrap()
                .len();
            let wl = |s: &LinearPhSystem| s.block_range("e_w").unwrap().len();
            let (bm, br) = (m.system(), r.system());
            let left_only = m.velocity_space().boundary_dofs(&["left"]).unwrap();
            let both = m
                .velocity_space()
                .boundary_dofs(&["left", "top", "bottom"])
                .unwrap();
            assert_eq!(wl(bm) - wl(br), both.len() - left_only.len());
            assert!(nb > 0);
            let names = sys.ports.names();
            assert_eq!(
                names,
                [
                    "right_qn",
                    "right_Mnn",
                    "top_wt",
                    "top_Mnn",
                    "bottom_wt",
                    "bottom_dnwt"
                ]
            );
            crate::models::model::assert_port_power(sys, 1e-9);
            // trace: w_t = y (k ≥ 1 exact), on x = 1 the CG trace basis sums to 1:
            // Σ_l ∫ w ψ_l = ∫_0^1 y dy = 1/2
            let e = m.interpolate_state(&|x| x[1], None).unwrap();
            let yq: f64 = sys.port_output("right_qn", &e).unwrap().iter().sum();
            assert!((yq - 0.5).abs() < 1e-12, "k={k}: {yq}");
            // M_nn moments: E = [[x, 0], [0, 1]] ⇒ on the bottom edge y = 0, M_nn = E_yy = 1;
            // the dnwt output is ∫_e M_nn P_j ds: |e| for j = 0 (total 1), 0 for j > 0
            let e = m
                .interpolate_state(&|_| 0.0, Some(&|x| [x[0], 0.0, 1.0]))
                .unwrap();
            let yb = sys.port_output("bottom_dnwt", &e).unwrap();
            assert_eq!(yb.len(), 4 * k);
            let total: f64 = yb.iter().step_by(k).sum();
            assert!((total - 1.0).abs() < 1e-12, "k={k}: {yb:?}");
            for (i, v) in yb.iter().enumerate() {
                if i % k != 0 {
                    assert!(v.abs() < 1e-12, "k={k}: {yb:?}");
                }
            }
        }
    }

    /// The error forms give the norms of the exact fields for a zero state, and zero
    /// error for the interpolant of a polynomial field of the spaces (all edges free, so
    /// the moments must have M_nn = 0 on the boundary: M = [[x(1−x), ½], [½, y(1−y)]]).
    #[test]
    fn error_forms() {
        let mesh = Mesh2d::unit_square(4, Diagonal::Right).unwrap();
        let p = KirchhoffParams::isotropic(70e9, 0.35, 2700.0, 0.01).unwrap();
        let m = KirchhoffHhj::new(p, &mesh, 3).unwrap().build().unwrap();
        let v = |x: [f64; 2]| (x[0] * x[1], [x[1], x[0]]);
        let mm = |x: [f64; 2]| [x[0] * (1.0 - x[0]), 0.5, x[1] * (1.0 - x[1])];
        let f = m.error_forms(&v, &mm).unwrap();
        let z = vec![0.0; m.n_states()];
        let [a, b] = f.errors(&z, 1.0, 1.0);
        // ∫ (xy)² = 1/9, ∫ y² + x² = 2/3; ∫ x²(1−x)² = 1/30 (twice) + 2·¼
        assert!((a - (1.0f64 / 9.0 + 2.0 / 3.0).sqrt()).abs() < 1e-12);
        assert!((b - (1.0f64 / 15.0 + 0.5).sqrt()).abs() < 1e-12);
        let e = m.interpolate_state(&|x| v(x).0, Some(&mm)).unwrap();
        let [a, b] = f.errors(&e, 1.0, 1.0);
        // exact up to the cancellation floor of ‖u_h‖² − 2(u_h, u) + ‖u‖²: √(ε)·‖u‖ ≈ 1e-8,
        // times a few for the accumulated sums
        assert!(a < 1e-6 && b < 1e-6, "{a} {b}");
    }
}
