//! Linear coupled thermoelasticity of a 1D rod in uniaxial strain as two interconnected
//! port-Hamiltonian systems (thesis 004 §5.1.3 eq. (5.18), the 1D Danilovskaya form
//! (8.44) and its PFEM discretization (8.48)–(8.50); summary §2.9, §5.5).
//!
//! Co-energy variables: velocity $e_v = \dot u$, elastic stress $e_\varepsilon =
//! s\,\partial_x u$ ($s = \lambda + 2\mu$), normalized temperature $e_T = \theta =
//! (T - T_0)/T_0$ and heat flux $j_Q$ (algebraic):
//! $$\operatorname{diag}(\rho, s^{-1}, CT_0, 0)\,\partial_t\begin{pmatrix}e_v\\
//! e_\varepsilon\\ e_T\\ j_Q\end{pmatrix} = \begin{bmatrix}0 & \partial_x & \mathcal A_\beta
//! & 0\\ \partial_x & 0 & 0 & 0\\ -\mathcal A_\beta^* & 0 & 0 & -\partial_x\\ 0 & 0 &
//! -\partial_x & -(T_0k)^{-1}\end{bmatrix}\begin{pmatrix}e_v\\ e_\varepsilon\\ e_T\\ j_Q
//! \end{pmatrix},$$
//! $\mathcal A_\beta = -\partial_x(C_\beta\,\cdot)$, $\mathcal A_\beta^* = C_\beta\partial_x$,
//! $C = \rho c_\varepsilon$, $C_\beta = T_0\beta(3\lambda + 2\mu)$. The mechanical and the
//! thermal subsystems are joined by the power-preserving interconnection (5.11)
//! $u_E = \mathcal A_\beta y_T$, $u_T = -\mathcal A_\beta^* y_E$, so
//! $H = \frac12\int(\rho e_v^2 + s^{-1}e_\varepsilon^2 + CT_0\theta^2)$ obeys (5.21)
//! $\dot H = -\int j_Q^2/(kT_0) + \sum_\text{ends}[(e_\varepsilon - C_\beta\theta)n\,e_v
//! \;-\; \theta j_Q n]$: the mechanical traction port carries the **total** stress
//! $\sigma = e_\varepsilon - C_\beta\theta$ (Remark 13).
//!
//! **Discretizations** (the thermal pair is [`HeatDiscretization`] of [`crate::models::continuum::heat`]):
//! * [`MechanicalDiscretization::CgDg`] ($e_v \in$ CG$_k$, $e_\varepsilon \in$ DG$_{k-1}$,
//!   thesis (8.48)): the whole momentum line is integrated by parts,
//!   $\langle v, \rho\dot e_v\rangle = -\langle\partial_x v, e_\varepsilon\rangle +
//!   \langle C_\beta\partial_x v, e_T\rangle + \sum v\,F$, with the **traction input**
//!   $F = (e_\varepsilon - C_\beta e_T)n$ (force applied to the rod) and the coupling matrix
//!   $A_\beta^{mn} = \langle C_\beta\partial_x\phi_v^m, \phi_T^n\rangle$ placed as
//!   $J_{vT} = A_\beta$, $J_{Tv} = -A_\beta^\top$ (thesis (8.50)); works with both thermal
//!   pairs.
//! * [`MechanicalDiscretization::DgCg`] ($e_v \in$ DG$_{k-1}$, $e_\varepsilon \in$
//!   CG$_k$): IBP of the strain line and of $\mathcal A_\beta^*$ in the heat line, **velocity
//!   input** at an end with column $(0, \pm\psi_\varepsilon, \mp C_\beta\phi_T, 0)$ and
//!   output the applied total traction; needs a CG temperature ([`HeatDiscretization::CgDg`]).
//!
//! **Strong coupling (thesis (8.43)).** The Danilovskaya benchmark multiplies
//! $\mathcal A_\beta^*$ by $c_\delta$, which the thesis says "breaks the Hamiltonian
//! structure". For $c_\delta > 0$ it does not: dividing the heat line by $c_\delta$ and
//! writing $\tilde j_Q = j_Q/c_\delta$ gives exactly (8.44) with $C \to C/c_\delta$ and
//! $k \to k/c_\delta$ (same diffusivity), i.e. a pH system for the weighted functional
//! $H_E + H_T/c_\delta$ ([`ThermoelasticParams::with_coupling_number`]). Only $c_\delta = 0$
//! ($\delta = 0$, one-way coupling) is not pH: it is the *cascade* of the heat pHDAE into
//! the elastic rod through its distributed thermal-stress port
//! ([`Thermoelastic1d::build_one_way`]).
//!
//! **Non-dimensional Danilovskaya form** ([`ThermoelasticParams::danilovskaya`], §8.3.3):
//! with $C_v = \sqrt{s/\rho}$, $C_x = k/(\rho c_\varepsilon C_v)$, $\hat x = x/C_x$,
//! $\hat t = tC_v/C_x$, $\hat u = s\,u/(C_xC_\beta)$, $\hat T = \theta$, the equations become
//! $\hat u_{tt} = \hat u_{xx} - \theta_x$, $\theta_t = \theta_{xx} - \delta\hat u_{xt}$ with the
//! coupling number $\delta = C_\beta^2/(CT_0 s)$ ([`ThermoelasticParams::coupling_number`]),
//! i.e. $\rho = s = C_\beta = T_0 = 1$, $C = k = 1/\delta$. Its half-space solution in the
//! Laplace domain (thesis (8.51)–(8.52), \[Bal91\]) is [`danilovskaya_laplace`].
use crate::assembly::line::{self, Coefficient};
use crate::element::line::Family;
use crate::error::{join_names, require_degree, require_positive, require_thermal, FemError};
use crate::mesh::interval::End;
use crate::mesh::interval::MeshSpec;
use crate::models::continuum::heat::{
    add_heat_blocks, add_thermal_ends, FieldBlock, Heat1d, HeatDiscretization, HeatModel,
    OpenBlock, OpenSystem, OpenTerm, ThermalEnd,
};
use crate::space::line::Space1d;
use faer::c64;
use phlex_core::LinearPhSystem;

