//! Import of Gmsh `.msh` triangle meshes ([`parse_msh`], [`GmshMesh`]) and tetrahedral
//! meshes ([`parse_msh_3d`], [`GmshMesh3d`]: 4-node tetrahedra with physical *surface*
//! groups of 3-node triangles as boundary face tags, for 3D elasticity) (ASCII MSH 4.1 and
//! 2.2) with physical groups as boundary tags (thesis 004 summary §6.1 item 1: "boundary facet tagging for
//! $\Gamma_C, \Gamma_S, \Gamma_F$ and $\Gamma_D, \Gamma_N$").
//!
//! Hand-written parser: no maintained pure-Rust MSH reader was available in the offline
//! crate registry (`mshio` is not in it), and the ASCII subset needed here (nodes, 2-node
//! lines, 3-node triangles, physical names and entity physical tags) is small. What is read:
//!
//! * `$MeshFormat`: version `4.1` or `2.2`, file type `0` (ASCII); a binary file (type 1)
//!   is rejected with [`GmshError::Binary`] (re-export with `Mesh.Binary = 0`);
//! * `$PhysicalNames`: `dim tag "name"`; a physical group without a name is tagged by its
//!   number (e.g. `"3"`);
//! * `$Entities` (4.1): the physical tags of each curve and surface entity; element blocks
//!   inherit the physical tags of their entity;
//! * `$Nodes`, `$Elements`: element type 2 (3-node triangle) becomes a cell, type 1
//!   (2-node line) a tagged boundary edge, type 15 (point) is ignored; any other type is an
//!   error ([`GmshError::UnsupportedElement`], e.g. 6-node triangles or quadrangles);
//! * other sections (`$NodeData`, `$Periodic`, …) are skipped.
//!
//! Nodes not used by any triangle (geometry points, …) are dropped, triangles are
//! re-oriented counter-clockwise (Gmsh orients them by the surface normal, which may be
//! $-z$), and all nodes must lie in the plane $z = 0$ (up to $10^{-12}$ of the mesh size).
//! Lines of a physical group become the boundary tag of that group's name; lines that are
//! interior edges (interfaces) cannot be boundary tags and are listed in
//! [`GmshImport::interior_groups`]. Every error names the line of the file.
use crate::error::Fem2dError;
use crate::mesh::tet::{face_key, signed_volume, Mesh3d};
use crate::mesh::triangle::Mesh2d;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use thiserror::Error;

