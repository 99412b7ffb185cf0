#![allow(non_snake_case, clippy::needless_range_loop)]
//! Four-bar mechanism of paper 000 §6.2 (Table 2), crank locked (v_P1 = 0, ω_P1 = 0,
//! v_C3 = 0), lumped masses 0.042 kg at P of the coupler and follower, cantilever
//! deformation condition on every link: first three eigenfrequencies of the linearised
//! pHDAE vs crank angle.
//!
//! Independent reference, written here from scratch: a classical planar frame finite
//! element model of the same locked structure (axial linear + Euler–Bernoulli cubic
//! elements in global coordinates, textbook consistent mass and stiffness matrices, hinges
//! sharing translations, ground conditions by elimination), solved as K φ = ω² M φ. At rest
//! and without prestress the floating-frame pH model spans the same displacement fields
//! (rigid frame motion + cantilever elastic field = all CG1/Hermite fields of a link), so
//! both give the same frequencies to solver accuracy.
mod common;

use common::consistent;

use faer::{Mat, Side};
use phlex_mbs::*;
use phlex_solve::eigen::EigenParams;

use common::four_bar::{four_bar, loop_angles, AREA, EI, LEN, M_LUMP, RHO, YOUNG as E};

fn ph_frequencies(theta1: f64, n_el: usize) -> Vec<f64> {
    let mb = four_bar(theta1, n_el);
    let init = consistent(&mb);
    assert!(init.position_residual.1 < 1e-12);
    modes(&mb, &init.state, &[], &EigenParams::default())
        .unwrap()
        .frequencies()
}

/// Classical frame FE model (global dofs u, v, φ per node).
fn frame_frequencies(theta1: f64, n_el: usize) -> Vec<f64> {
    let phi = loop_angles(theta1);
    // dof numbering: link k, node i (0..=n_el). Translations of the crank tip/coupler root
    // and coupler tip/follower root are shared; rotations are separate (hinges).
    let nn = n_el + 1;
    let mut map = vec![[usize::MAX; 3]; 3 * nn];
    let mut nd = 0;
    let fresh = |nd: &mut usize| {
        *nd += 1;
        *nd - 1
    };
    for k in 0..3 {
        for i in 0..nn {
            let node = k * nn + i;
            for c in 0..3 {
                let fixed = (k == 0 && i == 0) || (k == 2 && i == n_el && c < 2);
                let shared = k > 0 && i == 0 && c < 2;
                map[node][c] = if fixed {
                    usize::MAX
                } else if shared {
                    map[(k - 1) * nn + n_el][c]
                } else {
                    fresh(&mut nd)
                };
            }
        }
    }
    let mut K = Mat::<f64>::zeros(nd, nd);
    let mut M = Mat::<f64>::zeros(nd, nd);
    for k in 0..3 {
        let (l, ra, ea, ei) = (LEN[k] / n_el as f64, RHO * AREA[k], E * AREA[k], EI[k]);
        let (c, s) = (phi[k].cos(), phi[k].sin());
        // local dofs (u1, w1, φ1, u2, w2, φ2)
        let mut kl = [[0.0; 6]; 6];
        let mut ml = [[0.0; 6]; 6];
        let ax = [(0, 0, 1.0), (0, 3, -1.0), (3, 0, -1.0), (3, 3, 1.0)];
        for (i, j, v) in ax {
            kl[i][j] += ea / l * v;
        }
        let mx = [(0, 0, 2.0), (0, 3, 1.0), (3, 0, 1.0), (3, 3, 2.0)];
        for (i, j, v) in mx {
            ml[i][j] += ra * l / 6.0 * v;
        }
        let bidx = [1, 2, 4, 5];
        let kb = [
            [12.0, 6.0 * l, -12.0, 6.0 * l],
            [6.0 * l, 4.0 * l * l, -6.0 * l, 2.0 * l * l],
            [-12.0, -6.0 * l, 12.0, -6.0 * l],
            [6.0 * l, 2.0 * l * l, -6.0 * l, 4.0 * l * l],
        ];
        let mb = [
            [156.0, 22.0 * l, 54.0, -13.0 * l],
            [22.0 * l, 4.0 * l * l, 13.0 * l, -3.0 * l * l],
            [54.0, 13.0 * l, 156.0, -22.0 * l],
            [-13.0 * l, -3.0 * l * l, -22.0 * l, 4.0 * l * l],
        ];
        for a in 0..4 {
            for bb in 0..4 {
                kl[bidx[a]][bidx[bb]] += ei / l.powi(3) * kb[a][bb];
                ml[bidx[a]][bidx[bb]] += ra * l / 420.0 * mb[a][bb];
            }
        }
        // local = T global, T = diag(R, R) with R = [[c, s, 0], [−s, c, 0], [0, 0, 1]]
        let mut T = [[0.0; 6]; 6];
        for n in 0..2 {
            let o = 3 * n;
            T[o][o] = c;
            T[o][o + 1] = s;
            T[o + 1][o] = -s;
            T[o + 1][o + 1] = c;
            T[o + 2][o + 2] = 1.0;
        }
        let tr = |a: &[[f64; 6]; 6]| {
            let mut g = [[0.0; 6]; 6];
            for i in 0..6 {
                for j in 0..6 {
                    g[i][j] = (0..6)
                        .flat_map(|p| (0..6).map(move |q| (p, q)))
                        .map(|(p, q)| T[p][i] * a[p][q] * T[q][j])
                        .sum();
                }
            }
            g
        };
        let (kg, mg) = (tr(&kl), tr(&ml));
        for e in 0..n_el {
            let dofs: Vec<usize> = (0..2)
                .flat_map(|n| (0..3).map(move |c| (n, c)))
                .map(|(n, c)| map[k * nn + e + n][c])
                .collect();
            for i in 0..6 {
                for j in 0..6 {
                    if dofs[i] != usize::MAX && dofs[j] != usize::MAX {
                        K[(dofs[i], dofs[j])] += kg[i][j];
                        M[(dofs[i], dofs[j])] += mg[i][j];
                    }
                }
            }
        }
        if k > 0 {
            for c in 0..2 {
                let d = map[k * nn][c];
                M[(d, d)] += M_LUMP;
            }
        }
    }
    // K φ = ω² M φ via Cholesky M = L Lᵀ and the symmetric L⁻¹ K L⁻ᵀ.
    let llt = M.llt(Side::Lower).unwrap();
    let L = llt.L();
    let mut Linv = Mat::<f64>::identity(nd, nd);
    faer::linalg::triangular_solve::solve_lower_triangular_in_place(
        L,
        Linv.as_mut(),
        faer::Par::Seq,
    );
    let S = &Linv * &K * Linv.transpose();
    let Ssym = Mat::<f64>::from_fn(nd, nd, |i, j| 0.5 * (S[(i, j)] + S[(j, i)]));
    let ev = Ssym.self_adjoint_eigenvalues(Side::Lower).unwrap();
    let mut w: Vec<f64> = ev.iter().filter(|&&v| v > 1e-6).map(|v| v.sqrt()).collect();
    w.sort_by(|a, b| a.total_cmp(b));
    w
}

