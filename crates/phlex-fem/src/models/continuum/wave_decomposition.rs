//! Axisymmetric vibroacoustics in a duct under mixed boundary conditions: the DAE method
//! (Lagrange multiplier on the Dirichlet wall) and the ODE method (virtual domain
//! decomposition with a gyrator), thesis 004 §8.2.2, eqs. (8.31)–(8.41), Table 8.4
//! (summary §5.4 "Axisymmetric vibroacoustics in a duct").
//!
//! **Problem** (8.31)–(8.33). Acoustics in the meridian half-plane
//! $\Omega_r = [0, L]\times[0, R]$ (mesh coordinates $(x, r)$, every integral weighted by
//! $r$, the factor $2\pi$ omitted as in the thesis; see [`crate::models::continuum::wave`]):
//! * $\Gamma_N$: inflow $e_v^x = f(r) = v_0(1 - r^2/R^2)$ at $x = 0$ and $x = L$ (inward
//!   normal velocity $+f$ at $x = 0$, $-f$ at $x = L$), symmetry $e_v^r = 0$ at $r = 0$;
//! * $\Gamma_D$ = the wall $r = R$: $e_p = \mathcal Z(x, t)\,\mathbf e_v\cdot\mathbf n$ with
//!   $\mathcal Z = \mu_0 c_0$ on $L/3 \le x \le 2L/3$ for $t \ge t_s = 0.2\,t_{end}$ and
//!   $\mathcal Z = 0$ (pressure release) elsewhere — Dirichlet-type since $\mathcal Z$ is
//!   not invertible. (The thesis prints $e_p = -\mathcal Z e_v^r$ together with
//!   $\dot H = \langle e_p, \mathbf e_v\cdot\mathbf n\rangle_{\partial}$; with the sign of
//!   $\dot H = -\langle e_p, \mathbf e_v\cdot\mathbf n\rangle_\partial$ that follows from
//!   (8.31) the dissipative impedance is $e_p = +\mathcal Z\,\mathbf e_v\cdot\mathbf n$, so
//!   $\dot H = -\int\mathcal Z (e_v^r)^2 R\,dx \le 0$ as the thesis states.)
//! * initial state (8.30): $e_p = 0$, $\mathbf e_v = (f(r), g(r))$,
//!   $g(r) = 16 v_0 r^2(R - r)^2/R^4$; $H_{vx}^0 = \mu_0 L R^2 v_0^2/12 = 0.204$ J,
//!   $H_{vr}^0 = \tfrac12\mu_0 L\int_0^R g^2 r\,dr = 0.249$ J ([`DuctParams::initial_energies`]).
//!
//! **Mesh** ([`DuctMesh`]): structured, $h = R/n$, $n_x = nL/R$ columns; cells left of
//! $x = L/2$ are split by their "\\" diagonal, cells right of it by their "/" diagonal, so
//! that the trapezoidal interface of thesis Fig. 8.14 consists of mesh edges: it runs from
//! $(0, R)$ down at 45° to $r_{int} = \lceil n/2\rceil R/n$ ($= R/2$ for even $n$, the
//! value of the thesis scripts), along $r = r_{int}$, and up at 45° to $(L, R)$. The upper
//! trapezoid is $\Omega_D$ (it carries the whole wall $\Gamma_D$), the rest $\Omega_N$ (both
//! inflow sections and the axis).
//!
//! **DAE method** ([`VibroDae`], eqs. (8.34)–(8.36)): one model on $\Omega_r$, $e_p\in CG_1$,
//! $\mathbf e_v\in RT_1$ with the grad weak form ([`Causality::Cg1Rt1Neumann`]), the wall
//! condition by a $CG_1$ multiplier $\lambda_D$ (the inward normal velocity,
//! [`AcousticBc::PressurePort`]): the multiplier row reads
//! $0 = -G^\top e_p - M_{\Gamma_D,\mathcal Z}\lambda_D$, i.e. the impedance enters as the
//! dissipation $R_{\lambda\lambda} = M_{\Gamma_D,\mathcal Z} =
//! \langle\psi_a, \mathcal Z\psi_b\rangle_{\Gamma_D, r}$ ⪰ 0 in the (3,3) block of (8.36);
//! before $t_s$ the block is zero ($e_p = 0$ weakly on the whole wall). The Neumann data
//! enter through the single port `inflow` with input $v_0$ and
//! $B = b_N = \langle\phi_p, \hat f\rangle_{x=0, r} - \langle\phi_p, \hat f\rangle_{x=L, r}$,
//! $\hat f = 1 - r^2/R^2$ (exact quadrature).
//!
//! **ODE method** ([`VibroOde`], eqs. (8.37)–(8.41)): $\Omega_N$ in the grad form
//! ($CG_1\times RT_1$, [`Causality::Cg1Rt1Neumann`], Neumann causality: the interface input
//! is the inward normal velocity), $\Omega_D$ in the div form with $DG_0\times RT_1$
//! ([`Causality::DivDiv`], Dirichlet causality: pressure inputs; the pressure-release part
//! of the wall is natural). The thesis pairs $CG_1\times RT_1$ in $\Omega_D$ as well, but
//! with the lowest-order $RT_1$ the div form has spurious modes (see
//! [`Causality::Cg1Rt1Neumann`]); the thesis scripts actually use second-order RT there.
//! The interface trace space is $DG_0$ on the interface edges (the normal traces of
//! $RT_1$): $\Omega_N$ gets the port `interface` with
//! $B^{\Omega_N}_{\Gamma_{int}} = \langle\phi_p, 1_e\rangle_{e, r}$ (input: inward velocity
//! per edge, output: pressure moments), $\Omega_D$ the pressure port of [`crate::models::continuum::wave`]
//! (input: pressure per edge, output: inward-velocity moments). Continuity of pressure and
//! $\mathbf n_D = -\mathbf n_N$ give the gyrator (8.39) with the Riesz map of the trace
//! space, $u_N^{int} = -M_{\Gamma_{int}}^{-1}y_D^{int}$,
//! $u_D^{int} = M_{\Gamma_{int}}^{-1}y_N^{int}$, $M_{\Gamma_{int}} = \operatorname{diag}
//! \int_e r\,ds$ ([`phlex_core::interconnect::gyrator`] with $C = M_{\Gamma_{int}}^{-1}$),
//! so $J$ gains the skew block $C = B^{\Omega_N}_{int}M^{-1}B^{\Omega_D\top}_{int}$ of (8.40).
//! Because $DG_0$ contains the $RT_1$ normal traces this coupling is exact (no projection
//! error at the interface). The impedance is the dissipation (8.41)
//! $R_{\Omega_D} = B_{\Gamma_D} M_{\Gamma_D}^{-1} M_{\Gamma_D,\mathcal Z} M_{\Gamma_D}^{-1}
//! B_{\Gamma_D}^\top$, which for $DG_0$ wall traces is diagonal:
//! $R_{ee} = \int_{e}\mathcal Z r\,ds/|e|^2$. The result is a pH ODE ($E$ SPD, no
//! multipliers).
//!
//! Both models expose two systems (impedance off / on, switched at $t_s$), the constant
//! input $v_0$, the projected initial state, the energy split and point evaluation
//! ([`VibroacousticDuct`]); [`relative_state_errors`] measures $L^2(r)$ errors against a
//! reference on another mesh. Time integration is left to the caller (e.g.
//! `phlex_solve::midpoint::LinearMidpoint` on each of the two intervals).
use crate::error::{require_count, require_len, Fem2dError};
use crate::error::{require_positive, FemError};
use crate::mesh::triangle::{signed_area, Mesh2d};
use crate::models::continuum::wave::{
    AcousticBc, AcousticModel, AcousticParams, Acoustics, Causality,
};
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::triangle::TriangleQuadrature;
use phlex_core::interconnect::Composite;
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};

