//! VTK output of 2D and 3D fields for ParaView: unstructured-grid files (`.vtu`, XML,
//! ASCII) on triangle ([`Vtu::new`], `VTK_TRIANGLE` = 5), quadrilateral
//! ([`Vtu::new_quad`], `VTK_QUAD` = 9, e.g. the BJT plate grids) or tetrahedron
//! ([`Vtu::new_3d`], `VTK_TETRA` = 10) meshes, and time-series collections (`.pvd`).
//! Higher-order fields on quadrilaterals are written by their vertex values (point data) or
//! cell values (cell data) on the bilinear cells.
//!
//! Fields are written on the mesh as *point data* (values at the mesh vertices,
//! averaged over the cells sharing a vertex, which is exact for continuous fields and the
//! usual nodal average for DG fields) or *cell data* (values at the cell centroids, the
//! natural view of $DG_0$ stresses). The files are strings; the caller writes them (the
//! `phlex` CLI writes atomically).
//!
//! Written by hand: the XML subset ParaView needs is a few lines, and the VTK crates on
//! crates.io either pull in large dependency trees or target legacy formats.
use std::fmt::Write;

use crate::element::triangle::LagrangeP;
use crate::error::Fem2dError;
use crate::mesh::quad::QuadMesh;
use crate::mesh::tet::Mesh3d;
use crate::mesh::triangle::Mesh2d;
use crate::space::quad::QuadSpace;
use crate::space::tet::Space3d;
use crate::space::triangle::Space2d;