/// First three frequencies at several crank angles, 2 elements per link (the paper's
/// mesh): pH floating-frame model = classical frame model to 1e-7 relative.
#[test]
fn first_three_frequencies_match_frame_model() {
    println!("theta1 [deg] | pH ω1 ω2 ω3 [rad/s] | frame ω1 ω2 ω3");
    let mut worst = 0.0f64;
    for deg in [0.0f64, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0] {
        let t = deg.to_radians();
        let a = ph_frequencies(t, 2);
        let b = frame_frequencies(t, 2);
        println!(
            "{deg:6.1} | {:9.3} {:9.3} {:9.3} | {:9.3} {:9.3} {:9.3}",
            a[0], a[1], a[2], b[0], b[1], b[2]
        );
        assert_eq!(a.len(), b.len(), "{a:?} / {b:?}");
        for k in 0..3 {
            assert!(
                (a[k] - b[k]).abs() < 1e-7 * b[k],
                "θ1 = {deg}: mode {k}: {} vs {}",
                a[k],
                b[k]
            );
            worst = worst.max((a[k] - b[k]).abs() / b[k]);
        }
    }
    println!("max relative difference {worst:.3e}");
}

/// Mesh convergence of the first three frequencies at θ1 = 60° (2, 4, 8, 16 elements per
/// link): successive differences shrink (Hermite bending converges as h⁴ in frequency).
#[test]
fn mesh_convergence() {
    let t = 60f64.to_radians();
    let f: Vec<Vec<f64>> = [2, 4, 8, 16]
        .iter()
        .map(|&n| ph_frequencies(t, n)[..3].to_vec())
        .collect();
    for (n, w) in [2, 4, 8, 16].iter().zip(&f) {
        println!("{n:2} elements: {:.6} {:.6} {:.6}", w[0], w[1], w[2]);
    }
    for k in 0..3 {
        let d1 = (f[1][k] - f[0][k]).abs();
        let d3 = (f[3][k] - f[2][k]).abs();
        assert!(
            d3 < 0.05 * d1 + 1e-9 * f[3][k],
            "mode {k}: {d1:.3e} → {d3:.3e}"
        );
        assert!((f[3][k] - f[2][k]).abs() < 1e-4 * f[3][k]);
    }
}
