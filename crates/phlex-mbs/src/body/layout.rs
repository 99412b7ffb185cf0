//! The local state layout and the ports of a floating body, written once for the planar and
//! the spatial body cores ([`super::planar::floating_body`], [`super::spatial::floating_body`]).
//!
//! **Local state** (paper 000 eq. (36), the planar and spatial forms alike):
//! $x = (q, p)$ with the configuration $q = (\text{pose}, u_f)$ and the co-energy
//! variables $p = (\text{twist}, v_f, \sigma)$; the descriptor is
//! $E = \operatorname{diag}(I_{n_q}, M)$ (constant mass operator). The pose is
//! $({}^ir_P, \theta)$ in the plane and $({}^ir_P, R_v)$ in space, the twist $(v_P, \omega)$
//! in the body frame; only these blocks differ between the dimensions.
//!
//! **Ports** (eq. (39)): one power port per named body point, force and torque in the body
//! frame as input, the conjugate velocity and angular velocity as output.
use phlex_core::sparse::{self, SparseMat};
use phlex_core::{Port, PortSet, Triplets, VarBlock};

use crate::error::MbsError;

/// A variable block of the local state: (name suffix, meaning, length).
pub(crate) type BlockSpec = (&'static str, &'static str, usize);

/// Pose blocks of a planar body: ${}^ir_P$ and $\theta$.
pub(crate) const PLANAR_POSE: [BlockSpec; 2] = [
    ("r", "position of P, inertial frame [m]", 2),
    ("theta", "body angle [rad]", 1),
];

/// Twist block of a planar body: $(v_P, \omega)$ in the body frame.
pub(crate) const PLANAR_TWIST: [BlockSpec; 1] = [(
    "v",
    "velocity of P in the body frame and angular velocity [m/s, rad/s]",
    3,
)];

/// Pose blocks of a spatial body: ${}^ir_P$ and the rows $R_v$ of $R$.
pub(crate) const SPATIAL_POSE: [BlockSpec; 2] = [
    ("r", "position of P, inertial frame [m]", 3),
    ("R_v", "rows of the rotation matrix R (body to inertial)", 9),
];

/// Twist blocks of a spatial body: $v_P$ and $\omega$ in the body frame.
pub(crate) const SPATIAL_TWIST: [BlockSpec; 2] = [
    ("v", "velocity of P, body frame [m/s]", 3),
    ("omega", "angular velocity, body frame [rad/s]", 3),
];

/// Names and meanings of the elastic blocks $u_f$, $v_f$, $\sigma$ of a body without its
/// own (a rigid body, or a beam without its own names).
pub(crate) const ELASTIC_NAMES: [(&str, &str); 3] = [
    ("u", "elastic displacement"),
    ("vf", "elastic velocity"),
    ("sigma", "stress"),
];

/// The variable blocks of the local state of body `name`: the `pose` blocks, $u_f$ ($n_f$),
/// the `twist` blocks, $v_f$ ($n_f$) and $\sigma$ ($n_\sigma$), the elastic ones named by
/// `names` and left out when empty.
pub(crate) fn variable_blocks(
    name: &str,
    pose: &[BlockSpec],
    twist: &[BlockSpec],
    names: [(&str, &str); 3],
    n_f: usize,
    n_s: usize,
) -> Vec<VarBlock> {
    let block = |b: &BlockSpec| VarBlock::differential(format!("{name}.{}", b.0), b.1, b.2);
    let elastic = |k: usize, n: usize| {
        (n > 0).then(|| VarBlock::differential(format!("{name}.{}", names[k].0), names[k].1, n))
    };
    let mut blocks: Vec<VarBlock> = pose.iter().map(block).collect();
    blocks.extend(elastic(0, n_f));
    blocks.extend(twist.iter().map(block));
    blocks.extend(elastic(1, n_f));
    blocks.extend(elastic(2, n_s));
    blocks
}

