//! Laminated anisotropic plates: classical lamination theory (CLT) and the
//! port-Hamiltonian laminated Kirchhoff and Mindlin plates with membrane–bending coupling
//! (thesis 004 §4.3, eqs. (4.47)–(4.61); summary §2.7).
//!
//! # Laminate ([`Laminate`], thesis eqs. (4.48)–(4.51))
//! Plies $i = 0, 1, \dots$ are stacked from the bottom $z_0 = -h/2$ to the top
//! $z_n = h/2$. Each ply is orthotropic in its material axes with plane-stress reduced
//! stiffness $Q_{11} = E_1/(1-\nu_{12}\nu_{21})$, $Q_{12} = \nu_{12}E_2/(1-\nu_{12}\nu_{21})$,
//! $Q_{22} = E_2/(1-\nu_{12}\nu_{21})$, $Q_{66} = G_{12}$ ($\nu_{21} = \nu_{12}E_2/E_1$), rotated
//! by the ply angle $\theta$ (fibre direction measured from $x$ towards $y$) to
//! $\bar Q$ (Reddy 2003 eq. (2.3.17)). With Voigt strains
//! $(\varepsilon_{xx}, \varepsilon_{yy}, 2\varepsilon_{xy})$:
//! $$A = \sum_i\bar Q^i(z_{i+1}-z_i),\quad B = \tfrac12\sum_i\bar Q^i(z_{i+1}^2-z_i^2),\quad
//! D = \tfrac13\sum_i\bar Q^i(z_{i+1}^3-z_i^3),$$
//! transverse shear $A_s = K_{sh}\sum_i\bar Q_s^i(z_{i+1}-z_i)$ on $(\gamma_{xz}, \gamma_{yz})$
//! with $\bar Q_s = \begin{bmatrix}G_{13}c^2+G_{23}s^2 & (G_{13}-G_{23})cs\\ (G_{13}-G_{23})cs &
//! G_{13}s^2+G_{23}c^2\end{bmatrix}$, and inertias $(I_0, I_1, I_2) =
//! \sum_i\rho_i\,(z_{i+1}-z_i,\ \tfrac12(z_{i+1}^2-z_i^2),\ \tfrac13(z_{i+1}^3-z_i^3))$.
//!
//! # Sign convention (thesis eq. (4.47)–(4.49))
//! The thesis uses $\mathbf u = \mathbf u^0 - z\theta$, $\kappa = \operatorname{Grad}\theta$
//! (Kirchhoff: $\theta = \operatorname{grad}w$, $\kappa = \operatorname{Hess}w$) and
//! $\mathbf M = \int -z\Sigma\,dz$, so
//! $$\begin{pmatrix}\mathbf N\\\mathbf M\end{pmatrix} = \begin{bmatrix}\mathcal D_m&\mathcal D_c\\
//! \mathcal D_c&\mathcal D_b\end{bmatrix}\begin{pmatrix}\varepsilon^0\\\kappa\end{pmatrix},\qquad
//! \mathcal D_m = A,\ \mathcal D_c = -B,\ \mathcal D_b = D,$$
//! i.e. the thesis's $\mathcal D_c$ is minus Reddy's $B$ (frequencies do not depend on the
//! sign). The co-energy map is the inverse of this $6\times6$ block matrix
//! ([`Laminate::compliance`]), which couples the membrane stress $\mathbf N$ and the moments
//! $\mathbf M$ in the $E$ matrix.
//!
//! # Laminated Kirchhoff plate ([`LaminatedKirchhoff`], thesis eqs. (4.57)–(4.61))
//! | block | field | space |
//! |---|---|---|
//! | `e_u` | in-plane velocity $\dot{\mathbf u}^0$ | $(CG_k)^2$ |
//! | `e_w` | vertical velocity $\dot w$ | $CG_k$ |
//! | `E_eps` | membrane stress resultants $\mathbf N$ | $(DG_{k-1})^{2\times2}_{\mathrm{sym}}$ |
//! | `E_kappa` | bending moments $\mathbf M$ | HHJ$_{k-1}$ |
//!
//! $$\begin{bmatrix}M_u & M_{uw} & 0 & 0\\ M_{uw}^\top & M_w & 0 & 0\\ 0&0&M_{NN}&M_{NM}\\
//! 0&0&M_{NM}^\top&M_{MM}\end{bmatrix}\dot e = \begin{bmatrix}0&0&-D_{\mathrm{Grad}}^\top&0\\
//! 0&0&0&-D_{\mathrm{Hess}}^\top\\ D_{\mathrm{Grad}}&0&0&0\\0&D_{\mathrm{Hess}}&0&0\end{bmatrix}e + Bu,$$
//! the membrane part being the CG/DG elasticity discretization ([`crate::models::continuum::elasticity`],
//! thesis (3.16)) and the bending part the HHJ plate ([`super::kirchhoff`], thesis (7.18)),
//! $M_{NN}, M_{NM}, M_{MM}$ the blocks of the laminate compliance, $M_u = I_0 M$,
//! $M_w = I_0 M$. The thesis neglects the rotary inertia of the Kirchhoff plate
//! ($M_{uw} = 0$); [`LaminatedKirchhoff::rotary_inertia`] restores the consistent CLPT
//! kinetic energy $\tfrac12\int I_0(|\dot{\mathbf u}^0|^2 + \dot w^2) -
//! 2I_1\dot{\mathbf u}^0\cdot\nabla\dot w + I_2|\nabla\dot w|^2$ ($M_{uw} = -I_1\langle\phi_u,
//! \nabla\phi_w\rangle$, $M_w \mathrel{+}= I_2\langle\nabla\phi_w, \nabla\phi_w\rangle$).
//!
//! # Laminated Mindlin plate ([`LaminatedMindlin`], thesis eqs. (4.52)–(4.56))
//! Blocks `e_u` $(CG_k)^2$, `e_w` $CG_k$, `e_theta` $(CG_k)^2$, `E_eps` and `E_kappa`
//! $(DG_{k-1})^{2\times2}_{\mathrm{sym}}$, `e_gamma` $(DG_{k-1})^2$: the CGDG Mindlin plate
//! ([`super::mindlin`], thesis (7.20)) plus the membrane, with the kinetic energy
//! $\tfrac12\int I_0(|\dot{\mathbf u}^0|^2 + \dot w^2) - 2I_1\dot{\mathbf u}^0\cdot\dot\theta +
//! I_2|\dot\theta|^2$ (thesis: $I_0 = \rho h$, $I_1 = 0$, $I_2 = \rho h^3/12$ for one
//! material), the $(\mathbf N, \mathbf M)$ compliance and $C_s = A_s^{-1}$.
//!
//! # Boundary conditions (homogeneous, strong)
//! Each boundary edge carries a bending condition ([`EdgeCondition`]) and a membrane
//! condition ([`MembraneCondition`]); edges without one are free.
//!
//! | bending | Kirchhoff (HHJ) | Mindlin (CGDG) |
//! |---|---|---|
//! | clamped | $w_t$ DOFs removed ($\partial_n w_t = 0$ natural) | $w_t$, $\theta_t$ removed |
//! | simply supported | $w_t$ and $M_{nn}$ DOFs removed | $w_t$ and $\theta_t\cdot s$ removed (hard support; axis-parallel edges) |
//! | free | $M_{nn}$ DOFs removed | nothing ($q_n = M_{nn} = M_{ns} = 0$ natural) |
//!
//! Membrane: `Fixed` ($\dot{\mathbf u}^0 = 0$), `Free` ($\mathbf N\mathbf n = 0$, natural),
//! `TangentialFixed` ($\dot u_s = 0$, $N_{nn} = 0$: Reddy's SS-1, the Navier conditions of
//! cross-ply laminates) and `NormalFixed` ($\dot u_n = 0$, $N_{ns} = 0$: SS-2, angle-ply);
//! the last two remove one velocity component and need axis-parallel edges.
//! [`LaminatedKirchhoff::simply_supported`] = (simply supported, `TangentialFixed`),
//! `clamped` = (clamped, `Fixed`), `free` = (free, `Free`).
//!
//! Distributed transverse loads are ports (`load`): input $a(t)$, load density
//! $a(t)f(x, y)$, $B$ column $\langle\phi_w, f\rangle$.
//!
//! # Boundary ports (`port`; thesis 004 §4.3 boundary terms, §6.2)
//! `port(tag, bending)` makes the edges `tag` a boundary port in the **natural causality**
//! of each field of the mixed discretization (velocities in $CG_k$, membrane stresses and
//! the Mindlin moments/shear forces in DG: tractions are the natural inputs; HHJ moments:
//! $\partial_nw_t$ is natural). The membrane is free with the traction inputs
//! `{tag}_Nnn`, `{tag}_Nns` entering the in-plane momentum balance as
//! $\langle\phi_u\cdot n, N_{nn}\rangle_\Gamma + \langle\phi_u\cdot s, N_{ns}\rangle_\Gamma$
//! ($s = (-n_y, n_x)$); the bending condition is imposed as by `edge(tag, bending, Free)`
//! and its natural inputs are ports:
//!
//! | bending | Kirchhoff (HHJ) | Mindlin (CGDG) |
//! |---|---|---|
//! | free | `{tag}_qn` ($M_{nn} = 0$ strong) | `{tag}_qn`, `{tag}_Mnn`, `{tag}_Mns` |
//! | clamped | `{tag}_dnwt` ($w_t = 0$ strong) | none (membrane ports only) |
//! | simply supported | none (membrane ports only) | `{tag}_Mnn` ($w_t = \theta\cdot s = 0$ strong) |
//!
//! The input matrices are those of the isotropic models, reused: the $CG_1$ trace basis
//! $\psi^l$ of the tag's vertices of the CGDG Mindlin traction ports
//! (`mindlin::traction_input_matrices`: $\int_\Gamma\phi_w\psi^l$,
//! $\int_\Gamma\phi_\theta\cdot n\,\psi^l$, $\int_\Gamma\phi_\theta\cdot s\,\psi^l$, here also
//! with $\phi_u$) for $q_n$, $M_{nn}$, $M_{ns}$, $N_{nn}$, $N_{ns}$, and the HHJ edge moments
//! [`HhjSpace::nn_trace_matrix`](crate::element::triangle::hhj::HhjSpace::nn_trace_matrix) for
//! $\partial_nw_t$ (per-edge Legendre $P_0..P_{k-1}$, as `KirchhoffHhj::rotation_port`).
//! The collocated outputs $B^\top e$ are the weighted traces of the conjugate velocities
//! ($w_t$, $\omega_n$, $\omega_s$, $u_t\cdot n$, $u_t\cdot s$; for `dnwt` the edge moments of
//! $M_{nn}$), so $\dot H = y^\top u$. The essential causality (prescribed edge velocities)
//! needs Lagrange multipliers and is not offered here: use the strong homogeneous
//! conditions. `uniform_port_input` builds the input of a load uniform along the edges.
use crate::assembly::triangle;
use crate::error::{find_named, join_names, FemError};
use crate::error::{require_len, Fem2dError};
use crate::mesh::triangle::{BoundaryEdge, Mesh2d};
use crate::models::model::{lossless_system, NamedProfile};
use crate::space::triangle::{complement, Family2d, Shape, Space2d};
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, VarBlock};

