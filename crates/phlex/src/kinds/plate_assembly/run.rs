//! `phlex run` of a plate assembly: the midpoint driver of [`crate::continuum`] with the
//! columns of the components and of the rod, and VTK snapshots of the plate part.
use std::path::Path;

use anyhow::Result;
use phlex_fem::models::plate::KirchhoffField;
use phlex_mbs::models::plate_assembly::{LumpedComponent, RodAxis};

use super::build::{BuiltAssembly, PlateAssemblyFile};
use crate::continuum::{Columns, FieldRun};
use crate::kinds::plate::kirchhoff_vtu;
use crate::registry::Loaded;

/// Largest deviation of `w[dofs]` from its least-squares affine fit in `s[dofs]`.
fn affine_residual(dofs: &[usize], s: &[f64], w: &[f64]) -> f64 {
    if dofs.len() < 3 {
        return 0.0;
    }
    let n = dofs.len() as f64;
    let (mut ss, mut sss, mut sw, mut ssw) = (0.0, 0.0, 0.0, 0.0);
    for &i in dofs {
        ss += s[i];
        sss += s[i] * s[i];
        sw += w[i];
        ssw += s[i] * w[i];
    }
    let b = (n * ssw - ss * sw) / (n * sss - ss * ss);
    let a = (sw - b * ss) / n;
    dofs.iter()
        .map(|&i| (w[i] - a - b * s[i]).abs())
        .fold(0.0, f64::max)
}

/// `phlex run` for a plate assembly: midpoint integration; columns: the velocity probes,
/// each component's velocity (`<name>_v`, and `<name>_proof_v` for actuators) and, with a
/// rod, its heave velocity `rod_v`, tilt rate `rod_omega` and the straightness of the
/// welded edge `edge_bow_v` (largest deviation of the edge velocity DOFs from their affine
/// fit along the rod, 0 up to round-off for a rigid weld). VTK files hold the plate part.
pub fn run(
    loaded: &Loaded<'_, PlateAssemblyFile, BuiltAssembly>,
    dir: &Path,
    quiet: bool,
) -> Result<()> {
    let b = &loaded.built;
    let np = b.plate.n_states();
    let sw = b.plate.velocity_space();
    let points: Vec<[f64; 2]> = b.probes.iter().map(|p| p.1).collect();
    let plate = &b.plate;
    let probe_values = |e: &[f64]| -> Result<Vec<f64>, String> {
        let w = plate
            .field_coefficients(&e[..np], KirchhoffField::Velocity)
            .map_err(|x| x.to_string())?;
        points
            .iter()
            .map(|p| {
                sw.evaluate(&w, *p)
                    .map(|(v, _)| v[0])
                    .map_err(|x| x.to_string())
            })
            .collect()
    };
    let mut comp_names = Vec::new();
    let mut comp_idx = Vec::new();
    for c in &b.components {
        let (blk, extra) = match c.component {
            LumpedComponent::Actuator(_) => (
                format!("{}.casing", c.name),
                Some(format!("{}.proof_mass", c.name)),
            ),
            LumpedComponent::Rigid(_) => (format!("{}.body", c.name), None),
        };
        if let Some(r) = b.system.block_range(&blk) {
            comp_names.push(format!("{}_v", c.name));
            comp_idx.push(r.start);
        }
        if let Some(r) = extra.and_then(|x| b.system.block_range(&x)) {
            comp_names.push(format!("{}_proof_v", c.name));
            comp_idx.push(r.start);
        }
    }
    let comp_values =
        |e: &[f64]| -> Result<Vec<f64>, String> { Ok(comp_idx.iter().map(|&i| e[i]).collect()) };
    // rod columns
    // "rod.body", or "plate.rod.body" when point components are coupled to the welded plate
    let rod_block = b
        .system
        .blocks
        .iter()
        .find(|bl| bl.name == "rod.body" || bl.name == "plate.rod.body")
        .and_then(|bl| b.system.block_range(&bl.name));
    let (edge_dofs, along) = match &b.rod {
        Some((_, edge, axis)) => {
            let c = usize::from(matches!(axis, RodAxis::AlongY { .. }));
            let xs = sw.interpolate(&|x, o| o[0] = x[0]);
            let ys = sw.interpolate(&|x, o| o[0] = x[1]);
            let coord = if c == 1 { ys.clone() } else { xs.clone() };
            let across = if c == 1 { &xs } else { &ys };
            // the edge's fixed coordinate from the mesh
            let bes = b.plate.velocity_space().mesh().tagged_edges(edge)?;
            let m = b.plate.velocity_space().mesh();
            let v0 = m.edges()[bes[0].edge][0];
            let fixed = m.vertices()[v0][1 - c];
            let dofs: Vec<usize> = (0..across.len())
                .filter(|&i| (across[i] - fixed).abs() < 1e-9 * (1.0 + fixed.abs()))
                .collect();
            (dofs, coord)
        }
        None => (Vec::new(), Vec::new()),
    };
    let rod_values = |e: &[f64]| -> Result<Vec<f64>, String> {
        let Some(r) = &rod_block else {
            return Ok(Vec::new());
        };
        let w = plate
            .field_coefficients(&e[..np], KirchhoffField::Velocity)
            .map_err(|x| x.to_string())?;
        Ok(vec![
            e[r.start],
            e[r.start + 1],
            affine_residual(&edge_dofs, &along, &w),
        ])
    };
    let vtu_of = |e: &[f64]| kirchhoff_vtu(plate, &e[..np]);
    let names = b.probes.iter().map(|p| p.0.clone()).collect();
    let mut columns = vec![Columns::probes(
        names,
        "vertical velocity probes [m/s]",
        &probe_values,
    )];
    if !comp_names.is_empty() {
        columns.push(Columns::new(
            comp_names,
            "component velocities [m/s]",
            "components.svg",
            &comp_values,
        ));
    }
    if rod_block.is_some() {
        columns.push(Columns::new(
            vec!["rod_v".into(), "rod_omega".into(), "edge_bow_v".into()],
            "rod heave [m/s], tilt rate [rad/s], edge bow [m/s]",
            "rod.svg",
            &rod_values,
        ));
    }
    let r = FieldRun::new(&b.name, "plate_assembly", &b.system, &b.input, &b.initial);
    loaded.run_fields(r.columns(columns).vtu(&vtu_of), dir, quiet)
}
