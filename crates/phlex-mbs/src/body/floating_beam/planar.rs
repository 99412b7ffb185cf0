//! Planar floating flexible beam (paper 000 §4.3, eqs. (36)–(41); thesis 004 §9.3.3),
//! discretized by PFEM: axial velocity CG1 × normal force DG0, transverse velocity cubic
//! Hermite × bending moment DG1 (the elements of paper §6).
//!
//! | parameter | symbol | unit | requirement |
//! |---|---|---|---|
//! | `length` | $L$ | m | $> 0$ |
//! | `rho_a` | $\rho A$ | kg/m | $> 0$ |
//! | `ea` | $EA$ | N | $> 0$ |
//! | `ei` | $EI$ | N m² | $> 0$ |
//! | `n_elements` | elements | – | $\ge 1$ |
//! | `bc` | deformation boundary condition (Remark 8) | – | cantilever or simply supported |
//! | `geometric_stiffening` | von Kármán axial strain (Remark 3) | – | default `false` |
//! | `full_inertia` | deformation-dependent mass operator $M(u_f)$ | – | default `false` |
//!
//! The reference point $P$ is the end $x = 0$ of the beam axis, $C$ the end $x = L$; the body
//! frame $x$ axis runs along the undeformed beam. State per [`crate::body::planar::floating_body`]:
//! $q = ({}^ir_P, \theta, u_x, u_y)$, $p = (v_P, \omega, v_f^x, v_f^y, n_x, m_x)$ with
//! $u_x, v_f^x \in$ CG1 and $u_y, v_f^y \in$ Hermite (value and slope DOFs) after removing the
//! DOFs of the deformation condition:
//!
//! * **cantilever**: $u_f^x(0) = u_f^y(0) = \partial_x u_f^y(0) = 0$;
//! * **simply supported**: $u_f^x(0) = u_f^y(0) = 0$, $u_f^y(L) = 0$.
//!
//! Without a condition the elastic field contains the rigid motion and the mass operator is
//! singular: [`DeformationBc::Free`] is rejected with [`MbsError::MissingDeformationBc`].
//!
//! Matrices (all exact Gauss quadrature):
//! * mass operator (37), from Gauss mass points $\rho A\,w_q h$ (see
//!   [`crate::body::planar::floating_body`]), coupling integrals $\mathcal I^L_\rho$, $\mathcal I^L_{\rho x}$
//!   included (erratum: entry (3,5) is $\mathcal I^L_{\rho x}$), compliance blocks
//!   $\int (EA)^{-1}\chi\chi$, $\int (EI)^{-1}\eta\eta$;
//! * $D = \operatorname{diag}\big(\int \chi\,\partial_x\phi,\ \int \eta\,\partial_{xx}\psi\big)$:
//!   $J[v_f, \sigma] = -D^\top$, $J[\sigma, v_f] = D$ — the operators $\partial_x$ and
//!   $-\partial_{xx}$ of eq. (38) integrated by parts once and twice, so the end forces are
//!   inputs;
//! * ports `"P"` and `"C"` (and any extra material point) with the columns $[I_3,
//!   \tau_{CP}^\top]$ of $B_r$ and $(\phi_{v_f^x}(L), \phi_{v_f^y}(L), \partial_x\phi_{v_f^y}(L))$ of
//!   $B_f$, eqs. (39)–(40).
//!
//! **Geometric stiffening** ([`FloatingBeam2d::geometric_stiffening`], Remark 3; details in
//! [`crate::body::planar::stiffening`]). The axial strain becomes $\varepsilon = \partial_x u_f^x +
//! \frac12(\partial_x u_f^y)^2$; in the stress formulation this is
//! $$\tfrac1{EA}\dot n_x = \partial_x v_f^x + \partial_x u_f^y\,\partial_x v_f^y,$$
//! i.e. $J[\sigma_n, v_f^y] = D_{nl}(u_f)$, $J[v_f^y, \sigma_n] = -D_{nl}(u_f)^\top$ with
//! $D_{nl}(u_f)_{ij} = \int\chi_i\,\partial_x u_{f,h}^y\,\partial_x\phi_j\,\mathrm dx$. $J$ stays
//! skew at every state (exact energy balance), $H$ is unchanged (the normal force now stores
//! $\frac12 EA\,\varepsilon^2$ with the nonlinear strain), and the transverse equations get
//! the geometric stiffness $-K_G(n_x)\,u_f^y$: centrifugal stiffening of a spinning beam,
//! softening of a compressed one. Off by default (the linear model of §4.3).
//!
//! **Full inertia** ([`FloatingBeam2d::full_inertia`]; model files: `inertia = "full"`).
//! The mass operator (37) transports every material point at its undeformed position
//! $\omega\hat z\times x$; with full inertia the Gauss mass points move with the deformed
//! position $x + u_f$, $M = M(u_f)$, and the equations are written in momentum form
//! (eqs. (F1)–(F5) of [`crate::body::planar::full_inertia`]). This adds the centrifugal
//! softening $\rho A\,\Omega^2 u_f^y$: without stiffening the Simo–Vu-Quoc spin-up
//! diverges once $\Omega$ exceeds the first bending frequency, with stiffening the
//! in-plane frequency of a spinning cantilever is $\sqrt{\omega_1^2 + (1.193 - 1)\Omega^2}$
//! (`tests/full_inertia.rs`).
//!
//! ```
//! use phlex_mbs::{FloatingBeam2d, DeformationBc};
//! use phlex_mbs::body::FloatingBody;
//! let beam = FloatingBeam2d::new(1.0, 2.0, 1e6, 10.0, 4).bc(DeformationBc::Cantilever);
//! let body = beam.build("arm")?;
//! // 4 elements: u_x has 4 free CG1 DOFs, u_y 8 free Hermite DOFs
//! assert_eq!(body.n_elastic(), 12);
//! assert!((body.mass() - 2.0).abs() < 1e-12);
//! # Ok::<(), phlex_mbs::MbsError>(())
//! ```
use phlex_core::{sparse, Triplets};
use phlex_fem::assembly::line::{self as assembly, Coefficient};
use phlex_fem::Mesh1d;

