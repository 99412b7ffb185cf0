//! Linear elastodynamics in port-Hamiltonian form, CG velocity × DG symmetric stress PFEM
//! (thesis 004 Ch. 3 eq. (3.16) and §9.3.1 eqs. (9.31)–(9.35), Remark 28; summary §2.4,
//! §3.2 "3D/2D elasticity").
//!
//! Plane strain or plane stress (per unit thickness) on a triangle mesh, degree
//! $k = 1, 2, 3$:
//!
//! | block | field | space |
//! |---|---|---|
//! | `e_v` | velocity $v = \dot u$ | $(CG_k)^2$ |
//! | `E_sigma` | stress $\Sigma$ (components $xx, xy, yy$) | $(DG_{k-1})^{2\times2}_{\mathrm{sym}}$ |
//!
//! Weak form, integration by parts on the Div line (thesis (9.31); the boundary term is the
//! traction input $\tau = \Sigma n$):
//! $$\begin{aligned}
//! \langle \phi_v, \rho\,\partial_t v\rangle &= -\langle\operatorname{Grad}\phi_v, \Sigma\rangle +
//!   \langle\phi_v, \tau\rangle_{\partial\Omega}\\
//! \langle \Phi_\sigma, \mathcal C\,\partial_t\Sigma\rangle &= \langle\Phi_\sigma,
//!   \operatorname{Grad} v\rangle
//! \end{aligned}$$
//! with $\operatorname{Grad} = \operatorname{sym}\nabla$ and the compliance
//! $\mathcal C = \mathcal D^{-1}$ (summary §2.4, $d = 2$):
//! plane strain $\mathcal C\Sigma = \frac{1+\nu}{E}\left[\Sigma - \nu\operatorname{tr}(\Sigma)I\right]$,
//! plane stress $\mathcal C\Sigma = \frac1E\left[(1+\nu)\Sigma - \nu\operatorname{tr}(\Sigma)I\right]$.
//! Hence (thesis (9.33))
//! $$\begin{bmatrix}M_\rho&0\\0&M_{\mathcal C}\end{bmatrix}\begin{pmatrix}\dot e_v\\\dot e_\sigma\end{pmatrix}
//! = \begin{bmatrix}0&-D_{\mathrm{Grad}}^\top\\D_{\mathrm{Grad}}&0\end{bmatrix}
//! \begin{pmatrix}e_v\\e_\sigma\end{pmatrix} + \begin{bmatrix}B_v\\0\end{bmatrix}u_\partial,$$
//! $D_{\mathrm{Grad}}^{mi} = \langle\Phi_\sigma^m, \operatorname{Grad}\phi_v^i\rangle$,
//! $B_v^{il} = \langle\phi_v^i, \psi^l\rangle_\Gamma$.
//!
//! **Remark 28.** Since $\operatorname{Grad}(CG_k)^2 \subset (DG_{k-1})_{\mathrm{sym}}$ and
//! $\mathcal D$ is a constant pointwise map of that space into itself, the stress solving
//! $M_{\mathcal C}e_\sigma = D_{\mathrm{Grad}}q$ is exactly $\mathcal D\operatorname{Grad}(q)$
//! and $K = D_{\mathrm{Grad}}^\top M_{\mathcal C}^{-1}D_{\mathrm{Grad}}$ is the standard
//! displacement stiffness matrix: the pH system is equivalent to standard FEM
//! $M_\rho\ddot q + Kq = B_v u_\partial$ (same eigenfrequencies), with $e_v = \dot q$,
//! $e_\sigma = M_{\mathcal C}^{-1}D_{\mathrm{Grad}}q$.
//!
//! Boundary conditions: clamped edges ($v = 0$, [`Elasticity2d::clamped`]) and single-
//! component supports ($v_a = 0$, e.g. rollers or symmetry planes on axis-parallel edges,
//! [`Elasticity2d::fixed`]) remove the CG velocity DOFs (strong); edges declared as ports
//! ([`Elasticity2d::port`]) carry the traction inputs $\tau_x, \tau_y$ in the $CG_1$ trace
//! basis of their vertices; all other edges are free ($\tau = 0$, natural).
//!
//! **3D** ([`Elasticity3d`], tetrahedral meshes of [`crate::mesh::tet`], spaces of
//! [`crate::element::tet`]): the same weak form and matrices with $(CG_k)^3$ velocities,
//! $(DG_{k-1})^{3\times3}_{\mathrm{sym}}$ stresses (components $xx, yy, zz, yz, xz, xy$),
//! $k = 1, 2$, and $\mathcal C\Sigma = \frac{1+\nu}{E}\Sigma - \frac{\nu}{E}
//! \operatorname{tr}(\Sigma)I$; clamped / single-component supports on tagged faces and
//! traction ports in the $P_1$ trace basis of the tagged faces.
use crate::assembly::tet::{bilinear3d, Op3d, Term3d};
use crate::assembly::triangle;
use crate::error::Fem2dError;
use crate::error::{require_positive, FemError};
use crate::mesh::tet::Mesh3d;
use crate::mesh::triangle::Mesh2d;
use crate::models::model::BlockAssembler;
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::triangle::TriangleQuadrature;
use crate::space::tet::{Family3d, Shape3d, Space3d};
use crate::space::triangle::{complement, Family2d, Shape, Space2d};
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};

/// Isotropic linear elastic material.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElasticParams {
    /// Young's modulus $E$ \[Pa\].
    pub E: f64,
    /// Poisson ratio $\nu \in (-1, \tfrac12)$.
    pub nu: f64,
    /// Density $\rho$ \[kg/m³\].
    pub rho: f64,
}

/// Two-dimensional reduction of 3D elasticity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PlaneModel {
    /// $\varepsilon_{zz} = 0$ (thick bodies); stresses per unit thickness.
    #[default]
    PlaneStrain,
    /// $\sigma_{zz} = 0$ (thin sheets); stresses per unit thickness.
    PlaneStress,
}

