//! Laminated anisotropic plates (thesis 004 §4.3, eqs. (4.47)–(4.61)): classical lamination
//! theory against hand-computed ABD matrices, the isotropic single ply against the existing
//! HHJ Kirchhoff and CGDG Mindlin plates, Navier closed-form frequencies of simply
//! supported cross-ply laminates (specially orthotropic and the coupled antisymmetric
//! [0/90], Reddy 2003 §5.x/§6.x: the (m, n) Navier ansatz reduces the plate equations to a
//! 3×3 (CLPT) or 5×5 (FSDT) eigenproblem, assembled here from the energy with
//! ∫ sin² = ∫ cos² = ab/4), energy conservation and pH structure; the boundary ports
//! (power balance, isotropic ply = isotropic models with ports, coupled static edge loads
//! against the homogeneous CLT state).
#![allow(non_snake_case, clippy::needless_range_loop)]
mod common;

use faer::linalg::solvers::Solve;
use phlex_core::sparse::{self, SparseMat};
use phlex_core::LinearPhSystem;
use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::continuum::elasticity::{ElasticParams, Elasticity2d, PlaneModel};
use phlex_fem::models::continuum::Supports;
use phlex_fem::models::plate::{
    EdgeCondition, KirchhoffHhj, KirchhoffParams, Laminate, LaminatedField, LaminatedKirchhoff,
    LaminatedMindlin, MembraneCondition, MindlinCgDg, MindlinParams, Ply,
};
use phlex_solve::eigen::{modes, EigenMethod, EigenParams};
use phlex_solve::signal::{InputFn, Signal};
use std::f64::consts::PI;
use std::time::Instant;

/// Graphite–epoxy-like ply (Reddy's "material 1" ratios): E1/E2 = 25, G12 = G13 = 0.5 E2,
/// G23 = 0.2 E2, ν12 = 0.25.
fn gr_ep(thickness: f64, rho: f64) -> Ply {
    let E2 = 10e9;
    Ply {
        E1: 25.0 * E2,
        E2,
        nu12: 0.25,
        G12: 0.5 * E2,
        G13: 0.5 * E2,
        G23: 0.2 * E2,
        rho,
        thickness,
        angle_deg: 0.0,
    }
}

/// Relative Ritz residual tolerance of the eigen solves.
const TOL: f64 = 1e-8;

/// The `n` lowest angular frequencies of a lossless pH system (shift-invert Arnoldi).
fn lowest(sys: &LinearPhSystem, n: usize, shift: f64) -> Vec<f64> {
    let res = modes(
        sys,
        &EigenParams {
            n_modes: Some(n),
            method: EigenMethod::ShiftInvert,
            shift: Some(shift),
            tol: TOL,
            max_krylov: Some(160),
            // J has a large kernel (self-equilibrated stress fields): reject its round-off
            // images relative to the largest |λ| computed, as the HHJ plate tests do
            zero_tol: 1e-6,
            ..Default::default()
        },
    )
    .unwrap();
    res.frequencies()
}

/// Eigenvalues of the symmetric-definite pencil K x = λ M x (small, dense): Cholesky
/// M = LLᵀ, then cyclic Jacobi on L⁻¹KL⁻ᵀ. Sorted ascending.
fn gen_eig(K: &[Vec<f64>], M: &[Vec<f64>]) -> Vec<f64> {
    let n = K.len();
    let mut L = vec![vec![0.0; n]; n];
    for j in 0..n {
        let d = M[j][j] - (0..j).map(|k| L[j][k] * L[j][k]).sum::<f64>();
        assert!(d > 0.0, "mass matrix not positive definite");
        L[j][j] = d.sqrt();
        for i in j + 1..n {
            L[i][j] = (M[i][j] - (0..j).map(|k| L[i][k] * L[j][k]).sum::<f64>()) / L[j][j];
        }
    }
    // A = L⁻¹ K L⁻ᵀ: solve L Y = K, then L Aᵀ = Yᵀ
    let lsolve = |b: &[f64]| -> Vec<f64> {
        let mut y = vec![0.0; n];
        for i in 0..n {
            y[i] = (b[i] - (0..i).map(|k| L[i][k] * y[k]).sum::<f64>()) / L[i][i];
        }
        y
    };
    let cols: Vec<Vec<f64>> = (0..n)
        .map(|j| lsolve(&(0..n).map(|i| K[i][j]).collect::<Vec<_>>()))
        .collect(); // cols[j] = column j of L⁻¹K
    let mut A = vec![vec![0.0; n]; n];
    for i in 0..n {
        // row i of L⁻¹K is (cols[j][i])_j; A row i = L⁻¹ applied to it
        let r = lsolve(&(0..n).map(|j| cols[j][i]).collect::<Vec<_>>());
        A[i].copy_from_slice(&r);
    }
    for sweep in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| A[i][j] * A[i][j])
            .sum();
        let diag: f64 = (0..n).map(|i| A[i][i] * A[i][i]).sum();
        if off <= 1e-30 * diag || sweep == 99 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                if A[p][q].abs() < 1e-300 {
                    continue;
                }
                let th = 0.5 * (A[q][q] - A[p][p]) / A[p][q];
                let t = th.signum() / (th.abs() + (th * th + 1.0).sqrt());
                let t = if th == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akq) = (A[k][p], A[k][q]);
                    A[k][p] = c * akp - s * akq;
                    A[k][q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (A[p][k], A[q][k]);
                    A[p][k] = c * apk - s * aqk;
                    A[q][k] = s * apk + c * aqk;
                }
            }
        }
    }
    let mut ev: Vec<f64> = (0..n).map(|i| A[i][i]).collect();
    ev.sort_by(|a, b| a.partial_cmp(b).unwrap());
    ev
}

/// Kᵀ-congruence: Σ_rows Tᵀ S T with T (rows × ndof).
fn congruence(T: &[Vec<f64>], S: &[Vec<f64>], ndof: usize) -> Vec<Vec<f64>> {
    let r = T.len();
    let mut K = vec![vec![0.0; ndof]; ndof];
    for a in 0..ndof {
        for b in 0..ndof {
            let mut s = 0.0;
            for i in 0..r {
                for j in 0..r {
                    s += T[i][a] * S[i][j] * T[j][b];
                }
            }
            K[a][b] = s;
        }
    }
    K
}

/// Navier ansatz families for simply supported laminates (Reddy 2003 §5.x/§6.x).
#[derive(Clone, Copy, PartialEq)]
enum Navier {
    /// Cross-ply, SS-1: u = U cos αx sin βy, v = V sin αx cos βy, w = W sin αx sin βy;
    /// w = v = N_xx = M_xx = 0 on x = 0, a and w = u = N_yy = M_yy = 0 on y = 0, b. Exact
    /// when A16 = A26 = B16 = B26 = D16 = D26 = 0.
    CrossPlySs1,
    /// Antisymmetric angle-ply, SS-2: u = U sin αx cos βy, v = V cos αx sin βy,
    /// w = W sin αx sin βy; w = u = N_xy = M_xx = 0 on x = 0, a and w = v = N_xy = M_yy = 0
    /// on y = 0, b. Exact when A16 = A26 = D16 = D26 = B11 = B12 = B22 = B66 = 0 and I1 = 0.
    AnglePlySs2,
}

