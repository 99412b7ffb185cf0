//! Spatial floating flexible beam (paper 000 §4 in 3D: eqs. (10)–(15), (34)–(41) with the
//! beam operators of §4.3 in two bending planes, plus axial and torsional motion),
//! discretised by PFEM:
//!
//! | field | velocity × stress | compliance | inertia |
//! |---|---|---|---|
//! | axial $u_x$ | CG1 × DG0 ($n_x$) | $(EA)^{-1}$ | $\rho A$ |
//! | torsion $\theta_x$ | CG1 × DG0 ($m_x$) | $(GJ)^{-1}$ | $\rho I_p$ |
//! | bending $u_y$ (moment about $z$) | Hermite × DG1 ($m_z$) | $(EI_z)^{-1}$ | $\rho A$ |
//! | bending $u_z$ (moment about $y$) | Hermite × DG1 ($m_y$) | $(EI_y)^{-1}$ | $\rho A$ |
//!
//! | parameter | symbol | unit | requirement |
//! |---|---|---|---|
//! | `length` | $L$ | m | $> 0$ |
//! | `density` | $\rho$ | kg/m³ | $> 0$ |
//! | `young` | $E$ | Pa | $> 0$ |
//! | `shear_modulus` | $G$ | Pa | $> 0$ |
//! | `section` | $A$, $I_y$, $I_z$, $I_p$, $J$ ([`Section3d`]) | m², m⁴ | $> 0$ |
//! | `n_elements` | elements | – | $\ge 1$ |
//! | `bc` | deformation condition (Remark 8) | – | cantilever or simply supported |
//! | `geometric_stiffening` | von Kármán axial strain (Remark 3) | – | default `false` |
//!
//! The reference point $P$ is the end $x = 0$ of the beam axis, $C$ the end $x = L$; the body
//! frame $x$ axis runs along the undeformed beam, $y$ and $z$ are the principal axes of the
//! section. State per [`crate::body::spatial::floating_body`] (the convention of
//! [`crate::spatial::SpatialBody`]): $q = ({}^ir_P, R_v, u_f)$,
//! $p = (v_P, \omega, v_f, \sigma)$ with
//! $u_f = (u_x, \theta_x, u_y, u_z)$ (free coefficients, in this order) and
//! $\sigma = (n_x, m_x, m_z, m_y)$. A material point at $x$ has displacement
//! $(u_x, u_y, u_z)$ and small rotation $(\theta_x, -\partial_xu_z, \partial_xu_y)$.
//!
//! Deformation conditions (paper 000 Remark 8, §4.3 in 3D):
//! * **cantilever**: $u_x = \theta_x = u_y = \partial_xu_y = u_z = \partial_xu_z = 0$ at $x = 0$;
//! * **simply supported**: $u_x = \theta_x = u_y = u_z = 0$ at $x = 0$ and $u_y = u_z = 0$ at
//!   $x = L$ (the frame $x$ axis is the chord $PC$).
//!
//! Without a condition the elastic field contains the rigid motion and the mass operator is
//! singular: [`DeformationBc::Free`] is rejected with [`MbsError::MissingDeformationBc`].
//!
//! **Mass operator.** Gauss mass points (4 per element, exact for Hermite × Hermite) of mass
//! $\rho A\,w_qh$ carry the translational inertia; each also carries the polar inertia
//! $\rho I_p w_qh$ about the beam axis, rotating at $\omega_x + \dot\theta_x$. As in
//! Euler–Bernoulli theory the rotary inertia of the section about $y$ and $z$ ($\rho I_y$,
//! $\rho I_z$) is neglected, for the rigid and the elastic motion alike (so a motion in the
//! $xy$ plane reproduces [`crate::FloatingBeam2d`] exactly). The rigid block is then
//! $m = \rho AL$, $s = (\rho AL^2/2, 0, 0)$, $J_P = \mathrm{diag}(\rho I_pL,\ \rho AL^3/3,\
//! \rho AL^3/3)$, and the couplings $\mathcal I_\rho^L$, $\mathcal I_{\rho x}^L$ of eq. (37) appear in
//! both bending planes (erratum: entry (3,5) of (37) is $\mathcal I_{\rho x}^L$).
//!
//! **Operators.** $D = \mathrm{diag}(\int\chi\,\partial_x\phi,\ \int\chi\,\partial_x\phi,\
//! \int\eta\,\partial_{xx}\psi,\ \int\eta\,\partial_{xx}\psi)$ (the operators of eq. (38) integrated
//! by parts, so end forces and moments are port inputs); the gyroscopic operator is that of
//! [`crate::body::spatial::floating_body`] with the coefficient $c$ of [`Gyroscopic`] (default $c = 1$).
//!
//! **Full inertia** ([`FloatingBeam3d::full_inertia`]): the Gauss mass points at their
//! deformed positions $x_k + N_ku_f$, $M(u_f)$ quadratic in $u_f$, the body in momentum form
//! with a state-dependent descriptor and ports at the deformed positions (eqs. (F1)–(F5)
//! of [`crate::body::spatial::full_inertia`]): centrifugal softening and the exact
//! transport terms, and the inertial angular momentum is a first integral (kept exactly by
//! the midpoint rule about a fixed point, `tests/full_inertia_3d.rs`). Integrators:
//! every integrator of `phlex-solve`: [`phlex_solve::Midpoint`] (exact power balance),
//! [`phlex_solve::GaussCollocation`] (conservation form) and Radau IIA through
//! [`phlex_solve::PhDae`] (constant-mass form).
//!
//! **Geometric stiffening** ([`FloatingBeam3d::geometric_stiffening`], paper 000 Remark 3;
//! details in [`crate::body::spatial::stiffening`]): the von Kármán strain
//! $\varepsilon = \partial_xu_x + \frac12((\partial_xu_y)^2 + (\partial_xu_z)^2)$, i.e. the
//! skew pairs $J[n_x, v_y] = D_{nl}^y(u_f)$, $J[n_x, v_z] = D_{nl}^z(u_f)$ (and the negative
//! transposes), the geometric stiffness $-K_G(n_x)$ in both bending planes; with either
//! mass operator.
//!
//! **Lumped masses** ([`LumpedMass3d`], the spatial form of paper 000 §6.2's "simple
//! modification of the rigid mass matrix") are extra mass points at ports with the port's
//! elastic shape: mass $m_l$ at $a$ and a rotary inertia tensor $I_l$ rotating with
//! $\omega + \Phi_av_f$ (including the bending slope, unlike the distributed section
//! inertia).
//!
//! **Ports** `"P"` ($x = 0$), `"C"` ($x = L$) and any extra material point: input force and
//! torque (body frame), output velocity and angular velocity of the material point (body
//! frame), the columns $\[I, \tau_{CP}^\top\]$ of $B_r$ and the traces of $B_f$ in eqs. (39)–(40).
//!
//! ```
//! use phlex_mbs::{DeformationBc, FloatingBeam3d, Section3d};
//! use phlex_mbs::body::FloatingBody;
//! let beam = FloatingBeam3d::new(1.0, 7800.0, 2.1e11, 8.1e10, Section3d::circular(0.01), 4)
//!     .bc(DeformationBc::Cantilever);
//! let body = beam.build("arm")?;
//! // 4 elements: u_x, θ_x 4 free CG1 DOFs each, u_y, u_z 8 free Hermite DOFs each
//! assert_eq!(body.n_elastic(), 24);
//! # Ok::<(), phlex_mbs::MbsError>(())
//! ```
use crate::body::FloatingBody;
use phlex_core::geometry::{so3, IDENTITY3};
use phlex_core::{sparse, Triplets};
use phlex_fem::assembly::line::{self as assembly, Coefficient};
use phlex_fem::{Mesh1d, Space1d};

