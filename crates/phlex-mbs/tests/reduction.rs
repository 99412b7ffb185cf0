#![allow(non_snake_case)]
//! Structure-preserving reduction (paper 000 §5.3, eq. (50)): modal truncation and
//! one-sided Krylov moment matching, on a PFEM cantilever and on the linearised four-bar
//! of §6.2.
//!
//! References: the first frequencies of the full model (modal truncation reproduces the
//! retained modes exactly: an invariant subspace), the moments of the full transfer
//! function (Krylov), and the closed-form static compliance of a cantilever,
//! $w = FL^3/3EI + ML^2/2EI$, $\theta = FL^2/2EI + ML/EI$ (cubic Hermite elements are exact
//! for end loads, so the FE compliance equals it to round-off).
mod common;

use common::consistent;

use common::four_bar::four_bar;
use faer::Side;
use phlex_core::sparse;
use phlex_core::structure::Tolerances;
use phlex_core::LinearPhSystem;
use phlex_fem::models::beam::euler_bernoulli::{EbDiscretization, EulerBernoulli};
use phlex_fem::EndCondition;
use phlex_mbs::analysis::reduce::reduce_flexible;
use phlex_mbs::*;
use phlex_solve::eigen::EigenParams;
use phlex_solve::reduce::{
    compare_frequencies, moments, reduce, transfer_error, ReductionGroup, ReductionMethod,
};

const RHO_A: f64 = 2.0;
const EI: f64 = 3.0;
const L: f64 = 1.0;

/// 16-element HerDG1 cantilever, clamp strong, free end a port (force, moment).
fn cantilever() -> LinearPhSystem {
    EulerBernoulli::new(RHO_A, EI, L, 16)
        .discretization(EbDiscretization::HerDg1)
        .ends(EndCondition::Clamped, EndCondition::Port)
        .build()
        .unwrap()
        .into_system()
}

fn all(sys: &LinearPhSystem, method: ReductionMethod) -> Vec<ReductionGroup> {
    vec![ReductionGroup {
        name: "beam".into(),
        variables: (0..sys.n_states()).collect(),
        method,
    }]
}

/// The reduced system is pH: J skew and E, R symmetric (exactly, by construction), E SPD.
fn assert_ph(sys: &LinearPhSystem) {
    sys.check(&Tolerances::default()).unwrap();
    let J = sparse::to_dense(&sys.J);
    let E = sparse::to_dense(&sys.E);
    for i in 0..J.nrows() {
        for j in 0..J.ncols() {
            assert_eq!(J[(i, j)], -J[(j, i)]);
            assert_eq!(E[(i, j)], E[(j, i)]);
        }
    }
}

fn assert_spd(sys: &LinearPhSystem) {
    assert!(
        sparse::to_dense(&sys.E).llt(Side::Lower).is_ok(),
        "E_r not SPD"
    );
}

/// Modal truncation to 6 modes (12 states of 64): the first 3 (indeed all 6) frequencies
/// are those of the full model (invariant subspace; tolerance 1e-6 as required, measured
/// ~1e-13).
#[test]
fn cantilever_modal_six_modes() {
    let sys = cantilever();
    let red = reduce(&sys, &all(&sys, ReductionMethod::Modal { n_modes: 6 })).unwrap();
    assert_eq!(red.system.n_states(), 12);
    assert_ph(&red.system);
    assert_spd(&red.system);
    let c = compare_frequencies(&sys, &red.system, 6, &EigenParams::default()).unwrap();
    println!(
        "modal 6: full {:?}\n         red  {:?}\n         err {:?}",
        c.full, c.reduced, c.relative_error
    );
    for k in 0..3 {
        assert!(
            c.relative_error[k] < 1e-6,
            "mode {k}: {:.2e}",
            c.relative_error[k]
        );
    }
    assert!(c.relative_error.iter().all(|e| *e < 1e-9));
    // beam theory check of the full model: ω1 = 1.87510407² sqrt(EI/ρAL⁴) within 1e-6
    let w1 = 1.875_104_07f64.powi(2) * (EI / (RHO_A * L.powi(4))).sqrt();
    assert!((c.full[0] - w1).abs() < 1e-6 * w1);
    // transfer-function errors well below the first mode are small but not zero (the
    // static correction is missing in modal truncation)
    let te = transfer_error(&sys, &red.system, &[0.1 * w1, 0.5 * w1, 2.0 * w1]).unwrap();
    println!("modal 6: transfer errors at 0.1, 0.5, 2 ω1: {}", sci(&te));
}