/// Material parameters of 1D (uniaxial strain) linear thermoelasticity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThermoelasticParams {
    /// Density $\rho$.
    pub density: f64,
    /// Uniaxial-strain modulus $s = \lambda + 2\mu$.
    pub modulus: f64,
    /// Thermal stress coefficient $C_\beta = T_0\beta(3\lambda + 2\mu)$ (stress per unit
    /// $\theta$; $\sigma = s\varepsilon - C_\beta\theta$).
    pub c_beta: f64,
    /// Volumetric heat capacity $C = \rho c_\varepsilon$.
    pub heat_capacity: f64,
    /// Thermal conductivity $k$.
    pub conductivity: f64,
    /// Reference temperature $T_0$.
    pub t0: f64,
}

impl ThermoelasticParams {
    /// The non-dimensional Danilovskaya problem with coupling number $\delta \ge 0$:
    /// $\rho = s = C_\beta = T_0 = 1$ and $C = k = 1/\delta$ (two-way coupling, $\delta >
    /// 0$); for $\delta = 0$, $C = k = 1$ (the heat equation $\theta_t = \theta_{xx}$ of the
    /// one-way cascade, [`Thermoelastic1d::build_one_way`]).
    pub fn danilovskaya(delta: f64) -> Result<Self, FemError> {
        if !(delta.is_finite() && delta >= 0.0) {
            return Err(FemError::InvalidParameter {
                name: "delta".into(),
                value: delta,
                requirement: "delta >= 0 and finite".into(),
            });
        }
        let c = if delta > 0.0 { 1.0 / delta } else { 1.0 };
        Ok(Self {
            density: 1.0,
            modulus: 1.0,
            c_beta: 1.0,
            heat_capacity: c,
            conductivity: c,
            t0: 1.0,
        })
    }

    /// The physical parameters of thesis Table 8.6 (cm, kg, s, K): λ = 0.85e9, μ = 0.56e9
    /// kg/(cm s²), ρ = 7.82e-3 kg/cm³, c_ε = 4.61e6 cm²/(K s²), k = 1.7e3 kg cm/(K s³),
    /// β = 9.03e-6 1/K, T₀ = 300 K, physical coupling ($c_\delta = 1$).
    pub fn table_8_6() -> Self {
        let (lambda, mu, rho, c_eps, k, beta, t0) =
            (0.85e9, 0.56e9, 7.82e-3, 4.61e6, 1.7e3, 9.03e-6, 300.0);
        Self {
            density: rho,
            modulus: lambda + 2.0 * mu,
            c_beta: t0 * beta * (3.0 * lambda + 2.0 * mu),
            heat_capacity: rho * c_eps,
            conductivity: k,
            t0,
        }
    }

