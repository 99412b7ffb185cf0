//! Quasilinear pHDAEs (paper 000 eq. (34)):
//! $$E(x)\dot x = (J(x) - R(x))\,z(x) + B(x)u,\qquad y = B(x)^\top z(x),\qquad
//! \partial_x H(x) = E(x)^\top z(x).$$
//!
//! The trait exposes only mathematical content (H, z, E, J, R, B and the Jacobian of z);
//! integrators in `phlex-solve` consume it. [`QuasiLinearPhDae::discrete_gradient`]
//! provides Gonzalez's discrete gradient adapted to the descriptor form, which makes
//! the midpoint-type scheme satisfy the power balance exactly for any Hamiltonian.
use crate::sparse::{self, SparseMat, Triplets};
use crate::{LinearPhSystem, PortSet, VarBlock};

/// A quasilinear port-Hamiltonian DAE.
pub trait QuasiLinearPhDae {
    /// Number of state variables.
    fn n_states(&self) -> usize;
    /// Named ports (columns of $B$).
    fn ports(&self) -> &PortSet;
    /// Named variable blocks.
    fn blocks(&self) -> &[VarBlock];
    /// Hamiltonian $H(x)$.
    fn hamiltonian(&self, x: &[f64]) -> f64;
    /// Effort $z(x)$, with $E(x)^\top z(x) = \nabla H(x)$.
    fn effort(&self, x: &[f64], z: &mut [f64]);
    /// Descriptor $E(x)$.
    fn descriptor(&self, x: &[f64]) -> SparseMat;
    /// Structure $J(x) = -J(x)^\top$.
    fn structure(&self, x: &[f64]) -> SparseMat;
    /// Dissipation $R(x) \succeq 0$; zero by default.
    fn dissipation(&self, x: &[f64]) -> SparseMat {
        let _ = x;
        sparse::zeros(self.n_states(), self.n_states())
    }
    /// Input map $B(x)$.
    fn input_map(&self, x: &[f64]) -> SparseMat;
    /// True if $E$, $J$, $R$, $B$ do not depend on $x$ (lets solvers factor once).
    fn is_constant(&self) -> bool {
        false
    }
    /// Jacobian $\partial z/\partial x$; default: forward differences, column by column.
    fn effort_jacobian(&self, x: &[f64]) -> SparseMat {
        let n = self.n_states();
        let mut z0 = vec![0.0; n];
        let mut z1 = vec![0.0; n];
        self.effort(x, &mut z0);
        let mut xp = x.to_vec();
        let mut t = Triplets::new(n, n);
        for j in 0..n {
            let h = 1e-7 * (1.0 + x[j].abs());
            xp[j] = x[j] + h;
            self.effort(&xp, &mut z1);
            xp[j] = x[j];
            for i in 0..n {
                let d = (z1[i] - z0[i]) / h;
                if d.abs() > 1e-14 {
                    t.push(i, j, d);
                }
            }
        }
        t.build()
    }
    /// Output $y = B(x)^\top z$ for a given effort.
    fn output(&self, x: &[f64], z: &[f64]) -> Vec<f64> {
        sparse::mul_vec_transpose(&self.input_map(x), z)
    }
    /// Gonzalez-type discrete gradient for the descriptor form: with
    /// $x_m = (x_0 + x_1)/2$ and $w = E(x_m)(x_1 - x_0)$,
    /// $\bar z = z(x_m) + \frac{H(x_1) - H(x_0) - z(x_m)^\top w}{w^\top w}\, w$,
    /// so that $\bar z^\top E(x_m)(x_1 - x_0) = H(x_1) - H(x_0)$ exactly.
    fn discrete_gradient(&self, x0: &[f64], x1: &[f64], zbar: &mut [f64]) {
        let n = self.n_states();
        let xm: Vec<f64> = x0.iter().zip(x1).map(|(a, b)| 0.5 * (a + b)).collect();
        self.effort(&xm, zbar);
        let dx: Vec<f64> = x1.iter().zip(x0).map(|(a, b)| a - b).collect();
        let w = sparse::mul_vec(&self.descriptor(&xm), &dx);
        let ww: f64 = w.iter().map(|v| v * v).sum();
        if ww <= f64::EPSILON * f64::EPSILON * (1.0 + xm.iter().map(|v| v * v).sum::<f64>()) {
            return;
        }
        let dh = self.hamiltonian(x1) - self.hamiltonian(x0);
        let zw: f64 = zbar.iter().zip(&w).map(|(a, b)| a * b).sum();
        let c = (dh - zw) / ww;
        for i in 0..n {
            zbar[i] += c * w[i];
        }
    }
}

impl QuasiLinearPhDae for LinearPhSystem {
    fn n_states(&self) -> usize {
        self.E.nrows()
    }
    fn ports(&self) -> &PortSet {
        &self.ports
    }
    fn blocks(&self) -> &[VarBlock] {
        &self.blocks
    }
    fn hamiltonian(&self, x: &[f64]) -> f64 {
        LinearPhSystem::hamiltonian(self, x)
    }
    fn effort(&self, x: &[f64], z: &mut [f64]) {
        z.copy_from_slice(x);
    }
    fn descriptor(&self, _x: &[f64]) -> SparseMat {
        self.E.clone()
    }
    fn structure(&self, _x: &[f64]) -> SparseMat {
        self.J.clone()
    }
    fn dissipation(&self, _x: &[f64]) -> SparseMat {
        self.R.clone()
    }
    fn input_map(&self, _x: &[f64]) -> SparseMat {
        self.B.clone()
    }
    fn is_constant(&self) -> bool {
        true
    }
    fn effort_jacobian(&self, _x: &[f64]) -> SparseMat {
        sparse::identity(self.E.nrows(), 1.0)
    }
    /// For the quadratic $H = \frac12 e^\top E e$ the midpoint effort is already exact.
    fn discrete_gradient(&self, x0: &[f64], x1: &[f64], zbar: &mut [f64]) {
        for i in 0..zbar.len() {
            zbar[i] = 0.5 * (x0[i] + x1[i]);
        }
    }
}
