//! An **independent** geometrically exact planar beam in absolute coordinates and the §6.3
//! crank–slider built with it, to cross-check the floating-frame model of
//! [`crate::models::crank_slider`] (issue 3 §5, paper 000 §6.3). Nothing of the floating-frame
//! machinery (bodies, ports, joints, pH assembly) is used here: only `faer` dense LU.
//!
//! # Beam: shear-rigid Reissner rod with ANCF cubic Hermite elements
//!
//! The beam axis $r(S, t) \in \mathbb R^2$ ($S \in [0, L]$ reference arc length) is
//! interpolated with cubic Hermite polynomials in *absolute nodal coordinates*
//! (gradient-deficient planar ANCF element, Berzeri & Shabana, *J. Sound Vib.* 235 (2000)
//! 539–565; elastic line approach of Gerstmayr & Irschik, *J. Sound Vib.* 318 (2008)
//! 461–487): per node $q_a = (r_a, r'_a) \in \mathbb R^4$ (position and tangent
//! $\partial_S r$), per element of length $h$
//! $$r(\xi) = N_1 r_a + h N_2 r'_a + N_3 r_b + h N_4 r'_b ,\quad
//!   N_1 = 1 - 3\xi^2 + 2\xi^3,\ N_2 = \xi - 2\xi^2 + \xi^3,\ N_3 = 3\xi^2 - 2\xi^3,\
//!   N_4 = \xi^3 - \xi^2 .$$
//! Large rotations and translations are represented exactly (rigid motions are in the
//! interpolation space; no rotation parameters). Strain measures (Kirchhoff–Reissner rod,
//! frame indifferent, **quadratic in $q$**):
//! $$\varepsilon = \tfrac12\,(r'\cdot r' - 1),\qquad \kappa = r' \times r'' = r'_x r''_y - r'_y r''_x ,$$
//! the Green axial strain and the curvature of the line times $|r'|^2$ — for an
//! inextensible line $\kappa = \theta'$ exactly, for any rotation; for the strains of
//! the crank–slider ($|\varepsilon| < 2\cdot10^{-4}$) they differ from Reissner's measures
//! $|r'| - 1$, $\theta' = \kappa/|r'|^2$ by relative $O(\varepsilon)$, a constitutive
//! detail. Strain energy and kinetic energy (no rotary inertia, as the Euler–Bernoulli
//! floating beam of [`crate::body::floating_beam::planar`]):
//! $$U = \int_0^L \tfrac12 EA\,\varepsilon^2 + \tfrac12 EI\,\kappa^2\,\mathrm dS,\qquad
//!   T = \tfrac12\int_0^L \rho A\,\dot r\cdot\dot r\,\mathrm dS = \tfrac12\dot q^\top M\dot q ,$$
//! with a **constant** consistent mass matrix $M$ (point masses at nodes add to the position
//! rows). Quadrature: 5 Gauss points per element, exact for $M$ (degree 6) and $U$ (degree 8).
//! Because $\varepsilon$ and $\kappa$ are quadratic forms, $\varepsilon = \frac12 q^\top
//! H_\varepsilon q - \frac12$, $\kappa = \frac12 q^\top H_\kappa q$ with constant
//! $H_\varepsilon$, $H_\kappa$ per Gauss point, and the internal force is
//! $f(q) = \int EA\,\varepsilon\,H_\varepsilon q + EI\,\kappa\,H_\kappa q$.
//!
//! # Constraints and time integration
//!
//! All constraints of the crank–slider are **linear** in absolute coordinates, $B q = b(t)$
//! (crank pin on its prescribed circle, slider end on the $X$ axis), imposed with Lagrange
//! multipliers at position level (index 3). The integrator is the energy-consistent
//! implicit midpoint rule with the Simo–Tarnow discrete gradient (Simo & Tarnow, *ZAMP* 43
//! (1992) 757–792, for quadratic strain measures):
//! $$q_1 - q_0 = \tfrac h2 (v_0 + v_1),\quad M(v_1 - v_0) = -h\,\bar f(q_0, q_1) + h B^\top\lambda,
//!   \quad B q_1 = b(t_1),$$
//! $$\bar f = \int EA\,\bar\varepsilon\,H_\varepsilon q_{1/2} + EI\,\bar\kappa\,H_\kappa q_{1/2},
//!   \quad \bar\varepsilon = \tfrac12(\varepsilon(q_0) + \varepsilon(q_1)) .$$
//! Since $\varepsilon(q_1) - \varepsilon(q_0) = (H_\varepsilon q_{1/2})\cdot(q_1 - q_0)$ exactly,
//! $\bar f\cdot(q_1 - q_0) = U(q_1) - U(q_0)$ and the step satisfies the discrete energy balance
//! $$H(q_1, v_1) - H(q_0, v_0) = \lambda^\top\big(b(t_1) - b(t_0)\big)$$
//! (the work of the crank; the slider does none), checked at every step
//! ([`ExactRun::rel_energy_residual`]). Why this scheme: (i) the constraints are linear, so
//! the index-3 midpoint rule keeps $Bq_n = b(t_n)$ exactly (no drift, no stabilisation) and
//! the constrained velocity components only carry a bounded $O(h^2)$ alternating error;
//! (ii) it is second order and non-dissipative like the midpoint / discrete-gradient run of
//! phlex ([`crate::CrankSlider::params`]), so the aliased axial vibration excited by the
//! undeformed start is treated alike and the curves can be compared on the same time grid;
//! (iii) the discrete energy balance is an exact invariant to test. Newton: unknowns
//! $(q_1, \lambda)$, eliminating $v_1 = 2(q_1 - q_0)/h - v_0$:
//! $$\tfrac2{h^2}M(q_1 - q_0 - h v_0) + \bar f(q_0, q_1) - B^\top\lambda = 0,\quad Bq_1 = b(t_1),$$
//! with the exact derivative $\partial_{q_1}\bar f = \int EA\big(\tfrac12 H_\varepsilon q_{1/2}
//! (H_\varepsilon q_1)^\top + \tfrac12\bar\varepsilon H_\varepsilon\big) + EI(\dots)$, dense LU
//! refreshed once per step (modified Newton within a step).
//!
//! # Crank–slider ([`ExactCrankSlider`])
//!
//! As [`crate::CrankSlider`]: rigid crank $L_{cr}$ turning at $\omega$ from the $X$ axis, so the
//! crank pin (coupler node 0) follows $P(t) = L_{cr}(\cos\omega t, \sin\omega t)$ (phlex
//! prescribes its velocity $\dot P$); the coupler is pinned at both ends (tangents free); the
//! end $S = L$ carries the slider mass and stays on $Y = 0$. Start: undeformed straight
//! coupler from $(L_{cr}, 0)$ to $(L_{cr} + L, 0)$ with the rigid velocity field
//! $\dot r(S) = \omega L_{cr}(0, 1 - S/L)$, $\dot r' = (0, -\omega L_{cr}/L)$ (phlex: $v_P = (0,
//! \omega L_{cr})$, $\dot\theta = -\omega L_{cr}/L$). Output: the midpoint deflection relative
//! to the chord of the ends, which is the floating-frame $u_f(L/2)$ of the simply supported
//! coupler (its frame axis passes through both ends):
//! $$u_x = e\cdot(r(L/2) - r(0)) - L/2,\quad u_y = e^\perp\cdot(r(L/2) - r(0)),\quad
//!   e = \frac{r(L) - r(0)}{|r(L) - r(0)|},\ e^\perp = \hat z\times e ,$$
//! divided by $L$.
//!
//! # Cross-check with the floating frame (`tests/crank_slider_geometrically_exact.rs`)
//!
//! Converged peaks of $u_y(L/2)/L$ to $t = 0.053$ s (16 elements, $h = 2^{-17}$ s; 16 vs
//! 32 elements differ by 1.1e-7, $2^{-16}$ vs $2^{-17}$ s by 2.5e-6): **+1.5405e-2 /
//! −1.2332e-2**. phlex with von Kármán stiffening and the constant mass operator of §4.3
//! ([`crate::CrankSlider`]): +1.5282e-2 / −1.2150e-2, i.e. 0.8 % / 1.5 % smaller in
//! magnitude (curve difference up to 3e-4, ≈ 2 % of the peak). phlex with stiffening and
//! the deformation-dependent mass operator ([`crate::FloatingBeam2d::full_inertia`]):
//! +1.5420e-2 / −1.2354e-2, agreeing to 0.09 % / 0.18 % (curve 5e-5). The residual gap of
//! the study's model is therefore the inertia it leaves out (centrifugal softening
//! $\rho A\Omega^2 u_f$ and the transport of the deformed coupler), not the von Kármán strain.
//! The discrete energy balance holds to ≤ 4e-13 relative, the constraints to round-off.
use std::time::Instant;