use super::kirchhoff::{EdgeCondition, PlateProfile};
use super::mindlin::{hcat, traction_input_matrices};

/// One orthotropic ply (lamina) of a laminate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ply {
    /// Young's modulus along the fibres $E_1$ \[Pa\].
    pub E1: f64,
    /// Young's modulus across the fibres $E_2$ \[Pa\].
    pub E2: f64,
    /// Major Poisson ratio $\nu_{12}$ (with $\nu_{12}^2 < E_1/E_2$).
    pub nu12: f64,
    /// In-plane shear modulus $G_{12}$ \[Pa\].
    pub G12: f64,
    /// Transverse shear modulus $G_{13}$ \[Pa\] (Mindlin only).
    pub G13: f64,
    /// Transverse shear modulus $G_{23}$ \[Pa\] (Mindlin only).
    pub G23: f64,
    /// Density $\rho$ \[kg/m³\].
    pub rho: f64,
    /// Thickness \[m\].
    pub thickness: f64,
    /// Fibre angle from the $x$ axis towards $y$ \[degrees\].
    pub angle_deg: f64,
}

impl Ply {
    /// Isotropic ply: $E_1 = E_2 = E$, $\nu_{12} = \nu$, $G_{12} = G_{13} = G_{23} =
    /// E/(2(1+\nu))$, angle 0.
    pub fn isotropic(E: f64, nu: f64, rho: f64, thickness: f64) -> Self {
        let G = E / (2.0 * (1.0 + nu));
        Self {
            E1: E,
            E2: E,
            nu12: nu,
            G12: G,
            G13: G,
            G23: G,
            rho,
            thickness,
            angle_deg: 0.0,
        }
    }

    /// The same ply rotated to `angle_deg`.
    pub fn at(mut self, angle_deg: f64) -> Self {
        self.angle_deg = angle_deg;
        self
    }

