//! MKR: physical mass, stiffness and damping matrices from an identified
//! state-space model (thesis 002 §3.7, eqs. (3.86)–(3.112); De Angelis, Luş,
//! Betti, Longman).
//!
//! Basis: the symmetric form 1, `V_c = [[R, M], [M, 0]]`, `S_c = [[−K, 0], [0, M]]`,
//! with eigenvectors `Ψ = [W; WΛ]` scaled so that `ΨᵀV_cΨ = I`, `ΨᵀS_cΨ = Λ`.
//! Then the modal input matrix is `WᵀB₂`, the modal output matrix
//! `C_s W Λ^b` (`b` = 0, 1, 2 for displacement, velocity, acceleration
//! sensing) and
//! `M = (WΛWᵀ)⁻¹`, `K = −(WΛ⁻¹Wᵀ)⁻¹`, `R = −M WΛ²Wᵀ M`.
//!
//! An identified model has eigenvectors `Ψ̂` of arbitrary scale: its modal
//! matrices `B̂_m = Ψ̂⁻¹B̂_c`, `Ĉ_m = ĈΨ̂` satisfy `B̂_m = T⁻¹WᵀB₂`,
//! `Ĉ_m = C_s W Λ^b T` for an unknown diagonal `T`. A collocated
//! sensor/actuator pair on DOF `d` fixes `t_k² = Ĉ_m(i₀,k) λ_k^{−b} / B̂_m(k,j₀)`
//! (eq. (3.104), written here with `T` on the output side), and then
//! `W(a_j, :) = (B̂_m(:, j))ᵀ T` for actuated DOFs, `W(s_i, :) = Ĉ_m(i, :) Λ^{−b} T⁻¹`
//! for sensed ones. Every DOF must be sensed or actuated, and the state
//! dimension must be `2 n₂`.
//!
//! The damping from MKR is sensitive to noise; the thesis replaces it by a
//! Rayleigh fit `R̂ = α̂M̂ + β̂K̂` ([`crate::identify::rayleigh`]).

use crate::error::{ControlError, Result};
use crate::linalg::{eig, real_part, solve_complex, to_complex};
use crate::model::state_space::{Sensing, StateSpace};
use crate::model::zoh::d2c;
use faer::{c64, Mat};

/// Instrumentation layout for MKR.
#[derive(Clone, Debug)]
pub struct MkrLayout {
    /// number of physical DOFs `n₂`
    pub n_dof: usize,
    /// DOF driven by each input (length `r`)
    pub actuated: Vec<usize>,
    /// DOF measured by each output (length `m`)
    pub sensed: Vec<usize>,
    /// sensor type
    pub sensing: Sensing,
}

/// MKR result.
#[derive(Clone, Debug)]
pub struct MkrResult {
    /// mass matrix `M̂`
    pub M: Mat<f64>,
    /// stiffness matrix `K̂`
    pub K: Mat<f64>,
    /// damping matrix `R̂` from MKR (noise sensitive)
    pub R: Mat<f64>,
    /// continuous eigenvalues `Λ̂_c`
    pub lambda: Vec<c64>,
    /// largest imaginary part discarded when taking `M̂, K̂, R̂` real, relative to their size
    pub imag_residue: f64,
}

