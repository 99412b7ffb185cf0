//! `phlex export` (the linear pH(DAE) as JSON + Matrix Market files) and
//! `phlex modes --reduce N` (full vs reduced frequencies).
//!
//! **Export.** A beam model (`[beam]`) is already linear: its [`LinearPhSystem`]
//! $E\dot x = (J - R)x + Bu$, $y = B^\top x$ is written as is. A planar multibody model
//! (`[bodies.*]`) is linearised about its consistent initial state (`--linearize`): the
//! linear pHDAE of paper 000 eq. (49) ([`phlex_mbs::ph_linearization`]: velocities, stresses
//! and multipliers; configuration omitted). With `--nullspace` the multipliers are
//! eliminated first (eq. (51), [`phlex_solve::nullspace`]) and the basis $T$ is written
//! too. Files in the output directory (each written atomically, after everything is
//! computed):
//!
//! | file | content |
//! |---|---|
//! | `system.json` | sizes, equations, blocks (name, meaning, kind, 0-based range), ports (name, dimension, input and output meaning, columns of $B$), matrix files |
//! | `E.mtx`, `J.mtx`, `R.mtx`, `B.mtx` | Matrix Market coordinate files ([`crate::matrix_market`]) |
//! | `T.mtx` | null-space basis, $x_d = T\xi$ (with `--nullspace`) |
//!
//! Python: `scipy.io.mmread("E.mtx")`; MATLAB/Octave: `mmread` (NIST `mmread.m`).
//!
//! **Reduced modes.** `phlex modes MODEL --reduce N [--method modal|krylov] [--s0 S]`
//! reduces the elastic part (the whole beam, or the elastic variables of each flexible
//! body of the linearised multibody system, rigid velocities and multipliers kept) with
//! [`phlex_solve::reduce`] (eq. (50)) and prints the first frequencies of the full and the
//! reduced system with their relative errors, and the transfer-function error at a few
//! frequencies.
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Serialize;

use phlex_core::{LinearPhSystem, VarKind};
use phlex_solve::eigen::EigenParams;
use phlex_solve::nullspace::{null_space_ode, NullSpaceParams};
use phlex_solve::reduce::{
    compare_frequencies, reduce, transfer_error, ReductionGroup, ReductionMethod,
};

use crate::matrix_market::write_mtx;
use crate::output::{write_atomic, OutputFiles};
use crate::source::ModelSource;

/// Arguments of `phlex export`.
#[derive(Debug, Clone)]
pub struct ExportArgs<'a> {
    /// Model file.
    pub model: &'a Path,
    /// Output directory.
    pub out: &'a Path,
    /// Linearise a multibody model about its consistent initial state (required for
    /// multibody models; no effect on linear beam models).
    pub linearize: bool,
    /// Eliminate the multipliers (null-space ODE, eq. (51)).
    pub nullspace: bool,
}

/// The linear system of a model file and what it is (given by the kind,
/// [`crate::registry::LoadedModel::linear`]).
pub struct Linear {
    /// Model name.
    pub name: String,
    /// What the system is (e.g. `"linear PFEM beam model"`).
    pub kind: &'static str,
    /// The linear pH(DAE).
    pub system: LinearPhSystem,
    /// Extra JSON about a linearisation.
    pub linearization: Option<LinInfo>,
    /// Flexible groups (multibody) for reduction: name and variables; `None`: the whole
    /// differential part is one group.
    pub flexible: Option<Vec<(String, Vec<usize>)>>,
}

/// What a linearisation about an operating point kept and left out (`system.json`).
#[derive(Debug, Clone, Serialize)]
pub struct LinInfo {
    /// The operating point.
    pub about: &'static str,
    /// The variables left out.
    pub omitted: &'static str,
    /// Relative size of the configuration coupling that is not in the system.
    pub neglected_coupling: f64,
    /// How to read `neglected_coupling`.
    pub note: &'static str,
}

/// The linear system of the model file at `path`, through its kind.
fn load_linear(path: &Path, linearize: bool) -> Result<Linear> {
    linear_of(&ModelSource::read(path)?, linearize)
}

