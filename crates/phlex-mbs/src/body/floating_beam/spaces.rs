//! [`BeamSpaces`]: the PFEM discretisation that the planar and the spatial floating beam
//! share (paper 000 §4.3): the uniform mesh, the CG1 space of the axial (and torsional)
//! fields and the Hermite space of the bending fields with the free DOFs the deformation
//! condition leaves (Remark 8), the DG0/DG1 stress spaces with the weak derivative blocks
//! $D_{ax} = \int\chi\,\partial_x\varphi$ and $D_b = \int\eta\,\partial_{xx}\psi$ of
//! eq. (38), the ports at material coordinates and the Gauss mass points.
//!
//! The planar beam has one CG1 field ($u_x$) and one Hermite field ($u_y$); the spatial beam
//! two of each ($u_x, \theta_x$; $u_y, u_z$). Each builds its own point shapes from these
//! spaces ([`super::planar::BeamShapes`], [`super::spatial::BeamShapes3d`]).
use phlex_core::sparse::{self, SparseMat};
use phlex_fem::assembly::line::{self as assembly, Coefficient};
use phlex_fem::quadrature::GaussLegendre;
use phlex_fem::{Family, FemError, Mesh1d, Space1d};

use super::planar::DeformationBc;
use crate::error::MbsError;

/// Gauss points per element of the mass points: exact to degree 7 ≥ 6 (Hermite × Hermite).
const MASS_GAUSS_POINTS: usize = 4;

/// The finite element spaces of a floating beam and the maps between full and free DOFs
/// (see the [module documentation](self)).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BeamSpaces {
    /// The uniform mesh on $[0, L]$.
    pub mesh: Mesh1d,
    /// CG1 space of the axial (and torsional) fields.
    pub cg1: Space1d,
    /// Hermite space of the bending fields.
    pub her: Space1d,
    /// Free CG1 DOFs (full indices = node numbers): all but node 0.
    pub cg_free: Vec<usize>,
    /// Free Hermite DOFs (full indices: value $2i$, slope $2i+1$ at node $i$).
    pub her_free: Vec<usize>,
    /// Full CG1 index → free index.
    pub cg_map: Vec<Option<usize>>,
    /// Full Hermite index → free index.
    pub her_map: Vec<Option<usize>>,
}

/// Full index → position in `free` (`None`: removed).
fn free_map(n: usize, free: &[usize]) -> Vec<Option<usize>> {
    let mut map = vec![None; n];
    for (k, &i) in free.iter().enumerate() {
        map[i] = Some(k);
    }
    map
}

impl BeamSpaces {
    /// The spaces of a beam of length `length` on `n_el` uniform elements: the axial
    /// displacement (and torsion) vanish at $P$ ($x = 0$); the bending fields satisfy `bc`
    /// (cantilever: value and slope at $0$; simply supported: value at $0$ and $L$).
    pub fn new(length: f64, n_el: usize, bc: DeformationBc) -> Result<Self, FemError> {
        let mesh = Mesh1d::uniform(length, n_el)?;
        let cg1 = Space1d::new(&mesh, Family::Cg(1))?;
        let her = Space1d::new(&mesh, Family::Hermite)?;
        let removed_her: Vec<usize> = match bc {
            DeformationBc::Cantilever => vec![0, 1],
            DeformationBc::SimplySupported => vec![0, 2 * n_el],
            DeformationBc::Free => vec![],
        };
        let cg_free: Vec<usize> = (1..cg1.n_dofs()).collect();
        let her_free: Vec<usize> = (0..her.n_dofs())
            .filter(|i| !removed_her.contains(i))
            .collect();
        Ok(Self {
            cg_map: free_map(cg1.n_dofs(), &cg_free),
            her_map: free_map(her.n_dofs(), &her_free),
            mesh,
            cg1,
            her,
            cg_free,
            her_free,
        })
    }

    /// Number of free CG1 coefficients per axial (torsional) field.
    pub fn n_cg(&self) -> usize {
        self.cg_free.len()
    }

