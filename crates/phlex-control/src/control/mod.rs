//! Control design and estimation (thesis 002 ch. 4, §5.6–§5.7). Continuous-
//! and discrete-time designs share one entry point each, selected by
//! [`pole_placement::Domain`].
//!
//! | module | what | thesis 002 |
//! |---|---|---|
//! | [`pole_placement`] | null-space pole placement for controller and observer; PBH controllability, observability, stabilisability, detectability | §4.2.1, §4.3.1 |
//! | [`riccati`] | CARE (sign function + Newton–Kleinman), DARE (doubling + Hewer), RK4 for the Riccati differential equations | §4.2–§4.3 |
//! | [`lqr`] | LQR: infinite horizon ([`lqr::lqr`]), finite horizon ([`lqr::lqr_finite`], [`lqr::Horizon`]) | §4.2.2–§4.2.3 |
//! | [`kalman`] | steady Kalman filters ([`kalman::kalman`]), time-varying discrete predictor, filter Riccati ODE | §4.3.2–§4.3.3 |
//! | [`lqg`] | LQG design ([`lqg::lqg`], [`lqg::LqgWeights`]), closed loop and separation check | §4.4 |
//! | [`ekf`] | continuous EKF integrated with plant and Riccati equation | §5.7 |
//! | [`euk`] | Udwadia–Kalaba control, extension to underactuated systems | §4, §5.7 |

pub mod ekf;
pub mod euk;
pub mod kalman;
pub mod lqg;
pub mod lqr;
pub mod pole_placement;
pub mod riccati;
