//! Sampled-data LQG control of a linear port-Hamiltonian model (issue 6 §4:
//! "a closed loop with an LQG controller can be simulated"), thesis 002
//! §4.4 (discrete LQG, eqs. (4.124)–(4.140)) on the bridged model of
//! [`crate::ph::bridge`].
//!
//! **Design** (energy coordinates `ξ = Lᵀe`, `H = ½|ξ|²`):
//!
//! * plant: ZOH discretisation with period `Δt` (thesis eqs. (3.17)–(3.21))
//!   `ξ(k+1) = A_d ξ(k) + B_d u(k) + w(k)`, `y(k) = C ξ(k) + D u(k) + v(k)`;
//!   like the thesis (§5.6, `R_w = W₀²` on every state) the process noise
//!   acts on every state, here in energy coordinates, `w ~ N(0, σ_w² I)`
//!   (units √J: a sample injects `½|w|²`, on average `n σ_w²/2` joules), and
//!   the measurement noise is `v ~ N(0, σ_v² I)`. (A force noise on the
//!   actuated ports alone, `R_w ∝ B_dB_dᵀ`, would drive the Kalman poles of
//!   a lossless collocated system onto its undamped transmission zeros as
//!   `σ_v → 0`: a useless, marginally stable estimator.)
//! * regulator: discrete LQR (eq. (4.66)) with `Q_z = q I` (the energy
//!   weight `ξᵀQ_zξ = 2qH`) and `Q_u = r I`, `u = F ξ̂`;
//! * estimator: steady one-step Kalman predictor (eq. (4.121)) with
//!   `R_w = σ_w² I`, `R_v = σ_v² I`,
//!   `ξ̂(k+1) = A_d ξ̂ + B_d u + B_{d,e} d + K (y − C ξ̂ − D u)`, where `d` are
//!   known exogenous port inputs (the thesis's measured disturbance force);
//! * checks first (PBH, [`crate::control::pole_placement::check_stabilizable`] /
//!   [`crate::control::pole_placement::check_detectable`]) so that a
//!   non-stabilisable or non-detectable pair is reported with the offending
//!   mode instead of a Riccati failure;
//! * separation check: the eigenvalues of the closed loop
//!   `[[A, BF], [KC, A − KC + BF]]` equal `eig(A + BF) ∪ eig(A − KC)`.
//!
//! **Simulation** is exact for the sampled-data loop: between samples the
//! port inputs are constant and the plant is propagated with
//! `exp([[A, I, 0], [0, 0, I], [0, 0, 0]] Δt) = [[Φ, Γ₁, Γ₂], …]`
//! (`Φ = e^{AΔt}`, `Γ₁ = ∫₀^Δt e^{Aτ}dτ`, `Γ₂ = ∫₀^Δt Γ₁(τ)dτ`), so the
//! port work over a step is exact, `W = ūᵀB_allᵀ(Γ₁ξ(k) + Γ₂B_allū)`, and
//! so is the dissipated energy `∫ξᵀR_ξξ dτ` (Van Loan's block exponential
//! of `[[−Ãᵀ, S], [0, Ã]]`, `Ã = [[A, I], [0, 0]]`). The discrete power
//! balance `H(k+1) − H(k) = W(k) − D(k)` then holds to round-off and is
//! reported (process noise is applied as a jump `ξ ← ξ + w(k)` after the
//! propagation and accounted separately). The open loop (same initial state, disturbances and noise, no
//! control) is simulated alongside for comparison.

use crate::control::lqg::{lqg, Lqg, LqgWeights};
use crate::control::pole_placement::{check_detectable, check_stabilizable, Domain};
use crate::error::{ControlError, Result};
use crate::linalg::{diag, eigvals, expm, fro, mat_vec_sum};
use crate::model::state_space::StateSpace;
use crate::model::zoh::c2d;
use crate::ph::bridge::PhStateSpace;
use crate::signal::noise::NoiseRng;
use faer::{c64, Mat, MatRef};