    /// Checks positivity of the moduli, density and thickness, $1 - \nu_{12}\nu_{21} > 0$
    /// and a finite angle; errors name `plies[index].field`.
    pub fn validate(&self, index: usize) -> Result<(), FemError> {
        let name = |f: &str| format!("plies[{index}].{f}");
        for (f, v) in [
            ("E1", self.E1),
            ("E2", self.E2),
            ("G12", self.G12),
            ("G13", self.G13),
            ("G23", self.G23),
            ("rho", self.rho),
            ("thickness", self.thickness),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(FemError::InvalidParameter {
                    name: name(f),
                    value: v,
                    requirement: format!("{f} > 0 and finite (every ply needs positive data)"),
                });
            }
        }
        let nu21 = self.nu12 * self.E2 / self.E1;
        if !(self.nu12.is_finite() && 1.0 - self.nu12 * nu21 > 0.0) {
            return Err(FemError::InvalidParameter {
                name: name("nu12"),
                value: self.nu12,
                requirement: "1 - nu12^2 E2/E1 > 0 (positive definite ply stiffness)".into(),
            });
        }
        if !self.angle_deg.is_finite() {
            return Err(FemError::InvalidParameter {
                name: name("angle_deg"),
                value: self.angle_deg,
                requirement: "finite angle in degrees".into(),
            });
        }
        Ok(())
    }

    /// Transformed reduced stiffness $\bar Q$ (Voigt $xx, yy, xy$ with engineering shear;
    /// Reddy 2003 eq. (2.3.17)).
    pub fn reduced_stiffness(&self) -> [[f64; 3]; 3] {
        let nu21 = self.nu12 * self.E2 / self.E1;
        let den = 1.0 - self.nu12 * nu21;
        let (q11, q12, q22, q66) = (
            self.E1 / den,
            self.nu12 * self.E2 / den,
            self.E2 / den,
            self.G12,
        );
        let th = self.angle_deg.to_radians();
        let (s, c) = th.sin_cos();
        let (c2, s2) = (c * c, s * s);
        let (c4, s4, s2c2) = (c2 * c2, s2 * s2, s2 * c2);
        let b11 = q11 * c4 + 2.0 * (q12 + 2.0 * q66) * s2c2 + q22 * s4;
        let b12 = (q11 + q22 - 4.0 * q66) * s2c2 + q12 * (s4 + c4);
        let b22 = q11 * s4 + 2.0 * (q12 + 2.0 * q66) * s2c2 + q22 * c4;
        let b16 = (q11 - q12 - 2.0 * q66) * s * c * c2 + (q12 - q22 + 2.0 * q66) * s * s2 * c;
        let b26 = (q11 - q12 - 2.0 * q66) * s * s2 * c + (q12 - q22 + 2.0 * q66) * s * c * c2;
        let b66 = (q11 + q22 - 2.0 * q12 - 2.0 * q66) * s2c2 + q66 * (s4 + c4);
        [[b11, b12, b16], [b12, b22, b26], [b16, b26, b66]]
    }

    /// Transformed transverse shear stiffness on $(\gamma_{xz}, \gamma_{yz})$.
    pub fn shear_stiffness(&self) -> [[f64; 2]; 2] {
        let (s, c) = self.angle_deg.to_radians().sin_cos();
        let off = (self.G13 - self.G23) * c * s;
        [
            [self.G13 * c * c + self.G23 * s * s, off],
            [off, self.G13 * s * s + self.G23 * c * c],
        ]
    }
}

/// A laminate: plies stacked from the bottom ($z = -h/2$) to the top, with its CLT
/// stiffness matrices and inertias (module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Laminate {
    plies: Vec<Ply>,
    k_sh: f64,
    h: f64,
    A: [[f64; 3]; 3],
    B: [[f64; 3]; 3],
    D: [[f64; 3]; 3],
    As: [[f64; 2]; 2],
    inertia: [f64; 3],
    compliance: [[f64; 6]; 6],
}

impl Laminate {
    /// The laminate of `plies` (bottom first) with transverse shear correction factor
    /// `k_sh` (5/6 in the thesis). Errors name the offending ply; the resulting
    /// $[[A, -B], [-B, D]]$ must be positive definite.
    pub fn new(plies: Vec<Ply>, k_sh: f64) -> Result<Self, FemError> {
        if plies.is_empty() {
            return Err(FemError::InvalidParameter {
                name: "plies".into(),
                value: 0.0,
                requirement: "at least one ply".into(),
            });
        }
        if !(k_sh.is_finite() && k_sh > 0.0) {
            return Err(FemError::InvalidParameter {
                name: "k_sh".into(),
                value: k_sh,
                requirement: "shear correction factor > 0 (5/6 for homogeneous plies)".into(),
            });
        }
        for (i, p) in plies.iter().enumerate() {
            p.validate(i)?;
        }
        let h: f64 = plies.iter().map(|p| p.thickness).sum();
        let mut A = [[0.0; 3]; 3];
        let mut B = [[0.0; 3]; 3];
        let mut D = [[0.0; 3]; 3];
        let mut As = [[0.0; 2]; 2];
        let mut inertia = [0.0; 3];
        let mut z0 = -0.5 * h;
        for p in &plies {
            let z1 = z0 + p.thickness;
            let (d1, d2, d3) = (
                z1 - z0,
                0.5 * (z1 * z1 - z0 * z0),
                (z1.powi(3) - z0.powi(3)) / 3.0,
            );
            let Q = p.reduced_stiffness();
            for a in 0..3 {
                for b in 0..3 {
                    A[a][b] += Q[a][b] * d1;
                    B[a][b] += Q[a][b] * d2;
                    D[a][b] += Q[a][b] * d3;
                }
            }
            let S = p.shear_stiffness();
            for a in 0..2 {
                for b in 0..2 {
                    As[a][b] += k_sh * S[a][b] * d1;
                }
            }
            inertia[0] += p.rho * d1;
            inertia[1] += p.rho * d2;
            inertia[2] += p.rho * d3;
            z0 = z1;
        }
        // thesis convention [[D_m, D_c], [D_c, D_b]] = [[A, −B], [−B, D]]
        let mut S6 = [[0.0; 6]; 6];
        for a in 0..3 {
            for b in 0..3 {
                S6[a][b] = A[a][b];
                S6[a][b + 3] = -B[a][b];
                S6[a + 3][b] = -B[a][b];
                S6[a + 3][b + 3] = D[a][b];
            }
        }
        let compliance = invert_spd6(&S6).ok_or_else(|| FemError::InvalidParameter {
            name: "laminate stiffness [[A, -B], [-B, D]]".into(),
            value: 0.0,
            requirement: "positive definite (check the ply moduli and thicknesses)".into(),
        })?;
        Ok(Self {
            plies,
            k_sh,
            h,
            A,
            B,
            D,
            As,
            inertia,
            compliance,
        })
    }

