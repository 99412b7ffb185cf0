//! The special Euclidean group $SE(3) = SO(3)\ltimes\mathbb R^3$ (seed 001 §3.3–3.4 and
//! summary §2, which corrects the extracted text: the semidirect product is used
//! throughout).
//!
//! | operation | formula (q = (R, r), u = (ω, ν), f = (f_ω, f_ν)) |
//! |---|---|
//! | product | $(R_1,r_1)(R_2,r_2) = (R_1R_2,\ r_1 + R_1r_2)$ |
//! | inverse | $(R, r)^{-1} = (R^\top, -R^\top r)$ |
//! | velocity (eq. (12)) | $u = (\,(R^\top\dot R)^\vee,\ R^\top\dot r\,)$ |
//! | $T_eL_q(u)$ | $(R\tilde\omega,\ R\nu)$ |
//! | $T^*_eL_q(F_R, F_r)$ | $(\,\mathrm{vee}(R^\top F_R - F_R^\top R),\ R^\top F_r\,)$ |
//! | $\mathrm{Ad}_q u$ (eq. (13)) | $(R\omega,\ R\nu - (R\omega)\times r)$ |
//! | $\mathrm{Ad}^*_q f$ (eq. (14)) | $(R^\top(f_\omega - r\times f_\nu),\ R^\top f_\nu)$ |
//! | $\mathrm{ad}_{u_1}u_2$ | $(\omega_1\times\omega_2,\ \omega_1\times\nu_2 - \omega_2\times\nu_1)$ |
//! | $\mathrm{ad}^*_u p$ (eq. (15)) | $(p_\omega\times\omega + p_\nu\times\nu,\ p_\nu\times\omega)$ |
//! | exp | $(\exp\tilde\omega,\ V(\omega)\nu)$ |
//!
//! $\mathrm{Ad}^*_q = (\mathrm{Ad}_q)^\top$ and $\mathrm{ad}^*_u = (\mathrm{ad}_u)^\top$ as
//! matrices in the dual bases; the spatial momentum of a body is
//! $\mathrm{Ad}^*_{q^{-1}}p$ (summary §2).
use super::mat3::{
    add, cross, from_row_major, hat, inverse, lin_comb, mat_mul, mat_t_vec, mat_vec, scale,
    store_row_major, sub, transpose, vee, Mat3, Vec3, IDENTITY3,
};
use super::mat6::{self, join, split, Mat6, Vec6};
use super::so3;

const ZERO3: Mat3 = [[0.0; 3]; 3];

/// An element $q = (R, r)$ of $SE(3)$; as a homogeneous matrix $\begin{bmatrix}R & r\\ 0 & 1\end{bmatrix}$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Se3 {
    /// Rotation $R \in SO(3)$.
    pub R: Mat3,
    /// Translation $r \in \mathbb R^3$.
    pub r: Vec3,
}

impl Default for Se3 {
    fn default() -> Self {
        Self::identity()
    }
}