/// Errors of the Gmsh reader; each names the offending line (1-based) or item.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum GmshError {
    /// The file could not be read.
    #[error("cannot read Gmsh file '{path}': {message}")]
    Io {
        /// Path of the file.
        path: String,
        /// System error message.
        message: String,
    },
    /// A binary MSH file.
    #[error("line {line}: binary MSH files are not supported; re-export as ASCII (Gmsh option Mesh.Binary = 0, or `gmsh -save -format msh41 -bin 0`)")]
    Binary {
        /// Line of the `$MeshFormat` header.
        line: usize,
    },
    /// A format version other than 4.1 and 2.x.
    #[error("line {line}: MSH version {version} is not supported (supported: 4.1 and 2.2 ASCII; re-export with Mesh.MshFileVersion = 4.1)")]
    UnsupportedVersion {
        /// Line of the version.
        line: usize,
        /// The version found.
        version: String,
    },
    /// A syntax error.
    #[error("line {line}: malformed Gmsh file: {message}")]
    Malformed {
        /// Line of the error (the end of the file if a section is truncated).
        line: usize,
        /// What was expected.
        message: String,
    },
    /// A mandatory section is missing.
    #[error("Gmsh file has no ${section} section")]
    MissingSection {
        /// Section name without `$`.
        section: String,
    },
    /// An element type other than 1 (line), 2 (triangle) and 15 (point).
    #[error("line {line}: unsupported Gmsh element type {element_type} ({name}); only linear meshes of 3-node triangles (type 2) with 2-node boundary lines (type 1) are supported: mesh with Mesh.ElementOrder = 1 and without recombination")]
    UnsupportedElement {
        /// Line of the element (block).
        line: usize,
        /// Gmsh element type number.
        element_type: i64,
        /// Its Gmsh name.
        name: String,
    },
    /// An element references a node tag that is not defined.
    #[error("line {line}: element references undefined node tag {node}")]
    UnknownNode {
        /// Line of the element.
        line: usize,
        /// The node tag.
        node: i64,
    },
    /// A node used by a triangle lies outside the plane z = 0.
    #[error("node {node} has z = {z}: only planar meshes in the plane z = 0 are supported")]
    NotPlanar {
        /// Node tag.
        node: i64,
        /// Its z coordinate.
        z: f64,
    },
    /// The file contains no triangle.
    #[error("Gmsh file contains no 3-node triangle (element type 2); is it a 2D surface mesh (gmsh -2)?")]
    NoTriangles,
    /// A boundary line is not an edge of any triangle.
    #[error("line {line}: line element ({a}, {b}) of physical group '{group}' is not an edge of the triangle mesh")]
    DanglingLine {
        /// Line of the element.
        line: usize,
        /// First node tag.
        a: i64,
        /// Second node tag.
        b: i64,
        /// Its physical group.
        group: String,
    },
    /// An element type not supported by the tetrahedral reader ([`parse_msh_3d`]).
    #[error("line {line}: unsupported Gmsh element type {element_type} ({name}) in a 3D mesh; only linear tetrahedral meshes are supported: 4-node tetrahedra (type 4) with 3-node boundary triangles (type 2) of physical surfaces; mesh with Mesh.ElementOrder = 1, without recombination (Mesh.RecombineAll = 0) and without hexahedra/prisms/pyramids")]
    UnsupportedElement3d {
        /// Line of the element (block).
        line: usize,
        /// Gmsh element type number.
        element_type: i64,
        /// Its Gmsh name.
        name: String,
    },
    /// The file contains no tetrahedron.
    #[error("Gmsh file contains no 4-node tetrahedron (element type 4); is it a 3D volume mesh (gmsh -3) with a physical volume group (or Mesh.SaveAll = 1)?")]
    NoTetrahedra,
    /// A tetrahedron with (nearly) zero volume.
    #[error("line {line}: tetrahedron {element} (nodes {nodes:?}) is degenerate: volume {volume:e} (relative to the mesh size cubed: {relative:e}); remove sliver elements (Mesh.Optimize = 1) or fix the node coordinates")]
    DegenerateTetrahedron {
        /// Line of the element.
        line: usize,
        /// Gmsh element tag.
        element: i64,
        /// Its node tags.
        nodes: [i64; 4],
        /// Signed volume.
        volume: f64,
        /// Volume divided by the bounding-box diagonal cubed.
        relative: f64,
    },
    /// A boundary triangle is not a face of any tetrahedron.
    #[error("line {line}: triangle {element} (nodes {nodes:?}) of physical surface '{group}' is not a face of any tetrahedron of the volume mesh")]
    DanglingTriangle {
        /// Line of the element.
        line: usize,
        /// Gmsh element tag.
        element: i64,
        /// Its node tags.
        nodes: [i64; 3],
        /// Its physical group.
        group: String,
    },
    /// A 3D mesh without any physical surface group on its boundary.
    #[error("Gmsh file defines no physical surface group on the boundary of the tetrahedral mesh ({n_triangles} triangle elements found, none of them in a physical group on the boundary): boundary conditions and ports need named faces; add e.g. `Physical Surface(\"clamped\") = {{...}};` to the .geo file")]
    NoBoundaryGroups {
        /// Number of triangle elements in the file.
        n_triangles: usize,
    },
    /// The triangles do not form a valid mesh.
    #[error("invalid triangle mesh from Gmsh file: {0}")]
    Mesh(#[from] Fem2dError),
}

/// A mesh `M` imported from Gmsh with the physical groups of its cells and facets
/// ([`GmshMesh`] of triangles, [`GmshMesh3d`] of tetrahedra).
#[derive(Debug, Clone)]
pub struct GmshImport<M> {
    /// The mesh; boundary tags = names of the physical groups of the facet elements (line
    /// elements in 2D, triangles in 3D).
    pub mesh: M,
    /// Physical group names (surface groups in 2D, volume groups in 3D) of each cell
    /// (empty if it belongs to none).
    pub cell_groups: Vec<Vec<String>>,
    /// Gmsh node tag of each mesh vertex.
    pub node_tags: Vec<i64>,
    /// Physical facet groups whose facets are all interior (interfaces): not boundary
    /// tags.
    pub interior_groups: Vec<String>,
}

/// A triangle mesh imported from Gmsh ([`parse_msh`]).
pub type GmshMesh = GmshImport<Mesh2d>;

impl GmshMesh {
    /// Reads the `.msh` file at `path` ([`parse_msh`]).
    pub fn read(path: impl AsRef<Path>) -> Result<Self, GmshError> {
        read_msh_file(path.as_ref(), parse_msh)
    }
}

/// Reads the `.msh` file at `path` and parses its text with `parse`. A file that is not
/// UTF-8 text (a binary payload) is parsed lossily so that a header error is reported;
/// if that parse succeeds the file is still rejected as [`GmshError::Malformed`].
fn read_msh_file<T>(
    path: &Path,
    parse: impl Fn(&str) -> Result<T, GmshError>,
) -> Result<T, GmshError> {
    let bytes = std::fs::read(path).map_err(|e| GmshError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    match std::str::from_utf8(&bytes) {
        Ok(s) => parse(s),
        Err(_) => match parse(&String::from_utf8_lossy(&bytes)) {
            Err(e) => Err(e),
            Ok(_) => Err(GmshError::Malformed {
                line: 1,
                message: "file is not valid UTF-8 text".into(),
            }),
        },
    }
}

/// Gmsh name of an element type (for error messages).
fn element_name(t: i64) -> &'static str {
    match t {
        1 => "2-node line",
        2 => "3-node triangle",
        3 => "4-node quadrangle",
        4 => "4-node tetrahedron",
        5 => "8-node hexahedron",
        6 => "6-node prism",
        7 => "5-node pyramid",
        8 => "3-node line",
        9 => "6-node triangle",
        10 => "9-node quadrangle",
        11 => "10-node tetrahedron",
        15 => "1-node point",
        16 => "8-node quadrangle",
        20 => "9-node incomplete triangle",
        21 => "10-node triangle",
        _ => "unknown type",
    }
}