    /// A single isotropic ply of thickness `h` ($K_{sh} = 5/6$): $A = hQ$, $B = 0$,
    /// $D = h^3Q/12$, $A_s = \tfrac56Gh\,I$, $(I_0, I_1, I_2) = (\rho h, 0, \rho h^3/12)$.
    pub fn isotropic(E: f64, nu: f64, rho: f64, h: f64) -> Result<Self, FemError> {
        Self::new(vec![Ply::isotropic(E, nu, rho, h)], 5.0 / 6.0)
    }

    /// The plies, bottom first.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }
    /// Total thickness $h$ \[m\].
    pub fn thickness(&self) -> f64 {
        self.h
    }
    /// Shear correction factor $K_{sh}$.
    pub fn shear_factor(&self) -> f64 {
        self.k_sh
    }
    /// Extensional stiffness $A$ \[N/m\] (Voigt).
    pub fn a(&self) -> [[f64; 3]; 3] {
        self.A
    }
    /// Coupling stiffness $B$ \[N\] (Reddy's sign; the thesis's $\mathcal D_c = -B$).
    pub fn b(&self) -> [[f64; 3]; 3] {
        self.B
    }
    /// Bending stiffness $D$ \[N m\].
    pub fn d(&self) -> [[f64; 3]; 3] {
        self.D
    }
    /// Transverse shear stiffness $A_s$ \[N/m\] on $(\gamma_{xz}, \gamma_{yz})$, $K_{sh}$
    /// included.
    pub fn a_s(&self) -> [[f64; 2]; 2] {
        self.As
    }
    /// Mass moments $(I_0, I_1, I_2)$ \[kg/m², kg/m, kg\].
    pub fn inertia(&self) -> [f64; 3] {
        self.inertia
    }
    /// Inverse of $[[A, -B], [-B, D]]$ (Voigt, strains $(\varepsilon^0, \kappa)$ with
    /// engineering shears).
    pub fn compliance(&self) -> [[f64; 6]; 6] {
        self.compliance
    }
    /// Pointwise blocks $(Q_{NN}, Q_{NM}, Q_{MM})$ of the compliance on the stored tensor
    /// components $(xx, xy, yy)$ (row-major, for `V : C M` with the Frobenius weights built
    /// in, as [`super::BendingStiffness::compliance`]).
    pub fn compliance_blocks(&self) -> [[f64; 9]; 3] {
        let v = [0usize, 2, 1];
        let C = &self.compliance;
        let mut out = [[0.0; 9]; 3];
        for a in 0..3 {
            for b in 0..3 {
                out[0][3 * a + b] = C[v[a]][v[b]];
                out[1][3 * a + b] = C[v[a]][3 + v[b]];
                out[2][3 * a + b] = C[3 + v[a]][3 + v[b]];
            }
        }
        out
    }
    /// Shear compliance $A_s^{-1}$ (row-major $2\times2$).
    pub fn shear_compliance(&self) -> [f64; 4] {
        let s = &self.As;
        let det = s[0][0] * s[1][1] - s[0][1] * s[1][0];
        [s[1][1] / det, -s[0][1] / det, -s[1][0] / det, s[0][0] / det]
    }
}

/// Inverse of a symmetric positive definite $6\times6$ matrix by Cholesky; `None` if not
/// positive definite (pivot below $10^{-13}$ times the largest diagonal entry).
#[allow(clippy::needless_range_loop)] // dense 6×6 index arithmetic
fn invert_spd6(S: &[[f64; 6]; 6]) -> Option<[[f64; 6]; 6]> {
    let scale = (0..6).fold(0.0f64, |m, i| m.max(S[i][i].abs()));
    let mut L = [[0.0; 6]; 6];
    for j in 0..6 {
        let mut d = S[j][j];
        for k in 0..j {
            d -= L[j][k] * L[j][k];
        }
        if d.is_nan() || d <= 1e-13 * scale {
            return None;
        }
        let ljj = d.sqrt();
        L[j][j] = ljj;
        for i in j + 1..6 {
            let mut v = S[i][j];
            for k in 0..j {
                v -= L[i][k] * L[j][k];
            }
            L[i][j] = v / ljj;
        }
    }
    // solve L Lᵀ X = I column by column
    let mut X = [[0.0; 6]; 6];
    for c in 0..6 {
        let mut y = [0.0; 6];
        for i in 0..6 {
            let mut v = if i == c { 1.0 } else { 0.0 };
            for k in 0..i {
                v -= L[i][k] * y[k];
            }
            y[i] = v / L[i][i];
        }
        for i in (0..6).rev() {
            let mut v = y[i];
            for k in i + 1..6 {
                v -= L[k][i] * X[k][c];
            }
            X[i][c] = v / L[i][i];
        }
    }
    // symmetrize round-off
    for i in 0..6 {
        for j in 0..i {
            let m = 0.5 * (X[i][j] + X[j][i]);
            X[i][j] = m;
            X[j][i] = m;
        }
    }
    Some(X)
}

/// Membrane (in-plane) condition of a plate edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MembraneCondition {
    /// $\dot{\mathbf u}^0 = 0$ (both components removed).
    Fixed,
    /// $\mathbf N\mathbf n = 0$ (natural).
    Free,
    /// $\dot u_s = 0$, $N_{nn} = 0$ (Reddy SS-1; axis-parallel edges).
    TangentialFixed,
    /// $\dot u_n = 0$, $N_{ns} = 0$ (Reddy SS-2; axis-parallel edges).
    NormalFixed,
}

/// The co-energy fields of the laminated plates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaminatedField {
    /// In-plane velocity $\dot{\mathbf u}^0$ (block `e_u`).
    InPlaneVelocity,
    /// Vertical velocity $\dot w$ (block `e_w`).
    Velocity,
    /// Rotation rates $\dot\theta$ (block `e_theta`, Mindlin only).
    RotationRate,
    /// Membrane stress resultants $\mathbf N$ (block `E_eps`).
    MembraneStress,
    /// Bending moments $\mathbf M$ (block `E_kappa`).
    Moments,
    /// Shear forces $\mathbf q$ (block `e_gamma`, Mindlin only).
    ShearForces,
}

impl LaminatedField {
    /// Block name.
    pub fn block_name(&self) -> &'static str {
        match self {
            LaminatedField::InPlaneVelocity => "e_u",
            LaminatedField::Velocity => "e_w",
            LaminatedField::RotationRate => "e_theta",
            LaminatedField::MembraneStress => "E_eps",
            LaminatedField::Moments => "E_kappa",
            LaminatedField::ShearForces => "e_gamma",
        }
    }
    fn meaning(&self) -> &'static str {
        match self {
            LaminatedField::InPlaneVelocity => "in-plane velocity (x, y) [m/s]",
            LaminatedField::Velocity => "vertical velocity [m/s]",
            LaminatedField::RotationRate => "rotation rates (x, y) [rad/s]",
            LaminatedField::MembraneStress => "membrane stress resultants (xx, xy, yy) [N/m]",
            LaminatedField::Moments => "bending moments (xx, xy, yy) [N m/m]",
            LaminatedField::ShearForces => "shear forces (x, y) [N/m]",
        }
    }
}

