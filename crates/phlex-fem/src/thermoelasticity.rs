//! Coupled linear thermoelasticity in 2D (plane strain) as a port-Hamiltonian system:
//! the CG×DG elasticity of [`crate::elasticity`] joined to the heat equation through the
//! thermal stress and the structural heating (thesis 004 §5.1.3 eqs. (5.11), (5.18)–(5.21)
//! and the PFEM coupling (8.50); the 1D form is [`crate::thermoelastic_1d`]).
//!
//! **Continuous model.** With the velocity $v$, the elastic stress $\Sigma = \mathcal D
//! \operatorname{Grad}u$ and the normalized temperature $\theta = (T - T_0)/T_0$, plane strain
//! ($\varepsilon_{zz} = 0$), total stress $\Sigma - C_\beta\theta I$ and Fourier conduction:
//! $$\begin{aligned}
//! \rho\,\partial_t v &= \operatorname{Div}\Sigma - \operatorname{grad}(C_\beta\theta),\\
//! \mathcal C\,\partial_t\Sigma &= \operatorname{Grad} v,\\
//! C T_0\,\partial_t\theta &= -C_\beta\operatorname{div}v + \operatorname{div}(kT_0
//! \operatorname{grad}\theta),
//! \end{aligned}$$
//! $C = \rho c_\varepsilon$, $C_\beta = T_0\beta(3\lambda + 2\mu)$ ($\beta$ the linear
//! expansion coefficient; with $\varepsilon_{zz} = 0$ the in-plane thermal stress is still
//! $(3\lambda + 2\mu)\beta(T - T_0)$). In physical variables the heat line is
//! $\rho c_\varepsilon\dot T = -T_0\beta(3\lambda+2\mu)\operatorname{div}v + k\Delta T$.
//! The temperature scaling $\theta = (T-T_0)/T_0$ is the thesis's choice that makes the
//! coupling appear as the operator $\mathcal A_\beta = -\operatorname{grad}(C_\beta\,\cdot)$
//! in the momentum line and its formal adjoint $-\mathcal A_\beta^* = -C_\beta
//! \operatorname{div}$ in the heat line (the 2D analogue of (5.18)), so the interconnection
//! is skew and the Hamiltonian is
//! $$H = \tfrac12\int_\Omega\left(\rho|v|^2 + \Sigma:\mathcal C\Sigma + CT_0\theta^2\right)
//! = \tfrac12\int_\Omega\left(\rho|v|^2 + \Sigma:\mathcal C\Sigma +
//! \frac{\rho c_\varepsilon}{T_0}(T-T_0)^2\right),$$
//! the classical quadratic free energy of linear thermoelasticity.
//!
//! **PFEM** (degree $k$): $v \in (CG_k)^2$, $\Sigma \in (DG_{k-1})^{2\times2}_{\mathrm{sym}}$,
//! $\theta \in CG_k$. The whole momentum line is integrated by parts (traction input
//! $(\Sigma - C_\beta\theta I)n$, zero on free edges), and the conduction term of the heat
//! line too (heat-flux input $-kT_0\partial_n\theta$, zero on insulated edges), which
//! eliminates the flux $j_Q = -kT_0\operatorname{grad}\theta$ (the "temperature causality"
//! of [`crate::heat`]):
//! $$\begin{aligned}
//! \langle\phi_v, \rho\dot v\rangle &= -\langle\operatorname{Grad}\phi_v, \Sigma\rangle +
//!   \langle C_\beta\operatorname{div}\phi_v, \theta\rangle,\\
//! \langle\Phi_\sigma, \mathcal C\dot\Sigma\rangle &= \langle\Phi_\sigma,
//!   \operatorname{Grad}v\rangle,\\
//! \langle\phi_T, CT_0\dot\theta\rangle &= -\langle\phi_T, C_\beta\operatorname{div}v\rangle -
//!   \langle\operatorname{grad}\phi_T, kT_0\operatorname{grad}\theta\rangle,
//! \end{aligned}$$
//! i.e. $E\dot e = (J - R)e$ with
//! $$E = \operatorname{diag}(M_\rho, M_{\mathcal C}, M_{CT_0}),\quad
//! J = \begin{bmatrix}0 & -D_{\mathrm{Grad}}^\top & A_\beta\\ D_{\mathrm{Grad}} & 0 & 0\\
//! -A_\beta^\top & 0 & 0\end{bmatrix},\quad R = \operatorname{diag}(0, 0, K_T),$$
//! $A_\beta^{ij} = \langle C_\beta\operatorname{div}\phi_v^i, \phi_T^j\rangle$ (thesis
//! (8.50) in 2D), $K_T^{ij} = \langle kT_0\operatorname{grad}\phi_T^i,
//! \operatorname{grad}\phi_T^j\rangle \succeq 0$. Hence $\dot H = -\theta^\top K_T\theta
//! \le 0$ without inputs (the discrete (5.21)). For $\beta = 0$ the system is block
//! diagonal: exactly the [`crate::elasticity::Elasticity2d`] matrices and the heat pencil
//! $(CT_0M, K_T)$.
//!
//! **Boundary conditions** (by edge tag, strong by DOF removal): clamped ($v = 0$,
//! [`Thermoelasticity2d::clamped`]), single-component supports (rollers / symmetry,
//! [`Thermoelasticity2d::fixed`]), isothermal ($\theta = 0$, i.e. $T = T_0$,
//! [`Thermoelasticity2d::isothermal`]); every other edge is mechanically free (zero total
//! traction) and thermally insulated (zero heat flux).
//!
//! **3D** ([`Thermoelasticity3d`], tetrahedral meshes of [`crate::mesh3d`]): the same weak
//! form with $(CG_k)^3$ velocities, $(DG_{k-1})^{3\times3}_{\mathrm{sym}}$ stresses
//! (components $xx, yy, zz, yz, xz, xy$), $CG_k$ temperature, $k = 1, 2$, the 3D compliance
//! of [`ElasticParams::compliance_3d`] and $A_\beta^{ij} = \langle C_\beta
//! \operatorname{div}\phi_v^i, \phi_T^j\rangle$; boundary conditions on tagged faces.
use crate::assembly2d::{self, Op, Term};
use crate::elasticity::{ElasticParams, PlaneModel};
use crate::element3d::{bilinear3d, Family3d, Op3d, Shape3d, Space3d, Term3d};
use crate::error::{require_positive, FemError};
use crate::mesh2d::{Fem2dError, Mesh2d};
use crate::mesh3d::Mesh3d;
use crate::model::BlockAssembler;
use crate::space2d::{complement, Family2d, Shape, Space2d};
use phlex_core::sparse::{self, Triplets};
use phlex_core::{LinearPhSystem, PortSet, VarBlock};

