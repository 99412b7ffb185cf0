//! Linear multi-degree-of-freedom systems `M ẍ + R ẋ + K x = B u`
//! (thesis 002 §2.4.2, eq. (2.151)): undamped modes from
//! `(K − ω² M) φ = 0` (§2.4.3), Rayleigh (proportional) damping
//! `R = αM + βK` (§2.4.4), damped (complex) modes of the first-order form,
//! and modal truncation `x = Φ_t q_t` (§2.4.5).

use crate::error::{dim_err, ControlError, Result};
use crate::linalg::{
    check_finite, check_shape, check_square, cholesky, eig, eye, hstack, sym_eig, DenseLu,
};
use faer::{c64, Mat, MatRef, Scale};
use std::f64::consts::PI;

/// Second-order linear system `M ẍ + R ẋ + K x = B u`.
#[derive(Clone, Debug)]
pub struct Mdof {
    /// mass matrix (symmetric positive definite), `n × n`
    pub M: Mat<f64>,
    /// damping matrix, `n × n`
    pub R: Mat<f64>,
    /// stiffness matrix, `n × n`
    pub K: Mat<f64>,
    /// input matrix, `n × r`
    pub B: Mat<f64>,
}

/// Undamped modes: `K Φ = M Φ Ω²`, mass-normalised `ΦᵀMΦ = I`, ascending `ω`.
#[derive(Clone, Debug)]
pub struct UndampedModes {
    /// natural circular frequencies ω (rad/s), ascending
    pub omega: Vec<f64>,
    /// mode shapes as columns, `ΦᵀMΦ = I`
    pub shapes: Mat<f64>,
}

impl UndampedModes {
    /// Natural frequencies in Hz.
    pub fn freq_hz(&self) -> Vec<f64> {
        self.omega.iter().map(|w| w / (2.0 * PI)).collect()
    }

    /// Mode `k` divided by its component `reference` (signed ratios; the
    /// thesis prints magnitudes ρ and phases Θ ∈ {0, ±π} of these).
    pub fn shape_ratios(&self, k: usize, reference: usize) -> Result<Vec<f64>> {
        let n = self.shapes.nrows();
        if k >= self.shapes.ncols() || reference >= n {
            return Err(ControlError::InvalidParameter {
                name: "mode/reference index".into(),
                reason: format!("need mode < {} and reference < {n}", self.shapes.ncols()),
            });
        }
        let r = self.shapes[(reference, k)];
        if r.abs() < 1e-300 {
            return Err(ControlError::InvalidParameter {
                name: "reference".into(),
                reason: format!("component {reference} of mode {k} is zero (node of the mode)"),
            });
        }
        Ok((0..n).map(|i| self.shapes[(i, k)] / r).collect())
    }
}

/// One complex mode of the damped system (eigenpair of the first-order form).
#[derive(Clone, Debug)]
pub struct DampedMode {
    /// continuous eigenvalue λ = −ξω ± iω√(1−ξ²) (the one with Im λ ≥ 0)
    pub lambda: c64,
    /// undamped natural frequency |λ|/(2π) in Hz
    pub freq_hz: f64,
    /// damping ratio ξ = −Re λ/|λ|
    pub damping: f64,
    /// displacement part of the eigenvector (complex mode shape `w`)
    pub shape: Vec<c64>,
}

impl Mdof {
    /// Builds the system; checks shapes, finiteness and `M` SPD.
    pub fn new(M: Mat<f64>, R: Mat<f64>, K: Mat<f64>, B: Mat<f64>) -> Result<Self> {
        let n = check_square("M", M.as_ref())?;
        check_shape("R", R.as_ref(), n, n)?;
        check_shape("K", K.as_ref(), n, n)?;
        if B.nrows() != n {
            return Err(dim_err("B", n, B.ncols(), B.nrows(), B.ncols()));
        }
        for (name, A) in [("M", &M), ("R", &R), ("K", &K), ("B", &B)] {
            check_finite(name, A.as_ref())?;
        }
        cholesky("M", M.as_ref())?;
        Ok(Self { M, R, K, B })
    }

    /// Undamped system `M ẍ + K x = B u`.
    pub fn undamped(M: Mat<f64>, K: Mat<f64>, B: Mat<f64>) -> Result<Self> {
        let n = M.nrows();
        Self::new(M, Mat::zeros(n, n), K, B)
    }

    /// Number of degrees of freedom `n₂`.
    pub fn n_dof(&self) -> usize {
        self.M.nrows()
    }