/// Edge conditions, loads and mesh shared by the two builders.
#[derive(Debug, Clone)]
pub(crate) struct Common {
    pub(crate) laminate: Laminate,
    pub(crate) mesh: Mesh2d,
    pub(crate) degree: usize,
    pub(crate) conditions: Vec<(String, EdgeCondition, MembraneCondition, bool)>,
    pub(crate) loads: Vec<NamedProfile<PlateProfile>>,
}

impl Common {
    pub(crate) fn new(
        laminate: Laminate,
        mesh: &Mesh2d,
        degree: usize,
        what: &str,
    ) -> Result<Self, Fem2dError> {
        if !(1..=3).contains(&degree) {
            return Err(FemError::UnsupportedDegree {
                what: format!("{what} degree k"),
                degree,
                supported: "1..=3".into(),
            }
            .into());
        }
        Ok(Self {
            laminate,
            mesh: mesh.clone(),
            degree,
            conditions: Vec::new(),
            loads: Vec::new(),
        })
    }

    /// Per boundary edge (index into `mesh.boundary_edges()`): its condition, if any;
    /// errors on unknown tags and on edges claimed by two tags.
    pub(crate) fn edge_owner(
        &self,
    ) -> Result<Vec<Option<(EdgeCondition, MembraneCondition)>>, Fem2dError> {
        let tags: Vec<&str> = self.conditions.iter().map(|c| c.0.as_str()).collect();
        let owner = self.mesh.partition_tags(&tags)?.owner;
        Ok(owner
            .into_iter()
            .map(|o| o.map(|ci| (self.conditions[ci].1, self.conditions[ci].2)))
            .collect())
    }

    /// Tag of the condition owning boundary edge `b` (for error messages).
    pub(crate) fn tag_of(&self, b: &BoundaryEdge) -> String {
        for (tag, _, _, _) in &self.conditions {
            if let Ok(edges) = self.mesh.tagged_edges(tag) {
                if edges.iter().any(|e| e.edge == b.edge) {
                    return tag.clone();
                }
            }
        }
        "(untagged)".into()
    }

    /// Component (0 = x, 1 = y) of the tangent (`tangent = true`) or the normal of an
    /// axis-parallel boundary edge; error naming the tag otherwise.
    pub(crate) fn axis_component(
        &self,
        b: &BoundaryEdge,
        tangent: bool,
        what: &str,
    ) -> Result<usize, Fem2dError> {
        let n = self.mesh.outward_normal(b);
        let normal_axis = if n[0].abs() > 1.0 - 1e-10 {
            0
        } else if n[1].abs() > 1.0 - 1e-10 {
            1
        } else {
            let mid = self.mesh.edge_midpoint(b.edge);
            return Err(FemError::InvalidParameter {
                name: format!("{what} on tag '{}'", self.tag_of(b)),
                value: n[0],
                requirement: format!(
                    "an axis-parallel edge (normal ({:.3}, {:.3}) at ({:.4}, {:.4})); use Fixed/Free or clamped on inclined edges",
                    n[0], n[1], mid[0], mid[1]
                ),
            }
            .into());
        };
        Ok(if tangent {
            1 - normal_axis
        } else {
            normal_axis
        })
    }

    /// Open-numbering DOFs of a vector CG space (block offset `off`) on edge `b`, component
    /// `comp` (`None`: both).
    pub(crate) fn vector_edge_dofs(
        s: &Space2d,
        b: &BoundaryEdge,
        comp: Option<usize>,
        off: usize,
    ) -> Vec<usize> {
        let scalar = cg_edge_dofs(s, b);
        let comps: Vec<usize> = match comp {
            Some(c) => vec![c],
            None => vec![0, 1],
        };
        comps
            .iter()
            .flat_map(|&c| scalar.iter().map(move |&i| off + s.global(c, i)))
            .collect()
    }

    /// Membrane DOFs removed on edge `b` by condition `mc` (`su` at offset `off`).
    pub(crate) fn membrane_removed(
        &self,
        su: &Space2d,
        b: &BoundaryEdge,
        mc: MembraneCondition,
        off: usize,
    ) -> Result<Vec<usize>, Fem2dError> {
        Ok(match mc {
            MembraneCondition::Fixed => Self::vector_edge_dofs(su, b, None, off),
            MembraneCondition::Free => Vec::new(),
            MembraneCondition::TangentialFixed => {
                let c = self.axis_component(b, true, "membrane condition TangentialFixed")?;
                Self::vector_edge_dofs(su, b, Some(c), off)
            }
            MembraneCondition::NormalFixed => {
                let c = self.axis_component(b, false, "membrane condition NormalFixed")?;
                Self::vector_edge_dofs(su, b, Some(c), off)
            }
        })
    }

    /// The boundary ports of the builder (module docs, "Boundary ports"), in declaration
    /// order, with their $B$ columns in the open numbering (`n_open` rows): for each port
    /// tag, the bending ports returned by `bending(tag, condition, edges)` followed by the
    /// membrane traction ports `{tag}_Nnn`, `{tag}_Nns` (the $CG_1$ trace input matrices of
    /// the CGDG Mindlin plate, [`super::mindlin`], applied to the in-plane velocity at
    /// `u_off`).
    #[allow(clippy::type_complexity)]
    pub(crate) fn edge_ports(
        &self,
        sw: &Space2d,
        su: &Space2d,
        u_off: usize,
        n_open: usize,
        bending: BendingPorts,
    ) -> Result<(Vec<Port>, Vec<SparseMat>, Vec<(String, usize)>), Fem2dError> {
        let mut ports = Vec::new();
        let mut cols = Vec::new();
        let mut legendre = Vec::new();
        for (tag, bc, _, port) in &self.conditions {
            if !*port {
                continue;
            }
            let edges = self.mesh.tagged_edges(tag)?;
            for (p, b, ne) in bending(tag, *bc, &edges)? {
                legendre.push((p.name.clone(), ne));
                ports.push(p);
                cols.push(b);
            }
            let [_, bn, bs] = traction_input_matrices(sw, su, &[tag], n_open, u_off)?;
            for (suffix, meaning_in, meaning_out, b) in [
                (
                    "Nnn",
                    "normal membrane traction N_nn [N/m] (CG1 trace)",
                    "weighted trace of the normal in-plane velocity u_t . n [m²/s]",
                    bn,
                ),
                (
                    "Nns",
                    "tangential membrane traction N_ns [N/m] (CG1 trace)",
                    "weighted trace of the tangential in-plane velocity u_t . s [m²/s]",
                    bs,
                ),
            ] {
                legendre.push((format!("{tag}_{suffix}"), 0));
                ports.push(Port::new(
                    format!("{tag}_{suffix}"),
                    b.ncols(),
                    meaning_in,
                    meaning_out,
                ));
                cols.push(b);
            }
        }
        Ok((ports, cols, legendre))
    }

