//! Structure of every model: J skew, E symmetric positive definite (strong BCs) or
//! semidefinite with index-2 multiplier blocks (multipliers), port layout, and the
//! instantaneous power identity eᵀ(J e + B u) = yᵀu.
#![allow(non_snake_case)]
mod common;
use common::*;
use phlex_core::sparse;
use phlex_core::structure::Tolerances;
use phlex_core::VarKind;
use phlex_fem::models::beam::bar::{Bar, BarDiscretization};
use phlex_fem::models::beam::decomposition::EbDecomposition;
use phlex_fem::models::beam::euler_bernoulli::EulerBernoulli;
use phlex_fem::models::beam::member::{Member, Section};
use phlex_fem::models::beam::timoshenko::{Timoshenko, TimoshenkoDiscretization};
use phlex_fem::{EndCondition, Imposition, PfemModel};
use rand::{Rng, SeedableRng};
use std::sync::Arc;

const CONDITIONS: [EndCondition; 4] = [
    EndCondition::Port,
    EndCondition::Free,
    EndCondition::Clamped,
    EndCondition::SimplySupported,
];

/// `member` with discretization `d`, end conditions `ends`, imposition `imp` and the
/// distributed load `"load"` of profile `load` (the common set-up of the beam members).
fn configured<S: Section>(
    member: Member<S>,
    d: S::Discretization,
    ends: (EndCondition, EndCondition),
    imp: Imposition,
    load: &phlex_fem::Profile,
) -> Member<S> {
    member
        .discretization(d)
        .ends(ends.0, ends.1)
        .imposition(imp)
        .load("load", load.clone())
}

fn all_models() -> Vec<(String, Imposition, PfemModel)> {
    let mut out = Vec::new();
    let load: phlex_fem::Profile = Arc::new(|x: f64| (3.0 * x).sin());
    for imp in [Imposition::Strong, Imposition::Multiplier] {
        for l in CONDITIONS {
            for r in CONDITIONS {
                for d in common::EB_ALL {
                    let m = configured(EulerBernoulli::new(RHO_A, EI, L, 5), d, (l, r), imp, &load)
                        .build()
                        .unwrap();
                    out.push((format!("EB {} {l:?}-{r:?} {imp:?}", d.name()), imp, m));
                }
                for d in [
                    BarDiscretization::CgDg(1),
                    BarDiscretization::CgDg(3),
                    BarDiscretization::DgCg(1),
                    BarDiscretization::DgCg(2),
                ] {
                    let m = configured(Bar::new(2.0, 3e4, L, 5), d, (l, r), imp, &load)
                        .build()
                        .unwrap();
                    out.push((format!("bar {d:?} {l:?}-{r:?} {imp:?}"), imp, m));
                }
                for d in [
                    TimoshenkoDiscretization::CgDg(1),
                    TimoshenkoDiscretization::CgDg(2),
                    TimoshenkoDiscretization::DgCg(1),
                    TimoshenkoDiscretization::DgCg(3),
                ] {
                    let m = Timoshenko::new(1.0, 1e-2, 1.0, 1e2, L, 5);
                    let m = configured(m, d, (l, r), imp, &load)
                        .moment_load("torque", load.clone())
                        .build()
                        .unwrap();
                    out.push((format!("Timoshenko {d:?} {l:?}-{r:?} {imp:?}"), imp, m));
                }
            }
        }
    }
    for l in CONDITIONS {
        for r in CONDITIONS {
            let m = EbDecomposition::new(RHO_A, EI, L, 3, 4)
                .ends(l, r)
                .load("load", load.clone())
                .build()
                .unwrap();
            out.push((format!("decomposition {l:?}-{r:?}"), Imposition::Strong, m));
        }
    }
    out
}

