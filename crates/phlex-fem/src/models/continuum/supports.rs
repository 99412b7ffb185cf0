//! Boundary conditions shared by the CG × DG continuum models ([`super::elasticity`] and
//! [`super::thermoelasticity`], 2D and 3D; thesis 004 (9.33) and §5.1.3): strong supports of
//! the velocity (clamped tags, single-component supports), isothermal tags, traction and
//! heat-flux ports in the $P_1$ trace basis of the tagged edges or faces, their validation,
//! the DOFs they remove and the input matrices $B^{il} = \langle\phi^i, \psi^l\rangle_\Gamma$
//! of the ports with the trace masses $M_\Gamma^{lm} = \int_\Gamma\psi^l\psi^m$.
use crate::assembly::triangle;
use crate::error::{find_named, Fem2dError, FemError};
use crate::models::continuum::dimension::ContinuumSpace;
use crate::models::restriction::Restriction;
use crate::quadrature::triangle::TriangleQuadrature;
use crate::space::tet::Space3d;
use crate::space::triangle::Space2d;
use phlex_core::sparse::{SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port};

/// Boundary data of a continuum builder, by tag (set through [`Supports`] and
/// [`HeatSupports`]).
#[derive(Debug, Clone, Default)]
pub struct Boundaries {
    /// Clamped tags ($v = 0$).
    pub(crate) clamped: Vec<String>,
    /// Single-component supports ($v_{\mathrm{axis}} = 0$): (tag, axis).
    pub(crate) fixed: Vec<(String, usize)>,
    /// Isothermal tags ($\theta = 0$).
    pub(crate) isothermal: Vec<String>,
    /// Traction ports.
    pub(crate) ports: Vec<String>,
    /// Heat-flux ports.
    pub(crate) flux_ports: Vec<String>,
}

/// The mechanical boundary conditions of a CG × DG continuum builder, by boundary tag
/// (edges in 2D, faces in 3D): the setters of [`super::elasticity::Elasticity2d`],
/// [`super::elasticity::Elasticity3d`] and the thermoelastic builders, written once.
pub trait Supports: Sized {
    /// The conditions collected so far.
    fn boundaries_mut(&mut self) -> &mut Boundaries;

    /// Clamps the boundary tagged `tag` (strong: $v = 0$).
    fn clamped(mut self, tag: &str) -> Self {
        self.boundaries_mut().clamped.push(tag.to_string());
        self
    }

    /// Fixes velocity component `axis` (0 = x, 1 = y, 2 = z) on the boundary tagged `tag`
    /// (strong: $v_{\mathrm{axis}} = 0$, the other components free with zero traction). On
    /// a boundary normal to `axis` this is a roller / symmetry support ($v\cdot n = 0$,
    /// $\tau\cdot s = 0$).
    fn fixed(mut self, tag: &str, axis: usize) -> Self {
        self.boundaries_mut().fixed.push((tag.to_string(), axis));
        self
    }

    /// Makes the boundary tagged `tag` a traction port: inputs are the applied (total)
    /// tractions $\tau = \Sigma n$ (thermoelastic: $(\Sigma - C_\beta\theta I)n$) \[N/m²;
    /// per unit thickness in 2D\] in the $P_1$ trace basis $\psi^l$ of the tagged
    /// boundary's vertices (ordered by global vertex index), one port per component,
    /// `"{tag}_tx"`, `"{tag}_ty"` (and `"{tag}_tz"` in 3D), with
    /// $B^{il}_a = \langle\phi_{v,a}^i, \psi^l\rangle_\Gamma$; the collocated outputs
    /// $B^\top e$ are the weighted velocity traces $\int_\Gamma v_a\psi^l$, so
    /// $\dot H = y^\top u$.
    fn port(mut self, tag: &str) -> Self {
        self.boundaries_mut().ports.push(tag.to_string());
        self
    }
}