    /// Load ports: (ports, B in the open numbering with `e_w` at offset `w_off`).
    pub(crate) fn load_ports(
        &self,
        sw: &Space2d,
        w_off: usize,
        n_open: usize,
    ) -> Result<(Vec<Port>, SparseMat), Fem2dError> {
        let mut t = Triplets::new(n_open, self.loads.len());
        let mut ports = Vec::new();
        for (j, NamedProfile { name, profile }) in self.loads.iter().enumerate() {
            let f = profile.clone();
            let c = triangle::load(sw, &move |x, o| o[0] = f(x), self.degree + 6)?;
            for (i, v) in c.iter().enumerate() {
                if *v != 0.0 {
                    t.push(w_off + i, j, *v);
                }
            }
            ports.push(Port::new(
                name.clone(),
                1,
                "amplitude a(t) of the distributed transverse load a(t) f(x, y) [N/m² per unit f]",
                "integral of f times the vertical velocity over the plate [m³/s per unit f]",
            ));
        }
        Ok((ports, t.build()))
    }
}

/// The open (unrestricted) matrices of a laminated plate: the fields in block order,
/// their sizes, $E$, $J$ and the DOFs removed by the strong conditions.
pub(crate) struct OpenPlate {
    pub(crate) fields: Vec<LaminatedField>,
    pub(crate) sizes: Vec<usize>,
    pub(crate) E: SparseMat,
    pub(crate) J: SparseMat,
    pub(crate) removed: Vec<usize>,
}

/// The bending ports of one port tag: `bending(tag, condition, edges)` gives each port, its
/// $B$ columns (open numbering) and its per-edge Legendre count (0: $CG_1$ trace).
pub(crate) type BendingPorts<'a> = &'a dyn Fn(
    &str,
    EdgeCondition,
    &[BoundaryEdge],
) -> Result<Vec<(Port, SparseMat, usize)>, Fem2dError>;

impl Common {
    /// The in-plane velocity space $(CG_k)^2$ and the vertical velocity space $CG_k$ of
    /// both theories.
    pub(crate) fn velocity_spaces(&self) -> Result<(Space2d, Space2d), Fem2dError> {
        let su = Space2d::new(&self.mesh, Family2d::Cg(self.degree), Shape::Vector)?;
        let sw = Space2d::new(&self.mesh, Family2d::Cg(self.degree), Shape::Scalar)?;
        Ok((su, sw))
    }

    /// The ports of the model and their $B$ (open numbering, in-plane velocity at offset 0,
    /// vertical velocity at `sizes[0]`): the boundary ports ([`Self::edge_ports`]) then the
    /// load ports ([`Self::load_ports`]); with the per-edge Legendre count of each port.
    pub(crate) fn ports(
        &self,
        (su, sw): (&Space2d, &Space2d),
        sizes: &[usize],
        bending: BendingPorts,
    ) -> Result<PlatePorts, Fem2dError> {
        let n_open: usize = sizes.iter().sum();
        let (mut ports, mut cols, legendre) = self.edge_ports(sw, su, 0, n_open, bending)?;
        let (lports, lB) = self.load_ports(sw, sizes[0], n_open)?;
        ports.extend(lports);
        cols.push(lB);
        let B = hcat(&cols.iter().collect::<Vec<_>>(), n_open);
        Ok(PlatePorts { ports, B, legendre })
    }

    /// The model from its open matrices and ports, restricted to the kept DOFs.
    pub(crate) fn finish<P>(
        &self,
        (su, sw): (Space2d, Space2d),
        plate: P,
        open: OpenPlate,
        ports: PlatePorts,
    ) -> Result<LaminatedModel<P>, Fem2dError> {
        let asm = Assembled::finish(
            open.fields,
            &open.sizes,
            &open.E,
            &open.J,
            &ports.B,
            ports.ports,
            open.removed,
        )?;
        Ok(LaminatedModel {
            laminate: self.laminate.clone(),
            degree: self.degree,
            asm,
            su,
            sw,
            plate,
            legendre: ports.legendre,
        })
    }
}

/// The ports of a laminated plate, their input matrix $B$ (open numbering) and the
/// per-edge Legendre count of every boundary port (0: $CG_1$ trace).
pub(crate) struct PlatePorts {
    ports: Vec<Port>,
    B: SparseMat,
    legendre: Vec<(String, usize)>,
}

/// An assembled laminated plate (module docs): the in-plane and vertical velocity spaces
/// of both theories and the stress spaces `P` of one theory
/// ([`LaminatedKirchhoffModel`]: membrane DG and HHJ moments; [`LaminatedMindlinModel`]:
/// DG membrane/moment and shear spaces).
#[derive(Debug, Clone)]
pub struct LaminatedModel<P> {
    laminate: Laminate,
    degree: usize,
    asm: Assembled,
    su: Space2d,
    sw: Space2d,
    pub(crate) plate: P,
    /// Boundary ports and their per-edge Legendre count (0: $CG_1$ trace).
    legendre: Vec<(String, usize)>,
}

impl<P> LaminatedModel<P> {
    /// The pH system $E\dot e = Je + Bu$.
    pub fn system(&self) -> &LinearPhSystem {
        &self.asm.system
    }
    /// Consumes the model, returning its system.
    pub fn into_system(self) -> LinearPhSystem {
        self.asm.system
    }
    /// The laminate.
    pub fn laminate(&self) -> &Laminate {
        &self.laminate
    }
    /// Degree $k$.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// Number of state variables.
    pub fn n_states(&self) -> usize {
        self.asm.kept.len()
    }
    /// The $(CG_k)^2$ in-plane velocity space.
    pub fn in_plane_space(&self) -> &Space2d {
        &self.su
    }
    /// The $CG_k$ vertical velocity space.
    pub fn velocity_space(&self) -> &Space2d {
        &self.sw
    }
    /// Input of boundary port `port` for a field uniform along its edges (all $CG_1$ trace
    /// coefficients, or every per-edge $P_0$ coefficient of a Legendre port such as
    /// `{tag}_dnwt`, set to `value`).
    pub fn uniform_port_input(&self, port: &str, value: f64) -> Result<Vec<f64>, Fem2dError> {
        uniform_port_input(&self.asm.system, &self.legendre, port, value)
    }
    /// Coefficients of field `f` in its full space (removed DOFs zero).
    pub fn field_coefficients(&self, e: &[f64], f: LaminatedField) -> Result<Vec<f64>, Fem2dError> {
        self.asm.field_coefficients(e, f)
    }
    /// State from full coefficient vectors of some fields (the others zero; removed DOFs
    /// dropped).
    pub fn state_from_fields(
        &self,
        fields: &[(LaminatedField, &[f64])],
    ) -> Result<Vec<f64>, Fem2dError> {
        self.asm.state_from_fields(fields)
    }
    /// State with nodal interpolants of the in-plane velocity `u` (may be `None`) and the
    /// vertical velocity `w`, zero rotation rates and stresses.
    pub fn interpolate_velocities(
        &self,
        u: Option<&dyn Fn([f64; 2]) -> [f64; 2]>,
        w: &dyn Fn([f64; 2]) -> f64,
    ) -> Result<Vec<f64>, Fem2dError> {
        let wc = self.sw.interpolate(&|x, o| o[0] = w(x));
        let uc = match u {
            Some(f) => self.su.interpolate(&|x, o| o.copy_from_slice(&f(x))),
            None => vec![0.0; self.su.n_dofs()],
        };
        self.state_from_fields(&[
            (LaminatedField::InPlaneVelocity, &uc),
            (LaminatedField::Velocity, &wc),
        ])
    }
}

