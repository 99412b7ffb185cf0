//! Linear descriptor port-Hamiltonian systems (paper 000 eqs. (29)–(31)).
//!
//! $$E\dot e = (J - R)e + Bu,\qquad y = B^\top e,\qquad H(e) = \tfrac12 e^\top E e,$$
//! with $J = -J^\top$, $E = E^\top \succeq 0$, $R = R^\top \succeq 0$. Along solutions
//! $\dot H = -e^\top R e + y^\top u \le y^\top u$ (the power balance). Algebraic variables
//! (Lagrange multipliers, thesis 004 §3.4) have zero rows and columns in $E$.
use crate::sparse::{self, SparseMat};
use crate::structure::{self, Tolerances};
use crate::variables::{block_offsets, VarBlock};
use crate::{CoreError, PhSystem, PortSet};

/// A sparse linear descriptor pH system with named ports and named variable blocks.
#[derive(Debug, Clone)]
pub struct LinearPhSystem {
    /// Descriptor (mass/compliance) matrix $E$, symmetric PSD, `n × n`.
    pub E: SparseMat,
    /// Structure matrix $J$, skew-symmetric, `n × n`.
    pub J: SparseMat,
    /// Dissipation matrix $R$, symmetric PSD, `n × n`.
    pub R: SparseMat,
    /// Input matrix $B$, `n × m`; output $y = B^\top e$.
    pub B: SparseMat,
    /// Named ports, their dimensions sum to `m`.
    pub ports: PortSet,
    /// Named variable blocks, their lengths sum to `n`.
    pub blocks: Vec<VarBlock>,
}

impl LinearPhSystem {
    /// Builds a system after checking dimensions (structure is checked by [`Self::check`]).
    pub fn new(
        E: SparseMat,
        J: SparseMat,
        R: SparseMat,
        B: SparseMat,
        ports: PortSet,
        blocks: Vec<VarBlock>,
    ) -> Result<Self, CoreError> {
        let n = E.nrows();
        let dim = |what: &str, expected: usize, found: usize| {
            if expected != found {
                Err(CoreError::Dimension {
                    what: what.into(),
                    expected,
                    found,
                })
            } else {
                Ok(())
            }
        };
        dim("E columns", n, E.ncols())?;
        dim("J rows", n, J.nrows())?;
        dim("J columns", n, J.ncols())?;
        dim("R rows", n, R.nrows())?;
        dim("R columns", n, R.ncols())?;
        dim("B rows", n, B.nrows())?;
        dim(
            "B columns (sum of port dimensions)",
            ports.total_dim(),
            B.ncols(),
        )?;
        dim(
            "state (sum of block lengths)",
            n,
            blocks.iter().map(|b| b.len).sum(),
        )?;
        let mut names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(CoreError::DuplicateName(w[0].to_string()));
        }
        Ok(Self {
            E,
            J,
            R,
            B,
            ports,
            blocks,
        })
    }

    /// Checks $J = -J^\top$ and $E, R$ symmetric PSD with the given tolerances; errors name
    /// the offending matrix and variable block.
    pub fn check(&self, tol: &Tolerances) -> Result<(), CoreError> {
        structure::check_skew(&self.J, "J", &self.blocks, tol)?;
        structure::check_sym_psd(&self.E, "E", &self.blocks, tol)?;
        structure::check_sym_psd(&self.R, "R", &self.blocks, tol)?;
        Ok(())
    }

    /// Number of state variables `n`.
    pub fn n_states(&self) -> usize {
        self.E.nrows()
    }

    /// Number of inputs `m`.
    pub fn n_inputs(&self) -> usize {
        self.B.ncols()
    }

    /// Hamiltonian $H = \tfrac12 e^\top E e$.
    pub fn hamiltonian(&self, e: &[f64]) -> f64 {
        0.5 * sparse::bilinear(e, &self.E, e)
    }

    /// Output $y = B^\top e$.
    pub fn output(&self, e: &[f64]) -> Vec<f64> {
        sparse::mul_vec_transpose(&self.B, e)
    }

    /// Output of one port, $y_p = B_p^\top e$.
    pub fn port_output(&self, port: &str, e: &[f64]) -> Result<Vec<f64>, CoreError> {
        let r = self.ports.range(port)?;
        let y = self.output(e);
        Ok(y[r].to_vec())
    }

    /// Dissipated power $e^\top R e \ge 0$.
    pub fn dissipation(&self, e: &[f64]) -> f64 {
        sparse::bilinear(e, &self.R, e)
    }

    /// Right-hand side $(J - R)e + Bu$.
    pub fn rhs(&self, e: &[f64], u: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(out, 1.0, &self.J, e);
        sparse::mul_add(out, -1.0, &self.R, e);
        sparse::mul_add(out, 1.0, &self.B, u);
    }

    /// $J - R$ as one sparse matrix.
    pub fn j_minus_r(&self) -> SparseMat {
        sparse::add(1.0, &self.J, -1.0, &self.R)
    }

    /// Offsets of the variable blocks.
    pub fn block_offsets(&self) -> Vec<usize> {
        block_offsets(&self.blocks)
    }

    /// Index range of a named variable block.
    pub fn block_range(&self, name: &str) -> Option<std::ops::Range<usize>> {
        let off = self.block_offsets();
        self.blocks
            .iter()
            .position(|b| b.name == name)
            .map(|k| off[k]..off[k + 1])
    }

    /// Per-variable DAE index (0 = differential).
    pub fn variable_indices(&self) -> Vec<u8> {
        crate::variables::variable_indices(&self.blocks)
    }

    /// Output-feedback damping $u_p = -K y_p + v_p$ on port `port` (thesis 004 §8.1):
    /// adds $R \mathrel{+}= B_p K B_p^\top$ and removes the port; `K` must be symmetric PSD.
    pub fn with_output_feedback(&self, port: &str, K: &SparseMat) -> Result<Self, CoreError> {
        crate::interconnect::feedback_damping(self, port, K)
    }
}

/// A linear system is the constant, linear case of [`PhSystem`]: $z(x) = x$,
/// $E, J, R, B$ constant, so every method is exact (the right-hand-side Jacobian is
/// $J - R$, the midpoint effort is already a discrete gradient of the quadratic $H$).
impl PhSystem for LinearPhSystem {
    fn n_states(&self) -> usize {
        self.E.nrows()
    }
    fn n_inputs(&self) -> usize {
        self.B.ncols()
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
    fn is_linear(&self) -> bool {
        true
    }
    fn effort_jacobian(&self, _x: &[f64]) -> SparseMat {
        sparse::identity(self.E.nrows(), 1.0)
    }
    fn output(&self, _x: &[f64], z: &[f64]) -> Vec<f64> {
        LinearPhSystem::output(self, z)
    }
    /// For the quadratic $H = \frac12 e^\top E e$ the midpoint effort is already exact.
    fn discrete_gradient(&self, x0: &[f64], x1: &[f64], zbar: &mut [f64]) {
        for i in 0..zbar.len() {
            zbar[i] = 0.5 * (x0[i] + x1[i]);
        }
    }
    /// $(J - R)z + Bu$ ([`LinearPhSystem::rhs`]).
    fn rhs_with_effort(&self, _x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        self.rhs(z, u, f)
    }
    /// $J - R$ (exact).
    fn rhs_jacobian(&self, _x: &[f64], _u: &[f64]) -> SparseMat {
        self.j_minus_r()
    }
    fn constant_mass(&self) -> SparseMat {
        self.E.clone()
    }
}
