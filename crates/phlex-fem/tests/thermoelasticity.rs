//! 2D plane-strain thermoelasticity (`phlex_fem::thermoelasticity`): pH structure, the
//! decoupled limit (β = 0) against `Elasticity2d` and the analytic heat decay rates, the
//! 1D-reducible strip against the exact thermoelastic dispersion relation and Zener's
//! damping, and the discrete energy balance of the implicit midpoint rule.
#![allow(non_snake_case)]
use faer::prelude::Solve;
use faer::{c64, Mat, Par, Side};
use phlex_core::sparse::to_dense;
use phlex_fem::elasticity::{ElasticParams, Elasticity2d, Elasticity3d, PlaneModel};
use phlex_fem::mesh2d::{Diagonal, Mesh2d};
use phlex_fem::mesh3d::Mesh3d;
use phlex_fem::thermoelasticity::{
    coupling_number, thermal_stress_coefficient, ThermalParams, ThermoField2d, Thermoelasticity2d,
    Thermoelasticity3d,
};
use std::f64::consts::PI;

/// E = 1, ν = 0.25 → μ = λ = 0.4, s = λ + 2μ = 1.2, 3λ + 2μ = 2.
fn elastic() -> ElasticParams {
    ElasticParams {
        E: 1.0,
        nu: 0.25,
        rho: 1.0,
    }
}

/// C = T0 = 1, k = 0.35 (thermal rate kπ²/C ≈ 3.45 ≈ the first longitudinal ω = π√1.2 on a
/// unit strip, so ωτ ≈ 1: maximal thermoelastic damping).
fn thermal(beta: f64) -> ThermalParams {
    ThermalParams {
        heat_capacity: 1.0,
        conductivity: 0.35,
        t0: 1.0,
        beta,
    }
}

/// Eigenvalues of the pencil (E, A), E SPD: eigenvalues of E⁻¹A (dense).
fn pencil_eigenvalues(E: &Mat<f64>, A: &Mat<f64>) -> Vec<c64> {
    let X = E.llt(Side::Lower).unwrap().solve(A);
    X.eigenvalues().unwrap()
}

/// Symmetric eigenvalues of K x = λ M x, ascending (Cholesky M = L Lᵀ).
fn sym_pencil(K: &Mat<f64>, M: &Mat<f64>) -> Vec<f64> {
    let L = M.llt(Side::Lower).unwrap().L().to_owned();
    let mut X = K.clone();
    faer::linalg::triangular_solve::solve_lower_triangular_in_place(
        L.as_ref(),
        X.as_mut(),
        Par::Seq,
    );
    let mut Y = X.transpose().to_owned();
    faer::linalg::triangular_solve::solve_lower_triangular_in_place(
        L.as_ref(),
        Y.as_mut(),
        Par::Seq,
    );
    let S = (&Y + Y.transpose()) * faer::Scale(0.5);
    S.self_adjoint_eigenvalues(Side::Lower).unwrap()
}

fn max_abs(A: &Mat<f64>) -> f64 {
    let mut m = 0.0f64;
    for j in 0..A.ncols() {
        for i in 0..A.nrows() {
            m = m.max(A[(i, j)].abs());
        }
    }
    m
}

fn sub(A: &Mat<f64>, r: std::ops::Range<usize>, c: std::ops::Range<usize>) -> Mat<f64> {
    Mat::from_fn(r.len(), c.len(), |i, j| A[(r.start + i, c.start + j)])
}

