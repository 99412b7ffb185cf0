//! Thermoelastic Kirchhoff plate (Chadwick model) as the power-preserving interconnection of
//! the HHJ Kirchhoff plate ([`super::kirchhoff`]) and the heat equation on the plate volume
//! (thesis 004 §5.2.2 eqs. (5.35)–(5.41); summary §2.10).
//!
//! # Model
//! Mid-plane $\Omega_E \subset \mathbb R^2$, thermal domain
//! $\Omega_T = \Omega_E \times (-h/2, h/2)$, normalized temperature $\theta = (T - T_0)/T_0$:
//! $$\rho h\,\ddot w = -D_b\Delta^2 w + \mathcal A_{\beta,P}\theta,\qquad
//!   \rho c\,T_0\,\dot\theta = kT_0\Delta_{3D}\theta - \mathcal A^*_{\beta,P}\dot w,$$
//! $\mathcal A_{\beta,P}y_T = -c_P\,\Delta\!\int z\,y_T\,dz$,
//! $\mathcal A^*_{\beta,P}y_E = -c_P\,z\,\Delta y_E$, $c_P = \beta T_0E/(1-\nu)$
//! (eqs. (5.36)–(5.37)). (The thesis prints $-kT_0\Delta_{3D}\theta$ in (5.35); the sign of
//! (5.38)/(5.41), $+kT_0\Delta$, i.e. $-\operatorname{div} j_Q$ with
//! $j_Q = -kT_0\operatorname{grad}\theta$, is the dissipative one used here.)
//! $H = H_{plate} + \frac12\int_{\Omega_T}\rho c\,T_0\theta^2$ (eq. (5.39)).
//!
//! # Discretization
//! * bending: the HHJ system of [`KirchhoffHhj`] as built (its blocks, supports and ports are
//!   kept unchanged);
//! * heat: tensor product CG$_{p}$(mid-plane mesh) ⊗ CG$_{p_z}$(thickness),
//!   $E_T = \rho c T_0\,(M\otimes M_z)$,
//!   $R_T = kT_0\,(K\otimes M_z + M\otimes K_z)$ ($j_Q$ eliminated by its algebraic line, as
//!   in [`crate::thermoelastic_beam`]); insulated faces except the `"top_flux"` port;
//! * coupling: the heat line is integrated by parts once in the plane,
//!   $\langle v_T, -\mathcal A^*e_w\rangle = c_P\int v_T z\,\Delta e_w
//!   = -c_P\int z\,\operatorname{grad}v_T\cdot\operatorname{grad}e_w + c_P\int_{\partial}v_T z\,\partial_n e_w$,
//!   and so is the momentum line,
//!   $\langle v_w, \mathcal A\theta\rangle = c_P\int\operatorname{grad}v_w\cdot\operatorname{grad}m_\theta -
//!   c_P\int_\partial v_w\,\partial_n m_\theta$, $m_\theta = \int z\theta\,dz$. Dropping both
//!   boundary terms gives $J_{Tw} = C$, $J_{wT} = -C^\top$ with
//!   $C = -c_P\,(G\otimes Z)$, $G^{aw} = \langle\operatorname{grad}\phi_T^a, \operatorname{grad}\phi_w\rangle$,
//!   $Z^j = \langle\psi_z^j, z\rangle$: skew by construction. The dropped terms vanish
//!   on clamped edges for the exact fields ($e_w = 0$, $\partial_n e_w = 0$); in HHJ the
//!   slope condition is natural (weak), so the discrete coupling carries an $O(h^p)$
//!   consistency error that vanishes under refinement (the test measures Q⁻¹ errors
//!   5.8e-2, 1.25e-2, 4.7e-3 on 4², 6², 8² meshes). On simply supported and free edges the
//!   dropped terms would carry the thermal moment into the edge port, which this model
//!   leaves out: clamped plates are the consistent case.
//!
//! # Reference
//! On a clamped plate the Gaussian-curvature integral of every mode vanishes, so the
//! adiabatic stiffening of each mode is the plate relaxation strength
//! $\Delta_P = E\beta^2T_0(1+\nu)/(\rho c(1-\nu))$ and the Lifshitz–Roukes damping
//! $Q^{-1} = \Delta_P f(\xi)$ applies with the beam's $f$
//! ([`crate::thermoelastic_beam::lifshitz_roukes_inverse_q`] with $\Delta_E \to \Delta_P$).
use super::kirchhoff::{KirchhoffHhj, KirchhoffModel};
use crate::assembly::{self, Coefficient};
use crate::assembly2d::{self, Op, Term};
use crate::boundary::End;
use crate::element::Family;
use crate::error::{require_positive, FemError};
use crate::mesh::Mesh1d;
use crate::mesh2d::Fem2dError;
use crate::space::Space1d;
use crate::space2d::{Family2d, Shape, Space2d};
use phlex_core::sparse::{self, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};

