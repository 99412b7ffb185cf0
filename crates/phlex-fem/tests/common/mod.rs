//! Shared test helpers: thesis parameters, dense generalized eigenvalues of the pencil
//! (J, E), and the consistency residual of a model against an exact solution.
#![allow(dead_code, non_snake_case)]

use faer::linalg::solvers::Solve;
use phlex_core::sparse::{self, to_dense};
use phlex_core::LinearPhSystem;
use phlex_fem::models::beam::euler_bernoulli::EbDiscretization;
use phlex_fem::{Component, End, Field, PfemModel, Quantity};

/// The Euler–Bernoulli discretizations checked with every end condition under both
/// impositions (strong and multipliers): HerDG1, DG1Her and CGCG2.
pub const EB_MULTIPLIER_CASES: [EbDiscretization; 3] = [
    EbDiscretization::HerDg1,
    EbDiscretization::Dg1Her,
    EbDiscretization::CgCg(2),
];

/// Every Euler–Bernoulli discretization: HerDG1, DG1Her and CGCG1..3.
pub const EB_ALL: [EbDiscretization; 5] = [
    EbDiscretization::HerDg1,
    EbDiscretization::Dg1Her,
    EbDiscretization::CgCg(1),
    EbDiscretization::CgCg(2),
    EbDiscretization::CgCg(3),
];

pub mod integrate;
pub mod pencil;
pub mod plates;
pub mod thesis_table;

/// Thesis 004 Table 7.1: ρ = 5600 kg/m³, A = 50 mm², E = 136 GPa, I = 4.16 mm⁴, L = 1 m.
pub const RHO_A: f64 = 5600.0 * 50e-6;
pub const EI: f64 = 136e9 * 4.16e-12;
pub const L: f64 = 1.0;

/// Sorted positive angular frequencies ω = Im λ of the finite eigenvalues of
/// J v = λ E v with Im λ > `im_min` and |λ| < `cutoff`.
///
/// Computed by shift-and-invert, as the thesis does with SLEPc/SciPy (summary §3.5):
/// μ are the eigenvalues of A = (J − σE)⁻¹E (dense LU, standard dense eigen), and
/// λ = σ + 1/μ. The real shift σ > 0 makes J − σE nonsingular (xᵀ(J − σE)x = −σ xᵀEx).
/// Infinite eigenvalues of multiplier pencils map to μ ≈ 0 (|μ| ≲ √ε‖A‖ for the index-2
/// Jordan blocks) and are discarded by `cutoff`. (faer's QZ `generalized_eigen` trips an
/// integer-overflow check in debug builds, faer 0.24.4 gevd/qz_real/mod.rs:2287.)
pub fn frequencies(sys: &LinearPhSystem, im_min: f64, cutoff: f64) -> Vec<f64> {
    let J = to_dense(&sys.J);
    let E = to_dense(&sys.E);
    let sigma = 1.0;
    let K = &J - &E * faer::Scale(sigma);
    let A = K.partial_piv_lu().solve(&E);
    let mu = A.eigenvalues().expect("dense eigenvalues");
    let mut w = Vec::new();
    for m in mu {
        if m.norm() * cutoff <= 1.0 {
            continue;
        }
        let inv = faer::c64::new(1.0, 0.0) / m;
        let lam = faer::c64::new(sigma + inv.re, inv.im);
        if lam.im > im_min && lam.norm() < cutoff {
            w.push(lam.im);
        }
    }
    w.sort_by(|x, y| x.partial_cmp(y).unwrap());
    w
}

/// Euler–Bernoulli reference ω_n = (β_n L)² √(EI/(ρA L⁴)).
pub fn eb_omega(beta_l: f64) -> f64 {
    beta_l * beta_l * (EI / (RHO_A * L.powi(4))).sqrt()
}

/// An exact solution of a model at one instant: primary fields, their time derivatives,
/// boundary quantities F (applied force/moment) and velocities at the ends, and the load
/// port inputs.
/// A field with its value and time derivative at the instant considered.
pub type FieldPair<'a> = (Field, &'a dyn Fn(f64) -> f64, &'a dyn Fn(f64) -> f64);

pub struct ExactState<'a> {
    pub fields: Vec<FieldPair<'a>>,
    pub boundary: &'a dyn Fn(End, Component, Quantity) -> f64,
    pub loads: Vec<(&'a str, f64)>,
}

