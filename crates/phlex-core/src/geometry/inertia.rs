//! The admissibility rule of a rigid-body inertia tensor, shared by every model that reads
//! one (EPHS `rigid_body` components, `[bodies]` rigid bodies, lumped rotary inertias, the
//! floating-frame rigid bodies of `phlex-control`).
//!
//! An inertia tensor $J = \int\rho\,(|x|^2E - xx^\top)\,dV$ about a point is admissible iff
//!
//! 1. its entries are finite,
//! 2. it is symmetric: $|J_{ij} - J_{ji}| \le 10^{-12}\max_{kl}|J_{kl}|$,
//! 3. its principal moments (eigenvalues, ascending) $J_1 \le J_2 \le J_3$ are non-negative,
//!    $J_1 \ge -\epsilon$, and
//! 4. they satisfy the triangle inequalities $J_1 + J_2 \ge J_3 - \epsilon$ (the other two
//!    then hold as well),
//!
//! with $\epsilon = 10^{-12}(|J_1| + |J_2| + |J_3|)$. Conditions 3–4 state that the second
//! moments $\tfrac12\operatorname{tr}J\,E - J = \int\rho\,xx^\top dV$ are positive semidefinite
//! (thesis 002 eq. (2.218): $J_1 + J_2 - J_3 = 2\int\rho\,x_3^2$ in principal axes); 4
//! implies 3. A point mass ($J = 0$) and a thin rod ($J_1 = 0$, $J_2 = J_3$) are admissible:
//! their kinetic energy is still defined, but $J$ is singular. Models that need $J^{-1}$
//! (the EPHS kinetic energy $\tfrac12p_\omega^\top J^{-1}p_\omega$, seed 001 eq. (18)) call
//! [`InertiaTensor::inverse`], which also requires $J_1 > 10^{-12}J_3$.
use thiserror::Error;

use super::mat3::{diagonal, inverse, symmetric_eigenvalues, Mat3, Vec3};

/// Relative tolerance of the symmetry test and of the inequalities of the principal moments.
pub const INERTIA_TOLERANCE: f64 = 1e-12;

/// Which condition of the admissibility rule (module documentation) an inertia tensor
/// violates, with the values. Callers add the body and the key.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum InertiaError {
    /// An entry is NaN or infinite.
    #[error("entry [{row}][{col}] = {value} is not finite")]
    NotFinite {
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        col: usize,
        /// Its value.
        value: f64,
    },
    /// $J_{ij} \ne J_{ji}$ beyond the tolerance.
    #[error("not symmetric: entry [{row}][{col}] = {value} but [{col}][{row}] = {transposed}")]
    NotSymmetric {
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        col: usize,
        /// $J_{ij}$.
        value: f64,
        /// $J_{ji}$.
        transposed: f64,
    },
    /// The smallest principal moment is negative.
    #[error(
        "not positive semidefinite: principal moment {} < 0 (principal moments {moments:?})",
        moments[0]
    )]
    NegativeMoment {
        /// Principal moments, ascending.
        moments: Vec3,
    },
    /// $J_1 + J_2 < J_3$.
    #[error(
        "principal moments {moments:?} violate the triangle inequality J1 + J2 >= J3: {} + {} < {}",
        moments[0], moments[1], moments[2]
    )]
    TriangleInequality {
        /// Principal moments, ascending.
        moments: Vec3,
    },
    /// The tensor is admissible but singular where an inverse is needed.
    #[error(
        "singular (principal moments {moments:?}): this model needs J⁻¹, i.e. all principal moments > 0"
    )]
    Singular {
        /// Principal moments, ascending.
        moments: Vec3,
    },
}

impl InertiaError {
    /// The entry `(row, col)` the error is about, for the conditions on entries (finite,
    /// symmetric); `None` for the conditions on the principal moments.
    pub fn entry(&self) -> Option<(usize, usize)> {
        match *self {
            Self::NotFinite { row, col, .. } | Self::NotSymmetric { row, col, .. } => {
                Some((row, col))
            }
            _ => None,
        }
    }

    /// The offending value: the entry, the negative or the largest principal moment.
    pub fn value(&self) -> f64 {
        match *self {
            Self::NotFinite { value, .. } | Self::NotSymmetric { value, .. } => value,
            Self::NegativeMoment { moments } | Self::Singular { moments } => moments[0],
            Self::TriangleInequality { moments } => moments[2],
        }
    }
}

/// An admissible inertia tensor (module documentation) with its principal moments.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InertiaTensor {
    matrix: Mat3,
    moments: Vec3,
}

impl InertiaTensor {
    /// Checks the full tensor `J` against the admissibility rule.
    pub fn new(J: &Mat3) -> Result<Self, InertiaError> {
        let mut scale = 0.0f64;
        for (row, r) in J.iter().enumerate() {
            for (col, &value) in r.iter().enumerate() {
                if !value.is_finite() {
                    return Err(InertiaError::NotFinite { row, col, value });
                }
                scale = scale.max(value.abs());
            }
        }
        for row in 0..3 {
            for col in row + 1..3 {
                let (value, transposed) = (J[row][col], J[col][row]);
                if (value - transposed).abs() > INERTIA_TOLERANCE * scale {
                    return Err(InertiaError::NotSymmetric {
                        row,
                        col,
                        value,
                        transposed,
                    });
                }
            }
        }
        let moments = symmetric_eigenvalues(J);
        let tol = INERTIA_TOLERANCE * moments.iter().map(|e| e.abs()).sum::<f64>();
        if moments[0] < -tol {
            return Err(InertiaError::NegativeMoment { moments });
        }
        if moments[0] + moments[1] < moments[2] - tol {
            return Err(InertiaError::TriangleInequality { moments });
        }
        Ok(Self {
            matrix: *J,
            moments,
        })
    }

