//! Criterion benchmarks of the 2D PFEM pipeline on the clamped Mindlin plate, CGDG
//! $k = 1$ (thesis 004 eq. (7.20)–(7.21); issue 4 §5), against the number of states
//! $N \approx 13n^2$ on the `n × n` unit square:
//!
//! * `assembly/N`: [`MindlinCgDg::build`] (parallel element loops, BC restriction, block
//!   placement);
//! * `factorize/N`: numeric LU of the implicit-midpoint matrix $S = E - \frac h2 J$
//!   (symmetrically scaled by $\operatorname{diag}(E)^{-1/2}$, see `descriptor_diagonal_scaling`; the
//!   symbolic analysis is done once, outside the timing, as in
//!   `phlex_solve::midpoint::LinearMidpoint`);
//! * `step/N`: one implicit-midpoint step with the factorization reused: right-hand side
//!   $Ee_n$, one triangular solve pair, update $e_{n+1} = 2\bar e - e_n$.
//!
//! Sizes up to $n = 64$ ($N \approx 5\cdot10^4$) keep criterion's repeated sampling short;
//! the single-shot table up to $N \approx 10^6$ and the 40 × 40 eigenproblem are in
//! `examples/plate_scaling.rs`.
#![allow(non_snake_case)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode};
use phlex_core::sparse;
use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::plate::{MindlinCgDg, MindlinParams};
use phlex_solve::linsolve::{descriptor_diagonal_scaling, scale_in_place, PatternSum, SparseLu};

/// Cells per side.
const SIZES: [usize; 4] = [8, 16, 32, 64];
/// Time step \[s\] (thesis App. C material: lowest ω ≈ 1.9e4 rad/s).
const DT: f64 = 1e-5;

fn params() -> MindlinParams {
    MindlinParams::thesis_app_c()
}

fn builder(n: usize) -> MindlinCgDg {
    let mesh = Mesh2d::unit_square(n, Diagonal::Right).expect("mesh");
    MindlinCgDg::new(params(), &mesh, 1)
        .expect("plate")
        .clamp_all()
}

fn bench_scaling(c: &mut Criterion) {
    let mut ga = c.benchmark_group("assembly");
    ga.sampling_mode(SamplingMode::Flat);
    ga.sample_size(10);
    ga.measurement_time(Duration::from_secs(3));
    for n in SIZES {
        let b = builder(n);
        let N = b.build().expect("model").n_states();
        ga.bench_with_input(BenchmarkId::from_parameter(N), &b, |bn, b| {
            bn.iter(|| black_box(b.build().expect("model")))
        });
    }
    ga.finish();

    let mut gf = c.benchmark_group("factorize");
    gf.sampling_mode(SamplingMode::Flat);
    gf.sample_size(10);
    gf.measurement_time(Duration::from_secs(3));
    let mut gs_data = Vec::new();
    for n in SIZES {
        let model = builder(n).build().expect("model");
        let sys = model.system();
        let N = sys.n_states();
        let pattern = PatternSum::new(&[&sys.E, &sys.J]).expect("pattern");
        let mut S = pattern.zeros::<f64>();
        pattern
            .fill(&[1.0, -0.5 * DT], &[&sys.E, &sys.J], &mut S)
            .expect("fill");
        let d = descriptor_diagonal_scaling(&sys.E);
        scale_in_place(&mut S, &d, &d);
        let mut lu = SparseLu::new("midpoint", pattern.symbolic()).expect("symbolic");
        gf.bench_with_input(BenchmarkId::from_parameter(N), &S, |bn, S| {
            bn.iter(|| lu.factorize(S.as_ref()).expect("factorize"))
        });
        gs_data.push((N, sys.E.clone(), d, lu));
    }
    gf.finish();

    let mut gs = c.benchmark_group("step");
    gs.sampling_mode(SamplingMode::Flat);
    gs.sample_size(20);
    gs.measurement_time(Duration::from_secs(3));
    for (N, E, d, mut lu) in gs_data {
        let mut e: Vec<f64> = (0..N).map(|i| ((i * 7919) % 113) as f64 / 113.0).collect();
        let mut ebar = vec![0.0; N];
        gs.bench_function(BenchmarkId::from_parameter(N), |bn| {
            bn.iter(|| {
                ebar.iter_mut().for_each(|v| *v = 0.0);
                sparse::mul_add(&mut ebar, 1.0, &E, &e);
                ebar.iter_mut().zip(&d).for_each(|(v, s)| *v *= s);
                lu.solve_in_place(&mut ebar).expect("solve");
                ebar.iter_mut().zip(&d).for_each(|(v, s)| *v *= s);
                for (ei, &b) in e.iter_mut().zip(&ebar) {
                    *ei = 2.0 * b - *ei;
                }
                black_box(&e);
            })
        });
    }
    gs.finish();
}

criterion_group!(benches, bench_scaling);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