/// The projected state e_h, its rate ė_h (projection of the exact rate), exact
/// multipliers in the λ blocks, and the exact input vector u.
pub fn discrete(model: &PfemModel, ex: &ExactState) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let n = model.n_states();
    let mut e = vec![0.0; n];
    let mut de = vec![0.0; n];
    for (f, v, dv) in &ex.fields {
        for (a, b) in e.iter_mut().zip(model.project(*f, *v).unwrap()) {
            *a += b;
        }
        for (a, b) in de.iter_mut().zip(model.project(*f, *dv).unwrap()) {
            *a += b;
        }
    }
    let sys = model.system();
    let mut u = vec![0.0; sys.n_inputs()];
    for p in model.end_ports() {
        let r = sys.ports.range(&p.port).unwrap();
        let lam = sys.block_range(&format!("lambda_{}", p.end.name()));
        let mut k_lam = 0;
        for (k, (&(c, q), &m)) in p.inputs.iter().zip(&p.multiplier).enumerate() {
            u[r.start + k] = (ex.boundary)(p.end, c, q);
            if m {
                let lr = lam.clone().expect("multiplier block");
                e[lr.start + k_lam] = (ex.boundary)(p.end, c, q.dual());
                k_lam += 1;
            }
        }
    }
    for (name, val) in &ex.loads {
        let r = sys.ports.range(name).unwrap();
        u[r.start] = *val;
    }
    (e, de, u)
}

/// Weak consistency residual r(v) = vᵀ(E ė_h − J e_h − B u), evaluated block by block:
/// for each field, v = projection of a smooth `g` (nonzero at both ends) on that field
/// only; for each multiplier block, v = 1 on that block. Each block residual is made
/// relative to the size of its individual terms (blocks have different units) and the
/// largest is returned. It tends to 0 under refinement iff the discrete equations,
/// including the sign of every B column, are consistent with the PDE and the port
/// conventions.
pub fn weak_residual(model: &PfemModel, ex: &ExactState, u_sign: f64) -> f64 {
    let (e, de, mut u) = discrete(model, ex);
    u.iter_mut().for_each(|x| *x *= u_sign);
    let sys = model.system();
    let g = |x: f64| 1.0 + 0.3 * x + (1.7 * x).cos();
    let Ede = sparse::mul_vec(&sys.E, &de);
    let Je = sparse::mul_vec(&sys.J, &e);
    let Bu = sparse::mul_vec(&sys.B, &u);
    let mut worst = 0.0f64;
    for (f, _, _) in &ex.fields {
        let v = model.project(*f, &g).unwrap();
        let dot = |a: &[f64]| a.iter().zip(&v).map(|(x, y)| x * y).sum::<f64>();
        let r = dot(&Ede) - dot(&Je) - dot(&Bu);
        let scale = dot(&Ede).abs() + dot(&Je).abs() + dot(&Bu).abs();
        worst = worst.max((r / scale).abs());
    }
    // Multiplier rows r_l = (Gᵀe_h − u_c)_l: relative to the size of the constrained
    // field (the prescribed value may be zero). G = J[field rows, l] has ±1 entries.
    let offsets = sys.block_offsets();
    for (b, blk) in sys.blocks.iter().enumerate() {
        if !blk.name.contains("lambda") {
            continue;
        }
        for l in offsets[b]..offsets[b + 1] {
            let r = -Je[l] - Bu[l];
            let mut scale = 0.0f64;
            for (i, gil) in sparse::col_iter(&sys.J, l) {
                let k = offsets.iter().rposition(|&o| o <= i).unwrap();
                let fmax = e[offsets[k]..offsets[k + 1]]
                    .iter()
                    .fold(0.0f64, |m, x| m.max(x.abs()));
                scale = scale.max(gil.abs() * fmax);
            }
            worst = worst.max((r / scale).abs());
        }
    }
    worst
}

/// Observed convergence rates log2(r_k / r_{k+1}).
pub fn rates(r: &[f64]) -> Vec<f64> {
    r.windows(2).map(|w| (w[0] / w[1]).log2()).collect()
}

/// Checks the port-Hamiltonian structure of `sys` (J skew, E and R symmetric PSD) and its
/// port names, in order.
///
/// # Panics
/// On a structure violation or other port names (a test fixture).
#[track_caller]
pub fn assert_ph(sys: &LinearPhSystem, ports: &[&str]) {
    sys.check(&Default::default()).unwrap();
    assert_eq!(sys.ports.names(), ports);
}

/// The `n` lowest angular frequencies of `sys` by the default eigen solver of
/// `phlex_solve::eigen` ([`phlex_solve::eigen::EigenParams::default`] with `n` modes).
///
/// # Panics
/// If the eigen solver fails (a test fixture).
#[track_caller]
pub fn lowest_modes(sys: &LinearPhSystem, n: usize) -> Vec<f64> {
    let ep = phlex_solve::eigen::EigenParams {
        n_modes: Some(n),
        ..Default::default()
    };
    phlex_solve::eigen::modes(sys, &ep)
        .expect("eigen solver")
        .frequencies()
}
