//! Rigid body on SE(3) in port-Hamiltonian form (paper 000 Remark 4; thesis 004 §9.2):
//! $$\begin{bmatrix}I_{12} & 0\\ 0 & M\end{bmatrix}
//! \frac{d}{dt}\begin{pmatrix}{}^ir_P\\ R_v\\ v_P\\ \omega\end{pmatrix} =
//! \begin{bmatrix}0 & 0 & R & 0\\ 0 & 0 & 0 & \[R_v\]_\times\\ -R^\top & 0 & 0 & \[p_t\]_\times\\
//! 0 & -\[R_v\]_\times^\top & \[p_t\]_\times & \[p_r\]_\times\end{bmatrix}
//! \begin{pmatrix}\partial_{r}H\\ \partial_{R_v}H\\ v_P\\ \omega\end{pmatrix} + B u,
//! \qquad \begin{pmatrix}p_t\\ p_r\end{pmatrix} = M\begin{pmatrix}v_P\\ \omega\end{pmatrix},
//! \quad M = \begin{bmatrix}mI & \[s\]_\times^\top\\ \[s\]_\times & J_P\end{bmatrix}.$$
//!
//! States: ${}^ir_P$ (inertial position of the reference point $P$, not necessarily the
//! centre of mass), $R_v = \mathrm{vec}(R^\top)$ (the rows $R_x, R_y, R_z$ of the body-to-inertial
//! rotation stacked), and the body-frame velocities $v_P$, $\omega$. The paper's momenta
//! $p_t, p_r$ are $M(v_P, \omega)$; using the velocities as states keeps $E$ constant and is a
//! linear change of variables (the midpoint rule is invariant under it). $\[R_v\]_\times$ is the
//! $9\times3$ stack of $\[R_x\]_\times, \[R_y\]_\times, \[R_z\]_\times$: row block $i$ reads
//! $\dot R_i = R_i\times\omega$, i.e. $\dot R = R\[\omega\]_\times$.
//!
//! $H = \tfrac12 (v_P, \omega)^\top M (v_P, \omega) - \vec g\cdot(m\,{}^ir_P + R s)$, $s = m c$
//! (Remark 2), $J_P = J_G + m(|c|^2 I - cc^\top)$.
//!
//! **Orthogonality of $R$.** With the midpoint rule the $R$ rows give
//! $R_1 - R_0 = hR_m\[\bar\omega\]_\times$ with $R_m = (R_0 + R_1)/2$, i.e.
//! $R_1 = R_0\,\mathrm{cay}(h\[\bar\omega\]_\times)$, the Cayley transform
//! $(I - \tfrac h2\Omega)^{-1}(I + \tfrac h2\Omega)$ of a skew matrix, which is orthogonal for
//! *any* $\bar\omega$ (midpoint value or discrete gradient). $RR^\top = I$ is therefore kept to
//! the Newton tolerance and round-off at every step, without re-orthonormalisation. The
//! same argument (quadratic first integrals of the midpoint rule) conserves the spatial
//! momenta $R p_t$ and $R p_r + {}^ir_P\times R p_t$ of a free body.
use phlex_core::sparse::{self, SparseMat};
use phlex_core::{PhSystem, Port, PortSet, Triplets, VarBlock};

use phlex_core::geometry::inertia::parallel_axis;
use phlex_core::geometry::mat3::{
    add, cross, diagonal, hat, lin_comb, mat_mul, mat_t_vec, mat_vec, store_row_major, IDENTITY3,
};
use phlex_core::geometry::so3;

use crate::body::layout;
use crate::body::lumped::LumpedMass3d;
use crate::error::{
    require_finite, require_inertia, require_positive, require_unique_ports, unknown_port, MbsError,
};

