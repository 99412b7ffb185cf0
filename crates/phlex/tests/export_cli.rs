#![allow(non_snake_case)]
//! `phlex export` and `phlex modes --reduce` through the binary.
//!
//! * The exported Matrix Market files read back (Rust reader; SciPy too if it is installed —
//!   skipped silently otherwise) equal the matrices of the model **bit for bit** (written
//!   with 17 significant digits), and `system.json` lists the blocks and ports with their
//!   ranges.
//! * A multibody model needs `--linearize`; its export is the pHDAE (49) (J skew, R = 0
//!   at rest, neglected coupling 0 without gravity), and `--nullspace` adds T.mtx with
//!   orthonormal columns.
//! * `phlex modes --reduce`: modal truncation of the 20-element cantilever reproduces the
//!   first 6 frequencies (invariant subspace), Krylov reduction of the four-bar its first
//!   three (errors asserted below the measured values with margin).
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use phlex::matrix_market::read_mtx;
use phlex_core::sparse::{col_iter, SparseMat};

use common::{phlex, root};

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("phlex-export-cli", name)
}

fn ok(o: Output) -> String {
    assert!(
        o.status.success(),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn read(dir: &Path, name: &str) -> SparseMat {
    read_mtx(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

fn json(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("system.json")).unwrap()).unwrap()
}

/// Exact equality of two sparse matrices (entries compared bit for bit, zeros ignored).
fn same(a: &SparseMat, b: &SparseMat, what: &str) {
    assert_eq!(
        (a.nrows(), a.ncols()),
        (b.nrows(), b.ncols()),
        "{what}: shape"
    );
    for j in 0..a.ncols() {
        let x: Vec<_> = col_iter(a, j).filter(|(_, v)| *v != 0.0).collect();
        let y: Vec<_> = col_iter(b, j).filter(|(_, v)| *v != 0.0).collect();
        assert_eq!(x, y, "{what}: column {j}");
    }
}

/// Beam with multiplier supports: files equal the built system exactly; the JSON names
/// the blocks (the multipliers as algebraic, index 2) and the ports with their columns.
#[test]
fn beam_export_round_trip() {
    let model = root().join("examples/beam_multiplier_radau.toml");
    let dir = tmpdir("beam");
    let out = ok(phlex()
        .arg("export")
        .arg(&model)
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap());
    assert!(out.contains("system.json"));
    let (_, b) = phlex::kinds::beam::load(&model).unwrap();
    let sys = &b.system;
    same(&read(&dir, "E.mtx"), &sys.E, "E");
    same(&read(&dir, "J.mtx"), &sys.J, "J");
    same(&read(&dir, "R.mtx"), &sys.R, "R");
    same(&read(&dir, "B.mtx"), &sys.B, "B");
    let j = json(&dir);
    assert_eq!(j["n_states"].as_u64().unwrap() as usize, sys.n_states());
    assert_eq!(j["n_inputs"].as_u64().unwrap() as usize, sys.n_inputs());
    let blocks = j["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), sys.blocks.len());
    let off = sys.block_offsets();
    for (k, (bj, bs)) in blocks.iter().zip(&sys.blocks).enumerate() {
        assert_eq!(bj["name"], bs.name.as_str());
        assert_eq!(bj["range"][0].as_u64().unwrap() as usize, off[k]);
        assert_eq!(bj["range"][1].as_u64().unwrap() as usize, off[k + 1]);
    }
    assert!(blocks
        .iter()
        .any(|b| b["kind"] == "algebraic" && b["dae_index"] == 2));
    let ports = j["ports"].as_array().unwrap();
    let names: Vec<&str> = ports.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, sys.ports.names());
    // no temporary files left behind (atomic writes)
    for e in std::fs::read_dir(&dir).unwrap() {
        let n = e.unwrap().file_name().to_string_lossy().to_string();
        assert!(!n.starts_with('.'), "left-over temporary file {n}");
    }
    python_check(&dir, sys.n_states());
}

/// If SciPy is importable, read the files with `scipy.io.mmread` and check shapes and the
/// skew-symmetry of J; otherwise skip (Python is not a dependency of phlex).
fn python_check(dir: &Path, n: usize) {
    let probe = Command::new("python3")
        .args(["-c", "import scipy"])
        .output();
    if !matches!(probe, Ok(ref o) if o.status.success()) {
        return;
    }
    let script = format!(
        "import json, scipy.io as io, numpy as np\n\
         d = {:?}\n\
         meta = json.load(open(d + '/system.json'))\n\
         E = io.mmread(d + '/E.mtx').toarray(); J = io.mmread(d + '/J.mtx').toarray()\n\
         assert E.shape == ({n}, {n}) and meta['n_states'] == {n}\n\
         assert np.abs(J + J.T).max() <= 1e-12 * np.abs(J).max()\n\
         print('scipy ok')\n",
        dir.display().to_string()
    );
    let o = Command::new("python3")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "scipy check: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Multibody: `--linearize` required; the pHDAE (49) of the four-bar, then its null-space
/// ODE.
#[test]
fn four_bar_linearised_export() {
    let model = root().join("examples/mbs/four_bar_modes.toml");
    let dir = tmpdir("fourbar");
    let o = phlex()
        .arg("export")
        .arg(&model)
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--linearize"));
    ok(phlex()
        .arg("export")
        .arg(&model)
        .arg("--out")
        .arg(&dir)
        .arg("--linearize")
        .output()
        .unwrap());
    let j = json(&dir);
    let n = j["n_states"].as_u64().unwrap() as usize;
    assert!(j["linearization"]["neglected_coupling"].as_f64().unwrap() < 1e-12);
    let J = read(&dir, "J.mtx");
    let Jd = phlex_core::sparse::to_dense(&J);
    for a in 0..n {
        for c in 0..n {
            assert_eq!(Jd[(a, c)], -Jd[(c, a)]);
        }
    }
    assert_eq!(phlex_core::sparse::max_abs(&read(&dir, "R.mtx")), 0.0);
    // the multipliers are the algebraic blocks "<joint>.lambda"
    let lam: usize = j["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["kind"] == "algebraic")
        .map(|b| (b["range"][1].as_u64().unwrap() - b["range"][0].as_u64().unwrap()) as usize)
        .sum();
    assert_eq!(lam, 3 + 2 + 2 + 2, "weld (3) + three revolutes (2 each)");
    // null-space form
    let dir2 = tmpdir("fourbar-ns");
    ok(phlex()
        .arg("export")
        .arg(&model)
        .arg("--out")
        .arg(&dir2)
        .arg("--linearize")
        .arg("--nullspace")
        .output()
        .unwrap());
    let j2 = json(&dir2);
    let r = j2["nullspace"]["constraint_rank"].as_u64().unwrap() as usize;
    assert_eq!(r, 9);
    let T = phlex_core::sparse::to_dense(&read(&dir2, "T.mtx"));
    assert_eq!(T.nrows(), n - lam);
    assert_eq!(T.ncols(), n - lam - r);
    assert_eq!(j2["n_states"].as_u64().unwrap() as usize, n - lam - r);
    let TtT = T.transpose() * &T;
    for a in 0..T.ncols() {
        for c in 0..T.ncols() {
            let d = if a == c { 1.0 } else { 0.0 };
            assert!((TtT[(a, c)] - d).abs() < 1e-12);
        }
    }
}

fn reduced_rows(out: &str) -> Vec<(f64, f64, f64)> {
    out.lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.len() == 4 && w[0].parse::<usize>().is_ok() {
                Some((w[1].parse().ok()?, w[2].parse().ok()?, w[3].parse().ok()?))
            } else {
                None
            }
        })
        .collect()
}

/// Modal truncation of the cantilever (6 modes) and Krylov (4 moments about 0) of the
/// four-bar: table printed, JSON written, errors small.
#[test]
fn reduced_modes_tables() {
    let beam = root().join("examples/cantilever_tip_force.toml");
    let js = tmpdir("reduced").join("modes.json");
    let out = ok(phlex()
        .arg("modes")
        .arg(&beam)
        .args(["--reduce", "6", "-n", "6", "--json"])
        .arg(&js)
        .output()
        .unwrap());
    println!("{out}");
    let rows = reduced_rows(&out);
    assert_eq!(rows.len(), 6);
    // retained modes are exact up to the eigen-solver (measured ~1e-13)
    assert!(rows.iter().all(|r| r.2 < 1e-9), "{rows:?}");
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&js).unwrap()).unwrap();
    assert_eq!(j["states_reduced"], 12);
    let four = root().join("examples/mbs/four_bar_modes.toml");
    let out = ok(phlex()
        .arg("modes")
        .arg(&four)
        .args(["--reduce", "4", "--method", "krylov", "-n", "3"])
        .output()
        .unwrap());
    println!("{out}");
    let rows = reduced_rows(&out);
    assert_eq!(rows.len(), 3);
    // 16 elements per link, 4 moments per link: measured < 1e-7 (8 elements: 6e-9)
    assert!(rows.iter().all(|r| r.2 < 1e-6), "{rows:?}");
    // the first frequency is the one of `phlex modes` (paper §6.2, 292.543 rad/s)
    assert!((rows[0].0 - 292.543).abs() < 1e-3, "{rows:?}");
    let o = phlex()
        .arg("modes")
        .arg(&four)
        .args(["--reduce", "2", "--method", "nonsense"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("modal or krylov"));
}

/// An EPHS model has no linear export: model error naming the kind, exit code 2.
#[test]
fn ephs_model_is_refused() {
    let model = root().join("examples/ephs/damped_oscillator.toml");
    let o = phlex()
        .arg("export")
        .arg(&model)
        .arg("--out")
        .arg(tmpdir("ephs"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not applicable to ephs models"), "{err}");
}