/// The $CG_k$ scalar DOFs whose basis functions do not vanish on boundary edge `b`.
pub(crate) fn cg_edge_dofs(s: &Space2d, b: &BoundaryEdge) -> Vec<usize> {
    let ne = s.element().nodes_per_edge();
    let d = s.cell_dofs(b.cell);
    let mut out = vec![d[(b.local + 1) % 3], d[(b.local + 2) % 3]];
    out.extend_from_slice(&d[3 + b.local * ne..3 + (b.local + 1) * ne]);
    out
}

/// `A` with its rows shifted by `r0` inside a matrix of `n` rows.
pub(crate) fn shift_rows(A: &SparseMat, r0: usize, n: usize) -> SparseMat {
    let mut t = Triplets::new(n, A.ncols());
    t.push_block(r0, 0, A, 1.0);
    t.build()
}

/// Input of port `port` for a traction (or rotation rate) uniform along its edges:
/// $CG_1$ trace ports (`legendre` entry 0) take `value` on every coefficient (the hat
/// functions sum to one), per-edge Legendre ports ($n_e$ coefficients per edge) `value` on
/// each $P_0$ coefficient.
pub(crate) fn uniform_port_input(
    system: &LinearPhSystem,
    legendre: &[(String, usize)],
    port: &str,
    value: f64,
) -> Result<Vec<f64>, Fem2dError> {
    let ne = *find_named(legendre, port, "boundary port")?;
    let dim = system.ports.range(port).map_err(FemError::from)?.len();
    Ok((0..dim)
        .map(|i| if ne == 0 || i % ne == 0 { value } else { 0.0 })
        .collect())
}

/// A laminated plate system with its open-numbering bookkeeping.
#[derive(Debug, Clone)]
pub(crate) struct Assembled {
    pub(crate) system: LinearPhSystem,
    /// Fields in block order and their open offsets (`offsets[i]..offsets[i+1]`).
    fields: Vec<LaminatedField>,
    offsets: Vec<usize>,
    pub(crate) kept: Vec<usize>,
}

impl Assembled {
    /// Restricts the open $(E, J, B)$ to the kept DOFs and wraps the pH system.
    pub(crate) fn finish(
        fields: Vec<LaminatedField>,
        sizes: &[usize],
        E: &SparseMat,
        J: &SparseMat,
        B: &SparseMat,
        ports: Vec<Port>,
        mut removed: Vec<usize>,
    ) -> Result<Self, Fem2dError> {
        let mut offsets = vec![0usize];
        for s in sizes {
            offsets.push(offsets.last().copied().unwrap_or(0) + s);
        }
        let n_open = *offsets.last().unwrap_or(&0);
        removed.sort_unstable();
        removed.dedup();
        let kept = complement(n_open, &removed);
        let blocks: Vec<VarBlock> = fields
            .iter()
            .enumerate()
            .map(|(b, f)| {
                let r = offsets[b]..offsets[b + 1];
                let len = kept.iter().filter(|i| r.contains(i)).count();
                VarBlock::differential(f.block_name(), f.meaning(), len)
            })
            .collect();
        let all: Vec<usize> = (0..B.ncols()).collect();
        let system = lossless_system(
            sparse::restrict(E, &kept, &kept),
            sparse::restrict(J, &kept, &kept),
            sparse::restrict(B, &kept, &all),
            ports,
            blocks,
        )?;
        Ok(Self {
            system,
            fields,
            offsets,
            kept,
        })
    }

    pub(crate) fn block_of(&self, f: LaminatedField) -> Result<usize, Fem2dError> {
        self.fields.iter().position(|&g| g == f).ok_or_else(|| {
            FemError::UnknownField {
                field: f.block_name().into(),
                model: "laminated plate".into(),
                available: join_names(self.fields.iter().map(|g| g.block_name())),
            }
            .into()
        })
    }

    pub(crate) fn field_coefficients(
        &self,
        e: &[f64],
        f: LaminatedField,
    ) -> Result<Vec<f64>, Fem2dError> {
        require_len("laminated plate state", self.kept.len(), e.len())?;
        let b = self.block_of(f)?;
        let r = self.offsets[b]..self.offsets[b + 1];
        let mut u = vec![0.0; r.len()];
        for (s, &i) in self.kept.iter().enumerate() {
            if r.contains(&i) {
                u[i - r.start] = e[s];
            }
        }
        Ok(u)
    }

    pub(crate) fn state_from_fields(
        &self,
        fields: &[(LaminatedField, &[f64])],
    ) -> Result<Vec<f64>, Fem2dError> {
        let mut open = vec![0.0; *self.offsets.last().unwrap_or(&0)];
        for (f, c) in fields {
            let b = self.block_of(*f)?;
            let len = self.offsets[b + 1] - self.offsets[b];
            if c.len() != len {
                return Err(FemError::Length {
                    what: format!("{} coefficients", f.block_name()),
                    expected: len,
                    found: c.len(),
                }
                .into());
            }
            open[self.offsets[b]..self.offsets[b + 1]].copy_from_slice(c);
        }
        Ok(self.kept.iter().map(|&i| open[i]).collect())
    }
}

