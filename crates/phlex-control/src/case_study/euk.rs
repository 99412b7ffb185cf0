//! Extended Udwadia–Kalaba control of the frame (thesis 002 §5.7,
//! eqs. (5.234)–(5.290)): hold floor 3, `x₃ = c`, with one actuator.
//!
//! The task `ẍ₃ = b_t` is completed by the uncontrolled equations of the
//! unactuated coordinates (EUK); the constraint matrix is square and
//! invertible, so `Q_c = M A⁻¹ b − Q` (eq. (5.246)):
//!
//! * **design A** (torque `C` on the pendulum, floors unactuated):
//!   `θ̈ = ((m₃+m₄) b_t − Q₃)/(m₄L₄ sin θ)`, `C = −m₄L₄ sin θ b_t + J θ̈ − Q₄`
//!   with `J = m₄L₄² + I_zz`; singular at `sin θ = 0` (5.246);
//! * **design B** (force `F_c3` on floor 3, floors 1–2 and pendulum
//!   unactuated): `θ̈ = (Q₄ + m₄L₄ sin θ b_t)/J`,
//!   `F_c3 = (m₃+m₄) b_t − m₄L₄ sin θ θ̈ − Q₃` (5.251).
//!
//! With `b_t = 0` these are the thesis's laws (checked against the generic
//! [`crate::control::euk::euk_control`] in the tests). The thesis imposes the task
//! at acceleration level only, `c` = the position at switch-on, and
//! switches the controller on when `ẋ₃ ≈ 0` ([`Hold::Thesis`]). Detecting
//! that instant between two steps leaves `|ẋ₃| ≤ |ẍ₃| h` (≈ 3·10⁻³ m/s at
//! h = 1 ms with the 8.8 Hz mode), which the task then keeps forever: floor
//! 3 drifts. [`Hold::Baumgarte`] instead holds floor 3 at a chosen `c`
//! (0: the undeformed position) with the stabilised task
//! `b_t = −2a ẋ₃ − a²(x₃ − c)` (summary §7: "not in the thesis but
//! advisable"); it is needed with estimated states (EUK-EKF), whose errors
//! would otherwise integrate into a drift of floor 3.
//!
//! **EUK-EKF** (5.253)–(5.290): the control is computed from the estimate
//! `ẑ`; the measurements are `y = [ẍ₁, ẍ₂, ẍ₃, θ] + v`. The thesis couples
//! the continuous EKF Riccati equation to the plant; with its data
//! (`R_v = 10⁻⁶`, `P_θθ(0) = 1 rad²`) that equation is stiff
//! (`P_θθ/R_v ≈ 10⁶ s⁻¹`), so the filter here is the sampled-data
//! (continuous–discrete) EKF, its `h → 0` limit: prediction of `ẑ` with the
//! model (RK4) and of `P` with `Φ = I + Fh + (Fh)²/2`, `F = ∂f/∂z` (of the
//! model only, as the thesis), then a Joseph-form measurement update at
//! every step `h`. Noise: the thesis's `W₀ = V₀ = 10⁻³` read as standard
//! deviations per step — the process noise `w` (units of `ż`) is held over
//! each step (state increment `w h`, `Q_d = W₀² h²`), the measurement noise
//! is `v ~ N(0, V₀²)` (`R_d = V₀²`).

use super::{disturbance, initial_state, CaseTrace, FrameInputs, NonlinearFrame};
use crate::case_study::trace::check_step;
use crate::error::{ControlError, Result};
use crate::linalg::{diag, fd_jacobian, DenseLu};
use crate::signal::noise::NoiseRng;
use phlex_solve::Rk4;
use std::f64::consts::PI;

/// Actuator placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Design {
    /// torque on the pendulum (design A)
    A,
    /// force on floor 3 (design B)
    B,
}

/// The task `ẍ₃ = b_t` holding floor 3 at `c`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Task {
    /// reference position `c` of floor 3 (m)
    pub c: f64,
    /// Baumgarte rate `a` (1/s): `b_t = −2a ẋ₃ − a²(x₃ − c)`; `None`: `b_t = 0` (thesis)
    pub baumgarte: Option<f64>,
}

impl Task {
    /// `b_t` at state `z`.
    pub fn rhs(&self, z: &[f64]) -> f64 {
        match self.baumgarte {
            Some(a) => -2.0 * a * z[6] - a * a * (z[2] - self.c),
            None => 0.0,
        }
    }
}

