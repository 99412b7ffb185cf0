//! 2D linear elasticity, CG velocity × DG symmetric stress PFEM (thesis 004 §3, §9.3.1,
//! Remark 28; summary §2.4, §3.2): equivalence with standard displacement FEM, analytic
//! modes of the roller-supported square, convergence order, energy conservation and
//! discrete power balance with the implicit midpoint rule.
#![allow(non_snake_case)]
mod common;

use faer::{Mat, Side};
use phlex_core::sparse::{self, to_dense};
use phlex_core::LinearPhSystem;
use phlex_fem::assembly::tet::{bilinear3d, Op3d, Term3d};
use phlex_fem::assembly::triangle::{self, Op, Term};
use phlex_fem::mesh::Mesh3d;
use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::continuum::elasticity::{
    ElasticField, ElasticParams, Elasticity2d, Elasticity3d, PlaneModel,
};
use phlex_fem::models::continuum::Supports;
use phlex_fem::space::triangle::{complement, Family2d, Shape, Space2d};
use phlex_fem::space::{Family3d, Shape3d, Space3d};
use phlex_solve::eigen::{modes, EigenMethod, EigenParams};
use phlex_solve::midpoint::LinearMidpoint;
use phlex_solve::signal::InputFn;
use std::f64::consts::PI;

/// Non-dimensional material (E = ρ = 1) so that frequencies are O(1).
fn material(nu: f64) -> ElasticParams {
    ElasticParams {
        E: 1.0,
        nu,
        rho: 1.0,
    }
}

/// Standard displacement FEM, assembled here from the textbook bilinear form (not from the
/// pH blocks): K = ∫ ε(φ):(2μ ε(ψ) + λ* tr ε(ψ) I), M = ρ ∫ φ·ψ on (CG_k)², with
/// ε_xx = ∂x φx, ε_yy = ∂y φy, 2 ε_xy = ∂y φx + ∂x φy, so ε:ε' = ε_xx ε'_xx + ε_yy ε'_yy +
/// ½(∂yφx + ∂xφy)(∂yψx + ∂xψy). λ* = λ (plane strain) or Eν/(1 − ν²) (plane stress),
/// computed from E, ν here. Returns dense (K, M) restricted to the DOFs not in `removed`.
fn standard_fem(
    p: &ElasticParams,
    plane: PlaneModel,
    mesh: &Mesh2d,
    k: usize,
    removed: &dyn Fn(&Space2d) -> Vec<usize>,
) -> (Mat<f64>, Mat<f64>) {
    let (E, nu) = (p.E, p.nu);
    let mu = E / (2.0 * (1.0 + nu));
    let lam = match plane {
        PlaneModel::PlaneStrain => E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)),
        PlaneModel::PlaneStress => E * nu / (1.0 - nu * nu),
    };
    let sv = Space2d::new(mesh, Family2d::Cg(k), Shape::Vector).unwrap();
    let terms = [
        Term::new(0, Op::Dx, 0, Op::Dx, 2.0 * mu + lam),
        Term::new(1, Op::Dy, 1, Op::Dy, 2.0 * mu + lam),
        Term::new(0, Op::Dx, 1, Op::Dy, lam),
        Term::new(1, Op::Dy, 0, Op::Dx, lam),
        Term::new(0, Op::Dy, 0, Op::Dy, mu),
        Term::new(0, Op::Dy, 1, Op::Dx, mu),
        Term::new(1, Op::Dx, 0, Op::Dy, mu),
        Term::new(1, Op::Dx, 1, Op::Dx, mu),
    ];
    let K = triangle::bilinear(&sv, &sv, &terms).unwrap();
    let M = triangle::bilinear(
        &sv,
        &sv,
        &[
            Term::new(0, Op::Value, 0, Op::Value, p.rho),
            Term::new(1, Op::Value, 1, Op::Value, p.rho),
        ],
    )
    .unwrap();
    let mut r = removed(&sv);
    r.sort_unstable();
    r.dedup();
    let keep = complement(sv.n_dofs(), &r);
    (
        to_dense(&sparse::restrict(&K, &keep, &keep)),
        to_dense(&sparse::restrict(&M, &keep, &keep)),
    )
}

