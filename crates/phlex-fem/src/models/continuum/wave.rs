//! Acoustics (2D wave equation) in port-Hamiltonian form, planar or axisymmetric, in both
//! PFEM causalities (thesis 004 §2.3.1, §8.2.2, eq. (8.34); summary §2.2, §3.1, §5.4
//! "Axisymmetric vibroacoustics", Table 8.4).
//!
//! Model: $\chi_s\,\partial_t p = -\operatorname{div} \mathbf u$,
//! $\mu_0\,\partial_t \mathbf u = -\operatorname{grad} p$ with compressibility $\chi_s$,
//! density $\mu_0$, sound speed $c = (\chi_s\mu_0)^{-1/2}$; co-energies $e_p = p$,
//! $e_u = \mathbf u$, Hamiltonian $H = \tfrac12\int(\chi_s p^2 + \mu_0|\mathbf u|^2)\,w$,
//! $\dot H = -\int_{\partial\Omega} p\,\mathbf u\cdot\mathbf n\,w\,ds$.
//!
//! **Geometry.** Planar: $w = 1$. Axisymmetric (thesis §8.2.2): mesh coordinates are
//! $(x, r)$ with $r = y \ge 0$ the radius, $\operatorname{div}_r\mathbf u = \partial_x u_x +
//! \partial_r u_r + u_r/r$, $\operatorname{grad}_r = (\partial_x, \partial_r)$, and every
//! inner product and boundary integral carries the weight $w = r$ (the factor $2\pi$ is
//! omitted, as in the thesis). Since $r\operatorname{div}_r\mathbf u =
//! \operatorname{div}(r\mathbf u)$, $\langle q, \operatorname{div}_r\mathbf u\rangle_r =
//! -\langle\operatorname{grad} q, \mathbf u\rangle_r + \langle q, \mathbf u\cdot\mathbf
//! n\rangle_{\partial, r}$, so both causalities keep their planar structure with weighted
//! matrices.
//!
//! **Causalities** ([`Causality`]):
//! * [`Causality::GradGrad`] ($p\in CG_1$, $\mathbf u \in (DG_0)^2$; IBP on the $p$ line):
//!   $\langle q, \chi_s\dot p\rangle = \langle\operatorname{grad}q, \mathbf u\rangle +
//!   \langle q, v_{in}\rangle_\partial$, $\langle\mathbf v, \mu_0\dot{\mathbf u}\rangle =
//!   -\langle\mathbf v, \operatorname{grad}p\rangle$, so
//!   $J = \begin{bmatrix}0 & D_{\mathrm{grad}}^\top\\ -D_{\mathrm{grad}} & 0\end{bmatrix}$,
//!   $D_{\mathrm{grad}}^{mi} = \langle\boldsymbol\phi_u^m, \operatorname{grad}\phi_p^i\rangle_w$;
//!   the natural input is the inward normal velocity $v_{in} = -\mathbf u\cdot\mathbf n$.
//! * [`Causality::DivDiv`] ($p\in DG_0$, $\mathbf u\in RT_1$, [`crate::element::triangle::rt`]; IBP
//!   on the $\mathbf u$ line): $\langle q, \chi_s\dot p\rangle = -\langle q,
//!   \operatorname{div}_r\mathbf u\rangle$, $\langle\mathbf v, \mu_0\dot{\mathbf u}\rangle =
//!   \langle\operatorname{div}_r\mathbf v, p\rangle - \langle\mathbf v\cdot\mathbf n,
//!   p_\partial\rangle_\partial$, so $J = \begin{bmatrix}0 & -D_{\mathrm{div}}\\
//!   D_{\mathrm{div}}^\top & 0\end{bmatrix}$, $D_{\mathrm{div}}^{ij} = \langle\phi_p^i,
//!   \operatorname{div}_r\boldsymbol\phi_u^j\rangle_w$; the natural input is the boundary
//!   pressure.
//!
//! * [`Causality::Cg1Rt1Neumann`]: the thesis pair $p\in CG_1$, $\mathbf u\in RT_1$
//!   (eq. (8.34)) with the GradGrad weak form ($RT_1$ test functions in
//!   $D_{\mathrm{grad}}$); converges more slowly than GradGrad on the tests (eigenvalue
//!   error ratios 3.5 per halving of h instead of 3.9).
//!
//! **Boundary conditions** per tag ([`AcousticBc`]), all untagged edges rigid:
//!
//! | condition | GradGrad, Cg1Rt1Neumann | DivDiv |
//! |---|---|---|
//! | `Rigid` ($\mathbf u\cdot\mathbf n = 0$) | natural (nothing) | strong: RT DOF removed |
//! | `PressureRelease` ($p = 0$) | strong: $p$ DOFs removed | natural (nothing) |
//! | `VelocityPort` (input $v_{in}$) | $B = \langle\phi_p, \psi\rangle_{\Gamma,w}$ | multiplier $\lambda = p|_\Gamma$ |
//! | `PressurePort` (input $p_\partial$) | multiplier $\lambda = v_{in}$ | $B = -\langle\boldsymbol\phi_u\cdot\mathbf n, \psi\rangle_{\Gamma,w}$ |
//! | `Impedance(z)` ($p = z\,\mathbf u\cdot\mathbf n$) | $R_{pp} = z^{-1}\langle\phi_p, \phi_p\rangle_{\Gamma,w}$ | $R_{uu} = z\langle\boldsymbol\phi_u\cdot\mathbf n, \boldsymbol\phi_u\cdot\mathbf n\rangle_{\Gamma,w}$ |
//!
//! Trace bases $\psi$: $CG_1$ on the tagged edges (one function per vertex of the tag) in
//! GradGrad, $DG_0$ (one per edge) in DivDiv. Every port (name = tag) has input = the
//! trace-basis coefficients of the imposed field and output $y = B^\top e$ = the weighted
//! moments of the conjugate field, so $\dot H = y^\top u$ exactly: a velocity port outputs
//! pressure moments $\langle p, \psi_l\rangle_{\Gamma,w}$, a pressure port inward-velocity
//! moments. In the non-natural causality the condition is imposed by Lagrange multipliers
//! (thesis §6.2.1, the "DAE method" of §8.2.2): with $G$ the coupling of the field to the
//! trace basis and $M_\Gamma$ the trace mass matrix,
//! $$\begin{bmatrix}E&0\\0&0\end{bmatrix}\begin{pmatrix}\dot e\\\dot\lambda\end{pmatrix}
//! = \begin{bmatrix}J&\pm G\\\mp G^\top&0\end{bmatrix}\begin{pmatrix}e\\\lambda\end{pmatrix} +
//! \begin{bmatrix}0\\M_\Gamma\end{bmatrix}u,\quad y = M_\Gamma\lambda$$
//! (index-2 pHDAE, block `lambda_{tag}`, [`phlex_core::VarBlock::algebraic`]).
use crate::element::triangle::rt::RtSpace;
use crate::error::{join_names, Fem2dError};
use crate::error::{require_positive, FemError};
use crate::mesh::triangle::{BoundaryEdge, Mesh2d};
use crate::models::restriction::Restriction;
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::triangle::TriangleQuadrature;
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};

