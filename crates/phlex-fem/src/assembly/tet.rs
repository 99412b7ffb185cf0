//! Bilinear forms on tetrahedral meshes: $A^{ij} = \sum c\int\mathcal O_t(\phi^i_{c_t})
//! \mathcal O_r(\psi^j_{c_r})$ with $\mathcal O \in \{\text{value}, \partial_x, \partial_y,
//! \partial_z\}$ on components of two [`Space3d`]s, exact on affine cells (the 3D CG × DG
//! elasticity of thesis 004 §9.3.1 eq. (9.34)).
use crate::assembly::triangle::{add_scaled_outer, visit_significant};
use crate::error::{Fem2dError, FemError};
use crate::mesh::tet::TetGeometry;
use crate::quadrature::tet::TetQuadrature;
use crate::space::tet::Space3d;
use phlex_core::{SparseMat, Triplets};

/// A pointwise operator on a scalar component in 3D.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op3d {
    /// The value.
    Value,
    /// $\partial_x$, $\partial_y$, $\partial_z$ (index 0, 1, 2).
    D(usize),
}

/// One term $c\,\mathcal O_t(\phi_{c_t})\,\mathcal O_r(\psi_{c_r})$ of a 3D bilinear form:
/// `(test_comp, test_op, trial_comp, trial_op, coeff)`.
pub type Term3d = (usize, Op3d, usize, Op3d, f64);

/// Values and reference gradients of a space's local basis at every quadrature point
/// (point-major: entry `p * n_local + j`).
type Table = (Vec<f64>, Vec<[f64; 3]>);

