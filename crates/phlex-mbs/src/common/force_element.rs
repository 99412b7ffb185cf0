//! Force elements as port-Hamiltonian components, written once for the planar
//! [`crate::Multibody`] and the spatial [`crate::spatial::Multibody3d`]: the translational
//! spring-damper between two body points (or a body point and a ground point), and the
//! rotational spring-damper about an axis between the frames of two body points (or a body
//! point and the ground), e.g. a torsion spring on a hinge.
//!
//! A spring-damper $e$ owns one energy state, its length $\ell_e$ \[m\], and is
//! interconnected to the bodies through the velocity of its two end points along the line
//! of action $n = (r_B - r_A)/|r_B - r_A|$:
//! $$\dot\ell = n^\top(v_B - v_A) = c(x)^\top z,$$
//! where $c(x)$ collects the port-map columns of the two points ($v$ is a port output,
//! paper 000 eq. (45)). With the stored energy and the dissipation
//! $$V(\ell) = \tfrac12 k(\ell - L_0)^2 + F_0(\ell - L_0),\qquad
//!   F = V'(\ell) = k(\ell - L_0) + F_0,\qquad P_d = d\,\dot\ell^2 ,$$
//! (stiffness $k \ge 0$ \[N/m\], rest length $L_0$ \[m\], preload $F_0$ \[N\], damping
//! $d \ge 0$ \[N s/m\]) the element adds to the assembled pHDAE
//! $$J \mathrel{+}= \begin{bmatrix}0 & -c\\ c^\top & 0\end{bmatrix},\qquad
//!   R \mathrel{+}= d\,c\,c^\top,\qquad H \mathrel{+}= V(\ell),\qquad z_\ell = F,$$
//! so the tension $F + d\dot\ell$ pulls the points together, $J$ stays skew and $R$
//! symmetric positive semidefinite, and the power balance $\dot H = y^\top u - z^\top Rz$
//! stays exact: the spring's energy is in $H$, the damper's loss in the dissipated energy.
//!
//! A rotational spring-damper is the same component with the angle $\varphi$ \[rad\] of the
//! frame of A relative to that of B about the axis $n$ (fixed in body A) as its state,
//! $\dot\varphi = n^\top(\omega_A - \omega_B) = c(x)^\top z$, $\varphi(0) = 0$ in the
//! initial configuration, $V(\varphi) = \tfrac12 k(\varphi - \varphi_0)^2 + T_0(\varphi -
//! \varphi_0)$ ($k$ \[N m/rad\], $d$ \[N m s/rad\], preload torque $T_0$ \[N m\]): the
//! torque $T = V'(\varphi) + d\dot\varphi$ turns A back towards $\varphi_0$.
//!
//! $\ell$ is the element's own state (like the relative angle of a revolute joint), so the
//! balance holds for flexible bodies too, whose point positions are not functions of the
//! energy variables; for rigid bodies $\ell = |r_B - r_A|$ along exact solutions
//! ([`ForceElements::length_drift`] reports the difference).
use phlex_core::sparse::SparseMat;
use phlex_core::Triplets;

use crate::error::MbsError;

/// A spring-damper between two body points, as a builder collects it (names resolved at
/// build time; `body_b = GROUND` makes `port_b` a ground point): translational along the
/// line between the points ([`SpringDamper::new`]) or rotational about an axis
/// ([`SpringDamper::rotational`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SpringDamper {
    /// First body.
    pub body_a: String,
    /// Port (point) of the first body.
    pub port_a: String,
    /// Second body, or [`crate::GROUND`].
    pub body_b: String,
    /// Port of the second body, or a ground point.
    pub port_b: String,
    /// `None`: translational; `Some(n)`: rotational about the axis `n` (inertial
    /// components in the initial configuration, then fixed in body A; planar models use
    /// only its z component, whose sign orients the angle).
    pub axis: Option<[f64; 3]>,
    /// Stiffness $k \ge 0$ \[N/m\] or \[N m/rad\].
    pub stiffness: f64,
    /// Damping $d \ge 0$ \[N s/m\] or \[N m s/rad\].
    pub damping: f64,
    /// Rest length $L_0 \ge 0$ \[m\] (`None`: the initial distance of the points) or rest
    /// angle $\varphi_0$ \[rad\] from the initial configuration (`None`: 0).
    pub rest_length: Option<f64>,
    /// Preload $F_0$ \[N\] (tension at rest length, positive pulls the points together) or
    /// torque $T_0$ \[N m\] at the rest angle.
    pub preload: f64,
}

