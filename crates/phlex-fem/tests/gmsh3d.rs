//! Gmsh 3D import ([`parse_msh_3d`]): hand-written MSH 4.1 and 2.2 files of the unit cube
//! (tests/data, generated with the Kuhn split of `Mesh3d::box_mesh`, shuffled node tags,
//! every third tetrahedron written with negative orientation), compared with the
//! structured mesh and used by the 3D elasticity model.
mod common;

use phlex_core::LinearPhSystem;
use phlex_fem::io::gmsh::{parse_msh, parse_msh_3d, GmshError, GmshMesh3d};
use phlex_fem::mesh::Mesh3d;
use phlex_fem::models::continuum::elasticity::{ElasticParams, Elasticity3d};
use phlex_fem::models::continuum::Supports;

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

const SIDES: [&str; 6] = ["xmax", "xmin", "ymax", "ymin", "zmax", "zmin"];

/// MSH 4.1, 2 × 2 × 2 cube: 27 vertices, 48 tetrahedra (16 of them re-oriented), total
/// volume 1 (to round-off), six named physical surfaces with 8 faces of total area 1 each,
/// identical (as sets of face centroids) to the tags of `Mesh3d::box_mesh`; the physical
/// volume names every cell.
#[test]
fn msh41_cube_tags_and_volumes_match_box_mesh() {
    let g = GmshMesh3d::read(data("unit_cube_2_v41.msh")).unwrap();
    let m = &g.mesh;
    let b = Mesh3d::box_mesh([0.0; 3], [1.0; 3], [2, 2, 2]).unwrap();
    assert_eq!((m.n_vertices(), m.n_cells()), (27, 48));
    assert_eq!(m.n_edges(), b.n_edges());
    let vol: f64 = (0..m.n_cells()).map(|t| m.volume(t)).sum();
    assert!((vol - 1.0).abs() < 1e-14, "{vol}");
    assert!((0..m.n_cells()).all(|t| (m.volume(t) - 1.0 / 48.0).abs() < 1e-15));
    assert_eq!(m.tag_names(), SIDES);
    assert_eq!(m.boundary_faces().len(), b.boundary_faces().len());
    let key = |c: [f64; 3]| c.map(|x| (x * 1e9).round() as i64);
    for tag in SIDES {
        let f = m.tagged_faces(tag).unwrap();
        assert_eq!(f.len(), 8, "{tag}");
        let area: f64 = f.iter().map(|x| m.face_area(x)).sum();
        assert!((area - 1.0).abs() < 1e-14, "{tag}: {area}");
        let mut c1: Vec<_> = f.iter().map(|x| key(m.face_centroid(x))).collect();
        let mut c2: Vec<_> = b
            .tagged_faces(tag)
            .unwrap()
            .iter()
            .map(|x| key(b.face_centroid(x)))
            .collect();
        c1.sort_unstable();
        c2.sort_unstable();
        assert_eq!(c1, c2, "{tag}");
    }
    assert!(g
        .cell_groups
        .iter()
        .all(|c| c == &vec!["solid".to_string()]));
    assert!(g.interior_groups.is_empty());
    assert_eq!(g.node_tags.len(), 27);
}

/// MSH 2.2, one hexahedron split into 6 tetrahedra, unnamed physical surfaces (tags
/// "1".."6"), a point element (ignored).
#[test]
fn msh22_cube_numbers_as_names() {
    let g = GmshMesh3d::read(data("unit_cube_1_v22.msh")).unwrap();
    assert_eq!((g.mesh.n_vertices(), g.mesh.n_cells()), (8, 6));
    assert_eq!(g.mesh.tag_names(), ["1", "2", "3", "4", "5", "6"]);
    for t in 1..=6 {
        let f = g.mesh.tagged_faces(&t.to_string()).unwrap();
        assert_eq!(f.len(), 2);
    }
    assert!(g.cell_groups.iter().all(|c| c == &vec!["7".to_string()]));
}

fn roller_cube_frequencies(mesh: &Mesh3d, n: usize) -> Vec<f64> {
    let p = ElasticParams {
        E: 1.0,
        nu: 0.3,
        rho: 1.0,
    };
    let mut b = Elasticity3d::new(p, mesh, 2).unwrap();
    for (a, [lo, hi]) in [["xmin", "xmax"], ["ymin", "ymax"], ["zmin", "zmax"]]
        .iter()
        .enumerate()
    {
        b = b.fixed(lo, a).fixed(hi, a);
    }
    let model = b.build().unwrap();
    let sys: &LinearPhSystem = model.system();
    sys.check(&Default::default()).unwrap();
    common::pencil::shift_invert_frequencies(sys, n)
}