/// Lines of one `$Section … $EndSection`, with 1-based line numbers.
struct Section<'a> {
    start: usize,
    end: usize,
    lines: Vec<(usize, &'a str)>,
}

impl<'a> Section<'a> {
    /// Whitespace-separated tokens with their line numbers.
    fn tokens(&self) -> Tokens<'a> {
        let toks = self
            .lines
            .iter()
            .flat_map(|&(l, s)| s.split_whitespace().map(move |t| (l, t)))
            .collect();
        Tokens {
            toks,
            pos: 0,
            end_line: self.end,
        }
    }
}

struct Tokens<'a> {
    toks: Vec<(usize, &'a str)>,
    pos: usize,
    end_line: usize,
}

impl Tokens<'_> {
    fn next(&mut self, what: &str) -> Result<(usize, &str), GmshError> {
        match self.toks.get(self.pos) {
            Some(&t) => {
                self.pos += 1;
                Ok(t)
            }
            None => Err(GmshError::Malformed {
                line: self.end_line,
                message: format!("section ends before {what}"),
            }),
        }
    }
    fn int(&mut self, what: &str) -> Result<(usize, i64), GmshError> {
        let (l, t) = self.next(what)?;
        t.parse::<i64>()
            .map(|v| (l, v))
            .map_err(|_| GmshError::Malformed {
                line: l,
                message: format!("expected an integer ({what}), found '{t}'"),
            })
    }
    fn count(&mut self, what: &str) -> Result<(usize, usize), GmshError> {
        let (l, v) = self.int(what)?;
        usize::try_from(v)
            .map(|c| (l, c))
            .map_err(|_| GmshError::Malformed {
                line: l,
                message: format!("{what} must be >= 0, found {v}"),
            })
    }
    fn float(&mut self, what: &str) -> Result<f64, GmshError> {
        let (l, t) = self.next(what)?;
        t.parse::<f64>().map_err(|_| GmshError::Malformed {
            line: l,
            message: format!("expected a number ({what}), found '{t}'"),
        })
    }
}

fn sections(text: &str) -> Result<HashMap<String, Section<'_>>, GmshError> {
    let mut out = HashMap::new();
    let mut cur: Option<(String, Section)> = None;
    for (i, raw) in text.lines().enumerate() {
        let l = i + 1;
        let s = raw.trim();
        match &mut cur {
            None => {
                if let Some(name) = s.strip_prefix('$') {
                    cur = Some((
                        name.to_string(),
                        Section {
                            start: l,
                            end: l,
                            lines: Vec::new(),
                        },
                    ));
                } else if !s.is_empty() {
                    return Err(GmshError::Malformed {
                        line: l,
                        message: format!("text '{s}' outside of a $Section"),
                    });
                }
            }
            Some((name, sec)) => {
                if s.strip_prefix("$End") == Some(name.as_str()) {
                    sec.end = l;
                    let (n, sec) = cur.take().expect("open section");
                    // a second $Nodes/$Elements section would be unusual; keep the first
                    out.entry(n).or_insert(sec);
                } else if s.starts_with('$') && name != "Comments" {
                    return Err(GmshError::Malformed {
                        line: l,
                        message: format!("'{s}' inside ${name} (missing $End{name})"),
                    });
                } else {
                    sec.lines.push((l, s));
                }
            }
        }
    }
    if let Some((name, sec)) = cur {
        return Err(GmshError::Malformed {
            line: sec.start,
            message: format!("${name} is never closed by $End{name}"),
        });
    }
    Ok(out)
}

/// Element read from the file: type, node tags, physical tags, line.
struct RawElement {
    tag: i64,
    kind: i64,
    nodes: Vec<i64>,
    physical: Vec<i64>,
    line: usize,
}

/// Parses the text of an ASCII `.msh` file (versions 4.1 and 2.2) into a [`GmshMesh`]
/// (module docs for what is read).
pub fn parse_msh(text: &str) -> Result<GmshMesh, GmshError> {
    let p = parse_raw(text, false)?;
    build(p.coords, p.elements, &p.names)
}

