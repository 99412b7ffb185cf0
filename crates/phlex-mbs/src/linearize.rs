//! Linearisation about a configuration and modal analysis of the constrained system
//! (paper 000 §5.3 and §6.2: "the resulting system is expressed in pH form as
//! $E\dot e = Je$ … the eigenfrequencies are found by solving $E\Phi = J\Phi\Lambda$").
//!
//! About a state $x_0$ (an equilibrium: zero velocities, multipliers equal to the static
//! reactions, e.g. from [`crate::kinematics::consistent_initial_state`]) the pHDAE
//! $E\dot x = f(x, u)$ linearises to $E\,\delta\dot x = A\,\delta x$ with
//! $A = \partial_x f(x_0, u_0)$ ([`crate::Mechanism::rhs_jacobian`]). At zero velocity the
//! gyroscopic terms vanish and $A = J(x_0)\,\partial_x z + (\partial_x J)z$: the second term
//! carries the geometric stiffness of gravity and of the static reactions (e.g. the
//! pendulum's $g/L$). The constrained modes are the finite eigenvalues of the pencil
//! $(E, A)$, computed by [`phlex_solve::eigen::pencil_modes`] (null-space reduction of the
//! index-2 multipliers, paper eq. (51)). The configuration variables give zero eigenvalues
//! (rigid-body drift along the constraint manifold), which are not reported.
use phlex_core::sparse::SparseMat;
use phlex_solve::eigen::{pencil_modes, EigenParams, EigenResult};

use crate::error::MbsError;
use crate::mechanism::Mechanism;

/// The linearised pencil $E\,\delta\dot x = A\,\delta x$ at a state.
#[derive(Debug, Clone)]
pub struct Linearization {
    /// Descriptor $E$.
    pub E: SparseMat,
    /// $A = \partial_x f(x_0, u_0)$.
    pub A: SparseMat,
}

/// Linearises `sys` at `(x, u)`.
pub fn linearize<S: Mechanism + ?Sized>(
    sys: &S,
    x: &[f64],
    u: &[f64],
) -> Result<Linearization, MbsError> {
    let n = sys.n_states();
    if x.len() != n {
        return Err(MbsError::Dimension {
            what: "linearisation state".into(),
            expected: n,
            found: x.len(),
        });
    }
    let m = sys.ports().total_dim();
    if u.len() != m {
        return Err(MbsError::Dimension {
            what: "linearisation input".into(),
            expected: m,
            found: u.len(),
        });
    }
    Ok(Linearization {
        E: sys.descriptor(x),
        A: sys.rhs_jacobian(x, u),
    })
}

/// Modes of the linearisation at `(x, u)` (frequencies in rad/s, sorted).
pub fn modes<S: Mechanism + ?Sized>(
    sys: &S,
    x: &[f64],
    u: &[f64],
    params: &EigenParams,
) -> Result<EigenResult, MbsError> {
    let l = linearize(sys, x, u)?;
    Ok(pencil_modes(&l.E, &l.A, params)?)
}
