//! Mindlin–Reissner plate, Arnold–Falk–Winther (AFW) mixed PFEM with weakly imposed
//! symmetry of the moment tensor (thesis 004 §7.2.1.2, weak form (7.13), spaces (7.14),
//! Conjecture 5; summary §3.2 "Mindlin plate, velocity control (mixed)", §3.3 AFW,
//! §5.1.2 Tables B.9–B.12).
//!
//! Co-energy variables and spaces (degree $k = 1, 2, 3$; UFL numbering):
//!
//! | block | field | space |
//! |---|---|---|
//! | `e_w` | $\dot w$ | $DG_{k-1}$ |
//! | `e_theta` | $\dot\theta$ | $(DG_{k-1})^2$ (components x, y) |
//! | `E_kappa` | moments $\mathbf M$ (not symmetric) | rows $(m_{11}, m_{12})$, $(m_{21}, m_{22})$ each in $BDM_k$ |
//! | `e_gamma` | shear forces $\mathbf q$ | $RT_k$ ($\operatorname{div}RT_k = DG_{k-1}$; thesis "RT$_{k-1}$" in the older numbering) |
//! | `r` | rotation rate $\rho$, $\partial_t\mathbf E_r = \rho\begin{bmatrix}0&1\\-1&0\end{bmatrix}$, stored as $\frac{Eb^3}{12}\rho$ ([`multiplier_scale`]) | $DG_{k-1}$ (algebraic) |
//!
//! Weak form (integration by parts on lines 3–4, thesis (7.13); $\operatorname{Div}$ acts
//! row-wise, $(\operatorname{grad}\boldsymbol\theta)_{ij} = \partial_j\theta_i$):
//! $$\begin{aligned}
//! \langle v_w, \rho b\,\partial_t e_w\rangle &= \langle v_w, \operatorname{div}e_\gamma\rangle + \langle v_w, f\rangle\\
//! \langle v_\theta, I_\theta\,\partial_t e_\theta\rangle &= \langle v_\theta, \operatorname{Div}\mathbf E_\kappa + e_\gamma\rangle + \langle v_\theta, \tau\rangle\\
//! \langle \mathbf V_\kappa, \mathcal C_b\,\partial_t\mathbf E_\kappa\rangle &= -\langle\operatorname{Div}\mathbf V_\kappa, e_\theta\rangle - \langle\mathbf V_\kappa, \partial_t\mathbf E_r\rangle\\
//! \langle v_\gamma, C_s\,\partial_t e_\gamma\rangle &= -\langle\operatorname{div}v_\gamma, e_w\rangle - \langle v_\gamma, e_\theta\rangle\\
//! 0 &= \langle\mathbf V_r, \mathbf E_\kappa\rangle
//! \end{aligned}$$
//! The sign of $\langle v_\gamma, e_\theta\rangle$ is the one of the operator
//! $\partial_t\alpha_\gamma = \operatorname{grad}e_w - e_\theta$ (summary §2.5); (7.10)/(7.13)
//! print "+", which would break the skew-symmetry. $\mathcal C_b(\mathbf M) =
//! \frac{12}{Eb^3}[(1+\nu)\mathbf M - \nu\operatorname{tr}(\mathbf M)\mathbf I]$ acts on the full
//! (non-symmetric) tensor, $I_\theta = \rho b^3/12$, $C_s = 1/(K_{sh}Gb)$.
//!
//! # Port-Hamiltonian DAE form
//! The thesis keeps $\mathbf E_r$ as a state, which puts the symmetry constraint into an
//! *indefinite* mass matrix $\begin{bmatrix}M_\kappa & A^\top\\ A & 0\end{bmatrix}$ (summary
//! §3.3). Here the unknown is its rate $\rho = \partial_t\mathbf E_r$, an algebraic variable
//! with $E = \operatorname{diag}(M_{\rho b}, M_{I_\theta}, M_{\mathcal C_b}, M_{C_s}, 0)$
//! symmetric positive semi-definite and
//! $$J = \begin{bmatrix}0&0&0&D_{\mathrm{div}}&0\\0&0&D_{\mathrm{Div}}&M_{\theta\gamma}&0\\
//! 0&-D_{\mathrm{Div}}^\top&0&0&-A^\top\\-D_{\mathrm{div}}^\top&-M_{\theta\gamma}^\top&0&0&0\\
//! 0&0&A&0&0\end{bmatrix},\quad A^{ij} = \int\psi_i\,(E^j_{12} - E^j_{21}),$$
//! an index-2 pHDAE ($H = \tfrac12 e^\top Ee$). The implicit midpoint rule applied to it gives
//! exactly the thesis's Crank–Nicolson iterates with $\mathbf E_r^{n+1} = \mathbf E_r^n +
//! \Delta t\,\bar\rho_{n+1/2}$ (the midpoint value that
//! `phlex_solve::midpoint::LinearMidpoint` stores in algebraic components). On fine meshes integrate
//! the diagonally equilibrated copy [`MindlinAfwModel::equilibrated_system`].
//!
//! # Boundary conditions
//! In this dual (velocity-controlled) formulation the boundary terms are
//! $\langle\mathbf V_\kappa\mathbf n, e_\theta\rangle_{\partial\Omega}$ and
//! $\langle v_\gamma\cdot\mathbf n, e_w\rangle_{\partial\Omega}$: velocity traces are the
//! *natural* inputs, tractions (the normal traces $q_n = e_\gamma\cdot\mathbf n$,
//! $\mathbf E_\kappa\mathbf n$ of the $H(\mathrm{div})$ fields) are *essential*. The
//! boundary table of summary §2.5 (thesis 004 ch. 4) per tag ([`AfwEdgeCondition`]):
//!
//! | condition | builder | velocity traces | tractions |
//! |---|---|---|---|
//! | clamped $w = \boldsymbol\theta = 0$ | default, [`MindlinAfw::clamped`] | $w_t = \boldsymbol\omega = 0$ natural | unconstrained (the reactions) |
//! | free $q_n = M_{nn} = M_{ns} = 0$ | [`MindlinAfw::free`] | unconstrained | normal DOFs of $e_\gamma$ and both $\mathbf E_\kappa$ rows removed |
//! | simply supported (hard) $w = \theta_s = 0$, $M_{nn} = 0$ | [`MindlinAfw::simply_supported`] | $w_t = \omega_s = 0$ natural | $BDM$ DOFs rotated to the edge frame, the $M_{nn}$ ones removed |
//! | velocity port | [`MindlinAfw::port`] | inputs `_wt`, `_omega` ($B$ = signed selections) | outputs |
//! | traction port | [`MindlinAfw::traction_port`] | outputs = multipliers | inputs `_qn`, `_Mn` |
//!
//! # Traction ports (force causality)
//! A prescribed traction is an essential condition on the normal DOFs. It is imposed with
//! Lagrange multipliers rather than a lifting (a lifting $e = e_0 + Lu$ puts $E L\dot u$ into
//! the right-hand side, which is not of the form $Bu$ and breaks the collocated power
//! balance). With $G$ the velocity-port matrix of the tagged edges (signed selection of
//! their normal DOFs, [`MindlinAfw::port`]) and $\lambda$ the velocity-trace coefficients,
//! $$\begin{bmatrix}E&0\\0&0\end{bmatrix}\begin{pmatrix}\dot e\\\dot\lambda\end{pmatrix}
//! = \begin{bmatrix}J&G\\-G^\top&0\end{bmatrix}\begin{pmatrix}e\\\lambda\end{pmatrix} +
//! \begin{bmatrix}0\\I\end{bmatrix}u,\qquad y = \lambda,$$
//! i.e. $G^\top e = u$ (the normal-trace moments equal the prescribed tractions) and
//! $\dot H = e^\top G\lambda = u^\top y$: the multipliers are exactly the collocated
//! outputs. This is an index-2 pHDAE like the skew multiplier; the midpoint rule imposes
//! the constraint at the midpoint (`phlex_solve::midpoint`), which keeps the discrete power
//! balance $H_1 - H_0 = h\,\bar y^\top\bar u$ exact. The multipliers are stored scaled by
//! the compliance of their block ($\lambda = c\tilde\lambda$, $c = C_s$ on the shear rows,
//! $c = 12/(Eb^3)$ on the moment rows; $G \to cG$, $B \to cI$), for the same pivot balance
//! as [`multiplier_scale`]. Zero traction inputs give the free edge (with the
//! multipliers as the velocity traces, which [`MindlinAfw::free`] does not expose).
use crate::element::triangle::bdm::{HdivFamily, HdivSpace};
use crate::error::FemError;
use crate::error::{require_degree, Fem2dError};
use crate::mesh::triangle::CellGeometry;
use crate::mesh::triangle::Mesh2d;
use crate::models::model::{lossless_system, NamedProfile};
use crate::models::plate::mindlin::MindlinParams;
use crate::models::restriction::restrict_square;
use crate::quadrature::triangle::TriangleQuadrature;
use crate::space::triangle::{Family2d, Shape, Space2d};
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, VarBlock};
use std::sync::Arc;