/// Thermal and coupling data of the Chadwick thermoelastic plate (SI units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlateThermalParams {
    /// Young's modulus $E$ \[Pa\] (must match the plate's bending stiffness).
    pub young: f64,
    /// Poisson ratio $\nu$.
    pub nu: f64,
    /// Thermal expansion coefficient $\beta$ \[1/K\] (0 decouples).
    pub expansion: f64,
    /// Volumetric heat capacity $\rho c$ \[J/(m³ K)\].
    pub heat_capacity: f64,
    /// Conductivity $k$ \[W/(m K)\].
    pub conductivity: f64,
    /// Reference temperature $T_0$ \[K\].
    pub t0: f64,
}

impl PlateThermalParams {
    /// Coupling coefficient $c_P = \beta T_0 E/(1-\nu)$.
    pub fn coupling(&self) -> f64 {
        self.expansion * self.t0 * self.young / (1.0 - self.nu)
    }
    /// Plate relaxation strength $\Delta_P = E\beta^2T_0(1+\nu)/(\rho c(1-\nu))$.
    pub fn relaxation_strength(&self) -> f64 {
        self.young * self.expansion.powi(2) * self.t0 * (1.0 + self.nu)
            / (self.heat_capacity * (1.0 - self.nu))
    }
    /// Thermal diffusivity $\chi = k/(\rho c)$.
    pub fn diffusivity(&self) -> f64 {
        self.conductivity / self.heat_capacity
    }
    fn validate(&self) -> Result<(), FemError> {
        require_positive("young", self.young)?;
        require_positive("heat_capacity", self.heat_capacity)?;
        require_positive("conductivity", self.conductivity)?;
        require_positive("t0", self.t0)?;
        if !(self.nu > -1.0 && self.nu < 0.5) {
            return Err(FemError::InvalidParameter {
                name: "nu".into(),
                value: self.nu,
                requirement: "-1 < nu < 0.5".into(),
            });
        }
        if !(self.expansion.is_finite() && self.expansion >= 0.0) {
            return Err(FemError::InvalidParameter {
                name: "expansion".into(),
                value: self.expansion,
                requirement: "expansion >= 0 and finite".into(),
            });
        }
        Ok(())
    }
}

/// Builder: an HHJ plate (with its supports and ports) plus the heat discretization.
#[derive(Debug, Clone)]
pub struct ThermoelasticKirchhoff {
    plate: KirchhoffHhj,
    thermal: PlateThermalParams,
    plane_degree: usize,
    n_thickness: usize,
    thickness_degree: usize,
}

impl ThermoelasticKirchhoff {
    /// Couples `plate` (configured [`KirchhoffHhj`] builder) with heat conduction;
    /// defaults: CG1 in the plane, 8 CG2 elements through the thickness.
    pub fn new(plate: KirchhoffHhj, thermal: PlateThermalParams) -> Self {
        Self {
            plate,
            thermal,
            plane_degree: 1,
            n_thickness: 8,
            thickness_degree: 2,
        }
    }
    /// Temperature discretization: CG`plane_degree` on the plate mesh (1..=3) ⊗
    /// `n_thickness` elements of CG`thickness_degree` through the thickness.
    pub fn thermal_mesh(
        mut self,
        plane_degree: usize,
        n_thickness: usize,
        thickness_degree: usize,
    ) -> Self {
        self.plane_degree = plane_degree;
        self.n_thickness = n_thickness;
        self.thickness_degree = thickness_degree;
        self
    }