    /// Coupling number $\delta = C_\beta^2/(CT_0 s)$ (thesis (8.43): $c_\delta =
    /// \delta_\text{target}/\delta$).
    pub fn coupling_number(&self) -> f64 {
        self.c_beta * self.c_beta / (self.heat_capacity * self.t0 * self.modulus)
    }

    /// The same material with the mechanical-to-thermal coupling multiplied by
    /// $c_\delta = \delta/$[`Self::coupling_number`] (thesis (8.43)), written as the
    /// equivalent pH system: $C \to C/c_\delta$, $k \to k/c_\delta$. The heat flux variable
    /// of the resulting model is $j_Q/c_\delta$ and its Hamiltonian $H_E + H_T/c_\delta$.
    pub fn with_coupling_number(&self, delta: f64) -> Result<Self, FemError> {
        if !(delta.is_finite() && delta > 0.0) {
            return Err(FemError::InvalidParameter {
                name: "delta".into(),
                value: delta,
                requirement: "delta > 0 and finite (delta = 0 is the one-way cascade: use Thermoelastic1d::build_one_way)".into(),
            });
        }
        let c_delta = delta / self.coupling_number();
        Ok(Self {
            heat_capacity: self.heat_capacity / c_delta,
            conductivity: self.conductivity / c_delta,
            ..*self
        })
    }

    /// Elastic wave speed $C_v = \sqrt{s/\rho}$.
    pub fn wave_speed(&self) -> f64 {
        (self.modulus / self.density).sqrt()
    }
    /// Characteristic length $C_x = k/(C\,C_v)$ (thermal diffusivity over wave speed).
    pub fn length_scale(&self) -> f64 {
        self.conductivity / (self.heat_capacity * self.wave_speed())
    }
    /// Characteristic time $C_x/C_v$ (summary §5.5: the thesis's printed $t_\text{end}$
    /// formula is inverted).
    pub fn time_scale(&self) -> f64 {
        self.length_scale() / self.wave_speed()
    }
    /// Displacement scale $C_xC_\beta/s$ ($\hat u = u/$scale).
    pub fn displacement_scale(&self) -> f64 {
        self.length_scale() * self.c_beta / self.modulus
    }

    fn validate(&self) -> Result<(), FemError> {
        require_positive("density", self.density)?;
        require_positive("modulus", self.modulus)?;
        require_thermal(self.heat_capacity, self.conductivity, self.t0)?;
        if !self.c_beta.is_finite() {
            return Err(FemError::InvalidParameter {
                name: "c_beta".into(),
                value: self.c_beta,
                requirement: "c_beta finite".into(),
            });
        }
        Ok(())
    }
}

/// PFEM discretization of the mechanical part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MechanicalDiscretization {
    /// $e_v \in$ CG$_k$, $e_\varepsilon \in$ DG$_{k-1}$ ($k$ = 1..3): traction inputs.
    CgDg(usize),
    /// $e_v \in$ DG$_{k-1}$, $e_\varepsilon \in$ CG$_k$ ($k$ = 1..3): velocity inputs.
    DgCg(usize),
}

/// Mechanical condition at one end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MechanicalEnd {
    /// A port in the natural causality: total traction (CG velocity) or velocity (DG
    /// velocity) as input.
    Port,
    /// Zero total traction $(e_\varepsilon - C_\beta\theta)n = 0$.
    Free,
    /// Zero velocity.
    Clamped,
}

/// A field of the thermoelastic rod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThermoField {
    /// Velocity $e_v$.
    Velocity,
    /// Elastic stress $e_\varepsilon = s\,\partial_x u$.
    Stress,
    /// Normalized temperature $\theta$.
    Temperature,
    /// Heat flux $j_Q$.
    HeatFlux,
}

/// A PFEM model of the thermoelastic rod: parameters, mesh, discretizations and ends.
#[derive(Debug, Clone)]
pub struct Thermoelastic1d {
    /// Material.
    pub params: ThermoelasticParams,
    /// Mesh (shared by all fields).
    pub mesh: MeshSpec,
    /// Mechanical discretization.
    pub mechanical: MechanicalDiscretization,
    /// Thermal discretization.
    pub thermal: HeatDiscretization,
    /// Mechanical conditions (left, right).
    pub mech_ends: (MechanicalEnd, MechanicalEnd),
    /// Thermal conditions (left, right).
    pub heat_ends: (ThermalEnd, ThermalEnd),
}