/// J skew (relative 1e-12), E, R symmetric PSD (phlex-core check); with strong
/// imposition E is positive definite (sparse Cholesky succeeds) and there is no
/// algebraic block; with multipliers, every block with zero E diagonal is an index-2
/// multiplier block and E restricted to the differential blocks is positive definite.
#[test]
fn every_model_is_port_hamiltonian() {
    let models = all_models();
    assert_eq!(models.len(), 2 * 16 * 13 + 16);
    for (name, imp, m) in &models {
        let s = m.system();
        s.check(&Tolerances::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let diff: Vec<usize> = s
            .variable_indices()
            .iter()
            .enumerate()
            .filter(|p| *p.1 == 0)
            .map(|p| p.0)
            .collect();
        let Ed = sparse::restrict(&s.E, &diff, &diff);
        assert!(
            Ed.sp_cholesky(faer::Side::Lower).is_ok(),
            "{name}: E not PD on differential variables"
        );
        let n_alg = s.n_states() - diff.len();
        for b in &s.blocks {
            match b.kind {
                VarKind::Differential => assert!(!b.name.contains("lambda"), "{name}"),
                VarKind::Algebraic { index } => {
                    assert_eq!(index, 2, "{name}");
                    assert!(b.name.contains("lambda"), "{name}");
                }
            }
        }
        if *imp == Imposition::Strong {
            assert_eq!(n_alg, 0, "{name}: strong imposition has multipliers");
        }
    }
}

/// eᵀ(J e + B u) = yᵀu with y = Bᵀe for random e, u (J skew): |difference| ≤ 1e-12 of
/// the terms' size.
#[test]
fn instantaneous_power_balance() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    for (name, _, m) in all_models() {
        let s = m.system();
        let e: Vec<f64> = (0..s.n_states())
            .map(|_| rng.gen_range(-1.0..1.0))
            .collect();
        let u: Vec<f64> = (0..s.n_inputs())
            .map(|_| rng.gen_range(-1.0..1.0))
            .collect();
        let mut rhs = vec![0.0; s.n_states()];
        s.rhs(&e, &u, &mut rhs);
        let p: f64 = e.iter().zip(&rhs).map(|(a, b)| a * b).sum();
        let y = s.output(&e);
        let yu: f64 = y.iter().zip(&u).map(|(a, b)| a * b).sum();
        let scale = yu.abs() + sparse::max_abs(&s.J) * s.n_states() as f64;
        assert!((p - yu).abs() < 1e-12 * scale, "{name}: {p} vs {yu}");
    }
}

/// Port layout: strong conditions remove the end ports; multipliers keep a port of
/// dimension 2 (1 for the bar) at every constrained end; open ends keep their natural
/// port; loads come last.
#[test]
fn port_layout() {
    use EndCondition::*;
    let names = |m: &PfemModel| m.port_names();
    let m = EulerBernoulli::new(RHO_A, EI, L, 4)
        .ends(Clamped, Port)
        .load("load", Arc::new(|_| 1.0))
        .build()
        .unwrap();
    assert_eq!(names(&m), vec!["right", "load"]);
    let p = m.system().ports.get("right").unwrap();
    assert_eq!(p.dim, 2);
    assert!(
        p.input.contains("force") && p.input.contains("moment"),
        "{}",
        p.input
    );
    assert!(
        p.output.contains("velocity") && p.output.contains("angular"),
        "{}",
        p.output
    );
    let m = EulerBernoulli::new(RHO_A, EI, L, 4)
        .ends(Clamped, Free)
        .imposition(Imposition::Multiplier)
        .build()
        .unwrap();
    assert_eq!(names(&m), vec!["left", "right"]);
    let p = m.system().ports.get("left").unwrap();
    assert!(
        p.input.contains("prescribed transverse velocity"),
        "{}",
        p.input
    );
    assert!(p.output.contains("multiplier"), "{}", p.output);
    // HerDG1, 4 elements: e_w 10 + e_kappa 8 DOFs, then the two multipliers
    assert_eq!(m.system().block_range("lambda_left"), Some(18..20));
    // SS with multipliers in HerDG1: one multiplier (velocity), one natural moment input
    let m = EulerBernoulli::new(RHO_A, EI, L, 4)
        .ends(SimplySupported, Port)
        .imposition(Imposition::Multiplier)
        .build()
        .unwrap();
    let ep = m.end_port(phlex_fem::End::Left).unwrap();
    assert_eq!(ep.multiplier, vec![true, false]);
    assert_eq!(m.system().block_range("lambda_left").unwrap().len(), 1);
    // strong clamped removes value and slope DOFs of the Hermite velocity
    let m = EulerBernoulli::new(RHO_A, EI, L, 4)
        .ends(Clamped, Clamped)
        .build()
        .unwrap();
    assert_eq!(m.system().block_range("e_w").unwrap().len(), 10 - 4);
    assert!(m.port_names().is_empty());
    // bar: multiplier port of dimension 1
    let b = Bar::new(1.0, 1.0, L, 3)
        .ends(Clamped, Free)
        .imposition(Imposition::Multiplier)
        .build()
        .unwrap();
    assert_eq!(b.system().ports.get("left").unwrap().dim, 1);
    assert_eq!(b.system().ports.get("right").unwrap().dim, 1);
    // decomposition: outer ports keep their names, the interface ports are gone
    let d = EbDecomposition::new(RHO_A, EI, L, 3, 3)
        .load("load", Arc::new(|_| 1.0))
        .build()
        .unwrap();
    assert_eq!(d.port_names(), vec!["right", "load"]);
    assert!(d
        .system()
        .ports
        .get("right")
        .unwrap()
        .input
        .contains("velocity"));
}
