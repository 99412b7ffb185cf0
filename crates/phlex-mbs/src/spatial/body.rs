//! [`SpatialBody`]: the contract between the spatial multibody assembly
//! (`Multibody3d`, module [`crate::spatial`]) and any floating body in 3D — the rigid body of
//! paper 000 Remark 4 ([`crate::RigidBody3dModel`]) or a floating flexible body (paper 000
//! eqs. (15), (36)–(41) in 3D).
//!
//! # State convention (required)
//! Every implementor stores its local state as
//! $$x = (q, p),\qquad q = ({}^ir_P,\ R_v,\ u_f),\qquad p = (v_P,\ \omega,\ v_f,\ \sigma),$$
//! with the layout
//!
//! | local indices | meaning |
//! |---|---|
//! | `0..3` | ${}^ir_P$: inertial position of the reference point $P$ \[m\] |
//! | `3..12` | $R_v = \mathrm{vec}(R^\top)$: the rows of the body-to-inertial rotation, $R_{ij}$ = `x[3 + 3 i + j]` |
//! | `12..n_q` | $u_f$: elastic coordinates (none for a rigid body) |
//! | `n_q..n_q+3` | $v_P$: velocity of $P$, **body frame** \[m/s\] |
//! | `n_q+3..n_q+6` | $\omega$: angular velocity, **body frame** \[rad/s\] |
//! | `n_q+6..n_local` | $v_f$, $\sigma$: elastic velocities, stress resultants |
//!
//! and is a quasilinear pH system with **constant** descriptor
//! $$E_b = \begin{bmatrix}I_{n_q} & 0\\ 0 & M\end{bmatrix},\qquad
//!   E_b\dot x = J_b(x)\,z(x) + \sum_k B_k u_k,\qquad
//!   z = \begin{pmatrix}\partial_q H\\ p\end{pmatrix},\qquad y_k = B_k^\top z,$$
//! $M$ symmetric positive definite on the velocities (the compliance block of $\sigma$ may
//! be included), $J_b(x) = -J_b(x)^\top$, and $\dot R = R[\omega]_\times$ among the rows of
//! $J_b$ (the $R_v$ rows read $\dot R_i = R_i\times\omega$, Remark 4). With this layout the
//! implicit midpoint rule updates $R$ by a Cayley transform, so $R^\top R = I$ is kept to
//! the Newton tolerance without re-orthonormalisation (see [`crate::body::rigid::spatial`]); the
//! assembly relies on the layout to read $R(x)$, to move poses during the consistent
//! initialisation (${}^ir_P \mathrel{+}= \delta r$, $R \leftarrow R\exp[\delta\phi]_\times$) and
//! for the exact Jacobian of the joint transformers (linear in the entries of $R$).
//!
//! Because $z_p = p$, the port outputs depend on the velocities only, and
//! $\partial z_p/\partial x = [0\ I]$.
//!
//! # Ports
//! A port $k$ is a material point of the body with a frame attached
//! ([`SpatialPort`]: attachment point and port-frame orientation, both in the body frame,
//! undeformed). Its power port has dimension 6: the input $u_k = (F, T)$ is the force and
//! torque applied at the point, **body-frame components**, and the output
//! $y_k = B_k^\top z$ is the body-frame velocity of the point and the body-frame angular
//! velocity of its material frame. For a rigid body
//! $y_k = (v_P + \omega\times a_k,\ \omega)$; for a floating-frame flexible body with the
//! small-deformation port maps of eq. (39), $y_k = (v_P + \omega\times a_k + N_k v_f,\
//! \omega + \Theta_k v_f)$. $B_k$ is constant ($n_{local}\times 6$, non-zero rows in the
//! $p$ range only). The joints of [`crate::spatial`] use the body rotation $R(x)$ to express
//! these outputs in the inertial frame (transformer interconnection, eq. (45) in 3D).
//!
//! # Importing
//! The trait and its supertrait [`FloatingBody`] are not re-exported at the crate root:
//! their method names (`effort`, `hamiltonian`, `blocks`, …) coincide with those of
//! [`phlex_core::PhSystem`], which bodies usually implement as well, and a glob import
//! `use phlex_mbs::*` would make such calls ambiguous. Import them as
//! `phlex_mbs::spatial::SpatialBody` and `phlex_mbs::body::FloatingBody` where needed, and
//! call through the trait (`FloatingBody::effort(&body, x, z)`) when both are in scope.
//!
//! # Gravity
//! [`SpatialBody::set_gravity`] sets the inertial gravity vector $\vec g$; the potential
//! $V = -\vec g\cdot\int\rho\,{}^ir\,\mathrm d\Omega$ (Remark 2) enters $H$ and $z_q$.
use phlex_core::geometry::mat3::{from_row_major, IDENTITY3};
use phlex_core::sparse::{self, SparseMat};
use phlex_core::Triplets;