use faer::linalg::solvers::Solve;
use faer::Mat;
use thiserror::Error;

/// Errors of the geometrically exact beam and its integrator.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ExactBeamError {
    /// A parameter is not finite and positive.
    #[error("parameter '{name}' = {value} must be finite and > 0")]
    NotPositive {
        /// Parameter name.
        name: &'static str,
        /// Value given.
        value: f64,
    },
    /// A beam without elements.
    #[error("the beam needs at least one element")]
    NoElements,
    /// A vector of the wrong length.
    #[error("'{name}' has length {got}, expected {expected}")]
    Length {
        /// Vector name.
        name: &'static str,
        /// Length given.
        got: usize,
        /// Length expected.
        expected: usize,
    },
    /// A coordinate or node index out of range.
    #[error("{what} index {index} out of range (count {count})")]
    OutOfRange {
        /// `"coordinate"` or `"node"`.
        what: &'static str,
        /// Index given.
        index: usize,
        /// Number available.
        count: usize,
    },
    /// A material coordinate outside $[0, L]$.
    #[error("material coordinate {s} outside [0, {length}]")]
    OutsideBeam {
        /// Coordinate given.
        s: f64,
        /// Beam length.
        length: f64,
    },
    /// Time grid parameters that do not give a positive whole number of steps.
    #[error("time grid t0 = {t0}, t_end = {t_end}, h = {h}: need h > 0 and t_end > t0")]
    TimeGrid {
        /// Initial time.
        t0: f64,
        /// Final time.
        t_end: f64,
        /// Step.
        h: f64,
    },
    /// Newton did not converge.
    #[error("Newton did not converge at t = {t} after {iterations} iterations (last increment {increment:e})")]
    Newton {
        /// Time of the step end.
        t: f64,
        /// Iterations done.
        iterations: usize,
        /// Max-norm of the last increment.
        increment: f64,
    },
    /// The Newton matrix is singular (e.g. redundant constraints or a mechanism).
    #[error("singular Newton matrix at t = {t} (pivot ratio {rcond:e})")]
    Singular {
        /// Time.
        t: f64,
        /// Smallest over largest pivot of the LU.
        rcond: f64,
    },
    /// Inverse iteration for the lowest frequency did not converge.
    #[error("inverse iteration did not converge (relative change {change:e})")]
    Eigen {
        /// Last relative change of the Rayleigh quotient.
        change: f64,
    },
}

type Result<T> = std::result::Result<T, ExactBeamError>;

/// Observer of [`ConstrainedBeam::integrate`]: `(t, q, v)`.
type StateObserver<'a> = &'a mut dyn FnMut(f64, &[f64], &[f64]);

fn positive(name: &'static str, value: f64) -> Result<()> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(ExactBeamError::NotPositive { name, value })
    }
}

fn check_len(name: &'static str, v: &[f64], expected: usize) -> Result<()> {
    if v.len() == expected {
        Ok(())
    } else {
        Err(ExactBeamError::Length {
            name,
            got: v.len(),
            expected,
        })
    }
}

/// 5-point Gauss–Legendre rule on $[0, 1]$: (abscissa, weight), weights sum to 1.
const GAUSS5: [(f64, f64); 5] = [
    (0.046_910_077_030_668_004, 0.118_463_442_528_094_54),
    (0.230_765_344_947_158_45, 0.239_314_335_249_683_23),
    (0.5, 0.284_444_444_444_444_44),
    (0.769_234_655_052_841_6, 0.239_314_335_249_683_23),
    (0.953_089_922_969_332, 0.118_463_442_528_094_54),
];

