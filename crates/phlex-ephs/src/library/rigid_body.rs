//! The rigid body of seed 001 §4 (Fig. 2, eqs. (16)–(22)) on $G = SE(3)$.
//!
//! Pattern (Fig. 2): junction `q` = {pe.q, pkc.q}, quantity $(SE(3), \text{pose})$;
//! junction `p` = {pkc.p, ke.p, lp.p, outer port p}, quantity $(\mathfrak{se}(3)^*, \text{momentum})$.
//!
//! | box | kind | equations (left-trivialized port variables, see [`crate::language::space`]) |
//! |---|---|---|
//! | ke | storage | $E = \tfrac12p_\omega^\top J^{-1}p_\omega + \tfrac1{2m}p_\nu^\top p_\nu$, $e = (J^{-1}p_\omega, p_\nu/m) = u$ (eq. (18)) |
//! | pe | storage | $V(q) = m\,g\cdot r$ (eq. (17)), $e = T^*_eL_q\mathrm dV = (0, mR^\top g)$ (eq. (20)) |
//! | pkc | reversible | $[q.f; p.f] = [[0, -1], [1, 0]][q.e; p.e]$, i.e. eq. (21) $[[0, -T_eL_q], [T^*_eL_q, 0]]$ after trivialization |
//! | lp | reversible | $p.f = -\mathrm{ad}^*_{p.e}(p.x)$ (eq. (19)) |
//!
//! Assembled (eq. (22)): $\dot q = T_eL_q(u)$, $\dot p = \mathrm{ad}^*_u p - T^*_eL_q(\mathrm dV) + p.f$.
//! The gravity covector $g$ points *up* (summary pitfall 13): $g = (0, 0, 9.81)$ makes the
//! body fall along $-e_z$.
use std::sync::Arc;

use phlex_core::geometry::mat3::{cross, dot, mat_t_vec, mat_vec, Mat3, Vec3};
use phlex_core::geometry::se3::ad_star_matrix_in_u;
use phlex_core::geometry::{InertiaTensor, Se3};

use crate::error::EphsError;
use crate::language::interface::{Interface, PortKind};
use crate::language::operators::{ConstantMatrix, Energy, MatrixFn};
use crate::language::pattern::Pattern;
use crate::language::primitive::Primitive;
use crate::language::quantity::Quantity;
use crate::language::system::Composite;

/// Kinetic energy of a rigid body in body momenta (seed 001 eq. (18)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyKineticEnergy {
    /// Mass $m > 0$.
    pub m: f64,
    /// $J^{-1}$ (inverse inertia about the centre of mass, body frame).
    pub J_inv: Mat3,
}

impl Energy for BodyKineticEnergy {
    fn energy(&self, x: &[f64]) -> f64 {
        let pw = [x[0], x[1], x[2]];
        let pv = [x[3], x[4], x[5]];
        0.5 * dot(pw, mat_vec(&self.J_inv, pw)) + 0.5 * dot(pv, pv) / self.m
    }
    fn differential(&self, x: &[f64], e: &mut [f64]) {
        let w = mat_vec(&self.J_inv, [x[0], x[1], x[2]]);
        e[..3].copy_from_slice(&w);
        for k in 3..6 {
            e[k] = x[k] / self.m;
        }
    }
}

/// Gravity potential $V(q) = m\,g\cdot r$ (seed 001 eq. (17)) with body effort
/// $T^*_eL_q(0, mg) = (0, mR^\top g)$ (eq. (20), summary §2 torque formula).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GravityPotential {
    /// Mass.
    pub m: f64,
    /// Gravity covector $g$ in the inertial basis (pointing up).
    pub g: Vec3,
}

