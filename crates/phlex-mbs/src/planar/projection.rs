//! Drift correction of a planar [`Multibody`] by projection onto its position constraints
//! (paper 000 Remark 9; off by default). The integrators of `phlex-solve` call it after every
//! step through [`phlex_core::PhSystem::project`] when a projection is requested
//! ([`phlex_core::ProjectionOptions`]).
//!
//! The one-step integrators enforce the *velocity* constraints $G(x)p = B_\lambda u$ (at the
//! midpoint or the stages); the *position* constraints $\Phi(q) = 0$ (hinge points
//! coincide, …) drift at $O(h^2)$ per unit time. [`project_onto_constraints`]:
//! 1. Gauss–Newton on the body poses $q = (x, y, \theta)_b$ with minimum-norm steps
//!    $\Delta q = -\Phi_q^{+}\Phi(q)$ (SVD pseudo-inverse, $\Phi_q$ by central differences
//!    with step $10^{-7}(1 + |q|)$), until $\max|\Phi| \le$ `tol`; joint relative angles move
//!    with the bodies ($\Delta\theta_j = \Delta\theta_b - \Delta\theta_a$), elastic
//!    coordinates, targets and stresses are not touched;
//! 2. optionally ([`ProjectionOptions::velocities`]) the co-energy variables onto
//!    $G(x_1)p = B_\lambda u(t_1)$ in the kinetic-energy metric
//!    ($\min\tfrac12\Delta p^\top(M + \delta I)\Delta p$, $\delta = 10^{-10}\max M_{ii}$, one
//!    sparse KKT solve).
//!
//! *Energy.* The projection is not part of the scheme's discrete power balance: moving the
//! poses changes the potential energy (gravity) and the velocity projection removes kinetic
//! energy (an orthogonal projection in the $M$-metric never adds any). The integrators record
//! each jump $H(x^{proj}) - H(x)$ ([`phlex_core::ProjectionStats`]).
use phlex_core::sparse;

use crate::body::FloatingBody;
use phlex_core::system::{PhSystem, ProjectionOptions, ProjectionStep};
use phlex_core::{CoreError, Triplets};
use phlex_solve::{SolveError, SparseLu};

use crate::common::least_squares::max_abs;
use crate::common::pose_newton::project_poses;
use crate::error::MbsError;
use crate::planar::assembly::Multibody;

/// Moves the joint relative angles along with the body angles, $\Delta\theta_j =
/// \Delta\theta_b - \Delta\theta_a$ (`dq`: 3 pose increments per body).
fn move_relative_angles(mb: &Multibody, x: &mut [f64], dq: &[f64]) {
    for (k, j) in mb.joints.iter().enumerate() {
        if j.has_relative_angle() {
            let da = dq[3 * j.a.0 + 2];
            let db = j.b.map_or(0.0, |(b, _)| dq[3 * b + 2]);
            x[mb.extra_off[k]] += db - da;
        }
    }
}

/// Projects `x` onto the position constraints (and, with
/// [`ProjectionOptions::velocities`], its velocities onto $G(x)p = B_\lambda u$); see the
/// module documentation. `u` is the input at the time of `x`. The Gauss–Newton iteration
/// is the one shared with the spatial projection and the consistent initialisation.
///
/// Errors: a Gauss–Newton that does not reach `tol` within `max_iterations`
/// ([`MbsError::Solve`] with [`SolveError::NewtonDiverged`]), dimension mismatches, a
/// singular KKT matrix.
pub fn project_onto_constraints(
    mb: &Multibody,
    x: &mut [f64],
    u: &[f64],
    opts: &ProjectionOptions,
) -> Result<ProjectionStep, MbsError> {
    let mut step = project_poses(mb, x, opts, Some(move_relative_angles), |_| Ok(()))?;
    if opts.velocities && mb.n_constraints() > 0 {
        project_velocities(mb, x, u, &mut step)?;
    }
    Ok(step)
}

/// Velocity projection: $\min\tfrac12\Delta p^\top(M + \delta I)\Delta p$ subject to
/// $G(p + \Delta p) = B_\lambda u$, by the KKT system.
fn project_velocities(
    mb: &Multibody,
    x: &mut [f64],
    u: &[f64],
    step: &mut ProjectionStep,
) -> Result<(), MbsError> {
    let mut pvars = Vec::new();
    for (b, body) in mb.bodies.iter().enumerate() {
        let r = mb.body_range(b);
        pvars.extend(r.start + body.n_q()..r.end);
    }
    let np = pvars.len();
    let nc = mb.n_constraints();
    let G = mb.constraint_matrix(x);
    // residual c = G p − B_λ u (constraint rows of the input map)
    let mut c = sparse::mul_vec(&G, x);
    if !u.is_empty() {
        let bu = sparse::mul_vec(&mb.input_map(x), u);
        let lam0 = mb.lam_off.first().copied().unwrap_or(mb.n());
        for (k, ck) in c.iter_mut().enumerate() {
            *ck -= bu[lam0 + k];
        }
    }
    step.velocity_residual = max_abs(&c);
    // the kinetic-energy metric at x (M(u_f) for bodies with full inertia)
    let E = mb.descriptor(x);
    let M = sparse::restrict(&E, &pvars, &pvars);
    let Gp = sparse::restrict(&G, &(0..nc).collect::<Vec<_>>(), &pvars);
    let mdiag = (0..np)
        .flat_map(|j| sparse::col_iter(&M, j).filter(move |(i, _)| *i == j))
        .fold(0.0f64, |m, (_, v)| m.max(v));
    let mut t = Triplets::new(np + nc, np + nc);
    t.push_block(0, 0, &M, 1.0);
    for i in 0..np {
        t.push(i, i, 1e-10 * mdiag);
    }
    t.push_block(np, 0, &Gp, 1.0);
    t.push_block_transpose(0, np, &Gp, 1.0);
    let K = t.build();
    let mut lu = SparseLu::from_matrix("velocity projection KKT [[M, G^T], [G, 0]]", K.as_ref())?;
    let mut rhs = vec![0.0; np + nc];
    for (k, ck) in c.iter().enumerate() {
        rhs[np + k] = -ck;
    }
    lu.solve_in_place(&mut rhs)?;
    for (k, &i) in pvars.iter().enumerate() {
        x[i] += rhs[k];
    }
    Ok(())
}

/// The error of a projection as the [`PhSystem::project`] hook reports it: a Gauss–Newton
/// that does not reach its tolerance is [`CoreError::ProjectionNotConverged`] (the
/// integrators add the time), the others keep their message.
pub(crate) fn projection_error(e: MbsError) -> CoreError {
    match e {
        MbsError::Solve(SolveError::NewtonDiverged {
            iterations,
            residual,
            tol,
            ..
        }) => CoreError::ProjectionNotConverged {
            iterations,
            residual,
            tol,
        },
        MbsError::Solve(SolveError::Parameter(m)) => CoreError::Parameter(m),
        MbsError::Core(e) => e,
        MbsError::Dimension {
            what,
            expected,
            found,
        } => CoreError::Dimension {
            what,
            expected,
            found,
        },
        e => CoreError::LinAlg(e.to_string()),
    }
}
