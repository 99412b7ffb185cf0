//! Linearisation about a configuration and modal analysis of the constrained system
//! (paper 000 §5.3 and §6.2: "the resulting system is expressed in pH form as
//! $E\dot e = Je$ … the eigenfrequencies are found by solving $E\Phi = J\Phi\Lambda$").
//!
//! About a state $x_0$ (an equilibrium: zero velocities, multipliers equal to the static
//! reactions, e.g. from [`crate::planar::kinematics::consistent_initial_state`]) the pHDAE
//! $E\dot x = f(x, u)$ linearises to $E\,\delta\dot x = A\,\delta x$ with
//! $A = \partial_x f(x_0, u_0)$ ([`phlex_core::PhSystem::rhs_jacobian`]). At zero velocity the
//! gyroscopic terms vanish and $A = J(x_0)\,\partial_x z + (\partial_x J)z$: the second term
//! carries the geometric stiffness of gravity and of the static reactions (e.g. the
//! pendulum's $g/L$). The constrained modes are the finite eigenvalues of the pencil
//! $(E, A)$, computed by [`phlex_solve::eigen::pencil_modes`] (null-space reduction of the
//! index-2 multipliers, paper eq. (51)). The configuration variables give zero eigenvalues
//! (rigid-body drift along the constraint manifold), which are not reported.
//!
//! [`ph_linearization`] writes the same linearisation as the linear pHDAE of paper 000
//! eq. (49), $E\dot x = (J - R)x + Bu$ with $x = (p_r, p_f, \lambda)$ and the configuration
//! omitted, as a [`LinearPhSystem`] for export, null-space elimination
//! ([`phlex_solve::nullspace`], eq. (51)) and reduction ([`crate::analysis::reduce`], eq. (50)).
use crate::body::FloatingBody;
use phlex_core::sparse::{self, SparseMat};
use phlex_core::structure::{self, Tolerances};
use phlex_core::{LinearPhSystem, PhSystem, VarBlock};
use phlex_solve::eigen::{pencil_modes, EigenParams, EigenResult};

use crate::error::{require_len, MbsError};
use crate::planar::assembly::Multibody;

/// The linearised pencil $E\,\delta\dot x = A\,\delta x$ at a state.
#[derive(Debug, Clone)]
pub struct Linearization {
    /// Descriptor $E$.
    pub E: SparseMat,
    /// $A = \partial_x f(x_0, u_0)$.
    pub A: SparseMat,
}

/// Linearises `sys` at `(x, u)`.
pub fn linearize<S: PhSystem + ?Sized>(
    sys: &S,
    x: &[f64],
    u: &[f64],
) -> Result<Linearization, MbsError> {
    let n = sys.n_states();
    require_len("linearisation state", n, x.len())?;
    let m = sys.ports().total_dim();
    require_len("linearisation input", m, u.len())?;
    Ok(Linearization {
        E: sys.descriptor(x),
        A: sys.rhs_jacobian(x, u),
    })
}

/// Modes of the linearisation at `(x, u)` (frequencies in rad/s, sorted).
pub fn modes<S: PhSystem + ?Sized>(
    sys: &S,
    x: &[f64],
    u: &[f64],
    params: &EigenParams,
) -> Result<EigenResult, MbsError> {
    let l = linearize(sys, x, u)?;
    Ok(pencil_modes(&l.E, &l.A, params)?)
}

/// The linear pHDAE of paper 000 eq. (49) about a state at rest: velocities and stresses
/// $p = (p_r, p_f)$ of every body and the multipliers $\lambda$, configuration omitted.
///
/// Built by [`ph_linearization`]; the state of [`PhLinearization::system`] lists, body by
/// body, the rigid co-energy variables $(v_P, \omega)$ and the elastic ones $(v_f, \sigma)$
/// (blocks `"<body>.v"`, `"<body>.vf"`/…, `"<body>.sigma"`/…), then the multiplier blocks
/// `"<joint>.lambda"`; the ports are those of the [`Multibody`].
#[derive(Debug, Clone)]
pub struct PhLinearization {
    /// $E\dot x = (J - R)x + Bu$, $y = B^\top x$ with $x = (p, \lambda)$.
    pub system: LinearPhSystem,
    /// Global index (in the multibody state) of every variable of [`Self::system`].
    pub state: Vec<usize>,
    /// Indices (in [`Self::system`]) of the rigid velocities $p_r$ of all bodies.
    pub rigid: Vec<usize>,
    /// Per flexible body: its name and the indices (in [`Self::system`]) of $p_f$.
    pub flexible: Vec<(String, Vec<usize>)>,
    /// Indices (in [`Self::system`]) of the multipliers.
    pub multipliers: Vec<usize>,
    /// The omitted coupling of the velocities to the configuration,
    /// $\max|A[p, q]| / \max|A[p, p]|$ ($A = \partial_x f$): zero without gravity and
    /// prestress (no geometric stiffness); otherwise the geometric stiffness of gravity and
    /// of the static reactions is left out (compare with [`modes`], which keeps it).
    pub neglected_coupling: f64,
}