impl ElasticParams {
    /// Checks positivity of $E, \rho$ and $-1 < \nu < \tfrac12$.
    pub fn validate(&self) -> Result<(), FemError> {
        require_positive("E", self.E)?;
        require_positive("rho", self.rho)?;
        if !(self.nu > -1.0 && self.nu < 0.5) {
            return Err(FemError::InvalidParameter {
                name: "nu".into(),
                value: self.nu,
                requirement: "-1 < nu < 0.5".into(),
            });
        }
        Ok(())
    }
    /// Shear modulus $\mu = E/(2(1+\nu))$.
    pub fn shear_modulus(&self) -> f64 {
        self.E / (2.0 * (1.0 + self.nu))
    }
    /// 3D Lamé constant $\lambda = E\nu/((1+\nu)(1-2\nu))$.
    pub fn lame_lambda(&self) -> f64 {
        self.E * self.nu / ((1.0 + self.nu) * (1.0 - 2.0 * self.nu))
    }
    /// In-plane Lamé constant of the plane model: $\lambda$ (plane strain) or
    /// $\lambda^* = 2\mu\lambda/(\lambda + 2\mu) = E\nu/(1-\nu^2)$ (plane stress).
    pub fn plane_lambda(&self, plane: PlaneModel) -> f64 {
        match plane {
            PlaneModel::PlaneStrain => self.lame_lambda(),
            PlaneModel::PlaneStress => self.E * self.nu / (1.0 - self.nu * self.nu),
        }
    }
    /// Shear wave speed $c_s = \sqrt{\mu/\rho}$.
    pub fn shear_wave_speed(&self) -> f64 {
        (self.shear_modulus() / self.rho).sqrt()
    }
    /// In-plane pressure wave speed $c_p = \sqrt{(\lambda_{\mathrm{plane}} + 2\mu)/\rho}$.
    pub fn pressure_wave_speed(&self, plane: PlaneModel) -> f64 {
        ((self.plane_lambda(plane) + 2.0 * self.shear_modulus()) / self.rho).sqrt()
    }
    /// Pointwise matrix $Q$ of $\Phi:\mathcal C(\Sigma) = \sum_{ab}Q_{ab}\phi_a\sigma_b$ on the
    /// components $(xx, xy, yy)$, row-major: with $\mathcal C\Sigma = a\Sigma -
    /// b\operatorname{tr}(\Sigma)I$, $Q = \begin{bmatrix}a-b&0&-b\\0&2a&0\\-b&0&a-b\end{bmatrix}$
    /// (the off-diagonal counted twice); $a = (1+\nu)/E$ and $b = \nu(1+\nu)/E$ (plane
    /// strain) or $b = \nu/E$ (plane stress).
    pub fn compliance_2d(&self, plane: PlaneModel) -> [f64; 9] {
        let a = (1.0 + self.nu) / self.E;
        let b = match plane {
            PlaneModel::PlaneStrain => self.nu * (1.0 + self.nu) / self.E,
            PlaneModel::PlaneStress => self.nu / self.E,
        };
        [a - b, 0.0, -b, 0.0, 2.0 * a, 0.0, -b, 0.0, a - b]
    }
    /// 3D pointwise compliance matrix on the components $(xx, yy, zz, yz, xz, xy)$,
    /// row-major $6\times6$: $\mathcal C\Sigma = \frac{1+\nu}{E}\Sigma -
    /// \frac{\nu}{E}\operatorname{tr}(\Sigma)I$ (summary §2.4, $d = 3$), i.e.
    /// $Q = \operatorname{diag}(a, a, a, 2a, 2a, 2a) - b\,\mathbb 1_{3\times3}\oplus 0$ with
    /// $a = (1+\nu)/E$, $b = \nu/E$.
    pub fn compliance_3d(&self) -> [f64; 36] {
        let a = (1.0 + self.nu) / self.E;
        let b = self.nu / self.E;
        let mut q = [0.0; 36];
        for i in 0..6 {
            q[i * 6 + i] = if i < 3 { a } else { 2.0 * a };
        }
        for i in 0..3 {
            for j in 0..3 {
                q[i * 6 + j] -= b;
            }
        }
        q
    }
    /// 3D pressure wave speed $c_p = \sqrt{(\lambda + 2\mu)/\rho}$.
    pub fn pressure_wave_speed_3d(&self) -> f64 {
        ((self.lame_lambda() + 2.0 * self.shear_modulus()) / self.rho).sqrt()
    }
}

/// The two co-energy fields of the elasticity model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElasticField {
    /// Velocity $e_v = \dot u$ (block `e_v`).
    Velocity,
    /// Stress $E_\sigma = \Sigma$ (block `E_sigma`).
    Stress,
}

impl ElasticField {
    /// Both fields in block order.
    pub const ALL: [ElasticField; 2] = [ElasticField::Velocity, ElasticField::Stress];
    /// Block name.
    pub fn block_name(&self) -> &'static str {
        match self {
            ElasticField::Velocity => "e_v",
            ElasticField::Stress => "E_sigma",
        }
    }
    fn index(&self) -> usize {
        *self as usize
    }
}

/// Builder of the 2D CG×DG elasticity model (module docs).
#[derive(Debug, Clone)]
pub struct Elasticity2d {
    params: ElasticParams,
    plane: PlaneModel,
    mesh: Mesh2d,
    degree: usize,
    clamped: Vec<String>,
    fixed: Vec<(String, usize)>,
    ports: Vec<String>,
}

impl Elasticity2d {
    /// $(CG_k)^2$ velocities and $(DG_{k-1})_{\mathrm{sym}}$ stresses, `1 <= k <= 3`; all
    /// edges free until [`Self::clamped`], [`Self::fixed`] or [`Self::port`] is called.
    pub fn new(
        params: ElasticParams,
        plane: PlaneModel,
        mesh: &Mesh2d,
        degree: usize,
    ) -> Result<Self, Fem2dError> {
        params.validate()?;
        if !(1..=3).contains(&degree) {
            return Err(FemError::UnsupportedDegree {
                what: "CG x DG elasticity degree k".into(),
                degree,
                supported: "1..=3".into(),
            }
            .into());
        }
        Ok(Self {
            params,
            plane,
            mesh: mesh.clone(),
            degree,
            clamped: Vec::new(),
            fixed: Vec::new(),
            ports: Vec::new(),
        })
    }

    /// Clamps the boundary edges tagged `tag` (strong: $v = 0$).
    pub fn clamped(mut self, tag: &str) -> Self {
        self.clamped.push(tag.to_string());
        self
    }

    /// Clamps every tag of the mesh.
    pub fn clamp_all(mut self) -> Self {
        self.clamped = self.mesh.tag_names();
        self
    }