/// Thermal data of linear thermoelasticity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThermalParams {
    /// Volumetric heat capacity at constant strain $C = \rho c_\varepsilon$ \[J/(m³ K)\].
    pub heat_capacity: f64,
    /// Thermal conductivity $k$ \[W/(m K)\].
    pub conductivity: f64,
    /// Reference (stress-free) absolute temperature $T_0$ \[K\].
    pub t0: f64,
    /// Linear thermal expansion coefficient $\beta$ \[1/K\] (`0` decouples the fields).
    pub beta: f64,
}

impl ThermalParams {
    /// Checks $C, k, T_0 > 0$ and $\beta \ge 0$ finite.
    pub fn validate(&self) -> Result<(), FemError> {
        require_positive("heat_capacity", self.heat_capacity)?;
        require_positive("conductivity", self.conductivity)?;
        require_positive("t0", self.t0)?;
        if !(self.beta >= 0.0 && self.beta.is_finite()) {
            return Err(FemError::InvalidParameter {
                name: "beta".into(),
                value: self.beta,
                requirement: "finite and >= 0 (use 0 for the uncoupled limit)".into(),
            });
        }
        Ok(())
    }
    /// Thermal diffusivity $k/C$.
    pub fn diffusivity(&self) -> f64 {
        self.conductivity / self.heat_capacity
    }
}

/// Thermal stress coefficient $C_\beta = T_0\beta(3\lambda + 2\mu)$ (stress per unit
/// normalized temperature $\theta$; plane strain and 3D).
pub fn thermal_stress_coefficient(el: &ElasticParams, th: &ThermalParams) -> f64 {
    th.t0 * th.beta * (3.0 * el.lame_lambda() + 2.0 * el.shear_modulus())
}

