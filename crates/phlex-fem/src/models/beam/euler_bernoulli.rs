//! Euler–Bernoulli beam by PFEM (thesis 004 §6.1.4.1, §7.1; summary §2.3, §3.2).
//!
//! Co-energy form (thesis (6.59a)):
//! $\operatorname{diag}(\rho A, (EI)^{-1})\,\partial_t(e_w, e_\kappa) =
//! \begin{bmatrix}0 & -\partial_{xx}\\ \partial_{xx} & 0\end{bmatrix}(e_w, e_\kappa)$ with
//! $e_w = \partial_t w$ \[m/s\], $e_\kappa = EI\,\partial_{xx}w$ \[N m\], and
//! $\dot H = \[-e_w\partial_x e_\kappa + e_\kappa \partial_x e_w\]_0^L$. With the end forces
//! and moments applied to the beam, $F_L = -\partial_x e_\kappa(L)$, $M_L = e_\kappa(L)$,
//! $F_0 = \partial_x e_\kappa(0)$, $M_0 = -e_\kappa(0)$, this is
//! $\sum_{\text{ends}} F\dot w + M\dot\theta$ ($\dot\theta = \partial_x e_w$).
//!
//! Discretizations (state ordered $(e_w, e_\kappa)$, blocks `"e_w"`, `"e_kappa"`):
//!
//! * **HerDG1** (free causality, IBP twice on line 1): $e_w$ cubic Hermite, $e_\kappa$ DG1,
//!   $J = \begin{bmatrix}0 & -D^\top\\ D & 0\end{bmatrix}$,
//!   $D^{mi} = \langle\phi_\kappa^m, \partial_{xx}\phi_w^i\rangle$ (thesis (6.67)–(6.68)).
//!   $B$ is derived from the boundary term $\[\partial_x v_w e_\kappa - v_w\partial_x
//!   e_\kappa]_0^L = \sum_{\text{ends}} v_w F + \partial_x v_w M$: the columns for
//!   $(F, M)$ at an end are $(\phi_w, \partial_x\phi_w)$ evaluated there, outputs
//!   $(\dot w, \dot\theta)$. (Thesis (6.69) lists $(-\partial_x\phi_w(0),
//!   \partial_x\phi_w(L), -\phi_w(0), \phi_w(L))$ with inputs
//!   $(e_\kappa(0), e_\kappa(L), -\partial_xe_\kappa(0), -\partial_xe_\kappa(L))$, which is
//!   the same up to the sign of each input/output pair; the signed-trace notation (6.60)
//!   is inconsistent, summary §6.2.)
//! * **DG1Her** (clamped causality, IBP twice on line 2): $e_w$ DG1, $e_\kappa$ Hermite,
//!   $J = \begin{bmatrix}0 & -G\\ G^\top & 0\end{bmatrix}$,
//!   $G^{im} = \langle\phi_w^i, \partial_{xx}\phi_\kappa^m\rangle$ (thesis (6.72)–(6.73));
//!   from $\[v_\kappa\partial_x e_w - \partial_x v_\kappa e_w\]_0^L$ the columns for
//!   $(\dot w, \dot\theta)$ are $(-\partial_x\phi_\kappa(L), \phi_\kappa(L))$ at $L$ and
//!   $(\partial_x\phi_\kappa(0), -\phi_\kappa(0))$ at 0, outputs $(F, M)$ (thesis (6.74)).
//! * **CGCG(k)** (IBP once on each line, thesis (7.7) with its second line corrected to
//!   $-\langle\partial_x v_\kappa, \partial_x e_w\rangle$): both fields CG$_k$,
//!   $J = \begin{bmatrix}0 & K\\ -K^\top & 0\end{bmatrix}$,
//!   $K^{ij} = \langle\partial_x\phi_w^i, \partial_x\phi_\kappa^j\rangle$. Natural inputs
//!   are $(F, \dot\theta)$: columns $\phi_w(\text{end})$ and $\pm\phi_\kappa$ ($-$ at 0,
//!   $+$ at $L$), outputs $(\dot w, M)$.
//!
//! Derived fields: [`Field::AngularVelocity`] $= \partial_x e_w$, [`Field::ShearForce`]
//! $= -\partial_x e_\kappa$.
use crate::assembly::line;
use crate::element::line::Family;
use crate::error::{require_positive, FemError};
use crate::mesh::interval::{End, Mesh1d};
use crate::models::beam::member::{end_port, Member, Section};
use crate::models::boundary::{Component, Kinematics, Quantity};
use crate::models::model::{
    open_loads, BlockAssembler, Field, OpenEndTerm, OpenField, OpenModel, PfemModel,
};
use crate::space::line::Space1d;

/// PFEM discretization of the Euler–Bernoulli beam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EbDiscretization {
    /// Hermite velocity × DG1 moment; natural inputs: forces and moments.
    HerDg1,
    /// DG1 velocity × Hermite moment; natural inputs: velocities and angular velocities.
    Dg1Her,
    /// CG$_k$ × CG$_k$ ($k$ = 1..3); natural inputs: force and angular velocity.
    CgCg(usize),
}

impl EbDiscretization {
    /// Thesis name, e.g. `"HerDG1"`, `"CGCG2"`.
    pub fn name(&self) -> String {
        match self {
            EbDiscretization::HerDg1 => "HerDG1".into(),
            EbDiscretization::Dg1Her => "DG1Her".into(),
            EbDiscretization::CgCg(k) => format!("CGCG{k}"),
        }
    }
}