use super::spaces::{check_discretisation, port_positions, BeamSpaces};

use crate::body::lumped::LumpedMass;
use crate::body::planar::floating_body::{
    Flexible, Gyroscopic, MassPoint, PlanarBody, PlanarPort, PointShape,
};
use crate::body::planar::pose::{Pose2d, Twist2d};
use crate::body::planar::stiffening::VonKarman;
use crate::error::{require_finite, require_positive, unknown_port, MbsError};

/// Deformation boundary condition of a floating flexible body (paper 000 Remark 8, §4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeformationBc {
    /// $u_f^x(0) = u_f^y(0) = \partial_x u_f^y(0) = 0$.
    Cantilever,
    /// $u_f^x(0) = u_f^y(0) = u_f^y(L) = 0$.
    SimplySupported,
    /// No condition: rejected at build time (singular mass operator).
    #[default]
    Free,
}

/// Parameters of a planar floating beam (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct FloatingBeam2d {
    /// Length $L$ \[m\].
    pub length: f64,
    /// Mass per unit length $\rho A$ \[kg/m\].
    pub rho_a: f64,
    /// Axial stiffness $EA$ \[N\].
    pub ea: f64,
    /// Bending stiffness $EI$ \[N m²\].
    pub ei: f64,
    /// Number of elements.
    pub n_elements: usize,
    /// Deformation boundary condition.
    pub bc: DeformationBc,
    /// Extra ports at material coordinates $x \in [0, L]$ (besides `"P"` and `"C"`).
    pub ports: Vec<(String, f64)>,
    /// Lumped masses at ports.
    pub lumped: Vec<LumpedMass>,
    /// Coefficient of the flexible gyroscopic operator.
    pub gyroscopic: Gyroscopic,
    /// Initial pose of the frame at $P$.
    pub pose: Pose2d,
    /// Initial twist (inertial velocity of $P$, angular velocity).
    pub twist: Twist2d,
    /// Geometric stiffening: von Kármán axial strain $u' + \frac12 w'^2$
    /// ([`crate::body::planar::stiffening`]); default `false` (the linear model of §4.3).
    pub geometric_stiffening: bool,
    /// Deformation-dependent inertia: mass operator $M(u_f)$ of the mass points at their
    /// deformed positions ([`crate::body::planar::full_inertia`]); default `false` (the
    /// constant operator (37)).
    pub full_inertia: bool,
}

