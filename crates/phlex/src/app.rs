//! The commands behind the `phlex` binary (also callable from Rust and tests).
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use crate::build::{build, Built};
use crate::model::{self, ModelError, ModelFile, SimulationSpec};
use crate::output::{svg_plot, write_atomic};
use crate::simulate::{simulate, summarize};

/// Exit code of an error: 2 for a bad model file, 1 for anything else.
pub fn exit_code(e: &anyhow::Error) -> u8 {
    if e.chain().any(|c| c.downcast_ref::<ModelError>().is_some()) {
        2
    } else {
        1
    }
}

fn read(path: &Path) -> Result<(String, String)> {
    let text = std::fs::read_to_string(path).map_err(|e| ModelError {
        file: path.display().to_string(),
        line: 0,
        message: format!("cannot read model file: {e}"),
    })?;
    Ok((path.display().to_string(), text))
}

/// Parses and builds a model file.
pub fn load(path: &Path) -> Result<(ModelFile, Built)> {
    let (file, text) = read(path)?;
    let m = model::parse(&file, &text)?;
    let b = build(&file, &text, &m)?;
    Ok((m, b))
}

/// `phlex check`: parse, validate, build and check the structure; writes nothing.
pub fn check(path: &Path) -> Result<()> {
    let (_, text) = read(path)?;
    if crate::ephs_run::is_ephs(&text) {
        return crate::ephs_run::check(path, &text);
    }
    if crate::mbs3d_run::is_mbs3d(&text) {
        return crate::mbs3d_run::check(path, &text);
    }
    if crate::mbs_run::is_mbs(&text) {
        return crate::mbs_run::check(path, &text);
    }
    if crate::plate_assembly_run::is_plate_assembly(&text) {
        return crate::plate_assembly_run::check(path, &text);
    }
    if crate::plate_run::is_plate(&text) {
        return crate::plate_run::check(path, &text);
    }
    if crate::thermoelastic_beam_run::is_thermoelastic_beam(&text) {
        return crate::thermoelastic_beam_run::check(path, &text);
    }
    if crate::thermal_rod_run::is_heat(&text) || crate::thermal_rod_run::is_thermoelastic_rod(&text)
    {
        return crate::thermal_rod_run::check(path, &text);
    }
    if crate::elasticity_run::is_elasticity(&text) {
        return crate::elasticity_run::check(path, &text);
    }
    if crate::acoustics_run::is_acoustics(&text) {
        return crate::acoustics_run::check(path, &text);
    }
    if crate::shallow_water_run::is_shallow_water(&text) {
        return crate::shallow_water_run::check(path, &text);
    }
    let (m, b) = load(path)?;
    println!("{}: ok", path.display());
    println!("  model       {}", m.model.name);
    println!("  states      {} ({})", b.system.n_states(), block_list(&b));
    println!("  open ports  {}", port_list(&b));
    println!("  structure   J skew, E and R symmetric positive semidefinite: ok");
    Ok(())
}

fn block_list(b: &Built) -> String {
    b.system
        .blocks
        .iter()
        .map(|k| format!("{}: {}", k.name, k.len))
        .collect::<Vec<_>>()
        .join(", ")
}