/// The linear system of a model file already read (one typed parse, one build).
pub fn linear_of(src: &ModelSource, linearize: bool) -> Result<Linear> {
    let (kind, model) = crate::app::load(src)?;
    model
        .linear(linearize)
        .map_err(|e| crate::app::name_kind(src, kind, e))
}

#[derive(Serialize)]
struct BlockJson {
    name: String,
    meaning: String,
    kind: &'static str,
    dae_index: u8,
    /// 0-based, end exclusive.
    range: [usize; 2],
}

#[derive(Serialize)]
struct PortJson {
    name: String,
    dim: usize,
    input: String,
    output: String,
    /// Columns of B, 0-based, end exclusive.
    columns: [usize; 2],
}

#[derive(Serialize)]
struct MatrixJson {
    file: String,
    rows: usize,
    cols: usize,
    nnz: usize,
    property: &'static str,
}

#[derive(Serialize)]
struct NullSpaceJson {
    equation: &'static str,
    basis_file: &'static str,
    constraint_rank: usize,
    /// Original indices of the differential variables (rows of T), 0-based.
    differential_variables: Vec<usize>,
    /// Original indices of the eliminated multipliers, 0-based.
    multipliers: Vec<usize>,
    dropped_ports: Vec<String>,
}

#[derive(Serialize)]
struct SystemJson {
    format: &'static str,
    version: u32,
    model: String,
    model_file: String,
    kind: &'static str,
    equations: &'static str,
    index_convention: &'static str,
    n_states: usize,
    n_inputs: usize,
    matrices: Vec<(String, MatrixJson)>,
    blocks: Vec<BlockJson>,
    ports: Vec<PortJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    linearization: Option<LinInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nullspace: Option<NullSpaceJson>,
    readers: &'static str,
}

fn nnz(a: &phlex_core::SparseMat) -> usize {
    (0..a.ncols())
        .map(|j| {
            phlex_core::sparse::col_iter(a, j)
                .filter(|(_, v)| *v != 0.0)
                .count()
        })
        .sum()
}

