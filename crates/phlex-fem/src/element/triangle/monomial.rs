//! Monomials $x^a y^b$ on the reference triangle and their gradients, for the bases
//! expanded in monomials ([`super::lagrange`], [`super::bdm`]).

/// $b^e$, with $b^0 = 1$ (also for $b = 0$).
#[inline]
pub(crate) fn pw(b: f64, e: usize) -> f64 {
    if e == 0 {
        1.0
    } else {
        b.powi(e as i32)
    }
}

/// Gradient $\nabla(x^a y^b) = (a\,x^{a-1}y^b,\ b\,x^a y^{b-1})$, a component being 0
/// where its exponent is.
#[inline]
pub(crate) fn monomial_grad(x: [f64; 2], a: usize, b: usize) -> [f64; 2] {
    let gx = if a > 0 {
        a as f64 * pw(x[0], a - 1) * pw(x[1], b)
    } else {
        0.0
    };
    let gy = if b > 0 {
        b as f64 * pw(x[0], a) * pw(x[1], b - 1)
    } else {
        0.0
    };
    [gx, gy]
}
