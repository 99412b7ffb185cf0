//! Heat equation pHDAE and 1D thermoelasticity (thesis 004 §5.1, §8.3; summary §2.8, §2.9,
//! §5.5): structure, discrete power balance, and the Danilovskaya validation against the
//! Laplace-domain solution (8.51) inverted by de Hoog's method.
#![allow(non_snake_case)]
mod common;

use phlex_core::sparse;
use phlex_fem::models::continuum::heat::{Heat1d, HeatDiscretization, ThermalEnd};
use phlex_fem::models::continuum::thermoelastic_1d::{
    danilovskaya_laplace, MechanicalDiscretization, MechanicalEnd, ThermoField, Thermoelastic1d,
    ThermoelasticParams,
};
use phlex_solve::laplace_inversion::{erfc, DeHoog};
use phlex_solve::midpoint::LinearMidpoint;
use phlex_solve::{InputFn, Signal};

/// Heat equation, insulated ends, θ0 = cos(πx/L) + 0.3 cos(3πx/L) (both discretizations):
/// * H = ½∫CT0θ² decreases at every step (dissipative pHDAE, R = diag(0, (T0k)^-1));
/// * the Crank–Nicolson step satisfies H1 − H0 = −h ēᵀRē exactly: |residual| < 1e-10 H0;
/// * the decay rate of H once the 3rd mode has died is that of the slowest mode,
///   2κπ²/L² (κ = k/C), within 1e-3 on 64 elements (O(h²) eigenvalue error).
#[test]
fn heat_energy_decays_with_exact_power_balance() {
    let (c, k, t0, l) = (2.0, 3.0, 1.5, 1.0);
    let kappa = k / c;
    for d in [HeatDiscretization::CgDg(1), HeatDiscretization::DgCg(2)] {
        let m = Heat1d::new(c, k, t0, l, 64)
            .discretization(d)
            .ends(ThermalEnd::Insulated, ThermalEnd::Insulated)
            .build()
            .unwrap();
        let sys = m.system();
        sys.check(&Default::default()).unwrap();
        assert!(sys.ports.is_empty());
        let pi = std::f64::consts::PI;
        let e0 = m
            .initial_state(&|x| (pi * x / l).cos() + 0.3 * (3.0 * pi * x / l).cos())
            .unwrap();
        let h = 1e-3;
        let mut cn = common::integrate::midpoint(sys, InputFn::zeros(0), 0.5, h);
        let mut hs = Vec::new();
        let res = cn
            .run(&e0, &mut |_t: f64, e: &[f64]| hs.push(sys.hamiltonian(e)))
            .unwrap();
        let h0 = hs[0];
        assert!(
            hs.windows(2).all(|w| w[1] < w[0]),
            "{d:?}: H not decreasing"
        );
        let led = &res.ledger;
        // residual of each step: H1 − H0 − h(ȳu − ēRē); the ledger's dissipation is the
        // midpoint ēᵀRē, independent of the integrator's own bookkeeping we recheck it:
        let worst = led.residual.iter().fold(0.0f64, |a, r| a.max(r.abs()));
        assert!(
            worst < 1e-10 * h0,
            "{d:?}: power balance residual {worst:.2e}"
        );
        let dissipated = *led.dissipated.last().unwrap();
        let h_end = *hs.last().unwrap();
        assert!(
            (h0 - h_end - dissipated).abs() < 1e-10 * h0,
            "{d:?}: H0 − H_end = {} vs dissipated {dissipated}",
            h0 - h_end
        );
        // decay rate between t = 0.3 and 0.5 (3rd mode already e^{-9·2κπ²·0.3} ≈ 1e-35
        // relative): 2κπ²/L² up to the CG/DG eigenvalue error O(h²) ≈ 2e-4
        let (i3, i5) = (300, 500);
        let rate = (hs[i3] / hs[i5]).ln() / 0.2;
        let expect = 2.0 * kappa * pi * pi / (l * l);
        let rel = (rate - expect).abs() / expect;
        eprintln!("{d:?}: decay rate {rate:.6} vs 2κπ²/L² = {expect:.6} (rel {rel:.1e}), residual {worst:.1e}");
        assert!(rel < 1e-3, "{d:?}: {rel}");
    }
}

