//! [`ConstrainedAssembly`]: what the dimension-generic algorithms (consistent initial
//! conditions, drift projection, redundancy check) need to know of an assembled multibody
//! pHDAE $E\dot x = (J(x) - R)z(x) + B(x)u$ with the joint rows $G(x)p = B_\lambda u$
//! (paper 000 eqs. (44)–(46)). Implemented by the planar [`crate::Multibody`]
//! (in [`crate::planar::kinematics`]) and the spatial [`crate::spatial::Multibody3d`] (in
//! [`crate::spatial::kinematics`]).
use phlex_core::sparse::col_iter;
use phlex_core::sparse::SparseMat;
use phlex_core::PhSystem;

use crate::common::bodies::BodyAssembly;
use crate::error::MbsError;
use crate::planar::assembly::JointDrift;

/// The joints of an assembly and their reactions: what the planar [`crate::Multibody`] and
/// the spatial [`crate::spatial::Multibody3d`] share beyond their bodies (re-exported as
/// `phlex_mbs::JointAssembly`, for code written once for both, e.g. the recorders and
/// reports of a run). The methods are those of the same name of both assemblies.
pub trait JointAssembly: BodyAssembly + PhSystem {
    /// Joint names, in insertion order.
    fn joint_names(&self) -> Vec<String>;
    /// Total number of constraint rows (multipliers).
    fn n_constraints(&self) -> usize;
    /// Index of a joint by name; the error lists the joints.
    fn joint_index(&self, name: &str) -> Result<usize, MbsError>;
    /// Labels of the constraint rows of joint `j`.
    fn joint_row_labels(&self, j: usize) -> &'static [&'static str];
    /// Multiplier (reaction) of joint `j` in the state `x`.
    fn reaction<'a>(&self, j: usize, x: &'a [f64]) -> &'a [f64];
    /// Position-level violation of every joint at `x`.
    fn position_drift(&self, x: &[f64]) -> Vec<JointDrift>;
    /// Labels `joint[row]` of the constraint rows released as redundant (builder option
    /// `remove_redundant_constraints`).
    fn released_rows(&self) -> Vec<String>;
    /// Names of the force elements, in insertion order (their states follow the joint
    /// states, [`crate::common::force_element`]).
    fn force_element_names(&self) -> Vec<String>;
    /// For every force element, in the same order: true if it is rotational (its state an
    /// angle, its effort a torque).
    fn force_elements_rotational(&self) -> Vec<bool>;
    /// Length, rate, tension, stored energy and dissipated power of every force element
    /// at `x`, with its name.
    fn force_element_states(
        &self,
        x: &[f64],
    ) -> Vec<(String, crate::common::force_element::ElementState)>;
}

/// `impl JointAssembly for $ty` by the inherent methods of the same names
/// ([`shared_multibody_methods`]).
macro_rules! impl_joint_assembly {
    ($ty:ty) => {
        impl crate::common::assembly::JointAssembly for $ty {
            fn joint_names(&self) -> Vec<String> {
                Self::joint_names(self)
            }
            fn n_constraints(&self) -> usize {
                Self::n_constraints(self)
            }
            fn joint_index(&self, name: &str) -> Result<usize, crate::error::MbsError> {
                Self::joint_index(self, name)
            }
            fn joint_row_labels(&self, j: usize) -> &'static [&'static str] {
                Self::joint_row_labels(self, j)
            }
            fn reaction<'a>(&self, j: usize, x: &'a [f64]) -> &'a [f64] {
                Self::reaction(self, j, x)
            }
            fn position_drift(&self, x: &[f64]) -> Vec<crate::planar::assembly::JointDrift> {
                Self::position_drift(self, x)
            }
            fn released_rows(&self) -> Vec<String> {
                Self::released_rows(self)
            }
            fn force_element_names(&self) -> Vec<String> {
                Self::force_elements(self).names()
            }
            fn force_elements_rotational(&self) -> Vec<bool> {
                let f = Self::force_elements(self);
                (0..f.len()).map(|e| f.is_rotational(e)).collect()
            }
            fn force_element_states(
                &self,
                x: &[f64],
            ) -> Vec<(String, crate::common::force_element::ElementState)> {
                Self::force_element_states(self, x)
            }
        }
    };
}
pub(crate) use impl_joint_assembly;