/// Hermite shape functions on an element of length `h` at $\xi \in [0, 1]$, with the slope
/// factors included: values, $\partial_S$ and $\partial_S^2$ of the four scalar functions
/// multiplying $r_a$, $r'_a$, $r_b$, $r'_b$.
fn hermite(xi: f64, h: f64) -> ([f64; 4], [f64; 4], [f64; 4]) {
    let (x2, x3) = (xi * xi, xi * xi * xi);
    let n = [
        1.0 - 3.0 * x2 + 2.0 * x3,
        h * (xi - 2.0 * x2 + x3),
        3.0 * x2 - 2.0 * x3,
        h * (x3 - x2),
    ];
    let d1 = [
        (-6.0 * xi + 6.0 * x2) / h,
        1.0 - 4.0 * xi + 3.0 * x2,
        (6.0 * xi - 6.0 * x2) / h,
        3.0 * x2 - 2.0 * xi,
    ];
    let d2 = [
        (-6.0 + 12.0 * xi) / (h * h),
        (-4.0 + 6.0 * xi) / h,
        (6.0 - 12.0 * xi) / (h * h),
        (6.0 * xi - 2.0) / h,
    ];
    (n, d1, d2)
}

/// The constant Hessians $H_\varepsilon$, $H_\kappa$ (8×8, element coordinates
/// $(r_a, r'_a, r_b, r'_b)$, $x$ before $y$) of one Gauss point, and its weight times $h$.
#[derive(Debug, Clone)]
struct GaussPoint {
    he: [[f64; 8]; 8],
    hk: [[f64; 8]; 8],
    wh: f64,
}

/// $E = \begin{pmatrix}0&1\\-1&0\end{pmatrix}$: $a\times b = a^\top E b$.
const CROSS: [[f64; 2]; 2] = [[0.0, 1.0], [-1.0, 0.0]];

fn mat8_vec(m: &[[f64; 8]; 8], x: &[f64]) -> [f64; 8] {
    let mut y = [0.0; 8];
    for i in 0..8 {
        y[i] = (0..8).map(|j| m[i][j] * x[j]).sum();
    }
    y
}

fn dot8(a: &[f64; 8], b: &[f64]) -> f64 {
    (0..8).map(|i| a[i] * b[i]).sum()
}

/// A uniform planar geometrically exact (shear-rigid Reissner / ANCF elastic line) beam; see
/// the module documentation for the equations.
///
/// Coordinates: node $a$ owns $q_{4a..4a+4} = (x_a, y_a, x'_a, y'_a)$.
#[derive(Debug, Clone)]
pub struct ExactBeam2d {
    length: f64,
    rho_a: f64,
    ea: f64,
    ei: f64,
    n_elements: usize,
    gauss: Vec<GaussPoint>,
}

impl ExactBeam2d {
    /// A beam of length `length`, $\rho A$ = `rho_a`, $EA$ = `ea`, $EI$ = `ei`, on
    /// `n_elements` elements.
    pub fn new(length: f64, rho_a: f64, ea: f64, ei: f64, n_elements: usize) -> Result<Self> {
        positive("length", length)?;
        positive("rho_a", rho_a)?;
        positive("EA", ea)?;
        positive("EI", ei)?;
        if n_elements == 0 {
            return Err(ExactBeamError::NoElements);
        }
        let h = length / n_elements as f64;
        let gauss = GAUSS5
            .iter()
            .map(|&(xi, w)| {
                let (_, d1, d2) = hermite(xi, h);
                let mut he = [[0.0; 8]; 8];
                let mut hk = [[0.0; 8]; 8];
                for k in 0..4 {
                    for l in 0..4 {
                        for c in 0..2 {
                            he[2 * k + c][2 * l + c] = d1[k] * d1[l];
                            for d in 0..2 {
                                hk[2 * k + c][2 * l + d] =
                                    d1[k] * d2[l] * CROSS[c][d] + d1[l] * d2[k] * CROSS[d][c];
                            }
                        }
                    }
                }
                GaussPoint { he, hk, wh: w * h }
            })
            .collect();
        Ok(Self {
            length,
            rho_a,
            ea,
            ei,
            n_elements,
            gauss,
        })
    }

    /// From material data: density, Young modulus, area, second moment of area.
    pub fn from_material(
        length: f64,
        density: f64,
        young: f64,
        area: f64,
        second_moment: f64,
        n_elements: usize,
    ) -> Result<Self> {
        Self::new(
            length,
            density * area,
            young * area,
            young * second_moment,
            n_elements,
        )
    }

    /// Length $L$.
    pub fn length(&self) -> f64 {
        self.length
    }

    /// Axial stiffness $EA$.
    pub fn ea(&self) -> f64 {
        self.ea
    }

    /// Bending stiffness $EI$.
    pub fn ei(&self) -> f64 {
        self.ei
    }

    /// Mass per unit length $\rho A$.
    pub fn rho_a(&self) -> f64 {
        self.rho_a
    }

    /// Number of elements.
    pub fn n_elements(&self) -> usize {
        self.n_elements
    }

    /// Number of nodes.
    pub fn n_nodes(&self) -> usize {
        self.n_elements + 1
    }

    /// Number of coordinates $4(n_{el} + 1)$.
    pub fn n_dofs(&self) -> usize {
        4 * self.n_nodes()
    }

    /// Element length.
    pub fn element_length(&self) -> f64 {
        self.length / self.n_elements as f64
    }

    /// Coordinates $(x, y, x', y')$ of node `node`.
    pub fn node_dofs(&self, node: usize) -> Result<[usize; 4]> {
        if node >= self.n_nodes() {
            return Err(ExactBeamError::OutOfRange {
                what: "node",
                index: node,
                count: self.n_nodes(),
            });
        }
        Ok([4 * node, 4 * node + 1, 4 * node + 2, 4 * node + 3])
    }