/// Material data of the fluid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AcousticParams {
    /// Adiabatic compressibility $\chi_s$ \[1/Pa\].
    pub chi: f64,
    /// Density $\mu_0$ \[kg/m³\].
    pub mu: f64,
}

impl AcousticParams {
    /// From density $\mu_0$ and sound speed $c$: $\chi_s = 1/(\mu_0c^2)$ (thesis Table 8.4:
    /// air, $\mu_0 = 1.225$, $c = 340$ gives $\chi_s = 7.061\cdot10^{-6}$ Pa⁻¹).
    pub fn from_density_and_speed(mu: f64, c: f64) -> Result<Self, FemError> {
        require_positive("mu", mu)?;
        require_positive("c", c)?;
        Ok(Self {
            chi: 1.0 / (mu * c * c),
            mu,
        })
    }
    /// Sound speed $c = (\chi_s\mu_0)^{-1/2}$.
    pub fn sound_speed(&self) -> f64 {
        1.0 / (self.chi * self.mu).sqrt()
    }
    /// Checks $\chi_s > 0$, $\mu_0 > 0$.
    pub fn validate(&self) -> Result<(), FemError> {
        require_positive("chi", self.chi)?;
        require_positive("mu", self.mu)
    }
}

/// Which PFEM causality (which line is integrated by parts; module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Causality {
    /// $p \in CG_1$, $\mathbf u\in(DG_0)^2$: normal velocity is the natural input.
    GradGrad,
    /// $p \in DG_0$, $\mathbf u\in RT_1$: pressure is the natural input.
    DivDiv,
    /// The thesis pair CG1 × RT1 (eq. (8.34)) with the GradGrad weak form (IBP on the
    /// $p$ line, "Neumann" causality: normal velocity natural):
    /// $D_{\mathrm{grad}}^{mi} = \langle\boldsymbol\phi_u^m, \operatorname{grad}\phi_p^i\rangle_w$
    /// with $RT_1$ test functions.
    ///
    /// The same pair with the DivDiv weak form (IBP on the $\mathbf u$ line) is **not**
    /// offered: $\operatorname{div} RT_1$ is piecewise constant, so $CG_1$ pressures whose
    /// cell averages vanish are (nearly) invisible to $D_{\mathrm{div}}$ and produce
    /// spurious low modes (measured: 0.765 and 0.796 rad/s below the first physical
    /// frequency π/2 of the axisymmetric rigid cylinder of `tests/wave.rs`, 24 × 12 mesh).
    /// Use [`Causality::DivDiv`] for the pressure-driven causality.
    Cg1Rt1Neumann,
}

/// Planar or axisymmetric (r-weighted) geometry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Geometry {
    /// Plane acoustics, weight 1.
    #[default]
    Planar,
    /// Axisymmetric: mesh coordinates $(x, r)$, weight $r = y$, requires $y \ge 0$.
    Axisymmetric,
}

