//! Timoshenko beam by PFEM (summary 004 §2.3, by analogy with the Mindlin plate §2.5;
//! thesis Remark 9).
//!
//! State (co-energies) $e = (\dot w, \dot\varphi, M, Q)$ with $M = EI\,\partial_x\varphi$,
//! $Q = kGA(\partial_x w - \varphi)$:
//! $\operatorname{diag}(\rho A, \rho I, (EI)^{-1}, (kGA)^{-1})\,\partial_t e =
//! \begin{bmatrix}0&0&0&\partial_x\\0&0&\partial_x&1\\0&\partial_x&0&0\\
//! \partial_x&-1&0&0\end{bmatrix} e$, $\dot H = \[\dot w Q + \dot\varphi M\]_0^L$; the end
//! force/moment applied to the beam are $(Q, M)$ at $L$ and $(-Q, -M)$ at 0.
//!
//! * **CG$_k$ velocities × DG$_{k-1}$ stresses** (IBP on lines 1–2, force inputs):
//!   $J_{Qw} = D_1$, $J_{M\varphi} = D_2$, $J_{Q\varphi} = -P$ and skew counterparts, with
//!   $D_1 = \langle\psi_Q, \partial_x\phi_w\rangle$, $D_2 = \langle\psi_M,
//!   \partial_x\phi_\varphi\rangle$, $P = \langle\psi_Q, \phi_\varphi\rangle$; columns of
//!   $(F, M)$ at an end: $(\phi_w, \phi_\varphi)(\text{end})$.
//! * **DG$_{k-1}$ velocities × CG$_k$ stresses** (IBP on lines 3–4, velocity inputs):
//!   $J_{wQ} = G_1$, $J_{\varphi M} = G_2$, $J_{\varphi Q} = P'$ and skew counterparts, with
//!   $G_1 = \langle\phi_w, \partial_x\psi_Q\rangle$, $G_2 = \langle\phi_\varphi,
//!   \partial_x\psi_M\rangle$, $P' = \langle\phi_\varphi, \psi_Q\rangle$; columns of
//!   $(\dot w, \dot\varphi)$: $\mp(\psi_Q, \psi_M)$ at 0 / $L$ ($-$ at 0).
use crate::assembly::line;
use crate::element::line::Family;
use crate::error::{require_positive, FemError};
use crate::mesh::interval::{End, Mesh1d};
use crate::models::beam::member::{end_port, mixed_name, Member, Section};
use crate::models::boundary::{Component, Kinematics, Quantity};
use crate::models::model::{
    open_loads, BlockAssembler, DistributedLoad, Field, OpenField, PfemModel, Profile,
};
use crate::space::line::Space1d;

/// PFEM discretization of the Timoshenko beam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimoshenkoDiscretization {
    /// CG$_k$ velocities × DG$_{k-1}$ moment and shear ($k$ = 1..3); force inputs.
    CgDg(usize),
    /// DG$_{k-1}$ velocities × CG$_k$ moment and shear ($k$ = 1..3); velocity inputs.
    DgCg(usize),
}

/// Parameters of a PFEM Timoshenko beam.
///
/// | field | symbol | unit |
/// |---|---|---|
/// | `rho_a` | $\rho A$ | kg/m |
/// | `rho_i` | $\rho I$ (rotary inertia per length) | kg m |
/// | `ei` | $EI$ | N m² |
/// | `kga` | $kGA$ (shear stiffness) | N |
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimoshenkoSection {
    /// Mass per unit length $\rho A$ \[kg/m\].
    pub rho_a: f64,
    /// Rotary inertia per unit length $\rho I$ \[kg m\].
    pub rho_i: f64,
    /// Bending stiffness $EI$ \[N m²\].
    pub ei: f64,
    /// Shear stiffness $kGA$ \[N\].
    pub kga: f64,
}

/// Builder of the PFEM Timoshenko beam (a [`Member`] with a [`TimoshenkoSection`]).
pub type Timoshenko = Member<TimoshenkoSection>;

impl Timoshenko {
    /// A CG1×DG0 beam on a uniform mesh, both ends open ports, strong BCs.
    pub fn new(rho_a: f64, rho_i: f64, ei: f64, kga: f64, length: f64, n_elements: usize) -> Self {
        Member::with_section(
            TimoshenkoSection {
                rho_a,
                rho_i,
                ei,
                kga,
            },
            TimoshenkoDiscretization::CgDg(1),
            length,
            n_elements,
        )
    }

