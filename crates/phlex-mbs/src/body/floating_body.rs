//! [`FloatingBody`]: the dimension-free contract between a multibody assembly (planar
//! [`crate::Multibody`], spatial [`crate::spatial::Multibody3d`]) and a floating body in
//! port-Hamiltonian form, paper 000 eqs. (36)–(41) (planar) and (12)–(15) (spatial).
//!
//! Every body, planar or spatial, rigid or flexible, has a local state
//! $$x = (q, p),\qquad q = (q_{pose},\ u_f),\qquad p = (v_{rigid},\ v_f,\ \sigma),$$
//! where only the sizes of $q_{pose}$ and $v_{rigid}$ depend on the dimension
//! ([`crate::body::dimension`]), and is a quasilinear pH system
//! $$E_b(x)\dot x = J_b(x)\,z(x) + \sum_k B_k u_k,\qquad
//!   E_b = \begin{bmatrix}I_{n_q} & 0\\ 0 & M\end{bmatrix},\qquad
//!   z = \begin{pmatrix}\partial_q H\\ p\end{pmatrix}$$
//! with $J_b = -J_b^\top$ and $H = H_{kin} + H_{def} + V$ ([`EnergySplit`]). With
//! *full inertia* (deformation-dependent mass operator, [`crate::body::planar::full_inertia`],
//! [`crate::body::spatial::full_inertia`]) the descriptor is state dependent, eq. (F3), and
//! the midpoint step uses the discrete increment (F4) and the discrete effort (F5).
//!
//! This trait holds what an assembly does with every body alike: the state layout, the
//! descriptor blocks, the effort, the structure blocks, the Hamiltonian, the ports by name
//! and the full-inertia operators. What depends on the dimension (poses, rotations, port
//! geometry, gravity vector) stays with the planar [`crate::PlanarBody`] and the spatial
//! [`crate::spatial::SpatialBody`] (a subtrait).
//!
//! # Importing
//! The method names (`effort`, `hamiltonian`, `blocks`, …) coincide with those of
//! [`phlex_core::PhSystem`], which bodies implement as well; the trait is therefore not
//! re-exported at the crate root. Import it as `phlex_mbs::body::FloatingBody` where it is
//! needed and call through the trait (`FloatingBody::effort(&body, x, z)`) when both are in
//! scope.
use phlex_core::sparse::{self, SparseMat};
use phlex_core::{Triplets, VarBlock};

/// Energies of one body, reported separately.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct EnergySplit {
    /// Kinetic energy $\tfrac12 v^\top M_{vv} v$ \[J\].
    pub kinetic: f64,
    /// Deformation (strain) energy $\tfrac12\sigma^\top C\sigma$ \[J\].
    pub deformation: f64,
    /// Potential energy of gravity \[J\].
    pub potential: f64,
}

impl EnergySplit {
    /// Sum of the three.
    pub fn total(&self) -> f64 {
        self.kinetic + self.deformation + self.potential
    }
}

/// A floating body in pH form as an assembly needs it, in any dimension (see the
/// [module documentation](self)).
///
/// All methods taking a local state `x` expect `x.len() == n_local()`; port indices range
/// over `0..n_ports()` (they may panic otherwise: assemblies resolve ports by name with
/// [`FloatingBody::port_index`] first).
pub trait FloatingBody: std::fmt::Debug + Send + Sync {
    /// Body name (unique in a model).
    fn name(&self) -> &str;

    /// Number of local states $n_{local} = n_q + n_p$.
    fn n_local(&self) -> usize;

    /// Number of configuration states $n_q$ (pose coordinates and $u_f$); the co-energy
    /// variables $p$ occupy `n_q..n_local`.
    fn n_q(&self) -> usize;

    /// Number of co-energy (velocity and stress) states $n_p$.
    fn n_p(&self) -> usize {
        self.n_local() - self.n_q()
    }

    /// Number of elastic coordinates $n_f$ (0 for a rigid body).
    fn n_elastic(&self) -> usize;

    /// Total mass $m$ \[kg\].
    fn mass(&self) -> f64;

    /// The constant descriptor $E_b = \mathrm{diag}(I_{n_q}, M)$ ($n_{local}\times n_{local}$;
    /// with full inertia the identity in the pose rows and the undeformed operator).
    fn descriptor(&self) -> &SparseMat;

