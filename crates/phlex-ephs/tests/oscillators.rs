//! Seed 001 §2 worked examples: the oscillator (Fig. 5, eq. (5)) and the damped
//! oscillator (Figs. 6–7, eq. (8)), assembled from the EPHS language and integrated by
//! Radau5, against the analytic solutions; functoriality of the semantics.
mod common;

use common::{radau, Balance};
use phlex_ephs::library::oscillator::{damped_oscillator, oscillator};
use phlex_ephs::{assemble, assemble_nested, EphsDae, System};
use phlex_solve::{ImplicitDae, InputFn, Signal};
use rand::{rngs::StdRng, Rng, SeedableRng};

const THETA0: f64 = 300.0;

#[test]
fn oscillator_equations_are_eq5() {
    // ẋ = (p/m, −kq + p.f) at random states and inputs (eq. (5)).
    let (k, m) = (2.5, 0.7);
    let sys: System = oscillator(k, m).unwrap().into();
    let dae = EphsDae::new(assemble(&sys).unwrap(), THETA0).unwrap();
    assert_eq!(dae.state_names(), ["pe.q", "ke.p"]);
    assert_eq!(dae.input_names(), ["p.f"]);
    let mut rng = StdRng::seed_from_u64(0);
    for _ in 0..20 {
        let u: f64 = rng.gen_range(-3.0..3.0);
        let dae = EphsDae::new(assemble(&sys).unwrap(), THETA0)
            .unwrap()
            .with_inputs(InputFn::new(vec![Signal::from_fn(move |_| u)]))
            .unwrap();
        let y = [rng.gen_range(-2.0..2.0), rng.gen_range(-2.0..2.0)];
        let mut f = [0.0; 2];
        dae.rhs(0.0, &y, &mut f);
        // e = (1/m) p: one rounding apart from p/m.
        assert!((f[0] - y[1] / m).abs() <= 2e-16 * (y[1] / m).abs());
        assert!((f[1] - (-k * y[0] + u)).abs() <= 1e-15 * (k * y[0].abs() + u.abs()));
        // Outer port p exposes the kinetic domain: effort = velocity.
        let ev = dae.evaluate(0.0, &y);
        assert!((ev.port("ke.p").unwrap().1[0] - y[1] / m).abs() <= 2e-16 * (y[1] / m).abs());
    }
    let _ = dae;
}

#[test]
fn oscillator_matches_analytic_solution() {
    // q(t) = q0 cos ωt + (p0/(mω)) sin ωt, ω = √(k/m); isolated (p.f = 0).
    let (k, m, q0, p0): (f64, f64, f64, f64) = (4.0, 1.0, 1.0, 0.5);
    let w = (k / m).sqrt();
    let dae = EphsDae::new(assemble(&oscillator(k, m).unwrap().into()).unwrap(), THETA0).unwrap();
    let ts: Vec<f64> = (0..=100).map(|i| 0.1 * i as f64).collect();
    let mut max_err = 0.0f64;
    let mut max_de = 0.0f64;
    let e0 = dae.total_energy(&[q0, p0]);
    radau(
        &dae,
        &[q0, p0],
        10.0,
        (1e-10, 1e-12),
        &ts,
        |t: f64, y: &[f64]| {
            let q = q0 * (w * t).cos() + p0 / (m * w) * (w * t).sin();
            let p = -m * w * q0 * (w * t).sin() + p0 * (w * t).cos();
            max_err = max_err
                .max((y[0] - q).abs())
                .max((y[1] - p).abs() / (m * w));
            max_de = max_de.max((dae.total_energy(y) - e0).abs() / e0);
        },
    );
    println!("oscillator: max error {max_err:.3e}, max relative energy drift {max_de:.3e}");
    // rtol = 1e-10 over ~3 periods: the global error tracks rtol (phlex Radau5 maps
    // tolerances so the global error is ∝ rtol); allow 100× for error accumulation.
    assert!(max_err < 1e-8, "{max_err}");
    assert!(max_de < 1e-8, "{max_de}");
}

/// Analytic underdamped solution (q, p) of m q̈ + d q̇ + k q = 0.
fn damped_exact(k: f64, m: f64, d: f64, q0: f64, p0: f64, t: f64) -> (f64, f64) {
    let wn = (k / m).sqrt();
    let zeta = d / (2.0 * (k * m).sqrt());
    let wd = wn * (1.0 - zeta * zeta).sqrt();
    let v0 = p0 / m;
    let a = q0;
    let b = (v0 + zeta * wn * q0) / wd;
    let ex = (-zeta * wn * t).exp();
    let (s, c) = (wd * t).sin_cos();
    let q = ex * (a * c + b * s);
    let qd = ex * (-zeta * wn * (a * c + b * s) + wd * (-a * s + b * c));
    (q, m * qd)
}

