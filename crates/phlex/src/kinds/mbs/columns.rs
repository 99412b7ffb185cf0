//! The columns every multibody run records, planar or spatial: the energy account
//! [`LEADING`] (`t, kinetic, deformation, potential, force_elements, H, work_in,
//! dissipated`), optionally the energies of every body, the state of every force element
//! (length, tension, stored energy, dissipated power), the inputs, outputs and power
//! $u^\top y$ of the requested ports, and last the largest joint position drift. The total
//! input power $y^\top u$ and dissipated power $z^\top R z$ per sample feed the energy
//! account $H(t) - H(0) = W(t) - D(t)$ of [`super::integrate::summarize`] (paper 000
//! eq. (46)); the runners add their own columns (positions, elastic displacements, …)
//! between the energies and the reactions.
use std::collections::BTreeSet;
use std::ops::Range;

use phlex_core::{PhSystem, PortSet};
use phlex_mbs::{BodyAssembly, ElementState, EnergySplit, JointAssembly, JointDrift, MbsError};
use phlex_solve::InputFn;
use toml::Spanned;

use super::integrate::Recorded;

/// The leading columns of every run: time \[s\], the kinetic, deformation and potential
/// (gravity) energies of the bodies, the energy stored in the force elements, $H$, the
/// work supplied through the ports $W$ and the energy dissipated $D$ \[J\].
pub(crate) const LEADING: [&str; 8] = [
    "t",
    "kinetic",
    "deformation",
    "potential",
    "force_elements",
    "H",
    "work_in",
    "dissipated",
];
/// Index of $H$ in [`LEADING`].
pub(crate) const COL_H: usize = 5;
/// Index of the supplied work $W$ in [`LEADING`].
pub(crate) const COL_WORK: usize = 6;
/// Index of the dissipated energy $D$ in [`LEADING`].
pub(crate) const COL_DISSIPATED: usize = 7;

/// A recorded quantity of the force elements: its output group, the column suffix of a
/// translational and of a rotational element, and its value in an [`ElementState`].
pub(crate) struct ForceColumn {
    /// Output group (one plot each).
    pub group: &'static str,
    /// Column suffix: translational, rotational.
    pub suffix: [&'static str; 2],
    /// The value.
    pub value: fn(&ElementState) -> f64,
}

/// The recorded quantities of every force element, one group each: length \[m\] or angle
/// \[rad\], tension \[N\] or torque \[N m\], stored energy \[J\], dissipated power \[W\].
pub(crate) const FORCE_COLUMNS: [ForceColumn; 4] = [
    ForceColumn {
        group: "force_coordinates",
        suffix: ["length", "angle"],
        value: |s| s.length,
    },
    ForceColumn {
        group: "force_efforts",
        suffix: ["tension", "torque"],
        value: |s| s.tension,
    },
    ForceColumn {
        group: "force_energies",
        suffix: ["energy", "energy"],
        value: |s| s.energy,
    },
    ForceColumn {
        group: "force_dissipation",
        suffix: ["dissipation", "dissipation"],
        value: |s| s.dissipation,
    },
];

/// Column names and groups, and the samples recorded so far.
pub(crate) struct RunColumns {
    /// Column names.
    pub names: Vec<String>,
    /// Column ranges of the output groups.
    pub groups: Vec<(&'static str, Range<usize>)>,
    body_energies: bool,
    /// First column of the group being written.
    mark: usize,
    ports: Vec<Range<usize>>,
    z: Vec<f64>,
    rows: Vec<Vec<f64>>,
    power: Vec<f64>,
    dissipation: Vec<f64>,
    joint_drift: Vec<f64>,
    /// Force element names and the column of the first of their quantities.
    forces: (Vec<String>, usize),
}

impl RunColumns {
    /// The energy columns (of every body in `body_names` with `body_energies`).
    pub fn new(body_names: Vec<String>, body_energies: bool) -> Self {
        let mut names: Vec<String> = LEADING.iter().map(|s| s.to_string()).collect();
        if body_energies {
            for b in body_names {
                for k in ["kinetic", "deformation", "potential"] {
                    names.push(format!("{b}.{k}"));
                }
            }
        }
        Self {
            mark: names.len(),
            names,
            groups: Vec::new(),
            body_energies,
            ports: Vec::new(),
            z: Vec::new(),
            rows: Vec::new(),
            power: Vec::new(),
            dissipation: Vec::new(),
            joint_drift: Vec::new(),
            forces: (Vec::new(), 0),
        }
    }

