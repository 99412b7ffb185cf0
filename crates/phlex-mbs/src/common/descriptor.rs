//! The assembly side of the state-dependent descriptor of bodies with *full inertia*
//! (deformation-dependent mass operator: planar [`crate::body::planar::full_inertia`], spatial
//! [`crate::body::spatial::full_inertia`]), written once for the planar
//! [`crate::Multibody`] and the spatial [`crate::spatial::Multibody3d`] over
//! [`FullInertiaAssembly`]:
//!
//! * the discrete increment $\Delta(x_0, x_1)$ of a midpoint step, eq. (F4): $E(x_1 - x_0)$
//!   with the momentum increments $\pi(x_1) - \pi(x_0)$ in the rows of such bodies
//!   ([`step_increment`]);
//! * their discrete efforts (F5) in place of the midpoint efforts
//!   ([`replace_discrete_efforts`]) and the Gonzalez correction of the discrete gradient
//!   on the rest of the state ([`phlex_core::system::gonzalez_correction`]);
//! * the constant-mass form $E_c\dot x = F(x)$ for Radau IIA ([`constant_mass`],
//!   [`to_constant_mass_rhs`], [`to_constant_mass_jacobian`]): in the velocity rows
//!   $(v_P, \omega, v_f)$ of a body with full inertia $E_c = I$ and
//!   $F_v = M_{vv}(u_f)^{-1}(f_v - \Gamma)$, $\Gamma = \partial_{u_f}\pi_v\,v_f$ (from
//!   $E(x)\dot x = f$ with $\dot u_f = v_f$).
//!
//! A body's local state is $(q_{pose}, u_f, p_{rigid}, v_f, \dots)$:
//! [`Dimension::POSE_COORDS`] pose coordinates (planar $x, y, \theta$; spatial $r$
//! and the 9 entries of $R$), the elastic coordinates $u_f$ (up to $n_q$), then
//! [`Dimension::RIGID_VELOCITIES`] rigid velocities and the elastic velocities
//! $v_f$.
use std::ops::Range;

use faer::Mat;
use phlex_core::sparse::{col_iter, SparseMat};
use phlex_core::{PhSystem, Triplets};

use crate::body::Dimension;
use crate::common::bodies::BodyAssembly;

/// What the full-inertia algorithms need of an assembled multibody system beyond its
/// bodies ([`BodyAssembly`], whose [`crate::body::FloatingBody`] models give the
/// full-inertia operators of each body): the constant descriptor.
pub(crate) trait FullInertiaAssembly: PhSystem + BodyAssembly {
    /// The constant descriptor $E$ (identity in the pose rows of a body with full inertia).
    fn constant_descriptor(&self) -> &SparseMat;

    /// Global range of the velocity rows $(v_P, \omega, v_f)$ of body `b`.
    fn velocity_rows(&self, b: usize) -> Range<usize> {
        let n_q = self.floating_body(b).n_q();
        let o = self.body_offset(b) + n_q;
        o..o + Self::Dim::RIGID_VELOCITIES + n_q - Self::Dim::POSE_COORDS
    }
}

/// $\Delta(x_0, x_1)$ into `out`: $E(x_1 - x_0)$, with the momentum increments of eq. (F4)
/// in the rows of the bodies with full inertia. Allocation free.
pub(crate) fn step_increment<A: FullInertiaAssembly + ?Sized>(
    mb: &A,
    x0: &[f64],
    x1: &[f64],
    out: &mut [f64],
) {
    out.iter_mut().for_each(|v| *v = 0.0);
    let E = mb.constant_descriptor();
    for j in 0..E.ncols() {
        let d = x1[j] - x0[j];
        if d == 0.0 {
            continue;
        }
        for (i, v) in col_iter(E, j) {
            out[i] += d * v;
        }
    }
    for b in 0..mb.body_count() {
        if mb.floating_body(b).has_full_inertia() {
            let r = mb.body_state_range(b);
            mb.floating_body(b)
                .increment_local(&x0[r.clone()], &x1[r.clone()], &mut out[r]);
        }
    }
}

/// Overwrites the blocks of the bodies with full inertia in `z` by their discrete effort
/// (F5) of the step `x0 → x1`.
pub(crate) fn replace_discrete_efforts<A: FullInertiaAssembly + ?Sized>(
    mb: &A,
    x0: &[f64],
    x1: &[f64],
    z: &mut [f64],
) {
    for b in 0..mb.body_count() {
        if mb.floating_body(b).has_full_inertia() {
            let r = mb.body_state_range(b);
            mb.floating_body(b)
                .discrete_effort_local(&x0[r.clone()], &x1[r.clone()], &mut z[r]);
        }
    }
}

/// Velocity rows of the bodies with full inertia, with the body index.
pub(crate) fn full_velocity_ranges<A: FullInertiaAssembly + ?Sized>(
    mb: &A,
) -> Vec<(usize, Range<usize>)> {
    (0..mb.body_count())
        .filter(|&b| mb.floating_body(b).has_full_inertia())
        .map(|b| (b, mb.velocity_rows(b)))
        .collect()
}

/// $E_c$: $E$ with the identity in the velocity blocks of the bodies with full inertia.
pub(crate) fn constant_mass<A: FullInertiaAssembly + ?Sized>(mb: &A) -> SparseMat {
    let E = mb.constant_descriptor();
    let ranges = full_velocity_ranges(mb);
    if ranges.is_empty() {
        return E.clone();
    }
    let n = mb.n_states();
    let inside = |i: usize| ranges.iter().any(|(_, r)| r.contains(&i));
    let mut t = Triplets::new(n, n);
    for j in 0..n {
        for (i, v) in col_iter(E, j) {
            if !inside(i) && !inside(j) {
                t.push(i, j, v);
            }
        }
    }
    for (_, r) in &ranges {
        for i in r.clone() {
            t.push(i, i, 1.0);
        }
    }
    t.build()
}