use super::spaces::{check_discretisation, port_positions, BeamSpaces};

use crate::body::floating_beam::planar::DeformationBc;
use crate::body::lumped::LumpedMass3d;
use crate::body::planar::floating_body::Gyroscopic;
use crate::body::spatial::floating_body::{
    Flexible3d, FloatingBody3d, MassPoint3d, PointShape3d, SpatialInit,
};
use crate::error::{require_finite, require_positive, unknown_port, MbsError};
use crate::spatial::{SpatialBody, SpatialBodySpec, SpatialPort};

/// Cross-section constants of a spatial beam (principal axes $y$, $z$).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Section3d {
    /// Area $A$ \[m²\].
    pub area: f64,
    /// Second moment about $y$, $I_y = \int z^2\,dA$ (bending of $u_z$) \[m⁴\].
    pub iy: f64,
    /// Second moment about $z$, $I_z = \int y^2\,dA$ (bending of $u_y$) \[m⁴\].
    pub iz: f64,
    /// Polar moment $I_p = I_y + I_z$ (rotary inertia $\rho I_p$ about the axis) \[m⁴\].
    pub polar: f64,
    /// Torsion constant $J$ (torsional stiffness $GJ$) \[m⁴\].
    pub torsion: f64,
}

impl Section3d {
    /// A solid circular section of diameter `d`: $A = \pi d^2/4$, $I_y = I_z = \pi d^4/64$,
    /// $I_p = J = \pi d^4/32$.
    pub fn circular(d: f64) -> Self {
        let pi = std::f64::consts::PI;
        let i = pi * d.powi(4) / 64.0;
        Self {
            area: pi * d * d / 4.0,
            iy: i,
            iz: i,
            polar: 2.0 * i,
            torsion: 2.0 * i,
        }
    }