/// Parameters of a PFEM Euler–Bernoulli beam.
///
/// | field | symbol | unit |
/// |---|---|---|
/// | `rho_a` | $\rho A$ (mass per length) | kg/m |
/// | `ei` | $EI$ (bending stiffness) | N m² |
/// | `mesh` | $\[0, L\]$, elements | m |
///
/// Ports: `"left"`, `"right"` (see [`crate::models::boundary`]) and one per distributed load.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EbSection {
    /// Mass per unit length $\rho A$ \[kg/m\].
    pub rho_a: f64,
    /// Bending stiffness $EI$ \[N m²\].
    pub ei: f64,
}

/// Builder of the PFEM Euler–Bernoulli beam (a [`Member`] with a [`EbSection`]).
pub type EulerBernoulli = Member<EbSection>;

impl EulerBernoulli {
    /// A HerDG1 beam on a uniform mesh of `[0, length]`, both ends open ports, strong BCs.
    pub fn new(rho_a: f64, ei: f64, length: f64, n_elements: usize) -> Self {
        Member::with_section(
            EbSection { rho_a, ei },
            EbDiscretization::HerDg1,
            length,
            n_elements,
        )
    }
}

impl Section for EbSection {
    type Discretization = EbDiscretization;

    fn validate(&self) -> Result<(), FemError> {
        require_positive("rho_a", self.rho_a)?;
        require_positive("EI", self.ei)?;
        Ok(())
    }

    fn assemble(m: &Member<Self>, mesh: &Mesh1d) -> Result<PfemModel, FemError> {
        let (fw, fk) = match m.discretization {
            EbDiscretization::HerDg1 => (Family::Hermite, Family::Dg(1)),
            EbDiscretization::Dg1Her => (Family::Dg(1), Family::Hermite),
            EbDiscretization::CgCg(k) => (Family::Cg(k), Family::Cg(k)),
        };
        let vw = Space1d::new(mesh, fw)?;
        let vk = Space1d::new(mesh, fk)?;
        let mut asm = BlockAssembler::new(&[vw.n_dofs(), vk.n_dofs()]);
        asm.line_mass(0, &vw, m.section.rho_a)?;
        asm.line_mass(1, &vk, 1.0 / m.section.ei)?;
        let term = |end, component, natural, column| OpenEndTerm {
            end,
            component,
            natural,
            column,
        };
        // force input at an end: the trace of the velocity e_w (both velocity-CG/Hermite
        // discretizations)
        let shear_force_port = |asm: &BlockAssembler, end| {
            end_port(asm, end, Component::Translation, Quantity::Force, 0, &vw)
        };
        let mut ends = Vec::new();
        match m.discretization {
            EbDiscretization::HerDg1 => {
                let D = line::derivative_coupling(&vk, &vw, 2)?;
                asm.skew(1, 0, &D, 1.0);
                for end in [End::Left, End::Right] {
                    ends.push(shear_force_port(&asm, end));
                    ends.push(term(
                        end,
                        Component::Rotation,
                        Quantity::Force,
                        asm.embed(0, &vw.end_functional(end, 1)),
                    ));
                }
            }
            EbDiscretization::Dg1Her => {
                let G = line::derivative_coupling(&vw, &vk, 2)?;
                asm.skew(0, 1, &G, -1.0);
                for end in [End::Left, End::Right] {
                    let s = if end == End::Left { 1.0 } else { -1.0 };
                    ends.push(term(
                        end,
                        Component::Translation,
                        Quantity::Velocity,
                        asm.embed(1, &vk.end_functional(end, 1).scaled(s)),
                    ));
                    ends.push(term(
                        end,
                        Component::Rotation,
                        Quantity::Velocity,
                        asm.embed(1, &vk.end_functional(end, 0).scaled(-s)),
                    ));
                }
            }
            EbDiscretization::CgCg(_) => {
                let K = line::gradient_coupling(&vw, &vk)?;
                asm.skew(0, 1, &K, 1.0);
                for end in [End::Left, End::Right] {
                    ends.push(shear_force_port(&asm, end));
                    ends.push(end_port(
                        &asm,
                        end,
                        Component::Rotation,
                        Quantity::Velocity,
                        1,
                        &vk,
                    ));
                }
            }
        }
        let loads = open_loads(
            &m.loads,
            &[(Field::Velocity, &vw, 0)],
            &asm,
            "Euler-Bernoulli",
        )?;
        let open = OpenModel {
            derived: vec![
                (Field::AngularVelocity, Field::Velocity, 1, 1.0),
                (Field::ShearForce, Field::Moment, 1, -1.0),
            ],
            ..asm.open_model(
                format!("Euler-Bernoulli {}", m.discretization.name()),
                Kinematics::Bending,
                vec![
                    OpenField::new(Field::Velocity, "e_w", "transverse velocity e_w [m/s]", vw),
                    OpenField::new(
                        Field::Moment,
                        "e_kappa",
                        "bending moment e_kappa = EI w_xx [N m]",
                        vk,
                    ),
                ],
                ends,
                loads,
            )
        };
        open.finalize(m.left, m.right, m.imposition)
    }
}
