//! Every shipped example keeps its results (issue 13, "Must show"): for each
//! `examples/**/*.toml`, `phlex run` writes its outputs (`timeseries.csv`, `summary.json`
//! with at least one step or sample, `energy.svg` unless `plots = false`), `phlex check`
//! passes, and
//! `H(0)`, `H(end)` (`h_initial`, `h_final` in `summary.json`) and the `phlex modes --json`
//! angular frequencies agree with the values pinned in `tests/data/pinned_examples.json`.
//!
//! Tolerances (relative): 1e-8 for fixed-step runs and for frequencies, 1e-5 for adaptive
//! Radau IIA runs (their step sequence may change with any refactoring of the Newton
//! iteration). Frequencies below 1e-6 of the largest one of a model are round-off images
//! of rigid-body (zero) modes and are compared with that absolute floor.
//!
//! A deliberate change of a result (a new default, a fixed bug) re-pins the values in its
//! own commit, with the reason in the message:
//! `PHLEX_PIN_UPDATE=1 cargo test --release -p phlex --test pinned_examples`.
mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use common::{root, summary};

fn data_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pinned_examples.json")
}

fn updating() -> bool {
    std::env::var_os("PHLEX_PIN_UPDATE").is_some()
}

/// The model files of `examples/<dir>` (not recursive; `""` for the top level), relative
/// to the repository root, sorted.
fn examples(dir: &str) -> Vec<String> {
    let base = root().join("examples").join(dir);
    let mut v: Vec<String> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("toml"))
        .map(|p| {
            let rel = p
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            rel.replace('\\', "/")
        })
        .collect();
    v.sort();
    v
}

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("phlex-pinned", &name.replace(['/', '.'], "_"))
}

fn phlex(args: &[&str]) -> std::process::Output {
    common::phlex()
        .current_dir(root())
        .args(args)
        .output()
        .unwrap()
}

/// What one example gives today: `run` = (h_initial, h_final) or `None` for a model that
/// `phlex run` does not simulate; `modes` = the angular frequencies or `None` where
/// `phlex modes` does not apply; `adaptive` = integrated by Radau IIA.
fn measure(file: &str) -> Value {
    let out = tmpdir(file);
    let o = phlex(&["run", file, "-o", out.to_str().unwrap(), "-q"]);
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let run = if o.status.success() {
        let mut files = vec!["timeseries.csv", "summary.json"];
        if !text.contains("plots = false") {
            files.push("energy.svg");
        }
        for f in files {
            assert!(out.join(f).exists(), "{file}: missing {f}");
        }
        let s = summary(&out);
        let steps = s["steps"].as_u64().or(s["samples"].as_u64()).unwrap_or(0);
        assert!(steps > 0, "{file}: no steps or samples in summary.json");
        let h = |k: &str| {
            s[k].as_f64()
                .unwrap_or_else(|| panic!("{file}: summary.json has no number `{k}`"))
        };
        json!([h("h_initial"), h("h_final")])
    } else {
        Value::Null
    };
    let _ = std::fs::remove_dir_all(&out);
    let check = phlex(&["check", file]);
    assert!(
        check.status.success(),
        "phlex check {file}: {}",
        String::from_utf8_lossy(&check.stderr)
    );
    let json_path = tmpdir(&format!("{file}-modes")).with_extension("json");
    let o = phlex(&["modes", file, "--json", json_path.to_str().unwrap()]);
    let modes = if o.status.success() {
        let m: Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
        let _ = std::fs::remove_file(&json_path);
        Value::Array(
            m["modes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["omega"].clone())
                .collect(),
        )
    } else {
        Value::Null
    };
    let adaptive = text.contains("\"radau5\"");
    json!({"run": run, "modes": modes, "adaptive": adaptive})
}

fn close(a: f64, b: f64, rtol: f64, atol: f64) -> bool {
    (a - b).abs() <= rtol * a.abs().max(b.abs()) + atol
}

/// Compares the examples of `dir` with the pinned values (or re-pins them).
fn check_dir(dir: &str) {
    let files = examples(dir);
    assert!(!files.is_empty(), "no examples in examples/{dir}");
    let pinned: BTreeMap<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(data_file()).unwrap_or("{}".into())).unwrap();
    let mut failures = Vec::new();
    let mut fresh = BTreeMap::new();
    for file in &files {
        let now = measure(file);
        if updating() {
            fresh.insert(file.clone(), now);
            continue;
        }
        let Some(was) = pinned.get(file) else {
            failures.push(format!(
                "{file}: not pinned (re-pin with PHLEX_PIN_UPDATE=1)"
            ));
            continue;
        };
        let rtol = if was["adaptive"].as_bool().unwrap_or(false) {
            1e-5
        } else {
            1e-8
        };
        match (&was["run"], &now["run"]) {
            (Value::Null, Value::Null) => {}
            (Value::Array(w), Value::Array(n)) => {
                for (k, key) in ["h_initial", "h_final"].iter().enumerate() {
                    let (w, n) = (w[k].as_f64().unwrap(), n[k].as_f64().unwrap());
                    // H(end) of a damped run may be far below H(0): relative to both.
                    let scale = w.abs().max(n.abs());
                    if !close(w, n, rtol, 1e-14 * scale) {
                        failures.push(format!("{file}: {key} was {w:e}, now {n:e}"));
                    }
                }
            }
            (w, n) => failures.push(format!("{file}: run was {w}, now {n}")),
        }
        match (&was["modes"], &now["modes"]) {
            (Value::Null, _) => {}
            (Value::Array(w), Value::Array(n)) => {
                if w.len() != n.len() {
                    failures.push(format!(
                        "{file}: {} modes were pinned, now {}",
                        w.len(),
                        n.len()
                    ));
                    continue;
                }
                let w: Vec<f64> = w.iter().map(|v| v.as_f64().unwrap()).collect();
                let n: Vec<f64> = n.iter().map(|v| v.as_f64().unwrap()).collect();
                let top = w.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                for (k, (a, b)) in w.iter().zip(&n).enumerate() {
                    if !close(*a, *b, 1e-8, 1e-6 * top) {
                        failures.push(format!("{file}: omega[{k}] was {a:e}, now {b:e}"));
                    }
                }
            }
            (w, n) => failures.push(format!("{file}: modes were {w}, now {n}")),
        }
    }
    if updating() {
        // Each test re-reads and merges, so the four tests may re-pin in any order.
        let _lock = PIN_LOCK.lock().unwrap();
        let mut all: BTreeMap<String, Value> =
            serde_json::from_str(&std::fs::read_to_string(data_file()).unwrap_or("{}".into()))
                .unwrap();
        all.retain(|k, _| {
            let parent = Path::new(k)
                .parent()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            parent != format!("examples/{dir}").trim_end_matches('/')
        });
        all.extend(fresh);
        std::fs::create_dir_all(data_file().parent().unwrap()).unwrap();
        std::fs::write(
            data_file(),
            serde_json::to_string_pretty(&all).unwrap() + "\n",
        )
        .unwrap();
        return;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

static PIN_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn top_level_examples_keep_their_results() {
    check_dir("");
}

#[test]
fn continuum_examples_keep_their_results() {
    check_dir("continuum");
}

#[test]
fn ephs_examples_keep_their_results() {
    check_dir("ephs");
}

#[test]
fn mbs_examples_keep_their_results() {
    check_dir("mbs");
}
