//! Lowest-order Raviart–Thomas space $RT_1$ (UFL convention; $RT_0$ in the older
//! numbering) on triangle meshes: $H(\mathrm{div})$-conforming, piecewise
//! $\mathbf a + b\,\mathbf x$, one DOF per edge (thesis 004 §8.2.2 "CG1 × RT1 × CG1",
//! summary §3.3 and §6.1 item 2 "RT and BDM, N-dimensional H(div)").
//!
//! # Basis and global orientation
//! Every global edge $e = (v_a, v_b)$, $v_a < v_b$ (global vertex indices, see
//! [`crate::mesh::triangle`]) carries the **global normal** $\mathbf n_e$ = its tangent
//! $v_b - v_a$ rotated by $-90°$, normalized. The DOF of a field $\mathbf u$ on edge $e$ is
//! its flux $\int_e \mathbf u\cdot\mathbf n_e\,ds$. On a triangle $T$ with vertices
//! $x_0, x_1, x_2$ (counter-clockwise), local edge $i$ is opposite $x_i$ and
//! $$\boldsymbol\phi_i(\mathbf x) = \frac{s_i}{2|T|}(\mathbf x - \mathbf x_i),\qquad
//! \operatorname{div}\boldsymbol\phi_i = \frac{s_i}{|T|},$$
//! with $s_i = +1$ if the counter-clockwise direction of local edge $i$ (from local vertex
//! $i+1$ to $i+2$) agrees with the global orientation, else $-1$. Since
//! $(\mathbf x - \mathbf x_i)\cdot\mathbf n = 2|T|/|e_i|$ on edge $i$ and $0$ on the two
//! other edges, $\int_{e_j}\boldsymbol\phi_i\cdot\mathbf n_{e_j} = \delta_{ij}$: the two
//! triangles sharing an edge traverse it in opposite directions, so their signs are
//! opposite with respect to their outward normals and equal with respect to
//! $\mathbf n_e$, which makes the normal component continuous.
use crate::mesh::triangle::Mesh2d;
use crate::quadrature::gauss_legendre::GaussLegendre;

/// The global lowest-order Raviart–Thomas space on a triangle mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct RtSpace {
    mesh: Mesh2d,
    /// Orientation signs $s_i$ of the local edges of each cell.
    signs: Vec<[f64; 3]>,
}

