#![allow(non_snake_case)]
//! The case study of thesis 002 ch. 5 (three-story frame with a pendulum actuator) on the
//! virtual rig of `phlex_control::case_study`: model frequencies, simulated hammer tests
//! with ERA/DC-OKID and N4SID, MKR, LQG, EUK (designs A and B) and EUK-EKF, with the peak
//! reductions per floor next to the thesis's.
//!
//! ```text
//! cargo run --release -p phlex --example three_story            # thesis horizon and steps
//! cargo run --release -p phlex --example three_story -- --fast  # EUK-EKF with h = 5e-4
//! ```
//!
//! Writes CSV files, SVG plots and `summary.md` into `out/three_story/`.
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use phlex::output::{svg_plot, write_atomic};
use phlex_control::case_study::euk::{
    simulate_euk, simulate_euk_ekf, Design, EukEkfRun, EukRun, Hold,
};
use phlex_control::case_study::hammer::{hammer_test, identify_record, HammerTest};
use phlex_control::case_study::lqg::{design_lqg, design_model, simulate_lqg, LqgRun};
use phlex_control::case_study::rig::{Pendulum, Structure, IDENTIFIED_DAMPING};
use phlex_control::case_study::{
    peak_reductions, thesis, CaseTrace, NonlinearFrame, PeakReduction,
};
use phlex_control::model::mdof::rayleigh_damping;
use phlex_control::FrameParams;

/// At most `n` evenly spaced samples of `(t, v)`.
fn thin(t: &[f64], v: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
    let step = (t.len() / n).max(1);
    (
        t.iter().step_by(step).copied().collect(),
        v.iter().step_by(step).copied().collect(),
    )
}

/// Simulates a case with the control switched on (`sim(on)`) and without it
/// (`sim(off)`, the same run with `t_on = None`), prints the wall time and the peak reductions under `label`, writes
/// `{stem}.csv` and the floor plots titled `title`; returns the controlled trace and the
/// reductions.
fn on_and_off<R>(
    dir: &Path,
    (stem, title, label): (&str, &str, &str),
    [on, off]: [R; 2],
    sim: impl Fn(&R) -> Result<CaseTrace>,
) -> Result<(CaseTrace, [PeakReduction; 3])> {
    let t0 = Instant::now();
    let (c, nc) = (sim(&on)?, sim(&off)?);
    let red = peak_reductions(&c, &nc, 10.0)?;
    println!(
        "{label}: {:.2} s, reductions {red:?}",
        t0.elapsed().as_secs_f64()
    );
    write_atomic(&dir.join(format!("{stem}.csv")), trace_csv(&c).as_bytes())?;
    floors_plots(dir, stem, title, &c, &nc)?;
    Ok((c, red))
}

/// Displacement of each floor, controlled vs uncontrolled: `{stem}_floor{k}.svg`.
fn floors_plots(dir: &Path, stem: &str, title: &str, c: &CaseTrace, nc: &CaseTrace) -> Result<()> {
    for k in 0..3 {
        let (tn, vn) = thin(&nc.t, &nc.z.iter().map(|z| z[k]).collect::<Vec<_>>(), 4000);
        let (tc, vc) = thin(&c.t, &c.z.iter().map(|z| z[k]).collect::<Vec<_>>(), 4000);
        let svg = svg_plot(
            &format!("{title}: floor {}", k + 1),
            "t [s]",
            &[
                (&format!("x{} uncontrolled [m]", k + 1), &tn, &vn),
                (&format!("x{} controlled [m]", k + 1), &tc, &vc),
            ],
        )?;
        write_atomic(
            &dir.join(format!("{stem}_floor{}.svg", k + 1)),
            svg.as_bytes(),
        )?;
    }
    Ok(())
}

/// CSV of a run (at most about 5000 rows): t, states, estimates, control.
fn trace_csv(tr: &CaseTrace) -> String {
    let stride = (tr.t.len() / 5000).max(1);
    let mut s = String::from(
        "t,x1,x2,x3,theta,v1,v2,v3,omega,x1_hat,x2_hat,x3_hat,theta_hat,v1_hat,v2_hat,v3_hat,omega_hat,control\n",
    );
    for k in (0..tr.t.len()).step_by(stride) {
        let _ = write!(s, "{:.6}", tr.t[k]);
        for v in tr.z[k].iter().chain(tr.zhat[k].iter()) {
            let _ = write!(s, ",{v:.9e}");
        }
        let _ = writeln!(s, ",{:.9e}", tr.control[k]);
    }
    s
}

/// One row of the reduction table: controller, our reductions per floor, the thesis's
/// (displacement, velocity) reductions per floor where it prints them.
type TableRow<'a> = (&'a str, [PeakReduction; 3], Option<[(f64, f64); 3]>);

