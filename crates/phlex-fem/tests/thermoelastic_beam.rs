//! Thermoelastic Euler–Bernoulli beam (thesis 004 §5.2.1 eq. (5.34)): structure, discrete
//! power balance with thermal dissipation, decoupled limit, and thermoelastic (Zener)
//! damping of the first mode against the Lifshitz–Roukes formula.
#![allow(non_snake_case)]
mod common;

use phlex_fem::models::beam::euler_bernoulli::{EbDiscretization, EulerBernoulli};
use phlex_fem::models::beam::thermoelastic_beam::{
    lifshitz_roukes_inverse_q, BeamSupport, ThermoBeamParams, ThermoelasticBeam,
};
use phlex_fem::EndCondition;
use phlex_solve::eigen::{modes, EigenParams};
use phlex_solve::{InputFn, Signal};
use std::f64::consts::PI;

/// Parameters chosen so that the first simply supported mode (ω1 = π²h√(E/12ρ) ≈ 57 rad/s
/// for L = 1) sits near the Zener peak ξ = h√(ω/2χ) ≈ 2.2, with a small relaxation strength
/// Δ_E = Eβ²T0/(ρc) = 1e-4 (the Lifshitz–Roukes formula is first order in Δ_E).
fn params() -> ThermoBeamParams {
    params_at(2.2)
}

/// Same beam with the diffusivity set so that the first mode sits at ξ = `xi`.
fn params_at(xi: f64) -> ThermoBeamParams {
    let (young, density, h): (f64, f64, f64) = (1e9, 1000.0, 0.02);
    let omega1 = PI * PI * h * (young / (12.0 * density)).sqrt();
    let chi = omega1 / (2.0 * (xi / h).powi(2));
    let heat_capacity: f64 = 1e6;
    let t0 = 300.0;
    let expansion = (1e-4 * heat_capacity / (young * t0)).sqrt();
    ThermoBeamParams {
        young,
        density,
        width: 0.02,
        thickness: h,
        expansion,
        heat_capacity,
        conductivity: chi * heat_capacity,
        t0,
    }
}

#[test]
fn structure_is_port_hamiltonian() {
    for (l, r) in [
        (BeamSupport::SimplySupported, BeamSupport::SimplySupported),
        (BeamSupport::Clamped, BeamSupport::Free),
    ] {
        let m = ThermoelasticBeam::new(params(), 1.0, 8)
            .ends(l, r)
            .build()
            .unwrap();
        let sys = m.system();
        // J = −Jᵀ, E and R symmetric PSD (R = kT0 b (Kx⊗Mz + Mx⊗Kz) is a stiffness)
        common::assert_ph(sys, &["load", "top_flux"]);
        let removed = match l {
            BeamSupport::Clamped => 2,
            _ => 1,
        } + match r {
            BeamSupport::Free => 0,
            _ => 1,
        };
        assert_eq!(m.ranges()[0].len(), 2 * 9 - removed);
    }
    assert!(ThermoelasticBeam::new(params(), 0.0, 8).build().is_err());
    let mut p = params();
    p.conductivity = -1.0;
    assert!(ThermoelasticBeam::new(p, 1.0, 8).build().is_err());
}

/// Free vibration from the first mode shape plus a top-surface heat pulse and a load:
/// the Crank–Nicolson step satisfies H1 − H0 = h(ȳᵀū − ēᵀRē) to round-off, H decreases
/// when the inputs are off, and heat conduction dissipates energy.
#[test]
fn power_balance_with_thermal_dissipation() {
    let m = ThermoelasticBeam::new(params(), 1.0, 8)
        .thermal_mesh(4, 1, 2)
        .build()
        .unwrap();
    let sys = m.system();
    let e0 = m.initial_velocity(&|x| (PI * x).sin()).unwrap();
    assert!((m.velocity_at(&e0, 0.5).unwrap() - 1.0).abs() < 1e-4);
    // closed system: H strictly decreasing (thermal dissipation), exact balance
    let mut solver = common::integrate::midpoint(sys, InputFn::zeros(2), 0.5, 1e-3);
    let mut hs = Vec::new();
    let res = solver
        .run(&e0, &mut |_t: f64, e: &[f64]| hs.push(sys.hamiltonian(e)))
        .unwrap();
    common::integrate::assert_power_balance(&res.ledger, 1e-12);
    assert!(hs.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-14)));
    assert!(hs.last().unwrap() < &hs[0]);
    // driven: load and top flux supply energy, balance still exact
    let input = InputFn::new(vec![
        Signal::from_fn(|t| (50.0 * t).sin()),
        Signal::Constant(100.0),
    ]);
    let mut solver = common::integrate::midpoint(sys, input, 0.2, 1e-3);
    let mut last = Vec::new();
    let res = solver
        .run(&e0, &mut |_t: f64, e: &[f64]| last = e.to_vec())
        .unwrap();
    common::integrate::assert_power_balance(&res.ledger, 1e-12);
    // the top flux heats the top face more than the bottom one
    let (top, bot) = (
        m.theta_at(&last, 0.3, 0.01).unwrap(),
        m.theta_at(&last, 0.3, -0.01).unwrap(),
    );
    assert!(top > bot && top > 0.0, "{top} {bot}");
    assert!(m.thermal_energy(&last) > 0.0);
}

