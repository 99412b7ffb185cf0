//! The Argyris triangle (Argyris, Fried & Scharpf 1968; thesis 004 Ch. 8 and 10, summary §3.3
//! "Argyris × DG3 × CG2"): the full $P_5$ with 21 DOFs, the 18 physical vertex DOFs of
//! [`bell`](crate::element::triangle::bell) plus $\partial_n u$ at the three edge midpoints
//! along the **globally oriented** edge normal ([`C1Space::edge_normal`]), so the normal
//! derivative (a quartic on each edge) is continuous and the space is $C^1$ on affine
//! meshes. The physical basis is built as for Bell (dual basis of the physical DOFs, per
//! cell, in scaled coordinates; see the [`bell`](crate::element::triangle::bell) module docs).
use crate::element::triangle::bell::{C1Family, C1Space};
use crate::error::Fem2dError;
use crate::mesh::triangle::Mesh2d;

/// The Argyris space on `mesh` (21 local DOFs, `6 n_v + n_e` global DOFs).
pub fn argyris_space(mesh: &Mesh2d) -> Result<C1Space, Fem2dError> {
    C1Space::new(mesh, C1Family::Argyris)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::triangle::bell::tests::{poly, random_mesh};

    /// DOF count and exact reproduction of a full quintic on a random mesh (values and all
    /// second derivatives at the centroids to 1e-10); the edge DOF of a shared edge is one
    /// global DOF seen with the same normal from both cells.
    #[test]
    fn argyris_dofs_and_quintics() {
        let mesh = random_mesh(4, 21);
        let sp = argyris_space(&mesh).unwrap();
        assert_eq!(sp.n_dofs(), 6 * mesh.n_vertices() + mesh.n_edges());
        let p = poly(5);
        let u = sp.interpolate(&p);
        for t in 0..mesh.n_cells() {
            let x = mesh.cell_centroid(t);
            let (got, ex) = (sp.evaluate_in_cell(&u, t, x), p(x));
            for k in 0..6 {
                assert!((got[k] - ex[k]).abs() < 1e-10 * (1.0 + ex[k].abs()), "k{k}");
            }
        }
        // the edge DOF of an interior edge: ∂_n of the corresponding basis function at the
        // midpoint is 1 from both sides
        for e in 0..mesh.n_edges() {
            let (c0, Some(c1)) = mesh.edge_cells(e) else {
                continue;
            };
            let d = sp.edge_dof(e).unwrap();
            let mut u = vec![0.0; sp.n_dofs()];
            u[d] = 1.0;
            let x = mesh.edge_midpoint(e);
            let n = sp.edge_normal(e);
            for c in [c0, c1] {
                let v = sp.evaluate_in_cell(&u, c, x);
                assert!((v[1] * n[0] + v[2] * n[1] - 1.0).abs() < 1e-10);
            }
        }
    }
}
