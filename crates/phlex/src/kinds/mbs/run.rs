//! What the planar and spatial multibody kinds share around a run: the line announcing it,
//! the files it writes (`timeseries.csv`, plots, `summary.json`) and the `phlex check`
//! report of a built multibody system (joints, input ports, states, initial corrections).
use std::path::Path;

use anyhow::Result;

use super::simulate::{plots, MbsRun};
use crate::check::CheckReport;
use crate::output::OutputFiles;

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

/// The `phlex check` report of a built multibody system: `kind`, model `name`, its
/// `states`, input `ports`, `joints` with their `constraints` rows (full rank at the
/// consistent initial configuration, else the build fails) and the corrections of the
/// consistent initialisation `init`; `bodies` rows follow.
pub(crate) fn check_report(
    kind: &str,
    name: &str,
    states: usize,
    ports: Vec<String>,
    (joints, constraints): (Vec<String>, usize),
    init: &phlex_mbs::ConsistentInit,
    bodies: Vec<String>,
) -> CheckReport {
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
        states,
        blocks: Vec::new(),
        ports: list(ports),
        structure: format!(
            "index-2 pHDAE; joints {} ({constraints} constraint rows, full rank at the initial configuration)",
            list(joints)
        ),
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
