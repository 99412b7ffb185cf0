//! Kalman filters (thesis 002 §4.3.2–§4.3.3), estimator gain `K` entering as
//! `+K(y − ŷ)`, `ŷ = Cẑ + Du`; process noise `w` acts on the state
//! (`ż = Az + Bu + w`, covariance `R_w`), measurement noise `v` on `y`
//! (covariance `R_v`).
//!
//! * continuous: `Ṗ = AP + PAᵀ − PCᵀR_v⁻¹CP + R_w`, `K = PCᵀR_v⁻¹`
//!   (eqs. (4.96)–(4.100)); steady state from the CARE of `(Aᵀ, Cᵀ)`;
//! * discrete one-step predictor: `ẑ(k+1) = Aẑ + Bu + K(k)(y − ŷ)`,
//!   `K(k) = APCᵀ(R_v + CPCᵀ)⁻¹`, `P(k+1) = AP'Aᵀ + R_w`,
//!   `P' = P − PCᵀ(R_v + CPCᵀ)⁻¹CP` (eqs. (4.115)–(4.121)); steady state
//!   from the DARE of `(Aᵀ, Cᵀ)`.

use crate::control::lqr::{lqr_finite, Horizon};
use crate::control::pole_placement::Domain;
use crate::control::riccati::{solve_care, solve_dare, LqProblem};
use crate::error::{dim_err, ControlError, Result};
use crate::linalg::{check_shape, eigvals, sym, DenseLu};
use crate::model::state_space::StateSpace;
use faer::{c64, Mat, MatRef};

/// Steady-state Kalman design.
#[derive(Clone, Debug)]
pub struct KalmanGain {
    /// estimator gain
    pub K: Mat<f64>,
    /// steady error covariance (predicted, for the discrete filter)
    pub P: Mat<f64>,
    /// eigenvalues of `A − KC`
    pub estimator_poles: Vec<c64>,
    /// relative Riccati residual
    pub residual: f64,
}

/// Steady-state Kalman filter: the continuous Kalman–Bucy filter
/// (`K = PCᵀR_v⁻¹`, eq. (4.100)) or the discrete one-step predictor
/// (`K = APCᵀ(R_v + CPCᵀ)⁻¹`, eq. (4.121)); by duality `P` solves the CARE
/// (DARE) of the dual pair `(Aᵀ, Cᵀ)` with weights `(R_w, R_v)`.
pub fn kalman(
    A: MatRef<'_, f64>,
    C: MatRef<'_, f64>,
    Rw: MatRef<'_, f64>,
    Rv: MatRef<'_, f64>,
    domain: Domain,
) -> Result<KalmanGain> {
    let dual = LqProblem {
        A: A.transpose(),
        B: C.transpose(),
        Q: Rw,
        R: Rv,
    };
    let (sol, K) = match domain {
        Domain::Continuous => {
            let sol = solve_care(&dual)?;
            let K = DenseLu::new("R_v", Rv)?.solve_right((&sol.X * C.transpose()).as_ref());
            (sol, K)
        }
        Domain::Discrete => {
            let sol = solve_dare(&dual)?;
            let S = Rv + C * &sol.X * C.transpose();
            let APCt = A * &sol.X * C.transpose();
            let K = DenseLu::new("R_v + CPCᵀ", S.as_ref())?.solve_right(APCt.as_ref());
            (sol, K)
        }
    };
    let estimator_poles = eigvals("A − KC", (A - &K * C).as_ref())?;
    Ok(KalmanGain {
        K,
        P: sol.X,
        estimator_poles,
        residual: sol.residual,
    })
}

/// Time-varying discrete Kalman predictor.
#[derive(Clone, Debug)]
pub struct DiscreteKalmanFilter {
    plant: StateSpace,
    Rw: Mat<f64>,
    Rv: Mat<f64>,
    /// current estimate `ẑ(k)`
    pub z: Mat<f64>,
    /// current covariance `P(k)`
    pub P: Mat<f64>,
}

