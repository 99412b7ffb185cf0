//! The recorded outputs of a planar run ([`simulate`]): point positions `NAME.x`, `NAME.y`,
//! poses `BODY.x`, `BODY.y`, `BODY.theta` and elastic displacements of beams, between the
//! energies and the reactions of the shared recorder ([`crate::kinds::mbs::record`]).
use anyhow::{Context, Result};
use phlex_mbs::body::FloatingBody;
use phlex_mbs::Multibody;

use super::format::ElasticComponent;
use super::model::{split_ref, BuiltMbs, MbsModel};
use crate::kinds::mbs::columns::RunColumns;
use crate::kinds::mbs::record::{simulate_recorded, DimColumns};
use crate::kinds::mbs::simulate::MbsRun;

/// The planar columns: points `(body, port)`, posed bodies and elastic displacements
/// `(body, material coordinate, component, scale)`.
struct PlanarColumns {
    points: Vec<(usize, usize)>,
    poses: Vec<usize>,
    elastic: Vec<(usize, f64, usize, f64)>,
}

impl PlanarColumns {
    /// The groups `positions` and `elastic` of the `[output]` of `m` into `cols`.
    fn new(m: &MbsModel, mb: &Multibody, cols: &mut RunColumns) -> Result<Self> {
        let o = &m.spec.output;
        let conv = |e| m.convert(e);
        let mut points = Vec::new();
        for (n, r) in &o.points {
            let (b, p) = split_ref(r.get_ref()).context("checked at parse")?;
            let bi = mb.body_index(b).map_err(conv)?;
            let pi = mb.bodies()[bi]
                .port_index(p)
                .context("port checked at parse")?;
            points.push((bi, pi));
            cols.names.push(format!("{n}.x"));
            cols.names.push(format!("{n}.y"));
        }
        let poses = cols
            .add_body_columns(mb, &o.poses, &["x", "y", "theta"])
            .map_err(conv)?;
        cols.close_group("positions");
        let mut elastic = Vec::new();
        for e in &o.elastic {
            let bi = mb.body_index(e.body.get_ref()).map_err(conv)?;
            let l = m.spec.bodies[e.body.get_ref()]
                .length
                .as_ref()
                .map(|v| *v.get_ref())
                .unwrap_or(1.0);
            let c = match e.component {
                ElasticComponent::X => 0,
                ElasticComponent::Y => 1,
                ElasticComponent::Rotation => 2,
            };
            let scale = if e.normalize { 1.0 / l } else { 1.0 };
            elastic.push((bi, *e.x.get_ref(), c, scale));
            cols.names.push(e.name.get_ref().clone());
        }
        cols.close_group("elastic");
        Ok(Self {
            points,
            poses,
            elastic,
        })
    }
}

impl DimColumns<Multibody> for PlanarColumns {
    const HINT: &'static str =
        "rename a point or an elastic output; pose columns are BODY.x, BODY.y, BODY.theta";

    fn record(&self, mb: &Multibody, x: &[f64], row: &mut Vec<f64>) {
        for &(b, q) in &self.points {
            row.extend_from_slice(&mb.port_position(b, q, x));
        }
        for &b in &self.poses {
            let p = mb.pose(b, x);
            row.extend_from_slice(&[p.x, p.y, p.theta]);
        }
        for &(b, xi, c, s) in &self.elastic {
            let v = mb.bodies()[b]
                .elastic_displacement(xi, &x[mb.body_range(b)])
                .map(|u| u[c] * s)
                .unwrap_or(f64::NAN);
            row.push(v);
        }
    }
}

/// Integrates a built planar model over `[simulation]` and summarises the run.
pub fn simulate(m: &MbsModel, b: &BuiltMbs, quiet: bool) -> Result<MbsRun> {
    let o = &m.spec.output;
    let shared = (o.body_energies, &o.reactions[..], &o.ports[..]);
    simulate_recorded(m, b, quiet, shared, |cols| {
        PlanarColumns::new(m, &b.mb, cols)
    })
}