impl SpringDamper {
    /// A spring-damper from `body_a.port_a` to `body_b.port_b` with no stiffness, damping or
    /// preload, rest length the initial distance.
    pub fn new(
        body_a: impl Into<String>,
        port_a: impl Into<String>,
        body_b: impl Into<String>,
        port_b: impl Into<String>,
    ) -> Self {
        Self {
            body_a: body_a.into(),
            port_a: port_a.into(),
            body_b: body_b.into(),
            port_b: port_b.into(),
            axis: None,
            stiffness: 0.0,
            damping: 0.0,
            rest_length: None,
            preload: 0.0,
        }
    }

    /// A rotational spring-damper turning the frame of `body_a.port_a` relative to that of
    /// `body_b.port_b` about `axis` (inertial components in the initial configuration,
    /// then fixed in body A), with no stiffness, damping or preload, rest angle 0 (the
    /// initial configuration).
    pub fn rotational(
        body_a: impl Into<String>,
        port_a: impl Into<String>,
        body_b: impl Into<String>,
        port_b: impl Into<String>,
        axis: [f64; 3],
    ) -> Self {
        Self {
            axis: Some(axis),
            ..Self::new(body_a, port_a, body_b, port_b)
        }
    }

    /// Sets the rest angle \[rad\] of a rotational element (from the initial
    /// configuration).
    pub fn rest_angle(mut self, phi0: f64) -> Self {
        self.rest_length = Some(phi0);
        self
    }

    /// Sets the stiffness \[N/m\].
    pub fn stiffness(mut self, k: f64) -> Self {
        self.stiffness = k;
        self
    }

    /// Sets the damping \[N s/m\].
    pub fn damping(mut self, d: f64) -> Self {
        self.damping = d;
        self
    }

    /// Sets the rest length \[m\].
    pub fn rest_length(mut self, l0: f64) -> Self {
        self.rest_length = Some(l0);
        self
    }

    /// Sets the preload \[N\].
    pub fn preload(mut self, f0: f64) -> Self {
        self.preload = f0;
        self
    }

    /// Checks the parameters of element `name`.
    pub(crate) fn validate(&self, name: &str) -> Result<(), MbsError> {
        let bad = |reason: String| {
            Err(MbsError::InvalidForceElement {
                element: name.into(),
                reason,
            })
        };
        if !(self.stiffness.is_finite() && self.stiffness >= 0.0) {
            return bad(format!(
                "stiffness = {} must be finite and >= 0 [N/m]",
                self.stiffness
            ));
        }
        if !(self.damping.is_finite() && self.damping >= 0.0) {
            return bad(format!(
                "damping = {} must be finite and >= 0 [N s/m]",
                self.damping
            ));
        }
        match (self.rest_length, self.axis) {
            (Some(l0), None) if !(l0.is_finite() && l0 >= 0.0) => {
                return bad(format!("rest_length = {l0} must be finite and >= 0 [m]"));
            }
            (Some(a0), Some(_)) if !a0.is_finite() => {
                return bad(format!("rest_angle = {a0} must be finite [rad]"));
            }
            _ => {}
        }
        if let Some(n) = self.axis {
            let norm = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            if !(norm.is_finite() && norm > 0.0) {
                return bad(format!("axis = {n:?} must be finite and non-zero"));
            }
        }
        if !self.preload.is_finite() {
            return bad(format!("preload = {} must be finite [N]", self.preload));
        }
        Ok(())
    }
}

/// One end of a resolved element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum End {
    /// `(body, port)`.
    Body(usize, usize),
    /// A ground point (inertial, padded to 3 components).
    Ground([f64; 3]),
}

/// A resolved spring-damper.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ForceModel {
    pub name: String,
    pub a: End,
    pub b: End,
    /// Rotational: the unit axis in the frame of body A.
    pub axis: Option<[f64; 3]>,
    pub stiffness: f64,
    pub damping: f64,
    pub rest_length: f64,
    pub preload: f64,
}

impl ForceModel {
    /// $V(\ell)$ \[J\].
    pub fn energy(&self, l: f64) -> f64 {
        let s = l - self.rest_length;
        0.5 * self.stiffness * s * s + self.preload * s
    }