/// Navier CLPT spectrum (all roots of every (m, n), lowest `count`) of a simply supported
/// laminate, thesis sign convention (κ = Hess w, stiffness S6 = [[A, −B], [−B, D]] on
/// (ε_xx, ε_yy, γ_xy, κ_xx, κ_yy, 2κ_xy)). Every strain is a product of a coefficient and
/// either S = sin αx sin βy or C = cos αx cos βy (α = mπ/a, β = nπ/b); ∫S² = ∫C² = ab/4
/// and ∫S·C = 0, so the energy is ½(ab/4) Σ_groups (T q)ᵀ S6 (T q) with q = (U, V, W),
/// provided S6 does not couple an S strain to a C strain (asserted: that is the exactness
/// condition of the ansatz). SS-1: ε_xx = −αU S, ε_yy = −βV S, γ_xy = (βU + αV) C,
/// κ_xx = −α²W S, κ_yy = −β²W S, 2κ_xy = 2αβW C. SS-2: ε_xx = αU C, ε_yy = βV C,
/// γ_xy = −(βU + αV) S, κ_xx, κ_yy as SS-1, 2κ_xy = 2αβW C. Kinetic energy
/// I0(U² + V² + W²) + I2(α² + β²)W² − 2I1(αUW + βVW) (SS-1; rotary terms only if
/// `rotary`). The families m = 0 / n = 0 are in-plane modes with the single surviving
/// displacement; their common factor ab/2 (instead of ab/4) cancels.
fn navier_clpt(
    lam: &Laminate,
    a: f64,
    b: f64,
    rotary: bool,
    kind: Navier,
    count: usize,
) -> Vec<f64> {
    let (A, B, D) = (lam.a(), lam.b(), lam.d());
    let [I0, I1, I2] = lam.inertia();
    let (I1, I2) = if rotary { (I1, I2) } else { (0.0, 0.0) };
    let mut S6 = vec![vec![0.0; 6]; 6];
    for i in 0..3 {
        for j in 0..3 {
            S6[i][j] = A[i][j];
            S6[i][j + 3] = -B[i][j];
            S6[i + 3][j] = -B[i][j];
            S6[i + 3][j + 3] = D[i][j];
        }
    }
    // strain rows of the S group (the others are the C group)
    let s_rows: &[usize] = match kind {
        Navier::CrossPlySs1 => &[0, 1, 3, 4],
        Navier::AnglePlySs2 => &[2, 3, 4],
    };
    let scale = S6.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
    for i in 0..6 {
        for j in 0..6 {
            if s_rows.contains(&i) != s_rows.contains(&j) {
                assert!(
                    S6[i][j].abs() <= 1e-12 * scale,
                    "Navier ansatz not exact: S6[{i}][{j}] = {}",
                    S6[i][j]
                );
            }
        }
    }
    if kind == Navier::AnglePlySs2 {
        assert!(I1 == 0.0, "SS-2 Navier ansatz needs I1 = 0");
    }
    navier_spectrum(a, b, count, |m, n, al, be| {
        // (S group, C group) strain coefficient matrices, 6 × 3
        let mut TS = vec![vec![0.0; 3]; 6];
        let mut TC = vec![vec![0.0; 3]; 6];
        TS[3][2] = -al * al;
        TS[4][2] = -be * be;
        TC[5][2] = 2.0 * al * be;
        match kind {
            Navier::CrossPlySs1 => {
                TS[0][0] = -al;
                TS[1][1] = -be;
                TC[2] = vec![be, al, 0.0];
            }
            Navier::AnglePlySs2 => {
                TC[0][0] = al;
                TC[1][1] = be;
                TS[2] = vec![-be, -al, 0.0];
            }
        }
        let k1 = congruence(&TS, &S6, 3);
        let k2 = congruence(&TC, &S6, 3);
        let K: Vec<Vec<f64>> = (0..3)
            .map(|i| (0..3).map(|j| k1[i][j] + k2[i][j]).collect())
            .collect();
        let M = vec![
            vec![I0, 0.0, -I1 * al],
            vec![0.0, I0, -I1 * be],
            vec![-I1 * al, -I1 * be, I0 + I2 * (al * al + be * be)],
        ];
        // surviving displacement of the in-plane families
        let live: Vec<usize> = match (kind, m, n) {
            (Navier::CrossPlySs1, 0, _) => vec![0], // u = U sin βy
            (Navier::CrossPlySs1, _, 0) => vec![1], // v = V sin αx
            (Navier::AnglePlySs2, 0, _) => vec![1], // v = V sin βy
            (Navier::AnglePlySs2, _, 0) => vec![0], // u = U sin αx
            _ => vec![0, 1, 2],
        };
        live_frequencies(&K, &M, &live)
    })
}

/// The frequencies $\sqrt{\lambda}$ of the pencil $(K, M)$ restricted to the surviving
/// displacements `live` of one Navier $(m, n)$ pair.
fn live_frequencies(K: &[Vec<f64>], M: &[Vec<f64>], live: &[usize]) -> Vec<f64> {
    gen_eig(&sub(K, live), &sub(M, live))
        .iter()
        .map(|l| l.sqrt())
        .collect()
}

/// The `count` lowest frequencies, ascending, of all Navier pairs $(m, n)$, $0 \le m, n < 8$
/// but $(0, 0)$, of an $a \times b$ plate: `pair(m, n, α, β)` gives the frequencies of one
/// pair, $\alpha = m\pi/a$, $\beta = n\pi/b$.
fn navier_spectrum(
    a: f64,
    b: f64,
    count: usize,
    pair: impl Fn(usize, usize, f64, f64) -> Vec<f64>,
) -> Vec<f64> {
    let mut w = Vec::new();
    for m in 0..8 {
        for n in 0..8 {
            if m + n == 0 {
                continue;
            }
            let (al, be) = (m as f64 * PI / a, n as f64 * PI / b);
            w.extend(pair(m, n, al, be));
        }
    }
    lowest_of(w, count)
}

/// The `count` lowest of the frequencies `w` of all Navier pairs, ascending.
fn lowest_of(mut w: Vec<f64>, count: usize) -> Vec<f64> {
    w.sort_by(|x, y| x.partial_cmp(y).unwrap());
    w.truncate(count);
    w
}

/// Principal submatrix on the indices `live`.
fn sub(K: &[Vec<f64>], live: &[usize]) -> Vec<Vec<f64>> {
    live.iter()
        .map(|&i| live.iter().map(|&j| K[i][j]).collect())
        .collect()
}

/// Navier FSDT spectrum (all roots of every (m, n), including the m = 0 / n = 0 in-plane
/// and rotation families, lowest `count`) of a hard simply supported (SS-1)
/// cross-ply Mindlin laminate: additionally θx = X cos αx sin βy, θy = Y sin αx cos βy
/// (θ_s = 0 and M_nn = 0 on the edges); κ = Grad θ: κ_xx = −αX S, κ_yy = −βY S,
/// 2κ_xy = (βX + αY) C; shear γ = grad w − θ: γ_x = (αW − X) cos αx sin βy,
/// γ_y = (βW − Y) sin αx cos βy (orthogonal, A45 = 0 for cross-ply). Kinetic energy
/// I0(U² + V² + W²) − 2I1(UX + VY) + I2(X² + Y²).
fn navier_fsdt(lam: &Laminate, a: f64, b: f64, count: usize) -> Vec<f64> {
    let (A, B, D, As) = (lam.a(), lam.b(), lam.d(), lam.a_s());
    let [I0, I1, I2] = lam.inertia();
    let KS = vec![
        vec![A[0][0], A[0][1], -B[0][0], -B[0][1]],
        vec![A[0][1], A[1][1], -B[0][1], -B[1][1]],
        vec![-B[0][0], -B[0][1], D[0][0], D[0][1]],
        vec![-B[0][1], -B[1][1], D[0][1], D[1][1]],
    ];
    let KC = vec![vec![A[2][2], -B[2][2]], vec![-B[2][2], D[2][2]]];
    let Ksh = vec![vec![As[0][0], 0.0], vec![0.0, As[1][1]]];
    navier_spectrum(a, b, count, |m, n, al, be| {
        // dofs (U, V, W, X, Y)
        let TS = vec![
            vec![-al, 0.0, 0.0, 0.0, 0.0],
            vec![0.0, -be, 0.0, 0.0, 0.0],
            vec![0.0, 0.0, 0.0, -al, 0.0],
            vec![0.0, 0.0, 0.0, 0.0, -be],
        ];
        let TC = vec![vec![be, al, 0.0, 0.0, 0.0], vec![0.0, 0.0, 0.0, be, al]];
        let TG = vec![vec![0.0, 0.0, al, -1.0, 0.0], vec![0.0, 0.0, be, 0.0, -1.0]];
        let (k1, k2, k3) = (
            congruence(&TS, &KS, 5),
            congruence(&TC, &KC, 5),
            congruence(&TG, &Ksh, 5),
        );
        let K: Vec<Vec<f64>> = (0..5)
            .map(|i| (0..5).map(|j| k1[i][j] + k2[i][j] + k3[i][j]).collect())
            .collect();
        let mut M = vec![vec![0.0; 5]; 5];
        for i in 0..3 {
            M[i][i] = I0;
        }
        M[3][3] = I2;
        M[4][4] = I2;
        M[0][3] = -I1;
        M[3][0] = -I1;
        M[1][4] = -I1;
        M[4][1] = -I1;
        // m = 0: (u, θx) ∝ sin βy survive; n = 0: (v, θy) ∝ sin αx
        let live: Vec<usize> = match (m, n) {
            (0, _) => vec![0, 3],
            (_, 0) => vec![1, 4],
            _ => vec![0, 1, 2, 3, 4],
        };
        live_frequencies(&K, &M, &live)
    })
}

