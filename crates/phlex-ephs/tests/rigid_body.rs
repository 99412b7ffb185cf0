//! Seed 001 §4: the rigid body (Fig. 2, eq. (22)) assembled from the EPHS language on
//! SE(3); free rigid body with the Lie-group discrete-gradient midpoint rule; free fall.
#![allow(non_snake_case)]
mod common;

use common::radau;
use phlex_core::geometry::mat3::{
    cross, frobenius_norm, lin_comb, mat_t_mul, mat_vec, Mat3, IDENTITY3,
};
use phlex_core::geometry::{so3, Se3};
use phlex_ephs::library::rigid_body::{body_momentum, rigid_body, spatial_momentum};
use phlex_ephs::numerics::{LieMidpoint, LieMidpointParams};
use phlex_ephs::{assemble, EphsDae, System};
use phlex_solve::{ImplicitDae, InputFn, Signal};
use rand::{rngs::StdRng, Rng, SeedableRng};

const THETA0: f64 = 300.0;

fn diag(a: f64, b: f64, c: f64) -> Mat3 {
    [[a, 0.0, 0.0], [0.0, b, 0.0], [0.0, 0.0, c]]
}

fn body_dae(m: f64, J: Mat3, g: [f64; 3]) -> EphsDae {
    let sys: System = rigid_body(m, J, g).unwrap().into();
    EphsDae::new(assemble(&sys).unwrap(), THETA0).unwrap()
}

#[test]
fn assembled_equations_are_eq22() {
    // Ṙ = R ω̃, ṙ = R ν, ṗ_ω = p_ω × ω + p_ν × ν + F_ω, ṗ_ν = p_ν × ω − m Rᵀ g + F_ν
    // (summary §3.3) at random states and outer-port forces F = p.f.
    let (m, J, g) = (
        1.3,
        [[2.0, 0.1, 0.0], [0.1, 1.5, -0.2], [0.0, -0.2, 1.0]],
        [0.1, -0.2, 9.81],
    );
    let mut rng = StdRng::seed_from_u64(3);
    let Ji = phlex_core::geometry::mat3::inverse(&J).unwrap();
    let mut worst = 0.0f64;
    for _ in 0..20 {
        let F: Vec<f64> = (0..6).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let signals = F.iter().map(|&v| Signal::from_fn(move |_| v)).collect();
        let dae = body_dae(m, J, g)
            .with_inputs(InputFn::new(signals))
            .unwrap();
        assert_eq!(dae.state_names(), ["pe.q", "ke.p"]);
        let u: Vec<f64> = (0..6).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let q = Se3::exp(&[u[0], u[1], u[2], u[3], u[4], u[5]]);
        let p: Vec<f64> = (0..6).map(|_| rng.gen_range(-2.0..2.0)).collect();
        let mut y = vec![0.0; 18];
        q.to_coords(&mut y[..12]);
        y[12..].copy_from_slice(&p);
        let mut f = vec![0.0; 18];
        dae.rhs(0.0, &y, &mut f);
        let pw = [p[0], p[1], p[2]];
        let pv = [p[3], p[4], p[5]];
        let w = mat_vec(&Ji, pw);
        let v = pv.map(|x| x / m);
        let (Rd, rd) = q.TeL(&[w[0], w[1], w[2], v[0], v[1], v[2]]);
        let mut expect = [0.0; 18];
        for i in 0..3 {
            expect[3 * i..3 * i + 3].copy_from_slice(&Rd[i]);
        }
        expect[9..12].copy_from_slice(&rd);
        let a = cross(pw, w);
        let b = cross(pv, v);
        let c = cross(pv, w);
        let grav = phlex_core::geometry::mat3::mat_t_vec(&q.R, g);
        for k in 0..3 {
            expect[12 + k] = a[k] + b[k] + F[k];
            expect[15 + k] = c[k] - m * grav[k] + F[3 + k];
        }
        for k in 0..18 {
            worst = worst.max((f[k] - expect[k]).abs());
        }
    }
    println!("eq. (22): max deviation {worst:.3e}");
    // Same formulas, different association order: round-off of terms of size ~20.
    assert!(worst < 1e-13, "{worst}");
}