/// ω of K x = ω² M x, ascending: Cholesky M = L Lᵀ, eigenvalues of the symmetric
/// Remark 28 of thesis 004: the stiffness $K_{ph} = D_{\mathrm{Grad}}^\top M_{\mathcal C}^{-1}
/// D_{\mathrm{Grad}}$ and the mass $M_\rho$ of the CG × DG system `sys` (blocks `e_v`,
/// `E_sigma`; $D_{\mathrm{Grad}} = J[\sigma, v]$), dense.
fn ph_stiffness_and_mass(sys: &LinearPhSystem) -> (Mat<f64>, Mat<f64>) {
    use faer::linalg::solvers::Solve;
    let rv = sys.block_range("e_v").unwrap();
    let rs = sys.block_range("E_sigma").unwrap();
    let (Ed, Jd) = (to_dense(&sys.E), to_dense(&sys.J));
    let Mc = Ed
        .submatrix(rs.start, rs.start, rs.len(), rs.len())
        .to_owned();
    let D = Jd
        .submatrix(rs.start, rv.start, rs.len(), rv.len())
        .to_owned();
    let Mrho = Ed
        .submatrix(rv.start, rv.start, rv.len(), rv.len())
        .to_owned();
    let Kph = D.transpose() * Mc.llt(Side::Lower).unwrap().solve(&D);
    (Kph, Mrho)
}

/// The frequencies of the standard displacement FEM pencil $(K, M)$, the 10 lowest of the pH
/// system `sys`, and their largest relative difference.
fn compare_frequencies(
    sys: &phlex_core::LinearPhSystem,
    K: &Mat<f64>,
    M: &Mat<f64>,
) -> (Vec<f64>, Vec<f64>, f64) {
    let ws = standard_frequencies(K, M);
    let wp = ph_frequencies_dense(sys, 10);
    let worst = wp
        .iter()
        .zip(&ws)
        .map(|(a, b)| (a - b).abs() / b)
        .fold(0.0, f64::max);
    (ws, wp, worst)
}

/// L⁻¹ K L⁻ᵀ (faer self-adjoint eigen solver).
fn standard_frequencies(K: &Mat<f64>, M: &Mat<f64>) -> Vec<f64> {
    common::pencil::sym_pencil(K, M)
        .into_iter()
        .map(|l| l.max(0.0).sqrt())
        .collect()
}

/// The `n` lowest ω of the pH pencil (E, J), dense path (all modes).
fn ph_frequencies_dense(sys: &LinearPhSystem, n: usize) -> Vec<f64> {
    let res = modes(
        sys,
        &EigenParams {
            method: EigenMethod::Dense,
            ..Default::default()
        },
    )
    .unwrap();
    let w = res.frequencies();
    assert!(w.len() >= n, "only {} modes", w.len());
    w[..n].to_vec()
}

/// Remark 28 (thesis 004 §9.3.1): the CG_k × DG_{k−1} pH system is standard displacement
/// FEM. (a) Algebraically: D_Gradᵀ M_𝒞⁻¹ D_Grad (blocks of the assembled pH system) equals
/// the independently assembled K to 1e-12 relative (max entry; exact up to round-off
/// because sym∇(CG_k) ⊂ DG_{k−1} and 𝒟 maps that space to itself). (b) The 10 lowest
/// eigenfrequencies of the pencil (E, J) equal √eig(K, M) to 1e-10 relative (dense
/// eigen-solvers, conditioning ≈ 1e-13 for these O(1) frequencies). Cantilever strip
/// [0, 2] × [0, 1] clamped at x = 0, free elsewhere, both plane models, k = 1, 2, 3,
/// 4 × 2 cells, both diagonals. Measured: (a) ≤ 1.9e-15, (b) ≤ 8.2e-13.
#[test]
fn remark28_equivalence_with_standard_fem() {
    for (k, plane, diag) in [
        (1, PlaneModel::PlaneStress, Diagonal::Right),
        (2, PlaneModel::PlaneStrain, Diagonal::Left),
        (3, PlaneModel::PlaneStress, Diagonal::Left),
        (2, PlaneModel::PlaneStress, Diagonal::Right),
    ] {
        let p = material(0.3);
        let mesh = Mesh2d::rectangle(0.0, 2.0, 0.0, 1.0, 4, 2, diag).unwrap();
        let model = Elasticity2d::new(p, plane, &mesh, k)
            .unwrap()
            .clamped("left")
            .build()
            .unwrap();
        let sys = model.system();
        sys.check(&Default::default()).unwrap();
        let (K, M) = standard_fem(&p, plane, &mesh, k, &|s| {
            s.boundary_dofs(&["left"]).unwrap()
        });
        // (a) factorisation K = Dᵀ M_𝒞⁻¹ D, M = M_ρ
        let (Kph, Mrho) = ph_stiffness_and_mass(sys);
        let dk = (&Kph - &K).norm_max() / K.norm_max();
        let dm = (&Mrho - &M).norm_max() / M.norm_max();
        eprintln!("k={k} {plane:?}: |K_ph − K|/|K| = {dk:.2e}, |M_ρ − M| = {dm:.2e}");
        assert!(dk < 1e-12, "{dk}");
        assert!(dm < 1e-14, "{dm}");
        // (b) the 10 lowest frequencies
        let (ws, wp, worst) = compare_frequencies(sys, &K, &M);
        eprintln!("k={k}: ω_1..10 = {:?}, max rel diff {worst:.2e}", &ws[..10]);
        assert!(worst < 1e-10, "{wp:?} vs {ws:?}");
    }
}

