//! Thermoelastic Kirchhoff plate (Chadwick model) as the power-preserving interconnection of
//! the HHJ Kirchhoff plate ([`super::kirchhoff`]) and the heat equation on the plate volume
//! (thesis 004 §5.2.2 eqs. (5.35)–(5.41); summary §2.10), consistent on clamped, simply
//! supported and free edges.
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
//! In the velocity–moment form of the HHJ plate, $\mathbf E_\kappa = \mathcal D_b\kappa$ with
//! $\kappa = \operatorname{Hess} w$ the (total) curvature, and with the thermal moment
//! $m_\theta = \int z\theta\,dz$ the momentum line reads
//! $$\rho h\,\partial_t e_w = -\operatorname{div}\operatorname{Div}\mathbf M,\qquad
//!   \mathbf M = \mathbf E_\kappa + c_P m_\theta\,\mathbf I ,$$
//! $\mathbf M$ being the **total** bending moment in the thesis sign ($z$ upward,
//! $\varepsilon = -z\operatorname{Hess}w$, $\mathbf M = -\int z\sigma\,dz$; in the other
//! convention $\int z\sigma\,dz = -\mathbf M = \mathcal D_b\kappa' - c_P m_\theta\mathbf I$,
//! $\kappa' = -\operatorname{Hess}w$). The power
//! balance of the smooth system is
//! $$\dot H = \int_{\partial\Omega} e_w\,\tilde q_n(\mathbf M) + \partial_n e_w\,M_{nn} -
//!   \int_{\Omega_T} kT_0|\nabla\theta|^2 + (\text{heat flux}),$$
//! so the edge conditions act on the total moment: simply supported $e_w = M_{nn} = 0$, free
//! $\tilde q_n(\mathbf M) = M_{nn} = 0$, i.e. $E_{\kappa,nn} = -c_P m_\theta$ on those edges.
//! A free plate under $\theta = g z$ bends stress-free into $\kappa = -\beta T_0 g\,\mathbf I$
//! ($\mathbf M = 0$, $\mathbf E_\kappa = -c_P m_\theta\mathbf I$).
//!
//! # Discretization
//! * bending: the HHJ system of [`KirchhoffHhj`] as built ($CG_k$ velocity, HHJ$_{k-1}$
//!   moments, its supports and ports);
//! * heat: tensor product CG$_{p}$(mid-plane mesh) ⊗ CG$_{p_z}$(thickness),
//!   $E_T = \rho c T_0\,(M\otimes M_z)$,
//!   $R_T = kT_0\,(K\otimes M_z + M\otimes K_z)$ ($j_Q$ eliminated by its algebraic line, as
//!   in [`crate::models::beam::thermoelastic_beam`]); insulated faces except the `"top_flux"` port;
//! * coupling in the moment space: the HHJ duality pairing of
//!   [`crate::element::triangle::hhj`] applied to the isotropic tensor $m\mathbf I$, $m \in H^1$, is
//!   $d_h(v, m\mathbf I) = -\sum_T\int_T m\,\Delta v + \sum_e\int_e m[\![\partial_n v]\!] =
//!   \int_\Omega\nabla m\cdot\nabla v$ (all edges, boundary ones included), so the open
//!   system (every HHJ DOF kept)
//!   $$\begin{aligned}
//!   \langle v, \rho h\,\partial_t e_w\rangle &= d_h(v, \mathbf E_\kappa + c_P m_\theta\mathbf I)
//!   = d_h(v, \mathbf E_\kappa) + c_P\langle\nabla v, \nabla m_\theta\rangle,\\
//!   \langle \mathbf V, \mathcal C_b\partial_t\mathbf E_\kappa\rangle &= -d_h(e_w, \mathbf V),\\
//!   \langle v_T, \rho cT_0\partial_t\theta\rangle &= -kT_0\langle\nabla_{3D}v_T,
//!   \nabla_{3D}\theta\rangle - d_h(e_w, c_P z v_T\mathbf I)
//!   = \dots - c_P\langle z\nabla v_T, \nabla e_w\rangle
//!   \end{aligned}$$
//!   has $J_{wT} = c_P\,(G^\top\otimes Z)$, $J_{Tw} = -J_{wT}^\top$ with
//!   $G^{aw} = \langle\nabla\phi_T^a, \nabla\phi_w\rangle$, $Z^j = \langle\psi_z^j, z\rangle$:
//!   skew by construction, and its natural rotation condition is $\partial_n e_w = 0$ on every
//!   edge (clamped). Since $d_h$ is the weak $-\operatorname{div}\operatorname{Div}$ on the
//!   total moment, the momentum line is consistent for any support; the heat line is
//!   $\langle v_T, c_P z\Delta e_w\rangle$ minus the edge term
//!   $c_P\int_{\partial\Omega}v_T z\,\partial_n e_w$.
//! * edge conditions on the total moment: wherever the plate imposes $M_{nn}$ (the HHJ edge
//!   DOFs $\ell_{e,j}(\mathbf E) = \frac1{|e|}\int_e E_{nn}P_j$ of simply supported and free
//!   edges, homogeneous or ports), the constraint is put on
//!   $\ell_{e,j}(\mathbf E_\kappa + c_P m_\theta\mathbf I) = \ell_{e,j}(\mathbf E_\kappa) +
//!   c_P L_{e,j}\theta$, $L_{e,j}\theta = \frac1{|e|}\int_e m_\theta P_j\,ds$ (the
//!   canonical HHJ interpolant of $m_\theta\mathbf I$ has these edge DOFs):
//!   - a multiplier constraint of a port ($0 = -G^\top e + M_\Gamma u$,
//!     [`KirchhoffHhj::port`], [`KirchhoffHhj::rotation_port`]) gets the column
//!     $G_\theta = c_P\sum_m G_{m\cdot}L_m^\top$ in the $\theta$ rows:
//!     $J_{\theta\lambda} = G_\theta$, $J_{\lambda\theta} = -G_\theta^\top$. The multiplier is
//!     $\lambda = \partial_n e_w$, so the heat line receives exactly the edge term
//!     $c_P\int_e v_T z\,\partial_n e_w$ dropped above, and the port input is the total
//!     $M_{nn}$;
//!   - homogeneous simply supported/free edges (HHJ edge DOFs removed by the plate): the
//!     same constraint with zero input, $\mathbf E_{\kappa,r} = -c_PL_r\theta$, is eliminated
//!     (null-space basis $e = N\tilde e$, equivalent to the multiplier form): with
//!     $M_C$ and $D$ the open compliance mass and $D^{mi} = -d_h(\phi^i, \Phi^m)$ of the plate,
//!     $$E \mathrel{+}= \begin{bmatrix}0 & -c_P M_{C,kr}L_r\\ \cdot & c_P^2 L_r^\top
//!     M_{C,rr}L_r\end{bmatrix},\qquad
//!     J_{wT} \mathrel{+}= c_P D_r^\top L_r,\quad J_{Tw} \mathrel{-}= c_P L_r^\top D_r$$
//!     (blocks $(\mathbf E_{\kappa,k}, \theta)$ and $(w, \theta)$), a congruence, so $E$
//!     stays symmetric PSD and $J$ skew;
//!   - the natural rotation port of a clamped edge (`{tag}_dnwt`, input $\partial_n e_w$) gets
//!     the same $\theta$ rows in $B$, so its output is the total moment
//!     $\int_e M_{nn}P_j$ and the heat line receives $c_P\int_e v_T z\,u$.
//!
//!   The natural shear ports (`{tag}_qn`) and the $w_t$ multipliers (effective shear) are
//!   those of the total moment already, since the momentum line is $d_h$ of the total
//!   moment.
//!
//!   Homogeneous clamped edges are unchanged: their edge term vanishes with the natural
//!   $\partial_n e_w = 0$, weakly in HHJ, so the discrete coupling carries an $O(h^p)$
//!   consistency error there (Q⁻¹ errors 5.8e-2, 1.25e-2, 4.7e-3 on 4², 6², 8² meshes).
//!   All additions are congruences or skew pairs: $J = -J^\top$, $E, R$ symmetric PSD and
//!   $\dot H = y^\top u - e^\top Re$ exactly.
//!
//! # Reference
//! On a clamped plate, and for the $\sin\sin$ modes of a simply supported rectangle, the
//! Gaussian-curvature integral of the mode vanishes, so the adiabatic stiffening of the mode
//! is the plate relaxation strength $\Delta_P = E\beta^2T_0(1+\nu)/(\rho c(1-\nu))$ and the
//! Lifshitz–Roukes damping $Q^{-1} = \Delta_P f(\xi)$ applies with the beam's $f$
//! ([`crate::models::beam::thermoelastic_beam::lifshitz_roukes_inverse_q`] with $\Delta_E \to \Delta_P$).
//! Measured (HHJ $k = 2$, CG1 ⊗ 4 CG2 temperature, $\xi \approx 2$, $\Delta_P = 10^{-4}$):
//! relative Q⁻¹ errors of the SSSS fundamental 8.1e-3, 2.0e-3, 9.7e-4 on 4², 6², 8² meshes
//! (observed orders 3.4, 2.5, approaching the ~1e-3 floor of in-plane conduction and first
//! order in $\Delta_P$). Dropping the edge terms on the simply supported edges (the clamped
//! formulation) gives errors 2.6, 4.1, 5.5 on the same meshes: a spurious edge heat
//! source $-c_P\int_\partial v_Tz\,\partial_ne_w$ that grows under refinement.
use super::kirchhoff::{KirchhoffHhj, KirchhoffModel};
use crate::assembly::hessian;
use crate::assembly::triangle::{self, Op, Term};
use crate::element::line::Family;
use crate::element::triangle::hhj;
use crate::error::{require_len, require_poisson, require_thermal, Fem2dError};
use crate::error::{require_positive, FemError};
use crate::mesh::interval::Mesh1d;
use crate::models::thermal_layer::{layer_heat_blocks, ThicknessFactors};
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::polynomial::shifted_legendre;
use crate::space::line::Space1d;
use crate::space::triangle::{Family2d, Shape, Space2d};
use phlex_core::sparse::{self, SparseMat, Triplets};
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
        require_thermal(self.heat_capacity, self.conductivity, self.t0)?;
        require_poisson(self.nu)?;
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
    /// multipliers) followed by block `theta`; ports: the plate's plus `"top_flux"`. The
    /// $M_{nn}$ conditions and ports of simply supported and free edges act on the total
    /// moment $\mathbf E_\kappa + c_P m_\theta\mathbf I$ (module docs).
    pub fn build(&self) -> Result<ThermoKirchhoffModel, Fem2dError> {
        let tp = self.thermal;
        tp.validate()?;
        let plate = self.plate.build()?;
        let h = plate.params().h;
        let sw = plate.velocity_space();
        let sk = plate.moment_space();
        let mesh = sw.mesh();
        let st = Space2d::new(mesh, Family2d::Cg(self.plane_degree), Shape::Scalar)?;
        let zmesh = Mesh1d::uniform_interval(-0.5 * h, 0.5 * h, self.n_thickness)?;
        let vz = Space1d::new(&zmesh, Family::Cg(self.thickness_degree))?;
        let ps = plate.system();
        let nm = ps.n_states();
        let n_diff = plate.n_differential();
        let (na, nzd) = (st.n_dofs(), vz.n_dofs());
        let nt = na * nzd;
        let n = nm + nt;
        let (nw, nk) = (sw.n_dofs(), sk.n_dofs());
        // open DOF -> state index (DOFs removed by strong conditions map to None)
        let state_map = |w: bool| -> Result<Vec<Option<usize>>, Fem2dError> {
            let len = if w { nw } else { nk };
            let probe: Vec<f64> = (0..len).map(|i| (i + 1) as f64).collect();
            let zw = vec![0.0; nw];
            let zk = vec![0.0; nk];
            let tagged = if w {
                plate.state_from_fields(&probe, &zk)?
            } else {
                plate.state_from_fields(&zw, &probe)?
            };
            let mut map = vec![None; len];
            for (s, &v) in tagged.iter().enumerate() {
                if v != 0.0 {
                    map[v as usize - 1] = Some(s);
                }
            }
            Ok(map)
        };
        let w_state = state_map(true)?;
        let k_state = state_map(false)?;
        let mut k_open = vec![None; nm];
        for (m, s) in k_state.iter().enumerate() {
            if let Some(s) = *s {
                k_open[s] = Some(m);
            }
        }
        let M = triangle::mass(&st, 1.0)?;
        let K = triangle::bilinear(
            &st,
            &st,
            &[
                Term::new(0, Op::Dx, 0, Op::Dx, 1.0),
                Term::new(0, Op::Dy, 0, Op::Dy, 1.0),
            ],
        )?;
        let G = triangle::bilinear(
            &st,
            sw,
            &[
                Term::new(0, Op::Dx, 0, Op::Dx, 1.0),
                Term::new(0, Op::Dy, 0, Op::Dy, 1.0),
            ],
        )?;
        let thickness = ThicknessFactors::new(&vz)?;
        let Z = &thickness.moment;
        let la = triangle::load(&st, &|_x, o: &mut [f64]| o[0] = 1.0, 0)?;
        let ct = tp.heat_capacity * tp.t0;
        let kt = tp.conductivity * tp.t0;
        let cp = tp.coupling();
        let mut tE = Triplets::new(n, n);
        let mut tJ = Triplets::new(n, n);
        let mut tR = Triplets::new(n, n);
        let mut tET = Triplets::new(nt, nt);
        tE.push_block(0, 0, &ps.E, 1.0);
        tJ.push_block(0, 0, &ps.J, 1.0);
        tR.push_block(0, 0, &ps.R, 1.0);
        layer_heat_blocks(
            &M,
            &K,
            &thickness.mz,
            &thickness.kz,
            ct,
            kt,
            &mut |i, j, v| {
                tE.push(nm + i, nm + j, v);
                tET.push(i, j, v);
            },
            &mut |i, j, v| tR.push(nm + i, nm + j, v),
        );
        let m_in = ps.B.ncols();
        let mut tB = Triplets::new(n, m_in + 1);
        tB.push_block(0, 0, &ps.B, 1.0);
        let mut recon: Vec<(usize, Vec<(usize, f64)>)> = Vec::new();
        if cp != 0.0 {
            // open coupling J_wT = c_P (Gᵀ ⊗ Z) = c_P d_h(v, m_θ I), J_Tw = −J_wTᵀ
            thickness.push_coupling(&mut tJ, &G, -cp, &w_state, nm);
            // edge functionals L_{e,j}θ = (1/|e|)∫_e m_θ P_j ds of the boundary HHJ DOFs,
            // as (local θ index, value) lists
            let lp = boundary_edge_functionals(&st, sk, self.plane_degree)?;
            let ell = |m: usize| -> Vec<(usize, f64)> {
                let mut out = Vec::new();
                for &(a, v) in &lp[m] {
                    for (j, &zv) in Z.iter().enumerate() {
                        if zv != 0.0 {
                            out.push((a * nzd + j, v * zv));
                        }
                    }
                }
                out
            };
            // homogeneous M_nn conditions: E_r = −c_P L_r θ, eliminated
            let removed: Vec<usize> = (0..nk).filter(|&m| k_state[m].is_none()).collect();
            let ne = sk.dofs_per_edge();
            for &m in &removed {
                let e = m / ne;
                if e >= mesh.n_edges() || mesh.edge_cells(e).1.is_some() {
                    return Err(FemError::InvalidParameter {
                        name: "removed HHJ moment DOF".into(),
                        value: m as f64,
                        requirement: "strong M_nn conditions only on boundary edge DOFs".into(),
                    }
                    .into());
                }
            }
            let Mc = hhj::mass(sk, &plate.params().stiffness.compliance())?;
            let Dt = sparse::transpose(&hessian::hhj_coupling(sk, sw)?);
            let ells: Vec<Vec<(usize, f64)>> = removed.iter().map(|&m| ell(m)).collect();
            let mut rpos = vec![usize::MAX; nk];
            for (i, &m) in removed.iter().enumerate() {
                rpos[m] = i;
            }
            let mut tA = Triplets::new(nt, nt);
            for (i, &m) in removed.iter().enumerate() {
                let lm = &ells[i];
                for (m2, mc) in sparse::col_iter(&Mc, m) {
                    if let Some(s) = k_state[m2] {
                        // E[κ_k, θ] = −c_P M_{C,kr} L_r (and its transpose)
                        for &(p, lv) in lm {
                            let v = -cp * mc * lv;
                            tE.push(s, nm + p, v);
                            tE.push(nm + p, s, v);
                        }
                    } else if rpos[m2] != usize::MAX {
                        // E[θ, θ] += c_P² L_rᵀ M_{C,rr} L_r
                        for &(p, lv) in lm {
                            for &(q, lv2) in &ells[rpos[m2]] {
                                tA.push(p, q, cp * cp * lv * mc * lv2);
                            }
                        }
                    }
                }
                // J[w, θ] += c_P D_rᵀ L_r, J[θ, w] −= c_P L_rᵀ D_r
                for (iw, dv) in sparse::col_iter(&Dt, m) {
                    if let Some(s) = w_state[iw] {
                        for &(p, lv) in lm {
                            let v = cp * dv * lv;
                            tJ.push(s, nm + p, v);
                            tJ.push(nm + p, s, -v);
                        }
                    }
                }
                recon.push((m, lm.iter().map(|&(p, lv)| (p, -cp * lv)).collect()));
            }
            let A = tA.build();
            for q in 0..nt {
                for (p, v) in sparse::col_iter(&A, q) {
                    // symmetrized (the two triangle sums differ by round-off)
                    tE.push(nm + p, nm + q, 0.5 * v);
                    tE.push(nm + q, nm + p, 0.5 * v);
                }
            }
            // M_nn multiplier constraints of ports: on E_κ + c_P m_θ I
            for col in n_diff..nm {
                for (row, v) in sparse::col_iter(&ps.J, col) {
                    if let Some(m) = k_open[row] {
                        for (p, lv) in ell(m) {
                            let x = cp * v * lv;
                            tJ.push(nm + p, col, x);
                            tJ.push(col, nm + p, -x);
                        }
                    }
                }
            }
            // natural rotation ports (clamped `_dnwt`): output = total moment
            for col in 0..m_in {
                for (row, v) in sparse::col_iter(&ps.B, col) {
                    if let Some(m) = k_open[row] {
                        for (p, lv) in ell(m) {
                            tB.push(nm + p, col, cp * v * lv);
                        }
                    }
                }
            }
        }
        thickness.push_top_flux(&mut tB, m_in, &la, 1.0, nm);
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
        let mut z_nodes = vec![0.0; nzd];
        let pz = self.thickness_degree;
        for e in 0..zmesh.n_elements() {
            let (za, zb) = zmesh.element(e);
            for j in 0..=pz {
                z_nodes[vz.dof(e, j)] = za + (zb - za) * j as f64 / pz as f64;
            }
        }
        Ok(ThermoKirchhoffModel {
            system,
            plate,
            thermal: tp,
            n_mech: nm,
            theta_space: st,
            z_nodes,
            thermal_mass: tET.build(),
            recon,
        })
    }
}

