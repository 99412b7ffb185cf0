//! Integrators at singular configurations (issue 14 item 7): the IFToMM benchmark A02,
//! the N-four-bar mechanism with N = 2 (`examples/benchmarks/a02_four_bar_n2.toml`),
//! passes a configuration with all links horizontal at t ≈ 0.714 s and then periodically;
//! there the seven revolute joints lose rank 2 and the reactions are not unique. The
//! implicit midpoint rule, Radau IIA (`radau5`) and Gauss collocation (`gauss`) must all
//! run through t = 2 s, agree on the crank angle and B0 position, and conserve the energy
//! (no damping, no inputs).
mod common;

use std::path::{Path, PathBuf};

use common::{column, csv, examples, fails, num, run_ok, summary};

/// The A02 N = 2 model file with its `[simulation]` table replaced by `simulation` (the
/// `[output]` table is kept), written to a fresh temporary directory: (dir, file).
fn a02_with(name: &str, simulation: &str) -> (PathBuf, PathBuf) {
    let text = std::fs::read_to_string(examples("benchmarks/a02_four_bar_n2.toml")).unwrap();
    let (head, rest) = text
        .split_once("[simulation]")
        .expect("a [simulation] table");
    let (_, output) = rest.split_once("[output]").expect("an [output] table");
    let model = format!("{head}[simulation]\n{simulation}\n[output]{output}");
    common::write_model("phlex-singular", name, &model)
}

/// Runs the A02 model with `simulation`; returns the final crank angle θ₀ (rad), the final
/// position of B0, the relative energy drift of `summary.json` and the run directory.
fn run_a02(name: &str, simulation: &str) -> (f64, [f64; 2], f64, PathBuf) {
    let (dir, file) = a02_with(name, simulation);
    let out = dir.join("out");
    run_ok(&file, &out);
    let s = summary(&out);
    let (names, rows) = csv(&out);
    let t = column(&names, &rows, "t");
    assert!(
        (t[t.len() - 1] - 2.0).abs() < 1e-12,
        "{name}: ends at {}",
        t[t.len() - 1]
    );
    let last = |c: &str| *column(&names, &rows, c).last().unwrap();
    (
        last("crank0.theta"),
        [last("B0.x"), last("B0.y")],
        num(&s, "energy_drift"),
        out,
    )
}

/// The number of times the cranks pass the horizontal (|sin θ₀| has a local minimum below
/// 0.05 on the output grid) in a run directory.
fn horizontal_passes(out: &Path) -> usize {
    let (names, rows) = csv(out);
    let s: Vec<f64> = column(&names, &rows, "crank0.theta")
        .iter()
        .map(|th| th.sin().abs())
        .collect();
    s.windows(3)
        .filter(|w| w[1] < 0.05 && w[1] <= w[0] && w[1] <= w[2])
        .count()
}

/// Midpoint, Radau IIA and Gauss collocation all pass the singular positions of A02 and
/// agree.
///
/// Reference: the midpoint rule is of order 2, so two runs with dt = 1 ms and 0.5 ms give
/// the Richardson value θ* = (4θ_{h/2} − θ_h)/3 with an error O(h⁴) far below the
/// tolerance; |θ_{h/2} − θ_h| (about 3/4 of the error of the coarse run) is asserted small
/// so that the extrapolation is in its asymptotic range. Tolerance 1e-4 rad on the crank
/// angle at t = 2 s (after several singular passes): Radau IIA at rtol = 1e-8 and 3-stage
/// Gauss (order 6 in the states, s + 1 = 4 with the index-2 constraints) at dt = 5 ms
/// are far more accurate than that away from the singular positions; the margin covers the
/// local loss of accuracy where the joint rows become dependent (the multipliers are
/// determined there only up to ker Gᵀ; it does not act on the states) and is still small
/// enough to tell a run that switched branches (a crossed four-bar turns the cranks the
/// other way) or slipped in phase. The positions of B0 are compared at the same
/// tolerance in metres (|B0| = 1 m, so the angle and the position errors are alike).
/// Energy: no damping and no inputs, so the relative drift of `summary.json` must be
/// below 1e-6.
#[test]
fn a02_midpoint_radau_gauss_pass_singular_positions_and_agree() {
    let (th1, b1, drift1, out1) = run_a02(
        "mid1",
        "integrator = \"midpoint\"\nt_end = 2.0\ndt = 1e-3\noutput_every = 5",
    );
    let (th2, b2, drift2, _) = run_a02(
        "mid2",
        "integrator = \"midpoint\"\nt_end = 2.0\ndt = 5e-4\noutput_every = 10",
    );
    assert!(
        horizontal_passes(&out1) >= 2,
        "the run passes the singular positions"
    );
    assert!(
        (th2 - th1).abs() < 1e-4,
        "midpoint dt = 1 ms vs 0.5 ms: {th1} vs {th2}"
    );
    let th_ref = (4.0 * th2 - th1) / 3.0;
    let b_ref = [(4.0 * b2[0] - b1[0]) / 3.0, (4.0 * b2[1] - b1[1]) / 3.0];
    for (what, drift) in [("midpoint 1 ms", drift1), ("midpoint 0.5 ms", drift2)] {
        assert!(drift < 1e-6, "{what}: energy drift {drift:e}");
    }
    let runs = [
        (
            "radau5",
            "integrator = \"radau5\"\nt_end = 2.0\nrtol = 1e-8\natol = 1e-10\noutput_samples = 400",
        ),
        (
            "gauss",
            "integrator = \"gauss\"\nt_end = 2.0\ndt = 5e-3\noutput_every = 1",
        ),
    ];
    for (name, sim) in runs {
        let (th, b, drift, out) = run_a02(name, sim);
        println!(
            "{name}: θ₀(2 s) = {th:.10} (reference {th_ref:.10}), B0 = ({:.10}, {:.10}), energy drift {drift:.3e}",
            b[0], b[1]
        );
        assert!(
            horizontal_passes(&out) >= 2,
            "{name} passes the singular positions"
        );
        assert!((th - th_ref).abs() < 1e-4, "{name}: θ₀ = {th} vs {th_ref}");
        for k in 0..2 {
            assert!(
                (b[k] - b_ref[k]).abs() < 1e-4,
                "{name}: B0 = {b:?} vs {b_ref:?}"
            );
        }
        assert!(drift < 1e-6, "{name}: energy drift {drift:e}");
    }
}

/// `max_steps` is a `[simulation]` key of Radau IIA: validated (> 0, the error names the
/// key and its line, exit 2, nothing written), and the step-limit failure names it.
#[test]
fn max_steps_is_a_validated_key_named_by_the_step_limit_error() {
    let (dir, file) = a02_with(
        "max-steps-zero",
        "integrator = \"radau5\"\nt_end = 2.0\nmax_steps = 0",
    );
    let out = dir.join("out");
    let err = common::model_error(&["run"], &file, &out, "simulation.max_steps");
    assert!(err.contains("max_steps >= 1"), "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("max_steps"))
        .unwrap();
    assert!(err.contains(&format!(":{line}:")), "line {line}: {err}");
    let (_, file) = a02_with(
        "max-steps-few",
        "integrator = \"radau5\"\nt_end = 2.0\nmax_steps = 5",
    );
    let (code, err) = fails(
        &["run", "-q", "-o", dir.join("few").to_str().unwrap()],
        &file,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("max_steps"), "{err}");
    assert!(err.contains("[simulation] max_steps"), "{err}");
}
