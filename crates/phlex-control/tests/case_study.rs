#![allow(non_snake_case)]
//! The case study of thesis 002 ch. 5 on the virtual rig
//! (`phlex_control::case_study`): structures, hammer-test identification,
//! LQG, EUK and EUK-EKF closed loops.

use faer::Mat;
use phlex_control::case_study::euk::{
    euk_action, simulate_euk, simulate_euk_ekf, Design, EukEkfRun, EukRun, Hold, Task,
};
use phlex_control::case_study::hammer::{hammer_test, identify_record, HammerTest};
use phlex_control::case_study::lqg::{design_lqg, design_model, simulate_lqg, LqgRun};
use phlex_control::case_study::rig::{Pendulum, Structure, IDENTIFIED_DAMPING};
use phlex_control::case_study::{peak_reductions, CaseTrace, NonlinearFrame, PeakReduction};
use phlex_control::control::euk::euk_control;
use phlex_control::model::mdof::rayleigh_damping;
use phlex_control::FrameParams;
use std::f64::consts::PI;

fn plant() -> NonlinearFrame {
    NonlinearFrame::case_study(FrameParams::default()).unwrap()
}

/// Hammer test on the floating-frame FE structure (3 elements per story,
/// column mass, pendulum locked, the thesis's identified damping ratios):
/// ERA/DC-OKID and N4SID of order 6 recover the three sway frequencies
/// within 0.5 % and the damping ratios within 20 % of the model's.
/// Runs `simulate` with the controller on (`run`) and off (`off`, same
/// initial state, disturbance and noise); returns both traces and the peak
/// reductions over the last `window` s.
fn on_vs_off<R>(
    run: &R,
    off: &R,
    window: f64,
    simulate: impl Fn(&R) -> phlex_control::Result<CaseTrace>,
) -> (CaseTrace, CaseTrace, [PeakReduction; 3]) {
    let c = simulate(run).unwrap();
    let nc = simulate(off).unwrap();
    let red = peak_reductions(&c, &nc, window).unwrap();
    (c, nc, red)
}

#[test]
fn hammer_identification_fe_frame() {
    let p = FrameParams::default();
    let s = Structure::floating_frame(&p, 3, 1.0, Pendulum::Locked)
        .unwrap()
        .with_modal_damping(&IDENTIFIED_DAMPING, 0.02)
        .unwrap();
    let truth = s.model.damped_modes().unwrap();
    let rec = hammer_test(&s, 0, &HammerTest::default()).unwrap();
    let id = identify_record(&rec, 10.0).unwrap();
    for (name, rep) in [("ERA/DC-OKID", &id.okid), ("N4SID", &id.n4sid)] {
        let (f, z) = (rep.modes.frequencies(), rep.modes.dampings());
        assert_eq!(f.len(), 3, "{name}: {f:?}");
        for k in 0..3 {
            let (f0, z0) = (truth[k].freq_hz, truth[k].damping);
            eprintln!(
                "{name} mode {}: f {:.5} Hz (model {f0:.5}, {:.2e}), zeta {:.5} (model {z0:.5}, {:.2e})",
                k + 1,
                f[k],
                (f[k] - f0).abs() / f0,
                z[k],
                (z[k] - z0).abs() / z0
            );
            assert!((f[k] - f0).abs() < 5e-3 * f0, "{name} mode {k}");
            assert!((z[k] - z0).abs() < 0.2 * z0, "{name} mode {k}");
        }
    }
}