/// Boundary condition of a tag (module docs table).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AcousticBc {
    /// Rigid wall (or symmetry axis): $\mathbf u\cdot\mathbf n = 0$. The default.
    Rigid,
    /// Pressure release: $p = 0$.
    PressureRelease,
    /// Port with the inward normal velocity $-\mathbf u\cdot\mathbf n$ as input.
    VelocityPort,
    /// Port with the boundary pressure as input.
    PressurePort,
    /// Locally reacting impedance $p = z\,\mathbf u\cdot\mathbf n$ ($z > 0$ \[Pa s/m\],
    /// outward normal; $z = \mu_0 c$ absorbs normally incident plane waves): dissipation
    /// $R$, no port. GradGrad: $R_{pp} = z^{-1}\langle\phi_p^i, \phi_p^j\rangle_{\Gamma,w}$;
    /// DivDiv: $R_{uu} = z\langle\boldsymbol\phi_u^i\cdot\mathbf n,
    /// \boldsymbol\phi_u^j\cdot\mathbf n\rangle_{\Gamma,w}$. (Thesis §8.2.2 writes
    /// $e_p = -\mathcal Z e_v^r$ with its own sign convention; here $R \succeq 0$ always.)
    Impedance(f64),
}

/// Builder of an acoustic model.
#[derive(Debug, Clone)]
pub struct Acoustics {
    params: AcousticParams,
    mesh: Mesh2d,
    causality: Causality,
    geometry: Geometry,
    bcs: Vec<(String, AcousticBc)>,
}

/// The function spaces of a model: $p \in CG_1$ (else $DG_0$), $\mathbf u \in RT_1$ (else
/// $(DG_0)^2$), and which line is integrated by parts.
#[derive(Debug, Clone)]
struct Spaces {
    p_cg1: bool,
    rt: Option<RtSpace>,
    /// IBP on the $p$ line (normal velocity natural); else on the $\mathbf u$ line.
    p_line: bool,
}

impl Spaces {
    /// The RT space when the $\mathbf u$ line is integrated by parts (then $RT_1$ is
    /// guaranteed by construction); `None` for IBP on the $p$ line.
    fn u_line(&self) -> Option<&RtSpace> {
        if self.p_line {
            None
        } else {
            self.rt.as_ref()
        }
    }
}

impl Acoustics {
    /// A planar model on `mesh` with all edges rigid.
    pub fn new(
        params: AcousticParams,
        mesh: &Mesh2d,
        causality: Causality,
    ) -> Result<Self, Fem2dError> {
        params.validate()?;
        Ok(Self {
            params,
            mesh: mesh.clone(),
            causality,
            geometry: Geometry::Planar,
            bcs: Vec::new(),
        })
    }
    /// Switches to the axisymmetric form ($y$ = radius; checked in [`Self::build`]).
    pub fn axisymmetric(mut self) -> Self {
        self.geometry = Geometry::Axisymmetric;
        self
    }
    /// Sets the condition of the boundary edges tagged `tag`.
    pub fn boundary(mut self, tag: &str, bc: AcousticBc) -> Self {
        self.bcs.push((tag.to_string(), bc));
        self
    }