/// A distributed load profile: force per area $f(\mathbf x)$ \[N/m²\] and torque per area
/// $\boldsymbol\tau(\mathbf x)$ \[N m/m²\]; the port input scales it in time.
pub type AfwLoadProfile = Arc<dyn Fn([f64; 2]) -> (f64, [f64; 2]) + Send + Sync>;

/// The five co-energy blocks of the AFW Mindlin plate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfwField {
    /// Vertical velocity $e_w$ (block `e_w`, $DG_{k-1}$).
    Velocity,
    /// Rotation rates $e_\theta$ (block `e_theta`, $(DG_{k-1})^2$).
    RotationRate,
    /// Moment tensor $\mathbf E_\kappa$ (block `E_kappa`, rows in $BDM_k$).
    Moments,
    /// Shear forces $e_\gamma$ (block `e_gamma`, $RT_k$).
    ShearForces,
    /// Rate $\rho$ of the skew multiplier $\mathbf E_r$ (block `r`, $DG_{k-1}$, algebraic,
    /// stored scaled: [`multiplier_scale`]; the sampler returns $\rho$ itself).
    RotationMultiplier,
}

impl AfwField {
    /// All fields in block order.
    pub const ALL: [AfwField; 5] = [
        AfwField::Velocity,
        AfwField::RotationRate,
        AfwField::Moments,
        AfwField::ShearForces,
        AfwField::RotationMultiplier,
    ];
    /// Block name.
    pub fn block_name(&self) -> &'static str {
        match self {
            AfwField::Velocity => "e_w",
            AfwField::RotationRate => "e_theta",
            AfwField::Moments => "E_kappa",
            AfwField::ShearForces => "e_gamma",
            AfwField::RotationMultiplier => "r",
        }
    }
    fn meaning(&self) -> &'static str {
        match self {
            AfwField::Velocity => "vertical velocity [m/s] (DG_{k-1})",
            AfwField::RotationRate => "rotation rates (x, y) [rad/s] (DG_{k-1})",
            AfwField::Moments => "moment tensor rows (m11, m12), (m21, m22) [N m/m] (BDM_k)",
            AfwField::ShearForces => "shear forces (x, y) [N/m] (RT_k)",
            AfwField::RotationMultiplier => {
                "scaled rate of the skew multiplier: (E b^3/12) rho with d/dt E_r = rho [[0,1],[-1,0]], E_r = skw(grad theta) [N m/(m s)]"
            }
        }
    }
    /// Number of components of the field at a point (Frobenius for tensors).
    pub fn n_comp(&self) -> usize {
        match self {
            AfwField::Velocity | AfwField::RotationMultiplier => 1,
            AfwField::RotationRate | AfwField::ShearForces => 2,
            AfwField::Moments => 4,
        }
    }
    fn index(&self) -> usize {
        *self as usize
    }
}

/// Boundary condition of a tagged edge set (module docs, "Boundary conditions").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfwEdgeCondition {
    /// $w_t = \boldsymbol\omega = 0$: natural, nothing imposed (the default of every edge).
    Clamped,
    /// $q_n = 0$, $\mathbf E_\kappa\mathbf n = 0$: essential, normal DOFs removed.
    Free,
    /// Hard simple support $w_t = \omega_s = 0$ (natural), $M_{nn} = 0$ (essential, the
    /// normal component of the rotated moment-vector DOFs removed).
    SimplySupported,
    /// Velocity-causality port: inputs $w_t$, $\boldsymbol\omega$; outputs $q_n$,
    /// $\mathbf E_\kappa\mathbf n$ (natural inputs, [`MindlinAfw::port`]).
    VelocityPort,
    /// Force-causality (traction) port: inputs $q_n$, $\mathbf E_\kappa\mathbf n$;
    /// outputs $w_t$, $\boldsymbol\omega$ as Lagrange multipliers
    /// ([`MindlinAfw::traction_port`]).
    TractionPort,
}

impl AfwEdgeCondition {
    /// Name used in messages and model files.
    pub fn name(&self) -> &'static str {
        match self {
            AfwEdgeCondition::Clamped => "clamped",
            AfwEdgeCondition::Free => "free",
            AfwEdgeCondition::SimplySupported => "simply_supported",
            AfwEdgeCondition::VelocityPort => "port",
            AfwEdgeCondition::TractionPort => "traction_port",
        }
    }
}

/// Builder of the AFW Mindlin plate (module docs).
#[derive(Debug, Clone)]
pub struct MindlinAfw {
    params: MindlinParams,
    mesh: Mesh2d,
    degree: usize,
    conditions: Vec<(String, AfwEdgeCondition)>,
    loads: Vec<NamedProfile<AfwLoadProfile>>,
}

/// Quadrature degree added to $k$ for load integrals of non-polynomial profiles.
const LOAD_EXTRA_DEGREE: usize = 12;