impl DiscreteKalmanFilter {
    /// Filter for the discrete `plant` `z(k+1) = Az + Bu + w`,
    /// `y = Cz + Du + v` (shapes checked by [`StateSpace::new`]), started
    /// at `ẑ(0) = z0`, `P(0) = P0`.
    pub fn new(
        plant: StateSpace,
        Rw: Mat<f64>,
        Rv: Mat<f64>,
        z0: &[f64],
        P0: Mat<f64>,
    ) -> Result<Self> {
        let (n, m) = (plant.n_states(), plant.n_outputs());
        check_shape("R_w", Rw.as_ref(), n, n)?;
        check_shape("R_v", Rv.as_ref(), m, m)?;
        check_shape("P0", P0.as_ref(), n, n)?;
        if z0.len() != n {
            return Err(dim_err("z0", n, 1, z0.len(), 1));
        }
        Ok(Self {
            plant,
            Rw,
            Rv,
            z: Mat::from_fn(n, 1, |i, _| z0[i]),
            P: P0,
        })
    }

    /// Output prediction `ŷ = Cẑ + Du`.
    pub fn predict_output(&self, u: &[f64]) -> Mat<f64> {
        let uu = Mat::from_fn(u.len(), 1, |i, _| u[i]);
        &self.plant.C * &self.z + &self.plant.D * &uu
    }

    /// One predictor step with input `u(k)` and measurement `y(k)`; returns the gain `K(k)`.
    pub fn step(&mut self, u: &[f64], y: &[f64]) -> Result<Mat<f64>> {
        let (A, B, C) = (&self.plant.A, &self.plant.B, &self.plant.C);
        if u.len() != B.ncols() || y.len() != C.nrows() {
            return Err(ControlError::Dimension {
                name: "u/y".into(),
                expected: format!("{} inputs, {} outputs", B.ncols(), C.nrows()),
                got: format!("{} inputs, {} outputs", u.len(), y.len()),
            });
        }
        let S = &self.Rv + C * &self.P * C.transpose();
        let lu = DenseLu::new("R_v + CPCᵀ", S.as_ref())?;
        let K = lu.solve_right((A * &self.P * C.transpose()).as_ref());
        let innov = Mat::from_fn(y.len(), 1, |i, _| y[i]) - self.predict_output(u);
        let uu = Mat::from_fn(u.len(), 1, |i, _| u[i]);
        self.z = A * &self.z + B * &uu + &K * &innov;
        let PCt = &self.P * C.transpose();
        let Pp = &self.P - &PCt * lu.solve(PCt.transpose());
        self.P = sym((A * &Pp * A.transpose() + &self.Rw).as_ref());
        Ok(K)
    }
}

/// Forward RK4 integration of the continuous filter Riccati equation on
/// `[0, T]` in `steps` steps, `P(0) = P0`; returns `P` at the grid times.
pub fn kalman_riccati_continuous(
    A: MatRef<'_, f64>,
    C: MatRef<'_, f64>,
    Rw: MatRef<'_, f64>,
    Rv: MatRef<'_, f64>,
    P0: MatRef<'_, f64>,
    T: f64,
    steps: usize,
) -> Result<Vec<Mat<f64>>> {
    let n = A.nrows();
    check_shape("P0", P0, n, n)?;
    check_shape("R_w", Rw, n, n)?;
    check_shape("R_v", Rv, C.nrows(), C.nrows())?;
    // Duality: in backward time the control Riccati equation of (Aᵀ, Cᵀ, R_w, R_v) with
    // final value P0 is this forward equation Ṗ = AP + PAᵀ − PCᵀR_v⁻¹CP + R_w.
    let dual = LqProblem {
        A: A.transpose(),
        B: C.transpose(),
        Q: Rw,
        R: Rv,
    };
    let mut sweep = lqr_finite(&dual, P0, Horizon::Continuous { T, steps })?;
    sweep.S.reverse();
    Ok(sweep.S)
}
