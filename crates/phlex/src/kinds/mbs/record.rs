//! The recorder of a multibody run, written once over [`JointAssembly`] for planar and
//! spatial models: the energy columns, the columns of the dimension ([`DimColumns`]:
//! positions, elastic displacements, velocities, joint states), the joint reactions, the
//! force elements, the ports and the drift ([`RunColumns`]), and the run itself ([`simulate_recorded`]).
use anyhow::Result;
use phlex_mbs::JointAssembly;
use phlex_solve::InputFn;
use toml::Spanned;

use super::built::Built;
use super::columns::RunColumns;
use super::integrate::{integrate_recorded, Recorded, Recording};
use super::simulate::MbsRun;
use super::text::{MbsFormat, ModelText};

/// The columns a dimension records between the energies and the reactions.
pub(crate) trait DimColumns<A> {
    /// How to rename a column produced twice (the end of the error message).
    const HINT: &'static str;
    /// Appends the columns of the sample `x` of `mb` to `row`.
    fn record(&self, mb: &A, x: &[f64], row: &mut Vec<f64>);
}

/// The `[output]` keys both formats share: `body_energies` (per-body energy columns),
/// `reactions` (joints whose multipliers are recorded) and `ports` (whose input, output and
/// power are recorded).
pub(crate) type SharedOutput<'a> = (bool, &'a [Spanned<String>], &'a [Spanned<String>]);

/// Precomputed output columns of a run of `mb`.
struct Recorder<'a, A, C> {
    mb: &'a A,
    input: &'a InputFn,
    dim: C,
    reactions: Vec<usize>,
    cols: RunColumns,
}

impl<A: JointAssembly, C: DimColumns<A>> Recording for Recorder<'_, A, C> {
    fn into_recorded(self) -> Recorded {
        self.cols.into_recorded()
    }

    fn record(&mut self, t: f64, x: &[f64]) {
        let mb = self.mb;
        let forces = mb.force_element_states(x);
        let stored = forces.iter().map(|(_, s)| s.energy).sum();
        let mut row = self
            .cols
            .start_row(t, &mb.bodies_energies(x), stored, mb.hamiltonian(x));
        self.dim.record(mb, x, &mut row);
        for &j in &self.reactions {
            row.extend_from_slice(mb.reaction(j, x));
        }
        RunColumns::record_force_elements(&mut row, &forces);
        self.cols
            .push_row(row, t, x, mb, self.input, mb.position_drift(x));
    }
}

/// Integrates the built model `b` of `m` over `[simulation]` and summarises the run,
/// recording the energies, the columns `dim` adds after them (given the columns so far),
/// the reactions of the shared `[output]` keys, the force elements, the ports of the
/// shared `[output]` keys and the drift.
pub(crate) fn simulate_recorded<F: MbsFormat, A: JointAssembly, C: DimColumns<A>>(
    m: &ModelText<F>,
    b: &Built<A>,
    quiet: bool,
    (body_energies, reactions, ports): SharedOutput<'_>,
    dim: impl FnOnce(&mut RunColumns) -> Result<C>,
) -> Result<MbsRun> {
    let mb = &b.mb;
    let mut cols = RunColumns::new(mb.names_of_bodies(), body_energies);
    let dim = dim(&mut cols)?;
    let reactions = cols
        .add_reactions(mb, reactions)
        .map_err(|e| m.convert(e))?;
    cols.close_group("reactions");
    cols.add_force_elements(mb.force_element_names(), &mb.force_elements_rotational());
    cols.add_ports(ports, mb.ports())
        .map_err(|(span, e)| m.err(span, e))?;
    cols.finish(mb.n_states(), mb.joint_names().len(), C::HINT)
        .map_err(|e| m.err_line(m.section_line("output"), e))?;
    let rec = Recorder {
        mb,
        input: &b.input,
        dim,
        reactions,
        cols,
    };
    integrate_recorded(b, &m.simulation()?, quiet, rec)
}