/// Reads sections, nodes and elements (`three_d`: accept tetrahedra).
fn parse_raw(text: &str, three_d: bool) -> Result<Parsed, GmshError> {
    let secs = sections(text)?;
    let fmt = secs.get("MeshFormat").ok_or(GmshError::MissingSection {
        section: "MeshFormat".into(),
    })?;
    let mut t = fmt.tokens();
    let (vl, version) = t.next("version")?;
    let version = version.to_string();
    let (fl, file_type) = t.int("file type")?;
    if file_type != 0 {
        return Err(GmshError::Binary { line: fl });
    }
    let v2 = version.starts_with("2.");
    if !(version == "4.1" || v2) {
        return Err(GmshError::UnsupportedVersion { line: vl, version });
    }
    // physical names
    let mut names: HashMap<(i64, i64), String> = HashMap::new();
    if let Some(pn) = secs.get("PhysicalNames") {
        let mut lines = pn.lines.iter().filter(|(_, s)| !s.is_empty());
        let &(l0, first) = lines.next().ok_or(GmshError::Malformed {
            line: pn.start,
            message: "$PhysicalNames has no count".into(),
        })?;
        let n: usize = first.parse().map_err(|_| GmshError::Malformed {
            line: l0,
            message: format!("expected the number of physical names, found '{first}'"),
        })?;
        for k in 0..n {
            let &(l, s) = lines.next().ok_or(GmshError::Malformed {
                line: pn.end,
                message: format!("$PhysicalNames announces {n} names, found {k}"),
            })?;
            let bad = |m: &str| GmshError::Malformed {
                line: l,
                message: format!("physical name: {m} (expected `dim tag \"name\"`)"),
            };
            let mut it = s.splitn(3, char::is_whitespace);
            let dim: i64 = it
                .next()
                .and_then(|x| x.parse().ok())
                .ok_or_else(|| bad("bad dimension"))?;
            let tag: i64 = it
                .next()
                .and_then(|x| x.parse().ok())
                .ok_or_else(|| bad("bad tag"))?;
            let rest = it.next().ok_or_else(|| bad("missing name"))?.trim();
            let name = rest
                .strip_prefix('"')
                .and_then(|r| r.strip_suffix('"'))
                .ok_or_else(|| bad("name must be in double quotes"))?;
            names.insert((dim, tag), name.to_string());
        }
    }
    let nodes_sec = secs.get("Nodes").ok_or(GmshError::MissingSection {
        section: "Nodes".into(),
    })?;
    let elems_sec = secs.get("Elements").ok_or(GmshError::MissingSection {
        section: "Elements".into(),
    })?;
    let mut coords: HashMap<i64, [f64; 3]> = HashMap::new();
    let mut elements: Vec<RawElement> = Vec::new();
    if v2 {
        read_nodes_v2(nodes_sec, &mut coords)?;
        read_elements_v2(elems_sec, &mut elements, three_d)?;
    } else {
        let entity_phys = match secs.get("Entities") {
            Some(s) => read_entities_v41(s)?,
            None => HashMap::new(),
        };
        read_nodes_v41(nodes_sec, &mut coords)?;
        read_elements_v41(elems_sec, &entity_phys, &mut elements, three_d)?;
    }
    Ok(Parsed {
        coords,
        elements,
        names,
    })
}

/// Raw content of a file: node coordinates, elements, physical names.
struct Parsed {
    coords: HashMap<i64, [f64; 3]>,
    elements: Vec<RawElement>,
    names: HashMap<(i64, i64), String>,
}

fn read_nodes_v2(sec: &Section, coords: &mut HashMap<i64, [f64; 3]>) -> Result<(), GmshError> {
    let mut t = sec.tokens();
    let (_, n) = t.count("number of nodes")?;
    for _ in 0..n {
        let (_, tag) = t.int("node tag")?;
        let x = [t.float("x")?, t.float("y")?, t.float("z")?];
        coords.insert(tag, x);
    }
    Ok(())
}

fn read_elements_v2(
    sec: &Section,
    out: &mut Vec<RawElement>,
    three_d: bool,
) -> Result<(), GmshError> {
    let mut t = sec.tokens();
    let (_, n) = t.count("number of elements")?;
    for _ in 0..n {
        let (line, tag) = t.int("element tag")?;
        let (_, kind) = t.int("element type")?;
        let (_, ntags) = t.count("number of tags")?;
        let mut tags = Vec::with_capacity(ntags);
        for _ in 0..ntags {
            tags.push(t.int("element tag value")?.1);
        }
        let nn = nodes_of(kind, line, three_d)?;
        let mut nodes = Vec::with_capacity(nn);
        for _ in 0..nn {
            nodes.push(t.int("element node")?.1);
        }
        // first tag = physical group (0: none)
        let physical = tags
            .first()
            .copied()
            .filter(|&p| p != 0)
            .into_iter()
            .collect();
        out.push(RawElement {
            tag,
            kind,
            nodes,
            physical,
            line,
        });
    }
    Ok(())
}