/// J is exactly skew (assembled as A and −Aᵀ), E symmetric positive definite (its
/// smallest eigenvalue > 0), R symmetric with min eigenvalue ≥ −1e-13·max (round-off of
/// the PSD conduction stiffness, whose kernel is the constants on an insulated body).
#[test]
fn structure_and_errors() {
    let mesh = Mesh2d::rectangle(0.0, 1.0, 0.0, 0.5, 4, 2, Diagonal::Right).unwrap();
    for k in 1..=3 {
        let m = Thermoelasticity2d::new(elastic(), thermal(0.2), &mesh, k)
            .unwrap()
            .clamped("left")
            .fixed("bottom", 1)
            .isothermal("right")
            .build()
            .unwrap();
        let sys = m.system();
        sys.check(&Default::default()).unwrap();
        let (E, J, R) = (to_dense(&sys.E), to_dense(&sys.J), to_dense(&sys.R));
        assert_eq!(max_abs(&(&J + J.transpose())), 0.0);
        // R symmetric up to the round-off of the ∂x∂x + ∂y∂y quadrature sums
        assert!(max_abs(&(&R - R.transpose())) < 1e-14 * max_abs(&R));
        assert!(max_abs(&(&E - E.transpose())) < 1e-15 * max_abs(&E));
        let eE = E.self_adjoint_eigenvalues(Side::Lower).unwrap();
        assert!(eE[0] > 0.0, "E not SPD: {}", eE[0]);
        let eR = R.self_adjoint_eigenvalues(Side::Lower).unwrap();
        assert!(eR[0] >= -1e-13 * eR.last().unwrap(), "R min eig {}", eR[0]);
        let nT = sys.block_range("e_T").unwrap().len();
        let st = m.space(ThermoField2d::Temperature);
        let iso = st.boundary_dofs(&["right"]).unwrap().len();
        assert_eq!(nT, st.n_dofs() - iso);
        assert_eq!(
            sys.block_range("E_sigma").unwrap().len(),
            m.space(ThermoField2d::Stress).n_dofs()
        );
        // coupling block present and nonzero, zero R outside the temperature block
        let rv = sys.block_range("e_v").unwrap();
        let rt = sys.block_range("e_T").unwrap();
        assert!(max_abs(&sub(&J, rv.clone(), rt.clone())) > 0.0);
        assert_eq!(max_abs(&sub(&R, rv.clone(), rv)), 0.0);
    }
    let bad_k = Thermoelasticity2d::new(elastic(), thermal(0.2), &mesh, 4);
    assert!(bad_k.is_err());
    let bad_beta = Thermoelasticity2d::new(elastic(), thermal(-1.0), &mesh, 1).unwrap_err();
    assert!(bad_beta.to_string().contains("beta"), "{bad_beta}");
    let base = Thermoelasticity2d::new(elastic(), thermal(0.2), &mesh, 1).unwrap();
    let err = base.clone().isothermal("wall").build().unwrap_err();
    assert!(err.to_string().contains("wall"), "{err}");
    let err = base.fixed("top", 2).build().unwrap_err();
    assert!(err.to_string().contains("top"), "{err}");
}

/// β = 0: the mechanical blocks are bitwise the `Elasticity2d` matrices (same supports)
/// and the coupling vanishes, so the frequencies are exactly the elastic ones; the thermal
/// pencil (C T0 M, K_T) on the insulated unit square gives the decay rates
/// κπ²(m² + n²) (κ = k/C): κπ², κπ², 2κπ², 4κπ² within 1e-3 relative (P2 on 8×8: the
/// eigenvalue error is O((nπh)⁴), measured 5e-4 for the cos 2πx mode, 2e-6 for the first).
#[test]
fn decoupled_limit() {
    let mesh = Mesh2d::unit_square(8, Diagonal::Right).unwrap();
    let m = Thermoelasticity2d::new(elastic(), thermal(0.0), &mesh, 2)
        .unwrap()
        .clamped("left")
        .fixed("bottom", 1)
        .build()
        .unwrap();
    let el = Elasticity2d::new(elastic(), PlaneModel::PlaneStrain, &mesh, 2)
        .unwrap()
        .clamped("left")
        .fixed("bottom", 1)
        .build()
        .unwrap();
    let sys = m.system();
    let es = el.system();
    let nm = es.n_states();
    let (E, J, R) = (to_dense(&sys.E), to_dense(&sys.J), to_dense(&sys.R));
    let (Ee, Je) = (to_dense(&es.E), to_dense(&es.J));
    assert_eq!(max_abs(&(&sub(&E, 0..nm, 0..nm) - &Ee)), 0.0);
    assert_eq!(max_abs(&(&sub(&J, 0..nm, 0..nm) - &Je)), 0.0);
    let n = sys.n_states();
    assert_eq!(max_abs(&sub(&J, 0..nm, nm..n)), 0.0);
    // heat decay rates
    let rt = sys.block_range("e_T").unwrap();
    let lam = sym_pencil(&sub(&R, rt.clone(), rt.clone()), &sub(&E, rt.clone(), rt));
    let kappa = thermal(0.0).diffusivity();
    assert!(lam[0].abs() < 1e-10, "constant mode {}", lam[0]);
    let mut worst = 0.0f64;
    for (l, mn) in lam[1..5].iter().zip([1.0, 1.0, 2.0, 4.0]) {
        let exact = kappa * PI * PI * mn;
        worst = worst.max((l - exact).abs() / exact);
    }
    eprintln!(
        "decoupled heat decay rates {:?}, worst rel err {worst:.2e}",
        &lam[1..5]
    );
    assert!(worst < 1e-3, "{worst}");
}

