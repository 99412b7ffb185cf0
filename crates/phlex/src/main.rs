//! The `phlex` command line: `run`, `modes`, `check`.
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Port-Hamiltonian flexible multibody dynamics.
#[derive(Parser)]
#[command(name = "phlex", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Simulate a model; writes timeseries.csv, summary.json and SVG plots into DIR.
    Run {
        /// Model file (TOML).
        model: PathBuf,
        /// Output directory (default: out/<model file stem>).
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// No progress bar.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Eigenfrequencies of the model's pH pencil (table, and JSON with --json).
    Modes {
        /// Model file (TOML).
        model: PathBuf,
        /// Number of frequencies (default: [modes] count of the model, else 6).
        #[arg(short = 'n', long)]
        count: Option<usize>,
        /// Also write the frequencies as JSON to this file.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Reduce the elastic part to N modes (modal) or N moments (krylov) per body and
        /// compare full vs reduced frequencies (paper 000 eq. (50)).
        #[arg(long, value_name = "N")]
        reduce: Option<usize>,
        /// Reduction method with --reduce: modal or krylov.
        #[arg(long, default_value = "modal", requires = "reduce")]
        method: String,
        /// Krylov expansion point s0 [rad/s] with --reduce N --method krylov.
        #[arg(long, default_value_t = 0.0, requires = "reduce")]
        s0: f64,
    },
    /// Export the linear pH system (E, J, R, B, blocks, ports) as system.json + Matrix
    /// Market files into DIR.
    Export {
        /// Model file (TOML).
        model: PathBuf,
        /// Output directory (default: out/<model file stem>/linear).
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// Linearise a multibody model about its consistent initial state (eq. (49)).
        #[arg(long)]
        linearize: bool,
        /// Eliminate the Lagrange multipliers (null-space ODE, eq. (51)); also writes T.mtx.
        #[arg(long)]
        nullspace: bool,
    },
    /// Identify a linear model from input/output data (OKID + ERA/DC, or N4SID): modal
    /// table, realisation, singular values and FRF plots.
    Identify {
        /// CSV file with a header row (one column per signal).
        data: PathBuf,
        /// Input column names, comma separated.
        #[arg(long, value_delimiter = ',', required = true)]
        inputs: Vec<String>,
        /// Output column names, comma separated.
        #[arg(long, value_delimiter = ',', required = true)]
        outputs: Vec<String>,
        /// Sampling time [s].
        #[arg(long)]
        dt: f64,
        /// Model order (default: automatic from the singular-value gap).
        #[arg(long)]
        order: Option<usize>,
        /// Method: okid (OKID + ERA/DC, default) or n4sid.
        #[arg(long, default_value = "okid")]
        method: String,
        /// Output directory (default: out/<data file stem>).
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Exergetic port-Hamiltonian (EPHS) tools.
    Ephs {
        #[command(subcommand)]
        command: EphsCommand,
    },
    /// Parse, validate and build a model, and check its pH structure; writes nothing.
    Check {
        /// Model file (TOML).
        model: PathBuf,
    },
}

#[derive(Subcommand)]
enum EphsCommand {
    /// Draw an interconnection pattern as SVG (round boxes, junction dots, port lines).
    Draw {
        /// EPHS model file (TOML).
        model: PathBuf,
        /// Pattern to draw (default: the model's top pattern).
        #[arg(long)]
        pattern: Option<String>,
        /// Output SVG file (default: out/<model stem>/pattern.svg).
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run { model, out, quiet } => phlex::app::run(&model, out.as_deref(), quiet),
        Command::Modes {
            model,
            count,
            json,
            reduce: Some(size),
            method,
            s0,
        } => phlex::export::reduced_modes(&phlex::export::ReducedModesArgs {
            model: &model,
            size,
            method: &method,
            s0,
            count: count.unwrap_or(6),
            json: json.as_deref(),
        }),
        Command::Modes {
            model, count, json, ..
        } => phlex::app::modes(&model, count, json.as_deref()),
        Command::Export {
            model,
            out,
            linearize,
            nullspace,
        } => {
            let out = out.unwrap_or_else(|| phlex::app::default_out(&model).join("linear"));
            phlex::export::export(&phlex::export::ExportArgs {
                model: &model,
                out: &out,
                linearize,
                nullspace,
            })
            .map(|files| {
                for f in files {
                    println!("  written {}", f.display());
                }
            })
        }
        Command::Check { model } => phlex::app::check(&model),
        Command::Ephs {
            command:
                EphsCommand::Draw {
                    model,
                    pattern,
                    out,
                },
        } => {
            let out = out.unwrap_or_else(|| phlex::app::default_out(&model).join("pattern.svg"));
            phlex::kinds::ephs::draw(&model, pattern.as_deref(), &out)
        }
        Command::Identify {
            data,
            inputs,
            outputs,
            dt,
            order,
            method,
            out,
        } => {
            let out = out.unwrap_or_else(|| phlex::app::default_out(&data));
            phlex::identify::parse_method(&method)
                .and_then(|method| {
                    phlex::identify::identify_with_method(
                        &phlex::identify::IdentifyArgs {
                            data: &data,
                            inputs,
                            outputs,
                            dt,
                            order,
                            out: &out,
                        },
                        method,
                    )
                })
                .map(|rep| {
                    println!("{rep}");
                    println!("  results in {}", out.display());
                })
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(phlex::app::exit_code(&e))
        }
    }
}