impl Thermoelastic1d {
    /// CG1×DG0 mechanics and CG1×DG0 heat (thesis §8.3) on a uniform mesh of $[0, L]$,
    /// all four end ports open.
    pub fn new(params: ThermoelasticParams, length: f64, n_elements: usize) -> Self {
        Self {
            params,
            mesh: MeshSpec::Uniform { length, n_elements },
            mechanical: MechanicalDiscretization::CgDg(1),
            thermal: HeatDiscretization::CgDg(1),
            mech_ends: (MechanicalEnd::Port, MechanicalEnd::Port),
            heat_ends: (ThermalEnd::Port, ThermalEnd::Port),
        }
    }

    /// The Danilovskaya setting (thesis §8.3, Remark 23) on $[0, \hat L]$: traction-free
    /// ends, temperature input port `heat_left` at $\hat x = 0$ (DG$_0$×CG$_1$ heat, so the
    /// prescribed $\theta(0, t)$ is a pH input), insulated right end, CG1×DG0 mechanics.
    pub fn danilovskaya(delta: f64, length: f64, n_elements: usize) -> Result<Self, FemError> {
        Ok(Self {
            params: ThermoelasticParams::danilovskaya(delta)?,
            mesh: MeshSpec::Uniform { length, n_elements },
            mechanical: MechanicalDiscretization::CgDg(1),
            thermal: HeatDiscretization::DgCg(1),
            mech_ends: (MechanicalEnd::Free, MechanicalEnd::Free),
            heat_ends: (ThermalEnd::Port, ThermalEnd::Insulated),
        })
    }

    /// Sets the discretizations.
    pub fn discretization(
        mut self,
        mechanical: MechanicalDiscretization,
        thermal: HeatDiscretization,
    ) -> Self {
        self.mechanical = mechanical;
        self.thermal = thermal;
        self
    }

    /// Sets the end conditions.
    pub fn ends(
        mut self,
        mech: (MechanicalEnd, MechanicalEnd),
        heat: (ThermalEnd, ThermalEnd),
    ) -> Self {
        self.mech_ends = mech;
        self.heat_ends = heat;
        self
    }

    fn mech_spaces(
        &self,
        mesh: &crate::mesh::interval::Mesh1d,
    ) -> Result<(Space1d, Space1d), FemError> {
        let k = match self.mechanical {
            MechanicalDiscretization::CgDg(k) | MechanicalDiscretization::DgCg(k) => k,
        };
        require_degree("thermoelastic mechanical CG degree k", k, 1..=3)?;
        let (fv, fe) = match self.mechanical {
            MechanicalDiscretization::CgDg(_) => (Family::Cg(k), Family::Dg(k - 1)),
            MechanicalDiscretization::DgCg(_) => (Family::Dg(k - 1), Family::Cg(k)),
        };
        Ok((Space1d::new(mesh, fv)?, Space1d::new(mesh, fe)?))
    }