/// Exact modes of the unit square with roller supports on all sides (v·n = 0, zero shear
/// traction), plane strain: the potentials φ = cos(mπx) cos(nπy) (dilatational, any
/// (m, n) ≠ 0) and ψ = sin(mπx) sin(nπy) (shear, m, n ≥ 1) satisfy every boundary
/// condition, so ω = c_p π √(m² + n²) and ω = c_s π √(m² + n²).
fn roller_square_exact(p: &ElasticParams, n: usize) -> Vec<f64> {
    let (cp, cs) = (
        p.pressure_wave_speed(PlaneModel::PlaneStrain),
        p.shear_wave_speed(),
    );
    let mut w = Vec::new();
    for m in 0..8 {
        for q in 0..8 {
            let r = PI * ((m * m + q * q) as f64).sqrt();
            if m + q > 0 {
                w.push(cp * r);
            }
            if m > 0 && q > 0 {
                w.push(cs * r);
            }
        }
    }
    w.sort_by(f64::total_cmp);
    w.truncate(n);
    w
}

fn roller_square(k: usize, n: usize) -> Vec<f64> {
    let mesh = Mesh2d::unit_square(n, Diagonal::Right).unwrap();
    let model = Elasticity2d::new(material(0.3), PlaneModel::PlaneStrain, &mesh, k)
        .unwrap()
        .fixed("left", 0)
        .fixed("right", 0)
        .fixed("bottom", 1)
        .fixed("top", 1)
        .build()
        .unwrap();
    model.system().check(&Default::default()).unwrap();
    common::pencil::shift_invert_frequencies(model.system(), 8)
}

/// Roller-supported square vs the analytic modes: CG2 × DG1 on 16 × 16, the 8 lowest
/// frequencies (including the double dilatational (1, 0)/(0, 1) pair) within 5e-4
/// relative (O(h⁴) discretisation error; measured ≤ 2.5e-4, on ω_7; 3.5e-3 on 8 × 8), and
/// the observed convergence order of ω_1 (shear (1, 1), ω = c_s π√2) on 4, 8, 16 cells per
/// side: ≈ 2k (asserted within [1.8, 2.3]·k; measured k = 1: 1.93, 1.96 with errors
/// 4.2e-2 → 1.1e-2; k = 2: 3.76, 3.92 with errors 3.3e-3 → 1.6e-5).
#[test]
fn roller_square_analytic_modes_and_order() {
    let p = material(0.3);
    let exact = roller_square_exact(&p, 8);
    let w = roller_square(2, 16);
    let worst = w
        .iter()
        .zip(&exact)
        .map(|(a, b)| (a - b).abs() / b)
        .fold(0.0, f64::max);
    eprintln!("roller square CG2 16x16: {w:?}\n exact {exact:?}\n max rel err {worst:.2e}");
    assert!(worst < 5e-4, "{worst}");
    for (k, meshes) in [(1, [4usize, 8, 16]), (2, [4, 8, 16])] {
        let err: Vec<f64> = meshes
            .iter()
            .map(|&n| (roller_square(k, n)[0] - exact[0]).abs() / exact[0])
            .collect();
        let orders: Vec<f64> = err.windows(2).map(|e| (e[0] / e[1]).log2()).collect();
        eprintln!("k={k}: rel errors {err:?}, observed orders {orders:?}");
        let last = *orders.last().unwrap();
        assert!(
            last > 1.8 * k as f64 && last < 2.3 * k as f64,
            "k={k}: {orders:?}"
        );
    }
}

