//! Laminated Mindlin plate: the CGDG Mindlin plate plus the $(CG_k)^2$ / $(DG_{k-1})_{\mathrm{sym}}$
//! membrane, coupled through the laminate compliance and the inertia $I_1$ (thesis 004
//! eqs. (4.52)–(4.56); formulation, sign convention and boundary conditions in
//! [`super::laminated`]).
use crate::assembly::triangle::{self, Op, Term};
use crate::error::Fem2dError;
use crate::mesh::triangle::{BoundaryEdge, Mesh2d};
use crate::space::triangle::{Family2d, Shape, Space2d};
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::Port;

use super::kirchhoff::{EdgeCondition, PlateProfile};
use super::laminated::{
    builder_conditions, cg_edge_dofs, shift_rows, Common, Laminate, LaminatedField, LaminatedModel,
    MembraneCondition, OpenPlate,
};
use super::mindlin::traction_input_matrices;

/// $\int\sum_{ab}Q_{ab}\,\phi_a\psi_b$ between two symmetric-tensor spaces (`Q` row-major).
fn tensor_mixed_mass(
    test: &Space2d,
    trial: &Space2d,
    Q: &[f64; 9],
) -> Result<SparseMat, Fem2dError> {
    let mut terms = Vec::new();
    for a in 0..3 {
        for b in 0..3 {
            if Q[3 * a + b] != 0.0 {
                terms.push(Term::new(a, Op::Value, b, Op::Value, Q[3 * a + b]));
            }
        }
    }
    if terms.is_empty() {
        return Ok(sparse::zeros(test.n_dofs(), trial.n_dofs()));
    }
    triangle::bilinear(test, trial, &terms)
}

/// Builder of the laminated Mindlin plate (CGDG of degree $k$ plus the membrane; module
/// docs).
#[derive(Debug, Clone)]
pub struct LaminatedMindlin {
    c: Common,
}

impl LaminatedMindlin {
    /// Degree `degree` = $k$, `1 <= k <= 3`; all edges free until conditions are given.
    pub fn new(laminate: Laminate, mesh: &Mesh2d, degree: usize) -> Result<Self, Fem2dError> {
        Ok(Self {
            c: Common::new(laminate, mesh, degree, "laminated Mindlin (CGDG)")?,
        })
    }

    builder_conditions!();