/// Parameters of a 3D rigid body.
///
/// | parameter | symbol | unit | requirement |
/// |---|---|---|---|
/// | `mass` | $m$ | kg | $> 0$ |
/// | `inertia` | $J_G$ (about the centre of mass, body frame) | kg m² | symmetric, $\succeq 0$ |
/// | `com` | $c$ relative to $P$, body frame | m | finite |
/// | ports | attachment points, body frame | m | unique names |
#[derive(Debug, Clone, PartialEq)]
pub struct RigidBody3d {
    /// Mass $m$ \[kg\].
    pub mass: f64,
    /// Central inertia tensor $J_G$ \[kg m²\].
    pub inertia: [[f64; 3]; 3],
    /// Centre of mass relative to $P$ \[m\].
    pub com: [f64; 3],
    /// Named attachment points \[m\].
    pub ports: Vec<(String, [f64; 3])>,
    /// Gravity vector (inertial) \[m/s²\].
    pub gravity: [f64; 3],
    /// Initial position of $P$ \[m\].
    pub position: [f64; 3],
    /// Initial rotation (body to inertial).
    pub rotation: [[f64; 3]; 3],
    /// Initial body-frame velocity of $P$ \[m/s\].
    pub velocity: [f64; 3],
    /// Initial body-frame angular velocity \[rad/s\].
    pub angular_velocity: [f64; 3],
    /// Orientations of port frames (columns: port axes in the body frame), by port name;
    /// ports not listed have frames parallel to the body frame (used by the spatial joints,
    /// [`crate::spatial`]).
    pub port_orientations: Vec<(String, [[f64; 3]; 3])>,
    /// Point masses and rotary inertias at ports ([`LumpedMass3d`], parallel-axis update of
    /// $m$, $s$, $J_P$).
    pub lumped: Vec<LumpedMass3d>,
}

impl RigidBody3d {
    /// A body of mass `mass` with principal central inertias `diag`, centre of mass at
    /// $P$, a port `"P"` at the origin, at rest at the origin, no gravity.
    pub fn new(mass: f64, diag: [f64; 3]) -> Self {
        Self {
            mass,
            inertia: diagonal(diag),
            com: [0.0; 3],
            ports: vec![("P".into(), [0.0; 3])],
            gravity: [0.0; 3],
            position: [0.0; 3],
            rotation: IDENTITY3,
            velocity: [0.0; 3],
            angular_velocity: [0.0; 3],
            port_orientations: Vec::new(),
            lumped: Vec::new(),
        }
    }

    /// Attaches a point mass (and rotary inertia about the port) at a port.
    pub fn lumped_mass(mut self, lumped: LumpedMass3d) -> Self {
        self.lumped.push(lumped);
        self
    }

    /// Sets the centre of mass.
    pub fn com(mut self, c: [f64; 3]) -> Self {
        self.com = c;
        self
    }

    /// Adds a port.
    pub fn port(mut self, name: impl Into<String>, a: [f64; 3]) -> Self {
        self.ports.push((name.into(), a));
        self
    }

    /// Adds a port whose frame has orientation `orientation` in the body frame (columns:
    /// port axes, orthonormal and right-handed).
    pub fn port_frame(
        mut self,
        name: impl Into<String>,
        a: [f64; 3],
        orientation: [[f64; 3]; 3],
    ) -> Self {
        let name = name.into();
        self.ports.push((name.clone(), a));
        self.port_orientations.push((name, orientation));
        self
    }

    /// Sets gravity.
    pub fn gravity(mut self, g: [f64; 3]) -> Self {
        self.gravity = g;
        self
    }

    /// Sets the initial body-frame angular velocity.
    pub fn angular_velocity(mut self, w: [f64; 3]) -> Self {
        self.angular_velocity = w;
        self
    }

    /// Sets the initial body-frame velocity of $P$.
    pub fn velocity(mut self, v: [f64; 3]) -> Self {
        self.velocity = v;
        self
    }

    /// Sets the initial rotation.
    pub fn rotation(mut self, r: [[f64; 3]; 3]) -> Self {
        self.rotation = r;
        self
    }

    /// Sets the initial position of $P$.
    pub fn position(mut self, p: [f64; 3]) -> Self {
        self.position = p;
        self
    }

