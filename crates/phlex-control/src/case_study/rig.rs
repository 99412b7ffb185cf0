//! The structural models of the virtual test rig (thesis 002 §5.2–§5.4):
//! the lumped shear frame and the floating-frame finite-element frame, each
//! with the pendulum either hinged (the control configuration) or locked by
//! its motor (the hammer-test configuration, see [`super`]).
//!
//! * lumped model: story stiffness `kᵢ = 24EJ/Lᵢ³`, rigid floors
//!   ([`crate::case_study::frame::FrameParams`], eqs. (5.57)–(5.62));
//! * floating-frame model (§5.4): the columns of each story (two per story,
//!   moving together under the guided floors, so modelled as one column of
//!   twice the section) as planar beam elements in one floating body whose
//!   reference frame is held by a revolute joint and a rotation driver at the
//!   base; external constraints as in thesis eqs. (5.91)–(5.100): clamped
//!   base, inextensible columns (axial coordinates removed), zero rotation at
//!   the floors; floors as point masses; the pendulum a rigid body hinged to
//!   the top node (revolute joint), linearised about the hanging pendulum by
//!   [`crate::multibody::linearize()`].
//!
//! Damping: modal, `R = M Φ diag(2ξₖωₖ) Φᵀ M` (`ΦᵀMΦ = I`), with the
//! ratios the thesis identified for the real frame (ERA/DC-OKID table,
//! summary §5.4: 0.0395, 0.0030, 0.0042) on the three sway modes.

use crate::case_study::frame::FrameParams;
use crate::error::{ControlError, Result};
use crate::linalg::diag;
use crate::model::mdof::{undamped_modes, Mdof};
use crate::model::state_space::{OutputMaps, StateSpace};
use crate::multibody::euler_parameters::from_axis_angle;
use crate::multibody::BodyId;
use crate::multibody::{
    linearize, Anchor, BodyPoint, Direction, FfrBeam, MultibodySystem, NodalDof,
    ReferenceConditions, RevoluteJoint, RigidBody, RotationDriver,
};
use faer::Mat;
use std::f64::consts::PI;

/// Density of the harmonic-steel columns (kg/m³, thesis §5.2).
pub const STEEL_DENSITY: f64 = 7860.0;

/// Damping ratios of the three sway modes identified on the real frame by
/// ERA/DC-OKID (thesis table of §5.5, summary §5.4).
pub const IDENTIFIED_DAMPING: [f64; 3] = [0.0395, 0.0030, 0.0042];

/// Pendulum state during a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pendulum {
    /// held by the motor at rest relative to floor 3: a rigid mass `m₄` on floor 3
    Locked,
    /// free to swing about its pivot (linearised about the hanging position)
    Hinged,
}

/// A linear structural model with force inputs on the three floors and the
/// floor displacements as linear functions of its coordinates.
#[derive(Clone, Debug)]
pub struct Structure {
    /// short description
    pub name: String,
    /// `M ẍ + R ẋ + K x = B f`, `f` = horizontal forces on floors 1–3
    pub model: Mdof,
    /// floor displacements `x_floor = S x` (`3 × n_dof`)
    pub floors: Mat<f64>,
    /// index of the pendulum angle coordinate (hinged lumped model only;
    /// in the floating-frame model the angle is a combination of the coordinates)
    pub pendulum: Option<usize>,
}

/// The floating-frame mechanism of §5.4 in its reference configuration, before
/// linearisation: the columns of each story as planar beam elements in one floating body
/// (`frame`) held by a revolute joint and a rotation driver at the base, the floors as
/// point masses, and with [`Pendulum::Hinged`] the pendulum hinged to the top node and
/// hanging (see the module documentation).
pub struct FrameMechanism {
    /// the multibody system
    pub system: MultibodySystem,
    /// the reference configuration (pendulum hanging)
    pub q0: Vec<f64>,
    /// the frame body
    pub frame: BodyId,
    /// the coordinates of the horizontal floor displacements, floors 1–3
    pub floor_coords: Vec<usize>,
    /// the floor nodes, floors 1–3
    pub floor_points: Vec<BodyPoint>,
}