impl Se3 {
    /// The identity $e = (E, 0)$.
    pub fn identity() -> Self {
        Self {
            R: IDENTITY3,
            r: [0.0; 3],
        }
    }
    /// $(R, r)$.
    pub fn new(R: Mat3, r: Vec3) -> Self {
        Self { R, r }
    }
    /// Pure translation $(E, r)$.
    pub fn translation(r: Vec3) -> Self {
        Self { R: IDENTITY3, r }
    }
    /// Pure rotation $(R, 0)$.
    pub fn rotation(R: Mat3) -> Self {
        Self { R, r: [0.0; 3] }
    }
    /// Group product $q_1 q_2 = (R_1R_2, r_1 + R_1 r_2)$.
    pub fn mul(&self, o: &Se3) -> Se3 {
        Se3 {
            R: mat_mul(&self.R, &o.R),
            r: add(self.r, mat_vec(&self.R, o.r)),
        }
    }
    /// Inverse $(R^\top, -R^\top r)$.
    pub fn inverse(&self) -> Se3 {
        let Rt = transpose(&self.R);
        Se3 {
            R: Rt,
            r: scale(-1.0, mat_vec(&Rt, self.r)),
        }
    }
    /// Action on a point: $R x + r$.
    pub fn act(&self, x: Vec3) -> Vec3 {
        add(mat_vec(&self.R, x), self.r)
    }
    /// Homogeneous 4×4 matrix.
    pub fn to_homogeneous(&self) -> [[f64; 4]; 4] {
        let mut H = [[0.0; 4]; 4];
        for i in 0..3 {
            H[i][..3].copy_from_slice(&self.R[i]);
            H[i][3] = self.r[i];
        }
        H[3][3] = 1.0;
        H
    }
    /// From a homogeneous 4×4 matrix (the last row is ignored).
    pub fn from_homogeneous(H: &[[f64; 4]; 4]) -> Se3 {
        let mut R = [[0.0; 3]; 3];
        for i in 0..3 {
            R[i].copy_from_slice(&H[i][..3]);
        }
        Se3 {
            R,
            r: [H[0][3], H[1][3], H[2][3]],
        }
    }
    /// Coordinates used for storage: $R$ row-major (9) followed by $r$ (3).
    pub fn to_coords(&self, x: &mut [f64]) {
        store_row_major(&self.R, x);
        x[9..12].copy_from_slice(&self.r);
    }
    /// Inverse of [`Se3::to_coords`] (reads 12 numbers).
    pub fn from_coords(x: &[f64]) -> Se3 {
        Se3 {
            R: from_row_major(x),
            r: [x[9], x[10], x[11]],
        }
    }
    /// Exponential $\exp(\omega, \nu) = (\exp\tilde\omega, V(\omega)\nu)$ (summary §2).
    pub fn exp(u: &Vec6) -> Se3 {
        let (w, v) = split(u);
        Se3 {
            R: so3::exp(w),
            r: mat_vec(&so3::dexp_right(w), v),
        }
    }
    /// Logarithm, the inverse of [`Se3::exp`] for $|\omega| < \pi$.
    pub fn log(&self) -> Vec6 {
        let w = so3::log(&self.R);
        join(w, mat_vec(&so3::dexp_right_inv(w), self.r))
    }
    /// The retraction used by the Lie-group midpoint integrator:
    /// $\tau(\omega,\nu) = (\mathrm{cay}(\omega),\ (E + \tfrac12\tilde\omega)\nu)$. With it the
    /// midpoint Lie–Poisson step conserves the spatial momentum exactly
    /// (see `phlex_ephs::numerics::lie_midpoint`).
    pub fn cayley_retraction(u: &Vec6) -> Se3 {
        let (w, v) = split(u);
        Se3 {
            R: so3::cayley(w),
            r: add(v, scale(0.5, cross(w, v))),
        }
    }
    /// $\mathrm{Ad}_q u = (R\omega,\ R\nu - (R\omega)\times r)$ (seed 001 eq. (13)).
    pub fn Ad(&self, u: &Vec6) -> Vec6 {
        let (w, v) = split(u);
        let Rw = mat_vec(&self.R, w);
        join(Rw, sub(mat_vec(&self.R, v), cross(Rw, self.r)))
    }
    /// Matrix of $\mathrm{Ad}_q$: $\begin{bmatrix}R & 0\\ \tilde rR & R\end{bmatrix}$.
    pub fn Ad_matrix(&self) -> Mat6 {
        let rR = mat_mul(&hat(self.r), &self.R);
        mat6::from_blocks(&self.R, &ZERO3, &rR, &self.R)
    }
    /// $\mathrm{Ad}^*_q f = (R^\top(f_\omega - r\times f_\nu),\ R^\top f_\nu)$ (seed 001 eq. (14)),
    /// the transpose of [`Se3::Ad`].
    pub fn Ad_star(&self, f: &Vec6) -> Vec6 {
        let (fw, fv) = split(f);
        join(
            mat_t_vec(&self.R, sub(fw, cross(self.r, fv))),
            mat_t_vec(&self.R, fv),
        )
    }
    /// $\mathrm{Ad}_{q^{-1}} u = (R^\top\omega,\ R^\top(\nu - r\times\omega))$ (summary §2).
    pub fn Ad_inv(&self, u: &Vec6) -> Vec6 {
        let (w, v) = split(u);
        join(
            mat_t_vec(&self.R, w),
            mat_t_vec(&self.R, sub(v, cross(self.r, w))),
        )
    }
    /// $\mathrm{Ad}^*_{q^{-1}} f = (Rf_\omega + r\times(Rf_\nu),\ Rf_\nu)$: body momentum to
    /// spatial momentum (summary §2).
    pub fn Ad_inv_star(&self, f: &Vec6) -> Vec6 {
        let (fw, fv) = split(f);
        let Rfv = mat_vec(&self.R, fv);
        join(add(mat_vec(&self.R, fw), cross(self.r, Rfv)), Rfv)
    }
    /// $T_eL_q(u) = (R\tilde\omega, R\nu)$: body velocity to material velocity
    /// $(\dot R, \dot r)$.
    pub fn TeL(&self, u: &Vec6) -> (Mat3, Vec3) {
        let (w, v) = split(u);
        (mat_mul(&self.R, &hat(w)), mat_vec(&self.R, v))
    }
    /// $T^*_eL_q(F_R, F_r) = (\mathrm{vee}(R^\top F_R - F_R^\top R),\ R^\top F_r)$: a material
    /// force covector ($F_R = \partial V/\partial R$ paired with $\dot R$ by the Frobenius
    /// product) to a body force (summary §2, pitfall 12).
    pub fn TeL_star(&self, F_R: &Mat3, F_r: Vec3) -> Vec6 {
        let A = mat_mul(&transpose(&self.R), F_R);
        let S = lin_comb(1.0, &A, -1.0, &transpose(&A));
        // vee takes the skew part's vector, i.e. ½(S − Sᵀ)^∨ = S^∨ for skew S; here S is
        // skew so vee(S) = (S32, S13, S21).
        join(vee(&S), mat_t_vec(&self.R, F_r))
    }
    /// The left-trivialized velocity $u$ with $\dot q = T_eL_q u$, from a material
    /// velocity $(\dot R, \dot r)$ (seed 001 eq. (12)).
    pub fn TeL_inv(&self, Rdot: &Mat3, rdot: Vec3) -> Vec6 {
        let W = mat_mul(&transpose(&self.R), Rdot);
        join(vee(&W), mat_t_vec(&self.R, rdot))
    }
}

