//! Triangle meshes in 2D with edge connectivity and named boundary edge tags
//! (thesis 004 §6.1 item 1, summary §6.1: structured rectangles, boundary facet tags for
//! $\Gamma_C, \Gamma_S, \Gamma_F$).
//!
//! Conventions:
//! * triangles are stored counter-clockwise; [`Mesh2d::new`] rejects inverted or degenerate
//!   ones ([`Fem2dError::InvertedTriangle`]);
//! * local edge `i` of a triangle is opposite local vertex `i`, i.e. it runs from local
//!   vertex `(i+1) % 3` to `(i+2) % 3` (counter-clockwise, so its outward normal is the
//!   tangent rotated by −90°);
//! * global edges are numbered in order of first appearance; each stores its end vertices
//!   with the lower global index first (the global orientation used for edge DOFs).
use super::cells::{self, bounding_box_diagonal_squared, check_finite_vertices, EdgeNumbering};
use super::tags::BoundaryTags;
use crate::error::{require_count, Fem2dError, FemError};

/// Direction of the diagonal splitting each cell of a structured mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Diagonal {
    /// Diagonal from the lower-left to the upper-right corner of each cell ("right" in
    /// FEniCS/Firedrake terms).
    #[default]
    Right,
    /// Diagonal from the lower-right to the upper-left corner ("left").
    Left,
}

/// A boundary edge: its global edge, the triangle it belongs to and its local index there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundaryEdge {
    /// Global edge index.
    pub edge: usize,
    /// The (unique) triangle containing it.
    pub cell: usize,
    /// Local edge index in that triangle.
    pub local: usize,
}

/// The boundary edges of non-overlapping tags ([`Mesh2d::partition_tags`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TagPartition {
    /// Per boundary edge (index into [`Mesh2d::boundary_edges`]): the index of the tag
    /// owning it, if any.
    pub owner: Vec<Option<usize>>,
    /// Per tag: its boundary edges.
    pub edges: Vec<Vec<BoundaryEdge>>,
}

/// A conforming triangle mesh with edge connectivity and boundary tags.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh2d {
    vertices: Vec<[f64; 2]>,
    triangles: Vec<[usize; 3]>,
    /// Global edges, lower vertex first.
    edges: Vec<[usize; 2]>,
    /// Global edge of local edge `i` of each triangle.
    cell_edges: Vec<[usize; 3]>,
    /// Cells adjacent to each edge (second is `usize::MAX` on the boundary).
    edge_cells: Vec<[usize; 2]>,
    boundary: Vec<BoundaryEdge>,
    tags: BoundaryTags,
}

/// Signed area of the triangle `(a, b, c)` (positive if counter-clockwise).
#[inline]
pub fn signed_area(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]))
}

impl Mesh2d {
    /// Builds and validates a mesh from vertex coordinates and counter-clockwise triangles.
    ///
    /// Errors: non-finite vertices, out-of-range or repeated vertex indices, triangles with
    /// signed area `<= 1e-14 ×` (bounding box diagonal)², edges shared by three triangles.
    pub fn new(vertices: Vec<[f64; 2]>, triangles: Vec<[usize; 3]>) -> Result<Self, Fem2dError> {
        check_finite_vertices(&vertices)?;
        let nv = vertices.len();
        let diam2 = bounding_box_diagonal_squared(&vertices);
        for (t, tri) in triangles.iter().enumerate() {
            let bad = tri.iter().any(|&v| v >= nv)
                || tri[0] == tri[1]
                || tri[1] == tri[2]
                || tri[0] == tri[2];
            if bad {
                return Err(Fem2dError::BadTriangle {
                    index: t,
                    vertices: *tri,
                    n_vertices: nv,
                });
            }
            let area = signed_area(vertices[tri[0]], vertices[tri[1]], vertices[tri[2]]);
            if !(area > 1e-14 * diam2) {
                return Err(Fem2dError::InvertedTriangle {
                    index: t,
                    vertices: *tri,
                    area,
                });
            }
        }
        let mut numbering = EdgeNumbering::default();
        let mut edge_cells: Vec<[usize; 2]> = Vec::new();
        let mut cell_edges = Vec::with_capacity(triangles.len());
        for (t, tri) in triangles.iter().enumerate() {
            let mut ce = [0; 3];
            for (i, slot) in ce.iter_mut().enumerate() {
                let (a, b) = (tri[(i + 1) % 3], tri[(i + 2) % 3]);
                let (id, new) = numbering.edge(a, b);
                if new {
                    edge_cells.push([usize::MAX; 2]);
                }
                let ec = &mut edge_cells[id];
                if ec[0] == usize::MAX {
                    ec[0] = t;
                } else if ec[1] == usize::MAX {
                    ec[1] = t;
                } else {
                    return Err(Fem2dError::NonManifoldEdge {
                        a: a.min(b),
                        b: a.max(b),
                    });
                }
                *slot = id;
            }
            cell_edges.push(ce);
        }
        let edges = numbering.into_edges();
        let mut boundary = Vec::new();
        for (e, ec) in edge_cells.iter().enumerate() {
            if ec[1] == usize::MAX {
                let cell = ec[0];
                let local = (0..3).find(|&i| cell_edges[cell][i] == e).unwrap_or(0);
                boundary.push(BoundaryEdge {
                    edge: e,
                    cell,
                    local,
                });
            }
        }
        Ok(Self {
            vertices,
            triangles,
            edges,
            cell_edges,
            edge_cells,
            boundary,
            tags: BoundaryTags::default(),
        })
    }