    /// The straight unstrained configuration starting at `origin` with direction `angle`.
    pub fn straight(&self, origin: [f64; 2], angle: f64) -> Vec<f64> {
        let (s, c) = angle.sin_cos();
        let h = self.element_length();
        let mut q = vec![0.0; self.n_dofs()];
        for a in 0..self.n_nodes() {
            let x = a as f64 * h;
            q[4 * a] = origin[0] + c * x;
            q[4 * a + 1] = origin[1] + s * x;
            q[4 * a + 2] = c;
            q[4 * a + 3] = s;
        }
        q
    }

    /// Velocities of the rigid motion with velocity `v0` of the point at `r0` and angular rate
    /// `omega`, at configuration `q`: $\dot r = v_0 + \omega\hat z\times(r - r_0)$,
    /// $\dot r' = \omega\hat z\times r'$.
    pub fn rigid_velocity(
        &self,
        q: &[f64],
        r0: [f64; 2],
        v0: [f64; 2],
        omega: f64,
    ) -> Result<Vec<f64>> {
        check_len("q", q, self.n_dofs())?;
        let mut v = vec![0.0; self.n_dofs()];
        for a in 0..self.n_nodes() {
            let (dx, dy) = (q[4 * a] - r0[0], q[4 * a + 1] - r0[1]);
            v[4 * a] = v0[0] - omega * dy;
            v[4 * a + 1] = v0[1] + omega * dx;
            v[4 * a + 2] = -omega * q[4 * a + 3];
            v[4 * a + 3] = omega * q[4 * a + 2];
        }
        Ok(v)
    }

    /// Consistent mass matrix $M = \int\rho A\,S^\top S$ (dense).
    pub fn mass_matrix(&self) -> Mat<f64> {
        let n = self.n_dofs();
        let h = self.element_length();
        let mut m = Mat::<f64>::zeros(n, n);
        for e in 0..self.n_elements {
            let o = 4 * e;
            for &(xi, w) in &GAUSS5 {
                let (nn, _, _) = hermite(xi, h);
                for k in 0..4 {
                    for l in 0..4 {
                        let v = self.rho_a * w * h * nn[k] * nn[l];
                        for c in 0..2 {
                            m[(o + 2 * k + c, o + 2 * l + c)] += v;
                        }
                    }
                }
            }
        }
        m
    }

    /// Position $r(S)$ at material coordinate `s` $\in [0, L]$.
    pub fn position(&self, q: &[f64], s: f64) -> Result<[f64; 2]> {
        check_len("q", q, self.n_dofs())?;
        if !(s.is_finite() && (0.0..=self.length).contains(&s)) {
            return Err(ExactBeamError::OutsideBeam {
                s,
                length: self.length,
            });
        }
        let h = self.element_length();
        let e = ((s / h).floor() as usize).min(self.n_elements - 1);
        let xi = (s - e as f64 * h) / h;
        let (nn, _, _) = hermite(xi, h);
        let qe = &q[4 * e..4 * e + 8];
        let mut r = [0.0; 2];
        for k in 0..4 {
            r[0] += nn[k] * qe[2 * k];
            r[1] += nn[k] * qe[2 * k + 1];
        }
        Ok(r)
    }

    /// Strains $(\varepsilon, \kappa)$ at every Gauss point (element-major order).
    pub fn strains(&self, q: &[f64]) -> Result<Vec<(f64, f64)>> {
        check_len("q", q, self.n_dofs())?;
        let mut out = Vec::with_capacity(self.n_elements * self.gauss.len());
        for e in 0..self.n_elements {
            let qe = &q[4 * e..4 * e + 8];
            for g in &self.gauss {
                out.push((
                    0.5 * dot8(&mat8_vec(&g.he, qe), qe) - 0.5,
                    0.5 * dot8(&mat8_vec(&g.hk, qe), qe),
                ));
            }
        }
        Ok(out)
    }

    /// Strain energy $U(q)$.
    pub fn strain_energy(&self, q: &[f64]) -> Result<f64> {
        let s = self.strains(q)?;
        let mut u = 0.0;
        for (i, (eps, kap)) in s.into_iter().enumerate() {
            let g = &self.gauss[i % self.gauss.len()];
            u += g.wh * 0.5 * (self.ea * eps * eps + self.ei * kap * kap);
        }
        Ok(u)
    }

    /// Internal force $f = \partial U/\partial q$ and, if asked, the tangent stiffness
    /// $K = \partial f/\partial q$.
    pub fn internal_force(&self, q: &[f64], mut k: Option<&mut Mat<f64>>) -> Result<Vec<f64>> {
        check_len("q", q, self.n_dofs())?;
        let mut f = vec![0.0; self.n_dofs()];
        for e in 0..self.n_elements {
            let o = 4 * e;
            let qe = &q[o..o + 8];
            for g in &self.gauss {
                let ge = mat8_vec(&g.he, qe);
                let gk = mat8_vec(&g.hk, qe);
                let eps = 0.5 * dot8(&ge, qe) - 0.5;
                let kap = 0.5 * dot8(&gk, qe);
                let (ne, mk) = (g.wh * self.ea * eps, g.wh * self.ei * kap);
                for i in 0..8 {
                    f[o + i] += ne * ge[i] + mk * gk[i];
                }
                if let Some(k) = k.as_deref_mut() {
                    for i in 0..8 {
                        for j in 0..8 {
                            k[(o + i, o + j)] += g.wh
                                * (self.ea * ge[i] * ge[j] + self.ei * gk[i] * gk[j])
                                + ne * g.he[i][j]
                                + mk * g.hk[i][j];
                        }
                    }
                }
            }
        }
        Ok(f)
    }