/// Runs MKR on an identified model (continuous, or discrete — converted with [`d2c`]).
pub fn mkr(sys: &StateSpace, layout: &MkrLayout) -> Result<MkrResult> {
    let cont = if sys.is_discrete() {
        d2c(sys)?
    } else {
        sys.clone()
    };
    let n2 = layout.n_dof;
    let (n, r, m) = (cont.n_states(), cont.n_inputs(), cont.n_outputs());
    if n != 2 * n2 {
        return Err(ControlError::Mkr(format!(
            "state dimension {n} must equal 2 n_dof = {}",
            2 * n2
        )));
    }
    if layout.actuated.len() != r || layout.sensed.len() != m {
        return Err(ControlError::Mkr(format!(
            "layout lists {} actuated and {} sensed DOFs, the model has r = {r} inputs and m = {m} outputs",
            layout.actuated.len(),
            layout.sensed.len()
        )));
    }
    for &d in layout.actuated.iter().chain(&layout.sensed) {
        if d >= n2 {
            return Err(ControlError::Mkr(format!("DOF index {d} ≥ n_dof = {n2}")));
        }
    }
    for d in 0..n2 {
        if !layout.actuated.contains(&d) && !layout.sensed.contains(&d) {
            return Err(ControlError::Mkr(format!(
                "DOF {d} is neither sensed nor actuated"
            )));
        }
    }
    let (j0, i0) = layout
        .actuated
        .iter()
        .enumerate()
        .find_map(|(j, d)| layout.sensed.iter().position(|s| s == d).map(|i| (j, i)))
        .ok_or_else(|| ControlError::Mkr("no collocated sensor/actuator pair".into()))?;

    let (lam, Psi) = eig("continuous identified A", cont.A.as_ref())?;
    let Bm = solve_complex(
        "identified eigenvector matrix Ψ̂",
        Psi.as_ref(),
        to_complex(cont.B.as_ref()).as_ref(),
    )?;
    let Cm = to_complex(cont.C.as_ref()) * &Psi;
    let b = layout.sensing.power();
    let lpow = |k: usize, e: i32| -> c64 { lam[k].powi(e) };
    let mut t = vec![c64::new(0.0, 0.0); n];
    for k in 0..n {
        let num = Cm[(i0, k)] * lpow(k, -b);
        let den = Bm[(k, j0)];
        if den.norm() == 0.0 || num.norm() == 0.0 {
            return Err(ControlError::Mkr(format!(
                "mode {k} is not seen by the collocated pair (zero modal participation)"
            )));
        }
        t[k] = (num / den).sqrt();
    }
    let mut W = Mat::<c64>::zeros(n2, n);
    let mut filled = vec![false; n2];
    for (j, &d) in layout.actuated.iter().enumerate() {
        for k in 0..n {
            W[(d, k)] = Bm[(k, j)] * t[k];
        }
        filled[d] = true;
    }
    for (i, &d) in layout.sensed.iter().enumerate() {
        if filled[d] {
            continue;
        }
        for k in 0..n {
            W[(d, k)] = Cm[(i, k)] * lpow(k, -b) / t[k];
        }
        filled[d] = true;
    }
    let wlw = |e: i32| -> Mat<c64> {
        Mat::from_fn(n2, n2, |i, j| {
            let mut s = c64::new(0.0, 0.0);
            for k in 0..n {
                s += W[(i, k)] * lpow(k, e) * W[(j, k)];
            }
            s
        })
    };
    let eye = Mat::<c64>::from_fn(n2, n2, |i, j| c64::new((i == j) as u8 as f64, 0.0));
    let Mi = wlw(1);
    let Mc = solve_complex("W Λ Wᵀ (inverse mass)", Mi.as_ref(), eye.as_ref())?;
    let Kf = wlw(-1);
    let Kc = solve_complex("W Λ⁻¹ Wᵀ (inverse stiffness)", Kf.as_ref(), eye.as_ref())?;
    let Kc = faer::Scale(c64::new(-1.0, 0.0)) * Kc;
    let Rc = faer::Scale(c64::new(-1.0, 0.0)) * (&Mc * wlw(2) * &Mc);
    let rel = |A: &Mat<c64>| {
        let mut re = 0.0f64;
        let mut im = 0.0f64;
        for j in 0..n2 {
            for i in 0..n2 {
                re = re.max(A[(i, j)].re.abs());
                im = im.max(A[(i, j)].im.abs());
            }
        }
        im / re.max(f64::MIN_POSITIVE)
    };
    let imag_residue = rel(&Mc).max(rel(&Kc));
    Ok(MkrResult {
        M: crate::linalg::sym(real_part(Mc.as_ref()).as_ref()),
        K: crate::linalg::sym(real_part(Kc.as_ref()).as_ref()),
        R: crate::linalg::sym(real_part(Rc.as_ref()).as_ref()),
        lambda: lam,
        imag_residue,
    })
}