/// The thermal boundary conditions of the thermoelastic builders
/// ([`super::thermoelasticity`]).
pub trait HeatSupports: Supports {
    /// Holds the boundary tagged `tag` at the reference temperature ($\theta = 0$).
    fn isothermal(mut self, tag: &str) -> Self {
        self.boundaries_mut().isothermal.push(tag.to_string());
        self
    }

    /// Makes the boundary tagged `tag` a heat-flux port `"{tag}_flux"`: input the heat flux
    /// entering the body $q = k\partial_nT$ \[W/m²\] in the $P_1$ trace basis of the tagged
    /// boundary's vertices, output the weighted temperature trace $\int_\Gamma\theta\psi^l$,
    /// so $y^\top u = \int_\Gamma\theta q$ (the exergy inflow, [`super::thermoelasticity`]).
    fn heat_flux_port(mut self, tag: &str) -> Self {
        self.boundaries_mut().flux_ports.push(tag.to_string());
        self
    }
}

impl Boundaries {
    /// Typed errors for a bad support axis or a port on a tag with a strong condition of
    /// the same physics.
    pub(crate) fn validate(&self, dim: usize) -> Result<(), Fem2dError> {
        for (tag, axis) in &self.fixed {
            if *axis >= dim {
                return Err(FemError::InvalidParameter {
                    name: format!("axis of the support on '{tag}'"),
                    value: *axis as f64,
                    requirement: if dim == 2 {
                        "axis 0 (x) or 1 (y)".into()
                    } else {
                        "axis 0 (x), 1 (y) or 2 (z)".into()
                    },
                }
                .into());
            }
        }
        for tag in &self.ports {
            if self.clamped.contains(tag) || self.fixed.iter().any(|(t, _)| t == tag) {
                return Err(FemError::InvalidParameter {
                    name: format!("boundary tag '{tag}'"),
                    value: 0.0,
                    requirement: "a traction port cannot also be clamped or supported".into(),
                }
                .into());
            }
        }
        for tag in &self.flux_ports {
            if self.isothermal.contains(tag) {
                return Err(FemError::InvalidParameter {
                    name: format!("boundary tag '{tag}'"),
                    value: 0.0,
                    requirement: "a heat-flux port cannot also be isothermal".into(),
                }
                .into());
            }
        }
        Ok(())
    }

    /// Open indices of the velocity DOFs removed by the supports: every component on the
    /// clamped tags, component `axis` on the supported ones.
    pub(crate) fn supported_dofs(
        &self,
        sv: &impl ContinuumSpace,
    ) -> Result<Vec<usize>, Fem2dError> {
        let mut removed = Vec::new();
        let tags: Vec<&str> = self.clamped.iter().map(|s| s.as_str()).collect();
        if !tags.is_empty() {
            removed.extend(sv.boundary_dofs(&tags)?);
        }
        let ns = sv.n_scalar_dofs();
        for (tag, axis) in &self.fixed {
            let r = axis * ns..(axis + 1) * ns;
            removed.extend(
                sv.boundary_dofs(&[tag.as_str()])?
                    .into_iter()
                    .filter(|i| r.contains(i)),
            );
        }
        Ok(removed)
    }

    /// Open indices of the temperature DOFs on the isothermal tags, the temperature block
    /// starting at `offset`.
    pub(crate) fn isothermal_dofs(
        &self,
        st: &impl ContinuumSpace,
        offset: usize,
    ) -> Result<Vec<usize>, Fem2dError> {
        let ttags: Vec<&str> = self.isothermal.iter().map(|s| s.as_str()).collect();
        if ttags.is_empty() {
            return Ok(Vec::new());
        }
        Ok(st
            .boundary_dofs(&ttags)?
            .into_iter()
            .map(|i| i + offset)
            .collect())
    }
}

/// One boundary trace: $B^{il} = \langle\phi^i, \psi^l\rangle_\Gamma$ per component of the
/// space (rows in the open state, shifted by the block offset) and the trace mass.
pub(crate) type TraceMatrices = (Vec<SparseMat>, SparseMat);

/// Trace masses $M_\Gamma$ of the ports of a model, by port name.
#[derive(Debug, Clone)]
pub(crate) struct TraceMasses(Vec<(String, SparseMat)>);