/// Hat map $\mathfrak{se}(3)\to\mathbb R^{4\times4}$: $(\omega,\nu)\mapsto\begin{bmatrix}\tilde\omega & \nu\\ 0 & 0\end{bmatrix}$.
pub fn hat6(u: &Vec6) -> [[f64; 4]; 4] {
    let (w, v) = split(u);
    let W = hat(w);
    let mut H = [[0.0; 4]; 4];
    for i in 0..3 {
        H[i][..3].copy_from_slice(&W[i]);
        H[i][3] = v[i];
    }
    H
}

/// Vee map, inverse of [`hat6`].
pub fn vee6(H: &[[f64; 4]; 4]) -> Vec6 {
    let W = [
        [H[0][0], H[0][1], H[0][2]],
        [H[1][0], H[1][1], H[1][2]],
        [H[2][0], H[2][1], H[2][2]],
    ];
    join(vee(&W), [H[0][3], H[1][3], H[2][3]])
}

/// Lie bracket $\mathrm{ad}_{u_1}u_2 = (\omega_1\times\omega_2,\ \omega_1\times\nu_2 - \omega_2\times\nu_1)$.
pub fn ad(u1: &Vec6, u2: &Vec6) -> Vec6 {
    let (w1, v1) = split(u1);
    let (w2, v2) = split(u2);
    join(cross(w1, w2), sub(cross(w1, v2), cross(w2, v1)))
}