    /// Fixes component `axis` (0 = x, 1 = y) of the velocity on the edges tagged `tag`
    /// (strong: $v_{\mathrm{axis}} = 0$, the other component free with zero traction). On an
    /// edge normal to `axis` this is a roller / symmetry support ($v\cdot n = 0$,
    /// $\tau\cdot s = 0$).
    pub fn fixed(mut self, tag: &str, axis: usize) -> Self {
        self.fixed.push((tag.to_string(), axis));
        self
    }

    /// Makes the edges tagged `tag` a traction port: inputs are the applied tractions
    /// $\tau = \Sigma n$ \[N/m² per unit thickness\] in the $CG_1$ trace basis $\psi^l$ of the
    /// tagged edges' vertices (ordered by global vertex index), two ports `"{tag}_tx"`,
    /// `"{tag}_ty"` with $B^{il}_a = \langle\phi_{v,a}^i, \psi^l\rangle_\Gamma$; the collocated
    /// outputs $B^\top e$ are the weighted traces $\int_\Gamma v_a\psi^l$, so
    /// $\dot H = y^\top u$.
    pub fn port(mut self, tag: &str) -> Self {
        self.ports.push(tag.to_string());
        self
    }

    /// Assembles the model.
    pub fn build(&self) -> Result<ElasticityModel2d, Fem2dError> {
        let p = &self.params;
        let k = self.degree;
        let m = &self.mesh;
        for (tag, axis) in &self.fixed {
            if *axis > 1 {
                return Err(FemError::InvalidParameter {
                    name: format!("axis of the support on '{tag}'"),
                    value: *axis as f64,
                    requirement: "axis 0 (x) or 1 (y)".into(),
                }
                .into());
            }
        }
        for tag in &self.ports {
            if self.clamped.contains(tag) || self.fixed.iter().any(|(t, _)| t == tag) {
                return Err(FemError::InvalidParameter {
                    name: format!("boundary tag '{tag}'"),
                    value: 0.0,
                    requirement: "a traction port cannot also be clamped or supported".into(),
                }
                .into());
            }
        }
        let sv = Space2d::new(m, Family2d::Cg(k), Shape::Vector)?;
        let ss = Space2d::new(m, Family2d::Dg(k - 1), Shape::SymTensor)?;
        let sizes = [sv.n_dofs(), ss.n_dofs()];
        let mut ba = BlockAssembler::new(&sizes);
        ba.mass(0, &triangle::mass(&sv, p.rho)?);
        ba.mass(
            1,
            &triangle::mass_pointwise(&ss, &p.compliance_2d(self.plane))?,
        );
        // J_10 = D_Grad, J_01 = −D_Gradᵀ
        ba.skew(1, 0, &triangle::sym_grad(&ss, &sv)?, 1.0);
        let n_full = ba.n();
        let E_full = ba.E.build();
        let J_full = ba.J.build();
        // strong supports: remove velocity DOFs
        let mut removed = Vec::new();
        let tags: Vec<&str> = self.clamped.iter().map(|s| s.as_str()).collect();
        if !tags.is_empty() {
            removed.extend(sv.boundary_dofs(&tags)?);
        }
        let ns = sv.n_scalar_dofs();
        for (tag, axis) in &self.fixed {
            let r = axis * ns..(axis + 1) * ns;
            removed.extend(
                sv.boundary_dofs(&[tag.as_str()])?
                    .into_iter()
                    .filter(|i| r.contains(i)),
            );
        }
        removed.sort_unstable();
        removed.dedup();
        let kept = complement(n_full, &removed);
        let E = sparse::restrict(&E_full, &kept, &kept);
        let J = sparse::restrict(&J_full, &kept, &kept);
        let n = kept.len();
        let offsets = [0, sizes[0], sizes[0] + sizes[1]];
        let n_v = kept.iter().filter(|&&i| i < sizes[0]).count();
        let blocks = vec![
            VarBlock::differential("e_v", "velocity (x, y) [m/s]", n_v),
            VarBlock::differential(
                "E_sigma",
                "stress (xx, xy, yy) [N/m^2] (DG, per unit thickness)",
                n - n_v,
            ),
        ];
        let mut ports = Vec::new();
        let mut B_cols: Vec<SparseMat> = Vec::new();
        let mut trace_masses = Vec::new();
        for tag in &self.ports {
            let (b, mg) = edge_traces(&sv, tag, n_full, 0)?;
            let nb = mg.nrows();
            for (a, bm) in b.into_iter().enumerate() {
                let c = ["x", "y"][a];
                let name = format!("{tag}_t{c}");
                ports.push(Port::new(
                    name.clone(),
                    nb,
                    format!("applied traction tau_{c} [N/m^2] on '{tag}' (CG1 trace)"),
                    format!("weighted trace of v_{c} on '{tag}' [m^2/s]"),
                ));
                B_cols.push(bm);
                trace_masses.push((name, mg.clone()));
            }
        }
        let n_inputs: usize = B_cols.iter().map(|b| b.ncols()).sum();
        let mut tb = Triplets::new(n, n_inputs);
        let mut c0 = 0;
        for b in &B_cols {
            let all: Vec<usize> = (0..b.ncols()).collect();
            tb.push_block(0, c0, &sparse::restrict(b, &kept, &all), 1.0);
            c0 += b.ncols();
        }
        let system = LinearPhSystem::new(
            E,
            J,
            sparse::zeros(n, n),
            tb.build(),
            PortSet::from_ports(ports)?,
            blocks,
        )?;
        Ok(ElasticityModel2d {
            params: *p,
            plane: self.plane,
            degree: k,
            system,
            spaces: [sv, ss],
            offsets,
            kept,
            trace_masses,
        })
    }
}