impl MindlinAfw {
    /// AFW of degree `degree` (`1 <= k <= 3`), every edge clamped (the natural condition)
    /// until [`Self::free`] is called.
    pub fn new(params: MindlinParams, mesh: &Mesh2d, degree: usize) -> Result<Self, Fem2dError> {
        params.validate()?;
        require_degree("AFW Mindlin degree k", degree, 1..=3)?;
        Ok(Self {
            params,
            mesh: mesh.clone(),
            degree,
            conditions: Vec::new(),
            loads: Vec::new(),
        })
    }

    /// Clamps the edges tagged `tag` ($w_t = 0$, $\boldsymbol\omega = 0$): the natural
    /// condition of this formulation, nothing is imposed (every edge without a condition is
    /// clamped); recording it only reserves the tag (a tag carries one condition) and
    /// checks that it exists.
    pub fn clamped(self, tag: &str) -> Self {
        self.condition(tag, AfwEdgeCondition::Clamped)
    }

    /// Makes the edges tagged `tag` free ($\mathbf E_\kappa\mathbf n = 0$, $q_n = 0$, imposed
    /// strongly on the normal-moment DOFs). Unknown tags are reported by [`Self::build`].
    pub fn free(self, tag: &str) -> Self {
        self.condition(tag, AfwEdgeCondition::Free)
    }

    /// Hard simple support on the edges tagged `tag` (summary §2.5 boundary table:
    /// $w_t = 0$, $\omega_s = 0$, $M_{nn} = 0$). The velocity conditions are natural; the
    /// moment condition is essential: on each tagged edge the two $BDM_k$ normal-moment
    /// DOFs $(d_{x,j}, d_{y,j})$ of the rows of $\mathbf E_\kappa$ (Cartesian components of
    /// $\int_e(\mathbf E_\kappa\mathbf n_e)L_j$) are replaced by their components
    /// $(d_{n,j}, d_{s,j}) = (\mathbf n\cdot d_j, \mathbf s\cdot d_j)$ in the edge frame
    /// ($\mathbf n$ outward, $\mathbf s = (-n_y, n_x)$), an orthogonal change of variables
    /// $d = T\tilde d$ ($E \to T^\top ET$, $J\to T^\top JT$ stay symmetric/skew), and
    /// $d_{n,j}$ (the moments of $M_{nn}$) is removed. Edges of any direction are allowed.
    pub fn simply_supported(self, tag: &str) -> Self {
        self.condition(tag, AfwEdgeCondition::SimplySupported)
    }

    /// Makes the edges tagged `tag` a velocity-controlled boundary port (the natural
    /// causality of this formulation, summary §3.2 "velocity control"): two ports
    /// * `"{tag}_wt"`: input = the Legendre coefficients $U_{e,j}$, $j < k$, of the boundary
    ///   velocity $w_t = \sum U_{e,j}L_j(s_e)$ on each tagged edge $e$ (edges in increasing
    ///   global index, $s_e$ from the lower to the higher global vertex);
    ///   $B^{i,(e,j)} = \int_e \phi_\gamma^i\cdot\mathbf n\,L_j$; output = the moments
    ///   $\int_e q_n L_j$ of the shear force;
    /// * `"{tag}_omega"`: input = the coefficients $U_{e,j,c}$, $j \le k$, $c \in \{x, y\}$ of
    ///   the boundary rotation rate $\omega_c = \sum U_{e,j,c}L_j(s_e)$ (index
    ///   $2(k+1)e' + 2j + c$ for the $e'$-th edge);
    ///   $B^{i,(e,j,c)} = \int_e (\mathbf\Phi_\kappa^i\mathbf n)_c L_j$; output = the moments
    ///   $\int_e (\mathbf E_\kappa\mathbf n)_c L_j$ of the boundary moment vector.
    ///
    /// With the dual edge DOFs these $B$ are signed selections ($\pm1$ = orientation of the
    /// global edge normal against the outward one), and
    /// $\dot H = y^\top u = \int_\Gamma w_t q_n + \boldsymbol\omega\cdot\mathbf E_\kappa\mathbf n$
    /// exactly. Zero inputs = clamped.
    pub fn port(self, tag: &str) -> Self {
        self.condition(tag, AfwEdgeCondition::VelocityPort)
    }

    /// Makes the edges tagged `tag` a traction (force-causality) port: the boundary
    /// tractions are the inputs, the velocity traces the outputs; zero inputs = free edge.
    /// Two ports, with the layout of [`Self::port`] and input/output exchanged:
    /// * `"{tag}_qn"`: input $u_{e,j} = \int_e q_n L_j(s_e)$ (moments of the prescribed
    ///   shear force, N), output the Legendre coefficients of $w_t$ \[m/s\];
    /// * `"{tag}_Mn"`: input $u_{e,j,c} = \int_e(\mathbf M\mathbf n)_c L_j(s_e)$ (moments of
    ///   the prescribed boundary moment vector, N m; $(\mathbf M\mathbf n)\cdot\mathbf n =
    ///   M_{nn}$, $(\mathbf M\mathbf n)\cdot\mathbf s = M_{ns}$), output the coefficients of
    ///   $\omega_c$ \[rad/s\].
    ///
    /// In the AFW form the tractions are the normal traces of the $H(\mathrm{div})$ fields,
    /// i.e. an **essential** condition. It is imposed with Lagrange multipliers (module
    /// docs, "Traction ports"): the multipliers are the velocity-trace coefficients, the
    /// algebraic block `lambda` appended after `r`, and they are the port outputs.
    pub fn traction_port(self, tag: &str) -> Self {
        self.condition(tag, AfwEdgeCondition::TractionPort)
    }

    /// Sets condition `c` on the edges tagged `tag` (the named methods above).
    pub fn condition(mut self, tag: &str, c: AfwEdgeCondition) -> Self {
        self.conditions.push((tag.to_string(), c));
        self
    }

    /// Adds a one-dimensional input port `name` for the distributed force and torque
    /// $u(t)\,(f(\mathbf x), \boldsymbol\tau(\mathbf x))$: $B$ column
    /// $(\langle\phi_w, f\rangle, \langle\phi_\theta, \boldsymbol\tau\rangle, 0, 0, 0)$; the
    /// collocated output is $\int f\,e_w + \boldsymbol\tau\cdot e_\theta$ (power per unit input).
    pub fn load(mut self, name: &str, profile: AfwLoadProfile) -> Self {
        self.loads.push(NamedProfile::new(name, profile));
        self
    }

