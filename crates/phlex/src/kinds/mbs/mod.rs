//! The multibody kinds: planar ([`planar`], registry entry [`Planar`]) and spatial
//! ([`spatial`], [`Spatial`]) `[bodies.*]` / `[joints.*]` model files (format in
//! `docs/model-format-mbs.md`), and what both share: the lines of the file for errors
//! (`source`), the integration over `[simulation]` (`integrate`), the recorded columns
//! (`columns`), the run summary, plots and integrator settings with the planar recorder
//! ([`simulate`]), the built model ([`built`]), the parsed file with its text ([`text`]), the force elements
//! of `[forces]` ([`forces`]), the loaded model
//! with the `check` and `run` commands (`loaded`) and the files a run writes and the `phlex
//! check` report (`run`).
pub mod built;
pub(crate) mod columns;
pub mod forces;
pub(crate) mod integrate;
pub(crate) mod keys;
pub(crate) mod loaded;
pub(crate) mod placed;
pub mod planar;
pub(crate) mod record;
pub(crate) mod run;
pub mod simulate;
pub(crate) mod source;
pub mod spatial;
pub mod text;

pub use built::Built;
pub use planar::{BuiltMbs, MbsModel, Planar};
pub use simulate::{MbsRun, MbsSummary};
pub use spatial::{BuiltMbs3d, Mbs3dModel, Spatial};
pub use text::{MbsFormat, ModelText};
