//! Assembly of 2D PFEM matrices (thesis 004 §6.1.4, summary §3.1–3.2): weighted mass
//! matrices $M^{ij} = \langle\phi^i, \mathcal M\phi^j\rangle$ and the rectangular coupling
//! matrices $D_{\mathrm{grad}}^{ri} = \langle\phi_\gamma^r, \operatorname{grad}\phi_w^i\rangle$,
//! $D_{\mathrm{Grad}}^{pn} = \langle\Phi_\kappa^p, \operatorname{Grad}\phi_\theta^n\rangle$
//! ($\operatorname{Grad} = \operatorname{sym}\nabla$) and $D_0$ (algebraic couplings).
//!
//! Everything is built from a generic bilinear form $\sum_{\text{terms}} c\int
//! \mathcal O_a(\phi^i_{c_a})\,\mathcal O_b(\psi^j_{c_b})$ with $\mathcal O \in \{\text{value},
//! \partial_x, \partial_y\}$ acting on components of the test and trial spaces
//! ([`Term`], [`bilinear`]). Element integrals use [`TriangleQuadrature`] exact for the
//! product of the two polynomial integrands (affine cells, constant coefficients), so
//! the matrices are exact up to round-off.
//!
//! The element loops run in parallel over fixed chunks of [`CELL_CHUNK`] cells (rayon):
//! each chunk yields its own triplet list, merged in chunk order, so the assembled
//! matrices and vectors are bitwise independent of the number of threads.
use crate::error::Fem2dError;
use crate::mesh::triangle::{BoundaryEdge, CellGeometry, Mesh2d};
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::triangle::TriangleQuadrature;
use crate::space::triangle::{Shape, Space2d};
use crate::FemError;
use faer::sparse::Triplet;
use phlex_core::SparseMat;
use rayon::prelude::*;

/// A pointwise operator applied to a scalar component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// The value.
    Value,
    /// $\partial_x$.
    Dx,
    /// $\partial_y$.
    Dy,
}

/// One term $c\,\mathcal O_{\text{test}}(\phi_{c_t})\,\mathcal O_{\text{trial}}(\psi_{c_r})$
/// of a bilinear form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Term {
    /// Component of the test function.
    pub test_comp: usize,
    /// Operator on the test function.
    pub test_op: Op,
    /// Component of the trial function.
    pub trial_comp: usize,
    /// Operator on the trial function.
    pub trial_op: Op,
    /// Constant coefficient.
    pub coeff: f64,
}

impl Term {
    /// Shorthand constructor.
    pub const fn new(
        test_comp: usize,
        test_op: Op,
        trial_comp: usize,
        trial_op: Op,
        coeff: f64,
    ) -> Self {
        Self {
            test_comp,
            test_op,
            trial_comp,
            trial_op,
            coeff,
        }
    }
}

/// Basis values and reference gradients of a space at the points of a rule.
struct Tab {
    n: usize,
    val: Vec<f64>,
    dxi: Vec<f64>,
    deta: Vec<f64>,
}

impl Tab {
    fn new(s: &Space2d, q: &TriangleQuadrature) -> Self {
        let n = s.n_local();
        let np = q.len();
        let (mut val, mut dxi, mut deta) =
            (vec![0.0; n * np], vec![0.0; n * np], vec![0.0; n * np]);
        for (p, x) in q.points.iter().enumerate() {
            let r = p * n..(p + 1) * n;
            s.element()
                .eval(*x, &mut val[r.clone()], &mut dxi[r.clone()], &mut deta[r]);
        }
        Self { n, val, dxi, deta }
    }
    /// Physical `op` of the local basis at point `p` into `out`.
    #[inline]
    fn apply(&self, g: &CellGeometry, p: usize, op: Op, out: &mut [f64]) {
        let r = p * self.n..(p + 1) * self.n;
        match op {
            Op::Value => out.copy_from_slice(&self.val[r]),
            Op::Dx | Op::Dy => {
                let row = if op == Op::Dx { 0 } else { 1 };
                let (a, b) = (g.inv_jac_t[row][0], g.inv_jac_t[row][1]);
                for ((o, x), y) in out.iter_mut().zip(&self.dxi[r.clone()]).zip(&self.deta[r]) {
                    *o = a * x + b * y;
                }
            }
        }
    }
}

