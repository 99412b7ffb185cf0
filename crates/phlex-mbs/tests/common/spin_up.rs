//! The Simo–Vu-Quoc spin-up beam: a cantilever (L = 10 m, ρA = 1.2 kg/m, EA = 2.8e7 N,
//! EI = 1.4e4 N m²) turned about its root by a prescribed hub rate, and the independent
//! quasi-static Rayleigh–Ritz reference of its tip deflection (paper 000 Remark 3).
use std::sync::Arc;

use faer::linalg::solvers::Solve;
use phlex_mbs::*;
use phlex_solve::Signal;

/// Beam length [m].
pub const LENGTH: f64 = 10.0;

/// Hub angular velocity of the spin-up (as `examples/mbs/spin_up.toml`):
/// θ(t) = (6/15)[t²/2 + (15/2π)²(cos(2πt/15) − 1)] for t < 15 s, then ω = 6 rad/s, so
/// θ'(t) = (6/15)[t − (15/2π) sin(2πt/15)] (C¹ at 15 s, breakpoint reported).
pub fn hub_rate() -> Signal {
    let ts = 15.0;
    let wmax = 6.0;
    Signal::Fn {
        f: Arc::new(move |t: f64| {
            if t < ts {
                let a = 2.0 * std::f64::consts::PI / ts;
                wmax / ts * (t - (a * t).sin() / a)
            } else {
                wmax
            }
        }),
        breakpoints: vec![ts],
    }
}

/// The spin-up beam with `n_el` elements whose end P is held at the origin and turned at
/// the prescribed hub rate `hub` (prescribed-velocity joint, no gravity); `stiff` switches
/// geometric stiffening, `full` the deformation-dependent inertia, `rate0` is the initial
/// angular velocity of the beam.
pub fn hub_beam(
    n_el: usize,
    stiff: bool,
    full: bool,
    rate0: Option<f64>,
    hub: Signal,
) -> Multibody {
    let mut beam = FloatingBeam2d::new(LENGTH, 1.2, 2.8e7, 1.4e4, n_el)
        .bc(DeformationBc::Cantilever)
        .geometric_stiffening(stiff)
        .full_inertia(full);
    if let Some(w) = rate0 {
        beam = beam.twist(Twist2d::new(0.0, 0.0, w));
    }
    let mut b = MultibodyBuilder::new();
    b.add_body("beam", beam).add_joint(
        "hub",
        Joint::new(
            "beam",
            "P",
            GROUND,
            "origin",
            JointKind::PrescribedVelocity {
                vx: Signal::Constant(0.0),
                vy: Signal::Constant(0.0),
                omega: Some(hub),
            },
        ),
    );
    b.build().unwrap()
}

/// The sample (t, u) of largest |u| among those with t0 ≤ t ≤ t1.
pub fn peak(tip: &[(f64, f64)], t0: f64, t1: f64) -> (f64, f64) {
    tip.iter()
        .filter(|p| p.0 >= t0 && p.0 <= t1)
        .fold(
            (0.0, 0.0),
            |m, p| if p.1.abs() > m.1.abs() { *p } else { m },
        )
}

/// The monomial $x^p$ and its first two derivatives.
fn monomial(x: f64, p: f64) -> (f64, f64, f64) {
    (
        x.powf(p),
        p * x.powf(p - 1.0),
        p * (p - 1.0) * x.powf(p - 2.0),
    )
}

/// Independent quasi-static reference for the spin-up: the cantilever (L = 10 m,
/// EI = 1.4e4 N m², ρA = 1.2 kg/m) under the transport load q(x) = −ρA θ''(t) x of the hub
/// acceleration, with the centrifugal normal force n(x) = ρAΩ²(L² − x²)/2 if `stiff`, and the
/// centrifugal softening −ρAΩ² w if `soften` (absent from the constant-mass floating frame of
/// §4.3); Rayleigh–Ritz with w = Σ a_k x^{k+1}, k = 1..10 (exact 16-point Gauss). Returns the
/// tip deflection at time t.
pub fn quasi_static_tip(t: f64, stiff: bool, soften: bool) -> f64 {
    let (l, rho_a, ei) = (LENGTH, 1.2, 1.4e4);
    let ts = 15.0;
    let a = 2.0 * std::f64::consts::PI / ts;
    let (w, dw) = if t < ts {
        (0.4 * (t - (a * t).sin() / a), 0.4 * (1.0 - (a * t).cos()))
    } else {
        (6.0, 0.0)
    };
    let m = 10;
    let q = phlex_fem::quadrature::GaussLegendre::new(16).unwrap();
    let mut K = faer::Mat::<f64>::zeros(m, m);
    let mut f = faer::Mat::<f64>::zeros(m, 1);
    for (&xi, &wq) in q.points.iter().zip(&q.weights) {
        let x = xi * l;
        let jw = wq * l;
        let n = if stiff {
            0.5 * rho_a * w * w * (l * l - x * x)
        } else {
            0.0
        };
        for i in 0..m {
            let (vi, di, ddi) = monomial(x, (i + 2) as f64);
            f[(i, 0)] += jw * (-rho_a * dw * x) * vi;
            for j in 0..m {
                let (vj, dj, ddj) = monomial(x, (j + 2) as f64);
                let mut k = ei * ddi * ddj + n * di * dj;
                if soften {
                    k -= rho_a * w * w * vi * vj;
                }
                K[(i, j)] += jw * k;
            }
        }
    }
    let c = K.partial_piv_lu().solve(&f);
    (0..m).map(|i| c[(i, 0)] * l.powi(i as i32 + 2)).sum()
}