    /// Assembles the model.
    pub fn build(&self) -> Result<LaminatedMindlinModel, Fem2dError> {
        let c = &self.c;
        let k = c.degree;
        let mesh = &c.mesh;
        let lam = &c.laminate;
        let [I0, I1, I2] = lam.inertia();
        let (su, sw) = c.velocity_spaces()?;
        let sk = Space2d::new(mesh, Family2d::Dg(k - 1), Shape::SymTensor)?;
        let sg = Space2d::new(mesh, Family2d::Dg(k - 1), Shape::Vector)?;
        // blocks: u, w, θ, N, M, γ
        let sizes = [
            su.n_dofs(),
            sw.n_dofs(),
            su.n_dofs(),
            sk.n_dofs(),
            sk.n_dofs(),
            sg.n_dofs(),
        ];
        let mut off = [0usize; 6];
        for b in 1..6 {
            off[b] = off[b - 1] + sizes[b - 1];
        }
        let n_open: usize = sizes.iter().sum();
        let [Qnn, Qnm, Qmm] = lam.compliance_blocks();
        let mut Et = Triplets::new(n_open, n_open);
        Et.push_block(off[0], off[0], &triangle::mass(&su, I0)?, 1.0);
        Et.push_block(off[1], off[1], &triangle::mass(&sw, I0)?, 1.0);
        Et.push_block(off[2], off[2], &triangle::mass(&su, I2)?, 1.0);
        if I1 != 0.0 {
            let Mut = triangle::mass(&su, -I1)?;
            Et.push_block(off[0], off[2], &Mut, 1.0);
            Et.push_block_transpose(off[2], off[0], &Mut, 1.0);
        }
        Et.push_block(off[3], off[3], &triangle::mass_pointwise(&sk, &Qnn)?, 1.0);
        Et.push_block(off[4], off[4], &triangle::mass_pointwise(&sk, &Qmm)?, 1.0);
        if Qnm.iter().any(|&v| v != 0.0) {
            let Mnm = tensor_mixed_mass(&sk, &sk, &Qnm)?;
            Et.push_block(off[3], off[4], &Mnm, 1.0);
            Et.push_block_transpose(off[4], off[3], &Mnm, 1.0);
        }
        Et.push_block(
            off[5],
            off[5],
            &triangle::mass_pointwise(&sg, &lam.shear_compliance())?,
            1.0,
        );
        let mut Jt = Triplets::new(n_open, n_open);
        let mut skew = |r: usize, cc: usize, A: &SparseMat| {
            Jt.push_block(off[r], off[cc], A, 1.0);
            Jt.push_block_transpose(off[cc], off[r], A, -1.0);
        };
        // membrane: J_{N,u} = D_Grad; bending: J_{M,θ} = D_Grad, J_{γ,w} = D_grad, J_{γ,θ} = D0
        skew(3, 0, &triangle::sym_grad(&sk, &su)?);
        skew(4, 2, &triangle::sym_grad(&sk, &su)?);
        skew(5, 1, &triangle::grad(&sg, &sw)?);
        skew(5, 2, &triangle::mixed_mass(&sg, &su, -1.0)?);

        let owner = c.edge_owner()?;
        let mut removed = Vec::new();
        for (i, b) in mesh.boundary_edges().iter().enumerate() {
            let (bc, mc) = owner[i].unwrap_or((EdgeCondition::Free, MembraneCondition::Free));
            match bc {
                EdgeCondition::Clamped => {
                    removed.extend(cg_edge_dofs(&sw, b).into_iter().map(|d| off[1] + d));
                    removed.extend(Common::vector_edge_dofs(&su, b, None, off[2]));
                }
                EdgeCondition::SimplySupported => {
                    removed.extend(cg_edge_dofs(&sw, b).into_iter().map(|d| off[1] + d));
                    let t =
                        c.axis_component(b, true, "simply supported Mindlin edge (theta_s = 0)")?;
                    removed.extend(Common::vector_edge_dofs(&su, b, Some(t), off[2]));
                }
                EdgeCondition::Free => {}
            }
            removed.extend(c.membrane_removed(&su, b, mc, off[0])?);
        }
        // boundary ports (module docs of `laminated`): the traction inputs of the CGDG
        // Mindlin plate (q_n, M_nn, M_ns in the CG1 trace basis; simply supported edges:
        // M_nn), then the membrane tractions
        let bending = |tag: &str,
                       bc: EdgeCondition,
                       _edges: &[BoundaryEdge]|
         -> Result<Vec<(Port, SparseMat, usize)>, Fem2dError> {
            let [bw, bn, bs] = traction_input_matrices(&sw, &su, &[tag], n_open, off[2])?;
            let dim = bw.ncols();
            let qn = (
                Port::new(
                    format!("{tag}_qn"),
                    dim,
                    "shear force q_n [N/m] (CG1 trace)",
                    "weighted trace of w_t",
                ),
                shift_rows(&sparse::slice(&bw, 0..sw.n_dofs(), 0..dim), off[1], n_open),
                0,
            );
            let mnn = (
                Port::new(
                    format!("{tag}_Mnn"),
                    dim,
                    "bending moment M_nn [N m/m] (CG1 trace)",
                    "weighted trace of omega_n",
                ),
                bn,
                0,
            );
            let mns = (
                Port::new(
                    format!("{tag}_Mns"),
                    dim,
                    "twisting moment M_ns [N m/m] (CG1 trace)",
                    "weighted trace of omega_s",
                ),
                bs,
                0,
            );
            Ok(match bc {
                EdgeCondition::Free => vec![qn, mnn, mns],
                EdgeCondition::SimplySupported => vec![mnn],
                EdgeCondition::Clamped => Vec::new(),
            })
        };
        let ports = c.ports((&su, &sw), &sizes, &bending)?;
        let open = OpenPlate {
            fields: vec![
                LaminatedField::InPlaneVelocity,
                LaminatedField::Velocity,
                LaminatedField::RotationRate,
                LaminatedField::MembraneStress,
                LaminatedField::Moments,
                LaminatedField::ShearForces,
            ],
            sizes: sizes.to_vec(),
            E: Et.build(),
            J: Jt.build(),
            removed,
        };
        c.finish((su, sw), CgDgPlateSpaces { sk, sg }, open, ports)
    }
}

/// The stress spaces of the laminated Mindlin plate: $(DG_{k-1})_{\mathrm{sym}}$ membrane
/// stresses and moments, $(DG_{k-1})^2$ shear forces.
#[derive(Debug, Clone)]
pub struct CgDgPlateSpaces {
    sk: Space2d,
    sg: Space2d,
}

/// An assembled laminated Mindlin plate (blocks `e_u`, `e_w`, `e_theta`, `E_eps`,
/// `E_kappa`, `e_gamma`).
pub type LaminatedMindlinModel = LaminatedModel<CgDgPlateSpaces>;

impl LaminatedModel<CgDgPlateSpaces> {
    /// Finite element space of field `f`.
    pub fn space(&self, f: LaminatedField) -> &Space2d {
        match f {
            LaminatedField::InPlaneVelocity | LaminatedField::RotationRate => self.in_plane_space(),
            LaminatedField::Velocity => self.velocity_space(),
            LaminatedField::MembraneStress | LaminatedField::Moments => &self.plate.sk,
            LaminatedField::ShearForces => &self.plate.sg,
        }
    }
}
