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
//! [`crate::space::tet`]): the same weak form and matrices with $(CG_k)^3$ velocities,
//! $(DG_{k-1})^{3\times3}_{\mathrm{sym}}$ stresses (components $xx, yy, zz, yz, xz, xy$),
//! $k = 1, 2$, and $\mathcal C\Sigma = \frac{1+\nu}{E}\Sigma - \frac{\nu}{E}
//! \operatorname{tr}(\Sigma)I$; clamped / single-component supports on tagged faces and
//! traction ports in the $P_1$ trace basis of the tagged faces.
use crate::error::{require_degree, require_poisson, require_positive, Fem2dError, FemError};
use crate::mesh::tet::Mesh3d;
use crate::mesh::triangle::Mesh2d;
use crate::models::continuum::dimension::{elastic_blocks, ContinuumSpace};
use crate::models::continuum::supports::{assemble_ports, Boundaries, Supports, TraceMasses};
use crate::models::model::{lossless_system, BlockAssembler};
use crate::models::restriction::Restriction;
use crate::space::tet::Space3d;
use crate::space::triangle::Space2d;
use phlex_core::sparse::SparseMat;
use phlex_core::{LinearPhSystem, VarBlock};

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
        require_poisson(self.nu)?;
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

/// Builder of the CG×DG elasticity model (module docs) on the spaces `S` of one dimension:
/// [`Elasticity2d`] and [`Elasticity3d`].
#[derive(Debug, Clone)]
pub struct Elasticity<S: ContinuumSpace> {
    params: ElasticParams,
    reduction: S::Reduction,
    mesh: S::Mesh,
    degree: usize,
    bd: Boundaries,
}

/// Builder of the 2D CG×DG elasticity model (module docs).
pub type Elasticity2d = Elasticity<Space2d>;

/// Builder of the 3D CG×DG elasticity model on a tetrahedral mesh: $(CG_k)^3$ velocities
/// and $(DG_{k-1})^{3\times3}_{\mathrm{sym}}$ stresses, $k = 1, 2$ (same weak form and
/// matrices as the 2D model, thesis (9.31)–(9.34)). Boundary faces are free (zero
/// traction) unless clamped ([`Supports::clamped`]) or supported in one component
/// ([`Supports::fixed`]), both strong, or traction ports ([`Supports::port`]).
pub type Elasticity3d = Elasticity<Space3d>;

impl<S: ContinuumSpace> Supports for Elasticity<S> {
    fn boundaries_mut(&mut self) -> &mut Boundaries {
        &mut self.bd
    }
}

impl Elasticity<Space2d> {
    /// $(CG_k)^2$ velocities and $(DG_{k-1})_{\mathrm{sym}}$ stresses, `1 <= k <= 3`; all
    /// edges free until [`Supports::clamped`], [`Supports::fixed`] or [`Supports::port`]
    /// is called.
    pub fn new(
        params: ElasticParams,
        plane: PlaneModel,
        mesh: &Mesh2d,
        degree: usize,
    ) -> Result<Self, Fem2dError> {
        Self::with_reduction(params, plane, mesh, degree, "CG x DG elasticity degree k")
    }

    /// Clamps every tag of the mesh.
    pub fn clamp_all(mut self) -> Self {
        self.bd.clamped = self.mesh.tag_names();
        self
    }
}

impl Elasticity<Space3d> {
    /// Degree `k` in `1..=2`.
    pub fn new(params: ElasticParams, mesh: &Mesh3d, degree: usize) -> Result<Self, Fem2dError> {
        Self::with_reduction(params, (), mesh, degree, "3D CG x DG elasticity degree k")
    }
}

impl<S: ContinuumSpace> Elasticity<S> {
    /// The builder with all boundaries free; `what` names the degree in the error.
    fn with_reduction(
        params: ElasticParams,
        reduction: S::Reduction,
        mesh: &S::Mesh,
        degree: usize,
        what: &str,
    ) -> Result<Self, Fem2dError> {
        params.validate()?;
        require_degree(what, degree, 1..=S::MAX_DEGREE)?;
        Ok(Self {
            params,
            reduction,
            mesh: mesh.clone(),
            degree,
            bd: Boundaries::default(),
        })
    }

    /// Assembles the model: $E = \operatorname{diag}(M_\rho, M_{\mathcal C})$,
    /// $J = \begin{bmatrix}0&-D_{\mathrm{Grad}}^\top\\D_{\mathrm{Grad}}&0\end{bmatrix}$,
    /// $B = [B_v; 0]$, blocks `e_v`, `E_sigma` (thesis (9.33)).
    pub fn build(&self) -> Result<ElasticityModel<S>, Fem2dError> {
        let p = &self.params;
        let k = self.degree;
        self.bd.validate(S::DIM)?;
        let sv = S::cg_vector(&self.mesh, k)?;
        let ss = S::dg_sym_tensor(&self.mesh, k - 1)?;
        let sizes = [sv.n_dofs(), ss.n_dofs()];
        let mut ba = BlockAssembler::new(&sizes);
        elastic_blocks(&mut ba, &sv, &ss, p, self.reduction)?;
        let n_full = ba.n();
        // strong supports: remove velocity DOFs
        let dofs = Restriction::new(&sizes, self.bd.supported_dofs(&sv)?);
        let (n, n_v) = (dofs.len(), dofs.kept_in(0));
        let thickness = if S::DIM == 2 {
            ", per unit thickness"
        } else {
            ""
        };
        let blocks = vec![
            VarBlock::differential(
                "e_v",
                format!("velocity {} [m/s]", S::VELOCITY_COMPONENTS),
                n_v,
            ),
            VarBlock::differential(
                "E_sigma",
                format!("stress {} [N/m^2] (DG{thickness})", S::STRESS_COMPONENTS),
                n - n_v,
            ),
        ];
        let traces = |tag: &str, _: bool| sv.traces(tag, n_full, 0);
        let traction =
            |tag: &str, c: &str| format!("applied traction tau_{c} [N/m^2] on '{tag}' (P1 trace)");
        let (ports, B, trace_masses) = assemble_ports(&self.bd, &dofs, &traces, S::DIM, &traction)?;
        let system = lossless_system(
            dofs.restrict(&ba.E.build()),
            dofs.restrict(&ba.J.build()),
            B,
            ports,
            blocks,
        )?;
        Ok(ElasticityModel {
            params: *p,
            reduction: self.reduction,
            degree: k,
            system,
            spaces: [sv, ss],
            dofs,
            trace_masses,
        })
    }
}

