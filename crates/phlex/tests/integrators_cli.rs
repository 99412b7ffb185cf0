//! Every integrator on every family of models from the command line (issue 13, "Must
//! show"): one test per pair (integrator × {beam, plate, planar mechanism, spatial
//! mechanism}). Each test writes a small model file (a shipped example with its
//! `[simulation]` replaced: few steps, and without `[output]` and `[modes]`), runs
//! `phlex run` and checks the discrete energy balance of `summary.json`:
//! `energy_balance_residual` $= H(t_{end}) - H(0) - W + D$ against a tolerance per
//! integrator ([`Tolerance`]); a pair that does not apply (Störmer–Verlet on a nonlinear,
//! constrained or multi-block model) must fail with exit code 2 and a message naming the
//! key `simulation.integrator` and the integrator.
//!
//! All the models are free vibrations without inputs or dissipation (`W = D = 0`), so the
//! balance is the conservation of $H$.
mod common;

use std::path::PathBuf;

use common::{examples, num, phlex, run, summary, write_model};
use serde_json::Value;

/// A model of the table: a shipped example, the span and step of the test runs.
struct Model {
    /// Short name (temporary directories).
    name: &'static str,
    /// The example under `examples/`.
    example: &'static str,
    /// Final time \[s\].
    t_end: f64,
    /// Step \[s\] of the implicit fixed-step integrators.
    dt: f64,
    /// Step \[s\] of Störmer–Verlet: within its stability limit $h\,\omega_{max} < 2$
    /// ($\omega_{max}$ the largest eigenfrequency, `phlex modes`), with
    /// $h\,\omega_{max} \le 0.4$.
    sv_dt: f64,
}

/// Euler–Bernoulli beam, 16 HerDG1 elements, first-mode free vibration (50 steps;
/// Störmer–Verlet 2500 steps: ω_max = 1.83e4 rad/s, h ω_max = 0.37).
const BEAM: Model = Model {
    name: "beam",
    example: "beam_simply_supported.toml",
    t_end: 0.05,
    dt: 1e-3,
    sv_dt: 2e-5,
};

/// Kirchhoff plate (Bell elements, 6 × 4 mesh), simply supported, free vibration
/// (10 steps; Störmer–Verlet 400 steps: ω_max = 5.36e4 rad/s, h ω_max = 0.27).
const PLATE: Model = Model {
    name: "plate",
    example: "plate_bell_ssss.toml",
    t_end: 2e-3,
    dt: 2e-4,
    sv_dt: 5e-6,
};

/// Planar pendulum (rigid body on a revolute joint, index-2 constraint), 100 steps.
const PLANAR: Model = Model {
    name: "planar",
    example: "mbs/pendulum.toml",
    t_end: 0.1,
    dt: 1e-3,
    sv_dt: 1e-3,
};

/// Spatial heavy top (rigid body on a spherical joint, SO(3) poses), 40 steps.
const SPATIAL: Model = Model {
    name: "spatial",
    example: "mbs/heavy_top.toml",
    t_end: 0.02,
    dt: 5e-4,
    sv_dt: 5e-4,
};

