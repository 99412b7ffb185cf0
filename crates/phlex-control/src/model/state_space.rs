//! State-space models `ż = A z + B u`, `y = C z + D u` (continuous) or
//! `z(k+1) = A z(k) + B u(k)`, `y(k) = C z(k) + D u(k)` (discrete), and
//! their construction from second-order models (thesis 002 §3.2).
//!
//! * first-order form with `z = [x; ẋ]` (eqs. (3.6)–(3.9)):
//!   `A_c = [[0, I], [−M⁻¹K, −M⁻¹R]]`, `B_c = [0; M⁻¹B₂]`, and outputs
//!   `y = C_d x + C_v ẋ + C_a ẍ` give `C = [C_d − C_a M⁻¹K, C_v − C_a M⁻¹R]`,
//!   `D = C_a M⁻¹ B₂`;
//! * symmetric forms (eqs. (3.10)–(3.13)) `V_c ż = S_c z + N_c u`:
//!   form 1 `V_c = [[R, M], [M, 0]]`, `S_c = [[−K, 0], [0, M]]`, `N_c = [B₂; 0]`;
//!   form 2 `V_c = [[−K, 0], [0, M]]`, `S_c = [[0, −K], [−K, −R]]`, `N_c = [0; B₂]`;
//! * similarity transformation `z = T z̄`: `Ā = T⁻¹AT`, `B̄ = T⁻¹B`,
//!   `C̄ = CT` (eq. (3.15), whose printed `TAT⁻¹` is a typo).

use crate::error::{dim_err, ControlError, Result};
use crate::linalg::{
    block2, check_finite, check_shape, check_square, eigvals, eye, mat_vec_sum, vstack, DenseLu,
};
use crate::model::mdof::Mdof;
use faer::{c64, Mat, MatRef, Scale};

/// Checks a sampling time: `0 < Δt < ∞` (error on the key `dt`).
pub fn check_sampling_time(dt: f64) -> Result<()> {
    if !(dt > 0.0 && dt.is_finite()) {
        return Err(ControlError::InvalidParameter {
            name: "dt".into(),
            reason: format!("sampling time must satisfy 0 < Δt < ∞, got {dt}"),
        });
    }
    Ok(())
}

/// A linear time-invariant state-space model.
#[derive(Clone, Debug)]
pub struct StateSpace {
    /// state matrix `n × n`
    pub A: Mat<f64>,
    /// input matrix `n × r`
    pub B: Mat<f64>,
    /// output matrix `m × n`
    pub C: Mat<f64>,
    /// feed-through `m × r`
    pub D: Mat<f64>,
    /// `None` for continuous time, `Some(Δt)` for a discrete model
    pub dt: Option<f64>,
}

/// Which physical quantities the outputs measure: `y = C_d x + C_v ẋ + C_a ẍ`.
#[derive(Clone, Debug)]
pub struct OutputMaps {
    /// displacement output matrix `m × n₂`
    pub Cd: Mat<f64>,
    /// velocity output matrix `m × n₂`
    pub Cv: Mat<f64>,
    /// acceleration output matrix `m × n₂`
    pub Ca: Mat<f64>,
}

/// What the sensors measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sensing {
    /// displacement outputs (`b = 0`)
    Displacement,
    /// velocity outputs (`b = 1`)
    Velocity,
    /// acceleration outputs (`b = 2`)
    Acceleration,
}

impl Sensing {
    /// The time derivative `b` of the displacement that is measured
    /// (thesis 002 eq. (3.203)).
    pub fn power(self) -> i32 {
        match self {
            Sensing::Displacement => 0,
            Sensing::Velocity => 1,
            Sensing::Acceleration => 2,
        }
    }
}

impl OutputMaps {
    /// Outputs are the displacements, velocities or accelerations (`sensing`)
    /// of the listed DOFs: the matching map is the selector of `dofs`, the
    /// other two are zero.
    pub fn sensing(sensing: Sensing, n_dof: usize, dofs: &[usize]) -> Self {
        let b = sensing.power() as usize;
        let [Cd, Cv, Ca] = std::array::from_fn(|k| {
            if k == b {
                selector(n_dof, dofs)
            } else {
                Mat::zeros(dofs.len(), n_dof)
            }
        });
        Self { Cd, Cv, Ca }
    }
}