    /// $F = V'(\ell)$ \[N\].
    pub fn force(&self, l: f64) -> f64 {
        self.stiffness * (l - self.rest_length) + self.preload
    }
}

/// What the force elements need of an assembly: inertial positions of body points and the
/// coefficients of their inertial velocities in the efforts.
pub(crate) trait PointKinematics {
    /// Inertial position of port `port` of body `b` (planar: third component 0) \[m\].
    fn point_position(&self, b: usize, port: usize, x: &[f64]) -> [f64; 3];
    /// Calls `f(i, c_i)` for the coefficients of $\mathrm{dir}^\top v$ in the efforts $z$
    /// ($\mathrm{dir}^\top v = \sum_i c_i z_i$, $v$ the inertial velocity of the point);
    /// an index may repeat (values add).
    fn for_each_velocity_coefficient(
        &self,
        b: usize,
        port: usize,
        x: &[f64],
        dir: [f64; 3],
        f: &mut dyn FnMut(usize, f64),
    );
    /// Inertial components of the vector `v` given in the frame of body `b` (planar: `v`).
    fn body_vector(&self, b: usize, v: [f64; 3], x: &[f64]) -> [f64; 3];
    /// Calls `f(i, c_i)` for the coefficients of $\mathrm{dir}^\top\omega$ in the efforts
    /// $z$ ($\omega$ the inertial angular velocity of the frame of the point; planar: only
    /// `dir[2]` counts); an index may repeat (values add).
    fn for_each_angular_velocity_coefficient(
        &self,
        b: usize,
        port: usize,
        x: &[f64],
        dir: [f64; 3],
        f: &mut dyn FnMut(usize, f64),
    );
    /// Global state indices on which the point positions of body `b` depend, besides those
    /// an assembly's own Jacobian already differentiates by finite differences.
    fn position_variables(&self, b: usize) -> std::ops::Range<usize>;
    /// True if the assembly's Jacobian already differentiates column `i` numerically
    /// through the whole right-hand side (the planar body angles).
    fn differentiated_elsewhere(&self, i: usize) -> bool;
}

/// The spring-dampers of an assembly: their models and the first of their states (one
/// length state each, contiguous, between the joint states and the multipliers); and the
/// multipliers of constraint rows released as redundant ([`crate::common::rank`]), each
/// held at zero by a unit resistor $R_{\lambda\lambda} = 1$ (its row $0 = -\lambda$ keeps
/// the Newton matrices regular; it dissipates $\lambda^2 = 0$).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ForceElements {
    pub(crate) elements: Vec<ForceModel>,
    pub(crate) offset: usize,
    pub(crate) released_multipliers: Vec<usize>,
}

/// A point-to-point distance below which the line of action is undefined \[m\].
const MIN_LENGTH: f64 = 1e-12;

impl ForceElements {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// Element names, in insertion order.
    pub fn names(&self) -> Vec<String> {
        self.elements.iter().map(|e| e.name.clone()).collect()
    }

    /// Global index of the length state of element `e`.
    pub fn state_index(&self, e: usize) -> usize {
        self.offset + e
    }

    /// Length $\ell$ \[m\], tension $F + d\dot\ell$ \[N\], stored energy $V$ \[J\] and
    /// dissipated power $d\dot\ell^2$ \[W\] of element `e` at state `x` with effort `z`.
    pub(crate) fn report(
        &self,
        asm: &dyn PointKinematics,
        e: usize,
        x: &[f64],
        z: &[f64],
    ) -> ElementState {
        let m = &self.elements[e];
        let l = x[self.state_index(e)];
        let rate = self.rate(asm, e, x, z);
        ElementState {
            length: l,
            rate,
            tension: m.force(l) + m.damping * rate,
            energy: m.energy(l),
            dissipation: m.damping * rate * rate,
        }
    }

    /// $\dot\ell = c^\top z$ of element `e`.
    fn rate(&self, asm: &dyn PointKinematics, e: usize, x: &[f64], z: &[f64]) -> f64 {
        let mut r = 0.0;
        self.for_each_row_entry(asm, e, x, &mut |i, c| r += c * z[i]);
        r
    }

    /// Position of an end at `x`.
    fn end_position(asm: &dyn PointKinematics, end: End, x: &[f64]) -> [f64; 3] {
        match end {
            End::Body(b, p) => asm.point_position(b, p, x),
            End::Ground(g) => g,
        }
    }

