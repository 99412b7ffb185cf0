//! Thermoelastic Euler–Bernoulli beam as the power-preserving interconnection of the pH beam
//! and the pH heat equation on the beam's cross-sectional plane (thesis 004 §5.2.1
//! eqs. (5.23)–(5.34); summary §2.10), discretized by PFEM.
//!
//! # Model
//! Beam axis $\Omega_E = (0, L)$, rectangular section $b \times h$, thermal domain
//! $\Omega_T = \Omega_E \times S$ with the normalized temperature $\theta = (T - T_0)/T_0$
//! taken uniform across the width (the Lifshitz–Roukes setting \[LR00\] cited by the
//! thesis), so $\Omega_T \simeq (0, L) \times (-h/2, h/2)$ with weight $b$. Thesis (5.30):
//! $$\rho A\,\ddot w = -EI\,\partial_x^4 w + \mathcal A_{\beta}\theta,\qquad
//!   \rho c\,T_0\,\dot\theta = kT_0\Delta\theta - \mathcal A_{\beta}^*\dot w,$$
//! $\mathcal A_\beta y_T = -\beta E T_0\,\partial_{xx}\!\int_S z\,y_T$,
//! $\mathcal A_\beta^* y_E = -\beta E T_0\,z\,\partial_{xx} y_E$ (eqs. (5.24)–(5.25)),
//! $H = \frac12\int_{\Omega_E}(\rho A\,e_w^2 + e_\kappa^2/EI) + \frac12\int_{\Omega_T}\rho c\,T_0\theta^2$
//! (eq. (5.31)) with $e_w = \dot w$, $e_\kappa = EI\,\partial_{xx}w$, $e_T = \theta$ (5.33).
//! The heat flux $j_Q$ of the pHDAE (5.34) is eliminated by its algebraic line
//! $j_Q = -kT_0\operatorname{grad}\theta$, which leaves the dissipation
//! $R_T = \langle\operatorname{grad}\phi_T, kT_0\operatorname{grad}\phi_T\rangle$ (thermal
//! boundary: insulated, plus the optional top-surface flux port).
//!
//! # Discretization (state $(e_w, e_\kappa, \theta)$, blocks `"e_w"`, `"e_kappa"`, `"theta"`)
//! * bending: HerDG1 as in [`crate::models::beam::euler_bernoulli`] ($e_w$ cubic Hermite, $e_\kappa$ DG1,
//!   $J_{\kappa w} = D$, $D^{mi} = \langle\phi_\kappa^m, \partial_{xx}\phi_w^i\rangle$);
//! * heat: tensor product CG$_{p_x}$(x) ⊗ CG$_{p_z}$(z), $E_T = \rho c T_0\, b\,(M_x\otimes M_z)$,
//!   $R_T = kT_0\, b\,(K_x\otimes M_z + M_x\otimes K_z)$;
//! * coupling: the heat line is tested directly,
//!   $\langle v_T, -\mathcal A^*_\beta e_w\rangle = \beta E T_0\int_{\Omega_T} v_T\,z\,\partial_{xx}e_w$,
//!   giving $J_{Tw} = C$, $C = \beta E T_0\, b\,(X\otimes Z)$ with
//!   $X^{iw} = \langle\phi_x^i, \partial_{xx}\phi_w\rangle$, $Z^j = \langle\psi_z^j, z\rangle$;
//!   the momentum line is integrated by parts twice (as its bending term), giving
//!   $J_{wT} = -C^\top$: $J$ is skew by construction (thesis Prop. 6 at the discrete level).
//!   The boundary terms of that integration put the thermal moment
//!   $\beta E T_0\int_S z\theta$ into the end moment, so a free or simply supported end
//!   imposes zero **total** moment $e_\kappa + \beta E T_0\int_S z\theta$ (summary §2.9:
//!   "the mechanical traction port contains the thermal stress").
//!
//! Ends ([`BeamSupport`]): free, simply supported ($e_w = 0$) or clamped
//! ($e_w = \partial_x e_w = 0$), imposed strongly by removing the Hermite end DOFs. Ports:
//! `"load"` (uniform transverse force per length $q$ \[N/m\], output $\int_0^L e_w$) and
//! `"top_flux"` (heat flux into the top face $z = h/2$ \[W/m²\], output $b\int_0^L\theta(x, h/2)$).
//!
//! # Reference: thermoelastic (Zener) damping
//! For small relaxation strength $\Delta_E = E\beta^2T_0/(\rho c)$, Lifshitz and Roukes
//! (\[LR00\], eq. (11)) give the inverse quality factor of a flexural mode of frequency
//! $\omega$: $Q^{-1} = \Delta_E\big[\frac6{\xi^2} - \frac6{\xi^3}\frac{\sinh\xi + \sin\xi}{\cosh\xi + \cos\xi}\big]$,
//! $\xi = h\sqrt{\omega/(2\chi)}$, $\chi = k/(\rho c)$ ([`lifshitz_roukes_inverse_q`]).
use crate::assembly::line::{self, Coefficient};
use crate::element::line::Family;
use crate::error::{require_positive, require_thermal, FemError};
use crate::mesh::interval::End;
use crate::mesh::interval::Mesh1d;
use crate::models::thermal_layer::{layer_heat_blocks, ThicknessFactors};
use crate::space::line::Space1d;
use phlex_core::sparse::{self, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};