/// Fundamental frequency of the simply supported unit square with the laminate's bending
/// stiffness alone (B := 0, D16 = D26 := 0): the specially orthotropic Navier (1, 1) mode.
fn uncoupled_fundamental(lam: &Laminate) -> f64 {
    common::plates::navier_specially_orthotropic(&lam.d(), lam.inertia()[0], 1.0, 1.0, 1)[0]
}

/// Checks the pH structure of `sys` and its four lowest frequencies against the reference
/// `ex` (< 0.5 % relative, the tolerance of the Navier tests); prints them under `label`.
fn assert_four_modes(label: &str, sys: &LinearPhSystem, ex: &[f64], t0: Instant) {
    sys.check(&Default::default()).unwrap();
    let w = lowest(sys, 4, ex[0]);
    let r = rel(&w, ex);
    eprintln!(
        "{label} ({} states): {w:.3?} reference {ex:.3?} rel {r:?} ({:.1?})",
        sys.E.nrows(),
        t0.elapsed()
    );
    assert!(r.iter().all(|x| x.abs() < 5e-3), "{label}: {r:?}");
}

/// The four sides of the rectangle meshes.
const SIDES: [&str; 4] = ["left", "right", "top", "bottom"];

/// A block of a system matrix: (row block, column block).
type BlockName<'a> = (&'a str, &'a str);

/// Asserts that the $E$ and $J$ blocks `(ra, ca)` of `a` equal the blocks `(rb, cb)` of `b`
/// for every pair, to 1e-12 relative to the block size (at least `floor`).
fn assert_same_blocks(
    a: &LinearPhSystem,
    b: &LinearPhSystem,
    pairs: &[(BlockName, BlockName)],
    floor: f64,
) {
    for &((ra, ca), (rb, cb)) in pairs {
        for (Ma, Mb) in [(&a.E, &b.E), (&a.J, &b.J)] {
            let (d, s) = max_diff(&block(a, Ma, ra, ca), &block(b, Mb, rb, cb));
            assert!(d <= 1e-12 * s.max(floor), "{rb}/{cb}: {d} vs {s}");
        }
    }
}

/// Asserts that the $E$ and $J$ blocks `(r, c)` of `sys` vanish exactly (decoupled fields).
fn assert_zero_blocks(sys: &LinearPhSystem, pairs: &[(&str, &str)]) {
    for &(r, c) in pairs {
        for (name, M) in [("E", &sys.E), ("J", &sys.J)] {
            let b = block(sys, M, r, c);
            let z = faer::Mat::zeros(b.nrows(), b.ncols());
            assert_eq!(max_diff(&b, &z).0, 0.0, "{name} {r}/{c} must vanish");
        }
    }
}

/// Asserts that the six lowest frequencies of `lam` (near `shift`) match those of the
/// reference `iso` to `tol` relative.
fn assert_same_lowest(
    label: &str,
    iso: &LinearPhSystem,
    lam: &LinearPhSystem,
    shift: f64,
    tol: f64,
) {
    let wi = lowest(iso, 6, shift);
    let wl = lowest(lam, 6, shift);
    let r = rel(&wl, &wi);
    eprintln!("{label}: {wl:.4?} rel {r:?}");
    assert!(r.iter().all(|x| x.abs() < tol), "{r:?}");
}

fn rel(w: &[f64], ex: &[f64]) -> Vec<f64> {
    assert_eq!(w.len(), ex.len());
    w.iter().zip(ex).map(|(x, y)| (x - y) / y).collect()
}

/// Dense block (rows of block `r`, columns of block `c`) of a system matrix.
fn block(sys: &LinearPhSystem, M: &SparseMat, r: &str, c: &str) -> faer::Mat<f64> {
    let rr: Vec<usize> = sys.block_range(r).unwrap().collect();
    let cc: Vec<usize> = sys.block_range(c).unwrap().collect();
    sparse::to_dense(&sparse::restrict(M, &rr, &cc))
}

fn max_diff(a: &faer::Mat<f64>, b: &faer::Mat<f64>) -> (f64, f64) {
    assert_eq!((a.nrows(), a.ncols()), (b.nrows(), b.ncols()));
    let mut d = 0.0f64;
    let mut s = 0.0f64;
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            d = d.max((a[(i, j)] - b[(i, j)]).abs());
            s = s.max(a[(i, j)].abs());
        }
    }
    (d, s)
}

