//! What the planar and spatial multibody kinds share around a run: the line announcing it,
//! the files it writes (`timeseries.csv`, plots, `summary.json`) and the `phlex check`
//! report of a built multibody system (joints, input ports, states, initial corrections).
use std::path::Path;

use anyhow::Result;
use phlex_core::PhSystem;
use phlex_mbs::{BodyAssembly, JointAssembly};

use super::simulate::{plots, MbsRun};
use crate::check::CheckReport;
use crate::output::OutputFiles;

/// Prints the one-line description of a run of `mb` to stderr (unless `quiet`): its
/// `bodies` (the noun names them), `joints`, states and `constraints` rows.
pub(crate) fn announce_run<A: BodyAssembly + PhSystem>(
    quiet: bool,
    (name, bodies): (&str, &str),
    mb: &A,
    (joints, constraints): (usize, usize),
) {
    if !quiet {
        let (nb, n) = (mb.body_count(), mb.n_states());
        eprintln!(
            "phlex run: {name} — {nb} {bodies}, {joints} joints, {n} states, {constraints} constraints"
        );
    }
}

/// Writes `timeseries.csv`, the plots (titled with `plots_of`, if given) and
/// `summary.json` into `dir`, and prints the summary table.
pub(crate) fn write_run(dir: &Path, r: MbsRun, plots_of: Option<&String>) -> Result<()> {
    let mut files = OutputFiles::new(dir);
    files.add("timeseries.csv", r.series.to_csv()?);
    if let Some(name) = plots_of {
        for (file, bytes) in plots(name, &r)? {
            files.add(file, bytes);
        }
    }
    files.finish_run(r.summary, &[])
}

/// The `phlex check` report of a built multibody system `mb`: `kind`, model `name`, its
/// states, input ports, `joints` with their `constraints` rows (full rank at the
/// consistent initial configuration, else the build fails), one row per body (states,
/// elastic DOFs, mass, ports, energy at the initial state) and the corrections of the
/// consistent initialisation `init`.
pub(crate) fn check_report<A: JointAssembly>(
    kind: &str,
    name: &str,
    mb: &A,
    (joints, constraints): (Vec<String>, usize),
    init: &phlex_mbs::ConsistentInit,
) -> CheckReport {
    let bodies = (0..mb.body_count()).map(|b| {
        let (body, r) = (mb.floating_body(b), mb.body_state_range(b));
        format!(
            "{}: {} states, {} elastic DOFs, mass {:.6e} kg, ports {}, H = {:.6e} J",
            body.name(),
            r.len(),
            body.n_elastic(),
            body.mass(),
            body.port_names(),
            body.energies(&init.state[r]).total()
        )
    });
    let list = |v: Vec<String>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let mut r = CheckReport {
        model: name.to_string(),
        variant: kind.to_string(),
        states: mb.n_states(),
        blocks: Vec::new(),
        ports: list(mb.ports().names()),
        structure: match mb.released_rows() {
            released if released.is_empty() => format!(
                "index-2 pHDAE; joints {} ({constraints} constraint rows, full rank at the initial configuration)",
                list(joints)
            ),
            released => format!(
                "index-2 pHDAE; joints {} ({constraints} constraint rows; redundant rows released: {})",
                list(joints),
                released.join(", ")
            ),
        },
        details: Vec::new(),
    };
    for b in bodies {
        r = r.detail("body", b);
    }
    r.detail(
        "initial",
        format!(
            "position residual {:.3e} -> {:.3e}, velocity residual {:.3e} -> {:.3e}",
            init.position_residual.0,
            init.position_residual.1,
            init.velocity_residual.0,
            init.velocity_residual.1
        ),
    )
}