    /// Assembles the model.
    pub fn build(&self) -> Result<MindlinAfwModel, Fem2dError> {
        let p = &self.params;
        let k = self.degree;
        let m = &self.mesh;
        let sd = Space2d::new(m, Family2d::Dg(k - 1), Shape::Scalar)?;
        let sb = HdivSpace::new(m, HdivFamily::Bdm, k)?;
        let sr = HdivSpace::new(m, HdivFamily::Rt, k)?;
        let (nd, nb, nr) = (sd.n_dofs(), sb.n_dofs(), sr.n_dofs());
        let sizes = [nd, 2 * nd, 2 * nb, nr, nd];
        let mut offsets = [0usize; 6];
        for b in 0..5 {
            offsets[b + 1] = offsets[b] + sizes[b];
        }
        let n_full = offsets[5];
        let [ow, ot, ok, og, orr, _] = offsets;
        let mut te = Triplets::new(n_full, n_full);
        let mut tj = Triplets::new(n_full, n_full);
        let q = TriangleQuadrature::exact_for_degree(2 * k)?;
        let (bv_ref, bd_ref) = sb.element().tabulate(&q.points);
        let (rv_ref, rd_ref) = sr.element().tabulate(&q.points);
        let (nlb, nlr, nld) = (sb.n_local(), sr.n_local(), sd.n_local());
        let (mut bv, mut bd) = (vec![[0.0; 2]; nlb], vec![0.0; nlb]);
        let (mut rv, mut rd) = (vec![[0.0; 2]; nlr], vec![0.0; nlr]);
        let (mut pv, mut px, mut py) = (vec![0.0; nld], vec![0.0; nld], vec![0.0; nld]);
        let rho_b = p.rho * p.h;
        let i_theta = p.rho * p.h.powi(3) / 12.0;
        let cb = 12.0 / (p.E * p.h.powi(3));
        let nu = p.nu;
        let cs = 1.0 / (p.k_sh * p.shear_modulus() * p.h);
        let r_scale = multiplier_scale(p);
        for t in 0..m.n_cells() {
            let g = CellGeometry::new(m, t);
            let dd = sd.cell_dofs(t);
            let bdofs = sb.cell_dofs(t);
            let rdofs = sr.cell_dofs(t);
            for (iq, (xh, &w)) in q.points.iter().zip(&q.weights).enumerate() {
                let wq = w * g.det;
                sd.element().eval(*xh, &mut pv, &mut px, &mut py);
                sb.map_basis(
                    t,
                    &g,
                    &bv_ref[iq * nlb..(iq + 1) * nlb],
                    &bd_ref[iq * nlb..(iq + 1) * nlb],
                    &mut bv,
                    &mut bd,
                );
                sr.map_basis(
                    t,
                    &g,
                    &rv_ref[iq * nlr..(iq + 1) * nlr],
                    &rd_ref[iq * nlr..(iq + 1) * nlr],
                    &mut rv,
                    &mut rd,
                );
                // DG masses: e_w, e_theta (2 components)
                for (a, &da) in dd.iter().enumerate() {
                    for (c, &dc) in dd.iter().enumerate() {
                        let mm = wq * pv[a] * pv[c];
                        te.push(ow + da, ow + dc, rho_b * mm);
                        te.push(ot + da, ot + dc, i_theta * mm);
                        te.push(ot + nd + da, ot + nd + dc, i_theta * mm);
                    }
                }
                // compliance mass of E_kappa: a[(1+ν) V:E − ν trV trE]
                for r in 0..2 {
                    for (i, &bi) in bdofs.iter().enumerate() {
                        let row = ok + r * nb + bi;
                        for s in 0..2 {
                            for (j, &bj) in bdofs.iter().enumerate() {
                                let mut v = -nu * bv[i][r] * bv[j][s];
                                if r == s {
                                    v += (1.0 + nu) * (bv[i][0] * bv[j][0] + bv[i][1] * bv[j][1]);
                                }
                                te.push(row, ok + s * nb + bj, wq * cb * v);
                            }
                        }
                    }
                }
                // shear compliance mass
                for (i, &ri) in rdofs.iter().enumerate() {
                    for (j, &rj) in rdofs.iter().enumerate() {
                        te.push(
                            og + ri,
                            og + rj,
                            wq * cs * (rv[i][0] * rv[j][0] + rv[i][1] * rv[j][1]),
                        );
                    }
                }
                for (a, &da) in dd.iter().enumerate() {
                    // D_div: ∫ φ_w div φ_γ ; M_θγ: ∫ φ_θ · φ_γ
                    for (j, &rj) in rdofs.iter().enumerate() {
                        let v = wq * pv[a] * rd[j];
                        tj.push(ow + da, og + rj, v);
                        tj.push(og + rj, ow + da, -v);
                        for (c, &rjc) in rv[j].iter().enumerate() {
                            let v = wq * pv[a] * rjc;
                            tj.push(ot + c * nd + da, og + rj, v);
                            tj.push(og + rj, ot + c * nd + da, -v);
                        }
                    }
                    for (j, &bj) in bdofs.iter().enumerate() {
                        // D_Div: ∫ φ_θ · Div E (row-wise divergence)
                        for r in 0..2 {
                            let v = wq * pv[a] * bd[j];
                            tj.push(ot + r * nd + da, ok + r * nb + bj, v);
                            tj.push(ok + r * nb + bj, ot + r * nd + da, -v);
                        }
                        // A: ∫ ψ (E_12 − E_21), times the multiplier scale
                        let v0 = r_scale * wq * pv[a] * bv[j][1];
                        let v1 = -r_scale * wq * pv[a] * bv[j][0];
                        tj.push(orr + da, ok + bj, v0);
                        tj.push(ok + bj, orr + da, -v0);
                        tj.push(orr + da, ok + nb + bj, v1);
                        tj.push(ok + nb + bj, orr + da, -v1);
                    }
                }
            }
        }
        let mut E_full = te.build();
        let mut J_full = tj.build();
        // ---- boundary conditions: one per tag, edges of every tag checked to exist
        let mut edges_of: Vec<Vec<crate::mesh::triangle::BoundaryEdge>> = Vec::new();
        for (i, (tag, c)) in self.conditions.iter().enumerate() {
            if let Some((_, c0)) = self.conditions[..i].iter().find(|(t, _)| t == tag) {
                return Err(FemError::InvalidParameter {
                    name: format!("boundary tag '{tag}'"),
                    value: 0.0,
                    requirement: format!(
                        "one condition per tag (given '{}' and '{}')",
                        c0.name(),
                        c.name()
                    ),
                }
                .into());
            }
            let mut edges = m.tagged_edges(tag)?;
            edges.sort_by_key(|b| b.edge);
            edges.dedup_by_key(|b| b.edge);
            edges_of.push(edges);
        }
        let mut removed = Vec::new();
        // simple support: rotate the BDM normal-moment DOF pairs into the edge frame
        let mut rot: Vec<Option<Rotated>> = Vec::new();
        for ((_, c), edges) in self.conditions.iter().zip(&edges_of) {
            match c {
                AfwEdgeCondition::Free => {
                    for b in edges {
                        for d in sb.edge_dofs(b.edge) {
                            removed.push(ok + d);
                            removed.push(ok + nb + d);
                        }
                        removed.extend(sr.edge_dofs(b.edge).map(|d| og + d));
                    }
                }
                AfwEdgeCondition::SimplySupported => {
                    if rot.is_empty() {
                        rot = vec![None; n_full];
                    }
                    for b in edges {
                        let nn = m.outward_normal(b);
                        let ss = [-nn[1], nn[0]];
                        for d in sb.edge_dofs(b.edge) {
                            let (i0, i1) = (ok + d, ok + nb + d);
                            // old d_x = n_x d_n + s_x d_s, old d_y = n_y d_n + s_y d_s
                            rot[i0] = Some(Rotated {
                                a: i0,
                                b: i1,
                                ca: nn[0],
                                cb: ss[0],
                            });
                            rot[i1] = Some(Rotated {
                                a: i0,
                                b: i1,
                                ca: nn[1],
                                cb: ss[1],
                            });
                            removed.push(i0);
                        }
                    }
                }
                _ => {}
            }
        }
        if !rot.is_empty() {
            let mut tt = Triplets::new(n_full, n_full);
            for (i, r) in rot.iter().enumerate() {
                match r {
                    Some(r) => {
                        tt.push(i, r.a, r.ca);
                        tt.push(i, r.b, r.cb);
                    }
                    None => tt.push(i, i, 1.0),
                }
            }
            let t = tt.build();
            let tt = sparse::transpose(&t);
            E_full = sparse::matmul(&tt, &sparse::matmul(&E_full, &t));
            J_full = sparse::matmul(&tt, &sparse::matmul(&J_full, &t));
        }
        let (kept, [E, J]) = restrict_square(n_full, removed, [&E_full, &J_full]);
        let n = kept.len();
        let mut blocks: Vec<VarBlock> = AfwField::ALL
            .iter()
            .map(|f| {
                let r = offsets[f.index()]..offsets[f.index() + 1];
                let len = kept.iter().filter(|i| r.contains(i)).count();
                if *f == AfwField::RotationMultiplier {
                    VarBlock::algebraic(f.block_name(), f.meaning(), len, 2)
                } else {
                    VarBlock::differential(f.block_name(), f.meaning(), len)
                }
            })
            .collect();
        let mut pos = vec![usize::MAX; n_full];
        for (i, &g) in kept.iter().enumerate() {
            pos[g] = i;
        }
        // ---- boundary ports: B columns on states (velocity ports), multiplier couplings G
        // and B entries on the multiplier rows (traction ports)
        let (qr, qb) = (sr.element().dofs_per_edge(), sb.element().dofs_per_edge());
        let sign = |b: &crate::mesh::triangle::BoundaryEdge| {
            let [va, vb] = m.edges()[b.edge];
            let (pa, pb) = (m.vertices()[va], m.vertices()[vb]);
            let ne = [pb[1] - pa[1], -(pb[0] - pa[0])];
            let no = m.outward_normal(b);
            if ne[0] * no[0] + ne[1] * no[1] > 0.0 {
                1.0
            } else {
                -1.0
            }
        };
        // an edge of a port tag also carrying a free / simply supported tag
        let shared = |st: usize, tag: &str| -> Result<(), Fem2dError> {
            if st == usize::MAX {
                Err(FemError::InvalidParameter {
                    name: format!("boundary tag '{tag}'"),
                    value: 0.0,
                    requirement:
                        "port edges must not also belong to a free or simply supported tag".into(),
                }
                .into())
            } else {
                Ok(())
            }
        };
        // (state, column, value) of B; (state, multiplier, value) of G
        let mut bcols: Vec<(usize, usize, f64)> = Vec::new();
        let mut gcols: Vec<(usize, usize, f64)> = Vec::new();
        // multiplier -> (input column, scale)
        let mut lam_in: Vec<(usize, f64)> = Vec::new();
        let mut ports = Vec::new();
        let mut n_in = 0usize;
        for ((tag, c), edges) in self.conditions.iter().zip(&edges_of) {
            let traction = match c {
                AfwEdgeCondition::VelocityPort => false,
                AfwEdgeCondition::TractionPort => true,
                _ => continue,
            };
            // trace pair 1: shear force q_n / velocity w_t on the RT DOFs
            let mut col = n_in;
            for b in edges {
                let sg = sign(b);
                for (j, d) in sr.edge_dofs(b.edge).enumerate() {
                    shared(pos[og + d], tag)?;
                    if traction {
                        gcols.push((pos[og + d], lam_in.len(), sg * cs));
                        lam_in.push((col + j, cs));
                    } else {
                        bcols.push((pos[og + d], col + j, sg));
                    }
                }
                col += qr;
            }
            ports.push(if traction {
                Port::new(
                    format!("{tag}_qn"),
                    col - n_in,
                    "Legendre moments of the prescribed shear force q_n per edge [N]",
                    "Legendre coefficients of the boundary velocity w_t per edge [m/s]",
                )
            } else {
                Port::new(
                    format!("{tag}_wt"),
                    col - n_in,
                    "Legendre coefficients of the boundary velocity w_t per edge [m/s]",
                    "Legendre moments of the shear force q_n per edge [N]",
                )
            });
            n_in = col;
            // trace pair 2: moment vector E_kappa n / rotation rate omega on the BDM DOFs
            for b in edges {
                let sg = sign(b);
                for (j, d) in sb.edge_dofs(b.edge).enumerate() {
                    for r in 0..2 {
                        let (st, cj) = (pos[ok + r * nb + d], col + 2 * j + r);
                        shared(st, tag)?;
                        if traction {
                            gcols.push((st, lam_in.len(), sg * cb));
                            lam_in.push((cj, cb));
                        } else {
                            bcols.push((st, cj, sg));
                        }
                    }
                }
                col += 2 * qb;
            }
            ports.push(if traction {
                Port::new(
                    format!("{tag}_Mn"),
                    col - n_in,
                    "Legendre moments of the prescribed boundary moment vector (M n)_x, (M n)_y per edge [N m]",
                    "Legendre coefficients of the boundary rotation rates (omega_x, omega_y) per edge [rad/s]",
                )
            } else {
                Port::new(
                    format!("{tag}_omega"),
                    col - n_in,
                    "Legendre coefficients of the boundary rotation rates (omega_x, omega_y) per edge [rad/s]",
                    "Legendre moments of the boundary moment vector E_kappa n per edge [N m]",
                )
            });
            n_in = col;
        }
        let n_ports_in = n_in;
        let n_lam = lam_in.len();
        let n_tot = n + n_lam;
        // extended pencil: E ⊕ 0, J with ±G (G scaled by the compliance of its block)
        let (E, J) = if n_lam == 0 {
            (E, J)
        } else {
            let mut te = Triplets::new(n_tot, n_tot);
            te.push_block(0, 0, &E, 1.0);
            let mut tj = Triplets::new(n_tot, n_tot);
            tj.push_block(0, 0, &J, 1.0);
            for &(st, l, v) in &gcols {
                tj.push(st, n + l, v);
                tj.push(n + l, st, -v);
            }
            blocks.push(VarBlock::algebraic(
                "lambda",
                "scaled velocity traces of the traction ports: w_t / C_s (shear rows) and omega_c / C_b (moment rows), C_s = 1/(K_sh G b), C_b = 12/(E b^3) (port outputs = the traces)",
                n_lam,
                2,
            ));
            (te.build(), tj.build())
        };
        // load ports
        let mut tb = Triplets::new(n_tot, n_ports_in + self.loads.len());
        for (r, c, v) in bcols {
            tb.push(r, c, v);
        }
        for (l, &(c, v)) in lam_in.iter().enumerate() {
            tb.push(n + l, c, v);
        }
        if !self.loads.is_empty() {
            let ql = TriangleQuadrature::exact_for_degree(k - 1 + LOAD_EXTRA_DEGREE)?;
            for (
                c,
                NamedProfile {
                    name,
                    profile: prof,
                },
            ) in self.loads.iter().enumerate()
            {
                let c = n_ports_in + c;
                let mut col = vec![0.0; n_full];
                for t in 0..m.n_cells() {
                    let g = CellGeometry::new(m, t);
                    let dd = sd.cell_dofs(t);
                    for (xh, &w) in ql.points.iter().zip(&ql.weights) {
                        sd.element().eval(*xh, &mut pv, &mut px, &mut py);
                        let (f, tau) = prof(g.map(*xh));
                        let wq = w * g.det;
                        for (a, &da) in dd.iter().enumerate() {
                            col[ow + da] += wq * f * pv[a];
                            col[ot + da] += wq * tau[0] * pv[a];
                            col[ot + nd + da] += wq * tau[1] * pv[a];
                        }
                    }
                }
                for (gi, v) in col.iter().enumerate() {
                    if *v != 0.0 && pos[gi] != usize::MAX {
                        tb.push(pos[gi], c, *v);
                    }
                }
                ports.push(Port::new(
                    name.clone(),
                    1,
                    "amplitude of the distributed force/torque profile [-]",
                    "power per unit amplitude: integral of f e_w + tau . e_theta [W]",
                ));
            }
        }
        let system = lossless_system(E, J, tb.build(), ports, blocks)?;
        Ok(MindlinAfwModel {
            params: *p,
            degree: k,
            system,
            sd,
            sb,
            sr,
            offsets,
            kept,
            rot,
        })
    }
}

