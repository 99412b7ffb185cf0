//! Pieces of mesh construction and geometry shared by the triangle, quadrilateral and
//! tetrahedral meshes: global edge numbering, cell index checks, the bounding-box scale
//! of the degeneracy tolerances and the geometry of a straight edge.
use crate::error::Fem2dError;
use std::collections::HashMap;

/// Global edges numbered in order of first appearance, each stored with the lower global
/// vertex first (the global orientation used for edge DOFs).
#[derive(Debug, Default)]
pub(crate) struct EdgeNumbering {
    ids: HashMap<[usize; 2], usize>,
    edges: Vec<[usize; 2]>,
}

impl EdgeNumbering {
    /// The global edge joining vertices `a` and `b` (either order), and whether this call
    /// created it.
    pub(crate) fn edge(&mut self, a: usize, b: usize) -> (usize, bool) {
        let key = [a.min(b), a.max(b)];
        let n = self.edges.len();
        let id = *self.ids.entry(key).or_insert(n);
        if id == n {
            self.edges.push(key);
        }
        (id, id == n)
    }

    /// The global edges, lower vertex first.
    pub(crate) fn into_edges(self) -> Vec<[usize; 2]> {
        self.edges
    }
}

/// Whether the vertex indices of a cell are pairwise distinct.
pub(crate) fn all_distinct(cell: &[usize]) -> bool {
    (0..cell.len()).all(|i| (i + 1..cell.len()).all(|j| cell[i] != cell[j]))
}

/// Squared diagonal of the bounding box of `vertices` (the scale of the degeneracy
/// tolerances).
pub(crate) fn bounding_box_diagonal_squared<const D: usize>(vertices: &[[f64; D]]) -> f64 {
    let (mut lo, mut hi) = ([f64::INFINITY; D], [f64::NEG_INFINITY; D]);
    for v in vertices {
        for d in 0..D {
            lo[d] = lo[d].min(v[d]);
            hi[d] = hi[d].max(v[d]);
        }
    }
    (0..D).map(|d| (hi[d] - lo[d]).powi(2)).sum()
}

/// Rejects the first vertex of a planar mesh with a non-finite coordinate
/// ([`Fem2dError::BadVertex`]).
pub(crate) fn check_finite_vertices(vertices: &[[f64; 2]]) -> Result<(), Fem2dError> {
    for (i, v) in vertices.iter().enumerate() {
        if !(v[0].is_finite() && v[1].is_finite()) {
            return Err(Fem2dError::BadVertex {
                index: i,
                coords: *v,
            });
        }
    }
    Ok(())
}

/// Midpoint of the segment `p`–`q`.
pub(crate) fn midpoint(p: [f64; 2], q: [f64; 2]) -> [f64; 2] {
    [0.5 * (p[0] + q[0]), 0.5 * (p[1] + q[1])]
}

/// Midpoints of the edges `ids` (global vertex pairs `edges` into `vertices`).
pub(crate) fn edge_midpoints(
    vertices: &[[f64; 2]],
    edges: &[[usize; 2]],
    ids: impl Iterator<Item = usize>,
) -> Vec<[f64; 2]> {
    ids.map(|e| {
        let [a, b] = edges[e];
        midpoint(vertices[a], vertices[b])
    })
    .collect()
}

/// Length of the segment `p`–`q`.
pub(crate) fn distance(p: [f64; 2], q: [f64; 2]) -> f64 {
    ((q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2)).sqrt()
}

/// Unit normal of the boundary edge running from `p` to `q` counter-clockwise around its
/// cell: the tangent rotated by −90°, pointing out of the cell.
pub(crate) fn outward_normal(p: [f64; 2], q: [f64; 2]) -> [f64; 2] {
    let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
    let l = (dx * dx + dy * dy).sqrt();
    [dy / l, -dx / l]
}
