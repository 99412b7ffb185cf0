//! A floating body in the classical floating frame of reference formulation
//! with Euler parameters (thesis 002 §2.5 and §2.7): mass matrix, quadratic
//! velocity vector, generalized forces of gravity and of the elastic forces.
//!
//! **Coordinates** (eqs. (2.201), (2.328)–(2.329)): `q = (R, θ, q_f)`, the
//! global position `R` of the body origin, the four Euler parameters `θ` and
//! the `n_f` elastic coordinates. A material point is at
//! `r = R + A(θ) ū`, `ū = N q_n = N (q_o + B_e q_f)` (eqs. (2.333)–(2.335)),
//! and `ṙ = L q̇`, `L = [I, −A ũ Ḡ, A N B_e]` (eq. (2.337)).
//!
//! **Inertia invariants.** Everything follows from the integrals, over the
//! body, of products of `ū = ū_o + N B_e q_f` (thesis eqs. (2.341)–(2.376),
//! the "inertia shape integrals" `m`, `N̄`, `S̄_kl`/`J̄_kl` of the summary §2.6).
//! They are stored already reduced to the free coordinates (`B_e` applied):
//!
//! | symbol | definition | size |
//! |---|---|---|
//! | `m` | `∫ρ dV` | 1 |
//! | `Ū_o` | `∫ρ ū_o dV` | 3 |
//! | `P_o` | `∫ρ ū_o ū_oᵀ dV` | 3×3 |
//! | `N̄_f` | `∫ρ N B_e dV` | 3×n_f |
//! | `Y_kl` | `∫ρ ū_{o,k} (N B_e)_l dV` | 1×n_f |
//! | `Z_kl` | `∫ρ (N B_e)_kᵀ (N B_e)_l dV` (so `Z_lk = Z_klᵀ`) | n_f×n_f |
//!
//! From them: first moment `Ū = Ū_o + N̄_f q_f`; second moments
//! `P_kl = ∫ρ ū_k ū_l = P_{o,kl} + (Y_kl + Y_lk) q_f + q_fᵀ Z_kl q_f`;
//! inertia tensor `Ī = tr(P) I − P` (eqs. (2.212)–(2.218), (2.349)–(2.354));
//! `H = ∫ρ ũ N B_e` with rows `H_i = ε_ijk (Y_jk + q_fᵀ Z_jk)` (the thesis's
//! `H`, summary §2.6); `W_kl = ∫ρ ū_k ū̇_l = (Y_kl + q_fᵀ Z_kl) q̇_f`.
//!
//! **Mass matrix** (eqs. (2.206)–(2.211), (2.378)–(2.402)):
//!
//! ```text
//! M = [ m I     −A Ũ Ḡ     A N̄_f       ]
//!     [ ·       Ḡᵀ Ī Ḡ     Ḡᵀ H        ]
//!     [ ·       ·          Σ_k Z_kk    ]
//! ```
//!
//! singular along `(0, θ, 0)` (`Ḡθ = 0`): the normalisation constraint
//! `θᵀθ = 1` must be one of the constraints (see [`super::system`]).
//!
//! **Quadratic velocity vector** `Q_v = (∂T/∂q)ᵀ − Ṁq̇` (eqs. (2.223),
//! (2.437)). The thesis lists every derivative of `M` but no closed form
//! (summary §2.6); here it is evaluated in the equivalent d'Alembert form
//! `Q_v = −∫ρ Lᵀ γ dV` with the quadratic part of the acceleration
//! `r̈ = L q̈ + γ`, `γ = A[ω̄×(ω̄×ū) + 2 ω̄×ū̇]` (using `Ḡ̇θ̇ = 0`):
//!
//! ```text
//! Q_v,R = −A[ω̄×(ω̄×Ū) + 2 ω̄×N̄_f q̇_f]
//! Q_v,θ = −Ḡᵀ[ω̄×(Ī ω̄) + 2(ω̄ tr W − Wᵀ ω̄)]
//! Q_v,f = −Σ_kl [(ω̃²)_kl (Y_lkᵀ + Z_kl q_f) + 2 ω̃_kl Z_kl q̇_f]
//! ```
//!
//! The two forms agree up to a multiple of `(0, θ, 0)`, which the
//! normalisation multiplier absorbs (the thesis's expressions use
//! `ω̄ = Ḡθ̇`, exact only on the unit sphere); for a rigid body with origin
//! at the centre of mass this reduces to eq. (2.236),
//! `Q_v,θ = 2 Ḡ̇ᵀ Ī Ḡ̇ θ` (checked in the tests).
//!
//! **Generalized forces**: gravity `Q_g = ∫ρ Lᵀ g = (m g, Ḡᵀ(Ū × Aᵀg),
//! N̄_fᵀ Aᵀ g)`; elastic and damping forces `−K_ff q_f − R_ff q̇_f` on the
//! elastic rows (constant stiffness, eq. (2.431)).