    /// Mechanical blocks `bv`, `be` (mass, $\partial_x$ coupling) and ends; the thermal
    /// coupling at velocity-input ends goes into block `bt` if given.
    fn add_mechanics(
        &self,
        open: &mut OpenSystem,
        bt: Option<usize>,
        st: Option<&Space1d>,
    ) -> Result<(), FemError> {
        let p = &self.params;
        let (bv, be) = (0, 1);
        let sv = open.blocks[bv].space.clone();
        let se = open.blocks[be].space.clone();
        open.asm.line_mass(bv, &sv, p.density)?;
        open.asm.line_mass(be, &se, 1.0 / p.modulus)?;
        let cg_velocity = matches!(self.mechanical, MechanicalDiscretization::CgDg(_));
        if cg_velocity {
            let D = line::derivative_coupling(&se, &sv, 1)?;
            open.asm.skew(be, bv, &D, 1.0);
        } else {
            let G = line::derivative_coupling(&sv, &se, 1)?;
            open.asm.skew(bv, be, &G, 1.0);
        }
        for (end, cond) in [
            (End::Left, self.mech_ends.0),
            (End::Right, self.mech_ends.1),
        ] {
            let at = if end == End::Left {
                "x = x_0"
            } else {
                "x = x_n"
            };
            let port = format!("mech_{}", end.name());
            let traction =
                format!("total traction applied to the rod (e_eps - C_beta theta) n at {at} [Pa]");
            let velocity = format!("velocity at {at} [m/s]");
            // the port column, if the end is a port
            let column = if cg_velocity {
                match cond {
                    MechanicalEnd::Port => Some(open.asm.embed(bv, &sv.end_functional(end, 0))),
                    MechanicalEnd::Free => None,
                    MechanicalEnd::Clamped => {
                        let i = sv.trace_dof(end, "velocity")?;
                        open.removed.push(open.asm.offset(bv) + i);
                        None
                    }
                }
            } else {
                let s = if end == End::Left { -1.0 } else { 1.0 };
                match cond {
                    MechanicalEnd::Port => {
                        let mut column = open.asm.embed(be, &se.end_functional(end, 0).scaled(s));
                        if let (Some(bt), Some(st)) = (bt, st) {
                            let c = open.asm.embed(bt, &st.end_functional(end, 0).scaled(-s * p.c_beta));
                            column.entries.extend(c.entries);
                        }
                        Some(column)
                    }
                    MechanicalEnd::Clamped => None,
                    MechanicalEnd::Free => {
                        return Err(FemError::BoundaryCondition {
                            end: end.name().into(),
                            component: "traction".into(),
                            reason: "a zero total traction (e_eps - C_beta theta) involves stress and temperature DOFs in the velocity-input (DgCg) discretization; use MechanicalDiscretization::CgDg, where it is natural".into(),
                        })
                    }
                }
            };
            if let Some(column) = column {
                // the traction is the input at a velocity-CG end (natural), else the output
                let (input, output) = if cg_velocity {
                    (traction, velocity)
                } else {
                    (velocity, traction)
                };
                open.terms.push(OpenTerm {
                    port,
                    input,
                    output,
                    column,
                });
            }
        }
        Ok(())
    }

    /// Assembles the two-way coupled pH system (5.18)/(8.50), state
    /// $(e_v, e_\varepsilon, e_T, j_Q)$, ports `mech_left`, `mech_right`, `heat_left`,
    /// `heat_right` (those left open).
    pub fn build(&self) -> Result<ThermoelasticModel, FemError> {
        self.params.validate()?;
        let p = self.params;
        let mesh = self.mesh.build()?;
        let (sv, se) = self.mech_spaces(&mesh)?;
        let (ft, fq) = self.thermal.families("thermoelastic thermal")?;
        let st = Space1d::new(&mesh, ft)?;
        let sq = Space1d::new(&mesh, fq)?;
        let cg_velocity = matches!(self.mechanical, MechanicalDiscretization::CgDg(_));
        if !cg_velocity && !matches!(ft, Family::Cg(_)) {
            return Err(FemError::UnsupportedDegree {
                what: "thermoelastic discretization pair (DgCg mechanics needs a continuous temperature, HeatDiscretization::CgDg) with DG temperature of degree".into(),
                degree: ft.degree(),
                supported: "HeatDiscretization::CgDg(k) with MechanicalDiscretization::DgCg".into(),
            });
        }
        let [bv, be] = mech_blocks(&sv, se);
        let mut open = OpenSystem::new(vec![
            bv,
            be,
            OpenBlock::new(
                "e_T",
                "normalized temperature theta = (T - T0)/T0 [-]",
                st.clone(),
                false,
            ),
            OpenBlock::new("j_Q", "heat flux j_Q = -k dT/dx [W/m^2]", sq, true),
        ]);
        self.add_mechanics(&mut open, Some(2), Some(&st))?;
        add_heat_blocks(
            &mut open,
            2,
            3,
            p.heat_capacity * p.t0,
            p.t0 * p.conductivity,
        )?;
        add_thermal_ends(&mut open, 2, 3, self.heat_ends.0, self.heat_ends.1, "heat_")?;
        // Coupling.
        if cg_velocity {
            let A = line::bilinear(&sv, 1, &st, 0, &Coefficient::Constant(p.c_beta))?;
            open.asm.skew(0, 2, &A, 1.0);
        } else {
            let A = line::bilinear(&sv, 0, &st, 1, &Coefficient::Constant(p.c_beta))?;
            open.asm.skew(0, 2, &A, -1.0);
        }
        let (system, fields) = open.finalize()?;
        Ok(ThermoelasticModel {
            system,
            fields,
            params: p,
        })
    }

