//! Library entry point of `phlex identify`: input/output records in a CSV
//! file → OKID → ERA/DC with OKID → realisation, observer gain, Hankel
//! singular values and modal table (the chain of thesis 002 §5.5).
//!
//! The realisation comes from the system Markov parameters `Y_k` alone and
//! the observer gain from eq. (3.112) ([`era_dc_observer`]): with the default
//! observer order `p` (`m p ≫ n`) the observer-gain Markov parameters `Y⁰_k`
//! are those of an `(m p)`-state observer, and the combined Hankel matrix of
//! eq. (3.165) would not have rank `n` even for exact data. The automatic
//! order minimises the output-error BIC over the singular-value gaps
//! ([`crate::identify::era::gap_candidates`], [`crate::identify::era::fit_input_matrices`]); `B̂`, `D̂`
//! are the output-error least-squares ones.
//!
//! ```text
//! t,force,acc1,acc2,acc3
//! 0.00000,0.12,0.001,-0.002,0.004
//! ...
//! ```
//!
//! ```no_run
//! use phlex_control::identify::{identify_csv, IdentifyOptions};
//! let text = std::fs::read_to_string("hammer.csv").unwrap();
//! let opts = IdentifyOptions::new(&["force"], &["acc1", "acc2", "acc3"], 1.0 / 32.0);
//! let report = identify_csv(&text, &opts).unwrap();
//! println!("{report}");
//! ```
//!
//! Bad data give typed errors naming the item: [`ControlError::MissingColumn`],
//! [`ControlError::BadValue`] (NaN, empty or unparsable cell, with column and
//! row), [`ControlError::NotEnoughData`] (too few samples for the observer
//! order, the Hankel sizes or the requested model order: the data must give
//! `l ≥ 2(r + (r+m)p)` samples — two least-squares equations per OKID
//! unknown, with `m·p ≥ n` — and `l ≥ α + β + (γ+δ)τ + 1` Markov parameters),
//! [`ControlError::InvalidParameter`] (Δt, empty channel lists).

use crate::error::{ControlError, Result};
use crate::identify::era::{era_dc_observer, EraDcParams, Order, OrderScore, Realization};
use crate::identify::okid::{okid, OkidParams};
use crate::identify::records::check_records;
use crate::model::modal::{modal_parameters, ModalTable};
use faer::{Mat, MatRef};
use std::fmt;

/// Identification method of [`identify_data`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// OKID → ERA/DC from the system Markov parameters (thesis 002 §3.5–§3.6)
    #[default]
    OkidEraDc,
    /// N4SID subspace identification ([`crate::identify::n4sid`])
    N4sid,
}

impl Method {
    /// Name used on the command line (`okid`, `n4sid`).
    pub fn name(self) -> &'static str {
        match self {
            Method::OkidEraDc => "okid",
            Method::N4sid => "n4sid",
        }
    }
}

impl std::str::FromStr for Method {
    type Err = ControlError;
    fn from_str(s: &str) -> Result<Self> {
        match s.to_ascii_lowercase().as_str() {
            "okid" | "era" | "era-dc" | "okid-era-dc" => Ok(Method::OkidEraDc),
            "n4sid" => Ok(Method::N4sid),
            _ => Err(ControlError::InvalidParameter {
                name: "method".into(),
                reason: format!("unknown identification method `{s}` (use okid or n4sid)"),
            }),
        }
    }
}

/// Options of [`identify_csv`] / [`identify_data`].
#[derive(Clone, Debug)]
pub struct IdentifyOptions {
    /// input column names (`r ≥ 1`)
    pub inputs: Vec<String>,
    /// output column names (`m ≥ 1`)
    pub outputs: Vec<String>,
    /// sampling time Δt (s)
    pub dt: f64,
    /// model order: fixed, or automatic (default `Auto { max: 20 }`): the
    /// singular-value gap with the lowest output-error BIC
    pub order: Order,
    /// OKID observer order `p`; default `min(80, l / (5(r+m)))`, at least `⌈n_max/m⌉ + 1`
    pub observer_order: Option<usize>,
    /// ERA/DC sizes; default α = max(⌈2 n_max / m⌉, 10), β = 3α, γ = δ = 2, τ = 1
    pub era: Option<EraDcParams>,
    /// output used as reference of the mode shapes
    pub reference_output: usize,
    /// identification method (default OKID → ERA/DC)
    pub method: Method,
    /// N4SID block rows `i`; default `max(⌈(n_max + 1)/m⌉ + 1, 10)`, limited by the data length
    pub block_rows: Option<usize>,
}

impl IdentifyOptions {
    /// Options with defaults for everything but the channels and Δt.
    pub fn new(inputs: &[&str], outputs: &[&str], dt: f64) -> Self {
        Self {
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            outputs: outputs.iter().map(|s| s.to_string()).collect(),
            dt,
            order: Order::Auto { max: 20 },
            observer_order: None,
            era: None,
            reference_output: 0,
            method: Method::OkidEraDc,
            block_rows: None,
        }
    }
}