/// EUK control action (N for design B, N m for design A) at state `z` with
/// the external force `force1` (measured by the load cell, thesis §5.6).
pub fn euk_action(
    plant: &NonlinearFrame,
    design: Design,
    task: &Task,
    z: &[f64],
    force1: f64,
) -> Result<f64> {
    let (_, Q) = plant.mass_and_forces(
        z,
        &FrameInputs {
            force1,
            ..Default::default()
        },
    );
    let p = &plant.p;
    let J = p.m4 * p.L4 * p.L4 + p.Izz;
    let s = p.m4 * p.L4 * z[3].sin();
    let bt = task.rhs(z);
    match design {
        Design::B => {
            let thdd = (Q[3] + s * bt) / J;
            Ok((p.m[2] + p.m4) * bt - s * thdd - Q[2])
        }
        Design::A => {
            if s.abs() < 1e-9 * p.m4 * p.L4 {
                return Err(ControlError::Singular {
                    name: "EUK design A: m₄L₄ sin θ (pendulum horizontal)".into(),
                    rcond: s.abs() / (p.m4 * p.L4),
                });
            }
            let thdd = ((p.m[2] + p.m4) * bt - Q[2]) / s;
            Ok(-s * bt + J * thdd - Q[3])
        }
    }
}

fn inputs(design: Design, force1: f64, u: f64) -> FrameInputs {
    match design {
        Design::A => FrameInputs {
            force1,
            torque: u,
            ..Default::default()
        },
        Design::B => FrameInputs {
            force1,
            force3: u,
            ..Default::default()
        },
    }
}

/// How floor 3 is held (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Hold {
    /// thesis: `ẍ₃ = 0` from the first zero crossing of `ẋ₃` after `t_on`, `c = x₃` then
    Thesis,
    /// `ẍ₃ = −2a ẋ₃ − a²(x₃ − c)` from `t_on`
    Baumgarte {
        /// reference position `c` (m)
        c: f64,
        /// rate `a` (1/s)
        rate: f64,
    },
}

impl Hold {
    /// Default of the case study: hold floor 3 at its undeformed position
    /// with `a = 2π·2 s⁻¹` (a critically damped 2 Hz approach).
    pub fn case_study() -> Self {
        Hold::Baumgarte {
            c: 0.0,
            rate: 4.0 * PI,
        }
    }

    /// The task at switch-on if the controller starts at time `t` with
    /// (estimated) state `z` and previous `ẋ₃`, or `None` if not yet.
    fn start(&self, t: f64, t_on: f64, z: &[f64], prev_v3: f64) -> Option<Task> {
        if t < t_on {
            return None;
        }
        match *self {
            Hold::Thesis => (z[6] == 0.0 || z[6].signum() != prev_v3.signum()).then_some(Task {
                c: z[2],
                baumgarte: None,
            }),
            Hold::Baumgarte { c, rate } => Some(Task {
                c,
                baumgarte: Some(rate),
            }),
        }
    }
}

/// Switch-on bookkeeping of the EUK runs ([`simulate_euk`], [`simulate_euk_ekf`]): the
/// task once the controller is engaged, the trace with its switch-on time, and `ẋ₃` of the
/// previous sample (the zero crossing of [`Hold::Thesis`]).
struct Switch {
    hold: Hold,
    t_on: Option<f64>,
    task: Option<Task>,
    trace: CaseTrace,
    prev_v3: f64,
}

impl Switch {
    /// Not engaged, switch-on time `t_on` (`None`: never), initial (estimated) state `z`.
    fn new(hold: Hold, t_on: Option<f64>, z: &[f64]) -> Self {
        Self {
            hold,
            t_on,
            task: None,
            trace: CaseTrace {
                t_on: f64::INFINITY,
                ..Default::default()
            },
            prev_v3: z[6],
        }
    }

    /// At the sample `t` with (estimated) state `z`: engages the controller if it is not
    /// engaged yet and [`Hold`] starts now (recording `t` as the switch-on time), then
    /// remembers `ẋ₃`.
    fn update(&mut self, t: f64, z: &[f64]) {
        if self.task.is_none() {
            self.task = self
                .t_on
                .and_then(|t_on| self.hold.start(t, t_on, z, self.prev_v3));
            if self.task.is_some() {
                self.trace.t_on = t;
            }
        }
        self.prev_v3 = z[6];
    }
}