/// Data of the duct experiment (thesis Table 8.4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DuctParams {
    /// Duct length $L$ \[m\].
    pub length: f64,
    /// Duct radius $R$ \[m\].
    pub radius: f64,
    /// Fluid: compressibility $\chi_s$ and density $\mu_0$.
    pub acoustic: AcousticParams,
    /// Inflow velocity scale $v_0$ \[m/s\].
    pub v0: f64,
    /// Wall impedance $\mathcal Z$ on the lined part \[Pa s/m\].
    pub impedance: f64,
    /// Axial extent $[x_1, x_2]$ of the lined part of the wall \[m\].
    pub lined: (f64, f64),
    /// Time $t_s$ at which the impedance is switched on \[s\].
    pub t_switch: f64,
    /// Final time $t_{end}$ \[s\].
    pub t_end: f64,
}

impl DuctParams {
    /// Thesis Table 8.4: $L = 2$, $R = 1$, $\mu_0 = 1.225$, $c_0 = 340$
    /// ($\chi_s = 7.061\cdot10^{-6}$ Pa⁻¹), $v_0 = 1$, $\mathcal Z = \mu_0c_0$ on
    /// $[L/3, 2L/3]$ from $t_s = 0.2\,t_{end}$, $t_{end} = 0.1$ s.
    pub fn table_8_4() -> Self {
        let (mu, c0, len) = (1.225, 340.0, 2.0);
        Self {
            length: len,
            radius: 1.0,
            acoustic: AcousticParams {
                chi: 1.0 / (mu * c0 * c0),
                mu,
            },
            v0: 1.0,
            impedance: mu * c0,
            lined: (len / 3.0, 2.0 * len / 3.0),
            t_switch: 0.02,
            t_end: 0.1,
        }
    }

    /// Checks positivity of the data and $0 \le x_1 < x_2 \le L$, $0 \le t_s < t_{end}$.
    pub fn validate(&self) -> Result<(), FemError> {
        require_positive("length", self.length)?;
        require_positive("radius", self.radius)?;
        self.acoustic.validate()?;
        if !(self.v0.is_finite()) {
            return Err(FemError::InvalidParameter {
                name: "v0".into(),
                value: self.v0,
                requirement: "finite".into(),
            });
        }
        if !(self.impedance >= 0.0 && self.impedance.is_finite()) {
            return Err(FemError::InvalidParameter {
                name: "impedance".into(),
                value: self.impedance,
                requirement: "0 <= impedance < inf".into(),
            });
        }
        let (a, b) = self.lined;
        if !(a >= 0.0 && a < b && b <= self.length) {
            return Err(FemError::InvalidParameter {
                name: "lined.0 (start of the lined wall part)".into(),
                value: a,
                requirement: format!("0 <= lined.0 < lined.1 = {b} <= length = {}", self.length),
            });
        }
        if !(self.t_switch >= 0.0 && self.t_switch < self.t_end && self.t_end.is_finite()) {
            return Err(FemError::InvalidParameter {
                name: "t_switch".into(),
                value: self.t_switch,
                requirement: format!("0 <= t_switch < t_end = {}", self.t_end),
            });
        }
        Ok(())
    }

    /// Axial inflow profile $f(r) = v_0(1 - r^2/R^2)$ \[m/s\].
    pub fn axial_profile(&self, r: f64) -> f64 {
        self.v0 * (1.0 - r * r / (self.radius * self.radius))
    }

    /// Initial radial velocity $g(r) = 16 v_0 r^2 (R - r)^2 / R^4$ \[m/s\].
    pub fn radial_profile(&self, r: f64) -> f64 {
        16.0 * self.v0 * r * r * (self.radius - r).powi(2) / self.radius.powi(4)
    }