    /// Validates and builds the pH model of body `name`.
    pub fn build(&self, name: &str) -> Result<RigidBody3dModel, MbsError> {
        require_positive(name, "mass", self.mass)?;
        let J = *require_inertia(name, "inertia", &self.inertia)?.matrix();
        require_unique_ports(name, self.ports.iter().map(|p| p.0.as_str()))?;
        for (p, a) in &self.ports {
            for (k, v) in a.iter().enumerate() {
                require_finite(name, &format!("port '{p}'[{k}]"), *v)?;
            }
        }
        let mut m = self.mass;
        let c = self.com;
        let mut s = [m * c[0], m * c[1], m * c[2]];
        // J_P: central inertia moved to P, plus the lumped masses (parallel axis).
        let mut JP = lin_comb(1.0, &J, 1.0, &parallel_axis(m, c));
        for l in &self.lumped {
            l.validate(name)?;
            let Some((_, a)) = self.ports.iter().find(|p| p.0 == l.port) else {
                return Err(unknown_port(
                    format!("lumped mass of body '{name}'"),
                    name,
                    &l.port,
                    self.ports.iter().map(|q| q.0.as_str()),
                ));
            };
            m += l.mass;
            let shift = parallel_axis(l.mass, *a);
            for i in 0..3 {
                s[i] += l.mass * a[i];
                for j in 0..3 {
                    JP[i][j] += l.inertia[i][j] + shift[i][j];
                }
            }
        }
        let mut Mm = [[0.0; 6]; 6];
        let S = hat(s);
        for i in 0..3 {
            Mm[i][i] = m;
            for j in 0..3 {
                Mm[i][3 + j] = S[j][i];
                Mm[3 + i][j] = S[i][j];
                Mm[3 + i][3 + j] = JP[i][j];
            }
        }
        let mut tm = Triplets::new(18, 18);
        for i in 0..12 {
            tm.push(i, i, 1.0);
        }
        for i in 0..6 {
            for j in 0..6 {
                if Mm[i][j] != 0.0 {
                    tm.push(12 + i, 12 + j, Mm[i][j]);
                }
            }
        }
        let ports = PortSet::from_ports(
            self.ports
                .iter()
                .map(|(p, _)| {
                    Port::new(
                        p.clone(),
                        6,
                        format!("force and torque at '{p}', body frame [N, N m]"),
                        format!("velocity and angular velocity of '{p}', body frame [m/s, rad/s]"),
                    )
                })
                .collect(),
        )?;
        let mut tb = Triplets::new(18, 6 * self.ports.len());
        for (k, (_, a)) in self.ports.iter().enumerate() {
            let A = hat(*a);
            for i in 0..3 {
                tb.push(12 + i, 6 * k + i, 1.0);
                tb.push(15 + i, 6 * k + 3 + i, 1.0);
                for j in 0..3 {
                    if A[i][j] != 0.0 {
                        tb.push(15 + i, 6 * k + j, A[i][j]);
                    }
                }
            }
        }
        let mut spatial_ports = Vec::with_capacity(self.ports.len());
        let mut port_maps = Vec::with_capacity(self.ports.len());
        for (p, a) in &self.ports {
            let orientation = match self.port_orientations.iter().find(|o| &o.0 == p) {
                Some((_, c)) => {
                    check_orientation(name, p, c)?;
                    *c
                }
                None => IDENTITY3,
            };
            spatial_ports.push(crate::spatial::SpatialPort {
                name: p.clone(),
                position: *a,
                orientation,
            });
            let mut t = Triplets::new(18, 6);
            let A = hat(*a);
            for i in 0..3 {
                t.push(12 + i, i, 1.0);
                t.push(15 + i, 3 + i, 1.0);
                for j in 0..3 {
                    if A[i][j] != 0.0 {
                        t.push(15 + i, j, A[i][j]);
                    }
                }
            }
            port_maps.push(t.build());
        }
        for (p, _) in &self.port_orientations {
            if !self.ports.iter().any(|q| &q.0 == p) {
                return Err(unknown_port(
                    format!("port orientation of body '{name}'"),
                    name,
                    p,
                    self.ports.iter().map(|q| q.0.as_str()),
                ));
            }
        }
        let blocks = layout::variable_blocks(
            name,
            &layout::SPATIAL_POSE,
            &layout::SPATIAL_TWIST,
            layout::ELASTIC_NAMES,
            0,
            0,
        );
        let mut x0 = vec![0.0; 18];
        x0[..3].copy_from_slice(&self.position);
        store_row_major(&self.rotation, &mut x0[3..]);
        x0[12..15].copy_from_slice(&self.velocity);
        x0[15..18].copy_from_slice(&self.angular_velocity);
        Ok(RigidBody3dModel {
            name: name.into(),
            mass: m,
            s,
            M: Mm,
            gravity: self.gravity,
            E: tm.build(),
            B: tb.build(),
            ports,
            blocks,
            x0,
            spatial_ports,
            port_maps,
        })
    }
}

