//! Thermoelastic Kirchhoff plate (thesis 004 §5.2.2, Chadwick model (5.41)) on the HHJ plate:
//! structure, discrete power balance with thermal dissipation, decoupled limit, and the
//! thermoelastic damping of the first clamped mode against Lifshitz–Roukes with the plate
//! relaxation strength.
#![allow(non_snake_case)]
use phlex_fem::mesh2d::{Diagonal, Mesh2d};
use phlex_fem::plate::thermoelastic_kirchhoff::{PlateThermalParams, ThermoelasticKirchhoff};
use phlex_fem::plate::{KirchhoffHhj, KirchhoffParams};
use phlex_fem::thermoelastic_beam::{lifshitz_roukes_inverse_q, ThermoBeamParams};
use phlex_solve::eigen::{modes, EigenParams};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::{InputFn, Signal};

const E: f64 = 1e9;
const NU: f64 = 0.3;
const RHO: f64 = 1000.0;
const H: f64 = 0.02;

fn clamped_plate(n: usize) -> KirchhoffHhj {
    let mesh = Mesh2d::unit_square(n, Diagonal::Right).unwrap();
    let p = KirchhoffParams::isotropic(E, NU, RHO, H).unwrap();
    KirchhoffHhj::new(p, &mesh, 2)
        .unwrap()
        .clamped("left")
        .clamped("right")
        .clamped("bottom")
        .clamped("top")
}

/// Relaxation strength Δ_P = 1e-4 and diffusivity χ placing a mode of frequency `omega` at
/// ξ = h√(ω/2χ) = `xi`.
fn thermal(omega: f64, xi: f64) -> PlateThermalParams {
    let (heat_capacity, t0) = (1e6, 300.0);
    let chi = omega / (2.0 * (xi / H).powi(2));
    let expansion = (1e-4 * heat_capacity * (1.0 - NU) / (E * t0 * (1.0 + NU))).sqrt();
    PlateThermalParams {
        young: E,
        nu: NU,
        expansion,
        heat_capacity,
        conductivity: chi * heat_capacity,
        t0,
    }
}

fn cn(t_end: f64, h: f64) -> MidpointParams {
    MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end,
            h,
            output_every: 1,
        },
        ..Default::default()
    }
}

#[test]
fn structure_and_power_balance() {
    let m = ThermoelasticKirchhoff::new(clamped_plate(3), thermal(200.0, 2.0))
        .thermal_mesh(1, 3, 2)
        .build()
        .unwrap();
    let sys = m.system();
    // J = −Jᵀ, E and R symmetric PSD
    sys.check(&Default::default()).unwrap();
    assert_eq!(sys.ports.names(), vec!["top_flux"]);
    assert_eq!(sys.blocks.last().unwrap().name, "theta");
    // initial velocity x(1−x)y(1−y) (zero on the clamped edges), then a top heat flux
    let e_plate = m
        .plate()
        .interpolate_state(&|x| 16.0 * x[0] * (1.0 - x[0]) * x[1] * (1.0 - x[1]), None)
        .unwrap();
    let e0 = m.state_from_plate(&e_plate).unwrap();
    let input = InputFn::new(vec![Signal::from_fn(|t| if t < 0.01 { 1e3 } else { 0.0 })]);
    let mut solver = LinearMidpoint::new(sys, input, cn(0.05, 5e-4)).unwrap();
    let mut hs = Vec::new();
    let mut last = Vec::new();
    let res = solver
        .run(&e0, &mut |t: f64, e: &[f64]| {
            if t > 0.0101 {
                hs.push(sys.hamiltonian(e));
            }
            last = e.to_vec();
        })
        .unwrap();
    // Crank–Nicolson: H1 − H0 = h(ȳᵀū − ēᵀRē) to round-off
    let scale = res.ledger.energy_scale();
    assert!(
        res.ledger.max_residual() < 1e-12 * scale,
        "{}",
        res.ledger.max_residual()
    );
    // after the flux is switched off, H is non-increasing (conduction dissipates)
    assert!(hs.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-13)));
    assert!(m.thermal_energy(&last) > 0.0 && m.mechanical_energy(&last) > 0.0);
}

