//! Euler–Bernoulli convergence study against thesis 004 App. B, Tables B.1–B.5
//! (simply supported beam of Table 7.1, manufactured solution (7.25)–(7.26),
//! Crank–Nicolson with Δt = h/10 up to t_f = 1 s, L∞-in-time errors in full Sobolev norms).
//!
//! Tolerances (from the validation plan, issue 2 §6): every error within 10 % of the printed
//! thesis value and every observed order within ±0.1 of the printed order. The thesis
//! prints three significant digits (±0.5 % rounding) and computes orders from unrounded
//! values; the measured agreement is much tighter than the tolerances: at most 1.9 %
//! (CGCG1, 1/h = 8, e_w) and 0.04 in the orders over the fast meshes (see the report of
//! `examples/convergence_eb.rs`). The CGCG tables print the curvature error
//! ‖e_κ − e_κ^h‖/EI in their e_κ column, which `ConvergenceTable::compare` accounts for
//! (`KappaColumn::Curvature`).
use phlex::studies::{
    eb_convergence, thesis_meshes, thesis_reference, ConvergenceTable, EbConvergenceSetup,
};
use phlex_fem::models::beam::euler_bernoulli::EbDiscretization;

/// Relative tolerance on error values.
const VALUE_TOL: f64 = 0.10;
/// Absolute tolerance on observed orders.
const ORDER_TOL: f64 = 0.10;

fn check(d: EbDiscretization, meshes: &[usize]) -> ConvergenceTable {
    let table = eb_convergence(d, meshes, &EbConvergenceSetup::default()).unwrap();
    let reference = thesis_reference(d).unwrap();
    let cmp = table.compare(&reference);
    // Every requested mesh has a thesis row, two fields each.
    assert_eq!(
        cmp.len(),
        2 * meshes.len(),
        "{}",
        table.to_markdown(Some(&reference))
    );
    let mut failures = Vec::new();
    for c in &cmp {
        if c.rel_diff.abs() > VALUE_TOL {
            failures.push(format!(
                "1/h = {} {}: phlex {:.4e} vs thesis {:.3e} ({:+.1} %)",
                c.inv_h,
                c.field,
                c.ours,
                c.thesis,
                100.0 * c.rel_diff
            ));
        }
        match (c.our_order, c.thesis_order) {
            (Some(a), Some(b)) if (a - b).abs() > ORDER_TOL => failures.push(format!(
                "1/h = {} {}: order {a:.3} vs thesis {b:.2}",
                c.inv_h, c.field
            )),
            (None, None) | (Some(_), Some(_)) => {}
            (a, b) => failures.push(format!(
                "1/h = {} {}: order present mismatch {a:?} vs {b:?}",
                c.inv_h, c.field
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n{}",
        failures.join("\n"),
        table.to_markdown(Some(&reference))
    );
    println!("{}", table.to_markdown(Some(&reference)));
    table
}

#[test]
fn herdg1_fast_meshes_match_table_b1() {
    let t = check(EbDiscretization::HerDg1, &[4, 8, 16, 32]);
    // Conjecture 1 (thesis (7.3)): order 2 in both norms at the finest meshes.
    let last = t.rows.last().unwrap();
    for o in last.orders {
        assert!((o.unwrap() - 2.0).abs() < 0.1, "{o:?}");
    }
}

#[test]
fn dg1her_fast_meshes_match_table_b2() {
    check(EbDiscretization::Dg1Her, &[4, 8, 16, 32]);
}

#[test]
fn cgcg1_fast_meshes_match_table_b3() {
    check(EbDiscretization::CgCg(1), &[4, 8, 16, 32]);
}

#[test]
fn cgcg2_fast_meshes_match_table_b4() {
    check(EbDiscretization::CgCg(2), &[4, 8, 16, 32]);
}

#[test]
fn cgcg3_fast_meshes_match_table_b5() {
    let t = check(EbDiscretization::CgCg(3), &[2, 4, 8, 16]);
    // Conjecture 3 (thesis (7.9)): order k = 3.
    let last = t.rows.last().unwrap();
    for o in last.orders {
        assert!((o.unwrap() - 3.0).abs() < 0.1, "{o:?}");
    }
}

/// The complete tables (1/h up to 128; 64 for CGCG3), same assertions on every row.
#[test]
#[ignore = "full thesis tables (1/h up to 128); about 1 s in the release and test profiles; fast twins: herdg1_fast_meshes_match_table_b1 … cgcg3_fast_meshes_match_table_b5"]
fn full_tables_match_thesis() {
    for d in [
        EbDiscretization::HerDg1,
        EbDiscretization::Dg1Her,
        EbDiscretization::CgCg(1),
        EbDiscretization::CgCg(2),
        EbDiscretization::CgCg(3),
    ] {
        check(d, &thesis_meshes(d));
    }
}

/// The agreement above depends on reproducing the thesis's initial projection and load
/// sampling (module docs of `phlex::studies::eb_convergence`): with the constrained
/// projection the HerDG1 1/h = 4 → 8 order is 2.10 instead of the thesis's 2.21, and with
/// midpoint load sampling the CGCG3 1/h = 32 error is 47 % above the thesis's. The checks
/// are therefore sensitive to these details.
#[test]
fn thesis_details_are_needed_for_agreement() {
    use phlex::studies::{InitialState, LoadSampling};
    let constrained = EbConvergenceSetup {
        initial: InitialState::ConstrainedProjection,
        ..Default::default()
    };
    let t = eb_convergence(EbDiscretization::HerDg1, &[4, 8], &constrained).unwrap();
    let o = t.rows[1].orders[0].unwrap();
    // Thesis Table B.1: 2.21; measured 2.10 (the e_w max is the t = 0 projection error).
    assert!((o - 2.21).abs() > 0.1, "order {o}");
    assert!(
        (t.rows[0].errors[0] - 0.1834).abs() < 1e-3,
        "{}",
        t.rows[0].errors[0]
    );

    let midpoint = EbConvergenceSetup {
        load: LoadSampling::Midpoint,
        ..Default::default()
    };
    let t = eb_convergence(EbDiscretization::CgCg(3), &[32], &midpoint).unwrap();
    let thesis = 7.91e-6;
    let rel = (t.rows[0].errors[0] - thesis) / thesis;
    // Measured +47 %: the O(Δt²) load error dominates the O(h³) spatial error.
    assert!(rel > 0.3, "{rel}");
}