/// Coupling number $\delta = C_\beta^2/(CT_0(\lambda + 2\mu))$ (the Danilovskaya $\delta$
/// of [`crate::thermoelastic_1d`] for the uniaxial-strain modulus $\lambda + 2\mu$).
pub fn coupling_number(el: &ElasticParams, th: &ThermalParams) -> f64 {
    let cb = thermal_stress_coefficient(el, th);
    cb * cb / (th.heat_capacity * th.t0 * (el.lame_lambda() + 2.0 * el.shear_modulus()))
}

/// The three fields of the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThermoField2d {
    /// Velocity (block `e_v`, $(CG_k)^2$).
    Velocity,
    /// Elastic stress (block `E_sigma`, $(DG_{k-1})_{\mathrm{sym}}$, components $xx, xy, yy$).
    Stress,
    /// Normalized temperature $\theta = (T - T_0)/T_0$ (block `e_T`, $CG_k$).
    Temperature,
}

impl ThermoField2d {
    /// Block name.
    pub fn block_name(&self) -> &'static str {
        match self {
            ThermoField2d::Velocity => "e_v",
            ThermoField2d::Stress => "E_sigma",
            ThermoField2d::Temperature => "e_T",
        }
    }
    fn index(&self) -> usize {
        *self as usize
    }
}

/// Builder of the 2D plane-strain thermoelastic model (module docs).
#[derive(Debug, Clone)]
pub struct Thermoelasticity2d {
    elastic: ElasticParams,
    thermal: ThermalParams,
    mesh: Mesh2d,
    degree: usize,
    clamped: Vec<String>,
    fixed: Vec<(String, usize)>,
    isothermal: Vec<String>,
}

impl Thermoelasticity2d {
    /// Degree `1 <= k <= 3`; all edges free and insulated until tagged otherwise.
    pub fn new(
        elastic: ElasticParams,
        thermal: ThermalParams,
        mesh: &Mesh2d,
        degree: usize,
    ) -> Result<Self, Fem2dError> {
        elastic.validate()?;
        thermal.validate()?;
        if !(1..=3).contains(&degree) {
            return Err(FemError::UnsupportedDegree {
                what: "2D thermoelasticity degree k".into(),
                degree,
                supported: "1..=3".into(),
            }
            .into());
        }
        Ok(Self {
            elastic,
            thermal,
            mesh: mesh.clone(),
            degree,
            clamped: Vec::new(),
            fixed: Vec::new(),
            isothermal: Vec::new(),
        })
    }

    /// Clamps the edges tagged `tag` ($v = 0$).
    pub fn clamped(mut self, tag: &str) -> Self {
        self.clamped.push(tag.to_string());
        self
    }

    /// Fixes velocity component `axis` (0 = x, 1 = y) on the edges tagged `tag` (a roller /
    /// symmetry support on an edge normal to `axis`).
    pub fn fixed(mut self, tag: &str, axis: usize) -> Self {
        self.fixed.push((tag.to_string(), axis));
        self
    }

    /// Holds the edges tagged `tag` at the reference temperature ($\theta = 0$).
    pub fn isothermal(mut self, tag: &str) -> Self {
        self.isothermal.push(tag.to_string());
        self
    }

