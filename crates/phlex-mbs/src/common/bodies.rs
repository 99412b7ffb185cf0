//! [`BodyAssembly`]: the per-body loops of a multibody assembly, written once over the
//! dimension-free [`FloatingBody`] trait for the planar [`crate::Multibody`] and the
//! spatial [`crate::spatial::Multibody3d`].
//!
//! The global state of paper 000 eq. (46) stacks the local states $x_b$ of the bodies
//! (then the joint states and the multipliers); $E$, $J$ and $\partial_x z$ are block
//! diagonal over the bodies in those rows, and $H = \sum_b H_b(x_b)$.
use std::ops::Range;

use phlex_core::Triplets;

use crate::body::{Dimension, EnergySplit, FloatingBody};
use crate::error::MbsError;

/// The bodies of an assembly and where their local states sit in the global state: what
/// the planar [`crate::Multibody`] and the spatial [`crate::spatial::Multibody3d`] share
/// (re-exported as `phlex_mbs::BodyAssembly`, for code written once for both, e.g. reports
/// over the bodies).
pub trait BodyAssembly {
    /// Planar or spatial ([`crate::body::dimension`]).
    type Dim: Dimension;
    /// Number of bodies.
    fn body_count(&self) -> usize;
    /// Body `b`.
    fn floating_body(&self, b: usize) -> &dyn FloatingBody;
    /// Global index of the first state of body `b`.
    fn body_offset(&self, b: usize) -> usize;

    /// Global range of the local state of body `b`.
    fn body_state_range(&self, b: usize) -> Range<usize> {
        let o = self.body_offset(b);
        o..o + self.floating_body(b).n_local()
    }

    /// Body names, in insertion order.
    fn names_of_bodies(&self) -> Vec<String> {
        let n = self.body_count();
        (0..n)
            .map(|b| self.floating_body(b).name().to_string())
            .collect()
    }

    /// Index of the body named `name`; the error lists the bodies.
    fn find_body(&self, name: &str) -> Result<usize, MbsError> {
        (0..self.body_count())
            .find(|&b| self.floating_body(b).name() == name)
            .ok_or_else(|| MbsError::UnknownName {
                what: "body".into(),
                name: name.into(),
                available: self.names_of_bodies().join(", "),
            })
    }

    /// True if some body has deformation-dependent inertia (state-dependent descriptor).
    fn any_full_inertia(&self) -> bool {
        (0..self.body_count()).any(|b| self.floating_body(b).has_full_inertia())
    }

    /// $H(x) = \sum_b H_b(x_b)$.
    fn bodies_hamiltonian(&self, x: &[f64]) -> f64 {
        let n = self.body_count();
        (0..n)
            .map(|b| {
                let body = self.floating_body(b);
                body.energies(&x[self.body_state_range(b)]).total()
            })
            .sum()
    }

    /// The bodies' efforts $z_b(x_b)$ into their rows of `z`.
    fn bodies_effort(&self, x: &[f64], z: &mut [f64]) {
        for b in 0..self.body_count() {
            let r = self.body_state_range(b);
            self.floating_body(b).effort(&x[r.clone()], &mut z[r]);
        }
    }

    /// Energies of each body (kinetic, deformation, potential) with its name.
    fn bodies_energies(&self, x: &[f64]) -> Vec<(String, EnergySplit)> {
        (0..self.body_count())
            .map(|b| {
                let body = self.floating_body(b);
                let e = body.energies(&x[self.body_state_range(b)]);
                (body.name().to_string(), e)
            })
            .collect()
    }

    /// The bodies' initial local states into their rows of `x`.
    fn write_initial_body_states(&self, x: &mut [f64]) {
        for b in 0..self.body_count() {
            let x0 = self.floating_body(b).initial_state();
            x[self.body_state_range(b)].copy_from_slice(&x0);
        }
    }

    /// Pushes the bodies' descriptor blocks $E_b(x_b)$ (eq. (F3) with full inertia).
    fn push_body_descriptors(&self, x: &[f64], t: &mut Triplets) {
        for b in 0..self.body_count() {
            let r = self.body_state_range(b);
            self.floating_body(b)
                .push_descriptor(&x[r.clone()], t, r.start);
        }
    }

    /// Pushes the bodies' blocks $\partial z_b/\partial x_b$.
    fn push_body_effort_jacobians(&self, x: &[f64], t: &mut Triplets) {
        for b in 0..self.body_count() {
            let r = self.body_state_range(b);
            self.floating_body(b)
                .push_effort_jacobian(&x[r.clone()], t, r.start);
        }
    }
}
