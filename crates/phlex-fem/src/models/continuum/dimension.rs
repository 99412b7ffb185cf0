//! The dimension of the CG × DG continuum models: [`ContinuumSpace`] is what the 2D
//! Lagrange spaces on triangles ([`Space2d`]) and the 3D ones on tetrahedra ([`Space3d`])
//! give to the one generic build of [`super::elasticity`] and [`super::thermoelasticity`]
//! (thesis 004 §9.3.1 eqs. (9.31)–(9.34), §5.1.3 and (8.50)): the three field spaces
//! $(CG_k)^d$, $(DG_{k-1})^{d\times d}_{\mathrm{sym}}$, $CG_k$, the elastic blocks
//! $M_\rho$, $M_{\mathcal C}$, $D_{\mathrm{Grad}}$, the thermal forms
//! $\langle c\operatorname{div}\phi_v, \phi_T\rangle$ and
//! $\langle c\operatorname{grad}\phi, \operatorname{grad}\psi\rangle$, the port traces on
//! tagged edges / faces and the labels of the state blocks. Everything else of the models
//! (restriction of the supported DOFs, ports, system, accessors) is written once over it.
use crate::assembly::tet::{bilinear3d, Op3d, Term3d};
use crate::assembly::triangle::{self, Op, Term};
use crate::error::Fem2dError;
use crate::mesh::tet::Mesh3d;
use crate::mesh::triangle::Mesh2d;
use crate::models::continuum::elasticity::{ElasticParams, PlaneModel};
use crate::models::continuum::supports::{edge_traces, face_traces, TraceMatrices};
use crate::models::model::BlockAssembler;
use crate::space::tet::{Family3d, Shape3d, Space3d};
use crate::space::triangle::{Family2d, Shape, Space2d};
use phlex_core::sparse::SparseMat;
use std::fmt;

/// A Lagrange space of one dimension (2D triangles or 3D tetrahedra) as used by the CG × DG
/// continuum models (module docs). Implemented by [`Space2d`] and [`Space3d`].
pub trait ContinuumSpace: Clone + fmt::Debug + Sized {
    /// The mesh the spaces live on.
    type Mesh: Clone + fmt::Debug;
    /// A physical point, `[f64; d]`.
    type Point: Copy + AsRef<[f64]>;
    /// The reduction of 3D elasticity to the dimension: [`PlaneModel`] in 2D, `()` in 3D.
    type Reduction: Copy + fmt::Debug + Default;
    /// The dimension $d$.
    const DIM: usize;
    /// Highest velocity degree $k$ of the models.
    const MAX_DEGREE: usize;
    /// Velocity components, e.g. `"(x, y)"`.
    const VELOCITY_COMPONENTS: &'static str;
    /// Stored stress components, e.g. `"(xx, xy, yy)"`.
    const STRESS_COMPONENTS: &'static str;

    /// The space $(CG_k)^d$ of the velocity.
    fn cg_vector(mesh: &Self::Mesh, k: usize) -> Result<Self, Fem2dError>;
    /// The space $(DG_k)^{d\times d}_{\mathrm{sym}}$ of the stress.
    fn dg_sym_tensor(mesh: &Self::Mesh, k: usize) -> Result<Self, Fem2dError>;
    /// The scalar space $CG_k$ (temperature).
    fn cg_scalar(mesh: &Self::Mesh, k: usize) -> Result<Self, Fem2dError>;
    /// Total number of DOFs.
    fn n_dofs(&self) -> usize;
    /// DOFs per component.
    fn n_scalar_dofs(&self) -> usize;
    /// DOFs on the boundary edges / faces carrying any of `tags` (CG only).
    fn boundary_dofs(&self, tags: &[&str]) -> Result<Vec<usize>, Fem2dError>;
    /// Nodal interpolant of `f` (which writes the components at a point).
    fn interpolate_at(&self, f: &dyn Fn(Self::Point, &mut [f64])) -> Vec<f64>;
    /// Weighted traces of every component on the $P_1$ trace basis of the edges / faces
    /// tagged `tag` (rows at `offset` in an open state of length `n_full`) and the trace
    /// mass $M_\Gamma^{lm} = \int_\Gamma\psi^l\psi^m$ (thesis (9.33)).
    fn traces(
        &self,
        tag: &str,
        n_full: usize,
        offset: usize,
    ) -> Result<(Vec<SparseMat>, SparseMat), Fem2dError>;
    /// The constants of the reduction: the plane model in 2D; plane strain in 3D (whose
    /// constants $\lambda$, $C_\beta$, $C$ are the 3D ones).
    fn plane(reduction: Self::Reduction) -> PlaneModel;
    /// Name of the reduction in the stress block label (`None` in 3D).
    fn reduction_name(reduction: Self::Reduction) -> Option<&'static str>;
    /// The elastic matrices $[M_\rho, M_{\mathcal C}, D_{\mathrm{Grad}}]$ of the velocity
    /// space `sv` and the stress space `ss` (thesis (9.33)): $M_\rho^{ij} =
    /// \langle\rho\phi_v^i, \phi_v^j\rangle$, $M_{\mathcal C}^{ij} = \langle\Phi^i,
    /// \mathcal C\Phi^j\rangle$, $D_{\mathrm{Grad}}^{ij} = \langle\Phi^i,
    /// \operatorname{Grad}\phi_v^j\rangle$.
    fn elastic_matrices(
        sv: &Self,
        ss: &Self,
        p: &ElasticParams,
        reduction: Self::Reduction,
    ) -> Result<[SparseMat; 3], Fem2dError>;
    /// Mass $c\int\phi\psi$ of a scalar space.
    fn scalar_mass(&self, c: f64) -> Result<SparseMat, Fem2dError>;
    /// Coupling $A^{ij} = \langle c\operatorname{div}\phi_v^i, \phi_T^j\rangle$ of the vector
    /// space `sv` and the scalar space `st`.
    fn divergence(sv: &Self, st: &Self, c: f64) -> Result<SparseMat, Fem2dError>;
    /// Stiffness $K^{ij} = \langle c\operatorname{grad}\phi^i, \operatorname{grad}\phi^j\rangle$
    /// of a scalar space.
    fn grad_grad(&self, c: f64) -> Result<SparseMat, Fem2dError>;
}

