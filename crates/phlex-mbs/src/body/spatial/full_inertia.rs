//! Deformation-dependent inertia of a spatial floating body (issue 3, the 3D counterpart
//! of [`crate::body::planar::full_inertia`]): the mass operator $M(u_f)$ of the mass points
//! at their *deformed* body-frame positions $X_k = x_k + N_k u_f$ instead of the constant
//! operator of [`crate::body::spatial::floating_body`] (paper 000 §4.3, eq. (37) in 3D).
//!
//! **Kinetic energy.** With $p = (v_P, \omega, v_f)$ (body frame) the velocity of mass point
//! $k$ and the angular velocity of its rotary inertia are
//! $$V_k = A_k(u_f)\,p = v_P + \omega\times(x_k + N_k u_f) + N_k v_f,\qquad
//!   \Omega_k = \Gamma_k p = \omega + \Phi_k v_f ,\tag{F1}$$
//! and $T = \frac12\sum_k w_k|V_k|^2 + \frac12\sum_k\Omega_k^\top I_k\Omega_k = \frac12 p^\top
//! M(u_f)\,p$. Only the $\omega$ columns of $A_k$ depend on $u_f$:
//! $\partial A_k/\partial u_j\,p = \omega\times n_{kj}$ with $n_{kj} = N_k e_j$, so $M(u_f)$ is a
//! **quadratic** polynomial in $u_f$. The rotary inertia $I_k$ (for a beam the polar section
//! inertia $\rho I_p$ about the axis, rotating at $\omega_x + \dot\theta_x$) is kept in the
//! body frame: its axis turns with the bending slope only to first order, and the section's
//! rotary inertia about $y$, $z$ is neglected anyway (Euler–Bernoulli); it enters $M$ as the
//! constant $\Gamma_k^\top I_k\Gamma_k$, like in the constant operator. $M(0)$ is the constant
//! operator of [`crate::body::spatial::floating_body`].
//!
//! **Momenta.** $\pi = M(u_f)p$: linear momentum $\pi_v = \sum_k w_kV_k$, angular momentum
//! about $P$ $\pi_\omega = \sum_k w_kX_k\times V_k + I_k\Omega_k$, elastic momenta
//! $\pi_{f,j} = \sum_k w_k n_{kj}\cdot V_k + \phi_{kj}\cdot I_k\Omega_k$ (all body frame), and
//! $\partial\pi/\partial u_j = \sum_k w_k\big[e_\omega(n_{kj}\times V_k) +
//! A_k^\top(\omega\times n_{kj})\big]$ with $A_k^\top a = (a,\ X_k\times a,\ N_k^\top a)$.
//!
//! **Momentum form.** Hamel's equations on $SE(3)\times\mathbb R^{n_f}$ in body-frame momenta:
//! $$\dot q = J_{qp}(q)\,p,\qquad \dot\pi = -J_{qp}^\top z_q + J_{pp}(\pi)\,p + B(x)u,\qquad
//!   z_q = \partial_qV - \tfrac12p^\top\partial_qM\,p ,\tag{F2}$$
//! with $J_{qp}$ of [`crate::body::spatial::floating_body`] (${}^i\dot r_P = Rv_P$, $\dot R = R[\omega]_\times$,
//! $\dot u_f = v_f$) and the rigid gyroscopic blocks built from the **momenta**:
//! $J[v_P,\omega] = J[\omega, v_P] = [\pi_v]_\times$, $J[\omega,\omega] = [\pi_\omega]_\times$, i.e.
//! $\dot\pi_v = \pi_v\times\omega + \dots$, $\dot\pi_\omega = \pi_\omega\times\omega + \pi_v\times v_P +
//! \dots$; there is no flexible gyroscopic operator $G(p)$: transport, Coriolis and
//! centrifugal forces on the elastic coordinates come from $\dot\pi_f$ and from
//! $-\partial_{u_f}H|_\pi$. In descriptor form
//! $$E(x)\dot x = J(x)z + B(x)u,\qquad E(x) = \frac{\partial(q,\pi)}{\partial(q,p)} =
//!   \begin{bmatrix}I & 0\\ \partial_q\pi & M(u_f)\end{bmatrix},\qquad z = (z_q, p),\tag{F3}$$
//! $J$ skew and $E^\top z = \nabla H$ (since $(\partial_{u_j}\pi)^\top p = p^\top\partial_jMp$). The
//! centrifugal term is $c_j(u; p_0, p_1) = \frac12p_0^\top\partial_{u_j}M(u)\,p_1 =
//! \frac12\sum_kw_k\big[(\omega_0\times n_{kj})\cdot V_k(p_1) + (\omega_1\times n_{kj})\cdot
//! V_k(p_0)\big]$, $z_{u_f} = \partial_{u_f}V - c(u_f; p, p)$, and
//! $\partial c_j/\partial u_l = \sum_kw_k(\omega\times n_{kj})\cdot(\omega\times n_{kl})$.
//!
//! *Angular momentum.* $H$ is invariant under rotations of the body frame, so for a free
//! body the inertial momenta $R\pi_v$ and $R\pi_\omega + {}^ir_P\times R\pi_v$ are first
//! integrals of (F2) — the constant operator lacks this (its $G(p)$ is not derived from a
//! Lagrangian, see [`crate::body::spatial::floating_body`]).
//!
//! **Discrete gradient** (the midpoint step of [`phlex_solve::integrators::midpoint::nonlinear`]):
//! $$q_1 - q_0 = hJ_{qp}(q_m)\bar p,\qquad
//!   \pi(x_1) - \pi(x_0) = h\big[-J_{qp}(q_m)^\top\bar z_q + J_{pp}(\bar\pi)\bar p + B(x_m)u\big],
//!   \tag{F4}$$
//! $\bar p = (p_0 + p_1)/2$, $\bar\pi = (\pi(x_0) + \pi(x_1))/2$ in the gyroscopic blocks and
//! $$\bar z_q = \nabla V(x_m) - c(u_m; p_0, p_1)\ \text{(in the $u_f$ rows)} ,\tag{F5}$$
//! ($V$ of gravity is affine in ${}^ir_P$ and bilinear in $(R, u_f)$, so its midpoint
//! gradient is exact). $M$ being quadratic in $u_f$, $M(u_1) - M(u_0) =
//! \sum_j\partial_jM(u_m)\Delta u_j$ exactly and $\bar p^\top\Delta\pi = \Delta T +
//! c(u_m; p_0, p_1)\cdot\Delta u$, hence $\bar z^\top(\Delta q, \Delta\pi) = \Delta H$ and, $J$ being
//! skew, $H_1 - H_0 = h\bar y^\top u$ to the Newton tolerance. The rotation update is the
//! Cayley map $R_1 = R_0\operatorname{cay}(h\bar\omega)$, and with $\bar\pi$ in $J_{pp}$
//! $R_1\pi_{\omega,1} - R_0\pi_{\omega,0} = R_m\Delta\pi_\omega + \Delta R\,\bar\pi_\omega =
//! hR_m(\bar\pi_\omega\times\bar\omega + \bar\omega\times\bar\pi_\omega + \dots) = 0$ without
//! other forces: a body turning about a fixed point (the reaction at $P$ has no moment
//! about $P$) keeps its inertial angular momentum **exactly** (to the Newton tolerance),
//! and so does the linear momentum $R\pi_v$ of a free body; the angular momentum of a
//! translating free body changes by $O(h^3)$ per step ($R_m$ is not orthogonal).
//!
//! **Ports.** The output of a port at $a$ is the velocity of the *deformed* point,
//! $v_P + \omega\times(a + N_au_f) + N_av_f$ (the time derivative of the deformed port
//! position, so joint velocity constraints are the derivatives of their position
//! constraints); the force $F$ applied there adds the moment $(a + N_au_f)\times F$ to the
//! $\omega$ row. The port maps $B_a$ of [`crate::spatial::SpatialBody::port_map`] stay the
//! undeformed ones; the assembly adds the shift $N_au_f$
//! ([`crate::spatial::SpatialBody::port_shift`]) and its exact derivatives.
//!
//! **Other integrators.** Radau IIA needs a constant mass matrix: [`phlex_solve::PhDae`]
//! uses the form with identity mass in the velocity rows and
//! $F_v = M_{vv}(u_f)^{-1}(f_v - \partial_{u_f}\pi_v\,v_f)$.
use phlex_core::Triplets;