    /// Number of inputs `r`.
    pub fn n_inputs(&self) -> usize {
        self.B.ncols()
    }

    /// Replaces `R` with Rayleigh damping `αM + βK`.
    pub fn with_rayleigh(mut self, alpha: f64, beta: f64) -> Self {
        self.R = rayleigh_damping(self.M.as_ref(), self.K.as_ref(), alpha, beta);
        self
    }

    /// Undamped modes of `(K, M)` via the Cholesky factor `M = LLᵀ`:
    /// `L⁻¹KL⁻ᵀ y = ω² y`, `φ = L⁻ᵀ y`.
    pub fn undamped_modes(&self) -> Result<UndampedModes> {
        undamped_modes(self.M.as_ref(), self.K.as_ref())
    }

    /// Damped modes from the eigenvalues of `A_c = [[0, I], [−M⁻¹K, −M⁻¹R]]`
    /// (thesis eq. (3.28)); one entry per conjugate pair (Im λ > 0),
    /// sorted by frequency. Overdamped (real) eigenvalues are listed with
    /// `damping ≥ 1`.
    pub fn damped_modes(&self) -> Result<Vec<DampedMode>> {
        let n = self.n_dof();
        let lu = DenseLu::new("M", self.M.as_ref())?;
        let MiK = lu.solve(self.K.as_ref());
        let MiR = lu.solve(self.R.as_ref());
        let mut Ac = Mat::<f64>::zeros(2 * n, 2 * n);
        Ac.as_mut()
            .submatrix_mut(0, n, n, n)
            .copy_from(eye(n).as_ref());
        Ac.as_mut()
            .submatrix_mut(n, 0, n, n)
            .copy_from((Scale(-1.0) * &MiK).as_ref());
        Ac.as_mut()
            .submatrix_mut(n, n, n, n)
            .copy_from((Scale(-1.0) * &MiR).as_ref());
        let (vals, vecs) = eig("A_c", Ac.as_ref())?;
        let mut out = Vec::new();
        for (k, l) in vals.iter().enumerate() {
            if l.im < 0.0 || (l.im == 0.0 && out.iter().any(|m: &DampedMode| m.lambda == *l)) {
                continue;
            }
            let w = l.norm();
            out.push(DampedMode {
                lambda: *l,
                freq_hz: w / (2.0 * PI),
                damping: if w > 0.0 { -l.re / w } else { 0.0 },
                shape: (0..n).map(|i| vecs[(i, k)]).collect(),
            });
        }
        out.sort_by(|a, b| a.freq_hz.total_cmp(&b.freq_hz));
        Ok(out)
    }

    /// Modal truncation (thesis §2.4.5): keeps the undamped modes `keep`
    /// (indices into the ascending list) and returns the reduced system in
    /// the coordinates `q_t` with `x = Φ_t q_t`.
    pub fn modal_truncation(&self, keep: &[usize]) -> Result<ModalTruncation> {
        let modes = self.undamped_modes()?;
        let n = self.n_dof();
        for &k in keep {
            if k >= n {
                return Err(ControlError::InvalidParameter {
                    name: "keep".into(),
                    reason: format!("mode index {k} must be < {n}"),
                });
            }
        }
        let cols: Vec<_> = keep
            .iter()
            .map(|&k| modes.shapes.as_ref().subcols(k, 1))
            .collect();
        let Phi = hstack(&cols);
        let Mt = Phi.transpose() * &self.M * &Phi;
        let Rt = Phi.transpose() * &self.R * &Phi;
        let Kt = Phi.transpose() * &self.K * &Phi;
        let Bt = Phi.transpose() * &self.B;
        Ok(ModalTruncation {
            basis: Phi,
            reduced: Mdof::new(Mt, Rt, Kt, Bt)?,
        })
    }
}

/// Result of [`Mdof::modal_truncation`].
#[derive(Clone, Debug)]
pub struct ModalTruncation {
    /// retained mass-normalised modes `Φ_t` (columns)
    pub basis: Mat<f64>,
    /// reduced system `Φ_tᵀMΦ_t q̈ + Φ_tᵀRΦ_t q̇ + Φ_tᵀKΦ_t q = Φ_tᵀB u`
    pub reduced: Mdof,
}

