//! $H(\mathrm{div})$-conforming triangle elements of arbitrary order: Brezzi–Douglas–Marini
//! $BDM_k$ and Raviart–Thomas $RT_k$ (UFL numbering: $RT_1$ and $BDM_1$ are the lowest
//! order), $k = 1, 2, 3$, with the contravariant Piola map (thesis 004 §7.2.1, spaces
//! (7.11) and (7.14); summary §3.3 "AFW" and "BJT"; Brezzi, Douglas, Marini, Numer. Math.
//! 47 (1985); Raviart–Thomas 1977).
//!
//! # Spaces
//! * $BDM_k = (P_k)^2$, dimension $(k+1)(k+2)$, $\operatorname{div}BDM_k = P_{k-1}$;
//! * $RT_k = (P_{k-1})^2 + \mathbf x\,\tilde P_{k-1}$ ($\tilde P$: homogeneous), dimension
//!   $k(k+2)$, $\operatorname{div}RT_k = P_{k-1}$.
//!
//! # Degrees of freedom (reference triangle $\hat T$, vertices $(0,0), (1,0), (0,1)$)
//! * **edge moments**: on local edge $i$ (opposite vertex $i$, from vertex $i+1$ to $i+2$,
//!   parameter $s\in \[0, 1\]$, $\hat N_i$ = its tangent rotated by $-90°$, of length $|e_i|$)
//!   $$\ell_{ij}(\mathbf u) = \int_0^1 \mathbf u(\hat x(s))\cdot\hat N_i\,L_j(s)\,ds
//!   = \int_{e_i}\mathbf u\cdot\mathbf n\,L_j\,d\sigma,$$
//!   $L_j(s) = P_j(2s-1)$ Legendre, $j < q$ with $q = k+1$ ($BDM_k$) or $q = k$ ($RT_k$);
//! * **interior moments** ($k\ge2$): $BDM_k$: $\int_{\hat T}\mathbf u\cdot\hat\nabla p$,
//!   $p\in P_{k-1}/\mathbb R$ (monomials), and $\int_{\hat T}\mathbf u\cdot
//!   \operatorname{curl}(\lambda_0\lambda_1\lambda_2\,p)$, $p\in P_{k-2}$ (together: the
//!   Nédélec space $N_{k-1}$, the classical BDM moments); $RT_k$: $\int_{\hat T}\mathbf
//!   u\cdot\mathbf e_c\,p$, $p\in P_{k-2}$, $c = 1, 2$.
//!
//! The reference basis is the dual basis of these functionals (inverse of the
//! functional/monomial matrix). Physical basis functions are obtained by the contravariant
//! Piola map $\boldsymbol\phi = \frac1{\det J}J\hat{\boldsymbol\phi}\circ F^{-1}$, which
//! preserves normal moments: $\boldsymbol\phi\cdot\tilde N\,ds = \hat{\boldsymbol\phi}\cdot\hat N\,d\hat s$
//! (since $\operatorname{rot}_{-90°}(Jv) = \det J\,J^{-\top}\operatorname{rot}_{-90°}v$), and
//! $\operatorname{div}\boldsymbol\phi = \widehat{\operatorname{div}}\hat{\boldsymbol\phi}/\det J$.
//!
//! # Global orientation
//! The global edge DOF $j$ of edge $e = (v_a, v_b)$, $v_a < v_b$ (global vertex indices,
//! [`crate::mesh::triangle`]) is $\int_e\mathbf u\cdot\mathbf n_e\,L_j(s_e)\,d\sigma$ with
//! $\mathbf n_e$ the tangent $v_b - v_a$ rotated by $-90°$ (as in [`crate::element::triangle::rt`])
//! and $s_e$ running from $v_a$ to $v_b$. A cell whose local edge runs against this
//! orientation sees $\mathbf n_e = -\mathbf n$ and $s_e = 1 - s$, hence
//! $L_j(s_e) = (-1)^jL_j(s)$ and global DOF $= (-1)^{j+1}\times$ local DOF; the local basis
//! function is multiplied by the same sign ([`HdivSpace::cell_signs`]). Both cells sharing an
//! edge thus have the same normal-moment DOFs and, since the normal trace on an edge is
//! determined by its moments, the normal component is continuous.
//!
//! Tensor fields with rows in an $H(\mathrm{div})$ space (thesis (7.14), $\mathbf E_\kappa$
//! rows in $BDM_k$) use one copy of the space per row ([`crate::models::plate::mindlin_afw`]).
use super::monomial::monomial_grad;
use crate::element::dual::invert;
use crate::error::Fem2dError;
use crate::error::FemError;
use crate::mesh::triangle::CellGeometry;
use crate::mesh::triangle::Mesh2d;
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::polynomial::shifted_legendre;
use crate::quadrature::triangle::TriangleQuadrature;

