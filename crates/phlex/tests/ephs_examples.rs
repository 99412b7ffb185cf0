//! The EPHS examples (`examples/ephs/`) through the `phlex` binary (issue 5, "Examples …
//! with plots"): each runs with `phlex run`, writes its diagnostics and plots, and the
//! invariants are asserted from `summary.json` and `timeseries.csv`. The errors of issue 5
//! §6 exit with code 2 and name the offending items.
mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{phlex, root};

fn example(name: &str) -> PathBuf {
    root().join(format!("examples/ephs/{name}.toml"))
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("phlex-ephs-ex-{}-{name}", std::process::id()))
}

fn run(model: &Path, out: &Path) -> Output {
    let _ = std::fs::remove_dir_all(out);
    common::run(model, out)
}

/// Runs a model that must succeed (into a fresh `out`); returns the summary.
fn run_ok(model: &Path, out: &Path) -> serde_json::Value {
    let _ = std::fs::remove_dir_all(out);
    common::run_summary(model, out)
}

/// `timeseries.csv` as columns by name.
fn csv(out: &Path) -> HashMap<String, Vec<f64>> {
    let mut r = csv::Reader::from_path(out.join("timeseries.csv")).unwrap();
    let names: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let mut cols: HashMap<String, Vec<f64>> = names.iter().map(|n| (n.clone(), vec![])).collect();
    for rec in r.records() {
        for (n, v) in names.iter().zip(rec.unwrap().iter()) {
            cols.get_mut(n).unwrap().push(v.parse().unwrap());
        }
    }
    cols
}

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn range(v: &[f64]) -> f64 {
    v.iter().fold(f64::NEG_INFINITY, |a, b| a.max(*b))
        - v.iter().fold(f64::INFINITY, |a, b| a.min(*b))
}

fn assert_plots(out: &Path, names: &[&str]) {
    for n in names {
        let s = std::fs::read_to_string(out.join(n)).unwrap_or_else(|_| panic!("missing {n}"));
        assert!(
            s.contains("<svg") && (s.contains("polyline") || s.contains("path")),
            "{n}"
        );
    }
}

