//! Axial bar / truss member by PFEM (the 1D wave equation of thesis 004 §2.2 in
//! structural variables; summary §3.3 "CG1 × DG0" for the Danilovskaya and multibody
//! bars).
//!
//! $\rho A\,\partial_t v = \partial_x N$, $(EA)^{-1}\partial_t N = \partial_x v$, with
//! $v$ the axial velocity \[m/s\] and $N = EA\,\partial_x u$ the normal force \[N\];
//! $\dot H = \[vN\]_0^L = \sum_{\text{ends}} F v$ with the end forces applied to the bar
//! $F_L = N(L)$, $F_0 = -N(0)$. State ordered $(e_v, e_N)$.
//!
//! * **CG$_k$×DG$_{k-1}$** (IBP on line 1, force inputs): $J = \begin{bmatrix}0 & -D^\top\\
//!   D & 0\end{bmatrix}$, $D^{mi} = \langle\psi_N^m, \partial_x\phi_v^i\rangle$; the column
//!   of $F$ at an end is $\phi_v(\text{end})$, output $v(\text{end})$.
//! * **DG$_{k-1}$×CG$_k$** (IBP on line 2, velocity inputs): $J = \begin{bmatrix}0 & G\\
//!   -G^\top & 0\end{bmatrix}$, $G^{im} = \langle\phi_v^i, \partial_x\psi_N^m\rangle$; the
//!   column of $v$ at an end is $-\psi_N(0)$ / $+\psi_N(L)$, output $F$.
//!
//! Boundary conditions: `Free` ($F = 0$), `Clamped` and `SimplySupported` (both $v = 0$).
use crate::assembly::line;
use crate::element::line::Family;
use crate::error::{require_positive, FemError};
use crate::mesh::interval::{End, Mesh1d};
use crate::models::beam::member::{end_port, mixed_name, Member, Section};
use crate::models::boundary::{Component, Kinematics, Quantity};
use crate::models::model::{open_loads, BlockAssembler, Field, OpenField, PfemModel};
use crate::space::line::Space1d;

/// PFEM discretization of the axial bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BarDiscretization {
    /// CG$_k$ velocity × DG$_{k-1}$ normal force ($k$ = 1..3); natural inputs: end forces.
    CgDg(usize),
    /// DG$_{k-1}$ velocity × CG$_k$ normal force ($k$ = 1..3); natural inputs: end
    /// velocities.
    DgCg(usize),
}

/// Parameters of a PFEM axial bar: `rho_a` $\rho A$ \[kg/m\], `ea` $EA$ \[N\].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BarSection {
    /// Mass per unit length $\rho A$ \[kg/m\].
    pub rho_a: f64,
    /// Axial stiffness $EA$ \[N\].
    pub ea: f64,
}

/// Builder of the PFEM axial bar (a [`Member`] with a [`BarSection`]).
pub type Bar = Member<BarSection>;

impl Bar {
    /// A CG1×DG0 bar on a uniform mesh, both ends open ports, strong BCs.
    pub fn new(rho_a: f64, ea: f64, length: f64, n_elements: usize) -> Self {
        Member::with_section(
            BarSection { rho_a, ea },
            BarDiscretization::CgDg(1),
            length,
            n_elements,
        )
    }
}

impl Section for BarSection {
    type Discretization = BarDiscretization;

    fn validate(&self) -> Result<(), FemError> {
        require_positive("rho_a", self.rho_a)?;
        require_positive("EA", self.ea)?;
        Ok(())
    }

    fn assemble(m: &Member<Self>, mesh: &Mesh1d) -> Result<PfemModel, FemError> {
        let (k, velocity_cg) = match m.discretization {
            BarDiscretization::CgDg(k) => (k, true),
            BarDiscretization::DgCg(k) => (k, false),
        };
        let (fv, fn_) = Family::mixed_pair(k, velocity_cg, "bar CG degree k")?;
        let vv = Space1d::new(mesh, fv)?;
        let vn = Space1d::new(mesh, fn_)?;
        let mut asm = BlockAssembler::new(&[vv.n_dofs(), vn.n_dofs()]);
        asm.line_mass(0, &vv, m.section.rho_a)?;
        asm.line_mass(1, &vn, 1.0 / m.section.ea)?;
        let ends: Vec<_> = if velocity_cg {
            let D = line::derivative_coupling(&vn, &vv, 1)?;
            asm.skew(1, 0, &D, 1.0);
            [End::Left, End::Right]
                .map(|end| end_port(&asm, end, Component::Translation, Quantity::Force, 0, &vv))
                .into()
        } else {
            let G = line::derivative_coupling(&vv, &vn, 1)?;
            asm.skew(0, 1, &G, 1.0);
            [End::Left, End::Right]
                .map(|end| {
                    end_port(
                        &asm,
                        end,
                        Component::Translation,
                        Quantity::Velocity,
                        1,
                        &vn,
                    )
                })
                .into()
        };
        let loads = open_loads(&m.loads, &[(Field::Velocity, &vv, 0)], &asm, "bar")?;
        let open = asm.open_model(
            mixed_name("bar", k, velocity_cg),
            Kinematics::Axial,
            vec![
                OpenField::new(Field::Velocity, "e_v", "axial velocity [m/s]", vv),
                OpenField::new(Field::NormalForce, "e_N", "normal force N = EA u_x [N]", vn),
            ],
            ends,
            loads,
        );
        open.finalize(m.left, m.right, m.imposition)
    }
}