/// Weighted edge traces of every component $c$ of `space`,
/// $B_c^{il} = \langle\phi_c^i, \psi^l\rangle_\Gamma$ on the edges tagged `tag` (rows
/// `offset + space.global(c, ·)` of an open state of length `n_full`, columns = the $P_1$
/// ($CG_1$) trace basis $\psi^l$, one per vertex ordered by global index), and the trace mass
/// $M_\Gamma^{lm} = \int_\Gamma\psi^l\psi^m$ (thesis 004 (9.33): the $B_v$ of the traction
/// ports; the heat-flux ports of [`crate::models::continuum::thermoelasticity`] use it on the temperature
/// space). Gauss–Legendre exact for the degree $k + 1$ integrand. The 3D analogue is
/// [`face_traces`].
pub(crate) fn edge_traces(
    space: &Space2d,
    tag: &str,
    n_full: usize,
    offset: usize,
) -> Result<(Vec<SparseMat>, SparseMat), Fem2dError> {
    let mesh = space.mesh();
    let edges = mesh.tagged_edges(tag)?;
    let mut verts: Vec<usize> = edges.iter().flat_map(|b| mesh.edges()[b.edge]).collect();
    verts.sort_unstable();
    verts.dedup();
    let nb = verts.len();
    let col = |v: usize| verts.binary_search(&v).unwrap_or(0);
    let gl = GaussLegendre::exact_for_degree(space.family().degree() + 1)?;
    let el = space.element();
    let nl = el.n_local();
    let (mut v, mut dx, mut dy) = (vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
    let nc = space.n_comp();
    let mut tb: Vec<Triplets> = (0..nc).map(|_| Triplets::new(n_full, nb)).collect();
    let mut tm = Triplets::new(nb, nb);
    let refv = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
    for b in &edges {
        let tri = mesh.triangles()[b.cell];
        let (la, lb) = ((b.local + 1) % 3, (b.local + 2) % 3);
        let (ca, cb) = (col(tri[la]), col(tri[lb]));
        let len = mesh.edge_length(b.edge);
        let d = space.cell_dofs(b.cell);
        // trace mass of the two hat functions: len/6 [[2, 1], [1, 2]]
        for (r, c, f) in [(ca, ca, 2.0), (ca, cb, 1.0), (cb, ca, 1.0), (cb, cb, 2.0)] {
            tm.push(r, c, len * f / 6.0);
        }
        for (&t, &w) in gl.points.iter().zip(&gl.weights) {
            let xh = [
                refv[la][0] + t * (refv[lb][0] - refv[la][0]),
                refv[la][1] + t * (refv[lb][1] - refv[la][1]),
            ];
            el.eval(xh, &mut v, &mut dx, &mut dy);
            for (psi, c) in [(1.0 - t, ca), (t, cb)] {
                let f = w * len * psi;
                for j in 0..nl {
                    let a = f * v[j];
                    if a == 0.0 {
                        continue;
                    }
                    for (comp, t) in tb.iter_mut().enumerate() {
                        t.push(offset + space.global(comp, d[j]), c, a);
                    }
                }
            }
        }
    }
    Ok((tb.into_iter().map(|t| t.build()).collect(), tm.build()))
}

/// An assembled 2D CG×DG elasticity model.
#[derive(Debug, Clone)]
pub struct ElasticityModel2d {
    params: ElasticParams,
    plane: PlaneModel,
    degree: usize,
    system: LinearPhSystem,
    spaces: [Space2d; 2],
    /// Offsets of the blocks in the open (unconstrained) state.
    offsets: [usize; 3],
    /// Open-state index of every retained state variable.
    kept: Vec<usize>,
    /// Trace mass matrix of each port.
    trace_masses: Vec<(String, SparseMat)>,
}

impl ElasticityModel2d {
    /// The pH system $E\dot e = Je + Bu$ (blocks `e_v`, `E_sigma`).
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// Consumes the model, returning its system.
    pub fn into_system(self) -> LinearPhSystem {
        self.system
    }
    /// Material data.
    pub fn params(&self) -> &ElasticParams {
        &self.params
    }
    /// Plane strain or plane stress.
    pub fn plane(&self) -> PlaneModel {
        self.plane
    }
    /// Degree $k$.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// Finite element space of a field (all DOFs, before the strong supports).
    pub fn space(&self, f: ElasticField) -> &Space2d {
        &self.spaces[f.index()]
    }
    /// Number of state variables (after the strong supports).
    pub fn n_states(&self) -> usize {
        self.kept.len()
    }
    /// Open-state index (DOF of `space(Velocity)` then `n_dofs` + DOF of `space(Stress)`)
    /// of every retained state variable.
    pub fn kept_dofs(&self) -> &[usize] {
        &self.kept
    }
    /// Trace mass matrix $M_\Gamma^{lm} = \int_\Gamma\psi^l\psi^m$ of the $CG_1$ trace basis
    /// of the traction port `port` (the basis of its input; the output is $M_\Gamma$ times
    /// the trace coefficients when the velocity is piecewise linear on $\Gamma$).
    pub fn port_trace_mass(&self, port: &str) -> Result<&SparseMat, Fem2dError> {
        self.system.ports.range(port)?;
        self.trace_masses
            .iter()
            .find(|(n, _)| n == port)
            .map(|(_, m)| m)
            .ok_or_else(|| unreachable_port(port))
    }
    /// Coefficients of field `f` (all DOFs of its space, removed ones zero) from a state.
    pub fn field_coefficients(&self, e: &[f64], f: ElasticField) -> Result<Vec<f64>, Fem2dError> {
        if e.len() != self.n_states() {
            return Err(FemError::Length {
                what: "elasticity state".into(),
                expected: self.n_states(),
                found: e.len(),
            }
            .into());
        }
        let r = self.offsets[f.index()]..self.offsets[f.index() + 1];
        let mut u = vec![0.0; r.len()];
        for (s, &i) in self.kept.iter().enumerate() {
            if r.contains(&i) {
                u[i - r.start] = e[s];
            }
        }
        Ok(u)
    }
    /// State vector from the coefficient vectors of the velocity and the stress (DOFs
    /// removed by the strong supports are dropped).
    pub fn state_from_fields(&self, v: &[f64], sigma: &[f64]) -> Result<Vec<f64>, Fem2dError> {
        let fields = [v, sigma];
        for (k, f) in ElasticField::ALL.iter().enumerate() {
            let len = self.offsets[k + 1] - self.offsets[k];
            if fields[k].len() != len {
                return Err(FemError::Length {
                    what: format!("{} coefficients", f.block_name()),
                    expected: len,
                    found: fields[k].len(),
                }
                .into());
            }
        }
        Ok(self
            .kept
            .iter()
            .map(|&i| {
                if i < self.offsets[1] {
                    v[i]
                } else {
                    sigma[i - self.offsets[1]]
                }
            })
            .collect())
    }
    /// State from functions: nodal interpolants of the velocity `v` (components $x, y$) and
    /// of the stress `sigma` (components $xx, xy, yy$; `None` = 0).
    pub fn interpolate_state(
        &self,
        v: &dyn Fn([f64; 2]) -> [f64; 2],
        sigma: Option<&dyn Fn([f64; 2]) -> [f64; 3]>,
    ) -> Result<Vec<f64>, Fem2dError> {
        let vc = self.spaces[0].interpolate(&|x, o| o.copy_from_slice(&v(x)));
        let sc = match sigma {
            Some(f) => self.spaces[1].interpolate(&|x, o| o.copy_from_slice(&f(x))),
            None => vec![0.0; self.spaces[1].n_dofs()],
        };
        self.state_from_fields(&vc, &sc)
    }
    /// Velocity, its gradient and the stress at `x`.
    pub fn evaluate(&self, e: &[f64], x: [f64; 2]) -> Result<PointValues2d, Fem2dError> {
        let vc = self.field_coefficients(e, ElasticField::Velocity)?;
        let sc = self.field_coefficients(e, ElasticField::Stress)?;
        let (v, g) = self.spaces[0].evaluate(&vc, x)?;
        let (s, _) = self.spaces[1].evaluate(&sc, x)?;
        Ok(PointValues2d {
            v: [v[0], v[1]],
            grad_v: [g[0], g[1]],
            sigma: [s[0], s[1], s[2]],
        })
    }
}

/// Field values of a 2D elasticity state at a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointValues2d {
    /// Velocity $(v_x, v_y)$.
    pub v: [f64; 2],
    /// Gradient rows $\nabla v_x$, $\nabla v_y$.
    pub grad_v: [[f64; 2]; 2],
    /// Stress $(\sigma_{xx}, \sigma_{xy}, \sigma_{yy})$.
    pub sigma: [f64; 3],
}