/// The pH model of a 3D rigid body (18 states).
#[derive(Debug, Clone)]
pub struct RigidBody3dModel {
    name: String,
    mass: f64,
    s: [f64; 3],
    M: [[f64; 6]; 6],
    gravity: [f64; 3],
    E: SparseMat,
    B: SparseMat,
    ports: PortSet,
    blocks: Vec<VarBlock>,
    x0: Vec<f64>,
    spatial_ports: Vec<crate::spatial::SpatialPort>,
    port_maps: Vec<SparseMat>,
}

impl RigidBody3dModel {
    /// Body name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Initial state.
    pub fn initial_state(&self) -> Vec<f64> {
        self.x0.clone()
    }

    /// Rotation matrix stored in a state.
    pub fn rotation_of(x: &[f64]) -> [[f64; 3]; 3] {
        crate::spatial::rotation_from_state(x)
    }

    /// Momenta $(p_t, p_r) = M(v_P, \omega)$ (body frame).
    pub fn momenta(&self, x: &[f64]) -> [f64; 6] {
        let mut p = [0.0; 6];
        for (i, pi) in p.iter_mut().enumerate() {
            *pi = (0..6).map(|j| self.M[i][j] * x[12 + j]).sum();
        }
        p
    }

    /// Inertial linear momentum $R p_t$ and angular momentum about the inertial origin
    /// $R p_r + {}^ir_P \times R p_t$.
    pub fn spatial_momenta(&self, x: &[f64]) -> ([f64; 3], [f64; 3]) {
        let p = self.momenta(x);
        let r = Self::rotation_of(x);
        let lt = mat_vec(&r, [p[0], p[1], p[2]]);
        let lr = mat_vec(&r, [p[3], p[4], p[5]]);
        (lt, add(lr, cross([x[0], x[1], x[2]], lt)))
    }

    /// $\max_{ij}|(R^\top R - I)_{ij}|$.
    pub fn orthogonality_defect(x: &[f64]) -> f64 {
        so3::orthogonality_defect(&Self::rotation_of(x))
    }

    /// Kinetic and potential energy.
    pub fn energies(&self, x: &[f64]) -> crate::body::floating_body::EnergySplit {
        let p = self.momenta(x);
        let kin = 0.5 * (0..6).map(|i| p[i] * x[12 + i]).sum::<f64>();
        let r = Self::rotation_of(x);
        let g = self.gravity;
        let mut pot = 0.0;
        let rs = mat_vec(&r, self.s);
        for i in 0..3 {
            pot -= g[i] * (self.mass * x[i] + rs[i]);
        }
        crate::body::floating_body::EnergySplit {
            kinetic: kin,
            deformation: 0.0,
            potential: pot,
        }
    }

    fn push_structure(&self, x: &[f64], t: &mut Triplets) {
        let r = Self::rotation_of(x);
        for i in 0..3 {
            for j in 0..3 {
                t.push(i, 12 + j, r[i][j]);
                t.push(12 + j, i, -r[i][j]);
            }
            let Ri = hat(r[i]);
            for a in 0..3 {
                for b in 0..3 {
                    if Ri[a][b] != 0.0 {
                        t.push(3 + 3 * i + a, 15 + b, Ri[a][b]);
                        t.push(15 + b, 3 + 3 * i + a, -Ri[a][b]);
                    }
                }
            }
        }
        let p = self.momenta(x);
        let Pt = hat([p[0], p[1], p[2]]);
        let Pr = hat([p[3], p[4], p[5]]);
        for a in 0..3 {
            for b in 0..3 {
                if Pt[a][b] != 0.0 {
                    t.push(12 + a, 15 + b, Pt[a][b]);
                    t.push(15 + a, 12 + b, Pt[a][b]);
                }
                if Pr[a][b] != 0.0 {
                    t.push(15 + a, 15 + b, Pr[a][b]);
                }
            }
        }
    }
}