impl RtSpace {
    /// The $RT_1$ space on `mesh` (one DOF per global edge).
    pub fn new(mesh: &Mesh2d) -> Self {
        let signs = mesh
            .triangles()
            .iter()
            .map(|tri| {
                let mut s = [1.0; 3];
                for (i, si) in s.iter_mut().enumerate() {
                    if tri[(i + 1) % 3] > tri[(i + 2) % 3] {
                        *si = -1.0;
                    }
                }
                s
            })
            .collect();
        Self {
            mesh: mesh.clone(),
            signs,
        }
    }
    /// The mesh.
    pub fn mesh(&self) -> &Mesh2d {
        &self.mesh
    }
    /// Number of DOFs (= number of edges).
    pub fn n_dofs(&self) -> usize {
        self.mesh.n_edges()
    }
    /// Global DOFs of the local edges of cell `t`.
    #[inline]
    pub fn cell_dofs(&self, t: usize) -> [usize; 3] {
        self.mesh.cell_edges(t)
    }
    /// Orientation signs $s_i$ of the local basis functions of cell `t`.
    #[inline]
    pub fn signs(&self, t: usize) -> [f64; 3] {
        self.signs[t]
    }
    /// Global unit normal $\mathbf n_e$ of edge `e` (module docs).
    pub fn global_normal(&self, e: usize) -> [f64; 2] {
        let [a, b] = self.mesh.edges()[e];
        let (p, q) = (self.mesh.vertices()[a], self.mesh.vertices()[b]);
        let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
        let l = (dx * dx + dy * dy).sqrt();
        [dy / l, -dx / l]
    }
    /// Values of the three local basis functions of cell `t` at the physical point `x`
    /// and their (constant) divergences.
    #[inline]
    pub fn basis(&self, t: usize, x: [f64; 2]) -> ([[f64; 2]; 3], [f64; 3]) {
        let c = self.mesh.cell_coords(t);
        let area = self.mesh.area(t);
        let s = self.signs[t];
        let mut v = [[0.0; 2]; 3];
        let mut d = [0.0; 3];
        for i in 0..3 {
            let f = s[i] / (2.0 * area);
            v[i] = [f * (x[0] - c[i][0]), f * (x[1] - c[i][1])];
            d[i] = s[i] / area;
        }
        (v, d)
    }
    /// Value of the field with DOFs `u` at the point `x` of cell `t`.
    pub fn eval_in_cell(&self, u: &[f64], t: usize, x: [f64; 2]) -> [f64; 2] {
        let (v, _) = self.basis(t, x);
        let dofs = self.cell_dofs(t);
        let mut out = [0.0; 2];
        for i in 0..3 {
            out[0] += u[dofs[i]] * v[i][0];
            out[1] += u[dofs[i]] * v[i][1];
        }
        out
    }
    /// Divergence (constant) of the field with DOFs `u` on cell `t`.
    pub fn div_in_cell(&self, u: &[f64], t: usize) -> f64 {
        let dofs = self.cell_dofs(t);
        let (s, area) = (self.signs[t], self.mesh.area(t));
        (0..3).map(|i| u[dofs[i]] * s[i] / area).sum()
    }
    /// Canonical interpolant: DOF $e$ = $\int_e \mathbf f\cdot\mathbf n_e\,ds$ by a
    /// 4-point Gauss–Legendre rule (exact for $\mathbf f$ of degree $\le 7$ along edges).
    pub fn interpolate(&self, f: &dyn Fn([f64; 2]) -> [f64; 2]) -> Vec<f64> {
        let gl = GaussLegendre::new(4).expect("4-point Gauss–Legendre rule");
        (0..self.n_dofs())
            .map(|e| {
                let [a, b] = self.mesh.edges()[e];
                let (p, q) = (self.mesh.vertices()[a], self.mesh.vertices()[b]);
                let n = self.global_normal(e);
                let len = self.mesh.edge_length(e);
                gl.points
                    .iter()
                    .zip(&gl.weights)
                    .map(|(&s, &w)| {
                        let v = f([p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])]);
                        w * len * (v[0] * n[0] + v[1] * n[1])
                    })
                    .sum()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::triangle::Diagonal;

    fn meshes() -> Vec<Mesh2d> {
        let mut v = vec![
            Mesh2d::rectangle(0.0, 1.5, -0.5, 1.0, 3, 4, Diagonal::Right).unwrap(),
            Mesh2d::rectangle(0.0, 1.0, 0.0, 1.0, 4, 3, Diagonal::Left).unwrap(),
        ];
        // an unstructured patch with mixed vertex orderings
        let verts = vec![
            [0.0, 0.0],
            [1.0, 0.1],
            [0.4, 0.9],
            [1.3, 1.2],
            [-0.5, 0.8],
            [0.6, -0.7],
        ];
        let tris = vec![[0, 1, 2], [1, 3, 2], [0, 2, 4], [5, 1, 0]];
        v.push(Mesh2d::new(verts, tris).unwrap());
        v
    }

    /// Flux DOFs are dual to the basis (∫_{e_j} φ_i·n_{e_j} = δ_ij), div φ_i = s_i/|T|
    /// is constant, and its integral equals the outward boundary flux (divergence theorem).
    #[test]
    fn duality_and_constant_divergence() {
        let gl = GaussLegendre::new(3).unwrap();
        for m in meshes() {
            let s = RtSpace::new(&m);
            for t in 0..m.n_cells() {
                let c = m.cell_coords(t);
                let dofs = s.cell_dofs(t);
                for j in 0..3 {
                    let (p, q) = (c[(j + 1) % 3], c[(j + 2) % 3]);
                    let n = s.global_normal(dofs[j]);
                    let len = m.edge_length(dofs[j]);
                    for i in 0..3 {
                        let flux: f64 = gl
                            .points
                            .iter()
                            .zip(&gl.weights)
                            .map(|(&r, &w)| {
                                let x = [p[0] + r * (q[0] - p[0]), p[1] + r * (q[1] - p[1])];
                                let (v, _) = s.basis(t, x);
                                w * len * (v[i][0] * n[0] + v[i][1] * n[1])
                            })
                            .sum();
                        let exp = if i == j { 1.0 } else { 0.0 };
                        assert!((flux - exp).abs() < 1e-13, "cell {t}: {flux} vs {exp}");
                    }
                }
                // divergence: same at two points, equal to s_i/|T|, ∫_T div = Σ_j outward flux
                let (_, d1) = s.basis(t, c[0]);
                let (_, d2) = s.basis(t, [0.3 * c[1][0] + 0.7 * c[2][0], c[2][1]]);
                for i in 0..3 {
                    assert_eq!(d1[i], d2[i]);
                    // outward flux of φ_i = s_i (global flux 1 times the orientation sign)
                    assert!((d1[i] * m.area(t) - s.signs(t)[i]).abs() < 1e-14);
                }
            }
        }
    }

    /// Interpolation reproduces linear RT fields a + b x exactly, and the normal component
    /// of an interpolated non-polynomial field is continuous across every interior edge
    /// (evaluated from both sides), while the tangential one is not in general.
    #[test]
    fn exactness_and_normal_continuity() {
        for m in meshes() {
            let s = RtSpace::new(&m);
            let f = |x: [f64; 2]| [0.3 - 1.7 * x[0], 2.0 - 1.7 * x[1]];
            let u = s.interpolate(&f);
            for t in 0..m.n_cells() {
                let x = m.cell_centroid(t);
                let v = s.eval_in_cell(&u, t, x);
                let e = f(x);
                assert!((v[0] - e[0]).abs() < 1e-13 && (v[1] - e[1]).abs() < 1e-13);
                assert!((s.div_in_cell(&u, t) + 3.4).abs() < 1e-12);
            }
            let g = |x: [f64; 2]| [(2.0 * x[1]).sin() + x[0] * x[0], (x[0] * x[1]).exp()];
            let u = s.interpolate(&g);
            let mut max_tangent_jump = 0.0f64;
            for e in 0..m.n_edges() {
                if let (c0, Some(c1)) = m.edge_cells(e) {
                    let [a, b] = m.edges()[e];
                    let (p, q) = (m.vertices()[a], m.vertices()[b]);
                    let n = s.global_normal(e);
                    for r in [0.1, 0.5, 0.8] {
                        let x = [p[0] + r * (q[0] - p[0]), p[1] + r * (q[1] - p[1])];
                        let (v0, v1) = (s.eval_in_cell(&u, c0, x), s.eval_in_cell(&u, c1, x));
                        let jn = (v0[0] - v1[0]) * n[0] + (v0[1] - v1[1]) * n[1];
                        assert!(jn.abs() < 1e-13, "edge {e}: normal jump {jn}");
                        let jt = (v0[0] - v1[0]) * n[1] - (v0[1] - v1[1]) * n[0];
                        max_tangent_jump = max_tangent_jump.max(jt.abs());
                    }
                }
            }
            assert!(max_tangent_jump > 1e-3);
        }
    }
}
