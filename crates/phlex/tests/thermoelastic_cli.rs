//! End-to-end tests of the thermoelastic beam model file (`[thermoelastic_beam]`,
//! `examples/continuum/thermoelastic_beam.toml`): thermoelastic damping of `phlex modes`
//! against Lifshitz–Roukes, the exact power balance of `phlex run` with both ports driven,
//! and clear errors with exit code 2.
mod common;

use std::path::{Path, PathBuf};

use phlex_fem::models::beam::thermoelastic_beam::{lifshitz_roukes_inverse_q, ThermoBeamParams};

use common::phlex;

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/continuum/thermoelastic_beam.toml")
}

fn tmpdir(name: &str) -> PathBuf {
    common::created_dir("phlex-thermo", name)
}

/// The example's silicon parameters (independent of the model-file parser).
fn silicon() -> ThermoBeamParams {
    ThermoBeamParams {
        young: 169e9,
        density: 2330.0,
        width: 20e-6,
        thickness: 10e-6,
        expansion: 2.6e-6,
        heat_capacity: 1.631e6,
        conductivity: 148.0,
        t0: 300.0,
    }
}

/// First simply supported mode near the Zener peak (ξ ≈ 2.2): Q⁻¹ = 2ζ of `phlex modes`
/// vs Lifshitz–Roukes at the computed frequency. Tolerance 1e-3 as in the library test
/// `zener_damping_matches_lifshitz_roukes` (same discretisation: 16 Hermite elements,
/// CG2 × CG2 temperature, 8 elements through the thickness; error sources: first order in
/// Δ_E = 2.1e-4, axial conduction neglected by LR, which is second order at the peak,
/// temperature discretisation; measured 2.3e-4). The frequency is within Δ_E/2 above the
/// isothermal (π/L)²√(EI/ρA) (plus the Hermite error ≈ 1e-6 on 16 elements).
#[test]
fn modes_damping_is_lifshitz_roukes() {
    let dir = tmpdir("modes");
    let json = dir.join("modes.json");
    let o = phlex()
        .arg("modes")
        .arg(example())
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let m = &v["modes"][0];
    let (omega, zeta) = (
        m["omega"].as_f64().unwrap(),
        m["damping_ratio"].as_f64().unwrap(),
    );
    let p = silicon();
    let q_lr = lifshitz_roukes_inverse_q(&p, omega);
    let rel = (2.0 * zeta - q_lr).abs() / q_lr;
    eprintln!(
        "omega {omega:.6e}, Q^-1 = 2 zeta = {:.6e}, LR {q_lr:.6e}, rel {rel:.2e}",
        2.0 * zeta
    );
    assert!(rel < 1e-3, "{rel}");
    let l: f64 = 166e-6;
    let iso = (std::f64::consts::PI / l).powi(2) * (p.ei() / p.rho_a()).sqrt();
    assert!(
        omega > iso * (1.0 - 1e-5) && omega < iso * (1.0 + 0.5 * p.relaxation_strength() + 1e-5)
    );
    // near the Zener peak (ξ ≈ 2.2, maximum of Q⁻¹/Δ_E ≈ 0.494)
    let xi = p.thickness * (omega / (2.0 * p.diffusivity())).sqrt();
    assert!((xi - 2.2).abs() < 0.05, "{xi}");
}

/// `phlex run` with the example and, in addition, a harmonic load: the midpoint rule keeps
/// H1 − H0 = h(ȳᵀū − ēᵀRē) to round-off (relative residual < 1e-10; measured ~3e-14),
/// the energy columns add up to H, and the heated top face is warmer than the bottom.
#[test]
fn run_balances_power() {
    let dir = tmpdir("run");
    let text = std::fs::read_to_string(example()).unwrap().replace(
        "[simulation]",
        "[[input]]\nport = \"load\"\nvalue = \"0.5*sin(8.8e6*t)\"\n\n[simulation]",
    );
    let model = dir.join("beam.toml");
    std::fs::write(&model, text).unwrap();
    let o = common::run(&model, &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
    let rel = s["power_balance_residual_relative"].as_f64().unwrap();
    eprintln!(
        "power-balance residual (relative) {rel:.2e}, supplied {}, dissipated {}",
        s["energy_supplied"], s["energy_dissipated"]
    );
    assert!(rel < 1e-10, "{rel}");
    assert!(s["energy_dissipated"].as_f64().unwrap() > 0.0);
    let csv = std::fs::read_to_string(dir.join("timeseries.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |n: &str| head.iter().position(|h| h.trim_matches('"') == n).unwrap();
    let (h, hm, ht) = (col("H"), col("H_mech"), col("H_thermal"));
    let (top, bot) = (col("theta_top(L/2)"), col("theta_bottom(L/2)"));
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect();
    for r in &rows {
        // H = H_mech + H_thermal (the thermal block has its own E block)
        assert!((r[hm] + r[ht] - r[h]).abs() < 1e-12 * r[h]);
    }
    // after the flux pulse (t = 0.4 µs) the top face has been heated relative to the bottom
    let r = rows.iter().find(|r| r[0] >= 4e-7).unwrap();
    assert!(r[top] > r[bot], "{} {}", r[top], r[bot]);
}

fn expect_error(text: &str, needle: &str) {
    common::check_error("phlex-thermo", text, needle);
}

/// Bad input names the key and what to do: an unknown support, an unknown port, a
/// negative conductivity, a probe outside the section.
#[test]
fn bad_thermoelastic_models_are_rejected_clearly() {
    let beam = |extra: &str, tail: &str| {
        format!(
            "[model]\nname = \"b\"\n[thermoelastic_beam]\nlength = 1.0\nelements = 4\nyoungs_modulus = 1e9\ndensity = 1000.0\nwidth = 0.02\nthickness = 0.02\nthermal_expansion = 1e-5\nheat_capacity = 1e6\nconductivity = 1.0\nreference_temperature = 300.0\n{extra}{tail}"
        )
    };
    expect_error(
        &beam("left = \"pinned\"\n", ""),
        "thermoelastic_beam.left = 'pinned': use \"simply_supported\", \"clamped\" or \"free\"",
    );
    expect_error(
        &beam("", "[[input]]\nport = \"heat\"\nvalue = 1.0\n"),
        "input: unknown port 'heat' (ports: load, top_flux",
    );
    expect_error(
        &beam("", "").replace("conductivity = 1.0", "conductivity = -1.0"),
        "thermoelastic_beam.conductivity = -1: must be finite and > 0",
    );
    expect_error(
        &beam(
            "",
            "[output]\nprobes = [{ name = \"T\", field = \"theta\", x = 0.5, z = 0.02 }]\n",
        ),
        "output.probes 'T': z = 0.02 is outside the section",
    );
}