    /// A solid rectangle of width `b` (along $y$) and height `h` (along $z$):
    /// $A = bh$, $I_z = hb^3/12$, $I_y = bh^3/12$, $I_p = I_y + I_z$ and the torsion constant
    /// $J = ac^3\big\[\tfrac13 - 0.21\tfrac ca(1 - \tfrac{c^4}{12a^4})\big\]$ ($a \ge c$ the long and
    /// short sides; Roark's formula, within 0.5 % of the series solution; $0.1406a^4$ for
    /// a square).
    pub fn rectangular(b: f64, h: f64) -> Self {
        let (a, c) = if b >= h { (b, h) } else { (h, b) };
        let iz = h * b.powi(3) / 12.0;
        let iy = b * h.powi(3) / 12.0;
        let torsion =
            a * c.powi(3) * (1.0 / 3.0 - 0.21 * (c / a) * (1.0 - c.powi(4) / (12.0 * a.powi(4))));
        Self {
            area: b * h,
            iy,
            iz,
            polar: iy + iz,
            torsion,
        }
    }
}

/// Parameters of a spatial floating beam (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct FloatingBeam3d {
    /// Length $L$ \[m\].
    pub length: f64,
    /// Density $\rho$ \[kg/m³\].
    pub density: f64,
    /// Young modulus $E$ \[Pa\].
    pub young: f64,
    /// Shear modulus $G$ \[Pa\].
    pub shear_modulus: f64,
    /// Cross-section constants.
    pub section: Section3d,
    /// Number of elements.
    pub n_elements: usize,
    /// Deformation boundary condition.
    pub bc: DeformationBc,
    /// Extra ports at material coordinates $x\in\[0, L\]$ (besides `"P"` and `"C"`).
    pub ports: Vec<(String, f64)>,
    /// Coefficient of the flexible gyroscopic operator.
    pub gyroscopic: Gyroscopic,
    /// Gravity vector (inertial) \[m/s²\].
    pub gravity: [f64; 3],
    /// Initial position of $P$ \[m\].
    pub position: [f64; 3],
    /// Initial rotation (body to inertial).
    pub rotation: [[f64; 3]; 3],
    /// Initial body-frame velocity of $P$ \[m/s\].
    pub velocity: [f64; 3],
    /// Initial body-frame angular velocity \[rad/s\].
    pub angular_velocity: [f64; 3],
    /// Point masses and rotary inertias at ports ([`LumpedMass3d`]).
    pub lumped: Vec<LumpedMass3d>,
    /// Deformation-dependent mass operator $M(u_f)$ with the mass points at their deformed
    /// positions ([`crate::body::spatial::full_inertia`]); default `false` (the constant operator).
    pub full_inertia: bool,
    /// Geometric stiffening: von Kármán axial strain $u_x' + \frac12(u_y'^2 + u_z'^2)$
    /// ([`crate::body::spatial::stiffening`]); default `false` (the linear model of §4.3).
    pub geometric_stiffening: bool,
}