/// `phlex export`: writes `system.json` and the Matrix Market files into `args.out`.
/// Returns the written paths.
pub fn export(args: &ExportArgs<'_>) -> Result<Vec<PathBuf>> {
    let lin = load_linear(args.model, args.linearize)?;
    let (system, ns) = if args.nullspace {
        let ode = null_space_ode(&lin.system, &NullSpaceParams::default())
            .context("null-space elimination of the multipliers failed")?;
        let info = NullSpaceJson {
            equation: "x_d = T xi, the multipliers eliminated: (T^T E T) xi' = T^T (J - R) T xi + T^T B u (paper 000 eq. (51))",
            basis_file: "T.mtx",
            constraint_rank: ode.constraint_rank,
            differential_variables: ode.differential.clone(),
            multipliers: ode.multipliers.clone(),
            dropped_ports: ode.dropped_ports.clone(),
        };
        (ode.system.clone(), Some((info, ode.basis)))
    } else {
        (lin.system, None)
    };
    let header = format!(
        "phlex export of '{}' ({}): E dx/dt = (J - R) x + B u, y = B^T x; see system.json",
        lin.name, lin.kind
    );
    let mut files = OutputFiles::new(args.out);
    let mut matrices = Vec::new();
    let mats: [(&str, &phlex_core::SparseMat, &'static str); 4] = [
        (
            "E",
            &system.E,
            "symmetric positive semidefinite (descriptor; H = x^T E x / 2)",
        ),
        ("J", &system.J, "skew-symmetric (structure)"),
        (
            "R",
            &system.R,
            "symmetric positive semidefinite (dissipation)",
        ),
        ("B", &system.B, "input map; output y = B^T x"),
    ];
    for (name, a, property) in mats {
        let file = format!("{name}.mtx");
        files.add(
            file.clone(),
            write_mtx(a, &format!("{header}\nmatrix {name}: {property}")).into_bytes(),
        );
        matrices.push((
            name.to_string(),
            MatrixJson {
                file,
                rows: a.nrows(),
                cols: a.ncols(),
                nnz: nnz(a),
                property,
            },
        ));
    }
    let nullspace = match ns {
        Some((info, T)) => {
            let Ts = phlex_core::sparse::from_dense(&T, 0.0);
            files.add(
                "T.mtx",
                write_mtx(
                    &Ts,
                    &format!("{header}\nnull-space basis T (orthonormal columns)"),
                )
                .into_bytes(),
            );
            matrices.push((
                "T".into(),
                MatrixJson {
                    file: "T.mtx".into(),
                    rows: Ts.nrows(),
                    cols: Ts.ncols(),
                    nnz: nnz(&Ts),
                    property: "orthonormal basis of ker G, x_d = T xi",
                },
            ));
            Some(info)
        }
        None => None,
    };
    let offsets = system.block_offsets();
    let blocks = system
        .blocks
        .iter()
        .enumerate()
        .map(|(k, b)| BlockJson {
            name: b.name.clone(),
            meaning: b.meaning.clone(),
            kind: match b.kind {
                VarKind::Differential => "differential",
                VarKind::Algebraic { .. } => "algebraic",
            },
            dae_index: match b.kind {
                VarKind::Differential => 0,
                VarKind::Algebraic { index } => index,
            },
            range: [offsets[k], offsets[k + 1]],
        })
        .collect();
    let ports = system
        .ports
        .iter()
        .zip(system.ports.ranges())
        .map(|(p, r)| PortJson {
            name: p.name.clone(),
            dim: p.dim,
            input: p.input.clone(),
            output: p.output.clone(),
            columns: [r.start, r.end],
        })
        .collect();
    let meta = SystemJson {
        format: "phlex linear port-Hamiltonian system",
        version: 1,
        model: lin.name.clone(),
        model_file: args.model.display().to_string(),
        kind: lin.kind,
        equations: "E dx/dt = (J - R) x + B u,  y = B^T x,  H(x) = x^T E x / 2;  J = -J^T, E = E^T >= 0, R = R^T >= 0; algebraic blocks (zero rows and columns of E) are Lagrange multipliers",
        index_convention: "block ranges and port columns are 0-based, end exclusive; Matrix Market indices are 1-based",
        n_states: system.n_states(),
        n_inputs: system.n_inputs(),
        matrices,
        blocks,
        ports,
        linearization: lin.linearization,
        nullspace,
        readers: "Python: scipy.io.mmread('E.mtx'); MATLAB/Octave: mmread('E.mtx') (NIST mmread.m); Julia: MatrixMarket.mmread",
    };
    files.add("system.json", serde_json::to_vec_pretty(&meta)?);
    files.write()
}

/// Arguments of `phlex modes --reduce N`.
#[derive(Debug, Clone)]
pub struct ReducedModesArgs<'a> {
    /// Model file.
    pub model: &'a Path,
    /// Modes (modal) or moments (Krylov) per reduced group.
    pub size: usize,
    /// `"modal"` or `"krylov"`.
    pub method: &'a str,
    /// Krylov expansion point \[rad/s\].
    pub s0: f64,
    /// Number of frequencies compared.
    pub count: usize,
    /// Optional JSON output.
    pub json: Option<&'a Path>,
}

/// One row of the reduced-modes table.
#[derive(Debug, Clone, Serialize)]
pub struct ReducedModeRow {
    /// Mode number (1-based).
    pub mode: usize,
    /// Full system ω \[rad/s\].
    pub omega_full: f64,
    /// Reduced system ω \[rad/s\].
    pub omega_reduced: f64,
    /// Relative error.
    pub relative_error: f64,
}

