//! The assembled plate of any theory and discretisation ([`PlateModel`]) and a built plate
//! model file ([`BuiltPlate`]): system, mesh, velocity evaluation, damping gains and the
//! eigensolver settings.
use phlex_core::LinearPhSystem;
use phlex_fem::models::plate::mindlin_bjt::MindlinBjtModel;
use phlex_fem::models::plate::thermoelastic_kirchhoff::ThermoKirchhoffModel;
use phlex_fem::models::plate::{
    KirchhoffBellModel, KirchhoffField, KirchhoffModel, Laminate, LaminatedField,
    LaminatedKirchhoffModel, LaminatedMindlinModel, MindlinAfwModel, MindlinModel, PlateField,
};
use phlex_fem::space::Space2d;
use phlex_fem::{error::Fem2dError, mesh::Mesh2d};
use phlex_solve::eigen::EigenParams;
use phlex_solve::signal::InputFn;

/// The assembled plate of any theory and discretisation.
pub enum PlateModel {
    /// Mindlin–Reissner, CGDG.
    Mindlin(MindlinModel),
    /// Mindlin–Reissner, AFW (BDM moments, RT shear, weak symmetry), integrated in the
    /// equilibrated variables $\tilde e = D^{-1}e$ of
    /// [`MindlinAfwModel::equilibrated_system`] (the saddle-point midpoint matrix of the
    /// unscaled system fails the LU's accuracy check on fine meshes).
    MindlinAfw {
        /// The model (original variables).
        model: MindlinAfwModel,
        /// The equilibrated system that is integrated and analysed.
        scaled: LinearPhSystem,
        /// $\operatorname{diag}D$, $e = D\tilde e$.
        d: Vec<f64>,
    },
    /// Kirchhoff–Love, HHJ.
    Kirchhoff(KirchhoffModel),
    /// Kirchhoff–Love, Bell or Argyris × DG3.
    KirchhoffC1(KirchhoffBellModel),
    /// Laminated Kirchhoff (membrane + HHJ bending).
    LaminatedKirchhoff(LaminatedKirchhoffModel),
    /// Laminated Mindlin (membrane + CGDG).
    LaminatedMindlin(LaminatedMindlinModel),
    /// Thermoelastic Kirchhoff plate (HHJ ⊕ heat in the plate volume).
    ThermoKirchhoff(ThermoKirchhoffModel),
    /// Mindlin–Reissner, Bécache–Joly–Tsogka on a rectangular grid (thesis 004 §7.2.1.1),
    /// with the triangle mesh of the same rectangle for the extent.
    MindlinBjt {
        /// The model.
        model: MindlinBjtModel,
        /// The triangulated rectangle (extent only; the fields live on the quad grid).
        mesh: Mesh2d,
    },
}

impl PlateModel {
    /// Gain $K = k\,M_\Gamma^{-1}$ of boundary damping injection on a traction port
    /// ([`crate::continuum::DampingSpec`]), for the models that expose the port's trace mass.
    pub fn damping_gain(
        &self,
        port: &str,
        k: f64,
    ) -> Result<phlex_core::sparse::SparseMat, String> {
        match self {
            PlateModel::Kirchhoff(m) => m.boundary_damping_gain(port, k).map_err(|e| e.to_string()),
            PlateModel::KirchhoffC1(m) => {
                let M = m.port_trace_mass(port).map_err(|e| e.to_string())?;
                Ok(crate::continuum::inverse_trace_gain(M, k))
            }
            _ => Err("boundary damping injection is available on Kirchhoff plates (HHJ, Bell, Argyris) with port edges; this plate's ports have no trace mass".into()),
        }
    }