    /// Simo–Tarnow discrete gradient $\bar f(q_0, q_1)$ (module documentation) and, if asked,
    /// adds $\partial\bar f/\partial q_1$ to `jac`. $\bar f\cdot(q_1 - q_0) = U(q_1) - U(q_0)$
    /// up to round-off.
    pub fn discrete_gradient(
        &self,
        q0: &[f64],
        q1: &[f64],
        mut jac: Option<&mut Mat<f64>>,
    ) -> Result<Vec<f64>> {
        check_len("q0", q0, self.n_dofs())?;
        check_len("q1", q1, self.n_dofs())?;
        let mut f = vec![0.0; self.n_dofs()];
        for e in 0..self.n_elements {
            let o = 4 * e;
            let (a, b) = (&q0[o..o + 8], &q1[o..o + 8]);
            let mut m = [0.0; 8];
            for i in 0..8 {
                m[i] = 0.5 * (a[i] + b[i]);
            }
            for g in &self.gauss {
                let (ea0, ea1) = (mat8_vec(&g.he, a), mat8_vec(&g.he, b));
                let (ka0, ka1) = (mat8_vec(&g.hk, a), mat8_vec(&g.hk, b));
                let eps = 0.5 * (0.5 * dot8(&ea0, a) - 0.5 + 0.5 * dot8(&ea1, b) - 0.5);
                let kap = 0.5 * (0.5 * dot8(&ka0, a) + 0.5 * dot8(&ka1, b));
                let (gm, km) = (mat8_vec(&g.he, &m), mat8_vec(&g.hk, &m));
                let (ne, mk) = (g.wh * self.ea * eps, g.wh * self.ei * kap);
                for i in 0..8 {
                    f[o + i] += ne * gm[i] + mk * km[i];
                }
                if let Some(jac) = jac.as_deref_mut() {
                    for i in 0..8 {
                        for j in 0..8 {
                            jac[(o + i, o + j)] += 0.5
                                * (g.wh * (self.ea * gm[i] * ea1[j] + self.ei * km[i] * ka1[j])
                                    + ne * g.he[i][j]
                                    + mk * g.hk[i][j]);
                        }
                    }
                }
            }
        }
        Ok(f)
    }
}

/// A linear constraint $\sum_i c_i q_i = b(t)$ on the coordinates of an [`ExactBeam2d`].
pub struct LinearConstraint {
    /// Name (reports).
    pub name: String,
    /// Coefficients $(i, c_i)$.
    pub coeffs: Vec<(usize, f64)>,
    /// Right-hand side $b(t)$.
    pub rhs: Box<dyn Fn(f64) -> f64 + Send + Sync>,
}

impl std::fmt::Debug for LinearConstraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinearConstraint")
            .field("name", &self.name)
            .field("coeffs", &self.coeffs)
            .finish_non_exhaustive()
    }
}

impl LinearConstraint {
    /// $q_i = b(t)$.
    pub fn coordinate(
        name: impl Into<String>,
        i: usize,
        rhs: impl Fn(f64) -> f64 + Send + Sync + 'static,
    ) -> Self {
        Self {
            name: name.into(),
            coeffs: vec![(i, 1.0)],
            rhs: Box::new(rhs),
        }
    }

    /// $q_i = $ `value` for all $t$.
    pub fn fixed(name: impl Into<String>, i: usize, value: f64) -> Self {
        Self::coordinate(name, i, move |_| value)
    }
}

/// Newton and step parameters of [`ConstrainedBeam::integrate`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepParams {
    /// Initial time \[s\].
    pub t0: f64,
    /// Final time \[s\] (the last step lands on it; the step count is rounded).
    pub t_end: f64,
    /// Step \[s\].
    pub h: f64,
    /// Convergence: max-norm of the coordinate increment (coordinates are metres and
    /// dimensionless tangents, both of order one).
    pub tol: f64,
    /// Newton iterations per step before giving up.
    pub max_iterations: usize,
}

impl StepParams {
    /// `h` on $[t_0, t_{end}]$ with `tol = 1e-12`, 25 iterations.
    pub fn new(t0: f64, t_end: f64, h: f64) -> Self {
        Self {
            t0,
            t_end,
            h,
            tol: 1e-12,
            max_iterations: 25,
        }
    }
}

/// Work counters and invariants of an integration.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepStats {
    /// Steps.
    pub steps: usize,
    /// Newton iterations.
    pub newton_iterations: usize,
    /// LU factorisations.
    pub factorizations: usize,
    /// Largest $|H_1 - H_0 - \lambda^\top(b_1 - b_0)|$ of a step \[J\].
    pub max_energy_residual: f64,
    /// Largest $|H|$ over the run \[J\].
    pub max_energy: f64,
    /// Largest constraint violation $|Bq - b|$ \[m\].
    pub max_violation: f64,
}

/// An [`ExactBeam2d`] with point masses at nodes and linear constraints (Lagrange
/// multipliers, index 3).
#[derive(Debug)]
pub struct ConstrainedBeam {
    beam: ExactBeam2d,
    mass: Mat<f64>,
    constraints: Vec<LinearConstraint>,
}

impl ConstrainedBeam {
    /// The beam without point masses or constraints.
    pub fn new(beam: ExactBeam2d) -> Self {
        let mass = beam.mass_matrix();
        Self {
            beam,
            mass,
            constraints: Vec::new(),
        }
    }

    /// Adds a point mass (no rotary inertia) at node `node`.
    pub fn point_mass(mut self, node: usize, mass: f64) -> Result<Self> {
        positive("point mass", mass)?;
        let d = self.beam.node_dofs(node)?;
        self.mass[(d[0], d[0])] += mass;
        self.mass[(d[1], d[1])] += mass;
        Ok(self)
    }

    /// Adds a linear constraint.
    pub fn constraint(mut self, c: LinearConstraint) -> Result<Self> {
        for &(i, a) in &c.coeffs {
            if i >= self.beam.n_dofs() {
                return Err(ExactBeamError::OutOfRange {
                    what: "coordinate",
                    index: i,
                    count: self.beam.n_dofs(),
                });
            }
            if !a.is_finite() {
                return Err(ExactBeamError::NotPositive {
                    name: "constraint coefficient (finite)",
                    value: a,
                });
            }
        }
        self.constraints.push(c);
        Ok(self)
    }

    /// The beam.
    pub fn beam(&self) -> &ExactBeam2d {
        &self.beam
    }