/// Values of the field with coefficients `u` at the mesh vertices, `n_comp` per vertex
/// (vertex-major), averaged over the cells sharing each vertex.
pub fn vertex_values(space: &Space2d, u: &[f64]) -> Result<Vec<f64>, Fem2dError> {
    check_len(space, u)?;
    let mesh = space.mesh();
    let nc = space.n_comp();
    let mut acc = vec![0.0; mesh.n_vertices() * nc];
    let mut count = vec![0usize; mesh.n_vertices()];
    let el = space.element();
    let refv = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
    let nl = el.n_local();
    let (mut v, mut dx, mut dy) = (vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
    for t in 0..mesh.n_cells() {
        let tri = mesh.triangles()[t];
        for (a, xh) in refv.iter().enumerate() {
            eval_at(el, space, u, t, *xh, &mut v, &mut dx, &mut dy, |c, val| {
                acc[tri[a] * nc + c] += val;
            });
            count[tri[a]] += 1;
        }
    }
    average_by_count(&mut acc, &count, nc);
    Ok(acc)
}

/// Values of the field with coefficients `u` at the cell centroids, `n_comp` per cell.
pub fn cell_values(space: &Space2d, u: &[f64]) -> Result<Vec<f64>, Fem2dError> {
    check_len(space, u)?;
    let mesh = space.mesh();
    let nc = space.n_comp();
    let mut out = vec![0.0; mesh.n_cells() * nc];
    let el = space.element();
    let nl = el.n_local();
    let (mut v, mut dx, mut dy) = (vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
    for t in 0..mesh.n_cells() {
        let c3 = 1.0 / 3.0;
        eval_at(
            el,
            space,
            u,
            t,
            [c3, c3],
            &mut v,
            &mut dx,
            &mut dy,
            |c, val| {
                out[t * nc + c] += val;
            },
        );
    }
    Ok(out)
}

/// Values of the 3D field with coefficients `u` at the mesh vertices, `n_comp` per vertex
/// (vertex-major), averaged over the tetrahedra sharing each vertex (as [`vertex_values`]).
pub fn vertex_values_3d(space: &Space3d, u: &[f64]) -> Result<Vec<f64>, Fem2dError> {
    let refv = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    let mesh = space.mesh();
    let nc = space.n_comp();
    let mut acc = vec![0.0; mesh.n_vertices() * nc];
    let mut count = vec![0usize; mesh.n_vertices()];
    for_each_3d(space, u, &refv, |t, a, c, val| {
        let v = mesh.tets()[t][a];
        acc[v * nc + c] += val;
        if c == 0 {
            count[v] += 1;
        }
    })?;
    average_by_count(&mut acc, &count, nc);
    Ok(acc)
}

/// Values of the 3D field with coefficients `u` at the tetrahedron centroids, `n_comp` per
/// cell.
pub fn cell_values_3d(space: &Space3d, u: &[f64]) -> Result<Vec<f64>, Fem2dError> {
    let nc = space.n_comp();
    let mut out = vec![0.0; space.mesh().n_cells() * nc];
    for_each_3d(space, u, &[[0.25; 3]], |t, _, c, val| {
        out[t * nc + c] += val
    })?;
    Ok(out)
}

/// Calls `sink(cell, point index, component, value)` for every cell and reference point.
fn for_each_3d(
    space: &Space3d,
    u: &[f64],
    points: &[[f64; 3]],
    mut sink: impl FnMut(usize, usize, usize, f64),
) -> Result<(), Fem2dError> {
    check_dofs(space.n_dofs(), || space.describe(), u)?;
    let el = space.element();
    let nl = el.n_local();
    let (mut v, mut g) = (vec![0.0; nl], vec![[0.0; 3]; nl]);
    for t in 0..space.mesh().n_cells() {
        let dofs = space.cell_dofs(t);
        for (a, xh) in points.iter().enumerate() {
            el.eval(*xh, &mut v, &mut g);
            for c in 0..space.n_comp() {
                let s: f64 = dofs
                    .iter()
                    .zip(&v)
                    .map(|(&i, &phi)| u[space.global(c, i)] * phi)
                    .sum();
                sink(t, a, c, s);
            }
        }
    }
    Ok(())
}

/// Values of the scalar quadrilateral-mesh field with coefficients `u` at the mesh
/// vertices, averaged over the cells sharing each vertex (exact for $Q_k$, the nodal
/// average for $DQ_k$/DG $P_k$; higher-order fields are sampled at the vertices only).
pub fn quad_vertex_values(space: &QuadSpace, u: &[f64]) -> Result<Vec<f64>, Fem2dError> {
    let mesh = space.mesh();
    let mut sum = vec![0.0; mesh.n_vertices()];
    let mut cnt = vec![0u32; mesh.n_vertices()];
    let corners = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    for (t, q) in mesh.quads().iter().enumerate() {
        for (a, &v) in q.iter().enumerate() {
            sum[v] += space.value_in_cell(u, t, corners[a])?;
            cnt[v] += 1;
        }
    }
    Ok(sum
        .iter()
        .zip(&cnt)
        .map(|(s, &c)| if c > 0 { s / c as f64 } else { 0.0 })
        .collect())
}

/// Values of the scalar quadrilateral-mesh field with coefficients `u` at the cell centres
/// (reference point (½, ½)).
pub fn quad_cell_values(space: &QuadSpace, u: &[f64]) -> Result<Vec<f64>, Fem2dError> {
    (0..space.mesh().n_cells())
        .map(|t| space.value_in_cell(u, t, [0.5, 0.5]))
        .collect()
}

/// Divides the `nc` components accumulated at each vertex by the number of cells that
/// contributed to it (the nodal average of the module docs); vertices of no cell keep 0.
fn average_by_count(acc: &mut [f64], count: &[usize], nc: usize) {
    for (i, c) in count.iter().enumerate() {
        if *c > 0 {
            for k in 0..nc {
                acc[i * nc + k] /= *c as f64;
            }
        }
    }
}

/// Checks that `u` has `n_dofs` coefficients; the error names the space (`describe`).
fn check_dofs(
    n_dofs: usize,
    describe: impl FnOnce() -> String,
    u: &[f64],
) -> Result<(), Fem2dError> {
    if u.len() != n_dofs {
        return Err(crate::FemError::Length {
            what: format!("{} coefficient vector", describe()),
            expected: n_dofs,
            found: u.len(),
        }
        .into());
    }
    Ok(())
}

fn check_len(space: &Space2d, u: &[f64]) -> Result<(), Fem2dError> {
    check_dofs(space.n_dofs(), || space.describe(), u)
}

/// Calls `sink(component, value)` with the field value at reference point `xh` of cell `t`.
#[allow(clippy::too_many_arguments)]
fn eval_at(
    el: &LagrangeP,
    space: &Space2d,
    u: &[f64],
    t: usize,
    xh: [f64; 2],
    v: &mut [f64],
    dx: &mut [f64],
    dy: &mut [f64],
    mut sink: impl FnMut(usize, f64),
) {
    el.eval(xh, v, dx, dy);
    for c in 0..space.n_comp() {
        let mut s = 0.0;
        for (j, &i) in space.cell_dofs(t).iter().enumerate() {
            s += u[space.global(c, i)] * v[j];
        }
        sink(c, s);
    }
}

/// Where a field of a [`Vtu`] lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// One value (tuple) per mesh vertex.
    Point,
    /// One value (tuple) per cell (triangle or tetrahedron).
    Cell,
}

#[derive(Debug, Clone)]
struct DataArray {
    name: String,
    location: Location,
    n_comp: usize,
    values: Vec<f64>,
}

/// The mesh of a [`Vtu`].
#[derive(Debug, Clone, Copy)]
enum Grid<'a> {
    Triangles(&'a Mesh2d),
    Quads(&'a QuadMesh),
    Tetrahedra(&'a Mesh3d),
}

impl Grid<'_> {
    /// Numbers of mesh vertices (VTK points) and cells.
    fn counts(&self) -> (usize, usize) {
        match self {
            Grid::Triangles(m) => (m.n_vertices(), m.n_cells()),
            Grid::Quads(m) => (m.n_vertices(), m.n_cells()),
            Grid::Tetrahedra(m) => (m.n_vertices(), m.n_cells()),
        }
    }
    fn n_points(&self) -> usize {
        self.counts().0
    }
    fn n_cells(&self) -> usize {
        self.counts().1
    }
}

/// An unstructured-grid file (`.vtu`) of a triangle, quadrilateral or tetrahedron mesh with
/// named fields.
#[derive(Debug, Clone)]
pub struct Vtu<'a> {
    grid: Grid<'a>,
    arrays: Vec<DataArray>,
}

impl<'a> Vtu<'a> {
    /// A file of `grid` without fields.
    fn on(grid: Grid<'a>) -> Self {
        Self {
            grid,
            arrays: Vec::new(),
        }
    }

    /// A file of the triangle mesh `mesh` without fields.
    pub fn new(mesh: &'a Mesh2d) -> Self {
        Self::on(Grid::Triangles(mesh))
    }

    /// A file of the quadrilateral mesh `mesh` without fields (cells of type `VTK_QUAD` =
    /// 9, vertices in the mesh's counter-clockwise order, as VTK expects). Point fields
    /// take one tuple per mesh vertex, cell fields one per quadrilateral.
    pub fn new_quad(mesh: &'a QuadMesh) -> Self {
        Self::on(Grid::Quads(mesh))
    }

    /// A file of the tetrahedron mesh `mesh` without fields.
    pub fn new_3d(mesh: &'a Mesh3d) -> Self {
        Self::on(Grid::Tetrahedra(mesh))
    }

    /// Adds a field of `n_comp` components per point or cell (tuple-major `values`).
    /// Two-component fields are written as 3-vectors with a zero third component, so that
    /// ParaView treats them as vectors (glyphs, warping).
    pub fn field(
        mut self,
        name: &str,
        location: Location,
        n_comp: usize,
        values: Vec<f64>,
    ) -> Result<Self, Fem2dError> {
        let n = match location {
            Location::Point => self.grid.n_points(),
            Location::Cell => self.grid.n_cells(),
        };
        if n_comp == 0 || values.len() != n * n_comp {
            return Err(crate::FemError::Length {
                what: format!("VTK field '{name}' ({n_comp} components per tuple)"),
                expected: n * n_comp.max(1),
                found: values.len(),
            }
            .into());
        }
        self.arrays.push(DataArray {
            name: name.to_string(),
            location,
            n_comp,
            values,
        });
        Ok(self)
    }

    /// Adds the field of `space` with coefficients `u`, evaluated at the vertices
    /// ([`vertex_values`]) or the centroids ([`cell_values`]).
    pub fn space_field(
        self,
        name: &str,
        location: Location,
        space: &Space2d,
        u: &[f64],
    ) -> Result<Self, Fem2dError> {
        let values = match location {
            Location::Point => vertex_values(space, u)?,
            Location::Cell => cell_values(space, u)?,
        };
        self.field(name, location, space.n_comp(), values)
    }

    /// Adds the scalar field of the quadrilateral-mesh `space` with coefficients `u`
    /// ([`quad_vertex_values`], [`quad_cell_values`]); the file must be a
    /// [`Vtu::new_quad`] of the same mesh (checked through the lengths).
    pub fn quad_space_field(
        self,
        name: &str,
        location: Location,
        space: &QuadSpace,
        u: &[f64],
    ) -> Result<Self, Fem2dError> {
        let values = match location {
            Location::Point => quad_vertex_values(space, u)?,
            Location::Cell => quad_cell_values(space, u)?,
        };
        self.field(name, location, 1, values)
    }

    /// Adds the 3D field of `space` with coefficients `u` ([`vertex_values_3d`],
    /// [`cell_values_3d`]).
    pub fn space_field_3d(
        self,
        name: &str,
        location: Location,
        space: &Space3d,
        u: &[f64],
    ) -> Result<Self, Fem2dError> {
        let values = match location {
            Location::Point => vertex_values_3d(space, u)?,
            Location::Cell => cell_values_3d(space, u)?,
        };
        self.field(name, location, space.n_comp(), values)
    }

    /// The XML text.
    pub fn to_xml(&self) -> String {
        let (np, nc) = (self.grid.n_points(), self.grid.n_cells());
        let mut s = String::with_capacity(64 * (np + nc));
        s.push_str("<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n<UnstructuredGrid>\n");
        let _ = writeln!(s, "<Piece NumberOfPoints=\"{np}\" NumberOfCells=\"{nc}\">");
        s.push_str(
            "<Points>\n<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n",
        );
        match self.grid {
            Grid::Triangles(m) => {
                for p in m.vertices() {
                    let _ = writeln!(s, "{:e} {:e} 0", p[0], p[1]);
                }
            }
            Grid::Quads(m) => {
                for p in m.vertices() {
                    let _ = writeln!(s, "{:e} {:e} 0", p[0], p[1]);
                }
            }
            Grid::Tetrahedra(m) => {
                for p in m.vertices() {
                    let _ = writeln!(s, "{:e} {:e} {:e}", p[0], p[1], p[2]);
                }
            }
        }
        s.push_str("</DataArray>\n</Points>\n<Cells>\n");
        s.push_str("<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n");
        // VTK_TRIANGLE = 5, VTK_QUAD = 9, VTK_TETRA = 10
        let (per_cell, vtk_type) = match self.grid {
            Grid::Triangles(m) => {
                for t in m.triangles() {
                    let _ = writeln!(s, "{} {} {}", t[0], t[1], t[2]);
                }
                (3, "5\n")
            }
            Grid::Quads(m) => {
                for q in m.quads() {
                    let _ = writeln!(s, "{} {} {} {}", q[0], q[1], q[2], q[3]);
                }
                (4, "9\n")
            }
            Grid::Tetrahedra(m) => {
                for t in m.tets() {
                    let _ = writeln!(s, "{} {} {} {}", t[0], t[1], t[2], t[3]);
                }
                (4, "10\n")
            }
        };
        s.push_str("</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n");
        for k in 0..nc {
            let _ = writeln!(s, "{}", per_cell * (k + 1));
        }
        s.push_str("</DataArray>\n<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n");
        for _ in 0..nc {
            s.push_str(vtk_type);
        }
        s.push_str("</DataArray>\n</Cells>\n");
        for (loc, tag) in [(Location::Point, "PointData"), (Location::Cell, "CellData")] {
            let arrays: Vec<&DataArray> =
                self.arrays.iter().filter(|a| a.location == loc).collect();
            if arrays.is_empty() {
                continue;
            }
            let _ = writeln!(s, "<{tag}>");
            for a in arrays {
                let nc = if a.n_comp == 2 { 3 } else { a.n_comp };
                let _ = writeln!(
                    s,
                    "<DataArray type=\"Float64\" Name=\"{}\" NumberOfComponents=\"{nc}\" format=\"ascii\">",
                    xml_escape(&a.name)
                );
                for tuple in a.values.chunks(a.n_comp) {
                    let mut first = true;
                    for v in tuple {
                        if !first {
                            s.push(' ');
                        }
                        first = false;
                        let _ = write!(s, "{v:e}");
                    }
                    if a.n_comp == 2 {
                        s.push_str(" 0");
                    }
                    s.push('\n');
                }
                s.push_str("</DataArray>\n");
            }
            let _ = writeln!(s, "</{tag}>");
        }
        s.push_str("</Piece>\n</UnstructuredGrid>\n</VTKFile>\n");
        s
    }
}

/// A `.pvd` collection: `(time, relative file name)` per snapshot, for ParaView's time
/// controls.
pub fn pvd(entries: &[(f64, String)]) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n<Collection>\n");
    for (t, file) in entries {
        let _ = writeln!(
            s,
            "<DataSet timestep=\"{t:e}\" group=\"\" part=\"0\" file=\"{}\"/>",
            xml_escape(file)
        );
    }
    s.push_str("</Collection>\n</VTKFile>\n");
    s
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::triangle::Diagonal;
    use crate::space::quad::QuadFamily;
    use crate::space::triangle::{Family2d, Shape};

    /// A linear field is reproduced exactly at the vertices by CG1..3 and DG1, and a
    /// DG0 field's centroid values are its coefficients.
    #[test]
    fn vertex_and_cell_values() {
        let mesh = Mesh2d::unit_square(3, Diagonal::Right).unwrap();
        let f = |x: [f64; 2], v: &mut [f64]| v[0] = 1.0 + 2.0 * x[0] - 3.0 * x[1];
        for fam in [
            Family2d::Cg(1),
            Family2d::Cg(2),
            Family2d::Cg(3),
            Family2d::Dg(1),
        ] {
            let sp = Space2d::new(&mesh, fam, Shape::Scalar).unwrap();
            let u = sp.interpolate(&f);
            let vv = vertex_values(&sp, &u).unwrap();
            for (p, v) in mesh.vertices().iter().zip(&vv) {
                assert!((v - (1.0 + 2.0 * p[0] - 3.0 * p[1])).abs() < 1e-13);
            }
        }
        let sp = Space2d::new(&mesh, Family2d::Dg(0), Shape::Vector).unwrap();
        let u: Vec<f64> = (0..sp.n_dofs()).map(|k| k as f64).collect();
        let cv = cell_values(&sp, &u).unwrap();
        for t in 0..mesh.n_cells() {
            for c in 0..2 {
                assert_eq!(cv[t * 2 + c], u[sp.global(c, sp.cell_dofs(t)[0])]);
            }
        }
    }

    /// A linear field on a box mesh is reproduced at the vertices and centroids; the file
    /// lists tetrahedra (type 10) with 3D points.
    #[test]
    fn vtu_3d_linear_field() {
        use crate::space::tet::{Family3d, Shape3d};
        let mesh = Mesh3d::box_mesh([0.0; 3], [1.0, 2.0, 3.0], [2, 1, 1]).unwrap();
        let f = |x: [f64; 3]| 1.0 + x[0] - 2.0 * x[1] + 0.5 * x[2];
        for k in [1, 2] {
            let sp = Space3d::new(&mesh, Family3d::Cg(k), Shape3d::Scalar).unwrap();
            let u = sp.interpolate(&|x, v| v[0] = f(x));
            for (p, v) in mesh
                .vertices()
                .iter()
                .zip(vertex_values_3d(&sp, &u).unwrap())
            {
                assert!((v - f(*p)).abs() < 1e-13);
            }
            let cv = cell_values_3d(&sp, &u).unwrap();
            for t in 0..mesh.n_cells() {
                let c = mesh.cell_coords(t);
                let g = [0, 1, 2].map(|a| c.iter().map(|p| p[a]).sum::<f64>() / 4.0);
                assert!((cv[t] - f(g)).abs() < 1e-13);
            }
            let xml = Vtu::new_3d(&mesh)
                .space_field_3d("p", Location::Point, &sp, &u)
                .unwrap()
                .to_xml();
            let nc = mesh.n_cells();
            assert!(xml.contains(&format!("NumberOfCells=\"{nc}\"")));
            assert!(xml.contains(&"10\n".repeat(nc)));
            assert!(xml.contains(&format!("{}\n</DataArray>", 4 * nc)));
        }
    }

    #[test]
    fn vtu_structure_and_errors() {
        let mesh = Mesh2d::unit_square(2, Diagonal::Left).unwrap();
        let sp = Space2d::new(&mesh, Family2d::Cg(1), Shape::Vector).unwrap();
        let u = vec![1.0; sp.n_dofs()];
        let xml = Vtu::new(&mesh)
            .space_field("theta rate", Location::Point, &sp, &u)
            .unwrap()
            .field("id", Location::Cell, 1, (0..8).map(|k| k as f64).collect())
            .unwrap()
            .to_xml();
        assert!(xml.contains("NumberOfPoints=\"9\" NumberOfCells=\"8\""));
        assert!(xml.contains("Name=\"theta rate\" NumberOfComponents=\"3\""));
        let types = format!(
            "Name=\"types\" format=\"ascii\">\n{}</DataArray>",
            "5\n".repeat(8)
        );
        assert!(xml.contains(&types));
        let err = Vtu::new(&mesh)
            .field("bad", Location::Cell, 1, vec![0.0; 3])
            .unwrap_err();
        assert!(err.to_string().contains("bad"), "{err}");
        let p = pvd(&[(0.0, "a_0.vtu".into()), (0.5, "a_1.vtu".into())]);
        assert!(p.contains("timestep=\"5e-1\"") && p.contains("file=\"a_1.vtu\""));
    }

    /// A 2 × 1 quadrilateral grid of [0, 2] × [0, 1]: VTK_QUAD cell types, the mesh's
    /// counter-clockwise connectivity and offsets 4, 8; point and cell fields of the right
    /// lengths, wrong lengths rejected naming the field.
    #[test]
    fn vtu_quad_mesh() {
        let mesh = QuadMesh::rectangle(2.0, 1.0, 2, 1).unwrap();
        assert_eq!(mesh.n_vertices(), 6);
        let w: Vec<f64> = mesh.vertices().iter().map(|p| p[0] + 10.0 * p[1]).collect();
        let xml = Vtu::new_quad(&mesh)
            .field("w", Location::Point, 1, w)
            .unwrap()
            .field("m", Location::Cell, 2, vec![1.0, 2.0, 3.0, 4.0])
            .unwrap()
            .to_xml();
        assert!(xml.contains("NumberOfPoints=\"6\" NumberOfCells=\"2\""));
        let conn: String = mesh
            .quads()
            .iter()
            .map(|q| format!("{} {} {} {}\n", q[0], q[1], q[2], q[3]))
            .collect();
        assert!(xml.contains(&format!(
            "Name=\"connectivity\" format=\"ascii\">\n{conn}</DataArray>"
        )));
        // every quad counter-clockwise: positive shoelace area 1
        for q in mesh.quads() {
            let v: Vec<[f64; 2]> = q.iter().map(|&i| mesh.vertices()[i]).collect();
            let a: f64 = (0..4)
                .map(|i| v[i][0] * v[(i + 1) % 4][1] - v[(i + 1) % 4][0] * v[i][1])
                .sum::<f64>()
                / 2.0;
            assert!((a - 1.0).abs() < 1e-14, "{a}");
        }
        assert!(xml.contains("Name=\"offsets\" format=\"ascii\">\n4\n8\n</DataArray>"));
        assert!(xml.contains("Name=\"types\" format=\"ascii\">\n9\n9\n</DataArray>"));
        assert!(xml.contains(
            "<PointData>\n<DataArray type=\"Float64\" Name=\"w\" NumberOfComponents=\"1\""
        ));
        assert!(xml.contains(
            "Name=\"m\" NumberOfComponents=\"3\" format=\"ascii\">\n1e0 2e0 0\n3e0 4e0 0\n"
        ));
        let err = Vtu::new_quad(&mesh)
            .field("short", Location::Point, 1, vec![0.0; 4])
            .unwrap_err();
        assert!(err.to_string().contains("short"), "{err}");
        // Q2 and DQ1 fields of a bilinear function: exact vertex and centre values
        let f = |p: [f64; 2]| 1.0 + p[0] * p[1] - 2.0 * p[1];
        for fam in [QuadFamily::Q(2), QuadFamily::Dq(1)] {
            let sp = QuadSpace::new(&mesh, fam).unwrap();
            let u = sp.interpolate(&f);
            let vv = quad_vertex_values(&sp, &u).unwrap();
            for (v, p) in vv.iter().zip(mesh.vertices()) {
                assert!((v - f(*p)).abs() < 1e-13, "{fam:?}: {v} at {p:?}");
            }
            let cv = quad_cell_values(&sp, &u).unwrap();
            assert!((cv[0] - f([0.5, 0.5])).abs() < 1e-13 && (cv[1] - f([1.5, 0.5])).abs() < 1e-13);
            let xml = Vtu::new_quad(&mesh)
                .quad_space_field("f", Location::Point, &sp, &u)
                .unwrap()
                .to_xml();
            assert!(xml.contains("Name=\"f\" NumberOfComponents=\"1\""));
            assert!(quad_vertex_values(&sp, &u[1..]).is_err());
        }
    }
}