/// (b) Classical lamination theory against hand computation (nondimensional E2 = 1,
/// E1 = 25, ν12 = 0.25, G12 = 0.5, h = 1): Q11 = 25/0.9975, Q12 = 0.25/0.9975,
/// Q22 = 1/0.9975, Q66 = 0.5.
/// * [0/90]_s (t = 1/4): A11 = A22 = (Q11 + Q22)/2, A12 = Q12, A66 = Q66, B = 0,
///   D11 = (7Q11 + Q22)/96 (outer plies ⅔(1/8 − 1/64) = 7/96, inner ⅔/64 = 1/96),
///   D22 = (Q11 + 7Q22)/96, D12 = Q12/12, D66 = Q66/12, all 16/26 terms 0.
/// * [45/−45] (t = 1/2): Q̄11 = Q̄22 = (Q11 + 2Q12 + 4Q66 + Q22)/4, Q̄12 = (Q11 + Q22 −
///   4Q66)/4 + Q12/2, Q̄66 = (Q11 + Q22 − 2Q12 − 2Q66)/4 + Q66/2, Q̄16 = Q̄26 = ±(Q11 −
///   Q22)/4; A = Q̄ with A16 = A26 = 0; B nonzero only in B16 = B26 = −(Q11 − Q22)/16
///   (bottom +45 ply: ½(0 − ¼) = −⅛); D = Q̄/12 with D16 = D26 = 0.
///
/// Relative tolerance 1e-13 (a few roundings of O(1) sums).
#[test]
fn abd_matches_hand_computation() {
    let ply = |t: f64, ang: f64| Ply {
        E1: 25.0,
        E2: 1.0,
        nu12: 0.25,
        G12: 0.5,
        G13: 0.5,
        G23: 0.2,
        rho: 1.0,
        thickness: t,
        angle_deg: ang,
    };
    let den = 1.0 - 0.25 * 0.25 / 25.0;
    let (q11, q12, q22, q66) = (25.0 / den, 0.25 / den, 1.0 / den, 0.5);
    let close = |a: f64, b: f64, what: &str| {
        assert!(
            (a - b).abs() <= 1e-13 * b.abs().max(1.0),
            "{what}: {a} vs {b}"
        );
    };
    let cp = Laminate::new(
        vec![
            ply(0.25, 0.0),
            ply(0.25, 90.0),
            ply(0.25, 90.0),
            ply(0.25, 0.0),
        ],
        5.0 / 6.0,
    )
    .unwrap();
    let (A, B, D) = (cp.a(), cp.b(), cp.d());
    close(A[0][0], 0.5 * (q11 + q22), "A11");
    close(A[1][1], 0.5 * (q11 + q22), "A22");
    close(A[0][1], q12, "A12");
    close(A[2][2], q66, "A66");
    close(D[0][0], (7.0 * q11 + q22) / 96.0, "D11");
    close(D[1][1], (q11 + 7.0 * q22) / 96.0, "D22");
    close(D[0][1], q12 / 12.0, "D12");
    close(D[2][2], q66 / 12.0, "D66");
    for i in 0..3 {
        for j in 0..3 {
            close(B[i][j], 0.0, "B (symmetric laminate)");
        }
        if i < 2 {
            close(A[i][2], 0.0, "A16/A26");
            close(D[i][2], 0.0, "D16/D26");
        }
    }
    // transverse shear: A55 = 5/6 (½G13 + ½G23) for cross-ply (0° plies: G13 on xz,
    // 90° plies: G23 on xz), A45 = 0
    let As = cp.a_s();
    close(As[0][0], 5.0 / 6.0 * 0.5 * (0.5 + 0.2), "A55");
    close(As[1][1], 5.0 / 6.0 * 0.5 * (0.2 + 0.5), "A44");
    close(As[0][1], 0.0, "A45");
    close(cp.inertia()[0], 1.0, "I0");
    close(cp.inertia()[1], 0.0, "I1");
    close(cp.inertia()[2], 1.0 / 12.0, "I2");

    let ap = Laminate::new(vec![ply(0.5, 45.0), ply(0.5, -45.0)], 5.0 / 6.0).unwrap();
    let (A, B, D) = (ap.a(), ap.b(), ap.d());
    let b11 = (q11 + 2.0 * q12 + 4.0 * q66 + q22) / 4.0;
    let b12 = (q11 + q22 - 4.0 * q66) / 4.0 + q12 / 2.0;
    let b66 = (q11 + q22 - 2.0 * q12 - 2.0 * q66) / 4.0 + q66 / 2.0;
    close(A[0][0], b11, "A11");
    close(A[1][1], b11, "A22");
    close(A[0][1], b12, "A12");
    close(A[2][2], b66, "A66");
    close(A[0][2], 0.0, "A16");
    close(A[1][2], 0.0, "A26");
    close(B[0][2], -(q11 - q22) / 16.0, "B16");
    close(B[1][2], -(q11 - q22) / 16.0, "B26");
    for (i, j) in [(0, 0), (0, 1), (1, 1), (2, 2)] {
        close(B[i][j], 0.0, "B (non-16/26)");
    }
    close(D[0][0], b11 / 12.0, "D11");
    close(D[0][1], b12 / 12.0, "D12");
    close(D[2][2], b66 / 12.0, "D66");
    close(D[0][2], 0.0, "D16");
    // a single +45 ply keeps its 16 term: Q̄16 = (Q11 − Q22)/4
    close(
        ply(1.0, 45.0).reduced_stiffness()[0][2],
        (q11 - q22) / 4.0,
        "Qbar16(45)",
    );
}

/// (a) Kirchhoff: one isotropic ply (E = 70 GPa, ν = 0.3, ρ = 2700, h = 0.01) on the
/// unit square, SSSS, k = 2, 8 × 8: the bending blocks (E and J of `e_w`, `E_kappa`) equal
/// those of [`KirchhoffHhj`] (same spaces and removed DOFs; the compliance is inverted by
/// another route, so equality is up to round-off: asserted 1e-12 relative), the membrane
/// blocks (`e_u`, `E_eps`) those of plane-stress [`Elasticity2d`] with (Eh, ν, ρh), the
/// membrane–bending blocks of E and J are exactly zero (B = 0, I1 = 0), and the six lowest
/// frequencies agree to the eigen-solver tolerance (asserted 1e-8 relative; the membrane
/// modes start at ≈ 1.6e4 rad/s, above the 6th bending mode ≈ 3.9e3 rad/s).
#[test]
fn isotropic_ply_reproduces_kirchhoff_hhj() {
    let mesh = Mesh2d::unit_square(8, Diagonal::Right).unwrap();
    let (E, nu, rho, h) = (70e9, 0.3, 2700.0, 0.01);
    let tags = ["left", "right", "top", "bottom"];
    let mut iso =
        KirchhoffHhj::new(KirchhoffParams::isotropic(E, nu, rho, h).unwrap(), &mesh, 2).unwrap();
    let mut lam =
        LaminatedKirchhoff::new(Laminate::isotropic(E, nu, rho, h).unwrap(), &mesh, 2).unwrap();
    for t in tags {
        iso = iso.simply_supported(t);
        lam = lam.simply_supported(t);
    }
    let (iso, lam) = (iso.build().unwrap(), lam.build().unwrap());
    let (si, sl) = (iso.system(), lam.system());
    sl.check(&Default::default()).unwrap();
    let same = [("e_w", "e_w"), ("E_kappa", "E_kappa"), ("E_kappa", "e_w")].map(|p| (p, p));
    assert_same_blocks(si, sl, &same, 1e-300);
    assert_zero_blocks(
        sl,
        &[
            ("e_u", "e_w"),
            ("E_eps", "E_kappa"),
            ("e_u", "E_kappa"),
            ("E_eps", "e_w"),
        ],
    );
    // membrane = plane-stress elasticity with (E h, ν, ρ h) and rollers tangential to the
    // edges (SS-1: v_y = 0 on x = const, v_x = 0 on y = const)
    let el = Elasticity2d::new(
        ElasticParams {
            E: E * h,
            nu,
            rho: rho * h,
        },
        PlaneModel::PlaneStress,
        &mesh,
        2,
    )
    .unwrap()
    .fixed("left", 1)
    .fixed("right", 1)
    .fixed("bottom", 0)
    .fixed("top", 0)
    .build()
    .unwrap();
    let se = el.system();
    let membrane = [
        (("e_v", "e_v"), ("e_u", "e_u")),
        (("E_sigma", "E_sigma"), ("E_eps", "E_eps")),
        (("E_sigma", "e_v"), ("E_eps", "e_u")),
    ];
    assert_same_blocks(se, sl, &membrane, 1e-300);
    assert_same_lowest("isotropic Kirchhoff", si, sl, 300.0, 1e-8);
}

/// (a) Mindlin: one isotropic ply (E = 70 GPa, ν = 0.3, ρ = 2700, h = 0.1, K_sh = 5/6)
/// clamped on the unit square, k = 2, 6 × 6: the bending blocks equal those of
/// [`MindlinCgDg`] to round-off (1e-12 relative), the membrane decouples (zero blocks),
/// and the six lowest frequencies agree to the eigen-solver accuracy: both are Ritz values
/// with relative residual ≤ 1e-8; the close pairs (9674/9745, 16220/16387 rad/s) amplify
/// it, measured ≤ 1.3e-7, asserted 1e-6 (membrane modes are ≈ 1.7× above the 6th
/// bending mode at h/a = 0.1).
#[test]
fn isotropic_ply_reproduces_mindlin_cgdg() {
    let mesh = Mesh2d::unit_square(6, Diagonal::Left).unwrap();
    let p = MindlinParams {
        E: 70e9,
        nu: 0.3,
        rho: 2700.0,
        h: 0.1,
        k_sh: 5.0 / 6.0,
    };
    let iso = MindlinCgDg::new(p, &mesh, 2)
        .unwrap()
        .clamp_all()
        .build()
        .unwrap();
    let mut lam = LaminatedMindlin::new(
        Laminate::isotropic(p.E, p.nu, p.rho, p.h).unwrap(),
        &mesh,
        2,
    )
    .unwrap();
    for t in ["left", "right", "top", "bottom"] {
        lam = lam.clamped(t);
    }
    let lam = lam.build().unwrap();
    let (si, sl) = (iso.system(), lam.system());
    sl.check(&Default::default()).unwrap();
    let names = ["e_w", "e_theta", "E_kappa", "e_gamma"];
    let same: Vec<_> = names
        .iter()
        .flat_map(|&r| names.map(|c| ((r, c), (r, c))))
        .collect();
    assert_same_blocks(si, sl, &same, 1.0);
    let membrane: Vec<_> = ["e_u", "E_eps"]
        .iter()
        .flat_map(|&r| names.map(|c| (r, c)))
        .collect();
    assert_zero_blocks(sl, &membrane);
    assert_same_lowest("isotropic Mindlin", si, sl, 1000.0, 1e-6);
}