impl ContinuumSpace for Space2d {
    type Mesh = Mesh2d;
    type Point = [f64; 2];
    type Reduction = PlaneModel;
    const DIM: usize = 2;
    const MAX_DEGREE: usize = 3;
    const VELOCITY_COMPONENTS: &'static str = "(x, y)";
    const STRESS_COMPONENTS: &'static str = "(xx, xy, yy)";

    fn cg_vector(mesh: &Mesh2d, k: usize) -> Result<Self, Fem2dError> {
        Space2d::new(mesh, Family2d::Cg(k), Shape::Vector)
    }
    fn dg_sym_tensor(mesh: &Mesh2d, k: usize) -> Result<Self, Fem2dError> {
        Space2d::new(mesh, Family2d::Dg(k), Shape::SymTensor)
    }
    fn cg_scalar(mesh: &Mesh2d, k: usize) -> Result<Self, Fem2dError> {
        Space2d::new(mesh, Family2d::Cg(k), Shape::Scalar)
    }
    fn n_dofs(&self) -> usize {
        Space2d::n_dofs(self)
    }
    fn n_scalar_dofs(&self) -> usize {
        Space2d::n_scalar_dofs(self)
    }
    fn boundary_dofs(&self, tags: &[&str]) -> Result<Vec<usize>, Fem2dError> {
        Space2d::boundary_dofs(self, tags)
    }
    fn interpolate_at(&self, f: &dyn Fn([f64; 2], &mut [f64])) -> Vec<f64> {
        self.interpolate(f)
    }
    fn traces(&self, tag: &str, n_full: usize, offset: usize) -> Result<TraceMatrices, Fem2dError> {
        edge_traces(self, tag, n_full, offset)
    }
    fn plane(reduction: PlaneModel) -> PlaneModel {
        reduction
    }
    fn reduction_name(reduction: PlaneModel) -> Option<&'static str> {
        Some(match reduction {
            PlaneModel::PlaneStrain => "plane strain",
            PlaneModel::PlaneStress => "plane stress",
        })
    }
    fn elastic_matrices(
        sv: &Self,
        ss: &Self,
        p: &ElasticParams,
        plane: PlaneModel,
    ) -> Result<[SparseMat; 3], Fem2dError> {
        Ok([
            triangle::mass(sv, p.rho)?,
            triangle::mass_pointwise(ss, &p.compliance_2d(plane))?,
            triangle::sym_grad(ss, sv)?,
        ])
    }
    fn scalar_mass(&self, c: f64) -> Result<SparseMat, Fem2dError> {
        triangle::mass(self, c)
    }
    fn divergence(sv: &Self, st: &Self, c: f64) -> Result<SparseMat, Fem2dError> {
        let div = [
            Term::new(0, Op::Dx, 0, Op::Value, c),
            Term::new(1, Op::Dy, 0, Op::Value, c),
        ];
        triangle::bilinear(sv, st, &div)
    }
    fn grad_grad(&self, c: f64) -> Result<SparseMat, Fem2dError> {
        let lap = [
            Term::new(0, Op::Dx, 0, Op::Dx, c),
            Term::new(0, Op::Dy, 0, Op::Dy, c),
        ];
        triangle::bilinear(self, self, &lap)
    }
}

impl ContinuumSpace for Space3d {
    type Mesh = Mesh3d;
    type Point = [f64; 3];
    type Reduction = ();
    const DIM: usize = 3;
    const MAX_DEGREE: usize = 2;
    const VELOCITY_COMPONENTS: &'static str = "(x, y, z)";
    const STRESS_COMPONENTS: &'static str = "(xx, yy, zz, yz, xz, xy)";

