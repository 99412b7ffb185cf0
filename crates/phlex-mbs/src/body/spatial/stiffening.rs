//! Geometric (stress) stiffening of the spatial floating beam: the von Kármán axial strain in
//! both bending planes (paper 000 Remark 3, §4.3 in 3D; issue 3), the spatial counterpart of
//! [`crate::body::planar::stiffening`] and built on its element kernel ([`crate::VonKarman`]).
//!
//! **Strain.** The linear floating-frame beam of [`crate::FloatingBeam3d`] has
//! $\varepsilon = \partial_x u_x$: an axial force does not change the bending stiffness. With
//! [`crate::FloatingBeam3d::geometric_stiffening`] the axial strain is the moderate-rotation
//! (von Kármán) one
//! $$\varepsilon = \partial_x u_x + \tfrac12\big((\partial_x u_y)^2 + (\partial_x u_z)^2\big),$$
//! which stiffens both bending planes under any tensile normal force (centrifugal, joint
//! reactions, end loads) and softens them under compression.
//!
//! **pH form.** The normal force $n_x = EA\,\varepsilon$ stays a co-energy variable with the
//! compliance $1/EA$, and $H_{def} = \frac12\int n_x^2/EA + m_x^2/GJ + m_z^2/EI_z + m_y^2/EI_y$
//! is unchanged. In velocity form
//! $\dot\varepsilon = \partial_x v_x + u_y'\,\partial_x v_y + u_z'\,\partial_x v_z$, so
//! $$\frac1{EA}\dot n_x = \partial_x v_x + u_y'\partial_x v_y + u_z'\partial_x v_z ,\qquad
//!   \rho A\,\dot v_y = \dots + \partial_x(n_x u_y'),\qquad
//!   \rho A\,\dot v_z = \dots + \partial_x(n_x u_z') ,$$
//! i.e. the interconnection operator gains two state-dependent skew pairs. With the
//! spaces of [`crate::FloatingBeam3d`] (normal force DG0 $\chi_i$, bending velocities
//! Hermite $\psi_j$ in each plane):
//! $$D_{nl}^y(u_f)_{ij} = \int_0^L \chi_i\,\partial_x u_{y,h}\,\partial_x\psi_j\,\mathrm dx,\qquad
//!   D_{nl}^z(u_f)_{ij} = \int_0^L \chi_i\,\partial_x u_{z,h}\,\partial_x\psi_j\,\mathrm dx,$$
//! $$J[n_x, v_y] \mathrel{+}= D_{nl}^y,\quad J[n_x, v_z] \mathrel{+}= D_{nl}^z,\quad
//!   J[v_y, n_x] \mathrel{-}= (D_{nl}^y)^\top,\quad J[v_z, n_x] \mathrel{-}= (D_{nl}^z)^\top$$
//! (exact with 3 Gauss points per element). $J$ stays skew-symmetric at every state, so
//! $\dot H = y^\top u$ and the discrete energy balance of the midpoint / discrete-gradient
//! scheme are kept, with the constant mass operator and with the deformation-dependent one
//! ([`crate::FloatingBeam3d::full_inertia`]: the pairs sit in the $(v_f, \sigma)$ block, which
//! the momentum form leaves untouched). The terms $-(D_{nl}^{y})^\top n = -K_G(n)\,u_y$ and
//! $-(D_{nl}^{z})^\top n = -K_G(n)\,u_z$ in the bending equations are the classical geometric
//! stiffness $K_G(n) = \sum_i n_i K_i$, $K_i = \int_{e_i}\psi'\psi'^\top$, the same matrix in
//! both planes; there is no mixed term $u_y'u_z'$, so the planes do not couple through it.
//!
//! **Jacobian.** The exact Newton matrix ([`phlex_core::PhSystem::rhs_jacobian`],
//! [`crate::spatial::SpatialBody::push_rhs_jacobian`]) contains
//! $\partial_{u_f}(D_{nl}(u_f)v_f)_i = \sum_b K_i[\cdot,b]\,v_b$ in the normal-force rows and
//! $-K_G(n)$ in the $v_y$ and $v_z$ rows (columns $u_y$ resp. $u_z$), per plane.
//!
//! **Energy.** The stored $\frac12\int n_x^2/EA$ is $\frac12\int EA(u_x' + \frac12u_y'^2 +
//! \frac12u_z'^2)^2$ up to the DG0 projection; [`FloatingBody::energies`](crate::body::FloatingBody::energies)
//! (`deformation`) includes it automatically.
//!
//! **Neglected** (the von Kármán beam): the $\frac12(\partial_xu_x)^2$ term; the
//! torsion–bending coupling of the second-order strain, i.e. the Wagner (trapeze) term
//! $\frac12(y^2+z^2)(\partial_x\theta_x)^2$ of the fibre strain, which would let the normal
//! force stiffen torsion ($n_x I_p/A$), and the second-order rotation terms through which
//! bending moments and the torque enter the geometric stiffness (lateral–torsional
//! buckling); the geometric stiffness is that of the normal force alone. Shear deformation
//! and the rotary inertia of bending are neglected as in [`crate::FloatingBeam3d`].
//!
//! **Validation** (`tests/geometric_stiffening_3d.rs`): $J$ skew and the exact Jacobian
//! against central differences at generic states (constant and full inertia); a
//! pinned–pinned beam under an axial load $N$ has
//! $\omega_1^2(N) - \omega_1^2(0) = (\pi/L)^2N/\rho A$ in both bending planes; motions in the
//! $xy$ plane reproduce the stiffened [`crate::FloatingBeam2d`]; the Simo–Vu-Quoc spin-up with
//! full inertia diverges without stiffening and peaks at the planar value with it, about
//! $z$ and about $y$; the discrete energy balance with a driving input.
use phlex_fem::{FemError, Space1d};

use crate::body::floating_beam::spatial::BeamShapes3d;
use crate::body::planar::stiffening::VonKarman;

/// The von Kármán coupling $D_{nl}^y + D_{nl}^z$ of a spatial beam with the spaces `shapes`
/// and the normal-force space `normal` (DG0, the first block of $\sigma$); `n_f`, `n_s` are
/// the numbers of elastic and stress coefficients of the body.
pub(crate) fn von_karman_3d(
    shapes: &BeamShapes3d,
    normal: &Space1d,
    n_f: usize,
    n_s: usize,
) -> Result<VonKarman, FemError> {
    let [_, _, o_y, o_z] = shapes.offsets();
    let map = shapes.hermite_map();
    let plane = |o: usize| -> Vec<Option<usize>> { map.iter().map(|k| k.map(|k| o + k)).collect() };
    let (y, z) = (plane(o_y), plane(o_z));
    VonKarman::with_planes(normal, shapes.hermite_space(), &[&y, &z], n_f, n_s)
}
