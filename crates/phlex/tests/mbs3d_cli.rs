//! End-to-end tests of the `phlex` binary on spatial (3D) multibody model files
//! (`examples/mbs/heavy_top.toml`, `examples/mbs/tilted_hinge.toml`; format in
//! `docs/model-format-mbs.md`, section "Spatial (3D) models"): the runs reproduce
//! independent references (steady precession of the heavy top, exact period of the
//! tilted-hinge pendulum), and bad files fail with exit code 2 naming the item.
mod common;

use std::path::PathBuf;

use common::{column as col, csv, example, num, phlex, run_ok, summary};

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("phlex-mbs3d-cli", name)
}

fn write_model(name: &str, text: &str) -> (PathBuf, PathBuf) {
    common::write_model("phlex-mbs3d-cli", name, text)
}

/// The heavy top example (10⁴ midpoint steps): energy drift and pivot drift at round-off,
/// the summary reports steps and Newton iterations, the tip keeps its height
/// 0.2 cos θ (steady precession: no nutation, 1e-12 m) and turns about Z at the analytic
/// rate Ω = 3.04050382 rad/s up to the O((hω₃)²) error of the midpoint rule (measured in
/// phlex-mbs: 2.2e-4 relative at h = 5e-4 s; asserted below 0.5 (hω₃)² = 4.5e-4).
#[test]
fn heavy_top_runs_and_precesses() {
    let out = tmpdir("top");
    let o = run_ok(&example("heavy_top.toml"), &out);
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(
        table.contains("energy drift") && table.contains("pivot"),
        "{table}"
    );
    let s = summary(&out);
    assert_eq!(num(&s, "steps") as usize, 10_000);
    assert!(num(&s, "newton_iterations") >= 10_000.0);
    assert!(num(&s, "energy_drift") < 1e-10, "{s}");
    assert!(num(&s, "max_constraint_drift") < 1e-12, "{s}");
    assert!(num(&s, "wall_time_s") > 0.0);
    for f in ["energy.svg", "drift.svg", "positions.svg", "reactions.svg"] {
        let svg = std::fs::read_to_string(out.join(f)).unwrap();
        assert!(svg.starts_with("<svg") || svg.contains("<svg"), "{f}");
    }
    let (names, rows) = csv(&out);
    let (t, x, y, z) = (
        col(&names, &rows, "t"),
        col(&names, &rows, "tip.x"),
        col(&names, &rows, "tip.y"),
        col(&names, &rows, "tip.z"),
    );
    let h = 0.2 * 0.5f64.cos();
    let dz = z.iter().fold(0.0f64, |m, v| m.max((v - h).abs()));
    assert!(dz < 1e-12, "tip height varies by {dz}");
    let mut turn = 0.0;
    for k in 1..t.len() {
        let mut d = y[k].atan2(x[k]) - y[k - 1].atan2(x[k - 1]);
        if d > std::f64::consts::PI {
            d -= 2.0 * std::f64::consts::PI;
        }
        if d < -std::f64::consts::PI {
            d += 2.0 * std::f64::consts::PI;
        }
        turn += d;
    }
    let rate = turn / (t[t.len() - 1] - t[0]);
    let omega = 3.0405038243512283;
    let rel = (rate - omega).abs() / omega;
    println!("precession {rate:.9} rad/s (analytic {omega:.9}), relative error {rel:.3e}");
    assert!(rel < 0.5 * (5e-4f64 * 60.0).powi(2));
}