/// Energy conservation: cantilever strip [0, 2] × [0, 1] (clamped at x = 0, free
/// elsewhere), CG2 × DG1, initial velocity v = (x² y, x²) and stress 0; implicit midpoint
/// with h = 0.01 over 20 time units (≈ 3 periods of the first bending mode): the
/// quadratic Hamiltonian is an invariant of the midpoint rule, so the relative drift is
/// round-off (asserted < 1e-10).
#[test]
fn midpoint_conserves_energy() {
    let mesh = Mesh2d::rectangle(0.0, 2.0, 0.0, 1.0, 8, 4, Diagonal::Right).unwrap();
    let model = Elasticity2d::new(material(0.3), PlaneModel::PlaneStress, &mesh, 2)
        .unwrap()
        .clamped("left")
        .build()
        .unwrap();
    let sys = model.system();
    let e0 = model
        .interpolate_state(&|x| [x[0] * x[0] * x[1], x[0] * x[0]], None)
        .unwrap();
    let mut cn = common::integrate::midpoint(sys, InputFn::zeros(0), 20.0, 0.01);
    let h0 = sys.hamiltonian(&e0);
    let mut worst = 0.0f64;
    let mut stress = 0.0f64;
    let rs = sys.block_range("E_sigma").unwrap();
    cn.run(&e0, &mut |_t: f64, e: &[f64]| {
        worst = worst.max((sys.hamiltonian(e) - h0).abs() / h0);
        stress = stress.max(e[rs.clone()].iter().fold(0.0, |m, v| m.max(v.abs())));
    })
    .unwrap();
    eprintln!("energy drift {worst:.2e}, max |σ| {stress:.3}");
    assert!(stress > 0.1, "the stresses must be excited");
    assert!(worst < 1e-10, "{worst}");
    // the clamped DOFs are really removed: the velocity vanishes on x = 0
    let v = model
        .field_coefficients(&e0, ElasticField::Velocity)
        .unwrap();
    let (val, _) = model
        .space(ElasticField::Velocity)
        .evaluate(&v, [0.0, 0.5])
        .unwrap();
    assert!(val[0].abs() < 1e-15 && val[1].abs() < 1e-15);
}

/// Discrete power balance: the same strip with traction ports on the right and top
/// edges, driven by smooth tractions τ(t) = a sin(ω t) (different a, ω per trace
/// coefficient) from rest. The midpoint rule satisfies H_{n+1} − H_n = h ȳᵀū exactly for
/// a linear pH system; asserted: ledger residual < 1e-10 relative to the energy scale and
/// the supplied work is not negligible.
#[test]
fn traction_port_power_balance() {
    let mesh = Mesh2d::rectangle(0.0, 2.0, 0.0, 1.0, 8, 4, Diagonal::Left).unwrap();
    let model = Elasticity2d::new(material(0.25), PlaneModel::PlaneStrain, &mesh, 2)
        .unwrap()
        .clamped("left")
        .port("right")
        .port("top")
        .build()
        .unwrap();
    let sys = model.system();
    sys.check(&Default::default()).unwrap();
    let m = sys.n_inputs();
    assert_eq!(m, 2 * (5 + 9));
    let input = common::integrate::sine_inputs(&vec![1.0; m], 1.0, 0.1);
    let l = &common::integrate::ledger_from_rest(sys, input, 10.0, 0.01);
    let supplied = common::integrate::total_work(l);
    eprintln!(
        "power balance: max rel residual {:.2e}, H_end {:.3e}, |work| {:.3e}",
        l.max_relative_residual(),
        l.hamiltonian.last().unwrap(),
        supplied
    );
    assert!(l.energy_scale() > 0.0 && supplied > 1e-3 * l.energy_scale());
    assert!(l.max_relative_residual() < 1e-10);
}

