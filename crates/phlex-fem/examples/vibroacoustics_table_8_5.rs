//! Thesis 004 Table 8.5: wall time of the DAE (wall multiplier, eq. (8.36)) and ODE
//! (virtual domain decomposition + gyrator, eq. (8.41)) methods for the axisymmetric duct
//! of Table 8.4, h = R/4 … R/10, with errors against a fine-mesh DAE reference.
//!
//! Time integration: implicit midpoint rule ([`LinearMidpoint`], one sparse LU per phase,
//! then one solve per step) with the same fixed step Δt for every mesh and both methods,
//! on [0, t_s] (impedance off) and [t_s, t_end] (on). The step is matched to the accuracy:
//! the run also repeats h = R/10 with Δt/4 and prints the temporal error, which must stay
//! well below the spatial errors. (The thesis used RK45 for the ODE and IDA for the DAE,
//! in Python with dense matrices.)
//!
//! Usage: `cargo run -p phlex-fem --release --example vibroacoustics_table_8_5 -- [n_ref] [dt]`
//! (defaults: reference h = R/40, Δt = 2.5·10⁻⁵ s). Writes `target/table_8_5.md`.
use phlex_fem::models::continuum::wave_decomposition::{
    DuctParams, StateErrors, VibroDae, VibroOde, VibroacousticDuct,
};
use std::error::Error;
use std::fmt::Write as _;
use std::time::Instant;

#[path = "../tests/common/switched_duct.rs"]
mod switched_duct;
use switched_duct::{hamiltonian_error, run_switched, space_time_errors, SwitchedRun as Run};

const EVERY: usize = 20;

/// The switched run of `m` with step `dt`, sampled every `EVERY` steps.
fn simulate(m: &dyn VibroacousticDuct, dt: f64) -> Result<Run, Box<dyn Error>> {
    run_switched(m, dt, EVERY)
}

/// (ε_H, space–time ε_p, ε_v) of `r` (model `m`) against the reference.
fn errors(
    reference: &dyn VibroacousticDuct,
    r_ref: &Run,
    m: &dyn VibroacousticDuct,
    r: &Run,
) -> Result<(f64, StateErrors), Box<dyn Error>> {
    Ok((
        hamiltonian_error(&r_ref.hamiltonian, &r.hamiltonian),
        space_time_errors(reference, r_ref, m, r)?,
    ))
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let n_ref: usize = args.get(1).map(|s| s.parse()).transpose()?.unwrap_or(40);
    let dt: f64 = args
        .get(2)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(2.5e-5);
    let p = DuctParams::table_8_4();
    let thesis = [
        (4, 98.95, 124.43),
        (5, 415.99, 255.54),
        (6, 798.24, 893.63),
        (7, 1408.76, 1120.69),
        (8, 3054.78, 2271.28),
        (9, 6929.24, 5792.89),
        (10, 12648.15, 8835.09),
    ];
    let t0 = Instant::now();
    let reference = VibroDae::new(&p, n_ref)?;
    let r_ref = simulate(&reference, dt)?;
    eprintln!(
        "reference DAE h = R/{n_ref}: {} states, {:.2} s (assembly {:.2} s), H(t_end) = {:.4} J",
        reference.n_states(),
        r_ref.seconds,
        t0.elapsed().as_secs_f64() - r_ref.seconds,
        r_ref.hamiltonian.last().unwrap_or(&f64::NAN)
    );
    let mut md = String::new();
    writeln!(
        md,
        "Thesis 004 Table 8.5 (axisymmetric duct, Table 8.4 data, t_end = {} s): wall time of the \
         time integration (implicit midpoint, Δt = {dt:e} s, {} steps, one sparse LU per phase) \
         and relative errors against a DAE reference at h = R/{n_ref} ({} states) with the same \
         Δt: ε_H in L²(0, t_end), ε_p and ε_v in L²(0, t_end; L²_r) (samples every {EVERY} \
         steps). Thesis times: Python/FEniCS, IDA (DAE) and RK45 (ODE).\n",
        p.t_end,
        (p.t_end / dt).round(),
        reference.n_states()
    )?;
    writeln!(
        md,
        "| h | DAE states | ODE states | DAE wall [s] | ODE wall [s] | DAE ε_H | DAE ε_p | DAE ε_v | ODE ε_H | ODE ε_p | ODE ε_v | thesis DAE [s] | thesis ODE [s] |"
    )?;
    writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")?;
    let mut finest = None;
    for (n, th_dae, th_ode) in thesis {
        let dae = VibroDae::new(&p, n)?;
        let ode = VibroOde::new(&p, n)?;
        let rd = simulate(&dae, dt)?;
        let ro = simulate(&ode, dt)?;
        let (hd, sd) = errors(&reference, &r_ref, &dae, &rd)?;
        let (ho, so) = errors(&reference, &r_ref, &ode, &ro)?;
        let row = format!(
            "| R/{n} | {} | {} | {:.3} | {:.3} | {hd:.2e} | {:.2e} | {:.2e} | {ho:.2e} | {:.2e} | {:.2e} | {th_dae} | {th_ode} |",
            dae.n_states(),
            ode.n_states(),
            rd.seconds,
            ro.seconds,
            sd.pressure,
            sd.velocity,
            so.pressure,
            so.velocity
        );
        eprintln!("{row}");
        writeln!(md, "{row}")?;
        if n == 10 {
            finest = Some((dae, ode, rd, ro));
        }
    }
    // temporal error at the finest mesh: Δt against Δt/4 (sampled at the same times)
    if let Some((dae, ode, rd, ro)) = finest {
        let fine = |m: &dyn VibroacousticDuct| -> Result<Run, Box<dyn Error>> {
            let mut r = simulate(m, dt / 4.0)?;
            // keep every 4th sample so both grids coincide
            r.samples = r.samples.into_iter().step_by(4).collect();
            r.hamiltonian = r.hamiltonian.into_iter().step_by(4).collect();
            Ok(r)
        };
        let (fd, fo) = (fine(&dae)?, fine(&ode)?);
        let (hd, sd) = errors(&dae, &fd, &dae, &rd)?;
        let (ho, so) = errors(&ode, &fo, &ode, &ro)?;
        let line = format!(
            "\nTemporal error at h = R/10 (Δt against Δt/4): DAE ε_H {hd:.1e}, ε_p {:.1e}, ε_v {:.1e}; ODE ε_H {ho:.1e}, ε_p {:.1e}, ε_v {:.1e}.",
            sd.pressure, sd.velocity, so.pressure, so.velocity
        );
        eprintln!("{line}");
        writeln!(md, "{line}")?;
    }
    print!("{md}");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target");
    std::fs::create_dir_all(&dir)?;
    let tmp = dir.join("table_8_5.md.tmp");
    std::fs::write(&tmp, &md)?;
    std::fs::rename(&tmp, dir.join("table_8_5.md"))?;
    eprintln!("wrote {}", dir.join("table_8_5.md").display());
    Ok(())
}
