//! Eigenvalue fixtures: the symmetric pencil $Kx = \lambda Mx$ (reference frequencies of
//! standard FEM) and the pH pencil $(E, J)$ by sparse shift-invert.
use faer::{Mat, Par, Side};
use phlex_core::LinearPhSystem;
use phlex_solve::eigen::{modes, EigenMethod, EigenParams};

/// Eigenvalues of $Kx = \lambda Mx$, ascending: Cholesky $M = LL^\top$, eigenvalues of the
/// symmetrized $L^{-1}KL^{-\top}$ (faer self-adjoint eigen solver).
///
/// # Panics
/// If $M$ is not symmetric positive definite (a test fixture).
#[track_caller]
pub fn sym_pencil(K: &Mat<f64>, M: &Mat<f64>) -> Vec<f64> {
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

/// The `n` lowest angular frequencies of the pH pencil $(E, J)$ by sparse shift-invert
/// (σ = 2 rad/s, below every physical frequency of the elastic tests). The kernel of $J$
/// (self-equilibrated DG stresses) gives round-off eigenvalues; `zero_tol = 1e-3` rejects
/// Im λ < 1e-3 ρ(λ); the triple eigenvalues of a cube need a Krylov space of 200.
///
/// # Panics
/// If the eigen solver fails (a test fixture).
#[track_caller]
pub fn shift_invert_frequencies(sys: &LinearPhSystem, n: usize) -> Vec<f64> {
    let res = modes(
        sys,
        &EigenParams {
            n_modes: Some(n),
            method: EigenMethod::ShiftInvert,
            shift: Some(2.0),
            tol: 1e-12,
            max_krylov: Some(200),
            zero_tol: 1e-3,
            ..Default::default()
        },
    )
    .unwrap();
    res.frequencies()
}
