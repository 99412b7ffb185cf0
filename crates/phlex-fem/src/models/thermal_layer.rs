//! Heat conduction in a thermal layer discretized as a tensor product of an in-plane (or
//! axial) space and a through-thickness space: the blocks shared by the thermoelastic beam
//! ([`super::beam::thermoelastic_beam`]) and plate ([`super::plate::thermoelastic_kirchhoff`])
//! (thesis 004 §5.1, the heat equation of eqs. (5.2)–(5.5) on the layer).
//!
//! With the temperature DOF $(i_x, i_z) \mapsto i_x n_z + i_z$, the descriptor and the
//! dissipation of the layer are
//! $$E_T = c_t\,(M_x \otimes M_z),\qquad R_T = k_t\,(M_x \otimes K_z + K_x \otimes M_z),$$
//! $M$ the mass and $K$ the stiffness ($\int\partial\phi\,\partial\psi$) matrices of the two
//! factors, $c_t = CT_0$ and $k_t = kT_0$ (times the width for the beam).
use crate::assembly::line::{self, Coefficient};
use crate::error::FemError;
use crate::mesh::interval::End;
use crate::space::line::Space1d;
use faer::Mat;
use phlex_core::sparse::{self, SparseMat, Triplets};

/// Visits the nonzero entries of $E_T$ and $R_T$ (module docs) in the local layer
/// numbering: `e(row, col, value)` and `r(row, col, value)`, column by column of $M_x$
/// (every $E_T$ entry with its $M_x \otimes K_z$ entry), then of $K_x$.
#[allow(clippy::too_many_arguments)]
pub(crate) fn layer_heat_blocks(
    mx: &SparseMat,
    kx: &SparseMat,
    mz: &Mat<f64>,
    kz: &Mat<f64>,
    ct: f64,
    kt: f64,
    e: &mut dyn FnMut(usize, usize, f64),
    r: &mut dyn FnMut(usize, usize, f64),
) {
    let nzd = mz.nrows();
    let idx = |ix: usize, iz: usize| ix * nzd + iz;
    for jx in 0..mx.ncols() {
        for (ix, mxv) in sparse::col_iter(mx, jx) {
            for jz in 0..nzd {
                for iz in 0..nzd {
                    let (m, k) = (mz[(iz, jz)], kz[(iz, jz)]);
                    if m != 0.0 || k != 0.0 {
                        e(idx(ix, iz), idx(jx, jz), ct * mxv * m);
                        r(idx(ix, iz), idx(jx, jz), kt * mxv * k);
                    }
                }
            }
        }
        for (ix, kxv) in sparse::col_iter(kx, jx) {
            for jz in 0..nzd {
                for iz in 0..nzd {
                    let m = mz[(iz, jz)];
                    if m != 0.0 {
                        r(idx(ix, iz), idx(jx, jz), kt * kxv * m);
                    }
                }
            }
        }
    }
}

/// The through-thickness factors of the layer on the space $\psi_j$ of $z$: dense mass
/// $M_z$ and stiffness $K_z$, the first moments $Z_j = \int z\,\psi_j$ (thermoelastic
/// coupling) and the top-face traces $\psi_j(z_{top})$ (heat flux into the top face).
pub(crate) struct ThicknessFactors {
    /// $M_z$.
    pub mz: Mat<f64>,
    /// $K_z$.
    pub kz: Mat<f64>,
    /// $Z_j = \int z\,\psi_j$.
    pub moment: Vec<f64>,
    /// $\psi_j$ at the top face (right end of the thickness mesh).
    pub top: Vec<f64>,
}

impl ThicknessFactors {
    /// The factors of the thickness space `vz`.
    pub(crate) fn new(vz: &Space1d) -> Result<Self, FemError> {
        Ok(Self {
            mz: sparse::to_dense(&line::mass(vz, &Coefficient::Constant(1.0))?),
            kz: sparse::to_dense(&line::gradient_coupling(vz, vz)?),
            moment: line::load_functional(vz, 0, &|z| z, 1)?.to_dense(),
            top: vz.end_functional(End::Right, 0).to_dense(),
        })
    }

    /// Pushes the skew thermoelastic coupling
    /// $J[\theta_{(a, j)}, w] = c\,X_{a i} Z_j$, $J[w, \theta_{(a, j)}] = -J[\theta_{(a, j)}, w]$
    /// for the in-plane coupling `x` (rows: in-plane temperature DOFs $a$, columns:
    /// velocity DOFs $i$) into `j`, with $w$ = `w_state[i]` (velocity DOFs without a state
    /// skipped) and the layer numbering offset by `theta0`.
    pub(crate) fn push_coupling(
        &self,
        j: &mut Triplets,
        x: &SparseMat,
        c: f64,
        w_state: &[Option<usize>],
        theta0: usize,
    ) {
        let nz = self.moment.len();
        for (i, w) in w_state.iter().enumerate() {
            let Some(w) = *w else { continue };
            for (a, xv) in sparse::col_iter(x, i) {
                for (jz, &zv) in self.moment.iter().enumerate() {
                    if zv != 0.0 {
                        let v = c * xv * zv;
                        j.push(theta0 + a * nz + jz, w, v);
                        j.push(w, theta0 + a * nz + jz, -v);
                    }
                }
            }
        }
    }

    /// Pushes the input column `col` of a uniform heat flux into the top face:
    /// `scale` $\cdot\,l_a\,\psi_j(z_{top})$ at the layer DOF $(a, j)$ (offset `theta0`), with
    /// $l_a = \int\phi_a$ the in-plane load functional.
    pub(crate) fn push_top_flux(
        &self,
        b: &mut Triplets,
        col: usize,
        l: &[f64],
        scale: f64,
        theta0: usize,
    ) {
        let nz = self.top.len();
        for (a, &la) in l.iter().enumerate() {
            for (jz, &zt) in self.top.iter().enumerate() {
                b.push(theta0 + a * nz + jz, col, scale * la * zt);
            }
        }
    }
}
