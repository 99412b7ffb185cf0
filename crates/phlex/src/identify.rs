//! `phlex identify`: OKID → ERA/DC-OKID (default) or N4SID identification from measured or
//! simulated data (seed 002 ch. 3 and §5.5), with the modal table, the realisation and plots.
use std::path::Path;

use anyhow::{Context, Result};
use phlex_control::error::ControlError;
use phlex_control::identify::{
    identify_csv, read_csv_columns, IdentificationReport, IdentifyOptions, Method,
};
use phlex_control::signal::spectral::{frequency_response, h1_estimate, WelchParams};
use serde_json::json;

use crate::error::ModelError;
use crate::output::{svg_plot, write_atomic};

/// Options of the command.
pub struct IdentifyArgs<'a> {
    /// CSV file with a header row.
    pub data: &'a Path,
    /// Input column names.
    pub inputs: Vec<String>,
    /// Output column names.
    pub outputs: Vec<String>,
    /// Sampling time \[s\].
    pub dt: f64,
    /// Fixed model order (default: automatic from the singular values).
    pub order: Option<usize>,
    /// Output directory.
    pub out: &'a Path,
}

fn data_error(file: &Path, e: ControlError) -> anyhow::Error {
    // Bad data is a user-input error: exit code 2, as for model files.
    anyhow::Error::new(ModelError {
        file: file.display().to_string(),
        line: 0,
        message: e.to_string(),
    })
}

fn mat_json(m: faer::MatRef<'_, f64>) -> serde_json::Value {
    json!((0..m.nrows())
        .map(|i| (0..m.ncols()).map(|j| m[(i, j)]).collect::<Vec<_>>())
        .collect::<Vec<_>>())
}

/// Runs the identification (OKID → ERA/DC) and writes `identification.json`, `modes.csv`,
/// `singular_values.svg` and `frf_<input>_<output>.svg` into `out`.
pub fn identify(a: &IdentifyArgs) -> Result<IdentificationReport> {
    identify_with_method(a, Method::OkidEraDc)
}

/// Parses a `--method` value (`okid`, `n4sid`); a bad value is a usage error (exit 2).
pub fn parse_method(s: &str) -> Result<Method> {
    s.parse::<Method>().map_err(|e| {
        anyhow::Error::new(ModelError {
            file: "--method".into(),
            line: 0,
            message: e.to_string(),
        })
    })
}