    /// Assembles the model.
    pub fn build(&self) -> Result<AcousticModel, Fem2dError> {
        let m = &self.mesh;
        if self.geometry == Geometry::Axisymmetric {
            if let Some((i, v)) = m.vertices().iter().enumerate().find(|(_, v)| v[1] < 0.0) {
                return Err(FemError::InvalidParameter {
                    name: format!("vertex {i} radius y = {}", v[1]),
                    value: v[1],
                    requirement: "axisymmetric meshes need r = y >= 0 (the axis is y = 0)".into(),
                }
                .into());
            }
        }
        let mut seen: Vec<&str> = Vec::new();
        for (tag, _) in &self.bcs {
            if seen.contains(&tag.as_str()) {
                return Err(FemError::InvalidParameter {
                    name: format!("boundary tag '{tag}'"),
                    value: 0.0,
                    requirement: "each tag gets one boundary condition".into(),
                }
                .into());
            }
            seen.push(tag);
            m.tagged_edges(tag)?;
        }
        let w = Weight(self.geometry);
        let p = self.params;
        let (p_cg1, use_rt, p_line) = match self.causality {
            Causality::GradGrad => (true, false, true),
            Causality::DivDiv => (false, true, false),
            Causality::Cg1Rt1Neumann => (true, true, true),
        };
        let spaces = Spaces {
            p_cg1,
            rt: use_rt.then(|| RtSpace::new(m)),
            p_line,
        };
        let nc = m.n_cells();
        let n_p = if p_cg1 { m.n_vertices() } else { nc };
        let n_u = if use_rt { m.n_edges() } else { 2 * nc };
        let n_full = n_p + n_u;
        let q = TriangleQuadrature::exact_for_degree(3)?;
        let mut tE = Triplets::new(n_full, n_full);
        let mut tJ = Triplets::new(n_full, n_full);
        // local bases (at most 3 functions each): values, gradients/divergences, DOFs
        let mut me = [[0.0; 3]; 3]; // p mass
        let mut mu_ = [[0.0; 3]; 3]; // u mass
        let mut dl = [[0.0; 3]; 3]; // coupling [u-local][p-local]
        for t in 0..nc {
            let c = m.cell_coords(t);
            let tri = m.triangles()[t];
            let area = m.area(t);
            let grads = p1_gradients(&c, area);
            let pd: Vec<usize> = if p_cg1 { tri.to_vec() } else { vec![t] };
            let ud: Vec<usize> = match &spaces.rt {
                Some(rt) => rt.cell_dofs(t).iter().map(|&e| n_p + e).collect(),
                None => vec![n_p + t, n_p + nc + t],
            };
            for blk in [&mut me, &mut mu_, &mut dl] {
                *blk = [[0.0; 3]; 3];
            }
            for (xh, &wq) in q.points.iter().zip(&q.weights) {
                let x = map(&c, *xh);
                let f = wq * 2.0 * area;
                let wx = w.at(x);
                let lam = [1.0 - xh[0] - xh[1], xh[0], xh[1]];
                let pv: [f64; 3] = if p_cg1 { lam } else { [1.0, 0.0, 0.0] };
                let (uv, ud_div): ([[f64; 2]; 3], [f64; 3]) = match &spaces.rt {
                    Some(rt) => rt.basis(t, x),
                    None => ([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]], [0.0; 3]),
                };
                for i in 0..pd.len() {
                    for j in 0..pd.len() {
                        me[i][j] += f * wx * pv[i] * pv[j];
                    }
                }
                for a in 0..ud.len() {
                    for b in 0..ud.len() {
                        mu_[a][b] += f * wx * (uv[a][0] * uv[b][0] + uv[a][1] * uv[b][1]);
                    }
                    for i in 0..pd.len() {
                        dl[a][i] += if p_line {
                            // D_grad^{a i} = ⟨φ_u^a, grad φ_p^i⟩_w (p ∈ CG1)
                            f * wx * (uv[a][0] * grads[i][0] + uv[a][1] * grads[i][1])
                        } else {
                            // D_div^{i a} = ⟨φ_p^i, div_r φ_u^a⟩_w (u ∈ RT1)
                            f * pv[i] * (wx * ud_div[a] + w.radial_term(uv[a]))
                        };
                    }
                }
            }
            for (i, &gi) in pd.iter().enumerate() {
                for (j, &gj) in pd.iter().enumerate() {
                    tE.push(gi, gj, p.chi * me[i][j]);
                }
            }
            for (a, &ga) in ud.iter().enumerate() {
                for (b, &gb) in ud.iter().enumerate() {
                    tE.push(ga, gb, p.mu * mu_[a][b]);
                }
                for (i, &gi) in pd.iter().enumerate() {
                    // p line: J_up = −D_grad, J_pu = D_gradᵀ; u line: J_pu = −D_div,
                    // J_up = D_divᵀ
                    let d = if p_line { -dl[a][i] } else { dl[a][i] };
                    tJ.push(ga, gi, d);
                    tJ.push(gi, ga, -d);
                }
            }
        }
        let E_full = tE.build();
        // impedance boundaries: dissipation
        let mut tR = Triplets::new(n_full, n_full);
        for (tag, bc) in &self.bcs {
            if let AcousticBc::Impedance(z) = *bc {
                if !(z > 0.0 && z.is_finite()) {
                    return Err(FemError::InvalidParameter {
                        name: format!("impedance of boundary tag '{tag}'"),
                        value: z,
                        requirement:
                            "0 < z < inf (use PressureRelease for z = 0, Rigid for z = inf)".into(),
                    }
                    .into());
                }
                let edges = m.tagged_edges(tag)?;
                match spaces.u_line() {
                    None => {
                        let tr = cg1_trace(m, &edges, w, n_full)?;
                        // ⟨φ_i, φ_j⟩_Γ = Σ_l G_il ψ-expansion: φ_i|_Γ = ψ_{col(i)}, so the
                        // trace mass scattered to the vertex DOFs
                        let G = tr.coupling;
                        for j in 0..G.ncols() {
                            for (i, v) in sparse::col_iter(&G, j) {
                                let vert = tr.vertex_of_col[j];
                                tR.push(i, vert, v / z);
                            }
                        }
                    }
                    Some(rt) => {
                        let tr = dg0_trace(rt, &edges, w, n_full, n_p)?;
                        for (k, b) in edges.iter().enumerate() {
                            // (φ_e·n)² = 1/|e|², ∫_e w = trace mass
                            let len = m.edge_length(b.edge);
                            let wint: f64 = sparse::col_iter(&tr.mass, k).map(|(_, v)| v).sum();
                            tR.push(n_p + b.edge, n_p + b.edge, z * wint / (len * len));
                        }
                    }
                }
            }
        }
        let R_full = tR.build();
        let J_full = tJ.build();
        // boundary conditions
        let natural = |bc: AcousticBc| {
            if spaces.p_line {
                bc == AcousticBc::VelocityPort
            } else {
                bc == AcousticBc::PressurePort
            }
        };
        let mut removed: Vec<usize> = Vec::new();
        match spaces.u_line() {
            None => {
                for (tag, bc) in &self.bcs {
                    if *bc == AcousticBc::PressureRelease {
                        for b in m.tagged_edges(tag)? {
                            removed.extend(m.edges()[b.edge]);
                        }
                    }
                }
            }
            Some(_) => {
                // every boundary edge not covered by a non-rigid condition is rigid
                let mut free = vec![false; m.n_edges()];
                for (tag, bc) in &self.bcs {
                    if *bc != AcousticBc::Rigid {
                        for b in m.tagged_edges(tag)? {
                            free[b.edge] = true;
                        }
                    }
                }
                removed.extend(
                    m.boundary_edges()
                        .iter()
                        .filter(|b| !free[b.edge])
                        .map(|b| n_p + b.edge),
                );
            }
        }
        let dofs = Restriction::new(&[n_p, n_u], removed);
        let n = dofs.len();
        // ports and multipliers: matrices on the open state
        let mut ports = Vec::new();
        let mut port_info = Vec::new();
        let mut B_cols: Vec<SparseMat> = Vec::new();
        let mut mults: Vec<(String, SparseMat, SparseMat)> = Vec::new(); // (tag, G, M_Γ)
        for (tag, bc) in &self.bcs {
            if matches!(
                bc,
                AcousticBc::Rigid | AcousticBc::PressureRelease | AcousticBc::Impedance(_)
            ) {
                continue;
            }
            let edges = m.tagged_edges(tag)?;
            let tr = match spaces.u_line() {
                None => cg1_trace(m, &edges, w, n_full)?,
                Some(rt) => dg0_trace(rt, &edges, w, n_full, n_p)?,
            };
            let (inp, out) = match bc {
                AcousticBc::VelocityPort => (
                    "inward normal velocity -u.n [m/s] (trace-basis coefficients)",
                    "weighted pressure moments <p, psi>_Gamma [Pa m] (x r in axisymmetric form)",
                ),
                _ => (
                    "boundary pressure [Pa] (trace-basis coefficients)",
                    "weighted inward-velocity moments <-u.n, psi>_Gamma [m²/s] (x r in axisymmetric form)",
                ),
            };
            ports.push(Port::new(tag.clone(), tr.points.len(), inp, out));
            port_info.push(PortTrace {
                name: tag.clone(),
                points: tr.points.clone(),
            });
            if natural(*bc) {
                B_cols.push(tr.coupling);
            } else {
                mults.push((tag.clone(), tr.coupling, tr.mass));
            }
        }
        let n_lambda: usize = mults.iter().map(|(_, g, _)| g.ncols()).sum();
        let n_total = n + n_lambda;
        let n_inputs: usize = ports.iter().map(|p| p.dim).sum();
        let mut te = Triplets::new(n_total, n_total);
        te.push_block(0, 0, &dofs.restrict(&E_full), 1.0);
        let mut tj = Triplets::new(n_total, n_total);
        tj.push_block(0, 0, &dofs.restrict(&J_full), 1.0);
        let mut tb = Triplets::new(n_total, n_inputs);
        let mut blocks = vec![
            VarBlock::differential("e_p", "pressure p [Pa]", dofs.kept_in(0)),
            VarBlock::differential(
                "e_u",
                if spaces.rt.is_some() {
                    "velocity fluxes through the edges [m²/s] (RT1)"
                } else {
                    "velocity (u_x, u_y) per cell [m/s] (DG0)"
                },
                dofs.kept_in(1),
            ),
        ];
        // inputs in port order: natural ports and multiplier ports interleaved as declared
        let mut col = 0;
        let mut lam = n;
        let (mut nb, mut nm) = (0, 0);
        for (tag, bc) in &self.bcs {
            if matches!(
                bc,
                AcousticBc::Rigid | AcousticBc::PressureRelease | AcousticBc::Impedance(_)
            ) {
                continue;
            }
            if natural(*bc) {
                let b = dofs.restrict_rows(&B_cols[nb]);
                tb.push_block(0, col, &b, 1.0);
                col += b.ncols();
                nb += 1;
            } else {
                let (_, G, Mg) = &mults[nm];
                nm += 1;
                let g = dofs.restrict_rows(G);
                // GradGrad pressure port: J[p, λ] = G (λ = inward velocity);
                // DivDiv velocity port: J[u, λ] = C (λ = pressure, G = -C); both: + g
                tj.push_block(0, lam, &g, 1.0);
                tj.push_block_transpose(lam, 0, &g, -1.0);
                tb.push_block(lam, col, Mg, 1.0);
                blocks.push(VarBlock::algebraic(
                    format!("lambda_{tag}"),
                    match bc {
                        AcousticBc::PressurePort => {
                            "inward normal velocity on the pressure port (CG1 trace) [m/s]"
                        }
                        _ => "pressure on the velocity port (DG0 trace) [Pa]",
                    },
                    g.ncols(),
                    2,
                ));
                lam += g.ncols();
                col += g.ncols();
            }
        }
        let system = LinearPhSystem::new(
            te.build(),
            tj.build(),
            {
                let mut tr = Triplets::new(n_total, n_total);
                tr.push_block(0, 0, &dofs.restrict(&R_full), 1.0);
                tr.build()
            },
            tb.build(),
            PortSet::from_ports(ports)?,
            blocks,
        )?;
        Ok(AcousticModel {
            params: p,
            causality: self.causality,
            geometry: self.geometry,
            mesh: self.mesh.clone(),
            spaces,
            system,
            n_p,
            n_u,
            dofs,
            n_lambda,
            port_traces: port_info,
        })
    }
}