    /// The one-way coupled ($\delta = 0$) problem as a cascade of two pH systems: the
    /// heat pHDAE ([`HeatModel`], same mesh, thermal discretization and ends) and the
    /// elastic rod (state $(e_v, e_\varepsilon)$) with a distributed input port
    /// `thermal_stress` of dimension = number of temperature states, input = the
    /// temperature state $\theta$ of the heat model (its output $y_T$), $B = A_\beta$
    /// restricted to the kept temperature DOFs, output $A_\beta^\top e_v$: the
    /// interconnection $u_E = \mathcal A_\beta y_T$ of (5.11) without the back-coupling
    /// $u_T = -\mathcal A_\beta^* y_E$. CG×DG mechanics only.
    pub fn build_one_way(&self) -> Result<(ThermoelasticModel, HeatModel), FemError> {
        self.params.validate()?;
        let p = self.params;
        if !matches!(self.mechanical, MechanicalDiscretization::CgDg(_)) {
            return Err(FemError::BoundaryCondition {
                end: "left and right".into(),
                component: "traction".into(),
                reason: "the one-way cascade needs the traction-input (CgDg) mechanics, whose ends do not involve the temperature".into(),
            });
        }
        let heat = Heat1d {
            heat_capacity: p.heat_capacity,
            conductivity: p.conductivity,
            t0: p.t0,
            mesh: self.mesh.clone(),
            discretization: self.thermal,
            left: self.heat_ends.0,
            right: self.heat_ends.1,
            sources: Vec::new(),
        }
        .build()?;
        let mesh = self.mesh.build()?;
        let (sv, se) = self.mech_spaces(&mesh)?;
        let mut open = OpenSystem::new(mech_blocks(&sv, se).into());
        self.add_mechanics(&mut open, None, None)?;
        let tb = heat.temperature();
        let A = line::bilinear(&sv, 1, tb.space(), 0, &Coefficient::Constant(p.c_beta))?;
        for (j, m) in tb.map.iter().enumerate() {
            if m.is_none() {
                continue;
            }
            // column j of A_β: the thermal stress of the temperature basis function j
            let column = crate::space::functional::SparseVec {
                len: open.asm.n(),
                entries: phlex_core::sparse::col_iter(&A, j)
                    .map(|(i, v)| (open.asm.offset(0) + i, v))
                    .collect(),
            };
            open.terms.push(OpenTerm {
                port: "thermal_stress".into(),
                input: format!("temperature state theta_{j} of the heat model"),
                output: "(A_beta^T e_v) component (thermoelastic power density)".into(),
                column,
            });
        }
        let (system, fields) = open.finalize()?;
        Ok((
            ThermoelasticModel {
                system,
                fields,
                params: p,
            },
            heat,
        ))
    }
}

/// The mechanical blocks of the rod, velocity $e_v$ on `sv` and elastic stress
/// $e_\varepsilon$ on `se` (both differential), first in both the coupled and the
/// one-way systems.
fn mech_blocks(sv: &Space1d, se: Space1d) -> [OpenBlock; 2] {
    [
        OpenBlock::new("e_v", "velocity [m/s]", sv.clone(), false),
        OpenBlock::new(
            "e_eps",
            "elastic stress e_eps = (lambda + 2 mu) du/dx [Pa]",
            se,
            false,
        ),
    ]
}

/// A discretized thermoelastic rod: the pH system and its field blocks.
#[derive(Debug, Clone)]
pub struct ThermoelasticModel {
    system: LinearPhSystem,
    fields: Vec<FieldBlock>,
    params: ThermoelasticParams,
}

