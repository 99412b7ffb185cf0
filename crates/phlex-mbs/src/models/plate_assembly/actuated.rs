//! A Kirchhoff plate with lumped components attached at points (thesis 004 §10.2.2,
//! eqs. (10.14), (10.16), (10.17) and the transformer interconnections below them).
//!
//! Each component $A_i$ (port $u_{A_i} = (F, T_x, T_y)$, output its attachment velocities)
//! is joined to the plate point port $P_i$ by the power-preserving transformer
//! $$u_{P_i} = -u_{A_i},\qquad y_{A_i} = y_{P_i},$$
//! built with [`phlex_core::interconnect::transformer`] ($C = I_3$): $\lambda_i = u_{A_i}$
//! (the force and torques the plate exerts on the component) becomes an index-2
//! multiplier, and with $B_{P_i}$ the point-port columns of the plate and $B_{A_i} = \[I_3;0\]$
//! the coupled system is
//! $$\begin{bmatrix}E_P & & \\ & E_A & \\ & & 0\end{bmatrix}\dot{\begin{pmatrix}e_P\\e_A\\\lambda\end{pmatrix}}
//! = \begin{bmatrix}J_P & 0 & -B_P\\ 0 & J_A - R_A & B_A\\ B_P^\top & -B_A^\top & 0\end{bmatrix}
//! \begin{pmatrix}e_P\\e_A\\\lambda\end{pmatrix},$$
//! i.e. $E = \operatorname{diag}(M, 0)$ as in the thesis. The constraint row states
//! $B_A^\top e_A = B_P^\top e_P$ (the component moves with the plate point).
use faer::Mat;
use phlex_core::interconnect::Composite;
use phlex_core::LinearPhSystem;
use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::plate::{KirchhoffHhj, KirchhoffModel, KirchhoffParams};
use phlex_solve::eigen::{modes, EigenMethod, EigenParams, EigenResult};

use super::lumped::{LumpedComponent, ProofMassActuator, RigidAttachment};
use super::point_port::{with_point_ports, DeltaApprox, PointPort};
use super::PlateAssemblyError;

/// Eigenfrequencies of the Table 10.6 test bench \[Hz\] (thesis 004 Fig. 10.13): first
/// bending, first and second actuator, first torsion, second bending, second torsion.
pub const TABLE_10_6_HZ: [f64; 6] = [10.21, 32.82, 34.89, 47.30, 64.41, 118.09];

/// A lumped component attached to the plate at a point.
#[derive(Debug, Clone, PartialEq)]
pub struct PointComponent {
    /// Name (prefix of its blocks and of its multiplier block `lambda_{name}`).
    pub name: String,
    /// Attachment point in plate mesh coordinates \[m\].
    pub at: [f64; 2],
    /// The component.
    pub component: LumpedComponent,
}

/// A plate with point-attached components: one [`LinearPhSystem`] with blocks
/// `plate.e_w`, `plate.E_kappa` (and the plate's multiplier blocks), `{name}.casing`,
/// `{name}.proof_mass`, `{name}.spring` (actuators) or `{name}.body` (rigid bodies), and
/// `lambda_{name}` (the force and torques on each component).
#[derive(Debug, Clone)]
pub struct ActuatedPlate {
    /// The coupled system (ports: those of the plate not used by a component, prefixed
    /// `plate.`).
    pub system: LinearPhSystem,
    /// The plate model (its states are the first `plate.n_states()` of the system).
    pub plate: KirchhoffModel,
    /// The components, in assembly order.
    pub components: Vec<PointComponent>,
    /// The Dirac approximation of the point ports.
    pub delta: DeltaApprox,
}

/// Couples `components` to `plate` at their points (module docs). Names must be distinct
/// and must not clash with the plate's ports.
pub fn assemble_point_components(
    plate: &KirchhoffModel,
    components: &[PointComponent],
    delta: DeltaApprox,
) -> Result<ActuatedPlate, PlateAssemblyError> {
    let mut names: Vec<&str> = components.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(PlateAssemblyError::DuplicateName(w[0].into()));
    }
    let ports: Vec<PointPort> = components
        .iter()
        .map(|c| PointPort {
            name: c.name.clone(),
            at: c.at,
        })
        .collect();
    let ps = with_point_ports(plate, &ports, delta)?;
    let mut comp = Composite::new().add("plate", &ps)?;
    for c in components {
        comp = comp.add(&c.name, &c.component.system(&c.name)?)?;
    }
    let I3 = Mat::<f64>::identity(3, 3);
    for c in components {
        comp = comp.transformer(
            &format!("plate.{}", c.name),
            &format!("{}.u", c.name),
            &I3,
            &format!("lambda_{}", c.name),
        )?;
    }
    Ok(ActuatedPlate {
        system: comp.build()?,
        plate: plate.clone(),
        components: components.to_vec(),
        delta,
    })
}

impl ActuatedPlate {
    /// The lowest `n_modes` eigenfrequencies \[Hz\] of $E\dot x = (J - R)x$
    /// (shift-and-invert Arnoldi, [`phlex_solve::eigen::modes`]) and the full result.
    /// `shift` \[rad/s\] should be of the order of the lowest pulsation.
    pub fn modes(&self, n_modes: usize, shift: f64) -> Result<EigenResult, PlateAssemblyError> {
        Ok(modes(
            &self.system,
            &EigenParams {
                n_modes: Some(n_modes),
                method: EigenMethod::ShiftInvert,
                shift: Some(shift),
                tol: 1e-9,
                // the HHJ J has a large kernel (self-equilibrated moments): reject the
                // round-off images of its zero eigenvalues
                zero_tol: 1e-6,
                ..Default::default()
            },
        )?)
    }