    /// Assembles the model.
    pub fn build(&self) -> Result<ThermoelasticityModel2d, Fem2dError> {
        let (el, th) = (&self.elastic, &self.thermal);
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
        let cb = thermal_stress_coefficient(el, th);
        let sv = Space2d::new(m, Family2d::Cg(k), Shape::Vector)?;
        let ss = Space2d::new(m, Family2d::Dg(k - 1), Shape::SymTensor)?;
        let st = Space2d::new(m, Family2d::Cg(k), Shape::Scalar)?;
        let sizes = [sv.n_dofs(), ss.n_dofs(), st.n_dofs()];
        let mut ba = BlockAssembler::new(&sizes);
        ba.mass(0, &assembly2d::mass(&sv, el.rho)?);
        ba.mass(
            1,
            &assembly2d::mass_pointwise(&ss, &el.compliance_2d(PlaneModel::PlaneStrain))?,
        );
        ba.mass(2, &assembly2d::mass(&st, th.heat_capacity * th.t0)?);
        // J_σv = D_Grad, J_vσ = −D_Gradᵀ
        ba.skew(1, 0, &assembly2d::sym_grad(&ss, &sv)?, 1.0);
        // J_vT = A_β, J_Tv = −A_βᵀ, A_β^{ij} = ⟨C_β div φ_v^i, φ_T^j⟩
        if cb != 0.0 {
            let A = assembly2d::bilinear(
                &sv,
                &st,
                &[
                    Term::new(0, Op::Dx, 0, Op::Value, cb),
                    Term::new(1, Op::Dy, 0, Op::Value, cb),
                ],
            )?;
            ba.skew(0, 2, &A, 1.0);
        }
        let kt = th.conductivity * th.t0;
        let KT = assembly2d::bilinear(
            &st,
            &st,
            &[
                Term::new(0, Op::Dx, 0, Op::Dx, kt),
                Term::new(0, Op::Dy, 0, Op::Dy, kt),
            ],
        )?;
        let n_full = ba.n();
        let oT = sizes[0] + sizes[1];
        let mut tr = Triplets::new(n_full, n_full);
        tr.push_block(oT, oT, &KT, 1.0);
        let (E_full, J_full, R_full) = (ba.E.build(), ba.J.build(), tr.build());
        // strong conditions: remove velocity and temperature DOFs
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
        let ttags: Vec<&str> = self.isothermal.iter().map(|s| s.as_str()).collect();
        if !ttags.is_empty() {
            removed.extend(st.boundary_dofs(&ttags)?.into_iter().map(|i| i + oT));
        }
        removed.sort_unstable();
        removed.dedup();
        let kept = complement(n_full, &removed);
        let n = kept.len();
        let n_v = kept.iter().filter(|&&i| i < sizes[0]).count();
        let n_T = kept.iter().filter(|&&i| i >= oT).count();
        let blocks = vec![
            VarBlock::differential("e_v", "velocity (x, y) [m/s]", n_v),
            VarBlock::differential(
                "E_sigma",
                "elastic stress (xx, xy, yy) [N/m^2] (DG, plane strain)",
                n - n_v - n_T,
            ),
            VarBlock::differential("e_T", "normalized temperature (T - T0)/T0 [-]", n_T),
        ];
        let system = LinearPhSystem::new(
            sparse::restrict(&E_full, &kept, &kept),
            sparse::restrict(&J_full, &kept, &kept),
            sparse::restrict(&R_full, &kept, &kept),
            Triplets::new(n, 0).build(),
            PortSet::from_ports(Vec::new())?,
            blocks,
        )?;
        Ok(ThermoelasticityModel2d {
            elastic: *el,
            thermal: *th,
            c_beta: cb,
            degree: k,
            system,
            spaces: [sv, ss, st],
            offsets: [0, sizes[0], oT, n_full],
            kept,
        })
    }
}

/// An assembled 2D thermoelastic model.
#[derive(Debug, Clone)]
pub struct ThermoelasticityModel2d {
    elastic: ElasticParams,
    thermal: ThermalParams,
    c_beta: f64,
    degree: usize,
    system: LinearPhSystem,
    spaces: [Space2d; 3],
    offsets: [usize; 4],
    kept: Vec<usize>,
}

