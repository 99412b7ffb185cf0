//! The recorded outputs of a spatial run ([`simulate`]): point positions, poses (position
//! of `P` and rotation vector), inertial velocities and joint states, between the energies
//! and the reactions of the shared recorder ([`crate::kinds::mbs::record`]); integration,
//! summary ([`MbsSummary`](crate::kinds::mbs::simulate::MbsSummary)) and plots are those of
//! [`crate::kinds::mbs`].
use anyhow::{Context, Result};
use phlex_core::geometry::so3;
use phlex_core::PhSystem;
use phlex_mbs::spatial::Multibody3d;

use super::model::{BuiltMbs3d, Mbs3dModel};
use crate::kinds::mbs::columns::RunColumns;
use crate::kinds::mbs::record::{simulate_recorded, DimColumns};
use crate::kinds::mbs::simulate::MbsRun;

/// The spatial columns: points `(body, port)`, posed bodies, bodies with velocities and
/// joints with joint states.
struct SpatialColumns {
    points: Vec<(usize, usize)>,
    poses: Vec<usize>,
    velocities: Vec<usize>,
    joint_states: Vec<usize>,
}

impl SpatialColumns {
    /// The groups `positions`, `velocities` and `joint_states` of the `[output]` of `m`
    /// into `cols`.
    fn new(m: &Mbs3dModel, mb: &Multibody3d, cols: &mut RunColumns) -> Result<Self> {
        let o = &m.spec.output;
        let conv = |e| m.convert(e);
        let mut points = Vec::new();
        for (n, r) in &o.points {
            let (b, p) = r.get_ref().split_once('.').context("checked at parse")?;
            let bi = mb.body_index(b).map_err(conv)?;
            let pi = mb.body(bi).port_index(p).ok_or_else(|| {
                m.err(
                    r.span(),
                    format!(
                        "output.points.{n}: body '{b}' has no port '{p}'; its ports: {}",
                        mb.body(bi).port_names()
                    ),
                )
            })?;
            points.push((bi, pi));
            for c in ["x", "y", "z"] {
                cols.names.push(format!("{n}.{c}"));
            }
        }
        let pose = ["x", "y", "z", "rx", "ry", "rz"];
        let poses = cols.add_body_columns(mb, &o.poses, &pose).map_err(conv)?;
        cols.close_group("positions");
        let twist = ["vx", "vy", "vz", "wx", "wy", "wz"];
        let velocities = cols
            .add_body_columns(mb, &o.velocities, &twist)
            .map_err(conv)?;
        cols.close_group("velocities");
        let mut joint_states = Vec::new();
        for j in &o.joint_states {
            let k = mb.joint_index(j.get_ref()).map_err(conv)?;
            let block = &mb.blocks().iter().find(|b| {
                b.name.starts_with(&format!("{}.", j.get_ref())) && !b.name.ends_with(".lambda")
            });
            let Some(block) = block else {
                return Err(m
                    .err(
                        j.span(),
                        format!(
                            "output.joint_states: joint '{}' has no joint state (only revolute, prismatic and prescribed-velocity joints do)",
                            j.get_ref()
                        ),
                    )
                    .into());
            };
            let n = mb.joint_state_range(k).len();
            for c in 0..n {
                cols.names.push(if n == 1 {
                    block.name.clone()
                } else {
                    format!("{}_{}", block.name, ["x", "y", "z"][c])
                });
            }
            joint_states.push(k);
        }
        cols.close_group("joint_states");
        Ok(Self {
            points,
            poses,
            velocities,
            joint_states,
        })
    }
}

impl DimColumns<Multibody3d> for SpatialColumns {
    const HINT: &'static str = "rename a point";

    fn record(&self, mb: &Multibody3d, x: &[f64], row: &mut Vec<f64>) {
        for &(b, q) in &self.points {
            row.extend_from_slice(&mb.port_position(b, q, x));
        }
        for &b in &self.poses {
            let xl = mb.local(b, x);
            row.extend_from_slice(&xl[..3]);
            row.extend_from_slice(&so3::log(&mb.rotation(b, x)));
        }
        for &b in &self.velocities {
            // port P (index of the port at the reference point) or the velocity field at P
            let p = mb.body(b).port_index("P").unwrap_or(0);
            let [v, w] = mb.port_velocity_inertial(b, p, x);
            row.extend_from_slice(&v);
            row.extend_from_slice(&w);
        }
        for &j in &self.joint_states {
            row.extend_from_slice(mb.joint_states(j, x));
        }
    }
}

/// Integrates a built spatial model over `[simulation]` and summarises the run.
pub fn simulate(m: &Mbs3dModel, b: &BuiltMbs3d, quiet: bool) -> Result<MbsRun> {
    let o = &m.spec.output;
    let shared = (o.body_energies, &o.reactions[..], &o.ports[..]);
    simulate_recorded(m, b, quiet, shared, |cols| {
        SpatialColumns::new(m, &b.mb, cols)
    })
}