    /// Assembles the coupled system; its states are the plate's (blocks `e_w`, `E_kappa`,
    /// multipliers) followed by block `theta`; ports: the plate's plus `"top_flux"`.
    pub fn build(&self) -> Result<ThermoKirchhoffModel, Fem2dError> {
        let tp = self.thermal;
        tp.validate()?;
        let plate = self.plate.build()?;
        let h = plate.params().h;
        let sw = plate.velocity_space();
        let mesh = sw.mesh();
        let st = Space2d::new(mesh, Family2d::Cg(self.plane_degree), Shape::Scalar)?;
        let zmesh = Mesh1d::uniform_interval(-0.5 * h, 0.5 * h, self.n_thickness)?;
        let vz = Space1d::new(&zmesh, Family::Cg(self.thickness_degree))?;
        let ps = plate.system();
        let nm = ps.n_states();
        let (na, nzd) = (st.n_dofs(), vz.n_dofs());
        let nt = na * nzd;
        let n = nm + nt;
        // velocity-space DOF -> state index (removed DOFs map to None)
        let probe: Vec<f64> = (0..sw.n_dofs()).map(|i| (i + 1) as f64).collect();
        let kz0 = vec![0.0; plate.moment_space().n_dofs()];
        let tagged = plate.state_from_fields(&probe, &kz0)?;
        let mut w_state: Vec<Option<usize>> = vec![None; sw.n_dofs()];
        for (s, &v) in tagged.iter().enumerate() {
            if v != 0.0 {
                w_state[v as usize - 1] = Some(s);
            }
        }
        let M = assembly2d::mass(&st, 1.0)?;
        let K = assembly2d::bilinear(
            &st,
            &st,
            &[
                Term::new(0, Op::Dx, 0, Op::Dx, 1.0),
                Term::new(0, Op::Dy, 0, Op::Dy, 1.0),
            ],
        )?;
        let G = assembly2d::bilinear(
            &st,
            sw,
            &[
                Term::new(0, Op::Dx, 0, Op::Dx, 1.0),
                Term::new(0, Op::Dy, 0, Op::Dy, 1.0),
            ],
        )?;
        let Mz = sparse::to_dense(&assembly::mass(&vz, &Coefficient::Constant(1.0))?);
        let Kz = sparse::to_dense(&assembly::gradient_coupling(&vz, &vz)?);
        let Z = assembly::load_functional(&vz, 0, &|z| z, 1)?.to_dense();
        let ztop = vz.end_functional(End::Right, 0).to_dense();
        let la = assembly2d::load(&st, &|_x, o: &mut [f64]| o[0] = 1.0, 0)?;
        let ct = tp.heat_capacity * tp.t0;
        let kt = tp.conductivity * tp.t0;
        let cp = tp.coupling();
        let tidx = |a: usize, j: usize| nm + a * nzd + j;
        let mut tE = Triplets::new(n, n);
        let mut tJ = Triplets::new(n, n);
        let mut tR = Triplets::new(n, n);
        tE.push_block(0, 0, &ps.E, 1.0);
        tJ.push_block(0, 0, &ps.J, 1.0);
        tR.push_block(0, 0, &ps.R, 1.0);
        for b in 0..na {
            for (a, mv) in sparse::col_iter(&M, b) {
                for jz in 0..nzd {
                    for iz in 0..nzd {
                        let (m, k) = (Mz[(iz, jz)], Kz[(iz, jz)]);
                        if m != 0.0 || k != 0.0 {
                            tE.push(tidx(a, iz), tidx(b, jz), ct * mv * m);
                            tR.push(tidx(a, iz), tidx(b, jz), kt * mv * k);
                        }
                    }
                }
            }
            for (a, kv) in sparse::col_iter(&K, b) {
                for jz in 0..nzd {
                    for iz in 0..nzd {
                        let m = Mz[(iz, jz)];
                        if m != 0.0 {
                            tR.push(tidx(a, iz), tidx(b, jz), kt * kv * m);
                        }
                    }
                }
            }
        }
        if cp != 0.0 {
            for (iw, sw_idx) in w_state.iter().enumerate() {
                let Some(s) = *sw_idx else { continue };
                for (a, gv) in sparse::col_iter(&G, iw) {
                    for (j, &zv) in Z.iter().enumerate() {
                        if zv != 0.0 {
                            let c = -cp * gv * zv;
                            tJ.push(tidx(a, j), s, c);
                            tJ.push(s, tidx(a, j), -c);
                        }
                    }
                }
            }
        }
        let m_in = ps.B.ncols();
        let mut tB = Triplets::new(n, m_in + 1);
        tB.push_block(0, 0, &ps.B, 1.0);
        for (a, &l) in la.iter().enumerate() {
            for (j, &zt) in ztop.iter().enumerate() {
                tB.push(tidx(a, j), m_in, l * zt);
            }
        }
        let mut ports: Vec<Port> = ps.ports.iter().cloned().collect();
        ports.push(Port::new(
            "top_flux",
            1,
            "uniform heat flux into the top face z = h/2 [W/m^2]",
            "integral of theta over the top face [m^2]",
        ));
        let ports = PortSet::from_ports(ports).map_err(FemError::from)?;
        let mut blocks = ps.blocks.clone();
        blocks.push(VarBlock::differential(
            "theta",
            "normalized temperature (T - T0)/T0, CG(plane) x CG(thickness) [-]",
            nt,
        ));
        let system = LinearPhSystem::new(
            tE.build(),
            tJ.build(),
            tR.build(),
            tB.build(),
            ports,
            blocks,
        )
        .map_err(FemError::from)?;
        Ok(ThermoKirchhoffModel {
            system,
            plate,
            thermal: tp,
            n_mech: nm,
        })
    }
}