impl FloatingBeam2d {
    /// A beam of length `length`, $\rho A$ = `rho_a`, $EA$ = `ea`, $EI$ = `ei`, on
    /// `n_elements` uniform elements, **without** deformation condition (set one with
    /// [`FloatingBeam2d::bc`]), at rest at the origin along $X$.
    pub fn new(length: f64, rho_a: f64, ea: f64, ei: f64, n_elements: usize) -> Self {
        Self {
            length,
            rho_a,
            ea,
            ei,
            n_elements,
            bc: DeformationBc::Free,
            ports: Vec::new(),
            lumped: Vec::new(),
            gyroscopic: Gyroscopic::Consistent,
            pose: Pose2d::default(),
            twist: Twist2d::default(),
            geometric_stiffening: false,
            full_inertia: false,
        }
    }

    /// A beam from material data: density $\rho$ \[kg/m³\], Young modulus $E$ \[Pa\],
    /// cross-section area $A$ \[m²\] and second moment of area $I$ \[m⁴\].
    pub fn from_material(
        length: f64,
        rho: f64,
        young: f64,
        area: f64,
        second_moment: f64,
        n_elements: usize,
    ) -> Self {
        Self::new(
            length,
            rho * area,
            young * area,
            young * second_moment,
            n_elements,
        )
    }

    /// Sets the deformation boundary condition.
    pub fn bc(mut self, bc: DeformationBc) -> Self {
        self.bc = bc;
        self
    }

    /// Adds a port at material coordinate `x` $\in [0, L]$.
    pub fn port(mut self, name: impl Into<String>, x: f64) -> Self {
        self.ports.push((name.into(), x));
        self
    }

    /// Adds a lumped mass at a port.
    pub fn lumped_mass(mut self, port: impl Into<String>, mass: f64, inertia: f64) -> Self {
        self.lumped.push(LumpedMass::new(port, mass, inertia));
        self
    }

    /// Sets the gyroscopic coefficient.
    pub fn gyroscopic(mut self, g: Gyroscopic) -> Self {
        self.gyroscopic = g;
        self
    }

    /// Switches the geometric (stress) stiffening on or off: the axial strain becomes
    /// $\partial_x u_f^x + \frac12(\partial_x u_f^y)^2$ and the interconnection operator
    /// gains the state-dependent skew pair $\pm D_{nl}(u_f)$ of [`crate::body::planar::stiffening`].
    pub fn geometric_stiffening(mut self, on: bool) -> Self {
        self.geometric_stiffening = on;
        self
    }

    /// Switches the deformation-dependent inertia on or off: the mass points are
    /// transported at their deformed positions $x + u_f$, which adds the centrifugal
    /// softening of a spinning beam and makes linear and angular momentum exact invariants
    /// of a free body ([`crate::body::planar::full_inertia`], eqs. (F1)–(F5)). The
    /// [`Gyroscopic`] coefficient is then not used (the momentum form has no flexible
    /// gyroscopic operator).
    pub fn full_inertia(mut self, on: bool) -> Self {
        self.full_inertia = on;
        self
    }

    /// Sets the initial pose.
    pub fn pose(mut self, pose: Pose2d) -> Self {
        self.pose = pose;
        self
    }

    /// Sets the initial twist.
    pub fn twist(mut self, twist: Twist2d) -> Self {
        self.twist = twist;
        self
    }

