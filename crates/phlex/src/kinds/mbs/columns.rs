//! The columns every multibody run records, planar or spatial: `t, kinetic, deformation,
//! potential, H, work_in`, optionally the energies of every body, the inputs, outputs and
//! power $u^\top y$ of the requested ports, and last the largest joint position drift. The
//! total input power per sample feeds the energy account $H(t) - H(0) = W(t)$ of
//! [`super::integrate::summarize`] (paper 000 eq. (46)); the runners add their own columns
//! (positions, elastic displacements, reactions, …) between the energies and the ports.
use std::collections::BTreeSet;
use std::ops::Range;

use phlex_core::{PhSystem, PortSet};
use phlex_mbs::{BodyAssembly, EnergySplit, JointAssembly, JointDrift, MbsError};
use phlex_solve::InputFn;
use toml::Spanned;

use super::integrate::Recorded;

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
    joint_drift: Vec<f64>,
}

impl RunColumns {
    /// The energy columns (of every body in `body_names` with `body_energies`).
    pub fn new(body_names: Vec<String>, body_energies: bool) -> Self {
        let mut names: Vec<String> = ["t", "kinetic", "deformation", "potential", "H", "work_in"]
            .iter()
            .map(|s| s.to_string())
            .collect();
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
            joint_drift: Vec::new(),
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

    /// A new sample row starting with `t`, the energies `e` of the bodies and $H$ = `h`
    /// (the work column is filled in by the energy account).
    pub fn start_row(&self, t: f64, e: &[(String, EnergySplit)], h: f64) -> Vec<f64> {
        let mut row = Vec::with_capacity(self.names.len());
        let (k, d, p) = e.iter().fold((0.0, 0.0, 0.0), |a, (_, s)| {
            (a.0 + s.kinetic, a.1 + s.deformation, a.2 + s.potential)
        });
        row.extend_from_slice(&[t, k, d, p, h, 0.0]);
        if self.body_energies {
            for (_, s) in e {
                row.extend_from_slice(&[s.kinetic, s.deformation, s.potential]);
            }
        }
        row
    }

    /// Completes and stores `row` at `(t, x)`: port columns and total input power (from
    /// the effort and output of `mb` with the inputs `input`), and the largest of the
    /// joint `drifts`.
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
        if mb.ports().total_dim() > 0 {
            let u = input.eval(t);
            mb.effort(x, &mut self.z);
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
            joint_drift: self.joint_drift,
        }
    }
}