macro_rules! builder_conditions {
    () => {
        /// Clamped edges: bending clamped, membrane `Fixed`.
        pub fn clamped(mut self, tag: &str) -> Self {
            self.c.conditions.push((
                tag.into(),
                EdgeCondition::Clamped,
                MembraneCondition::Fixed,
                false,
            ));
            self
        }
        /// Simply supported edges (Navier conditions of cross-ply laminates, Reddy SS-1):
        /// bending simply supported, membrane `TangentialFixed` (axis-parallel edges).
        pub fn simply_supported(mut self, tag: &str) -> Self {
            self.c.conditions.push((
                tag.into(),
                EdgeCondition::SimplySupported,
                MembraneCondition::TangentialFixed,
                false,
            ));
            self
        }
        /// Free edges (also the default of edges without a condition).
        pub fn free(mut self, tag: &str) -> Self {
            self.c.conditions.push((
                tag.into(),
                EdgeCondition::Free,
                MembraneCondition::Free,
                false,
            ));
            self
        }
        /// General edge condition: bending `bending`, membrane `membrane`.
        pub fn edge(
            mut self,
            tag: &str,
            bending: EdgeCondition,
            membrane: MembraneCondition,
        ) -> Self {
            self.c
                .conditions
                .push((tag.into(), bending, membrane, false));
            self
        }
        /// Boundary port on the edges tagged `tag` in the natural causality of each field
        /// (module docs, "Boundary ports"): the membrane is free with the traction inputs
        /// `{tag}_Nnn`, `{tag}_Nns`; the bending condition `bending` is imposed as by
        /// [`Self::edge`] and its natural inputs are ports (Kirchhoff: free → `{tag}_qn`,
        /// clamped → `{tag}_dnwt`; Mindlin: free → `{tag}_qn`, `{tag}_Mnn`, `{tag}_Mns`,
        /// simply supported → `{tag}_Mnn`). Zero inputs give the homogeneous condition
        /// (bending `bending`, membrane free).
        pub fn port(mut self, tag: &str, bending: EdgeCondition) -> Self {
            self.c
                .conditions
                .push((tag.into(), bending, MembraneCondition::Free, true));
            self
        }
        /// A distributed transverse load port `name`: input $a(t)$, load density
        /// $a(t)f(x, y)$ \[N/m² per unit of $f$\], output $\int f\,e_w$.
        pub fn load(mut self, name: &str, profile: PlateProfile) -> Self {
            self.c
                .loads
                .push($crate::models::model::NamedProfile::new(name, profile));
            self
        }
    };
}
pub(crate) use builder_conditions;

pub use super::laminated_kirchhoff::{
    dg_hhj_mass, HhjPlateSpaces, LaminatedKirchhoff, LaminatedKirchhoffModel,
};
pub use super::laminated_mindlin::{CgDgPlateSpaces, LaminatedMindlin, LaminatedMindlinModel};

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use crate::mesh::triangle::Diagonal;

    /// A carbon–epoxy ply (E1 = 140 GPa, E2 = 10 GPa, 1 mm) at 0°.
    fn carbon_ply() -> Ply {
        Ply {
            E1: 140e9,
            E2: 10e9,
            nu12: 0.3,
            G12: 5e9,
            G13: 5e9,
            G23: 3e9,
            rho: 1600.0,
            thickness: 0.001,
            angle_deg: 0.0,
        }
    }

    /// The compliance inverts [[A, −B], [−B, D]] (random-ish antisymmetric angle-ply).
    #[test]
    fn compliance_inverts_abd() {
        let p = carbon_ply().at(30.0);
        let lam = Laminate::new(vec![p.at(30.0), p.at(-30.0), p.at(75.0)], 5.0 / 6.0).unwrap();
        let (A, B, D) = (lam.a(), lam.b(), lam.d());
        let C = lam.compliance();
        for i in 0..6 {
            for j in 0..6 {
                let mut s = 0.0;
                for l in 0..6 {
                    let S = match (i < 3, l < 3) {
                        (true, true) => A[i][l],
                        (true, false) => -B[i][l - 3],
                        (false, true) => -B[i - 3][l],
                        (false, false) => D[i - 3][l - 3],
                    };
                    s += S * C[l][j];
                }
                let e = if i == j { 1.0 } else { 0.0 };
                assert!((s - e).abs() < 1e-10, "({i},{j}) {s}");
            }
        }
    }

    #[test]
    fn ply_errors_name_the_ply() {
        let good = Ply::isotropic(70e9, 0.3, 2700.0, 0.001);
        let bad = Ply { G23: -1.0, ..good };
        let err = Laminate::new(vec![good, bad], 5.0 / 6.0).unwrap_err();
        assert!(err.to_string().contains("plies[1].G23"), "{err}");
        let bad_nu = Ply { nu12: 1.5, ..good };
        let err = Laminate::new(vec![bad_nu], 5.0 / 6.0).unwrap_err();
        assert!(err.to_string().contains("plies[0].nu12"), "{err}");
        assert!(Laminate::new(vec![], 5.0 / 6.0).is_err());
        assert!(Laminate::new(vec![good], 0.0).is_err());
    }

    #[test]
    fn structure_and_errors() {
        let mesh = Mesh2d::unit_square(3, Diagonal::Right).unwrap();
        let p = carbon_ply();
        let lam = Laminate::new(vec![p.at(0.0), p.at(90.0)], 5.0 / 6.0).unwrap();
        for k in 1..=3 {
            let m = LaminatedKirchhoff::new(lam.clone(), &mesh, k)
                .unwrap()
                .simply_supported("left")
                .clamped("right")
                .build()
                .unwrap();
            m.system().check(&Default::default()).unwrap();
            let m = LaminatedMindlin::new(lam.clone(), &mesh, k)
                .unwrap()
                .simply_supported("left")
                .clamped("right")
                .build()
                .unwrap();
            m.system().check(&Default::default()).unwrap();
        }
        assert!(LaminatedKirchhoff::new(lam.clone(), &mesh, 4).is_err());
        let err = LaminatedKirchhoff::new(lam.clone(), &mesh, 1)
            .unwrap()
            .clamped("left")
            .free("left")
            .build()
            .unwrap_err();
        assert!(err.to_string().contains("left"), "{err}");
        // roller conditions need axis-parallel edges: the hypotenuse of a triangle is not
        let mut tri =
            Mesh2d::new(vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], vec![[0, 1, 2]]).unwrap();
        tri.tag_boundary("hyp", |x| (x[0] + x[1] - 1.0).abs() < 1e-12)
            .unwrap();
        let err = LaminatedKirchhoff::new(lam.clone(), &tri, 1)
            .unwrap()
            .simply_supported("hyp")
            .build()
            .unwrap_err();
        assert!(err.to_string().contains("'hyp'"), "{err}");
        // ... while fixed membranes work on any edge
        LaminatedKirchhoff::new(lam.clone(), &tri, 1)
            .unwrap()
            .clamped("hyp")
            .build()
            .unwrap();
        let err = LaminatedMindlin::new(lam, &mesh, 1)
            .unwrap()
            .clamped("nope")
            .build()
            .unwrap_err();
        assert!(matches!(err, Fem2dError::UnknownTag { .. }));
    }
}
