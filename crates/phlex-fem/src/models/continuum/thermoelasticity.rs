//! Coupled linear thermoelasticity in 2D (plane strain or plane stress) and 3D as a
//! port-Hamiltonian system: the CG×DG elasticity of [`crate::models::continuum::elasticity`] joined to the
//! heat equation through the thermal stress and the structural heating (thesis 004 §5.1.3
//! eqs. (5.11), (5.18)–(5.21) and the PFEM coupling (8.50); the 1D form is
//! [`crate::models::continuum::thermoelastic_1d`]), with mechanical traction ports and heat-flux ports on tagged
//! boundaries.
//!
//! **Continuous model** (3D, and 2D plane strain). With the velocity $v$, the elastic
//! stress $\Sigma = \mathcal D \operatorname{Grad}u$ and the normalized temperature
//! $\theta = (T - T_0)/T_0$, total stress $\Sigma - C_\beta\theta I$ and Fourier conduction:
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
//! \frac{\rho c_\varepsilon}{T_0}(T-T_0)^2\right).$$
//! The thermal part $\frac{C}{2T_0}(T - T_0)^2$ is the quadratic approximation of the
//! thermal exergy (availability) density $C[(T - T_0) - T_0\ln(T/T_0)]$ relative to a
//! reservoir at $T_0$, and the conduction dissipation $kT_0|\nabla\theta|^2 =
//! k|\nabla T|^2/T_0 \approx T_0\cdot k|\nabla T|^2/T^2$ is $T_0$ times the entropy production
//! (Gouy–Stodola): $H$ is an exergy, not the internal energy (thesis §5.1.1, summary §2.8).
//!
//! **Plane stress** ($\sigma_{zz} = 0$, thin plate of unit thickness whose faces are
//! traction-free and insulated, so $T$ is uniform through the thickness and conduction is
//! 2D). Eliminating $\varepsilon_{zz}$ from $\sigma_{zz} = \lambda\operatorname{tr}_2\varepsilon +
//! (\lambda + 2\mu)\varepsilon_{zz} - C_\beta\theta = 0$ in the 3D equations gives the
//! same 2D system with starred constants:
//! $$\varepsilon_{zz} = \frac{C_\beta\theta - \lambda\operatorname{tr}_2\varepsilon}{\lambda +
//! 2\mu},\quad \lambda^* = \frac{2\mu\lambda}{\lambda + 2\mu} = \frac{E\nu}{1-\nu^2},\quad
//! C_\beta^* = \frac{2\mu}{\lambda+2\mu}C_\beta = \frac{E\beta T_0}{1-\nu},\quad
//! C^* = C + \frac{C_\beta^2}{T_0(\lambda + 2\mu)},$$
//! i.e. the plane-stress compliance $\mathcal C\Sigma = \frac1E[(1+\nu)\Sigma -
//! \nu\operatorname{tr}(\Sigma)I]$ ($E^* = E$, $\nu^* = \nu/(1+\nu)$ in the plane-strain
//! form), the thermal stress $E\beta(T - T_0)/(1-\nu)$ and the heat line
//! $C^*T_0\dot\theta = -C_\beta^*\operatorname{div}v + \operatorname{div}(kT_0
//! \operatorname{grad}\theta)$: the out-of-plane strain rate $\dot\varepsilon_{zz}$ carries
//! a part $C_\beta\dot\theta/(\lambda+2\mu)$ of the structural heating, which adds
//! $C_\beta^2/(T_0(\lambda+2\mu)) = T_0\beta^2 E(1+\nu)/((1-2\nu)(1-\nu))$ to the heat
//! capacity ($C^*$ is the capacity at constant in-plane strain and $\sigma_{zz} = 0$;
//! `heat_capacity` is always the 3D $\rho c_\varepsilon$). A free plate heated uniformly by
//! $\Delta T$ expands freely by $\varepsilon = \beta\Delta T\,I$ with zero stress: the
//! elastic stress $\Sigma = \mathcal D^*\beta\Delta T I = \frac{E\beta\Delta T}{1-\nu}I$
//! cancels $C_\beta^*\theta I$ ([`plane_thermal_stress_coefficient`],
//! [`plane_heat_capacity`]).
//!
//! **PFEM** (degree $k$): $v \in (CG_k)^d$, $\Sigma \in (DG_{k-1})^{d\times d}_{\mathrm{sym}}$,
//! $\theta \in CG_k$. The whole momentum line is integrated by parts (boundary term: the
//! total traction $\tau = (\Sigma - C_\beta\theta I)n$, zero on free edges), and the
//! conduction term of the heat line too (boundary term: the heat flux *entering* the body
//! $q = kT_0\partial_n\theta = k\partial_n T$ \[W/m²\], zero on insulated edges), which
//! eliminates the flux $j_Q = -kT_0\operatorname{grad}\theta$ (the "temperature causality"
//! of [`crate::models::continuum::heat`]):
//! $$\begin{aligned}
//! \langle\phi_v, \rho\dot v\rangle &= -\langle\operatorname{Grad}\phi_v, \Sigma\rangle +
//!   \langle C_\beta\operatorname{div}\phi_v, \theta\rangle + \langle\phi_v,
//!   \tau\rangle_{\Gamma_\tau},\\
//! \langle\Phi_\sigma, \mathcal C\dot\Sigma\rangle &= \langle\Phi_\sigma,
//!   \operatorname{Grad}v\rangle,\\
//! \langle\phi_T, CT_0\dot\theta\rangle &= -\langle\phi_T, C_\beta\operatorname{div}v\rangle -
//!   \langle\operatorname{grad}\phi_T, kT_0\operatorname{grad}\theta\rangle +
//!   \langle\phi_T, q\rangle_{\Gamma_q},
//! \end{aligned}$$
//! i.e. $E\dot e = (J - R)e + Bu$ with
//! $$E = \operatorname{diag}(M_\rho, M_{\mathcal C}, M_{CT_0}),\quad
//! J = \begin{bmatrix}0 & -D_{\mathrm{Grad}}^\top & A_\beta\\ D_{\mathrm{Grad}} & 0 & 0\\
//! -A_\beta^\top & 0 & 0\end{bmatrix},\quad R = \operatorname{diag}(0, 0, K_T),\quad
//! B = \begin{bmatrix}B_\tau & 0\\ 0 & 0\\ 0 & B_q\end{bmatrix},$$
//! $A_\beta^{ij} = \langle C_\beta\operatorname{div}\phi_v^i, \phi_T^j\rangle$ (thesis
//! (8.50) in 2D), $K_T^{ij} = \langle kT_0\operatorname{grad}\phi_T^i,
//! \operatorname{grad}\phi_T^j\rangle \succeq 0$, $B_{\tau,a}^{il} = \langle\phi_{v,a}^i,
//! \psi^l\rangle_{\Gamma_\tau}$, $B_q^{il} = \langle\phi_T^i, \psi^l\rangle_{\Gamma_q}$ with the
//! $P_1$ trace basis $\psi^l$ of the port's boundary vertices (as the traction ports of
//! [`crate::models::continuum::elasticity`]). The collocated outputs $y = B^\top e$ are the weighted traces
//! $\int_\Gamma v_a\psi^l$ (mechanical, force causality) and $\int_\Gamma\theta\psi^l$
//! (thermal), so the discrete power balance is
//! $$\dot H = -\theta^\top K_T\theta + y_\tau^\top u_\tau + y_q^\top u_q,\qquad
//! y_q^\top u_q = \int_{\Gamma_q}\theta\,q = \int_{\Gamma_q}\frac{T - T_0}{T_0}\,q,$$
//! the mechanical power $\int v\cdot\tau$ plus the exergy inflow of the heat flux (the
//! Carnot-weighted heat $q(1 - T_0/T)$ linearized about $T_0$) — the pairing of the thesis's
//! $\theta$-normalised heat port (5.2), *not* $\int Tq$ (the heat itself, conjugate to the
//! internal energy). Without inputs $\dot H = -\theta^\top K_T\theta \le 0$ (the discrete
//! (5.21)); the midpoint rule preserves the balance exactly: $H_1 - H_0 = h\bar y^\top\bar u -
//! h\bar e^\top R\bar e$. The heat balance of the body follows from testing with
//! $\phi_T = 1$ (when no temperature DOF is removed): $\frac{d}{dt}\int CT_0\theta =
//! \int_{\Gamma_q} q - C_\beta\int_{\partial\Omega}v\cdot n$, i.e. $\int\rho c(T - T_0)$
//! changes by the heat let in minus the thermoelastic work of the boundary motion. For
//! $\beta = 0$ the system is block diagonal: exactly the
//! [`crate::models::continuum::elasticity::Elasticity2d`] matrices and the heat pencil $(CT_0M, K_T)$.
//!
//! **Boundary conditions** (by edge tag): clamped ($v = 0$, [`Thermoelasticity2d::clamped`]),
//! single-component supports (rollers / symmetry, [`Thermoelasticity2d::fixed`]),
//! isothermal ($\theta = 0$, i.e. $T = T_0$, [`Thermoelasticity2d::isothermal`]), all
//! strong by DOF removal; traction ports ([`Thermoelasticity2d::port`], ports
//! `"{tag}_tx"`, `"{tag}_ty"`) and heat-flux ports ([`Thermoelasticity2d::heat_flux_port`],
//! port `"{tag}_flux"`), natural. Every other edge is mechanically free (zero total
//! traction) and thermally insulated (zero heat flux). The mechanical and the thermal
//! condition of a tag are independent (a roller may carry a heat-flux port), but a traction
//! port cannot be clamped/supported and a heat-flux port cannot be isothermal.
//!
//! **3D** ([`Thermoelasticity3d`], tetrahedral meshes of [`crate::mesh::tet`]): the same weak
//! form with $(CG_k)^3$ velocities, $(DG_{k-1})^{3\times3}_{\mathrm{sym}}$ stresses
//! (components $xx, yy, zz, yz, xz, xy$), $CG_k$ temperature, $k = 1, 2$, the 3D compliance
//! of [`ElasticParams::compliance_3d`] and $A_\beta^{ij} = \langle C_\beta
//! \operatorname{div}\phi_v^i, \phi_T^j\rangle$; boundary conditions and ports (`"{tag}_tx"`,
//! `"{tag}_ty"`, `"{tag}_tz"`, `"{tag}_flux"`, $P_1$ trace basis of the face vertices) on
//! tagged faces.
use crate::error::{require_degree, require_thermal, Fem2dError, FemError};
use crate::models::continuum::dimension::{elastic_blocks, ContinuumSpace};
use crate::models::continuum::elasticity::{ElasticParams, PlaneModel};
use crate::models::continuum::supports::{
    assemble_ports, Boundaries, HeatSupports, Supports, TraceMasses,
};
use crate::models::model::BlockAssembler;
use crate::models::restriction::Restriction;
use crate::space::tet::Space3d;
use crate::space::triangle::Space2d;
use phlex_core::sparse::{self, SparseMat, Triplets};
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
        require_thermal(self.heat_capacity, self.conductivity, self.t0)?;
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