/// Hammer test on the lumped rig (pendulum locked, the plant's inter-story
/// dampers): frequencies within 0.5 % (measured ≤ 1.4e-5); the Rayleigh fit
/// finds the stiffness-proportional damping (β̂ = c within 5 %, α̂ ≈ 0);
/// MKR on the band-limited continuous model returns the rig's mass matrix
/// within 2 % and its stiffness matrix within 5 % (Frobenius, relative;
/// measured 1.0 % and 4.1 %: the stiffness depends on the low-frequency
/// accelerance, where the response is smallest), and the undamped
/// frequencies of (K̂, M̂) within 1.5 % (measured 0.56 %, 1.3 % on modes 2, 3: MKR
/// splits the identified eigenvalues between M̂, K̂ and its noisy R̂, which
/// is replaced by the Rayleigh fit).
#[test]
fn hammer_identification_lumped_and_mkr() {
    let pl = plant();
    let s = pl.locked_structure().unwrap();
    let truth = s.model.damped_modes().unwrap();
    let rec = hammer_test(&s, 0, &HammerTest::default()).unwrap();
    let id = identify_record(&rec, 10.0).unwrap();
    let f = id.okid.modes.frequencies();
    for k in 0..3 {
        let f0 = truth[k].freq_hz;
        eprintln!("mode {}: f {:.5} vs {f0:.5}", k + 1, f[k]);
        assert!((f[k] - f0).abs() < 5e-3 * f0);
    }
    let rel = |A: &Mat<f64>, B: &Mat<f64>| (A - B).norm_l2() / B.norm_l2();
    let c = pl.sigma[0] / pl.p.stiffness()[0];
    eprintln!(
        "MKR: M err {:.2e}, K err {:.2e}; Rayleigh fit {:?} (c = {c:.4e})",
        rel(&id.mkr.M, &s.model.M),
        rel(&id.mkr.K, &s.model.K),
        id.rayleigh
    );
    assert!(rel(&id.mkr.M, &s.model.M) < 0.02);
    assert!(rel(&id.mkr.K, &s.model.K) < 0.05);
    assert!((id.rayleigh.1 - c).abs() < 0.05 * c);
    assert!(id.rayleigh.0.abs() < 0.01);
    let fk = phlex_control::model::mdof::undamped_modes(id.mkr.M.as_ref(), id.mkr.K.as_ref())
        .unwrap()
        .freq_hz();
    let f0 = s.model.undamped_modes().unwrap().freq_hz();
    for k in 0..3 {
        eprintln!("(K̂, M̂) frequency {:.5} vs {:.5}", fk[k], f0[k]);
        assert!((fk[k] - f0[k]).abs() < 1.5e-2 * f0[k]);
    }
}

/// The closed-form EUK laws equal the generic EUK solution (thesis (5.246),
/// (5.251)), also with a Baumgarte right-hand side.
#[test]
fn euk_closed_forms_match_generic() {
    let pl = plant();
    let z = [1e-3, -2e-3, 1.5e-3, 1.5 * PI + 0.3, 1e-4, -3e-4, 2e-4, 0.05];
    let f1 = 0.07;
    for task in [
        Task {
            c: 1e-3,
            baumgarte: None,
        },
        Task {
            c: 1e-3,
            baumgarte: Some(12.0),
        },
    ] {
        let (M, Q) = pl.mass_and_forces(
            &z,
            &phlex_control::case_study::FrameInputs {
                force1: f1,
                ..Default::default()
            },
        );
        let At = Mat::from_fn(1, 4, |_, j| (j == 2) as u8 as f64);
        let bt = [task.rhs(&z)];
        let b = euk_control(M.as_ref(), &Q, At.as_ref(), &bt, &[0, 1, 3]).unwrap();
        let ub = euk_action(&pl, Design::B, &task, &z, f1).unwrap();
        assert!((b.Qc[2] - ub).abs() < 1e-10 * ub.abs());
        let a = euk_control(M.as_ref(), &Q, At.as_ref(), &bt, &[0, 1, 2]).unwrap();
        let ua = euk_action(&pl, Design::A, &task, &z, f1).unwrap();
        assert!((a.Qc[3] - ua).abs() < 1e-10 * ua.abs());
    }
}

/// EUK design B with the thesis's hold (task ẍ₃ = 0 from the first zero
/// crossing of ẋ₃ after 10 s, RK4 h = 1e-3): the task is exact at
/// acceleration level, so ẋ₃ keeps its value at the switching step and x₃
/// moves linearly (x₃ − c = ẋ₃(t_on)(t − t_on) to 1e-9 m); that value is
/// bounded by |ẍ₃| h (below 1e-2 m/s here), the drift the module
/// documentation explains.
#[test]
fn euk_thesis_hold_is_exact_at_acceleration_level() {
    let pl = plant();
    let run = EukRun {
        design: Design::B,
        t_end: 15.0,
        h: 1e-3,
        t_on: Some(10.0),
        hold: Hold::Thesis,
        store_every: 1,
    };
    let c = simulate_euk(&pl, &run).unwrap();
    let k_on = c.t.iter().position(|t| *t >= c.t_on).unwrap();
    let (x3, v3) = (c.z[k_on][2], c.z[k_on][6]);
    let dev = c.z[k_on..]
        .iter()
        .zip(&c.t[k_on..])
        .map(|(z, t)| (z[2] - x3 - v3 * (t - c.t_on)).abs())
        .fold(0.0, f64::max);
    eprintln!(
        "t_on {:.4}, v3 at switch {v3:.3e} m/s, deviation from linear drift {dev:.3e} m",
        c.t_on
    );
    assert!(dev < 1e-9);
    assert!(v3.abs() < 1e-2);
}