/// Edge functionals of the boundary HHJ DOFs applied to $\phi\,\mathbf I$ for the plane
/// temperature basis $\phi_a$: row $m = (e, j)$ of a boundary edge $e$ holds
/// $\ell_{e,j}(\phi_a\mathbf I) = \frac1{|e|}\int_e\phi_a P_j(2s-1)\,ds$ (arc parameter $s$
/// from the lower global vertex, the HHJ DOF convention of [`crate::element::triangle::hhj`]); other
/// rows are empty.
fn boundary_edge_functionals(
    st: &Space2d,
    sk: &hhj::HhjSpace,
    plane_degree: usize,
) -> Result<Vec<Vec<(usize, f64)>>, Fem2dError> {
    let mesh = st.mesh();
    let ne = sk.dofs_per_edge();
    let el = st.element();
    let nl = el.n_local();
    let gl = GaussLegendre::new(plane_degree + ne + 1)?;
    let (mut v, mut dx, mut dy) = (vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
    let refv = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
    let tri = mesh.triangles();
    let edges = mesh.edges();
    let mut out = vec![Vec::new(); sk.n_dofs()];
    for b in mesh.boundary_edges() {
        let (la, lb) = ((b.local + 1) % 3, (b.local + 2) % 3);
        let forward = tri[b.cell][la] == edges[b.edge][0];
        let d = st.cell_dofs(b.cell);
        let mut acc = vec![0.0; nl * ne];
        for (&t, &w) in gl.points.iter().zip(&gl.weights) {
            let xh = [
                refv[la][0] + t * (refv[lb][0] - refv[la][0]),
                refv[la][1] + t * (refv[lb][1] - refv[la][1]),
            ];
            el.eval(xh, &mut v, &mut dx, &mut dy);
            let s = if forward { t } else { 1.0 - t };
            for j in 0..ne {
                let pj = shifted_legendre(j, s);
                for i in 0..nl {
                    acc[i * ne + j] += w * v[i] * pj;
                }
            }
        }
        for (j, dof) in sk.edge_dofs(b.edge).enumerate() {
            for i in 0..nl {
                let a = acc[i * ne + j];
                if a.abs() > 1e-13 {
                    out[dof].push((d[i], a));
                }
            }
        }
    }
    Ok(out)
}

/// The assembled thermoelastic plate.
#[derive(Debug, Clone)]
pub struct ThermoKirchhoffModel {
    system: LinearPhSystem,
    plate: KirchhoffModel,
    thermal: PlateThermalParams,
    n_mech: usize,
    theta_space: Space2d,
    z_nodes: Vec<f64>,
    /// $E_T = \rho cT_0(M\otimes M_z)$.
    thermal_mass: SparseMat,
    /// Eliminated HHJ DOFs $m$ and their values $-c_P L_m\theta$ (θ-local index, weight).
    recon: Vec<(usize, Vec<(usize, f64)>)>,
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
    /// The in-plane temperature space $CG_p$.
    pub fn theta_space(&self) -> &Space2d {
        &self.theta_space
    }
    /// Thickness coordinates of the through-thickness temperature nodes.
    pub fn thickness_nodes(&self) -> &[f64] {
        &self.z_nodes
    }

    fn check_state(&self, e: &[f64]) -> Result<(), Fem2dError> {
        require_len("thermoelastic plate state", self.system.n_states(), e.len())?;
        Ok(())
    }

    /// Coupled state from a plate state (temperature zero).
    pub fn state_from_plate(&self, e_plate: &[f64]) -> Result<Vec<f64>, Fem2dError> {
        self.state_from_parts(e_plate, &vec![0.0; self.system.n_states() - self.n_mech])
    }

    /// Coupled state from a plate state and temperature coefficients (block `theta`,
    /// in-plane DOF `a`, thickness node `j` at `a · n_z + j`).
    pub fn state_from_parts(&self, e_plate: &[f64], theta: &[f64]) -> Result<Vec<f64>, Fem2dError> {
        let nt = self.system.n_states() - self.n_mech;
        for (what, v, len) in [
            ("plate state", e_plate, self.n_mech),
            ("temperature coefficients", theta, nt),
        ] {
            require_len(what, len, v.len())?;
        }
        let mut e = e_plate.to_vec();
        e.extend_from_slice(theta);
        Ok(e)
    }

    /// Nodal interpolant of $\theta(x, y, z)$ (`f(x, z)`) as block `theta` coefficients.
    pub fn interpolate_theta(&self, f: &dyn Fn([f64; 2], f64) -> f64) -> Vec<f64> {
        let nzd = self.z_nodes.len();
        let mut out = vec![0.0; self.system.n_states() - self.n_mech];
        for (j, &z) in self.z_nodes.iter().enumerate() {
            let c = self.theta_space.interpolate(&|x, o| o[0] = f(x, z));
            for (a, v) in c.iter().enumerate() {
                out[a * nzd + j] = *v;
            }
        }
        out
    }

    /// HHJ coefficients of $\mathbf E_\kappa = \mathcal D_b\operatorname{Hess}w$ in the full
    /// moment space: the plate's retained DOFs, and on homogeneous simply supported/free
    /// edges the eliminated edge DOFs $-c_PL_{e,j}\theta$ (total $M_{nn}$ zero). The total
    /// moment is this plus $c_Pm_\theta\mathbf I$.
    pub fn moment_coefficients(&self, e: &[f64]) -> Result<Vec<f64>, Fem2dError> {
        self.check_state(e)?;
        let mut k = self
            .plate
            .field_coefficients(&e[..self.n_mech], super::KirchhoffField::Moments)?;
        let th = &e[self.n_mech..];
        for (m, row) in &self.recon {
            k[*m] = row.iter().map(|&(p, v)| v * th[p]).sum();
        }
        Ok(k)
    }

    /// Thermal energy $\frac12\int\rho cT_0\theta^2$.
    pub fn thermal_energy(&self, e: &[f64]) -> f64 {
        let th = &e[self.n_mech..];
        0.5 * sparse::bilinear(th, &self.thermal_mass, th)
    }
    /// Mechanical energy $\frac12\int\rho h e_w^2 + \mathbf E_\kappa:\mathcal C_b\mathbf E_\kappa$
    /// (eliminated edge moments included): $H - $ [`Self::thermal_energy`].
    pub fn mechanical_energy(&self, e: &[f64]) -> f64 {
        self.system.hamiltonian(e) - self.thermal_energy(e)
    }
}