    /// Unit line of action $n$ from A to B at `x` (zero if the points coincide) and the
    /// distance.
    pub(crate) fn direction(
        &self,
        asm: &dyn PointKinematics,
        e: usize,
        x: &[f64],
    ) -> ([f64; 3], f64) {
        let m = &self.elements[e];
        let ra = Self::end_position(asm, m.a, x);
        let rb = Self::end_position(asm, m.b, x);
        let d = [rb[0] - ra[0], rb[1] - ra[1], rb[2] - ra[2]];
        let l = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        if l < MIN_LENGTH {
            return ([0.0; 3], l);
        }
        ([d[0] / l, d[1] / l, d[2] / l], l)
    }

    /// Calls `f(i, c_i)` for the row $c(x)$ of element `e` ($\dot\ell = c^\top z$, or
    /// $\dot\varphi = c^\top z$ for a rotational element).
    fn for_each_row_entry(
        &self,
        asm: &dyn PointKinematics,
        e: usize,
        x: &[f64],
        f: &mut dyn FnMut(usize, f64),
    ) {
        let m = &self.elements[e];
        if let Some(axis) = m.axis {
            // φ̇ = nᵀ(ω_A − ω_B), n = R_A axis.
            if let End::Body(b, p) = m.a {
                let n = asm.body_vector(b, axis, x);
                asm.for_each_angular_velocity_coefficient(b, p, x, n, f);
                if let End::Body(bb, pb) = m.b {
                    asm.for_each_angular_velocity_coefficient(bb, pb, x, [-n[0], -n[1], -n[2]], f);
                }
            }
            return;
        }
        let (n, _) = self.direction(asm, e, x);
        if let End::Body(b, p) = m.b {
            asm.for_each_velocity_coefficient(b, p, x, n, f);
        }
        if let End::Body(b, p) = m.a {
            asm.for_each_velocity_coefficient(b, p, x, [-n[0], -n[1], -n[2]], f);
        }
    }

    /// Writes the lengths of the translational elements at `x` (their distances) into
    /// their states (the angles of rotational elements are left as they are).
    pub(crate) fn reset_lengths(&self, asm: &dyn PointKinematics, x: &mut [f64]) {
        for e in self.translational() {
            let (_, l) = self.direction(asm, e, x);
            x[self.state_index(e)] = l;
        }
    }

    /// $\sum_e V_e(\ell_e)$ \[J\].
    pub(crate) fn energy(&self, x: &[f64]) -> f64 {
        self.elements
            .iter()
            .enumerate()
            .map(|(e, m)| m.energy(x[self.state_index(e)]))
            .sum()
    }

    /// Efforts $z_\ell = F(\ell)$.
    pub(crate) fn effort(&self, x: &[f64], z: &mut [f64]) {
        for (e, m) in self.elements.iter().enumerate() {
            let i = self.state_index(e);
            z[i] = m.force(x[i]);
        }
    }

    /// $\partial z_\ell/\partial\ell = k$.
    pub(crate) fn push_effort_jacobian(&self, t: &mut Triplets) {
        for (e, m) in self.elements.iter().enumerate() {
            let i = self.state_index(e);
            t.push(i, i, m.stiffness);
        }
    }

    /// The identity rows of $E$ of the length states.
    pub(crate) fn push_descriptor(&self, t: &mut Triplets) {
        for e in 0..self.len() {
            let i = self.state_index(e);
            t.push(i, i, 1.0);
        }
    }

    /// Pushes the elements' blocks of $J(x)$ (with `structure`) and `dissipation` times
    /// those of $R(x)$.
    fn push_blocks(
        &self,
        asm: &dyn PointKinematics,
        x: &[f64],
        t: &mut Triplets,
        structure: bool,
        dissipation: f64,
    ) {
        let mut row: Vec<(usize, f64)> = Vec::new();
        for (e, m) in self.elements.iter().enumerate() {
            row.clear();
            self.for_each_row_entry(asm, e, x, &mut |i, c| row.push((i, c)));
            let s = self.state_index(e);
            if structure {
                for &(i, c) in &row {
                    t.push(s, i, c);
                    t.push(i, s, -c);
                }
            }
            if m.damping != 0.0 && dissipation != 0.0 {
                for &(i, ci) in &row {
                    for &(j, cj) in &row {
                        t.push(i, j, dissipation * m.damping * ci * cj);
                    }
                }
            }
        }
        if dissipation != 0.0 {
            for &i in &self.released_multipliers {
                t.push(i, i, dissipation);
            }
        }
    }

