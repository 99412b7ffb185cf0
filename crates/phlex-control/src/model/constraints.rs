//! Constraints at position, velocity and acceleration level, reduced to the
//! acceleration form `A(q, q̇, t) q̈ = b(q, q̇, t)` (thesis 002 §2.3.2–§2.3.3,
//! eqs. (2.62)–(2.80)).
//!
//! * holonomic `f(q, t) = 0` (m_f rows): `A = f_q`,
//!   `b = Q_f = −(f_q q̇)_q q̇ − 2 f_{qt} q̇ − f_tt`. The convective term is the
//!   second derivative of `f` along the straight path `s ↦ (q + s q̇, t + s)`:
//!   `Q_f = −d²/ds² f(q + s q̇, t + s)|₀`, so only `f` is needed;
//! * velocity level `g(q, q̇, t) = 0`: `A = g_{q̇}`,
//!   `b = Q_g = −g_q q̇ − g_t = −d/ds g(q + s q̇, q̇, t + s)|₀`;
//! * acceleration level `D(q, q̇, t) q̈ = Q_h` is already in final form.
//!
//! Derivatives not supplied analytically are computed by central finite
//! differences with one Richardson extrapolation (step `h = 1e-2·(1 + |q|)`
//! for the second derivative, `1e-3` for first derivatives; truncation
//! `O(h⁴)`, round-off `O(ε/h²)`: about 1e-9 relative for smooth constraints).
//! Analytic `A` and `b` should be preferred in long simulations.

use crate::error::{dim_err, Result};
use crate::linalg::vstack;
use faer::Mat;

/// A constraint reducible to `A q̈ = b`.
pub trait Constraint {
    /// Number of scalar constraint equations.
    fn rows(&self) -> usize;
    /// `(A, b)` of the acceleration form at `(q, q̇, t)`.
    fn acceleration_form(&self, q: &[f64], qd: &[f64], t: f64) -> (Mat<f64>, Vec<f64>);
}

type PosFn = Box<dyn Fn(&[f64], f64) -> Vec<f64>>;
type JacFn = Box<dyn Fn(&[f64], f64) -> Mat<f64>>;
type VelFn = Box<dyn Fn(&[f64], &[f64], f64) -> Vec<f64>>;
type AccFn = Box<dyn Fn(&[f64], &[f64], f64) -> (Mat<f64>, Vec<f64>)>;

/// Holonomic constraint `f(q, t) = 0`, optionally with an analytic Jacobian `f_q`.
pub struct Holonomic {
    rows: usize,
    f: PosFn,
    jac: Option<JacFn>,
}

impl Holonomic {
    /// From `f` alone (`rows` equations); Jacobian and `Q_f` by finite differences.
    pub fn new(rows: usize, f: impl Fn(&[f64], f64) -> Vec<f64> + 'static) -> Self {
        Self {
            rows,
            f: Box::new(f),
            jac: None,
        }
    }
    /// Supplies the analytic Jacobian `f_q` (`rows × n`).
    pub fn with_jacobian(mut self, jac: impl Fn(&[f64], f64) -> Mat<f64> + 'static) -> Self {
        self.jac = Some(Box::new(jac));
        self
    }
}

fn fd_jacobian(
    rows: usize,
    n: usize,
    h0: f64,
    x: &[f64],
    eval: &dyn Fn(&[f64]) -> Vec<f64>,
) -> Mat<f64> {
    let mut J = Mat::zeros(rows, n);
    let mut xp = x.to_vec();
    for j in 0..n {
        let h = h0 * (1.0 + x[j].abs());
        let d = |h: f64, xp: &mut Vec<f64>| {
            xp[j] = x[j] + h;
            let fp = eval(xp);
            xp[j] = x[j] - h;
            let fm = eval(xp);
            xp[j] = x[j];
            (0..rows)
                .map(|i| (fp[i] - fm[i]) / (2.0 * h))
                .collect::<Vec<f64>>()
        };
        let d1 = d(h, &mut xp);
        let d2 = d(0.5 * h, &mut xp);
        for i in 0..rows {
            J[(i, j)] = (4.0 * d2[i] - d1[i]) / 3.0;
        }
    }
    J
}

impl Constraint for Holonomic {
    fn rows(&self) -> usize {
        self.rows
    }
    fn acceleration_form(&self, q: &[f64], qd: &[f64], t: f64) -> (Mat<f64>, Vec<f64>) {
        let n = q.len();
        let A = match &self.jac {
            Some(j) => j(q, t),
            None => fd_jacobian(self.rows, n, 1e-3, q, &|x| (self.f)(x, t)),
        };
        let path = |s: f64| (self.f)(&along(q, qd, s), t + s);
        let f0 = path(0.0);
        let second = |h: f64| {
            let (p, m) = (path(h), path(-h));
            (0..self.rows)
                .map(|i| (p[i] - 2.0 * f0[i] + m[i]) / (h * h))
                .collect::<Vec<f64>>()
        };
        let b = negated_richardson(self.rows, 1e-2 / path_scale(q, qd), second);
        (A, b)
    }
}