    /// The mass matrix with the point masses.
    pub fn mass(&self) -> &Mat<f64> {
        &self.mass
    }

    /// Kinetic energy $\frac12 v^\top M v$.
    pub fn kinetic_energy(&self, v: &[f64]) -> Result<f64> {
        check_len("v", v, self.beam.n_dofs())?;
        let n = v.len();
        let mut t = 0.0;
        for i in 0..n {
            for j in 0..n {
                t += 0.5 * v[i] * self.mass[(i, j)] * v[j];
            }
        }
        Ok(t)
    }

    /// $H = T + U$.
    pub fn hamiltonian(&self, q: &[f64], v: &[f64]) -> Result<f64> {
        Ok(self.kinetic_energy(v)? + self.beam.strain_energy(q)?)
    }

    fn violation(&self, q: &[f64], t: f64) -> f64 {
        self.constraints
            .iter()
            .map(|c| (c.coeffs.iter().map(|&(i, a)| a * q[i]).sum::<f64>() - (c.rhs)(t)).abs())
            .fold(0.0, f64::max)
    }

    /// Solves the saddle-point system `[[A, -s Bᵀ], [s B, 0]] (dq, μ) = rhs` factorised in `lu`.
    fn factor(
        &self,
        a: &Mat<f64>,
        s: f64,
        t: f64,
    ) -> Result<faer::linalg::solvers::PartialPivLu<f64>> {
        let (n, m) = (self.beam.n_dofs(), self.constraints.len());
        let mut k = Mat::<f64>::zeros(n + m, n + m);
        for j in 0..n {
            for i in 0..n {
                k[(i, j)] = a[(i, j)];
            }
        }
        for (r, c) in self.constraints.iter().enumerate() {
            for &(i, v) in &c.coeffs {
                k[(n + r, i)] = s * v;
                k[(i, n + r)] = -s * v;
            }
        }
        let lu = k.partial_piv_lu();
        let u = lu.U();
        let (mut umax, mut umin) = (0.0f64, f64::INFINITY);
        for i in 0..n + m {
            umax = umax.max(u[(i, i)].abs());
            umin = umin.min(u[(i, i)].abs());
        }
        let rcond = if umax > 0.0 { umin / umax } else { 0.0 };
        if rcond.is_nan() || rcond <= 1e-15 {
            return Err(ExactBeamError::Singular { t, rcond });
        }
        Ok(lu)
    }

    /// Static equilibrium $f(q) = F - B^\top\lambda$, $Bq = b(t)$ under the constant load
    /// `load` (generalised forces), by Newton from `q_guess` with `load_steps` equal load
    /// increments. Returns $(q, \lambda)$.
    pub fn solve_static(
        &self,
        q_guess: &[f64],
        load: &[f64],
        t: f64,
        load_steps: usize,
    ) -> Result<(Vec<f64>, Vec<f64>)> {
        let n = self.beam.n_dofs();
        let m = self.constraints.len();
        check_len("q_guess", q_guess, n)?;
        check_len("load", load, n)?;
        let mut q = q_guess.to_vec();
        let mut lam = vec![0.0; m];
        let steps = load_steps.max(1);
        // scale of the constraint rows: a typical stiffness EA / h
        let s = self.beam.ea / self.beam.element_length();
        for ls in 1..=steps {
            let factor = ls as f64 / steps as f64;
            let mut converged = false;
            let mut last = f64::INFINITY;
            for _ in 0..50 {
                let mut k = Mat::<f64>::zeros(n, n);
                let f = self.beam.internal_force(&q, Some(&mut k))?;
                let mut rhs = Mat::<f64>::zeros(n + m, 1);
                for i in 0..n {
                    rhs[(i, 0)] = -(f[i] - factor * load[i]);
                }
                for (r, c) in self.constraints.iter().enumerate() {
                    for &(i, a) in &c.coeffs {
                        rhs[(i, 0)] += a * lam[r];
                    }
                    let g: f64 = c.coeffs.iter().map(|&(i, a)| a * q[i]).sum::<f64>() - (c.rhs)(t);
                    rhs[(n + r, 0)] = -s * g;
                }
                let lu = self.factor(&k, s, t)?;
                let dx = lu.solve(&rhs);
                let mut inc = 0.0f64;
                for i in 0..n {
                    q[i] += dx[(i, 0)];
                    inc = inc.max(dx[(i, 0)].abs());
                }
                for r in 0..m {
                    lam[r] += s * dx[(n + r, 0)];
                }
                last = inc;
                if !inc.is_finite() {
                    break;
                }
                if inc < 1e-13 {
                    converged = true;
                    break;
                }
            }
            if !converged {
                return Err(ExactBeamError::Newton {
                    t,
                    iterations: 50,
                    increment: last,
                });
            }
        }
        Ok((q, lam))
    }

    /// Lowest circular frequency of small vibrations about the equilibrium `q` (tangent
    /// stiffness including the geometric stiffness of the prestress), on the coordinates not
    /// fixed by a single-coordinate constraint (the constraints of the pinned / clamped beams
    /// of the tests). Inverse iteration on $K x = \omega^2 M x$.
    pub fn lowest_frequency(&self, q: &[f64]) -> Result<f64> {
        let n = self.beam.n_dofs();
        check_len("q", q, n)?;
        let mut fixed = vec![false; n];
        for c in &self.constraints {
            if c.coeffs.len() == 1 {
                fixed[c.coeffs[0].0] = true;
            }
        }
        let free: Vec<usize> = (0..n).filter(|&i| !fixed[i]).collect();
        let nf = free.len();
        let mut kfull = Mat::<f64>::zeros(n, n);
        self.beam.internal_force(q, Some(&mut kfull))?;
        let k = Mat::<f64>::from_fn(nf, nf, |i, j| kfull[(free[i], free[j])]);
        let mm = Mat::<f64>::from_fn(nf, nf, |i, j| self.mass[(free[i], free[j])]);
        let lu = k.partial_piv_lu();
        let mut x = Mat::<f64>::from_fn(nf, 1, |i, _| 1.0 + 0.1 * (i as f64).sin());
        let mut lambda_old = f64::INFINITY;
        let mut change = f64::INFINITY;
        for _ in 0..500 {
            let y = lu.solve(&(&mm * &x));
            let kx = &k * &y;
            let mx = &mm * &y;
            let (mut num, mut den) = (0.0f64, 0.0f64);
            for i in 0..nf {
                num += y[(i, 0)] * kx[(i, 0)];
                den += y[(i, 0)] * mx[(i, 0)];
            }
            let lambda = num / den;
            let norm = den.sqrt();
            x = Mat::<f64>::from_fn(nf, 1, |i, _| y[(i, 0)] / norm);
            change = ((lambda - lambda_old) / lambda).abs();
            if change < 1e-15 {
                return Ok(lambda.sqrt());
            }
            lambda_old = lambda;
        }
        if change < 1e-12 {
            return Ok(lambda_old.sqrt());
        }
        Err(ExactBeamError::Eigen { change })
    }