/// Exact roots of the 1D dispersion relation of a strip mode u = U sin κx, θ = Θ cos κx
/// (rollers everywhere, insulated): (ρλ² + sκ²)(CT0λ + kT0κ²) + C_β²κ²λ = 0 (from
/// ρλ²U = −sκ²U + C_βκΘ, (CT0λ + kT0κ²)Θ = −C_βκλU). Returns the complex root with
/// Im > 0 (Durand–Kerner on the monic cubic).
fn dispersion_root(rho: f64, s: f64, cb: f64, c: f64, k: f64, t0: f64, kap: f64) -> c64 {
    let a3 = rho * c * t0;
    let a = [
        s * kap * kap * k * t0 * kap * kap / a3,
        (s * kap * kap * c * t0 + cb * cb * kap * kap) / a3,
        rho * k * t0 * kap * kap / a3,
    ];
    let p = |z: c64| z * z * z + z * z * a[2] + z * a[1] + a[0];
    let mut r = [
        c64::new(0.4, 0.9),
        c64::new(0.4, 0.9).powi(2),
        c64::new(0.4, 0.9).powi(3),
    ];
    for _ in 0..500 {
        for i in 0..3 {
            let mut d = c64::new(1.0, 0.0);
            for j in 0..3 {
                if j != i {
                    d *= r[i] - r[j];
                }
            }
            r[i] -= p(r[i]) / d;
        }
    }
    *r.iter().max_by(|x, y| x.im.total_cmp(&y.im)).unwrap()
}

fn strip(beta: f64, nx: usize) -> phlex_fem::thermoelasticity::ThermoelasticityModel2d {
    let mesh = Mesh2d::rectangle(0.0, 1.0, 0.0, 0.25, nx, 1, Diagonal::Right).unwrap();
    Thermoelasticity2d::new(elastic(), thermal(beta), &mesh, 2)
        .unwrap()
        .fixed("left", 0)
        .fixed("right", 0)
        .fixed("top", 1)
        .fixed("bottom", 1)
        .build()
        .unwrap()
}

/// The 2D eigenvalue nearest to `target`.
fn nearest(sys: &phlex_core::LinearPhSystem, target: c64) -> c64 {
    let ev = pencil_eigenvalues(&to_dense(&sys.E), &to_dense(&sys.j_minus_r()));
    *ev.iter()
        .min_by(|a, b| (**a - target).norm().total_cmp(&(**b - target).norm()))
        .unwrap()
}

/// 1D-reducible case: a strip 1 × 0.25 on rollers (v·n = 0 on all edges), insulated, is
/// solved exactly by the uniaxial-strain mode u = sin πx, θ ∝ cos πx, so one 2D eigenvalue
/// must match the exact root of the thermoelastic dispersion cubic (s = λ + 2μ = 1.2,
/// C_β = 2βT0 = 0.4, δ = C_β²/(CT0 s) = 0.133): relative error < 1e-4 (P2, h = 1/12;
/// the P2 eigenvalue error is O((κh)⁴), measured 2.0e-6).
#[test]
fn strip_matches_dispersion_relation() {
    let m = strip(0.2, 12);
    let (el, th) = (elastic(), thermal(0.2));
    let s = el.lame_lambda() + 2.0 * el.shear_modulus();
    let cb = thermal_stress_coefficient(&el, &th);
    assert!((cb - 0.4).abs() < 1e-14 && (s - 1.2).abs() < 1e-14);
    assert!((coupling_number(&el, &th) - 0.16 / 1.2).abs() < 1e-14);
    let exact = dispersion_root(el.rho, s, cb, th.heat_capacity, th.conductivity, th.t0, PI);
    let got = nearest(m.system(), exact);
    let rel = (got - exact).norm() / exact.norm();
    eprintln!("strip mode: exact {exact:?}, 2D {got:?}, rel err {rel:.2e}");
    assert!(rel < 1e-4, "{rel}");
    // the damping ratio is O(δ) (≈ 3.2% here): clearly resolved, not round-off
    assert!(-got.re > 0.01 * got.im, "{got:?}");
}