use crate::body::floating_body::FloatingBody;

/// A named attachment point of a spatial body: a power port of dimension 6.
#[derive(Debug, Clone, PartialEq)]
pub struct SpatialPort {
    /// Port name, unique within the body.
    pub name: String,
    /// Attachment point $a_k$ relative to $P$, body frame, undeformed \[m\].
    pub position: [f64; 3],
    /// Orientation $C_k$ of the port frame in the body frame: its columns are the port axes
    /// (orthonormal, right-handed). Joint axes are given in this frame. Identity by default.
    pub orientation: [[f64; 3]; 3],
}

impl SpatialPort {
    /// A port at `position` whose frame is parallel to the body frame.
    pub fn new(name: impl Into<String>, position: [f64; 3]) -> Self {
        Self {
            name: name.into(),
            position,
            orientation: IDENTITY3,
        }
    }
}

/// Index of the first entry of $R_v$ in a local state.
pub const R_V_OFFSET: usize = 3;

/// $R$ stored in a local state following the convention ($R_{ij}$ = `x[3 + 3 i + j]`).
pub fn rotation_from_state(x: &[f64]) -> [[f64; 3]; 3] {
    from_row_major(&x[R_V_OFFSET..])
}

/// The pose part of $\partial({}^ir_P + Ra)/\partial x$ for a body-frame point $a$ and the
/// state convention ($R_{ij}$ = `x[3 + 3 i + j]`): $e_i$ for $r_i$ and $a_je_i$ for $R_{ij}$
/// (columns with $a_j = 0$ omitted), as `(state index, ∂/∂x)` pairs.
pub(crate) fn pose_point_jacobian(a: [f64; 3], capacity: usize) -> Vec<(usize, [f64; 3])> {
    let mut out = Vec::with_capacity(capacity);
    for i in 0..3 {
        let mut e = [0.0; 3];
        e[i] = 1.0;
        out.push((i, e));
    }
    for i in 0..3 {
        for j in 0..3 {
            if a[j] != 0.0 {
                let mut e = [0.0; 3];
                e[i] = a[j];
                out.push((R_V_OFFSET + 3 * i + j, e));
            }
        }
    }
    out
}

/// A floating body in 3D as a port-Hamiltonian system, as the spatial assembly needs it:
/// the dimension-free [`FloatingBody`] (state layout, descriptor, effort, structure,
/// Hamiltonian, ports by name, full-inertia operators) and what is truly 3D (rotation,
/// port geometry, gravity vector, the exact Jacobian of $J_b z$, port shifts).
///
/// Implementors follow the state convention of the [module documentation](self). All
/// methods taking a local state `x` expect `x.len() == n_local()`; port indices range over
/// `0..ports().len()` (they may panic otherwise — the assembly resolves ports by name with
/// [`FloatingBody::port_index`] first).
pub trait SpatialBody: FloatingBody {
    /// The ports, in order.
    fn ports(&self) -> &[SpatialPort];

    /// Port map $B_k$ ($n_{local}\times 6$, constant): $y_k = B_k^\top z$ is the body-frame
    /// velocity (components 0–2) and angular velocity (3–5) of port `k`; $B_k u_k$ applies
    /// the body-frame force (0–2) and torque (3–5) $u_k$ at the port.
    fn port_map(&self, k: usize) -> &SparseMat;

    /// Rotation $R(x)$ (body to inertial). Default: read from $R_v$.
    fn rotation(&self, x: &[f64]) -> [[f64; 3]; 3] {
        rotation_from_state(x)
    }

    /// Inertial position of port `k` (deformed) \[m\].
    fn port_position(&self, k: usize, x: &[f64]) -> [f64; 3];

    /// Partial derivatives $\partial\,{}^ir_k/\partial x_i$ of [`SpatialBody::port_position`]
    /// as `(local index i, derivative)` for every configuration state it depends on.
    /// Default: central differences over `0..n_q` (step $10^{-6}(1 + |x_i|)$), exact for
    /// positions affine in each single coordinate, as ${}^ir_P + R(a_k + N_k u_f)$ is.
    fn port_position_jacobian(&self, k: usize, x: &[f64]) -> Vec<(usize, [f64; 3])> {
        let mut xp = x.to_vec();
        let mut out = Vec::new();
        for i in 0..self.n_q() {
            let h = 1e-6 * (1.0 + x[i].abs());
            xp[i] = x[i] + h;
            let a = self.port_position(k, &xp);
            xp[i] = x[i] - h;
            let b = self.port_position(k, &xp);
            xp[i] = x[i];
            let d = [
                (a[0] - b[0]) / (2.0 * h),
                (a[1] - b[1]) / (2.0 * h),
                (a[2] - b[2]) / (2.0 * h),
            ];
            if d != [0.0; 3] {
                out.push((i, d));
            }
        }
        out
    }

