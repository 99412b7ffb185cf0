//! Cross-check (issue 5 §5): a planar double pendulum of two rigid rods, built in EPHS from
//! a ground, two bodies (Fig. 2) and two revolute joints (Fig. 3), against an independent
//! minimal-coordinate Lagrangian model integrated by RK4.
#![allow(non_snake_case)]
mod common;

use common::{radau, DoublePendulum, G};

const M: [f64; 2] = [1.0, 0.7];
const L: [f64; 2] = [1.0, 0.8];

/// The EPHS model: slender rods (axial inertia 1e-3 of the transverse one), no friction.
const PENDULUM: DoublePendulum = DoublePendulum {
    m: M,
    l: L,
    axial: 1e-3,
    friction: 0.0,
};

/// Minimal coordinates (θ1, θ2) = absolute angles about y; rods hang along −z at θ = 0.
fn lagrangian_rhs(y: [f64; 4]) -> [f64; 4] {
    let (a1, a2) = (L[0] / 2.0, L[1] / 2.0);
    let (J1, J2) = (M[0] * L[0] * L[0] / 12.0, M[1] * L[1] * L[1] / 12.0);
    let (t1, t2, w1, w2) = (y[0], y[1], y[2], y[3]);
    let c = (t1 - t2).cos();
    let s = (t1 - t2).sin();
    let m11 = M[0] * a1 * a1 + J1 + M[1] * L[0] * L[0];
    let m22 = M[1] * a2 * a2 + J2;
    let m12 = M[1] * L[0] * a2 * c;
    let f1 = -M[1] * L[0] * a2 * s * w2 * w2 - G * (M[0] * a1 + M[1] * L[0]) * t1.sin();
    let f2 = M[1] * L[0] * a2 * s * w1 * w1 - G * M[1] * a2 * t2.sin();
    let det = m11 * m22 - m12 * m12;
    [
        w1,
        w2,
        (m22 * f1 - m12 * f2) / det,
        (m11 * f2 - m12 * f1) / det,
    ]
}

fn rk4(y: [f64; 4], h: f64) -> [f64; 4] {
    let add = |a: [f64; 4], b: [f64; 4], s: f64| {
        [
            a[0] + s * b[0],
            a[1] + s * b[1],
            a[2] + s * b[2],
            a[3] + s * b[3],
        ]
    };
    let k1 = lagrangian_rhs(y);
    let k2 = lagrangian_rhs(add(y, k1, h / 2.0));
    let k3 = lagrangian_rhs(add(y, k2, h / 2.0));
    let k4 = lagrangian_rhs(add(y, k3, h));
    let mut o = y;
    for i in 0..4 {
        o[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
    o
}

#[test]
fn double_pendulum_matches_minimal_coordinates() {
    let dae = PENDULUM.dae();
    let (th1, th2) = (0.5f64, 0.3f64);
    // Bodies at rest: velocity constraints hold; λ from the hidden constraints.
    let (y, r) = PENDULUM.at_rest(&dae, th1, th2);
    assert!(r < 1e-12);
    let ts: Vec<f64> = (0..=100).map(|k| 0.1 * k as f64).collect();
    let [r1, r2] = DoublePendulum::joint_angles(&dae);
    let mut ephs = Vec::new();
    let e0 = dae.total_energy(&y);
    let mut de = 0.0f64;
    let sol = radau(&dae, &y, 10.0, (1e-12, 1e-12), &ts, |_t: f64, y: &[f64]| {
        ephs.push((y[r1], y[r1] + y[r2]));
        de = de.max((dae.total_energy(y) - e0).abs());
    });
    // Reference: RK4 with h = 1e-4 (error ~ h⁴ ≈ 1e-13 relative per unit time).
    let mut z = [th1, th2, 0.0, 0.0];
    let mut err = 0.0f64;
    let h = 1e-4;
    for (k, &(a, b)) in ephs.iter().enumerate() {
        if k > 0 {
            for _ in 0..1000 {
                z = rk4(z, h);
            }
        }
        err = err.max((a - z[0]).abs()).max((b - z[1]).abs());
    }
    println!(
        "double pendulum over 10 s: max |Δθ| {err:.3e} (EPHS Radau5 rtol 1e-12, {} steps), |ΔE_tot| {de:.3e}",
        sol.stats.steps
    );
    assert!(err < 1e-8, "{err}");
}