use crate::body::spatial::floating_body::MassPoint3d;
use phlex_core::geometry::mat3::{cross, dot, mat_vec};

/// One mass point in the form used here: undeformed position, mass, rotary inertia and the
/// columns $n_j = N e_j$, $\phi_j = \Phi e_j$ of its shape.
#[derive(Debug, Clone, PartialEq)]
struct Point {
    x: [f64; 3],
    w: f64,
    inertia: [[f64; 3]; 3],
    rotary: bool,
    n: Vec<(usize, [f64; 3])>,
    phi: Vec<(usize, [f64; 3])>,
}

/// The mass points of a spatial body with deformation-dependent inertia and the operations
/// of the module documentation (on local slices: `u` the elastic coefficients, `p` the
/// co-energy variables $(v_P, \omega, v_f, \dots)$).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FullInertia3d {
    points: Vec<Point>,
    n_f: usize,
}

fn columns(rows: &[Vec<(usize, f64)>; 3]) -> Vec<(usize, [f64; 3])> {
    let mut out: Vec<(usize, [f64; 3])> = Vec::new();
    for (d, row) in rows.iter().enumerate() {
        for &(j, v) in row {
            match out.iter_mut().find(|e| e.0 == j) {
                Some(e) => e.1[d] += v,
                None => {
                    let mut c = [0.0; 3];
                    c[d] = v;
                    out.push((j, c));
                }
            }
        }
    }
    out
}