/// Node count of a supported element type, or the unsupported-type error (`three_d`:
/// the tetrahedral reader, which also accepts type 4).
fn nodes_of(kind: i64, line: usize, three_d: bool) -> Result<usize, GmshError> {
    match kind {
        1 => Ok(2),
        2 => Ok(3),
        15 => Ok(1),
        4 if three_d => Ok(4),
        _ if three_d => Err(GmshError::UnsupportedElement3d {
            line,
            element_type: kind,
            name: element_name(kind).into(),
        }),
        _ => Err(GmshError::UnsupportedElement {
            line,
            element_type: kind,
            name: element_name(kind).into(),
        }),
    }
}

/// Physical tags of the entities, keyed by (dim, entity tag).
fn read_entities_v41(sec: &Section) -> Result<HashMap<(i64, i64), Vec<i64>>, GmshError> {
    let mut t = sec.tokens();
    let mut counts = [0usize; 4];
    for (d, c) in counts.iter_mut().enumerate() {
        *c = t.count(&format!("number of entities of dimension {d}"))?.1;
    }
    let mut out = HashMap::new();
    for (dim, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            let (_, tag) = t.int("entity tag")?;
            let n_coords = if dim == 0 { 3 } else { 6 };
            for _ in 0..n_coords {
                t.float("entity coordinate")?;
            }
            let (_, np) = t.count("number of physical tags")?;
            let mut phys = Vec::with_capacity(np);
            for _ in 0..np {
                phys.push(t.int("physical tag")?.1);
            }
            if dim > 0 {
                let (_, nb) = t.count("number of bounding entities")?;
                for _ in 0..nb {
                    t.int("bounding entity")?;
                }
            }
            out.insert((dim as i64, tag), phys);
        }
    }
    Ok(out)
}

/// Reads the header `numEntityBlocks numX minXTag maxXTag` of a 4.1 `$Nodes` or
/// `$Elements` section (`what` = `"node"` or `"element"`); returns the number of blocks.
fn read_block_header(t: &mut Tokens, what: &str) -> Result<usize, GmshError> {
    let (_, blocks) = t.count(&format!("number of {what} blocks"))?;
    t.count(&format!("number of {what}s"))?;
    t.int(&format!("min {what} tag"))?;
    t.int(&format!("max {what} tag"))?;
    Ok(blocks)
}

fn read_nodes_v41(sec: &Section, coords: &mut HashMap<i64, [f64; 3]>) -> Result<(), GmshError> {
    let mut t = sec.tokens();
    let blocks = read_block_header(&mut t, "node")?;
    for _ in 0..blocks {
        let (_, dim) = t.int("entity dimension")?;
        t.int("entity tag")?;
        let (pl, parametric) = t.int("parametric flag")?;
        let (_, n) = t.count("number of nodes in block")?;
        if parametric != 0 && parametric != 1 {
            return Err(GmshError::Malformed {
                line: pl,
                message: format!("parametric flag must be 0 or 1, found {parametric}"),
            });
        }
        let mut tags = Vec::with_capacity(n);
        for _ in 0..n {
            tags.push(t.int("node tag")?.1);
        }
        let n_param = if parametric == 1 {
            dim.clamp(0, 3) as usize
        } else {
            0
        };
        for tag in tags {
            let x = [t.float("x")?, t.float("y")?, t.float("z")?];
            for _ in 0..n_param {
                t.float("parametric coordinate")?;
            }
            coords.insert(tag, x);
        }
    }
    Ok(())
}

fn read_elements_v41(
    sec: &Section,
    entity_phys: &HashMap<(i64, i64), Vec<i64>>,
    out: &mut Vec<RawElement>,
    three_d: bool,
) -> Result<(), GmshError> {
    let mut t = sec.tokens();
    let blocks = read_block_header(&mut t, "element")?;
    for _ in 0..blocks {
        let (_, dim) = t.int("entity dimension")?;
        let (_, etag) = t.int("entity tag")?;
        let (kl, kind) = t.int("element type")?;
        let (_, n) = t.count("number of elements in block")?;
        let nn = nodes_of(kind, kl, three_d)?;
        let physical = entity_phys.get(&(dim, etag)).cloned().unwrap_or_default();
        for _ in 0..n {
            let (line, tag) = t.int("element tag")?;
            let mut nodes = Vec::with_capacity(nn);
            for _ in 0..nn {
                nodes.push(t.int("element node")?.1);
            }
            out.push(RawElement {
                tag,
                kind,
                nodes,
                physical: physical.clone(),
                line,
            });
        }
    }
    Ok(())
}