/// (c) Symmetric cross-ply [0/90]_s (graphite–epoxy ratios, E2 = 10 GPa, h = 4 × 2.5 mm,
/// ρ = 1600), square a = 1, SSSS: specially orthotropic, so ω_mn² = π⁴/I0 [D11(m/a)⁴ +
/// 2(D12 + 2D66)(m/a)²(n/b)² + D22(n/b)⁴] (thesis's Kirchhoff model: no rotary inertia).
/// HHJ k = 2 on 12 × 12 (5951 states): measured rel −1.0e-4, −1.5e-4, −1.5e-3, −9.3e-4
/// (mode 1: 380.66 vs 380.70 rad/s), asserted < 0.5 % on the first four modes. The
/// CLPT Navier 3×3 of [`navier_clpt`] reproduces the closed form to 1e-12 (B = 0).
#[test]
fn symmetric_cross_ply_navier() {
    let t0 = Instant::now();
    let p = gr_ep(0.0025, 1600.0);
    let lam = Laminate::new(
        vec![p.at(0.0), p.at(90.0), p.at(90.0), p.at(0.0)],
        5.0 / 6.0,
    )
    .unwrap();
    let (D, I0) = (lam.d(), lam.inertia()[0]);
    let (a, b) = (1.0, 1.0);
    let ex = common::plates::navier_specially_orthotropic(&D, I0, a, b, 4);
    // the CLPT Navier 3×3 reduces to the same numbers when B = 0
    let nav = navier_clpt(&lam, a, b, false, Navier::CrossPlySs1, 4);
    let rn = rel(&nav, &ex);
    assert!(rn.iter().all(|x| x.abs() < 1e-12), "{rn:?}");
    let mesh = Mesh2d::rectangle(0.0, a, 0.0, b, 12, 12, Diagonal::Right).unwrap();
    let b = LaminatedKirchhoff::new(lam, &mesh, 2).unwrap();
    let m = SIDES
        .iter()
        .fold(b, |b, t| b.simply_supported(t))
        .build()
        .unwrap();
    assert_four_modes("[0/90]s SSSS k=2 12x12 vs exact", m.system(), &ex, t0);
}

/// (d) Antisymmetric cross-ply [0/90] (two 5 mm plies, graphite–epoxy ratios), SS-1 on all
/// edges (w = M_nn = 0, tangential in-plane velocity = 0, N_nn = 0: exactly the Navier
/// conditions), B11 = −B22 ≠ 0. Reference: the coupled Navier 3×3 (CLPT) per (m, n).
/// * thesis model (no rotary inertia): HHJ k = 2, 12 × 12, measured |rel| ≤ 3.0e-4 (mode 1
///   242.40 rad/s), asserted < 0.5 % on the first four modes; the coupling matters: the
///   uncoupled (B := 0) D-only frequency of mode 1 is 380.7 rad/s (asserted > 5 % higher).
/// * with rotary inertia and plies of different density (ρ = 1600 / 2000 ⇒ I1 ≠ 0):
///   against the 3×3 with the I1, I2 terms, measured |rel| ≤ 3.0e-4, same tolerance.
#[test]
fn antisymmetric_cross_ply_navier() {
    let t0 = Instant::now();
    let (a, b) = (1.0, 1.0);
    let mesh = Mesh2d::rectangle(0.0, a, 0.0, b, 12, 12, Diagonal::Right).unwrap();
    for (rotary, rho90) in [(false, 1600.0), (true, 2000.0)] {
        let lam = Laminate::new(
            vec![gr_ep(0.005, 1600.0).at(0.0), gr_ep(0.005, rho90).at(90.0)],
            5.0 / 6.0,
        )
        .unwrap();
        let Bm = lam.b();
        assert!(Bm[0][0].abs() > 0.0 && (Bm[0][0] + Bm[1][1]).abs() < 1e-9 * Bm[0][0].abs());
        let ex = navier_clpt(&lam, a, b, rotary, Navier::CrossPlySs1, 4);
        let b = LaminatedKirchhoff::new(lam.clone(), &mesh, 2)
            .unwrap()
            .rotary_inertia(rotary);
        let m = SIDES
            .iter()
            .fold(b, |b, t| b.simply_supported(t))
            .build()
            .unwrap();
        let label = format!("[0/90] SS-1 rotary={rotary} k=2 12x12 vs Navier");
        assert_four_modes(&label, m.system(), &ex, t0);
        if !rotary {
            // the same plate without coupling: specially orthotropic formula with D only
            let w_uncoupled = uncoupled_fundamental(&lam);
            eprintln!("uncoupled mode 1: {w_uncoupled:.3} vs coupled {:.3}", ex[0]);
            assert!(w_uncoupled > 1.05 * ex[0]);
        }
    }
}

/// (d') Antisymmetric angle-ply [45/−45] (two 5 mm plies, graphite–epoxy ratios): B16 =
/// B26 ≠ 0 couple stretching and twisting. SS-2 on all edges (w = M_nn = 0, normal
/// in-plane velocity = 0, N_ns = 0: `MembraneCondition::NormalFixed`), exactly the
/// Navier conditions; reference the coupled Navier 3×3 (rotary inertia on, I1 = 0).
/// HHJ k = 2 on 12 × 12: measured |rel| ≤ 7.1e-5 (mode 1: 308.93 rad/s; without the B
/// coupling it would be 514.3), asserted < 0.5 % on the first four modes.
#[test]
fn antisymmetric_angle_ply_navier() {
    let t0 = Instant::now();
    let (a, b) = (1.0, 1.0);
    let p = gr_ep(0.005, 1600.0);
    let lam = Laminate::new(vec![p.at(45.0), p.at(-45.0)], 5.0 / 6.0).unwrap();
    assert!(lam.b()[0][2].abs() > 0.0);
    let ex = navier_clpt(&lam, a, b, true, Navier::AnglePlySs2, 4);
    let mesh = Mesh2d::rectangle(0.0, a, 0.0, b, 12, 12, Diagonal::Right).unwrap();
    let b = LaminatedKirchhoff::new(lam.clone(), &mesh, 2)
        .unwrap()
        .rotary_inertia(true);
    let ss2 = |b: LaminatedKirchhoff, t: &&str| {
        b.edge(
            t,
            EdgeCondition::SimplySupported,
            MembraneCondition::NormalFixed,
        )
    };
    let m = SIDES.iter().fold(b, ss2).build().unwrap();
    assert_four_modes("[45/-45] SS-2 k=2 12x12 vs Navier", m.system(), &ex, t0);
    // the same plate without the B coupling (D only, D16 = D26 = 0)
    let w_unc = uncoupled_fundamental(&lam);
    eprintln!("[45/-45] uncoupled mode 1 {w_unc:.3}");
}