    /// Exact initial energies $(H_v^0, H_{vx}^0, H_{vr}^0)$ \[J\] (without $2\pi$):
    /// $H_{vx}^0 = \tfrac12\mu_0 L\int_0^R f^2 r\,dr = \mu_0 L R^2 v_0^2/12$,
    /// $H_{vr}^0 = \tfrac12\mu_0 L\int_0^R g^2 r\,dr = 128\,\mu_0 L R^2 v_0^2\,B(6, 5)$ with
    /// $B(6,5) = 5!\,4!/10!$. Table 8.4 data: 0.453, 0.204, 0.249 J.
    pub fn initial_energies(&self) -> [f64; 3] {
        let s = self.acoustic.mu * self.length * self.radius.powi(2) * self.v0 * self.v0;
        let hx = s / 12.0;
        let hr = 128.0 * s * (120.0 * 24.0 / 3_628_800.0);
        [hx + hr, hx, hr]
    }

    /// The part $[lo, hi]$ of the axial interval between `xa` and `xb` that lies on the lined
    /// wall (empty if $hi \le lo$); $\mathcal Z$ is non-zero only there.
    fn lined_length(&self, xa: f64, xb: f64) -> (f64, f64) {
        let (lo, hi) = if xa <= xb { (xa, xb) } else { (xb, xa) };
        (lo.max(self.lined.0), hi.min(self.lined.1))
    }
}

/// Which sub-domain of the virtual decomposition a cell belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubDomain {
    /// $\Omega_N$: inflow sections and axis (Neumann-type boundary).
    Neumann,
    /// $\Omega_D$: the upper trapezoid carrying the wall (Dirichlet-type boundary).
    Dirichlet,
}

/// Structured duct mesh with the trapezoidal decomposition (module docs).
#[derive(Debug, Clone)]
pub struct DuctMesh {
    mesh: Mesh2d,
    n: usize,
    nx: usize,
    j_int: usize,
    dx: f64,
    dr: f64,
    length: f64,
    radius: f64,
}

impl DuctMesh {
    /// Mesh of $[0, L]\times[0, R]$ with $n$ cells along $R$ ($h = R/n$) and
    /// $n_x = \operatorname{round}(nL/R)$ along $L$, boundary tags `left` ($x = 0$), `right`
    /// ($x = L$), `axis` ($r = 0$), `wall` ($r = R$). Requires $n \ge 2$ and a duct long
    /// enough for the two 45° interface legs ($n_x \ge 2(n - \lceil n/2\rceil)$).
    pub fn new(params: &DuctParams, n: usize) -> Result<Self, Fem2dError> {
        params.validate()?;
        require_count("n (cells along the radius)", n, 2)?;
        let (len, rad) = (params.length, params.radius);
        let nx = ((n as f64) * len / rad).round().max(1.0) as usize;
        let j_int = n.div_ceil(2);
        if nx < 2 * (n - j_int) {
            return Err(FemError::InvalidParameter {
                name: "length / radius".into(),
                value: len / rad,
                requirement: format!(
                    "the trapezoidal interface needs n_x = {nx} >= 2 (n - ceil(n/2)) = {} columns \
                     (use a longer duct or a finer mesh)",
                    2 * (n - j_int)
                ),
            }
            .into());
        }
        let (dx, dr) = (len / nx as f64, rad / n as f64);
        let id = |i: usize, j: usize| j * (nx + 1) + i;
        let mut vertices = Vec::with_capacity((nx + 1) * (n + 1));
        for j in 0..=n {
            for i in 0..=nx {
                vertices.push([i as f64 * dx, j as f64 * dr]);
            }
        }
        let mut triangles = Vec::with_capacity(2 * nx * n);
        for j in 0..n {
            for i in 0..nx {
                let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
                if 2 * i < nx {
                    // "\" diagonal d–b
                    triangles.push([a, b, d]);
                    triangles.push([b, c, d]);
                } else {
                    // "/" diagonal a–c
                    triangles.push([a, b, c]);
                    triangles.push([a, c, d]);
                }
            }
        }
        let mut mesh = Mesh2d::new(vertices, triangles)?;
        let tol = 1e-9 * rad.max(len);
        mesh.tag_boundary("left", |x| x[0] < tol)?;
        mesh.tag_boundary("right", |x| x[0] > len - tol)?;
        mesh.tag_boundary("axis", |x| x[1] < tol)?;
        mesh.tag_boundary("wall", |x| x[1] > rad - tol)?;
        Ok(Self {
            mesh,
            n,
            nx,
            j_int,
            dx,
            dr,
            length: len,
            radius: rad,
        })
    }

    /// The full mesh (tags `left`, `right`, `axis`, `wall`).
    pub fn mesh(&self) -> &Mesh2d {
        &self.mesh
    }
    /// Cells along the radius ($h = R/n$).
    pub fn n(&self) -> usize {
        self.n
    }
    /// Radius $r_{int}$ of the horizontal part of the interface.
    pub fn interface_radius(&self) -> f64 {
        self.j_int as f64 * self.dr
    }

    /// Sub-domain of cell `t` (by its centroid, module docs).
    pub fn subdomain(&self, t: usize) -> SubDomain {
        let c = self.mesh.cell_coords(t);
        let ci = (c[0][0] + c[1][0] + c[2][0]) / (3.0 * self.dx);
        let cj = (c[0][1] + c[1][1] + c[2][1]) / (3.0 * self.dr);
        let leg = ci.min(self.nx as f64 - ci);
        if cj > self.j_int as f64 && cj + leg > self.n as f64 {
            SubDomain::Dirichlet
        } else {
            SubDomain::Neumann
        }
    }