/// $A^{ij} = \sum_{\text{terms}} c \int_\Omega \mathcal O_t(\phi^i)\,\mathcal O_r(\psi^j)$,
/// rows = DOFs of `test`, columns = DOFs of `trial`; quadrature exact for the polynomial
/// integrands on affine cells. Entries below $64\varepsilon$ times the largest of their
/// element block are dropped (round-off of exact zeros).
pub fn bilinear3d(
    test: &Space3d,
    trial: &Space3d,
    terms: &[Term3d],
) -> Result<SparseMat, Fem2dError> {
    super::forms::require_same_mesh(test.mesh(), trial.mesh(), || {
        (test.describe(), trial.describe())
    })?;
    for (k, t) in terms.iter().enumerate() {
        let bad_op = |o: Op3d| matches!(o, Op3d::D(d) if d > 2);
        if t.0 >= test.n_comp() || t.2 >= trial.n_comp() || bad_op(t.1) || bad_op(t.3) {
            return Err(FemError::InvalidParameter {
                name: format!("terms[{k}]"),
                value: t.0.max(t.2) as f64,
                requirement: format!(
                    "components < {} / {} and derivative index < 3",
                    test.n_comp(),
                    trial.n_comp()
                ),
            }
            .into());
        }
    }
    let deg = super::forms::bilinear_degree(
        test.family().degree(),
        trial.family().degree(),
        terms
            .iter()
            .map(|t| (t.1 == Op3d::Value, t.3 == Op3d::Value)),
    );
    let q = TetQuadrature::exact_for_degree(deg)?;
    let tab = |s: &Space3d| -> Table {
        let n = s.n_local();
        let mut val = vec![0.0; n * q.points.len()];
        let mut grad = vec![[0.0; 3]; n * q.points.len()];
        for (p, x) in q.points.iter().enumerate() {
            s.element().eval(
                *x,
                &mut val[p * n..(p + 1) * n],
                &mut grad[p * n..(p + 1) * n],
            );
        }
        (val, grad)
    };
    let (ttab, rtab) = (tab(test), tab(trial));
    let (nt, nr) = (test.n_local(), trial.n_local());
    let mesh = test.mesh();
    let mut trip = Triplets::new(test.n_dofs(), trial.n_dofs());
    let mut a = vec![0.0; nt];
    let mut b = vec![0.0; nr];
    let mut local = vec![0.0; terms.len() * nt * nr];
    // `op` of the `out.len()` basis functions tabulated in `table` at quadrature point `p`
    let apply = |g: &TetGeometry, table: &Table, p: usize, op: Op3d, out: &mut [f64]| {
        let n = out.len();
        let (val, grad) = (&table.0[p * n..(p + 1) * n], &table.1[p * n..(p + 1) * n]);
        match op {
            Op3d::Value => out.copy_from_slice(val),
            Op3d::D(d) => {
                let m = g.inv_jac_t[d];
                for (o, gr) in out.iter_mut().zip(grad) {
                    *o = m[0] * gr[0] + m[1] * gr[1] + m[2] * gr[2];
                }
            }
        }
    };
    for t in 0..mesh.n_cells() {
        let g = TetGeometry::new(mesh, t);
        local.iter_mut().for_each(|v| *v = 0.0);
        for (p, &w) in q.weights.iter().enumerate() {
            let wd = w * g.det;
            for (k, term) in terms.iter().enumerate() {
                apply(&g, &ttab, p, term.1, &mut a);
                apply(&g, &rtab, p, term.3, &mut b);
                let blk = &mut local[k * nt * nr..(k + 1) * nt * nr];
                add_scaled_outer(blk, wd * term.4, &a, &b);
            }
        }
        let (dt_, dr) = (test.cell_dofs(t), trial.cell_dofs(t));
        for (k, term) in terms.iter().enumerate() {
            let blk = &local[k * nt * nr..(k + 1) * nt * nr];
            visit_significant(blk, nr, &mut |i, j, v| {
                trip.push(test.global(term.0, dt_[i]), trial.global(term.2, dr[j]), v)
            });
        }
    }
    Ok(trip.build())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::tet::Mesh3d;
    use crate::space::tet::{Family3d, Shape3d};

    /// On a box mesh: mass matrices integrate to the volume; the P2 interpolant of a
    /// quadratic is exact, so the stiffness ∫∇u·∇u of u = x² + yz equals
    /// ∫ (4x² + z² + y²) over [0,1]³ = 4/3 + 2/3 = 2.
    #[test]
    fn space_mass_and_stiffness() {
        let m = Mesh3d::box_mesh([0.0; 3], [1.0; 3], [2, 2, 2]).unwrap();
        let s = Space3d::new(&m, Family3d::Cg(2), Shape3d::Scalar).unwrap();
        assert_eq!(s.n_dofs(), m.n_vertices() + m.n_edges());
        let M = bilinear3d(&s, &s, &[(0, Op3d::Value, 0, Op3d::Value, 1.0)]).unwrap();
        let one = vec![1.0; s.n_dofs()];
        let tot: f64 = phlex_core::sparse::bilinear(&one, &M, &one);
        assert!((tot - 1.0).abs() < 1e-13);
        let u = s.interpolate(&|x, o| o[0] = x[0] * x[0] + x[1] * x[2]);
        let terms: Vec<Term3d> = (0..3)
            .map(|d| (0, Op3d::D(d), 0, Op3d::D(d), 1.0))
            .collect();
        let K = bilinear3d(&s, &s, &terms).unwrap();
        let e = phlex_core::sparse::bilinear(&u, &K, &u);
        assert!((e - 2.0).abs() < 1e-12, "{e}");
        let d = Space3d::new(&m, Family3d::Dg(1), Shape3d::SymTensor).unwrap();
        assert_eq!(d.n_dofs(), 6 * 4 * m.n_cells());
        assert!(d.boundary_dofs(&["xmin"]).is_err());
        // xmin face of a 2×2×2 grid: 9 vertices + 16 edges (P2)
        assert_eq!(s.boundary_dofs(&["xmin"]).unwrap().len(), 9 + 16);
        assert!(Space3d::new(&m, Family3d::Cg(3), Shape3d::Scalar).is_err());
    }
}