/// Ports in both causalities: the boundary power y·u enters the balance exactly
/// (H1 − H0 = h(ȳᵀū − ēᵀRē)), flux ports (CG temperature) and temperature ports (DG).
#[test]
fn heat_ports_power_balance() {
    for d in [HeatDiscretization::CgDg(1), HeatDiscretization::DgCg(1)] {
        let m = Heat1d::new(1.0, 0.5, 1.0, 2.0, 40)
            .discretization(d)
            .build()
            .unwrap();
        let sys = m.system();
        assert_eq!(sys.ports.names(), vec!["left", "right"]);
        let input = InputFn::new(vec![
            Signal::from_fn(|t| (3.0 * t).sin()),
            Signal::Constant(0.2),
        ]);
        let e0 = m.initial_state(&|x| 0.1 * x).unwrap();
        let mut cn = common::integrate::midpoint(sys, input, 1.0, 2e-3);
        let res = cn.run(&e0, &mut |_t: f64, _e: &[f64]| {}).unwrap();
        let scale = res.ledger.energy_scale();
        assert!(res.ledger.max_residual() < 1e-11 * scale, "{d:?}");
        let supplied: f64 = res
            .ledger
            .supplied
            .iter()
            .map(|s| s.last().unwrap().abs())
            .sum();
        assert!(supplied > 1e-3, "{d:?}: ports supplied no energy");
    }
}

/// Structure of the coupled system in every causality combination: J skew, E and R
/// symmetric PSD (R only on j_Q), port names; the velocity-input mechanics reject a DG
/// temperature and a free end (typed errors).
#[test]
fn thermoelastic_structure_and_ports() {
    let p = ThermoelasticParams::table_8_6();
    let combos = [
        (
            MechanicalDiscretization::CgDg(1),
            HeatDiscretization::CgDg(1),
        ),
        (
            MechanicalDiscretization::CgDg(2),
            HeatDiscretization::DgCg(1),
        ),
        (
            MechanicalDiscretization::DgCg(1),
            HeatDiscretization::CgDg(1),
        ),
        (
            MechanicalDiscretization::DgCg(2),
            HeatDiscretization::CgDg(2),
        ),
    ];
    for (md, hd) in combos {
        let m = Thermoelastic1d::new(p, 1e-6, 12)
            .discretization(md, hd)
            .build()
            .unwrap();
        let sys = m.system();
        common::assert_ph(sys, &["mech_left", "mech_right", "heat_left", "heat_right"]);
        let rq = sys.block_range("j_Q").unwrap();
        let R = sparse::to_dense(&sys.R);
        for i in 0..sys.n_states() {
            for j in 0..sys.n_states() {
                if !(rq.contains(&i) && rq.contains(&j)) {
                    assert_eq!(R[(i, j)], 0.0);
                }
            }
        }
        // mechanics coupled to the temperature in J (A_β ≠ 0)
        let rv = m.field(ThermoField::Velocity).unwrap().range();
        let rt = m.field(ThermoField::Temperature).unwrap().range();
        let J = sparse::to_dense(&sys.J);
        let coupling = rv
            .clone()
            .flat_map(|i| rt.clone().map(move |j| (i, j)))
            .fold(0.0f64, |a, (i, j)| a.max(J[(i, j)].abs()));
        assert!(coupling > 0.0, "{md:?}/{hd:?}: no thermoelastic coupling");
    }
    assert!(Thermoelastic1d::new(p, 1.0, 4)
        .discretization(
            MechanicalDiscretization::DgCg(1),
            HeatDiscretization::DgCg(1)
        )
        .build()
        .is_err());
    assert!(Thermoelastic1d::new(p, 1.0, 4)
        .discretization(
            MechanicalDiscretization::DgCg(1),
            HeatDiscretization::CgDg(1)
        )
        .ends(
            (MechanicalEnd::Free, MechanicalEnd::Clamped),
            (ThermalEnd::Port, ThermalEnd::Port)
        )
        .build()
        .is_err());
}