    /// Inertial orientation of the material frame of port `k` (columns: port axes in the
    /// inertial frame): $R(x)\,C_k$ for a rigid body, including the elastic rotation of the
    /// point for a flexible one (then orthogonal to first order in the deformation). Used
    /// for position-level drift reports.
    fn port_rotation(&self, k: usize, x: &[f64]) -> [[f64; 3]; 3];

    /// $f = J_b(x)\,z$ for a given effort `z` (no inputs), overwriting `f` (length
    /// $n_{local}$). Default: through [`FloatingBody::push_structure`]; implementors may
    /// override it with a matrix-free product.
    fn rhs(&self, x: &[f64], z: &[f64], f: &mut [f64]) {
        let n = self.n_local();
        let mut t = Triplets::new(n, n);
        self.push_structure(x, &mut t, 0);
        f.iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(f, 1.0, &t.build(), z);
    }

    /// Pushes the **exact** Jacobian $\partial_x\big(J_b(x)\,z(x)\big)$ at rows and columns
    /// offset by `off` (including $J_b\,\partial_x z$; duplicates are summed).
    fn push_rhs_jacobian(&self, x: &[f64], t: &mut Triplets, off: usize);

    /// Sets the inertial gravity vector \[m/s²\].
    fn set_gravity(&mut self, g: [f64; 3]);

    /// Discrete $f = J_b z$ of a midpoint step `x0 → x1` with midpoint `xm` (eq. (F4): with
    /// full inertia the gyroscopic blocks use the average momenta
    /// $(\pi(x_0) + \pi(x_1))/2$); default [`SpatialBody::rhs`] at `xm`.
    fn rhs_discrete(&self, x0: &[f64], x1: &[f64], xm: &[f64], z: &[f64], f: &mut [f64]) {
        let _ = (x0, x1);
        self.rhs(xm, z, f)
    }

    /// Pushes $\partial f_h/\partial x_m$ of [`SpatialBody::rhs_discrete`] with the discrete
    /// effort [`FloatingBody::discrete_effort_local`] of the step `x0 → x1` (midpoint `xm`,
    /// $x_1 = 2x_m - x_0$) at offset `off`; default [`SpatialBody::push_rhs_jacobian`] at `xm`.
    fn push_rhs_jacobian_discrete(
        &self,
        x0: &[f64],
        x1: &[f64],
        xm: &[f64],
        t: &mut Triplets,
        off: usize,
    ) {
        let _ = (x0, x1);
        self.push_rhs_jacobian(xm, t, off)
    }

    /// With full inertia, the elastic displacement $N_ku_f$ of port `k` (body frame): the
    /// port's transport term is $\omega\times(a_k + N_ku_f)$ and a force $F$ there has the
    /// moment $(a_k + N_ku_f)\times F$ about $P$, on top of the constant
    /// [`SpatialBody::port_map`]. `None` (default) for the constant operator.
    fn port_shift(&self, k: usize, x: &[f64]) -> Option<[f64; 3]> {
        let _ = (k, x);
        None
    }

    /// $\partial(N_ku_f)/\partial u_j$ as `(local state index of u_j, N_k e_j)` (full
    /// inertia only; default none).
    fn port_shift_jacobian(&self, k: usize) -> Vec<(usize, [f64; 3])> {
        let _ = k;
        Vec::new()
    }
}

/// A body *description* (parameters) that validates itself and builds its
/// [`SpatialBody`] model; what `MultibodyBuilder3d::add_body` (module [`crate::spatial`]) accepts
/// (like [`crate::Body::build`] in the planar layer). Gravity is set afterwards by the
/// builder through [`SpatialBody::set_gravity`].
pub trait SpatialBodySpec: std::fmt::Debug {
    /// Validates the parameters and builds the model of body `name`; bad parameters are
    /// [`crate::MbsError::InvalidBodyParameter`] naming the body and the parameter.
    fn build_spatial(&self, name: &str) -> Result<Box<dyn SpatialBody>, crate::MbsError>;

    /// Short kind name, e.g. `"rigid body 3d"`.
    fn kind(&self) -> &'static str;
}
