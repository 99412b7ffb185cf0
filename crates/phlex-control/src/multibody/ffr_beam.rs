//! Flexible body of planar beam elements in the floating frame of reference
//! formulation (thesis 002 §2.6–§2.7).
//!
//! The body is a set of nodes in the `x–y` plane of its frame, joined by
//! [`PlanarBeamElement`]s of orientation `α` (eqs. (2.249), (2.254)–(2.255):
//! `S_g = C S C̄`, `C = Rot_z(α)`, `C̄ = blockdiag(Cᵀ, Cᵀ)`). Each node carries
//! three coordinates in the body frame, `(u, v, ϑ)` (translations along the
//! body `x` and `y` axes and the infinitesimal rotation about `z`);
//! connectivity (`B_c`, eq. (2.256)) is the shared node numbering, and the
//! **reference conditions** (`B_e`, eq. (2.257)) remove the nodal
//! coordinates that define the body frame, e.g. a cantilever frame (all
//! three coordinates of one node) or a simply supported frame. Without them
//! the elastic coordinates contain the rigid motion and `K_ff` is singular:
//! [`FfrBeam::build`] rejects such a body.
//!
//! The undeformed nodal coordinates `q_o` hold the node positions (and zero
//! rotations), so `ū = N(q_o + B_e q_f)` (eq. (2.333)) interpolates the
//! undeformed geometry exactly. The inertia invariants of
//! [`FloatingBody`] are integrated element by element with 4-point Gauss
//! quadrature (exact: the integrands are polynomials of degree ≤ 6 in `ξ`),
//! the stiffness `K_ff = B_eᵀ Σ_j C̄ᵀ K_j C̄ B_e` from the closed form (5.112).
//!
//! | parameter | symbol | unit | requirement |
//! |---|---|---|---|
//! | node positions | `(x, y)` in the body frame | m | finite, distinct at element ends |
//! | `rho_a` | `ρA` | kg/m | `> 0` |
//! | `ea` | `EA` | N | `> 0` |
//! | `ei` | `EJ` | N m² | `> 0` |
//!
//! ```
//! use phlex_control::multibody::{FfrBeam, ReferenceConditions};
//! let body = FfrBeam::straight(1.0, 4, 2.0, 1e5, 20.0)
//!     .reference(ReferenceConditions::Cantilever { node: 0 })
//!     .build("arm")?;
//! // 4 free nodes × (u, v, ϑ)
//! assert_eq!(body.n_elastic(), 12);
//! assert!((body.mass() - 2.0).abs() < 1e-14);
//! # Ok::<(), phlex_control::ControlError>(())
//! ```

use faer::Mat;

use super::beam_element::PlanarBeamElement;
use super::body_point::BodyPoint;
use super::floating_body::FloatingBody;
use crate::error::{ControlError, Result};
use crate::linalg::cholesky;
use crate::linalg::logm::gauss_legendre01;
use phlex_core::geometry::{Mat3, Vec3};

/// A nodal coordinate of the planar beam mesh (body frame).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodalDof {
    /// Translation along the body `x` axis.
    U,
    /// Translation along the body `y` axis.
    V,
    /// Infinitesimal rotation about the body `z` axis.
    Rotation,
}

impl NodalDof {
    fn index(self) -> usize {
        match self {
            NodalDof::U => 0,
            NodalDof::V => 1,
            NodalDof::Rotation => 2,
        }
    }
}

/// Reference conditions `B_e` that fix the body frame to the deformed body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReferenceConditions {
    /// All coordinates of `node` removed: the frame is the tangent frame at
    /// that node (a beam clamped in its own frame).
    Cantilever {
        /// the clamped node
        node: usize,
    },
    /// `u = v = 0` at `a` and `v = 0` at `b`: the frame `x` axis passes
    /// through both nodes (for a beam along the body `x` axis).
    SimplySupported {
        /// node at the frame origin
        a: usize,
        /// node on the frame `x` axis
        b: usize,
    },
    /// Any list of removed nodal coordinates.
    Custom(Vec<(usize, NodalDof)>),
}

impl ReferenceConditions {
    fn removed(&self) -> Vec<(usize, NodalDof)> {
        match self {
            ReferenceConditions::Cantilever { node } => vec![
                (*node, NodalDof::U),
                (*node, NodalDof::V),
                (*node, NodalDof::Rotation),
            ],
            ReferenceConditions::SimplySupported { a, b } => {
                vec![(*a, NodalDof::U), (*a, NodalDof::V), (*b, NodalDof::V)]
            }
            ReferenceConditions::Custom(v) => v.clone(),
        }
    }
}

