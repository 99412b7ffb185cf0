//! Planar rigid body: the $u_f \equiv 0$ case of the floating body (paper 000 Remark 4,
//! planar form), with the reference point $P$ not necessarily the centre of mass.
//!
//! | parameter | symbol | unit | requirement |
//! |---|---|---|---|
//! | `mass` | $m$ | kg | $m > 0$ |
//! | `inertia` | $J_G$, about the centre of mass | kg m² | $J_G \ge 0$ (0: point mass) |
//! | `com` | $c$, centre of mass in the body frame, relative to $P$ | m | finite |
//! | ports | attachment points $a$ in the body frame | m | unique names |
//!
//! Mass operator about $P$: $M = \begin{bmatrix} m & 0 & -m c_y\\ 0 & m & m c_x\\
//! -m c_y & m c_x & J_G + m|c|^2\end{bmatrix}$ (eq. (37) without elastic part); interconnection
//! $J$ and gravity potential as in [`crate::body::planar::floating_body`]. A point mass on a massless rod
//! (the pendulum) is `mass = m`, `inertia = 0`, `com = (L, 0)` with a port at $P$: $M$ is then
//! singular (no inertia about the mass itself) but positive definite on the motions left
//! by a hinge at $P$, which is all the DAE needs.
//!
//! ```
//! use phlex_mbs::{RigidBody2d, Pose2d};
//! use phlex_mbs::body::FloatingBody;
//! let bob = RigidBody2d::new(1.0, 0.0)
//!     .com([1.0, 0.0])
//!     .port("pivot", [0.0, 0.0])
//!     .pose(Pose2d::new(0.0, 0.0, 0.0));
//! let body = bob.build("bob")?;
//! assert_eq!(body.mass(), 1.0);
//! # Ok::<(), phlex_mbs::MbsError>(())
//! ```
use crate::body::lumped::LumpedMass;
use crate::body::planar::floating_body::{
    Gyroscopic, MassPoint, PlanarBody, PlanarPort, PointShape,
};
use crate::body::planar::pose::{Pose2d, Twist2d};
use crate::error::{
    require_finite, require_non_negative, require_positive, require_unique_ports, unknown_port,
    MbsError,
};

/// Parameters of a planar rigid body (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct RigidBody2d {
    /// Mass $m$ \[kg\].
    pub mass: f64,
    /// Rotary inertia about the centre of mass $J_G$ \[kg m²\].
    pub inertia: f64,
    /// Centre of mass relative to $P$, body frame \[m\].
    pub com: [f64; 2],
    /// Named attachment points (body frame) \[m\].
    pub ports: Vec<(String, [f64; 2])>,
    /// Lumped masses at ports.
    pub lumped: Vec<LumpedMass>,
    /// Initial pose.
    pub pose: Pose2d,
    /// Initial twist (inertial velocity of $P$, angular velocity).
    pub twist: Twist2d,
}

impl RigidBody2d {
    /// A body of mass `mass` and central inertia `inertia`, centre of mass at $P$, a port
    /// `"P"` at the origin, at rest at the origin.
    pub fn new(mass: f64, inertia: f64) -> Self {
        Self {
            mass,
            inertia,
            com: [0.0, 0.0],
            ports: vec![("P".into(), [0.0, 0.0])],
            lumped: Vec::new(),
            pose: Pose2d::default(),
            twist: Twist2d::default(),
        }
    }

    /// Sets the centre of mass (body frame, relative to $P$).
    pub fn com(mut self, c: [f64; 2]) -> Self {
        self.com = c;
        self
    }

    /// Adds (or moves) a named port at body point `a`.
    pub fn port(mut self, name: impl Into<String>, a: [f64; 2]) -> Self {
        let name = name.into();
        if let Some(p) = self.ports.iter_mut().find(|p| p.0 == name) {
            p.1 = a;
        } else {
            self.ports.push((name, a));
        }
        self
    }

    /// Adds a lumped mass at a port.
    pub fn lumped_mass(mut self, port: impl Into<String>, mass: f64, inertia: f64) -> Self {
        self.lumped.push(LumpedMass::new(port, mass, inertia));
        self
    }

    /// Sets the initial pose.
    pub fn pose(mut self, pose: Pose2d) -> Self {
        self.pose = pose;
        self
    }

