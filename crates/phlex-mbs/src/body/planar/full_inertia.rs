//! Deformation-dependent inertia of a planar floating body (issue 3 §1): the mass
//! operator $M(u_f)$ of the mass points at their *deformed* body-frame positions
//! $X_k = x_k + N_k u_f$ (Kane–Ryan–Banerjee 1987), instead of the constant operator (37)
//! of paper 000 §4.3.
//!
//! **Kinetic energy.** With $p = (v_P, \omega, v_f, \sigma)$ the body-frame velocity of
//! mass point $k$ is
//! $$V_k = A_k(u_f)\,p = v_P + \omega\,\hat z\times(x_k + N_k u_f) + N_k v_f ,\tag{F1}$$
//! and $T = \frac12\sum_k w_k|V_k|^2 + \frac12\sum_k I_k(\omega + n_{r,k}v_f)^2
//! = \frac12 p^\top M(u_f)\,p$. $A_k$ depends on $u_f$ only through its $\omega$ column,
//! $\partial A_k/\partial u_j = d_{kj}e_\omega^\top$ with $d_{kj} = \hat z\times N_k e_j$, so
//! $M(u_f)$ is a **quadratic** polynomial in $u_f$.
//!
//! **Momentum form** (the one implemented). Let $\pi = M(u_f)p$ (linear momentum $\pi_v$
//! and angular momentum $\pi_\omega$ about $P$ in the body frame, elastic momenta $\pi_f$,
//! and $C\sigma$). Hamel's equations on $SE(2)\times\mathbb R^{n_f}$ read
//! $$\dot q = J_{qp}(\theta)\,p,\qquad
//!   \dot\pi = -J_{qp}^\top z_q + J_{pp}(\pi_v)\,p + Bu,\qquad
//!   z_q = \partial_q H\big|_\pi = \partial_q V - \tfrac12 p^\top\partial_q M\,p ,\tag{F2}$$
//! with the kinematic block $J_{qp}$ of [`crate::body::planar::floating_body`] and
//! $J_{pp}$ = the rigid gyroscopic pair $J[v_P,\omega] = S(\pi_v)$,
//! $J[\omega, v_P] = -S(\pi_v)^\top$ (the momentum, not the $\hat p_t$ of eq. (13)) plus
//! $\pm D$ and the stiffening pair $\pm D_{nl}(u_f)$; there is no flexible gyroscopic
//! operator: the transport, Coriolis and centrifugal forces on the elastic coordinates all
//! come from $-\partial_{u_f}H|_\pi$ and $\dot\pi_f$. In descriptor form (F2) is
//! $$E(x)\dot x = J(x)z + Bu,\qquad
//!   E(x) = \frac{\partial(q,\pi)}{\partial(q,p)} =
//!   \begin{bmatrix}I & 0\\ \partial_q\pi & M(u_f)\end{bmatrix},\qquad z = (z_q, p),\tag{F3}$$
//! a quasilinear pHDAE with $J$ skew and $E^\top z = (z_q + (\partial_q\pi)^\top p,\ Mp) =
//! (\partial_q V + \frac12 p^\top\partial_q M p,\ Mp) = \nabla H$ ($E$ is not symmetric).
//! It is equivalent to the symmetric form with $E = \operatorname{diag}(I, M(u_f))$,
//! $\hat z_q = \partial_q V + \frac12 p^\top\partial_q Mp$ and the extra skew block
//! $\Gamma^\top - \Gamma$, $\Gamma = \sum_j(\partial_{u_j}M\,p)\,e_{v_{f,j}}^\top$, in $J_{pp}$:
//! substitute $\dot\pi = M\dot p + \Gamma p$ in (F2). Projected on $N_k$, (F2) is Newton's
//! law of every mass point, $\sum_k w_k N_k^\top(\dot V_k + \omega\hat z\times V_k) =$
//! forces; for a beam spinning at $\Omega$ it contains the centrifugal force
//! $\rho A\,\Omega^2(x + u_f)$, i.e. the **softening** $+\rho A\Omega^2 u_f^y$ absent from the
//! constant operator.
//!
//! Centrifugal term: $c_j(u; p_0, p_1) = \frac12 p_0^\top\partial_{u_j}M(u)\,p_1 =
//! \frac12\sum_k w_k\big[\omega_0\,d_{kj}\cdot V_k(u, p_1) + \omega_1\,d_{kj}\cdot V_k(u, p_0)\big]$,
//! so $z_{u_f} = \partial_{u_f}V - c(u_f; p, p)$.
//!
//! **Discrete gradient** (exact energy balance). The midpoint step of
//! [`phlex_solve::integrators::midpoint::nonlinear`] solves, for a body with full inertia,
//! $$q_1 - q_0 = hJ_{qp}(\theta_m)\bar p,\qquad
//!   \pi(x_1) - \pi(x_0) = h\big[-J_{qp}^\top\bar z_q + J_{pp}(\bar\pi_v, u_m)\bar p + Bu\big],
//!   \tag{F4}$$
//! with $\bar p = (p_0 + p_1)/2$, $\bar\pi_v = (\pi_v(x_0) + \pi_v(x_1))/2$ and
//! $$\bar z_q = \overline{\nabla}V - c(u_m; p_0, p_1)\ \text{(in the $u_f$ rows)},\tag{F5}$$
//! $\overline\nabla V$ Gonzalez's discrete gradient of the gravity potential. Because $M$
//! is quadratic in $u_f$, $M(u_1) - M(u_0) = \sum_j\partial_{u_j}M(u_m)\,\Delta u_j$ exactly,
//! and $\Delta T = \bar p^\top\Delta\pi - \frac12 p_0^\top\Delta M\,p_1$ (expand with $M$
//! symmetric), so $\bar z^\top(\Delta q, \Delta\pi) = \Delta H$ identically and, $J$ being
//! skew, $H_1 - H_0 = h\,\bar y^\top u$ to the Newton tolerance. Since (F4) is written in
//! momenta, a free body whose linear momentum vanishes keeps $\pi_v = 0$ exactly
//! ($(I + \frac h2\bar\omega\hat z\times)\pi_{v,1} = (I - \frac h2\bar\omega\hat z\times)\pi_{v,0}$)
//! and then $\Delta\pi_\omega = -hS(\bar\pi_v)\cdot\bar v_P = 0$: its angular momentum is
//! conserved to the Newton tolerance too. (With a translating body, the angle update
//! $\theta_1 = \theta_0 + h\bar\omega$ rotates the momentum with an $O(h^3)$ error per step.)
//!
//! **Ports.** For consistency with the transport (F1), the port maps (39) use the deformed
//! port position too: the output of port $a$ is $v_P + \omega\hat z\times(x_a + N_a u_f) +
//! N_a v_f$, the time derivative of the deformed port position (so the velocity
//! constraints of joints are the derivatives of their position constraints); $B(x)$ then
//! depends on $u_f$ through the $\omega$ entries of the force columns (exact Jacobian in
//! [`crate::Multibody::rhs_jacobian`]). The constant [`crate::PlanarBody::mass_matrix`]
//! is $M(0)$.
//!
//! **Other integrators.** Radau IIA needs a constant mass matrix: [`phlex_solve::PhDae`] uses the
//! equivalent form with identity mass in the velocity rows and
//! $F_v = M_{vv}(u_f)^{-1}(f_v - \partial_{u_f}\pi_v\,v_f)$.
use phlex_core::Triplets;

