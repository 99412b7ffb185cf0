//! End-to-end tests of the boundary ports and plane stress of `[elasticity.thermal]`
//! (`phlex_fem::models::continuum::thermoelasticity`): the example `examples/continuum/thermoelastic_plate_heating.toml`
//! (plane stress, heat-flux port and traction port), the exact heat balance of a flux port
//! in 2D and 3D model files, and clear errors (exit code 2).
mod common;

use std::path::{Path, PathBuf};

use common::{phlex, root};

fn tmpdir(name: &str) -> PathBuf {
    common::created_dir("phlex-thermo2d", name)
}

fn run(model: &Path, dir: &Path) -> serde_json::Value {
    let o = common::run(model, dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap()
}

/// Last row of `timeseries.csv` as (column name → value).
fn last_row(dir: &Path) -> Vec<(String, f64)> {
    let text = std::fs::read_to_string(dir.join("timeseries.csv")).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let head: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let last = lines.next_back().unwrap();
    head.into_iter()
        .zip(last.split(',').map(|v| v.trim().parse::<f64>().unwrap()))
        .collect()
}

fn col(row: &[(String, f64)], name: &str) -> f64 {
    row.iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no column {name} in {row:?}"))
        .1
}

/// The example: `phlex check` lists the traction and heat-flux ports, `phlex run` keeps the
/// midpoint power balance to round-off (< 1e-10 relative) with both ports driven (the
/// supplied energy is the traction work plus the exergy inflow ∫θq, positive), the plate
/// warms at the heated edge more than at the far edge, and the heat content is positive
/// and at most what entered (q·|Γ|·t = 3, minus the work of the expanding free edges).
#[test]
fn plate_heating_example_runs_with_an_exact_power_balance() {
    let model = root().join("examples/continuum/thermoelastic_plate_heating.toml");
    let o = phlex().arg("check").arg(&model).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("right_tx, right_ty, left_flux"),
        "ports in check output: {out}"
    );
    let dir = tmpdir("plate");
    let s = run(&model, &dir);
    let res = s["power_balance_residual_relative"].as_f64().unwrap();
    assert!(res < 1e-10, "{res}");
    assert!(s["energy_supplied"].as_f64().unwrap() > 0.0);
    assert!(s["energy_dissipated"].as_f64().unwrap() > 0.0);
    let row = last_row(&dir);
    let (t0, t1) = (col(&row, "theta(0)"), col(&row, "theta(1)"));
    assert!(t0 > t1 && t1 > 0.0, "θ(0) = {t0}, θ(1) = {t1}");
    let heat = col(&row, "heat");
    let q_in = 1.0 * 0.5 * col(&row, "t");
    eprintln!("plate: heat {heat:.6} of {q_in} let in, θ(0) = {t0:.4}, θ(1) = {t1:.4}, residual {res:.1e}");
    assert!(heat > 0.5 * q_in && heat < q_in, "{heat} vs {q_in}");
}

