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
//! midpoint/discrete-gradient scheme ([`MultibodyMidpoint`](phlex_mbs::MultibodyMidpoint), exact discrete power balance
//! $H_1 - H_0 = h\,\bar y^\top u$) or Radau IIA ([`run_radau`](phlex_mbs::run_radau)), and `[modes]` linearises it
//! about the initial configuration ([`phlex_mbs::modes`], §6.2, eq. (51)).
//!
//! Errors in the file (unknown keys, non-physical values, unknown bodies or ports, missing
//! deformation condition, redundant constraints, inconsistent initial conditions) are
//! [`ModelError`]s naming the item and its line (exit code 2); numerical failures (Newton
//! non-convergence, step-size underflow) are plain errors (exit code 1).
mod format;
mod model;
mod simulate;

pub use format::*;
pub use model::{BuiltMbs, MbsModel};
pub(crate) use simulate::{energy_account, radau_settings};
pub use simulate::{gauss_label, gauss_params, projection_summary, simulate, MbsRun, MbsSummary};

use std::path::Path;

use anyhow::Result;
use phlex_core::QuasiLinearPhDae;
use serde::Serialize;

use crate::app::ModeRow;
use crate::model::ModelError;
use crate::output::write_atomic;
use simulate::plots;

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
        return Err(ModelError {
            file: m.file.clone(),
            line: 0,
            message: "missing section [simulation] (integrator, t_end, dt): needed by `phlex run`"
                .into(),
        }
        .into());
    }
    if !quiet {
        eprintln!(
            "phlex run: {} — {} bodies, {} joints, {} states, {} constraints",
            b.name,
            b.mb.bodies().len(),
            b.mb.joint_names().len(),
            b.mb.n(),
            b.mb.n_constraints()
        );
    }
    let mut r = simulate(&m, &b, quiet)?;
    let mut files = vec![("timeseries.csv".to_string(), r.series.to_csv()?)];
    if m.spec.output.plots {
        files.extend(plots(&m, &r)?);
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
    println!(
        "  joints      {} ({} constraint rows, full rank at the initial configuration)",
        if mb.joint_names().is_empty() {
            "none".to_string()
        } else {
            mb.joint_names().join(", ")
        },
        mb.n_constraints()
    );
    let ports = mb.ports().names();
    println!(
        "  input ports {}",
        if ports.is_empty() {
            "none".to_string()
        } else {
            ports.join(", ")
        }
    );
    println!("  states      {}", mb.n());
    println!(
        "  initial     position residual {:.3e} -> {:.3e}, velocity residual {:.3e} -> {:.3e}",
        b.init.position_residual.0,
        b.init.position_residual.1,
        b.init.velocity_residual.0,
        b.init.velocity_residual.1
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