/// Settings of an EUK run.
#[derive(Clone, Debug)]
pub struct EukRun {
    /// actuator placement
    pub design: Design,
    /// final time (s)
    pub t_end: f64,
    /// RK4 step (s); thesis 10⁻⁴
    pub h: f64,
    /// switch-on time (s); `None`: uncontrolled
    pub t_on: Option<f64>,
    /// how floor 3 is held
    pub hold: Hold,
    /// store every k-th step
    pub store_every: usize,
}

/// Full-state EUK simulation (the control law evaluated at every RK4 stage).
pub fn simulate_euk(plant: &NonlinearFrame, run: &EukRun) -> Result<CaseTrace> {
    check_run(run.t_end, run.h, run.store_every)?;
    let steps = (run.t_end / run.h).round() as usize;
    let mut z = initial_state(0.0).to_vec();
    let mut rk = Rk4::new(8);
    let mut sw = Switch::new(run.hold, run.t_on, &z);
    for k in 0..=steps {
        let t = k as f64 * run.h;
        sw.update(t, &z);
        let u_now = match &sw.task {
            Some(tk) => euk_action(plant, run.design, tk, &z, disturbance(t))?,
            None => 0.0,
        };
        if k % run.store_every == 0 || k == steps {
            sw.trace.push(t, &z, &z, u_now);
        }
        if k == steps {
            break;
        }
        let mut err = None;
        let mut rhs = |tt: f64, x: &[f64], dx: &mut [f64]| {
            let f = disturbance(tt);
            let u = match &sw.task {
                Some(tk) => match euk_action(plant, run.design, tk, x, f) {
                    Ok(u) => u,
                    Err(e) => {
                        err = Some(e);
                        0.0
                    }
                },
                None => 0.0,
            };
            if let Err(e) = plant.rhs(x, &inputs(run.design, f, u), dx) {
                err = Some(e);
            }
        };
        rk.step(&mut rhs, t, &mut z, run.h);
        check_step("EUK simulation (state blew up)", k, err, &[&z])?;
    }
    Ok(sw.trace)
}

fn check_run(t_end: f64, h: f64, every: usize) -> Result<()> {
    if !(t_end > 0.0 && h > 0.0 && h < t_end) || every == 0 {
        return Err(ControlError::InvalidParameter {
            name: "run".into(),
            reason: "need 0 < h < t_end and store_every ≥ 1".into(),
        });
    }
    Ok(())
}

/// Settings of an EUK-EKF run (design B).
#[derive(Clone, Debug)]
pub struct EukEkfRun {
    /// final time (s); thesis 50
    pub t_end: f64,
    /// step of plant, filter and controller (s); thesis 10⁻⁴
    pub h: f64,
    /// switch-on time (s); thesis `t_end/2`; `None`: uncontrolled
    pub t_on: Option<f64>,
    /// how floor 3 is held
    pub hold: Hold,
    /// process-noise standard deviations `W₀` (units of `ż`)
    pub w0: [f64; 8],
    /// measurement-noise standard deviations `V₀` (m/s², m/s², m/s², rad)
    pub v0: [f64; 4],
    /// initial estimation error `Z₀`, `ẑ(0) = z(0) + Z₀` (5.277)
    pub z0_error: [f64; 8],
    /// initial covariance diagonal `R_{c,0}` (5.279)
    pub p0: [f64; 8],
    /// noise seed
    pub seed: u64,
    /// store every k-th step
    pub store_every: usize,
}

impl EukEkfRun {
    /// The thesis's data (5.276)–(5.286) with the given horizon and step.
    pub fn thesis(t_end: f64, h: f64) -> Self {
        Self {
            t_end,
            h,
            t_on: Some(0.5 * t_end),
            hold: Hold::case_study(),
            w0: [1e-3; 8],
            v0: [1e-3; 4],
            z0_error: [1e-3, 1e-3, 1e-3, 1.0, 1e-4, 1e-4, 1e-4, 1e-4],
            p0: [1e-6, 1e-6, 1e-6, 1.0, 1e-8, 1e-8, 1e-8, 1e-8],
            seed: 2011,
            store_every: 10,
        }
    }
}

