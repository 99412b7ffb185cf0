//! The planar Euler–Bernoulli beam element of the thesis (002 §2.6.2,
//! eqs. (2.250)–(2.253); closed forms (5.108), (5.112)).
//!
//! Nodal coordinates in the element frame: `(u₁, v₁, θ₁, u₂, v₂, θ₂)`
//! (axial and transverse translations, infinitesimal rotation), `ξ = x/L`:
//!
//! ```text
//! S₁ = [1 − ξ, 0, 0, ξ, 0, 0]                                          (2.251)
//! S₂ = [0, 1 − 3ξ² + 2ξ³, L(ξ − 2ξ² + ξ³), 0, 3ξ² − 2ξ³, L(−ξ² + ξ³)]   (2.252)
//! ```
//!
//! Element mass `S_ff = ∫ρ(S₁ᵀS₁ + S₂ᵀS₂) dV` (5.105)–(5.108) and stiffness
//! `∫(EA S₁,ₓᵀS₁,ₓ + EJ S₂,ₓₓᵀS₂,ₓₓ) dx` (5.111)–(5.112) in closed form.

/// Section and length of one planar beam element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanarBeamElement {
    /// Length `L` \[m\].
    pub length: f64,
    /// Mass per unit length `ρA` \[kg/m\].
    pub rho_a: f64,
    /// Axial stiffness `EA` \[N\].
    pub ea: f64,
    /// Bending stiffness `EJ` \[N m²\].
    pub ei: f64,
}

/// 6×6 element matrix, row major.
pub type Mat6 = [[f64; 6]; 6];

impl PlanarBeamElement {
    /// Shape functions `S = [S₁; S₂]` at `ξ` (eqs. (2.251)–(2.252)).
    pub fn shape(&self, xi: f64) -> [[f64; 6]; 2] {
        let l = self.length;
        let (x2, x3) = (xi * xi, xi * xi * xi);
        [
            [1.0 - xi, 0.0, 0.0, xi, 0.0, 0.0],
            [
                0.0,
                1.0 - 3.0 * x2 + 2.0 * x3,
                l * (xi - 2.0 * x2 + x3),
                0.0,
                3.0 * x2 - 2.0 * x3,
                l * (-x2 + x3),
            ],
        ]
    }

    /// `∂S₂/∂x` at `ξ`: the infinitesimal cross-section rotation per unit nodal coordinate.
    pub fn slope(&self, xi: f64) -> [f64; 6] {
        let l = self.length;
        let x2 = xi * xi;
        [
            0.0,
            (-6.0 * xi + 6.0 * x2) / l,
            1.0 - 4.0 * xi + 3.0 * x2,
            0.0,
            (6.0 * xi - 6.0 * x2) / l,
            -2.0 * xi + 3.0 * x2,
        ]
    }

    /// `∂S₁/∂x` and `∂²S₂/∂x²` at `ξ` (the strain operators of eq. (5.111)).
    pub fn strain_operators(&self, xi: f64) -> ([f64; 6], [f64; 6]) {
        let l = self.length;
        (
            [-1.0 / l, 0.0, 0.0, 1.0 / l, 0.0, 0.0],
            [
                0.0,
                (-6.0 + 12.0 * xi) / (l * l),
                (-4.0 + 6.0 * xi) / l,
                0.0,
                (6.0 - 12.0 * xi) / (l * l),
                (-2.0 + 6.0 * xi) / l,
            ],
        )
    }

    /// Consistent mass `S_ff` in the element frame (eq. (5.108)), `m = ρAL`.
    pub fn mass_matrix(&self) -> Mat6 {
        let l = self.length;
        let m = self.rho_a * l;
        let r = [
            [1.0 / 3.0, 0.0, 0.0, 1.0 / 6.0, 0.0, 0.0],
            [
                0.0,
                13.0 / 35.0,
                11.0 * l / 210.0,
                0.0,
                9.0 / 70.0,
                -13.0 * l / 420.0,
            ],
            [
                0.0,
                11.0 * l / 210.0,
                l * l / 105.0,
                0.0,
                13.0 * l / 420.0,
                -l * l / 140.0,
            ],
            [1.0 / 6.0, 0.0, 0.0, 1.0 / 3.0, 0.0, 0.0],
            [
                0.0,
                9.0 / 70.0,
                13.0 * l / 420.0,
                0.0,
                13.0 / 35.0,
                -11.0 * l / 210.0,
            ],
            [
                0.0,
                -13.0 * l / 420.0,
                -l * l / 140.0,
                0.0,
                -11.0 * l / 210.0,
                l * l / 105.0,
            ],
        ];
        r.map(|row| row.map(|v| m * v))
    }

    /// Stiffness in the element frame (eq. (5.112)).
    pub fn stiffness_matrix(&self) -> Mat6 {
        let l = self.length;
        let a = self.ea / l;
        let b = self.ei / l;
        let (l2, l1) = (12.0 / (l * l), 6.0 / l);
        [
            [a, 0.0, 0.0, -a, 0.0, 0.0],
            [0.0, b * l2, b * l1, 0.0, -b * l2, b * l1],
            [0.0, b * l1, 4.0 * b, 0.0, -b * l1, 2.0 * b],
            [-a, 0.0, 0.0, a, 0.0, 0.0],
            [0.0, -b * l2, -b * l1, 0.0, b * l2, -b * l1],
            [0.0, b * l1, 2.0 * b, 0.0, -b * l1, 4.0 * b],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::logm::gauss_legendre01;

    /// Closed forms (5.108) and (5.112) equal the integrals (5.105)–(5.107)
    /// and (5.111) of the shape functions by 4-point Gauss quadrature (exact
    /// for the degree-6 and degree-2 polynomial integrands): agreement to
    /// round-off, 1e-13 relative.
    #[test]
    fn closed_forms_match_quadrature() {
        let e = PlanarBeamElement {
            length: 0.7,
            rho_a: 2.3,
            ea: 3.0e5,
            ei: 45.0,
        };
        let (x, w) = gauss_legendre01(4);
        let mut M = [[0.0; 6]; 6];
        let mut K = [[0.0; 6]; 6];
        for (&xi, &wi) in x.iter().zip(&w) {
            let s = e.shape(xi);
            let (d1, d2) = e.strain_operators(xi);
            for i in 0..6 {
                for j in 0..6 {
                    M[i][j] += wi * e.length * e.rho_a * (s[0][i] * s[0][j] + s[1][i] * s[1][j]);
                    K[i][j] += wi * e.length * (e.ea * d1[i] * d1[j] + e.ei * d2[i] * d2[j]);
                }
            }
        }
        let (Mc, Kc) = (e.mass_matrix(), e.stiffness_matrix());
        for i in 0..6 {
            for j in 0..6 {
                assert!((M[i][j] - Mc[i][j]).abs() < 1e-13 * e.rho_a * e.length);
                assert!(
                    (K[i][j] - Kc[i][j]).abs() < 1e-13 * e.ea / e.length,
                    "{i} {j}"
                );
            }
        }
        // slope = dS₂/dx by a central difference (error O(δ²) ≈ 1e-10)
        let d = 1e-5;
        let (sp, sm, s0) = (e.shape(0.3 + d), e.shape(0.3 - d), e.slope(0.3));
        for i in 0..6 {
            let fd = (sp[1][i] - sm[1][i]) / (2.0 * d * e.length);
            assert!((fd - s0[i]).abs() < 1e-9);
        }
    }
}
