//! The planar multibody kind (`[bodies.*]` of planar kinds): [`Planar`] in the registry and
//! the commands of a loaded model: `check` (bodies, joints, consistent initial state),
//! `run`, `modes` (constrained modes of the linearisation about the initial configuration)
//! and `export --linearize` (the linear pHDAE of paper 000 eq. (49)).
use std::path::Path;

use anyhow::{bail, Context, Result};

use phlex_mbs::Multibody;

use super::format::MbsFile;
use super::model::{BuiltMbs, MbsModel};
use crate::check::CheckReport;
use crate::export::{LinInfo, Linear};
use crate::kinds::mbs::loaded::{Loaded, MbsKind};
use crate::kinds::mbs::simulate::{simulate, MbsRun};
use crate::kinds::mbs::spatial::is_spatial;
use crate::output::ModeTable;
use crate::registry::{LoadedModel, ModelKind, Tables};
use crate::source::ModelSource;

/// The planar multibody kind: a `[bodies]` table whose bodies are all planar (no kind
/// `rigid3d` or `beam3d`).
pub struct Planar;

impl ModelKind for Planar {
    fn name(&self) -> &'static str {
        "mbs"
    }
    fn tables(&self) -> Tables {
        Tables::all(&["bodies"])
    }
    fn detect(&self, top: &toml::Table) -> bool {
        self.tables().matches(top) && !is_spatial(top)
    }
    fn expects(&self) -> String {
        "[bodies] of kinds rigid and beam (planar multibody)".into()
    }
    fn load<'a>(&self, src: &'a ModelSource) -> Result<Box<dyn LoadedModel + 'a>> {
        Ok(Box::new(Loaded::<MbsFile>::load(src)?))
    }
}

impl MbsKind for MbsFile {
    type Assembly = Multibody;
    const BODIES: &'static str = "bodies";
    fn build(m: &MbsModel) -> Result<BuiltMbs> {
        m.build()
    }
    fn simulate(m: &MbsModel, b: &BuiltMbs, quiet: bool) -> Result<MbsRun> {
        simulate(m, b, quiet)
    }
}

impl LoadedModel for Loaded<MbsFile> {
    fn check(&self) -> Result<CheckReport> {
        Ok(self.report())
    }

    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        self.run_into(dir, quiet)
    }

    /// Constrained eigenfrequencies of the linearisation about the (consistent) initial
    /// configuration.
    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let (m, b) = (&self.model, &self.built);
        let n = count.unwrap_or(m.spec.modes.count);
        let mut t = ModeTable::new(&b.name, b.mb.n(), m.modes(b, n)?);
        t.constraints = Some(b.mb.n_constraints());
        t.what = "constrained modes about the initial configuration";
        Ok(t)
    }

    /// The linear pHDAE of paper 000 eq. (49) about the consistent initial state
    /// ([`phlex_mbs::ph_linearization`]: velocities, stresses and multipliers;
    /// configuration omitted).
    fn linear(&self, linearize: bool) -> Result<Linear> {
        let (m, b) = (&self.model, &self.built);
        if !linearize {
            bail!(
                "{}: a multibody model is nonlinear; add --linearize to export its linearisation about the consistent initial state (paper 000 eq. (49))",
                m.file
            );
        }
        let u0 = b.input.eval(0.0);
        let lin = phlex_mbs::ph_linearization(&b.mb, &b.init.state, &u0)
            .map_err(|e| m.convert(e))
            .context("linearisation about the initial state failed")?;
        Ok(Linear {
            name: b.name.clone(),
            kind: "planar multibody system linearised about its consistent initial state",
            linearization: Some(LinInfo {
                about: "consistent initial state (zero velocities required)",
                omitted: "configuration variables: body poses, elastic displacements, joint angles, driver targets (paper 000 eq. (49))",
                neglected_coupling: lin.neglected_coupling,
                note: "neglected_coupling = max|df/dq| / max|df/dp|: 0 without gravity and prestress; otherwise the geometric stiffness is not in the exported system (`phlex modes` keeps it)",
            }),
            flexible: Some(lin.flexible.clone()),
            system: lin.system,
        })
    }
}