    /// The pH system.
    pub fn system(&self) -> &LinearPhSystem {
        match self {
            PlateModel::Mindlin(m) => m.system(),
            PlateModel::MindlinAfw { scaled, .. } => scaled,
            PlateModel::Kirchhoff(m) => m.system(),
            PlateModel::KirchhoffC1(m) => m.system(),
            PlateModel::LaminatedKirchhoff(m) => m.system(),
            PlateModel::LaminatedMindlin(m) => m.system(),
            PlateModel::MindlinBjt { model, .. } => model.system(),
            PlateModel::ThermoKirchhoff(m) => m.system(),
        }
    }
    /// The triangle mesh (BJT: the triangulated rectangle of its grid).
    pub fn mesh(&self) -> &Mesh2d {
        match self {
            PlateModel::KirchhoffC1(m) => m.velocity_space().mesh(),
            PlateModel::MindlinAfw { model, .. } => model.dg_space().mesh(),
            PlateModel::MindlinBjt { mesh, .. } => mesh,
            _ => self
                .lagrange_velocity_space()
                .map(|s| s.mesh())
                .expect("Lagrange velocity"),
        }
    }
    /// The $CG_k$ space of the vertical velocity (all but the Bell/Argyris plates).
    fn lagrange_velocity_space(&self) -> Option<&Space2d> {
        match self {
            PlateModel::Mindlin(m) => Some(m.space(PlateField::Velocity)),
            PlateModel::Kirchhoff(m) => Some(m.velocity_space()),
            PlateModel::ThermoKirchhoff(m) => Some(m.plate().velocity_space()),
            PlateModel::KirchhoffC1(_)
            | PlateModel::MindlinAfw { .. }
            | PlateModel::MindlinBjt { .. } => None,
            PlateModel::LaminatedKirchhoff(m) => Some(m.velocity_space()),
            PlateModel::LaminatedMindlin(m) => Some(m.velocity_space()),
        }
    }
    /// Vertical velocity of state `e` at the points `pts`.
    pub fn velocity_at(&self, e: &[f64], pts: &[[f64; 2]]) -> Result<Vec<f64>, Fem2dError> {
        if let PlateModel::KirchhoffC1(m) = self {
            let w = m.velocity_coefficients(e)?;
            return pts
                .iter()
                .map(|p| m.velocity_space().evaluate(&w, *p).map(|v| v[0]))
                .collect();
        }
        if let PlateModel::MindlinBjt { model, .. } = self {
            return model.velocity_at(e, pts);
        }
        if let PlateModel::MindlinAfw { model, d, .. } = self {
            let w = afw_block(model, d, e, 0);
            return pts
                .iter()
                .map(|p| model.dg_space().evaluate(&w, *p).map(|(v, _)| v[0]))
                .collect();
        }
        let w = match self {
            PlateModel::Mindlin(m) => m.field_coefficients(e, PlateField::Velocity)?,
            PlateModel::Kirchhoff(m) => m.field_coefficients(e, KirchhoffField::Velocity)?,
            PlateModel::ThermoKirchhoff(m) => m
                .plate()
                .field_coefficients(&thermo_plate_state(m, e), KirchhoffField::Velocity)?,
            PlateModel::LaminatedKirchhoff(m) => {
                m.field_coefficients(e, LaminatedField::Velocity)?
            }
            PlateModel::LaminatedMindlin(m) => m.field_coefficients(e, LaminatedField::Velocity)?,
            PlateModel::KirchhoffC1(_)
            | PlateModel::MindlinAfw { .. }
            | PlateModel::MindlinBjt { .. } => {
                unreachable!("handled above")
            }
        };
        let sw = self.lagrange_velocity_space().expect("Lagrange velocity");
        pts.iter()
            .map(|p| sw.evaluate(&w, *p).map(|(v, _)| v[0]))
            .collect()
    }
    /// Bending stiffness $D$ and surface density $\rho h$ (isotropic estimate for the shift).
    fn stiffness_and_density(&self) -> (f64, f64) {
        match self {
            PlateModel::Mindlin(m) => {
                let p = m.params();
                (p.bending_stiffness(), p.rho * p.h)
            }
            PlateModel::MindlinAfw { model, .. } => {
                let p = model.params();
                (p.bending_stiffness(), p.rho * p.h)
            }
            PlateModel::Kirchhoff(m) => {
                let v = m.params().stiffness.voigt();
                (v[0][0].max(v[1][1]), m.params().surface_density())
            }
            PlateModel::KirchhoffC1(m) => {
                let v = m.params().stiffness.voigt();
                (v[0][0].max(v[1][1]), m.params().surface_density())
            }
            PlateModel::ThermoKirchhoff(m) => {
                let v = m.plate().params().stiffness.voigt();
                (v[0][0].max(v[1][1]), m.plate().params().surface_density())
            }
            PlateModel::LaminatedKirchhoff(m) => laminate_scale(m.laminate()),
            PlateModel::LaminatedMindlin(m) => laminate_scale(m.laminate()),
            PlateModel::MindlinBjt { model, .. } => model.stiffness_and_density(),
        }
    }
}

