//! Laminated Kirchhoff plate: $(CG_k)^2$ in-plane velocity, $CG_k$ vertical velocity,
//! $(DG_{k-1})^{2\times2}_{\mathrm{sym}}$ membrane stresses and HHJ$_{k-1}$ moments coupled
//! through the laminate compliance (thesis 004 eqs. (4.57)–(4.61); formulation, sign
//! convention and boundary conditions in [`super::laminated`]).
use crate::assembly::hessian;
use crate::assembly::triangle::{self, Op, Term};
use crate::element::triangle::hhj::{self, HhjSpace};
use crate::error::Fem2dError;
use crate::error::FemError;
use crate::mesh::triangle::CellGeometry;
use crate::mesh::triangle::{BoundaryEdge, Mesh2d};
use crate::quadrature::triangle::TriangleQuadrature;
use crate::space::triangle::{Family2d, Shape, Space2d};
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::Port;

use super::kirchhoff::{EdgeCondition, PlateProfile};
use super::laminated::{
    builder_conditions, cg_edge_dofs, shift_rows, Common, Laminate, LaminatedField, LaminatedModel,
    MembraneCondition, OpenPlate,
};
use super::mindlin::traction_input_matrices;

/// Mixed compliance $\int\sum_{ab}Q_{ab}\,\phi_a\Phi_b$ between a symmetric-tensor DG space
/// (rows) and an HHJ space (columns) on the same mesh, `Q` row-major on the stored
/// components $(xx, xy, yy)$. Exact (degree-$2r$ rule, both spaces of degree $r$).
pub fn dg_hhj_mass(dg: &Space2d, space: &HhjSpace, Q: &[f64; 9]) -> Result<SparseMat, Fem2dError> {
    if dg.mesh() != space.mesh() {
        return Err(FemError::MeshMismatch {
            a: dg.describe(),
            b: space.describe(),
        }
        .into());
    }
    if dg.shape() != Shape::SymTensor {
        return Err(FemError::InvalidParameter {
            name: format!("row space {}", dg.describe()),
            value: dg.n_comp() as f64,
            requirement: "a symmetric-tensor space".into(),
        }
        .into());
    }
    let deg = dg.family().degree() + space.degree();
    let q = TriangleQuadrature::exact_for_degree(deg)?;
    let mesh = dg.mesh();
    let (nd, nh) = (dg.n_local(), space.n_local());
    let el = dg.element();
    let (mut v, mut dx, mut dy) = (vec![0.0; nd], vec![0.0; nd], vec![0.0; nd]);
    let mut b = vec![[0.0; 3]; nh];
    let mut local = vec![0.0; 3 * nd * nh];
    let mut trip = Triplets::new(dg.n_dofs(), space.n_dofs());
    for t in 0..mesh.n_cells() {
        let det = CellGeometry::new(mesh, t).det;
        local.iter_mut().for_each(|x| *x = 0.0);
        for (xh, &w) in q.points.iter().zip(&q.weights) {
            el.eval(*xh, &mut v, &mut dx, &mut dy);
            space.eval_cell(t, *xh, &mut b);
            let wd = w * det;
            for (j, bj) in b.iter().enumerate() {
                // (Q Φ_j)_a
                let qb = [
                    Q[0] * bj[0] + Q[1] * bj[1] + Q[2] * bj[2],
                    Q[3] * bj[0] + Q[4] * bj[1] + Q[5] * bj[2],
                    Q[6] * bj[0] + Q[7] * bj[1] + Q[8] * bj[2],
                ];
                for (i, &vi) in v.iter().enumerate() {
                    for a in 0..3 {
                        local[(a * nd + i) * nh + j] += wd * vi * qb[a];
                    }
                }
            }
        }
        let big = local.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let tol = 64.0 * f64::EPSILON * big;
        let (dd, dh) = (dg.cell_dofs(t), space.cell_dofs(t));
        for a in 0..3 {
            for (i, &di) in dd.iter().enumerate() {
                for (j, &dj) in dh.iter().enumerate() {
                    let x = local[(a * nd + i) * nh + j];
                    if x.abs() > tol {
                        trip.push(dg.global(a, di), dj, x);
                    }
                }
            }
        }
    }
    Ok(trip.build())
}

