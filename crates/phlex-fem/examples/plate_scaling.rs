//! Single-shot scaling table of the 2D PFEM pipeline on the clamped Mindlin plate, CGDG
//! $k = 1$ (thesis 004 eq. (7.20)–(7.21); issue 4 §5), from about $10^3$ to $10^6$ states,
//! plus the 40 × 40 clamped-plate eigenproblem of thesis App. C (summary §5.2).
//!
//! For each `n × n` unit-square mesh ($N \approx 13n^2$ states) it prints: assembly time
//! ([`MindlinCgDg::build`]) with all threads and with one thread, symbolic analysis of the
//! implicit-midpoint matrix $S = E - \frac h2 J$ (once per pattern, including the
//! symmetric diagonal scaling `descriptor_diagonal_scaling`), numeric
//! factorization (once per step size), and the time of one midpoint step reusing the
//! factorization (mean over 10 steps), then the log-log slopes of each column against
//! $N$ (least squares over $N \ge 10^4$).
//!
//! ```text
//! cargo run -p phlex-fem --release --example plate_scaling [-- --max-n 277] [-- --no-eigen]
//! ```
#![allow(non_snake_case)]

use phlex_core::sparse;
use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::plate::{MindlinCgDg, MindlinParams};
use phlex_solve::eigen::{modes, EigenMethod, EigenParams};
use phlex_solve::linsolve::{descriptor_diagonal_scaling, scale_in_place, PatternSum, SparseLu};
use std::time::Instant;

/// Time step \[s\] (App. C material: lowest ω ≈ 1.9e4 rad/s).
const DT: f64 = 1e-5;
/// Mesh sizes: N ≈ 13 n² from 8.3e2 to 1.0e6.
const SIZES: [usize; 8] = [8, 16, 32, 64, 96, 128, 192, 277];

fn params() -> MindlinParams {
    MindlinParams::thesis_app_c()
}

/// Least-squares slope of log y against log x.
fn slope(x: &[f64], y: &[f64]) -> f64 {
    let lx: Vec<f64> = x.iter().map(|v| v.ln()).collect();
    let ly: Vec<f64> = y.iter().map(|v| v.ln()).collect();
    let n = lx.len() as f64;
    let (mx, my) = (lx.iter().sum::<f64>() / n, ly.iter().sum::<f64>() / n);
    let sxy: f64 = lx.iter().zip(&ly).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = lx.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let max_n = args
        .iter()
        .position(|a| a == "--max-n")
        .and_then(|i| args.get(i + 1))
        .map(|s| s.parse::<usize>())
        .transpose()?
        .unwrap_or(usize::MAX);
    let eigen = !args.iter().any(|a| a == "--no-eigen");
    let threads = rayon::current_num_threads();
    let serial = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    println!("Mindlin CGDG k = 1, clamped unit square, implicit midpoint dt = {DT:e} s");
    println!("rayon threads: {threads}");
    println!(
        "| n | states N | nnz(S) | assembly [s] | assembly 1 thread [s] | symbolic [s] | factorize [s] | step [s] |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut cols: Vec<[f64; 6]> = Vec::new();
    for n in SIZES.into_iter().filter(|&n| n <= max_n) {
        let mesh = Mesh2d::unit_square(n, Diagonal::Right)?;
        let b = MindlinCgDg::new(params(), &mesh, 1)?.clamp_all();
        let t = Instant::now();
        let model = b.build()?;
        let t_asm = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let _ = serial.install(|| b.build())?;
        let t_asm1 = t.elapsed().as_secs_f64();
        let sys = model.system();
        let N = sys.n_states();
        let t = Instant::now();
        let pattern = PatternSum::new(&[&sys.E, &sys.J])?;
        let mut S = pattern.zeros::<f64>();
        pattern.fill(&[1.0, -0.5 * DT], &[&sys.E, &sys.J], &mut S)?;
        let d = descriptor_diagonal_scaling(&sys.E);
        scale_in_place(&mut S, &d, &d);
        let mut lu = SparseLu::new("midpoint", pattern.symbolic())?;
        let t_sym = t.elapsed().as_secs_f64();
        let t = Instant::now();
        lu.factorize(S.as_ref())?;
        let t_fac = t.elapsed().as_secs_f64();
        let mut e: Vec<f64> = (0..N).map(|i| ((i * 7919) % 113) as f64 / 113.0).collect();
        let mut ebar = vec![0.0; N];
        let steps = 10;
        let t = Instant::now();
        for _ in 0..steps {
            ebar.iter_mut().for_each(|v| *v = 0.0);
            sparse::mul_add(&mut ebar, 1.0, &sys.E, &e);
            ebar.iter_mut().zip(&d).for_each(|(v, s)| *v *= s);
            lu.solve_in_place(&mut ebar)?;
            ebar.iter_mut().zip(&d).for_each(|(v, s)| *v *= s);
            for (ei, &bi) in e.iter_mut().zip(&ebar) {
                *ei = 2.0 * bi - *ei;
            }
        }
        let t_step = t.elapsed().as_secs_f64() / steps as f64;
        let nnz = S.compute_nnz();
        println!(
            "| {n} | {N} | {nnz} | {t_asm:.4} | {t_asm1:.4} | {t_sym:.4} | {t_fac:.4} | {t_step:.5} |"
        );
        cols.push([N as f64, t_asm, t_asm1, t_sym, t_fac, t_step]);
    }
    let big: Vec<&[f64; 6]> = cols.iter().filter(|c| c[0] >= 1e4).collect();
    if big.len() >= 2 {
        let x: Vec<f64> = big.iter().map(|c| c[0]).collect();
        let names = [
            "assembly",
            "assembly (1 thread)",
            "symbolic",
            "factorize",
            "step",
        ];
        println!("\nlog-log slopes against N (N >= 1e4):");
        for (j, name) in names.iter().enumerate() {
            let y: Vec<f64> = big.iter().map(|c| c[j + 1]).collect();
            println!("  {name}: {:.2}", slope(&x, &y));
        }
    }
    if eigen {
        // thesis App. C: UnitSquareMesh(40, 40), CG1/DG0, strong clamping, 6 modes
        let p = params();
        let t = Instant::now();
        let mesh = Mesh2d::unit_square(40, Diagonal::Right)?;
        let model = MindlinCgDg::new(p, &mesh, 1)?.clamp_all().build()?;
        let t_build = t.elapsed().as_secs_f64();
        let scale = (2.0 * (1.0 + p.nu) * p.rho / p.E).sqrt();
        let t = Instant::now();
        let res = modes(
            model.system(),
            &EigenParams {
                n_modes: Some(6),
                method: EigenMethod::ShiftInvert,
                shift: Some(1.0 / scale),
                tol: 1e-6,
                max_krylov: Some(400),
                zero_tol: 1e-3,
                ..Default::default()
            },
        )?;
        let t_eig = t.elapsed().as_secs_f64();
        let w: Vec<String> = res
            .frequencies()
            .iter()
            .map(|w| format!("{:.3}", w * scale))
            .collect();
        println!(
            "\n40 x 40 clamped eigenproblem ({} states): build {t_build:.3} s, 6 modes {t_eig:.3} s; normalised frequencies {} (thesis 1.60, 3.06, 3.07, 4.31, 5.08, 5.13)",
            model.n_states(),
            w.join(", ")
        );
    }
    Ok(())
}