/// Integration weight: 1 (planar) or $r = y$ (axisymmetric).
#[derive(Debug, Clone, Copy)]
struct Weight(Geometry);

impl Weight {
    #[inline]
    fn at(&self, x: [f64; 2]) -> f64 {
        match self.0 {
            Geometry::Planar => 1.0,
            Geometry::Axisymmetric => x[1],
        }
    }
    /// The extra term of $w\operatorname{div}_r\mathbf v$: $v_r$ (axisymmetric) or 0.
    #[inline]
    fn radial_term(&self, v: [f64; 2]) -> f64 {
        match self.0 {
            Geometry::Planar => 0.0,
            Geometry::Axisymmetric => v[1],
        }
    }
}

#[inline]
fn map(c: &[[f64; 2]; 3], xh: [f64; 2]) -> [f64; 2] {
    [
        c[0][0] + xh[0] * (c[1][0] - c[0][0]) + xh[1] * (c[2][0] - c[0][0]),
        c[0][1] + xh[0] * (c[1][1] - c[0][1]) + xh[1] * (c[2][1] - c[0][1]),
    ]
}

/// Gradients of the three barycentric coordinates of a triangle.
fn p1_gradients(c: &[[f64; 2]; 3], area: f64) -> [[f64; 2]; 3] {
    let mut g = [[0.0; 2]; 3];
    for (i, gi) in g.iter_mut().enumerate() {
        let (a, b) = (c[(i + 1) % 3], c[(i + 2) % 3]);
        // ∇λ_i = (b − a)^⊥ / (2|T|), pointing towards vertex i
        *gi = [(a[1] - b[1]) / (2.0 * area), (b[0] - a[0]) / (2.0 * area)];
    }
    g
}