fn table(rows: &[TableRow<'_>]) -> String {
    let mut s = String::from(
        "| controller | floor | displacement (ours) | displacement (thesis) | velocity (ours) | velocity (thesis) |\n|---|---|---|---|---|---|\n",
    );
    for (name, red, th) in rows {
        for k in 0..3 {
            let (td, tv) = match th {
                Some(t) => (format!("{:.2} %", t[k].0), format!("{:.2} %", t[k].1)),
                None => ("—".into(), "—".into()),
            };
            let _ = writeln!(
                s,
                "| {name} | {} | {:.2} % | {td} | {:.2} % | {tv} |",
                k + 1,
                red[k].displacement,
                red[k].velocity
            );
        }
    }
    s
}

fn main() -> Result<()> {
    let fast = std::env::args().any(|a| a == "--fast");
    let dir = Path::new("out/three_story");
    let mut md = String::from("# Three-story frame with pendulum actuator (thesis 002 ch. 5)\n\n");
    let p = FrameParams::default();
    let plant = NonlinearFrame::case_study(p.clone())?;
    println!(
        "plant dampers sigma = {:?} (c = {:.4e} s)",
        plant.sigma,
        plant.sigma[0] / p.stiffness()[0]
    );

    // 1. model frequencies
    let lumped = Structure::lumped(&p, Pendulum::Hinged)?.frequencies()?;
    let fe3 = Structure::floating_frame(&p, 3, 1.0, Pendulum::Hinged)?.frequencies()?;
    let fe8 = Structure::floating_frame(&p, 8, 1.0, Pendulum::Hinged)?.frequencies()?;
    let fe0 = Structure::floating_frame(&p, 3, 1e-9, Pendulum::Hinged)?.frequencies()?;
    let _ = writeln!(md, "## Model frequencies (Hz)\n\n| mode | lumped | thesis lumped | FE massless columns | FE N_e = 3 | FE N_e = 8 | thesis FE (N_e = 40) |\n|---|---|---|---|---|---|---|");
    let th_l = [1.099, 1.985, 5.790, 8.825];
    let th_fe = [1.097, 1.945, 5.727, 8.678];
    let mut csv = String::from("mode,lumped,thesis_lumped,fe_massless,fe3,fe8,thesis_fe\n");
    for k in 0..4 {
        let _ = writeln!(
            md,
            "| {} | {:.4} | {:.3} | {:.4} | {:.4} | {:.4} | {:.3} |",
            k + 1,
            lumped[k],
            th_l[k],
            fe0[k],
            fe3[k],
            fe8[k],
            th_fe[k]
        );
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{}",
            k + 1,
            lumped[k],
            th_l[k],
            fe0[k],
            fe3[k],
            fe8[k],
            th_fe[k]
        );
    }
    write_atomic(&dir.join("modes.csv"), csv.as_bytes())?;

    // 2. hammer tests and identification
    let _ = writeln!(
        md,
        "\n## Identification from simulated hammer tests (ERA/DC-OKID and N4SID, order 6)\n"
    );
    let fe_rig = Structure::floating_frame(&p, 3, 1.0, Pendulum::Locked)?
        .with_modal_damping(&IDENTIFIED_DAMPING, 0.02)?;
    let lumped_rig = plant.locked_structure()?;
    let mut lumped_id = None;
    for (name, rig, file) in [
        ("FE frame (N_e = 3), thesis damping", &fe_rig, "fe"),
        ("lumped frame, plant dampers", &lumped_rig, "lumped"),
    ] {
        let rec = hammer_test(rig, 0, &HammerTest::default())?;
        let id = identify_record(&rec, 10.0)?;
        let truth = rig.model.damped_modes()?;
        let _ = writeln!(md, "**{name}** (hammer on floor 1, 4 impacts, 1 % sensor noise)\n\n| mode | model f (Hz) | ERA/DC-OKID f | N4SID f | model ξ | ERA/DC-OKID ξ | N4SID ξ |\n|---|---|---|---|---|---|---|");
        let (fo, zo) = (id.okid.modes.frequencies(), id.okid.modes.dampings());
        let (fn_, zn) = (id.n4sid.modes.frequencies(), id.n4sid.modes.dampings());
        for k in 0..3 {
            let _ = writeln!(
                md,
                "| {} | {:.5} | {:.5} | {:.5} | {:.5} | {:.5} | {:.5} |",
                k + 1,
                truth[k].freq_hz,
                fo[k],
                fn_[k],
                truth[k].damping,
                zo[k],
                zn[k]
            );
        }
        let _ = writeln!(
            md,
            "\nRayleigh fit α̂ = {:.4e} 1/s, β̂ = {:.4e} s.\n",
            id.rayleigh.0, id.rayleigh.1
        );
        let t: Vec<f64> = (0..rec.force.ncols()).map(|k| k as f64 * rec.dt).collect();
        let f: Vec<f64> = (0..rec.force.ncols()).map(|k| rec.force[(0, k)]).collect();
        let a: Vec<Vec<f64>> = (0..3)
            .map(|i| (0..rec.acc.ncols()).map(|k| rec.acc[(i, k)]).collect())
            .collect();
        write_atomic(
            &dir.join(format!("hammer_{file}.svg")),
            svg_plot(
                &format!("hammer test, {name}: filtered force and accelerations"),
                "t [s]",
                &[
                    ("force [N]", &t, &f),
                    ("a1 [m/s2]", &t, &a[0]),
                    ("a2 [m/s2]", &t, &a[1]),
                    ("a3 [m/s2]", &t, &a[2]),
                ],
            )?
            .as_bytes(),
        )?;
        let mut csv = String::from("t,force,acc1,acc2,acc3\n");
        for k in 0..t.len() {
            let _ = writeln!(csv, "{},{},{},{},{}", t[k], f[k], a[0][k], a[1][k], a[2][k]);
        }
        write_atomic(&dir.join(format!("hammer_{file}.csv")), csv.as_bytes())?;
        let sv: Vec<f64> = id
            .okid
            .realization
            .singular_values
            .iter()
            .take(20)
            .map(|s| s.log10())
            .collect();
        let idx: Vec<f64> = (1..=sv.len()).map(|k| k as f64).collect();
        write_atomic(
            &dir.join(format!("singular_values_{file}.svg")),
            svg_plot(
                &format!("{name}: ERA/DC Hankel singular values"),
                "index (y: log10 sigma)",
                &[("log10 sigma", &idx, &sv)],
            )?
            .as_bytes(),
        )?;
        if file == "lumped" {
            lumped_id = Some(id);
        }
    }
    let id = lumped_id.expect("lumped identification");
    let rel = |A: &faer::Mat<f64>, B: &faer::Mat<f64>| (A - B).norm_l2() / B.norm_l2();
    let _ = writeln!(
        md,
        "MKR on the lumped rig: ‖M̂ − M‖/‖M‖ = {:.2e}, ‖K̂ − K‖/‖K‖ = {:.2e}.\n",
        rel(&id.mkr.M, &lumped_rig.model.M),
        rel(&id.mkr.K, &lumped_rig.model.K)
    );

    // 3. LQG from the identified model, closed on the nonlinear plant
    let Rh = rayleigh_damping(
        id.mkr.M.as_ref(),
        id.mkr.K.as_ref(),
        id.rayleigh.0,
        id.rayleigh.1,
    );
    let model = design_model(id.mkr.M.as_ref(), id.mkr.K.as_ref(), Rh.as_ref(), &p, true)?;
    let lqg = design_lqg(&model)?;
    let run = LqgRun::default();
    let (lc, lred) = on_and_off(
        dir,
        ("lqg", "LQG, control on at 25 s", "LQG"),
        [
            run.clone(),
            LqgRun {
                t_on: None,
                ..run.clone()
            },
        ],
        |r| Ok(simulate_lqg(&plant, &lqg, r)?),
    )?;
    let _ = writeln!(
        md,
        "## LQG (§5.6)\n\nF∞ = {:?}; separation check {:.2e}; max torque {:.3} N m.\n",
        (0..8)
            .map(|j| (lqg.gains.regulator.F[(0, j)] * 1e4).round() / 1e4)
            .collect::<Vec<_>>(),
        lqg.gains.separation_error,
        lc.peak_control()
    );
    let tq: Vec<f64> = lc.control.clone();
    let phi: Vec<f64> =
        lc.z.iter()
            .map(|z| z[3] - 1.5 * std::f64::consts::PI)
            .collect();
    write_atomic(
        &dir.join("lqg_torque.svg"),
        svg_plot(
            "LQG: control torque and pendulum angle",
            "t [s]",
            &[("torque [N m]", &lc.t, &tq), ("phi [rad]", &lc.t, &phi)],
        )?
        .as_bytes(),
    )?;

    // 4. EUK design B (full state, stabilised hold at x3 = 0)
    let erun = EukRun {
        design: Design::B,
        t_end: 50.0,
        h: 1e-4,
        t_on: Some(25.0),
        hold: Hold::case_study(),
        store_every: 10,
    };
    let labels = ("euk_b", "EUK design B, control on at 25 s", "EUK B");
    let (ec, ered) = on_and_off(
        dir,
        labels,
        [
            erun.clone(),
            EukRun {
                t_on: None,
                ..erun.clone()
            },
        ],
        |r| Ok(simulate_euk(&plant, r)?),
    )?;
    let (tt, uu) = thin(&ec.t, &ec.control, 4000);
    write_atomic(
        &dir.join("euk_b_force.svg"),
        svg_plot(
            "EUK design B: control force on floor 3",
            "t [s]",
            &[("F_c3 [N]", &tt, &uu)],
        )?
        .as_bytes(),
    )?;

    // 5. EUK design A (thesis: 0.7 s, h = 1e-4, on at 0.35 s)
    let arun = EukRun {
        design: Design::A,
        t_end: 0.7,
        h: 1e-4,
        t_on: Some(0.35),
        hold: Hold::Thesis,
        store_every: 1,
    };
    let _ = writeln!(md, "## EUK design A (torque, §5.7)\n");
    match simulate_euk(&plant, &arun) {
        Ok(a) => {
            let w: Vec<f64> = a.z.iter().map(|z| z[7]).collect();
            let x3: Vec<f64> = a.z.iter().map(|z| z[2] * 1e3).collect();
            write_atomic(
                &dir.join("euk_a.svg"),
                svg_plot(
                    "EUK design A: pendulum rate and floor 3 (control on at the first zero of v3 after 0.35 s)",
                    "t [s]",
                    &[("omega [rad/s]", &a.t, &w), ("x3 [mm]", &a.t, &x3), ("torque [N m]", &a.t, &a.control)],
                )?
                .as_bytes(),
            )?;
            let _ = writeln!(
                md,
                "Switched on at {:.4} s; max |θ̇| {:.3} rad/s after the switch-on (before: {:.3}); max torque {:.3} N m: floor 3 stops, the pendulum has to accelerate (thesis: actuator placement judged poor).\n",
                a.t_on,
                a.z.iter().zip(&a.t).filter(|(_, t)| **t >= a.t_on).map(|(z, _)| z[7].abs()).fold(0.0, f64::max),
                a.z.iter().zip(&a.t).filter(|(_, t)| **t < a.t_on).map(|(z, _)| z[7].abs()).fold(0.0, f64::max),
                a.peak_control()
            );
        }
        Err(e) => {
            let _ = writeln!(md, "Stopped at the singular configuration: {e}\n");
        }
    }

    // 6. EUK-EKF (design B, estimated state)
    let h = if fast { 5e-4 } else { 1e-4 };
    let mut krun = EukEkfRun::thesis(50.0, h);
    // peaks are taken from the stored samples: keep them 1 ms apart
    krun.store_every = if fast { 2 } else { 10 };
    let label = format!("EUK-EKF (h = {h})");
    let labels = ("euk_ekf", "EUK-EKF, control on at 25 s", label.as_str());
    let (kc, kred) = on_and_off(
        dir,
        labels,
        [
            krun.clone(),
            EukEkfRun {
                t_on: None,
                ..krun.clone()
            },
        ],
        |r| Ok(simulate_euk_ekf(&plant, r)?),
    )?;
    let err: Vec<Vec<f64>> = (0..4)
        .map(|i| {
            kc.z.iter()
                .zip(&kc.zhat)
                .map(|(z, zh)| z[i] - zh[i])
                .collect()
        })
        .collect();
    let (te, e0) = thin(&kc.t, &err[0], 4000);
    let (_, e1) = thin(&kc.t, &err[1], 4000);
    let (_, e2) = thin(&kc.t, &err[2], 4000);
    write_atomic(
        &dir.join("euk_ekf_estimation_error.svg"),
        svg_plot(
            "EUK-EKF: estimation errors of the floor displacements",
            "t [s]",
            &[
                ("x1 − x1_hat [m]", &te, &e0),
                ("x2 − x2_hat [m]", &te, &e1),
                ("x3 − x3_hat [m]", &te, &e2),
            ],
        )?
        .as_bytes(),
    )?;
    let (tt, uu) = thin(&kc.t, &kc.control, 4000);
    write_atomic(
        &dir.join("euk_ekf_force.svg"),
        svg_plot(
            "EUK-EKF: control force on floor 3",
            "t [s]",
            &[("F_c3 [N]", &tt, &uu)],
        )?
        .as_bytes(),
    )?;
    let _ = writeln!(md, "## EUK design B and EUK-EKF (§5.7)\n\nEUK B max force {:.3} N; EUK-EKF (h = {h} s) max force {:.3} N.\n", ec.peak_control(), kc.peak_control());

    // 7. peak reductions
    let rows = [
        ("LQG", lred, Some(thesis::LQG)),
        ("EUK design B (full state)", ered, None),
        ("EUK-EKF", kred, Some(thesis::EUK_EKF)),
    ];
    let tab = table(&rows);
    let _ = writeln!(
        md,
        "## Peak reductions per floor (last 10 s, controlled vs uncontrolled)\n\n{tab}"
    );
    println!("{tab}");
    write_atomic(&dir.join("summary.md"), md.as_bytes())?;
    println!("results in {}", dir.display());
    Ok(())
}
