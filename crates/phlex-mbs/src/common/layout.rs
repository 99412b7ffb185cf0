//! The global state and port layout of an assembled multibody pHDAE (paper 000 eq. (46)),
//! shared by the planar [`crate::Multibody`] and the spatial [`crate::spatial::Multibody3d`]:
//! the body states $x_b$ body by body, then the energy-free joint states $\theta_j$ joint
//! by joint (block `"<joint>.<name>"`, identity rows of $E$), then the length states of the
//! force elements (block `"<element>.length"`, identity rows of $E$), then one multiplier block
//! `"<joint>.lambda"` per joint (index 2, zero rows of $E$); the ports are the loads, then
//! the prescribed-velocity joints.
use phlex_core::sparse::SparseMat;
use phlex_core::{Port, PortSet, Triplets, VarBlock};

use crate::error::MbsError;
use crate::planar::load::Frame;

/// What the layout needs of a joint.
pub(crate) struct JointSlots {
    /// Joint name.
    pub name: String,
    /// Number of energy-free joint states.
    pub n_extra: usize,
    /// Block suffix and meaning of the energy-free joint states.
    pub extra: (&'static str, &'static str),
    /// Constraint rows (multipliers).
    pub n_rows: usize,
    /// Meaning of the multipliers.
    pub multiplier_meaning: &'static str,
    /// Components of the prescribed velocity (0 for a joint without one).
    pub n_inputs: usize,
}

/// Offsets, blocks, constant descriptor and ports of the assembled system.
pub(crate) struct Layout {
    pub body_off: Vec<usize>,
    pub extra_off: Vec<usize>,
    /// First length state of the force elements.
    pub force_off: usize,
    pub lam_off: Vec<usize>,
    pub n: usize,
    pub n_rows: usize,
    pub blocks: Vec<VarBlock>,
    /// $E = \mathrm{diag}(E_b, I, 0)$.
    pub E: SparseMat,
    /// First input of every load.
    pub load_in: Vec<usize>,
    /// First input of every joint (meaningful for joints with a prescribed velocity).
    pub joint_in: Vec<usize>,
    pub ports: PortSet,
}

/// Units of a load port: the effort (force and torque) and the flow (velocity and angular
/// velocity) components.
pub(crate) struct LoadUnits {
    pub dim: usize,
    /// What the velocity is of ("point", "port").
    pub at: &'static str,
    pub force: &'static str,
    pub velocity: &'static str,
}

/// The port of a load `name` at `body.port` in `frame`.
pub(crate) fn load_port(name: &str, at: (&str, &str), frame: Frame, units: &LoadUnits) -> Port {
    let frame = match frame {
        Frame::Body => "body frame",
        Frame::Inertial => "inertial frame",
    };
    Port::new(
        name.to_string(),
        units.dim,
        format!(
            "force and torque at {}.{} ({frame}) [{}]",
            at.0, at.1, units.force
        ),
        format!(
            "velocity and angular velocity of the {} ({frame}) [{}]",
            units.at, units.velocity
        ),
    )
}

/// Lays out the state and the ports. `bodies`: `(n_local, blocks, E_b)` per body;
/// `forces`: the names of the force elements (one length state each);
/// `load_ports`: one port per load (all of dimension `load_dim`); `drive`: the two
/// descriptions of a prescribed-velocity port.
///
/// Errors: two ports of the same name ([`MbsError::DuplicateName`]).
pub(crate) fn lay_out<'a>(
    bodies: impl Iterator<Item = (usize, &'a [VarBlock], &'a SparseMat)>,
    joints: &[JointSlots],
    forces: &[String],
    load_ports: Vec<Port>,
    load_dim: usize,
    drive: (&str, &str),
) -> Result<Layout, MbsError> {
    let mut off = 0;
    let mut body_off = Vec::new();
    let mut blocks = Vec::new();
    let mut body_E = Vec::new();
    for (n_local, b_blocks, e) in bodies {
        body_off.push(off);
        off += n_local;
        blocks.extend(b_blocks.iter().cloned());
        body_E.push(e);
    }
    let mut extra_off = Vec::with_capacity(joints.len());
    for j in joints {
        extra_off.push(off);
        off += j.n_extra;
        if j.n_extra > 0 {
            let (name, meaning) = j.extra;
            blocks.push(VarBlock::differential(
                format!("{}.{name}", j.name),
                meaning,
                j.n_extra,
            ));
        }
    }
    let force_off = off;
    for name in forces {
        blocks.push(VarBlock::differential(
            format!("{name}.length"),
            "length of the spring-damper [m]",
            1,
        ));
    }
    off += forces.len();
    let mut lam_off = Vec::with_capacity(joints.len());
    let mut n_rows = 0;
    for j in joints {
        lam_off.push(off);
        off += j.n_rows;
        n_rows += j.n_rows;
        blocks.push(VarBlock::algebraic(
            format!("{}.lambda", j.name),
            j.multiplier_meaning,
            j.n_rows,
            2,
        ));
    }
    let n = off;
    let mut t = Triplets::new(n, n);
    for (e, o) in body_E.iter().zip(&body_off) {
        t.push_block(*o, *o, e, 1.0);
    }
    for (j, o) in joints.iter().zip(&extra_off) {
        for k in 0..j.n_extra {
            t.push(o + k, o + k, 1.0);
        }
    }
    for k in 0..forces.len() {
        t.push(force_off + k, force_off + k, 1.0);
    }
    let E = t.build();
    let load_in: Vec<usize> = (0..load_ports.len()).map(|l| l * load_dim).collect();
    let mut cursor = load_dim * load_ports.len();
    let mut port_list = load_ports;
    let mut joint_in = Vec::with_capacity(joints.len());
    for j in joints {
        joint_in.push(cursor);
        if j.n_inputs > 0 {
            cursor += j.n_inputs;
            port_list.push(Port::new(j.name.clone(), j.n_inputs, drive.0, drive.1));
        }
    }
    let ports = PortSet::from_ports(port_list).map_err(|e| match e {
        phlex_core::CoreError::DuplicateName(name) => MbsError::DuplicateName {
            what: "load/joint port".into(),
            name,
        },
        other => MbsError::Core(other),
    })?;
    Ok(Layout {
        body_off,
        extra_off,
        force_off,
        lam_off,
        n,
        n_rows,
        blocks,
        E,
        load_in,
        joint_in,
        ports,
    })
}

/// `Type { fields }` with the fields of a [`Layout`] (`body_off`, `extra_off`, `lam_off`,
/// `n`, `n_rows`, `blocks`, `E`, `load_in`, `joint_in`, `ports`) taken from `$lay`, the
/// force elements `$forces` at the layout's offset, and the others given by name.
macro_rules! with_layout {
    ($lay:ident, $forces:expr, $ty:ident { $($field:ident),* $(,)? }) => {
        $ty {
            forces: crate::common::force_element::ForceElements {
                elements: $forces,
                offset: $lay.force_off,
                released_multipliers: Vec::new(),
            },
            body_off: $lay.body_off,
            extra_off: $lay.extra_off,
            lam_off: $lay.lam_off,
            n: $lay.n,
            n_rows: $lay.n_rows,
            blocks: $lay.blocks,
            E: $lay.E,
            load_in: $lay.load_in,
            joint_in: $lay.joint_in,
            ports: $lay.ports,
            $($field),*
        }
    };
}
pub(crate) use with_layout;
