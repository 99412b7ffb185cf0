//! Planar flexible multibody model files (`[bodies.*]`, `[joints.*]`; format documented in
//! `docs/model-format-mbs.md`): parsing, building with [`phlex_mbs::MultibodyBuilder`],
//! `phlex run` / `check` / `modes`.
//!
//! The file maps one-to-one onto the builder: `gravity` ↔ [`MultibodyBuilder::gravity`](phlex_mbs::MultibodyBuilder::gravity),
//! `[bodies.NAME]` ↔ [`RigidBody2d`](phlex_mbs::RigidBody2d) / [`FloatingBeam2d`](phlex_mbs::FloatingBeam2d) (paper 000 §4.3, Remark 4),
//! `[joints.NAME]` ↔ [`Joint`](phlex_mbs::Joint) (§5.1–5.2, eqs. (44)–(45)), `[ground]` ↔
//! [`MultibodyBuilder::add_ground_point`](phlex_mbs::MultibodyBuilder::add_ground_point), `[[load]]` ↔ [`Load`](phlex_mbs::Load) (eq. (39)). The assembled
//! system is the index-2 pHDAE (46); `[initial]` makes the initial state consistent
//! ([`consistent_initial_state`](phlex_mbs::consistent_initial_state), §6.3), `[simulation]` integrates it with the
//! midpoint/discrete-gradient scheme ([`Midpoint`](phlex_solve::Midpoint), exact discrete power balance
//! $H_1 - H_0 = h\,\bar y^\top u$) or Radau IIA ([`Radau5`](phlex_solve::Radau5)), and `[modes]` linearises it
//! about the initial configuration ([`phlex_mbs::modes`], §6.2, eq. (51)).
//!
//! Errors in the file (unknown keys, non-physical values, unknown bodies or ports, missing
//! deformation condition, redundant constraints, inconsistent initial conditions) are
//! [`ModelError`](crate::model::ModelError)s naming the item and its line (exit code 2); numerical failures (Newton
//! non-convergence, step-size underflow) are plain errors (exit code 1).
pub(crate) mod columns;
mod format;
pub(crate) mod integrate;
mod model;
mod simulate;
pub(crate) mod source;

pub use format::*;
pub use model::{BuiltMbs, MbsModel};
pub use simulate::{gauss_label, gauss_params, projection_summary, simulate, MbsRun, MbsSummary};

use std::path::Path;

use anyhow::Result;
use phlex_core::PhSystem;
use serde::Serialize;

use crate::app::ModeRow;
use crate::output::write_atomic;
pub(crate) use simulate::plots;

/// True if the TOML text is a multibody model (it has a `bodies` table).
pub fn is_mbs(text: &str) -> bool {
    match text.parse::<toml::Table>() {
        Ok(t) => t.contains_key("bodies"),
        Err(_) => false,
    }
}

/// `phlex run` for a multibody model: builds, makes the initial state consistent,
/// integrates, and writes `timeseries.csv`, `summary.json` and SVG plots into `dir`.
pub fn run(path: &Path, text: &str, dir: &Path, quiet: bool) -> Result<()> {
    let m = MbsModel::parse(&path.display().to_string(), text)?;
    let b = m.build()?;
    if m.spec.simulation.is_none() {
        return Err(integrate::missing_simulation(&m.file).into());
    }
    let (mb, name) = (&b.mb, &b.name);
    let counts = [
        mb.bodies().len(),
        mb.joint_names().len(),
        mb.n(),
        mb.n_constraints(),
    ];
    announce_run(quiet, name, "bodies", counts);
    let r = simulate(&m, &b, quiet)?;
    write_run(dir, r, m.spec.output.plots.then_some(&m.spec.model.name))
}

/// Prints the one-line description of a run to stderr (unless `quiet`): `counts` are the
/// bodies, joints, states and constraints.
pub(crate) fn announce_run(quiet: bool, name: &str, bodies: &str, counts: [usize; 4]) {
    if !quiet {
        let [nb, nj, n, nc] = counts;
        eprintln!("phlex run: {name} — {nb} {bodies}, {nj} joints, {n} states, {nc} constraints");
    }
}

