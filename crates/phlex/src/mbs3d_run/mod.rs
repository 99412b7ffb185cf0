//! Spatial (3D) multibody model files: the planar format of [`crate::mbs_run`] with 3D
//! bodies (`kind = "rigid3d"` or `"beam3d"`), 3D joints and loads; format documented in
//! `docs/model-format-mbs.md` ("Spatial (3D) models"). Parsing, building with
//! [`phlex_mbs::spatial::MultibodyBuilder3d`] (the index-2 pHDAE (46) of paper 000 in 3D),
//! consistent initial conditions (§6.3) and `phlex run` / `phlex check` with the outputs of
//! the planar format (`timeseries.csv`, `summary.json` with the planar
//! [`MbsSummary`](crate::mbs_run::MbsSummary), SVG plots).
//!
//! A file is spatial when one of its bodies has a 3D kind; every body of a spatial file
//! must then be 3D (a planar body is reported with its line).
mod format;
mod model;
mod simulate;

pub use format::*;
pub use model::{BuiltMbs3d, Mbs3dModel};
pub use simulate::simulate;

use std::path::Path;

use anyhow::Result;
use phlex_core::PhSystem;

use crate::mbs_run::integrate::missing_simulation;
use crate::mbs_run::{announce_run, print_check_details, write_run};

/// True if the TOML text is a spatial multibody model: a `bodies` table with at least one
/// body of kind `rigid3d` or `beam3d`.
pub fn is_mbs3d(text: &str) -> bool {
    let Ok(t) = text.parse::<toml::Table>() else {
        return false;
    };
    let Some(bodies) = t.get("bodies").and_then(|b| b.as_table()) else {
        return false;
    };
    bodies.values().any(|b| {
        b.get("kind")
            .and_then(|k| k.as_str())
            .is_some_and(|k| k == "rigid3d" || k == "beam3d")
    })
}

/// `phlex run` for a spatial multibody model: build, make the initial state consistent,
/// integrate, write `timeseries.csv`, `summary.json` and SVG plots into `dir`.
pub fn run(path: &Path, text: &str, dir: &Path, quiet: bool) -> Result<()> {
    let m = Mbs3dModel::parse(&path.display().to_string(), text)?;
    if m.spec.simulation.is_none() {
        return Err(missing_simulation(&m.file).into());
    }
    let b = m.build()?;
    let (mb, name) = (&b.mb, &b.name);
    let counts = [
        mb.bodies().len(),
        mb.joint_names().len(),
        mb.n(),
        mb.n_constraints(),
    ];
    announce_run(quiet, name, "spatial bodies", counts);
    let r = simulate(&m, &b, quiet)?;
    write_run(dir, r, m.spec.output.plots.then_some(&m.spec.model.name))
}

/// `phlex check` for a spatial model: parse, validate, build (redundancy check) and make
/// the initial state consistent; writes nothing.
pub fn check(path: &Path, text: &str) -> Result<()> {
    let m = Mbs3dModel::parse(&path.display().to_string(), text)?;
    let b = m.build()?;
    let mb = &b.mb;
    println!("{}: ok", m.file);
    println!("  model       {} (spatial multibody)", b.name);
    for (k, body) in mb.bodies().iter().enumerate() {
        let e = body.energies(mb.local(k, &b.init.state));
        println!(
            "  body        {}: {} states, ports {}, H = {:.6e} J",
            body.name(),
            mb.body_range(k).len(),
            body.port_names(),
            e.total()
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

/// `phlex modes` for a spatial model: constrained eigenfrequencies of the linearisation
/// about the consistent initial configuration ([`phlex_mbs::modes`], paper 000 §6.2: the
/// finite eigenvalues of the pencil $(E, \partial_x f)$, multipliers eliminated, eq. (51));
/// the redundant rotation coordinates and the configuration drift give zero eigenvalues,
/// which are not reported. `count` modes (default 6).
pub fn modes(
    path: &Path,
    text: &str,
    count: Option<usize>,
) -> Result<(String, usize, Vec<crate::app::ModeRow>)> {
    let m = Mbs3dModel::parse(&path.display().to_string(), text)?;
    let b = m.build()?;
    let n = count.unwrap_or(6);
    let u0 = b.input.eval(0.0);
    let params = phlex_solve::eigen::EigenParams {
        n_modes: Some(n),
        ..Default::default()
    };
    let r = phlex_mbs::modes(&b.mb, &b.init.state, &u0, &params).map_err(|e| {
        anyhow::anyhow!("eigen-analysis of the linearised spatial multibody system failed: {e}")
    })?;
    let rows = r
        .modes
        .iter()
        .take(n)
        .enumerate()
        .map(|(k, md)| crate::app::ModeRow {
            mode: k + 1,
            omega: md.omega,
            frequency_hz: md.omega / (2.0 * std::f64::consts::PI),
            damping_ratio: md.damping_ratio + 0.0,
        })
        .collect();
    Ok((b.name.clone(), b.mb.n(), rows))
}