/// Initial state of a body: pose exp(xi0), velocities (ω, ν).
fn initial(dae: &EphsDae, m: f64, J: &Mat3, xi0: [f64; 6], w: [f64; 3], v: [f64; 3]) -> Vec<f64> {
    let mut y = dae.default_state();
    let mut q = [0.0; 12];
    Se3::exp(&xi0).to_coords(&mut q);
    dae.set_state(&mut y, "pe.q", &q).unwrap();
    dae.set_state(&mut y, "ke.p", &body_momentum(m, J, w, v))
        .unwrap();
    y
}

#[test]
fn free_rigid_body_near_intermediate_axis_conserves_invariants() {
    // J = diag(1, 2, 3), spin about the intermediate axis e2 with a small perturbation
    // (Dzhanibekov flip), plus a translation; g = 0.
    let (m, J) = (1.5, diag(1.0, 2.0, 3.0));
    let dae = body_dae(m, J, [0.0; 3]);
    let y0 = initial(
        &dae,
        m,
        &J,
        [0.3, -0.2, 0.5, 1.0, -0.5, 2.0],
        [0.01, 2.0, 0.02],
        [0.3, -0.2, 0.1],
    );
    let e0 = dae.total_energy(&y0);
    let pw0 = (y0[12] * y0[12] + y0[13] * y0[13] + y0[14] * y0[14]).sqrt();
    let mu0 = spatial_momentum(&y0[..12], &y0[12..]);
    let mu_scale = mu0.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let integ = LieMidpoint::new(&dae, LieMidpointParams::with_step(0.005)).unwrap();
    let (mut de, mut dpw, mut dmu, mut orth) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let mut min_w2 = f64::MAX;
    let res = integ
        .run(0.0, &y0, 20.0, &mut |_t: f64, y: &[f64]| {
            de = de.max((dae.total_energy(y) - e0).abs() / e0);
            let pw = (y[12] * y[12] + y[13] * y[13] + y[14] * y[14]).sqrt();
            dpw = dpw.max((pw - pw0).abs() / pw0);
            let mu = spatial_momentum(&y[..12], &y[12..]);
            for k in 0..6 {
                dmu = dmu.max((mu[k] - mu0[k]).abs() / mu_scale);
            }
            let R = [[y[0], y[1], y[2]], [y[3], y[4], y[5]], [y[6], y[7], y[8]]];
            orth = orth.max(frobenius_norm(&lin_comb(
                1.0,
                &mat_t_mul(&R, &R),
                -1.0,
                &IDENTITY3,
            )));
            min_w2 = min_w2.min(y[13] / J[1][1]);
        })
        .unwrap();
    println!(
        "free body (4000 steps, {} Newton its, {} Jacobians): |ΔE|/E {de:.3e}, |Δ|p_ω||/|p_ω| {dpw:.3e}, |Δμ|/|μ| {dmu:.3e}, |RᵀR−E| {orth:.3e}, min ω2 {min_w2:.3}",
        res.stats.newton_iterations, res.stats.jacobian_evaluations
    );
    // The flip happened (ω2 changes sign) — the test is not trivial.
    assert!(min_w2 < -1.5, "{min_w2}");
    assert!(de < 1e-10 && dpw < 1e-10 && dmu < 1e-10, "{de} {dpw} {dmu}");
    assert!(orth < 1e-12, "{orth}");
}

#[test]
fn midpoint_is_second_order_against_radau() {
    let (m, J) = (1.5, diag(1.0, 2.0, 3.0));
    let dae = body_dae(m, J, [0.0, 0.0, 9.81]);
    let y0 = initial(
        &dae,
        m,
        &J,
        [0.3, -0.2, 0.5, 1.0, -0.5, 2.0],
        [0.5, 1.0, -0.7],
        [0.3, -0.2, 0.1],
    );
    let reference = radau(&dae, &y0, 1.0, (1e-12, 1e-12), &[], |_, _| {}).y;
    let err = |h: f64| {
        let r = LieMidpoint::new(&dae, LieMidpointParams::with_step(h))
            .unwrap()
            .run(0.0, &y0, 1.0, &mut |_: f64, _: &[f64]| {})
            .unwrap();
        r.y.iter()
            .zip(&reference)
            .fold(0.0f64, |a, (x, y)| a.max((x - y).abs()))
    };
    let (e1, e2) = (err(0.02), err(0.01));
    println!(
        "midpoint vs Radau5 at t = 1: h = 0.02 → {e1:.3e}, h = 0.01 → {e2:.3e}, ratio {:.3}",
        e1 / e2
    );
    assert!((e1 / e2 - 4.0).abs() < 0.3, "{}", e1 / e2);
}

