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
use faer::Mat;
use phlex_core::sparse::{self, SparseMat};

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
