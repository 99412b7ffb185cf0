//! Tetrahedral meshes in 3D with edge connectivity and named boundary face tags, for the
//! 3D elasticity model of [`crate::models::continuum::elasticity`] (thesis 004 Ch. 3, §9.3.1; summary §2.4).
//!
//! Conventions:
//! * tetrahedra are stored with positive orientation ($\det[v_1-v_0, v_2-v_0, v_3-v_0] > 0$);
//!   [`Mesh3d::new`] rejects inverted or degenerate ones;
//! * local edges are $(0,1), (0,2), (0,3), (1,2), (1,3), (2,3)$ ([`LOCAL_EDGES`]); global
//!   edges store the lower global vertex first;
//! * local face `i` is opposite local vertex `i`.
//!
//! [`Mesh3d::box_mesh`] splits each hexahedron of a structured grid into 6 tetrahedra
//! sharing the main diagonal (Kuhn / Freudenthal triangulation, conforming across cells)
//! and tags the six sides `"xmin"`, `"xmax"`, `"ymin"`, `"ymax"`, `"zmin"`, `"zmax"`.
use super::cells::{all_distinct, bounding_box_diagonal_squared, EdgeNumbering};
use super::tags::BoundaryTags;
use crate::error::Fem2dError;
use crate::error::FemError;
use std::collections::HashMap;

/// Local vertex pairs of the six edges of a tetrahedron.
pub const LOCAL_EDGES: [[usize; 2]; 6] = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]];

/// A boundary face: the tetrahedron containing it, its local index (opposite local vertex)
/// and its three global vertices.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundaryFace {
    /// The (unique) tetrahedron containing it.
    pub cell: usize,
    /// Local face index (= the local vertex it is opposite to).
    pub local: usize,
    /// Global vertices of the face.
    pub vertices: [usize; 3],
}

/// A conforming tetrahedral mesh with boundary face tags.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh3d {
    vertices: Vec<[f64; 3]>,
    tets: Vec<[usize; 4]>,
    edges: Vec<[usize; 2]>,
    cell_edges: Vec<[usize; 6]>,
    boundary: Vec<BoundaryFace>,
    tags: BoundaryTags,
}

/// The vertices of local face `f` (opposite local vertex `f`) of tetrahedron `tet`, sorted:
/// the key shared by the two tetrahedra of an interior face.
pub fn face_key(tet: &[usize; 4], f: usize) -> [usize; 3] {
    let mut key = [0usize; 3];
    let mut j = 0;
    for (i, &v) in tet.iter().enumerate() {
        if i != f {
            key[j] = v;
            j += 1;
        }
    }
    key.sort_unstable();
    key
}

/// Signed volume of the tetrahedron `(a, b, c, d)` (positive if positively oriented).
#[inline]
pub fn signed_volume(a: [f64; 3], b: [f64; 3], c: [f64; 3], d: [f64; 3]) -> f64 {
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let w = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
    (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
        + u[2] * (v[0] * w[1] - v[1] * w[0]))
        / 6.0
}

