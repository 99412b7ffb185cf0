//! `[simulation] projection = true` for multibody model files: the double pendulum of
//! `examples/mbs/double_pendulum.toml` with the midpoint scheme (dt = 1 ms, 3 s), with and
//! without projection. With it the joint drift stays at round-off (< 1e-12 m) and the
//! summary reports the drift each step produced before its projection and the energy
//! jumps; without it the drift is the scheme's O(h²) drift (> 1e-9 m here). The summary
//! lists the drift of each joint. Projection
//! with Radau is a model error (exit code 2) naming the key.
mod common;

use std::path::{Path, PathBuf};

use common::{phlex, summary};

fn tmpdir(name: &str) -> PathBuf {
    common::created_dir("phlex-proj-cli", name)
}

/// The example with its `[simulation]` table replaced.
fn model(dir: &Path, simulation: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/mbs/double_pendulum.toml");
    let text = std::fs::read_to_string(src).unwrap();
    let start = text.find("[simulation]").unwrap();
    let end = start + text[start..].find("\n[output]").unwrap();
    let new = format!("{}{}\n{}", &text[..start], simulation, &text[end..]);
    let p = dir.join("model.toml");
    std::fs::write(&p, new).unwrap();
    p
}

#[test]
fn projection_key_in_model_files() {
    let mut drifts = Vec::new();
    for (name, proj) in [("plain", ""), ("projected", "projection = true\n")] {
        let d = tmpdir(name);
        let m = model(
            &d,
            &format!("[simulation]\nintegrator = \"midpoint\"\nt_end = 3.0\ndt = 1e-3\n{proj}"),
        );
        let out = d.join("out");
        let o = common::run(&m, &out);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let s = summary(&out);
        let drift = s["max_constraint_drift"].as_f64().unwrap();
        println!(
            "{name}: drift {drift:.3e}, summary projection {}",
            s["projection"]
        );
        drifts.push(drift);
        // per-joint drift: both joints listed, the worst equals the global maximum
        let jd = s["joint_drift"].as_object().unwrap();
        assert_eq!(jd.len(), 2);
        let worst = jd
            .values()
            .map(|v| v.as_f64().unwrap())
            .fold(0.0f64, f64::max);
        assert_eq!(worst, drift);
        if proj.is_empty() {
            assert!(s.get("projection").is_none());
            assert!(String::from_utf8_lossy(&o.stdout).contains("off"));
        } else {
            let p = &s["projection"];
            assert!(p["corrected_steps"].as_u64().unwrap() > 0);
            assert!(p["max_drift_before"].as_f64().unwrap() > 0.0);
            assert!(p["max_energy_jump"].as_f64().unwrap() > 0.0);
            assert!(s["integrator"].as_str().unwrap().contains("projection"));
        }
    }
    assert!(drifts[0] > 1e-9, "{drifts:?}");
    assert!(drifts[1] < 1e-12, "{drifts:?}");
    // Radau + projection: model error naming the key
    let d = tmpdir("radau");
    let m = model(
        &d,
        "[simulation]\nintegrator = \"radau5\"\nt_end = 0.1\nprojection = true\n",
    );
    let o = phlex().arg("check").arg(&m).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("simulation.projection"));
}