/// Thermal stress coefficient of a 2D model (module docs, "Plane stress"): $C_\beta$ in
/// plane strain, $C_\beta^* = \frac{2\mu}{\lambda + 2\mu}C_\beta = E\beta T_0/(1-\nu)$ in
/// plane stress.
pub fn plane_thermal_stress_coefficient(
    el: &ElasticParams,
    th: &ThermalParams,
    plane: PlaneModel,
) -> f64 {
    match plane {
        PlaneModel::PlaneStrain => thermal_stress_coefficient(el, th),
        PlaneModel::PlaneStress => th.t0 * th.beta * el.E / (1.0 - el.nu),
    }
}

/// Heat capacity of a 2D model (module docs, "Plane stress"): $C = \rho c_\varepsilon$ in
/// plane strain, $C^* = C + C_\beta^2/(T_0(\lambda + 2\mu))$ in plane stress (the part of the
/// structural heating carried by $\dot\varepsilon_{zz}$ at $\sigma_{zz} = 0$).
pub fn plane_heat_capacity(el: &ElasticParams, th: &ThermalParams, plane: PlaneModel) -> f64 {
    match plane {
        PlaneModel::PlaneStrain => th.heat_capacity,
        PlaneModel::PlaneStress => {
            let cb = thermal_stress_coefficient(el, th);
            th.heat_capacity + cb * cb / (th.t0 * (el.lame_lambda() + 2.0 * el.shear_modulus()))
        }
    }
}