/// A trace basis on a port: coupling to the open state, trace mass, DOF points.
struct Trace {
    coupling: SparseMat,
    mass: SparseMat,
    points: Vec<[f64; 2]>,
    /// Open-state row of the field DOF whose trace is column `l` ($CG_1$: the vertex).
    vertex_of_col: Vec<usize>,
}

/// $CG_1$ trace on `edges`: columns = vertices of the edges (sorted by global index);
/// coupling $\langle\phi_p^i, \psi^l\rangle_{\Gamma,w}$ (rows = $p$ DOFs = vertices).
fn cg1_trace(
    m: &Mesh2d,
    edges: &[BoundaryEdge],
    w: Weight,
    n_full: usize,
) -> Result<Trace, Fem2dError> {
    let mut verts: Vec<usize> = edges.iter().flat_map(|b| m.edges()[b.edge]).collect();
    verts.sort_unstable();
    verts.dedup();
    let col = |v: usize| verts.binary_search(&v).unwrap_or(0);
    let nb = verts.len();
    // ψ_a ψ_b w with w linear: degree 3
    let gl = GaussLegendre::exact_for_degree(3)?;
    let mut tg = Triplets::new(n_full, nb);
    let mut tm = Triplets::new(nb, nb);
    for b in edges {
        let [va, vb] = m.edges()[b.edge];
        let (pa, pb) = (m.vertices()[va], m.vertices()[vb]);
        let len = m.edge_length(b.edge);
        let mut loc = [[0.0; 2]; 2];
        for (&s, &wq) in gl.points.iter().zip(&gl.weights) {
            let x = [pa[0] + s * (pb[0] - pa[0]), pa[1] + s * (pb[1] - pa[1])];
            let f = wq * len * w.at(x);
            let psi = [1.0 - s, s];
            for i in 0..2 {
                for j in 0..2 {
                    loc[i][j] += f * psi[i] * psi[j];
                }
            }
        }
        let vs = [va, vb];
        for i in 0..2 {
            for j in 0..2 {
                // φ_p of vertex vs[i] restricted to the edge is ψ of that vertex
                tg.push(vs[i], col(vs[j]), loc[i][j]);
                tm.push(col(vs[i]), col(vs[j]), loc[i][j]);
            }
        }
    }
    Ok(Trace {
        coupling: tg.build(),
        mass: tm.build(),
        points: verts.iter().map(|&v| m.vertices()[v]).collect(),
        vertex_of_col: verts,
    })
}

