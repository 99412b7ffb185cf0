//! Mindlin–Reissner plate, CGDG dual-mixed PFEM (thesis 004 §4.1.1, §6.1.4.3, eq. (7.20);
//! summary §2.5, §3.2 "Mindlin plate, force/torque control", §3.3 CGDG, App. C / §5.2).
//!
//! Co-energy variables and spaces (degree $k = 1, 2, 3$):
//!
//! | block | field | space |
//! |---|---|---|
//! | `e_w` | $\dot w$ | $CG_k$ |
//! | `e_theta` | $\dot\theta$ | $(CG_k)^2$ |
//! | `E_kappa` | bending moments $M$ | $(DG_{k-1})^{2\times2}_{\mathrm{sym}}$ |
//! | `e_gamma` | shear forces $q$ | $(DG_{k-1})^2$ |
//!
//! Weak form (integration by parts on lines 1–2, boundary terms = traction inputs):
//! $$\begin{aligned}
//! \langle v_w, \rho h\,\partial_t e_w\rangle &= -\langle\operatorname{grad}v_w, e_\gamma\rangle
//!   + \langle v_w, q_n\rangle_{\partial}\\
//! \langle v_\theta, \tfrac{\rho h^3}{12}\partial_t e_\theta\rangle &=
//!   -\langle\operatorname{Grad}v_\theta, E_\kappa\rangle + \langle v_\theta, e_\gamma\rangle
//!   + \langle v_\theta\cdot n, M_{nn}\rangle_\partial + \langle v_\theta\cdot s, M_{ns}\rangle_\partial\\
//! \langle V_\kappa, \mathcal C_b\,\partial_t E_\kappa\rangle &= \langle V_\kappa,
//!   \operatorname{Grad}e_\theta\rangle\\
//! \langle v_\gamma, C_s\,\partial_t e_\gamma\rangle &= \langle v_\gamma,
//!   \operatorname{grad}e_w\rangle - \langle v_\gamma, e_\theta\rangle
//! \end{aligned}$$
//! with $\mathcal C_b(M) = \frac{12}{Eh^3}\left[(1+\nu)M - \nu\operatorname{tr}(M)I\right]$
//! $= \mathcal D_b^{-1}$, $C_s = 1/(K_{sh}Gh)$, $G = E/(2(1+\nu))$. Hence
//! $E = \operatorname{diag}(M_{\rho h}, M_{\rho h^3/12}, M_{\mathcal C_b}, M_{C_s})$ and
//! $$J = \begin{bmatrix}0&0&0&-D_{\mathrm{grad}}^\top\\0&0&-D_{\mathrm{Grad}}^\top&-D_0^\top\\
//! 0&D_{\mathrm{Grad}}&0&0\\D_{\mathrm{grad}}&D_0&0&0\end{bmatrix},\quad
//! D_0^{rn} = -\langle\phi_\gamma^r, \phi_\theta^n\rangle .$$
//!
//! Boundary conditions (summary §2.5 table): clamped edges ($w_t = \omega_n = \omega_s = 0$)
//! are imposed strongly by removing the `e_w` and `e_theta` DOFs on them (thesis App. C,
//! `DirichletBC`, [`MindlinCgDg::clamped`]) or weakly by Lagrange multipliers
//! ([`MindlinCgDg::clamped_weak`], thesis App. C second variant): with $G$ the traction
//! input matrix $[B_w\ B_{\theta n}\ B_{\theta s}]$ of the weakly clamped edges ($CG_1$
//! trace basis on their union, one column per boundary vertex and component), the
//! multipliers $\lambda = (q_n, M_{nn}, M_{ns})$ enter as
//! $$\begin{bmatrix}E&0\\0&0\end{bmatrix}\begin{pmatrix}\dot e\\\dot\lambda\end{pmatrix}
//! = \begin{bmatrix}J&G\\-G^\top&0\end{bmatrix}\begin{pmatrix}e\\\lambda\end{pmatrix},$$
//! an index-2 pHDAE (block `lambda_clamped`), the reactions being the multipliers; edges declared as ports ([`MindlinCgDg::port`]) carry the traction
//! inputs $(q_n, M_{nn}, M_{ns})$ of the boundary terms above; all other edges are free
//! with zero tractions (natural condition: their input terms vanish).
use crate::assembly2d;
use crate::error::{require_positive, FemError};
use crate::mesh2d::{Fem2dError, Mesh2d};
use crate::model::BlockAssembler;
use crate::quadrature::GaussLegendre;
use crate::space2d::{complement, Family2d, Shape, Space2d};
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};