    /// Closes the output group `group`: the columns added since the previous group (or the
    /// energies).
    pub fn close_group(&mut self, group: &'static str) {
        self.groups.push((group, self.mark..self.names.len()));
        self.mark = self.names.len();
    }

    /// Adds the columns `BODY.c` for every component `c` of `comps` of each body of
    /// `bodies` (`[output]` names with their spans) of `mb`, and returns the body indices;
    /// an unknown body is the error of [`BodyAssembly::find_body`].
    pub fn add_body_columns<A: BodyAssembly>(
        &mut self,
        mb: &A,
        bodies: &[Spanned<String>],
        comps: &[&str],
    ) -> Result<Vec<usize>, MbsError> {
        let mut indices = Vec::with_capacity(bodies.len());
        for b in bodies {
            indices.push(mb.find_body(b.get_ref())?);
            for c in comps {
                self.names.push(format!("{}.{c}", b.get_ref()));
            }
        }
        Ok(indices)
    }

    /// Adds the reaction columns `JOINT.lambda_ROW` (one per constraint row of the joint,
    /// [`JointAssembly::joint_row_labels`]) of each joint of `joints` of `mb`, and returns
    /// the joint indices.
    pub fn add_reactions<A: JointAssembly>(
        &mut self,
        mb: &A,
        joints: &[Spanned<String>],
    ) -> Result<Vec<usize>, MbsError> {
        let mut indices = Vec::with_capacity(joints.len());
        for r in joints {
            let j = mb.joint_index(r.get_ref())?;
            for lab in mb.joint_row_labels(j) {
                self.names.push(format!("{}.lambda_{lab}", r.get_ref()));
            }
            indices.push(j);
        }
        Ok(indices)
    }

    /// Adds the columns of the force elements `names` (`rotational[e]`: element `e` is
    /// rotational) of [`FORCE_COLUMNS`]: `NAME.length` \[m\] or `NAME.angle` \[rad\],
    /// `NAME.tension` \[N\] or `NAME.torque` \[N m\], `NAME.energy` \[J\],
    /// `NAME.dissipation` \[W\], one output group per quantity.
    pub fn add_force_elements(&mut self, names: Vec<String>, rotational: &[bool]) {
        let first = self.names.len();
        for c in &FORCE_COLUMNS {
            for (n, &r) in names.iter().zip(rotational) {
                self.names.push(format!("{n}.{}", c.suffix[usize::from(r)]));
            }
            self.close_group(c.group);
        }
        self.forces = (names, first);
    }

    /// Appends the force-element columns of the states `s` to `row`.
    pub fn record_force_elements(row: &mut Vec<f64>, s: &[(String, ElementState)]) {
        for c in &FORCE_COLUMNS {
            row.extend(s.iter().map(|(_, e)| (c.value)(e)));
        }
    }