use faer::{Mat, MatMut};

use phlex_core::geometry::mat3::{
    add, cross, dot, hat, lin_comb, mat_mul, mat_t_vec, mat_vec, scale, trace, vee, Mat3, Vec3,
    IDENTITY3,
};

use super::body_point::BodyPoint;
use super::euler_parameters::{gbar, m34_v, m34t_v, m3_m34, rotation, M34};
use super::ffr_beam::BeamLayout;
use crate::error::{ControlError, Result};

/// Inertia invariants and elastic matrices of a floating body (see the
/// module documentation for the definitions).
#[derive(Debug, Clone)]
pub struct FloatingBody {
    name: String,
    m: f64,
    U0: Vec3,
    P0: Mat3,
    n_f: usize,
    /// columns of `N̄_f`
    Nf: Vec<Vec3>,
    Y: [[Vec<f64>; 3]; 3],
    Z: [[Mat<f64>; 3]; 3],
    z_active: [[bool; 3]; 3],
    Mff: Mat<f64>,
    K: Mat<f64>,
    D: Mat<f64>,
    layout: Option<BeamLayout>,
}

/// Per-evaluation products of the invariants with `q_f`, `q̇_f`.
struct Products {
    U: Vec3,
    Ud: Vec3,
    P: Mat3,
    W: Mat3,
    /// `zq[k][l] = Z_kl q_f`
    zq: [[Vec<f64>; 3]; 3],
}