/// The constrained-mechanics view of an assembled multibody system, generic over the
/// dimension: a body pose has [`crate::body::Dimension::POSE_DOF`] increments (planar
/// $(\delta x, \delta y, \delta\theta)$, spatial $(\delta r, \delta\varphi)$).
pub(crate) trait ConstrainedAssembly: PhSystem + BodyAssembly {
    /// Number of joint constraint rows $n_c$.
    fn n_constraint_rows(&self) -> usize;
    /// Global index of the first multiplier; the $n_c$ multipliers are contiguous from it
    /// (the state length if there are none).
    fn first_multiplier(&self) -> usize;
    /// Global indices of the co-energy (velocity) variables $p$ of all bodies, body by body.
    fn velocity_indices(&self) -> Vec<usize>;
    /// Calls `f(i, j, v)` for every entry of the mass operator $M$ on the velocity
    /// variables, in global indices.
    fn for_each_mass_entry(&self, f: &mut dyn FnMut(usize, usize, f64));
    /// Calls `f(row, column, value)` for every entry of $G(x)$ (global columns).
    fn for_each_constraint_row_entry(&self, x: &[f64], f: &mut dyn FnMut(usize, usize, f64));
    /// `"joint[row]"` label of every constraint row.
    fn row_labels(&self) -> Vec<String>;
    /// True if constraint row `row` is released as redundant (not in $G$, multiplier 0).
    fn is_released_row(&self, row: usize) -> bool;
    /// Name of the joint owning constraint row `row`.
    fn joint_name_of_row(&self, row: usize) -> &str;
    /// Position residuals $\Phi$ of every joint, in joint order; `drivers` includes the
    /// targets of prescribed velocities.
    fn position_residuals(&self, x: &[f64], drivers: bool, out: &mut Vec<f64>);
    /// Position drift of every joint.
    fn joint_drifts(&self, x: &[f64]) -> Vec<JointDrift>;
    /// Resets the joint states (relative angles, driver targets) from the body poses.
    fn reset_joints(&self, x: &mut [f64]);
    /// Central-difference step for pose increment `c` of body `b` at `x`.
    fn pose_fd_step(&self, x: &[f64], b: usize, c: usize) -> f64;
    /// Applies the pose increment `dq` (length [`crate::body::Dimension::POSE_DOF`]) to body
    /// `b`, keeping a rotation a rotation.
    fn apply_pose_increment(&self, x: &mut [f64], b: usize, dq: &[f64]);
    /// Right-hand side $f(x, u)$ with the multipliers of `x` as reactions.
    fn rhs_of(&self, x: &[f64], u: &[f64], f: &mut [f64]);
}

/// $B_\lambda u$: the right-hand side of the velocity constraints $Gp = B_\lambda u$
/// (paper 000 eq. (46)) for the input `u`, from the rows of the input map `B` $= B(x)$ at
/// and after `first_multiplier`.
pub(crate) fn constraint_input(
    B: &SparseMat,
    first_multiplier: usize,
    n_rows: usize,
    u: &[f64],
) -> Vec<f64> {
    let mut g = vec![0.0; n_rows];
    for c in 0..B.ncols() {
        for (i, v) in col_iter(B, c) {
            if i >= first_multiplier {
                g[i - first_multiplier] += v * u[c];
            }
        }
    }
    g
}

/// The [`ConstrainedAssembly`] methods that the planar [`crate::Multibody`] and the spatial
/// [`crate::spatial::Multibody3d`] implement alike (they share the layout: `bodies`,
/// `body_off`, `joints`, `lam_off`, `n_rows` and the joint accessors); `$geometry` names the
/// method giving the port geometry of a joint.
macro_rules! shared_assembly_view {
    ($geometry:ident) => {
        fn n_constraint_rows(&self) -> usize {
            self.n_rows
        }
        fn first_multiplier(&self) -> usize {
            self.lam_off.first().copied().unwrap_or(self.n)
        }
        fn velocity_indices(&self) -> Vec<usize> {
            (0..self.body_count())
                .flat_map(|b| {
                    let body = self.floating_body(b);
                    let o = self.body_off[b] + body.n_q();
                    o..o + body.n_p()
                })
                .collect()
        }
        fn for_each_constraint_row_entry(&self, x: &[f64], f: &mut dyn FnMut(usize, usize, f64)) {
            self.for_each_constraint_entry(x, f)
        }
        fn row_labels(&self) -> Vec<String> {
            self.constraint_labels()
        }
        fn is_released_row(&self, row: usize) -> bool {
            let i = self.first_multiplier() + row;
            self.forces.released_multipliers.contains(&i)
        }
        fn joint_name_of_row(&self, row: usize) -> &str {
            &self.joints[self.joint_of_row(row)].name
        }
        fn position_residuals(&self, x: &[f64], drivers: bool, out: &mut Vec<f64>) {
            out.clear();
            for (k, j) in self.joints.iter().enumerate() {
                if drivers || j.n_inputs() == 0 {
                    let g = self.$geometry(k, x);
                    out.extend(j.position_residual(&g, &x[self.joint_state_range(k)]));
                }
            }
        }
        fn joint_drifts(&self, x: &[f64]) -> Vec<crate::planar::assembly::JointDrift> {
            self.position_drift(x)
        }
        fn reset_joints(&self, x: &mut [f64]) {
            self.reset_joint_states(x);
            self.forces.reset_lengths(self, x);
        }
        fn rhs_of(&self, x: &[f64], u: &[f64], f: &mut [f64]) {
            self.rhs(x, u, f)
        }
    };
}
pub(crate) use shared_assembly_view;