impl Mesh3d {
    /// Builds and validates a mesh from vertex coordinates and positively oriented
    /// tetrahedra. Errors: non-finite vertices, out-of-range or repeated vertex indices,
    /// volume `<= 1e-14 ×` (bounding box diagonal)³, faces shared by three tetrahedra.
    pub fn new(vertices: Vec<[f64; 3]>, tets: Vec<[usize; 4]>) -> Result<Self, Fem2dError> {
        let bad = |name: String, value: f64, requirement: String| -> Fem2dError {
            FemError::InvalidParameter {
                name,
                value,
                requirement,
            }
            .into()
        };
        for (i, v) in vertices.iter().enumerate() {
            if v.iter().any(|c| !c.is_finite()) {
                return Err(bad(
                    format!("vertex {i} {v:?}"),
                    f64::NAN,
                    "finite coordinates".into(),
                ));
            }
        }
        let diag = bounding_box_diagonal_squared(&vertices).sqrt();
        let nv = vertices.len();
        let mut numbering = EdgeNumbering::default();
        let mut cell_edges = Vec::with_capacity(tets.len());
        let mut faces: HashMap<[usize; 3], Vec<(usize, usize)>> = HashMap::new();
        for (t, tet) in tets.iter().enumerate() {
            if tet.iter().any(|&v| v >= nv) || !all_distinct(tet) {
                return Err(bad(
                    format!("tetrahedron {t} {tet:?}"),
                    nv as f64,
                    format!("four distinct vertex indices < {nv}"),
                ));
            }
            let vol = signed_volume(
                vertices[tet[0]],
                vertices[tet[1]],
                vertices[tet[2]],
                vertices[tet[3]],
            );
            if vol <= 1e-14 * diag.powi(3) {
                return Err(bad(
                    format!("volume of tetrahedron {t} {tet:?}"),
                    vol,
                    "positive orientation and non-degenerate (swap two vertices if inverted)"
                        .into(),
                ));
            }
            let mut ce = [0usize; 6];
            for (k, [a, b]) in LOCAL_EDGES.iter().enumerate() {
                ce[k] = numbering.edge(tet[*a], tet[*b]).0;
            }
            cell_edges.push(ce);
            for f in 0..4 {
                faces.entry(face_key(tet, f)).or_default().push((t, f));
            }
        }
        let edges = numbering.into_edges();
        let mut boundary = Vec::new();
        let mut keys: Vec<_> = faces.into_iter().collect();
        keys.sort_unstable_by_key(|(k, _)| *k);
        for (key, cells) in keys {
            match cells.len() {
                1 => boundary.push(BoundaryFace {
                    cell: cells[0].0,
                    local: cells[0].1,
                    vertices: key,
                }),
                2 => {}
                _ => {
                    return Err(bad(
                        format!("face {key:?}"),
                        cells.len() as f64,
                        "each face shared by at most two tetrahedra".into(),
                    ))
                }
            }
        }
        Ok(Self {
            vertices,
            tets,
            edges,
            cell_edges,
            boundary,
            tags: BoundaryTags::default(),
        })
    }

    /// Structured mesh of the box `lo` to `hi` (corners) with
    /// `n[0] × n[1] × n[2]` hexahedra, each split into 6 tetrahedra (module docs); boundary faces
    /// tagged `"xmin"`, `"xmax"`, `"ymin"`, `"ymax"`, `"zmin"`, `"zmax"`.
    pub fn box_mesh(lo: [f64; 3], hi: [f64; 3], n: [usize; 3]) -> Result<Self, Fem2dError> {
        for c in 0..3 {
            if n[c] == 0 {
                return Err(FemError::InvalidParameter {
                    name: format!("n[{c}]"),
                    value: 0.0,
                    requirement: "at least one cell per direction".into(),
                }
                .into());
            }
            if !(hi[c] - lo[c] > 0.0 && (hi[c] - lo[c]).is_finite()) {
                return Err(FemError::InvalidParameter {
                    name: format!("hi[{c}] - lo[{c}]"),
                    value: hi[c] - lo[c],
                    requirement: "positive and finite box side".into(),
                }
                .into());
            }
        }
        let coord = |c: usize, i: usize| {
            if i == n[c] {
                hi[c]
            } else {
                lo[c] + i as f64 * (hi[c] - lo[c]) / n[c] as f64
            }
        };
        let mut vertices = Vec::with_capacity((n[0] + 1) * (n[1] + 1) * (n[2] + 1));
        for k in 0..=n[2] {
            for j in 0..=n[1] {
                for i in 0..=n[0] {
                    vertices.push([coord(0, i), coord(1, j), coord(2, k)]);
                }
            }
        }
        let id = |i: usize, j: usize, k: usize| (k * (n[1] + 1) + j) * (n[0] + 1) + i;
        let perms = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        let mut tets = Vec::with_capacity(6 * n[0] * n[1] * n[2]);
        for k in 0..n[2] {
            for j in 0..n[1] {
                for i in 0..n[0] {
                    for p in &perms {
                        // path from (0,0,0) to (1,1,1) stepping along axes p[0], p[1], p[2]
                        let mut c = [i, j, k];
                        let mut tet = [id(c[0], c[1], c[2]), 0, 0, 0];
                        for (s, &ax) in p.iter().enumerate() {
                            c[ax] += 1;
                            tet[s + 1] = id(c[0], c[1], c[2]);
                        }
                        let v = |q: usize| vertices[tet[q]];
                        if signed_volume(v(0), v(1), v(2), v(3)) < 0.0 {
                            tet.swap(2, 3);
                        }
                        tets.push(tet);
                    }
                }
            }
        }
        let mut mesh = Self::new(vertices, tets)?;
        let names = [["xmin", "xmax"], ["ymin", "ymax"], ["zmin", "zmax"]];
        for c in 0..3 {
            let tol = 1e-10 * (hi[c] - lo[c]) / n[c] as f64;
            mesh.tag_boundary(names[c][0], |p| (p[c] - lo[c]).abs() < tol)?;
            mesh.tag_boundary(names[c][1], |p| (p[c] - hi[c]).abs() < tol)?;
        }
        Ok(mesh)
    }