/// `phlex modes MODEL --reduce N`: full vs reduced frequencies (see the module docs).
pub fn reduced_modes(args: &ReducedModesArgs<'_>) -> Result<()> {
    let method = match args.method {
        "modal" => ReductionMethod::Modal { n_modes: args.size },
        "krylov" => ReductionMethod::Krylov {
            s0: args.s0,
            n_moments: args.size,
        },
        other => bail!("--method {other}: expected modal or krylov"),
    };
    if args.size == 0 {
        bail!("--reduce must satisfy N >= 1 (modes or moments per group), got 0");
    }
    let lin = load_linear(args.model, true)?;
    let sys = &lin.system;
    let groups: Vec<ReductionGroup> = match &lin.flexible {
        Some(f) if f.is_empty() => bail!(
            "{}: no flexible body: nothing to reduce (rigid velocities and multipliers are kept)",
            args.model.display()
        ),
        Some(f) => f
            .iter()
            .map(|(name, v)| ReductionGroup {
                name: format!("{name}.flexible"),
                variables: v.clone(),
                method,
            })
            .collect(),
        None => {
            let idx = sys.variable_indices();
            vec![ReductionGroup {
                name: "beam".into(),
                variables: (0..sys.n_states()).filter(|&i| idx[i] == 0).collect(),
                method,
            }]
        }
    };
    let red = reduce(sys, &groups).context("reduction failed")?;
    let cmp = compare_frequencies(sys, &red.system, args.count, &EigenParams::default())
        .context("eigen-analysis of the full or reduced system failed")?;
    let omegas: Vec<f64> = match cmp.full.as_slice() {
        [w1, w2, ..] => vec![0.1 * w1, 0.5 * w1, 0.5 * (w1 + w2)],
        [w1] => vec![0.1 * w1, 0.5 * w1],
        [] => Vec::new(),
    };
    let tf = if sys.n_inputs() > 0 && !omegas.is_empty() {
        transfer_error(sys, &red.system, &omegas).context("transfer-function evaluation failed")?
    } else {
        Vec::new()
    };
    println!(
        "{}: {} — {} states reduced to {} ({}; groups: {})",
        lin.name,
        lin.kind,
        sys.n_states(),
        red.system.n_states(),
        method.describe(),
        red.group_dims
            .iter()
            .map(|(n, d)| format!("{n} {d}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(l) = &lin.linearization {
        if l.neglected_coupling > 1e-10 {
            println!(
                "  note: the linear pHDAE (49) omits a configuration coupling of relative size {:.3e} (geometric stiffness); plain `phlex modes` keeps it",
                l.neglected_coupling
            );
        }
    }
    println!(
        "  {:>4}  {:>16}  {:>16}  {:>10}",
        "mode", "full [rad/s]", "reduced [rad/s]", "rel. error"
    );
    let rows: Vec<ReducedModeRow> = (0..cmp.relative_error.len())
        .map(|k| ReducedModeRow {
            mode: k + 1,
            omega_full: cmp.full[k],
            omega_reduced: cmp.reduced[k],
            relative_error: cmp.relative_error[k],
        })
        .collect();
    for r in &rows {
        println!(
            "  {:>4}  {:>16.8e}  {:>16.8e}  {:>10.3e}",
            r.mode, r.omega_full, r.omega_reduced, r.relative_error
        );
    }
    if cmp.full.len() > cmp.reduced.len() {
        println!(
            "  the reduced system has {} oscillation modes only (of {} requested)",
            cmp.reduced.len(),
            cmp.full.len()
        );
    }
    for (w, e) in omegas.iter().zip(&tf) {
        println!("  transfer function at ω = {w:.6e} rad/s: relative error {e:.3e}");
    }
    if let Some(j) = args.json {
        #[derive(Serialize)]
        struct Out<'a> {
            model: &'a str,
            method: String,
            states_full: usize,
            states_reduced: usize,
            modes: &'a [ReducedModeRow],
            transfer_omegas: &'a [f64],
            transfer_relative_errors: &'a [f64],
        }
        let bytes = serde_json::to_vec_pretty(&Out {
            model: &lin.name,
            method: method.describe(),
            states_full: sys.n_states(),
            states_reduced: red.system.n_states(),
            modes: &rows,
            transfer_omegas: if tf.is_empty() { &[] } else { &omegas },
            transfer_relative_errors: &tf,
        })?;
        write_atomic(j, &bytes)?;
        println!("  written {}", j.display());
    }
    Ok(())
}