#[test]
fn damped_oscillator_energy_entropy_and_exergy() {
    let out = tmp("dosc");
    let s = run_ok(&example("damped_oscillator"), &out);
    let c = csv(&out);
    // Underdamped solution of eq. (8), m = k = 1, d = 0.1, q(0) = 1, p(0) = 0.
    let zeta: f64 = 0.05;
    let wd = (1.0 - zeta * zeta).sqrt();
    let err = c["t"]
        .iter()
        .zip(&c["osc.pe.q"])
        .map(|(t, q)| (q - (-zeta * t).exp() * ((wd * t).cos() + zeta / wd * (wd * t).sin())).abs())
        .fold(0.0f64, f64::max);
    // θ0 (s(t) − s(0)) = E_mech(0) − E_mech(t): Radau5 at rtol 1e-10 (measured 2.3e-10
    // relative drift of E_mech + θ0 s).
    let drift = f(&s["energy_drift"]);
    println!("damped oscillator: |q − q_exact| {err:.3e}, energy drift {drift:.3e}");
    assert!(err < 1e-8 && drift < 1e-8, "{err} {drift}");
    assert_eq!(s["entropy_non_decreasing"], true);
    // Exergy destroyed = θ0 Δs = E_mech(0) − E_mech(end); the friction's rate column
    // integrates to it up to the trapezoidal error on the 0.1 s grid.
    let e = &s["mechanical_energy"];
    let destroyed = f(&s["exergy_destroyed"]);
    assert!(
        (destroyed - (f(&e[0]) - f(&e[1]))).abs() < 1e-8,
        "{destroyed}"
    );
    let by = f(&s["exergy_destroyed_by_component"]["mf"]);
    assert!(
        (by - destroyed).abs() < 2e-3 * destroyed,
        "{by} {destroyed}"
    );
    // The rate is d·v² = d (p/m)² ≥ 0 at every output.
    for (r, p) in c["exergy_destruction[mf]"].iter().zip(&c["osc.ke.p"]) {
        assert!((r - 0.1 * p * p).abs() < 1e-14 && *r >= 0.0);
    }
    assert_plots(
        &out,
        &["energy.svg", "entropy.svg", "exergy_destruction.svg"],
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn coulomb_oscillator_decays_linearly_and_conserves_total_energy() {
    // Nonlinear friction F(v) = (d + μ_c tanh(|v|/v_s)/|v|) v, d = 0.002, μ_c = 0.05,
    // v_s = 1e-3, k = m = 1, q(0) = 1: Coulomb decay by 2μ_c/k = 0.1 per half period.
    let out = tmp("coulomb");
    let s = run_ok(&example("coulomb_oscillator"), &out);
    let c = csv(&out);
    // Radau5 rtol 1e-10 (measured 2.9e-10 relative drift of E_mech + θ0 s in the crate test).
    let drift = f(&s["energy_drift"]);
    println!("coulomb oscillator: energy drift {drift:.3e}");
    assert!(drift < 1e-8, "{drift}");
    assert_eq!(s["entropy_non_decreasing"], true);
    // Extrema of q on the 0.01 s grid (sign changes of p): |q| ≈ 0.9, 0.8, 0.7, 0.6, ...;
    // grid error ≤ A (Δt)²/8 ≈ 1e-5, viscous extra ≈ 3e-3: 5 % of 0.1.
    let (q, p) = (&c["osc.pe.q"], &c["osc.ke.p"]);
    let mut amp = vec![1.0];
    for i in 1..p.len() {
        if p[i - 1] * p[i] < 0.0 {
            amp.push(q[i - 1].abs().max(q[i].abs()));
        }
    }
    println!("amplitudes {amp:?}");
    assert!(amp.len() >= 5, "{amp:?}");
    for w in amp[..5].windows(2) {
        assert!((w[0] - w[1] - 0.1).abs() < 5e-3, "{amp:?}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// Turning point of the nutation of a Lagrange top released without precession from tilt
/// θ0 (spin a = J3 ω3, I1 = J1 + m l² about the tip): u = cos θ solves
/// 2 I1 m g l (1 − u²) = a² (cos θ0 − u) (energy and both angular momenta conserved).
fn lagrange_top_max_tilt(i1: f64, mgl: f64, a: f64, theta0: f64) -> f64 {
    let (qa, qb, qc) = (
        -2.0 * i1 * mgl,
        a * a,
        2.0 * i1 * mgl - a * a * theta0.cos(),
    );
    let u = (-qb + (qb * qb - 4.0 * qa * qc).sqrt()) / (2.0 * qa);
    u.acos()
}

#[test]
fn spinning_top_conserves_energy_spin_and_vertical_angular_momentum() {
    let out = tmp("top");
    let s = run_ok(&example("spinning_top"), &out);
    let c = csv(&out);
    let lz = &c["momentum.L_z"];
    let dlz = range(lz) / lz[0].abs();
    let spin = range(&c["top.ke.p[2]"]) / 0.4;
    let drift = f(&s["max_joint_drift"]);
    let de = f(&s["energy_drift"]);
    // Tilt of the body axis R e3: cos θ = R33.
    let tilt: Vec<f64> = c["top.pe.q[8]"].iter().map(|v| v.acos()).collect();
    let tmax = tilt.iter().fold(0.0f64, |a, b| a.max(*b));
    let tmin = tilt.iter().fold(f64::INFINITY, |a, b| a.min(*b));
    let exact = lagrange_top_max_tilt(0.004 + 0.01, 0.981, 0.4, 0.3);
    // Precession: azimuth of the axis, unwrapped.
    let (x, y) = (&c["top.pe.q[2]"], &c["top.pe.q[5]"]);
    let mut az = 0.0f64;
    for k in 1..x.len() {
        let d = y[k].atan2(x[k]) - y[k - 1].atan2(x[k - 1]);
        az += (d + std::f64::consts::PI).rem_euclid(2.0 * std::f64::consts::PI)
            - std::f64::consts::PI;
    }
    println!(
        "spinning top: energy drift {de:.3e}, |ΔL_z|/L_z {dlz:.3e}, |Δ(J3 ω3)|/(J3 ω3) {spin:.3e}, joint drift {drift:.3e}, tilt in [{tmin:.6}, {tmax:.6}] (turning point {exact:.6}), precession {az:.3} rad"
    );
    // Energy: discrete gradients conserve E_mech to Newton tolerance; the projection keeps
    // the energy level (measured 3e-14).
    assert!(de < 1e-11, "{de}");
    // Projection on: the tip stays at the origin to round-off (measured 8e-16).
    assert!(drift < 1e-12, "{drift}");
    // Spin: gravity has no discrete torque about the centre of mass (closed-form discrete
    // gradient) and the joint force acts on the axis: conserved to round-off.
    assert!(spin < 1e-12, "{spin}");
    // L_z: conserved by the exact flow; the midpoint rule keeps it to its O(h²) error
    // (measured 1.3e-5 with h = 2.5e-4, 5.3e-5 with h = 5e-4, see below).
    assert!(dlz < 5e-5, "{dlz}");
    // Nutation between θ0 and the turning point of the conserved quantities; the error is
    // the O(h²) error of the scheme plus the sampling of the maximum on the 2 ms grid
    // (measured 1.0e-4 rad).
    assert!((tmin - 0.3).abs() < 1e-6, "{tmin}");
    assert!((tmax - exact).abs() < 3e-4, "{tmax} {exact}");
    // The top precesses (mean rate ≈ m g l/(J3 ω3) ≈ 2.45 rad/s): more than 1 rad in 5 s.
    assert!(az.abs() > 1.0, "{az}");
    assert_plots(&out, &["energy.svg", "momentum.svg", "drift.svg"]);

    // O(h²) of the L_z error: the same model with twice the step.
    let text = std::fs::read_to_string(example("spinning_top"))
        .unwrap()
        .replace("dt = 0.00025", "dt = 0.0005")
        // the same output times (every 2 ms)
        .replace("output_every = 8", "output_every = 4");
    let coarse = tmp("top_coarse.toml");
    std::fs::write(&coarse, text).unwrap();
    let out2 = tmp("top_coarse");
    run_ok(&coarse, &out2);
    let lz2 = &csv(&out2)["momentum.L_z"];
    let ratio = (range(lz2) / lz2[0].abs()) / dlz;
    println!("spinning top: L_z error ratio for h = 5e-4 vs 2.5e-4: {ratio:.2}");
    assert!(ratio > 3.5 && ratio < 4.5, "{ratio}");
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&out2);
    let _ = std::fs::remove_file(&coarse);
}

#[test]
fn double_pendulum_with_joint_friction_conserves_total_energy() {
    let out = tmp("dpend");
    let s = run_ok(&example("double_pendulum_friction"), &out);
    let c = csv(&out);
    let de = f(&s["energy_drift"]);
    let destroyed = f(&s["exergy_destroyed"]);
    let e = &s["mechanical_energy"];
    let sum: f64 = ["j1.mf", "j2.mf"]
        .iter()
        .map(|n| f(&s["exergy_destroyed_by_component"][n]))
        .sum();
    let min_ds = c["entropy"]
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min);
    let drift = f(&s["max_joint_drift"]);
    println!(
        "double pendulum with friction: energy drift {de:.3e}, exergy destroyed {destroyed:.6} J (components {sum:.6} J), min Δs {min_ds:.3e}, max drift {drift:.3e}"
    );
    // E_mech + θ0 s conserved to Newton tolerance of the discrete-gradient midpoint rule
    // (measured 1.1e-12 relative to the 7.9 J exchanged).
    assert!(de < 1e-10, "{de}");
    // Entropy never decreases (each step adds h μ u_r²/θ0 ≥ 0): checked on the raw column.
    assert!(min_ds >= 0.0, "{min_ds}");
    assert_eq!(s["entropy_non_decreasing"], true);
    // θ0 Δs = E_mech(0) − E_mech(end) (the same statement), and the per-joint exergy
    // destruction rates integrate to it up to the trapezoidal error on the 10 ms grid.
    assert!((destroyed - (f(&e[0]) - f(&e[1]))).abs() < 1e-9 * destroyed);
    assert!(destroyed > 1.0);
    assert!(
        (sum - destroyed).abs() < 1e-3 * destroyed,
        "{sum} {destroyed}"
    );
    for n in ["exergy_destruction[j1.mf]", "exergy_destruction[j2.mf]"] {
        assert!(c[n].iter().all(|r| *r >= 0.0), "{n}");
    }
    // No stabilisation: the position drift is monitored; O(h²) with h = 1e-3 (measured
    // 5.1e-5).
    assert!(drift > 0.0 && drift < 1e-4, "{drift}");
    assert_eq!(c["drift[j1]"].len(), c["t"].len());
    assert_plots(
        &out,
        &[
            "energy.svg",
            "entropy.svg",
            "exergy_destruction.svg",
            "drift.svg",
            "momentum.svg",
        ],
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn driven_oscillator_reports_port_power_and_energy_balance() {
    let out = tmp("osc");
    let s = run_ok(&example("oscillator"), &out);
    let c = csv(&out);
    // Power into port p: p.e · p.f = v · 0.1 sin t.
    for ((pw, p), t) in c["power[p]"].iter().zip(&c["ke.p"]).zip(&c["t"]) {
        assert!((pw - p * 0.1 * t.sin()).abs() < 1e-12, "{pw}");
    }
    // ΔE = ∫ P dt up to the trapezoidal error on the 0.1 s grid (measured 1.7e-4 of the
    // energy scale).
    let bal = f(&s["energy_balance_residual_relative"]);
    assert!(bal < 1e-3, "{bal}");
    assert!(s["energy_drift"].is_null());
    assert_plots(&out, &["energy.svg", "power.svg"]);
    let _ = std::fs::remove_dir_all(&out);
}

/// Runs `phlex run` and `phlex check` on a broken variant of the damped oscillator (the
/// replacements `(from, to)` applied): both exit with code 2, write nothing, and the
/// message contains every `needle`.
fn expect_error(tag: &str, edits: &[(&str, &str)], needles: &[&str]) {
    let mut text = std::fs::read_to_string(example("damped_oscillator")).unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "{tag}: {from} not found");
        text = text.replace(from, to);
    }
    let p = tmp(&format!("{tag}.toml"));
    std::fs::write(&p, text).unwrap();
    let out = tmp(tag);
    let o = run(&p, &out);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{tag}: {err}");
    for n in needles {
        assert!(err.contains(n), "{tag}: {err} lacks {n}");
    }
    assert!(!out.join("summary.json").exists(), "{tag}: output written");
    let o = phlex().arg("check").arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{tag} (check)");
    println!("{tag}: {}", err.trim());
    let _ = std::fs::remove_file(&p);
}

#[test]
fn language_errors_exit_with_code_2_and_name_the_items() {
    const MF: &str = r#"boxes.mf = { fill = "friction", ports = { p = "p", s = "s" } }"#;
    // Type mismatch at a junction: the entropy port of the friction on the momentum
    // junction p; names the port and both quantities.
    expect_error(
        "type_mismatch",
        &[(
            MF,
            r#"boxes.mf = { fill = "friction", ports = { p = "p", s = "p" } }"#,
        )],
        &[
            "quantity mismatch",
            "mf.s",
            "entropy",
            "momentum",
            "junction 'p'",
        ],
    );
    // Two storages on one junction: a second mass on the momentum junction.
    expect_error(
        "two_storages",
        &[(
            r#"boxes.ke = { fill = "mass", ports = { p = "p" } }"#,
            r#"boxes.ke = { fill = "mass", ports = { p = "p" } }
boxes.ke2 = { fill = "mass", ports = { p = "p" } }"#,
        )],
        &["more than one storage", "junction 'p'", "ke.p", "ke2.p"],
    );
    // Unconnected port: the coupling's momentum port left open.
    expect_error(
        "unconnected",
        &[(
            r#"boxes.pkc = { fill = "coupling", ports = { q = "q", p = "p" } }"#,
            r#"boxes.pkc = { fill = "coupling", ports = { q = "q" } }"#,
        )],
        &["unconnected port 'p'", "box 'pkc'", "pattern 'osc'"],
    );
    // Undetermined effort: without the oscillator, the momentum junction p of `dosc` has
    // no storage and only the friction, which with d = 0 exerts no force: its flow
    // balance 0 = d u ≡ 0 determines the effort p.e neither directly nor after
    // differentiation.
    expect_error(
        "undetermined",
        &[
            (r#"boxes.osc = { fill = "osc", ports = { p = "p" } }"#, ""),
            (r#""osc.pe.q" = 1.0"#, ""),
            (r#""osc.ke.p" = 0.0"#, ""),
            ("damping = 0.1", "damping = 0.0"),
        ],
        &["undetermined algebraic variable(s) p.e", "model `dosc`"],
    );
    // Interface mismatch when filling a box: the box declares a state port where the
    // filling pattern has a power port.
    expect_error(
        "interface_mismatch",
        &[(
            r#"boxes.osc = { fill = "osc", ports = { p = "p" } }"#,
            r#"boxes.osc = { fill = "osc", interface_state = { p = "momentum" }, ports = { p = "p" } }"#,
        )],
        &[
            "interface mismatch when filling box 'osc'",
            "pattern 'dosc'",
            "box port 'p'",
        ],
    );
}