    /// Structured mesh of the rectangle $[x_0, x_1] \times [y_0, y_1]$ with `nx × ny` cells,
    /// each split into two triangles along `diagonal`. Boundary edges are tagged `"left"`
    /// ($x = x_0$), `"right"`, `"bottom"` ($y = y_0$) and `"top"`.
    pub fn rectangle(
        x0: f64,
        x1: f64,
        y0: f64,
        y1: f64,
        nx: usize,
        ny: usize,
        diagonal: Diagonal,
    ) -> Result<Self, Fem2dError> {
        require_count("nx", nx, 1)?;
        require_count("ny", ny, 1)?;
        for (name, a, b) in [("x1 - x0", x0, x1), ("y1 - y0", y0, y1)] {
            if !(b - a > 0.0 && (b - a).is_finite()) {
                return Err(FemError::InvalidParameter {
                    name: name.into(),
                    value: b - a,
                    requirement: format!("{name} > 0 and finite"),
                }
                .into());
            }
        }
        let (hx, hy) = ((x1 - x0) / nx as f64, (y1 - y0) / ny as f64);
        let mut vertices = Vec::with_capacity((nx + 1) * (ny + 1));
        for j in 0..=ny {
            for i in 0..=nx {
                let x = if i == nx { x1 } else { x0 + i as f64 * hx };
                let y = if j == ny { y1 } else { y0 + j as f64 * hy };
                vertices.push([x, y]);
            }
        }
        let id = |i: usize, j: usize| j * (nx + 1) + i;
        let mut triangles = Vec::with_capacity(2 * nx * ny);
        for j in 0..ny {
            for i in 0..nx {
                let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
                match diagonal {
                    Diagonal::Right => {
                        triangles.push([a, b, c]);
                        triangles.push([a, c, d]);
                    }
                    Diagonal::Left => {
                        triangles.push([a, b, d]);
                        triangles.push([b, c, d]);
                    }
                }
            }
        }
        let mut mesh = Self::new(vertices, triangles)?;
        let tol = 1e-10 * hx.min(hy);
        let mids = mesh.boundary_midpoints();
        mesh.tags
            .tag_rectangle_sides(&mids, [x0, x1, y0, y1], [tol, tol])?;
        Ok(mesh)
    }

    /// Structured mesh of the unit square with `n × n` cells.
    pub fn unit_square(n: usize, diagonal: Diagonal) -> Result<Self, Fem2dError> {
        Self::rectangle(0.0, 1.0, 0.0, 1.0, n, n, diagonal)
    }

    /// Tags (or re-tags) as `name` every boundary edge whose midpoint satisfies `pred`.
    /// Returns the number of edges tagged; an empty selection is [`Fem2dError::EmptyTag`].
    pub fn tag_boundary(
        &mut self,
        name: &str,
        pred: impl Fn([f64; 2]) -> bool,
    ) -> Result<usize, Fem2dError> {
        let mids = self.boundary_midpoints();
        self.tags.tag_where(name, mids, pred)
    }