impl FloatingBody {
    /// Assembles a body from its invariants (used by the rigid-body and beam
    /// builders). Checks sizes, finiteness and `m > 0`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_invariants(
        name: &str,
        m: f64,
        U0: Vec3,
        P0: Mat3,
        Nf: Vec<Vec3>,
        Y: [[Vec<f64>; 3]; 3],
        Z: [[Mat<f64>; 3]; 3],
        K: Mat<f64>,
        D: Mat<f64>,
        layout: Option<BeamLayout>,
    ) -> Result<Self> {
        if !(m > 0.0) || !m.is_finite() {
            return Err(ControlError::InvalidParameter {
                name: format!("{name}: mass"),
                reason: format!("must be finite and > 0, got {m}"),
            });
        }
        let n_f = Nf.len();
        for k in 0..3 {
            for l in 0..3 {
                if Y[k][l].len() != n_f || Z[k][l].nrows() != n_f || Z[k][l].ncols() != n_f {
                    return Err(crate::error::dim_err(
                        &format!("{name}: invariant Y/Z[{k}][{l}]"),
                        n_f,
                        n_f,
                        Z[k][l].nrows(),
                        Z[k][l].ncols(),
                    ));
                }
            }
        }
        for (what, A) in [("K_ff", &K), ("R_ff", &D)] {
            if A.nrows() != n_f || A.ncols() != n_f {
                return Err(crate::error::dim_err(
                    &format!("{name}: {what}"),
                    n_f,
                    n_f,
                    A.nrows(),
                    A.ncols(),
                ));
            }
        }
        let finite = U0.iter().all(|v| v.is_finite())
            && P0.iter().flatten().all(|v| v.is_finite())
            && Nf.iter().flatten().all(|v| v.is_finite());
        if !finite {
            return Err(ControlError::InvalidParameter {
                name: format!("{name}: inertia invariants"),
                reason: "entries must be finite".into(),
            });
        }
        let mut z_active = [[false; 3]; 3];
        let mut Mff = Mat::zeros(n_f, n_f);
        for k in 0..3 {
            for l in 0..3 {
                let z = &Z[k][l];
                z_active[k][l] = (0..n_f).any(|j| (0..n_f).any(|i| z[(i, j)] != 0.0));
            }
            Mff += &Z[k][k];
        }
        Ok(Self {
            name: name.to_string(),
            m,
            U0,
            P0,
            n_f,
            Nf,
            Y,
            Z,
            z_active,
            Mff,
            K,
            D,
            layout,
        })
    }

    /// Body name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of elastic coordinates `n_f`.
    pub fn n_elastic(&self) -> usize {
        self.n_f
    }

    /// Number of generalized coordinates `7 + n_f`.
    pub fn n_coords(&self) -> usize {
        7 + self.n_f
    }

    /// Total mass `m` \[kg\].
    pub fn mass(&self) -> f64 {
        self.m
    }

    /// Constant elastic mass matrix `m_ff = Σ_k Z_kk` (eq. (2.263)).
    pub fn elastic_mass(&self) -> &Mat<f64> {
        &self.Mff
    }

    /// Constant stiffness matrix `K_ff` of the elastic coordinates (eq. (2.431)).
    pub fn stiffness(&self) -> &Mat<f64> {
        &self.K
    }

    /// Damping matrix `R_ff` of the elastic coordinates.
    pub fn damping(&self) -> &Mat<f64> {
        &self.D
    }

    /// Replaces the damping matrix by Rayleigh damping `R_ff = α m_ff + β K_ff`
    /// (thesis 002 §2.6.5).
    pub fn with_rayleigh_damping(mut self, alpha: f64, beta: f64) -> Self {
        let mut D = Mat::zeros(self.n_f, self.n_f);
        for j in 0..self.n_f {
            for i in 0..self.n_f {
                D[(i, j)] = alpha * self.Mff[(i, j)] + beta * self.K[(i, j)];
            }
        }
        self.D = D;
        self
    }

    /// Finite element layout of a beam body (node and element numbering,
    /// free coordinates); `None` for a rigid body.
    pub fn layout(&self) -> Option<&BeamLayout> {
        self.layout.as_ref()
    }

    /// A material point of a beam body at node `node` (its elastic
    /// translations move it). Errors for rigid bodies or unknown nodes.
    pub fn node_point(&self, node: usize) -> Result<BodyPoint> {
        self.require_layout()?.node_point(node)
    }

    /// A material point of a beam body on element `element` at `ξ = x/L ∈ [0, 1]`.
    pub fn element_point(&self, element: usize, xi: f64) -> Result<BodyPoint> {
        self.require_layout()?.element_point(element, xi)
    }

    fn require_layout(&self) -> Result<&BeamLayout> {
        self.layout
            .as_ref()
            .ok_or_else(|| ControlError::InvalidParameter {
                name: format!("body `{}`", self.name),
                reason: "is rigid: it has no finite element nodes; use BodyPoint::fixed".into(),
            })
    }

    /// Checks that a point's elastic indices exist on this body.
    pub(crate) fn check_point(&self, p: &BodyPoint) -> Result<()> {
        if let Some(j) = p.max_index() {
            if j >= self.n_f {
                return Err(ControlError::InvalidParameter {
                    name: format!("point on body `{}`", self.name),
                    reason: format!(
                        "uses elastic coordinate {j}, the body has {} elastic coordinates",
                        self.n_f
                    ),
                });
            }
        }
        Ok(())
    }

    fn products(&self, qf: &[f64], qfd: &[f64]) -> Products {
        let n = self.n_f;
        let mut U = self.U0;
        let mut Ud = [0.0; 3];
        for j in 0..n {
            for k in 0..3 {
                U[k] += self.Nf[j][k] * qf[j];
                Ud[k] += self.Nf[j][k] * qfd[j];
            }
        }
        let zq: [[Vec<f64>; 3]; 3] = std::array::from_fn(|k| {
            std::array::from_fn(|l| {
                if self.z_active[k][l] {
                    let z = &self.Z[k][l];
                    let mut out = vec![0.0; n];
                    for j in 0..n {
                        let qj = qf[j];
                        if qj != 0.0 {
                            for i in 0..n {
                                out[i] += z[(i, j)] * qj;
                            }
                        }
                    }
                    out
                } else {
                    vec![0.0; n]
                }
            })
        });
        let vdot = |a: &[f64], b: &[f64]| -> f64 { a.iter().zip(b).map(|(x, y)| x * y).sum() };
        let mut P = self.P0;
        let mut W = [[0.0; 3]; 3];
        for k in 0..3 {
            for l in 0..3 {
                // P_kl = P0 + (Y_kl + Y_lk)q_f + q_fᵀ Z_kl q_f,  Z_kl q_f = zq[k][l]
                P[k][l] += vdot(&self.Y[k][l], qf) + vdot(&self.Y[l][k], qf) + vdot(qf, &zq[k][l]);
                // W_kl = (Y_kl + q_fᵀ Z_kl) q̇_f, q_fᵀ Z_kl = (Z_lk q_f)ᵀ
                W[k][l] = vdot(&self.Y[k][l], qfd) + vdot(&zq[l][k], qfd);
            }
        }
        Products { U, Ud, P, W, zq }
    }

    /// `Ī = tr(P) I − P`.
    fn inertia_from(P: &Mat3) -> Mat3 {
        lin_comb(trace(P), &IDENTITY3, -1.0, P)
    }

    /// First moment of mass `Ū(q_f) = ∫ρ ū dV` in the body frame \[kg m\].
    pub fn first_moment(&self, qf: &[f64]) -> Vec3 {
        let zeros = vec![0.0; self.n_f];
        self.products(qf, &zeros).U
    }

    /// Inertia tensor `Ī(q_f) = ∫ρ ũᵀũ dV` about the body origin, body frame
    /// \[kg m²\] (eqs. (2.212)–(2.218)).
    pub fn inertia(&self, qf: &[f64]) -> Mat3 {
        let zeros = vec![0.0; self.n_f];
        Self::inertia_from(&self.products(qf, &zeros).P)
    }

    /// Row vector `Y_jk + q_fᵀ Z_jk` as a function of its entries (`(Z_kj q_f)_i`).
    fn r_row(&self, j: usize, k: usize, pr: &Products, i: usize) -> f64 {
        self.Y[j][k][i] + pr.zq[k][j][i]
    }

    fn split<'a>(&self, q: &'a [f64]) -> (Vec3, &'a [f64], &'a [f64]) {
        ([q[0], q[1], q[2]], &q[3..7], &q[7..])
    }

    fn check_len(&self, what: &str, v: &[f64]) -> Result<()> {
        if v.len() != self.n_coords() {
            return Err(crate::error::dim_err(
                &format!("{} of body `{}`", what, self.name),
                self.n_coords(),
                1,
                v.len(),
                1,
            ));
        }
        Ok(())
    }

    /// Mass matrix `M(q)` (size `7 + n_f`), written into `out` (eq. (2.378)).
    pub fn mass_matrix_into(&self, q: &[f64], mut out: MatMut<'_, f64>) {
        let (_, th, qf) = self.split(q);
        let zeros = vec![0.0; self.n_f];
        let pr = self.products(qf, &zeros);
        let A = rotation(th);
        let G = gbar(th);
        let I = Self::inertia_from(&pr.P);
        let n = self.n_coords();
        for j in 0..n {
            for i in 0..n {
                out[(i, j)] = 0.0;
            }
        }
        for k in 0..3 {
            out[(k, k)] = self.m;
        }
        // m_Rθ = −A Ũ Ḡ
        let AU = mat_mul(&A, &hat(pr.U));
        let mRt = neg_m3_m34(&AU, &G);
        for i in 0..3 {
            for j in 0..4 {
                out[(i, 3 + j)] = mRt[i][j];
                out[(3 + j, i)] = mRt[i][j];
            }
        }
        // m_θθ = Ḡᵀ Ī Ḡ
        let IG = m3_m34(&I, &G);
        for a in 0..4 {
            for b in 0..4 {
                out[(3 + a, 3 + b)] = (0..3).map(|k| G[k][a] * IG[k][b]).sum();
            }
        }
        for c in 0..self.n_f {
            // m_Rf = A N̄_f
            let an = mat_vec(&A, self.Nf[c]);
            // H column c: H_i = ε_ijk R_jk
            let h = [
                self.r_row(1, 2, &pr, c) - self.r_row(2, 1, &pr, c),
                self.r_row(2, 0, &pr, c) - self.r_row(0, 2, &pr, c),
                self.r_row(0, 1, &pr, c) - self.r_row(1, 0, &pr, c),
            ];
            let gh = m34t_v(&G, h);
            for i in 0..3 {
                out[(i, 7 + c)] = an[i];
                out[(7 + c, i)] = an[i];
            }
            for a in 0..4 {
                out[(3 + a, 7 + c)] = gh[a];
                out[(7 + c, 3 + a)] = gh[a];
            }
            for r in 0..self.n_f {
                out[(7 + r, 7 + c)] = self.Mff[(r, c)];
            }
        }
    }

    /// Mass matrix `M(q)` (eq. (2.378)).
    pub fn mass_matrix(&self, q: &[f64]) -> Result<Mat<f64>> {
        self.check_len("q", q)?;
        let n = self.n_coords();
        let mut M = Mat::zeros(n, n);
        self.mass_matrix_into(q, M.as_mut());
        Ok(M)
    }

    /// Adds the quadratic velocity vector `Q_v(q, q̇)` to `out` (see the module
    /// documentation).
    pub fn add_quadratic_velocity(&self, q: &[f64], qd: &[f64], out: &mut [f64]) {
        let (_, th, qf) = self.split(q);
        let (_, thd, qfd) = self.split(qd);
        let pr = self.products(qf, qfd);
        let A = rotation(th);
        let G = gbar(th);
        let w = m34_v(&G, thd);
        // R rows
        let aR = add(cross(w, cross(w, pr.U)), scale(2.0, cross(w, pr.Ud)));
        let qa = mat_vec(&A, aR);
        for i in 0..3 {
            out[i] -= qa[i];
        }
        // θ rows
        let I = Self::inertia_from(&pr.P);
        let trW = pr.W[0][0] + pr.W[1][1] + pr.W[2][2];
        let wtw = [
            pr.W[0][0] * w[0] + pr.W[1][0] * w[1] + pr.W[2][0] * w[2],
            pr.W[0][1] * w[0] + pr.W[1][1] * w[1] + pr.W[2][1] * w[2],
            pr.W[0][2] * w[0] + pr.W[1][2] * w[1] + pr.W[2][2] * w[2],
        ];
        let t = add(
            cross(w, mat_vec(&I, w)),
            [
                2.0 * (w[0] * trW - wtw[0]),
                2.0 * (w[1] * trW - wtw[1]),
                2.0 * (w[2] * trW - wtw[2]),
            ],
        );
        let gt = m34t_v(&G, t);
        for a in 0..4 {
            out[3 + a] -= gt[a];
        }
        // f rows
        if self.n_f > 0 {
            let wt = hat(w);
            let wt2 = mat_mul(&wt, &wt);
            let n = self.n_f;
            for k in 0..3 {
                for l in 0..3 {
                    let c2 = wt2[k][l];
                    let c1 = 2.0 * wt[k][l];
                    if c2 != 0.0 {
                        for i in 0..n {
                            out[7 + i] -= c2 * (self.Y[l][k][i] + pr.zq[k][l][i]);
                        }
                    }
                    if c1 != 0.0 && self.z_active[k][l] {
                        let z = &self.Z[k][l];
                        for j in 0..n {
                            let v = c1 * qfd[j];
                            if v != 0.0 {
                                for i in 0..n {
                                    out[7 + i] -= z[(i, j)] * v;
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Adds the generalized force of uniform gravity `g` (global frame) to `out`.
    pub fn add_gravity(&self, q: &[f64], g: Vec3, out: &mut [f64]) {
        let (_, th, qf) = self.split(q);
        let A = rotation(th);
        let G = gbar(th);
        let U = self.first_moment(qf);
        let atg = mat_t_vec(&A, g);
        for i in 0..3 {
            out[i] += self.m * g[i];
        }
        let gt = m34t_v(&G, cross(U, atg));
        for a in 0..4 {
            out[3 + a] += gt[a];
        }
        for j in 0..self.n_f {
            out[7 + j] += dot(self.Nf[j], atg);
        }
    }

    /// Adds the elastic and damping forces `−K_ff q_f − R_ff q̇_f` to the
    /// elastic rows of `out`.
    pub fn add_elastic(&self, q: &[f64], qd: &[f64], out: &mut [f64]) {
        let n = self.n_f;
        for j in 0..n {
            let (a, b) = (q[7 + j], qd[7 + j]);
            for i in 0..n {
                out[7 + i] -= self.K[(i, j)] * a + self.D[(i, j)] * b;
            }
        }
    }

    /// Adds the generalized force `Lᵀ F` of a force `F` (global frame) applied
    /// at material point `p`.
    pub fn add_point_force(&self, q: &[f64], p: &BodyPoint, F: Vec3, out: &mut [f64]) {
        let (_, th, qf) = self.split(q);
        let A = rotation(th);
        let G = gbar(th);
        let u = p.local(qf);
        let atf = mat_t_vec(&A, F);
        for i in 0..3 {
            out[i] += F[i];
        }
        // (−A ũ Ḡ)ᵀ F = Ḡᵀ ũ Aᵀ F = Ḡᵀ (ū × AᵀF)
        let gt = m34t_v(&G, cross(u, atf));
        for a in 0..4 {
            out[3 + a] += gt[a];
        }
        for &(j, c) in &p.shape {
            out[7 + j] += dot(c, atf);
        }
    }

    /// Kinetic energy `T = ½ q̇ᵀ M q̇`, evaluated from the invariants:
    /// `½m|Ṙ|² + Ṙ·A(ω̄×Ū + U̇) + ½ω̄·Īω̄ + ω̄·∫ρū×ū̇ + ½q̇_fᵀ m_ff q̇_f` \[J\].
    pub fn kinetic_energy(&self, q: &[f64], qd: &[f64]) -> f64 {
        let (_, th, qf) = self.split(q);
        let (Rd, thd, qfd) = self.split(qd);
        let pr = self.products(qf, qfd);
        let A = rotation(th);
        let w = m34_v(&gbar(th), thd);
        let I = Self::inertia_from(&pr.P);
        let hf = levi(&pr.W);
        let mut t = 0.5 * self.m * dot(Rd, Rd)
            + dot(Rd, mat_vec(&A, add(cross(w, pr.U), pr.Ud)))
            + 0.5 * dot(w, mat_vec(&I, w))
            + dot(w, hf);
        for j in 0..self.n_f {
            for i in 0..self.n_f {
                t += 0.5 * qfd[i] * self.Mff[(i, j)] * qfd[j];
            }
        }
        t
    }

    /// Potential energy of gravity `−gᵀ(m R + A Ū)` \[J\].
    pub fn gravity_energy(&self, q: &[f64], g: Vec3) -> f64 {
        let (R, th, qf) = self.split(q);
        let A = rotation(th);
        let U = self.first_moment(qf);
        -(self.m * dot(g, R) + dot(g, mat_vec(&A, U)))
    }

    /// Strain energy `½ q_fᵀ K_ff q_f` \[J\].
    pub fn strain_energy(&self, q: &[f64]) -> f64 {
        let qf = &q[7..];
        let mut e = 0.0;
        for j in 0..self.n_f {
            for i in 0..self.n_f {
                e += 0.5 * qf[i] * self.K[(i, j)] * qf[j];
            }
        }
        e
    }

    /// Linear momentum `∫ρ ṙ dV = m Ṙ + A(ω̄×Ū + U̇)` \[kg m/s\].
    pub fn linear_momentum(&self, q: &[f64], qd: &[f64]) -> Vec3 {
        let (_, th, qf) = self.split(q);
        let (Rd, thd, qfd) = self.split(qd);
        let pr = self.products(qf, qfd);
        let A = rotation(th);
        let w = m34_v(&gbar(th), thd);
        add(
            [self.m * Rd[0], self.m * Rd[1], self.m * Rd[2]],
            mat_vec(&A, add(cross(w, pr.U), pr.Ud)),
        )
    }

    /// Angular momentum about the global origin `∫ρ r×ṙ dV` \[kg m²/s\]:
    /// `mR×Ṙ + R×A(ω̄×Ū + U̇) + (AŪ)×Ṙ + A(Īω̄ + ∫ρ ū×ū̇)`.
    pub fn angular_momentum(&self, q: &[f64], qd: &[f64]) -> Vec3 {
        let (R, th, qf) = self.split(q);
        let (Rd, thd, qfd) = self.split(qd);
        let pr = self.products(qf, qfd);
        let A = rotation(th);
        let w = m34_v(&gbar(th), thd);
        let I = Self::inertia_from(&pr.P);
        let h1 = cross(R, [self.m * Rd[0], self.m * Rd[1], self.m * Rd[2]]);
        let h2 = cross(R, mat_vec(&A, add(cross(w, pr.U), pr.Ud)));
        let h3 = cross(mat_vec(&A, pr.U), Rd);
        let h4 = mat_vec(&A, add(mat_vec(&I, w), levi(&pr.W)));
        add(add(h1, h2), add(h3, h4))
    }

    /// Global position `r = R + A ū` of a material point.
    pub fn point_position(&self, q: &[f64], p: &BodyPoint) -> Vec3 {
        let (R, th, qf) = self.split(q);
        add(R, mat_vec(&rotation(th), p.local(qf)))
    }

    /// Global velocity `ṙ = Ṙ + A(ω̄×ū + ū̇)` of a material point.
    pub fn point_velocity(&self, q: &[f64], qd: &[f64], p: &BodyPoint) -> Vec3 {
        let (_, th, qf) = self.split(q);
        let (Rd, thd, qfd) = self.split(qd);
        let w = m34_v(&gbar(th), thd);
        add(
            Rd,
            mat_vec(&rotation(th), add(cross(w, p.local(qf)), p.local_rate(qfd))),
        )
    }

    /// Writes `s · L_P` (`L_P = [I, −A ũ_P Ḡ, A N_P]`, eq. (2.337)) into the
    /// 3 rows of `out` starting at column `col0` (added to existing values).
    pub(crate) fn add_point_jacobian(
        &self,
        q: &[f64],
        p: &BodyPoint,
        s: f64,
        mut out: MatMut<'_, f64>,
        col0: usize,
    ) {
        let (_, th, qf) = self.split(q);
        let A = rotation(th);
        let G = gbar(th);
        let AU = mat_mul(&A, &hat(p.local(qf)));
        let Lt = neg_m3_m34(&AU, &G);
        for i in 0..3 {
            out[(i, col0 + i)] += s;
            for a in 0..4 {
                out[(i, col0 + 3 + a)] += s * Lt[i][a];
            }
        }
        for &(j, c) in &p.shape {
            let ac = mat_vec(&A, c);
            for i in 0..3 {
                out[(i, col0 + 7 + j)] += s * ac[i];
            }
        }
    }

    /// Convective acceleration `γ_P = A[ω̄×(ω̄×ū_P) + 2ω̄×ū̇_P]` of a material
    /// point (`r̈_P = L_P q̈ + γ_P`).
    pub fn point_convective(&self, q: &[f64], qd: &[f64], p: &BodyPoint) -> Vec3 {
        let (_, th, qf) = self.split(q);
        let (_, thd, qfd) = self.split(qd);
        let w = m34_v(&gbar(th), thd);
        let u = p.local(qf);
        let ud = p.local_rate(qfd);
        mat_vec(
            &rotation(th),
            add(cross(w, cross(w, u)), scale(2.0, cross(w, ud))),
        )
    }

    /// Global direction `A ā` of a body-fixed (reference frame) vector `ā`.
    pub fn axis(&self, q: &[f64], a: Vec3) -> Vec3 {
        mat_vec(&rotation(&q[3..7]), a)
    }

    /// `∂(Aā)/∂θ = −A ã Ḡ` (3×4).
    pub(crate) fn axis_jacobian(&self, q: &[f64], a: Vec3) -> M34 {
        let th = &q[3..7];
        let Aa = mat_mul(&rotation(th), &hat(a));
        neg_m3_m34(&Aa, &gbar(th))
    }

    /// Time derivative `A(ω̄ × ā)` of a body-fixed direction.
    pub(crate) fn axis_rate(&self, q: &[f64], qd: &[f64], a: Vec3) -> Vec3 {
        let th = &q[3..7];
        let w = m34_v(&gbar(th), &qd[3..7]);
        mat_vec(&rotation(th), cross(w, a))
    }

    /// Convective part `A ω̄×(ω̄×ā)` of the second derivative of `Aā`.
    pub(crate) fn axis_convective(&self, q: &[f64], qd: &[f64], a: Vec3) -> Vec3 {
        let th = &q[3..7];
        let w = m34_v(&gbar(th), &qd[3..7]);
        mat_vec(&rotation(th), cross(w, cross(w, a)))
    }

    /// Body angular velocity `ω̄ = Ḡθ̇`.
    pub fn body_angular_velocity(&self, q: &[f64], qd: &[f64]) -> Vec3 {
        m34_v(&gbar(&q[3..7]), &qd[3..7])
    }
}

/// `(h)_i = ε_ijk W_jk = −2 vee(W)`.
fn levi(W: &Mat3) -> Vec3 {
    scale(-2.0, vee(W))
}

fn neg_m3_m34(a: &Mat3, g: &M34) -> M34 {
    let mut c = m3_m34(a, g);
    for row in c.iter_mut() {
        for v in row.iter_mut() {
            *v = -*v;
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multibody::euler_parameters::from_axis_angle;
    use crate::multibody::ffr_beam::{FfrBeam, ReferenceConditions};
    use crate::multibody::rigid_body::RigidBody;

    /// An L-shaped frame of three elements (one along x, two along y) in a
    /// cantilever frame: exercises every cross invariant Y_kl, Z_kl.
    fn frame() -> FloatingBody {
        FfrBeam::new(vec![[0.0, 0.0], [0.6, 0.0], [0.6, 0.25], [0.6, 0.5]])
            .element(0, 1, 2.0, 4e3, 30.0)
            .element(1, 2, 1.5, 3e3, 20.0)
            .element(2, 3, 1.5, 3e3, 20.0)
            .reference(ReferenceConditions::Cantilever { node: 0 })
            .build("frame")
            .unwrap()
    }

    /// A configuration with unit θ, a tangent θ̇ (θᵀθ̇ = 0) and sizeable
    /// elastic coordinates.
    fn state(n: usize) -> (Vec<f64>, Vec<f64>) {
        let th = from_axis_angle([0.3, -0.7, 0.5], 0.9);
        let mut q = vec![0.1, -0.2, 0.3];
        q.extend(th);
        let mut qd = vec![0.4, 0.1, -0.3];
        let w = [0.8, -1.3, 2.1];
        qd.extend(crate::multibody::euler_parameters::rate_from_body_angular_velocity(&th, w));
        for j in 0..n - 7 {
            q.push(0.03 * ((j as f64) * 1.7).sin());
            qd.push(0.5 * ((j as f64) * 0.9 + 0.3).cos());
        }
        (q, qd)
    }

    /// Projection removing the component along (0, θ, 0).
    fn project(v: &[f64], th: &[f64]) -> Vec<f64> {
        let s: f64 =
            (0..4).map(|a| v[3 + a] * th[a]).sum::<f64>() / th.iter().map(|x| x * x).sum::<f64>();
        let mut p = v.to_vec();
        for a in 0..4 {
            p[3 + a] -= s * th[a];
        }
        p
    }

    /// `Q_v` (d'Alembert form) equals the thesis definition
    /// `Q_v = (∂T/∂q)ᵀ − Ṁq̇` (eq. (2.223), (2.437)), with `∂M/∂q_j` by
    /// central differences of the mass matrix (step 1e-5: truncation
    /// ≈ 1e-10 relative, round-off ≈ ε/h ≈ 1e-11), up to the component along
    /// `(0, θ, 0)` absorbed by the normalisation multiplier: asserted 1e-7
    /// relative to ‖Q_v‖. Also `½q̇ᵀMq̇` equals the invariant form of `T`.
    #[test]
    fn quadratic_velocity_vector_matches_lagrange_definition() {
        let b = frame();
        let n = b.n_coords();
        let (q, qd) = state(n);
        let mut qv = vec![0.0; n];
        b.add_quadratic_velocity(&q, &qd, &mut qv);
        let h = 1e-5;
        let mut dT = vec![0.0; n];
        let mut Mdq = vec![0.0; n];
        let mut qp = q.clone();
        for j in 0..n {
            qp[j] = q[j] + h;
            let Mp = b.mass_matrix(&qp).unwrap();
            qp[j] = q[j] - h;
            let Mm = b.mass_matrix(&qp).unwrap();
            qp[j] = q[j];
            let dM = (Mp - Mm) * faer::Scale(1.0 / (2.0 * h));
            for r in 0..n {
                let row: f64 = (0..n).map(|c| dM[(r, c)] * qd[c]).sum();
                dT[j] += 0.5 * qd[r] * row;
                Mdq[r] += qd[j] * row;
            }
        }
        let lag: Vec<f64> = (0..n).map(|i| dT[i] - Mdq[i]).collect();
        let (pa, pb) = (project(&qv, &q[3..7]), project(&lag, &q[3..7]));
        let scale = pa.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let err = pa
            .iter()
            .zip(&pb)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        println!("|Q_v| = {scale:.3e}, |Q_v − (T_q − Ṁq̇)| (projected) = {err:.3e}");
        assert!(err < 1e-7 * scale);
        // kinetic energy: invariant form vs ½ q̇ᵀ M q̇
        let M = b.mass_matrix(&q).unwrap();
        let mut t = 0.0;
        for i in 0..n {
            for j in 0..n {
                t += 0.5 * qd[i] * M[(i, j)] * qd[j];
            }
        }
        let t2 = b.kinetic_energy(&q, &qd);
        assert!((t - t2).abs() < 1e-13 * t, "{t} vs {t2}");
        // M is symmetric and singular along (0, θ, 0)
        let mut nv = vec![0.0; n];
        nv[3..7].copy_from_slice(&q[3..7]);
        for i in 0..n {
            let r: f64 = (0..n).map(|j| M[(i, j)] * nv[j]).sum();
            assert!(r.abs() < 1e-14, "row {i}: {r}");
            for j in 0..n {
                assert!((M[(i, j)] - M[(j, i)]).abs() < 1e-15);
            }
        }
    }

    /// Rigid body with the origin at the centre of mass: the θ rows of `Q_v`
    /// equal the thesis's eq. (2.236), `2 Ḡ̇ᵀ Ī Ḡ̇ θ`, up to the component
    /// along θ (round-off, 1e-13).
    #[test]
    fn rigid_quadratic_velocity_is_eq_2_236() {
        let b = RigidBody::new(2.0, [[2.0, 0.1, -0.2], [0.1, 2.5, 0.3], [-0.2, 0.3, 3.0]])
            .build("r")
            .unwrap();
        let (q, qd) = state(7);
        let mut qv = vec![0.0; 7];
        b.add_quadratic_velocity(&q, &qd, &mut qv);
        let th = &q[3..7];
        let gd = gbar(&qd[3..7]);
        let I = b.inertia(&[]);
        let gdt = m34_v(&gd, th);
        let t = m34t_v(&gd, mat_vec(&I, gdt));
        let mut thesis = vec![0.0; 7];
        for a in 0..4 {
            thesis[3 + a] = 2.0 * t[a];
        }
        let (pa, pb) = (project(&qv, th), project(&thesis, th));
        for i in 0..7 {
            assert!((pa[i] - pb[i]).abs() < 1e-13, "{pa:?} vs {pb:?}");
        }
        assert!(qv[..3].iter().all(|v| v.abs() < 1e-15));
    }

    /// Point kinematics: the velocity equals `L_P q̇`, and the convective term
    /// equals the second derivative of `r_P` along a straight path
    /// `q + sq̇` minus `L_P q̈` with q̈ = 0 (central differences, 1e-6).
    #[test]
    fn point_jacobian_and_convective_term() {
        let b = frame();
        let n = b.n_coords();
        let (q, qd) = state(n);
        let p = b.element_point(1, 0.3).unwrap();
        let mut L = Mat::<f64>::zeros(3, n);
        b.add_point_jacobian(&q, &p, 1.0, L.as_mut(), 0);
        let v = b.point_velocity(&q, &qd, &p);
        for i in 0..3 {
            let lv: f64 = (0..n).map(|j| L[(i, j)] * qd[j]).sum();
            assert!((lv - v[i]).abs() < 1e-14);
        }
        // r(q + s q̇): d²/ds² = γ + (terms of q̈ = 0) on the unit sphere only to first
        // order, so use the exact path on the sphere for θ: θ(s) = cos(|θ̇|s)θ + sin(|θ̇|s)θ̇/|θ̇|
        let nth = (0..4).map(|a| qd[3 + a] * qd[3 + a]).sum::<f64>().sqrt();
        let path = |s: f64| {
            let mut x: Vec<f64> = q.iter().zip(&qd).map(|(a, b)| a + s * b).collect();
            for a in 0..4 {
                x[3 + a] = (nth * s).cos() * q[3 + a] + (nth * s).sin() * qd[3 + a] / nth;
            }
            b.point_position(&x, &p)
        };
        // along this path θ̈ = −|θ̇|²θ, which contributes L_θ θ̈ = 0 (Ḡθ = 0)
        let h = 1e-3;
        let (rp, r0, rm) = (path(h), path(0.0), path(-h));
        let g = b.point_convective(&q, &qd, &p);
        for i in 0..3 {
            let d2 = (rp[i] - 2.0 * r0[i] + rm[i]) / (h * h);
            assert!(
                (d2 - g[i]).abs() < 1e-5 * (1.0 + g[i].abs()),
                "{d2} vs {}",
                g[i]
            );
        }
    }
}