/// Standard 3D displacement FEM from the textbook form ε:(2μ ε' + λ tr ε' I):
/// 2μ Σ_a ∂_a v_a ∂_a w_a + λ (div v)(div w) + μ Σ_{a<b} (∂_b v_a + ∂_a v_b)(∂_b w_a + ∂_a w_b),
/// consistent mass ρ ∫ v·w, on (CG_k)³ without the `removed` DOFs (dense).
fn standard_fem_3d(
    p: &ElasticParams,
    mesh: &Mesh3d,
    k: usize,
    removed: &[usize],
) -> (Mat<f64>, Mat<f64>) {
    let mu = p.E / (2.0 * (1.0 + p.nu));
    let lam = p.E * p.nu / ((1.0 + p.nu) * (1.0 - 2.0 * p.nu));
    let sv = Space3d::new(mesh, Family3d::Cg(k), Shape3d::Vector).unwrap();
    let mut terms: Vec<Term3d> = Vec::new();
    for a in 0..3 {
        terms.push((a, Op3d::D(a), a, Op3d::D(a), 2.0 * mu));
        for b in 0..3 {
            terms.push((a, Op3d::D(a), b, Op3d::D(b), lam));
        }
        for b in a + 1..3 {
            terms.push((a, Op3d::D(b), a, Op3d::D(b), mu));
            terms.push((a, Op3d::D(b), b, Op3d::D(a), mu));
            terms.push((b, Op3d::D(a), a, Op3d::D(b), mu));
            terms.push((b, Op3d::D(a), b, Op3d::D(a), mu));
        }
    }
    let K = bilinear3d(&sv, &sv, &terms).unwrap();
    let mass: Vec<Term3d> = (0..3)
        .map(|c| (c, Op3d::Value, c, Op3d::Value, p.rho))
        .collect();
    let M = bilinear3d(&sv, &sv, &mass).unwrap();
    let keep = complement(sv.n_dofs(), removed);
    (
        to_dense(&sparse::restrict(&K, &keep, &keep)),
        to_dense(&sparse::restrict(&M, &keep, &keep)),
    )
}

/// Remark 28 in 3D: box [0, 2] × [0, 1] × [0, 1], 2 × 1 × 1 hexahedra (12 tetrahedra),
/// clamped on x = 0, k = 1, 2: D_Gradᵀ M_𝒞⁻¹ D_Grad equals the independently assembled
/// stiffness to 1e-12 relative and the 10 lowest frequencies of the pencil (E, J) equal
/// √eig(K, M) to 1e-10 relative.
#[test]
fn remark28_equivalence_3d() {
    let p = material(0.3);
    let mesh = Mesh3d::box_mesh([0.0; 3], [2.0, 1.0, 1.0], [2, 1, 1]).unwrap();
    for k in 1..=2 {
        let model = Elasticity3d::new(p, &mesh, k)
            .unwrap()
            .clamped("xmin")
            .build()
            .unwrap();
        let sys = model.system();
        sys.check(&Default::default()).unwrap();
        let removed = model
            .space(ElasticField::Velocity)
            .boundary_dofs(&["xmin"])
            .unwrap();
        let (K, M) = standard_fem_3d(&p, &mesh, k, &removed);
        let (Kph, _) = ph_stiffness_and_mass(sys);
        let dk = (&Kph - &K).norm_max() / K.norm_max();
        let (ws, wp, worst) = compare_frequencies(sys, &K, &M);
        eprintln!(
            "3D k={k}: n = {}, |K_ph − K|/|K| = {dk:.2e}, ω_1..10 = {:?}, max rel diff {worst:.2e}",
            sys.n_states(),
            &ws[..10]
        );
        assert!(dk < 1e-12, "{dk}");
        assert!(worst < 1e-10, "{wp:?} vs {ws:?}");
    }
}