    /// Sets the initial twist (inertial velocity of $P$ and angular velocity).
    pub fn twist(mut self, twist: Twist2d) -> Self {
        self.twist = twist;
        self
    }

    /// Validates the parameters and builds the pH model of body `name`.
    pub fn build(&self, name: &str) -> Result<PlanarBody, MbsError> {
        require_positive(name, "mass", self.mass)?;
        require_non_negative(name, "inertia", self.inertia)?;
        for (k, c) in self.com.iter().enumerate() {
            require_finite(name, &format!("com[{k}]"), *c)?;
        }
        for (p, a) in &self.ports {
            require_finite(name, &format!("port '{p}' x"), a[0])?;
            require_finite(name, &format!("port '{p}' y"), a[1])?;
        }
        for (v, what) in [
            (self.pose.x, "pose.x"),
            (self.pose.y, "pose.y"),
            (self.pose.theta, "pose.theta"),
            (self.twist.vx, "twist.vx"),
            (self.twist.vy, "twist.vy"),
            (self.twist.omega, "twist.omega"),
        ] {
            require_finite(name, what, v)?;
        }
        require_unique_ports(name, self.ports.iter().map(|p| p.0.as_str()))?;
        let mut points = vec![MassPoint {
            x: self.com,
            mass: self.mass,
            rotary_inertia: self.inertia,
            shape: PointShape::rigid(),
        }];
        for l in &self.lumped {
            l.validate(name)?;
            let a = self.ports.iter().find(|p| p.0 == l.port).ok_or_else(|| {
                unknown_port(
                    format!("lumped mass of body '{name}'"),
                    name,
                    &l.port,
                    self.ports.iter().map(|p| p.0.as_str()),
                )
            })?;
            points.push(MassPoint {
                x: a.1,
                mass: l.mass,
                rotary_inertia: l.inertia,
                shape: PointShape::rigid(),
            });
        }
        let ports = self
            .ports
            .iter()
            .map(|(n, a)| PlanarPort {
                name: n.clone(),
                x: *a,
                shape: PointShape::rigid(),
            })
            .collect();
        PlanarBody::new(
            name,
            &points,
            ports,
            None,
            Gyroscopic::Consistent,
            self.pose,
            self.twist,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::FloatingBody;
    use phlex_core::sparse;

    #[test]
    fn bad_parameters_name_the_body() {
        let e = RigidBody2d::new(-1.0, 0.1).build("crank").unwrap_err();
        assert!(
            matches!(e, MbsError::InvalidBodyParameter { ref body, ref parameter, .. } if body == "crank" && parameter == "mass"),
            "{e}"
        );
        let e = RigidBody2d::new(1.0, -0.1).build("crank").unwrap_err();
        assert!(e.to_string().contains("inertia"), "{e}");
        let e = RigidBody2d::new(1.0, 0.1)
            .lumped_mass("tip", 0.1, 0.0)
            .build("crank")
            .unwrap_err();
        assert!(
            matches!(e, MbsError::UnknownPort { ref port, .. } if port == "tip"),
            "{e}"
        );
    }

    /// A lumped mass m_l at port a adds m_l to the translational block and the parallel-axis
    /// terms: M[0..2, 0..2] += m_l I, M[1, 2] += m_l a_x, M[2, 2] += m_l |a|².
    #[test]
    fn lumped_mass_adds_parallel_axis_terms() {
        let b0 = RigidBody2d::new(1.0, 0.1)
            .port("tip", [2.0, 0.0])
            .build("b")
            .unwrap();
        let b1 = RigidBody2d::new(1.0, 0.1)
            .port("tip", [2.0, 0.0])
            .lumped_mass("tip", 0.5, 0.01)
            .build("b")
            .unwrap();
        let d = sparse::to_dense(&sparse::add(1.0, b1.mass_matrix(), -1.0, b0.mass_matrix()));
        let exp = [
            [0.5, 0.0, 0.0],
            [0.0, 0.5, 1.0],
            [0.0, 1.0, 0.5 * 4.0 + 0.01],
        ];
        for i in 0..3 {
            for j in 0..3 {
                assert!((d[(i, j)] - exp[i][j]).abs() < 1e-15);
            }
        }
        assert!((b1.mass() - 1.5).abs() < 1e-15);
    }
}