/// Zener's thermoelastic damping of the first longitudinal mode (weak coupling): for
/// δ → 0, Q⁻¹ = 2|Re λ|/Im λ = Δ ωτ/(1 + ω²τ²) with the relaxation strength Δ = δ =
/// C_β²/(CT0 s) (adiabatic/isothermal modulus jump), τ = C/(kκ²) the thermal relaxation
/// time of the mode and ω = κ√(s/ρ). With β = 0.02 (δ = 1.3e-3) Zener's first-order
/// formula is exact up to O(δ) relative, so 1% is a justified tolerance; the discretization
/// error (< 1e-4, previous test) is far below.
#[test]
fn strip_zener_damping() {
    let beta = 0.02;
    let m = strip(beta, 12);
    let (el, th) = (elastic(), thermal(beta));
    let s = el.lame_lambda() + 2.0 * el.shear_modulus();
    let delta = coupling_number(&el, &th);
    let w = PI * (s / el.rho).sqrt();
    let tau = th.heat_capacity / (th.conductivity * PI * PI);
    let zener = delta * w * tau / (1.0 + w * w * tau * tau);
    let got = nearest(m.system(), c64::new(-0.5 * zener * w, w));
    let q_inv = 2.0 * (-got.re) / got.im;
    let rel = (q_inv - zener).abs() / zener;
    eprintln!(
        "Zener: δ = {delta:.3e}, ωτ = {:.3}, Q⁻¹ = {q_inv:.4e} vs {zener:.4e}, rel {rel:.2e}",
        w * tau
    );
    assert!(rel < 1e-2, "{rel}");
}

/// Implicit midpoint on the coupled model (clamped left, isothermal right, free/insulated
/// elsewhere), no inputs: per step H(e₁) − H(e₀) = −h ēᵀRē exactly in exact arithmetic
/// (E, J, R constant, J skew), so the balance residual is round-off: < 1e-10·H₀; the
/// dissipation ēᵀRē ≥ 0 and H is non-increasing.
#[test]
fn midpoint_energy_balance() {
    let mesh = Mesh2d::unit_square(4, Diagonal::Left).unwrap();
    let m = Thermoelasticity2d::new(elastic(), thermal(0.2), &mesh, 2)
        .unwrap()
        .clamped("left")
        .isothermal("right")
        .build()
        .unwrap();
    let sys = m.system();
    let (E, A, R) = (
        to_dense(&sys.E),
        to_dense(&sys.j_minus_r()),
        to_dense(&sys.R),
    );
    let e0 = m.interpolate_state(&|x| [0.1 * x[0] * x[1], (PI * x[0]).sin() * x[0]], &|x| {
        (-(10.0 * ((x[0] - 0.5).powi(2) + (x[1] - 0.5).powi(2)))).exp()
    });
    let n = e0.len();
    let h = 0.02;
    let lhs = &E - &A * faer::Scale(0.5 * h);
    let rhs = &E + &A * faer::Scale(0.5 * h);
    let lu = lhs.partial_piv_lu();
    let col = |v: &[f64]| Mat::from_fn(n, 1, |i, _| v[i]);
    let energy = |e: &Mat<f64>| 0.5 * (e.transpose() * &E * e)[(0, 0)];
    let mut e = col(&e0);
    let h0 = energy(&e);
    let mut hk = h0;
    let mut worst = 0.0f64;
    let mut dissipated = 0.0;
    for _ in 0..100 {
        let e1 = lu.solve(&rhs * &e);
        let eb = (&e + &e1) * faer::Scale(0.5);
        let d = (eb.transpose() * &R * &eb)[(0, 0)];
        assert!(d >= 0.0, "dissipation {d}");
        let h1 = energy(&e1);
        worst = worst.max((h1 - hk + h * d).abs() / h0);
        assert!(h1 <= hk * (1.0 + 1e-14), "H increased: {hk} -> {h1}");
        dissipated += h * d;
        hk = h1;
        e = e1;
    }
    eprintln!("midpoint: H0 = {h0:.6e}, H(2) = {hk:.6e}, dissipated {dissipated:.6e}, worst balance residual {worst:.2e}");
    assert!(worst < 1e-10, "{worst}");
    // conduction actually dissipates a visible part of the energy
    assert!(dissipated > 1e-3 * h0);
}

/// `field_coefficients` round-trips the interpolated fields; wrong state lengths are typed
/// errors.
#[test]
fn field_access() {
    let m = strip(0.2, 4);
    let e = m.interpolate_state(&|x| [x[0] * (1.0 - x[0]), 0.0], &|x| 1.0 + x[0]);
    let t = m
        .field_coefficients(&e, ThermoField2d::Temperature)
        .unwrap();
    let exact = m
        .space(ThermoField2d::Temperature)
        .interpolate(&|x, o| o[0] = 1.0 + x[0]);
    assert_eq!(t, exact);
    let s = m.field_coefficients(&e, ThermoField2d::Stress).unwrap();
    assert!(s.iter().all(|&v| v == 0.0));
    assert!(m
        .field_coefficients(&e[1..], ThermoField2d::Velocity)
        .is_err());
}