    /// Index range of a named block of the coupled system.
    pub fn block(&self, name: &str) -> Result<std::ops::Range<usize>, PlateAssemblyError> {
        self.system
            .block_range(name)
            .ok_or_else(|| PlateAssemblyError::MissingPlateItem {
                context: "actuated plate".into(),
                what: "variable block".into(),
                name: name.into(),
                available: self
                    .system
                    .blocks
                    .iter()
                    .map(|b| b.name.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// The plate part of a state of the coupled system.
    pub fn plate_state<'a>(&self, x: &'a [f64]) -> &'a [f64] {
        &x[..self.plate.n_states()]
    }
}

/// The Table 10.6 test bench (thesis 004 §10.2.2): aluminium plate $\rho = 2692$ kg/m³,
/// $E = 69$ GPa, $\nu = 0.33$, $L_x = 4$ cm, $L_y = 28$ cm, $h = 3$ mm, meshed on
/// $[-L_x/2, L_x/2] \times [0, L_y]$ (the printed positions have $x$ centred), clamped at
/// $y = 0$ (tag `bottom`), free elsewhere; actuators at $(-1, 25)$ cm and $(1, 10.5)$ cm,
/// mirror at $(0, 28)$ cm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Table106 {
    /// Elements along $x$ (thesis: 8).
    pub nx: usize,
    /// Elements along $y$ (thesis: 60).
    pub ny: usize,
    /// HHJ degree $k$ ($CG_k$ velocity).
    pub degree: usize,
    /// Mesh diagonal.
    pub diagonal: Diagonal,
}

impl Table106 {
    /// Plate width $L_x$ \[m\].
    pub const LX: f64 = 0.04;
    /// Plate length $L_y$ \[m\].
    pub const LY: f64 = 0.28;

    /// The thesis mesh: 8 × 60, degree 2.
    pub fn thesis() -> Self {
        Self {
            nx: 8,
            ny: 60,
            degree: 2,
            diagonal: Diagonal::Right,
        }
    }

    /// Plate material.
    pub fn params() -> Result<KirchhoffParams, PlateAssemblyError> {
        KirchhoffParams::isotropic(69e9, 0.33, 2692.0, 0.003)
            .map_err(|e| PlateAssemblyError::Fem(e.into()))
    }

    /// Half-widths $(h_x, h_y)$ of the actuator footprint: the mesh sizes of the thesis
    /// mesh (8 × 60), kept fixed when the mesh is refined so that the point loads have a
    /// physical size (a point torque is not defined on a Kirchhoff plate: $\nabla w \in H^1$
    /// has no point values in 2D, and the exact point evaluation does not converge).
    pub const FOOTPRINT: (f64, f64) = (Self::LX / 8.0, Self::LY / 60.0);

    /// The $\delta$ that reproduces Table 10.6: the box of eq. (10.13) with the thesis
    /// half-widths [`Self::FOOTPRINT`], normalised to unit weight inside the plate
    /// ([`DeltaApprox::BoxClipped`]; it matters only for the mirror, on the edge $y = L_y$,
    /// whose box is half outside).
    pub fn delta() -> DeltaApprox {
        DeltaApprox::BoxClipped {
            hx: Self::FOOTPRINT.0,
            hy: Self::FOOTPRINT.1,
        }
    }

    /// The literal reading of eq. (10.13) on this mesh: $1/(4h_xh_y)$ with the mesh sizes,
    /// no renormalisation (the mirror keeps half its weight; its frequencies are 4–5 % off
    /// Table 10.6, see the tests).
    pub fn literal_box(&self) -> DeltaApprox {
        DeltaApprox::Box {
            hx: Self::LX / self.nx as f64,
            hy: Self::LY / self.ny as f64,
        }
    }

    /// The cantilever plate model.
    pub fn plate(&self) -> Result<KirchhoffModel, PlateAssemblyError> {
        let mesh = Mesh2d::rectangle(
            -0.5 * Self::LX,
            0.5 * Self::LX,
            0.0,
            Self::LY,
            self.nx,
            self.ny,
            self.diagonal,
        )?;
        Ok(KirchhoffHhj::new(Self::params()?, &mesh, self.degree)?
            .clamped("bottom")
            .build()?)
    }

    /// The two actuators (`act1`, `act2`) and the mirror (`mirror`) at their positions.
    pub fn components() -> Vec<PointComponent> {
        vec![
            PointComponent {
                name: "act1".into(),
                at: [-0.01, 0.25],
                component: LumpedComponent::Actuator(ProofMassActuator::table_10_6()),
            },
            PointComponent {
                name: "act2".into(),
                at: [0.01, 0.105],
                component: LumpedComponent::Actuator(ProofMassActuator::table_10_6()),
            },
            PointComponent {
                name: "mirror".into(),
                at: [0.0, 0.28],
                component: LumpedComponent::Rigid(RigidAttachment::table_10_6_mirror()),
            },
        ]
    }

    /// The assembled bench with the given $\delta$ approximation.
    pub fn build(&self, delta: DeltaApprox) -> Result<ActuatedPlate, PlateAssemblyError> {
        assemble_point_components(&self.plate()?, &Self::components(), delta)
    }
}

/// The Table 10.6 bench on `nx × ny` elements of degree `degree` with the footprint
/// $\delta$ [`Table106::delta`].
pub fn table_10_6(
    nx: usize,
    ny: usize,
    degree: usize,
) -> Result<ActuatedPlate, PlateAssemblyError> {
    let t = Table106 {
        nx,
        ny,
        degree,
        diagonal: Diagonal::Right,
    };
    t.build(Table106::delta())
}