use super::floating_body::MassPoint;

/// The mass points of a body with deformation-dependent inertia and the operations of
/// the module documentation (all on local slices: `u` the elastic coefficients, `p` the
/// co-energy variables $(v_P, \omega, v_f, \dots)$).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FullInertia {
    points: Vec<MassPoint>,
    n_f: usize,
}

#[inline]
fn dot(v: &[(usize, f64)], u: &[f64]) -> f64 {
    v.iter().map(|&(i, a)| a * u[i]).sum()
}

impl FullInertia {
    pub(crate) fn new(points: &[MassPoint], n_f: usize) -> Self {
        Self {
            points: points.to_vec(),
            n_f,
        }
    }

    /// Deformed body-frame position $X_k$.
    #[inline]
    fn position(pt: &MassPoint, u: &[f64]) -> [f64; 2] {
        [
            pt.x[0] + dot(&pt.shape.nx, u),
            pt.x[1] + dot(&pt.shape.ny, u),
        ]
    }

    /// Body-frame velocity (F1) of a point at deformed position `X`.
    #[inline]
    fn velocity(pt: &MassPoint, X: [f64; 2], p: &[f64]) -> [f64; 2] {
        let vf = &p[3..];
        [
            p[0] - p[2] * X[1] + dot(&pt.shape.nx, vf),
            p[1] + p[2] * X[0] + dot(&pt.shape.ny, vf),
        ]
    }