    /// Pushes the elements' blocks of the structure matrix $J(x)$.
    pub(crate) fn push_structure(&self, asm: &dyn PointKinematics, x: &[f64], t: &mut Triplets) {
        self.push_blocks(asm, x, t, true, 0.0);
    }

    /// The elements' blocks of $J(x) - R(x)$ ($n\times n$).
    pub(crate) fn structure_minus_dissipation(
        &self,
        asm: &dyn PointKinematics,
        x: &[f64],
        n: usize,
    ) -> SparseMat {
        let mut t = Triplets::new(n, n);
        self.push_blocks(asm, x, &mut t, true, -1.0);
        t.build()
    }

    /// $R(x) = \sum_e d_e c_e c_e^\top$ ($n\times n$).
    pub(crate) fn dissipation(&self, asm: &dyn PointKinematics, x: &[f64], n: usize) -> SparseMat {
        let mut t = Triplets::new(n, n);
        self.push_blocks(asm, x, &mut t, false, 1.0);
        t.build()
    }

    /// True if some element has damping (or a released multiplier its resistor).
    pub(crate) fn has_damping(&self) -> bool {
        self.elements.iter().any(|m| m.damping != 0.0) || !self.released_multipliers.is_empty()
    }

    /// True if there are elements or released multipliers (terms in $J$, $R$ or $z$).
    pub(crate) fn has_terms(&self) -> bool {
        !self.elements.is_empty() || !self.released_multipliers.is_empty()
    }

    /// `f += (J_e(x) - R_e(x)) z` of the elements; with `structure = false` only $-R_e z$
    /// (for an assembly whose structure product already holds $J_e$).
    pub(crate) fn add_rhs(
        &self,
        asm: &dyn PointKinematics,
        x: &[f64],
        z: &[f64],
        f: &mut [f64],
        structure: bool,
    ) {
        // Two passes over the row c(x) (no scratch storage): the rate c^T z, then
        // f -= c (F + d c^T z).
        for (e, m) in self.elements.iter().enumerate() {
            let s = self.state_index(e);
            let rate = self.rate(asm, e, x, z);
            let force = if structure { z[s] } else { 0.0 };
            if structure {
                f[s] += rate;
            }
            let pull = force + m.damping * rate;
            self.for_each_row_entry(asm, e, x, &mut |i, c| f[i] -= c * pull);
        }
        for &i in &self.released_multipliers {
            f[i] -= z[i];
        }
    }

    /// Pushes into `t` the derivative, with respect to the positions of the bodies the
    /// elements connect, of $(J_e(x) - R_e(x))z$ at fixed `z` (the line of action $n(x)$ and
    /// the point velocities' coefficients), by central differences (step
    /// $10^{-6}(1 + |x_i|)$, error $\approx 10^{-10}$ relative). Columns an assembly
    /// differentiates elsewhere ([`PointKinematics::differentiated_elsewhere`]) are left out.
    pub(crate) fn push_geometry_jacobian(
        &self,
        asm: &dyn PointKinematics,
        x: &[f64],
        z: &[f64],
        t: &mut Triplets,
    ) {
        let mut cols: Vec<usize> = Vec::new();
        for m in &self.elements {
            for end in [m.a, m.b] {
                if let End::Body(b, _) = end {
                    cols.extend(asm.position_variables(b));
                }
            }
        }
        cols.sort_unstable();
        cols.dedup();
        let n = x.len();
        let mut xp = x.to_vec();
        let mut fp = vec![0.0; n];
        let mut fm = vec![0.0; n];
        for &c in cols.iter().filter(|&&c| !asm.differentiated_elsewhere(c)) {
            let h = 1e-6 * (1.0 + x[c].abs());
            fp.iter_mut().for_each(|v| *v = 0.0);
            fm.iter_mut().for_each(|v| *v = 0.0);
            xp[c] = x[c] + h;
            self.add_rhs(asm, &xp, z, &mut fp, true);
            xp[c] = x[c] - h;
            self.add_rhs(asm, &xp, z, &mut fm, true);
            xp[c] = x[c];
            for i in 0..n {
                let d = (fp[i] - fm[i]) / (2.0 * h);
                if d != 0.0 {
                    t.push(i, c, d);
                }
            }
        }
    }