/// Weights, noise levels and sampling of an LQG design.
#[derive(Clone, Debug, PartialEq)]
pub struct PhLqgSpec {
    /// sampling period `Δt` (s)
    pub dt: f64,
    /// energy weight `q > 0` of the LQR (`Q_z = q I` in energy coordinates)
    pub q_weight: f64,
    /// control weight `r > 0` (`Q_u = r I`)
    pub r_weight: f64,
    /// standard deviation `σ_w > 0` of the process noise on each energy coordinate (√J)
    pub process_noise: f64,
    /// standard deviation `σ_v > 0` of the measurement noise
    pub measurement_noise: f64,
}

/// A discrete LQG design on a bridged pH model.
#[derive(Clone, Debug)]
pub struct PhLqg {
    /// the weights and noise levels
    pub spec: PhLqgSpec,
    /// ZOH plant in energy coordinates (control inputs, measured outputs)
    pub plant: StateSpace,
    /// `e = T ξ`
    pub T: Mat<f64>,
    /// `ξ = T⁻¹ e`
    pub T_inv: Mat<f64>,
    /// regulator gain, `u = F ξ̂`
    pub F: Mat<f64>,
    /// Kalman predictor gain
    pub K: Mat<f64>,
    /// regulator gain on the exported state `z` (`= e` for an ODE), `u = F_e ẑ` (`F_e = F T⁻¹`)
    pub F_e: Mat<f64>,
    /// eigenvalues of the closed loop `[[A, BF], [KC, A − KC + BF]]` (discrete)
    pub closed_loop_poles: Vec<c64>,
    /// eigenvalues of `A + BF`
    pub regulator_poles: Vec<c64>,
    /// eigenvalues of `A − KC`
    pub estimator_poles: Vec<c64>,
    /// eigenvalues of the open-loop `A_d`
    pub open_loop_poles: Vec<c64>,
    /// separation check: largest distance between the closed-loop
    /// eigenvalues and `eig(A + BF) ∪ eig(A − KC)`, relative to the largest modulus
    pub separation_error: f64,
    /// relative DARE residuals (regulator, estimator)
    pub riccati_residuals: [f64; 2],
}

fn positive(name: &str, v: f64) -> Result<()> {
    if !(v > 0.0 && v.is_finite()) {
        return Err(ControlError::InvalidParameter {
            name: name.into(),
            reason: format!("must satisfy 0 < {name} < ∞, got {v}"),
        });
    }
    Ok(())
}

/// Continuous-time equivalent `s = ln(λ)/Δt` of a discrete eigenvalue
/// (principal branch, `arg λ ∈ (−π, π]`; `λ = 0` gives `−∞`).
pub fn continuous_equivalent(l: c64, dt: f64) -> c64 {
    c64::new(l.norm().ln() / dt, l.im.atan2(l.re) / dt)
}

/// LQG design (see the module documentation).
pub fn design_lqg(ph: &PhStateSpace, spec: &PhLqgSpec) -> Result<PhLqg> {
    positive("dt", spec.dt)?;
    positive("q_weight", spec.q_weight)?;
    positive("r_weight", spec.r_weight)?;
    positive("process_noise", spec.process_noise)?;
    positive("measurement_noise", spec.measurement_noise)?;
    let ec = ph.energy_coordinates()?;
    let plant = c2d(&ec.ss, spec.dt)?;
    let (A, B, C) = (plant.A.as_ref(), plant.B.as_ref(), plant.C.as_ref());
    let (n, r, m) = (plant.n_states(), plant.n_inputs(), plant.n_outputs());
    check_stabilizable(A, B, Domain::Discrete)?;
    check_detectable(A, C, Domain::Discrete)?;
    let Qz = diag(&vec![spec.q_weight; n]);
    let Qu = diag(&vec![spec.r_weight; r]);
    let Rw = diag(&vec![spec.process_noise * spec.process_noise; n]);
    let Rv = diag(&vec![spec.measurement_noise * spec.measurement_noise; m]);
    let weights = LqgWeights {
        Qz: Qz.as_ref(),
        Qu: Qu.as_ref(),
        Rw: Rw.as_ref(),
        Rv: Rv.as_ref(),
    };
    let Lqg {
        regulator: reg,
        estimator: est,
        closed_loop_poles,
        separation_error,
        ..
    } = lqg(A, B, C, &weights, Domain::Discrete)?;
    let open_loop_poles = eigvals("A_d", A)?;
    let F_e = &reg.F * &ec.T_inv;
    Ok(PhLqg {
        spec: spec.clone(),
        F_e,
        T: ec.T,
        T_inv: ec.T_inv,
        closed_loop_poles,
        regulator_poles: reg.closed_loop,
        estimator_poles: est.estimator_poles,
        open_loop_poles,
        separation_error,
        riccati_residuals: [reg.residual, est.residual],
        F: reg.F,
        K: est.K,
        plant,
    })
}