fn build(
    coords: HashMap<i64, [f64; 3]>,
    elements: Vec<RawElement>,
    names: &HashMap<(i64, i64), String>,
) -> Result<GmshMesh, GmshError> {
    let group_name = |dim: i64, tag: i64| group_name(names, dim, tag);
    let mut zmax = 0.0f64;
    let mut znode = 0i64;
    let CellImport {
        index,
        node_tags,
        vertices,
        cells: mut triangles,
        cell_groups,
    } = import_cells::<3, 2>(&elements, 2, &coords, names, |nt, x| {
        if x[2].abs() > zmax {
            zmax = x[2].abs();
            znode = nt;
        }
        [x[0], x[1]]
    })?;
    for tri in &mut triangles {
        let (a, b, c) = (vertices[tri[0]], vertices[tri[1]], vertices[tri[2]]);
        if crate::mesh::triangle::signed_area(a, b, c) < 0.0 {
            tri.swap(1, 2);
        }
    }
    if triangles.is_empty() {
        return Err(GmshError::NoTriangles);
    }
    let diam = bounding_box_diagonal_sq(&vertices).sqrt();
    if zmax > 1e-12 * diam.max(f64::MIN_POSITIVE) {
        return Err(GmshError::NotPlanar {
            node: znode,
            z: coords[&znode][2],
        });
    }
    let mut mesh = Mesh2d::new(vertices, triangles)?;
    // boundary edges by their (sorted) vertex pair → midpoint bits
    let boundary: HashSet<(usize, usize)> = mesh
        .boundary_edges()
        .iter()
        .map(|b| {
            let [a, c] = mesh.edges()[b.edge];
            (a, c)
        })
        .collect();
    let all_edges: HashSet<(usize, usize)> = mesh.edges().iter().map(|e| (e[0], e[1])).collect();
    let mut groups: FacetGroups<HashSet<(u64, u64)>> = FacetGroups::default();
    for el in elements.iter().filter(|e| e.kind == 1) {
        if el.physical.is_empty() {
            continue;
        }
        let group = group_name(1, el.physical[0]);
        let mut ids = [0usize; 2];
        for (k, nt) in el.nodes.iter().enumerate() {
            ids[k] = *index.get(nt).ok_or_else(|| GmshError::DanglingLine {
                line: el.line,
                a: el.nodes[0],
                b: el.nodes[1],
                group: group.clone(),
            })?;
        }
        let key = (ids[0].min(ids[1]), ids[0].max(ids[1]));
        if !all_edges.contains(&key) {
            return Err(GmshError::DanglingLine {
                line: el.line,
                a: el.nodes[0],
                b: el.nodes[1],
                group,
            });
        }
        // midpoint computed exactly as Mesh2d::edge_midpoint (lower vertex first)
        let (pa, pb) = (mesh.vertices()[key.0], mesh.vertices()[key.1]);
        let mid = [0.5 * (pa[0] + pb[0]), 0.5 * (pa[1] + pb[1])];
        let names = el.physical.iter().map(|&p| group_name(1, p));
        groups.add(
            names,
            boundary.contains(&key),
            (mid[0].to_bits(), mid[1].to_bits()),
        );
    }
    for (name, mids) in &groups.boundary {
        mesh.tag_boundary(name, |m| mids.contains(&(m[0].to_bits(), m[1].to_bits())))?;
    }
    Ok(GmshImport {
        mesh,
        cell_groups,
        node_tags,
        interior_groups: groups.interfaces(),
    })
}

/// Name of physical group `tag` of dimension `dim`: its `$PhysicalNames` entry, else the
/// number.
fn group_name(names: &HashMap<(i64, i64), String>, dim: i64, tag: i64) -> String {
    names
        .get(&(dim, tag))
        .cloned()
        .unwrap_or_else(|| tag.to_string())
}

/// The cells of one element type read from the file, with a compact numbering of the
/// nodes they use (in order of first use).
struct CellImport<const N: usize, const D: usize> {
    /// Mesh vertex of each used Gmsh node tag.
    index: HashMap<i64, usize>,
    /// Gmsh node tag of each mesh vertex.
    node_tags: Vec<i64>,
    vertices: Vec<[f64; D]>,
    /// Cells as read (orientation not yet checked).
    cells: Vec<[usize; N]>,
    /// Physical group names of each cell.
    cell_groups: Vec<Vec<String>>,
}

/// Collects the elements of type `kind` as cells of `N` vertices (physical groups of
/// dimension `D`); `vertex(tag, x)` gives the coordinates of a newly used node.
fn import_cells<const N: usize, const D: usize>(
    elements: &[RawElement],
    kind: i64,
    coords: &HashMap<i64, [f64; 3]>,
    names: &HashMap<(i64, i64), String>,
    mut vertex: impl FnMut(i64, &[f64; 3]) -> [f64; D],
) -> Result<CellImport<N, D>, GmshError> {
    let mut out = CellImport {
        index: HashMap::new(),
        node_tags: Vec::new(),
        vertices: Vec::new(),
        cells: Vec::new(),
        cell_groups: Vec::new(),
    };
    for el in elements.iter().filter(|e| e.kind == kind) {
        let mut cell = [0usize; N];
        for (k, &nt) in el.nodes.iter().enumerate() {
            cell[k] = match out.index.get(&nt) {
                Some(&i) => i,
                None => {
                    let x = coords.get(&nt).ok_or(GmshError::UnknownNode {
                        line: el.line,
                        node: nt,
                    })?;
                    out.vertices.push(vertex(nt, x));
                    out.node_tags.push(nt);
                    out.index.insert(nt, out.vertices.len() - 1);
                    out.vertices.len() - 1
                }
            };
        }
        out.cells.push(cell);
        let dim = D as i64;
        let groups = el.physical.iter().map(|&p| group_name(names, dim, p));
        out.cell_groups.push(groups.collect());
    }
    Ok(out)
}