/// Power balance of the coupled system with all four ports driven (velocity-input and
/// traction-input mechanics): H1 − H0 = h(ȳᵀū − ēᵀRē) to round-off (thesis (5.21)), and
/// the port outputs carry the total stress (Remark 13): for the velocity-input mechanics,
/// y_mech_right = (e_eps − C_β θ)(L) at the midpoint state.
#[test]
fn thermoelastic_power_balance_all_ports() {
    let p = ThermoelasticParams::danilovskaya(1.0).unwrap();
    for (md, hd) in [
        (
            MechanicalDiscretization::CgDg(1),
            HeatDiscretization::DgCg(1),
        ),
        (
            MechanicalDiscretization::DgCg(1),
            HeatDiscretization::CgDg(1),
        ),
    ] {
        let m = Thermoelastic1d::new(p, 5.0, 50)
            .discretization(md, hd)
            .build()
            .unwrap();
        let sys = m.system();
        let input = InputFn::new(vec![
            Signal::from_fn(|t| 0.1 * (2.0 * t).sin()),
            Signal::Constant(0.0),
            Signal::Constant(1.0),
            Signal::from_fn(|t| -0.2 * t),
        ]);
        let mut cn = common::integrate::midpoint(sys, input, 3.0, 5e-3);
        let res = cn
            .run(&vec![0.0; sys.n_states()], &mut |_t: f64, _e: &[f64]| {})
            .unwrap();
        let scale = res.ledger.energy_scale();
        eprintln!(
            "{md:?}/{hd:?}: max residual {:.2e} (scale {scale:.3e})",
            res.ledger.max_residual()
        );
        assert!(res.ledger.max_residual() < 1e-10 * scale);
        if matches!(md, MechanicalDiscretization::DgCg(_)) {
            let e = &res.state;
            let y = sys.port_output("mech_right", e).unwrap()[0];
            let s = m
                .field(ThermoField::Stress)
                .unwrap()
                .evaluate(e, 5.0)
                .unwrap();
            let th = m
                .field(ThermoField::Temperature)
                .unwrap()
                .evaluate(e, 5.0)
                .unwrap();
            assert!((y - (s - p.c_beta * th)).abs() < 1e-12 * (1.0 + y.abs()));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Danilovskaya
// ---------------------------------------------------------------------------------------

/// Numerical T̂(1, t), û(1, t) at the output times t_n = nΔt (n ≥ 1) for coupling δ, on
/// [0, L̂] with `n` CG1×DG0 / DG0×CG1 elements and Crank–Nicolson step `dt` up to t̂ = 4.
/// δ > 0: the two-way pH system; δ = 0: the cascade heat → rod (each run by CN; the
/// rod's input table holds the heat states at the grid times, so its midpoint value is
/// the heat midpoint exactly, i.e. identical to CN on the block-triangular system).
/// û is the trapezoidal time integral of the velocity (thesis §8.3.3).
fn danilovskaya_numeric(delta: f64, length: f64, n: usize, dt: f64) -> Vec<(f64, f64, f64)> {
    let t_end = 4.0;
    let setup = Thermoelastic1d::danilovskaya(delta, length, n).unwrap();
    let params = common::integrate::midpoint_params(0.0, t_end, dt);
    let mut rec: Vec<(f64, f64, f64)> = Vec::new(); // (t, θ(1), v(1))
    if delta > 0.0 {
        let m = setup.build().unwrap();
        let sys = m.system();
        common::assert_ph(sys, &["heat_left"]);
        let pt = m
            .field(ThermoField::Temperature)
            .unwrap()
            .probe(1.0)
            .unwrap();
        let pv = m.field(ThermoField::Velocity).unwrap().probe(1.0).unwrap();
        let mut cn =
            LinearMidpoint::new(sys, InputFn::new(vec![Signal::Constant(1.0)]), params).unwrap();
        let res = cn
            .run(&vec![0.0; sys.n_states()], &mut |t: f64, e: &[f64]| {
                rec.push((t, pt.dot(e), pv.dot(e)))
            })
            .unwrap();
        // pH power balance of the strongly coupled model (weighted functional H_E + H_T/c_δ)
        common::integrate::assert_power_balance(&res.ledger, 1e-10);
    } else {
        let (mech, heat) = setup.build_one_way().unwrap();
        heat.system().check(&Default::default()).unwrap();
        mech.system().check(&Default::default()).unwrap();
        let hs = heat.system();
        let tr = heat.temperature().range();
        let mut times = Vec::new();
        let mut thetas: Vec<Vec<f64>> = vec![Vec::new(); tr.len()];
        let pt = heat.temperature().probe(1.0).unwrap();
        let mut theta1 = Vec::new();
        let mut cn_h =
            LinearMidpoint::new(hs, InputFn::new(vec![Signal::Constant(1.0)]), params).unwrap();
        cn_h.run(&vec![0.0; hs.n_states()], &mut |t: f64, e: &[f64]| {
            times.push(t);
            theta1.push(pt.dot(e));
            for (k, i) in tr.clone().enumerate() {
                thetas[k].push(e[i]);
            }
        })
        .unwrap();
        let ms = mech.system();
        assert_eq!(ms.ports.names(), vec!["thermal_stress"]);
        let input = InputFn::new(
            thetas
                .into_iter()
                .map(|v| Signal::table(times.clone(), v).unwrap())
                .collect(),
        );
        let pv = mech
            .field(ThermoField::Velocity)
            .unwrap()
            .probe(1.0)
            .unwrap();
        let mut k = 0;
        let mut cn_m = LinearMidpoint::new(ms, input, params).unwrap();
        cn_m.run(&vec![0.0; ms.n_states()], &mut |t: f64, e: &[f64]| {
            assert!((t - times[k]).abs() < 1e-12);
            rec.push((t, theta1[k], pv.dot(e)));
            k += 1;
        })
        .unwrap();
    }
    let mut out = Vec::new();
    let mut u = 0.0;
    for w in rec.windows(2) {
        let ((t0, _, v0), (t1, th1, v1)) = (w[0], w[1]);
        u += 0.5 * (t1 - t0) * (v0 + v1);
        out.push((t1, th1, u));
    }
    out
}

/// Errors of the numerical T̂(1, t), û(1, t) against the inverted Laplace solution over
/// the output times outside the window (t_a, t_b) around the elastic wave front (which
/// reaches x̂ = 1 at t̂ = 1), normalized by max_t |reference| (û changes sign
/// near t̂ ≈ 1.7, so a pointwise relative error is meaningless there). Every `stride`-th
/// output time is compared.
fn danilovskaya_errors(
    delta: f64,
    num: &[(f64, f64, f64)],
    (t_a, t_b): (f64, f64),
    stride: usize,
) -> (f64, f64) {
    let dh = DeHoog::default();
    let (mut et, mut eu, mut mt, mut mu) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for &(t, th, u) in num.iter().skip(stride - 1).step_by(stride) {
        let rt = dh
            .invert(|s| danilovskaya_laplace(s, 1.0, delta).0, t)
            .unwrap();
        let ru = dh
            .invert(|s| danilovskaya_laplace(s, 1.0, delta).1, t)
            .unwrap();
        mt = mt.max(rt.abs());
        mu = mu.max(ru.abs());
        if t > t_a && t < t_b {
            continue;
        }
        et = et.max((th - rt).abs());
        eu = eu.max((u - ru).abs());
    }
    (et / mt, eu / mu)
}

/// Fast Danilovskaya run (CI): L̂ = 10, 200 elements (h = 0.05, the thesis mesh), Δt =
/// 0.004 (thesis: 10⁻³ t_end), δ = 0 and 1. The front at t̂ = 1 is a velocity jump
/// (δ = 0: kink of û) and also a temperature jump (δ = 1). CG1×DG0 velocity/stress is the
/// consistent-mass P1 wave equation, whose dispersion ω²h² = 6(1 − cos kh)/(2 + cos kh)
/// has group velocities from 0 up to √2 (at kh = 2π/3), independent of h: a dispersive
/// precursor reaches x̂ = 1 from t̂ = 1/√2 ≈ 0.71 on (measured: its error grows from
/// t̂ ≈ 0.6) and slow short waves trail behind the front. The window excluded is therefore
/// (0.6, 1.3); outside it both T̂ and û agree with the inverted Laplace solution within 1 %
/// of their maxima (measured: T̂ 3.6e-4 / 4.5e-4, û 2.2e-3 / 1.7e-3 for δ = 0 / 1; inside
/// the window the error peaks at 0.9 % at t̂ = 0.72 and more at the front itself).
/// Fine twin: `danilovskaya_fine` (ignored).
#[test]
fn danilovskaya_fast() {
    for delta in [0.0, 1.0] {
        let num = danilovskaya_numeric(delta, 10.0, 200, 0.004);
        let (et, eu) = danilovskaya_errors(delta, &num, (0.6, 1.3), 5);
        eprintln!("Danilovskaya δ = {delta}: max error T̂ {et:.2e}, û {eu:.2e} (relative to max)");
        assert!(
            et < 0.01 && eu < 0.01,
            "δ = {delta}: T̂ {et:.3e}, û {eu:.3e}"
        );
    }
}

/// δ = 0 temperature is the heat kernel step response erfc(x̂/(2√t̂)) (independent of the
/// inversion): the cascade's heat part on 200 elements agrees within 1 % for t̂ ≥ 0.25.
#[test]
fn danilovskaya_uncoupled_temperature_is_erfc() {
    let num = danilovskaya_numeric(0.0, 10.0, 200, 0.004);
    let worst = num
        .iter()
        .filter(|r| r.0 >= 0.25)
        .map(|&(t, th, _)| (th - erfc(1.0 / (2.0 * t.sqrt()))).abs() / erfc(1.0 / (2.0 * t.sqrt())))
        .fold(0.0f64, f64::max);
    eprintln!("δ = 0: max relative error of T̂(1, t) vs erfc for t ≥ 0.25: {worst:.2e}");
    assert!(worst < 0.01);
}

/// Fine Danilovskaya run: 1000 elements, Δt = 8e-4 (h/Δt fixed), same window (the
/// precursor's lead t̂ = 1/√2 does not depend on h, its amplitude does). Measured: T̂
/// 1.4e-5 / 2.0e-5, û 1.9e-4 / 1.3e-4 (δ = 0 / 1), i.e. 10–25× below the fast run for
/// h/5; asserted < 0.1 %.
#[test]
#[ignore = "fine mesh study (5000 steps x 4000 states, ~2 s release); fast twin: danilovskaya_fast"]
fn danilovskaya_fine() {
    for delta in [0.0, 1.0] {
        let num = danilovskaya_numeric(delta, 10.0, 1000, 8e-4);
        let (et, eu) = danilovskaya_errors(delta, &num, (0.6, 1.3), 25);
        eprintln!("fine Danilovskaya δ = {delta}: max error T̂ {et:.2e}, û {eu:.2e}");
        assert!(
            et < 1e-3 && eu < 1e-3,
            "δ = {delta}: T̂ {et:.3e}, û {eu:.3e}"
        );
    }
}

/// The physical Table 8.6 material with c_δ (thesis (8.43)) rescaled to the coupling
/// number δ = 1 discretizes the same dimensionless problem: with the state scaling
/// S = diag(U/τ, sU/C_x, 1, kT0/C_x) (velocity, stress, θ, flux; U = displacement scale,
/// τ = time scale, C_x = length scale) on the mesh scaled by C_x, there is a row (test
/// function) scaling P with E_phys S/τ = P E_unit, (J − R)_phys S = P (J − R)_unit and
/// B_phys = P B_unit, to 1e-10 relative. (Simulating in cm-units directly is not useful:
/// the midpoint matrix then spans ~20 orders of magnitude.)
#[test]
fn physical_units_match_dimensionless() {
    let phys = ThermoelasticParams::table_8_6()
        .with_coupling_number(1.0)
        .unwrap();
    let unit = ThermoelasticParams::danilovskaya(1.0).unwrap();
    let (lx, tau, ux) = (
        phys.length_scale(),
        phys.time_scale(),
        phys.displacement_scale(),
    );
    let build = |p: ThermoelasticParams, length: f64| {
        let mut s = Thermoelastic1d::danilovskaya(1.0, length, 20).unwrap();
        s.params = p;
        s.build().unwrap()
    };
    let mu = build(unit, 5.0);
    let mp = build(phys, 5.0 * lx);
    let (su, sp) = (mu.system(), mp.system());
    let n = su.n_states();
    assert_eq!(n, sp.n_states());
    let mut scale = vec![0.0; n];
    let k_t0 = phys.conductivity * phys.t0;
    for (f, v) in [
        (ThermoField::Velocity, ux / tau),
        (ThermoField::Stress, phys.modulus * ux / lx),
        (ThermoField::Temperature, 1.0),
        (ThermoField::HeatFlux, k_t0 / lx),
    ] {
        for i in mp.field(f).unwrap().range() {
            scale[i] = v;
        }
    }
    let dense = |a: &phlex_core::SparseMat| sparse::to_dense(a);
    let (Eu, Au, Bu) = (dense(&su.E), dense(&su.j_minus_r()), dense(&su.B));
    let (Ep, Ap, Bp) = (dense(&sp.E), dense(&sp.j_minus_r()), dense(&sp.B));
    let mut worst = 0.0f64;
    for i in 0..n {
        // row scaling from the largest entry of the unit row of (J − R)
        let j = (0..n)
            .max_by(|&a, &b| Au[(i, a)].abs().total_cmp(&Au[(i, b)].abs()))
            .unwrap();
        let p = Ap[(i, j)] * scale[j] / Au[(i, j)];
        let (mut ea, mut eb) = (0.0f64, 0.0f64);
        for j in 0..n {
            let a = (Ap[(i, j)] * scale[j] - p * Au[(i, j)]).abs();
            let e = (Ep[(i, j)] * scale[j] / tau - p * Eu[(i, j)]).abs();
            ea = ea.max(a).max(e);
            eb = eb.max((p * Au[(i, j)]).abs()).max((p * Eu[(i, j)]).abs());
        }
        let eB = (Bp[(i, 0)] - p * Bu[(i, 0)]).abs();
        worst = worst.max(ea / eb).max(eB / eb);
    }
    eprintln!("Table 8.6 (c_δ-scaled) vs dimensionless: max relative row mismatch {worst:.2e}");
    assert!(worst < 1e-10);
}