/// A known exogenous input: one value per component of the disturbance ports at time `t`.
pub type DisturbanceFn<'a> = &'a dyn Fn(f64) -> Vec<f64>;

/// Inputs of a closed-loop simulation.
pub struct ClosedLoopRun<'a> {
    /// final time (s); `⌈t_end/Δt⌉` samples are simulated
    pub t_end: f64,
    /// initial state `e(0)` of the pH system (full state, multipliers
    /// included for a descriptor system; restricted to the exported state)
    pub e0: Vec<f64>,
    /// initial estimate `ê(0)`, full state like `e0` (default: zero, the state is unknown)
    pub e_hat0: Option<Vec<f64>>,
    /// controller switched on at this time (s); before it `u = 0`
    pub t_on: f64,
    /// exogenous port inputs known to the estimator: port names and a
    /// function of time returning one value per port component (held over
    /// each sample)
    pub disturbance: Option<(Vec<String>, DisturbanceFn<'a>)>,
    /// `Some(seed)`: inject seeded process and measurement noise of the
    /// design's levels; `None`: noise-free plant and measurements
    pub seed: Option<u64>,
}

/// Time histories of a closed-loop run (one entry per sample `t_k = kΔt`).
#[derive(Clone, Debug, Default)]
pub struct ClosedLoopTrace {
    /// sample times
    pub t: Vec<f64>,
    /// plant energy without control
    pub energy_open: Vec<f64>,
    /// plant energy with control
    pub energy_closed: Vec<f64>,
    /// control inputs `u(k)` (one vector per sample)
    pub control: Vec<Vec<f64>>,
    /// `|u(k)|`
    pub control_effort: Vec<f64>,
    /// instantaneous control power `u(k)ᵀ y_c(k)` at the actuated ports
    /// (collocated outputs of the closed loop, noise free)
    pub control_power: Vec<f64>,
    /// cumulative control work `∫ uᵀy_c dt` (exact over the held samples)
    pub control_work: Vec<f64>,
    /// estimation error energy `½ |ξ − ξ̂|²`
    pub estimation_error_energy: Vec<f64>,
    /// measured outputs of the closed loop (noise included)
    pub outputs: Vec<Vec<f64>>,
    /// largest `|H(k+1⁻) − H(k) − W(k) + D(k)|` over both runs (energy
    /// before the process-noise jump), relative to the largest energy: the
    /// exact discrete power balance
    pub power_balance_residual: f64,
    /// total energy dissipated in the closed loop (`Σ D(k)`)
    pub dissipated_closed: f64,
    /// total energy injected into the closed loop by the process-noise jumps
    pub noise_energy_closed: f64,
}

struct Propagator {
    Phi: Mat<f64>,
    G1: Mat<f64>,
    G2: Mat<f64>,
    /// Van Loan dissipation integral over `[ξ; b]`, `None` if `R = 0`
    Wd: Option<Mat<f64>>,
}