    /// Midpoints of the boundary edges, in the order of [`Self::boundary_edges`].
    fn boundary_midpoints(&self) -> Vec<[f64; 2]> {
        cells::edge_midpoints(
            &self.vertices,
            &self.edges,
            self.boundary.iter().map(|b| b.edge),
        )
    }

    /// Number of vertices.
    pub fn n_vertices(&self) -> usize {
        self.vertices.len()
    }
    /// Number of triangles.
    pub fn n_cells(&self) -> usize {
        self.triangles.len()
    }
    /// Number of edges.
    pub fn n_edges(&self) -> usize {
        self.edges.len()
    }
    /// Vertex coordinates.
    pub fn vertices(&self) -> &[[f64; 2]] {
        &self.vertices
    }
    /// Triangles (counter-clockwise vertex indices).
    pub fn triangles(&self) -> &[[usize; 3]] {
        &self.triangles
    }
    /// Global edges (lower vertex index first).
    pub fn edges(&self) -> &[[usize; 2]] {
        &self.edges
    }
    /// Global edges of the local edges of triangle `t`.
    pub fn cell_edges(&self, t: usize) -> [usize; 3] {
        self.cell_edges[t]
    }
    /// Triangles adjacent to edge `e` (second `None` on the boundary).
    pub fn edge_cells(&self, e: usize) -> (usize, Option<usize>) {
        let c = self.edge_cells[e];
        (c[0], (c[1] != usize::MAX).then_some(c[1]))
    }
    /// All boundary edges.
    pub fn boundary_edges(&self) -> &[BoundaryEdge] {
        &self.boundary
    }
    /// Names of the boundary tags.
    pub fn tag_names(&self) -> Vec<String> {
        self.tags.names()
    }
    /// Boundary edges carrying tag `name`.
    pub fn tagged_edges(&self, name: &str) -> Result<Vec<BoundaryEdge>, Fem2dError> {
        self.tags.select(name, &self.boundary)
    }