impl FrameMechanism {
    /// The mechanism with `ne ≥ 1` elements per story; `mass_scale` multiplies the column
    /// mass (0 gives the massless columns of the lumped model; a tiny positive value keeps
    /// `M` invertible).
    pub fn new(p: &FrameParams, ne: usize, mass_scale: f64, pendulum: Pendulum) -> Result<Self> {
        if ne == 0 {
            return Err(ControlError::InvalidParameter {
                name: "ne".into(),
                reason: "need at least one element per story".into(),
            });
        }
        if !(mass_scale > 0.0 && mass_scale.is_finite()) {
            return Err(ControlError::InvalidParameter {
                name: "mass_scale".into(),
                reason: format!("must satisfy 0 < mass_scale < ∞ (got {mass_scale}); use a tiny value for massless columns"),
            });
        }
        let area = p.b * p.h;
        let rho_a = 2.0 * STEEL_DENSITY * area * mass_scale;
        let (ea, ei) = (2.0 * p.E * area, 2.0 * p.E * p.J());
        let mut nodes = vec![[0.0, 0.0]];
        let mut y = 0.0;
        for l in p.L {
            for k in 1..=ne {
                nodes.push([0.0, y + l * k as f64 / ne as f64]);
            }
            y += l;
        }
        let mut fb = FfrBeam::new(nodes.clone());
        for e in 0..3 * ne {
            fb = fb.element(e, e + 1, rho_a, ea, ei);
        }
        let mut removed = vec![(0, NodalDof::U), (0, NodalDof::Rotation)];
        for n in 0..nodes.len() {
            removed.push((n, NodalDof::V));
        }
        for s in 1..=3 {
            removed.push((s * ne, NodalDof::Rotation));
        }
        let mut masses = p.m;
        if pendulum == Pendulum::Locked {
            masses[2] += p.m4;
        }
        for (s, m) in masses.iter().enumerate() {
            fb = fb.point_mass((s + 1) * ne, *m);
        }
        let frame_body = fb
            .reference(ReferenceConditions::Custom(removed))
            .build("frame")?;
        let layout = frame_body
            .layout()
            .ok_or_else(|| ControlError::InvalidParameter {
                name: "frame".into(),
                reason: "beam layout missing".into(),
            })?;
        let floor_idx: Vec<usize> = (1..=3)
            .map(|s| {
                layout
                    .free_index(s * ne, NodalDof::U)
                    .map(|i| 7 + i)
                    .ok_or_else(|| ControlError::InvalidParameter {
                        name: "frame".into(),
                        reason: format!("floor node {} has no horizontal coordinate", s * ne),
                    })
            })
            .collect::<Result<_>>()?;
        let floor_points: Vec<BodyPoint> = (1..=3)
            .map(|s| frame_body.node_point(s * ne))
            .collect::<Result<_>>()?;
        let top = floor_points[2].clone();
        let mut sys = MultibodySystem::new();
        sys.set_gravity([0.0, -p.g, 0.0]);
        let frame = sys.add_body(frame_body);
        sys.add_joint(RevoluteJoint::ground_z(
            "base",
            frame,
            BodyPoint::fixed([0.0; 3]),
            [0.0; 3],
        ))?;
        sys.add_joint(RotationDriver::new("lock", frame, |_t| [0.0; 3]))?;
        let mut q0 = sys.initial_coordinates();
        if pendulum == Pendulum::Hinged {
            let pend = sys.add_body(
                RigidBody::principal(p.m4, [1e-9, p.Izz, p.Izz])
                    .com([p.L4, 0.0, 0.0])
                    .build("pendulum")?,
            );
            sys.add_joint(RevoluteJoint::new(
                "pivot",
                Anchor::body(pend, BodyPoint::fixed([0.0; 3])),
                Anchor::body(frame, top),
                Direction::Body {
                    body: pend,
                    axis: [0.0, 0.0, 1.0],
                },
                [
                    Direction::Body {
                        body: frame,
                        axis: [1.0, 0.0, 0.0],
                    },
                    Direction::Body {
                        body: frame,
                        axis: [0.0, 1.0, 0.0],
                    },
                ],
            ))?;
            q0 = sys.initial_coordinates();
            sys.set_pose(
                &mut q0,
                pend,
                [0.0, y, 0.0],
                from_axis_angle([0.0, 0.0, 1.0], -0.5 * PI),
            );
        }
        Ok(Self {
            system: sys,
            q0,
            frame,
            floor_coords: floor_idx,
            floor_points,
        })
    }
}