impl FloatingBeam3d {
    /// A beam of length `length`, density `density`, moduli `young` and `shear_modulus` and
    /// section `section` on `n_elements` uniform elements, **without** deformation condition
    /// (set one with [`FloatingBeam3d::bc`]), at rest at the origin along $X$.
    pub fn new(
        length: f64,
        density: f64,
        young: f64,
        shear_modulus: f64,
        section: Section3d,
        n_elements: usize,
    ) -> Self {
        Self {
            length,
            density,
            young,
            shear_modulus,
            section,
            n_elements,
            bc: DeformationBc::Free,
            ports: Vec::new(),
            gyroscopic: Gyroscopic::Consistent,
            gravity: [0.0; 3],
            position: [0.0; 3],
            rotation: IDENTITY3,
            velocity: [0.0; 3],
            angular_velocity: [0.0; 3],
            lumped: Vec::new(),
            full_inertia: false,
            geometric_stiffening: false,
        }
    }

    /// A beam of solid circular section of diameter `diameter` and an isotropic material of
    /// Poisson ratio `poisson` ($G = E/(2(1+\nu))$).
    pub fn circular(
        length: f64,
        density: f64,
        young: f64,
        poisson: f64,
        diameter: f64,
        n_elements: usize,
    ) -> Self {
        Self::new(
            length,
            density,
            young,
            young / (2.0 * (1.0 + poisson)),
            Section3d::circular(diameter),
            n_elements,
        )
    }

    /// Sets the deformation boundary condition.
    pub fn bc(mut self, bc: DeformationBc) -> Self {
        self.bc = bc;
        self
    }

    /// Adds a port at material coordinate `x` $\in \[0, L\]$.
    pub fn port(mut self, name: impl Into<String>, x: f64) -> Self {
        self.ports.push((name.into(), x));
        self
    }

    /// Attaches a point mass (and rotary inertia) at a port; a mass at an arbitrary
    /// material point $x$ is a port there ([`FloatingBeam3d::port`]).
    pub fn lumped_mass(mut self, lumped: LumpedMass3d) -> Self {
        self.lumped.push(lumped);
        self
    }

    /// Sets the gyroscopic coefficient.
    pub fn gyroscopic(mut self, g: Gyroscopic) -> Self {
        self.gyroscopic = g;
        self
    }

    /// Switches the deformation-dependent inertia on or off (default off): the mass points
    /// at their deformed positions $x_k + N_ku_f$, the mass operator $M(u_f)$ quadratic in
    /// $u_f$, the body in momentum form with a state-dependent descriptor and ports at the
    /// deformed positions ([`crate::body::spatial::full_inertia`], eqs. (F1)–(F5)). This adds the
    /// centrifugal softening and the transport terms that the constant operator lacks, and
    /// makes the inertial linear and angular momenta first integrals of a free body (and
    /// the angular momentum about a spherical joint), kept exactly by the midpoint rule.
    /// The gyroscopic coefficient ([`FloatingBeam3d::gyroscopic`]) is then irrelevant.
    pub fn full_inertia(mut self, on: bool) -> Self {
        self.full_inertia = on;
        self
    }

    /// Switches the geometric (stress) stiffening on or off (default off, paper 000
    /// Remark 3): the axial strain becomes $\partial_xu_x + \frac12((\partial_xu_y)^2 +
    /// (\partial_xu_z)^2)$ and $J$ gains the state-dependent skew pairs
    /// $\pm D_{nl}^y(u_f)$, $\pm D_{nl}^z(u_f)$ of [`crate::body::spatial::stiffening`] (the geometric
    /// stiffness $-K_G(n_x)$ in both bending planes). Works with either mass operator.
    pub fn geometric_stiffening(mut self, on: bool) -> Self {
        self.geometric_stiffening = on;
        self
    }

