//! The case-study structure of thesis 002 ch. 5: a planar three-story frame
//! with a motor-driven pendulum on the third floor (§5.2 parameters, §5.3
//! lumped model).
//!
//! Coordinates `q = [x₁, x₂, x₃, θ]`; the pendulum centre of mass is at
//! `[x₃ + L₄ cos θ, L₁+L₂+L₃ + L₄ sin θ]`, hanging at `θ₀ = 3π/2`.
//! Story stiffness of two fixed–guided columns `kᵢ = 24 E J / Lᵢ³`.
//! Nonlinear model: thesis eq. (5.57); linearised model about the hanging
//! pendulum, `φ = θ − 3π/2`: eqs. (5.60)–(5.62).

use crate::error::Result;
use crate::linalg::diag;
use crate::model::mdof::Mdof;
use faer::Mat;

/// Physical data of the test rig (thesis §5.2, table of parameters).
#[derive(Clone, Debug, PartialEq)]
pub struct FrameParams {
    /// column lengths of stories 1–3 (m)
    pub L: [f64; 3],
    /// pendulum pivot to centre of mass (m)
    pub L4: f64,
    /// column cross-section width b (m)
    pub b: f64,
    /// column cross-section thickness h (m)
    pub h: f64,
    /// Young's modulus of the columns (N/m²)
    pub E: f64,
    /// floor masses m₁, m₂, m₃ (kg)
    pub m: [f64; 3],
    /// pendulum mass m₄ (kg)
    pub m4: f64,
    /// pendulum moment of inertia about its centre of mass (kg m²)
    pub Izz: f64,
    /// gravity (m/s²); not printed in the thesis, 9.81 reproduces its numbers
    pub g: f64,
    /// pendulum angular damping r₄ (N m s/rad)
    pub r4: f64,
}

impl Default for FrameParams {
    fn default() -> Self {
        Self {
            L: [0.23, 0.28, 0.23],
            L4: 0.0825,
            b: 0.035,
            h: 0.001,
            E: 207e9,
            m: [1.281, 0.814, 1.380],
            m4: 0.083,
            Izz: 8.32e-4,
            g: 9.81,
            r4: 2.432e-3,
        }
    }
}

impl FrameParams {
    /// Second moment of area of one column `J = b h³ / 12`.
    pub fn J(&self) -> f64 {
        self.b * self.h.powi(3) / 12.0
    }

    /// Story stiffnesses `kᵢ = 24 E J / Lᵢ³` (two fixed–guided columns per story).
    pub fn stiffness(&self) -> [f64; 3] {
        let ej = self.E * self.J();
        [0, 1, 2].map(|i| 24.0 * ej / self.L[i].powi(3))
    }

    /// Shear-frame stiffness matrix of the three floors.
    pub fn floor_stiffness(&self) -> Mat<f64> {
        let [k1, k2, k3] = self.stiffness();
        Mat::from_fn(3, 3, |i, j| {
            [[k1 + k2, -k2, 0.0], [-k2, k2 + k3, -k3], [0.0, -k3, k3]][i][j]
        })
    }

    /// Linearised lumped model about the hanging pendulum, `x = [x₁, x₂, x₃, φ]`
    /// (thesis eqs. (5.60)–(5.62)), undamped, inputs `B = [e₁, e₄]` (force on
    /// floor 1, motor torque).
    pub fn lumped_linear(&self) -> Result<Mdof> {
        let [m1, m2, m3] = self.m;
        let (m4, l4) = (self.m4, self.L4);
        let M = Mat::from_fn(4, 4, |i, j| {
            [
                [m1, 0.0, 0.0, 0.0],
                [0.0, m2, 0.0, 0.0],
                [0.0, 0.0, m3 + m4, m4 * l4],
                [0.0, 0.0, m4 * l4, m4 * l4 * l4 + self.Izz],
            ][i][j]
        });
        let Kf = self.floor_stiffness();
        let mut K = Mat::<f64>::zeros(4, 4);
        K.as_mut().submatrix_mut(0, 0, 3, 3).copy_from(Kf.as_ref());
        K[(3, 3)] = m4 * self.g * l4;
        let B = Mat::from_fn(4, 2, |i, j| {
            ((i == 0 && j == 0) || (i == 3 && j == 1)) as u8 as f64
        });
        Mdof::undamped(M, K, B)
    }

    /// Three-floor shear frame without the pendulum (the identified structure
    /// of §5.5): masses `m₁, m₂, m₃`, force input on floor 1.
    pub fn shear_frame(&self) -> Result<Mdof> {
        let M = diag(&self.m);
        let K = self.floor_stiffness();
        let B = Mat::from_fn(3, 1, |i, _| (i == 0) as u8 as f64);
        Mdof::undamped(M, K, B)
    }

    /// Configuration-dependent mass matrix of the nonlinear model (5.57).
    pub fn mass_matrix(&self, theta: f64) -> Mat<f64> {
        let [m1, m2, m3] = self.m;
        let (m4, l4) = (self.m4, self.L4);
        let c = -m4 * l4 * theta.sin();
        Mat::from_fn(4, 4, |i, j| {
            [
                [m1, 0.0, 0.0, 0.0],
                [0.0, m2, 0.0, 0.0],
                [0.0, 0.0, m3 + m4, c],
                [0.0, 0.0, c, m4 * l4 * l4 + self.Izz],
            ][i][j]
        })
    }

    /// Right-hand side `Q(q, q̇)` of the nonlinear model (5.57) with viscous
    /// inter-story dampers `σ₁…σ₃`, pendulum damping `σ₄` (§5.7), external
    /// force `F` on floor 1 and motor torque `C`.
    pub fn forces(&self, q: &[f64], qd: &[f64], sigma: [f64; 4], F: f64, C: f64) -> [f64; 4] {
        let [k1, k2, k3] = self.stiffness();
        let [s1, s2, s3, s4] = sigma;
        let (m4, l4) = (self.m4, self.L4);
        let (x1, x2, x3, th) = (q[0], q[1], q[2], q[3]);
        let (v1, v2, v3, w) = (qd[0], qd[1], qd[2], qd[3]);
        [
            -(k1 + k2) * x1 + k2 * x2 - (s1 + s2) * v1 + s2 * v2 + F,
            k2 * x1 - (k2 + k3) * x2 + k3 * x3 + s2 * v1 - (s2 + s3) * v2 + s3 * v3,
            m4 * l4 * th.cos() * w * w + k3 * x2 - k3 * x3 + s3 * v2 - s3 * v3,
            -m4 * self.g * l4 * th.cos() - s4 * w + C,
        ]
    }
}
