//! Criterion benchmarks of the beam pipeline (issue 2 §7): a simply supported
//! Euler–Bernoulli beam (HerDG1, thesis 004 §6.1.4.1, strong boundary conditions) with
//! $\rho = 5600$ kg/m³, $A = 50\cdot10^{-6}$ m², $E = 136$ GPa, $I = 4.16\cdot10^{-12}$ m⁴,
//! $L = 1$ m at $10^2$, $10^3$, $10^4$ and $10^5$ elements.
//!
//! Benchmarks (ids `group/elements[/steps]`):
//!
//! * `assembly/n`: `EulerBernoulli::build()` (mesh, spaces, mass and coupling matrices,
//!   boundary conditions, port matrix).
//! * `midpoint_setup/n`: `LinearMidpoint::new` = pattern of $E - \frac h2 (J - R)$, symbolic
//!   analysis, numeric factorization (with its singularity probe solve), forked spare LU.
//! * `lu_symbolic/n`, `lu_numeric/n`: the two parts of that factorization alone, on the
//!   same matrix (`SparseLu::new` on the pattern; `SparseLu::factorize` on the values).
//! * `midpoint_step/n`: time **per step** of `LinearMidpoint::run` over
//!   [`MIDPOINT_STEPS`] steps with a prebuilt (factorized) integrator; the per-run overhead
//!   (state vectors, energy ledger, initial Hamiltonian) is amortized over those steps.
//! * `radau5_run/n/k`: one `Radau5::integrate` of exactly `k` accepted steps of size
//!   $h = 2^{-10}$ s ($h_0 = h_{max} = h$, $t_{end} = k h$), for `k` in [`RADAU_STEPS`]; the
//!   cost of one step is the difference quotient between the two runs, which cancels the
//!   per-run setup (pattern, symbolic analyses, first factorizations).
//!
//! Before timing, one untimed pass per size prints a `COUNTERS` line with deterministic
//! work counts (state size, nnz of $E$, $J$ and the midpoint matrix, solver counters of both
//! integrators) so that the per-step figures can be checked: the Radau runs must have
//! `steps = k` and no rejected steps. `nnzJ_tiny` counts stored entries of $J$ below
//! $10^{-12}\max|J|$ (round-off remnants of entries that vanish exactly), `nnzE_tiny` the
//! entries of $E$ with $|E_{ij}| \le 10^{-12}\sqrt{E_{ii}E_{jj}}$, and
//! `nnzS_without_tiny` the midpoint pattern without them.
//!
//! **Repeat mode** (for hardware counters, which unlike wall time do not depend on other
//! processes sharing the machine): with `PHLEX_BENCH_REPEAT=<id>:<reps>`, where `<id>` is
//! one of the benchmark ids above (e.g. `lu_numeric/10000`, `radau5_run/1000/18`), the
//! binary prepares the inputs, runs the operation `<reps>` times outside criterion and
//! exits; `perf stat -e instructions` with `reps` and `0` gives the instructions per
//! operation as the difference quotient.
#![allow(non_snake_case)]

use std::f64::consts::PI;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode};
use phlex_core::sparse::{self, Triplets};
use phlex_core::LinearPhSystem;
use phlex_fem::models::beam::euler_bernoulli::EulerBernoulli;
use phlex_fem::{EndCondition, Field, PfemModel};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::linsolve::{PatternSum, SparseLu};
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::radau5::OutputTimes;
use phlex_solve::{InputFn, PhDae, Radau5, Radau5Params, SolverStats};

