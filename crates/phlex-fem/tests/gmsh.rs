//! Gmsh import: hand-written MSH 4.1 and 2.2 files of the unit square with four physical
//! lines (tests/data), models built on them.
mod common;

use phlex_fem::io::gmsh::{parse_msh, GmshError, GmshMesh};
use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::continuum::wave::{AcousticBc, AcousticParams, Acoustics, Causality};
use phlex_fem::models::plate::MindlinCgDg;
use phlex_solve::eigen::{modes, EigenMethod, EigenParams};

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// MSH 4.1: 9 nodes, 8 triangles (one written clockwise), 4 named physical curves of 2
/// lines each, one named physical surface, a point element (ignored).
#[test]
fn msh41_unit_square_tags_areas_normals() {
    let g = GmshMesh::read(data("unit_square_v41.msh")).unwrap();
    let m = &g.mesh;
    assert_eq!((m.n_vertices(), m.n_cells()), (9, 8));
    // areas sum to 1 (every triangle 1/8, all counter-clockwise after import)
    let areas: Vec<f64> = (0..m.n_cells()).map(|t| m.area(t)).collect();
    assert!(areas.iter().all(|&a| (a - 0.125).abs() < 1e-15));
    assert!((areas.iter().sum::<f64>() - 1.0).abs() < 1e-14);
    assert_eq!(m.tag_names(), vec!["bottom", "left", "right", "top"]);
    for (tag, normal) in [
        ("left", [-1.0, 0.0]),
        ("right", [1.0, 0.0]),
        ("bottom", [0.0, -1.0]),
        ("top", [0.0, 1.0]),
    ] {
        let edges = m.tagged_edges(tag).unwrap();
        assert_eq!(edges.len(), 2, "{tag}");
        let len: f64 = edges.iter().map(|b| m.edge_length(b.edge)).sum();
        assert!((len - 1.0).abs() < 1e-15);
        for b in &edges {
            let n = m.outward_normal(b);
            assert!((n[0] - normal[0]).abs() < 1e-15 && (n[1] - normal[1]).abs() < 1e-15);
        }
    }
    assert!(g
        .cell_groups
        .iter()
        .all(|c| c == &vec!["fluid domain".to_string()]));
    assert!(g.interior_groups.is_empty());
    // the Mindlin plate builds on it (clamped left, traction port right)
    let p = common::plates::thesis_mindlin();
    let plate = MindlinCgDg::new(p, m, 2)
        .unwrap()
        .clamped("left")
        .port("right")
        .build()
        .unwrap();
    plate.system().check(&Default::default()).unwrap();
    assert_eq!(plate.system().ports.names().len(), 3);
    // and the acoustic model with a velocity port on "left"
    let ac = Acoustics::new(AcousticParams { chi: 1.0, mu: 1.0 }, m, Causality::DivDiv)
        .unwrap()
        .boundary("left", AcousticBc::PressurePort)
        .build()
        .unwrap();
    ac.system().check(&Default::default()).unwrap();
    assert_eq!(ac.system().n_inputs(), 2);
}

/// MSH 2.2, 8 × 8 structured square written with reversed node tags and clockwise
/// triangles: after import it is the same mesh as `Mesh2d::unit_square(8, Left)` up to
/// the vertex numbering, so the acoustic eigenfrequencies agree to solver precision
/// (1e-9 relative; the matrices are permutations of each other).
#[test]
fn msh22_matches_structured_mesh() {
    let g = GmshMesh::read(data("unit_square_8_v22.msh")).unwrap();
    let m = &g.mesh;
    assert_eq!((m.n_vertices(), m.n_cells()), (81, 128));
    let total: f64 = (0..m.n_cells()).map(|t| m.area(t)).sum();
    assert!((total - 1.0).abs() < 1e-14);
    for tag in ["left", "right", "bottom", "top"] {
        assert_eq!(m.tagged_edges(tag).unwrap().len(), 8);
    }
    // surface group without a name: its number
    assert_eq!(g.cell_groups[0], vec!["10".to_string()]);
    assert_eq!(g.node_tags.len(), 81);
    let s = Mesh2d::unit_square(8, Diagonal::Left).unwrap();
    let freq = |mesh: &Mesh2d| {
        let model = Acoustics::new(
            AcousticParams { chi: 1.0, mu: 1.0 },
            mesh,
            Causality::GradGrad,
        )
        .unwrap()
        .boundary("right", AcousticBc::PressureRelease)
        .build()
        .unwrap();
        modes(
            model.system(),
            &EigenParams {
                n_modes: Some(5),
                method: EigenMethod::Dense,
                ..Default::default()
            },
        )
        .unwrap()
        .frequencies()
    };
    let (a, b) = (freq(m), freq(&s));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b).take(5) {
        assert!((x - y).abs() < 1e-9 * y, "{x} vs {y}");
    }
    // quarter-wave duct (rigid at x = 0, p = 0 at x = 1): ω₁ = π/2 (P1 converges from above)
    assert!(b[0] > std::f64::consts::FRAC_PI_2 && b[0] < 1.01 * std::f64::consts::FRAC_PI_2);
}

/// Errors of real files: quadrangles (element type 3) and a binary header.
#[test]
fn unsupported_content_is_reported() {
    let text = std::fs::read_to_string(data("unit_square_v41.msh")).unwrap();
    let quads = text.replace("2 1 2 8", "2 1 3 8");
    let e = parse_msh(&quads).unwrap_err();
    assert!(
        matches!(
            e,
            GmshError::UnsupportedElement {
                element_type: 3,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("line 70"), "{e}");
    let bin = text.replace("4.1 0 8", "4.1 1 8");
    assert!(matches!(
        parse_msh(&bin),
        Err(GmshError::Binary { line: 2 })
    ));
    let e = GmshMesh::read(data("no_such_file.msh")).unwrap_err();
    assert!(matches!(e, GmshError::Io { .. }) && e.to_string().contains("no_such_file"));
    // no triangles at all
    let lines_only = text.replace("2 1 2 8", "2 1 1 0");
    assert!(parse_msh(&lines_only).is_err());
}