fn check_terms(test: &Space2d, trial: &Space2d, terms: &[Term]) -> Result<(), Fem2dError> {
    super::forms::require_same_mesh(test.mesh(), trial.mesh(), || {
        (test.describe(), trial.describe())
    })?;
    for (k, t) in terms.iter().enumerate() {
        if t.test_comp >= test.n_comp() || t.trial_comp >= trial.n_comp() {
            return Err(FemError::InvalidParameter {
                name: format!("terms[{k}] components ({}, {})", t.test_comp, t.trial_comp),
                value: t.test_comp.max(t.trial_comp) as f64,
                requirement: format!(
                    "test component < {} ({}) and trial component < {} ({})",
                    test.n_comp(),
                    test.describe(),
                    trial.n_comp(),
                    trial.describe()
                ),
            }
            .into());
        }
    }
    Ok(())
}

/// $A^{ij} = \sum_{\text{terms}} c \int_\Omega \mathcal O_t(\phi^i)\,\mathcal O_r(\psi^j)$,
/// rows = DOFs of `test`, columns = DOFs of `trial` (both on the same mesh).
///
/// Entries below $64\varepsilon$ times the largest entry of their element block are
/// round-off of exact zeros and are dropped (as in the 1D assembly).
pub fn bilinear(test: &Space2d, trial: &Space2d, terms: &[Term]) -> Result<SparseMat, Fem2dError> {
    check_terms(test, trial, terms)?;
    let deg = super::forms::bilinear_degree(
        test.family().degree(),
        trial.family().degree(),
        terms
            .iter()
            .map(|t| (t.test_op == Op::Value, t.trial_op == Op::Value)),
    );
    let q = TriangleQuadrature::exact_for_degree(deg)?;
    let (tt, tr) = (Tab::new(test, &q), Tab::new(trial, &q));
    let (nt, nr) = (test.n_local(), trial.n_local());
    let mesh = test.mesh();
    // Each chunk of cells yields its own triplet list (scratch buffers per chunk, no
    // allocation per cell); the lists are concatenated in chunk order.
    let chunks = par_cell_chunks(mesh.n_cells(), |cells| {
        let mut out = Vec::with_capacity(cells.len() * terms.len() * nt * nr);
        let mut a = vec![0.0; nt];
        let mut b = vec![0.0; nr];
        let mut local = vec![0.0; terms.len() * nt * nr];
        for t in cells {
            let g = CellGeometry::new(mesh, t);
            local.iter_mut().for_each(|v| *v = 0.0);
            for (p, &w) in q.weights.iter().enumerate() {
                let wd = w * g.det;
                for (k, term) in terms.iter().enumerate() {
                    tt.apply(&g, p, term.test_op, &mut a);
                    tr.apply(&g, p, term.trial_op, &mut b);
                    let blk = &mut local[k * nt * nr..(k + 1) * nt * nr];
                    add_scaled_outer(blk, wd * term.coeff, &a, &b);
                }
            }
            let (dt_, dr) = (test.cell_dofs(t), trial.cell_dofs(t));
            for (k, term) in terms.iter().enumerate() {
                let blk = &local[k * nt * nr..(k + 1) * nt * nr];
                visit_significant(blk, nr, &mut |i, j, v| {
                    out.push(Triplet::new(
                        test.global(term.test_comp, dt_[i]),
                        trial.global(term.trial_comp, dr[j]),
                        v,
                    ))
                });
            }
        }
        out
    });
    Ok(from_chunks(test.n_dofs(), trial.n_dofs(), chunks))
}

/// Number of cells per work item of the parallel element loops. Fixed (independent of
/// the number of threads), so the chunk boundaries, and hence every floating-point sum,
/// are the same for any thread count.
pub const CELL_CHUNK: usize = 512;

