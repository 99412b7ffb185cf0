//! Integration of a built spatial model (midpoint / discrete gradient, or Radau IIA through
//! [`phlex_solve::integrate`]), recording, summary (the planar
//! [`MbsSummary`](crate::kinds::mbs::simulate::MbsSummary)); the integration, summary and plots are those of
//! [`crate::kinds::mbs`].
use anyhow::{Context, Result};
use phlex_core::geometry::so3;
use phlex_core::PhSystem;
use phlex_mbs::spatial::Multibody3d;
use phlex_solve::InputFn;

use super::model::{BuiltMbs3d, Mbs3dModel};
use crate::kinds::mbs::columns::RunColumns;
use crate::kinds::mbs::integrate::{integrate_recorded, Recorded, Recording};
use crate::kinds::mbs::simulate::MbsRun;

/// Precomputed output columns.
struct Recorder<'a> {
    mb: &'a Multibody3d,
    input: &'a InputFn,
    points: Vec<(usize, usize)>,
    poses: Vec<usize>,
    velocities: Vec<usize>,
    joint_states: Vec<usize>,
    reactions: Vec<usize>,
    cols: RunColumns,
}

impl<'a> Recorder<'a> {
    fn new(m: &Mbs3dModel, mb: &'a Multibody3d, input: &'a InputFn) -> Result<Self> {
        let o = &m.spec.output;
        let conv = |e| m.convert(e);
        let mut cols = RunColumns::new(mb.body_names(), o.body_energies);
        let (names, groups) = (&mut cols.names, &mut cols.groups);
        let mut start = names.len();
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
                names.push(format!("{n}.{c}"));
            }
        }
        let mut poses = Vec::new();
        for b in &o.poses {
            poses.push(mb.body_index(b.get_ref()).map_err(conv)?);
            for c in ["x", "y", "z", "rx", "ry", "rz"] {
                names.push(format!("{}.{c}", b.get_ref()));
            }
        }
        groups.push(("positions", start..names.len()));
        start = names.len();
        let mut velocities = Vec::new();
        for b in &o.velocities {
            velocities.push(mb.body_index(b.get_ref()).map_err(conv)?);
            for c in ["vx", "vy", "vz", "wx", "wy", "wz"] {
                names.push(format!("{}.{c}", b.get_ref()));
            }
        }
        groups.push(("velocities", start..names.len()));
        start = names.len();
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
                names.push(if n == 1 {
                    block.name.clone()
                } else {
                    format!("{}_{}", block.name, ["x", "y", "z"][c])
                });
            }
            joint_states.push(k);
        }
        groups.push(("joint_states", start..names.len()));
        start = names.len();
        let mut reactions = Vec::new();
        for r in &o.reactions {
            let j = mb.joint_index(r.get_ref()).map_err(conv)?;
            for lab in mb.joint_row_labels(j) {
                names.push(format!("{}.lambda_{lab}", r.get_ref()));
            }
            reactions.push(j);
        }
        groups.push(("reactions", start..names.len()));
        start = names.len();
        cols.add_ports(&o.ports, mb.ports())
            .map_err(|(span, e)| m.err(span, e))?;
        cols.finish(start, mb.n(), mb.joint_names().len(), "rename a point")
            .map_err(|e| m.err_line(m.section_line("output"), e))?;
        Ok(Self {
            mb,
            input,
            points,
            poses,
            velocities,
            joint_states,
            reactions,
            cols,
        })
    }
}

impl Recording for Recorder<'_> {
    fn into_recorded(self) -> Recorded {
        self.cols.into_recorded()
    }

    fn record(&mut self, t: f64, x: &[f64]) {
        let mb = self.mb;
        let mut row = self.cols.start_row(t, &mb.energies(x), mb.hamiltonian(x));
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
        for &j in &self.reactions {
            row.extend_from_slice(mb.reaction(j, x));
        }
        self.cols
            .push_row(row, t, x, mb, self.input, mb.position_drift(x));
    }
}

/// Integrates a built spatial model over `[simulation]` and summarises the run
/// (the private `integrate_recorded`).
pub fn simulate(m: &Mbs3dModel, b: &BuiltMbs3d, quiet: bool) -> Result<MbsRun> {
    let rec = Recorder::new(m, &b.mb, &b.input)?;
    let joints = (b.mb.n_constraints(), b.mb.joint_names());
    integrate_recorded(b, &m.simulation()?, quiet, rec, joints)
}