/// The assembled thermoelastic plate.
#[derive(Debug, Clone)]
pub struct ThermoKirchhoffModel {
    system: LinearPhSystem,
    plate: KirchhoffModel,
    thermal: PlateThermalParams,
    n_mech: usize,
}

impl ThermoKirchhoffModel {
    /// The coupled pH system.
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// The uncoupled plate model (its states are the first [`Self::n_mechanical`] states).
    pub fn plate(&self) -> &KirchhoffModel {
        &self.plate
    }
    /// Thermal parameters.
    pub fn thermal(&self) -> &PlateThermalParams {
        &self.thermal
    }
    /// Number of mechanical states (plate blocks, multipliers included).
    pub fn n_mechanical(&self) -> usize {
        self.n_mech
    }
    /// Coupled state from a plate state (temperature zero).
    pub fn state_from_plate(&self, e_plate: &[f64]) -> Result<Vec<f64>, Fem2dError> {
        if e_plate.len() != self.n_mech {
            return Err(FemError::Length {
                what: "plate state".into(),
                expected: self.n_mech,
                found: e_plate.len(),
            }
            .into());
        }
        let mut e = vec![0.0; self.system.n_states()];
        e[..self.n_mech].copy_from_slice(e_plate);
        Ok(e)
    }
    /// Mechanical energy (the plate Hamiltonian of the first states).
    pub fn mechanical_energy(&self, e: &[f64]) -> f64 {
        self.plate.system().hamiltonian(&e[..self.n_mech])
    }
    /// Thermal energy $\frac12\int\rho cT_0\theta^2$.
    pub fn thermal_energy(&self, e: &[f64]) -> f64 {
        self.system.hamiltonian(e) - self.mechanical_energy(e)
    }
}