impl ThermoelasticityModel2d {
    /// The pH system $E\dot e = (J - R)e$ (blocks `e_v`, `E_sigma`, `e_T`; no ports).
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// Elastic data.
    pub fn elastic_params(&self) -> &ElasticParams {
        &self.elastic
    }
    /// Thermal data.
    pub fn thermal_params(&self) -> &ThermalParams {
        &self.thermal
    }
    /// $C_\beta = T_0\beta(3\lambda + 2\mu)$.
    pub fn c_beta(&self) -> f64 {
        self.c_beta
    }
    /// Degree $k$.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// Finite element space of a field (all DOFs, before the strong conditions).
    pub fn space(&self, f: ThermoField2d) -> &Space2d {
        &self.spaces[f.index()]
    }
    /// Open-state index (velocity, stress, temperature DOFs concatenated) of every retained
    /// state variable.
    pub fn kept_dofs(&self) -> &[usize] {
        &self.kept
    }
    /// Number of states.
    pub fn n_states(&self) -> usize {
        self.kept.len()
    }
    /// Coefficients of field `f` on its full space (removed DOFs zero) from a state.
    pub fn field_coefficients(&self, e: &[f64], f: ThermoField2d) -> Result<Vec<f64>, Fem2dError> {
        if e.len() != self.kept.len() {
            return Err(FemError::Length {
                what: "2D thermoelastic state".into(),
                expected: self.kept.len(),
                found: e.len(),
            }
            .into());
        }
        let (lo, hi) = (self.offsets[f.index()], self.offsets[f.index() + 1]);
        let mut u = vec![0.0; hi - lo];
        for (s, &i) in self.kept.iter().enumerate() {
            if (lo..hi).contains(&i) {
                u[i - lo] = e[s];
            }
        }
        Ok(u)
    }
    /// State from the nodal interpolants of a velocity field and a normalized temperature
    /// field (zero elastic stress); values on removed DOFs are dropped.
    pub fn interpolate_state(
        &self,
        v: &dyn Fn([f64; 2]) -> [f64; 2],
        theta: &dyn Fn([f64; 2]) -> f64,
    ) -> Vec<f64> {
        let vc = self.spaces[0].interpolate(&|x, o| o.copy_from_slice(&v(x)));
        let tc = self.spaces[2].interpolate(&|x, o| o[0] = theta(x));
        let [_, o1, o2, _] = self.offsets;
        self.kept
            .iter()
            .map(|&i| {
                if i < o1 {
                    vc[i]
                } else if i < o2 {
                    0.0
                } else {
                    tc[i - o2]
                }
            })
            .collect()
    }
}

/// Builder of the 3D thermoelastic model (module docs, "3D").
#[derive(Debug, Clone)]
pub struct Thermoelasticity3d {
    elastic: ElasticParams,
    thermal: ThermalParams,
    mesh: Mesh3d,
    degree: usize,
    clamped: Vec<String>,
    fixed: Vec<(String, usize)>,
    isothermal: Vec<String>,
}

impl Thermoelasticity3d {
    /// Degree `1 <= k <= 2`; all faces free and insulated until tagged otherwise.
    pub fn new(
        elastic: ElasticParams,
        thermal: ThermalParams,
        mesh: &Mesh3d,
        degree: usize,
    ) -> Result<Self, Fem2dError> {
        elastic.validate()?;
        thermal.validate()?;
        if !(1..=2).contains(&degree) {
            return Err(FemError::UnsupportedDegree {
                what: "3D thermoelasticity degree k".into(),
                degree,
                supported: "1..=2".into(),
            }
            .into());
        }
        Ok(Self {
            elastic,
            thermal,
            mesh: mesh.clone(),
            degree,
            clamped: Vec::new(),
            fixed: Vec::new(),
            isothermal: Vec::new(),
        })
    }

    /// Clamps the faces tagged `tag` ($v = 0$).
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

    /// Holds the faces tagged `tag` at the reference temperature ($\theta = 0$).
    pub fn isothermal(mut self, tag: &str) -> Self {
        self.isothermal.push(tag.to_string());
        self
    }