/// Material and geometric data of an isotropic Mindlin plate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MindlinParams {
    /// Young's modulus $E$ \[Pa\].
    pub E: f64,
    /// Poisson ratio $\nu \in (-1, \tfrac12)$.
    pub nu: f64,
    /// Density $\rho$ \[kg/m³\].
    pub rho: f64,
    /// Thickness $h$ \[m\].
    pub h: f64,
    /// Shear correction factor $K_{sh}$ (5/6 in the thesis).
    pub k_sh: f64,
}

impl MindlinParams {
    /// Checks positivity of $E, \rho, h, K_{sh}$ and $-1 < \nu < \tfrac12$.
    pub fn validate(&self) -> Result<(), FemError> {
        require_positive("E", self.E)?;
        require_positive("rho", self.rho)?;
        require_positive("h", self.h)?;
        require_positive("k_sh", self.k_sh)?;
        if !(self.nu > -1.0 && self.nu < 0.5) {
            return Err(FemError::InvalidParameter {
                name: "nu".into(),
                value: self.nu,
                requirement: "-1 < nu < 0.5".into(),
            });
        }
        Ok(())
    }
    /// Shear modulus $G = E/(2(1+\nu))$.
    pub fn shear_modulus(&self) -> f64 {
        self.E / (2.0 * (1.0 + self.nu))
    }
    /// Bending stiffness $D_b = Eh^3/(12(1-\nu^2))$.
    pub fn bending_stiffness(&self) -> f64 {
        self.E * self.h.powi(3) / (12.0 * (1.0 - self.nu * self.nu))
    }
    /// Pointwise matrix of $V:\mathcal C_b(M)$ on the components $(xx, xy, yy)$, row-major:
    /// $\frac{12}{Eh^3}\begin{bmatrix}1&0&-\nu\\0&2(1+\nu)&0\\-\nu&0&1\end{bmatrix}$ (the
    /// off-diagonal counted twice).
    pub fn bending_compliance(&self) -> [f64; 9] {
        let a = 12.0 / (self.E * self.h.powi(3));
        let nu = self.nu;
        [
            a,
            0.0,
            -a * nu,
            0.0,
            2.0 * a * (1.0 + nu),
            0.0,
            -a * nu,
            0.0,
            a,
        ]
    }
}

/// The four co-energy fields of the Mindlin plate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlateField {
    /// Vertical velocity $e_w = \dot w$ (block `e_w`).
    Velocity,
    /// Rotation rates $e_\theta = \dot\theta$ (block `e_theta`).
    RotationRate,
    /// Bending moments $E_\kappa = M$ (block `E_kappa`).
    Moments,
    /// Shear forces $e_\gamma = q$ (block `e_gamma`).
    ShearForces,
}