    /// The cell containing `x` (points on shared edges go to either cell); `None` outside.
    pub fn locate(&self, x: [f64; 2]) -> Option<usize> {
        let eps = 1e-12;
        let (si, sj) = (x[0] / self.dx, x[1] / self.dr);
        if !(si >= -eps && si <= self.nx as f64 + eps && sj >= -eps && sj <= self.n as f64 + eps) {
            return None;
        }
        let i = (si.floor().max(0.0) as usize).min(self.nx - 1);
        let j = (sj.floor().max(0.0) as usize).min(self.n - 1);
        let (xi, eta) = (si - i as f64, sj - j as f64);
        let upper = if 2 * i < self.nx {
            xi + eta > 1.0
        } else {
            eta > xi
        };
        Some(2 * (j * self.nx + i) + usize::from(upper))
    }

    /// Sub-mesh of the cells of `which`, with its vertex and cell maps to the full mesh.
    fn submesh(&self, which: SubDomain) -> Result<SubMesh, Fem2dError> {
        let m = &self.mesh;
        let cells: Vec<usize> = (0..m.n_cells())
            .filter(|&t| self.subdomain(t) == which)
            .collect();
        let mut local = vec![usize::MAX; m.n_vertices()];
        let mut verts: Vec<usize> = cells.iter().flat_map(|&t| m.triangles()[t]).collect();
        verts.sort_unstable();
        verts.dedup();
        for (k, &v) in verts.iter().enumerate() {
            local[v] = k;
        }
        let tris = cells
            .iter()
            .map(|&t| m.triangles()[t].map(|v| local[v]))
            .collect();
        let mut sub = Mesh2d::new(verts.iter().map(|&v| m.vertices()[v]).collect(), tris)?;
        let tol = 1e-9 * self.radius.max(self.length);
        let (len, rad) = (self.length, self.radius);
        let outer =
            move |x: [f64; 2]| x[0] < tol || x[0] > len - tol || x[1] < tol || x[1] > rad - tol;
        match which {
            SubDomain::Neumann => {
                sub.tag_boundary("left", |x| x[0] < tol)?;
                sub.tag_boundary("right", |x| x[0] > len - tol)?;
                sub.tag_boundary("axis", |x| x[1] < tol)?;
            }
            SubDomain::Dirichlet => {
                sub.tag_boundary("wall", |x| x[1] > rad - tol)?;
            }
        }
        sub.tag_boundary("interface", |x| !outer(x))?;
        Ok(SubMesh {
            mesh: sub,
            vertex_global: verts,
            cell_global: cells,
        })
    }
}

/// A sub-mesh with maps of its vertices and cells to the full mesh.
#[derive(Debug, Clone)]
struct SubMesh {
    mesh: Mesh2d,
    vertex_global: Vec<usize>,
    cell_global: Vec<usize>,
}

/// One acoustic model on (part of) the duct, with the map from its open DOFs (pressure
/// DOFs, then RT edges) to its state indices.
#[derive(Debug, Clone)]
struct Part {
    model: AcousticModel,
    /// State index of each open DOF (`usize::MAX` if removed by a strong condition).
    state_of: Vec<usize>,
    /// Offset of this part's states in the coupled state.
    offset: usize,
    n_p: usize,
}

impl Part {
    fn new(model: AcousticModel, offset: usize) -> Result<Self, Fem2dError> {
        let m = model.mesh();
        let n_p = match model.causality() {
            Causality::DivDiv => m.n_cells(),
            _ => m.n_vertices(),
        };
        let n_u = match model.rt_space() {
            Some(rt) => rt.n_dofs(),
            None => 2 * m.n_cells(),
        };
        // label every open DOF by (index + 1) and read where it lands in the state
        let p: Vec<f64> = (0..n_p).map(|i| (i + 1) as f64).collect();
        let u: Vec<f64> = (0..n_u).map(|i| (n_p + i + 1) as f64).collect();
        let e = model.state_from_fields(&p, &u)?;
        let mut state_of = vec![usize::MAX; n_p + n_u];
        for (s, &v) in e.iter().enumerate() {
            if v > 0.0 {
                state_of[v as usize - 1] = s;
            }
        }
        Ok(Self {
            model,
            state_of,
            offset,
            n_p,
        })
    }

    fn n_states(&self) -> usize {
        self.model.n_states()
    }

    /// Coupled-state index of pressure DOF `i`.
    fn p_state(&self, i: usize) -> Result<usize, Fem2dError> {
        match self.state_of.get(i) {
            Some(&s) if s != usize::MAX && i < self.n_p => Ok(self.offset + s),
            _ => Err(internal(format!("pressure DOF {i} has no state"))),
        }
    }

    /// Coupled-state index of the RT DOF of edge `e`.
    fn u_state(&self, e: usize) -> Result<usize, Fem2dError> {
        match self.state_of.get(self.n_p + e) {
            Some(&s) if s != usize::MAX => Ok(self.offset + s),
            _ => Err(internal(format!("RT DOF of edge {e} has no state"))),
        }
    }

    fn slice<'e>(&self, e: &'e [f64]) -> &'e [f64] {
        &e[self.offset..self.offset + self.n_states()]
    }
}

fn internal(msg: String) -> Fem2dError {
    FemError::LinAlg(format!("vibroacoustic duct assembly: {msg}")).into()
}