/// Matrix of $\mathrm{ad}_u$: $\begin{bmatrix}\tilde\omega & 0\\ \tilde\nu & \tilde\omega\end{bmatrix}$.
pub fn ad_matrix(u: &Vec6) -> Mat6 {
    let (w, v) = split(u);
    let W = hat(w);
    mat6::from_blocks(&W, &ZERO3, &hat(v), &W)
}

/// $\mathrm{ad}^*_u p = (p_\omega\times\omega + p_\nu\times\nu,\ p_\nu\times\omega)$
/// (seed 001 eq. (15)), the transpose of [`ad`].
pub fn ad_star(u: &Vec6, p: &Vec6) -> Vec6 {
    let (w, v) = split(u);
    let (pw, pv) = split(p);
    join(add(cross(pw, w), cross(pv, v)), cross(pv, w))
}

/// Matrix $K(p)$ with $\mathrm{ad}^*_u p = K(p)\,u$:
/// $K(p) = \begin{bmatrix}\tilde p_\omega & \tilde p_\nu\\ \tilde p_\nu & 0\end{bmatrix}$ (skew).
pub fn ad_star_matrix_in_u(p: &Vec6) -> Mat6 {
    let (pw, pv) = split(p);
    let Pv = hat(pv);
    mat6::from_blocks(&hat(pw), &Pv, &Pv, &ZERO3)
}

/// $\varphi(A) = \sum_{k\ge0} A^k/(k+1)!$ for a 6×6 matrix, by scaling and squaring with
/// $\varphi(2B) = \varphi(B)(e^B + E)/2$, $e^{2B} = (e^B)^2$ (exact to round-off for any
/// norm).
fn phi6(A: &Mat6) -> Mat6 {
    let norm = A.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs())) * 6.0;
    let mut s = 0;
    let mut scale = 1.0;
    while norm * scale > 0.25 {
        scale *= 0.5;
        s += 1;
    }
    let mut B = *A;
    for v in B.iter_mut().flatten() {
        *v *= scale;
    }
    // Taylor series of φ(B) and e^B to 18 terms (‖B‖ ≤ 1/4: remainder < 1e-22).
    let I = mat6::identity();
    let mut phi = I;
    let mut ex = I;
    let mut term = I; // B^k / k!
    for k in 1..18 {
        term = mat6::mat_mul(&term, &B);
        let inv = 1.0 / k as f64;
        for i in 0..6 {
            for j in 0..6 {
                term[i][j] *= inv;
                ex[i][j] += term[i][j];
                phi[i][j] += term[i][j] / (k as f64 + 1.0);
            }
        }
    }
    for _ in 0..s {
        let mut ep = ex;
        for (i, row) in ep.iter_mut().enumerate() {
            row[i] += 1.0;
        }
        phi = mat6::mat_mul(&phi, &ep);
        for v in phi.iter_mut().flatten() {
            *v *= 0.5;
        }
        ex = mat6::mat_mul(&ex, &ex);
    }
    phi
}

/// Left-trivialised tangent map of the exponential:
/// $\exp(\xi)^{-1}\,\mathrm D\exp(\xi)[\delta] = \mathrm{dexp}_{-\xi}\,\delta$ with
/// $\mathrm{dexp}_{-\xi} = \sum_k (-\mathrm{ad}_\xi)^k/(k+1)!$; returned as a 6×6 matrix.
/// Like $\mathrm{ad}_\xi$ it is block lower triangular, with the $SO(3)$ map
/// [`so3::dexp_left`]$(\omega)$ in both diagonal blocks.
pub fn dexp_left(xi: &Vec6) -> Mat6 {
    let mut A = ad_matrix(xi);
    for v in A.iter_mut().flatten() {
        *v = -*v;
    }
    phi6(&A)
}