/// The port set of body `name`: one port of `dim` components per entry
/// (port name, input meaning, output meaning). A repeated port name is an error naming the
/// body and all its ports.
pub(crate) fn port_set(
    name: &str,
    dim: usize,
    ports: Vec<(String, String, String)>,
) -> Result<PortSet, MbsError> {
    let list = ports
        .iter()
        .map(|(n, _, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let ports = ports
        .into_iter()
        .map(|(n, input, output)| Port::new(n, dim, input, output))
        .collect();
    PortSet::from_ports(ports).map_err(|_| MbsError::DuplicateName {
        what: "port".into(),
        name: format!("{name}: {list}"),
    })
}

/// The constant descriptor $E = \operatorname{diag}(I_{n_q}, M)$ of eq. (36).
pub(crate) fn constant_descriptor(n_q: usize, M: &SparseMat) -> SparseMat {
    sparse::block_diag(&[&sparse::identity(n_q, 1.0), M])
}

/// An `n` × `n` local matrix assembled by `push` (the body's `push_*` methods at offset 0).
pub(crate) fn local_matrix(n: usize, push: impl FnOnce(&mut Triplets)) -> SparseMat {
    let mut t = Triplets::new(n, n);
    push(&mut t);
    t.build()
}

/// The quadratic energy $\frac12 p^\top M p$ of the co-energy variables split at `n_v`:
/// the entries with both indices below $n_v$ (twist and $v_f$: kinetic energy) and the rest
/// (the compliance block of $\sigma$: deformation energy), paper 000 eq. (37).
pub(crate) fn kinetic_and_deformation(M: &SparseMat, p: &[f64], n_v: usize) -> (f64, f64) {
    let mut kin = 0.0;
    let mut def = 0.0;
    for j in 0..M.ncols() {
        for (i, v) in sparse::col_iter(M, j) {
            let e = 0.5 * v * p[i] * p[j];
            if i < n_v && j < n_v {
                kin += e;
            } else {
                def += e;
            }
        }
    }
    (kin, def)
}

/// Pushes the descriptor of a body with full inertia (eq. (F3)) at offset `off`:
/// the identity on the `n_q` configuration rows, $M(u_f)$ from `push_mass` on the
/// co-energy block, $\partial_{u_f}\pi$ from `momentum_u` (entries $(i, j)$ of the momentum
/// row $i$ and the elastic coordinate $j$, placed at column `off + u_start + j`), and the
/// constant compliance block of $M$ (rows and columns from `n_v`) for the stresses.
#[allow(clippy::too_many_arguments)]
pub(crate) fn push_full_descriptor(
    t: &mut Triplets,
    off: usize,
    n_q: usize,
    u_start: usize,
    n_v: usize,
    M: &SparseMat,
    push_mass: impl FnOnce(&mut Triplets),
    momentum_u: impl FnOnce(&mut dyn FnMut(usize, usize, f64)),
) {
    for i in 0..n_q {
        t.push(off + i, off + i, 1.0);
    }
    push_mass(t);
    momentum_u(&mut |i, j, v| t.push(off + n_q + i, off + u_start + j, v));
    for j in n_v..M.ncols() {
        for (i, v) in sparse::col_iter(M, j) {
            if i >= n_v {
                t.push(off + n_q + i, off + n_q + j, v);
            }
        }
    }
}

/// The discrete increment of eq. (F4) of a local step $x_0 \to x_1$:
/// $(q_1 - q_0,\ \pi(x_1) - \pi(x_0))$ with the `n_q` configuration variables first and the
/// momenta $\pi$ = `momentum(x)` of the co-energy variables.
pub(crate) fn momentum_increment(
    n_q: usize,
    x0: &[f64],
    x1: &[f64],
    momentum: impl Fn(&[f64]) -> Vec<f64>,
    out: &mut [f64],
) {
    for i in 0..n_q {
        out[i] = x1[i] - x0[i];
    }
    let (m1, m0) = (momentum(x1), momentum(x0));
    for (k, (a, b)) in m1.iter().zip(&m0).enumerate() {
        out[n_q + k] = a - b;
    }
}