    /// Named variable blocks of the local state, in order, names prefixed by the body name.
    fn blocks(&self) -> &[VarBlock];

    /// Initial local state (given pose and velocities, undeformed, stress free).
    fn initial_state(&self) -> Vec<f64>;

    /// Number of ports.
    fn n_ports(&self) -> usize;

    /// Name of port `k`.
    fn port_name(&self, k: usize) -> &str;

    /// Index of the port named `name`.
    fn port_index(&self, name: &str) -> Option<usize> {
        (0..self.n_ports()).find(|&k| self.port_name(k) == name)
    }

    /// Comma separated port names (for error messages and reports).
    fn port_names(&self) -> String {
        let names: Vec<&str> = (0..self.n_ports()).map(|k| self.port_name(k)).collect();
        names.join(", ")
    }

    /// Effort $z(x) = (\partial_q H, p)$ into `z` (length $n_{local}$).
    fn effort(&self, x: &[f64], z: &mut [f64]);

    /// Pushes $\partial z/\partial x$ at rows and columns offset by `off`.
    fn push_effort_jacobian(&self, x: &[f64], t: &mut Triplets, off: usize);

    /// Pushes the structure matrix $J_b(x)$ at rows and columns offset by `off`.
    fn push_structure(&self, x: &[f64], t: &mut Triplets, off: usize);

    /// Kinetic, deformation and gravity energies.
    fn energies(&self, x: &[f64]) -> EnergySplit;

    /// Hamiltonian $H_b(x)$.
    fn hamiltonian(&self, x: &[f64]) -> f64 {
        self.energies(x).total()
    }

    /// True if the mass operator depends on the elastic coordinates (full inertia): the
    /// descriptor then depends on the state. Default `false`.
    fn has_full_inertia(&self) -> bool {
        false
    }

    /// Pushes the descriptor $E_b(x)$ at offset `off`; default the constant
    /// [`FloatingBody::descriptor`]. With full inertia eq. (F3):
    /// $\begin{bmatrix}I & 0\\ \partial_q\pi & M(u_f)\end{bmatrix}$.
    fn push_descriptor(&self, x: &[f64], t: &mut Triplets, off: usize) {
        let _ = x;
        t.push_block(off, off, self.descriptor(), 1.0);
    }

    /// Discrete increment of a midpoint step `x0 → x1` (eq. (F4)): $(q_1 - q_0,\
    /// \pi(x_1) - \pi(x_0))$; default $E_b(x_1 - x_0)$.
    fn increment_local(&self, x0: &[f64], x1: &[f64], out: &mut [f64]) {
        let d: Vec<f64> = x1.iter().zip(x0).map(|(a, b)| a - b).collect();
        out.iter_mut().for_each(|v| *v = 0.0);
        sparse::mul_add(out, 1.0, self.descriptor(), &d);
    }

    /// Discrete effort of a midpoint step (eq. (F5)) into `z`; default the effort at the
    /// midpoint (exact for the quadratic/bilinear Hamiltonians of the constant operator).
    fn discrete_effort_local(&self, x0: &[f64], x1: &[f64], z: &mut [f64]) {
        let xm: Vec<f64> = x0.iter().zip(x1).map(|(a, b)| 0.5 * (a + b)).collect();
        self.effort(&xm, z);
    }

    /// With full inertia: the dense velocity block $M_{vv}(u_f)$ ($n_{rigid} + n_f$ square)
    /// and $\Gamma = \partial_{u_f}(M_{vv}p)\,v_f$ at a local state (for the constant-mass
    /// form of Radau IIA); `None` (default) otherwise.
    fn velocity_mass_dense(&self, x: &[f64]) -> Option<(faer::Mat<f64>, Vec<f64>)> {
        let _ = x;
        None
    }

    /// $\partial_{u_f}(M_{vv}(u_f)\,a)$ entries `(i, j, v)` (velocity row `i`, elastic
    /// coefficient `j`) for a velocity vector `a`; full inertia only (default none).
    fn for_each_mass_u(&self, x: &[f64], a: &[f64], f: &mut dyn FnMut(usize, usize, f64)) {
        let _ = (x, a, f);
    }
}