/// A $BDM_k$ normal-moment DOF of a simply supported edge in the edge frame: the open
/// (Cartesian) DOF equals `ca * x[a] + cb * x[b]`, with `a` the normal ($M_{nn}$, removed)
/// and `b` the tangential ($M_{ns}$) rotated DOF ([`MindlinAfw::simply_supported`]).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rotated {
    a: usize,
    b: usize,
    ca: f64,
    cb: f64,
}

/// Scale $c$ of the multiplier block: the state holds $\tilde\rho = \rho / c$ with
/// $c = 12/(Eb^3)$ (the bending compliance scale), i.e. $\tilde\rho = \frac{Eb^3}{12}\rho$ is
/// a moment rate \[N m/(m s)\]. Scaling the coupling $A$ by $c$ keeps $J$ skew and balances
/// the midpoint matrix: unscaled, its multiplier Schur complement
/// $(\Delta t/2)^2 A M_{\mathcal C_b}^{-1}A^\top \sim (\Delta t/2)^2 Eb^3/12$ is many orders of
/// magnitude below the other pivots and sparse LU declares it numerically singular (measured
/// for $E = 1$, $b = 0.1$, $k = 1$ on $8\times8$).
pub fn multiplier_scale(p: &MindlinParams) -> f64 {
    12.0 / (p.E * p.h.powi(3))
}