impl Point {
    /// Deformed position $X = x + Nu$.
    #[inline]
    fn position(&self, u: &[f64]) -> [f64; 3] {
        let mut X = self.x;
        for &(j, c) in &self.n {
            let uj = u[j];
            X[0] += c[0] * uj;
            X[1] += c[1] * uj;
            X[2] += c[2] * uj;
        }
        X
    }

    /// Velocity (F1) of the point at deformed position `X`.
    #[inline]
    fn velocity(&self, X: [f64; 3], p: &[f64]) -> [f64; 3] {
        let w = [p[3], p[4], p[5]];
        let t = cross(w, X);
        let mut v = [p[0] + t[0], p[1] + t[1], p[2] + t[2]];
        for &(j, c) in &self.n {
            let vj = p[6 + j];
            v[0] += c[0] * vj;
            v[1] += c[1] * vj;
            v[2] += c[2] * vj;
        }
        v
    }

    /// Angular velocity $\Omega = \omega + \Phi v_f$ of the rotary inertia.
    #[inline]
    fn spin(&self, p: &[f64]) -> [f64; 3] {
        let mut o = [p[3], p[4], p[5]];
        for &(j, c) in &self.phi {
            let vj = p[6 + j];
            o[0] += c[0] * vj;
            o[1] += c[1] * vj;
            o[2] += c[2] * vj;
        }
        o
    }

    /// Adds $s\,A^\top a = s\,(a, X\times a, N^\top a)$ to `out` (local co-energy indices).
    #[inline]
    fn add_at(&self, X: [f64; 3], a: [f64; 3], s: f64, out: &mut [f64]) {
        let m = cross(X, a);
        for d in 0..3 {
            out[d] += s * a[d];
            out[3 + d] += s * m[d];
        }
        for &(j, c) in &self.n {
            out[6 + j] += s * dot(c, a);
        }
    }

