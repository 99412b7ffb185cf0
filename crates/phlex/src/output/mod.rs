//! What the commands write and print: result files written atomically
//! ([`OutputFiles`], [`write_atomic`]), time series as CSV, SVG plots, the progress of a
//! run, the run summary (`summary.json` and its table) and the `phlex modes` table.
mod files;
mod modes;
mod plots;
mod progress;
mod summary;
mod svg;
mod timeseries;

pub use files::{default_out, write_atomic, OutputFiles, RunReport};
pub use modes::{frequencies, frequencies_with, mode_rows, mode_table, ModeRow, ModeTable};
pub use plots::{columns_plot, energy_plot, power_balance_plot};
pub use progress::Progress;
pub use summary::{balance_rows, sci, table, work_rows, EnergyBalance, RunSummary};
pub use svg::{svg_loglog, svg_plot};
pub use timeseries::TimeSeries;