/// Builder of the 3D CG×DG elasticity model on a tetrahedral mesh: $(CG_k)^3$ velocities
/// and $(DG_{k-1})^{3\times3}_{\mathrm{sym}}$ stresses, $k = 1, 2$ (same weak form and
/// matrices as the 2D model, thesis (9.31)–(9.34)). Boundary faces are free (zero
/// traction) unless clamped ([`Self::clamped`]) or supported in one component
/// ([`Self::fixed`]), both strong, or traction ports ([`Self::port`]).
#[derive(Debug, Clone)]
pub struct Elasticity3d {
    params: ElasticParams,
    mesh: Mesh3d,
    degree: usize,
    clamped: Vec<String>,
    fixed: Vec<(String, usize)>,
    ports: Vec<String>,
}

impl Elasticity3d {
    /// Degree `k` in `1..=2`.
    pub fn new(params: ElasticParams, mesh: &Mesh3d, degree: usize) -> Result<Self, Fem2dError> {
        params.validate()?;
        if !(1..=2).contains(&degree) {
            return Err(FemError::UnsupportedDegree {
                what: "3D CG x DG elasticity degree k".into(),
                degree,
                supported: "1..=2".into(),
            }
            .into());
        }
        Ok(Self {
            params,
            mesh: mesh.clone(),
            degree,
            clamped: Vec::new(),
            fixed: Vec::new(),
            ports: Vec::new(),
        })
    }
    /// Makes the faces tagged `tag` a traction port: inputs are the applied tractions
    /// $\tau = \Sigma n$ \[N/m²\] in the $P_1$ trace basis $\psi^l$ of the tagged faces'
    /// vertices (ordered by global vertex index), three ports `"{tag}_tx"`, `"{tag}_ty"`,
    /// `"{tag}_tz"` with $B^{il}_a = \langle\phi_{v,a}^i, \psi^l\rangle_\Gamma$; outputs
    /// $B^\top e$ are the weighted velocity traces, so $\dot H = y^\top u$.
    pub fn port(mut self, tag: &str) -> Self {
        self.ports.push(tag.to_string());
        self
    }
    /// Clamps the boundary faces tagged `tag` ($v = 0$).
    pub fn clamped(mut self, tag: &str) -> Self {
        self.clamped.push(tag.to_string());
        self
    }
    /// Fixes velocity component `axis` (0, 1, 2) on the faces tagged `tag` (roller /
    /// symmetry support on a face normal to `axis`).
    pub fn fixed(mut self, tag: &str, axis: usize) -> Self {
        self.fixed.push((tag.to_string(), axis));
        self
    }
    /// Assembles the model: $E = \operatorname{diag}(M_\rho, M_{\mathcal C})$,
    /// $J = \begin{bmatrix}0&-D_{\mathrm{Grad}}^\top\\D_{\mathrm{Grad}}&0\end{bmatrix}$,
    /// $B = [B_v; 0]$, blocks `e_v`, `E_sigma`.
    pub fn build(&self) -> Result<ElasticityModel3d, Fem2dError> {
        let p = &self.params;
        let k = self.degree;
        for (tag, axis) in &self.fixed {
            if *axis > 2 {
                return Err(FemError::InvalidParameter {
                    name: format!("axis of the support on '{tag}'"),
                    value: *axis as f64,
                    requirement: "axis 0 (x), 1 (y) or 2 (z)".into(),
                }
                .into());
            }
        }
        for tag in &self.ports {
            if self.clamped.contains(tag) || self.fixed.iter().any(|(t, _)| t == tag) {
                return Err(FemError::InvalidParameter {
                    name: format!("boundary tag '{tag}'"),
                    value: 0.0,
                    requirement: "a traction port cannot also be clamped or supported".into(),
                }
                .into());
            }
        }
        let sv = Space3d::new(&self.mesh, Family3d::Cg(k), Shape3d::Vector)?;
        let ss = Space3d::new(&self.mesh, Family3d::Dg(k - 1), Shape3d::SymTensor)?;
        let sizes = [sv.n_dofs(), ss.n_dofs()];
        let mut ba = BlockAssembler::new(&sizes);
        let mass: Vec<Term3d> = (0..3)
            .map(|c| (c, Op3d::Value, c, Op3d::Value, p.rho))
            .collect();
        ba.mass(0, &bilinear3d(&sv, &sv, &mass)?);
        let q = p.compliance_3d();
        let mut comp = Vec::new();
        for a in 0..6 {
            for b in 0..6 {
                if q[a * 6 + b] != 0.0 {
                    comp.push((a, Op3d::Value, b, Op3d::Value, q[a * 6 + b]));
                }
            }
        }
        ba.mass(1, &bilinear3d(&ss, &ss, &comp)?);
        // Φ:Grad v = φ_xx ∂x v_x + φ_yy ∂y v_y + φ_zz ∂z v_z + φ_yz (∂z v_y + ∂y v_z)
        //          + φ_xz (∂z v_x + ∂x v_z) + φ_xy (∂y v_x + ∂x v_y)
        let v = Op3d::Value;
        let sym: [Term3d; 9] = [
            (0, v, 0, Op3d::D(0), 1.0),
            (1, v, 1, Op3d::D(1), 1.0),
            (2, v, 2, Op3d::D(2), 1.0),
            (3, v, 1, Op3d::D(2), 1.0),
            (3, v, 2, Op3d::D(1), 1.0),
            (4, v, 0, Op3d::D(2), 1.0),
            (4, v, 2, Op3d::D(0), 1.0),
            (5, v, 0, Op3d::D(1), 1.0),
            (5, v, 1, Op3d::D(0), 1.0),
        ];
        ba.skew(1, 0, &bilinear3d(&ss, &sv, &sym)?, 1.0);
        let n_full = ba.n();
        let E_full = ba.E.build();
        let J_full = ba.J.build();
        let mut removed = Vec::new();
        let tags: Vec<&str> = self.clamped.iter().map(|s| s.as_str()).collect();
        if !tags.is_empty() {
            removed.extend(sv.boundary_dofs(&tags)?);
        }
        let ns = sv.n_scalar_dofs();
        for (tag, axis) in &self.fixed {
            let r = axis * ns..(axis + 1) * ns;
            removed.extend(
                sv.boundary_dofs(&[tag.as_str()])?
                    .into_iter()
                    .filter(|i| r.contains(i)),
            );
        }
        removed.sort_unstable();
        removed.dedup();
        let kept = complement(n_full, &removed);
        let n = kept.len();
        let n_v = kept.iter().filter(|&&i| i < sizes[0]).count();
        let mut ports = Vec::new();
        let mut B_cols: Vec<SparseMat> = Vec::new();
        let mut trace_masses = Vec::new();
        for tag in &self.ports {
            let (b, mg) = face_traces(&sv, tag, n_full, 0)?;
            let nb = mg.nrows();
            for (a, bm) in b.into_iter().enumerate() {
                let c = ["x", "y", "z"][a];
                let name = format!("{tag}_t{c}");
                ports.push(Port::new(
                    name.clone(),
                    nb,
                    format!("applied traction tau_{c} [N/m^2] on '{tag}' (P1 trace)"),
                    format!("weighted trace of v_{c} on '{tag}' [m^3/s]"),
                ));
                B_cols.push(bm);
                trace_masses.push((name, mg.clone()));
            }
        }
        let n_inputs: usize = B_cols.iter().map(|b| b.ncols()).sum();
        let mut tb = Triplets::new(n, n_inputs);
        let mut c0 = 0;
        for b in &B_cols {
            let all: Vec<usize> = (0..b.ncols()).collect();
            tb.push_block(0, c0, &sparse::restrict(b, &kept, &all), 1.0);
            c0 += b.ncols();
        }
        let system = LinearPhSystem::new(
            sparse::restrict(&E_full, &kept, &kept),
            sparse::restrict(&J_full, &kept, &kept),
            sparse::zeros(n, n),
            tb.build(),
            PortSet::from_ports(ports)?,
            vec![
                VarBlock::differential("e_v", "velocity (x, y, z) [m/s]", n_v),
                VarBlock::differential(
                    "E_sigma",
                    "stress (xx, yy, zz, yz, xz, xy) [N/m^2] (DG)",
                    n - n_v,
                ),
            ],
        )?;
        Ok(ElasticityModel3d {
            params: *p,
            degree: k,
            system,
            spaces: [sv, ss],
            kept,
            trace_masses,
        })
    }
}