    /// Checks $J = \mathrm{diag}(J_x, J_y, J_z)$ (principal axes along the body axes).
    pub fn principal(d: Vec3) -> Result<Self, InertiaError> {
        Self::new(&diagonal(d))
    }

    /// The tensor as given.
    pub fn matrix(&self) -> &Mat3 {
        &self.matrix
    }

    /// The principal moments $J_1 \le J_2 \le J_3$.
    pub fn principal_moments(&self) -> Vec3 {
        self.moments
    }

    /// $J^{-1}$; [`InertiaError::Singular`] unless $J_1 > 10^{-12}J_3$ (which excludes point
    /// masses and thin rods).
    pub fn inverse(&self) -> Result<Mat3, InertiaError> {
        let m = self.moments;
        let singular = InertiaError::Singular { moments: m };
        if !(m[0] > INERTIA_TOLERANCE * m[2]) {
            return Err(singular);
        }
        inverse(&self.matrix).ok_or(singular)
    }
}

/// Steiner's parallel-axis term $m\,(|c|^2E - cc^\top)$: the inertia of a mass $m$ at $c$
/// about the origin, added to a central inertia to move it to a point at $-c$ from the
/// centre of mass ($J_P = J_G + m(|c|^2E - cc^\top)$, paper 000 Remark 2).
pub fn parallel_axis(mass: f64, c: Vec3) -> Mat3 {
    let c2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    std::array::from_fn(|i| {
        std::array::from_fn(|j| mass * (if i == j { c2 } else { 0.0 } - c[i] * c[j]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::mat3::{lin_comb, mat_mul, transpose, IDENTITY3};
    use crate::geometry::so3;

    fn rotated(d: Vec3) -> Mat3 {
        let R = so3::from_axis_angle([1.0, -2.0, 0.5], 0.8).expect("axis");
        mat_mul(&mat_mul(&R, &diagonal(d)), &transpose(&R))
    }

    #[test]
    fn accepts_physical_tensors() {
        for d in [
            [0.004, 0.004, 0.002],
            [1.0, 2.0, 3.0], // the triangle inequality with equality (a flat plate)
            [0.1, 0.2, 0.15],
            [0.083_333_333_333_333_33, 0.083_333_333_333_333_33, 1e-4],
        ] {
            let J = InertiaTensor::principal(d).expect("admissible");
            let mut s = d;
            s.sort_by(f64::total_cmp);
            assert_eq!(J.principal_moments(), s);
            let Ji = J.inverse().expect("invertible");
            let P = mat_mul(J.matrix(), &Ji);
            assert!(lin_comb(1.0, &P, -1.0, &IDENTITY3)
                .iter()
                .flatten()
                .all(|v| v.abs() < 1e-14));
            // Rotated (full) tensors, including the tolerance at equality.
            let Jr = InertiaTensor::new(&rotated(d)).expect("admissible when rotated");
            for k in 0..3 {
                assert!((Jr.principal_moments()[k] - s[k]).abs() < 1e-12 * s[2]);
            }
        }
        // Point mass and thin rod: admissible, but singular.
        for d in [[0.0; 3], [0.0, 1.0, 1.0]] {
            let J = InertiaTensor::principal(d).expect("admissible");
            assert!(matches!(J.inverse(), Err(InertiaError::Singular { .. })));
        }
    }

    #[test]
    fn rejects_and_says_why() {
        // The spinning top with a sign error: negative moment (and the triangle fails too;
        // the first condition is reported).
        let e = InertiaTensor::principal([-0.004, 0.004, 0.002]).unwrap_err();
        assert_eq!(
            e,
            InertiaError::NegativeMoment {
                moments: [-0.004, 0.002, 0.004]
            }
        );
        assert!(e.to_string().contains("-0.004") && e.to_string().contains("semidefinite"));
        assert_eq!(e.value(), -0.004);
        assert_eq!(e.entry(), None);
        // Positive moments, but no body has them: 1 + 1 < 3.
        let e = InertiaTensor::principal([1.0, 1.0, 3.0]).unwrap_err();
        assert_eq!(
            e,
            InertiaError::TriangleInequality {
                moments: [1.0, 1.0, 3.0]
            }
        );
        assert!(e.to_string().contains("triangle"), "{e}");
        assert!(matches!(
            InertiaTensor::new(&rotated([1.0, 1.0, 3.0])),
            Err(InertiaError::TriangleInequality { .. })
        ));
        // Indefinite full tensor.
        let e = InertiaTensor::new(&[[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
        assert!(
            matches!(e, Err(InertiaError::NegativeMoment { .. })),
            "{e:?}"
        );
        // Entries.
        let mut J = diagonal([1.0, 2.0, 2.5]);
        J[0][1] = 0.5;
        let e = InertiaTensor::new(&J).unwrap_err();
        assert_eq!(e.entry(), Some((0, 1)));
        assert!(e.to_string().contains("[0][1] = 0.5"), "{e}");
        J[0][1] = 0.0;
        J[2][1] = f64::NAN;
        assert_eq!(InertiaTensor::new(&J).unwrap_err().entry(), Some((2, 1)));
        // The parallel-axis term of a point mass is itself an admissible (singular) tensor.
        let P = parallel_axis(2.0, [0.3, -0.4, 1.2]);
        let J = InertiaTensor::new(&P).expect("admissible");
        assert!(J.principal_moments()[0].abs() < 1e-15);
        assert!((J.principal_moments()[2] - 2.0 * 1.69).abs() < 1e-14);
        // Round-off asymmetry is accepted.
        let mut J = rotated([1.0, 2.0, 2.5]);
        J[0][2] += 1e-15;
        assert!(InertiaTensor::new(&J).is_ok());
    }
}