/// An assembled AFW Mindlin plate: the pHDAE and the spaces.
#[derive(Debug, Clone)]
pub struct MindlinAfwModel {
    params: MindlinParams,
    degree: usize,
    system: LinearPhSystem,
    sd: Space2d,
    sb: HdivSpace,
    sr: HdivSpace,
    /// Block offsets in the open (unreduced) state.
    offsets: [usize; 6],
    /// Open-state indices of the kept (non-removed) DOFs, increasing.
    kept: Vec<usize>,
    /// Edge-frame rotation of the open BDM DOFs of simply supported edges, indexed by open
    /// DOF (empty: none).
    rot: Vec<Option<Rotated>>,
}

impl MindlinAfwModel {
    /// The port-Hamiltonian DAE $E\dot e = Je + Bu$.
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// Material parameters.
    pub fn params(&self) -> &MindlinParams {
        &self.params
    }
    /// Degree $k$.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// Number of states (including the multiplier block).
    pub fn n_states(&self) -> usize {
        self.system.n_states()
    }
    /// The $DG_{k-1}$ space of `e_w`, of each `e_theta` component and of `r`.
    pub fn dg_space(&self) -> &Space2d {
        &self.sd
    }
    /// The $BDM_k$ space of each `E_kappa` row.
    pub fn bdm_space(&self) -> &HdivSpace {
        &self.sb
    }
    /// The $RT_k$ space of `e_gamma`.
    pub fn rt_space(&self) -> &HdivSpace {
        &self.sr
    }

    /// The system in equilibrated variables $e = D\tilde e$, $D$ diagonal:
    /// $\tilde E = DED$, $\tilde J = DJD$ (still skew), $\tilde B = DB$ (same outputs and
    /// Hamiltonian), with $D_{ii} = E_{ii}^{-1/2}$ for differential states (unit mass
    /// diagonal) and, for each multiplier, $D_{ii} = 1/\max_j|(\tilde J)_{ij}|$ (unit
    /// largest coupling). Returns $(\tilde\Sigma, \operatorname{diag}D)$.
    ///
    /// Why: the mass scales of the blocks span many decades ($I_\theta = \rho b^3/12$ against
    /// $\mathcal C_b = 12/(Eb^3)$: $10^{-4}$ to $10^{4}$ for the thesis data) and the
    /// saddle-point midpoint matrix $E - \frac{\Delta t}2J$ of the unscaled system fails
    /// `SparseLu`'s probe check on fine meshes (measured: $k = 2$, $32\times32$; $k = 3$,
    /// $16\times16$), exactly the direct-solver failure the thesis reports for $k = 3$
    /// (summary §3.3). Integrate $\tilde\Sigma$ and map states back with $e = D\tilde e$.
    pub fn equilibrated_system(&self) -> Result<(LinearPhSystem, Vec<f64>), Fem2dError> {
        let sys = &self.system;
        let n = sys.n_states();
        let mut d = vec![0.0; n];
        let mut diag = vec![0.0; n];
        for (j, dj) in diag.iter_mut().enumerate() {
            for (i, v) in sparse::col_iter(&sys.E, j) {
                if i == j {
                    *dj = v;
                }
            }
        }
        for j in 0..n {
            if diag[j] > 0.0 {
                d[j] = 1.0 / diag[j].sqrt();
            }
        }
        // multipliers: unit largest coupling after the differential scaling
        for j in 0..n {
            if diag[j] == 0.0 {
                let mut m = 0.0f64;
                for (i, v) in sparse::col_iter(&sys.J, j) {
                    m = m.max((d[i] * v).abs());
                }
                d[j] = if m > 0.0 { 1.0 / m } else { 1.0 };
            }
        }
        let scale = |a: &SparseMat, left: bool, right: bool| {
            let mut t = Triplets::new(a.nrows(), a.ncols());
            for j in 0..a.ncols() {
                for (i, v) in sparse::col_iter(a, j) {
                    let l = if left { d[i] } else { 1.0 };
                    let r = if right { d[j] } else { 1.0 };
                    t.push(i, j, l * v * r);
                }
            }
            t.build()
        };
        let scaled = LinearPhSystem::new(
            scale(&sys.E, true, true),
            scale(&sys.J, true, true),
            scale(&sys.R, true, true),
            scale(&sys.B, true, false),
            sys.ports.clone(),
            sys.blocks.clone(),
        )?;
        Ok((scaled, d))
    }