/// (d, FSDT) Antisymmetric cross-ply [0/90], a/h = 10 (two 50 mm plies), hard SS-1 on all
/// edges, laminated Mindlin CGDG k = 2 on 10 × 10 against the Navier 5×5 (shear
/// deformation, rotary inertia, I1 from unequal ply densities; the 4th mode, 5235.6 rad/s,
/// is the n = 0 in-plane shear family): measured rel 2.6e-4, 6.9e-4, 7.4e-4, 6.7e-6,
/// asserted < 0.5 % on the first four modes.
#[test]
fn antisymmetric_cross_ply_mindlin_navier() {
    let t0 = Instant::now();
    let (a, b) = (1.0, 1.0);
    let lam = Laminate::new(
        vec![gr_ep(0.05, 1600.0).at(0.0), gr_ep(0.05, 2000.0).at(90.0)],
        5.0 / 6.0,
    )
    .unwrap();
    let ex = navier_fsdt(&lam, a, b, 4);
    let mesh = Mesh2d::rectangle(0.0, a, 0.0, b, 10, 10, Diagonal::Right).unwrap();
    let b = LaminatedMindlin::new(lam, &mesh, 2).unwrap();
    let m = SIDES
        .iter()
        .fold(b, |b, t| b.simply_supported(t))
        .build()
        .unwrap();
    assert_four_modes(
        "[0/90] Mindlin a/h=10 k=2 10x10 vs Navier",
        m.system(),
        &ex,
        t0,
    );
}

/// (e) Lossless coupled laminates (antisymmetric angle-ply [45/−45] with all 16/26 and B
/// terms, rotary inertia with I1 ≠ 0; Kirchhoff clamped/SS/free mix, Mindlin clamped/free):
/// J skew and E symmetric positive definite (structure check; E's smallest Cholesky pivot
/// positive), and the implicit midpoint rule conserves H = ½eᵀEe to solver round-off over
/// 400 steps (measured 8.9e-12 Kirchhoff, 2.1e-12 Mindlin; asserted 1e-10 relative), while a purely transverse initial velocity feeds
/// energy into the membrane stresses (coupling active).
#[test]
fn energy_conserved_and_structure() {
    let p = gr_ep(0.005, 1600.0);
    let lam = Laminate::new(
        vec![p.at(45.0), Ply { rho: 2000.0, ..p }.at(-45.0)],
        5.0 / 6.0,
    )
    .unwrap();
    let mesh = Mesh2d::unit_square(6, Diagonal::Left).unwrap();
    let bump = |x: [f64; 2]| (PI * x[0]).sin() * (PI * x[1]).sin() * (1.0 + x[0]);
    let kir = LaminatedKirchhoff::new(lam.clone(), &mesh, 2)
        .unwrap()
        .rotary_inertia(true)
        .clamped("left")
        .simply_supported("bottom")
        .free("right")
        .build()
        .unwrap();
    let min = LaminatedMindlin::new(lam, &mesh, 2)
        .unwrap()
        .clamped("left")
        .clamped("bottom")
        .build()
        .unwrap();
    let cases: Vec<(&str, &LinearPhSystem, Vec<f64>, f64)> = vec![
        (
            "kirchhoff",
            kir.system(),
            kir.interpolate_velocities(None, &bump).unwrap(),
            2e-5,
        ),
        (
            "mindlin",
            min.system(),
            min.interpolate_velocities(None, &bump).unwrap(),
            2e-5,
        ),
    ];
    for (name, sys, e0, dt) in cases {
        sys.check(&Default::default()).unwrap();
        // E SPD: dense Cholesky succeeds (llt fails on a non-positive pivot)
        let Ed = sparse::to_dense(&sys.E);
        assert!(Ed.llt(faer::Side::Lower).is_ok(), "{name}: E not SPD");
        let mut cn =
            common::integrate::midpoint(sys, InputFn::zeros(sys.n_inputs()), 400.0 * dt, dt);
        let h0 = sys.hamiltonian(&e0);
        let rn = sys.block_range("E_eps").unwrap();
        let mut worst = 0.0f64;
        let mut membrane = 0.0f64;
        cn.run(&e0, &mut |_t: f64, e: &[f64]| {
            worst = worst.max((sys.hamiltonian(e) - h0).abs() / h0);
            membrane = membrane.max(e[rn.clone()].iter().map(|v| v.abs()).fold(0.0, f64::max));
        })
        .unwrap();
        eprintln!("{name}: H0 = {h0:.4e}, drift {worst:.2e}, max |N| = {membrane:.3e}");
        assert!(worst < 1e-10, "{name}: drift {worst}");
        assert!(membrane > 0.0, "{name}: membrane not excited");
    }
    // field access round trip
    let e = kir.interpolate_velocities(None, &bump).unwrap();
    let wc = kir
        .field_coefficients(&e, LaminatedField::Velocity)
        .unwrap();
    let e2 = kir
        .state_from_fields(&[(LaminatedField::Velocity, &wc)])
        .unwrap();
    assert_eq!(e, e2);
    assert!(kir
        .field_coefficients(&e, LaminatedField::RotationRate)
        .is_err());
}

/// Antisymmetric cross-ply [0/90] (two graphite–epoxy plies of 2.5 mm): B ≠ 0 (B11 = −B22).
fn cross_ply_0_90() -> Laminate {
    let p = gr_ep(0.0025, 1600.0);
    Laminate::new(vec![p.at(0.0), p.at(90.0)], 5.0 / 6.0).unwrap()
}

/// Signals per input component: port `name` of dimension `dim` gets
/// `amp(name) · sin(ω(name) t)` on every component (uniform along the edges).
fn uniform_signals(sys: &LinearPhSystem, amp: &dyn Fn(&str) -> (f64, f64)) -> Vec<Signal> {
    let mut s = Vec::new();
    for port in sys.ports.iter() {
        let (a, w) = amp(&port.name);
        for _ in 0..port.dim {
            s.push(Signal::from_fn(move |t: f64| a * (w * t).sin()));
        }
    }
    s
}

/// Runs the implicit midpoint rule from rest (h, steps) and returns the integrator's energy
/// ledger with, per step, H and the outputs of `ports`.
#[allow(clippy::type_complexity)]
fn run_ports(
    sys: &LinearPhSystem,
    signals: Vec<Signal>,
    h: f64,
    steps: usize,
    ports: &[&str],
) -> (
    phlex_core::diagnostics::EnergyLedger,
    Vec<f64>,
    Vec<Vec<Vec<f64>>>,
) {
    let mut cn = common::integrate::midpoint(sys, InputFn::new(signals), h * steps as f64, h);
    let mut hs = Vec::new();
    let mut ys = vec![Vec::new(); ports.len()];
    let e0 = vec![0.0; sys.n_states()];
    let res = cn
        .run(&e0, &mut |_t: f64, e: &[f64]| {
            hs.push(sys.hamiltonian(e));
            for (k, p) in ports.iter().enumerate() {
                ys[k].push(sys.port_output(p, e).unwrap());
            }
        })
        .unwrap();
    (res.ledger, hs, ys)
}