    /// Calls `f(j, d)` for every elastic coefficient `j` moving the point, with
    /// $d = \hat z\times N e_j$ (its contribution).
    #[inline]
    fn for_each_d(pt: &MassPoint, mut f: impl FnMut(usize, [f64; 2])) {
        for &(j, a) in &pt.shape.nx {
            f(j, [0.0, a]);
        }
        for &(j, a) in &pt.shape.ny {
            f(j, [-a, 0.0]);
        }
    }

    /// Calls `f(i, a_x, a_y)` for the entries of the columns of $A_k(u)$ (rows x, y of
    /// (F1) over the local co-energy index `i`).
    #[inline]
    fn for_each_a(pt: &MassPoint, X: [f64; 2], mut f: impl FnMut(usize, f64, f64)) {
        f(0, 1.0, 0.0);
        f(1, 0.0, 1.0);
        f(2, -X[1], X[0]);
        for &(i, a) in &pt.shape.nx {
            f(3 + i, a, 0.0);
        }
        for &(i, a) in &pt.shape.ny {
            f(3 + i, 0.0, a);
        }
    }

    /// Kinetic energy $\frac12 p^\top M(u)p$.
    pub(crate) fn kinetic(&self, u: &[f64], p: &[f64]) -> f64 {
        let mut t = 0.0;
        for pt in &self.points {
            let v = Self::velocity(pt, Self::position(pt, u), p);
            t += 0.5 * pt.mass * (v[0] * v[0] + v[1] * v[1]);
            if pt.rotary_inertia != 0.0 {
                let b = p[2] + dot(&pt.shape.nr, &p[3..]);
                t += 0.5 * pt.rotary_inertia * b * b;
            }
        }
        t
    }

    /// Momentum $\pi = M(u)p$ of the velocity part ($3 + n_f$ entries) into `out`.
    pub(crate) fn momentum(&self, u: &[f64], p: &[f64], out: &mut [f64]) {
        out[..3 + self.n_f].iter_mut().for_each(|v| *v = 0.0);
        for pt in &self.points {
            let X = Self::position(pt, u);
            let v = Self::velocity(pt, X, p);
            let w = pt.mass;
            Self::for_each_a(pt, X, |i, ax, ay| out[i] += w * (ax * v[0] + ay * v[1]));
            if pt.rotary_inertia != 0.0 {
                let b = pt.rotary_inertia * (p[2] + dot(&pt.shape.nr, &p[3..]));
                out[2] += b;
                for &(i, a) in &pt.shape.nr {
                    out[3 + i] += a * b;
                }
            }
        }
    }

    /// Linear momentum $\pi_v$ (body frame).
    pub(crate) fn linear_momentum(&self, u: &[f64], p: &[f64]) -> [f64; 2] {
        let mut s = [0.0; 2];
        for pt in &self.points {
            let v = Self::velocity(pt, Self::position(pt, u), p);
            s[0] += pt.mass * v[0];
            s[1] += pt.mass * v[1];
        }
        s
    }

    /// Pushes $M(u)$ (velocity block, $(3 + n_f)^2$) at `(r0, c0)`.
    pub(crate) fn push_mass(&self, u: &[f64], t: &mut Triplets, r0: usize, c0: usize) {
        let mut col: Vec<(usize, f64, f64)> = Vec::with_capacity(16);
        for pt in &self.points {
            let X = Self::position(pt, u);
            col.clear();
            Self::for_each_a(pt, X, |i, ax, ay| col.push((i, ax, ay)));
            let w = pt.mass;
            for &(i, ax, ay) in &col {
                for &(j, bx, by) in &col {
                    let v = w * (ax * bx + ay * by);
                    if v != 0.0 {
                        t.push(r0 + i, c0 + j, v);
                    }
                }
            }
            if pt.rotary_inertia != 0.0 {
                let mut b: Vec<(usize, f64)> = vec![(2, 1.0)];
                b.extend(pt.shape.nr.iter().map(|&(i, v)| (3 + i, v)));
                for &(i, a) in &b {
                    for &(j, c) in &b {
                        t.push(r0 + i, c0 + j, pt.rotary_inertia * a * c);
                    }
                }
            }
        }
    }