/// β = 0: the bending block is exactly the HerDG1 Euler–Bernoulli beam, so the frequencies
/// equal those of [`EulerBernoulli`] (same spaces, same strong supports) to round-off and
/// the simply supported closed form (nπ/L)²√(EI/ρA) to the Hermite discretization error.
#[test]
fn decoupled_limit_is_the_euler_bernoulli_beam() {
    let mut p = params();
    p.expansion = 0.0;
    let n = 12;
    let m = ThermoelasticBeam::new(p, 1.0, n)
        .thermal_mesh(2, 1, 1)
        .build()
        .unwrap();
    let w = common::lowest_modes(m.system(), 4);
    let eb = EulerBernoulli::new(p.rho_a(), p.ei(), 1.0, n)
        .discretization(EbDiscretization::HerDg1)
        .ends(EndCondition::SimplySupported, EndCondition::SimplySupported)
        .build()
        .unwrap();
    let we = common::lowest_modes(eb.system(), 4);
    for k in 0..4 {
        let exact = ((k + 1) as f64 * PI).powi(2) * (p.ei() / p.rho_a()).sqrt();
        eprintln!("mode {k}: {} vs EB {} vs exact {exact}", w[k], we[k]);
        assert!((w[k] - we[k]).abs() < 1e-9 * we[k]);
        // HerDG1 on 12 elements: relative error ≈ 3.3e-6 (k+1)^4 (O((kh)^4), measured
        // 3.3e-6, 5.2e-5, 2.6e-4 for modes 1..3): bound 5e-6 (k+1)^4
        let bound = 5e-6 * ((k + 1) as f64).powi(4);
        assert!((w[k] - exact).abs() < bound * exact);
    }
}

/// The eigenvalue λ of the first simply supported mode of the beam `p` (length 1, 16
/// elements, thermal mesh of 8 CG2 elements through the thickness).
fn first_mode(p: &ThermoBeamParams) -> faer::c64 {
    let m = ThermoelasticBeam::new(*p, 1.0, 16)
        .thermal_mesh(8, 2, 2)
        .build()
        .unwrap();
    let ep = EigenParams {
        n_modes: Some(2),
        ..Default::default()
    };
    modes(m.system(), &ep).unwrap().modes[0].lambda
}

/// Thermoelastic damping of the first simply supported mode near the Zener peak: discrete
/// Q⁻¹ = 2(−Re λ)/Im λ vs Lifshitz–Roukes at the discrete frequency. Error sources: the
/// first-order-in-Δ_E formula (Δ_E = 1e-4), axial heat conduction neglected by LR
/// (relative (h/L)² = 4e-4), and the CG2 × CG2 temperature discretization: 1e-3
/// (measured 5.0e-5).
#[test]
fn zener_damping_matches_lifshitz_roukes() {
    let p = params();
    let lam = first_mode(&p);
    let omega = lam.im;
    let q_inv = 2.0 * (-lam.re) / lam.im;
    let q_lr = lifshitz_roukes_inverse_q(&p, omega);
    let omega_iso = PI * PI * (p.ei() / p.rho_a()).sqrt();
    eprintln!(
        "ω = {omega:.6} (isothermal {omega_iso:.6}), Q^-1 = {q_inv:.6e}, LR {q_lr:.6e}, rel {:.2e}",
        (q_inv - q_lr).abs() / q_lr
    );
    assert!((q_inv - q_lr).abs() < 1e-3 * q_lr);
    // the coupled mode is stiffer than the isothermal one by less than Δ_E/2
    assert!(omega > omega_iso && omega < omega_iso * (1.0 + 0.5 * p.relaxation_strength()));
}

/// The damping curve Q⁻¹(ξ) across the Zener peak (ξ = 0.7: conduction-dominated, 6: nearly
/// adiabatic with a thermal boundary layer of thickness ~h/ξ resolved by 8 CG2 elements).
#[test]
fn zener_curve_across_the_peak() {
    // measured rel. errors 4.3e-4, 2.9e-4, 2.0e-4, 1.1e-4 (largest where axial conduction,
    // neglected by LR, matters most relative to the slow through-thickness relaxation)
    for (xi, tol) in [(0.7, 1e-3), (1.5, 1e-3), (4.0, 1e-3), (6.0, 1e-3)] {
        let p = params_at(xi);
        let lam = first_mode(&p);
        let q_inv = 2.0 * (-lam.re) / lam.im;
        let q_lr = lifshitz_roukes_inverse_q(&p, lam.im);
        let rel = (q_inv - q_lr).abs() / q_lr;
        eprintln!("xi = {xi}: Q^-1 = {q_inv:.6e}, LR {q_lr:.6e}, rel {rel:.2e}");
        assert!(rel < tol);
    }
}
