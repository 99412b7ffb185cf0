//! Geometric (stress) stiffening of the planar floating beam: a von Kármán axial strain in
//! the port-Hamiltonian stress formulation (paper 000 Remark 3; issue 3).
//!
//! The linear floating-frame beam of §4.3 has the axial strain $\varepsilon = \partial_x u$,
//! so an axial force does not change the bending stiffness: a spinning beam softens
//! (centrifugal force on the transverse displacement, first frequency
//! $\sqrt{\omega_1^2 - \Omega^2}$) and diverges once $\Omega > \omega_1$ (the Simo–Vu-Quoc
//! spin-up), and a compressed coupler is too stiff. Remark 3 suggests a potential of the
//! centrifugal forces; phlex instead uses the moderate-rotation (von Kármán) strain
//! $$\varepsilon = \partial_x u_f^x + \tfrac12(\partial_x u_f^y)^2 ,$$
//! which covers centrifugal *and* any other axial load (joint reactions, end forces).
//!
//! **pH form.** The normal force $n_x = EA\,\varepsilon$ stays a co-energy state with the
//! compliance $1/EA$, and $H_{def} = \frac12\int n_x^2/EA + m_x^2/EI$ is unchanged. In velocity
//! form $\dot\varepsilon = \partial_x v_f^x + \partial_x u_f^y\,\partial_x v_f^y$, so
//! $$\frac1{EA}\dot n_x = \partial_x v_f^x + w'\,\partial_x v_f^y ,\qquad
//!   \rho A\,\dot v_f^y = \dots + \partial_x\big(n_x\,w'\big),\qquad w' = \partial_x u_f^y ,$$
//! i.e. the interconnection operator gains the state-dependent skew pair
//! $J[n_x, v_f^y] = w'\partial_x$, $J[v_f^y, n_x] = -(w'\partial_x)^*$. Discretized with the
//! same spaces (normal force DG0 $\chi_i$, transverse velocity Hermite $\phi_j$):
//! $$D_{nl}(u_f)_{ij} = \int_0^L \chi_i\, w_h'(u_f)\, \phi_j'\,\mathrm dx ,\qquad
//!   J[\sigma_n, v_f^y] \mathrel{+}= D_{nl}(u_f),\quad J[v_f^y, \sigma_n] \mathrel{-}= D_{nl}(u_f)^\top ,$$
//! (exact with 3 Gauss points per element: the integrand has degree 4). $J$ stays
//! skew-symmetric at every state, so $\dot H = y^\top u$ holds exactly and the midpoint /
//! discrete-gradient scheme keeps its discrete energy balance. The term
//! $-D_{nl}^\top\sigma_n = -\big(\sum_i n_i K_i\big)u_f$ in the transverse equations is the
//! classical geometric stiffness matrix $K_G(n)$ ($K_i = \int_{e_i}\phi'\phi'^\top$).
//!
//! **Energy.** Since $n_x$ evolves with $\dot\varepsilon$, the stored
//! $\frac12\int n_x^2/EA$ is $\frac12\int EA(u' + \frac12 w'^2)^2$ (up to the DG0 projection):
//! the axial strain energy now contains the $\frac12 w'^2$ part, and the energies reported
//! by [`FloatingBody::energies`](crate::body::FloatingBody::energies) (`deformation`) include it automatically.
//!
//! **Jacobian.** $J$ now depends on $u_f$; the exact Newton matrix
//! ([`phlex_core::PhSystem::rhs_jacobian`]) contains
//! $\partial_{u_f}\big(D_{nl}(u_f)\,v_f^y\big)_i = \sum_b K_i[\cdot, b]\,v_b$ in the normal-force
//! rows and $\partial_{u_f}\big(-D_{nl}(u_f)^\top n\big) = -K_G(n)$ in the transverse
//! velocity rows (`VonKarman::push_jacobian`, crate-internal).
//!
//! **Neglected.** The transverse strain of the shear-rigid beam and the axial part of the
//! rotation (the $\frac12 (u')^2$ term) are neglected, as in the von Kármán beam; the mass
//! operator stays the constant one of eq. (37).
//!
//! **Centrifugal softening is not part of this model.** The classical floating-frame
//! result that a spinning beam diverges without stiffening once the spin exceeds the first
//! bending frequency comes from the softening force $\rho A\,\Omega^2 u_f^y$ of the transport
//! velocity at the *deformed* position $\omega\hat z\times(x + u_f)$. The constant mass
//! operator of §4.3 transports at $\omega\hat z\times x$, so that force is absent: without
//! stiffening the Simo–Vu-Quoc spin-up stays bounded and follows the quasi-static
//! deflection under the hub acceleration (tip −0.629 m), with stiffening the in-plane
//! frequency at spin $\Omega$ is $\sqrt{\omega_1^2 + 1.19\,\Omega^2}$ instead of
//! $\sqrt{\omega_1^2 + 0.19\,\Omega^2}$ (tip −0.445 m; a quasi-static Rayleigh–Ritz estimate
//! with the softening term gives −0.537 m). See `tests/geometric_stiffening.rs`.
//! The softening is available with the deformation-dependent mass operator
//! ([`crate::FloatingBeam2d::full_inertia`], [`crate::body::planar::full_inertia`]): then the
//! spin-up diverges without stiffening and peaks at −0.574 m with it (quasi-static
//! reference with softening −0.568 m), and the in-plane frequency of the spinning
//! cantilever is $\sqrt{\omega_1^2 + 0.19\,\Omega^2}$ (`tests/full_inertia.rs`).
//!
//! **Spatial beam.** The element kernel (the matrices $K_e$ and the four operations above)
//! is shared with [`crate::body::spatial::stiffening`]: `VonKarman::with_planes` stores one block per
//! element and bending plane, so the spatial beam's $D_{nl}^y + D_{nl}^z$ is the same type.
//!
//! **Validation** (`tests/geometric_stiffening.rs`): $J$ skew and the exact Jacobian at
//! random states; a pinned–pinned beam under an axial load $N$ has
//! $\omega_1^2(N) - \omega_1^2(0) = (\pi/L)^2 N/\rho A$ to 1.2e-7 (tension and compression to
//! 0.99 of the Euler load); the spin-up peaks and the discrete energy balance with the
//! driving power (1.6e-15 relative).
use phlex_core::sparse::SparseMat;
use phlex_core::Triplets;
use phlex_fem::quadrature::GaussLegendre;
use phlex_fem::{FemError, Space1d};