/// Squared diagonal of the bounding box of `vertices` (the mesh size scale of the
/// planarity and degeneracy tests).
fn bounding_box_diagonal_sq<const D: usize>(vertices: &[[f64; D]]) -> f64 {
    let (mut lo, mut hi) = ([f64::INFINITY; D], [f64::NEG_INFINITY; D]);
    for v in vertices {
        for d in 0..D {
            lo[d] = lo[d].min(v[d]);
            hi[d] = hi[d].max(v[d]);
        }
    }
    (0..D).map(|d| (hi[d] - lo[d]).powi(2)).sum::<f64>()
}

/// The physical groups of facet elements (lines in 2D, triangles in 3D): the keys `K` of
/// the boundary facets of each group, and which groups lie only on interior facets.
#[derive(Default)]
struct FacetGroups<C> {
    /// Boundary facet keys per group (the boundary tags).
    boundary: BTreeMap<String, C>,
    /// Per group: `true` while all its facets are interior.
    interior: BTreeMap<String, bool>,
}

impl<C: Default> FacetGroups<C> {
    /// Records a facet with key `key` in the groups `names`.
    fn add<K: Clone>(&mut self, names: impl Iterator<Item = String>, on_boundary: bool, key: K)
    where
        C: Extend<K>,
    {
        for g in names {
            if on_boundary {
                self.boundary
                    .entry(g.clone())
                    .or_default()
                    .extend(std::iter::once(key.clone()));
                self.interior.insert(g, false);
            } else {
                self.interior.entry(g).or_insert(true);
            }
        }
    }

    /// The groups all of whose facets are interior (interfaces, not boundary tags).
    fn interfaces(self) -> Vec<String> {
        self.interior
            .into_iter()
            .filter(|(_, only_interior)| *only_interior)
            .map(|(g, _)| g)
            .collect()
    }
}

/// A tetrahedral mesh imported from Gmsh ([`parse_msh_3d`]).
pub type GmshMesh3d = GmshImport<Mesh3d>;

impl GmshMesh3d {
    /// Reads the `.msh` file at `path` ([`parse_msh_3d`]).
    pub fn read(path: impl AsRef<Path>) -> Result<Self, GmshError> {
        read_msh_file(path.as_ref(), parse_msh_3d)
    }
}

