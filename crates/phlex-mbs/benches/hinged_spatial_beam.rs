//! Criterion benchmarks of the hinged spatial beam of paper 000 §6.4
//! (`phlex_mbs::models::hinged_spatial_beam`, mm–g–s units, spherical joint of `Multibody3d`).
//!
//! Benchmarks (ids `group/param`):
//!
//! * `hinged_6_4/midpoint_h5ms`: the full 50 s run, 2 elements (the paper's mesh), midpoint
//!   rule with h = 5 ms and modified Newton (tolerance 1e-12) — the energy-exact setting of
//!   the fast test, whose invariants (energy between the loads, L_Z before the kick) hold
//!   at any step, but whose curves after the kick differ from the converged ones by 9 % of
//!   max K (phase of the elastic oscillations, see the full study test).
//! * `hinged_6_4/midpoint_h0.25ms`: the same with h = 0.25 ms (curves within 0.5 % of max K).
//! * `hinged_6_4/radau_1e-4`, `hinged_6_4/radau_1e-6`: Radau IIA, rtol = atol, restarted at
//!   the load switches (1e-6 is the paper's solver setting; within 5e-7 of the converged
//!   kinetic energy).
//! * `hinged_6_4/gauss_fast`: the fast configuration
//!   (`HingedSpatialBeam::fast_params`: Gauss collocation, 6 stages, order 12, h = 12.5 ms,
//!   simplified Newton with one factorization), at the accuracy of Radau IIA 1e-6 on ω_Z(t)
//!   and K(t) (tests `hinged_fast_configuration_*`).
//! * `midpoint_step/n_el`: time **per step** of 200 midpoint steps (h = 1 ms, t ∈ [0, 0.2] s,
//!   the spin-up under the torque) for 2 … 256 elements, including the first Jacobian and
//!   factorization (amortized over the 200 steps); Newton tolerance 1e-8 (above the
//!   round-off of the stresses of the finest meshes).
//!
//! Before timing, an untimed pass prints a `COUNTERS` line per configuration (states,
//! steps, rejected steps, Newton iterations, factorizations) so that the figures can be
//! checked.
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode};
use phlex_core::PhSystem;
use phlex_mbs::HingedSpatialBeam;

const ELEMENTS: [usize; 8] = [2, 4, 8, 16, 32, 64, 128, 256];
const STEP_H: f64 = 1e-3;
const STEP_COUNT: usize = 200;

fn midpoint_50s(h: f64) -> phlex_mbs::HingedRun {
    HingedSpatialBeam::default()
        .run(HingedSpatialBeam::params(h, 50.0, 100, 1e-12))
        .expect("§6.4 midpoint run")
}

fn radau_50s(tol: f64) -> phlex_mbs::HingedRun {
    HingedSpatialBeam::default()
        .run_radau(tol, 50.0, &[50.0])
        .expect("§6.4 Radau run")
}

fn gauss_fast_50s() -> phlex_mbs::HingedRun {
    HingedSpatialBeam::default()
        .run_gauss_with(HingedSpatialBeam::fast_params(50.0))
        .expect("§6.4 Gauss run")
}

fn steps(n_el: usize) -> Result<phlex_mbs::HingedRun, phlex_mbs::MbsError> {
    HingedSpatialBeam::new(n_el).run(HingedSpatialBeam::params(
        STEP_H,
        STEP_H * STEP_COUNT as f64,
        STEP_COUNT,
        1e-8,
    ))
}

fn counters() {
    for (id, run) in [
        ("midpoint_h5ms", midpoint_50s(5e-3)),
        ("midpoint_h0.25ms", midpoint_50s(2.5e-4)),
        ("radau_1e-4", radau_50s(1e-4)),
        ("radau_1e-6", radau_50s(1e-6)),
        ("gauss_fast", gauss_fast_50s()),
    ] {
        let s = run.stats;
        println!(
            "COUNTERS hinged_6_4/{id}: steps {} rejected {} newton {} factorizations {} wall {:.3} s",
            s.steps, s.rejected_steps, s.newton_iterations, s.factorizations, run.wall
        );
    }
    for n in ELEMENTS {
        let n_states = HingedSpatialBeam::new(n).build().expect("model").n_states();
        match steps(n) {
            Ok(run) => {
                let s = run.stats;
                println!(
                    "COUNTERS midpoint_step/{n}: states {n_states} steps {} newton {} factorizations {} wall/step {:.2} µs",
                    s.steps,
                    s.newton_iterations,
                    s.factorizations,
                    run.wall / s.steps as f64 * 1e6
                );
            }
            // reported, and the size is skipped in the timed group
            Err(e) => println!("COUNTERS midpoint_step/{n}: states {n_states} FAILED: {e}"),
        }
    }
}

fn bench_case(c: &mut Criterion) {
    let mut g = c.benchmark_group("hinged_6_4");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    g.bench_function("midpoint_h5ms", |b| {
        b.iter(|| black_box(midpoint_50s(5e-3)))
    });
    g.bench_function("midpoint_h0.25ms", |b| {
        b.iter(|| black_box(midpoint_50s(2.5e-4)))
    });
    g.bench_function("gauss_fast", |b| b.iter(|| black_box(gauss_fast_50s())));
    g.bench_function("radau_1e-4", |b| b.iter(|| black_box(radau_50s(1e-4))));
    g.measurement_time(Duration::from_secs(20));
    g.bench_function("radau_1e-6", |b| b.iter(|| black_box(radau_50s(1e-6))));
    g.finish();
}

fn bench_steps(c: &mut Criterion) {
    let mut g = c.benchmark_group("midpoint_step");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for n in ELEMENTS {
        if steps(n).is_err() {
            continue;
        }
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let run = steps(n).expect("checked above");
                    total += Duration::from_secs_f64(run.wall / run.stats.steps as f64);
                }
                total
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_case, bench_steps);

fn main() {
    counters();
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
