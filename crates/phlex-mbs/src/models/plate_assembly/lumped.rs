//! Lumped components as linear pH systems in co-energy variables (thesis 004 eqs. (10.4),
//! (10.16), (10.17)).
//!
//! * [`ProofMassActuator`] (eq. (10.16)): casing (mass $m_c$, inertias $J_c^{xx}, J_c^{yy}$)
//!   carrying a proof mass $m$ on a spring $k$ and damper $c$, states
//!   $x = (v_c, \omega_c^x, \omega_c^y, v, \Delta x)$,
//!   $E = \operatorname{diag}(m_c, J_c^{xx}, J_c^{yy}, m, k)$,
//!   $J_{0,4} = k$, $J_{3,4} = -k$ (and their negative transposes),
//!   $R = c\,(\mathbf e_0 - \mathbf e_3)(\mathbf e_0 - \mathbf e_3)^\top$, $B = [I_3; 0]$,
//!   i.e. $m_c\dot v_c = k\Delta x - c(v_c - v) + F$, $m\dot v = -k\Delta x + c(v_c - v)$,
//!   $\Delta\dot x = v - v_c$. The thesis prints the damping inside "$J$" with the sign
//!   $+c$ on the diagonal, which would inject energy; the dissipative reading $-R$ is used
//!   (the Table 10.6 frequencies take $c = 0$ anyway).
//! * [`RigidAttachment`] (eq. (10.17)): a rigid body attached at a point, $E$ = its
//!   $3\times3$ mass matrix in $(v, \omega^x, \omega^y)$ at the attachment point, $J = 0$,
//!   $B = I_3$; the mirror has $\begin{bmatrix} m & s^x & 0\\ s^x & J^{xx} & 0\\ 0 & 0 & J^{yy}\end{bmatrix}$.
//! * [`RigidRod`] (eq. (10.4)): $\operatorname{diag}(m, J_G)\,\tfrac{d}{dt}(v_G, \omega_G) = (F_z, T_x)$.
//!
//! Every component has one input port `u` with collocated output $y = B^\top x$ (the
//! velocities of the attachment).
use phlex_core::sparse::{self, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};

use super::{positive, PlateAssemblyError};

/// Proof-mass actuator (thesis 004 eq. (10.16), Table 10.6).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProofMassActuator {
    /// Casing mass $m_c$ \[kg\].
    pub casing_mass: f64,
    /// Casing inertia about $x$, $J_c^{xx}$ \[kg m²\].
    pub casing_jxx: f64,
    /// Casing inertia about $y$, $J_c^{yy}$ \[kg m²\].
    pub casing_jyy: f64,
    /// Proof (moving) mass $m$ \[kg\].
    pub proof_mass: f64,
    /// Spring stiffness $k$ \[N/m\].
    pub stiffness: f64,
    /// Damping $c \ge 0$ \[N s/m\] (0 in Table 10.6).
    pub damping: f64,
}

impl ProofMassActuator {
    /// The actuator of Table 10.6: $m = 23.6$ g, $m_c = 182.7$ g,
    /// $J_c^{xx} = J_c^{yy} = 0.3$ g m², $k = 1026$ N/m, $c = 0$.
    pub fn table_10_6() -> Self {
        Self {
            casing_mass: 0.1827,
            casing_jxx: 0.3e-3,
            casing_jyy: 0.3e-3,
            proof_mass: 0.0236,
            stiffness: 1026.0,
            damping: 0.0,
        }
    }

    /// Checks the parameters (`name` is used in the error).
    pub fn validate(&self, name: &str) -> Result<(), PlateAssemblyError> {
        positive(name, "casing_mass", self.casing_mass)?;
        positive(name, "casing_jxx", self.casing_jxx)?;
        positive(name, "casing_jyy", self.casing_jyy)?;
        positive(name, "proof_mass", self.proof_mass)?;
        positive(name, "stiffness", self.stiffness)?;
        if !(self.damping >= 0.0 && self.damping.is_finite()) {
            return Err(PlateAssemblyError::InvalidParameter {
                component: name.into(),
                parameter: "damping".into(),
                value: self.damping,
                requirement: "0 <= damping < inf".into(),
            });
        }
        Ok(())
    }

    /// Suspension frequency $\frac{1}{2\pi}\sqrt{k/m}$ of the proof mass on a fixed casing \[Hz\].
    pub fn suspension_frequency_hz(&self) -> f64 {
        (self.stiffness / self.proof_mass).sqrt() / (2.0 * std::f64::consts::PI)
    }