    /// Integrates from $(q_0, v_0)$ at `params.t0` with the energy-consistent index-3 midpoint
    /// rule of the module documentation; `observer(t, q, v)` sees the initial state and the
    /// end of every step.
    pub fn integrate(
        &self,
        q0: &[f64],
        v0: &[f64],
        params: StepParams,
        observer: StateObserver<'_>,
    ) -> Result<StepStats> {
        let n = self.beam.n_dofs();
        let m = self.constraints.len();
        check_len("q0", q0, n)?;
        check_len("v0", v0, n)?;
        let StepParams {
            t0,
            t_end,
            h,
            tol,
            max_iterations,
        } = params;
        if !(h > 0.0 && h.is_finite() && t_end > t0 && t0.is_finite() && t_end.is_finite()) {
            return Err(ExactBeamError::TimeGrid { t0, t_end, h });
        }
        let steps = ((t_end - t0) / h).round().max(1.0) as usize;
        let mut stats = StepStats::default();
        let (mut q, mut v) = (q0.to_vec(), v0.to_vec());
        let mut energy = self.hamiltonian(&q, &v)?;
        stats.max_energy = energy.abs();
        stats.max_violation = self.violation(&q, t0);
        observer(t0, &q, &v);
        let c2 = 2.0 / (h * h);
        // constraint row scale: the inertia term of one element
        let s = c2 * self.beam.rho_a * self.beam.element_length();
        // M (q0 + h v0) is needed at each iteration: r = c2 M (q1 - q0 - h v0)
        let mut q1 = vec![0.0; n];
        let mut lam = vec![0.0; m];
        for k in 1..=steps {
            let (ta, tb) = (t0 + (k - 1) as f64 * h, t0 + k as f64 * h);
            let target: Vec<f64> = (0..n).map(|i| q[i] + h * v[i]).collect();
            q1.copy_from_slice(&target);
            let b1: Vec<f64> = self.constraints.iter().map(|c| (c.rhs)(tb)).collect();
            let mut lu = None;
            let mut converged = false;
            let mut inc = f64::INFINITY;
            let mut iters = 0;
            while iters < max_iterations {
                iters += 1;
                let refresh = lu.is_none() || iters % 8 == 0;
                let mut jac = if refresh {
                    Some(Mat::<f64>::from_fn(n, n, |i, j| c2 * self.mass[(i, j)]))
                } else {
                    None
                };
                let f = self.beam.discrete_gradient(&q, &q1, jac.as_mut())?;
                let mut rhs = Mat::<f64>::zeros(n + m, 1);
                for i in 0..n {
                    let mut mi = 0.0;
                    for j in 0..n {
                        mi += self.mass[(i, j)] * (q1[j] - target[j]);
                    }
                    rhs[(i, 0)] = -(c2 * mi + f[i]);
                }
                for (r, c) in self.constraints.iter().enumerate() {
                    let mut g = -b1[r];
                    for &(i, a) in &c.coeffs {
                        rhs[(i, 0)] += a * lam[r];
                        g += a * q1[i];
                    }
                    rhs[(n + r, 0)] = -s * g;
                }
                if let Some(j) = jac {
                    lu = Some(self.factor(&j, s, tb)?);
                    stats.factorizations += 1;
                }
                let dx = lu.as_ref().expect("factorised above").solve(&rhs);
                inc = 0.0;
                for i in 0..n {
                    q1[i] += dx[(i, 0)];
                    inc = inc.max(dx[(i, 0)].abs());
                }
                for r in 0..m {
                    lam[r] += s * dx[(n + r, 0)];
                }
                if !inc.is_finite() {
                    break;
                }
                if inc <= tol {
                    converged = true;
                    break;
                }
            }
            stats.newton_iterations += iters;
            if !converged {
                return Err(ExactBeamError::Newton {
                    t: tb,
                    iterations: iters,
                    increment: inc,
                });
            }
            let v1: Vec<f64> = (0..n).map(|i| 2.0 * (q1[i] - q[i]) / h - v[i]).collect();
            let e1 = self.hamiltonian(&q1, &v1)?;
            let work: f64 = self
                .constraints
                .iter()
                .enumerate()
                .map(|(r, c)| lam[r] * ((c.rhs)(tb) - (c.rhs)(ta)))
                .sum::<f64>();
            stats.max_energy_residual = stats.max_energy_residual.max((e1 - energy - work).abs());
            stats.max_energy = stats.max_energy.max(e1.abs());
            stats.max_violation = stats.max_violation.max(self.violation(&q1, tb));
            energy = e1;
            q.copy_from_slice(&q1);
            v = v1;
            stats.steps += 1;
            observer(tb, &q, &v);
        }
        Ok(stats)
    }
}

/// The §6.3 crank–slider with a geometrically exact coupler (module documentation); same
/// parameters and defaults as [`crate::CrankSlider`].
#[derive(Debug, Clone, PartialEq)]
pub struct ExactCrankSlider {
    /// Crank length $L_{cr}$ \[m\].
    pub crank_length: f64,
    /// Crank rate $\omega$ \[rad/s\].
    pub crank_rate: f64,
    /// Coupler length $L$ \[m\].
    pub coupler_length: f64,
    /// Coupler diameter (solid circle) \[m\].
    pub diameter: f64,
    /// Young modulus \[Pa\].
    pub young: f64,
    /// Density \[kg/m³\].
    pub density: f64,
    /// Slider mass \[kg\].
    pub slider_mass: f64,
    /// Coupler elements (even, so that $L/2$ is a node).
    pub elements: usize,
}

