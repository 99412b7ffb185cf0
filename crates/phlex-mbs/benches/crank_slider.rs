//! Criterion benchmarks of the §6.3 crank–slider (paper 000; issue 3 §3), the
//! [`phlex_mbs::CrankSlider`] model integrated by the midpoint / discrete-gradient scheme
//! with modified Newton ([`CrankSlider::params`]).
//!
//! Benchmarks (ids `group/parameter`):
//!
//! * `revolution/linear`, `revolution/stiffened`: one crank revolution (2π/150 s) at the
//!   converged mesh and step (8 elements, h = 2^-16 s, 2745 steps), model construction
//!   included; and `paper_run/...`: the paper's final time 0.053 s (3474 steps), to put
//!   next to the IDA time of the paper (12.14 s, thesis Table 10.2); `paper_mesh/...`: the
//!   same with the paper's 2 elements.
//! * `step/n`: time **per step** with `n` = 2, 4, …, 256 coupler elements (stiffened),
//!   as the difference quotient of runs of [`STEPS_LONG`] and [`STEPS_SHORT`] steps of
//!   h = 2^-16 s, which cancels the set-up (model construction, ordering, first
//!   factorization).
//!
//! Before timing, one untimed pass per size prints a `COUNTERS` line (states, steps,
//! Newton iterations, Jacobians, factorizations) so that the per-step figures can be
//! related to the work done.
#![allow(non_snake_case)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode};
use phlex_mbs::{CrankSlider, CrankSliderRun};

/// Converged step 2^-16 s ≈ 1.53e-5 s (a power of two: exact grid, the modified-Newton
/// matrix is kept across steps) \[s\].
const H: f64 = 1.0 / 65536.0;
/// Converged mesh.
const ELEMENTS: usize = 8;
/// Coupler meshes of the per-step benchmark.
const SIZES: [usize; 8] = [2, 4, 8, 16, 32, 64, 128, 256];
/// Step counts of the two runs of the per-step benchmark.
const STEPS_SHORT: usize = 50;
const STEPS_LONG: usize = 250;

fn run(n: usize, stiff: bool, t_end: f64) -> CrankSliderRun {
    // observer stride larger than the run: only t0 and t_end are recorded
    CrankSlider::new(n, stiff)
        .run(CrankSlider::params(H, t_end, 1_000_000))
        .expect("crank–slider run")
}

fn bench_revolution(c: &mut Criterion) {
    let period = CrankSlider::default().period();
    let mut group = c.benchmark_group("revolution");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for stiff in [false, true] {
        let name = if stiff { "stiffened" } else { "linear" };
        let r = run(ELEMENTS, stiff, period);
        println!(
            "COUNTERS revolution/{name} states={} steps={} newton={} jacobians={} factorizations={}",
            CrankSlider::new(ELEMENTS, stiff).build().expect("model").n(),
            r.stats.steps,
            r.stats.newton_iterations,
            r.stats.jacobian_evaluations,
            r.stats.factorizations
        );
        group.bench_function(BenchmarkId::new("revolution", name), |b| {
            b.iter(|| black_box(run(ELEMENTS, stiff, period)))
        });
        group.bench_function(BenchmarkId::new("paper_run", name), |b| {
            b.iter(|| black_box(run(ELEMENTS, stiff, 0.053)))
        });
        group.bench_function(BenchmarkId::new("paper_mesh", name), |b| {
            b.iter(|| black_box(run(2, stiff, 0.053)))
        });
    }
    group.finish();
}

fn bench_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("step");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(4));
    for &n in &SIZES {
        let (ts, tl) = (STEPS_SHORT as f64 * H, STEPS_LONG as f64 * H);
        let r = run(n, true, tl);
        println!(
            "COUNTERS step/{n} states={} steps={} newton={} jacobians={} factorizations={}",
            CrankSlider::new(n, true).build().expect("model").n(),
            r.stats.steps,
            r.stats.newton_iterations,
            r.stats.jacobian_evaluations,
            r.stats.factorizations
        );
        // Per-step time: criterion times a closure that runs both and returns their
        // difference through `iter_custom`.
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let short = run(n, true, ts).seconds;
                    let long = run(n, true, tl).seconds;
                    let per_step = ((long - short) / (STEPS_LONG - STEPS_SHORT) as f64).max(0.0);
                    total += Duration::from_secs_f64(per_step);
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_revolution, bench_step);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