/// $\int_e \phi_a \hat f\, r\,ds$ for the two end vertices of a vertical inflow edge.
fn inflow_moments(params: &DuctParams, pa: [f64; 2], pb: [f64; 2]) -> Result<[f64; 2], Fem2dError> {
    // φ (linear) × f̂ (quadratic) × r (linear): degree 4
    let gl = GaussLegendre::exact_for_degree(4)?;
    let len = ((pb[0] - pa[0]).powi(2) + (pb[1] - pa[1]).powi(2)).sqrt();
    let mut out = [0.0; 2];
    for (&s, &w) in gl.points.iter().zip(&gl.weights) {
        let r = pa[1] + s * (pb[1] - pa[1]);
        let f_hat = 1.0 - r * r / (params.radius * params.radius);
        let fw = w * len * r * f_hat;
        out[0] += fw * (1.0 - s);
        out[1] += fw * s;
    }
    Ok(out)
}

/// The inflow column $b_N$ (rows: state of each pressure vertex of `part`, whose mesh has
/// tags `left`/`right` and a $CG_1$ pressure).
fn inflow_column(
    params: &DuctParams,
    part: &Part,
    n_total: usize,
) -> Result<SparseMat, Fem2dError> {
    let m = part.model.mesh();
    let mut t = Triplets::new(n_total, 1);
    for (tag, sign) in [("left", 1.0), ("right", -1.0)] {
        for b in m.tagged_edges(tag)? {
            let [va, vb] = m.edges()[b.edge];
            let mom = inflow_moments(params, m.vertices()[va], m.vertices()[vb])?;
            t.push(part.p_state(va)?, 0, sign * mom[0]);
            t.push(part.p_state(vb)?, 0, sign * mom[1]);
        }
    }
    Ok(t.build())
}

fn inflow_port() -> Port {
    Port::new(
        "inflow",
        1,
        "inflow velocity scale v0 [m/s] (inward normal velocity +f at x = 0, -f at x = L)",
        "<p, f_hat>_{x=0} - <p, f_hat>_{x=L} (r-weighted) [Pa m²]",
    )
}

/// Common interface of the two discretizations of the duct.
pub trait VibroacousticDuct {
    /// The duct mesh.
    fn duct(&self) -> &DuctMesh;
    /// The data.
    fn params(&self) -> &DuctParams;
    /// The pH system with the impedance off ($t < t_s$) or on ($t \ge t_s$); port `inflow`.
    fn system(&self, impedance_on: bool) -> &LinearPhSystem;
    /// State of the fields `p` ($CG_1$: nodal values, $DG_0$: cell averages) and `u` ($RT_1$:
    /// edge fluxes), multipliers 0 (see [`AcousticModel::project`]).
    fn project(
        &self,
        p: &dyn Fn([f64; 2]) -> f64,
        u: &dyn Fn([f64; 2]) -> [f64; 2],
    ) -> Result<Vec<f64>, Fem2dError>;
    /// Initial state (8.30): $e_p = 0$, $\mathbf e_v = (f, g)$ projected by [`Self::project`];
    /// multipliers 0 (consistent: $g(R) = 0$).
    fn initial_state(&self) -> Result<Vec<f64>, Fem2dError> {
        let p = *self.params();
        self.project(&|_| 0.0, &|x| {
            [p.axial_profile(x[1]), p.radial_profile(x[1])]
        })
    }
    /// Energy split $(H_p, H_{vx}, H_{vr})$ \[J\] of a state.
    fn energy_split(&self, e: &[f64]) -> Result<[f64; 3], Fem2dError>;
    /// Point evaluator of the fields of state `e`.
    fn fields<'a>(&'a self, e: &[f64]) -> Result<DuctFields<'a>, Fem2dError>;
    /// Constant input of port `inflow`: $v_0$.
    fn input(&self) -> Vec<f64> {
        vec![self.params().v0]
    }
    /// Number of states.
    fn n_states(&self) -> usize {
        self.system(false).n_states()
    }
}

/// Pressure and velocity of one state, evaluable at points of the duct.
#[derive(Debug, Clone)]
pub struct DuctFields<'a> {
    duct: &'a DuctMesh,
    /// (model, open pressure coefficients, open velocity coefficients) per part.
    parts: Vec<(&'a AcousticModel, Vec<f64>, Vec<f64>)>,
    /// Global cell → (part, local cell).
    cell_map: &'a [(usize, usize)],
}

impl DuctFields<'_> {
    /// $(e_p, \mathbf e_v)$ at `x`; `None` outside the duct.
    pub fn at(&self, x: [f64; 2]) -> Option<(f64, [f64; 2])> {
        let t = self.duct.locate(x)?;
        let (k, lt) = self.cell_map[t];
        let (model, p, u) = &self.parts[k];
        let m = model.mesh();
        let pv = match model.causality() {
            Causality::DivDiv => p[lt],
            _ => {
                let c = m.cell_coords(lt);
                let tri = m.triangles()[lt];
                let area = m.area(lt);
                (0..3)
                    .map(|i| p[tri[i]] * signed_area(x, c[(i + 1) % 3], c[(i + 2) % 3]) / area)
                    .sum()
            }
        };
        let uv = match model.rt_space() {
            Some(rt) => rt.eval_in_cell(u, lt, x),
            None => [u[lt], u[m.n_cells() + lt]],
        };
        Some((pv, uv))
    }
}

/// Relative $L^2(r)$ errors of a state against a reference state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StateErrors {
    /// $\|p - p_{ref}\|/\|p_{ref}\|$.
    pub pressure: f64,
    /// $\|\mathbf v - \mathbf v_{ref}\|/\|\mathbf v_{ref}\|$.
    pub velocity: f64,
}

