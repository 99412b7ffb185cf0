//! The dimension-generic core shared by the planar layer ([`crate::planar::assembly`],
//! [`crate::planar::builder`], [`crate::planar::kinematics`], [`crate::planar::redundancy`]) and the spatial layer
//! ([`crate::spatial`]): the algorithms are written once over the
//! [`ConstrainedAssembly`](assembly::ConstrainedAssembly) view of an assembled index-2
//! pHDAE (paper 000 eq. (46)) and instantiated for 2D and 3D.
//!
//! | module | what | paper 000 |
//! |---|---|---|
//! | [`bodies`] | `BodyAssembly`: the per-body loops (names, $H$, $z$, $E$, $\partial_x z$, initial state) over [`crate::body::FloatingBody`] | (46) |
//! | [`assembly`] | `ConstrainedAssembly`: constraint rows $G(x)$, mass operator on $p$, pose increments | eqs. (44)–(46) |
//! | [`descriptor`] | full inertia: discrete increment, discrete efforts, constant-mass form | (F3)–(F5) |
//! | [`force_element`] | spring-dampers as pH components: own length state, $J$ and $R$ blocks through the point velocities | (45) |
//! | [`layout`] | global state and port layout: bodies, joint states, multipliers; loads, drivers | (46) |
//! | [`least_squares`] | minimum-norm least squares by SVD | |
//! | [`pose_newton`] | Gauss–Newton on the body poses, $\Delta q = -\Phi_q^{+}\Phi$ | §6.3, Remark 9 |
//! | [`consistent_init`] | the three stages of consistent initial conditions | §6.3 |
//! | [`rank`] | rank-revealing check of the constraint rows | |
//! | [`names`] | the builders' name resolution: bodies, ports, ground points | |
pub(crate) mod assembly;
pub(crate) mod bodies;
pub(crate) mod consistent_init;
pub(crate) mod descriptor;
pub(crate) mod force_element;
pub(crate) mod layout;
pub(crate) mod least_squares;
pub(crate) mod names;
pub(crate) mod pose_newton;
pub(crate) mod rank;