impl Energy for GravityPotential {
    fn energy(&self, x: &[f64]) -> f64 {
        self.m * dot(self.g, [x[9], x[10], x[11]])
    }
    fn differential(&self, x: &[f64], e: &mut [f64]) {
        let q = Se3::from_coords(x);
        let f = mat_t_vec(&q.R, self.g);
        e[..3].iter_mut().for_each(|v| *v = 0.0);
        for k in 0..3 {
            e[3 + k] = self.m * f[k];
        }
    }
    /// The potential depends on the position only. For the retraction of
    /// [`crate::language::Space::retract`], $r_1 - r_0 = R_0(E + \tfrac12\tilde v_\omega)v_\nu$
    /// (see [`Se3::cayley_retraction`]), so
    /// $\bar e = (0,\ m(E + \tfrac12\tilde v_\omega)^\top R_0^\top g)$ pairs with $v$ to
    /// $V(x_1) - V(x_0)$ exactly and equals $\mathrm dV(x_{1/2}) = (0, mR_{1/2}^\top g)$ up to
    /// $O(|v|^2)$. Its rotational part is 0: gravity exerts no torque about the centre of
    /// mass in the discrete scheme either, so a symmetric top keeps its spin exactly.
    fn discrete_gradient(&self, x0: &[f64], v: &[f64], e: &mut [f64]) -> bool {
        let q = Se3::from_coords(x0);
        let Rg = mat_t_vec(&q.R, self.g);
        // (E + ½ w̃)ᵀ a = a − ½ w × a.
        let w = [v[0], v[1], v[2]];
        let c = cross(w, Rg);
        e[..3].iter_mut().for_each(|x| *x = 0.0);
        for k in 0..3 {
            e[3 + k] = self.m * (Rg[k] - 0.5 * c[k]);
        }
        true
    }
}

/// Storage `ke` with port `p` $(\mathfrak{se}(3)^*, \text{momentum})$.
pub fn body_kinetic_energy(m: f64, J: Mat3) -> Result<Primitive, EphsError> {
    if !(m > 0.0 && m.is_finite()) {
        return Err(EphsError::Parameter {
            what: "mass".into(),
            detail: format!("the mass must satisfy 0 < mass < ∞ (got {m})"),
        });
    }
    // The one inertia rule of phlex_core::geometry::inertia, plus invertibility (J⁻¹ above).
    let J_inv = InertiaTensor::new(&J)
        .and_then(|J| J.inverse())
        .map_err(|e| EphsError::Parameter {
            what: "inertia".into(),
            detail: e.to_string(),
        })?;
    Primitive::storage(
        &format!("body_kinetic_energy(m = {m})"),
        Interface::new().power("p", Quantity::body_momentum())?,
        Arc::new(BodyKineticEnergy { m, J_inv }),
    )
}

/// Storage `pe` with port `q` $(SE(3), \text{pose})$ and $V = m\,g\cdot r$.
pub fn gravity_potential(m: f64, g: Vec3) -> Result<Primitive, EphsError> {
    Primitive::storage(
        &format!("gravity_potential(m = {m}, g = {g:?})"),
        Interface::new().power("q", Quantity::pose())?,
        Arc::new(GravityPotential { m, g }),
    )
}

/// Storage `pe` with port `q` $(SE(3), \text{pose})$ and a user potential $V(q)$ whose
/// differential is left-trivialized ($T^*_eL_q\mathrm dV$, 6 numbers).
pub fn pose_potential(description: &str, energy: Arc<dyn Energy>) -> Result<Primitive, EphsError> {
    Primitive::storage(
        description,
        Interface::new().power("q", Quantity::pose())?,
        energy,
    )
}

/// Reversible `pkc` (eq. (21)) with ports `q` (pose) and `p` (body momentum):
/// $[q.f; p.f] = [[0, -I_6], [I_6, 0]][q.e; p.e]$ in left-trivialized variables.
pub fn body_pkc() -> Result<Primitive, EphsError> {
    let mut J = vec![0.0; 144];
    for k in 0..6 {
        J[k * 12 + 6 + k] = -1.0;
        J[(6 + k) * 12 + k] = 1.0;
    }
    Primitive::poisson(
        "pkc_se3",
        Interface::new()
            .power("q", Quantity::pose())?
            .power("p", Quantity::body_momentum())?,
        Arc::new(ConstantMatrix::new(12, J)),
        &[],
    )
}

