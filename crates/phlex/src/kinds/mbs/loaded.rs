//! [`Loaded`]: a multibody model file parsed, built and made consistent, planar or spatial
//! ([`MbsKind`]), and the commands both kinds answer alike: `phlex check` (bodies with
//! their energies, joints, the consistent initial state of paper 000 §6.3) and `phlex run`
//! (integration over `[simulation]`, the files of a run).
use std::path::Path;

use anyhow::Result;
use phlex_mbs::JointAssembly;

use super::built::Built;
use super::run::{announce_run, check_report, write_run};
use super::simulate::MbsRun;
use super::text::{MbsFormat, ModelText};
use crate::check::CheckReport;
use crate::source::ModelSource;

/// A multibody file format with its assembly: how a parsed file is built and simulated.
pub trait MbsKind: MbsFormat {
    /// The assembled pHDAE (paper 000 eq. (46)): [`phlex_mbs::Multibody`] or
    /// [`phlex_mbs::spatial::Multibody3d`].
    type Assembly: JointAssembly;
    /// The noun of the bodies in the line announcing a run.
    const BODIES: &'static str;
    /// Builds the system of `m` and its consistent initial state (`[initial]`).
    fn build(m: &ModelText<Self>) -> Result<Built<Self::Assembly>>;
    /// Integrates the built model `b` of `m` over `[simulation]`, recording the outputs of
    /// `[output]`.
    fn simulate(m: &ModelText<Self>, b: &Built<Self::Assembly>, quiet: bool) -> Result<MbsRun>;
}

/// A parsed, built and consistently initialised multibody model.
pub(crate) struct Loaded<F: MbsKind> {
    /// The parsed file.
    pub model: ModelText<F>,
    /// The built model.
    pub built: Built<F::Assembly>,
}

impl<F: MbsKind> Loaded<F> {
    /// Parses, validates and builds the model file `src`.
    pub fn load(src: &ModelSource) -> Result<Self> {
        let model = ModelText::<F>::from_source(src)?;
        let built = F::build(&model)?;
        Ok(Self { model, built })
    }

    /// The `phlex check` report: bodies, joints with their constraint rows and the
    /// corrections of the consistent initialisation.
    pub fn report(&self) -> CheckReport {
        let (b, mb) = (&self.built, &self.built.mb);
        let joints = (mb.joint_names(), mb.n_constraints());
        check_report(F::KIND, &b.name, mb, joints, &b.init)
    }

    /// Integrates from the consistent initial state and writes `timeseries.csv`,
    /// `summary.json` and SVG plots into `dir`.
    pub fn run_into(&self, dir: &Path, quiet: bool) -> Result<()> {
        let (m, b) = (&self.model, &self.built);
        m.simulation()?;
        let counts = (b.mb.joint_names().len(), b.mb.n_constraints());
        announce_run(quiet, (&b.name, F::BODIES), &b.mb, counts);
        let r = F::simulate(m, b, quiet)?;
        write_run(dir, r, m.plots_of())
    }
}
