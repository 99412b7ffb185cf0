//! End-to-end tests of `[forces.NAME]` force elements in planar and spatial multibody
//! model files (issue 14 item 1; format in docs/model-format-mbs.md, "Force elements"):
//! the damped oscillator against its closed form, the energy account
//! H(t) − H(0) = W(t) − D(t) with each element's share, the spatial elastic pendulum's
//! conserved energy and length state, and bad input rejected with exit code 2, the key and
//! its line, nothing written.
mod common;

use std::path::PathBuf;

use common::{column, csv, example, model_error, num, run_summary, write_model};

fn tmpdir(name: &str) -> PathBuf {
    common::tmpdir("phlex-forces-cli", name)
}

/// `examples/mbs/damped_oscillator.toml`: x(t) = 1 + a e^{-ζωt}(cos ω_d t + ζ/√(1−ζ²)
/// sin ω_d t) with a = 0.2 m, ω = 2π rad/s, ζ = 0.05.
fn oscillator_exact(t: f64) -> (f64, f64) {
    let (a, w, z): (f64, f64, f64) = (0.2, 2.0 * std::f64::consts::PI, 0.05);
    let wd = w * (1.0 - z * z).sqrt();
    let e = (-z * w * t).exp();
    let s = z / (1.0 - z * z).sqrt();
    let x = 1.0 + a * e * ((wd * t).cos() + s * (wd * t).sin());
    // ẋ = −a e^{-ζωt} (ω²/ω_d) sin ω_d t
    let v = -a * e * (w * w / wd) * (wd * t).sin();
    (x, v)
}

/// The block follows the closed form to 2e-5 m over 5 s (midpoint phase error
/// (ωh)²/12 · ωt ≈ 1e-4 rad at h = 5e-4 s, times the 0.2 m amplitude: 2e-5 m, here
/// smaller because the amplitude decays); the spring's length column is the block's x
/// and its tension k(ℓ − L0) + dℓ̇.
#[test]
fn damped_oscillator_matches_closed_form() {
    let out = tmpdir("oscillator");
    let s = run_summary(&example("damped_oscillator.toml"), &out);
    let (names, rows) = csv(&out);
    let (t, x) = (column(&names, &rows, "t"), column(&names, &rows, "block.x"));
    let len = column(&names, &rows, "spring.length");
    let tension = column(&names, &rows, "spring.tension");
    let (k, d) = (
        4.0 * std::f64::consts::PI.powi(2),
        0.2 * std::f64::consts::PI,
    );
    let mut worst = 0.0f64;
    for i in 0..t.len() {
        let (xe, ve) = oscillator_exact(t[i]);
        worst = worst.max((x[i] - xe).abs());
        assert!((len[i] - x[i]).abs() < 1e-12, "length state = distance");
        let want = k * (xe - 1.0) + d * ve;
        assert!(
            (tension[i] - want).abs() < 1e-3,
            "tension {} vs {want}",
            tension[i]
        );
    }
    assert!(worst < 2e-5, "max |x - x_exact| = {worst:e} m");
    assert!((t[t.len() - 1] - 5.0).abs() < 1e-12);
    let _ = s;
}

/// Energy account: H(end) − H(0) = W − D to the Newton tolerance (W = 0), D equals the
/// closed-form loss H0 − H(T) to 1e-4 relative (the closed form's own error at h = 5e-4
/// s), and the spring's sampled share (trapezoidal, 5 ms samples: error ~(ω Δt)²/12 ≈
/// 8e-5 relative) matches the exact total.
#[test]
fn damped_oscillator_energy_account() {
    let out = tmpdir("oscillator-energy");
    let s = run_summary(&example("damped_oscillator.toml"), &out);
    let (h0, h1) = (num(&s, "h_initial"), num(&s, "h_final"));
    let (w, dis) = (num(&s, "energy_supplied"), num(&s, "energy_dissipated"));
    let k = 4.0 * std::f64::consts::PI.powi(2);
    assert!((h0 - 0.5 * k * 0.04).abs() < 1e-12 * h0, "H0 = {h0}");
    assert_eq!(w, 0.0);
    assert!(
        (h1 - h0 + dis).abs() < 1e-10 * h0,
        "balance {:e}",
        h1 - h0 + dis
    );
    assert!(num(&s, "energy_balance_residual").abs() < 1e-10 * h0);
    let (xe, ve) = oscillator_exact(5.0);
    let h_exact = 0.5 * ve * ve + 0.5 * k * (xe - 1.0).powi(2);
    assert!(
        ((h0 - h_exact) - dis).abs() < 1e-4 * dis,
        "D = {dis} vs exact {}",
        h0 - h_exact
    );
    let share = &s["force_elements"]["spring"];
    assert!((num(share, "energy_initial") - h0).abs() < 1e-12 * h0);
    assert!(((num(share, "dissipated") - dis) / dis).abs() < 2e-4);
    // The CSV carries the account: H − H0 − W + D stays at round-off in every sample.
    let (names, rows) = csv(&out);
    let (h, wc, dc) = (
        column(&names, &rows, "H"),
        column(&names, &rows, "work_in"),
        column(&names, &rows, "dissipated"),
    );
    let v = column(&names, &rows, "force_elements");
    for i in 0..h.len() {
        assert!((h[i] - h0 - wc[i] + dc[i]).abs() < 1e-10 * h0);
    }
    assert!((v[0] - h0).abs() < 1e-12 * h0, "all of H0 is in the spring");
    for f in ["energy.svg", "energy_balance.svg", "force_efforts.svg"] {
        assert!(out.join(f).exists(), "{f}");
    }
}