/// The $H(\mathrm{div})$ family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HdivFamily {
    /// Brezzi–Douglas–Marini $BDM_k = (P_k)^2$.
    Bdm,
    /// Raviart–Thomas $RT_k$ (UFL degree $k$; $RT_1$ is the lowest order).
    Rt,
}

impl HdivFamily {
    /// Short name, e.g. `"BDM"`.
    pub fn name(&self) -> &'static str {
        match self {
            HdivFamily::Bdm => "BDM",
            HdivFamily::Rt => "RT",
        }
    }
}

/// A monomial vector field $\mathbf e_c\,x^a y^b$ (coefficient 1).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Mono {
    comp: usize,
    a: i32,
    b: i32,
}

#[inline]
fn pw(x: f64, e: i32) -> f64 {
    if e <= 0 {
        1.0
    } else {
        x.powi(e)
    }
}

impl Mono {
    #[inline]
    fn value(&self, x: [f64; 2]) -> f64 {
        pw(x[0], self.a) * pw(x[1], self.b)
    }
    /// Divergence: $\partial_{x_c}$ of the monomial.
    #[inline]
    fn div(&self, x: [f64; 2]) -> f64 {
        if self.comp == 0 {
            if self.a == 0 {
                0.0
            } else {
                self.a as f64 * pw(x[0], self.a - 1) * pw(x[1], self.b)
            }
        } else if self.b == 0 {
            0.0
        } else {
            self.b as f64 * pw(x[0], self.a) * pw(x[1], self.b - 1)
        }
    }
}

/// Local edge `i` of the reference triangle: start point and tangent (end − start).
fn ref_edge(i: usize) -> ([f64; 2], [f64; 2]) {
    const V: [[f64; 2]; 3] = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
    let (a, b) = (V[(i + 1) % 3], V[(i + 2) % 3]);
    (a, [b[0] - a[0], b[1] - a[1]])
}

/// Tangent rotated by −90°: the outward (unnormalized, length |e|) normal of a
/// counter-clockwise edge.
#[inline]
fn rot_m90(t: [f64; 2]) -> [f64; 2] {
    [t[1], -t[0]]
}

/// A reference $H(\mathrm{div})$ element ($BDM_k$ or $RT_k$) with its dual basis.
#[derive(Debug, Clone, PartialEq)]
pub struct HdivElement {
    family: HdivFamily,
    k: usize,
    /// Prime basis: each function is a sum of monomial vector fields (RT needs two terms).
    prime: Vec<Vec<Mono>>,
    /// Dual-basis coefficients, row-major `[prime p][basis i]`.
    coef: Vec<f64>,
    per_edge: usize,
    n_interior: usize,
}