/// The block of one element: normal-force coefficient `row` (index into the stress block),
/// the elastic coefficients of its four Hermite DOFs (`None`: removed by the deformation
/// condition) and $K[a][b] = \int_e \chi\,\phi_a'\phi_b'\,\mathrm dx$.
#[derive(Debug, Clone, PartialEq)]
struct ElementBlock {
    row: usize,
    cols: [Option<usize>; 4],
    K: [[f64; 4]; 4],
}

/// The von Kármán coupling $D_{nl}(u_f)$ of a planar beam (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct VonKarman {
    elements: Vec<ElementBlock>,
    n_f: usize,
    n_s: usize,
}

impl VonKarman {
    /// Builds the element blocks from the normal-force space `normal` (DG0: one coefficient
    /// per element), the transverse space `transverse` (Hermite) and the map from full
    /// Hermite DOFs to elastic coefficient indices (`None` for removed DOFs); `n_f` and
    /// `n_s` are the numbers of elastic and stress coefficients of the body.
    pub(crate) fn new(
        normal: &Space1d,
        transverse: &Space1d,
        transverse_map: &[Option<usize>],
        n_f: usize,
        n_s: usize,
    ) -> Result<Self, FemError> {
        Self::with_planes(normal, transverse, &[transverse_map], n_f, n_s)
    }

    /// The shared element kernel for several bending planes with one normal force, the
    /// strain $\varepsilon = \partial_x u + \tfrac12\sum_p(\partial_x w_p)^2$ (one plane: the
    /// planar beam; two planes $w_y$, $w_z$: the spatial beam of [`crate::body::spatial::stiffening`]).
    /// Every plane uses the same transverse space `transverse`; `planes[p]` maps its full
    /// DOFs to elastic coefficient indices (already offset to the plane's block of $u_f$,
    /// `None` for removed DOFs). The element matrices $K_e$ are computed once and shared by
    /// the planes; the blocks of the planes are stored one after the other, so
    /// $D_{nl}(u_f) = \sum_p D_{nl}^p(u_f)$ and $K_G(n) = \sum_p K_G^p(n)$ (the strain has no
    /// mixed term $w_y'w_z'$, so the planes do not couple).
    pub(crate) fn with_planes(
        normal: &Space1d,
        transverse: &Space1d,
        planes: &[&[Option<usize>]],
        n_f: usize,
        n_s: usize,
    ) -> Result<Self, FemError> {
        let q = GaussLegendre::new(3)?;
        let mesh = transverse.mesh();
        let mut elements = Vec::with_capacity(planes.len() * mesh.n_elements());
        let mut chi = vec![0.0; normal.n_local()];
        let mut d = [0.0; 4];
        for e in 0..mesh.n_elements() {
            let h = mesh.h(e);
            let mut K = [[0.0; 4]; 4];
            for (&xi, &w) in q.points.iter().zip(&q.weights) {
                normal.eval_local(e, xi, 0, &mut chi);
                transverse.eval_local(e, xi, 1, &mut d);
                let c = chi[0] * w * h;
                for a in 0..4 {
                    for b in 0..4 {
                        K[a][b] += c * d[a] * d[b];
                    }
                }
            }
            for map in planes {
                let mut cols = [None; 4];
                for (a, c) in cols.iter_mut().enumerate() {
                    *c = map[transverse.dof(e, a)];
                }
                elements.push(ElementBlock {
                    row: normal.dof(e, 0),
                    cols,
                    K,
                });
            }
        }
        Ok(Self { elements, n_f, n_s })
    }

