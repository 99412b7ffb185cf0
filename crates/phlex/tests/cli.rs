//! End-to-end tests of the `phlex` binary on beam models: the discrete power balance, bad
//! model files fail with exit code 2 naming the key and line and write nothing, modes match
//! closed forms (every shipped example runs and is checked in `pinned_examples.rs`).
mod common;

use std::path::PathBuf;

use common::{phlex, root, summary};

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("phlex-cli", name)
}

#[test]
fn midpoint_runs_satisfy_the_discrete_power_balance() {
    // Lossless free vibration: H conserved; port-driven and damped runs: ΔH = W − D per step.
    for (model, tol) in [
        ("beam_simply_supported", 1e-12),
        ("cantilever_tip_force", 1e-12),
        ("cantilever_damped", 1e-12),
    ] {
        let out = tmpdir(&format!("pb-{model}"));
        let path = root().join(format!("examples/{model}.toml"));
        let o = common::run(&path, &out);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let s = summary(&out);
        let rel = s["power_balance_residual_relative"].as_f64().unwrap();
        let drift = s["energy_drift"].as_f64().unwrap();
        assert!(rel < tol, "{model}: power-balance residual {rel:e}");
        assert!(drift < 1e-10, "{model}: energy drift {drift:e}");
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// `integrator = "gauss"` on beam files: the discrete power balance of Gauss collocation
/// (exact for the quadratic H of a beam) on a port-driven and a damped cantilever, and the
/// key checks naming `simulation.stages`.
#[test]
fn gauss_runs_on_beam_files_with_the_discrete_power_balance() {
    for model in ["cantilever_tip_force", "cantilever_damped"] {
        let text = std::fs::read_to_string(root().join(format!("examples/{model}.toml")))
            .unwrap()
            .replace(
                "integrator = \"midpoint\"",
                "integrator = \"gauss\"\nstages = 2",
            );
        let path = write_model(&format!("gauss-{model}"), &text);
        let out = tmpdir(&format!("gauss-{model}"));
        let o = phlex()
            .arg("run")
            .arg(&path)
            .arg("-o")
            .arg(&out)
            .arg("-q")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let s = summary(&out);
        assert!(s["integrator"]
            .as_str()
            .unwrap()
            .contains("gauss (2 stages"));
        let rel = s["power_balance_residual_relative"].as_f64().unwrap();
        assert!(rel < 1e-9, "{model}: power-balance residual {rel:e}");
        let _ = std::fs::remove_dir_all(&out);
        // stages with another integrator is an error naming the key
        let bad = write_model(
            &format!("gauss-bad-{model}"),
            &text.replace("integrator = \"gauss\"", "integrator = \"midpoint\""),
        );
        let o = phlex().arg("check").arg(&bad).output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("simulation.stages"));
    }
}

fn write_model(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("phlex-cli-{}-{name}.toml", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

const GOOD: &str = r#"[model]
name = "t"

[beam]
theory = "euler_bernoulli"
length = 1.0
density = 5600.0
area = 5.0e-5
youngs_modulus = 136.0e9
second_moment = 4.16e-12
elements = 4
discretization = "HerDG1"
left = "simply_supported"
right = "simply_supported"

[simulation]
integrator = "midpoint"
t_end = 0.01
dt = 1.0e-3
"#;

/// Runs `phlex run` on a model text; returns (exit code, stderr) and asserts nothing was written.
fn run_bad(name: &str, text: &str) -> (i32, String) {
    let p = write_model(name, text);
    let out = tmpdir(name);
    let o = common::run(&p, &out);
    assert!(
        !out.exists(),
        "{name}: output directory written despite the error"
    );
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

#[test]
fn bad_model_files_exit_2_naming_key_and_line() {
    let cases: Vec<(&str, String, &[&str])> = vec![
        (
            "unknown_key",
            GOOD.replace("elements = 4", "elements = 4\nelement_count = 3"),
            &["element_count", ":12:"],
        ),
        (
            "missing_key",
            GOOD.replace("youngs_modulus = 136.0e9\n", ""),
            &["youngs_modulus"],
        ),
        (
            "wrong_type",
            GOOD.replace("elements = 4", "elements = \"four\""),
            &["elements", ":11:"],
        ),
        (
            "negative_length",
            GOOD.replace("length = 1.0", "length = -1.0"),
            &["beam.length", "> 0", ":6:"],
        ),
        (
            "zero_elements",
            GOOD.replace("elements = 4", "elements = 0"),
            &["beam.elements", ":11:"],
        ),
        (
            "zero_modulus",
            GOOD.replace("youngs_modulus = 136.0e9", "youngs_modulus = 0.0"),
            &["beam.youngs_modulus", ":9:"],
        ),
        (
            "bad_discretization",
            GOOD.replace("\"HerDG1\"", "\"HerDG7\""),
            &["HerDG7", ":12:"],
        ),
        (
            "bad_expression",
            format!("{GOOD}\n[initial]\nvelocity = \"sin(pi*t)\"\n"),
            &["initial.velocity", "only 'x'"],
        ),
        (
            "unknown_port",
            format!("{GOOD}\n[[input]]\nport = \"tip\"\nvalues = [1.0, 0.0]\n"),
            &["tip", "not an open port"],
        ),
        (
            "probe_outside",
            format!(
                "{GOOD}\n[output]\nprobes = [{{ name = \"p\", field = \"velocity\", x = 2.0 }}]\n"
            ),
            &["outside the beam"],
        ),
    ];
    for (name, text, needles) in cases {
        let (code, err) = run_bad(name, &text);
        assert_eq!(code, 2, "{name}: exit code {code}, stderr: {err}");
        for n in needles {
            assert!(err.contains(n), "{name}: '{n}' not in error: {err}");
        }
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    let (code, err) = run_bad("missing_file", "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn modes_of_a_cantilever_match_the_closed_form() {
    // Cantilever EB: ω_n = (β_n L)² √(EI/(ρA L⁴)), β_n L = 1.87510, 4.69409, 7.85476.
    let text = GOOD
        .replace("\"simply_supported\"\nright", "\"clamped\"\nright")
        .replace("right = \"simply_supported\"", "right = \"free\"")
        .replace("elements = 4", "elements = 16");
    let p = write_model("cantilever_modes", &text);
    let json = tmpdir("cantilever_modes.json");
    let v = common::modes_json(&p, &[], &json);
    let c = (136.0e9 * 4.16e-12 / (5600.0 * 5.0e-5f64)).sqrt();
    for (k, bl) in [1.87510f64, 4.69409, 7.85476].iter().enumerate() {
        let w = v["modes"][k]["omega"].as_f64().unwrap();
        let exact = bl * bl * c;
        assert!(
            ((w - exact) / exact).abs() < 1e-3,
            "mode {}: {w} vs {exact}",
            k + 1
        );
    }
    let _ = std::fs::remove_file(&json);
}

#[test]
fn ephs_examples_run_check_and_draw() {
    for name in [
        "damped_oscillator",
        "free_rigid_body",
        "oscillator",
        "two_body_revolute",
    ] {
        let path = root().join(format!("examples/ephs/{name}.toml"));
        let out = tmpdir(&format!("ephs-{name}"));
        let o = common::run(&path, &out);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let s = summary(&out);
        assert_eq!(
            s["entropy_non_decreasing"],
            serde_json::Value::Bool(true),
            "{name}"
        );
        if name != "oscillator" {
            // Closed models: E_mech + θ₀ s is conserved to solver tolerance.
            let d = s["total_energy_change"].as_f64().unwrap();
            assert!(d < 1e-8, "{name}: total energy drift {d:e}");
        }
        assert!(phlex()
            .arg("check")
            .arg(&path)
            .output()
            .unwrap()
            .status
            .success());
        let svg = out.join("pattern.svg");
        let o = phlex()
            .args(["ephs", "draw"])
            .arg(&path)
            .arg("-o")
            .arg(&svg)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
        let _ = std::fs::remove_dir_all(&out);
    }
    // A typo in an EPHS file: exit code 2, key and line named, nothing written.
    let text = std::fs::read_to_string(root().join("examples/ephs/damped_oscillator.toml"))
        .unwrap()
        .replace("damping = 0.1", "dampin = 0.1");
    let p = write_model("ephs_bad", &text);
    let out = tmpdir("ephs_bad");
    let o = phlex()
        .arg("run")
        .arg(&p)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("dampin"), "{err}");
    assert!(!out.exists());
}
