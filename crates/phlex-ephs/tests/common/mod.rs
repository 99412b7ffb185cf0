//! Shared set-ups of the phlex-ephs integration tests: the planar double pendulum of two
//! rods on SE(3) bodies with revolute joints (`pendulum.rs`, `stabilization.rs`,
//! `mbs_cross_check.rs`), a Radau IIA run of an assembled model sampled on a time grid, and
//! the monitor of the energy and entropy statements along a trajectory.
//!
//! Each test binary compiles this module on its own and uses a part of it.
#![allow(dead_code)]

use phlex_core::geometry::mat3::Mat3;
use phlex_core::geometry::{so3, Se3};
use phlex_ephs::library::joint::{joint, spherical_coords, JointKind, JointParams};
use phlex_ephs::library::multibody::MultibodyBuilder;
use phlex_ephs::library::rigid_body::{ground, rigid_body};
use phlex_ephs::{assemble, EphsDae, System};
use phlex_solve::radau5::{OutputTimes, Radau5Solution};
use phlex_solve::{ImplicitDae, Radau5, Radau5Params};

/// Gravitational acceleration of the pendulum tests \[m/s²\].
pub const G: f64 = 9.81;

/// Environment temperature $\theta_0$ \[K\] of the assembled pendulum models.
pub const THETA0: f64 = 300.0;

/// A double pendulum of two slender rods hinged at the origin and to each other by
/// revolute joints `j1`, `j2` with axes along the inertial y axis (bodies `b1`, `b2`),
/// under gravity $-G e_3$; the rods hang along $-e_3$ at zero joint angles.
#[derive(Debug, Clone, Copy)]
pub struct DoublePendulum {
    /// Rod masses \[kg\].
    pub m: [f64; 2],
    /// Rod lengths \[m\].
    pub l: [f64; 2],
    /// Axial moment of inertia of a rod as a fraction of its transverse one $ml^2/12$.
    pub axial: f64,
    /// Viscous friction coefficient of both joints.
    pub friction: f64,
}

/// Central inertia of a slender rod of mass `m` and length `l` along the body $e_3$ axis,
/// its axial moment `axial` times the transverse moment $ml^2/12$.
pub fn rod(m: f64, l: f64, axial: f64) -> Mat3 {
    let j = m * l * l / 12.0;
    [[j, 0.0, 0.0], [0.0, j, 0.0], [0.0, 0.0, axial * j]]
}

/// Joint frame at body height `z`, its $e_3$ along the inertial y axis (so a revolute
/// joint angle rotates about y).
pub fn frame(z: f64) -> Se3 {
    Se3::new(
        so3::exp([-std::f64::consts::FRAC_PI_2, 0.0, 0.0]),
        [0.0, 0.0, z],
    )
}

impl DoublePendulum {
    /// The EPHS system: ground, two rigid bodies (Fig. 2), two revolute joints (Fig. 3).
    pub fn system(&self) -> System {
        let (m, l) = (self.m, self.l);
        let rev = |o1: Se3, o2: Se3| {
            joint(&JointParams {
                kind: JointKind::Revolute,
                o1,
                o2,
                potential: None,
                friction: vec![self.friction],
            })
            .unwrap()
        };
        let body = |i: usize| rigid_body(m[i], rod(m[i], l[i], self.axial), [0.0, 0.0, G]).unwrap();
        let mut b = MultibodyBuilder::new();
        b.body("ground", ground().unwrap())
            .body("b1", body(0))
            .body("b2", body(1))
            .joint("j1", rev(frame(0.0), frame(l[0] / 2.0)), "ground", "b1")
            .joint("j2", rev(frame(-l[0] / 2.0), frame(l[1] / 2.0)), "b1", "b2");
        b.build().unwrap().into()
    }

    /// The assembled DAE at $\theta_0$ = [`THETA0`].
    pub fn dae(&self) -> EphsDae {
        EphsDae::new(assemble(&self.system()).unwrap(), THETA0).unwrap()
    }