impl TraceMasses {
    /// Trace mass of port `port` of `sys` (an error names an unknown port).
    pub fn get<'a>(
        &'a self,
        sys: &LinearPhSystem,
        port: &str,
    ) -> Result<&'a SparseMat, Fem2dError> {
        sys.ports.range(port)?;
        Ok(find_named(&self.0, port, "boundary port")?)
    }
}

/// The ports of a model: traction ports (`{tag}_t{x,y,z}`, velocity rows; input described
/// by `traction(tag, component)`) then heat-flux ports (`{tag}_flux`, temperature rows);
/// returns the ports, $B$ restricted to the kept states and the trace mass of every port.
pub(crate) fn assemble_ports(
    bd: &Boundaries,
    dofs: &Restriction,
    traces: &dyn Fn(&str, bool) -> Result<TraceMatrices, Fem2dError>,
    dim: usize,
    traction: &dyn Fn(&str, &str) -> String,
) -> Result<(Vec<Port>, SparseMat, TraceMasses), Fem2dError> {
    let unit = if dim == 2 { "m^2/s" } else { "m^3/s" };
    let tunit = if dim == 2 { "m" } else { "m^2" };
    let mut ports = Vec::new();
    let mut cols: Vec<SparseMat> = Vec::new();
    let mut masses = Vec::new();
    for tag in &bd.ports {
        let (b, mg) = traces(tag, true)?;
        let nb = mg.nrows();
        for (a, bm) in b.into_iter().enumerate() {
            let c = ["x", "y", "z"][a];
            let name = format!("{tag}_t{c}");
            ports.push(Port::new(
                name.clone(),
                nb,
                traction(tag, c),
                format!("weighted trace of v_{c} on '{tag}' [{unit}]"),
            ));
            cols.push(bm);
            masses.push((name, mg.clone()));
        }
    }
    for tag in &bd.flux_ports {
        let (mut b, mg) = traces(tag, false)?;
        let nb = mg.nrows();
        let name = format!("{tag}_flux");
        ports.push(Port::new(
            name.clone(),
            nb,
            format!("heat flux into the body q = k dT/dn [W/m^2] on '{tag}' (P1 trace)"),
            format!("weighted trace of theta = (T - T0)/T0 on '{tag}' [{tunit}] (y^T u = exergy inflow)"),
        ));
        cols.push(b.remove(0));
        masses.push((name, mg));
    }
    let n_inputs: usize = cols.iter().map(|b| b.ncols()).sum();
    let mut tb = Triplets::new(dofs.len(), n_inputs);
    let mut c0 = 0;
    for b in &cols {
        tb.push_block(0, c0, &dofs.restrict_rows(b), 1.0);
        c0 += b.ncols();
    }
    Ok((ports, tb.build(), TraceMasses(masses)))
}

/// Weighted edge traces of every component $c$ of `space`,
/// $B_c^{il} = \langle\phi_c^i, \psi^l\rangle_\Gamma$ on the edges tagged `tag` (rows
/// `offset + space.global(c, ·)` of an open state of length `n_full`, columns = the $P_1$
/// ($CG_1$) trace basis $\psi^l$, one per vertex ordered by global index), and the trace mass
/// $M_\Gamma^{lm} = \int_\Gamma\psi^l\psi^m$ (thesis 004 (9.33): the $B_v$ of the traction
/// ports; the heat-flux ports of [`crate::models::continuum::thermoelasticity`] use it on the temperature
/// space). Gauss–Legendre exact for the degree $k + 1$ integrand. The 3D analogue is
/// [`face_traces`].
pub(crate) fn edge_traces(
    space: &Space2d,
    tag: &str,
    n_full: usize,
    offset: usize,
) -> Result<(Vec<SparseMat>, SparseMat), Fem2dError> {
    let mesh = space.mesh();
    let edges = mesh.tagged_edges(tag)?;
    let verts = triangle::edge_vertices(mesh, &edges);
    let nb = verts.len();
    let col = |v: usize| verts.binary_search(&v).unwrap_or(0);
    let nc = space.n_comp();
    let mut tb: Vec<Triplets> = (0..nc).map(|_| Triplets::new(n_full, nb)).collect();
    let mut tm = Triplets::new(nb, nb);
    for b in &edges {
        let tri = mesh.triangles()[b.cell];
        let (ca, cb) = (col(tri[(b.local + 1) % 3]), col(tri[(b.local + 2) % 3]));
        let len = mesh.edge_length(b.edge);
        // trace mass of the two hat functions: len/6 [[2, 1], [1, 2]]
        for (r, c, f) in [(ca, ca, 2.0), (ca, cb, 1.0), (cb, ca, 1.0), (cb, cb, 2.0)] {
            tm.push(r, c, len * f / 6.0);
        }
    }
    triangle::edge_trace_integrals(space, &edges, &verts, &mut |_, d, j, c, a| {
        for (comp, t) in tb.iter_mut().enumerate() {
            t.push(offset + space.global(comp, d[j]), c, a);
        }
    })?;
    Ok((tb.into_iter().map(|t| t.build()).collect(), tm.build()))
}