impl PhSystem for RigidBody3dModel {
    fn n_states(&self) -> usize {
        18
    }
    fn ports(&self) -> &PortSet {
        &self.ports
    }
    fn blocks(&self) -> &[VarBlock] {
        &self.blocks
    }
    fn hamiltonian(&self, x: &[f64]) -> f64 {
        self.energies(x).total()
    }
    fn effort(&self, x: &[f64], z: &mut [f64]) {
        let g = self.gravity;
        for i in 0..3 {
            z[i] = -self.mass * g[i];
            for j in 0..3 {
                z[3 + 3 * i + j] = -g[i] * self.s[j];
            }
        }
        z[12..18].copy_from_slice(&x[12..18]);
    }
    fn descriptor(&self, _x: &[f64]) -> SparseMat {
        self.E.clone()
    }
    fn structure(&self, x: &[f64]) -> SparseMat {
        let mut t = Triplets::new(18, 18);
        self.push_structure(x, &mut t);
        t.build()
    }
    fn input_map(&self, _x: &[f64]) -> SparseMat {
        self.B.clone()
    }
    fn effort_jacobian(&self, _x: &[f64]) -> SparseMat {
        let mut t = Triplets::new(18, 18);
        for i in 12..18 {
            t.push(i, i, 1.0);
        }
        t.build()
    }
    fn rhs_with_effort(&self, x: &[f64], z: &[f64], u: &[f64], f: &mut [f64]) {
        f.iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(f, 1.0, &self.structure(x), z);
        if !u.is_empty() {
            sparse::mul_add(f, 1.0, &self.B, u);
        }
    }

    /// Analytic: $J\,\partial_x z$ plus the derivatives of $R$, $\[R_v\]_\times$ and the
    /// momentum cross products (module documentation).
    fn rhs_jacobian(&self, x: &[f64], _u: &[f64]) -> SparseMat {
        let mut t = Triplets::new(18, 18);
        let mut z = vec![0.0; 18];
        self.effort(x, &mut z);
        let v = [x[12], x[13], x[14]];
        let w = [x[15], x[16], x[17]];
        // J ∂z/∂x: columns of the velocities.
        self.push_structure_cols_p(x, &mut t);
        // ṙ = R v: ∂/∂R_ij = v_j
        for i in 0..3 {
            for j in 0..3 {
                t.push(i, 3 + 3 * i + j, v[j]);
            }
        }
        // Ṙ_i = R_i × ω: ∂/∂R_i = −[ω]×
        let W = hat(w);
        for i in 0..3 {
            for a in 0..3 {
                for b in 0..3 {
                    if W[a][b] != 0.0 {
                        t.push(3 + 3 * i + a, 3 + 3 * i + b, -W[a][b]);
                    }
                }
            }
        }
        // v rows: −Rᵀ z_r: ∂/∂R_ij → row v_j: −z_r,i
        for i in 0..3 {
            for j in 0..3 {
                t.push(12 + j, 3 + 3 * i + j, -z[i]);
            }
        }
        // ω rows: Σ R_i × z_Ri: ∂/∂R_i = −[z_Ri]×
        for i in 0..3 {
            let Z = hat([z[3 + 3 * i], z[4 + 3 * i], z[5 + 3 * i]]);
            for a in 0..3 {
                for b in 0..3 {
                    if Z[a][b] != 0.0 {
                        t.push(15 + a, 3 + 3 * i + b, -Z[a][b]);
                    }
                }
            }
        }
        // momentum dependence: p_t × ω (v rows), p_t × v + p_r × ω (ω rows):
        // ∂(a(p) × b)/∂p = −[b]× ∂a/∂p
        let V = hat(v);
        for a in 0..3 {
            for j in 0..6 {
                let mut dv = 0.0;
                let mut dw = 0.0;
                for k in 0..3 {
                    dv -= W[a][k] * self.M[k][j];
                    dw -= V[a][k] * self.M[k][j] + W[a][k] * self.M[3 + k][j];
                }
                if dv != 0.0 {
                    t.push(12 + a, 12 + j, dv);
                }
                if dw != 0.0 {
                    t.push(15 + a, 12 + j, dw);
                }
            }
        }
        t.build()
    }
}

impl RigidBody3dModel {
    /// Pushes the columns of $J(x)$ for the velocity variables (= $J\,\partial_x z$, since
    /// $z_q$ is constant and $z_p = p$).
    fn push_structure_cols_p(&self, x: &[f64], t: &mut Triplets) {
        let J = self.structure(x);
        for j in 12..18 {
            for (i, v) in sparse::col_iter(&J, j) {
                t.push(i, j, v);
            }
        }
    }
}