fn propagator(A: MatRef<'_, f64>, R: MatRef<'_, f64>, h: f64) -> Result<Propagator> {
    let n = A.nrows();
    let mut M = Mat::<f64>::zeros(3 * n, 3 * n);
    for i in 0..n {
        for j in 0..n {
            M[(i, j)] = h * A[(i, j)];
        }
        M[(i, n + i)] = h;
        M[(n + i, 2 * n + i)] = h;
    }
    let X = expm(M.as_ref())?;
    let Phi = X.as_ref().submatrix(0, 0, n, n).to_owned();
    let G1 = X.as_ref().submatrix(0, n, n, n).to_owned();
    let G2 = X.as_ref().submatrix(0, 2 * n, n, n).to_owned();
    let Wd = if fro(R) > 0.0 {
        // Ã = [[A, I], [0, 0]], S = blockdiag(R, 0):
        // exp([[−Ãᵀ, S], [0, Ã]] h) = [[·, F12], [0, F22]], ∫₀ʰ e^{Ãᵀτ}Se^{Ãτ}dτ = F22ᵀF12
        let m = 2 * n;
        let mut V = Mat::<f64>::zeros(2 * m, 2 * m);
        for i in 0..n {
            for j in 0..n {
                V[(j, i)] = -h * A[(i, j)]; // −Aᵀ block of −Ãᵀ
                V[(m + i, m + j)] = h * A[(i, j)];
                V[(i, m + j)] = h * R[(i, j)];
            }
            V[(n + i, i)] = -h; // −Iᵀ block of −Ãᵀ
            V[(m + i, m + n + i)] = h;
        }
        let Y = expm(V.as_ref())?;
        let F12 = Y.as_ref().submatrix(0, m, m, m);
        let F22 = Y.as_ref().submatrix(m, m, m, m);
        let W = F22.transpose() * F12;
        Some(crate::linalg::sym(W.as_ref()))
    } else {
        None
    };
    Ok(Propagator { Phi, G1, G2, Wd })
}