/// Squared $L^2(r)$ norms $(\|p - p_{ref}\|^2, \|p_{ref}\|^2, \|\mathbf v -
/// \mathbf v_{ref}\|^2, \|\mathbf v_{ref}\|^2)$ of state `e` (model `approx`) against
/// `e_ref` (model `reference`, usually on a finer mesh), by a degree-4 rule on the cells of
/// the reference mesh. Summing them over time samples gives space–time errors.
pub fn squared_state_differences(
    reference: &dyn VibroacousticDuct,
    e_ref: &[f64],
    approx: &dyn VibroacousticDuct,
    e: &[f64],
) -> Result<[f64; 4], Fem2dError> {
    let fr = reference.fields(e_ref)?;
    let fa = approx.fields(e)?;
    let m = reference.duct().mesh();
    let q = TriangleQuadrature::exact_for_degree(4)?;
    let mut s = [0.0; 4];
    for t in 0..m.n_cells() {
        let c = m.cell_coords(t);
        let area = m.area(t);
        for (xh, &w) in q.points.iter().zip(&q.weights) {
            let x = [
                c[0][0] + xh[0] * (c[1][0] - c[0][0]) + xh[1] * (c[2][0] - c[0][0]),
                c[0][1] + xh[0] * (c[1][1] - c[0][1]) + xh[1] * (c[2][1] - c[0][1]),
            ];
            let f = 2.0 * w * area * x[1];
            let (pr, vr) = fr.at(x).ok_or(Fem2dError::PointOutsideMesh { x })?;
            let (pa, va) = fa.at(x).ok_or(Fem2dError::PointOutsideMesh { x })?;
            s[0] += f * (pa - pr).powi(2);
            s[1] += f * pr * pr;
            s[2] += f * ((va[0] - vr[0]).powi(2) + (va[1] - vr[1]).powi(2));
            s[3] += f * (vr[0] * vr[0] + vr[1] * vr[1]);
        }
    }
    Ok(s)
}

impl StateErrors {
    /// Relative errors from accumulated squared norms (see [`squared_state_differences`]):
    /// $\varepsilon^p = (\sum\|\Delta p\|^2/\sum\|p_{ref}\|^2)^{1/2}$, likewise
    /// $\varepsilon^v$ (absolute if the reference norm vanishes).
    pub fn from_squares(s: [f64; 4]) -> Self {
        let rel = |d: f64, n: f64| if n > 0.0 { (d / n).sqrt() } else { d.sqrt() };
        Self {
            pressure: rel(s[0], s[1]),
            velocity: rel(s[2], s[3]),
        }
    }
}

/// Relative $L^2(r)$ errors $\varepsilon^p$, $\varepsilon^v$ of one state against a
/// reference state (thesis §8.2.2 error measures at one time).
pub fn relative_state_errors(
    reference: &dyn VibroacousticDuct,
    e_ref: &[f64],
    approx: &dyn VibroacousticDuct,
    e: &[f64],
) -> Result<StateErrors, Fem2dError> {
    Ok(StateErrors::from_squares(squared_state_differences(
        reference, e_ref, approx, e,
    )?))
}

/// The DAE method (module docs, eq. (8.36)): $CG_1\times RT_1$ on the whole duct with a
/// $CG_1$ multiplier on the wall. Blocks `e_p`, `e_u`, `lambda_wall`; port `inflow`.
#[derive(Debug, Clone)]
pub struct VibroDae {
    params: DuctParams,
    duct: DuctMesh,
    part: Part,
    cell_map: Vec<(usize, usize)>,
    before: LinearPhSystem,
    after: LinearPhSystem,
}

impl VibroDae {
    /// Assembles the model on the duct mesh with $n$ cells along the radius.
    pub fn new(params: &DuctParams, n: usize) -> Result<Self, Fem2dError> {
        let duct = DuctMesh::new(params, n)?;
        let model = Acoustics::new(params.acoustic, duct.mesh(), Causality::Cg1Rt1Neumann)?
            .axisymmetric()
            .boundary("wall", AcousticBc::PressurePort)
            .build()?;
        let part = Part::new(model, 0)?;
        let s = part.model.system();
        let n_tot = s.n_states();
        let lam = s
            .block_range("lambda_wall")
            .ok_or_else(|| internal("no multiplier block lambda_wall".into()))?;
        // wall multiplier columns: wall vertices sorted by global index (CG1 trace)
        let m = duct.mesh();
        let wall = m.tagged_edges("wall")?;
        let mut verts: Vec<usize> = wall.iter().flat_map(|b| m.edges()[b.edge]).collect();
        verts.sort_unstable();
        verts.dedup();
        let pts = &part.model.port_trace("wall")?.points;
        if verts.len() != lam.len()
            || pts.len() != verts.len()
            || verts.iter().zip(pts).any(|(&v, p)| m.vertices()[v] != *p)
        {
            return Err(internal(
                "wall trace basis does not match the wall vertices".into(),
            ));
        }
        // M_{Γ_D,Z} = ⟨ψ_a, Z ψ_b⟩_{Γ_D, r} on the lined part (clipped, exact 2-point Gauss)
        let gl = GaussLegendre::exact_for_degree(3)?;
        let mut tz = Triplets::new(n_tot, n_tot);
        for b in &wall {
            let [va, vb] = m.edges()[b.edge];
            let (pa, pb) = (m.vertices()[va], m.vertices()[vb]);
            let (lo, hi) = params.lined_length(pa[0], pb[0]);
            if hi <= lo {
                continue;
            }
            let col = |v: usize| verts.binary_search(&v).map(|k| lam.start + k);
            let (ca, cb) = (
                col(va).map_err(|_| internal("wall vertex".into()))?,
                col(vb).map_err(|_| internal("wall vertex".into()))?,
            );
            let dxe = pb[0] - pa[0];
            let mut loc = [[0.0; 2]; 2];
            for (&s, &w) in gl.points.iter().zip(&gl.weights) {
                let x = lo + s * (hi - lo);
                let sb = (x - pa[0]) / dxe; // hat of vb
                let psi = [1.0 - sb, sb];
                let r = pa[1] + sb * (pb[1] - pa[1]);
                let f = w * (hi - lo) * params.impedance * r;
                for i in 0..2 {
                    for j in 0..2 {
                        loc[i][j] += f * psi[i] * psi[j];
                    }
                }
            }
            let cs = [ca, cb];
            for i in 0..2 {
                for j in 0..2 {
                    tz.push(cs[i], cs[j], loc[i][j]);
                }
            }
        }
        let Mz = tz.build();
        let b = inflow_column(params, &part, n_tot)?;
        let ports = PortSet::from_ports(vec![inflow_port()])?;
        let (before, after) = switched_systems(
            s.E.clone(),
            s.J.clone(),
            s.R.clone(),
            &Mz,
            b,
            ports,
            s.blocks.clone(),
        )?;
        let cell_map = (0..m.n_cells()).map(|t| (0, t)).collect();
        Ok(Self {
            params: *params,
            duct,
            part,
            cell_map,
            before,
            after,
        })
    }

