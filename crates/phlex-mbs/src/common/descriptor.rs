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
//! [`FullInertiaAssembly::POSE_COORDS`] pose coordinates (planar $x, y, \theta$; spatial $r$
//! and the 9 entries of $R$), the elastic coordinates $u_f$ (up to $n_q$), then
//! [`FullInertiaAssembly::RIGID_VELOCITIES`] rigid velocities and the elastic velocities
//! $v_f$.
use std::ops::Range;

use faer::Mat;
use phlex_core::sparse::{col_iter, SparseMat};
use phlex_core::{PhSystem, Triplets};

/// What the full-inertia algorithms need of an assembled multibody system: the constant
/// descriptor, the body layout and the bodies' full-inertia operators (local states).
pub(crate) trait FullInertiaAssembly: PhSystem {
    /// Pose coordinates ahead of $u_f$ in a body's local state (planar 3, spatial 12).
    const POSE_COORDS: usize;
    /// Rigid velocities ahead of $v_f$ (planar 3, spatial 6).
    const RIGID_VELOCITIES: usize;
    /// The constant descriptor $E$ (identity in the pose rows of a body with full inertia).
    fn constant_descriptor(&self) -> &SparseMat;
    /// Number of bodies.
    fn body_count(&self) -> usize;
    /// Global range of the local state of body `b`.
    fn body_state_range(&self, b: usize) -> Range<usize>;
    /// Configuration states $n_q$ of body `b` (pose and $u_f$).
    fn body_n_q(&self, b: usize) -> usize;
    /// True if body `b` has full inertia.
    fn body_full_inertia(&self, b: usize) -> bool;
    /// Dense $M_{vv}(u_f)$ and $\Gamma$ of body `b` at its local state `xl` (`None` without
    /// full inertia).
    fn body_velocity_mass(&self, b: usize, xl: &[f64]) -> Option<(Mat<f64>, Vec<f64>)>;
    /// Calls `f(i, j, v)` with the entries of $\partial_{u_f}(M_{vv}a)$ of body `b`
    /// (row `i` of the velocity block, elastic coordinate `j`).
    fn body_mass_u(&self, b: usize, xl: &[f64], a: &[f64], f: &mut dyn FnMut(usize, usize, f64));
    /// The body's rows of $\Delta(x_0, x_1)$ (local states), eq. (F4).
    fn body_increment(&self, b: usize, x0: &[f64], x1: &[f64], out: &mut [f64]);
    /// The body's discrete effort (F5) of the step (local states).
    fn body_discrete_effort(&self, b: usize, x0: &[f64], x1: &[f64], z: &mut [f64]);

    /// Global range of the velocity rows $(v_P, \omega, v_f)$ of body `b`.
    fn velocity_rows(&self, b: usize) -> Range<usize> {
        let n_q = self.body_n_q(b);
        let o = self.body_state_range(b).start + n_q;
        o..o + Self::RIGID_VELOCITIES + n_q - Self::POSE_COORDS
    }
}

/// The [`FullInertiaAssembly`] methods that the planar [`crate::Multibody`] and the spatial
/// [`crate::spatial::Multibody3d`] implement alike (same fields `E`, `bodies` and the same
/// body methods), with the layout constants `POSE_COORDS` and `RIGID_VELOCITIES`.
macro_rules! full_inertia_layout {
    ($pose:expr, $rigid:expr) => {
        const POSE_COORDS: usize = $pose;
        const RIGID_VELOCITIES: usize = $rigid;
        fn constant_descriptor(&self) -> &phlex_core::sparse::SparseMat {
            &self.E
        }
        fn body_count(&self) -> usize {
            self.bodies.len()
        }
        fn body_state_range(&self, b: usize) -> std::ops::Range<usize> {
            self.body_range(b)
        }
        fn body_n_q(&self, b: usize) -> usize {
            self.bodies[b].n_q()
        }
        fn body_full_inertia(&self, b: usize) -> bool {
            self.bodies[b].has_full_inertia()
        }
        fn body_velocity_mass(&self, b: usize, xl: &[f64]) -> Option<(faer::Mat<f64>, Vec<f64>)> {
            self.bodies[b].velocity_mass_dense(xl)
        }
        fn body_mass_u(
            &self,
            b: usize,
            xl: &[f64],
            a: &[f64],
            f: &mut dyn FnMut(usize, usize, f64),
        ) {
            self.bodies[b].for_each_mass_u(xl, a, f)
        }
        fn body_increment(&self, b: usize, x0: &[f64], x1: &[f64], out: &mut [f64]) {
            self.bodies[b].increment_local(x0, x1, out)
        }
        fn body_discrete_effort(&self, b: usize, x0: &[f64], x1: &[f64], z: &mut [f64]) {
            self.bodies[b].discrete_effort_local(x0, x1, z)
        }
    };
}
pub(crate) use full_inertia_layout;

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
        if mb.body_full_inertia(b) {
            let r = mb.body_state_range(b);
            mb.body_increment(b, &x0[r.clone()], &x1[r.clone()], &mut out[r]);
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
        if mb.body_full_inertia(b) {
            let r = mb.body_state_range(b);
            mb.body_discrete_effort(b, &x0[r.clone()], &x1[r.clone()], &mut z[r]);
        }
    }
}

/// Velocity rows of the bodies with full inertia, with the body index.
pub(crate) fn full_velocity_ranges<A: FullInertiaAssembly + ?Sized>(
    mb: &A,
) -> Vec<(usize, Range<usize>)> {
    (0..mb.body_count())
        .filter(|&b| mb.body_full_inertia(b))
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
        .body_velocity_mass(b, &x[mb.body_state_range(b)])
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
        for j in o + A::POSE_COORDS..r.end {
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
        let (o, nq) = (mb.body_state_range(*b).start, mb.body_n_q(*b));
        let (M, a) = velocity_rates(mb, *b, r, x, f);
        let D = &mut dense[k];
        let pos = &col_pos[k];
        // −∂_u π_v · ∂v_f (the v_f columns) and −∂_u(M a) (the u_f columns)
        mb.body_mass_u(*b, xl, &xl[nq..], &mut |i, j, v| {
            D[(i, pos[o + nq + A::RIGID_VELOCITIES + j])] -= v;
        });
        mb.body_mass_u(*b, xl, &a, &mut |i, j, v| {
            D[(i, pos[o + A::POSE_COORDS + j])] -= v;
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