/// `examples/mbs/torsional_oscillator.toml`: the disc angle and the element's angle state
/// follow φ(t) = (ω0/ω_d) e^{-ζωt} sin ω_d t (ω = 5 rad/s, ζ = 0.05, ω0 = 1 rad/s): the
/// midpoint phase error (ωh)²/12 · ωt is at most 1.3e-5 rad at h = 5e-4 s over 5 s, times
/// the decaying amplitude 0.2 rad: 2.6e-6 rad (measured 7.7e-7, asserted 5e-6); the torque
/// column is
/// −(kφ + dφ̇) of the exact motion to 1e-5 N m, and the balance holds to 1e-10 H0.
#[test]
fn torsional_oscillator_matches_closed_form() {
    let out = tmpdir("torsion");
    let s = run_summary(&example("torsional_oscillator.toml"), &out);
    let (names, rows) = csv(&out);
    let t = column(&names, &rows, "t");
    let theta = column(&names, &rows, "disc.theta");
    let phi = column(&names, &rows, "torsion.angle");
    let torque = column(&names, &rows, "torsion.torque");
    let (j, k, d, w0): (f64, f64, f64, f64) = (0.02, 0.5, 0.01, 1.0);
    let w = (k / j).sqrt();
    let zeta = d / (2.0 * w * j);
    let wd = w * (1.0 - zeta * zeta).sqrt();
    let mut worst = 0.0f64;
    for i in 0..t.len() {
        let e = (-zeta * w * t[i]).exp();
        let exact = w0 / wd * e * (wd * t[i]).sin();
        let rate = w0 / wd * e * (wd * (wd * t[i]).cos() - zeta * w * (wd * t[i]).sin());
        worst = worst.max((phi[i] - exact).abs());
        assert!(
            (phi[i] - theta[i]).abs() < 1e-12,
            "angle state = disc angle"
        );
        assert!(
            (torque[i] - (k * exact + d * rate)).abs() < 1e-5,
            "torque at {}",
            t[i]
        );
    }
    assert!(worst < 5e-6, "max |φ − exact| = {worst:e} rad");
    let h0 = num(&s, "h_initial");
    assert!((h0 - 0.5 * j * w0 * w0).abs() < 1e-14);
    assert!((num(&s, "h_final") - h0 + num(&s, "energy_dissipated")).abs() < 1e-10 * h0);
}

/// The spatial elastic pendulum conserves H to 1e-10 relative with the midpoint rule; the
/// length state stays the distance of the bob to the hook up to the scheme's O(h²) error
/// (the midpoint rule integrates ℓ̇ = nᵀv, which is not a quadratic invariant; measured
/// 5.2e-7 m at h = 1 ms over 5 s, asserted at 2e-6 m).
#[test]
fn elastic_pendulum_3d_conserves_energy() {
    let out = tmpdir("elastic-3d");
    let s = run_summary(&example("elastic_pendulum_3d.toml"), &out);
    let h0 = num(&s, "h_initial");
    assert!((num(&s, "h_final") - h0).abs() < 1e-10 * h0.abs().max(1.0));
    assert_eq!(num(&s, "energy_dissipated"), 0.0);
    let (names, rows) = csv(&out);
    let len = column(&names, &rows, "spring.length");
    let (x, y, z) = (
        column(&names, &rows, "bob.x"),
        column(&names, &rows, "bob.y"),
        column(&names, &rows, "bob.z"),
    );
    let mut swing = 0.0f64;
    for i in 0..len.len() {
        let dist = (x[i].powi(2) + y[i].powi(2) + (z[i] - 1.0).powi(2)).sqrt();
        assert!(
            (len[i] - dist).abs() < 2e-6,
            "sample {i}: {} vs {dist}",
            len[i]
        );
        swing = swing.max(y[i].abs());
    }
    assert!(swing > 0.1, "the bob swings sideways ({swing} m)");
}