    /// Sets gravity \[m/s²\].
    pub fn gravity(mut self, g: [f64; 3]) -> Self {
        self.gravity = g;
        self
    }

    /// Sets the initial position of $P$.
    pub fn position(mut self, p: [f64; 3]) -> Self {
        self.position = p;
        self
    }

    /// Sets the initial rotation (body to inertial).
    pub fn rotation(mut self, r: [[f64; 3]; 3]) -> Self {
        self.rotation = r;
        self
    }

    /// Sets the initial body-frame velocity of $P$.
    pub fn velocity(mut self, v: [f64; 3]) -> Self {
        self.velocity = v;
        self
    }

    /// Sets the initial body-frame angular velocity.
    pub fn angular_velocity(mut self, w: [f64; 3]) -> Self {
        self.angular_velocity = w;
        self
    }

    /// Validates and discretizes the beam into the pH model of body `name`.
    pub fn build(&self, name: &str) -> Result<FloatingBody3d, MbsError> {
        require_positive(name, "length", self.length)?;
        require_positive(name, "density", self.density)?;
        require_positive(name, "young", self.young)?;
        require_positive(name, "shear_modulus", self.shear_modulus)?;
        let s = &self.section;
        require_positive(name, "section.area", s.area)?;
        require_positive(name, "section.iy", s.iy)?;
        require_positive(name, "section.iz", s.iz)?;
        require_positive(name, "section.polar", s.polar)?;
        require_positive(name, "section.torsion", s.torsion)?;
        check_discretisation(name, self.n_elements, self.bc)?;
        for i in 0..3 {
            require_finite(name, &format!("gravity[{i}]"), self.gravity[i])?;
            require_finite(name, &format!("position[{i}]"), self.position[i])?;
            require_finite(name, &format!("velocity[{i}]"), self.velocity[i])?;
            require_finite(
                name,
                &format!("angular_velocity[{i}]"),
                self.angular_velocity[i],
            )?;
        }
        check_rotation(name, &self.rotation)?;
        let fem = |e| MbsError::Fem {
            body: name.into(),
            source: e,
        };
        let shapes = BeamShapes3d::new(self.length, self.n_elements, self.bc).map_err(fem)?;
        let (n_cg, n_her) = shapes.n_free();
        let n_f = 2 * n_cg + 2 * n_her;
        let (dg0, dg1) = shapes.spaces.stress_spaces().map_err(fem)?;
        let (n0, n1) = (dg0.n_dofs(), dg1.n_dofs());
        let n_s = 2 * n0 + 2 * n1;
        let (E, G) = (self.young, self.shear_modulus);
        let inv = |k: f64| Coefficient::Constant(1.0 / k);
        let Cn = assembly::mass(&dg0, &inv(E * s.area)).map_err(fem)?;
        let Ct = assembly::mass(&dg0, &inv(G * s.torsion)).map_err(fem)?;
        let Cmz = assembly::mass(&dg1, &inv(E * s.iz)).map_err(fem)?;
        let Cmy = assembly::mass(&dg1, &inv(E * s.iy)).map_err(fem)?;
        let C = sparse::block_diag(&[&Cn, &Ct, &Cmz, &Cmy]);
        let (Dax, Db) = shapes.spaces.derivative_blocks(&dg0, &dg1).map_err(fem)?;
        let mut td = Triplets::new(n_s, n_f);
        td.push_block(0, 0, &Dax, 1.0);
        td.push_block(n0, n_cg, &Dax, 1.0);
        td.push_block(2 * n0, 2 * n_cg, &Db, 1.0);
        td.push_block(2 * n0 + n1, 2 * n_cg + n_her, &Db, 1.0);
        let D = td.build();
        let port_defs = port_positions(name, self.length, &self.ports)?;
        let mut ports = Vec::with_capacity(port_defs.len());
        for (n, x) in &port_defs {
            ports.push((
                SpatialPort::new(n.clone(), [*x, 0.0, 0.0]),
                shapes.shape_at(*x).map_err(fem)?,
            ));
        }
        // Mass points: the Gauss points of the elements.
        let ra = self.density * s.area;
        let rip = self.density * s.polar;
        let gauss = shapes.spaces.mass_points().map_err(fem)?;
        let mut points = Vec::with_capacity(gauss.len() + self.lumped.len());
        for (e, xi, x, wh) in gauss {
            let mut shape = shapes.shape_in_element(e, xi);
            // Rotary inertia of bending neglected (Euler–Bernoulli): only the torsional
            // rotation carries the polar inertia.
            shape.phi[1].clear();
            shape.phi[2].clear();
            points.push(MassPoint3d {
                x: [x, 0.0, 0.0],
                mass: ra * wh,
                inertia: [[rip * wh, 0.0, 0.0], [0.0; 3], [0.0; 3]],
                shape,
            });
        }
        // Lumped masses: extra mass points with the full elastic shape of their port
        // (displacement and small rotation, so a rotary inertia follows the bending slope).
        for l in &self.lumped {
            l.validate(name)?;
            let Some((_, x)) = port_defs.iter().find(|p| p.0 == l.port) else {
                return Err(unknown_port(
                    format!("lumped mass of body '{name}'"),
                    name,
                    &l.port,
                    port_defs.iter().map(|p| p.0.as_str()),
                ));
            };
            points.push(MassPoint3d {
                x: [*x, 0.0, 0.0],
                mass: l.mass,
                inertia: l.inertia,
                shape: shapes.shape_at(*x).map_err(fem)?,
            });
        }
        let flexible = Flexible3d {
            n_f,
            n_s,
            C,
            D,
            names: [
                (
                    "u",
                    "elastic coefficients (u_x CG1, theta_x CG1, u_y Hermite, u_z Hermite) [m, rad]",
                ),
                (
                    "vf",
                    "elastic velocity coefficients (v_x, dtheta_x, v_y, v_z) [m/s, rad/s]",
                ),
                (
                    "sigma",
                    "normal force, torque (DG0), bending moments m_z, m_y (DG1) [N, N m]",
                ),
            ],
        };
        let mut body = FloatingBody3d::new(
            name,
            &points,
            ports,
            Some(flexible),
            self.gyroscopic,
            SpatialInit {
                position: self.position,
                rotation: self.rotation,
                velocity: self.velocity,
                angular_velocity: self.angular_velocity,
            },
        )?;
        if self.full_inertia {
            body.set_full_inertia(&points);
        }
        if self.geometric_stiffening {
            body.set_stiffening(
                crate::body::spatial::stiffening::von_karman_3d(&shapes, &dg0, n_f, n_s)
                    .map_err(fem)?,
            );
        }
        body.set_gravity(self.gravity);
        body.set_beam_shapes(shapes);
        Ok(body)
    }
}

