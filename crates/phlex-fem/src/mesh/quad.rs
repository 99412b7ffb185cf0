//! Conforming quadrilateral meshes with boundary tags (thesis 004 summary §6.1 item 1:
//! "quadrilateral/extruded meshes (for BJT)"; the BJT spaces (7.11) live on square cells).
//!
//! Conventions: quadrilaterals are stored counter-clockwise; local vertex `i` maps to the
//! reference corner $(0,0), (1,0), (1,1), (0,1)$ of $\lbrack 0,1\rbrack^2$ (bilinear map
//! $F(\xi,\eta) = \sum_a v_a N_a(\xi,\eta)$); local edge `i` joins local vertices `i` and
//! `i + 1 mod 4`; global edges store the lower vertex first. [`QuadMesh::new`] rejects
//! non-convex, inverted and degenerate cells (every corner's cross product
//! $(v_{i+1}-v_i)\times(v_{i-1}-v_i)$ must exceed $10^{-12}$ times the squared cell
//! diameter), naming the cell.
//!
//! Generators: [`QuadMesh::rectangle`] (tags `"left"`, `"right"`, `"bottom"`, `"top"`)
//! and [`QuadMesh::disk`] (5-block O-grid: a central square and four blocks blending its
//! sides linearly into the circle arcs; tag `"boundary"`; all boundary vertices on the
//! circle, so the polygon area converges to $\pi R^2$ at order 2).
use super::cells::{self, all_distinct, check_finite_vertices, EdgeNumbering};
use super::tags::BoundaryTags;
use crate::error::Fem2dError;
use crate::error::{require_positive, FemError};
use std::collections::HashMap;

/// A boundary edge of a quadrilateral mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuadBoundaryEdge {
    /// Global edge index.
    pub edge: usize,
    /// The (unique) cell containing it.
    pub cell: usize,
    /// Local edge index in that cell.
    pub local: usize,
}

/// A conforming quadrilateral mesh with edge connectivity and boundary tags.
#[derive(Debug, Clone, PartialEq)]
pub struct QuadMesh {
    vertices: Vec<[f64; 2]>,
    quads: Vec<[usize; 4]>,
    edges: Vec<[usize; 2]>,
    cell_edges: Vec<[usize; 4]>,
    boundary: Vec<QuadBoundaryEdge>,
    tags: BoundaryTags,
}

fn invalid(name: String, value: f64, requirement: &str) -> Fem2dError {
    FemError::InvalidParameter {
        name,
        value,
        requirement: requirement.into(),
    }
    .into()
}

impl QuadMesh {
    /// Builds and validates a mesh from vertices and counter-clockwise quadrilaterals.
    /// Errors (each naming the cell, edge or vertex): non-finite vertices, out-of-range or
    /// repeated indices, non-convex / clockwise / degenerate cells, an edge shared by more
    /// than two cells or traversed in the same direction by both (inconsistent
    /// orientation).
    pub fn new(vertices: Vec<[f64; 2]>, quads: Vec<[usize; 4]>) -> Result<Self, Fem2dError> {
        check_finite_vertices(&vertices)?;
        let nv = vertices.len();
        let mut numbering = EdgeNumbering::default();
        let mut cell_edges = Vec::with_capacity(quads.len());
        let mut uses: Vec<Vec<(usize, usize, bool)>> = Vec::new();
        for (t, q) in quads.iter().enumerate() {
            if q.iter().any(|&v| v >= nv) || !all_distinct(q) {
                return Err(invalid(
                    format!("quadrilateral {t} {q:?}"),
                    nv as f64,
                    "four distinct vertex indices below the number of vertices",
                ));
            }
            let p = q.map(|v| vertices[v]);
            let mut diam2 = 0.0f64;
            for i in 0..4 {
                for j in 0..4 {
                    diam2 = diam2.max((p[i][0] - p[j][0]).powi(2) + (p[i][1] - p[j][1]).powi(2));
                }
            }
            for i in 0..4 {
                let (a, b, c) = (p[(i + 3) % 4], p[i], p[(i + 1) % 4]);
                let cross = (c[0] - b[0]) * (a[1] - b[1]) - (c[1] - b[1]) * (a[0] - b[0]);
                if !(cross > 1e-12 * diam2) {
                    return Err(invalid(
                        format!("corner {i} (vertex {}) of quadrilateral {t} {q:?}", q[i]),
                        cross,
                        "convex, counter-clockwise, non-degenerate cell (positive cross product at every corner; reverse the vertex order if the cell is clockwise)",
                    ));
                }
            }
            let mut ce = [0usize; 4];
            for l in 0..4 {
                let (a, b) = (q[l], q[(l + 1) % 4]);
                let (id, new) = numbering.edge(a, b);
                if new {
                    uses.push(Vec::new());
                }
                uses[id].push((t, l, a < b));
                ce[l] = id;
            }
            cell_edges.push(ce);
        }
        let edges = numbering.into_edges();
        let mut boundary = Vec::new();
        for (e, u) in uses.iter().enumerate() {
            match u.len() {
                1 => boundary.push(QuadBoundaryEdge {
                    edge: e,
                    cell: u[0].0,
                    local: u[0].1,
                }),
                2 if u[0].2 != u[1].2 => {}
                2 => {
                    return Err(invalid(
                        format!("edge {:?} of quadrilaterals {} and {}", edges[e], u[0].0, u[1].0),
                        2.0,
                        "neighbouring cells traverse a shared edge in opposite directions (all cells counter-clockwise, no overlap)",
                    ))
                }
                _ => {
                    return Err(Fem2dError::NonManifoldEdge {
                        a: edges[e][0],
                        b: edges[e][1],
                    })
                }
            }
        }
        Ok(Self {
            vertices,
            quads,
            edges,
            cell_edges,
            boundary,
            tags: BoundaryTags::default(),
        })
    }