/// Boundary ports of the laminated plates with membrane–bending coupling ([0/90], B ≠ 0),
/// k = 2 on a 4 × 2 rectangle: clamped port on "left" (Kirchhoff `left_dnwt`; both
/// `left_Nnn`, `left_Nns`), free port on "right" (Kirchhoff `right_qn`, Mindlin
/// `right_qn`, `right_Mnn`, `right_Mns`; membrane tractions), simply supported port on
/// "top" (Mindlin `top_Mnn`; membrane tractions), "bottom" clamped. Every port driven
/// (a_p sin(ω_p t), rotations 1e-3 rad/s, forces 1 N/m, moments 1 N m/m), implicit
/// midpoint h = 2e-5 s, 200 steps: each step satisfies H₁ − H₀ = h ȳᵀū to 1e-10 of the
/// energy scale (integrator ledger; measured ~1e-14), every port exchanges work, and
/// J skew / E SPD (structure check).
#[test]
fn laminated_ports_power_balance() {
    let mesh = Mesh2d::rectangle(0.0, 1.0, 0.0, 0.5, 4, 2, Diagonal::Right).unwrap();
    let lam = cross_ply_0_90();
    let kir = LaminatedKirchhoff::new(lam.clone(), &mesh, 2)
        .unwrap()
        .port("left", EdgeCondition::Clamped)
        .port("right", EdgeCondition::Free)
        .port("top", EdgeCondition::SimplySupported)
        .clamped("bottom")
        .build()
        .unwrap();
    let min = LaminatedMindlin::new(lam, &mesh, 2)
        .unwrap()
        .port("left", EdgeCondition::Clamped)
        .port("right", EdgeCondition::Free)
        .port("top", EdgeCondition::SimplySupported)
        .clamped("bottom")
        .build()
        .unwrap();
    assert_eq!(
        kir.system().ports.names(),
        vec![
            "left_dnwt",
            "left_Nnn",
            "left_Nns",
            "right_qn",
            "right_Nnn",
            "right_Nns",
            "top_Nnn",
            "top_Nns"
        ]
    );
    assert_eq!(
        min.system().ports.names(),
        vec![
            "left_Nnn",
            "left_Nns",
            "right_qn",
            "right_Mnn",
            "right_Mns",
            "right_Nnn",
            "right_Nns",
            "top_Mnn",
            "top_Nnn",
            "top_Nns"
        ]
    );
    // uniform inputs: Legendre P0 per edge / every CG1 coefficient
    let u = kir.uniform_port_input("left_dnwt", 2.0).unwrap();
    assert_eq!(u.len(), 2 * 2);
    assert_eq!(u, vec![2.0, 0.0, 2.0, 0.0]);
    assert_eq!(
        min.uniform_port_input("top_Mnn", 3.0).unwrap(),
        vec![3.0; 5]
    );
    assert!(kir.uniform_port_input("nowhere", 1.0).is_err());
    for (name, sys) in [("kirchhoff", kir.system()), ("mindlin", min.system())] {
        sys.check(&Default::default()).unwrap();
        let signals = uniform_signals(sys, &|p: &str| {
            let w = 2000.0 + 97.0 * p.len() as f64;
            if p.ends_with("dnwt") {
                (1e-3, w)
            } else {
                (1.0, w)
            }
        });
        let (l, _, _) = run_ports(sys, signals, 2e-5, 200, &[]);
        let work = l.supplied.last().unwrap();
        eprintln!(
            "{name}: max rel residual {:.2e}, drift {:.2e}, work {work:.2?}",
            l.max_relative_residual(),
            l.relative_drift()
        );
        assert!(work.iter().all(|w| w.abs() > 1e-9 * l.energy_scale()));
        assert!(l.max_relative_residual() < 1e-10);
        assert!(l.relative_drift() < 1e-9);
    }
}

/// One isotropic ply with ports = the isotropic models with ports (same mesh, same
/// inputs). Kirchhoff (k = 1 and 2, 4 × 4): laminated `port(left, Clamped)` vs
/// `KirchhoffHhj::rotation_port(left, Clamped)` (w_t = 0, ∂_n w_t input), and for k = 1
/// laminated `port(right, Free)` vs HHJ `port(right, Free)` with zero M_nn input (its
/// multiplier imposes M_nn = 0 exactly as the laminated strong removal; the q_n traces are
/// both the CG1 hat basis), bottom clamped. Mindlin (k = 2): laminated
/// `port(right, Free)` vs `MindlinCgDg::port(right)`, left clamped. Inputs uniform along
/// the edges, a sin(ωt), membrane inputs zero; implicit midpoint h = 1e-4 s, 100 steps:
/// H(t) and the outputs agree to 1e-10 relative to their maxima (the bending blocks agree
/// to round-off and the membrane decouples, B = 0; measured ≤ 1e-13).
#[test]
fn isotropic_ply_ports_reproduce_hhj_and_cgdg() {
    let mesh = Mesh2d::unit_square(4, Diagonal::Right).unwrap();
    let (E, nu, rho, h) = (70e9, 0.3, 2700.0, 0.01);
    // Kirchhoff: ∂_n w_t and q_n driven, M_nn (HHJ multiplier port) and membrane zero;
    // Mindlin: q_n, M_nn, M_ns driven, membrane zero
    let amp = |p: &str| -> (f64, f64) {
        if p.ends_with("dnwt") {
            (1e-3, 900.0)
        } else if p.ends_with("qn") {
            (1.0, 700.0)
        } else {
            (0.0, 0.0)
        }
    };
    let amp_mindlin = |p: &str| -> (f64, f64) {
        if p.ends_with("qn") {
            (1.0, 700.0)
        } else if p.ends_with("Mnn") || p.ends_with("Mns") {
            (0.7, 600.0)
        } else {
            (0.0, 0.0)
        }
    };
    let compare = |what: &str,
                   amp: &dyn Fn(&str) -> (f64, f64),
                   si: &LinearPhSystem,
                   sl: &LinearPhSystem,
                   ports: &[&str]| {
        let (_, hi, yi) = run_ports(si, uniform_signals(si, amp), 1e-4, 100, ports);
        let (_, hl, yl) = run_ports(sl, uniform_signals(sl, amp), 1e-4, 100, ports);
        let hmax = hi.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let dh = hi
            .iter()
            .zip(&hl)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        assert!(hmax > 0.0 && dh <= 1e-10 * hmax, "{what}: H {dh} vs {hmax}");
        for (k, p) in ports.iter().enumerate() {
            let ymax = yi[k].iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
            let dy = yi[k]
                .iter()
                .zip(&yl[k])
                .flat_map(|(a, b)| a.iter().zip(b).map(|(x, y)| (x - y).abs()))
                .fold(0.0f64, f64::max);
            eprintln!("{what} {p}: max |Δy| {dy:.2e} of {ymax:.2e}; ΔH {dh:.2e} of {hmax:.2e}");
            assert!(
                ymax > 0.0 && dy <= 1e-10 * ymax,
                "{what} {p}: {dy} vs {ymax}"
            );
        }
    };
    for k in [1, 2] {
        let mut iso =
            KirchhoffHhj::new(KirchhoffParams::isotropic(E, nu, rho, h).unwrap(), &mesh, k)
                .unwrap()
                .clamped("bottom")
                .rotation_port("left", EdgeCondition::Clamped);
        let mut lam =
            LaminatedKirchhoff::new(Laminate::isotropic(E, nu, rho, h).unwrap(), &mesh, k)
                .unwrap()
                .clamped("bottom")
                .port("left", EdgeCondition::Clamped);
        let mut ports = vec!["left_dnwt"];
        if k == 1 {
            iso = iso.port("right", EdgeCondition::Free);
            lam = lam.port("right", EdgeCondition::Free);
            ports.push("right_qn");
        }
        let (iso, lam) = (iso.build().unwrap(), lam.build().unwrap());
        compare(
            &format!("kirchhoff k={k}"),
            &amp,
            iso.system(),
            lam.system(),
            &ports,
        );
    }
    let p = MindlinParams {
        E,
        nu,
        rho,
        h: 0.05,
        k_sh: 5.0 / 6.0,
    };
    let iso = MindlinCgDg::new(p, &mesh, 2)
        .unwrap()
        .clamped("left")
        .port("right")
        .build()
        .unwrap();
    let lam = LaminatedMindlin::new(Laminate::isotropic(E, nu, rho, p.h).unwrap(), &mesh, 2)
        .unwrap()
        .clamped("left")
        .port("right", EdgeCondition::Free)
        .build()
        .unwrap();
    compare(
        "mindlin k=2",
        &amp_mindlin,
        iso.system(),
        lam.system(),
        &["right_qn", "right_Mnn", "right_Mns"],
    );
}

/// Dense restriction of `M` to the rows of blocks `r` and the columns of blocks `c`.
fn dense_blocks(sys: &LinearPhSystem, M: &SparseMat, r: &[&str], c: &[&str]) -> faer::Mat<f64> {
    let idx = |names: &[&str]| -> Vec<usize> {
        names
            .iter()
            .flat_map(|n| sys.block_range(n).unwrap())
            .collect()
    };
    sparse::to_dense(&sparse::restrict(M, &idx(r), &idx(c)))
}