impl HdivElement {
    /// The reference element `family` of degree `k` (`1 <= k <= 3`).
    pub fn new(family: HdivFamily, k: usize) -> Result<Self, FemError> {
        if !(1..=3).contains(&k) {
            return Err(FemError::UnsupportedDegree {
                what: format!("{} triangle degree", family.name()),
                degree: k,
                supported: "1..=3".into(),
            });
        }
        let ki = k as i32;
        let mut prime: Vec<Vec<Mono>> = Vec::new();
        let full = match family {
            HdivFamily::Bdm => ki,
            HdivFamily::Rt => ki - 1,
        };
        for comp in 0..2 {
            for d in 0..=full {
                for b in 0..=d {
                    prime.push(vec![Mono { comp, a: d - b, b }]);
                }
            }
        }
        if family == HdivFamily::Rt {
            // x · (homogeneous degree k − 1)
            let d = ki - 1;
            for b in 0..=d {
                let a = d - b;
                prime.push(vec![
                    Mono {
                        comp: 0,
                        a: a + 1,
                        b,
                    },
                    Mono {
                        comp: 1,
                        a,
                        b: b + 1,
                    },
                ]);
            }
        }
        let n = prime.len();
        let per_edge = match family {
            HdivFamily::Bdm => k + 1,
            HdivFamily::Rt => k,
        };
        let n_interior = n - 3 * per_edge;
        let mut el = Self {
            family,
            k,
            prime,
            coef: Vec::new(),
            per_edge,
            n_interior,
        };
        // V[dof][prime]
        let mut V = vec![0.0; n * n];
        for p in 0..n {
            let f = |x: [f64; 2]| el.prime_value(p, x);
            let dofs = el.reference_dofs(&f)?;
            for (d, v) in dofs.iter().enumerate() {
                V[d * n + p] = *v;
            }
        }
        // basis i = Σ_p C[p][i] prime_p with V C = I  ⇒  C = V^{-1}
        el.coef = invert(&V, n).ok_or_else(|| {
            FemError::LinAlg(format!(
                "{}_{k} degrees of freedom are not unisolvent",
                family.name()
            ))
        })?;
        Ok(el)
    }

    fn prime_value(&self, p: usize, x: [f64; 2]) -> [f64; 2] {
        let mut v = [0.0; 2];
        for m in &self.prime[p] {
            v[m.comp] += m.value(x);
        }
        v
    }

    fn prime_div(&self, p: usize, x: [f64; 2]) -> f64 {
        self.prime[p].iter().map(|m| m.div(x)).sum()
    }

    /// The family.
    pub fn family(&self) -> HdivFamily {
        self.family
    }
    /// Degree $k$.
    pub fn degree(&self) -> usize {
        self.k
    }
    /// Number of local basis functions: $(k+1)(k+2)$ ($BDM_k$) or $k(k+2)$ ($RT_k$).
    pub fn n_local(&self) -> usize {
        self.prime.len()
    }
    /// DOFs per edge ($k+1$ or $k$).
    pub fn dofs_per_edge(&self) -> usize {
        self.per_edge
    }
    /// Interior DOFs per cell ($k^2-1$ or $k(k-1)$).
    pub fn interior_dofs(&self) -> usize {
        self.n_interior
    }

    /// The reference DOFs $\ell(\mathbf u)$ of a reference field `u` (module docs), in local
    /// order: edge 0 moments $j = 0..q$, edge 1, edge 2, interior moments.
    pub fn reference_dofs(&self, u: &dyn Fn([f64; 2]) -> [f64; 2]) -> Result<Vec<f64>, FemError> {
        let k = self.k;
        let gl = GaussLegendre::new(k + 3)?;
        let mut out = Vec::with_capacity(self.n_local());
        for i in 0..3 {
            let (a, t) = ref_edge(i);
            let nrm = rot_m90(t);
            for j in 0..self.per_edge {
                let mut s = 0.0;
                for (&r, &w) in gl.points.iter().zip(&gl.weights) {
                    let v = u([a[0] + r * t[0], a[1] + r * t[1]]);
                    s += w * (v[0] * nrm[0] + v[1] * nrm[1]) * shifted_legendre(j, r);
                }
                out.push(s);
            }
        }
        if self.n_interior > 0 {
            let q = TriangleQuadrature::exact_for_degree(2 * k + 2)?;
            let tests = self.interior_test_functions();
            for test in tests {
                let mut s = 0.0;
                for (x, &w) in q.points.iter().zip(&q.weights) {
                    let v = u(*x);
                    let g = test(*x);
                    s += w * (v[0] * g[0] + v[1] * g[1]);
                }
                out.push(s);
            }
        }
        Ok(out)
    }