/// Weighted face traces of every component of `space` (rows at `offset` in a state of
/// length `n_full`) on the $P_1$ trace basis of the faces tagged `tag`, and the trace mass:
/// the 3D analogue of [`edge_traces`] (triangle quadrature exact for degree $k + 1$ mapped
/// onto each face of the reference tetrahedron).
pub(crate) fn face_traces(
    space: &Space3d,
    tag: &str,
    n_full: usize,
    offset: usize,
) -> Result<(Vec<SparseMat>, SparseMat), Fem2dError> {
    let mesh = space.mesh();
    let faces = mesh.tagged_faces(tag)?;
    let mut verts: Vec<usize> = faces.iter().flat_map(|f| f.vertices).collect();
    verts.sort_unstable();
    verts.dedup();
    let nb = verts.len();
    let col = |v: usize| verts.binary_search(&v).unwrap_or(0);
    let q = TriangleQuadrature::exact_for_degree(space.family().degree() + 1)?;
    let el = space.element();
    let nl = el.n_local();
    let (mut val, mut grad) = (vec![0.0; nl], vec![[0.0; 3]; nl]);
    let nc = space.n_comp();
    let mut tb: Vec<Triplets> = (0..nc).map(|_| Triplets::new(n_full, nb)).collect();
    let mut tm = Triplets::new(nb, nb);
    let refv = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    for f in &faces {
        let tet = mesh.tets()[f.cell];
        let lv: Vec<usize> = (0..4).filter(|&i| i != f.local).collect();
        let cols = [col(tet[lv[0]]), col(tet[lv[1]]), col(tet[lv[2]])];
        let area = mesh.face_area(f);
        for a in 0..3 {
            for b in 0..3 {
                let m = if a == b { 2.0 } else { 1.0 };
                tm.push(cols[a], cols[b], area * m / 12.0);
            }
        }
        let d = space.cell_dofs(f.cell);
        for (p, &w) in q.points.iter().zip(&q.weights) {
            let psi = [1.0 - p[0] - p[1], p[0], p[1]];
            let mut xh = [0.0; 3];
            for (c, x) in xh.iter_mut().enumerate() {
                *x = psi[0] * refv[lv[0]][c] + psi[1] * refv[lv[1]][c] + psi[2] * refv[lv[2]][c];
            }
            el.eval(xh, &mut val, &mut grad);
            // weights sum to 1/2 = reference triangle area
            let wa = 2.0 * w * area;
            for (s, &c) in psi.iter().zip(&cols) {
                for j in 0..nl {
                    let a = wa * s * val[j];
                    if a == 0.0 {
                        continue;
                    }
                    for (comp, t) in tb.iter_mut().enumerate() {
                        t.push(offset + space.global(comp, d[j]), c, a);
                    }
                }
            }
        }
    }
    Ok((tb.into_iter().map(|t| t.build()).collect(), tm.build()))
}