/// Rotational elements in a spatial model need an axis, and take no rest length.
#[test]
fn bad_spatial_rotational_elements_are_model_errors() {
    let text = std::fs::read_to_string(example("elastic_pendulum_3d.toml")).unwrap();
    let with_length = text.replace(
        "kind = \"spring_damper\"",
        "kind = \"rotational_spring_damper\"",
    );
    let rot = with_length.replace("rest_length = 0.5", "");
    assert_ne!(rot, with_length);
    for (k, (model, needle)) in [
        (rot.clone(), "needs `axis = [x, y, z]`"),
        (
            rot.replace(
                "stiffness = 100.0",
                "axis = [0.0, 0.0, 0.0]\nstiffness = 100.0",
            ),
            "forces.spring.axis = [0.0, 0.0, 0.0] must be finite and non-zero",
        ),
        (
            with_length.replace(
                "stiffness = 100.0",
                "axis = [0.0, 0.0, 1.0]\nstiffness = 100.0",
            ),
            "forces.spring.rest_length does not apply to a rotational spring-damper",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let (dir, path) = write_model("phlex-forces-cli", &format!("bad3d-{k}"), &model);
        model_error(&["run"], &path, &dir.join("out"), needle);
    }
}

const OSCILLATOR: &str = r#"
[model]
name = "bad force"

[bodies.block]
kind = "rigid"
mass = 1.0
inertia = 0.01
pose = { x = 1.2 }

[forces.spring]
kind = "spring_damper"
a = "block.P"
b = "ground.origin"
stiffness = 10.0

[simulation]
integrator = "midpoint"
t_end = 0.1
dt = 1e-2
"#;

/// Bad force elements: exit 2, the element, the key and its line, nothing written.
#[test]
fn bad_force_elements_are_model_errors() {
    let cases = [
        ("stiffness = 10.0", "stiffness = -1.0", "forces.spring.stiffness = -1 must be finite and >= 0 [N/m]", 15),
        ("stiffness = 10.0", "stiffness = 10.0\ndamping = -0.5", "forces.spring.damping = -0.5", 16),
        ("stiffness = 10.0", "stiffness = 10.0\nrest_length = -1.0", "forces.spring.rest_length", 16),
        ("b = \"ground.origin\"", "b = \"wheel.P\"", "force element 'spring': unknown body 'wheel'", 11),
        ("b = \"ground.origin\"", "b = \"block.hub\"", "no port 'hub'", 11),
        ("b = \"ground.origin\"", "b = \"ground.anchor\"", "anchor", 11),
        ("a = \"block.P\"", "a = \"ground\"", "forces.spring.a = 'ground' must have the form \"body.port\"", 13),
        ("a = \"block.P\"", "a = \"block\"", "forces.spring.a = 'block'", 13),
        ("stiffness = 10.0", "stiffness = 10.0\nspring_rate = 3.0", "unknown field `spring_rate`", 16),
        ("kind = \"spring_damper\"", "kind = \"bungee\"", "unknown variant `bungee`", 12),
        ("b = \"ground.origin\"", "b = \"block.P\"", "points coincide", 11),
        ("stiffness = 10.0", "stiffness = 10.0\nrest_angle = 0.1", "forces.spring.rest_angle does not apply to a translational spring-damper", 16),
        ("kind = \"spring_damper\"", "kind = \"rotational_spring_damper\"\naxis = [0.0, 0.0, 1.0]", "forces.spring.axis: planar rotational elements turn about z", 13),
        (
            "kind = \"spring_damper\"\na = \"block.P\"\nb = \"ground.origin\"\nstiffness = 10.0",
            "kind = \"rotational_spring_damper\"\na = \"block.P\"\nb = \"ground.origin\"\nstiffness = -10.0",
            "forces.spring.stiffness = -10 must be finite and >= 0 [N m/rad]",
            15,
        ),
    ];
    for (k, (from, to, needle, line)) in cases.iter().enumerate() {
        let text = OSCILLATOR.replace(from, to);
        assert_ne!(text, OSCILLATOR, "case {k}");
        let (dir, model) = write_model("phlex-forces-cli", &format!("bad-{k}"), &text);
        let out = dir.join("out");
        let err = model_error(&["run"], &model, &out, needle);
        assert!(
            err.contains(&format!(":{line}:")) || err.contains(&format!("line {line}")),
            "case {k}: expected line {line} in: {err}"
        );
    }
}