impl Default for ExactCrankSlider {
    fn default() -> Self {
        Self {
            crank_length: 0.15,
            crank_rate: 150.0,
            coupler_length: 0.3,
            diameter: 0.006,
            young: 2.0e11,
            density: 7870.0,
            slider_mass: 0.033,
            elements: 8,
        }
    }
}

/// Histories and diagnostics of an [`ExactCrankSlider`] run.
#[derive(Debug, Clone)]
pub struct ExactRun {
    /// Output times \[s\].
    pub t: Vec<f64>,
    /// $u_x(L/2)/L$ (relative to the chord, module documentation).
    pub ux: Vec<f64>,
    /// $u_y(L/2)/L$.
    pub uy: Vec<f64>,
    /// Smallest and largest $u_y(L/2)/L$.
    pub uy_range: (f64, f64),
    /// Smallest and largest Gauss-point normal force $EA\varepsilon$ over the Euler load
    /// $\pi^2 EI/L^2$.
    pub normal_force_range: (f64, f64),
    /// Largest discrete energy-balance residual of a step over the largest $|H|$.
    pub rel_energy_residual: f64,
    /// Work counters and invariants.
    pub stats: StepStats,
    /// Wall time of the integration \[s\].
    pub seconds: f64,
}

impl ExactCrankSlider {
    /// The paper's crank–slider with `elements` coupler elements.
    pub fn new(elements: usize) -> Self {
        Self {
            elements,
            ..Self::default()
        }
    }

    /// Euler load $\pi^2 EI/L^2$ \[N\].
    pub fn euler_load(&self) -> f64 {
        let i = std::f64::consts::PI * self.diameter.powi(4) / 64.0;
        std::f64::consts::PI.powi(2) * self.young * i / self.coupler_length.powi(2)
    }

    /// The constrained coupler: node 0 on the crank circle, slider mass and $Y = 0$ at the
    /// last node.
    pub fn build(&self) -> Result<ConstrainedBeam> {
        positive("crank length", self.crank_length)?;
        if !self.crank_rate.is_finite() {
            return Err(ExactBeamError::NotPositive {
                name: "crank rate (finite)",
                value: self.crank_rate,
            });
        }
        positive("diameter", self.diameter)?;
        let pi = std::f64::consts::PI;
        let d = self.diameter;
        let beam = ExactBeam2d::from_material(
            self.coupler_length,
            self.density,
            self.young,
            pi * d * d / 4.0,
            pi * d.powi(4) / 64.0,
            self.elements,
        )?;
        let last = beam.node_dofs(self.elements)?;
        let (lcr, w) = (self.crank_length, self.crank_rate);
        ConstrainedBeam::new(beam)
            .point_mass(self.elements, self.slider_mass)?
            .constraint(LinearConstraint::coordinate("crank x", 0, move |t| {
                lcr * (w * t).cos()
            }))?
            .constraint(LinearConstraint::coordinate("crank y", 1, move |t| {
                lcr * (w * t).sin()
            }))?
            .constraint(LinearConstraint::fixed("slider y", last[1], 0.0))
    }

    /// Runs from the undeformed start with the rigid velocities to `t_end` with step `h`.
    pub fn run(&self, h: f64, t_end: f64) -> Result<ExactRun> {
        let sys = self.build()?;
        let beam = sys.beam().clone();
        let l = self.coupler_length;
        let v = self.crank_rate * self.crank_length;
        let q0 = beam.straight([self.crank_length, 0.0], 0.0);
        let v0 = beam.rigid_velocity(&q0, [self.crank_length, 0.0], [0.0, v], -v / l)?;
        let pcr = self.euler_load();
        let last = beam.node_dofs(self.elements)?;
        let mut out = ExactRun {
            t: Vec::new(),
            ux: Vec::new(),
            uy: Vec::new(),
            uy_range: (f64::INFINITY, f64::NEG_INFINITY),
            normal_force_range: (f64::INFINITY, f64::NEG_INFINITY),
            rel_energy_residual: 0.0,
            stats: StepStats::default(),
            seconds: 0.0,
        };
        let mut err = None;
        let start = Instant::now();
        let stats = sys.integrate(&q0, &v0, StepParams::new(0.0, t_end, h), &mut |t, q, _v| {
            let mid = match beam.position(q, 0.5 * l) {
                Ok(p) => p,
                Err(e) => {
                    err = Some(e);
                    return;
                }
            };
            let (p, c) = ([q[0], q[1]], [q[last[0]], q[last[1]]]);
            let chord = [c[0] - p[0], c[1] - p[1]];
            let len = chord[0].hypot(chord[1]);
            let e = [chord[0] / len, chord[1] / len];
            let d = [mid[0] - p[0], mid[1] - p[1]];
            let ux = (e[0] * d[0] + e[1] * d[1]) / l - 0.5;
            let uy = (-e[1] * d[0] + e[0] * d[1]) / l;
            out.t.push(t);
            out.ux.push(ux);
            out.uy.push(uy);
            out.uy_range.0 = out.uy_range.0.min(uy);
            out.uy_range.1 = out.uy_range.1.max(uy);
            if let Ok(s) = beam.strains(q) {
                for (eps, _) in s {
                    let nf = beam.ea() * eps / pcr;
                    out.normal_force_range.0 = out.normal_force_range.0.min(nf);
                    out.normal_force_range.1 = out.normal_force_range.1.max(nf);
                }
            }
        })?;
        if let Some(e) = err {
            return Err(e);
        }
        out.seconds = start.elapsed().as_secs_f64();
        out.rel_energy_residual =
            stats.max_energy_residual / stats.max_energy.max(f64::MIN_POSITIVE);
        out.stats = stats;
        Ok(out)
    }
}