/// Result of an identification.
#[derive(Clone, Debug)]
pub struct IdentificationReport {
    /// method used
    pub method: Method,
    /// N4SID block rows (0 for OKID → ERA/DC)
    pub block_rows: usize,
    /// input names
    pub inputs: Vec<String>,
    /// output names
    pub outputs: Vec<String>,
    /// number of samples used
    pub samples: usize,
    /// sampling time
    pub dt: f64,
    /// OKID observer order used
    pub observer_order: usize,
    /// ERA/DC sizes used
    pub era: EraDcParams,
    /// realisation `(Â, B̂, Ĉ, D̂)`, observer gain `Ĝ`, singular values, order
    pub realization: Realization,
    /// modal table (frequencies, damping ratios, shapes at the outputs)
    pub modes: ModalTable,
    /// RMS of the OKID least-squares residual per output
    pub okid_residual_rms: Vec<f64>,
    /// output-error scores of the candidate orders (automatic order only)
    pub order_scores: Vec<OrderScore>,
}

fn fmt_mat(f: &mut fmt::Formatter<'_>, name: &str, M: MatRef<'_, f64>) -> fmt::Result {
    writeln!(f, "{name} ({}x{}):", M.nrows(), M.ncols())?;
    for i in 0..M.nrows() {
        let row: Vec<String> = (0..M.ncols())
            .map(|j| format!("{:>12.5e}", M[(i, j)]))
            .collect();
        writeln!(f, "  {}", row.join(" "))?;
    }
    Ok(())
}

impl fmt::Display for IdentificationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "identification: {} samples, dt = {} s, inputs [{}], outputs [{}]",
            self.samples,
            self.dt,
            self.inputs.join(", "),
            self.outputs.join(", ")
        )?;
        match self.method {
            Method::OkidEraDc => writeln!(
                f,
                "OKID p = {}; ERA/DC alpha = {}, beta = {}, gamma = {}, delta = {}, tau = {}; order n = {}",
                self.observer_order, self.era.alpha, self.era.beta, self.era.gamma, self.era.delta, self.era.tau, self.realization.order
            )?,
            Method::N4sid => writeln!(
                f,
                "N4SID i = {} block rows; order n = {}",
                self.block_rows, self.realization.order
            )?,
        }
        let sv: Vec<String> = self
            .realization
            .singular_values
            .iter()
            .take(2 * self.realization.order + 4)
            .map(|s| format!("{s:.4e}"))
            .collect();
        writeln!(f, "leading singular values: {}", sv.join(" "))?;
        if !self.order_scores.is_empty() {
            let sc: Vec<String> = self
                .order_scores
                .iter()
                .map(|s| format!("n = {}: {:.1}", s.order, s.bic))
                .collect();
            writeln!(
                f,
                "output-error BIC of the candidate orders: {}",
                sc.join(", ")
            )?;
        }
        writeln!(
            f,
            "modes (shapes relative to output `{}`):",
            self.outputs.first().map(String::as_str).unwrap_or("")
        )?;
        write!(f, "{}", self.modes)?;
        let s = &self.realization.sys;
        fmt_mat(f, "A", s.A.as_ref())?;
        fmt_mat(f, "B", s.B.as_ref())?;
        fmt_mat(f, "C", s.C.as_ref())?;
        fmt_mat(f, "D", s.D.as_ref())?;
        if let Some(G) = &self.realization.G {
            fmt_mat(f, "G", G.as_ref())?;
        }
        Ok(())
    }
}

/// Reads the named columns of a CSV text (header row required) into a
/// `names.len() × rows` matrix (one row per channel).
pub fn read_csv_columns(text: &str, names: &[String]) -> Result<Mat<f64>> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(csv::Trim::All)
        .flexible(false)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = rdr
        .headers()
        .map_err(|e| ControlError::Csv(e.to_string()))?
        .iter()
        .map(|s| s.to_string())
        .collect();
    let idx: Vec<usize> = names
        .iter()
        .map(|n| {
            headers
                .iter()
                .position(|h| h == n)
                .ok_or_else(|| ControlError::MissingColumn {
                    name: n.clone(),
                    available: headers.join(", "),
                })
        })
        .collect::<Result<_>>()?;
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for (row, rec) in rdr.records().enumerate() {
        let rec = rec.map_err(|e| ControlError::Csv(e.to_string()))?;
        for (c, &j) in idx.iter().enumerate() {
            let raw = rec.get(j).unwrap_or("");
            let v: f64 = raw.parse().map_err(|_| ControlError::BadValue {
                column: names[c].clone(),
                row: row + 1,
                value: raw.to_string(),
            })?;
            if !v.is_finite() {
                return Err(ControlError::BadValue {
                    column: names[c].clone(),
                    row: row + 1,
                    value: raw.to_string(),
                });
            }
            cols[c].push(v);
        }
    }
    let l = cols.first().map_or(0, |c| c.len());
    Ok(Mat::from_fn(names.len(), l, |i, k| cols[i][k]))
}