/// Material and section parameters of the thermoelastic beam (SI units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThermoBeamParams {
    /// Young's modulus $E$ \[Pa\].
    pub young: f64,
    /// Density $\rho$ \[kg/m³\].
    pub density: f64,
    /// Section width $b$ \[m\].
    pub width: f64,
    /// Section thickness $h$ \[m\] (the bending direction $z \in (-h/2, h/2)$).
    pub thickness: f64,
    /// Thermal expansion coefficient $\beta$ \[1/K\] (0 decouples the two physics).
    pub expansion: f64,
    /// Volumetric heat capacity $\rho c$ \[J/(m³ K)\] (thesis $\rho c_{\varepsilon,B}$).
    pub heat_capacity: f64,
    /// Thermal conductivity $k$ \[W/(m K)\].
    pub conductivity: f64,
    /// Reference temperature $T_0$ \[K\].
    pub t0: f64,
}

impl ThermoBeamParams {
    /// Bending stiffness $EI = Ebh^3/12$.
    pub fn ei(&self) -> f64 {
        self.young * self.width * self.thickness.powi(3) / 12.0
    }
    /// Mass per length $\rho A = \rho b h$.
    pub fn rho_a(&self) -> f64 {
        self.density * self.width * self.thickness
    }
    /// Relaxation strength $\Delta_E = E\beta^2 T_0/(\rho c)$.
    pub fn relaxation_strength(&self) -> f64 {
        self.young * self.expansion.powi(2) * self.t0 / self.heat_capacity
    }
    /// Thermal diffusivity $\chi = k/(\rho c)$.
    pub fn diffusivity(&self) -> f64 {
        self.conductivity / self.heat_capacity
    }
    /// Zener relaxation time of the through-thickness mode, $\tau = h^2/(\pi^2\chi)$.
    pub fn zener_time(&self) -> f64 {
        self.thickness.powi(2) / (std::f64::consts::PI.powi(2) * self.diffusivity())
    }
    fn validate(&self) -> Result<(), FemError> {
        require_positive("young", self.young)?;
        require_positive("density", self.density)?;
        require_positive("width", self.width)?;
        require_positive("thickness", self.thickness)?;
        require_thermal(self.heat_capacity, self.conductivity, self.t0)?;
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

/// Support condition at a beam end (imposed strongly).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BeamSupport {
    /// Zero shear force and zero total moment (natural).
    #[default]
    Free,
    /// $e_w = 0$ and zero total moment.
    SimplySupported,
    /// $e_w = \partial_x e_w = 0$.
    Clamped,
}

/// Builder of the thermoelastic beam model (see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct ThermoelasticBeam {
    params: ThermoBeamParams,
    length: f64,
    n_elements: usize,
    n_thickness: usize,
    axial_degree: usize,
    thickness_degree: usize,
    left: BeamSupport,
    right: BeamSupport,
}