impl SpatialBodySpec for FloatingBeam3d {
    /// [`FloatingBeam3d::build`].
    fn build_spatial(&self, name: &str) -> Result<Box<dyn SpatialBody>, MbsError> {
        Ok(Box::new(self.build(name)?))
    }
    fn kind(&self) -> &'static str {
        "floating beam 3d"
    }
}

/// Checks that a rotation is finite, orthonormal and right-handed ([`so3::is_rotation`]).
fn check_rotation(body: &str, r: &[[f64; 3]; 3]) -> Result<(), MbsError> {
    for i in 0..3 {
        for j in 0..3 {
            require_finite(body, &format!("rotation[{i}][{j}]"), r[i][j])?;
        }
    }
    if so3::is_rotation(r) {
        return Ok(());
    }
    Err(MbsError::InvalidBodyParameter {
        body: body.into(),
        parameter: "rotation".into(),
        value: so3::orthogonality_defect(r),
        requirement: "an orthonormal right-handed matrix (R^T R = I, det R = 1)".into(),
    })
}

/// Finite element spaces of a spatial floating beam and the maps between full and free
/// DOFs; evaluates the elastic shape at any material point.
#[derive(Debug, Clone, PartialEq)]
pub struct BeamShapes3d {
    spaces: BeamSpaces,
}