    /// The underlying acoustic model (with the open wall pressure port).
    pub fn model(&self) -> &AcousticModel {
        &self.part.model
    }
}

impl VibroacousticDuct for VibroDae {
    fn duct(&self) -> &DuctMesh {
        &self.duct
    }
    fn params(&self) -> &DuctParams {
        &self.params
    }
    fn system(&self, impedance_on: bool) -> &LinearPhSystem {
        if impedance_on {
            &self.after
        } else {
            &self.before
        }
    }
    fn project(
        &self,
        p: &dyn Fn([f64; 2]) -> f64,
        u: &dyn Fn([f64; 2]) -> [f64; 2],
    ) -> Result<Vec<f64>, Fem2dError> {
        self.part.model.project(p, u)
    }
    fn energy_split(&self, e: &[f64]) -> Result<[f64; 3], Fem2dError> {
        self.part.model.energy_split(e)
    }
    fn fields<'a>(&'a self, e: &[f64]) -> Result<DuctFields<'a>, Fem2dError> {
        let (p, u) = self.part.model.fields(e)?;
        Ok(DuctFields {
            duct: &self.duct,
            parts: vec![(&self.part.model, p, u)],
            cell_map: &self.cell_map,
        })
    }
}

/// The ODE method (module docs, eq. (8.41)): $\Omega_N$ ($CG_1\times RT_1$, grad form) and
/// $\Omega_D$ ($DG_0\times RT_1$, div form) coupled by the interface gyrator; blocks
/// `neumann.e_p`, `neumann.e_u`, `dirichlet.e_p`, `dirichlet.e_u`; port `inflow`.
#[derive(Debug, Clone)]
pub struct VibroOde {
    params: DuctParams,
    duct: DuctMesh,
    neumann: Part,
    dirichlet: Part,
    cell_map: Vec<(usize, usize)>,
    n_interface: usize,
    before: LinearPhSystem,
    after: LinearPhSystem,
}

impl VibroOde {
    /// Assembles both sub-domain models and couples them.
    pub fn new(params: &DuctParams, n: usize) -> Result<Self, Fem2dError> {
        let duct = DuctMesh::new(params, n)?;
        let sub_n = duct.submesh(SubDomain::Neumann)?;
        let sub_d = duct.submesh(SubDomain::Dirichlet)?;
        let mn = Acoustics::new(params.acoustic, &sub_n.mesh, Causality::Cg1Rt1Neumann)?
            .axisymmetric()
            .build()?;
        let md = Acoustics::new(params.acoustic, &sub_d.mesh, Causality::DivDiv)?
            .axisymmetric()
            .boundary("wall", AcousticBc::PressureRelease)
            .boundary("interface", AcousticBc::PressurePort)
            .build()?;
        let neumann = Part::new(mn, 0)?;
        let mut dirichlet = Part::new(md, 0)?;
        let (nn, nd) = (neumann.n_states(), dirichlet.n_states());
        // Ω_N: inflow column and the DG0 interface port, columns in Ω_D's interface order
        let (mN, mD) = (neumann.model.mesh(), dirichlet.model.mesh());
        let key = |sub: &SubMesh, e: [usize; 2]| {
            let (a, b) = (sub.vertex_global[e[0]], sub.vertex_global[e[1]]);
            (a.min(b), a.max(b))
        };
        let n_edges_of: std::collections::HashMap<(usize, usize), usize> = mN
            .tagged_edges("interface")?
            .iter()
            .map(|b| (key(&sub_n, mN.edges()[b.edge]), b.edge))
            .collect();
        let int_d = mD.tagged_edges("interface")?;
        let mut tb = Triplets::new(nn, int_d.len());
        let mut riesz = faer::Mat::<f64>::zeros(int_d.len(), int_d.len());
        for (k, b) in int_d.iter().enumerate() {
            let e_n = *n_edges_of
                .get(&key(&sub_d, mD.edges()[b.edge]))
                .ok_or_else(|| internal(format!("interface edge {} of Ω_D has no twin", b.edge)))?;
            let [va, vb] = mN.edges()[e_n];
            let (ra, rb) = (mN.vertices()[va][1], mN.vertices()[vb][1]);
            let len = mN.edge_length(e_n);
            // ∫_e φ_a r ds = |e|(2 r_a + r_b)/6, ∫_e r ds = |e|(r_a + r_b)/2
            tb.push(neumann.p_state(va)?, k, len * (2.0 * ra + rb) / 6.0);
            tb.push(neumann.p_state(vb)?, k, len * (ra + 2.0 * rb) / 6.0);
            riesz[(k, k)] = 2.0 / (len * (ra + rb));
        }
        let b_in = inflow_column(params, &neumann, nn)?;
        let sn = neumann.model.system();
        let mut tbn = Triplets::new(nn, 1 + int_d.len());
        tbn.push_block(0, 0, &b_in, 1.0);
        tbn.push_block(0, 1, &tb.build(), 1.0);
        let sys_n = LinearPhSystem::new(
            sn.E.clone(),
            sn.J.clone(),
            sn.R.clone(),
            tbn.build(),
            PortSet::from_ports(vec![
                inflow_port(),
                Port::new(
                    "interface",
                    int_d.len(),
                    "inward normal velocity per interface edge [m/s] (DG0)",
                    "pressure moments <p, 1_e>_{e, r} [Pa m²]",
                ),
            ])?,
            sn.blocks.clone(),
        )?;
        let coupled = Composite::new()
            .add("neumann", &sys_n)?
            .add("dirichlet", dirichlet.model.system())?
            .gyrator("neumann.interface", "dirichlet.interface", &riesz)?
            .build()?;
        dirichlet.offset = nn;
        // R_{Ω_D}: Z ∫_{e ∩ lined} r ds / |e|² on the RT DOFs of the wall edges
        let n_tot = nn + nd;
        let mut tr = Triplets::new(n_tot, n_tot);
        for b in mD.tagged_edges("wall")? {
            let [va, vb] = mD.edges()[b.edge];
            let (pa, pb) = (mD.vertices()[va], mD.vertices()[vb]);
            let (lo, hi) = params.lined_length(pa[0], pb[0]);
            if hi > lo {
                let len = mD.edge_length(b.edge);
                // the wall is r = R: ∫ r ds = R (hi − lo)
                let r_mid = 0.5 * (pa[1] + pb[1]);
                let s = dirichlet.u_state(b.edge)?;
                tr.push(s, s, params.impedance * r_mid * (hi - lo) / (len * len));
            }
        }
        let ports = PortSet::from_ports(vec![inflow_port()])?;
        let (before, after) = switched_systems(
            coupled.E,
            coupled.J,
            coupled.R,
            &tr.build(),
            coupled.B,
            ports,
            coupled.blocks,
        )?;
        let mut cell_map = vec![(0, 0); duct.mesh().n_cells()];
        for (k, sub) in [&sub_n, &sub_d].iter().enumerate() {
            for (lt, &t) in sub.cell_global.iter().enumerate() {
                cell_map[t] = (k, lt);
            }
        }
        Ok(Self {
            params: *params,
            duct,
            neumann,
            dirichlet,
            cell_map,
            n_interface: int_d.len(),
            before,
            after,
        })
    }