/// Exact heat balance through a heat-flux port, from a model file: a strip (2D, plane
/// stress and plane strain) or a bar (3D) on rollers on every edge/face (v·n = 0, so no
/// thermoelastic boundary work), heated by q = 2 W/m² through x = 0 for t ∈ [0, 1] (then
/// the port input is 0): the `heat` column ∫ρc(T − T0) equals q·|Γ|·1 at t = 2 to 1e-10
/// relative (the discrete identity 1ᵀM_{CT0}θ̇ = 1ᵀB_q q integrated exactly by the midpoint
/// rule; the flux switches off at a step boundary). |Γ| = 0.2 (2D) and 0.04 (3D).
#[test]
fn heat_flux_port_lets_in_the_right_heat() {
    let dir = tmpdir("flux");
    let common = r#"
[[input]]
port = "left_flux"
value = { type = "step", t0 = 1.0, before = 2.0, after = 0.0 }

[simulation]
integrator = "midpoint"
t_end = 2.0
dt = 0.01
output_every = 10
"#;
    let thermal = r#"
[elasticity.thermal]
heat_capacity = 1.0
conductivity = 0.35
reference_temperature = 1.0
thermal_expansion = 0.2
heat_flux_ports = ["left"]
"#;
    let cases = [
        (
            "stress",
            format!(
                "[model]\nname = \"strip\"\n[elasticity]\ndim = 2\nplane = \"stress\"\nlx = 1.0\nly = 0.2\nnx = 10\nny = 2\ndegree = 2\nyoungs_modulus = 1.0\npoisson_ratio = 0.25\ndensity = 1.0\nboundaries = {{ left = \"fixed_x\", right = \"fixed_x\", bottom = \"fixed_y\", top = \"fixed_y\" }}\n{thermal}{common}"
            ),
            0.2,
        ),
        (
            "strain",
            format!(
                "[model]\nname = \"strip\"\n[elasticity]\ndim = 2\nlx = 1.0\nly = 0.2\nnx = 10\nny = 1\ndegree = 1\nyoungs_modulus = 1.0\npoisson_ratio = 0.25\ndensity = 1.0\nboundaries = {{ left = \"fixed_x\", right = \"fixed_x\", bottom = \"fixed_y\", top = \"fixed_y\" }}\n{thermal}{common}"
            ),
            0.2,
        ),
        (
            "3d",
            format!(
                "[model]\nname = \"bar\"\n[elasticity]\ndim = 3\nlx = 1.0\nly = 0.2\nlz = 0.2\nnx = 5\nny = 1\nnz = 1\ndegree = 1\nyoungs_modulus = 1.0\npoisson_ratio = 0.25\ndensity = 1.0\nboundaries = {{ xmin = \"fixed_x\", xmax = \"fixed_x\", ymin = \"fixed_y\", ymax = \"fixed_y\", zmin = \"fixed_z\", zmax = \"fixed_z\" }}\n{}{}",
                thermal.replace("[\"left\"]", "[\"xmin\"]"),
                common.replace("left_flux", "xmin_flux")
            ),
            0.04,
        ),
    ];
    for (name, text, area) in cases {
        let path = dir.join(format!("{name}.toml"));
        std::fs::write(&path, text).unwrap();
        let out = dir.join(name);
        let s = run(&path, &out);
        assert!(s["power_balance_residual_relative"].as_f64().unwrap() < 1e-10);
        let row = last_row(&out);
        let heat = col(&row, "heat");
        let exact = 2.0 * area * 1.0;
        let rel = (heat - exact).abs() / exact;
        eprintln!("{name}: heat {heat:.12} vs {exact} (rel {rel:.1e})");
        assert!(rel < 1e-10, "{name}: {heat} vs {exact}");
    }
}

/// Errors name the key: an unknown heat-flux tag, a tag both isothermal and a flux port, a
/// traction port also clamped, an input on a port that does not exist.
#[test]
fn thermal_port_errors_name_the_key() {
    let dir = tmpdir("errors");
    let base = |bnd: &str, thermal_extra: &str, input: &str| {
        format!(
            "[model]\nname = \"e\"\n[elasticity]\ndim = 2\nlx = 1.0\nly = 0.5\nnx = 2\nny = 1\nyoungs_modulus = 1.0\npoisson_ratio = 0.25\ndensity = 1.0\nboundaries = {{ {bnd} }}\n[elasticity.thermal]\nheat_capacity = 1.0\nconductivity = 1.0\nreference_temperature = 1.0\nthermal_expansion = 0.1\n{thermal_extra}\n{input}"
        )
    };
    for (k, (text, needle)) in [
        (
            base("left = \"clamped\"", "heat_flux_ports = [\"wall\"]", ""),
            "heat_flux_ports: unknown boundary 'wall'",
        ),
        (
            base(
                "left = \"clamped\"",
                "heat_flux_ports = [\"top\"]\nisothermal = [\"top\"]",
                "",
            ),
            "both isothermal and a heat-flux port",
        ),
        (
            base(
                "left = \"clamped\"",
                "",
                "[[input]]\nport = \"top_flux\"\nvalue = 1.0\n",
            ),
            "heat_flux_ports",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let path = dir.join(format!("bad{k}.toml"));
        std::fs::write(&path, text).unwrap();
        let o = phlex().arg("check").arg(&path).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "case {k}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "case {k}: {err}");
    }
}