    /// Validates and discretizes the beam into the pH model of body `name`.
    pub fn build(&self, name: &str) -> Result<PlanarBody, MbsError> {
        require_positive(name, "length", self.length)?;
        require_positive(name, "rho_a", self.rho_a)?;
        require_positive(name, "EA", self.ea)?;
        require_positive(name, "EI", self.ei)?;
        check_discretisation(name, self.n_elements, self.bc)?;
        for (v, what) in [
            (self.pose.x, "pose.x"),
            (self.pose.y, "pose.y"),
            (self.pose.theta, "pose.theta"),
            (self.twist.vx, "twist.vx"),
            (self.twist.vy, "twist.vy"),
            (self.twist.omega, "twist.omega"),
        ] {
            require_finite(name, what, v)?;
        }
        let fem = |e| MbsError::Fem {
            body: name.into(),
            source: e,
        };
        let shapes = BeamShapes::new(self.length, self.n_elements, self.bc).map_err(fem)?;
        let (n_vx, n_vy) = shapes.n_free();
        let n_f = n_vx + n_vy;
        let (dg0, dg1) = shapes.spaces.stress_spaces().map_err(fem)?;
        let n_n = dg0.n_dofs();
        let n_m = dg1.n_dofs();
        let n_s = n_n + n_m;
        // Compliance blocks.
        let Cn = assembly::mass(&dg0, &Coefficient::Constant(1.0 / self.ea)).map_err(fem)?;
        let Cm = assembly::mass(&dg1, &Coefficient::Constant(1.0 / self.ei)).map_err(fem)?;
        let C = sparse::block_diag(&[&Cn, &Cm]);
        // D = diag(∫χ ∂xφ, ∫η ∂xxψ) restricted to the free velocity DOFs.
        let (Dax, Db) = shapes.spaces.derivative_blocks(&dg0, &dg1).map_err(fem)?;
        let mut td = Triplets::new(n_s, n_f);
        td.push_block(0, 0, &Dax, 1.0);
        td.push_block(n_n, n_vx, &Db, 1.0);
        let D = td.build();
        let port_defs = port_positions(name, self.length, &self.ports)?;
        let mut ports = Vec::with_capacity(port_defs.len());
        for (n, x) in &port_defs {
            ports.push(PlanarPort {
                name: n.clone(),
                x: [*x, 0.0],
                shape: shapes.shape_at(*x).map_err(fem)?,
            });
        }
        // Mass points: the Gauss points of the elements, then the lumped masses.
        let gauss = shapes.spaces.mass_points().map_err(fem)?;
        let mut points = Vec::with_capacity(gauss.len() + self.lumped.len());
        for (e, xi, x, wh) in gauss {
            points.push(MassPoint {
                x: [x, 0.0],
                mass: self.rho_a * wh,
                rotary_inertia: 0.0,
                shape: shapes.shape_in_element(e, xi),
            });
        }
        for l in &self.lumped {
            l.validate(name)?;
            let p = ports.iter().find(|p| p.name == l.port).ok_or_else(|| {
                unknown_port(
                    format!("lumped mass of body '{name}'"),
                    name,
                    &l.port,
                    port_defs.iter().map(|p| p.0.as_str()),
                )
            })?;
            points.push(MassPoint {
                x: p.x,
                mass: l.mass,
                rotary_inertia: l.inertia,
                shape: p.shape.clone(),
            });
        }
        let stiffening = if self.geometric_stiffening {
            let map: Vec<Option<usize>> = shapes
                .spaces
                .her_map
                .iter()
                .map(|k| k.map(|k| n_vx + k))
                .collect();
            Some(VonKarman::new(&dg0, &shapes.spaces.her, &map, n_f, n_s).map_err(fem)?)
        } else {
            None
        };
        let flexible = Flexible {
            n_f,
            n_s,
            C,
            D,
            stiffening,
            names: [
                (
                    "u",
                    "elastic displacement coefficients (u_x CG1, then u_y Hermite) [m, rad]",
                ),
                (
                    "vf",
                    "elastic velocity coefficients (v_x CG1, then v_y Hermite) [m/s, rad/s]",
                ),
                (
                    "sigma",
                    "normal force (DG0) and bending moment (DG1) coefficients [N, N m]",
                ),
            ],
        };
        let mut body = PlanarBody::new(
            name,
            &points,
            ports,
            Some(flexible),
            self.gyroscopic,
            self.pose,
            self.twist,
        )?;
        body.set_beam_shapes(shapes);
        if self.full_inertia {
            body.set_full_inertia(&points);
        }
        Ok(body)
    }
}