    /// Position in the state vector of each open-state index (`None` if removed).
    fn state_positions(&self) -> Vec<Option<usize>> {
        let mut pos = vec![None; self.offsets[5]];
        for (i, &g) in self.kept.iter().enumerate() {
            pos[g] = Some(i);
        }
        pos
    }

    /// Initial state with `e_w` and `e_theta` the nodal interpolants (at the $DG_{k-1}$
    /// Lagrange nodes, the centroid for $k = 1$; Firedrake's `interpolate`) of `w` and
    /// `theta`, and zero moments, shear forces and multiplier.
    pub fn interpolate_state(
        &self,
        w: &dyn Fn([f64; 2]) -> f64,
        theta: &dyn Fn([f64; 2]) -> [f64; 2],
    ) -> Vec<f64> {
        let open = self.dg_open_state(w, theta);
        self.reduce(&open)
    }

    /// Open (unreduced) state with the $DG_{k-1}$ interpolants of `w`, `theta`, rest zero.
    fn dg_open_state(
        &self,
        w: &dyn Fn([f64; 2]) -> f64,
        theta: &dyn Fn([f64; 2]) -> [f64; 2],
    ) -> Vec<f64> {
        let nd = self.sd.n_dofs();
        let o = self.offsets;
        let cw = self.sd.interpolate(&|x, out| out[0] = w(x));
        let cx = self.sd.interpolate(&|x, out| out[0] = theta(x)[0]);
        let cy = self.sd.interpolate(&|x, out| out[0] = theta(x)[1]);
        let mut open = vec![0.0; o[5]];
        open[..nd].copy_from_slice(&cw);
        open[o[1]..o[1] + nd].copy_from_slice(&cx);
        open[o[1] + nd..o[2]].copy_from_slice(&cy);
        open
    }

    /// State from all four fields: nodal $DG_{k-1}$ interpolants of `w`, `theta`, canonical
    /// $BDM_k$ interpolants of the rows of `moments` (row-major $2\times2$) and $RT_k$
    /// interpolant of `shear` (zero if `None`); multiplier zero. DOFs removed by free edges
    /// are dropped.
    pub fn interpolate_fields(
        &self,
        w: &dyn Fn([f64; 2]) -> f64,
        theta: &dyn Fn([f64; 2]) -> [f64; 2],
        moments: Option<&dyn Fn([f64; 2]) -> [f64; 4]>,
        shear: Option<&dyn Fn([f64; 2]) -> [f64; 2]>,
    ) -> Result<Vec<f64>, Fem2dError> {
        let nb = self.sb.n_dofs();
        let o = self.offsets;
        let mut open = self.dg_open_state(w, theta);
        if let Some(mf) = moments {
            for r in 0..2 {
                let c = self.sb.interpolate(&|x| {
                    let m = mf(x);
                    [m[2 * r], m[2 * r + 1]]
                })?;
                open[o[2] + r * nb..o[2] + (r + 1) * nb].copy_from_slice(&c);
            }
        }
        if let Some(q) = shear {
            let c = self.sr.interpolate(q)?;
            open[o[3]..o[4]].copy_from_slice(&c);
        }
        Ok(self.reduce(&open))
    }

    /// State of an open (unreduced, Cartesian) vector: edge-frame rotation of simply
    /// supported edges ($\tilde d = T^\top d$, $T$ orthogonal), removed DOFs dropped,
    /// traction multipliers zero.
    fn reduce(&self, open: &[f64]) -> Vec<f64> {
        let rotated;
        let v = if self.rot.is_empty() {
            open
        } else {
            let mut r = vec![0.0; open.len()];
            for (i, &x) in open.iter().enumerate() {
                match self.rot[i] {
                    Some(t) => {
                        r[t.a] += t.ca * x;
                        r[t.b] += t.cb * x;
                    }
                    None => r[i] += x,
                }
            }
            rotated = r;
            &rotated
        };
        let mut e: Vec<f64> = self.kept.iter().map(|&g| v[g]).collect();
        e.resize(self.n_states(), 0.0);
        e
    }

