//! LQG control of a PFEM beam through its ports (issue 6 §4): the `[control]` table of a
//! beam model file, `phlex run` on `examples/beam_lqg.toml`, and the bridge
//! `LinearPhSystem → StateSpace` on the built beam.
mod common;

use std::path::{Path, PathBuf};

use phlex_control::ph::bridge::ph_to_state_space;
use phlex_control::ph::lqg::{design_lqg, simulate_closed_loop, ClosedLoopRun, PhLqgSpec};

use common::{phlex, root};

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("phlex-control", name)
}

fn example() -> PathBuf {
    root().join("examples/beam_lqg.toml")
}

/// `phlex run examples/beam_lqg.toml`: files written; separation check to 1e-8; the
/// closed-loop energy after 1 s is a tiny fraction of the open-loop one (measured ratio
/// 3.6e-5 with noise; asserted < 1e-3); the exact discrete power balance of both loops
/// closes to round-off (measured 3e-15; asserted 1e-12); every closed-loop pole is
/// inside the unit circle while the open loop (undamped beam) sits on it.
#[test]
fn beam_lqg_example_runs() {
    let out = tmpdir("example");
    let o = common::run(example(), &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in [
        "timeseries.csv",
        "summary.json",
        "energy.svg",
        "energy_log.svg",
        "control.svg",
    ] {
        assert!(out.join(f).exists(), "missing {f}");
    }
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let num = |k: &str| s[k].as_f64().unwrap_or_else(|| panic!("summary key {k}"));
    eprintln!(
        "separation {:.3e}, ratio {:.3e}, balance {:.3e}",
        num("separation_error"),
        num("energy_ratio_closed_over_open"),
        num("power_balance_residual_relative")
    );
    assert!(num("separation_error") < 1e-8);
    assert!(num("energy_ratio_closed_over_open") < 1e-3);
    assert!(num("power_balance_residual_relative") < 1e-12);
    assert_eq!(s["steps"].as_u64(), Some(1000));
    assert!(s["spectral_radius"]["closed_loop"].as_f64().unwrap() < 1.0);
    assert!((s["spectral_radius"]["open_loop"].as_f64().unwrap() - 1.0).abs() < 1e-10);
    assert_eq!(s["control_inputs"][0], "right.u0");
    assert_eq!(s["measured_outputs"][1], "right.y1");
    assert!(s["outputs"][0]
        .as_str()
        .unwrap()
        .ends_with("timeseries.csv"));
    assert_eq!(s["closed_loop_poles"].as_array().unwrap().len(), 48);
    let csv = std::fs::read_to_string(out.join("timeseries.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(header.starts_with("t,H_open,H_closed,control_effort,control_power,control_work"));
    assert_eq!(csv.lines().count(), 1002);
    let o = phlex().arg("check").arg(example()).output().unwrap();
    assert!(o.status.success());
    let _ = std::fs::remove_dir_all(&out);
}

/// The bridge on the built beam: the poles of `A = E⁻¹(J − R)` are ±iω with ω the
/// eigenfrequencies of the pH pencil computed by `phlex modes` (shift-invert on the
/// sparse pencil; agreement 1e-8 relative); the discrete LQG design satisfies the
/// separation principle to 1e-8 (measured 1.7e-14); without noise the closed-loop energy
/// after 1 s is below 1e-6 of the open-loop energy (measured 5.7e-8), which an undamped
/// beam keeps (drift < 1e-11, measured 1.0e-12).
#[test]
fn bridged_beam_separation_and_energy() {
    let (_, b) = phlex::kinds::beam::load(&example()).unwrap();
    let ph = ph_to_state_space(&b.system, &["right"], &["right"], &[]).unwrap();
    assert_eq!(ph.n_states(), 24);
    let rows = phlex::output::frequencies(&b.system, 4).unwrap();
    let w = pole_frequencies(&ph);
    for (r, wi) in rows.iter().zip(&w) {
        eprintln!("omega {:.8e} (pencil) vs {wi:.8e} (state space)", r.omega);
        assert!((r.omega - wi).abs() < 1e-8 * wi);
    }
    let spec = PhLqgSpec {
        dt: 1e-3,
        q_weight: 1.0,
        r_weight: 1e-2,
        process_noise: 1e-3,
        measurement_noise: 1e-3,
    };
    let lqg = design_lqg(&ph, &spec).unwrap();
    eprintln!("separation error {:.3e}", lqg.separation_error);
    assert!(lqg.separation_error < 1e-8);
    let tr = simulate_closed_loop(
        &ph,
        &lqg,
        &ClosedLoopRun {
            t_end: 1.0,
            e0: b.initial.clone(),
            e_hat0: None,
            t_on: 0.0,
            disturbance: None,
            seed: None,
        },
    )
    .unwrap();
    let n = tr.t.len() - 1;
    let h0 = tr.energy_open[0];
    let drift = tr
        .energy_open
        .iter()
        .map(|h| (h - h0).abs())
        .fold(0.0, f64::max);
    let ratio = tr.energy_closed[n] / tr.energy_open[n];
    eprintln!(
        "open-loop drift {:.3e}, closed/open energy at 1 s {ratio:.3e}",
        drift / h0
    );
    // 1000 orthogonal propagation steps of a 24-state model: round-off ≈ 1e-12
    assert!(drift < 1e-11 * h0);
    assert!(ratio < 1e-6);
    // the energy removed is the work of the controller (no dissipation, no noise)
    assert!((tr.control_work[n] - (tr.energy_closed[n] - h0)).abs() < 1e-10 * h0);
}

/// The clamp imposed by Lagrange multipliers (an index-2 pHDAE): the bridge eliminates
/// the multipliers on the null space of the constraints (paper 000 eq. (51)); the
/// exported model has the poles of the strongly clamped beam (1e-8 relative, both
/// against the sparse pencil of the DAE), the clamp's multiplier port `left` (a
/// prescribed motion) cannot be an input, and `phlex run` controls the DAE model like
/// the ODE one (same closed-loop energy ratio to 1e-6 relative: same model up to an
/// orthogonal change of coordinates).
#[test]
fn multiplier_beam_bridges_through_the_null_space() {
    let dir = tmpdir("multiplier");
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(example()).unwrap().replace(
        "right = \"port\"",
        "right = \"port\"\nimposition = \"multiplier\"",
    );
    let model = dir.join("model.toml");
    std::fs::write(&model, &text).unwrap();
    let (_, b) = phlex::kinds::beam::load(&model).unwrap();
    let (_, strong) = phlex::kinds::beam::load(&example()).unwrap();
    assert!(b.system.n_states() > strong.system.n_states());
    let ph = ph_to_state_space(&b.system, &["right"], &["right"], &[]).unwrap();
    let ps = ph_to_state_space(&strong.system, &["right"], &["right"], &[]).unwrap();
    assert_eq!(ph.n_states(), ps.n_states());
    let (w, ws) = (pole_frequencies(&ph), pole_frequencies(&ps));
    let rows = phlex::output::frequencies(&b.system, 4).unwrap();
    for k in 0..4 {
        eprintln!(
            "omega {:.10e} (DAE pencil) {:.10e} (null space) {:.10e} (strong)",
            rows[k].omega, w[k], ws[k]
        );
        assert!((rows[k].omega - w[k]).abs() < 1e-8 * w[k]);
        assert!((ws[k] - w[k]).abs() < 1e-8 * w[k]);
    }
    let e = ph_to_state_space(&b.system, &["left"], &["right"], &[]).unwrap_err();
    assert!(e.to_string().contains("`left`"), "{e}");
    let run = |m: &Path, out: &Path| -> serde_json::Value {
        let o = common::run(m, out);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
    };
    let a = run(&model, &dir.join("dae"));
    let c = run(&example(), &dir.join("ode"));
    let (ra, rc) = (
        a["energy_ratio_closed_over_open"].as_f64().unwrap(),
        c["energy_ratio_closed_over_open"].as_f64().unwrap(),
    );
    eprintln!("energy ratio DAE {ra:.6e}, ODE {rc:.6e}");
    assert!((ra - rc).abs() < 1e-6 * rc);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs a modified copy of the example; returns (exit code, stderr).
fn run_variant(name: &str, edit: impl Fn(String) -> String) -> (i32, String) {
    let text = edit(std::fs::read_to_string(example()).unwrap());
    let dir = tmpdir(name);
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("model.toml");
    std::fs::write(&model, text).unwrap();
    let out = dir.join("out");
    let o = common::run(&model, &out);
    assert!(!out.join("summary.json").exists(), "{name}: wrote results");
    let _ = std::fs::remove_dir_all(&dir);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

/// A model-file edit and the fragments its error message must contain.
type Case = (
    &'static str,
    Box<dyn Fn(String) -> String>,
    &'static [&'static str],
);

/// Bad control tables exit with code 2 and a message naming the problem.
#[test]
fn control_errors_exit_2() {
    let cases: Vec<Case> = vec![
        (
            "unknown input port",
            Box::new(|t| t.replace("inputs = [\"right\"]", "inputs = [\"tip\"]")),
            &[
                "unknown input port `tip`",
                "available: right",
                "model.toml:31:",
            ],
        ),
        (
            "unknown output",
            Box::new(|t| t.replace("outputs = [\"right\"]", "outputs = [\"tip_speed\"]")),
            &["unknown output port or probe `tip_speed`", "tip_velocity"],
        ),
        (
            // the velocity at the clamped root is identically zero: nothing is observable
            "not detectable",
            Box::new(|t| {
                t.replace("outputs = [\"right\"]", "outputs = [\"root\"]").replace(
                    "probes = [{ name = \"tip_velocity\"",
                    "probes = [{ name = \"root\", field = \"velocity\", x = 0.0 }, { name = \"tip_velocity\"",
                )
            }),
            &["not detectable", "unobservable"],
        ),
        (
            "negative weight",
            Box::new(|t| t.replace("q_weight = 1.0", "q_weight = -1.0")),
            &["control.q_weight must be > 0"],
        ),
        (
            "unknown kind",
            Box::new(|t| t.replace("kind = \"lqg\"", "kind = \"pid\"")),
            &["pid"],
        ),
        (
            "unknown key",
            Box::new(|t| t.replace("seed = 2011", "seed = 2011\ngain = 3.0")),
            &["gain"],
        ),
    ];
    for (name, edit, needles) in cases {
        let (code, err) = run_variant(&name.replace(' ', "_"), edit);
        eprintln!("{name}: {err}");
        assert_eq!(code, 2, "{name}: exit {code}: {err}");
        for n in needles {
            assert!(err.contains(n), "{name}: '{n}' not in: {err}");
        }
    }
}

/// `phlex::identify::identify_with_method(.., Method::N4sid)` (the library side of
/// `phlex identify --method n4sid`): the shear frame of the case study sampled at 32 Hz
/// with 2 % output noise gives order 6 and the three frequencies within 0.5 %;
/// `identification.json` names the method; a bad method name is a usage error.
#[test]
fn identify_with_n4sid_writes_report() {
    use phlex_control::model::zoh::c2d;
    use phlex_control::{FrameParams, OutputMaps, Sensing, StateSpace};
    let dt = 1.0 / 32.0;
    let fr = FrameParams::default()
        .shear_frame()
        .unwrap()
        .with_rayleigh(0.5, 2e-4);
    let d = c2d(
        &StateSpace::from_mdof(
            &fr,
            &OutputMaps::sensing(Sensing::Acceleration, 3, &[0, 1, 2]),
        )
        .unwrap(),
        dt,
    )
    .unwrap();
    let mut rng = phlex_control::signal::noise::NoiseRng::new(3);
    let l = 4096;
    let u = rng.white(1, l, 1.0);
    let (y, _) = d.simulate(u.as_ref(), None).unwrap();
    let mut csv = String::from("t,force,a1,a2,a3\n");
    for k in 0..l {
        csv.push_str(&format!("{},{}", k as f64 * dt, u[(0, k)]));
        for i in 0..3 {
            csv.push_str(&format!(",{}", y[(i, k)] * (1.0 + 0.02 * rng.normal())));
        }
        csv.push('\n');
    }
    let dir = tmpdir("n4sid");
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("frame.csv");
    std::fs::write(&data, csv).unwrap();
    let args = phlex::identify::IdentifyArgs {
        data: &data,
        inputs: vec!["force".into()],
        outputs: vec!["a1".into(), "a2".into(), "a3".into()],
        dt,
        order: None,
        out: &dir.join("out"),
    };
    let method = phlex::identify::parse_method("n4sid").unwrap();
    let rep = phlex::identify::identify_with_method(&args, method).unwrap();
    assert_eq!(rep.realization.order, 6);
    let truth = fr.damped_modes().unwrap();
    for (m, t) in rep.modes.modes.iter().zip(&truth) {
        assert!((m.freq_hz - t.freq_hz).abs() < 5e-3 * t.freq_hz);
    }
    let j: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("out/identification.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(j["method"], "n4sid");
    let e = phlex::identify::parse_method("pid").unwrap_err();
    assert_eq!(phlex::app::exit_code(&e), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The angular frequencies (positive imaginary parts of the poles, ascending) of a bridged
/// state-space model.
fn pole_frequencies(p: &phlex_control::ph::bridge::PhStateSpace) -> Vec<f64> {
    let mut w: Vec<f64> =
        p.ss.poles()
            .unwrap()
            .iter()
            .filter(|l| l.im > 0.0)
            .map(|l| l.im)
            .collect();
    w.sort_by(|a, b| a.total_cmp(b));
    w
}
