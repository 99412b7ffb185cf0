//! Numerical checks shared by the tests of the exact Jacobian of the multibody right-hand
//! side $f(x, u) = J(x)z(x) + B(x)u$ (paper 000 eq. (46)).
use phlex_core::sparse;
use phlex_mbs::Multibody;

/// Compares `rhs_jacobian` at `(x, u)` with central differences of `rhs` (step
/// $h = 10^{-6}(1 + |x_k|)$: truncation $O(h^2|f'''|)$ and round-off $\varepsilon|f|/h$ are both
/// $\lesssim 10^{-9}$ of the entry scale) and asserts every entry within $10^{-6}$ of the
/// largest Jacobian entry; returns (largest relative error, that scale).
pub fn check_rhs_jacobian(mb: &Multibody, x: &[f64], u: &[f64], trial: usize) -> (f64, f64) {
    let A = sparse::to_dense(&mb.rhs_jacobian(x, u));
    let rhs = |x: &[f64]| {
        let mut f = vec![0.0; x.len()];
        mb.rhs(x, u, &mut f);
        f
    };
    check_jacobian(&A, x, relative_step, rhs, 1e-6, &format!("trial {trial}"))
}

/// Compares the analytic Jacobian `A` of `f` at `x` with central differences (step
/// `step(x_k)`) and asserts every entry within `tol` of the largest entry of `A`; returns
/// (largest error relative to that scale, the scale). `label` names the case in messages.
pub fn check_jacobian(
    A: &faer::Mat<f64>,
    x: &[f64],
    step: impl Fn(f64) -> f64,
    f: impl Fn(&[f64]) -> Vec<f64>,
    tol: f64,
    label: &str,
) -> (f64, f64) {
    let scale = max_entry(A);
    let mut worst = 0.0f64;
    central_differences(x, step, f, |k, h, fp, fm| {
        for i in 0..x.len() {
            let d = (fp[i] - fm[i]) / (2.0 * h);
            let e = (d - A[(i, k)]).abs() / scale;
            worst = worst.max(e);
            assert!(
                e < tol,
                "{label}: df{i}/dx{k}: fd {d}, jacobian {}",
                A[(i, k)]
            );
        }
    });
    (worst, scale)
}

/// Central differences column by column: for every coordinate $k$ calls
/// `column(k, h, f(x + h e_k), f(x − h e_k))` with the step $h$ = `step(x_k)`.
pub fn central_differences<T>(
    x: &[f64],
    step: impl Fn(f64) -> f64,
    f: impl Fn(&[f64]) -> T,
    mut column: impl FnMut(usize, f64, T, T),
) {
    for k in 0..x.len() {
        let h = step(x[k]);
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[k] += h;
        xm[k] -= h;
        let (fp, fm) = (f(&xp), f(&xm));
        column(k, h, fp, fm);
    }
}

/// The relative step $10^{-6}(1 + |x_k|)$ of the Jacobian checks.
pub fn relative_step(xk: f64) -> f64 {
    1e-6 * (1.0 + xk.abs())
}

/// The largest $|a_{ij}|$ of a square matrix.
pub fn max_entry(a: &faer::Mat<f64>) -> f64 {
    let n = a.nrows();
    (0..n)
        .flat_map(|i| (0..a.ncols()).map(move |j| (i, j)))
        .fold(0.0f64, |m, (i, j)| m.max(a[(i, j)].abs()))
}

/// Largest |column difference| of an analytic Jacobian `a` against central differences
/// of `f` at `x` (step [`relative_step`]), relative to the largest entry of `a`; returns
/// (that error, the scale).
pub fn fd_error(a: &faer::Mat<f64>, x: &[f64], f: &dyn Fn(&[f64]) -> Vec<f64>) -> (f64, f64) {
    let scale = max_entry(a);
    let mut worst = 0.0f64;
    central_differences(x, relative_step, f, |k, h, fp, fm| {
        for i in 0..x.len() {
            let d = (fp[i] - fm[i]) / (2.0 * h);
            worst = worst.max((d - a[(i, k)]).abs() / scale);
        }
    });
    (worst, scale)
}

/// Checks $E^\top z = \nabla H$ column by column by central differences of `hamiltonian`
/// (step `step(x_k)`): calls `check(k, ∂H/∂x_k, (Eᵀz)_k)`.
pub fn energy_gradient(
    x: &[f64],
    E: &faer::Mat<f64>,
    z: &[f64],
    step: impl Fn(f64) -> f64,
    hamiltonian: impl Fn(&[f64]) -> f64,
    mut check: impl FnMut(usize, f64, f64),
) {
    let n = x.len();
    central_differences(x, step, hamiltonian, |k, h, hp, hm| {
        let dh = (hp - hm) / (2.0 * h);
        let etz: f64 = (0..n).map(|i| E[(i, k)] * z[i]).sum();
        check(k, dh, etz);
    });
}
