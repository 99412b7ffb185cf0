//! One inertia rule for every model file (issue 13, item 4): an inertia tensor that no body
//! can have is rejected by `phlex check` (exit code 2) with a message naming the component
//! or body, the key and the failed condition, whether it comes from an EPHS model
//! (`[components.*] kind = "rigid_body"`) or a `[bodies]` file (`kind = "rigid3d"`). The
//! rule itself is `phlex_core::geometry::inertia`.
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `example` with `from` replaced by `to`, written to a temporary file; runs `phlex check`
/// on it and returns (exit code, stderr).
fn check_edited(example: &str, tag: &str, from: &str, to: &str) -> (Option<i32>, String) {
    let text = std::fs::read_to_string(root().join(example)).unwrap();
    assert!(text.contains(from), "{example}: `{from}` not found");
    let path =
        std::env::temp_dir().join(format!("phlex-inertia-{}-{tag}.toml", std::process::id()));
    std::fs::write(&path, text.replace(from, to)).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_phlex"))
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn assert_rejected(code: Option<i32>, err: &str, needles: &[&str]) {
    assert_eq!(code, Some(2), "{err}");
    for n in needles {
        assert!(err.contains(n), "`{err}` lacks `{n}`");
    }
}

/// The spinning top with a sign error in J1: invertible and symmetric (the old EPHS check
/// passed it), but not positive semidefinite.
#[test]
fn ephs_rigid_body_with_negative_moment_is_rejected() {
    let (code, err) = check_edited(
        "examples/ephs/spinning_top.toml",
        "ephs-negative",
        "inertia = [0.004, 0.004, 0.002]",
        "inertia = [-0.004, 0.004, 0.002]",
    );
    println!("{}", err.trim());
    assert_rejected(
        code,
        &err,
        &[
            "component `top`",
            "inertia",
            "positive semidefinite",
            "-0.004",
        ],
    );
}

/// The same tensor in a `[bodies]` file: the same condition, naming the body and the key
/// with its line.
#[test]
fn bodies_rigid3d_with_negative_moment_is_rejected() {
    let (code, err) = check_edited(
        "examples/mbs/heavy_top.toml",
        "bodies-negative",
        "inertia = [0.004, 0.004, 0.006]",
        "inertia = [-0.004, 0.004, 0.002]",
    );
    println!("{}", err.trim());
    assert_rejected(
        code,
        &err,
        &[
            ".toml:22:",
            "bodies.top.inertia",
            "positive semidefinite",
            "-0.004",
        ],
    );
}

/// Positive moments that violate the triangle inequality J1 + J2 >= J3, in both formats.
#[test]
fn triangle_inequality_is_enforced_in_both_formats() {
    let (code, err) = check_edited(
        "examples/ephs/spinning_top.toml",
        "ephs-triangle",
        "inertia = [0.004, 0.004, 0.002]",
        "inertia = [0.001, 0.001, 0.004]",
    );
    assert_rejected(
        code,
        &err,
        &["component `top`", "inertia", "triangle inequality"],
    );
    let (code, err) = check_edited(
        "examples/mbs/heavy_top.toml",
        "bodies-triangle",
        "inertia = [0.004, 0.004, 0.006]",
        "inertia = [0.001, 0.001, 0.004]",
    );
    assert_rejected(code, &err, &["bodies.top.inertia", "triangle inequality"]);
}

/// The shipped tensors (including the flat-plate equality J1 + J2 = J3 of the free rigid
/// body, `[1, 2, 3]`) stay admissible.
#[test]
fn shipped_examples_pass() {
    for example in [
        "examples/ephs/spinning_top.toml",
        "examples/ephs/free_rigid_body.toml",
        "examples/mbs/heavy_top.toml",
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_phlex"))
            .arg("check")
            .arg(root().join(example))
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{example}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