    fn cg_vector(mesh: &Mesh3d, k: usize) -> Result<Self, Fem2dError> {
        Space3d::new(mesh, Family3d::Cg(k), Shape3d::Vector)
    }
    fn dg_sym_tensor(mesh: &Mesh3d, k: usize) -> Result<Self, Fem2dError> {
        Space3d::new(mesh, Family3d::Dg(k), Shape3d::SymTensor)
    }
    fn cg_scalar(mesh: &Mesh3d, k: usize) -> Result<Self, Fem2dError> {
        Space3d::new(mesh, Family3d::Cg(k), Shape3d::Scalar)
    }
    fn n_dofs(&self) -> usize {
        Space3d::n_dofs(self)
    }
    fn n_scalar_dofs(&self) -> usize {
        Space3d::n_scalar_dofs(self)
    }
    fn boundary_dofs(&self, tags: &[&str]) -> Result<Vec<usize>, Fem2dError> {
        Space3d::boundary_dofs(self, tags)
    }
    fn interpolate_at(&self, f: &dyn Fn([f64; 3], &mut [f64])) -> Vec<f64> {
        self.interpolate(f)
    }
    fn traces(&self, tag: &str, n_full: usize, offset: usize) -> Result<TraceMatrices, Fem2dError> {
        face_traces(self, tag, n_full, offset)
    }
    fn plane(_: ()) -> PlaneModel {
        PlaneModel::PlaneStrain
    }
    fn reduction_name(_: ()) -> Option<&'static str> {
        None
    }
    /// As in 2D, with $\Phi : \operatorname{Grad} v = \phi_{xx}\partial_xv_x +
    /// \phi_{yy}\partial_yv_y + \phi_{zz}\partial_zv_z + \phi_{yz}(\partial_zv_y +
    /// \partial_yv_z) + \phi_{xz}(\partial_zv_x + \partial_xv_z) + \phi_{xy}(\partial_yv_x +
    /// \partial_xv_y)$ and the 3D compliance [`ElasticParams::compliance_3d`].
    fn elastic_matrices(
        sv: &Self,
        ss: &Self,
        p: &ElasticParams,
        _: (),
    ) -> Result<[SparseMat; 3], Fem2dError> {
        let v = Op3d::Value;
        let mass: Vec<Term3d> = (0..3).map(|c| (c, v, c, v, p.rho)).collect();
        let m_rho = bilinear3d(sv, sv, &mass)?;
        let q = p.compliance_3d();
        let mut comp = Vec::new();
        for a in 0..6 {
            for b in 0..6 {
                if q[a * 6 + b] != 0.0 {
                    comp.push((a, v, b, v, q[a * 6 + b]));
                }
            }
        }
        let m_c = bilinear3d(ss, ss, &comp)?;
        let sym: [Term3d; 9] = [
            (0, v, 0, Op3d::D(0), 1.0),
            (1, v, 1, Op3d::D(1), 1.0),
            (2, v, 2, Op3d::D(2), 1.0),
            (3, v, 1, Op3d::D(2), 1.0),
            (3, v, 2, Op3d::D(1), 1.0),
            (4, v, 0, Op3d::D(2), 1.0),
            (4, v, 2, Op3d::D(0), 1.0),
            (5, v, 0, Op3d::D(1), 1.0),
            (5, v, 1, Op3d::D(0), 1.0),
        ];
        Ok([m_rho, m_c, bilinear3d(ss, sv, &sym)?])
    }
    fn scalar_mass(&self, c: f64) -> Result<SparseMat, Fem2dError> {
        bilinear3d(self, self, &[(0, Op3d::Value, 0, Op3d::Value, c)])
    }
    fn divergence(sv: &Self, st: &Self, c: f64) -> Result<SparseMat, Fem2dError> {
        let div: Vec<Term3d> = (0..3).map(|a| (a, Op3d::D(a), 0, Op3d::Value, c)).collect();
        bilinear3d(sv, st, &div)
    }
    fn grad_grad(&self, c: f64) -> Result<SparseMat, Fem2dError> {
        let lap: Vec<Term3d> = (0..3).map(|a| (0, Op3d::D(a), 0, Op3d::D(a), c)).collect();
        bilinear3d(self, self, &lap)
    }
}

/// The elastic blocks in `ba` (0 = velocity, 1 = stress): $E_{00} = M_\rho$,
/// $E_{11} = M_{\mathcal C}$, $J_{10} = D_{\mathrm{Grad}} = -J_{01}^\top$ (thesis (9.33),
/// [`ContinuumSpace::elastic_matrices`]).
pub(crate) fn elastic_blocks<S: ContinuumSpace>(
    ba: &mut BlockAssembler,
    sv: &S,
    ss: &S,
    p: &ElasticParams,
    reduction: S::Reduction,
) -> Result<(), Fem2dError> {
    let [m_rho, m_c, d_grad] = S::elastic_matrices(sv, ss, p, reduction)?;
    ba.mass(0, &m_rho);
    ba.mass(1, &m_c);
    ba.skew(1, 0, &d_grad, 1.0);
    Ok(())
}