/// 3D: J exactly skew, E SPD, R symmetric PSD (as in 2D); with β = 0 the mechanical blocks
/// are bitwise the `Elasticity3d` matrices (same supports) and the coupling is zero.
#[test]
fn structure_and_decoupled_3d() {
    let mesh = Mesh3d::box_mesh([0.0; 3], [1.0, 0.5, 0.5], [2, 1, 1]).unwrap();
    for k in 1..=2 {
        let m = Thermoelasticity3d::new(elastic(), thermal(0.2), &mesh, k)
            .unwrap()
            .clamped("xmin")
            .fixed("zmin", 2)
            .isothermal("xmax")
            .build()
            .unwrap();
        let sys = m.system();
        sys.check(&Default::default()).unwrap();
        let (E, J, R) = (to_dense(&sys.E), to_dense(&sys.J), to_dense(&sys.R));
        assert_eq!(max_abs(&(&J + J.transpose())), 0.0);
        assert!(max_abs(&(&R - R.transpose())) < 1e-14 * max_abs(&R));
        assert!(E.self_adjoint_eigenvalues(Side::Lower).unwrap()[0] > 0.0);
        let eR = R.self_adjoint_eigenvalues(Side::Lower).unwrap();
        assert!(eR[0] >= -1e-13 * eR.last().unwrap(), "R min eig {}", eR[0]);
        let rv = sys.block_range("e_v").unwrap();
        let rt = sys.block_range("e_T").unwrap();
        assert!(max_abs(&sub(&J, rv, rt)) > 0.0);
        // decoupled limit
        let m0 = Thermoelasticity3d::new(elastic(), thermal(0.0), &mesh, k)
            .unwrap()
            .clamped("xmin")
            .fixed("zmin", 2)
            .build()
            .unwrap();
        let el = Elasticity3d::new(elastic(), &mesh, k)
            .unwrap()
            .clamped("xmin")
            .fixed("zmin", 2)
            .build()
            .unwrap();
        let (s0, es) = (m0.system(), el.system());
        let nm = es.n_states();
        let (E0, J0) = (to_dense(&s0.E), to_dense(&s0.J));
        assert_eq!(max_abs(&(&sub(&E0, 0..nm, 0..nm) - &to_dense(&es.E))), 0.0);
        assert_eq!(max_abs(&(&sub(&J0, 0..nm, 0..nm) - &to_dense(&es.J))), 0.0);
        assert_eq!(max_abs(&sub(&J0, 0..nm, nm..s0.n_states())), 0.0);
    }
    assert!(Thermoelasticity3d::new(elastic(), thermal(0.2), &mesh, 3).is_err());
    let err = Thermoelasticity3d::new(elastic(), thermal(0.2), &mesh, 1)
        .unwrap()
        .fixed("ymax", 3)
        .build()
        .unwrap_err();
    assert!(err.to_string().contains("ymax"), "{err}");
}

/// 3D 1D-reducible case: a bar 1 × 0.25 × 0.25 on rollers on all six faces, insulated,
/// carries the uniaxial-strain mode u = sin πx, θ ∝ cos πx: one 3D eigenvalue matches the
/// exact dispersion root (same cubic as the 2D strip, s = λ + 2μ) within 2e-4 relative
/// (P2 tetrahedra, h = 1/6 along the bar: O((κh)⁴) error, measured 2.5e-5).
#[test]
fn bar_3d_matches_dispersion_relation() {
    let mesh = Mesh3d::box_mesh([0.0; 3], [1.0, 0.25, 0.25], [6, 1, 1]).unwrap();
    let mut b = Thermoelasticity3d::new(elastic(), thermal(0.2), &mesh, 2).unwrap();
    for (tag, axis) in [
        ("xmin", 0),
        ("xmax", 0),
        ("ymin", 1),
        ("ymax", 1),
        ("zmin", 2),
        ("zmax", 2),
    ] {
        b = b.fixed(tag, axis);
    }
    let m = b.build().unwrap();
    let (el, th) = (elastic(), thermal(0.2));
    let s = el.lame_lambda() + 2.0 * el.shear_modulus();
    let exact = dispersion_root(
        el.rho,
        s,
        m.c_beta(),
        th.heat_capacity,
        th.conductivity,
        th.t0,
        PI,
    );
    let got = nearest(m.system(), exact);
    let rel = (got - exact).norm() / exact.norm();
    eprintln!(
        "3D bar mode: exact {exact:?}, 3D {got:?}, n = {}, rel err {rel:.2e}",
        m.kept_dofs().len()
    );
    assert!(rel < 2e-4, "{rel}");
}