/// Checks that a port-frame orientation is a rotation ([`so3::is_rotation`]: orthonormal to
/// 1e-9, right-handed).
fn check_orientation(body: &str, port: &str, c: &[[f64; 3]; 3]) -> Result<(), MbsError> {
    if so3::is_rotation(c) {
        return Ok(());
    }
    Err(MbsError::InvalidBodyParameter {
        body: body.into(),
        parameter: format!("orientation of port '{port}'"),
        value: so3::orthogonality_defect(c),
        requirement: "an orthonormal right-handed matrix (columns: port axes in the body frame)"
            .into(),
    })
}

impl RigidBody3dModel {
    /// Mass $m$ \[kg\].
    pub fn mass(&self) -> f64 {
        self.mass
    }

    /// The $6\times6$ mass matrix $M$ of $(v_P, \omega)$ (Remark 4).
    pub fn mass_matrix6(&self) -> [[f64; 6]; 6] {
        self.M
    }

    /// Matrix-free $f = J(x)z$ (no inputs), see the module documentation.
    fn rhs_local(&self, x: &[f64], z: &[f64], f: &mut [f64]) {
        let r = Self::rotation_of(x);
        let p = self.momenta(x);
        let zv = [z[12], z[13], z[14]];
        let zw = [z[15], z[16], z[17]];
        let pt = [p[0], p[1], p[2]];
        let pr = [p[3], p[4], p[5]];
        f[..3].copy_from_slice(&mat_vec(&r, zv));
        for i in 0..3 {
            let c = cross(r[i], zw);
            f[3 + 3 * i..6 + 3 * i].copy_from_slice(&c);
        }
        let a = cross(pt, zw);
        let b = cross(pt, zv);
        let c = cross(pr, zw);
        let rtz = mat_t_vec(&r, [z[0], z[1], z[2]]);
        for j in 0..3 {
            f[12 + j] = a[j] - rtz[j];
            f[15 + j] = b[j] + c[j];
        }
        for i in 0..3 {
            let d = cross(r[i], [z[3 + 3 * i], z[4 + 3 * i], z[5 + 3 * i]]);
            for j in 0..3 {
                f[15 + j] += d[j];
            }
        }
    }
}

/// The dimension-free body interface ([`crate::body::floating_body`]): 18 states, no
/// elastic coordinates.
impl crate::body::FloatingBody for RigidBody3dModel {
    fn name(&self) -> &str {
        &self.name
    }
    fn n_local(&self) -> usize {
        18
    }
    fn n_q(&self) -> usize {
        12
    }
    fn n_elastic(&self) -> usize {
        0
    }
    fn mass(&self) -> f64 {
        self.mass
    }
    fn descriptor(&self) -> &SparseMat {
        &self.E
    }
    fn blocks(&self) -> &[VarBlock] {
        &self.blocks
    }
    fn initial_state(&self) -> Vec<f64> {
        self.x0.clone()
    }
    fn n_ports(&self) -> usize {
        self.spatial_ports.len()
    }
    fn port_name(&self, k: usize) -> &str {
        &self.spatial_ports[k].name
    }
    fn effort(&self, x: &[f64], z: &mut [f64]) {
        PhSystem::effort(self, x, z)
    }
    fn push_effort_jacobian(&self, _x: &[f64], t: &mut Triplets, off: usize) {
        for i in 12..18 {
            t.push(off + i, off + i, 1.0);
        }
    }
    fn push_structure(&self, x: &[f64], t: &mut Triplets, off: usize) {
        let mut l = Triplets::new(18, 18);
        RigidBody3dModel::push_structure(self, x, &mut l);
        t.push_block(off, off, &l.build(), 1.0);
    }
    fn energies(&self, x: &[f64]) -> crate::body::floating_body::EnergySplit {
        RigidBody3dModel::energies(self, x)
    }
}

