//! Assembly of PFEM matrices (thesis 004 §3.1, eqs. (6.68), (6.73)):
//!
//! * weighted mass matrices $M^{ij} = \langle \phi^i, c\,\phi^j\rangle$
//!   (e.g. $M_{\rho A}$, $M_{(EI)^{-1}}$);
//! * derivative couplings $D^{ij} = \langle \partial_x^a\phi^i, c\,\partial_x^b\psi^j\rangle$
//!   between two spaces on the same mesh (e.g. $D_{\partial_{xx}}$, $\langle \partial_x v,
//!   \partial_x e\rangle$);
//! * load vectors $\langle \partial_x^a\phi^i, f\rangle$ and point-evaluation rows
//!   $\partial_x^a\phi^i(x)$.
//!
//! Element integrals use Gauss–Legendre rules with enough points to be exact when the
//! coefficient is a polynomial ([`Coefficient::Constant`], [`Coefficient::Polynomial`]);
//! for general functions the caller states a polynomial degree to integrate exactly.
use crate::error::FemError;
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::space::functional::SparseVec;
use crate::space::line::Space1d;
use phlex_core::{SparseMat, Triplets};
use std::sync::Arc;

/// A spatial coefficient $c(x)$ of a bilinear form.
#[derive(Clone)]
pub enum Coefficient {
    /// A constant.
    Constant(f64),
    /// A polynomial $\sum_m c_m x^m$ (monomial coefficients in the physical coordinate).
    Polynomial(Vec<f64>),
    /// A general function, integrated exactly as if it were a polynomial of `degree`.
    Function {
        /// The function.
        f: Arc<dyn Fn(f64) -> f64 + Send + Sync>,
        /// Polynomial degree to integrate exactly.
        degree: usize,
    },
}

impl std::fmt::Debug for Coefficient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Coefficient::Constant(c) => write!(f, "Constant({c})"),
            Coefficient::Polynomial(p) => write!(f, "Polynomial({p:?})"),
            Coefficient::Function { degree, .. } => write!(f, "Function(degree {degree})"),
        }
    }
}

impl Coefficient {
    /// Polynomial degree (the stated degree for general functions).
    pub fn degree(&self) -> usize {
        match self {
            Coefficient::Constant(_) => 0,
            Coefficient::Polynomial(p) => p.len().saturating_sub(1),
            Coefficient::Function { degree, .. } => *degree,
        }
    }
    /// Value at `x`.
    #[inline]
    pub fn eval(&self, x: f64) -> f64 {
        match self {
            Coefficient::Constant(c) => *c,
            Coefficient::Polynomial(p) => p.iter().rev().fold(0.0, |s, c| s * x + c),
            Coefficient::Function { f, .. } => f(x),
        }
    }
}

fn same_mesh(a: &Space1d, b: &Space1d) -> Result<(), FemError> {
    if a.mesh() == b.mesh() {
        Ok(())
    } else {
        Err(FemError::MeshMismatch {
            a: a.family().name(),
            b: b.family().name(),
        })
    }
}