/// Rows of the identity selecting `dofs`.
pub fn selector(n: usize, dofs: &[usize]) -> Mat<f64> {
    Mat::from_fn(dofs.len(), n, |i, j| (dofs[i] == j) as u8 as f64)
}

/// Symmetric first-order form `V_c ż = S_c z + N_c u` (thesis eqs. (3.10)–(3.13)).
#[derive(Clone, Debug)]
pub struct SymmetricForm {
    /// symmetric "mass" `V_c`
    pub V: Mat<f64>,
    /// symmetric "stiffness" `S_c`
    pub S: Mat<f64>,
    /// input matrix `N_c`
    pub N: Mat<f64>,
}

impl SymmetricForm {
    /// Form 1: `V_c = [[R, M], [M, 0]]`, `S_c = [[−K, 0], [0, M]]`, `N_c = [B₂; 0]`.
    pub fn form1(sys: &Mdof) -> Self {
        let n = sys.n_dof();
        let Z = Mat::<f64>::zeros(n, n);
        let mK = Scale(-1.0) * &sys.K;
        Self {
            V: block2([
                [sys.R.as_ref(), sys.M.as_ref()],
                [sys.M.as_ref(), Z.as_ref()],
            ]),
            S: block2([[mK.as_ref(), Z.as_ref()], [Z.as_ref(), sys.M.as_ref()]]),
            N: vstack(&[
                sys.B.as_ref(),
                Mat::<f64>::zeros(n, sys.n_inputs()).as_ref(),
            ]),
        }
    }

    /// Form 2: `V_c = [[−K, 0], [0, M]]`, `S_c = [[0, −K], [−K, −R]]`, `N_c = [0; B₂]`.
    pub fn form2(sys: &Mdof) -> Self {
        let n = sys.n_dof();
        let Z = Mat::<f64>::zeros(n, n);
        let mK = Scale(-1.0) * &sys.K;
        let mR = Scale(-1.0) * &sys.R;
        Self {
            V: block2([[mK.as_ref(), Z.as_ref()], [Z.as_ref(), sys.M.as_ref()]]),
            S: block2([[Z.as_ref(), mK.as_ref()], [mK.as_ref(), mR.as_ref()]]),
            N: vstack(&[
                Mat::<f64>::zeros(n, sys.n_inputs()).as_ref(),
                sys.B.as_ref(),
            ]),
        }
    }

    /// `(A_c, B_c) = (V_c⁻¹S_c, V_c⁻¹N_c)`.
    pub fn first_order(&self) -> Result<(Mat<f64>, Mat<f64>)> {
        let lu = DenseLu::new("V_c", self.V.as_ref())?;
        Ok((lu.solve(self.S.as_ref()), lu.solve(self.N.as_ref())))
    }
}

impl StateSpace {
    /// Builds a model, checking shapes and finiteness. `dt` must be positive if given.
    pub fn new(
        A: Mat<f64>,
        B: Mat<f64>,
        C: Mat<f64>,
        D: Mat<f64>,
        dt: Option<f64>,
    ) -> Result<Self> {
        let n = check_square("A", A.as_ref())?;
        if B.nrows() != n {
            return Err(dim_err("B", n, B.ncols(), B.nrows(), B.ncols()));
        }
        if C.ncols() != n {
            return Err(dim_err("C", C.nrows(), n, C.nrows(), C.ncols()));
        }
        check_shape("D", D.as_ref(), C.nrows(), B.ncols())?;
        for (name, X) in [("A", &A), ("B", &B), ("C", &C), ("D", &D)] {
            check_finite(name, X.as_ref())?;
        }
        if let Some(h) = dt {
            check_sampling_time(h)?;
        }
        Ok(Self { A, B, C, D, dt })
    }