/// One element of an [`FfrBeam`]: end nodes and section.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BeamElementDef {
    /// First node.
    pub a: usize,
    /// Second node.
    pub b: usize,
    /// `ρA` \[kg/m\].
    pub rho_a: f64,
    /// `EA` \[N\].
    pub ea: f64,
    /// `EJ` \[N m²\].
    pub ei: f64,
}

/// Builder of a flexible floating body of planar beam elements (see the
/// module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct FfrBeam {
    /// Node positions in the body frame \[m\].
    pub nodes: Vec<[f64; 2]>,
    /// Elements.
    pub elements: Vec<BeamElementDef>,
    /// Reference conditions (`None`: rejected at build time).
    pub reference: Option<ReferenceConditions>,
    /// Rayleigh damping `(α, β)` of the elastic coordinates.
    pub rayleigh: (f64, f64),
    /// Point masses `(node, mass)` attached to nodes (e.g. rigid floors of a
    /// frame, thesis 002 §5.4: `m_i B_miᵀB_mi`) \[kg\].
    pub point_masses: Vec<(usize, f64)>,
}

/// Geometry of one element after validation.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ElementGeometry {
    a: usize,
    b: usize,
    beam: PlanarBeamElement,
    c: f64,
    s: f64,
}

/// Node/element numbering and free coordinates of a built beam body; maps
/// elastic coordinates to material points and displacements.
#[derive(Debug, Clone, PartialEq)]
pub struct BeamLayout {
    nodes: Vec<[f64; 2]>,
    elements: Vec<ElementGeometry>,
    /// full nodal index `3·node + dof` → free elastic index
    free: Vec<Option<usize>>,
}

impl FfrBeam {
    /// A straight beam of `n_elements` equal elements from the body origin
    /// along the body `x` axis (nodes `0 … n_elements`), uniform section.
    pub fn straight(length: f64, n_elements: usize, rho_a: f64, ea: f64, ei: f64) -> Self {
        let n = n_elements.max(1);
        let nodes = (0..=n)
            .map(|k| [length * k as f64 / n as f64, 0.0])
            .collect();
        let elements = (0..n_elements)
            .map(|k| BeamElementDef {
                a: k,
                b: k + 1,
                rho_a,
                ea,
                ei,
            })
            .collect();
        Self {
            nodes,
            elements,
            reference: None,
            rayleigh: (0.0, 0.0),
            point_masses: Vec::new(),
        }
    }

    /// A mesh with the given nodes and no elements yet.
    pub fn new(nodes: Vec<[f64; 2]>) -> Self {
        Self {
            nodes,
            elements: Vec::new(),
            reference: None,
            rayleigh: (0.0, 0.0),
            point_masses: Vec::new(),
        }
    }

    /// Attaches a point mass to a node (it follows the node's translations).
    pub fn point_mass(mut self, node: usize, mass: f64) -> Self {
        self.point_masses.push((node, mass));
        self
    }

    /// Adds an element between nodes `a` and `b`.
    pub fn element(mut self, a: usize, b: usize, rho_a: f64, ea: f64, ei: f64) -> Self {
        self.elements.push(BeamElementDef {
            a,
            b,
            rho_a,
            ea,
            ei,
        });
        self
    }

    /// Sets the reference conditions.
    pub fn reference(mut self, r: ReferenceConditions) -> Self {
        self.reference = Some(r);
        self
    }

    /// Sets Rayleigh damping `R_ff = α m_ff + β K_ff`.
    pub fn rayleigh(mut self, alpha: f64, beta: f64) -> Self {
        self.rayleigh = (alpha, beta);
        self
    }