    /// The $\Omega_N$ model ($CG_1\times RT_1$, grad form, no ports of its own).
    pub fn neumann_model(&self) -> &AcousticModel {
        &self.neumann.model
    }
    /// The $\Omega_D$ model ($DG_0\times RT_1$, div form, port `interface`).
    pub fn dirichlet_model(&self) -> &AcousticModel {
        &self.dirichlet.model
    }
    /// Number of interface edges (dimension of the gyrator).
    pub fn n_interface(&self) -> usize {
        self.n_interface
    }
}

impl VibroacousticDuct for VibroOde {
    fn duct(&self) -> &DuctMesh {
        &self.duct
    }
    fn params(&self) -> &DuctParams {
        &self.params
    }
    fn system(&self, impedance_on: bool) -> &LinearPhSystem {
        if impedance_on {
            &self.after
        } else {
            &self.before
        }
    }
    fn project(
        &self,
        p: &dyn Fn([f64; 2]) -> f64,
        u: &dyn Fn([f64; 2]) -> [f64; 2],
    ) -> Result<Vec<f64>, Fem2dError> {
        let mut e = self.neumann.model.project(p, u)?;
        e.extend(self.dirichlet.model.project(p, u)?);
        Ok(e)
    }
    fn energy_split(&self, e: &[f64]) -> Result<[f64; 3], Fem2dError> {
        check_len(e, self.n_states())?;
        let a = self.neumann.model.energy_split(self.neumann.slice(e))?;
        let b = self.dirichlet.model.energy_split(self.dirichlet.slice(e))?;
        Ok([a[0] + b[0], a[1] + b[1], a[2] + b[2]])
    }
    fn fields<'a>(&'a self, e: &[f64]) -> Result<DuctFields<'a>, Fem2dError> {
        check_len(e, self.n_states())?;
        let (pn, un) = self.neumann.model.fields(self.neumann.slice(e))?;
        let (pd, ud) = self.dirichlet.model.fields(self.dirichlet.slice(e))?;
        Ok(DuctFields {
            duct: &self.duct,
            parts: vec![
                (&self.neumann.model, pn, un),
                (&self.dirichlet.model, pd, ud),
            ],
            cell_map: &self.cell_map,
        })
    }
}

/// The duct's systems before and after the impedance switch at $t_s$: the same $E$, $J$,
/// $B$, ports and blocks, dissipation $R$ before and $R + R_z$ after.
fn switched_systems(
    E: SparseMat,
    J: SparseMat,
    R: SparseMat,
    Rz: &SparseMat,
    B: SparseMat,
    ports: PortSet,
    blocks: Vec<VarBlock>,
) -> Result<(LinearPhSystem, LinearPhSystem), Fem2dError> {
    let R_after = sparse::add(1.0, &R, 1.0, Rz);
    let before = LinearPhSystem::new(
        E.clone(),
        J.clone(),
        R,
        B.clone(),
        ports.clone(),
        blocks.clone(),
    )?;
    let after = LinearPhSystem::new(E, J, R_after, B, ports, blocks)?;
    Ok((before, after))
}

fn check_len(e: &[f64], n: usize) -> Result<(), Fem2dError> {
    require_len("vibroacoustic duct state", n, e.len())?;
    Ok(())
}