impl ThermoelasticBeam {
    /// A beam of length `length` with `n_elements` along the axis; defaults: 8 CG2 elements
    /// through the thickness, CG1 temperature along the axis, both ends simply supported.
    pub fn new(params: ThermoBeamParams, length: f64, n_elements: usize) -> Self {
        Self {
            params,
            length,
            n_elements,
            n_thickness: 8,
            axial_degree: 1,
            thickness_degree: 2,
            left: BeamSupport::SimplySupported,
            right: BeamSupport::SimplySupported,
        }
    }
    /// Temperature discretization: CG`axial_degree` along $x$, `n_thickness` elements of
    /// CG`thickness_degree` through the thickness.
    pub fn thermal_mesh(
        mut self,
        n_thickness: usize,
        axial_degree: usize,
        thickness_degree: usize,
    ) -> Self {
        self.n_thickness = n_thickness;
        self.axial_degree = axial_degree;
        self.thickness_degree = thickness_degree;
        self
    }
    /// End supports.
    pub fn ends(mut self, left: BeamSupport, right: BeamSupport) -> Self {
        self.left = left;
        self.right = right;
        self
    }

    /// Assembles the model (errors name the offending parameter).
    pub fn build(&self) -> Result<ThermoBeamModel, FemError> {
        let p = self.params;
        p.validate()?;
        require_positive("length", self.length)?;
        let mesh = Mesh1d::uniform(self.length, self.n_elements)?;
        let (h, b) = (p.thickness, p.width);
        let zmesh = Mesh1d::uniform_interval(-0.5 * h, 0.5 * h, self.n_thickness)?;
        let vw = Space1d::new(&mesh, Family::Hermite)?;
        let vk = Space1d::new(&mesh, Family::Dg(1))?;
        let vx = Space1d::new(&mesh, Family::Cg(self.axial_degree))?;
        let vz = Space1d::new(&zmesh, Family::Cg(self.thickness_degree))?;
        // Hermite DOFs kept after the strong support conditions.
        let mut removed = Vec::new();
        for (end, s) in [(End::Left, self.left), (End::Right, self.right)] {
            let derivs: &[usize] = match s {
                BeamSupport::Free => &[],
                BeamSupport::SimplySupported => &[0],
                BeamSupport::Clamped => &[0, 1],
            };
            for &d in derivs {
                let dof = vw.end_dof(end, d).ok_or_else(|| {
                    FemError::LinAlg(format!("Hermite end DOF (derivative {d}) not found"))
                })?;
                removed.push(dof);
            }
        }
        let keep: Vec<usize> = (0..vw.n_dofs()).filter(|i| !removed.contains(i)).collect();
        let nw = keep.len();
        let nk = vk.n_dofs();
        let (nxd, nzd) = (vx.n_dofs(), vz.n_dofs());
        let nt = nxd * nzd;
        let n = nw + nk + nt;
        let all_k: Vec<usize> = (0..nk).collect();
        let all_x: Vec<usize> = (0..nxd).collect();
        // mechanical blocks
        let Mw = sparse::restrict(
            &line::mass(&vw, &Coefficient::Constant(p.rho_a()))?,
            &keep,
            &keep,
        );
        let Mk = line::mass(&vk, &Coefficient::Constant(1.0 / p.ei()))?;
        let D = sparse::restrict(&line::derivative_coupling(&vk, &vw, 2)?, &all_k, &keep);
        // thermal blocks
        let Mx = line::mass(&vx, &Coefficient::Constant(1.0))?;
        let Kx = line::gradient_coupling(&vx, &vx)?;
        let thickness = ThicknessFactors::new(&vz)?;
        let X = sparse::restrict(&line::derivative_coupling(&vx, &vw, 2)?, &all_x, &keep);
        let lx = line::load_functional(&vx, 0, &|_| 1.0, 0)?.to_dense();
        let ct = p.heat_capacity * p.t0 * b;
        let kt = p.conductivity * p.t0 * b;
        let cb = p.expansion * p.young * p.t0 * b;
        let (ow, ok, ot) = (0, nw, nw + nk);
        let mut tE = Triplets::new(n, n);
        let mut tJ = Triplets::new(n, n);
        let mut tR = Triplets::new(n, n);
        tE.push_block(ow, ow, &Mw, 1.0);
        tE.push_block(ok, ok, &Mk, 1.0);
        tJ.push_block(ok, ow, &D, 1.0);
        tJ.push_block_transpose(ow, ok, &D, -1.0);
        layer_heat_blocks(
            &Mx,
            &Kx,
            &thickness.mz,
            &thickness.kz,
            ct,
            kt,
            &mut |i, j, v| tE.push(ot + i, ot + j, v),
            &mut |i, j, v| tR.push(ot + i, ot + j, v),
        );
        if cb != 0.0 {
            let w_state: Vec<Option<usize>> = (0..nw).map(|jw| Some(ow + jw)).collect();
            thickness.push_coupling(&mut tJ, &X, cb, &w_state, ot);
        }
        // ports: uniform load, top-surface heat flux
        let lw = line::load_functional(&vw, 0, &|_| 1.0, 0)?.to_dense();
        let mut tB = Triplets::new(n, 2);
        for (k, &i) in keep.iter().enumerate() {
            tB.push(ow + k, 0, lw[i]);
        }
        thickness.push_top_flux(&mut tB, 1, &lx, b, ot);
        let ports = PortSet::from_ports(vec![
            Port::new(
                "load",
                1,
                "uniform transverse force per length q [N/m]",
                "integral of the transverse velocity over the span [m^2/s]",
            ),
            Port::new(
                "top_flux",
                1,
                "uniform heat flux into the top face z = h/2 [W/m^2]",
                "width times the integral of theta over the top face [m^2]",
            ),
        ])?;
        let blocks = vec![
            VarBlock::differential("e_w", "transverse velocity (Hermite) [m/s]", nw),
            VarBlock::differential("e_kappa", "bending moment EI w_xx (DG1) [N m]", nk),
            VarBlock::differential(
                "theta",
                "normalized temperature (T - T0)/T0 on (0,L)x(-h/2,h/2) [-]",
                nt,
            ),
        ];
        let system = LinearPhSystem::new(
            tE.build(),
            tJ.build(),
            tR.build(),
            tB.build(),
            ports,
            blocks,
        )?;
        Ok(ThermoBeamModel {
            system,
            params: p,
            vw,
            keep,
            n_w: nw,
            n_k: nk,
            vx,
            vz,
        })
    }
}