    /// The pH system: blocks `casing` (3), `proof_mass` (1), `spring` (1); port `u`.
    pub fn system(&self, name: &str) -> Result<LinearPhSystem, PlateAssemblyError> {
        self.validate(name)?;
        let (k, c) = (self.stiffness, self.damping);
        let mut E = Triplets::new(5, 5);
        for (i, v) in [
            self.casing_mass,
            self.casing_jxx,
            self.casing_jyy,
            self.proof_mass,
            k,
        ]
        .into_iter()
        .enumerate()
        {
            E.push(i, i, v);
        }
        let mut J = Triplets::new(5, 5);
        J.push(0, 4, k);
        J.push(4, 0, -k);
        J.push(3, 4, -k);
        J.push(4, 3, k);
        let mut R = Triplets::new(5, 5);
        if c > 0.0 {
            R.push(0, 0, c);
            R.push(0, 3, -c);
            R.push(3, 0, -c);
            R.push(3, 3, c);
        }
        let mut B = Triplets::new(5, 3);
        for i in 0..3 {
            B.push(i, i, 1.0);
        }
        Ok(LinearPhSystem::new(
            E.build(),
            J.build(),
            R.build(),
            B.build(),
            PortSet::from_ports(vec![attachment_port()])?,
            vec![
                VarBlock::differential(
                    "casing",
                    "casing velocity v_c and angular rates w_x, w_y [m/s, rad/s, rad/s]",
                    3,
                ),
                VarBlock::differential("proof_mass", "proof-mass velocity v [m/s]", 1),
                VarBlock::differential("spring", "spring elongation dx [m]", 1),
            ],
        )?)
    }
}

fn attachment_port() -> Port {
    Port::new(
        "u",
        3,
        "force F_z and torques T_x, T_y on the component [N, N m, N m]",
        "velocity v and angular rates w_x, w_y of the attachment [m/s, rad/s, rad/s]",
    )
}

/// A rigid body attached at a point: symmetric positive definite mass matrix in
/// $(v, \omega^x, \omega^y)$ of the attachment point (thesis 004 eq. (10.17)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RigidAttachment {
    /// Mass matrix \[kg, kg m, kg m²\].
    pub mass_matrix: [[f64; 3]; 3],
}

impl RigidAttachment {
    /// The mirror of eq. (10.17): $[[m, s^x, 0], [s^x, J^{xx}, 0], [0, 0, J^{yy}]]$.
    pub fn mirror(m: f64, sx: f64, jxx: f64, jyy: f64) -> Self {
        Self {
            mass_matrix: [[m, sx, 0.0], [sx, jxx, 0.0], [0.0, 0.0, jyy]],
        }
    }

    /// The mirror of Table 10.6: $m = 23.4$ g, $s^x = -0.338$ g m, $J^{xx} = 0.008$ g m²,
    /// $J^{yy} = 0.058$ g m².
    pub fn table_10_6_mirror() -> Self {
        Self::mirror(0.0234, -0.338e-3, 0.008e-3, 0.058e-3)
    }

    /// A point mass with rotary inertias (no static moment).
    pub fn point_mass(m: f64, jxx: f64, jyy: f64) -> Self {
        Self::mirror(m, 0.0, jxx, jyy)
    }

    /// Checks symmetry and positive definiteness (leading principal minors).
    pub fn validate(&self, name: &str) -> Result<(), PlateAssemblyError> {
        let M = &self.mass_matrix;
        for i in 0..3 {
            for j in 0..3 {
                if !M[i][j].is_finite()
                    || (M[i][j] - M[j][i]).abs() > 1e-14 * M[i][i].abs().max(M[j][j].abs())
                {
                    return Err(PlateAssemblyError::InvalidParameter {
                        component: name.into(),
                        parameter: format!("mass_matrix[{i}][{j}]"),
                        value: M[i][j],
                        requirement: format!(
                            "finite and symmetric (mass_matrix[{j}][{i}] = {})",
                            M[j][i]
                        ),
                    });
                }
            }
        }
        let d1 = M[0][0];
        let d2 = M[0][0] * M[1][1] - M[0][1] * M[1][0];
        let d3 = phlex_core::geometry::mat3::determinant(M);
        for (what, v) in [("m", d1), ("m J_xx - s^2", d2), ("det", d3)] {
            if v <= 0.0 {
                return Err(PlateAssemblyError::InvalidParameter {
                    component: name.into(),
                    parameter: format!("mass matrix minor {what}"),
                    value: v,
                    requirement: "> 0 (positive definite: |s_x| < sqrt(m J_xx))".into(),
                });
            }
        }
        Ok(())
    }