    /// A state at rest at the absolute rod angles $(\theta_1, \theta_2)$ about y, made
    /// consistent (multipliers from the hidden constraints); also returns the residual of
    /// the consistent initialisation.
    pub fn at_rest(&self, dae: &EphsDae, th1: f64, th2: f64) -> (Vec<f64>, f64) {
        let l = self.l;
        let mut y = dae.default_state();
        let q1 = frame(0.0)
            .mul(&JointKind::Revolute.inclusion(&[th1]))
            .mul(&frame(l[0] / 2.0).inverse());
        let q2 = q1
            .mul(&frame(-l[0] / 2.0))
            .mul(&JointKind::Revolute.inclusion(&[th2 - th1]))
            .mul(&frame(l[1] / 2.0).inverse());
        let mut c = [0.0; 12];
        q1.to_coords(&mut c);
        dae.set_state(&mut y, "b1.pe.q", &c).unwrap();
        q2.to_coords(&mut c);
        dae.set_state(&mut y, "b2.pe.q", &c).unwrap();
        dae.set_state(&mut y, "j1.pe.q_r", &[th1]).unwrap();
        dae.set_state(&mut y, "j2.pe.q_r", &[th2 - th1]).unwrap();
        let r = dae.make_consistent(0.0, &mut y).unwrap();
        (y, r)
    }

    /// Offsets of the joint angles `j1.pe.q_r`, `j2.pe.q_r` in the state of `dae`.
    pub fn joint_angles(dae: &EphsDae) -> [usize; 2] {
        ["j1.pe.q_r", "j2.pe.q_r"].map(|n| dae.state_range(n).unwrap().start)
    }
}

/// Integrates `dae` (an EPHS model or any other [`ImplicitDae`]) from $(0, y_0)$ to `t_end` by Radau IIA with tolerances
/// `(rtol, atol)`, calling `obs` at the times of `grid`.
pub fn radau<P: ImplicitDae + ?Sized>(
    dae: &P,
    y0: &[f64],
    t_end: f64,
    (rtol, atol): (f64, f64),
    grid: &[f64],
    mut obs: impl FnMut(f64, &[f64]),
) -> Radau5Solution {
    Radau5::new(Radau5Params::with_tolerances(rtol, atol))
        .unwrap()
        .integrate(dae, 0.0, y0, t_end, OutputTimes::Grid(grid), &mut obs)
        .unwrap()
}

/// Monitor of the energy and entropy statements along a trajectory: the largest relative
/// change of a conserved energy, $\max_k |E(t_k) - E_0|/|E_0|$, and the smallest entropy
/// increment between samples, $\min_k (s_k - s_{k-1})$ (second law: $\ge 0$).
#[derive(Debug, Clone)]
pub struct Balance {
    /// Initial energy $E_0$.
    pub e0: f64,
    /// Offset of the entropy in the state.
    pub s: usize,
    /// Largest relative energy change so far.
    pub de: f64,
    /// Smallest entropy increment between two samples so far (`f64::MAX` before the
    /// second sample).
    pub ds_min: f64,
    /// Entropy of the last sample.
    pub s_prev: f64,
}

impl Balance {
    /// A monitor for energy `e0` and the entropy at offset `s` of the initial state `y0`.
    pub fn new(e0: f64, s: usize, y0: &[f64]) -> Self {
        Self {
            e0,
            s,
            de: 0.0,
            ds_min: f64::MAX,
            s_prev: y0[s],
        }
    }

    /// Records the sample $(t, E(y), y)$; the sample at $t = 0$ only sets the entropy.
    pub fn observe(&mut self, t: f64, energy: f64, y: &[f64]) {
        self.de = self.de.max((energy - self.e0).abs() / self.e0.abs());
        self.observe_entropy(t, y);
    }

    /// Records the entropy of the sample $(t, y)$ only (for a trajectory whose energy is
    /// not conserved).
    pub fn observe_entropy(&mut self, t: f64, y: &[f64]) {
        if t > 0.0 {
            self.ds_min = self.ds_min.min(y[self.s] - self.s_prev);
        }
        self.s_prev = y[self.s];
    }
}

/// The lower pairs with an initial relative configuration $q_r$ and relative velocity
/// $u_r$ each (summary §11): `(kind, q_r, u_r)`.
pub fn lower_pair_cases() -> Vec<(JointKind, Vec<f64>, Vec<f64>)> {
    vec![
        (JointKind::Revolute, vec![0.3], vec![1.5]),
        (JointKind::Prismatic, vec![0.2], vec![0.7]),
        (JointKind::Cylindrical, vec![0.3, 0.1], vec![1.2, -0.4]),
        (JointKind::Screw { pitch: 0.1 }, vec![0.3], vec![1.5]),
        (
            JointKind::Planar,
            vec![0.3, 0.1, -0.2],
            vec![1.0, 0.3, -0.2],
        ),
        (
            JointKind::Spherical,
            spherical_coords([0.2, -0.3, 0.4]),
            vec![1.0, -0.5, 2.0],
        ),
    ]
}