/// Krylov about s0 = 0 with 4 moments (2 inputs → 8 vectors, alternately stress-type
/// $(J^{-1}E)^{2k}J^{-1}B$ and velocity-type; an even count keeps $J_r$ invertible): m0..m3
/// equal those of the full model to round-off, m1 (the static compliance) equals beam
/// theory, and the first frequency is within the stated tolerance (see the assertion).
#[test]
fn cantilever_krylov_static_moments() {
    let sys = cantilever();
    let red = reduce(
        &sys,
        &all(
            &sys,
            ReductionMethod::Krylov {
                s0: 0.0,
                n_moments: 4,
            },
        ),
    )
    .unwrap();
    assert_eq!(red.system.n_states(), 8);
    assert_ph(&red.system);
    assert_spd(&red.system);
    let mf = moments(&sys, 0.0, 4).unwrap();
    let mr = moments(&red.system, 0.0, 4).unwrap();
    // input order of the "right" port: (F, M); outputs (ẇ, θ̇)
    let exact = [
        [L.powi(3) / (3.0 * EI), L.powi(2) / (2.0 * EI)],
        [L.powi(2) / (2.0 * EI), L / EI],
    ];
    let scale = exact[0][0];
    for i in 0..2 {
        for j in 0..2 {
            assert!(
                mf[0][(i, j)].abs() < 1e-12 * scale,
                "m0 = 0 (skew, SISO blocks)"
            );
            let c = mf[1][(i, j)];
            assert!(
                (c - exact[i][j]).abs() < 1e-10 * scale,
                "compliance {i}{j}: {c} vs {}",
                exact[i][j]
            );
            for k in 0..4 {
                let d = (mf[k][(i, j)] - mr[k][(i, j)]).abs();
                let s = mf[k][(0, 0)].abs().max(mf[k][(1, 1)].abs()).max(1e-300);
                assert!(
                    d < 1e-9 * s,
                    "moment {k} ({i},{j}): {} vs {}",
                    mf[k][(i, j)],
                    mr[k][(i, j)]
                );
            }
        }
    }
    println!(
        "Krylov s0=0: compliance {:.15e} (exact {:.15e})",
        mr[1][(0, 0)],
        exact[0][0]
    );
    let c = compare_frequencies(&sys, &red.system, 2, &EigenParams::default()).unwrap();
    println!(
        "Krylov s0=0, 4 moments: full {:?} red {:?} err {:?}",
        c.full, c.reduced, c.relative_error
    );
    // measured 1.7e-9: the first mode is almost in the 8-vector Krylov space
    assert!(
        c.relative_error[0] < 1e-7,
        "ω1 error {:.2e}",
        c.relative_error[0]
    );
    let w1 = c.full[0];
    let te = transfer_error(&sys, &red.system, &[0.1 * w1, 0.5 * w1, 2.0 * w1]).unwrap();
    println!(
        "Krylov s0=0: transfer errors at 0.1, 0.5, 2 ω1: {}",
        sci(&te)
    );
    // moment matching: G - G_r = O(s^8) about 0 (measured 7e-15 at 0.1 ω1, 1e-11 at 0.5 ω1)
    assert!(te[0] < 1e-12, "low-frequency transfer error {:.2e}", te[0]);
    assert!(te[1] < 1e-9, "transfer error at ω1/2 {:.2e}", te[1]);
}

/// The linearised four-bar (θ1 = 60°, 8 elements per link): the flexible part of every
/// link reduced (rigid velocities and multipliers kept) stays pH, and the first three
/// frequencies converge as the bases grow. Measured worst relative errors of ω1..ω3:
/// modal 2 modes/link 1.3e-2, 4 modes 2.0e-3; Krylov (s0 = 0) 2 moments 6.3e-4,
/// 4 moments 5.9e-9 — the Krylov space contains the static response to the joint
/// forces and rigid accelerations (Craig–Bampton-like constraint modes), modal truncation
/// does not.
#[test]
fn four_bar_flexible_reduction() {
    let mb = four_bar(60f64.to_radians(), 8);
    let init = consistent(&mb);
    let lin = ph_linearization(&mb, &init.state, &[]).unwrap();
    let n_full = lin.system.n_states();
    let mut worst = Vec::new();
    for method in [
        ReductionMethod::Modal { n_modes: 2 },
        ReductionMethod::Modal { n_modes: 4 },
        ReductionMethod::Krylov {
            s0: 0.0,
            n_moments: 2,
        },
        ReductionMethod::Krylov {
            s0: 0.0,
            n_moments: 4,
        },
    ] {
        let red = reduce_flexible(&lin, method).unwrap();
        assert_ph(&red.system);
        let c = compare_frequencies(&lin.system, &red.system, 3, &EigenParams::default()).unwrap();
        println!(
            "{:<28} {} -> {} states: ω {:.4?} vs {:.4?}, errors {}",
            method.describe(),
            n_full,
            red.system.n_states(),
            c.reduced,
            c.full,
            sci(&c.relative_error)
        );
        assert_eq!(c.reduced.len(), 3);
        worst.push(c.relative_error.iter().fold(0.0f64, |a, &b| a.max(b)));
    }
    assert!(worst[0] < 2e-2 && worst[1] < 3e-3, "modal: {worst:?}");
    assert!(worst[1] < worst[0], "modal truncation converges: {worst:?}");
    assert!(worst[2] < 1e-3 && worst[3] < worst[2], "Krylov: {worst:?}");
}

/// Scientific formatting of a list.
fn sci(v: &[f64]) -> String {
    v.iter()
        .map(|x| format!("{x:.2e}"))
        .collect::<Vec<_>>()
        .join(" ")
}