/// Coupling number $\delta = C_\beta^2/(CT_0(\lambda + 2\mu))$ (the Danilovskaya $\delta$
/// of [`crate::models::continuum::thermoelastic_1d`] for the uniaxial-strain modulus $\lambda + 2\mu$).
pub fn coupling_number(el: &ElasticParams, th: &ThermalParams) -> f64 {
    let cb = thermal_stress_coefficient(el, th);
    cb * cb / (th.heat_capacity * th.t0 * (el.lame_lambda() + 2.0 * el.shear_modulus()))
}

/// Coupling number of a 2D model for in-plane uniaxial strain: $\delta = C_\beta^2/(CT_0
/// (\lambda + 2\mu))$ (plane strain, = [`coupling_number`]) or $\delta^* =
/// C_\beta^{*2}/(C^*T_0(\lambda^* + 2\mu))$ (plane stress, $\lambda^* + 2\mu = E/(1-\nu^2)$).
pub fn plane_coupling_number(el: &ElasticParams, th: &ThermalParams, plane: PlaneModel) -> f64 {
    let cb = plane_thermal_stress_coefficient(el, th, plane);
    let c = plane_heat_capacity(el, th, plane);
    cb * cb / (c * th.t0 * (el.plane_lambda(plane) + 2.0 * el.shear_modulus()))
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

/// Builder of the thermoelastic model (module docs) on the spaces `S` of one dimension:
/// [`Thermoelasticity2d`] (plane strain unless [`Thermoelasticity2d::plane`] selects plane
/// stress) and [`Thermoelasticity3d`].
#[derive(Debug, Clone)]
pub struct Thermoelasticity<S: ContinuumSpace> {
    elastic: ElasticParams,
    thermal: ThermalParams,
    reduction: S::Reduction,
    mesh: S::Mesh,
    degree: usize,
    bd: Boundaries,
}

/// Builder of the 2D thermoelastic model (module docs), plane strain unless
/// [`Thermoelasticity::plane`] selects plane stress.
pub type Thermoelasticity2d = Thermoelasticity<Space2d>;

/// Builder of the 3D thermoelastic model (module docs, "3D").
pub type Thermoelasticity3d = Thermoelasticity<Space3d>;

impl<S: ContinuumSpace> Supports for Thermoelasticity<S> {
    fn boundaries_mut(&mut self) -> &mut Boundaries {
        &mut self.bd
    }
}

impl<S: ContinuumSpace> HeatSupports for Thermoelasticity<S> {}

impl<S: ContinuumSpace> Thermoelasticity<S> {
    /// Degree `1 <= k <= 3` in 2D, `1 <= k <= 2` in 3D; plane strain in 2D; all edges /
    /// faces free and insulated until tagged otherwise.
    pub fn new(
        elastic: ElasticParams,
        thermal: ThermalParams,
        mesh: &S::Mesh,
        degree: usize,
    ) -> Result<Self, Fem2dError> {
        elastic.validate()?;
        thermal.validate()?;
        let what = format!("{}D thermoelasticity degree k", S::DIM);
        require_degree(&what, degree, 1..=S::MAX_DEGREE)?;
        Ok(Self {
            elastic,
            thermal,
            reduction: S::Reduction::default(),
            mesh: mesh.clone(),
            degree,
            bd: Boundaries::default(),
        })
    }

    /// Assembles the model (blocks `e_v`, `E_sigma`, `e_T`; traction then heat-flux ports):
    /// $E = \operatorname{diag}(M_\rho, M_{\mathcal C}, M_{CT_0})$, $J$ with $D_{\mathrm{Grad}}$
    /// and $A_\beta$, $R = \operatorname{diag}(0, 0, K_T)$ (module docs, thesis (8.50)).
    pub fn build(&self) -> Result<ThermoelasticityModel<S>, Fem2dError> {
        let (el, th) = (&self.elastic, &self.thermal);
        let k = self.degree;
        self.bd.validate(S::DIM)?;
        let plane = S::plane(self.reduction);
        let cb = plane_thermal_stress_coefficient(el, th, plane);
        let cap = plane_heat_capacity(el, th, plane);
        let sv = S::cg_vector(&self.mesh, k)?;
        let ss = S::dg_sym_tensor(&self.mesh, k - 1)?;
        let st = S::cg_scalar(&self.mesh, k)?;
        let sizes = [sv.n_dofs(), ss.n_dofs(), st.n_dofs()];
        let mut ba = BlockAssembler::new(&sizes);
        // J_σv = D_Grad, J_vσ = −D_Gradᵀ
        elastic_blocks(&mut ba, &sv, &ss, el, self.reduction)?;
        ba.mass(2, &st.scalar_mass(cap * th.t0)?);
        // J_vT = A_β, J_Tv = −A_βᵀ, A_β^{ij} = ⟨C_β div φ_v^i, φ_T^j⟩
        if cb != 0.0 {
            ba.skew(0, 2, &S::divergence(&sv, &st, cb)?, 1.0);
        }
        let KT = st.grad_grad(th.conductivity * th.t0)?;
        let n_full = ba.n();
        let oT = sizes[0] + sizes[1];
        let mut tr = Triplets::new(n_full, n_full);
        tr.push_block(oT, oT, &KT, 1.0);
        let (E_full, J_full, R_full) = (ba.E.build(), ba.J.build(), tr.build());
        // strong conditions: remove velocity and temperature DOFs
        let mut removed = self.bd.supported_dofs(&sv)?;
        removed.extend(self.bd.isothermal_dofs(&st, oT)?);
        let dofs = Restriction::new(&sizes, removed);
        let (n, n_v, n_T) = (dofs.len(), dofs.kept_in(0), dofs.kept_in(2));
        let stress = match S::reduction_name(self.reduction) {
            Some(name) => format!("(DG, {name})"),
            None => "(DG)".to_string(),
        };
        let blocks = vec![
            VarBlock::differential(
                "e_v",
                format!("velocity {} [m/s]", S::VELOCITY_COMPONENTS),
                n_v,
            ),
            VarBlock::differential(
                "E_sigma",
                format!("elastic stress {} [N/m^2] {stress}", S::STRESS_COMPONENTS),
                n - n_v - n_T,
            ),
            VarBlock::differential("e_T", "normalized temperature (T - T0)/T0 [-]", n_T),
        ];
        let traces = |tag: &str, mech: bool| {
            if mech {
                sv.traces(tag, n_full, 0)
            } else {
                st.traces(tag, n_full, oT)
            }
        };
        let (ports, B, trace_masses) =
            assemble_ports(&self.bd, &dofs, &traces, S::DIM, &total_traction)?;
        let system = LinearPhSystem::new(
            dofs.restrict(&E_full),
            dofs.restrict(&J_full),
            dofs.restrict(&R_full),
            B,
            PortSet::from_ports(ports)?,
            blocks,
        )?;
        Ok(ThermoelasticityModel {
            elastic: *el,
            thermal: *th,
            reduction: self.reduction,
            c_beta: cb,
            heat_capacity: cap,
            degree: k,
            system,
            spaces: [sv, ss, st],
            dofs,
            trace_masses,
        })
    }
}

impl Thermoelasticity<Space2d> {
    /// Selects the 2D reduction: plane strain (default) or plane stress (thin plate, module
    /// docs "Plane stress": compliance with $\nu^* = \nu/(1+\nu)$, $C_\beta^* = E\beta
    /// T_0/(1-\nu)$, $C^* = C + C_\beta^2/(T_0(\lambda+2\mu))$).
    pub fn plane(mut self, plane: PlaneModel) -> Self {
        self.reduction = plane;
        self
    }
}

/// An assembled thermoelastic model on the spaces `S` ([`ThermoelasticityModel2d`],
/// [`ThermoelasticityModel3d`]).
#[derive(Debug, Clone)]
pub struct ThermoelasticityModel<S: ContinuumSpace> {
    elastic: ElasticParams,
    thermal: ThermalParams,
    reduction: S::Reduction,
    c_beta: f64,
    heat_capacity: f64,
    degree: usize,
    system: LinearPhSystem,
    spaces: [S; 3],
    dofs: Restriction,
    trace_masses: TraceMasses,
}

/// An assembled 2D thermoelastic model.
pub type ThermoelasticityModel2d = ThermoelasticityModel<Space2d>;

/// An assembled 3D thermoelastic model.
pub type ThermoelasticityModel3d = ThermoelasticityModel<Space3d>;

impl<S: ContinuumSpace> ThermoelasticityModel<S> {
    /// The pH system $E\dot e = (J - R)e + Bu$ (blocks `e_v`, `E_sigma`, `e_T`; traction
    /// ports `{tag}_tx`, `{tag}_ty` (, `{tag}_tz`), then heat-flux ports `{tag}_flux`).
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
    /// Thermal stress coefficient used: $C_\beta = T_0\beta(3\lambda + 2\mu)$ (3D and plane
    /// strain) or $C_\beta^* = E\beta T_0/(1-\nu)$ (plane stress).
    pub fn c_beta(&self) -> f64 {
        self.c_beta
    }
    /// Heat capacity used: $C$ (3D and plane strain) or $C^*$ (plane stress).
    pub fn heat_capacity(&self) -> f64 {
        self.heat_capacity
    }
    /// Degree $k$.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// Finite element space of a field (all DOFs, before the strong conditions).
    pub fn space(&self, f: ThermoField2d) -> &S {
        &self.spaces[f.index()]
    }
    /// Trace mass $M_\Gamma^{lm} = \int_\Gamma\psi^l\psi^m$ of the $P_1$ trace basis of port
    /// `port` (traction or heat flux).
    pub fn port_trace_mass(&self, port: &str) -> Result<&SparseMat, Fem2dError> {
        self.trace_masses.get(&self.system, port)
    }
    /// Open-state index (velocity, stress, temperature DOFs concatenated) of every retained
    /// state variable.
    pub fn kept_dofs(&self) -> &[usize] {
        self.dofs.kept()
    }
    /// Number of states.
    pub fn n_states(&self) -> usize {
        self.dofs.len()
    }
    /// Coefficients of field `f` on its full space (removed DOFs zero) from a state.
    pub fn field_coefficients(&self, e: &[f64], f: ThermoField2d) -> Result<Vec<f64>, Fem2dError> {
        let what = format!("{}D thermoelastic state", S::DIM);
        self.dofs.field(e, self.n_states(), f.index(), &what)
    }
    /// State from the nodal interpolants of a velocity field and a normalized temperature
    /// field (zero elastic stress); values on removed DOFs are dropped.
    pub fn interpolate_state(
        &self,
        v: &dyn Fn(S::Point) -> S::Point,
        theta: &dyn Fn(S::Point) -> f64,
    ) -> Vec<f64> {
        let vc = self.spaces[0].interpolate_at(&|x, o| o.copy_from_slice(v(x).as_ref()));
        let tc = self.spaces[2].interpolate_at(&|x, o| o[0] = theta(x));
        self.dofs.gather(&[Some(&vc), None, Some(&tc)])
    }
    /// Heat content relative to $T_0$, $\int_\Omega C T_0\theta = \int_\Omega C(T - T_0)$
    /// \[J; per unit thickness in 2D\] (with $C^*$ in plane stress), of state `e`.
    pub fn heat_content(&self, e: &[f64]) -> Result<f64, Fem2dError> {
        let tc = self.field_coefficients(e, ThermoField2d::Temperature)?;
        // the Lagrange basis sums to 1: 1ᵀ M θ = ∫ C T0 θ
        let M = self.spaces[2].scalar_mass(self.heat_capacity * self.thermal.t0)?;
        Ok(sparse::mul_vec(&M, &tc).iter().sum())
    }
}

impl ThermoelasticityModel<Space2d> {
    /// Plane strain or plane stress.
    pub fn plane(&self) -> PlaneModel {
        self.reduction
    }
}

/// Input description of a traction port of the thermoelastic models (the total traction).
fn total_traction(tag: &str, c: &str) -> String {
    format!("applied total traction tau_{c} = ((Sigma - C_beta theta I) n)_{c} [N/m^2] on '{tag}' (P1 trace)")
}