impl crate::spatial::SpatialBody for RigidBody3dModel {
    fn ports(&self) -> &[crate::spatial::SpatialPort] {
        &self.spatial_ports
    }
    fn port_map(&self, k: usize) -> &SparseMat {
        &self.port_maps[k]
    }
    fn port_position(&self, k: usize, x: &[f64]) -> [f64; 3] {
        let a = self.spatial_ports[k].position;
        add([x[0], x[1], x[2]], mat_vec(&Self::rotation_of(x), a))
    }
    /// Analytic: $\partial/\partial r_i = e_i$, $\partial/\partial R_{ij} = a_j e_i$.
    fn port_position_jacobian(&self, k: usize, _x: &[f64]) -> Vec<(usize, [f64; 3])> {
        crate::spatial::body::pose_point_jacobian(self.spatial_ports[k].position, 12)
    }
    fn port_rotation(&self, k: usize, x: &[f64]) -> [[f64; 3]; 3] {
        mat_mul(&Self::rotation_of(x), &self.spatial_ports[k].orientation)
    }
    fn rhs(&self, x: &[f64], z: &[f64], f: &mut [f64]) {
        self.rhs_local(x, z, f)
    }
    fn push_rhs_jacobian(&self, x: &[f64], t: &mut Triplets, off: usize) {
        t.push_block(off, off, &PhSystem::rhs_jacobian(self, x, &[]), 1.0);
    }
    fn set_gravity(&mut self, g: [f64; 3]) {
        self.gravity = g;
    }
}

impl crate::spatial::SpatialBodySpec for RigidBody3d {
    /// [`RigidBody3d::build`]. A point mass ($J_G = 0$) is admissible; its $6\times6$ mass
    /// matrix is singular and the joints must then fix the rotations without inertia (as for
    /// the planar links).
    fn build_spatial(&self, name: &str) -> Result<Box<dyn crate::spatial::SpatialBody>, MbsError> {
        Ok(Box::new(self.build(name)?))
    }
    fn kind(&self) -> &'static str {
        "rigid body 3d"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body() -> RigidBody3dModel {
        // A full, admissible central inertia (principal moments ≈ 1.98, 2.46, 3.06).
        let inertia = [[2.0, 0.1, 0.0], [0.1, 2.5, -0.2], [0.0, -0.2, 3.0]];
        let mut b = RigidBody3d::new(2.0, [1.0, 2.0, 3.0])
            .com([0.1, -0.2, 0.3])
            .gravity([0.0, 0.0, -9.81])
            .angular_velocity([0.3, -1.0, 2.0])
            .velocity([0.5, 0.1, -0.2])
            .position([1.0, 2.0, 3.0])
            .rotation(so3::from_axis_angle([1.0, 2.0, 3.0], 0.7).expect("axis"))
            .port("tip", [1.0, 0.0, 0.5]);
        b.inertia = inertia;
        b.build("top").unwrap()
    }

    /// J skew, ∂H = Eᵀ z and the analytic Jacobian of f = J z against finite differences.
    #[test]
    fn structure_gradient_and_jacobian() {
        let b = body();
        let x = b.initial_state();
        let J = sparse::to_dense(&b.structure(&x));
        for i in 0..18 {
            for j in 0..18 {
                assert!((J[(i, j)] + J[(j, i)]).abs() < 1e-15);
            }
        }
        let mut z = vec![0.0; 18];
        b.effort(&x, &mut z);
        let E = sparse::to_dense(&b.descriptor(&x));
        for k in 0..18 {
            let h = 1e-6;
            let mut xp = x.clone();
            xp[k] += h;
            let mut xm = x.clone();
            xm[k] -= h;
            let dh = (b.hamiltonian(&xp) - b.hamiltonian(&xm)) / (2.0 * h);
            let etz: f64 = (0..18).map(|i| E[(i, k)] * z[i]).sum();
            assert!((dh - etz).abs() < 1e-7, "{k}: {dh} {etz}");
        }
        let A = sparse::to_dense(&b.rhs_jacobian(&x, &[]));
        let f = |x: &[f64]| {
            let mut z = vec![0.0; 18];
            b.effort(x, &mut z);
            let mut f = vec![0.0; 18];
            b.rhs_with_effort(x, &z, &[], &mut f);
            f
        };
        for k in 0..18 {
            let h = 1e-6;
            let mut xp = x.clone();
            xp[k] += h;
            let mut xm = x.clone();
            xm[k] -= h;
            let (fp, fm) = (f(&xp), f(&xm));
            for i in 0..18 {
                let d = (fp[i] - fm[i]) / (2.0 * h);
                assert!(
                    (d - A[(i, k)]).abs() < 1e-7,
                    "df{i}/dx{k}: fd {d} analytic {}",
                    A[(i, k)]
                );
            }
        }
    }