/// $DG_0$ trace on `edges` (one column per edge, in tag order): coupling
/// $-\langle\boldsymbol\phi_u^j\cdot\mathbf n, 1\rangle_{e,w}$ (rows = RT DOFs at offset
/// `n_p`; $\mathbf n$ outward), mass $\int_e w$.
fn dg0_trace(
    rt: &RtSpace,
    edges: &[BoundaryEdge],
    w: Weight,
    n_full: usize,
    n_p: usize,
) -> Result<Trace, Fem2dError> {
    let m = rt.mesh();
    let gl = GaussLegendre::exact_for_degree(1)?;
    let mut tg = Triplets::new(n_full, edges.len());
    let mut tm = Triplets::new(edges.len(), edges.len());
    let mut points = Vec::with_capacity(edges.len());
    for (k, b) in edges.iter().enumerate() {
        let [va, vb] = m.edges()[b.edge];
        let (pa, pb) = (m.vertices()[va], m.vertices()[vb]);
        let len = m.edge_length(b.edge);
        // ∫_e w ds (w linear: midpoint rule exact)
        let wint: f64 = gl
            .points
            .iter()
            .zip(&gl.weights)
            .map(|(&s, &wq)| {
                wq * len * w.at([pa[0] + s * (pb[0] - pa[0]), pa[1] + s * (pb[1] - pa[1])])
            })
            .sum();
        // the only RT basis function with a normal trace on e is that of e: φ·n_e = 1/|e|;
        // outward n = ±n_e
        let n_out = m.outward_normal(b);
        let ng = rt.global_normal(b.edge);
        let sign = if n_out[0] * ng[0] + n_out[1] * ng[1] > 0.0 {
            1.0
        } else {
            -1.0
        };
        tg.push(n_p + b.edge, k, -sign * wint / len);
        tm.push(k, k, wint);
        points.push(m.edge_midpoint(b.edge));
    }
    Ok(Trace {
        coupling: tg.build(),
        mass: tm.build(),
        points,
        vertex_of_col: edges.iter().map(|b| n_p + b.edge).collect(),
    })
}

/// The points of a port's trace basis (vertices for $CG_1$, edge midpoints for $DG_0$).
#[derive(Debug, Clone)]
pub struct PortTrace {
    /// Port name (= tag).
    pub name: String,
    /// Point of each input coefficient: interpolating a boundary field at these points
    /// gives the input vector.
    pub points: Vec<[f64; 2]>,
}

/// An assembled acoustic model.
#[derive(Debug, Clone)]
pub struct AcousticModel {
    params: AcousticParams,
    causality: Causality,
    geometry: Geometry,
    mesh: Mesh2d,
    spaces: Spaces,
    system: LinearPhSystem,
    n_p: usize,
    n_u: usize,
    dofs: Restriction,
    n_lambda: usize,
    port_traces: Vec<PortTrace>,
}