    /// Sparse columns of $A(u)$: `(i, column)` over the local co-energy index.
    fn a_columns(&self, X: [f64; 3], out: &mut Vec<(usize, [f64; 3])>) {
        out.clear();
        for d in 0..3 {
            let mut e = [0.0; 3];
            e[d] = 1.0;
            out.push((d, e));
            out.push((3 + d, cross(e, X)));
        }
        for &(j, c) in &self.n {
            out.push((6 + j, c));
        }
    }

    /// Sparse columns of $\Gamma$ (rotary part).
    fn g_columns(&self, out: &mut Vec<(usize, [f64; 3])>) {
        out.clear();
        for d in 0..3 {
            let mut e = [0.0; 3];
            e[d] = 1.0;
            out.push((3 + d, e));
        }
        for &(j, c) in &self.phi {
            out.push((6 + j, c));
        }
    }
}

impl FullInertia3d {
    pub(crate) fn new(points: &[MassPoint3d], n_f: usize) -> Self {
        let points = points
            .iter()
            .map(|pt| Point {
                x: pt.x,
                w: pt.mass,
                inertia: pt.inertia,
                rotary: pt.inertia.iter().flatten().any(|&v| v != 0.0),
                n: columns(&pt.shape.n),
                phi: columns(&pt.shape.phi),
            })
            .collect();
        Self { points, n_f }
    }

    /// Number of velocity co-energy variables $6 + n_f$.
    pub(crate) fn n_v(&self) -> usize {
        6 + self.n_f
    }

    /// Kinetic energy $\frac12p^\top M(u)p$.
    pub(crate) fn kinetic(&self, u: &[f64], p: &[f64]) -> f64 {
        let mut t = 0.0;
        for pt in &self.points {
            let v = pt.velocity(pt.position(u), p);
            t += 0.5 * pt.w * dot(v, v);
            if pt.rotary {
                let o = pt.spin(p);
                t += 0.5 * dot(o, mat_vec(&pt.inertia, o));
            }
        }
        t
    }

    /// Momentum $\pi = M(u)p$ of the velocity part ($6 + n_f$ entries) into `out`
    /// (overwritten).
    pub(crate) fn momentum(&self, u: &[f64], p: &[f64], out: &mut [f64]) {
        let nv = self.n_v();
        out[..nv].iter_mut().for_each(|v| *v = 0.0);
        for pt in &self.points {
            let X = pt.position(u);
            let v = pt.velocity(X, p);
            pt.add_at(X, v, pt.w, out);
            if pt.rotary {
                let l = mat_vec(&pt.inertia, pt.spin(p));
                for d in 0..3 {
                    out[3 + d] += l[d];
                }
                for &(j, c) in &pt.phi {
                    out[6 + j] += dot(c, l);
                }
            }
        }
    }

    /// Linear and angular momentum $(\pi_v, \pi_\omega)$ about $P$, body frame.
    pub(crate) fn rigid_momenta(&self, u: &[f64], p: &[f64]) -> ([f64; 3], [f64; 3]) {
        let mut pv = [0.0; 3];
        let mut pw = [0.0; 3];
        for pt in &self.points {
            let X = pt.position(u);
            let v = pt.velocity(X, p);
            let m = cross(X, v);
            for d in 0..3 {
                pv[d] += pt.w * v[d];
                pw[d] += pt.w * m[d];
            }
            if pt.rotary {
                let l = mat_vec(&pt.inertia, pt.spin(p));
                for d in 0..3 {
                    pw[d] += l[d];
                }
            }
        }
        (pv, pw)
    }

    /// Calls `f(i, j, v)` for the entries of $M(u)$ (velocity block, $(6 + n_f)^2$,
    /// duplicates to be summed).
    pub(crate) fn for_each_mass(&self, u: &[f64], mut f: impl FnMut(usize, usize, f64)) {
        let mut cols: Vec<(usize, [f64; 3])> = Vec::with_capacity(32);
        for pt in &self.points {
            pt.a_columns(pt.position(u), &mut cols);
            for &(i, a) in &cols {
                for &(j, b) in &cols {
                    let v = pt.w * dot(a, b);
                    if v != 0.0 {
                        f(i, j, v);
                    }
                }
            }
            if pt.rotary {
                pt.g_columns(&mut cols);
                for &(i, a) in &cols {
                    for &(j, b) in &cols {
                        let v = dot(a, mat_vec(&pt.inertia, b));
                        if v != 0.0 {
                            f(i, j, v);
                        }
                    }
                }
            }
        }
    }

