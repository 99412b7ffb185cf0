//! Dual bases of reference elements (thesis 004 §7; Kirby 2004, FIAT): with a prime basis
//! $p_j$ (monomials) and the degrees of freedom $\ell_i$, the basis $\phi_k = \sum_j C_{jk}
//! p_j$ with $\ell_i(\phi_k) = \delta_{ik}$ has $C = V^{-1}$, $V_{ij} = \ell_i(p_j)$ the
//! generalized Vandermonde matrix. [`invert`] computes $V^{-1}$ for the small dense
//! matrices of the triangle elements.

/// Inverse of a small dense row-major `n × n` matrix (Gauss–Jordan, partial pivoting);
/// `None` if a pivot is below `1e-13` times the largest entry (or not a number).
pub(crate) fn invert(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let mut m = a.to_vec();
    let mut inv = vec![0.0; n * n];
    for i in 0..n {
        inv[i * n + i] = 1.0;
    }
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| m[i * n + c].abs().total_cmp(&m[j * n + c].abs()))?;
        let piv = m[p * n + c].abs();
        if piv.is_nan() || piv <= 1e-13 * scale {
            return None;
        }
        for j in 0..n {
            m.swap(c * n + j, p * n + j);
            inv.swap(c * n + j, p * n + j);
        }
        let d = 1.0 / m[c * n + c];
        for j in 0..n {
            m[c * n + j] *= d;
            inv[c * n + j] *= d;
        }
        for r in 0..n {
            if r != c {
                let f = m[r * n + c];
                if f != 0.0 {
                    for j in 0..n {
                        m[r * n + j] -= f * m[c * n + j];
                        inv[r * n + j] -= f * inv[c * n + j];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// $AA^{-1} = I$ on a matrix that needs pivoting; singular matrices give `None`.
    #[test]
    fn inverse_and_singularity() {
        let a = [0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let inv = invert(&a, 3).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                let s: f64 = (0..3).map(|k| a[i * 3 + k] * inv[k * 3 + j]).sum();
                assert!((s - if i == j { 1.0 } else { 0.0 }).abs() < 1e-14);
            }
        }
        assert!(invert(&[1.0, 2.0, 2.0, 4.0], 2).is_none());
        assert!(invert(&[f64::NAN, 0.0, 0.0, 1.0], 2).is_none());
    }
}