    /// Validates the mesh and computes the invariants of body `name`.
    pub fn build(&self, name: &str) -> Result<FloatingBody> {
        let bad = |what: String, reason: String| ControlError::InvalidParameter {
            name: format!("{name}: {what}"),
            reason,
        };
        let nn = self.nodes.len();
        if self.elements.is_empty() {
            return Err(bad(
                "elements".into(),
                "at least one element is needed".into(),
            ));
        }
        for (k, p) in self.nodes.iter().enumerate() {
            if !p.iter().all(|v| v.is_finite()) {
                return Err(bad(
                    format!("node {k}"),
                    "coordinates must be finite".into(),
                ));
            }
        }
        let mut geo = Vec::with_capacity(self.elements.len());
        for (k, e) in self.elements.iter().enumerate() {
            if e.a >= nn || e.b >= nn || e.a == e.b {
                return Err(bad(
                    format!("element {k}"),
                    format!("end nodes ({}, {}) must be distinct and < {nn}", e.a, e.b),
                ));
            }
            for (v, what) in [(e.rho_a, "rho_a"), (e.ea, "EA"), (e.ei, "EI")] {
                if !(v > 0.0) || !v.is_finite() {
                    return Err(bad(
                        format!("element {k} {what}"),
                        format!("must be finite and > 0, got {v}"),
                    ));
                }
            }
            let (pa, pb) = (self.nodes[e.a], self.nodes[e.b]);
            let (dx, dy) = (pb[0] - pa[0], pb[1] - pa[1]);
            let l = (dx * dx + dy * dy).sqrt();
            if !(l > 0.0) {
                return Err(bad(format!("element {k}"), "has zero length".into()));
            }
            geo.push(ElementGeometry {
                a: e.a,
                b: e.b,
                beam: PlanarBeamElement {
                    length: l,
                    rho_a: e.rho_a,
                    ea: e.ea,
                    ei: e.ei,
                },
                c: dx / l,
                s: dy / l,
            });
        }
        let reference = self.reference.as_ref().ok_or_else(|| {
            bad(
                "reference conditions".into(),
                "missing: without them the elastic coordinates contain the rigid motion and the stiffness is singular (set a cantilever or simply supported frame)".into(),
            )
        })?;
        let mut free = vec![Some(0usize); 3 * nn];
        for (node, dof) in reference.removed() {
            if node >= nn {
                return Err(bad(
                    "reference conditions".into(),
                    format!("node {node} does not exist (the mesh has {nn} nodes)"),
                ));
            }
            free[3 * node + dof.index()] = None;
        }
        let mut n_f = 0;
        for f in free.iter_mut() {
            if f.is_some() {
                *f = Some(n_f);
                n_f += 1;
            }
        }
        let layout = BeamLayout {
            nodes: self.nodes.clone(),
            elements: geo,
            free,
        };
        // invariants by 4-point Gauss quadrature
        let (gx, gw) = gauss_legendre01(4);
        let mut m = 0.0;
        let mut U0 = [0.0; 3];
        let mut P0: Mat3 = [[0.0; 3]; 3];
        let mut Nf: Vec<Vec3> = vec![[0.0; 3]; n_f];
        let mut Y: [[Vec<f64>; 3]; 3] =
            std::array::from_fn(|_| std::array::from_fn(|_| vec![0.0; n_f]));
        let mut Z: [[Mat<f64>; 3]; 3] =
            std::array::from_fn(|_| std::array::from_fn(|_| Mat::zeros(n_f, n_f)));
        let mut K = Mat::<f64>::zeros(n_f, n_f);
        for (e, g) in layout.elements.iter().enumerate() {
            let dofs = layout.element_dofs(e);
            let qo = layout.element_qo(e);
            for (&xi, &w) in gx.iter().zip(&gw) {
                let dm = g.beam.rho_a * g.beam.length * w;
                let Sg = layout.global_shape(e, xi);
                let u0 = [
                    (0..6).map(|j| Sg[0][j] * qo[j]).sum::<f64>(),
                    (0..6).map(|j| Sg[1][j] * qo[j]).sum::<f64>(),
                ];
                m += dm;
                for k in 0..2 {
                    U0[k] += dm * u0[k];
                    for l in 0..2 {
                        P0[k][l] += dm * u0[k] * u0[l];
                    }
                }
                for (j, fj) in dofs.iter().enumerate() {
                    let Some(fj) = *fj else { continue };
                    for k in 0..2 {
                        Nf[fj][k] += dm * Sg[k][j];
                        for l in 0..2 {
                            Y[k][l][fj] += dm * u0[k] * Sg[l][j];
                        }
                    }
                    for (i, fi) in dofs.iter().enumerate() {
                        let Some(fi) = *fi else { continue };
                        for k in 0..2 {
                            for l in 0..2 {
                                Z[k][l][(fi, fj)] += dm * Sg[k][i] * Sg[l][j];
                            }
                        }
                    }
                }
            }
            let Kb = layout.element_stiffness_body(e);
            for (i, fi) in dofs.iter().enumerate() {
                let Some(fi) = *fi else { continue };
                for (j, fj) in dofs.iter().enumerate() {
                    let Some(fj) = *fj else { continue };
                    K[(fi, fj)] += Kb[i][j];
                }
            }
        }
        for &(node, pm) in &self.point_masses {
            if node >= nn || !(pm > 0.0) || !pm.is_finite() {
                return Err(bad(
                    format!("point mass at node {node}"),
                    format!("needs node < {nn} and a finite mass > 0, got {pm}"),
                ));
            }
            let p = self.nodes[node];
            m += pm;
            for k in 0..2 {
                U0[k] += pm * p[k];
                for l in 0..2 {
                    P0[k][l] += pm * p[k] * p[l];
                }
            }
            // the mass follows the node translations (u, v): unit columns
            let dofs = [
                layout.free_index(node, NodalDof::U),
                layout.free_index(node, NodalDof::V),
            ];
            for (k, fk) in dofs.iter().enumerate() {
                let Some(fk) = *fk else { continue };
                Nf[fk][k] += pm;
                for l in 0..2 {
                    Y[l][k][fk] += pm * p[l];
                }
                for (l, fl) in dofs.iter().enumerate() {
                    let Some(fl) = *fl else { continue };
                    Z[k][l][(fk, fl)] += pm;
                }
            }
        }
        if n_f > 0 && cholesky("K_ff", K.as_ref()).is_err() {
            return Err(bad(
                "reference conditions".into(),
                "leave rigid-body motion in the elastic coordinates (K_ff is singular); the frame needs at least three independent removed coordinates".into(),
            ));
        }
        let body = FloatingBody::from_invariants(
            name,
            m,
            U0,
            P0,
            Nf,
            Y,
            Z,
            K,
            Mat::zeros(n_f, n_f),
            Some(layout),
        )?;
        let (a, b) = self.rayleigh;
        if a != 0.0 || b != 0.0 {
            if !(a >= 0.0 && b >= 0.0) {
                return Err(bad(
                    "Rayleigh damping".into(),
                    format!("needs α ≥ 0 and β ≥ 0, got ({a}, {b})"),
                ));
            }
            return Ok(body.with_rayleigh_damping(a, b));
        }
        Ok(body)
    }
}