/// Reversible `lp` (Lie–Poisson, eq. (19)): $p.f = -\mathrm{ad}^*_{p.e}(p.x) = -K(p.x)\,p.e$
/// with the skew $K$ of [`ad_star_matrix_in_u`]; it reads the momentum state.
pub fn lie_poisson() -> Result<Primitive, EphsError> {
    Primitive::poisson(
        "lie_poisson_se3",
        Interface::new().power("p", Quantity::body_momentum())?,
        Arc::new(MatrixFn {
            rows: 6,
            f: Arc::new(|x: &[f64], J: &mut [f64]| {
                let K = ad_star_matrix_in_u(&[x[0], x[1], x[2], x[3], x[4], x[5]]);
                for i in 0..6 {
                    for j in 0..6 {
                        J[i * 6 + j] = -K[i][j];
                    }
                }
            }),
        }),
        &["p"],
    )
}

/// The pattern of Fig. 2 (boxes pe, ke, pkc, lp; outer port p).
pub fn rigid_body_pattern() -> Result<Pattern, EphsError> {
    let mut p = Pattern::new("body");
    p.add_junction("q", Quantity::pose())?;
    p.add_junction("p", Quantity::body_momentum())?;
    p.expose("p", "p", PortKind::Power)?;
    let iq = Interface::new().power("q", Quantity::pose())?;
    let ip = Interface::new().power("p", Quantity::body_momentum())?;
    let iqp = Interface::new()
        .power("q", Quantity::pose())?
        .power("p", Quantity::body_momentum())?;
    p.add_box("pe", iq, &[("q", "q")])?;
    p.add_box("ke", ip.clone(), &[("p", "p")])?;
    p.add_box("pkc", iqp, &[("q", "q"), ("p", "p")])?;
    p.add_box("lp", ip, &[("p", "p")])?;
    Ok(p)
}

/// A rigid body of mass `m`, inertia `J` (body frame, centre of mass) under gravity
/// covector `g` (use `[0.0; 3]` for none).
pub fn rigid_body(m: f64, J: Mat3, g: Vec3) -> Result<Composite, EphsError> {
    let mut c = Composite::new(rigid_body_pattern()?)?;
    c.fill("pe", gravity_potential(m, g)?)?
        .fill("ke", body_kinetic_energy(m, J)?)?
        .fill("pkc", body_pkc()?)?
        .fill("lp", lie_poisson()?)?;
    Ok(c)
}

/// Ground: a fixed frame, i.e. an infinitely heavy body at rest at the identity. A
/// storage with zero energy on $(\mathfrak{se}(3)^*, \text{momentum})$: its effort (the
/// velocity) is 0, its state accumulates the reaction impulse. Attach a joint's `p1` to
/// it to fix the joint frame $C_1 = o_1$ in space (summary pitfall 14).
pub fn ground() -> Result<Primitive, EphsError> {
    Primitive::storage(
        "ground",
        Interface::new().power("p", Quantity::body_momentum())?,
        Arc::new(crate::language::operators::ZeroEnergy),
    )
}

/// Body momentum $p = (J\omega, m\nu)$ for a body velocity $u = (\omega, \nu)$ (Legendre map).
pub fn body_momentum(m: f64, J: &Mat3, omega: Vec3, nu: Vec3) -> [f64; 6] {
    let pw = mat_vec(J, omega);
    [pw[0], pw[1], pw[2], m * nu[0], m * nu[1], m * nu[2]]
}

