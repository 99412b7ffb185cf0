//! The plant of the closed-loop runs (thesis 002 §5.6–§5.7): the nonlinear
//! lumped frame (5.234)–(5.237) with viscous dampers, its inputs, the
//! worst-case disturbance and the thesis's initial state.

use crate::case_study::frame::FrameParams;
use crate::case_study::rig;
use crate::error::Result;
use crate::linalg::solve;
use faer::Mat;
use std::f64::consts::PI;

/// Frequencies (Hz) of the thesis's worst-case disturbance (§5.6).
pub const DISTURBANCE_HZ: [f64; 3] = [1.9, 5.7, 8.8];
/// Amplitude (N) of each tone of the disturbance.
pub const DISTURBANCE_N: f64 = 0.1;

/// The worst-case disturbance force on floor 1, `Σ 0.1 sin(2π fᵢ t)` (N).
pub fn disturbance(t: f64) -> f64 {
    DISTURBANCE_HZ
        .iter()
        .map(|f| DISTURBANCE_N * (2.0 * PI * f * t).sin())
        .sum()
}

/// Thesis initial state (5.217)/(5.247): `xᵢ = 10⁻³ m`, `θ = 3π/2 + φ₀`,
/// velocities `10⁻⁴`; `z = [q; q̇]`.
pub fn initial_state(phi0: f64) -> [f64; 8] {
    [1e-3, 1e-3, 1e-3, 1.5 * PI + phi0, 1e-4, 1e-4, 1e-4, 1e-4]
}

/// The nonlinear lumped model (5.234)–(5.237) with viscous dampers.
#[derive(Clone, Debug)]
pub struct NonlinearFrame {
    /// physical data
    pub p: FrameParams,
    /// dampers `σ₁, σ₂, σ₃` (inter-story) and `σ₄` (pendulum)
    pub sigma: [f64; 4],
}

/// Generalised inputs of the nonlinear frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameInputs {
    /// external force on floor 1 (N)
    pub force1: f64,
    /// control force on floor 3 (N), EUK design B
    pub force3: f64,
    /// motor torque on the pendulum (N m)
    pub torque: f64,
}

impl NonlinearFrame {
    /// The case-study plant: `σᵢ = c kᵢ` with `c = 2 ξ₂/ω₂` (ξ₂ = 0.0030 on
    /// the second sway mode of the lumped model with hinged pendulum), `σ₄ = r₄`.
    pub fn case_study(p: FrameParams) -> Result<Self> {
        let lin = p.lumped_linear()?;
        let modes = lin.undamped_modes()?;
        // mode 0 is the pendulum mode (1.10 Hz), mode 1 the first sway mode, mode 2 the second
        let c = 2.0 * 0.0030 / modes.omega[2];
        let k = p.stiffness();
        Ok(Self {
            sigma: [c * k[0], c * k[1], c * k[2], p.r4],
            p,
        })
    }

    /// Inter-story damping matrix of the floors (the `σ₁…σ₃` part of (5.237)).
    pub fn floor_damping(&self) -> Mat<f64> {
        let [s1, s2, s3, _] = self.sigma;
        Mat::from_fn(3, 3, |i, j| {
            [[s1 + s2, -s2, 0.0], [-s2, s2 + s3, -s3], [0.0, -s3, s3]][i][j]
        })
    }

    /// The structure of the hammer tests: lumped frame with the pendulum
    /// locked (3 DOF, `m₃ + m₄` on floor 3) and the plant's dampers.
    pub fn locked_structure(&self) -> Result<rig::Structure> {
        let mut s = rig::Structure::lumped(&self.p, rig::Pendulum::Locked)?;
        s.model.R = self.floor_damping();
        s.name = "lumped shear frame, pendulum locked, inter-story dampers".into();
        Ok(s)
    }

    /// Mass matrix `M(θ)` and forces `Q(q, q̇)` including the inputs.
    pub fn mass_and_forces(&self, z: &[f64], u: &FrameInputs) -> (Mat<f64>, [f64; 4]) {
        let M = self.p.mass_matrix(z[3]);
        let mut Q = self
            .p
            .forces(&z[..4], &z[4..8], self.sigma, u.force1, u.torque);
        Q[2] += u.force3;
        (M, Q)
    }

    /// Accelerations `q̈ = M(θ)⁻¹ Q` (4×4 solve).
    pub fn acceleration(&self, z: &[f64], u: &FrameInputs) -> Result<[f64; 4]> {
        let (M, Q) = self.mass_and_forces(z, u);
        let b = Mat::from_fn(4, 1, |i, _| Q[i]);
        let a = solve("M(θ)", M.as_ref(), b.as_ref())?;
        Ok([a[(0, 0)], a[(1, 0)], a[(2, 0)], a[(3, 0)]])
    }

    /// `ż = [q̇; q̈]`.
    pub fn rhs(&self, z: &[f64], u: &FrameInputs, dz: &mut [f64]) -> Result<()> {
        let a = self.acceleration(z, u)?;
        dz[..4].copy_from_slice(&z[4..8]);
        dz[4..8].copy_from_slice(&a);
        Ok(())
    }

    /// Total mechanical energy (kinetic + elastic + gravity of the pendulum
    /// relative to the hanging position) (J).
    pub fn energy(&self, z: &[f64]) -> f64 {
        let M = self.p.mass_matrix(z[3]);
        let v = &z[4..8];
        let mut t = 0.0;
        for i in 0..4 {
            for j in 0..4 {
                t += 0.5 * v[i] * M[(i, j)] * v[j];
            }
        }
        let k = self.p.stiffness();
        let x = &z[..3];
        let u = 0.5 * k[0] * x[0] * x[0]
            + 0.5 * k[1] * (x[1] - x[0]).powi(2)
            + 0.5 * k[2] * (x[2] - x[1]).powi(2);
        let g = self.p.m4 * self.p.g * self.p.L4 * (z[3].sin() + 1.0);
        t + u + g
    }
}