/// Linearises `mb` at a state at rest `(x, u)` into the linear pHDAE (49) (see
/// [`PhLinearization`]).
///
/// About a state with zero velocities $A_{pp} = J_{pp}(x)$ is skew-symmetric: the split
/// $J = \tfrac12(A_{pp} - A_{pp}^\top)$, $R = -\tfrac12(A_{pp} + A_{pp}^\top)$ gives $R = 0$
/// for a lossless mechanism. The configuration variables (body poses $q$, elastic
/// displacements $u_f$, joint angles and driver targets) carry no energy in the linear
/// model and are omitted, as in the paper ("omitting the partition related to the
/// generalized coordinates"); their coupling back into the dynamics (geometric stiffness)
/// is measured by [`PhLinearization::neglected_coupling`].
///
/// Errors: dimensions, or a state that is not at rest (the symmetric part of $A_{pp}$ is
/// not negative semidefinite: gyroscopic terms), as [`MbsError::Solve`] with a
/// [`SolveError::Parameter`](phlex_solve::SolveError::Parameter) message.
pub fn ph_linearization(mb: &Multibody, x: &[f64], u: &[f64]) -> Result<PhLinearization, MbsError> {
    let l = linearize(mb, x, u)?;
    let n = mb.n();
    let mut keep = vec![false; n];
    let mut rigid_g = Vec::new();
    let mut flex_g = Vec::new();
    for (b, body) in mb.bodies().iter().enumerate() {
        let r = mb.body_range(b);
        let p0 = r.start + body.n_q();
        for i in p0..r.end {
            keep[i] = true;
        }
        rigid_g.extend(p0..p0 + 3);
        if p0 + 3 < r.end {
            flex_g.push((body.name().to_string(), (p0 + 3..r.end).collect::<Vec<_>>()));
        }
    }
    let mut lam_g = Vec::new();
    for j in 0..mb.joint_names().len() {
        for i in mb.multiplier_range(j) {
            keep[i] = true;
            lam_g.push(i);
        }
    }
    let state: Vec<usize> = (0..n).filter(|&i| keep[i]).collect();
    let mut local = vec![usize::MAX; n];
    for (k, &i) in state.iter().enumerate() {
        local[i] = k;
    }
    let dropped: Vec<usize> = (0..n).filter(|&i| !keep[i]).collect();
    let Akk = sparse::restrict(&l.A, &state, &state);
    let AkkT = sparse::transpose(&Akk);
    let J = sparse::add(0.5, &Akk, -0.5, &AkkT);
    let R = sparse::add(-0.5, &Akk, -0.5, &AkkT);
    let E = sparse::restrict(&l.E, &state, &state);
    let all_inputs: Vec<usize> = (0..mb.ports().total_dim()).collect();
    let B = sparse::restrict(&mb.input_map(x), &state, &all_inputs);
    let mut blocks = Vec::new();
    let mut off = 0;
    for b in mb.blocks() {
        let len = (off..off + b.len).filter(|&i| keep[i]).count();
        if len > 0 {
            blocks.push(VarBlock { len, ..b.clone() });
        }
        off += b.len;
    }
    let system = LinearPhSystem::new(E, J, R, B, mb.ports().clone(), blocks)?;
    let scale = sparse::max_abs(&Akk);
    if sparse::max_abs(&system.R) > 1e-10 * scale {
        structure::check_sym_psd(&system.R, "R", &system.blocks, &Tolerances::default())
            .map_err(|e| {
                MbsError::Solve(phlex_solve::SolveError::Parameter(format!(
                    "pH linearisation: the state is not at rest ({e}); paper 000 §5.3 linearises about zero velocities (gyroscopic terms make J - R indefinite)"
                )))
            })?;
    }
    let coupling = sparse::max_abs(&sparse::restrict(&l.A, &state, &dropped));
    Ok(PhLinearization {
        system,
        rigid: rigid_g.iter().map(|&i| local[i]).collect(),
        flexible: flex_g
            .into_iter()
            .map(|(name, v)| (name, v.iter().map(|&i| local[i]).collect()))
            .collect(),
        multipliers: lam_g.iter().map(|&i| local[i]).collect(),
        state,
        neglected_coupling: if scale > 0.0 { coupling / scale } else { 0.0 },
    })
}