/// The assembled thermoelastic beam: system and the spaces needed for post-processing.
#[derive(Debug, Clone)]
pub struct ThermoBeamModel {
    system: LinearPhSystem,
    params: ThermoBeamParams,
    vw: Space1d,
    keep: Vec<usize>,
    n_w: usize,
    n_k: usize,
    vx: Space1d,
    vz: Space1d,
}

impl ThermoBeamModel {
    /// The linear pH system $E\dot e = (J - R)e + Bu$.
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// The parameters.
    pub fn params(&self) -> &ThermoBeamParams {
        &self.params
    }
    /// Index ranges of the blocks `e_w`, `e_kappa`, `theta` in the state.
    pub fn ranges(&self) -> [std::ops::Range<usize>; 3] {
        let (a, b) = (self.n_w, self.n_w + self.n_k);
        [0..a, a..b, b..self.system.n_states()]
    }
    /// Mechanical energy $\frac12\int\rho A e_w^2 + e_\kappa^2/EI$.
    pub fn mechanical_energy(&self, e: &[f64]) -> f64 {
        let r = self.ranges();
        let mut z = e.to_vec();
        for v in &mut z[r[2].clone()] {
            *v = 0.0;
        }
        self.system.hamiltonian(&z)
    }
    /// Thermal energy $\frac12\int_{\Omega_T}\rho c T_0\theta^2$.
    pub fn thermal_energy(&self, e: &[f64]) -> f64 {
        self.system.hamiltonian(e) - self.mechanical_energy(e)
    }
    /// Transverse velocity $e_w(x)$ of state `e`.
    pub fn velocity_at(&self, e: &[f64], x: f64) -> Result<f64, FemError> {
        let mut full = vec![0.0; self.vw.n_dofs()];
        for (k, &i) in self.keep.iter().enumerate() {
            full[i] = e[k];
        }
        self.vw.evaluate(&full, x, 0)
    }
    /// Temperature $\theta(x, z)$ of state `e`.
    pub fn theta_at(&self, e: &[f64], x: f64, z: f64) -> Result<f64, FemError> {
        let fx = self.vx.point_functional(x, 0)?.to_dense();
        let fz = self.vz.point_functional(z, 0)?.to_dense();
        let off = self.n_w + self.n_k;
        let nz = fz.len();
        let mut s = 0.0;
        for (ix, a) in fx.iter().enumerate() {
            if *a == 0.0 {
                continue;
            }
            for (iz, c) in fz.iter().enumerate() {
                s += a * c * e[off + ix * nz + iz];
            }
        }
        Ok(s)
    }
    /// State with $e_w$ the $L^2$ projection of `w_dot(x)`, $e_\kappa = 0$, $\theta = 0$.
    pub fn initial_velocity(&self, w_dot: &dyn Fn(f64) -> f64) -> Result<Vec<f64>, FemError> {
        let Mw = line::mass(&self.vw, &Coefficient::Constant(1.0))?;
        let Mr = sparse::restrict(&Mw, &self.keep, &self.keep);
        let f = line::load_functional(&self.vw, 0, w_dot, 8)?.to_dense();
        let mut rhs = faer::Mat::from_fn(self.keep.len(), 1, |k, _| f[self.keep[k]]);
        let llt = Mr
            .sp_cholesky(faer::Side::Lower)
            .map_err(|err| FemError::LinAlg(format!("Hermite projection mass: {err:?}")))?;
        use faer::linalg::solvers::Solve;
        llt.solve_in_place(rhs.as_mut());
        let mut e = vec![0.0; self.system.n_states()];
        for k in 0..self.keep.len() {
            e[k] = rhs[(k, 0)];
        }
        Ok(e)
    }
}

/// Lifshitz–Roukes inverse quality factor of thermoelastic damping of a flexural mode
/// (\[LR00\] eq. (11)): $Q^{-1} = \Delta_E[6/\xi^2 - 6/\xi^3\,(\sinh\xi + \sin\xi)/(\cosh\xi + \cos\xi)]$,
/// $\xi = h\sqrt{\omega/(2\chi)}$, first order in $\Delta_E$. `omega` in rad/s.
pub fn lifshitz_roukes_inverse_q(params: &ThermoBeamParams, omega: f64) -> f64 {
    let xi = params.thickness * (omega / (2.0 * params.diffusivity())).sqrt();
    let f = if xi < 1e-2 {
        // series ξ²/5 − ξ⁶/... avoids cancellation: 6/ξ² − 6/ξ³·ξ(1 − ξ⁴/30 + …) = ξ²/5
        xi * xi / 5.0
    } else if xi > 40.0 {
        // (sinh + sin)/(cosh + cos) → 1
        6.0 / (xi * xi) - 6.0 / xi.powi(3)
    } else {
        6.0 / (xi * xi) - 6.0 / xi.powi(3) * (xi.sinh() + xi.sin()) / (xi.cosh() + xi.cos())
    };
    params.relaxation_strength() * f
}