    /// Pushes $M(u)$ (velocity block) at `(r0, c0)`.
    pub(crate) fn push_mass(&self, u: &[f64], t: &mut Triplets, r0: usize, c0: usize) {
        self.for_each_mass(u, |i, j, v| t.push(r0 + i, c0 + j, v));
    }

    /// Calls `f(i, j, v)` for $v = \partial\pi_i/\partial u_j$ of $\pi = M(u)p$:
    /// $\sum_kw_k[e_\omega(n_{kj}\times V_k) + A_k^\top(\omega\times n_{kj})]$.
    pub(crate) fn for_each_momentum_u(
        &self,
        u: &[f64],
        p: &[f64],
        mut f: impl FnMut(usize, usize, f64),
    ) {
        let om = [p[3], p[4], p[5]];
        let spin = om != [0.0; 3];
        let mut buf: Vec<(usize, [f64; 3])> = Vec::with_capacity(32);
        for pt in &self.points {
            if pt.n.is_empty() {
                continue;
            }
            let X = pt.position(u);
            let v = pt.velocity(X, p);
            if spin {
                pt.a_columns(X, &mut buf);
            }
            for &(j, c) in &pt.n {
                let m = cross(c, v);
                for d in 0..3 {
                    if m[d] != 0.0 {
                        f(3 + d, j, pt.w * m[d]);
                    }
                }
                if spin {
                    let a = cross(om, c);
                    for &(i, col) in &buf {
                        let e = pt.w * dot(col, a);
                        if e != 0.0 {
                            f(i, j, e);
                        }
                    }
                }
            }
        }
    }

