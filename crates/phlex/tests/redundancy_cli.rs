//! Redundant constraints from the command line (issue 14 item 6) on
//! `examples/mbs/parallelogram_redundant.toml` (three parallel cranks: one of the 12 hinge
//! rows is a combination of the others): without `[initial] redundant_constraints =
//! "remove"` the model is rejected (exit 2) with the redundant row, the rows it depends on
//! and the line of its joint; with it the row is released, reported in `phlex check` and
//! the summary, its reaction column stays zero, and the discrete gradient keeps H to round-off
//! (the motion itself is checked against the one-degree-of-freedom pendulum in
//! crates/phlex-mbs/tests/redundant_constraints.rs).
mod common;

use std::path::PathBuf;

use common::{column, csv, example, num, phlex, run_summary, write_model};

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("phlex-redundancy-cli", name)
}

#[test]
fn released_row_is_reported_and_the_run_conserves_energy() {
    let model = example("parallelogram_redundant.toml");
    let o = phlex().arg("check").arg(&model).output().unwrap();
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        report.contains("redundant rows released: tip2[y]"),
        "{report}"
    );
    let out = tmpdir("run");
    let s = run_summary(&model, &out);
    assert_eq!(s["released_rows"], serde_json::json!(["tip2[y]"]));
    let h0 = num(&s, "h_initial").abs();
    assert!(num(&s, "energy_balance_residual").abs() < 1e-12 * h0);
    let (names, rows) = csv(&out);
    assert!(column(&names, &rows, "tip2.lambda_y")
        .iter()
        .all(|v| *v == 0.0));
    let (a, b) = (
        column(&names, &rows, "crank0.theta"),
        column(&names, &rows, "crank2.theta"),
    );
    let lowest = a.iter().fold(0.0f64, |m, v| m.min(*v));
    assert!(lowest < -2.5, "the cranks swing ({lowest} rad)");
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() < 1e-9, "parallel cranks turn alike");
    }
}

#[test]
fn without_release_the_redundant_row_is_a_model_error() {
    let text = std::fs::read_to_string(example("parallelogram_redundant.toml")).unwrap();
    let reject = text.replace("redundant_constraints = \"remove\"", "");
    let (_, path) = write_model("phlex-redundancy-cli", "reject", &reject);
    let o = phlex().arg("check").arg(&path).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let line = reject
        .lines()
        .position(|l| l.trim() == "[joints.tip2]")
        .unwrap()
        + 1;
    assert!(err.contains(&format!(":{line}:")), "line {line}: {err}");
    assert!(err.contains("rank 11 of 12 rows"), "{err}");
    assert!(err.contains("tip2[y] = combination of {"), "{err}");
    assert!(err.contains("redundant_constraints = \"remove\""), "{err}");
}