#[test]
fn damped_oscillator_matches_analytic_and_balances_entropy() {
    // Summary §6 parameters: m = 1, k = 1, d = 0.1, θ0 = 300, q0 = 1, p0 = 0.
    let (k, m, d) = (1.0, 1.0, 0.1);
    let sys = damped_oscillator(k, m, d).unwrap();
    let dae = EphsDae::new(assemble(&sys).unwrap(), THETA0).unwrap();
    assert_eq!(dae.state_names(), ["osc.pe.q", "osc.ke.p", "env.s"]);
    let y0 = [1.0, 0.0, 0.0];
    let e_mech0 = dae.mechanical_energy(&y0);
    let ts: Vec<f64> = (0..=200).map(|i| 0.1 * i as f64).collect();
    let (mut err, mut balance) = (0.0f64, 0.0f64);
    let mut entropy = Balance::new(e_mech0, 2, &y0);
    radau(&dae, &y0, 20.0, (1e-10, 1e-12), &ts, |t: f64, y: &[f64]| {
        let (q, p) = damped_exact(k, m, d, 1.0, 0.0, t);
        err = err.max((y[0] - q).abs()).max((y[1] - p).abs());
        // θ0 (s(t) − s(0)) = E_mech(0) − E_mech(t).
        let lhs = THETA0 * (y[2] - y0[2]);
        let rhs = e_mech0 - dae.mechanical_energy(y);
        balance = balance.max((lhs - rhs).abs());
        entropy.observe_entropy(t, y);
    });
    let (s_min_step, s_prev) = (entropy.ds_min, entropy.s_prev);
    println!(
        "damped oscillator: max error {err:.3e}, max |θ0 Δs − ΔE_mech| {balance:.3e}, min Δs per output step {s_min_step:.3e}"
    );
    // Global error tracks rtol = 1e-10 (see above).
    assert!(err < 1e-8, "{err}");
    // The balance is the error of the energy E_mech + θ0 s, a combination of states with
    // θ0 = 300: E ~ 0.5, so 1e-8 absolute (3e-9 relative to θ0 s(∞)/300...) is the
    // solver tolerance level.
    assert!(balance < 1e-8, "{balance}");
    // Entropy non-decreasing (ṡ = d v²/θ0 ≥ 0); allow round-off 1e-15 per step.
    assert!(s_min_step > -1e-15, "{s_min_step}");
    // Final entropy against the analytic mechanical energy loss: s(20) = (E0 − E(20))/θ0.
    let (q, p) = damped_exact(k, m, d, 1.0, 0.0, 20.0);
    let s_exact = (e_mech0 - (0.5 * k * q * q + p * p / (2.0 * m))) / THETA0;
    println!("s(20) = {s_prev:.12e}, analytic {s_exact:.12e}");
    assert!(
        (s_prev - s_exact).abs() < 1e-9 * s_exact,
        "{s_prev} vs {s_exact}"
    );
}

#[test]
fn damped_oscillator_equations_are_eq8_and_functorial() {
    // Flatten-then-assemble (Fig. 7) and assemble-then-compose (Fig. 5 into Fig. 6) give the
    // same equations, equal to eq. (8), at random states.
    let (k, m, d) = (1.7, 0.8, 0.35);
    let sys = damped_oscillator(k, m, d).unwrap();
    let flat = EphsDae::new(assemble(&sys).unwrap(), THETA0).unwrap();
    let nested = EphsDae::new(assemble_nested(&sys).unwrap(), THETA0).unwrap();
    assert_eq!(flat.state_names(), nested.state_names());
    assert_eq!(flat.dim(), 3);
    let mut rng = StdRng::seed_from_u64(1);
    let mut max_diff = 0.0f64;
    let mut max_eq8 = 0.0f64;
    for _ in 0..100 {
        let y = [
            rng.gen_range(-3.0..3.0),
            rng.gen_range(-3.0..3.0),
            rng.gen_range(-1.0..1.0),
        ];
        let (mut f1, mut f2) = ([0.0; 3], [0.0; 3]);
        flat.rhs(0.0, &y, &mut f1);
        nested.rhs(0.0, &y, &mut f2);
        let v = y[1] / m;
        let eq8 = [v, -k * y[0] - d * v, d * v * v / THETA0];
        for i in 0..3 {
            let scale = eq8[i].abs().max(1e-300) + (k * y[0]).abs() * (i == 1) as u8 as f64;
            max_diff = max_diff.max((f1[i] - f2[i]).abs() / scale);
            max_eq8 = max_eq8.max((f1[i] - eq8[i]).abs() / scale);
        }
    }
    println!("functoriality: max relative difference {max_diff:.3e}; vs eq. (8) {max_eq8:.3e}");
    // Both routes evaluate the same arithmetic up to the order of the flow sums: round-off.
    assert!(max_diff < 1e-15, "{max_diff}");
    assert!(max_eq8 < 1e-14, "{max_eq8}");
}

#[test]
fn damped_oscillator_lie_midpoint_conserves_total_energy_exactly() {
    // The discrete-gradient midpoint rule conserves E_mech + θ0 s to Newton tolerance for
    // any step (here h = 0.1, 200 steps), and entropy increases every step.
    use phlex_ephs::numerics::{LieMidpoint, LieMidpointParams};
    let (k, m, d) = (1.0, 1.0, 0.1);
    let dae = EphsDae::new(
        assemble(&damped_oscillator(k, m, d).unwrap()).unwrap(),
        THETA0,
    )
    .unwrap();
    let y0 = [1.0, 0.0, 0.0];
    let e0 = dae.total_energy(&y0);
    let mut bal = Balance::new(e0, 2, &y0);
    LieMidpoint::new(&dae, LieMidpointParams::with_step(0.1))
        .unwrap()
        .run(0.0, &y0, 20.0, &mut |t: f64, y: &[f64]| {
            bal.observe(t, dae.total_energy(y), y)
        })
        .unwrap();
    let (de, ds_min) = (bal.de, bal.ds_min);
    println!("damped oscillator, midpoint h = 0.1: max |Δ(E_mech + θ0 s)|/E {de:.3e}, min Δs {ds_min:.3e}");
    // Newton stops when increments are below atol + rtol|w| (1e-14 + 1e-12|w|); the
    // remaining error, amplified by θ0 = 300 in θ0 s, accumulates to ~1e-13 over 200
    // steps (measured 1.1e-13); 1e-12 is ten times that.
    assert!(de < 1e-12, "{de}");
    assert!(ds_min > 0.0);
}