    /// Continuous first-order model of `M ẍ + R ẋ + K x = B₂ u` with outputs
    /// `y = C_d x + C_v ẋ + C_a ẍ` (thesis eqs. (3.6)–(3.9)).
    pub fn from_mdof(sys: &Mdof, out: &OutputMaps) -> Result<Self> {
        let n = sys.n_dof();
        let m = out.Cd.nrows();
        check_shape("C_d", out.Cd.as_ref(), m, n)?;
        check_shape("C_v", out.Cv.as_ref(), m, n)?;
        check_shape("C_a", out.Ca.as_ref(), m, n)?;
        let lu = DenseLu::new("M", sys.M.as_ref())?;
        let MiK = lu.solve(sys.K.as_ref());
        let MiR = lu.solve(sys.R.as_ref());
        let MiB = lu.solve(sys.B.as_ref());
        let Z = Mat::<f64>::zeros(n, n);
        let mMiK = Scale(-1.0) * &MiK;
        let mMiR = Scale(-1.0) * &MiR;
        let A = block2([
            [Z.as_ref(), eye(n).as_ref()],
            [mMiK.as_ref(), mMiR.as_ref()],
        ]);
        let B = vstack(&[Mat::<f64>::zeros(n, sys.n_inputs()).as_ref(), MiB.as_ref()]);
        let C1 = &out.Cd - &out.Ca * &MiK;
        let C2 = &out.Cv - &out.Ca * &MiR;
        let C = crate::linalg::hstack(&[C1.as_ref(), C2.as_ref()]);
        let D = &out.Ca * &MiB;
        Self::new(A, B, C, D, None)
    }

    /// Number of states `n`.
    pub fn n_states(&self) -> usize {
        self.A.nrows()
    }
    /// Number of inputs `r`.
    pub fn n_inputs(&self) -> usize {
        self.B.ncols()
    }
    /// Number of outputs `m`.
    pub fn n_outputs(&self) -> usize {
        self.C.nrows()
    }
    /// `true` for a discrete-time model.
    pub fn is_discrete(&self) -> bool {
        self.dt.is_some()
    }

    /// Similarity transformation `z = T z̄`: `(T⁻¹AT, T⁻¹B, CT, D)`.
    pub fn similarity(&self, T: MatRef<'_, f64>) -> Result<Self> {
        check_shape("T", T, self.n_states(), self.n_states())?;
        let lu = DenseLu::new("T", T)?;
        let A = lu.solve((&self.A * T).as_ref());
        let B = lu.solve(self.B.as_ref());
        let C = &self.C * T;
        Self::new(A, B, C, self.D.clone(), self.dt)
    }

    /// Eigenvalues of `A`.
    pub fn poles(&self) -> Result<Vec<c64>> {
        eigvals("A", self.A.as_ref())
    }

    /// Selects a subset of inputs and outputs.
    pub fn subsystem(&self, inputs: &[usize], outputs: &[usize]) -> Result<Self> {
        for &i in inputs {
            if i >= self.n_inputs() {
                return Err(ControlError::InvalidParameter {
                    name: "inputs".into(),
                    reason: format!("index {i} ≥ r = {}", self.n_inputs()),
                });
            }
        }
        for &i in outputs {
            if i >= self.n_outputs() {
                return Err(ControlError::InvalidParameter {
                    name: "outputs".into(),
                    reason: format!("index {i} ≥ m = {}", self.n_outputs()),
                });
            }
        }
        let B = Mat::from_fn(self.n_states(), inputs.len(), |i, j| self.B[(i, inputs[j])]);
        let C = Mat::from_fn(outputs.len(), self.n_states(), |i, j| {
            self.C[(outputs[i], j)]
        });
        let D = Mat::from_fn(outputs.len(), inputs.len(), |i, j| {
            self.D[(outputs[i], inputs[j])]
        });
        Self::new(self.A.clone(), B, C, D, self.dt)
    }

    /// Simulates a discrete model: `u` is `r × l` (one column per sample),
    /// returns the outputs `m × l` and the final state.
    pub fn simulate(&self, u: MatRef<'_, f64>, z0: Option<&[f64]>) -> Result<(Mat<f64>, Vec<f64>)> {
        if self.dt.is_none() {
            return Err(ControlError::InvalidParameter {
                name: "model".into(),
                reason: "simulate needs a discrete model (discretise with zoh::c2d first)".into(),
            });
        }
        let (n, r, m) = (self.n_states(), self.n_inputs(), self.n_outputs());
        if u.nrows() != r {
            return Err(dim_err("u", r, u.ncols(), u.nrows(), u.ncols()));
        }
        let mut z = match z0 {
            Some(z0) if z0.len() != n => return Err(dim_err("z0", n, 1, z0.len(), 1)),
            Some(z0) => z0.to_vec(),
            None => vec![0.0; n],
        };
        let l = u.ncols();
        let mut y = Mat::<f64>::zeros(m, l);
        for k in 0..l {
            let uk: Vec<f64> = (0..r).map(|j| u[(j, k)]).collect();
            let yk = mat_vec_sum(&[(self.C.as_ref(), &z), (self.D.as_ref(), &uk)]);
            for (i, v) in yk.into_iter().enumerate() {
                y[(i, k)] = v;
            }
            z = mat_vec_sum(&[(self.A.as_ref(), &z), (self.B.as_ref(), &uk)]);
        }
        Ok((y, z))
    }