/// Block `b` of the AFW state in original variables: `b = 0` the $DG_{k-1}$ coefficients of
/// $e_w$, `b = 1, 2` those of $e_{\theta,x}$, $e_{\theta,y}$ (the first three blocks of
/// $DG_{k-1}$ size are never reduced: clamping is natural in the AFW form).
pub(super) fn afw_block(model: &MindlinAfwModel, d: &[f64], e: &[f64], b: usize) -> Vec<f64> {
    let nd = model.dg_space().n_dofs();
    (b * nd..(b + 1) * nd).map(|i| d[i] * e[i]).collect()
}

/// The plate-sized state holding the velocity block `e_w` of a thermoelastic plate state
/// (moments zero): what the plate's velocity evaluation needs.
pub(super) fn thermo_plate_state(m: &ThermoKirchhoffModel, e: &[f64]) -> Vec<f64> {
    let plate = m.plate().system();
    let mut ep = vec![0.0; plate.n_states()];
    if let (Some(to), Some(from)) = (plate.block_range("e_w"), m.system().block_range("e_w")) {
        ep[to].copy_from_slice(&e[from]);
    }
    ep
}

/// $\max(D_{11}, D_{22})$ and $I_0$ of a laminate.
fn laminate_scale(l: &Laminate) -> (f64, f64) {
    let d = l.d();
    (d[0][0].max(d[1][1]), l.inertia()[0])
}

/// A parsed and built plate model.
pub struct BuiltPlate {
    /// Model name.
    pub name: String,
    /// The assembled model.
    pub model: PlateModel,
    /// Inputs of every port.
    pub input: InputFn,
    /// Initial state.
    pub initial: Vec<f64>,
    /// Velocity probes: name and point.
    pub probes: Vec<(String, [f64; 2])>,
    /// Extent of the mesh \[m\].
    pub lx: f64,
    /// Extent of the mesh \[m\].
    pub ly: f64,
}

impl BuiltPlate {
    /// The pH system.
    pub fn system(&self) -> &LinearPhSystem {
        self.model.system()
    }

    /// Eigensolver settings for the `n` lowest modes. The shift is the fundamental
    /// frequency of the simply supported Kirchhoff plate of the same size,
    /// $\pi^2(1/l_x^2 + 1/l_y^2)\sqrt{D/\rho h}$ (clamping and shear raise or lower it
    /// by a factor of order one, so the lowest modes are the nearest to the shift); the
    /// large kernel of $J$ (self-equilibrated stress fields) gives round-off eigenvalues,
    /// which are rejected below $10^{-3}$ of the spectral radius. That cluster converges
    /// slowly, so the Ritz tolerance is $10^{-6}$: the lowest modes are then accurate to
    /// ~1e-8 and the higher ones of the six to ~1e-5 (measured against other shifts on
    /// a 20 × 20 Mindlin plate), which also bounds the printed damping ratios of a lossless
    /// plate.
    pub fn eigen_params(&self, n: usize) -> EigenParams {
        let (d, rho_h) = self.model.stiffness_and_density();
        let shift = std::f64::consts::PI.powi(2)
            * (1.0 / (self.lx * self.lx) + 1.0 / (self.ly * self.ly))
            * (d / rho_h).sqrt();
        EigenParams {
            n_modes: Some(n),
            shift: Some(shift),
            max_krylov: Some((20 * n + 100).max(400)),
            zero_tol: 1e-3,
            tol: 1e-6,
            ..Default::default()
        }
    }
}
