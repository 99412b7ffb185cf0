//! Comparison of a measured convergence study with a table of thesis 004 App. B (the
//! Kirchhoff plate tables B.16–B.23): every error within a relative tolerance of the
//! printed value and every observed order $\log(e_{i-1}/e_i)/\log(h_{i-1}/h_i)$ within an
//! absolute tolerance of the thesis's order on the same meshes.
use phlex_fem::models::plate::kirchhoff::benchmarks::ThesisRow;
use std::time::Instant;

/// The result of [`check_table`]: the measured errors `[e_w, E_κ]` per row and the largest
/// relative value and absolute order differences from the thesis.
pub struct TableCheck {
    /// Measured errors, one per row.
    pub errors: Vec<[f64; 2]>,
    /// Largest relative difference of a value.
    pub worst_value: f64,
    /// Largest difference of an observed order.
    pub worst_order: f64,
}

/// Measures `errors(row)` for every thesis `row`, prints the table as `label` next to the
/// thesis's, and asserts every value within `value_tol` (relative) and every order within
/// `order_tol` of the thesis's.
#[track_caller]
pub fn check_table(
    label: &str,
    rows: &[ThesisRow],
    value_tol: f64,
    order_tol: f64,
    mut errors: impl FnMut(&ThesisRow) -> [f64; 2],
) -> TableCheck {
    let mut out = TableCheck {
        errors: Vec::new(),
        worst_value: 0.0,
        worst_order: 0.0,
    };
    for (i, r) in rows.iter().enumerate() {
        let t = Instant::now();
        let e = errors(r);
        let th = [r.e_w, r.e_kappa];
        let mut line = format!(
            "{label} 1/h={:3}: e_w {:.3e} (thesis {:.2e})  E_k {:.3e} (thesis {:.2e})",
            r.inv_h, e[0], th[0], e[1], th[1]
        );
        for c in 0..2 {
            let d = (e[c] - th[c]) / th[c];
            out.worst_value = out.worst_value.max(d.abs());
            assert!(
                d.abs() < value_tol,
                "{label} 1/h={} field {c}: {} vs thesis {} ({:.2} %)",
                r.inv_h,
                e[c],
                th[c],
                100.0 * d
            );
        }
        if i > 0 {
            let (p, prev) = (&rows[i - 1], out.errors[i - 1]);
            let ratio = (r.inv_h as f64 / p.inv_h as f64).log2();
            for (c, (a, b)) in [
                (prev[0] / e[0], p.e_w / r.e_w),
                (prev[1] / e[1], p.e_kappa / r.e_kappa),
            ]
            .into_iter()
            .enumerate()
            {
                let (o, ot) = (a.log2() / ratio, b.log2() / ratio);
                out.worst_order = out.worst_order.max((o - ot).abs());
                line.push_str(&format!("  ord{c} {o:.2} (thesis {ot:.2})"));
                assert!(
                    (o - ot).abs() < order_tol,
                    "{label} 1/h={} field {c}: order {o:.3} vs thesis {ot:.3}",
                    r.inv_h
                );
            }
        }
        eprintln!("{line} [{:.2?}]", t.elapsed());
        out.errors.push(e);
    }
    out
}
