//! End-to-end tests of plate assembly model files (`[plate]` + `[attachments.*]` / `[rod]`,
//! thesis 004 §10.2): the Table 10.6 frequencies through `phlex modes`, the power balance
//! and the straight welded edge of the Table 10.5 run, a rod and a point component together,
//! and clear errors (exit code 2, key and line named).
mod common;

use std::path::{Path, PathBuf};

use phlex_mbs::models::plate_assembly::{simulate_welded, table_10_6, Table105, TABLE_10_6_HZ};
use phlex_solve::signal::Signal;

use common::{phlex, root};

fn tmpdir(name: &str) -> PathBuf {
    common::created_dir("phlex-plate-assembly", name)
}

fn example(name: &str) -> String {
    std::fs::read_to_string(root().join("examples").join(name)).unwrap()
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `examples/plate_actuators.toml` (HHJ k = 2, 8 × 60, renormalised box of one cell)
/// against thesis 004 Table 10.6: 10.21, 32.82, 34.89, 47.30, 64.41, 118.09 Hz within 1 %
/// (measured 10.244, 32.750, 34.842, 47.444, 64.647, 119.181 Hz, largest deviation 0.92 %
/// on the 2nd torsion; the thesis's own discretisation error is of that order). The file
/// must also build exactly the library's bench ([`table_10_6`]): same frequencies to the
/// eigen-solvers' accuracy (Ritz tolerance 1e-9, different shifts; 1e-7 relative).
#[test]
fn table_10_6_frequencies() {
    let dir = tmpdir("t106");
    let j = dir.join("modes.json");
    let o = phlex()
        .arg("modes")
        .arg(root().join("examples/plate_actuators.toml"))
        .arg("--json")
        .arg(&j)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = json(&j);
    let f: Vec<f64> = v["modes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["frequency_hz"].as_f64().unwrap())
        .collect();
    assert_eq!(f.len(), 6);
    for (a, t) in f.iter().zip(TABLE_10_6_HZ) {
        assert!((a - t).abs() < 0.01 * t, "{a} Hz vs thesis {t} Hz");
    }
    let lib = table_10_6(8, 60, 2)
        .unwrap()
        .modes(6, 2.0 * std::f64::consts::PI * 10.0)
        .unwrap()
        .frequencies_hz();
    for (a, b) in f.iter().zip(&lib) {
        assert!(
            (a - b).abs() < 1e-7 * b,
            "{a} Hz (file) vs {b} Hz (library)"
        );
    }
}

/// Column of a CSV file by header name.
fn column(csv: &str, name: &str) -> Vec<f64> {
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let k = head.iter().position(|h| *h == name).unwrap();
    lines
        .map(|l| l.split(',').nth(k).unwrap().parse().unwrap())
        .collect()
}

/// `examples/plate_welded_rod.toml` (Table 10.5 set-up, HHJ k = 2, 6 × 6, dt = 1e-5):
/// * discrete power balance of the midpoint rule, every step to 1e-10 relative (measured
///   7e-13), and H(end) equals the load's work (the load stops at 2 ms);
/// * the welded edge stays straight: its velocity DOFs deviate from their affine fit along
///   the rod by round-off only (measured 3e-9 m/s against 0.5 m/s; a free edge bows by
///   several % of the deflection, library test `welded_rod_table_10_5`), so 1e-7 relative;
///   the edge velocity at y_G equals the rod heave v_G to the same accuracy;
/// * the file builds the library's Table 10.5 bench: H(end) equals that of
///   [`simulate_welded`] (145.9 J) to 1e-8 relative (same system and step; the files's
///   step signal and the library's closure agree at every midpoint sample).
#[test]
fn welded_rod_power_balance_and_straight_edge() {
    let dir = tmpdir("rod");
    let out = dir.join("out");
    let o = common::run(root().join("examples/plate_welded_rod.toml"), &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = json(&out.join("summary.json"));
    assert!(s["power_balance_residual_relative"].as_f64().unwrap() < 1e-10);
    let (h, w) = (
        s["h_final"].as_f64().unwrap(),
        s["energy_supplied"].as_f64().unwrap(),
    );
    assert!((h - w).abs() < 1e-8 * w, "H(end) {h} vs load work {w}");
    let csv = std::fs::read_to_string(out.join("timeseries.csv")).unwrap();
    let (v, bow, mid) = (
        column(&csv, "rod_v"),
        column(&csv, "edge_bow_v"),
        column(&csv, "edge_mid"),
    );
    let vmax = v.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    let bmax = bow.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    assert!(vmax > 0.1, "the rod moves: max |v_G| = {vmax}");
    assert!(bmax < 1e-7 * vmax, "edge bow {bmax} m/s vs {vmax} m/s");
    for (a, b) in v.iter().zip(&mid) {
        assert!(
            (a - b).abs() < 1e-7 * vmax,
            "v_G {a} vs edge velocity at y_G {b}"
        );
    }
    let lib = simulate_welded(
        &Table105 { n: 6, degree: 2 }.with_rod().unwrap(),
        1e-5,
        Table105::T_END,
        Signal::from_fn(Table105::load_amplitude),
    )
    .unwrap();
    let hl = *lib.energy.last().unwrap();
    assert!(
        (h - hl).abs() < 1e-8 * hl,
        "H(end) {h} (file) vs {hl} (library)"
    );
}

/// A rod and a point mass together (the point ports act on the welded plate): the coupled
/// index-2 system keeps the discrete power balance (1e-10 relative, measured 2e-13) and the
/// welded edge straight; the added 10 kg lowers the first frequency (27.18 → 26.97 Hz).
#[test]
fn rod_with_point_mass() {
    let dir = tmpdir("combo");
    let text = example("plate_welded_rod.toml").replace(
        "[loads.load]",
        "[attachments.block]\nkind = \"rigid\"\nat = [0.5, 0.5]\nmass = 10.0\njxx = 0.1\njyy = 0.1\n\n[loads.load]",
    );
    let model = dir.join("combo.toml");
    std::fs::write(&model, &text).unwrap();
    let out = dir.join("out");
    let o = common::run(&model, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = json(&out.join("summary.json"));
    assert!(s["power_balance_residual_relative"].as_f64().unwrap() < 1e-10);
    let csv = std::fs::read_to_string(out.join("timeseries.csv")).unwrap();
    let v = column(&csv, "rod_v");
    let vmax = v.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    let bmax = column(&csv, "edge_bow_v")
        .iter()
        .fold(0.0f64, |a, b| a.max(b.abs()));
    assert!(bmax < 1e-7 * vmax);
    assert!(column(&csv, "block_v").iter().any(|x| x.abs() > 1e-3));
    let f1 = |path: &Path, tag: &str| {
        let j = dir.join(format!("{tag}.json"));
        let o = phlex()
            .arg("modes")
            .arg(path)
            .arg("--json")
            .arg(&j)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        json(&j)["modes"][0]["frequency_hz"].as_f64().unwrap()
    };
    let (with, without) = (
        f1(&model, "with"),
        f1(&root().join("examples/plate_welded_rod.toml"), "without"),
    );
    assert!(with < without, "{with} Hz with the mass vs {without} Hz");
}

/// Runs `phlex run` on `text`; expects exit code 2, `needle` and `line N:` in the message,
/// and no output directory.
fn expect_model_error(text: &str, needle: &str, line: usize) {
    let dir = tmpdir(&format!("err-{}", needle.len()));
    let model = dir.join("bad.toml");
    std::fs::write(&model, text).unwrap();
    let out = dir.join("out");
    let o = phlex()
        .arg("run")
        .arg(&model)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(
        err.contains(&format!("bad.toml:{line}:")),
        "expected line {line} in: {err}"
    );
    assert!(!out.exists(), "nothing may be written on error");
}

/// Line (1-based) of the first line of `text` containing `pat`.
fn line_with(text: &str, pat: &str) -> usize {
    text.lines().position(|l| l.contains(pat)).unwrap() + 1
}

#[test]
fn bad_assembly_files_fail_clearly() {
    let act = example("plate_actuators.toml");
    let rod = example("plate_welded_rod.toml");
    // (file, text replaced, replacement, message, text on the line of the error)
    let cases: [(&String, &str, &str, &str, &str); 9] = [
        // unknown attachment kind
        (
            &act,
            "kind = \"rigid\"",
            "kind = \"piezo\"",
            "attachments.mirror.kind = 'piezo': use \"proof_mass_actuator\" or \"rigid\"",
            "piezo",
        ),
        // point outside the plate (y = 30 cm on a 28 cm plate)
        (
            &act,
            "at = [0.0, 0.28]",
            "at = [0.0, 0.30]",
            "attachments.mirror.at: point port 'mirror' at (0.000000, 0.300000) lies outside",
            "at = [0.0, 0.30]",
        ),
        // a key of the other kind
        (
            &act,
            "stiffness = 1026.0     # N/m",
            "jxx = 1.0\nstiffness = 1026.0",
            "attachments.act1.jxx is not a key of a 'proof_mass_actuator' attachment",
            "jxx = 1.0",
        ),
        // rod on an unknown edge
        (
            &rod,
            "edge = \"right\"",
            "edge = \"east\"",
            "rod.edge: unknown edge 'east' (edges: bottom, left, right, top)",
            "edge = \"east\"",
        ),
        // rod edge also given a condition
        (
            &rod,
            "left = \"clamped\"",
            "left = \"clamped\", right = \"free\"",
            "plate.edges.right: this edge carries the welded rod",
            "right = \"free\"",
        ),
        // [rod] with a Mindlin plate
        (
            &rod,
            "theory = \"kirchhoff\"",
            "theory = \"mindlin\"",
            "plate.theory = 'mindlin': plates with [rod] must be theory = \"kirchhoff\"",
            "theory = \"mindlin\"",
        ),
        // a typo in [rod]
        (
            &rod,
            "mass = 50.0",
            "mas = 50.0",
            "unknown field `mas`",
            "mas = 50.0",
        ),
        // [plate] keys are still checked by the plate parser, at their own line
        (
            &rod,
            "poisson_ratio = 0.35",
            "poisson_ratio = 0.35\nfoo = 1",
            "unknown field `foo`",
            "foo = 1",
        ),
        // an input on a port that does not exist
        (
            &rod,
            "port = \"load\"",
            "port = \"weight\"",
            "input: unknown port 'weight'",
            "port = \"weight\"",
        ),
    ];
    for (file, from, to, message, at) in cases {
        let t = file.replace(from, to);
        expect_model_error(&t, message, line_with(&t, at));
    }
}

/// A plate with a distributed load port only (`[loads.*]`, no components): the load does
/// work and the midpoint rule balances it (1e-10 relative, measured 3e-15).
#[test]
fn distributed_load_only() {
    let dir = tmpdir("loads");
    let model = dir.join("loads.toml");
    std::fs::write(
        &model,
        r#"
[model]
name = "cantilever under a uniform pressure"

[plate]
theory = "kirchhoff"
lx = 1.0
ly = 1.0
nx = 4
ny = 4
degree = 2
youngs_modulus = 70.0e9
poisson_ratio = 0.35
density = 2700.0
thickness = 0.05
edges = { left = "clamped" }

[loads.p]
profile = "1e3"

[[input]]
port = "p"
value = 1.0

[simulation]
integrator = "midpoint"
t_end = 0.001
dt = 1e-4
"#,
    )
    .unwrap();
    let out = dir.join("out");
    let o = common::run(&model, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = json(&out.join("summary.json"));
    assert!(s["energy_supplied"].as_f64().unwrap() > 0.0);
    assert!(s["power_balance_residual_relative"].as_f64().unwrap() < 1e-10);
}