    /// System Markov parameters `Y₀ = D`, `Y_k = C A^{k−1} B` for `k = 0..=count`
    /// (thesis eq. (3.47)); meaningful for discrete models.
    pub fn markov_parameters(&self, count: usize) -> Vec<Mat<f64>> {
        let mut out = Vec::with_capacity(count + 1);
        out.push(self.D.clone());
        let mut AkB = self.B.clone();
        for _ in 0..count {
            out.push(&self.C * &AkB);
            AkB = &self.A * &AkB;
        }
        out
    }

    /// Observability matrix `[C; CA; …; CA^{p−1}]`.
    pub fn observability(&self, p: usize) -> Mat<f64> {
        let mut blocks = Vec::with_capacity(p);
        let mut CA = self.C.clone();
        for _ in 0..p {
            blocks.push(CA.clone());
            CA = &CA * &self.A;
        }
        let refs: Vec<_> = blocks.iter().map(|b| b.as_ref()).collect();
        vstack(&refs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::{diag, fro};

    fn sample() -> Mdof {
        let M = diag(&[1.0, 2.0]);
        let K = Mat::from_fn(2, 2, |i, j| [[30.0, -10.0], [-10.0, 10.0]][i][j]);
        let R = Mat::from_fn(2, 2, |i, j| [[0.3, -0.1], [-0.1, 0.2]][i][j]);
        Mdof::new(M, R, K, Mat::from_fn(2, 1, |i, _| (i == 1) as u8 as f64)).unwrap()
    }

    /// Both symmetric forms give the same A_c, B_c as the direct formula.
    #[test]
    fn symmetric_forms_agree() {
        let sys = sample();
        let ss = StateSpace::from_mdof(&sys, &OutputMaps::sensing(Sensing::Displacement, 2, &[0]))
            .unwrap();
        for f in [SymmetricForm::form1(&sys), SymmetricForm::form2(&sys)] {
            let (A, B) = f.first_order().unwrap();
            // 1e-13: two LU solves on O(10) entries
            assert!(fro((&A - &ss.A).as_ref()) < 1e-13);
            assert!(fro((&B - &ss.B).as_ref()) < 1e-13);
            // V and S symmetric
            assert!(fro((&f.V - f.V.transpose()).as_ref()) == 0.0);
            assert!(fro((&f.S - f.S.transpose()).as_ref()) == 0.0);
        }
    }

    /// Acceleration output: y = ẍ₁ equals row 1 of M⁻¹(B u − K x − R ẋ).
    #[test]
    fn acceleration_output() {
        let sys = sample();
        let ss = StateSpace::from_mdof(&sys, &OutputMaps::sensing(Sensing::Acceleration, 2, &[1]))
            .unwrap();
        let z = [0.1, -0.2, 0.3, 0.05];
        let u = 2.0;
        let x = &z[..2];
        let v = &z[2..];
        let f1 = u
            - (sys.K[(1, 0)] * x[0] + sys.K[(1, 1)] * x[1])
            - (sys.R[(1, 0)] * v[0] + sys.R[(1, 1)] * v[1]);
        let acc = f1 / 2.0;
        let y: f64 = (0..4).map(|j| ss.C[(0, j)] * z[j]).sum::<f64>() + ss.D[(0, 0)] * u;
        assert!((y - acc).abs() < 1e-14);
    }

    /// Similarity transform preserves Markov parameters.
    #[test]
    fn similarity_invariance() {
        let sys = sample();
        let ss = StateSpace::from_mdof(
            &sys,
            &OutputMaps::sensing(Sensing::Displacement, 2, &[0, 1]),
        )
        .unwrap();
        let mut d = ss.clone();
        d.dt = Some(0.1);
        let T = Mat::from_fn(4, 4, |i, j| {
            if i == j {
                2.0
            } else {
                0.1 * (i + 2 * j) as f64
            }
        });
        let t = d.similarity(T.as_ref()).unwrap();
        let a = d.markov_parameters(5);
        let b = t.markov_parameters(5);
        for (x, y) in a.iter().zip(&b) {
            assert!(fro((x - y).as_ref()) < 1e-12 * (1.0 + fro(x.as_ref())));
        }
    }
}
