//! Eigenfrequencies of a built model (adapter over `phlex_solve::eigen`).
use anyhow::Result;
use phlex_core::LinearPhSystem;

use crate::app::ModeRow;

/// The first `n` eigenfrequencies of the pencil $E\Phi\Lambda = (J - R)\Phi$.
pub fn frequencies(sys: &LinearPhSystem, n: usize) -> Result<Vec<ModeRow>> {
    let E = phlex_core::sparse::to_dense(&sys.E);
    let A = phlex_core::sparse::to_dense(&sys.j_minus_r());
    let ge = A
        .generalized_eigen(&E)
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let (s_a, s_b) = (ge.S_a(), ge.S_b());
    let mut v = Vec::new();
    for k in 0..E.nrows() {
        let b = s_b[k];
        if b.norm() < 1e-12 * s_a[k].norm().max(1.0) {
            continue;
        }
        let l = s_a[k] / b;
        if l.im > 1e-5 {
            v.push((l.im, l.re));
        }
    }
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(v.into_iter()
        .take(n)
        .enumerate()
        .map(|(k, (w, re))| ModeRow {
            mode: k + 1,
            omega: w,
            frequency_hz: w / (2.0 * std::f64::consts::PI),
            damping_ratio: -re / (re * re + w * w).sqrt(),
        })
        .collect())
}