impl AcousticModel {
    /// The pH system (blocks `e_p`, `e_u`, then `lambda_{tag}` multipliers).
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// Consumes the model, returning its system.
    pub fn into_system(self) -> LinearPhSystem {
        self.system
    }
    /// Material data.
    pub fn params(&self) -> &AcousticParams {
        &self.params
    }
    /// The causality.
    pub fn causality(&self) -> Causality {
        self.causality
    }
    /// The geometry.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }
    /// The mesh.
    pub fn mesh(&self) -> &Mesh2d {
        &self.mesh
    }
    /// The $RT_1$ velocity space (DivDiv only).
    pub fn rt_space(&self) -> Option<&RtSpace> {
        self.spaces.rt.as_ref()
    }
    /// Number of states (after strong conditions, including multipliers).
    pub fn n_states(&self) -> usize {
        self.dofs.len() + self.n_lambda
    }
    /// The trace-basis points of port `name`.
    pub fn port_trace(&self, name: &str) -> Result<&PortTrace, Fem2dError> {
        self.port_traces
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| Fem2dError::UnknownTag {
                tag: name.into(),
                available: join_names(self.port_traces.iter().map(|p| p.name.as_str())),
            })
    }
    /// Input vector of port `name` interpolating the boundary field `f` at its trace points.
    pub fn port_input(
        &self,
        name: &str,
        f: &dyn Fn([f64; 2]) -> f64,
    ) -> Result<Vec<f64>, Fem2dError> {
        Ok(self
            .port_trace(name)?
            .points
            .iter()
            .map(|&x| f(x))
            .collect())
    }

    /// Open-state coefficients: pressure ($CG_1$ nodal values or $DG_0$ cell averages of
    /// `p`) and velocity ($DG_0$ cell averages, components x-major, or $RT_1$ edge fluxes).
    /// Returns the model state (removed DOFs dropped, multipliers zero).
    pub fn project(
        &self,
        p: &dyn Fn([f64; 2]) -> f64,
        u: &dyn Fn([f64; 2]) -> [f64; 2],
    ) -> Result<Vec<f64>, Fem2dError> {
        let m = &self.mesh;
        let q = TriangleQuadrature::exact_for_degree(5)?;
        let avg = |t: usize, f: &dyn Fn([f64; 2]) -> [f64; 2]| {
            let c = m.cell_coords(t);
            let mut s = [0.0; 2];
            for (xh, &w) in q.points.iter().zip(&q.weights) {
                let v = f(map(&c, *xh));
                s[0] += 2.0 * w * v[0];
                s[1] += 2.0 * w * v[1];
            }
            s
        };
        let mut full = vec![0.0; self.n_p + self.n_u];
        if self.spaces.p_cg1 {
            for (i, v) in m.vertices().iter().enumerate() {
                full[i] = p(*v);
            }
        } else {
            for (t, v) in full.iter_mut().enumerate().take(m.n_cells()) {
                *v = avg(t, &|x| [p(x), 0.0])[0];
            }
        }
        match &self.spaces.rt {
            None => {
                let nc = m.n_cells();
                for t in 0..nc {
                    let a = avg(t, u);
                    full[self.n_p + t] = a[0];
                    full[self.n_p + nc + t] = a[1];
                }
            }
            Some(rt) => {
                let flux = rt.interpolate(u);
                full[self.n_p..].copy_from_slice(&flux);
            }
        }
        let (p, u) = full.split_at(self.n_p);
        self.dofs.state(
            &[("pressure", Some(p)), ("velocity", Some(u))],
            self.n_states(),
        )
    }

    /// Open-state pressure and velocity coefficient vectors of a state (removed DOFs zero).
    pub fn fields(&self, e: &[f64]) -> Result<(Vec<f64>, Vec<f64>), Fem2dError> {
        let n = self.n_states();
        Ok((
            self.dofs.field(e, n, 0, "acoustic state")?,
            self.dofs.field(e, n, 1, "acoustic state")?,
        ))
    }

    /// Model state from open-state pressure and velocity coefficients (as returned by
    /// [`Self::fields`] of a model on the same mesh and causality): DOFs removed by strong
    /// conditions are dropped, multipliers start at zero. Transfers a state between two
    /// models that differ only in their boundary conditions (e.g. a switched impedance).
    pub fn state_from_fields(&self, p: &[f64], u: &[f64]) -> Result<Vec<f64>, Fem2dError> {
        self.dofs.state(
            &[("pressure", Some(p)), ("velocity", Some(u))],
            self.n_states(),
        )
    }

    /// Velocity at the point `x` of cell `t` from open-state velocity coefficients.
    fn velocity_in_cell(&self, u: &[f64], t: usize, x: [f64; 2]) -> [f64; 2] {
        match &self.spaces.rt {
            None => [u[t], u[self.mesh.n_cells() + t]],
            Some(rt) => rt.eval_in_cell(u, t, x),
        }
    }

    /// Pressure and velocity of state `e` at the point `x` (first cell containing it,
    /// barycentric tolerance $10^{-12}$).
    pub fn evaluate(&self, e: &[f64], x: [f64; 2]) -> Result<(f64, [f64; 2]), Fem2dError> {
        let (p, u) = self.fields(e)?;
        let m = &self.mesh;
        for t in 0..m.n_cells() {
            let c = m.cell_coords(t);
            let area = m.area(t);
            let lam: Vec<f64> = (0..3)
                .map(|i| {
                    crate::mesh::triangle::signed_area(x, c[(i + 1) % 3], c[(i + 2) % 3]) / area
                })
                .collect();
            if lam.iter().all(|&l| l >= -1e-12) {
                let tri = m.triangles()[t];
                let pv = if self.spaces.p_cg1 {
                    (0..3).map(|i| p[tri[i]] * lam[i]).sum()
                } else {
                    p[t]
                };
                return Ok((pv, self.velocity_in_cell(&u, t, x)));
            }
        }
        Err(Fem2dError::PointOutsideMesh { x })
    }

    /// Energy split $(H_p, H_{u_x}, H_{u_y})$ with $H_p = \tfrac12\int\chi_s p^2 w$,
    /// $H_{u_x} = \tfrac12\int\mu_0u_x^2w$, $H_{u_y} = \tfrac12\int\mu_0u_y^2w$ (axisymmetric:
    /// axial and radial kinetic energies of thesis Table 8.4). Their sum is
    /// $\tfrac12e^\top Ee$.
    pub fn energy_split(&self, e: &[f64]) -> Result<[f64; 3], Fem2dError> {
        let (p, u) = self.fields(e)?;
        let m = &self.mesh;
        let w = Weight(self.geometry);
        let q = TriangleQuadrature::exact_for_degree(3)?;
        let mut out = [0.0; 3];
        for t in 0..m.n_cells() {
            let c = m.cell_coords(t);
            let tri = m.triangles()[t];
            let area = m.area(t);
            for (xh, &wq) in q.points.iter().zip(&q.weights) {
                let x = map(&c, *xh);
                let f = 0.5 * wq * 2.0 * area * w.at(x);
                let pv = if self.spaces.p_cg1 {
                    p[tri[0]] * (1.0 - xh[0] - xh[1]) + p[tri[1]] * xh[0] + p[tri[2]] * xh[1]
                } else {
                    p[t]
                };
                let v = self.velocity_in_cell(&u, t, x);
                out[0] += f * self.params.chi * pv * pv;
                out[1] += f * self.params.mu * v[0] * v[0];
                out[2] += f * self.params.mu * v[1] * v[1];
            }
        }
        Ok(out)
    }
}