/// Finite element spaces of a floating beam and the maps between full and free DOFs; used
/// to evaluate the elastic shape at any material point.
#[derive(Debug, Clone, PartialEq)]
pub struct BeamShapes {
    spaces: BeamSpaces,
    n_stress: (usize, usize),
}

impl BeamShapes {
    fn new(length: f64, n_el: usize, bc: DeformationBc) -> Result<Self, phlex_fem::FemError> {
        Ok(Self {
            spaces: BeamSpaces::new(length, n_el, bc)?,
            n_stress: (n_el, 2 * n_el),
        })
    }

    /// Number of free axial and transverse coefficients.
    pub fn n_free(&self) -> (usize, usize) {
        (self.spaces.n_cg(), self.spaces.n_her())
    }

    /// Number of normal-force (DG0) and bending-moment (DG1) coefficients.
    pub fn n_stress(&self) -> (usize, usize) {
        self.n_stress
    }

    /// The mesh.
    pub fn mesh(&self) -> &Mesh1d {
        &self.spaces.mesh
    }

    fn shape_in_element(&self, e: usize, xi: f64) -> PointShape {
        let sp = &self.spaces;
        let n_vx = sp.n_cg();
        let mut v2 = [0.0; 2];
        let mut v4 = [0.0; 4];
        let mut s = PointShape::default();
        sp.cg1.eval_local(e, xi, 0, &mut v2);
        for (j, &v) in v2.iter().enumerate() {
            if let Some(k) = sp.cg_map[sp.cg1.dof(e, j)] {
                if v != 0.0 {
                    s.nx.push((k, v));
                }
            }
        }
        sp.her.eval_local(e, xi, 0, &mut v4);
        for (j, &v) in v4.iter().enumerate() {
            if let Some(k) = sp.her_map[sp.her.dof(e, j)] {
                if v != 0.0 {
                    s.ny.push((n_vx + k, v));
                }
            }
        }
        sp.her.eval_local(e, xi, 1, &mut v4);
        for (j, &v) in v4.iter().enumerate() {
            if let Some(k) = sp.her_map[sp.her.dof(e, j)] {
                if v != 0.0 {
                    s.nr.push((n_vx + k, v));
                }
            }
        }
        s
    }