    /// Centrifugal term $c(u; p_0, p_1)_j = \frac12p_0^\top\partial_{u_j}M(u)p_1$ into `out`
    /// ($n_f$ entries, overwritten).
    pub(crate) fn centrifugal(&self, u: &[f64], p0: &[f64], p1: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|v| *v = 0.0);
        let (w0, w1) = ([p0[3], p0[4], p0[5]], [p1[3], p1[4], p1[5]]);
        for pt in &self.points {
            if pt.n.is_empty() {
                continue;
            }
            let X = pt.position(u);
            let v0 = pt.velocity(X, p0);
            let v1 = pt.velocity(X, p1);
            // (ω0 × n)·V1 = n·(V1 × ω0)
            let a = cross(v1, w0);
            let b = cross(v0, w1);
            let s = 0.5 * pt.w;
            for &(j, c) in &pt.n {
                out[j] += s * (dot(c, a) + dot(c, b));
            }
        }
    }

    /// Calls `f(j, l, v)` for $\partial c_j/\partial u_l = \sum_kw_k(\omega\times n_{kj})\cdot
    /// (\omega\times n_{kl})$ (continuous case $p_0 = p_1 = p$).
    pub(crate) fn for_each_centrifugal_u(&self, p: &[f64], f: impl FnMut(usize, usize, f64)) {
        self.for_each_centrifugal_u2(p, p, f)
    }

    /// Calls `f(j, l, v)` for $\partial c_j(u; p_0, p_1)/\partial u_l =
    /// \frac12\sum_kw_k\big[(\omega_0\times n_{kj})\cdot(\omega_1\times n_{kl}) +
    /// (\omega_1\times n_{kj})\cdot(\omega_0\times n_{kl})\big]$.
    pub(crate) fn for_each_centrifugal_u2(
        &self,
        p0: &[f64],
        p1: &[f64],
        mut f: impl FnMut(usize, usize, f64),
    ) {
        let (w0, w1) = ([p0[3], p0[4], p0[5]], [p1[3], p1[4], p1[5]]);
        if w0 == [0.0; 3] || w1 == [0.0; 3] {
            return;
        }
        let mut ds: Vec<(usize, [f64; 3], [f64; 3])> = Vec::with_capacity(16);
        for pt in &self.points {
            ds.clear();
            ds.extend(pt.n.iter().map(|&(j, c)| (j, cross(w0, c), cross(w1, c))));
            for &(j, a0, a1) in &ds {
                for &(l, b0, b1) in &ds {
                    let v = 0.5 * pt.w * (dot(a0, b1) + dot(a1, b0));
                    if v != 0.0 {
                        f(j, l, v);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::spatial::floating_body::PointShape3d;

    fn points() -> (Vec<MassPoint3d>, usize) {
        let mk =
            |x: f64, w: f64, rot: f64, n: [Vec<(usize, f64)>; 3], phi: [Vec<(usize, f64)>; 3]| {
                MassPoint3d {
                    x: [x, 0.1 * x, -0.2],
                    mass: w,
                    inertia: [
                        [rot, 0.01, 0.0],
                        [0.01, 0.3 * rot, 0.0],
                        [0.0, 0.0, 0.2 * rot],
                    ],
                    shape: PointShape3d { n, phi },
                }
            };
        let pts = vec![
            mk(
                0.3,
                1.5,
                0.1,
                [vec![(0, 0.5)], vec![(1, 0.7), (2, -0.2)], vec![(3, 0.4)]],
                [vec![(2, 0.3)], vec![], vec![(1, 1.1)]],
            ),
            mk(
                0.8,
                0.7,
                0.0,
                [
                    vec![(0, 1.0), (3, 0.1)],
                    vec![(2, 0.9)],
                    vec![(1, -0.6), (3, 0.8)],
                ],
                [vec![], vec![], vec![]],
            ),
        ];
        (pts, 4)
    }

    fn state() -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let u = vec![0.05, -0.1, 0.2, 0.03];
        let p0 = vec![0.3, -0.2, 0.1, 0.7, -1.1, 0.4, 0.2, -0.3, 0.5, 0.1];
        let p1 = vec![-0.1, 0.4, 0.2, 0.2, 0.9, -0.6, -0.4, 0.1, 0.3, -0.2];
        (u, p0, p1)
    }

    fn dense_mass(fi: &FullInertia3d, u: &[f64]) -> Vec<Vec<f64>> {
        let nv = fi.n_v();
        let mut m = vec![vec![0.0; nv]; nv];
        fi.for_each_mass(u, |i, j, v| m[i][j] += v);
        m
    }

    /// π = M(u) p, T = ½ pᵀ M p, and ∂π/∂u, c, ∂c/∂u against central differences
    /// (step 1e-6, error O(h²) ≈ 1e-11 on O(1) values: asserted 1e-8).
    #[test]
    fn operators_are_consistent() {
        let (pts, n_f) = points();
        let fi = FullInertia3d::new(&pts, n_f);
        let (u, p0, p1) = state();
        let nv = fi.n_v();
        let m = dense_mass(&fi, &u);
        let mut pi = vec![0.0; nv];
        fi.momentum(&u, &p0, &mut pi);
        for i in 0..nv {
            let mp: f64 = (0..nv).map(|j| m[i][j] * p0[j]).sum();
            assert!((mp - pi[i]).abs() < 1e-13, "π_{i}");
            for j in 0..nv {
                assert!((m[i][j] - m[j][i]).abs() < 1e-14);
            }
        }
        let t: f64 = 0.5 * (0..nv).map(|i| pi[i] * p0[i]).sum::<f64>();
        assert!((t - fi.kinetic(&u, &p0)).abs() < 1e-13);
        let (pv, pw) = fi.rigid_momenta(&u, &p0);
        for d in 0..3 {
            assert!((pv[d] - pi[d]).abs() < 1e-13 && (pw[d] - pi[3 + d]).abs() < 1e-13);
        }
        let h = 1e-6;
        let mut du = vec![vec![0.0; n_f]; nv];
        fi.for_each_momentum_u(&u, &p0, |i, j, v| du[i][j] += v);
        let mut c = vec![0.0; n_f];
        fi.centrifugal(&u, &p0, &p1, &mut c);
        let mut dc = vec![vec![0.0; n_f]; n_f];
        fi.for_each_centrifugal_u(&p0, |j, l, v| dc[j][l] += v);
        let mut c00 = vec![0.0; n_f];
        fi.centrifugal(&u, &p0, &p0, &mut c00);
        for j in 0..n_f {
            let (mut up, mut um) = (u.clone(), u.clone());
            up[j] += h;
            um[j] -= h;
            let (mut a, mut b) = (vec![0.0; nv], vec![0.0; nv]);
            fi.momentum(&up, &p0, &mut a);
            fi.momentum(&um, &p0, &mut b);
            for i in 0..nv {
                assert!(
                    ((a[i] - b[i]) / (2.0 * h) - du[i][j]).abs() < 1e-8,
                    "∂π{i}/∂u{j}"
                );
            }
            // c_j = ½ p0ᵀ ∂_j M p1
            let (mp, mm) = (dense_mass(&fi, &up), dense_mass(&fi, &um));
            let mut cj = 0.0;
            for i in 0..nv {
                for k in 0..nv {
                    cj += 0.5 * p0[i] * (mp[i][k] - mm[i][k]) / (2.0 * h) * p1[k];
                }
            }
            assert!((cj - c[j]).abs() < 1e-8, "c_{j}");
            let (mut ca, mut cb) = (vec![0.0; n_f], vec![0.0; n_f]);
            fi.centrifugal(&up, &p0, &p0, &mut ca);
            fi.centrifugal(&um, &p0, &p0, &mut cb);
            for l in 0..n_f {
                assert!(((ca[l] - cb[l]) / (2.0 * h) - dc[l][j]).abs() < 1e-8);
            }
        }
        let mut dc2 = vec![vec![0.0; n_f]; n_f];
        fi.for_each_centrifugal_u2(&p0, &p1, |j, l, v| dc2[j][l] += v);
        for l in 0..n_f {
            let (mut up, mut um) = (u.clone(), u.clone());
            up[l] += h;
            um[l] -= h;
            let (mut ca, mut cb) = (vec![0.0; n_f], vec![0.0; n_f]);
            fi.centrifugal(&up, &p0, &p1, &mut ca);
            fi.centrifugal(&um, &p0, &p1, &mut cb);
            for j in 0..n_f {
                assert!(
                    ((ca[j] - cb[j]) / (2.0 * h) - dc2[j][l]).abs() < 1e-8,
                    "∂c{j}/∂u{l}"
                );
            }
        }
        // M quadratic in u: M(u1) − M(u0) = Σ_j ∂_j M(u_m) Δu_j, tested through
        // p0ᵀ(M(u1) − M(u0))p1 = 2 c(u_m; p0, p1)·Δu.
        let u1: Vec<f64> = u.iter().map(|v| -0.7 * v + 0.02).collect();
        let um: Vec<f64> = u.iter().zip(&u1).map(|(a, b)| 0.5 * (a + b)).collect();
        let (m0, m1) = (dense_mass(&fi, &u), dense_mass(&fi, &u1));
        let mut lhs = 0.0;
        for i in 0..nv {
            for k in 0..nv {
                lhs += p0[i] * (m1[i][k] - m0[i][k]) * p1[k];
            }
        }
        fi.centrifugal(&um, &p0, &p1, &mut c);
        let rhs: f64 = 2.0 * (0..n_f).map(|j| c[j] * (u1[j] - u[j])).sum::<f64>();
        assert!(
            (lhs - rhs).abs() < 1e-13 * (1.0 + lhs.abs()),
            "{lhs} vs {rhs}"
        );
    }
}