impl BeamLayout {
    /// Number of nodes.
    pub fn n_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Number of elements.
    pub fn n_elements(&self) -> usize {
        self.elements.len()
    }

    /// Undeformed position of a node in the body frame.
    pub fn node_position(&self, node: usize) -> Option<[f64; 2]> {
        self.nodes.get(node).copied()
    }

    /// Elastic coordinate index of a nodal coordinate (`None` if removed by
    /// the reference conditions or out of range).
    pub fn free_index(&self, node: usize, dof: NodalDof) -> Option<usize> {
        self.free.get(3 * node + dof.index()).copied().flatten()
    }

    /// Number of elastic coordinates.
    pub fn n_free(&self) -> usize {
        self.free.iter().filter(|f| f.is_some()).count()
    }

    fn element_dofs(&self, e: usize) -> [Option<usize>; 6] {
        let g = &self.elements[e];
        std::array::from_fn(|j| {
            let node = if j < 3 { g.a } else { g.b };
            self.free[3 * node + j % 3]
        })
    }

    fn element_qo(&self, e: usize) -> [f64; 6] {
        let g = &self.elements[e];
        let (pa, pb) = (self.nodes[g.a], self.nodes[g.b]);
        [pa[0], pa[1], 0.0, pb[0], pb[1], 0.0]
    }

    /// `C̄` column `j` applied: element-frame coordinates of body-frame nodal
    /// coordinate `j` (`C̄ = blockdiag(Cᵀ, Cᵀ)`, eq. (2.255)).
    fn cbar(&self, e: usize) -> [[f64; 6]; 6] {
        let g = &self.elements[e];
        let ct = [[g.c, g.s, 0.0], [-g.s, g.c, 0.0], [0.0, 0.0, 1.0]];
        let mut cb = [[0.0; 6]; 6];
        for blk in 0..2 {
            for i in 0..3 {
                for j in 0..3 {
                    cb[3 * blk + i][3 * blk + j] = ct[i][j];
                }
            }
        }
        cb
    }