/// Inherent methods that the planar [`crate::Multibody`] and the spatial
/// [`crate::spatial::Multibody3d`] define alike over their common layout (`joints`, `n`,
/// `n_rows` and the range accessors); `$geometry` names the method giving the port geometry
/// of a joint.
macro_rules! shared_multibody_methods {
    ($geometry:ident) => {
        /// Number of state variables (bodies, joint states, multipliers).
        pub fn n(&self) -> usize {
            self.n
        }

        /// Total number of constraint rows (multipliers).
        pub fn n_constraints(&self) -> usize {
            self.n_rows
        }

        /// Joint names.
        pub fn joint_names(&self) -> Vec<String> {
            self.joints.iter().map(|j| j.name.clone()).collect()
        }

        /// Labels of the constraint rows of joint `j` (e.g. `["x", "y", "z", "n1", "n2"]`).
        pub fn joint_row_labels(&self, j: usize) -> &'static [&'static str] {
            self.joints[j].row_labels()
        }

        /// Index of a joint by name.
        pub fn joint_index(&self, name: &str) -> Result<usize, crate::error::MbsError> {
            self.joints
                .iter()
                .position(|j| j.name == name)
                .ok_or_else(|| crate::error::MbsError::UnknownName {
                    what: "joint".into(),
                    name: name.into(),
                    available: self.joint_names().join(", "),
                })
        }

        /// Range of the global state owned by body `b`.
        pub fn body_range(&self, b: usize) -> std::ops::Range<usize> {
            self.body_state_range(b)
        }

        /// Body names.
        pub fn body_names(&self) -> Vec<String> {
            self.names_of_bodies()
        }

        /// Index of a body by name.
        pub fn body_index(&self, name: &str) -> Result<usize, crate::error::MbsError> {
            self.find_body(name)
        }

        /// Energies of each body (kinetic, deformation, potential).
        pub fn energies(&self, x: &[f64]) -> Vec<(String, crate::body::EnergySplit)> {
            self.bodies_energies(x)
        }

        /// Initial state from the bodies' initial states (undeformed), joint states from the
        /// geometry, zero multipliers. Not necessarily consistent: see the consistent
        /// initialisation of [`crate::planar::kinematics`], [`crate::spatial::kinematics`].
        pub fn initial_state(&self) -> Vec<f64> {
            let mut x = vec![0.0; self.n];
            self.write_initial_body_states(&mut x);
            self.reset_joint_states(&mut x);
            self.forces.reset_lengths(self, &mut x);
            x
        }

        /// The force elements ([`crate::common::force_element`]).
        pub fn force_elements(&self) -> &crate::common::force_element::ForceElements {
            &self.forces
        }

        /// Largest difference of a force element's length state and the distance of its
        /// points at `x` \[m\] (zero along exact solutions with rigid bodies).
        pub fn force_length_drift(&self, x: &[f64]) -> f64 {
            self.forces.length_drift(self, x)
        }

        /// Length, rate, tension, stored energy and dissipated power of every force element
        /// at `x`, with its name.
        pub fn force_element_states(
            &self,
            x: &[f64],
        ) -> Vec<(String, crate::common::force_element::ElementState)> {
            let mut z = vec![0.0; self.n];
            phlex_core::PhSystem::effort(self, x, &mut z);
            (0..self.forces.len())
                .map(|e| {
                    (
                        self.forces.elements[e].name.clone(),
                        self.forces.report(self, e, x, &z),
                    )
                })
                .collect()
        }

        /// Multiplier (reaction) of joint `j`; see [`crate::planar::joint`] and
        /// [`crate::spatial::joint`] for its meaning and frame.
        pub fn reaction<'a>(&self, j: usize, x: &'a [f64]) -> &'a [f64] {
            &x[self.multiplier_range(j)]
        }

        /// Releases the constraint rows `rows` (indices among all rows, in joint order) as
        /// redundant ([`crate::common::rank::select_independent_rows`]): they are left out
        /// of $G$ and their multipliers are held at zero (a unit resistor,
        /// [`crate::common::force_element::ForceElements`]); their position residuals are
        /// still reported as drift, which re-checks that they stay satisfied.
        /// A row of a prescribed-velocity joint cannot be released (its input would
        /// enter the resistor): the error names it.
        pub(crate) fn release_rows(&mut self, rows: &[usize]) -> Result<(), crate::error::MbsError> {
            let lam0 = self.lam_off.first().copied().unwrap_or(self.n);
            let labels = self.constraint_labels();
            for &r in rows {
                let k = self.joint_of_row(r);
                if self.joints[k].n_inputs() > 0 {
                    return Err(crate::error::MbsError::InvalidJoint {
                        joint: self.joints[k].name.clone(),
                        reason: format!("its row {} is redundant, but a prescribed-velocity row cannot be released; remove a joint that constrains the same motion instead", labels[r]),
                    });
                }
                self.joints[k].released.push(r - (self.lam_off[k] - lam0));
                self.forces.released_multipliers.push(lam0 + r);
            }
            Ok(())
        }

        /// Labels `joint[row]` of the constraint rows released as redundant.
        pub fn released_rows(&self) -> Vec<String> {
            let labels = self.constraint_labels();
            let lam0 = self.lam_off.first().copied().unwrap_or(self.n);
            self.forces
                .released_multipliers
                .iter()
                .map(|&i| labels[i - lam0].clone())
                .collect()
        }

        /// Range of the multiplier block of joint `j`.
        pub fn multiplier_range(&self, j: usize) -> std::ops::Range<usize> {
            self.lam_off[j]..self.lam_off[j] + self.joints[j].n_rows()
        }

        /// Range of the energy-free states of joint `j` (relative angle, slide coordinate or
        /// target position, see the joint models; empty for other joints).
        pub fn joint_state_range(&self, j: usize) -> std::ops::Range<usize> {
            self.extra_off[j]..self.extra_off[j] + self.joints[j].n_extra()
        }

        /// Position-level violation of every joint, one component per constraint row (the
        /// drift of the velocity-level constraints, paper 000 Remark 9; the components are
        /// described with the joint models).
        pub fn position_drift(&self, x: &[f64]) -> Vec<crate::planar::assembly::JointDrift> {
            self.joints
                .iter()
                .enumerate()
                .map(|(k, j)| {
                    let g = self.$geometry(k, x);
                    let c = j.position_residual(&g, &x[self.joint_state_range(k)]);
                    let m = c.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                    crate::planar::assembly::JointDrift {
                        joint: j.name.clone(),
                        components: c,
                        max_abs: m,
                    }
                })
                .collect()
        }

        /// Largest position-level violation over all joints.
        pub fn max_position_drift(&self, x: &[f64]) -> f64 {
            self.position_drift(x)
                .iter()
                .fold(0.0, |m, d| m.max(d.max_abs))
        }

        /// The constraint matrix $G(x)$ ($n_c\times n$, columns over the global state).
        pub fn constraint_matrix(&self, x: &[f64]) -> phlex_core::sparse::SparseMat {
            let mut t = phlex_core::Triplets::new(self.n_rows, self.n);
            self.for_each_constraint_entry(x, |r, c, v| t.push(r, c, v));
            t.build()
        }

        /// Label `"joint[row]"` of every constraint row.
        pub fn constraint_labels(&self) -> Vec<String> {
            let mut l = Vec::with_capacity(self.n_rows);
            for j in &self.joints {
                for r in j.row_labels() {
                    l.push(format!("{}[{r}]", j.name));
                }
            }
            l
        }

        /// Joint owning constraint row `r`.
        pub(crate) fn joint_of_row(&self, r: usize) -> usize {
            let mut acc = 0;
            for (k, j) in self.joints.iter().enumerate() {
                acc += j.n_rows();
                if r < acc {
                    return k;
                }
            }
            self.joints.len().saturating_sub(1)
        }

        /// The efforts of the joint states (0: they carry no energy) and of the multipliers
        /// ($z_\lambda = \lambda$) into `z`.
        pub(crate) fn joint_efforts(&self, x: &[f64], z: &mut [f64]) {
            for k in 0..self.joints.len() {
                for i in self.joint_state_range(k) {
                    z[i] = 0.0;
                }
                for i in self.multiplier_range(k) {
                    z[i] = x[i];
                }
            }
        }

        /// Pushes the input columns of the prescribed-velocity joints into $B$: input $i$
        /// of a driven joint enters its multiplier row $i$ ($Gp = v$, paper 000 eq. (46))
        /// and, where the joint has a target state $i$, its rate $\dot\xi_i = v_i$ (all
        /// components in the plane, the translations in space).
        pub(crate) fn push_joint_inputs(&self, t: &mut phlex_core::Triplets) {
            for (k, j) in self.joints.iter().enumerate() {
                let c0 = self.joint_in[k];
                for i in 0..j.n_inputs() {
                    t.push(self.lam_off[k] + i, c0 + i, 1.0);
                    if i < j.n_extra() {
                        t.push(self.extra_off[k] + i, c0 + i, 1.0);
                    }
                }
            }
        }

        /// Evaluates the right-hand side $f(x, u) = J(x)z(x) + B(x)u$ into `f`.
        pub fn rhs(&self, x: &[f64], u: &[f64], f: &mut [f64]) {
            let mut z = vec![0.0; self.n];
            self.effort(x, &mut z);
            self.rhs_with_effort(x, &z, u, f);
        }

        /// True if some body has deformation-dependent inertia
        /// ([`crate::FloatingBeam2d::full_inertia`], [`crate::FloatingBeam3d::full_inertia`]):
        /// the descriptor then depends on the state.
        pub fn has_full_inertia(&self) -> bool {
            self.any_full_inertia()
        }

        /// Discrete increment of a midpoint step $x_0\to x_1$
        /// ([`phlex_core::PhSystem::step_increment`]): $E(x_1 - x_0)$, with the momentum
        /// increments $\pi(x_1) - \pi(x_0)$ of eq. (F4) in the rows of bodies with full
        /// inertia.
        pub fn step_increment(&self, x0: &[f64], x1: &[f64], out: &mut [f64]) {
            crate::common::descriptor::step_increment(self, x0, x1, out)
        }

        /// Constant mass matrix for Radau ([`phlex_core::PhSystem::constant_mass`]): $E$,
        /// with the identity in the velocity blocks of bodies with full inertia.
        pub fn constant_mass(&self) -> phlex_core::sparse::SparseMat {
            crate::common::descriptor::constant_mass(self)
        }

        /// $F(x)$ of the constant-mass form ([`Self::constant_mass`]): in the velocity rows of
        /// a body with full inertia $F_v = M_{vv}(u_f)^{-1}(f_v - \Gamma)$,
        /// $\Gamma = \partial_{u_f}\pi_v\,v_f$ (from $E(x)\dot x = f$ with $\dot u_f = v_f$).
        pub fn to_constant_mass_rhs(&self, x: &[f64], f: &mut [f64]) {
            crate::common::descriptor::to_constant_mass_rhs(self, x, f)
        }

        /// Approximate Jacobian of $F$ ([`Self::to_constant_mass_rhs`]):
        /// $M_{vv}^{-1}\big(\partial f_v - \partial_{u_f}\pi_v\,\partial v_f -
        /// \partial_{u_f}(M_{vv}a)\big)$ with $a = F_v$ in the velocity rows of bodies with
        /// full inertia (the second derivatives of $\pi$ in $\Gamma$ are neglected; this only
        /// affects the convergence rate of Radau's simplified Newton iterations).
        pub fn to_constant_mass_jacobian(
            &self,
            x: &[f64],
            f: &[f64],
            jac: phlex_core::sparse::SparseMat,
        ) -> phlex_core::sparse::SparseMat {
            crate::common::descriptor::to_constant_mass_jacobian(self, x, f, jac)
        }
    };
}
pub(crate) use shared_multibody_methods;