impl PlateField {
    /// All fields in block order.
    pub const ALL: [PlateField; 4] = [
        PlateField::Velocity,
        PlateField::RotationRate,
        PlateField::Moments,
        PlateField::ShearForces,
    ];
    /// Block name.
    pub fn block_name(&self) -> &'static str {
        match self {
            PlateField::Velocity => "e_w",
            PlateField::RotationRate => "e_theta",
            PlateField::Moments => "E_kappa",
            PlateField::ShearForces => "e_gamma",
        }
    }
    fn meaning(&self) -> &'static str {
        match self {
            PlateField::Velocity => "vertical velocity [m/s]",
            PlateField::RotationRate => "rotation rates (x, y) [rad/s]",
            PlateField::Moments => "bending moments (xx, xy, yy) [N m/m]",
            PlateField::ShearForces => "shear forces (x, y) [N/m]",
        }
    }
    fn index(&self) -> usize {
        *self as usize
    }
}

/// Builder of the CGDG Mindlin plate model.
#[derive(Debug, Clone)]
pub struct MindlinCgDg {
    params: MindlinParams,
    mesh: Mesh2d,
    degree: usize,
    clamped: Vec<String>,
    clamped_weak: Vec<String>,
    ports: Vec<String>,
}

impl MindlinCgDg {
    /// CGDG of degree `degree` ($CG_k$ velocities, $DG_{k-1}$ stresses), `1 <= k <= 3`,
    /// all edges free until [`Self::clamped`] is called.
    pub fn new(params: MindlinParams, mesh: &Mesh2d, degree: usize) -> Result<Self, Fem2dError> {
        params.validate()?;
        if !(1..=3).contains(&degree) {
            return Err(FemError::UnsupportedDegree {
                what: "CGDG Mindlin degree k".into(),
                degree,
                supported: "1..=3".into(),
            }
            .into());
        }
        Ok(Self {
            params,
            mesh: mesh.clone(),
            degree,
            clamped: Vec::new(),
            clamped_weak: Vec::new(),
            ports: Vec::new(),
        })
    }

    /// Clamps the boundary edges tagged `tag` (strong: $e_w = e_\theta = 0$).
    pub fn clamped(mut self, tag: &str) -> Self {
        self.clamped.push(tag.to_string());
        self
    }

    /// Makes the edges tagged `tag` a traction port (summary §2.5, free-edge causality):
    /// inputs are the boundary tractions $(q_n, M_{nn}, M_{ns})$ in the $CG_1$ trace basis
    /// $\psi^l$ of the tagged edges' vertices, three ports `"{tag}_qn"`, `"{tag}_Mnn"`,
    /// `"{tag}_Mns"` with $B_w^{il} = \langle\phi_w^i, \psi^l\rangle_\Gamma$,
    /// $B_{\theta n}^{il} = \langle\phi_\theta^i\cdot n, \psi^l\rangle_\Gamma$,
    /// $B_{\theta s}^{il} = \langle\phi_\theta^i\cdot s, \psi^l\rangle_\Gamma$
    /// ($s = (-n_y, n_x)$); the collocated outputs $B^\top e$ are the weighted traces of
    /// $w_t$, $\omega_n$, $\omega_s$, so $\dot H = y^\top u$.
    pub fn port(mut self, tag: &str) -> Self {
        self.ports.push(tag.to_string());
        self
    }

    /// Clamps the boundary edges tagged `tag` weakly, by Lagrange multipliers (the
    /// boundary tractions $q_n, M_{nn}, M_{ns}$ in the $CG_1$ trace space of all weakly
    /// clamped edges; module docs).
    pub fn clamped_weak(mut self, tag: &str) -> Self {
        self.clamped_weak.push(tag.to_string());
        self
    }

    /// Clamps every tag of the mesh (strongly).
    pub fn clamp_all(mut self) -> Self {
        self.clamped = self.mesh.tag_names();
        self
    }

    /// Clamps every tag of the mesh weakly (multipliers).
    pub fn clamp_all_weak(mut self) -> Self {
        self.clamped_weak = self.mesh.tag_names();
        self
    }