impl Structure {
    /// Lumped shear frame (§5.3). `Locked`: 3 DOF, floor 3 carries `m₃ + m₄`;
    /// `Hinged`: the linearised 4-DOF model `[x₁, x₂, x₃, φ]` of eq. (5.60).
    pub fn lumped(p: &FrameParams, pendulum: Pendulum) -> Result<Self> {
        match pendulum {
            Pendulum::Locked => {
                let mut m = p.m;
                m[2] += p.m4;
                let M = diag(&m);
                let K = p.floor_stiffness();
                let B = crate::linalg::eye(3);
                Ok(Self {
                    name: "lumped shear frame, pendulum locked".into(),
                    model: Mdof::undamped(M, K, B.clone())?,
                    floors: B,
                    pendulum: None,
                })
            }
            Pendulum::Hinged => {
                let lin = p.lumped_linear()?;
                let B = Mat::from_fn(4, 3, |i, j| (i == j) as u8 as f64);
                let S = Mat::from_fn(3, 4, |i, j| (i == j) as u8 as f64);
                Ok(Self {
                    name: "lumped frame with hinged pendulum".into(),
                    model: Mdof::undamped(lin.M, lin.K, B)?,
                    floors: S,
                    pendulum: Some(3),
                })
            }
        }
    }

    /// Floating-frame finite-element frame (§5.4) with `ne ≥ 1` elements per
    /// story, linearised about the hanging pendulum ([`FrameMechanism`] and
    /// [`crate::multibody::linearize()`]); `mass_scale` multiplies the column mass.
    pub fn floating_frame(
        p: &FrameParams,
        ne: usize,
        mass_scale: f64,
        pendulum: Pendulum,
    ) -> Result<Self> {
        let FrameMechanism {
            system: sys,
            q0,
            frame,
            floor_coords: floor_idx,
            floor_points,
        } = FrameMechanism::new(p, ne, mass_scale, pendulum)?;
        let lin = linearize(&sys, 0.0, &q0)?;
        if !(lin.equilibrium_residual < 1e-8) {
            return Err(ControlError::InvalidParameter {
                name: "frame".into(),
                reason: format!(
                    "reference configuration is not an equilibrium (residual {:.3e})",
                    lin.equilibrium_residual
                ),
            });
        }
        let T = &lin.basis;
        let nd = T.ncols();
        let S = Mat::from_fn(3, nd, |i, j| T[(floor_idx[i], j)]);
        // horizontal floor forces: generalized forces Lᵀ F of point forces
        let n = sys.n_coords();
        let mut B = Mat::<f64>::zeros(nd, 3);
        for (s, pt) in floor_points.iter().enumerate() {
            let mut g = vec![0.0; n];
            let r = sys.body_range(frame);
            sys.body(frame)
                .add_point_force(&q0[r.clone()], pt, [1.0, 0.0, 0.0], &mut g[r]);
            for j in 0..nd {
                B[(j, s)] = (0..n).map(|i| T[(i, j)] * g[i]).sum();
            }
        }
        let model = Mdof::new(lin.model.M, lin.model.R, lin.model.K, B)?;
        Ok(Self {
            name: format!(
                "floating-frame FE frame, {ne} elements per story, pendulum {}",
                match pendulum {
                    Pendulum::Locked => "locked",
                    Pendulum::Hinged => "hinged",
                }
            ),
            model,
            floors: S,
            pendulum: None,
        })
    }