/// [`PhSystem`] methods that the planar and the spatial assembly implement alike:
/// dimensions, ports, blocks, $H$, $z$, $E(x)$, $J(x)$ from `push_structure`, $\partial_x z$
/// (the bodies' blocks, zero in the joint states, the identity in the multipliers), and the
/// delegations to the inherent methods of the same name (right-hand side, exact Jacobian,
/// drift, the full-inertia step and constant-mass form).
///
/// A macro rather than a blanket implementation: [`PhSystem`] is a foreign trait, so the
/// orphan rule forbids `impl<A: SomeLocalTrait> PhSystem for A`.
macro_rules! shared_phdae_methods {
    () => {
        fn n_states(&self) -> usize {
            self.n
        }
        fn ports(&self) -> &phlex_core::PortSet {
            &self.ports
        }
        fn blocks(&self) -> &[phlex_core::VarBlock] {
            &self.blocks
        }
        /// $H = \sum_b H_b + \sum_e V_e$ (joint states and multipliers carry no energy).
        fn hamiltonian(&self, x: &[f64]) -> f64 {
            self.bodies_hamiltonian(x) + self.forces.energy(x)
        }
        /// The bodies' efforts, 0 in the joint states, the force elements' tensions
        /// $F_e(\ell_e)$, $z_\lambda = \lambda$.
        fn effort(&self, x: &[f64], z: &mut [f64]) {
            self.bodies_effort(x, z);
            self.joint_efforts(x, z);
            self.forces.effort(x, z);
        }
        /// $R(x) = \sum_e d_e c_e c_e^\top$ of the dampers
        /// ([`crate::common::force_element`]).
        fn dissipation(&self, x: &[f64]) -> phlex_core::sparse::SparseMat {
            self.forces.dissipation(self, x, self.n)
        }
        /// $E$; with bodies of full inertia their state-dependent blocks (eq. (F3) of
        /// [`crate::body::planar::full_inertia`], [`crate::body::spatial::full_inertia`]).
        fn descriptor(&self, x: &[f64]) -> phlex_core::sparse::SparseMat {
            if x.len() != self.n || !self.has_full_inertia() {
                return self.E.clone();
            }
            let mut t = phlex_core::Triplets::new(self.n, self.n);
            self.push_body_descriptors(x, &mut t);
            for (j, o) in self.joints.iter().zip(&self.extra_off) {
                for k in 0..j.n_extra() {
                    t.push(o + k, o + k, 1.0);
                }
            }
            self.forces.push_descriptor(&mut t);
            t.build()
        }
        fn structure(&self, x: &[f64]) -> phlex_core::sparse::SparseMat {
            let mut t = phlex_core::Triplets::new(self.n, self.n);
            self.push_structure(x, &mut t);
            t.build()
        }
        /// $(J(x) - R(x))z + B(x)u$ (the inherent `rhs_with_effort`).
        fn rhs_with_effort(&self, x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
            Self::rhs_with_effort(self, x, z, u, f)
        }
        fn rhs_jacobian(&self, x: &[f64], u: &[f64]) -> phlex_core::sparse::SparseMat {
            Self::rhs_jacobian(self, x, u)
        }
        fn max_position_drift(&self, x: &[f64]) -> f64 {
            Self::max_position_drift(self, x)
        }
        fn has_projection(&self) -> bool {
            true
        }
        fn state_dependent_descriptor(&self) -> bool {
            self.has_full_inertia()
        }
        fn step_increment(&self, x0: &[f64], x1: &[f64], out: &mut [f64]) {
            Self::step_increment(self, x0, x1, out)
        }
        fn step_rhs(
            &self,
            x0: &[f64],
            x1: &[f64],
            xm: &[f64],
            z: &[f64],
            u: &[f64],
            f: &mut [f64],
        ) {
            Self::rhs_discrete(self, x0, x1, xm, z, u, f)
        }
        fn constant_mass(&self) -> phlex_core::sparse::SparseMat {
            Self::constant_mass(self)
        }
        fn to_constant_mass_rhs(&self, x: &[f64], f: &mut [f64]) {
            Self::to_constant_mass_rhs(self, x, f)
        }
        fn to_constant_mass_jacobian(
            &self,
            x: &[f64],
            f: &[f64],
            jac: phlex_core::sparse::SparseMat,
        ) -> phlex_core::sparse::SparseMat {
            Self::to_constant_mass_jacobian(self, x, f, jac)
        }
        fn effort_jacobian(&self, x: &[f64]) -> phlex_core::sparse::SparseMat {
            let mut t = phlex_core::Triplets::new(self.n, self.n);
            self.push_body_effort_jacobians(x, &mut t);
            self.forces.push_effort_jacobian(&mut t);
            for k in 0..self.joints.len() {
                for i in self.multiplier_range(k) {
                    t.push(i, i, 1.0);
                }
            }
            t.build()
        }
    };
}
pub(crate) use shared_phdae_methods;