/// Exact modes of the unit cube with roller supports on all faces: for indices
/// (m, n, l) ≠ 0 with `nnz` non-zero entries, u_a ∝ A_a Π (sin on axis a, cos elsewhere),
/// one dilatational mode ω = c_p π|k| and nnz − 1 shear modes ω = c_s π|k|.
fn roller_cube_exact(p: &ElasticParams, n: usize) -> Vec<f64> {
    let (cp, cs) = (p.pressure_wave_speed_3d(), p.shear_wave_speed());
    let mut w = Vec::new();
    for m in 0..5usize {
        for q in 0..5usize {
            for l in 0..5usize {
                let nnz = [m, q, l].iter().filter(|&&i| i > 0).count();
                if nnz == 0 {
                    continue;
                }
                let r = PI * ((m * m + q * q + l * l) as f64).sqrt();
                w.push(cp * r);
                for _ in 1..nnz {
                    w.push(cs * r);
                }
            }
        }
    }
    w.sort_by(f64::total_cmp);
    w.truncate(n);
    w
}

fn roller_cube(k: usize, n: usize, n_modes: usize) -> Vec<f64> {
    let mesh = Mesh3d::box_mesh([0.0; 3], [1.0; 3], [n; 3]).unwrap();
    let mut b = Elasticity3d::new(material(0.3), &mesh, k).unwrap();
    for (a, [lo, hi]) in [["xmin", "xmax"], ["ymin", "ymax"], ["zmin", "zmax"]]
        .iter()
        .enumerate()
    {
        b = b.fixed(lo, a).fixed(hi, a);
    }
    let model = b.build().unwrap();
    model.system().check(&Default::default()).unwrap();
    common::pencil::shift_invert_frequencies(model.system(), n_modes)
}

/// Roller-supported unit cube vs the analytic modes (3D CG2 × DG1): the 8 lowest
/// frequencies (triple shear c_s π√2 = 2.755, double shear c_s π√3 = 3.375, triple
/// dilatational c_p π = 3.645) are reproduced with the exact multiplicities (3, 2, 3); the max relative error
/// drops from 5.2e-2 (2³ hexahedra) to 5.7e-3 (4³), an observed order 3.2 that is still
/// pre-asymptotic for 2k = 4 (8³ would exceed the test time budget). Asserted: error on
/// 4³ < 1e-2 and observed order > 2.5; 5.5 s in release.
#[test]
fn roller_cube_analytic_modes() {
    let p = material(0.3);
    let exact = roller_cube_exact(&p, 8);
    let errs: Vec<f64> = [2usize, 4]
        .iter()
        .map(|&n| {
            let w = roller_cube(2, n, 8);
            let e = w
                .iter()
                .zip(&exact)
                .map(|(a, b)| (a - b).abs() / b)
                .fold(0.0, f64::max);
            eprintln!("roller cube CG2 {n}^3: {w:?}, max rel err {e:.2e}");
            e
        })
        .collect();
    eprintln!(
        "exact {exact:?}, observed order {:.2}",
        (errs[0] / errs[1]).log2()
    );
    assert!(errs[1] < 1e-2, "{errs:?}");
    assert!((errs[0] / errs[1]).log2() > 2.5, "{errs:?}");
}