/// [`identify`] with a chosen method: `Method::N4sid` identifies by N4SID (oblique
/// projection, order from its singular values; `singular_values.svg` then shows those of
/// the oblique projection).
pub fn identify_with_method(a: &IdentifyArgs, method: Method) -> Result<IdentificationReport> {
    let text = std::fs::read_to_string(a.data).map_err(|e| ModelError {
        file: a.data.display().to_string(),
        line: 0,
        message: format!("cannot read data file: {e}"),
    })?;
    let ins: Vec<&str> = a.inputs.iter().map(String::as_str).collect();
    let outs: Vec<&str> = a.outputs.iter().map(String::as_str).collect();
    let mut opts = IdentifyOptions::new(&ins, &outs, a.dt);
    opts.method = method;
    if let Some(n) = a.order {
        opts.order = phlex_control::identify::era::Order::Fixed(n);
    }
    let rep = identify_csv(&text, &opts).map_err(|e| data_error(a.data, e))?;

    // Files: JSON report, modal table CSV, singular values plot, FRF fits.
    let sys = &rep.realization.sys;
    let modes: Vec<serde_json::Value> = rep
        .modes
        .modes
        .iter()
        .filter(|m| !m.real)
        .map(|m| json!({ "frequency_hz": m.freq_hz, "damping_ratio": m.damping, "magnitude": m.magnitude, "phase_rad": m.phase }))
        .collect();
    let report = json!({
        "method": rep.method.name(),
        "block_rows": (rep.method == Method::N4sid).then_some(rep.block_rows),
        "inputs": rep.inputs, "outputs": rep.outputs, "samples": rep.samples, "dt": rep.dt,
        "order": rep.realization.order, "observer_order": rep.observer_order,
        "singular_values": rep.realization.singular_values,
        "modes": modes,
        "A": mat_json(sys.A.as_ref()), "B": mat_json(sys.B.as_ref()),
        "C": mat_json(sys.C.as_ref()), "D": mat_json(sys.D.as_ref()),
        "G": rep.realization.G.as_ref().map(|g| mat_json(g.as_ref())),
        "okid_residual_rms": rep.okid_residual_rms,
        "order_scores": rep.order_scores.iter().map(|o| json!({ "order": o.order, "bic": o.bic, "residual_rms": o.residual_rms })).collect::<Vec<_>>(),
    });
    let mut csv = String::from("mode,frequency_hz,damping_ratio\n");
    for (k, m) in rep.modes.modes.iter().filter(|m| !m.real).enumerate() {
        csv.push_str(&format!(
            "{},{:.10e},{:.10e}\n",
            k + 1,
            m.freq_hz,
            m.damping
        ));
    }
    let sv = &rep.realization.singular_values;
    let idx: Vec<f64> = (1..=sv.len()).map(|k| k as f64).collect();
    let lsv: Vec<f64> = sv.iter().map(|v| v.max(1e-300).log10()).collect();
    let mut files = vec![
        (
            "identification.json".to_string(),
            serde_json::to_vec_pretty(&report)?,
        ),
        ("modes.csv".to_string(), csv.into_bytes()),
        (
            "singular_values.svg".to_string(),
            svg_plot(
                &match rep.method {
                    Method::OkidEraDc => {
                        format!("Hankel singular values (order {})", rep.realization.order)
                    }
                    Method::N4sid => format!(
                        "singular values of the N4SID oblique projection (order {})",
                        rep.realization.order
                    ),
                },
                "index",
                &[("log10(sigma)", &idx, &lsv)],
            )?
            .into_bytes(),
        ),
    ];
    // FRF fit: H1 estimate from the data vs the identified model, per input/output pair.
    let u = read_csv_columns(&text, &a.inputs).map_err(|e| data_error(a.data, e))?;
    let y = read_csv_columns(&text, &a.outputs).map_err(|e| data_error(a.data, e))?;
    let l = u.ncols();
    let seg = (l / 8)
        .next_power_of_two()
        .clamp(64, 4096)
        .min(l.next_power_of_two() / 2)
        .max(16);
    for i in 0..u.nrows() {
        let ui: Vec<f64> = (0..l).map(|k| u[(i, k)]).collect();
        for o in 0..y.nrows() {
            let yo: Vec<f64> = (0..l).map(|k| y[(o, k)]).collect();
            let Ok(frf) = h1_estimate(&ui, &yo, a.dt, &WelchParams::half_overlap(seg)) else {
                continue;
            };
            let f: Vec<f64> = frf.freq.iter().copied().filter(|&f| f > 0.0).collect();
            let model = frequency_response(sys, &f).context("model frequency response")?;
            let meas: Vec<f64> = frf
                .freq
                .iter()
                .zip(&frf.H)
                .filter(|(f, _)| **f > 0.0)
                .map(|(_, h)| h.norm().max(1e-300).log10())
                .collect();
            let fit: Vec<f64> = model
                .iter()
                .map(|h| h[(o, i)].norm().max(1e-300).log10())
                .collect();
            files.push((
                format!("frf_{}_{}.svg", a.inputs[i], a.outputs[o]),
                svg_plot(
                    &format!(
                        "FRF {} -> {}: H1 estimate vs identified model",
                        a.inputs[i], a.outputs[o]
                    ),
                    "f [Hz]   (y: log10 |H|)",
                    &[("H1 (data)", &f, &meas), ("identified model", &f, &fit)],
                )?
                .into_bytes(),
            ));
        }
    }
    for (name, bytes) in &files {
        write_atomic(&a.out.join(name), bytes)?;
    }
    Ok(rep)
}