/// $a = M_{vv}(u_f)^{-1}(f_v - \Gamma)$ of body `b` (velocity rows `r`), with the dense
/// $M_{vv}$.
fn velocity_rates<A: FullInertiaAssembly + ?Sized>(
    mb: &A,
    b: usize,
    r: &Range<usize>,
    x: &[f64],
    f: &[f64],
) -> (Mat<f64>, Vec<f64>) {
    let (M, g) = mb
        .floating_body(b)
        .velocity_mass_dense(&x[mb.body_state_range(b)])
        .expect("full-inertia body");
    let rhs: Vec<f64> = r.clone().zip(&g).map(|(i, gi)| f[i] - gi).collect();
    let a = crate::common::least_squares::dense_solve(&M, &rhs);
    (M, a)
}

/// $f \mapsto F$ in place: $F_v = M_{vv}(u_f)^{-1}(f_v - \Gamma)$ in the velocity rows of the
/// bodies with full inertia, unchanged elsewhere.
pub(crate) fn to_constant_mass_rhs<A: FullInertiaAssembly + ?Sized>(
    mb: &A,
    x: &[f64],
    f: &mut [f64],
) {
    for (b, r) in full_velocity_ranges(mb) {
        let (_, a) = velocity_rates(mb, b, &r, x, f);
        f[r].copy_from_slice(&a);
    }
}

/// $\partial_x f \mapsto$ an approximation of $\partial_x F$: in the velocity rows of a body
/// with full inertia $M_{vv}^{-1}\big(\partial f_v - \partial_{u_f}\pi_v\,\partial v_f -
/// \partial_{u_f}(M_{vv}a)\big)$ with $a = F_v$ (the second derivatives of $\pi$ in $\Gamma$
/// are neglected; this only affects the convergence rate of Radau's simplified Newton
/// iterations). `f` is $f(x)$.
pub(crate) fn to_constant_mass_jacobian<A: FullInertiaAssembly + ?Sized>(
    mb: &A,
    x: &[f64],
    f: &[f64],
    jac: SparseMat,
) -> SparseMat {
    let ranges = full_velocity_ranges(mb);
    if ranges.is_empty() {
        return jac;
    }
    let n = mb.n_states();
    let mut owner = vec![usize::MAX; n];
    for (k, (_, r)) in ranges.iter().enumerate() {
        for i in r.clone() {
            owner[i] = k;
        }
    }
    let mut t = Triplets::new(n, n);
    // The columns each velocity block touches: those of ∂f_v and the u_f, v_f columns.
    let mut cols: Vec<Vec<usize>> = vec![Vec::new(); ranges.len()];
    let mut col_pos: Vec<Vec<usize>> = vec![vec![usize::MAX; n]; ranges.len()];
    let mut add_col = |k: usize, j: usize, cols: &mut Vec<Vec<usize>>| {
        if col_pos[k][j] == usize::MAX {
            col_pos[k][j] = cols[k].len();
            cols[k].push(j);
        }
    };
    for j in 0..n {
        for (i, _) in col_iter(&jac, j) {
            if owner[i] != usize::MAX {
                add_col(owner[i], j, &mut cols);
            }
        }
    }
    for (k, (b, r)) in ranges.iter().enumerate() {
        let o = mb.body_state_range(*b).start;
        for j in o + A::Dim::POSE_COORDS..r.end {
            add_col(k, j, &mut cols);
        }
    }
    let mut dense: Vec<Mat<f64>> = ranges
        .iter()
        .enumerate()
        .map(|(k, (_, r))| Mat::<f64>::zeros(r.len(), cols[k].len()))
        .collect();
    for j in 0..n {
        for (i, v) in col_iter(&jac, j) {
            let k = owner[i];
            if k == usize::MAX {
                t.push(i, j, v);
            } else {
                dense[k][(i - ranges[k].1.start, col_pos[k][j])] += v;
            }
        }
    }
    for (k, (b, r)) in ranges.iter().enumerate() {
        let xl = &x[mb.body_state_range(*b)];
        let (o, nq) = (mb.body_state_range(*b).start, mb.floating_body(*b).n_q());
        let (M, a) = velocity_rates(mb, *b, r, x, f);
        let D = &mut dense[k];
        let pos = &col_pos[k];
        // −∂_u π_v · ∂v_f (the v_f columns) and −∂_u(M a) (the u_f columns)
        mb.floating_body(*b)
            .for_each_mass_u(xl, &xl[nq..], &mut |i, j, v| {
                D[(i, pos[o + nq + A::Dim::RIGID_VELOCITIES + j])] -= v;
            });
        mb.floating_body(*b)
            .for_each_mass_u(xl, &a, &mut |i, j, v| {
                D[(i, pos[o + A::Dim::POSE_COORDS + j])] -= v;
            });
        use faer::linalg::solvers::Solve;
        let sol = M.partial_piv_lu().solve(&*D);
        for (c, &j) in cols[k].iter().enumerate() {
            for i in 0..r.len() {
                let v = sol[(i, c)];
                if v != 0.0 {
                    t.push(r.start + i, j, v);
                }
            }
        }
    }
    t.build()
}