fn identified_design() -> phlex_control::model::mdof::Mdof {
    let pl = plant();
    let s = pl.locked_structure().unwrap();
    let rec = hammer_test(&s, 0, &HammerTest::default()).unwrap();
    let id = identify_record(&rec, 10.0).unwrap();
    let (a, b) = id.rayleigh;
    let Rh = rayleigh_damping(id.mkr.M.as_ref(), id.mkr.K.as_ref(), a, b);
    design_model(
        id.mkr.M.as_ref(),
        id.mkr.K.as_ref(),
        Rh.as_ref(),
        &pl.p,
        true,
    )
    .unwrap()
}

/// LQG of §5.6 designed on the model identified from the hammer test (MKR
/// M̂, K̂, Rayleigh R̂, physical pendulum) and closed on the nonlinear plant
/// (thesis data: 50 s, on at 25 s, Δt = 31.25 ms, weights and noise of
/// (5.221)–(5.230)). The separation principle holds for the design (1e-8);
/// the steady-state peaks drop on every floor by more than 60 % (measured
/// 75.1/77.9/82.8 % displacement, 76.3/84.4/77.4 % velocity; thesis
/// 71.09/74.95/56.94 and 73.59/80.49/70.48 %), with a torque below 1 N m
/// (measured 0.32 N m).
#[test]
fn lqg_case_study() {
    let pl = plant();
    let lqg = design_lqg(&identified_design()).unwrap();
    // closest regulator/estimator pole pair: both leave the lightly weighted
    // pendulum mode almost where it is, so the closed loop has a nearly
    // double eigenvalue coupled by −BF, whose computed position is only
    // good to ≈ √ε relative; the separation check is asserted to 1e-5
    let A = &lqg.plant.A;
    let Bc = lqg.plant.B.as_ref().subcols(1, 1).to_owned();
    let reg = phlex_control::linalg::eigvals("A+BF", (A + &Bc * &lqg.gains.regulator.F).as_ref())
        .unwrap();
    let est = phlex_control::linalg::eigvals(
        "A-KC",
        (A - &lqg.gains.estimator.K * &lqg.plant.C).as_ref(),
    )
    .unwrap();
    let gap = reg
        .iter()
        .flat_map(|a| est.iter().map(move |b| (a - b).norm()))
        .fold(f64::INFINITY, f64::min);
    eprintln!(
        "separation error {:.3e}, closest regulator/estimator poles {gap:.3e}",
        lqg.gains.separation_error
    );
    assert!(lqg.gains.separation_error < 1e-5);
    let run = LqgRun::default();
    let off = LqgRun {
        t_on: None,
        ..run.clone()
    };
    let (c, nc, red) = on_vs_off(&run, &off, 10.0, |r| simulate_lqg(&pl, &lqg, r));
    eprintln!(
        "LQG reductions {red:?}, max torque {:.3e}",
        c.peak_control()
    );
    for r in &red {
        assert!(r.displacement > 60.0 && r.velocity > 60.0);
    }
    assert!(c.peak_control() < 1.0);
    // before the switch-on the runs coincide
    let k = c.t.iter().position(|t| *t >= 20.0).unwrap();
    assert_eq!(c.z[k], nc.z[k]);
}