/// Static response of the coupled laminate loaded through edge ports, against the
/// homogeneous CLT state (the laminated-strip "beam formula" without boundary layers).
/// [0/90] cross-ply (B11 = −B22 ≠ 0) on [0, 2] × [0, 1], k = 2, 4 × 2, all edges free,
/// ports on "left" and "right" (bending free). Uniform edge loads through the ports,
/// equilibrated: (a) membrane N_nn = P = 1 kN/m on both ends (Kirchhoff and Mindlin);
/// (b) bending M_nn = M₀ = 10 N m/m on both ends (Mindlin). The exact plate solution is the
/// homogeneous resultant state s = (N, M) = (P, 0, 0, 0, 0, 0) or (0, 0, 0, M₀, 0, 0),
/// with strains (ε⁰, κ) = [[A, −B], [−B, D]]⁻¹ s (thesis sign, `Laminate::compliance`):
/// u = (ε_xx x + γ_xy y/2, γ_xy x/2 + ε_yy y), w = κ_xx x²/2 + κ_yy y²/2 + κ̂_xy xy/2,
/// θ = grad w — both an in-plane and a transverse response to each load because B ≠ 0.
/// These are quadratic, so they lie in the CG2 spaces and Galerkin reproduces them: the
/// static equations of the pH system, K q = B u with K = Dᵀ M_σ⁻¹ D (D = J[stresses,
/// displacements], M_σ the stress block of E incl. the N–M compliance coupling), hold
/// for q = interpolant of (u, w, θ) to 1e-9 relative (dense round-off), while the same
/// check with the coupling response dropped (B treated as 0) fails by > 1e-3.
#[test]
fn coupled_laminate_edge_loads_static_clt() {
    let mesh = Mesh2d::rectangle(0.0, 2.0, 0.0, 1.0, 4, 2, Diagonal::Right).unwrap();
    let lam = cross_ply_0_90();
    assert!(lam.b()[0][0].abs() > 1e3, "B11 = {}", lam.b()[0][0]);
    let C = lam.compliance();
    // exact velocity-level fields (displacements) of the homogeneous state s
    let fields = |s: [f64; 6], coupled: bool| {
        let mut st = [0.0; 6];
        for i in 0..6 {
            for j in 0..6 {
                st[i] += C[i][j] * s[j];
            }
        }
        if !coupled {
            // drop the cross terms: membrane strains from N only, curvatures from M only
            for i in 0..6 {
                st[i] = (0..6)
                    .filter(|&j| (i < 3) == (j < 3))
                    .map(|j| C[i][j] * s[j])
                    .sum();
            }
        }
        st
    };
    let u_of = |st: [f64; 6]| {
        move |x: [f64; 2]| {
            [
                st[0] * x[0] + 0.5 * st[2] * x[1],
                0.5 * st[2] * x[0] + st[1] * x[1],
            ]
        }
    };
    let w_of = |st: [f64; 6]| {
        move |x: [f64; 2]| {
            0.5 * st[3] * x[0] * x[0] + 0.5 * st[4] * x[1] * x[1] + 0.5 * st[5] * x[0] * x[1]
        }
    };
    let th_of = |st: [f64; 6]| {
        move |x: [f64; 2]| {
            [
                st[3] * x[0] + 0.5 * st[5] * x[1],
                0.5 * st[5] * x[0] + st[4] * x[1],
            ]
        }
    };
    // residual ‖K q − B u‖ / ‖B u‖ of the displacement state q
    let residual = |sys: &LinearPhSystem, vel: &[&str], stress: &[&str], q: &[f64], u: &[f64]| {
        let D = dense_blocks(sys, &sys.J, stress, vel);
        let Ms = dense_blocks(sys, &sys.E, stress, stress);
        let K = D.transpose() * Ms.partial_piv_lu().solve(&D);
        let vidx: Vec<usize> = vel
            .iter()
            .flat_map(|n| sys.block_range(n).unwrap())
            .collect();
        let Bu = sparse::mul_vec(&sys.B, u);
        let mut r2 = 0.0;
        let mut f2 = 0.0;
        for (a, &i) in vidx.iter().enumerate() {
            let mut kq = 0.0;
            for (b, &j) in vidx.iter().enumerate() {
                kq += K[(a, b)] * q[j];
            }
            r2 += (kq - Bu[i]).powi(2);
            f2 += Bu[i].powi(2);
        }
        (r2 / f2).sqrt()
    };
    let input = |sys: &LinearPhSystem, f: &dyn Fn(&str) -> Option<Vec<f64>>| -> Vec<f64> {
        sys.ports
            .iter()
            .flat_map(|p| f(&p.name).unwrap_or_else(|| vec![0.0; p.dim]))
            .collect()
    };
    let (P, M0) = (1e3, 10.0);
    // Kirchhoff: membrane load
    let kir = LaminatedKirchhoff::new(lam.clone(), &mesh, 2)
        .unwrap()
        .port("left", EdgeCondition::Free)
        .port("right", EdgeCondition::Free)
        .build()
        .unwrap();
    let sys = kir.system();
    let u = input(sys, &|p| {
        p.ends_with("_Nnn")
            .then(|| kir.uniform_port_input(p, P).unwrap())
    });
    for coupled in [true, false] {
        let st = fields([P, 0.0, 0.0, 0.0, 0.0, 0.0], coupled);
        let (uf, wf) = (u_of(st), w_of(st));
        let q = kir.interpolate_velocities(Some(&uf), &wf).unwrap();
        let r = residual(sys, &["e_u", "e_w"], &["E_eps", "E_kappa"], &q, &u);
        eprintln!("kirchhoff N load (coupled {coupled}): strains {st:.3?}, residual {r:.2e}");
        if coupled {
            assert!(st[3].abs() > 1e-3 * st[0].abs(), "no transverse response");
            assert!(r < 1e-9, "{r}");
        } else {
            assert!(r > 1e-3, "{r}");
        }
    }
    // Mindlin: membrane load and bending-moment load
    let min = LaminatedMindlin::new(lam, &mesh, 2)
        .unwrap()
        .port("left", EdgeCondition::Free)
        .port("right", EdgeCondition::Free)
        .build()
        .unwrap();
    let sys = min.system();
    for (what, s, suffix, amp) in [
        ("N", [P, 0.0, 0.0, 0.0, 0.0, 0.0], "_Nnn", P),
        ("M", [0.0, 0.0, 0.0, M0, 0.0, 0.0], "_Mnn", M0),
    ] {
        let u = input(sys, &|p| {
            p.ends_with(suffix)
                .then(|| min.uniform_port_input(p, amp).unwrap())
        });
        for coupled in [true, false] {
            let st = fields(s, coupled);
            let (uf, wf, tf) = (u_of(st), w_of(st), th_of(st));
            let uc = min
                .space(LaminatedField::InPlaneVelocity)
                .interpolate(&|x, o| o.copy_from_slice(&uf(x)));
            let wc = min.velocity_space().interpolate(&|x, o| o[0] = wf(x));
            let tc = min
                .space(LaminatedField::RotationRate)
                .interpolate(&|x, o| o.copy_from_slice(&tf(x)));
            let q = min
                .state_from_fields(&[
                    (LaminatedField::InPlaneVelocity, &uc),
                    (LaminatedField::Velocity, &wc),
                    (LaminatedField::RotationRate, &tc),
                ])
                .unwrap();
            let r = residual(
                sys,
                &["e_u", "e_w", "e_theta"],
                &["E_eps", "E_kappa", "e_gamma"],
                &q,
                &u,
            );
            eprintln!(
                "mindlin {what} load (coupled {coupled}): strains {st:.3?}, residual {r:.2e}"
            );
            if coupled {
                // both responses present: in-plane strain and curvature
                assert!(st[0].abs() > 0.0 && st[3].abs() > 0.0);
                assert!(r < 1e-9, "{what}: {r}");
            } else {
                assert!(r > 1e-3, "{what}: {r}");
            }
        }
    }
}