    /// Assembles the model.
    pub fn build(&self) -> Result<MindlinModel, Fem2dError> {
        let p = &self.params;
        let k = self.degree;
        let m = &self.mesh;
        let sw = Space2d::new(m, Family2d::Cg(k), Shape::Scalar)?;
        let st = Space2d::new(m, Family2d::Cg(k), Shape::Vector)?;
        let sk = Space2d::new(m, Family2d::Dg(k - 1), Shape::SymTensor)?;
        let sg = Space2d::new(m, Family2d::Dg(k - 1), Shape::Vector)?;
        let sizes = [sw.n_dofs(), st.n_dofs(), sk.n_dofs(), sg.n_dofs()];
        let mut ba = BlockAssembler::new(&sizes);
        let rh = p.rho * p.h;
        ba.mass(0, &assembly2d::mass(&sw, rh)?);
        ba.mass(1, &assembly2d::mass(&st, rh * p.h * p.h / 12.0)?);
        ba.mass(
            2,
            &assembly2d::mass_pointwise(&sk, &p.bending_compliance())?,
        );
        let cs = 1.0 / (p.k_sh * p.shear_modulus() * p.h);
        ba.mass(3, &assembly2d::mass(&sg, cs)?);
        // J_30 = D_grad, J_21 = D_Grad, J_31 = D0 (and the skew counterparts).
        ba.skew(3, 0, &assembly2d::grad(&sg, &sw)?, 1.0);
        ba.skew(2, 1, &assembly2d::sym_grad(&sk, &st)?, 1.0);
        ba.skew(3, 1, &assembly2d::mixed_mass(&sg, &st, -1.0)?, 1.0);
        let n_full = ba.n();
        let E_full = ba.E.build();
        let J_full = ba.J.build();
        // strong clamping: remove e_w and e_theta DOFs on clamped edges
        let tags: Vec<&str> = self.clamped.iter().map(|s| s.as_str()).collect();
        let mut removed = Vec::new();
        if !tags.is_empty() {
            removed.extend(sw.boundary_dofs(&tags)?);
            removed.extend(st.boundary_dofs(&tags)?.into_iter().map(|i| i + sizes[0]));
        }
        removed.sort_unstable();
        let kept = complement(n_full, &removed);
        let E = sparse::restrict(&E_full, &kept, &kept);
        let J = sparse::restrict(&J_full, &kept, &kept);
        let n = kept.len();
        let mut offsets = [0usize; 5];
        for b in 0..4 {
            offsets[b + 1] = offsets[b] + sizes[b];
        }
        let blocks: Vec<VarBlock> = PlateField::ALL
            .iter()
            .map(|f| {
                let r = offsets[f.index()]..offsets[f.index() + 1];
                let len = kept.iter().filter(|i| r.contains(i)).count();
                VarBlock::differential(f.block_name(), f.meaning(), len)
            })
            .collect();
        let mut ports = Vec::new();
        let mut B_full = Vec::new();
        for tag in &self.ports {
            if self.clamped.contains(tag) {
                return Err(FemError::InvalidParameter {
                    name: format!("boundary tag '{tag}'"),
                    value: 0.0,
                    requirement: "a tag is either clamped or a traction port, not both".into(),
                }
                .into());
            }
            let [bw, bn, bs] = traction_input_matrices(&sw, &st, &[tag], n_full, sizes[0])?;
            let nb = bw.ncols();
            for (suffix, meaning_in, meaning_out, b) in [
                (
                    "qn",
                    "shear force q_n [N/m] (CG1 trace)",
                    "weighted trace of w_t",
                    bw,
                ),
                (
                    "Mnn",
                    "bending moment M_nn [N m/m] (CG1 trace)",
                    "weighted trace of omega_n",
                    bn,
                ),
                (
                    "Mns",
                    "twisting moment M_ns [N m/m] (CG1 trace)",
                    "weighted trace of omega_s",
                    bs,
                ),
            ] {
                ports.push(Port::new(
                    format!("{tag}_{suffix}"),
                    nb,
                    meaning_in,
                    meaning_out,
                ));
                B_full.push(b);
            }
        }
        let refs: Vec<&SparseMat> = B_full.iter().collect();
        let n_inputs: usize = refs.iter().map(|b| b.ncols()).sum();
        // weak clamping: multipliers λ = (q_n, M_nn, M_ns) in the CG1 trace space
        let G = if self.clamped_weak.is_empty() {
            None
        } else {
            for tag in &self.clamped_weak {
                if self.clamped.contains(tag) || self.ports.contains(tag) {
                    return Err(FemError::InvalidParameter {
                        name: format!("boundary tag '{tag}'"),
                        value: 0.0,
                        requirement: "a weakly clamped tag cannot also be strongly clamped or a traction port".into(),
                    }
                    .into());
                }
            }
            let tags: Vec<&str> = self.clamped_weak.iter().map(|s| s.as_str()).collect();
            let g = traction_input_matrices(&sw, &st, &tags, n_full, sizes[0])?;
            let Gcat = hcat(&[&g[0], &g[1], &g[2]], n_full);
            let all: Vec<usize> = (0..Gcat.ncols()).collect();
            Some(sparse::restrict(&Gcat, &kept, &all))
        };
        let n_lambda = G.as_ref().map_or(0, |g| g.ncols());
        let n_total = n + n_lambda;
        let (E, J) = match &G {
            None => (E, J),
            Some(g) => {
                let mut te = Triplets::new(n_total, n_total);
                te.push_block(0, 0, &E, 1.0);
                let mut tj = Triplets::new(n_total, n_total);
                tj.push_block(0, 0, &J, 1.0);
                tj.push_block(0, n, g, 1.0);
                tj.push_block_transpose(n, 0, g, -1.0);
                (te.build(), tj.build())
            }
        };
        let mut blocks = blocks;
        if n_lambda > 0 {
            blocks.push(VarBlock::algebraic(
                "lambda_clamped",
                "reactions (q_n, M_nn, M_ns) of the weakly clamped edges, CG1 trace [N/m, N m/m]",
                n_lambda,
                2,
            ));
        }
        let B = if refs.is_empty() {
            sparse::zeros(n_total, 0)
        } else {
            let Bcat = hcat(&refs, n_full);
            let all: Vec<usize> = (0..n_inputs).collect();
            let mut t = Triplets::new(n_total, n_inputs);
            t.push_block(0, 0, &sparse::restrict(&Bcat, &kept, &all), 1.0);
            t.build()
        };
        let system = LinearPhSystem::new(
            E,
            J,
            sparse::zeros(n_total, n_total),
            B,
            PortSet::from_ports(ports)?,
            blocks,
        )?;
        Ok(MindlinModel {
            params: *p,
            degree: k,
            system,
            spaces: [sw, st, sk, sg],
            offsets,
            kept,
            n_lambda,
        })
    }
}