impl ThermoelasticModel {
    /// The pH(DAE) system $E\dot e = (J - R)e + Bu$, $y = B^\top e$.
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// Consumes the model, returning the system.
    pub fn into_system(self) -> LinearPhSystem {
        self.system
    }
    /// The material parameters.
    pub fn params(&self) -> &ThermoelasticParams {
        &self.params
    }
    /// The block of a field (mechanics-only models of the one-way cascade have no thermal
    /// fields: [`FemError::UnknownField`]).
    pub fn field(&self, f: ThermoField) -> Result<&FieldBlock, FemError> {
        let name = match f {
            ThermoField::Velocity => "e_v",
            ThermoField::Stress => "e_eps",
            ThermoField::Temperature => "e_T",
            ThermoField::HeatFlux => "j_Q",
        };
        self.fields
            .iter()
            .find(|b| b.name == name)
            .ok_or_else(|| FemError::UnknownField {
                field: format!("{f:?}"),
                model: "thermoelastic rod".into(),
                available: join_names(self.fields.iter().map(|b| b.name.clone())),
            })
    }
    /// Mechanical energy $\frac12(e_v^\top M_\rho e_v + e_\varepsilon^\top M_{s^{-1}}
    /// e_\varepsilon)$ of a state (the $E$-weighted norm restricted to the mechanical blocks).
    pub fn mechanical_energy(&self, e: &[f64]) -> f64 {
        let mut x = vec![0.0; e.len()];
        for f in [ThermoField::Velocity, ThermoField::Stress] {
            if let Ok(b) = self.field(f) {
                let r = b.range();
                x[r.clone()].copy_from_slice(&e[r]);
            }
        }
        self.system.hamiltonian(&x)
    }
}

/// The Laplace-domain solution $(\hat T(s), \hat u(s))$ of the non-dimensional
/// Danilovskaya half-space problem at $\hat x$ for a unit temperature step at $\hat x = 0$
/// (thesis (8.51)–(8.52), \[Bal91\]):
/// $\hat T = \frac{(C_1^2 - s^2)e^{-C_1\hat x} - (C_2^2 - s^2)e^{-C_2\hat x}}{s(C_1^2 -
/// C_2^2)}$, $\hat u = -\frac{C_1e^{-C_1\hat x} - C_2e^{-C_2\hat x}}{s(C_1^2 - C_2^2)}$,
/// $C_{1,2}^2 = \frac s2[(1 + \delta + s) \pm ((1 + \delta + s)^2 - 4s)^{1/2}]$ (principal
/// roots: $\operatorname{Re}C_i \ge 0$; the expressions are symmetric in $C_1 \leftrightarrow
/// C_2$, so the inner branch does not matter). Derivation check: $C^2$ are the roots of
/// $(s - C^2)(s^2 - C^2) = \delta sC^2$ from $\theta_t = \theta_{xx} - \delta\hat u_{xt}$,
/// $\hat u_{tt} = \hat u_{xx} - \theta_x$, and the traction-free condition
/// $\hat u_x - \theta = 0$ at $\hat x = 0$ fixes the amplitudes.
pub fn danilovskaya_laplace(s: c64, x: f64, delta: f64) -> (c64, c64) {
    let a = s + 1.0 + delta;
    let r = (a * a - 4.0 * s).sqrt();
    let c1s = s * 0.5 * (a + r);
    let c2s = s * 0.5 * (a - r);
    let (c1, c2) = (c1s.sqrt(), c2s.sqrt());
    let den = s * (c1s - c2s);
    let (e1, e2) = ((-c1 * x).exp(), (-c2 * x).exp());
    let t = ((c1s - s * s) * e1 - (c2s - s * s) * e2) / den;
    let u = -(c1 * e1 - c2 * e2) / den;
    (t, u)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table 8.6 coupling number and the δ-rescaling.
    #[test]
    fn coupling_number_and_scales() {
        let p = ThermoelasticParams::table_8_6();
        // δ = β²(3λ+2μ)²T0/(ρ c_ε (λ+2μ)) = (9.03e-6)² (3.67e9)² 300 / (7.82e-3·4.61e6·1.97e9)
        let expect = 9.03e-6f64.powi(2) * 3.67e9f64.powi(2) * 300.0 / (7.82e-3 * 4.61e6 * 1.97e9);
        assert!((p.coupling_number() - expect).abs() < 1e-12 * expect);
        let q = p.with_coupling_number(1.0).unwrap();
        assert!((q.coupling_number() - 1.0).abs() < 1e-12);
        // same diffusivity and wave speed: same length scale
        assert!((q.length_scale() - p.length_scale()).abs() < 1e-12 * p.length_scale());
        let d = ThermoelasticParams::danilovskaya(0.5).unwrap();
        assert!((d.coupling_number() - 0.5).abs() < 1e-15);
        assert_eq!(
            (d.length_scale(), d.time_scale(), d.displacement_scale()),
            (1.0, 1.0, 1.0)
        );
        assert!(ThermoelasticParams::danilovskaya(-1.0).is_err());
        assert!(p.with_coupling_number(0.0).is_err());
    }
}