/// The imported 2 × 2 × 2 cube coincides with `Mesh3d::box_mesh` (same tetrahedra up to
/// vertex numbering and orientation), so the roller-supported CG2 × DG1 elasticity
/// pencils are permutations of each other: the 8 lowest frequencies agree to 1e-9
/// relative (solver precision; the exact values 2.755, 3.375, 3.645 are matched to 5e-2
/// on this coarse mesh, see tests/elasticity.rs).
#[test]
fn elasticity_on_imported_cube_equals_box_mesh() {
    let g = GmshMesh3d::read(data("unit_cube_2_v41.msh")).unwrap();
    let b = Mesh3d::box_mesh([0.0; 3], [1.0; 3], [2, 2, 2]).unwrap();
    let w1 = roller_cube_frequencies(&g.mesh, 8);
    let w2 = roller_cube_frequencies(&b, 8);
    eprintln!("imported {w1:?}\nbox      {w2:?}");
    assert_eq!(w1.len(), 8);
    for (a, c) in w1.iter().zip(&w2) {
        assert!((a - c).abs() < 1e-9 * c, "{a} vs {c}");
    }
}

#[test]
fn errors_name_the_element() {
    let v22 = read("unit_cube_1_v22.msh");
    // a hexahedron is not supported, with the suggestion in the message
    let hex = v22.replace("19 4 2 7 1 1 5 7 8", "19 5 2 7 1 1 2 3 4 5 6 7 8");
    let e = parse_msh_3d(&hex).unwrap_err();
    assert!(
        matches!(
            e,
            GmshError::UnsupportedElement3d {
                line: 35,
                element_type: 5,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("hexahedron") && e.to_string().contains("ElementOrder"));
    // second-order tetrahedron
    let t10 = v22.replace("19 4 2 7 1 1 5 7 8", "19 11 2 7 1 5 7 8 1 2 3 4 5 6 7");
    assert!(matches!(
        parse_msh_3d(&t10),
        Err(GmshError::UnsupportedElement3d {
            element_type: 11,
            ..
        })
    ));
    // a triangle that is not a face of a tetrahedron (1, 4, 5 cuts the cube)
    let dangling = v22.replace("12 2 2 1 1 1 5 7", "12 2 2 1 1 1 4 5");
    let e = parse_msh_3d(&dangling).unwrap_err();
    assert!(
        matches!(
            e,
            GmshError::DanglingTriangle {
                element: 12,
                nodes: [1, 4, 5],
                ..
            }
        ),
        "{e}"
    );
    // degenerate tetrahedron: node 8 moved into the plane of nodes 1, 2, 4
    let flat = v22.replace("8 1.0 1.0 1.0", "8 1.0 1.0 0.0");
    let e = parse_msh_3d(&flat).unwrap_err();
    assert!(
        matches!(
            e,
            GmshError::DegenerateTetrahedron {
                element: 14,
                line: 30,
                ..
            }
        ),
        "{e}"
    );
    // no physical surfaces: triangles without physical tag
    let mut untagged = String::new();
    for l in v22.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() == 8 && f[1] == "2" {
            untagged.push_str(&format!("{} 2 2 0 0 {} {} {}\n", f[0], f[5], f[6], f[7]));
        } else {
            untagged.push_str(l);
            untagged.push('\n');
        }
    }
    let e = parse_msh_3d(&untagged).unwrap_err();
    assert!(
        matches!(e, GmshError::NoBoundaryGroups { n_triangles: 12 }),
        "{e}"
    );
    assert!(e.to_string().contains("Physical Surface"));
    // undefined node
    let unknown = v22.replace("19 4 2 7 1 1 5 7 8", "19 4 2 7 1 1 5 7 88");
    assert!(matches!(
        parse_msh_3d(&unknown),
        Err(GmshError::UnknownNode { node: 88, .. })
    ));
    // the 2D reader rejects tetrahedra, the 3D reader a surface mesh
    assert!(matches!(
        parse_msh(&v22),
        Err(GmshError::UnsupportedElement {
            element_type: 4,
            ..
        })
    ));
    let square = read("unit_square_v41.msh");
    assert!(matches!(
        parse_msh_3d(&square),
        Err(GmshError::NoTetrahedra)
    ));
    // missing file
    assert!(matches!(
        GmshMesh3d::read(data("no_such_file.msh")),
        Err(GmshError::Io { .. })
    ));
}