/// Runs `f` on consecutive chunks of [`CELL_CHUNK`] cells in parallel (rayon) and returns
/// the results in chunk order. The result does not depend on the number of threads.
pub fn par_cell_chunks<T, F>(n_cells: usize, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(std::ops::Range<usize>) -> T + Sync + Send,
{
    let n_chunks = n_cells.div_ceil(CELL_CHUNK);
    (0..n_chunks)
        .into_par_iter()
        .map(|c| f(c * CELL_CHUNK..((c + 1) * CELL_CHUNK).min(n_cells)))
        .collect()
}

/// CSC matrix from per-chunk triplet lists, concatenated in chunk order (duplicates summed;
/// the same input order as a serial loop over the cells, so the same matrix).
fn from_chunks(
    nrows: usize,
    ncols: usize,
    chunks: Vec<Vec<Triplet<usize, usize, f64>>>,
) -> SparseMat {
    let total = chunks.iter().map(|c| c.len()).sum();
    let mut all = Vec::with_capacity(total);
    for c in chunks {
        all.extend(c);
    }
    SparseMat::try_new_from_triplets(nrows, ncols, &all)
        .expect("element DOFs are in bounds by construction")
}

/// Mass matrix with a pointwise symmetric component matrix `Q` (`n_comp × n_comp`,
/// row-major): $\int \sum_{ab} Q_{ab}\,\phi_a\psi_b$.
pub fn mass_pointwise(space: &Space2d, Q: &[f64]) -> Result<SparseMat, Fem2dError> {
    let n = space.n_comp();
    if Q.len() != n * n {
        return Err(FemError::Length {
            what: format!("pointwise matrix of {}", space.describe()),
            expected: n * n,
            found: Q.len(),
        }
        .into());
    }
    let mut terms = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if Q[a * n + b] != 0.0 {
                terms.push(Term::new(a, Op::Value, b, Op::Value, Q[a * n + b]));
            }
        }
    }
    bilinear(space, space, &terms)
}

/// Mass matrix $c\int \phi : \psi$ with the Euclidean / Frobenius product of the shape
/// (off-diagonal tensor component counted twice).
pub fn mass(space: &Space2d, c: f64) -> Result<SparseMat, Fem2dError> {
    bilinear(space, space, &frobenius_terms(space.shape(), c))
}

/// The terms of $c\,\phi : \psi$ for values of `shape` (Frobenius weights: off-diagonal
/// tensor component counted twice).
fn frobenius_terms(shape: Shape, c: f64) -> Vec<Term> {
    shape
        .frobenius_weights()
        .iter()
        .enumerate()
        .map(|(a, w)| Term::new(a, Op::Value, a, Op::Value, c * w))
        .collect()
}

/// $c\int \phi\cdot\psi$ between two vector (or two scalar) spaces, e.g.
/// $D_0^{rn} = -\langle\phi_\gamma^r, \phi_\theta^n\rangle$ with `c = -1`.
pub fn mixed_mass(test: &Space2d, trial: &Space2d, c: f64) -> Result<SparseMat, Fem2dError> {
    if test.shape() != trial.shape() {
        return Err(FemError::InvalidParameter {
            name: format!("shapes of {} and {}", test.describe(), trial.describe()),
            value: 0.0,
            requirement: "equal value shapes".into(),
        }
        .into());
    }
    bilinear(test, trial, &frobenius_terms(test.shape(), c))
}

fn require_shape(s: &Space2d, shape: Shape, role: &str) -> Result<(), Fem2dError> {
    if s.shape() == shape {
        Ok(())
    } else {
        Err(FemError::InvalidParameter {
            name: format!("{role} space {}", s.describe()),
            value: s.n_comp() as f64,
            requirement: format!("{role} must be {shape:?}-valued"),
        }
        .into())
    }
}

/// $D_{\mathrm{grad}}^{ri} = \int \phi^r\cdot\operatorname{grad}\psi^i$: vector test space,
/// scalar trial space.
pub fn grad(test: &Space2d, trial: &Space2d) -> Result<SparseMat, Fem2dError> {
    require_shape(test, Shape::Vector, "test")?;
    require_shape(trial, Shape::Scalar, "trial")?;
    bilinear(test, trial, &GRAD_TERMS[..2])
}