/// An assembled 3D CG×DG elasticity model.
#[derive(Debug, Clone)]
pub struct ElasticityModel3d {
    params: ElasticParams,
    degree: usize,
    system: LinearPhSystem,
    spaces: [Space3d; 2],
    kept: Vec<usize>,
    trace_masses: Vec<(String, SparseMat)>,
}

impl ElasticityModel3d {
    /// The pH system $E\dot e = Je$ (blocks `e_v`, `E_sigma`).
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// Material data.
    pub fn params(&self) -> &ElasticParams {
        &self.params
    }
    /// Degree $k$.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// Finite element space of a field (all DOFs, before the strong supports).
    pub fn space(&self, f: ElasticField) -> &Space3d {
        &self.spaces[f.index()]
    }
    /// Trace mass matrix $M_\Gamma$ of the $P_1$ trace basis of the traction port `port`.
    pub fn port_trace_mass(&self, port: &str) -> Result<&SparseMat, Fem2dError> {
        self.system.ports.range(port)?;
        self.trace_masses
            .iter()
            .find(|(n, _)| n == port)
            .map(|(_, m)| m)
            .ok_or_else(|| unreachable_port(port))
    }
    /// Open-state index (velocity DOFs, then `n_dofs(velocity)` + stress DOF) of every
    /// retained state variable.
    pub fn kept_dofs(&self) -> &[usize] {
        &self.kept
    }
    /// Number of states (velocity and stress DOFs after the strong supports).
    pub fn n_states(&self) -> usize {
        self.kept.len()
    }
    /// Coefficients of field `f` on its full space (supported DOFs zero) from a state.
    pub fn field_coefficients(&self, e: &[f64], f: ElasticField) -> Result<Vec<f64>, Fem2dError> {
        if e.len() != self.kept.len() {
            return Err(FemError::Length {
                what: "3D elasticity state".into(),
                expected: self.kept.len(),
                found: e.len(),
            }
            .into());
        }
        let nv = self.spaces[0].n_dofs();
        let (lo, n) = match f {
            ElasticField::Velocity => (0, nv),
            ElasticField::Stress => (nv, self.spaces[1].n_dofs()),
        };
        let mut u = vec![0.0; n];
        for (s, &i) in self.kept.iter().enumerate() {
            if i >= lo && i < lo + n {
                u[i - lo] = e[s];
            }
        }
        Ok(u)
    }
    /// Velocity $(v_x, v_y, v_z)$ and stress $(xx, yy, zz, yz, xz, xy)$ of state `e` at the
    /// point `x`.
    pub fn evaluate(&self, e: &[f64], x: [f64; 3]) -> Result<([f64; 3], [f64; 6]), Fem2dError> {
        let v = self.spaces[0].evaluate(&self.field_coefficients(e, ElasticField::Velocity)?, x)?;
        let s = self.spaces[1].evaluate(&self.field_coefficients(e, ElasticField::Stress)?, x)?;
        Ok(([v[0], v[1], v[2]], [s[0], s[1], s[2], s[3], s[4], s[5]]))
    }
    /// State from functions: nodal interpolants of the velocity and (optionally) the
    /// stress (components $xx, yy, zz, yz, xz, xy$).
    pub fn interpolate_state(
        &self,
        v: &dyn Fn([f64; 3]) -> [f64; 3],
        sigma: Option<&dyn Fn([f64; 3]) -> [f64; 6]>,
    ) -> Vec<f64> {
        let vc = self.spaces[0].interpolate(&|x, o| o.copy_from_slice(&v(x)));
        let sc = match sigma {
            Some(f) => self.spaces[1].interpolate(&|x, o| o.copy_from_slice(&f(x))),
            None => vec![0.0; self.spaces[1].n_dofs()],
        };
        let nv = vc.len();
        self.kept
            .iter()
            .map(|&i| if i < nv { vc[i] } else { sc[i - nv] })
            .collect()
    }
}