    /// Interior test functions (module docs).
    #[allow(clippy::type_complexity)]
    fn interior_test_functions(&self) -> Vec<Box<dyn Fn([f64; 2]) -> [f64; 2]>> {
        let k = self.k as i32;
        let mut v: Vec<Box<dyn Fn([f64; 2]) -> [f64; 2]>> = Vec::new();
        match self.family {
            HdivFamily::Bdm => {
                // ∇p, p = x^a y^b, 1 <= a + b <= k − 1
                for d in 1..k {
                    for b in 0..=d {
                        let a = d - b;
                        v.push(Box::new(move |x: [f64; 2]| {
                            monomial_grad(x, a as usize, b as usize)
                        }));
                    }
                }
                // curl(β p), β = λ0 λ1 λ2 = (1 − x − y) x y, p = x^a y^b, a + b <= k − 2;
                // curl f = (∂y f, −∂x f)
                for d in 0..=(k - 2) {
                    for b in 0..=d {
                        let a = d - b;
                        v.push(Box::new(move |x: [f64; 2]| {
                            let (xx, yy) = (x[0], x[1]);
                            let l0 = 1.0 - xx - yy;
                            let beta = l0 * xx * yy;
                            let bx = yy * (l0 - xx);
                            let by = xx * (l0 - yy);
                            let p = pw(xx, a) * pw(yy, b);
                            let px = if a > 0 {
                                a as f64 * pw(xx, a - 1) * pw(yy, b)
                            } else {
                                0.0
                            };
                            let py = if b > 0 {
                                b as f64 * pw(xx, a) * pw(yy, b - 1)
                            } else {
                                0.0
                            };
                            let fx = bx * p + beta * px;
                            let fy = by * p + beta * py;
                            [fy, -fx]
                        }));
                    }
                }
            }
            HdivFamily::Rt => {
                for c in 0..2usize {
                    for d in 0..=(k - 2) {
                        for b in 0..=d {
                            let a = d - b;
                            v.push(Box::new(move |x: [f64; 2]| {
                                let p = pw(x[0], a) * pw(x[1], b);
                                if c == 0 {
                                    [p, 0.0]
                                } else {
                                    [0.0, p]
                                }
                            }));
                        }
                    }
                }
            }
        }
        v
    }

    /// Values and divergences of all reference basis functions at `x`.
    pub fn eval(&self, x: [f64; 2], val: &mut [[f64; 2]], div: &mut [f64]) {
        let n = self.n_local();
        val[..n].iter_mut().for_each(|v| *v = [0.0; 2]);
        div[..n].iter_mut().for_each(|v| *v = 0.0);
        for p in 0..n {
            let pv = self.prime_value(p, x);
            let pd = self.prime_div(p, x);
            let row = &self.coef[p * n..(p + 1) * n];
            for i in 0..n {
                let c = row[i];
                if c != 0.0 {
                    val[i][0] += c * pv[0];
                    val[i][1] += c * pv[1];
                    div[i] += c * pd;
                }
            }
        }
    }

    /// Tabulates the reference basis at `points`: `(values, divergences)`, point-major
    /// (`values[q * n_local + i]`).
    pub fn tabulate(&self, points: &[[f64; 2]]) -> (Vec<[f64; 2]>, Vec<f64>) {
        let n = self.n_local();
        let mut vals = vec![[0.0; 2]; points.len() * n];
        let mut divs = vec![0.0; points.len() * n];
        for (q, x) in points.iter().enumerate() {
            self.eval(
                *x,
                &mut vals[q * n..(q + 1) * n],
                &mut divs[q * n..(q + 1) * n],
            );
        }
        (vals, divs)
    }
}

/// A global $H(\mathrm{div})$ space ($BDM_k$ or $RT_k$) on a triangle mesh.
///
/// DOF numbering: edge $e$ moment $j$ is DOF $e\,q + j$; interior DOF $l$ of cell $t$ is
/// $n_{\text{edges}}\,q + t\,n_{\text{int}} + l$.
#[derive(Debug, Clone, PartialEq)]
pub struct HdivSpace {
    mesh: Mesh2d,
    element: HdivElement,
    cell_dofs: Vec<usize>,
    cell_signs: Vec<f64>,
    n_dofs: usize,
}

