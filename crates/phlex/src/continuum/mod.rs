//! What the continuum kinds share (plates, plate assemblies, elasticity, acoustics,
//! shallow water, the thermal rods and the thermoelastic beam): field expressions, 2D mesh
//! keys, `[output]` tables, `[[input]]` on ports, boundary damping injection and the
//! `phlex run` driver on the shared `[simulation]` driver ([`crate::integration`]).
mod expr;
mod feedback;
mod inputs;
mod mesh;
mod output;
mod run;
mod tables;

pub use expr::FieldFn;
pub use feedback::{feedback_phase, inverse_trace_gain, join_ledgers, DampingSpec, FeedbackPhase};
pub use inputs::port_inputs;
pub use mesh::{extent, LineSpec, MeshSpec};
pub use output::{FieldOutput, FieldProbe, LineOutput, LineProbe, PointProbe};
pub use run::{field_simulation, no_vtk_snapshots, run_field, ColumnValues, Columns, FieldRun};
pub use tables::{check_finite_initial, FieldFile, FieldTables, InitialFields};