    /// Tags (or re-tags) as `name` every boundary face whose centroid satisfies `pred`.
    /// Returns the number of faces tagged; an empty selection is [`Fem2dError::EmptyTag`].
    pub fn tag_boundary(
        &mut self,
        name: &str,
        pred: impl Fn([f64; 3]) -> bool,
    ) -> Result<usize, Fem2dError> {
        let centroids: Vec<[f64; 3]> = self
            .boundary
            .iter()
            .map(|f| self.face_centroid(f))
            .collect();
        self.tags.tag_where(name, centroids, pred)
    }

    /// Tags (or re-tags) as `name` the boundary faces with the given vertex triples (any
    /// vertex order), e.g. the physical surface triangles of a Gmsh file. Returns the
    /// number of faces tagged. Errors: an empty list ([`Fem2dError::EmptyTag`]), a triple
    /// that is not a boundary face (an interior face or no face of the mesh).
    pub fn tag_faces(&mut self, name: &str, faces: &[[usize; 3]]) -> Result<usize, Fem2dError> {
        if faces.is_empty() {
            return Err(Fem2dError::EmptyTag { tag: name.into() });
        }
        let lookup: HashMap<[usize; 3], usize> = self
            .boundary
            .iter()
            .enumerate()
            .map(|(k, f)| (f.vertices, k))
            .collect();
        let mut sel = Vec::with_capacity(faces.len());
        for f in faces {
            let mut key = *f;
            key.sort_unstable();
            match lookup.get(&key) {
                Some(&k) => sel.push(k),
                None => {
                    return Err(FemError::InvalidParameter {
                        name: format!("face {f:?} of tag '{name}'"),
                        value: f64::NAN,
                        requirement: "three vertices of a boundary face of the tetrahedral mesh"
                            .into(),
                    }
                    .into())
                }
            }
        }
        sel.sort_unstable();
        sel.dedup();
        Ok(self.tags.insert(name, sel))
    }