/// Undamped modes of the pencil `(K, M)`, `M` symmetric positive definite.
pub fn undamped_modes(M: MatRef<'_, f64>, K: MatRef<'_, f64>) -> Result<UndampedModes> {
    let n = check_square("M", M)?;
    check_shape("K", K, n, n)?;
    let L = cholesky("M", M)?;
    let Li = DenseLu::new("Cholesky factor of M", L.as_ref())?.inverse();
    let S = &Li * K * Li.transpose();
    let S = crate::linalg::sym(S.as_ref());
    let (vals, Y) = sym_eig("L⁻¹KL⁻ᵀ", S.as_ref())?;
    let shapes = Li.transpose() * &Y;
    let omega = vals.iter().map(|&v| v.max(0.0).sqrt()).collect();
    Ok(UndampedModes { omega, shapes })
}

/// Rayleigh damping matrix `R = αM + βK` (thesis eq. (2.178)).
pub fn rayleigh_damping(M: MatRef<'_, f64>, K: MatRef<'_, f64>, alpha: f64, beta: f64) -> Mat<f64> {
    Scale(alpha) * M + Scale(beta) * K
}

/// Modal damping ratio of Rayleigh damping, `ξ = α/(2ω) + βω/2` (thesis eq. (3.82)).
pub fn rayleigh_damping_ratio(alpha: f64, beta: f64, omega: f64) -> f64 {
    alpha / (2.0 * omega) + beta * omega / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::diag;

    /// Two equal masses, three equal springs (wall–m–m–wall): ω² = k/m, 3k/m.
    #[test]
    fn two_mass_chain() {
        let (m, k) = (2.0, 50.0);
        let M = diag(&[m, m]);
        let K = Mat::from_fn(2, 2, |i, j| if i == j { 2.0 * k } else { -k });
        let sys = Mdof::undamped(M, K, Mat::from_fn(2, 1, |i, _| (i == 0) as u8 as f64)).unwrap();
        let modes = sys.undamped_modes().unwrap();
        assert!((modes.omega[0] - (k / m).sqrt()).abs() < 1e-12);
        assert!((modes.omega[1] - (3.0 * k / m).sqrt()).abs() < 1e-12);
        let r = modes.shape_ratios(1, 0).unwrap();
        assert!((r[1] + 1.0).abs() < 1e-12);
        // mass normalisation ΦᵀMΦ = I
        let G = modes.shapes.transpose() * &sys.M * &modes.shapes;
        assert!((G[(0, 0)] - 1.0).abs() < 1e-13 && G[(0, 1)].abs() < 1e-13);
    }

    /// A 3-DOF spring chain: `M = diag(1, 2, 1.5)`, tridiagonal `K`.
    fn chain3() -> (Mat<f64>, Mat<f64>) {
        let M = diag(&[1.0, 2.0, 1.5]);
        let K = Mat::from_fn(3, 3, |i, j| {
            [
                [300.0, -100.0, 0.0],
                [-100.0, 250.0, -150.0],
                [0.0, -150.0, 150.0],
            ][i][j]
        });
        (M, K)
    }

    /// Rayleigh damping: the complex modes have ξⱼ = α/(2ωⱼ) + βωⱼ/2 exactly.
    #[test]
    fn rayleigh_modal_damping() {
        let (M, K) = chain3();
        let (a, b) = (0.4, 1e-3);
        let sys = Mdof::undamped(M, K, Mat::zeros(3, 1))
            .unwrap()
            .with_rayleigh(a, b);
        let und = sys.undamped_modes().unwrap();
        let dm = sys.damped_modes().unwrap();
        for (k, m) in dm.iter().enumerate() {
            let w = und.omega[k];
            // |λ| = ω for proportional damping; 1e-10 relative (eigen-solver round-off)
            assert!((2.0 * PI * m.freq_hz - w).abs() < 1e-10 * w);
            assert!((m.damping - rayleigh_damping_ratio(a, b, w)).abs() < 1e-10);
        }
    }

    /// Truncation to all modes is diagonal with ω² on the stiffness diagonal.
    #[test]
    fn truncation_is_diagonal() {
        let (M, K) = chain3();
        let sys = Mdof::undamped(M, K, Mat::from_fn(3, 1, |_, _| 1.0)).unwrap();
        let w = sys.undamped_modes().unwrap().omega;
        let t = sys.modal_truncation(&[0, 2]).unwrap();
        assert_eq!(t.reduced.n_dof(), 2);
        assert!((t.reduced.K[(1, 1)] - w[2] * w[2]).abs() < 1e-10 * w[2] * w[2]);
        assert!(t.reduced.K[(0, 1)].abs() < 1e-10);
        assert!((t.reduced.M[(0, 0)] - 1.0).abs() < 1e-13);
    }
}