/// Terms of [`sym_grad`] ($\Phi:\operatorname{Grad}\psi$); the first two are those of
/// [`grad`] ($\phi\cdot\nabla\psi$ with the test components 0, 1 and trial component 0).
const GRAD_TERMS: [Term; 4] = [
    Term::new(0, Op::Value, 0, Op::Dx, 1.0),
    Term::new(1, Op::Value, 0, Op::Dy, 1.0),
    Term::new(1, Op::Value, 1, Op::Dx, 1.0),
    Term::new(2, Op::Value, 1, Op::Dy, 1.0),
];

/// $D_{\mathrm{Grad}}^{pn} = \int \Phi^p : \operatorname{Grad}\psi^n$ with
/// $\operatorname{Grad}\psi = \tfrac12(\nabla\psi + \nabla\psi^\top)$: symmetric-tensor test
/// space, vector trial space. With $\Phi = [[\phi_0, \phi_1], [\phi_1, \phi_2]]$:
/// $\Phi:\operatorname{Grad}\psi = \phi_0\partial_x\psi_x + \phi_1(\partial_y\psi_x +
/// \partial_x\psi_y) + \phi_2\partial_y\psi_y$.
pub fn sym_grad(test: &Space2d, trial: &Space2d) -> Result<SparseMat, Fem2dError> {
    require_shape(test, Shape::SymTensor, "test")?;
    require_shape(trial, Shape::Vector, "trial")?;
    bilinear(test, trial, &GRAD_TERMS)
}

/// Vector $\int \phi^i f$ for a vector/tensor/scalar field `f` (writes `n_comp` values),
/// integrated with a rule of degree `2k + extra_degree`.
pub fn load(
    space: &Space2d,
    f: &(dyn Fn([f64; 2], &mut [f64]) + Sync),
    extra_degree: usize,
) -> Result<Vec<f64>, Fem2dError> {
    let q = TriangleQuadrature::exact_for_degree(space.family().degree() + extra_degree)?;
    let tab = Tab::new(space, &q);
    let nl = space.n_local();
    let nc = space.n_comp();
    let mesh = space.mesh();
    // per chunk: (global DOF, contribution) in the order of the serial loop; the scatter
    // below adds them in that order, so the vector is independent of the thread count
    let chunks = par_cell_chunks(mesh.n_cells(), |cells| {
        let mut out: Vec<(usize, f64)> = Vec::with_capacity(cells.len() * q.len() * nl * nc);
        let mut fv = vec![0.0; nc];
        for t in cells {
            let g = CellGeometry::new(mesh, t);
            let d = space.cell_dofs(t);
            for (p, &w) in q.weights.iter().enumerate() {
                f(g.map(q.points[p]), &mut fv);
                let wd = w * g.det;
                for (j, &dj) in d.iter().enumerate() {
                    let phi = tab.val[p * nl + j] * wd;
                    for (c, v) in fv.iter().enumerate() {
                        out.push((space.global(c, dj), phi * v));
                    }
                }
            }
        }
        out
    });
    let mut out = vec![0.0; space.n_dofs()];
    for c in chunks {
        for (i, v) in c {
            out[i] += v;
        }
    }
    Ok(out)
}

/// Adds $c\,a b^\top$ to the row-major element block `blk` (`a.len()` × `b.len()`): one
/// quadrature point of one term of a bilinear form.
#[inline]
pub(crate) fn add_scaled_outer(blk: &mut [f64], c: f64, a: &[f64], b: &[f64]) {
    let nr = b.len();
    for (i, &ai) in a.iter().enumerate() {
        let ca = c * ai;
        for (j, &bj) in b.iter().enumerate() {
            blk[i * nr + j] += ca * bj;
        }
    }
}

/// Visits the entries `(i, j, v)` of the row-major element block `blk` (`nr` columns) whose
/// magnitude exceeds $64\varepsilon$ times the largest of the block (the round-off of exact
/// zeros is dropped).
pub(crate) fn visit_significant(blk: &[f64], nr: usize, push: &mut dyn FnMut(usize, usize, f64)) {
    let big = blk.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let tol = 64.0 * f64::EPSILON * big;
    for (idx, &v) in blk.iter().enumerate() {
        if v.abs() > tol {
            push(idx / nr, idx % nr, v);
        }
    }
}