/// Horizontal concatenation of matrices with `n` rows.
fn hcat(blocks: &[&SparseMat], n: usize) -> SparseMat {
    let nc: usize = blocks.iter().map(|b| b.ncols()).sum();
    let mut t = Triplets::new(n, nc);
    let mut c = 0;
    for b in blocks {
        t.push_block(0, c, b, 1.0);
        c += b.ncols();
    }
    t.build()
}

/// $B_w$, $B_{\theta n}$, $B_{\theta s}$ of the edges tagged with any of `tags`, rows in the
/// open state (`e_theta` block at `theta_offset`), columns = the $CG_1$ trace basis on the
/// union of those edges (one per vertex, ordered by global vertex index). Gauss–Legendre on each edge, exact for the
/// degree $k + 1$ integrands.
fn traction_input_matrices(
    sw: &Space2d,
    st: &Space2d,
    tags: &[&str],
    n_full: usize,
    theta_offset: usize,
) -> Result<[SparseMat; 3], Fem2dError> {
    let mesh = sw.mesh();
    let mut edges = Vec::new();
    for tag in tags {
        edges.extend(mesh.tagged_edges(tag)?);
    }
    // an edge carrying several of the tags counts once
    edges.sort_by_key(|b| b.edge);
    edges.dedup_by_key(|b| b.edge);
    let mut verts: Vec<usize> = edges.iter().flat_map(|b| mesh.edges()[b.edge]).collect();
    verts.sort_unstable();
    verts.dedup();
    let col = |v: usize| verts.binary_search(&v).unwrap_or(0);
    let nb = verts.len();
    let gl = GaussLegendre::exact_for_degree(sw.family().degree() + 1)?;
    let el = sw.element();
    let nl = el.n_local();
    let (mut v, mut dx, mut dy) = (vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
    let mut tw = Triplets::new(n_full, nb);
    let mut tn = Triplets::new(n_full, nb);
    let mut ts = Triplets::new(n_full, nb);
    let refv = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
    for b in &edges {
        let tri = mesh.triangles()[b.cell];
        let (la, lb) = ((b.local + 1) % 3, (b.local + 2) % 3);
        let (ca, cb) = (col(tri[la]), col(tri[lb]));
        let len = mesh.edge_length(b.edge);
        let n = mesh.outward_normal(b);
        let s = [-n[1], n[0]];
        let d = sw.cell_dofs(b.cell);
        for (&t, &w) in gl.points.iter().zip(&gl.weights) {
            let xh = [
                refv[la][0] + t * (refv[lb][0] - refv[la][0]),
                refv[la][1] + t * (refv[lb][1] - refv[la][1]),
            ];
            el.eval(xh, &mut v, &mut dx, &mut dy);
            for (psi, c) in [(1.0 - t, ca), (t, cb)] {
                let f = w * len * psi;
                for j in 0..nl {
                    let a = f * v[j];
                    if a == 0.0 {
                        continue;
                    }
                    tw.push(d[j], c, a);
                    for comp in 0..2 {
                        let row = theta_offset + st.global(comp, d[j]);
                        tn.push(row, c, a * n[comp]);
                        ts.push(row, c, a * s[comp]);
                    }
                }
            }
        }
    }
    Ok([tw.build(), tn.build(), ts.build()])
}

/// An assembled CGDG Mindlin plate.
#[derive(Debug, Clone)]
pub struct MindlinModel {
    params: MindlinParams,
    degree: usize,
    system: LinearPhSystem,
    spaces: [Space2d; 4],
    /// Offsets of the blocks in the open (unconstrained) state.
    offsets: [usize; 5],
    /// Open-state index of every retained state variable.
    kept: Vec<usize>,
    /// Number of clamping multipliers (appended after the retained states).
    n_lambda: usize,
}

impl MindlinModel {
    /// The pH system $E\dot e = Je$ (blocks `e_w`, `e_theta`, `E_kappa`, `e_gamma`).
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// Consumes the model, returning its system.
    pub fn into_system(self) -> LinearPhSystem {
        self.system
    }
    /// Material data.
    pub fn params(&self) -> &MindlinParams {
        &self.params
    }
    /// Degree $k$.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// Finite element space of a field.
    pub fn space(&self, f: PlateField) -> &Space2d {
        &self.spaces[f.index()]
    }
    /// Number of state variables (after strong BCs, including the clamping multipliers).
    pub fn n_states(&self) -> usize {
        self.kept.len() + self.n_lambda
    }
    /// Coefficients of field `f` (all DOFs of its space, removed ones zero) from a state.
    pub fn field_coefficients(&self, e: &[f64], f: PlateField) -> Result<Vec<f64>, Fem2dError> {
        if e.len() != self.n_states() {
            return Err(FemError::Length {
                what: "Mindlin state".into(),
                expected: self.n_states(),
                found: e.len(),
            }
            .into());
        }
        let r = self.offsets[f.index()]..self.offsets[f.index() + 1];
        let mut u = vec![0.0; r.len()];
        for (s, &i) in self.kept.iter().enumerate() {
            if r.contains(&i) {
                u[i - r.start] = e[s];
            }
        }
        Ok(u)
    }
    /// State vector from the coefficient vectors of the four fields (DOFs removed by the
    /// strong BCs are dropped).
    pub fn state_from_fields(&self, fields: [&[f64]; 4]) -> Result<Vec<f64>, Fem2dError> {
        for (k, f) in PlateField::ALL.iter().enumerate() {
            let len = self.offsets[k + 1] - self.offsets[k];
            if fields[k].len() != len {
                return Err(FemError::Length {
                    what: format!("{} coefficients", f.block_name()),
                    expected: len,
                    found: fields[k].len(),
                }
                .into());
            }
        }
        let mut x: Vec<f64> = self
            .kept
            .iter()
            .map(|&i| {
                let b = (0..4).rfind(|&b| self.offsets[b] <= i).unwrap_or(0);
                fields[b][i - self.offsets[b]]
            })
            .collect();
        // multipliers (reactions) start at zero
        x.resize(self.n_states(), 0.0);
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh2d::Diagonal;

    fn params() -> MindlinParams {
        MindlinParams {
            E: 1e12,
            nu: 0.3,
            rho: 2600.0,
            h: 0.1,
            k_sh: 5.0 / 6.0,
        }
    }

    /// C_b is the inverse of D_b: C_b(D_b κ) = κ for κ = [[1, 2], [2, −3]] (components).
    #[test]
    fn compliance_inverts_stiffness() {
        let p = params();
        let D = p.bending_stiffness();
        let (k0, k1, k2) = (1.0, 2.0, -3.0);
        let tr = k0 + k2;
        // M = D[(1−ν)κ + ν tr κ I]
        let m = [
            D * ((1.0 - p.nu) * k0 + p.nu * tr),
            D * (1.0 - p.nu) * k1,
            D * ((1.0 - p.nu) * k2 + p.nu * tr),
        ];
        let Q = p.bending_compliance();
        // the weighted form V:C(M) = Σ Q_ab v_a m_b; with V = unit components (weights 1,2,1)
        let c = [
            Q[0] * m[0] + Q[2] * m[2],
            Q[4] * m[1] / 2.0,
            Q[6] * m[0] + Q[8] * m[2],
        ];
        for (a, b) in c.iter().zip([k0, k1, k2]) {
            assert!((a - b).abs() < 1e-12 * b.abs().max(1.0), "{a} vs {b}");
        }
    }

    #[test]
    fn structure_and_sizes() {
        let mesh = Mesh2d::unit_square(3, Diagonal::Right).unwrap();
        for k in 1..=3 {
            let m = MindlinCgDg::new(params(), &mesh, k)
                .unwrap()
                .clamp_all()
                .build()
                .unwrap();
            m.system().check(&Default::default()).unwrap();
            let sw = m.space(PlateField::Velocity);
            let nb = sw
                .boundary_dofs(&["left", "right", "top", "bottom"])
                .unwrap()
                .len();
            assert_eq!(
                m.system().block_range("e_w").unwrap().len(),
                sw.n_dofs() - nb
            );
            assert_eq!(
                m.system().block_range("e_theta").unwrap().len(),
                2 * (sw.n_dofs() - nb)
            );
            let nk = 3 * 18 * k * (k + 1) / 2;
            assert_eq!(m.system().block_range("E_kappa").unwrap().len(), nk);
        }
        assert!(MindlinCgDg::new(params(), &mesh, 4).is_err());
        let bad = MindlinParams {
            nu: 0.5,
            ..params()
        };
        assert!(MindlinCgDg::new(bad, &mesh, 1).is_err());
        let err = MindlinCgDg::new(params(), &mesh, 1)
            .unwrap()
            .clamped("clamped_edge")
            .build()
            .unwrap_err();
        assert!(matches!(err, Fem2dError::UnknownTag { .. }), "{err}");
    }

    /// Traction ports: with e_w = f, e_θ = (a, b) interpolated (exactly, degree ≤ k) and a
    /// unit traction (all trace coefficients 1 ⇒ ψ-sum = 1 on the edge), the port power
    /// yᵀu equals ∫_Γ f ds, ∫_Γ θ·n ds, ∫_Γ θ·s ds (closed forms below); and the power
    /// balance eᵀ E ė = yᵀ u holds for ė solving E ė = J e + B u (J skew).
    #[test]
    fn traction_ports_trace_and_power() {
        let mesh = Mesh2d::unit_square(4, Diagonal::Left).unwrap();
        let m = MindlinCgDg::new(params(), &mesh, 2)
            .unwrap()
            .clamped("left")
            .port("right")
            .port("top")
            .build()
            .unwrap();
        let sys = m.system();
        sys.check(&Default::default()).unwrap();
        assert_eq!(sys.ports.names().len(), 6);
        let w = m
            .space(PlateField::Velocity)
            .interpolate(&|x, o| o[0] = x[0] * x[1] + x[0] * x[0]);
        let th = m.space(PlateField::RotationRate).interpolate(&|x, o| {
            o[0] = x[0] * x[0];
            o[1] = 2.0 * x[0] * x[1] - x[0];
        });
        let zk = vec![0.0; m.space(PlateField::Moments).n_dofs()];
        let zg = vec![0.0; m.space(PlateField::ShearForces).n_dofs()];
        // all fields vanish on the clamped left edge x = 0 (whose DOFs are removed)
        let e = m.state_from_fields([&w, &th, &zk, &zg]).unwrap();
        let port_power = |name: &str| -> f64 {
            let y = sys.port_output(name, &e).unwrap();
            y.iter().sum()
        };
        // right edge x = 1, n = (1, 0), s = (0, 1): ∫ (y + 1) = 3/2; ∫ θx = 1;
        // ∫ θy = ∫ (2y − 1) = 0
        assert!((port_power("right_qn") - 1.5).abs() < 1e-12);
        assert!((port_power("right_Mnn") - 1.0).abs() < 1e-12);
        assert!(port_power("right_Mns").abs() < 1e-12);
        // top edge y = 1, n = (0, 1), s = (−1, 0): ∫ (x + x²) = 5/6; ∫ θy = ∫ x = 1/2;
        // ∫ −θx = −1/3
        assert!((port_power("top_qn") - 5.0 / 6.0).abs() < 1e-12);
        assert!((port_power("top_Mnn") - 0.5).abs() < 1e-12);
        assert!((port_power("top_Mns") + 1.0 / 3.0).abs() < 1e-12);
        // power balance: eᵀ(J e + B u) = yᵀ u for an arbitrary state and input
        let n = sys.n_states();
        let e: Vec<f64> = (0..n)
            .map(|i| ((i * 7919) % 113) as f64 / 113.0 - 0.5)
            .collect();
        let u: Vec<f64> = (0..sys.n_inputs())
            .map(|i| (i as f64 * 0.37).sin())
            .collect();
        let mut rhs = vec![0.0; n];
        sys.rhs(&e, &u, &mut rhs);
        let p_int: f64 = e.iter().zip(&rhs).map(|(a, b)| a * b).sum();
        let y = sys.output(&e);
        let p_port: f64 = y.iter().zip(&u).map(|(a, b)| a * b).sum();
        assert!(
            (p_int - p_port).abs() < 1e-9 * p_port.abs().max(1.0),
            "{p_int} vs {p_port}"
        );
        let err = MindlinCgDg::new(params(), &mesh, 1)
            .unwrap()
            .clamped("top")
            .port("top")
            .build()
            .unwrap_err();
        assert!(err.to_string().contains("top"));
    }
}
