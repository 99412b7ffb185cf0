//! The spatial multibody kind (`[bodies.*]` with a 3D body): [`Spatial`] in the registry
//! and the commands of a loaded model: `check` (bodies with their energies, joints,
//! consistent initial state), `run` and `modes` (constrained modes of the linearisation
//! about the consistent initial configuration).
use std::path::Path;

use anyhow::Result;

use phlex_mbs::spatial::Multibody3d;

use super::format::Mbs3dFile;
use super::model::{BuiltMbs3d, Mbs3dModel};
use super::simulate::simulate;
use crate::check::CheckReport;
use crate::kinds::mbs::loaded::{Loaded, MbsKind};
use crate::kinds::mbs::simulate::MbsRun;
use crate::output::{mode_rows, ModeTable};
use crate::registry::{LoadedModel, ModelKind, Tables};
use crate::source::ModelSource;

/// True if the top-level table `top` is a spatial multibody model: a `bodies` table with
/// at least one body of kind `rigid3d` or `beam3d`.
pub fn is_spatial(top: &toml::Table) -> bool {
    let Some(bodies) = top.get("bodies").and_then(|b| b.as_table()) else {
        return false;
    };
    bodies.values().any(|b| {
        b.get("kind")
            .and_then(|k| k.as_str())
            .is_some_and(|k| k == "rigid3d" || k == "beam3d")
    })
}

/// The spatial multibody kind: a `[bodies]` table with a body of kind `rigid3d` or
/// `beam3d` (every body of the file must then be 3D).
pub struct Spatial;

impl ModelKind for Spatial {
    fn name(&self) -> &'static str {
        "mbs3d"
    }
    fn tables(&self) -> Tables {
        Tables::all(&["bodies"])
    }
    fn detect(&self, top: &toml::Table) -> bool {
        is_spatial(top)
    }
    fn expects(&self) -> String {
        "[bodies] with a body of kind rigid3d or beam3d (spatial multibody)".into()
    }
    fn load<'a>(&self, src: &'a ModelSource) -> Result<Box<dyn LoadedModel + 'a>> {
        Ok(Box::new(Loaded::<Mbs3dFile>::load(src)?))
    }
}

impl MbsKind for Mbs3dFile {
    type Assembly = Multibody3d;
    const BODIES: &'static str = "spatial bodies";
    fn build(m: &Mbs3dModel) -> Result<BuiltMbs3d> {
        m.build()
    }
    fn simulate(m: &Mbs3dModel, b: &BuiltMbs3d, quiet: bool) -> Result<MbsRun> {
        simulate(m, b, quiet)
    }
}

impl LoadedModel for Loaded<Mbs3dFile> {
    fn check(&self) -> Result<CheckReport> {
        Ok(self.report())
    }

    fn run(&self, dir: &Path, quiet: bool) -> Result<()> {
        self.run_into(dir, quiet)
    }

    /// Constrained eigenfrequencies of the linearisation about the consistent initial
    /// configuration ([`phlex_mbs::modes`], paper 000 §6.2: the finite eigenvalues of the
    /// pencil $(E, \partial_x f)$, multipliers eliminated, eq. (51)); the redundant
    /// rotation coordinates and the configuration drift give zero eigenvalues, which are
    /// not reported. `count` modes (default 6).
    fn modes(&self, count: Option<usize>) -> Result<ModeTable> {
        let b = &self.built;
        let n = count.unwrap_or(6);
        let u0 = b.input.eval(0.0);
        let params = phlex_solve::eigen::EigenParams {
            n_modes: Some(n),
            ..Default::default()
        };
        let r = phlex_mbs::modes(&b.mb, &b.init.state, &u0, &params).map_err(|e| {
            anyhow::anyhow!("eigen-analysis of the linearised spatial multibody system failed: {e}")
        })?;
        Ok(ModeTable::new(&b.name, b.mb.n(), mode_rows(&r.modes, n)))
    }
}