/// How closely the balance must close, relative to the energy scale of the run (the
/// largest of $|H(0)|$, $|H(t_{end})|$, $W$, $D$ and, for mechanisms, the summary's
/// `energy_scale`: kinetic + deformation + |potential|).
#[derive(Debug, Clone, Copy)]
enum Tolerance {
    /// Midpoint, discrete gradient and Gauss collocation close the discrete balance
    /// exactly for a quadratic H (the beam, the plate, the heavy top's kinetic energy and
    /// linear potential; the discrete gradient for any H): what is left is the Newton
    /// tolerance of each step (newton_rtol ≤ 1e-10 relative) summed over ≤ 100 steps plus
    /// round-off, ≤ 1e-8 of the energy scale.
    Exact,
    /// The midpoint rule on a non-quadratic H (the pendulum's potential $m g l \sin\theta$):
    /// its balance misses the third-order Taylor term $\tfrac1{24} H'''[\Delta x]^3$ of each
    /// step, $\approx m g l\,(\omega h)^3 / 24 \approx 4\cdot 10^{-10}$ J at
    /// $\omega \le 1$ rad/s, $h$ = 1 ms; 100 steps give 4e-8 J of an energy scale of 1 J:
    /// bound 1e-7.
    ThirdOrder,
    /// Radau IIA with rtol = 1e-8, atol = 1e-10: the error of H is the local error
    /// accumulated over the run, a small multiple of rtol for these short non-stiff spans
    /// (stiff plate modes are damped by the L-stable method, which moves H by the same
    /// order); 1e-6 leaves a factor 100 over rtol.
    Radau,
    /// Störmer–Verlet: H is not conserved, but a modified energy is; the relative error of
    /// the energy in a mode of frequency ω stays below $(h\omega)^2/8$, at most
    /// $(h\,\omega_{max})^2/8 \le 0.4^2/8 = 2\cdot 10^{-2}$ with the steps `sv_dt`.
    SecondOrder,
}

impl Tolerance {
    fn relative(self) -> f64 {
        match self {
            Self::Exact => 1e-8,
            Self::ThirdOrder => 1e-7,
            Self::Radau => 1e-6,
            Self::SecondOrder => 2e-2,
        }
    }
}

/// The `[simulation]` section of `integrator` for `m`.
fn simulation(m: &Model, integrator: &str) -> String {
    let mut s = format!(
        "[simulation]\nintegrator = \"{integrator}\"\nt_end = {:e}\n",
        m.t_end
    );
    match integrator {
        "radau5" => s.push_str("rtol = 1e-8\natol = 1e-10\n"),
        "gauss" => s.push_str(&format!("dt = {:e}\nstages = 2\n", m.dt)),
        "stormer_verlet" => s.push_str(&format!("dt = {:e}\n", m.sv_dt)),
        _ => s.push_str(&format!("dt = {:e}\n", m.dt)),
    }
    s
}