impl HdivSpace {
    /// The space `family` of degree `k` (`1 <= k <= 3`) on `mesh`.
    pub fn new(mesh: &Mesh2d, family: HdivFamily, k: usize) -> Result<Self, Fem2dError> {
        let element = HdivElement::new(family, k)?;
        let q = element.dofs_per_edge();
        let ni = element.interior_dofs();
        let nl = element.n_local();
        let ne = mesh.n_edges();
        let mut cell_dofs = Vec::with_capacity(mesh.n_cells() * nl);
        let mut cell_signs = Vec::with_capacity(mesh.n_cells() * nl);
        for (t, tri) in mesh.triangles().iter().enumerate() {
            let edges = mesh.cell_edges(t);
            for i in 0..3 {
                let flipped = tri[(i + 1) % 3] > tri[(i + 2) % 3];
                for j in 0..q {
                    cell_dofs.push(edges[i] * q + j);
                    cell_signs.push(if flipped {
                        if j % 2 == 0 {
                            -1.0
                        } else {
                            1.0
                        }
                    } else {
                        1.0
                    });
                }
            }
            for l in 0..ni {
                cell_dofs.push(ne * q + t * ni + l);
                cell_signs.push(1.0);
            }
        }
        Ok(Self {
            mesh: mesh.clone(),
            element,
            cell_dofs,
            cell_signs,
            n_dofs: ne * q + mesh.n_cells() * ni,
        })
    }
    /// The mesh.
    pub fn mesh(&self) -> &Mesh2d {
        &self.mesh
    }
    /// The reference element.
    pub fn element(&self) -> &HdivElement {
        &self.element
    }
    /// Description, e.g. `"BDM_2"`.
    pub fn describe(&self) -> String {
        format!("{}_{}", self.element.family().name(), self.element.degree())
    }
    /// Number of global DOFs.
    pub fn n_dofs(&self) -> usize {
        self.n_dofs
    }
    /// Local basis functions per cell.
    pub fn n_local(&self) -> usize {
        self.element.n_local()
    }
    /// Global DOFs of cell `t` (local order of [`HdivElement::reference_dofs`]).
    #[inline]
    pub fn cell_dofs(&self, t: usize) -> &[usize] {
        let nl = self.n_local();
        &self.cell_dofs[t * nl..(t + 1) * nl]
    }
    /// Orientation signs of the local basis functions of cell `t` (module docs).
    #[inline]
    pub fn cell_signs(&self, t: usize) -> &[f64] {
        let nl = self.n_local();
        &self.cell_signs[t * nl..(t + 1) * nl]
    }
    /// Global DOFs of edge `e` (its `q` normal moments).
    pub fn edge_dofs(&self, e: usize) -> std::ops::Range<usize> {
        let q = self.element.dofs_per_edge();
        e * q..(e + 1) * q
    }
    /// Global DOFs on the boundary edges tagged with any of `tags` (sorted): setting them to
    /// zero imposes a vanishing normal trace there.
    pub fn boundary_dofs(&self, tags: &[&str]) -> Result<Vec<usize>, Fem2dError> {
        self.mesh.collect_edge_dofs(tags, |e| self.edge_dofs(e))
    }

    /// Physical values and divergences of the local basis of cell `t` (geometry `g`) from
    /// reference values `rv`, `rd` (one point): Piola map and orientation signs.
    #[inline]
    pub fn map_basis(
        &self,
        t: usize,
        g: &CellGeometry,
        rv: &[[f64; 2]],
        rd: &[f64],
        val: &mut [[f64; 2]],
        div: &mut [f64],
    ) {
        let s = self.cell_signs(t);
        let j = g.jac;
        let id = 1.0 / g.det;
        for i in 0..self.n_local() {
            let f = s[i] * id;
            val[i] = [
                f * (j[0][0] * rv[i][0] + j[0][1] * rv[i][1]),
                f * (j[1][0] * rv[i][0] + j[1][1] * rv[i][1]),
            ];
            div[i] = f * rd[i];
        }
    }