    /// A sampler of `field` at the points of a degree-`quad_degree` rule on every cell, for
    /// $L^2$ norms of errors (module [`FieldSampler`]).
    pub fn sampler(&self, field: AfwField, quad_degree: usize) -> Result<FieldSampler, Fem2dError> {
        let m = self.sd.mesh();
        let q = TriangleQuadrature::exact_for_degree(quad_degree)?;
        let nq = q.len();
        let nc = field.n_comp();
        let pos = self.state_positions();
        let n_rows = m.n_cells() * nq * nc;
        let mut t3 = Triplets::new(n_rows, self.n_states());
        let mut weights = Vec::with_capacity(n_rows);
        let mut points = Vec::with_capacity(m.n_cells() * nq);
        let (nd, nb) = (self.sd.n_dofs(), self.sb.n_dofs());
        let o = self.offsets;
        let rot = &self.rot;
        let mut push = |row: usize, open: usize, v: f64| {
            let mut put = |i: usize, v: f64| {
                if let Some(c) = pos[i] {
                    if v != 0.0 {
                        t3.push(row, c, v);
                    }
                }
            };
            match rot.get(open).copied().flatten() {
                Some(r) => {
                    put(r.a, r.ca * v);
                    put(r.b, r.cb * v);
                }
                None => put(open, v),
            }
        };
        let nld = self.sd.n_local();
        let (mut pv, mut px, mut py) = (vec![0.0; nld], vec![0.0; nld], vec![0.0; nld]);
        // H(div) space of the field (tabulated even for DG fields: a few hundred values)
        let hspace = if field == AfwField::Moments {
            &self.sb
        } else {
            &self.sr
        };
        let (hrv, hrd) = hspace.element().tabulate(&q.points);
        for t in 0..m.n_cells() {
            let g = CellGeometry::new(m, t);
            for (iq, (xh, &w)) in q.points.iter().zip(&q.weights).enumerate() {
                let row0 = (t * nq + iq) * nc;
                let wq = w * g.det;
                points.push(g.map(*xh));
                match field {
                    AfwField::Velocity | AfwField::RotationRate | AfwField::RotationMultiplier => {
                        self.sd.element().eval(*xh, &mut pv, &mut px, &mut py);
                        let base = match field {
                            AfwField::Velocity => o[0],
                            AfwField::RotationRate => o[1],
                            _ => o[4],
                        };
                        let sc = if field == AfwField::RotationMultiplier {
                            multiplier_scale(&self.params)
                        } else {
                            1.0
                        };
                        for (a, &da) in self.sd.cell_dofs(t).iter().enumerate() {
                            for c in 0..nc {
                                push(row0 + c, base + c * nd + da, sc * pv[a]);
                            }
                        }
                        // Frobenius norm of ρ [[0,1],[−1,0]] is √2 |ρ|
                        let cw = if field == AfwField::RotationMultiplier {
                            2.0
                        } else {
                            1.0
                        };
                        weights.extend(std::iter::repeat_n(cw * wq, nc));
                    }
                    AfwField::Moments | AfwField::ShearForces => {
                        let (s, rv, rd) = (hspace, &hrv, &hrd);
                        let nl = s.n_local();
                        let (mut v, mut d) = (vec![[0.0; 2]; nl], vec![0.0; nl]);
                        s.map_basis(
                            t,
                            &g,
                            &rv[iq * nl..(iq + 1) * nl],
                            &rd[iq * nl..(iq + 1) * nl],
                            &mut v,
                            &mut d,
                        );
                        let rows = if field == AfwField::Moments { 2 } else { 1 };
                        let base = if field == AfwField::Moments {
                            o[2]
                        } else {
                            o[3]
                        };
                        for (i, &gi) in s.cell_dofs(t).iter().enumerate() {
                            for r in 0..rows {
                                for (c, &vc) in v[i].iter().enumerate() {
                                    push(row0 + 2 * r + c, base + r * nb + gi, vc);
                                }
                            }
                        }
                        weights.extend(std::iter::repeat_n(wq, nc));
                    }
                }
            }
        }
        Ok(FieldSampler {
            P: t3.build(),
            weights,
            points,
            n_comp: nc,
        })
    }
}

/// Point values of one field at the quadrature points of every cell, as a sparse map from
/// the state: `values = P e`, with quadrature weights (times the Frobenius weight of the
/// component), so that $\|u_h - u\|_{L^2}^2 \approx \sum_r w_r (P e - u)_r^2$.
#[derive(Debug, Clone)]
pub struct FieldSampler {
    /// Rows: (point, component), point-major; columns: states.
    pub P: SparseMat,
    /// Weight of each row.
    pub weights: Vec<f64>,
    /// Physical quadrature points (one per `n_comp` rows).
    pub points: Vec<[f64; 2]>,
    /// Components per point (1, 2 or 4 = tensor row-major).
    pub n_comp: usize,
}

impl FieldSampler {
    /// Samples an exact field (writing `n_comp` components) at the quadrature points.
    pub fn sample(&self, f: &dyn Fn([f64; 2], &mut [f64])) -> Vec<f64> {
        let mut out = vec![0.0; self.points.len() * self.n_comp];
        for (i, x) in self.points.iter().enumerate() {
            f(*x, &mut out[i * self.n_comp..(i + 1) * self.n_comp]);
        }
        out
    }

    /// $\big(\sum_r w_r ((Pe)_r - s\,u_r)^2\big)^{1/2}$: the $L^2$ distance between the field
    /// of state `e` and `scale` times the sampled exact field `exact`; `work` has
    /// `P.nrows()` entries.
    pub fn distance(&self, e: &[f64], exact: &[f64], scale: f64, work: &mut [f64]) -> f64 {
        work.iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(work, 1.0, &self.P, e);
        work.iter()
            .zip(exact)
            .zip(&self.weights)
            .map(|((a, b), w)| w * (a - scale * b).powi(2))
            .sum::<f64>()
            .sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::triangle::Diagonal;

    /// The Table 7.2 material ([`thesis_params`](crate::models::plate::mindlin::benchmarks::thesis_params)).
    fn params() -> MindlinParams {
        crate::models::plate::mindlin::benchmarks::thesis_params()
    }

    /// J skew to round-off, E symmetric PSD (phlex_core structure checks), block sizes.
    #[test]
    fn structure() {
        let mesh = Mesh2d::unit_square(3, Diagonal::Left).unwrap();
        for k in 1..=3 {
            for free in [false, true] {
                let b = MindlinAfw::new(params(), &mesh, k).unwrap();
                let b = if free { b.free("right") } else { b };
                let m = b.build().unwrap();
                m.system().check(&Default::default()).unwrap();
                let nd = m.dg_space().n_dofs();
                assert_eq!(nd, mesh.n_cells() * k * (k + 1) / 2);
                let lens: Vec<usize> = m.system().blocks.iter().map(|b| b.len).collect();
                assert_eq!(lens[0], nd);
                assert_eq!(lens[4], nd);
                if !free {
                    assert_eq!(lens[2], 2 * m.bdm_space().n_dofs());
                    assert_eq!(lens[3], m.rt_space().n_dofs());
                }
            }
        }
        assert!(MindlinAfw::new(params(), &mesh, 4).is_err());
        let bad = MindlinAfw::new(params(), &mesh, 1).unwrap().free("nowhere");
        assert!(bad.build().is_err());
        let twice = MindlinAfw::new(params(), &mesh, 1)
            .unwrap()
            .free("left")
            .traction_port("left");
        assert!(twice.build().is_err());
    }

    /// Every condition on one mesh (one per side): J skew, E symmetric PSD, the traction
    /// multipliers appended as an algebraic block `lambda` of one entry per input, and the
    /// port sizes (k per edge for the shear pair, 2(k+1) for the moment pair).
    #[test]
    fn structure_all_conditions() {
        let mesh = Mesh2d::unit_square(3, Diagonal::Right).unwrap();
        for k in 1..=3 {
            let m = MindlinAfw::new(params(), &mesh, k)
                .unwrap()
                .simply_supported("left")
                .free("bottom")
                .traction_port("right")
                .port("top")
                .build()
                .unwrap();
            let sys = m.system();
            sys.check(&Default::default()).unwrap();
            let lam = sys.block_range("lambda").unwrap();
            assert_eq!(lam.len(), 3 * k + 3 * 2 * (k + 1));
            assert_eq!(lam.end, sys.n_states());
            for (name, len) in [
                ("right_qn", 3 * k),
                ("right_Mn", 6 * (k + 1)),
                ("top_wt", 3 * k),
                ("top_omega", 6 * (k + 1)),
            ] {
                assert_eq!(sys.ports.get(name).unwrap().dim, len, "{name}");
            }
            // simple support removes one DOF per Legendre moment and edge
            let nb = m.bdm_space().n_dofs();
            let kappa = sys.block_range("E_kappa").unwrap();
            assert_eq!(kappa.len(), 2 * nb - 3 * (k + 1) - 3 * 2 * (k + 1));
        }
    }
}