/// The example of `m` without its `[simulation]`, `[output]` and `[modes]` tables, with
/// the `[simulation]` of `integrator` appended: written into a fresh temporary directory.
fn model_file(m: &Model, integrator: &str) -> (PathBuf, PathBuf) {
    let text = std::fs::read_to_string(examples(m.example)).unwrap();
    let mut kept = String::new();
    let mut skip = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with('[') {
            let name = t.trim_start_matches('[');
            skip = ["simulation]", "output]", "output.", "modes]"]
                .iter()
                .any(|s| name.starts_with(s));
        }
        if !skip {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    kept.push_str(&simulation(m, integrator));
    // meshes given relative to the example stay where they are
    let dir = examples(m.example).parent().unwrap().display().to_string();
    let kept = kept.replace("mesh = \"", &format!("mesh = \"{dir}/"));
    write_model(
        "phlex-integrators",
        &format!("{}-{integrator}", m.name),
        &kept,
    )
}

/// Runs `integrator` on `m` and checks the energy balance of `summary.json` against `tol`.
fn balance(m: &Model, integrator: &str, tol: Tolerance) -> Value {
    let (dir, model) = model_file(m, integrator);
    let out = dir.join("out");
    let o = run(&model, &out);
    assert!(
        o.status.success(),
        "{} with {integrator}: {}",
        m.name,
        String::from_utf8_lossy(&o.stderr)
    );
    let s = summary(&out);
    assert!(
        s["integrator"].as_str().unwrap().starts_with(integrator),
        "{s}"
    );
    let (h0, h1) = (num(&s, "h_initial"), num(&s, "h_final"));
    let (w, d) = (num(&s, "energy_supplied"), num(&s, "energy_dissipated"));
    let r = num(&s, "energy_balance_residual");
    let scale = [h0, h1, w, d, s["energy_scale"].as_f64().unwrap_or(0.0)]
        .iter()
        .fold(f64::MIN_POSITIVE, |a, v| a.max(v.abs()));
    println!(
        "{} {integrator}: H {h0:.12e} -> {h1:.12e}, W {w:.3e}, D {d:.3e}, residual {r:.3e} ({:.3e} of {scale:.3e})",
        m.name,
        r.abs() / scale
    );
    // the reported residual is the balance of the reported energies
    assert!(
        (r - (h1 - h0 - w + d)).abs() <= 1e-12 * scale,
        "{}: residual {r} is not H1 - H0 - W + D",
        m.name
    );
    assert!(
        r.abs() <= tol.relative() * scale,
        "{} with {integrator}: |energy_balance_residual| = {:.3e} J exceeds {tol:?} ({:.1e} of the energy scale {scale:.3e} J)",
        m.name,
        r.abs(),
        tol.relative()
    );
    let _ = std::fs::remove_dir_all(&dir);
    s
}

/// `integrator` does not apply to `m`: exit code 2, the message names the key and the
/// integrator, nothing is written.
fn not_applicable(m: &Model, integrator: &str) {
    let (dir, model) = model_file(m, integrator);
    let out = dir.join("out");
    let o = run(&model, &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{} with {integrator}: {err}",
        m.name
    );
    assert!(
        err.contains("simulation.integrator") && err.contains(&format!("\"{integrator}\"")),
        "{} with {integrator}: the message must name the key and the integrator: {err}",
        m.name
    );
    assert!(!out.join("summary.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// One test per pair (integrator × model), one line each: the table of the must-show.
#[rustfmt::skip]
mod pairs {
    use super::*;

    #[test] fn beam_midpoint() { balance(&BEAM, "midpoint", Tolerance::Exact); }
    #[test] fn beam_discrete_gradient() { balance(&BEAM, "discrete_gradient", Tolerance::Exact); }
    #[test] fn beam_gauss() { balance(&BEAM, "gauss", Tolerance::Exact); }
    #[test] fn beam_radau5() { balance(&BEAM, "radau5", Tolerance::Radau); }
    #[test] fn beam_stormer_verlet() { balance(&BEAM, "stormer_verlet", Tolerance::SecondOrder); }
    #[test] fn plate_midpoint() { balance(&PLATE, "midpoint", Tolerance::Exact); }
    #[test] fn plate_discrete_gradient() { balance(&PLATE, "discrete_gradient", Tolerance::Exact); }
    #[test] fn plate_gauss() { balance(&PLATE, "gauss", Tolerance::Exact); }
    #[test] fn plate_radau5() { balance(&PLATE, "radau5", Tolerance::Radau); }
    #[test] fn plate_stormer_verlet() { balance(&PLATE, "stormer_verlet", Tolerance::SecondOrder); }
    #[test] fn planar_midpoint() { balance(&PLANAR, "midpoint", Tolerance::ThirdOrder); }
    #[test] fn planar_discrete_gradient() { balance(&PLANAR, "discrete_gradient", Tolerance::Exact); }
    #[test] fn planar_gauss() { balance(&PLANAR, "gauss", Tolerance::Exact); }
    #[test] fn planar_radau5() { balance(&PLANAR, "radau5", Tolerance::Radau); }
    /// Störmer–Verlet needs a linear lossless two-field system; a constrained nonlinear
    /// mechanism is not one.
    #[test] fn planar_stormer_verlet_is_not_applicable() { not_applicable(&PLANAR, "stormer_verlet"); }
    #[test] fn spatial_midpoint() { balance(&SPATIAL, "midpoint", Tolerance::Exact); }
    #[test] fn spatial_discrete_gradient() { balance(&SPATIAL, "discrete_gradient", Tolerance::Exact); }
    #[test] fn spatial_gauss() { balance(&SPATIAL, "gauss", Tolerance::Exact); }
    #[test] fn spatial_radau5() { balance(&SPATIAL, "radau5", Tolerance::Radau); }
    /// Störmer–Verlet on a spatial mechanism (nonlinear, constrained): not applicable.
    #[test] fn spatial_stormer_verlet_is_not_applicable() { not_applicable(&SPATIAL, "stormer_verlet"); }
}

/// `phlex check` of `text` (written as `<name>.toml`) fails with exit code 2 and a message
/// holding every one of `needles`.
fn check_fails(name: &str, text: &str, needles: &[&str]) {
    let (dir, model) = write_model("phlex-integrators", name, text);
    let o = phlex()
        .args(["check", model.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{name}: {err}");
    for n in needles {
        assert!(err.contains(n), "{name}: expected `{n}` in: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Model-file errors of `[simulation]`, each as (case, example, edits `(from, to)` of the
/// example's text, what the message must hold): the former spellings of the keys (issue 13
/// item 6: one vocabulary, no silent aliases) name the key to write instead, for every kind
/// that had them; a key that does not apply to the chosen integrator names the integrator
/// it applies to, the same for every kind.
type ErrorCase = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static [&'static str],
);

#[rustfmt::skip]
const SIMULATION_ERRORS: &[ErrorCase] = &[
    ("beam-every", "beam_simply_supported.toml", &[("output_every = 2\n", ""), ("[output]\n", "[output]\nevery = 2\n")], &["output.every", "simulation.output_every"]),
    ("mbs-samples", "mbs/double_pendulum.toml", &[("output_samples = 400\n", ""), ("[output]\n", "[output]\nsamples = 400\n")], &["output.samples", "simulation.output_samples"]),
    ("mbs-scheme", "mbs/pendulum.toml", &[("integrator = \"discrete_gradient\"", "integrator = \"midpoint\"\nscheme = \"discrete_gradient\"")], &["simulation.scheme", "integrator = \"discrete_gradient\""]),
    ("ephs-h", "ephs/oscillator.toml", &[("dt = 0.001", "h = 0.001")], &["simulation.h", "simulation.dt"]),
    ("ephs-output-step", "ephs/oscillator.toml", &[("output_every = 100", "output_step = 0.1")], &["simulation.output_step", "simulation.output_every"]),
    ("shallow-water-newton-tol", "continuum/shallow_water_tank.toml", &[("dt = 5e-3\n", "dt = 5e-3\nnewton_tol = 1e-12\n")], &["simulation.newton_tol", "simulation.newton_rtol"]),
    ("plate-stages", "plate_bell_ssss.toml", &[("dt = 2e-4\n", "dt = 2e-4\nstages = 2\n")], &["simulation.stages", "\"gauss\""]),
    ("beam-rtol", "beam_simply_supported.toml", &[("dt = 1.0e-3", "dt = 1.0e-3\nrtol = 1e-8")], &["simulation.rtol", "\"radau5\""]),
    ("mbs-output-every-radau", "mbs/double_pendulum.toml", &[("output_samples = 400", "output_every = 4")], &["simulation.output_every", "output_samples"]),
    ("spatial-projection-radau", "mbs/heavy_top.toml", &[("integrator = \"midpoint\"", "integrator = \"radau5\"\nprojection = true"), ("dt = 5e-4\n", ""), ("output_every = 10\n", ""), ("newton_rtol = 1e-14\nnewton_atol = 1e-14\n", "")], &["simulation.projection", "\"radau5\""]),
    ("shallow-water-gauss", "continuum/shallow_water_tank.toml", &[("integrator = \"discrete_gradient\"", "integrator = \"gauss\"")], &["simulation.integrator = \"gauss\"", "shallow water"]),
];

/// Every case of [`SIMULATION_ERRORS`] fails `phlex check` with exit code 2 and the
/// expected message.
#[test]
fn simulation_errors_name_the_key() {
    for (name, path, edits, needles) in SIMULATION_ERRORS {
        let text = edits.iter().fold(
            std::fs::read_to_string(examples(path)).unwrap(),
            |t, (from, to)| {
                assert!(t.contains(from), "{path} has no `{from}`");
                t.replace(from, to)
            },
        );
        check_fails(name, &text, needles);
    }
}
