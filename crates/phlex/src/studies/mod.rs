//! Reproductions of the seed studies (convergence tables, motion planning), shared by the
//! tests (fast variants) and the examples (full tables, plots).
//!
//! | module | study |
//! |---|---|
//! | [`eb_convergence`](mod@eb_convergence) | Euler–Bernoulli convergence, thesis 004 §7.4.1, Tables B.1–B.5 |
//! | [`motion_planning`](mod@motion_planning) | EB motion planning with mixed boundary conditions, thesis 004 §8.2.1 |
//!
//! [`study_args`] reads the command line of the study examples.
mod args;
pub mod eb_convergence;
pub mod error;
pub mod motion_planning;

pub use args::study_args;
pub use eb_convergence::{
    eb_convergence, eb_run, thesis_meshes, thesis_norms, thesis_reference, Comparison,
    ConvergenceRow, ConvergenceTable, EbBeam, EbConvergenceSetup, EbRun, InitialState, KappaColumn,
    LoadSampling, Norm, ReferenceRow, ReferenceTable,
};
pub use error::StudyError;
pub use motion_planning::{
    motion_planning, motion_planning_model, Controls, Formulation, Integrator,
    MotionPlanningMethod, MotionPlanningRun, MotionPlanningSetup,
};