    /// Number of vertices.
    pub fn n_vertices(&self) -> usize {
        self.vertices.len()
    }
    /// Number of tetrahedra.
    pub fn n_cells(&self) -> usize {
        self.tets.len()
    }
    /// Number of edges.
    pub fn n_edges(&self) -> usize {
        self.edges.len()
    }
    /// Vertex coordinates.
    pub fn vertices(&self) -> &[[f64; 3]] {
        &self.vertices
    }
    /// Tetrahedra (global vertex indices).
    pub fn tets(&self) -> &[[usize; 4]] {
        &self.tets
    }
    /// Global edges (lower vertex first).
    pub fn edges(&self) -> &[[usize; 2]] {
        &self.edges
    }
    /// Global edges of the local edges ([`LOCAL_EDGES`]) of tetrahedron `t`.
    pub fn cell_edges(&self, t: usize) -> [usize; 6] {
        self.cell_edges[t]
    }
    /// All boundary faces.
    pub fn boundary_faces(&self) -> &[BoundaryFace] {
        &self.boundary
    }
    /// Tag names, sorted.
    pub fn tag_names(&self) -> Vec<String> {
        self.tags.names()
    }
    /// Boundary faces carrying tag `name`.
    pub fn tagged_faces(&self, name: &str) -> Result<Vec<BoundaryFace>, Fem2dError> {
        self.tags.select(name, &self.boundary)
    }
    /// Coordinates of the vertices of tetrahedron `t`.
    pub fn cell_coords(&self, t: usize) -> [[f64; 3]; 4] {
        let c = self.tets[t];
        [
            self.vertices[c[0]],
            self.vertices[c[1]],
            self.vertices[c[2]],
            self.vertices[c[3]],
        ]
    }
    /// Volume of tetrahedron `t`.
    pub fn volume(&self, t: usize) -> f64 {
        let c = self.cell_coords(t);
        signed_volume(c[0], c[1], c[2], c[3])
    }
    /// Centroid of a boundary face.
    pub fn face_centroid(&self, f: &BoundaryFace) -> [f64; 3] {
        let mut c = [0.0; 3];
        for &v in &f.vertices {
            for (a, x) in c.iter_mut().zip(self.vertices[v]) {
                *a += x / 3.0;
            }
        }
        c
    }
    /// Area of a boundary face.
    pub fn face_area(&self, f: &BoundaryFace) -> f64 {
        let [a, b, c] = f.vertices.map(|v| self.vertices[v]);
        let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let x = [
            u[1] * w[2] - u[2] * w[1],
            u[2] * w[0] - u[0] * w[2],
            u[0] * w[1] - u[1] * w[0],
        ];
        0.5 * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt()
    }
    /// Cell containing the physical point `x` and its reference coordinates (first match,
    /// barycentric tolerance $10^{-10}$); [`Fem2dError::PointOutside3d`] if none.
    pub fn locate(&self, x: [f64; 3]) -> Result<(usize, [f64; 3]), Fem2dError> {
        for t in 0..self.n_cells() {
            let g = TetGeometry::new(self, t);
            let d = [x[0] - g.x0[0], x[1] - g.x0[1], x[2] - g.x0[2]];
            // reference point = J^{-1} d = (J^{-T})^T d
            let m = &g.inv_jac_t;
            let xh = [0, 1, 2].map(|c| m[0][c] * d[0] + m[1][c] * d[1] + m[2][c] * d[2]);
            let tol = 1e-10;
            if xh.iter().all(|&v| v >= -tol) && xh.iter().sum::<f64>() <= 1.0 + tol {
                return Ok((t, xh));
            }
        }
        Err(Fem2dError::PointOutside3d { x })
    }
}

/// Affine geometry of a tetrahedron: $x = x_0 + J\hat x$, with $J^{-\top}$ and $\det J$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TetGeometry {
    /// First vertex.
    pub x0: [f64; 3],
    /// Columns $v_i - v_0$, row-major.
    pub jac: [[f64; 3]; 3],
    /// $J^{-\top}$, row-major.
    pub inv_jac_t: [[f64; 3]; 3],
    /// $\det J = 6|T|$.
    pub det: f64,
}