/// Writes `timeseries.csv`, the plots (titled with `plots_of`, if given) and
/// `summary.json` into `dir`, and prints the summary table.
pub(crate) fn write_run(dir: &Path, mut r: MbsRun, plots_of: Option<&String>) -> Result<()> {
    let mut files = vec![("timeseries.csv".to_string(), r.series.to_csv()?)];
    if let Some(name) = plots_of {
        files.extend(plots(name, &r)?);
    }
    r.summary.outputs = files
        .iter()
        .map(|(n, _)| dir.join(n).display().to_string())
        .collect();
    r.summary
        .outputs
        .push(dir.join("summary.json").display().to_string());
    let json = serde_json::to_vec_pretty(&r.summary)?;
    for (name, bytes) in &files {
        write_atomic(&dir.join(name), bytes)?;
    }
    write_atomic(&dir.join("summary.json"), &json)?;
    print!("{}", r.summary.table());
    println!("  results in {}", dir.display());
    Ok(())
}

/// Prints the joints, input ports, states and initial corrections of `phlex check`.
pub(crate) fn print_check_details(
    joints: Vec<String>,
    constraints: usize,
    ports: Vec<String>,
    states: usize,
    init: &phlex_mbs::ConsistentInit,
) {
    let list = |v: Vec<String>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    println!(
        "  joints      {} ({constraints} constraint rows, full rank at the initial configuration)",
        list(joints)
    );
    println!("  input ports {}", list(ports));
    println!("  states      {states}");
    println!(
        "  initial     position residual {:.3e} -> {:.3e}, velocity residual {:.3e} -> {:.3e}",
        init.position_residual.0,
        init.position_residual.1,
        init.velocity_residual.0,
        init.velocity_residual.1
    );
}

/// `phlex check` for a multibody model: parse, validate, build (redundancy check) and make
/// the initial state consistent; writes nothing.
pub fn check(path: &Path, text: &str) -> Result<()> {
    let m = MbsModel::parse(&path.display().to_string(), text)?;
    let b = m.build()?;
    let mb = &b.mb;
    println!("{}: ok", m.file);
    println!("  model       {} (planar multibody)", b.name);
    for (k, body) in mb.bodies().iter().enumerate() {
        println!(
            "  body        {}: {} states, {} elastic DOFs, mass {:.6e} kg, ports {}",
            body.body_name(),
            mb.body_range(k).len(),
            body.n_elastic(),
            body.mass(),
            body.port_names()
        );
    }
    print_check_details(
        mb.joint_names(),
        mb.n_constraints(),
        mb.ports().names(),
        mb.n(),
        &b.init,
    );
    Ok(())
}

/// `phlex modes` for a multibody model: constrained eigenfrequencies of the linearisation
/// about the (consistent) initial configuration; table, and JSON with `json`.
pub fn modes(path: &Path, text: &str, count: Option<usize>, json: Option<&Path>) -> Result<()> {
    let m = MbsModel::parse(&path.display().to_string(), text)?;
    let b = m.build()?;
    let n = count.unwrap_or(m.spec.modes.count);
    let rows = m.modes(&b, n)?;
    println!(
        "{}: {} states, {} constraints, first {} constrained modes about the initial configuration",
        b.name,
        b.mb.n(),
        b.mb.n_constraints(),
        rows.len()
    );
    println!(
        "  {:>4}  {:>16}  {:>16}  {:>10}",
        "mode", "omega [rad/s]", "f [Hz]", "zeta"
    );
    for r in &rows {
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
            constraints: usize,
            modes: &'a [ModeRow],
        }
        let bytes = serde_json::to_vec_pretty(&Out {
            model: &b.name,
            states: b.mb.n(),
            constraints: b.mb.n_constraints(),
            modes: &rows,
        })?;
        write_atomic(j, &bytes)?;
        println!("  written {}", j.display());
    }
    Ok(())
}