fn unreachable_port(port: &str) -> Fem2dError {
    FemError::InvalidParameter {
        name: format!("port '{port}'"),
        value: 0.0,
        requirement: "a traction port of this model".into(),
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::tet::Mesh3d;
    use crate::mesh::triangle::Diagonal;

    fn params() -> ElasticParams {
        ElasticParams {
            E: 2.0,
            nu: 0.3,
            rho: 1.5,
        }
    }

    /// The compliance inverts the stiffness σ = 2μ ε + λ* tr ε I (plane strain: λ* = λ,
    /// plane stress: λ* = 2μλ/(λ + 2μ)) for ε = [[1, 2], [2, −3]].
    #[test]
    fn compliance_inverts_stiffness() {
        let p = params();
        let mu = p.shear_modulus();
        for plane in [PlaneModel::PlaneStrain, PlaneModel::PlaneStress] {
            let l = p.plane_lambda(plane);
            let lam = p.lame_lambda();
            let expect = match plane {
                PlaneModel::PlaneStrain => lam,
                PlaneModel::PlaneStress => 2.0 * mu * lam / (lam + 2.0 * mu),
            };
            assert!((l - expect).abs() < 1e-14 * expect);
            let (e0, e1, e2) = (1.0, 2.0, -3.0);
            let tr = e0 + e2;
            let s = [
                2.0 * mu * e0 + l * tr,
                2.0 * mu * e1,
                2.0 * mu * e2 + l * tr,
            ];
            let Q = p.compliance_2d(plane);
            // V:C(σ) for unit V components (weights 1, 2, 1) recovers ε
            let c = [
                Q[0] * s[0] + Q[2] * s[2],
                Q[4] * s[1] / 2.0,
                Q[6] * s[0] + Q[8] * s[2],
            ];
            for (a, b) in c.iter().zip([e0, e1, e2]) {
                assert!((a - b).abs() < 1e-12, "{plane:?}: {a} vs {b}");
            }
        }
    }

    #[test]
    fn structure_sizes_and_errors() {
        let mesh = Mesh2d::unit_square(3, Diagonal::Right).unwrap();
        for k in 1..=3 {
            let m = Elasticity2d::new(params(), PlaneModel::PlaneStrain, &mesh, k)
                .unwrap()
                .clamped("left")
                .fixed("bottom", 1)
                .port("right")
                .build()
                .unwrap();
            m.system().check(&Default::default()).unwrap();
            let sv = m.space(ElasticField::Velocity);
            let nl = sv.boundary_dofs(&["left"]).unwrap().len();
            let nb: Vec<usize> = sv
                .boundary_dofs(&["bottom"])
                .unwrap()
                .into_iter()
                .filter(|&i| i >= sv.n_scalar_dofs())
                .filter(|i| !sv.boundary_dofs(&["left"]).unwrap().contains(i))
                .collect();
            assert_eq!(
                m.system().block_range("e_v").unwrap().len(),
                sv.n_dofs() - nl - nb.len()
            );
            assert_eq!(
                m.system().block_range("E_sigma").unwrap().len(),
                3 * 18 * k * (k + 1) / 2
            );
            assert_eq!(m.system().ports.names(), vec!["right_tx", "right_ty"]);
            // 4 vertices on the right edge
            assert_eq!(m.system().n_inputs(), 8);
        }
        assert!(Elasticity2d::new(params(), PlaneModel::PlaneStress, &mesh, 0).is_err());
        assert!(Elasticity2d::new(params(), PlaneModel::PlaneStress, &mesh, 4).is_err());
        let bad = ElasticParams {
            nu: 0.5,
            ..params()
        };
        assert!(Elasticity2d::new(bad, PlaneModel::PlaneStress, &mesh, 1).is_err());
        let base = Elasticity2d::new(params(), PlaneModel::PlaneStress, &mesh, 1).unwrap();
        let err = base.clone().clamped("wall").build().unwrap_err();
        assert!(matches!(err, Fem2dError::UnknownTag { .. }), "{err}");
        let err = base.clone().fixed("top", 2).build().unwrap_err();
        assert!(err.to_string().contains("top"), "{err}");
        let err = base.clamped("top").port("top").build().unwrap_err();
        assert!(err.to_string().contains("top"), "{err}");
    }

    /// Traction port outputs: for v = (1 + y, x y) interpolated exactly (k = 2) and all
    /// trace coefficients 1 (ψ-sum = 1 on the edge), yᵀu = ∫_Γ v_a ds: on the right edge
    /// x = 1: ∫ (1 + y) = 3/2, ∫ y = 1/2. The trace mass sums to the edge length 1.
    #[test]
    fn traction_port_traces() {
        let mesh = Mesh2d::unit_square(4, Diagonal::Left).unwrap();
        let m = Elasticity2d::new(params(), PlaneModel::PlaneStrain, &mesh, 2)
            .unwrap()
            .port("right")
            .build()
            .unwrap();
        let e = m
            .interpolate_state(&|x| [1.0 + x[1], x[0] * x[1]], None)
            .unwrap();
        let sys = m.system();
        let sx: f64 = sys.port_output("right_tx", &e).unwrap().iter().sum();
        let sy: f64 = sys.port_output("right_ty", &e).unwrap().iter().sum();
        assert!((sx - 1.5).abs() < 1e-13, "{sx}");
        assert!((sy - 0.5).abs() < 1e-13, "{sy}");
        let mg = m.port_trace_mass("right_tx").unwrap();
        let ones = vec![1.0; mg.ncols()];
        let total: f64 = sparse::mul_vec(mg, &ones).iter().sum();
        assert!((total - 1.0).abs() < 1e-14);
        assert!(m.port_trace_mass("left_tx").is_err());
        let pv = m.evaluate(&e, [0.3, 0.7]).unwrap();
        let (v, g, s) = (pv.v, pv.grad_v, pv.sigma);
        assert!((v[0] - 1.7).abs() < 1e-13 && (v[1] - 0.21).abs() < 1e-13);
        assert!((g[1][0] - 0.7).abs() < 1e-12 && (g[1][1] - 0.3).abs() < 1e-12);
        assert_eq!(s, [0.0; 3]);
    }

    /// 3D face traction ports: for v = (1 + y, z, y z) interpolated exactly (k = 2) and
    /// all trace coefficients 1, yᵀu = ∫_Γ v_a dS on x = 1 of the unit cube: 3/2, 1/2, 1/4;
    /// the trace mass sums to the face area 1.
    #[test]
    fn traction_port_traces_3d() {
        let mesh = Mesh3d::box_mesh([0.0; 3], [1.0; 3], [2, 2, 2]).unwrap();
        let m = Elasticity3d::new(params(), &mesh, 2)
            .unwrap()
            .clamped("xmin")
            .port("xmax")
            .build()
            .unwrap();
        let sys = m.system();
        sys.check(&Default::default()).unwrap();
        // 9 vertices on the face
        assert_eq!(sys.n_inputs(), 27);
        let e = m.interpolate_state(&|x| [1.0 + x[1], x[2], x[1] * x[2]], None);
        for (port, exact) in [("xmax_tx", 1.5), ("xmax_ty", 0.5), ("xmax_tz", 0.25)] {
            let s: f64 = sys.port_output(port, &e).unwrap().iter().sum();
            assert!((s - exact).abs() < 1e-13, "{port}: {s}");
        }
        let mg = m.port_trace_mass("xmax_tz").unwrap();
        let ones = vec![1.0; mg.ncols()];
        let total: f64 = sparse::mul_vec(mg, &ones).iter().sum();
        assert!((total - 1.0).abs() < 1e-14);
        let err = Elasticity3d::new(params(), &mesh, 1)
            .unwrap()
            .fixed("zmax", 2)
            .port("zmax")
            .build()
            .unwrap_err();
        assert!(err.to_string().contains("zmax"), "{err}");
        assert!(Elasticity3d::new(params(), &mesh, 1)
            .unwrap()
            .fixed("zmax", 3)
            .build()
            .is_err());
        assert!(Elasticity3d::new(params(), &mesh, 3).is_err());
    }
}