    /// Assembles the model (blocks `e_v`, `E_sigma`, `e_T`; no ports).
    pub fn build(&self) -> Result<ThermoelasticityModel3d, Fem2dError> {
        let (el, th) = (&self.elastic, &self.thermal);
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
        let cb = thermal_stress_coefficient(el, th);
        let sv = Space3d::new(&self.mesh, Family3d::Cg(k), Shape3d::Vector)?;
        let ss = Space3d::new(&self.mesh, Family3d::Dg(k - 1), Shape3d::SymTensor)?;
        let st = Space3d::new(&self.mesh, Family3d::Cg(k), Shape3d::Scalar)?;
        let sizes = [sv.n_dofs(), ss.n_dofs(), st.n_dofs()];
        let mut ba = BlockAssembler::new(&sizes);
        let v = Op3d::Value;
        let mass: Vec<Term3d> = (0..3).map(|c| (c, v, c, v, el.rho)).collect();
        ba.mass(0, &bilinear3d(&sv, &sv, &mass)?);
        let q = el.compliance_3d();
        let mut comp = Vec::new();
        for a in 0..6 {
            for b in 0..6 {
                if q[a * 6 + b] != 0.0 {
                    comp.push((a, v, b, v, q[a * 6 + b]));
                }
            }
        }
        ba.mass(1, &bilinear3d(&ss, &ss, &comp)?);
        ba.mass(
            2,
            &bilinear3d(&st, &st, &[(0, v, 0, v, th.heat_capacity * th.t0)])?,
        );
        // Φ:Grad v (components xx, yy, zz, yz, xz, xy), as in Elasticity3d
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
        if cb != 0.0 {
            let div: Vec<Term3d> = (0..3).map(|c| (c, Op3d::D(c), 0, v, cb)).collect();
            ba.skew(0, 2, &bilinear3d(&sv, &st, &div)?, 1.0);
        }
        let kt = th.conductivity * th.t0;
        let lap: Vec<Term3d> = (0..3).map(|c| (0, Op3d::D(c), 0, Op3d::D(c), kt)).collect();
        let KT = bilinear3d(&st, &st, &lap)?;
        let n_full = ba.n();
        let oT = sizes[0] + sizes[1];
        let mut tr = Triplets::new(n_full, n_full);
        tr.push_block(oT, oT, &KT, 1.0);
        let (E_full, J_full, R_full) = (ba.E.build(), ba.J.build(), tr.build());
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
        let ttags: Vec<&str> = self.isothermal.iter().map(|s| s.as_str()).collect();
        if !ttags.is_empty() {
            removed.extend(st.boundary_dofs(&ttags)?.into_iter().map(|i| i + oT));
        }
        removed.sort_unstable();
        removed.dedup();
        let kept = complement(n_full, &removed);
        let n = kept.len();
        let n_v = kept.iter().filter(|&&i| i < sizes[0]).count();
        let n_T = kept.iter().filter(|&&i| i >= oT).count();
        let system = LinearPhSystem::new(
            sparse::restrict(&E_full, &kept, &kept),
            sparse::restrict(&J_full, &kept, &kept),
            sparse::restrict(&R_full, &kept, &kept),
            Triplets::new(n, 0).build(),
            PortSet::from_ports(Vec::new())?,
            vec![
                VarBlock::differential("e_v", "velocity (x, y, z) [m/s]", n_v),
                VarBlock::differential(
                    "E_sigma",
                    "elastic stress (xx, yy, zz, yz, xz, xy) [N/m^2] (DG)",
                    n - n_v - n_T,
                ),
                VarBlock::differential("e_T", "normalized temperature (T - T0)/T0 [-]", n_T),
            ],
        )?;
        Ok(ThermoelasticityModel3d {
            c_beta: cb,
            system,
            spaces: [sv, ss, st],
            offsets: [0, sizes[0], oT, n_full],
            kept,
        })
    }
}

/// An assembled 3D thermoelastic model.
#[derive(Debug, Clone)]
pub struct ThermoelasticityModel3d {
    c_beta: f64,
    system: LinearPhSystem,
    spaces: [Space3d; 3],
    offsets: [usize; 4],
    kept: Vec<usize>,
}

impl ThermoelasticityModel3d {
    /// The pH system $E\dot e = (J - R)e$ (blocks `e_v`, `E_sigma`, `e_T`; no ports).
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// $C_\beta = T_0\beta(3\lambda + 2\mu)$.
    pub fn c_beta(&self) -> f64 {
        self.c_beta
    }
    /// Finite element space of a field (all DOFs, before the strong conditions).
    pub fn space(&self, f: ThermoField2d) -> &Space3d {
        &self.spaces[f.index()]
    }
    /// Open-state index of every retained state variable.
    pub fn kept_dofs(&self) -> &[usize] {
        &self.kept
    }
    /// State from the nodal interpolants of a velocity and a normalized temperature field
    /// (zero elastic stress); values on removed DOFs are dropped.
    pub fn interpolate_state(
        &self,
        v: &dyn Fn([f64; 3]) -> [f64; 3],
        theta: &dyn Fn([f64; 3]) -> f64,
    ) -> Vec<f64> {
        let vc = self.spaces[0].interpolate(&|x, o| o.copy_from_slice(&v(x)));
        let tc = self.spaces[2].interpolate(&|x, o| o[0] = theta(x));
        let [_, o1, o2, _] = self.offsets;
        self.kept
            .iter()
            .map(|&i| {
                if i < o1 {
                    vc[i]
                } else if i < o2 {
                    0.0
                } else {
                    tc[i - o2]
                }
            })
            .collect()
    }
}
