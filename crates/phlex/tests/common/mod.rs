//! Helpers shared by the end-to-end tests of the `phlex` binary: the binary and the
//! shipped examples, temporary directories and model files, running a command that must
//! succeed or fail, reading `summary.json` and `timeseries.csv`.
#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `phlex` binary under test.
pub fn phlex() -> Command {
    Command::new(env!("CARGO_BIN_EXE_phlex"))
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `examples/mbs/<name>`.
pub fn example(name: &str) -> PathBuf {
    examples("mbs").join(name)
}

/// `examples/<path>` (a file or a folder of the shipped examples).
pub fn examples(path: &str) -> PathBuf {
    root().join("examples").join(path)
}

/// A fresh (removed) temporary directory `<prefix>-<pid>-<name>`.
pub fn tmpdir(prefix: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A fresh, existing, empty temporary directory `<prefix>-<pid>-<name>`.
pub fn created_dir(prefix: &str, name: &str) -> PathBuf {
    let d = tmpdir(prefix, name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes a model file `<name>.toml` into a fresh temporary directory; returns (dir, file).
pub fn write_model(prefix: &str, name: &str, text: &str) -> (PathBuf, PathBuf) {
    let d = tmpdir(prefix, name);
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(format!("{name}.toml"));
    std::fs::write(&p, text).unwrap();
    (d, p)
}

/// `phlex run MODEL -o OUT -q` (exit status not checked).
pub fn run(model: impl AsRef<Path>, out: impl AsRef<Path>) -> Output {
    phlex()
        .arg("run")
        .arg(model.as_ref())
        .arg("-o")
        .arg(out.as_ref())
        .arg("-q")
        .output()
        .unwrap()
}

/// `phlex run MODEL -o OUT -q`, asserted to succeed.
pub fn run_ok(model: &Path, out: &Path) -> Output {
    let o = run(model, out);
    assert!(
        o.status.success(),
        "{}: {}",
        model.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// `phlex modes MODEL ARGS... --json JSON`, asserted to succeed: the parsed JSON.
pub fn modes_json(model: impl AsRef<Path>, args: &[&str], json: &Path) -> serde_json::Value {
    let o = phlex()
        .arg("modes")
        .arg(model.as_ref())
        .args(args)
        .arg("--json")
        .arg(json)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap()
}

/// Runs a command expected to fail; returns (exit code, stderr).
pub fn fails(args: &[&str], model: &Path) -> (i32, String) {
    let o = phlex().args(args).arg(model).output().unwrap();
    assert!(!o.status.success());
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

/// The parsed `summary.json` of a run directory.
pub fn summary(dir: &Path) -> serde_json::Value {
    let s = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json written");
    serde_json::from_str(&s).expect("valid JSON")
}

/// A numeric summary entry.
pub fn num(v: &serde_json::Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("summary key {key}: {v}"))
}

/// Header and rows of `timeseries.csv`.
pub fn csv(dir: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(dir.join("timeseries.csv")).unwrap();
    let mut lines = text.lines();
    let names: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|s| s.to_string())
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(|v| v.parse::<f64>().unwrap()).collect())
        .collect();
    (names, rows)
}

/// Index of column `name`.
pub fn column_index(names: &[String], name: &str) -> usize {
    names
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no column {name} in {names:?}"))
}

/// The values of column `name`.
pub fn column(names: &[String], rows: &[Vec<f64>], name: &str) -> Vec<f64> {
    let k = column_index(names, name);
    rows.iter().map(|r| r[k]).collect()
}

/// `phlex run MODEL -o OUT -q`, asserted to succeed: the parsed `summary.json`.
pub fn run_summary(model: &Path, out: &Path) -> serde_json::Value {
    run_ok(model, out);
    summary(out)
}

/// The angular frequencies `omega` of a `phlex modes --json` document.
pub fn omegas(v: &serde_json::Value) -> Vec<f64> {
    v["modes"]
        .as_array()
        .expect("modes array")
        .iter()
        .map(|m| m["omega"].as_f64().expect("numeric omega"))
        .collect()
}

/// `phlex modes MODEL ARGS... --json JSON`, asserted to succeed: the angular frequencies.
pub fn modes_omegas(model: impl AsRef<Path>, args: &[&str], json: &Path) -> Vec<f64> {
    omegas(&modes_json(model, args, json))
}

/// The values `f(m, n)` for `m, n = 1..n_max - 1`, sorted ascending (closed-form spectra
/// of rectangular plates: Navier's double series).
pub fn sorted_grid(n_max: usize, f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    let mut v: Vec<f64> = (1..n_max)
        .flat_map(|m| (1..n_max).map(move |n| (m as f64, n as f64)))
        .map(|(m, n)| f(m, n))
        .collect();
    v.sort_by(f64::total_cmp);
    v
}

/// Asserts `|got_i - want_i| < rel |want_i|` for the zipped pairs, naming `what` (the
/// reference) in the message.
pub fn assert_rel_each(got: &[f64], want: &[f64], rel: f64, what: &str) {
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < rel * w.abs(), "{g} vs {what} {w}");
    }
}

/// `phlex ARGS... MODEL -o OUT`, asserted to fail as a model error (exit 2) with `needle`
/// in the message and nothing written to `out`; returns the message.
pub fn model_error(args: &[&str], model: &Path, out: &Path, needle: &str) -> String {
    let o = phlex()
        .args(args)
        .arg(model)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(!out.exists(), "nothing may be written on error");
    err
}

/// Writes `text` as a model file and asserts that `phlex check` rejects it as a model error
/// (exit 2) with `needle` in the message (`prefix` names the temporary directory).
pub fn check_error(prefix: &str, text: &str, needle: &str) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (_, p) = write_model(prefix, &format!("err-{n}"), text);
    let o = phlex().arg("check").arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{needle}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
}