impl BeamShapes3d {
    fn new(length: f64, n_el: usize, bc: DeformationBc) -> Result<Self, phlex_fem::FemError> {
        Ok(Self {
            spaces: BeamSpaces::new(length, n_el, bc)?,
        })
    }

    /// Offsets of the four fields in $u_f$: $(u_x, \theta_x, u_y, u_z)$.
    pub fn offsets(&self) -> [usize; 4] {
        let (n_cg, n_her) = self.n_free();
        [0, n_cg, 2 * n_cg, 2 * n_cg + n_her]
    }

    /// Free CG1 (axial, torsion) and Hermite (each bending plane) coefficients.
    pub fn n_free(&self) -> (usize, usize) {
        (self.spaces.n_cg(), self.spaces.n_her())
    }

    /// The mesh.
    pub fn mesh(&self) -> &Mesh1d {
        &self.spaces.mesh
    }

    /// The Hermite space of the bending displacements (both planes).
    pub(crate) fn hermite_space(&self) -> &Space1d {
        &self.spaces.her
    }

    /// Full Hermite DOF → free coefficient index within one bending block (`None`: removed
    /// by the deformation condition).
    pub(crate) fn hermite_map(&self) -> &[Option<usize>] {
        &self.spaces.her_map
    }

    /// Free Hermite DOFs (full indices: value $2i$, slope $2i+1$ at node $i$).
    pub fn hermite_free(&self) -> &[usize] {
        &self.spaces.her_free
    }

    /// Free CG1 DOFs (full indices = node numbers).
    pub fn cg_free(&self) -> &[usize] {
        &self.spaces.cg_free
    }

    fn shape_in_element(&self, e: usize, xi: f64) -> PointShape3d {
        let [o_ax, o_tor, o_y, o_z] = self.offsets();
        let mut v2 = [0.0; 2];
        let mut v4 = [0.0; 4];
        let mut d4 = [0.0; 4];
        let mut s = PointShape3d::default();
        let sp = &self.spaces;
        sp.cg1.eval_local(e, xi, 0, &mut v2);
        for (j, &v) in v2.iter().enumerate() {
            if let Some(k) = sp.cg_map[sp.cg1.dof(e, j)] {
                if v != 0.0 {
                    s.n[0].push((o_ax + k, v));
                    s.phi[0].push((o_tor + k, v));
                }
            }
        }
        sp.her.eval_local(e, xi, 0, &mut v4);
        sp.her.eval_local(e, xi, 1, &mut d4);
        for j in 0..4 {
            if let Some(k) = sp.her_map[sp.her.dof(e, j)] {
                if v4[j] != 0.0 {
                    s.n[1].push((o_y + k, v4[j]));
                    s.n[2].push((o_z + k, v4[j]));
                }
                if d4[j] != 0.0 {
                    // rotation about z = ∂x u_y, about y = −∂x u_z
                    s.phi[2].push((o_y + k, d4[j]));
                    s.phi[1].push((o_z + k, -d4[j]));
                }
            }
        }
        s
    }

    /// Elastic shape (displacement and rotation functionals over the free coefficients) at
    /// material coordinate `x`.
    pub fn shape_at(&self, x: f64) -> Result<PointShape3d, phlex_fem::FemError> {
        let (e, xi) = self.spaces.mesh.locate(x)?;
        Ok(self.shape_in_element(e, xi))
    }
}

impl FloatingBody3d {
    /// Elastic displacement (body frame) \[m\] and rotation \[rad\] at material coordinate
    /// `xi` of a beam body, for a local state.
    pub fn elastic_displacement(&self, xi: f64, x: &[f64]) -> Result<[f64; 6], MbsError> {
        let s = self.beam_shapes().ok_or_else(|| MbsError::UnknownName {
            what: "beam body".into(),
            name: self.name().into(),
            available: "flexible beam bodies only".into(),
        })?;
        let shape = s.shape_at(xi).map_err(|e| MbsError::Fem {
            body: self.name().into(),
            source: e,
        })?;
        let u = &x[12..self.n_q()];
        let d = shape.displacement(u);
        let r = shape.rotation(u);
        Ok([d[0], d[1], d[2], r[0], r[1], r[2]])
    }
}