/// Identification from CSV text.
pub fn identify_csv(text: &str, opts: &IdentifyOptions) -> Result<IdentificationReport> {
    if opts.inputs.is_empty() || opts.outputs.is_empty() {
        return Err(ControlError::InvalidParameter {
            name: "inputs/outputs".into(),
            reason: "need at least one input and one output column".into(),
        });
    }
    let u = read_csv_columns(text, &opts.inputs)?;
    let y = read_csv_columns(text, &opts.outputs)?;
    identify_data(u.as_ref(), y.as_ref(), opts)
}

/// Identification from sampled data: `u` is `r × l`, `y` is `m × l`.
pub fn identify_data(
    u: MatRef<'_, f64>,
    y: MatRef<'_, f64>,
    opts: &IdentifyOptions,
) -> Result<IdentificationReport> {
    let (r, m, l) = check_records(u, y, opts.dt)?;
    let n_max = opts.order.largest()?;
    let era = opts.era.clone().unwrap_or_else(|| {
        let alpha = (2 * n_max).div_ceil(m).max(10);
        EraDcParams {
            alpha,
            beta: 3 * alpha,
            gamma: 2,
            delta: 2,
            tau: 1,
            order: opts.order,
        }
    });
    let era = EraDcParams {
        order: opts.order,
        ..era
    };
    if opts.method == Method::N4sid {
        return identify_n4sid(u, y, opts, era);
    }
    if era.alpha * m < n_max {
        return Err(ControlError::NotEnoughData {
            what: format!("model order {n_max}: Hankel block rows α·m"),
            needed: n_max,
            available: era.alpha * m,
        });
    }
    let p_min = n_max.div_ceil(m) + 1;
    let p = opts
        .observer_order
        .unwrap_or_else(|| (l / (5 * (r + m))).min(80).max(p_min));
    if p < p_min.saturating_sub(1).max(1) {
        return Err(ControlError::InvalidParameter {
            name: "observer_order".into(),
            reason: format!(
                "OKID needs m·p ≥ n: p ≥ {} for n = {n_max}",
                n_max.div_ceil(m)
            ),
        });
    }
    let rows = r + (r + m) * p;
    // at least two equations per unknown of the OKID least squares, and
    // enough Markov parameters for the Hankel matrices
    let needed = (2 * rows).max(era.markov_needed());
    if l < needed {
        return Err(ControlError::NotEnoughData {
            what: format!(
                "OKID (p = {p}) and ERA/DC (α = {}, β = {}) for order {n_max}",
                era.alpha, era.beta
            ),
            needed,
            available: l,
        });
    }
    let ok = okid(u, y, &OkidParams::new(p, era.markov_needed().max(p)))?;
    let fit = era_dc_observer(&ok.markov, &ok.gain_markov, p, opts.dt, &era, Some((u, y)))?;
    let realization = fit.realization;
    let modes = modal_parameters(&realization.sys, opts.reference_output)?;
    Ok(IdentificationReport {
        method: Method::OkidEraDc,
        block_rows: 0,
        inputs: opts.inputs.clone(),
        outputs: opts.outputs.clone(),
        samples: l,
        dt: opts.dt,
        observer_order: p,
        era,
        realization,
        modes,
        okid_residual_rms: ok.residual_rms,
        order_scores: fit.scores,
    })
}

/// The N4SID branch of [`identify_data`] (`era` is reported but unused).
fn identify_n4sid(
    u: MatRef<'_, f64>,
    y: MatRef<'_, f64>,
    opts: &IdentifyOptions,
    era: EraDcParams,
) -> Result<IdentificationReport> {
    let (r, m, l) = (u.nrows(), y.nrows(), u.ncols());
    let n_max = match opts.order {
        Order::Fixed(n) => n,
        Order::Auto { max } => max,
    };
    let i = match opts.block_rows {
        Some(i) => i,
        None => {
            let i_min = (n_max + 1).div_ceil(m) + 1;
            // columns j = l − 2i + 1 must exceed twice the 2i(r + m) Hankel rows
            let i_data = (l + 1) / (2 + 4 * (r + m));
            i_min.max(10).min(i_data.max(i_min))
        }
    };
    let params = crate::identify::n4sid::N4sidParams {
        block_rows: i,
        order: opts.order,
        rtol: 1e-10,
    };
    let res = crate::identify::n4sid::n4sid(u, y, opts.dt, &params)?;
    let modes = modal_parameters(&res.realization.sys, opts.reference_output)?;
    Ok(IdentificationReport {
        method: Method::N4sid,
        block_rows: i,
        inputs: opts.inputs.clone(),
        outputs: opts.outputs.clone(),
        samples: l,
        dt: opts.dt,
        observer_order: 0,
        era,
        realization: res.realization,
        modes,
        okid_residual_rms: vec![],
        order_scores: vec![],
    })
}