/// Mass density ρ [kg/m³].
const RHO: f64 = 5600.0;
/// Cross-section area A [m²].
const AREA: f64 = 50e-6;
/// Young's modulus E [Pa].
const YOUNG: f64 = 136e9;
/// Second moment of area I [m⁴].
const INERTIA: f64 = 4.16e-12;
/// Beam length L [m].
const LENGTH: f64 = 1.0;
/// Element counts.
const SIZES: [usize; 4] = [100, 1_000, 10_000, 100_000];
/// Time step of both integrators, $2^{-10} \approx 0.98$ ms (first bending period
/// $2\pi/\omega_1 \approx 0.45$ s). A power of two keeps $t_0 + kh$ exact, so the last Radau5
/// step has exactly the same $h$ and needs no extra factorization.
const H: f64 = 1.0 / 1024.0;
/// Steps per timed midpoint run.
const MIDPOINT_STEPS: usize = 50;
/// Step counts of the two timed Radau5 runs.
const RADAU_STEPS: [usize; 2] = [2, 18];

fn beam(n_elements: usize) -> EulerBernoulli {
    EulerBernoulli::new(RHO * AREA, YOUNG * INERTIA, LENGTH, n_elements)
        .ends(EndCondition::SimplySupported, EndCondition::SimplySupported)
}

fn build(n_elements: usize) -> PfemModel {
    beam(n_elements).build().expect("beam model")
}

/// Initial state: first bending mode in velocity, $\dot w(x, 0) = \sin(\pi x/L)$ m/s,
/// zero moment (smooth, so Radau5 keeps the fixed step without rejections).
fn initial_state(model: &PfemModel) -> Vec<f64> {
    model
        .project(Field::Velocity, &|x| (PI * x / LENGTH).sin())
        .expect("projection of the initial velocity")
}

fn midpoint_params(steps: usize) -> MidpointParams {
    MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end: steps as f64 * H,
            h: H,
            output_every: steps,
        },
        ..Default::default()
    }
}

fn radau_params() -> Radau5Params {
    Radau5Params {
        h0: Some(H),
        h_max: H,
        ..Radau5Params::with_tolerances(1e-6, 1e-6)
    }
}

fn midpoint(sys: &LinearPhSystem, steps: usize) -> LinearMidpoint<'_> {
    LinearMidpoint::new(sys, InputFn::zeros(sys.n_inputs()), midpoint_params(steps))
        .expect("midpoint integrator")
}

fn radau_run(sys: &LinearPhSystem, e0: &[f64], steps: usize) -> SolverStats {
    let dae = PhDae::new(sys, InputFn::zeros(sys.n_inputs())).expect("DAE");
    let solver = Radau5::new(radau_params()).expect("Radau5 parameters");
    let sol = solver
        .integrate(
            &dae,
            0.0,
            e0,
            steps as f64 * H,
            OutputTimes::None,
            &mut |_t: f64, _y: &[f64]| {},
        )
        .expect("Radau5 run");
    black_box(&sol.y);
    sol.stats
}

/// The midpoint matrix $S = E - \frac h2 (J - R)$ and its union pattern.
fn midpoint_matrix(sys: &LinearPhSystem) -> (PatternSum, faer::sparse::SparseColMat<usize, f64>) {
    let A = sys.j_minus_r();
    let pattern = PatternSum::new(&[&sys.E, &A]).expect("pattern");
    let S = pattern
        .assemble(&[1.0, -0.5 * H], &[&sys.E, &A])
        .expect("midpoint matrix");
    (pattern, S)
}

fn fmt_stats(s: &SolverStats) -> String {
    format!(
        "steps={} rejected={} newton={} rhs={} jac={} fact={} solves={}",
        s.steps,
        s.rejected_steps,
        s.newton_iterations,
        s.rhs_evaluations,
        s.jacobian_evaluations,
        s.factorizations,
        s.linear_solves
    )
}