#[test]
fn free_fall_matches_closed_form() {
    // Isotropic J: ω constant in the body frame, R(t) = R0 exp(t ω̃); the centre of mass
    // follows r(t) = r0 + v0 t − ½ g t² (g = 9.81 e3 is the upward covector).
    let (m, J, g) = (2.0, diag(0.7, 0.7, 0.7), [0.0, 0.0, 9.81]);
    let dae = body_dae(m, J, g);
    let xi0 = [0.2, 0.1, -0.3, 0.5, 1.0, 10.0];
    for (label, w0) in [("no spin", [0.0; 3]), ("spin", [0.4, -0.3, 1.1])] {
        let nu0 = [1.0, -0.5, 2.0];
        let y0 = initial(&dae, m, &J, xi0, w0, nu0);
        let q0 = Se3::exp(&xi0);
        let v0 = mat_vec(&q0.R, nu0);
        let exact = |t: f64| -> ([f64; 3], Mat3) {
            let r = [
                q0.r[0] + v0[0] * t,
                q0.r[1] + v0[1] * t,
                q0.r[2] + v0[2] * t - 0.5 * 9.81 * t * t,
            ];
            (
                r,
                phlex_core::geometry::mat3::mat_mul(&q0.R, &so3::exp(w0.map(|w| w * t))),
            )
        };
        let e0 = dae.total_energy(&y0);
        // Lie midpoint over 2 s with h = 0.01 and h = 0.005.
        let run = |h: f64| {
            let mut err = 0.0f64;
            let mut de = 0.0f64;
            LieMidpoint::new(&dae, LieMidpointParams::with_step(h))
                .unwrap()
                .run(0.0, &y0, 2.0, &mut |t: f64, y: &[f64]| {
                    let (r, R) = exact(t);
                    for k in 0..3 {
                        err = err.max((y[9 + k] - r[k]).abs());
                        for j in 0..3 {
                            err = err.max((y[3 * k + j] - R[k][j]).abs());
                        }
                    }
                    de = de.max((dae.total_energy(y) - e0).abs() / e0.abs());
                })
                .unwrap();
            (err, de)
        };
        let (err_mid, de) = run(0.01);
        let (err_mid2, _) = run(0.005);
        // Radau5 on the embedded coordinates.
        let ts = [0.5, 1.0, 1.5, 2.0];
        let mut err_radau = 0.0f64;
        radau(&dae, &y0, 2.0, (1e-11, 1e-11), &ts, |t: f64, y: &[f64]| {
            let (r, R) = exact(t);
            for k in 0..3 {
                err_radau = err_radau.max((y[9 + k] - r[k]).abs());
                for j in 0..3 {
                    err_radau = err_radau.max((y[3 * k + j] - R[k][j]).abs());
                }
            }
        });
        println!("free fall ({label}): midpoint max error {err_mid:.3e} (h = 0.01), {err_mid2:.3e} (h = 0.005), |ΔE|/E {de:.3e}; Radau5 {err_radau:.3e}");
        assert!(err_radau < 1e-8, "{err_radau}");
        assert!(de < 1e-12, "{de}");
        if w0 == [0.0; 3] {
            // Without rotation the midpoint rule is exact for constant acceleration.
            assert!(err_mid < 1e-12, "{err_mid}");
        } else {
            // With rotation the Cayley update differs from exp(hω̃) by O((h|ω|)³) per
            // step: second-order convergence to the closed form (error ratio ≈ 4).
            let ratio = err_mid / err_mid2;
            assert!((ratio - 4.0).abs() < 0.3, "{ratio}");
        }
    }
}