/// Inverse of [`dexp_left`], from its block lower-triangular form
/// $\begin{bmatrix}D & 0\\ C & D\end{bmatrix}^{-1} = \begin{bmatrix}D^{-1} & 0\\ -D^{-1}CD^{-1} & D^{-1}\end{bmatrix}$;
/// exists for $|\omega| < 2\pi$, `None` if the diagonal block is singular.
pub fn dexp_left_inv(xi: &Vec6) -> Option<Mat6> {
    let T = dexp_left(xi);
    let Di = inverse(&mat6::block(&T, 0, 0))?;
    let C = mat6::block(&T, 1, 0);
    let Ci = mat_mul(&Di, &mat_mul(&C, &Di)).map(|row| row.map(|v| -v));
    Some(mat6::from_blocks(&Di, &ZERO3, &Ci, &Di))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::mat3::dot;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    fn rand6(rng: &mut StdRng, s: f64) -> Vec6 {
        let mut x = [0.0; 6];
        for v in &mut x {
            *v = rng.gen_range(-s..s);
        }
        x
    }
    fn rand_se3(rng: &mut StdRng) -> Se3 {
        Se3::exp(&rand6(rng, 1.5))
    }
    fn dist(a: &Vec6, b: &Vec6) -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max)
    }
    fn mat4_mul(A: &[[f64; 4]; 4], B: &[[f64; 4]; 4]) -> [[f64; 4]; 4] {
        let mut C = [[0.0; 4]; 4];
        for i in 0..4 {
            for j in 0..4 {
                C[i][j] = (0..4).map(|k| A[i][k] * B[k][j]).sum();
            }
        }
        C
    }
    /// $\max_{ij}|A_{ij} - B_{ij}|$.
    fn max_diff4(A: &[[f64; 4]; 4], B: &[[f64; 4]; 4]) -> f64 {
        A.iter()
            .flatten()
            .zip(B.iter().flatten())
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max)
    }
    fn dot6(a: &Vec6, b: &Vec6) -> f64 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn group_axioms_and_homogeneous_form() {
        let mut rng = StdRng::seed_from_u64(10);
        for _ in 0..50 {
            let (a, b, c) = (rand_se3(&mut rng), rand_se3(&mut rng), rand_se3(&mut rng));
            // Associativity and inverse.
            let l = a.mul(&b).mul(&c);
            let r = a.mul(&b.mul(&c));
            let mut xl = [0.0; 12];
            let mut xr = [0.0; 12];
            l.to_coords(&mut xl);
            r.to_coords(&mut xr);
            assert!(xl.iter().zip(&xr).all(|(p, q)| (p - q).abs() < 1e-13));
            let e = a.mul(&a.inverse());
            e.to_coords(&mut xl);
            Se3::identity().to_coords(&mut xr);
            assert!(xl.iter().zip(&xr).all(|(p, q)| (p - q).abs() < 1e-14));
            // The product is the homogeneous matrix product.
            let H = mat4_mul(&a.to_homogeneous(), &b.to_homogeneous());
            assert_eq!(Se3::from_homogeneous(&H).to_homogeneous(), H);
            let ab = a.mul(&b).to_homogeneous();
            assert!(max_diff4(&ab, &H) < 1e-14);
        }
    }

    #[test]
    fn exp_log_and_hat_vee() {
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..100 {
            let u = rand6(&mut rng, 1.7);
            assert_eq!(vee6(&hat6(&u)), u);
            let q = Se3::exp(&u);
            assert!(dist(&q.log(), &u) < 1e-12);
            // exp equals the matrix exponential of hat(u) (Taylor series, 40 terms).
            let Hu = hat6(&u);
            let mut E = [[0.0; 4]; 4];
            let mut T = [[0.0; 4]; 4];
            for i in 0..4 {
                E[i][i] = 1.0;
                T[i][i] = 1.0;
            }
            for k in 1..40 {
                T = mat4_mul(&T, &Hu);
                for v in T.iter_mut().flatten() {
                    *v /= k as f64;
                }
                for i in 0..4 {
                    for j in 0..4 {
                        E[i][j] += T[i][j];
                    }
                }
            }
            let Q = q.to_homogeneous();
            assert!(max_diff4(&Q, &E) < 1e-12);
        }
    }

    #[test]
    fn adjoint_is_conjugation_and_homomorphism() {
        let mut rng = StdRng::seed_from_u64(12);
        for _ in 0..50 {
            let q = rand_se3(&mut rng);
            let p = rand_se3(&mut rng);
            let u = rand6(&mut rng, 1.0);
            let f = rand6(&mut rng, 1.0);
            // Ad_q u = (q û q⁻¹)^∨.
            let C = mat4_mul(
                &mat4_mul(&q.to_homogeneous(), &hat6(&u)),
                &q.inverse().to_homogeneous(),
            );
            assert!(dist(&q.Ad(&u), &vee6(&C)) < 1e-13);
            assert!(dist(&q.Ad(&u), &mat6::mat_vec(&q.Ad_matrix(), &u)) < 1e-14);
            // Ad_{qp} = Ad_q Ad_p, Ad_{q⁻¹} = Ad_q⁻¹, Ad* is the dual.
            assert!(dist(&q.mul(&p).Ad(&u), &q.Ad(&p.Ad(&u))) < 1e-13);
            assert!(dist(&q.Ad_inv(&u), &q.inverse().Ad(&u)) < 1e-13);
            assert!(dist(&q.Ad_inv(&q.Ad(&u)), &u) < 1e-13);
            assert!((dot6(&f, &q.Ad(&u)) - dot6(&q.Ad_star(&f), &u)).abs() < 1e-13);
            assert!(dist(&q.Ad_inv_star(&f), &q.inverse().Ad_star(&f)) < 1e-13);
            // Ad*_a Ad*_b = Ad*_{ba}.
            assert!(dist(&q.Ad_star(&p.Ad_star(&f)), &p.mul(&q).Ad_star(&f)) < 1e-13);
        }
    }

    #[test]
    fn ad_is_bracket_and_derivative_of_Ad() {
        let mut rng = StdRng::seed_from_u64(13);
        for _ in 0..50 {
            let u = rand6(&mut rng, 1.0);
            let v = rand6(&mut rng, 1.0);
            let p = rand6(&mut rng, 1.0);
            // ad_u v = [û, v̂]^∨.
            let (U, V) = (hat6(&u), hat6(&v));
            let UV = mat4_mul(&U, &V);
            let VU = mat4_mul(&V, &U);
            let mut Cm = [[0.0; 4]; 4];
            for i in 0..4 {
                for j in 0..4 {
                    Cm[i][j] = UV[i][j] - VU[i][j];
                }
            }
            assert!(dist(&ad(&u, &v), &vee6(&Cm)) < 1e-14);
            assert!(dist(&ad(&u, &v), &mat6::mat_vec(&ad_matrix(&u), &v)) < 1e-14);
            // ad* is the dual of ad, and linear in u through K(p).
            assert!((dot6(&p, &ad(&u, &v)) - dot6(&ad_star(&u, &p), &v)).abs() < 1e-14);
            assert!(
                dist(
                    &ad_star(&u, &p),
                    &mat6::mat_vec(&ad_star_matrix_in_u(&p), &u)
                ) < 1e-14
            );
            // d/dt Ad_{exp(tu)} v at t = 0 is ad_u v (central differences, h = 1e-5).
            let h = 1e-5;
            let a = Se3::exp(&u.map(|x| x * h)).Ad(&v);
            let b = Se3::exp(&u.map(|x| -x * h)).Ad(&v);
            let mut d = [0.0; 6];
            for k in 0..6 {
                d[k] = (a[k] - b[k]) / (2.0 * h);
            }
            assert!(dist(&d, &ad(&u, &v)) < 1e-9);
        }
    }

    #[test]
    fn tangent_maps_match_finite_differences() {
        let mut rng = StdRng::seed_from_u64(14);
        for _ in 0..30 {
            let q = rand_se3(&mut rng);
            let u = rand6(&mut rng, 1.0);
            // T_eL_q u is d/dt q exp(tu) at t = 0.
            let h = 1e-6;
            let a = q.mul(&Se3::exp(&u.map(|x| x * h)));
            let b = q.mul(&Se3::exp(&u.map(|x| -x * h)));
            let (Rd, rd) = q.TeL(&u);
            for i in 0..3 {
                assert!(((a.r[i] - b.r[i]) / (2.0 * h) - rd[i]).abs() < 1e-8);
                for j in 0..3 {
                    assert!(((a.R[i][j] - b.R[i][j]) / (2.0 * h) - Rd[i][j]).abs() < 1e-8);
                }
            }
            assert!(dist(&q.TeL_inv(&Rd, rd), &u) < 1e-13);
            // T*_eL_q: for V(R, r) = tr(Aᵀ R) + c·r (gradient F_R = A, F_r = c), the body
            // force is d/dt V(q exp(tu)) = ⟨T*_eL_q(F), u⟩.
            let A = [
                [rng.gen_range(-1.0..1.0), 0.3, -0.2],
                [0.1, rng.gen_range(-1.0..1.0), 0.5],
                [-0.4, 0.2, rng.gen_range(-1.0..1.0)],
            ];
            let c = [0.3, -1.2, 0.7];
            let V = |g: &Se3| -> f64 {
                let mut s = dot(c, g.r);
                for i in 0..3 {
                    for j in 0..3 {
                        s += A[i][j] * g.R[i][j];
                    }
                }
                s
            };
            let dV = (V(&a) - V(&b)) / (2.0 * h);
            let F = q.TeL_star(&A, c);
            assert!((dV - dot6(&F, &u)).abs() < 1e-8, "{dV} vs {}", dot6(&F, &u));
        }
    }

    #[test]
    fn dexp_matches_finite_differences_and_inverse() {
        let mut rng = StdRng::seed_from_u64(15);
        for _ in 0..30 {
            let xi = rand6(&mut rng, 2.0);
            let d = rand6(&mut rng, 1.0);
            let h = 1e-6;
            let mut xp = xi;
            let mut xm = xi;
            for k in 0..6 {
                xp[k] += h * d[k];
                xm[k] -= h * d[k];
            }
            let E = Se3::exp(&xi).inverse();
            let (Hp, Hm) = (
                E.mul(&Se3::exp(&xp)).to_homogeneous(),
                E.mul(&Se3::exp(&xm)).to_homogeneous(),
            );
            let mut D = [[0.0; 4]; 4];
            for i in 0..4 {
                for j in 0..4 {
                    D[i][j] = (Hp[i][j] - Hm[i][j]) / (2.0 * h);
                }
            }
            let lhs = vee6(&D);
            let rhs = mat6::mat_vec(&dexp_left(&xi), &d);
            assert!(dist(&lhs, &rhs) < 1e-8, "{lhs:?} {rhs:?}");
            let back = mat6::mat_vec(&dexp_left_inv(&xi).unwrap(), &rhs);
            assert!(dist(&back, &d) < 1e-12);
        }
    }

    #[test]
    fn cayley_retraction_is_a_retraction() {
        let mut rng = StdRng::seed_from_u64(16);
        let u = rand6(&mut rng, 1.0);
        let h = 1e-6;
        let a = Se3::cayley_retraction(&u.map(|x| x * h));
        let b = Se3::cayley_retraction(&u.map(|x| -x * h));
        // τ(0) = e and dτ(0) = id.
        assert_eq!(Se3::cayley_retraction(&[0.0; 6]), Se3::identity());
        let (Ra, Rb) = (a.R, b.R);
        let mut D = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                D[i][j] = (Ra[i][j] - Rb[i][j]) / (2.0 * h);
            }
        }
        let w = vee(&D);
        let v = scale(0.5 / h, sub(a.r, b.r));
        assert!(dist(&join(w, v), &u) < 1e-9);
    }
}