    /// Partitions the boundary edges among `tags`, which must not overlap (one boundary
    /// condition per edge): errors name an unknown tag, or two tags sharing an edge (with
    /// its midpoint).
    pub fn partition_tags(&self, tags: &[&str]) -> Result<TagPartition, Fem2dError> {
        let mut bpos = vec![usize::MAX; self.n_edges()];
        for (i, b) in self.boundary_edges().iter().enumerate() {
            bpos[b.edge] = i;
        }
        let mut owner: Vec<Option<usize>> = vec![None; self.boundary_edges().len()];
        let mut edges: Vec<Vec<BoundaryEdge>> = vec![Vec::new(); tags.len()];
        for (ci, tag) in tags.iter().enumerate() {
            for b in self.tagged_edges(tag)? {
                let i = bpos[b.edge];
                if let Some(prev) = owner[i] {
                    let mid = self.edge_midpoint(b.edge);
                    return Err(FemError::InvalidParameter {
                        name: format!("boundary conditions on tags '{}' and '{tag}'", tags[prev]),
                        value: b.edge as f64,
                        requirement: format!(
                            "one condition per boundary edge; both apply to the edge with midpoint ({:.4}, {:.4}): use disjoint tags",
                            mid[0], mid[1]
                        ),
                    }
                    .into());
                }
                owner[i] = Some(ci);
                edges[ci].push(b);
            }
        }
        Ok(TagPartition { owner, edges })
    }
    /// Coordinates of the vertices of triangle `t`.
    #[inline]
    pub fn cell_coords(&self, t: usize) -> [[f64; 2]; 3] {
        let tri = self.triangles[t];
        [
            self.vertices[tri[0]],
            self.vertices[tri[1]],
            self.vertices[tri[2]],
        ]
    }
    /// Centroid of triangle `t`.
    pub fn cell_centroid(&self, t: usize) -> [f64; 2] {
        let c = self.cell_coords(t);
        [
            (c[0][0] + c[1][0] + c[2][0]) / 3.0,
            (c[0][1] + c[1][1] + c[2][1]) / 3.0,
        ]
    }
    /// The cell containing `x` (first found, tolerance `1e-12` in barycentric coordinates)
    /// and the reference coordinates of `x` in it; [`Fem2dError::PointOutsideMesh`] if none.
    pub fn locate(&self, x: [f64; 2]) -> Result<(usize, [f64; 2]), Fem2dError> {
        for t in 0..self.n_cells() {
            let xh = CellGeometry::new(self, t).inverse_map(x);
            let tol = 1e-12;
            if xh[0] >= -tol && xh[1] >= -tol && xh[0] + xh[1] <= 1.0 + tol {
                return Ok((t, xh));
            }
        }
        Err(Fem2dError::PointOutsideMesh { x })
    }
    /// Sorted, deduplicated DOFs `edge_dofs(e)` of the boundary edges carrying any of
    /// `tags` (the boundary DOFs of an edge-based space).
    pub fn collect_edge_dofs<I: IntoIterator<Item = usize>>(
        &self,
        tags: &[&str],
        edge_dofs: impl Fn(usize) -> I,
    ) -> Result<Vec<usize>, Fem2dError> {
        let mut out = Vec::new();
        for tag in tags {
            for b in self.tagged_edges(tag)? {
                out.extend(edge_dofs(b.edge));
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }
    /// Area of triangle `t`.
    pub fn area(&self, t: usize) -> f64 {
        let c = self.cell_coords(t);
        signed_area(c[0], c[1], c[2])
    }
    /// Midpoint of edge `e`.
    pub fn edge_midpoint(&self, e: usize) -> [f64; 2] {
        let [a, b] = self.edges[e];
        cells::midpoint(self.vertices[a], self.vertices[b])
    }
    /// Length of edge `e`.
    pub fn edge_length(&self, e: usize) -> f64 {
        let [a, b] = self.edges[e];
        cells::distance(self.vertices[a], self.vertices[b])
    }
    /// Outward unit normal $n$ of a boundary edge (the tangent $s = (-n_y, n_x)$ then runs
    /// counter-clockwise around the domain).
    pub fn outward_normal(&self, b: &BoundaryEdge) -> [f64; 2] {
        let c = self.cell_coords(b.cell);
        cells::outward_normal(c[(b.local + 1) % 3], c[(b.local + 2) % 3])
    }
    /// Largest edge length.
    pub fn h_max(&self) -> f64 {
        (0..self.n_edges())
            .map(|e| self.edge_length(e))
            .fold(0.0, f64::max)
    }
}

/// Affine geometry of a triangle: $x = x_0 + J\hat x$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellGeometry {
    /// First vertex.
    pub x0: [f64; 2],
    /// Jacobian columns $(v_1 - v_0, v_2 - v_0)$, row-major `[[J00, J01], [J10, J11]]`.
    pub jac: [[f64; 2]; 2],
    /// $J^{-\top}$ (maps reference gradients to physical gradients), row-major.
    pub inv_jac_t: [[f64; 2]; 2],
    /// $\det J = 2|T|$.
    pub det: f64,
}

impl CellGeometry {
    /// Geometry of cell `t`.
    pub fn new(mesh: &Mesh2d, t: usize) -> Self {
        let c = mesh.cell_coords(t);
        let jac = [
            [c[1][0] - c[0][0], c[2][0] - c[0][0]],
            [c[1][1] - c[0][1], c[2][1] - c[0][1]],
        ];
        let det = jac[0][0] * jac[1][1] - jac[0][1] * jac[1][0];
        // J^{-1} = [[J11, −J01], [−J10, J00]] / det; J^{-T} = [[J11, −J10], [−J01, J00]] / det
        let inv_jac_t = [
            [jac[1][1] / det, -jac[1][0] / det],
            [-jac[0][1] / det, jac[0][0] / det],
        ];
        Self {
            x0: c[0],
            jac,
            inv_jac_t,
            det,
        }
    }
    /// Physical point of reference point `xh`.
    #[inline]
    pub fn map(&self, xh: [f64; 2]) -> [f64; 2] {
        [
            self.x0[0] + self.jac[0][0] * xh[0] + self.jac[0][1] * xh[1],
            self.x0[1] + self.jac[1][0] * xh[0] + self.jac[1][1] * xh[1],
        ]
    }
    /// Reference point of physical point `x`.
    #[inline]
    pub fn inverse_map(&self, x: [f64; 2]) -> [f64; 2] {
        let (dx, dy) = (x[0] - self.x0[0], x[1] - self.x0[1]);
        // x̂ = J^{-1} d, J^{-1} = (J^{-T})^T
        [
            self.inv_jac_t[0][0] * dx + self.inv_jac_t[1][0] * dy,
            self.inv_jac_t[0][1] * dx + self.inv_jac_t[1][1] * dy,
        ]
    }
    /// Physical gradient $J^{-\top}\hat\nabla\phi$.
    #[inline]
    pub fn grad(&self, dxi: f64, deta: f64) -> [f64; 2] {
        [
            self.inv_jac_t[0][0] * dxi + self.inv_jac_t[0][1] * deta,
            self.inv_jac_t[1][0] * dxi + self.inv_jac_t[1][1] * deta,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structured_counts_tags_and_normals() {
        for diag in [Diagonal::Right, Diagonal::Left] {
            let m = Mesh2d::rectangle(0.0, 2.0, -1.0, 1.0, 4, 3, diag).unwrap();
            assert_eq!(m.n_vertices(), 20);
            assert_eq!(m.n_cells(), 24);
            // Euler: V − E + F = 1 for a disk
            assert_eq!(m.n_vertices() + m.n_cells() - m.n_edges(), 1);
            assert_eq!(m.boundary_edges().len(), 14);
            let total: f64 = (0..m.n_cells()).map(|t| m.area(t)).sum();
            assert!((total - 4.0).abs() < 1e-13);
            for (tag, n_exp, normal) in [
                ("left", 3, [-1.0, 0.0]),
                ("right", 3, [1.0, 0.0]),
                ("bottom", 4, [0.0, -1.0]),
                ("top", 4, [0.0, 1.0]),
            ] {
                let edges = m.tagged_edges(tag).unwrap();
                assert_eq!(edges.len(), n_exp, "{tag}");
                for b in &edges {
                    let n = m.outward_normal(b);
                    assert!((n[0] - normal[0]).abs() < 1e-14 && (n[1] - normal[1]).abs() < 1e-14);
                }
            }
        }
    }

    #[test]
    fn predicate_tags_and_errors() {
        let mut m = Mesh2d::unit_square(4, Diagonal::Right).unwrap();
        let n = m
            .tag_boundary("corner", |p| p[0] < 0.3 && p[1] < 0.01)
            .unwrap();
        assert_eq!(n, 1); // bottom edge midpoints x = 0.125, 0.375, …
        assert!(matches!(
            m.tag_boundary("none", |p| p[0] > 5.0),
            Err(Fem2dError::EmptyTag { .. })
        ));
        let err = m.tagged_edges("clamped").unwrap_err();
        assert!(err.to_string().contains("clamped") && err.to_string().contains("left"));
        // inverted triangle (clockwise)
        let v = vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
        let err = Mesh2d::new(v.clone(), vec![[0, 1, 2], [1, 2, 3]]).unwrap_err();
        assert!(
            matches!(err, Fem2dError::InvertedTriangle { index: 1, .. }),
            "{err}"
        );
        // degenerate (collinear)
        let err =
            Mesh2d::new(vec![[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]], vec![[0, 1, 2]]).unwrap_err();
        assert!(matches!(err, Fem2dError::InvertedTriangle { index: 0, .. }));
        let err = Mesh2d::new(v.clone(), vec![[0, 1, 7]]).unwrap_err();
        assert!(matches!(err, Fem2dError::BadTriangle { index: 0, .. }));
        assert!(Mesh2d::new(v, vec![[0, 1, 3], [0, 3, 2]]).is_ok());
        assert!(Mesh2d::unit_square(0, Diagonal::Left).is_err());
        assert!(Mesh2d::rectangle(1.0, 0.0, 0.0, 1.0, 2, 2, Diagonal::Left).is_err());
    }
}