    /// Undamped natural frequencies (Hz), ascending, from the well-conditioned
    /// flexibility form (`K = L_K L_Kᵀ`, eigenvalues `1/ω²` of `L_K⁻¹ M L_K⁻ᵀ`).
    pub fn frequencies(&self) -> Result<Vec<f64>> {
        flexibility_frequencies(&self.model.M, &self.model.K)
    }

    /// Replaces the damping by modal damping: ratios `xi[k]` on the first
    /// modes, `xi_rest` on the others.
    pub fn with_modal_damping(mut self, xi: &[f64], xi_rest: f64) -> Result<Self> {
        self.model.R = modal_damping(&self.model, xi, xi_rest)?;
        Ok(self)
    }

    /// Continuous state-space model from the force on floor `floor` (0-based)
    /// to the three floor accelerations.
    pub fn accelerometers(&self, floor: usize) -> Result<StateSpace> {
        if floor > 2 {
            return Err(ControlError::InvalidParameter {
                name: "floor".into(),
                reason: format!("floors are 0, 1, 2 (got {floor})"),
            });
        }
        let n = self.model.n_dof();
        let mut sys = self.model.clone();
        sys.B = Mat::from_fn(n, 1, |i, _| self.model.B[(i, floor)]);
        let out = OutputMaps {
            Cd: Mat::zeros(3, n),
            Cv: Mat::zeros(3, n),
            Ca: self.floors.clone(),
        };
        StateSpace::from_mdof(&sys, &out)
    }
}

/// Undamped natural frequencies (Hz), ascending, of `M ẍ + K x = 0` from the
/// well-conditioned flexibility form: `K = L_K L_Kᵀ`, eigenvalues `1/ω²` of
/// `L_K⁻¹ M L_K⁻ᵀ` (also with nearly massless coordinates, where `L_M⁻¹ K L_M⁻ᵀ` loses
/// the low modes; the modes of zero mass, `1/ω² ≤ 10⁻¹⁴ max`, are left out).
pub fn flexibility_frequencies(M: &Mat<f64>, K: &Mat<f64>) -> Result<Vec<f64>> {
    let L = crate::linalg::cholesky("K", K.as_ref())?;
    let Li = crate::linalg::inv("L_K", L.as_ref())?;
    let S = crate::linalg::sym((&Li * M * Li.transpose()).as_ref());
    let (mu, _) = crate::linalg::sym_eig("flexibility", S.as_ref())?;
    let top = mu.iter().copied().fold(0.0, f64::max);
    let mut f: Vec<f64> = mu
        .iter()
        .filter(|&&m| m > 1e-14 * top)
        .map(|&m| 1.0 / (2.0 * PI * m.sqrt()))
        .collect();
    f.sort_by(|a, b| a.total_cmp(b));
    Ok(f)
}

/// Modal damping `R = M Φ diag(2ξₖωₖ) Φᵀ M` (`ΦᵀMΦ = I`): ratio `xi[k]` on
/// mode `k`, `xi_rest` on the modes beyond `xi.len()`.
pub fn modal_damping(sys: &Mdof, xi: &[f64], xi_rest: f64) -> Result<Mat<f64>> {
    for &z in xi.iter().chain(std::iter::once(&xi_rest)) {
        if !(z >= 0.0 && z.is_finite()) {
            return Err(ControlError::InvalidParameter {
                name: "damping ratio".into(),
                reason: format!("must be ≥ 0 (got {z})"),
            });
        }
    }
    let modes = undamped_modes(sys.M.as_ref(), sys.K.as_ref())?;
    let n = sys.n_dof();
    let MP = &sys.M * &modes.shapes;
    let d: Vec<f64> = (0..n)
        .map(|k| 2.0 * xi.get(k).copied().unwrap_or(xi_rest) * modes.omega[k])
        .collect();
    let R = &MP * diag(&d) * MP.transpose();
    Ok(crate::linalg::sym(R.as_ref()))
}