    /// Calls `f(i, j, v)` for the entries $v = \partial\pi_i/\partial u_j$ of
    /// $\partial_u(M(u)p) = \sum_k w_k[e_\omega\,d_{kj}\cdot V_k + \omega A_k^\top d_{kj}]$.
    pub(crate) fn for_each_momentum_u(
        &self,
        u: &[f64],
        p: &[f64],
        mut f: impl FnMut(usize, usize, f64),
    ) {
        let om = p[2];
        let mut col: Vec<(usize, f64, f64)> = Vec::with_capacity(16);
        for pt in &self.points {
            let X = Self::position(pt, u);
            let v = Self::velocity(pt, X, p);
            let w = pt.mass;
            col.clear();
            Self::for_each_a(pt, X, |i, ax, ay| col.push((i, ax, ay)));
            Self::for_each_d(pt, |j, d| {
                f(2, j, w * (d[0] * v[0] + d[1] * v[1]));
                if om != 0.0 {
                    for &(i, ax, ay) in &col {
                        let e = w * om * (d[0] * ax + d[1] * ay);
                        if e != 0.0 {
                            f(i, j, e);
                        }
                    }
                }
            });
        }
    }

    /// Centrifugal term $c(u; p_0, p_1)_j = \frac12 p_0^\top\partial_{u_j}M(u)\,p_1$ into
    /// `out` ($n_f$ entries, overwritten).
    pub(crate) fn centrifugal(&self, u: &[f64], p0: &[f64], p1: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|v| *v = 0.0);
        let (w0, w1) = (p0[2], p1[2]);
        for pt in &self.points {
            let X = Self::position(pt, u);
            let v0 = Self::velocity(pt, X, p0);
            let v1 = Self::velocity(pt, X, p1);
            let w = 0.5 * pt.mass;
            Self::for_each_d(pt, |j, d| {
                out[j] +=
                    w * (w0 * (d[0] * v1[0] + d[1] * v1[1]) + w1 * (d[0] * v0[0] + d[1] * v0[1]));
            });
        }
    }

    /// Calls `f(j, l, v)` for $\partial c_j/\partial u_l = \omega^2\sum_k w_k\,d_{kj}\cdot d_{kl}$
    /// (continuous case $p_0 = p_1 = p$).
    pub(crate) fn for_each_centrifugal_u(&self, p: &[f64], mut f: impl FnMut(usize, usize, f64)) {
        let om2 = p[2] * p[2];
        if om2 == 0.0 {
            return;
        }
        let mut ds: Vec<(usize, [f64; 2])> = Vec::with_capacity(8);
        for pt in &self.points {
            ds.clear();
            Self::for_each_d(pt, |j, d| ds.push((j, d)));
            for &(j, a) in &ds {
                for &(l, b) in &ds {
                    let v = pt.mass * om2 * (a[0] * b[0] + a[1] * b[1]);
                    if v != 0.0 {
                        f(j, l, v);
                    }
                }
            }
        }
    }

    /// $\partial\pi_v/\partial u_j = \omega\sum_k w_k d_{kj}$ (2-vector per elastic
    /// coefficient), accumulated into `out` ($n_f$ entries, overwritten).
    pub(crate) fn linear_momentum_u(&self, p: &[f64], out: &mut [[f64; 2]]) {
        out.iter_mut().for_each(|v| *v = [0.0; 2]);
        let om = p[2];
        for pt in &self.points {
            let w = pt.mass * om;
            Self::for_each_d(pt, |j, d| {
                out[j][0] += w * d[0];
                out[j][1] += w * d[1];
            });
        }
    }

    /// Calls `f(i, v)` for the row $\partial\pi_{v,c}/\partial p_i$ of component `c`
    /// (0: x, 1: y) at `u`: $\sum_k w_k\,(A_k(u))_{c,i}$.
    pub(crate) fn linear_momentum_p(&self, u: &[f64], c: usize, mut f: impl FnMut(usize, f64)) {
        for pt in &self.points {
            let X = Self::position(pt, u);
            let w = pt.mass;
            Self::for_each_a(pt, X, |i, ax, ay| {
                let v = if c == 0 { ax } else { ay };
                if v != 0.0 {
                    f(i, w * v);
                }
            });
        }
    }
}