/// The point `q + s q̇` of the straight path through `q` along `q̇`.
fn along(q: &[f64], qd: &[f64], s: f64) -> Vec<f64> {
    q.iter().zip(qd).map(|(a, b)| a + s * b).collect()
}

/// Scale `1 + max(|q|, |q̇|)` of the path steps.
fn path_scale(q: &[f64], qd: &[f64]) -> f64 {
    1.0 + q.iter().chain(qd).fold(0.0f64, |m, v| m.max(v.abs()))
}

/// `−(4 D(h/2) − D(h))/3`: one Richardson extrapolation of a central
/// difference `D` (truncation `O(h²)` → `O(h⁴)`), negated (the constraint
/// right-hand side `b = −d^k/ds^k …`).
fn negated_richardson(rows: usize, h: f64, D: impl Fn(f64) -> Vec<f64>) -> Vec<f64> {
    let d1 = D(h);
    let d2 = D(0.5 * h);
    (0..rows).map(|i| -(4.0 * d2[i] - d1[i]) / 3.0).collect()
}

/// Velocity-level (nonholonomic) constraint `g(q, q̇, t) = 0`.
pub struct VelocityLevel {
    rows: usize,
    g: VelFn,
}

impl VelocityLevel {
    /// From `g` (`rows` equations); derivatives by finite differences.
    pub fn new(rows: usize, g: impl Fn(&[f64], &[f64], f64) -> Vec<f64> + 'static) -> Self {
        Self {
            rows,
            g: Box::new(g),
        }
    }
}

impl Constraint for VelocityLevel {
    fn rows(&self) -> usize {
        self.rows
    }
    fn acceleration_form(&self, q: &[f64], qd: &[f64], t: f64) -> (Mat<f64>, Vec<f64>) {
        let n = q.len();
        let A = fd_jacobian(self.rows, n, 1e-3, qd, &|v| (self.g)(q, v, t));
        let path = |s: f64| (self.g)(&along(q, qd, s), qd, t + s);
        let first = |h: f64| {
            let (p, m) = (path(h), path(-h));
            (0..self.rows)
                .map(|i| (p[i] - m[i]) / (2.0 * h))
                .collect::<Vec<f64>>()
        };
        let b = negated_richardson(self.rows, 1e-3 / path_scale(q, qd), first);
        (A, b)
    }
}

/// Acceleration-level constraint `D(q, q̇, t) q̈ = Q_h`, or any constraint
/// with analytic `(A, b)`.
pub struct AccelerationLevel {
    rows: usize,
    f: AccFn,
}

impl AccelerationLevel {
    /// From a closure returning `(D, Q_h)`.
    pub fn new(
        rows: usize,
        f: impl Fn(&[f64], &[f64], f64) -> (Mat<f64>, Vec<f64>) + 'static,
    ) -> Self {
        Self {
            rows,
            f: Box::new(f),
        }
    }
}

impl Constraint for AccelerationLevel {
    fn rows(&self) -> usize {
        self.rows
    }
    fn acceleration_form(&self, q: &[f64], qd: &[f64], t: f64) -> (Mat<f64>, Vec<f64>) {
        (self.f)(q, qd, t)
    }
}

/// A stack of constraints: `A = [f_q; g_{q̇}; D]`, `b = [Q_f; Q_g; Q_h]` (eq. (2.80)).
#[derive(Default)]
pub struct ConstraintSet {
    items: Vec<Box<dyn Constraint>>,
}

impl ConstraintSet {
    /// Empty set.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a constraint.
    pub fn push(&mut self, c: impl Constraint + 'static) -> &mut Self {
        self.items.push(Box::new(c));
        self
    }
    /// Total number of rows.
    pub fn rows(&self) -> usize {
        self.items.iter().map(|c| c.rows()).sum()
    }
    /// Stacked `(A, b)`; checks every block has `n = q.len()` columns and the declared rows.
    pub fn acceleration_form(&self, q: &[f64], qd: &[f64], t: f64) -> Result<(Mat<f64>, Vec<f64>)> {
        let n = q.len();
        if qd.len() != n {
            return Err(dim_err("q̇", n, 1, qd.len(), 1));
        }
        let mut As = Vec::with_capacity(self.items.len());
        let mut b = Vec::with_capacity(self.rows());
        for (k, c) in self.items.iter().enumerate() {
            let (A, bk) = c.acceleration_form(q, qd, t);
            if A.nrows() != c.rows() || A.ncols() != n || bk.len() != c.rows() {
                return Err(dim_err(
                    &format!("constraint {k} (A, b)"),
                    c.rows(),
                    n,
                    A.nrows(),
                    A.ncols(),
                ));
            }
            As.push(A);
            b.extend(bk);
        }
        if As.is_empty() {
            return Ok((Mat::zeros(0, n), vec![]));
        }
        let refs: Vec<_> = As.iter().map(|a| a.as_ref()).collect();
        Ok((vstack(&refs), b))
    }
}