/// The tilted-hinge pendulum: the period from the upward zero crossings of θ0 + θ (the
/// joint state column `hinge.theta`) equals the exact value 2π/agm(1, cos(θ0/2)) ·
/// √(I/(m g d cos α)) to 1e-6 (midpoint frequency error (ωh)²/12 ≈ 6e-8).
#[test]
fn tilted_hinge_has_exact_period() {
    let out = tmpdir("hinge");
    run_ok(&example("tilted_hinge.toml"), &out);
    let s = summary(&out);
    assert!(num(&s, "energy_drift") < 1e-11, "{s}");
    assert!(num(&s, "max_constraint_drift") < 1e-12, "{s}");
    let (names, rows) = csv(&out);
    let t = col(&names, &rows, "t");
    let th: Vec<f64> = col(&names, &rows, "hinge.theta")
        .iter()
        .map(|v| v + 0.5)
        .collect();
    let mut cross = Vec::new();
    for k in 1..t.len() {
        if th[k - 1] < 0.0 && th[k] >= 0.0 {
            cross.push(t[k - 1] + (t[k] - t[k - 1]) * (-th[k - 1]) / (th[k] - th[k - 1]));
        }
    }
    assert!(cross.len() >= 3, "{cross:?}");
    let period = (cross[cross.len() - 1] - cross[0]) / (cross.len() - 1) as f64;
    // exact period
    let (alpha, theta0, m, d, g): (f64, f64, f64, f64, f64) = (0.4, 0.5, 2.0, 0.5, 9.81);
    let e = [alpha.cos(), 0.0, alpha.sin()];
    let i_axis = 0.02 * e[0] * e[0] + 0.03 * e[1] * e[1] + 0.04 * e[2] * e[2] + m * d * d;
    let (mut a, mut b) = (1.0f64, (0.5 * theta0).cos());
    while (a - b).abs() > 1e-16 {
        let n = 0.5 * (a + b);
        b = (a * b).sqrt();
        a = n;
    }
    let exact = 2.0 * std::f64::consts::PI / a * (i_axis / (m * g * d * alpha.cos())).sqrt();
    println!("period {period:.9} s, exact {exact:.9} s");
    assert!((period - exact).abs() < 1e-6 * exact);
}