    /// Indices of the translational elements.
    fn translational(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len()).filter(|&e| self.elements[e].axis.is_none())
    }

    /// True if element `e` is rotational.
    pub fn is_rotational(&self, e: usize) -> bool {
        self.elements[e].axis.is_some()
    }

    /// Largest $|\ell_e - |r_B - r_A||$ over the translational elements \[m\].
    pub(crate) fn length_drift(&self, asm: &dyn PointKinematics, x: &[f64]) -> f64 {
        self.translational()
            .map(|e| (x[self.state_index(e)] - self.direction(asm, e, x).1).abs())
            .fold(0.0, f64::max)
    }
}

/// The state of one element (see [`ForceElements::report`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElementState {
    /// Length $\ell$ \[m\] (rotational: angle $\varphi$ \[rad\]).
    pub length: f64,
    /// Rate $\dot\ell$ \[m/s\] (rotational: $\dot\varphi$ \[rad/s\]).
    pub rate: f64,
    /// Tension $F(\ell) + d\dot\ell$ \[N\] (positive pulls the points together;
    /// rotational: torque $T$ \[N m\], positive turns A back).
    pub tension: f64,
    /// Stored energy $V(\ell)$ \[J\].
    pub energy: f64,
    /// Dissipated power $d\dot\ell^2$ \[W\].
    pub dissipation: f64,
}

/// Resolves the builders' spring-dampers: `end` maps `(element name, body, port)` to an
/// [`End`]; `position(b, port)` is the inertial position of a body port in the initial
/// configuration (padded to 3 components), `to_body(b, v)` the components in the frame of
/// body `b` of an inertial vector `v` in the initial configuration.
pub(crate) fn resolve(
    specs: &[(String, SpringDamper)],
    mut end: impl FnMut(&str, &str, &str) -> Result<End, MbsError>,
    position: impl Fn(usize, usize) -> [f64; 3],
    to_body: impl Fn(usize, [f64; 3]) -> [f64; 3],
) -> Result<Vec<ForceModel>, MbsError> {
    let at = |e: End| match e {
        End::Body(b, p) => position(b, p),
        End::Ground(g) => g,
    };
    let mut out: Vec<ForceModel> = Vec::with_capacity(specs.len());
    for (name, s) in specs {
        if out.iter().any(|m| &m.name == name) {
            return Err(MbsError::DuplicateName {
                what: "force element".into(),
                name: name.clone(),
            });
        }
        s.validate(name)?;
        if s.body_a == crate::GROUND {
            return Err(MbsError::InvalidForceElement {
                element: name.clone(),
                reason: "body_a must be a body; put the ground on side b".into(),
            });
        }
        let a = end(name, &s.body_a, &s.port_a)?;
        let b = end(name, &s.body_b, &s.port_b)?;
        if let (Some(n), End::Body(ba, _)) = (s.axis, a) {
            let local = to_body(ba, n);
            let norm = (local[0] * local[0] + local[1] * local[1] + local[2] * local[2]).sqrt();
            out.push(ForceModel {
                name: name.clone(),
                a,
                b,
                axis: Some([local[0] / norm, local[1] / norm, local[2] / norm]),
                stiffness: s.stiffness,
                damping: s.damping,
                rest_length: s.rest_length.unwrap_or(0.0),
                preload: s.preload,
            });
            continue;
        }
        let (ra, rb) = (at(a), at(b));
        let l0 =
            ((rb[0] - ra[0]).powi(2) + (rb[1] - ra[1]).powi(2) + (rb[2] - ra[2]).powi(2)).sqrt();
        if l0 < MIN_LENGTH {
            return Err(MbsError::InvalidForceElement {
                element: name.clone(),
                reason: format!(
                    "its two points coincide in the initial configuration ({}.{} and {}.{}); the line of action is undefined: attach it to distinct points",
                    s.body_a, s.port_a, s.body_b, s.port_b
                ),
            });
        }
        out.push(ForceModel {
            name: name.clone(),
            a,
            b,
            axis: None,
            stiffness: s.stiffness,
            damping: s.damping,
            rest_length: s.rest_length.unwrap_or(l0),
            preload: s.preload,
        });
    }
    Ok(out)
}