    /// Matrix-free $f_\sigma \mathrel{+}= D_{nl}(u)\,v_f$ and
    /// $f_{v} \mathrel{-}= D_{nl}(u)^\top\sigma$ for the elastic displacements `u`, the
    /// elastic velocity efforts `vf` and stress efforts `sigma` of the body (the
    /// stiffening part of $J(x)z$).
    pub(crate) fn apply(
        &self,
        u: &[f64],
        vf: &[f64],
        sigma: &[f64],
        f_v: &mut [f64],
        f_sigma: &mut [f64],
    ) {
        for el in &self.elements {
            let c = Self::row_coefficients(el, u);
            let n = sigma[el.row];
            let mut acc = 0.0;
            for (b, col) in el.cols.iter().enumerate() {
                if let Some(j) = col {
                    acc += c[b] * vf[*j];
                    f_v[*j] -= c[b] * n;
                }
            }
            f_sigma[el.row] += acc;
        }
    }

    /// Coefficients $c_b = \sum_a u_a K[a][b]$ of the row of element block `el`.
    #[inline]
    fn row_coefficients(el: &ElementBlock, u: &[f64]) -> [f64; 4] {
        let mut ua = [0.0; 4];
        for (v, c) in ua.iter_mut().zip(&el.cols) {
            if let Some(k) = c {
                *v = u[*k];
            }
        }
        let mut c = [0.0; 4];
        for b in 0..4 {
            c[b] = (0..4).map(|a| ua[a] * el.K[a][b]).sum();
        }
        c
    }

    /// $D_{nl}(u_f)$ ($n_\sigma\times n_f$, rows over the stress coefficients, columns over the
    /// elastic coefficients) for elastic displacement coefficients `u`.
    ///
    /// # Panics
    /// If `u.len()` is not the number of elastic coefficients of the body.
    #[track_caller]
    pub fn coupling(&self, u: &[f64]) -> SparseMat {
        assert_eq!(u.len(), self.n_f, "elastic coefficient vector length");
        let mut t = Triplets::new(self.n_s, self.n_f);
        for el in &self.elements {
            let c = Self::row_coefficients(el, u);
            for (b, col) in el.cols.iter().enumerate() {
                if let Some(j) = col {
                    t.push(el.row, *j, c[b]);
                }
            }
        }
        t.build()
    }

    /// Pushes $J[\sigma_n, v_f] = D_{nl}(u)$ and $J[v_f, \sigma_n] = -D_{nl}(u)^\top$ with the
    /// stress block starting at row/column `is` and the elastic velocities at `ivf`.
    pub(crate) fn push_structure(&self, u: &[f64], t: &mut Triplets, is: usize, ivf: usize) {
        for el in &self.elements {
            let c = Self::row_coefficients(el, u);
            for (b, col) in el.cols.iter().enumerate() {
                if let Some(j) = col {
                    if c[b] != 0.0 {
                        t.push(is + el.row, ivf + j, c[b]);
                        t.push(ivf + j, is + el.row, -c[b]);
                    }
                }
            }
        }
    }

    /// Pushes $(\partial_{u_f}J)\,z$: $\partial_u(D_{nl}(u)v_f)$ in the stress rows `is + i`
    /// and $\partial_u(-D_{nl}(u)^\top\sigma) = -K_G(\sigma_n)$ in the velocity rows `ivf + j`;
    /// columns are the displacement coefficients at `iu`. `vf` and `sigma` are the elastic
    /// velocities and stresses of the body.
    pub(crate) fn push_jacobian(
        &self,
        vf: &[f64],
        sigma: &[f64],
        t: &mut Triplets,
        iu: usize,
        is: usize,
        ivf: usize,
    ) {
        for el in &self.elements {
            let mut v = [0.0; 4];
            for (vb, c) in v.iter_mut().zip(&el.cols) {
                if let Some(k) = c {
                    *vb = vf[*k];
                }
            }
            let n = sigma[el.row];
            for (a, ca) in el.cols.iter().enumerate() {
                let Some(ja) = ca else { continue };
                let dv: f64 = (0..4).map(|b| el.K[a][b] * v[b]).sum();
                if dv != 0.0 {
                    t.push(is + el.row, iu + ja, dv);
                }
                if n != 0.0 {
                    for (b, cb) in el.cols.iter().enumerate() {
                        if let Some(jb) = cb {
                            t.push(ivf + jb, iu + ja, -n * el.K[a][b]);
                        }
                    }
                }
            }
        }
    }

    /// The geometric stiffness matrix $K_G(n) = \sum_i n_i K_i$ ($n_f\times n_f$) for the
    /// stress coefficients `sigma` (only the normal-force entries are used).
    ///
    /// # Panics
    /// If `sigma.len()` is not the number of stress coefficients of the body.
    #[track_caller]
    pub fn geometric_stiffness(&self, sigma: &[f64]) -> SparseMat {
        assert_eq!(sigma.len(), self.n_s, "stress coefficient vector length");
        let mut t = Triplets::new(self.n_f, self.n_f);
        for el in &self.elements {
            let n = sigma[el.row];
            for (a, ca) in el.cols.iter().enumerate() {
                let Some(ja) = ca else { continue };
                for (b, cb) in el.cols.iter().enumerate() {
                    if let Some(jb) = cb {
                        t.push(*ja, *jb, n * el.K[a][b]);
                    }
                }
            }
        }
        t.build()
    }
}