/// $A^{ij} = \int c\,\partial_x^{a}\phi^i\,\partial_x^{b}\psi^j\,dx$ with $\phi$ the basis of
/// `test` (rows) and $\psi$ the basis of `trial` (columns); exact for polynomial `c`.
pub fn bilinear(
    test: &Space1d,
    test_deriv: usize,
    trial: &Space1d,
    trial_deriv: usize,
    coeff: &Coefficient,
) -> Result<SparseMat, FemError> {
    same_mesh(test, trial)?;
    let deg = test.element().degree().saturating_sub(test_deriv)
        + trial.element().degree().saturating_sub(trial_deriv)
        + coeff.degree();
    let q = GaussLegendre::exact_for_degree(deg)?;
    let mesh = test.mesh();
    let (nt, nr) = (test.n_local(), trial.n_local());
    let mut vt = vec![0.0; nt];
    let mut vr = vec![0.0; nr];
    let mut local = vec![0.0; nt * nr];
    let mut t = Triplets::new(test.n_dofs(), trial.n_dofs());
    for e in 0..mesh.n_elements() {
        let (x0, _) = mesh.element(e);
        let h = mesh.h(e);
        local.iter_mut().for_each(|v| *v = 0.0);
        for (&xi, &w) in q.points.iter().zip(&q.weights) {
            test.eval_local(e, xi, test_deriv, &mut vt);
            trial.eval_local(e, xi, trial_deriv, &mut vr);
            let c = w * h * coeff.eval(x0 + h * xi);
            for (i, &a) in vt.iter().enumerate() {
                let ca = c * a;
                for (j, &b) in vr.iter().enumerate() {
                    local[i * nr + j] += ca * b;
                }
            }
        }
        // Entries that vanish in exact arithmetic (e.g. 2 of 8 in each HerDG1 block of
        // D_xx) come out as round-off; dropping those below 64ε·max keeps the sparsity
        // pattern exact and the LU fill smaller.
        let cut = 64.0 * f64::EPSILON * local.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for i in 0..nt {
            for j in 0..nr {
                let v = local[i * nr + j];
                if v.abs() > cut {
                    t.push(test.dof(e, i), trial.dof(e, j), v);
                }
            }
        }
    }
    Ok(t.build())
}

/// Weighted mass matrix $\langle \phi^i, c\,\phi^j\rangle$.
pub fn mass(space: &Space1d, coeff: &Coefficient) -> Result<SparseMat, FemError> {
    bilinear(space, 0, space, 0, coeff)
}

/// Derivative coupling $\langle \phi^i, \partial_x^k \psi^j\rangle$ (rows: `test`).
pub fn derivative_coupling(
    test: &Space1d,
    trial: &Space1d,
    k: usize,
) -> Result<SparseMat, FemError> {
    bilinear(test, 0, trial, k, &Coefficient::Constant(1.0))
}

/// Gradient coupling $\langle \partial_x\phi^i, \partial_x \psi^j\rangle$ (rows: `test`).
pub fn gradient_coupling(test: &Space1d, trial: &Space1d) -> Result<SparseMat, FemError> {
    bilinear(test, 1, trial, 1, &Coefficient::Constant(1.0))
}

/// Load functional $\langle \partial_x^{d}\phi^i, f\rangle$, integrated exactly for $f$ a
/// polynomial of degree `f_degree` (smooth $f$: choose e.g. 8, the error is then
/// $O(h^{2n})$ with $n$ the number of points).
pub fn load_functional(
    space: &Space1d,
    deriv: usize,
    f: &dyn Fn(f64) -> f64,
    f_degree: usize,
) -> Result<SparseVec, FemError> {
    let q = GaussLegendre::exact_for_degree(space.element().degree() + f_degree)?;
    let mesh = space.mesh();
    let n = space.n_local();
    let mut v = vec![0.0; n];
    let mut out = vec![0.0; space.n_dofs()];
    for e in 0..mesh.n_elements() {
        let (x0, _) = mesh.element(e);
        let h = mesh.h(e);
        for (&xi, &w) in q.points.iter().zip(&q.weights) {
            space.eval_local(e, xi, deriv, &mut v);
            let c = w * h * f(x0 + h * xi);
            for (j, &a) in v.iter().enumerate() {
                out[space.dof(e, j)] += c * a;
            }
        }
    }
    Ok(SparseVec {
        len: out.len(),
        entries: out.into_iter().enumerate().filter(|p| p.1 != 0.0).collect(),
    })
}

/// Load vector $\langle \partial_x^{d}\phi^i, f\rangle$ as an `n × 1` matrix (see
/// [`load_functional`]).
pub fn load_vector(
    space: &Space1d,
    deriv: usize,
    f: &dyn Fn(f64) -> f64,
    f_degree: usize,
) -> Result<SparseMat, FemError> {
    Ok(load_functional(space, deriv, f, f_degree)?.to_col())
}