/// Measurement `[ẍ₁, ẍ₂, ẍ₃, θ]` of the model at `z` with inputs `u`.
fn measure(plant: &NonlinearFrame, z: &[f64], u: &FrameInputs) -> Result<[f64; 4]> {
    let a = plant.acceleration(z, u)?;
    Ok([a[0], a[1], a[2], z[3]])
}

/// Coupled plant / EUK controller / continuous–discrete EKF (design B).
pub fn simulate_euk_ekf(plant: &NonlinearFrame, run: &EukEkfRun) -> Result<CaseTrace> {
    check_run(run.t_end, run.h, run.store_every)?;
    let h = run.h;
    let steps = (run.t_end / h).round() as usize;
    let mut z = initial_state(0.0).to_vec();
    let mut zh: Vec<f64> = (0..8).map(|i| z[i] + run.z0_error[i]).collect();
    let mut P = diag(&run.p0);
    let Qd = diag(&run.w0.map(|w| w * w * h * h));
    let Rd = diag(&run.v0.map(|v| v * v));
    let mut rng = NoiseRng::new(run.seed);
    let mut rk = Rk4::new(8);
    let mut rk_hat = Rk4::new(8);
    let mut sw = Switch::new(run.hold, run.t_on, &zh);
    let I8 = crate::linalg::eye(8);
    for k in 0..=steps {
        let t = k as f64 * h;
        let f1 = disturbance(t);
        sw.update(t, &zh);
        let u = match &sw.task {
            Some(tk) => euk_action(plant, Design::B, tk, &zh, f1)?,
            None => 0.0,
        };
        let inp = inputs(Design::B, f1, u);
        // measurement update at t_k (Joseph form)
        let ym = measure(plant, &z, &inp)?;
        let y: Vec<f64> = (0..4).map(|i| ym[i] + run.v0[i] * rng.normal()).collect();
        let yh = measure(plant, &zh, &inp)?;
        let H = fd_jacobian(4, &zh, |x, out| {
            if let Ok(m) = measure(plant, x, &inp) {
                out.copy_from_slice(&m);
            }
        });
        let PHt = &P * H.transpose();
        let S = &H * &PHt + &Rd;
        let K = DenseLu::new("H P Hᵀ + R", S.as_ref())?.solve_right(PHt.as_ref());
        for i in 0..8 {
            zh[i] += (0..4).map(|j| K[(i, j)] * (y[j] - yh[j])).sum::<f64>();
        }
        let IKH = &I8 - &K * &H;
        P = &IKH * &P * IKH.transpose() + &K * &Rd * K.transpose();
        P = crate::linalg::sym(P.as_ref());
        if k % run.store_every == 0 || k == steps {
            sw.trace.push(t, &z, &zh, u);
        }
        if k == steps {
            break;
        }
        // plant step with process noise held over the step, control held (ZOH)
        let w: Vec<f64> = (0..8).map(|i| run.w0[i] * rng.normal()).collect();
        let mut err = None;
        let mut rhs = |tt: f64, x: &[f64], dx: &mut [f64]| {
            let u = inputs(Design::B, disturbance(tt), u);
            if let Err(e) = plant.rhs(x, &u, dx) {
                err = Some(e);
            }
            for i in 0..8 {
                dx[i] += w[i];
            }
        };
        rk.step(&mut rhs, t, &mut z, h);
        // prediction of the estimate and covariance with the model
        let F = fd_jacobian(8, &zh, |x, out| {
            let _ = plant.rhs(x, &inp, out);
        });
        let mut rhs_hat = |tt: f64, x: &[f64], dx: &mut [f64]| {
            let u = inputs(Design::B, disturbance(tt), u);
            if let Err(e) = plant.rhs(x, &u, dx) {
                err = Some(e);
            }
        };
        rk_hat.step(&mut rhs_hat, t, &mut zh, h);
        let what = "EUK-EKF simulation (state blew up: reduce h)";
        check_step(what, k, err, &[&z, &zh])?;
        let Fh = faer::Scale(h) * &F;
        let Phi = &I8 + &Fh + faer::Scale(0.5) * (&Fh * &Fh);
        P = crate::linalg::sym((&Phi * &P * Phi.transpose() + &Qd).as_ref());
    }
    Ok(sw.trace)
}