    /// Adds the input, output and power columns of each requested port of `ports` (names
    /// as written in `[output] ports`, with their spans): $u_k$, $y_k$ and $u^\top y$ of the
    /// port's range in the port set `set`. An unknown port is an error at its span that
    /// lists the ports.
    pub fn add_ports(
        &mut self,
        ports: &[Spanned<String>],
        set: &PortSet,
    ) -> Result<(), (Range<usize>, String)> {
        for p in ports {
            let name = p.get_ref();
            let range = set.range(name).map_err(|e| {
                let list = set.names().join(", ");
                (p.span(), format!("output.ports: {e}; ports: {list}"))
            })?;
            for k in 0..range.len() {
                self.names.push(format!("{name}.u{k}"));
            }
            for k in 0..range.len() {
                self.names.push(format!("{name}.y{k}"));
            }
            self.names.push(format!("{name}.power"));
            self.ports.push(range);
        }
        Ok(())
    }

    /// Closes the group `ports` and the columns with `drift`, for a system of `n_states`
    /// states and `n_joints` joints; a column name that appears twice is an error (the
    /// message ends with `hint`, how to rename).
    pub fn finish(&mut self, n_states: usize, n_joints: usize, hint: &str) -> Result<(), String> {
        self.close_group("ports");
        self.names.push("drift".into());
        self.z = vec![0.0; n_states];
        self.joint_drift = vec![0.0; n_joints];
        let mut seen = BTreeSet::new();
        match self.names.iter().find(|n| !seen.insert(n.as_str())) {
            Some(dup) => Err(format!("output: column '{dup}' is produced twice ({hint})")),
            None => Ok(()),
        }
    }

    /// A new sample row starting with `t`, the energies `e` of the bodies, the energy
    /// `v` stored in the force elements and $H$ = `h` (the work and dissipation columns are
    /// filled in by the energy account).
    pub fn start_row(&self, t: f64, e: &[(String, EnergySplit)], v: f64, h: f64) -> Vec<f64> {
        let mut row = Vec::with_capacity(self.names.len());
        let (k, d, p) = e.iter().fold((0.0, 0.0, 0.0), |a, (_, s)| {
            (a.0 + s.kinetic, a.1 + s.deformation, a.2 + s.potential)
        });
        row.extend_from_slice(&[t, k, d, p, v, h, 0.0, 0.0]);
        if self.body_energies {
            for (_, s) in e {
                row.extend_from_slice(&[s.kinetic, s.deformation, s.potential]);
            }
        }
        row
    }

    /// Completes and stores `row` at `(t, x)`: port columns, total input power $y^\top u$
    /// and dissipated power $z^\top R(x) z$ (from the effort, output and dissipation of
    /// `mb` with the inputs `input`), and the largest of the joint `drifts`.
    pub fn push_row<M: PhSystem + ?Sized>(
        &mut self,
        mut row: Vec<f64>,
        t: f64,
        x: &[f64],
        mb: &M,
        input: &InputFn,
        drifts: Vec<JointDrift>,
    ) {
        let mut total = 0.0;
        mb.effort(x, &mut self.z);
        let rz = phlex_core::sparse::mul_vec(&mb.dissipation(x), &self.z);
        self.dissipation
            .push(self.z.iter().zip(&rz).map(|(a, b)| a * b).sum());
        if mb.ports().total_dim() > 0 {
            let u = input.eval(t);
            let y = mb.output(x, &self.z);
            total = y.iter().zip(&u).map(|(a, b)| a * b).sum();
            for r in &self.ports {
                row.extend_from_slice(&u[r.clone()]);
                row.extend_from_slice(&y[r.clone()]);
                row.push(r.clone().map(|k| u[k] * y[k]).sum());
            }
        }
        self.power.push(total);
        let mut worst = 0.0f64;
        for (m, d) in self.joint_drift.iter_mut().zip(drifts) {
            *m = m.max(d.max_abs);
            worst = worst.max(d.max_abs);
        }
        row.push(worst);
        self.rows.push(row);
    }

    /// The recorded run.
    pub fn into_recorded(self) -> Recorded {
        Recorded {
            names: self.names,
            groups: self.groups,
            rows: self.rows,
            power: self.power,
            dissipation: self.dissipation,
            joint_drift: self.joint_drift,
            forces: self.forces,
        }
    }
}
