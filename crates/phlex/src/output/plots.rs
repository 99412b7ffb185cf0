//! The plots every run writes: the Hamiltonian (`energy.svg`), groups of recorded columns
//! (`probes.svg`, …) and the power-balance residual per output interval
//! (`power_balance.svg`).
use anyhow::Result;
use phlex_core::diagnostics::EnergyLedger;

use super::svg::svg_plot;
use super::timeseries::TimeSeries;

/// `energy.svg`: $H(t)$ of `model`, from the columns `t` and `H` (the first two) of
/// `series`; `unit` labels the curve (`"H [J]"`, `"H [J/m]"`).
pub fn energy_plot(model: &str, series: &TimeSeries, unit: &str) -> Result<Vec<u8>> {
    let t = series.column(0);
    let h = series.column(1);
    Ok(svg_plot(&format!("{model}: Hamiltonian"), "t [s]", &[(unit, &t, &h)])?.into_bytes())
}

/// A plot titled `<model>: <title>` of the columns `first..first + names.len()` of
/// `series` against its first column `t`, labelled by `names`.
pub fn columns_plot(
    model: &str,
    title: &str,
    series: &TimeSeries,
    first: usize,
    names: &[String],
) -> Result<Vec<u8>> {
    let t = series.column(0);
    let data: Vec<Vec<f64>> = (first..first + names.len())
        .map(|k| series.column(k))
        .collect();
    let s: Vec<(&str, &[f64], &[f64])> = names
        .iter()
        .zip(&data)
        .map(|(n, d)| (n.as_str(), t.as_slice(), d.as_slice()))
        .collect();
    Ok(svg_plot(&format!("{model}: {title}"), "t [s]", &s)?.into_bytes())
}

/// `power_balance.svg`: the step residual $\Delta H - W + D$ of `ledger` per output
/// interval (`None` when the ledger has no residual per sample).
pub fn power_balance_plot(model: &str, ledger: &EnergyLedger) -> Result<Option<Vec<u8>>> {
    let res: Vec<f64> = std::iter::once(0.0)
        .chain(ledger.residual.iter().copied())
        .collect();
    if res.len() != ledger.times.len() {
        return Ok(None);
    }
    Ok(Some(
        svg_plot(
            &format!("{model}: power-balance residual per output interval"),
            "t [s]",
            &[("ΔH − W + D [J]", &ledger.times, &res)],
        )?
        .into_bytes(),
    ))
}