/// Untimed pass: deterministic work counts per size (one line each).
fn print_counters() {
    for &n in &SIZES {
        let model = build(n);
        let sys = model.system();
        let e0 = initial_state(&model);
        let (pattern, _) = midpoint_matrix(sys);
        let mut mp = midpoint(sys, MIDPOINT_STEPS);
        let res = mp.run(&e0, &mut |_t: f64, _e: &[f64]| {}).expect("run");
        // Stored entries of J below 1e-12 max|J|: round-off remnants of entries that vanish
        // in exact arithmetic (they make nnz(J) depend on the mesh size through rounding).
        let jmax = sys.J.val().iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let tiny = sys
            .J
            .val()
            .iter()
            .filter(|v| v.abs() <= 1e-12 * jmax)
            .count();
        // Stored entries of E with |E_ij| <= 1e-12 sqrt(E_ii E_jj) (scale-invariant test).
        let diag: Vec<f64> = (0..sys.n_states())
            .map(|j| {
                sparse::col_iter(&sys.E, j)
                    .find(|&(i, _)| i == j)
                    .map_or(0.0, |(_, v)| v)
            })
            .collect();
        let e_tiny: usize = (0..sys.n_states())
            .map(|j| {
                sparse::col_iter(&sys.E, j)
                    .filter(|&(i, v)| v.abs() <= 1e-12 * (diag[i] * diag[j]).abs().sqrt())
                    .count()
            })
            .sum();
        let nnz_s_clean = {
            let mut t = Triplets::new(sys.n_states(), sys.n_states());
            for j in 0..sys.J.ncols() {
                for (i, v) in sparse::col_iter(&sys.J, j) {
                    if v.abs() > 1e-12 * jmax {
                        t.push(i, j, v);
                    }
                }
            }
            let Jc = t.build();
            PatternSum::new(&[&sys.E, &Jc]).expect("pattern").nnz()
        };
        let mut line = format!(
            "COUNTERS elements={n} states={} inputs={} nnzE={} nnzE_tiny={e_tiny} nnzJ={} nnzJ_tiny={tiny} nnzS={} \
             nnzS_without_tiny={nnz_s_clean} \
             midpoint[{}]",
            sys.n_states(),
            sys.n_inputs(),
            sys.E.compute_nnz(),
            sys.J.compute_nnz(),
            pattern.nnz(),
            fmt_stats(&res.stats),
        );
        for k in RADAU_STEPS {
            let s = radau_run(sys, &e0, k);
            line.push_str(&format!(" radau{k}[{}]", fmt_stats(&s)));
            if s.steps != k || s.rejected_steps != 0 {
                line.push_str(" WARNING: not the requested fixed-step run");
            }
        }
        println!("{line}");
    }
}

/// Sample size, measurement time and sampling mode per size (2 shared cores).
fn configure(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    n: usize,
) {
    let (samples, secs) = match n {
        0..=1_000 => (30, 3),
        1_001..=10_000 => (15, 4),
        _ => (10, 8),
    };
    group.sample_size(samples);
    group.measurement_time(Duration::from_secs(secs));
    group.warm_up_time(Duration::from_secs(1));
    group.sampling_mode(if n >= 10_000 {
        SamplingMode::Flat
    } else {
        SamplingMode::Auto
    });
}

fn bench_assembly(c: &mut Criterion) {
    let mut g = c.benchmark_group("assembly");
    for &n in &SIZES {
        configure(&mut g, n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| black_box(beam(n).build().expect("beam model")))
        });
    }
    g.finish();
}

