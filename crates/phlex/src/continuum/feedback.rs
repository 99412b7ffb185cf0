//! Boundary damping injection of the continuum models (`[[damping]]`, thesis 004
//! §8.1.1): the closed loop $u = -Ky$ on boundary ports switched on at $t_{on}$
//! ([`feedback_phase`]), the joined energy account of the open and closed phases
//! ([`join_ledgers`]) and the gain $K = k\,M_\Gamma^{-1}$ ([`inverse_trace_gain`]).
use phlex_core::LinearPhSystem;
use phlex_solve::signal::InputFn;
use serde::Deserialize;
use toml::Spanned;

use crate::error::{error_at, ModelError};

/// `[[damping]]` of a continuum model: boundary damping injection, the output feedback
/// $u = -Ky$ on a boundary port switched on at `t_on` (thesis 004 §8.1.1, Table 8.1). The
/// gain is $K = k\,M_\Gamma^{-1}$ with $M_\Gamma$ the mass matrix of the port's trace basis,
/// so that the input *function* is $-k$ times the conjugate trace (e.g. $\tilde q_n = -k\,w_t$
/// on a Kirchhoff `_qn` port); the closed loop has $R \mathrel{+}= BKB^\top \succeq 0$.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DampingSpec {
    /// The boundary port closed by the feedback.
    pub port: Spanned<String>,
    /// $k \ge 0$ (units: input over conjugate output, e.g. N s/m² on a shear-force port).
    pub gain: Spanned<f64>,
    /// Switch-on time \[s\] (default 0: damped from the start).
    pub t_on: Option<Spanned<f64>>,
}

/// The closed-loop phase of a run with boundary damping injection.
pub struct FeedbackPhase {
    /// Switch-on time \[s\] (a multiple of the time step).
    pub t_on: f64,
    /// The closed-loop system (damped ports removed, $R \mathrel{+}= BKB^\top$).
    pub system: LinearPhSystem,
    /// The inputs of its remaining ports.
    pub input: InputFn,
}

/// Builds the closed-loop phase of the `[[damping]]` entries: every damped port must exist,
/// gains be finite and $\ge 0$, all entries share one `t_on`, which is rounded to a multiple
/// of `dt`. `gain_of(port, k)` returns $K$ (model specific: it knows the trace mass).
pub fn feedback_phase(
    file: &str,
    text: &str,
    open: &LinearPhSystem,
    input: &InputFn,
    specs: &[DampingSpec],
    dt: f64,
    gain_of: &dyn Fn(&str, f64) -> Result<phlex_core::sparse::SparseMat, String>,
) -> Result<Option<FeedbackPhase>, ModelError> {
    let Some(first) = specs.first() else {
        return Ok(None);
    };
    let t_on = first.t_on.as_ref().map_or(0.0, |t| *t.get_ref());
    let mut closed = open.clone();
    let mut seen: Vec<&str> = Vec::new();
    for d in specs {
        let port = d.port.get_ref().as_str();
        let here =
            |m: String| error_at(file, text, d.port.span(), format!("damping '{port}': {m}"));
        if seen.contains(&port) {
            return Err(here(
                "the port is damped twice; give one [[damping]] per port".into(),
            ));
        }
        seen.push(port);
        if open.ports.range(port).is_err() {
            return Err(here(format!(
                "unknown port (ports: {})",
                if open.ports.names().is_empty() {
                    "none; make an edge a port first".to_string()
                } else {
                    open.ports.names().join(", ")
                }
            )));
        }
        let k = *d.gain.get_ref();
        if !(k.is_finite() && k >= 0.0) {
            return Err(error_at(
                file,
                text,
                d.gain.span(),
                format!("damping '{port}': gain = {k}; it must be finite and >= 0 (a negative gain injects energy)"),
            ));
        }
        let t = d.t_on.as_ref().map_or(0.0, |t| *t.get_ref());
        if !(t.is_finite() && t >= 0.0) || t != t_on {
            return Err(here(format!(
                "t_on = {t}: it must be finite, >= 0 and the same for every [[damping]] entry (the first says {t_on})"
            )));
        }
        let K = gain_of(port, k).map_err(&here)?;
        closed = closed
            .with_output_feedback(port, &K)
            .map_err(|e| here(e.to_string()))?;
    }
    let mut closed_input = InputFn::zeros(closed.n_inputs());
    for name in closed.ports.names() {
        let (Ok(from), Ok(to)) = (open.ports.range(&name), closed.ports.range(&name)) else {
            continue;
        };
        for (i, j) in from.zip(to) {
            closed_input.set(j, input.signals()[i].clone());
        }
    }
    Ok(Some(FeedbackPhase {
        t_on: (t_on / dt).round() * dt,
        system: closed,
        input: closed_input,
    }))
}

/// Joins the energy account of an open phase and of the closed-loop phase that starts at
/// its end (ports matched by name; the closed loop has a subset of the ports).
pub fn join_ledgers(
    first: &phlex_core::diagnostics::EnergyLedger,
    second: &phlex_core::diagnostics::EnergyLedger,
) -> phlex_core::diagnostics::EnergyLedger {
    let mut l = first.clone();
    let last_supplied = first.supplied.last().cloned().unwrap_or_default();
    let last_dissipated = first.dissipated.last().copied().unwrap_or(0.0);
    let map: Vec<Option<usize>> = first
        .port_names
        .iter()
        .map(|n| second.port_names.iter().position(|m| m == n))
        .collect();
    for k in 1..second.times.len() {
        l.times.push(second.times[k]);
        l.hamiltonian.push(second.hamiltonian[k]);
        l.supplied.push(
            map.iter()
                .zip(&last_supplied)
                .map(|(j, s0)| s0 + j.map_or(0.0, |j| second.supplied[k][j]))
                .collect(),
        );
        l.dissipated.push(last_dissipated + second.dissipated[k]);
    }
    l.residual.extend_from_slice(&second.residual);
    l
}

/// $K = k\,M_\Gamma^{-1}$ (symmetrised) for a port trace mass $M_\Gamma$: the output
/// feedback whose input function is $-k$ times the conjugate trace ([`DampingSpec`]).
pub fn inverse_trace_gain(
    M: &phlex_core::sparse::SparseMat,
    k: f64,
) -> phlex_core::sparse::SparseMat {
    use faer::linalg::solvers::Solve;
    let M = phlex_core::sparse::to_dense(M);
    let n = M.nrows();
    let inv = M.partial_piv_lu().solve(faer::Mat::<f64>::identity(n, n));
    let K = faer::Mat::from_fn(n, n, |i, j| 0.5 * k * (inv[(i, j)] + inv[(j, i)]));
    phlex_core::sparse::from_dense(&K, 0.0)
}