/// Point-evaluation row $\partial_x^{d}\phi^i(x)$ as a `1 × n` matrix.
pub fn point_row(space: &Space1d, x: f64, deriv: usize) -> Result<SparseMat, FemError> {
    Ok(space.point_functional(x, deriv)?.to_row())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::line::Family;
    use crate::mesh::interval::Mesh1d;
    use phlex_core::sparse;

    /// The mass matrix sums to the integral of the coefficient (partition of unity for
    /// Lagrange): Σ_ij M_ij = ∫ c = ∫_0^2 (1 + x + x²) dx = 2 + 2 + 8/3.
    #[test]
    fn mass_integrates_coefficient() {
        let m = Mesh1d::from_nodes(vec![0.0, 0.3, 1.1, 2.0]).unwrap();
        for fam in [Family::Cg(1), Family::Cg(3), Family::Dg(0), Family::Dg(2)] {
            let s = Space1d::new(&m, fam).unwrap();
            let M = mass(&s, &Coefficient::Polynomial(vec![1.0, 1.0, 1.0])).unwrap();
            let ones = vec![1.0; s.n_dofs()];
            let tot = sparse::bilinear(&ones, &M, &ones);
            assert!((tot - (4.0 + 8.0 / 3.0)).abs() < 1e-12, "{fam:?}: {tot}");
        }
    }

    /// ⟨φ_i, ∂xx ψ_j⟩ with Hermite interpolants of u = x³ and φ = DG1 interpolant of
    /// v = 1 + x gives ∫_0^1 (1 + x) 6x dx = 5.
    #[test]
    fn second_derivative_coupling_hermite_dg1() {
        let m = Mesh1d::uniform(1.0, 3).unwrap();
        let her = Space1d::new(&m, Family::Hermite).unwrap();
        let dg1 = Space1d::new(&m, Family::Dg(1)).unwrap();
        let D = derivative_coupling(&dg1, &her, 2).unwrap();
        let mut u = vec![0.0; her.n_dofs()];
        for (i, &x) in m.nodes().iter().enumerate() {
            u[2 * i] = x.powi(3);
            u[2 * i + 1] = 3.0 * x * x;
        }
        let mut v = vec![0.0; dg1.n_dofs()];
        for e in 0..3 {
            let (a, b) = m.element(e);
            v[2 * e] = 1.0 + a;
            v[2 * e + 1] = 1.0 + b;
        }
        assert!((sparse::bilinear(&v, &D, &u) - 5.0).abs() < 1e-12);
        // ⟨∂x φ, ∂x ψ⟩ for CG2 interpolants of x² and x: ∫ 2x · 1 = 1.
        let cg2 = Space1d::new(&m, Family::Cg(2)).unwrap();
        let K = gradient_coupling(&cg2, &cg2).unwrap();
        let nodes: Vec<f64> = (0..cg2.n_dofs()).map(|i| i as f64 / 6.0).collect();
        let a: Vec<f64> = nodes.iter().map(|x| x * x).collect();
        assert!((sparse::bilinear(&a, &K, &nodes) - 1.0).abs() < 1e-12);
        // mismatched meshes are rejected
        let other = Space1d::new(&Mesh1d::uniform(1.0, 4).unwrap(), Family::Dg(1)).unwrap();
        assert!(matches!(
            derivative_coupling(&other, &her, 2),
            Err(FemError::MeshMismatch { .. })
        ));
    }

    /// ⟨φ, f⟩ summed over all Lagrange basis functions is ∫ f: ∫_0^π sin = 2.
    #[test]
    fn load_and_point_rows() {
        let m = Mesh1d::uniform(std::f64::consts::PI, 8).unwrap();
        let s = Space1d::new(&m, Family::Cg(2)).unwrap();
        let b = load_functional(&s, 0, &|x: f64| x.sin(), 10).unwrap();
        let tot: f64 = b.entries.iter().map(|p| p.1).sum();
        assert!((tot - 2.0).abs() < 1e-12, "{tot}");
        let r = point_row(&s, 1.0, 0).unwrap();
        assert_eq!((r.nrows(), r.ncols()), (1, s.n_dofs()));
        let col = load_vector(&s, 0, &|_| 1.0, 0).unwrap();
        assert_eq!((col.nrows(), col.ncols()), (s.n_dofs(), 1));
    }
}