/// Builder of the laminated Kirchhoff plate ($CG_k$ velocities, $(DG_{k-1})_{\mathrm{sym}}$
/// membrane stresses, HHJ$_{k-1}$ moments; module docs).
#[derive(Debug, Clone)]
pub struct LaminatedKirchhoff {
    c: Common,
    rotary: bool,
}

impl LaminatedKirchhoff {
    /// Degree `degree` = $k$, `1 <= k <= 3`; all edges free until conditions are given;
    /// rotary inertia neglected (thesis eq. (4.57)).
    pub fn new(laminate: Laminate, mesh: &Mesh2d, degree: usize) -> Result<Self, Fem2dError> {
        Ok(Self {
            c: Common::new(laminate, mesh, degree, "laminated Kirchhoff")?,
            rotary: false,
        })
    }

    builder_conditions!();

    /// Includes the rotary inertia terms $I_1$, $I_2$ of classical laminated plate theory
    /// (module docs); the thesis neglects them.
    pub fn rotary_inertia(mut self, on: bool) -> Self {
        self.rotary = on;
        self
    }

    /// Assembles the model.
    pub fn build(&self) -> Result<LaminatedKirchhoffModel, Fem2dError> {
        let c = &self.c;
        let k = c.degree;
        let mesh = &c.mesh;
        let lam = &c.laminate;
        let [I0, I1, I2] = lam.inertia();
        let (su, sw) = c.velocity_spaces()?;
        let sn = Space2d::new(mesh, Family2d::Dg(k - 1), Shape::SymTensor)?;
        let sk = HhjSpace::new(mesh, k - 1)?;
        let sizes = [su.n_dofs(), sw.n_dofs(), sn.n_dofs(), sk.n_dofs()];
        let off = [
            0,
            sizes[0],
            sizes[0] + sizes[1],
            sizes[0] + sizes[1] + sizes[2],
        ];
        let n_open: usize = sizes.iter().sum();
        let [Qnn, Qnm, Qmm] = lam.compliance_blocks();
        let mut Et = Triplets::new(n_open, n_open);
        Et.push_block(off[0], off[0], &triangle::mass(&su, I0)?, 1.0);
        Et.push_block(off[1], off[1], &triangle::mass(&sw, I0)?, 1.0);
        if self.rotary {
            let Kg = triangle::bilinear(
                &sw,
                &sw,
                &[
                    Term::new(0, Op::Dx, 0, Op::Dx, I2),
                    Term::new(0, Op::Dy, 0, Op::Dy, I2),
                ],
            )?;
            Et.push_block(off[1], off[1], &Kg, 1.0);
            if I1 != 0.0 {
                let Muw = triangle::bilinear(
                    &su,
                    &sw,
                    &[
                        Term::new(0, Op::Value, 0, Op::Dx, -I1),
                        Term::new(1, Op::Value, 0, Op::Dy, -I1),
                    ],
                )?;
                Et.push_block(off[0], off[1], &Muw, 1.0);
                Et.push_block_transpose(off[1], off[0], &Muw, 1.0);
            }
        }
        Et.push_block(off[2], off[2], &triangle::mass_pointwise(&sn, &Qnn)?, 1.0);
        Et.push_block(off[3], off[3], &hhj::mass(&sk, &Qmm)?, 1.0);
        if Qnm.iter().any(|&v| v != 0.0) {
            let Mnm = dg_hhj_mass(&sn, &sk, &Qnm)?;
            Et.push_block(off[2], off[3], &Mnm, 1.0);
            Et.push_block_transpose(off[3], off[2], &Mnm, 1.0);
        }
        let mut Jt = Triplets::new(n_open, n_open);
        let Dg = triangle::sym_grad(&sn, &su)?;
        Jt.push_block(off[2], off[0], &Dg, 1.0);
        Jt.push_block_transpose(off[0], off[2], &Dg, -1.0);
        let Dh = hessian::hhj_coupling(&sk, &sw)?;
        Jt.push_block(off[3], off[1], &Dh, 1.0);
        Jt.push_block_transpose(off[1], off[3], &Dh, -1.0);

        // strong conditions
        let owner = c.edge_owner()?;
        let mut removed = Vec::new();
        for (i, b) in mesh.boundary_edges().iter().enumerate() {
            let (bc, mc) = owner[i].unwrap_or((EdgeCondition::Free, MembraneCondition::Free));
            if matches!(bc, EdgeCondition::Clamped | EdgeCondition::SimplySupported) {
                removed.extend(cg_edge_dofs(&sw, b).into_iter().map(|d| off[1] + d));
            }
            if matches!(bc, EdgeCondition::SimplySupported | EdgeCondition::Free) {
                removed.extend(sk.edge_dofs(b.edge).map(|d| off[3] + d));
            }
            removed.extend(c.membrane_removed(&su, b, mc, off[0])?);
        }
        // boundary ports (module docs of `laminated`): q_n on free edges (CG1 trace, as the
        // CGDG Mindlin plate), d_n w_t on clamped edges (HHJ edge moments, as
        // `KirchhoffHhj::rotation_port`), then the membrane tractions
        let bending = |tag: &str,
                       bc: EdgeCondition,
                       edges: &[BoundaryEdge]|
         -> Result<Vec<(Port, SparseMat, usize)>, Fem2dError> {
            Ok(match bc {
                EdgeCondition::Free => {
                    let [bw, _, _] = traction_input_matrices(&sw, &su, &[tag], n_open, off[0])?;
                    let dim = bw.ncols();
                    vec![(
                        Port::new(
                            format!("{tag}_qn"),
                            dim,
                            "effective shear force q_n [N/m] (CG1 trace)",
                            "weighted trace of the vertical velocity, int w_t psi ds [m²/s]",
                        ),
                        shift_rows(&sparse::slice(&bw, 0..sw.n_dofs(), 0..dim), off[1], n_open),
                        0,
                    )]
                }
                EdgeCondition::Clamped => {
                    let Tn = sk.nn_trace_matrix(edges);
                    vec![(
                        Port::new(
                            format!("{tag}_dnwt"),
                            Tn.ncols(),
                            format!(
                                "normal rotation rate d_n w_t [rad/s] (Legendre P_0..P_{} per edge)",
                                k - 1
                            ),
                            "edge moments of the normal bending moment, int M_nn P_j ds [N m]",
                        ),
                        shift_rows(&Tn, off[3], n_open),
                        sk.dofs_per_edge(),
                    )]
                }
                EdgeCondition::SimplySupported => Vec::new(),
            })
        };
        let ports = c.ports((&su, &sw), &sizes, &bending)?;
        let open = OpenPlate {
            fields: vec![
                LaminatedField::InPlaneVelocity,
                LaminatedField::Velocity,
                LaminatedField::MembraneStress,
                LaminatedField::Moments,
            ],
            sizes: sizes.to_vec(),
            E: Et.build(),
            J: Jt.build(),
            removed,
        };
        c.finish((su, sw), HhjPlateSpaces { sn, sk }, open, ports)
    }
}

/// The stress spaces of the laminated Kirchhoff plate: $(DG_{k-1})_{\mathrm{sym}}$ membrane
/// stresses and HHJ$_{k-1}$ moments.
#[derive(Debug, Clone)]
pub struct HhjPlateSpaces {
    sn: Space2d,
    sk: HhjSpace,
}

/// An assembled laminated Kirchhoff plate (blocks `e_u`, `e_w`, `E_eps`, `E_kappa`).
pub type LaminatedKirchhoffModel = LaminatedModel<HhjPlateSpaces>;

impl LaminatedModel<HhjPlateSpaces> {
    /// The $(DG_{k-1})_{\mathrm{sym}}$ membrane stress space.
    pub fn membrane_space(&self) -> &Space2d {
        &self.plate.sn
    }
    /// The HHJ$_{k-1}$ moment space.
    pub fn moment_space(&self) -> &HhjSpace {
        &self.plate.sk
    }
}