/// `phlex check` reports the spatial model; Radau IIA through the generic adapter runs the
/// top with the energy drift at its tolerance level.
#[test]
fn check_and_radau() {
    let o = phlex()
        .arg("check")
        .arg(example("heavy_top.toml"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        text.contains("spatial multibody") && text.contains("pivot"),
        "{text}"
    );
    let src = std::fs::read_to_string(example("heavy_top.toml")).unwrap();
    let src = src
        .replace(
            "integrator = \"midpoint\"",
            "integrator = \"radau5\"\nrtol = 1e-9\natol = 1e-11",
        )
        .replace("output_every = 10\n", "")
        .replace("t_end = 5.0", "t_end = 1.0")
        .replace("dt = 5e-4\n", "")
        .replace("newton_rtol = 1e-14\nnewton_atol = 1e-14\n", "");
    let (d, p) = write_model("radau", &src);
    let out = d.join("out");
    run_ok(&p, &out);
    let s = summary(&out);
    println!(
        "radau: energy drift {}, drift {}",
        s["energy_drift"], s["max_constraint_drift"]
    );
    assert!(num(&s, "energy_drift") < 1e-6, "{s}");
    assert!(num(&s, "max_constraint_drift") < 1e-6, "{s}");
}

fn fails_with(name: &str, text: &str, needles: &[&str]) {
    let (_, p) = write_model(name, text);
    let o = phlex().arg("check").arg(&p).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{name}: {err}");
    for n in needles {
        assert!(err.contains(n), "{name}: '{n}' not in: {err}");
    }
}

const TOP: &str = r#"gravity = [0.0, 0.0, -9.81]

[model]
name = "bad top"

[bodies.top]
kind = "rigid3d"
mass = 1.0
inertia = [0.004, 0.004, 0.006]
com = [0.0, 0.0, 0.1]

[joints.pivot]
kind = "spherical"
a = "top.P"
b = "ground"
"#;

/// Model errors exit with code 2 and name the item (and its line where it has one).
#[test]
fn model_errors_exit_2_naming_the_item() {
    // a joint naming an unknown body
    fails_with(
        "unknown-body",
        &TOP.replace("a = \"top.P\"", "a = \"tpo.P\""),
        &["joint 'pivot'", "unknown body 'tpo'", "top, ground", ":12:"],
    );
    // an unknown port
    fails_with(
        "unknown-port",
        &TOP.replace("a = \"top.P\"", "a = \"top.tip\""),
        &["no port 'tip'", "P"],
    );
    // an unknown key, with its line
    fails_with(
        "unknown-key",
        &TOP.replace(
            "com = [0.0, 0.0, 0.1]",
            "com = [0.0, 0.0, 0.1]\ncolour = \"red\"",
        ),
        &["colour", ":11"],
    );
    // non-positive mass
    fails_with(
        "mass",
        &TOP.replace("mass = 1.0", "mass = 0.0"),
        &["'top'", "mass"],
    );
    // revolute without an axis
    fails_with(
        "axis",
        &TOP.replace("kind = \"spherical\"", "kind = \"revolute\""),
        &["joints.pivot", "axis"],
    );
    // a redundant second pivot
    fails_with(
        "redundant",
        &format!("{TOP}\n[joints.again]\nkind = \"spherical\"\na = \"top.P\"\n"),
        &["redundant", "pivot", "again"],
    );
}

/// A flexible `beam3d` with a hinged rigid body at its tip runs with the midpoint scheme at
/// several steps (Newton converges), with the discrete power balance exact (relative
/// residual < 1e-12, measured 4e-16) and a hinge drift that does not depend on dt (it
/// is the linear floating-frame kinematics, measured 2.183e-4 m at dt = 1e-3 and 5e-4).
#[test]
fn flexible_arm_with_flap_midpoint() {
    let mut drifts = Vec::new();
    for dt in ["1e-3", "5e-4"] {
        let dir = tmpdir(&format!("flap-{dt}"));
        std::fs::create_dir_all(&dir).unwrap();
        let text = std::fs::read_to_string(example("flexible_arm_flap.toml"))
            .unwrap()
            .replace("dt = 1e-3", &format!("dt = {dt}"));
        let model = dir.join("flap.toml");
        std::fs::write(&model, text).unwrap();
        let out = dir.join("out");
        run_ok(&model, &out);
        let s = summary(&out);
        assert!(num(&s, "power_balance_residual_relative") < 1e-12, "{s}");
        drifts.push(num(&s, "max_constraint_drift"));
    }
    assert!(drifts[0] < 1e-3, "{drifts:?}");
    assert!(
        (drifts[0] - drifts[1]).abs() < 0.05 * drifts[0],
        "{drifts:?}"
    );
}

/// `phlex modes` on a spatial model: a rigid body hanging from a spherical joint,
/// centre of mass d = 0.5 m below the pivot, linearised about its rest state (with the
/// geometric stiffness of gravity). The two swinging modes have the compound-pendulum
/// frequency ω² = m g d / (J_c + m d²) exactly (to the eigensolver's 1e-10; the spin
/// about the vertical and the rotation-coordinate redundancy give zero eigenvalues, not
/// reported).
#[test]
fn spatial_modes_of_a_hanging_body() {
    let dir = tmpdir("modes");
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("hanging.toml");
    std::fs::write(
        &model,
        r#"
gravity = [0.0, 0.0, -9.81]

[model]
name = "hanging body"

[bodies.bob]
kind = "rigid3d"
mass = 1.0
inertia = [0.01, 0.01, 0.002]
com = [0.0, 0.0, -0.5]

[joints.pivot]
kind = "spherical"
a = "bob.P"
b = "ground.origin"
"#,
    )
    .unwrap();
    let json = dir.join("modes.json");
    let v = common::modes_json(&model, &["-n", "2"], &json);
    let exact = (9.81f64 * 0.5 / (0.01 + 0.25)).sqrt();
    let modes = v["modes"].as_array().unwrap();
    assert_eq!(modes.len(), 2, "{v}");
    for m in modes {
        let w = m["omega"].as_f64().unwrap();
        assert!((w - exact).abs() < 1e-8 * exact, "{w} vs {exact}");
    }
}

/// `newton_modified = true` (§6.4 hinged spatial beam, 50 s): the step equations are
/// solved to the same tolerances, so the run is the same (final H equal to 1e-9
/// relative, measured 71.40030 nJ both) with the exact discrete power balance, and
/// faster (measured 0.27 s against 0.99 s for full Newton).
#[test]
fn modified_newton_gives_the_same_run() {
    let mut h_end = Vec::new();
    for modified in [false, true] {
        let dir = tmpdir(&format!("newton-{modified}"));
        std::fs::create_dir_all(&dir).unwrap();
        let text = std::fs::read_to_string(example("hinged_spatial_beam.toml"))
            .unwrap()
            .replace(
                "[simulation]",
                &format!("[simulation]\nnewton_modified = {modified}"),
            );
        let model = dir.join("hsb.toml");
        std::fs::write(&model, text).unwrap();
        let out = dir.join("out");
        run_ok(&model, &out);
        let s = summary(&out);
        assert!(num(&s, "power_balance_residual_relative") < 1e-12, "{s}");
        h_end.push(num(&s, "h_final"));
    }
    assert!((h_end[0] - h_end[1]).abs() < 1e-9 * h_end[0], "{h_end:?}");
}

/// A steel cantilever (`beam3d`, 20 mm square, 16 elements) welded to the ground with a
/// lumped tip mass r = m/(ρAL) = 0.5 (`lumped = [{ port = "C", mass }]`): the first bending
/// frequency (double: two planes) against the Euler–Bernoulli tip-mass equation
/// 1 + cos βL cosh βL + r βL (cos βL sinh βL − sin βL cosh βL) = 0, solved here by
/// bisection, within 1e-4 (measured 1e-8).
#[test]
fn tip_mass_cantilever_frequency() {
    let text = r#"
[model]
name = "cantilever with tip mass"

[bodies.beam]
kind = "beam3d"
length = 1.0
density = 7800.0
youngs_modulus = 2.1e11
poisson_ratio = 0.3
width = 0.02
height = 0.02
elements = 16
deformation_bc = "cantilever"
lumped = [{ port = "C", mass = 1.56 }]

[joints.root]
kind = "weld"
a = "beam.P"
b = "ground.origin"
"#;
    let (d, p) = write_model("tip_mass", text);
    let json = d.join("modes.json");
    let o = phlex()
        .args(["modes", "-n", "2", "--json"])
        .arg(&json)
        .arg(&p)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let (e, rho, a, i) = (2.1e11f64, 7800.0f64, 4e-4f64, 0.02f64.powi(4) / 12.0);
    let r = 1.56 / (rho * a);
    let f = |b: f64| 1.0 + b.cos() * b.cosh() + r * b * (b.cos() * b.sinh() - b.sin() * b.cosh());
    let (mut lo, mut hi) = (0.5f64, 1.875f64);
    for _ in 0..100 {
        let m = 0.5 * (lo + hi);
        if f(lo) * f(m) <= 0.0 {
            hi = m
        } else {
            lo = m
        }
    }
    let exact = lo * lo * (e * i / (rho * a)).sqrt();
    for m in v["modes"].as_array().unwrap() {
        let w = m["omega"].as_f64().unwrap();
        assert!((w / exact - 1.0).abs() < 1e-4, "{w} vs {exact}");
    }
}

/// §6.4 with `integrator = "gauss"`, 6 stages, dt = 12.5 ms (the fast configuration of
/// `phlex_mbs::HingedSpatialBeam::fast_params`, library test
/// `hinged_fast_configuration_matches_reference_accuracy`), cut to 16 s: one Newton matrix
/// for the whole run, the per-step power balance exact for the quadratic Hamiltonian
/// (relative < 1e-9), the ledger H − H0 − W (exact Gauss inflow, not sampled) < 1e-9.
#[test]
fn hinged_beam_gauss_collocation() {
    let text = std::fs::read_to_string(example("hinged_spatial_beam_gauss.toml"))
        .unwrap()
        .replace("t_end = 50.0", "t_end = 16.0");
    let (d, p) = write_model("hinged_gauss", &text);
    let out = d.join("out");
    run_ok(&p, &out);
    let s = summary(&out);
    assert_eq!(num(&s, "factorizations"), 1.0);
    assert!(num(&s, "power_balance_residual_relative") < 1e-9);
    assert!(num(&s, "energy_drift") < 1e-9);
}

/// `mass_operator = "full"` on a `beam3d` body (deformation-dependent inertia,
/// `FloatingBeam3d::full_inertia`): the §6.4 hinged beam to 12 s (torque on until 10.2 s)
/// runs with the exact discrete energy balance (drift < 1e-9 relative, the library measures
/// 1.1e-12 between loads) and zero joint drift; the key is rejected on a rigid body and with
/// an unknown value (exit 2, naming it).
#[test]
fn beam3d_full_inertia_from_a_model_file() {
    let text = std::fs::read_to_string(example("hinged_spatial_beam.toml"))
        .unwrap()
        .replace(
            "deformation_bc = \"cantilever\"",
            "deformation_bc = \"cantilever\"\nmass_operator = \"full\"",
        )
        .replace("t_end = 50.0", "t_end = 12.0");
    assert!(text.contains("mass_operator = \"full\""));
    let (dir, model) = write_model("full_inertia", &text);
    let out = dir.join("out");
    run_ok(&model, &out);
    let s = summary(&out);
    assert!(num(&s, "energy_drift") < 1e-9, "{s}");
    assert!(num(&s, "max_constraint_drift") < 1e-9, "{s}");
    let bad = text.replace("mass_operator = \"full\"", "mass_operator = \"lumped\"");
    let (_, model) = write_model("full_inertia_bad", &bad);
    let (code, err) = common::fails(&["check"], &model);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("mass_operator = 'lumped'"), "{err}");
}