/// The vertices of the boundary edges `edges`, sorted and deduplicated: the nodes of their
/// $P_1$ ($CG_1$) trace basis $\psi^l$ (column `l` = position in this list).
pub fn edge_vertices(mesh: &Mesh2d, edges: &[BoundaryEdge]) -> Vec<usize> {
    let mut verts: Vec<usize> = edges.iter().flat_map(|b| mesh.edges()[b.edge]).collect();
    verts.sort_unstable();
    verts.dedup();
    verts
}

/// The visitor of [`edge_trace_integrals`]: `(edge, cell DOFs, local function, column,
/// integral)`.
pub type EdgeTraceVisitor<'a> = dyn FnMut(&BoundaryEdge, &[usize], usize, usize, f64) + 'a;

/// Visits the edge integrals $a = \int_e \phi_j\,\psi^l\,ds$ of the scalar basis of
/// `space` against the $P_1$ trace basis of the vertices `verts` ([`edge_vertices`]) on the
/// boundary edges `edges` (thesis 004 (9.33), the $B$ of the boundary ports): for every edge
/// `b`, the scalar DOFs `d` of its cell, local function `j`, column `l` and nonzero `a`,
/// `visit(b, d, j, l, a)`. Gauss–Legendre on each edge, exact for the degree $k + 1$
/// integrands.
pub fn edge_trace_integrals(
    space: &Space2d,
    edges: &[BoundaryEdge],
    verts: &[usize],
    visit: &mut EdgeTraceVisitor,
) -> Result<(), Fem2dError> {
    let mesh = space.mesh();
    let col = |v: usize| verts.binary_search(&v).unwrap_or(0);
    let gl = GaussLegendre::exact_for_degree(space.family().degree() + 1)?;
    let el = space.element();
    let nl = el.n_local();
    let (mut v, mut dx, mut dy) = (vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
    let refv = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
    for b in edges {
        let tri = mesh.triangles()[b.cell];
        let (la, lb) = ((b.local + 1) % 3, (b.local + 2) % 3);
        let (ca, cb) = (col(tri[la]), col(tri[lb]));
        let len = mesh.edge_length(b.edge);
        let d = space.cell_dofs(b.cell);
        for (&t, &w) in gl.points.iter().zip(&gl.weights) {
            let xh = [
                refv[la][0] + t * (refv[lb][0] - refv[la][0]),
                refv[la][1] + t * (refv[lb][1] - refv[la][1]),
            ];
            el.eval(xh, &mut v, &mut dx, &mut dy);
            for (psi, c) in [(1.0 - t, ca), (t, cb)] {
                let f = w * len * psi;
                for (j, vj) in v.iter().enumerate() {
                    let a = f * vj;
                    if a != 0.0 {
                        visit(b, d, j, c, a);
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::triangle::{Diagonal, Mesh2d};
    use crate::space::triangle::Family2d;
    use phlex_core::sparse;

    /// 1ᵀ M 1 = area (× Frobenius weight sum); uᵀ D_grad v = ∫ u·grad v exactly for
    /// polynomial interpolants.
    #[test]
    fn mass_and_gradient_identities() {
        let m = Mesh2d::rectangle(0.0, 2.0, 0.0, 1.0, 3, 2, Diagonal::Left).unwrap();
        for k in 1..=3 {
            let s = Space2d::new(&m, Family2d::Cg(k), Shape::Scalar).unwrap();
            let M = mass(&s, 3.0).unwrap();
            let one = vec![1.0; s.n_dofs()];
            assert!((sparse::bilinear(&one, &M, &one) - 6.0).abs() < 1e-12);
            let t = Space2d::new(&m, Family2d::Dg(k - 1), Shape::SymTensor).unwrap();
            let Mt = mass(&t, 1.0).unwrap();
            let id = t.interpolate(&|_, o| {
                o[0] = 1.0;
                o[1] = 1.0;
                o[2] = 1.0;
            });
            // [[1,1],[1,1]] : [[1,1],[1,1]] = 4, area 2
            assert!((sparse::bilinear(&id, &Mt, &id) - 8.0).abs() < 1e-12);
            // ∫ v · grad w with v = (x, 1), w = x y  ⇒ ∫ (x y + x) over [0,2]×[0,1] = 1 + 2 = 3
            let vs = Space2d::new(&m, Family2d::Dg(k - 1).max_cg_pair(), Shape::Vector).unwrap();
            let s2 = Space2d::new(&m, Family2d::Cg(k.max(2)), Shape::Scalar).unwrap();
            let D = grad(&vs, &s2).unwrap();
            let v = vs.interpolate(&|x, o| {
                o[0] = x[0];
                o[1] = 1.0;
            });
            let w = s2.interpolate(&|x, o| o[0] = x[0] * x[1]);
            assert!((sparse::bilinear(&v, &D, &w) - 3.0).abs() < 1e-12, "k={k}");
            // sym grad: Φ = [[1, 1], [1, 0]], θ = (x², x y): Φ:Grad θ = 2x + (0 + y) = 2x + y
            // ∫ = 4 + 1 = 5
            let th = Space2d::new(&m, Family2d::Cg(k.max(2)), Shape::Vector).unwrap();
            let Dg = sym_grad(&t, &th).unwrap();
            let phi = t.interpolate(&|_, o| {
                o[0] = 1.0;
                o[1] = 1.0;
                o[2] = 0.0;
            });
            let tv = th.interpolate(&|x, o| {
                o[0] = x[0] * x[0];
                o[1] = x[0] * x[1];
            });
            assert!(
                (sparse::bilinear(&phi, &Dg, &tv) - 5.0).abs() < 1e-12,
                "k={k}"
            );
        }
        let s = Space2d::new(&m, Family2d::Cg(1), Shape::Scalar).unwrap();
        assert!(grad(&s, &s).is_err());
        assert!(mass_pointwise(&s, &[1.0, 2.0]).is_err());
        let other = Mesh2d::unit_square(2, Diagonal::Right).unwrap();
        let s2 = Space2d::new(&other, Family2d::Cg(1), Shape::Scalar).unwrap();
        assert!(matches!(
            bilinear(&s, &s2, &[]),
            Err(Fem2dError::Fem(FemError::MeshMismatch { .. }))
        ));
    }

    /// Parallel assembly is deterministic: on a mesh of several chunks, 1 thread and 4
    /// threads give bitwise identical matrices (pattern and values) and load vectors.
    #[test]
    fn assembly_independent_of_thread_count() {
        let m = Mesh2d::unit_square(40, Diagonal::Right).unwrap();
        assert!(m.n_cells() > 4 * CELL_CHUNK);
        let s = Space2d::new(&m, Family2d::Cg(2), Shape::Vector).unwrap();
        let t = Space2d::new(&m, Family2d::Dg(1), Shape::SymTensor).unwrap();
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| {
                    let D = sym_grad(&t, &s).unwrap();
                    let M = mass(&s, 1.7).unwrap();
                    let f = load(
                        &s,
                        &|x, o| {
                            o[0] = (3.0 * x[0]).sin() * x[1];
                            o[1] = x[0] * x[0] - x[1];
                        },
                        4,
                    )
                    .unwrap();
                    (D, M, f)
                })
        };
        let (a, b) = (run(1), run(4));
        for (x, y) in [(&a.0, &b.0), (&a.1, &b.1)] {
            assert_eq!(x.col_ptr(), y.col_ptr());
            assert_eq!(x.row_idx(), y.row_idx());
            let (vx, vy) = (x.val(), y.val());
            assert!(vx.iter().zip(vy).all(|(p, q)| p.to_bits() == q.to_bits()));
        }
        assert!(a
            .2
            .iter()
            .zip(&b.2)
            .all(|(p, q)| p.to_bits() == q.to_bits()));
    }

    trait PairDegree {
        fn max_cg_pair(self) -> Family2d;
    }
    impl PairDegree for Family2d {
        /// DG_{k} with k ≥ 1 so that v = (x, 1) is represented exactly.
        fn max_cg_pair(self) -> Family2d {
            Family2d::Dg(self.degree().max(1))
        }
    }
}