/// Weighted face traces of every component of `space` (rows at `offset` in a state of
/// length `n_full`) on the $P_1$ trace basis of the faces tagged `tag`, and the trace mass:
/// the 3D analogue of [`edge_traces`] (triangle quadrature exact for degree $k + 1$ mapped
/// onto each face of the reference tetrahedron).
pub(crate) fn face_traces(
    space: &Space3d,
    tag: &str,
    n_full: usize,
    offset: usize,
) -> Result<(Vec<SparseMat>, SparseMat), Fem2dError> {
    let mesh = space.mesh();
    let faces = mesh.tagged_faces(tag)?;
    let mut verts: Vec<usize> = faces.iter().flat_map(|f| f.vertices).collect();
    verts.sort_unstable();
    verts.dedup();
    let nb = verts.len();
    let col = |v: usize| verts.binary_search(&v).unwrap_or(0);
    let q = TriangleQuadrature::exact_for_degree(space.family().degree() + 1)?;
    let el = space.element();
    let nl = el.n_local();
    let (mut val, mut grad) = (vec![0.0; nl], vec![[0.0; 3]; nl]);
    let nc = space.n_comp();
    let mut tb: Vec<Triplets> = (0..nc).map(|_| Triplets::new(n_full, nb)).collect();
    let mut tm = Triplets::new(nb, nb);
    let refv = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    for f in &faces {
        let tet = mesh.tets()[f.cell];
        let lv: Vec<usize> = (0..4).filter(|&i| i != f.local).collect();
        let cols = [col(tet[lv[0]]), col(tet[lv[1]]), col(tet[lv[2]])];
        let area = mesh.face_area(f);
        for a in 0..3 {
            for b in 0..3 {
                let m = if a == b { 2.0 } else { 1.0 };
                tm.push(cols[a], cols[b], area * m / 12.0);
            }
        }
        let d = space.cell_dofs(f.cell);
        for (p, &w) in q.points.iter().zip(&q.weights) {
            let psi = [1.0 - p[0] - p[1], p[0], p[1]];
            let mut xh = [0.0; 3];
            for (c, x) in xh.iter_mut().enumerate() {
                *x = psi[0] * refv[lv[0]][c] + psi[1] * refv[lv[1]][c] + psi[2] * refv[lv[2]][c];
            }
            el.eval(xh, &mut val, &mut grad);
            // weights sum to 1/2 = reference triangle area
            let wa = 2.0 * w * area;
            for (s, &c) in psi.iter().zip(&cols) {
                for j in 0..nl {
                    let a = wa * s * val[j];
                    if a == 0.0 {
                        continue;
                    }
                    for (comp, t) in tb.iter_mut().enumerate() {
                        t.push(offset + space.global(comp, d[j]), c, a);
                    }
                }
            }
        }
    }
    Ok((tb.into_iter().map(|t| t.build()).collect(), tm.build()))
}