    /// The pH system: block `body` (3), port `u`.
    pub fn system(&self, name: &str) -> Result<LinearPhSystem, PlateAssemblyError> {
        self.validate(name)?;
        let mut E = Triplets::new(3, 3);
        let mut B = Triplets::new(3, 3);
        for i in 0..3 {
            B.push(i, i, 1.0);
            for j in 0..3 {
                if self.mass_matrix[i][j] != 0.0 {
                    E.push(i, j, self.mass_matrix[i][j]);
                }
            }
        }
        Ok(LinearPhSystem::new(
            E.build(),
            sparse::zeros(3, 3),
            sparse::zeros(3, 3),
            B.build(),
            PortSet::from_ports(vec![attachment_port()])?,
            vec![VarBlock::differential(
                "body",
                "velocity v and angular rates w_x, w_y at the attachment [m/s, rad/s, rad/s]",
                3,
            )],
        )?)
    }
}

/// Rigid rod undergoing heave $v_G$ and a small rotation $\omega_G$ about the in-plane axis
/// perpendicular to it (the rod tilts along its length; about $x$ for a rod along $y$)
/// (thesis 004 eq. (10.4)). Rotation about its own axis is not modelled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RigidRod {
    /// Mass $m$ \[kg\].
    pub mass: f64,
    /// Rotary inertia about the centre of mass, $J_G$ \[kg m²\].
    pub inertia: f64,
}

impl RigidRod {
    /// Uniform slender rod of mass `mass` and length `length`: $J_G = mL^2/12$ (Table 10.5
    /// does not state $J_G$; this is the uniform-rod value).
    pub fn uniform(mass: f64, length: f64) -> Self {
        Self {
            mass,
            inertia: mass * length * length / 12.0,
        }
    }

    /// The pH system: block `body` ($v_G, \omega_G$), port `u` ($F_z, T_x$).
    pub fn system(&self, name: &str) -> Result<LinearPhSystem, PlateAssemblyError> {
        positive(name, "mass", self.mass)?;
        positive(name, "inertia", self.inertia)?;
        let mut E = Triplets::new(2, 2);
        E.push(0, 0, self.mass);
        E.push(1, 1, self.inertia);
        Ok(LinearPhSystem::new(
            E.build(),
            sparse::zeros(2, 2),
            sparse::zeros(2, 2),
            sparse::identity(2, 1.0),
            PortSet::from_ports(vec![Port::new(
                "u",
                2,
                "force F_z and tilting torque T on the rod (T_x for a rod along y) [N, N m]",
                "heave velocity v_G and tilting rate w_G [m/s, rad/s]",
            )])?,
            vec![VarBlock::differential(
                "body",
                "heave velocity v_G and tilting rate w_G of the rod [m/s, rad/s]",
                2,
            )],
        )?)
    }
}

/// A lumped component attached at a point of the plate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LumpedComponent {
    /// Proof-mass actuator.
    Actuator(ProofMassActuator),
    /// Rigid body (mirror, point mass).
    Rigid(RigidAttachment),
}

impl LumpedComponent {
    /// The pH system of the component (port `u`, 3 inputs).
    pub fn system(&self, name: &str) -> Result<LinearPhSystem, PlateAssemblyError> {
        match self {
            Self::Actuator(a) => a.system(name),
            Self::Rigid(r) => r.system(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use phlex_core::structure::Tolerances;

    #[test]
    fn components_are_ph() {
        let mut a = ProofMassActuator::table_10_6();
        a.damping = 2.0;
        let s = a.system("a").unwrap();
        s.check(&Tolerances::default()).unwrap();
        // dissipation c (v_c − v)²
        let e = [1.0, 0.0, 0.0, 0.25, 0.0];
        assert!((s.dissipation(&e) - 2.0 * 0.75f64.powi(2)).abs() < 1e-14);
        RigidAttachment::table_10_6_mirror()
            .system("m")
            .unwrap()
            .check(&Tolerances::default())
            .unwrap();
        assert!(RigidAttachment::mirror(1.0, 2.0, 1.0, 1.0)
            .system("bad")
            .is_err());
        assert!(RigidRod {
            mass: -1.0,
            inertia: 1.0
        }
        .system("r")
        .is_err());
        // 1/(2π)√(1026/0.0236) = 33.18 Hz
        assert!((a.suspension_frequency_hz() - 33.185).abs() < 1e-2);
    }
}