fn matvec(A: MatRef<'_, f64>, x: &[f64], out: &mut [f64]) {
    for o in out.iter_mut() {
        *o = 0.0;
    }
    for j in 0..A.ncols() {
        let xj = x[j];
        if xj != 0.0 {
            for i in 0..A.nrows() {
                out[i] += A[(i, j)] * xj;
            }
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// One plant (open or closed loop) and its energy account.
struct PlantState {
    xi: Vec<f64>,
    next: Vec<f64>,
    b: Vec<f64>,
    tmp: Vec<f64>,
    integral: Vec<f64>,
}

impl PlantState {
    fn new(xi: Vec<f64>) -> Self {
        let n = xi.len();
        Self {
            xi,
            next: vec![0.0; n],
            b: vec![0.0; n],
            tmp: vec![0.0; n],
            integral: vec![0.0; n],
        }
    }
    /// Process-noise jump `ξ ← ξ + w` (after the exact propagation).
    fn jump(&mut self, w: &[f64]) {
        for (x, d) in self.xi.iter_mut().zip(w) {
            *x += d;
        }
    }
    fn energy(&self) -> f64 {
        0.5 * dot(&self.xi, &self.xi)
    }
    /// Steps with total port input `ubar` (all ports); returns (work, dissipation).
    fn step(&mut self, P: &Propagator, B_all: MatRef<'_, f64>, ubar: &[f64]) -> (f64, f64) {
        let n = self.xi.len();
        matvec(B_all, ubar, &mut self.b);
        // ∫ξ = Γ₁ξ + Γ₂b
        matvec(P.G1.as_ref(), &self.xi, &mut self.integral);
        matvec(P.G2.as_ref(), &self.b, &mut self.tmp);
        for i in 0..n {
            self.integral[i] += self.tmp[i];
        }
        // work = ūᵀ B_allᵀ ∫ξ = bᵀ∫ξ
        let work = dot(&self.b, &self.integral);
        let diss = match &P.Wd {
            Some(W) => {
                let mut x = self.xi.clone();
                x.extend_from_slice(&self.b);
                let mut Wx = vec![0.0; 2 * n];
                matvec(W.as_ref(), &x, &mut Wx);
                dot(&x, &Wx)
            }
            None => 0.0,
        };
        matvec(P.Phi.as_ref(), &self.xi, &mut self.next);
        matvec(P.G1.as_ref(), &self.b, &mut self.tmp);
        for i in 0..n {
            self.next[i] += self.tmp[i];
        }
        std::mem::swap(&mut self.xi, &mut self.next);
        (work, diss)
    }
}

/// Simulates the sampled-data closed loop and the open loop side by side
/// (see the module documentation).
pub fn simulate_closed_loop(
    ph: &PhStateSpace,
    lqg: &PhLqg,
    run: &ClosedLoopRun<'_>,
) -> Result<ClosedLoopTrace> {
    let n = ph.n_states();
    let nf = ph.n_full();
    let dt = lqg.spec.dt;
    if run.e0.len() != nf {
        return Err(crate::error::dim_err("e0", nf, 1, run.e0.len(), 1));
    }
    if let Some(e) = &run.e_hat0 {
        if e.len() != nf {
            return Err(crate::error::dim_err("e_hat0", nf, 1, e.len(), 1));
        }
    }
    if !(run.t_end > 0.0 && run.t_end.is_finite()) {
        return Err(ControlError::InvalidParameter {
            name: "t_end".into(),
            reason: format!("must satisfy 0 < t_end < ∞, got {}", run.t_end),
        });
    }
    let steps = (run.t_end / dt - 1e-9).ceil() as usize;
    let ec = ph.energy_coordinates()?;
    let P = propagator(ec.ss.A.as_ref(), ec.R.as_ref(), dt)?;
    let B_all = ec.B_all.as_ref();
    let m_all = B_all.ncols();
    let ctrl_cols = ph.input_columns();
    let (dist_cols, dist_fn) = match &run.disturbance {
        Some((ports, f)) => {
            let names: Vec<&str> = ports.iter().map(String::as_str).collect();
            let (cols, _) = ph.port_columns(&names)?;
            for c in &cols {
                if ctrl_cols.contains(c) {
                    return Err(ControlError::InvalidParameter {
                        name: "disturbance".into(),
                        reason: "a port cannot be both actuated by the controller and driven by a disturbance signal".into(),
                    });
                }
            }
            (cols, Some(*f))
        }
        None => (vec![], None),
    };
    // estimator input matrix of the known disturbances: Γ₁ B_all[:, dist]
    let Bdist = Mat::from_fn(n, dist_cols.len(), |i, j| B_all[(i, dist_cols[j])]);
    let Bd_dist = &P.G1 * &Bdist;
    let (A, B, C, D) = (
        lqg.plant.A.as_ref(),
        lqg.plant.B.as_ref(),
        lqg.plant.C.as_ref(),
        lqg.plant.D.as_ref(),
    );
    let (r, m) = (B.ncols(), C.nrows());
    let to_xi = |e: &[f64]| -> Vec<f64> {
        let z = ph.restrict(e);
        let mut x = vec![0.0; n];
        matvec(lqg.T_inv.as_ref(), &z, &mut x);
        x
    };
    let mut open = PlantState::new(to_xi(&run.e0));
    let mut closed = PlantState::new(to_xi(&run.e0));
    let mut xh = match &run.e_hat0 {
        Some(e) => to_xi(e),
        None => vec![0.0; n],
    };
    let mut rng = run.seed.map(NoiseRng::new);
    let mut tr = ClosedLoopTrace::default();
    let mut work_ctrl = 0.0;
    let mut hmax = open.energy().max(f64::MIN_POSITIVE);
    let mut resid = 0.0f64;
    let mut ubar = vec![0.0; m_all];
    let Bc = Mat::from_fn(n, r, |i, j| B_all[(i, ctrl_cols[j])]);
    for k in 0..=steps {
        let t = k as f64 * dt;
        let d = match dist_fn {
            Some(f) => {
                let v = f(t);
                if v.len() != dist_cols.len() {
                    return Err(crate::error::dim_err(
                        "disturbance values",
                        dist_cols.len(),
                        1,
                        v.len(),
                        1,
                    ));
                }
                v
            }
            None => vec![],
        };
        let (w, v): (Vec<f64>, Vec<f64>) = match rng.as_mut() {
            Some(g) => (
                (0..n)
                    .map(|_| lqg.spec.process_noise * g.normal())
                    .collect(),
                (0..m)
                    .map(|_| lqg.spec.measurement_noise * g.normal())
                    .collect(),
            ),
            None => (vec![0.0; n], vec![0.0; m]),
        };
        let on = t >= run.t_on - 1e-12 * dt;
        let u: Vec<f64> = if on {
            (0..r)
                .map(|i| (0..n).map(|j| lqg.F[(i, j)] * xh[j]).sum())
                .collect()
        } else {
            vec![0.0; r]
        };
        // measurement of the closed loop and its prediction
        let mut y = mat_vec_sum(&[(C, &closed.xi), (D, &u)]);
        for (yi, vi) in y.iter_mut().zip(&v) {
            *yi += vi;
        }
        let yhat = mat_vec_sum(&[(C, &xh), (D, &u)]);
        // record at t_k
        let yc: Vec<f64> = (0..r)
            .map(|i| (0..n).map(|j| Bc[(j, i)] * closed.xi[j]).sum())
            .collect();
        tr.t.push(t);
        tr.energy_open.push(open.energy());
        tr.energy_closed.push(closed.energy());
        tr.control_power.push(dot(&u, &yc));
        tr.control_effort.push(dot(&u, &u).sqrt());
        tr.control_work.push(work_ctrl);
        let err: f64 = closed
            .xi
            .iter()
            .zip(&xh)
            .map(|(a, b)| (a - b) * (a - b))
            .sum();
        tr.estimation_error_energy.push(0.5 * err);
        tr.outputs.push(y.clone());
        tr.control.push(u.clone());
        if k == steps {
            break;
        }
        // open loop: disturbances only
        ubar.iter_mut().for_each(|x| *x = 0.0);
        for (i, &c) in dist_cols.iter().enumerate() {
            ubar[c] += d[i];
        }
        let h0 = open.energy();
        let (wo, dso) = open.step(&P, B_all, &ubar);
        resid = resid.max((open.energy() - h0 - wo + dso).abs());
        open.jump(&w);
        // closed loop: add the control; control work = uᵀ B_cᵀ ∫ξ
        for (i, &c) in ctrl_cols.iter().enumerate() {
            ubar[c] += u[i];
        }
        let h0 = closed.energy();
        let (wc, dsc) = closed.step(&P, B_all, &ubar);
        resid = resid.max((closed.energy() - h0 - wc + dsc).abs());
        tr.dissipated_closed += dsc;
        let hb = closed.energy();
        closed.jump(&w);
        tr.noise_energy_closed += closed.energy() - hb;
        let yint: f64 = (0..r)
            .map(|i| u[i] * (0..n).map(|j| Bc[(j, i)] * closed.integral[j]).sum::<f64>())
            .sum();
        work_ctrl += yint;
        hmax = hmax.max(open.energy()).max(closed.energy());
        // estimator (predictor form), the known disturbances included
        let innovation: Vec<f64> = y.iter().zip(&yhat).map(|(a, b)| a - b).collect();
        let mut terms = vec![(A, xh.as_slice()), (B, u.as_slice())];
        if !d.is_empty() {
            terms.push((Bd_dist.as_ref(), d.as_slice()));
        }
        terms.push((lqg.K.as_ref(), innovation.as_slice()));
        xh = mat_vec_sum(&terms);
        if closed.xi.iter().chain(&xh).any(|x| !x.is_finite()) {
            return Err(ControlError::NoConvergence {
                what: "closed-loop simulation (state blew up)".into(),
                iterations: k + 1,
                residual: f64::INFINITY,
            });
        }
    }
    tr.power_balance_residual = resid / hmax;
    Ok(tr)
}
