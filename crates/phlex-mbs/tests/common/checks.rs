//! Numerical checks shared by the tests of the exact Jacobian of the multibody right-hand
//! side $f(x, u) = J(x)z(x) + B(x)u$ (paper 000 eq. (46)).
use phlex_core::sparse;
use phlex_mbs::Multibody;

/// Compares `rhs_jacobian` at `(x, u)` with central differences of `rhs` (step
/// $h = 10^{-6}(1 + |x_k|)$: truncation $O(h^2|f'''|)$ and round-off $\varepsilon|f|/h$ are both
/// $\lesssim 10^{-9}$ of the entry scale) and asserts every entry within $10^{-6}$ of the
/// largest Jacobian entry; returns (largest relative error, that scale).
pub fn check_rhs_jacobian(mb: &Multibody, x: &[f64], u: &[f64], trial: usize) -> (f64, f64) {
    let n = x.len();
    let A = sparse::to_dense(&mb.rhs_jacobian(x, u));
    let scale = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .fold(0.0f64, |m, (i, j)| m.max(A[(i, j)].abs()));
    let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
    let mut worst = 0.0f64;
    for k in 0..n {
        let h = 1e-6 * (1.0 + x[k].abs());
        let mut xp = x.to_vec();
        xp[k] += h;
        mb.rhs(&xp, u, &mut fp);
        xp[k] -= 2.0 * h;
        mb.rhs(&xp, u, &mut fm);
        for i in 0..n {
            let d = (fp[i] - fm[i]) / (2.0 * h);
            let e = (d - A[(i, k)]).abs() / scale;
            worst = worst.max(e);
            assert!(
                e < 1e-6,
                "trial {trial}: df{i}/dx{k}: fd {d}, jacobian {}",
                A[(i, k)]
            );
        }
    }
    (worst, scale)
}