    /// Adds a distributed moment port with profile $f(x)$.
    pub fn moment_load(mut self, name: impl Into<String>, profile: Profile) -> Self {
        self.loads.push(DistributedLoad {
            name: name.into(),
            field: Field::AngularVelocity,
            profile,
        });
        self
    }
}

impl Section for TimoshenkoSection {
    type Discretization = TimoshenkoDiscretization;

    fn validate(&self) -> Result<(), FemError> {
        require_positive("rho_a", self.rho_a)?;
        require_positive("rho_i", self.rho_i)?;
        require_positive("EI", self.ei)?;
        require_positive("kGA", self.kga)?;
        Ok(())
    }

    fn assemble(m: &Member<Self>, mesh: &Mesh1d) -> Result<PfemModel, FemError> {
        let (k, vel_cg) = match m.discretization {
            TimoshenkoDiscretization::CgDg(k) => (k, true),
            TimoshenkoDiscretization::DgCg(k) => (k, false),
        };
        let (fv, fs) = Family::mixed_pair(k, vel_cg, "Timoshenko CG degree k")?;
        let vw = Space1d::new(mesh, fv)?;
        let vp = vw.clone();
        let vm = Space1d::new(mesh, fs)?;
        let vq = vm.clone();
        let mut asm = BlockAssembler::new(&[vw.n_dofs(), vp.n_dofs(), vm.n_dofs(), vq.n_dofs()]);
        asm.line_mass(0, &vw, m.section.rho_a)?;
        asm.line_mass(1, &vp, m.section.rho_i)?;
        asm.line_mass(2, &vm, 1.0 / m.section.ei)?;
        asm.line_mass(3, &vq, 1.0 / m.section.kga)?;
        let mut ends = Vec::new();
        if vel_cg {
            asm.skew(3, 0, &line::derivative_coupling(&vq, &vw, 1)?, 1.0);
            asm.skew(2, 1, &line::derivative_coupling(&vm, &vp, 1)?, 1.0);
            asm.skew(3, 1, &line::derivative_coupling(&vq, &vp, 0)?, -1.0);
            for end in [End::Left, End::Right] {
                ends.push(end_port(
                    &asm,
                    end,
                    Component::Translation,
                    Quantity::Force,
                    0,
                    &vw,
                ));
                ends.push(end_port(
                    &asm,
                    end,
                    Component::Rotation,
                    Quantity::Force,
                    1,
                    &vp,
                ));
            }
        } else {
            asm.skew(0, 3, &line::derivative_coupling(&vw, &vq, 1)?, 1.0);
            asm.skew(1, 2, &line::derivative_coupling(&vp, &vm, 1)?, 1.0);
            asm.skew(1, 3, &line::derivative_coupling(&vp, &vq, 0)?, 1.0);
            for end in [End::Left, End::Right] {
                ends.push(end_port(
                    &asm,
                    end,
                    Component::Translation,
                    Quantity::Velocity,
                    3,
                    &vq,
                ));
                ends.push(end_port(
                    &asm,
                    end,
                    Component::Rotation,
                    Quantity::Velocity,
                    2,
                    &vm,
                ));
            }
        }
        let loads = open_loads(
            &m.loads,
            &[(Field::Velocity, &vw, 0), (Field::AngularVelocity, &vp, 1)],
            &asm,
            "Timoshenko",
        )?;
        let open = asm.open_model(
            mixed_name("Timoshenko", k, vel_cg),
            Kinematics::Bending,
            vec![
                OpenField::new(Field::Velocity, "e_w", "transverse velocity [m/s]", vw),
                OpenField::new(
                    Field::AngularVelocity,
                    "e_phi",
                    "rotation rate of the cross-section [rad/s]",
                    vp,
                ),
                OpenField::new(
                    Field::Moment,
                    "e_M",
                    "bending moment M = EI phi_x [N m]",
                    vm,
                ),
                OpenField::new(
                    Field::ShearForce,
                    "e_Q",
                    "shear force Q = kGA (w_x - phi) [N]",
                    vq,
                ),
            ],
            ends,
            loads,
        );
        open.finalize(m.left, m.right, m.imposition)
    }
}