    /// Elastic shape (axial, transverse, slope functionals over the free coefficients) at
    /// material coordinate `x`.
    pub fn shape_at(&self, x: f64) -> Result<PointShape, phlex_fem::FemError> {
        let (e, xi) = self.spaces.mesh.locate(x)?;
        Ok(self.shape_in_element(e, xi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::FloatingBody;
    use phlex_core::sparse;

    fn beam(n: usize, bc: DeformationBc) -> PlanarBody {
        FloatingBeam2d::new(2.0, 3.0, 1e5, 50.0, n)
            .bc(bc)
            .build("b")
            .unwrap()
    }

    /// Rigid block of the mass operator (37): m = ρAL, s^x = ρAL²/2, J^zz = ρAL³/3;
    /// coupling rows: ∫ρA ψ (v_y row) and ∫ρA x ψ (ω row, erratum (3,5)).
    #[test]
    fn mass_operator_rigid_block_and_coupling_integrals() {
        let b = beam(3, DeformationBc::Cantilever);
        let M = sparse::to_dense(b.mass_matrix());
        let (ra, l) = (3.0, 2.0);
        assert!((M[(0, 0)] - ra * l).abs() < 1e-12);
        assert!((M[(1, 2)] - ra * l * l / 2.0).abs() < 1e-12);
        assert!((M[(2, 2)] - ra * l.powi(3) / 3.0).abs() < 1e-12);
        assert!(M[(0, 2)].abs() < 1e-14 && M[(0, 1)].abs() < 1e-14);
        // Coupling with a transverse field f(x) = x² (interpolated exactly by Hermite:
        // value x², slope 2x at the nodes): ∫ρA x² = ρA L³/3, ∫ρA x·x² = ρA L⁴/4.
        let sh = BeamShapes::new(2.0, 3, DeformationBc::Cantilever).unwrap();
        let (nvx, nvy) = sh.n_free();
        let mut p = vec![0.0; b.n_p()];
        for (k, &i) in sh.spaces.her_free.iter().enumerate() {
            let node = i / 2;
            let x = sh.spaces.mesh.nodes()[node];
            p[3 + nvx + k] = if i % 2 == 0 { x * x } else { 2.0 * x };
        }
        let mp = sparse::mul_vec(b.mass_matrix(), &p);
        assert!((mp[1] - ra * l.powi(3) / 3.0).abs() < 1e-12, "{}", mp[1]);
        assert!((mp[2] - ra * l.powi(4) / 4.0).abs() < 1e-12, "{}", mp[2]);
        assert!(mp[0].abs() < 1e-14);
        // Axial field f(x) = x (CG1 nodal values): ∫ρA x = ρA L²/2 in the v_x row.
        let mut p = vec![0.0; b.n_p()];
        for (k, &i) in sh.spaces.cg_free.iter().enumerate() {
            p[3 + k] = sh.spaces.mesh.nodes()[i];
        }
        let mp = sparse::mul_vec(b.mass_matrix(), &p);
        assert!((mp[0] - ra * l * l / 2.0).abs() < 1e-12);
        assert!(mp[1].abs() < 1e-14 && mp[2].abs() < 1e-14);
        assert_eq!(nvy, 2 * 3);
    }

    /// Remark 8: no deformation condition is a typed error naming the body; bad data too.
    #[test]
    fn missing_bc_and_bad_parameters() {
        let e = FloatingBeam2d::new(1.0, 1.0, 1.0, 1.0, 2)
            .build("coupler")
            .unwrap_err();
        assert!(matches!(e, MbsError::MissingDeformationBc { ref body } if body == "coupler"));
        assert!(e.to_string().contains("singular"));
        let e = FloatingBeam2d::new(1.0, 1.0, 0.0, 1.0, 2)
            .bc(DeformationBc::Cantilever)
            .build("c")
            .unwrap_err();
        assert!(e.to_string().contains("EA"), "{e}");
        let e = FloatingBeam2d::new(1.0, 1.0, 1.0, 1.0, 0)
            .bc(DeformationBc::Cantilever)
            .build("c")
            .unwrap_err();
        assert!(e.to_string().contains("n_elements"), "{e}");
        let e = FloatingBeam2d::new(1.0, 1.0, 1.0, 1.0, 2)
            .bc(DeformationBc::Cantilever)
            .port("mid", 1.5)
            .build("c")
            .unwrap_err();
        assert!(e.to_string().contains("mid"), "{e}");
    }

    /// Port C output: v_P + ω L ŷ + elastic tip velocity and slope rate (τ_CP and B_f).
    #[test]
    fn tip_port_map() {
        let b = beam(2, DeformationBc::SimplySupported);
        let sh = BeamShapes::new(2.0, 2, DeformationBc::SimplySupported).unwrap();
        let mut x = b.initial_state();
        let o = b.n_q();
        x[o] = 0.3;
        x[o + 1] = -0.4;
        x[o + 2] = 0.5;
        // slope DOF at x = L (Hermite DOF 2n+1 = 5) gets 0.7
        let k = sh.spaces.her_free.iter().position(|&i| i == 5).unwrap();
        x[o + 3 + sh.n_free().0 + k] = 0.7;
        let c = b.port_index("C").unwrap();
        let y = b.port_velocity(c, &x);
        assert!((y[0] - 0.3).abs() < 1e-15);
        // simply supported: transverse value at L removed, so no elastic v_y at C
        assert!((y[1] - (-0.4 + 0.5 * 2.0)).abs() < 1e-14);
        assert!((y[2] - (0.5 + 0.7)).abs() < 1e-14);
    }
}