    /// Number of free Hermite coefficients per bending field.
    pub fn n_her(&self) -> usize {
        self.her_free.len()
    }

    /// The stress spaces: DG0 (normal force, torque) and DG1 (bending moments).
    pub fn stress_spaces(&self) -> Result<(Space1d, Space1d), FemError> {
        Ok((
            Space1d::new(&self.mesh, Family::Dg(0))?,
            Space1d::new(&self.mesh, Family::Dg(1))?,
        ))
    }

    /// The weak derivative blocks of eq. (38) restricted to the free velocity DOFs:
    /// $D_{ax} = \int\chi\,\partial_x\varphi$ (DG0 × CG1) and
    /// $D_b = \int\eta\,\partial_{xx}\psi$ (DG1 × Hermite).
    pub fn derivative_blocks(
        &self,
        dg0: &Space1d,
        dg1: &Space1d,
    ) -> Result<(SparseMat, SparseMat), FemError> {
        let one = Coefficient::Constant(1.0);
        let dax = assembly::bilinear(dg0, 0, &self.cg1, 1, &one)?;
        let db = assembly::bilinear(dg1, 0, &self.her, 2, &one)?;
        Ok((
            sparse::select_cols(&dax, &self.cg_free),
            sparse::select_cols(&db, &self.her_free),
        ))
    }

    /// The Gauss points of the mass points, element by element: `(element, ξ, x, w h)` with
    /// the reference coordinate $\xi$, the material coordinate $x$ and the weight $w h$
    /// (times the line density it gives the point's mass).
    pub fn mass_points(&self) -> Result<Vec<(usize, f64, f64, f64)>, FemError> {
        let q = GaussLegendre::new(MASS_GAUSS_POINTS)?;
        let n_el = self.mesh.n_elements();
        let mut out = Vec::with_capacity(MASS_GAUSS_POINTS * n_el);
        for e in 0..n_el {
            let (x0, _) = self.mesh.element(e);
            let h = self.mesh.h(e);
            for (&xi, &w) in q.points.iter().zip(&q.weights) {
                out.push((e, xi, x0 + h * xi, w * h));
            }
        }
        Ok(out)
    }
}

/// Checks the discretisation parameters of beam `name`: at least one element and a
/// deformation condition (without one the mass operator is singular, Remark 8).
pub(crate) fn check_discretisation(
    name: &str,
    n_elements: usize,
    bc: DeformationBc,
) -> Result<(), MbsError> {
    if n_elements < 1 {
        return Err(MbsError::InvalidBodyParameter {
            body: name.into(),
            parameter: "n_elements".into(),
            value: 0.0,
            requirement: "n_elements >= 1".into(),
        });
    }
    if bc == DeformationBc::Free {
        return Err(MbsError::MissingDeformationBc { body: name.into() });
    }
    Ok(())
}

/// The ports of beam `name` of length `length`: `"P"` at $x = 0$, `"C"` at $x = L$, then
/// the `extra` ports; a duplicate name or a position outside $[0, L]$ is an error naming
/// the port.
pub(crate) fn port_positions(
    name: &str,
    length: f64,
    extra: &[(String, f64)],
) -> Result<Vec<(String, f64)>, MbsError> {
    let mut defs: Vec<(String, f64)> = vec![("P".into(), 0.0), ("C".into(), length)];
    for (n, x) in extra {
        if defs.iter().any(|p| &p.0 == n) {
            return Err(MbsError::DuplicateName {
                what: "port".into(),
                name: format!("{name}.{n}"),
            });
        }
        if !(*x >= 0.0 && *x <= length) {
            return Err(MbsError::InvalidBodyParameter {
                body: name.into(),
                parameter: format!("port '{n}' position"),
                value: *x,
                requirement: format!("0 <= x <= L = {length}"),
            });
        }
        defs.push((n.clone(), *x));
    }
    Ok(defs)
}
