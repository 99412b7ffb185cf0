//! Spatial joints: power-preserving (transformer) interconnections of body ports in 3D
//! (paper 000 §5.1–5.2; "other kinds of lossless joints (prismatic, spherical) can be
//! modeled by appropriate interconnections", after eq. (48)).
//!
//! Every joint imposes velocity-level constraints $G(x)\,z = B_\lambda u$ on the port
//! outputs $y = B_k^\top z$ of the bodies it connects (body-frame velocity and angular
//! velocity of the port, [`crate::spatial::SpatialBody`]) and applies the reactions
//! $G(x)^\top\lambda$ through the same port maps, giving the quasilinear index-2 pHDAE (46)
//! ([`crate::spatial::Multibody3d`]); $\lambda$ is the block `"<joint>.lambda"`.
//!
//! | kind | file | rows | constraint | multiplier $\lambda$ |
//! |---|---|---|---|---|
//! | spherical | [`spherical`] | 3 | $R_b v_b - R_a v_a = 0$ | force on b, inertial |
//! | revolute | [`revolute`] | 5 | point rows + $n_k\cdot(\omega_b - Q(\theta)^\top\omega_a) = 0$ | force on b (inertial), torques about $n_{1,2}$ (frame b) |
//! | prismatic | [`prismatic`] | 5 | $\omega_b - q_0^\top\omega_a = 0$ + $n_k\cdot\dot d_a = 0$ | torque on b (frame b), forces along $n_{1,2}$ (frame a) |
//! | weld | [`weld`] | 6 | point rows + rotation lock | force on b (inertial), torque on b (frame b) |
//! | ground point / frame / revolute / prismatic | [`ground`] | 3 / 6 / 5 / 5 | body-frame rows on $y_a$ (constant) | ground reaction, body frame |
//! | prescribed velocity | [`prescribed`] | 3 or 6 | $R_a v_a = v(t)$ (and $\omega$) | driving force (and torque) |
//!
//! Notation: $R_a, R_b$ body rotations, $v, \omega$ the body-frame port outputs,
//! $q_0 = R_a^\top R_b$ at the initial state, axes and normals in the body frames.
//!
//! **Joint states** (paper eq. (44) in 3D). A revolute joint integrates its relative angle
//! $\dot\theta = e_b\cdot\omega_b - e_a\cdot\omega_a$ and uses it in the transformer
//! $Q(\theta) = q_0\exp(\theta\[e_b\]_\times)$ of the rotational rows; a prismatic joint
//! integrates its slide coordinate $s$; a prescribed velocity integrates the target
//! position. These states carry no energy ($\partial H = 0$), their rows $\Theta$ enter $J$
//! skew-symmetrically, and they are reported.
//!
//! **Exact discrete constraints.** With the midpoint rule, a body's port position moves by
//! $\Delta({}^ir_P + Ra) = hR_m(\bar v + \bar\omega\times a) = hR_m\bar y$ exactly (the rotation
//! update is the Cayley map, [`crate::body::rigid::spatial`]); since the point rows are written with
//! $R(x_m)$, spherical, weld and ground-point joints keep their points together to the Newton
//! tolerance (no drift), and the rotation locks keep the relative orientation exactly
//! (the Cayley map is equivariant: $\mathrm{cay}(q_0^\top\Omega q_0) = q_0^\top\mathrm{cay}(\Omega)q_0$).
//! The revolute and prismatic joints drift at $O(h^2)$ through their joint states.
//!
//! *Position-level residuals* ([`crate::spatial::Multibody3d::position_drift`]), one per row:
//! point separations ${}^ir_b - {}^ir_a$ \[m\]; rotation defects
//! $\mathrm{vee}(\tfrac12(Q - Q^\top))$ of the relative orientation with respect to its
//! reference \[rad, small-angle\]; axis misalignments $n_k\cdot(e_a\times R_a^\top R_b e_b)$;
//! distances from the slide line $n_k\cdot(d_a - d_0)$.
mod kind;
mod model;

pub mod ground;
pub mod prescribed;
pub mod prismatic;
pub mod revolute;
pub mod spherical;
pub mod weld;

pub use kind::{AxisFrame, Joint3d, JointKind3d};
pub(crate) use model::{Coef, Geometry, JointModel3d, Resolved3d, Side, Term};
