//! The free spinning planar beam of the full-inertia tests: no joints, no gravity,
//! 4 cantilever-frame elements (L = 2 m, ρA = 1.5 kg/m, EA = 1e5 N, EI = 40 N m²) turning at
//! 2 rad/s about P with an initial bending deflection (tip 5 cm) and elastic velocity.
use phlex_mbs::body::FloatingBody;
use phlex_mbs::*;

/// Beam length [m].
pub const LENGTH: f64 = 2.0;

/// The free beam (full inertia if `full`) and its initial state: transverse field
/// w = a (x/L)² with a = 5 cm (Hermite: value, slope per free node), v_f = 0.3 w; with
/// `zero_momentum` P moves so that the linear momentum vanishes (π_v is affine in v_P with
/// coefficient m).
pub fn free_beam(full: bool, zero_momentum: bool) -> (Multibody, Vec<f64>) {
    let (l, rho_a, ea, ei) = (LENGTH, 1.5, 1e5, 40.0);
    let mut b = MultibodyBuilder::new();
    b.add_body(
        "beam",
        FloatingBeam2d::new(l, rho_a, ea, ei, 4)
            .bc(DeformationBc::Cantilever)
            .full_inertia(full)
            .twist(Twist2d::new(0.0, 0.0, 2.0)),
    );
    let mb = b.build().unwrap();
    let body = &mb.bodies()[0];
    let (nvx, nvy) = body.beam_shapes().unwrap().n_free();
    let nq = body.n_q();
    let mut x = mb.initial_state();
    let a = 0.05;
    let h = l / 4.0;
    for k in 0..nvy {
        let xn = h * (1 + k / 2) as f64;
        let w = if k % 2 == 0 {
            a * (xn / l).powi(2)
        } else {
            2.0 * a * xn / (l * l)
        };
        x[3 + nvx + k] = w;
        x[nq + 3 + nvx + k] = 0.3 * w;
    }
    if zero_momentum {
        let pi = body.momentum(&x);
        let m = body.mass();
        x[nq] -= pi[0] / m;
        x[nq + 1] -= pi[1] / m;
    }
    (mb, x)
}