/// β = 0: the mechanical block is the HHJ plate unchanged, so the frequencies coincide with
/// those of the plate model (to the eigen solver's round-off).
#[test]
fn decoupled_limit_is_the_kirchhoff_plate() {
    let mut tp = thermal(200.0, 2.0);
    tp.expansion = 0.0;
    let m = ThermoelasticKirchhoff::new(clamped_plate(3), tp)
        .thermal_mesh(1, 2, 1)
        .build()
        .unwrap();
    let ep = EigenParams {
        n_modes: Some(4),
        ..Default::default()
    };
    let w = modes(m.system(), &ep).unwrap().frequencies();
    let wp = modes(m.plate().system(), &ep).unwrap().frequencies();
    for k in 0..4 {
        assert!((w[k] - wp[k]).abs() < 1e-9 * wp[k], "{} vs {}", w[k], wp[k]);
    }
    // and the HHJ fundamental is near the clamped-square value 35.985 √(D/ρh)/a² (coarse mesh:
    // 3 %)
    let D = E * H.powi(3) / (12.0 * (1.0 - NU * NU));
    let exact = 35.985 * (D / (RHO * H)).sqrt();
    assert!((w[0] - exact).abs() < 3e-2 * exact, "{} vs {exact}", w[0]);
}

/// Discrete Q⁻¹ = 2(−Re λ)/Im λ of the first clamped mode at ξ ≈ 2 on an n × n mesh (CG1
/// in-plane temperature, 4 CG2 elements through the thickness) and the Lifshitz–Roukes value
/// with Δ_P = Eβ²T0(1+ν)/(ρc(1−ν)) at the discrete frequency.
fn plate_zener(n: usize) -> (f64, f64) {
    let ep = EigenParams {
        n_modes: Some(1),
        ..Default::default()
    };
    let plate = clamped_plate(n).build().unwrap();
    let w0 = modes(plate.system(), &ep).unwrap().frequencies()[0];
    let tp = thermal(w0, 2.0);
    let m = ThermoelasticKirchhoff::new(clamped_plate(n), tp)
        .thermal_mesh(1, 4, 2)
        .build()
        .unwrap();
    let lam = modes(m.system(), &ep).unwrap().modes[0].lambda;
    let q_inv = 2.0 * (-lam.re) / lam.im;
    // LR through the beam formula: same h, χ and Δ_E = Δ_P (E = 1, T0, ρc as the plate)
    let bp = ThermoBeamParams {
        young: 1.0,
        density: 1.0,
        width: 1.0,
        thickness: H,
        expansion: (tp.relaxation_strength() * tp.heat_capacity / tp.t0).sqrt(),
        heat_capacity: tp.heat_capacity,
        conductivity: tp.conductivity,
        t0: tp.t0,
    };
    let q_lr = lifshitz_roukes_inverse_q(&bp, lam.im);
    eprintln!(
        "n = {n}: ω = {:.4} (isothermal {w0:.4}), Q^-1 = {q_inv:.5e}, LR {q_lr:.5e}",
        lam.im
    );
    (q_inv, q_lr)
}

/// Thermoelastic damping of the first clamped mode against Lifshitz–Roukes. The weak
/// Laplacian coupling −⟨grad v_T, grad e_w⟩ sees the discrete slope ∂_n e_w on the clamped
/// edges (zero only weakly in HHJ), so the error is a discretization error that converges:
/// measured 5.8e-2, 1.25e-2, 4.7e-3 on 4², 6², 8² meshes (≈ O(h^2.5)). Other error
/// sources (first order in Δ_P = 1e-4, in-plane conduction ~1.5e-3 relative) are below the
/// final tolerance 1e-2.
#[test]
fn plate_zener_damping_converges_to_lifshitz_roukes() {
    let errs: Vec<f64> = [4, 6, 8]
        .iter()
        .map(|&n| {
            let (q, q_lr) = plate_zener(n);
            (q - q_lr).abs() / q_lr
        })
        .collect();
    eprintln!("relative errors {errs:?}");
    assert!(
        errs[1] < 0.5 * errs[0] && errs[2] < 0.6 * errs[1],
        "{errs:?}"
    );
    assert!(errs[2] < 1e-2);
}

#[test]
fn bad_parameters_are_rejected() {
    let mut tp = thermal(200.0, 2.0);
    tp.nu = 0.7;
    assert!(ThermoelasticKirchhoff::new(clamped_plate(2), tp)
        .build()
        .is_err());
    let mut tp = thermal(200.0, 2.0);
    tp.conductivity = 0.0;
    assert!(ThermoelasticKirchhoff::new(clamped_plate(2), tp)
        .build()
        .is_err());
}