impl TetGeometry {
    /// Geometry of cell `t`.
    pub fn new(mesh: &Mesh3d, t: usize) -> Self {
        let c = mesh.cell_coords(t);
        let mut j = [[0.0; 3]; 3];
        for r in 0..3 {
            for col in 0..3 {
                j[r][col] = c[col + 1][r] - c[0][r];
            }
        }
        let det = j[0][0] * (j[1][1] * j[2][2] - j[1][2] * j[2][1])
            - j[0][1] * (j[1][0] * j[2][2] - j[1][2] * j[2][0])
            + j[0][2] * (j[1][0] * j[2][1] - j[1][1] * j[2][0]);
        // cofactor matrix / det = J^{-T}
        let mut it = [[0.0; 3]; 3];
        for (r, row) in it.iter_mut().enumerate() {
            for (col, x) in row.iter_mut().enumerate() {
                let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
                let (c1, c2) = ((col + 1) % 3, (col + 2) % 3);
                *x = (j[r1][c1] * j[r2][c2] - j[r1][c2] * j[r2][c1]) / det;
            }
        }
        Self {
            x0: c[0],
            jac: j,
            inv_jac_t: it,
            det,
        }
    }
    /// Physical point of reference point `xh`.
    pub fn map(&self, xh: [f64; 3]) -> [f64; 3] {
        let mut x = self.x0;
        for (r, xr) in x.iter_mut().enumerate() {
            for (a, b) in self.jac[r].iter().zip(xh) {
                *xr += a * b;
            }
        }
        x
    }
    /// Physical gradient $J^{-\top}\hat\nabla\phi$.
    #[inline]
    pub fn grad(&self, g: [f64; 3]) -> [f64; 3] {
        let m = &self.inv_jac_t;
        [
            m[0][0] * g[0] + m[0][1] * g[1] + m[0][2] * g[2],
            m[1][0] * g[0] + m[1][1] * g[1] + m[1][2] * g[2],
            m[2][0] * g[0] + m[2][1] * g[1] + m[2][2] * g[2],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Box [0, 2] × [0, 1] × [0, 3] with 2 × 3 × 2 hexahedra: 72 tetrahedra filling the
    /// volume 6; every side is tagged with 2 faces per hexahedron face and its area;
    /// Euler characteristic V − E + F − T = 1 of a ball.
    #[test]
    fn box_mesh_volume_tags_and_topology() {
        let m = Mesh3d::box_mesh([0.0, 0.0, 0.0], [2.0, 1.0, 3.0], [2, 3, 2]).unwrap();
        assert_eq!(m.n_cells(), 72);
        let vol: f64 = (0..m.n_cells()).map(|t| m.volume(t)).sum();
        assert!((vol - 6.0).abs() < 1e-13);
        for (tag, faces, area) in [
            ("xmin", 2 * 3 * 2, 3.0),
            ("xmax", 12, 3.0),
            ("ymin", 2 * 2 * 2, 6.0),
            ("ymax", 8, 6.0),
            ("zmin", 2 * 2 * 3, 2.0),
            ("zmax", 12, 2.0),
        ] {
            let f = m.tagged_faces(tag).unwrap();
            assert_eq!(f.len(), faces, "{tag}");
            let a: f64 = f.iter().map(|b| m.face_area(b)).sum();
            assert!((a - area).abs() < 1e-13, "{tag}: {a}");
        }
        assert_eq!(m.boundary_faces().len(), 2 * (12 + 8 + 12));
        // interior faces: each tet has 4 faces, boundary ones counted once
        let n_faces = (4 * m.n_cells() + m.boundary_faces().len()) / 2;
        let chi = m.n_vertices() as i64 - m.n_edges() as i64 + n_faces as i64 - m.n_cells() as i64;
        assert_eq!(chi, 1);
        assert!(matches!(
            m.tagged_faces("left"),
            Err(Fem2dError::UnknownTag { .. })
        ));
        assert!(Mesh3d::box_mesh([0.0; 3], [1.0, 1.0, 0.0], [1, 1, 1]).is_err());
        assert!(Mesh3d::box_mesh([0.0; 3], [1.0; 3], [1, 0, 1]).is_err());
        // inverted tetrahedron
        let v = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ];
        assert!(Mesh3d::new(v.clone(), vec![[0, 1, 2, 3]]).is_ok());
        assert!(Mesh3d::new(v, vec![[0, 2, 1, 3]]).is_err());
    }
}