fn port_list(b: &Built) -> String {
    if b.system.ports.is_empty() {
        return "none".into();
    }
    b.system
        .ports
        .iter()
        .map(|p| {
            format!(
                "{} (dim {}: in {}, out {})",
                p.name, p.dim, p.input, p.output
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Default output directory `out/<model stem>`.
pub fn default_out(path: &Path) -> PathBuf {
    PathBuf::from("out").join(path.file_stem().map(|s| s.to_owned()).unwrap_or_default())
}

/// `phlex run`: simulate and write `timeseries.csv`, `summary.json` and plots.
pub fn run(path: &Path, out: Option<&Path>, quiet: bool) -> Result<()> {
    let (_, text) = read(path)?;
    if crate::ephs_run::is_ephs(&text) {
        let dir = out
            .map(Path::to_path_buf)
            .unwrap_or_else(|| default_out(path));
        return crate::ephs_run::run(path, &text, &dir, quiet);
    }
    if crate::mbs3d_run::is_mbs3d(&text) {
        let dir = out
            .map(Path::to_path_buf)
            .unwrap_or_else(|| default_out(path));
        return crate::mbs3d_run::run(path, &text, &dir, quiet);
    }
    if crate::mbs_run::is_mbs(&text) {
        let dir = out
            .map(Path::to_path_buf)
            .unwrap_or_else(|| default_out(path));
        return crate::mbs_run::run(path, &text, &dir, quiet);
    }
    if crate::plate_assembly_run::is_plate_assembly(&text) {
        let dir = out
            .map(Path::to_path_buf)
            .unwrap_or_else(|| default_out(path));
        return crate::plate_assembly_run::run(path, &text, &dir, quiet);
    }
    if crate::plate_run::is_plate(&text) {
        let dir = out
            .map(Path::to_path_buf)
            .unwrap_or_else(|| default_out(path));
        return crate::plate_run::run(path, &text, &dir, quiet);
    }
    if crate::thermoelastic_beam_run::is_thermoelastic_beam(&text) {
        let dir = out
            .map(Path::to_path_buf)
            .unwrap_or_else(|| default_out(path));
        return crate::thermoelastic_beam_run::run(path, &text, &dir, quiet);
    }
    if crate::thermal_rod_run::is_heat(&text) || crate::thermal_rod_run::is_thermoelastic_rod(&text)
    {
        let dir = out
            .map(Path::to_path_buf)
            .unwrap_or_else(|| default_out(path));
        return crate::thermal_rod_run::run(path, &text, &dir, quiet);
    }
    if crate::elasticity_run::is_elasticity(&text) {
        let dir = out
            .map(Path::to_path_buf)
            .unwrap_or_else(|| default_out(path));
        return crate::elasticity_run::run(path, &text, &dir, quiet);
    }
    if crate::acoustics_run::is_acoustics(&text) {
        let dir = out
            .map(Path::to_path_buf)
            .unwrap_or_else(|| default_out(path));
        return crate::acoustics_run::run(path, &text, &dir, quiet);
    }
    if crate::shallow_water_run::is_shallow_water(&text) {
        let dir = out
            .map(Path::to_path_buf)
            .unwrap_or_else(|| default_out(path));
        return crate::shallow_water_run::run(path, &text, &dir, quiet);
    }
    let (m, b) = load(path)?;
    let sim: &SimulationSpec = m.simulation.as_ref().ok_or_else(|| ModelError {
        file: path.display().to_string(),
        line: 0,
        message: "missing section [simulation] (integrator, t_end, dt): needed by `phlex run`"
            .into(),
    })?;
    let dir = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| default_out(path));
    if let Some(c) = &m.control {
        let file = path.display().to_string();
        return crate::control_run::run(&file, &text, &m, c, &b, &dir, quiet);
    }
    if !quiet {
        eprintln!(
            "phlex run: {} — {} states, ports: {}",
            b.name,
            b.system.n_states(),
            port_list(&b)
        );
    }
    let s = simulate(&b, sim, &m.output, quiet)?;
    let mut summary = summarize(&b, sim, &s);
    // Everything is computed; now write (each file atomically).
    let mut files = vec![("timeseries.csv".to_string(), s.series.to_csv()?)];
    if m.output.plots {
        let t = s.series.column(0);
        let h = s.series.column(1);
        files.push((
            "energy.svg".into(),
            svg_plot(
                &format!("{}: Hamiltonian", b.name),
                "t [s]",
                &[("H [J]", &t, &h)],
            )?
            .into_bytes(),
        ));
        if !b.probes.is_empty() {
            let cols: Vec<Vec<f64>> = (0..b.probes.len())
                .map(|k| s.series.column(2 + k))
                .collect();
            let series: Vec<(&str, &[f64], &[f64])> = b
                .probes
                .iter()
                .zip(&cols)
                .map(|((n, _), c)| (n.as_str(), t.as_slice(), c.as_slice()))
                .collect();
            files.push((
                "probes.svg".into(),
                svg_plot(&format!("{}: probes", b.name), "t [s]", &series)?.into_bytes(),
            ));
        }
        let res: Vec<f64> = std::iter::once(0.0)
            .chain(s.ledger.residual.iter().copied())
            .collect();
        if res.len() == s.ledger.times.len() {
            files.push((
                "power_balance.svg".into(),
                svg_plot(
                    &format!("{}: power-balance residual per output interval", b.name),
                    "t [s]",
                    &[("ΔH − W + D [J]", &s.ledger.times, &res)],
                )?
                .into_bytes(),
            ));
        }
    }
    summary.outputs = files
        .iter()
        .map(|(n, _)| dir.join(n).display().to_string())
        .collect();
    summary
        .outputs
        .push(dir.join("summary.json").display().to_string());
    let json = serde_json::to_vec_pretty(&summary)?;
    for (name, bytes) in &files {
        write_atomic(&dir.join(name), bytes)?;
    }
    write_atomic(&dir.join("summary.json"), &json)?;
    println!("{}", summary.table());
    println!("  results in {}", dir.display());
    Ok(())
}

/// One row of the `phlex modes` table.
#[derive(Debug, Clone, Serialize)]
pub struct ModeRow {
    /// Mode number (1-based).
    pub mode: usize,
    /// Angular frequency ω [rad/s].
    pub omega: f64,
    /// Frequency f = ω/2π [Hz].
    pub frequency_hz: f64,
    /// Damping ratio.
    pub damping_ratio: f64,
}

/// `phlex modes`: eigenfrequencies of the model.
pub fn modes(path: &Path, count: Option<usize>, json: Option<&Path>) -> Result<()> {
    let (_, text) = read(path)?;
    if crate::mbs3d_run::is_mbs3d(&text) {
        let (name, states, rows) = crate::mbs3d_run::modes(path, &text, count)?;
        return print_modes(&name, states, &rows, json);
    }
    if crate::mbs_run::is_mbs(&text) {
        return crate::mbs_run::modes(path, &text, count, json);
    }
    if crate::plate_assembly_run::is_plate_assembly(&text) {
        let (name, states, rows) = crate::plate_assembly_run::modes(path, &text, count)?;
        return print_modes(&name, states, &rows, json);
    }
    if crate::plate_run::is_plate(&text) {
        let (f, b) = crate::plate_run::load(&path.display().to_string(), &text)?;
        let n = count.unwrap_or(f.modes.count);
        let rows = crate::modal::frequencies_with(b.system(), n, &b.eigen_params(n))
            .context("eigen-analysis failed")?;
        return print_modes(&b.name, b.system().n_states(), &rows, json);
    }
    if crate::thermal_rod_run::is_heat(&text) || crate::thermal_rod_run::is_thermoelastic_rod(&text)
    {
        let (_, b) = crate::thermal_rod_run::load(&path.display().to_string(), &text)?;
        let n = count.unwrap_or(6);
        let params = phlex_solve::eigen::EigenParams {
            n_modes: Some(n),
            ..Default::default()
        };
        let rows = crate::modal::frequencies_with(b.model.system(), n, &params)
            .context("eigen-analysis failed")?;
        return print_modes(&b.name, b.model.system().n_states(), &rows, json);
    }
    if crate::thermoelastic_beam_run::is_thermoelastic_beam(&text) {
        let (name, states, rows) = crate::thermoelastic_beam_run::modes(path, &text, count)
            .context("eigen-analysis failed")?;
        return print_modes(&name, states, &rows, json);
    }
    if crate::elasticity_run::is_elasticity(&text) {
        let (f, b) = crate::elasticity_run::load(&path.display().to_string(), &text)?;
        let n = count.unwrap_or(f.modes.count);
        let rows = crate::modal::frequencies_with(b.system(), n, &b.eigen_params(n))
            .context("eigen-analysis failed")?;
        return print_modes(&b.name, b.system().n_states(), &rows, json);
    }
    if crate::shallow_water_run::is_shallow_water(&text) {
        let (name, states, rows) =
            crate::shallow_water_run::modes(path, &text, count).context("eigen-analysis failed")?;
        return print_modes(&name, states, &rows, json);
    }
    if crate::acoustics_run::is_acoustics(&text) {
        let (f, b) = crate::acoustics_run::load(&path.display().to_string(), &text)?;
        let n = count.unwrap_or(f.modes.count);
        let rows = crate::modal::frequencies_with(b.system(), n, &b.eigen_params(n))
            .context("eigen-analysis failed")?;
        return print_modes(&b.name, b.system().n_states(), &rows, json);
    }
    let (m, b) = load(path)?;
    let n = count.unwrap_or(m.modes.count);
    let rows = crate::modal::frequencies(&b.system, n).context("eigen-analysis failed")?;
    print_modes(&b.name, b.system.n_states(), &rows, json)
}

/// Prints the `phlex modes` table and writes the JSON file if asked.
fn print_modes(name: &str, states: usize, rows: &[ModeRow], json: Option<&Path>) -> Result<()> {
    println!("{name}: {states} states, first {} modes", rows.len());
    println!(
        "  {:>4}  {:>16}  {:>16}  {:>10}",
        "mode", "omega [rad/s]", "f [Hz]", "zeta"
    );
    for r in rows {
        println!(
            "  {:>4}  {:>16.8e}  {:>16.8e}  {:>10.3e}",
            r.mode, r.omega, r.frequency_hz, r.damping_ratio
        );
    }
    if let Some(j) = json {
        #[derive(Serialize)]
        struct Out<'a> {
            model: &'a str,
            states: usize,
            modes: &'a [ModeRow],
        }
        let bytes = serde_json::to_vec_pretty(&Out {
            model: name,
            states,
            modes: rows,
        })?;
        write_atomic(j, &bytes)?;
        println!("  written {}", j.display());
    }
    Ok(())
}