/// Spatial momentum $\mathrm{Ad}^*_{q^{-1}}p = (Rp_\omega + r\times Rp_\nu,\ Rp_\nu)$ of a body
/// with pose coordinates `q` (12 numbers) and body momentum `p` (summary §2).
pub fn spatial_momentum(q: &[f64], p: &[f64]) -> [f64; 6] {
    Se3::from_coords(q).Ad_inv_star(&[p[0], p[1], p[2], p[3], p[4], p[5]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use phlex_core::geometry::mat3::{diagonal, IDENTITY3};

    #[test]
    fn body_primitives_verify_and_efforts_match_energies() {
        lie_poisson()
            .unwrap()
            .verify_structure(
                &[0.3, -1.0, 2.0, 0.5, 0.1, -0.7],
                &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                300.0,
                1e-14,
            )
            .unwrap();
        let mut x = [0.0; 18];
        Se3::exp(&[0.1, 0.2, 0.3, 1.0, 2.0, 3.0]).to_coords(&mut x[..12]);
        body_pkc()
            .unwrap()
            .verify_structure(&x, &[1.0; 12], 300.0, 0.0)
            .unwrap();
        // Gravity effort equals the finite-difference derivative of V along q exp(t u).
        let g = GravityPotential {
            m: 2.0,
            g: [0.0, 0.0, 9.81],
        };
        let q = Se3::exp(&[0.4, -0.3, 0.2, 1.0, -2.0, 0.5]);
        let mut xq = [0.0; 12];
        q.to_coords(&mut xq);
        let mut e = [0.0; 6];
        g.differential(&xq, &mut e);
        let u = [0.3, 0.1, -0.2, 0.5, 0.7, -0.4];
        let h = 1e-6;
        let (mut a, mut b) = ([0.0; 12], [0.0; 12]);
        q.mul(&Se3::exp(&u.map(|v| v * h))).to_coords(&mut a);
        q.mul(&Se3::exp(&u.map(|v| -v * h))).to_coords(&mut b);
        let fd = (g.energy(&a) - g.energy(&b)) / (2.0 * h);
        let ex: f64 = e.iter().zip(&u).map(|(p, q)| p * q).sum();
        assert!((fd - ex).abs() < 1e-8, "{fd} {ex}");
        assert!(
            body_kinetic_energy(1.0, [[1.0, 2.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]).is_err()
        );
        assert!(body_kinetic_energy(-1.0, IDENTITY3).is_err());
        // The inertia rule of phlex_core::geometry::inertia: invertible but not positive
        // definite, and positive but violating the triangle inequality.
        for (d, needle) in [
            ([-0.004, 0.004, 0.002], "semidefinite"),
            ([1.0, 1.0, 3.0], "triangle"),
        ] {
            let e = body_kinetic_energy(1.0, diagonal(d))
                .unwrap_err()
                .to_string();
            assert!(e.contains("inertia") && e.contains(needle), "{e}");
        }
    }

    #[test]
    fn gravity_discrete_gradient_pairs_exactly_and_is_second_order() {
        use crate::language::space::{Group, Space};
        let g = GravityPotential {
            m: 1.3,
            g: [0.0, 0.0, 9.81],
        };
        let sp = Space::Group(Group::Se3);
        let mut x0 = [0.0; 12];
        Se3::exp(&[0.4, -0.3, 0.2, 1.0, -2.0, 0.5]).to_coords(&mut x0);
        let mut prev = f64::NAN;
        for h in [1e-1, 5e-2] {
            let v = [0.3, -0.7, 0.5, 0.4, 0.1, -0.6].map(|a| a * h);
            let (mut x1, mut xm) = ([0.0; 12], [0.0; 12]);
            sp.retract(&x0, &v, &mut x1);
            sp.retract(&x0, &v.map(|a| 0.5 * a), &mut xm);
            let mut e = [0.0; 6];
            assert!(g.discrete_gradient(&x0, &v, &mut e));
            let pairing: f64 = e.iter().zip(&v).map(|(a, b)| a * b).sum();
            // Exact pairing with the energy change (round-off of |V| ≈ 6).
            assert!((pairing - (g.energy(&x1) - g.energy(&x0))).abs() < 1e-14);
            // No torque, and O(h²) from the midpoint differential.
            assert_eq!(&e[..3], &[0.0; 3]);
            let mut em = [0.0; 6];
            g.differential(&xm, &mut em);
            let d = (0..6).fold(0.0f64, |m, k| m.max((e[k] - em[k]).abs()));
            if prev.is_finite() {
                // Halving h divides the difference by 4 (second order).
                assert!((prev / d - 4.0).abs() < 0.2, "{prev} {d}");
            }
            prev = d;
        }
    }
}
