//! Material points and body-fixed directions used by joints, loads and output.
//!
//! A point of a floating body has body-frame position
//! `ū = ū_o + N_P q_f` (thesis 002 eq. (2.333)): its undeformed position
//! `ū_o` plus the elastic displacement, linear in the elastic coordinates.
//! For a rigid body `N_P` is empty.

use phlex_core::geometry::mat3::{add, Vec3};

/// A material point of a floating body: `ū(q_f) = u0 + Σ_j q_f[j] shape_j`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BodyPoint {
    /// Undeformed position in the body frame \[m\].
    pub u0: Vec3,
    /// Non-zero columns of `N_P` (elastic coordinate index, body-frame
    /// displacement per unit coordinate).
    pub shape: Vec<(usize, Vec3)>,
}

impl BodyPoint {
    /// A point that does not move with the elastic coordinates (any point of
    /// a rigid body, or a point of the reference frame of a flexible one).
    pub fn fixed(u0: Vec3) -> Self {
        Self {
            u0,
            shape: Vec::new(),
        }
    }

    /// Body-frame position `ū = ū_o + N_P q_f`.
    pub fn local(&self, qf: &[f64]) -> Vec3 {
        let mut u = self.u0;
        for &(j, c) in &self.shape {
            u = add(u, [c[0] * qf[j], c[1] * qf[j], c[2] * qf[j]]);
        }
        u
    }

    /// Body-frame elastic velocity `N_P q̇_f`.
    pub fn local_rate(&self, qfd: &[f64]) -> Vec3 {
        let mut u = [0.0; 3];
        for &(j, c) in &self.shape {
            u = add(u, [c[0] * qfd[j], c[1] * qfd[j], c[2] * qfd[j]]);
        }
        u
    }

    /// Largest elastic coordinate index used, if any.
    pub(crate) fn max_index(&self) -> Option<usize> {
        self.shape.iter().map(|s| s.0).max()
    }
}