/// 3D energy conservation and port power balance (midpoint rule): beam-like box
/// [0, 2] × [0, 1] × [0, 1], 4 × 2 × 2 hexahedra, CG2 × DG1, clamped on x = 0, traction
/// port on x = 2. (a) Free run from v = (x² y, x² z, x²), σ = 0 (h = 0.02, 200 steps):
/// relative energy drift < 1e-10. (b) Driven from rest by τ_a(t) = a sin(ω t) per trace
/// coefficient: ledger residual H_{n+1} − H_n − h ȳᵀū < 1e-10 relative, supplied work
/// not negligible. Measured (2904 states): drift 3.3e-14, residual 4.1e-14.
#[test]
fn energy_and_power_balance_3d() {
    let mesh = Mesh3d::box_mesh([0.0; 3], [2.0, 1.0, 1.0], [4, 2, 2]).unwrap();
    let model = Elasticity3d::new(material(0.3), &mesh, 2)
        .unwrap()
        .clamped("xmin")
        .port("xmax")
        .build()
        .unwrap();
    let sys = model.system();
    sys.check(&Default::default()).unwrap();
    let params = |t_end: f64| common::integrate::midpoint_params(0.0, t_end, 0.02);
    // (a) free
    let e0 = model.interpolate_state(
        &|x| [x[0] * x[0] * x[1], x[0] * x[0] * x[2], x[0] * x[0]],
        None,
    );
    let h0 = sys.hamiltonian(&e0);
    let mut cn = LinearMidpoint::new(sys, InputFn::zeros(sys.n_inputs()), params(4.0)).unwrap();
    let mut worst = 0.0f64;
    cn.run(&e0, &mut |_t: f64, e: &[f64]| {
        worst = worst.max((sys.hamiltonian(e) - h0).abs() / h0)
    })
    .unwrap();
    // (b) driven
    let m = sys.n_inputs();
    let input = common::integrate::sine_inputs(&vec![1.0; m], 1.0, 0.05);
    let mut cn = LinearMidpoint::new(sys, input, params(4.0)).unwrap();
    let res = cn
        .run(&vec![0.0; sys.n_states()], &mut |_t: f64, _e: &[f64]| {})
        .unwrap();
    let l = &res.ledger;
    let supplied = common::integrate::total_work(l);
    eprintln!(
        "3D: n = {}, free drift {worst:.2e}; driven residual {:.2e}, |work| {supplied:.3e}",
        sys.n_states(),
        l.max_relative_residual()
    );
    assert!(worst < 1e-10, "{worst}");
    assert!(l.energy_scale() > 0.0 && supplied > 1e-3 * l.energy_scale());
    assert!(l.max_relative_residual() < 1e-10);
}

/// Longitudinal modes of a slender plane-stress strip vs the 1D bar: with ν = 0,
/// u = (f(x), 0) is an exact solution of the strip [0, L] × [0, 1] clamped at x = 0 and
/// free elsewhere (σ = E diag(f', 0): zero traction on y = 0, 1 and f'(L) = 0), so
/// ω_n = (2n − 1)π c / (2L), c = √(E/ρ). CG2 × DG1, L = 8, 16 × 2 cells; the
/// longitudinal modes are picked among the (lower and interleaved) bending modes as
/// those whose velocity shape has a y-share below 1e-3 (measured ≤ 5.5e-7). Asserted: the
/// three lowest within 1e-4 relative; measured 5.6e-8, 4.5e-6, 3.5e-5, i.e. growing as
/// (2n − 1)⁴ (× 81, × 625), the O((kh)⁴) signature of the CG2 discretisation error.
#[test]
fn strip_longitudinal_modes_match_bar() {
    let L = 8.0;
    let p = material(0.0);
    let mesh = Mesh2d::rectangle(0.0, L, 0.0, 1.0, 16, 2, Diagonal::Right).unwrap();
    let model = Elasticity2d::new(p, PlaneModel::PlaneStress, &mesh, 2)
        .unwrap()
        .clamped("left")
        .build()
        .unwrap();
    let sys = model.system();
    let res = modes(
        sys,
        &EigenParams {
            method: EigenMethod::Dense,
            mode_shapes: true,
            ..Default::default()
        },
    )
    .unwrap();
    let ns = model.space(ElasticField::Velocity).n_scalar_dofs();
    let mut found = Vec::new();
    for m in &res.modes {
        let phi = m.shape.as_ref().unwrap();
        let re: Vec<f64> = phi.iter().map(|z| z.norm()).collect();
        let v = model
            .field_coefficients(&re, ElasticField::Velocity)
            .unwrap();
        let (x, y): (f64, f64) = (
            v[..ns].iter().map(|a| a * a).sum(),
            v[ns..].iter().map(|a| a * a).sum(),
        );
        if y < 1e-3 * (x + y) {
            found.push((m.omega, y / (x + y)));
        }
        if found.len() == 3 {
            break;
        }
    }
    let c = (p.E / p.rho).sqrt();
    for (n, (w, share)) in found.iter().enumerate() {
        let exact = (2 * n + 1) as f64 * PI * c / (2.0 * L);
        let err = (w - exact).abs() / exact;
        eprintln!("longitudinal mode {}: ω = {w:.10}, bar {exact:.10}, rel err {err:.2e}, y-share {share:.1e}", n + 1);
        assert!(err < 1e-4, "mode {}: {w} vs {exact}", n + 1);
    }
    assert_eq!(found.len(), 3);
}