    #[test]
    fn bad_inertia_is_reported() {
        let mut b = RigidBody3d::new(1.0, [1.0, 1.0, 1.0]);
        b.inertia[0][1] = 0.5;
        let e = b.build("box").unwrap_err();
        assert!(
            e.to_string().contains("box")
                && e.to_string().contains("inertia")
                && e.to_string().contains("[0][1] = 0.5"),
            "{e}"
        );
        assert!(RigidBody3d::new(0.0, [1.0; 3]).build("box").is_err());
    }

    /// The matrix-free SpatialBody rhs equals J(x) z, the port map gives v + ω × a, and the
    /// port position Jacobian matches central differences (positions are affine in each
    /// coordinate, so the difference quotient is exact up to round-off).
    #[test]
    fn spatial_body_interface() {
        use crate::body::FloatingBody;
        use crate::spatial::SpatialBody;
        let b = body();
        let mut x = b.initial_state();
        for (i, v) in x.iter_mut().enumerate() {
            *v += 0.01 * (i as f64).cos();
        }
        let mut z = vec![0.0; 18];
        FloatingBody::effort(&b, &x, &mut z);
        let mut f1 = vec![0.0; 18];
        SpatialBody::rhs(&b, &x, &z, &mut f1);
        let mut f2 = vec![0.0; 18];
        PhSystem::rhs_with_effort(&b, &x, &z, &[], &mut f2);
        for i in 0..18 {
            assert!((f1[i] - f2[i]).abs() < 1e-13, "{i}: {} {}", f1[i], f2[i]);
        }
        let k = b.port_index("tip").unwrap();
        let y = sparse::mul_vec_transpose(b.port_map(k), &z);
        let w = [x[15], x[16], x[17]];
        let c = cross(w, [1.0, 0.0, 0.5]);
        for i in 0..3 {
            assert!((y[i] - (x[12 + i] + c[i])).abs() < 1e-15);
            assert!((y[3 + i] - w[i]).abs() < 1e-15);
        }
        let jac = b.port_position_jacobian(k, &x);
        for i in 0..12 {
            let h = 1e-3;
            let mut xp = x.clone();
            xp[i] += h;
            let mut xm = x.clone();
            xm[i] -= h;
            let (a, m) = (b.port_position(k, &xp), b.port_position(k, &xm));
            let d = jac.iter().find(|e| e.0 == i).map_or([0.0; 3], |e| e.1);
            for r in 0..3 {
                assert!(((a[r] - m[r]) / (2.0 * h) - d[r]).abs() < 1e-12);
            }
        }
    }

    /// The admissibility checks of the inertia (the rule of `phlex_core::geometry::inertia`)
    /// in both build paths, and for lumped rotary inertias.
    #[test]
    fn inertia_admissibility() {
        use crate::spatial::SpatialBodySpec;
        let mut b = RigidBody3d::new(1.0, [1.0, 1.0, 3.0]);
        let err = b.build_spatial("disk").unwrap_err().to_string();
        assert!(err.contains("disk") && err.contains("triangle"), "{err}");
        b.inertia = [[0.0; 3]; 3];
        assert!(b.build_spatial("point").is_ok());
        b.inertia = [[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let err = b.build_spatial("bad").unwrap_err().to_string();
        assert!(err.contains("semidefinite"), "{err}");
        let err = b.build("bad").unwrap_err().to_string();
        assert!(err.contains("semidefinite"), "{err}");
        b.inertia = [[0.0; 3]; 3];
        let tip = b.clone().port("tip", [0.0, 0.0, 1.0]);
        let lumped = tip
            .clone()
            .lumped_mass(LumpedMass3d::new("tip", 0.5).inertia([
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 0.0, 3.0],
            ]));
        let err = lumped.build("arm").unwrap_err().to_string();
        assert!(
            err.contains("arm")
                && err.contains("lumped inertia at 'tip'")
                && err.contains("triangle"),
            "{err}"
        );
        let ok = tip.lumped_mass(LumpedMass3d::new("tip", 0.5).inertia([
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 2.0],
        ]));
        assert!(ok.build("arm").is_ok());
    }
}