/// Parses the text of an ASCII `.msh` file (4.1 or 2.2) holding a linear tetrahedral mesh
/// into a [`GmshMesh3d`]: element type 4 (4-node tetrahedron) becomes a cell, type 2
/// (3-node triangle) of a physical surface group a tagged boundary face, types 1 and 15
/// (lines, points) are ignored, anything else is [`GmshError::UnsupportedElement3d`].
/// Negatively oriented tetrahedra are re-oriented (two vertices swapped); tetrahedra with
/// volume `<= 1e-12 ×` (bounding-box diagonal)³ are [`GmshError::DegenerateTetrahedron`];
/// triangles that are not faces of the tetrahedra are [`GmshError::DanglingTriangle`]; a
/// mesh without any physical surface group on its boundary is
/// [`GmshError::NoBoundaryGroups`].
pub fn parse_msh_3d(text: &str) -> Result<GmshMesh3d, GmshError> {
    let Parsed {
        coords,
        elements,
        names,
    } = parse_raw(text, true)?;
    let group_name = |dim: i64, tag: i64| group_name(&names, dim, tag);
    let CellImport {
        index,
        node_tags,
        vertices,
        cells: mut tets,
        cell_groups,
    } = import_cells::<4, 3>(&elements, 4, &coords, &names, |_, x| *x)?;
    if tets.is_empty() {
        return Err(GmshError::NoTetrahedra);
    }
    let diag = bounding_box_diagonal_sq(&vertices).sqrt();
    let raw_tets = elements.iter().filter(|e| e.kind == 4);
    for (tet, el) in tets.iter_mut().zip(raw_tets) {
        let vol = signed_volume(
            vertices[tet[0]],
            vertices[tet[1]],
            vertices[tet[2]],
            vertices[tet[3]],
        );
        let relative = vol.abs() / diag.powi(3).max(f64::MIN_POSITIVE);
        if !(relative > 1e-12) {
            return Err(GmshError::DegenerateTetrahedron {
                line: el.line,
                element: el.tag,
                nodes: [el.nodes[0], el.nodes[1], el.nodes[2], el.nodes[3]],
                volume: vol,
                relative,
            });
        }
        if vol < 0.0 {
            tet.swap(2, 3);
        }
    }
    let mut mesh = Mesh3d::new(vertices, tets)?;
    let boundary: HashSet<[usize; 3]> = mesh.boundary_faces().iter().map(|f| f.vertices).collect();
    // all faces of the tetrahedra (sorted vertex triples)
    let mut all_faces: HashSet<[usize; 3]> = HashSet::new();
    for tet in mesh.tets() {
        for f in 0..4 {
            all_faces.insert(face_key(tet, f));
        }
    }
    let mut groups: FacetGroups<Vec<[usize; 3]>> = FacetGroups::default();
    let mut n_triangles = 0;
    for el in elements.iter().filter(|e| e.kind == 2) {
        n_triangles += 1;
        if el.physical.is_empty() {
            continue;
        }
        let group = group_name(2, el.physical[0]);
        let dangling = || GmshError::DanglingTriangle {
            line: el.line,
            element: el.tag,
            nodes: [el.nodes[0], el.nodes[1], el.nodes[2]],
            group: group.clone(),
        };
        let mut key = [0usize; 3];
        for (k, nt) in el.nodes.iter().enumerate() {
            key[k] = *index.get(nt).ok_or_else(dangling)?;
        }
        key.sort_unstable();
        if !all_faces.contains(&key) {
            return Err(dangling());
        }
        let names = el.physical.iter().map(|&p| group_name(2, p));
        groups.add(names, boundary.contains(&key), key);
    }
    if groups.boundary.is_empty() {
        return Err(GmshError::NoBoundaryGroups { n_triangles });
    }
    for (name, faces) in &groups.boundary {
        mesh.tag_faces(name, faces)?;
    }
    Ok(GmshImport {
        mesh,
        cell_groups,
        node_tags,
        interior_groups: groups.interfaces(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE_V2: &str = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n5\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0.5 0.5 0\n$EndNodes\n$Elements\n6\n1 1 2 7 1 1 2\n2 1 2 8 2 3 4\n3 2 2 1 1 1 2 5\n4 2 2 1 1 2 3 5\n5 2 2 1 1 3 4 5\n6 2 2 1 1 4 1 5\n$EndElements\n";

    #[test]
    fn v2_numbers_as_names() {
        let g = parse_msh(SQUARE_V2).unwrap();
        assert_eq!(g.mesh.n_cells(), 4);
        assert_eq!(g.mesh.tag_names(), vec!["7".to_string(), "8".to_string()]);
        assert_eq!(g.mesh.tagged_edges("7").unwrap().len(), 1);
        assert_eq!(g.cell_groups[0], vec!["1".to_string()]);
    }

    /// A physical line on the interior edge (1, 5) is an interface, not a boundary tag.
    #[test]
    fn interior_lines_are_listed() {
        let text = SQUARE_V2
            .replace("$Elements\n6\n", "$Elements\n7\n")
            .replace("$EndElements", "7 1 2 9 1 1 5\n$EndElements");
        let g = parse_msh(&text).unwrap();
        assert_eq!(g.interior_groups, vec!["9".to_string()]);
        assert!(g.mesh.tagged_edges("9").is_err());
    }

    #[test]
    fn errors_name_the_line() {
        let bin = SQUARE_V2.replace("2.2 0 8", "2.2 1 8");
        assert!(matches!(
            parse_msh(&bin),
            Err(GmshError::Binary { line: 2 })
        ));
        let v3 = SQUARE_V2.replace("2.2 0 8", "3.0 0 8");
        assert!(matches!(
            parse_msh(&v3),
            Err(GmshError::UnsupportedVersion { line: 2, .. })
        ));
        let quad = SQUARE_V2.replace("6 2 2 1 1 4 1 5", "6 3 2 1 1 4 1 5 2");
        let e = parse_msh(&quad).unwrap_err();
        assert!(
            matches!(
                e,
                GmshError::UnsupportedElement {
                    line: 19,
                    element_type: 3,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("quadrangle"));
        let bad = SQUARE_V2.replace("3 1 1 0", "3 1 one 0");
        let e = parse_msh(&bad).unwrap_err();
        assert!(matches!(e, GmshError::Malformed { line: 8, .. }), "{e}");
        assert!(e.to_string().contains("'one'"));
        let missing = SQUARE_V2.replace("1 1 2 7 1 1 2", "1 1 2 7 1 1 99");
        let e = parse_msh(&missing).unwrap_err();
        assert!(matches!(e, GmshError::DanglingLine { .. }), "{e}");
        let unclosed = SQUARE_V2.replace("$EndElements\n", "");
        assert!(matches!(
            parse_msh(&unclosed),
            Err(GmshError::Malformed { line: 12, .. })
        ));
        let tri_node = SQUARE_V2.replace("6 2 2 1 1 4 1 5", "6 2 2 1 1 4 1 42");
        assert!(matches!(
            parse_msh(&tri_node),
            Err(GmshError::UnknownNode { node: 42, .. })
        ));
        let z = SQUARE_V2.replace("5 0.5 0.5 0", "5 0.5 0.5 0.1");
        assert!(matches!(
            parse_msh(&z),
            Err(GmshError::NotPlanar { node: 5, .. })
        ));
    }
}