    /// Value and divergence of the field with DOFs `u` at reference point `xh` of cell `t`.
    pub fn eval_in_cell(&self, u: &[f64], t: usize, xh: [f64; 2]) -> ([f64; 2], f64) {
        let nl = self.n_local();
        let (mut rv, mut rd) = (vec![[0.0; 2]; nl], vec![0.0; nl]);
        self.element.eval(xh, &mut rv, &mut rd);
        let g = CellGeometry::new(&self.mesh, t);
        let (mut v, mut d) = (vec![[0.0; 2]; nl], vec![0.0; nl]);
        self.map_basis(t, &g, &rv, &rd, &mut v, &mut d);
        let mut out = [0.0; 2];
        let mut dv = 0.0;
        for (i, &gi) in self.cell_dofs(t).iter().enumerate() {
            out[0] += u[gi] * v[i][0];
            out[1] += u[gi] * v[i][1];
            dv += u[gi] * d[i];
        }
        (out, dv)
    }

    /// Canonical interpolant of the physical field `f` (edge moments against the globally
    /// oriented Legendre polynomials, interior moments of the Piola pull-back). Exact for
    /// every field of the space, in particular for $(P_k)^2$ ($BDM_k$) and $(P_{k-1})^2$
    /// ($RT_k$).
    pub fn interpolate(&self, f: &dyn Fn([f64; 2]) -> [f64; 2]) -> Result<Vec<f64>, Fem2dError> {
        let el = &self.element;
        let q = el.dofs_per_edge();
        let gl = GaussLegendre::new(el.degree() + 4)?;
        let mut u = vec![0.0; self.n_dofs];
        for (e, &[a, b]) in self.mesh.edges().iter().enumerate() {
            let (p, r) = (self.mesh.vertices()[a], self.mesh.vertices()[b]);
            let t = [r[0] - p[0], r[1] - p[1]];
            let nrm = rot_m90(t);
            for j in 0..q {
                let mut s = 0.0;
                for (&x, &w) in gl.points.iter().zip(&gl.weights) {
                    let v = f([p[0] + x * t[0], p[1] + x * t[1]]);
                    s += w * (v[0] * nrm[0] + v[1] * nrm[1]) * shifted_legendre(j, x);
                }
                u[e * q + j] = s;
            }
        }
        let ni = el.interior_dofs();
        if ni > 0 {
            for t in 0..self.mesh.n_cells() {
                let g = CellGeometry::new(&self.mesh, t);
                // pull-back û = det J^{-1} u∘F, J^{-1} = (J^{-T})^T
                let pull = |xh: [f64; 2]| {
                    let v = f(g.map(xh));
                    let it = g.inv_jac_t;
                    [
                        g.det * (it[0][0] * v[0] + it[1][0] * v[1]),
                        g.det * (it[0][1] * v[0] + it[1][1] * v[1]),
                    ]
                };
                let d = el.reference_dofs(&pull)?;
                let dofs = self.cell_dofs(t);
                for l in 0..ni {
                    u[dofs[3 * q + l]] = d[3 * q + l];
                }
            }
        }
        Ok(u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dual basis is dual: ℓ_d(φ_i) = δ_di on the reference triangle, for every family
    /// and degree, and the dimensions are (k+1)(k+2) and k(k+2).
    #[test]
    fn reference_duality_and_dimensions() {
        for fam in [HdivFamily::Bdm, HdivFamily::Rt] {
            for k in 1..=3 {
                let el = HdivElement::new(fam, k).unwrap();
                let n = el.n_local();
                let dim = match fam {
                    HdivFamily::Bdm => (k + 1) * (k + 2),
                    HdivFamily::Rt => k * (k + 2),
                };
                assert_eq!(n, dim);
                for i in 0..n {
                    let f = |x: [f64; 2]| {
                        let (mut v, mut d) = (vec![[0.0; 2]; n], vec![0.0; n]);
                        el.eval(x, &mut v, &mut d);
                        v[i]
                    };
                    let l = el.reference_dofs(&f).unwrap();
                    for (d, v) in l.iter().enumerate() {
                        let e = if d == i { 1.0 } else { 0.0 };
                        assert!((v - e).abs() < 1e-11, "{fam:?}{k}: ℓ_{d}(φ_{i}) = {v}");
                    }
                }
            }
        }
        assert!(HdivElement::new(HdivFamily::Bdm, 4).is_err());
        assert!(HdivElement::new(HdivFamily::Rt, 0).is_err());
    }
}