fn bench_factorization(c: &mut Criterion) {
    let models: Vec<PfemModel> = SIZES.iter().map(|&n| build(n)).collect();
    let mut g = c.benchmark_group("midpoint_setup");
    for (&n, model) in SIZES.iter().zip(&models) {
        configure(&mut g, n);
        let sys = model.system();
        g.bench_with_input(BenchmarkId::from_parameter(n), sys, |b, sys| {
            b.iter(|| black_box(midpoint(sys, MIDPOINT_STEPS)))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("lu_symbolic");
    for (&n, model) in SIZES.iter().zip(&models) {
        configure(&mut g, n);
        let (pattern, _) = midpoint_matrix(model.system());
        g.bench_with_input(BenchmarkId::from_parameter(n), &pattern, |b, p| {
            b.iter(|| black_box(SparseLu::<f64>::new("S", p.symbolic()).expect("symbolic")))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("lu_numeric");
    for (&n, model) in SIZES.iter().zip(&models) {
        configure(&mut g, n);
        let (pattern, S) = midpoint_matrix(model.system());
        let mut lu = SparseLu::<f64>::new("S", pattern.symbolic()).expect("symbolic");
        g.bench_with_input(BenchmarkId::from_parameter(n), &S, |b, S| {
            b.iter(|| lu.factorize(S.as_ref()).expect("numeric"))
        });
    }
    g.finish();
}

fn bench_midpoint_step(c: &mut Criterion) {
    let mut g = c.benchmark_group("midpoint_step");
    for &n in &SIZES {
        configure(&mut g, n);
        let model = build(n);
        let sys = model.system();
        let e0 = initial_state(&model);
        let mut mp = midpoint(sys, MIDPOINT_STEPS);
        g.bench_with_input(BenchmarkId::from_parameter(n), &e0, |b, e0| {
            // Criterion sees the time per step: each run of MIDPOINT_STEPS steps is divided
            // by the step count.
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    let r = mp.run(e0, &mut |_t: f64, _e: &[f64]| {}).expect("run");
                    black_box(&r.state);
                }
                start.elapsed() / MIDPOINT_STEPS as u32
            })
        });
    }
    g.finish();
}

fn bench_radau5(c: &mut Criterion) {
    let mut g = c.benchmark_group("radau5_run");
    for &n in &SIZES {
        configure(&mut g, n);
        let model = build(n);
        let sys = model.system();
        let e0 = initial_state(&model);
        for k in RADAU_STEPS {
            g.bench_with_input(BenchmarkId::new(n.to_string(), k), &e0, |b, e0| {
                b.iter(|| radau_run(sys, e0, k))
            });
        }
    }
    g.finish();
}

fn counters(_c: &mut Criterion) {
    print_counters();
}

criterion_group!(
    benches,
    counters,
    bench_assembly,
    bench_factorization,
    bench_midpoint_step,
    bench_radau5
);
/// Repeat mode: runs the benchmark `id` `reps` times (see the module docs).
fn repeat(spec: &str) {
    let usage = "PHLEX_BENCH_REPEAT must be <group>/<elements>[/<steps>]:<reps>";
    let (id, reps) = spec.rsplit_once(':').expect(usage);
    let reps: usize = reps.parse().expect(usage);
    let parts: Vec<&str> = id.split('/').collect();
    let n: usize = parts.get(1).and_then(|v| v.parse().ok()).expect(usage);
    let model = build(n);
    let sys = model.system();
    let e0 = initial_state(&model);
    match parts[0] {
        "assembly" => (0..reps).for_each(|_| {
            black_box(beam(n).build().expect("beam model"));
        }),
        "midpoint_setup" => (0..reps).for_each(|_| {
            black_box(midpoint(sys, MIDPOINT_STEPS));
        }),
        "lu_symbolic" => {
            let (pattern, _) = midpoint_matrix(sys);
            (0..reps).for_each(|_| {
                black_box(SparseLu::<f64>::new("S", pattern.symbolic()).expect("symbolic"));
            })
        }
        "lu_numeric" => {
            let (pattern, S) = midpoint_matrix(sys);
            let mut lu = SparseLu::<f64>::new("S", pattern.symbolic()).expect("symbolic");
            (0..reps).for_each(|_| lu.factorize(S.as_ref()).expect("numeric"))
        }
        "midpoint_step" => {
            // One repetition = one run of MIDPOINT_STEPS steps.
            let mut mp = midpoint(sys, MIDPOINT_STEPS);
            (0..reps).for_each(|_| {
                let r = mp.run(&e0, &mut |_t: f64, _e: &[f64]| {}).expect("run");
                black_box(&r.state);
            })
        }
        "radau5_run" => {
            let k: usize = parts.get(2).and_then(|v| v.parse().ok()).expect(usage);
            (0..reps).for_each(|_| {
                black_box(radau_run(sys, &e0, k));
            })
        }
        other => panic!("unknown benchmark group '{other}'; {usage}"),
    }
}

fn main() {
    if let Ok(spec) = std::env::var("PHLEX_BENCH_REPEAT") {
        repeat(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
