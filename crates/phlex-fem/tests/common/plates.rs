//! Plate fixtures.
use phlex_core::LinearPhSystem;
use phlex_fem::models::plate::kirchhoff::Kirchhoff;
use phlex_fem::models::plate::MindlinParams;
use phlex_solve::eigen::{modes, EigenMethod, EigenParams};
use std::f64::consts::PI;

/// Thesis 004 App. C / summary §5.2 plate data ([`MindlinParams::thesis_app_c`]).
pub fn thesis_mindlin() -> MindlinParams {
    MindlinParams::thesis_app_c()
}

/// `b` with the four sides of the rectangle meshes (`"left"`, `"right"`, `"top"`,
/// `"bottom"`) simply supported.
pub fn simply_supported_sides<D>(b: Kirchhoff<D>) -> Kirchhoff<D> {
    b.simply_supported("left")
        .simply_supported("right")
        .simply_supported("top")
        .simply_supported("bottom")
}

/// The six lowest frequencies of the Kirchhoff plate system `sys` (pH structure checked
/// first) by shift-invert about `shift`. J has a large kernel (self-equilibrated moment
/// fields, n_E > n_w): its round-off images are rejected relative to the largest |λ|
/// computed (`zero_tol` 1e-6).
pub fn six_kirchhoff_modes(sys: &LinearPhSystem, shift: f64) -> Vec<f64> {
    sys.check(&Default::default()).unwrap();
    let res = modes(
        sys,
        &EigenParams {
            n_modes: Some(6),
            method: EigenMethod::ShiftInvert,
            shift: Some(shift),
            tol: 1e-9,
            zero_tol: 1e-6,
            ..Default::default()
        },
    )
    .unwrap();
    res.frequencies()
}

/// The `count` lowest Navier frequencies, ascending, of a simply supported `a × b`
/// specially orthotropic plate (bending stiffness `d` in Voigt form, mass per area `rh`):
/// $\omega_{mn} = \pi^2\sqrt{s_{mn}/\rho h}$ with
/// $s_{mn} = D_{11}k_m^4 + 2(D_{12} + 2D_{66})k_m^2k_n^2 + D_{22}k_n^4$, $k_m = m/a$,
/// $k_n = n/b$, $1 \le m, n < 8$ (isotropic: $D_{11} = D_{22} = D_{12} + 2D_{66} = D$).
pub fn navier_specially_orthotropic(
    d: &[[f64; 3]; 3],
    rh: f64,
    a: f64,
    b: f64,
    count: usize,
) -> Vec<f64> {
    let mut w: Vec<f64> = (1..8)
        .flat_map(|m| (1..8).map(move |n| (m as f64 / a, n as f64 / b)))
        .map(|(km, kn)| {
            let s = d[0][0] * km.powi(4)
                + 2.0 * (d[0][1] + 2.0 * d[2][2]) * km * km * kn * kn
                + d[1][1] * kn.powi(4);
            PI * PI * (s / rh).sqrt()
        })
        .collect();
    w.sort_by(|x, y| x.partial_cmp(y).unwrap());
    w.truncate(count);
    w
}

/// The six lowest nondimensional frequencies $\hat\omega = \omega\,s$ of a Mindlin plate
/// system `sys` with the thesis scale $s = \sqrt{2(1+\nu)\rho/E}$ of `p`, by shift-invert
/// about the thesis shift $\sigma = 1/s$ ($\hat\omega = 1$) to tolerance `tol`. The large
/// kernel of J (self-equilibrated stress fields: n_stress > n_velocity) gives round-off
/// eigenvalues |λ| up to ~1e-7 ρ(λ) on 40 × 40; Im λ < 1e-3 ρ is rejected (ρ ≥ σ ≈ 1.2e4
/// rad/s for the thesis data, so the cut is far below the lowest physical ω ≈ 1.9e4 rad/s
/// and far above round-off).
pub fn mindlin_scaled_modes(sys: &LinearPhSystem, p: &MindlinParams, tol: f64) -> Vec<f64> {
    let scale = (2.0 * (1.0 + p.nu) * p.rho / p.E).sqrt();
    let res = modes(
        sys,
        &EigenParams {
            n_modes: Some(6),
            method: EigenMethod::ShiftInvert,
            shift: Some(1.0 / scale),
            tol,
            max_krylov: Some(400),
            zero_tol: 1e-3,
            ..Default::default()
        },
    )
    .unwrap();
    res.frequencies().iter().map(|w| w * scale).collect()
}