    /// `S_g = C S C̄` (2×6, body frame) of element `e` at `ξ` (eq. (2.249)).
    fn global_shape(&self, e: usize, xi: f64) -> [[f64; 6]; 2] {
        let g = &self.elements[e];
        let S = g.beam.shape(xi);
        let cb = self.cbar(e);
        let mut SC = [[0.0; 6]; 2];
        for r in 0..2 {
            for j in 0..6 {
                SC[r][j] = (0..6).map(|k| S[r][k] * cb[k][j]).sum();
            }
        }
        let mut out = [[0.0; 6]; 2];
        for j in 0..6 {
            out[0][j] = g.c * SC[0][j] - g.s * SC[1][j];
            out[1][j] = g.s * SC[0][j] + g.c * SC[1][j];
        }
        out
    }

    /// Element stiffness in body-frame nodal coordinates `C̄ᵀ K C̄`.
    fn element_stiffness_body(&self, e: usize) -> [[f64; 6]; 6] {
        let K = self.elements[e].beam.stiffness_matrix();
        let cb = self.cbar(e);
        let mut out = [[0.0; 6]; 6];
        for i in 0..6 {
            for j in 0..6 {
                let mut s = 0.0;
                for a in 0..6 {
                    for b in 0..6 {
                        s += cb[a][i] * K[a][b] * cb[b][j];
                    }
                }
                out[i][j] = s;
            }
        }
        out
    }

    fn check_element(&self, e: usize, xi: f64) -> Result<()> {
        if e >= self.elements.len() || !(0.0..=1.0).contains(&xi) {
            return Err(ControlError::InvalidParameter {
                name: "beam material point".into(),
                reason: format!(
                    "needs element < {} and 0 ≤ ξ ≤ 1, got element {e}, ξ = {xi}",
                    self.elements.len()
                ),
            });
        }
        Ok(())
    }

    /// Material point at node `node`.
    pub fn node_point(&self, node: usize) -> Result<BodyPoint> {
        let p = self
            .nodes
            .get(node)
            .ok_or_else(|| ControlError::InvalidParameter {
                name: "beam node".into(),
                reason: format!("node {node} does not exist ({} nodes)", self.nodes.len()),
            })?;
        let mut shape = Vec::new();
        if let Some(i) = self.free_index(node, NodalDof::U) {
            shape.push((i, [1.0, 0.0, 0.0]));
        }
        if let Some(i) = self.free_index(node, NodalDof::V) {
            shape.push((i, [0.0, 1.0, 0.0]));
        }
        Ok(BodyPoint {
            u0: [p[0], p[1], 0.0],
            shape,
        })
    }

    /// Material point on element `e` at `ξ ∈ [0, 1]`.
    pub fn element_point(&self, e: usize, xi: f64) -> Result<BodyPoint> {
        self.check_element(e, xi)?;
        let Sg = self.global_shape(e, xi);
        let qo = self.element_qo(e);
        let u0 = [
            (0..6).map(|j| Sg[0][j] * qo[j]).sum::<f64>(),
            (0..6).map(|j| Sg[1][j] * qo[j]).sum::<f64>(),
            0.0,
        ];
        let shape = self
            .element_dofs(e)
            .iter()
            .enumerate()
            .filter_map(|(j, f)| f.map(|f| (f, [Sg[0][j], Sg[1][j], 0.0])))
            .filter(|(_, c)| c[0] != 0.0 || c[1] != 0.0)
            .collect();
        Ok(BodyPoint { u0, shape })
    }