    /// Structured mesh of $[0, l_x]\times[0, l_y]$ with `nx × ny` rectangles, tags `"left"`,
    /// `"right"`, `"bottom"`, `"top"`.
    pub fn rectangle(lx: f64, ly: f64, nx: usize, ny: usize) -> Result<Self, Fem2dError> {
        require_positive("lx", lx)?;
        require_positive("ly", ly)?;
        for (name, n) in [("nx", nx), ("ny", ny)] {
            if n == 0 {
                return Err(invalid(name.into(), 0.0, "at least one cell per direction"));
            }
        }
        let mut vertices = Vec::with_capacity((nx + 1) * (ny + 1));
        for j in 0..=ny {
            for i in 0..=nx {
                vertices.push([lx * i as f64 / nx as f64, ly * j as f64 / ny as f64]);
            }
        }
        let id = |i: usize, j: usize| j * (nx + 1) + i;
        let mut quads = Vec::with_capacity(nx * ny);
        for j in 0..ny {
            for i in 0..nx {
                quads.push([id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        let mut m = Self::new(vertices, quads)?;
        let (tx, ty) = (1e-10 * lx / nx as f64, 1e-10 * ly / ny as f64);
        m.tag_rectangle_sides([0.0, lx, 0.0, ly], [tx, ty])?;
        Ok(m)
    }

    /// Tensor-product grid with breakpoints `xs` × `ys` (strictly increasing, finite, at
    /// least 2 each; the BJT plate grids of thesis 004 §7.2.1.1): vertex $(i, j)$ is
    /// number $j\,n_x + i$ with $n_x$ = `xs.len()`, cell $(i, j)$ number $j\,(n_x - 1) + i$
    /// with corners $(i, j), (i+1, j), (i+1, j+1), (i, j+1)$; tags `"left"`, `"right"`,
    /// `"bottom"`, `"top"` as [`Self::rectangle`]. Errors name the offending breakpoint.
    pub fn tensor_grid(xs: &[f64], ys: &[f64]) -> Result<Self, Fem2dError> {
        for (name, b) in [("xs", xs), ("ys", ys)] {
            if b.len() < 2 {
                return Err(invalid(
                    format!("{name} (grid breakpoints)"),
                    b.len() as f64,
                    "at least 2 breakpoints",
                ));
            }
            for i in 1..b.len() {
                if !(b[i] > b[i - 1] && b[i].is_finite() && b[i - 1].is_finite()) {
                    return Err(invalid(
                        format!("{name}[{i}]"),
                        b[i],
                        "finite and greater than the previous breakpoint",
                    ));
                }
            }
        }
        let (nx, ny) = (xs.len(), ys.len());
        let vertices: Vec<[f64; 2]> = ys
            .iter()
            .flat_map(|&y| xs.iter().map(move |&x| [x, y]))
            .collect();
        let id = |i: usize, j: usize| j * nx + i;
        let mut quads = Vec::with_capacity((nx - 1) * (ny - 1));
        for j in 0..ny - 1 {
            for i in 0..nx - 1 {
                quads.push([id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        let mut m = Self::new(vertices, quads)?;
        let (tx, ty) = (1e-10 * (xs[nx - 1] - xs[0]), 1e-10 * (ys[ny - 1] - ys[0]));
        m.tag_rectangle_sides([xs[0], xs[nx - 1], ys[0], ys[ny - 1]], [tx, ty])?;
        Ok(m)
    }

    /// O-grid of the disk of radius `radius` centred at the origin: a central square with
    /// corners at radius $R/2$ split into `n × n` cells and four blocks of `n × n` cells
    /// between its sides and the circle (module docs); tag `"boundary"`.
    pub fn disk(radius: f64, n: usize) -> Result<Self, Fem2dError> {
        require_positive("radius", radius)?;
        if n == 0 {
            return Err(invalid("n".into(), 0.0, "n >= 1 cells per block side"));
        }
        let s = 0.5 * radius / std::f64::consts::SQRT_2;
        let mut vertices: Vec<[f64; 2]> = Vec::new();
        let mut index: HashMap<(i64, i64), usize> = HashMap::new();
        let scale = 1e9 / radius;
        let mut vid = |p: [f64; 2]| -> usize {
            let key = ((p[0] * scale).round() as i64, (p[1] * scale).round() as i64);
            *index.entry(key).or_insert_with(|| {
                vertices.push(p);
                vertices.len() - 1
            })
        };
        let mut quads = Vec::new();
        let nf = n as f64;
        // central square
        let mut grid = vec![vec![0usize; n + 1]; n + 1];
        for (j, row) in grid.iter_mut().enumerate() {
            for (i, g) in row.iter_mut().enumerate() {
                *g = vid([-s + 2.0 * s * i as f64 / nf, -s + 2.0 * s * j as f64 / nf]);
            }
        }
        for j in 0..n {
            for i in 0..n {
                quads.push([
                    grid[j][i],
                    grid[j][i + 1],
                    grid[j + 1][i + 1],
                    grid[j + 1][i],
                ]);
            }
        }
        // four blocks: rotate the right block (x = s side, arc −π/4..π/4) by q·π/2
        for q in 0..4 {
            let (c, sn) = match q {
                0 => (1.0, 0.0),
                1 => (0.0, 1.0),
                2 => (-1.0, 0.0),
                _ => (0.0, -1.0),
            };
            let rot = |p: [f64; 2]| [c * p[0] - sn * p[1], sn * p[0] + c * p[1]];
            let mut g = vec![vec![0usize; n + 1]; n + 1];
            for (a, row) in g.iter_mut().enumerate() {
                // a: along the side, b: radial
                let xi = a as f64 / nf;
                let inner = [s, -s + 2.0 * s * xi];
                let phi = -std::f64::consts::FRAC_PI_4 + xi * std::f64::consts::FRAC_PI_2;
                let outer = [radius * phi.cos(), radius * phi.sin()];
                for (b, gg) in row.iter_mut().enumerate() {
                    let eta = b as f64 / nf;
                    let p = if b == n {
                        outer
                    } else {
                        [
                            (1.0 - eta) * inner[0] + eta * outer[0],
                            (1.0 - eta) * inner[1] + eta * outer[1],
                        ]
                    };
                    *gg = vid(rot(p));
                }
            }
            for a in 0..n {
                for b in 0..n {
                    // radial (b) = local x, along side (a) = local y: counter-clockwise
                    quads.push([g[a][b], g[a][b + 1], g[a + 1][b + 1], g[a + 1][b]]);
                }
            }
        }
        let mut m = Self::new(vertices, quads)?;
        m.tag_boundary("boundary", |_| true)?;
        Ok(m)
    }

    /// Tags (or re-tags) as `name` every boundary edge whose midpoint satisfies `pred`;
    /// returns the number of edges, an empty selection is [`Fem2dError::EmptyTag`].
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

    /// Tags the sides of the rectangle `[x0, x1, y0, y1]` (see
    /// [`BoundaryTags::tag_rectangle_sides`]).
    fn tag_rectangle_sides(&mut self, sides: [f64; 4], tol: [f64; 2]) -> Result<(), Fem2dError> {
        let mids = self.boundary_midpoints();
        self.tags.tag_rectangle_sides(&mids, sides, tol)
    }

    /// Number of vertices.
    pub fn n_vertices(&self) -> usize {
        self.vertices.len()
    }
    /// Number of cells.
    pub fn n_cells(&self) -> usize {
        self.quads.len()
    }
    /// Number of edges.
    pub fn n_edges(&self) -> usize {
        self.edges.len()
    }
    /// Vertex coordinates.
    pub fn vertices(&self) -> &[[f64; 2]] {
        &self.vertices
    }
    /// Cells (counter-clockwise global vertex indices).
    pub fn quads(&self) -> &[[usize; 4]] {
        &self.quads
    }
    /// Global edges (lower vertex first).
    pub fn edges(&self) -> &[[usize; 2]] {
        &self.edges
    }
    /// Global edges of the four local edges of cell `t`.
    pub fn cell_edges(&self, t: usize) -> [usize; 4] {
        self.cell_edges[t]
    }
    /// All boundary edges.
    pub fn boundary_edges(&self) -> &[QuadBoundaryEdge] {
        &self.boundary
    }
    /// Tag names, sorted.
    pub fn tag_names(&self) -> Vec<String> {
        self.tags.names()
    }
    /// Boundary edges carrying tag `name`.
    pub fn tagged_edges(&self, name: &str) -> Result<Vec<QuadBoundaryEdge>, Fem2dError> {
        self.tags.select(name, &self.boundary)
    }
    /// Coordinates of the four vertices of cell `t`.
    pub fn cell_coords(&self, t: usize) -> [[f64; 2]; 4] {
        self.quads[t].map(|v| self.vertices[v])
    }
    /// Area of cell `t` (shoelace formula, exact for the bilinear cell).
    pub fn area(&self, t: usize) -> f64 {
        let p = self.cell_coords(t);
        0.5 * (0..4)
            .map(|i| p[i][0] * p[(i + 1) % 4][1] - p[(i + 1) % 4][0] * p[i][1])
            .sum::<f64>()
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
    /// Outward unit normal of a boundary edge.
    pub fn outward_normal(&self, b: &QuadBoundaryEdge) -> [f64; 2] {
        let c = self.cell_coords(b.cell);
        cells::outward_normal(c[b.local], c[(b.local + 1) % 4])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rectangle: counts, Euler characteristic, tags with outward normals.
    #[test]
    fn rectangle_topology_and_tags() {
        let m = QuadMesh::rectangle(2.0, 1.0, 4, 3).unwrap();
        assert_eq!((m.n_vertices(), m.n_cells(), m.n_edges()), (20, 12, 31));
        assert_eq!(
            m.n_vertices() as i64 - m.n_edges() as i64 + m.n_cells() as i64,
            1
        );
        let a: f64 = (0..m.n_cells()).map(|t| m.area(t)).sum();
        assert!((a - 2.0).abs() < 1e-14);
        for (tag, n, normal) in [
            ("left", 3, [-1.0, 0.0]),
            ("right", 3, [1.0, 0.0]),
            ("bottom", 4, [0.0, -1.0]),
            ("top", 4, [0.0, 1.0]),
        ] {
            let e = m.tagged_edges(tag).unwrap();
            assert_eq!(e.len(), n);
            for b in &e {
                let nn = m.outward_normal(b);
                assert!((nn[0] - normal[0]).abs() < 1e-14 && (nn[1] - normal[1]).abs() < 1e-14);
            }
        }
        assert!(m.tagged_edges("clamped").is_err());
    }

    /// Clockwise, non-convex and degenerate cells are rejected naming the cell.
    #[test]
    fn invalid_cells_are_named() {
        let v = vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.2, 0.2]];
        assert!(QuadMesh::new(v.clone(), vec![[0, 1, 2, 3]]).is_ok());
        let e = QuadMesh::new(v.clone(), vec![[0, 3, 2, 1]]).unwrap_err();
        assert!(e.to_string().contains("quadrilateral 0"), "{e}");
        // non-convex: vertex 4 pulls corner inwards
        let e = QuadMesh::new(v.clone(), vec![[0, 1, 4, 3]]).unwrap_err();
        assert!(e.to_string().contains("vertex 4"), "{e}");
        let e = QuadMesh::new(v.clone(), vec![[0, 1, 1, 3]]).unwrap_err();
        assert!(e.to_string().contains("distinct"), "{e}");
        let flat = vec![[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [1.0, 1.0]];
        assert!(QuadMesh::new(flat, vec![[0, 1, 2, 3]]).is_err());
    }

    /// Disk O-grid: 5 n² cells, boundary vertices on the circle, area → π R² at order 2.
    #[test]
    fn disk_area_converges() {
        let r = 1.5;
        let exact = std::f64::consts::PI * r * r;
        let mut errs = Vec::new();
        for n in [2usize, 4, 8, 16] {
            let m = QuadMesh::disk(r, n).unwrap();
            assert_eq!(m.n_cells(), 5 * n * n);
            assert_eq!(m.tagged_edges("boundary").unwrap().len(), 4 * n);
            for b in m.boundary_edges() {
                for v in m.edges()[b.edge] {
                    let p = m.vertices()[v];
                    assert!(((p[0] * p[0] + p[1] * p[1]).sqrt() - r).abs() < 1e-13);
                }
            }
            let a: f64 = (0..m.n_cells()).map(|t| m.area(t)).sum();
            errs.push((exact - a) / exact);
        }
        for w in errs.windows(2) {
            let order = (w[0] / w[1]).log2();
            assert!((order - 2.0).abs() < 0.05, "{errs:?}");
        }
        assert!(errs[3] < 2e-3, "{errs:?}");
    }
}