/// An assembled CG×DG elasticity model on the spaces `S` ([`ElasticityModel2d`],
/// [`ElasticityModel3d`]).
#[derive(Debug, Clone)]
pub struct ElasticityModel<S: ContinuumSpace> {
    params: ElasticParams,
    reduction: S::Reduction,
    degree: usize,
    system: LinearPhSystem,
    spaces: [S; 2],
    /// Blocks of the open state and the DOFs kept by the strong supports.
    dofs: Restriction,
    /// Trace mass matrix of each port.
    trace_masses: TraceMasses,
}

/// An assembled 2D CG×DG elasticity model.
pub type ElasticityModel2d = ElasticityModel<Space2d>;

/// An assembled 3D CG×DG elasticity model.
pub type ElasticityModel3d = ElasticityModel<Space3d>;

impl<S: ContinuumSpace> ElasticityModel<S> {
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
    /// Degree $k$.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// Finite element space of a field (all DOFs, before the strong supports).
    pub fn space(&self, f: ElasticField) -> &S {
        &self.spaces[f.index()]
    }
    /// Number of state variables (after the strong supports).
    pub fn n_states(&self) -> usize {
        self.dofs.len()
    }
    /// Open-state index (DOF of `space(Velocity)` then `n_dofs` + DOF of `space(Stress)`)
    /// of every retained state variable.
    pub fn kept_dofs(&self) -> &[usize] {
        self.dofs.kept()
    }
    /// Trace mass matrix $M_\Gamma^{lm} = \int_\Gamma\psi^l\psi^m$ of the $P_1$ ($CG_1$)
    /// trace basis of the traction port `port` (the basis of its input; the output is
    /// $M_\Gamma$ times the trace coefficients when the velocity is piecewise linear on
    /// $\Gamma$).
    pub fn port_trace_mass(&self, port: &str) -> Result<&SparseMat, Fem2dError> {
        self.trace_masses.get(&self.system, port)
    }
    /// Coefficients of field `f` (all DOFs of its space, removed ones zero) from a state.
    pub fn field_coefficients(&self, e: &[f64], f: ElasticField) -> Result<Vec<f64>, Fem2dError> {
        let what = match S::DIM {
            2 => "elasticity state".to_string(),
            d => format!("{d}D elasticity state"),
        };
        self.dofs.field(e, self.n_states(), f.index(), &what)
    }
    /// State vector from the coefficient vectors of the velocity and the stress (DOFs
    /// removed by the strong supports are dropped).
    pub fn state_from_fields(&self, v: &[f64], sigma: &[f64]) -> Result<Vec<f64>, Fem2dError> {
        let names = ElasticField::ALL.map(|f| f.block_name());
        self.dofs.state(
            &[(names[0], Some(v)), (names[1], Some(sigma))],
            self.n_states(),
        )
    }
    /// Coefficients of the nodal interpolants of the velocity `v` and of the stress
    /// `sigma` (`None` = 0).
    fn interpolate_fields<const NS: usize>(
        &self,
        v: &dyn Fn(S::Point) -> S::Point,
        sigma: Option<&dyn Fn(S::Point) -> [f64; NS]>,
    ) -> (Vec<f64>, Vec<f64>) {
        let vc = self.spaces[0].interpolate_at(&|x, o| o.copy_from_slice(v(x).as_ref()));
        let sc = match sigma {
            Some(f) => self.spaces[1].interpolate_at(&|x, o| o.copy_from_slice(&f(x))),
            None => vec![0.0; self.spaces[1].n_dofs()],
        };
        (vc, sc)
    }
}

impl ElasticityModel<Space2d> {
    /// Plane strain or plane stress.
    pub fn plane(&self) -> PlaneModel {
        self.reduction
    }
    /// State from functions: nodal interpolants of the velocity `v` (components $x, y$) and
    /// of the stress `sigma` (components $xx, xy, yy$; `None` = 0).
    pub fn interpolate_state(
        &self,
        v: &dyn Fn([f64; 2]) -> [f64; 2],
        sigma: Option<&dyn Fn([f64; 2]) -> [f64; 3]>,
    ) -> Result<Vec<f64>, Fem2dError> {
        let (vc, sc) = self.interpolate_fields(v, sigma);
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

impl ElasticityModel<Space3d> {
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
        let (vc, sc) = self.interpolate_fields(v, sigma);
        self.dofs.gather(&[Some(&vc), Some(&sc)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::tet::Mesh3d;
    use crate::mesh::triangle::Diagonal;
    use phlex_core::sparse;

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