    /// Elastic displacement `(u_x, u_y)` (body frame) and cross-section
    /// rotation on element `e` at `ξ` for elastic coordinates `qf`.
    pub fn displacement(&self, e: usize, xi: f64, qf: &[f64]) -> Result<[f64; 3]> {
        self.check_element(e, xi)?;
        let Sg = self.global_shape(e, xi);
        let slope = self.elements[e].beam.slope(xi);
        let cb = self.cbar(e);
        let mut out = [0.0; 3];
        for (j, f) in self.element_dofs(e).iter().enumerate() {
            let Some(f) = *f else { continue };
            let v = qf[f];
            out[0] += Sg[0][j] * v;
            out[1] += Sg[1][j] * v;
            out[2] += (0..6).map(|k| slope[k] * cb[k][j]).sum::<f64>() * v;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One element along x, cantilever at node 0: `m_ff` is the free block of
    /// (5.108); the first moment and the inertia about the origin are the
    /// rod's `ρAL²/2` and `ρAL³/3`; the invariants of a 45° element give the
    /// same inertia tensor rotated.
    #[test]
    fn invariants_single_element() {
        let (l, ra) = (0.8, 3.0);
        let b = FfrBeam::straight(l, 1, ra, 1e4, 10.0)
            .reference(ReferenceConditions::Cantilever { node: 0 })
            .build("b")
            .unwrap();
        let el = PlanarBeamElement {
            length: l,
            rho_a: ra,
            ea: 1e4,
            ei: 10.0,
        }
        .mass_matrix();
        let mff = b.elastic_mass();
        for i in 0..3 {
            for j in 0..3 {
                assert!((mff[(i, j)] - el[3 + i][3 + j]).abs() < 1e-14);
            }
        }
        let qf = vec![0.0; 3];
        let U = b.first_moment(&qf);
        assert!((U[0] - ra * l * l / 2.0).abs() < 1e-14 && U[1].abs() < 1e-15);
        let I = b.inertia(&qf);
        assert!((I[2][2] - ra * l.powi(3) / 3.0).abs() < 1e-14);
        assert!((I[1][1] - ra * l.powi(3) / 3.0).abs() < 1e-14);
        assert!(I[0][0].abs() < 1e-15);
        // tip transverse deflection v₂ = δ: ∫ρ ū_y = ρA L δ/2, inertia I_zz += ∫ρ v² (exact Hermite)
        let mut qf = vec![0.0; 3];
        qf[1] = 0.01;
        let U = b.first_moment(&qf);
        assert!((U[1] - ra * l * 0.01 / 2.0).abs() < 1e-15);
        // 45° element from the origin: inertia tensor rotated
        let c = std::f64::consts::FRAC_1_SQRT_2;
        let b2 = FfrBeam::new(vec![[0.0, 0.0], [l * c, l * c]])
            .element(0, 1, ra, 1e4, 10.0)
            .reference(ReferenceConditions::Cantilever { node: 0 })
            .build("b2")
            .unwrap();
        let I2 = b2.inertia(&[0.0; 3]);
        let j = ra * l.powi(3) / 3.0;
        assert!((I2[2][2] - j).abs() < 1e-14);
        assert!((I2[0][1] + 0.5 * j).abs() < 1e-14, "{:?}", I2);
        // the elastic mass of a rotated element equals the unrotated one (rotation invariance)
        let m2 = b2.elastic_mass();
        let k2 = b2.stiffness();
        let (m1, k1) = (b.elastic_mass(), b.stiffness());
        // node-1 coordinates (u, v, ϑ) in body axes are rotated by 45° in the element:
        // the ϑϑ entries are invariant
        assert!((m2[(2, 2)] - m1[(2, 2)]).abs() < 1e-14);
        assert!((k2[(2, 2)] - k1[(2, 2)]).abs() < 1e-12);
        // trace of the translational block is invariant
        let t1 = m1[(0, 0)] + m1[(1, 1)];
        let t2 = m2[(0, 0)] + m2[(1, 1)];
        assert!((t1 - t2).abs() < 1e-14);
    }

    /// Missing or insufficient reference conditions and bad data are typed errors naming the body.
    #[test]
    fn errors() {
        let e = FfrBeam::straight(1.0, 2, 1.0, 1.0, 1.0)
            .build("arm")
            .unwrap_err();
        assert!(
            e.to_string().contains("arm") && e.to_string().contains("reference"),
            "{e}"
        );
        let e = FfrBeam::straight(1.0, 2, 1.0, 1.0, 1.0)
            .reference(ReferenceConditions::Custom(vec![
                (0, NodalDof::U),
                (0, NodalDof::V),
            ]))
            .build("arm")
            .unwrap_err();
        assert!(e.to_string().contains("singular"), "{e}");
        let e = FfrBeam::straight(1.0, 2, -1.0, 1.0, 1.0)
            .reference(ReferenceConditions::Cantilever { node: 0 })
            .build("arm")
            .unwrap_err();
        assert!(e.to_string().contains("rho_a"), "{e}");
        let e = FfrBeam::new(vec![[0.0, 0.0], [0.0, 0.0]])
            .element(0, 1, 1.0, 1.0, 1.0)
            .reference(ReferenceConditions::Cantilever { node: 0 })
            .build("arm")
            .unwrap_err();
        assert!(e.to_string().contains("zero length"), "{e}");
        let e = FfrBeam::straight(1.0, 2, 1.0, 1.0, 1.0)
            .reference(ReferenceConditions::Cantilever { node: 7 })
            .build("arm")
            .unwrap_err();
        assert!(e.to_string().contains("node 7"), "{e}");
    }
}