/// EUK design B with full state and the stabilised hold (floor 3 brought to
/// its undeformed position from 25 s; 50 s, RK4 h = 1e-3): floor 3 is held
/// (reductions > 99 %, measured 100 %), floors 1–2 drop by more than 40 %
/// (measured 59.2/70.2 % displacement), force below 5 N (measured 2.6 N).
#[test]
fn euk_design_b_case_study() {
    let pl = plant();
    let run = EukRun {
        design: Design::B,
        t_end: 50.0,
        h: 1e-3,
        t_on: Some(25.0),
        hold: Hold::case_study(),
        store_every: 10,
    };
    let off = EukRun {
        t_on: None,
        ..run.clone()
    };
    let (c, _, red) = on_vs_off(&run, &off, 10.0, |r| simulate_euk(&pl, r));
    eprintln!(
        "EUK B reductions {red:?}, max force {:.3e}",
        c.peak_control()
    );
    assert!(red[2].displacement > 99.0 && red[2].velocity > 99.0);
    assert!(red[0].displacement > 40.0 && red[1].displacement > 40.0);
    assert!(c.peak_control() < 5.0);
}

/// EUK-EKF (design B, estimated state; thesis data (5.276)–(5.286), 20 s,
/// on at 10 s, h = 5e-4): the estimate converges from the 1 rad initial
/// error (final errors below 1e-4), floor 3 is held (> 95 %, measured
/// 99.3 %), floors 1–2 drop by more than 30 % (measured 45/51 %).
#[test]
fn euk_ekf_fast() {
    let pl = plant();
    let run = EukEkfRun::thesis(20.0, 5e-4);
    let off = EukEkfRun {
        t_on: None,
        ..run.clone()
    };
    let (c, _, red) = on_vs_off(&run, &off, 5.0, |r| simulate_euk_ekf(&pl, r));
    let (z, zh) = (c.z.last().unwrap(), c.zhat.last().unwrap());
    let err = (0..8).map(|i| (z[i] - zh[i]).abs()).fold(0.0, f64::max);
    eprintln!(
        "EUK-EKF reductions {red:?}, max force {:.3e}, final estimation error {err:.3e}",
        c.peak_control()
    );
    assert!(err < 1e-4);
    assert!(red[2].displacement > 95.0 && red[2].velocity > 95.0);
    assert!(red[0].displacement > 30.0 && red[1].displacement > 30.0);
}

/// The thesis's EUK-EKF run (50 s, on at 25 s, h = 1e-4): see
/// docs/case_study_three_story.md for the table against (5.287).
#[test]
#[ignore = "full thesis horizon and step (about 1 min); fast twin: euk_ekf_fast"]
fn euk_ekf_thesis() {
    let pl = plant();
    let run = EukEkfRun::thesis(50.0, 1e-4);
    let off = EukEkfRun {
        t_on: None,
        ..run.clone()
    };
    let (c, _, red) = on_vs_off(&run, &off, 10.0, |r| simulate_euk_ekf(&pl, r));
    eprintln!(
        "EUK-EKF reductions {red:?}, max force {:.3e}",
        c.peak_control()
    );
    assert!(red[2].displacement > 95.0);
    assert!(red[0].displacement > 30.0 && red[1].displacement > 30.0);
}

/// Design A (torque on the pendulum, thesis hold, 0.7 s, h = 1e-4, on at
/// 0.35 s): the third floor stops but the pendulum has to accelerate — its
/// angular velocity grows by more than 10× after the switch-on (the thesis's
/// reason to move the actuator to floor 3), or the run meets the singular
/// configuration sin θ = 0.
#[test]
fn euk_design_a_accelerates_the_pendulum() {
    let pl = plant();
    let run = EukRun {
        design: Design::A,
        t_end: 0.7,
        h: 1e-4,
        t_on: Some(0.35),
        hold: Hold::Thesis,
        store_every: 10,
    };
    match simulate_euk(&pl, &run) {
        Ok(c) => {
            let before =
                c.t.iter()
                    .zip(&c.z)
                    .filter(|(t, _)| **t < c.t_on)
                    .map(|(_, z)| z[7].abs())
                    .fold(0.0, f64::max);
            let after = c.z.iter().map(|z| z[7].abs()).fold(0.0, f64::max);
            eprintln!(
                "design A: max |θ̇| before {before:.3e}, after {after:.3e} rad/s, max torque {:.3e}",
                c.peak_control()
            );
            assert!(after > 10.0 * before);
        }
        Err(e) => {
            eprintln!("design A: {e}");
            assert!(e.to_string().contains("sin θ"));
        }
    }
}
